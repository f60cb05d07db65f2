/* label: quick
 *
 * test_nim.c -- Nim through the public API (bt_position_parse, bt_analyze,
 * bt_analysis_move, bt_table_*): against the brute-force oracle on every
 * position of up to 5 piles of up to 7 counters, normal and misère; against
 * Bouton's rule, computed here, on random positions with huge piles; and
 * the seeds' worked examples and published tables (tests/cases/nim_*.txt).
 *
 * BT_TEST_SEED in the environment sets the seed of the random tests; a
 * failure prints it.
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

#include "oracle_nim.h"

#define MAXP 16 /* piles in a position of the small tests */

static unsigned long seed;

static bt_game *
nim(void)
{
    bt_game *g = NULL;
    assert_int_equal(bt_game_new(&g, "nim", NULL), BT_OK);
    return g;
}

/* Parses text as a Nim position. */
static bt_analysis *
analyze(const bt_position *p, unsigned flags)
{
    bt_analysis *a = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_analyze(&a, p, flags, NULL, &d) != BT_OK)
        fail_msg("bt_analyze failed: %s", d.message);
    return a;
}

/* The text of small piles, "3 4 5". */
static void
piles_text(char *buf, size_t cap, const unsigned *piles, size_t n)
{
    size_t i, len = 0;
    buf[0] = '\0';
    for (i = 0; i < n; i++)
        len +=
            (size_t)snprintf(buf + len, cap - len, i ? " %u" : "%u", piles[i]);
}

/* A move of a: component i, one number, that number, a text. */
static void
assert_move(const bt_analysis *a, size_t i, size_t comp, unsigned long to)
{
    const bt_move *m = bt_analysis_move(a, i);
    assert_non_null(m);
    assert_int_equal(m->component, comp);
    assert_int_equal(m->nto, 1);
    if (mpz_cmp_ui(m->to[0], to) != 0)
        fail_msg("move %zu goes to %s, expected %lu", i,
                 mpz_get_str(NULL, 10, m->to[0]), to);
    assert_non_null(m->text);
    assert_true(m->text[0] != '\0');
}

/* ------------------------------------------------------- the oracle */

/* Checks one small position against the oracle: outcome, Grundy values
   (normal play) and the exact list of winning moves. */
static void
check_small(oracle_nim *o, const unsigned *piles, size_t n, int misere)
{
    char text[256];
    oracle_nim_move want[MAXP * 8];
    bt_position *p;
    bt_analysis *a;
    long nwin, i;
    int is_p;
    mpz_t g;

    piles_text(text, sizeof text, piles, n);
    p = bt_test_parse(text, "nim", NULL);
    assert_int_equal(bt_position_size(p), n);
    a = analyze(p, misere ? BT_MISERE : 0);
    is_p = oracle_nim_is_p(o, piles, n);
    assert_true(is_p >= 0);
    if ((bt_analysis_outcome(a) == BT_P) != is_p)
        fail_msg("%s (%s): outcome %s, the oracle says %s", text,
                 misere ? "misère" : "normal",
                 bt_analysis_outcome(a) == BT_P ? "P" : "N", is_p ? "P" : "N");
    assert_int_equal(bt_analysis_is_misere(a), misere);
    nwin = oracle_nim_winning_moves(o, piles, n, want,
                                    sizeof want / sizeof want[0]);
    assert_true(nwin >= 0 && (size_t)nwin <= sizeof want / sizeof want[0]);
    if ((long)bt_analysis_move_count(a) != nwin)
        fail_msg("%s (%s): %zu winning moves, the oracle has %ld", text,
                 misere ? "misère" : "normal", bt_analysis_move_count(a), nwin);
    /* both list the moves by pile; a pile has at most one winning move,
       since one P-position cannot reach another */
    for (i = 0; i < nwin; i++)
        assert_move(a, (size_t)i, want[i].pile, want[i].to);
    mpz_init(g);
    if (!misere) {
        size_t j;
        assert_int_equal(bt_analysis_grundy(g, a), BT_OK);
        assert_true(
            mpz_cmp_ui(g, (unsigned long)oracle_nim_grundy(o, piles, n)) == 0);
        for (j = 0; j < n; j++) {
            assert_int_equal(bt_analysis_component_grundy(g, a, j), BT_OK);
            assert_true(mpz_cmp_ui(g, (unsigned long)oracle_nim_grundy(
                                          o, &piles[j], 1)) == 0);
        }
    } else {
        assert_int_equal(bt_analysis_grundy(g, a), BT_EUNDEF);
    }
    mpz_clear(g);
    bt_analysis_free(a);
    bt_position_free(p);
}

