/* label: quick
 *
 * test_coins.c -- the coin-turning games (src/games/coins.c) through the
 * public API, against a brute force written here from the rules alone: a
 * position of a board of B coins is a bitmask of its heads, a move turns a
 * set of coins allowed by the game (its top from heads to tails), and the
 * Grundy value is the mex over the moves.  On every position of a board
 * of 14 coins, for each game: the value, the outcome and the exact set of
 * winning moves; on every position of 10 coins, the set of all moves
 * (bt_position_moves).  Mock Turtles' single heads against the odious
 * numbers (OEIS A000069), Turning Turtles against Nim on random positions
 * of 60-digit coins, huge positions (moves checked against the rules'
 * sets), bad positions, a list of winning moves cut by max_search, a
 * move that turns the last heads found from the position it leaves, and
 * 4 000 heads analysed within a CPU bound.
 * The products (tartan:G*H, corners) against a brute force of the product
 * rule (A x B for move sets A and B of the two games): every position of
 * a 4 x 4 board (4 x 3 for some products), values, winning moves and all
 * moves, and a sample of a 5 x 4 board; Turning Corners of huge
 * coordinates against bt_nimber_mul.
 *
 * BT_TEST_SEED in the environment sets the seed of the random tests.
 * CPU: about 7 s in the normal build (tests/README.md).
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

#define BOARD 14
#define SPACE (1u << BOARD)
#define MAXSETS 128

/* The games as their rules word them: which coins a move may turn, given
   its top t (bit positions on the board; coin number = base + bit). */
typedef enum { TURTLES, MOCK, RULER, TWINS } kind;

typedef struct game {
    const char *name;
    unsigned base;
    kind kind;
} game;

static const game games[] = {
    {"turtles", 1, TURTLES},
    {"mock-turtles", 0, MOCK},
    {"ruler", 1, RULER},
    {"twins", 0, TWINS},
};

/* The move sets of top t, as masks, into out; returns how many. */
static unsigned
move_sets(kind k, unsigned t, unsigned *out)
{
    unsigned n = 0, l, m;
    unsigned top = 1u << t;
    switch (k) {
    case TURTLES: /* one or two coins */
        out[n++] = top;
        for (m = 0; m < t; m++)
            out[n++] = top | 1u << m;
        break;
    case TWINS: /* exactly two */
        for (m = 0; m < t; m++)
            out[n++] = top | 1u << m;
        break;
    case MOCK: /* one, two or three */
        out[n++] = top;
        for (m = 0; m < t; m++)
            out[n++] = top | 1u << m;
        for (m = 0; m < t; m++)
            for (l = 0; l < m; l++)
                out[n++] = top | 1u << m | 1u << l;
        break;
    case RULER: /* a run of consecutive coins ending at the top */
        for (m = 0; m <= t; m++)
            out[n++] = (top << 1) - (1u << m);
        break;
    }
    return n;
}

static unsigned sets[BOARD][MAXSETS], nsets[BOARD];
static unsigned char grundy[SPACE];

/* The brute-force Grundy values of every position of the board: a move
   clears the top bit and changes only lower ones, so it lowers the mask,
   and increasing order sees every option first. */
static void
solve(kind k)
{
    unsigned t, mask, i;
    for (t = 0; t < BOARD; t++)
        nsets[t] = move_sets(k, t, sets[t]);
    for (mask = 0; mask < SPACE; mask++) {
        unsigned char seen[256];
        unsigned g = 0;
        memset(seen, 0, sizeof seen);
        for (t = 0; t < BOARD; t++)
            if (mask >> t & 1)
                for (i = 0; i < nsets[t]; i++)
                    seen[grundy[mask ^ sets[t][i]]] = 1;
        while (seen[g])
            g++;
        assert_true(g < 256);
        grundy[mask] = (unsigned char)g;
    }
}

/* The text of the position `mask` of game gm. */
static void
text_of(const game *gm, unsigned mask, char *buf, size_t size)
{
    size_t len = (size_t)snprintf(buf, size, "%s", gm->name);
    unsigned t;
    for (t = 0; t < BOARD; t++)
        if (mask >> t & 1)
            len += (size_t)snprintf(buf + len, size - len, " %u",
                                    gm->base + t);
}

/* The mask of the heads to[0..nto-1] (each on the board, each once). */
static unsigned
mask_of(const game *gm, const mpz_t *to, size_t nto)
{
    unsigned mask = 0;
    size_t j;
    for (j = 0; j < nto; j++) {
        unsigned long x;
        assert_true(mpz_cmp_ui(to[j], gm->base) >= 0);
        assert_true(mpz_cmp_ui(to[j], gm->base + BOARD) < 0);
        x = mpz_get_ui(to[j]) - gm->base;
        assert_false(mask >> x & 1);
        mask |= 1u << x;
    }
    return mask;
}

/* Sets of positions (14 coins, or 4 x 4) as marks of a round: `round`
   steps instead of clearing them. */
static unsigned want[1u << 16], got[1u << 16], round_want, round_got;

