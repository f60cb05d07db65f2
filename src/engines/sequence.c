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
 * Periodicity is detected by scanning, for each candidate period p, back
 * from the end while G(i) = G(i + p); multiples of a period already seen
 * are skipped (their preperiod is the same, so they cannot do better).  It
 * is proved by the Guy-Smith theorem (octal games) or the subtraction-game
 * window, see include/bouton/grundy.h and docs/grundy.md.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engines/heapgame.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define MAXV BT__HEAP_MAXV    /* values are below this (16 bits) */
#define POLL_WORK (1u << 22) /* pair operations between interrupt polls */
#define WINDOW_MIN_SET 33    /* sliding windows from this set size on */
#define CONFIRM_BLOCK 64     /* pairs per split and round of the check */
#define SIMD_NEED 4          /* compare in registers from this few on */
#define GENERAL_WORK 256     /* the general method marks at most this many
                                option values per value of max_grundy */

struct bt_sequence {
    bt_game *game;           /* a reference, NULL for a game's own cache */
    const bt__heap_rules *r; /* borrowed from the game */
    bt_seq_method method;
    int window;  /* sliding-window method (subtraction) */
    uint16_t *g; /* G(0..n-1) */
    size_t n, cap;
    unsigned w;      /* a power of two above every value so far */
    uint8_t *seen;   /* MAXV + 64 bytes: option values seen */
    size_t *sr, *sh; /* per split: the heap split and the pairs */
    /* the rare-value method */
    int rare; /* in use for the next values */
    unsigned mask;
    unsigned domain; /* 1: the class also counts the position's
                        parity (Flammenkamp's sparse domain) */
    unsigned sigma;  /* the sparse class */
    uint32_t *rpos;  /* sparse positions >= 1, ascending */
    uint16_t *rval;  /* their values */
    size_t nrare, rcap;
    uint8_t *par; /* par[v] = parity of v AND mask, v < par_w */
    unsigned par_w;
    uint16_t *need;    /* values the check still looks for */
    size_t *pa;        /* per split: the next pair of the check */
    uint32_t *hist[2]; /* hist[x & 1][v]: positions x >= 1 of value v */
    size_t review;     /* the n at which to reconsider the method */
    /* sliding windows */
    uint32_t *cnt;              /* occurrences of each value in the windows */
    uint64_t *present;          /* MAXV bits: cnt[v] > 0 */
    uint64_t full[MAXV / 4096]; /* bit j: word j of present is all ones */
    /* periodicity */
    int has_period, proved;
    size_t period, preperiod;
    size_t best_need;   /* values the best proof candidate needs */
    size_t detected_at; /* n at the last detection */
    size_t work;        /* pair operations since the last poll */
    /* threads (the rare-value method in parallel blocks) */
    unsigned nthreads;      /* 1: the calling thread only */
    struct par_pool *pool;  /* made on first use, for nthreads */
    size_t solo_until;      /* one thread below this heap */
    size_t par_blk;         /* heaps of the next block (par_adapt); 0:
                               not chosen yet */
    unsigned par_hold;      /* blocks before par_blk may grow again */
    /* the choice between one thread and several, by measure (par_choose) */
    size_t est;      /* pair operations a heap, at the last choice */
    double rate[2];  /* pair operations a second of the last span on one
                        thread [0] and on several [1]; 0: not measured */
    unsigned choices;
    int trial;       /* the current choice is a trial of the loser */
    int timing;      /* the span being timed: 0 or 1; -1: none */
    double t_from;   /* its start, and its first heap */
    size_t n_from;
    int par_always;         /* tests: threads however little the work */
    int par_stats;          /* benchmarks: time the threads' waits */
    size_t goal;            /* the length being computed towards */
    bt_sequence_progress progress;
    void *progress_ud;
};

/* ------------------------------------------------------------ helpers */

static unsigned
ctz64(uint64_t x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned i = 0;
    while (!(x & 1u)) {
        x >>= 1;
        i++;
    }
    return i;
#endif
}

/* The parity of the number of one bits of v. */
static unsigned
parity(unsigned v)
{
    v ^= v >> 8;
    v ^= v >> 4;
    v ^= v >> 2;
    v ^= v >> 1;
    return v & 1u;
}

/* The class of position x of value v: parity(v AND mask), flipped on odd
   positions in the domain type.  Sparse positions are of class sigma. */
static int
is_sparse(const bt_sequence *s, size_t x, unsigned v)
{
    return (parity(v & s->mask) ^ (s->domain & (unsigned)x & 1u)) == s->sigma;
}

/* Writes n in decimal into buf (size 64), eliding the middle of a huge
   number. */
const char *
bt__heap_text(char *buf, const mpz_t n)
{
    size_t digits = mpz_sizeinbase(n, 10);
    if (digits <= 40) {
        gmp_snprintf(buf, 64, "%Zd", n);
    } else {
        char head[24];
        gmp_snprintf(head, sizeof head, "%Zd", n); /* the leading digits */
        snprintf(buf, 64, "%.20s... (%zu digits)", head, digits);
    }
    return buf;
}

/* ------------------------------------------------------------- rules */

void
bt__heap_rules_clear(bt__heap_rules *r)
{
    free(r->whole);
    free(r->one);
    free(r->split);
    free(r->triple);
    free(r->block);
    free(r->lo);
    free(r->hi);
    free(r->digit);
    memset(r, 0, sizeof *r);
}

bt_status
bt__heap_rules_digits(bt__heap_rules *r, bt__heap_kind kind,
                      const unsigned char *d, size_t t, int unequal)
{
    size_t k, nw = 0, no = 0, ns = 0, nt = 0;
    int only3 = 1;
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->t = t;
    r->unequal = unequal;
    r->digit = malloc(t + 1);
    r->whole = malloc((t + 1) * sizeof *r->whole);
    r->one = malloc((t + 1) * sizeof *r->one);
    r->split = malloc((t + 1) * sizeof *r->split);
    r->triple = malloc((t + 1) * sizeof *r->triple);
    if (r->digit == NULL || r->whole == NULL || r->one == NULL ||
        r->split == NULL || r->triple == NULL) {
        bt__heap_rules_clear(r);
        return BT_ENOMEM;
    }
    memcpy(r->digit, d, t + 1);
    for (k = 0; k <= t; k++) {
        if (d[k] & 1u)
            r->whole[nw++] = k;
        if (d[k] & 2u)
            r->one[no++] = k;
        if (d[k] & 4u)
            r->split[ns++] = k;
        if (d[k] & 8u)
            r->triple[nt++] = k;
        if (d[k] != 0 && d[k] != 3)
            only3 = 0;
    }
    r->nwhole = nw;
    r->none = no;
    r->nsplit = ns;
    r->ntriple = nt;
    r->general = nt > 0;
    /* Guy-Smith for octal codes; its extension to three heaps for the
       finite hexadecimal codes of tb (need_of) */
    r->provable = kind == BT__HEAP_OCTAL || kind == BT__HEAP_TB;
    r->sub_window = only3;
    return BT_OK;
}

unsigned
bt__heap_digit(const bt__heap_rules *r, size_t k)
{
    if (k <= r->t)
        return r->digit[k];
    return r->blen > 0 ? r->block[(k - r->t - 1) % r->blen] : 0u;
}

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
    if (r->nsplit > 0) {
        s->sr = malloc(r->nsplit * sizeof *s->sr);
        s->sh = malloc(r->nsplit * sizeof *s->sh);
        s->pa = malloc(r->nsplit * sizeof *s->pa);
    }
    if (s->window) {
        s->cnt = calloc(MAXV, sizeof *s->cnt);
        s->present = calloc(MAXV / 64, sizeof *s->present);
    }
    if (s->seen == NULL ||
        (r->nsplit > 0 && (s->sr == NULL || s->sh == NULL || s->pa == NULL)) ||
        (s->window && (s->cnt == NULL || s->present == NULL))) {
        bt_sequence_free(s);
        return BT_ENOMEM;
    }
    *out = s;
    return BT_OK;
}

/* Marks the values of the options that leave at most one heap. */
static void
mark_singles(const bt__heap_rules *r, const uint16_t *g, size_t n,
             uint8_t *seen)
{
    size_t i, k;
    for (i = 0; i < r->nwhole; i++)
        if (r->whole[i] == n)
            seen[0] = 1;
    for (i = 0; i < r->none; i++)
        if (r->one[i] < n)
            seen[g[n - r->one[i]]] = 1;
    /* a subtraction set: take k, leaving n - k (0 included) */
    for (i = 0; i < r->nint && r->lo[i] <= n; i++)
        for (k = r->lo[i]; k <= r->hi[i] && k <= n; k++)
            seen[g[n - k]] = 1;
}

/*
 * Marks G(a) XOR G(rest - a) for first <= a <= last.  The inner loop of the
 * plain method: two loads, an XOR and a byte store per pair, unrolled so
 * that the stores of independent pairs overlap.
 */
static void
mark_pairs(const uint16_t *g, size_t rest, size_t first, size_t last,
           uint8_t *seen)
{
    const uint16_t *lo = g + first, *hi = g + rest - first;
    size_t a = 0, h = last + 1 - first;
    for (; a + 4 <= h; a += 4) {
        unsigned v0 = lo[a] ^ *(hi - a);
        unsigned v1 = lo[a + 1] ^ *(hi - a - 1);
        unsigned v2 = lo[a + 2] ^ *(hi - a - 2);
        unsigned v3 = lo[a + 3] ^ *(hi - a - 3);
        seen[v0] = 1;
        seen[v1] = 1;
        seen[v2] = 1;
        seen[v3] = 1;
    }
    for (; a < h; a++)
        seen[lo[a] ^ *(hi - a)] = 1;
}

/* Marks G(x) XOR G(rest - x) for the sparse positions x = rpos[from..to-1]
   (phase 1 of the rare-value method). */
