/* label: slow
 *
 * test_wythoff_slow.c -- the long checks of Wythoff's game: the closed
 * forms against Wythoff's mex construction (1907, sec. 5 and 7) for the
 * first 10^6 pairs of a = 1, 2, 3 in normal and misère play; pairs of
 * 10^5-digit indexes against their defining inequalities; Sprague-Grundy
 * tables against the brute-force oracle, and the zeros of the default
 * table against the closed form.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <bouton.h>

#include "oracle_wythoff.h"

static bt_game *
game_a(int a)
{
    char spec[32];
    bt_game *g = NULL;
    snprintf(spec, sizeof spec, "wythoff:%d", a);
    assert_int_equal(bt_game_new(&g, spec, NULL), BT_OK);
    return g;
}

/*
 * Wythoff's construction (oracle_wythoff_pairs).  Compares the closed form for n < count, and index_of for every number below `below`.
 */
static void
check_mex(int a, int misere, long count, long below)
{
    bt_game *g = game_a(a);
    long n, v, top = count * (a + 3) + 8;
    long *lo = malloc((size_t)count * sizeof *lo);
    long *hi = malloc((size_t)count * sizeof *hi);
    long *idx = malloc((size_t)top * sizeof *idx);
    mpz_t zn, zl, zh, zx;
    bt_wythoff_member mem;
    assert_true(lo && hi && idx);
    assert_int_equal(oracle_wythoff_pairs(count, a, misere, lo, hi), 0);
    mpz_inits(zn, zl, zh, zx, NULL);
    for (v = 0; v < top; v++)
        idx[v] = -1;
    for (n = 0; n < count; n++) {
        idx[lo[n]] = idx[hi[n]] = n;
        mpz_set_si(zn, n);
        assert_int_equal(bt_wythoff_pair(zl, zh, g, misere, zn, NULL, NULL),
                         BT_OK);
        if (mpz_cmp_si(zl, lo[n]) != 0 || mpz_cmp_si(zh, hi[n]) != 0)
            fail_msg("a=%d %s pair %ld: (%ld, %ld) by mex, closed form "
                     "(%lu, %lu)",
                     a, misere ? "misere" : "normal", n, lo[n], hi[n],
                     mpz_get_ui(zl), mpz_get_ui(zh));
    }
    assert_true(below <= lo[count - 1]);
    for (v = 0; v < below; v++) {
        mpz_set_si(zx, v);
        assert_int_equal(
            bt_wythoff_index_of(zn, &mem, zl, zh, g, misere, zx, NULL, NULL),
            BT_OK);
        assert_true(idx[v] >= 0);
        if (mpz_cmp_si(zn, idx[v]) != 0 ||
            mem != (v == lo[idx[v]] ? BT_WYTHOFF_LOWER : BT_WYTHOFF_UPPER))
            fail_msg("a=%d %s index_of(%ld): n=%lu, want %ld", a,
                     misere ? "misere" : "normal", v, mpz_get_ui(zn), idx[v]);
    }
    mpz_clears(zn, zl, zh, zx, NULL);
    free(lo);
    free(hi);
    free(idx);
    bt_game_free(g);
}

static void
test_million_pairs(void **state)
{
    int a, misere;
    (void)state;
    for (a = 1; a <= 3; a++)
        for (misere = 0; misere <= 1; misere++)
            check_mex(a, misere, 1000000, 1000000);
}

/* The defining inequalities (see test_wythoff.c), by squaring. */
static void
check_defining(int a, int misere, const mpz_t n, const mpz_t lo, const mpz_t hi)
{
    mpz_t l, u, m, t;
    mpz_inits(l, u, m, t, NULL);
    if (!misere || a == 1) {
        mpz_set(m, n);
        mpz_mul_2exp(l, lo, 1);
        mpz_set_si(t, 2 - a);
        mpz_submul(l, t, n);
        mpz_add_ui(u, l, 2);
    } else {
        mpz_mul_ui(m, n, (unsigned long)a);
        mpz_add_ui(m, m, 1);
        mpz_mul_ui(l, lo, 2 * (unsigned long)a);
        mpz_sub_ui(t, m, 2);
        mpz_mul_si(t, t, 2 - a);
        mpz_sub(l, l, t);
        mpz_add_ui(u, l, 2 * (unsigned long)a);
    }
    assert_true(mpz_sgn(l) >= 0);
    mpz_mul(t, m, m);
    mpz_mul_ui(t, t, (unsigned long)(a * a + 4));
    mpz_mul(l, l, l);
    mpz_mul(u, u, u);
    assert_true(mpz_cmp(l, t) <= 0 && mpz_cmp(t, u) < 0);
    mpz_sub(t, hi, lo);
    mpz_submul_ui(t, n, (unsigned long)a);
    assert_int_equal(mpz_get_si(t), misere && a > 1 ? 1 : 0);
    mpz_clears(l, u, m, t, NULL);
}