static void
check_game(const game *gm, unsigned board_moves)
{
    unsigned mask, t, i;
    char text[256];
    mpz_t v;
    mpz_init(v);
    solve(gm->kind);
    for (mask = 0; mask < SPACE; mask++) {
        bt_position *p;
        bt_analysis *a;
        bt_diag d;
        unsigned nwant = 0, n;
        text_of(gm, mask, text, sizeof text);
        p = bt_test_parse(text, NULL, NULL);
        if (bt_analyze(&a, p, 0, NULL, &d) != BT_OK)
            fail_msg("%s: %s", text, d.message);
        assert_int_equal(bt_analysis_grundy(v, a), BT_OK);
        if (mpz_cmp_ui(v, grundy[mask]) != 0)
            fail_msg("%s: value %lu, the brute force %u", text,
                     mpz_get_ui(v), grundy[mask]);
        assert_int_equal(bt_analysis_outcome(a), grundy[mask] ? BT_N : BT_P);
        assert_true(bt_analysis_moves_complete(a));
        /* the winning moves: exactly the options of value 0 */
        round_want++;
        round_got++;
        if (grundy[mask])
            for (t = 0; t < BOARD; t++)
                if (mask >> t & 1)
                    for (i = 0; i < nsets[t]; i++)
                        if (grundy[mask ^ sets[t][i]] == 0) {
                            want[mask ^ sets[t][i]] = round_want;
                            nwant++;
                        }
        n = (unsigned)bt_analysis_move_count(a);
        if (n != nwant)
            fail_msg("%s: %u winning moves, the brute force %u", text, n,
                     nwant);
        for (i = 0; i < n; i++) {
            const bt_move *m = bt_analysis_move(a, i);
            unsigned to = mask_of(gm, (const mpz_t *)m->to, m->nto);
            assert_int_equal(m->component, 0);
            if (want[to] != round_want || got[to] == round_got)
                fail_msg("%s: move '%s' is not a winning move once", text,
                         m->text);
            got[to] = round_got;
        }
        bt_analysis_free(a);
        /* every move, on the smaller boards */
        if (mask < board_moves) {
            bt_move *ms;
            size_t count, j;
            unsigned nall = 0;
            round_got++;
            if (bt_position_moves(&ms, &count, p, NULL, &d) != BT_OK)
                fail_msg("%s: %s", text, d.message);
            for (t = 0; t < BOARD; t++)
                if (mask >> t & 1)
                    nall += nsets[t];
            assert_int_equal(count, nall);
            for (j = 0; j < count; j++) {
                unsigned to = mask_of(gm, (const mpz_t *)ms[j].to,
                                      ms[j].nto);
                unsigned s = to ^ mask, top;
                for (top = BOARD; top-- > 0 && !(s >> top & 1);)
                    ;
                for (i = 0; i < nsets[top] && sets[top][i] != s; i++)
                    ;
                if (i == nsets[top] || !(mask >> top & 1) ||
                    got[to] == round_got)
                    fail_msg("%s: move '%s' is not a legal move once", text,
                             ms[j].text);
                got[to] = round_got;
            }
            bt_moves_free(ms, count);
        }
        bt_position_free(p);
    }
    mpz_clear(v);
}

/* 4 x 16 384 analyses and 4 x 1 024 lists of moves: about 1 s of CPU */
static void
test_turtles(void **state)
{
    (void)state;
    check_game(&games[0], 1u << 10);
}

static void
test_mock_turtles(void **state)
{
    (void)state;
    check_game(&games[1], 1u << 10);
}

static void
test_ruler(void **state)
{
    (void)state;
    check_game(&games[2], 1u << 10);
}

static void
test_twins(void **state)
{
    (void)state;
    check_game(&games[3], 1u << 10);
}

/*
 * The odious numbers, OEIS A000069 (numbers with an odd number of ones in
 * binary), its first 64 terms as published: a(1) = 1, a(2) = 2, ...
 * Mock Turtles numbers its coins from 0 (Ferguson, Game Theory I.5.2), so
 * the head at coin n is worth a(n + 1).
 */
static const unsigned a000069[] = {
    1,  2,  4,  7,  8,  11, 13, 14, 16,  19,  21,  22,  25,  26,  28,  31,
    32, 35, 37, 38, 41, 42, 44, 47, 49,  50,  52,  55,  56,  59,  61,  62,
    64, 67, 69, 70, 73, 74, 76, 79, 81,  82,  84,  87,  88,  91,  93,  94,
    97, 98, 100, 103, 104, 107, 109, 110, 112, 115, 117, 118, 121, 122, 124,
    127};

static void
test_odious(void **state)
{
    unsigned n, x = 0;
    char text[64];
    mpz_t v;
    (void)state;
    mpz_init(v);
    solve(MOCK);
    for (n = 0; n < sizeof a000069 / sizeof a000069[0]; n++) {
        bt_position *p;
        bt_analysis *a;
        /* the published term is an odious number, the next one */
        for (x++; __builtin_popcount(x) % 2 == 0; x++)
            ;
        assert_int_equal(a000069[n], x);
        snprintf(text, sizeof text, "mock-turtles %u", n);
        p = bt_test_parse(text, NULL, NULL);
        assert_int_equal(bt_analyze(&a, p, BT_NO_MOVES, NULL, NULL), BT_OK);
        assert_int_equal(bt_analysis_grundy(v, a), BT_OK);
        assert_int_equal(mpz_get_ui(v), a000069[n]);
        if (n < BOARD)
            assert_int_equal(grundy[1u << n], a000069[n]);
        bt_analysis_free(a);
        bt_position_free(p);
    }
    mpz_clear(v);
}

