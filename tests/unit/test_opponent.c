/* label: quick
 *
 * test_opponent.c -- the computer opponent against brute force.
 *
 *   - Every small position of every game (Nim, Wythoff and its
 *     generalisation, subtraction and octal games, sums), normal and
 *     misère: from an N-position the opponent's move leaves a P-position
 *     and is the one the documented rule picks (least remoteness, then the
 *     tie order); from a P-position it is the one the documented rule picks
 *     (greatest remoteness, then least share of winning replies, then the
 *     tie order), every quantity computed by brute force over all the
 *     replies (tests/oracle/oracle_rule.c on oracle_search.c).  Larger
 *     sizes in test_opponent_slow.c.
 *   - Nim positions too big for the oracle but small enough to list every
 *     move, where the opponent uses its closed-form candidates: the same
 *     rule, brute force over every move with the library's analysis.
 *   - Piles too big for the exact rule: the documented fallback.
 *   - The seeded generator (SplitMix64's published outputs), levels,
 *     random moves and random starts.
 *
 * The random parts take their seed from BT_TEST_SEED (printed on failure).
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

#include "oracle_rule.h"
#include "oracle_search.h"

static bt_position *
after(const bt_position *p, const bt_move *m)
{
    bt_position *q;
    assert_int_equal(bt_position_copy(&q, p), BT_OK);
    assert_int_equal(bt_position_apply(q, m), BT_OK);
    return q;
}

/* ------------------------------------------------- the rule, by brute force */

/* What the rule weighs for one move, computed the slow way. */
typedef struct weigh {
    const bt_move *m;
    long w, all; /* P-rule: winning replies, all replies (1, 1 if none) */
    int qwin;    /* the result is an N-position */
    mpz_t rem;   /* remoteness of the result */
    mpz_t delta; /* change of the total of the numbers */
} weigh;

static void
delta_of(mpz_t d, const bt_position *p, const bt_move *m)
{
    const mpz_t *v = bt_position_nums(p, m->component);
    unsigned j, ar = bt_game_arity(bt_position_game(p, m->component));
    size_t k;
    mpz_set_ui(d, 0);
    for (k = 0; k < m->nto; k++)
        mpz_add(d, d, m->to[k]);
    for (j = 0; j < ar; j++)
        mpz_sub(d, d, v[j]);
}

/* The N-rule's order: < 0 when a comes first. */
static int
win_cmp(const weigh *a, const weigh *b)
{
    int c = mpz_cmp(a->rem, b->rem);
    if (c == 0)
        c = mpz_cmp(a->delta, b->delta);
    return c != 0 ? c : oracle_rule_place_cmp(a->m, b->m);
}

/* The P-rule's order: greatest remoteness, then least w/all, then the
   larger total, then place. */
static int
delay_cmp(const weigh *a, const weigh *b)
{
    long long x = (long long)a->w * b->all, y = (long long)b->w * a->all;
    int c = mpz_cmp(b->rem, a->rem);
    if (c != 0)
        return c;
    if (x != y)
        return x < y ? -1 : 1;
    c = mpz_cmp(b->delta, a->delta);
    return c != 0 ? c : oracle_rule_place_cmp(a->m, b->m);
}

static void
print_move(char *buf, size_t size, const bt_move *m)
{
    size_t k;
    int len = snprintf(buf, size, "component %zu to (", m->component + 1);
    for (k = 0; k < m->nto && len > 0 && (size_t)len < size; k++)
        len += gmp_snprintf(buf + len, size - (size_t)len, "%s%Zd",
                            k ? "," : "", m->to[k]);
    if (len > 0 && (size_t)len < size)
        snprintf(buf + len, size - (size_t)len, ") \"%s\"",
                 m->text ? m->text : "");
}

