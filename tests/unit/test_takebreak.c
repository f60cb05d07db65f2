/* label: quick
 *
 * test_takebreak.c -- take-and-break codes (tb:CODE): hexadecimal digits
 * (moves that leave three heaps) and repeating blocks (infinite codes).
 * The Grundy values of random codes against the brute-force mex of
 * tests/oracle/oracle_heap.c, written from the rules (every option of
 * every heap read from the digits, nothing of the library's theory), by
 * both methods of the engine; every option of small heaps against the same
 * rules; Lasker's Nim against its closed form; codes that
 * name known games (octal codes, Nim, 4 for 4.0) against those games; the
 * periods the engine proves against brute-force values far past the
 * proof; the winning moves of small sums against the brute-force search of
 * tests/oracle (the definitions of P and N, not Grundy values); texts,
 * errors and limits.
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

/* n random rounds, a quarter of them under valgrind (bt_test_light). */
#define ROUNDS(n) (bt_test_light() ? (n) / 4 : (n))

#include "oracle_heap.h"
#include "oracle_search.h"

#include "../../src/core/core.h"

/* ------------------------------------------------------------- codes */

/* A code as digits: d[0..t], then block[0..blen-1] forever (blen 0:
   finite). */
typedef struct code {
    unsigned d[8], t, block[4], blen;
} code;

static void
code_text(char *buf, size_t size, const code *c)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    unsigned i;
    n += (size_t)snprintf(buf + n, size - n, "tb:%c.", hex[c->d[0]]);
    for (i = 1; i <= c->t; i++)
        buf[n++] = hex[c->d[i]];
    if (c->blen) {
        buf[n++] = '[';
        for (i = 0; i < c->blen; i++)
            buf[n++] = hex[c->block[i]];
        buf[n++] = ']';
    }
    if (c->t == 0 && c->blen == 0)
        buf[n++] = '0';
    buf[n] = '\0';
}

/* The brute-force oracle's game of a code (tests/oracle/oracle_heap.c:
   the options of a heap read from the digits, G by the mex). */
static oh_game *
oracle_of(const code *c)
{
    oh_game *g = oh_game_code(c->d, c->t, c->block, c->blen);
    assert_non_null(g);
    return g;
}

/* G(0..n-1) by the definition (malloc'd). */
static unsigned *
brute(const code *c, unsigned n)
{
    oh_game *g = oracle_of(c);
    unsigned *v = oh_grundy(g, n);
    assert_non_null(v);
    oh_game_free(g);
    return v;
}

static code
random_code(int infinite)
{
    static const unsigned d0s[4] = {0, 4, 8, 12};
    code c;
    unsigned i;
    memset(&c, 0, sizeof c);
    c.d[0] = d0s[bt_test_rnd(4)];
    c.t = 1 + bt_test_rnd(infinite ? 4 : 5);
    for (i = 1; i <= c.t; i++)
        c.d[i] = bt_test_rnd(16);
    if (!infinite) {
        if (c.d[c.t] == 0)
            c.d[c.t] = 1 + bt_test_rnd(15);
        return c;
    }
    c.blen = 1 + bt_test_rnd(3);
    for (i = 0; i < c.blen; i++)
        /* a block with three heaps costs O(n^4): rarely */
        c.block[i] = bt_test_rnd(4) == 0 ? bt_test_rnd(16) : bt_test_rnd(8);
    if (c.block[0] == 0)
        c.block[0] = 3;
    return c;
}

/* G(0..n-1) of spec by the engine with method m. */
static void
engine_values(const char *spec, bt_seq_method m, size_t n, unsigned *out)
{
    bt_game *g = bt_test_game(spec);
    bt_sequence *s = NULL;
    bt_diag d;
    size_t i;
    assert_int_equal(bt_sequence_new(&s, g, m, &d), BT_OK);
    if (bt_sequence_compute(s, n, NULL, &d) != BT_OK)
        fail_msg("%s: %s", spec, d.message);
    for (i = 0; i < n; i++)
        out[i] = bt_sequence_value(s, i);
    bt_sequence_free(s);
    bt_game_free(g);
}

