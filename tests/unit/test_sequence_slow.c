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

static void
compare_case(const oh_case *c, const char *name)
{
    (void)name;
    bt_test_methods_agree(c->game, N);
}

static void
test_rare_vs_plain(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof games / sizeof games[0]; i++)
        bt_test_methods_agree(games[i], N);
    bt_test_each_case(BT_TEST_CASES, compare_case);
}

static void
prove_case(const oh_case *c, const char *name)
{
    bt_sequence *s;
    if (strcmp(c->check, "slow") != 0 || c->period < 0)
        return;
    s = bt_test_sequence(c->game, BT_SEQ_AUTO, 0);
    bt_test_proves_case(s, c, name, 4u << 20);
    bt_sequence_free(s);
}

static void
test_slow_proofs(void **state)
{
    (void)state;
    bt_test_each_case(BT_TEST_CASES, prove_case);
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
