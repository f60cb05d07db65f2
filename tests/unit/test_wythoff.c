/* label: quick
 *
 * test_wythoff.c -- Wythoff's game and its generalisation with difference
 * a: the closed forms against the brute-force oracle (tests/oracle), the
 * mex construction (Wythoff 1907, sec. 5), the defining inequalities at
 * sizes no table reaches, and the Sprague-Grundy tables.
 *
 * The ruleset's hooks are tested directly, so this file also includes the
 * library's internal header; everything else goes through <bouton.h>.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/core/core.h"
#include "testutil.h"
#include "oracle_wythoff.h"

#define SMALL 60 /* both piles up to this against the oracle */

/* The game of difference a; a = SMALL + 1 stands for any a above the
   piles (every move on both piles allowed), and is tested as a huge a. */
static bt_game *
game_or_huge(int a)
{
    if (a == SMALL + 1)
        return bt_test_game("wythoff:123456789012345678901234567890");
    return bt_test_gamef("wythoff:%d", a);
}

/* The differences tested against the oracle. */
static const int diffs[] = {1, 2, 3, 4, 5, SMALL + 1};
#define NDIFFS (sizeof diffs / sizeof diffs[0])

/* ---------------------------------------------------- sets of moves */

typedef struct moveset {
    int n;
    int x[64], y[64];
} moveset;

static int
cmp_move(const void *p, const void *q)
{
    const int *a = p, *b = q;
    return a[0] != b[0] ? a[0] - b[0] : a[1] - b[1];
}

static void
ms_add(moveset *s, long x, long y)
{
    assert_true(s->n < 64);
    s->x[s->n] = (int)x;
    s->y[s->n] = (int)y;
    s->n++;
}

/* Sorts a set and checks it has no duplicate. */
static void
ms_sort(moveset *s, int pairs[][2])
{
    int i;
    for (i = 0; i < s->n; i++) {
        pairs[i][0] = s->x[i];
        pairs[i][1] = s->y[i];
    }
    qsort(pairs, (size_t)s->n, sizeof pairs[0], cmp_move);
    for (i = 1; i < s->n; i++)
        if (pairs[i][0] == pairs[i - 1][0] && pairs[i][1] == pairs[i - 1][1])
            fail_msg("move to (%d, %d) listed twice", pairs[i][0], pairs[i][1]);
}

static void
ms_equal(moveset *got, moveset *want, const char *what, int a, int misere,
         int x, int y)
{
    int g[64][2], w[64][2], i;
    ms_sort(got, g);
    ms_sort(want, w);
    if (got->n != want->n)
        fail_msg("%s a=%d %s (%d, %d): %d winning moves, oracle %d", what, a,
                 misere ? "misere" : "normal", x, y, got->n, want->n);
    for (i = 0; i < got->n; i++)
        if (g[i][0] != w[i][0] || g[i][1] != w[i][1])
            fail_msg("%s a=%d %s (%d, %d): move to (%d, %d), oracle (%d, "
                     "%d)",
                     what, a, misere ? "misere" : "normal", x, y, g[i][0],
                     g[i][1], w[i][0], w[i][1]);
}

static bt_status
collect(void *ud, const mpz_t *to, size_t nto)
{
    moveset *s = ud;
    assert_int_equal(nto, 2);
    ms_add(s, (long)mpz_get_ui(to[0]), (long)mpz_get_ui(to[1]));
    return BT_OK;
}

static bt_status
collect_comp(void *ud, size_t comp, const mpz_t *to, size_t nto)
{
    assert_int_equal(comp, 0);
    return collect(ud, to, nto);
}

/* The oracle's winning moves of (x, y). */
static void
oracle_wins(moveset *s, const unsigned char *win, int a, int x, int y)
{
    int x2, y2;
    s->n = 0;
    for (x2 = 0; x2 <= x; x2++)
        for (y2 = 0; y2 <= y; y2++)
            if (oracle_wythoff_is_move(a, x, y, x2, y2) &&
                !win[x2 * (SMALL + 1) + y2])
                ms_add(s, x2, y2);
}

/* ------------------------------------------------------------ specs */

