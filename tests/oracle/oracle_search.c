/*
 * oracle_search.c -- see oracle_search.h.  Deliberately simple: recursion,
 * a linear-probing table keyed on bt_position_format's text.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle_search.h"

typedef struct entry {
    char *key;
    int win;
    long rem;
} entry;

struct oracle_search {
    int misere;
    entry *tab;
    size_t cap, used;
};

oracle_search *
oracle_search_new(int misere)
{
    oracle_search *o = calloc(1, sizeof *o);
    if (o == NULL)
        return NULL;
    o->misere = misere;
    o->cap = 1024;
    o->tab = calloc(o->cap, sizeof *o->tab);
    if (o->tab == NULL) {
        free(o);
        return NULL;
    }
    return o;
}

void
oracle_search_free(oracle_search *o)
{
    size_t i;
    if (o == NULL)
        return;
    for (i = 0; i < o->cap; i++)
        free(o->tab[i].key);
    free(o->tab);
    free(o);
}

static size_t
slot_of(const oracle_search *o, const char *key)
{
    size_t h = 5381, i;
    const unsigned char *s = (const unsigned char *)key;
    while (*s)
        h = h * 33 + *s++;
    for (i = h & (o->cap - 1); o->tab[i].key != NULL;
         i = (i + 1) & (o->cap - 1))
        if (strcmp(o->tab[i].key, key) == 0)
            break;
    return i;
}

static int
put(oracle_search *o, char *key, int win, long rem)
{
    size_t i;
    if (2 * (o->used + 1) > o->cap) {
        entry *old = o->tab;
        size_t oldcap = o->cap;
        o->tab = calloc(2 * oldcap, sizeof *o->tab);
        if (o->tab == NULL) {
            o->tab = old;
            return -1;
        }
        o->cap = 2 * oldcap;
        for (i = 0; i < oldcap; i++)
            if (old[i].key != NULL)
                o->tab[slot_of(o, old[i].key)] = old[i];
        free(old);
    }
    i = slot_of(o, key);
    o->tab[i].key = key;
    o->tab[i].win = win;
    o->tab[i].rem = rem;
    o->used++;
    return 0;
}

int
oracle_search_solve(oracle_search *o, const bt_position *p, int *win, long *rem)
{
    char *key = bt_position_format(p);
    bt_move *moves;
    size_t n, i;
    int any_losing = 0;
    long min_losing = 0, max_all = 0;
    size_t at;

    if (key == NULL)
        return -1;
    at = slot_of(o, key);
    if (o->tab[at].key != NULL) {
        *win = o->tab[at].win;
        *rem = o->tab[at].rem;
        free(key);
        return 0;
    }
    if (bt_position_moves(&moves, &n, p, NULL, NULL) != BT_OK) {
        free(key);
        return -1;
    }
    for (i = 0; i < n; i++) {
        bt_position *q;
        int w;
        long r;
        if (bt_position_copy(&q, p) != BT_OK ||
            bt_position_apply(q, &moves[i]) != BT_OK ||
            oracle_search_solve(o, q, &w, &r) != 0) {
            bt_position_free(q);
            bt_moves_free(moves, n);
            free(key);
            return -1;
        }
        bt_position_free(q);
        if (!w && (!any_losing || r < min_losing)) {
            min_losing = r;
            any_losing = 1;
        }
        if (r > max_all)
            max_all = r;
    }
    bt_moves_free(moves, n);
    if (n == 0) {
        *win = o->misere;
        *rem = 0;
    } else if (any_losing) {
        *win = 1;
        *rem = min_losing + 1;
    } else {
        *win = 0;
        *rem = max_all + 1;
    }
    if (put(o, key, *win, *rem) != 0) {
        free(key);
        return -1;
    }
    return 0;
}

long
oracle_search_winning_count(oracle_search *o, const bt_position *p)
{
    bt_move *moves;
    size_t n, i;
    long count = 0;
    if (bt_position_moves(&moves, &n, p, NULL, NULL) != BT_OK)
        return -1;
    for (i = 0; i < n && count >= 0; i++) {
        bt_position *q;
        int w;
        long r;
        if (bt_position_copy(&q, p) != BT_OK ||
            bt_position_apply(q, &moves[i]) != BT_OK ||
            oracle_search_solve(o, q, &w, &r) != 0)
            count = -1;
        else if (!w)
            count++;
        bt_position_free(q);
    }
    bt_moves_free(moves, n);
    return count;
}