static void
check_values(const char *spec, const unsigned *want, size_t n)
{
    static unsigned got[512];
    bt_seq_method m;
    size_t i;
    assert_true(n <= 512);
    for (m = BT_SEQ_AUTO; m <= BT_SEQ_RARE; m++) {
        engine_values(spec, m, n, got);
        for (i = 0; i < n; i++)
            if (got[i] != want[i])
                fail_msg("%s (method %d, seed %llu): G(%zu) = %u, the "
                         "rules give %u",
                         spec, (int)m, bt_test_seed(), i, got[i], want[i]);
    }
}

/* ------------------------------------------------------------- texts */

static void
test_specs(void **state)
{
    static const char *const t[][2] = {
        {"tb:0.77", "tb:0.77"},
        {"tb:.77", "tb:0.77"},
        {"tb:0.7700", "tb:0.77"},
        {"tb:0.f8", "tb:0.F8"},
        {"tb:4", "tb:4.0"},
        {"tb:4.0", "tb:4.0"},
        {"tb:c", "tb:C.0"},
        {"tb:0.[3]", "tb:0.[3]"},
        {"tb:0.33[3]", "tb:0.[3]"},
        {"tb:0.3[33]", "tb:0.[3]"},
        {"tb:0.7[0]", "tb:0.7"},
        {"tb:0.12[12]", "tb:0.[12]"},
        {"tb:0.3003330[3]", "tb:0.3003330[3]"},
        {"tb:4.[3]", "tb:4.[3]"},
        {"laskers-nim", "tb:4.[3]"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        bt_game *g = bt_test_game(t[i][0]);
        assert_string_equal(bt_game_spec(g), t[i][1]);
        assert_string_equal(bt_game_family(g), "tb");
        assert_int_equal(bt_game_arity(g), 1);
        assert_true(bt_sequence_is_supported(g));
        bt_game_free(g);
    }
}

static void
test_spec_errors(void **state)
{
    static const struct {
        const char *text, *msg;
        long offset;
    } t[] = {
        {"tb", "needs a code", -1},
        {"tb:", "needs a code", -1},
        {"tb:0.7g", "unexpected 'g' at column 4", 6},
        {"tb:1.3", "must be 0, 4, 8 or C", 3},
        {"tb:2", "must be 0, 4, 8 or C", 3},
        {"tb:0.", "no digit after the point", 5},
        {"tb:0.0", "allows no move at all", -1},
        {"tb:0.[0]", "allows no move at all", -1},
        {"tb:0.[3", "is not closed", 5},
        {"tb:0.[]", "empty repeating block", 5},
        {"tb:0.[3]3", "the repeating block ends the code", 8},
        {"tb:0.3]", "unexpected ']'", 6},
        {"tb:07", "expected a point", 4},
        {"laskers-nim:3", "takes no parameters", -1},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof t / sizeof t[0]; i++)
        bt_test_game_refused(t[i].text, t[i].msg, t[i].offset);
}

/* ------------------------------------------------------------ values */

/* Random finite hexadecimal codes (moves that leave three heaps). */
static void
test_random_hex(void **state)
{
    int round;
    (void)state;
    for (round = 0; round < ROUNDS(40); round++) {
        code c = random_code(0);
        char spec[64];
        unsigned *g = brute(&c, 90);
        code_text(spec, sizeof spec, &c);
        check_values(spec, g, 90);
        free(g);
    }
}

/* Random infinite codes: a prefix, then a repeating block. */
static void
test_random_repeating(void **state)
{
    int round;
    (void)state;
    for (round = 0; round < ROUNDS(40); round++) {
        code c = random_code(1);
        char spec[64];
        unsigned *g = brute(&c, 70);
        code_text(spec, sizeof spec, &c);
        check_values(spec, g, 70);
        free(g);
    }
}

/* Lasker's Nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4,
   G(4k+4) = 4k+3 (Winning Ways ch. 4), and G(0) = 0. */
static void
test_laskers_nim(void **state)
{
    static unsigned want[400];
    static const char *const names[] = {"laskers-nim", "tb:4.[3]"};
    size_t n, i;
    (void)state;
    for (n = 1; n < 400; n++) {
        size_t r = n % 4;
        want[n] = r == 1 || r == 2 ? (unsigned)n
                  : r == 3         ? (unsigned)n + 1
                                   : (unsigned)n - 1;
    }
    for (i = 0; i < 2; i++) {
        static unsigned got[400];
        engine_values(names[i], BT_SEQ_AUTO, 400, got);
        for (n = 0; n < 400; n++)
            if (got[n] != want[n])
                fail_msg("%s: G(%zu) = %u, the closed form gives %u",
                         names[i], n, got[n], want[n]);
    }
}

/* Codes that name known games give their sequences: octal codes (the
   engine's octal family), Nim, the all-but subtraction game. */
static void
test_known_games(void **state)
{
    static const char *const same[][2] = {
        {"tb:0.137", "octal:0.137"}, {"tb:0.77", "kayles"},
        {"tb:0.07", "dawsons-kayles"}, {"tb:4", "octal:4.0"},
        {"tb:4.07", "octal:4.07"},   {"tb:0.354", "octal:0.354"},
        {"tb:0.333", "sub:1-3"},     {"tb:0.6", "officers"},
    };
    static unsigned a[300], b[300];
    size_t i, n;
    code allbut;
    unsigned *g;
    (void)state;
    for (i = 0; i < sizeof same / sizeof same[0]; i++) {
        bt_game *ga = bt_test_game(same[i][0]), *gb = bt_test_game(same[i][1]);
        bt_sequence *sa = NULL, *sb = NULL;
        size_t pa = 0, qa = 0, pb = 0, qb = 0;
        engine_values(same[i][0], BT_SEQ_AUTO, 300, a);
        engine_values(same[i][1], BT_SEQ_AUTO, 300, b);
        for (n = 0; n < 300; n++)
            if (a[n] != b[n])
                fail_msg("%s: G(%zu) = %u, %s has %u", same[i][0], n, a[n],
                         same[i][1], b[n]);
        /* the same proof, from the same values */
        assert_int_equal(bt_sequence_new(&sa, ga, BT_SEQ_AUTO, NULL), BT_OK);
        assert_int_equal(bt_sequence_new(&sb, gb, BT_SEQ_AUTO, NULL), BT_OK);
        assert_int_equal(bt_sequence_prove(sa, 4096, NULL, NULL), BT_OK);
        assert_int_equal(bt_sequence_prove(sb, 4096, NULL, NULL), BT_OK);
        assert_int_equal(bt_sequence_is_proved(sa), bt_sequence_is_proved(sb));
        if (bt_sequence_is_proved(sa)) {
            bt_sequence_period(sa, &pa, &qa);
            bt_sequence_period(sb, &pb, &qb);
            assert_int_equal(pa, pb);
            assert_int_equal(qa, qb);
        }
        bt_sequence_free(sa);
        bt_sequence_free(sb);
        bt_game_free(ga);
        bt_game_free(gb);
    }
    /* Nim */
    engine_values("tb:0.[3]", BT_SEQ_AUTO, 300, a);
    for (n = 0; n < 300; n++)
        assert_int_equal(a[n], n);
    /* CGSuite's all-but subtraction game: any number but 2, 3 and 7 */
    memset(&allbut, 0, sizeof allbut);
    allbut.t = 7;
    allbut.d[1] = 3;
    allbut.d[4] = allbut.d[5] = allbut.d[6] = 3;
    allbut.blen = 1;
    allbut.block[0] = 3;
    g = brute(&allbut, 200);
    check_values("tb:0.3003330[3]", g, 200);
    free(g);
}

/*
 * Finite hexadecimal codes the engine proves periodic: the values the
 * proof extends (far past those it computed) against the rules.  4.C has
 * period 34 from 54 (its proof needs n < 3*54 + 2*34 + 1); the others are
 * short.  Random codes too, checked when the engine proves them.
 */
static void
check_proof(const code *c, size_t limit, unsigned upto)
{
    char spec[64];
    bt_game *g;
    bt_sequence *s = NULL;
    bt_diag d;
    size_t len, n;
    unsigned *want;
    mpz_t x, v;
    code_text(spec, sizeof spec, c);
    g = bt_test_game(spec);
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, &d), BT_OK);
    if (bt_sequence_prove(s, limit, NULL, &d) != BT_OK)
        fail_msg("%s: %s", spec, d.message);
    if (!bt_sequence_is_proved(s)) {
        bt_sequence_free(s);
        bt_game_free(g);
        return;
    }
    len = bt_sequence_length(s);
    assert_true(len < upto);
    want = brute(c, upto);
    mpz_inits(x, v, NULL);
    for (n = 0; n < upto; n++) {
        mpz_set_ui(x, n);
        assert_int_equal(bt_sequence_grundy(v, s, x, &d), BT_OK);
        if (mpz_get_ui(v) != want[n])
            fail_msg("%s, proved from %zu values: G(%zu) = %lu, the rules "
                     "give %u (seed %llu)",
                     spec, len, n, mpz_get_ui(v), want[n], bt_test_seed());
    }
    mpz_clears(x, v, NULL);
    free(want);
    bt_sequence_free(s);
    bt_game_free(g);
}