static void
test_specs(void **state)
{
    static const struct {
        const char *spec;
        bt_status st;
        const char *canon;
    } cases[] = {
        {"wythoff", BT_OK, "wythoff"},
        {"wythoff:1", BT_OK, "wythoff"},
        {"wythoff:01", BT_OK, "wythoff"},
        {"wythoff:2", BT_OK, "wythoff:2"},
        {"wythoff:0007", BT_OK, "wythoff:7"},
        {"wythoff:123456789012345678901234567890", BT_OK,
         "wythoff:123456789012345678901234567890"},
        {"wythoff:0", BT_EPARSE, NULL},
        {"wythoff:000", BT_EPARSE, NULL},
        {"wythoff:", BT_EPARSE, NULL},
        {"wythoff:1.5", BT_EPARSE, NULL},
        {"wythoff:-1", BT_EPARSE, NULL},
        {"wythoff:+2", BT_EPARSE, NULL},
        {"wythoff:2x", BT_EPARSE, NULL},
        {"wythoff: 2", BT_EPARSE, NULL},
    };
    size_t i;
    char big[1100];
    bt_game *g;
    bt_diag d;
    mpz_t a;
    (void)state;
    mpz_init(a);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        g = NULL;
        memset(&d, 0, sizeof d);
        assert_int_equal(bt_game_new(&g, cases[i].spec, &d), cases[i].st);
        if (cases[i].st == BT_OK) {
            assert_string_equal(bt_game_spec(g), cases[i].canon);
            assert_string_equal(bt_game_family(g), "wythoff");
            assert_int_equal(bt_game_arity(g), 2);
            assert_int_equal(bt_wythoff_difference(a, g), BT_OK);
            assert_true(mpz_sgn(a) > 0);
        } else {
            assert_null(g);
            assert_true(strlen(d.message) > 10);
        }
        bt_game_free(g);
    }
    memset(big, '7', 1009);
    memcpy(big, "wythoff:", 8);
    big[1009] = '\0';
    assert_int_equal(bt_game_new(&g, big, &d), BT_ELIMIT);
    /* a game that is not Wythoff */
    g = bt_test_game("nim");
    assert_int_equal(bt_wythoff_difference(a, g), BT_EINVAL);
    assert_int_equal(bt_wythoff_pair(a, a, g, 0, a, NULL, &d), BT_EINVAL);
    bt_game_free(g);
    mpz_clear(a);
}

/* ---------------------------------------- outcomes against the oracle */

/* Every position with both piles <= SMALL, a = 1..5, normal and misère:
   the outcome and the exact set of winning moves, through the public
   functions and through the ruleset's hooks. */
static void
test_oracle_small(void **state)
{
    int a, misere, x, y;
    mpz_t to[BT_WYTHOFF_MAX_WINNING][2], mx, my, zero, gv;
    size_t i, di, count;
    (void)state;
    for (i = 0; i < BT_WYTHOFF_MAX_WINNING; i++)
        mpz_inits(to[i][0], to[i][1], NULL);
    mpz_inits(mx, my, zero, gv, NULL);
    for (di = 0; di < NDIFFS; di++) {
        bt_game *g = game_or_huge(a = diffs[di]);
        for (misere = 0; misere <= 1; misere++) {
            unsigned char *win = oracle_wythoff_outcomes(SMALL, a, misere);
            assert_non_null(win);
            for (x = 0; x <= SMALL; x++)
                for (y = 0; y <= SMALL; y++) {
                    moveset want, got;
                    int p;
                    mpz_set_ui(mx, (unsigned long)x);
                    mpz_set_ui(my, (unsigned long)y);
                    oracle_wins(&want, win, a, x, y);
                    assert_int_equal(
                        bt_wythoff_is_p(&p, g, misere, mx, my, NULL, NULL),
                        BT_OK);
                    if (p != !win[x * (SMALL + 1) + y])
                        fail_msg("a=%d %s (%d, %d): is_p %d", a,
                                 misere ? "misere" : "normal", x, y, p);
                    assert_int_equal(bt_wythoff_winning(to, &count, g, misere,
                                                        mx, my, NULL, NULL),
                                     BT_OK);
                    got.n = 0;
                    for (i = 0; i < count; i++)
                        ms_add(&got, (long)mpz_get_ui(to[i][0]),
                               (long)mpz_get_ui(to[i][1]));
                    ms_equal(&got, &want, "winning", a, misere, x, y);
                    if (!misere) {
                        mpz_t c[2];
                        mpz_init_set(c[0], mx);
                        mpz_init_set(c[1], my);
                        got.n = 0;
                        assert_int_equal(g->rules->moves_to(g, (const mpz_t *)c,
                                                            zero, collect, &got,
                                                            NULL, NULL),
                                         BT_OK);
                        ms_equal(&got, &want, "moves_to(0)", a, 0, x, y);
                        assert_int_equal(g->rules->grundy(g, gv,
                                                          (const mpz_t *)c,
                                                          NULL, NULL),
                                         BT_OK);
                        assert_int_equal(mpz_sgn(gv) == 0, p);
                        mpz_clear(c[0]);
                        mpz_clear(c[1]);
                    } else {
                        bt_position *pos;
                        bt_outcome o;
                        mpz_t c[2];
                        mpz_init_set(c[0], mx);
                        mpz_init_set(c[1], my);
                        assert_int_equal(bt_position_new(&pos), BT_OK);
                        assert_int_equal(bt_position_add(pos, g,
                                                         (const mpz_t *)c, NULL,
                                                         NULL),
                                         BT_OK);
                        got.n = 0;
                        assert_int_equal(g->rules->misere(g, pos, &o,
                                                          collect_comp, &got,
                                                          NULL, NULL),
                                         BT_OK);
                        assert_int_equal(o == BT_P, p);
                        ms_equal(&got, &want, "misere hook", a, 1, x, y);
                        bt_position_free(pos);
                        mpz_clear(c[0]);
                        mpz_clear(c[1]);
                    }
                }
            free(win);
        }
        bt_game_free(g);
    }
    for (i = 0; i < BT_WYTHOFF_MAX_WINNING; i++)
        mpz_clears(to[i][0], to[i][1], NULL);
    mpz_clears(mx, my, zero, gv, NULL);
}

