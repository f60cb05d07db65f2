/* label: quick
 *
 * test_octal.c -- the heap-game families (octal games, subtraction games,
 * Grundy's game) through the public API: the game texts, their canonical
 * forms and their errors; every option of every small heap against the
 * oracle of tests/oracle/oracle_heap.c (which reads the rules itself); the
 * exact set of winning moves of every sum of two small heaps against the
 * oracle's Grundy values; the texts of the moves; huge heaps.
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

static const char *const games[] = {
    "kayles",      "dawsons-kayles", "dawsons-chess", "officers",
    "treblecross", "octal:4.7",      "octal:4.07",    "octal:0.16",
    "octal:0.354", "octal:0.12",     "octal:0.51",    "octal:4.0",
    "sub:1-3",     "sub:2,5,7",      "sub:1,4-6",     "grundy",
};
#define NGAMES (sizeof games / sizeof games[0])

static void
test_specs(void **state)
{
    static const char *const t[][3] = {
        {"kayles", "octal:0.77", "octal"},
        {"dawsons-kayles", "octal:0.07", "octal"},
        {"dawsons-chess", "octal:0.137", "octal"},
        {"double-kayles", "octal:0.7777", "octal"},
        {"officers", "octal:0.6", "octal"},
        {"treblecross", "octal:0.007", "octal"},
        {"octal:0.77", "octal:0.77", "octal"},
        {"octal:.77", "octal:0.77", "octal"},
        {"octal:0.7700", "octal:0.77", "octal"},
        {"octal:4.0", "octal:4.0", "octal"},
        {"octal:4.000", "octal:4.0", "octal"},
        {"octal:4.07", "octal:4.07", "octal"},
        {"sub:1,2,3", "sub:1-3", "sub"},
        {"sub:3,1,2", "sub:1-3", "sub"},
        {"sub:1-3,7", "sub:1-3,7", "sub"},
        {"sub:1,2", "sub:1,2", "sub"},
        {"sub:5-7,1-3,4", "sub:1-7", "sub"},
        {"sub:2,2,2", "sub:2", "sub"},
        {"sub:10,1-3,3-5", "sub:1-5,10", "sub"},
        {"grundy", "grundy", "grundy"},
        {"grundys-game", "grundy", "grundy"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        bt_game *g = bt_test_game(t[i][0]);
        assert_string_equal(bt_game_spec(g), t[i][1]);
        assert_string_equal(bt_game_family(g), t[i][2]);
        assert_int_equal(bt_game_arity(g), 1);
        assert_false(bt_game_is_nim(g));
        bt_game_free(g);
    }
}

static void
test_spec_errors(void **state)
{
    static const struct {
        const char *text, *msg;
        long offset; /* -1: none */
    } t[] = {
        {"octal:0.78", "not octal", 9},
        {"octal:0.79", "not octal", 9},
        {"octal:1.7", "0 or 4", 6},
        {"octal:0.", "no digit", 8},
        {"octal:077", "expected a point", 7},
        {"octal:0.7a", "unexpected 'a'", 9},
        {"octal:0.000", "no move", -1},
        {"octal", "needs a code", -1},
        {"octal:", "needs a code", -1},
        {"kayles:3", "no parameters", 7},
        {"sub", "empty subtraction set", -1},
        {"sub:", "empty subtraction set", -1},
        {"sub:0", "0 at column 1", 4},
        {"sub:1,0", "0 at column 3", 6},
        {"sub:1,,2", "missing", 6},
        {"sub:1,2,", "missing", 8},
        {"sub:5-3", "empty (5-3)", 4},
        {"sub:1-x", "unexpected 'x'", 6},
        {"sub:1;2", "unexpected ';'", 5},
        {"sub:99999999999", "exceeds", 4},
        {"grundy:2", "no parameters", 7},
        {"grundys-game:x", "no parameters", 13},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof t / sizeof t[0]; i++)
        bt_test_game_refused(t[i].text, t[i].msg, t[i].offset);
}