static void
test_proofs(void **state)
{
    static const unsigned fixed[][4] = {
        /* d0, d1, d2, t */
        {4, 12, 0, 1}, {4, 12, 7, 2}, {0, 15, 1, 2},
        {0, 11, 1, 2}, {4, 15, 2, 2}, {0, 10, 6, 2},
    };
    size_t i;
    int round;
    (void)state;
    for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        code c;
        char spec[64];
        bt_game *g;
        bt_sequence *s = NULL;
        memset(&c, 0, sizeof c);
        c.d[0] = fixed[i][0];
        c.d[1] = fixed[i][1];
        c.d[2] = fixed[i][2];
        c.t = fixed[i][3];
        code_text(spec, sizeof spec, &c);
        g = bt_test_game(spec);
        assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, NULL), BT_OK);
        assert_int_equal(bt_sequence_prove(s, 1000, NULL, NULL), BT_OK);
        if (!bt_sequence_is_proved(s))
            fail_msg("%s: not proved within 1000 values", spec);
        bt_sequence_free(s);
        bt_game_free(g);
        check_proof(&c, 1000, 600);
    }
    for (round = 0; round < ROUNDS(20); round++) {
        code c = random_code(0);
        if (c.t > 3)
            c.t = 3;
        if (c.d[c.t] == 0)
            c.d[c.t] = 1;
        check_proof(&c, 150, 300);
    }
}

