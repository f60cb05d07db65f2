/* label: quick
 *
 * test_position.c -- the position language, positions, statuses, limits;
 * terms that name one game by different texts share one bt_game (a long
 * sum of aliases parses in linear time), and the distinct games of a text
 * are bounded by max_games.
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

/* Parses text with nim as the default game and returns its format. */
static char *
roundtrip(const char *text)
{
    bt_game *nim = bt_test_game("nim");
    bt_position *p = NULL;
    bt_diag d;
    char *s;
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_position_parse(&p, text, nim, NULL, &d), BT_OK);
    s = bt_position_format(p);
    bt_position_free(p);
    bt_game_free(nim);
    return s;
}

static void
test_parse_format(void **state)
{
    static const char *cases[][2] = {
        {"3 4 5", "nim 3 4 5"},
        {"  3,4 ,5  ", "nim 3 4 5"},
        {"nim 3 4 5", "nim 3 4 5"},
        {"007 0", "nim 7 0"},
        {"", "nim"},
        {"nim", "nim"},
        {"nim 1 + nim 2", "nim 1 2"},
        {"nim 3 + wythoff 3 5", "nim 3 + wythoff 3 5"},
        {"wythoff:1 3 5", "wythoff 3 5"},
        {"1000000000000000000000000000001",
         "nim 1000000000000000000000000000001"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *s = roundtrip(cases[i][0]);
        assert_non_null(s);
        assert_string_equal(s, cases[i][1]);
        free(s);
    }
}

/* Each bad text fails with the status and the offset given. */
static void
test_parse_errors(void **state)
{
    static const struct {
        const char *text;
        bt_status st;
        size_t offset;
    } cases[] = {
        {"3 x 5", BT_EPARSE, 2},      {"3 4x", BT_EPARSE, 3},
        {"3 -4", BT_EPARSE, 2},       {"3 + ", BT_EPARSE, 2},
        {"nim 3 +", BT_EPARSE, 6},    {"chess 3", BT_EPARSE, 0},
        {"3 + chess 1", BT_EPARSE, 4}, {"wythoff 3 5 7", BT_EPARSE, 0},
        {"nim:2 3", BT_EPARSE, 4},    {"3 4.5", BT_EPARSE, 3},
    };
    size_t i;
    bt_game *nim = bt_test_game("nim");
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bt_position *p = (bt_position *)1;
        bt_diag d;
        memset(&d, 0, sizeof d);
        assert_int_equal(bt_position_parse(&p, cases[i].text, nim, NULL, &d),
                         cases[i].st);
        assert_null(p);
        assert_true(d.message[0] != '\0');
        assert_true(d.has_offset);
        if (d.offset != cases[i].offset)
            fail_msg("'%s': offset %zu, expected %zu (%s)", cases[i].text,
                     d.offset, cases[i].offset, d.message);
    }
    bt_game_free(nim);
}

static void
test_no_default_game(void **state)
{
    bt_position *p = NULL;
    bt_diag d;
    (void)state;
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_position_parse(&p, "3 4", NULL, NULL, &d),
                     BT_EPARSE);
    assert_null(p);
}

