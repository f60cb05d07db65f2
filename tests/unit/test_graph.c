/* label: quick
 *
 * test_graph.c -- the game-graph kernel (src/core/graph.c) on a toy
 * ruleset defined here whose numbers are huge but whose graph is small: a
 * heap of B + d (B = 2^64, then 2^130, so that the numbers take one limb
 * more than the small form and several limbs) moves to B + d - 1, or,
 * when d >= 2, splits into B + d - 2 and B + 1.  The walk's three asks
 * (outcome in both conventions, remoteness in both, the Grundy value of
 * one heap) must agree with a brute force over the offsets d written
 * here from the same rules, on every sum of two heaps of d <= 5 and of
 * three of d <= 2;
 * the key must not depend on the order of the components (a sum walked
 * again in another order is a hit of the table); and a bound must stop
 * the walk cleanly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/core/core.h"
#include "../../src/core/graph.h"

static mpz_t base; /* B */

static bt_status
chain_options(bt_game *g, const mpz_t *c, bt__emit emit, void *ud,
              const bt_limits *lim, bt_diag *diag)
{
    mpz_t to[2];
    bt_status st = BT_OK;
    (void)g, (void)lim, (void)diag;
    mpz_init(to[0]);
    mpz_init(to[1]);
    mpz_sub(to[0], c[0], base); /* d */
    if (mpz_cmp_ui(to[0], 1) >= 0) {
        mpz_sub_ui(to[0], c[0], 1);
        st = emit(ud, (const mpz_t *)to, 1);
    }
    mpz_sub(to[1], c[0], base);
    if (st == BT_OK && mpz_cmp_ui(to[1], 2) >= 0) {
        mpz_sub_ui(to[0], c[0], 2);
        mpz_add_ui(to[1], base, 1);
        st = emit(ud, (const mpz_t *)to, 2);
    }
    mpz_clear(to[0]);
    mpz_clear(to[1]);
    return st;
}

static void
chain_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
               const mpz_t *to, size_t nto)
{
    (void)g, (void)c, (void)to, (void)nto;
    bt__buf_printf(out, "move in %zu", comp + 1);
}

static const bt__ruleset chain = {
    .info = {"chain", "chain", "a toy game for the tests", ""},
    .arity = 1,
    .options = chain_options,
    .describe = chain_describe,
};

/* ------------------------------------------ brute force over the offsets */

#define MAXC 12 /* components: each split adds one */

/* The sum d[0..n-1] after the move k (0: take one; 1: split) of
   component i, in e; its number of components, 0 when there is no such
   move. */
static int
bf_move(int *e, const int *d, int n, int i, int k)
{
    if (d[i] < 1 + k)
        return 0;
    memcpy(e, d, (size_t)n * sizeof *e);
    e[i] = d[i] - 1 - k;
    if (k == 1)
        e[n++] = 1;
    return n;
}

/* 1 when d is a P-position: no option is P (a position with no move is
   P in normal play, N in misère play). */
static int
bf_p(const int *d, int n, int misere)
{
    int e[MAXC], i, k, m, any = 0;
    for (i = 0; i < n; i++)
        for (k = 0; k < 2; k++)
            if ((m = bf_move(e, d, n, i, k)) > 0) {
                any = 1;
                if (bf_p(e, m, misere))
                    return 0;
            }
    return any || !misere;
}

/* Smith's remoteness: 0 with no move; else 1 + the least remoteness of a
   P-option when there is one, else 1 + the greatest of all. */
static long
bf_rem(const int *d, int n, int misere)
{
    int e[MAXC], i, k, m, any = 0, has_p = 0;
    long min_p = 0, max_all = 0;
    for (i = 0; i < n; i++)
        for (k = 0; k < 2; k++) {
            long r;
            if ((m = bf_move(e, d, n, i, k)) == 0)
                continue;
            any = 1;
            r = bf_rem(e, m, misere);
            if (bf_p(e, m, misere)) {
                if (!has_p || r < min_p)
                    min_p = r;
                has_p = 1;
            }
            if (r > max_all)
                max_all = r;
        }
    if (!any)
        return 0;
    return has_p ? min_p + 1 : max_all + 1;
}

static unsigned long
bf_grundy(int d)
{
    unsigned long seen = 0, v = 0;
    if (d >= 1)
        seen |= 1ul << bf_grundy(d - 1);
    if (d >= 2)
        seen |= 1ul << (bf_grundy(d - 2) ^ bf_grundy(1));
    while (seen & (1ul << v))
        v++;
    return v;
}

/* ------------------------------------------------------------ the walk */

static bt_game game = {&chain, (char *)"chain", NULL, 1};

static bt_position *
sum_of(const int *d, int n)
{
    bt_position *p = NULL;
    mpz_t x;
    int i;
    mpz_init(x);
    assert_int_equal(bt_position_new(&p), BT_OK);
    for (i = 0; i < n; i++) {
        mpz_add_ui(x, base, (unsigned long)d[i]);
        assert_int_equal(bt__position_push(p, &game, (const mpz_t *)&x, 1),
                         BT_OK);
    }
    mpz_clear(x);
    return p;
}

