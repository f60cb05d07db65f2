/*
 * sequence_rare.c -- the rare-value method of the sequence engine (the
 * "sparse space" of Winning Ways ch. 4; see the top of sequence.c): the
 * common values from the pairs of the few sparse positions, the check of
 * the rare values below them (eight pairs at a time in SSE2 registers),
 * the sparse positions kept, and the choice of the mask by a
 * Walsh-Hadamard transform of the values' histogram (review).  Calls the
 * marking kernels of sequence_impl.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/sequence_impl.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define CONFIRM_BLOCK 64     /* pairs per split and round of the check */
#define SIMD_NEED 4          /* compare in registers from this few on */
#ifndef SIMD_TAKEOVER
#define SIMD_TAKEOVER 16     /* AVX-512 from this few values on */
#endif
#ifndef SIMD_AFTER
#define SIMD_AFTER 256       /* and from this many pairs on */
#endif

#if defined(__SSE2__)
/* Reverses the eight 16-bit lanes of x. */
static inline __m128i
rev16(__m128i x)
{
    x = _mm_shuffle_epi32(x, 0x4E);
    x = _mm_shufflelo_epi16(x, 0x1B);
    return _mm_shufflehi_epi16(x, 0x1B);
}

/* G(i .. i+7) in eight 16-bit lanes: one load of 16 bytes, or of 8 bytes
   spread to 16-bit lanes (the narrow width). */
SEQ_TEMPLATE __m128i
load8(const void *g, int wide, size_t i)
{
    if (wide)
        return _mm_loadu_si128((const void *)((const uint16_t *)g + i));
    return _mm_unpacklo_epi8(
        _mm_loadl_epi64((const void *)((const uint8_t *)g + i)),
        _mm_setzero_si128());
}
#endif

/*
 * Looks at the pairs (a, rest - a), first <= a <= last, for the k values of
 * need[] (k <= SIMD_NEED), removing those found; returns how many remain.
 * Eight pairs at a time in SSE2 registers: the reversed upper parts are one
 * load and three shuffles.
 */
SEQ_TEMPLATE size_t
compare_pairs(const void *g, int wide, size_t rest, size_t first,
              size_t last, uint16_t *need, size_t k)
{
    size_t a = first, i;
#if defined(__SSE2__)
    __m128i nv[SIMD_NEED];
    for (i = 0; i < k; i++)
        nv[i] = _mm_set1_epi16((short)need[i]);
    while (k > 0 && a + 7 <= last) {
        __m128i lo = load8(g, wide, a);
        __m128i hi = load8(g, wide, rest - a - 7);
        __m128i x = _mm_xor_si128(lo, rev16(hi));
        __m128i any = _mm_cmpeq_epi16(x, nv[0]);
        for (i = 1; i < k; i++)
            any = _mm_or_si128(any, _mm_cmpeq_epi16(x, nv[i]));
        if (_mm_movemask_epi8(any) != 0) {
            for (i = 0; i < k;) {
                if (_mm_movemask_epi8(_mm_cmpeq_epi16(x, nv[i])) != 0) {
                    k--;
                    need[i] = need[k];
                    nv[i] = nv[k];
                } else {
                    i++;
                }
            }
        }
        a += 8;
    }
#endif
    for (; k > 0 && a <= last; a++) {
        unsigned v = seq_get(g, wide, a) ^ seq_get(g, wide, rest - a);
        for (i = 0; i < k; i++)
            if (need[i] == v) {
                need[i] = need[--k];
                break;
            }
    }
    return k;
}

/*
 * The scan of the check: looks for the k values of need[] among the pairs
 * (a, sr[j] - a), pa[j] <= a <= sh[j], of the m splits, removing those
 * found (pa[] moves on); returns how many remain.  The splits are scanned
 * in rounds of CONFIRM_BLOCK pairs, marking bytes (seen[] is 0 at the
 * values of need[]) while many values are missing and comparing in
 * registers once few are.
 */