/* Checks the opponent's move on p against the rule by brute force. */
static void
check_small(oracle_search *o, const bt_position *p, int misere)
{
    bt_move *moves, *got = NULL;
    size_t n, best;
    int win;
    char *text = bt_position_format(p);
    bt_diag d;
    bt_status st;
    bt_play_info info;

    memset(&d, 0, sizeof d);
    st = bt_opponent_play(&got, &info, p, misere, BT_LEVEL_PERFECT, NULL,
                          NULL, &d);
    if (bt_position_is_terminal(p)) {
        assert_int_equal(st, BT_EINVAL);
        assert_null(got);
        free(text);
        return;
    }
    if (st != BT_OK)
        fail_msg("'%s'%s: %s", text, misere ? " misère" : "", d.message);
    if (oracle_rule_pick(o, p, misere, &moves, &n, &best, &win) != 0)
        fail_msg("'%s': the oracle failed", text);
    if (win) {
        /* the move played must win */
        bt_position *q = after(p, got);
        int qwin;
        long qrem;
        assert_int_equal(oracle_search_solve(o, q, &qwin, &qrem), 0);
        if (qwin)
            fail_msg("'%s'%s: N-position, but '%s' loses", text,
                     misere ? " misère" : "", got->text);
        bt_position_free(q);
    }
    assert_true(info.outcome_known);
    assert_int_equal(info.outcome == BT_N, win);
    /* the exact rule when its bounded search succeeded (a slow machine,
       valgrind, may pass the search's time budget: then the proxy, whose
       N-positions were checked above and P-positions by
       test_opponent_proxy.c) */
    if (info.remoteness_known && !oracle_rule_same_move(got, &moves[best])) {
        char a[256], b[256];
        print_move(a, sizeof a, got);
        print_move(b, sizeof b, &moves[best]);
        fail_msg("'%s'%s (%c): the opponent plays %s, the rule says %s", text,
                 misere ? " misère" : "", win ? 'N' : 'P', a, b);
    }
    assert_non_null(got->text);
    bt_moves_free(got, 1);
    bt_moves_free(moves, n);
    free(text);
}

static void
visit_small(void *ud, const bt_test_pos *at)
{
    (void)ud;
    check_small(at->oracle, at->p, at->misere);
}

/* Every position of a shape: fmt has `nums` %d, each below `below`. */
static void
all_of_shape(const char *fmt, int nums, int below)
{
    bt_test_each_position(fmt, nums, below, visit_small, NULL);
}

static void
test_nim_small(void **state)
{
    (void)state;
    all_of_shape("%d", 1, 9);
    all_of_shape("%d %d", 2, 8);
    all_of_shape("%d %d %d", 3, 6);
    all_of_shape("%d %d %d %d", 4, 4);
    all_of_shape("%d %d %d %d %d", 5, 3);
}

static void
test_games_small(void **state)
{
    (void)state;
    all_of_shape("wythoff %d %d", 2, 6);
    all_of_shape("wythoff %d %d + wythoff %d %d", 4, 2);
    all_of_shape("wythoff:2 %d %d", 2, 5);
    all_of_shape("sub:1-3 %d %d", 2, 7);
    all_of_shape("sub:1,3,4 %d %d", 2, 6);
    all_of_shape("kayles %d %d", 2, 5);
    all_of_shape("dawsons-kayles %d", 1, 9);
    all_of_shape("grundys-game %d %d", 2, 6);
    all_of_shape("octal:0.137 %d %d", 2, 5);
    all_of_shape("nim %d + kayles %d + wythoff %d %d", 4, 3);
    all_of_shape("nim %d %d + sub:1-2 %d", 3, 3);
}

/* ------------------------------------------- medium Nim: the closed form */

/* Checks the opponent on a Nim position whose moves can be listed, with
   the library's analysis and remoteness (each checked by its own tests)
   over every move and reply count. */
