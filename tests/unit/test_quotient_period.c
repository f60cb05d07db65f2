/* label: quick
 *
 * test_quotient_period.c -- the periodicity theorem for misère quotients
 * (src/engines/quotient.c, docs/misere.md).
 *
 *   - For octal and subtraction games whose quotient is periodic,
 *     bt_quotient_new_until_proved proves it, and the proved quotient
 *     answers sums of heaps BEYOND the bound it was computed to exactly as
 *     a brute-force misère solver written here from the rules finds them
 *     (over tests/oracle/oracle_heap.c's options, nothing of src/): every
 *     sum of one, two and three heaps with at least one heap past the
 *     bound, up to a total the brute force reaches.
 *   - Where brute force cannot reach past the bound (0.53, proved at heap
 *     63), the proved quotient agrees with the quotient computed and
 *     checked independently to a larger bound, on every sum of two and
 *     three heaps up to it.
 *   - bt_analyze of sums with a heap of 10^12 counters (through the proved
 *     period) gives the outcome and the winning moves of the same sum with
 *     a heap of 30 or 31 of the same residue, within the listed window.
 *   - No proof where the theorem does not apply: Grundy's game (its two
 *     heaps must differ), Nim (no finite code), and a bound too small for
 *     the period seen (0.53 to 40 is "computed to 40").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <bouton.h>

#include "testutil.h"

#include "oracle_heap.h"

/* ------------------------------------------------------------- helpers */

/* The element of a heap of any size, through bt_quotient_heap_at. */
static size_t
heap_el(const bt_quotient *q, unsigned h)
{
    mpz_t z;
    size_t x;
    mpz_init_set_ui(z, h);
    x = bt_quotient_heap_at(q, z);
    mpz_clear(z);
    assert_true(x != SIZE_MAX);
    return x;
}

static size_t
element(const bt_quotient *q, const unsigned *h, size_t n)
{
    size_t x = 0, i;
    for (i = 0; i < n; i++)
        x = bt_quotient_mul(q, x, heap_el(q, h[i]));
    return x;
}

/* ----------------------------------------------------------------- tests */

/*
 * Proved quotients against brute force past their bound: every sum of
 * one, two or three heaps, at least one of them larger than the bound, of
 * at most `total` counters in all.
 */
static void
test_beyond_bound(void **state)
{
    static const struct {
        const char *spec;
        unsigned total, light;
        size_t per, pre; /* what the engine reports (regression) */
    } games[] = {
        {"octal:0.75", 36, 30, 2, 8},  {"octal:0.31", 40, 26, 2, 3},
        {"octal:0.52", 36, 30, 4, 6},  {"octal:4.3", 34, 22, 2, 2},
        {"sub:1-3", 60, 30, 4, 0},     {"sub:2,3", 60, 30, 5, 0},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof games / sizeof games[0]; i++) {
        bt_quotient *q = bt_test_quotient(games[i].spec, 200, 1);
        unsigned n = (unsigned)bt_quotient_upto(q), total = games[i].total;
        size_t per, pre, count;
        assert_true(bt_quotient_period(q, &per, &pre));
        assert_int_equal(per, games[i].per);
        assert_int_equal(pre, games[i].pre);
        if (bt_test_light())
            total = games[i].light;
        assert_true(total > n + 2);
        /* the largest heap past the bound */
        count = bt_test_quotient_against_brute(q, games[i].spec, n + 1,
                                               total, total);
        assert_true(count >= 10);
        bt_quotient_free(q);
    }
}

/*
 * 0.53 is proved at heap 63, beyond brute force: the proved quotient
 * agrees with the one computed and checked to a larger bound on every sum
 * of two and three heaps up to it.
 */
