/* label: quick
 *
 * test_moore.c -- Moore's Nim_k (moore:K) through the public API, against
 * a brute force written here from the rules alone (a move lowers at least
 * one and at most k piles): on every position of up to 4 piles of up to 7
 * (k = 1..3), normal and misère play, the outcome and the exact set of
 * winning moves; Grundy values (the generic memoised mex of the library)
 * against the brute-force mex on up to 3 piles; k = 1 against Nim; random
 * huge positions against Moore's column rule computed here.
 *
 * BT_TEST_SEED in the environment sets the seed of the random tests.
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

#define MAXN 4
#define MAXV 7
#define SPACE 4096 /* 8^4 */

/* A position of n piles of up to 7 as a code in base 8. */
static void
decode(unsigned code, unsigned n, unsigned *x)
{
    unsigned i;
    for (i = 0; i < n; i++, code /= 8)
        x[i] = code % 8;
}

static unsigned
encode(const unsigned *x, unsigned n)
{
    unsigned i, code = 0;
    for (i = n; i-- > 0;)
        code = code * 8 + x[i];
    return code;
}

/* Every option of x (n piles) in Nim_k from the rules: each y <= x, y != x,
   differing in at most k piles, into out[] as codes; returns how many. */
static unsigned
options(unsigned code, unsigned n, unsigned k, unsigned *out)
{
    unsigned x[MAXN], y[MAXN], no = 0, i;
    decode(code, n, x);
    memset(y, 0, sizeof y);
    for (;;) {
        unsigned changed = 0;
        for (i = 0; i < n; i++)
            changed += y[i] < x[i];
        if (changed >= 1 && changed <= k)
            out[no++] = encode(y, n);
        /* next y in the box below x */
        for (i = 0; i < n && y[i] == x[i]; i++)
            y[i] = 0;
        if (i == n)
            return no;
        y[i]++;
    }
}

/* win[c]: the player to move wins (normal or misère); by increasing code,
   since every option has a smaller code. */
static void
solve(unsigned n, unsigned k, int misere, unsigned char *win,
      unsigned *grundy)
{
    unsigned c, *opt = malloc(SPACE * sizeof *opt);
    assert_non_null(opt);
    for (c = 0; c < (1u << (3 * n)); c++) {
        unsigned no = options(c, n, k, opt), i;
        unsigned char seen[SPACE / 8 + 64];
        win[c] = 0;
        if (no == 0)
            win[c] = misere ? 1 : 0;
        for (i = 0; i < no; i++)
            if (!win[opt[i]])
                win[c] = 1;
        if (grundy != NULL) {
            unsigned v = 0;
            memset(seen, 0, sizeof seen);
            for (i = 0; i < no; i++)
                if (grundy[opt[i]] < sizeof seen)
                    seen[grundy[opt[i]]] = 1;
            while (seen[v])
                v++;
            grundy[c] = v;
        }
    }
    free(opt);
}

static bt_position *
position(bt_game *g, const unsigned *x, unsigned n)
{
    bt_position *p;
    mpz_t v[MAXN];
    unsigned i;
    assert_int_equal(bt_position_new(&p), BT_OK);
    for (i = 0; i < n; i++)
        mpz_init_set_ui(v[i], x[i]);
    assert_int_equal(bt_position_add_n(p, g, (const mpz_t *)v, n, NULL, NULL),
                     BT_OK);
    for (i = 0; i < n; i++)
        mpz_clear(v[i]);
    return p;
}

