/* label: slow sanitize */
/*
 * test_sequence_threads.c -- the rare-value method on several threads
 * (bt_sequence_set_threads) gives the values of one thread, value for
 * value: every octal code 0.d1d2d3 (shorter codes are among them, with
 * trailing zeros) to 2^14 values with 1, 2 and 4 threads where the
 * rare-value method is in use at the end (to 2^12 on 2 threads where the
 * plain method is), with the same method, mask, sparse positions and period;
 * Officers further (its sparse positions keep appearing up to about
 * 2^14, so the calling thread marks new ones the workers do not know);
 * Grundy's game (unequal splits); a proof on threads.
 * The threads are forced wherever they apply (the engine would keep these
 * small games on one thread), and the division of the work between the
 * calling thread and the others (the cut of the sparse positions and the
 * window of pairs) is fixed at its extremes as well as tuned; Officers
 * also runs with the engine's own choice of threads.
 * The one-thread engine is itself checked against the brute-force oracle
 * in test_sequence.c.
 *
 * CPU: about 35 s in the normal build (two threads at a time).  Under
 * BT_TEST_LIGHT (the ASan stage of make test runs it so: this is the one
 * slow test whose lines, the streams', no quick test reaches) every fifth
 * code, Officers to 2^16 (to 2^17 for the engine's own choice of
 * threads, which it measures) and Grundy's game to 2^14: the same lines of
 * sequence_stream.c run (checked with gcov; those of the measured choice
 * depend on the timings), in about a fifth of the time.
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

/* In the library, not the public header: threads wherever they apply, even
   where a heap has too little work for them to pay (the default then runs
   one thread), so that these small games exercise the streams; the cut and
   the window of the streams fixed; the heaps the streams computed. */
void bt__sequence_par_always(bt_sequence *s);
void bt__sequence_par_fix(bt_sequence *s, size_t cut, size_t window);
size_t bt__sequence_par_heaps(const bt_sequence *s);

/* How the streams divide each heap's work between the calling thread and
   the others: by measure (the engine's way, [0]), or fixed: every sparse
   position the lag allows to the others, or none; the window of pairs
   off, short or long (longer than most heaps' splits). */
static const struct {
    int fixed;
    size_t cut, window;
} division[] = {
    {0, 0, 0},        {1, 0, 0},   {1, 0, 40},
    {1, SIZE_MAX, 0}, {1, SIZE_MAX, 300}, {1, 3, 1000},
};
#define NDIV (sizeof division / sizeof division[0])

static size_t stream_heaps; /* heaps the streams computed, in all */

/* n values, or n / 4 under BT_TEST_LIGHT */
static size_t
upto(size_t n)
{
    return bt_test_light() ? n / 4 : n;
}

/* always: threads wherever they apply, the work divided as division[div];
   else the engine's own choice. */
static bt_sequence *
compute_div(const char *spec, unsigned threads, size_t n, int prove,
            int always, size_t div)
{
    bt_game *g = NULL;
    bt_sequence *s = NULL;
    bt_diag d;
    bt_status st;
    if (bt_game_new(&g, spec, &d) != BT_OK)
        return NULL; /* not a valid code (e.g. 0.000) */
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_OK);
    bt_game_free(g);
    bt_sequence_set_threads(s, threads);
    assert_int_equal(bt_sequence_threads(s), threads);
    if (always)
        bt__sequence_par_always(s);
    if (always && division[div].fixed)
        bt__sequence_par_fix(s, division[div].cut, division[div].window);
    st = prove ? bt_sequence_prove(s, n, NULL, &d)
               : bt_sequence_compute(s, n, NULL, &d);
    if (st != BT_OK)
        fail_msg("%s on %u threads: %s", spec, threads, d.message);
    stream_heaps += bt__sequence_par_heaps(s);
    return s;
}

static bt_sequence *
compute_as(const char *spec, unsigned threads, size_t n, int prove,
           int always)
{
    return compute_div(spec, threads, n, prove, always, 0);
}

/* s on `threads` threads has the values and the state of ref. */
static void
same(const bt_sequence *ref, const bt_sequence *s, const char *spec,
     unsigned threads)
{
    size_t n = bt_sequence_length(ref), i, p1 = 0, p2 = 0, q1 = 0, q2 = 0;
    if (bt_sequence_length(s) != n)
        fail_msg("%s: %zu values on %u threads, %zu on one", spec,
                 bt_sequence_length(s), threads, n);
    for (i = 0; i < n; i++)
        if (bt_sequence_value(s, i) != bt_sequence_value(ref, i))
            fail_msg("%s: G(%zu) = %u on %u threads, %u on one", spec, i,
                     bt_sequence_value(s, i), threads,
                     bt_sequence_value(ref, i));
    assert_string_equal(bt_sequence_method_name(s),
                        bt_sequence_method_name(ref));
    assert_int_equal(bt_sequence_rare_mask(s), bt_sequence_rare_mask(ref));
    assert_int_equal(bt_sequence_rare_count(s), bt_sequence_rare_count(ref));
    assert_int_equal(bt_sequence_period(s, &p1, &q1),
                     bt_sequence_period(ref, &p2, &q2));
    assert_int_equal(p1, p2);
    assert_int_equal(q1, q2);
    assert_int_equal(bt_sequence_is_proved(s), bt_sequence_is_proved(ref));
}