static void
test_limits(void **state)
{
    bt_limits lim;
    bt_game *nim = bt_test_game("nim");
    bt_position *p = NULL;
    bt_diag d;
    (void)state;
    bt_limits_default(&lim);
    lim.max_digits = 5;
    lim.max_components = 3;
    assert_int_equal(bt_position_parse(&p, "99999 1 2", nim, &lim, &d),
                     BT_OK);
    bt_position_free(p);
    assert_int_equal(bt_position_parse(&p, "000099999", nim, &lim, &d),
                     BT_OK);
    bt_position_free(p);
    assert_int_equal(bt_position_parse(&p, "100000", nim, &lim, &d),
                     BT_ELIMIT);
    assert_null(p);
    assert_non_null(strstr(d.message, "max_digits"));
    assert_int_equal(bt_position_parse(&p, "1 2 3 4", nim, &lim, &d),
                     BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_components"));
    lim.max_text = 4;
    assert_int_equal(bt_position_parse(&p, "1 2 3", nim, &lim, &d),
                     BT_ELIMIT);
    bt_game_free(nim);
}

static void
test_add_replace_copy(void **state)
{
    bt_game *nim = bt_test_game("nim");
    bt_position *p = NULL, *q = NULL;
    mpz_t v[2];
    char *s;
    (void)state;
    mpz_init_set_si(v[0], -1);
    mpz_init_set_ui(v[1], 9);
    assert_int_equal(bt_position_new(&p), BT_OK);
    assert_int_equal(bt_position_add(p, nim, (const mpz_t *)v, NULL, NULL),
                     BT_EINVAL);
    assert_int_equal(bt_position_size(p), 0);
    mpz_set_ui(v[0], 3);
    assert_int_equal(bt_position_add(p, nim, (const mpz_t *)v, NULL, NULL),
                     BT_OK);
    assert_int_equal(
        bt_position_add(p, nim, (const mpz_t *)&v[1], NULL, NULL), BT_OK);
    assert_int_equal(bt_position_copy(&q, p), BT_OK);
    assert_true(bt_position_equal(p, q));
    /* replace pile 1 by two piles, then remove pile 2 */
    assert_int_equal(bt_position_replace(p, 0, nim, (const mpz_t *)v, 2),
                     BT_OK);
    s = bt_position_format(p);
    assert_string_equal(s, "nim 3 9 9");
    free(s);
    assert_int_equal(bt_position_replace(p, 1, nim, NULL, 0), BT_OK);
    s = bt_position_format(p);
    assert_string_equal(s, "nim 3 9");
    free(s);
    assert_true(bt_position_equal(p, q));
    assert_int_equal(bt_position_replace(p, 5, nim, NULL, 0), BT_EINVAL);
    s = bt_position_format(q);
    assert_string_equal(s, "nim 3 9");
    free(s);
    mpz_clear(v[0]);
    mpz_clear(v[1]);
    bt_position_free(p);
    bt_position_free(q);
    bt_game_free(nim);
    bt_position_free(NULL);
    bt_game_free(NULL);
}

static void
test_statuses(void **state)
{
    (void)state;
    assert_int_equal(BT_OK, 0);
    assert_string_equal(bt_status_name(BT_EPARSE), "EPARSE");
    assert_string_equal(bt_status_name(BT_ELIMIT), "ELIMIT");
    assert_string_equal(bt_status_name((bt_status)999), "EUNKNOWN");
    assert_string_equal(bt_strerror(BT_OK), "success");
    assert_int_equal(bt_version_number(),
                     BT_VERSION_MAJOR * 10000 + BT_VERSION_MINOR * 100 +
                         BT_VERSION_PATCH);
    assert_string_equal(bt_version_string(), BT_VERSION_STRING);
}

static void
test_games(void **state)
{
    bt_game *g = NULL;
    bt_diag d;
    size_t i;
    (void)state;
    assert_int_equal(bt_game_new(&g, "nim", NULL), BT_OK);
    assert_string_equal(bt_game_spec(g), "nim");
    assert_string_equal(bt_game_family(g), "nim");
    assert_int_equal(bt_game_arity(g), 1);
    assert_true(bt_game_is_nim(g));
    bt_game_free(g);
    assert_int_equal(bt_game_new(&g, "nimble", &d), BT_EPARSE);
    assert_null(g);
    assert_true(bt_family_count() >= 1);
    for (i = 0; i < bt_family_count(); i++) {
        assert_non_null(bt_family(i)->name);
        assert_non_null(bt_family(i)->syntax);
    }
    assert_null(bt_family(bt_family_count()));
}

static double
cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "kayles 1 + " n times, then "kayles 1"; malloc'd. */
static char *
repeat_terms(const char *term, size_t n)
{
    size_t len = strlen(term), i;
    char *s = malloc((len + 3) * (n + 1) + 1), *at = s;
    assert_non_null(s);
    for (i = 0; i < n; i++) {
        memcpy(at, term, len);
        memcpy(at + len, " + ", 3);
        at += len + 3;
    }
    memcpy(at, term, len + 1);
    return s;
}

/*
 * Terms of one game, however named, share one bt_game.  Before, each
 * "kayles" term made a game of its own (the parser matched names against
 * canonical specs, and "kayles" is "octal:0.77"), with its own Grundy
 * sequence, and looked through all of them at every term: 60 000 terms
 * took 8 s to parse and analyse.  CPU bound: 2 s (about 0.1 s now).
 */
static void
test_aliases_share_one_game(void **state)
{
    bt_position *p;
    bt_analysis *a;
    bt_diag d;
    size_t i;
    double t0 = cpu_now();
    char *text = repeat_terms("kayles 1", 60000);
    (void)state;
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_position_parse(&p, text, NULL, NULL, &d), BT_OK);
    assert_int_equal(bt_position_size(p), 60001);
    for (i = 1; i < bt_position_size(p); i++)
        if (bt_position_game(p, i) != bt_position_game(p, 0))
            fail_msg("term %zu of a sum of Kayles has a game of its own",
                     i + 1);
    assert_int_equal(bt_analyze(&a, p, 0, NULL, &d), BT_OK);
    assert_int_equal(bt_analysis_outcome(a), BT_N); /* 60 001 ones */
    bt_analysis_free(a);
    bt_position_free(p);
    free(text);
    if (cpu_now() - t0 > bt_test_cpu_bound(2.0))
        fail_msg("60 001 Kayles terms took %.1f s of CPU", cpu_now() - t0);
    /* every text of one game: the family name, the alias, digits with a
       redundant zero; a different game stays apart */
    p = bt_test_parse("kayles 1 + octal:0.77 2 + octal:0.770 3 + kayles 4 "
                      "+ octal:0.07 3 + dawsons-kayles 5",
                      NULL, NULL);
    for (i = 1; i < 4; i++)
        assert_ptr_equal(bt_position_game(p, i), bt_position_game(p, 0));
    assert_ptr_not_equal(bt_position_game(p, 4), bt_position_game(p, 0));
    assert_ptr_equal(bt_position_game(p, 5), bt_position_game(p, 4));
    assert_string_equal(bt_game_spec(bt_position_game(p, 0)), "octal:0.77");
    bt_position_free(p);
}

