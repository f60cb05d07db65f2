/* label: quick
 *
 * test_sequence.c -- the Grundy sequence engine (bouton/grundy.h): every
 * method (plain, rare values, sliding windows) against the brute-force
 * oracle of tests/oracle/oracle_heap.c on the first values of many games,
 * fixed and random; the rare-value method against the plain one; the
 * published sequences of tests/cases/grundy_*.txt with their periods and
 * preperiods; periods against the oracle's naive period finder; huge heaps
 * from the proved period; the limits and errors.
 *
 * BT_TEST_SEED in the environment sets the seed of the random tests; a
 * failure prints it.  The long comparisons (20 000 values, the proofs of
 * 0.16, 0.127 and 0.56) are in test_sequence_slow.c.
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

static unsigned long seed;

/* The games of the fixed tests: octal codes of every shape (d0 = 4, digits
   1 and 2 without splits, long codes, no sparse space), subtraction sets
   small and large (sliding windows), Grundy's game. */
static const char *const games[] = {
    "kayles",       "dawsons-kayles",    "dawsons-chess",  "double-kayles",
    "officers",     "treblecross",       "octal:0.16",     "octal:0.354",
    "octal:0.127",  "octal:0.56",        "octal:4.7",      "octal:4.07",
    "octal:4.0",    "octal:0.1",         "octal:0.2",      "octal:0.3",
    "octal:0.12",   "octal:0.51",        "octal:0.004",    "octal:0.4",
    "octal:0.1777", "octal:0.0000007",   "sub:1-3",        "sub:2,5,7",
    "sub:3",        "sub:1-40,45,50-90", "sub:2-35,37-80", "grundy",
};
#define NGAMES (sizeof games / sizeof games[0])

static unsigned long
next_rand(void)
{
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return seed >> 33;
}

/* Checks the three methods against the oracle on G(0..n-1). */
static void
check_oracle(const char *spec, size_t n)
{
    static const bt_seq_method ms[] = {BT_SEQ_PLAIN, BT_SEQ_RARE, BT_SEQ_AUTO};
    oh_game *o = oh_game_new(spec);
    unsigned *want;
    size_t k, i;
    assert_non_null(o);
    want = oh_grundy(o, (unsigned)n);
    assert_non_null(want);
    for (k = 0; k < 3; k++) {
        bt_sequence *s = bt_test_sequence(spec, ms[k], n);
        for (i = 0; i < n; i++)
            if (bt_sequence_value(s, i) != want[i])
                fail_msg("%s method %d: G(%zu) = %u, oracle %u (seed %lu)",
                         spec, (int)ms[k], i, bt_sequence_value(s, i), want[i],
                         seed);
        bt_sequence_free(s);
    }
    free(want);
    oh_game_free(o);
}

static void
test_oracle_games(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < NGAMES; i++)
        check_oracle(games[i], 500);
}

/* Random octal codes: d0 in {0, 4}, up to five digits after the point. */
static void
random_code(char *buf)
{
    size_t nd = 1 + next_rand() % 5, i;
    buf[0] = next_rand() % 3 == 0 ? '4' : '0';
    buf[1] = '.';
    for (i = 0; i < nd; i++)
        buf[2 + i] = (char)('0' + next_rand() % 8);
    if (buf[1 + nd] == '0')
        buf[1 + nd] = (char)('1' + next_rand() % 7);
    buf[2 + nd] = '\0';
}

static void
test_oracle_random(void **state)
{
    int t;
    (void)state;
    for (t = 0; t < 60; t++) {
        char code[16], spec[32];
        random_code(code);
        snprintf(spec, sizeof spec, "octal:%s", code);
        check_oracle(spec, 300);
    }
}

/* Rare values and the plain method agree on the first 3000 values (20 000
   in test_sequence_slow.c). */
static void
test_rare_vs_plain(void **state)
{
    size_t k;
    (void)state;
    for (k = 0; k < NGAMES; k++)
        bt_test_methods_agree(games[k], 3000);
}

/* Each published sequence: the values, and (check quick) the proof. */
static void
check_case(const oh_case *c, const char *name)
{
    bt_sequence *s;
    size_t i, n;

    n = c->nvalues ? (size_t)c->offset + c->nvalues : 1000;
    s = bt_test_sequence(c->game, BT_SEQ_AUTO, n);
    for (i = 0; i < c->nvalues; i++)
        if (bt_sequence_value(s, (size_t)c->offset + i) != c->values[i])
            fail_msg("%s: G(%zu) = %u, published %u", name,
                     (size_t)c->offset + i,
                     bt_sequence_value(s, (size_t)c->offset + i), c->values[i]);
    if (c->ppos_mod > 0)
        for (i = 0; i < n; i++)
            assert_int_equal(bt_sequence_value(s, i) == 0,
                             (long)(i % (size_t)c->ppos_mod) == c->ppos_rem);
    if (c->period > 0 && strcmp(c->check, "quick") == 0)
        bt_test_proves_case(s, c, name, 1u << 20);
    bt_sequence_free(s);
}

