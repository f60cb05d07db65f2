/* label: slow
 *
 * test_opponent_slow.c -- the computer opponent against the brute-force rule
 * (tests/oracle/oracle_rule.c) on every position of larger shapes than the
 * quick test_opponent.c reaches, normal and misère.
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

#include "oracle_rule.h"
#include "oracle_search.h"

static void
check(void *ud, const bt_test_pos *at)
{
    oracle_search *o = at->oracle;
    const bt_position *p = at->p;
    const char *text = at->text;
    int misere = at->misere;
    bt_move *moves = NULL, *got = NULL;
    size_t n = 0, best;
    int win;
    bt_diag d;
    bt_status st;
    bt_play_info info;

    (void)ud;
    memset(&d, 0, sizeof d);
    st = bt_opponent_play(&got, &info, p, misere, BT_LEVEL_PERFECT, NULL,
                          NULL, &d);
    if (bt_position_is_terminal(p)) {
        assert_int_equal(st, BT_EINVAL);
    } else {
        if (st != BT_OK)
            fail_msg("'%s'%s: %s", text, misere ? " misère" : "", d.message);
        if (oracle_rule_pick(o, p, misere, &moves, &n, &best, &win) != 0)
            fail_msg("'%s': the oracle failed", text);
        /* the exact rule when the bounded search succeeded */
        if (info.remoteness_known &&
            !oracle_rule_same_move(got, &moves[best]))
            fail_msg("'%s'%s (%c): the opponent plays '%s', the rule says "
                     "'%s'",
                     text, misere ? " misère" : "", win ? 'N' : 'P', got->text,
                     moves[best].text);
        bt_moves_free(got, 1);
        bt_moves_free(moves, n);
    }
}

static void
all_of_shape(const char *fmt, int nums, int below)
{
    bt_test_each_position(fmt, nums, below, check, NULL);
}

static void
test_nim(void **state)
{
    (void)state;
    all_of_shape("%d %d", 2, 12);
    all_of_shape("%d %d %d", 3, 8);
    all_of_shape("%d %d %d %d", 4, 6);
    all_of_shape("%d %d %d %d %d", 5, 4);
}

static void
test_games(void **state)
{
    (void)state;
    all_of_shape("wythoff %d %d", 2, 10);
    all_of_shape("wythoff %d %d + wythoff %d %d", 4, 3);
    all_of_shape("wythoff:2 %d %d", 2, 7);
    all_of_shape("wythoff %d %d + nim %d", 3, 5);
    all_of_shape("sub:1-3 %d %d", 2, 10);
    all_of_shape("sub:1,3,4 %d %d %d", 3, 6);
    all_of_shape("kayles %d %d", 2, 8);
    all_of_shape("dawsons-kayles %d %d", 2, 8);
    all_of_shape("grundys-game %d %d", 2, 9);
    all_of_shape("octal:0.137 %d %d", 2, 7);
    all_of_shape("nim %d + kayles %d + wythoff %d %d", 4, 4);
    all_of_shape("nim %d %d + sub:1-2 %d", 3, 5);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nim),
        cmocka_unit_test(test_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
