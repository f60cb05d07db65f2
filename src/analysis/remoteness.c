/*
 * remoteness.c -- how many moves are left when the winner hurries and the
 * loser delays (C. A. B. Smith, "Graphs and composite games", 1966).
 *
 * Two ways to the same number:
 *
 *   - Nim, at any size, by closed forms (proved in docs/opponent.md and
 *     checked against the search below on every small position by
 *     tests/unit/test_remoteness.c).  With T the number of counters:
 *     a normal-play P-position has remoteness T, because the loser can make
 *     every move of the rest of the game take exactly one counter (take one
 *     from a pile with the fewest trailing zero bits: every winning reply
 *     then takes one too), and no game is longer than T moves.  In misère
 *     play a P-position has remoteness T when no pile exceeds 1 and T - 1
 *     otherwise.  An N-position has 1 + the least remoteness of the
 *     P-positions its winning moves leave.
 *
 *   - Any other position by an exhaustive, memoised search of its game
 *     graph (bt_solver), from the rules alone.
 *
 * This file is below the analysis: the closed forms take the outcome and
 * the winning moves that analyze.c found, and bt_remoteness (analyze.c)
 * chooses between the two ways.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/graph.h"
#include "engines/engines.h"
#include "analysis/analysis.h"

/* ---------------------------------------------------------------- solver */

struct bt_solver {
    int misere;
    size_t max_states;
    bt__graph memo; /* remoteness by position; the outcome is its parity */
    /* the further bounds of bt__solver_bound (SIZE_MAX, 0: none) */
    size_t max_moves, max_bytes;
    uint64_t deadline_ms;
    size_t moves;     /* moves listed so far, in all */
    /* of the running bt_solver_solve: the bytes it may hold (max_bytes, or
       lim->max_memory when smaller) and whether lim's is the bound */
    size_t cap_bytes;
    int cap_is_lim;
};

/* The budget is asked every this many moves listed or followed: the
   clock and the interrupt cost a system call. */
#define POLL_MOVES 64u

/* CPU time of the calling thread, not wall time: the bounds of the cheap
   searches measure their work, so that an answer (remoteness known or left
   out, and why) does not change with the load of the machine. */
uint64_t
bt__clock_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0 &&
        clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void
bt__solver_bound(bt_solver *s, size_t max_moves, size_t max_bytes,
                 uint64_t deadline_ms)
{
    s->max_moves = max_moves;
    s->max_bytes = max_bytes;
    s->deadline_ms = deadline_ms;
}

bt_status
bt__solver_cheap(bt_solver **out, int misere, const bt_limits *lim)
{
    size_t states = BT_REMOTENESS_SEARCH;
    bt_status st;
    lim = bt__limits(lim);
    if (lim->max_search < states)
        states = lim->max_search;
    st = bt_solver_new(out, misere, states);
    if (st == BT_OK)
        bt__solver_bound(*out, BT_REMOTENESS_MOVES, BT_REMOTENESS_BYTES,
                         bt__clock_ms() + BT_REMOTENESS_MILLIS);
    return st;
}

bt_status
bt_solver_new(bt_solver **out, int misere, size_t max_states)
{
    bt_solver *s = calloc(1, sizeof *s);
    *out = NULL;
    if (s == NULL)
        return BT_ENOMEM;
    s->misere = misere != 0;
    s->max_states = max_states;
    s->max_moves = SIZE_MAX;
    s->max_bytes = SIZE_MAX;
    if (bt__graph_init(&s->memo, 256, NULL, NULL) != BT_OK) {
        free(s);
        return BT_ENOMEM;
    }
    *out = s;
    return BT_OK;
}

void
bt_solver_free(bt_solver *s)
{
    if (s == NULL)
        return;
    bt__graph_clear(&s->memo);
    free(s);
}

size_t
bt_solver_size(const bt_solver *s)
{
    return s->memo.used;
}

/*
 * The table keeps the remoteness alone: its parity gives the outcome
 * (Smith 1966).  In normal play a position with no move is P at 0, an
 * N-position is 1 + the remoteness of a P-option, a P-position 1 + that
 * of an N-option, so P-positions are even and N-positions odd; in misère
 * play a position with no move is N at 0 and the parities swap.
 */
static bt_outcome
outcome_of(const bt_solver *s, long rem)
{
    return (rem & 1) == s->misere ? BT_P : BT_N;
}

