/*
 * opponent_window.c -- the options the opponent weighs, within a budget:
 * every option of a component when they fit what is left of
 * BT_REMOTENESS_MOVES, else its window (engines/window.c, the one window
 * of huge components, which the analysis uses too).
 */
#include <stdlib.h>
#include <string.h>

#include "play/opponent_impl.h"

/*
 * The options of component i of o->p (with target, those of that value):
 * every one when they fit what is left of the budget, else its window.
 * Appends to pl.
 */
bt_status
bt__opp_options_of(opp *o, pool *pl, size_t i, const mpz_t *target)
{
    bt_game *g = bt_position_game(o->p, i);
    const mpz_t *c = bt_position_nums(o->p, i);
    size_t before = pl->n, budget = pl->budget;
    bt_limits small = *o->lim;
    bt_diag quiet;
    bt_status st;

    pl->comp = i;
    pl->g = g;
    pl->target = NULL;
    if (small.max_search > pl->budget)
        small.max_search = pl->budget;
    memset(&quiet, 0, sizeof quiet);
    if (target != NULL)
        st = bt__rs_moves_to(g, c, bt_position_count(o->p, i), *target,
                             bt__pool_emit, pl, &small, &quiet);
    else
        st = bt__rs_options(g, c, bt_position_count(o->p, i), bt__pool_emit, pl,
                            &small, &quiet);
    if (st != BT_ELIMIT)
        return st == BT_OK ? st : bt__fail(o->diag, st, "%s", quiet.message);
    /* too many: forget what came, offer the window */
    while (pl->n > before) {
        bt_move *m = &pl->m[--pl->n];
        size_t k;
        for (k = 0; k < m->nto; k++)
            mpz_clear(m->to[k]);
        free(m->to);
        free(m->text);
    }
    pl->budget = budget;
    pl->target = target;
    st = bt__window(pl, c, bt_position_count(o->p, i));
    pl->target = NULL;
    if (st == BT_ELIMIT) /* the budget is spent: keep what came */
        st = BT_OK;
    if (st == BT_EINTR) /* its message is written */
        return st;
    return st == BT_OK ? st : bt__fail(o->diag, st, "%s", quiet.message);
}

void
bt__opp_pool_init(pool *pl, const opp *o)
{
    memset(pl, 0, sizeof *pl);
    pl->lim = o->lim;
    pl->diag = o->diag;
    pl->budget = BT_REMOTENESS_MOVES;
}
