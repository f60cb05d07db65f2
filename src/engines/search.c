/*
 * search.c -- exhaustive search of a game graph, from the rules alone.
 *
 * A position is P exactly when no option is P (in normal play a position
 * with no move is P; in misère play, where taking the last counter loses,
 * it is N).  This is the definition, not a theorem about sums, so it is what
 * answers misère play of sums, where Grundy values say nothing.  The
 * positions decided are kept in the game-graph kernel's table (graph.h),
 * by the key of the position: its components sorted, since a sum of games
 * is commutative.  Bounded by bt_limits.max_search positions (stored, or on
 * the stack being decided) and by bt_limits.max_memory bytes (the memo
 * table, the stack and the moves it lists, charged to the search's budget).
 */
#include <stdlib.h>
#include <string.h>

#include "engines/engines.h"
#include "core/graph.h"

#define BT__STOP ((bt_status)100) /* internal: stop an enumeration early */
/* A listing of moves asks its budget and the interrupt every this many
   moves: one position can have max_search moves of any size each. */
#define POLL_MOVES 256u

struct bt__search {
    bt__graph memo;    /* outcomes (bt_outcome) by position */
    size_t opens;      /* positions opened: the poll's clock */
    bt__budget budget; /* what the table and a running search hold */
};

/* The bytes a copy of p holds (an estimate: its arrays and numbers). */
static size_t
position_bytes(const bt_position *p)
{
    size_t n = bt_position_size(p), i, bytes = 64;
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        size_t j, k = bt_position_count(p, i);
        bytes += 2 * sizeof(void *);
        for (j = 0; j < k; j++)
            bytes += bt__mpz_bytes(v[j]);
    }
    return bytes;
}

