/*
 * opponent.c -- the computer's move, seeded randomness and random starts.
 *
 * The rule (documented for users in include/bouton/play.h, with its reasons
 * and measurements in docs/opponent.md): from an N-position the fastest
 * winning move; from a P-position, where every move loses against perfect
 * play, the longest game (every move of the opponent is a chance to err),
 * then the least share w/m of winning replies among its replies.  Ranking
 * the share first was measured and found worse (bench/README.md).
 * As the AMS column on Nim puts it, "if you are looking at a position and
 * know that you can not win, you can still exploit any mistake your
 * opponent who could win with optimal play might make."
 */
#include <stdlib.h>
#include <string.h>

#include "engines/heapgame.h"
#include "internal.h"

/* ------------------------------------------------------- random numbers */

uint64_t
bt_rng_next(uint64_t *state)
{
    /* SplitMix64 (Steele, Lea, Flood 2014), constants as published */
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t
bt_rng_below(uint64_t *state, uint64_t n)
{
    uint64_t threshold, r;
    if (n == 0)
        return 0;
    /* 2^64 mod n: the values below it would make small results likelier */
    threshold = (0 - n) % n;
    do
        r = bt_rng_next(state);
    while (r < threshold);
    return r % n;
}

void
bt_rng_mpz_below(mpz_t rop, uint64_t *state, const mpz_t n)
{
    size_t bits, words, i;
    uint64_t *w, mask;
    if (mpz_sgn(n) <= 0) {
        mpz_set_ui(rop, 0);
        return;
    }
    bits = mpz_sizeinbase(n, 2);
    words = (bits + 63) / 64;
    mask = bits % 64 ? (((uint64_t)1 << (bits % 64)) - 1) : ~(uint64_t)0;
    w = malloc(words * sizeof *w);
    if (w == NULL) { /* n is bounded by the caller's digit limit */
        mpz_set_ui(rop, 0);
        return;
    }
    do {
        for (i = 0; i < words; i++)
            w[i] = bt_rng_next(state);
        w[words - 1] &= mask;
        mpz_import(rop, words, -1, sizeof *w, 0, 0, w);
    } while (mpz_cmp(rop, n) >= 0);
    free(w);
}

/* ---------------------------------------------------------- random starts */

static bt_status
position_random(bt_position **out, bt_game *g, size_t k, const mpz_t min,
                const mpz_t max, uint64_t *rng, const bt_limits *lim,
                bt_diag *diag)
{
    bt_position *p;
    mpz_t range, *nums;
    size_t ar = g->rules->arity, i, j, n;
    bt__budget b;
    bt_status st;

    *out = NULL;
    lim = bt__limits(lim);
    if (mpz_sgn(min) < 0 || mpz_cmp(min, max) > 0)
        return bt__fail(diag, BT_EINVAL, "random starts need 0 <= min <= max");
    if (k > lim->max_components)
        return bt__fail(diag, BT_ELIMIT,
                        "%zu components are more than the limit of %zu "
                        "(max_components)",
                        k, lim->max_components);
    st = bt__check_number(max, lim, "the largest number", diag);
    if (st != BT_OK)
        return st;
    /* a game of variable arity: one component of k numbers */
    n = ar ? ar : k;
    if (n == 0)
        return bt__fail(diag, BT_EINVAL, "a random start of %s needs at "
                        "least one pile", g->spec);
    st = bt_position_new(&p);
    nums = malloc(n * sizeof *nums);
    if (st != BT_OK || nums == NULL) {
        bt_position_free(p);
        free(nums);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    mpz_init(range);
    for (j = 0; j < n; j++)
        mpz_init(nums[j]);
    mpz_sub(range, max, min);
    mpz_add_ui(range, range, 1);
    /* k components of up to max_digits digits each: the position can pass
       any memory, so its numbers are charged as they are drawn, and the
       draw polls every 1024 components */
    bt__budget_init(&b, lim);
    for (i = 0; i < (ar ? k : 1) && st == BT_OK; i++) {
        size_t bytes = 0;
        if ((i & 1023) == 1023 && bt__poll(lim) != BT_OK) {
            st = bt__fail(diag, BT_EINTR,
                          "the time budget ran out while drawing a random "
                          "start of %zu components",
                          k);
            break;
        }
        for (j = 0; j < n; j++) {
            bt_rng_mpz_below(nums[j], rng, range);
            mpz_add(nums[j], nums[j], min);
            bytes += bt__mpz_bytes(nums[j]);
        }
        st = bt__budget_charge(&b, bytes, diag);
        if (st == BT_OK)
            st = bt_position_add_n(p, g, (const mpz_t *)nums, n, lim, diag);
    }
    mpz_clear(range);
    for (j = 0; j < n; j++)
        mpz_clear(nums[j]);
    free(nums);
    if (st != BT_OK) {
        bt_position_free(p);
        return st;
    }
    *out = p;
    return BT_OK;
}

bt_status
bt_position_random(bt_position **out, bt_game *g, size_t k, const mpz_t min,
                   const mpz_t max, uint64_t *rng, const bt_limits *lim,
                   bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag,
                    position_random(out, g, k, min, max, rng, lim, diag));
}

/* ------------------------------------------------------------ levels */

unsigned
bt_level_error_permille(bt_level l)
{
    switch (l) {
    case BT_LEVEL_MEDIUM:
        return 200;
    case BT_LEVEL_EASY:
        return 500;
    case BT_LEVEL_PERFECT:
    default:
        return 0;
    }
}

const char *
bt_level_name(bt_level l)
{
    switch (l) {
    case BT_LEVEL_MEDIUM:
        return "medium";
    case BT_LEVEL_EASY:
        return "easy";
    case BT_LEVEL_PERFECT:
    default:
        return "perfect";
    }
}

bt_status
bt_level_parse(bt_level *out, const char *text, bt_diag *diag)
{
    static const bt_level all[] = {BT_LEVEL_PERFECT, BT_LEVEL_MEDIUM,
                                   BT_LEVEL_EASY};
    size_t i;
    for (i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(text, bt_level_name(all[i])) == 0) {
            *out = all[i];
            return BT_OK;
        }
    return bt__fail(diag, BT_EPARSE,
                    "unknown level '%.40s' (perfect, medium or easy)", text);
}

/* ------------------------------------------------------------- helpers */

/* Non-zero when every component of p is a Nim heap (BT__RS_NIM_HEAPS):
   Nim's closed forms then give the moves and the rule. */
static int
all_nim_heaps(const bt_position *p)
{
    return bt__position_is_all(p, BT__RS_NIM_HEAPS);
}

/* The counters of a position of Nim heaps: its number of moves. */
static void
nim_total(mpz_t rop, const bt_position *p)
{
    size_t i;
    mpz_set_ui(rop, 0);
    for (i = 0; i < bt_position_size(p); i++)
        mpz_add(rop, rop, bt_position_nums(p, i)[0]);
}

/* ------------------------------------------------------------ random move */

static bt_status
random_move(bt_move **out, const bt_position *p, uint64_t *rng,
            const bt_limits *lim, bt_diag *diag)
{
    bt_move *moves;
    size_t n, pick;
    bt_status st;
    bt_diag quiet;

    *out = NULL;
    lim = bt__limits(lim);
    memset(&quiet, 0, sizeof quiet);
    st = bt_position_moves(&moves, &n, p, lim, &quiet);
    if (st == BT_OK) {
        if (n == 0) {
            bt_moves_free(moves, n);
            return bt__fail(diag, BT_EINVAL, "no move: the game is over");
        }
        pick = (size_t)bt_rng_below(rng, (uint64_t)n);
        /* hand the picked move over and free the rest */
        st = bt__move_new(out, p, moves[pick].component,
                          (const mpz_t *)moves[pick].to, moves[pick].nto, diag);
        bt_moves_free(moves, n);
        return st;
    }
    if (st == BT_ELIMIT && all_nim_heaps(p)) {
        /*
         * Too many moves to list, but a Nim pile of a counters has exactly
         * the moves to 0, 1, ..., a - 1: number the T moves of the position
         * pile by pile in that order (the order of bt_position_moves) and
         * draw one number.
         */
        mpz_t t, r;
        size_t i;
        mpz_init(t);
        mpz_init(r);
        nim_total(t, p);
        bt_rng_mpz_below(r, rng, t);
        for (i = 0; i < bt_position_size(p); i++) {
            const mpz_t *v = bt_position_nums(p, i);
            if (mpz_cmp(r, v[0]) < 0)
                break;
            mpz_sub(r, r, v[0]);
        }
        st = bt__move_new(out, p, i, (const mpz_t *)&r, 1, diag);
        mpz_clear(t);
        mpz_clear(r);
        return st;
    }
    if (diag != NULL)
        *diag = quiet;
    return st;
}

bt_status
bt_random_move(bt_move **out, const bt_position *p, uint64_t *rng,
               const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, random_move(out, p, rng, lim, diag));
}

