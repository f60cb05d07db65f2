/*
 * test_sequence_width.c -- the width of the values the sequence engine
 * keeps (one byte while every value is below 256, two from the first that
 * is not, docs/grundy.md "Limits"): every method gives the values of the
 * engine that kept two bytes throughout, across the widening, on one
 * thread and on four.  The digests below were computed by that engine
 * (the commit before this test), from its values G(0..n-1) read with
 * bt_sequence_value: FNV-1a 64 of each value's two bytes, little-endian.
 * Games whose values cross 255: Officers (from heap 10 344), a code of 300
 * digits 3 and a 7 (values up to 301, with the rare-value method forced,
 * so that the threads stream across the widening, and the plain one),
 * sub:1-1000 (sliding windows), tb:0.[3] (Nim) and tb:4.[3] (Lasker's Nim:
 * the general method).  Games whose values stay below 256: 0.354, 0.16
 * (its proof) and Grundy's game to 2^16.  Also: the width the engine
 * reports, the values' memory charged at their width, and a sequence
 * rebuilt from another's values (a checkpoint's resume) across the
 * widening.
 *
 * CPU: about 2 s.
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

/* In the library, not the public header: threads wherever they apply
   (test_sequence_threads.c), and the heaps the streams computed. */
void bt__sequence_par_always(bt_sequence *s);
size_t bt__sequence_par_heaps(const bt_sequence *s);

static uint64_t
digest(const bt_sequence *s)
{
    uint64_t h = UINT64_C(14695981039346656037);
    size_t i, n = bt_sequence_length(s);
    for (i = 0; i < n; i++) {
        unsigned v = bt_sequence_value(s, i);
        h = (h ^ (v & 0xFFu)) * UINT64_C(1099511628211);
        h = (h ^ (v >> 8)) * UINT64_C(1099511628211);
    }
    return h;
}

/* The code 0.33...37: 300 digits 3, then a 7. */
static char *
long_code(void)
{
    char *spec = malloc(6 + 2 + 301 + 1);
    assert_non_null(spec);
    strcpy(spec, "octal:0.");
    memset(spec + 8, '3', 300);
    strcpy(spec + 308, "7");
    return spec;
}

static const struct {
    const char *spec; /* NULL: long_code() */
    bt_seq_method method;
    size_t n;         /* 0: until proved */
    uint64_t digest;  /* the two-byte engine's */
    unsigned width;   /* at the end */
} cases[] = {
    {"octal:0.6", BT_SEQ_AUTO, 131072, UINT64_C(0xa446d1e91024cc39), 2},
    {NULL, BT_SEQ_RARE, 8192, UINT64_C(0x5b6f98d91950a2bd), 2},
    {NULL, BT_SEQ_PLAIN, 4096, UINT64_C(0x316f2b1af19a4a7d), 2},
    {"sub:1-1000", BT_SEQ_AUTO, 5000, UINT64_C(0x86d303c14dec0789), 2},
    {"tb:0.[3]", BT_SEQ_AUTO, 3000, UINT64_C(0x7546384d79cd6af5), 2},
    {"tb:4.[3]", BT_SEQ_AUTO, 1200, UINT64_C(0x2626626f8afba842), 2},
    {"octal:0.354", BT_SEQ_AUTO, 131072, UINT64_C(0x7e737d6c28a8da60), 1},
    {"octal:0.16", BT_SEQ_AUTO, 0, UINT64_C(0xee10173eaf0e64ca), 1},
    {"grundy", BT_SEQ_AUTO, 65536, UINT64_C(0x26a0e6aa499ae382), 1},
};

static void
test_digests(void **state)
{
    size_t k;
    unsigned t;
    (void)state;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (t = 1; t <= 4; t += 3) {
            char *spec = cases[k].spec ? NULL : long_code();
            bt_game *g = bt_test_game(cases[k].spec ? cases[k].spec : spec);
            bt_sequence *s;
            bt_diag d;
            bt_status st;
            assert_int_equal(bt_sequence_new(&s, g, cases[k].method, &d),
                             BT_OK);
            bt_sequence_set_threads(s, t);
            if (t > 1)
                bt__sequence_par_always(s);
            st = cases[k].n ? bt_sequence_compute(s, cases[k].n, NULL, &d)
                            : bt_sequence_prove(s, (size_t)1 << 22, NULL, &d);
            if (st != BT_OK || digest(s) != cases[k].digest)
                fail_msg("%s, %u threads: %s, digest %016llx", 
                         cases[k].spec ? cases[k].spec : "0.3...37", t,
                         st != BT_OK ? d.message : "values differ",
                         (unsigned long long)digest(s));
            assert_int_equal(bt_sequence_width(s), cases[k].width);
            /* the streams ran where the rare-value method did */
            if (t > 1 && strcmp(bt_sequence_method_name(s), "plain") != 0 &&
                strcmp(bt_sequence_method_name(s), "window") != 0)
                assert_true(bt__sequence_par_heaps(s) > 0);
            bt_sequence_free(s);
            bt_game_free(g);
            free(spec);
        }
}