/* The same through the public analysis of positions built with
   bt_position_add. */
static void
test_oracle_analyze(void **state)
{
    int a, misere, x, y;
    size_t i;
    (void)state;
    for (a = 1; a <= 5; a++) {
        bt_game *g = bt_test_gamef("wythoff:%d", a);
        for (misere = 0; misere <= 1; misere++) {
            unsigned char *win = oracle_wythoff_outcomes(SMALL, a, misere);
            assert_non_null(win);
            for (x = 0; x <= SMALL; x++)
                for (y = 0; y <= SMALL; y++) {
                    bt_position *p;
                    bt_analysis *an = NULL;
                    bt_diag d;
                    moveset want, got;
                    mpz_t c[2];
                    memset(&d, 0, sizeof d);
                    mpz_init_set_ui(c[0], (unsigned long)x);
                    mpz_init_set_ui(c[1], (unsigned long)y);
                    assert_int_equal(bt_position_new(&p), BT_OK);
                    assert_int_equal(
                        bt_position_add(p, g, (const mpz_t *)c, NULL, NULL),
                        BT_OK);
                    if (bt_analyze(&an, p, misere ? BT_MISERE : 0, NULL, &d) !=
                        BT_OK)
                        fail_msg("analyze a=%d (%d, %d): %s", a, x, y,
                                 d.message);
                    assert_int_equal(bt_analysis_outcome(an) == BT_N,
                                     win[x * (SMALL + 1) + y]);
                    oracle_wins(&want, win, a, x, y);
                    got.n = 0;
                    for (i = 0; i < bt_analysis_move_count(an); i++) {
                        const bt_move *m = bt_analysis_move(an, i);
                        assert_int_equal(m->component, 0);
                        assert_int_equal(m->nto, 2);
                        ms_add(&got, (long)mpz_get_ui(m->to[0]),
                               (long)mpz_get_ui(m->to[1]));
                    }
                    ms_equal(&got, &want, "bt_analyze", a, misere, x, y);
                    bt_analysis_free(an);
                    bt_position_free(p);
                    mpz_clear(c[0]);
                    mpz_clear(c[1]);
                }
            free(win);
        }
        bt_game_free(g);
    }
}

/* ------------------------------------------------ the mex construction */

static void
test_mex_construction(void **state)
{
    int a, misere;
    (void)state;
    for (a = 1; a <= 7; a++)
        for (misere = 0; misere <= 1; misere++)
            bt_test_wythoff_pairs(a, misere, 20000, LONG_MAX);
}

/* Wythoff's table of sec. 5 (OCR of the seed, columns read downwards). */
static void
test_wythoff_table(void **state)
{
    static const long want[][2] = {{0, 0},   {1, 2},   {3, 5},   {4, 7},
                                   {6, 10},  {8, 13},  {9, 15},  {11, 18},
                                   {12, 20}, {14, 23}, {16, 26}, {17, 28},
                                   {19, 31}, {21, 34}, {22, 36}, {24, 39}};
    bt_game *g = bt_test_game("wythoff");
    mpz_t n, lo, hi;
    size_t i;
    (void)state;
    mpz_inits(n, lo, hi, NULL);
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        mpz_set_ui(n, i);
        assert_int_equal(bt_wythoff_pair(lo, hi, g, 0, n, NULL, NULL), BT_OK);
        assert_int_equal(mpz_get_si(lo), want[i][0]);
        assert_int_equal(mpz_get_si(hi), want[i][1]);
    }
    mpz_clears(n, lo, hi, NULL);
    bt_game_free(g);
}

/* ------------------------------------------------ at sizes beyond tables */

static unsigned long
seed_of(void)
{
    const char *s = getenv("BT_TEST_SEED");
    return s != NULL ? strtoul(s, NULL, 10) : 20240601UL;
}

/* Zeckendorf (a = 1): with n = sum F_{k_i} (F_2 = 1, F_3 = 2, no two
   consecutive indexes), A_n = sum F_{k_i + 1} - [smallest k_i even]. */
static void
zeckendorf_lower(mpz_t rop, const mpz_t n)
{
    size_t k, top = 2, cap = 64, kmin = 0;
    mpz_t r, *f = malloc(cap * sizeof *f);
    assert_non_null(f);
    /* f[k] = F_k for k = 0 .. top + 1, F_top the last <= n */
    mpz_init_set_ui(f[0], 0);
    mpz_init_set_ui(f[1], 1);
    mpz_init_set_ui(f[2], 1);
    mpz_init_set_ui(f[3], 2);
    for (k = 4;; k++) {
        if (k >= cap) {
            cap *= 2;
            f = realloc(f, cap * sizeof *f);
            assert_non_null(f);
        }
        mpz_init(f[k]);
        mpz_add(f[k], f[k - 1], f[k - 2]);
        if (mpz_cmp(f[k - 1], n) > 0)
            break;
    }
    top = k; /* f[top - 1] > n, so indexes up to top - 2 are used */
    mpz_init_set(r, n);
    mpz_set_ui(rop, 0);
    for (k = top - 1; k >= 2; k--)
        if (mpz_cmp(f[k], r) <= 0 && mpz_sgn(r) > 0) { /* greedy */
            mpz_sub(r, r, f[k]);
            mpz_add(rop, rop, f[k + 1]);
            kmin = k;
        }
    if (kmin != 0 && kmin % 2 == 0)
        mpz_sub_ui(rop, rop, 1);
    for (k = 0; k <= top; k++)
        mpz_clear(f[k]);
    free(f);
    mpz_clear(r);
}

