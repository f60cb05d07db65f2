/*
 * heapgame.c -- the ruleset hooks that the heap families (sub, octal, tb,
 * grundy) share: a component is one heap, its Grundy value comes from the
 * family's sequence (sequence.c), computed on demand and read through its
 * proved period for heaps of any size, and its options are walked from the
 * digits of the code (or the intervals of a subtraction set).
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/heapgame.h"

/* ----------------------------------------------- the ruleset hooks */

void
bt__heap_fini(bt_game *g)
{
    bt__heap_game *hg = g->state;
    if (hg == NULL)
        return;
    bt_sequence_free(hg->seq);
    bt__heap_rules_clear(&hg->rules);
    free(hg);
    g->state = NULL;
}

bt__heap_game *
bt__heap_state(const bt_game *g)
{
    /* the heap hook's contract (core/core.h) */
    assert(g->rules->arity == 1 && (g->rules->flags & BT__RS_HEAPS));
    return g->state;
}

/*
 * G(n) of game g from its cache, computing on demand: up to n itself when n
 * is within lim->max_grundy (stopping early if the periodicity is proved on
 * the way), else until proved within max_grundy values.
 */
static bt_status
heap_value(bt_game *g, unsigned *v, const mpz_t n, const bt_limits *lim,
           bt_diag *diag)
{
    bt__heap_game *hg = g->state;
    bt_sequence *s;
    bt_status st;
    char buf[64];

    if (hg->seq == NULL &&
        bt__seq_create(&hg->seq, &hg->rules, BT_SEQ_AUTO) != BT_OK)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    s = hg->seq;
    if (bt__seq_lookup(s, v, n) == BT_OK)
        return BT_OK;
    if (mpz_fits_ulong_p(n) && mpz_get_ui(n) < lim->max_grundy) {
        /* grow geometrically, so that many queries of growing heaps cost
           no more than one */
        size_t want = 64, need = (size_t)mpz_get_ui(n) + 1;
        while (want < need)
            want *= 2;
        if (want > lim->max_grundy)
            want = lim->max_grundy;
        st = bt_sequence_prove(s, want, lim, diag);
    } else if (hg->rules.provable)
        st = bt_sequence_prove(s, lim->max_grundy, lim, diag);
    else
        st = BT_OK;
    if (st != BT_OK)
        return st;
    if (bt__seq_lookup(s, v, n) == BT_OK)
        return BT_OK;
    return bt__fail(diag, BT_ERANGE,
                    "heap %s is beyond the computed limit: G of %s is "
                    "computed only for heaps below %zu (the max_grundy "
                    "limit) and its periodicity is %s",
                    bt__heap_text(buf, n), g->spec, lim->max_grundy,
                    hg->rules.provable ? "not proved within that limit"
                    : hg->rules.blen > 0
                        ? "not covered by any theorem (an infinite code)"
                        : "an open problem");
}

/*
 * What a game's cached sequence holds, estimated as bt__budget counts (what
 * the code asks malloc for), from what sequence.c makes: the values (16
 * bits each, grown by doubling: up to twice the length), the values seen
 * by a mex (BT__HEAP_MAXV bytes), three words per split, the counts of the
 * sliding windows of a large subtraction set (from 33 elements: 5 bytes a
 * value), and, once a sequence with splits is long (past its first review,
 * at 512 values), the tables of the rare-value method (11 bytes a
 * value).  A sum of 1 000 distinct codes of heaps of
 * 300 holds about 67 kB a game by mallinfo; this says 66 kB.
 */
size_t
bt__heap_cache_bytes(const bt_game *g)
{
    const bt__heap_game *hg;
    size_t len, bytes;
    if ((hg = bt__heap_of(g)) == NULL)
        return 0;
    if (hg->seq == NULL)
        return 0;
    len = bt_sequence_length(hg->seq);
    bytes = BT__HEAP_MAXV + 64 + 3 * sizeof(size_t) * hg->rules.nsplit +
            2 * sizeof(uint16_t) * len;
    if (hg->rules.nint > 0 && hg->rules.setsize >= 33) /* the windows */
        bytes += (sizeof(uint32_t) + 1) * BT__HEAP_MAXV;
    if (len > 512 && hg->rules.nsplit > 0 && !hg->rules.general)
        bytes += (size_t)11 * BT__HEAP_MAXV; /* the rare-value method */
    return bytes;
}

