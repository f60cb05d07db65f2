/*
 * oracle_search.h -- a brute-force solver for the tests, written from the
 * definitions alone: a position with no move is lost by the player to move
 * in normal play and won in misère play; otherwise it is won exactly when
 * some move leads to a lost position.  Remoteness (Smith 1966) likewise: 0
 * with no move, else 1 + the least remoteness of the lost options when the
 * position is won, 1 + the greatest remoteness of all options when lost.
 *
 * It uses only the public API (bt_position_moves and bt_position_apply, the
 * rules of each game) and a plain memo on the position's text, with none of
 * the library's theory (no Grundy values, no sorting of components).
 */
#ifndef BT_ORACLE_SEARCH_H
#define BT_ORACLE_SEARCH_H

#include <bouton.h>

typedef struct oracle_search oracle_search;

/* A memo for one play convention; NULL when out of memory. */
oracle_search *oracle_search_new(int misere);
void oracle_search_free(oracle_search *o);

/*
 * Solves p: *win is 1 when the player to move wins (N), 0 when not (P);
 * *rem the remoteness.  Returns 0, or -1 when the library failed (a limit).
 */
int oracle_search_solve(oracle_search *o, const bt_position *p, int *win,
                        long *rem);

/* The number of the moves of p that lead to a P-position (-1 on error). */
long oracle_search_winning_count(oracle_search *o, const bt_position *p);

#endif