static void
check_all(unsigned k, int misere)
{
    static unsigned char win[SPACE];
    static unsigned grundy[SPACE];
    unsigned *opt = malloc(SPACE * sizeof *opt), n;
    bt_game *g = bt_test_gamef("moore:%u", k);
    assert_non_null(opt);
    /* four piles take minutes under valgrind: three there (bt_test_light) */
    for (n = 1; n <= (bt_test_light() ? 3u : MAXN); n++) {
        unsigned c, with_grundy = !misere && n <= 3;
        solve(n, k, misere, win, with_grundy ? grundy : NULL);
        for (c = 0; c < (1u << (3 * n)); c++) {
            unsigned x[MAXN], no, i, nwin = 0, found = 0;
            bt_analysis *a;
            bt_position *p;
            decode(c, n, x);
            p = position(g, x, n);
            assert_int_equal(bt_analyze(&a, p, misere ? BT_MISERE : 0, NULL,
                                        NULL),
                             BT_OK);
            if (bt_analysis_outcome(a) != (win[c] ? BT_N : BT_P))
                fail_msg("k=%u %s code %o: outcome", k,
                         misere ? "misère" : "normal", c);
            assert_true(bt_analysis_moves_complete(a));
            if (with_grundy) {
                mpz_t v;
                mpz_init(v);
                assert_int_equal(bt_analysis_component_grundy(v, a, 0),
                                 BT_OK);
                if (mpz_cmp_ui(v, grundy[c]) != 0)
                    fail_msg("k=%u code %o: Grundy %lu, brute force %u", k, c,
                             mpz_get_ui(v), grundy[c]);
                mpz_clear(v);
            }
            /* the winning moves: exactly the options to a losing position */
            no = options(c, n, k, opt);
            for (i = 0; i < no; i++)
                nwin += !win[opt[i]];
            assert_int_equal(bt_analysis_move_count(a), nwin);
            for (i = 0; i < bt_analysis_move_count(a); i++) {
                const bt_move *m = bt_analysis_move(a, i);
                unsigned y[MAXN], j, yc;
                assert_int_equal(m->component, 0);
                assert_int_equal(m->nto, n);
                for (j = 0; j < n; j++)
                    y[j] = (unsigned)mpz_get_ui(m->to[j]);
                yc = encode(y, n);
                for (j = 0; j < no && opt[j] != yc; j++)
                    ;
                assert_true(j < no);    /* a move of the rules */
                assert_false(win[yc]); /* to a losing position */
                found++;
            }
            assert_int_equal(found, nwin); /* each once (count matches) */
            bt_analysis_free(a);
            bt_position_free(p);
        }
    }
    bt_game_free(g);
    free(opt);
}

static void
test_k1_normal(void **state)
{
    (void)state;
    check_all(1, 0);
}
static void
test_k1_misere(void **state)
{
    (void)state;
    check_all(1, 1);
}
static void
test_k2_normal(void **state)
{
    (void)state;
    check_all(2, 0);
}
static void
test_k2_misere(void **state)
{
    (void)state;
    check_all(2, 1);
}
static void
test_k3_normal(void **state)
{
    (void)state;
    check_all(3, 0);
}
static void
test_k3_misere(void **state)
{
    (void)state;
    check_all(3, 1);
}

/* k = 1 is Nim: the same outcome and Grundy value as the Nim position. */
static void
test_k1_is_nim(void **state)
{
    bt_game *g = bt_test_gamef("moore:%u", 1), *nim = NULL;
    unsigned c;
    (void)state;
    assert_int_equal(bt_game_new(&nim, "nim", NULL), BT_OK);
    for (c = 0; c < SPACE; c++) {
        unsigned x[MAXN], i;
        bt_position *p = position(g, (decode(c, 4, x), x), 4), *q;
        bt_analysis *a, *b;
        mpz_t u, v;
        assert_int_equal(bt_position_new(&q), BT_OK);
        mpz_init(u);
        mpz_init(v);
        for (i = 0; i < 4; i++) {
            mpz_set_ui(u, x[i]);
            assert_int_equal(
                bt_position_add(q, nim, (const mpz_t *)&u, NULL, NULL), BT_OK);
        }
        assert_int_equal(bt_analyze(&a, p, 0, NULL, NULL), BT_OK);
        assert_int_equal(bt_analyze(&b, q, 0, NULL, NULL), BT_OK);
        assert_int_equal(bt_analysis_outcome(a), bt_analysis_outcome(b));
        assert_int_equal(bt_analysis_grundy(u, a), BT_OK);
        assert_int_equal(bt_analysis_grundy(v, b), BT_OK);
        assert_int_equal(mpz_cmp(u, v), 0);
        assert_int_equal(bt_analysis_move_count(a), bt_analysis_move_count(b));
        mpz_clear(u);
        mpz_clear(v);
        bt_analysis_free(a);
        bt_analysis_free(b);
        bt_position_free(p);
        bt_position_free(q);
    }
    bt_game_free(g);
    bt_game_free(nim);
}

/* Moore's rule computed here: every binary column's sum divisible by k+1. */
static int
column_rule(const mpz_t *x, unsigned n, unsigned k)
{
    size_t w = 0, j;
    unsigned i;
    for (i = 0; i < n; i++)
        if (mpz_sizeinbase(x[i], 2) > w)
            w = mpz_sizeinbase(x[i], 2);
    for (j = 0; j < w; j++) {
        unsigned s = 0;
        for (i = 0; i < n; i++)
            s += (unsigned)mpz_tstbit(x[i], j);
        if (s % (k + 1))
            return 0;
    }
    return 1;
}