/* Every position of n <= 5 piles of 0..7 counters, piles in every order. */
static void
exhaustive(int misere)
{
    oracle_nim *o = oracle_nim_new(misere, 5, 7);
    unsigned piles[5];
    size_t n, i;
    unsigned long code, total, count = 0;
    assert_non_null(o);
    for (n = 0; n <= 5; n++) {
        for (total = 1, i = 0; i < n; i++)
            total *= 8;
        for (code = 0; code < total; code++) {
            unsigned long c = code;
            for (i = 0; i < n; i++, c /= 8)
                piles[i] = (unsigned)(c % 8);
            check_small(o, piles, n, misere);
            count++;
        }
    }
    assert_int_equal(count, 1 + 8 + 64 + 512 + 4096 + 32768);
    oracle_nim_free(o);
}

static void
test_oracle_normal(void **state)
{
    (void)state;
    exhaustive(0);
}

static void
test_oracle_misere(void **state)
{
    (void)state;
    exhaustive(1);
}

/* Misère positions of ones (Bouton sec. 6: "an odd number of piles, each
   containing one, is now safe, while an even number of ones is not"),
   beyond the exhaustive sizes, with empty piles among them. */
static void
test_misere_ones(void **state)
{
    oracle_nim *o = oracle_nim_new(1, 12, 1);
    unsigned piles[12];
    size_t n, i;
    (void)state;
    assert_non_null(o);
    for (n = 0; n <= 12; n++) {
        for (i = 0; i < n; i++)
            piles[i] = 1;
        check_small(o, piles, n, 1);
        if (n >= 2) {
            piles[0] = 0; /* an empty pile changes nothing */
            check_small(o, piles, n, 1);
        }
    }
    oracle_nim_free(o);
}

/* ---------------------------------------------- huge piles, Bouton's rule */

