/*
 * oracle_rule.c -- see oracle_rule.h.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle_rule.h"

typedef struct weigh {
    const bt_move *m;
    int qwin;    /* the result is an N-position */
    long rem;    /* remoteness of the result */
    long w, all; /* winning replies, all replies (1, 1 when none) */
    mpz_t delta; /* change of the total of the numbers */
} weigh;

int
oracle_rule_place_cmp(const bt_move *a, const bt_move *b)
{
    size_t k;
    if (a->component != b->component)
        return a->component < b->component ? -1 : 1;
    for (k = 0; k < a->nto && k < b->nto; k++)
        if (mpz_cmp(a->to[k], b->to[k]) != 0)
            return mpz_cmp(a->to[k], b->to[k]) < 0 ? -1 : 1;
    return a->nto < b->nto ? -1 : a->nto > b->nto;
}

int
oracle_rule_same_move(const bt_move *a, const bt_move *b)
{
    return oracle_rule_place_cmp(a, b) == 0;
}

static int
win_cmp(const weigh *a, const weigh *b)
{
    int c;
    if (a->rem != b->rem)
        return a->rem < b->rem ? -1 : 1;
    c = mpz_cmp(a->delta, b->delta);
    return c != 0 ? c : oracle_rule_place_cmp(a->m, b->m);
}

static int
delay_cmp(const weigh *a, const weigh *b)
{
    long long x = (long long)a->w * b->all, y = (long long)b->w * a->all;
    int c;
    if (a->rem != b->rem)
        return a->rem > b->rem ? -1 : 1;
    if (x != y)
        return x < y ? -1 : 1;
    c = mpz_cmp(b->delta, a->delta);
    return c != 0 ? c : oracle_rule_place_cmp(a->m, b->m);
}

int
oracle_rule_pick(oracle_search *o, const bt_position *p, int misere,
                 bt_move **moves, size_t *n, size_t *best, int *win)
{
    weigh *wv;
    size_t i, k;
    long rem;
    int rc = 0;

    (void)misere; /* the oracle search knows its convention */
    *moves = NULL;
    *n = 0;
    if (bt_position_moves(moves, n, p, NULL, NULL) != BT_OK || *n == 0 ||
        oracle_search_solve(o, p, win, &rem) != 0)
        return -1;
    wv = calloc(*n, sizeof *wv);
    if (wv == NULL)
        return -1;
    for (i = 0; i < *n && rc == 0; i++) {
        const bt_move *m = &(*moves)[i];
        const mpz_t *v = bt_position_nums(p, m->component);
        unsigned j, ar = bt_game_arity(bt_position_game(p, m->component));
        bt_position *q = NULL;
        bt_move *rep = NULL;
        size_t nrep = 0;
        wv[i].m = m;
        mpz_init(wv[i].delta);
        for (k = 0; k < m->nto; k++)
            mpz_add(wv[i].delta, wv[i].delta, m->to[k]);
        for (j = 0; j < ar; j++)
            mpz_sub(wv[i].delta, wv[i].delta, v[j]);
        if (bt_position_copy(&q, p) != BT_OK ||
            bt_position_apply(q, m) != BT_OK ||
            oracle_search_solve(o, q, &wv[i].qwin, &wv[i].rem) != 0 ||
            bt_position_moves(&rep, &nrep, q, NULL, NULL) != BT_OK)
            rc = -1;
        bt_moves_free(rep, nrep);
        wv[i].all = (long)nrep;
        wv[i].w = rc == 0 ? oracle_search_winning_count(o, q) : 0;
        if (wv[i].w < 0)
            rc = -1;
        if (nrep == 0)
            wv[i].w = wv[i].all = 1;
        bt_position_free(q);
    }
    *best = *n;
    for (i = 0; i < *n && rc == 0; i++) {
        if (*win && wv[i].qwin)
            continue; /* only the moves to P-positions win */
        if (*best == *n || (*win ? win_cmp(&wv[i], &wv[*best])
                                 : delay_cmp(&wv[i], &wv[*best])) < 0)
            *best = i;
    }
    if (*best == *n)
        rc = -1;
    for (i = 0; i < *n; i++)
        if (wv[i].m != NULL)
            mpz_clear(wv[i].delta);
    free(wv);
    return rc;
}
