/*
 * oracle_nim.c -- Nim solved by searching its game graph (see the header).
 *
 * The memo is indexed by the number of piles and the pile sizes in
 * non-decreasing order (the piles are interchangeable, so a position and
 * its permutations have one value).  Entries: 0 unknown, 1 P, 2 N for the
 * outcome; -1 unknown, else the value, for the Grundy values.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle_nim.h"

#define MAX_ENTRIES ((size_t)1 << 26)
#define MAX_PILES 64

struct oracle_nim {
    int misere;
    size_t max_piles;
    unsigned max_pile;
    size_t offset[MAX_PILES + 2]; /* where positions of n piles begin */
    unsigned char *outcome;
    long *grundy;
};

oracle_nim *
oracle_nim_new(int misere, size_t max_piles, unsigned max_pile)
{
    oracle_nim *o;
    size_t n, total = 0, block = 1, i;
    if (max_piles > MAX_PILES)
        return NULL;
    o = calloc(1, sizeof *o);
    if (o == NULL)
        return NULL;
    o->misere = misere;
    o->max_piles = max_piles;
    o->max_pile = max_pile;
    for (n = 0; n <= max_piles; n++) {
        o->offset[n] = total;
        if (block > MAX_ENTRIES || total + block > MAX_ENTRIES) {
            free(o);
            return NULL;
        }
        total += block;
        if (n < max_piles)
            block *= (size_t)max_pile + 1;
    }
    o->offset[max_piles + 1] = total;
    o->outcome = calloc(total, 1);
    o->grundy = malloc(total * sizeof *o->grundy);
    if (o->outcome == NULL || o->grundy == NULL) {
        oracle_nim_free(o);
        return NULL;
    }
    for (i = 0; i < total; i++)
        o->grundy[i] = -1;
    return o;
}

void
oracle_nim_free(oracle_nim *o)
{
    if (o == NULL)
        return;
    free(o->outcome);
    free(o->grundy);
    free(o);
}

static void
sort_piles(unsigned *p, size_t n)
{
    size_t i, j;
    for (i = 1; i < n; i++) {
        unsigned v = p[i];
        for (j = i; j > 0 && p[j - 1] > v; j--)
            p[j] = p[j - 1];
        p[j] = v;
    }
}

/* The memo index of a sorted position. */
static size_t
key(const oracle_nim *o, const unsigned *sorted, size_t n)
{
    size_t k = 0, i;
    for (i = 0; i < n; i++)
        k = k * ((size_t)o->max_pile + 1) + sorted[i];
    return o->offset[n] + k;
}

static int
in_bounds(const oracle_nim *o, const unsigned *piles, size_t n)
{
    size_t i;
    if (n > o->max_piles)
        return 0;
    for (i = 0; i < n; i++)
        if (piles[i] > o->max_pile)
            return 0;
    return 1;
}

/* 1 if the sorted position is P.  The child of a move is re-sorted. */
static int
solve(oracle_nim *o, const unsigned *sorted, size_t n)
{
    size_t k = key(o, sorted, n), i;
    unsigned child[MAX_PILES], t;
    int any_move = 0, p = 1;
    if (o->outcome[k] != 0)
        return o->outcome[k] == 1;
    for (i = 0; i < n && p; i++) {
        if (i > 0 && sorted[i] == sorted[i - 1])
            continue; /* the same moves as the pile before */
        for (t = 0; t < sorted[i] && p; t++) {
            any_move = 1;
            memcpy(child, sorted, n * sizeof *child);
            child[i] = t;
            sort_piles(child, n);
            if (solve(o, child, n))
                p = 0; /* a move to a P-position: N */
        }
    }
    /* No counter left: the player to move has lost (normal play) or his
       opponent took the last counter and lost (misère play). */
    if (!any_move)
        p = !o->misere;
    o->outcome[k] = p ? 1 : 2;
    return p;
}

/* The Grundy value: the least value no option has (mex). */
static long
grundy(oracle_nim *o, const unsigned *sorted, size_t n)
{
    size_t k = key(o, sorted, n), i;
    unsigned child[MAX_PILES], t;
    unsigned char *seen;
    size_t nopt = 0;
    long g;
    if (o->grundy[k] >= 0)
        return o->grundy[k];
    for (i = 0; i < n; i++)
        nopt += sorted[i];
    seen = calloc(nopt + 1, 1);
    if (seen == NULL)
        abort(); /* tests only */
    for (i = 0; i < n; i++) {
        for (t = 0; t < sorted[i]; t++) {
            memcpy(child, sorted, n * sizeof *child);
            child[i] = t;
            sort_piles(child, n);
            g = grundy(o, child, n);
            if ((size_t)g <= nopt)
                seen[g] = 1;
        }
    }
    for (g = 0; seen[g]; g++)
        ;
    free(seen);
    o->grundy[k] = g;
    return g;
}

int
oracle_nim_is_p(oracle_nim *o, const unsigned *piles, size_t n)
{
    unsigned s[MAX_PILES];
    if (!in_bounds(o, piles, n))
        return -1;
    memcpy(s, piles, n * sizeof *s);
    sort_piles(s, n);
    return solve(o, s, n);
}

long
oracle_nim_winning_moves(oracle_nim *o, const unsigned *piles, size_t n,
                         oracle_nim_move *out, size_t cap)
{
    unsigned child[MAX_PILES];
    size_t i;
    unsigned t;
    long count = 0;
    if (!in_bounds(o, piles, n))
        return -1;
    for (i = 0; i < n; i++) {
        for (t = 0; t < piles[i]; t++) {
            memcpy(child, piles, n * sizeof *child);
            child[i] = t;
            if (oracle_nim_is_p(o, child, n) == 1) {
                if ((size_t)count < cap) {
                    out[count].pile = i;
                    out[count].to = t;
                }
                count++;
            }
        }
    }
    return count;
}

long
oracle_nim_grundy(oracle_nim *o, const unsigned *piles, size_t n)
{
    unsigned s[MAX_PILES];
    if (o->misere || !in_bounds(o, piles, n))
        return -1;
    memcpy(s, piles, n * sizeof *s);
    sort_piles(s, n);
    return grundy(o, s, n);
}
