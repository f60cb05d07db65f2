/*
 * coins.c -- one-dimensional coin-turning games (Berlekamp, Conway, Guy,
 * Winning Ways, ch. 14 "Turn and Turn About"; T. S. Ferguson, Game Theory,
 * Part I, sec. 5.1-5.3): a row of coins, a position the set of coins
 * showing heads, one component of any number of numbers (the heads'
 * indices, in any order, each at most once).  A move turns over a set of
 * coins that the game's code allows, the one of largest index (its top)
 * from heads to tails; the game ends when no head is left.
 *
 *   turtles        Turning Turtles: one or two coins; coins numbered from
 *                  1; a head at n is worth n (Ferguson 5.1: Nim in
 *                  disguise, the head at n a heap of n).
 *   mock-turtles   Mock Turtles: one, two or three coins; numbered from 0;
 *                  a head at n is worth the n-th odious number counted from
 *                  0 (1, 2, 4, 7, 8, 11, ...: OEIS A000069, whose offset is
 *                  1, so a(n + 1)), that is 2n + 1 when n has an even number
 *                  of ones in binary, else 2n (Ferguson 5.2).
 *   ruler          Ruler: any run of consecutive coins ending at the top;
 *                  numbered from 1; a head at n is worth the largest power
 *                  of 2 dividing n (Ferguson 5.3; Winning Ways' Ruler).
 *   twins          Twins: exactly two coins; numbered from 0; a head at n
 *                  is worth n (Ferguson 5.3).
 *
 * Why the value of a position is the nim-sum of its heads' values: a coin
 * turned twice is as if untouched, so the game is the sum of the games of
 * its single heads, where turning a tail to heads adds a copy of that
 * head's game and H + H = 0 (Ferguson 5.1).  Turning a move set S changes
 * the value by the nim-sum of the values of S, so the winning moves to a
 * value t from a component of value X are the sets S whose top is a head
 * and whose values' nim-sum is X ^ t, which each code solves in closed
 * form (bt__coin_sets_to): no search, at any size of index.
 */
#include <stdlib.h>
#include <string.h>

#include "games/coins.h"

/* ------------------------------------------------------------- the codes */

typedef enum { TURTLES, MOCK, RULER, TWINS } rule;

struct bt__coin_code {
    const char *name;
    rule rule;
    unsigned long base; /* the first coin's index */
    unsigned sizes;     /* bit j: a move may turn the top and j coins
                           below it; 0: a run (Ruler) */
};

static const bt__coin_code codes[] = {
    {"turtles", TURTLES, 1, 0x3},
    {"mock-turtles", MOCK, 0, 0x7},
    {"ruler", RULER, 1, 0},
    {"twins", TWINS, 0, 0x2},
};
#define NCODES (sizeof codes / sizeof codes[0])

const bt__coin_code *
bt__coin_code_find(const char *name, size_t len)
{
    size_t i;
    for (i = 0; i < NCODES; i++)
        if (strlen(codes[i].name) == len &&
            memcmp(codes[i].name, name, len) == 0)
            return &codes[i];
    return NULL;
}

const char *
bt__coin_code_name(const bt__coin_code *k)
{
    return k->name;
}

const char *
bt__coin_code_names(void)
{
    return "turtles, mock-turtles, ruler, twins";
}

unsigned long
bt__coin_code_base(const bt__coin_code *k)
{
    return k->base;
}

void
bt__coin_value(const bt__coin_code *k, mpz_t r, const mpz_t n)
{
    switch (k->rule) {
    case MOCK: {
        /* the n-th odious number from 0: 2n, plus 1 when n is evil (an
           even number of ones), so that 2n + 1 bit is odd in all */
        int evil = mpz_popcount(n) % 2 == 0;
        mpz_mul_2exp(r, n, 1);
        if (evil)
            mpz_add_ui(r, r, 1);
        break;
    }
    case RULER: {
        mp_bitcnt_t low = mpz_scan1(n, 0);
        mpz_set_ui(r, 0);
        mpz_setbit(r, low);
        break;
    }
    case TURTLES:
    case TWINS:
        mpz_set(r, n);
        break;
    }
}

/* The coin of value v alone (codes whose value is one-to-one: not Ruler):
   sets r and returns 1, or returns 0 when no coin has that value. */
static int
coin_of_value(const bt__coin_code *k, mpz_t r, const mpz_t v)
{
    switch (k->rule) {
    case MOCK:
        if (mpz_popcount(v) % 2 == 0)
            return 0; /* evil: no single coin's value */
        mpz_fdiv_q_2exp(r, v, 1);
        return 1;
    case TURTLES:
    case TWINS:
        if (mpz_cmp_ui(v, k->base) < 0)
            return 0;
        mpz_set(r, v);
        return 1;
    case RULER:
        break;
    }
    return 0;
}

