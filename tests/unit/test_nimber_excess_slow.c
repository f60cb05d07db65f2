/* label: slow
 *
 * test_nimber_excess_slow.c -- Lenstra's excess m_p (bt_nimber_excess)
 * against the OEIS terms (tests/cases/nimber_excess_a380496.txt: A380496)
 * for every odd prime p <= 163: 37 terms, the fields up to 2^15180
 * elements (p = 139).  About 3 s of CPU (2026-11-27, this machine, at a
 * load of 6.5); the quick test_nimber_excess stops at
 * p = 103.
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

static void
test_published(void **state)
{
    char line[4096], *p, *end;
    unsigned long v[100];
    bt_nimber_excess_row rows[100];
    size_t n = 0, count, i;
    bt_diag d;
    FILE *f = fopen(BT_TEST_CASES "/nimber_excess_a380496.txt", "r");
    (void)state;
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "A380496 ", 8) == 0)
            for (p = line + 8; n < 100; p = end) {
                unsigned long x = strtoul(p, &end, 10);
                if (end == p)
                    break;
                v[n++] = x;
            }
    fclose(f);
    assert_int_equal(n, 59);
    assert_int_equal(bt_nimber_excess(rows, 100, &count, 163, NULL, NULL,
                                      NULL, &d),
                     BT_OK);
    assert_int_equal(count, 37);
    assert_int_equal(rows[36].p, 163);
    for (i = 0; i < count; i++)
        if (rows[i].m != v[i])
            fail_msg("m_%u = %u, the OEIS has %lu", rows[i].p, rows[i].m,
                     v[i]);
    assert_int_equal(rows[36].m, 4); /* m_163 = 4, as m_19 */
    assert_int_equal(rows[26].exponent, 8268); /* p = 107 */
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