/* ------------------------------------------------------------ options */

typedef struct collect {
    bt_test_list *l;
    size_t comp;
    const unsigned *g; /* with target: the oracle's values */
    unsigned target;
    int filter;
} collect;

static void
on_oracle(void *ud, const unsigned *parts, size_t n)
{
    collect *c = ud;
    if (c->filter) {
        unsigned v = 0;
        size_t i;
        for (i = 0; i < n; i++)
            v ^= c->g[parts[i]];
        if (v != c->target)
            return;
    }
    bt_test_list_add(c->l, c->comp, parts, n);
}

static void
test_options(void **state)
{
    static bt_test_list want, got;
    size_t k;
    unsigned n;
    (void)state;
    for (k = 0; k < NGAMES; k++) {
        oh_game *o = oh_game_new(games[k]);
        assert_non_null(o);
        for (n = 0; n <= 25; n++) {
            char text[64];
            bt_position *p;
            bt_move *moves = NULL;
            size_t count = 0, i;
            collect c = {&want, 0, NULL, 0, 0};
            bt_diag d;
            snprintf(text, sizeof text, "%s %u", games[k], n);
            p = bt_test_parse(text, NULL, NULL);
            want.n = got.n = 0;
            oh_options(o, n, on_oracle, &c);
            if (bt_position_moves(&moves, &count, p, NULL, &d) != BT_OK)
                fail_msg("moves of %s: %s", text, d.message);
            for (i = 0; i < count; i++)
                bt_test_list_add_move(&got, &moves[i]);
            bt_test_list_check(&want, &got, text);
            assert_int_equal(bt_position_is_terminal(p), count == 0);
            bt_moves_free(moves, count);
            bt_position_free(p);
        }
        oh_game_free(o);
    }
}

/* The sum of heaps a and b of `game` (its oracle o, values g): the
   outcome, the value of heap a and the exact set of winning moves (those
   that leave nim-sum 0). */
static void
check_two_heaps(const char *game, const oh_game *o, const unsigned *g,
                unsigned a, unsigned b)
{
    static bt_test_list want, got;
    char text[64];
    bt_position *p;
    bt_analysis *an = NULL;
    size_t i;
    bt_diag d;
    mpz_t v;
    collect c1 = {&want, 0, g, g[b], 1};
    collect c2 = {&want, 1, g, g[a], 1};
    snprintf(text, sizeof text, "%s %u %u", game, a, b);
    p = bt_test_parse(text, NULL, NULL);
    if (bt_analyze(&an, p, 0, NULL, &d) != BT_OK)
        fail_msg("analyze %s: %s", text, d.message);
    assert_int_equal(bt_analysis_outcome(an), (g[a] ^ g[b]) ? BT_N : BT_P);
    mpz_init(v);
    assert_int_equal(bt_analysis_component_grundy(v, an, 0), BT_OK);
    assert_int_equal(mpz_get_ui(v), g[a]);
    mpz_clear(v);
    want.n = got.n = 0;
    if (g[a] ^ g[b]) {
        oh_options(o, a, on_oracle, &c1);
        oh_options(o, b, on_oracle, &c2);
    }
    for (i = 0; i < bt_analysis_move_count(an); i++)
        bt_test_list_add_move(&got, bt_analysis_move(an, i));
    bt_test_list_check(&want, &got, text);
    bt_analysis_free(an);
    bt_position_free(p);
}

/* Every sum of two heaps a, b <= 14 of each game. */
static void
test_winning_moves(void **state)
{
    size_t k;
    unsigned a, b;
    (void)state;
    for (k = 0; k < NGAMES; k++) {
        oh_game *o = oh_game_new(games[k]);
        unsigned *g = oh_grundy(o, 15);
        for (a = 0; a <= 14; a++)
            for (b = 0; b <= 14; b++)
                check_two_heaps(games[k], o, g, a, b);
        free(g);
        oh_game_free(o);
    }
}

