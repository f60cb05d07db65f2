/* label: quick, light under the sanitizers
 *
 * test_moore.c -- Moore's Nim_k (moore:K) through the public API, against
 * a brute force written here from the rules alone (a move lowers at least
 * one and at most k piles): on every position of up to 4 piles of up to 7
 * (k = 1..3), normal and misère play, the outcome and the exact set of
 * winning moves; Grundy values (the generic memoised mex of the library)
 * against the brute-force mex on up to 3 piles; k = 1 against Nim; random
 * huge positions against Moore's column rule computed here.  Tables
 * (bt_table_*: the P-positions of one component of n piles, piles in
 * non-decreasing order) and exact counts (bt_game_count, ordered tuples)
 * against the same brute force on every range within 0..7, and counts of
 * full binary ranges against the column rule counted here by columns.
 * Remoteness against the same brute force on up to 3 piles.  More piles
 * than k (5 to 9, random): the winning moves and the options against the
 * rules' theorems, each once.  Hostile positions (100 piles of 1, six
 * piles of 2 000 digits, a wide pile among 20 000 empty ones) stop at a
 * limit or answer within a small CPU bound.
 *
 * BT_TEST_SEED in the environment sets the seed of the random tests.
 * CPU: about 16 s in the normal build (tests/README.md).  Under ASan it
 * took 50-94 s, the longest of that stage: there it runs light
 * (BT_TEST_LIGHT: three piles where four, the same lines), as under
 * valgrind.
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

/* Remoteness (Smith) from the rules, by increasing code: a terminal
   position has 0; a winning one 1 + the least remoteness of its losing
   options, a losing one 1 + the greatest of its options'.  Against
   bt_remoteness (the library's search, which rebuilds components of any
   number of piles from its keys) on every position of up to 3 piles of
   up to 7, k = 1..3, normal and misère play.  From every losing position
   the computer plays a move of the rules, the longest defence when it
   ranked the moves by remoteness (within its budget). */