static void
test_huge_pairs(void **state)
{
    gmp_randstate_t rs;
    const char *env = getenv("BT_TEST_SEED");
    unsigned long seed = env ? strtoul(env, NULL, 10) : 7UL;
    mpz_t n, lo, hi, n2, l2, h2, x, y, to[BT_WYTHOFF_MAX_WINNING][2];
    bt_wythoff_member mem;
    size_t i, count;
    int a, misere, p;
    (void)state;
    print_message("test_huge_pairs: BT_TEST_SEED=%lu\n", seed);
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, seed);
    mpz_inits(n, lo, hi, n2, l2, h2, x, y, NULL);
    for (i = 0; i < BT_WYTHOFF_MAX_WINNING; i++)
        mpz_inits(to[i][0], to[i][1], NULL);
    for (a = 1; a <= 3; a++) {
        bt_game *g = game_a(a);
        for (misere = 0; misere <= 1; misere++) {
            mpz_ui_pow_ui(x, 10, 100000);
            mpz_urandomm(n, rs, x);
            assert_int_equal(bt_wythoff_pair(lo, hi, g, misere, n, NULL, NULL),
                             BT_OK);
            check_defining(a, misere, n, lo, hi);
            assert_int_equal(bt_wythoff_index_of(n2, &mem, l2, h2, g, misere,
                                                 hi, NULL, NULL),
                             BT_OK);
            assert_true(mpz_cmp(n2, n) == 0 && mem == BT_WYTHOFF_UPPER);
            /* an N-position: its moves lead to safe pairs */
            mpz_add_ui(x, lo, 3);
            mpz_add_ui(y, hi, 1000);
            assert_int_equal(
                bt_wythoff_winning(to, &count, g, misere, x, y, NULL, NULL),
                BT_OK);
            assert_true(count >= 1);
            for (i = 0; i < count; i++) {
                assert_int_equal(bt_wythoff_is_p(&p, g, misere, to[i][0],
                                                 to[i][1], NULL, NULL),
                                 BT_OK);
                assert_true(p);
            }
        }
        bt_game_free(g);
    }
    for (i = 0; i < BT_WYTHOFF_MAX_WINNING; i++)
        mpz_clears(to[i][0], to[i][1], NULL);
    mpz_clears(n, lo, hi, n2, l2, h2, x, y, NULL);
    gmp_randclear(rs);
}

static void
check_sg(int a, int n)
{
    bt_game *g = game_a(a);
    bt_wythoff_sg *t = NULL;
    unsigned *o = oracle_wythoff_grundy(n, a);
    int x, y;
    assert_non_null(o);
    assert_int_equal(bt_wythoff_sg_new(&t, g, (size_t)n, NULL, NULL), BT_OK);
    for (x = 0; x < n; x++)
        for (y = 0; y < n; y++)
            if (bt_wythoff_sg_get(t, (size_t)x, (size_t)y) != o[x * n + y])
                fail_msg("a=%d G(%d, %d) = %u, oracle %u", a, x, y,
                         bt_wythoff_sg_get(t, (size_t)x, (size_t)y),
                         o[x * n + y]);
    free(o);
    bt_wythoff_sg_free(t);
    bt_game_free(g);
}

static void
test_sg_oracle(void **state)
{
    int a;
    (void)state;
    for (a = 1; a <= 5; a++)
        check_sg(a, 200);
}

/* In the default table (side 4096) and in a table of a = 2, G is 0
   exactly at the safe pairs given by the closed form. */
static void
check_zeros(int a, size_t side)
{
    bt_game *g = game_a(a);
    bt_wythoff_sg *t = NULL;
    size_t x, y;
    mpz_t zx, zy;
    int p;
    mpz_inits(zx, zy, NULL);
    assert_int_equal(bt_wythoff_sg_new(&t, g, side, NULL, NULL), BT_OK);
    for (x = 0; x < side; x++)
        for (y = x; y < side; y++) {
            unsigned v = bt_wythoff_sg_get(t, x, y);
            mpz_set_ui(zx, x);
            mpz_set_ui(zy, y);
            assert_int_equal(bt_wythoff_is_p(&p, g, 0, zx, zy, NULL, NULL),
                             BT_OK);
            if ((v == 0) != p)
                fail_msg("a=%d G(%zu, %zu) = %u but is_p %d", a, x, y, v, p);
            /* the bounds y - 2x <= G <= x + y for a = 1 */
            if (a == 1 && (v > x + y || (y > 2 * x && v < y - 2 * x)))
                fail_msg("G(%zu, %zu) = %u outside its bounds", x, y, v);
        }
    mpz_clears(zx, zy, NULL);
    bt_wythoff_sg_free(t);
    bt_game_free(g);
}

static void
test_sg_zeros(void **state)
{
    (void)state;
    check_zeros(1, 4096);
    check_zeros(2, 1024);
    check_zeros(5, 512);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_million_pairs),
        cmocka_unit_test(test_huge_pairs),
        cmocka_unit_test(test_sg_oracle),
        cmocka_unit_test(test_sg_zeros),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