/* Larger heaps (100 to 700): values past the end of the cache come from
   the proved period (Kayles is proved from 168 values), the rest from the
   cache grown on demand. */
static void
test_winning_moves_large(void **state)
{
    unsigned long rnd = 1901;
    size_t k;
    int t;
    (void)state;
    for (k = 0; k < NGAMES; k++) {
        oh_game *o = oh_game_new(games[k]);
        unsigned *g = oh_grundy(o, 701);
        for (t = 0; t < 6; t++) {
            unsigned a, b;
            rnd = rnd * 6364136223846793005UL + 1442695040888963407UL;
            a = 100 + (unsigned)((rnd >> 33) % 601);
            rnd = rnd * 6364136223846793005UL + 1442695040888963407UL;
            b = 100 + (unsigned)((rnd >> 33) % 601);
            check_two_heaps(games[k], o, g, a, b);
        }
        free(g);
        oh_game_free(o);
    }
}

/* The words of the moves. */
static void
check_texts(const char *text, const char *const *want, size_t n)
{
    bt_position *p = bt_test_parse(text, NULL, NULL);
    bt_analysis *an = NULL;
    size_t i;
    assert_int_equal(bt_analyze(&an, p, 0, NULL, NULL), BT_OK);
    if (bt_analysis_move_count(an) != n)
        fail_msg("%s: %zu moves, expected %zu", text,
                 bt_analysis_move_count(an), n);
    for (i = 0; i < n; i++)
        assert_string_equal(bt_analysis_move(an, i)->text, want[i]);
    bt_analysis_free(an);
    bt_position_free(p);
}

static void
test_texts(void **state)
{
    static const char *const kayles[] = {
        "take 1 from heap 1",
        "take 1 from heap 2 and split the rest into 3 and 8",
        "take 2 from heap 2",
        "take 2 from heap 2 and split the rest into 4 and 6",
    };
    static const char *const grundy[] = {"split heap 1 into 1 and 4"};
    static const char *const sub13[] = {"take 1 from heap 1"};
    static const char *const suball[] = {"take all 3 from heap 1"};
    (void)state;
    /* G(10) = 2, G(12) = 4 in Kayles: each winning move leaves 4 and 4 or
       2 and 2 */
    check_texts("kayles 10 12", kayles, 4);
    /* G(5) = 2 in Grundy's game; 1 + 4 is worth 0 + 0 */
    check_texts("grundy 5", grundy, 1);
    /* the essay: from 13 coins, take 1 to leave a multiple of four */
    check_texts("sub:1-3 13", sub13, 1);
    check_texts("sub:1-3 3", suball, 1);
}

/* A number of 1001 digits, 10^1000 + add, in decimal. */
static char *
huge_text(const char *prefix, unsigned add, const char *suffix)
{
    mpz_t n;
    char *digits, *out;
    size_t len;
    mpz_init(n);
    mpz_ui_pow_ui(n, 10, 1000);
    mpz_add_ui(n, n, add);
    digits = mpz_get_str(NULL, 10, n);
    len = strlen(prefix) + strlen(digits) + strlen(suffix) + 1;
    out = malloc(len);
    assert_non_null(out);
    snprintf(out, len, "%s%s%s", prefix, digits, suffix);
    free(digits);
    mpz_clear(n);
    return out;
}

