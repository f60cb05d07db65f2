/* label: quick
 *
 * test_quotient_facts.c -- what a misère analysis says of the quotient
 * that answered it (bt_analysis_quotient, bt_analysis_heap_element,
 * bt_analysis_move_element; include/bouton/misere.h), against the
 * quotient computed apart by bt_quotient_new to the bound the analysis
 * names, through the public API alone:
 *
 *   - every sum of one to three heaps of at most 7 (5 under valgrind) of
 *     Kayles, Dawson's Kayles, sub:1-3 and Grundy's game: the order, |P|
 *     and P; each heap's element; the position's element, the product of
 *     the heaps' (bt_quotient_mul), in P exactly when the analysis says
 *     P; each winning move's element, the product of the heaps it leaves,
 *     in P;
 *   - a heap of 10^12 counters of octal:0.75 (proved periodic): its
 *     element is that of the heap it repeats (as_heap), and so are those
 *     of the window of its winning splits;
 *   - a sum of Kayles and Dawson's Kayles heaps, through the quotient of
 *     the union of their heaps (bt_quotient_new_sum, bt_quotient_heap_of);
 *   - no facts where no quotient answered: normal play, misère Nim
 *     (Bouton's rule), a Wythoff pair, a sum with a Wythoff pair (the
 *     search); NULL past the components and the moves.
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

static bt_analysis *
misere(const char *text)
{
    bt_position *p = bt_test_parse(text, NULL, NULL);
    bt_analysis *a = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_analyze(&a, p, BT_MISERE, NULL, &d) != BT_OK)
        fail_msg("analyze --misere '%s': %s", text, d.message);
    bt_position_free(p);
    return a;
}

/* The element of the heaps h[0..k-1] (no zeros) in q of one game, any
   size through q's period. */
static size_t
product(const bt_quotient *q, const mpz_t *h, size_t k)
{
    size_t x = 0, i;
    for (i = 0; i < k; i++)
        x = bt_quotient_mul(q, x, bt_quotient_heap_at(q, h[i]));
    return x;
}

/* The facts of a's quotient against q (the same game and bound),
   position p of heaps of q's game. */
static void
check_facts(const bt_analysis *a, const bt_position *p, const bt_quotient *q,
            const char *text)
{
    const bt_quotient_facts *f = bt_analysis_quotient(a);
    size_t n = bt_position_size(p), i, j, np = 0, x;
    mpz_t *heaps = malloc((n + 2) * sizeof *heaps);
    size_t per, pre;
    int proved = bt_quotient_period(q, &per, &pre);

    assert_non_null(heaps);
    assert_string_equal(f->game, bt_game_spec(bt_quotient_game(q)));
    assert_int_equal(f->upto, bt_quotient_upto(q));
    assert_int_equal(f->order, bt_quotient_order(q));
    assert_int_equal(f->p_count, bt_quotient_p_count(q));
    assert_int_equal(f->proved, proved);
    if (proved) {
        assert_int_equal(f->period, per);
        assert_int_equal(f->preperiod, pre);
    }
    for (x = 0; x < bt_quotient_order(q); x++)
        if (bt_quotient_is_p(q, x))
            assert_string_equal(f->p[np++], bt_quotient_word(q, x));
    assert_int_equal(np, f->p_count);
    for (i = 0; i < n; i++) {
        size_t as = SIZE_MAX;
        const mpz_t *v = bt_position_nums(p, i);
        const char *w = bt_analysis_heap_element(a, i, &as);
        mpz_init_set(heaps[i], v[0]);
        assert_non_null(w);
        assert_string_equal(w, bt_quotient_word(q, bt_quotient_heap_at(q,
                                                                       v[0])));
        assert_int_equal(bt_quotient_heap(q, as),
                         bt_quotient_heap_at(q, v[0]));
        if (mpz_cmp_ui(v[0], (unsigned long)bt_quotient_upto(q)) <= 0)
            assert_true(mpz_cmp_ui(v[0], (unsigned long)as) == 0);
    }
    assert_null(bt_analysis_heap_element(a, n, NULL));
    x = product(q, (const mpz_t *)heaps, n);
    assert_string_equal(f->element, bt_quotient_word(q, x));
    assert_int_equal(f->in_p, bt_quotient_is_p(q, x));
    assert_int_equal(f->in_p, bt_analysis_outcome(a) == BT_P);
    /* an N-position has a winning move, or none at all (Grundy's heaps
       of 1 and 2: the player to move has already won) */
    if (bt_analysis_outcome(a) == BT_N && !bt_position_is_terminal(p))
        assert_true(bt_analysis_move_count(a) > 0);
    for (i = 0; i < bt_analysis_move_count(a); i++) {
        const bt_move *m = bt_analysis_move(a, i);
        mpz_t *left = malloc((n + m->nto + 1) * sizeof *left);
        size_t k = 0, y;
        assert_non_null(left);
        for (j = 0; j < n; j++)
            if (j != m->component)
                mpz_init_set(left[k++], heaps[j]);
        for (j = 0; j < m->nto; j++)
            mpz_init_set(left[k++], m->to[j]);
        y = product(q, (const mpz_t *)left, k);
        if (bt_analysis_move_element(a, i) == NULL)
            fail_msg("%s: move %zu has no element", text, i);
        assert_string_equal(bt_analysis_move_element(a, i),
                            bt_quotient_word(q, y));
        assert_true(bt_quotient_is_p(q, y));
        for (j = 0; j < k; j++)
            mpz_clear(left[j]);
        free(left);
    }
    assert_null(bt_analysis_move_element(a, bt_analysis_move_count(a)));
    for (i = 0; i < n; i++)
        mpz_clear(heaps[i]);
    free(heaps);
}