static void
test_against_larger_bound(void **state)
{
    bt_quotient *q = bt_test_quotient("octal:0.53", 200, 1);
    unsigned big = bt_test_light() ? 70 : 90, a, b, c;
    bt_quotient *r = bt_test_quotient("octal:0.53", big, 0);
    size_t per, pre;
    (void)state;
    assert_true(bt_quotient_period(q, &per, &pre));
    assert_true(bt_quotient_upto(q) < 70);
    assert_int_equal(bt_quotient_order(q), bt_quotient_order(r));
    assert_int_equal(bt_quotient_p_count(q), bt_quotient_p_count(r));
    /* r computed to big also finds the theorem's hypotheses there */
    assert_true(bt_quotient_period(r, NULL, NULL));
    for (a = 1; a <= big; a++)
        for (b = 0; b <= a; b++)
            for (c = 0; c <= b; c++) {
                unsigned h[3];
                size_t xr = 0;
                h[0] = a;
                h[1] = b;
                h[2] = c;
                xr = bt_quotient_mul(
                    r,
                    bt_quotient_mul(r, bt_quotient_heap(r, a),
                                    bt_quotient_heap(r, b)),
                    bt_quotient_heap(r, c));
                assert_int_equal(bt_quotient_is_p(q, element(q, h, 3)),
                                 bt_quotient_is_p(r, xr));
            }
    bt_quotient_free(q);
    bt_quotient_free(r);
}

/* Huge heaps through the period: heap 10^12 + h is heap h's residue. */
static void
test_huge(void **state)
{
    bt_quotient *q = bt_test_quotient("octal:0.75", 200, 1);
    bt_game *g;
    bt_position *p;
    bt_diag d;
    size_t per, pre, x;
    mpz_t z;
    (void)state;
    assert_true(bt_quotient_period(q, &per, &pre));
    mpz_init(z);
    mpz_ui_pow_ui(z, 10, 12);
    /* 10^12 is even and 0.75's period is 2 from heap 8 */
    assert_int_equal(bt_quotient_heap_at(q, z), bt_quotient_heap(q, 10));
    mpz_add_ui(z, z, 1);
    assert_int_equal(bt_quotient_heap_at(q, z), bt_quotient_heap(q, 11));
    mpz_clear(z);
    assert_int_equal(bt_game_new(&g, "octal:0.75", &d), BT_OK);
    assert_int_equal(bt_position_parse(&p, "octal:0.75 1000000000000 "
                                           "1000000000001 5",
                                       NULL, NULL, &d),
                     BT_OK);
    assert_int_equal(bt_quotient_element(&x, q, p, &d), BT_OK);
    assert_int_equal(x, bt_quotient_mul(q,
                                        bt_quotient_mul(
                                            q, bt_quotient_heap(q, 10),
                                            bt_quotient_heap(q, 11)),
                                        bt_quotient_heap(q, 5)));
    bt_position_free(p);
    bt_game_free(g);
    bt_quotient_free(q);
}

/*
 * The analysis of a huge heap (10^12 + 2 counters of 0.75) through the
 * proved period: the outcome is that of heap 30 (same residue, past the
 * preperiod), which the quotient of heaps up to 30 answers; the winning
 * moves listed for the huge heap are the winning moves of heap 30 that
 * leave one heap or split off a heap of at most 14 = preperiod + 2 period
 * + t (the window), with the other heap shifted by 10^12 - 28.
 */
static void
move_key(char *buf, size_t len, const bt_move *m, unsigned long shift)
{
    mpz_t a, b;
    mpz_init_set(a, m->to[0]);
    mpz_init(b);
    if (m->nto == 2)
        mpz_set(b, m->to[1]);
    if (m->component == 0) {
        /* the heap that carries the shift is the larger one */
        if (m->nto == 2)
            mpz_sub_ui(b, b, shift);
        else
            mpz_sub_ui(a, a, shift);
    }
    gmp_snprintf(buf, len, "%zu:%zu:%Zd:%Zd", m->component, m->nto, a, b);
    mpz_clear(a);
    mpz_clear(b);
}

