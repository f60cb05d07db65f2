/*
 * oracle_nim.h -- a brute-force solver of Nim for the tests, written from
 * the rules alone (Bouton 1901/02, sec. 1 and 6): a move takes one or more
 * counters from one pile; in normal play the player who takes the last
 * counter wins, in misère play he loses.  So a position without counters is
 * lost by the player to move in normal play (he cannot move) and won in
 * misère play (his opponent took the last counter); any other position is
 * won (N) exactly when some move leads to a lost position (P).
 *
 * The solver searches the game graph with a memo, and knows nothing of
 * binary numbers, nim-sums or Bouton's theory.  It is independent of the
 * library: it does not link to it.  Its Grundy values come from the same
 * search, by the mex rule (Sprague 1935, Grundy 1939), not from XOR.
 */
#ifndef BT_ORACLE_NIM_H
#define BT_ORACLE_NIM_H

#include <stddef.h>

typedef struct oracle_nim oracle_nim;

/* A move: pile `pile` (0-based) is left with `to` counters. */
typedef struct oracle_nim_move {
    size_t pile;
    unsigned to;
} oracle_nim_move;

/*
 * A solver for positions of at most max_piles piles of at most max_pile
 * counters each, in normal (misere = 0) or misère play.  NULL when the memo
 * would be too large (more than 2^26 entries) or out of memory.
 */
oracle_nim *oracle_nim_new(int misere, size_t max_piles, unsigned max_pile);
void oracle_nim_free(oracle_nim *o);

/* 1 when the position piles[0..n-1] is a P-position (the player to move
   loses), 0 when it is an N-position, -1 when it is out of bounds. */
int oracle_nim_is_p(oracle_nim *o, const unsigned *piles, size_t n);

/*
 * The winning moves of piles[0..n-1]: every move that leads to a
 * P-position, by pile and then by size left, into out[0..cap-1].  Returns
 * their number (which may exceed cap: only cap are stored), or -1 when out
 * of bounds.
 */
long oracle_nim_winning_moves(oracle_nim *o, const unsigned *piles, size_t n,
                              oracle_nim_move *out, size_t cap);

/* The Grundy value of the position in normal play, by the mex rule over
   the game graph (-1 when out of bounds or for a misère solver). */
long oracle_nim_grundy(oracle_nim *o, const unsigned *piles, size_t n);

#endif
