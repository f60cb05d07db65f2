/* label: quick
 *
 * test_remoteness.c -- remoteness against the brute-force oracle
 * (tests/oracle/oracle_search.c, from the definitions alone):
 *   - Nim's closed forms (bt_remoteness) on every position of up to three
 *     piles of up to 6 counters, four of up to 4 and five of up to 2,
 *     normal and misère;
 *   - the solver (bt_solver) on small positions of the other games and of
 *     sums, normal and misère;
 *   - the closed forms at sizes no search reaches, against the theorem's
 *     statement; the solver's limit; a long game that would exhaust a
 *     recursive search's stack;
 *   - the remoteness of an analysis (BT_REMOTENESS): on every small Nim
 *     position, with its moves or without (BT_NO_MOVES); exact where its
 *     budget reaches, else left out with the reason; at any size for Nim;
 *     the budget kept while a position's moves are listed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/resource.h>

#include <cmocka.h>

#include <bouton.h>

#include "testutil.h"

#include "oracle_search.h"

/* Checks bt_remoteness and the solver of the pass's convention (ud:
   bt_solver *[2], one per convention) on a position. */
static void
check(void *ud, const bt_test_pos *at)
{
    oracle_search *o = at->oracle;
    bt_solver *s = ((bt_solver **)ud)[at->misere];
    const bt_position *p = at->p;
    const char *text = at->text;
    int misere = at->misere;
    int win;
    long rem, srem;
    bt_outcome out;
    mpz_t r;
    bt_diag d;

    memset(&d, 0, sizeof d);
    if (oracle_search_solve(o, p, &win, &rem) != 0)
        fail_msg("oracle failed on '%s'", text);
    mpz_init(r);
    if (bt_remoteness(r, p, misere, NULL, &d) != BT_OK)
        fail_msg("bt_remoteness '%s': %s", text, d.message);
    if (mpz_cmp_si(r, rem) != 0)
        fail_msg("'%s'%s: remoteness %ld, oracle %ld", text,
                 misere ? " misère" : "", mpz_get_si(r), rem);
    if (bt_solver_solve(s, &out, &srem, p, NULL, &d) != BT_OK)
        fail_msg("solver '%s': %s", text, d.message);
    if (srem != rem || (out == BT_N) != win)
        fail_msg("'%s'%s: solver %c %ld, oracle %c %ld", text,
                 misere ? " misère" : "", out == BT_N ? 'N' : 'P', srem,
                 win ? 'N' : 'P', rem);
    mpz_clear(r);
}

/* Every position of a shape, both conventions, each with a solver of its
   own kept over the shape. */
static void
all_of_shape(const char *fmt, int nums, int below)
{
    bt_solver *s[2];
    assert_int_equal(bt_solver_new(&s[0], 0, 1000000), BT_OK);
    assert_int_equal(bt_solver_new(&s[1], 1, 1000000), BT_OK);
    bt_test_each_position(fmt, nums, below, check, s);
    bt_solver_free(s[0]);
    bt_solver_free(s[1]);
}

/* Every tuple of k piles below `below`, Nim, both conventions; the solver
   too, so that it is checked on Nim as well. */
static void
nim_all(int k, int below)
{
    static const char *const fmt[] = {"%d", "%d %d", "%d %d %d",
                                      "%d %d %d %d", "%d %d %d %d %d"};
    all_of_shape(fmt[k - 1], k, below);
}

static void
test_nim_closed_forms(void **state)
{
    (void)state;
    nim_all(1, 9);
    nim_all(2, 9);
    nim_all(3, 7);
    nim_all(4, 5);
    nim_all(5, 3);
}

/* The remoteness of an analysis of Nim (BT_REMOTENESS: the closed forms
   from the outcome and the moves the analysis found, handed down), and
   with BT_NO_MOVES too (the moves listed for the closed forms, then
   dropped: normal play answers none), against the oracle. */
