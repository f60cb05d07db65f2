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
/* Pair operations (or plain values) between interrupt polls: 2^18 is
   about 1-4 ms of work, so that a request on the server's HTTP thread
   sees the end of its 1 ms slice within a few ms (2^22 let 70-85 ms
   pass before the first poll of a subtraction game's sequence). */
#define POLL_WORK (1u << 18)
#define WINDOW_MIN_SET 33    /* sliding windows from this set size on */
#define PAR_LEVELS 10        /* 1, 2, 4, ... 256 threads (par_choose) */
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
    /* threads (the rare-value method in a stream, stream_extend) */
    unsigned nthreads;      /* 1: the calling thread only */
    unsigned cpus;          /* the CPUs the process may use (cpus.c), when
                               the threads were set */
    unsigned used;          /* the most threads that computed values */
    struct par_pool *pool;  /* made on first use, for par_cap() threads */
    size_t par_k, par_q;    /* the stream's cut and window (stream_tune);
                               par_k 0: not measured yet */
    /* the choice of how many threads, by measure (par_choose): level 0 is
       the calling thread alone, level i > 0 min(2^i, par_cap) threads */
    size_t est;      /* pair operations a heap, at the last choice */
    double rate[PAR_LEVELS];     /* pair operations a second of the last
                                    span at each level; 0: not measured */
    double cpu_rate[PAR_LEVELS]; /* and a second of CPU, every thread's */
    unsigned best;    /* the level that measured best */
    unsigned choices; /* choices since the last trial */
    unsigned retry;   /* choices between trials (doubles while they lose) */
    unsigned flip;    /* trials go up and down in turn */
    int trial;        /* the current span is a trial of another level */
    size_t span_stop; /* the current span: its level up to this heap */
    unsigned span_level;
    int timing;       /* the level being timed; -1: none */
    double t_from, c_from; /* its start, on the clock and in CPU */
    pthread_t th_from;     /* the thread that timed it */
    size_t n_from;         /* its first heap */
    int par_always;         /* tests: threads however little the work */
    int par_fixed;          /* tests: par_k and par_q as set, not tuned */
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
 * The scan of the check: looks for the k values of need[] among the pairs
 * (a, sr[j] - a), pa[j] <= a <= sh[j], of the m splits, removing those
 * found (pa[] moves on); returns how many remain.  The splits are scanned
 * in rounds of CONFIRM_BLOCK pairs, marking bytes (seen[] is 0 at the
 * values of need[]) while many values are missing and comparing in
 * registers once few are.
 */
static size_t
confirm_scan(const uint16_t *g, uint8_t *seen, uint16_t *need, size_t k,
             size_t *pa, const size_t *sr, const size_t *sh, size_t m,
             size_t *work)
{
    size_t j, i;
    int live;

    if (k == 0)
        return 0;
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
    return k;
}

/* The least of need[0..k-1], k >= 1. */
static unsigned
least_of(const uint16_t *need, size_t k)
{
    unsigned least = need[0];
    size_t i;
    for (i = 1; i < k; i++)
        if (need[i] < least)
            least = need[i];
    return least;
}

/*
 * The check of the rare-value method: every value below lim not yet among
 * the options (the k of need[]) must turn up in some split, else G is the
 * least of those missing.
 */
