/*
 * test_sequence_simd.c -- the check of the rare-value method in AVX-512
 * (src/engines/sequence_simd.c) against the portable scan and against the
 * rule the check applies, written here: a value still needed is found iff
 * some pair G(a) XOR G(rest - a), pa <= a <= sh, of some split has it.
 *
 *   - the kernels on random tables, one byte and two bytes a value, with
 *     values up to 2^12 (so that pairs of 1024 and more wrap in the
 *     kernel's lookup and must not count), one to three splits, random
 *     starts, and random sets of values needed;
 *   - whole sequences, the kernel on and off: Officers, 0.354, Grundy's
 *     game, and every code 0.d1d2d3 (d3 > 0) with the rare-value method
 *     forced.
 *
 * On a CPU without AVX-512 (and under valgrind, which hides it) the
 * kernel is never called: the tests that need it are skipped, and say so.
 *
 * CPU: about 3 s.
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

/* In the library (src/engines/sequence_impl.h), not the public header. */
int bt__seq_simd(void);
void bt__seq_simd_disable(int off);
size_t bt__seq_scan_simd(const void *g, int wide, uint16_t *need, size_t k,
                         size_t *pa, const size_t *sr, const size_t *sh,
                         size_t m, size_t *work);
size_t bt__seq_confirm_scan_8(const void *g, uint8_t *seen, uint16_t *need,
                              size_t k, size_t *pa, const size_t *sr,
                              const size_t *sh, size_t m, size_t *work);
size_t bt__seq_confirm_scan_16(const void *g, uint8_t *seen, uint16_t *need,
                               size_t k, size_t *pa, const size_t *sr,
                               const size_t *sh, size_t m, size_t *work);

#define MAXN 6000

static unsigned
get(const void *g, int wide, size_t i)
{
    return wide ? ((const uint16_t *)g)[i] : ((const uint8_t *)g)[i];
}

/* The values of need[0..k-1] no pair of the splits reaches, as a bitmap
   of 65536 (the rule, pair by pair). */
static void
rule(const void *g, int wide, const uint16_t *need, size_t k,
     const size_t *pa, const size_t *sr, const size_t *sh, size_t m,
     uint8_t *missing)
{
    static uint8_t hit[65536];
    size_t i, j, a;
    memset(hit, 0, sizeof hit);
    for (j = 0; j < m; j++)
        for (a = pa[j]; a <= sh[j]; a++)
            hit[get(g, wide, a) ^ get(g, wide, sr[j] - a)] = 1;
    memset(missing, 0, 65536);
    for (i = 0; i < k; i++)
        missing[need[i]] = !hit[need[i]];
}

/* need[0..left-1] is exactly the set of missing[] values among the k. */
static void
same_set(const uint16_t *need, size_t left, const uint8_t *missing,
         size_t want, const char *what)
{
    size_t i;
    if (left != want)
        fail_msg("%s: %zu values left, the rule leaves %zu", what, left,
                 want);
    for (i = 0; i < left; i++)
        if (!missing[need[i]])
            fail_msg("%s: value %u left, but a pair has it", what, need[i]);
}