/* ------------------------------------------------------------ opponent */

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

/* Prepares the rule for p; remoteness is searched for (p not Nim) only
   when the rule needs it (opp_need_remoteness). */
static void
opp_init(opp *o, const bt_position *p, int misere, const bt_limits *lim,
         bt_diag *diag)
{
    memset(o, 0, sizeof *o);
    o->p = p;
    o->misere = misere;
    o->flags = misere ? BT_MISERE : 0;
    o->lim = lim;
    o->diag = diag;
    o->nim = all_nim_heaps(p);
    o->rem_known = o->nim;
    mpz_init(o->total);
    if (o->nim) {
        size_t i;
        nim_total(o->total, p);
        for (i = 0; i < bt_position_size(p); i++)
            o->big += mpz_cmp_ui(bt_position_nums(p, i)[0], 1) > 0;
    }
}

/* Searches the game graph of a position that is not Nim, within the
   opponent's budget; remoteness is known when the search succeeds. */
static bt_status
opp_need_remoteness(opp *o)
{
    size_t budget;
    bt_outcome out;
    long rem;
    bt_status st;
    bt_diag quiet;

    if (o->nim || o->solver != NULL)
        return BT_OK;
    budget = o->lim->max_search < BT_OPPONENT_SEARCH ? o->lim->max_search
                                                     : BT_OPPONENT_SEARCH;
    st = bt_solver_new(&o->solver, o->misere, budget);
    if (st != BT_OK)
        return bt__fail(o->diag, st, "out of memory");
    bt__solver_bound(o->solver, BT_REMOTENESS_MOVES, BT_REMOTENESS_BYTES,
                     bt__clock_ms() + BT_OPPONENT_MILLIS);
    memset(&quiet, 0, sizeof quiet);
    st = bt_solver_solve(o->solver, &out, &rem, o->p, o->lim, &quiet);
    if (st == BT_OK) {
        o->rem_known = 1;
    } else if (st == BT_ELIMIT) {
        /* too big to search: the rule goes on without remoteness; the
           solver stays, empty of use, so that the search is not retried */
        st = BT_OK;
    } else if (o->diag != NULL) {
        *o->diag = quiet;
    }
    return st;
}

static void
opp_fini(opp *o)
{
    bt_solver_free(o->solver);
    mpz_clear(o->total);
}

/* The remoteness of q, a position reachable from o->p. */
static bt_status
opp_remoteness(opp *o, mpz_t rop, const bt_position *q)
{
    bt_outcome out;
    long rem;
    bt_status st;
    if (o->nim)
        return bt_remoteness(rop, q, o->misere, o->lim, o->diag);
    if (o->solver == NULL)
        return bt__fail(o->diag, BT_EUNDEF, "no remoteness search");
    st = bt_solver_solve(o->solver, &out, &rem, q, o->lim, o->diag);
    if (st == BT_OK)
        mpz_set_si(rop, rem);
    return st;
}

/* The sum of to[] minus the numbers of the component it replaces: how the
   total of the position's numbers changes. */
static void
total_delta(mpz_t d, const bt_position *p, const bt_move *m)
{
    const mpz_t *v = bt_position_nums(p, m->component);
    size_t j;
    size_t k;
    mpz_set_ui(d, 0);
    for (k = 0; k < m->nto; k++)
        mpz_add(d, d, m->to[k]);
    for (j = 0; j < bt_position_count(p, m->component); j++)
        mpz_sub(d, d, v[j]);
}

/* The tie order after the total: lower component, then smaller `to`. */
static int
cmp_place(const bt_move *a, const bt_move *b)
{
    size_t k;
    if (a->component != b->component)
        return a->component < b->component ? -1 : 1;
    for (k = 0; k < a->nto && k < b->nto; k++) {
        int c = mpz_cmp(a->to[k], b->to[k]);
        if (c != 0)
            return c < 0 ? -1 : 1;
    }
    if (a->nto != b->nto)
        return a->nto < b->nto ? -1 : 1;
    return 0;
}

/* One candidate move and what the rule weighs. */
typedef struct scored {
    const bt_move *m;
    mpz_t delta;  /* change of the total of numbers */
    mpz_t rem;    /* remoteness of the result, when known */
    mpz_t w, all; /* P-rule: winning replies and all replies */
} scored;

static void
scored_init(scored *s)
{
    s->m = NULL;
    mpz_init(s->delta);
    mpz_init(s->rem);
    mpz_init(s->w);
    mpz_init(s->all);
}

static void
scored_clear(scored *s)
{
    mpz_clear(s->delta);
    mpz_clear(s->rem);
    mpz_clear(s->w);
    mpz_clear(s->all);
}

/* N-position order: least remoteness, then smaller total, then place.
   Returns < 0 when a is preferred. */
static int
cmp_win(const scored *a, const scored *b, int rem_known)
{
    int c;
    if (rem_known && (c = mpz_cmp(a->rem, b->rem)) != 0)
        return c;
    if ((c = mpz_cmp(a->delta, b->delta)) != 0)
        return c;
    return cmp_place(a->m, b->m);
}

