/*
 * sequence.c -- Grundy sequences of heap games (the ruleset hooks the
 * heap families share, which ask it for values, are in heapgame.c).
 *
 * G(n) = mex { G(options of a heap of n) }, where a split into a + b counts
 * as G(a) XOR G(b) (the Sprague-Grundy theorem: a sum is worth the nim-sum
 * of its parts).  Three ways to compute it:
 *
 *   - plain: mark every option's value and take the mex; with splits this
 *     is O(n) per value, O(n^2) in all.  It is the reference of the tests.
 *
 *   - rare values (the "sparse space" of Winning Ways ch. 4, used by
 *     Gangolli and Plambeck 1989 and by Flammenkamp): for many octal games
 *     a mask m splits the values into rare ones (v AND m has an even number
 *     of bits; they form a subgroup under XOR) and common ones (odd), and
 *     rare values occur at very few positions.  A split's value
 *     G(a) XOR G(b) is common exactly when one part is rare and the other
 *     common, so the common values among the options come from pairing the
 *     few rare positions with everything: O(#rare) per value.  That gives
 *     c, the least common value not among the options.  G(n) is c unless
 *     some rare value below c is missing from the options, which a scan of
 *     all the splits settles; since most splits pair two common values and
 *     so give rare values, the scan stops early (as soon as every rare value
 *     below c has been seen; with few values left it compares eight pairs
 *     at a time in SSE2 registers).  The result is exact for any mask; the
 *     mask only decides the speed.  We choose it from the histogram of the
 *     values by a Walsh-Hadamard transform (the count of rare positions for
 *     every mask at once), review it as n doubles, and keep the plain
 *     method when no mask makes the rare positions sparse (Treblecross,
 *     0.007, has no sparse space).  Flammenkamp's second kind, the sparse
 *     space "in the domain" (the class of a position also flips with the
 *     parity of n, when every split removes counters of one parity; 0.127
 *     has it), is the same algorithm with the parity of the wanted values
 *     depending on n; the review considers both kinds.
 *
 *   - sliding windows, for subtraction games with large sets: the options
 *     of n are the positions of windows [n - hi, n - lo], one per interval
 *     of the set; counts per value and a two-level bitset give the mex in
 *     O(intervals) per value instead of O(|S|).
 *
 * Periodicity is detected for every candidate period p at once: how far
 * back from the end G(i) = G(i + p) holds is the Z-function of the values
 * read backwards (detect), linear in the values.  It is proved by the
 * Guy-Smith theorem (octal games) or the subtraction-game window, see
 * include/bouton/grundy.h and docs/grundy.md.
 *
 * The engine's files, by concept (sequence_impl.h is what they share):
 *
 *   sequence.c          this: the sequence, its table of values, and the
 *                       public API (include/bouton/grundy.h)
 *   sequence_rules.c    the rules of a heap game as the engine reads them
 *   sequence_plain.c    the plain method, its general form, sliding windows
 *   sequence_rare.c     the rare-value method and its choice of mask
 *   sequence_simd.c     its check in AVX-512, where the CPU has it
 *   sequence_stream.c   the loop over the heaps, and the rare-value method
 *                       on several threads
 *   sequence_period.c   periods detected and proved
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/sequence_impl.h"

#define WINDOW_MIN_SET 33    /* sliding windows from this set size on */

/* -------------------------------------------------------- the engine */

bt_status
bt__seq_create(bt_sequence **out, const bt__heap_rules *r, bt_seq_method method)
{
    bt_sequence *s = calloc(1, sizeof *s);
    *out = NULL;
    if (s == NULL)
        return BT_ENOMEM;
    s->r = r;
    s->method = method;
    s->w = 1;
    s->window =
        r->nint > 0 && r->setsize >= WINDOW_MIN_SET && method != BT_SEQ_PLAIN;
    s->review = method == BT_SEQ_RARE ? 8 : 512;
    s->nthreads = 1;
    s->timing = -1;
    s->best_need = SIZE_MAX;
    s->seen = malloc(MAXV + 64);
    s->seen_next = malloc(MAXV + 64);
    if (r->nsplit > 0) {
        s->sr = malloc(r->nsplit * sizeof *s->sr);
        s->sh = malloc(r->nsplit * sizeof *s->sh);
        s->pa = malloc(r->nsplit * sizeof *s->pa);
    }
    if (s->window) {
        s->cnt = calloc(MAXV, sizeof *s->cnt);
        s->present = calloc(MAXV / 64, sizeof *s->present);
    }
    if (s->seen == NULL || s->seen_next == NULL ||
        (r->nsplit > 0 && (s->sr == NULL || s->sh == NULL || s->pa == NULL)) ||
        (s->window && (s->cnt == NULL || s->present == NULL))) {
        bt_sequence_free(s);
        return BT_ENOMEM;
    }
    *out = s;
    return BT_OK;
}