bt_status
bt__search_new(bt__search **out)
{
    bt__search *m = calloc(1, sizeof *m);
    *out = NULL;
    if (m == NULL)
        return BT_ENOMEM;
    bt__budget_init(&m->budget, NULL);
    if (bt__graph_init(&m->memo, 1024, &m->budget, NULL) != BT_OK) {
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
    bt__graph_clear(&m->memo);
    free(m);
}

size_t
bt__search_used(const bt__search *m)
{
    return m->memo.used;
}

int
bt__search_over_memory(const bt__search *m)
{
    return m->budget.exceeded;
}

/*
 * The search is iterative: an explicit stack of frames, one per position
 * being decided, so that a game of 10^5 moves cannot exhaust the C stack.
 * A frame lists its position's moves once, then visits the results one by
 * one; the first P-result decides it (N) and the rest are skipped.
 */
typedef struct frame {
    bt_position *p;
    bt__gbuf key;
    bt_move *moves;
    size_t nmoves, next;
    size_t bytes; /* charged to the memo's budget for this frame */
} frame;

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
   interrupt every POLL_MOVES: the moves of one position are the search's
   memory too (moore:5 with six piles of 10^4 digits has 10^5 moves of
   25 KB), so they are bounded as they are listed, not once listed. */
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
on_gather(void *ud, const mpz_t *to, size_t nto)
{
    return keep_move(ud, to, nto, NULL);
}

/* Lists every move of p, without texts; at most lim->max_search, charged
   to m's budget (f->bytes). */
static bt_status
gather_moves(bt__search *m, frame *f, const bt_limits *lim, bt_diag *diag)
{
    gather gt;
    size_t i;
    bt_status st = BT_OK;
    memset(&gt, 0, sizeof gt);
    gt.max = lim->max_search;
    gt.budget = &m->budget;
    gt.lim = lim;
    gt.diag = diag;
    for (i = 0; i < bt_position_size(f->p) && st == BT_OK; i++) {
        bt_game *g = bt_position_game(f->p, i);
        gt.comp = i;
        st = bt__rs_options(g, bt_position_nums(f->p, i), bt_position_count(f->p, i), on_gather, &gt,
                               lim, diag);
    }
    if (st != BT_OK) {
        bt_moves_free(gt.moves, gt.n);
        bt__budget_release(&m->budget, gt.bytes);
        if (st == BT_ELIMIT && gt.full)
            return bt__fail(diag, st,
                            "too large for exact analysis by search: a "
                            "position has more than %zu moves (the "
                            "max_search limit)",
                            lim->max_search);
        return st;
    }
    f->moves = gt.moves;
    f->nmoves = gt.n;
    f->bytes += gt.bytes;
    return BT_OK;
}

static void
frame_free(bt__search *m, frame *f)
{
    bt_position_free(f->p);
    bt__gbuf_free(&f->key);
    bt_moves_free(f->moves, f->nmoves);
    bt__budget_release(&m->budget, f->bytes);
    f->bytes = 0;
}

/* Records the outcome of the frame's position (the table copies the key
   and charges it). */
static bt_status
store(bt__search *m, frame *f, bt_outcome o, bt_diag *diag)
{
    return bt__graph_put(&m->memo, f->key.w, f->key.len, (long)o, diag);
}

/* Sets up a frame for q (taking it): 1 when its outcome is already known
   (in *known), 0 when it must be searched. */
static bt_status
frame_open(bt__search *m, frame *f, size_t depth, bt_position *q,
           bt_outcome *known, int *is_known, const bt_limits *lim,
           bt_diag *diag)
{
    const bt__gslot *s;
    bt_status st;
    memset(f, 0, sizeof *f);
    f->p = q;
    *is_known = 0;
    /* Every position opened counts toward the poll, those the table knows
       too: each costs its copy, its key (sorted components) and a lookup,
       some microseconds, and a search that mostly meets known positions
       (a misère sum of Grundy's game heaps) went 3-20 ms between polls
       when only new ones counted. */
    if ((++m->opens & 15) == 0 && bt__poll(lim) != BT_OK)
        return bt__fail(diag, BT_EINTR, /* the caller frees f (q) */
                        "the time budget ran out during search");
    if (bt__graph_key(&m->memo, &f->key, q) != BT_OK)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    s = bt__graph_find(&m->memo, f->key.w, f->key.len);
    if (s != NULL) {
        *known = (bt_outcome)s->value;
        *is_known = 1;
        return BT_OK;
    }
    /* the positions stored and those on the stack being decided (a long
       game goes deep before it stores anything) */
    if (m->memo.used + depth >= lim->max_search)
        return bt__fail(diag, BT_ELIMIT,
                        "too large for exact analysis by search: more than "
                        "%zu positions (the max_search limit)",
                        lim->max_search);
    f->bytes = sizeof *f + position_bytes(q) + f->key.cap * sizeof *f->key.w;
    if ((st = bt__budget_charge(&m->budget, f->bytes, diag)) != BT_OK) {
        f->bytes = 0;
        return st;
    }
    return gather_moves(m, f, lim, diag);
}

static bt_status
solve(bt__search *m, bt_outcome *out, const bt_position *p, int misere,
      const bt_limits *lim, bt_diag *diag)
{
    frame *stack = NULL;
    size_t depth = 0, cap = 0;
    bt_position *q;
    bt_outcome o = BT_P;
    int known;
    bt_status st = bt_position_copy(&q, p);

    if (st != BT_OK)
        return bt__fail(diag, st, "out of memory");
    cap = 64;
    stack = malloc(cap * sizeof *stack);
    if (stack == NULL) {
        bt_position_free(q);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    m->budget.max = lim->max_memory;
    m->budget.exceeded = 0;
    st = frame_open(m, &stack[0], 0, q, &o, &known, lim, diag);
    depth = 1;
    if (st == BT_OK && known) {
        *out = o;
        goto cleanup;
    }
    while (st == BT_OK && depth > 0) {
        frame *f = &stack[depth - 1];
        int decided = 0;
        if (f->nmoves == 0) {
            /* no move: the player to move has lost in normal play, and
               has won in misère play (the opponent took the last one) */
            o = misere ? BT_N : BT_P;
            decided = 1;
        } else if (f->next == f->nmoves) {
            o = BT_P; /* every move leads to an N-position */
            decided = 1;
        } else {
            bt_move *mv = &f->moves[f->next++];
            bt_outcome co;
            if ((st = bt_position_copy(&q, f->p)) != BT_OK ||
                (st = bt_position_apply(q, mv)) != BT_OK) {
                bt_position_free(q);
                st = bt__fail(diag, BT_ENOMEM, "out of memory");
                break;
            }
            if (depth == cap) {
                frame *ns = realloc(stack, 2 * cap * sizeof *stack);
                if (ns == NULL) {
                    bt_position_free(q);
                    st = bt__fail(diag, BT_ENOMEM, "out of memory");
                    break;
                }
                stack = ns;
                cap *= 2;
                f = &stack[depth - 1];
            }
            st = frame_open(m, &stack[depth], depth, q, &co, &known, lim,
                            diag);
            depth++;
            if (st != BT_OK)
                break;
            if (!known)
                continue; /* search the child first */
            frame_free(m, &stack[--depth]);
            if (co == BT_P) {
                o = BT_N;
                decided = 1;
            }
        }
        /* pass decisions up: a P-result decides its parent (N) */
        while (decided) {
            f = &stack[depth - 1];
            if ((st = store(m, f, o, diag)) != BT_OK)
                break;
            frame_free(m, f);
            depth--;
            decided = 0;
            if (depth > 0 && o == BT_P) {
                o = BT_N;
                decided = 1;
            }
        }
    }
    *out = o;
cleanup:
    while (depth > 0)
        frame_free(m, &stack[--depth]);
    free(stack);
    return st;
}

bt_status
bt__search_outcome(bt__search *m, bt_outcome *outcome, const bt_position *p,
                   int misere, const bt_limits *lim, bt_diag *diag)
{
    return solve(m, outcome, p, misere, bt__limits(lim), diag);
}

/* ------------------------------------------------------ listing moves */

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

bt_status
bt__move_push(bt_move **moves, size_t *n, size_t *cap, size_t comp,
              const mpz_t *to, size_t nto)
{
    bt_move *m;
    size_t j;
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 8;
        bt_move *q = realloc(*moves, c * sizeof *q);
        if (q == NULL)
            return BT_ENOMEM;
        *moves = q;
        *cap = c;
    }
    m = &(*moves)[*n];
    m->component = comp;
    m->nto = nto;
    m->text = NULL;
    m->to = NULL;
    if (nto > 0) {
        m->to = malloc(nto * sizeof *m->to);
        if (m->to == NULL)
            return BT_ENOMEM;
        for (j = 0; j < nto; j++)
            mpz_init_set(m->to[j], to[j]);
    }
    (*n)++;
    return BT_OK;
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

void
bt_moves_free(bt_move *moves, size_t count)
{
    size_t i, j;
    if (moves == NULL)
        return;
    for (i = 0; i < count; i++) {
        for (j = 0; j < moves[i].nto; j++)
            mpz_clear(moves[i].to[j]);
        free(moves[i].to);
        free(moves[i].text);
    }
    free(moves);
}

bt_status
bt_position_apply(bt_position *p, const bt_move *m)
{
    if (m->component >= bt_position_size(p))
        return BT_EINVAL;
    return bt_position_replace(p, m->component,
                               bt_position_game(p, m->component),
                               (const mpz_t *)m->to, m->nto);
}