/* Checks p (piles x[0..n-1]) against Bouton's rule computed here. */
static void
check_bouton(mpz_t *x, size_t n, int misere)
{
    bt_position *p;
    bt_analysis *a;
    mpz_t s, t;
    size_t i, big = 0, ones = 0, nmoves = 0;
    int want_p;
    bt_game *g = nim();

    assert_int_equal(bt_position_new(&p), BT_OK);
    for (i = 0; i < n; i++)
        assert_int_equal(
            bt_position_add(p, g, (const mpz_t *)&x[i], NULL, NULL), BT_OK);
    a = analyze(p, misere ? BT_MISERE : 0);
    mpz_inits(s, t, NULL);
    for (i = 0; i < n; i++) {
        mpz_xor(s, s, x[i]);
        big += mpz_cmp_ui(x[i], 1) > 0;
        ones += mpz_cmp_ui(x[i], 1) == 0;
    }
    if (!misere || big >= 2) {
        /* sec. 2 and 5; sec. 6 when two piles or more exceed one */
        want_p = mpz_sgn(s) == 0;
        for (i = 0; i < n; i++) {
            mpz_xor(t, x[i], s);
            if (mpz_cmp(t, x[i]) < 0) {
                const bt_move *m = bt_analysis_move(a, nmoves++);
                if (m == NULL || m->component != i || m->nto != 1 ||
                    mpz_cmp(m->to[0], t) != 0)
                    fail_msg("seed %lu: winning move %zu differs from "
                             "Bouton's (pile %zu)",
                             seed, nmoves - 1, i + 1);
            }
        }
    } else if (big == 1) {
        /* one pile above one: reduce it to leave an odd number of ones */
        want_p = 0;
        for (i = 0; i < n; i++) {
            if (mpz_cmp_ui(x[i], 1) > 0) {
                const bt_move *m = bt_analysis_move(a, nmoves++);
                if (m == NULL || m->component != i ||
                    mpz_cmp_ui(m->to[0], ones % 2 ? 0 : 1) != 0)
                    fail_msg("seed %lu: the misère move differs", seed);
            }
        }
    } else {
        /* only ones and empty piles: an odd number of ones is safe */
        want_p = ones % 2 == 1;
        for (i = 0; i < n && ones % 2 == 0; i++)
            if (mpz_cmp_ui(x[i], 1) == 0)
                assert_move(a, nmoves++, i, 0);
    }
    if ((bt_analysis_outcome(a) == BT_P) != want_p ||
        bt_analysis_move_count(a) != nmoves)
        fail_msg("seed %lu: %zu piles (%s): outcome %s with %zu moves, "
                 "Bouton's rule: %s with %zu",
                 seed, n, misere ? "misère" : "normal",
                 bt_analysis_outcome(a) == BT_P ? "P" : "N",
                 bt_analysis_move_count(a), want_p ? "P" : "N", nmoves);
    if (!misere && (bt_analysis_grundy(t, a) != BT_OK || mpz_cmp(t, s) != 0))
        fail_msg("seed %lu: the Grundy value is not the nim-sum", seed);
    mpz_clears(s, t, NULL);
    bt_analysis_free(a);
    bt_position_free(p);
    bt_game_free(g);
}

static void
test_huge_random(void **state)
{
    gmp_randstate_t r;
    mpz_t x[9], t;
    int trial, misere;
    size_t n, i;
    (void)state;
    gmp_randinit_default(r);
    gmp_randseed_ui(r, seed);
    for (i = 0; i < 9; i++)
        mpz_init(x[i]);
    mpz_init(t);
    for (trial = 0; trial < 400; trial++) {
        unsigned long kind = gmp_urandomm_ui(r, 5);
        n = 1 + gmp_urandomm_ui(r, 8);
        for (i = 0; i < n; i++) {
            /* hundreds of digits; of one length now and then, so that
               several piles may have the leftmost odd column */
            if (kind == 1) {
                mpz_urandomb(x[i], r, 900);
                mpz_setbit(x[i], 899);
            } else {
                mpz_urandomb(x[i], r, 300 + gmp_urandomm_ui(r, 1200));
            }
            if (kind == 2 && gmp_urandomm_ui(r, 2))
                mpz_set_ui(x[i], gmp_urandomm_ui(r, 2)); /* 0s and 1s */
            if (kind == 3 && i > 0)
                mpz_set_ui(x[i], gmp_urandomm_ui(r, 2)); /* one big pile */
        }
        if (kind == 4 && n >= 2) { /* a safe combination: last = XOR */
            mpz_set_ui(t, 0);
            for (i = 0; i + 1 < n; i++)
                mpz_xor(t, t, x[i]);
            mpz_set(x[n - 1], t);
        }
        for (misere = 0; misere <= 1; misere++)
            check_bouton(x, n, misere);
    }
    for (i = 0; i < 9; i++)
        mpz_clear(x[i]);
    mpz_clear(t);
    gmp_randclear(r);
}

/* ------------------------------------------------- the seeds' examples */

/* Analyses text; checks the outcome and the winning moves, given as
   (component, to) pairs. */