static void
test_zeckendorf_small(void **state)
{
    bt_game *g = bt_test_game("wythoff");
    mpz_t n, lo, hi, z;
    unsigned long i;
    (void)state;
    mpz_inits(n, lo, hi, z, NULL);
    for (i = 0; i < 3000; i++) {
        mpz_set_ui(n, i);
        assert_int_equal(bt_wythoff_pair(lo, hi, g, 0, n, NULL, NULL), BT_OK);
        zeckendorf_lower(z, n);
        assert_true(mpz_cmp(z, lo) == 0);
    }
    mpz_clears(n, lo, hi, z, NULL);
    bt_game_free(g);
}

/* Huge indexes: the defining inequalities, index_of back, Zeckendorf for
   a = 1 (at a size where the greedy algorithm is still quick), and the
   winning moves of positions built from a huge pair. */
static void
test_huge(void **state)
{
    static const unsigned long digits[] = {30, 1300, 2500, 6000};
    gmp_randstate_t rs;
    unsigned long seed = seed_of();
    int a, misere;
    size_t di, i, count;
    mpz_t n, lo, hi, n2, l2, h2, z, x, y, to[BT_WYTHOFF_MAX_WINNING][2];
    bt_wythoff_member mem;
    (void)state;
    print_message("test_huge: BT_TEST_SEED=%lu\n", seed);
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, seed);
    mpz_inits(n, lo, hi, n2, l2, h2, z, x, y, NULL);
    for (i = 0; i < BT_WYTHOFF_MAX_WINNING; i++)
        mpz_inits(to[i][0], to[i][1], NULL);
    for (a = 1; a <= 5; a++) {
        bt_game *g = bt_test_gamef("wythoff:%d", a);
        for (misere = 0; misere <= 1; misere++)
            for (di = 0; di < sizeof digits / sizeof digits[0]; di++) {
                mpz_ui_pow_ui(z, 10, digits[di]);
                mpz_urandomm(n, rs, z);
                mpz_add_ui(n, n, 2);
                assert_int_equal(
                    bt_wythoff_pair(lo, hi, g, misere, n, NULL, NULL), BT_OK);
                assert_true(oracle_wythoff_defining(a, misere, n, lo, hi));
                if (a == 1 && !misere) {
                    zeckendorf_lower(z, n);
                    assert_true(mpz_cmp(z, lo) == 0);
                }
                assert_int_equal(bt_wythoff_index_of(n2, &mem, l2, h2, g,
                                                     misere, lo, NULL, NULL),
                                 BT_OK);
                assert_true(mpz_cmp(n2, n) == 0 && mem == BT_WYTHOFF_LOWER);
                assert_int_equal(bt_wythoff_index_of(n2, &mem, l2, h2, g,
                                                     misere, hi, NULL, NULL),
                                 BT_OK);
                assert_true(mpz_cmp(n2, n) == 0 && mem == BT_WYTHOFF_UPPER);
                assert_true(mpz_cmp(l2, lo) == 0 && mpz_cmp(h2, hi) == 0);
                /* the pair itself: P, no winning move */
                assert_int_equal(bt_wythoff_winning(to, &count, g, misere, hi,
                                                    lo, NULL, NULL),
                                 BT_OK);
                assert_int_equal(count, 0);
                /* (A_n, B_n + 7): shorten pile 2 back to B_n */
                mpz_add_ui(y, hi, 7);
                assert_int_equal(bt_wythoff_winning(to, &count, g, misere, lo,
                                                    y, NULL, NULL),
                                 BT_OK);
                assert_true(count >= 1);
                assert_true(mpz_cmp(to[0][0], lo) == 0 &&
                            mpz_cmp(to[0][1], hi) == 0);
                /* (A_n + 5, B_n + 5 + (a - 1)): a move on both piles
                   (5 and 5 + a - 1, |k - l| < a) reaches the pair */
                mpz_add_ui(x, lo, 5);
                mpz_add_ui(y, hi, 5 + (unsigned long)a - 1);
                assert_int_equal(
                    bt_wythoff_winning(to, &count, g, misere, x, y, NULL, NULL),
                    BT_OK);
                for (i = 0; i < count; i++)
                    if (mpz_cmp(to[i][0], lo) == 0 &&
                        mpz_cmp(to[i][1], hi) == 0)
                        break;
                assert_true(i < count);
                /* every move found is legal and leads to a safe pair */
                for (i = 0; i < count; i++) {
                    int p;
                    assert_int_equal(bt_wythoff_is_p(&p, g, misere, to[i][0],
                                                     to[i][1], NULL, NULL),
                                     BT_OK);
                    assert_true(p);
                    assert_true(mpz_cmp(to[i][0], x) <= 0 &&
                                mpz_cmp(to[i][1], y) <= 0);
                }
                /* the numbers next to A_n are in pairs of their own */
                mpz_sub_ui(x, lo, 1);
                assert_int_equal(bt_wythoff_index_of(n2, &mem, l2, h2, g,
                                                     misere, x, NULL, NULL),
                                 BT_OK);
                assert_true(mpz_cmp(n2, n) != 0);
                assert_true(mpz_cmp(mem == BT_WYTHOFF_LOWER ? l2 : h2, x) == 0);
                assert_int_equal(
                    bt_wythoff_pair(x, y, g, misere, n2, NULL, NULL), BT_OK);
                assert_true(mpz_cmp(x, l2) == 0 && mpz_cmp(y, h2) == 0);
            }
        bt_game_free(g);
    }
    for (i = 0; i < BT_WYTHOFF_MAX_WINNING; i++)
        mpz_clears(to[i][0], to[i][1], NULL);
    mpz_clears(n, lo, hi, n2, l2, h2, z, x, y, NULL);
    gmp_randclear(rs);
}