bt_status
bt__heap_grundy(bt_game *g, mpz_t rop, const mpz_t *c, const bt_limits *lim,
                bt_diag *diag)
{
    unsigned v;
    bt_status st = heap_value(g, &v, c[0], bt__limits(lim), diag);
    if (st == BT_OK)
        mpz_set_ui(rop, v);
    return st;
}

/*
 * The options of a heap of n, in order of k (the counters removed), each
 * once: nothing left, one heap, then the splits (a, rest - a) with a <= the
 * other part.  With `target` non-NULL only those of that value are emitted.
 */
typedef struct walker {
    bt_game *g;
    const bt__heap_rules *r;
    bt__emit emit;
    void *ud;
    const mpz_t *target; /* NULL: every option */
    unsigned tv;
    const bt_limits *lim;
    bt_diag *diag;
    mpz_t to[3];
    size_t ticks; /* options examined: polled every 4096 */
} walker;

/* Counts one option examined and polls every 4096: a walk is bounded by
   max_search options (walk counts them first), each at most a lookup and
   the receiver's work, but max_search is the caller's to raise. */
static bt_status
walk_tick(walker *wk)
{
    if ((++wk->ticks & 4095) != 0 || bt__poll(wk->lim) == BT_OK)
        return BT_OK;
    return bt__fail(wk->diag, BT_EINTR, "the time budget ran out");
}

static bt_status walk_leave(walker *wk, const mpz_t n, size_t k);

/* G(x) for x below the computed length (walk makes sure of it). */
static unsigned
walk_g(const walker *wk, size_t x)
{
    return bt__seq_at(((const bt__heap_game *)wk->g->state)->seq, x);
}

