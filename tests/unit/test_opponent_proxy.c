/* label: quick
 *
 * test_opponent_proxy.c -- the opponent never stalls (issue 9).
 *
 *   - Every small position of every game family, normal and misère: the
 *     opponent answers, its move is legal (bt_position_find_move from the
 *     rules), and from an N-position (brute-force oracle, oracle_search.c)
 *     it leaves a P-position.
 *   - Random medium positions whose game graph passes the remoteness
 *     budget, so that the proxy rule plays: legal; winning from an
 *     N-position (the result analysed by the library, itself checked
 *     against the oracle by test_sum.c and the others); from a P-position
 *     the move leaves the largest total of numbers among all legal moves.
 *   - Large positions (Kayles 10^12, Grundy's game 10^4, sums of 100
 *     components, 20 001 Nim piles of 1): an answer, winning where the
 *     position is N.
 *   - The analysis of a heap too big to list its moves: the winning moves
 *     of a window, marked incomplete, each leaving a P-position.
 *   - Misère beyond exact analysis: a legal move, outcome reported
 *     unknown.
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

#include "oracle_search.h"

/* Plays the opponent on p and checks the move is legal; returns the
   result (caller frees) and fills info. */
static int unchecked_ok;

static bt_position *
play_checked(const bt_position *p, int misere, bt_play_info *info,
             bt_move **mv)
{
    bt_move *got = NULL, *found = NULL;
    bt_position *q;
    bt_diag d;
    bt_status st;
    char *text = bt_position_format(p);

    memset(&d, 0, sizeof d);
    st = bt_opponent_play(&got, info, p, misere, BT_LEVEL_PERFECT, NULL, NULL,
                          &d);
    if (st != BT_OK)
        fail_msg("'%s'%s: no move: %s", text, misere ? " misère" : "",
                 d.message);
    assert_non_null(got);
    assert_non_null(got->text);
    assert_int_equal(bt_position_copy(&q, p), BT_OK);
    assert_int_equal(bt_position_apply(q, got), BT_OK);
    st = bt_position_find_move(&found, p, q, NULL, &d);
    /* a heap of 10^12 has too many moves for the rules to check one: the
       large positions' moves are checked as winning, not as legal */
    if (st == BT_ELIMIT && unchecked_ok) {
        free(text);
        if (mv != NULL)
            *mv = got;
        else
            bt_moves_free(got, 1);
        return q;
    }
    if (st != BT_OK)
        fail_msg("'%s': the move '%s' is not legal: %s", text, got->text,
                 d.message);
    bt_moves_free(found, 1);
    free(text);
    if (mv != NULL)
        *mv = got;
    else
        bt_moves_free(got, 1);
    return q;
}

/* A position of a shape: the move played must be legal, and win from an
   N-position. */
static void
visit_small(void *ud, const bt_test_pos *at)
{
    bt_position *q;
    bt_play_info info;
    int win, qwin;
    long rem;
    (void)ud;
    if (bt_position_is_terminal(at->p))
        return;
    q = play_checked(at->p, at->misere, &info, NULL);
    assert_int_equal(oracle_search_solve(at->oracle, at->p, &win, &rem), 0);
    if (info.outcome_known)
        assert_int_equal(info.outcome == BT_N, win);
    if (win) {
        assert_int_equal(oracle_search_solve(at->oracle, q, &qwin, &rem), 0);
        if (qwin)
            fail_msg("'%s'%s: N-position, the move loses", at->text,
                     at->misere ? " misère" : "");
    }
    bt_position_free(q);
}

/* Every position of a shape, both conventions, against the oracle. */
static void
all_of_shape(const char *fmt, int nums, int below)
{
    bt_test_each_position(fmt, nums, below, visit_small, NULL);
}

static void
test_small_every_family(void **state)
{
    (void)state;
    all_of_shape("%d %d %d", 3, 5);
    all_of_shape("wythoff %d %d", 2, 7);
    all_of_shape("wythoff:3 %d %d", 2, 6);
    all_of_shape("sub:1,3,4 %d %d", 2, 7);
    all_of_shape("sub:2-5 %d", 1, 20);
    all_of_shape("kayles %d %d", 2, 7);
    all_of_shape("dawsons-kayles %d %d", 2, 6);
    all_of_shape("dawsons-chess %d", 1, 12);
    all_of_shape("octal:0.137 %d %d", 2, 6);
    all_of_shape("octal:4.37 %d", 1, 10);
    all_of_shape("grundys-game %d %d", 2, 8);
    all_of_shape("nim %d + kayles %d + wythoff %d %d", 4, 3);
}