/* ----------------------------------------------------------- options */

static void
on_option(void *ud, const unsigned *parts, size_t np)
{
    bt_test_list_add(ud, 0, parts, np);
}

/* Every option of every heap up to 16 of random codes of both kinds, each
   once. */
static void
test_options(void **state)
{
    static bt_test_list want, got;
    int round;
    (void)state;
    for (round = 0; round < ROUNDS(30); round++) {
        code c = random_code(round % 2);
        oh_game *og = oracle_of(&c);
        char spec[64];
        unsigned n;
        code_text(spec, sizeof spec, &c);
        for (n = 0; n <= 16; n++) {
            char text[96];
            bt_position *p;
            bt_move *moves = NULL;
            size_t count = 0, i;
            bt_diag d;
            snprintf(text, sizeof text, "%s %u", spec, n);
            p = bt_test_parse(text, NULL, NULL);
            want.n = got.n = 0;
            oh_options(og, n, on_option, &want);
            if (bt_position_moves(&moves, &count, p, NULL, &d) != BT_OK)
                fail_msg("moves of %s: %s", text, d.message);
            for (i = 0; i < count; i++)
                bt_test_list_add_move(&got, &moves[i]);
            bt_test_list_check(&want, &got, text);
            bt_moves_free(moves, count);
            bt_position_free(p);
        }
        oh_game_free(og);
    }
}