SEQ_TEMPLATE size_t
confirm_scan(const void *g, int wide, uint8_t *seen, uint16_t *need, size_t k,
             size_t *pa, const size_t *sr, const size_t *sh, size_t m,
             size_t *work)
{
    size_t j, i, work0 = *work;
    int live, simd;

    if (k == 0)
        return 0;
    simd = bt__seq_simd();
    do {
        live = 0;
        if (simd && k <= SIMD_TAKEOVER && *work - work0 >= SIMD_AFTER) {
            /* few values left, and far to look: AVX-512 (sequence_simd.c)
               tests them in a bitmap of 1024, when every one is below
               that (its start and its finds cost more than marking, so a
               check that ends in a few hundred pairs, as most of 0.354's
               do, is not handed over) */
            for (i = 0; i < k && need[i] < 1024; i++)
                ;
            if (i == k)
                return bt__seq_scan_simd(g, wide, need, k, pa, sr, sh, m,
                                         work);
            simd = 0;
        }
        for (j = 0; j < m && k > 0; j++) {
            size_t a = pa[j], h = sh[j], rest = sr[j], last;
            if (a > h)
                continue;
            live = 1;
            /* blocks of 8 pairs a value still needed: the pass over
               need[] after each costs an eighth of a load a pair (with 2
               a value, and a branch a value, that pass was a fifth of
               Officers' time on one thread: perf; bench/README.md) */
            last = a + (k > CONFIRM_BLOCK / 8 ? 8 * k : CONFIRM_BLOCK) - 1;
            if (last > h)
                last = h;
            pa[j] = last + 1;
            *work += last - a + 1;
            if (k <= SIMD_NEED) {
                k = compare_pairs(g, wide, rest, a, last, need, k);
                continue;
            }
            mark_pairs(g, wide, rest, a, last, seen);
            {
                /* keep those still missing, without a branch: which are
                   found is not predictable */
                size_t kept = 0;
                for (i = 0; i < k; i++) {
                    unsigned v = need[i];
                    need[kept] = (uint16_t)v;
                    kept += !seen[v];
                }
                k = kept;
            }
        }
    } while (k > 0 && live);
    return k;
}

size_t
bt__seq_confirm_scan_8(const void *g, uint8_t *seen, uint16_t *need, size_t k,
                       size_t *pa, const size_t *sr, const size_t *sh,
                       size_t m, size_t *work)
{
    return confirm_scan(g, 0, seen, need, k, pa, sr, sh, m, work);
}

size_t
bt__seq_confirm_scan_16(const void *g, uint8_t *seen, uint16_t *need,
                        size_t k, size_t *pa, const size_t *sr,
                        const size_t *sh, size_t m, size_t *work)
{
    return confirm_scan(g, 1, seen, need, k, pa, sr, sh, m, work);
}

/*
 * The check of the rare-value method: every value below lim not yet among
 * the options (the k of need[]) must turn up in some split, else G is the
 * least of those missing.
 */
SEQ_TEMPLATE unsigned
confirm_need(const void *g, int wide, uint8_t *seen, uint16_t *need, size_t k,
             size_t *pa, const size_t *sr, const size_t *sh, size_t m,
             unsigned lim, size_t *work)
{
    size_t j;
    for (j = 0; j < m; j++)
        pa[j] = 1;
    k = confirm_scan(g, wide, seen, need, k, pa, sr, sh, m, work);
    return k == 0 ? lim : least_of(need, k);
}

/* The check with the values below lim not among the options found in
   seen (seen[] need only be 0 at those values). */
SEQ_TEMPLATE unsigned
confirm_in(const void *g, int wide, uint8_t *seen, uint16_t *need, size_t *pa,
           const size_t *sr, const size_t *sh, size_t m, unsigned lim,
           size_t *work)
{
    size_t k = 0;
    unsigned v = 0;
#if defined(__SSE2__)
    /* sixteen bytes of seen[] at a time: most values are seen */
    for (; v + 16 <= lim; v += 16) {
        unsigned z = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
            _mm_loadu_si128((const void *)(seen + v)), _mm_setzero_si128()));
        for (; z != 0; z &= z - 1)
            need[k++] = (uint16_t)(v + ctz64(z));
    }
#endif
    for (; v < lim; v++)
        if (!seen[v])
            need[k++] = (uint16_t)v;
    return confirm_need(g, wide, seen, need, k, pa, sr, sh, m, lim, work);
}

/* Bit i: value v + i (v + i < w) is of parity pi (par[] == pi) and not
   in seen[]; sixteen values from v. */
static inline unsigned
free_of(const uint8_t *seen, const uint8_t *par, unsigned pi, unsigned v,
        unsigned w)
{
    unsigned z = 0, i;
#if defined(__SSE2__)
    if (v + 16 <= w) {
        __m128i free = _mm_cmpeq_epi8(
            _mm_loadu_si128((const void *)(seen + v)), _mm_setzero_si128());
        __m128i fits = _mm_cmpeq_epi8(
            _mm_loadu_si128((const void *)(par + v)),
            _mm_set1_epi8((char)pi));
        return (unsigned)_mm_movemask_epi8(_mm_and_si128(free, fits));
    }
#endif
    for (i = 0; i < 16 && v + i < w; i++)
        z |= (unsigned)(!seen[v + i] && par[v + i] == pi) << i;
    return z;
}

