/* label: slow */
/*
 * test_quotient_order.c -- the order of Kayles' misère quotient by brute
 * force: the 40 elements of the quotient the engine proves
 * (test_quotient_slow.c) are 40 classes, each a sum of at most five heaps
 * up to 27 (every generator is), and every two are told apart by a sum of
 * three heaps up to 27 whose outcomes tests/oracle's misère solver gives
 * from the rules (bt_test_quotient_distinct).  So the quotient of all
 * heaps has at least 40 elements, whatever the engine does.
 * CPU: about 21 s in the normal build (0.45 GB of the solver's memo),
 * measured at a load of 6 on a 2-core machine, 2026-11-27; 70-94 s and
 * 0.9 GB before each pair's witness was proposed by the quotient and only
 * checked by the oracle (testutil.c).  The bound 27 is needed for the
 * distinguishing sums too: with sums of heaps up to 16, g and ag are not
 * told apart.
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

static void
test_kayles_order(void **state)
{
    bt_quotient *q;
    (void)state;
    /* by pretending: about 1.2 s; 3 GiB in case the search is needed
       (test_quotient_slow.c) */
    q = bt_test_quotient_search("kayles", 300, 1, 100000000, (size_t)3 << 30);
    assert_int_equal(bt_quotient_order(q), 40);
    bt_test_quotient_distinct(q, "kayles", 27, 5);
    bt_quotient_free(q);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kayles_order),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
