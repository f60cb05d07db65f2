/*
 * search.c -- exhaustive search of a game graph, from the rules alone: the
 * misère outcome, a client of the kernel's walk (core/graph.h); and the
 * moves of a position, listed within a budget.
 *
 * A position is P exactly when no option is P (in normal play a position
 * with no move is P; in misère play, where taking the last counter loses,
 * it is N).  This is the definition, not a theorem about sums, so it is what
 * answers misère play of sums, where Grundy values say nothing.  The
 * positions decided are kept in the kernel's table, by the key of the
 * position: its components sorted, since a sum of games is commutative.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/engines.h"
#include "core/graph.h"

#define BT__STOP ((bt_status)100) /* internal: stop an enumeration early */

/* The outcome search is a client of the kernel's walk (core/graph.h),
   which keeps the outcomes (bt_outcome) by position across the calls. */
struct bt__search {
    bt__gwalk walk;
};

bt_status
bt__search_new(bt__search **out)
{
    bt__search *m = calloc(1, sizeof *m);
    *out = NULL;
    if (m == NULL)
        return BT_ENOMEM;
    if (bt__gwalk_init(&m->walk, BT__GASK_OUTCOME, 0, 1024) != BT_OK) {
        free(m);
        return BT_ENOMEM;
    }
    *out = m;
    return BT_OK;
}

void
bt__search_free(bt__search *m)
{
    if (m == NULL)
        return;
    bt__gwalk_clear(&m->walk);
    free(m);
}

size_t
bt__search_used(const bt__search *m)
{
    return m->walk.t.used;
}

int
bt__search_over_memory(const bt__search *m)
{
    return m->walk.budget.exceeded;
}

/*
 * Bounded by lim: at most max_search positions (stored, or on the path
 * being decided), max_search moves of one position, max_memory bytes (the
 * table, the path and the moves it lists, charged to the walk's budget),
 * and the interrupt.
 */
bt_status
bt__search_outcome(bt__search *m, bt_outcome *outcome, const bt_position *p,
                   int misere, const bt_limits *lim, bt_diag *diag)
{
    bt__gwalk *w = &m->walk;
    long v = BT_P;
    bt_status st;
    lim = bt__limits(lim);
    w->misere = misere != 0;
    w->max_positions = lim->max_search;
    w->max_moves = lim->max_search;
    w->budget.max = lim->max_memory;
    w->check_root = 1;
    st = bt__gwalk_value(w, &v, p, lim, diag);
    *outcome = (bt_outcome)v;
    if (st == BT_OK)
        return st;
    switch (w->why) {
    case BT__GWHY_POSITIONS:
        return bt__fail(diag, BT_ELIMIT,
                        "too large for exact analysis by search: more than "
                        "%zu positions (the max_search limit)",
                        lim->max_search);
    case BT__GWHY_MOVES:
        return bt__fail(diag, BT_ELIMIT,
                        "too large for exact analysis by search: a "
                        "position has more than %zu moves (the "
                        "max_search limit)",
                        lim->max_search);
    case BT__GWHY_BYTES: /* "... (the max_memory limit)" */
        return bt__budget_check(&w->budget, NULL, diag);
    case BT__GWHY_INTERRUPT:
        return bt__fail(diag, BT_EINTR,
                        "the time budget ran out during search");
    default:
        break;
    }
    return st == BT_ENOMEM ? bt__fail(diag, st, "out of memory") : st;
}

/* ------------------------------------------------------ listing moves */

/* A listing of moves asks its budget and the interrupt every this many
   moves: one position can have max_search moves of any size each. */
#define POLL_MOVES 256u

typedef struct gather {
    bt_move *moves;
    size_t n, cap, comp, max;
    bt__budget *budget; /* the moves are charged to it as they come */
    size_t bytes;       /* charged so far */
    int full;           /* max reached: the ELIMIT is max_search's */
    const bt_limits *lim;
    bt_diag *diag;
} gather;

/* Keeps one more move, charged to the budget, asking the budget and the
   interrupt every POLL_MOVES: a list of moves is memory too (moore:5 with
   six piles of 10^4 digits has 10^5 moves of 25 KB), so it is bounded as
   it is listed, not once listed. */
static bt_status
keep_move(gather *gt, const mpz_t *to, size_t nto, const bt_position *p)
{
    bt_status st;
    size_t bytes;
    if (gt->n >= gt->max) {
        gt->full = 1;
        return BT_ELIMIT;
    }
    st = p != NULL
             ? bt__move_push_text(&gt->moves, &gt->n, &gt->cap, p, gt->comp,
                                  to, nto)
             : bt__move_push(&gt->moves, &gt->n, &gt->cap, gt->comp, to, nto);
    if (st != BT_OK)
        return st;
    bytes = bt__moves_bytes(&gt->moves[gt->n - 1], 1);
    if ((st = bt__budget_charge(gt->budget, bytes, gt->diag)) != BT_OK)
        return st;
    gt->bytes += bytes;
    if (gt->n % POLL_MOVES == 0)
        return bt__budget_check(gt->budget, gt->lim, gt->diag);
    return BT_OK;
}