/* A random number of up to `digits` decimal digits, at least 1. */
static void
random_coin(mpz_t r, unsigned digits)
{
    unsigned i, n = 1 + bt_test_rnd(digits);
    mpz_set_ui(r, 1 + bt_test_rnd(9));
    for (i = 1; i < n; i++) {
        mpz_mul_ui(r, r, 10);
        mpz_add_ui(r, r, bt_test_rnd(10));
    }
}

/* Turning Turtles is Nim with a heap of n for a head at n (Ferguson
   I.5.1): random positions of distinct 60-digit coins have the value and
   as many winning moves as the Nim position of the same numbers, and each
   move turns the head n and, unless n alone is the move, the coin n ^ X. */
static void
test_turtles_is_nim(void **state)
{
    int round;
    (void)state;
    for (round = 0; round < 200; round++) {
        unsigned k = 1 + bt_test_rnd(6), i;
        char *text = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&text, &size);
        bt_position *pt, *pn;
        bt_analysis *at, *an;
        mpz_t c[6], x, v;
        mpz_init(x);
        mpz_init(v);
        fputs("turtles", f);
        for (i = 0; i < k; i++) {
            mpz_init(c[i]);
            random_coin(c[i], 60);
            if (i > 0 && bt_test_rnd(3) == 0) /* small ones too */
                mpz_set_ui(c[i], 1 + bt_test_rnd(1000));
            fputc(' ', f);
            mpz_out_str(f, 10, c[i]);
        }
        fclose(f);
        pt = bt_test_parse(text, NULL, NULL);
        pn = bt_test_parse(text + strlen("turtles"), "nim", NULL);
        free(text);
        assert_int_equal(bt_analyze(&at, pt, 0, NULL, NULL), BT_OK);
        assert_int_equal(bt_analyze(&an, pn, 0, NULL, NULL), BT_OK);
        assert_int_equal(bt_analysis_grundy(x, at), BT_OK);
        assert_int_equal(bt_analysis_grundy(v, an), BT_OK);
        assert_int_equal(mpz_cmp(x, v), 0);
        assert_int_equal(bt_analysis_move_count(at),
                         bt_analysis_move_count(an));
        for (i = 0; i < bt_analysis_move_count(at); i++) {
            const bt_move *m = bt_analysis_move(at, i);
            size_t j;
            /* the value after the move, from the heads: 0 */
            mpz_set_ui(v, 0);
            for (j = 0; j < m->nto; j++)
                mpz_xor(v, v, m->to[j]);
            assert_int_equal(mpz_sgn(v), 0);
            /* the head alone (k - 1 heads left), or with a tail turned up
               (k) or another head turned down (k - 2) */
            assert_true(m->nto == k || m->nto + 1 == k || m->nto + 2 == k);
        }
        bt_analysis_free(at);
        bt_analysis_free(an);
        bt_position_free(pt);
        bt_position_free(pn);
        for (i = 0; i < k; i++)
            mpz_clear(c[i]);
        mpz_clear(x);
        mpz_clear(v);
    }
}

/* The value of a head by the closed forms the brute force confirms on the
   board (Ferguson I.5): what the huge tests below count with. */
static void
value_of(kind k, mpz_t r, const mpz_t n)
{
    switch (k) {
    case MOCK: {
        int evil = mpz_popcount(n) % 2 == 0;
        mpz_mul_2exp(r, n, 1);
        mpz_add_ui(r, r, (unsigned long)evil);
        break;
    }
    case RULER: {
        mp_bitcnt_t b = mpz_scan1(n, 0);
        mpz_set_ui(r, 0);
        mpz_setbit(r, b);
        break;
    }
    default:
        mpz_set(r, n);
    }
}

static int
cmp_mpz(const void *a, const void *b)
{
    return mpz_cmp(*(mpz_srcptr const *)a, *(mpz_srcptr const *)b);
}

/* Whether the move from heads c to heads `to` turns a legal set of kind
   k (its top a head of c), from the rules. */
static int
legal(kind k, const mpz_t *c, size_t n, const mpz_t *to, size_t nto)
{
    mpz_srcptr *s = malloc((n + nto) * sizeof *s);
    size_t ns = 0, i, j;
    int ok = 1, top_head = 0;
    assert_non_null(s);
    /* the symmetric difference: the coins turned */
    for (i = 0; i < n; i++) {
        for (j = 0; j < nto && mpz_cmp(c[i], to[j]) != 0; j++)
            ;
        if (j == nto)
            s[ns++] = c[i];
    }
    for (j = 0; j < nto; j++) {
        for (i = 0; i < n && mpz_cmp(c[i], to[j]) != 0; i++)
            ;
        if (i == n)
            s[ns++] = to[j];
    }
    qsort(s, ns, sizeof *s, cmp_mpz);
    switch (k) {
    case TURTLES:
        ok = ns == 1 || ns == 2;
        break;
    case TWINS:
        ok = ns == 2;
        break;
    case MOCK:
        ok = ns >= 1 && ns <= 3;
        break;
    case RULER: {
        mpz_t dlt;
        mpz_init(dlt);
        for (i = 1; i < ns && ok; i++) {
            mpz_sub(dlt, s[i], s[i - 1]);
            ok = mpz_cmp_ui(dlt, 1) == 0;
        }
        mpz_clear(dlt);
        ok = ok && ns >= 1;
        break;
    }
    }
    for (i = 0; ok && i < n; i++)
        top_head = top_head || mpz_cmp(c[i], s[ns - 1]) == 0;
    free(s);
    return ok && top_head;
}