/* The Gray code n ^ (n >> 1), and its inverse (the prefix nim-sum of the
   bits from the top: x ^ x>>1 ^ x>>2 ^ ..., by doubling shifts). */
static void
gray(mpz_t r, const mpz_t n, mpz_t tmp)
{
    mpz_fdiv_q_2exp(tmp, n, 1);
    mpz_xor(r, n, tmp);
}

static void
gray_inverse(mpz_t r, const mpz_t x, mpz_t tmp)
{
    mp_bitcnt_t s, bits = mpz_sizeinbase(x, 2);
    mpz_set(r, x);
    for (s = 1; s < bits; s *= 2) {
        mpz_fdiv_q_2exp(tmp, r, s);
        mpz_xor(r, r, tmp);
    }
}

/*
 * The nim-sum of the ruler values of the coins 1..n is gray(n): bit i of
 * it is the parity of the number of k <= n divisible by exactly 2^i, which
 * is ceil(q / 2) for q = floor(n / 2^i), odd exactly when q = 1 or 2 mod 4,
 * that is when bits i and i + 1 of n differ.  So a run m..n is worth
 * gray(n) ^ gray(m - 1), and the run of value e ending at n starts after
 * gray^-1(gray(n) ^ e).
 */

/* ------------------------------------------------------------ the bound */

#define COIN_POLL 1024u

void
bt__coin_bound_init(bt__coin_bound *b, const bt_limits *lim, bt_diag *diag)
{
    lim = bt__limits(lim);
    bt__budget_init(&b->budget, lim);
    b->lim = lim;
    b->diag = diag;
    b->steps = 0;
    /* a walk may look at 64 sets per move it can list */
    b->max_steps = lim->max_search > SIZE_MAX / 64 ? SIZE_MAX
                                                   : 64 * lim->max_search;
    b->tired = 0;
}

bt_status
bt__coin_step(bt__coin_bound *b)
{
    if (++b->steps > b->max_steps) {
        b->tired = 1;
        return bt__fail(b->diag, BT_ELIMIT,
                        "the move sets of a coin position take more steps to "
                        "walk than the limit allows (%zu, from max_search)",
                        b->max_steps);
    }
    if ((b->steps % COIN_POLL) != 0)
        return BT_OK;
    return bt__budget_check(&b->budget, b->lim, b->diag);
}

/* ------------------------------------------------------------ move sets */

typedef struct sets {
    const bt__coin_code *k;
    bt__coin_set s;
    mpz_t top, tv, t1, t2;
    bt__coin_visit f;
    void *ud;
    bt__coin_bound *b;
} sets;

static void
sets_init(sets *w, const bt__coin_code *k, const mpz_t n, bt__coin_visit f,
          void *ud, bt__coin_bound *b)
{
    w->k = k;
    w->s.run = k->rule == RULER;
    w->s.nlow = 0;
    mpz_init(w->s.low[0]);
    mpz_init(w->s.low[1]);
    mpz_init(w->s.value);
    mpz_init_set(w->top, n);
    mpz_init(w->tv);
    mpz_init(w->t1);
    mpz_init(w->t2);
    bt__coin_value(k, w->tv, n);
    w->f = f;
    w->ud = ud;
    w->b = b;
}

static void
sets_clear(sets *w)
{
    mpz_clear(w->s.low[0]);
    mpz_clear(w->s.low[1]);
    mpz_clear(w->s.value);
    mpz_clear(w->top);
    mpz_clear(w->tv);
    mpz_clear(w->t1);
    mpz_clear(w->t2);
}

/* Hands the set in w->s to the visitor, its value computed. */
static bt_status
sets_visit(sets *w)
{
    bt_status st = bt__coin_step(w->b);
    size_t j;
    if (st != BT_OK)
        return st;
    if (w->s.run) {
        /* the run low[0]..top: gray(top) ^ gray(low[0] - 1) */
        gray(w->s.value, w->top, w->t2);
        mpz_sub_ui(w->t1, w->s.low[0], 1);
        gray(w->t1, w->t1, w->t2);
        mpz_xor(w->s.value, w->s.value, w->t1);
    } else {
        mpz_set(w->s.value, w->tv);
        for (j = 0; j < w->s.nlow; j++) {
            bt__coin_value(w->k, w->t1, w->s.low[j]);
            mpz_xor(w->s.value, w->s.value, w->t1);
        }
    }
    return w->f(w->ud, &w->s);
}