/* Stores key (the table copies it) with its remoteness. */
static bt_status
store(bt_solver *s, const bt__gbuf *key, bt_outcome o, long rem)
{
    assert(outcome_of(s, rem) == o);
    (void)o;
    return bt__graph_put(&s->memo, key->w, key->len, rem, NULL);
}

/*
 * A frame of the search keeps its position itself, its components in the
 * order of its key (graph.h: sorted by their codes), so that the
 * component of a move listed from it is the index of its part in the key.
 * A kid's position is made from its parent's and the move (the other
 * components copied, the new ones put in), and its key from the parent's
 * parts and the codes of the new components alone.
 *
 * A frame on the path holds sizeof(frame) (charged as depth frames), its
 * key and the parts pointing into it, its position (bt__position_bytes)
 * and its moves as they are listed (bt__moves_bytes): all but the first
 * are its `bytes`, charged to the search's live bytes until the frame is
 * stored, when the table copies its key and the rest is freed.
 */

/* A position on the search path: its position, its key and its moves. */
typedef struct frame {
    bt_position *p; /* components in key order */
    bt__gbuf key;
    bt__gpart *parts; /* into key, one per component of p */
    size_t nparts;
    bt_move *kids; /* every move (component = index of a part) */
    size_t nkids, capkids, next;
    size_t bytes; /* key, parts, p, and kids as listed; in the live bytes */
    int expanded;
    int has_p;
    long min_p, max_all;
} frame;

static void
frame_clear(frame *f)
{
    bt_position_free(f->p);
    bt__gbuf_free(&f->key);
    free(f->parts);
    bt_moves_free(f->kids, f->nkids);
    memset(f, 0, sizeof *f);
}

/* Sets up a frame for position p (components in key order) and its key
   (both taken: *key is left empty), charging what it holds to *live. */
static bt_status
frame_init(frame *f, bt_position *p, bt__gbuf *key, size_t *live)
{
    size_t n;
    memset(f, 0, sizeof *f);
    f->p = p;
    f->key = *key;
    bt__gbuf_init(key);
    n = bt__graph_split(f->key.w, f->key.len, NULL);
    assert(n == bt_position_size(p));
    f->parts = malloc((n ? n : 1) * sizeof *f->parts);
    if (f->parts == NULL)
        return BT_ENOMEM;
    f->nparts = bt__graph_split(f->key.w, f->key.len, f->parts);
    f->bytes = f->key.cap * sizeof *f->key.w + f->nparts * sizeof *f->parts +
               bt__position_bytes(p);
    *live += f->bytes;
    return BT_OK;
}

/* The index of the part at byte `at` of a text whose parts start at
   starts[0..n-1] (increasing). */
static size_t
part_index(const size_t *starts, size_t n, size_t at)
{
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (starts[mid] <= at)
            lo = mid;
        else
            hi = mid;
    }
    assert(starts[lo] == at);
    return lo;
}

/* The root's frame: p's key, and a copy of p with its components in the
   key's order. */
static bt_status
root_frame(bt_solver *s, frame *f, const bt_position *p, size_t *live)
{
    size_t n = bt_position_size(p), i;
    bt__gbuf flat, key;
    bt__gpart *parts = malloc((n ? n : 1) * sizeof *parts);
    size_t *starts = malloc((n ? n : 1) * sizeof *starts);
    bt_position *q = NULL;
    bt_status st = BT_ENOMEM;
    memset(f, 0, sizeof *f);
    bt__gbuf_init(&flat);
    bt__gbuf_init(&key);
    if (parts == NULL || starts == NULL || bt_position_new(&q) != BT_OK)
        goto cleanup;
    for (i = 0; i < n; i++) {
        starts[i] = flat.len;
        if (bt__graph_code(&s->memo, &flat, bt_position_game(p, i),
                           bt_position_nums(p, i),
                           bt_position_count(p, i)) != BT_OK)
            goto cleanup;
        parts[i].n = flat.len - starts[i];
    }
    for (i = 0; i < n; i++)
        parts[i].w = flat.w + starts[i];
    bt__graph_sort(parts, n);
    for (i = 0; i < n; i++) {
        size_t c = part_index(starts, n, (size_t)(parts[i].w - flat.w));
        if (bt__position_push(q, bt_position_game(p, c), bt_position_nums(p, c),
                              bt_position_count(p, c)) != BT_OK)
            goto cleanup;
    }
    if (bt__graph_join(&key, parts, n) != BT_OK)
        goto cleanup;
    st = frame_init(f, q, &key, live);
    q = NULL; /* the frame has it, and the key */
cleanup:
    bt_position_free(q);
    bt__gbuf_free(&key);
    bt__gbuf_free(&flat);
    free(parts);
    free(starts);
    return st;
}

