/*
 * analysis/analysis.h -- remoteness (analysis/remoteness.c), which the
 * analysis (analyze.c) and the opponent (play/) call.  Not part of the
 * public API.
 */
#ifndef BOUTON_SRC_ANALYSIS_H
#define BOUTON_SRC_ANALYSIS_H

#include "../core/core.h"

/* ------------------------------------------------- remoteness, bounded */

/* Milliseconds of the calling thread's CPU time (remoteness.c): the
   cheap searches are bounded by their work, not by the load. */
uint64_t bt__clock_ms(void);
/* Bounds solver s further (remoteness.c): at most max_moves moves listed
   in all, max_bytes held (estimated: keys, table, the moves on the search
   path), and no work past deadline_ms of bt__clock_ms (0: none).  Past
   any, bt_solver_solve gives BT_ELIMIT naming the bound. */
void bt__solver_bound(bt_solver *s, size_t max_moves, size_t max_bytes,
                      uint64_t deadline_ms);
/* A solver within the budget of the optional remoteness (the
   BT_REMOTENESS_* bounds of core.h, and lim->max_search if smaller), its
   time counted from now. */
bt_status bt__solver_cheap(bt_solver **out, int misere, const bt_limits *lim);
/* Nim's closed forms of remoteness (remoteness.c): rop gets the
   remoteness of p, every component a Nim heap (BT__RS_NIM_HEAPS), from
   what its analysis found: its outcome and its winning moves wins[0..
   nwins-1] (every one).  The analysis hands them down; nothing is
   analysed again. */
void bt__remoteness_nim(mpz_t rop, const bt_position *p, int misere,
                        bt_outcome outcome, const bt_move *wins,
                        size_t nwins);
/* Remoteness by the exhaustive search of p's game graph (remoteness.c):
   within lim->max_search positions, or, when `cheap`, within the budget
   of bt__solver_cheap.  BT_ELIMIT with the reason in diag past it. */
bt_status bt__remoteness_search(mpz_t rop, const bt_position *p, int misere,
                                int cheap, const bt_limits *lim,
                                bt_diag *diag);

#endif