/* The first value of Officers of 256 or more is G(10344): one byte a value
   before it, two from it on, and the data read at either width. */
static void
test_width_officers(void **state)
{
    bt_game *g = bt_test_game("officers");
    bt_sequence *s;
    bt_diag d;
    size_t i;
    (void)state;
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_OK);
    assert_int_equal(bt_sequence_compute(s, 10344, NULL, &d), BT_OK);
    assert_int_equal(bt_sequence_width(s), 1);
    for (i = 0; i < 10344; i++)
        assert_int_equal(((const uint8_t *)bt_sequence_data(s))[i],
                         bt_sequence_value(s, i));
    assert_int_equal(bt_sequence_compute(s, 10345, NULL, &d), BT_OK);
    assert_int_equal(bt_sequence_width(s), 2);
    assert_true(bt_sequence_value(s, 10344) >= 256);
    for (i = 0; i < 10345; i++)
        assert_int_equal(((const uint16_t *)bt_sequence_data(s))[i],
                         bt_sequence_value(s, i));
    bt_sequence_free(s);
    bt_game_free(g);
}

/* The values' memory is charged at their width: 5500 values and the
   detection's 4 bytes each fit 27 500 bytes at one byte a value (the
   two-byte engine refused them), and do not at two. */
static void
test_width_memory(void **state)
{
    static const char *const specs[] = {"octal:0.354", "sub:1-1000"};
    bt_limits lim;
    size_t k;
    (void)state;
    bt_limits_default(&lim);
    lim.max_memory = 27500;
    for (k = 0; k < 2; k++) {
        bt_game *g = bt_test_game(specs[k]);
        bt_sequence *s;
        bt_diag d;
        assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_OK);
        assert_int_equal(bt_sequence_compute(s, 5500, &lim, &d),
                         k == 0 ? BT_OK : BT_ELIMIT);
        if (k == 1)
            assert_non_null(strstr(d.message, "max_memory"));
        bt_sequence_free(s);
        bt_game_free(g);
    }
}

/* A sequence rebuilt from another's values (bt_sequence_append, as a
   checkpoint resumes) widens where the other did and keeps its method. */
static void
test_width_append(void **state)
{
    bt_game *g = bt_test_game("officers");
    bt_sequence *s, *t;
    bt_diag d;
    uint16_t chunk[1000];
    size_t i, j, n = 20000;
    (void)state;
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_OK);
    assert_int_equal(bt_sequence_new(&t, g, BT_SEQ_AUTO, &d), BT_OK);
    assert_int_equal(bt_sequence_compute(s, n, NULL, &d), BT_OK);
    for (i = 0; i < n; i += 1000) {
        for (j = 0; j < 1000; j++)
            chunk[j] = (uint16_t)bt_sequence_value(s, i + j);
        assert_int_equal(bt_sequence_append(t, chunk, 1000, &d), BT_OK);
        assert_int_equal(bt_sequence_width(t), i + 1000 > 10344 ? 2 : 1);
    }
    assert_int_equal(bt_sequence_rare_mask(t), bt_sequence_rare_mask(s));
    assert_int_equal(bt_sequence_rare_count(t), bt_sequence_rare_count(s));
    assert_int_equal(digest(t), UINT64_C(0xc06b76524ebf824c));
    /* and goes on computing from there as s does */
    assert_int_equal(bt_sequence_compute(t, 30000, NULL, &d), BT_OK);
    assert_int_equal(bt_sequence_compute(s, 30000, NULL, &d), BT_OK);
    assert_int_equal(digest(t), digest(s));
    bt_sequence_free(s);
    bt_sequence_free(t);
    bt_game_free(g);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digests),
        cmocka_unit_test(test_width_officers),
        cmocka_unit_test(test_width_memory),
        cmocka_unit_test(test_width_append),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
