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
 *     graph (bt_solver), from the rules alone: the kernel's walk
 *     (core/graph.h), asked for remoteness.
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

/* The solver is a client of the kernel's walk (core/graph.h), asking
   remoteness: the table keeps the remoteness alone, whose parity gives the
   outcome (Smith 1966). */
struct bt_solver {
    bt__gwalk walk;
    size_t max_states;
    /* the further bounds of bt__solver_bound (SIZE_MAX, 0: none) */
    size_t max_moves, max_bytes;
    uint64_t deadline_ms;
};

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
    s->max_states = max_states;
    s->max_moves = SIZE_MAX;
    s->max_bytes = SIZE_MAX;
    if (bt__gwalk_init(&s->walk, BT__GASK_REMOTENESS, misere, 256) !=
        BT_OK) {
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
    bt__gwalk_clear(&s->walk);
    free(s);
}

size_t
bt_solver_size(const bt_solver *s)
{
    return s->walk.t.used;
}

/*
 * The bounds of a search: the positions (max_states), the moves listed
 * (bt__solver_bound's, in all), the bytes held (the table and the frames
 * on the path with their moves: bt__solver_bound's, or lim->max_memory
 * when smaller), the time (bt__solver_bound's deadline, of the thread's
 * CPU) and lim's interrupt, all asked by the walk as each move is listed
 * and followed, so that no position's moves can outgrow the budget.
 */
static bt_status
solver_solve(bt_solver *s, bt_outcome *outcome, long *remoteness,
             const bt_position *p, const bt_limits *lim, bt_diag *diag)
{
    bt__gwalk *w = &s->walk;
    size_t cap_bytes;
    int cap_is_lim = 0;
    long rem = 0;
    bt_status st;
    bt_limits cl;

    lim = bt__limits(lim);
    if (s->max_moves != SIZE_MAX) {
        /* one component's moves stop at what is left of the budget */
        cl = *lim;
        if (w->moves >= s->max_moves)
            cl.max_search = 0;
        else if (s->max_moves - w->moves < cl.max_search)
            cl.max_search = s->max_moves - w->moves;
        lim = &cl;
    }
    /* the bytes: the solver's bound, and lim's max_memory (0: none) */
    cap_bytes = s->max_bytes;
    if (lim->max_memory != 0 && lim->max_memory < cap_bytes) {
        cap_bytes = lim->max_memory;
        cap_is_lim = 1;
    }
    w->budget.max = cap_bytes == SIZE_MAX ? 0 : cap_bytes;
    w->max_positions = s->max_states;
    w->max_total = s->max_moves;
    w->deadline = s->deadline_ms;
    w->clock = bt__clock_ms;
    st = bt__gwalk_value(w, &rem, p, lim, diag);
    if (st == BT_OK) {
        *remoteness = rem;
        *outcome = (rem & 1) == (long)w->misere ? BT_P : BT_N;
        return BT_OK;
    }
    switch (w->why) {
    case BT__GWHY_POSITIONS:
        return bt__fail(diag, BT_ELIMIT,
                        "the game graph has more than %zu positions (the "
                        "%s)",
                        s->max_states,
                        s->max_moves != SIZE_MAX ? "remoteness budget"
                                                 : "search limit");
    case BT__GWHY_TOTAL:
        return bt__fail(diag, BT_ELIMIT,
                        "the game graph has more than %zu moves to list "
                        "(the remoteness budget)",
                        s->max_moves);
    case BT__GWHY_BYTES:
        if (cap_is_lim)
            return bt__fail(diag, BT_ELIMIT,
                            "the computation needs more than %zu bytes of "
                            "memory (the max_memory limit)",
                            cap_bytes);
        return bt__fail(diag, BT_ELIMIT,
                        "the search would hold more than %zu MiB (the "
                        "remoteness budget)",
                        cap_bytes >> 20);
    case BT__GWHY_DEADLINE:
        return bt__fail(diag, BT_ELIMIT,
                        "the search took its time budget (%d ms of CPU, the "
                        "remoteness budget)",
                        (int)BT_REMOTENESS_MILLIS);
    case BT__GWHY_INTERRUPT:
        return bt__fail(diag, BT_EINTR,
                        "the time budget ran out during the search");
    case BT__GWHY_RULES:
        if (st == BT_ELIMIT && s->max_moves != SIZE_MAX)
            return bt__fail(diag, st,
                            "a position of the game graph has more than "
                            "%zu moves (the remoteness budget)",
                            lim->max_search);
        return st;
    default:
        break;
    }
    return st == BT_ENOMEM ? bt__fail(diag, st, "out of memory") : st;
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