static void
test_remoteness(void **state)
{
    static unsigned char win[SPACE];
    static unsigned rem[SPACE];
    unsigned *opt = malloc(SPACE * sizeof *opt), k, n, c, i;
    int misere;
    mpz_t r;
    (void)state;
    assert_non_null(opt);
    mpz_init(r);
    for (k = 1; k <= 3; k++) {
        bt_game *g = bt_test_gamef("moore:%u", k);
        for (misere = 0; misere <= 1; misere++)
            /* two piles under valgrind (bt_test_light) */
            for (n = 1; n <= (bt_test_light() ? 2u : 3u); n++) {
                solve(n, k, misere, win, NULL);
                for (c = 0; c < (1u << (3 * n)); c++) {
                    unsigned no = options(c, n, k, opt), x[MAXN], best = 0;
                    int any = 0;
                    bt_position *p;
                    for (i = 0; i < no; i++) {
                        unsigned o = opt[i];
                        if (win[c] && !win[o] && (!any || rem[o] < best)) {
                            best = rem[o];
                            any = 1;
                        } else if (!win[c] && (!any || rem[o] > best)) {
                            best = rem[o];
                            any = 1;
                        }
                    }
                    rem[c] = no ? 1 + best : 0;
                    p = position(g, (decode(c, n, x), x), n);
                    assert_int_equal(bt_remoteness(r, p, misere, NULL, NULL),
                                     BT_OK);
                    if (mpz_cmp_ui(r, rem[c]) != 0)
                        fail_msg("moore:%u %s, code %o: remoteness %lu, "
                                 "expected %u",
                                 k, misere ? "misere" : "normal", c,
                                 mpz_get_ui(r), rem[c]);
                    if (no > 0 && !win[c]) {
                        bt_move *m = NULL;
                        bt_play_info info;
                        unsigned to, legal = 0;
                        assert_int_equal(bt_opponent_play(&m, &info, p, misere,
                                                          BT_LEVEL_PERFECT,
                                                          NULL, NULL, NULL),
                                         BT_OK);
                        assert_int_equal(m->nto, n);
                        for (i = 0; i < n; i++)
                            x[i] = (unsigned)mpz_get_ui(m->to[i]);
                        to = encode(x, n);
                        for (i = 0; i < no; i++)
                            legal |= opt[i] == to;
                        assert_true(legal);
                        /* ranked by remoteness (within the computer's
                           budget): the longest defence, an option of
                           remoteness rem[c] - 1 */
                        if (info.remoteness_known)
                            assert_int_equal(rem[to], rem[c] - 1);
                        bt_moves_free(m, 1);
                    }
                    bt_position_free(p);
                }
            }
        bt_game_free(g);
    }
    mpz_clear(r);
    free(opt);
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

/* m is a move of the rules from x (n piles): it lowers 1..k piles. */
static void
check_rules(const bt_move *m, const mpz_t *x, unsigned n, unsigned k)
{
    unsigned j, changed = 0;
    assert_int_equal(m->nto, n);
    for (j = 0; j < n; j++) {
        assert_true(mpz_cmp(m->to[j], x[j]) <= 0);
        changed += mpz_cmp(m->to[j], x[j]) < 0;
    }
    assert_true(changed >= 1 && changed <= k);
}

/* Random huge positions (up to 3000 bits, up to 12 piles): the outcome is
   the column rule, and every listed winning move is a move of the rules
   (1..k piles lowered) to a position that satisfies the rule; so is the
   computer's move from an N-position, and from a P-position it is a move
   of the rules.  A player's move (bt_position_find_move) lowering 1..k
   piles by one is accepted, and one lowering k + 1, or leaving a pile
   fewer, refused. */
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
        unsigned lower;
        size_t bits = round % 2 ? 3000 : 200;
        mpz_t x[12], y[12];
        bt_game *g = bt_test_gamef("moore:%u", k);
        bt_position *p;
        bt_analysis *a;
        bt_move *cm;
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
            check_rules(m, (const mpz_t *)x, n, k);
            assert_true(column_rule((const mpz_t *)m->to, n, k));
        }
        /* the computer's move: a winning one, or from a P-position (too
           big to search) still a move of the rules */
        assert_int_equal(bt_opponent_play(&cm, NULL, p, 0, BT_LEVEL_PERFECT,
                                          NULL, &lim, NULL),
                         BT_OK);
        check_rules(cm, (const mpz_t *)x, n, k);
        assert_int_equal(column_rule((const mpz_t *)cm->to, n, k),
                         bt_analysis_outcome(a) == BT_N);
        bt_moves_free(cm, 1);
        /* a player's move, checked from the rules at any size: lowering
           1..k piles is one, lowering k + 1 is not */
        for (lower = 1; lower <= k + 1 && lower <= n; lower++) {
            bt_position *q;
            int empty = 0; /* a pile of 0 among them: not this test */
            for (i = 0; i < n; i++)
                mpz_init_set(y[i], x[i]);
            for (i = 0; i < lower; i++) {
                empty |= mpz_sgn(y[i]) == 0;
                if (mpz_sgn(y[i]) > 0)
                    mpz_sub_ui(y[i], y[i], 1);
            }
            assert_int_equal(bt_position_new(&q), BT_OK);
            assert_int_equal(bt_position_add_n(q, g, (const mpz_t *)y, n,
                                               &lim, NULL),
                             BT_OK);
            if (!empty) {
                assert_int_equal(bt_position_find_move(&cm, p, q, &lim, NULL),
                                 lower <= k ? BT_OK : BT_EINVAL);
                if (lower <= k)
                    bt_moves_free(cm, 1);
            }
            /* a pile fewer is no move, whatever the others */
            bt_position_free(q);
            assert_int_equal(bt_position_new(&q), BT_OK);
            assert_int_equal(bt_position_add_n(q, g, (const mpz_t *)y, n - 1,
                                               &lim, NULL),
                             BT_OK);
            assert_int_equal(bt_position_find_move(&cm, p, q, &lim, NULL),
                             BT_EINVAL);
            bt_position_free(q);
            for (i = 0; i < n; i++)
                mpz_clear(y[i]);
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

/* The brute force's P-positions of every n <= MAXN piles in 0..7, for k
   and misere: p[n][code] = 1 when the player to move loses. */
static unsigned char *
p_table(unsigned n, unsigned k, int misere)
{
    unsigned char *win = malloc(SPACE), *p = malloc(SPACE);
    unsigned c;
    assert_non_null(win);
    assert_non_null(p);
    solve(n, k, misere, win, NULL);
    for (c = 0; c < (1u << (3 * n)); c++)
        p[c] = !win[c];
    free(win);
    return p;
}

/* Tables of n piles in [lo, below) against the brute force: the rows are
   exactly the non-decreasing tuples the brute force calls P, in
   lexicographic order. */
static void
check_table(bt_game *g, unsigned n, unsigned k, int misere,
            const unsigned char *p, unsigned lo, unsigned below)
{
    bt_table *t = NULL;
    mpz_t mn, bl, row[MAXN];
    unsigned x[MAXN], i, c;
    int r;
    mpz_init_set_ui(mn, lo);
    mpz_init_set_ui(bl, below);
    for (i = 0; i < MAXN; i++)
        mpz_init(row[i]);
    assert_int_equal(bt_table_new(&t, g, misere, n, mn, bl, NULL, NULL),
                     BT_OK);
    assert_int_equal(bt_table_width(t), n);
    /* the expected rows: codes of non-decreasing tuples, in lexicographic
       order of (x[0], ..., x[n-1]) */
    for (i = 0; i < n; i++)
        x[i] = lo;
    for (;;) {
        int sorted = 1;
        for (i = 1; i < n; i++)
            sorted = sorted && x[i - 1] <= x[i];
        if (sorted && p[encode(x, n)]) {
            r = bt_table_next(t, row);
            if (r != 1)
                fail_msg("moore:%u %s, %u piles in [%u, %u): row missing",
                         k, misere ? "misere" : "normal", n, lo, below);
            for (i = 0; i < n; i++)
                assert_int_equal(mpz_get_ui(row[i]), x[i]);
        }
        /* next tuple, the last pile fastest */
        for (c = n; c-- > 0;) {
            if (++x[c] < below)
                break;
            x[c] = lo;
        }
        if (c == (unsigned)-1)
            break;
    }
    r = bt_table_next(t, row);
    if (r != 0)
        fail_msg("moore:%u %s, %u piles in [%u, %u): a row too many", k,
                 misere ? "misere" : "normal", n, lo, below);
    bt_table_free(t);
    for (i = 0; i < MAXN; i++)
        mpz_clear(row[i]);
    mpz_clears(mn, bl, NULL);
}

/* Counts of n piles in [lo, hi] against the brute force: ordered tuples,
   or multisets (the tuples in non-decreasing order). */
static void
check_count(bt_game *g, unsigned n, unsigned k, int misere, int ordered,
            const unsigned char *p, unsigned lo, unsigned hi)
{
    mpz_t mn, mx, pos, pp;
    mpq_t q;
    unsigned x[MAXN], i, c, want = 0, all = 0;
    mpz_inits(pos, pp, NULL);
    mpz_init_set_ui(mn, lo);
    mpz_init_set_ui(mx, hi);
    mpq_init(q);
    for (c = 0; c < (1u << (3 * n)); c++) {
        int in = 1;
        decode(c, n, x);
        for (i = 0; i < n; i++)
            in = in && x[i] >= lo && x[i] <= hi &&
                 (ordered || i == 0 || x[i - 1] <= x[i]);
        all += (unsigned)in;
        want += (unsigned)(in && p[c]);
    }
    assert_int_equal(bt_game_count(pos, pp, q, g, n, mn, mx,
                                   (ordered ? BT_COUNT_ORDERED : 0) |
                                       (misere ? BT_MISERE : 0),
                                   NULL, NULL),
                     BT_OK);
    assert_int_equal(mpz_get_ui(pos), all);
    if (mpz_cmp_ui(pp, want) != 0)
        fail_msg("moore:%u %s %s, %u piles in [%u, %u]: %lu P-positions "
                 "counted, %u by brute force",
                 k, misere ? "misere" : "normal",
                 ordered ? "tuples" : "multisets", n, lo, hi, mpz_get_ui(pp),
                 want);
    /* the probability is pp / pos in lowest terms */
    mpz_mul(pos, pos, mpq_numref(q));
    mpz_mul(pp, pp, mpq_denref(q));
    assert_int_equal(mpz_cmp(pos, pp), 0);
    mpq_clear(q);
    mpz_clears(mn, mx, pos, pp, NULL);
}

static void
test_table_count(void **state)
{
    unsigned k, n, lo, hi;
    int misere;
    (void)state;
    for (k = 1; k <= 3; k++)
        for (misere = 0; misere <= 1; misere++)
            for (n = 1; n <= (bt_test_light() ? 3u : MAXN); n++) {
                bt_game *g = bt_test_gamef("moore:%u", k);
                unsigned char *p = p_table(n, k, misere);
                for (lo = 0; lo <= 3; lo++)
                    for (hi = lo; hi <= 7; hi++) {
                        check_table(g, n, k, misere, p, lo, hi + 1);
                        check_count(g, n, k, misere, 1, p, lo, hi);
                        check_count(g, n, k, misere, 0, p, lo, hi);
                    }
                free(p);
                bt_game_free(g);
            }
}

/* Counts of full binary ranges [0, 2^bits): the columns are independent,
   each with sum_{w = 0 (mod k+1)} C(n, w) ways, counted here with GMP's
   binomials; misère play moves the all-0-or-1 tuples as docs/moore.md
   says.  Then: zero piles, multisets (not counted), games that do not
   count. */
static void
test_count_large(void **state)
{
    static const unsigned cases[][3] = {
        {2, 10, 64}, {3, 7, 200}, {5, 20, 33}, {1, 12, 100}, {4, 16, 5},
    };
    mpz_t mn, mx, pos, pp, col, b, want;
    bt_game *g, *kay = NULL;
    size_t i;
    unsigned w;
    (void)state;
    mpz_inits(mn, mx, pos, pp, col, b, want, NULL);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned k = cases[i][0], n = cases[i][1], bits = cases[i][2];
        int misere;
        g = bt_test_gamef("moore:%u", k);
        mpz_set_ui(mn, 0);
        mpz_setbit(mx, bits);
        mpz_sub_ui(mx, mx, 1); /* 2^bits - 1 */
        mpz_set_ui(col, 0);
        for (w = 0; w <= n; w += k + 1) {
            mpz_bin_uiui(b, n, w);
            mpz_add(col, col, b);
        }
        for (misere = 0; misere <= 1; misere++) {
            mpz_pow_ui(want, col, bits);
            if (misere)
                for (w = 0; w <= n; w++) {
                    mpz_bin_uiui(b, n, w);
                    if (w % (k + 1) == 0)
                        mpz_sub(want, want, b);
                    else if (w % (k + 1) == 1)
                        mpz_add(want, want, b);
                }
            assert_int_equal(
                bt_game_count(pos, pp, NULL, g, n, mn, mx,
                              BT_COUNT_ORDERED | (misere ? BT_MISERE : 0),
                              NULL, NULL),
                BT_OK);
            assert_int_equal(mpz_cmp(pp, want), 0);
            mpz_add_ui(b, mx, 1);
            mpz_pow_ui(want, b, n);
            assert_int_equal(mpz_cmp(pos, want), 0);
        }
        mpz_set_ui(mx, 0);
        bt_game_free(g);
    }
    /* moore:1 is Nim: its multisets by the cycle types here equal Nim's
       count by the Walsh spectrum (nim_count.c), normal and misère */
    {
        static const unsigned long big[][3] = {
            {12, 3, 1000}, {20, 0, 1ul << 20}, {7, 1, 1ul << 30}};
        mpz_t npos, npp;
        mpz_inits(npos, npp, NULL);
        g = bt_test_gamef("moore:%u", 1);
        for (i = 0; i < sizeof big / sizeof big[0]; i++) {
            int misere;
            mpz_set_ui(mn, big[i][1]);
            mpz_set_ui(mx, big[i][2]);
            for (misere = 0; misere <= 1; misere++) {
                unsigned fl = misere ? BT_MISERE : 0;
                assert_int_equal(bt_game_count(pos, pp, NULL, g, big[i][0],
                                               mn, mx, fl, NULL, NULL),
                                 BT_OK);
                assert_int_equal(bt_nim_count(npos, npp, NULL, big[i][0], mn,
                                              mx, fl, NULL, NULL),
                                 BT_OK);
                assert_int_equal(mpz_cmp(pos, npos), 0);
                assert_int_equal(mpz_cmp(pp, npp), 0);
            }
        }
        bt_game_free(g);
        mpz_clears(npos, npp, NULL);
        mpz_set_ui(mn, 0);
    }
    /* the empty position: P in normal play only */
    g = bt_test_gamef("moore:%u", 2);
    mpz_set_ui(mx, 9);
    assert_int_equal(bt_game_count(pos, pp, NULL, g, 0, mn, mx,
                                   BT_COUNT_ORDERED, NULL, NULL),
                     BT_OK);
    assert_int_equal(mpz_cmp_ui(pos, 1), 0);
    assert_int_equal(mpz_cmp_ui(pp, 1), 0);
    assert_int_equal(bt_game_count(pos, pp, NULL, g, 0, mn, mx,
                                   BT_COUNT_ORDERED | BT_MISERE, NULL, NULL),
                     BT_OK);
    assert_int_equal(mpz_cmp_ui(pp, 0), 0);
    /* multisets of more piles than the cycle types allow, and a game with
       no count, are refused */
    assert_int_equal(bt_game_count(pos, pp, NULL, g, 41, mn, mx, 0, NULL, NULL),
                     BT_ELIMIT);
    assert_int_equal(bt_game_new(&kay, "kayles", NULL), BT_OK);
    assert_int_equal(bt_game_count(pos, pp, NULL, kay, 3, mn, mx,
                                   BT_COUNT_ORDERED, NULL, NULL),
                     BT_EUNDEF);
    bt_game_free(kay);
    bt_game_free(g);
    mpz_clears(mn, mx, pos, pp, col, b, want, NULL);
}

