/* label: quick
 *
 * test_quotient_pretend.c -- the two ways src/engines/quotient.c learns a
 * heap that is not a conservative extension (docs/misere.md): pretending
 * (MisereSolver's trial monoids, marked and minimised, then proved by the
 * exact check) and the L* learner over an exact search of the game graph.
 *
 *   - On the twelve heap games of test_quotient.c, up to the heaps that
 *     test checks against brute force, both give the same quotient bit for
 *     bit: order, P-portion, the multiplication table in the same
 *     numbering, the heap map, generators and relations
 *     (bt__quotient_set_pretending switches pretending off).
 *   - Dawson's Kayles (0.07) past heap 24, where the search alone does not
 *     finish in minutes: the quotient of the heaps up to 28 computed by
 *     pretending answers every sum of a heap of 25 to 28 with one or two
 *     smaller heaps, up to a total the brute-force misère solver of
 *     tests/oracle/oracle_heap.c reaches, exactly as that solver does.
 * (The order of the 0.07 quotient of the heaps up to 30, 360 as
 * MisereSolver gives it, is checked with the published quotients:
 * tests/cases/misere_0.07_q30.txt.)
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

#include "../../src/engines/engines.h"
#include "testutil.h"

#include "oracle_heap.h"

static void
same_quotient(const char *spec, size_t n)
{
    bt_quotient *a, *b;
    char what[160];
    bt__quotient_set_pretending(0);
    a = bt_test_quotient(spec, n, 0);
    bt__quotient_set_pretending(1);
    b = bt_test_quotient(spec, n, 0);
    snprintf(what, sizeof what, "%s (search ~ pretending)", spec);
    bt_test_quotients_same(what, a, b);
    bt_quotient_free(a);
    bt_quotient_free(b);
}

static void
test_same_as_search(void **state)
{
    static const struct {
        const char *spec;
        size_t n;
    } games[] = {
        {"kayles", 12},     {"dawsons-kayles", 12}, {"octal:0.75", 10},
        {"octal:0.137", 10}, {"octal:0.31", 10},    {"octal:0.35", 7},
        {"octal:0.52", 10}, {"octal:0.53", 12},     {"sub:1-3", 10},
        {"sub:2,3", 10},    {"grundy", 10},         {"octal:4.3", 10},
    };
    size_t i, n;
    (void)state;
    for (i = 0; i < sizeof games / sizeof games[0]; i++)
        for (n = 1; n <= games[i].n; n++)
            same_quotient(games[i].spec, n);
    /* and past test_quotient's bounds where the search is still quick */
    same_quotient("kayles", 24);
    same_quotient("dawsons-kayles", 24);
    bt__quotient_set_pretending(1);
}

static void
test_dawson_past_24(void **state)
{
    bt_quotient *q = bt_test_quotient("dawsons-kayles", 28, 0);
    unsigned total = bt_test_light() ? 34 : 40;
    (void)state;
    assert_true(bt_test_quotient_against_brute(q, "dawsons-kayles", 25, 28,
                                               total) >= 80);
    bt_quotient_free(q);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_search),
        cmocka_unit_test(test_dawson_past_24),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
