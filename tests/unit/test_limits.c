/* label: quick
 *
 * test_limits.c -- the resource model (issue 10):
 *   - the memory budget: charges past max_memory fail with BT_ELIMIT and a
 *     message naming the limit, releases give the bytes back, 0 means no
 *     limit, and GMP's allocations made inside bt__budget_enter() count;
 *   - the misère search stops at max_memory (BT_ELIMIT, the limit named)
 *     and at max_search when a long game goes deep, and frees what it held
 *     (run under valgrind/ASan by `make test`); small enough searches agree
 *     with a search with no memory limit;
 *   - --max-memory's parser is the CLI's (tests/cli/limits.sh), so here:
 *     moves found in records by the rules of Nim and Wythoff directly agree
 *     with the listing of every option (the rules' own enumeration) on every
 *     small position.
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

#include "../../src/core/core.h"
#include "testutil.h"

static void
test_budget(void **state)
{
    bt_limits lim;
    bt__budget b;
    bt_diag d;
    (void)state;
    memset(&d, 0, sizeof d);
    bt_limits_default(&lim);
    lim.max_memory = 1000;
    bt__budget_init(&b, &lim);
    assert_int_equal(bt__budget_charge(&b, 600, &d), BT_OK);
    assert_int_equal(bt__budget_charge(&b, 400, &d), BT_OK);
    assert_int_equal(bt__budget_charge(&b, 1, &d), BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_memory"));
    assert_int_equal(b.used, 1000);
    bt__budget_release(&b, 500);
    assert_int_equal(b.used, 500);
    assert_int_equal(b.peak, 1000);
    /* once exceeded, the check says so until a fresh budget */
    assert_int_equal(bt__budget_check(&b, &lim, &d), BT_ELIMIT);
    bt__budget_init(&b, &lim);
    assert_int_equal(bt__budget_check(&b, &lim, &d), BT_OK);
    assert_int_equal(bt__budget_charge(&b, (size_t)-1, &d), BT_ELIMIT);
    /* 0: no limit */
    lim.max_memory = 0;
    bt__budget_init(&b, &lim);
    assert_int_equal(bt__budget_charge(&b, (size_t)1 << 60, &d), BT_OK);
}

static void
test_budget_gmp(void **state)
{
    bt_limits lim;
    bt__budget b, *prev;
    bt_diag d;
    mpz_t x;
    (void)state;
    memset(&d, 0, sizeof d);
    bt_limits_default(&lim);
    lim.max_memory = 1 << 16;
    bt__budget_init(&b, &lim);
    prev = bt__budget_enter(&b);
    mpz_init(x);
    mpz_ui_pow_ui(x, 3, 100000); /* about 20 KB */
    assert_true(b.used >= 15000);
    assert_int_equal(bt__budget_check(&b, &lim, &d), BT_OK);
    mpz_ui_pow_ui(x, 3, 1000000); /* about 200 KB: past the budget */
    assert_int_equal(bt__budget_check(&b, &lim, &d), BT_ELIMIT);
    mpz_clear(x);
    bt__budget_leave(prev);
    assert_true(b.used < 1000);
    /* outside a budget nothing is charged */
    mpz_init(x);
    mpz_ui_pow_ui(x, 3, 100000);
    mpz_clear(x);
    assert_true(b.used < 1000);
}

static bt_status
misere(const char *text, const char *game, size_t max_memory,
       size_t max_search, bt_outcome *o, bt_diag *d)
{
    bt_limits lim;
    bt_analysis *a;
    bt_position *p;
    bt_status st;
    bt_limits_default(&lim);
    lim.max_memory = max_memory;
    lim.max_search = max_search;
    p = bt_test_parse(text, game, &lim);
    memset(d, 0, sizeof *d);
    st = bt_analyze(&a, p, BT_MISERE, &lim, d);
    if (st == BT_OK) {
        *o = bt_analysis_outcome(a);
        bt_analysis_free(a);
    }
    bt_position_free(p);
    return st;
}

