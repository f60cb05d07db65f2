/* label: quick
 *
 * test_record.c -- recognising moves, and game records in Beardon's
 * notation:
 *   - Beardon's game from (41,163,13) (seed 004, sec. 1) read in its
 *     chained form, with its moves, players and winner, and written back;
 *   - every legal move of small positions of every game is recognised from
 *     the two positions (and nothing else is);
 *   - headers, misère records, play and undo;
 *   - malformed records give EPARSE naming the line; random mutations of a
 *     record never crash and what parses writes back the same.
 *
 * The random part takes its seed from BT_TEST_SEED (printed on failure).
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

/* Beardon's game, as printed in the notes (one chain, two lines). */
static const char beardon[] =
    "(41, 163, 13) -A-> (25, 163, 13) -B-> (25, 19, 13) -A-> (25, 13, 13) "
    "-B-> (0, 13, 13)\n"
    "  -A-> (0, 7, 13) -B-> (0, 7, 7) -A-> (0, 0, 7) -B-> (0, 0, 0)\n";

static const char beardon_written[] = "# bouton game record\n"
                                      "game: nim\n"
                                      "rules: normal\n"
                                      "first: A\n"
                                      "\n"
                                      "(41,163,13)\n"
                                      "-A-> (25,163,13)\n"
                                      "-B-> (25,19,13)\n"
                                      "-A-> (25,13,13)\n"
                                      "-B-> (0,13,13)\n"
                                      "-A-> (0,7,13)\n"
                                      "-B-> (0,7,7)\n"
                                      "-A-> (0,0,7)\n"
                                      "-B-> (0,0,0)\n"
                                      "result: B wins\n";

static void
test_beardon(void **state)
{
    bt_record *r, *r2;
    bt_diag d;
    char *text, *text2;
    static const char *texts[] = {"take 16 from pile 1", "take 144 from pile 2",
                                  "take 6 from pile 2",  "take 25 from pile 1",
                                  "take 6 from pile 2",  "take 6 from pile 3",
                                  "take 7 from pile 2",  "take 7 from pile 3"};
    size_t i;
    (void)state;
    memset(&d, 0, sizeof d);
    if (bt_record_parse(&r, beardon, NULL, &d) != BT_OK)
        fail_msg("%s", d.message);
    assert_int_equal(bt_record_length(r), 8);
    assert_int_equal(bt_record_is_misere(r), 0);
    for (i = 0; i < 8; i++) {
        assert_int_equal(bt_record_player(r, i), i % 2 ? 'B' : 'A');
        assert_string_equal(bt_record_move(r, i)->text, texts[i]);
    }
    assert_int_equal(bt_record_move(r, 0)->component, 0);
    assert_true(mpz_cmp_ui(bt_record_move(r, 0)->to[0], 25) == 0);
    assert_int_equal(bt_record_winner(r), 'B'); /* "and B winning" */
    assert_null(bt_record_move(r, 8));
    text = bt_record_format(r);
    assert_non_null(text);
    assert_string_equal(text, beardon_written);
    /* written and read again: the same record */
    assert_int_equal(bt_record_parse(&r2, text, NULL, &d), BT_OK);
    text2 = bt_record_format(r2);
    assert_string_equal(text, text2);
    for (i = 0; i <= 8; i++)
        assert_true(bt_position_equal(bt_record_position(r, i),
                                      bt_record_position(r2, i)));
    free(text);
    free(text2);
    bt_record_free(r);
    bt_record_free(r2);
}

