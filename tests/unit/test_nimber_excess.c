/* label: quick
 *
 * test_nimber_excess.c -- Lenstra's excess m_p (bt_nimber_excess,
 * include/bouton/nimber.h) against the OEIS terms (tests/cases/
 * nimber_excess_a380496.txt: A380496) for p <= 103, and against an oracle
 * from the 64-bit nim arithmetic (Conway's rules, checked against the mex
 * definition by test_nimber) where kappa_(f(p)) is a Fermat 2-power:
 * p = 3, 5, 17, 257 (f(p) = 2, 4, 8, 16); then the bounds and errors.
 * About 0.3 s of CPU.
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

static size_t
load_terms(const char *key, unsigned long *v, size_t cap)
{
    return bt_test_load_terms(BT_TEST_CASES "/nimber_excess_a380496.txt", key,
                              v, cap);
}

/* The odd primes in order: a(n) is the excess of the n-th. */
static unsigned
odd_prime(size_t n)
{
    unsigned p = 1, d;
    size_t k = 0;
    while (k < n) {
        p += 2;
        for (d = 3; d * d <= p && p % d; d += 2)
            ;
        if (d * d > p)
            k++;
    }
    return p;
}

static void
test_published(void **state)
{
    unsigned long v[100];
    bt_nimber_excess_row rows[100];
    size_t n, count, i;
    bt_diag d;
    (void)state;
    n = load_terms("A380496", v, 100);
    assert_int_equal(n, 59);
    assert_int_equal(bt_nimber_excess(rows, 100, &count, 103, NULL, NULL,
                                      NULL, &d),
                     BT_OK);
    assert_int_equal(count, 26);
    for (i = 0; i < count; i++) {
        assert_int_equal(rows[i].p, odd_prime(i + 1));
        if (rows[i].m != v[i])
            fail_msg("m_%u = %u, the OEIS has %lu", rows[i].p, rows[i].m,
                     v[i]);
    }
    /* Conway's three (ONAG ch. 6): omega^3 = 2, (omega^omega)^5 = 4,
       (omega^(omega^2))^7 = omega + 1 */
    assert_int_equal(rows[0].m, 0);
    assert_int_equal(rows[1].m, 0);
    assert_int_equal(rows[2].m, 1);
    assert_int_equal(rows[2].f, 3);
}

/*
 * For p = 3, 5, 17, 257, f(p) = 2^k and kappa_(f(p)) = 2^(2^(k-1)), a
 * finite nimber: the excess is the least m for which 2^(2^(k-1)) + m (a
 * nim-sum) is not a p-th power among the nimbers, tested in the field of
 * order 2^64 (p divides 2^64 - 1 once: x is a p-th power there exactly
 * when x^((2^64 - 1)/p) = 1).
 */
static unsigned
oracle(unsigned p, unsigned kappa)
{
    unsigned m;
    for (m = 0;; m++) {
        uint64_t x = (uint64_t)(kappa ^ m);
        if (x && bt_nimber_pow_u64(x, UINT64_MAX / p) != 1)
            return m;
    }
}

static void
test_oracle(void **state)
{
    unsigned long v[100];
    bt_nimber_excess_row rows[20];
    size_t count, i;
    bt_diag d;
    (void)state;
    load_terms("A380496", v, 100);
    assert_int_equal(bt_nimber_excess(rows, 20, &count, 17, NULL, NULL, NULL,
                                      &d),
                     BT_OK);
    assert_int_equal(count, 6); /* 3 5 7 11 13 17 */
    assert_int_equal(rows[0].m, oracle(3, 2));
    assert_int_equal(rows[1].m, oracle(5, 4));
    assert_int_equal(rows[5].m, oracle(17, 16));
    for (i = 0; i < 59 && odd_prime(i + 1) != 257; i++)
        ;
    assert_true(i < 59);
    assert_int_equal(oracle(257, 256), v[i]);
}

static int
always(void *ud)
{
    (void)ud;
    return 1;
}

static void
count_row(const bt_nimber_excess_row *row, void *ud)
{
    (void)row;
    ++*(size_t *)ud;
}

static void
test_bounds(void **state)
{
    bt_nimber_excess_row rows[40];
    size_t count = 99, seen = 0;
    bt_limits lim;
    bt_diag d;
    (void)state;
    assert_int_equal(bt_nimber_excess(rows, 40, &count, BT_NIMBER_EXCESS_PMAX + 1,
                                      NULL, NULL, NULL, &d),
                     BT_ELIMIT);
    assert_int_equal(count, 0);
    assert_int_equal(bt_nimber_excess(rows, 40, &count, 2, NULL, NULL, NULL,
                                      &d),
                     BT_OK);
    assert_int_equal(count, 0);
    /* cap rows at most, and the progress callback sees each */
    assert_int_equal(bt_nimber_excess(rows, 4, &count, 103, count_row, &seen,
                                      NULL, &d),
                     BT_OK);
    assert_int_equal(count, 4);
    assert_int_equal(seen, 4);
    assert_int_equal(rows[3].p, 11);
    /* interrupted: BT_EINTR, the rows finished before kept (p = 47 needs
       a field of 2^5060 elements, and polls) */
    bt_limits_default(&lim);
    lim.interrupt = always;
    assert_int_equal(bt_nimber_excess(rows, 40, &count, 103, NULL, NULL, &lim,
                                      &d),
                     BT_EINTR);
    assert_true(count < 14);
    /* too little memory for the field of p = 47 */
    bt_limits_default(&lim);
    lim.max_memory = 4096;
    assert_int_equal(bt_nimber_excess(rows, 40, &count, 47, NULL, NULL, &lim,
                                      &d),
                     BT_ELIMIT);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published),
        cmocka_unit_test(test_oracle),
        cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
