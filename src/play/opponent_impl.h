/*
 * opponent_impl.h -- what the files of the computer player share; private
 * to them (opponent.c, opponent_proxy.c, opponent_window.c; the random
 * numbers and starts of opponent_random.c need only the helpers), not part
 * of the public API nor of the rest of the library.
 *
 * It holds the state of one decision (opp), a candidate move and what the
 * rule weighs (scored), the pool of options the windows fill (pool, the
 * engine's bt__pool), two helpers on positions of Nim heaps, and the
 * functions one file gives another (bt__opp_*).  The rule itself is described at the top of
 * opponent.c.
 */
#ifndef BOUTON_OPPONENT_IMPL_H
#define BOUTON_OPPONENT_IMPL_H

#include "engines/engines.h"
#include "analysis/analysis.h"
#include "engines/window.h"

typedef struct opp {
    const bt_position *p;
    int misere;
    unsigned flags; /* BT_MISERE or 0 */
    const bt_limits *lim;
    bt_diag *diag;
    int nim;           /* every component a Nim pile: closed forms */
    mpz_t total;       /* Nim: the counters T */
    size_t big;        /* Nim: the piles above 1 */
    bt_solver *solver; /* other games: remoteness by search */
    int rem_known;
} opp;

/* One candidate move and what the rule weighs. */
typedef struct scored {
    const bt_move *m;
    mpz_t delta;  /* change of the total of numbers */
    mpz_t rem;    /* remoteness of the result, when known */
    mpz_t w, all; /* P-rule: winning replies and all replies */
} scored;

/* The options the windows gather, within a budget (engines/window.h). */
typedef bt__pool pool;

/* Non-zero when every component of p is a Nim heap (BT__RS_NIM_HEAPS):
   Nim's closed forms then give the moves and the rule. */
static inline int
all_nim_heaps(const bt_position *p)
{
    return bt__position_is_all(p, BT__RS_NIM_HEAPS);
}

/* The counters of a position of Nim heaps: its number of moves. */
static inline void
nim_total(mpz_t rop, const bt_position *p)
{
    size_t i;
    mpz_set_ui(rop, 0);
    for (i = 0; i < bt_position_size(p); i++)
        mpz_add(rop, rop, bt_position_nums(p, i)[0]);
}

/* ------------------------------------- what one file gives another */

/* opponent.c, the rule: how a move changes the total of the numbers; the
   tie order after the total; a candidate's numbers made and released; the
   order of the P-position rule (the longest game, then the least share of
   winning replies); the position a move leaves; the fastest winning move
   among moves; the options of a position, counted up to what the limits
   allow. */
void bt__opp_total_delta(mpz_t d, const bt_position *p, const bt_move *m);
int bt__opp_cmp_place(const bt_move *a, const bt_move *b);
void bt__opp_scored_init(scored *s);
void bt__opp_scored_clear(scored *s);
int bt__opp_cmp_delay(const scored *a, const scored *b, int rem_known);
bt_status bt__opp_child_of(bt_position **out, const bt_position *p, const bt_move *m,
                   bt_diag *diag);
bt_status bt__opp_choose_win(bt_move **out, opp *o, const bt_move *moves, size_t n);
bt_status bt__opp_count_moves(mpz_t rop, const bt_position *q, const bt_limits *lim,
                      bt_diag *diag);

/* opponent_window.c: the options of component i of o->p (with target,
   those of that value), every one when they fit the budget, else its
   window, appended to pl; a pool made empty for o. */
bt_status bt__opp_options_of(opp *o, pool *pl, size_t i, const mpz_t *target);
void bt__opp_pool_init(pool *pl, const opp *o);

/* opponent_proxy.c: the rule past exact analysis: the winning moves the
   windows find; the proxy of the longest game; misère play by Bouton's
   rule lifted to Grundy values. */
bt_status bt__opp_window_wins(opp *o, pool *pl, const bt_analysis *a);
bt_status bt__opp_proxy_delay(bt_move **out, opp *o);
bt_status bt__opp_misere_heuristic(bt_move **out, opp *o);

#endif
