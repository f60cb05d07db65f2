/*
 * generic.c -- the ruleset hooks as callers use them, and the defaults that
 * make a game with no theory correct at once.
 *
 * A ruleset must give init, options and describe.  When it gives no grundy
 * hook its Grundy values are the mex of the values of its options (the
 * Sprague-Grundy theorem: G(x) = mex { G(y) : y an option of x }, an
 * option that splits into several components valued by the nim-sum of
 * theirs), computed here by the kernel's walk over options() (graph.h);
 * when it gives no moves_to hook its moves to a value are its options
 * filtered by that value.  Both are bounded by bt_limits: max_search
 * positions stored, max_memory bytes, the interrupt; past them BT_ELIMIT.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/graph.h"

/* ------------------------------------------------------------ dispatch */

bt_status
bt__rs_check(bt_game *g, const mpz_t *c, size_t n, const bt_limits *lim,
             bt_diag *diag)
{
    if (g->rules->arity == 0)
        return BT__VARSET(g)->check_n ? BT__VARSET(g)->check_n(g, c, n, lim, diag)
                                 : BT_OK;
    return g->rules->check ? g->rules->check(g, c, lim, diag) : BT_OK;
}

bt_status
bt__rs_options(bt_game *g, const mpz_t *c, size_t n, bt__emit emit, void *ud,
               const bt_limits *lim, bt_diag *diag)
{
    if (g->rules->arity == 0)
        return BT__VARSET(g)->options_n(g, c, n, emit, ud, lim, diag);
    return g->rules->options(g, c, emit, ud, lim, diag);
}

bt_status
bt__rs_grundy(bt_game *g, mpz_t rop, const mpz_t *c, size_t n,
              const bt_limits *lim, bt_diag *diag)
{
    if (g->rules->arity == 0 && BT__VARSET(g)->grundy_n != NULL)
        return BT__VARSET(g)->grundy_n(g, rop, c, n, lim, diag);
    if (g->rules->arity != 0 && g->rules->grundy != NULL)
        return g->rules->grundy(g, rop, c, lim, diag);
    return bt__generic_grundy(g, rop, c, n, lim, diag);
}

void
bt__rs_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
                size_t n, const mpz_t *to, size_t nto)
{
    if (g->rules->arity == 0)
        BT__VARSET(g)->describe_n(g, out, comp, c, n, to, nto);
    else
        g->rules->describe(g, out, comp, c, to, nto);
}

/* ------------------------------------------------------------ the mex */

/*
 * A client of the kernel's walk (graph.h), asked for Grundy values: each
 * component met is valued once, in a table of this call, within lim:
 * max_search positions (stored, and on the walk's path), max_memory bytes
 * (the table, the path and the moves it lists) and the interrupt.  The
 * walk is iterative, so no depth of the game bounds it but these.
 */
bt_status
bt__generic_grundy(bt_game *g, mpz_t rop, const mpz_t *c, size_t n,
                   const bt_limits *lim, bt_diag *diag)
{
    bt__gwalk w;
    bt_position *p = NULL;
    long v = 0;
    bt_status st;
    lim = bt__limits(lim);
    if (bt__gwalk_init(&w, BT__GASK_GRUNDY, 0, 1024) != BT_OK)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    w.budget.max = lim->max_memory;
    w.max_positions = lim->max_search;
    w.check_root = 1;
    st = bt_position_new(&p);
    if (st == BT_OK)
        st = bt__position_push(p, g, c, n);
    if (st == BT_OK)
        st = bt__gwalk_value(&w, &v, p, lim, diag);
    if (st != BT_OK) {
        switch (st == BT_ENOMEM ? BT__GWHY_NONE : w.why) {
        case BT__GWHY_POSITIONS:
            st = bt__fail(diag, BT_ELIMIT,
                          "the Grundy value of this %s component is out of "
                          "reach: the mex over its options passed %zu "
                          "positions (the max_search limit)",
                          g->spec, lim->max_search);
            break;
        case BT__GWHY_BYTES: /* "... (the max_memory limit)" */
            st = bt__budget_check(&w.budget, NULL, diag);
            break;
        case BT__GWHY_INTERRUPT:
            st = bt__fail(diag, BT_EINTR, "the time budget ran out");
            break;
        default:
            if (st == BT_ENOMEM)
                st = bt__fail(diag, st, "out of memory");
            break;
        }
    }
    bt_position_free(p);
    bt__gwalk_clear(&w);
    if (st == BT_OK)
        mpz_set_ui(rop, (unsigned long)v);
    return st;
}

/* ------------------------------------------------------ moves to a value */