static bt_status
stop_at_first(void *ud, const mpz_t *to, size_t nto)
{
    (void)to;
    (void)nto;
    *(int *)ud = 1;
    return BT__STOP;
}

int
bt__component_is_terminal(const bt_position *p, size_t i,
                          const bt_limits *lim)
{
    bt_game *g = bt_position_game(p, i);
    int any = 0;
    bt_status st = bt__rs_options(g, bt_position_nums(p, i), bt_position_count(p, i),
                                     stop_at_first, &any, lim, NULL);
    /* an enumeration that failed (a limit) certainly had moves to offer */
    return !any && (st == BT_OK || st == BT__STOP);
}

int
bt_position_is_terminal(const bt_position *p)
{
    size_t i;
    for (i = 0; i < bt_position_size(p); i++)
        if (!bt__component_is_terminal(p, i, NULL))
            return 0;
    return 1;
}

char *
bt__move_text(const bt_position *p, const bt_move *m)
{
    bt_game *g = bt_position_game(p, m->component);
    bt__buf b;
    bt__buf_init(&b);
    bt__rs_describe(g, &b, m->component, bt_position_nums(p, m->component), bt_position_count(p, m->component),
                       (const mpz_t *)m->to, m->nto);
    return bt__buf_take(&b);
}

bt_status
bt__move_push_text(bt_move **moves, size_t *n, size_t *cap,
                   const bt_position *p, size_t comp, const mpz_t *to,
                   size_t nto)
{
    bt_status st = bt__move_push(moves, n, cap, comp, to, nto);
    if (st != BT_OK)
        return st;
    (*moves)[*n - 1].text = bt__move_text(p, &(*moves)[*n - 1]);
    return (*moves)[*n - 1].text ? BT_OK : BT_ENOMEM;
}

bt_status
bt__move_new(bt_move **out, const bt_position *p, size_t comp,
             const mpz_t *to, size_t nto, bt_diag *diag)
{
    bt_move *m = NULL;
    size_t n = 0, cap = 0;
    bt_status st = bt__move_push_text(&m, &n, &cap, p, comp, to, nto);
    *out = NULL;
    if (st != BT_OK) {
        bt_moves_free(m, n);
        return bt__fail(diag, st, "out of memory");
    }
    *out = m;
    return BT_OK;
}

typedef struct list {
    gather gt;
    const bt_position *p;
} list;

static bt_status
on_move(void *ud, const mpz_t *to, size_t nto)
{
    list *l = ud;
    return keep_move(&l->gt, to, nto, l->p);
}

/* The list is the caller's, so it is charged to a budget of its own: at
   most max_memory bytes of moves (with their texts) and max_search moves,
   the budget and the interrupt asked as they are listed. */
static bt_status
position_moves(bt_move **out, size_t *count, const bt_position *p,
               const bt_limits *lim, bt_diag *diag)
{
    list l;
    size_t i;
    bt_status st = BT_OK;
    bt__budget budget;
    lim = bt__limits(lim);
    bt__budget_init(&budget, lim);
    memset(&l, 0, sizeof l);
    l.p = p;
    l.gt.max = lim->max_search;
    l.gt.budget = &budget;
    l.gt.lim = lim;
    l.gt.diag = diag;
    *out = NULL;
    *count = 0;
    for (i = 0; i < bt_position_size(p); i++) {
        bt_game *g = bt_position_game(p, i);
        l.gt.comp = i;
        st = bt__rs_options(g, bt_position_nums(p, i), bt_position_count(p, i), on_move, &l, lim,
                               diag);
        if (st != BT_OK)
            break;
    }
    if (st != BT_OK) {
        bt_moves_free(l.gt.moves, l.gt.n);
        if (st == BT_ELIMIT && l.gt.full)
            return bt__fail(diag, st,
                            "more than %zu moves to list (the max_search "
                            "limit)",
                            lim->max_search);
        return st == BT_ENOMEM ? bt__fail(diag, st, "out of memory") : st;
    }
    *out = l.gt.moves;
    *count = l.gt.n;
    return BT_OK;
}

bt_status
bt_position_moves(bt_move **out, size_t *count, const bt_position *p,
                  const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, position_moves(out, count, p, lim, diag));
}
