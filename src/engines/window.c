/*
 * window.c -- the window of a huge component's options, within a budget:
 * the one move window of the library (window.h), used by the analysis for
 * the winning moves of a huge heap and by the opponent for the options it
 * weighs.  Over the heap rules when the family has them (the ruleset's
 * heap hook, heapgame.h), else over the moves its is_option allows.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/heapgame.h"
#include "engines/window.h"

/*
 * No window holds more than BT_REMOTENESS_MOVES options in all (the
 * opponent's budget).  A component whose options pass what is left of that (a huge heap, a
 * huge pile) is offered a window of its options instead: the moves that
 * take at most W counters, and the splits whose smaller heap has at most W
 * counters.  For a heap game whose Grundy sequence is periodic from n0
 * with period p, W >= n0 + 2p + t reaches every value its options have:
 * a split (a, b) with both parts >= n0 has the value of (a', b + a - a')
 * for the a' in [n0, n0 + p) congruent to a, and b + a - a' >= b >= n0.
 */
#define WINDOW_MAX 4096

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

bt_status
bt__pool_emit(void *ud, const mpz_t *to, size_t nto)
{
    bt__pool *pl = ud;
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
window_heap(bt__pool *pl, const bt__heap_game *hg, const mpz_t n)
{
    const bt__heap_rules *r = &hg->rules;
    size_t per = 0, pre = 0, w, k, a, i;
    mpz_t to[2];
    bt_status st = BT_OK;

    if (hg->seq != NULL && bt_sequence_period(hg->seq, &per, &pre))
        w = pre + 2 * per + r->t + 2;
    else
        w = 64;
    if (w > WINDOW_MAX)
        w = WINDOW_MAX;
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
                st = bt__pool_emit(pl, (const mpz_t *)to,
                               mpz_sgn(to[0]) ? 1 : 0);
            }
    } else {
        for (k = 0; k <= r->t && st == BT_OK; k++) {
            unsigned d = r->digit[k];
            if (mpz_cmp_ui(n, (unsigned long)k) < 0)
                break;
            mpz_sub_ui(to[0], n, (unsigned long)k);
            if ((d & 1u) && mpz_sgn(to[0]) == 0)
                st = bt__pool_emit(pl, (const mpz_t *)to, 0);
            if (st == BT_OK && (d & 2u) && k > 0 && mpz_sgn(to[0]) > 0)
                st = bt__pool_emit(pl, (const mpz_t *)to, 1);
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
                st = bt__pool_emit(pl, (const mpz_t *)to, 2);
                /* up to WINDOW_MAX splits per k, each a copy of the
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
window_plain(bt__pool *pl, const mpz_t *c, size_t n)
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
                st = bt__pool_emit(pl, (const mpz_t *)to, n);
        }
    }
    for (i = 0; i < n; i++)
        mpz_clear(to[i]);
    free(to);
    return st;
}

bt_status
bt__window(bt__pool *pl, const mpz_t *c, size_t n)
{
    const bt__heap_game *hg = bt__heap_of(pl->g);
    return hg != NULL ? window_heap(pl, hg, c[0]) : window_plain(pl, c, n);
}

bt_status
bt__window_moves_to(bt_game *g, const mpz_t *c, size_t n, const mpz_t target,
                    bt__emit emit, void *ud, const bt_limits *lim)
{
    bt__pool pl;
    mpz_t t;
    size_t i;
    bt_status st;
    memset(&pl, 0, sizeof pl);
    pl.lim = bt__limits(lim);
    pl.budget = BT_REMOTENESS_MOVES;
    pl.g = g;
    mpz_init_set(t, target);
    pl.target = (const mpz_t *)&t;
    st = bt__window(&pl, c, n);
    if (st != BT_ENOMEM)
        st = BT_OK; /* a value out of reach, a spent budget: fewer moves */
    for (i = 0; i < pl.n && st == BT_OK; i++)
        st = emit(ud, (const mpz_t *)pl.m[i].to, pl.m[i].nto);
    bt_moves_free(pl.m, pl.n);
    mpz_clear(t);
    return st;
}