/* Random huge positions (up to 3000 bits, up to 12 piles): the outcome is
   the column rule, and every listed winning move is a move of the rules
   (1..k piles lowered) to a position that satisfies the rule. */
static void
test_huge(void **state)
{
    const char *s = getenv("BT_TEST_SEED");
    unsigned long seed = s ? strtoul(s, NULL, 10) : 20261124ul;
    gmp_randstate_t r;
    unsigned round;
    (void)state;
    gmp_randinit_default(r);
    gmp_randseed_ui(r, seed);
    for (round = 0; round < 60; round++) {
        unsigned k = 1 + round % 3, n = 2 + (unsigned)(round * 7 % 11), i;
        size_t bits = round % 2 ? 3000 : 200;
        mpz_t x[12];
        bt_game *g = bt_test_gamef("moore:%u", k);
        bt_position *p;
        bt_analysis *a;
        bt_limits lim;
        bt_limits_default(&lim);
        lim.max_search = 2000;
        for (i = 0; i < n; i++) {
            mpz_init(x[i]);
            mpz_urandomb(x[i], r, bits);
        }
        if (round % 4 == 0) {
            /* make it a P-position: fix the last k piles' columns */
            size_t j;
            for (j = 0; j < bits; j++) {
                unsigned sum = 0, t;
                for (i = 0; i + k < n; i++)
                    sum += (unsigned)mpz_tstbit(x[i], j);
                for (t = 0; t < k && i + t < n; t++)
                    if (t < (k + 1 - sum % (k + 1)) % (k + 1))
                        mpz_setbit(x[i + t], j);
                    else
                        mpz_clrbit(x[i + t], j);
            }
            if (n <= k) /* too few piles to fix: skip */
                goto next;
        }
        assert_int_equal(bt_position_new(&p), BT_OK);
        assert_int_equal(
            bt_position_add_n(p, g, (const mpz_t *)x, n, &lim, NULL), BT_OK);
        assert_int_equal(bt_analyze(&a, p, 0, &lim, NULL), BT_OK);
        if (bt_analysis_outcome(a) != (column_rule((const mpz_t *)x, n, k)
                                           ? BT_P
                                           : BT_N))
            fail_msg("seed %lu round %u: outcome", seed, round);
        if (bt_analysis_outcome(a) == BT_N)
            assert_true(bt_analysis_move_count(a) >= 1);
        for (i = 0; i < bt_analysis_move_count(a); i++) {
            const bt_move *m = bt_analysis_move(a, i);
            unsigned j, changed = 0;
            assert_int_equal(m->nto, n);
            for (j = 0; j < n; j++) {
                assert_true(mpz_cmp(m->to[j], x[j]) <= 0);
                changed += mpz_cmp(m->to[j], x[j]) < 0;
            }
            assert_true(changed >= 1 && changed <= k);
            assert_true(column_rule((const mpz_t *)m->to, n, k));
        }
        bt_analysis_free(a);
        bt_position_free(p);
    next:
        for (i = 0; i < n; i++)
            mpz_clear(x[i]);
        bt_game_free(g);
    }
    gmp_randclear(r);
}

/* The position language: one term of moore is one component. */
static void
test_parse(void **state)
{
    bt_position *p;
    bt_game *g = bt_test_gamef("moore:%u", 2);
    char *s;
    (void)state;
    assert_int_equal(bt_position_parse(&p, "moore:2 3 5 6 + moore:2 1 + nim 4",
                                       NULL, NULL, NULL),
                     BT_OK);
    assert_int_equal(bt_position_size(p), 3);
    assert_int_equal(bt_position_count(p, 0), 3);
    assert_int_equal(bt_position_count(p, 1), 1);
    assert_int_equal(bt_game_arity(bt_position_game(p, 0)), 0);
    s = bt_position_format(p);
    assert_string_equal(s, "moore:2 3 5 6 + moore:2 1 + nim 4");
    free(s);
    bt_position_free(p);
    bt_game_free(g);
    assert_int_not_equal(bt_game_new(&g, "moore:0", NULL), BT_OK);
    assert_int_not_equal(bt_game_new(&g, "moore", NULL), BT_OK);
    g = bt_test_gamef("moore:%u", 2);
    bt_game_free(g);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),     cmocka_unit_test(test_k1_normal),
        cmocka_unit_test(test_k1_misere), cmocka_unit_test(test_k2_normal),
        cmocka_unit_test(test_k2_misere), cmocka_unit_test(test_k3_normal),
        cmocka_unit_test(test_k3_misere), cmocka_unit_test(test_k1_is_nim),
        cmocka_unit_test(test_huge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