static void
mark_sparse(const uint16_t *g, size_t rest, const uint32_t *rpos,
            const uint16_t *rval, size_t from, size_t to, uint8_t *seen)
{
    const uint16_t *top = g + rest;
    size_t i = from;
    for (; i + 4 <= to; i += 4) {
        unsigned v0 = rval[i] ^ *(top - rpos[i]);
        unsigned v1 = rval[i + 1] ^ *(top - rpos[i + 1]);
        unsigned v2 = rval[i + 2] ^ *(top - rpos[i + 2]);
        unsigned v3 = rval[i + 3] ^ *(top - rpos[i + 3]);
        seen[v0] = 1;
        seen[v1] = 1;
        seen[v2] = 1;
        seen[v3] = 1;
    }
    for (; i < to; i++)
        seen[rval[i] ^ *(top - rpos[i])] = 1;
}

/* mark_sparse for two rests r0 and r1 at once, over the same sparse
   positions: one load of each position and value for two marks. */
static void
mark_sparse2(const uint16_t *g, size_t r0, size_t r1, const uint32_t *rpos,
             const uint16_t *rval, size_t from, size_t to, uint8_t *seen)
{
    const uint16_t *t0 = g + r0, *t1 = g + r1;
    size_t i = from;
    for (; i + 2 <= to; i += 2) {
        unsigned v0 = rval[i], v1 = rval[i + 1];
        size_t x0 = rpos[i], x1 = rpos[i + 1];
        unsigned a0 = v0 ^ *(t0 - x0), b0 = v0 ^ *(t1 - x0);
        unsigned a1 = v1 ^ *(t0 - x1), b1 = v1 ^ *(t1 - x1);
        seen[a0] = 1;
        seen[b0] = 1;
        seen[a1] = 1;
        seen[b1] = 1;
    }
    for (; i < to; i++) {
        seen[rval[i] ^ *(t0 - rpos[i])] = 1;
        seen[rval[i] ^ *(t1 - rpos[i])] = 1;
    }
}

/* Fills sr/sh with the splits of heap n (the rest after taking k, and the
   largest smaller part); returns how many apply. */
static size_t
splits_in(const bt__heap_rules *r, size_t n, size_t *sr, size_t *sh)
{
    size_t i, m = 0;
    for (i = 0; i < r->nsplit; i++) {
        size_t k = r->split[i], rest;
        if (n < k + 2)
            break; /* ascending k: the rest leave less */
        rest = n - k;
        sr[m] = rest;
        sh[m] = r->unequal ? (rest - 1) / 2 : rest / 2;
        if (sh[m] > 0)
            m++;
    }
    return m;
}

static size_t
splits_of(bt_sequence *s, size_t n)
{
    return splits_in(s->r, n, s->sr, s->sh);
}

static unsigned
value_plain(bt_sequence *s, size_t n)
{
    uint8_t *seen = s->seen;
    size_t i, m;
    memset(seen, 0, s->w + 1);
    mark_singles(s->r, s->g, n, seen);
    m = splits_of(s, n);
    for (i = 0; i < m; i++) {
        mark_pairs(s->g, s->sr[i], 1, s->sh[i], seen);
        s->work += s->sh[i];
    }
    return (unsigned)((const uint8_t *)memchr(seen, 0, s->w + 1) - seen);
}

/* Marks G(a) XOR G(b) XOR G(c) for every a <= b <= c >= 1 with
   a + b + c = m (the options that leave three heaps); adds the triples
   to *work. */
static void
mark_triples(const uint16_t *g, size_t m, uint8_t *seen, size_t *work)
{
    size_t a;
    for (a = 1; 3 * a <= m; a++) {
        size_t rest = m - a, b, h = rest / 2;
        unsigned x = g[a];
        const uint16_t *top = g + rest;
        for (b = a; b <= h; b++)
            seen[x ^ g[b] ^ *(top - b)] = 1;
        *work += h + 1 - a;
    }
}

/*
 * The general plain method, for codes with moves that leave three heaps
 * and for infinite codes: every k from 0 to n (to t for a finite code),
 * the digit's moves marked one by one.  O(n) per value for one heap,
 * O(n^2) with splits, O(n^3) with three heaps (per digit).
 */
static unsigned
value_general(bt_sequence *s, size_t n)
{
    const bt__heap_rules *r = s->r;
    uint8_t *seen = s->seen;
    const uint16_t *g = s->g;
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
            seen[g[rest]] = 1;
        if ((d & 4u) && rest >= 2) {
            size_t h = r->unequal ? (rest - 1) / 2 : rest / 2;
            if (h > 0)
                mark_pairs(g, rest, 1, h, seen);
            s->work += h;
        }
        if ((d & 8u) && rest >= 3)
            mark_triples(g, rest, seen, &s->work);
    }
    s->work += top;
    return (unsigned)((const uint8_t *)memchr(seen, 0, s->w + 1) - seen);
}

/*
 * An estimate of the option values the general method marks to compute
 * G(0..n-1): summed over the values m < n and the k the code allows, 1 for
 * a move that leaves one heap, (m - k)/2 for the splits in two and
 * (m - k)^2/12 for those in three; an infinite code's block rules about
 * m / blen of the k per digit.  Sums of m, m^2/2, m^3/6 over m < n are
 * about n^2/2, n^3/6, n^4/24.
 */
static double
general_work(const bt__heap_rules *r, size_t n)
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

#if defined(__SSE2__)
/* Reverses the eight 16-bit lanes of x. */
static __m128i
rev16(__m128i x)
{
    x = _mm_shuffle_epi32(x, 0x4E);
    x = _mm_shufflelo_epi16(x, 0x1B);
    return _mm_shufflehi_epi16(x, 0x1B);
}
#endif

/*
 * Looks at the pairs (a, rest - a), first <= a <= last, for the k values of
 * need[] (k <= SIMD_NEED), removing those found; returns how many remain.
 * Eight pairs at a time in SSE2 registers: the reversed upper parts are one
 * load and three shuffles.
 */
static size_t
compare_pairs(const uint16_t *g, size_t rest, size_t first, size_t last,
              uint16_t *need, size_t k)
{
    size_t a = first, i;
#if defined(__SSE2__)
    __m128i nv[SIMD_NEED];
    for (i = 0; i < k; i++)
        nv[i] = _mm_set1_epi16((short)need[i]);
    while (k > 0 && a + 7 <= last) {
        __m128i lo = _mm_loadu_si128((const void *)(g + a));
        __m128i hi = _mm_loadu_si128((const void *)(g + rest - a - 7));
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
        unsigned v = (unsigned)(g[a] ^ g[rest - a]);
        for (i = 0; i < k; i++)
            if (need[i] == v) {
                need[i] = need[--k];
                break;
            }
    }
    return k;
}

/*
 * The check of the rare-value method: every value below lim not yet among
 * the options must turn up in some split, else G is the least of those
 * missing.  The splits are scanned in rounds of CONFIRM_BLOCK pairs,
 * marking bytes while many values are missing and comparing in registers
 * once few are.
 */
static unsigned
confirm_need(const uint16_t *g, uint8_t *seen, uint16_t *need, size_t k,
             size_t *pa, const size_t *sr, const size_t *sh, size_t m,
             unsigned lim, size_t *work)
{
    size_t j, i;
    unsigned least;
    int live;

    if (k == 0)
        return lim;
    for (j = 0; j < m; j++)
        pa[j] = 1;
    do {
        live = 0;
        for (j = 0; j < m && k > 0; j++) {
            size_t a = pa[j], h = sh[j], rest = sr[j], last;
            if (a > h)
                continue;
            live = 1;
            /* blocks long enough that filtering need[] stays cheaper than
               the marking */
            last = a + (k > CONFIRM_BLOCK / 2 ? 2 * k : CONFIRM_BLOCK) - 1;
            if (last > h)
                last = h;
            pa[j] = last + 1;
            *work += last - a + 1;
            if (k <= SIMD_NEED) {
                k = compare_pairs(g, rest, a, last, need, k);
                continue;
            }
            mark_pairs(g, rest, a, last, seen);
            for (i = 0; i < k;) {
                if (seen[need[i]])
                    need[i] = need[--k];
                else
                    i++;
            }
        }
    } while (k > 0 && live);
    if (k == 0)
        return lim;
    least = need[0];
    for (i = 1; i < k; i++)
        if (need[i] < least)
            least = need[i];
    return least;
}

/* The check with the values below lim not among the options found in
   seen (seen[] need only be 0 at those values). */
static unsigned
confirm_in(const uint16_t *g, uint8_t *seen, uint16_t *need, size_t *pa,
           const size_t *sr, const size_t *sh, size_t m, unsigned lim,
           size_t *work)
{
    size_t k = 0;
    unsigned v;
    for (v = 0; v < lim; v++)
        if (!seen[v])
            need[k++] = (uint16_t)v;
    return confirm_need(g, seen, need, k, pa, sr, sh, m, lim, work);
}

static unsigned
confirm(bt_sequence *s, size_t m, unsigned lim)
{
    return confirm_in(s->g, s->seen, s->need, s->pa, s->sr, s->sh, m, lim,
                      &s->work);
}

