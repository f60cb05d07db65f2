/* label: quick
 *
 * test_nimber.c -- Nim's field (include/bouton/nimber.h): the nim-product
 * against its definition (the mex of a'*b + a*b' + a'*b' over a' < a,
 * b' < b, Conway, ONAG ch. 6) on every pair below 64; the three 64-bit
 * methods against each other; Conway's two rules on Fermat 2-powers up to
 * 2^4096 and the field axioms on random operands of 8 to 4096 bits; the
 * published tables (tests/cases/nimber_oeis.txt: OEIS A051775, A051910,
 * A006042); inverses, square roots, powers, orders and logarithms against
 * brute force; the errors and the limits.
 *
 * BT_TEST_SEED in the environment sets the seed of the random tests; a
 * failure prints it.  About 0.5 s of CPU in all.
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

/* The library's named methods (src/core/core.h), to compare them. */
uint64_t bt__nimber_mul_u64_by(int which, uint64_t a, uint64_t b);
int bt__nimber_has_clmul(void);

#define DEF 64 /* the definition's table: every pair below it */

static unsigned def[DEF][DEF];

/* The nim-product from its definition alone: a * b is the least number
   not of the form a'*b + a*b' + a'*b' (a' < a, b' < b, + the nim-sum). */
static void
definition_table(void)
{
    unsigned a, b, x, y, seen[4 * DEF];
    for (a = 0; a < DEF; a++)
        for (b = 0; b < DEF; b++) {
            unsigned m = 0;
            memset(seen, 0, sizeof seen);
            for (x = 0; x < a; x++)
                for (y = 0; y < b; y++) {
                    unsigned v = def[x][b] ^ def[a][y] ^ def[x][y];
                    assert_true(v < 4 * DEF);
                    seen[v] = 1;
                }
            while (seen[m])
                m++;
            def[a][b] = m;
        }
}

static uint64_t
rnd64(void)
{
    uint64_t v = 0;
    int i;
    for (i = 0; i < 4; i++)
        v = v << 16 | bt_test_rnd(65536);
    return v;
}

/* A random number of exactly `bits` bits (its top bit set). */
static void
rnd_mpz(mpz_t r, size_t bits)
{
    size_t i;
    mpz_set_ui(r, 0);
    for (i = 0; i < bits; i++)
        if (i + 1 == bits || bt_test_rnd(2))
            mpz_setbit(r, i);
}

static void
mul(mpz_t r, const mpz_t a, const mpz_t b)
{
    bt_diag d;
    if (bt_nimber_mul(r, a, b, NULL, &d) != BT_OK)
        fail_msg("bt_nimber_mul failed: %s", d.message);
}

static void
fail_seed(const char *what, size_t bits)
{
    fail_msg("%s fails at %zu bits (BT_TEST_SEED=%llu)", what, bits,
             bt_test_seed());
}

/* ------------------------------------------------------------ tests */

static void
test_definition(void **state)
{
    unsigned a, b;
    mpz_t x, y, r;
    (void)state;
    mpz_inits(x, y, r, NULL);
    for (a = 0; a < DEF; a++)
        for (b = 0; b < DEF; b++) {
            assert_int_equal(bt_nimber_mul_u64(a, b), def[a][b]);
            assert_int_equal(bt__nimber_mul_u64_by(0, a, b), def[a][b]);
            assert_int_equal(bt__nimber_mul_u64_by(2, a, b), def[a][b]);
            if (bt__nimber_has_clmul())
                assert_int_equal(bt__nimber_mul_u64_by(1, a, b), def[a][b]);
            mpz_set_ui(x, a), mpz_set_ui(y, b);
            mul(r, x, y);
            assert_true(mpz_cmp_ui(r, def[a][b]) == 0);
        }
    mpz_clears(x, y, r, NULL);
}

/* The batch form against the definition (every pair below DEF, in runs
   of every length, so that the blocks of eight and the rest are both
   met) and against the single product on random words, aliased too. */