static void
check_example(const char *text, unsigned flags, bt_outcome outcome,
              size_t nmoves, const unsigned long (*moves)[2])
{
    bt_position *p = bt_test_parse(text, "nim", NULL);
    bt_analysis *a = analyze(p, flags);
    size_t i;
    if (bt_analysis_outcome(a) != outcome)
        fail_msg("%s: outcome %s", text,
                 bt_analysis_outcome(a) == BT_P ? "P" : "N");
    if (bt_analysis_move_count(a) != nmoves)
        fail_msg("%s: %zu winning moves, expected %zu", text,
                 bt_analysis_move_count(a), nmoves);
    for (i = 0; i < nmoves; i++)
        assert_move(a, i, (size_t)moves[i][0], moves[i][1]);
    bt_analysis_free(a);
    bt_position_free(p);
}

/* Bouton sec. 2: "9, 5, 12 is a safe combination". */
static void
test_bouton_9_5_12(void **state)
{
    bt_position *p = bt_test_parse("9 5 12", "nim", NULL);
    bt_analysis *a = analyze(p, 0);
    mpz_t g;
    (void)state;
    assert_int_equal(bt_analysis_outcome(a), BT_P);
    assert_int_equal(bt_analysis_move_count(a), 0);
    mpz_init(g);
    assert_int_equal(bt_analysis_grundy(g, a), BT_OK);
    assert_int_equal(mpz_sgn(g), 0);
    mpz_clear(g);
    bt_analysis_free(a);
    bt_position_free(p);
}

/* Bouton sec. 2, Theorem II: B draws two from the first pile of 9, 5, 12,
   leaving 7, 5, 12; "he must select the third pile ... A must leave two in
   the pile which contains twelve". */
static void
test_bouton_7_5_12(void **state)
{
    static const unsigned long moves[][2] = {{2, 2}};
    (void)state;
    check_example("7 5 12", 0, BT_N, 1, moves);
    check_example("7 5 2", 0, BT_P, 0, NULL);
}

/* The AMS column: 37, 20, 29 has indicator 101100; "In this case there is
   only one choice, the pile with 37 stones ... we remove 37 - 9 = 28". */
static void
test_ams_37_20_29(void **state)
{
    static const unsigned long moves[][2] = {{0, 9}};
    bt_position *p = bt_test_parse("37 20 29", "nim", NULL);
    bt_analysis *a = analyze(p, BT_EXPLAIN);
    mpz_t g;
    (void)state;
    check_example("37 20 29", 0, BT_N, 1, moves);
    check_example("9 20 29", 0, BT_P, 0, NULL);
    mpz_init(g);
    assert_int_equal(bt_analysis_grundy(g, a), BT_OK);
    assert_true(mpz_cmp_ui(g, 0x2c) == 0); /* 101100 */
    mpz_clear(g);
    assert_non_null(bt_analysis_explanation(a));
    assert_non_null(strstr(bt_analysis_explanation(a), "101100"));
    assert_string_equal(bt_analysis_move(a, 0)->text, "take 28 from pile 1");
    bt_analysis_free(a);
    bt_position_free(p);
}

/* Reads the rows of a data file of tests/cases: numbers separated by
   blanks, '#' comments; a leading word is kept in *tag.  Returns the
   number of numbers read into row (0 at the end of the file). */
static size_t
read_row(FILE *f, unsigned long *row, size_t cap, char *tag)
{
    char line[1024], *s, *end;
    size_t n;
    while (fgets(line, sizeof line, f) != NULL) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        s = line;
        if (tag != NULL) {
            *tag = *s;
            s++;
        }
        for (n = 0; n < cap; n++) {
            unsigned long v = strtoul(s, &end, 10);
            if (end == s)
                break;
            row[n] = v;
            s = end;
        }
        return n;
    }
    return 0;
}

static FILE *
open_case(const char *name)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", BT_TEST_CASES, name);
    f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    return f;
}