static void
check_analysis(void *ud, const bt_test_pos *at)
{
    static const unsigned extra[] = {0, BT_NO_MOVES};
    size_t k;
    int win;
    long rem;
    (void)ud;
    if (oracle_search_solve(at->oracle, at->p, &win, &rem) != 0)
        fail_msg("oracle failed on '%s'", at->text);
    for (k = 0; k < 2; k++) {
        bt_analysis *a;
        bt_diag d;
        unsigned flags = BT_REMOTENESS | extra[k] |
                         (at->misere ? BT_MISERE : 0);
        memset(&d, 0, sizeof d);
        if (bt_analyze(&a, at->p, flags, NULL, &d) != BT_OK)
            fail_msg("analyze '%s': %s", at->text, d.message);
        if (bt_analysis_remoteness(a) != rem ||
            (bt_analysis_outcome(a) == BT_N) != win)
            fail_msg("'%s'%s%s: analysis %c %ld, oracle %c %ld", at->text,
                     at->misere ? " misère" : "",
                     extra[k] ? " (no moves)" : "",
                     bt_analysis_outcome(a) == BT_N ? 'N' : 'P',
                     bt_analysis_remoteness(a), win ? 'N' : 'P', rem);
        if (extra[k] && !at->misere)
            assert_int_equal(bt_analysis_move_count(a), 0);
        bt_analysis_free(a);
    }
}

static void
test_nim_analysis(void **state)
{
    (void)state;
    bt_test_each_position("%d %d %d", 3, 7, check_analysis, NULL);
    bt_test_each_position("%d %d %d %d", 4, 4, check_analysis, NULL);
}

/* Positions of other games and sums, every small one of each shape. */
static void
test_solver_games(void **state)
{
    static const struct {
        const char *fmt; /* printf with the numbers */
        int nums, below;
    } shapes[] = {
        {"wythoff %d %d", 2, 7},
        {"wythoff %d %d + wythoff %d %d", 4, 3},
        {"wythoff:2 %d %d", 2, 5},
        {"sub:1-3 %d %d", 2, 8},
        {"sub:1,3 %d %d %d", 3, 5},
        {"kayles %d %d", 2, 6},
        {"dawsons-kayles %d", 1, 12},
        {"grundys-game %d %d", 2, 7},
        {"octal:0.137 %d %d", 2, 6},
        {"nim %d + kayles %d + wythoff %d %d", 4, 3},
    };
    size_t sh;
    (void)state;
    for (sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        all_of_shape(shapes[sh].fmt, shapes[sh].nums, shapes[sh].below);
}

/* The closed forms at sizes beyond any search: a P-position's remoteness
   is the number of counters (less one in misère play). */
static void
test_nim_huge(void **state)
{
    bt_position *p;
    mpz_t r, t;
    (void)state;
    mpz_init(r);
    mpz_init(t);
    /* 2^200 + 5, 2^200 + 3, 6: nim-sum 0 */
    p = bt_test_parse(
        "1606938044258990275541962092341162602522202993782792835301381 "
        "1606938044258990275541962092341162602522202993782792835301379 "
        "6",
        "nim", NULL);
    assert_int_equal(bt_remoteness(r, p, 0, NULL, NULL), BT_OK);
    mpz_ui_pow_ui(t, 2, 201);
    mpz_add_ui(t, t, 14);
    assert_true(mpz_cmp(r, t) == 0);
    assert_int_equal(bt_remoteness(r, p, 1, NULL, NULL), BT_OK);
    mpz_sub_ui(t, t, 1);
    assert_true(mpz_cmp(r, t) == 0);
    bt_position_free(p);
    /* an N-position: 2^200+5, 2^200+3, 7 -> the winning move takes 1 from
       the last pile (the only one with bit 0... of s = 1): T - 1 + 1 */
    p = bt_test_parse(
        "1606938044258990275541962092341162602522202993782792835301381 "
        "1606938044258990275541962092341162602522202993782792835301379 "
        "7",
        "nim", NULL);
    assert_int_equal(bt_remoteness(r, p, 0, NULL, NULL), BT_OK);
    mpz_ui_pow_ui(t, 2, 201);
    mpz_add_ui(t, t, 14 + 1); /* P-child has T - 1 = 2^201 + 14 counters */
    assert_true(mpz_cmp(r, t) == 0);
    bt_position_free(p);
    mpz_clear(r);
    mpz_clear(t);
}

/* The solver stops at its limit with BT_ELIMIT, and keeps what it stored;
   a game 60 000 moves long does not exhaust the stack. */
static void
test_solver_limits(void **state)
{
    bt_solver *s;
    bt_position *p =
        bt_test_parse("kayles 30 + nim 25 + wythoff 30 40", "nim", NULL);
    bt_outcome out;
    long rem;
    bt_diag d;
    mpz_t r;
    (void)state;
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_solver_new(&s, 0, 1000), BT_OK);
    assert_int_equal(bt_solver_solve(s, &out, &rem, p, NULL, &d), BT_ELIMIT);
    assert_true(strstr(d.message, "1000") != NULL);
    assert_true(bt_solver_size(s) > 0 && bt_solver_size(s) <= 1000);
    bt_solver_free(s);
    bt_position_free(p);

    /* 60 000 levels: a recursive search with a few hundred bytes of stack
       per level would need far more than the usual 8 MiB */
    p = bt_test_parse("sub:1 60000", "nim", NULL);
    mpz_init(r);
    assert_int_equal(bt_remoteness(r, p, 1, NULL, &d), BT_OK);
    assert_true(mpz_cmp_ui(r, 60000) == 0);
    mpz_clear(r);
    bt_position_free(p);
}