/* The outcome and the total of the numbers of a position. */
static int
is_n(const bt_position *p)
{
    bt_analysis *a;
    bt_diag d;
    int n;
    memset(&d, 0, sizeof d);
    if (bt_analyze(&a, p, 0, NULL, &d) != BT_OK)
        fail_msg("analysis: %s", d.message);
    n = bt_analysis_outcome(a) == BT_N;
    bt_analysis_free(a);
    return n;
}

static void
delta_of(mpz_t d, const bt_position *p, const bt_move *m)
{
    const mpz_t *v = bt_position_nums(p, m->component);
    unsigned j, ar = bt_game_arity(bt_position_game(p, m->component));
    size_t k;
    mpz_set_ui(d, 0);
    for (k = 0; k < m->nto; k++)
        mpz_add(d, d, m->to[k]);
    for (j = 0; j < ar; j++)
        mpz_sub(d, d, v[j]);
}

/* A medium position (normal play): legal, winning from N, and under the
   proxy from P a move of the largest total. */
static void
check_medium(const char *text, int *proxies)
{
    bt_position *p = bt_test_parse(text, "nim", NULL), *q;
    bt_play_info info;
    bt_move *got, *moves;
    size_t n, i;
    int win = is_n(p);
    bt_diag d;

    q = play_checked(p, 0, &info, &got);
    assert_true(info.outcome_known);
    assert_int_equal(info.outcome == BT_N, win);
    if (win && is_n(q))
        fail_msg("'%s': N-position, the move '%s' loses", text, got->text);
    if (info.rule == BT_RULE_PROXY)
        ++*proxies;
    if (!win && info.rule == BT_RULE_PROXY) {
        mpz_t dg, dm;
        memset(&d, 0, sizeof d);
        assert_int_equal(bt_position_moves(&moves, &n, p, NULL, &d), BT_OK);
        mpz_init(dg);
        mpz_init(dm);
        delta_of(dg, p, got);
        for (i = 0; i < n; i++) {
            delta_of(dm, p, &moves[i]);
            if (mpz_cmp(dm, dg) > 0)
                fail_msg("'%s': the proxy plays '%s', but '%s' takes fewer",
                         text, got->text, moves[i].text);
        }
        mpz_clear(dg);
        mpz_clear(dm);
        bt_moves_free(moves, n);
    }
    bt_moves_free(got, 1);
    bt_position_free(q);
    bt_position_free(p);
}

static void
test_medium_proxy(void **state)
{
    static const char *const games[] = {"kayles", "dawsons-kayles",
                                        "grundys-game", "octal:0.137",
                                        "sub:1,3,4"};
    uint64_t rng = (uint64_t)bt_test_seed();
    int proxies = 0, k;
    (void)state;
    for (k = 0; k < 30; k++) {
        char text[200];
        const char *g = games[k % 5];
        unsigned a = 20 + (unsigned)bt_rng_below(&rng, 25);
        unsigned b = 15 + (unsigned)bt_rng_below(&rng, 25);
        unsigned c = 10 + (unsigned)bt_rng_below(&rng, 25);
        if (k % 3 == 0) /* a P-position: two equal components and a third
                           of value 0 is rare; use a pair */
            snprintf(text, sizeof text, "%s %u %u + nim 3 + nim 3", g, a, a);
        else if (k % 3 == 1)
            snprintf(text, sizeof text, "%s %u %u %u", g, a, b, c);
        else
            snprintf(text, sizeof text, "%s %u + wythoff %u %u + nim %u", g,
                     a, b, c, a);
        check_medium(text, &proxies);
    }
    /* the proxy did play (else this test checks nothing of it) */
    assert_true(proxies > 0);
}

/* Large positions: an answer, winning from N. */
static void
check_large(const char *text)
{
    bt_position *p = bt_test_parse(text, "nim", NULL), *q;
    bt_play_info info;
    bt_move *got;
    int win = is_n(p);
    q = play_checked(p, 0, &info, &got);
    if (win && is_n(q))
        fail_msg("'%.60s': N-position, the move '%s' loses", text, got->text);
    bt_moves_free(got, 1);
    bt_position_free(q);
    bt_position_free(p);
}

