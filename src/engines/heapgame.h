/*
 * heapgame.h -- what the heap-game families (sub, octal, grundy) share with
 * the Sprague-Grundy sequence engine of sequence.c; not part of the public
 * API.
 *
 * A heap game is described to the engine by its moves on one heap of n
 * counters: remove k counters and leave nothing (k = n), one non-empty heap
 * (n - k), or two non-empty heaps a + b = n - k.  Octal codes, subtraction
 * sets and Grundy's game all reduce to these lists.
 */
#ifndef BOUTON_HEAPGAME_H
#define BOUTON_HEAPGAME_H

#include "internal.h"

typedef enum { BT__HEAP_OCTAL, BT__HEAP_SUB, BT__HEAP_GRUNDY } bt__heap_kind;

typedef struct bt__heap_rules {
    bt__heap_kind kind;
    size_t t;      /* the most counters one move removes */
    size_t nwhole; /* take the whole heap of exactly k (octal bit 1) */
    size_t *whole;
    size_t none; /* take k, leave one non-empty heap (bit 2) */
    size_t *one;
    size_t nsplit; /* take k (0 allowed), leave two non-empty heaps
                      (bit 4), ascending */
    size_t *split;
    int unequal;    /* the two heaps of a split must differ */
    int provable;   /* a periodicity theorem applies (octal, sub) */
    int sub_window; /* every move is "take k, leave 0 or 1 heap" for the
                       same set of k (every non-zero digit is 3): the
                       subtraction-game window applies */
    /* A subtraction set as sorted disjoint intervals [lo, hi]; the engine
       slides windows over them when the set is large. */
    size_t nint;
    size_t *lo, *hi;
    size_t setsize;       /* elements in the set (sub) */
    unsigned char *digit; /* octal digits d[0..t] (octal, grundy) */
} bt__heap_rules;

/* The state of a game of the three families. */
typedef struct bt__heap_game {
    bt__heap_rules rules;
    bt_sequence *seq; /* the cached Grundy sequence, made on demand */
} bt__heap_game;

/* Releases what the rules own (not the struct itself). */
void bt__heap_rules_clear(bt__heap_rules *r);

/*
 * Fills r from octal digits d[0..t] (d[0] is 0 or 4, d[t] is not 0); with
 * unequal, the two heaps of a split must differ (Grundy's game).  Octal
 * games are provable (Guy-Smith).  BT_ENOMEM on failure.
 */
bt_status bt__heap_rules_digits(bt__heap_rules *r, bt__heap_kind kind,
                                const unsigned char *d, size_t t, int unequal);

/* The ruleset hooks shared by the three families (g->state is a
   bt__heap_game). */
void bt__heap_fini(bt_game *g);
bt_status bt__heap_grundy(bt_game *g, mpz_t rop, const mpz_t *c,
                          const bt_limits *lim, bt_diag *diag);
bt_status bt__heap_options(bt_game *g, const mpz_t *c, bt__emit emit, void *ud,
                           const bt_limits *lim, bt_diag *diag);
bt_status bt__heap_moves_to(bt_game *g, const mpz_t *c, const mpz_t target,
                            bt__emit emit, void *ud, const bt_limits *lim,
                            bt_diag *diag);
void bt__heap_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
                       const mpz_t *to, size_t nto);

/* Non-zero when g belongs to one of the heap-game families. */
int bt__is_heap_game(const bt_game *g);

#endif