/* Random positions of 40-digit coins in every game: the value is the
   nim-sum of the heads' values, and every winning move listed is legal and
   leaves value 0 (max_search 2 000: Mock Turtles' lists of pairs are cut
   short). */
static void
test_huge(void **state)
{
    size_t gi;
    bt_limits lim;
    (void)state;
    bt_limits_default(&lim);
    lim.max_search = 2000;
    for (gi = 0; gi < sizeof games / sizeof games[0]; gi++) {
        int round, moves = 0;
        for (round = 0; round < 100; round++) {
            const game *gm = &games[gi];
            unsigned k = 1 + bt_test_rnd(5), i;
            char *text = NULL;
            size_t size = 0, j;
            FILE *f = open_memstream(&text, &size);
            bt_position *p;
            bt_analysis *a;
            bt_diag d;
            mpz_t c[5], x, v, w;
            mpz_init(x);
            mpz_init(v);
            mpz_init(w);
            fputs(gm->name, f);
            for (i = 0; i < k; i++) {
                mpz_init(c[i]);
                do {
                    random_coin(c[i], 40);
                    if (gm->kind == RULER && bt_test_rnd(2))
                        /* neighbours: short runs win */
                        mpz_add_ui(c[i], c[0], bt_test_rnd(5));
                    for (j = 0; j < i && mpz_cmp(c[i], c[j]) != 0; j++)
                        ;
                } while (j < i);
                value_of(gm->kind, v, c[i]);
                mpz_xor(x, x, v);
                fputc(' ', f);
                mpz_out_str(f, 10, c[i]);
            }
            fclose(f);
            p = bt_test_parse(text, NULL, NULL);
            if (bt_analyze(&a, p, 0, &lim, &d) != BT_OK)
                fail_msg("%s: %s", text, d.message);
            assert_int_equal(bt_analysis_grundy(v, a), BT_OK);
            assert_int_equal(mpz_cmp(v, x), 0);
            for (i = 0; i < bt_analysis_move_count(a); i++) {
                const bt_move *m = bt_analysis_move(a, i);
                if (!legal(gm->kind, (const mpz_t *)c, k,
                           (const mpz_t *)m->to, m->nto))
                    fail_msg("%s: '%s' is not a legal move", text, m->text);
                mpz_set_ui(w, 0);
                for (j = 0; j < m->nto; j++) {
                    value_of(gm->kind, v, m->to[j]);
                    mpz_xor(w, w, v);
                }
                if (mpz_sgn(w) != 0)
                    fail_msg("%s: '%s' leaves value non-zero", text,
                             m->text);
                moves++;
            }
            bt_analysis_free(a);
            bt_position_free(p);
            free(text);
            for (i = 0; i < k; i++)
                mpz_clear(c[i]);
            mpz_clear(x);
            mpz_clear(v);
            mpz_clear(w);
        }
        assert_true(moves > 0);
    }
}

static double
cpu_seconds(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

/* Mock Turtles' heads 1, 2 and 10^30: the top's pairs {l, l ^ 1} below it
   are 5 10^29 winning moves; max_search cuts the list, which says so, in
   well under 0.1 s of CPU.  A Ruler run longer than max_search is left
   out, and said so. */
static void
test_limits(void **state)
{
    bt_position *p;
    bt_analysis *a;
    bt_limits lim;
    bt_diag d;
    double t0 = cpu_seconds();
    (void)state;
    bt_limits_default(&lim);
    lim.max_search = 1000;
    p = bt_test_parse("mock-turtles 1 2 1000000000000000000000000000000",
                      NULL, NULL);
    assert_int_equal(bt_analyze(&a, p, 0, &lim, &d), BT_OK);
    assert_int_equal(bt_analysis_outcome(a), BT_N);
    assert_false(bt_analysis_moves_complete(a));
    assert_true(bt_analysis_move_count(a) >= 100);
    assert_non_null(strstr(bt_analysis_moves_note(a), "max_search"));
    bt_analysis_free(a);
    bt_position_free(p);
    /* ruler 1 2^100: from the top, the run of value 2^100 ^ 1 is the
       coins 2^100 - 1 and 2^100 (gray(2^100) ^ 2^100 ^ 1 = 2^99 + 1,
       whose inverse is 2^100 - 2) */
    p = bt_test_parse("ruler 1 1267650600228229401496703205376", NULL, NULL);
    assert_int_equal(bt_analyze(&a, p, 0, &lim, &d), BT_OK);
    assert_int_equal(bt_analysis_move_count(a), 1);
    assert_int_equal(bt_analysis_move(a, 0)->nto, 2);
    bt_analysis_free(a);
    bt_position_free(p);
    /* ruler 4096 2^100: its one winning move turns the run of the 2^13
       coins up to 2^100 (gray(m - 1) = 2^99 ^ 2^12) */
    p = bt_test_parse("ruler 4096 1267650600228229401496703205376", NULL,
                      NULL);
    assert_int_equal(bt_analyze(&a, p, 0, &lim, &d), BT_OK);
    assert_int_equal(bt_analysis_outcome(a), BT_N);
    assert_false(bt_analysis_moves_complete(a));
    assert_non_null(strstr(bt_analysis_moves_note(a), "run"));
    bt_analysis_free(a);
    bt_position_free(p);
    if (cpu_seconds() - t0 > bt_test_cpu_bound(1))
        fail_msg("limits: %.2f s of CPU", cpu_seconds() - t0);
}

/* Bad positions: one clear error each. */
static void
test_bad(void **state)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"turtles 0 3", "coin 0 does not exist"},
        {"ruler 0", "numbered from 1"},
        {"mock-turtles 4 1 4", "coin 4 is listed twice"},
        {"turtles:3 1", "takes no parameters"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bt_position *p = NULL;
        bt_diag d;
        memset(&d, 0, sizeof d);
        assert_int_equal(bt_position_parse(&p, bad[i].text, NULL, NULL, &d),
                         BT_EPARSE);
        assert_null(p);
        if (strstr(d.message, bad[i].msg) == NULL)
            fail_msg("%s: '%s' lacks '%s'", bad[i].text, d.message,
                     bad[i].msg);
    }
}

