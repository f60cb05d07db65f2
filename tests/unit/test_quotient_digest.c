/* label: slow
 *
 * test_quotient_digest.c -- the quotients of the wild frontier, bit for
 * bit (docs/misere.md, "The wild frontier"): Dawson's Kayles (0.07) to
 * heaps 30 and 33 and 0.137 to heaps 29 and 32, the farthest each reaches
 * in seconds, saved as text (bt_quotient_save: the order, the P-portion,
 * the element of each heap and the whole multiplication table, in the
 * engine's numbering) and compared by digest with the texts the engine
 * wrote before the speed-ups of issue 21, item 3.  A change of the
 * learner's speed must leave every quotient, and its numbering, as it
 * was; the exact check and test_quotient.c's brute force say that the
 * quotients are right, this says that they did not move.
 * CPU: about 16 s in the normal build (0.07 to 33 and 0.137 to 32 take
 * 6-7 s each).
 *
 * The digests are FNV-1a (64 bits) of the saved texts; they were taken
 * from `bouton quotient --game G --upto N --save FILE` of the engine
 * before the change (commit 65903b1), whose files are those texts.
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

typedef struct digest_case {
    const char *game;
    size_t upto, order, pcount;
    uint64_t fnv;
} digest_case;

static const digest_case cases[] = {
    {"octal:0.07", 30, 360, 65, UINT64_C(0x72e6914ccb06c6e2)},
    {"octal:0.07", 33, 638, 109, UINT64_C(0xa4971c002eb8b32e)},
    {"octal:0.137", 29, 360, 65, UINT64_C(0xaddbd0d9bafcb4b0)},
    {"octal:0.137", 32, 638, 109, UINT64_C(0x50d9a701e24638f7)},
};

static uint64_t
fnv1a(const char *s)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (; *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return h;
}

static void
test_digests(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const digest_case *k = &cases[i];
        bt_game *g = NULL;
        bt_quotient *q = NULL;
        bt_limits lim;
        bt_diag d;
        char *text = NULL;
        uint64_t h;
        bt_limits_default(&lim);
        lim.max_search = 100000000;
        assert_int_equal(bt_game_new(&g, k->game, &d), BT_OK);
        if (bt_quotient_new(&q, g, k->upto, &lim, &d) != BT_OK)
            fail_msg("%s to %zu: %s", k->game, k->upto, d.message);
        assert_int_equal(bt_quotient_order(q), k->order);
        assert_int_equal(bt_quotient_p_count(q), k->pcount);
        assert_int_equal(bt_quotient_save(&text, q, &d), BT_OK);
        h = fnv1a(text);
        if (h != k->fnv)
            fail_msg("%s to %zu (order %zu): digest %016llx, expected "
                     "%016llx",
                     k->game, k->upto, bt_quotient_order(q),
                     (unsigned long long)h, (unsigned long long)k->fnv);
        free(text);
        bt_quotient_free(q);
        bt_game_free(g);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