static bt_status over_budget(const bt_solver *s, size_t depth, size_t live,
                             int clock, const bt_limits *lim, bt_diag *diag);

/* What frame_expand's listing needs to keep the budget as it lists: a
   position can have more moves than the budget holds (six piles of 10^4
   digits of moore:5: 10^5 moves of 25 KB each), so the bytes and the
   moves are counted, and the clock and the interrupt asked, per move, not
   once the list is made. */
typedef struct gather {
    frame *f;
    size_t comp;
    bt_solver *s;
    size_t *live, depth;
    const bt_limits *lim;
    bt_diag *diag;
    int over; /* over_budget stopped the list (its message is written) */
} gather;

static bt_status
on_kid(void *ud, const mpz_t *to, size_t nto)
{
    gather *g = ud;
    frame *f = g->f;
    size_t bytes;
    bt_status st = bt__move_push(&f->kids, &f->nkids, &f->capkids, g->comp,
                                 to, nto);
    if (st != BT_OK)
        return st;
    bytes = bt__moves_bytes(&f->kids[f->nkids - 1], 1);
    f->bytes += bytes;
    *g->live += bytes;
    g->s->moves++;
    st = over_budget(g->s, g->depth, *g->live, g->s->moves % POLL_MOVES == 0,
                     g->lim, g->diag);
    g->over = st != BT_OK;
    return st;
}

/* Lists every move of f's position, within s's budget (depth frames on the
   path, live the bytes they hold, f's moves added as they are listed);
   *over: the budget stopped it, not the ruleset's limit. */
static bt_status
frame_expand(frame *f, bt_solver *s, size_t depth, size_t *live, int *over,
             const bt_limits *lim, bt_diag *diag)
{
    const bt_position *q = f->p;
    size_t i;
    bt_status st = BT_OK;
    *over = 0;
    for (i = 0; st == BT_OK && i < bt_position_size(q); i++) {
        gather ga;
        ga.f = f;
        ga.comp = i;
        ga.s = s;
        ga.live = live;
        ga.depth = depth;
        ga.lim = lim;
        ga.diag = diag;
        ga.over = 0;
        st = bt__rs_options(bt_position_game(q, i), bt_position_nums(q, i),
                            bt_position_count(q, i), on_kid, &ga, lim, diag);
        *over = ga.over;
    }
    if (st == BT_OK && f->nkids < f->capkids && f->nkids > 0) {
        /* the frame may wait long on the path: keep it small */
        bt_move *k = realloc(f->kids, f->nkids * sizeof *k);
        if (k != NULL) {
            f->kids = k;
            f->capkids = f->nkids;
        }
    }
    return st;
}

/* No ruleset splits a component into more components than this. */
#define MAX_SPLIT 16

/* The key of the position that move m leaves from f's position: the other
   parts and the new ones, merged in order.  order[] (room for
   f->nparts - 1 + MAX_SPLIT) gets where each of its *n_out components
   comes from: a part of f (order[j] < f->nparts), or the new component
   order[j] - f->nparts of m.  This runs once per move of every position
   searched, so it avoids allocations for small sums. */