bt_status
bt__coin_sets(const bt__coin_code *k, const mpz_t n, bt__coin_visit f,
              void *ud, bt__coin_bound *b)
{
    sets w;
    bt_status st = BT_OK;
    sets_init(&w, k, n, f, ud, b);
    if (k->rule == RULER) {
        /* the runs m..n, shortest first */
        w.s.nlow = 1;
        for (mpz_set(w.s.low[0], n);
             st == BT_OK && mpz_cmp_ui(w.s.low[0], k->base) >= 0;
             mpz_sub_ui(w.s.low[0], w.s.low[0], 1))
            st = sets_visit(&w);
    } else {
        if (k->sizes & 1) {
            w.s.nlow = 0;
            st = sets_visit(&w);
        }
        if (st == BT_OK && (k->sizes & 2)) {
            w.s.nlow = 1;
            for (mpz_set_ui(w.s.low[0], k->base);
                 st == BT_OK && mpz_cmp(w.s.low[0], n) < 0;
                 mpz_add_ui(w.s.low[0], w.s.low[0], 1))
                st = sets_visit(&w);
        }
        if (st == BT_OK && (k->sizes & 4)) {
            w.s.nlow = 2;
            for (mpz_set_ui(w.s.low[1], k->base + 1);
                 st == BT_OK && mpz_cmp(w.s.low[1], n) < 0;
                 mpz_add_ui(w.s.low[1], w.s.low[1], 1))
                for (mpz_set_ui(w.s.low[0], k->base);
                     st == BT_OK && mpz_cmp(w.s.low[0], w.s.low[1]) < 0;
                     mpz_add_ui(w.s.low[0], w.s.low[0], 1))
                    st = sets_visit(&w);
        }
    }
    sets_clear(&w);
    return st;
}

/*
 * The pairs l < m below the top n with value(l) ^ value(m) = f (Mock
 * Turtles).  With value(x) = 2x + p(x), p(x) = 1 when x is evil (an even
 * number of ones), value(l) ^ value(m) = 2 (l ^ m) + (p(l) ^ p(m)), and
 * p(l) ^ p(m) is the parity of the ones of l ^ m.  So f = 2h + parity(h)
 * with h = l ^ m: f is evil and non-zero (l != m), and conversely each
 * evil f > 0 comes from h = f >> 1 alone.  The pairs are {l, l ^ h}, l
 * with the top bit of h clear (then l < l ^ h), and l ^ h < n.
 */
static bt_status
mock_pairs(sets *w, const mpz_t f)
{
    mp_bitcnt_t hb;
    bt_status st = BT_OK;
    mpz_t h;
    if (mpz_sgn(f) == 0 || mpz_popcount(f) % 2 != 0)
        return BT_OK;
    mpz_init(h);
    mpz_fdiv_q_2exp(h, f, 1);
    hb = mpz_sizeinbase(h, 2) - 1;
    w->s.nlow = 2;
    /* m = low[1] runs over the numbers below n with bit hb set, each the
       larger of a pair (l = m ^ h < m): every step finds a move */
    mpz_set_ui(w->s.low[1], 0);
    mpz_setbit(w->s.low[1], hb);
    while (st == BT_OK && mpz_cmp(w->s.low[1], w->top) < 0) {
        mpz_xor(w->s.low[0], w->s.low[1], h);
        st = sets_visit(w);
        mpz_add_ui(w->s.low[1], w->s.low[1], 1);
        if (!mpz_tstbit(w->s.low[1], hb)) /* the next block with bit hb */
            mpz_setbit(w->s.low[1], hb);
    }
    mpz_clear(h);
    return st;
}

bt_status
bt__coin_sets_to(const bt__coin_code *k, const mpz_t n, const mpz_t e,
                 int pairs, bt__coin_visit f, void *ud, bt__coin_bound *b)
{
    sets w;
    bt_status st = BT_OK;
    mpz_t need;
    sets_init(&w, k, n, f, ud, b);
    mpz_init(need);
    /* need: the nim-sum the coins below the top must make */
    mpz_xor(need, e, w.tv);
    if (k->rule == RULER) {
        if (!pairs) {
            /* the run m..n of value e: gray(m - 1) = gray(n) ^ e */
            gray(w.t1, n, w.t2);
            mpz_xor(w.t1, w.t1, e);
            gray_inverse(w.s.low[0], w.t1, w.t2);
            mpz_add_ui(w.s.low[0], w.s.low[0], 1);
            w.s.nlow = 1;
            if (mpz_cmp(w.s.low[0], n) <= 0)
                st = sets_visit(&w);
        }
    } else if (!pairs) {
        if ((k->sizes & 1) && mpz_sgn(need) == 0) {
            w.s.nlow = 0;
            st = sets_visit(&w);
        }
        if (st == BT_OK && (k->sizes & 2) &&
            coin_of_value(k, w.s.low[0], need) &&
            mpz_cmp(w.s.low[0], n) < 0) {
            w.s.nlow = 1;
            st = sets_visit(&w);
        }
    } else if (k->sizes & 4) {
        st = mock_pairs(&w, need);
    }
    mpz_clear(need);
    sets_clear(&w);
    return st;
}

