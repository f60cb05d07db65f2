/* label: slow */
/*
 * test_quotient_slow.c -- the long misère-quotient computation: Kayles
 * (0.77) until the periodicity theorem proves its quotient (about 40 s of
 * CPU and 1.5 GB by the search alone, nearly all of it learning heap 27;
 * about 1.2 s by pretending; bench/README.md).  CPU: about 1.2 s in the
 * normal build, by pretending; the brute-force check of its order, which
 * took nearly all of this test's time, is test_quotient_order.c.
 *
 *   - Kayles is proved at heap 169 = 2 * 71 + 2 * 12 + 2 + 1: period 12,
 *     preperiod 71, order 40, |P| = 9, wild.  These are this engine's own
 *     figures (a regression check of the whole computation), not a
 *     published table: none was within reach (docs/misere.md,
 *     "Published quotients").
 *   - Heaps past the bound follow the period (bt_quotient_heap_at) and the
 *     quotient agrees with the one of heaps up to 26 on every sum of three
 *     heaps up to 26 (the quotient to 26 is checked against brute force on
 *     smaller sums in test_quotient).
 *   - Saved and loaded back (bt_quotient_save, bt_quotient_load, which
 *     checks it again: in well under a second), it is the same quotient,
 *     and installed it answers a sum with a heap of 10^12 counters as the
 *     computed one does.
 * Under valgrind (bt_test_light) only the quotient to 24 against the one
 * to 20 (heap 27 alone would take an hour there).
 */
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

static bt_quotient *
kayles(size_t n, int until)
{
    /* heap 27's search, if pretending fails, holds about 1.5 GB: 3 GiB,
       past the default */
    return bt_test_quotient_search("kayles", n, until, 100000000,
                                   (size_t)3 << 30);
}

/* Saved, loaded (and so checked again), installed: the same quotient,
   and the analysis of a heap of 10^12 through it. */
static void
round_trip(const bt_quotient *q)
{
    char *text = NULL;
    bt_quotient *r = NULL;
    bt_position *p;
    bt_analysis *a;
    bt_diag d;
    size_t x, y, pa, pb;
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_quotient_save(&text, q, &d), BT_OK);
    if (bt_quotient_load(&r, text, strlen(text), NULL, &d) != BT_OK)
        fail_msg("load: %s", d.message);
    assert_int_equal(bt_quotient_order(r), bt_quotient_order(q));
    assert_true(bt_quotient_period(r, &pa, &pb));
    assert_int_equal(pa, 12);
    assert_int_equal(pb, 71);
    for (x = 0; x < bt_quotient_order(q); x++)
        for (y = 0; y < bt_quotient_order(q); y++)
            assert_int_equal(bt_quotient_mul(r, x, y),
                             bt_quotient_mul(q, x, y));
    assert_int_equal(bt_quotient_install(r, &d), BT_OK);
    p = bt_test_parse("kayles 1000000000000 + kayles 7 + kayles 5", NULL,
                      NULL);
    assert_int_equal(bt_quotient_element(&x, q, p, &d), BT_OK);
    assert_int_equal(bt_analyze(&a, p, BT_MISERE, NULL, &d), BT_OK);
    assert_int_equal(bt_analysis_outcome(a) == BT_P,
                     bt_quotient_is_p(q, x) != 0);
    bt_analysis_free(a);
    bt_position_free(p);
    free(text);
}

static void
test_kayles(void **state)
{
    bt_quotient *q, *r;
    size_t per = 0, pre = 0, a, b, c, small = bt_test_light() ? 20 : 26;
    mpz_t z;
    (void)state;
    q = bt_test_light() ? kayles(24, 0) : kayles(300, 1);
    if (!bt_test_light()) {
        assert_true(bt_quotient_period(q, &per, &pre));
        assert_int_equal(per, 12);
        assert_int_equal(pre, 71);
        assert_int_equal(bt_quotient_upto(q), 2 * 71 + 2 * 12 + 2 + 1);
        assert_int_equal(bt_quotient_order(q), 40);
        assert_int_equal(bt_quotient_p_count(q), 9);
        assert_false(bt_quotient_is_tame(q));
        /* past the bound, through the period */
        mpz_init(z);
        for (a = 170; a < 200; a++) {
            mpz_set_ui(z, a);
            assert_int_equal(bt_quotient_heap_at(q, z),
                             bt_quotient_heap(q, 71 + (a - 71) % 12));
        }
        mpz_ui_pow_ui(z, 10, 12);
        assert_int_equal(bt_quotient_heap_at(q, z),
                         bt_quotient_heap(q, 71 + (1000000000000ul - 71) % 12));
        mpz_clear(z);
        round_trip(q);
    }
    /* the same outcomes as the quotient of the heaps up to 26 */
    r = kayles(small, 0);
    for (a = 1; a <= small; a++)
        for (b = 0; b <= a; b++)
            for (c = 0; c <= b; c++) {
                size_t xq = bt_quotient_mul(
                    q,
                    bt_quotient_mul(q, bt_quotient_heap(q, a),
                                    bt_quotient_heap(q, b)),
                    bt_quotient_heap(q, c));
                size_t xr = bt_quotient_mul(
                    r,
                    bt_quotient_mul(r, bt_quotient_heap(r, a),
                                    bt_quotient_heap(r, b)),
                    bt_quotient_heap(r, c));
                if (bt_quotient_is_p(q, xq) != bt_quotient_is_p(r, xr))
                    fail_msg("kayles %zu %zu %zu: the quotients disagree", a,
                             b, c);
            }
    bt_quotient_free(r);
    bt_quotient_free(q);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kayles),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