/* Beardon sec. 1: the game from (41, 163, 13).  Every step is one legal
   move (one pile made smaller); the start is odd (N) with the column sums
   he gives; B takes the last stone and wins.  The first three moves
   (A, B, A) each pass on an odd position: both players err, since each
   could have passed an even one.  From B's move to (0, 13, 13) on B
   passes even positions and A odd ones, as his facts (1) and (2) say. */
static void
test_beardon_game(void **state)
{
    static const bt_outcome want[] = {BT_N, BT_N, BT_N, BT_N, BT_P,
                                      BT_N, BT_P, BT_N, BT_P};
    FILE *f = open_case("nim_beardon_game.txt");
    unsigned long row[3], prev[3] = {0, 0, 0};
    char tag = 0, text[64];
    size_t step = 0, i, changed;
    bt_position *p;
    bt_analysis *a;
    (void)state;
    while (read_row(f, row, 3, &tag) == 3) {
        assert_true(step < sizeof want / sizeof want[0]);
        snprintf(text, sizeof text, "%lu %lu %lu", row[0], row[1], row[2]);
        p = bt_test_parse(text, "nim", NULL);
        a = analyze(p, BT_EXPLAIN);
        if (bt_analysis_outcome(a) != want[step])
            fail_msg("Beardon's game, step %zu (%s): wrong outcome", step,
                     text);
        if (step == 0) {
            /* "an odd position", column sums 3 1 1 2 0 2 0 1 (units
               first): 10202113 from the left */
            assert_int_equal(tag, '-');
            assert_non_null(strstr(bt_analysis_explanation(a), "10202113"));
            /* the one way to pass an even position: 163 -> 36 */
            assert_int_equal(bt_analysis_move_count(a), 1);
            assert_move(a, 0, 1, 36);
        } else {
            assert_int_equal(tag, step % 2 ? 'A' : 'B');
            for (changed = 0, i = 0; i < 3; i++) {
                assert_true(row[i] <= prev[i]);
                changed += row[i] < prev[i];
            }
            assert_int_equal(changed, 1); /* one pile, at least one stone */
            if (step >= 4)                /* B passes even (P), A odd (N) */
                assert_int_equal(bt_analysis_outcome(a),
                                 tag == 'B' ? BT_P : BT_N);
        }
        if (step == 8) /* B took the last stone */
            assert_true(bt_position_is_terminal(p));
        else
            assert_false(bt_position_is_terminal(p));
        memcpy(prev, row, sizeof prev);
        bt_analysis_free(a);
        bt_position_free(p);
        step++;
    }
    assert_int_equal(step, 9);
    fclose(f);
}

/* Beardon's worked move: (25, 28, 10) is odd, the largest odd column is
   k = 3, and emptying and refilling the third pile gives (25, 28, 5).  All
   three piles have a 1 in that column, so there are three winning moves. */
static void
test_beardon_25_28_10(void **state)
{
    static const unsigned long moves[][2] = {{0, 22}, {1, 19}, {2, 5}};
    (void)state;
    check_example("25 28 10", 0, BT_N, 3, moves);
    check_example("25 28 5", 0, BT_P, 0, NULL);
}

/* The essay, sec. 3.5: (6, 3, 7) has nim-sum 010 and all three piles have
   the 1: three moves, to (4, 3, 7), (6, 1, 7) and (6, 3, 5). */
static void
test_essay_6_3_7(void **state)
{
    static const unsigned long moves[][2] = {{0, 4}, {1, 1}, {2, 5}};
    (void)state;
    check_example("6 3 7", 0, BT_N, 3, moves);
    check_example("4 3 7", 0, BT_P, 0, NULL);
    check_example("6 1 7", 0, BT_P, 0, NULL);
    check_example("6 3 5", 0, BT_P, 0, NULL);
}

