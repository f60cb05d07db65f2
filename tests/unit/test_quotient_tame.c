/* label: slow
 *
 * test_quotient_tame.c -- tame quotients formed by the theory
 * (src/engines/quotient_tame.c, docs/misere.md "Tame games at the speed of
 * the theory") against the general learner of src/engines/quotient.c and
 * against brute force.
 *
 *   - Every two-digit and three-digit octal code (0.d1d2, 0.d1d2d3, last
 *     digit not 0), heaps up to 30: the quotient with the tame path and
 *     with the general learner alone (bt__quotient_set_taming(0)) is the
 *     same bit for bit (order, P-portion, the table in the same numbering,
 *     the heap map, generators, relations, tameness), where both finish
 *     within the test's budget (a second of CPU each).  The tame path
 *     fills the learner's table from the known quotient, so even the
 *     numbering agrees.
 *   - The switch: the tracker, run here on the options that
 *     tests/oracle lists from the code's digits, accepts heaps 1..r-1 and
 *     refuses heap r; the general learner's quotient of the heaps up to
 *     r - 1 is tame (as the tracker's theorem says), and the count of
 *     codes where the quotient up to r is still tame (the tracker's
 *     conditions are sufficient, not necessary) is printed and bounded.
 *   - Brute force: the quotient of every code tame up to 30 answers every
 *     sum of up to three heaps of at most 30 counters in all as the
 *     misère solver of tests/oracle does (oh_misere); 0.56 to 60 the same
 *     as the general learner, and to 40 right on every sum of a heap of 31
 *     to 40 with up to two smaller heaps, 44 counters in all.
 * CPU: about 50 s in the normal build, most of it the brute-force solver
 * (tests/README.md).
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

#include "../../src/engines/quotient_tame.h"
#include "../../src/engines/engines.h"
#include "testutil.h"

#include "oracle_heap.h"

/* the options of one heap, as pairs of heaps (0: none) */
typedef struct pairs {
    uint32_t v[2 * 4096];
    size_t n;
} pairs;

static void
on_option(void *ud, const unsigned *parts, size_t nparts)
{
    pairs *p = ud;
    assert_true(nparts <= 2 && p->n < 4096);
    p->v[2 * p->n] = nparts > 0 ? parts[0] : 0;
    p->v[2 * p->n + 1] = nparts > 1 ? parts[1] : 0;
    p->n++;
}

/* The first heap (1..n) the tracker refuses, n + 1 when none. */
static size_t
tame_reach(const char *spec, size_t n)
{
    oh_game *og = oh_game_new(spec);
    bt__qtame *t = bt__qtame_new();
    pairs *p = malloc(sizeof *p);
    size_t h;
    assert_non_null(og);
    assert_non_null(t);
    assert_non_null(p);
    for (h = 1; h <= n; h++) {
        int r;
        p->n = 0;
        oh_options(og, (unsigned)h, on_option, p);
        r = bt__qtame_add(t, h, p->v, p->n);
        assert_true(r >= 0);
        if (r == 0)
            break;
    }
    free(p);
    bt__qtame_free(t);
    oh_game_free(og);
    return h;
}

/* The general learner's quotient (a) and the tame path's (b). */
static void
same_quotient(const char *spec, const bt_quotient *a, const bt_quotient *b)
{
    char what[160];
    snprintf(what, sizeof what, "%s (general learner ~ tame path)", spec);
    bt_test_quotients_same(what, a, b);
}

static bt_quotient *
learn(const char *spec, size_t n, int taming, double seconds)
{
    bt_quotient *q;
    bt__quotient_set_taming(taming);
    q = bt_test_quotient_within(spec, n, 2000000, 4096, seconds);
    bt__quotient_set_taming(1);
    return q;
}

typedef struct tally {
    size_t codes, tame, compared, switches, early, brute;
} tally;

/* The tame path against the general learner to m (when both finish in
   the budget). */
static void
compare(const char *spec, size_t m, tally *t)
{
    bt_quotient *on = learn(spec, m, 1, 0.5), *off = learn(spec, m, 0, 0.5);
    if (on != NULL && off != NULL) {
        same_quotient(spec, off, on);
        t->compared++;
    }
    bt_quotient_free(on);
    bt_quotient_free(off);
}

