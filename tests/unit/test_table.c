/* label: quick
 *
 * test_table.c -- tables that seek (src/engines/table.c) against walking oracles:
 *   - Nim tables of K = 1..4 piles, every [MIN, BELOW) with BELOW <= 14,
 *     normal and misère: the rows are exactly the non-decreasing tuples the
 *     brute-force oracle (tests/oracle/oracle_nim.c, from the rules) calls
 *     P, in order;
 *   - random [MIN, BELOW) below 2^9 for K = 3, 4 against a walk of every
 *     tuple with the rule (nim-sum 0), so the digit construction that skips
 *     gaps is checked where gaps are long;
 *   - pair tables (Wythoff, wythoff:2, misère) from MIN: the rows of the
 *     table from 0 with x >= MIN, for every MIN below 200, and the first
 *     row for MIN = 10^40 against the pairs around the bisection's index;
 *   - a far start (MIN = 10^21) answers at once with rows of the right form;
 *   - a start of 20 000 digits answers at once for the pair tables (the
 *     index found by interpolation, not by 66 000 bisection steps), with
 *     the right first pair, within a bound of CPU time;
 *   - an interrupt already set stops every kind of table before its first
 *     row (a Nim table of 64 piles of 50 000 digits polled only every 4096
 *     rows of 3 MB).
 * BT_TEST_SEED sets the seed of the random part; a failure prints it.
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

#include "oracle_nim.h"
#include "testutil.h"

#define MAXROWS 20000

typedef struct rows {
    unsigned v[MAXROWS][4];
    size_t n;
} rows;

static rows got, want;

/* The rows of the library's table (k <= 4, numbers fit unsigned). */
static void
table_rows(rows *r, const char *game, int misere, size_t k, unsigned min,
           unsigned below)
{
    bt_game *g;
    bt_table *t;
    bt_diag d;
    mpz_t lo, hi, row[4];
    size_t i;
    int more;
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_game_new(&g, game, &d), BT_OK);
    mpz_init_set_ui(lo, min);
    mpz_init_set_ui(hi, below);
    for (i = 0; i < 4; i++)
        mpz_init(row[i]);
    assert_int_equal(bt_table_new(&t, g, misere, k, lo, hi, NULL, &d), BT_OK);
    r->n = 0;
    while ((more = bt_table_next(t, row)) == 1) {
        assert_true(r->n < MAXROWS);
        for (i = 0; i < bt_table_width(t); i++)
            r->v[r->n][i] = (unsigned)mpz_get_ui(row[i]);
        r->n++;
    }
    assert_int_equal(more, 0);
    bt_table_free(t);
    bt_game_free(g);
    for (i = 0; i < 4; i++)
        mpz_clear(row[i]);
    mpz_clears(lo, hi, NULL);
}

static void
same_rows(size_t width, const char *what)
{
    size_t i, j;
    if (got.n != want.n)
        fail_msg("%s: %zu rows, the walk finds %zu (seed %llu)", what, got.n,
                 want.n, bt_test_seed());
    for (i = 0; i < got.n; i++)
        for (j = 0; j < width; j++)
            if (got.v[i][j] != want.v[i][j])
                fail_msg("%s: row %zu differs from the walk's", what, i);
}

/* Every non-decreasing tuple of k entries in [min, below), in
   lexicographic order, kept when is_p says so. */
static void
walk(rows *r, size_t k, unsigned min, unsigned below,
     int (*is_p)(void *, const unsigned *, size_t), void *ud)
{
    unsigned x[4];
    size_t i;
    r->n = 0;
    if (k == 0 || min >= below)
        return;
    for (i = 0; i < k; i++)
        x[i] = min;
    for (;;) {
        if (is_p(ud, x, k)) {
            assert_true(r->n < MAXROWS);
            memcpy(r->v[r->n++], x, k * sizeof *x);
        }
        i = k;
        while (i-- > 0) {
            if (++x[i] < below) {
                size_t j;
                for (j = i + 1; j < k; j++)
                    x[j] = x[i];
                break;
            }
        }
        if (i == (size_t)-1)
            return;
    }
}

static int
oracle_p(void *ud, const unsigned *x, size_t k)
{
    return oracle_nim_is_p(ud, x, k) == 1;
}

static int
xor_p(void *ud, const unsigned *x, size_t k)
{
    unsigned s = 0;
    size_t i;
    (void)ud;
    for (i = 0; i < k; i++)
        s ^= x[i];
    return s == 0;
}

static void
test_nim_small(void **state)
{
    int misere;
    size_t k;
    unsigned min, below;
    char what[96];
    (void)state;
    for (misere = 0; misere < 2; misere++) {
        oracle_nim *o = oracle_nim_new(misere, 4, 16);
        assert_non_null(o);
        for (k = 1; k <= 4; k++)
            for (below = 0; below <= 14; below++)
                for (min = 0; min <= below + 1; min++) {
                    snprintf(what, sizeof what, "nim%s K=%zu [%u, %u)",
                             misere ? " misère" : "", k, min, below);
                    table_rows(&got, "nim", misere, k, min, below);
                    walk(&want, k, min, below, oracle_p, o);
                    same_rows(k, what);
                }
        oracle_nim_free(o);
    }
}

