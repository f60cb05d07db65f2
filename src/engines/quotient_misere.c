/*
 * quotient_misere.c -- the misère analysis hook of heap games
 * (bt__quotient_misere): a sum answered through its quotient (cached,
 * learnt further, or of the union of several games), the winning moves and
 * the explanation; bt_quotient_new_sum.  Calls the cache (its quotients and
 * learners), bt__q_build (the quotient of a union), the periodicity theorem
 * and the result.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/quotient_impl.h"

/*
 * A game with no periodicity theorem (Grundy's game, a code that leaves
 * three heaps) learns its quotient for an analysis up to this heap only:
 * its quotient never answers heaps beyond the bound learnt, and such
 * quotients grow fast (Grundy's game passes the work budget at heap 29,
 * where the search answers `grundy 30` in 0.04 s).
 */
#define QUOTIENT_ANALYZE_NOPROOF 26
/*
 * The search budget of a quotient computed for a sum of several games
 * (never above the caller's max_search): a failed attempt costs its
 * whole budget before the search answers (50 000 positions, about 0.3 s
 * of CPU).
 */
#define QUOTIENT_ANALYZE_SEARCH_BIG 50000
/* The most heaps whose elements an explanation lists. */
#define QUOTIENT_EXPLAIN_HEAPS 64

typedef struct qmove {
    const bt_quotient *q;
    size_t comp, excl;
    size_t gi; /* the component's game in a union quotient (q->ng > 0) */
    bt_status (*move)(void *ud, size_t comp, const mpz_t *to, size_t nto);
    void *ud;
    bt__qfacts *f; /* each winning move's element, or NULL */
} qmove;

/* ------------------------------------------------------------ facts */

void
bt__qfacts_free(bt__qfacts *f)
{
    size_t i;
    if (f == NULL)
        return;
    free(f->game);
    free(f->comp);
    free(f->as_heap);
    free(f->move);
    for (i = 0; f->word != NULL && i < f->order; i++)
        free(f->word[i]);
    free(f->word);
    free(f->p);
    memset(f, 0, sizeof *f);
}

/* Begins *f (when not NULL) for the quotient q of `game`, the element x
   of a position of n components: the scalars, and room for the
   components' elements, which the caller sets. */