bt_status
bt__seq_reserve(bt_sequence *s, size_t n)
{
    void *p;
    if (n <= s->cap)
        return BT_OK;
    p = realloc(s->g, seq_bytes(s, n));
    if (p == NULL)
        return BT_ENOMEM;
    s->g = p;
    s->cap = n;
    return BT_OK;
}

/*
 * The table widened from one byte a value to two, for a value of 256 or
 * more: the room doubles (realloc, which for a large table moves pages
 * rather than bytes) and the values are spread in place from the top down
 * (G(i) moves from byte i to bytes 2i and 2i + 1, both at or above i and
 * so above every value still to move).  The whole room is charged against
 * max_memory at its new width.
 */
bt_status
bt__seq_widen(bt_sequence *s, const bt_limits *lim, bt_diag *diag)
{
    size_t cap = s->cap > s->n ? s->cap : s->n + 1, i;
    uint8_t *p;
    uint16_t *q;
    if (s->wide)
        return BT_OK;
    if (cap > SIZE_MAX / 2)
        return bt__fail(diag, BT_ELIMIT, "too many values");
    if (lim != NULL && lim->max_memory != 0 &&
        cap > lim->max_memory / sizeof(uint16_t))
        return bt__fail(diag, BT_ELIMIT,
                        "a Grundy value reaches 256 at heap %zu: %zu values "
                        "of two bytes need more than the max_memory limit "
                        "of %zu bytes",
                        s->n, cap, lim->max_memory);
    p = realloc(s->g, cap * sizeof(uint16_t));
    if (p == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory for %zu values", cap);
    q = (uint16_t *)(void *)p;
    for (i = s->n; i-- > 0;)
        q[i] = p[i];
    s->g = p;
    s->cap = cap;
    s->wide = 1;
    return BT_OK;
}

/* Appends G(i) = v, i = s->n: the method's tables follow the values. */
bt_status
bt__seq_commit(bt_sequence *s, size_t i, unsigned v, bt_diag *diag)
{
    bt_status st;
    if (v >= MAXV)
        return bt__fail(diag, BT_ELIMIT,
                        "the Grundy value of heap %zu reaches 65536, "
                        "beyond the 16 bits the engine keeps",
                        i);
    if (s->wide) {
        ((uint16_t *)s->g)[i] = (uint16_t)v;
    } else if (v < SEQ_NARROW) {
        ((uint8_t *)s->g)[i] = (uint8_t)v;
    } else {
        if ((st = bt__seq_widen(s, NULL, diag)) != BT_OK)
            return st;
        ((uint16_t *)s->g)[i] = (uint16_t)v;
    }
    s->n = i + 1;
    while (v >= s->w)
        s->w <<= 1;
    if (i >= 1) {
        if (s->hist[0] != NULL)
            s->hist[i & 1u][v]++;
        if (s->rare && is_sparse(s, i, v) &&
            (st = bt__seq_rare_push(s, i, v)) != BT_OK)
            return bt__fail(diag, st, "out of memory");
    }
    return BT_OK;
}

/* ----------------------------------------------------- public API */

int
bt_sequence_is_supported(const bt_game *g)
{
    return bt__heap_of(g) != NULL;
}

bt_status
bt_sequence_new(bt_sequence **out, bt_game *g, bt_seq_method method,
                bt_diag *diag)
{
    bt__heap_game *hg;
    bt_status st;
    *out = NULL;
    if (g == NULL)
        return bt__fail(diag, BT_EINVAL, "no game given");
    if ((hg = bt__heap_of(g)) == NULL)
        return bt__fail(diag, BT_EINVAL,
                        "%s has no Grundy sequence: sequences are for "
                        "heap games (games whose component is one heap)",
                        g->spec);
    if (method != BT_SEQ_AUTO && method != BT_SEQ_PLAIN &&
        method != BT_SEQ_RARE)
        return bt__fail(diag, BT_EINVAL, "unknown method %d", (int)method);
    st = bt__seq_create(out, &hg->rules, method);
    if (st != BT_OK)
        return bt__fail(diag, st, "out of memory");
    (*out)->game = bt_game_ref(g);
    return BT_OK;
}

void
bt_sequence_free(bt_sequence *s)
{
    if (s == NULL)
        return;
    bt__seq_par_free(s->pool);
    free(s->g);
    free(s->seen);
    free(s->seen_next);
    free(s->sr);
    free(s->sh);
    free(s->pa);
    free(s->rpos);
    free(s->rval);
    free(s->par);
    free(s->need);
    free(s->hist[0]);
    free(s->hist[1]);
    free(s->cnt);
    free(s->present);
    bt_game_free(s->game);
    free(s);
}

static bt_status
sequence_compute(bt_sequence *s, size_t n, const bt_limits *lim,
                 bt_diag *diag)
{
    bt_status st;
    lim = bt__limits(lim);
    st = bt__seq_extend(s, n, lim, diag);
    if (st != BT_OK)
        return st;
    return bt__seq_detect(s, lim, diag);
}

bt_status
bt_sequence_compute(bt_sequence *s, size_t n, const bt_limits *lim,
                    bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, sequence_compute(s, n, lim, diag));
}