static void
test_large(void **state)
{
    static const char *const games[] = {"kayles", "grundys-game", "nim",
                                        "sub:1-5", "octal:0.137",
                                        "dawsons-kayles"};
    uint64_t rng = (uint64_t)bt_test_seed();
    char *text;
    size_t i, len = 0;
    int round;
    (void)state;
    unchecked_ok = 1;
    check_large("kayles 1000000000000");
    check_large("kayles 1000000000001");
    check_large("kayles 1000000000000 1000000000000");
    check_large("kayles 1000000000000 + nim 5");
    check_large("dawsons-kayles 1000000000007");
    check_large("octal:4.37 999999999999");
    check_large("grundys-game 10000");
    check_large("grundys-game 10001 + grundys-game 9999");
    check_large("wythoff 100000000000000000000 161803398874989484820");
    /* sums of 100 components of mixed games, and their P-positions (each
       component twice) */
    text = malloc(100 * 40);
    assert_non_null(text);
    for (round = 0; round < 4; round++) {
        len = 0;
        for (i = 0; i < 100; i++) {
            static const char *g;
            static unsigned v;
            if (round % 2 == 0 || i % 2 == 0) {
                g = games[bt_rng_below(&rng, 6)];
                v = 1 + (unsigned)bt_rng_below(&rng, 60);
            } /* else the previous component again: a P-position */
            len += (size_t)sprintf(text + len, "%s%s %u", i ? " + " : "", g,
                                   v);
        }
        check_large(text);
    }
    free(text);
    /* 20 001 Nim piles of 1: the opponent is linear there */
    text = malloc(20001 * 2 + 1);
    assert_non_null(text);
    for (i = 0; i < 20001; i++)
        memcpy(text + 2 * i, "1 ", 2);
    text[2 * 20001 - 1] = '\0';
    check_large(text);
    free(text);
    unchecked_ok = 0;
}

/* The analysis of a heap too big to list its moves gives those of a
   window, marked incomplete, each winning. */
static void
test_analysis_window(void **state)
{
    static const char *const texts[] = {
        "kayles 1000000000000", "kayles 1000000000000 + nim 3",
        "dawsons-kayles 1000000000007", "octal:0.137 99999999999"};
    size_t i, k;
    (void)state;
    for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        bt_position *p = bt_test_parse(texts[i], "nim", NULL);
        bt_analysis *a;
        bt_diag d;
        memset(&d, 0, sizeof d);
        assert_int_equal(bt_analyze(&a, p, 0, NULL, &d), BT_OK);
        if (bt_analysis_outcome(a) == BT_N) {
            assert_false(bt_analysis_moves_complete(a));
            if (bt_analysis_move_count(a) == 0)
                fail_msg("'%s': no winning move listed", texts[i]);
            for (k = 0; k < bt_analysis_move_count(a); k++) {
                bt_position *q;
                assert_int_equal(bt_position_copy(&q, p), BT_OK);
                assert_int_equal(
                    bt_position_apply(q, bt_analysis_move(a, k)), BT_OK);
                if (is_n(q))
                    fail_msg("'%s': the listed move '%s' does not win",
                             texts[i], bt_analysis_move(a, k)->text);
                bt_position_free(q);
            }
        }
        bt_analysis_free(a);
        bt_position_free(p);
    }
}

/* Misère beyond the exact analysis: a legal move, outcome unknown. */
static void
test_misere_fallback(void **state)
{
    static const char *const texts[] = {"kayles 1 2929 6 2",
                                        "kayles 40 38 33 + grundys-game 50",
                                        "dawsons-kayles 300 299",
                                        "octal:0.137 200 100 50"};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        bt_position *p = bt_test_parse(texts[i], "nim", NULL), *q;
        bt_play_info info;
        q = play_checked(p, 1, &info, NULL);
        if (i == 0) /* far beyond the exact search */
            assert_int_equal(info.rule, BT_RULE_HEURISTIC);
        if (info.rule == BT_RULE_HEURISTIC) {
            assert_false(info.outcome_known);
            assert_string_equal(bt_rule_name(info.rule), "heuristic");
        } else {
            assert_true(info.outcome_known);
        }
        bt_position_free(q);
        bt_position_free(p);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_every_family),
        cmocka_unit_test(test_medium_proxy),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_analysis_window),
        cmocka_unit_test(test_misere_fallback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