/*
 * The winning moves of every sum of two heaps up to 7 (and of three up to
 * 4) of codes with three-heap moves and of infinite codes: the moves to
 * P-positions by the brute-force search of tests/oracle, which knows
 * nothing of Grundy values.
 */
static void
test_winning_moves(void **state)
{
    static const char *const specs[] = {"tb:0.8", "tb:0.F", "tb:4.9C",
                                        "tb:8.3", "tb:4.[3]", "tb:0.1[6]",
                                        "tb:0.3003330[3]"};
    static bt_test_list want, got;
    size_t k;
    (void)state;
    for (k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        oracle_search *o = oracle_search_new(0);
        unsigned a, b, c;
        assert_non_null(o);
        for (a = 0; a <= 7; a++)
            for (b = a; b <= 7; b++)
                for (c = 0; c <= (b <= 4 ? 4u : 0u); c++) {
                    char text[96];
                    bt_position *p;
                    bt_analysis *an = NULL;
                    bt_move *moves = NULL;
                    size_t count = 0, i;
                    int win;
                    long rem;
                    bt_diag d;
                    if (c > 0)
                        snprintf(text, sizeof text, "%s %u %u %u", specs[k],
                                 a, b, c);
                    else
                        snprintf(text, sizeof text, "%s %u %u", specs[k], a,
                                 b);
                    p = bt_test_parse(text, NULL, NULL);
                    assert_int_equal(oracle_search_solve(o, p, &win, &rem),
                                     0);
                    if (bt_analyze(&an, p, 0, NULL, &d) != BT_OK)
                        fail_msg("analyze %s: %s", text, d.message);
                    assert_int_equal(bt_analysis_outcome(an),
                                     win ? BT_N : BT_P);
                    want.n = got.n = 0;
                    assert_int_equal(
                        bt_position_moves(&moves, &count, p, NULL, &d), BT_OK);
                    for (i = 0; i < count; i++) {
                        bt_position *q = NULL;
                        int w2;
                        assert_int_equal(bt_position_copy(&q, p), BT_OK);
                        assert_int_equal(bt_position_apply(q, &moves[i]),
                                         BT_OK);
                        assert_int_equal(oracle_search_solve(o, q, &w2, &rem),
                                         0);
                        if (!w2)
                            bt_test_list_add_move(&want, &moves[i]);
                        bt_position_free(q);
                    }
                    for (i = 0; i < bt_analysis_move_count(an); i++)
                        bt_test_list_add_move(&got, bt_analysis_move(an, i));
                    bt_test_list_check(&want, &got, text);
                    bt_moves_free(moves, count);
                    bt_analysis_free(an);
                    bt_position_free(p);
                }
        oracle_search_free(o);
    }
}

/* The texts of moves that leave three heaps. */
static void
test_texts(void **state)
{
    bt_position *p = bt_test_parse("tb:4.8 9 + tb:4.8 0", NULL, NULL);
    bt_move *moves = NULL;
    size_t count = 0, i;
    int split3 = 0, take3 = 0;
    (void)state;
    assert_int_equal(bt_position_moves(&moves, &count, p, NULL, NULL),
                     BT_OK);
    for (i = 0; i < count; i++) {
        if (strcmp(moves[i].text, "take 1 from heap 1 and split the rest "
                                  "into 2, 3 and 3") == 0)
            take3 = 1;
        if (moves[i].nto == 2 &&
            strcmp(moves[i].text, "split heap 1 into 4 and 5") == 0)
            split3 = 1;
    }
    assert_true(take3);
    assert_true(split3);
    bt_moves_free(moves, count);
    bt_position_free(p);
}

