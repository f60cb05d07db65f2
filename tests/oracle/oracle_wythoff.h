/*
 * oracle_wythoff.h -- a brute-force solver of Wythoff's game and of its
 * generalisation with difference a, written from the rules alone: two
 * piles; a move takes any positive number from one pile, or k > 0 from one
 * and l > 0 from the other with |k - l| < a.  No formula, no library code:
 * the game graph is searched cell by cell, each cell after its options.
 */
#ifndef ORACLE_WYTHOFF_H
#define ORACLE_WYTHOFF_H

/* 1 when (x, y) -> (x2, y2) is a legal move with difference a. */
int oracle_wythoff_is_move(int a, int x, int y, int x2, int y2);

/*
 * The outcomes of every (x, y) with x, y <= n: the returned array (caller
 * frees, NULL when out of memory) holds at [x * (n + 1) + y] 1 when the
 * player to move wins, 0 when the previous player does.  Misère: taking
 * the last counter loses, so (0, 0), which has no move, is a win for the
 * player to move.
 */
unsigned char *oracle_wythoff_outcomes(int n, int a, int misere);

/*
 * The Sprague-Grundy values (normal play) of every (x, y) with x, y < n,
 * at [x * n + y]: the mex of the values of the options.  Caller frees.
 */
unsigned *oracle_wythoff_grundy(int n, int a);

/*
 * The first count P-positions (lo[n], hi[n]) by Wythoff's construction
 * (1907, sec. 5, and sec. 7 for difference a): lo[n] is the least number
 * not in an earlier pair, hi[n] = lo[n] + a n in normal play, + 1 + a n in
 * misère play with a >= 2; misère a = 1 is the normal list with its first
 * two pairs (0, 0), (1, 2) replaced by (0, 1), (2, 2).  0, or -1 when out
 * of memory.
 */
int oracle_wythoff_pairs(long count, int a, int misere, long *lo, long *hi);

/*
 * 1 when (lo, hi) is the n-th pair by the defining inequalities, checked by
 * squaring (no square root, no floor identity), 0 when not:
 *   normal:  A_n = floor(n alpha)   iff L <= n s < L + 2,
 *            L = 2 A_n - (2 - a) n;
 *   misère a >= 2: A_n = floor(n alpha + 1/alpha) iff L <= m s < L + 2a,
 *            m = a n + 1, L = 2a A_n - (2 - a)(m - 2);
 * with s = sqrt(a^2 + 4); and B_n = A_n + a n (+ 1 in misère, a >= 2).
 * Include <gmp.h> first.
 */
int oracle_wythoff_defining(int a, int misere, const mpz_t n, const mpz_t lo,
                            const mpz_t hi);

#endif