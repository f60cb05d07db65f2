/* label: quick
 *
 * test_ipmap.c -- the server's counters per client address
 * (programs/server/server_ipmap.c: open addressing with backward-shift
 * deletion) against a plain array of counts, on random additions and removals with
 * and without a maximum, until the map is full and empties again.
 *
 * BT_TEST_SEED in the environment sets the seed; a failure prints it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <bouton.h>

#include "server_net.h"
#include "testutil.h"

#define ADDRS 90 /* more than the map holds at once (capacity 40) */

static void
make_ip(srv_ip *ip, int k)
{
    struct sockaddr_in in;

    memset(&in, 0, sizeof in);
    in.sin_family = AF_INET;
    /* addresses that differ in several bytes, so that they collide */
    in.sin_addr.s_addr = htonl(0x0a000000u | (unsigned)k * 2654435761u >> 8);
    srv_ip_from_sockaddr(ip, (const struct sockaddr *)&in);
}

static void
test_against_counts(void **state)
{
    unsigned long long seed = bt_test_seed();
    srv_ipmap *m = srv_ipmap_new(40);
    unsigned count[ADDRS][2];
    long it;

    (void)state;
    assert_non_null(m);
    memset(count, 0, sizeof count);
    for (it = 0; it < 400000; it++) {
        int k = (int)bt_test_rnd(ADDRS), which = (int)bt_test_rnd(2);
        int delta = bt_test_rnd(3) == 0 ? -1 : 1, live = 0, j, rc, want;
        unsigned max = bt_test_rnd(4) ? 3 : 0;
        srv_ip ip;

        for (j = 0; j < ADDRS; j++)
            live += count[j][0] || count[j][1];
        make_ip(&ip, k);
        rc = srv_ipmap_add(m, &ip, which, delta, max);
        if (delta < 0) {
            want = 0;
            if (count[k][which])
                count[k][which]--;
        } else if (!(count[k][0] || count[k][1]) && live + 1 >= 64) {
            want = -1; /* full: 128 slots, at most half of them used */
        } else if (max && count[k][which] + 1 > max) {
            want = -1;
        } else {
            want = 0;
            count[k][which]++;
        }
        if (rc != want)
            fail_msg("seed %llu, step %ld: address %d counter %d %+d (max "
                     "%u) gave %d, expected %d",
                     seed, it, k, which, delta, max, rc, want);
    }
    /* each count is exact: one more past it is refused */
    for (int k = 0; k < ADDRS; k++)
        for (int which = 0; which < 2; which++) {
            srv_ip ip;

            make_ip(&ip, k);
            if (count[k][which])
                assert_int_equal(srv_ipmap_add(m, &ip, which, 1,
                                               count[k][which]),
                                 -1);
        }
    srv_ipmap_free(m);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_counts),
    };

    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