static bt_status
sequence_prove(bt_sequence *s, size_t limit, const bt_limits *lim,
               bt_diag *diag)
{
    size_t target;
    lim = bt__limits(lim);
    if (s->proved)
        return BT_OK;
    if (limit > lim->max_grundy)
        return bt__fail(diag, BT_ELIMIT,
                        "a limit of %zu values exceeds the max_grundy "
                        "limit (%zu)",
                        limit, lim->max_grundy);
    /* a resumed run goes on to the length it was computing towards */
    target = s->goal > s->n ? s->goal : s->n < 64 ? 64 : s->n;
    for (;;) {
        bt_status st;
        size_t next;
        if (target > limit)
            target = limit;
        if ((st = bt__seq_extend(s, target, lim, diag)) != BT_OK)
            return st;
        if ((st = bt__seq_detect(s, lim, diag)) != BT_OK)
            return st;
        if (s->proved || s->n >= limit)
            return BT_OK;
        /* double, or go straight to where the best candidate's proof
           would be complete; but by 1/64 of the values at least, so that
           candidates that each fail a few values on cannot make the
           linear detection run at every value (at most 45 steps from n to
           2n: O(n) detections in all, not O(n^2)) */
        next = s->n * 2;
        if (s->best_need > s->n && s->best_need < next)
            next = s->best_need;
        if (next < s->n + s->n / 64)
            next = s->n + s->n / 64;
        target = next;
    }
}

bt_status
bt_sequence_prove(bt_sequence *s, size_t limit, const bt_limits *lim,
                  bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, sequence_prove(s, limit, lim, diag));
}

void
bt_sequence_set_threads(bt_sequence *s, unsigned threads)
{
    unsigned cpus = bt__cpus_usable();
    if (threads == 0)
        threads = cpus;
    if (threads > BT_SEQ_MAX_THREADS)
        threads = BT_SEQ_MAX_THREADS;
    if (threads != s->nthreads || cpus != s->cpus) {
        bt__seq_par_free(s->pool);
        s->pool = NULL;
        s->nthreads = threads;
        s->cpus = cpus;
        /* the levels measured were of the old pool */
        memset(s->rate, 0, sizeof s->rate);
        memset(s->cpu_rate, 0, sizeof s->cpu_rate);
        memset(s->warm, 0, sizeof s->warm);
        s->span_stop = 0;
        s->span_level = 0;
        s->best = 0;
        s->trial = 0;
    }
}

unsigned
bt_sequence_threads_used(const bt_sequence *s)
{
    return s->used > 0 ? s->used : 1;
}

unsigned
bt_sequence_threads(const bt_sequence *s)
{
    return s->nthreads;
}

void
bt_sequence_set_progress(bt_sequence *s, bt_sequence_progress fn, void *ud)
{
    s->progress = fn;
    s->progress_ud = ud;
}

size_t
bt_sequence_goal(const bt_sequence *s)
{
    return s->goal > s->n ? s->goal : s->n;
}

void
bt_sequence_set_goal(bt_sequence *s, size_t goal)
{
    s->goal = goal;
}