/* Headers, misère, play and undo, and a sum. */
static void
test_building(void **state)
{
    bt_position *p = bt_test_parse("1 1", "nim", NULL);
    bt_record *r, *r2;
    bt_move *m;
    bt_diag d;
    char *text;
    (void)state;
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_record_new(&r, p, 1, 'B', &d), BT_OK);
    assert_int_equal(bt_record_set(r, "A", "computer", &d), BT_OK);
    assert_int_equal(bt_record_set(r, "B", "you", &d), BT_OK);
    assert_int_equal(bt_record_set(r, "seed", "42", &d), BT_OK);
    assert_int_equal(bt_record_set(r, "seed", "43", &d), BT_OK);
    assert_string_equal(bt_record_get(r, "seed"), "43");
    assert_int_equal(bt_record_set(r, "level", "easy", &d), BT_OK);
    assert_int_equal(bt_record_set(r, "level", NULL, &d), BT_OK);
    assert_null(bt_record_get(r, "level"));
    assert_int_equal(bt_record_set(r, "rules", "x", &d), BT_EINVAL);
    assert_int_equal(bt_record_set(r, "bad key", "x", &d), BT_EINVAL);
    assert_int_equal(bt_record_set(r, "note", "two\nlines", &d), BT_EINVAL);
    assert_int_equal(bt_record_player(r, 0), 'B');
    assert_int_equal(bt_record_winner(r), 0);

    /* B takes a pile, A the last one: in misère play A loses */
    assert_int_equal(
        bt_opponent_move(&m, p, 1, BT_LEVEL_PERFECT, NULL, NULL, NULL), BT_OK);
    assert_int_equal(bt_record_play(r, m, NULL, &d), BT_OK);
    bt_moves_free(m, 1);
    assert_int_equal(bt_record_winner(r), 0);
    assert_int_equal(
        bt_random_move(&m, bt_record_current(r), &(uint64_t){1}, NULL, NULL),
        BT_OK);
    assert_int_equal(bt_record_play(r, m, NULL, &d), BT_OK);
    bt_moves_free(m, 1);
    assert_int_equal(bt_record_winner(r), 'B');
    text = bt_record_format(r);
    assert_string_equal(text, "# bouton game record\n"
                              "game: nim\n"
                              "rules: misère\n"
                              "first: B\n"
                              "A: computer\n"
                              "B: you\n"
                              "seed: 43\n"
                              "\n"
                              "(1,1)\n"
                              "-B-> (0,1)\n"
                              "-A-> (0,0)\n"
                              "result: B wins\n");
    assert_int_equal(bt_record_parse(&r2, text, NULL, &d), BT_OK);
    assert_string_equal(bt_record_get(r2, "B"), "you");
    assert_int_equal(bt_record_winner(r2), 'B');
    bt_record_free(r2);
    free(text);

    /* undo */
    assert_int_equal(bt_record_undo(r, 3), BT_EINVAL);
    assert_int_equal(bt_record_undo(r, 2), BT_OK);
    assert_int_equal(bt_record_length(r), 0);
    assert_true(bt_position_equal(bt_record_current(r), p));

    /* an illegal move is refused and not recorded */
    {
        bt_move bad;
        mpz_t two;
        mpz_init_set_ui(two, 2);
        bad.component = 0;
        bad.nto = 1;
        bad.to = &two;
        bad.text = NULL;
        assert_int_equal(bt_record_play(r, &bad, NULL, &d), BT_EINVAL);
        bad.component = 5;
        assert_int_equal(bt_record_play(r, &bad, NULL, &d), BT_EINVAL);
        assert_int_equal(bt_record_length(r), 0);
        mpz_clear(two);
    }
    bt_record_free(r);
    bt_position_free(p);

    /* a sum keeps its games' names */
    p = bt_test_parse("nim 3 + wythoff 1 2 + kayles 4", "nim", NULL);
    assert_int_equal(bt_record_new(&r, p, 0, 'A', &d), BT_OK);
    assert_int_equal(
        bt_opponent_move(&m, p, 0, BT_LEVEL_PERFECT, NULL, NULL, NULL), BT_OK);
    assert_int_equal(bt_record_play(r, m, NULL, &d), BT_OK);
    bt_moves_free(m, 1);
    text = bt_record_format(r);
    assert_non_null(strstr(text, "game: sum\n"));
    {
        /* the positions in the position language, games named */
        char *s = bt_position_format(p), line[256];
        snprintf(line, sizeof line, "\n(%s)\n-A-> (", s);
        assert_non_null(strstr(text, line));
        free(s);
    }
    assert_int_equal(bt_record_parse(&r2, text, NULL, &d), BT_OK);
    assert_true(bt_position_equal(bt_record_current(r), bt_record_current(r2)));
    free(text);
    bt_record_free(r);
    bt_record_free(r2);
    bt_position_free(p);
}