static void
test_published(void **state)
{
    (void)state;
    assert_true(bt_test_each_case(BT_TEST_CASES, check_case) >= 18);
}

/* Proved periods against the naive least period of a long oracle run. */
static void
test_period_oracle(void **state)
{
    int t, proved = 0;
    (void)state;
    for (t = 0; t < 120; t++) {
        char code[16], spec[32];
        bt_game *g;
        bt_sequence *s = NULL;
        size_t p, pre, op, opre, n;
        oh_game *o;
        unsigned *v;
        random_code(code);
        snprintf(spec, sizeof spec, "octal:%s", code);
        g = bt_test_game(spec);
        assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, NULL), BT_OK);
        bt_game_free(g);
        assert_int_equal(bt_sequence_prove(s, 1500, NULL, NULL), BT_OK);
        if (!bt_sequence_is_proved(s)) {
            bt_sequence_free(s);
            continue;
        }
        proved++;
        assert_true(bt_sequence_period(s, &p, &pre));
        n = 3 * bt_sequence_length(s) + 200;
        o = oh_game_new(spec);
        v = oh_grundy(o, (unsigned)n);
        assert_int_equal(oh_period(v, n, n / 2, &op, &opre), 1);
        if (op != p || opre != pre)
            fail_msg("%s: proved period %zu preperiod %zu, the oracle's %zu "
                     "%zu (seed %lu)",
                     spec, p, pre, op, opre, seed);
        free(v);
        oh_game_free(o);
        bt_sequence_free(s);
    }
    assert_true(proved >= 30);
}

/* Subtraction games: the proof window of max(S), and the sets of the
   sliding windows. */
static void
test_subtraction(void **state)
{
    bt_sequence *s;
    size_t p, pre;
    (void)state;
    /* 1, 2, 3: G(n) = n mod 4, proved from the window 0 <= n < 3 */
    s = bt_test_sequence("sub:1-3", BT_SEQ_AUTO, 7);
    assert_true(bt_sequence_is_proved(s));
    assert_true(bt_sequence_period(s, &p, &pre));
    assert_int_equal(p, 4);
    assert_int_equal(pre, 0);
    bt_sequence_free(s);
    /* 1..90: G(n) = n mod 91 */
    s = bt_test_sequence("sub:1-90", BT_SEQ_AUTO, 400);
    assert_string_equal(bt_sequence_method_name(s), "window");
    assert_true(bt_sequence_is_proved(s));
    assert_true(bt_sequence_period(s, &p, &pre));
    assert_int_equal(p, 91);
    assert_int_equal(pre, 0);
    bt_sequence_free(s);
}

/* Kayles up to 100 shows the period without proving it; up to 90 shows
   nothing (fewer than two periods after the preperiod); 168 values prove
   it (2 * 71 + 12 + 2 + 12). */
static void
test_detection(void **state)
{
    bt_sequence *s;
    size_t p, pre;
    (void)state;
    s = bt_test_sequence("kayles", BT_SEQ_AUTO, 100);
    assert_true(bt_sequence_period(s, &p, &pre));
    assert_int_equal(p, 12);
    assert_int_equal(pre, 71);
    assert_false(bt_sequence_is_proved(s));
    bt_sequence_free(s);
    s = bt_test_sequence("kayles", BT_SEQ_AUTO, 90);
    assert_false(bt_sequence_period(s, &p, &pre));
    bt_sequence_free(s);
    s = bt_test_sequence("kayles", BT_SEQ_AUTO, 167);
    assert_false(bt_sequence_is_proved(s));
    bt_sequence_free(s);
    s = bt_test_sequence("kayles", BT_SEQ_AUTO, 168);
    assert_true(bt_sequence_is_proved(s));
    bt_sequence_free(s);
    /* Grundy's game: never proved */
    s = bt_test_sequence("grundy", BT_SEQ_AUTO, 10);
    assert_int_equal(bt_sequence_prove(s, 3000, NULL, NULL), BT_OK);
    assert_false(bt_sequence_is_proved(s));
    assert_int_equal(bt_sequence_length(s), 3000);
    bt_sequence_free(s);
}

