/* label: quick
 *
 * test_quotient.c -- misère quotients (src/engines/quotient.c) against brute
 * force.
 *
 *   - For heap games of the project, the quotient of the heaps up to a
 *     bound predicts the misère outcome of every sum of up to four heaps
 *     (three for the larger bounds) exactly as a brute-force solver finds
 *     it.  The solver is written here from the definition of misère play
 *     (a position with no move is won by the player to move, else it is
 *     won when some option is lost) over the options that
 *     tests/oracle/oracle_heap.c reads from the rules (nothing of src/).
 *   - bt_analyze in misère play (which now answers such sums through the
 *     quotient) gives the outcome and the exact number of winning moves of
 *     tests/oracle/oracle_search.c on the same sums.
 *   - The multiplication is associative and commutative with identity the
 *     empty sum (element 0); the heap of 0 is the identity.
 *   - Every order is even: Plambeck and Siegel 2008 (J. Combin. Theory
 *     Ser. A 115) prove that a misère quotient of impartial games has even
 *     order (restated in S. Rubinstein-Salzedo and S. Zhou, "Finite
 *     cardinalities of misère quotients", arXiv:2603.18244, sec. 1).
 *   - A finite quotient with |P| = 2 has order 2^n + 2 or 2^n + 4 (A. N.
 *     Siegel, "The structure and classification of misère quotients",
 *     arXiv:math/0703070, abstract); checked on every quotient computed
 *     here with |P| = 2 (Nim's, 0.75's of order 8, 0.53's, ...).
 *   - Misère Nim: the quotient of the Nim heaps below 2^k agrees with
 *     Bouton's sec. 6 rule (C. L. Bouton, Annals of Math. 3 (1901-02)):
 *     a position with a heap of 2 or more is P exactly when its nim-sum is
 *     0, and one of heaps 0 and 1 only when the number of ones is odd; its
 *     order is 2 for heaps of at most 1 and 2^k + 2 otherwise (the
 *     classes: 1 and a for the positions of ones, one class per nim-sum
 *     for the others), it is tame, and for heaps up to 3 its presentation
 *     is <a, b | a^2 = 1, b^3 = b> with P = {a, b^2}, as Plambeck and
 *     Siegel 2008 write the quotient of misère Nim on heaps up to 3.
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

#include "misere_agree.h"
#include "oracle_heap.h"
#include "oracle_search.h"

/* ------------------------------------------------------------- helpers */

static void
check_structure(const bt_quotient *q)
{
    size_t o = bt_quotient_order(q), x, y, z;
    for (x = 0; x < o; x++) {
        assert_int_equal(bt_quotient_mul(q, 0, x), x);
        for (y = 0; y < o; y++) {
            size_t xy = bt_quotient_mul(q, x, y);
            assert_int_equal(xy, bt_quotient_mul(q, y, x));
            for (z = 0; z < o; z++)
                assert_int_equal(bt_quotient_mul(q, xy, z),
                                 bt_quotient_mul(q, x,
                                                 bt_quotient_mul(q, y, z)));
        }
    }
    assert_int_equal(bt_quotient_heap(q, 0), 0);
    assert_false(bt_quotient_is_p(q, 0)); /* the empty sum is N */
    if (o > 1)
        assert_int_equal(o % 2, 0);
    if (bt_quotient_p_count(q) == 2 && o > 2) {
        size_t k;
        int ok = 0;
        for (k = 1; k < 30; k++)
            ok |= o == ((size_t)1 << k) + 2 || o == ((size_t)1 << k) + 4;
        if (!ok)
            fail_msg("|P| = 2 with order %zu", o);
    }
}

/* The quotient of spec to n predicts every sum of k heaps <= n. */
static void
check_game(const char *spec, unsigned n, size_t k)
{
    bt_quotient *q = bt_test_quotient(spec, n, 0);
    oh_game *og = oh_game_new(spec);
    oh_misere *b = oh_misere_new(og);
    unsigned h[8] = {0};
    size_t count = 0;
    assert_non_null(og);
    assert_non_null(b);
    check_structure(q);
    do {
        int want = oh_misere_is_p(b, h, k);
        int got = bt_quotient_is_p(q, bt_test_quotient_sum(q, h, k));
        if (want != got)
            fail_msg("%s to %u: heaps %u %u %u %u: quotient says %s, brute "
                     "force %s",
                     spec, n, h[0], h[1], k > 2 ? h[2] : 0,
                     k > 3 ? h[3] : 0, got ? "P" : "N", want ? "P" : "N");
        count++;
    } while (bt_test_next_multiset(h, k, n));
    assert_true(count > 100);
    oh_misere_free(b);
    oh_game_free(og);
    bt_quotient_free(q);
}

