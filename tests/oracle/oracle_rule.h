/*
 * oracle_rule.h -- the computer opponent's documented rule, by brute force
 * (include/bouton/play.h, docs/opponent.md), over every legal move and
 * every reply, with every quantity from the oracle search
 * (oracle_search.h): remoteness and winning replies from the definitions.
 *
 * In an N-position: among the moves to P-positions, the least remoteness
 * of the result, then the smaller total of numbers left, then the lower
 * component, then the smaller `to`.  In a P-position: among all moves, the
 * greatest remoteness of the result, then the least share w/m of winning
 * replies among all replies (1 when there is no reply), then the larger
 * total left, then the lower component, then the smaller `to`.
 */
#ifndef BT_ORACLE_RULE_H
#define BT_ORACLE_RULE_H

#include <bouton.h>

#include "oracle_search.h"

/*
 * Lists the moves of p (*moves, *n, in bt_position_moves order; free with
 * bt_moves_free) and sets *best to the index of the move the rule picks and
 * *win to 1 when p is an N-position.  Returns 0; -1 when p has no move or
 * something failed.
 */
int oracle_rule_pick(oracle_search *o, const bt_position *p, int misere,
                     bt_move **moves, size_t *n, size_t *best, int *win);

/* 1 when a and b are the same move (component and `to`). */
int oracle_rule_same_move(const bt_move *a, const bt_move *b);
/* The rule's last tie-break, the place: the lower component, then the
   smaller `to`; < 0 when a comes first. */
int oracle_rule_place_cmp(const bt_move *a, const bt_move *b);

#endif