/* Every sum of one to three heaps <= top of spec. */
static void
every_sum(const char *spec, unsigned top)
{
    bt_quotient *q[16] = {NULL};
    unsigned h[3] = {0, 0, 0};
    char text[128];
    size_t i, count = 0;

    while (bt_test_next_multiset(h, 3, top)) {
        bt_position *p;
        bt_analysis *a;
        const bt_quotient_facts *f;
        int len = snprintf(text, sizeof text, "%s", spec);
        for (i = 0; i < 3; i++)
            if (h[i] > 0)
                len += snprintf(text + len, sizeof text - (size_t)len, " %u",
                                h[i]);
        p = bt_test_parse(text, NULL, NULL);
        a = misere(text);
        f = bt_analysis_quotient(a);
        if (f == NULL)
            fail_msg("misère %s: no quotient answered", text);
        assert_true(f->upto < 16);
        if (q[f->upto] == NULL)
            q[f->upto] = bt_test_quotient(spec, f->upto, 0);
        check_facts(a, p, q[f->upto], text);
        bt_analysis_free(a);
        bt_position_free(p);
        count++;
    }
    assert_true(count > 0);
    for (i = 0; i < 16; i++)
        bt_quotient_free(q[i]);
}

static void
test_every_small_sum(void **state)
{
    static const char *const games[] = {"octal:0.77", "octal:0.07",
                                        "sub:1-3", "grundy"};
    unsigned top = bt_test_light() ? 5 : 7;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof games / sizeof *games; i++)
        every_sum(games[i], top);
}

static void
test_huge_heap(void **state)
{
    const char *text = "octal:0.75 1000000000000 + octal:0.75 7 + "
                       "octal:0.75 5";
    bt_position *p = bt_test_parse(text, NULL, NULL);
    bt_analysis *a = misere(text);
    const bt_quotient_facts *f = bt_analysis_quotient(a);
    bt_quotient *q;
    size_t as = 0;
    (void)state;
    assert_non_null(f);
    assert_true(f->proved);
    /* the analysis's proof bound, from nothing, as the quotient's */
    q = bt_test_quotient("octal:0.75", f->upto, 1);
    assert_int_equal(bt_quotient_upto(q), f->upto);
    check_facts(a, p, q, text);
    assert_non_null(bt_analysis_heap_element(a, 0, &as));
    assert_true(as <= f->upto);
    assert_true(as >= f->preperiod);
    assert_int_equal((1000000000000ULL - as) % f->period, 0);
    assert_true(bt_analysis_move_count(a) > 0);
    bt_quotient_free(q);
    bt_analysis_free(a);
    bt_position_free(p);
}