/* max_games: the distinct games of a text, settable; aliases count once. */
static void
test_max_games(void **state)
{
    bt_position *p = NULL;
    bt_limits lim;
    bt_diag d;
    char text[4096], *at = text;
    unsigned i;
    (void)state;
    bt_limits_default(&lim);
    assert_int_equal(lim.max_games, 1000);
    lim.max_games = 3;
    for (i = 1; i <= 4; i++)
        at += sprintf(at, "%ssub:1-%u 5", i > 1 ? " + " : "", i);
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_position_parse(&p, text, NULL, &lim, &d),
                     BT_ELIMIT);
    assert_null(p);
    assert_non_null(strstr(d.message, "max_games"));
    assert_true(d.has_offset);
    assert_int_equal(d.offset, strstr(text, "sub:1-4") - text);
    /* three games named in eight texts pass */
    p = bt_test_parse("kayles 1 + octal:0.77 2 + nim 3 + sub:1-3 4 + "
                      "kayles 5 + nim 6 + octal:0.770 7 + sub:1-3 1",
                      NULL, &lim);
    assert_int_equal(bt_position_size(p), 8);
    bt_position_free(p);
    /* 2 000 distinct games under the default: refused at once */
    {
        char *big = malloc(2000 * 24), *b = big;
        double t0 = cpu_now();
        assert_non_null(big);
        for (i = 1; i <= 2000; i++)
            b += sprintf(b, "%ssub:%u 9", i > 1 ? " + " : "", i);
        assert_int_equal(bt_position_parse(&p, big, NULL, NULL, &d),
                         BT_ELIMIT);
        assert_true(cpu_now() - t0 < bt_test_cpu_bound(2.0));
        free(big);
    }
}

static int
always(void *ud)
{
    (void)ud;
    return 1;
}

/* A long text polls the interrupt while parsing (every 4096 numbers). */
static void
test_parse_polls(void **state)
{
    bt_position *p = NULL;
    bt_limits lim;
    bt_diag d;
    char *text = repeat_terms("nim 1 2 3", 20000);
    (void)state;
    bt_limits_default(&lim);
    lim.interrupt = always;
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_position_parse(&p, text, NULL, &lim, &d), BT_EINTR);
    assert_null(p);
    free(text);
    /* a short one is done before the first poll */
    p = bt_test_parse("nim 1 2 3 + kayles 4", NULL, &lim);
    bt_position_free(p);
    /* 900 distinct games in 1 800 numbers and terms (under the 4096 of
       the numbers' poll): making a game costs a microsecond, so the new
       games are polled too (every 16) */
    {
        char *many = malloc(900 * 24), *b = many;
        unsigned i;
        assert_non_null(many);
        for (i = 1; i <= 900; i++)
            b += sprintf(b, "%ssub:%u 9", i > 1 ? " + " : "", i);
        memset(&d, 0, sizeof d);
        assert_int_equal(bt_position_parse(&p, many, NULL, &lim, &d),
                         BT_EINTR);
        assert_null(p);
        free(many);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_format),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_no_default_game),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_add_replace_copy),
        cmocka_unit_test(test_statuses),
        cmocka_unit_test(test_games),
        cmocka_unit_test(test_aliases_share_one_game),
        cmocka_unit_test(test_max_games),
        cmocka_unit_test(test_parse_polls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