/*
 * Numbers m for which m s, s = sqrt(a^2 + 4), lies within about 1/m of an
 * integer: U_0 = 0, U_1 = 1, U_{k+1} = a U_k + U_{k-1} (V_k^2 - (a^2 + 4)
 * U_k^2 = +-4; Fibonacci numbers for a = 1).  There the library's cached
 * fixed-point root cannot decide the floor and must fall back on the exact
 * square root; the defining inequalities check the answer.
 */
static void
test_near_integers(void **state)
{
    int a;
    unsigned k;
    mpz_t u0, u1, t, lo, hi, n2, l2, h2;
    bt_wythoff_member mem;
    (void)state;
    mpz_inits(u0, u1, t, lo, hi, n2, l2, h2, NULL);
    for (a = 1; a <= 3; a++) {
        bt_game *g = bt_test_gamef("wythoff:%d", a);
        mpz_set_ui(u0, 0);
        mpz_set_ui(u1, 1);
        for (k = 1; mpz_sizeinbase(u1, 2) < 9000; k++) {
            mpz_set(t, u1);
            mpz_mul_ui(u1, u1, (unsigned long)a);
            mpz_add(u1, u1, u0);
            mpz_set(u0, t);
            if (mpz_sizeinbase(u1, 2) < 4500 || k % 32 != 0)
                continue; /* a sample above the direct-isqrt size */
            assert_int_equal(bt_wythoff_pair(lo, hi, g, 0, u1, NULL, NULL),
                             BT_OK);
            assert_true(oracle_wythoff_defining(a, 0, u1, lo, hi));
            assert_int_equal(
                bt_wythoff_index_of(n2, &mem, l2, h2, g, 0, u1, NULL, NULL),
                BT_OK);
            assert_int_equal(bt_wythoff_pair(lo, hi, g, 0, n2, NULL, NULL),
                             BT_OK);
            assert_true(mpz_cmp(lo, l2) == 0 && mpz_cmp(hi, h2) == 0);
            assert_true(mpz_cmp(mem == BT_WYTHOFF_LOWER ? lo : hi, u1) == 0);
            assert_true(oracle_wythoff_defining(a, 0, n2, lo, hi));
        }
        bt_game_free(g);
    }
    mpz_clears(u0, u1, t, lo, hi, n2, l2, h2, NULL);
}

/* ------------------------------------------------------ Grundy values */

static void
check_sg_table(int a, int n)
{
    bt_game *g = bt_test_gamef("wythoff:%d", a);
    bt_wythoff_sg *t = NULL;
    bt_diag d;
    unsigned *o = oracle_wythoff_grundy(n, a);
    int x, y;
    assert_non_null(o);
    memset(&d, 0, sizeof d);
    if (bt_wythoff_sg_new(&t, g, (size_t)n, NULL, &d) != BT_OK)
        fail_msg("sg_new a=%d n=%d: %s", a, n, d.message);
    assert_int_equal(bt_wythoff_sg_below(t), n);
    for (x = 0; x < n; x++)
        for (y = 0; y < n; y++)
            if (bt_wythoff_sg_get(t, (size_t)x, (size_t)y) != o[x * n + y])
                fail_msg("a=%d G(%d, %d) = %u, oracle %u", a, x, y,
                         bt_wythoff_sg_get(t, (size_t)x, (size_t)y),
                         o[x * n + y]);
    assert_int_equal(bt_wythoff_sg_get(t, (size_t)n, 0), UINT_MAX);
    assert_true(bt_wythoff_sg_peak_bytes(t) > 0);
    free(o);
    bt_wythoff_sg_free(t);
    bt_game_free(g);
}

