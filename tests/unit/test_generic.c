/* label: quick
 *
 * test_generic.c -- the defaults of the ruleset interface (src/generic.c)
 * on a toy ruleset defined here with only init, options and describe: the
 * subtraction game {1, 2} on one heap, and a splitting game whose move
 * takes 1 counter and may split the rest into two heaps (octal 0.4 style,
 * written from its rules).  The generic memoised mex must give Grundy
 * values equal to a brute-force mex computed here, the generic moves_to
 * exactly the options of the asked value, and a clean BT_ELIMIT past
 * max_search.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/internal.h"

static int splits; /* 0: subtraction {1,2}; 1: take 1 and maybe split */

static bt_status
toy_options(bt_game *g, const mpz_t *c, bt__emit emit, void *ud,
            const bt_limits *lim, bt_diag *diag)
{
    unsigned long n = mpz_get_ui(c[0]), t, a;
    bt_status st = BT_OK;
    mpz_t to[2];
    (void)g;
    (void)lim;
    (void)diag;
    mpz_init(to[0]);
    mpz_init(to[1]);
    if (!splits) {
        for (t = 1; t <= 2 && t <= n && st == BT_OK; t++) {
            mpz_set_ui(to[0], n - t);
            st = emit(ud, (const mpz_t *)to, 1);
        }
    } else if (n >= 1) {
        mpz_set_ui(to[0], n - 1);
        st = emit(ud, (const mpz_t *)to, n - 1 ? 1 : 0);
        for (a = 1; 2 * a <= n - 1 && st == BT_OK; a++) {
            if (n - 1 - a == 0)
                continue;
            mpz_set_ui(to[0], a);
            mpz_set_ui(to[1], n - 1 - a);
            st = emit(ud, (const mpz_t *)to, 2);
        }
    }
    mpz_clear(to[0]);
    mpz_clear(to[1]);
    return st;
}

static void
toy_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
             const mpz_t *to, size_t nto)
{
    (void)g, (void)c, (void)to, (void)nto;
    bt__buf_printf(out, "move in %zu", comp + 1);
}

static const bt__ruleset toy = {
    .info = {"toy", "toy", "a toy game for the tests", ""},
    .arity = 1,
    .options = toy_options,
    .describe = toy_describe,
};

/* Brute force from the same rules: G[n] by the mex, the splits by XOR. */
static void
brute(unsigned *G, unsigned upto)
{
    unsigned n, a, v;
    for (n = 0; n <= upto; n++) {
        unsigned char seen[256] = {0};
        if (!splits) {
            if (n >= 1)
                seen[G[n - 1]] = 1;
            if (n >= 2)
                seen[G[n - 2]] = 1;
        } else if (n >= 1) {
            seen[G[n - 1]] = 1;
            for (a = 1; 2 * a <= n - 1; a++)
                if (n - 1 - a > 0)
                    seen[G[a] ^ G[n - 1 - a]] = 1;
        }
        for (v = 0; seen[v]; v++)
            ;
        G[n] = v;
    }
}

typedef struct got {
    unsigned long n;
    unsigned count;
} got;

static bt_status
count_emit(void *ud, const mpz_t *to, size_t nto)
{
    got *g = ud;
    (void)to;
    (void)nto;
    g->count++;
    return BT_OK;
}

static void
check(int split)
{
    bt_game g = {&toy, (char *)"toy", NULL, 1};
    unsigned G[80], n;
    mpz_t x, v;
    splits = split;
    brute(G, 79);
    mpz_init(x);
    mpz_init(v);
    for (n = 0; n < 80; n++) {
        unsigned want = 0, a;
        got gt = {n, 0};
        mpz_set_ui(x, n);
        assert_int_equal(bt__rs_grundy(&g, v, (const mpz_t *)&x, 1, NULL, NULL),
                         BT_OK);
        assert_int_equal(mpz_get_ui(v), G[n]);
        /* moves to value 0: the options of value 0, counted here */
        if (!split) {
            want = (n >= 1 && G[n - 1] == 0) + (n >= 2 && G[n - 2] == 0);
        } else if (n >= 1) {
            want = G[n - 1] == 0;
            for (a = 1; 2 * a <= n - 1; a++)
                if (n - 1 - a > 0 && (G[a] ^ G[n - 1 - a]) == 0)
                    want++;
        }
        mpz_set_ui(v, 0);
        assert_int_equal(bt__rs_moves_to(&g, (const mpz_t *)&x, 1, v,
                                         count_emit, &gt, NULL, NULL),
                         BT_OK);
        assert_int_equal(gt.count, want);
    }
    mpz_clear(x);
    mpz_clear(v);
}

static void
test_subtraction(void **state)
{
    (void)state;
    check(0);
}

static void
test_splitting(void **state)
{
    (void)state;
    check(1);
}

/* Past max_search: BT_ELIMIT with a message, never a wrong value. */
static void
test_limit(void **state)
{
    bt_game g = {&toy, (char *)"toy", NULL, 1};
    bt_limits lim;
    bt_diag diag;
    mpz_t x, v;
    (void)state;
    splits = 1;
    bt_limits_default(&lim);
    lim.max_search = 10;
    memset(&diag, 0, sizeof diag);
    mpz_init_set_ui(x, 60);
    mpz_init(v);
    assert_int_equal(bt__rs_grundy(&g, v, (const mpz_t *)&x, 1, &lim, &diag),
                     BT_ELIMIT);
    assert_non_null(strstr(diag.message, "max_search"));
    mpz_clear(x);
    mpz_clear(v);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subtraction),
        cmocka_unit_test(test_splitting),
        cmocka_unit_test(test_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