/* P-position order: greatest remoteness (when known), then least w/all,
   then larger total, then place. */
static int
cmp_delay(const scored *a, const scored *b, int rem_known)
{
    int c;
    mpz_t x, y;
    if (rem_known && (c = mpz_cmp(b->rem, a->rem)) != 0)
        return c;
    mpz_init(x);
    mpz_init(y);
    mpz_mul(x, a->w, b->all);
    mpz_mul(y, b->w, a->all);
    c = mpz_cmp(x, y);
    mpz_clear(x);
    mpz_clear(y);
    if (c != 0)
        return c;
    if ((c = mpz_cmp(b->delta, a->delta)) != 0)
        return c;
    return cmp_place(a->m, b->m);
}

/* The position m leaves. */
static bt_status
child_of(bt_position **out, const bt_position *p, const bt_move *m,
         bt_diag *diag)
{
    bt_status st = bt_position_copy(out, p);
    if (st == BT_OK && (st = bt_position_apply(*out, m)) != BT_OK) {
        bt_position_free(*out);
        *out = NULL;
    }
    return st == BT_OK ? st : bt__fail(diag, st, "out of memory");
}

/* The remoteness of the P-position a winning move m of a Nim N-position
   leaves, in constant time (Theorems 1 and 2 of docs/opponent.md): T(Q)
   counters, less one in misère play when a pile above 1 is left. */
static void
nim_win_remoteness(mpz_t rop, const opp *o, const bt_move *m)
{
    const mpz_t *v = bt_position_nums(o->p, m->component);
    size_t big = o->big;
    mpz_sub(rop, o->total, v[0]);
    if (m->nto == 1) {
        mpz_add(rop, rop, m->to[0]);
        big += mpz_cmp_ui(m->to[0], 1) > 0;
    }
    big -= mpz_cmp_ui(v[0], 1) > 0;
    if (o->misere && big > 0)
        mpz_sub_ui(rop, rop, 1);
}

/* N-position: the fastest winning move among the n of `moves` (every
   winning move, or those a window found). */
static bt_status
choose_win(bt_move **out, opp *o, const bt_move *moves, size_t n)
{
    size_t i, best = 0;
    scored cur, top;
    bt_status st = BT_OK;

    if (n == 0)
        return bt__fail(o->diag, BT_EUNDEF,
                        "the analysis gave an N-position no winning move "
                        "(a bug in the game's rules)");
    if (n > 1 && (st = opp_need_remoteness(o)) != BT_OK)
        return st;
    scored_init(&cur);
    scored_init(&top);
    for (i = 0; i < n; i++) {
        const bt_move *m = &moves[i];
        cur.m = m;
        total_delta(cur.delta, o->p, m);
        if (o->nim && n > 1) {
            nim_win_remoteness(cur.rem, o, m);
        } else if (o->rem_known && n > 1) {
            bt_position *q;
            st = child_of(&q, o->p, m, o->diag);
            if (st == BT_OK) {
                st = opp_remoteness(o, cur.rem, q);
                bt_position_free(q);
            }
            if (st != BT_OK)
                break;
        }
        if (i == 0 || cmp_win(&cur, &top, o->rem_known) < 0) {
            scored t = top;
            top = cur;
            cur = t;
            best = i;
        }
    }
    if (st == BT_OK) {
        const bt_move *m = &moves[best];
        st = bt__move_new(out, o->p, m->component, (const mpz_t *)m->to, m->nto,
                          o->diag);
    }
    scored_clear(&cur);
    scored_clear(&top);
    return st;
}

/* Counts the options of every component of q (stops past `max`). */
typedef struct counter {
    size_t n, max;
} counter;

static bt_status
count_one(void *ud, const mpz_t *to, size_t nto)
{
    counter *c = ud;
    (void)to;
    (void)nto;
    return ++c->n > c->max ? BT_ELIMIT : BT_OK;
}

static bt_status
count_moves(mpz_t rop, const bt_position *q, const bt_limits *lim,
            bt_diag *diag)
{
    counter c;
    size_t i;
    c.n = 0;
    c.max = lim->max_search;
    for (i = 0; i < bt_position_size(q); i++) {
        bt_game *g = bt_position_game(q, i);
        bt_status st = bt__rs_options(g, bt_position_nums(q, i), bt_position_count(q, i), count_one,
                                         &c, lim, diag);
        if (st == BT_ELIMIT)
            return bt__fail(diag, st,
                            "more than %zu replies to count (the "
                            "max_search limit)",
                            lim->max_search);
        if (st != BT_OK)
            return st;
    }
    mpz_set_ui(rop, (unsigned long)c.n);
    return BT_OK;
}

/* Starts the score of move m of a P-position: the move, its delta, and w
   from the analysis of *q, the position m leaves (the caller frees it). */
static bt_status
score_child(scored *s, opp *o, const bt_move *m, bt_position **q)
{
    bt_analysis *a;
    bt_status st;

    s->m = m;
    total_delta(s->delta, o->p, m);
    st = child_of(q, o->p, m, o->diag);
    if (st != BT_OK)
        return st;
    st = bt_analyze(&a, *q, o->flags, o->lim, o->diag);
    if (st != BT_OK) {
        bt_position_free(*q);
        return st;
    }
    mpz_set_ui(s->w, (unsigned long)bt_analysis_move_count(a));
    bt_analysis_free(a);
    return BT_OK;
}

/* Scores move m of a P-position: w, all, remoteness, delta. */
static bt_status
score_delay(scored *s, opp *o, const bt_move *m)
{
    bt_position *q;
    bt_status st = score_child(s, o, m, &q);

    if (st != BT_OK)
        return st;
    st = count_moves(s->all, q, o->lim, o->diag);
    if (st == BT_OK && mpz_sgn(s->all) == 0) {
        /* no reply: the game is over and (misère) we lost */
        mpz_set_ui(s->w, 1);
        mpz_set_ui(s->all, 1);
    }
    if (st == BT_OK && o->rem_known)
        st = opp_remoteness(o, s->rem, q);
    bt_position_free(q);
    return st;
}

/* P-position, any game: every legal move scored. */
static bt_status
choose_delay(bt_move **out, opp *o)
{
    bt_move *moves;
    size_t n, i, best = 0;
    scored cur, top;
    bt_status st;

    st = bt_position_moves(&moves, &n, o->p, o->lim, o->diag);
    if (st == BT_OK && n > 1)
        st = opp_need_remoteness(o);
    if (st != BT_OK) {
        bt_moves_free(moves, n);
        return st;
    }
    scored_init(&cur);
    scored_init(&top);
    for (i = 0; i < n && st == BT_OK; i++) {
        st = score_delay(&cur, o, &moves[i]);
        if (st == BT_OK &&
            (i == 0 || cmp_delay(&cur, &top, o->rem_known) < 0)) {
            scored t = top;
            top = cur;
            cur = t;
            best = i;
        }
    }
    if (st == BT_OK)
        st = bt__move_new(out, o->p, moves[best].component,
                          (const mpz_t *)moves[best].to, moves[best].nto,
                          o->diag);
    scored_clear(&cur);
    scored_clear(&top);
    bt_moves_free(moves, n);
    return st;
}