static void
check_medium(const bt_position *p, int misere)
{
    bt_move *moves, *got = NULL;
    size_t n, i, best = 0;
    bt_analysis *a;
    weigh cur, top;
    char *text = bt_position_format(p);
    int win, have = 0;
    bt_diag d;

    memset(&d, 0, sizeof d);
    assert_int_equal(bt_position_moves(&moves, &n, p, NULL, NULL), BT_OK);
    if (bt_opponent_move(&got, p, misere, BT_LEVEL_PERFECT, NULL, NULL, &d) !=
        BT_OK)
        fail_msg("'%s': %s", text, d.message);
    assert_int_equal(bt_analyze(&a, p, misere ? BT_MISERE : 0, NULL, NULL),
                     BT_OK);
    win = bt_analysis_outcome(a) == BT_N;
    bt_analysis_free(a);
    mpz_init(cur.rem);
    mpz_init(cur.delta);
    mpz_init(top.rem);
    mpz_init(top.delta);
    for (i = 0; i < n; i++) {
        bt_position *q = after(p, &moves[i]);
        int qwin;
        assert_int_equal(bt_analyze(&a, q, misere ? BT_MISERE : 0, NULL, NULL),
                         BT_OK);
        qwin = bt_analysis_outcome(a) == BT_N;
        cur.m = &moves[i];
        cur.w = (long)bt_analysis_move_count(a);
        bt_analysis_free(a);
        {
            mpz_t t;
            size_t j;
            mpz_init(t);
            for (j = 0; j < bt_position_size(q); j++)
                mpz_add(t, t, bt_position_nums(q, j)[0]);
            cur.all = mpz_get_si(t);
            mpz_clear(t);
        }
        if (cur.all == 0)
            cur.w = cur.all = 1;
        assert_int_equal(bt_remoteness(cur.rem, q, misere, NULL, NULL), BT_OK);
        delta_of(cur.delta, p, &moves[i]);
        bt_position_free(q);
        if (win && qwin)
            continue;
        if (!have || (win ? win_cmp(&cur, &top) : delay_cmp(&cur, &top)) < 0) {
            top.m = cur.m;
            top.w = cur.w;
            top.all = cur.all;
            mpz_set(top.rem, cur.rem);
            mpz_set(top.delta, cur.delta);
            best = i;
            have = 1;
        }
    }
    if (!oracle_rule_same_move(got, &moves[best])) {
        char x[256], y[256];
        print_move(x, sizeof x, got);
        print_move(y, sizeof y, &moves[best]);
        fail_msg("'%s'%s (%c): the opponent plays %s, the rule says %s "
                 "(seed %llu)",
                 text, misere ? " misère" : "", win ? 'N' : 'P', x, y,
                 bt_test_seed());
    }
    mpz_clear(cur.rem);
    mpz_clear(cur.delta);
    mpz_clear(top.rem);
    mpz_clear(top.delta);
    bt_moves_free(got, 1);
    bt_moves_free(moves, n);
    free(text);
}

static void
test_nim_medium(void **state)
{
    int t;
    (void)state;
    for (t = 0; t < 60; t++) {
        int k = 3 + (int)bt_test_rnd(3), i, x = 0, v[6];
        char text[128];
        int len = 0;
        bt_position *p;
        for (i = 0; i < k - 1; i++) {
            v[i] = (int)bt_test_rnd(t % 3 == 0 ? 64 : 200);
            x ^= v[i];
        }
        /* a P-position most of the time, else an N-position */
        v[k - 1] = t % 4 == 3 ? (int)bt_test_rnd(200) : x;
        for (i = 0; i < k; i++)
            len += sprintf(text + len, "%d ", v[i]);
        p = bt_test_parse(text, "nim", NULL);
        check_medium(p, 0);
        check_medium(p, 1);
        bt_position_free(p);
    }
}

/* Piles too big for the exact rule: one counter from the first pile with
   the fewest trailing zeros; and huge N-positions still get a winning
   move. */
static void
test_nim_huge(void **state)
{
    bt_position *p;
    bt_move *m;
    bt_analysis *a;
    bt_position *q;
    mpz_t x, y, z;
    char *s1, *s2, text[8192];
    (void)state;
    mpz_init(x);
    mpz_init(y);
    mpz_init(z);
    mpz_ui_pow_ui(x, 2, 9000);
    mpz_add_ui(y, x, 6);
    mpz_add_ui(x, x, 4);
    s1 = mpz_get_str(NULL, 10, x);
    s2 = mpz_get_str(NULL, 10, y);
    snprintf(text, sizeof text, "%s %s 2", s1, s2);
    p = bt_test_parse(text, "nim", NULL);
    assert_int_equal(
        bt_opponent_move(&m, p, 0, BT_LEVEL_PERFECT, NULL, NULL, NULL), BT_OK);
    assert_int_equal(m->component, 1);
    mpz_sub_ui(z, y, 1);
    assert_true(mpz_cmp(m->to[0], z) == 0);
    bt_moves_free(m, 1);
    bt_position_free(p);

    /* a huge N-position: the fastest win is the one that takes most */
    snprintf(text, sizeof text, "%s %s 7", s1, s2);
    p = bt_test_parse(text, "nim", NULL);
    assert_int_equal(
        bt_opponent_move(&m, p, 1, BT_LEVEL_PERFECT, NULL, NULL, NULL), BT_OK);
    q = after(p, m);
    assert_int_equal(bt_analyze(&a, q, BT_MISERE, NULL, NULL), BT_OK);
    assert_int_equal(bt_analysis_outcome(a), BT_P);
    bt_analysis_free(a);
    bt_position_free(q);
    bt_moves_free(m, 1);
    bt_position_free(p);

    /* a P-position of 100-digit piles: the exact rule, a legal move */
    mpz_ui_pow_ui(x, 10, 99);
    mpz_add_ui(x, x, 12345);
    mpz_ui_pow_ui(y, 10, 99);
    mpz_add_ui(y, y, 777);
    mpz_xor(z, x, y);
    free(s1);
    free(s2);
    s1 = mpz_get_str(NULL, 10, x);
    s2 = mpz_get_str(NULL, 10, y);
    gmp_snprintf(text, sizeof text, "%s %s %Zd", s1, s2, z);
    p = bt_test_parse(text, "nim", NULL);
    assert_int_equal(
        bt_opponent_move(&m, p, 0, BT_LEVEL_PERFECT, NULL, NULL, NULL), BT_OK);
    q = after(p, m);
    {
        bt_move *back;
        assert_int_equal(bt_position_find_move(&back, p, q, NULL, NULL), BT_OK);
        bt_moves_free(back, 1);
    }
    bt_position_free(q);
    bt_moves_free(m, 1);
    bt_position_free(p);
    free(s1);
    free(s2);
    mpz_clear(x);
    mpz_clear(y);
    mpz_clear(z);
}