/* Every legal move of small positions is recognised, and only those. */
static void
test_find_move(void **state)
{
    static const char *positions[] = {"3 4 5",
                                      "0 2",
                                      "wythoff 3 5",
                                      "wythoff:2 4 4",
                                      "kayles 7 2",
                                      "dawsons-kayles 6",
                                      "sub:1-3 5 2",
                                      "grundys-game 7",
                                      "nim 2 + wythoff 1 2 + kayles 3",
                                      "octal:0.137 6"};
    size_t k;
    (void)state;
    for (k = 0; k < sizeof positions / sizeof positions[0]; k++) {
        bt_position *p = bt_test_parse(positions[k], "nim", NULL);
        bt_move *moves;
        size_t n, i;
        assert_int_equal(bt_position_moves(&moves, &n, p, NULL, NULL), BT_OK);
        for (i = 0; i < n; i++) {
            bt_position *q, *q2;
            bt_move *found;
            bt_diag d;
            memset(&d, 0, sizeof d);
            assert_int_equal(bt_position_copy(&q, p), BT_OK);
            assert_int_equal(bt_position_apply(q, &moves[i]), BT_OK);
            if (bt_position_find_move(&found, p, q, NULL, &d) != BT_OK)
                fail_msg("'%s': move '%s' not recognised: %s", positions[k],
                         moves[i].text, d.message);
            assert_int_equal(bt_position_copy(&q2, p), BT_OK);
            assert_int_equal(bt_position_apply(q2, found), BT_OK);
            assert_true(bt_position_equal(q, q2));
            assert_non_null(found->text);
            bt_moves_free(found, 1);
            bt_position_free(q);
            bt_position_free(q2);
        }
        bt_moves_free(moves, n);
        bt_position_free(p);
    }
}

static void
expect_no_move(const char *from, const char *to, const char *why)
{
    bt_position *p = bt_test_parse(from, "nim", NULL);
    bt_position *q = bt_test_parse(to, "nim", NULL);
    bt_move *m = (bt_move *)1;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_position_find_move(&m, p, q, NULL, &d) != BT_EINVAL)
        fail_msg("'%s' -> '%s' was taken for a move", from, to);
    assert_null(m);
    if (strstr(d.message, why) == NULL)
        fail_msg("'%s' -> '%s': message '%s' lacks '%s'", from, to, d.message,
                 why);
    bt_position_free(p);
    bt_position_free(q);
}

static void
test_not_moves(void **state)
{
    bt_position *p, *q;
    bt_move *m;
    char big[200];
    (void)state;
    expect_no_move("3 4 5", "3 4 5", "position itself");
    expect_no_move("3 4 5", "3 4 6", "6 is not a move of component 3");
    expect_no_move("3 4 5", "2 3 5", "both change");
    expect_no_move("3 4 5", "3", "vanish");
    expect_no_move("3 4 5", "3 4 5 0", "no legal move");
    expect_no_move("wythoff 3 5", "wythoff 2 3", "not a move");
    expect_no_move("kayles 7", "kayles 1 1", "no legal move");
    expect_no_move("nim 3 + kayles 3", "nim 3 + nim 2", "no legal move");
    expect_no_move("", "", "position itself");
    /* a coin game: each side written whole (a move changes the count) */
    expect_no_move("mock-turtles 1 4 7", "mock-turtles 1 2 3 4 5 7",
                   "(1,4,7) to (1,2,3,4,5,7) is not a move of component 1");
    /* piles too big to list: the rules' moves_to decides */
    snprintf(big, sizeof big, "1%050d 1%050d", 0, 0);
    p = bt_test_parse(big, "nim", NULL);
    snprintf(big, sizeof big, "1%050d 5", 0);
    q = bt_test_parse(big, "nim", NULL);
    assert_int_equal(bt_position_find_move(&m, p, q, NULL, NULL), BT_OK);
    assert_int_equal(m->component, 1);
    bt_moves_free(m, 1);
    bt_position_free(q);
    snprintf(big, sizeof big, "1%050d 1%049d1", 0, 0);
    q = bt_test_parse(big, "nim", NULL);
    assert_int_equal(bt_position_find_move(&m, p, q, NULL, NULL), BT_EINVAL);
    bt_position_free(q);
    bt_position_free(p);
}

static void
expect_bad(const char *text, const char *why, size_t line)
{
    bt_record *r = (bt_record *)1;
    bt_diag d;
    char at[32];
    memset(&d, 0, sizeof d);
    if (bt_record_parse(&r, text, NULL, &d) != BT_EPARSE)
        fail_msg("record accepted: %s", text);
    assert_null(r);
    if (strstr(d.message, why) == NULL)
        fail_msg("record '%s': message '%s' lacks '%s'", text, d.message, why);
    if (line > 0) {
        snprintf(at, sizeof at, "line %zu:", line);
        if (strstr(d.message, at) == NULL)
            fail_msg("record '%s': message '%s' lacks '%s'", text, d.message,
                     at);
    }
}