static void
test_sg_table(void **state)
{
    int a;
    (void)state;
    check_sg_table(1, 200);
    check_sg_table(1, 1);
    check_sg_table(1, 67); /* a partial tile */
    for (a = 2; a <= 5; a++)
        check_sg_table(a, 70);
    check_sg_table(40, 50); /* a above the side: any k, l */
}

/* G(x, y) of the first rows against published values: G(1, y) and the
   table of Grundy values of Wythoff's game (row 0 is y, the nim-heap). */
static void
test_sg_rows(void **state)
{
    /* G(x, y) for x, y < 6 */
    static const unsigned want[6][6] = {{0, 1, 2, 3, 4, 5}, {1, 2, 0, 4, 5, 3},
                                        {2, 0, 1, 5, 3, 4}, {3, 4, 5, 6, 2, 0},
                                        {4, 5, 3, 2, 7, 6}, {5, 3, 4, 0, 6, 8}};
    bt_game *g = bt_test_game("wythoff");
    bt_wythoff_sg *t;
    size_t x, y;
    (void)state;
    assert_int_equal(bt_wythoff_sg_new(&t, g, 6, NULL, NULL), BT_OK);
    for (x = 0; x < 6; x++)
        for (y = 0; y < 6; y++)
            assert_int_equal(bt_wythoff_sg_get(t, x, y), want[x][y]);
    bt_wythoff_sg_free(t);
    bt_game_free(g);
}

/* The ruleset's grundy() and moves_to(target) against the oracle for
   every position with piles below 20 and every target. */
static void
test_ruleset_grundy(void **state)
{
    enum { N = 20 };
    int a, x, y, x2, y2;
    unsigned target;
    mpz_t c[2], gv, tz;
    (void)state;
    mpz_inits(c[0], c[1], gv, tz, NULL);
    for (a = 1; a <= 4; a++) {
        bt_game *g = bt_test_gamef("wythoff:%d", a);
        unsigned *o = oracle_wythoff_grundy(N, a);
        assert_non_null(o);
        for (x = 0; x < N; x++)
            for (y = 0; y < N; y++) {
                mpz_set_ui(c[0], (unsigned long)x);
                mpz_set_ui(c[1], (unsigned long)y);
                assert_int_equal(
                    g->rules->grundy(g, gv, (const mpz_t *)c, NULL, NULL),
                    BT_OK);
                assert_int_equal(mpz_get_ui(gv), o[x * N + y]);
                for (target = 0; target < 3 * N; target += 1) {
                    moveset got, want;
                    got.n = want.n = 0;
                    mpz_set_ui(tz, target);
                    assert_int_equal(g->rules->moves_to(g, (const mpz_t *)c, tz,
                                                        collect, &got, NULL,
                                                        NULL),
                                     BT_OK);
                    for (x2 = 0; x2 <= x; x2++)
                        for (y2 = 0; y2 <= y; y2++)
                            if (oracle_wythoff_is_move(a, x, y, x2, y2) &&
                                o[x2 * N + y2] == target)
                                ms_add(&want, x2, y2);
                    ms_equal(&got, &want, "moves_to", a, 0, x, y);
                }
            }
        free(o);
        bt_game_free(g);
    }
    mpz_clears(c[0], c[1], gv, tz, NULL);
}

/* options() lists exactly the legal moves, each once. */
static void
test_options(void **state)
{
    int a, x, y, x2, y2, k;
    mpz_t c[2];
    (void)state;
    mpz_inits(c[0], c[1], NULL);
    for (a = 1; a <= 6; a += 1) {
        bt_game *g = bt_test_gamef("wythoff:%d", a);
        for (x = 0; x < 12; x++)
            for (y = 0; y < 12; y++) {
                moveset got;
                int pairs[64][2];
                got.n = 0;
                mpz_set_ui(c[0], (unsigned long)x);
                mpz_set_ui(c[1], (unsigned long)y);
                if (x + y + x * y > 60)
                    continue; /* moveset holds 64 */
                assert_int_equal(g->rules->options(g, (const mpz_t *)c, collect,
                                                   &got, NULL, NULL),
                                 BT_OK);
                ms_sort(&got, pairs);
                k = 0;
                for (x2 = 0; x2 <= x; x2++)
                    for (y2 = 0; y2 <= y; y2++)
                        if (oracle_wythoff_is_move(a, x, y, x2, y2)) {
                            assert_true(k < got.n);
                            assert_int_equal(pairs[k][0], x2);
                            assert_int_equal(pairs[k][1], y2);
                            k++;
                        }
                assert_int_equal(k, got.n);
            }
        bt_game_free(g);
    }
    mpz_clears(c[0], c[1], NULL);
}

/* -------------------------------------------------------------- limits */

static bt_status
count_only(void *ud, const mpz_t *to, size_t nto)
{
    (void)to;
    (void)nto;
    (*(size_t *)ud)++;
    return BT_OK;
}