static bt_status
kid_key(bt_solver *s, bt__gbuf *key, bt__gbuf *flat, const frame *f,
        const bt_move *m, size_t *order, size_t *n_out)
{
    size_t k, i, j, n, a = 0, b = 0;
    bt_game *g = bt_position_game(f->p, m->component);
    size_t ar = bt__comp_width(g, m->nto); /* all of them: variable arity */
    bt__gpart fresh[MAX_SPLIT], all_small[MAX_SPLIT], *all = all_small;
    size_t starts[MAX_SPLIT];
    bt_status st;

    k = m->nto / ar;
    n = f->nparts - 1 + k;
    if (k > MAX_SPLIT)
        return BT_ENOMEM;
    if (n > MAX_SPLIT && (all = malloc(n * sizeof *all)) == NULL)
        return BT_ENOMEM;
    flat->len = 0;
    for (i = 0; i < k; i++) {
        starts[i] = flat->len;
        st = bt__graph_code(&s->memo, flat, g, (const mpz_t *)m->to + i * ar,
                            ar);
        if (st != BT_OK)
            goto cleanup;
        fresh[i].n = flat->len - starts[i];
    }
    for (i = 0; i < k; i++)
        fresh[i].w = flat->w + starts[i];
    if (k > 1)
        bt__graph_sort(fresh, k);
    for (j = 0; j < n; j++) {
        if (a == m->component)
            a++;
        if (a < f->nparts &&
            (b >= k || bt__graph_part_cmp(&f->parts[a], &fresh[b]) <= 0)) {
            order[j] = a;
            all[j] = f->parts[a++];
        } else {
            order[j] = f->nparts +
                       part_index(starts, k, (size_t)(fresh[b].w - flat->w));
            all[j] = fresh[b++];
        }
    }
    st = bt__graph_join(key, all, n);
    *n_out = n;
cleanup:
    if (all != all_small)
        free(all);
    return st;
}

/* The position that move m leaves from f's position, its components in
   the order kid_key gave (n of them). */
static bt_status
kid_position(bt_position **out, const frame *f, const bt_move *m,
             const size_t *order, size_t n)
{
    const bt_position *p = f->p;
    bt_game *g = bt_position_game(p, m->component);
    size_t ar = bt__comp_width(g, m->nto), j;
    bt_status st = bt_position_new(out);
    for (j = 0; st == BT_OK && j < n; j++) {
        size_t c = order[j];
        if (c < f->nparts)
            st = bt__position_push(*out, bt_position_game(p, c),
                                   bt_position_nums(p, c),
                                   bt_position_count(p, c));
        else
            st = bt__position_push(*out, g,
                                   (const mpz_t *)m->to +
                                       (c - f->nparts) * ar,
                                   ar);
    }
    if (st != BT_OK) {
        bt_position_free(*out);
        *out = NULL;
    }
    return st;
}

static void
fold(frame *f, bt_outcome o, long rem)
{
    if (o == BT_P) {
        if (!f->has_p || rem < f->min_p)
            f->min_p = rem;
        f->has_p = 1;
    }
    if (rem > f->max_all)
        f->max_all = rem;
}

/* The bounds of a search: the moves listed (bt__solver_bound), the bytes
   held (the table, the keys stored, the frames on the path: depth of them,
   and live, the bytes they hold; s->cap_bytes), and, when `clock` is set,
   the time (bt__solver_bound's deadline) and lim's interrupt.  Asked as
   each move is listed and followed, so that no position's moves can
   outgrow the budget. */
static bt_status
over_budget(const bt_solver *s, size_t depth, size_t live, int clock,
            const bt_limits *lim, bt_diag *diag)
{
    size_t bytes = bt__graph_bytes(&s->memo) + live + depth * sizeof(frame);
    if (s->moves > s->max_moves)
        return bt__fail(diag, BT_ELIMIT,
                        "the game graph has more than %zu moves to list "
                        "(the remoteness budget)",
                        s->max_moves);
    if (bytes > s->cap_bytes && s->cap_is_lim)
        return bt__fail(diag, BT_ELIMIT,
                        "the computation needs more than %zu bytes of memory "
                        "(the max_memory limit)",
                        s->cap_bytes);
    if (bytes > s->cap_bytes)
        return bt__fail(diag, BT_ELIMIT,
                        "the search would hold more than %zu MiB (the "
                        "remoteness budget)",
                        s->cap_bytes >> 20);
    if (!clock)
        return BT_OK;
    if (s->deadline_ms != 0 && bt__clock_ms() > s->deadline_ms)
        return bt__fail(diag, BT_ELIMIT,
                        "the search took its time budget (%d ms of CPU, the "
                        "remoteness budget)",
                        (int)BT_REMOTENESS_MILLIS);
    if (bt__poll(lim) != BT_OK)
        return bt__fail(diag, BT_EINTR,
                        "the time budget ran out during the search");
    return BT_OK;
}