/* ------------------------------------------------------ many piles */

/* A position of one moore:k component of the n piles x. */
static bt_position *
position_of(bt_game *g, const mpz_t *x, size_t n, const bt_limits *lim)
{
    bt_position *p;
    assert_int_equal(bt_position_new(&p), BT_OK);
    assert_int_equal(bt_position_add_n(p, g, x, n, lim, NULL), BT_OK);
    return p;
}

/* P-positions by the rules' theorems (normal: the column rule; misère,
   docs/moore.md: the column rule with a pile >= 2, else ones = 1 mod
   k + 1), for piles below 8. */
static int
is_p(const unsigned *y, unsigned n, unsigned k, int misere)
{
    unsigned i, j, big = 0, ones = 0;
    for (i = 0; i < n; i++) {
        big += y[i] > 1;
        ones += y[i] == 1;
    }
    if (misere && big == 0)
        return ones % (k + 1) == 1 % (k + 1);
    for (j = 0; j < 3; j++) {
        unsigned s = 0;
        for (i = 0; i < n; i++)
            s += (y[i] >> j) & 1;
        if (s % (k + 1))
            return 0;
    }
    return 1;
}

/*
 * More piles than k (the exhaustive tests stop at 4): on random positions
 * of 5 to 9 piles (below 8, or below 4 past 6 piles), k = 1..4, normal
 * and misère, the winning moves listed are exactly the options, walked
 * here box by box, that reach a P-position, each once; and the options
 * listed by bt_position_moves are exactly the options.  This checks the
 * walks that skip dead branches (the column walk of the moves to
 * P-positions, the misère moves to piles <= 1 by counts) and the options
 * walk that recurses per pile changed.
 */