static void
test_limits(void **state)
{
    bt_game *g = bt_test_game("wythoff"), *g3 = bt_test_game("wythoff:3");
    bt_wythoff_sg *t = (bt_wythoff_sg *)&t;
    bt_limits lim;
    bt_diag d;
    mpz_t c[2], v, lo, hi;
    size_t count = 0;
    (void)state;
    mpz_inits(c[0], c[1], v, lo, hi, NULL);
    bt_limits_default(&lim);
    memset(&d, 0, sizeof d);
    /* tables */
    assert_int_equal(bt_wythoff_sg_new(&t, g, 16385, NULL, &d), BT_ELIMIT);
    assert_null(t);
    assert_non_null(strstr(d.message, "16384"));
    assert_int_equal(bt_wythoff_sg_new(&t, g3, 5462, NULL, &d), BT_ELIMIT);
    lim.max_grundy = 100;
    assert_int_equal(bt_wythoff_sg_new(&t, g, 101, &lim, &d), BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_grundy"));
    assert_int_equal(bt_wythoff_sg_new(&t, g, 0, &lim, &d), BT_OK);
    assert_int_equal(bt_wythoff_sg_below(t), 0);
    bt_wythoff_sg_free(t);
    bt_wythoff_sg_free(NULL);
    /* Grundy values: small and table-sized ones, P-positions of any size,
       and an honest BT_ERANGE beyond */
    mpz_set_ui(c[0], 4096);
    mpz_set_ui(c[1], 3);
    assert_int_equal(bt_wythoff_grundy(v, g, c[0], c[1], NULL, &d), BT_ERANGE);
    assert_non_null(strstr(d.message, "beyond"));
    mpz_ui_pow_ui(v, 10, 500);
    assert_int_equal(bt_wythoff_pair(lo, hi, g, 0, v, NULL, NULL), BT_OK);
    assert_int_equal(bt_wythoff_grundy(v, g, hi, lo, NULL, &d), BT_OK);
    assert_int_equal(mpz_sgn(v), 0);
    lim.max_grundy = 1 << 12; /* a table side of 32 */
    mpz_set_ui(c[0], 31);
    mpz_set_ui(c[1], 5);
    assert_int_equal(bt_wythoff_grundy(v, g, c[0], c[1], &lim, &d), BT_OK);
    mpz_set_ui(c[0], 32);
    assert_int_equal(bt_wythoff_grundy(v, g, c[0], c[1], &lim, &d), BT_ERANGE);
    mpz_set_ui(v, 1);
    assert_int_equal(g->rules->moves_to(g, (const mpz_t *)c, v, count_only,
                                        &count, &lim, &d),
                     BT_ERANGE);
    /* a huge N-position has no Grundy value here, but its winning moves */
    mpz_ui_pow_ui(c[0], 10, 300);
    mpz_add_ui(c[1], c[0], 1);
    assert_int_equal(g->rules->grundy(g, v, (const mpz_t *)c, NULL, &d),
                     BT_ERANGE);
    mpz_set_ui(v, 0);
    count = 0;
    assert_int_equal(g->rules->moves_to(g, (const mpz_t *)c, v, count_only,
                                        &count, NULL, &d),
                     BT_OK);
    assert_true(count >= 1);
    /* options of a big pair */
    assert_int_equal(
        g->rules->options(g, (const mpz_t *)c, count_only, &count, NULL, &d),
        BT_ELIMIT);
    lim.max_search = 10; /* (3, 5): 3 + 5 + 3 options */
    mpz_set_ui(c[0], 3);
    mpz_set_ui(c[1], 5);
    assert_int_equal(
        g->rules->options(g, (const mpz_t *)c, count_only, &count, &lim, &d),
        BT_ELIMIT);
    /* digits */
    lim.max_digits = 10;
    mpz_ui_pow_ui(v, 10, 10);
    assert_int_equal(bt_wythoff_pair(lo, hi, g, 0, v, &lim, &d), BT_ELIMIT);
    assert_int_equal(bt_wythoff_index_of(c[0], NULL, lo, hi, g, 0, v, &lim, &d),
                     BT_ELIMIT);
    mpz_sub_ui(v, v, 1);
    assert_int_equal(bt_wythoff_pair(lo, hi, g, 0, v, &lim, &d), BT_OK);
    mpz_clears(c[0], c[1], v, lo, hi, NULL);
    bt_game_free(g);
    bt_game_free(g3);
}

/* ------------------------------------------------- texts, explanations */

static bt_analysis *
analyze_text(const char *text, unsigned flags)
{
    bt_position *p = NULL;
    bt_analysis *a = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_position_parse(&p, text, NULL, NULL, &d) != BT_OK)
        fail_msg("parse '%s': %s", text, d.message);
    if (bt_analyze(&a, p, flags, NULL, &d) != BT_OK) {
        bt_position_free(p);
        fail_msg("analyze '%.60s': %s", text, d.message);
    }
    bt_position_free(p);
    return a;
}

static int
has_move_text(const bt_analysis *a, const char *text)
{
    size_t i;
    for (i = 0; i < bt_analysis_move_count(a); i++)
        if (strcmp(bt_analysis_move(a, i)->text, text) == 0)
            return 1;
    return 0;
}

