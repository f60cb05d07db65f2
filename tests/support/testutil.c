/*
 * testutil.c -- see testutil.h.
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

#include "oracle_search.h"

static unsigned long long first = 20261122ULL, state_ = 20261122ULL;

int
bt_test_setup(void **state)
{
    const char *env = getenv("BT_TEST_SEED");
    (void)state;
    first = env ? strtoull(env, NULL, 10) : 20261122ULL;
    state_ = first;
    return 0;
}

unsigned long long
bt_test_seed(void)
{
    return first;
}

unsigned
bt_test_rnd(unsigned n)
{
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((state_ >> 33) % n);
}

bt_game *
bt_test_game(const char *spec)
{
    bt_game *g = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_game_new(&g, spec, &d) != BT_OK)
        fail_msg("bt_game_new(%s): %s", spec, d.message);
    return g;
}

void
bt_test_game_refused(const char *text, const char *msg, long offset)
{
    bt_game *g = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_game_new(&g, text, &d) != BT_EPARSE)
        fail_msg("%s: accepted", text);
    assert_null(g);
    if (strstr(d.message, msg) == NULL)
        fail_msg("%s: message '%s' lacks '%s'", text, d.message, msg);
    assert_null(strchr(d.message, '\n'));
    if (offset >= 0 && (!d.has_offset || (long)d.offset != offset))
        fail_msg("%s: offset %zu, expected %ld", text, d.offset, offset);
}

bt_position *
bt_test_parse(const char *text, const char *game, const bt_limits *lim)
{
    bt_position *p = NULL;
    bt_game *g = game != NULL ? bt_test_game(game) : NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_position_parse(&p, text, g, lim, &d) != BT_OK) {
        bt_game_free(g);
        fail_msg("parse '%s': %s", text, d.message);
    }
    bt_game_free(g);
    return p;
}

int
bt_test_light(void)
{
    const char *env = getenv("BT_TEST_LIGHT");
    return env != NULL && *env != '\0' && strcmp(env, "0") != 0;
}

void
bt_test_each_position(const char *fmt, int nums, int below,
                      void (*visit)(void *ud, const bt_test_pos *at),
                      void *ud)
{
    int misere;
    assert_true(nums >= 1 && nums <= 5);
    for (misere = 0; misere < 2; misere++) {
        oracle_search *o = oracle_search_new(misere);
        int v[5] = {0}, i;
        assert_non_null(o);
        for (;;) {
            char text[160];
            bt_test_pos at;
            snprintf(text, sizeof text, fmt, v[0], v[1], v[2], v[3], v[4]);
            at.text = text;
            at.p = bt_test_parse(text, "nim", NULL);
            at.misere = misere;
            at.oracle = o;
            visit(ud, &at);
            bt_position_free(at.p);
            for (i = 0; i < nums && ++v[i] == below; i++)
                v[i] = 0;
            if (i == nums)
                break;
        }
        oracle_search_free(o);
    }
}

void
bt_test_list_add(bt_test_list *l, size_t comp, const unsigned *parts,
                 size_t n)
{
    size_t i, len, size = sizeof l->items[0];
    assert_true(l->n < sizeof l->items / sizeof l->items[0]);
    len = (size_t)snprintf(l->items[l->n], size, "%zu:", comp);
    if (n == 0)
        snprintf(l->items[l->n] + len, size - len, "-");
    for (i = 0; i < n; i++)
        len += (size_t)snprintf(l->items[l->n] + len, size - len, "%s%u",
                                i ? "," : "", parts[i]);
    l->n++;
}

static int
cmp_uint(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

void
bt_test_list_add_move(bt_test_list *l, const bt_move *m)
{
    unsigned parts[3];
    size_t j;
    assert_true(m->nto <= 3);
    for (j = 0; j < m->nto; j++)
        parts[j] = (unsigned)mpz_get_ui(m->to[j]);
    qsort(parts, m->nto, sizeof *parts, cmp_uint);
    bt_test_list_add(l, m->component, parts, m->nto);
}

static int
cmp_items(const void *a, const void *b)
{
    return strcmp(a, b);
}

void
bt_test_list_check(bt_test_list *want, bt_test_list *got, const char *what)
{
    size_t i, size = sizeof want->items[0];
    qsort(want->items, want->n, size, cmp_items);
    qsort(got->items, got->n, size, cmp_items);
    for (i = 0; i < want->n && i < got->n; i++)
        if (strcmp(want->items[i], got->items[i]) != 0)
            fail_msg("%s: move %s, the oracle has %s", what, got->items[i],
                     want->items[i]);
    if (want->n != got->n)
        fail_msg("%s: %zu moves, the oracle has %zu", what, got->n, want->n);
}