static void
test_huge(void **state)
{
    char *text;
    bt_position *p;
    bt_analysis *an;
    bt_limits lim;
    bt_diag d;
    mpz_t v, n;
    unsigned *kg;
    oh_game *o = oh_game_new("kayles");
    (void)state;
    mpz_inits(v, n, NULL);
    kg = oh_grundy(o, 100);
    bt_limits_default(&lim);

    /* two equal huge heaps of Kayles: P, no move needed */
    text = huge_text("kayles ", 5, " ");
    {
        char *both = huge_text(text, 5, "");
        p = bt_test_parse(both, NULL, &lim);
        free(both);
    }
    free(text);
    assert_int_equal(bt_analyze(&an, p, 0, &lim, &d), BT_OK);
    assert_int_equal(bt_analysis_outcome(an), BT_P);
    bt_analysis_free(an);
    bt_position_free(p);

    /* one huge heap: its value from the period (12 from 71) */
    text = huge_text("kayles ", 5, "");
    p = bt_test_parse(text, NULL, &lim);
    free(text);
    assert_int_equal(bt_analyze(&an, p, BT_NO_MOVES, &lim, &d), BT_OK);
    assert_int_equal(bt_analysis_component_grundy(v, an, 0), BT_OK);
    mpz_ui_pow_ui(n, 10, 1000);
    mpz_add_ui(n, n, 5);
    mpz_sub_ui(n, n, 71);
    assert_int_equal(mpz_get_ui(v), kg[71 + mpz_fdiv_ui(n, 12)]);
    bt_analysis_free(an);
    /* listing its winning moves would mean about 10^1000 splits: the
       outcome stands and the list says it is incomplete */
    assert_int_equal(bt_analyze(&an, p, 0, &lim, &d), BT_OK);
    assert_int_equal(bt_analysis_outcome(an),
                     kg[71 + mpz_fdiv_ui(n, 12)] ? BT_N : BT_P);
    assert_int_equal(bt_analysis_moves_complete(an), 0);
    bt_analysis_free(an);
    bt_position_free(p);

    /* a huge heap of a subtraction game has few moves: all are listed */
    text = huge_text("sub:1-3 ", 1, "");
    p = bt_test_parse(text, NULL, &lim);
    free(text);
    assert_int_equal(bt_analyze(&an, p, 0, &lim, &d), BT_OK);
    assert_int_equal(bt_analysis_outcome(an), BT_N);
    assert_int_equal(bt_analysis_move_count(an), 1);
    mpz_ui_pow_ui(n, 10, 1000);
    assert_int_equal(mpz_cmp(bt_analysis_move(an, 0)->to[0], n), 0);
    assert_string_equal(bt_analysis_move(an, 0)->text, "take 1 from heap 1");
    bt_analysis_free(an);
    bt_position_free(p);

    /* Grundy's game is not known to be periodic: beyond the limit, an
       error that says so */
    text = huge_text("grundy ", 0, "");
    p = bt_test_parse(text, NULL, &lim);
    free(text);
    assert_int_equal(bt_analyze(&an, p, BT_NO_MOVES, &lim, &d), BT_ERANGE);
    assert_non_null(strstr(d.message, "beyond the computed limit"));
    assert_non_null(strstr(d.message, "open problem"));
    bt_position_free(p);

    /* Officers within a small limit: computed, not proved, then an error */
    lim.max_grundy = 3000;
    text = huge_text("officers ", 0, "");
    p = bt_test_parse(text, NULL, &lim);
    free(text);
    assert_int_equal(bt_analyze(&an, p, BT_NO_MOVES, &lim, &d), BT_ERANGE);
    assert_non_null(strstr(d.message, "not proved"));
    bt_position_free(p);

    /* Kayles needs 168 values for its proof */
    lim.max_grundy = 100;
    text = huge_text("kayles ", 0, "");
    p = bt_test_parse(text, NULL, &lim);
    free(text);
    assert_int_equal(bt_analyze(&an, p, BT_NO_MOVES, &lim, &d), BT_ERANGE);
    lim.max_grundy = 200;
    assert_int_equal(bt_analyze(&an, p, BT_NO_MOVES, &lim, &d), BT_OK);
    bt_analysis_free(an);
    bt_position_free(p);

    free(kg);
    oh_game_free(o);
    mpz_clears(v, n, NULL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_winning_moves),
        cmocka_unit_test(test_winning_moves_large),
        cmocka_unit_test(test_texts),
        cmocka_unit_test(test_huge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