static void
test_huge_analysis(void **state)
{
    static const char *const small[] = {"octal:0.75 30 7 5",
                                        "octal:0.75 30 7",
                                        "octal:0.75 31 6 2"};
    static const char *const big[] = {"octal:0.75 1000000000002 7 5",
                                      "octal:0.75 1000000000002 7",
                                      "octal:0.75 1000000000003 6 2"};
    size_t t;
    (void)state;
    for (t = 0; t < 3; t++) {
        bt_position *ps, *pb;
        bt_analysis *as, *ab;
        bt_diag d;
        size_t i, j, listed = 0;
        unsigned long shift = 1000000000002ul - 30;
        assert_int_equal(bt_position_parse(&ps, small[t], NULL, NULL, &d),
                         BT_OK);
        assert_int_equal(bt_position_parse(&pb, big[t], NULL, NULL, &d),
                         BT_OK);
        assert_int_equal(
            bt_analyze(&as, ps, BT_MISERE | BT_EXPLAIN, NULL, &d), BT_OK);
        assert_int_equal(
            bt_analyze(&ab, pb, BT_MISERE | BT_EXPLAIN, NULL, &d), BT_OK);
        assert_int_equal(bt_analysis_outcome(as), bt_analysis_outcome(ab));
        assert_non_null(strstr(bt_analysis_explanation(ab),
                               "periodicity theorem"));
        /* every move listed for the huge heap is a winning move of the
           small one, shifted */
        for (i = 0; i < bt_analysis_move_count(ab); i++) {
            char kb[128], ks[128];
            int found = 0;
            move_key(kb, sizeof kb, bt_analysis_move(ab, i), shift);
            for (j = 0; j < bt_analysis_move_count(as) && !found; j++) {
                move_key(ks, sizeof ks, bt_analysis_move(as, j), 0);
                found = strcmp(kb, ks) == 0;
            }
            if (!found)
                fail_msg("%s: move %s is not a winning move of %s", big[t],
                         kb, small[t]);
        }
        /* and every winning move of the small one inside the window is
           listed for the huge one */
        for (j = 0; j < bt_analysis_move_count(as); j++) {
            const bt_move *m = bt_analysis_move(as, j);
            char ks[128], kb[128];
            int found = 0;
            if (m->component == 0 && m->nto == 2 &&
                mpz_cmp_ui(m->to[0], 14) > 0)
                continue; /* outside the window */
            listed++;
            move_key(ks, sizeof ks, m, 0);
            for (i = 0; i < bt_analysis_move_count(ab) && !found; i++) {
                move_key(kb, sizeof kb, bt_analysis_move(ab, i), shift);
                found = strcmp(kb, ks) == 0;
            }
            if (!found)
                fail_msg("%s: winning move %s of %s is not listed", big[t],
                         ks, small[t]);
        }
        if (bt_analysis_outcome(as) == BT_N)
            assert_true(listed > 0);
        bt_analysis_free(as);
        bt_analysis_free(ab);
        bt_position_free(ps);
        bt_position_free(pb);
    }
}

/* No proof where the theorem does not apply. */
static void
test_not_proved(void **state)
{
    bt_game *g;
    bt_quotient *q;
    bt_diag d;
    bt_limits lim;
    mpz_t z;
    (void)state;
    /* period 9 from 21 needs heap 63 */
    q = bt_test_quotient("octal:0.53", 40, 0);
    assert_false(bt_quotient_period(q, NULL, NULL));
    mpz_init_set_ui(z, 41);
    assert_int_equal(bt_quotient_heap_at(q, z), SIZE_MAX);
    mpz_clear(z);
    bt_quotient_free(q);
    bt_limits_default(&lim);
    assert_int_equal(bt_game_new(&g, "grundy", &d), BT_OK);
    assert_int_equal(bt_quotient_new_until_proved(&q, g, 12, &lim, &d),
                     BT_ELIMIT);
    assert_null(q);
    assert_non_null(strstr(d.message, "not proved"));
    bt_game_free(g);
    assert_int_equal(bt_game_new(&g, "nim", &d), BT_OK);
    assert_int_equal(bt_quotient_new_until_proved(&q, g, 7, &lim, &d),
                     BT_ELIMIT);
    assert_null(q);
    bt_game_free(g);
    q = bt_test_quotient("grundy", 12, 0);
    assert_false(bt_quotient_period(q, NULL, NULL));
    bt_quotient_free(q);
}

