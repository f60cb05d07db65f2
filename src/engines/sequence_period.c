/*
 * sequence_period.c -- the periodicity of a Grundy sequence: detected for
 * every candidate period at once (the Z-function of the values read
 * backwards) and proved by the Guy-Smith theorem (octal games), its
 * extension to moves that leave three heaps, or the subtraction-game
 * window (include/bouton/grundy.h, docs/grundy.md).  Reads the values and
 * the rules; calls only the core of the library.
 */
#include <stdint.h>
#include <stdlib.h>

#include "engines/sequence_impl.h"

/* ------------------------------------------------------- periodicity */

/* How many values a proof of period p from n0 needs (SIZE_MAX: no theorem
   applies). */
static size_t
need_of(const bt__heap_rules *r, size_t n0, size_t p)
{
    size_t m = n0 > 0 ? n0 : 1;
    if (!r->provable)
        return SIZE_MAX;
    if (r->ntriple > 0) /* three heaps (docs/grundy.md): n0 <= n <
                           3*n0 + 2p + t */
        return 3 * m + 2 * p + r->t + p;
    if (r->nsplit > 0) /* Guy-Smith: n0 <= n < 2*n0 + p + t */
        return 2 * m + p + r->t + p;
    if (r->sub_window) /* subtraction: n0 <= n < n0 + t */
        return n0 + r->t + p;
    return m + r->t + p; /* no split, some digit 1 or 2 */
}

/* G(i) of a sequence proved periodic with p from n0 (i may be >= s->n). */
unsigned
bt__seq_at_periodic(const bt_sequence *s, size_t i, size_t p, size_t n0)
{
    if (i < s->n)
        return seq_at(s, i);
    return seq_at(s, n0 + (i - n0) % p);
}

/*
 * The Z-function of the values read backwards from the end: z[k] = the
 * number of j < n - k with G(n-1-j) = G(n-1-k-j), i.e. how far back from
 * its end G(0..n-k-1) agrees with G(0..n-1) shifted by k.  Gusfield's
 * linear algorithm (Algorithms on Strings, Trees and Sequences, 1997,
 * sec. 1.4): every comparison that succeeds moves the right end of the
 * box, so at most 2n comparisons in all.  z[0] is n.  Polls lim every
 * POLL_WORK positions.
 */
SEQ_TEMPLATE bt_status
z_back(const void *g, int wide, size_t n, uint32_t *z, const bt_limits *lim)
{
    size_t k, l = 0, r = 0;
#define BACK(j) seq_get(g, wide, n - 1 - (j))
    if (n == 0)
        return BT_OK;
    z[0] = (uint32_t)n;
    for (k = 1; k < n; k++) {
        size_t m = 0;
        if ((k & (POLL_WORK - 1)) == 0 && bt__poll(lim) != BT_OK)
            return BT_EINTR;
        if (k < r) {
            m = z[k - l];
            if (m > r - k)
                m = r - k;
        }
        while (k + m < n && BACK(m) == BACK(k + m))
            m++;
        z[k] = (uint32_t)m;
        if (k + m > r) {
            l = k;
            r = k + m;
        }
    }
#undef BACK
    return BT_OK;
}

/*
 * The least period and preperiod of a sequence proved p-periodic from n0:
 * the least period d divides p, and it is the least divisor d of p with
 * w[i] = w[i + d] for i < p - d, where w = G(n0..n0+p-1) (computed:
 * every proof needs at least n0 + p values).  The Z-function of w gives
 * that for every d at once, in O(p); z is scratch of p + 1 entries.
 */
static void
set_proved(bt_sequence *s, size_t p, size_t n0, uint32_t *z)
{
#define w(i) seq_at(s, n0 + (i))
    size_t d, k, l = 0, r = 0, m;
    z[0] = (uint32_t)p;
    for (k = 1; k < p; k++) {
        size_t len = 0;
        if (k < r) {
            len = z[k - l];
            if (len > r - k)
                len = r - k;
        }
        while (k + len < p && w(len) == w(k + len))
            len++;
        z[k] = (uint32_t)len;
        if (k + len > r) {
            l = k;
            r = k + len;
        }
    }
    for (d = 1; d < p; d++)
        if (p % d == 0 && z[d] >= p - d)
            break;
#undef w
    m = n0;
    while (m > 0 && seq_at(s, m - 1) == bt__seq_at_periodic(s, m - 1 + d, p, n0))
        m--;
    s->period = d;
    s->preperiod = m;
    s->has_period = 1;
    s->proved = 1;
}

/*
 * Looks for periods in G(0..n-1): for each p the least n0 with
 * G(i) = G(i + p) for n0 <= i < n - p, which is n - p - z[p] for the
 * Z-function z of the values read backwards (z_back).  That is O(n) time
 * for all p together and 4n bytes of scratch, charged against
 * lim->max_memory with the values themselves; the scan it replaces, back
 * from the end for every p, took O(n^2) on sequences with long runs
 * (sub:1000000,2000001,4000003: hours at 3.5 million values).  A multiple
 * kp of a period p that holds from n0 with two periods in view holds from
 * the same n0 (the mismatch at n0 - 1 stays in view) and needs more values
 * for its proof, so it never wins over p.
 */
bt_status
bt__seq_detect(bt_sequence *s, const bt_limits *lim, bt_diag *diag)
{
    size_t n = s->n, pmax = n > 0 ? n - 1 : 0, p, best_p = 0, best_n0 = 0;
    size_t rep_p = 0, rep_n0 = 0, rep_rank = SIZE_MAX;
    size_t best_need = SIZE_MAX;
    uint32_t *z;

    if (s->proved || s->detected_at == n)
        return BT_OK;
    s->has_period = 0;
    if (pmax == 0) {
        s->detected_at = n;
        return BT_OK;
    }
    if (n > UINT32_MAX)
        return bt__fail(diag, BT_ELIMIT,
                        "period detection is for at most %lu values",
                        (unsigned long)UINT32_MAX);
    if (lim->max_memory != 0 &&
        n > lim->max_memory / ((s->wide ? 2 : 1) + sizeof *z))
        return bt__fail(diag, BT_ELIMIT,
                        "detecting the period of %zu values needs more "
                        "than the max_memory limit of %zu bytes",
                        n, lim->max_memory);
    z = malloc(n * sizeof *z);
    if (z == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    if ((s->wide ? z_back(s->g, 1, n, z, lim) : z_back(s->g, 0, n, z, lim)) !=
        BT_OK) {
        free(z);
        return bt__fail(diag, BT_EINTR,
                        "interrupted while detecting the period of %zu "
                        "Grundy values (the time budget ran out)",
                        n);
    }
    for (p = 1; p <= pmax; p++) {
        size_t n0 = n - p - z[p], tail = n - n0, need, rank;
        need = need_of(s->r, n0, p);
        if (need < best_need) {
            best_need = need;
            best_p = p;
            best_n0 = n0;
        }
        /* a candidate to report: two whole periods, and the last quarter
           of the values, repeat */
        rank = s->r->provable ? need : 2 * n0 + 2 * p;
        if (tail >= 2 * p && tail >= n / 4 && rank < rep_rank) {
            rep_rank = rank;
            rep_p = p;
            rep_n0 = n0;
        }
    }
    s->detected_at = n;
    s->best_need = best_need;
    if (best_need <= n)
        set_proved(s, best_p, best_n0, z); /* best_p < n */
    else if (rep_p != 0) {
        s->has_period = 1;
        s->period = rep_p;
        s->preperiod = rep_n0;
    }
    free(z);
    return BT_OK;
}