static void
test_union(void **state)
{
    const char *text = "kayles 3 + dawsons-kayles 4 + kayles 2 + "
                       "dawsons-kayles 1";
    bt_position *p = bt_test_parse(text, NULL, NULL);
    bt_analysis *a = misere(text);
    const bt_quotient_facts *f = bt_analysis_quotient(a);
    bt_game *g[2];
    bt_quotient *q = NULL;
    bt_diag d;
    size_t i, n = bt_position_size(p), x = 0, gi[4];
    (void)state;
    assert_non_null(f);
    assert_string_equal(f->game, "octal:0.07 + octal:0.77");
    assert_int_equal(f->proved, 0);
    g[0] = bt_test_game("octal:0.77");
    g[1] = bt_test_game("octal:0.07");
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_quotient_new_sum(&q, g, 2, f->upto, NULL, &d), BT_OK);
    assert_int_equal(f->order, bt_quotient_order(q));
    assert_int_equal(f->p_count, bt_quotient_p_count(q));
    for (i = 0; i < n; i++) {
        unsigned long h = mpz_get_ui(bt_position_nums(p, i)[0]);
        size_t as;
        gi[i] = strcmp(bt_game_spec(bt_position_game(p, i)),
                       bt_game_spec(bt_quotient_game_at(q, 0))) == 0
                    ? 0
                    : 1;
        assert_string_equal(bt_analysis_heap_element(a, i, &as),
                            bt_quotient_word(q, bt_quotient_heap_of(
                                                    q, gi[i], (size_t)h)));
        assert_int_equal(as, h);
        x = bt_quotient_mul(q, x, bt_quotient_heap_of(q, gi[i], (size_t)h));
    }
    assert_string_equal(f->element, bt_quotient_word(q, x));
    assert_int_equal(f->in_p, bt_quotient_is_p(q, x));
    assert_int_equal(f->in_p, bt_analysis_outcome(a) == BT_P);
    for (i = 0; i < bt_analysis_move_count(a); i++) {
        const bt_move *m = bt_analysis_move(a, i);
        size_t y = 0, j;
        for (j = 0; j < n; j++)
            if (j != m->component)
                y = bt_quotient_mul(
                    q, y,
                    bt_quotient_heap_of(q, gi[j], (size_t)mpz_get_ui(
                                                      bt_position_nums(p, j)[0])));
        for (j = 0; j < m->nto; j++)
            y = bt_quotient_mul(
                q, y,
                bt_quotient_heap_of(q, gi[m->component],
                                    (size_t)mpz_get_ui(m->to[j])));
        assert_string_equal(bt_analysis_move_element(a, i),
                            bt_quotient_word(q, y));
        assert_true(bt_quotient_is_p(q, y));
    }
    bt_quotient_free(q);
    bt_game_free(g[0]);
    bt_game_free(g[1]);
    bt_analysis_free(a);
    bt_position_free(p);
}

static void
test_no_quotient(void **state)
{
    static const char *const misere_texts[] = {
        "nim 3 4 5", "wythoff 4 6", "kayles 3 + wythoff 1 2"};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof misere_texts / sizeof *misere_texts; i++) {
        bt_analysis *a = misere(misere_texts[i]);
        if (bt_analysis_quotient(a) != NULL)
            fail_msg("misère %s: a quotient answered", misere_texts[i]);
        assert_null(bt_analysis_heap_element(a, 0, NULL));
        assert_null(bt_analysis_move_element(a, 0));
        bt_analysis_free(a);
    }
    {
        bt_position *p = bt_test_parse("kayles 7 5 4", NULL, NULL);
        bt_analysis *a = NULL;
        assert_int_equal(bt_analyze(&a, p, 0, NULL, NULL), BT_OK);
        assert_null(bt_analysis_quotient(a));
        assert_null(bt_analysis_heap_element(a, 0, NULL));
        bt_analysis_free(a);
        bt_position_free(p);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_small_sum),
        cmocka_unit_test(test_huge_heap),
        cmocka_unit_test(test_union),
        cmocka_unit_test(test_no_quotient),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