static void
test_nim_random(void **state)
{
    int round;
    char what[96];
    (void)state;
    for (round = 0; round < 60; round++) {
        size_t k = 3 + bt_test_rnd(2);
        unsigned below = 1 + bt_test_rnd(k == 3 ? 512 : 96);
        unsigned min = bt_test_rnd(below);
        int misere = (int)bt_test_rnd(2);
        snprintf(what, sizeof what, "nim%s K=%zu [%u, %u)",
                 misere ? " misère" : "", k, min, below);
        table_rows(&got, "nim", misere, k, min, below);
        walk(&want, k, min, below, xor_p, NULL);
        if (misere && min <= 1) /* sec. 6: only the tuples of 0s and 1s
                                   differ; the small test covers them */
            continue;
        same_rows(k, what);
    }
}

static void
test_pairs_from_min(void **state)
{
    static const char *const games[] = {"wythoff", "wythoff:2", "wythoff:3"};
    size_t gi, i;
    int misere;
    unsigned min;
    char what[96];
    (void)state;
    for (gi = 0; gi < 3; gi++)
        for (misere = 0; misere < 2; misere++) {
            rows *all = malloc(sizeof *all);
            assert_non_null(all);
            table_rows(all, games[gi], misere, 1, 0, 400);
            for (min = 0; min < 200; min++) {
                snprintf(what, sizeof what, "%s%s from %u", games[gi],
                         misere ? " misère" : "", min);
                table_rows(&got, games[gi], misere, 1, min, 400);
                want.n = 0;
                for (i = 0; i < all->n; i++)
                    if (all->v[i][0] >= min)
                        memcpy(want.v[want.n++], all->v[i],
                               sizeof all->v[i]);
                same_rows(2, what);
            }
            free(all);
        }
}

static void
test_far(void **state)
{
    bt_game *g;
    bt_table *t;
    bt_diag d;
    mpz_t lo, hi, row[3], prev, n;
    size_t i;
    (void)state;
    memset(&d, 0, sizeof d);
    mpz_init_set_str(lo, "1000000000000000000000", 10);
    mpz_init_set_str(hi, "1000000000000000000000000000000", 10);
    mpz_inits(prev, n, NULL);
    for (i = 0; i < 3; i++)
        mpz_init(row[i]);
    /* Nim, 3 piles: rows sorted, in range, nim-sum 0, increasing */
    assert_int_equal(bt_game_new(&g, "nim", &d), BT_OK);
    assert_int_equal(bt_table_new(&t, g, 0, 3, lo, hi, NULL, &d), BT_OK);
    for (i = 0; i < 50; i++) {
        assert_int_equal(bt_table_next(t, row), 1);
        assert_true(mpz_cmp(row[0], lo) >= 0 && mpz_cmp(row[2], hi) < 0);
        assert_true(mpz_cmp(row[0], row[1]) <= 0 &&
                    mpz_cmp(row[1], row[2]) <= 0);
        mpz_xor(n, row[0], row[1]);
        assert_int_equal(mpz_cmp(n, row[2]), 0);
        assert_true(i == 0 || mpz_cmp(row[1], prev) > 0);
        mpz_set(prev, row[1]);
    }
    bt_table_free(t);
    bt_game_free(g);
    /* Wythoff from 10^21: the first pair is the first with x >= min: the
       pair before it (by index) has x < min */
    assert_int_equal(bt_game_new(&g, "wythoff", &d), BT_OK);
    assert_int_equal(bt_table_new(&t, g, 0, 1, lo, hi, NULL, &d), BT_OK);
    assert_int_equal(bt_table_next(t, row), 1);
    assert_true(mpz_cmp(row[0], lo) >= 0);
    {
        mpz_t a, b;
        mpz_inits(a, b, NULL);
        assert_int_equal(bt_wythoff_index_of(n, NULL, a, b, g, 0, row[0],
                                             NULL, &d),
                         BT_OK);
        mpz_clears(a, b, NULL);
    }
    assert_true(mpz_sgn(n) > 0);
    mpz_sub_ui(n, n, 1);
    assert_int_equal(bt_wythoff_pair(prev, row[2], g, 0, n, NULL, &d),
                     BT_OK);
    assert_true(mpz_cmp(prev, lo) < 0);
    bt_table_free(t);
    bt_game_free(g);
    for (i = 0; i < 3; i++)
        mpz_clear(row[i]);
    mpz_clears(lo, hi, prev, n, NULL);
}

/* The CPU time of this thread, in seconds. */
static double
cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Pair tables from MIN = 7...7 (20 000 digits) + a few: the first row is
 * the first pair with x >= MIN, checked by the pair before it (by index)
 * having x < MIN.  Before the interpolation search this took 8 s of CPU
 * for each of the six tables (a bisection of 66 000 closed forms); now
 * about 30 ms each.  CPU bound: 2 s for the six (ASan is about 3x slower).
 */