/* ------------------------------------------- a move checked by rules */

/* The options of one heap, each as its heaps sorted (at most three). */
typedef struct {
    unsigned long opt[4096][4]; /* count of heaps, then the heaps */
    size_t n;
} listed;

static bt_status
on_heap_option(void *ud, const mpz_t *to, size_t nto)
{
    listed *l = ud;
    unsigned long h[3] = {0, 0, 0}, t;
    size_t i, j;
    assert_true(nto <= 3 && l->n < 4096);
    for (i = 0; i < nto; i++)
        h[i] = mpz_get_ui(to[i]);
    for (i = 0; i < nto; i++) /* sort the few heaps */
        for (j = i + 1; j < nto; j++)
            if (h[j] < h[i]) {
                t = h[i];
                h[i] = h[j];
                h[j] = t;
            }
    l->opt[l->n][0] = nto;
    memcpy(&l->opt[l->n][1], h, sizeof h);
    l->n++;
    return BT_OK;
}

static int
is_listed(const listed *l, size_t nto, const unsigned long *h)
{
    size_t i;
    for (i = 0; i < l->n; i++)
        if (l->opt[i][0] == nto && memcmp(&l->opt[i][1], h,
                                          nto * sizeof *h) == 0)
            return 1;
    return 0;
}

/* The ruleset's is_option (a player's move on a heap of 10^12 counters is
   checked by it) says yes exactly for the listed options: every heap up to
   14 and every leave of up to three heaps, for codes with every kind of
   digit, an infinite code, Grundy's game and subtraction sets. */
static void
test_is_option(void **state)
{
    static const char *games[] = {
        "octal:0.77", "octal:0.07", "octal:0.137", "octal:4.3",
        "octal:0.6",  "tb:0.F",     "tb:0.8",      "tb:0.[3]",
        "tb:0.4C",    "grundy",     "sub:1-3",     "sub:2,5,7"};
    static listed l;
    size_t gi;
    mpz_t c, to[3];
    (void)state;
    mpz_init(c);
    for (gi = 0; gi < 3; gi++)
        mpz_init(to[gi]);
    for (gi = 0; gi < sizeof games / sizeof *games; gi++) {
        bt_game *g = bt_test_game(games[gi]);
        unsigned long h, a, b, cc;
        assert_non_null(g->rules->is_option);
        for (h = 1; h <= 14; h++) {
            size_t nto;
            mpz_set_ui(c, h);
            l.n = 0;
            assert_int_equal(bt__rs_options(g, (const mpz_t *)&c, 1,
                                            on_heap_option, &l, NULL, NULL),
                             BT_OK);
            for (nto = 0; nto <= 3; nto++)
                for (a = 1; a <= (nto >= 1 ? h : 1); a++)
                    for (b = a; b <= (nto >= 2 ? h : a); b++)
                        for (cc = b; cc <= (nto >= 3 ? h : b); cc++) {
                            unsigned long hs[3] = {a, b, cc};
                            size_t i;
                            int yes;
                            if ((nto >= 1 ? a : 0) + (nto >= 2 ? b : 0) +
                                    (nto >= 3 ? cc : 0) > h)
                                continue;
                            for (i = 0; i < nto; i++)
                                mpz_set_ui(to[i], hs[i]);
                            yes = g->rules->is_option(
                                g, (const mpz_t *)&c, 1,
                                (const mpz_t *)to, nto);
                            if (yes != is_listed(&l, nto, hs))
                                fail_msg("%s heap %lu, leave %zu heaps "
                                         "%lu %lu %lu: is_option %d",
                                         games[gi], h, nto, a, b, cc, yes);
                        }
        }
        bt_game_free(g);
    }
    for (gi = 0; gi < 3; gi++)
        mpz_clear(to[gi]);
    mpz_clear(c);
}