/* a + b with saturation at SIZE_MAX */
static size_t
sat_add(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/* The options of a heap of n by the digits of its code (a subtraction
   set has intervals instead): counted, or emitted when count is NULL. */
static bt_status
walk_digits(walker *wk, const mpz_t n, size_t nn, size_t *count)
{
    const bt__heap_rules *r = wk->r;
    size_t k, top = r->blen > 0 || r->t > nn ? nn : r->t;
    bt_status st = BT_OK;
    for (k = 0; k <= top && st == BT_OK; k++) {
        unsigned d = bt__heap_digit(r, k);
        size_t rest = nn - k, a, b;
        if (d == 0)
            continue;
        if (count != NULL) {
            *count = sat_add(*count, (d & 1u) && rest == 0);
            *count = sat_add(*count, (d & 2u) && k > 0 && rest > 0);
            if ((d & 4u) && rest >= 2)
                *count = sat_add(*count, r->unequal ? (rest - 1) / 2
                                                    : rest / 2);
            if ((d & 8u) && rest >= 3) /* partitions into 3 parts */
                *count = sat_add(*count, rest > ((size_t)1 << 31)
                                             ? SIZE_MAX
                                             : (rest * rest + 6) / 12);
            continue;
        }
        if ((d & 1u) && rest == 0)
            st = walk_leave(wk, n, k);
        if (st == BT_OK && (d & 2u) && k > 0 && rest > 0)
            st = walk_leave(wk, n, k);
        if (st == BT_OK && (d & 4u) && rest >= 2) {
            size_t h = r->unequal ? (rest - 1) / 2 : rest / 2;
            for (a = 1; a <= h && st == BT_OK; a++) {
                if ((st = walk_tick(wk)) != BT_OK)
                    break;
                if (wk->target != NULL &&
                    (walk_g(wk, a) ^ walk_g(wk, rest - a)) != wk->tv)
                    continue;
                mpz_set_ui(wk->to[0], (unsigned long)a);
                mpz_set_ui(wk->to[1], (unsigned long)(rest - a));
                st = wk->emit(wk->ud, (const mpz_t *)wk->to, 2);
            }
        }
        if (st == BT_OK && (d & 8u) && rest >= 3) {
            for (a = 1; 3 * a <= rest && st == BT_OK; a++)
                for (b = a; 2 * b <= rest - a && st == BT_OK; b++) {
                    size_t c = rest - a - b;
                    if ((st = walk_tick(wk)) != BT_OK)
                        break;
                    if (wk->target != NULL &&
                        (walk_g(wk, a) ^ walk_g(wk, b) ^ walk_g(wk, c)) !=
                            wk->tv)
                        continue;
                    mpz_set_ui(wk->to[0], (unsigned long)a);
                    mpz_set_ui(wk->to[1], (unsigned long)b);
                    mpz_set_ui(wk->to[2], (unsigned long)c);
                    st = wk->emit(wk->ud, (const mpz_t *)wk->to, 3);
                }
        }
    }
    return st;
}

static bt_status
walk_leave(walker *wk, const mpz_t n, size_t k)
{
    /* take k from n (k <= n), leaving 0 or 1 heap */
    bt_status st;
    if ((st = walk_tick(wk)) != BT_OK)
        return st;
    mpz_sub_ui(wk->to[0], n, (unsigned long)k);
    if (mpz_sgn(wk->to[0]) == 0) {
        if (wk->target != NULL && wk->tv != 0)
            return BT_OK;
        return wk->emit(wk->ud, (const mpz_t *)wk->to, 0);
    }
    if (wk->target != NULL) {
        unsigned v;
        st = heap_value(wk->g, &v, wk->to[0], wk->lim, wk->diag);
        if (st != BT_OK)
            return st;
        if (v != wk->tv)
            return BT_OK;
    }
    return wk->emit(wk->ud, (const mpz_t *)wk->to, 1);
}

static bt_status
walk(walker *wk, const mpz_t n)
{
    const bt__heap_rules *r = wk->r;
    const bt_limits *lim = wk->lim;
    size_t count = 0, nn = 0, i, k;
    bt_status st = BT_OK;
    char buf[64];
    /* small: a machine integer whose options can be counted; a heap with
       splits and more than 2 max_search + t + 2 counters has more than
       max_search options whatever the code */
    int small = mpz_fits_ulong_p(n) && mpz_get_ui(n) < SIZE_MAX / 4 &&
                ((r->nsplit == 0 && !r->general) ||
                 lim->max_search >= SIZE_MAX / 8 ||
                 mpz_get_ui(n) <= 2 * lim->max_search + r->t + 2);

    /* count the options first: more than max_search is refused */
    if (small && r->nint > 0) {
        nn = (size_t)mpz_get_ui(n);
        for (i = 0; i < r->nint && r->lo[i] <= nn; i++)
            count += (r->hi[i] < nn ? r->hi[i] : nn) - r->lo[i] + 1;
    } else if (small) {
        nn = (size_t)mpz_get_ui(n);
        walk_digits(wk, n, nn, &count);
    } else if (r->nsplit == 0 && !r->general) {
        count = r->none + r->setsize; /* n > t: every single applies */
    } else {
        count = SIZE_MAX;
    }
    if (count > lim->max_search && wk->target != NULL) {
        /* when the values are out of reach, say that rather than the
           number of moves */
        unsigned v;
        st = heap_value(wk->g, &v, n, lim, wk->diag);
        if (st != BT_OK)
            return st;
    }
    if (count > lim->max_search)
        return bt__fail(wk->diag, BT_ELIMIT,
                        "heap %s of %s has more than %zu moves to examine "
                        "(the max_search limit)",
                        bt__heap_text(buf, n), wk->g->spec, lim->max_search);
    if (wk->target != NULL) {
        if (mpz_cmp_ui(*wk->target, BT__HEAP_MAXV) >= 0)
            return BT_OK; /* no option has so large a value */
        wk->tv = (unsigned)mpz_get_ui(*wk->target);
    }
    if (!small) {
        /* a huge heap without splits: every k of the rules applies */
        for (i = 0; i < r->none && st == BT_OK; i++)
            st = walk_leave(wk, n, r->one[i]);
        for (i = 0; i < r->nint && st == BT_OK; i++)
            for (k = r->lo[i]; k <= r->hi[i] && st == BT_OK; k++)
                st = walk_leave(wk, n, k);
        return st;
    }
    /* make sure G is known below n before reading the cache directly */
    if (wk->target != NULL && (r->nsplit > 0 || r->general) && nn >= 2) {
        unsigned v;
        mpz_sub_ui(wk->to[0], n, 1);
        st = heap_value(wk->g, &v, wk->to[0], lim, wk->diag);
        if (st != BT_OK)
            return st;
    }
    if (r->nint > 0) {
        for (i = 0; i < r->nint && r->lo[i] <= nn && st == BT_OK; i++)
            for (k = r->lo[i]; k <= r->hi[i] && k <= nn && st == BT_OK; k++)
                st = walk_leave(wk, n, k);
        return st;
    }
    return walk_digits(wk, n, nn, NULL);
}

static bt_status
walk_run(bt_game *g, const mpz_t *c, const mpz_t *target, bt__emit emit,
         void *ud, const bt_limits *lim, bt_diag *diag)
{
    bt__heap_game *hg = g->state;
    walker wk;
    bt_status st;
    wk.g = g;
    wk.r = &hg->rules;
    wk.emit = emit;
    wk.ud = ud;
    wk.target = target;
    wk.tv = 0;
    wk.lim = bt__limits(lim);
    wk.diag = diag;
    wk.ticks = 0;
    mpz_init(wk.to[0]);
    mpz_init(wk.to[1]);
    mpz_init(wk.to[2]);
    st = walk(&wk, c[0]);
    mpz_clear(wk.to[0]);
    mpz_clear(wk.to[1]);
    mpz_clear(wk.to[2]);
    return st;
}

bt_status
bt__heap_options(bt_game *g, const mpz_t *c, bt__emit emit, void *ud,
                 const bt_limits *lim, bt_diag *diag)
{
    return walk_run(g, c, NULL, emit, ud, lim, diag);
}

/*
 * Whether the heaps `to` (nto of them) are what one move leaves from a
 * heap of c[0], decided from the rules without listing the moves (a move
 * on a heap of 10^12 counters): the move removes k = c[0] - (the sum of
 * to) counters, and the code allows it when digit d_k has the bit 2^nto
 * (a subtraction set: k in the set, one heap or none left), with k > 0
 * when one heap is left, and two different heaps for Grundy's game.  -1
 * (cannot tell) only for a k past a machine integer in an infinite code.
 */
int
bt__heap_is_option(bt_game *g, const mpz_t *c, size_t n, const mpz_t *to,
                   size_t nto)
{
    const bt__heap_rules *r = &((const bt__heap_game *)g->state)->rules;
    mpz_t k;
    size_t i, kk = 0, j;
    int fits, yes = 0;
    (void)n;
    if (nto > 3)
        return 0;
    mpz_init_set(k, c[0]);
    for (i = 0; i < nto; i++) {
        if (mpz_sgn(to[i]) <= 0) {
            mpz_clear(k);
            return 0;
        }
        mpz_sub(k, k, to[i]);
    }
    fits = mpz_sgn(k) >= 0 && mpz_fits_ulong_p(k) &&
           mpz_get_ui(k) < SIZE_MAX;
    if (fits)
        kk = (size_t)mpz_get_ui(k);
    if (mpz_sgn(k) < 0) {
        yes = 0;
    } else if (r->nint > 0) { /* a subtraction set */
        for (j = 0; fits && j < r->nint; j++)
            if (r->lo[j] <= kk && kk <= r->hi[j])
                yes = nto <= 1 && kk > 0;
    } else if (!fits) {
        yes = r->blen > 0 ? -1 : 0; /* k > t in a finite code */
    } else {
        unsigned d = bt__heap_digit(r, kk);
        yes = (d >> nto) & 1u;
        if (nto == 1 && kk == 0)
            yes = 0;
        if (nto == 2 && r->unequal && mpz_cmp(to[0], to[1]) == 0)
            yes = 0;
    }
    mpz_clear(k);
    return yes;
}

bt_status
bt__heap_moves_to(bt_game *g, const mpz_t *c, const mpz_t target, bt__emit emit,
                  void *ud, const bt_limits *lim, bt_diag *diag)
{
    /* target is a pointer here (an array parameter decays): copy it into
       a real mpz_t so that walk_run gets an array of one */
    mpz_t t;
    bt_status st;
    mpz_init_set(t, target);
    st = walk_run(g, c, (const mpz_t *)&t, emit, ud, lim, diag);
    mpz_clear(t);
    return st;
}

void
bt__heap_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
                  const mpz_t *to, size_t nto)
{
    mpz_t k;
    size_t i;
    (void)g;
    mpz_init_set(k, c[0]);
    for (i = 0; i < nto; i++)
        mpz_sub(k, k, to[i]);
    if (nto == 0) {
        bt__buf_puts(out, "take all ");
        bt__buf_mpz(out, c[0]);
        bt__buf_printf(out, " from heap %zu", comp + 1);
    } else if (nto == 1) {
        bt__buf_puts(out, "take ");
        bt__buf_mpz(out, k);
        bt__buf_printf(out, " from heap %zu", comp + 1);
    } else {
        if (mpz_sgn(k) == 0) {
            bt__buf_printf(out, "split heap %zu into ", comp + 1);
        } else {
            bt__buf_puts(out, "take ");
            bt__buf_mpz(out, k);
            bt__buf_printf(out, " from heap %zu and split the rest into ",
                           comp + 1);
        }
        for (i = 0; i < nto; i++) {
            if (i > 0)
                bt__buf_puts(out, i + 1 == nto ? " and " : ", ");
            bt__buf_mpz(out, to[i]);
        }
    }
    mpz_clear(k);
}