static void
test_bad_records(void **state)
{
    (void)state;
    expect_bad("", "no position", 1);
    expect_bad("game: nim\n", "no position", 0);
    expect_bad("(3,4,5)\n-A-> (3,4,6)\n", "not a legal move of A", 2);
    expect_bad("(3,4,5)\n-B-> (3,4,4)\n", "A's turn", 2);
    expect_bad("first: B\n(3,4,5)\n-A-> (3,4,4)\n", "B's turn", 3);
    expect_bad("(3,4,5)\n-A-> (3,4,4)\n-A-> (3,4,3)\n", "B's turn", 3);
    expect_bad("(3,4,5\n", "no ')'", 1);
    expect_bad("(3,4,x)\n", "not a non-negative integer", 1);
    expect_bad("(3,4,5) -> (3,4,4)\n", "expected a move", 1);
    expect_bad("(3,4,5) -A-> 3,4,4\n", "expected a position", 1);
    expect_bad("game: chess\n(1)\n", "game:", 0);
    expect_bad("rules: strange\n(1)\n", "rules", 0);
    expect_bad("first: C\n(1)\n", "first", 0);
    expect_bad("game nim\n(1)\n", "header line", 1);
    expect_bad("game: nim\ngame: nim\n(1)\n", "twice", 2);
    expect_bad("(1) -A-> (0)\nresult: A loses\n", "should be 'A wins'", 2);
    expect_bad("(1) -A-> (0)\nresult: B wins\n", "should be 'A wins'", 2);
    expect_bad("(2)\n-A-> (1)\nresult: A wins\n", "not over", 3);
    expect_bad("(1) -A-> (0)\nresult: A wins\n-B-> (0)\n", "nothing may", 3);
    expect_bad("result: A wins\n(1)\n", "after the moves", 1);
    expect_bad("rules: misère\n(1,1) -A-> (0,1) -B-> (0,0)\nresult: B "
               "wins\n",
               "should be 'A wins'", 3);
    expect_bad("game: sum\n(3 4)\n", "game name", 2);
}

/* Random damage to a record: a clean answer every time. */
static void
test_mutations(void **state)
{
    size_t len = strlen(beardon_written);
    char *buf = malloc(len + 64);
    int t;
    static const char alphabet[] = "()-AB>,:# \n0123456789resultgam";
    (void)state;
    assert_non_null(buf);
    for (t = 0; t < 3000; t++) {
        bt_record *r;
        bt_diag d;
        bt_status st;
        size_t n = len, k, edits = 1 + bt_test_rnd(4);
        memcpy(buf, beardon_written, len + 1);
        for (k = 0; k < edits; k++) {
            size_t at = n ? bt_test_rnd((unsigned)n) : 0;
            switch (bt_test_rnd(3)) {
            case 0: /* delete */
                if (n > 0) {
                    memmove(buf + at, buf + at + 1, n - at);
                    n--;
                }
                break;
            case 1: /* insert */
                if (n < len + 60) {
                    memmove(buf + at + 1, buf + at, n - at + 1);
                    buf[at] = alphabet[bt_test_rnd(sizeof alphabet - 1)];
                    n++;
                }
                break;
            default: /* replace */
                if (n > 0)
                    buf[at] = alphabet[bt_test_rnd(sizeof alphabet - 1)];
            }
        }
        memset(&d, 0, sizeof d);
        st = bt_record_parse(&r, buf, NULL, &d);
        if (st == BT_OK) {
            char *a = bt_record_format(r), *b;
            bt_record *r2;
            assert_non_null(a);
            if (bt_record_parse(&r2, a, NULL, &d) != BT_OK)
                fail_msg("written record does not read back (seed %llu): "
                         "%s\n%s",
                         bt_test_seed(), d.message, a);
            b = bt_record_format(r2);
            assert_string_equal(a, b);
            free(a);
            free(b);
            bt_record_free(r);
            bt_record_free(r2);
        } else if (st != BT_EPARSE && st != BT_ELIMIT) {
            fail_msg("status %s for a damaged record (seed %llu)",
                     bt_status_name(st), bt_test_seed());
        } else {
            assert_true(d.message[0] != '\0');
        }
    }
    free(buf);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_beardon),     cmocka_unit_test(test_building),
        cmocka_unit_test(test_find_move),   cmocka_unit_test(test_not_moves),
        cmocka_unit_test(test_bad_records), cmocka_unit_test(test_mutations),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
