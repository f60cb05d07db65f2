/*
 * oracle_heap.h -- a brute-force solver for one heap of a heap game, for
 * the tests of the Sprague-Grundy engine.  Written from the rules alone,
 * with its own parser of the game texts: it lists the options of a heap by
 * reading the octal digits (or the hexadecimal and repeating digits of a
 * take-and-break code, the subtraction set, Grundy's rule) and
 * computes G by the definition, G(n) = mex of the options' values, a
 * position of several heaps being worth the nim-sum of its heaps (the
 * Sprague-Grundy theorem, which tests/oracle/oracle_sum.c checks against
 * plain game-tree search).  Nothing of src/ is used.
 */
#ifndef BT_ORACLE_HEAP_H
#define BT_ORACLE_HEAP_H

#include <stddef.h>

typedef struct oh_game oh_game;

/* Parses "octal:0.77" (also ".77", "4.07"), the named octal games
   (kayles, dawsons-kayles, dawsons-chess, double-kayles, officers,
   treblecross), "sub:1,2,5-7" and "grundy"/"grundys-game".  NULL when the
   text is not one of these. */
oh_game *oh_game_new(const char *spec);
/* A take-and-break code from its digits d[0..t] (t < 64), digit d_k with
   bit j (value 2^j, j <= 3) set when a move removing k counters may leave
   j non-empty heaps, then, when blen > 0 (at most 64), the digits
   block[0..blen-1] repeated forever (d_k = block[(k - t - 1) mod blen] for
   k > t).  NULL when a digit exceeds 15. */
oh_game *oh_game_code(const unsigned *d, unsigned t, const unsigned *block,
                      unsigned blen);
void oh_game_free(oh_game *g);

/*
 * Calls f for every option of a heap of n: the heaps left (0 to 3 of
 * them, in non-decreasing order), each option once.  Returns the number
 * of options.
 */
size_t oh_options(const oh_game *g, unsigned n,
                  void (*f)(void *ud, const unsigned *parts, size_t nparts),
                  void *ud);

/* G(0..n-1) by the mex over the options (malloc'd; NULL when out of
   memory). */
unsigned *oh_grundy(const oh_game *g, unsigned n);

/*
 * Misère play of sums of heaps of g by the definition: a position is P
 * when it has a move and every move leads to a position that is not P (a
 * position with no move is N: the opponent took the last counter).
 * Memoised on the sorted non-zero heaps, kept over the calls.
 */
typedef struct oh_misere oh_misere;
/* NULL when out of memory; g must outlive it. */
oh_misere *oh_misere_new(const oh_game *g);
void oh_misere_free(oh_misere *m);
/* 1 when the sum of heaps h[0..n-1] (each at most 255, n at most 128) is a
   misère P-position, 0 when it is N, -1 when out of memory or too large. */
int oh_misere_is_p(oh_misere *m, const unsigned *h, size_t n);

/* The least period p and preperiod n0 of the values a[0..n-1] that repeat
   over at least the last `tail` values: G(i + p) = G(i) for n0 <= i < n - p
   with n - n0 >= tail and p <= (n - n0) / 2.  0 when none. */
int oh_period(const unsigned *a, size_t n, size_t tail, size_t *p, size_t *n0);

/*
 * A published sequence of tests/cases/grundy_*.txt: lines "key value...",
 * '#' starting a comment.  Keys: game, offset, period, preperiod, check
 * (quick, slow or bench), values (G(offset), G(offset + 1), ..., over as
 * many lines as needed), ppos_mod M R (the P-positions are the n with
 * n mod M = R).  Absent numbers are -1.
 */
typedef struct oh_case {
    char game[64];
    char check[16];
    long offset, period, preperiod, ppos_mod, ppos_rem;
    unsigned *values;
    size_t nvalues;
} oh_case;

/* Reads the "key value..." lines of the file at path ('#' starts a comment
   line), calling f(ud, key, rest of the line) for each; -1 when the file
   cannot be read or f returns non-zero (it stops there), else 0. */
int oh_read_keys(const char *path,
                 int (*f)(void *ud, const char *key, const char *rest),
                 void *ud);
/* Reads the file at path into c; 0 on success, -1 on a malformed file. */
int oh_case_load(oh_case *c, const char *path);
void oh_case_free(oh_case *c);

#endif
