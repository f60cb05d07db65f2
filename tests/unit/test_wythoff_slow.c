/* label: slow
 *
 * test_wythoff_slow.c -- the long checks of Wythoff's game: the closed
 * forms against Wythoff's mex construction (1907, sec. 5 and 7) for the
 * first 10^6 pairs of a = 1, 2, 3 in normal and misère play; pairs of
 * 10^5-digit indexes against their defining inequalities; Sprague-Grundy
 * tables against the brute-force oracle, and the zeros of the default
 * table against the closed form.
 * CPU: about 6 s in the normal build (tests/README.md).
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

#include "testutil.h"

#include "oracle_wythoff.h"

static void
test_million_pairs(void **state)
{
    int a, misere;
    (void)state;
    for (a = 1; a <= 3; a++)
        for (misere = 0; misere <= 1; misere++)
            bt_test_wythoff_pairs(a, misere, 1000000, 1000000);
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
        bt_game *g = bt_test_gamef("wythoff:%d", a);
        for (misere = 0; misere <= 1; misere++) {
            mpz_ui_pow_ui(x, 10, 100000);
            mpz_urandomm(n, rs, x);
            assert_int_equal(bt_wythoff_pair(lo, hi, g, misere, n, NULL, NULL),
                             BT_OK);
            assert_true(oracle_wythoff_defining(a, misere, n, lo, hi));
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
    bt_game *g = bt_test_gamef("wythoff:%d", a);
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
    bt_game *g = bt_test_gamef("wythoff:%d", a);
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