/* The essay's four-pile safe positions and families (sec. 3.1). */
static void
test_essay_four_piles(void **state)
{
    FILE *f = open_case("nim_essay_safe4.txt");
    unsigned long row[4];
    char text[64];
    unsigned n, m;
    size_t rows = 0;
    (void)state;
    while (read_row(f, row, 4, NULL) == 4) {
        snprintf(text, sizeof text, "%lu %lu %lu %lu", row[0], row[1], row[2],
                 row[3]);
        check_example(text, 0, BT_P, 0, NULL);
        rows++;
    }
    fclose(f);
    assert_int_equal(rows, 9);
    for (n = 0; n < 12; n++) {
        for (m = 0; m < 12; m++) {
            snprintf(text, sizeof text, "1 1 %u %u", n, n);
            check_example(text, 0, BT_P, 0, NULL);
            snprintf(text, sizeof text, "%u %u %u %u", n, n, m, m);
            check_example(text, 0, BT_P, 0, NULL);
        }
        snprintf(text, sizeof text, "%u %u %u %u", n, n, n, n);
        check_example(text, 0, BT_P, 0, NULL);
    }
}

/* The essay's misère endgame (sec. 3.4): from (1, 2, 3) B can leave six
   positions and A answers each: 12 -> 1, 121 -> 111, 122 -> 22, 113 ->
   111, 13 -> 1, 23 -> 22.  Bouton sec. 6: 1, 1, 0 is not safe, 1, 1, 1 and
   1, 0, 0 are. */
static void
test_essay_misere_endgame(void **state)
{
    static const struct {
        const char *from;
        unsigned long comp, to;
    } cases[] = {{"1 2 0", 1, 0}, {"1 2 1", 1, 1}, {"1 2 2", 0, 0},
                 {"1 1 3", 2, 1}, {"1 0 3", 2, 0}, {"0 2 3", 2, 2}};
    size_t i, j;
    int found;
    (void)state;
    check_example("1 2 3", BT_MISERE, BT_P, 0, NULL);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bt_position *p = bt_test_parse(cases[i].from, "nim", NULL);
        bt_analysis *a = analyze(p, BT_MISERE);
        assert_int_equal(bt_analysis_outcome(a), BT_N);
        for (found = 0, j = 0; j < bt_analysis_move_count(a); j++) {
            const bt_move *m = bt_analysis_move(a, j);
            found |= m->component == cases[i].comp &&
                     mpz_cmp_ui(m->to[0], cases[i].to) == 0;
        }
        if (!found)
            fail_msg("misère %s: the essay's answer is not a winning move",
                     cases[i].from);
        bt_analysis_free(a);
        bt_position_free(p);
    }
    check_example("1 1 0", BT_MISERE, BT_N, 2,
                  (const unsigned long[][2]){{0, 0}, {1, 0}});
    check_example("1 1 1", BT_MISERE, BT_P, 0, NULL);
    check_example("1 0 0", BT_MISERE, BT_P, 0, NULL);
}

/* Zero piles and empty piles. */
static void
test_edges(void **state)
{
    bt_position *p;
    bt_analysis *a;
    mpz_t g;
    (void)state;
    mpz_init(g);
    /* no piles: normal play, the player to move has lost; misère, the
       opponent took the last counter, so the player to move has won, with
       no move to make */
    p = bt_test_parse("", "nim", NULL);
    assert_int_equal(bt_position_size(p), 0);
    assert_true(bt_position_is_terminal(p));
    a = analyze(p, 0);
    assert_int_equal(bt_analysis_outcome(a), BT_P);
    assert_int_equal(bt_analysis_move_count(a), 0);
    assert_int_equal(bt_analysis_grundy(g, a), BT_OK);
    assert_int_equal(mpz_sgn(g), 0);
    bt_analysis_free(a);
    a = analyze(p, BT_MISERE);
    assert_int_equal(bt_analysis_outcome(a), BT_N);
    assert_int_equal(bt_analysis_move_count(a), 0);
    bt_analysis_free(a);
    bt_position_free(p);
    /* only empty piles: the same */
    check_example("0 0 0", 0, BT_P, 0, NULL);
    check_example("0 0 0", BT_MISERE, BT_N, 0, NULL);
    /* one pile: take it all (normal), all but one (misère) */
    check_example("0 9 0", 0, BT_N, 1, (const unsigned long[][2]){{1, 0}});
    check_example("0 9 0", BT_MISERE, BT_N, 1,
                  (const unsigned long[][2]){{1, 1}});
    /* a huge pile beside empty ones */
    check_example("0 100000000000000000000000000000000000000000 0", 0, BT_N, 1,
                  (const unsigned long[][2]){{1, 0}});
    mpz_clear(g);
}

