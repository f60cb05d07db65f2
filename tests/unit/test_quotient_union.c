/* label: quick
 *
 * test_quotient_union.c -- misère sums of heaps of DIFFERENT games through
 * the quotient of the union of their heaps (src/engines/quotient.c,
 * docs/misere.md), against tests/oracle/oracle_search.c, a brute-force
 * search of the game graph written from the definitions over the public
 * API alone.
 *
 *   - Every sum of two heaps of one game and one or two heaps of another,
 *     heaps up to 6 (4 under valgrind), for pairs among Kayles, Dawson's
 *     Kayles, 0.75 and sub:2,3, and sums of three games: bt_analyze gives
 *     the search's outcome, and the same number of winning moves in each
 *     component, and says that it answered through the union's quotient.
 *   - The union's quotient as `bouton quotient --game "A + B"` prints it
 *     (bt_quotient_new_sum, the games given in either order): the product
 *     of the heaps' elements (bt_quotient_heap_of) is in P exactly when
 *     the search finds the sum a misère P-position, on every sum of two
 *     heaps of each game up to 6.
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

/* The number of winning moves of component c of p, by the oracle: moves
   of that component to a P-position. */
static long
oracle_wins_in(oracle_search *o, const bt_position *p, size_t c)
{
    bt_move *moves = NULL;
    size_t nm = 0, i;
    long count = 0;
    bt_diag d;
    assert_int_equal(bt_position_moves(&moves, &nm, p, NULL, &d), BT_OK);
    for (i = 0; i < nm; i++) {
        bt_position *q = NULL;
        int win;
        long rem;
        if (moves[i].component != c)
            continue;
        assert_int_equal(bt_position_copy(&q, p), BT_OK);
        assert_int_equal(bt_position_apply(q, &moves[i]), BT_OK);
        assert_int_equal(oracle_search_solve(o, q, &win, &rem), 0);
        count += !win;
        bt_position_free(q);
    }
    bt_moves_free(moves, nm);
    return count;
}

static void
check_sum(oracle_search *o, const char *text)
{
    bt_position *p = bt_test_parse(text, NULL, NULL);
    bt_analysis *a;
    bt_diag d;
    int win;
    long rem;
    size_t c, i;
    assert_int_equal(bt_analyze(&a, p, BT_MISERE | BT_EXPLAIN, NULL, &d),
                     BT_OK);
    assert_int_equal(oracle_search_solve(o, p, &win, &rem), 0);
    if ((bt_analysis_outcome(a) == BT_N) != win)
        fail_msg("%s: analysis %c, search %c", text,
                 bt_analysis_outcome(a) == BT_N ? 'N' : 'P',
                 win ? 'N' : 'P');
    for (c = 0; c < bt_position_size(p); c++) {
        long want = oracle_wins_in(o, p, c), got = 0;
        for (i = 0; i < bt_analysis_move_count(a); i++)
            got += bt_analysis_move(a, i)->component == c;
        if (got != want)
            fail_msg("%s: component %zu: %ld winning moves, the search "
                     "%ld",
                     text, c + 1, got, want);
    }
    if (strstr(bt_analysis_explanation(a), "union") == NULL)
        fail_msg("%s: not through the union's quotient: %s", text,
                 bt_analysis_explanation(a));
    bt_analysis_free(a);
    bt_position_free(p);
}

static void
test_pairs(void **state)
{
    static const char *const games[] = {"kayles", "dawsons-kayles",
                                        "octal:0.75", "sub:2,3"};
    size_t i, j;
    unsigned n = bt_test_light() ? 4 : 6, a, b, c, e;
    (void)state;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) {
            oracle_search *o;
            if (i == j)
                continue;
            o = oracle_search_new(1);
            assert_non_null(o);
            for (a = 1; a <= n; a++)
                for (b = 0; b <= a; b++)
                    for (c = 1; c <= n; c++)
                        for (e = 0; e <= (j > i ? c : 0); e++) {
                            char text[160];
                            if (e > 0)
                                snprintf(text, sizeof text,
                                         "%s %u %u + %s %u %u", games[i], a,
                                         b, games[j], c, e);
                            else
                                snprintf(text, sizeof text, "%s %u %u + %s %u",
                                         games[i], a, b, games[j], c);
                            check_sum(o, text);
                        }
            oracle_search_free(o);
        }
}

static void
test_three_games(void **state)
{
    oracle_search *o = oracle_search_new(1);
    unsigned n = bt_test_light() ? 3 : 5, a, b, c;
    (void)state;
    assert_non_null(o);
    for (a = 1; a <= n; a++)
        for (b = 1; b <= n; b++)
            for (c = 1; c <= n; c++) {
                char text[160];
                snprintf(text, sizeof text,
                         "kayles %u + dawsons-kayles %u + octal:0.75 %u 2", a,
                         b, c);
                check_sum(o, text);
            }
    oracle_search_free(o);
}

static void
test_new_sum(void **state)
{
    bt_game *g[2];
    bt_quotient *q;
    oracle_search *o = oracle_search_new(1);
    unsigned n = bt_test_light() ? 4 : 6, a, b, c, e;
    size_t order, k;
    bt_diag d;
    (void)state;
    assert_non_null(o);
    g[0] = bt_test_game("kayles");
    g[1] = bt_test_game("dawsons-kayles");
    for (k = 0; k < 2; k++) {
        /* the games in the order given, then reversed: the same letters */
        bt_game *gs[2];
        size_t ik, id;
        gs[0] = g[k];
        gs[1] = g[1 - k];
        if (bt_quotient_new_sum(&q, gs, 2, n, NULL, &d) != BT_OK)
            fail_msg("bt_quotient_new_sum: %s", d.message);
        assert_int_equal(bt_quotient_game_count(q), 2);
        assert_string_equal(bt_game_spec(bt_quotient_game_at(q, 0)),
                            "octal:0.07");
        ik = 1;
        id = 0;
        if (k == 0)
            order = bt_quotient_order(q);
        else
            assert_int_equal(bt_quotient_order(q), order);
        for (a = 0; a <= n; a++)
            for (b = 0; b <= a; b++)
                for (c = 0; c <= n; c++)
                    for (e = 0; e <= c; e++) {
                        char text[160];
                        bt_position *p;
                        int win;
                        long rem;
                        size_t x = bt_quotient_mul(
                            q,
                            bt_quotient_mul(q, bt_quotient_heap_of(q, ik, a),
                                            bt_quotient_heap_of(q, ik, b)),
                            bt_quotient_mul(q, bt_quotient_heap_of(q, id, c),
                                            bt_quotient_heap_of(q, id, e)));
                        snprintf(text, sizeof text,
                                 "kayles %u %u + dawsons-kayles %u %u", a, b,
                                 c, e);
                        p = bt_test_parse(text, NULL, NULL);
                        assert_int_equal(oracle_search_solve(o, p, &win, &rem),
                                         0);
                        if ((bt_quotient_is_p(q, x) != 0) == win)
                            fail_msg("%s: the union's quotient says %c", text,
                                     win ? 'P' : 'N');
                        bt_position_free(p);
                    }
        bt_quotient_free(q);
    }
    /* a game twice, or not a heap game: refused */
    bt_game_free(g[1]);
    g[1] = bt_game_ref(g[0]);
    assert_int_equal(bt_quotient_new_sum(&q, g, 2, 3, NULL, &d), BT_EINVAL);
    bt_game_free(g[1]);
    bt_game_free(g[0]);
    oracle_search_free(o);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_new_sum),
        cmocka_unit_test(test_three_games),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