/* ---------------------------------------------------------- two dimensions */

/*
 * Products G x H (tartan:G*H; corners is twins x twins): a board of W
 * columns (x, G's coins) and R rows (y, H's coins), coin (a, b) the bit
 * a R + b.  A move turns A x B for a move set A of G with top a and B of H
 * with top b, from the rules of each game (move_sets above); its top
 * (a, b) is the highest bit it turns, so moves lower the mask and
 * increasing order sees every option first.
 */
#define MAXBITS2 20
#define MAXSETS2 256

static unsigned sets2[MAXBITS2][MAXSETS2], nsets2[MAXBITS2];
static unsigned char *grundy2;

static void
solve2(kind kg, kind kh, unsigned w, unsigned r)
{
    unsigned a, b, i, j, mask, t, n = w * r;
    unsigned sa[MAXSETS], sb[MAXSETS];
    for (a = 0; a < w; a++)
        for (b = 0; b < r; b++) {
            unsigned na = move_sets(kg, a, sa), nb = move_sets(kh, b, sb);
            unsigned top = a * r + b;
            nsets2[top] = 0;
            for (i = 0; i < na; i++)
                for (j = 0; j < nb; j++) {
                    unsigned m = 0, x, y;
                    for (x = 0; x < w; x++)
                        for (y = 0; y < r; y++)
                            if ((sa[i] >> x & 1) && (sb[j] >> y & 1))
                                m |= 1u << (x * r + y);
                    assert_true(nsets2[top] < MAXSETS2);
                    sets2[top][nsets2[top]++] = m;
                }
        }
    for (mask = 0; mask < 1u << n; mask++) {
        unsigned char seen[256];
        unsigned g = 0;
        memset(seen, 0, sizeof seen);
        for (t = 0; t < n; t++)
            if (mask >> t & 1)
                for (i = 0; i < nsets2[t]; i++)
                    seen[grundy2[mask ^ sets2[t][i]]] = 1;
        while (seen[g])
            g++;
        assert_true(g < 256);
        grundy2[mask] = (unsigned char)g;
    }
}

typedef struct product {
    const char *spec;
    kind g, h;
    unsigned gbase, hbase;
} product;

static const product products[] = {
    {"corners", TWINS, TWINS, 0, 0},
    {"tartan:turtles*ruler", TURTLES, RULER, 1, 1},
    {"tartan:mock-turtles*mock-turtles", MOCK, MOCK, 0, 0},
    {"tartan:ruler*turtles", RULER, TURTLES, 1, 1},
    {"tartan:mock-turtles*twins", MOCK, TWINS, 0, 0},
    {"tartan:ruler*twins", RULER, TWINS, 1, 0},
};

static void
text2(const product *pr, unsigned mask, unsigned n, unsigned r, char *buf,
      size_t size)
{
    size_t len = (size_t)snprintf(buf, size, "%s", pr->spec);
    unsigned t;
    for (t = 0; t < n; t++)
        if (mask >> t & 1)
            len += (size_t)snprintf(buf + len, size - len, " %u,%u",
                                    pr->gbase + t / r, pr->hbase + t % r);
}

static unsigned
mask2(const product *pr, unsigned w, unsigned r, const mpz_t *to, size_t nto)
{
    unsigned mask = 0;
    size_t j;
    assert_int_equal(nto % 2, 0);
    for (j = 0; j < nto; j += 2) {
        unsigned long x = mpz_get_ui(to[j]) - pr->gbase;
        unsigned long y = mpz_get_ui(to[j + 1]) - pr->hbase;
        assert_true(x < w && y < r);
        assert_false(mask >> (x * r + y) & 1);
        mask |= 1u << (x * r + y);
    }
    return mask;
}