/* -------------------------------------------------- tables (bt_table) */

/* Collects the rows of the table of k = 3 piles below `below`. */
static size_t
table_rows(unsigned long below, int misere, unsigned long (*rows)[3],
           size_t cap)
{
    bt_game *g = nim();
    bt_table *t = NULL;
    mpz_t lo, hi, row[3];
    size_t n = 0, i;
    int r;
    mpz_init_set_ui(lo, 0);
    mpz_init_set_ui(hi, below);
    for (i = 0; i < 3; i++)
        mpz_init(row[i]);
    assert_int_equal(bt_table_new(&t, g, misere, 3, lo, hi, NULL, NULL), BT_OK);
    assert_int_equal(bt_table_width(t), 3);
    while ((r = bt_table_next(t, row)) > 0) {
        assert_true(n < cap);
        for (i = 0; i < 3; i++)
            rows[n][i] = mpz_get_ui(row[i]);
        n++;
    }
    assert_int_equal(r, 0);
    for (i = 0; i < 3; i++)
        mpz_clear(row[i]);
    mpz_clears(lo, hi, NULL);
    bt_table_free(t);
    bt_game_free(g);
    return n;
}

static int
row_cmp(const void *x, const void *y)
{
    const unsigned long *a = x, *b = y;
    int i;
    for (i = 0; i < 3; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* The table is in strictly increasing lexicographic order, each row
   non-decreasing. */
static void
assert_table_order(unsigned long (*rows)[3], size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        assert_true(rows[i][0] <= rows[i][1] && rows[i][1] <= rows[i][2]);
        if (i > 0)
            assert_true(row_cmp(rows[i - 1], rows[i]) < 0);
    }
}

/* Bouton sec. 4: the 35 and the 15 (0, n, n), and (0, 0, 0), which he does
   not list, make the whole table below 16. */
static void
test_bouton_sec4_table(void **state)
{
    unsigned long rows[64][3], want[64][3];
    FILE *f = open_case("nim_bouton_sec4.txt");
    size_t n, nw = 0, nonzero = 0, i;
    (void)state;
    while (nw < 64 && read_row(f, want[nw], 3, NULL) == 3) {
        nonzero += want[nw][0] != 0;
        nw++;
    }
    fclose(f);
    assert_int_equal(nonzero, 35);
    assert_int_equal(nw, 50);
    want[nw][0] = want[nw][1] = want[nw][2] = 0;
    nw++;
    for (i = 0; i < nw; i++) /* each of them is safe */
        assert_true((want[i][0] ^ want[i][1] ^ want[i][2]) == 0);
    n = table_rows(16, 0, rows, 64);
    assert_table_order(rows, n);
    qsort(want, nw, sizeof want[0], row_cmp);
    assert_int_equal(n, nw);
    for (i = 0; i < n; i++)
        assert_int_equal(row_cmp(rows[i], want[i]), 0);
}

/* The essay's Table 2 (piles up to 10): its rows without an empty pile,
   (0, 1, 1), and the nine (0, n, n) the text adds, and (0, 0, 0). */
static void
test_essay_table2(void **state)
{
    unsigned long rows[64][3], want[64][4];
    FILE *f = open_case("nim_essay_table2.txt");
    size_t n, nw = 0, i, j, zero_rows = 0;
    (void)state;
    while (nw < 64 && read_row(f, want[nw], 4, NULL) == 4) {
        /* the column "Total" is the sum of the piles */
        assert_int_equal(want[nw][3], want[nw][0] + want[nw][1] + want[nw][2]);
        nw++;
    }
    fclose(f);
    assert_int_equal(nw, 11);
    n = table_rows(11, 0, rows, 64);
    assert_table_order(rows, n);
    assert_int_equal(n, 11 + 9 + 1);
    for (i = 0; i < n; i++) {
        int listed = 0;
        for (j = 0; j < nw; j++)
            listed |= rows[i][0] == want[j][0] && rows[i][1] == want[j][1] &&
                      rows[i][2] == want[j][2];
        if (rows[i][0] == 0 && !listed) {
            /* (0, 0, 0) or one of the nine (0, n, n), n = 2..10 */
            assert_int_equal(rows[i][1], rows[i][2]);
            assert_true(rows[i][1] != 1);
            zero_rows++;
        } else if (!listed) {
            fail_msg("(%lu, %lu, %lu) is safe but not in Table 2", rows[i][0],
                     rows[i][1], rows[i][2]);
        }
    }
    assert_int_equal(zero_rows, 10);
}

/* The misère table below 8 against the oracle: the rows are exactly the
   sorted triples the oracle calls P. */
static void
test_misere_table(void **state)
{
    oracle_nim *o = oracle_nim_new(1, 3, 7);
    unsigned long rows[128][3];
    unsigned x[3];
    size_t n, i = 0;
    (void)state;
    assert_non_null(o);
    n = table_rows(8, 1, rows, 128);
    assert_table_order(rows, n);
    for (x[0] = 0; x[0] < 8; x[0]++)
        for (x[1] = x[0]; x[1] < 8; x[1]++)
            for (x[2] = x[1]; x[2] < 8; x[2]++)
                if (oracle_nim_is_p(o, x, 3) == 1) {
                    assert_true(i < n);
                    assert_int_equal(rows[i][0], x[0]);
                    assert_int_equal(rows[i][1], x[1]);
                    assert_int_equal(rows[i][2], x[2]);
                    i++;
                }
    assert_int_equal(i, n);
    oracle_nim_free(o);
}

/* ------------------------------------------------------------ nim-sum */

static void
test_nim_sum(void **state)
{
    mpz_t a, b, c;
    (void)state;
    mpz_init_set_ui(a, 37);
    mpz_init_set_ui(b, 20);
    mpz_init(c);
    bt_nim_sum(c, a, b);
    assert_true(mpz_cmp_ui(c, 49) == 0);
    mpz_set_ui(c, 29);
    bt_nim_sum(a, a, b); /* aliasing */
    bt_nim_sum(a, a, c);
    assert_true(mpz_cmp_ui(a, 44) == 0); /* the AMS indicator 101100 */
    bt_nim_sum(a, a, a);
    assert_int_equal(mpz_sgn(a), 0);
    mpz_clears(a, b, c, NULL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_normal),
        cmocka_unit_test(test_oracle_misere),
        cmocka_unit_test(test_misere_ones),
        cmocka_unit_test(test_huge_random),
        cmocka_unit_test(test_bouton_9_5_12),
        cmocka_unit_test(test_bouton_7_5_12),
        cmocka_unit_test(test_ams_37_20_29),
        cmocka_unit_test(test_beardon_game),
        cmocka_unit_test(test_beardon_25_28_10),
        cmocka_unit_test(test_essay_6_3_7),
        cmocka_unit_test(test_essay_four_piles),
        cmocka_unit_test(test_essay_misere_endgame),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_bouton_sec4_table),
        cmocka_unit_test(test_essay_table2),
        cmocka_unit_test(test_misere_table),
        cmocka_unit_test(test_nim_sum),
    };
    const char *s = getenv("BT_TEST_SEED");
    seed = s ? strtoul(s, NULL, 10) : 20240601ul;
    return cmocka_run_group_tests(tests, NULL, NULL);
}