const void *
bt_sequence_data(const bt_sequence *s)
{
    return s->g;
}

unsigned
bt_sequence_width(const bt_sequence *s)
{
    return s->wide ? 2u : 1u;
}

bt_status
bt_sequence_append(bt_sequence *s, const uint16_t *values, size_t count,
                   bt_diag *diag)
{
    size_t k;
    bt_status st;
    if (count > SIZE_MAX - s->n)
        return bt__fail(diag, BT_ELIMIT, "too many values");
    if (bt__seq_reserve(s, s->n + count) != BT_OK)
        return bt__fail(diag, BT_ENOMEM, "out of memory for %zu values",
                        s->n + count);
    /* the method's state follows the values as in extend(): the same
       reviews at the same lengths */
    for (k = 0; k < count; k++) {
        size_t i = s->n;
        if (i == s->review && (st = bt__seq_review(s)) != BT_OK)
            return bt__fail(diag, st, "out of memory");
        if (s->window && bt__seq_value_window(s, i) != values[k])
            return bt__fail(diag, BT_EINVAL,
                            "G(%zu) = %u given, but the game's value is "
                            "different",
                            i, (unsigned)values[k]);
        if ((st = bt__seq_commit(s, i, values[k], diag)) != BT_OK)
            return st;
    }
    s->detected_at = 0;
    return BT_OK;
}

size_t
bt_sequence_length(const bt_sequence *s)
{
    return s->n;
}

unsigned
bt_sequence_value(const bt_sequence *s, size_t i)
{
    return i < s->n ? seq_at(s, i) : 0;
}

int
bt_sequence_period(const bt_sequence *s, size_t *period, size_t *preperiod)
{
    if (!s->has_period)
        return 0;
    if (period != NULL)
        *period = s->period;
    if (preperiod != NULL)
        *preperiod = s->preperiod;
    return 1;
}

int
bt_sequence_is_proved(const bt_sequence *s)
{
    return s->proved;
}

/* G(n) from what s knows; BT_ERANGE (without a message) when unknown. */
bt_status
bt__seq_lookup(const bt_sequence *s, unsigned *v, const mpz_t n)
{
    if (mpz_cmp_ui(n, (unsigned long)s->n) < 0 &&
        (size_t)mpz_get_ui(n) < s->n) {
        *v = seq_at(s, (size_t)mpz_get_ui(n));
        return BT_OK;
    }
    if (s->proved) {
        /* n >= s->n > preperiod: G(pre + (n - pre) mod period) */
        mpz_t t;
        unsigned long r;
        mpz_init(t);
        mpz_sub_ui(t, n, (unsigned long)s->preperiod);
        r = mpz_fdiv_ui(t, (unsigned long)s->period);
        mpz_clear(t);
        *v = seq_at(s, s->preperiod + r);
        return BT_OK;
    }
    return BT_ERANGE;
}

bt_status
bt_sequence_grundy(mpz_t rop, const bt_sequence *s, const mpz_t n,
                   bt_diag *diag)
{
    unsigned v;
    char buf[64];
    if (mpz_sgn(n) < 0)
        return bt__fail(diag, BT_EINVAL, "a heap cannot be negative");
    if (bt__seq_lookup(s, &v, n) != BT_OK)
        return bt__fail(diag, BT_ERANGE,
                        "heap %s is beyond the computed values (G is known "
                        "for heaps below %zu) and the periodicity is not "
                        "proved",
                        bt__heap_text(buf, n), s->n);
    mpz_set_ui(rop, v);
    return BT_OK;
}

const char *
bt_sequence_method_name(const bt_sequence *s)
{
    if (s->window)
        return "window";
    if (s->rare)
        return s->domain ? "rare-domain" : "rare";
    return "plain";
}

unsigned
bt_sequence_rare_mask(const bt_sequence *s)
{
    return s->rare ? s->mask : 0;
}

size_t
bt_sequence_rare_count(const bt_sequence *s)
{
    return s->rare ? s->nrare : 0;
}

size_t
bt_sequence_rare_last(const bt_sequence *s)
{
    return s->rare && s->nrare > 0 ? s->rpos[s->nrare - 1] : 0;
}

unsigned
bt__seq_at(const bt_sequence *s, size_t x)
{
    return bt__seq_at_periodic(s, x, s->period, s->preperiod);
}