/* Every position of a 4 x R board (R = 3 or 4): value, outcome, the
   exact winning moves, and every move (bt_position_moves) on the
   positions below 2^10; then the values of a 5 x 4 board on a sample of
   its positions. */
static void
check_product(const product *pr, unsigned r)
{
    unsigned mask, t, i, w = 4, n = w * r;
    char text[512];
    mpz_t v;
    mpz_init(v);
    grundy2 = malloc(1u << MAXBITS2);
    assert_non_null(grundy2);
    solve2(pr->g, pr->h, w, r);
    for (mask = 0; mask < 1u << n; mask++) {
        bt_position *p;
        bt_analysis *a;
        bt_diag d;
        unsigned nwant = 0, nm;
        text2(pr, mask, n, r, text, sizeof text);
        p = bt_test_parse(text, NULL, NULL);
        if (bt_analyze(&a, p, 0, NULL, &d) != BT_OK)
            fail_msg("%s: %s", text, d.message);
        assert_int_equal(bt_analysis_grundy(v, a), BT_OK);
        if (mpz_cmp_ui(v, grundy2[mask]) != 0)
            fail_msg("%s: value %lu, the brute force %u", text,
                     mpz_get_ui(v), grundy2[mask]);
        assert_true(bt_analysis_moves_complete(a));
        round_want++;
        round_got++;
        if (grundy2[mask])
            for (t = 0; t < n; t++)
                if (mask >> t & 1)
                    for (i = 0; i < nsets2[t]; i++)
                        if (grundy2[mask ^ sets2[t][i]] == 0) {
                            want[mask ^ sets2[t][i]] = round_want;
                            nwant++;
                        }
        nm = (unsigned)bt_analysis_move_count(a);
        if (nm != nwant)
            fail_msg("%s: %u winning moves, the brute force %u", text, nm,
                     nwant);
        for (i = 0; i < nm; i++) {
            const bt_move *m = bt_analysis_move(a, i);
            unsigned to = mask2(pr, w, r, (const mpz_t *)m->to, m->nto);
            if (want[to] != round_want || got[to] == round_got)
                fail_msg("%s: move '%s' is not a winning move once", text,
                         m->text);
            got[to] = round_got;
        }
        bt_analysis_free(a);
        if (mask < 1u << 10) {
            bt_move *ms;
            size_t count, j;
            unsigned nall = 0;
            round_got++;
            if (bt_position_moves(&ms, &count, p, NULL, &d) != BT_OK)
                fail_msg("%s: %s", text, d.message);
            for (t = 0; t < n; t++)
                if (mask >> t & 1)
                    nall += nsets2[t];
            assert_int_equal(count, nall);
            for (j = 0; j < count; j++) {
                unsigned to = mask2(pr, w, r, (const mpz_t *)ms[j].to,
                                    ms[j].nto);
                unsigned s = to ^ mask, top;
                for (top = n; top-- > 0 && !(s >> top & 1);)
                    ;
                for (i = 0; i < nsets2[top] && sets2[top][i] != s; i++)
                    ;
                if (i == nsets2[top] || !(mask >> top & 1) ||
                    got[to] == round_got)
                    fail_msg("%s: move '%s' is not a legal move once", text,
                             ms[j].text);
                got[to] = round_got;
            }
            bt_moves_free(ms, count);
        }
        bt_position_free(p);
    }
    /* 5 x 4: every position of at most two heads, and 3 000 at random */
    w = 5;
    r = 4;
    n = w * r;
    solve2(pr->g, pr->h, w, r);
    for (i = 0; i < 3000 + n * n; i++) {
        bt_position *p;
        bt_analysis *a;
        bt_diag d;
        mask = i < n * n ? 1u << (i / n) | 1u << (i % n)
                         : (bt_test_rnd(1u << 10) << 10 | bt_test_rnd(1u << 10));
        text2(pr, mask, n, r, text, sizeof text);
        p = bt_test_parse(text, NULL, NULL);
        if (bt_analyze(&a, p, BT_NO_MOVES, NULL, &d) != BT_OK)
            fail_msg("%s: %s", text, d.message);
        assert_int_equal(bt_analysis_grundy(v, a), BT_OK);
        if (mpz_cmp_ui(v, grundy2[mask]) != 0)
            fail_msg("%s: value %lu, the brute force %u", text,
                     mpz_get_ui(v), grundy2[mask]);
        bt_analysis_free(a);
        bt_position_free(p);
    }
    free(grundy2);
    mpz_clear(v);
}

/* 3 products x 65 536 analyses on 4 x 4, 3 x 4 096 on 4 x 3: about 5 s
   of CPU in all */
static void
test_products(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof products / sizeof products[0]; i++)
        check_product(&products[i], i < 3 ? 4 : 3);
}

/* Turning Corners is x (x) y (Ferguson I.5.5): single heads of 30-digit
   coordinates against bt_nimber_mul, and every winning move listed from a
   random position of three huge heads is legal (four corners of a
   rectangle, the top a head) and leaves value 0. */
