/*
 * window.h -- the one move window of huge components (window.c): the
 * options of a component with too many of them to list, as far as a
 * budget allows; not part of the public API.
 *
 * The analysis (the winning moves of a huge heap, analyze.c) and the
 * opponent (the options it weighs, opponent_window.c) both take it from
 * here: it sits in the engines, below both.
 */
#ifndef BOUTON_WINDOW_H
#define BOUTON_WINDOW_H

#include "engines/engines.h"

/* The options a window gathers, within a budget: moves of component
   `comp` of game g, appended to m[0..n-1] (cap allocated). */
typedef struct bt__pool {
    bt_move *m;
    size_t n, cap;
    size_t comp;
    const mpz_t *target; /* keep only options of this value (NULL: all) */
    bt_game *g;
    const bt_limits *lim;
    bt_diag *diag;
    size_t budget; /* options still allowed in all */
} bt__pool;

/* A bt__emit into the pool ud: the option is kept when it has the
   pool's target value (or there is no target) and the budget allows
   (BT_ELIMIT when it is spent). */
bt_status bt__pool_emit(void *ud, const mpz_t *to, size_t nto);

/* Appends to pl the window of component c (n numbers) of pl->g: over its
   heap rules when its family has them (the ruleset's heap hook), else the
   moves that take few counters that its is_option allows (none without
   that hook).  BT_ELIMIT when the budget is spent, BT_EINTR (message
   written) when the time budget ran out, BT_ENOMEM. */
bt_status bt__window(bt__pool *pl, const mpz_t *c, size_t n);

/* Emits the options of component c (n numbers) of game g whose value is
   target among its window (within BT_REMOTENESS_MOVES options), for a
   component with too many options to list.  BT_OK (possibly emitting
   none), or BT_ENOMEM. */
bt_status bt__window_moves_to(bt_game *g, const mpz_t *c, size_t n,
                              const mpz_t target, bt__emit emit, void *ud,
                              const bt_limits *lim);

#endif