/* The least value c < w of parity pi (par[c] == pi) not in seen[], or w. */
static inline unsigned
least_unseen(const uint8_t *seen, const uint8_t *par, unsigned pi, unsigned w)
{
    unsigned c;
    for (c = 0; c < w; c += 16) {
        unsigned z = free_of(seen, par, pi, c, w);
        if (z != 0)
            return c + ctz64(z);
    }
    return w;
}

SEQ_TEMPLATE unsigned
confirm(bt_sequence *s, int wide, size_t m, unsigned lim)
{
    return confirm_in(s->g, wide, s->seen, s->need, s->pa, s->sr, s->sh, m,
                      lim, &s->work);
}

SEQ_TEMPLATE void
mark_split(const bt_sequence *s, int wide, size_t rest, size_t lo, size_t hi,
           uint8_t *seen)
{
    mark_split_of(s->g, wide, s->rpos, s->rval, s->r->unequal, rest, lo, hi,
                  seen);
}

/* Marks G(x) XOR G(rest - x) in seen and G(x) XOR G(rest + 1 - x) in next,
   for the sparse positions x = rpos[0..to-1] (phase 1 of two heaps in
   a row, of one split each: mark_sparse twice, with half the loads). */
SEQ_TEMPLATE void
mark_sparse_two(const void *g, int wide, size_t rest, const uint32_t *rpos,
                const uint16_t *rval, size_t to, uint8_t *seen,
                uint8_t *next)
{
    size_t i = 0;
    /* both values in one load: the loop is bound by its instructions
       (a store each, and each load an instruction) */
#define TWO(x, lo, hi)                                                   \
    do {                                                                 \
        if (wide) {                                                      \
            uint32_t p_;                                                 \
            memcpy(&p_, (const uint16_t *)g + (x), sizeof p_);           \
            lo = p_ & 0xFFFFu, hi = p_ >> 16;                            \
        } else {                                                         \
            uint16_t p_;                                                 \
            memcpy(&p_, (const uint8_t *)g + (x), sizeof p_);            \
            lo = p_ & 0xFFu, hi = (unsigned)p_ >> 8;                     \
        }                                                                \
    } while (0)
    for (; i + 2 <= to; i += 2) {
        unsigned r0 = rval[i], r1 = rval[i + 1], a0, b0, a1, b1;
        TWO(rest - rpos[i], a0, b0);
        TWO(rest - rpos[i + 1], a1, b1);
        seen[r0 ^ a0] = 1;
        next[r0 ^ b0] = 1;
        seen[r1 ^ a1] = 1;
        next[r1 ^ b1] = 1;
    }
    for (; i < to; i++) {
        unsigned a, b;
        TWO(rest - rpos[i], a, b);
        seen[rval[i] ^ a] = 1;
        next[rval[i] ^ b] = 1;
    }
#undef TWO
}

/* The rare-value method (see the top of sequence.c).  Its work, O(sparse
   positions * splits) per value, is counted in s->work, which the
   caller polls by. */