static void
check_sums(void)
{
    bt__gwalk w[2][2]; /* [ask: outcome, remoteness][misere] */
    int d[3], n, a, b, m;
    long v;
    for (a = 0; a < 2; a++)
        for (m = 0; m < 2; m++)
            assert_int_equal(bt__gwalk_init(&w[a][m],
                                            a ? BT__GASK_REMOTENESS
                                              : BT__GASK_OUTCOME,
                                            m, 16),
                             BT_OK);
    for (n = 1; n <= 3; n++) {
        /* the brute force walks every line of play: 3 heaps to 2 */
        int top = n < 3 ? 6 : 3, total = 1, code, i;
        for (i = 0; i < n; i++)
            total *= top;
        for (code = 0; code < total; code++) {
            bt_position *p;
            for (i = 0, b = code; i < n; i++, b /= top)
                d[i] = b % top;
            p = sum_of(d, n);
            for (m = 0; m < 2; m++) {
                long rem = bf_rem(d, n, m);
                assert_int_equal(
                    bt__gwalk_value(&w[0][m], &v, p, NULL, NULL), BT_OK);
                assert_int_equal(v, bf_p(d, n, m) ? BT_P : BT_N);
                assert_int_equal(
                    bt__gwalk_value(&w[1][m], &v, p, NULL, NULL), BT_OK);
                assert_int_equal(v, rem);
            }
            bt_position_free(p);
        }
    }
    /* the key is the sum's: another order is a hit */
    {
        int x[3] = {2, 5, 3}, y[3] = {3, 2, 5};
        bt_position *p = sum_of(x, 3), *q = sum_of(y, 3);
        size_t used;
        assert_int_equal(bt__gwalk_value(&w[1][0], &v, p, NULL, NULL), BT_OK);
        used = w[1][0].t.used;
        assert_int_equal(bt__gwalk_value(&w[1][0], &v, q, NULL, NULL), BT_OK);
        assert_int_equal(w[1][0].t.used, used);
        assert_int_equal(v, bf_rem(x, 3, 0));
        bt_position_free(p);
        bt_position_free(q);
    }
    for (a = 0; a < 2; a++)
        for (m = 0; m < 2; m++)
            bt__gwalk_clear(&w[a][m]);
}

static void
check_grundy(void)
{
    int d;
    mpz_t x, v;
    mpz_init(x);
    mpz_init(v);
    for (d = 0; d <= 12; d++) {
        mpz_add_ui(x, base, (unsigned long)d);
        assert_int_equal(
            bt__generic_grundy(&game, v, (const mpz_t *)&x, 1, NULL, NULL),
            BT_OK);
        assert_true(mpz_cmp_ui(v, bf_grundy(d)) == 0);
    }
    mpz_clear(x);
    mpz_clear(v);
}

/* A bound stops the walk cleanly, saying which, and the walk goes on
   past it with a larger one. */
static void
check_bounds(void)
{
    bt__gwalk w;
    bt_limits lim;
    bt_position *p;
    int d[2] = {5, 5};
    long v = -1;
    bt_limits_default(&lim);
    assert_int_equal(bt__gwalk_init(&w, BT__GASK_REMOTENESS, 0, 16), BT_OK);
    p = sum_of(d, 2);
    w.max_positions = 5;
    assert_int_equal(bt__gwalk_value(&w, &v, p, &lim, NULL), BT_ELIMIT);
    assert_int_equal(w.why, BT__GWHY_POSITIONS);
    w.max_positions = SIZE_MAX;
    w.max_total = w.moves + 3;
    assert_int_equal(bt__gwalk_value(&w, &v, p, &lim, NULL), BT_ELIMIT);
    assert_int_equal(w.why, BT__GWHY_TOTAL);
    w.max_total = SIZE_MAX;
    w.budget.max = w.budget.used + 64;
    assert_int_equal(bt__gwalk_value(&w, &v, p, &lim, NULL), BT_ELIMIT);
    assert_int_equal(w.why, BT__GWHY_BYTES);
    w.budget.max = 0;
    assert_int_equal(bt__gwalk_value(&w, &v, p, &lim, NULL), BT_OK);
    assert_int_equal(v, bf_rem(d, 2, 0));
    bt_position_free(p);
    bt__gwalk_clear(&w);
}

static void
test_one_limb_more(void **state)
{
    (void)state;
    mpz_set_ui(base, 1);
    mpz_mul_2exp(base, base, 64);
    check_sums();
    check_grundy();
    check_bounds();
}

static void
test_several_limbs(void **state)
{
    (void)state;
    mpz_set_ui(base, 3);
    mpz_mul_2exp(base, base, 130);
    check_sums();
    check_grundy();
}

static void
test_small(void **state)
{
    (void)state;
    mpz_set_ui(base, 7); /* the small form of the key */
    check_sums();
    check_grundy();
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small),
        cmocka_unit_test(test_one_limb_more),
        cmocka_unit_test(test_several_limbs),
    };
    int r;
    mpz_init(base);
    r = cmocka_run_group_tests(tests, NULL, NULL);
    mpz_clear(base);
    return r;
}