/* The first sparse position above thr, among rpos[0..nr-1]. */
static size_t
rare_above(const uint32_t *rpos, size_t nr, size_t thr)
{
    size_t lo = 0, hi = nr;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rpos[mid] <= thr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* mark_sparse of split `rest` over the sparse positions rpos[lo..hi-1],
   less the split into two equal heaps (x = rest / 2) where the rules
   forbid it (Grundy's game). */
static void
mark_split(const bt_sequence *s, size_t rest, size_t lo, size_t hi,
           uint8_t *seen)
{
    if (s->r->unequal && rest % 2 == 0) {
        size_t mid = rare_above(s->rpos, hi, rest / 2 - 1);
        if (mid < lo)
            mid = lo;
        mark_sparse(s->g, rest, s->rpos, s->rval, lo, mid, seen);
        if (mid < hi && s->rpos[mid] == rest / 2)
            mid++;
        mark_sparse(s->g, rest, s->rpos, s->rval, mid, hi, seen);
    } else {
        mark_sparse(s->g, rest, s->rpos, s->rval, lo, hi, seen);
    }
}

/* The rare-value method (see the top of the file). */
static unsigned
value_rare(bt_sequence *s, size_t n)
{
    const uint16_t *g = s->g;
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
    memset(seen, 0, w + 1);
    mark_singles(s->r, g, n, seen);
    m = splits_of(s, n);
    if (m == 0)
        return (unsigned)((const uint8_t *)memchr(seen, 0, w + 1) - seen);
    /* 1. every split with a sparse part: that gives every option value of
       parity pi, the one splits of two common positions cannot give */
    j = 0;
    if (m >= 2 && !s->r->unequal) {
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
            seen[v ^ g[r0 - x]] = 1;
            seen[v ^ g[r1 - x]] = 1;
        }
        for (; i < c0; i++)
            seen[rval[i] ^ g[r0 - rpos[i]]] = 1;
        s->work += c0 + c1;
        j = 2;
    }
    for (; j < m; j++) {
        size_t rest = s->sr[j], cnt = nr;
        while (cnt > 0 && rpos[cnt - 1] >= rest)
            cnt--;
        mark_split(s, rest, 0, cnt, seen);
        s->work += cnt;
    }
    /* every split rest has the same parity in the domain type */
    pi = 1u ^ (s->domain & (unsigned)s->sr[0] & 1u);
    /* c: the least value of parity pi not among the options.  Options are
       below w, whose own parity is 0 (mask < w); above w the least value
       of parity 1 is w plus the lowest bit of the mask. */
    for (c = 0; c < w; c++)
        if (!seen[c] && par[c] == pi)
            break;
    if (c == w && pi == 1)
        c = w | (mask & (0u - mask));
    /* 2. G is c, or the least value below it still missing */
    return confirm(s, m, c < w ? c : w);
}

static void
win_add(bt_sequence *s, unsigned v)
{
    if (s->cnt[v]++ == 0) {
        uint64_t *wd = &s->present[v >> 6];
        *wd |= (uint64_t)1 << (v & 63);
        if (*wd == UINT64_MAX)
            s->full[v >> 12] |= (uint64_t)1 << ((v >> 6) & 63);
    }
}

static void
win_del(bt_sequence *s, unsigned v)
{
    if (--s->cnt[v] == 0) {
        s->full[v >> 12] &= ~((uint64_t)1 << ((v >> 6) & 63));
        s->present[v >> 6] &= ~((uint64_t)1 << (v & 63));
    }
}

/* Subtraction games with large sets: slide one window per interval. */
static unsigned
value_window(bt_sequence *s, size_t n)
{
    const bt__heap_rules *r = s->r;
    size_t i;
    for (i = 0; i < r->nint; i++) {
        if (n >= r->lo[i])
            win_add(s, s->g[n - r->lo[i]]);
        if (n >= r->hi[i] + 1)
            win_del(s, s->g[n - r->hi[i] - 1]);
    }
    s->work += r->nint;
    for (i = 0; i < MAXV / 4096; i++)
        if (s->full[i] != UINT64_MAX) {
            size_t wd = i * 64 + ctz64(~s->full[i]);
            return (unsigned)(wd * 64 + ctz64(~s->present[wd]));
        }
    return MAXV;
}

static bt_status
rare_push(bt_sequence *s, size_t pos, unsigned v)
{
    if (s->nrare == s->rcap) {
        size_t nc = s->rcap ? 2 * s->rcap : 256;
        uint32_t *p = realloc(s->rpos, nc * sizeof *p);
        uint16_t *q;
        if (p == NULL)
            return BT_ENOMEM;
        s->rpos = p;
        q = realloc(s->rval, nc * sizeof *q);
        if (q == NULL)
            return BT_ENOMEM;
        s->rval = q;
        s->rcap = nc;
    }
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
static bt_status
review(bt_sequence *s)
{
    const bt__heap_rules *r = s->r;
    size_t w = s->w, i, e0 = 0, e1 = 0, total, best_count = SIZE_MAX;
    unsigned best = 0, best_dom = 0, best_sigma = 0, kpar, dom;
    int64_t *f0, *f1;
    int same = 1;

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
            s->hist[i & 1u][s->g[i]]++;
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
    for (i = 1; i < s->n; i++)
        if (is_sparse(s, i, s->g[i])) {
            bt_status st = rare_push(s, i, s->g[i]);
            if (st != BT_OK) {
                s->rare = 0;
                return st;
            }
        }
    s->rare = 1;
    return BT_OK;
}

static bt_status
reserve(bt_sequence *s, size_t n)
{
    uint16_t *p;
    if (n <= s->cap)
        return BT_OK;
    p = realloc(s->g, n * sizeof *p);
    if (p == NULL)
        return BT_ENOMEM;
    s->g = p;
    s->cap = n;
    return BT_OK;
}

/* Appends G(i) = v, i = s->n: the method's tables follow the values. */
static bt_status
commit(bt_sequence *s, size_t i, unsigned v, bt_diag *diag)
{
    bt_status st;
    if (v >= MAXV)
        return bt__fail(diag, BT_ELIMIT,
                        "the Grundy value of heap %zu reaches 65536, "
                        "beyond the 16 bits the engine keeps",
                        i);
    s->g[i] = (uint16_t)v;
    s->n = i + 1;
    while (v >= s->w)
        s->w <<= 1;
    if (i >= 1) {
        if (s->hist[0] != NULL)
            s->hist[i & 1u][v]++;
        if (s->rare && is_sparse(s, i, v) &&
            (st = rare_push(s, i, v)) != BT_OK)
            return bt__fail(diag, st, "out of memory");
    }
    return BT_OK;
}

/* ------------------------------------------------- parallel blocks */

/*
 * The rare-value method on several threads, exact (docs/grundy.md).  The
 * heaps are taken in blocks [N, E).  For heap n of the block, a pair
 * (x, rest - x) with x sparse is "far" when rest - x < N: both of its
 * values are known before the block starts, so the far marks of every heap
 * of the block are computed by all threads at once.  The "near" pairs
 * (x <= rest - N: x is small) need values of the block itself; the calling
 * thread adds them heap after heap, with the single-heap options, and
 * takes the least value c of the wanted parity not among the options (the
 * first phase of value_rare).  It then guesses G(n) = min(c, w): the guess
 * is wrong only when some value below it is missing from every option,
 * which makes n a new sparse position; that is rare by the choice of the
 * mask.  The checks of the guesses (confirm, the costly second phase) of
 * the whole block run on all threads, while the calling thread guesses the
 * next block, and then with the far marks of the block after it (computed
 * on the guessed values): see par_extend.  The values are then taken in
 * order up to the first wrong guess, whose checked value is exact because
 * every value before it is; what follows it is computed again.  A block
 * also ends after a guess that is sparse or reaches w, since the sparse
 * positions and the width of the marks must stay those of its start.  The
 * threads meet once per block, never per heap.
 */

#define PAR_CHUNK 16      /* heaps a thread takes at a time */
#define PAR_MIN_BLOCK 64  /* heaps of a block, at least */
#define PAR_MAX_BLOCK 4096
#define PAR_MIN_LEFT 1024 /* fewer values than this to go: one thread */
#define PAR_BUF_BYTES ((size_t)4 << 20) /* marks of one block, at most */
#define PAR_SAMPLE 16     /* heaps whose work decides for threads or not */
#define PAR_MIN_WORK 100 /* pair operations a heap, at least, for threads
                            (Officers: 4 500; 0.354: 350) */
#define PAR_RETRY 8      /* every 8th choice tries the mode that lost, */
#define PAR_TRIAL 8      /* on an eighth of a span */
#define PAR_POLL 300e-6   /* seconds a waiting thread polls before it
                             sleeps (a block's jobs come microseconds
                             apart; a sleep and a wake-up cost tens) */
#define PAR_SPAN ((size_t)1 << 18) /* heaps between two such decisions, at
                                      most */
#define PAR_SLOTS 3 /* blocks in flight: checked, guessed, far-marked */
#define PAR_HOLD 16 /* blocks of one length after it halves (par_adapt) */

typedef struct par_scratch {
    uint8_t *seen;
    uint16_t *need;
    size_t *pa, *sr, *sh;
    size_t *near; /* par_guess: per split, the sparse positions near */
    size_t *far;  /* far_marks: per split, the first far sparse position */
    size_t nfar;  /* splits in far[] (of the heap before in the chunk) */
    size_t work;
} par_scratch;

typedef struct par_pool par_pool;

/* What a thread's time went to, in nanoseconds (counted only when the
   sequence's par_stats is set, for benchmarks: bt__sequence_par_stats).
   Atomic so that the calling thread may read another's at any time. */
enum {
    PT_WORK,  /* taking and doing chunks */
    PT_WAIT,  /* within a job, waiting: for the far marks (other threads),
                 for the others' last chunks (the calling thread) */
    PT_IDLE,  /* between jobs (other threads); guessing (the calling one) */
    PT_SLEEP, /* sleeps on a condition variable (a count) */
    PT_N
};

/* A thread's own data, in cache lines of its own (PAR_LINE): its scratch
   counts pair operations in the innermost loops, and a line shared with
   another thread's would go back and forth between their cores. */
#define PAR_LINE 64
typedef struct par_thread {
    _Alignas(PAR_LINE) par_pool *pool;
    par_scratch sc;
    pthread_t tid;
    int started;
    _Atomic uint64_t t[PT_N];
} par_thread;

/* The pool.  What every thread writes in a job (next, done) has a cache
   line each; what the calling thread writes once a job (the job, the
   flags) is apart from what it writes while the others work (lim), and
   each slot's lim and res start a line. */
struct par_pool {
    bt_sequence *s;
    pthread_mutex_t mu;
    pthread_cond_t go, fin, more; /* a job; its end; its far marks */
    uint64_t gen; /* the job's number */
    _Atomic int quit;
    _Atomic uint64_t agen; /* gen, for the threads that poll before they
                              sleep on `go` */
    unsigned nthreads; /* th[0] is the calling thread's scratch */
    par_thread *th;
    /* gen << 40 | chunks << 20 | next chunk: one compare-and-swap hands
       out a chunk of the current job only; the far marks' chunks may be
       added to the job after it starts (an atomic add), while `open` */
    _Alignas(PAR_LINE) _Atomic uint64_t next;
    _Alignas(PAR_LINE) _Atomic uint32_t done;
    _Alignas(PAR_LINE) _Atomic int open;
    _Atomic int sleepers; /* threads asleep on `more` till it closes */
    /* the job: check the guesses of heaps [clo, chi), whose marks are in
       slot cslot; far marks of heaps [flo, fhi) into slot fslot, with fnr
       sparse positions */
    size_t clo, chi, flo, fhi, cwords, fwords, fnr;
    unsigned cslot, fslot;
    /* the blocks in flight: marks, guesses and checked values */
    uint64_t *buf[PAR_SLOTS];
    size_t bufcap; /* words of each */
    _Alignas(PAR_LINE) unsigned lim[PAR_SLOTS][PAR_MAX_BLOCK];
    unsigned res[PAR_SLOTS][PAR_MAX_BLOCK];
    uint64_t *par; /* bit v: parity(v AND mask), v < par_bits */
    size_t par_bits;
    unsigned par_mask;
    /* benchmarks (par_stats): the meetings, the blocks guessed, their
       heaps, the heaps guessed again after a wrong guess, the pipelines
       filled (their first far marks alone) */
    int stats;
    uint64_t meetings, blocks, heaps, redone, fills;
    uint32_t probe; /* chunks done at 3/4 of the guesses (par_adapt) */
};

static void
scratch_free(par_scratch *sc)
{
    free(sc->seen);
    free(sc->need);
    free(sc->pa);
    free(sc->sr);
    free(sc->sh);
    free(sc->near);
    free(sc->far);
}

static int
scratch_init(par_scratch *sc, size_t nsplit)
{
    size_t k = nsplit > 0 ? nsplit : 1;
    memset(sc, 0, sizeof *sc);
    sc->seen = malloc(MAXV + 64);
    sc->need = malloc(MAXV * sizeof *sc->need);
    sc->pa = malloc(k * sizeof *sc->pa);
    sc->sr = malloc(k * sizeof *sc->sr);
    sc->sh = malloc(k * sizeof *sc->sh);
    sc->near = malloc(k * sizeof *sc->near);
    sc->far = malloc(k * sizeof *sc->far);
    if (sc->seen == NULL || sc->need == NULL || sc->pa == NULL ||
        sc->sr == NULL || sc->sh == NULL || sc->near == NULL ||
        sc->far == NULL) {
        scratch_free(sc);
        return -1;
    }
    return 0;
}

static void
set_bit(uint64_t *bits, unsigned v)
{
    bits[v >> 6] |= (uint64_t)1 << (v & 63);
}

/* ORs into bits[0..words-1] the bytes seen[0 .. 64 words - 1], each 0 or
   1.  With SSE2, a shift moves each byte's bit 0 to its sign bit and a
   movemask gathers sixteen signs; otherwise eight bytes make eight bits in
   one product (byte j of x lands on bit 56 + j of x * 0x0102040810204080,
   and no other pair of a byte and a factor reaches those bits or carries
   into them). */
static void
pack_or(uint64_t *bits, const uint8_t *seen, size_t words)
{
    size_t i;
#if defined(__SSE2__)
    /* sixteen bytes at a time: bit 0 of each byte shifted to its sign
       bit, and the signs gathered (movemask) */
    for (i = 0; i < words; i++) {
        const uint8_t *p = seen + i * 64;
        uint64_t m0 = (uint64_t)_mm_movemask_epi8(
            _mm_slli_epi16(_mm_loadu_si128((const void *)p), 7));
        uint64_t m1 = (uint64_t)_mm_movemask_epi8(
            _mm_slli_epi16(_mm_loadu_si128((const void *)(p + 16)), 7));
        uint64_t m2 = (uint64_t)_mm_movemask_epi8(
            _mm_slli_epi16(_mm_loadu_si128((const void *)(p + 32)), 7));
        uint64_t m3 = (uint64_t)_mm_movemask_epi8(
            _mm_slli_epi16(_mm_loadu_si128((const void *)(p + 48)), 7));
        bits[i] |= m0 | m1 << 16 | m2 << 32 | m3 << 48;
    }
#else
    size_t k;
    for (i = 0; i < words; i++) {
        uint64_t acc = 0;
        for (k = 0; k < 8; k++) {
            uint64_t x;
            memcpy(&x, seen + i * 64 + k * 8, sizeof x);
            acc |= ((x * UINT64_C(0x0102040810204080)) >> 56) << (8 * k);
        }
        bits[i] |= acc;
    }
#endif
}

/* The far marks of heap n for a block starting at base: pairs
   (x, rest - x), x sparse, rest - x < base.  Marked as bytes (stores
   that do not wait for one another), then packed.  `next`: heap n - 1
   was the one before in this thread, whose first far positions sc->far
   holds (they only grow with n, as near_marks' counts). */
static void
far_marks(const bt_sequence *s, par_scratch *sc, size_t n, size_t base,
          size_t nr, uint64_t *bits, size_t words, int next)
{
    const uint16_t *g = s->g;
    const uint32_t *rpos = s->rpos;
    const uint16_t *rval = s->rval;
    uint8_t *seen = sc->seen;
    int unequal = s->r->unequal;
    size_t m = splits_in(s->r, n, sc->sr, sc->sh), j;
    memset(bits, 0, words * sizeof *bits);
    memset(seen, 0, words * 64);
    for (j = 0; j < m; j++) {
        size_t rest = sc->sr[j], thr = rest > base ? rest - base : 0;
        size_t lo = next && j < sc->nfar ? sc->far[j]
                                         : rare_above(rpos, nr, thr);
        while (lo < nr && rpos[lo] <= thr)
            lo++;
        sc->far[j] = lo;
    }
    sc->nfar = m;
    j = 0;
    if (m >= 2 && !unequal) {
        /* the first two splits in one pass where their far positions
           overlap (as value_rare does; 0.354 has two splits) */
        size_t r0 = sc->sr[0], r1 = sc->sr[1], lo[2], hi[2], a, b, i;
        for (i = 0; i < 2; i++) {
            size_t rest = sc->sr[i];
            lo[i] = sc->far[i];
            hi[i] = nr;
            while (hi[i] > lo[i] && rpos[hi[i] - 1] >= rest)
                hi[i]--;
            sc->work += hi[i] - lo[i];
        }
        a = lo[0] > lo[1] ? lo[0] : lo[1];
        b = hi[0] < hi[1] ? hi[0] : hi[1];
        if (a < b) {
            mark_sparse2(g, r0, r1, rpos, rval, a, b, seen);
            mark_sparse(g, r0, rpos, rval, lo[0], a, seen);
            mark_sparse(g, r0, rpos, rval, b, hi[0], seen);
            mark_sparse(g, r1, rpos, rval, lo[1], a, seen);
            mark_sparse(g, r1, rpos, rval, b, hi[1], seen);
        } else {
            mark_sparse(g, r0, rpos, rval, lo[0], hi[0], seen);
            mark_sparse(g, r1, rpos, rval, lo[1], hi[1], seen);
        }
        j = 2;
    }
    for (; j < m; j++) {
        size_t rest = sc->sr[j], lo = sc->far[j], hi = nr;
        while (hi > lo && rpos[hi - 1] >= rest)
            hi--;
        mark_split(s, rest, lo, hi, seen);
        sc->work += hi - lo;
    }
    pack_or(bits, seen, words);
}

/* The least v < w not in bits, of parity pi under par (any with par
   NULL); w when there is none. */
static unsigned
least_free(const uint64_t *bits, const uint64_t *par, unsigned pi, unsigned w)
{
    size_t i, nw = (w + 63) / 64;
    for (i = 0; i < nw; i++) {
        uint64_t a = ~bits[i];
        if (par != NULL)
            a &= pi ? par[i] : ~par[i];
        if (a != 0) {
            unsigned v = (unsigned)(i * 64 + ctz64(a));
            return v < w ? v : w;
        }
    }
    return w;
}

/* The near marks of a heap of the block starting at N, whose m splits
   are in sc: pairs (x, rest - x), x sparse, rest - x >= N (a value
   guessed in the block).  near[j], the sparse positions x <= rest - N of
   split j, only grows from a heap to the next (the splits of a heap are a
   prefix of the next heap's): 0 for each at the block's start. */
static void
near_marks(const bt_sequence *s, par_scratch *sc, size_t m, size_t N,
           uint8_t *seen)
{
    const uint16_t *g = s->g;
    const uint32_t *rpos = s->rpos;
    const uint16_t *rval = s->rval;
    size_t nr = s->nrare, *near = sc->near, j;
    int unequal = s->r->unequal;
    for (j = 0; j < m; j++) {
        size_t rest = sc->sr[j], thr = rest > N ? rest - N : 0;
        while (near[j] < nr && rpos[near[j]] <= thr)
            near[j]++;
    }
    j = 0;
    if (m >= 2 && !unequal) {
        /* the first two splits in one pass, as far_marks */
        size_t a = near[0] < near[1] ? near[0] : near[1];
        mark_sparse2(g, sc->sr[0], sc->sr[1], rpos, rval, 0, a, seen);
        mark_sparse(g, sc->sr[0], rpos, rval, a, near[0], seen);
        mark_sparse(g, sc->sr[1], rpos, rval, a, near[1], seen);
        j = 2;
    }
    for (; j < m; j++)
        mark_split(s, sc->sr[j], 0, near[j], seen);
}

/*
 * The calling thread's part of block [N, E): the near marks and the single
 * heaps, then the guess for each heap.  Returns the end of the block
 * guessed, E or less (see above).
 */
static size_t
par_guess(bt_sequence *s, par_pool *pl, unsigned slot, size_t N, size_t E,
          size_t words)
{
    uint64_t *bits = pl->buf[slot];
    const bt__heap_rules *r = s->r;
    par_scratch *sc = &pl->th[0].sc;
    uint8_t *seen = sc->seen;
    uint16_t *g = s->g;
    unsigned w = s->w;
    size_t n, probe = N + (E - N) / 4 * 3;

    memset(sc->near, 0, (r->nsplit > 0 ? r->nsplit : 1) * sizeof *sc->near);
    pl->probe = 0;
    for (n = N; n < E; n++) {
        uint64_t *b = bits + (n - N) * words;
        size_t m = splits_in(r, n, sc->sr, sc->sh);
        unsigned lim;
        if (n == probe) /* for par_adapt */
            pl->probe = atomic_load(&pl->done);
        memset(seen, 0, words * 64);
        mark_singles(r, g, n, seen);
        if (m == 0) {
            pack_or(b, seen, words);
            lim = least_free(b, NULL, 0, w); /* w when all below are */
        } else {
            unsigned pi;
            near_marks(s, sc, m, N, seen);
            pack_or(b, seen, words);
            pi = 1u ^ (s->domain & (unsigned)sc->sr[0] & 1u);
            lim = least_free(b, pl->par, pi, w);
        }
        pl->lim[slot][n - N] = lim;
        g[n] = (uint16_t)(lim < MAXV ? lim : 0);
        if (lim >= w || is_sparse(s, n, lim))
            return n + 1;
    }
    return E;
}

/* Checks the guess for heap n: its value is the guess when every value
   below it is among the options, else the least one missing. */
static unsigned
par_check(const bt_sequence *s, par_scratch *sc, size_t n, const uint64_t *b,
          unsigned lim)
{
    size_t m = splits_in(s->r, n, sc->sr, sc->sh), k = 0, i;
    /* the values below lim missing from the marks: the zero bits, which
       are few; seen[] is cleared at them only */
    for (i = 0; (unsigned)i * 64 < lim; i++) {
        uint64_t z = ~b[i];
        if ((i + 1) * 64 > lim)
            z &= ((uint64_t)1 << (lim & 63)) - 1;
        while (z != 0) {
            unsigned v = (unsigned)(i * 64 + ctz64(z));
            z &= z - 1;
            sc->need[k++] = (uint16_t)v;
            sc->seen[v] = 0;
        }
    }
    return confirm_need(s->g, sc->seen, sc->need, k, sc->pa, sc->sr, sc->sh,
                        m, lim, &sc->work);
}

static size_t
chunks_of(size_t heaps)
{
    return (heaps + PAR_CHUNK - 1) / PAR_CHUNK;
}

/* One chunk of the current job: checks first, then far marks. */
static void
par_chunk(par_pool *pl, par_scratch *sc, size_t idx)
{
    const bt_sequence *s = pl->s;
    size_t nc = chunks_of(pl->chi - pl->clo), n, lo, hi;
    if (idx < nc) {
        const uint64_t *bits = pl->buf[pl->cslot];
        lo = pl->clo + idx * PAR_CHUNK;
        hi = lo + PAR_CHUNK < pl->chi ? lo + PAR_CHUNK : pl->chi;
        for (n = lo; n < hi; n++)
            pl->res[pl->cslot][n - pl->clo] =
                par_check(s, sc, n, bits + (n - pl->clo) * pl->cwords,
                          pl->lim[pl->cslot][n - pl->clo]);
        return;
    }
    lo = pl->flo + (idx - nc) * PAR_CHUNK;
    hi = lo + PAR_CHUNK < pl->fhi ? lo + PAR_CHUNK : pl->fhi;
    for (n = lo; n < hi; n++)
        far_marks(s, sc, n, pl->flo, pl->fnr,
                  pl->buf[pl->fslot] + (n - pl->flo) * pl->fwords,
                  pl->fwords, n > lo);
}

/* A pause in a polling loop. */
static void
cpu_relax(void)
{
#if defined(__SSE2__)
    _mm_pause();
#endif
}

/* The monotonic clock in nanoseconds. */
static uint64_t
mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double
mono_now(void)
{
    return (double)mono_ns() * 1e-9;
}

/* The clock in nanoseconds when the pool keeps statistics, else 0. */
static uint64_t
stat_now(const par_pool *pl)
{
    return pl->stats ? mono_ns() : 0;
}

/* Adds the time since *t0 (from stat_now) to counter k of thread t, and
   sets *t0 to now. */
static void
stat_add(const par_pool *pl, par_thread *t, int k, uint64_t *t0)
{
    uint64_t now;
    if (!pl->stats)
        return;
    now = stat_now(pl);
    atomic_fetch_add_explicit(&t->t[k], now - *t0, memory_order_relaxed);
    *t0 = now;
}

/* One pause of a polling loop, its k-th; returns 1 once PAR_POLL seconds
   have passed since the first look at the clock (*t0, 0 before it).  By
   the clock, not by a count of pauses: a pause lasts from a few cycles to
   over a hundred according to the processor. */
static int
spin_timed_out(unsigned k, double *t0)
{
    double t;
    cpu_relax();
    if ((k & 63) != 0)
        return 0;
    t = mono_now();
    if (*t0 == 0) {
        *t0 = t;
        return 0;
    }
    return t - *t0 > PAR_POLL;
}

/* Polls *flag until it differs from old (or quit is set), for at most
   PAR_POLL seconds; returns 1 when it changed (or quit), 0 on time out. */
static int
poll_change(_Atomic uint64_t *flag, uint64_t old, _Atomic int *quit)
{
    double t0 = 0;
    unsigned k;
    for (k = 1;; k++) {
        if (atomic_load(flag) != old || atomic_load(quit))
            return 1;
        if (spin_timed_out(k, &t0))
            return 0;
    }
}

/* Takes and does chunks of job gen until none is left and none can be
   added (the job is no longer open). */
static void
par_work(par_pool *pl, par_thread *t, uint64_t gen)
{
    par_scratch *sc = &t->sc;
    unsigned polls = 0;
    double p0 = 0;
    uint64_t t0 = stat_now(pl);
    int waiting = 0;
    for (;;) {
        uint64_t cur = atomic_load(&pl->next);
        uint64_t total = (cur >> 20) & 0xFFFFFu, idx = cur & 0xFFFFFu;
        if ((cur >> 40) != gen)
            break;
        if (idx >= total) {
            /* the far marks may still come: wait for them, or for the
               job to close (then look at next once more) */
            if (!atomic_load(&pl->open)) {
                cur = atomic_load(&pl->next);
                if ((cur >> 40) != gen || (cur & 0xFFFFFu) >=
                                              ((cur >> 20) & 0xFFFFFu))
                    break;
                continue;
            }
            if (!waiting) {
                stat_add(pl, t, PT_WORK, &t0);
                waiting = 1;
            }
            if (spin_timed_out(++polls, &p0)) {
                /* the guesses take long (or their thread lost its
                   core): sleep until the job closes (par_close) */
                pthread_mutex_lock(&pl->mu);
                atomic_fetch_add(&pl->sleepers, 1);
                while (atomic_load(&pl->open) &&
                       (atomic_load(&pl->next) >> 40) == gen)
                    pthread_cond_wait(&pl->more, &pl->mu);
                atomic_fetch_sub(&pl->sleepers, 1);
                pthread_mutex_unlock(&pl->mu);
                if (pl->stats)
                    atomic_fetch_add_explicit(&t->t[PT_SLEEP], 1,
                                              memory_order_relaxed);
                polls = 0;
                p0 = 0;
            }
            continue;
        }
        if (!atomic_compare_exchange_weak(&pl->next, &cur, cur + 1))
            continue;
        if (waiting) {
            stat_add(pl, t, PT_WAIT, &t0);
            waiting = 0;
        }
        par_chunk(pl, sc, (size_t)idx);
        /* the total now: chunks may have been added since this one was
           taken, and the last chunk to end must see them */
        if (atomic_fetch_add(&pl->done, 1) + 1 ==
            ((atomic_load(&pl->next) >> 20) & 0xFFFFFu)) {
            pthread_mutex_lock(&pl->mu);
            pthread_cond_signal(&pl->fin);
            pthread_mutex_unlock(&pl->mu);
        }
    }
    stat_add(pl, t, waiting ? PT_WAIT : PT_WORK, &t0);
}

static void *
par_main(void *arg)
{
    par_thread *t = arg;
    par_pool *pl = t->pool;
    uint64_t mine = 0, t0;
    for (;;) {
        t0 = stat_now(pl);
        /* poll a while first: a block's jobs come a few microseconds
           apart, less than a sleep and a wake-up cost */
        if (!poll_change(&pl->agen, mine, &pl->quit)) {
            pthread_mutex_lock(&pl->mu);
            while (pl->gen == mine && !atomic_load(&pl->quit))
                pthread_cond_wait(&pl->go, &pl->mu);
            pthread_mutex_unlock(&pl->mu);
            if (pl->stats)
                atomic_fetch_add_explicit(&t->t[PT_SLEEP], 1,
                                          memory_order_relaxed);
        }
        if (atomic_load(&pl->quit))
            break;
        stat_add(pl, t, PT_IDLE, &t0);
        mine = atomic_load(&pl->agen);
        par_work(pl, t, mine);
    }
    return NULL;
}

/* Starts the job set in pl (its checks, and its far marks when they are
   set already) on the other threads; with `open`, far marks may be added
   by par_add_far.  Returns the job's number. */
static uint64_t
par_post(par_pool *pl, int open)
{
    uint64_t total =
        chunks_of(pl->chi - pl->clo) + chunks_of(pl->fhi - pl->flo), gen;
    pthread_mutex_lock(&pl->mu);
    gen = ++pl->gen & 0xFFFFFFu;
    if (gen == 0)
        gen = pl->gen = 1;
    pl->gen = gen;
    atomic_store(&pl->done, 0);
    atomic_store(&pl->open, open);
    atomic_store(&pl->next, gen << 40 | total << 20);
    atomic_store(&pl->agen, gen); /* after the job it names */
    pthread_cond_broadcast(&pl->go);
    pthread_mutex_unlock(&pl->mu);
    return gen;
}

/* Closes the open job: no chunk is added after; wakes the threads that
   sleep waiting for chunks (they counted themselves in `sleepers` before
   they looked at `open`, and this looks at `sleepers` after it clears
   `open`, so one of the two sees the other). */
static void
par_close(par_pool *pl)
{
    atomic_store(&pl->open, 0);
    if (atomic_load(&pl->sleepers) > 0) {
        pthread_mutex_lock(&pl->mu);
        pthread_cond_broadcast(&pl->more);
        pthread_mutex_unlock(&pl->mu);
    }
}

/* Adds to the open job the far marks of heaps [lo, hi) into slot, and
   closes it. */
static void
par_add_far(par_pool *pl, size_t lo, size_t hi, unsigned slot, size_t nr,
            size_t words)
{
    pl->flo = lo;
    pl->fhi = hi;
    pl->fslot = slot;
    pl->fnr = nr;
    pl->fwords = words;
    atomic_fetch_add(&pl->next, (uint64_t)chunks_of(hi - lo) << 20);
    par_close(pl);
}

/* Takes chunks of job gen on the calling thread too, then waits until
   every chunk is done. */
static void
par_finish(par_pool *pl, uint64_t gen)
{
    uint32_t total;
    unsigned k;
    double t0 = 0;
    uint64_t s0;
    par_work(pl, &pl->th[0], gen);
    s0 = stat_now(pl);
    pl->meetings++;
    total = (uint32_t)((atomic_load(&pl->next) >> 20) & 0xFFFFFu);
    /* poll (by the clock, as poll_change) for the others' last chunks */
    for (k = 1; atomic_load(&pl->done) < total; k++)
        if (spin_timed_out(k, &t0))
            break;
    if (atomic_load(&pl->done) < total) {
        pthread_mutex_lock(&pl->mu);
        /* done, not a flag: the wake-up of the last job's last chunk may
           come late, and must not end the wait for this one */
        while (atomic_load(&pl->done) < total)
            pthread_cond_wait(&pl->fin, &pl->mu);
        pthread_mutex_unlock(&pl->mu);
        if (pl->stats)
            pl->th[0].t[PT_SLEEP]++;
    }
    stat_add(pl, &pl->th[0], PT_WAIT, &s0);
}

/* Runs the job set in pl on every thread, the caller's included. */
static void
par_run(par_pool *pl)
{
    if (pl->chi == pl->clo && pl->fhi == pl->flo)
        return;
    par_finish(pl, par_post(pl, 0));
}

static void
par_free(par_pool *pl)
{
    unsigned i;
    if (pl == NULL)
        return;
    pthread_mutex_lock(&pl->mu);
    atomic_store(&pl->quit, 1);
    pthread_cond_broadcast(&pl->go);
    pthread_mutex_unlock(&pl->mu);
    for (i = 1; i < pl->nthreads; i++)
        if (pl->th[i].started)
            pthread_join(pl->th[i].tid, NULL);
    for (i = 0; i < pl->nthreads; i++)
        scratch_free(&pl->th[i].sc);
    pthread_mutex_destroy(&pl->mu);
    pthread_cond_destroy(&pl->go);
    pthread_cond_destroy(&pl->fin);
    pthread_cond_destroy(&pl->more);
    free(pl->th);
    for (i = 0; i < PAR_SLOTS; i++)
        free(pl->buf[i]);
    free(pl->par);
    free(pl);
}

/* size bytes, zero, from a cache line's start (PAR_LINE); free() frees
   them. */
static void *
alloc_lines(size_t size)
{
    void *p;
    size = (size + PAR_LINE - 1) / PAR_LINE * PAR_LINE;
    p = aligned_alloc(PAR_LINE, size);
    if (p != NULL)
        memset(p, 0, size);
    return p;
}

/* The threads of s; NULL when they cannot be made (s then runs on one). */
static par_pool *
par_start(bt_sequence *s)
{
    par_pool *pl = alloc_lines(sizeof *pl);
    unsigned i;
    if (pl == NULL)
        return NULL;
    pl->s = s;
    pl->stats = s->par_stats;
    pl->nthreads = s->nthreads;
    pl->th = alloc_lines(pl->nthreads * sizeof *pl->th);
    pthread_mutex_init(&pl->mu, NULL);
    pthread_cond_init(&pl->go, NULL);
    pthread_cond_init(&pl->fin, NULL);
    pthread_cond_init(&pl->more, NULL);
    atomic_init(&pl->sleepers, 0);
    atomic_init(&pl->next, 0);
    atomic_init(&pl->done, 0);
    atomic_init(&pl->agen, 0);
    atomic_init(&pl->quit, 0);
    atomic_init(&pl->open, 0);
    if (pl->th == NULL) {
        pl->nthreads = 0;
        par_free(pl);
        return NULL;
    }
    for (i = 0; i < pl->nthreads; i++) {
        pl->th[i].pool = pl;
        if (scratch_init(&pl->th[i].sc, s->r->nsplit) != 0) {
            pl->nthreads = i; /* those made so far are freed */
            par_free(pl);
            return NULL;
        }
    }
    for (i = 1; i < pl->nthreads; i++) {
        if (pthread_create(&pl->th[i].tid, NULL, par_main, &pl->th[i]) != 0)
            break;
        pl->th[i].started = 1;
    }
    return pl;
}

/* The most heaps of a block whose marks take `words` words each. */
static size_t
par_block_max(size_t words)
{
    size_t b = PAR_MAX_BLOCK;
    while (b > PAR_MIN_BLOCK && b * words * sizeof(uint64_t) > PAR_BUF_BYTES)
        b /= 2;
    return b;
}

/* The most heaps a block may have now: what the buffers hold, and no more
   than twice the heaps since the last sparse position, since a new one
   ends the block and the far marks after it are lost. */
static size_t
par_block_cap(const bt_sequence *s, size_t words)
{
    size_t b = PAR_MIN_BLOCK, max = par_block_max(words);
    size_t gap = s->nrare > 0 ? s->n - s->rpos[s->nrare - 1] : s->n;
    while (b < max && b < gap)
        b *= 2;
    return b;
}

/* Heaps of the next block: s->par_blk (par_adapt) within the cap; at
   first, about an eighth of the sparse positions below it, so that the
   near marks (the part of one thread) stay few. */
static size_t
par_block(bt_sequence *s, size_t words)
{
    size_t cap = par_block_cap(s, words), b = s->par_blk;
    if (b == 0) {
        size_t x = s->nrare > 0 ? s->rpos[s->nrare / 8] : 0;
        b = PAR_MIN_BLOCK;
        while (b < x && b < PAR_MAX_BLOCK)
            b *= 2;
        s->par_blk = b;
    }
    return b < cap ? b : cap;
}

/*
 * The length of the blocks, by measure.  Each meeting of the threads
 * costs a few microseconds whatever the block's length (0.354: about as
 * much as 10 heaps of work), so blocks should be long; but the guesses of
 * a block, on the calling thread alone, cost more a heap the longer the
 * block (more of its pairs are near), and while they run the other
 * threads check the block before: once those checks are done the others
 * wait.  So the calling thread looks how far the checks of the `checked`
 * heaps before have gone: all done already at 3/4 of its `guessed`
 * guesses (pl->probe), the others waited more than a quarter of the
 * guesses, and the blocks halve (a shorter wait costs less than the
 * meetings that shorter blocks add); not all taken at the end, scaled by the
 * two lengths (the guesses cost less a heap than the checks), they double,
 * up to the cap.  After halving they keep their length for PAR_HOLD
 * blocks, so that two lengths do not alternate at every block.  The
 * length changes the time only, never a value.
 */
static void
par_adapt(bt_sequence *s, par_pool *pl, size_t checked, size_t guessed,
          size_t words)
{
    size_t nc = chunks_of(checked);
    uint64_t taken = atomic_load(&pl->next) & 0xFFFFFu;
    if (pl->probe >= nc) {
        if (s->par_blk > PAR_MIN_BLOCK) {
            s->par_blk /= 2;
            s->par_hold = PAR_HOLD;
        }
    } else if (s->par_hold > 0) {
        s->par_hold--;
    } else if (taken * checked < nc * guessed &&
               s->par_blk < par_block_cap(s, words)) {
        s->par_blk *= 2;
    }
}

static int
par_buffers(par_pool *pl, size_t words, unsigned mask)
{
    size_t need = par_block_max(words) * words, bits = words * 64, v;
    if (need > pl->bufcap) {
        size_t i;
        for (i = 0; i < PAR_SLOTS; i++) {
            uint64_t *p = realloc(pl->buf[i], need * sizeof *p);
            if (p == NULL)
                return -1;
            pl->buf[i] = p;
        }
        pl->bufcap = need;
    }
    if (pl->par_bits < bits || pl->par_mask != mask) {
        uint64_t *p = realloc(pl->par, words * sizeof *p);
        if (p == NULL)
            return -1;
        pl->par = p;
        memset(p, 0, words * sizeof *p);
        for (v = 0; v < bits; v++)
            if (parity((unsigned)v & mask))
                set_bit(p, (unsigned)v);
        pl->par_bits = bits;
        pl->par_mask = mask;
    }
    return 0;
}

/* Tells the progress callback how far the values are, and polls the
   interrupt: between blocks, or every POLL_WORK pair operations. */
static bt_status
report(bt_sequence *s, const bt_limits *lim, bt_diag *diag)
{
    if (s->progress != NULL)
        s->progress(s->progress_ud, s);
    if (bt__poll(lim) != BT_OK)
        return bt__fail(diag, BT_EINTR,
                        "interrupted after %zu Grundy values "
                        "(the time budget ran out)",
                        s->n);
    return BT_OK;
}

/* Commits the checked values of block [lo, hi) in slot, up to the first
   wrong guess (whose checked value is exact, docs/grundy.md); *all: 1 when
   every guess was right. */
static bt_status
par_commit(bt_sequence *s, par_pool *pl, unsigned slot, size_t lo, size_t hi,
           int *all, bt_diag *diag)
{
    size_t i;
    bt_status st;
    *all = 1;
    for (i = lo; i < hi; i++) {
        unsigned v = pl->res[slot][i - lo];
        if ((st = commit(s, i, v, diag)) != BT_OK)
            return st;
        if (v != pl->lim[slot][i - lo]) {
            *all = 0;
            break;
        }
    }
    return BT_OK;
}

/*
 * Computes G(s->n .. end-1) with the rare-value method on s->nthreads
 * threads; the values are those of the sequential method.  A pipeline of
 * three blocks: while the calling thread guesses block B (its far marks
 * are ready), the other threads check block B - 1; once the guesses of B
 * are made, every thread computes the far marks of block B + 1 (on the
 * guessed values) and finishes the checks.  The threads meet once a block,
 * and the guesses, the one part that runs on one thread, no longer leave
 * the others idle.  At the first wrong guess of B - 1 the blocks after it
 * are thrown away; a block that ends early (a guess of the sparse class,
 * or one that reaches w) empties the pipeline.
 */
static bt_status
par_extend(bt_sequence *s, size_t end, const bt_limits *lim, bt_diag *diag)
{
    par_pool *pl = s->pool;
    while (s->n < end) {
        size_t N = s->n, nr = s->nrare, gap;
        size_t pn = N, pe = N;  /* guessed, to check: [pn, pe) */
        size_t gn = N, ge;      /* far marks ready, to guess: [gn, ge) */
        unsigned w = s->w, pslot = 0, gslot = 0;
        /* marks are below w, a power of two: w / 64 words (one below
           64), 2 for 0.354 where there were 3 */
        size_t words = ((size_t)w + 63) / 64;
        bt_status st;
        int all = 1;
        gap = nr > 0 ? N - s->rpos[nr - 1] : N;
        if (gap < PAR_MIN_BLOCK) {
            /* sparse positions come thick: a block would end at the next
               one, so take this value on one thread */
            if ((st = commit(s, N, value_rare(s, N), diag)) != BT_OK)
                return st;
            continue;
        }
        if (par_buffers(pl, words, s->mask) != 0)
            return bt__fail(diag, BT_ENOMEM, "out of memory");
        /* fill the pipeline: the far marks of the first block */
        ge = N + par_block(s, words);
        if (ge > end)
            ge = end;
        pl->clo = pl->chi = 0;
        pl->flo = gn;
        pl->fhi = ge;
        pl->fslot = gslot;
        pl->fnr = nr;
        pl->fwords = words;
        par_run(pl);
        pl->fills++;
        while (gn < ge) {
            size_t ne = 0, gend;
            unsigned nslot = (gslot + 1) % PAR_SLOTS;
            uint64_t gen, t0;
            if (nslot == pslot && pe > pn)
                nslot = (nslot + 1) % PAR_SLOTS;
            /* the others check [pn, pe) while this thread guesses */
            pl->clo = pn;
            pl->chi = pe;
            pl->cslot = pslot;
            pl->cwords = words;
            pl->flo = pl->fhi = 0;
            gen = par_post(pl, 1);
            t0 = stat_now(pl);
            gend = par_guess(s, pl, gslot, gn, ge, words);
            stat_add(pl, &pl->th[0], PT_IDLE, &t0);
            pl->blocks++;
            pl->heaps += gend - gn;
            if (gend == ge && pe > pn)
                par_adapt(s, pl, pe - pn, ge - gn, words);
            if (gend == ge && ge < end) {
                ne = ge + par_block(s, words);
                if (ne > end)
                    ne = end;
                par_add_far(pl, ge, ne, nslot, nr, words);
            } else {
                par_close(pl);
            }
            par_finish(pl, gen);
            if (pe > pn) {
                if ((st = par_commit(s, pl, pslot, pn, pe, &all, diag)) !=
                    BT_OK)
                    return st;
                /* after values only: a checkpoint written before the
                   first value after a review of the mask would show the
                   new mask with values that do not give it yet */
                if ((st = report(s, lim, diag)) != BT_OK)
                    return st;
                if (!all) {
                    /* what follows is computed again */
                    pl->redone += gend - s->n;
                    break;
                }
            }
            pn = gn;
            pe = gend;
            pslot = gslot;
            if (ne > ge) {
                gn = ge;
                ge = ne;
                gslot = nslot;
            } else {
                gn = ge = pe; /* no next block: empty the pipeline */
            }
        }
        if (all && pe > pn) {
            /* the last block guessed: its checks alone */
            pl->clo = pn;
            pl->chi = pe;
            pl->cslot = pslot;
            pl->cwords = words;
            pl->flo = pl->fhi = 0;
            par_run(pl);
            if ((st = par_commit(s, pl, pslot, pn, pe, &all, diag)) != BT_OK ||
                (st = report(s, lim, diag)) != BT_OK)
                return st;
        }
    }
    return BT_OK;
}

static void
span_begin(bt_sequence *s, int mode)
{
    s->timing = mode;
    s->t_from = mono_now();
    s->n_from = s->n;
}

/* Ends the span being timed, if any: the rate of its mode. */
static void
span_end(bt_sequence *s)
{
    if (s->timing >= 0) {
        double dt = mono_now() - s->t_from;
        if (dt > 0 && s->n > s->n_from)
            s->rate[s->timing] =
                (double)(s->n - s->n_from) * (double)s->est / dt;
        s->timing = -1;
    }
}

/*
 * Whether the heaps from s->n run on several threads (1) or on the
 * calling thread (0).  The pair operations of the last PAR_SAMPLE heaps,
 * computed again (their values are known; only the count is kept), give
 * the work a heap; below PAR_MIN_WORK one thread, always (the meetings
 * would cost more than the work).  Above it the choice is measured: each
 * span of heaps is timed, in pair operations a second, and the faster
 * mode of the last spans is taken, the other being tried again, on a span
 * PAR_TRIAL times shorter, every PAR_RETRY-th choice.  So on cores that
 * other programs hold, where the threads wait for one another, one thread
 * is kept; on free cores, the threads.  The choice changes the time, never
 * a value.
 */
static int
par_choose(bt_sequence *s)
{
    size_t saved = s->work, k;
    int best;
    s->trial = 0;
    if (s->par_always)
        return 1;
    if (s->n < PAR_MIN_LEFT)
        return 0;
    s->work = 0;
    for (k = 1; k <= PAR_SAMPLE; k++)
        (void)value_rare(s, s->n - k);
    s->est = s->work / PAR_SAMPLE + 1;
    s->work = saved;
    if (s->est < PAR_MIN_WORK)
        return 0;
    if (s->rate[1] == 0)
        return 1;
    if (s->rate[0] == 0)
        return 0;
    best = s->rate[1] > s->rate[0];
    if (++s->choices % PAR_RETRY == 0) {
        s->trial = 1;
        return !best;
    }
    return best;
}

/* For benchmarks (not in the public header): time the threads' work and
   waits (call it before the first use of threads). */
void bt__sequence_par_stats_on(bt_sequence *s);
/* Writes what the threads did into buf (one line of text). */
void bt__sequence_par_stats(const bt_sequence *s, char *buf, size_t len);

void
bt__sequence_par_stats_on(bt_sequence *s)
{
    s->par_stats = 1;
}

void
bt__sequence_par_stats(const bt_sequence *s, char *buf, size_t len)
{
    const par_pool *pl = s->pool;
    double t[2][PT_N] = {{0}};
    unsigned i, k;
    if (pl == NULL) {
        snprintf(buf, len, "threads never used");
        return;
    }
    for (i = 0; i < pl->nthreads; i++)
        for (k = 0; k < PT_N; k++)
            t[i > 0][k] += (double)atomic_load(&pl->th[i].t[k]);
    snprintf(buf, len,
             "%llu meetings, %llu blocks of %.0f heaps on average, %llu "
             "heaps guessed again, %llu fills; calling thread: guesses "
             "%.2f s, chunks %.2f s, waits %.2f s, %.0f sleeps; other "
             "threads: chunks %.2f s, waits in a job %.2f s, between jobs "
             "%.2f s, %.0f sleeps",
             (unsigned long long)pl->meetings,
             (unsigned long long)pl->blocks,
             pl->blocks ? (double)pl->heaps / (double)pl->blocks : 0.0,
             (unsigned long long)pl->redone, (unsigned long long)pl->fills,
             t[0][PT_IDLE] * 1e-9, t[0][PT_WORK] * 1e-9,
             t[0][PT_WAIT] * 1e-9, t[0][PT_SLEEP], t[1][PT_WORK] * 1e-9,
             t[1][PT_WAIT] * 1e-9, t[1][PT_IDLE] * 1e-9, t[1][PT_SLEEP]);
}

/* For tests (not in the public header): threads whenever they apply,
   however little the work per heap, so that small games exercise them. */
void bt__sequence_par_always(bt_sequence *s);

void
bt__sequence_par_always(bt_sequence *s)
{
    s->par_always = 1;
    s->solo_until = 0;
}

static bt_status extend_run(bt_sequence *s, size_t n, const bt_limits *lim,
                            bt_diag *diag);

/* Computes G(s->n .. n-1). */
static bt_status
extend(bt_sequence *s, size_t n, const bt_limits *lim, bt_diag *diag)
{
    bt_status st = extend_run(s, n, lim, diag);
    span_end(s); /* the span's time must not count what the caller does */
    return st;
}

static bt_status
extend_run(bt_sequence *s, size_t n, const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    if (n <= s->n)
        return BT_OK;
    if (n > lim->max_grundy)
        return bt__fail(diag, BT_ELIMIT,
                        "%zu values of the Grundy sequence exceed the "
                        "max_grundy limit (%zu)",
                        n, lim->max_grundy);
    if (lim->max_memory != 0 && n > lim->max_memory / sizeof *s->g)
        return bt__fail(diag, BT_ELIMIT,
                        "%zu values of the Grundy sequence need more than "
                        "the max_memory limit of %zu bytes",
                        n, lim->max_memory);
    if (s->r->general &&
        general_work(s->r, n) > (double)lim->max_grundy * GENERAL_WORK)
        return bt__fail(diag, BT_ELIMIT,
                        "%zu values of the Grundy sequence of this code "
                        "need about %.3g option values (moves that leave "
                        "three heaps, or an infinite code, take the plain "
                        "method), more than %d times the max_grundy limit "
                        "(%zu)",
                        n, general_work(s->r, n), GENERAL_WORK,
                        lim->max_grundy);
    if (reserve(s, n) != BT_OK)
        return bt__fail(diag, BT_ENOMEM, "out of memory for %zu values", n);
    s->goal = n;
    while (s->n < n) {
        size_t i = s->n;
        unsigned v;
        if (i == s->review && (st = review(s)) != BT_OK)
            return bt__fail(diag, st, "out of memory");
        if (s->nthreads > 1 && s->rare && !s->window &&
            n - i >= PAR_MIN_LEFT && i >= s->solo_until) {
            /* a span: twice the heaps so far, then PAR_SPAN at most */
            size_t stop = i + (i < PAR_MIN_LEFT ? PAR_MIN_LEFT
                               : i < PAR_SPAN   ? i
                                                : PAR_SPAN);
            int par;
            span_end(s);
            par = par_choose(s);
            if (s->trial && stop - i > PAR_TRIAL)
                stop = i + (stop - i) / PAR_TRIAL;
            if (stop > s->review)
                stop = s->review;
            if (!par) {
                s->solo_until = stop;
                span_begin(s, 0);
            } else {
                if (s->pool == NULL)
                    s->pool = par_start(s);
                if (s->pool != NULL) {
                    span_begin(s, 1);
                    st = par_extend(s, stop < n ? stop : n, lim, diag);
                    span_end(s);
                    if (st != BT_OK)
                        return st;
                    continue;
                }
                s->solo_until = stop; /* no threads to be had */
            }
        }
        if (s->window)
            v = value_window(s, i);
        else if (s->r->general)
            v = value_general(s, i);
        else if (s->rare)
            v = value_rare(s, i);
        else
            v = value_plain(s, i);
        if ((st = commit(s, i, v, diag)) != BT_OK)
            return st;
        if (++s->work >= POLL_WORK) {
            s->work = 0;
            if ((st = report(s, lim, diag)) != BT_OK)
                return st;
        }
    }
    return BT_OK;
}

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
static unsigned
at_periodic(const bt_sequence *s, size_t i, size_t p, size_t n0)
{
    if (i < s->n)
        return s->g[i];
    return s->g[n0 + (i - n0) % p];
}

/* The least period and preperiod of a sequence proved p-periodic from n0:
   the least period divides p, and one whole period decides it. */
static void
set_proved(bt_sequence *s, size_t p, size_t n0)
{
    size_t d, i, m;
    for (d = 1; d < p; d++) {
        if (p % d != 0)
            continue;
        for (i = n0; i < n0 + p; i++)
            if (at_periodic(s, i, p, n0) != at_periodic(s, i + d, p, n0))
                break;
        if (i == n0 + p)
            break;
    }
    m = n0;
    while (m > 0 && s->g[m - 1] == at_periodic(s, m - 1 + d, p, n0))
        m--;
    s->period = d;
    s->preperiod = m;
    s->has_period = 1;
    s->proved = 1;
}

/*
 * Looks for periods in G(0..n-1): for each p the least n0 with
 * G(i) = G(i + p) for n0 <= i < n - p.  If that holds from n0, it holds
 * with the same n0 for every multiple kp <= n - n0 (the mismatch at n0 - 1
 * stays in view), so those are skipped.
 */
static bt_status
detect(bt_sequence *s, bt_diag *diag)
{
    size_t n = s->n, pmax = n > 0 ? n - 1 : 0, p, best_p = 0, best_n0 = 0;
    size_t rep_p = 0, rep_n0 = 0, rep_rank = SIZE_MAX;
    size_t best_need = SIZE_MAX;
    const uint16_t *g = s->g;
    uint64_t *skip;

    if (s->proved || s->detected_at == n)
        return BT_OK;
    s->detected_at = n;
    s->has_period = 0;
    if (pmax == 0)
        return BT_OK;
    skip = calloc(pmax / 64 + 1, sizeof *skip);
    if (skip == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    for (p = 1; p <= pmax; p++) {
        size_t i, n0, tail, need, rank;
        if (skip[p >> 6] & ((uint64_t)1 << (p & 63)))
            continue;
        i = n - p;
        while (i > 0 && g[i - 1] == g[i - 1 + p])
            i--;
        n0 = i;
        tail = n - n0;
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
        if (tail >= 2 * p) {
            size_t q, top = n0 == 0 ? pmax : (tail < pmax ? tail : pmax);
            for (q = 2 * p; q <= top; q += p)
                skip[q >> 6] |= (uint64_t)1 << (q & 63);
        }
    }
    free(skip);
    s->best_need = best_need;
    if (best_need <= n) {
        set_proved(s, best_p, best_n0);
        return BT_OK;
    }
    if (rep_p != 0) {
        s->has_period = 1;
        s->period = rep_p;
        s->preperiod = rep_n0;
    }
    return BT_OK;
}

/* ----------------------------------------------------- public API */

int
bt__is_heap_game(const bt_game *g)
{
    /* a heap game is one whose ruleset uses this engine's hooks */
    return g != NULL && g->rules->fini == bt__heap_fini;
}

int
bt_sequence_is_supported(const bt_game *g)
{
    return bt__is_heap_game(g);
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
    if (!bt__is_heap_game(g))
        return bt__fail(diag, BT_EINVAL,
                        "%s has no Grundy sequence: sequences are for "
                        "heap games (games whose component is one heap)",
                        g->spec);
    if (method != BT_SEQ_AUTO && method != BT_SEQ_PLAIN &&
        method != BT_SEQ_RARE)
        return bt__fail(diag, BT_EINVAL, "unknown method %d", (int)method);
    hg = g->state;
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
    par_free(s->pool);
    free(s->g);
    free(s->seen);
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

bt_status
bt_sequence_compute(bt_sequence *s, size_t n, const bt_limits *lim,
                    bt_diag *diag)
{
    bt_status st;
    lim = bt__limits(lim);
    st = extend(s, n, lim, diag);
    if (st != BT_OK)
        return st;
    return detect(s, diag);
}

bt_status
bt_sequence_prove(bt_sequence *s, size_t limit, const bt_limits *lim,
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
        if ((st = extend(s, target, lim, diag)) != BT_OK)
            return st;
        if ((st = detect(s, diag)) != BT_OK)
            return st;
        if (s->proved || s->n >= limit)
            return BT_OK;
        /* double, or go straight to where the best candidate's proof
           would be complete */
        next = s->n * 2;
        if (s->best_need > s->n && s->best_need < next)
            next = s->best_need;
        target = next;
    }
}

void
bt_sequence_set_threads(bt_sequence *s, unsigned threads)
{
    if (threads == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (unsigned)c : 1;
    }
    if (threads > BT_SEQ_MAX_THREADS)
        threads = BT_SEQ_MAX_THREADS;
    if (threads != s->nthreads) {
        par_free(s->pool);
        s->pool = NULL;
        s->nthreads = threads;
    }
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

const uint16_t *
bt_sequence_values(const bt_sequence *s)
{
    return s->g;
}

bt_status
bt_sequence_append(bt_sequence *s, const uint16_t *values, size_t count,
                   bt_diag *diag)
{
    size_t k;
    bt_status st;
    if (count > SIZE_MAX - s->n)
        return bt__fail(diag, BT_ELIMIT, "too many values");
    if (reserve(s, s->n + count) != BT_OK)
        return bt__fail(diag, BT_ENOMEM, "out of memory for %zu values",
                        s->n + count);
    /* the method's state follows the values as in extend(): the same
       reviews at the same lengths */
    for (k = 0; k < count; k++) {
        size_t i = s->n;
        if (i == s->review && (st = review(s)) != BT_OK)
            return bt__fail(diag, st, "out of memory");
        if (s->window && value_window(s, i) != values[k])
            return bt__fail(diag, BT_EINVAL,
                            "G(%zu) = %u given, but the game's value is "
                            "different",
                            i, (unsigned)values[k]);
        if ((st = commit(s, i, values[k], diag)) != BT_OK)
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
    return i < s->n ? s->g[i] : 0;
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
        *v = s->g[mpz_get_ui(n)];
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
        *v = s->g[s->preperiod + r];
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
    return at_periodic(s, x, s->period, s->preperiod);
}
