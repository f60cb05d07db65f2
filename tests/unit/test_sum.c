/* label: quick
 *
 * test_sum.c -- the analysis of sums of different games against the
 * brute-force oracle (tests/oracle/oracle_sum.c, written from the rules):
 * every sum of two components of small size, and random sums of three,
 * normal and misère: the outcome and the exact set of winning moves.
 *
 * A sum of many distinct heap games charges their Grundy sequences, which
 * each game keeps, to one memory budget (max_memory).
 *
 * The random part takes its seed from BT_TEST_SEED (printed on failure).
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

#include "oracle_sum.h"

typedef struct kind {
    const char *spec;
    int maxx, maxy; /* component sizes tried: x <= maxx (and y <= maxy) */
    or_rules r;
} kind;

static kind kinds[] = {
    {"nim", 5, 0, {0}},          {"wythoff", 4, 4, {0}},
    {"wythoff:2", 3, 3, {0}},    {"sub:1,3", 7, 0, {0}},
    {"kayles", 7, 0, {0}},       {"dawsons-kayles", 7, 0, {0}},
    {"grundys-game", 8, 0, {0}}, {"octal:0.137", 6, 0, {0}},
    {"octal:4.3", 6, 0, {0}},
};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

static int
setup(void **state)
{
    int i;
    bt_test_setup(state);
    for (i = 0; i < NKINDS; i++)
        if (or_rules_parse(&kinds[i].r, kinds[i].spec) != 0)
            return -1;
    return 0;
}

static int
teardown(void **state)
{
    (void)state;
    or_reset();
    return 0;
}

/* A move as text, normalised: "comp:a,b" with the heaps of a heap game
   sorted and zero heaps dropped (a zero heap has no move; whether a ruleset
   keeps it is its own choice), a Wythoff pair as it is. */