static bt_sequence *
compute(const char *spec, unsigned threads, size_t n, int prove)
{
    return compute_as(spec, threads, n, prove, 1);
}

static void
test_three_digit_codes(void **state)
{
    static const unsigned threads[] = {2, 4};
    int a, b, c, is_rare;
    size_t k, rare = 0, step = bt_test_light() ? 5 : 1;
    (void)state;
    for (a = 0; a < 8; a++)
        for (b = 0; b < 8; b++)
            for (c = 0; c < 8; c++) {
                char spec[48]; /* room for any int the format may see */
                bt_sequence *ref;
                /* every code, or every fifth (5 and NDIV are coprime: every
                   division of the work still comes up) */
                if ((a * 64 + b * 8 + c) % step != 0)
                    continue;
                snprintf(spec, sizeof spec, "octal:0.%d%d%d", a, b, c);
                ref = compute(spec, 1, 1u << 14, 0);
                if (ref == NULL)
                    continue;
                is_rare = strncmp(bt_sequence_method_name(ref), "rare", 4) == 0;
                rare += is_rare;
                if (!is_rare) {
                    /* a code that ends plain uses the threads only in the
                       blocks between two reviews, if at all: 2^12 values
                       on two threads (2^14 would run its quadratic method
                       again for little) */
                    bt_sequence *r12 = compute(spec, 1, 1u << 12, 0);
                    bt_sequence *s = compute(spec, 2, 1u << 12, 0);
                    same(r12, s, spec, 2);
                    bt_sequence_free(s);
                    bt_sequence_free(r12);
                    bt_sequence_free(ref);
                    continue;
                }
                for (k = 0; k < 2; k++) {
                    bt_sequence *s = compute_div(
                        spec, threads[k], 1u << 14, 0, 1,
                        (size_t)(a * 64 + b * 8 + c + (int)k) % NDIV);
                    same(ref, s, spec, threads[k]);
                    bt_sequence_free(s);
                }
                bt_sequence_free(ref);
            }
    /* the threads only work for the rare-value method: make sure many
       codes used it, and that the streams computed most of their values */
    assert_true(rare > 200 / step);
    assert_true(stream_heaps > rare * (1u << 13));
}

static void
test_officers_and_proof(void **state)
{
    bt_sequence *ref, *s;
    size_t div;
    /* the streams take over at about 2^14: most of the heaps are theirs */
    size_t officers = bt_test_light() ? 1u << 16 : 1u << 17;
    (void)state;
    ref = compute("officers", 1, officers, 0);
    for (div = 0; div < NDIV; div++) {
        size_t before = stream_heaps;
        s = compute_div("officers", 2 + div % 2, officers, 0, 1, div);
        same(ref, s, "officers", 2 + div % 2);
        assert_true(stream_heaps - before > officers / 2);
        bt_sequence_free(s);
    }
    /* the engine's own choice of one thread or two, block after block: to
       2^17 even when light, since its choice is measured over spans that
       need the length */
    if (officers < 1u << 17) {
        bt_sequence_free(ref);
        ref = compute("officers", 1, 1u << 17, 0);
    }
    s = compute_as("officers", 2, 1u << 17, 0, 0);
    same(ref, s, "officers", 2);
    bt_sequence_free(s);
    bt_sequence_free(ref);
    /* Grundy's game: splits into unequal heaps only (the equal split is
       left out of the marks), many sparse positions */
    ref = compute("grundy", 1, upto(1u << 16), 0);
    assert_true(strncmp(bt_sequence_method_name(ref), "rare", 4) == 0);
    s = compute("grundy", 2, upto(1u << 16), 0);
    same(ref, s, "grundy", 2);
    bt_sequence_free(s);
    bt_sequence_free(ref);
    /* a proof: the steps of bt_sequence_prove and the period found */
    ref = compute("octal:0.16", 1, 1u << 20, 1);
    s = compute("octal:0.16", 2, 1u << 20, 1);
    assert_true(bt_sequence_is_proved(ref));
    same(ref, s, "octal:0.16", 2);
    bt_sequence_free(s);
    bt_sequence_free(ref);
}

static void
test_thread_count(void **state)
{
    bt_game *g = NULL;
    bt_sequence *s = NULL;
    bt_diag d;
    (void)state;
    assert_int_equal(bt_game_new(&g, "kayles", &d), BT_OK);
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_OK);
    assert_int_equal(bt_sequence_threads(s), 1);
    bt_sequence_set_threads(s, 0); /* one per online CPU */
    assert_true(bt_sequence_threads(s) >= 1);
    bt_sequence_set_threads(s, 100000);
    assert_int_equal(bt_sequence_threads(s), BT_SEQ_MAX_THREADS);
    bt_sequence_free(s);
    bt_game_free(g);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thread_count),
        cmocka_unit_test(test_officers_and_proof),
        cmocka_unit_test(test_three_digit_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