static bt_status
solver_solve(bt_solver *s, bt_outcome *outcome, long *remoteness,
             const bt_position *p, const bt_limits *lim, bt_diag *diag)
{
    frame *stack = NULL;
    size_t depth = 0, cap = 64, live = 0, steps = 0, *order = NULL;
    size_t ordcap = 0, nkid = 0;
    int over = 0;
    bt_status st = BT_OK;
    bt__gbuf key, flat;
    const bt__gslot *sl;
    bt_limits cl;

    bt__gbuf_init(&key);
    bt__gbuf_init(&flat);

    lim = bt__limits(lim);
    if (s->max_moves != SIZE_MAX) {
        /* one component's moves stop at what is left of the budget */
        cl = *lim;
        if (s->moves >= s->max_moves)
            cl.max_search = 0;
        else if (s->max_moves - s->moves < cl.max_search)
            cl.max_search = s->max_moves - s->moves;
        lim = &cl;
    }
    /* the bytes: the solver's bound, and lim's max_memory (0: none) */
    s->cap_bytes = s->max_bytes;
    s->cap_is_lim = 0;
    if (lim->max_memory != 0 && lim->max_memory < s->cap_bytes) {
        s->cap_bytes = lim->max_memory;
        s->cap_is_lim = 1;
    }
    stack = malloc(cap * sizeof *stack);
    if (stack == NULL) {
        st = BT_ENOMEM;
        goto cleanup;
    }
    st = root_frame(s, &stack[0], p, &live);
    depth = 1;
    if (st != BT_OK)
        goto cleanup;
    sl = bt__graph_find(&s->memo, stack[0].key.w, stack[0].key.len);
    if (sl != NULL) {
        *outcome = outcome_of(s, sl->value);
        *remoteness = sl->value;
        goto cleanup;
    }
    /*
     * Depth-first, with an explicit stack: a frame is finished when every
     * move of its position has been folded in, and its value is stored
     * before its parent goes on.  Game graphs are acyclic, so a position on
     * the path is never met again below itself.
     */
    while (depth > 0) {
        frame *f = &stack[depth - 1];
        if (!f->expanded) {
            f->expanded = 1;
            st = frame_expand(f, s, depth, &live, &over, lim, diag);
            if (st == BT_ELIMIT && s->max_moves != SIZE_MAX && !over)
                st = bt__fail(diag, st,
                              "a position of the game graph has more than "
                              "%zu moves (the remoteness budget)",
                              lim->max_search);
            if (st != BT_OK)
                goto cleanup;
            if ((st = over_budget(s, depth, live, 1, lim, diag)) != BT_OK)
                goto cleanup;
        }
        if (f->next < f->nkids) {
            const bt_move *m = &f->kids[f->next++];
            bt_position *q;
            if (++steps % POLL_MOVES == 0 &&
                (st = over_budget(s, depth, live, 1, lim, diag)) != BT_OK)
                goto cleanup;
            if (f->nparts + MAX_SPLIT > ordcap) {
                size_t nc = 2 * (f->nparts + MAX_SPLIT);
                size_t *no = realloc(order, nc * sizeof *no);
                if (no == NULL) {
                    st = BT_ENOMEM;
                    goto cleanup;
                }
                order = no;
                ordcap = nc;
            }
            st = kid_key(s, &key, &flat, f, m, order, &nkid);
            if (st != BT_OK)
                goto cleanup;
            sl = bt__graph_find(&s->memo, key.w, key.len);
            if (sl != NULL) {
                fold(f, outcome_of(s, sl->value), sl->value);
                continue;
            }
            if (s->memo.used + depth >= s->max_states) {
                st = bt__fail(diag, BT_ELIMIT,
                              "the game graph has more than %zu positions "
                              "(the %s)",
                              s->max_states,
                              s->max_moves != SIZE_MAX ? "remoteness budget"
                                                       : "search limit");
                goto cleanup;
            }
            if (depth == cap) {
                frame *ns = realloc(stack, 2 * cap * sizeof *ns);
                if (ns == NULL) {
                    st = BT_ENOMEM;
                    goto cleanup;
                }
                stack = ns;
                cap *= 2;
                f = &stack[depth - 1];
            }
            st = kid_position(&q, f, m, order, nkid);
            if (st != BT_OK)
                goto cleanup;
            st = frame_init(&stack[depth], q, &key, &live);
            depth++;
            if (st != BT_OK)
                goto cleanup;
            continue;
        }
        /* every move is folded in: the value of f */
        {
            bt_outcome o;
            long rem;
            if (f->nkids == 0) {
                o = s->misere ? BT_N : BT_P;
                rem = 0;
            } else if (f->has_p) {
                o = BT_N;
                rem = f->min_p + 1;
            } else {
                o = BT_P;
                rem = f->max_all + 1;
            }
            if ((s->memo.used & 1023) == 0 && (st = bt__poll(lim)) != BT_OK) {
                st = bt__fail(diag, st,
                              "the time budget ran out during "
                              "the search");
                goto cleanup;
            }
            st = store(s, &f->key, o, rem);
            if (st != BT_OK)
                goto cleanup;
            live -= f->bytes;
            frame_clear(f);
            depth--;
            if (depth > 0)
                fold(&stack[depth - 1], o, rem);
            else {
                *outcome = o;
                *remoteness = rem;
            }
        }
    }
cleanup:
    while (depth > 0)
        frame_clear(&stack[--depth]);
    free(stack);
    free(order);
    bt__gbuf_free(&key);
    bt__gbuf_free(&flat);
    if (st == BT_ENOMEM)
        return bt__fail(diag, st, "out of memory");
    return st;
}