SEQ_TEMPLATE unsigned
value_rare(bt_sequence *s, size_t n, int wide)
{
    const void *g = s->g;
    uint8_t *seen = s->seen;
    const uint32_t *rpos = s->rpos;
    const uint16_t *rval = s->rval;
    const uint8_t *par;
    unsigned w = s->w, mask = s->mask, pi, c;
    size_t j, m, nr = s->nrare;

    if (s->par_w != w) {
        unsigned v;
        for (v = 0; v < w; v++)
            s->par[v] = (uint8_t)parity(v & mask);
        s->par_w = w;
    }
    par = s->par;
    if (n == s->n && n != 0 && s->next_n == n && s->next_gen == s->gen) {
        /* phase 1 of this heap was done with the last one's (below) */
        s->seen = s->seen_next;
        s->seen_next = seen;
        seen = s->seen;
        if (s->next_w < w)
            memset(seen + s->next_w + 1, 0, w - s->next_w);
        s->next_n = 0;
        mark_singles(s->r, g, wide, n, seen);
        m = splits_of(s, n);
        j = 1; /* a second split that starts at this heap: marked below */
    } else {
        if (n == s->n)
            s->next_n = 0;
        memset(seen, 0, w + 1);
        mark_singles(s->r, g, wide, n, seen);
        m = splits_of(s, n);
        j = 0;
        if (m == 1 && n == s->n && !s->r->unequal && s->seen_next != NULL) {
            /* 1, for this heap and the next at once: G(rest - x) and
               G(rest + 1 - x) are neighbours, below n (x >= 1), and the
               positions and values are loaded once for both */
            size_t rest = s->sr[0], cnt = nr;
            uint8_t *next = s->seen_next;
            while (cnt > 0 && rpos[cnt - 1] >= rest)
                cnt--;
            memset(next, 0, w + 1);
            mark_sparse_two(g, wide, rest, rpos, rval, cnt, seen, next);
            if (cnt < nr && rpos[cnt] == rest) /* x = rest: the next's */
                next[rval[cnt] ^ seq_get(g, wide, 1)] = 1;
            s->work += 2 * cnt;
            s->next_n = n + 1;
            s->next_gen = s->gen;
            s->next_w = w;
            j = 1;
        }
    }
    if (m == 0)
        return (unsigned)((const uint8_t *)memchr(seen, 0, w + 1) - seen);
    /* 1. every split with a sparse part: that gives every option value of
       parity pi, the one splits of two common positions cannot give */
    if (j == 0 && m >= 2 && !s->r->unequal) {
        /* two splits in one pass over the sparse positions (0.354 has
           two): half the loads of positions and values */
        size_t r0 = s->sr[0], r1 = s->sr[1], c0 = nr, c1, i;
        while (c0 > 0 && rpos[c0 - 1] >= r0)
            c0--;
        c1 = c0;
        while (c1 > 0 && rpos[c1 - 1] >= r1)
            c1--;
        for (i = 0; i < c1; i++) {
            unsigned v = rval[i];
            size_t x = rpos[i];
            seen[v ^ seq_get(g, wide, r0 - x)] = 1;
            seen[v ^ seq_get(g, wide, r1 - x)] = 1;
        }
        for (; i < c0; i++)
            seen[rval[i] ^ seq_get(g, wide, r0 - rpos[i])] = 1;
        s->work += c0 + c1;
        j = 2;
    }
    for (; j < m; j++) {
        size_t rest = s->sr[j], cnt = nr;
        while (cnt > 0 && rpos[cnt - 1] >= rest)
            cnt--;
        mark_split(s, wide, rest, 0, cnt, seen);
        s->work += cnt;
    }
    /* every split rest has the same parity in the domain type */
    pi = 1u ^ (s->domain & (unsigned)s->sr[0] & 1u);
    /* c: the least value of parity pi not among the options.  Options are
       below w, whose own parity is 0 (mask < w); above w the least value
       of parity 1 is w plus the lowest bit of the mask. */
    c = least_unseen(seen, par, pi, w);
    if (c == w && pi == 1)
        c = w | (mask & (0u - mask));
    /* 2. G is c, or the least value below it still missing */
    return confirm(s, wide, m, c < w ? c : w);
}

unsigned
bt__seq_value_rare_8(bt_sequence *s, size_t n)
{
    return value_rare(s, n, 0);
}

unsigned
bt__seq_value_rare_16(bt_sequence *s, size_t n)
{
    return value_rare(s, n, 1);
}

/* Makes room for nc sparse positions and their values in *pos and *val
   (capacity *cap); 0, or -1 when out of memory (the arrays are then still
   valid, *cap unchanged). */
int
bt__seq_rare_room(uint32_t **pos, uint16_t **val, size_t *cap, size_t nc)
{
    uint32_t *p;
    uint16_t *q;
    if (nc <= *cap)
        return 0;
    p = realloc(*pos, nc * sizeof *p);
    if (p == NULL)
        return -1;
    *pos = p;
    q = realloc(*val, nc * sizeof *q);
    if (q == NULL)
        return -1;
    *val = q;
    *cap = nc;
    return 0;
}

bt_status
bt__seq_rare_push(bt_sequence *s, size_t pos, unsigned v)
{
    if (s->nrare == s->rcap &&
        bt__seq_rare_room(&s->rpos, &s->rval, &s->rcap,
                          s->rcap ? 2 * s->rcap : 256) != 0)
        return BT_ENOMEM;
    s->rpos[s->nrare] = (uint32_t)pos;
    s->rval[s->nrare] = (uint16_t)v;
    s->nrare++;
    return BT_OK;
}

/*
 * Walsh-Hadamard transform of f[0..w-1] in place: afterwards f[m] is
 * sum_v f(v) (-1)^popcount(v AND m).
 */