static unsigned
confirm_need(const uint16_t *g, uint8_t *seen, uint16_t *need, size_t k,
             size_t *pa, const size_t *sr, const size_t *sh, size_t m,
             unsigned lim, size_t *work)
{
    size_t j;
    for (j = 0; j < m; j++)
        pa[j] = 1;
    k = confirm_scan(g, seen, need, k, pa, sr, sh, m, work);
    return k == 0 ? lim : least_of(need, k);
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
   forbid it (`unequal`: Grundy's game). */
static void
mark_split_of(const uint16_t *g, const uint32_t *rpos, const uint16_t *rval,
              int unequal, size_t rest, size_t lo, size_t hi, uint8_t *seen)
{
    if (unequal && rest % 2 == 0) {
        size_t mid = rare_above(rpos, hi, rest / 2 - 1);
        if (mid < lo)
            mid = lo;
        mark_sparse(g, rest, rpos, rval, lo, mid, seen);
        if (mid < hi && rpos[mid] == rest / 2)
            mid++;
        mark_sparse(g, rest, rpos, rval, mid, hi, seen);
    } else {
        mark_sparse(g, rest, rpos, rval, lo, hi, seen);
    }
}

static void
mark_split(const bt_sequence *s, size_t rest, size_t lo, size_t hi,
           uint8_t *seen)
{
    mark_split_of(s->g, s->rpos, s->rval, s->r->unequal, rest, lo, hi, seen);
}

/* The rare-value method (see the top of the file).  Its work, O(sparse
   positions * splits) per value, is counted in s->work, which the
   caller polls by. */
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

/* Makes room for nc sparse positions and their values in *pos and *val
   (capacity *cap); 0, or -1 when out of memory (the arrays are then still
   valid, *cap unchanged). */
static int
rare_room(uint32_t **pos, uint16_t **val, size_t *cap, size_t nc)
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

static bt_status
rare_push(bt_sequence *s, size_t pos, unsigned v)
{
    if (s->nrare == s->rcap &&
        rare_room(&s->rpos, &s->rval, &s->rcap,
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
static bt_status
review(bt_sequence *s)
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

/* ------------------------------------------------------------ the stream */

/* The most threads s runs: those set, but never more than the CPUs it may
   use (a thread beyond them only waits for one that is there, and makes it
   wait), except for tests (par_always: threads however many, to check the
   values). */
static unsigned
par_cap(const bt_sequence *s)
{
    if (s->par_always || s->nthreads < s->cpus)
        return s->nthreads;
    return s->cpus > 0 ? s->cpus : 1;
}

/* The threads of level i (par_choose). */
static unsigned
level_threads(const bt_sequence *s, unsigned i)
{
    unsigned cap = par_cap(s);
    return i == 0 ? 1 : i < 16 && (1u << i) < cap ? 1u << i : cap;
}

/* The highest level of s: the first with every thread of par_cap. */
static unsigned
top_level(const bt_sequence *s)
{
    unsigned i = 0;
    while (level_threads(s, i) < par_cap(s) && i + 1 < PAR_LEVELS)
        i++;
    return i;
}


/*
 * The rare-value method on several threads, exact and without guesses
 * (docs/grundy.md).  For heap n the options of parity pi come from the
 * pairs (x, rest - x) with x sparse; the check then looks for the values
 * below the least missing one among all the pairs (a, rest - a), a = 1, 2,
 * ... .  A pair reads a recent value when x (or a) is small, an old one
 * when it is large.  So the work of heap n is cut in two:
 *
 *   - the calling thread marks the pairs of the sparse positions below a
 *     cut, rpos[0..k-1] (which include every one below STREAM_LAG), and
 *     those found since the stream started; adds the single heaps; takes
 *     the least value c of parity pi; checks the values below c still
 *     missing, looking at the pairs a < STREAM_LAG first, then at those
 *     past the window (below); and commits G(n);
 *
 *   - the workers, ahead of it, mark the pairs of the other sparse
 *     positions, rpos[k..nr-1] (nr of them when the stream started), and
 *     those of a window of q pairs, STREAM_LAG <= a < STREAM_LAG + q, where
 *     the check would look next: every value these read is below
 *     n + 1 - split[0] - STREAM_LAG, already made.
 *
 * Every value is thus the sequential method's, from the same options:
 * nothing is guessed, nothing is thrown away.  The heaps go in batches of
 * STREAM_BATCH; a worker takes the next batch [n0, n1) once the values
 * below n1 - split[0] - STREAM_LAG are made, writes its marks into a ring
 * of at most STREAM_RING batches (and STREAM_RING_BYTES) and tells the
 * batch ready; the calling thread
 * tells how far its values go once a batch.  The threads never meet within
 * a stream; the cut and the window move by measure, so that neither side
 * waits for the other (stream_tune).  A stream stops at a value that
 * reaches w, since the marks are packed in w bits.
 */

#define STREAM_BATCH 16 /* heaps a worker takes at a time */
#define STREAM_RING 128 /* batches in flight, at most */
#define STREAM_RING_BYTES ((size_t)1 << 21) /* the ring's marks, at most
                                               (wide values: fewer
                                               batches, 8 at least) */
#define STREAM_LAG (4 * STREAM_BATCH) /* how far back from a heap the
                                        workers' pairs start */
#define STREAM_TUNE 64  /* batches between two moves of the cut */
#define STREAM_MAX_WINDOW ((size_t)1 << 16) /* pairs of a window, at most */
#define PAR_MIN_LEFT 1024 /* fewer values than this to go: one thread */
#define PAR_SAMPLE 256    /* heaps whose work decides for threads or not */
#define PAR_MEASURE ((size_t)1 << 15) /* heaps of a span, at least, for its
                                         time to count */
#define PAR_MIN_WORK 100 /* pair operations a heap, at least, for threads
                            (Officers: 4 500; 0.354: 350) */
#define PAR_RETRY 8      /* every 8th choice tries another level, */
#define PAR_RETRY_MAX 256 /* (twice as seldom after each trial that lost,
                             up to this) */
#define PAR_TRIAL 8      /* on an eighth of a span */
#define PAR_CPU 1.3      /* a level is kept only while its CPU time an
                            operation is within this of one thread's */
#define PAR_POLL 300e-6   /* seconds a waiting thread polls before it
                             sleeps (a batch comes microseconds after
                             another; a sleep and a wake-up cost tens) */
#define PAR_SPAN ((size_t)1 << 18) /* heaps between two such decisions, at
                                      most */
#define PAR_LINE 64 /* bytes of a cache line */
#define STREAM_POLL 50e-6 /* seconds a thread of a stream polls before it
                             sleeps, at most (a batch takes 3 us for
                             0.354, 50 us for Officers) */
#define STREAM_POLL_MIN 1e-6 /* and at least */

/* A batch of the ring: its marks are ready once seq is its number + 1. */
typedef struct stream_rec {
    _Alignas(PAR_LINE) _Atomic uint64_t seq;
    size_t k; /* the cut they were made with */
    size_t q; /* and the window */
} stream_rec;

typedef struct par_scratch {
    uint8_t *seen;
    uint16_t *need;
    size_t *pa, *sr, *sh;
    size_t *to; /* stream_check: per split, the last pair to look at */
    uint64_t *bits; /* the calling thread's copy of a heap's marks */
    size_t work;
    size_t beyond; /* heaps whose check looked past the window */
} par_scratch;

typedef struct par_pool par_pool;

/* What a thread's time went to, in nanoseconds (counted only when the
   sequence's par_stats is set, for benchmarks: bt__sequence_par_stats).
   Atomic so that the calling thread may read another's at any time. */
enum {
    PT_WORK,  /* marking, checking */
    PT_WAIT,  /* within a stream, waiting for the other side */
    PT_IDLE,  /* between streams (workers) */
    PT_SLEEP, /* sleeps (a count) */
    PT_N
};

/* A thread's own data, in cache lines of its own: its scratch counts pair
   operations in the innermost loops, and a line shared with another
   thread's would go back and forth between their cores. */
typedef struct par_thread {
    _Alignas(PAR_LINE) par_pool *pool;
    par_scratch sc;
    pthread_t tid;
    int started;
    int sat_out; /* sat the last stream out: sleep at once after it */
    double spin; /* seconds it polls before it sleeps (stream_sleep) */
    _Atomic uint64_t t[PT_N];
} par_thread;

/* The pool.  What the calling thread writes at every batch (done), what
   the workers write (next, wwait) and what changes once a tuning (k, q)
   have a cache line each; the rest is written before a stream starts.
   The workers read the sparse positions from their own copy (rpos, rval):
   the sequence's arrays may move when the calling thread appends one, and
   its fields, written at every value, share their lines. */
struct par_pool {
    bt_sequence *s;
    int stats; /* benchmarks: time the threads (par_stats) */
    pthread_mutex_t mu;
    pthread_cond_t go;
    pthread_cond_t ready; /* a batch ready, values made, or the end */
    uint64_t gen; /* the stream's number */
    _Atomic int quit;
    _Atomic uint64_t agen; /* gen, for the threads that poll before they
                              sleep on `go` */
    unsigned nthreads; /* th[0] is the calling thread's scratch */
    unsigned running;  /* threads started besides the calling one */
    unsigned active;   /* of them, those that work in this stream (the
                          others sit it out: par_choose's level) */
    par_thread *th;
    /* the stream: heaps [lo, hi), marks of `words` words a heap */
    const bt__heap_rules *r;
    const uint16_t *g;
    size_t lo, hi, words, split0;
    int unequal;
    uint32_t *rpos; /* the sparse positions when the stream started */
    uint16_t *rval;
    size_t nr, rcap;
    uint64_t *marks; /* nring batches */
    size_t nring;
    size_t mcap;
    uint64_t *par; /* bit v: parity(v AND mask), v < par_bits */
    size_t par_bits;
    unsigned par_mask;
    _Alignas(PAR_LINE) _Atomic uint64_t next; /* the next batch to take */
    _Atomic size_t wwait;   /* batches a worker waited for values */
    _Atomic unsigned out;   /* workers out of the stream */
    _Alignas(PAR_LINE) _Atomic unsigned sleepers; /* threads asleep on
                                                     `ready` (stream_sleep) */
    /* the calling thread's line: what it writes during a stream */
    _Alignas(PAR_LINE) _Atomic size_t done; /* values below are made */
    uint64_t want; /* the seq it waits for (batch_ready) */
    uint64_t streams, heaps, batches, await; /* benchmarks (par_stats):
                                                streams, their heaps and
                                                batches, the batches it
                                                waited for */
    _Alignas(PAR_LINE) _Atomic size_t k;    /* the cut */
    _Atomic size_t q;                       /* the window */
    _Atomic int stop;
    stream_rec rec[STREAM_RING];
};

static void
scratch_free(par_scratch *sc)
{
    free(sc->seen);
    free(sc->need);
    free(sc->pa);
    free(sc->sr);
    free(sc->sh);
    free(sc->to);
    free(sc->bits);
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
    sc->to = malloc(k * sizeof *sc->to);
    sc->bits = malloc(MAXV / 64 * sizeof *sc->bits);
    if (sc->seen == NULL || sc->need == NULL || sc->pa == NULL ||
        sc->sr == NULL || sc->sh == NULL || sc->to == NULL ||
        sc->bits == NULL) {
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

/* Sets bits[0..words-1] to from[0..words-1] (0 with from NULL) OR the
   bytes seen[0 .. 64 words - 1], each 0 or 1.  With SSE2, a shift moves each byte's bit 0 to its sign bit and a
   movemask gathers sixteen signs; otherwise eight bytes make eight bits in
   one product (byte j of x lands on bit 56 + j of x * 0x0102040810204080,
   and no other pair of a byte and a factor reaches those bits or carries
   into them). */
static void
pack_or(uint64_t *bits, const uint64_t *from, const uint8_t *seen,
        size_t words)
{
    size_t i;
#if defined(__SSE2__)
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
        bits[i] = (from != NULL ? from[i] : 0) | m0 | m1 << 16 | m2 << 32 |
                  m3 << 48;
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
        bits[i] = (from != NULL ? from[i] : 0) | acc;
    }
#endif
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

/* Marks, for each of the m splits in sc, the pairs (x, rest - x) with x in
   rpos[lo..hi-1] and x < rest. */
static void
mark_range(const uint16_t *g, const uint32_t *rpos, const uint16_t *rval,
           int unequal, par_scratch *sc, size_t m, size_t lo, size_t hi,
           uint8_t *seen)
{
    size_t j = 0, top[2];
    if (lo >= hi)
        return;
    if (m >= 2 && !unequal) {
        /* two splits in one pass, as value_rare (0.354 has two) */
        size_t a;
        for (j = 0; j < 2; j++) {
            top[j] = hi;
            while (top[j] > lo && rpos[top[j] - 1] >= sc->sr[j])
                top[j]--;
        }
        a = top[0] < top[1] ? top[0] : top[1];
        mark_sparse2(g, sc->sr[0], sc->sr[1], rpos, rval, lo, a, seen);
        mark_sparse(g, sc->sr[0], rpos, rval, a, top[0], seen);
        mark_sparse(g, sc->sr[1], rpos, rval, a, top[1], seen);
        sc->work += top[0] + top[1] - 2 * lo;
        j = 2;
    }
    for (; j < m; j++) {
        size_t t = hi;
        while (t > lo && rpos[t - 1] >= sc->sr[j])
            t--;
        mark_split_of(g, rpos, rval, unequal, sc->sr[j], lo, t, seen);
        sc->work += t - lo;
    }
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

/* One pause of a polling loop, its k-th; returns 1 once `limit` seconds
   have passed since the first look at the clock (*t0, 0 before it).  By
   the clock, not by a count of pauses: a pause lasts from a few cycles to
   over a hundred according to the processor. */
static int
spin_timed_out(unsigned k, double *t0, double limit)
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
    return t - *t0 > limit;
}

/* Whether what a thread of a stream waits for has come: the batch of
   its number (a record's seq), the values (done) or the end. */
typedef int (*stream_cond)(par_pool *pl, const void *arg);

/* Waits until ok(pl, arg): polls for *spin seconds (the other side is
   usually a few microseconds away), then sleeps on `ready` (it lost its
   core, or the cores are fewer than the threads: polling would keep it
   from them).  The poll adapts, as an adaptive mutex's: a wait that ended
   in a sleep halves the next poll, one that ended polling doubles it, up
   to STREAM_POLL; so on a busy machine, where the other side is often off
   its core, the threads mostly sleep and burn nothing.  A thread that makes something ready wakes the sleepers
   when there are any (stream_wake): counted here before the last look,
   looked at there after the change, both sequentially consistent, so one
   of the two sees the other. */
static void
stream_sleep(par_pool *pl, double *spin, stream_cond ok, const void *arg)
{
    double t0 = 0;
    unsigned k;
    for (k = 1; !ok(pl, arg); k++)
        if (spin_timed_out(k, &t0, *spin))
            break;
    if (ok(pl, arg)) {
        *spin = *spin * 2 < STREAM_POLL ? *spin * 2 : STREAM_POLL;
        return;
    }
    *spin = *spin / 2 > STREAM_POLL_MIN ? *spin / 2 : STREAM_POLL_MIN;
    pthread_mutex_lock(&pl->mu);
    atomic_fetch_add(&pl->sleepers, 1);
    while (!ok(pl, arg))
        pthread_cond_wait(&pl->ready, &pl->mu);
    atomic_fetch_sub(&pl->sleepers, 1);
    pthread_mutex_unlock(&pl->mu);
}

/* After a change a sleeping thread may wait for. */
static void
stream_wake(par_pool *pl)
{
    if (atomic_load(&pl->sleepers) > 0) {
        pthread_mutex_lock(&pl->mu);
        pthread_cond_broadcast(&pl->ready);
        pthread_mutex_unlock(&pl->mu);
    }
}

/* The conditions a stream waits for. */
static int
values_made(par_pool *pl, const void *arg)
{
    return atomic_load(&pl->done) >= *(const size_t *)arg ||
           atomic_load(&pl->stop);
}

static int
batch_ready(par_pool *pl, const void *arg)
{
    const stream_rec *rec = arg;
    return atomic_load(&rec->seq) == pl->want;
}

static int
workers_out(par_pool *pl, const void *arg)
{
    (void)arg;
    return atomic_load(&pl->out) == pl->running;
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
        if (spin_timed_out(k, &t0, PAR_POLL))
            return 0;
    }
}

/* A worker's part of a stream: batches, until it ends. */
static void
stream_work(par_pool *pl, par_thread *t)
{
    par_scratch *sc = &t->sc;
    const bt__heap_rules *r = pl->r;
    uint64_t *marks = pl->marks;
    const uint16_t *g = pl->g;
    const uint32_t *rpos = pl->rpos;
    const uint16_t *rval = pl->rval;
    size_t words = pl->words, P = STREAM_BATCH, lo = pl->lo, hi = pl->hi;
    size_t nr = pl->nr, lag = pl->split0 + STREAM_LAG, nring = pl->nring;
    int unequal = pl->unequal;
    uint64_t t0 = stat_now(pl);
    for (;;) {
        uint64_t b = atomic_fetch_add(&pl->next, 1);
        size_t n0 = lo + (size_t)b * P, n1, k, q, need, n, j;
        stream_rec *rec = &pl->rec[b % nring];
        uint64_t *bits = marks + (size_t)(b % nring) * P * words;
        if (n0 >= hi || atomic_load(&pl->stop))
            break;
        n1 = n0 + P < hi ? n0 + P : hi;
        k = atomic_load_explicit(&pl->k, memory_order_relaxed);
        q = atomic_load_explicit(&pl->q, memory_order_relaxed);
        /* the values its pairs read are made, and its slot of the ring is
           free (the calling thread is past the batch nring before) */
        need = n1 > lag ? n1 - lag : 0;
        if (n1 > nring * P && n1 - nring * P > need)
            need = n1 - nring * P;
        if (atomic_load_explicit(&pl->done, memory_order_acquire) < need) {
            stat_add(pl, t, PT_WORK, &t0);
            atomic_fetch_add_explicit(&pl->wwait, 1, memory_order_relaxed);
            stream_sleep(pl, &t->spin, values_made, &need);
            stat_add(pl, t, PT_WAIT, &t0);
            if (atomic_load(&pl->stop))
                break;
        }
        for (n = n0; n < n1; n++) {
            size_t m = splits_in(r, n, sc->sr, sc->sh);
            uint64_t *bn = bits + (n - n0) * words;
            memset(sc->seen, 0, words * 64);
            mark_range(g, rpos, rval, unequal, sc, m, k, nr, sc->seen);
            for (j = 0; j < m && q > 0; j++) {
                size_t a = STREAM_LAG, last = a + q - 1;
                if (last > sc->sh[j])
                    last = sc->sh[j];
                if (a <= last) {
                    mark_pairs(g, sc->sr[j], a, last, sc->seen);
                    sc->work += last + 1 - a;
                }
            }
            pack_or(bn, NULL, sc->seen, words);
        }
        rec->k = k;
        rec->q = q;
        atomic_store(&rec->seq, b + 1);
        stream_wake(pl);
    }
    stat_add(pl, t, PT_WORK, &t0);
    atomic_fetch_add(&pl->out, 1);
    stream_wake(pl);
}

static void *
par_main(void *arg)
{
    par_thread *t = arg;
    par_pool *pl = t->pool;
    uint64_t mine = 0, t0;
    unsigned index = (unsigned)(t - pl->th);
    for (;;) {
        t0 = stat_now(pl);
        /* poll a while first: streams come a few microseconds apart when
           a value that reaches w ends one, less than a sleep and a wake-up
           cost; not after a stream sat out (it would burn the CPU that
           the working threads need) */
        if (t->sat_out || !poll_change(&pl->agen, mine, &pl->quit)) {
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
        t->sat_out = index > pl->active;
        if (t->sat_out) {
            atomic_fetch_add(&pl->out, 1);
            stream_wake(pl);
        } else {
            stream_work(pl, t);
        }
    }
    return NULL;
}

/* Starts the stream set in pl on the other threads. */
static void
par_post(par_pool *pl)
{
    pthread_mutex_lock(&pl->mu);
    pl->gen++;
    atomic_store(&pl->agen, pl->gen); /* after the stream it names */
    pthread_cond_broadcast(&pl->go);
    pthread_mutex_unlock(&pl->mu);
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
    pthread_cond_destroy(&pl->ready);
    free(pl->th);
    free(pl->rpos);
    free(pl->rval);
    free(pl->marks);
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
    pl->nthreads = par_cap(s);
    pl->th = alloc_lines(pl->nthreads * sizeof *pl->th);
    pthread_mutex_init(&pl->mu, NULL);
    pthread_cond_init(&pl->go, NULL);
    pthread_cond_init(&pl->ready, NULL);
    atomic_init(&pl->sleepers, 0);
    atomic_init(&pl->next, 0);
    atomic_init(&pl->wwait, 0);
    atomic_init(&pl->out, 0);
    atomic_init(&pl->done, 0);
    atomic_init(&pl->k, 0);
    atomic_init(&pl->q, 0);
    atomic_init(&pl->stop, 0);
    atomic_init(&pl->agen, 0);
    atomic_init(&pl->quit, 0);
    for (i = 0; i < STREAM_RING; i++)
        atomic_init(&pl->rec[i].seq, 0);
    if (pl->th == NULL) {
        pl->nthreads = 0;
        par_free(pl);
        return NULL;
    }
    for (i = 0; i < pl->nthreads; i++) {
        pl->th[i].pool = pl;
        pl->th[i].spin = STREAM_POLL;
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
        pl->running++;
    }
    return pl;
}

/* The buffers of a stream: the ring for `words` words a heap, the parity
   bits of mask, and the workers' copy of the sparse positions. */
static int
par_buffers(par_pool *pl, const bt_sequence *s, size_t words)
{
    size_t batch = STREAM_BATCH * words * sizeof *pl->marks, need;
    size_t bits = words * 64, v;
    pl->nring = STREAM_RING_BYTES / batch;
    if (pl->nring > STREAM_RING)
        pl->nring = STREAM_RING;
    if (pl->nring < 8)
        pl->nring = 8;
    need = pl->nring * STREAM_BATCH * words;
    if (need > pl->mcap) {
        uint64_t *p = realloc(pl->marks, need * sizeof *p);
        if (p == NULL)
            return -1;
        pl->marks = p;
        pl->mcap = need;
    }
    if (pl->par_bits < bits || pl->par_mask != s->mask) {
        uint64_t *p = realloc(pl->par, words * sizeof *p);
        if (p == NULL)
            return -1;
        pl->par = p;
        memset(p, 0, words * sizeof *p);
        for (v = 0; v < bits; v++)
            if (parity((unsigned)v & s->mask))
                set_bit(p, (unsigned)v);
        pl->par_bits = bits;
        pl->par_mask = s->mask;
    }
    if (rare_room(&pl->rpos, &pl->rval, &pl->rcap, s->nrare) != 0)
        return -1;
    if (s->nrare > 0) {
        memcpy(pl->rpos, s->rpos, s->nrare * sizeof *pl->rpos);
        memcpy(pl->rval, s->rval, s->nrare * sizeof *pl->rval);
    }
    pl->nr = s->nrare;
    return 0;
}

/* Tells the progress callback how far the values are, and polls the
   interrupt: between streams, or every POLL_WORK pair operations. */
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

/*
 * The check of heap n in the stream (its m splits in sc): the values below
 * c missing from the marks b (far pairs, the window, near pairs and single
 * heaps) are looked for among the pairs the window left out: a <
 * STREAM_LAG (recent values), then a >= STREAM_LAG + q.  Returns G(n).
 */
static unsigned
stream_check(const uint16_t *g, par_scratch *sc, size_t m, const uint64_t *b,
             unsigned c, size_t q)
{
    size_t k = 0, i, j;
    /* the values below c missing from the marks: the zero bits, which are
       few; seen[] is cleared at them only */
    for (i = 0; (unsigned)i * 64 < c; i++) {
        uint64_t z = ~b[i];
        if ((i + 1) * 64 > c)
            z &= ((uint64_t)1 << (c & 63)) - 1;
        while (z != 0) {
            unsigned v = (unsigned)(i * 64 + ctz64(z));
            z &= z - 1;
            sc->need[k++] = (uint16_t)v;
            sc->seen[v] = 0;
        }
    }
    if (k == 0)
        return c;
    for (j = 0; j < m; j++) {
        sc->pa[j] = 1;
        sc->to[j] = STREAM_LAG - 1 < sc->sh[j] ? STREAM_LAG - 1 : sc->sh[j];
    }
    k = confirm_scan(g, sc->seen, sc->need, k, sc->pa, sc->sr, sc->to, m,
                     &sc->work);
    if (k == 0)
        return c;
    sc->beyond++;
    for (j = 0; j < m; j++)
        sc->pa[j] = STREAM_LAG + q;
    k = confirm_scan(g, sc->seen, sc->need, k, sc->pa, sc->sr, sc->sh, m,
                     &sc->work);
    return k == 0 ? c : least_of(sc->need, k);
}

/*
 * The cut and the window by measure, every STREAM_TUNE batches: aw, the
 * batches the calling thread waited for in the last ones, against ww, those
 * a worker waited for values.  When the workers are behind, they get less:
 * a shorter window, else a higher cut; when the calling thread is, they
 * get more: a lower cut (down to kmin, the first sparse position at or
 * past STREAM_LAG), else a longer window -- but only while some check
 * still looked past the window (beyond, of those batches' heaps): a window
 * longer than the checks read is work for nothing, and it shrinks.  (With
 * more threads than free cores the workers always seem to wait, and the
 * window once grew to 50 000 pairs a heap where the checks read a few
 * hundred.)  A move changes the time only, never a value.
 */
static void
stream_tune(bt_sequence *s, par_pool *pl, size_t aw, size_t ww, size_t kmin,
            size_t beyond)
{
    size_t k = atomic_load_explicit(&pl->k, memory_order_relaxed);
    size_t q = atomic_load_explicit(&pl->q, memory_order_relaxed);
    if (s->par_fixed)
        return;
    if (beyond == 0 && q > 0)
        q -= q / 32 + 1;
    if (aw > ww) {
        if (q > 0)
            q -= q / 32 + 1;
        else if (k < pl->nr)
            k++;
    } else if (ww > aw) {
        if (k > kmin)
            k--;
        else if (q < STREAM_MAX_WINDOW && beyond > 0)
            q += q / 32 + 1;
    }
    atomic_store_explicit(&pl->k, k, memory_order_relaxed);
    atomic_store_explicit(&pl->q, q, memory_order_relaxed);
    s->par_k = k;
    s->par_q = q;
}

/* Marks ready for batch b of the stream (rec): waits for them. */
static void
stream_wait(par_pool *pl, const stream_rec *rec, uint64_t b, size_t *aw,
            uint64_t *t0)
{
    if (atomic_load_explicit(&rec->seq, memory_order_acquire) == b + 1)
        return;
    stat_add(pl, &pl->th[0], PT_WORK, t0);
    ++*aw;
    pl->want = b + 1;
    stream_sleep(pl, &pl->th[0].spin, batch_ready, rec);
    stat_add(pl, &pl->th[0], PT_WAIT, t0);
}

/*
 * Computes G(s->n .. end-1) on `active` threads (the calling one
 * included, as many as the pool has at most) by the stream (above);
 * stops early, every value made exact, after a value that reaches w (the
 * caller goes on).
 */
static bt_status
stream_extend(bt_sequence *s, size_t end, unsigned active,
              const bt_limits *lim, bt_diag *diag)
{
    par_pool *pl = s->pool;
    par_scratch *sc = &pl->th[0].sc;
    size_t N = s->n, P = STREAM_BATCH, words = ((size_t)s->w + 63) / 64;
    size_t kmin, k, n, nb = 0, aw = 0, ww0 = 0, nr = s->nrare;
    unsigned w = s->w;
    bt_status st = BT_OK;
    uint64_t t0;

    if (pl->running == 0 || active < 2) {
        s->span_level = 0; /* no other thread */
        return BT_OK;
    }
    pl->active = active - 1 < pl->running ? active - 1 : pl->running;
    if (s->used < pl->active + 1)
        s->used = pl->active + 1;
    sc->beyond = 0;
    if (par_buffers(pl, s, words) != 0)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    pl->r = s->r;
    pl->g = s->g; /* reserve() made room for every value up to end */
    pl->split0 = s->r->split[0];
    pl->unequal = s->r->unequal;
    pl->lo = N;
    pl->hi = end;
    pl->words = words;
    for (kmin = 0; kmin < nr && s->rpos[kmin] < STREAM_LAG; kmin++)
        ;
    k = s->par_k > 0 || s->par_fixed ? s->par_k : kmin + (nr - kmin) / 3;
    if (k < kmin)
        k = kmin;
    if (k > nr)
        k = nr;
    atomic_store(&pl->next, 0);
    atomic_store(&pl->out, 0);
    atomic_store(&pl->wwait, 0);
    atomic_store(&pl->done, N);
    atomic_store(&pl->k, k);
    atomic_store(&pl->q, s->par_q);
    atomic_store(&pl->stop, 0);
    for (n = 0; n < STREAM_RING; n++) /* no batch of an earlier stream */
        atomic_store_explicit(&pl->rec[n].seq, 0, memory_order_relaxed);
    par_post(pl);
    t0 = stat_now(pl);
    for (n = N; n < end; n++) {
        size_t b = (n - N) / P, m;
        const stream_rec *rec = &pl->rec[b % pl->nring];
        const uint64_t *bn =
            pl->marks + ((b % pl->nring) * P + (n - N) % P) * words;
        uint64_t *bl = sc->bits;
        unsigned c, v;
        if ((n - N) % P == 0) {
            stream_wait(pl, rec, b, &aw, &t0);
            {
                /* ask for the batch's lines of marks at once (written on
                   the worker's core: one wait for all, not one each) */
                const char *pf = (const char *)bn;
                size_t i, bytes = P * words * sizeof *bn;
                for (i = PAR_LINE; i < bytes && i < 4096; i += PAR_LINE)
                    __builtin_prefetch(pf + i);
            }
            if (++nb % STREAM_TUNE == 0) {
                size_t ww = atomic_load_explicit(&pl->wwait,
                                                 memory_order_relaxed);
                stream_tune(s, pl, aw, ww - ww0, kmin, sc->beyond);
                sc->beyond = 0;
                pl->await += aw;
                aw = 0;
                ww0 = ww;
            }
        }
        m = splits_in(s->r, n, sc->sr, sc->sh);
        memset(sc->seen, 0, words * 64);
        mark_singles(s->r, s->g, n, sc->seen);
        /* the sparse positions below the cut, and those found since the
           stream started */
        mark_range(s->g, s->rpos, s->rval, s->r->unequal, sc, m, 0, rec->k,
                   sc->seen);
        mark_range(s->g, s->rpos, s->rval, s->r->unequal, sc, m, nr,
                   s->nrare, sc->seen);
        /* into a copy: a line of the ring written here would have to be
           taken back by the worker's core */
        pack_or(bl, bn, sc->seen, words);
        if (m == 0) {
            v = least_free(bl, NULL, 0, w); /* the single heaps' mex */
        } else {
            unsigned pi = 1u ^ (s->domain & (unsigned)sc->sr[0] & 1u);
            c = least_free(bl, pl->par, pi, w);
            v = stream_check(s->g, sc, m, bl, c, rec->q);
        }
        if ((st = commit(s, n, v, diag)) != BT_OK)
            break;
        if ((n + 1 - N) % P == 0) {
            atomic_store(&pl->done, n + 1);
            stream_wake(pl);
        }
        if (v >= w)
            break; /* the marks after it would need more bits */
        s->work += sc->work;
        sc->work = 0;
        if (s->work >= POLL_WORK) {
            s->work = 0;
            if ((st = report(s, lim, diag)) != BT_OK)
                break;
        }
    }
    /* the end: every worker out of the stream before anything moves */
    atomic_store(&pl->stop, 1);
    stream_wake(pl);
    stat_add(pl, &pl->th[0], PT_WORK, &t0);
    stream_sleep(pl, &pl->th[0].spin, workers_out, NULL);
    stat_add(pl, &pl->th[0], PT_WAIT, &t0);
    pl->streams++;
    pl->heaps += s->n - N;
    pl->await += aw;
    pl->batches += nb;
    return st;
}

/* The CPU time, in seconds, of the calling thread and of the pool's. */
static double
threads_cpu(const bt_sequence *s)
{
    struct timespec ts;
    double t = 0;
    unsigned i;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        t += (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    if (s->pool != NULL)
        for (i = 1; i < s->pool->nthreads; i++) {
            clockid_t id;
            if (s->pool->th[i].started &&
                pthread_getcpuclockid(s->pool->th[i].tid, &id) == 0 &&
                clock_gettime(id, &ts) == 0)
                t += (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
        }
    return t;
}

static void
span_begin(bt_sequence *s, unsigned level)
{
    s->timing = (int)level;
    s->t_from = mono_now();
    s->c_from = threads_cpu(s);
    s->th_from = pthread_self();
    s->n_from = s->n;
}

/* Ends the span being timed, if any: the rates of its level, on the clock
   and in CPU, when it was long enough to tell (a short one is mostly the
   threads' start) and timed on this thread (its CPU clock). */
static void
span_end(bt_sequence *s)
{
    if (s->timing >= 0) {
        double dt = mono_now() - s->t_from, dc = threads_cpu(s) - s->c_from;
        double ops = (double)(s->n - s->n_from) * (double)s->est;
        if (dt > 0 && dc > 0 && s->n >= s->n_from + PAR_MEASURE &&
            pthread_equal(s->th_from, pthread_self())) {
            s->rate[s->timing] = ops / dt;
            s->cpu_rate[s->timing] = ops / dc;
        }
        s->timing = -1;
    }
}

/* The best level measured: the fastest on the clock of those whose CPU
   time an operation is within PAR_CPU of one thread's. */
static unsigned
best_level(const bt_sequence *s)
{
    unsigned i, b = 0;
    for (i = 1; i < PAR_LEVELS; i++)
        if (s->rate[i] > s->rate[b] &&
            s->cpu_rate[i] * PAR_CPU >= s->cpu_rate[0])
            b = i;
    return b;
}

/*
 * How many threads compute the heaps from s->n: a level (0, the calling
 * thread alone; i, level_threads(s, i)).  The pair operations of the last
 * PAR_SAMPLE heaps, computed again (their values are known; only the count
 * is kept), give the work a heap; below PAR_MIN_WORK one thread, always
 * (the batches' traffic would cost more than the work).  Above it each
 * span is timed, in pair operations a second of the clock and of CPU
 * (every thread's), and the levels are climbed: one thread, then 2, 4, ...
 * while each measures faster than the one before without costing more than
 * PAR_CPU times one thread's CPU an operation (issue 20: more threads are
 * never slower, nor much costlier).  The best level measured is kept, and
 * a level next to it, above and below in turn, tried again every
 * s->retry-th choice on a span PAR_TRIAL times shorter; a trial that loses
 * doubles the interval (up to PAR_RETRY_MAX), one that wins resets it.  So
 * on cores that other programs hold, where threads wait for one another,
 * one thread is kept; on free cores, as many as pay.  The choice changes
 * the time, never a value.
 */
static unsigned
par_choose(bt_sequence *s)
{
    size_t saved = s->work, k;
    unsigned top = top_level(s), b, prev = s->best;
    int was_trial = s->trial;
    s->trial = 0;
    if (s->par_always)
        return top;
    if (s->n < PAR_MIN_LEFT)
        return 0;
    s->work = 0;
    for (k = 1; k <= PAR_SAMPLE; k++)
        (void)value_rare(s, s->n - k);
    s->est = s->work / PAR_SAMPLE + 1;
    s->work = saved;
    if (s->est < PAR_MIN_WORK || top == 0)
        return 0;
    if (s->rate[0] == 0)
        return 0; /* one thread first: what the others are measured by */
    b = s->best = best_level(s);
    if (s->retry == 0)
        s->retry = PAR_RETRY;
    if (was_trial)
        s->retry = b != prev ? PAR_RETRY
                   : s->retry < PAR_RETRY_MAX ? 2 * s->retry
                                              : PAR_RETRY_MAX;
    if (b < top && s->rate[b + 1] == 0) {
        s->trial = 1;
        return b + 1; /* the climb: the next level, not measured yet */
    }
    if (++s->choices >= s->retry) {
        s->choices = 0;
        s->trial = 1;
        s->flip ^= 1;
        if ((s->flip && b < top) || b == 0)
            return b + 1;
        return b - 1;
    }
    return b;
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
             "%llu streams, %llu batches, the calling thread waited for "
             "%llu; cut %zu of %zu sparse positions, window %zu pairs; "
             "calling thread: work %.2f s, waits %.2f s; other threads: "
             "work %.2f s, waits %.2f s, between streams %.2f s, %.0f "
             "sleeps",
             (unsigned long long)pl->streams,
             (unsigned long long)pl->batches,
             (unsigned long long)pl->await, s->par_k, s->nrare, s->par_q,
             t[0][PT_WORK] * 1e-9, t[0][PT_WAIT] * 1e-9,
             t[1][PT_WORK] * 1e-9, t[1][PT_WAIT] * 1e-9,
             t[1][PT_IDLE] * 1e-9, t[1][PT_SLEEP]);
}

/* For tests (not in the public header): the cut and the window of the
   streams fixed (the cut within what the lag allows), so that every
   division of the work is exercised; and the heaps the streams computed. */
void bt__sequence_par_fix(bt_sequence *s, size_t cut, size_t window);
size_t bt__sequence_par_heaps(const bt_sequence *s);

void
bt__sequence_par_fix(bt_sequence *s, size_t cut, size_t window)
{
    s->par_fixed = 1;
    s->par_k = cut;
    s->par_q = window < STREAM_MAX_WINDOW ? window : STREAM_MAX_WINDOW;
}

size_t
bt__sequence_par_heaps(const bt_sequence *s)
{
    return s->pool != NULL ? (size_t)s->pool->heaps : 0;
}

/* For tests (not in the public header): threads whenever they apply,
   however little the work per heap, so that small games exercise them. */
void bt__sequence_par_always(bt_sequence *s);

void
bt__sequence_par_always(bt_sequence *s)
{
    s->par_always = 1;
    s->span_stop = 0;
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
            n - i >= PAR_MIN_LEFT) {
            if (i >= s->span_stop || s->timing < 0) {
                /* a span: twice the heaps so far, then PAR_SPAN at most */
                size_t stop = i + (i < PAR_MIN_LEFT ? PAR_MIN_LEFT
                                   : i < PAR_SPAN   ? i
                                                    : PAR_SPAN);
                span_end(s);
                s->span_level = par_choose(s);
                if (s->trial && stop - i > PAR_MEASURE)
                    stop = i + ((stop - i) / PAR_TRIAL > PAR_MEASURE
                                    ? (stop - i) / PAR_TRIAL
                                    : PAR_MEASURE);
                if (stop > s->review)
                    stop = s->review;
                s->span_stop = stop;
                if (s->span_level > 0 && s->pool == NULL)
                    s->pool = par_start(s);
                if (s->pool == NULL)
                    s->span_level = 0; /* no threads to be had */
                span_begin(s, s->span_level);
            }
            if (s->span_level > 0) {
                /* a stream ends early at a value that reaches w: the next
                   goes on in the same span */
                st = stream_extend(s, s->span_stop < n ? s->span_stop : n,
                                   level_threads(s, s->span_level), lim,
                                   diag);
                if (st != BT_OK)
                    return st;
                if (s->span_level > 0)
                    continue;
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

/*
 * The Z-function of the values read backwards from the end: z[k] = the
 * number of j < n - k with G(n-1-j) = G(n-1-k-j), i.e. how far back from
 * its end G(0..n-k-1) agrees with G(0..n-1) shifted by k.  Gusfield's
 * linear algorithm (Algorithms on Strings, Trees and Sequences, 1997,
 * sec. 1.4): every comparison that succeeds moves the right end of the
 * box, so at most 2n comparisons in all.  z[0] is n.  Polls lim every
 * POLL_WORK positions.
 */
static bt_status
z_back(const uint16_t *g, size_t n, uint32_t *z, const bt_limits *lim)
{
    size_t k, l = 0, r = 0;
#define BACK(j) g[n - 1 - (j)]
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
    const uint16_t *w = s->g + n0;
    size_t d, k, l = 0, r = 0, m;
    z[0] = (uint32_t)p;
    for (k = 1; k < p; k++) {
        size_t len = 0;
        if (k < r) {
            len = z[k - l];
            if (len > r - k)
                len = r - k;
        }
        while (k + len < p && w[len] == w[k + len])
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
static bt_status
detect(bt_sequence *s, const bt_limits *lim, bt_diag *diag)
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
        n > lim->max_memory / (sizeof *s->g + sizeof *z))
        return bt__fail(diag, BT_ELIMIT,
                        "detecting the period of %zu values needs more "
                        "than the max_memory limit of %zu bytes",
                        n, lim->max_memory);
    z = malloc(n * sizeof *z);
    if (z == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    if (z_back(s->g, n, z, lim) != BT_OK) {
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

static bt_status
sequence_compute(bt_sequence *s, size_t n, const bt_limits *lim,
                 bt_diag *diag)
{
    bt_status st;
    lim = bt__limits(lim);
    st = extend(s, n, lim, diag);
    if (st != BT_OK)
        return st;
    return detect(s, lim, diag);
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
        if ((st = extend(s, target, lim, diag)) != BT_OK)
            return st;
        if ((st = detect(s, lim, diag)) != BT_OK)
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
        par_free(s->pool);
        s->pool = NULL;
        s->nthreads = threads;
        s->cpus = cpus;
        /* the levels measured were of the old pool */
        memset(s->rate, 0, sizeof s->rate);
        memset(s->cpu_rate, 0, sizeof s->cpu_rate);
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
