/*
 * misere_agree.c -- a misère analysis checked against brute force (see
 * misere_agree.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <bouton.h>

#include "misere_agree.h"
#include "testutil.h"

#define MAX_MOVES 1024 /* distinct winning moves of one sum, at most */

/* The options of one heap (oh_options), listed. */
typedef struct optlist {
    unsigned parts[64][2];
    size_t nparts[64];
    size_t n;
} optlist;

static void
collect(void *ud, const unsigned *parts, size_t nparts)
{
    optlist *o = ud;
    size_t i;
    assert_true(o->n < 64 && nparts <= 2);
    for (i = 0; i < nparts; i++)
        o->parts[o->n][i] = parts[i];
    o->nparts[o->n] = nparts;
    o->n++;
}

/* A move as a sorted key: component, then the heaps it leaves (0s out). */
typedef struct mkey {
    size_t comp, n;
    unsigned part[2];
} mkey;

static void
mkey_set(mkey *k, size_t comp, const unsigned *parts, size_t n)
{
    size_t i;
    k->comp = comp;
    k->n = 0;
    for (i = 0; i < n; i++)
        if (parts[i] > 0)
            k->part[k->n++] = parts[i];
    if (k->n == 2 && k->part[0] > k->part[1]) {
        unsigned t = k->part[0];
        k->part[0] = k->part[1];
        k->part[1] = t;
    }
}

static int
mkey_find(const mkey *set, size_t n, const mkey *k)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (set[i].comp == k->comp && set[i].n == k->n &&
            (k->n < 1 || set[i].part[0] == k->part[0]) &&
            (k->n < 2 || set[i].part[1] == k->part[1]))
            return 1;
    return 0;
}

/* Adds k to set[0..*n-1] unless it is there. */
static void
mkey_add(mkey *set, size_t *n, const mkey *k)
{
    if (!mkey_find(set, *n, k)) {
        assert_true(*n < MAX_MOVES);
        set[(*n)++] = *k;
    }
}

static double
cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bt_analysis *
bt_test_misere_agree(const char *spec, oh_game *og, oh_misere *b,
                     const unsigned *c, size_t nc, unsigned flags, double *cpu)
{
    static mkey win[MAX_MOVES], listed[MAX_MOVES];
    char text[256];
    size_t k, j, nwin = 0, nlisted = 0, len;
    bt_position *p;
    bt_analysis *a;
    bt_diag d;
    int want_p;
    double t0;
    assert_true(nc <= 6);
    len = (size_t)snprintf(text, sizeof text, "%s", spec);
    for (k = 0; k < nc; k++)
        len += (size_t)snprintf(text + len, sizeof text - len, " %u", c[k]);
    assert_true(len < sizeof text);
    want_p = oh_misere_is_p(b, c, nc);
    assert_true(want_p >= 0);
    /* the winning options by brute force */
    for (k = 0; k < nc; k++) {
        optlist o;
        o.n = 0;
        oh_options(og, c[k], collect, &o);
        for (j = 0; j < o.n; j++) {
            unsigned r[8];
            size_t m = 0, t;
            mkey key;
            for (t = 0; t < nc; t++)
                if (t != k)
                    r[m++] = c[t];
            for (t = 0; t < o.nparts[j]; t++)
                r[m++] = o.parts[j][t];
            if (oh_misere_is_p(b, r, m) != 1)
                continue;
            mkey_set(&key, k, o.parts[j], o.nparts[j]);
            mkey_add(win, &nwin, &key);
        }
    }
    p = bt_test_parse(text, NULL, NULL);
    memset(&d, 0, sizeof d);
    t0 = cpu_seconds();
    if (bt_analyze(&a, p, flags | BT_MISERE, NULL, &d) != BT_OK)
        fail_msg("%s: %s", text, d.message);
    if (cpu != NULL)
        *cpu = cpu_seconds() - t0;
    if ((bt_analysis_outcome(a) == BT_P) != want_p)
        fail_msg("%s: analysis %c, brute force %c", text,
                 bt_analysis_outcome(a) == BT_P ? 'P' : 'N',
                 want_p ? 'P' : 'N');
    assert_true(bt_analysis_moves_complete(a));
    for (k = 0; k < bt_analysis_move_count(a); k++) {
        const bt_move *mv = bt_analysis_move(a, k);
        unsigned parts[2] = {0, 0};
        mkey key;
        assert_true(mv->nto <= 2);
        for (j = 0; j < mv->nto; j++)
            parts[j] = (unsigned)mpz_get_ui(mv->to[j]);
        mkey_set(&key, mv->component, parts, mv->nto);
        if (!mkey_find(win, nwin, &key))
            fail_msg("%s: the analysis lists move %zu (%s), which brute "
                     "force says is not winning",
                     text, k + 1, mv->text ? mv->text : "");
        mkey_add(listed, &nlisted, &key);
    }
    if (nlisted != nwin)
        fail_msg("%s: the analysis lists %zu distinct winning moves, brute "
                 "force finds %zu",
                 text, nlisted, nwin);
    bt_position_free(p);
    return a;
}
