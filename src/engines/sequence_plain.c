/*
 * sequence_plain.c -- the plain methods of the sequence engine (see the top
 * of sequence.c): every option's value marked and the mex taken (the
 * reference of the tests), the general form for codes with moves that
 * leave three heaps and for infinite codes, and the sliding windows of
 * subtraction games with large sets.  Each gives G(n) for n = s->n from
 * G(0..n-1); the caller commits it.  Calls the marking kernels of
 * sequence_impl.h and the rules (sequence_rules.c).
 */
#include <stdint.h>
#include <string.h>

#include "engines/sequence_impl.h"

/* The plain method for each width (sequence_impl.h, SEQ_TEMPLATE). */
SEQ_TEMPLATE unsigned
value_plain(bt_sequence *s, size_t n, int wide)
{
    uint8_t *seen = s->seen;
    size_t i, m;
    memset(seen, 0, s->w + 1);
    mark_singles(s->r, s->g, wide, n, seen);
    m = splits_of(s, n);
    for (i = 0; i < m; i++) {
        mark_pairs(s->g, wide, s->sr[i], 1, s->sh[i], seen);
        s->work += s->sh[i];
    }
    return (unsigned)((const uint8_t *)memchr(seen, 0, s->w + 1) - seen);
}

unsigned
bt__seq_value_plain_8(bt_sequence *s, size_t n)
{
    return value_plain(s, n, 0);
}

unsigned
bt__seq_value_plain_16(bt_sequence *s, size_t n)
{
    return value_plain(s, n, 1);
}

/* Marks G(a) XOR G(b) XOR G(c) for every a <= b <= c >= 1 with
   a + b + c = m (the options that leave three heaps); adds the triples
   to *work. */
SEQ_TEMPLATE void
mark_triples(const void *g, int wide, size_t m, uint8_t *seen, size_t *work)
{
    size_t a;
    for (a = 1; 3 * a <= m; a++) {
        size_t rest = m - a, b, h = rest / 2;
        unsigned x = seq_get(g, wide, a);
        for (b = a; b <= h; b++)
            seen[x ^ seq_get(g, wide, b) ^ seq_get(g, wide, rest - b)] = 1;
        *work += h + 1 - a;
    }
}

/*
 * The general plain method, for codes with moves that leave three heaps
 * and for infinite codes: every k from 0 to n (to t for a finite code),
 * the digit's moves marked one by one.  O(n) per value for one heap,
 * O(n^2) with splits, O(n^3) with three heaps (per digit).
 */
SEQ_TEMPLATE unsigned
value_general(bt_sequence *s, size_t n, int wide)
{
    const bt__heap_rules *r = s->r;
    uint8_t *seen = s->seen;
    const void *g = s->g;
    size_t k, top = r->blen > 0 || r->t > n ? n : r->t;
    memset(seen, 0, s->w + 1);
    for (k = 0; k <= top; k++) {
        unsigned d = bt__heap_digit(r, k);
        size_t rest = n - k;
        if (d == 0)
            continue;
        if ((d & 1u) && rest == 0)
            seen[0] = 1;
        if ((d & 2u) && k > 0 && rest > 0)
            seen[seq_get(g, wide, rest)] = 1;
        if ((d & 4u) && rest >= 2) {
            size_t h = r->unequal ? (rest - 1) / 2 : rest / 2;
            if (h > 0)
                mark_pairs(g, wide, rest, 1, h, seen);
            s->work += h;
        }
        if ((d & 8u) && rest >= 3)
            mark_triples(g, wide, rest, seen, &s->work);
    }
    s->work += top;
    return (unsigned)((const uint8_t *)memchr(seen, 0, s->w + 1) - seen);
}

/* The general method (its O(n^2) or O(n^3) loops for each width; chosen
   here, once a value, since a value costs O(n) at least). */
unsigned
bt__seq_value_general(bt_sequence *s, size_t n)
{
    return s->wide ? value_general(s, n, 1) : value_general(s, n, 0);
}

/*
 * An estimate of the option values the general method marks to compute
 * G(0..n-1): summed over the values m < n and the k the code allows, 1 for
 * a move that leaves one heap, (m - k)/2 for the splits in two and
 * (m - k)^2/12 for those in three; an infinite code's block rules about
 * m / blen of the k per digit.  Sums of m, m^2/2, m^3/6 over m < n are
 * about n^2/2, n^3/6, n^4/24.
 */
double
bt__seq_general_work(const bt__heap_rules *r, size_t n)
{
    double c1 = 0, c2 = 0, c3 = 0, N = (double)n, work;
    size_t k, i;
    for (k = 0; k <= r->t; k++) {
        unsigned d = r->digit[k];
        c1 += (d & 3u) ? 1 : 0;
        c2 += (d & 4u) ? 1 : 0;
        c3 += (d & 8u) ? 1 : 0;
    }
    work = c1 * N + c2 * N * N / 4 + c3 * N * N * N / 36;
    if (r->blen > 0) {
        double f1 = 0, f2 = 0, f3 = 0, b = (double)r->blen;
        for (i = 0; i < r->blen; i++) {
            f1 += (r->block[i] & 3u) ? 1 : 0;
            f2 += (r->block[i] & 4u) ? 1 : 0;
            f3 += (r->block[i] & 8u) ? 1 : 0;
        }
        work += N * N / 2 * (1 + f1 / b) + f2 / b * N * N * N / 12 +
                f3 / b * N * N * N * N / 144;
    }
    return work;
}

static inline void
win_add(bt_sequence *s, unsigned v)
{
    if (s->cnt[v]++ == 0) {
        uint64_t *wd = &s->present[v >> 6];
        *wd |= (uint64_t)1 << (v & 63);
        if (*wd == UINT64_MAX)
            s->full[v >> 12] |= (uint64_t)1 << ((v >> 6) & 63);
    }
}

static inline void
win_del(bt_sequence *s, unsigned v)
{
    if (--s->cnt[v] == 0) {
        s->full[v >> 12] &= ~((uint64_t)1 << ((v >> 6) & 63));
        s->present[v >> 6] &= ~((uint64_t)1 << (v & 63));
    }
}

/* Subtraction games with large sets: slide one window per interval (for
   each width, chosen once a value: the method reads two values a
   interval). */
SEQ_TEMPLATE unsigned
value_window(bt_sequence *s, size_t n, int wide)
{
    const bt__heap_rules *r = s->r;
    const void *g = s->g;
    size_t i;
    for (i = 0; i < r->nint; i++) {
        if (n >= r->lo[i])
            win_add(s, seq_get(g, wide, n - r->lo[i]));
        if (n >= r->hi[i] + 1)
            win_del(s, seq_get(g, wide, n - r->hi[i] - 1));
    }
    s->work += r->nint;
    for (i = 0; i < MAXV / 4096; i++)
        if (s->full[i] != UINT64_MAX) {
            size_t wd = i * 64 + ctz64(~s->full[i]);
            return (unsigned)(wd * 64 + ctz64(~s->present[wd]));
        }
    return MAXV;
}

unsigned
bt__seq_value_window(bt_sequence *s, size_t n)
{
    return s->wide ? value_window(s, n, 1) : value_window(s, n, 0);
}