/* The remoteness of an analysis (BT_REMOTENESS) is bounded: exact where
   its budget reaches (against the oracle), else left out with the reason,
   never silently; at any size for Nim. */
static void
test_analysis_bounded(void **state)
{
    static const char *const small[] = {
        "3 4 5", "wythoff 4 7", "kayles 5 3", "grundys-game 9",
        "sub:1-3 10 + nim 2", "wythoff 2 3 + kayles 4"};
    static const char *const big[] = {
        "grundys-game 3000", "kayles 40", "wythoff 300 400",
        "octal:4.37 3000", "kayles 14 13 12"};
    size_t i;
    int misere;
    mpz_t r, want;
    (void)state;
    mpz_init(r);
    mpz_init(want);
    for (misere = 0; misere < 2; misere++) {
        oracle_search *o = oracle_search_new(misere);
        for (i = 0; i < sizeof small / sizeof small[0]; i++) {
            bt_position *p = bt_test_parse(small[i], "nim", NULL);
            bt_analysis *a;
            bt_diag d;
            int win;
            long rem;
            memset(&d, 0, sizeof d);
            assert_int_equal(bt_analyze(&a, p,
                                        BT_REMOTENESS |
                                            (misere ? BT_MISERE : 0),
                                        NULL, &d),
                             BT_OK);
            assert_int_equal(oracle_search_solve(o, p, &win, &rem), 0);
            if (bt_analysis_remoteness_mpz(r, a) != BT_OK)
                fail_msg("'%s': remoteness left out: %s", small[i],
                         bt_analysis_remoteness_reason(a)
                             ? bt_analysis_remoteness_reason(a)
                             : "(no reason)");
            assert_true(mpz_cmp_si(r, rem) == 0);
            assert_int_equal(bt_analysis_remoteness(a), rem);
            assert_null(bt_analysis_remoteness_reason(a));
            bt_analysis_free(a);
            /* not asked for: none, and no reason */
            assert_int_equal(bt_analyze(&a, p, misere ? BT_MISERE : 0, NULL,
                                        &d),
                             BT_OK);
            assert_int_equal(bt_analysis_remoteness_mpz(r, a), BT_EUNDEF);
            assert_null(bt_analysis_remoteness_reason(a));
            assert_int_equal(bt_analysis_remoteness(a), -1);
            bt_analysis_free(a);
            bt_position_free(p);
        }
        oracle_search_free(o);
    }
    for (i = 0; i < sizeof big / sizeof big[0]; i++) {
        bt_position *p = bt_test_parse(big[i], "nim", NULL);
        bt_analysis *a;
        bt_diag d;
        memset(&d, 0, sizeof d);
        assert_int_equal(bt_analyze(&a, p, BT_REMOTENESS, NULL, &d), BT_OK);
        assert_int_equal(bt_analysis_remoteness_mpz(r, a), BT_EUNDEF);
        assert_int_equal(bt_analysis_remoteness(a), -1);
        assert_non_null(bt_analysis_remoteness_reason(a));
        assert_non_null(strstr(bt_analysis_remoteness_reason(a),
                               "remoteness budget"));
        bt_analysis_free(a);
        bt_position_free(p);
    }
    {
        /* Nim past 2^63: the closed form, as a number of any size */
        bt_position *p = bt_test_parse(
            "4611686018427387904 4611686018427387904 7", "nim", NULL);
        bt_analysis *a;
        bt_diag d;
        memset(&d, 0, sizeof d);
        assert_int_equal(bt_analyze(&a, p, BT_REMOTENESS, NULL, &d), BT_OK);
        assert_int_equal(bt_analysis_remoteness_mpz(r, a), BT_OK);
        assert_int_equal(bt_remoteness(want, p, 0, NULL, &d), BT_OK);
        assert_true(mpz_cmp(r, want) == 0);
        assert_true(mpz_cmp_ui(r, 1) > 0 && !mpz_fits_slong_p(r));
        assert_int_equal(bt_analysis_remoteness(a), -1);
        bt_analysis_free(a);
        bt_position_free(p);
    }
    mpz_clear(r);
    mpz_clear(want);
}

