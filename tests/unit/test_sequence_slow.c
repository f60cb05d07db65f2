/* label: slow */
/*
 * test_sequence_slow.c -- the long checks of the Grundy sequence engine:
 * the rare-value method (and the automatic choice) against the plain
 * method on the first 20 000 values of every game of the tests, and the
 * proofs of the published periods that need hundreds of thousands of
 * values (tests/cases/grundy_*.txt marked "check slow": 0.16, 0.127,
 * 0.56).  The proof of 0.354 (20 million values) is bench/bench_octal.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>

#include <cmocka.h>

#include <bouton.h>

#include "testutil.h"

#include "oracle_heap.h"

#define N 20000

/* The games of test_sequence.c and test_octal.c; those of the case files
   are added by test_rare_vs_plain. */
static const char *const games[] = {
    "kayles",       "dawsons-kayles",    "dawsons-chess",  "double-kayles",
    "officers",     "treblecross",       "octal:0.16",     "octal:0.354",
    "octal:0.127",  "octal:0.56",        "octal:4.7",      "octal:4.07",
    "octal:4.0",    "octal:0.1",         "octal:0.2",      "octal:0.3",
    "octal:0.12",   "octal:0.51",        "octal:0.004",    "octal:0.4",
    "octal:0.1777", "octal:0.0000007",   "sub:1-3",        "sub:2,5,7",
    "sub:3",        "sub:1-40,45,50-90", "sub:2-35,37-80", "sub:1,4-6",
    "grundy",
};

static bt_sequence *
compute(const char *spec, bt_seq_method m, size_t n)
{
    bt_game *g = bt_test_game(spec);
    bt_sequence *s = NULL;
    bt_diag d;
    assert_int_equal(bt_sequence_new(&s, g, m, &d), BT_OK);
    bt_game_free(g);
    if (bt_sequence_compute(s, n, NULL, &d) != BT_OK)
        fail_msg("compute(%s, %zu): %s", spec, n, d.message);
    return s;
}

static void
compare(const char *spec)
{
    bt_sequence *p = compute(spec, BT_SEQ_PLAIN, N);
    bt_sequence *r = compute(spec, BT_SEQ_RARE, N);
    bt_sequence *a = compute(spec, BT_SEQ_AUTO, N);
    size_t i;
    for (i = 0; i < N; i++) {
        unsigned v = bt_sequence_value(p, i);
        if (bt_sequence_value(r, i) != v || bt_sequence_value(a, i) != v)
            fail_msg("%s: G(%zu) plain %u, rare %u, auto %u", spec, i, v,
                     bt_sequence_value(r, i), bt_sequence_value(a, i));
    }
    bt_sequence_free(p);
    bt_sequence_free(r);
    bt_sequence_free(a);
}

/* Calls f on every case file. */
static void
each_case(void (*f)(const oh_case *c, const char *name))
{
    DIR *dir = opendir(BT_TEST_CASES);
    struct dirent *e;
    assert_non_null(dir);
    while ((e = readdir(dir)) != NULL) {
        char path[1024];
        oh_case c;
        if (strncmp(e->d_name, "grundy_", 7) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", BT_TEST_CASES, e->d_name);
        if (oh_case_load(&c, path) != 0)
            fail_msg("malformed case file %s", e->d_name);
        f(&c, e->d_name);
        oh_case_free(&c);
    }
    closedir(dir);
}

static void
compare_case(const oh_case *c, const char *name)
{
    (void)name;
    compare(c->game);
}

static void
test_rare_vs_plain(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof games / sizeof games[0]; i++)
        compare(games[i]);
    each_case(compare_case);
}

static void
prove_case(const oh_case *c, const char *name)
{
    bt_sequence *s;
    size_t p, pre;
    if (strcmp(c->check, "slow") != 0 || c->period < 0)
        return;
    s = compute(c->game, BT_SEQ_AUTO, 0);
    assert_int_equal(bt_sequence_prove(s, 4u << 20, NULL, NULL), BT_OK);
    if (!bt_sequence_is_proved(s))
        fail_msg("%s: not proved within %zu values", name,
                 bt_sequence_length(s));
    assert_true(bt_sequence_period(s, &p, &pre));
    if ((long)p != c->period || (long)pre != c->preperiod)
        fail_msg("%s: period %zu preperiod %zu, published %ld %ld", name, p,
                 pre, c->period, c->preperiod);
    bt_sequence_free(s);
}

static void
test_slow_proofs(void **state)
{
    (void)state;
    each_case(prove_case);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rare_vs_plain),
        cmocka_unit_test(test_slow_proofs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