bt_status
bt_solver_solve(bt_solver *s, bt_outcome *outcome, long *remoteness,
                const bt_position *p, const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag,
                    solver_solve(s, outcome, remoteness, p, lim, diag));
}

/* ------------------------------------------------------------- Nim */

/*
 * The closed forms (see the top of the file), from what the analysis of p
 * found: its outcome and every winning move (analyze.c hands them down,
 * so that no analysis runs twice).  For an N-position each winning move
 * leaves a P-position Q whose remoteness is known from its counters:
 * T(Q) = T - (a_i - to) and, in misère play, whether a pile above 1 is
 * left.
 */
void
bt__remoteness_nim(mpz_t rop, const bt_position *p, int misere,
                   bt_outcome outcome, const bt_move *wins, size_t nwins)
{
    size_t n = bt_position_size(p), i, big = 0;
    mpz_t t, r;

    mpz_init(t);
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        mpz_add(t, t, v[0]);
        if (mpz_cmp_ui(v[0], 1) > 0)
            big++;
    }
    if (mpz_sgn(t) == 0) {
        mpz_set_ui(rop, 0);
        mpz_clear(t);
        return;
    }
    assert(outcome == BT_P || nwins > 0); /* an N-position has a win */
    if (outcome == BT_P) {
        if (misere && big > 0)
            mpz_sub_ui(t, t, 1);
        mpz_set(rop, t);
    } else {
        size_t k;
        mpz_init(r);
        for (k = 0; k < nwins; k++) {
            const bt_move *m = &wins[k];
            const mpz_t *v = bt_position_nums(p, m->component);
            size_t big_left = big;
            mpz_t q;
            mpz_init(q);
            /* T(Q) = T - a_i + to */
            mpz_sub(q, t, v[0]);
            mpz_add(q, q, m->to[0]);
            if (mpz_cmp_ui(v[0], 1) > 0)
                big_left--;
            if (mpz_cmp_ui(m->to[0], 1) > 0)
                big_left++;
            if (misere && big_left > 0)
                mpz_sub_ui(q, q, 1);
            if (k == 0 || mpz_cmp(q, r) < 0)
                mpz_set(r, q);
            mpz_clear(q);
        }
        mpz_add_ui(rop, r, 1);
        mpz_clear(r);
    }
    mpz_clear(t);
}

/* ---------------------------------------------------------- search */

bt_status
bt__remoteness_search(mpz_t rop, const bt_position *p, int misere,
                      int cheap, const bt_limits *lim, bt_diag *diag)
{
    bt_solver *s;
    bt_outcome o;
    long rem;
    bt_status st;

    lim = bt__limits(lim);
    st = cheap ? bt__solver_cheap(&s, misere, lim)
               : bt_solver_new(&s, misere, lim->max_search);
    if (st != BT_OK)
        return bt__fail(diag, st, "out of memory");
    st = bt_solver_solve(s, &o, &rem, p, lim, diag);
    if (st == BT_OK)
        mpz_set_si(rop, rem);
    bt_solver_free(s);
    return st;
}