/* Subtraction games with long runs of equal values (every p below the
   run's length repeats far back): the proved periods against the
   oracle's naive finder. */
static void
test_detection_runs(void **state)
{
    static const char *const specs[] = {"sub:50,101,203", "sub:64,65",
                                        "sub:100,150,251", "sub:30,61,90"};
    size_t k;
    (void)state;
    for (k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        bt_sequence *s = bt_test_sequence(specs[k], BT_SEQ_AUTO, 10);
        size_t p, pre, op, opre, n;
        oh_game *o = oh_game_new(specs[k]);
        unsigned *v;
        assert_int_equal(bt_sequence_prove(s, 200000, NULL, NULL), BT_OK);
        if (!bt_sequence_is_proved(s))
            fail_msg("%s: not proved within 200000 values", specs[k]);
        assert_true(bt_sequence_period(s, &p, &pre));
        n = 3 * bt_sequence_length(s) + 200;
        v = oh_grundy(o, (unsigned)n);
        assert_int_equal(oh_period(v, n, n / 2, &op, &opre), 1);
        if (op != p || opre != pre)
            fail_msg("%s: proved period %zu preperiod %zu, the oracle's %zu "
                     "%zu",
                     specs[k], p, pre, op, opre);
        free(v);
        oh_game_free(o);
        bt_sequence_free(s);
    }
}

/* An interrupt that stops once the sequence ud has `stop_at` values (so
   only what runs after the values can see it), or past a CPU deadline. */
static size_t stop_at;
static clock_t cpu_deadline;

static int
stop_after_values(void *ud)
{
    return bt_sequence_length(ud) >= stop_at || clock() > cpu_deadline;
}

/*
 * Period detection is linear and polls (issue 26, finding 3): on
 * sub:1000000,2000001,4000003 the values come in runs of a million equal
 * ones, on which the scan back from the end for every period took O(n^2):
 * 3.5 million values ran past 100 s (2.5 million: 0.6 s).  CPU budget:
 * about 0.5 s in all now; the deadline of 20 s of CPU only turns a
 * regression into a failure rather than a hang.
 */
static void
test_detection_bounded(void **state)
{
    bt_game *g = bt_test_game("sub:1000000,2000001,4000003");
    bt_sequence *s = NULL;
    bt_limits lim;
    bt_diag d;
    (void)state;
    bt_limits_default(&lim);
    lim.interrupt = stop_after_values;
    cpu_deadline = clock() + 20 * CLOCKS_PER_SEC;
    /* the proof runs to its limit and stops there, not proved */
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_OK);
    lim.interrupt_ud = s;
    stop_at = SIZE_MAX;
    assert_int_equal(bt_sequence_prove(s, 3500000, &lim, &d), BT_OK);
    assert_false(bt_sequence_is_proved(s));
    assert_int_equal(bt_sequence_length(s), 3500000);
    assert_true(clock() < cpu_deadline);
    bt_sequence_free(s);
    /* the detection after the values polls the interrupt: 5 million values
       (more than the poll interval) and an interrupt that stops only once
       they are all there */
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_OK);
    lim.interrupt_ud = s;
    stop_at = 5000000;
    assert_int_equal(bt_sequence_compute(s, 5000000, &lim, &d), BT_EINTR);
    assert_int_equal(bt_sequence_length(s), 5000000);
    assert_non_null(strstr(d.message, "period"));
    assert_true(clock() < cpu_deadline);
    /* and, not interrupted, detects nothing there */
    lim.interrupt = NULL;
    assert_int_equal(bt_sequence_compute(s, 5000000, &lim, &d), BT_OK);
    assert_false(bt_sequence_period(s, NULL, NULL));
    bt_sequence_free(s);
    /* the scratch of the detection counts against max_memory */
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_OK);
    lim.max_memory = 3000000;
    assert_int_equal(bt_sequence_compute(s, 1000000, &lim, &d), BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_memory"));
    bt_sequence_free(s);
    bt_game_free(g);
}

/* G of a heap of 10^1000 from the proved period, checked against the
   oracle's values and GMP arithmetic done here. */