static void
test_texts(void **state)
{
    bt_analysis *a;
    const char *e;
    (void)state;
    /* (4, 7) is safe; (4, 9): take 2 from pile 2; (6, 9): take 3 from
       both, to (3, 6)?  No: (3, 5) by 3 and 4 needs a = 2. */
    a = analyze_text("wythoff 4 9", BT_EXPLAIN);
    assert_int_equal(bt_analysis_outcome(a), BT_N);
    assert_true(has_move_text(a, "take 2 from pile 2"));
    e = bt_analysis_explanation(a);
    assert_non_null(e);
    assert_non_null(strstr(e, "safe pair 3 = (4, 7)"));
    assert_non_null(strstr(e, "1.6180339887"));
    bt_analysis_free(a);
    a = analyze_text("wythoff 5 8", BT_EXPLAIN);
    assert_true(has_move_text(a, "take 1 from both piles"));
    bt_analysis_free(a);
    a = analyze_text("wythoff:2 6 10", BT_EXPLAIN);
    /* a = 2: (5, 8)? pairs (0,0) (1,3) (2,6) (4,10) (5,13): from (6, 10)
       take 2 from pile 1 to (4, 10) */
    assert_true(has_move_text(a, "take 2 from pile 1"));
    e = bt_analysis_explanation(a);
    assert_non_null(strstr(e, "1.4142135623"));
    bt_analysis_free(a);
    a = analyze_text("wythoff:2 3 6", 0);
    /* (3, 6) -> (1, 3): take 2 from pile 1 and 3 from pile 2 */
    assert_true(has_move_text(a, "take 2 from pile 1 and 3 from pile 2"));
    bt_analysis_free(a);
    a = analyze_text("wythoff 3 5", BT_EXPLAIN);
    assert_int_equal(bt_analysis_outcome(a), BT_P);
    assert_non_null(strstr(bt_analysis_explanation(a), "P-position"));
    bt_analysis_free(a);
    a = analyze_text("wythoff 2 2", BT_MISERE | BT_EXPLAIN);
    assert_int_equal(bt_analysis_outcome(a), BT_P);
    assert_non_null(strstr(bt_analysis_explanation(a), "corner"));
    bt_analysis_free(a);
    a = analyze_text("wythoff:3 0 0", BT_MISERE | BT_EXPLAIN);
    assert_int_equal(bt_analysis_outcome(a), BT_N);
    assert_int_equal(bt_analysis_move_count(a), 0);
    bt_analysis_free(a);
    /* a sum of pairs */
    a = analyze_text("wythoff 1 2 + wythoff 3 3", BT_EXPLAIN);
    assert_int_equal(bt_analysis_outcome(a), BT_N);
    assert_true(has_move_text(a, "take 3 from both piles of pair 2"));
    assert_non_null(strstr(bt_analysis_explanation(a), "nim-sum"));
    bt_analysis_free(a);
}

/*
 * bt_analyze of a pair of huge piles: the outcome and the winning moves
 * come from the closed form although no Grundy value is known (the
 * generic analysis must not need one for a single component), and the
 * explanation abbreviates the numbers.
 */
static void
test_analyze_huge(void **state)
{
    bt_analysis *a;
    char text[400];
    mpz_t g;
    (void)state;
    mpz_init(g);
    memset(text, 0, sizeof text);
    strcpy(text, "wythoff 1");
    memset(text + 9, '0', 200);
    strcat(text, " 5");
    a = analyze_text(text, BT_EXPLAIN);
    assert_int_equal(bt_analysis_outcome(a), BT_N);
    /* 5 = B_2: shorten pile 1 to A_2 = 3 */
    assert_int_equal(bt_analysis_move_count(a), 1);
    assert_int_equal(mpz_get_ui(bt_analysis_move(a, 0)->to[0]), 3);
    assert_int_equal(mpz_get_ui(bt_analysis_move(a, 0)->to[1]), 5);
    assert_non_null(strstr(bt_analysis_explanation(a), "digits)"));
    bt_analysis_free(a);
    /* a P-position of that size has the value 0 */
    memset(text, 0, sizeof text);
    strcpy(text, "wythoff 161803398874989484820 261803398874989484820");
    a = analyze_text(text, 0);
    assert_int_equal(bt_analysis_outcome(a), BT_P);
    assert_int_equal(bt_analysis_grundy(g, a), BT_OK);
    assert_int_equal(mpz_sgn(g), 0);
    bt_analysis_free(a);
    mpz_clear(g);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_oracle_small),
        cmocka_unit_test(test_oracle_analyze),
        cmocka_unit_test(test_mex_construction),
        cmocka_unit_test(test_wythoff_table),
        cmocka_unit_test(test_zeckendorf_small),
        cmocka_unit_test(test_huge),
        cmocka_unit_test(test_near_integers),
        cmocka_unit_test(test_sg_table),
        cmocka_unit_test(test_sg_rows),
        cmocka_unit_test(test_ruleset_grundy),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_texts),
        cmocka_unit_test(test_analyze_huge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