/* ------------------------------------------- the P-position rule for Nim */

/*
 * Nim piles can be far too large to list their moves, but the rule can be
 * computed from the binary digits (proofs in docs/opponent.md).  Let the
 * P-position have piles a_i, T counters, and write z(a) for the number of
 * trailing zero bits of a.
 *
 * Normal play.  The result of any move has remoteness at most T - 1, and
 * exactly T - 1 when the move takes one counter from a pile a_i such that
 * every pile with a 1 in column z = z(a_i) has z(a) = z: then (Bouton,
 * Theorem II) the opponent's winning replies are those piles, each taking
 * exactly one counter, and the game goes on one counter at a time.  Such a
 * pile exists (one with the least z).  Its result has w = c_z - 1 winning
 * replies among m = T - 1, with c_z the number of piles with a 1 in column
 * z; so the rule takes one counter from the eligible pile of least c_z (the
 * first of them).
 *
 * Misère play with two piles or more above 1 (the P-positions with one
 * above 1 do not exist; with none, every move takes a 1 and all score the
 * same).  A result that keeps two piles above 1 has the normal remoteness
 * less one and the same winning replies; so the best of those are the
 * normal candidates that keep two piles above 1, with remoteness T - 2.
 * A result with one pile above 1 can only come from a position with two,
 * by reducing one of them to 0 or 1: those few moves are scored exactly.
 */

/* Too much work for the exact Nim rule (more than lim->max_search steps):
   one counter from the first pile of least z, one of the longest games. */
static bt_status
nim_fallback(bt_move **out, opp *o)
{
    size_t i, best = 0, bestz = (size_t)-1;
    mpz_t b;
    bt_status st;
    for (i = 0; i < bt_position_size(o->p); i++) {
        const mpz_t *v = bt_position_nums(o->p, i);
        size_t z;
        if (mpz_sgn(v[0]) == 0)
            continue;
        z = mpz_scan1(v[0], 0);
        if (z < bestz) {
            bestz = z;
            best = i;
        }
    }
    mpz_init(b);
    mpz_sub_ui(b, bt_position_nums(o->p, best)[0], 1);
    st = bt__move_new(out, o->p, best, (const mpz_t *)&b, 1, o->diag);
    mpz_clear(b);
    return st;
}

/* Scores the move (comp -> to) of a Nim P-position exactly, from the
   result's analysis: a misère special case. */
static bt_status
score_exact(scored *s, bt_move *m, opp *o)
{
    bt_position *q;
    size_t i;
    bt_status st = score_child(s, o, m, &q);
    if (st != BT_OK)
        return st;
    mpz_set_ui(s->all, 0);
    for (i = 0; i < bt_position_size(q); i++)
        mpz_add(s->all, s->all, bt_position_nums(q, i)[0]);
    if (mpz_sgn(s->all) == 0) {
        mpz_set_ui(s->w, 1);
        mpz_set_ui(s->all, 1);
    }
    st = bt_remoteness(s->rem, q, o->misere, o->lim, o->diag);
    bt_position_free(q);
    return st;
}

static bt_status
nim_delay(bt_move **out, opp *o)
{
    const bt_position *p = o->p;
    size_t n = bt_position_size(p), i, j, big = 0, nz = 0, work = 0;
    size_t *zs = NULL, *cz = NULL, *ez = NULL, *pz = NULL;
    bt_move *cands = NULL;
    size_t ncand = 0, capcand = 0, best = 0;
    scored cur, top;
    mpz_t t, b;
    bt_status st = BT_OK;

    for (i = 0; i < n; i++)
        if (mpz_cmp_ui(bt_position_nums(p, i)[0], 1) > 0)
            big++;
    if (o->misere && big == 0) {
        /* piles of one: every move takes a 1 and scores the same */
        for (i = 0; i < n; i++)
            if (mpz_sgn(bt_position_nums(p, i)[0]) > 0)
                break;
        mpz_init(b);
        st = bt__move_new(out, p, i, (const mpz_t *)&b, 1, o->diag);
        mpz_clear(b);
        return st;
    }
    mpz_init(t);
    mpz_init(b);
    scored_init(&cur);
    scored_init(&top);
    nim_total(t, p);
    /* the distinct z of the piles, and for each c_z and e_z (the piles
       with a 1 in column z, and those with z trailing zeros) */
    zs = malloc((n ? n : 1) * sizeof *zs);
    pz = malloc((n ? n : 1) * sizeof *pz);
    cz = calloc(n ? n : 1, sizeof *cz);
    ez = calloc(n ? n : 1, sizeof *ez);
    if (zs == NULL || pz == NULL || cz == NULL || ez == NULL) {
        st = bt__fail(o->diag, BT_ENOMEM, "out of memory");
        goto cleanup;
    }
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        size_t z;
        pz[i] = (size_t)-1;
        if (mpz_sgn(v[0]) == 0)
            continue;
        z = mpz_scan1(v[0], 0);
        for (j = 0; j < nz && zs[j] != z; j++)
            if (++work > o->lim->max_search)
                break;
        if (work > o->lim->max_search)
            break;
        if (j == nz)
            zs[nz++] = z;
        pz[i] = j;
        ez[j]++;
    }
    for (j = 0; j < nz && work <= o->lim->max_search; j++)
        for (i = 0; i < n; i++) {
            cz[j] += (size_t)mpz_tstbit(bt_position_nums(p, i)[0], zs[j]);
            if (++work > o->lim->max_search)
                break;
        }
    if (work > o->lim->max_search) {
        st = nim_fallback(out, o);
        goto cleanup;
    }
    /* the candidates */
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        if (pz[i] == (size_t)-1 || cz[pz[i]] != ez[pz[i]])
            continue;
        if (o->misere && big == 2 && mpz_cmp_ui(v[0], 2) == 0)
            continue; /* leaves one pile above 1: scored exactly below */
        mpz_sub_ui(b, v[0], 1);
        st = bt__move_push(&cands, &ncand, &capcand, i, (const mpz_t *)&b, 1);
        if (st != BT_OK) {
            st = bt__fail(o->diag, st, "out of memory");
            goto cleanup;
        }
        cur.m = &cands[ncand - 1];
        top.m = &cands[best]; /* the array may have moved */
        mpz_sub_ui(cur.rem, t, o->misere ? 2 : 1);
        mpz_set_ui(cur.w, (unsigned long)(cz[pz[i]] - 1));
        mpz_sub_ui(cur.all, t, 1);
        mpz_set_si(cur.delta, -1);
        if (ncand == 1 || cmp_delay(&cur, &top, 1) < 0) {
            scored x = top;
            top = cur;
            cur = x;
            best = ncand - 1;
        }
    }
    if (o->misere && big == 2) {
        for (i = 0; i < n; i++) {
            const mpz_t *v = bt_position_nums(p, i);
            unsigned long k;
            if (mpz_cmp_ui(v[0], 1) <= 0)
                continue;
            for (k = 0; k <= 1; k++) {
                mpz_set_ui(b, k);
                st = bt__move_push(&cands, &ncand, &capcand, i,
                                   (const mpz_t *)&b, 1);
                if (st != BT_OK) {
                    st = bt__fail(o->diag, st, "out of memory");
                    goto cleanup;
                }
                st = score_exact(&cur, &cands[ncand - 1], o);
                if (st != BT_OK)
                    goto cleanup;
                top.m = &cands[best];
                if (ncand == 1 || cmp_delay(&cur, &top, 1) < 0) {
                    scored x = top;
                    top = cur;
                    cur = x;
                    best = ncand - 1;
                }
            }
        }
    }
    if (ncand == 0) /* cannot happen: a pile of least z is eligible */
        st = nim_fallback(out, o);
    else
        st = bt__move_new(out, p, cands[best].component,
                          (const mpz_t *)cands[best].to, 1, o->diag);