/* --------------------------------------------------------- randomness */

static void
test_rng(void **state)
{
    uint64_t s = 0, counts[6] = {0};
    int i;
    mpz_t n, r;
    (void)state;
    /* the published first outputs of SplitMix64 seeded with 0 */
    assert_true(bt_rng_next(&s) == 0xe220a8397b1dcdafULL);
    assert_true(bt_rng_next(&s) == 0x6e789e6aa1b965f4ULL);
    assert_true(bt_rng_next(&s) == 0x06c45d188009454fULL);
    assert_true(bt_rng_below(&s, 0) == 0);
    assert_true(bt_rng_below(&s, 1) == 0);
    s = 7;
    for (i = 0; i < 60000; i++)
        counts[bt_rng_below(&s, 6)]++;
    for (i = 0; i < 6; i++) /* 10 000 expected; 5 sigma is 456 */
        assert_true(counts[i] > 9500 && counts[i] < 10500);
    mpz_init(n);
    mpz_init(r);
    mpz_ui_pow_ui(n, 10, 40);
    for (i = 0; i < 200; i++) {
        bt_rng_mpz_below(r, &s, n);
        assert_true(mpz_sgn(r) >= 0 && mpz_cmp(r, n) < 0);
    }
    mpz_set_ui(n, 3);
    memset(counts, 0, sizeof counts);
    for (i = 0; i < 30000; i++) {
        bt_rng_mpz_below(r, &s, n);
        counts[mpz_get_ui(r)]++;
    }
    for (i = 0; i < 3; i++)
        assert_true(counts[i] > 9600 && counts[i] < 10400);
    mpz_set_ui(n, 0);
    bt_rng_mpz_below(r, &s, n);
    assert_true(mpz_sgn(r) == 0);
    mpz_clear(n);
    mpz_clear(r);
}

static void
test_levels(void **state)
{
    bt_position *p = bt_test_parse("20 20 20 20", "nim", NULL);
    bt_move *perfect, *m;
    bt_level l;
    int lv, i;
    (void)state;
    assert_int_equal(bt_level_parse(&l, "easy", NULL), BT_OK);
    assert_int_equal(l, BT_LEVEL_EASY);
    assert_int_equal(bt_level_parse(&l, "medium", NULL), BT_OK);
    assert_int_equal(l, BT_LEVEL_MEDIUM);
    assert_int_equal(bt_level_parse(&l, "perfect", NULL), BT_OK);
    assert_int_equal(l, BT_LEVEL_PERFECT);
    assert_int_equal(bt_level_parse(&l, "godlike", NULL), BT_EPARSE);
    assert_string_equal(bt_level_name(BT_LEVEL_MEDIUM), "medium");
    assert_int_equal(
        bt_opponent_move(&m, p, 0, BT_LEVEL_EASY, NULL, NULL, NULL), BT_EINVAL);
    assert_int_equal(
        bt_opponent_move(&perfect, p, 0, BT_LEVEL_PERFECT, NULL, NULL, NULL),
        BT_OK);
    for (lv = BT_LEVEL_MEDIUM; lv <= BT_LEVEL_EASY; lv++) {
        uint64_t s = 99, s2 = 99;
        int differ = 0;
        double expect, got;
        for (i = 0; i < 2000; i++) {
            bt_move *again;
            assert_int_equal(
                bt_opponent_move(&m, p, 0, (bt_level)lv, &s, NULL, NULL),
                BT_OK);
            /* the same seed replays the same moves */
            assert_int_equal(
                bt_opponent_move(&again, p, 0, (bt_level)lv, &s2, NULL, NULL),
                BT_OK);
            assert_true(oracle_rule_same_move(m, again));
            differ += !oracle_rule_same_move(m, perfect);
            bt_moves_free(m, 1);
            bt_moves_free(again, 1);
        }
        /* a random move is the perfect one once in 80 */
        expect = bt_level_error_permille((bt_level)lv) / 1000.0 * 79 / 80;
        got = differ / 2000.0;
        if (got < expect - 0.045 || got > expect + 0.045)
            fail_msg("level %s: %.3f of the moves differ, expected %.3f",
                     bt_level_name((bt_level)lv), got, expect);
    }
    bt_moves_free(perfect, 1);
    bt_position_free(p);
}