/* n, or at most cap under valgrind (bt_test_light): the exhaustive checks
   below take minutes there at their full bounds. */
static unsigned
bound(unsigned n, unsigned cap)
{
    return bt_test_light() && n > cap ? cap : n;
}

static void
test_brute_force(void **state)
{
    /* bounds: sums of three heaps up to n3, of four up to n4 (0.35's
       quotient grows fast: order 246 for heaps up to 10) */
    static const struct {
        const char *spec;
        unsigned n3, n4;
    } games[] = {
        {"kayles", 12, 7},    {"dawsons-kayles", 12, 7}, {"octal:0.75", 10, 7},
        {"octal:0.137", 10, 7}, {"octal:0.31", 10, 7}, {"octal:0.35", 7, 5},
        {"octal:0.52", 10, 7}, {"octal:0.53", 12, 7},  {"sub:1-3", 10, 7},
        {"sub:2,3", 10, 7},   {"grundy", 10, 7},        {"octal:4.3", 10, 7},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof games / sizeof games[0]; i++) {
        check_game(games[i].spec, bound(games[i].n3, 8), 3);
        check_game(games[i].spec, bound(games[i].n4, 5), 4);
    }
}

/* bt_analyze (misère) against oracle_search on sums of three heaps. */
static void
test_analysis(void **state)
{
    static const char *games[] = {"kayles", "dawsons-kayles", "octal:0.75",
                                  "sub:2,3"};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof games / sizeof games[0]; i++) {
        oracle_search *o = oracle_search_new(1);
        unsigned h[3] = {0};
        assert_non_null(o);
        do {
            char text[128];
            bt_position *p;
            bt_analysis *a;
            bt_diag d;
            int win;
            long rem, nwin;
            snprintf(text, sizeof text, "%s %u %u %u", games[i], h[0], h[1],
                     h[2]);
            p = bt_test_parse(text, NULL, NULL);
            assert_int_equal(
                bt_analyze(&a, p, BT_MISERE | BT_EXPLAIN, NULL, &d), BT_OK);
            assert_int_equal(oracle_search_solve(o, p, &win, &rem), 0);
            nwin = oracle_search_winning_count(o, p);
            if ((bt_analysis_outcome(a) == BT_N) != win ||
                (long)bt_analysis_move_count(a) != nwin)
                fail_msg("%s: analysis %c with %zu moves, search %c with "
                         "%ld",
                         text, bt_analysis_outcome(a) == BT_N ? 'N' : 'P',
                         bt_analysis_move_count(a), win ? 'N' : 'P', nwin);
            if (h[2] > 0 && h[2] <= 12)
                assert_non_null(strstr(bt_analysis_explanation(a),
                                       "misère quotient"));
            bt_analysis_free(a);
            bt_position_free(p);
        } while (bt_test_next_multiset(h, 3, 8));
        oracle_search_free(o);
    }
}

/*
 * The agreement test: bt_analyze in misère play (through the
 * quotient, cached between calls) against the brute-force solver of
 * tests/oracle/oracle_heap.c on every sum of one to four heaps of at most
 * 12 (8 for 0.35): the outcome, and the exact set of winning moves (each
 * move the analysis lists leaves a P-position by brute force, and every
 * option that does is listed).
 */