cleanup:
    free(zs);
    free(pz);
    free(cz);
    free(ez);
    bt_moves_free(cands, ncand);
    scored_clear(&cur);
    scored_clear(&top);
    mpz_clear(t);
    mpz_clear(b);
    return st;
}

/* ------------------------------------------- options within a budget */

/*
 * The opponent never lists more than BT_REMOTENESS_MOVES options in all.
 * A component whose options pass what is left of that (a huge heap, a
 * huge pile) is offered a window of its options instead: the moves that
 * take at most W counters, and the splits whose smaller heap has at most W
 * counters.  For a heap game whose Grundy sequence is periodic from n0
 * with period p, W >= n0 + 2p + t reaches every value its options have:
 * a split (a, b) with both parts >= n0 has the value of (a', b + a - a')
 * for the a' in [n0, n0 + p) congruent to a, and b + a - a' >= b >= n0.
 */
#define OPP_WINDOW_MAX 4096

typedef struct pool {
    bt_move *m;
    size_t n, cap;
    size_t comp;
    const mpz_t *target; /* window: keep only options of this value */
    bt_game *g;
    const bt_limits *lim;
    bt_diag *diag;
    size_t budget; /* options still allowed in all */
} pool;

/* The value of an option: the nim-sum of its parts' Grundy values. */
static bt_status
option_value(mpz_t rop, bt_game *g, const mpz_t *to, size_t nto,
             const bt_limits *lim, bt_diag *diag)
{
    size_t ar = bt__comp_width(g, nto);
    size_t k;
    mpz_t v;
    bt_status st = BT_OK;
    mpz_set_ui(rop, 0);
    mpz_init(v);
    for (k = 0; k + ar <= nto && st == BT_OK; k += ar) {
        st = bt__rs_grundy(g, v, to + k, ar, lim, diag);
        mpz_xor(rop, rop, v);
    }
    mpz_clear(v);
    return st;
}

static bt_status
pool_emit(void *ud, const mpz_t *to, size_t nto)
{
    pool *pl = ud;
    if (pl->target != NULL) {
        mpz_t v;
        bt_status st;
        int keep;
        mpz_init(v);
        st = option_value(v, pl->g, to, nto, pl->lim, pl->diag);
        keep = st == BT_OK && mpz_cmp(v, *pl->target) == 0;
        mpz_clear(v);
        if (st != BT_OK)
            return st;
        if (!keep)
            return BT_OK;
    }
    if (pl->budget == 0)
        return BT_ELIMIT;
    pl->budget--;
    return bt__move_push(&pl->m, &pl->n, &pl->cap, pl->comp, to, nto);
}

/* The window of a heap game's heap n (see above). */
static bt_status
window_heap(pool *pl, const bt__heap_game *hg, const mpz_t n)
{
    const bt__heap_rules *r = &hg->rules;
    size_t per = 0, pre = 0, w, k, a, i;
    mpz_t to[2];
    bt_status st = BT_OK;

    if (hg->seq != NULL && bt_sequence_period(hg->seq, &per, &pre))
        w = pre + 2 * per + r->t + 2;
    else
        w = 64;
    if (w > OPP_WINDOW_MAX)
        w = OPP_WINDOW_MAX;
    mpz_init(to[0]);
    mpz_init(to[1]);
    if (r->nint > 0) {
        /* take k in the set, leaving n - k (the smallest k first) */
        for (i = 0; i < r->nint && st == BT_OK; i++)
            for (k = r->lo[i]; k <= r->hi[i] && k - r->lo[i] < w &&
                               mpz_cmp_ui(n, (unsigned long)k) >= 0 &&
                               st == BT_OK;
                 k++) {
                mpz_sub_ui(to[0], n, (unsigned long)k);
                st = pool_emit(pl, (const mpz_t *)to,
                               mpz_sgn(to[0]) ? 1 : 0);
            }
    } else {
        for (k = 0; k <= r->t && st == BT_OK; k++) {
            unsigned d = r->digit[k];
            if (mpz_cmp_ui(n, (unsigned long)k) < 0)
                break;
            mpz_sub_ui(to[0], n, (unsigned long)k);
            if ((d & 1u) && mpz_sgn(to[0]) == 0)
                st = pool_emit(pl, (const mpz_t *)to, 0);
            if (st == BT_OK && (d & 2u) && k > 0 && mpz_sgn(to[0]) > 0)
                st = pool_emit(pl, (const mpz_t *)to, 1);
            if (!(d & 4u))
                continue;
            for (a = 1; a <= w && st == BT_OK; a++) {
                /* (a, rest - a) with a below the other part (or equal
                   when the rules allow) */
                mpz_sub_ui(to[1], n, (unsigned long)(k + a));
                if (mpz_cmp_ui(to[1], (unsigned long)a) < 0 ||
                    (r->unequal && mpz_cmp_ui(to[1], (unsigned long)a) == 0))
                    break;
                mpz_set_ui(to[0], (unsigned long)a);
                st = pool_emit(pl, (const mpz_t *)to, 2);
                /* up to OPP_WINDOW_MAX splits per k, each a copy of the
                   heap's digits (and its value with a target): poll */
                if (st == BT_OK && (a & 255) == 0 &&
                    bt__poll(pl->lim) != BT_OK)
                    st = bt__fail(pl->diag, BT_EINTR,
                                  "the time budget ran out while listing a "
                                  "window of a heap's moves");
            }
        }
    }
    mpz_clear(to[0]);
    mpz_clear(to[1]);
    return st;
}