/* ------------------------------------------------------------ limits */

static void
test_huge(void **state)
{
    bt_game *g;
    bt_sequence *s = NULL;
    bt_position *p;
    bt_analysis *an = NULL;
    bt_limits lim;
    bt_diag d;
    mpz_t x, v;
    unsigned *want;
    code c;
    (void)state;
    mpz_inits(x, v, NULL);
    /* a proved hexadecimal code: a heap of 40 digits through the period */
    memset(&c, 0, sizeof c);
    c.t = 1;
    c.d[1] = 15;
    want = brute(&c, 8);
    p = bt_test_parse("tb:0.F 1000000000000000000000000000000000000001",
                      NULL, NULL);
    assert_int_equal(bt_analyze(&an, p, 0, NULL, &d), BT_OK);
    assert_int_equal(bt_analysis_component_grundy(v, an, 0), BT_OK);
    assert_int_equal(mpz_get_ui(v), want[1]);
    bt_analysis_free(an);
    bt_position_free(p);
    free(want);

    /* an infinite code: no theorem, a clear error rather than a guess */
    p = bt_test_parse("tb:0.[3] 1000000000000000000000000000000000000001",
                      NULL, NULL);
    memset(&d, 0, sizeof d);
    assert_int_not_equal(bt_analyze(&an, p, 0, NULL, &d), BT_OK);
    assert_non_null(strstr(d.message, "infinite code"));
    bt_position_free(p);

    /* the plain method of three heaps stops at its work bound */
    g = bt_test_game("tb:0.8");
    bt_limits_default(&lim);
    lim.max_grundy = 4096;
    assert_int_equal(bt_sequence_new(&s, g, BT_SEQ_AUTO, NULL), BT_OK);
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_sequence_compute(s, 4000, &lim, &d), BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_grundy"));
    assert_int_equal(bt_sequence_compute(s, 150, &lim, &d), BT_OK);
    bt_sequence_free(s);
    bt_game_free(g);
    mpz_clears(x, v, NULL);
}

static int
stop_now(void *ud)
{
    (void)ud;
    return 1;
}

/*
 * The walk over a heap's options polls the budget (every 4096 options):
 * tb:0.F8 1100 has about 200 000 options (the splits into three heaps),
 * under max_search, so the walk is not refused; with an interrupt already
 * set it stops with BT_EINTR instead of listing them all (before, it
 * listed them: BT_OK).  CPU: well under 0.1 s.
 */
static void
test_walk_polls(void **state)
{
    bt_position *p = bt_test_parse("tb:0.F8 1100", NULL, NULL);
    bt_move *m = NULL;
    size_t n = 0;
    bt_limits lim;
    bt_diag d;
    (void)state;
    memset(&d, 0, sizeof d);
    bt_limits_default(&lim);
    assert_int_equal(bt_position_moves(&m, &n, p, &lim, &d), BT_OK);
    assert_true(n > 100000);
    bt_moves_free(m, n);
    lim.interrupt = stop_now;
    assert_int_equal(bt_position_moves(&m, &n, p, &lim, &d), BT_EINTR);
    bt_position_free(p);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_random_hex),
        cmocka_unit_test(test_random_repeating),
        cmocka_unit_test(test_laskers_nim),
        cmocka_unit_test(test_known_games),
        cmocka_unit_test(test_proofs),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_winning_moves),
        cmocka_unit_test(test_texts),
        cmocka_unit_test(test_is_option),
        cmocka_unit_test(test_huge),
        cmocka_unit_test(test_walk_polls),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