static void
norm(char *out, int comp, const int *to, int nto, int wythoff)
{
    int v[2], n = 0, i, len;
    for (i = 0; i < nto; i++)
        if (wythoff || to[i] != 0)
            v[n++] = to[i];
    if (!wythoff && n == 2 && v[0] > v[1]) {
        int t = v[0];
        v[0] = v[1];
        v[1] = t;
    }
    len = sprintf(out, "%d:", comp);
    for (i = 0; i < n; i++)
        len += sprintf(out + len, "%s%d", i ? "," : "", v[i]);
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Compares the library with the oracle on one sum; misere 0 or 1. */
static void
check_sum(const or_pos *op, int misere)
{
    char text[512], lib[512][32], ora[512][32];
    int len = 0, i, nlib = 0, nora = 0, n;
    or_move moves[1024];
    bt_position *p = NULL;
    bt_analysis *a = NULL;
    bt_diag d;
    bt_status st;
    int expect_p = or_is_p(op, misere);

    text[0] = '\0';
    for (i = 0; i < op->n; i++) {
        const kind *k = NULL;
        int j;
        for (j = 0; j < NKINDS; j++)
            if (&kinds[j].r == op->c[i].r)
                k = &kinds[j];
        len += sprintf(text + len, "%s%s %d", i ? " + " : "", k->spec,
                       op->c[i].x);
        if (op->c[i].r->kind == OR_WYTHOFF)
            len += sprintf(text + len, " %d", op->c[i].y);
    }
    memset(&d, 0, sizeof d);
    st = bt_position_parse(&p, text, NULL, NULL, &d);
    if (st != BT_OK)
        fail_msg("parse '%s': %s", text, d.message);
    st = bt_analyze(&a, p, misere ? BT_MISERE : 0, NULL, &d);
    if (st != BT_OK)
        fail_msg("analyze '%s'%s: %s", text, misere ? " misère" : "",
                 d.message);
    if ((bt_analysis_outcome(a) == BT_P) != expect_p)
        fail_msg("'%s'%s: outcome %c, oracle %c (seed %llu)", text,
                 misere ? " misère" : "",
                 bt_analysis_outcome(a) == BT_P ? 'P' : 'N',
                 expect_p ? 'P' : 'N', bt_test_seed());
    for (i = 0; i < (int)bt_analysis_move_count(a); i++) {
        const bt_move *m = bt_analysis_move(a, i);
        int to[2] = {0, 0}, j;
        assert_true(m->nto <= 2);
        for (j = 0; j < (int)m->nto; j++)
            to[j] = (int)mpz_get_ui(m->to[j]);
        norm(lib[nlib++], (int)m->component, to, (int)m->nto,
             op->c[m->component].r->kind == OR_WYTHOFF);
    }
    n = or_moves(op, moves, 1024);
    assert_true(n <= 1024);
    for (i = 0; i < n; i++) {
        or_pos q;
        or_apply(&q, op, &moves[i]);
        if (or_is_p(&q, misere))
            norm(ora[nora++], moves[i].comp, moves[i].to, moves[i].nto,
                 op->c[moves[i].comp].r->kind == OR_WYTHOFF);
    }
    qsort(lib, (size_t)nlib, sizeof lib[0], cmp_str);
    qsort(ora, (size_t)nora, sizeof ora[0], cmp_str);
    if (nlib != nora)
        fail_msg("'%s'%s: %d winning moves, oracle %d", text,
                 misere ? " misère" : "", nlib, nora);
    for (i = 0; i < nlib; i++)
        if (strcmp(lib[i], ora[i]) != 0)
            fail_msg("'%s'%s: move %s, oracle %s", text,
                     misere ? " misère" : "", lib[i], ora[i]);
    bt_analysis_free(a);
    bt_position_free(p);
}

static void
set_comp(or_comp *c, const kind *k, int x, int y)
{
    c->r = &k->r;
    c->x = x;
    c->y = k->r.kind == OR_WYTHOFF ? y : 0;
}

/* Every sum of two components of every pair of kinds. */
static void
test_pairs(void **state)
{
    int i, j, x1, y1, x2, y2, misere;
    (void)state;
    for (i = 0; i < NKINDS; i++)
        for (j = i; j < NKINDS; j++)
            for (x1 = 0; x1 <= kinds[i].maxx; x1++)
                for (y1 = 0; y1 <= kinds[i].maxy; y1++)
                    for (x2 = 0; x2 <= kinds[j].maxx; x2++)
                        for (y2 = 0; y2 <= kinds[j].maxy; y2++)
                            for (misere = 0; misere < 2; misere++) {
                                or_pos p;
                                p.n = 2;
                                set_comp(&p.c[0], &kinds[i], x1, y1);
                                set_comp(&p.c[1], &kinds[j], x2, y2);
                                check_sum(&p, misere);
                            }
}

/* Random sums of three components. */
static void
test_triples(void **state)
{
    int t, c;
    (void)state;
    for (t = 0; t < 600; t++) {
        or_pos p;
        p.n = 3;
        for (c = 0; c < 3; c++) {
            const kind *k = &kinds[bt_test_rnd(NKINDS)];
            set_comp(&p.c[c], k, (int)bt_test_rnd((unsigned)k->maxx + 1),
                     (int)bt_test_rnd((unsigned)k->maxy + 1));
        }
        check_sum(&p, (int)bt_test_rnd(2));
    }
}

/* Misère play past the search bound is an error, never a guess. */
static void
test_misere_limit(void **state)
{
    bt_position *p = NULL;
    bt_analysis *a = NULL;
    bt_limits lim;
    bt_diag d;
    (void)state;
    bt_limits_default(&lim);
    lim.max_search = 50;
    assert_int_equal(
        bt_position_parse(&p, "kayles 30 + nim 7 9", NULL, &lim, &d), BT_OK);
    assert_int_equal(bt_analyze(&a, p, BT_MISERE, &lim, &d), BT_ELIMIT);
    assert_null(a);
    assert_non_null(strstr(d.message, "too large for exact misère"));
    bt_position_free(p);
}

/*
 * 300 distinct subtraction games, each keeping a sequence of about 70 kB
 * (bt__heap_cache_bytes), under max_memory 4 MB: each sequence alone fits,
 * so before the charge the sum passed while holding 20 MB; now BT_ELIMIT
 * naming the distinct games.  Under the default budget it passes.
 * CPU: about 0.1 s.
 */
static void
test_distinct_games_charged(void **state)
{
    char *text = malloc(300 * 32), *at = text;
    bt_position *p;
    bt_analysis *a = NULL;
    bt_limits lim;
    bt_diag d;
    unsigned i;
    (void)state;
    assert_non_null(text);
    for (i = 1; i <= 300; i++)
        at += sprintf(at, "%ssub:1-%u 40", i > 1 ? " + " : "", i);
    p = bt_test_parse(text, NULL, NULL);
    bt_limits_default(&lim);
    lim.max_memory = (size_t)4 << 20;
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_analyze(&a, p, BT_NO_MOVES, &lim, &d), BT_ELIMIT);
    assert_null(a);
    assert_non_null(strstr(d.message, "distinct games"));
    assert_non_null(strstr(d.message, "max_memory"));
    bt_position_free(p);
    /* fresh games (the caches above are warm): the default budget holds */
    p = bt_test_parse(text, NULL, NULL);
    assert_int_equal(bt_analyze(&a, p, BT_NO_MOVES, NULL, &d), BT_OK);
    bt_analysis_free(a);
    bt_position_free(p);
    free(text);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_triples),
        cmocka_unit_test(test_misere_limit),
        cmocka_unit_test(test_distinct_games_charged),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