/* The window of a component of n numbers of any other game: the results
   of taking k <= W from one number, or from all of them, that the rules
   allow (the ruleset's is_option: a Nim pile, a Wythoff pair, Moore's
   piles).  A family with no is_option has no window here (the caller
   says it found no move within its budget; it never plays a move the
   rules may not allow). */
/* The numbers the candidates of window_plain copy and check, in all: a
   candidate is a whole component of n numbers, and 64 (n + 1) of them for
   10^4 numbers (a coin game's heads) is 6.4 10^9 numbers, minutes of
   work; the window stops past this many, taking from the first numbers
   first. */
#define WINDOW_PLAIN_WORK ((size_t)1 << 24)

static bt_status
window_plain(pool *pl, const mpz_t *c, size_t n)
{
    bt_game *g = pl->g;
    size_t k, j, i, w = 64, work = 0;
    mpz_t *to;
    bt_status st = BT_OK;
    if (g->rules->is_option == NULL)
        return BT_OK;
    if ((to = malloc(n * sizeof *to)) == NULL)
        return BT_ENOMEM;
    for (i = 0; i < n; i++)
        mpz_init(to[i]);
    for (k = 1; k <= w && st == BT_OK && work <= WINDOW_PLAIN_WORK; k++) {
        /* j < n: from number j; j == n: from all of them */
        for (j = 0; j < n + (n > 1) && st == BT_OK; j++) {
            int ok = 1;
            if ((work += n) > WINDOW_PLAIN_WORK)
                break;
            /* 64 (n + 1) candidates of n numbers each, most of them not
               options when the numbers are small (no emit, no budget
               spent): quadratic in n, so poll */
            if ((j & 63) == 0 && bt__poll(pl->lim) != BT_OK) {
                st = bt__fail(pl->diag, BT_EINTR,
                              "the time budget ran out while listing a "
                              "window of moves of %zu numbers",
                              n);
                break;
            }
            for (i = 0; i < n; i++) {
                mpz_set(to[i], c[i]);
                if (i == j || j == n) {
                    ok = ok && mpz_cmp_ui(c[i], (unsigned long)k) >= 0;
                    if (ok)
                        mpz_sub_ui(to[i], c[i], (unsigned long)k);
                }
            }
            if (ok && g->rules->is_option(g, c, n, (const mpz_t *)to, n) == 1)
                st = pool_emit(pl, (const mpz_t *)to, n);
        }
    }
    for (i = 0; i < n; i++)
        mpz_clear(to[i]);
    free(to);
    return st;
}

/* The window of component c (n numbers) of pl->g: over its heap rules
   when its family has them (the ruleset's heap hook), else the plain
   one. */
static bt_status
window(pool *pl, const mpz_t *c, size_t n)
{
    const bt__heap_game *hg = bt__heap_of(pl->g);
    return hg != NULL ? window_heap(pl, hg, c[0]) : window_plain(pl, c, n);
}

/*
 * The options of component i of o->p (with target, those of that value):
 * every one when they fit what is left of the budget, else its window.
 * Appends to pl.
 */
static bt_status
options_of(opp *o, pool *pl, size_t i, const mpz_t *target)
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
                             pool_emit, pl, &small, &quiet);
    else
        st = bt__rs_options(g, c, bt_position_count(o->p, i), pool_emit, pl,
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
    st = window(pl, c, bt_position_count(o->p, i));
    pl->target = NULL;
    if (st == BT_ELIMIT) /* the budget is spent: keep what came */
        st = BT_OK;
    if (st == BT_EINTR) /* its message is written */
        return st;
    return st == BT_OK ? st : bt__fail(o->diag, st, "%s", quiet.message);
}

static void
pool_init(pool *pl, const opp *o)
{
    memset(pl, 0, sizeof *pl);
    pl->lim = o->lim;
    pl->diag = o->diag;
    pl->budget = BT_REMOTENESS_MOVES;
}

/* ------------------------------------------- the proxies */

/*
 * N-position whose analysis listed no winning move (a component had too
 * many moves to list): the winning moves the windows find, component by
 * component, the moves to g_i xor X.
 */
static bt_status
window_wins(opp *o, pool *pl, const bt_analysis *a)
{
    size_t i, n = bt_position_size(o->p);
    mpz_t x, gi, t;
    bt_status st = BT_OK;
    mpz_init(x);
    mpz_init(gi);
    mpz_init(t);
    if (bt_analysis_grundy(x, a) != BT_OK)
        st = BT_EUNDEF;
    for (i = 0; i < n && st == BT_OK && pl->n == 0; i++) {
        if (bt_analysis_component_grundy(gi, a, i) != BT_OK) {
            st = BT_EUNDEF;
            break;
        }
        mpz_xor(t, gi, x);
        st = options_of(o, pl, i, (const mpz_t *)&t);
    }
    mpz_clear(x);
    mpz_clear(gi);
    mpz_clear(t);
    if (st == BT_EUNDEF)
        return bt__fail(o->diag, st, "no Grundy value to aim at");
    return st;
}

/*
 * P-position, remoteness unknown: the proxy of the longest game.
 *   1. the moves that leave the largest total of numbers (they take the
 *      fewest counters: the game stays long);
 *   2. among the first OPP_SCORED of them (in place order), the least
 *      share w/m of the opponent's winning replies, counted by the result's
 *      analysis (its moves_to) among all its replies, when both can be
 *      counted (else, and in misère play, this step is skipped);
 *   3. the place order.
 */
#define OPP_SCORED 16