static void
test_batch(void **state)
{
    static uint64_t a[DEF * DEF], b[DEF * DEF], r[DEF * DEF];
    size_t i, n, len, k;
    (void)state;
    for (i = 0; i < DEF * DEF; i++)
        a[i] = i / DEF, b[i] = i % DEF;
    for (i = 0, len = 0; i < DEF * DEF; i += len, len = len % 19 + 1) {
        n = i + len > DEF * DEF ? DEF * DEF - i : len;
        bt_nimber_mul_u64_n(r + i, a + i, b + i, n);
    }
    for (i = 0; i < DEF * DEF; i++)
        assert_int_equal(r[i], def[a[i]][b[i]]);
    for (k = 0; k < 200; k++) {
        n = bt_test_rnd(40);
        for (i = 0; i < n; i++) {
            a[i] = rnd64() >> bt_test_rnd(64), b[i] = rnd64();
            r[i] = bt_nimber_mul_u64(a[i], b[i]);
        }
        bt_nimber_mul_u64_n(a, a, b, n); /* r = a */
        for (i = 0; i < n; i++)
            if (a[i] != r[i])
                fail_msg("bt_nimber_mul_u64_n differs at %zu of %zu (seed "
                         "%llu)",
                         i, n, bt_test_seed());
    }
}

/* The three ways of the 64-bit product agree, and the mpz path with them. */
static void
test_methods(void **state)
{
    int i;
    mpz_t x, y, r;
    (void)state;
    mpz_inits(x, y, r, NULL);
    for (i = 0; i < 20000; i++) {
        uint64_t a = rnd64(), b = rnd64(), p;
        if (i % 4 == 1)
            a >>= bt_test_rnd(64); /* operands of every length */
        p = bt__nimber_mul_u64_by(2, a, b);
        if (bt__nimber_mul_u64_by(0, a, b) != p ||
            bt_nimber_mul_u64(a, b) != p ||
            (bt__nimber_has_clmul() && bt__nimber_mul_u64_by(1, a, b) != p))
            fail_msg("the 64-bit methods differ on %llu * %llu (seed %llu)",
                     (unsigned long long)a, (unsigned long long)b,
                     bt_test_seed());
        mpz_import(x, 1, -1, 8, 0, 0, &a);
        mpz_import(y, 1, -1, 8, 0, 0, &b);
        mul(r, x, y);
        assert_true(mpz_sizeinbase(r, 2) <= 64);
        assert_true(mpz_get_ui(r) == p || sizeof(unsigned long) < 8);
    }
    mpz_clears(x, y, r, NULL);
}

/* Conway's rules at every Fermat 2-power F = 2^(2^k) up to 2^4096: x * F
   = xF for x < F, and F * F = 3F/2.  With the axioms below, they fix the
   product (docs/nimbers.md). */
static void
test_conway_rules(void **state)
{
    unsigned k;
    mpz_t f, x, r, want;
    (void)state;
    mpz_inits(f, x, r, want, NULL);
    for (k = 0; k <= 12; k++) {
        int i;
        size_t fb = (size_t)1 << k;
        mpz_set_ui(f, 0);
        mpz_setbit(f, fb);
        mul(r, f, f);
        mpz_mul_ui(want, f, 3);
        mpz_fdiv_q_2exp(want, want, 1);
        if (mpz_cmp(r, want) != 0)
            fail_msg("F * F != 3F/2 for F = 2^%zu", fb);
        for (i = 0; i < 4; i++) {
            rnd_mpz(x, 1 + bt_test_rnd((unsigned)fb));
            mul(r, x, f);
            mpz_mul(want, x, f);
            if (mpz_cmp(r, want) != 0)
                fail_seed("x * F = xF", fb);
            mul(r, f, x);
            if (mpz_cmp(r, want) != 0)
                fail_seed("F * x = xF", fb);
        }
    }
    mpz_clears(f, x, r, want, NULL);
}

/* Commutativity, associativity, distributivity over the nim-sum, 1 the
   unit, aliasing, on random operands of 8 to 4096 bits (mixed sizes). */
