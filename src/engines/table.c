/*
 * table.c -- streamed tables of P-positions (safe combinations).
 *
 * Tuples x_1 <= ... <= x_k of heaps in [min, below) are visited in
 * lexicographic order through their first k-1 entries (an odometer), in
 * constant memory.  For Nim the last entry is determined: it must be the
 * nim-sum of the others (Bouton sec. 2: "any two of the numbers determine
 * the remaining one"), so each prefix costs O(k) and gives at most one row.
 * Misère Nim differs only where every pile is 0 or 1 (sec. 6).  Other heap
 * games scan the last entry: G(x_k) must equal the nim-sum of the prefix's
 * values (normal play), or a search decides each tuple (misère play).
 * Games of arity 2 with a closed form list their P-positions by index.
 * A game of variable arity whose ruleset gives the last pile from the
 * others (p_last_n: Moore's Nim) lists one component of k piles per row,
 * the prefix walked as for Nim.  Other games (components of 3 or more
 * numbers, or of variable arity with no such rule) have no table.
 *
 * Neither walks to `min` (nor across long gaps without rows): pair tables
 * find the first index with x >= min by interpolation (x_n is increasing
 * and nearly linear, so a few closed forms find it: seek_index); Nim tables seek the entry
 * before the last by a construction on binary digits (seek_pair), so the
 * time to a row grows with the digits of the numbers, not their size.
 * Every walk polls the budget (table_tick), the first step included, and
 * holds a constant number of numbers: a table's memory is its k piles.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/engines.h"

enum { T_START, T_RUN, T_DONE };

struct bt_table {
    bt_game *g;
    int misere, state, nim;
    int last_n; /* a game of variable arity with p_last_n */
    size_t k, m; /* m = k - 1 entries in the prefix */
    bt_limits lim;
    mpz_t min, below;
    mpz_t *x;    /* k entries: the prefix, then the scanned last entry */
    mpz_t xo, t; /* scratch */
    mpz_t index; /* arity 2: the index of the next P-position */
    bt__search *memo;
    unsigned long steps; /* work since the last poll, in units */
    unsigned long unit;  /* the units of one step: see table_tick */
    bt_diag diag; /* the message of the last error */
};

const char *
bt_table_message(const bt_table *t)
{
    return t->diag.message;
}

size_t
bt_table_width(const bt_table *t)
{
    return t->g->rules->arity ? t->k * t->g->rules->arity : t->k;
}

void
bt_table_free(bt_table *t)
{
    size_t i;
    if (t == NULL)
        return;
    for (i = 0; i < t->k + 1; i++)
        mpz_clear(t->x[i]);
    free(t->x);
    mpz_clears(t->min, t->below, t->xo, t->t, t->index, NULL);
    bt__search_free(t->memo);
    bt_game_free(t->g);
    free(t);
}