static bt_status
proxy_delay(bt_move **out, opp *o)
{
    pool pl;
    size_t i, n = bt_position_size(o->p), keep = 0, best = 0;
    scored cur, top;
    mpz_t d, dmax;
    bt_status st = BT_OK;
    /* in misère play the result's analysis is a search of its own: the
       share is not counted there (the proxy must stay cheap) */
    int scoring = !o->misere;

    pool_init(&pl, o);
    mpz_init(d);
    mpz_init(dmax);
    for (i = 0; i < n && st == BT_OK; i++)
        st = options_of(o, &pl, i, NULL);
    if (st == BT_OK && pl.n == 0)
        st = bt__fail(o->diag, BT_ELIMIT,
                      "no move found within the opponent's budget");
    if (st != BT_OK) {
        bt_moves_free(pl.m, pl.n);
        mpz_clear(d);
        mpz_clear(dmax);
        return st;
    }
    /* 1: the moves of the largest total first (swapped to the front),
       the first OPP_SCORED of them in place order */
    for (i = 0; i < pl.n; i++) {
        total_delta(d, o->p, &pl.m[i]);
        if (i == 0 || mpz_cmp(d, dmax) > 0)
            mpz_set(dmax, d);
    }
    for (i = 0; i < pl.n; i++) {
        total_delta(d, o->p, &pl.m[i]);
        if (mpz_cmp(d, dmax) == 0) {
            bt_move t = pl.m[keep];
            pl.m[keep] = pl.m[i];
            pl.m[i] = t;
            keep++;
        }
    }
    for (i = 0; i + 1 < keep; i++) {
        size_t j, b = i;
        for (j = i + 1; j < keep; j++)
            if (cmp_place(&pl.m[j], &pl.m[b]) < 0)
                b = j;
        if (b != i) {
            bt_move t = pl.m[i];
            pl.m[i] = pl.m[b];
            pl.m[b] = t;
        }
        if (i + 1 >= OPP_SCORED)
            break;
    }
    /* 2: the share of winning replies */
    scored_init(&cur);
    scored_init(&top);
    for (i = 0; i < keep && i < OPP_SCORED && scoring; i++) {
        bt_position *q;
        bt_analysis *a;
        bt_diag quiet;
        memset(&quiet, 0, sizeof quiet);
        cur.m = &pl.m[i];
        if (child_of(&q, o->p, cur.m, o->diag) != BT_OK)
            break;
        if (bt_analyze(&a, q, o->flags, o->lim, &quiet) == BT_OK) {
            if (!bt_analysis_moves_complete(a))
                scoring = 0;
            mpz_set_ui(cur.w, (unsigned long)bt_analysis_move_count(a));
            bt_analysis_free(a);
            if (scoring && count_moves(cur.all, q, o->lim, &quiet) != BT_OK)
                scoring = 0;
        } else {
            scoring = 0;
        }
        bt_position_free(q);
        if (!scoring)
            break;
        if (mpz_sgn(cur.all) == 0) {
            mpz_set_ui(cur.w, 1);
            mpz_set_ui(cur.all, 1);
        }
        mpz_set_ui(cur.delta, 0);
        if (i == 0 || cmp_delay(&cur, &top, 0) < 0) {
            scored t = top;
            top = cur;
            cur = t;
            best = i;
        }
    }
    if (!scoring)
        best = 0; /* 3: the place order */
    st = bt__move_new(out, o->p, pl.m[best].component,
                      (const mpz_t *)pl.m[best].to, pl.m[best].nto, o->diag);
    scored_clear(&cur);
    scored_clear(&top);
    bt_moves_free(pl.m, pl.n);
    mpz_clear(d);
    mpz_clear(dmax);
    return st;
}

/*
 * Misère play beyond exact analysis: Bouton's misère rule (sec. 6) lifted
 * to the normal-play Grundy values g_j of the components -- exact for
 * Nim and for the "tame" games of Conway's genus theory (On Numbers and
 * Games, ch. 12), a heuristic for the others (Kayles is not tame), so the
 * outcome is reported unknown.  With b components of value >= 2:
 *   - b >= 2: the normal-play winning move (to nim-sum 0), or in a
 *     normal P-position the proxy of proxy_delay;
 *   - b == 1: that component to value 1 when the others have an even
 *     number of value-1 components, else to 0 (an odd number of ones is
 *     left);
 *   - b == 0: with an even number of ones, a value-1 component to 0; else
 *     the proxy of proxy_delay.
 * When the move aimed at does not exist, proxy_delay.
 */
static bt_status
misere_heuristic(bt_move **out, opp *o)
{
    bt_analysis *a = NULL;
    size_t i, n = bt_position_size(o->p), big = 0, ones = 0, bigi = 0;
    size_t onei = (size_t)-1;
    mpz_t g, t;
    bt_status st;
    bt_diag quiet;
    pool pl;

    memset(&quiet, 0, sizeof quiet);
    st = bt_analyze(&a, o->p, 0, o->lim, &quiet);
    if (st == BT_EINTR || st == BT_ENOMEM) {
        if (o->diag != NULL)
            *o->diag = quiet;
        return st;
    }
    if (st != BT_OK) /* no Grundy values: any move of the proxy */
        return proxy_delay(out, o);
    mpz_init(g);
    mpz_init(t);
    for (i = 0; i < n; i++) {
        bt_analysis_component_grundy(g, a, i);
        if (mpz_cmp_ui(g, 1) > 0) {
            big++;
            bigi = i;
        } else if (mpz_cmp_ui(g, 1) == 0) {
            ones++;
            onei = i;
        }
    }
    pool_init(&pl, o);
    st = BT_OK;
    if (big >= 2 && bt_analysis_move_count(a) > 0) {
        st = choose_win(out, o, bt_analysis_move(a, 0),
                        bt_analysis_move_count(a));
        pl.n = 1; /* done */
    } else if (big == 1) {
        mpz_set_ui(t, ones % 2 == 0 ? 1 : 0);
        st = options_of(o, &pl, bigi, (const mpz_t *)&t);
    } else if (big == 0 && ones % 2 == 0 && onei != (size_t)-1) {
        mpz_set_ui(t, 0);
        st = options_of(o, &pl, onei, (const mpz_t *)&t);
    }
    if (st == BT_OK && pl.m != NULL && pl.n > 0) {
        /* of the moves aimed at, the one that leaves the fewest
           counters (the place order after) */
        size_t best = 0;
        mpz_t d, db;
        mpz_init(d);
        mpz_init(db);
        for (i = 0; i < pl.n; i++) {
            total_delta(d, o->p, &pl.m[i]);
            if (i == 0 || mpz_cmp(d, db) < 0 ||
                (mpz_cmp(d, db) == 0 && cmp_place(&pl.m[i], &pl.m[best]) < 0)) {
                mpz_set(db, d);
                best = i;
            }
        }
        st = bt__move_new(out, o->p, pl.m[best].component,
                          (const mpz_t *)pl.m[best].to, pl.m[best].nto,
                          o->diag);
        mpz_clear(d);
        mpz_clear(db);
    } else if (st == BT_OK && pl.n == 0) {
        st = proxy_delay(out, o);
    }
    bt_moves_free(pl.m, pl.m != NULL ? pl.n : 0);
    mpz_clear(g);
    mpz_clear(t);
    bt_analysis_free(a);
    return st;
}

/* ------------------------------------------------------------- the move */

const char *
bt_rule_name(bt_rule r)
{
    switch (r) {
    case BT_RULE_RANDOM:
        return "random";
    case BT_RULE_REMOTENESS:
        return "remoteness";
    case BT_RULE_PROXY:
        return "proxy";
    case BT_RULE_HEURISTIC:
    default:
        return "heuristic";
    }
}

/*
 * Normal-play Nim, in one pass over the piles (linear at any number of
 * piles: no list of every winning move is built).  X is the nim-sum; a
 * winning move takes a pile v with v xor X < v to v xor X (Bouton,
 * Theorem II), and leaves a P-position of remoteness T - (v - (v xor X))
 * (Theorem 1 of docs/opponent.md): the fastest win takes the most
 * counters, the first such pile on ties (the tie order).  A P-position:
 * nim_delay.
 */