static void
test_axioms(void **state)
{
    static const size_t sizes[] = {8, 13, 64, 65, 100, 128, 200, 512,
                                   777, 1024, 2048, 4096};
    size_t i, n = sizeof sizes / sizeof *sizes;
    mpz_t a, b, c, ab, ba, t, u, one;
    (void)state;
    mpz_inits(a, b, c, ab, ba, t, u, one, NULL);
    mpz_set_ui(one, 1);
    for (i = 0; i < 3 * n; i++) {
        size_t bits = sizes[i % n];
        rnd_mpz(a, bits);
        rnd_mpz(b, sizes[bt_test_rnd((unsigned)n)]);
        rnd_mpz(c, sizes[bt_test_rnd((unsigned)n)]);
        mul(ab, a, b);
        mul(ba, b, a);
        if (mpz_cmp(ab, ba) != 0)
            fail_seed("commutativity", bits);
        mul(t, ab, c); /* (ab)c */
        mul(u, b, c);
        mul(u, a, u); /* a(bc), aliasing the second operand */
        if (mpz_cmp(t, u) != 0)
            fail_seed("associativity", bits);
        mpz_xor(t, b, c);
        mul(t, a, t); /* a(b + c) */
        mul(u, a, c);
        mpz_xor(u, u, ab);
        if (mpz_cmp(t, u) != 0)
            fail_seed("distributivity", bits);
        mul(t, a, one);
        if (mpz_cmp(t, a) != 0)
            fail_seed("1 is the unit", bits);
        mpz_set(t, a);
        mul(t, t, t); /* aliasing both */
        mul(u, a, a);
        if (mpz_cmp(t, u) != 0)
            fail_seed("aliasing", bits);
    }
    mpz_clears(a, b, c, ab, ba, t, u, one, NULL);
}

/* The data terms of the OEIS entries (tests/cases/nimber_oeis.txt). */
static size_t
load_terms(const char *key, unsigned long *v, size_t cap)
{
    return bt_test_load_terms(BT_TEST_CASES "/nimber_oeis.txt", key, v, cap);
}

static void
test_published(void **state)
{
    unsigned long v[200];
    size_t n, i, d, k;
    (void)state;
    /* A051775: antidiagonals d = n + m, T(0, d), T(1, d - 1), ... */
    n = load_terms("A051775", v, 200);
    assert_true(n >= 80);
    for (i = 0, d = 0; i < n; d++)
        for (k = 0; k <= d && i < n; k++, i++)
            assert_int_equal(bt_nimber_mul_u64(k, d - k), v[i]);
    /* A051910: rows n of m = 0..n, Conway's table (ONAG p. 52) */
    n = load_terms("A051910", v, 200);
    assert_true(n >= 78);
    for (i = 0, d = 0; i < n; d++)
        for (k = 0; k <= d && i < n; k++, i++)
            assert_int_equal(bt_nimber_mul_u64(d, k), v[i]);
    /* the rest of Conway's 16 x 16 table, by the definition */
    for (d = 0; d < 16; d++)
        for (k = 0; k < 16; k++)
            assert_int_equal(bt_nimber_mul_u64(d, k), def[d][k]);
    /* A006042: the nim-squares, and their roots */
    n = load_terms("A006042", v, 200);
    assert_true(n >= 72);
    for (i = 0; i < n; i++) {
        assert_int_equal(bt_nimber_mul_u64(i, i), v[i]);
        assert_int_equal(bt_nimber_sqrt_u64(v[i]), i);
    }
}