static void
test_kernels_random(void **state)
{
    static uint16_t g16[MAXN + 64];
    static uint8_t g8[MAXN + 64], seen[65536 + 64], missing[65536];
    unsigned round, way;
    int simd = bt__seq_simd();
    (void)state;
    if (!simd)
        print_message("no AVX-512 here: the portable scan only\n");
    for (round = 0; round < 3000; round++) {
        int wide = (int)(round & 1);
        unsigned bits = wide ? 4 + bt_test_rnd(9) : 3 + bt_test_rnd(6);
        size_t n = 40 + bt_test_rnd(MAXN - 40), m = 1 + bt_test_rnd(3);
        size_t sr[3], sh[3], pa[3], pb[3], j, i, k = 0, want = 0, left,
               work = 0;
        uint16_t need[1024], need2[1024], pool[1024];
        const void *g = wide ? (const void *)g16 : (const void *)g8;
        char what[96];
        for (i = 0; i < n; i++) {
            unsigned v = bt_test_rnd(1u << bits);
            g16[i] = (uint16_t)v;
            g8[i] = (uint8_t)v;
        }
        for (j = 0; j < m; j++) {
            sr[j] = n - 1 - bt_test_rnd((unsigned)(n / 4));
            sh[j] = sr[j] / 2;
            pa[j] = 1 + bt_test_rnd((unsigned)sh[j]);
        }
        /* distinct values below 1024 (below 256 for bytes), few or many */
        for (i = 0; i < 1024; i++)
            pool[i] = (uint16_t)i;
        {
            size_t top = wide ? 1024 : 256, want_k = 1 + bt_test_rnd(40);
            for (i = 0; i < want_k; i++) {
                size_t r = i + bt_test_rnd((unsigned)(top - i));
                uint16_t t = pool[i];
                pool[i] = pool[r];
                pool[r] = t;
                need[k++] = pool[i];
            }
        }
        rule(g, wide, need, k, pa, sr, sh, m, missing);
        for (i = 0; i < k; i++)
            want += missing[need[i]];
        /* the portable scan, then the kernel alone, then the portable
           entry that hands over to it */
        for (way = 0; way < 3; way++) {
            static const char *const name[] = {"portable", "AVX-512",
                                               "handed over"};
            if (way > 0 && !simd)
                break;
            bt__seq_simd_disable(way == 0);
            memcpy(need2, need, sizeof need);
            memcpy(pb, pa, sizeof pa);
            if (way == 1) {
                left = bt__seq_scan_simd(g, wide, need2, k, pb, sr, sh, m,
                                         &work);
            } else {
                /* seen[] is 0 at the values needed */
                memset(seen, 1, sizeof seen);
                for (i = 0; i < k; i++)
                    seen[need2[i]] = 0;
                left = wide ? bt__seq_confirm_scan_16(g, seen, need2, k, pb,
                                                      sr, sh, m, &work)
                            : bt__seq_confirm_scan_8(g, seen, need2, k, pb,
                                                     sr, sh, m, &work);
            }
            snprintf(what, sizeof what, "round %u, %s, %s, %zu splits",
                     round, name[way], wide ? "two bytes" : "one byte", m);
            same_set(need2, left, missing, want, what);
        }
        bt__seq_simd_disable(0);
    }
}

/* The values of spec to n, with the kernel off or on, are the same. */
static void
on_and_off(const char *spec, bt_seq_method method, size_t n)
{
    bt_sequence *a, *b;
    size_t i;
    bt__seq_simd_disable(1);
    a = bt_test_sequence(spec, method, n);
    bt__seq_simd_disable(0);
    b = bt_test_sequence(spec, method, n);
    assert_int_equal(bt_sequence_length(a), bt_sequence_length(b));
    for (i = 0; i < bt_sequence_length(a); i++)
        if (bt_sequence_value(a, i) != bt_sequence_value(b, i))
            fail_msg("%s: G(%zu) is %u with AVX-512, %u without", spec, i,
                     bt_sequence_value(b, i), bt_sequence_value(a, i));
    bt_sequence_free(a);
    bt_sequence_free(b);
}

static void
test_sequences(void **state)
{
    char spec[32];
    unsigned code;
    (void)state;
    if (!bt__seq_simd())
        skip();
    on_and_off("officers", BT_SEQ_AUTO, bt_test_light() ? 1u << 15 : 1u << 17);
    on_and_off("octal:0.354", BT_SEQ_AUTO, 1u << 16);
    on_and_off("grundy", BT_SEQ_AUTO, 1u << 14);
    for (code = 0; code < 512; code++) {
        if ((code & 7) == 0)
            continue; /* a last digit 0 is a shorter code */
        snprintf(spec, sizeof spec, "octal:0.%u%u%u", code >> 6 & 7,
                 code >> 3 & 7, code & 7);
        on_and_off(spec, BT_SEQ_RARE, 1u << 10);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_random),
        cmocka_unit_test(test_sequences),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