/* A CPU deadline, as an interrupt: a regression fails instead of hanging. */
static clock_t cpu_deadline;

static int
past_deadline(void *ud)
{
    (void)ud;
    return clock() > cpu_deadline;
}

/*
 * Where no theorem applies, bt_quotient_new_until_proved refuses at once
 * (issue 26, finding 5a): Nim's quotient computed heap by heap to 1000
 * heaps ran for hours, only to be refused at the end.  CPU budget: none to
 * speak of; the deadline of 20 s of CPU turns a regression into EINTR.
 */
static void
test_until_no_theorem(void **state)
{
    static const char *const specs[] = {"nim", "grundy"};
    size_t k;
    (void)state;
    for (k = 0; k < 2; k++) {
        bt_game *g;
        bt_quotient *q = NULL;
        bt_limits lim;
        bt_diag d;
        bt_limits_default(&lim);
        lim.interrupt = past_deadline;
        cpu_deadline = clock() + 20 * CLOCKS_PER_SEC;
        assert_int_equal(bt_game_new(&g, specs[k], &d), BT_OK);
        assert_int_equal(bt_quotient_new_until_proved(&q, g, 1000, &lim, &d),
                         BT_ELIMIT);
        assert_null(q);
        assert_non_null(strstr(d.message, "not proved periodic"));
        assert_non_null(strstr(d.message, "theorem"));
        bt_game_free(g);
    }
}

static int
always(void *ud)
{
    (void)ud;
    return 1;
}

/* The heap loop polls the interrupt itself: a small quotient, whose heaps
   take too few searches to reach their polls, stops at once too. */
static void
test_heap_loop_polls(void **state)
{
    bt_game *g;
    bt_quotient *q = NULL;
    bt_limits lim;
    bt_diag d;
    (void)state;
    bt_limits_default(&lim);
    lim.interrupt = always;
    assert_int_equal(bt_game_new(&g, "octal:0.75", &d), BT_OK);
    assert_int_equal(bt_quotient_new_until_proved(&q, g, 100, &lim, &d),
                     BT_EINTR);
    assert_null(q);
    assert_int_equal(bt_quotient_new(&q, g, 5, &lim, &d), BT_EINTR);
    assert_null(q);
    bt_game_free(g);
}

/* bt_quotient_mul of a non-element is SIZE_MAX (issue 26, finding 9a: it
   read past the table), as bt_quotient_is_p of one is 0. */
static void
test_mul_range(void **state)
{
    bt_quotient *q = bt_test_quotient("nim", 0, 0);
    (void)state;
    assert_int_equal(bt_quotient_order(q), 1);
    assert_int_equal(bt_quotient_mul(q, 0, 0), 0);
    assert_true(bt_quotient_mul(q, 999, 999) == SIZE_MAX);
    assert_true(bt_quotient_mul(q, 0, 1) == SIZE_MAX);
    assert_true(bt_quotient_mul(q, 1, 0) == SIZE_MAX);
    assert_true(bt_quotient_mul(q, SIZE_MAX, SIZE_MAX) == SIZE_MAX);
    assert_false(bt_quotient_is_p(q, 999));
    bt_quotient_free(q);
    q = bt_test_quotient("octal:0.75", 100, 1);
    assert_int_equal(bt_quotient_order(q), 8);
    assert_int_equal(bt_quotient_mul(q, 7, 0), 7);
    assert_true(bt_quotient_mul(q, 8, 0) == SIZE_MAX);
    assert_true(bt_quotient_mul(q, 0, 8) == SIZE_MAX);
    bt_quotient_free(q);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_beyond_bound),
        cmocka_unit_test(test_against_larger_bound),
        cmocka_unit_test(test_huge),
        cmocka_unit_test(test_huge_analysis),
        cmocka_unit_test(test_not_proved),
        cmocka_unit_test(test_until_no_theorem),
        cmocka_unit_test(test_mul_range),
        cmocka_unit_test(test_heap_loop_polls),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