static void
test_many_piles(void **state)
{
    static unsigned char seen[1u << 18]; /* 8^6 = 4^9 codes */
    unsigned round;
    (void)state;
    for (round = 0; round < 48; round++) {
        unsigned n = 5 + round % 5, k = 1 + (round / 5) % 4;
        unsigned v = n <= 6 ? 8 : 4, x[9], y[9], i, want = 0, opts = 0;
        int misere = (int)(round / 2) % 2;
        bt_game *g = bt_test_gamef("moore:%u", k);
        bt_position *p;
        bt_analysis *a;
        bt_move *mv;
        size_t nm, t;
        mpz_t z[9];
        for (i = 0; i < n; i++) {
            x[i] = bt_test_rnd(v);
            mpz_init_set_ui(z[i], x[i]);
        }
        p = position_of(g, (const mpz_t *)z, n, NULL);
        /* every y <= x, by an odometer */
        memset(y, 0, sizeof y);
        for (;;) {
            unsigned changed = 0;
            for (i = 0; i < n; i++)
                changed += y[i] < x[i];
            if (changed >= 1 && changed <= k) {
                opts++;
                want += is_p(y, n, k, misere);
            }
            for (i = 0; i < n && y[i] == x[i]; i++)
                y[i] = 0;
            if (i == n)
                break;
            y[i]++;
        }
        assert_int_equal(bt_analyze(&a, p, misere ? BT_MISERE : 0, NULL,
                                    NULL),
                         BT_OK);
        if (bt_analysis_outcome(a) != (is_p(x, n, k, misere) ? BT_P : BT_N))
            fail_msg("seed %llu round %u: outcome", bt_test_seed(), round);
        assert_true(bt_analysis_moves_complete(a));
        memset(seen, 0, sizeof seen);
        for (t = 0; t < bt_analysis_move_count(a); t++) {
            const bt_move *m = bt_analysis_move(a, t);
            unsigned code = 0;
            check_rules(m, (const mpz_t *)z, n, k);
            for (i = n; i-- > 0;) {
                y[i] = (unsigned)mpz_get_ui(m->to[i]);
                code = code * v + y[i];
            }
            assert_true(is_p(y, n, k, misere));
            assert_false(seen[code]); /* each once */
            seen[code] = 1;
        }
        if (bt_analysis_move_count(a) != want)
            fail_msg("seed %llu round %u: moore:%u %s, %u piles: %zu "
                     "winning moves, %u by the rules",
                     bt_test_seed(), round, k, misere ? "misère" : "normal",
                     n, bt_analysis_move_count(a), want);
        bt_analysis_free(a);
        /* the options, each once */
        assert_int_equal(bt_position_moves(&mv, &nm, p, NULL, NULL), BT_OK);
        assert_int_equal(nm, opts);
        memset(seen, 0, sizeof seen);
        for (t = 0; t < nm; t++) {
            unsigned code = 0;
            check_rules(&mv[t], (const mpz_t *)z, n, k);
            for (i = n; i-- > 0;)
                code = code * v + (unsigned)mpz_get_ui(mv[t].to[i]);
            assert_false(seen[code]);
            seen[code] = 1;
        }
        bt_moves_free(mv, nm);
        bt_position_free(p);
        for (i = 0; i < n; i++)
            mpz_clear(z[i]);
        bt_game_free(g);
    }
}