int
bt__coin_sets_few(const bt__coin_code *k, const mpz_t n, unsigned long most)
{
    unsigned long m, count;
    /* m coins below the top */
    if (mpz_cmp_ui(n, k->base + 4096ul) >= 0)
        return 0;
    m = mpz_get_ui(n) - k->base;
    switch (k->rule) {
    case MOCK:
        count = 1 + m + m * (m - 1) / 2;
        break;
    case TWINS:
        count = m;
        break;
    default:
        count = m + 1;
    }
    return count <= most;
}

int
bt__coin_is_set(const bt__coin_code *k, const mpz_srcptr *s, size_t n)
{
    size_t j;
    int ok = n >= 1 && mpz_cmp_ui(s[0], k->base) >= 0;
    if (ok && k->rule == RULER) {
        mpz_t x;
        mpz_init(x);
        for (j = 1; j < n && ok; j++) {
            mpz_sub(x, s[j], s[j - 1]);
            ok = mpz_cmp_ui(x, 1) == 0;
        }
        mpz_clear(x);
    } else if (ok) {
        ok = n - 1 < 3 && ((k->sizes >> (n - 1)) & 1);
    }
    return ok;
}

static int
cmp_ptr(const void *a, const void *b)
{
    return mpz_cmp(*(mpz_srcptr const *)a, *(mpz_srcptr const *)b);
}

void
bt__coin_sort(mpz_srcptr *p, size_t n)
{
    qsort(p, n, sizeof *p, cmp_ptr);
}

/* ------------------------------------------------------------ the games */

static const bt__coin_code *
code_of(const bt_game *g)
{
    return (const bt__coin_code *)g->state;
}

static bt_status
coins_init(bt_game *g, const char *name, const char *params, bt_diag *diag)
{
    const bt__coin_code *k = bt__coin_code_find(name, strlen(name));
    if (k == NULL) /* the registry only calls with its own names */
        return bt__fail(diag, BT_EPARSE, "unknown coin game '%s'", name);
    if (params != NULL)
        return bt__fail_at(diag, BT_EPARSE, 0,
                           "%s takes no parameters (a position lists the "
                           "coins showing heads: %s 1 4 7)",
                           k->name, k->name);
    /* the state is the code itself, static: nothing to free */
    g->state = (void *)(uintptr_t)k;
    return bt__game_set_spec(g, "%s", k->name);
}

/* The first coin's number, for front ends (bt_game_board_first). */
static unsigned long
coins_first(const bt_game *g, unsigned axis)
{
    (void)axis;
    return code_of(g)->base;
}

/* The heads c[0..n-1] sorted into h (malloc'd); NULL when out of memory. */
static mpz_srcptr *
sorted_heads(const mpz_t *c, size_t n)
{
    mpz_srcptr *h = malloc((n ? n : 1) * sizeof *h);
    size_t i;
    if (h == NULL)
        return NULL;
    for (i = 0; i < n; i++)
        h[i] = c[i];
    bt__coin_sort(h, n);
    return h;
}