static void
test_far_pairs_at_once(void **state)
{
    static const char *const games[] = {"wythoff", "wythoff:2", "wythoff:3"};
    size_t gi;
    int misere;
    double t0 = cpu_now();
    char *digits = malloc(20001);
    mpz_t lo, hi, row[2], n, a, b;
    (void)state;
    assert_non_null(digits);
    memset(digits, '7', 20000);
    digits[20000] = '\0';
    mpz_init_set_str(lo, digits, 10);
    mpz_add_ui(lo, lo, 12345);
    mpz_init(hi);
    mpz_mul_ui(hi, lo, 4);
    mpz_inits(row[0], row[1], n, a, b, NULL);
    for (gi = 0; gi < 3; gi++)
        for (misere = 0; misere < 2; misere++) {
            bt_game *g = bt_test_game(games[gi]);
            bt_table *t;
            bt_diag d;
            memset(&d, 0, sizeof d);
            assert_int_equal(bt_table_new(&t, g, misere, 1, lo, hi, NULL, &d),
                             BT_OK);
            assert_int_equal(bt_table_next(t, row), 1);
            assert_true(mpz_cmp(row[0], lo) >= 0);
            assert_true(mpz_cmp(row[1], hi) < 0);
            assert_int_equal(bt_wythoff_index_of(n, NULL, a, b, g, misere,
                                                 row[0], NULL, &d),
                             BT_OK);
            assert_int_equal(mpz_cmp(a, row[0]), 0);
            assert_int_equal(mpz_cmp(b, row[1]), 0);
            mpz_sub_ui(n, n, 1);
            assert_int_equal(bt_wythoff_pair(a, b, g, misere, n, NULL, &d),
                             BT_OK);
            assert_true(mpz_cmp(a, lo) < 0);
            bt_table_free(t);
            bt_game_free(g);
        }
    if (cpu_now() - t0 > bt_test_cpu_bound(2.0))
        fail_msg("six pair tables from 20 000 digits took %.1f s of CPU "
                 "(at once: well under 2 s)",
                 cpu_now() - t0);
    mpz_clears(lo, hi, row[0], row[1], n, a, b, NULL);
    free(digits);
}

static int
always(void *ud)
{
    (void)ud;
    return 1;
}

/* One table of spec under an interrupt already set: its first next()
   says -BT_EINTR, with a message, and nothing else happens. */
static void
interrupted_table(const char *spec, int misere, size_t k, const mpz_t lo,
                  const mpz_t hi)
{
    bt_game *g = bt_test_game(spec);
    bt_table *t;
    bt_limits lim;
    bt_diag d;
    mpz_t *row = malloc((k ? 2 * k : 2) * sizeof *row);
    size_t i, w;
    int r;
    assert_non_null(row);
    memset(&d, 0, sizeof d);
    bt_limits_default(&lim);
    lim.interrupt = always;
    assert_int_equal(bt_table_new(&t, g, misere, k, lo, hi, &lim, &d), BT_OK);
    w = bt_table_width(t);
    for (i = 0; i < w; i++)
        mpz_init(row[i]);
    r = bt_table_next(t, row);
    if (r != -(int)BT_EINTR)
        fail_msg("table of %s%s, %zu piles, under an interrupt: %d, not "
                 "-BT_EINTR",
                 spec, misere ? " (misère)" : "", k, r);
    assert_true(bt_table_message(t)[0] != '\0');
    for (i = 0; i < w; i++)
        mpz_clear(row[i]);
    free(row);
    bt_table_free(t);
    bt_game_free(g);
}

/*
 * Before the fix a Nim table polled every 4096 steps, so an interrupt set
 * before the call let 4096 rows of 64 piles of 50 000 digits through
 * (seconds of CPU and 13 GB of text at the caller); the pair tables never
 * polled.  CPU: well under 1 s.
 */
static void
test_interrupt_first_row(void **state)
{
    mpz_t lo, hi, small;
    (void)state;
    mpz_init(lo);
    mpz_ui_pow_ui(lo, 10, 50000);
    mpz_init(hi);
    mpz_mul_ui(hi, lo, 2);
    mpz_init_set_ui(small, 1000);
    interrupted_table("nim", 0, 64, lo, hi);
    interrupted_table("nim", 1, 64, lo, hi);
    interrupted_table("wythoff", 0, 1, lo, hi);
    interrupted_table("wythoff:2", 1, 1, lo, hi);
    mpz_set_ui(lo, 0);
    interrupted_table("nim", 0, 3, lo, small);
    interrupted_table("kayles", 0, 3, lo, small);
    interrupted_table("kayles", 1, 2, lo, small);
    interrupted_table("moore:2", 0, 3, lo, small);
    mpz_clears(lo, hi, small, NULL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nim_small),
        cmocka_unit_test(test_nim_random),
        cmocka_unit_test(test_pairs_from_min),
        cmocka_unit_test(test_far),
        cmocka_unit_test(test_far_pairs_at_once),
        cmocka_unit_test(test_interrupt_first_row),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