static void
test_inverse_sqrt(void **state)
{
    static const size_t sizes[] = {1, 2, 8, 63, 64, 65, 128, 300, 1024, 4096};
    size_t i, j;
    mpz_t x, r, t, e;
    bt_diag d;
    (void)state;
    mpz_inits(x, r, t, e, NULL);
    for (i = 1; i < 4096; i++) {
        uint64_t v = i < 2048 ? i : rnd64();
        assert_int_equal(bt_nimber_mul_u64(v, bt_nimber_inv_u64(v)), 1);
        assert_int_equal(bt_nimber_mul_u64(bt_nimber_sqrt_u64(v),
                                           bt_nimber_sqrt_u64(v)),
                         v);
    }
    for (i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (j = 0; j < 3; j++) {
            size_t bits = sizes[i];
            rnd_mpz(x, bits);
            assert_int_equal(bt_nimber_inv(r, x, NULL, &d), BT_OK);
            mul(t, x, r);
            if (mpz_cmp_ui(t, 1) != 0)
                fail_seed("x * inv(x) = 1", bits);
            assert_int_equal(bt_nimber_sqrt(r, x, NULL, &d), BT_OK);
            mul(t, r, r);
            if (mpz_cmp(t, x) != 0)
                fail_seed("sqrt(x)^2 = x", bits);
            /* the root by n - 1 squarings: x^(2^(n-1)), n the field's
               bits (x^(2^n) = x), a path apart from the tower's */
            {
                size_t fb = 1;
                while (fb < bits)
                    fb *= 2;
                if (fb <= 1024) {
                    mpz_set_ui(e, 0);
                    mpz_setbit(e, fb - 1);
                    assert_int_equal(bt_nimber_pow(t, x, e, NULL, &d),
                                     BT_OK);
                    if (mpz_cmp(t, r) != 0)
                        fail_seed("sqrt(x) = x^(2^(n-1))", bits);
                }
            }
            /* aliasing */
            mpz_set(t, x);
            assert_int_equal(bt_nimber_inv(t, t, NULL, &d), BT_OK);
            assert_int_equal(bt_nimber_inv(t, t, NULL, &d), BT_OK);
            assert_true(mpz_cmp(t, x) == 0);
        }
    mpz_clears(x, r, t, e, NULL);
}

static void
test_pow(void **state)
{
    int i;
    mpz_t x, e, f, r, s, t, m;
    bt_diag d;
    (void)state;
    mpz_inits(x, e, f, r, s, t, m, NULL);
    for (i = 0; i < 40; i++) {
        size_t bits = 1 + bt_test_rnd(i < 20 ? 64 : 600);
        unsigned k, small = bt_test_rnd(20);
        rnd_mpz(x, bits);
        /* small exponents against repeated products */
        mpz_set_ui(t, 1);
        for (k = 0; k < small; k++)
            mul(t, t, x);
        mpz_set_ui(e, small);
        assert_int_equal(bt_nimber_pow(r, x, e, NULL, &d), BT_OK);
        if (mpz_cmp(r, t) != 0)
            fail_seed("x^e against e products", bits);
        /* x^(e + f) = x^e x^f, e and f huge and of either sign */
        rnd_mpz(e, 1 + bt_test_rnd(3000));
        rnd_mpz(f, 1 + bt_test_rnd(3000));
        if (bt_test_rnd(2))
            mpz_neg(f, f);
        assert_int_equal(bt_nimber_pow(r, x, e, NULL, &d), BT_OK);
        assert_int_equal(bt_nimber_pow(s, x, f, NULL, &d), BT_OK);
        mul(r, r, s);
        mpz_add(m, e, f);
        assert_int_equal(bt_nimber_pow(t, x, m, NULL, &d), BT_OK);
        if (mpz_cmp(r, t) != 0)
            fail_seed("x^(e+f) = x^e x^f", bits);
        /* x^-1 is the inverse */
        mpz_set_si(e, -1);
        assert_int_equal(bt_nimber_pow(r, x, e, NULL, &d), BT_OK);
        assert_int_equal(bt_nimber_inv(t, x, NULL, &d), BT_OK);
        assert_true(mpz_cmp(r, t) == 0);
    }
    /* 0^0 = 1, 0^5 = 0, 0^-1 undefined; the 64-bit form */
    mpz_set_ui(x, 0);
    mpz_set_ui(e, 0);
    assert_int_equal(bt_nimber_pow(r, x, e, NULL, &d), BT_OK);
    assert_true(mpz_cmp_ui(r, 1) == 0);
    mpz_set_ui(e, 5);
    assert_int_equal(bt_nimber_pow(r, x, e, NULL, &d), BT_OK);
    assert_true(mpz_cmp_ui(r, 0) == 0);
    mpz_set_si(e, -1);
    assert_int_equal(bt_nimber_pow(r, x, e, NULL, &d), BT_EINVAL);
    assert_non_null(strstr(d.message, "inverse"));
    assert_int_equal(bt_nimber_pow_u64(2, 3), 1); /* 2*2 = 3, 3*2 = 1 */
    mpz_clears(x, e, f, r, s, t, m, NULL);
}

/* Orders against counting powers in the fields of order 256 and 65536 (a
   sample), and the prime factorisation check at 64 bits; logarithms
   against counting powers, and at 64 bits as x = g^e. */
static void
test_order_log(void **state)
{
    static const uint64_t primes[7] = {3, 5, 17, 257, 641, 65537, 6700417};
    uint64_t g, x, e, o, p, v;
    unsigned i, k;
    bt_diag d;
    (void)state;
    assert_int_equal(bt_nimber_order_u64(0), 0);
    assert_int_equal(bt_nimber_order_u64(1), 1);
    for (g = 1; g < 256; g++) {
        for (o = 1, v = g; v != 1; o++)
            v = bt_nimber_mul_u64(v, g);
        assert_int_equal(bt_nimber_order_u64(g), o);
    }
    for (i = 0; i < 20; i++) {
        g = 256 + bt_test_rnd(65536 - 256);
        for (o = 1, v = g; v != 1; o++)
            v = bt_nimber_mul_u64(v, g);
        assert_int_equal(bt_nimber_order_u64(g), o);
    }
    for (i = 0; i < 200; i++) {
        g = rnd64() >> bt_test_rnd(64);
        if (g == 0)
            continue;
        o = bt_nimber_order_u64(g);
        assert_int_equal(UINT64_MAX % o, 0);
        assert_int_equal(bt_nimber_pow_u64(g, o), 1);
        for (k = 0; k < 7; k++)
            if (o % primes[k] == 0)
                assert_int_not_equal(bt_nimber_pow_u64(g, o / primes[k]), 1);
    }
    /* logarithms in the field of order 256, every pair, by counting */
    for (g = 1; g < 256; g += 7)
        for (x = 1; x < 256; x++) {
            bt_status st = bt_nimber_log_u64(&e, g, x, &d);
            for (p = 0, v = 1; p < 255 && v != x; p++)
                v = bt_nimber_mul_u64(v, g);
            if (v == x && p < bt_nimber_order_u64(g)) {
                assert_int_equal(st, BT_OK);
                assert_int_equal(e, p);
            } else {
                assert_int_equal(st, BT_EUNDEF);
                assert_non_null(strstr(d.message, "not a power"));
            }
        }
    /* 64 bits: x = g^e gives back e modulo the order of g */
    for (i = 0; i < 30; i++) {
        uint64_t want;
        g = rnd64() | 1u << 31;
        e = rnd64();
        x = bt_nimber_pow_u64(g, e);
        o = bt_nimber_order_u64(g);
        want = e % o;
        assert_int_equal(bt_nimber_log_u64(&v, g, x, &d), BT_OK);
        assert_int_equal(v, want);
    }
    /* a generator of the whole group: every x has a log */
    for (g = (uint64_t)1 << 32; bt_nimber_order_u64(g) != UINT64_MAX; g++)
        ;
    x = rnd64() | 1;
    assert_int_equal(bt_nimber_log_u64(&e, g, x, &d), BT_OK);
    assert_int_equal(bt_nimber_pow_u64(g, e), x);
    /* errors: 0, and a nimber outside the subgroup of the base */
    assert_int_equal(bt_nimber_log_u64(&e, 0, 5, &d), BT_EINVAL);
    assert_int_equal(bt_nimber_log_u64(&e, 5, 0, &d), BT_EINVAL);
    assert_int_equal(bt_nimber_log_u64(&e, 2, (uint64_t)1 << 40, &d),
                     BT_EUNDEF);
}

static int
stop_now(void *ud)
{
    (void)ud;
    return 1;
}

static void
test_errors_limits(void **state)
{
    mpz_t a, b, r, big;
    bt_diag d;
    bt_limits lim;
    char *text = NULL;
    (void)state;
    mpz_inits(a, b, r, big, NULL);
    mpz_set_si(a, -3);
    mpz_set_ui(b, 5);
    mpz_set_ui(r, 77);
    assert_int_equal(bt_nimber_mul(r, a, b, NULL, &d), BT_EINVAL);
    assert_non_null(strstr(d.message, "first factor is negative"));
    assert_int_equal(bt_nimber_mul(r, b, a, NULL, &d), BT_EINVAL);
    assert_non_null(strstr(d.message, "second factor is negative"));
    assert_true(mpz_cmp_ui(r, 77) == 0); /* unchanged on failure */
    assert_int_equal(bt_nimber_inv(r, a, NULL, &d), BT_EINVAL);
    assert_int_equal(bt_nimber_sqrt(r, a, NULL, &d), BT_EINVAL);
    mpz_set_ui(a, 0);
    assert_int_equal(bt_nimber_inv(r, a, NULL, &d), BT_EINVAL);
    assert_non_null(strstr(d.message, "0 has no inverse"));
    assert_int_equal(bt_nimber_order(r, a, &d), BT_EINVAL);
    mpz_set_ui(big, 0);
    mpz_setbit(big, 64);
    assert_int_equal(bt_nimber_order(r, big, &d), BT_ERANGE);
    assert_non_null(strstr(d.message, "2^64"));
    assert_int_equal(bt_nimber_log(r, b, big, &d), BT_ERANGE);
    mpz_set_ui(a, 2);
    assert_int_equal(bt_nimber_log(r, a, b, &d), BT_EUNDEF);
    mpz_set_ui(a, 3);
    assert_int_equal(bt_nimber_log(r, a, a, &d), BT_OK);
    assert_true(mpz_cmp_ui(r, 1) == 0);
    /* the limits: digits, memory, the interrupt */
    bt_limits_default(&lim);
    lim.max_digits = 10;
    mpz_set_str(a, "123456789012", 10);
    assert_int_equal(bt_nimber_mul(r, a, a, &lim, &d), BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_digits"));
    bt_limits_default(&lim);
    lim.max_memory = 1000;
    mpz_set_ui(big, 0);
    mpz_setbit(big, 100000);
    assert_int_equal(bt_nimber_mul(r, big, big, &lim, &d), BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_memory"));
    bt_limits_default(&lim);
    lim.interrupt = stop_now;
    assert_int_equal(bt_nimber_mul(r, big, big, &lim, &d), BT_EINTR);
    mpz_set_str(b, "1000000000000000000000000000000", 10);
    assert_int_equal(bt_nimber_pow(r, big, b, &lim, &d), BT_EINTR);
    assert_int_equal(bt_nimber_inv(r, big, &lim, &d), BT_EINTR);
    assert_int_equal(bt_nimber_sqrt(r, big, &lim, &d), BT_EINTR);
    lim.interrupt = NULL;
    lim.max_memory = 1000;
    assert_int_equal(bt_nimber_inv(r, big, &lim, &d), BT_ELIMIT);
    assert_int_equal(bt_nimber_sqrt(r, big, &lim, &d), BT_ELIMIT);
    assert_int_equal(bt_nimber_pow(r, big, b, &lim, &d), BT_ELIMIT);
    /* the explanation: within its size, and refused past it */
    mpz_set_ui(a, 8);
    assert_int_equal(bt_nimber_mul_explain(&text, a, a, &d), BT_OK);
    assert_non_null(strstr(text, "8 * 8 = (2*2)*(4*4) = 3*6 = 13"));
    free(text);
    mpz_set_ui(a, 256);
    assert_int_equal(bt_nimber_mul_explain(&text, a, a, &d), BT_ELIMIT);
    assert_null(text);
    mpz_clears(a, b, r, big, NULL);
}

/* Products of 10^4-bit nimbers take well under a millisecond (the bound
   is far above: it catches a slower order of growth, not a slow machine;
   bench/bench_nimber.c measures). */
static void
test_speed(void **state)
{
    mpz_t a, b, r;
    clock_t t0;
    int i;
    (void)state;
    mpz_inits(a, b, r, NULL);
    rnd_mpz(a, 10000);
    rnd_mpz(b, 10000);
    t0 = clock();
    for (i = 0; i < 20; i++)
        mul(r, a, b);
    assert_true((double)(clock() - t0) / CLOCKS_PER_SEC <
                bt_test_cpu_bound(0.2));
    mpz_clears(a, b, r, NULL);
}

static int
setup(void **state)
{
    definition_table();
    return bt_test_setup(state);
}

/* A square root past 64 bits as the process's first nimber operation: its
   steps multiply by the constant through the tables, which a 64-bit
   product used to build first (a wrong root came back when none had). */
static void
test_sqrt_first(void **state)
{
    mpz_t x, r, back;
    (void)state;
    mpz_inits(x, r, back, NULL);
    mpz_set_str(x, "123456789012345678901234567890123456789012345678901", 10);
    assert_int_equal(bt_nimber_sqrt(r, x, NULL, NULL), BT_OK);
    assert_int_equal(bt_nimber_mul(back, r, r, NULL, NULL), BT_OK);
    assert_int_equal(mpz_cmp(back, x), 0);
    mpz_clears(x, r, back, NULL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        /* first: it needs a process where no nimber was computed yet */
        cmocka_unit_test(test_sqrt_first),
        cmocka_unit_test(test_definition),
        cmocka_unit_test(test_methods),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_conway_rules),
        cmocka_unit_test(test_axioms),
        cmocka_unit_test(test_published),
        cmocka_unit_test(test_inverse_sqrt),
        cmocka_unit_test(test_pow),
        cmocka_unit_test(test_order_log),
        cmocka_unit_test(test_errors_limits),
        cmocka_unit_test(test_speed),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
