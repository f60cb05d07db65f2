/*
 * tartan.c -- two-dimensional coin-turning games: the products G x H of
 * two one-dimensional codes of coins.c (Winning Ways ch. 14, "Tartans";
 * T. S. Ferguson, Game Theory, Part I, sec. 5.5), selected as
 * `tartan:G*H` (`tartan:ruler*mock-turtles`), and Turning Corners,
 * `corners`, which is tartan:twins*twins.
 *
 * A position is the set of heads-up coins of a board, each coin (x, y)
 * two numbers: one component of 2k numbers, "corners 3,5 6,2" (a comma is
 * a blank of the position language: "corners 3 5 6 2" is the same text),
 * x counted as G numbers its coins, y as H does (both from 0 for Turning
 * Corners).  A move chooses a move set A of G and a move set B of H and
 * turns every coin of A x B; its top (max A, max B) goes from heads to
 * tails.  Turning Corners: A = {a, x}, B = {b, y}, a < x, b < y, the four
 * corners of a rectangle.
 *
 * The Tartan theorem (Winning Ways ch. 14; Ferguson 5.5): the value of a
 * head at (x, y) is G(x) (x) H(y), the nim-product of the heads' values in
 * the two games, and a position is worth the nim-sum of its heads'.  So a
 * move set A x B changes the value by the nim-sum over A x B of
 * G(a) (x) H(b) = (nim-sum of G over A) (x) (nim-sum of H over B) =
 * alpha (x) beta, by distributivity.  The moves to a value t from X are
 * those with alpha (x) beta = X + t: for each head and each move set A of G
 * below it (alpha != 0, since a move changes a single head's value), beta
 * = (X + t) (x) alpha^-1, and the move sets B of H of value beta are the
 * one-dimensional closed forms (bt__coin_sets_to).  The nim-products and
 * inverses are nimber.h's, at any size.
 */
#include <stdlib.h>
#include <string.h>

#include "games/coins.h"

typedef struct tartan {
    const bt__coin_code *g, *h; /* x's code and y's */
    int corners;
} tartan;

static const tartan *
tartan_of(const bt_game *g)
{
    return (const tartan *)g->state;
}