/*
 * One code to n: tame all the way (then the tame path against the general
 * learner and brute force), or the switch at heap r: the general
 * learner's quotient to r - 1 is tame, and the tame path gives its
 * quotient to r + 4 (the switch and four heaps of the general learner
 * after it) bit for bit.  Wild codes are not followed further: the
 * general learner is the same code on both sides past r.
 */
static void
check_code(const char *spec, size_t n, tally *t)
{
    size_t r = tame_reach(spec, n);
    t->codes++;
    if (r > n) {
        /* tame to n by the theorem: so the learner's quotient */
        bt_quotient *on = learn(spec, n, 1, 5.0);
        assert_non_null(on);
        if (!bt_quotient_is_tame(on))
            fail_msg("%s to %zu: the tracker accepts every heap but the "
                     "quotient is not tame",
                     spec, n);
        t->tame++;
        t->brute += bt_test_quotient_against_brute(on, spec, 1, (unsigned)n,
                                                   (unsigned)n);
        bt_quotient_free(on);
        compare(spec, n, t);
    } else {
        bt_quotient *below = r > 1 ? learn(spec, r - 1, 0, 0.5) : NULL;
        bt_quotient *at = learn(spec, r, 0, 0.5);
        if (below != NULL && !bt_quotient_is_tame(below))
            fail_msg("%s: the tracker accepts heaps 1..%zu, whose quotient "
                     "is not tame",
                     spec, r - 1);
        if (at != NULL) {
            t->switches++;
            if (bt_quotient_is_tame(at))
                t->early++; /* sufficient conditions, not necessary */
        }
        bt_quotient_free(below);
        bt_quotient_free(at);
        compare(spec, r + 4 < n ? r + 4 : n, t);
    }
}

static void
test_two_digit_codes(void **state)
{
    tally t = {0};
    unsigned d1, d2;
    size_t n = bt_test_light() ? 12 : 30;
    char spec[32];
    (void)state;
    for (d1 = 0; d1 < 8; d1++)
        for (d2 = 1; d2 < 8; d2++) {
            snprintf(spec, sizeof spec, "octal:0.%u%u", d1, d2);
            check_code(spec, n, &t);
        }
    print_message("two-digit codes to %zu: %zu codes, %zu tame (checked "
                  "against brute force on %zu sums), %zu compared with the "
                  "general learner, %zu switches checked, %zu of them at a "
                  "heap whose quotient is still tame\n",
                  n, t.codes, t.tame, t.brute, t.compared, t.switches,
                  t.early);
    assert_true(t.tame >= 10);
    assert_true(t.compared >= 40);
}

static void
test_three_digit_codes(void **state)
{
    tally t = {0};
    unsigned d1, d2, d3;
    size_t n = bt_test_light() ? 8 : 30;
    char spec[32];
    (void)state;
    for (d1 = 0; d1 < 8; d1++)
        for (d2 = 0; d2 < 8; d2++)
            for (d3 = 1; d3 < 8; d3++) {
                snprintf(spec, sizeof spec, "octal:0.%u%u%u", d1, d2, d3);
                check_code(spec, n, &t);
            }
    print_message("three-digit codes to %zu: %zu codes, %zu tame (checked "
                  "against brute force on %zu sums), %zu compared with the "
                  "general learner, %zu switches checked, %zu of them at a "
                  "heap whose quotient is still tame\n",
                  n, t.codes, t.tame, t.brute, t.compared, t.switches,
                  t.early);
    assert_true(t.tame >= 50);
    assert_true(t.compared >= 300);
}

/* 0.56 past 30: the same quotient as the general learner to 60, and by
   brute force every sum of a heap of 31 to 40 with up to two smaller
   heaps, 44 counters in all (the solver walks every sub-position). */
static void
test_056_far(void **state)
{
    size_t hi = bt_test_light() ? 34 : 40, n = bt_test_light() ? 40 : 60;
    bt_quotient *q = learn("octal:0.56", n, 1, 5.0);
    bt_quotient *g = learn("octal:0.56", n, 0, 5.0);
    (void)state;
    assert_non_null(q);
    assert_non_null(g);
    same_quotient("octal:0.56", g, q);
    assert_true(bt_quotient_is_tame(q));
    assert_true(bt_test_quotient_against_brute(q, "octal:0.56", 31,
                                               (unsigned)hi,
                                               (unsigned)hi + 4) > 200);
    bt_quotient_free(q);
    bt_quotient_free(g);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_digit_codes),
        cmocka_unit_test(test_three_digit_codes),
        cmocka_unit_test(test_056_far),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