static bt_status
facts_begin(bt__qfacts *f, const bt_quotient *q, const char *game, size_t x,
            size_t n, bt_diag *diag)
{
    if (f == NULL)
        return BT_OK;
    f->game = strdup(game);
    f->upto = q->upto;
    f->order = q->order;
    f->pcount = q->pcount;
    f->proved = q->proved;
    f->period = q->proved ? q->period : 0;
    f->preperiod = q->proved ? q->preperiod : 0;
    f->loaded = q->loaded;
    f->element = x;
    f->ncomp = n;
    f->comp = malloc((n + 1) * sizeof *f->comp);
    f->as_heap = malloc((n + 1) * sizeof *f->as_heap);
    f->word = calloc(q->order, sizeof *f->word);
    f->p = malloc((q->pcount + 1) * sizeof *f->p);
    if (f->game == NULL || f->comp == NULL || f->as_heap == NULL ||
        f->word == NULL || f->p == NULL) {
        bt__qfacts_free(f);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    return BT_OK;
}

/* The element x of a winning move, after the one the move callback took. */
static bt_status
facts_move(bt__qfacts *f, size_t x)
{
    if (f == NULL)
        return BT_OK;
    if (f->nmove == f->capmove) {
        size_t cap = f->capmove ? 2 * f->capmove : 16;
        size_t *t = realloc(f->move, cap * sizeof *t);
        if (t == NULL)
            return BT_ENOMEM;
        f->move = t;
        f->capmove = cap;
    }
    f->move[f->nmove++] = x;
    return BT_OK;
}

/* Copies the word of element x into *f, once. */
static int
facts_word(bt__qfacts *f, const bt_quotient *q, size_t x)
{
    return f->word[x] != NULL || (f->word[x] = strdup(q->word[x])) != NULL;
}

/* Ends *f: copies the word of every element it names and of P's (Q's
   words are the cache's). */
static bt_status
facts_end(bt__qfacts *f, const bt_quotient *q, bt_diag *diag)
{
    size_t i, k = f->ncomp + f->nmove + 1, np = 0;
    int ok = 1;
    for (i = 0; ok && i < k; i++)
        ok = facts_word(f, q,
                        i < f->ncomp ? f->comp[i]
                        : i < f->ncomp + f->nmove ? f->move[i - f->ncomp]
                                                   : f->element);
    for (i = 0; ok && i < q->order; i++)
        if (q->isp[i] && (ok = facts_word(f, q, i)) != 0)
            f->p[np++] = f->word[i];
    if (!ok) {
        bt__qfacts_free(f);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    f->set = 1;
    return BT_OK;
}

/* The element of a heap of h counters of game gi (a union quotient), or
   of the quotient's game. */
static size_t
heap_element(const bt_quotient *q, size_t gi, const mpz_t h)
{
    if (q->ng > 0) {
        size_t s = (size_t)mpz_get_ui(h);
        return s == 0 ? 0 : q->heap[(s - 1) * q->ng + gi + 1];
    }
    return q->heap[bt__q_heap_reduce(q, h)];
}

static bt_status
on_quotient_option(void *ud, const mpz_t *to, size_t nto)
{
    qmove *m = ud;
    size_t x = m->excl, i;
    bt_status st;
    for (i = 0; i < nto; i++)
        x = m->q->mul[x * m->q->order + heap_element(m->q, m->gi, to[i])];
    if (!m->q->isp[x])
        return BT_OK;
    st = m->move(m->ud, m->comp, to, nto);
    return st == BT_OK ? facts_move(m->f, x) : st;
}

/*
 * The winning moves of a huge heap h of an octal code (too many options
 * to list): every move leaving one heap, and the splits a + (h - k - a)
 * with a <= preperiod + 2 period + t.  Past that bound both heaps are at
 * least the preperiod, so a split's element depends on a mod period only,
 * and every class of winning splits has a member listed; *more is set
 * when some class has more members (then it has many more).
 */
static bt_status
window_moves(qmove *m, const bt__heap_rules *r, const mpz_t h, int *more,
             const bt_limits *lim, bt_diag *diag)
{
    const bt_quotient *q = m->q;
    size_t k, a, w = q->preperiod + 2 * q->period + r->t, per = q->period;
    size_t hm = 0;
    int fast = 0;
    mpz_t to[2];
    bt_status st = BT_OK;
    mpz_init(to[0]);
    mpz_init(to[1]);
    /* the larger heap h - k - a is past upto: its element is that of
       heap_reduce's residue, from h mod period once per heap (10^4 huge
       heaps: no division of a big number per split) */
    if (q->proved && w + r->t < SIZE_MAX - q->upto &&
        mpz_cmp_ui(h, (unsigned long)(q->upto + w + r->t)) > 0) {
        hm = (size_t)mpz_fdiv_ui(h, (unsigned long)per);
        fast = 1;
    }
    for (k = 0; k <= r->t && st == BT_OK; k++) {
        unsigned d = r->digit[k];
        if ((d & 2u) && k > 0) {
            mpz_sub_ui(to[0], h, (unsigned long)k);
            st = on_quotient_option(m, (const mpz_t *)to, 1);
        }
        if (!(d & 4u))
            continue;
        for (a = 1; a <= w && st == BT_OK; a++) {
            size_t x, big;
            /* w grows with the period, up to that of a loaded quotient */
            if ((a & 4095) == 0 && bt__poll(lim) != BT_OK) {
                st = bt__fail(diag, BT_EINTR, "the time budget ran out");
                break;
            }
            if (fast) {
                size_t res = (hm + per - (k + a) % per) % per;
                big = q->preperiod +
                      (res + per - q->preperiod % per) % per;
            } else {
                mpz_sub_ui(to[1], h, (unsigned long)(k + a));
                big = bt__q_heap_reduce(q, to[1]);
            }
            mpz_set_ui(to[0], (unsigned long)a);
            x = q->mul[m->excl * q->order +
                       q->heap[a <= q->upto ? a : bt__q_heap_reduce(q, to[0])]];
            x = q->mul[x * q->order + q->heap[big]];
            if (!q->isp[x])
                continue;
            mpz_sub_ui(to[1], h, (unsigned long)(k + a));
            if (a >= q->preperiod)
                *more = 1; /* a + period wins too, and so on */
            st = m->move(m->ud, m->comp, (const mpz_t *)to, 2);
            if (st == BT_OK)
                st = facts_move(m->f, x);
        }
    }
    mpz_clear(to[0]);
    mpz_clear(to[1]);
    return st;
}

/* The most games and the largest heap of a sum of several games that the
   analysis takes to the quotient of the union of their heaps. */
#define QUNION_GAMES 4
#define QUNION_MAX 16

static int
cmp_spec(const void *a, const void *b)
{
    return strcmp((*(bt_game *const *)a)->spec,
                  (*(bt_game *const *)b)->spec);
}

/*
 * A sum of heaps of several heap games, all of at most QUNION_MAX
 * counters: through the quotient of the union of the games' heaps up to
 * the largest heap (cached under "game1 + game2 + ...", the specs in
 * order), within the smaller search budget.  BT_EUNDEF when it does not
 * apply or exceeds the budget.
 */
static bt_status
quotient_misere_union(const bt_position *p, bt_outcome *outcome,
                      bt_status (*move)(void *ud, size_t comp,
                                        const mpz_t *to, size_t nto),
                      void *ud, char **note, bt__qfacts *f,
                      const bt_limits *lim, bt_diag *diag)
{
    size_t n = bt_position_size(p), i, j, ng = 0, top = 0, slot = SIZE_MAX;
    size_t *gi = NULL, *el = NULL, x, prefix;
    bt_game *games[QUNION_GAMES];
    bt_quotient *q = NULL;
    bt_status st = BT_OK;
    bt__buf key, b;
    int failed;

    for (i = 0; i < n; i++) {
        bt_game *g = bt_position_game(p, i);
        const mpz_t *v = bt_position_nums(p, i);
        if (bt__heap_of(g) == NULL || mpz_cmp_ui(v[0], QUNION_MAX) > 0)
            return BT_EUNDEF;
        if (mpz_get_ui(v[0]) > top)
            top = mpz_get_ui(v[0]);
        for (j = 0; j < ng; j++)
            if (strcmp(games[j]->spec, g->spec) == 0)
                break;
        if (j == ng) {
            if (ng == QUNION_GAMES)
                return BT_EUNDEF;
            games[ng++] = g;
        }
    }
    if (ng < 2 || top == 0)
        return BT_EUNDEF;
    qsort(games, ng, sizeof *games, cmp_spec);
    bt__buf_init(&key);
    for (j = 0; j < ng; j++)
        bt__buf_printf(&key, "%s%s", j ? " + " : "", games[j]->spec);
    if (key.data == NULL) {
        bt__buf_free(&key);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    q = bt__q_qcache_get(key.data, top, &slot, &failed);
    if (q == NULL && failed) {
        bt__buf_free(&key);
        return BT_EUNDEF;
    }
    if (q == NULL) {
        qalpha al;
        bt_limits small = *lim;
        if (small.max_search > QUOTIENT_ANALYZE_SEARCH_BIG)
            small.max_search = QUOTIENT_ANALYZE_SEARCH_BIG;
        al.ng = ng;
        al.bound = top;
        al.games = games;
        st = bt__q_build(&q, games[0], &al, ng * top, 0, &small, NULL);
        if (st == BT_EINTR || st == BT_ENOMEM) {
            bt__buf_free(&key);
            return bt__fail(diag, st,
                            st == BT_EINTR ? "the time budget ran out"
                                           : "out of memory");
        }
        if (st != BT_OK) {
            (void)bt__q_qcache_put(key.data, top, NULL, &slot);
            bt__buf_free(&key);
            return BT_EUNDEF;
        }
        bt_game_free(q->g);
        q->g = NULL;
        q->upto = top; /* the bound of every game (letters: ng * top) */
        if (bt__q_qcache_put(key.data, top, q, &slot) != 0)
            slot = SIZE_MAX;
    }
    gi = malloc((n + 1) * sizeof *gi);
    el = malloc((n + 1) * sizeof *el);
    if (gi == NULL || el == NULL) {
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
        goto done;
    }
    /* suffix products in el, from the right */
    el[n] = 0;
    for (i = n; i-- > 0;) {
        bt_game *g = bt_position_game(p, i);
        for (j = 0; strcmp(games[j]->spec, g->spec) != 0; j++)
            ;
        gi[i] = j;
        el[i] = q->mul[heap_element(q, j, bt_position_nums(p, i)[0]) *
                           q->order +
                       el[i + 1]];
    }
    x = el[0];
    *outcome = q->isp[x] ? BT_P : BT_N;
    st = facts_begin(f, q, key.data, x, n, diag);
    for (i = 0; st == BT_OK && f != NULL && i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        f->comp[i] = heap_element(q, gi[i], v[0]);
        f->as_heap[i] = (size_t)mpz_get_ui(v[0]);
    }
    if (st != BT_OK)
        goto done;
    prefix = 0;
    /* a heap of at most QUNION_MAX counters: O(QUNION_MAX^2) options
       each, O(n) in all */
    for (i = 0; *outcome == BT_N && i < n; i++) {
        qmove m;
        bt_game *g = bt_position_game(p, i);
        const mpz_t *v = bt_position_nums(p, i);
        m.q = q;
        m.comp = i;
        m.gi = gi[i];
        m.excl = q->mul[prefix * q->order + el[i + 1]];
        m.move = move;
        m.ud = ud;
        m.f = f;
        st = bt__rs_options(g, v, bt_position_count(p, i),
                            on_quotient_option, &m, lim, diag);
        if (st != BT_OK)
            goto done;
        prefix = q->mul[prefix * q->order + heap_element(q, gi[i], v[0])];
    }
    bt__buf_init(&b);
    bt__buf_printf(&b,
                   "Misère play through the misère quotient Q of the union "
                   "of the heaps of %s, up to %zu counters (Plambeck and "
                   "Siegel): every sum of such heaps is an element of Q, of "
                   "order %zu with %zu elements in its P-portion P, and a "
                   "sum is a misère P-position exactly when its element is "
                   "in P.  The product of the heaps' elements is x = %s, "
                   "which is %sin P: %s.\n",
                   key.data, top, q->order, q->pcount, q->word[x],
                   q->isp[x] ? "" : "not ",
                   q->isp[x] ? "a P-position, every move leaves a product "
                               "outside P"
                             : "an N-position; a winning move leaves a "
                               "product in P");
    *note = bt__buf_take(&b);
    if (*note == NULL)
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
    if (st == BT_OK && f != NULL)
        st = facts_end(f, q, diag);
done:
    if (st != BT_OK)
        bt__qfacts_free(f);
    bt__buf_free(&key);
    free(gi);
    free(el);
    if (slot != SIZE_MAX)
        bt__q_qcache_release(slot);
    else
        bt_quotient_free(q);
    return st;
}

static bt_status
quotient_new_sum(bt_quotient **out, bt_game *const *games, size_t ng,
                 size_t n, const bt_limits *lim, bt_diag *diag)
{
    bt_game *gs[QUNION_GAMES];
    bt_quotient *q = NULL;
    qalpha al;
    size_t i;
    bt_status st;

    *out = NULL;
    if (ng == 1)
        return bt_quotient_new(out, games[0], n, lim, diag);
    if (ng < 1 || ng > QUNION_GAMES)
        return bt__fail(diag, BT_EINVAL,
                        "the quotient of a union is of 2 to %d games, not "
                        "%zu", QUNION_GAMES, ng);
    for (i = 0; i < ng; i++) {
        if (bt__heap_of(games[i]) == NULL)
            return bt__fail(diag, BT_EINVAL,
                            "%s is not a heap game of a union: the union's "
                            "quotient is of sub:S, octal and Grundy's game",
                            games[i] ? games[i]->spec : "(null)");
        gs[i] = games[i];
    }
    /* the letters in the order the analysis uses (cmp_spec) */
    qsort(gs, ng, sizeof *gs, cmp_spec);
    for (i = 1; i < ng; i++)
        if (strcmp(gs[i - 1]->spec, gs[i]->spec) == 0)
            return bt__fail(diag, BT_EINVAL, "%s is named twice in the "
                                             "union", gs[i]->spec);
    if (n == 0 || n > SIZE_MAX / ng)
        return bt__fail(diag, BT_EINVAL,
                        "the heap bound of a union must be at least 1");
    al.ng = ng;
    al.bound = n;
    al.games = gs;
    st = bt__q_build(&q, gs[0], &al, ng * n, 0, lim, diag);
    if (st != BT_OK)
        return st;
    q->upto = n; /* the bound of every game (letters: ng * n) */
    q->games = malloc(ng * sizeof *q->games);
    if (q->games == NULL) {
        bt_quotient_free(q);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    for (i = 0; i < ng; i++)
        q->games[i] = bt_game_ref(gs[i]);
    *out = q;
    return BT_OK;
}

bt_status
bt_quotient_new_sum(bt_quotient **out, bt_game *const *games, size_t ng,
                    size_t n, const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, quotient_new_sum(out, games, ng, n, lim, diag));
}

bt_status
bt__quotient_misere(const bt_position *p, bt_outcome *outcome,
                    bt_status (*move)(void *ud, size_t comp, const mpz_t *to,
                                      size_t nto),
                    void *ud, char **note, char **left_out,
                    bt__qfacts *facts, const bt_limits *lim, bt_diag *diag)
{
    bt_game *g = bt_position_single_game(p);
    size_t n = bt_position_size(p), i, top = 0, x = 0, slot = SIZE_MAX;
    size_t *suffix = NULL, *red = NULL, need = 0, listed;
    bt_quotient *q = NULL;
    bt_status st;
    bt__buf b;
    int failed;

    *note = NULL;
    *left_out = NULL;
    if (facts != NULL)
        memset(facts, 0, sizeof *facts);
    if (g == NULL && n > 0)
        return quotient_misere_union(p, outcome, move, ud, note, facts, lim,
                                     diag);
    if (n == 0 || bt__heap_of(g) == NULL)
        return BT_EUNDEF;
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        if (!mpz_fits_ulong_p(v[0]) || mpz_get_ui(v[0]) >= SIZE_MAX)
            need = SIZE_MAX;
        else if (mpz_get_ui(v[0]) > need)
            need = (size_t)mpz_get_ui(v[0]);
    }
    /* a cached quotient to a bound of at least need, or proved (computed,
       or installed from a file) */
    q = bt__q_qcache_get(g->spec, need, &slot, &failed);
    if (q == NULL && need > QUOTIENT_ANALYZE_NOPROOF &&
        bt__q_misere_need(g, 1, 1) == SIZE_MAX)
        return BT_EUNDEF; /* no periodicity theorem: the search */
    if (q == NULL) {
        char *why = NULL;
        st = bt__q_learn(&q, &why, g, need, bt__limits(lim), diag);
        if (st == BT_EUNDEF) {
            *note = why; /* how far it got: the search answers instead */
            return st;
        }
        if (st != BT_OK)
            return st;
        if (bt__q_qcache_put(g->spec, q->upto, q, &slot) != 0)
            slot = SIZE_MAX; /* not stored: q is ours to free */
    }
    top = q->upto;
    st = BT_OK; /* a quotient from the cache: nothing has run yet */
    suffix = malloc((n + 1) * sizeof *suffix);
    red = malloc((n + 1) * sizeof *red);
    if (suffix == NULL || red == NULL) {
        free(suffix);
        free(red);
        if (slot != SIZE_MAX)
            bt__q_qcache_release(slot);
        else
            bt_quotient_free(q);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    /* red[i]: the heap of at most upto counters whose element is that of
       component i (itself, or through the proved period) */
    for (i = 0; i < n; i++)
        red[i] = bt__q_heap_reduce(q, bt_position_nums(p, i)[0]);
    suffix[n] = 0;
    for (i = n; i-- > 0;)
        suffix[i] = q->mul[q->heap[red[i]] * q->order + suffix[i + 1]];
    x = suffix[0];
    *outcome = q->isp[x] ? BT_P : BT_N;
    st = facts_begin(facts, q, g->spec, x, n, diag);
    for (i = 0; st == BT_OK && facts != NULL && i < n; i++) {
        facts->comp[i] = q->heap[red[i]];
        facts->as_heap[i] = red[i];
    }
    if (st == BT_OK && *outcome == BT_N) {
        size_t prefix = 0;
        for (i = 0; i < n; i++) {
            qmove m;
            size_t e = q->heap[red[i]];
            const mpz_t *v = bt_position_nums(p, i);
            m.q = q;
            m.comp = i;
            m.excl = q->mul[prefix * q->order + suffix[i + 1]];
            m.gi = 0;
            m.move = move;
            m.ud = ud;
            m.f = facts;
            st = bt__rs_options(g, v, bt_position_count(p, i),
                                on_quotient_option, &m, lim, diag);
            if (st == BT_ELIMIT && mpz_cmp_ui(v[0], top) > 0) {
                /* a huge heap with splits: a window of its moves */
                const bt__heap_rules *r = &bt__heap_of(g)->rules;
                int more = 0;
                st = window_moves(&m, r, v[0], &more, lim, diag);
                if (st == BT_OK && more && *left_out == NULL) {
                    bt__buf lb;
                    bt__buf_init(&lb);
                    bt__buf_printf(
                        &lb,
                        "a heap past the max_search limit has too many "
                        "splits to list: listed are its winning moves that "
                        "leave one heap and its winning splits whose "
                        "smaller heap has at most %zu counters; left out "
                        "are the winning splits whose smaller heap is "
                        "larger, each of which leaves the same element of "
                        "Q as a listed one (both heaps past the preperiod "
                        "%zu, the smaller one shorter by a multiple of the "
                        "period %zu)",
                        q->preperiod + 2 * q->period + r->t, q->preperiod,
                        q->period);
                    *left_out = bt__buf_take(&lb);
                    if (*left_out == NULL)
                        st = bt__fail(diag, BT_ENOMEM, "out of memory");
                }
            }
            if (st != BT_OK)
                break;
            prefix = q->mul[prefix * q->order + e];
            if ((i & 4095) == 4095 && (st = bt__poll(lim)) != BT_OK) {
                st = bt__fail(diag, st, "the time budget ran out");
                break;
            }
        }
    }
    if (st == BT_OK) {
        /* the explanation: each heap size once, then the product */
        unsigned char *shown = calloc(top + 1, 1);
        bt__buf_init(&b);
        if (q->proved)
            bt__buf_printf(&b,
                           "Misère play through the misère quotient Q of "
                           "%s (Plambeck and Siegel): every sum of heaps "
                           "is an element of Q, of order %zu with %zu "
                           "elements in its P-portion P, and a sum is a "
                           "misère P-position exactly when its element is "
                           "in P.  Q was %s the heaps of at "
                           "most %zu counters and proved to be the "
                           "quotient of all heaps by the periodicity "
                           "theorem: the element of heap h + %zu is that "
                           "of heap h for every h >= %zu.  Each heap is an "
                           "element of Q:",
                           g->spec, q->order, q->pcount,
                           q->loaded ? "read from a saved file and checked "
                                       "exactly, as if computed, on"
                                     : "computed from",
                           top, q->period, q->preperiod);
        else
            bt__buf_printf(&b,
                           "Misère play through the misère quotient Q of "
                           "%s (Plambeck and Siegel): every sum of heaps "
                           "of at most %zu counters is an element of Q, of "
                           "order %zu with %zu elements in its P-portion "
                           "P, and a sum is a misère P-position exactly "
                           "when its element is in P.%s  Each heap is an "
                           "element of Q:",
                           g->spec, top, q->order, q->pcount,
                           q->loaded ? "  Q was read from a saved file and "
                                       "checked exactly, as if computed."
                                     : "");
        for (i = 0, listed = 0; shown != NULL && i < n; i++) {
            const mpz_t *v = bt_position_nums(p, i);
            if (mpz_cmp_ui(v[0], top) <= 0) {
                if (shown[red[i]])
                    continue;
                shown[red[i]] = 1;
            }
            if (listed++ == QUOTIENT_EXPLAIN_HEAPS) {
                bt__buf_puts(&b, " (the other heaps likewise);");
                break;
            }
            bt__buf_puts(&b, " heap ");
            bt__buf_mpz(&b, v[0]);
            if (mpz_cmp_ui(v[0], top) > 0)
                bt__buf_printf(&b, " = heap %zu", red[i]);
            bt__buf_printf(&b, " = %s;", q->word[q->heap[red[i]]]);
        }
        free(shown);
        bt__buf_printf(&b, " the product is x = %s, which is %sin P: %s.\n",
                       q->word[x], q->isp[x] ? "" : "not ",
                       q->isp[x] ? "a P-position, every move leaves a "
                                   "product outside P"
                                 : "an N-position; a winning move leaves "
                                   "a product in P");
        *note = bt__buf_take(&b);
        if (*note == NULL)
            st = bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    if (st == BT_OK && facts != NULL)
        st = facts_end(facts, q, diag);
    if (st != BT_OK)
        bt__qfacts_free(facts);
    free(suffix);
    free(red);
    if (slot != SIZE_MAX)
        bt__q_qcache_release(slot);
    else
        bt_quotient_free(q);
    return st;
}