static void
test_huge(void **state)
{
    static const char *const specs[] = {"kayles", "dawsons-kayles", "sub:2,5,7",
                                        "octal:4.7"};
    size_t k;
    (void)state;
    for (k = 0; k < 4; k++) {
        bt_sequence *s = bt_test_sequence(specs[k], BT_SEQ_AUTO, 10);
        oh_game *o = oh_game_new(specs[k]);
        unsigned *v;
        size_t p, pre;
        mpz_t n, r, got;
        bt_diag d;
        assert_int_equal(bt_sequence_prove(s, 100000, NULL, NULL), BT_OK);
        assert_true(bt_sequence_is_proved(s));
        assert_true(bt_sequence_period(s, &p, &pre));
        v = oh_grundy(o, (unsigned)(pre + p));
        mpz_inits(n, r, got, NULL);
        mpz_ui_pow_ui(n, 10, 1000);
        mpz_add_ui(n, n, 12345);
        mpz_sub_ui(r, n, pre);
        mpz_fdiv_r_ui(r, r, p);
        assert_int_equal(bt_sequence_grundy(got, s, n, &d), BT_OK);
        assert_int_equal(mpz_get_ui(got), v[pre + mpz_get_ui(r)]);
        mpz_clears(n, r, got, NULL);
        free(v);
        oh_game_free(o);
        bt_sequence_free(s);
    }
}

static int
always(void *ud)
{
    (void)ud;
    return 1;
}

static void
test_limits(void **state)
{
    bt_game *g;
    bt_sequence *s = NULL;
    bt_limits lim;
    bt_diag d;
    mpz_t n, v;
    (void)state;
    bt_limits_default(&lim);
    lim.max_grundy = 1000;
    /* no sequence for Nim or Wythoff */
    g = bt_test_game("nim");
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_EINVAL);
    assert_null(s);
    assert_false(bt_sequence_is_supported(g));
    bt_game_free(g);
    g = bt_test_game("wythoff");
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_EINVAL);
    bt_game_free(g);
    /* beyond max_grundy */
    g = bt_test_game("officers");
    assert_true(bt_sequence_is_supported(g));
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_OK);
    bt_game_free(g);
    assert_int_equal(bt_sequence_compute(s, 1001, &lim, &d), BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_grundy"));
    assert_int_equal(bt_sequence_prove(s, 1001, &lim, &d), BT_ELIMIT);
    assert_int_equal(bt_sequence_prove(s, 1000, &lim, &d), BT_OK);
    assert_false(bt_sequence_is_proved(s));
    mpz_init_set_ui(n, 1000);
    mpz_init(v);
    assert_int_equal(bt_sequence_grundy(v, s, n, &d), BT_ERANGE);
    assert_non_null(strstr(d.message, "beyond"));
    mpz_set_ui(n, 999);
    assert_int_equal(bt_sequence_grundy(v, s, n, &d), BT_OK);
    bt_sequence_free(s);
    /* interrupted, then resumed to the same values */
    g = bt_test_game("octal:0.16");
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_PLAIN, &d), BT_OK);
    bt_game_free(g);
    lim.max_grundy = 1u << 20;
    lim.interrupt = always;
    assert_int_equal(bt_sequence_compute(s, 20000, &lim, &d), BT_EINTR);
    assert_true(bt_sequence_length(s) < 20000);
    lim.interrupt = NULL;
    assert_int_equal(bt_sequence_compute(s, 20000, &lim, &d), BT_OK);
    {
        bt_sequence *r = bt_test_sequence("octal:0.16", BT_SEQ_RARE, 20000);
        size_t i;
        for (i = 0; i < 20000; i++)
            assert_int_equal(bt_sequence_value(s, i), bt_sequence_value(r, i));
        bt_sequence_free(r);
    }
    bt_sequence_free(s);
    /* a value that does not fit in 16 bits: G(n) = n mod 70001 */
    g = bt_test_game("sub:1-70000");
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_OK);
    bt_game_free(g);
    assert_int_equal(bt_sequence_compute(s, 70000, &lim, &d), BT_ELIMIT);
    assert_non_null(strstr(d.message, "65536"));
    bt_sequence_free(s);
    mpz_clears(n, v, NULL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_games),
        cmocka_unit_test(test_oracle_random),
        cmocka_unit_test(test_rare_vs_plain),
        cmocka_unit_test(test_published),
        cmocka_unit_test(test_period_oracle),
        cmocka_unit_test(test_subtraction),
        cmocka_unit_test(test_detection),
        cmocka_unit_test(test_detection_runs),
        cmocka_unit_test(test_detection_bounded),
        cmocka_unit_test(test_huge),
        cmocka_unit_test(test_limits),
    };
    const char *env = getenv("BT_TEST_SEED");
    seed = env ? strtoul(env, NULL, 10) : 20261122UL;
    return cmocka_run_group_tests(tests, NULL, NULL);
}