static bt_status
nim_normal(bt_move **out, bt_play_info *info, const bt_position *p,
           const bt_limits *lim, bt_diag *diag)
{
    size_t i, n = bt_position_size(p), best = (size_t)-1;
    mpz_t x, to, take, most, bestto;
    bt_status st;
    mpz_init(x);
    mpz_init(to);
    mpz_init(take);
    mpz_init(most);
    mpz_init(bestto);
    for (i = 0; i < n; i++)
        mpz_xor(x, x, bt_position_nums(p, i)[0]);
    if (mpz_sgn(x) == 0) {
        opp o;
        info->outcome = BT_P;
        opp_init(&o, p, 0, lim, diag);
        st = nim_delay(out, &o);
        opp_fini(&o);
    } else {
        size_t top = mpz_sizeinbase(x, 2) - 1;
        info->outcome = BT_N;
        for (i = 0; i < n; i++) {
            const mpz_t *v = bt_position_nums(p, i);
            if (!mpz_tstbit(v[0], top))
                continue;
            mpz_xor(to, v[0], x);
            mpz_sub(take, v[0], to);
            if (best == (size_t)-1 || mpz_cmp(take, most) > 0) {
                mpz_set(most, take);
                mpz_set(bestto, to);
                best = i;
            }
        }
        st = bt__move_new(out, p, best, (const mpz_t *)&bestto, 1, diag);
    }
    mpz_clear(x);
    mpz_clear(to);
    mpz_clear(take);
    mpz_clear(most);
    mpz_clear(bestto);
    return st;
}

/* The opponent's own deadline on top of the caller's interrupt: the
   misère search stops at BT_OPPONENT_MISERE_MILLIS. */
typedef struct deadline {
    const bt_limits *outer;
    uint64_t at;
    int fired;
} deadline;

static int
deadline_hit(void *ud)
{
    deadline *dl = ud;
    if (dl->outer->interrupt != NULL &&
        dl->outer->interrupt(dl->outer->interrupt_ud))
        return 1;
    if (bt__clock_ms() > dl->at) {
        dl->fired = 1;
        return 1;
    }
    return 0;
}

static bt_status
opponent_play(bt_move **out, bt_play_info *info, const bt_position *p,
              int misere, bt_level level, uint64_t *rng,
              const bt_limits *lim, bt_diag *diag)
{
    bt_analysis *a = NULL;
    bt_status st;
    bt_play_info dummy;
    opp o;

    *out = NULL;
    if (info == NULL)
        info = &dummy;
    memset(info, 0, sizeof *info);
    lim = bt__limits(lim);
    if (bt_position_is_terminal(p))
        return bt__fail(diag, BT_EINVAL, "no move: the game is over");
    if (level != BT_LEVEL_PERFECT) {
        if (rng == NULL)
            return bt__fail(diag, BT_EINVAL,
                            "a level below perfect needs a random "
                            "generator");
        if (bt_rng_below(rng, 1000) < bt_level_error_permille(level)) {
            info->rule = BT_RULE_RANDOM;
            return bt_random_move(out, p, rng, lim, diag);
        }
    }
    if (!misere && all_nim_heaps(p)) {
        info->outcome_known = 1;
        info->remoteness_known = 1;
        info->rule = BT_RULE_REMOTENESS;
        return nim_normal(out, info, p, lim, diag);
    }
    if (misere) {
        /* the exact misère analysis, within the opponent's time */
        bt_limits ml = *lim;
        deadline dl;
        bt_diag quiet;
        dl.outer = lim;
        dl.at = bt__clock_ms() + BT_OPPONENT_MISERE_MILLIS;
        dl.fired = 0;
        ml.interrupt = deadline_hit;
        ml.interrupt_ud = &dl;
        memset(&quiet, 0, sizeof quiet);
        st = bt_analyze(&a, p, BT_MISERE, &ml, &quiet);
        if (st == BT_ELIMIT || (st == BT_EINTR && dl.fired)) {
            opp_init(&o, p, misere, lim, diag);
            info->rule = BT_RULE_HEURISTIC;
            st = misere_heuristic(out, &o);
            opp_fini(&o);
            return st;
        }
        if (st != BT_OK) {
            if (diag != NULL)
                *diag = quiet;
            return st;
        }
    } else {
        st = bt_analyze(&a, p, 0, lim, diag);
        if (st != BT_OK)
            return st;
    }
    info->outcome_known = 1;
    info->outcome = bt_analysis_outcome(a);
    opp_init(&o, p, misere, lim, diag);
    if (info->outcome == BT_N && bt_analysis_move_count(a) > 0) {
        st = choose_win(out, &o, bt_analysis_move(a, 0),
                        bt_analysis_move_count(a));
    } else if (info->outcome == BT_N) {
        /* too many moves to list: the winning moves of the windows */
        pool pl;
        pool_init(&pl, &o);
        st = misere ? BT_EUNDEF : window_wins(&o, &pl, a);
        if (st == BT_OK && pl.n == 0)
            st = bt__fail(diag, BT_ELIMIT,
                          "no winning move found among the moves the "
                          "opponent's budget lets it list");
        if (st == BT_OK)
            st = choose_win(out, &o, pl.m, pl.n);
        bt_moves_free(pl.m, pl.m != NULL ? pl.n : 0);
    } else if (o.nim) {
        st = nim_delay(out, &o);
    } else {
        st = opp_need_remoteness(&o);
        if (st == BT_OK && o.rem_known)
            st = choose_delay(out, &o);
        else if (st == BT_OK)
            st = proxy_delay(out, &o);
    }
    info->rule = o.rem_known ? BT_RULE_REMOTENESS : BT_RULE_PROXY;
    info->remoteness_known = o.rem_known;
    opp_fini(&o);
    bt_analysis_free(a);
    return st;
}

bt_status
bt_opponent_play(bt_move **out, bt_play_info *info, const bt_position *p,
                 int misere, bt_level level, uint64_t *rng,
                 const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag,
                    opponent_play(out, info, p, misere, level, rng, lim, diag));
}

bt_status
bt_opponent_move(bt_move **out, const bt_position *p, int misere,
                 bt_level level, uint64_t *rng, const bt_limits *lim,
                 bt_diag *diag)
{
    return bt_opponent_play(out, NULL, p, misere, level, rng, lim, diag);
}

bt_status
bt__window_moves_to(bt_game *g, const mpz_t *c, size_t n, const mpz_t target,
                    bt__emit emit, void *ud, const bt_limits *lim)
{
    pool pl;
    mpz_t t;
    size_t i;
    bt_status st;
    memset(&pl, 0, sizeof pl);
    pl.lim = bt__limits(lim);
    pl.budget = BT_REMOTENESS_MOVES;
    pl.g = g;
    mpz_init_set(t, target);
    pl.target = (const mpz_t *)&t;
    st = window(&pl, c, n);
    if (st != BT_ENOMEM)
        st = BT_OK; /* a value out of reach, a spent budget: fewer moves */
    for (i = 0; i < pl.n && st == BT_OK; i++)
        st = emit(ud, (const mpz_t *)pl.m[i].to, pl.m[i].nto);
    bt_moves_free(pl.m, pl.n);
    mpz_clear(t);
    return st;
}