static bt_status
tartan_init(bt_game *g, const char *name, const char *params, bt_diag *diag)
{
    tartan *t;
    const char *star;
    if (strcmp(name, "corners") == 0) {
        if (params != NULL)
            return bt__fail_at(diag, BT_EPARSE, 0,
                               "corners takes no parameters (a position "
                               "lists the coins showing heads: corners 3,5 "
                               "6,2)");
        if ((t = malloc(sizeof *t)) == NULL)
            return bt__fail(diag, BT_ENOMEM, "out of memory");
        t->g = t->h = bt__coin_code_find("twins", 5);
        t->corners = 1;
        g->state = t;
        return bt__game_set_spec(g, "corners");
    }
    if (params == NULL || (star = strchr(params, '*')) == NULL)
        return bt__fail_at(diag, BT_EPARSE, 0,
                           "tartan needs two coin games, as tartan:G*H "
                           "(e.g. tartan:turtles*ruler; the games: %s)",
                           bt__coin_code_names());
    if ((t = malloc(sizeof *t)) == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    t->g = bt__coin_code_find(params, (size_t)(star - params));
    t->h = bt__coin_code_find(star + 1, strlen(star + 1));
    t->corners = 0;
    if (t->g == NULL || t->h == NULL) {
        int first = t->g == NULL;
        free(t);
        return bt__fail_at(diag, BT_EPARSE,
                           first ? 0 : (size_t)(star + 1 - params),
                           "tartan:%.60s: '%.*s' is not a coin game (the "
                           "games: %s)",
                           params,
                           first ? (int)(star - params > 30 ? 30
                                                             : star - params)
                                 : 30,
                           first ? params : star + 1, bt__coin_code_names());
    }
    g->state = t;
    return bt__game_set_spec(g, "tartan:%s*%s", bt__coin_code_name(t->g),
                             bt__coin_code_name(t->h));
}

static void
tartan_fini(bt_game *g)
{
    free(g->state);
    g->state = NULL;
}

/* ------------------------------------------------------------- coins */

/* A coin of the board: its two numbers (pointers into a component). */
typedef struct coin {
    mpz_srcptr x, y;
} coin;

static int
coin_cmp(const coin *a, const coin *b)
{
    int d = mpz_cmp(a->x, b->x);
    return d ? d : mpz_cmp(a->y, b->y);
}

static int
coin_cmp_q(const void *a, const void *b)
{
    return coin_cmp(a, b);
}

/* The k = n / 2 coins of c, sorted (malloc'd); NULL when out of memory. */
static coin *
coins_of(const mpz_t *c, size_t n)
{
    size_t k = n / 2, i;
    coin *s = malloc((k ? k : 1) * sizeof *s);
    if (s == NULL)
        return NULL;
    for (i = 0; i < k; i++) {
        s[i].x = c[2 * i];
        s[i].y = c[2 * i + 1];
    }
    qsort(s, k, sizeof *s, coin_cmp_q);
    return s;
}

static bt_status
tartan_check(bt_game *g, const mpz_t *c, size_t n, const bt_limits *lim,
             bt_diag *diag)
{
    const tartan *t = tartan_of(g);
    size_t i;
    coin *s;
    bt_status st = BT_OK;
    (void)lim;
    if (n % 2 != 0)
        return bt__fail(diag, BT_EPARSE,
                        "%s: a coin is two numbers, x and y (e.g. 3,5), got "
                        "%zu numbers",
                        g->spec, n);
    for (i = 0; i < n; i++)
        if (mpz_cmp_ui(c[i], bt__coin_code_base(i % 2 ? t->h : t->g)) < 0)
            return bt__fail(diag, BT_EPARSE,
                            "%s: coin %zu has %s 0, and %s are numbered "
                            "from %lu",
                            g->spec, i / 2 + 1, i % 2 ? "y" : "x",
                            i % 2 ? "rows" : "columns",
                            bt__coin_code_base(i % 2 ? t->h : t->g));
    if ((s = coins_of(c, n)) == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    for (i = 1; i < n / 2 && st == BT_OK; i++)
        if (coin_cmp(&s[i - 1], &s[i]) == 0)
            st = bt__fail(diag, BT_EPARSE,
                          "%s: a coin is listed twice (a position is the "
                          "set of coins showing heads; a coin is heads or "
                          "tails)",
                          g->spec);
    free(s);
    return st;
}

/* The value of the head (x, y): G(x) (x) H(y). */
static bt_status
head_value(const tartan *t, mpz_t r, mpz_srcptr x, mpz_srcptr y, mpz_t tmp,
           const bt_limits *lim, bt_diag *diag)
{
    bt__coin_value(t->g, r, x);
    bt__coin_value(t->h, tmp, y);
    return bt_nimber_mul(r, r, tmp, lim, diag);
}

static bt_status
tartan_grundy(bt_game *g, mpz_t rop, const mpz_t *c, size_t n,
              const bt_limits *lim, bt_diag *diag)
{
    const tartan *t = tartan_of(g);
    size_t i;
    mpz_t v, tmp, sum;
    bt_status st = BT_OK;
    lim = bt__limits(lim);
    mpz_init(v);
    mpz_init(tmp);
    mpz_init(sum);
    for (i = 0; i + 1 < n && st == BT_OK; i += 2) {
        st = head_value(t, v, c[i], c[i + 1], tmp, lim, diag);
        mpz_xor(sum, sum, v);
        if (st == BT_OK && (i & 4095) == 4094 &&
            (st = bt__poll(lim)) != BT_OK)
            st = bt__fail(diag, st, "the time budget ran out");
    }
    if (st == BT_OK)
        mpz_set(rop, sum);
    mpz_clear(v);
    mpz_clear(tmp);
    mpz_clear(sum);
    return st;
}

/* ------------------------------------------------------------- moves */

/*
 * The walk over the heads that hands out moves, as coins.c's: the option
 * of the head s[top] and the sets A (of G) and B (of H) is heads ^ (A x B),
 * sorted; it counts toward max_search by its coins, the first always
 * listed; a product of more than max_search coins (runs of Ruler) is left
 * out and the list marked incomplete (`big`).
 */
typedef struct walk {
    const tartan *t;
    coin *s;
    size_t n, top; /* n heads */
    bt__emit emit;
    void *ud;
    bt__coin_bound b;
    mpz_t *out; /* 2 numbers a coin */
    size_t cap, listed, words;
    int full, big;
    /* the set of G being combined, its coins expanded */
    mpz_t *ax, *by;
    size_t nax, nby, capa, capb;
    coin *prod;
    size_t capp;
    /* moves to a value: the target of the product, and scratch */
    mpz_t d, beta, inv, alpha;
    int pairs;
} walk;

/* The coins of set s of top `top` into *v (grown; charged): returns
   BT_OK with *nv set, or BT_ELIMIT (big) when it has more than
   max_search coins. */
static bt_status
expand(walk *w, const bt__coin_set *s, mpz_srcptr top, mpz_t **v,
       size_t *nv, size_t *cap)
{
    size_t need, j;
    mpz_t len;
    if (s->run) {
        mpz_init(len);
        mpz_sub(len, top, s->low[0]);
        mpz_add_ui(len, len, 1);
        if (mpz_cmp_ui(len, w->b.lim->max_search) > 0) {
            mpz_clear(len);
            w->big = 1;
            return BT_ELIMIT;
        }
        need = mpz_get_ui(len);
        mpz_clear(len);
    } else {
        need = s->nlow + 1;
    }
    {
        bt_status st = bt__mpz_reserve(v, cap, need, &w->b.budget, w->b.diag);
        if (st != BT_OK)
            return st;
    }
    if (s->run) {
        mpz_set((*v)[0], s->low[0]);
        for (j = 1; j < need; j++)
            mpz_add_ui((*v)[j], (*v)[j - 1], 1);
    } else {
        for (j = 0; j < s->nlow; j++)
            mpz_set((*v)[j], s->low[j]);
        mpz_set((*v)[s->nlow], top);
    }
    *nv = need;
    return BT_OK;
}

static bt_status
out_reserve(walk *w, size_t coins)
{
    return bt__mpz_reserve(&w->out, &w->cap, 2 * coins, &w->b.budget,
                           w->b.diag);
}

/* Emits heads ^ (ax x by): the product is sorted already (ax and by
   ascending, x first). */
static bt_status
emit_product(walk *w)
{
    size_t np, i = 0, j = 0, m = 0, a, b, words;
    bt_status st;
    if (w->nby != 0 && w->nax > w->b.lim->max_search / w->nby) {
        w->big = 1;
        return BT_OK;
    }
    np = w->nax * w->nby;
    if (np > w->capp) {
        coin *grown;
        st = bt__budget_charge(&w->b.budget, (np - w->capp) * sizeof *grown,
                               w->b.diag);
        if (st != BT_OK)
            return st;
        if ((grown = realloc(w->prod, np * sizeof *grown)) == NULL)
            return bt__fail(w->b.diag, BT_ENOMEM, "out of memory");
        w->prod = grown;
        w->capp = np;
    }
    for (a = 0; a < w->nax; a++)
        for (b = 0; b < w->nby; b++) {
            w->prod[a * w->nby + b].x = w->ax[a];
            w->prod[a * w->nby + b].y = w->by[b];
        }
    if ((st = out_reserve(w, w->n + np)) != BT_OK)
        return st;
    while (i < w->n || j < np) {
        int d = i == w->n ? 1 : j == np ? -1 : coin_cmp(&w->s[i], &w->prod[j]);
        const coin *k = d < 0 ? &w->s[i] : &w->prod[j];
        if (d == 0) {
            i++, j++;
            continue;
        }
        mpz_set(w->out[2 * m], k->x);
        mpz_set(w->out[2 * m + 1], k->y);
        m++;
        if (d < 0)
            i++;
        else
            j++;
        if ((m & 1023) == 0 && (st = bt__coin_step(&w->b)) != BT_OK)
            return st;
    }
    words = m ? m : 1;
    if (w->listed > 0 && (w->words >= w->b.lim->max_search ||
                          words > w->b.lim->max_search - w->words)) {
        w->full = 1;
        return BT_ELIMIT;
    }
    st = bt__budget_charge(&w->b.budget,
                           sizeof(bt_move) + 2 * m * (sizeof(mpz_t) + 16) + 64,
                           w->b.diag);
    if (st != BT_OK)
        return st;
    w->listed++;
    w->words += words;
    return w->emit(w->ud, (const mpz_t *)w->out, 2 * m);
}

/* A set B of H (every one, or one of value beta): its product with A. */
static bt_status
on_b(void *ud, const bt__coin_set *s)
{
    walk *w = ud;
    bt_status st = expand(w, s, w->s[w->top].y, &w->by, &w->nby, &w->capb);
    if (st == BT_ELIMIT && w->big)
        return BT_OK; /* too long to write: left out */
    return st != BT_OK ? st : emit_product(w);
}

/* Every option: each set A of G with each set B of H. */
static bt_status
on_a_all(void *ud, const bt__coin_set *s)
{
    walk *w = ud;
    bt_status st = expand(w, s, w->s[w->top].x, &w->ax, &w->nax, &w->capa);
    if (st == BT_ELIMIT && w->big)
        return BT_OK;
    if (st != BT_OK)
        return st;
    return bt__coin_sets(w->t->h, w->s[w->top].y, on_b, w, &w->b);
}

/* A set B of H whose product with A's value alpha makes d. */
static bt_status
on_b_check(void *ud, const bt__coin_set *s)
{
    walk *w = ud;
    bt_status st = bt_nimber_mul(w->beta, w->alpha, s->value, w->b.lim,
                                 w->b.diag);
    if (st != BT_OK || mpz_cmp(w->beta, w->d) != 0)
        return st;
    return on_b(ud, s);
}

/* The moves to a value: each set A of G, and the sets B of H of value
   beta = d (x) alpha^-1; when H has few sets at the top (a small board),
   each checked by one product, cheaper than an inverse. */
static bt_status
on_a_to(void *ud, const bt__coin_set *s)
{
    walk *w = ud;
    bt_status st;
    if (mpz_sgn(s->value) == 0) /* no set of a move is worth 0 */
        return BT_OK;
    if (bt__coin_sets_few(w->t->h, w->s[w->top].y, 24)) {
        st = expand(w, s, w->s[w->top].x, &w->ax, &w->nax, &w->capa);
        if (st == BT_ELIMIT && w->big)
            return BT_OK;
        if (st != BT_OK)
            return st;
        mpz_set(w->alpha, s->value);
        return bt__coin_sets(w->t->h, w->s[w->top].y, on_b_check, w, &w->b);
    }
    st = bt_nimber_inv(w->inv, s->value, w->b.lim, w->b.diag);
    if (st == BT_OK)
        st = bt_nimber_mul(w->beta, w->d, w->inv, w->b.lim, w->b.diag);
    if (st != BT_OK)
        return st;
    st = expand(w, s, w->s[w->top].x, &w->ax, &w->nax, &w->capa);
    if (st == BT_ELIMIT && w->big)
        return BT_OK;
    if (st != BT_OK)
        return st;
    st = bt__coin_sets_to(w->t->h, w->s[w->top].y, w->beta, 0, on_b, w,
                          &w->b);
    if (st == BT_OK)
        st = bt__coin_sets_to(w->t->h, w->s[w->top].y, w->beta, 1, on_b, w,
                              &w->b);
    return st;
}

static bt_status
walk_init(walk *w, const bt_game *g, const mpz_t *c, size_t n,
          bt__emit emit, void *ud, const bt_limits *lim, bt_diag *diag)
{
    memset(w, 0, sizeof *w);
    w->t = tartan_of(g);
    w->n = n / 2;
    w->emit = emit;
    w->ud = ud;
    bt__coin_bound_init(&w->b, lim, diag);
    /* a step here may be a nim-inverse and a product of field elements
       (a microsecond past 64 bits), not a few word operations: max_search
       steps, not 64 times as many */
    w->b.max_steps = w->b.lim->max_search;
    mpz_init(w->d);
    mpz_init(w->beta);
    mpz_init(w->inv);
    mpz_init(w->alpha);
    if ((w->s = coins_of(c, n)) == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    return BT_OK;
}

static void
free_nums(mpz_t *v, size_t cap)
{
    size_t j;
    for (j = 0; j < cap; j++)
        mpz_clear(v[j]);
    free(v);
}

static bt_status
walk_end(walk *w, const bt_game *g, bt_status st, const char *what)
{
    free_nums(w->out, w->cap);
    free_nums(w->ax, w->capa);
    free_nums(w->by, w->capb);
    free(w->prod);
    free(w->s);
    mpz_clear(w->d);
    mpz_clear(w->beta);
    mpz_clear(w->inv);
    mpz_clear(w->alpha);
    if (st == BT_ELIMIT && w->full)
        return bt__fail(w->b.diag, BT_ELIMIT,
                        "a %s position has more %s than the max_search limit "
                        "lets list (%zu: a move counts its coins)",
                        g->spec, what, w->b.lim->max_search);
    if (st == BT_OK && w->big)
        return bt__fail(w->b.diag, BT_ELIMIT,
                        "a %s position has %s that turn more coins than the "
                        "max_search limit (%zu) lets write; those are left "
                        "out",
                        g->spec, what, w->b.lim->max_search);
    return st;
}

static bt_status
tartan_options(bt_game *g, const mpz_t *c, size_t n, bt__emit emit, void *ud,
               const bt_limits *lim, bt_diag *diag)
{
    walk w;
    bt_status st = walk_init(&w, g, c, n, emit, ud, lim, diag);
    for (w.top = 0; w.top < w.n && st == BT_OK; w.top++)
        st = bt__coin_sets(w.t->g, w.s[w.top].x, on_a_all, &w, &w.b);
    return walk_end(&w, g, st, "moves");
}

static bt_status
tartan_moves_to(bt_game *g, const mpz_t *c, size_t n, const mpz_t target,
                bt__emit emit, void *ud, const bt_limits *lim, bt_diag *diag)
{
    walk w;
    bt_status st = walk_init(&w, g, c, n, emit, ud, lim, diag);
    if (st == BT_OK)
        st = tartan_grundy(g, w.d, c, n, lim, diag);
    mpz_xor(w.d, w.d, target); /* alpha (x) beta must make d */
    for (w.top = 0; w.top < w.n && st == BT_OK; w.top++)
        st = bt__coin_sets(w.t->g, w.s[w.top].x, on_a_to, &w, &w.b);
    return walk_end(&w, g, st, "winning moves");
}

/* ------------------------------------------------------------- words */

/* The coins a move from c to `to` turns, sorted (malloc'd, *ns of them),
   and whether `to` lists a coin twice (*dup); NULL when out of memory. */
static coin *
turned(const mpz_t *c, size_t n, const mpz_t *to, size_t nto, size_t *ns,
       int *dup)
{
    coin *a = coins_of(c, n), *b = coins_of(to, nto), *s;
    size_t i = 0, j = 0, m = 0, na = n / 2, nb = nto / 2;
    *dup = 0;
    s = malloc((na + nb ? na + nb : 1) * sizeof *s);
    if (a == NULL || b == NULL || s == NULL) {
        free(a);
        free(b);
        free(s);
        return NULL;
    }
    for (j = 1; j < nb; j++)
        if (coin_cmp(&b[j - 1], &b[j]) == 0)
            *dup = 1;
    j = 0;
    while (i < na || j < nb) {
        int d = i == na ? 1 : j == nb ? -1 : coin_cmp(&a[i], &b[j]);
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
put_coin(bt__buf *out, const coin *k)
{
    bt__buf_putc(out, '(');
    bt__buf_mpz(out, k->x);
    bt__buf_putc(out, ',');
    bt__buf_mpz(out, k->y);
    bt__buf_putc(out, ')');
}

static void
tartan_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
                size_t n, const mpz_t *to, size_t nto)
{
    size_t ns, j;
    int dup;
    coin *s = turned(c, n, to, nto, &ns, &dup);
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
        put_coin(out, &s[ns - 1]);
        bt__buf_puts(out, " to tails");
        if (ns > 1 && ns <= 4) {
            bt__buf_puts(out, ns == 2 ? " and coin " : " and coins ");
            for (j = 0; j + 1 < ns; j++) {
                if (j > 0)
                    bt__buf_puts(out, ", ");
                put_coin(out, &s[j]);
            }
            bt__buf_puts(out, " over");
        } else if (ns > 4) {
            /* a product A x B: its columns and its rows */
            mpz_srcptr *v = malloc(ns * sizeof *v);
            size_t side, m, i;
            bt__buf_printf(out, " and the other %zu coins of ", ns - 1);
            for (side = 0; side < 2 && v != NULL; side++) {
                for (i = 0; i < ns; i++)
                    v[i] = side ? s[i].y : s[i].x;
                bt__coin_sort(v, ns);
                for (i = m = 0; i < ns; i++)
                    if (m == 0 || mpz_cmp(v[m - 1], v[i]) != 0)
                        v[m++] = v[i];
                bt__buf_puts(out, side ? " x {" : "{");
                if (m > 3) { /* a run (Ruler's moves) */
                    bt__buf_mpz(out, v[0]);
                    bt__buf_puts(out, "..");
                    bt__buf_mpz(out, v[m - 1]);
                } else {
                    for (i = 0; i < m; i++) {
                        if (i)
                            bt__buf_puts(out, ", ");
                        bt__buf_mpz(out, v[i]);
                    }
                }
                bt__buf_putc(out, '}');
            }
            bt__buf_puts(out, " over");
            free(v);
        }
    }
    free(s);
}

/*
 * The coins turned by a move written in place: `to` differs from c in at
 * most 4 coins at their positions (what the opponent's window of moves
 * tries: one number lowered), found in O(n) without sorting c, as a
 * window tries 64 (n + 1) candidates.  Sets *applies to 0 when `to` is
 * not of that form; else as turned().
 */
static coin *
turned_in_place(const mpz_t *c, size_t n, const mpz_t *to, size_t nto,
                size_t *ns, int *dup, int *applies)
{
    size_t p[4], np = 0, i, j, m = 0;
    coin *s;
    *applies = 0;
    *dup = 0;
    if (nto != n)
        return NULL;
    for (i = 0; i + 1 < n; i += 2)
        if (mpz_cmp(c[i], to[i]) != 0 || mpz_cmp(c[i + 1], to[i + 1]) != 0) {
            if (np == 4)
                return NULL;
            p[np++] = i;
        }
    *applies = 1;
    if ((s = malloc(8 * sizeof *s)) == NULL)
        return NULL;
    for (i = 0; i < np; i++)
        for (j = 0; j + 1 < n; j += 2)
            if (j != p[i] && mpz_cmp(to[p[i]], to[j]) == 0 &&
                mpz_cmp(to[p[i] + 1], to[j + 1]) == 0)
                *dup = 1;
    for (i = 0; i < np; i++) {
        int in_to = 0, in_c = 0;
        for (j = 0; j < np; j++) {
            in_to = in_to || (mpz_cmp(c[p[i]], to[p[j]]) == 0 &&
                              mpz_cmp(c[p[i] + 1], to[p[j] + 1]) == 0);
            in_c = in_c || (mpz_cmp(to[p[i]], c[p[j]]) == 0 &&
                            mpz_cmp(to[p[i] + 1], c[p[j] + 1]) == 0);
        }
        if (!in_to) {
            s[m].x = c[p[i]];
            s[m++].y = c[p[i] + 1];
        }
        if (!in_c) {
            s[m].x = to[p[i]];
            s[m++].y = to[p[i] + 1];
        }
    }
    qsort(s, m, sizeof *s, coin_cmp_q);
    *ns = m;
    return s;
}

/* A move turns A x B, A a set of G, B one of H, its top a head. */
static int
tartan_is_option(bt_game *g, const mpz_t *c, size_t n, const mpz_t *to,
                 size_t nto)
{
    const tartan *t = tartan_of(g);
    size_t ns = 0, na = 0, nb = 0, j;
    int dup, ok, top_head = 0, applies;
    coin *s;
    mpz_srcptr *xs, *ys;
    if (nto % 2 != 0)
        return 0;
    for (j = 0; j < nto; j++)
        if (mpz_cmp_ui(to[j], bt__coin_code_base(j % 2 ? t->h : t->g)) < 0)
            return 0;
    s = turned_in_place(c, n, to, nto, &ns, &dup, &applies);
    if (!applies)
        s = turned(c, n, to, nto, &ns, &dup);
    if (s == NULL)
        return -1;
    xs = malloc((ns ? ns : 1) * sizeof *xs);
    ys = malloc((ns ? ns : 1) * sizeof *ys);
    ok = !dup && ns > 0 && xs != NULL && ys != NULL;
    for (j = 0; ok && j < ns; j++) {
        xs[na++] = s[j].x;
        ys[nb++] = s[j].y;
    }
    if (ok) {
        /* the distinct x's and y's: S = A x B exactly when |S| = |A| |B| */
        size_t i, k;
        bt__coin_sort(xs, na);
        bt__coin_sort(ys, nb);
        for (i = k = 0; i < na; i++)
            if (k == 0 || mpz_cmp(xs[k - 1], xs[i]) != 0)
                xs[k++] = xs[i];
        na = k;
        for (i = k = 0; i < nb; i++)
            if (k == 0 || mpz_cmp(ys[k - 1], ys[i]) != 0)
                ys[k++] = ys[i];
        nb = k;
        ok = na * nb == ns && bt__coin_is_set(t->g, xs, na) &&
             bt__coin_is_set(t->h, ys, nb);
    }
    for (j = 0; ok && j + 1 < n && !top_head; j += 2)
        top_head = mpz_cmp(c[j], xs[na - 1]) == 0 &&
                   mpz_cmp(c[j + 1], ys[nb - 1]) == 0;
    free(xs);
    free(ys);
    free(s);
    return ok && top_head;
}

/* Each head with its values in G and H and their nim-product. */
static void
tartan_explain(bt_game *g, bt__buf *out, const bt_position *p,
               const bt__verdict *found)
{
    const tartan *t = tartan_of(g);
    size_t i, j, nm;
    mpz_t u, v, w;
    if (found->misere) {
        bt__buf_puts(out, "Misère play: no theorem of coin-turning games "
                          "covers it; the outcome is from an exhaustive "
                          "search of the game.\n");
        return;
    }
    if (t->corners)
        bt__buf_puts(out, "Turning Corners (Ferguson, Game Theory I.5.5): "
                          "coins (x, y) numbered from 0; a move turns the "
                          "four corners of a rectangle.  It is Twins x "
                          "Twins: by the Tartan theorem a head at (x, y) is "
                          "worth the nim-product x (x) y.\n");
    else
        bt__buf_printf(out,
                       "A Tartan product (Winning Ways ch. 14; Ferguson "
                       "I.5.5): a move turns A x B, A a move of %s in x, B "
                       "one of %s in y.  By the Tartan theorem a head at "
                       "(x, y) is worth G(x) (x) H(y), the nim-product of "
                       "its values in the two games.\n",
                       bt__coin_code_name(t->g), bt__coin_code_name(t->h));
    mpz_init(u);
    mpz_init(v);
    mpz_init(w);
    for (i = 0; i < bt_position_size(p); i++) {
        const mpz_t *c = bt_position_nums(p, i);
        size_t n = bt_position_count(p, i);
        coin *s = coins_of(c, n);
        if (bt_position_size(p) > 1)
            bt__buf_printf(out, "component %zu:\n", i + 1);
        for (j = 0; s != NULL && j < n / 2 && j < 32; j++) {
            bt__coin_value(t->g, u, s[j].x);
            bt__coin_value(t->h, v, s[j].y);
            if (bt_nimber_mul(w, u, v, NULL, NULL) != BT_OK)
                break;
            bt__buf_puts(out, "  head ");
            put_coin(out, &s[j]);
            bt__buf_puts(out, "  ");
            bt__buf_mpz(out, u);
            bt__buf_puts(out, " (x) ");
            bt__buf_mpz(out, v);
            bt__buf_puts(out, " = ");
            bt__buf_mpz(out, w);
            bt__buf_putc(out, '\n');
        }
        if (n / 2 > 32)
            bt__buf_printf(out, "  (and %zu heads more)\n", n / 2 - 32);
        free(s);
    }
    if (found->grundy != NULL) {
        bt__buf_puts(out, "nim-sum of the values: ");
        bt__buf_mpz(out, found->grundy);
        bt__buf_putc(out, '\n');
    }
    mpz_clear(u);
    mpz_clear(v);
    mpz_clear(w);
    if (found->outcome == BT_P) {
        bt__buf_puts(out, "A P-position: every move changes the nim-sum "
                          "from 0; the previous player wins.\n");
        return;
    }
    nm = found->nmoves;
    bt__buf_printf(out,
                   "An N-position: a winning move turns A x B with "
                   "alpha (x) beta equal to the position's value, alpha and "
                   "beta the nim-sums of the values of A and B (%zu%s):\n",
                   nm, found->moves_complete ? "" : ", not all listed");
    for (i = 0; i < nm; i++)
        bt__buf_printf(out, "  - %s\n", found->moves[i].text);
}

static void
tartan_rules(const bt_game *g, bt__buf *out)
{
    const tartan *t = tartan_of(g);
    if (t->corners) {
        bt__buf_puts(out, g->rules->info.summary);
        return;
    }
    bt__buf_printf(out,
                   "Tartan product %s x %s: a position lists the coins "
                   "(x,y) showing heads; a move turns A x B, A a move of "
                   "%s (coins numbered from %lu) in x and B a move of %s "
                   "(from %lu) in y, the coin (max A, max B) from heads to "
                   "tails.",
                   bt__coin_code_name(t->g), bt__coin_code_name(t->h),
                   bt__coin_code_name(t->g), bt__coin_code_base(t->g),
                   bt__coin_code_name(t->h), bt__coin_code_base(t->h));
}

/* The first coin's number along x (G's numbering) or y (H's), for front
   ends (bt_game_board_first). */
static unsigned long
tartan_first(const bt_game *g, unsigned axis)
{
    const tartan *t = tartan_of(g);
    return bt__coin_code_base(axis == 0 ? t->g : t->h);
}

#define TARTAN_HOOKS                                                           \
    .check_n = tartan_check, .grundy_n = tartan_grundy,                        \
    .options_n = tartan_options, .moves_to_n = tartan_moves_to,                \
    .describe_n = tartan_describe, .group = 2, .first_coin = tartan_first

const bt__varset bt__varset_corners = {
    .base = {
        .info = {"corners", "corners",
                 "Turning Corners: a position lists the coins (x,y) showing "
                 "heads (numbered from 0); turn over the four corners of a "
                 "rectangle, the one farthest from (0,0) from heads to "
                 "tails.",
                 "", "Turning Corners", "corners"},
        .arity = 0,
        .init = tartan_init,
        .fini = tartan_fini,
        .explain = tartan_explain,
        .rules = tartan_rules,
        .is_option = tartan_is_option,
    },
    TARTAN_HOOKS,
};

const bt__varset bt__varset_tartan = {
    .base = {
        .info = {"tartan", "tartan:G*H",
                 "Tartan products of two coin games G and H (turtles, "
                 "mock-turtles, ruler, twins): a position lists the coins "
                 "(x,y) showing heads; turn over A x B for a move A of G and "
                 "a move B of H, the top coin from heads to tails.",
                 "", "Tartan product", "tartan:turtles*ruler"},
        .arity = 0,
        .init = tartan_init,
        .fini = tartan_fini,
        .explain = tartan_explain,
        .rules = tartan_rules,
        .is_option = tartan_is_option,
    },
    TARTAN_HOOKS,
};