static bt_status
coins_check(bt_game *g, const mpz_t *c, size_t n, const bt_limits *lim,
            bt_diag *diag)
{
    const bt__coin_code *k = code_of(g);
    mpz_srcptr *h;
    size_t i;
    bt_status st = BT_OK;
    (void)lim;
    for (i = 0; i < n; i++)
        if (mpz_cmp_ui(c[i], k->base) < 0)
            return bt__fail(diag, BT_EPARSE,
                            "%s: coin 0 does not exist (coins are numbered "
                            "from %lu)",
                            k->name, k->base);
    if ((h = sorted_heads(c, n)) == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    for (i = 1; i < n && st == BT_OK; i++)
        if (mpz_cmp(h[i - 1], h[i]) == 0) {
            char *s = mpz_get_str(NULL, 10, h[i]);
            size_t len = strlen(s);
            st = bt__fail(diag, BT_EPARSE,
                          "%s: coin %.40s%s is listed twice (a position "
                          "is the set of coins showing heads; a coin is "
                          "heads or tails)",
                          k->name, s, len > 40 ? "..." : "");
            free(s);
        }
    free(h);
    return st;
}

static bt_status
coins_grundy(bt_game *g, mpz_t rop, const mpz_t *c, size_t n,
             const bt_limits *lim, bt_diag *diag)
{
    const bt__coin_code *k = code_of(g);
    size_t i;
    mpz_t v;
    bt_status st = BT_OK;
    mpz_init(v);
    mpz_set_ui(rop, 0);
    for (i = 0; i < n && st == BT_OK; i++) {
        bt__coin_value(k, v, c[i]);
        mpz_xor(rop, rop, v);
        if ((i & 4095) == 4095)
            st = bt__poll(bt__limits(lim));
    }
    mpz_clear(v);
    return st == BT_OK ? st
                       : bt__fail(diag, st, "the time budget ran out");
}

/*
 * A walk over the heads that hands out moves: each move set S found for
 * the head h[top] becomes the option heads ^ S (symmetric difference),
 * sorted.  The moves listed count toward max_search by their number of
 * coins (at least one), as moore.c's count by words: a list holds at most
 * max_search coins, the first move always listed.  A run of Ruler longer
 * than max_search coins makes an option too large to write: it is left
 * out and the list marked incomplete (`big`).
 */
typedef struct walk {
    const bt__coin_code *k;
    mpz_srcptr *h;
    size_t n, top;
    bt__emit emit;
    void *ud;
    bt__coin_bound b;
    mpz_t *out;
    size_t cap, listed, words;
    int full, big;
    mpz_t len;
} walk;

static bt_status
out_reserve(walk *w, size_t need)
{
    return bt__mpz_reserve(&w->out, &w->cap, need, &w->b.budget, w->b.diag);
}

/* Appends x to the option at *m. */
static void
put(walk *w, size_t *m, const mpz_t x)
{
    mpz_set(w->out[(*m)++], x);
}

static bt_status
on_set(void *ud, const bt__coin_set *s)
{
    walk *w = ud;
    size_t most, m = 0, i = 0, words;
    bt_status st;
    mpz_srcptr top = w->h[w->top];
    if (s->run) {
        mpz_sub(w->len, top, s->low[0]);
        mpz_add_ui(w->len, w->len, 1);
        if (mpz_cmp_ui(w->len, w->b.lim->max_search) > 0) {
            w->big = 1; /* a run too long to write: left out */
            return BT_OK;
        }
        most = w->n + mpz_get_ui(w->len);
    } else {
        most = w->n + s->nlow;
    }
    if ((st = out_reserve(w, most)) != BT_OK)
        return st;
    if (s->run) {
        /* heads below the run, the run's coins that were tails, heads
           above it */
        mpz_t x;
        mpz_init_set(x, s->low[0]);
        while (i < w->n && mpz_cmp(w->h[i], x) < 0)
            put(w, &m, w->h[i++]);
        for (; mpz_cmp(x, top) <= 0; mpz_add_ui(x, x, 1)) {
            if (i < w->n && mpz_cmp(w->h[i], x) == 0)
                i++;
            else
                put(w, &m, x);
            if ((st = bt__coin_step(&w->b)) != BT_OK) {
                mpz_clear(x);
                return st;
            }
        }
        mpz_clear(x);
        while (i < w->n)
            put(w, &m, w->h[i++]);
    } else {
        /* merge the heads with the set's coins, dropping the common ones */
        mpz_srcptr sc[3];
        size_t ns = 0, j = 0;
        for (j = 0; j < s->nlow; j++)
            sc[ns++] = s->low[j];
        sc[ns++] = top;
        j = 0;
        while (i < w->n || j < ns) {
            int d = i == w->n ? 1 : j == ns ? -1 : mpz_cmp(w->h[i], sc[j]);
            if (d < 0)
                put(w, &m, w->h[i++]);
            else if (d > 0)
                put(w, &m, sc[j++]);
            else
                i++, j++;
        }
    }
    words = m ? m : 1;
    if (w->listed > 0 && (w->words >= w->b.lim->max_search ||
                          words > w->b.lim->max_search - w->words)) {
        w->full = 1;
        return BT_ELIMIT;
    }
    st = bt__budget_charge(&w->b.budget,
                           sizeof(bt_move) + m * (sizeof(mpz_t) + 16) + 64,
                           w->b.diag);
    if (st != BT_OK)
        return st;
    w->listed++;
    w->words += words;
    return w->emit(w->ud, (const mpz_t *)w->out, m);
}

static bt_status
walk_init(walk *w, const bt__coin_code *k, const mpz_t *c, size_t n,
          bt__emit emit, void *ud, const bt_limits *lim, bt_diag *diag)
{
    memset(w, 0, sizeof *w);
    w->k = k;
    w->n = n;
    w->emit = emit;
    w->ud = ud;
    bt__coin_bound_init(&w->b, lim, diag);
    mpz_init(w->len);
    if ((w->h = sorted_heads(c, n)) == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    return BT_OK;
}

/* Frees w and words the status of a list that a limit cut. */
static bt_status
walk_end(walk *w, bt_status st, const char *what)
{
    size_t j;
    for (j = 0; j < w->cap; j++)
        mpz_clear(w->out[j]);
    free(w->out);
    free(w->h);
    mpz_clear(w->len);
    if (st == BT_ELIMIT && w->full)
        return bt__fail(w->b.diag, BT_ELIMIT,
                        "a %s position has more %s than the max_search limit "
                        "lets list (%zu: a move counts its coins)",
                        w->k->name, what, w->b.lim->max_search);
    if (st == BT_OK && w->big)
        return bt__fail(w->b.diag, BT_ELIMIT,
                        "a %s position has %s that turn a run of more coins "
                        "than the max_search limit (%zu) lets write; those "
                        "are left out",
                        w->k->name, what, w->b.lim->max_search);
    return st;
}

static bt_status
coins_options(bt_game *g, const mpz_t *c, size_t n, bt__emit emit, void *ud,
              const bt_limits *lim, bt_diag *diag)
{
    walk w;
    bt_status st = walk_init(&w, code_of(g), c, n, emit, ud, lim, diag);
    for (w.top = 0; w.top < n && st == BT_OK; w.top++)
        st = bt__coin_sets(w.k, w.h[w.top], on_set, &w, &w.b);
    return walk_end(&w, st, "moves");
}

static bt_status
coins_moves_to(bt_game *g, const mpz_t *c, size_t n, const mpz_t target,
               bt__emit emit, void *ud, const bt_limits *lim, bt_diag *diag)
{
    walk w;
    int pairs;
    mpz_t d;
    bt_status st = walk_init(&w, code_of(g), c, n, emit, ud, lim, diag);
    mpz_init(d);
    if (st == BT_OK)
        st = coins_grundy(g, d, c, n, lim, diag);
    mpz_xor(d, d, target); /* the nim-sum a move set must make */
    /* first every head's few-coin moves, then the pairs (as many as n / 2
       a head), so that a limit cuts the long lists only */
    for (pairs = 0; pairs < 2 && st == BT_OK; pairs++)
        for (w.top = 0; w.top < n && st == BT_OK; w.top++)
            st = bt__coin_sets_to(w.k, w.h[w.top], d, pairs, on_set, &w,
                                  &w.b);
    mpz_clear(d);
    return walk_end(&w, st, "winning moves");
}

/* The coins a move from c to `to` turns (sorted, malloc'd into *out, *ns
   of them; NULL *out when out of memory), and whether `to` lists a coin
   twice (*dup). */
static mpz_srcptr *
turned(const mpz_t *c, size_t n, const mpz_t *to, size_t nto, size_t *ns,
       int *dup)
{
    mpz_srcptr *a = sorted_heads(c, n), *b = sorted_heads(to, nto), *s;
    size_t i = 0, j = 0, m = 0;
    *dup = 0;
    s = malloc((n + nto ? n + nto : 1) * sizeof *s);
    if (a == NULL || b == NULL || s == NULL) {
        free(a);
        free(b);
        free(s);
        return NULL;
    }
    for (j = 1; j < nto; j++)
        if (mpz_cmp(b[j - 1], b[j]) == 0)
            *dup = 1;
    j = 0;
    while (i < n || j < nto) {
        int d = i == n ? 1 : j == nto ? -1 : mpz_cmp(a[i], b[j]);
        if (d < 0)
            s[m++] = a[i++];
        else if (d > 0)
            s[m++] = b[j++];
        else
            i++, j++;
    }
    free(a);
    free(b);
    *ns = m;
    return s;
}

static void
put_coin(bt__buf *out, mpz_srcptr x)
{
    bt__buf_mpz(out, x);
}

static void
coins_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
               size_t n, const mpz_t *to, size_t nto)
{
    size_t ns, j;
    int dup;
    mpz_srcptr *s = turned(c, n, to, nto, &ns, &dup);
    (void)g;
    (void)comp;
    if (s == NULL) {
        bt__buf_puts(out, "a move");
        return;
    }
    if (ns == 0) {
        bt__buf_puts(out, "no change");
    } else {
        bt__buf_puts(out, "turn coin ");
        put_coin(out, s[ns - 1]);
        bt__buf_puts(out, " to tails");
        if (ns == 2) {
            bt__buf_puts(out, " and coin ");
            put_coin(out, s[0]);
            bt__buf_puts(out, " over");
        } else if (ns == 3) {
            bt__buf_puts(out, " and coins ");
            put_coin(out, s[0]);
            bt__buf_puts(out, ", ");
            put_coin(out, s[1]);
            bt__buf_puts(out, " over");
        } else if (ns > 3) {
            bt__buf_puts(out, " and the coins ");
            put_coin(out, s[0]);
            bt__buf_puts(out, " to ");
            put_coin(out, s[ns - 2]);
            bt__buf_printf(out, " over (%zu coins)", ns);
        }
    }
    (void)j;
    free(s);
}

/*
 * A move written in place: `to` differs from c at no more than 3
 * positions (what the opponent's window of moves tries: one coin lowered).
 * Decided in O(n) without sorting c, since a window tries 64 (n + 1)
 * candidates.  Returns 1 or 0, or -2 when `to` is not of that form.
 */
static int
in_place(const bt__coin_code *k, const mpz_t *c, size_t n, const mpz_t *to,
         size_t nto)
{
    size_t p[3], np = 0, i, j, ns = 0;
    mpz_srcptr s[6], x;
    int from_c[6], top_c;
    if (nto != n)
        return -2;
    for (i = 0; i < n; i++)
        if (mpz_cmp(c[i], to[i]) != 0) {
            if (np == 3)
                return -2;
            p[np++] = i;
        }
    for (i = 0; i < np; i++) {
        /* a new number equal to a coin kept, or to another new one: a
           coin listed twice */
        for (j = 0; j < n; j++)
            if (j != p[i] && mpz_cmp(to[p[i]], to[j]) == 0)
                return 0;
    }
    /* the coins turned: the old numbers not among the new, and the new
       not among the old (a coin only moved in the list stays) */
    for (i = 0; i < np; i++) {
        int in_to = 0, in_c = 0;
        for (j = 0; j < np; j++) {
            in_to = in_to || mpz_cmp(c[p[i]], to[p[j]]) == 0;
            in_c = in_c || mpz_cmp(to[p[i]], c[p[j]]) == 0;
        }
        if (!in_to) {
            from_c[ns] = 1;
            s[ns++] = c[p[i]];
        }
        if (!in_c) {
            from_c[ns] = 0;
            s[ns++] = to[p[i]];
        }
    }
    for (i = 1; i < ns; i++) /* insertion sort of at most 6 */
        for (j = i; j > 0 && mpz_cmp(s[j - 1], s[j]) > 0; j--) {
            x = s[j], s[j] = s[j - 1], s[j - 1] = x;
            top_c = from_c[j], from_c[j] = from_c[j - 1], from_c[j - 1] = top_c;
        }
    return ns > 0 && from_c[ns - 1] && bt__coin_is_set(k, s, ns);
}

/* The rules decide a move from c to `to` from the coins it turns: a
   legal set of the code whose top was heads (and `to` a set). */
static int
coins_is_option(bt_game *g, const mpz_t *c, size_t n, const mpz_t *to,
                size_t nto)
{
    const bt__coin_code *k = code_of(g);
    size_t ns, j;
    int dup, ok = 1, top_head = 0;
    mpz_srcptr *s;
    for (j = 0; j < nto; j++)
        if (mpz_cmp_ui(to[j], k->base) < 0)
            return 0;
    if ((ok = in_place(k, c, n, to, nto)) != -2)
        return ok;
    if ((s = turned(c, n, to, nto, &ns, &dup)) == NULL)
        return -1;
    ok = !dup && bt__coin_is_set(k, s, ns);
    for (j = 0; ok && j < n && !top_head; j++)
        top_head = mpz_cmp(c[j], s[ns - 1]) == 0;
    free(s);
    return ok && top_head;
}

/* Each head with its value, their nim-sum, and the verdict. */
static void
coins_explain(bt_game *g, bt__buf *out, const bt_position *p,
              const bt__verdict *found)
{
    const bt__coin_code *k = code_of(g);
    size_t i, j, nm;
    mpz_t v;
    if (found->misere) {
        bt__buf_puts(out, "Misère play: no theorem of coin-turning games "
                          "covers it; the outcome is from an exhaustive "
                          "search of the game.\n");
        return;
    }
    switch (k->rule) {
    case TURTLES:
        bt__buf_puts(out, "Turning Turtles (Ferguson, Game Theory I.5.1): "
                          "coins numbered from 1; a head at n is worth n, "
                          "a Nim heap of n.\n");
        break;
    case MOCK:
        bt__buf_puts(out, "Mock Turtles (Ferguson I.5.2): coins numbered "
                          "from 0; a head at n is worth the n-th odious "
                          "number from 0 (1, 2, 4, 7, 8, ...: OEIS "
                          "A000069), 2n or 2n + 1, whichever has an odd "
                          "number of ones.\n");
        break;
    case RULER:
        bt__buf_puts(out, "Ruler (Ferguson I.5.3): coins numbered from 1; "
                          "a head at n is worth the largest power of 2 "
                          "dividing n.\n");
        break;
    case TWINS:
        bt__buf_puts(out, "Twins (Ferguson I.5.3): coins numbered from 0; "
                          "a head at n is worth n.\n");
        break;
    }
    bt__buf_puts(out, "The value of a position is the nim-sum of its "
                      "heads' values (a coin turned twice is as if "
                      "untouched: each head is a game of its own).\n");
    mpz_init(v);
    for (i = 0; i < bt_position_size(p); i++) {
        const mpz_t *c = bt_position_nums(p, i);
        size_t n = bt_position_count(p, i);
        mpz_srcptr *h = sorted_heads(c, n);
        if (bt_position_size(p) > 1)
            bt__buf_printf(out, "component %zu:\n", i + 1);
        for (j = 0; h != NULL && j < n && j < 32; j++) {
            bt__coin_value(k, v, h[j]);
            bt__buf_puts(out, "  head ");
            bt__buf_mpz(out, h[j]);
            bt__buf_puts(out, "  value ");
            bt__buf_mpz(out, v);
            bt__buf_putc(out, '\n');
        }
        if (n > 32)
            bt__buf_printf(out, "  (and %zu heads more)\n", n - 32);
        free(h);
    }
    if (found->grundy != NULL) {
        bt__buf_puts(out, "nim-sum of the values: ");
        bt__buf_mpz(out, found->grundy);
        bt__buf_putc(out, '\n');
    }
    mpz_clear(v);
    if (found->outcome == BT_P) {
        bt__buf_puts(out, "A P-position: every move changes the nim-sum "
                          "from 0; the previous player wins.\n");
        return;
    }
    nm = found->nmoves;
    bt__buf_printf(out,
                   "An N-position: a winning move turns a set whose values' "
                   "nim-sum is the position's (%zu%s):\n",
                   nm, found->moves_complete ? "" : ", not all listed");
    for (i = 0; i < nm; i++)
        bt__buf_printf(out, "  - %s\n", found->moves[i].text);
}

#define COIN_FAMILY(ID, NAME, SUMMARY, TITLE)                                  \
    const bt__varset bt__varset_##ID = {                                       \
        .base = {                                                              \
            .info = {NAME, NAME, SUMMARY, "", TITLE, NAME},                    \
            .arity = 0,                                                        \
            .init = coins_init,                                                \
            .explain = coins_explain,                                          \
            .is_option = coins_is_option,                                      \
        },                                                                     \
        .check_n = coins_check,                                                \
        .grundy_n = coins_grundy,                                              \
        .options_n = coins_options,                                            \
        .moves_to_n = coins_moves_to,                                          \
        .describe_n = coins_describe,                                          \
        .first_coin = coins_first,                                             \
    }

COIN_FAMILY(turtles, "turtles",
            "Turning Turtles: a position lists the coins showing heads "
            "(numbered from 1); turn over one or two coins, the larger "
            "from heads to tails.",
            "Turning Turtles");
COIN_FAMILY(mock_turtles, "mock-turtles",
            "Mock Turtles: a position lists the coins showing heads "
            "(numbered from 0); turn over one, two or three coins, the "
            "largest from heads to tails.",
            "Mock Turtles");
COIN_FAMILY(ruler, "ruler",
            "Ruler: a position lists the coins showing heads (numbered from "
            "1); turn over a run of consecutive coins, the largest from "
            "heads to tails.",
            "Ruler");
COIN_FAMILY(twins, "twins",
            "Twins: a position lists the coins showing heads (numbered from "
            "0); turn over exactly two coins, the larger from heads to "
            "tails.",
            "Twins");