static void
test_corners_huge(void **state)
{
    int round;
    mpz_t c[6], x, v;
    bt_limits lim;
    (void)state;
    bt_limits_default(&lim);
    lim.max_search = 2000;
    mpz_init(x);
    mpz_init(v);
    for (round = 0; round < 6; round++)
        mpz_init(c[round]);
    for (round = 0; round < 30; round++) {
        char *text = NULL;
        size_t size = 0, i, j;
        FILE *f = open_memstream(&text, &size);
        bt_position *p;
        bt_analysis *a;
        bt_diag d;
        fputs("corners", f);
        mpz_set_ui(x, 0);
        for (i = 0; i < 6; i += 2) {
            random_coin(c[i], round < 15 ? 4 : 30);
            random_coin(c[i + 1], round < 15 ? 4 : 30);
            assert_int_equal(bt_nimber_mul(v, c[i], c[i + 1], NULL, NULL),
                             BT_OK);
            mpz_xor(x, x, v);
            gmp_fprintf(f, " %Zd,%Zd", c[i], c[i + 1]);
        }
        fclose(f);
        p = bt_test_parse(text, NULL, NULL);
        if (bt_analyze(&a, p, 0, &lim, &d) != BT_OK)
            fail_msg("%s: %s", text, d.message);
        assert_int_equal(bt_analysis_grundy(v, a), BT_OK);
        assert_int_equal(mpz_cmp(v, x), 0);
        for (i = 0; i < bt_analysis_move_count(a); i++) {
            const bt_move *m = bt_analysis_move(a, i);
            mpz_t y;
            mpz_init(y);
            /* the value left: the heads' products, 0 */
            mpz_set_ui(x, 0);
            for (j = 0; j + 1 < m->nto; j += 2) {
                assert_int_equal(bt_nimber_mul(y, m->to[j], m->to[j + 1],
                                               NULL, NULL),
                                 BT_OK);
                mpz_xor(x, x, y);
            }
            assert_int_equal(mpz_sgn(x), 0);
            mpz_clear(y);
        }
        bt_analysis_free(a);
        bt_position_free(p);
        free(text);
    }
    for (round = 0; round < 6; round++)
        mpz_clear(c[round]);
    mpz_clear(x);
    mpz_clear(v);
}

static void
test_bad2(void **state)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"corners 3", "a coin is two numbers"},
        {"corners 1,2 1,2", "a coin is listed twice"},
        {"tartan:turtles*ruler 0,1", "columns are numbered from 1"},
        {"tartan:turtles*chess 1,1", "'chess' is not a coin game"},
        {"tartan:turtles 1,1", "tartan needs two coin games"},
        {"corners:2 1,1", "corners takes no parameters"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bt_position *p = NULL;
        bt_diag d;
        memset(&d, 0, sizeof d);
        assert_int_equal(bt_position_parse(&p, bad[i].text, NULL, NULL, &d),
                         BT_EPARSE);
        assert_null(p);
        if (strstr(d.message, bad[i].msg) == NULL)
            fail_msg("%s: '%s' lacks '%s'", bad[i].text, d.message,
                     bad[i].msg);
    }
}

/* A move that turns the last heads leaves no component: the records and
   `bouton play` find it from the position it leaves (bt_position_find_move),
   and refuse a set the rules do not allow. */
static void
test_find_move(void **state)
{
    bt_position *from = bt_test_parse("mock-turtles 1 4", NULL, NULL);
    bt_position *to = bt_test_parse("mock-turtles", NULL, NULL);
    bt_position *bad = bt_test_parse("twins 1 4", NULL, NULL);
    bt_position *none = bt_test_parse("twins", NULL, NULL);
    bt_position *one = bt_test_parse("twins 1", NULL, NULL);
    bt_move *m = NULL;
    bt_diag d;
    (void)state;
    assert_int_equal(bt_position_find_move(&m, from, to, NULL, &d), BT_OK);
    assert_int_equal(m->nto, 0);
    assert_string_equal(m->text, "turn coin 4 to tails and coin 1 over");
    bt_moves_free(m, 1);
    /* Twins turns exactly two coins: 4 alone is no move, 1 and 4 is */
    assert_int_not_equal(bt_position_find_move(&m, bad, one, NULL, &d),
                         BT_OK);
    assert_int_equal(bt_position_find_move(&m, bad, none, NULL, &d), BT_OK);
    bt_moves_free(m, 1);
    bt_position_free(from);
    bt_position_free(to);
    bt_position_free(bad);
    bt_position_free(none);
    bt_position_free(one);
}

/* The products' moves found from the position they leave: the four
   corners of a rectangle (written in place, or in another order), and not
   three of them, nor a rectangle whose far corner is tails. */