static void
test_agreement(void **state)
{
    /* bounds: 12, but 8 for 0.35, whose quotient grows fast (order 246
       for heaps up to 10; past the analysis's budget at 12, where the
       search answers, at about a second a position) */
    static const struct {
        const char *spec;
        unsigned n;
    } games[] = {
        {"kayles", 12},     {"dawsons-kayles", 12}, {"octal:0.75", 12},
        {"octal:0.137", 12}, {"octal:0.31", 12},    {"octal:0.35", 8},
        {"octal:0.52", 12}, {"octal:0.53", 12},     {"sub:1-3", 12},
        {"sub:2,3", 12},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof games / sizeof games[0]; i++) {
        oh_game *og = oh_game_new(games[i].spec);
        oh_misere *b = oh_misere_new(og);
        unsigned h[4] = {0};
        assert_non_null(og);
        assert_non_null(b);
        while (bt_test_next_multiset(h, 4, bound(games[i].n, 7))) {
            unsigned c[4];
            size_t nc = 0, k;
            for (k = 0; k < 4; k++)
                if (h[k] > 0)
                    c[nc++] = h[k];
            bt_analysis_free(
                bt_test_misere_agree(games[i].spec, og, b, c, nc, 0, NULL));
        }
        oh_misere_free(b);
        oh_game_free(og);
    }
}

/* Bouton's sec. 6 on every sum of up to four Nim heaps below 2^k. */
static void
test_misere_nim(void **state)
{
    unsigned k;
    (void)state;
    for (k = 1; k <= 4; k++) {
        unsigned n = (1u << k) - 1, h[4] = {0, 0, 0, 0};
        bt_quotient *q = bt_test_quotient("nim", n, 0);
        size_t want = k == 1 ? 2 : (1u << k) + 2;
        check_structure(q);
        assert_int_equal(bt_quotient_order(q), want);
        assert_int_equal(bt_quotient_p_count(q), k == 1 ? 1 : 2);
        assert_true(bt_quotient_is_tame(q));
        do {
            unsigned x = h[0] ^ h[1] ^ h[2] ^ h[3], ones = 0, big = 0, i;
            int p;
            for (i = 0; i < 4; i++) {
                ones += h[i] == 1;
                big += h[i] >= 2;
            }
            p = big ? x == 0 : ones % 2 == 1;
            assert_int_equal(
                bt_quotient_is_p(q, bt_test_quotient_sum(q, h, 4)), p);
        } while (bt_test_next_multiset(h, 4, n));
        if (k == 2) {
            assert_int_equal(bt_quotient_generator_count(q), 2);
            assert_string_equal(bt_quotient_relation(q, 0), "a^2 = 1");
            assert_string_equal(bt_quotient_relation(q, 1), "b^3 = b");
            assert_int_equal(bt_quotient_relation_count(q), 2);
        }
        bt_quotient_free(q);
    }
}

/* A wild game is not tame; a subtraction game with Nim's values is. */
static void
test_tame(void **state)
{
    bt_quotient *q = bt_test_quotient("kayles", 9, 0);
    (void)state;
    assert_false(bt_quotient_is_tame(q));
    bt_quotient_free(q);
    q = bt_test_quotient("sub:1-3", 12, 0);
    assert_true(bt_quotient_is_tame(q));
    bt_quotient_free(q);
}

/* Bad input and limits: a clear status, never a crash. */
static void
test_errors(void **state)
{
    bt_game *g;
    bt_quotient *q;
    bt_diag d;
    bt_limits lim;
    (void)state;
    assert_int_equal(bt_game_new(&g, "wythoff", &d), BT_OK);
    assert_int_equal(bt_quotient_new(&q, g, 5, NULL, &d), BT_EINVAL);
    assert_null(q);
    bt_game_free(g);
    assert_int_equal(bt_game_new(&g, "kayles", &d), BT_OK);
    bt_limits_default(&lim);
    /* max_search bounds the trials of pretending (their elements and the
       states of their check) as well as the search: 20 is too few for
       either, while the search alone needed more than 100 */
    lim.max_search = 20;
    assert_int_equal(bt_quotient_new(&q, g, 12, &lim, &d), BT_ELIMIT);
    assert_null(q);
    assert_non_null(strstr(d.message, "max_search"));
    bt_limits_default(&lim);
    lim.max_table_piles = 10;
    assert_int_equal(bt_quotient_new(&q, g, 12, &lim, &d), BT_ELIMIT);
    assert_null(q);
    bt_game_free(g);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brute_force), cmocka_unit_test(test_analysis),
        cmocka_unit_test(test_misere_nim),  cmocka_unit_test(test_tame),
        cmocka_unit_test(test_errors),      cmocka_unit_test(test_agreement),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