static bt_status
table_new_closed(bt_table **out, bt_game *g, int misere, size_t k,
                 const mpz_t min, const mpz_t below, const bt_limits *lim,
                 bt_diag *diag)
{
    bt_table *t;
    size_t i;
    bt_status st;

    *out = NULL;
    lim = bt__limits(lim);
    if (mpz_sgn(min) < 0 || mpz_sgn(below) < 0)
        return bt__fail(diag, BT_EINVAL, "table bounds must not be negative");
    if ((st = bt__check_number(below, lim, "--below", diag)) != BT_OK ||
        (st = bt__check_number(min, lim, "--min", diag)) != BT_OK)
        return st;
    if (k > lim->max_table_piles)
        return bt__fail(diag, BT_ELIMIT,
                        "%zu piles is more than the limit of %zu "
                        "(max_table_piles)",
                        k, lim->max_table_piles);
    if (g->rules->arity == 0) { /* one component of k numbers a row */
        if (BT__VARSET(g)->p_last_n == NULL)
            return bt__fail(diag, BT_EINVAL,
                            "tables of %s are not supported (a game of "
                            "variable arity with no rule for its last pile)",
                            g->spec);
        if (k == 0)
            return bt__fail(diag, BT_EINVAL,
                            "a table of %s needs --piles of at least 1 (a "
                            "component has at least one pile)",
                            g->spec);
    } else if (g->rules->arity == 2) {
        if (k != 1)
            return bt__fail(diag, BT_EINVAL,
                            "a table of %s lists single pairs: --piles must "
                            "be 1",
                            g->spec);
        if (g->rules->p_position == NULL)
            return bt__fail(diag, BT_EUNDEF, "no table for %s", g->spec);
    } else if (g->rules->arity != 1) {
        /* the walk below is over heaps: one number a component */
        return bt__fail(diag, BT_EINVAL,
                        "tables of %s are not supported (components of %u "
                        "numbers, with no rule for their P-positions)",
                        g->spec, g->rules->arity);
    } else if (!(g->rules->flags & BT__RS_NIM_HEAPS) &&
               mpz_cmp_ui(below, (unsigned long)lim->max_grundy) > 0) {
        return bt__fail(diag, BT_ELIMIT,
                        "a table of %s below %zu or more needs Grundy values "
                        "beyond the max_grundy limit",
                        g->spec, lim->max_grundy);
    }
    t = calloc(1, sizeof *t);
    if (t == NULL || (t->x = malloc((k + 1) * sizeof *t->x)) == NULL) {
        free(t);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    for (i = 0; i < k + 1; i++)
        mpz_init(t->x[i]);
    mpz_inits(t->xo, t->t, t->index, NULL);
    mpz_init_set(t->min, min);
    mpz_init_set(t->below, below);
    t->g = bt_game_ref(g);
    t->misere = misere;
    t->nim = (g->rules->flags & BT__RS_NIM_HEAPS) != 0;
    t->last_n = g->rules->arity == 0;
    t->k = k;
    t->m = k ? k - 1 : 0;
    t->lim = *lim;
    t->state = T_START;
    {
        size_t limbs = mpz_size(below) > mpz_size(min) ? mpz_size(below)
                                                       : mpz_size(min);
        size_t unit = 1 + (k + 1) * (limbs / 16);
        t->unit = unit < 4096 ? (unsigned long)unit : 4096;
        t->steps = 4096; /* the first step polls: an interrupt already
                            set stops the table before its first row */
    }
    if (misere && !t->nim && g->rules->arity == 1 &&
        (st = bt__search_new(&t->memo)) != BT_OK) {
        bt_table_free(t);
        return bt__fail(diag, st, "out of memory");
    }
    *out = t;
    return BT_OK;
}

bt_status
bt_table_new(bt_table **out, bt_game *g, int misere, size_t k,
             const mpz_t min, const mpz_t below, const bt_limits *lim,
             bt_diag *diag)
{
    /* BT__GMP_CHARGED_CLOSED's memory half, with the table freed when its
       numbers passed max_memory after all; no poll of the interrupt: the
       table's first bt_table_next() polls it, and says so with its
       message (test_table.c, test_interrupt_first_row) */
    bt__gmp_scope gs;
    bt_status st;

    *out = NULL;
    bt__gmp_enter(&gs, lim);
    st = bt__gmp_leave_closed(
        &gs, table_new_closed(out, g, misere, k, min, below, lim, diag), diag);
    if (st != BT_OK) {
        bt_table_free(*out);
        *out = NULL;
    }
    return st;
}

/*
 * Counts one step of a walk and polls the budget every 4096 units of work.
 * A step costs O(k) operations on numbers of below's size (the nim-sum of
 * the prefix, seek_pair's pass over the bits), so its units grow with k and
 * with below's limbs: a table of 64 piles of 50 000 digits polls at every
 * step, one of small piles every 4096 steps.
 */
static bt_status
table_tick(bt_table *t)
{
    t->steps += t->unit;
    if (t->steps < 4096)
        return BT_OK;
    t->steps = 0;
    if (bt__poll(&t->lim) != BT_OK)
        return bt__fail(&t->diag, BT_EINTR, "the time budget ran out");
    return BT_OK;
}

/* Moves the prefix x[0..m-1] to the next non-decreasing tuple below
   `below`; returns 0 when there is none. */
static int
advance_prefix(bt_table *t)
{
    size_t i = t->m, j;
    while (i-- > 0) {
        mpz_add_ui(t->x[i], t->x[i], 1);
        if (mpz_cmp(t->x[i], t->below) < 0) {
            for (j = i + 1; j < t->m; j++)
                mpz_set(t->x[j], t->x[i]);
            return 1;
        }
    }
    return 0;
}

/* The least value the last entry may take. */
static void
last_floor(bt_table *t, mpz_t rop)
{
    mpz_set(rop, t->m ? t->x[t->m - 1] : t->min);
}

/* Nim: sets x[m] to the one last entry that makes a P-position, or
   returns 0 when it falls outside the range. */
static int
nim_last(bt_table *t)
{
    size_t i, ones = 0;
    int small = 1;
    mpz_set_ui(t->xo, 0);
    for (i = 0; i < t->m; i++) {
        mpz_xor(t->xo, t->xo, t->x[i]);
        if (mpz_cmp_ui(t->x[i], 1) > 0)
            small = 0;
        else if (mpz_cmp_ui(t->x[i], 1) == 0)
            ones++;
    }
    if (t->misere && small)
        /* all piles 0 or 1: safe exactly with an odd number of ones */
        mpz_set_ui(t->xo, ones % 2 ? 0 : 1);
    mpz_set(t->x[t->m], t->xo);
    last_floor(t, t->t);
    return mpz_cmp(t->x[t->m], t->t) >= 0 &&
           mpz_cmp(t->x[t->m], t->below) < 0;
}

/* A game of variable arity: x[m] from the ruleset's p_last_n, within the
   range, or 0. */
static int
varset_last(bt_table *t)
{
    if (!BT__VARSET(t->g)->p_last_n(t->g, t->misere, (const mpz_t *)t->x,
                                    t->m, t->x[t->m]))
        return 0;
    last_floor(t, t->t);
    return mpz_cmp(t->x[t->m], t->t) >= 0 &&
           mpz_cmp(t->x[t->m], t->below) < 0;
}

/*
 * The least y >= lo with y <= (c xor y) < below, into y; 0 when there is
 * none.  Then (prefix, y, c xor y) is the next row of a Nim table whose
 * prefix before y has nim-sum c.  y <= c xor y says that y has a 0 at the
 * top bit of c (where y and c xor y first differ), or c = 0.  Decided on
 * binary digits from the top, with the states "y equals lo so far" and
 * "c xor y equals below so far": ok[i][s] tells whether the i low digits
 * can be completed from state s; then y is built greedily, 0 first.
 */
static bt_status
seek_pair(mpz_t y, const mpz_t lo, const mpz_t c, const mpz_t below,
          int *found)
{
    size_t nb = mpz_sizeinbase(below, 2), i;
    long top = mpz_sgn(c) ? (long)mpz_sizeinbase(c, 2) - 1 : -1;
    unsigned char *ok;
    int s;
    if (mpz_sizeinbase(lo, 2) > nb)
        nb = mpz_sizeinbase(lo, 2);
    if (mpz_sizeinbase(c, 2) > nb)
        nb = mpz_sizeinbase(c, 2);
    nb++;
    *found = 0;
    ok = malloc(4 * (nb + 1));
    if (ok == NULL)
        return BT_ENOMEM;
    for (s = 0; s < 4; s++)
        ok[s] = (s & 1) == 0; /* at the end, c xor y < below strictly */
    for (i = 1; i <= nb; i++) {
        size_t bit = i - 1;
        int lb = mpz_tstbit(lo, bit), cb = mpz_tstbit(c, bit),
            bb = mpz_tstbit(below, bit);
        for (s = 0; s < 4; s++) {
            int tl = s >> 1, tb = s & 1, yb, any = 0;
            for (yb = 0; yb < 2 && !any; yb++) {
                int zb = yb ^ cb;
                if ((long)bit == top && yb == 1)
                    continue;
                if ((tl && yb < lb) || (tb && zb > bb))
                    continue;
                any = ok[4 * (i - 1) + ((tl && yb == lb) << 1) +
                         (tb && zb == bb)];
            }
            ok[4 * i + s] = (unsigned char)any;
        }
    }
    if (ok[4 * nb + 3]) {
        s = 3;
        mpz_set_ui(y, 0);
        for (i = nb; i >= 1; i--) {
            size_t bit = i - 1;
            int lb = mpz_tstbit(lo, bit), cb = mpz_tstbit(c, bit),
                bb = mpz_tstbit(below, bit), yb;
            int tl = s >> 1, tb = s & 1;
            for (yb = 0; yb < 2; yb++) {
                int zb = yb ^ cb, ns;
                if ((long)bit == top && yb == 1)
                    continue;
                if ((tl && yb < lb) || (tb && zb > bb))
                    continue;
                ns = ((tl && yb == lb) << 1) + (tb && zb == bb);
                if (ok[4 * (i - 1) + ns]) {
                    if (yb)
                        mpz_setbit(y, bit);
                    s = ns;
                    break;
                }
            }
        }
        *found = 1;
    }
    free(ok);
    return BT_OK;
}

/* Nim, k >= 2: when the prefix's last entry x[m-1] gives no row, moves it
   straight to the next one that does (or past `below`, which carries in
   advance_prefix).  Only for x[m-1] >= 2, where misère play is normal
   play (Bouton sec. 6), so the rows are exactly those the walk finds. */
static bt_status
nim_seek(bt_table *t)
{
    size_t i;
    int found;
    bt_status st;
    mpz_set_ui(t->xo, 0);
    for (i = 0; i + 1 < t->m; i++)
        mpz_xor(t->xo, t->xo, t->x[i]);
    st = seek_pair(t->t, t->x[t->m - 1], t->xo, t->below, &found);
    if (st != BT_OK)
        return st;
    if (found)
        mpz_set(t->x[t->m - 1], t->t);
    else
        mpz_sub_ui(t->x[t->m - 1], t->below, 1);
    return BT_OK;
}

/* Other heap games: is the tuple x[0..k-1] a P-position? */
static bt_status
heap_is_p(bt_table *t, int *is_p)
{
    size_t i;
    bt_status st;
    if (!t->misere) {
        mpz_set_ui(t->xo, 0);
        for (i = 0; i < t->k; i++) {
            st = bt__rs_grundy(t->g, t->t, (const mpz_t *)&t->x[i], 1,
                                     &t->lim, &t->diag);
            if (st != BT_OK)
                return st;
            mpz_xor(t->xo, t->xo, t->t);
        }
        *is_p = mpz_sgn(t->xo) == 0;
        return BT_OK;
    } else {
        bt_position *p;
        bt_outcome o;
        st = bt_position_new(&p);
        for (i = 0; i < t->k && st == BT_OK; i++)
            st = bt_position_add(p, t->g, (const mpz_t *)&t->x[i], &t->lim,
                                 &t->diag);
        if (st == BT_OK)
            st = bt__search_outcome(t->memo, &o, p, 1, &t->lim,
                                    &t->diag);
        if (st == BT_ELIMIT && bt__search_over_memory(t->memo))
            bt__fail(&t->diag, st,
                     "too large for a misère table by search: it needs more "
                     "than %zu bytes of memory (the max_memory limit)",
                     t->lim.max_memory);
        bt_position_free(p);
        *is_p = st == BT_OK && o == BT_P;
        return st;
    }
}

/*
 * Pair tables: t->index becomes the least n with x_n >= min.  x_n is
 * increasing in n, hence x_n >= n, so n = min qualifies and the answer lies
 * in [0, min].  A bisection there costs log2(min) closed forms, each a
 * product of numbers of min's size: for a min of 20 000 digits, 66 000 of
 * them (seconds).  The closed forms of the pair games are Beatty sequences,
 * x_n = floor(n alpha + beta), nearly linear, so the search interpolates
 * between the two ends it knows (a safeguarded interpolation search: a
 * step that does not halve the interval is followed by a bisection, so it
 * never takes more than twice the bisection's steps); on a Beatty sequence
 * the first guess lands within a few indexes of the answer, and the search
 * ends after a handful of closed forms at any size.  Polled every step.
 */
static bt_status
seek_index(bt_table *t, mpz_t *row)
{
    mpz_t a, b, fa, fb, g, d, e;
    bt_status st = BT_OK;
    int bisect = 0;

    mpz_set_ui(t->index, 0);
    if (mpz_sgn(t->min) == 0)
        return BT_OK;
    mpz_inits(a, b, fa, fb, g, d, e, NULL);
    /* the ends: f(0) < min (else 0 is the answer) and f(min) >= min */
    if ((st = t->g->rules->p_position(t->g, t->misere, a, row)) != BT_OK)
        goto done;
    if (mpz_cmp(row[0], t->min) >= 0)
        goto done;
    mpz_set(fa, row[0]);
    mpz_set(b, t->min);
    if ((st = t->g->rules->p_position(t->g, t->misere, b, row)) != BT_OK)
        goto done;
    mpz_set(fb, row[0]);
    /* invariant: f(a) = fa < min <= fb = f(b), the answer in (a, b] */
    for (;;) {
        mpz_sub(d, b, a);
        if (mpz_cmp_ui(d, 1) <= 0)
            break;
        if ((st = bt__poll(&t->lim)) != BT_OK) {
            bt__fail(&t->diag, st, "the time budget ran out");
            goto done;
        }
        if (bisect) {
            mpz_fdiv_q_2exp(g, d, 1);
        } else {
            /* g - a = ceil((min - fa) (b - a) / (fb - fa)), within
               [1, b - a - 1] */
            mpz_sub(g, t->min, fa);
            mpz_mul(g, g, d);
            mpz_sub(e, fb, fa);
            mpz_cdiv_q(g, g, e);
            if (mpz_cmp_ui(g, 1) < 0)
                mpz_set_ui(g, 1);
            mpz_sub_ui(e, d, 1);
            if (mpz_cmp(g, e) > 0)
                mpz_set(g, e);
        }
        mpz_add(g, g, a);
        if ((st = t->g->rules->p_position(t->g, t->misere, g, row)) !=
            BT_OK)
            goto done;
        if (mpz_cmp(row[0], t->min) >= 0) {
            mpz_set(b, g);
            mpz_set(fb, row[0]);
        } else {
            mpz_set(a, g);
            mpz_set(fa, row[0]);
        }
        /* bisect next when this step did not halve the interval */
        mpz_sub(g, b, a);
        mpz_mul_2exp(g, g, 1);
        bisect = !bisect && mpz_cmp(g, d) > 0;
    }
    mpz_set(t->index, b);
done:
    mpz_clears(a, b, fa, fb, g, d, e, NULL);
    return st;
}

static int
next_pair(bt_table *t, mpz_t *row)
{
    bt_status st;
    if ((st = table_tick(t)) != BT_OK)
        return -(int)st;
    if (t->state == T_START) {
        t->state = T_RUN;
        /* x <= y < below: no row has x >= min unless min < below */
        if (mpz_cmp(t->min, t->below) >= 0) {
            t->state = T_DONE;
            return 0;
        }
        if ((st = seek_index(t, row)) != BT_OK)
            return -(int)st;
    }
    for (;;) {
        st = t->g->rules->p_position(t->g, t->misere, t->index, row);
        if (st != BT_OK)
            return -(int)st;
        mpz_add_ui(t->index, t->index, 1);
        if (mpz_cmp(row[1], t->below) >= 0) {
            t->state = T_DONE;
            return 0;
        }
        if (mpz_cmp(row[0], t->min) >= 0)
            return 1;
    }
}

static int
table_next(bt_table *t, mpz_t *row)
{
    size_t i;
    bt_status st;

    if (t->state == T_DONE)
        return 0;
    if (t->g->rules->arity == 2)
        return next_pair(t, row);
    if (t->state == T_START) {
        if (mpz_cmp(t->min, t->below) >= 0 && t->k > 0) {
            t->state = T_DONE;
            return 0;
        }
        for (i = 0; i < t->m; i++)
            mpz_set(t->x[i], t->min);
        last_floor(t, t->x[t->m]);
        t->state = T_RUN;
        if (t->k == 0) { /* the empty position: P in normal play only */
            t->state = T_DONE;
            return t->misere ? 0 : 1;
        }
    }
    for (;;) {
        if ((st = table_tick(t)) != BT_OK)
            return -(int)st;
        if (t->nim || t->last_n) {
            int ok = t->nim ? nim_last(t) : varset_last(t);
            if (t->nim && !ok && t->m >= 1 &&
                mpz_cmp_ui(t->x[t->m - 1], 2) >= 0) {
                if ((st = nim_seek(t)) != BT_OK)
                    return -(int)st;
                ok = nim_last(t);
            }
            if (ok)
                for (i = 0; i < t->k; i++)
                    mpz_set(row[i], t->x[i]);
            if (!advance_prefix(t))
                t->state = T_DONE;
            if (ok)
                return 1;
            if (t->state == T_DONE)
                return 0;
        } else {
            while (mpz_cmp(t->x[t->m], t->below) < 0) {
                int is_p;
                /* up to max_grundy tuples a prefix: polled here too */
                if ((st = table_tick(t)) != BT_OK)
                    return -(int)st;
                st = heap_is_p(t, &is_p);
                if (st != BT_OK)
                    return -(int)st;
                mpz_add_ui(t->x[t->m], t->x[t->m], 1);
                if (is_p) {
                    for (i = 0; i < t->k; i++)
                        mpz_set(row[i], t->x[i]);
                    mpz_sub_ui(row[t->m], row[t->m], 1);
                    return 1;
                }
            }
            if (!advance_prefix(t)) {
                t->state = T_DONE;
                return 0;
            }
            last_floor(t, t->x[t->m]);
        }
    }
}

int
bt_table_next(bt_table *t, mpz_t *row)
{
    bt__gmp_scope gs;
    bt_status st;
    int r;
    bt__gmp_enter(&gs, &t->lim);
    r = table_next(t, row);
    st = bt__gmp_leave(&gs, r < 0 ? (bt_status)-r : BT_OK, &t->diag);
    return r < 0 ? -(int)st : r;
}