static void
test_find_move2(void **state)
{
    static const struct {
        const char *from, *to;
        int legal;
    } cases[] = {
        {"corners 3,5 6,2", "corners 2,1 2,5 3,1 6,2", 1},
        {"corners 3,5 6,2", "corners 6,2 3,1 2,5 2,1", 1},
        {"corners 3,5", "corners 2,5 3,1", 0},
        {"corners 3,5", "corners 3,4", 0},
        {"corners 1,1", "corners", 0},
        {"tartan:turtles*ruler 4,4", "tartan:turtles*ruler 3,4", 1},
        {"tartan:turtles*ruler 4,4", "tartan:turtles*ruler 3,3 3,4 4,3", 1},
        {"tartan:turtles*ruler 4,4", "tartan:turtles*ruler 3,2 4,2 3,4", 0},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bt_position *a = bt_test_parse(cases[i].from, NULL, NULL);
        bt_position *b = bt_test_parse(cases[i].to, NULL, NULL);
        bt_move *m = NULL;
        bt_diag d;
        bt_status st = bt_position_find_move(&m, a, b, NULL, &d);
        if ((st == BT_OK) != cases[i].legal)
            fail_msg("%s -> %s: %s", cases[i].from, cases[i].to,
                     st == BT_OK ? m->text : d.message);
        if (m != NULL)
            bt_moves_free(m, 1);
        bt_position_free(a);
        bt_position_free(b);
    }
}

/* Many heads: 4 000 of 100 digits.  The winning moves (each a position of
   4 000 coins) fill max_search at once, and the analysis then lists the
   opponent's window of moves, which once tried 64 (n + 1) candidates of n
   numbers each (10^9 numbers here: a minute); now bounded, about 0.5 s
   of CPU. */
static void
test_many_heads(void **state)
{
    char *text = malloc(4000 * 102 + 32), *at = text;
    bt_position *p;
    bt_analysis *a;
    bt_diag d;
    double t0;
    int i;
    (void)state;
    assert_non_null(text);
    at += sprintf(at, "mock-turtles");
    for (i = 0; i < 4000; i++)
        at += sprintf(at, " 1%099d", 7919 * i + 1);
    p = bt_test_parse(text, NULL, NULL);
    free(text);
    t0 = cpu_seconds();
    if (bt_analyze(&a, p, 0, NULL, &d) != BT_OK)
        fail_msg("%s", d.message);
    assert_int_equal(bt_analysis_outcome(a), BT_N);
    assert_true(bt_analysis_move_count(a) >= 1);
    assert_false(bt_analysis_moves_complete(a));
    bt_analysis_free(a);
    bt_position_free(p);
    if (cpu_seconds() - t0 > bt_test_cpu_bound(5))
        fail_msg("4 000 heads: %.2f s of CPU", cpu_seconds() - t0);
}

/* How a front end draws each game (bt_game_board): coins in a row or on
   a grid, numbered from the family's first coin; piles for the rest. */
static void
test_board(void **state)
{
    static const struct {
        const char *spec;
        bt_board board;
        unsigned long x, y;
    } cases[] = {
        {"nim", BT_BOARD_PILES, 0, 0},
        {"wythoff", BT_BOARD_PILES, 0, 0},
        {"kayles", BT_BOARD_PILES, 0, 0},
        {"moore:2", BT_BOARD_PILES, 0, 0},
        {"turtles", BT_BOARD_ROW, 1, 0},
        {"mock-turtles", BT_BOARD_ROW, 0, 0},
        {"ruler", BT_BOARD_ROW, 1, 0},
        {"twins", BT_BOARD_ROW, 0, 0},
        {"corners", BT_BOARD_GRID, 0, 0},
        {"tartan:turtles*mock-turtles", BT_BOARD_GRID, 1, 0},
        {"tartan:twins*ruler", BT_BOARD_GRID, 0, 1},
    };
    size_t i, n = 0;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bt_game *g = NULL;
        assert_int_equal(bt_game_new(&g, cases[i].spec, NULL), BT_OK);
        assert_int_equal(bt_game_board(g), cases[i].board);
        assert_int_equal(bt_game_board_first(g, 0), cases[i].x);
        assert_int_equal(bt_game_board_first(g, 1), cases[i].y);
        assert_int_equal(bt_game_board_first(g, 2), 0);
        bt_game_free(g);
    }
    /* each family's board is its games' */
    for (i = 0; i < bt_family_count(); i++) {
        bt_game *g = NULL;
        assert_int_equal(bt_game_new(&g, bt_family(i)->example, NULL), BT_OK);
        assert_int_equal(bt_family_board(i), bt_game_board(g));
        n += bt_family_board(i) != BT_BOARD_PILES;
        bt_game_free(g);
    }
    assert_int_equal(n, 6); /* four rows, corners and tartan */
    assert_int_equal(bt_family_board(bt_family_count()), BT_BOARD_PILES);
    assert_string_equal(bt_board_name(BT_BOARD_PILES), "piles");
    assert_string_equal(bt_board_name(BT_BOARD_ROW), "row");
    assert_string_equal(bt_board_name(BT_BOARD_GRID), "grid");
    assert_null(bt_board_name((bt_board)3));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turtles),   cmocka_unit_test(test_mock_turtles),
        cmocka_unit_test(test_ruler),     cmocka_unit_test(test_twins),
        cmocka_unit_test(test_odious),    cmocka_unit_test(test_turtles_is_nim),
        cmocka_unit_test(test_huge),      cmocka_unit_test(test_limits),
        cmocka_unit_test(test_bad),       cmocka_unit_test(test_find_move),
        cmocka_unit_test(test_many_heads),
        cmocka_unit_test(test_products),
        cmocka_unit_test(test_corners_huge), cmocka_unit_test(test_bad2),
        cmocka_unit_test(test_find_move2), cmocka_unit_test(test_board),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