static void
test_search_memory(void **state)
{
    static const char *const small[] = {"1 2 3", "4 5", "7", "2 2 9",
                                        "10 1"};
    bt_outcome o, o2;
    bt_diag d;
    size_t i;
    (void)state;
    /* heavy: stops at the memory budget, naming it (Grundy's game: no
       periodicity theorem answers its huge heaps through the quotient, as
       Kayles' proved quotient now does) */
    assert_int_equal(misere("1 29429 6 2", "grundy", (size_t)20 << 20,
                            10000000, &o, &d),
                     BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_memory"));
    /* deep: a game of 10^5 moves or more stops at max_search, not at
       memory (Dawson's Kayles is wild: its misère quotient is learnt by
       the search, which the budget stops near heap 24; sub:50,97's is
       proved at heap 245 and answers at once, as does sub:5000,9997's
       now that a tame game's quotient comes from the theory,
       quotient_tame.c) */
    assert_int_equal(misere("dawsons-kayles 1000000000", NULL, 0, 20000, &o,
                            &d),
                     BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_search"));
    assert_int_equal(misere("sub:50,97 100000000", NULL, 0, 20000, &o, &d),
                     BT_OK);
    /* small: the same answers with and without a memory limit */
    for (i = 0; i < sizeof small / sizeof *small; i++) {
        assert_int_equal(misere(small[i], "kayles", 0, 250000, &o, &d),
                         BT_OK);
        assert_int_equal(misere(small[i], "kayles", (size_t)8 << 20, 250000,
                                &o2, &d),
                         BT_OK);
        assert_int_equal(o, o2);
    }
}

/* Is `to` among the options listed by the rules? */
static int
listed(const bt_position *from, const bt_position *to)
{
    bt_move *m;
    size_t n, i;
    int found = 0;
    assert_int_equal(bt_position_moves(&m, &n, from, NULL, NULL), BT_OK);
    for (i = 0; i < n && !found; i++) {
        bt_position *q;
        char *a, *b;
        assert_int_equal(bt_position_copy(&q, from), BT_OK);
        assert_int_equal(bt_position_apply(q, &m[i]), BT_OK);
        a = bt_position_format(q);
        b = bt_position_format(to);
        found = strcmp(a, b) == 0;
        free(a);
        free(b);
        bt_position_free(q);
    }
    bt_moves_free(m, n);
    return found;
}

static void
check_find(const char *from_text, const char *to_text, const char *game)
{
    bt_position *from = bt_test_parse(from_text, game, NULL),
                *to = bt_test_parse(to_text, game, NULL);
    bt_move *m = NULL;
    bt_status st = bt_position_find_move(&m, from, to, NULL, NULL);
    int want = listed(from, to);
    if ((st == BT_OK) != want)
        fail_msg("%s: %s -> %s: find_move says %s, the rules %s", game,
                 from_text, to_text, st == BT_OK ? "a move" : "no move",
                 want ? "a move" : "no move");
    bt_moves_free(m, m ? 1 : 0);
    bt_position_free(from);
    bt_position_free(to);
}

static void
test_record_moves(void **state)
{
    static const char *const pairs[] = {"wythoff", "wythoff:2", "wythoff:3"};
    char a[64], b[64];
    unsigned x, y, u, v, gi;
    (void)state;
    for (x = 0; x <= 12; x++)
        for (u = 0; u <= 12; u++) {
            snprintf(a, sizeof a, "%u", x);
            snprintf(b, sizeof b, "%u", u);
            check_find(a, b, "nim");
            snprintf(a, sizeof a, "3 %u 5", x);
            snprintf(b, sizeof b, "3 %u 5", u);
            if (x != u)
                check_find(a, b, "nim");
        }
    for (gi = 0; gi < 3; gi++)
        for (x = 0; x <= 7; x++)
            for (y = 0; y <= 7; y++)
                for (u = 0; u <= 7; u++)
                    for (v = 0; v <= 7; v++) {
                        if (x == u && y == v)
                            continue;
                        snprintf(a, sizeof a, "%u %u", x, y);
                        snprintf(b, sizeof b, "%u %u", u, v);
                        check_find(a, b, pairs[gi]);
                    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_budget_gmp),
        cmocka_unit_test(test_search_memory),
        cmocka_unit_test(test_record_moves),
    };
    bt_gmp_install_allocators(NULL, NULL);
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
