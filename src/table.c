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
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum { T_START, T_RUN, T_DONE };

struct bt_table {
    bt_game *g;
    int misere, state, nim;
    size_t k, m; /* m = k - 1 entries in the prefix */
    bt_limits lim;
    mpz_t min, below;
    mpz_t *x;    /* k entries: the prefix, then the scanned last entry */
    mpz_t xo, t; /* scratch */
    mpz_t index; /* arity 2: the index of the next P-position */
    bt__memo *memo;
    unsigned long steps;
};

size_t
bt_table_width(const bt_table *t)
{
    return t->k * t->g->rules->arity;
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
    bt__memo_free(t->memo);
    bt_game_free(t->g);
    free(t);
}

bt_status
bt_table_new(bt_table **out, bt_game *g, int misere, size_t k,
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
    if ((st = bt__check_number(below, lim, "--below", diag)) != BT_OK)
        return st;
    if (k > lim->max_table_piles)
        return bt__fail(diag, BT_ELIMIT,
                        "%zu piles is more than the limit of %zu "
                        "(max_table_piles)",
                        k, lim->max_table_piles);
    if (g->rules->arity == 2) {
        if (k != 1)
            return bt__fail(diag, BT_EINVAL,
                            "a table of %s lists single pairs: --piles must "
                            "be 1",
                            g->spec);
        if (g->rules->p_position == NULL)
            return bt__fail(diag, BT_EUNDEF, "no table for %s", g->spec);
    } else if (!bt_game_is_nim(g) &&
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
    t->nim = bt_game_is_nim(g);
    t->k = k;
    t->m = k ? k - 1 : 0;
    t->lim = *lim;
    t->state = T_START;
    if (misere && !t->nim && g->rules->arity == 1 &&
        (st = bt__memo_new(&t->memo)) != BT_OK) {
        bt_table_free(t);
        return bt__fail(diag, st, "out of memory");
    }
    *out = t;
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

/* Other heap games: is the tuple x[0..k-1] a P-position? */
static bt_status
heap_is_p(bt_table *t, int *is_p)
{
    size_t i;
    bt_status st;
    if (!t->misere) {
        mpz_set_ui(t->xo, 0);
        for (i = 0; i < t->k; i++) {
            st = t->g->rules->grundy(t->g, t->t, (const mpz_t *)&t->x[i],
                                     &t->lim, NULL);
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
                                 NULL);
        if (st == BT_OK)
            st = bt__memo_outcome(t->memo, &o, p, 1, &t->lim, NULL);
        bt_position_free(p);
        *is_p = st == BT_OK && o == BT_P;
        return st;
    }
}

static int
next_pair(bt_table *t, mpz_t *row)
{
    bt_status st;
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

int
bt_table_next(bt_table *t, mpz_t *row)
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
        if ((++t->steps & 4095) == 0 && bt__poll(&t->lim) != BT_OK)
            return -(int)BT_EINTR;
        if (t->nim) {
            int ok = nim_last(t);
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