static void
test_random_move(void **state)
{
    bt_position *p = bt_test_parse("3 0 5", "nim", NULL);
    bt_limits lim;
    long counts[8] = {0};
    uint64_t s = 5;
    int i;
    bt_move *m;
    (void)state;
    /* the listed path, and the Nim path past the limit: both uniform over
       the 8 moves */
    bt_limits_default(&lim);
    for (i = 0; i < 16000; i++) {
        lim.max_search = i % 2 ? 4 : 1000;
        assert_int_equal(bt_random_move(&m, p, &s, &lim, NULL), BT_OK);
        assert_true(m->component == 0 || m->component == 2);
        counts[(m->component == 0 ? 0 : 3) + mpz_get_ui(m->to[0])]++;
        bt_moves_free(m, 1);
    }
    for (i = 0; i < 8; i++) /* 2000 expected */
        assert_true(counts[i] > 1800 && counts[i] < 2200);
    bt_position_free(p);
    p = bt_test_parse("0 0", "nim", NULL);
    assert_int_equal(bt_random_move(&m, p, &s, NULL, NULL), BT_EINVAL);
    assert_null(m);
    assert_int_equal(
        bt_opponent_move(&m, p, 0, BT_LEVEL_PERFECT, NULL, NULL, NULL),
        BT_EINVAL);
    bt_position_free(p);
}

static void
test_random_start(void **state)
{
    bt_game *g;
    bt_position *p, *q;
    uint64_t s = 11, s2 = 11;
    mpz_t lo, hi;
    long seen[16] = {0};
    int i;
    size_t j;
    bt_diag d;
    (void)state;
    mpz_init_set_ui(lo, 1);
    mpz_init_set_ui(hi, 15);
    assert_int_equal(bt_game_new(&g, "nim", NULL), BT_OK);
    for (i = 0; i < 2000; i++) {
        assert_int_equal(bt_position_random(&p, g, 3, lo, hi, &s, NULL, NULL),
                         BT_OK);
        assert_int_equal(bt_position_random(&q, g, 3, lo, hi, &s2, NULL, NULL),
                         BT_OK);
        assert_true(bt_position_equal(p, q));
        assert_int_equal(bt_position_size(p), 3);
        for (j = 0; j < 3; j++)
            seen[mpz_get_ui(bt_position_nums(p, j)[0])]++;
        bt_position_free(p);
        bt_position_free(q);
    }
    assert_int_equal(seen[0], 0);
    for (i = 1; i <= 15; i++) /* 400 expected */
        assert_true(seen[i] > 300 && seen[i] < 500);
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_position_random(&p, g, 3, hi, lo, &s, NULL, &d),
                     BT_EINVAL);
    assert_null(p);
    bt_game_free(g);
    assert_int_equal(bt_game_new(&g, "wythoff", NULL), BT_OK);
    assert_int_equal(bt_position_random(&p, g, 2, lo, hi, &s, NULL, NULL),
                     BT_OK);
    assert_int_equal(bt_position_size(p), 2);
    bt_position_free(p);
    bt_game_free(g);
    mpz_clear(lo);
    mpz_clear(hi);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nim_small),   cmocka_unit_test(test_games_small),
        cmocka_unit_test(test_nim_medium),  cmocka_unit_test(test_nim_huge),
        cmocka_unit_test(test_rng),         cmocka_unit_test(test_levels),
        cmocka_unit_test(test_random_move), cmocka_unit_test(test_random_start),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