/* The CPU seconds of the process so far. */
static double
cpu_seconds(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

/* The most memory the process has held so far, in KB (Linux: ru_maxrss). */
static long
peak_kb(void)
{
    struct rusage ru;
    assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
    return ru.ru_maxrss;
}

/*
 * The remoteness budget holds while a position's moves are listed, not
 * only once they are (issue 26): moore:5 with six piles of 2 000 digits
 * has 10^5 moves of 5 KB, listed whole before the budget was asked (500
 * MB for a 16 MiB budget); now the remoteness is left out having held a
 * few MB.  It runs first, so that the process's peak is still its own.
 * And bt_remoteness, which the remoteness budget does not bound, keeps
 * lim->max_memory (it searched on to max_search positions).  Each takes
 * under 0.1 s of CPU in a release build; bound: 5 s each.
 */
static void
test_budget_while_listing(void **state)
{
    bt_game *g;
    bt_position *p;
    bt_analysis *a;
    bt_limits lim;
    bt_diag d;
    double t0;
    long kb0;
    size_t i;
    mpz_t x[6], r;
    (void)state;
    g = bt_test_game("moore:5");
    mpz_init(x[0]);
    for (i = 0; i < 2000; i++) {
        mpz_mul_ui(x[0], x[0], 10);
        mpz_add_ui(x[0], x[0], 7);
    }
    for (i = 1; i < 6; i++)
        mpz_init_set(x[i], x[0]);
    assert_int_equal(bt_position_new(&p), BT_OK);
    assert_int_equal(bt_position_add_n(p, g, (const mpz_t *)x, 6, NULL, NULL),
                     BT_OK);
    kb0 = peak_kb();
    t0 = cpu_seconds();
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_analyze(&a, p, BT_REMOTENESS, NULL, &d), BT_OK);
    assert_int_equal(bt_analysis_outcome(a), BT_P);
    assert_int_equal(bt_analysis_remoteness(a), -1);
    assert_non_null(bt_analysis_remoteness_reason(a));
    if (strstr(bt_analysis_remoteness_reason(a), "remoteness budget") == NULL)
        fail_msg("reason: %s", bt_analysis_remoteness_reason(a));
    bt_analysis_free(a);
    if (peak_kb() - kb0 > 64 * 1024)
        fail_msg("the remoteness held %ld KB", peak_kb() - kb0);
    if (cpu_seconds() - t0 > bt_test_cpu_bound(5))
        fail_msg("%.2f s of CPU", cpu_seconds() - t0);
    bt_position_free(p);
    bt_game_free(g);
    for (i = 0; i < 6; i++)
        mpz_clear(x[i]);

    /* bt_remoteness of a long sum: its table passes 1 MB long before
       100 000 positions */
    p = bt_test_parse("sub:1-3 100000 + sub:1-3 100000", NULL, NULL);
    bt_limits_default(&lim);
    lim.max_search = 100000;
    lim.max_memory = (size_t)1 << 20;
    mpz_init(r);
    memset(&d, 0, sizeof d);
    t0 = cpu_seconds();
    assert_int_equal(bt_remoteness(r, p, 0, &lim, &d), BT_ELIMIT);
    if (strstr(d.message, "max_memory") == NULL)
        fail_msg("message: %s", d.message);
    if (cpu_seconds() - t0 > bt_test_cpu_bound(5))
        fail_msg("%.2f s of CPU", cpu_seconds() - t0);
    mpz_clear(r);
    bt_position_free(p);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget_while_listing),
        cmocka_unit_test(test_nim_closed_forms),
        cmocka_unit_test(test_nim_analysis),
        cmocka_unit_test(test_solver_games),
        cmocka_unit_test(test_nim_huge),
        cmocka_unit_test(test_solver_limits),
        cmocka_unit_test(test_analysis_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