/* The CPU seconds of the process so far. */
static double
cpu_seconds(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

/*
 * Hostile positions (issue 26) stop at a limit or answer within a small
 * amount of CPU, and their moves are charged to max_memory as they are
 * listed.  Each takes well under 0.5 s of CPU in a release build; the
 * bounds (written with each) leave room for a sanitizer build.
 */
static void
test_hostile(void **state)
{
    bt_limits lim;
    bt_game *g;
    bt_position *p;
    bt_analysis *a;
    bt_move *mv;
    size_t nm, i;
    bt_diag d;
    double t0;
    mpz_t x[100];
    (void)state;
    bt_limits_default(&lim);

    /* misère, 100 piles of 1 of moore:64: the moves to piles <= 1 were a
       walk over the 2^100 subsets (it never ended); now the (h, d) pairs
       list a move each step, to the limit.  The outcome is Moore's misère
       rule's (100 ones, not 1 mod 65: N), so the analysis answers it with
       the first 200 of the C(100, 34) winning moves, each emptying 34
       piles, marked incomplete as in normal play (it failed with
       BT_ELIMIT), and the note names the limit.  Bound: 10 s of CPU. */
    g = bt_test_gamef("moore:%u", 64);
    for (i = 0; i < 100; i++)
        mpz_init_set_ui(x[i], 1);
    p = position_of(g, (const mpz_t *)x, 100, NULL);
    lim.max_search = 20000;
    memset(&d, 0, sizeof d);
    t0 = cpu_seconds();
    assert_int_equal(bt_analyze(&a, p, BT_MISERE, &lim, &d), BT_OK);
    assert_int_equal(bt_analysis_outcome(a), BT_N);
    assert_int_equal(bt_analysis_move_count(a), 200);
    for (nm = 0; nm < 200; nm++) {
        const bt_move *m = bt_analysis_move(a, nm);
        size_t zeros = 0;
        for (i = 0; i < 100; i++)
            zeros += mpz_sgn(m->to[i]) == 0;
        assert_int_equal(zeros, 34);
    }
    assert_false(bt_analysis_moves_complete(a));
    assert_non_null(bt_analysis_moves_note(a));
    assert_non_null(strstr(bt_analysis_moves_note(a), "max_search limit"));
    bt_analysis_free(a);
    /* normal play: C(100, 35) winning moves; a move of 100 piles counts
       100 toward max_search, so the first 200 are listed */
    assert_int_equal(bt_analyze(&a, p, 0, &lim, &d), BT_OK);
    assert_int_equal(bt_analysis_outcome(a), BT_N);
    assert_int_equal(bt_analysis_move_count(a), 200);
    assert_false(bt_analysis_moves_complete(a));
    assert_non_null(strstr(bt_analysis_moves_note(a), "max_search limit"));
    bt_analysis_free(a);
    /* the same lists stopped by max_memory (a move holds about 900
       bytes): the note names max_memory (it always blamed max_search),
       in both plays, with NULL for diag */
    lim.max_search = 250000;
    lim.max_memory = 100000;
    assert_int_equal(bt_analyze(&a, p, 0, &lim, NULL), BT_OK);
    assert_int_equal(bt_analysis_outcome(a), BT_N);
    assert_true(bt_analysis_move_count(a) >= 1);
    assert_false(bt_analysis_moves_complete(a));
    assert_non_null(strstr(bt_analysis_moves_note(a), "max_memory limit"));
    assert_null(strstr(bt_analysis_moves_note(a), "max_search"));
    bt_analysis_free(a);
    assert_int_equal(bt_analyze(&a, p, BT_MISERE, &lim, NULL), BT_OK);
    assert_int_equal(bt_analysis_outcome(a), BT_N);
    assert_true(bt_analysis_move_count(a) >= 1);
    assert_false(bt_analysis_moves_complete(a));
    assert_non_null(strstr(bt_analysis_moves_note(a), "max_memory limit"));
    assert_null(strstr(bt_analysis_moves_note(a), "max_search"));
    bt_analysis_free(a);
    bt_limits_default(&lim);
    if (cpu_seconds() - t0 > bt_test_cpu_bound(10))
        fail_msg("100 piles of 1: %.2f s of CPU", cpu_seconds() - t0);
    bt_position_free(p);
    bt_game_free(g);
    /* moore:3, 10 piles of 1, misère: the winning moves empty one pile (9
       ones = 1 mod 4): 10 of them, exactly */
    g = bt_test_gamef("moore:%u", 3);
    p = position_of(g, (const mpz_t *)x, 10, NULL);
    assert_int_equal(bt_analyze(&a, p, BT_MISERE, NULL, NULL), BT_OK);
    assert_int_equal(bt_analysis_move_count(a), 10);
    assert_true(bt_analysis_moves_complete(a));
    bt_analysis_free(a);
    bt_position_free(p);
    bt_game_free(g);
    for (i = 0; i < 100; i++)
        mpz_clear(x[i]);

    /* six piles of 2 000 sevens of moore:5: each move is 5 KB, 624
       words; 200 000 words of them are 1.6 MB, past a max_memory of 1 MB,
       which stops the list as it is made (200 000 moves, 1 GB, were
       listed whole, then kept).  Bound: 5 s. */
    g = bt_test_gamef("moore:%u", 5);
    mpz_init(x[0]);
    assert_int_equal(mpz_set_str(x[0], "7", 10), 0);
    for (i = 1; i < 2000; i++) {
        mpz_mul_ui(x[0], x[0], 10);
        mpz_add_ui(x[0], x[0], 7);
    }
    for (i = 1; i < 6; i++)
        mpz_init_set(x[i], x[0]);
    p = position_of(g, (const mpz_t *)x, 6, NULL);
    lim.max_search = 200000;
    lim.max_memory = (size_t)1 << 20;
    memset(&d, 0, sizeof d);
    t0 = cpu_seconds();
    assert_int_equal(bt_position_moves(&mv, &nm, p, &lim, &d), BT_ELIMIT);
    assert_null(mv);
    assert_non_null(strstr(d.message, "max_memory"));
    /* a P-position: its outcome at once, whatever its moves */
    assert_int_equal(bt_analyze(&a, p, BT_MISERE, &lim, &d), BT_OK);
    assert_int_equal(bt_analysis_outcome(a), BT_P);
    bt_analysis_free(a);
    if (cpu_seconds() - t0 > bt_test_cpu_bound(5))
        fail_msg("six piles of 2000 digits: %.2f s of CPU",
                 cpu_seconds() - t0);
    bt_position_free(p);
    bt_game_free(g);
    for (i = 0; i < 6; i++)
        mpz_clear(x[i]);

    /* one pile of 2^60000 - 1 among 20 000 piles of 0 (moore:2): the
       column sums were piles x columns (1.2 10^9 bits tested, twice);
       now one pass over the ones.  Bound: 2 s of CPU (it took 5). */
    {
        mpz_t *w = malloc(20001 * sizeof *w);
        assert_non_null(w);
        g = bt_test_gamef("moore:%u", 2);
        mpz_init(w[0]);
        mpz_setbit(w[0], 60000);
        mpz_sub_ui(w[0], w[0], 1);
        for (i = 1; i <= 20000; i++)
            mpz_init(w[i]);
        p = position_of(g, (const mpz_t *)w, 20001, NULL);
        t0 = cpu_seconds();
        assert_int_equal(bt_analyze(&a, p, 0, NULL, NULL), BT_OK);
        assert_int_equal(bt_analysis_outcome(a), BT_N);
        /* the move: the wide pile to 0 */
        assert_true(bt_analysis_move_count(a) >= 1);
        assert_int_equal(mpz_sgn(bt_analysis_move(a, 0)->to[0]), 0);
        bt_analysis_free(a);
        if (cpu_seconds() - t0 > bt_test_cpu_bound(2))
            fail_msg("a wide pile among 20000: %.2f s of CPU",
                     cpu_seconds() - t0);
        bt_position_free(p);
        bt_game_free(g);
        for (i = 0; i <= 20000; i++)
            mpz_clear(w[i]);
        free(w);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),     cmocka_unit_test(test_k1_normal),
        cmocka_unit_test(test_k1_misere), cmocka_unit_test(test_k2_normal),
        cmocka_unit_test(test_k2_misere), cmocka_unit_test(test_k3_normal),
        cmocka_unit_test(test_k3_misere), cmocka_unit_test(test_k1_is_nim),
        cmocka_unit_test(test_huge),      cmocka_unit_test(test_table_count),
        cmocka_unit_test(test_count_large), cmocka_unit_test(test_remoteness),
        cmocka_unit_test(test_many_piles),  cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
