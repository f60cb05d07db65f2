/* label: slow
 *
 * test_quotient_reach.c -- the misère analysis at the full reach of the
 * quotient engine (docs/misere.md, "Misère analysis through the
 * quotient"): no fixed largest heap, the quotient learnt on from the cached
 * learner as larger heaps come, the search only as the last resort.
 * CPU: about 25 s in the normal build (measured at a load of 14 on 2
 * cores): the quotients of 0.07 to heap 32 and 0.137 to heap 31, 4-5 s
 * each, 0.137's heap 32 past the budget, the brute-force solver on sums
 * of up to 40 counters, and the refusal under the default limits (heap 33
 * of 0.07 to the budget, then the search to 250 000 positions, about
 * 11 s).
 *
 *   - Dawson's Kayles (0.07) and 0.137: bt_analyze in misère play, with
 *     the default limits, of every sum of one heap of 27 to 32 (taken in
 *     increasing order, so that each is learnt on from the last) and up to
 *     two smaller heaps, up to a total that the brute-force solver of
 *     tests/oracle/oracle_heap.c reaches: answered through the quotient
 *     (the explanation says so; for 0.137 to heap 31, its heap 32 being
 *     0.07's heap 33, past the budget), with the outcome and the exact
 *     set of winning moves that brute force gives.  The learning of each
 *     game is bounded in CPU.
 *   - `dawsons-kayles 40 31 17` under the default limits: answered, or
 *     refused with BT_ELIMIT and a message that says which heap the
 *     quotient got to and which option raises the limit, within a bounded
 *     CPU (before: 35-50 s of CPU, and a refusal that said nothing of the
 *     quotient); and the same with a small max_search, quickly.
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

#include "misere_agree.h"
#include "oracle_heap.h"

static double
cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * bt_analyze (misère, default limits) of the sum of heaps c[0..nc-1] of
 * spec against brute force (bt_test_misere_agree): outcome, the exact set
 * of winning moves, and an answer through the quotient.  Returns the
 * analysis's CPU seconds.
 */
static double
agree(const char *spec, oh_game *og, oh_misere *b, const unsigned *c,
      size_t nc, int through_quotient)
{
    double cpu;
    bt_analysis *a =
        bt_test_misere_agree(spec, og, b, c, nc, BT_EXPLAIN, &cpu);
    if (through_quotient && strstr(bt_analysis_explanation(a),
                                   "through the misère quotient") == NULL)
        fail_msg("%s %u...: not answered through the quotient: %.200s",
                 spec, c[0], bt_analysis_explanation(a));
    bt_analysis_free(a);
    return cpu;
}

/*
 * Every sum of one heap big (lo..hi, increasing) and up to two smaller
 * heaps s >= t, big + s + t <= total, of spec, answered through the
 * quotient when big <= qhi (past it, by whichever engine reaches it).
 * The analyses' CPU (the quotient learnt heap by heap, and the answers)
 * stays under cpu.
 */
static void
reach(const char *spec, unsigned lo, unsigned hi, unsigned qhi,
      unsigned total, double cpu)
{
    oh_game *og = oh_game_new(spec);
    oh_misere *b = oh_misere_new(og);
    unsigned big, s, t;
    size_t count = 0;
    double used = 0;
    assert_non_null(og);
    assert_non_null(b);
    for (big = lo; big <= hi; big++)
        for (s = 0; s < big && big + s <= total; s++)
            for (t = 0; t <= s && big + s + t <= total; t++) {
                unsigned c[3];
                size_t nc = 0;
                c[nc++] = big;
                if (s > 0)
                    c[nc++] = s;
                if (t > 0)
                    c[nc++] = t;
                used += agree(spec, og, b, c, nc, big <= qhi);
                count++;
            }
    assert_true(count >= 30);
    if (used > bt_test_cpu_bound(cpu))
        fail_msg("%s, heaps %u to %u: %.2f s of CPU in the analyses (bound "
                 "%.1f s)",
                 spec, lo, hi, used, bt_test_cpu_bound(cpu));
    oh_misere_free(b);
    oh_game_free(og);
}

static void
test_dawson_27_32(void **state)
{
    (void)state;
    /* about 4.3 s of CPU to heap 32 on an idle machine */
    unsigned hi = bt_test_light() ? 28 : 32;
    reach("dawsons-kayles", 27, hi, hi, bt_test_light() ? 32 : 40, 15);
}

static void
test_0137_27_32(void **state)
{
    (void)state;
    /* a heap of n + 1 of 0.137 (Dawson's chess) plays as a heap of n of
       0.07, and so do their quotients: heap 31 is 0.07's heap 32, and
       heap 32 (0.07's 33) passes the budget, after which the search
       answers, and is checked all the same */
    unsigned hi = bt_test_light() ? 28 : 32;
    reach("octal:0.137", 27, hi, 31, bt_test_light() ? 32 : 38, 20);
}

/* The analysis of pos under the default limits, or with max_search: OK,
   or ELIMIT with a message naming the heap the quotient got to and the
   option that raises it, within cpu seconds. */
static void
refused_or_answered(const char *pos, size_t max_search, double cpu)
{
    bt_limits lim;
    bt_position *p;
    bt_analysis *a = NULL;
    bt_diag d;
    bt_status st;
    double t0;
    bt_limits_default(&lim);
    if (max_search > 0)
        lim.max_search = max_search;
    p = bt_test_parse(pos, NULL, &lim);
    memset(&d, 0, sizeof d);
    t0 = cpu_seconds();
    st = bt_analyze(&a, p, BT_MISERE | BT_EXPLAIN, &lim, &d);
    t0 = cpu_seconds() - t0;
    if (st == BT_OK) {
        bt_analysis_free(a);
    } else {
        assert_int_equal(st, BT_ELIMIT);
        if (strstr(d.message, "misère quotient of octal:0.07 got to heap") ==
                NULL ||
            strstr(d.message, "--max-search") == NULL)
            fail_msg("%s: %s", pos, d.message);
    }
    if (t0 > bt_test_cpu_bound(cpu))
        fail_msg("%s: %.2f s of CPU (bound %.1f s)", pos, t0,
                 bt_test_cpu_bound(cpu));
    bt_position_free(p);
}

static void
test_refusal(void **state)
{
    (void)state;
    /* the default limits: the quotient (learnt to heap 32 above) a few
       seconds into heap 33, then the search to 250 000 positions (about
       6 s; from nothing, about 11 s) */
    if (!bt_test_light())
        refused_or_answered("dawsons-kayles 40 31 17", 0, 40);
    /* a smaller max_search: heap 33 is not tried again, and the search
       stops at 20 000 positions (under a second) */
    refused_or_answered("dawsons-kayles 40 31 17", 20000, 10);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dawson_27_32),
        cmocka_unit_test(test_0137_27_32),
        cmocka_unit_test(test_refusal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