static void
wht(int64_t *f, size_t w)
{
    size_t len, i, j;
    for (len = 1; len < w; len <<= 1)
        for (i = 0; i < w; i += 2 * len)
            for (j = i; j < i + len; j++) {
                int64_t x = f[j], y = f[j + len];
                f[j] = x + y;
                f[j + len] = x - y;
            }
}

/*
 * Reconsiders the method at s->n: the classing that makes the fewest
 * positions sparse, found for all masks at once.  With h the histogram of
 * the values, its Walsh-Hadamard transform H(m) is #even - #odd, the
 * parity being that of v AND m; so in the range type (Winning Ways)
 * #sparse(m) = (total + H(m)) / 2.  In the domain type (Flammenkamp: the
 * class also flips on odd positions, usable when every split removes a
 * number of counters of the same parity k) the even and odd positions are
 * counted apart, and the sparse class is k mod 2.
 */
bt_status
bt__seq_review(bt_sequence *s)
{
    const bt__heap_rules *r = s->r;
    size_t w = s->w, i, e0 = 0, e1 = 0, total, best_count = SIZE_MAX;
    unsigned best = 0, best_dom = 0, best_sigma = 0, kpar, dom;
    int64_t *f0, *f1;
    int same = 1;

    /* at doubling lengths only: O(n + w log w) each, O(n) in all */
    s->review = s->n * 2;
    if (s->method == BT_SEQ_PLAIN || r->nsplit == 0 || r->general || w < 2)
        return BT_OK;
    if (s->hist[0] == NULL) {
        /* the first review: the tables of the method (none for the small
           heaps of most analyses, which never get here) */
        s->hist[0] = calloc(MAXV, sizeof *s->hist[0]);
        s->hist[1] = calloc(MAXV, sizeof *s->hist[1]);
        s->par = malloc(MAXV);
        s->need = malloc(MAXV * sizeof *s->need);
        if (s->hist[0] == NULL || s->hist[1] == NULL || s->par == NULL ||
            s->need == NULL) {
            free(s->hist[0]);
            free(s->hist[1]);
            s->hist[0] = s->hist[1] = NULL;
            return BT_OK; /* stay plain: only speed is at stake */
        }
        for (i = 1; i < s->n; i++)
            s->hist[i & 1u][seq_at(s, i)]++;
    }
    kpar = (unsigned)(r->split[0] & 1u);
    for (i = 1; i < r->nsplit; i++)
        if ((r->split[i] & 1u) != kpar)
            same = 0;
    f0 = malloc(w * sizeof *f0);
    f1 = malloc(w * sizeof *f1);
    if (f0 == NULL || f1 == NULL) {
        free(f0);
        free(f1);
        return BT_OK; /* keep the current method: only speed is at stake */
    }
    for (i = 0; i < w; i++) {
        f0[i] = s->hist[0][i];
        f1[i] = s->hist[1][i];
        e0 += s->hist[0][i];
        e1 += s->hist[1][i];
    }
    total = e0 + e1;
    wht(f0, w);
    wht(f1, w);
    for (dom = 0; dom <= (unsigned)same; dom++)
        for (i = 1; i < w; i++) {
            size_t cnt;
            if (dom == 0) {
                cnt = (size_t)(((int64_t)total + f0[i] + f1[i]) / 2);
            } else {
                size_t class0 = (size_t)(((int64_t)e0 + f0[i]) / 2 +
                                         ((int64_t)e1 - f1[i]) / 2);
                cnt = kpar == 0 ? class0 : total - class0;
            }
            if (cnt < best_count) {
                best_count = cnt;
                best = (unsigned)i;
                best_dom = dom;
                best_sigma = dom ? kpar : 0;
            }
        }
    free(f0);
    free(f1);
    /* The rare method costs about #sparse per value against n/2 for the
       plain one; demand a clear margin. */
    if (s->method == BT_SEQ_AUTO && best_count * 8 > s->n) {
        s->rare = 0;
        return BT_OK;
    }
    if (s->rare && best == s->mask && best_dom == s->domain)
        return BT_OK;
    s->mask = best;
    s->domain = best_dom;
    s->sigma = best_sigma;
    s->par_w = 0;
    s->nrare = 0;
    s->gen++; /* phase 1 done ahead is void */
    for (i = 1; i < s->n; i++)
        if (is_sparse(s, i, seq_at(s, i))) {
            bt_status st = bt__seq_rare_push(s, i, seq_at(s, i));
            if (st != BT_OK) {
                s->rare = 0;
                return st;
            }
        }
    s->rare = 1;
    return BT_OK;
}