typedef struct filter {
    bt_game *g;
    const mpz_t *target;
    bt__emit emit;
    void *ud;
    const bt_limits *lim;
    bt_diag *diag;
} filter;

static bt_status
on_filtered(void *ud, const mpz_t *to, size_t nto)
{
    filter *f = ud;
    size_t w = bt__comp_width(f->g, nto), k;
    bt_status st = BT_OK;
    mpz_t v, x;
    mpz_init(v);
    mpz_init(x);
    for (k = 0; k + w <= nto && st == BT_OK; k += w) {
        st = bt__rs_grundy(f->g, x, to + k, w, f->lim, f->diag);
        mpz_xor(v, v, x);
    }
    if (st == BT_OK && mpz_cmp(v, *f->target) == 0)
        st = f->emit(f->ud, to, nto);
    mpz_clear(v);
    mpz_clear(x);
    return st;
}

bt_status
bt__generic_moves_to(bt_game *g, const mpz_t *c, size_t n,
                     const mpz_t target, bt__emit emit, void *ud,
                     const bt_limits *lim, bt_diag *diag)
{
    filter f;
    f.g = g;
    f.target = (const mpz_t *)target;
    f.emit = emit;
    f.ud = ud;
    f.lim = bt__limits(lim);
    f.diag = diag;
    return bt__rs_options(g, c, n, on_filtered, &f, lim, diag);
}

bt_status
bt__rs_moves_to(bt_game *g, const mpz_t *c, size_t n, const mpz_t target,
                bt__emit emit, void *ud, const bt_limits *lim, bt_diag *diag)
{
    if (g->rules->arity == 0 && BT__VARSET(g)->moves_to_n != NULL)
        return BT__VARSET(g)->moves_to_n(g, c, n, target, emit, ud, lim, diag);
    if (g->rules->arity != 0 && g->rules->moves_to != NULL)
        return g->rules->moves_to(g, c, target, emit, ud, lim, diag);
    return bt__generic_moves_to(g, c, n, target, emit, ud, lim, diag);
}

/* ---------------------------------------------------------------- counts */

bt_status
bt_game_count(mpz_t positions, mpz_t p_positions, mpq_ptr probability,
              bt_game *g, size_t k, const mpz_t min, const mpz_t max,
              unsigned flags, const bt_limits *lim, bt_diag *diag)
{
    return bt_game_count_progress(positions, p_positions, probability, g, k,
                                  min, max, flags, lim, diag, NULL, NULL);
}

static bt_status
game_count_progress(mpz_t positions, mpz_t p_positions,
                    mpq_ptr probability, bt_game *g, size_t k,
                    const mpz_t min, const mpz_t max, unsigned flags,
                    const bt_limits *lim, bt_diag *diag,
                    bt_count_progress fn, void *ud)
{
    mpz_t pos, pp, n;
    bt_status st;

    lim = bt__limits(lim);
    if (g->rules->count == NULL)
        return bt__fail(diag, BT_EUNDEF,
                        "positions of %s are not counted (no exact method "
                        "for this game)",
                        g->spec);
    if ((st = bt__check_count(k, min, max, lim, diag)) != BT_OK)
        return st;
    mpz_inits(pos, pp, n, NULL);
    /* (max - min + 1)^k has at most k bits(max - min + 1) bits */
    mpz_sub(n, max, min);
    mpz_add_ui(n, n, 1);
    if ((double)k * (double)mpz_sizeinbase(n, 2) * 0.30103 >
        (double)lim->max_digits + 1.0) {
        st = bt__fail(diag, BT_ELIMIT,
                      "the count would have more than the limit of %zu "
                      "digits (max_digits)",
                      lim->max_digits);
        goto out;
    }
    st = g->rules->count(g, pos, pp, k, min, max, flags, lim, diag, fn, ud);
    if (st == BT_OK) {
        mpz_set(positions, pos);
        mpz_set(p_positions, pp);
        if (probability != NULL) {
            mpq_set_num(probability, pp);
            mpq_set_den(probability, pos);
            mpq_canonicalize(probability);
        }
    }
out:
    mpz_clears(pos, pp, n, NULL);
    return st;
}

bt_status
bt_game_count_progress(mpz_t positions, mpz_t p_positions,
                       mpq_ptr probability, bt_game *g, size_t k,
                       const mpz_t min, const mpz_t max, unsigned flags,
                       const bt_limits *lim, bt_diag *diag,
                       bt_count_progress fn, void *ud)
{
    BT__GMP_CHARGED(lim, diag,
                    game_count_progress(positions, p_positions, probability, g,
                                        k, min, max, flags, lim, diag, fn, ud));
}
