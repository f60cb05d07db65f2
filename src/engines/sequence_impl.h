/*
 * sequence_impl.h -- what the files of the Grundy-sequence engine share;
 * private to them (sequence.c, sequence_rules.c, sequence_plain.c,
 * sequence_rare.c, sequence_stream.c, sequence_period.c), not part of the
 * public API nor of the rest of the library, which reaches the engine
 * through include/bouton/grundy.h and heapgame.h.
 *
 * It holds the sequence itself (struct bt_sequence), the constants more
 * than one file reads, the marking kernels every method runs (inline, so
 * that each method's inner loop keeps them in its own code) and the
 * functions one file gives another.  The methods themselves are described
 * at the top of sequence.c.
 */
#ifndef BOUTON_SEQUENCE_IMPL_H
#define BOUTON_SEQUENCE_IMPL_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "engines/heapgame.h"

#define MAXV BT__HEAP_MAXV    /* values are below this (16 bits) */
/* Pair operations (or plain values) between interrupt polls: 2^18 is
   about 1-4 ms of work, so that a request on the server's HTTP thread
   sees the end of its 1 ms slice within a few ms (2^22 let 70-85 ms
   pass before the first poll of a subtraction game's sequence). */
#define POLL_WORK (1u << 18)
#define PAR_LEVELS 10        /* 1, 2, 4, ... 256 threads (par_choose) */

struct bt_sequence {
    bt_game *game;           /* a reference, NULL for a game's own cache */
    const bt__heap_rules *r; /* borrowed from the game */
    bt_seq_method method;
    int window;  /* sliding-window method (subtraction) */
    void *g;     /* G(0..n-1), one byte each while every value is below
                    256 (wide 0), two bytes each from the first that is
                    not (wide 1): see seq_get */
    int wide;
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
    uint8_t *seen_next; /* MAXV + 64 bytes: phase 1 of heap next_n,
                           done with the heap before (value_rare) */
    size_t next_n;      /* 0: none */
    unsigned next_w, next_gen, gen; /* w then; gen: the sparse positions'
                                       generation (review) */
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
    size_t lvl_k[PAR_LEVELS], lvl_q[PAR_LEVELS]; /* and where they were
                               last at each level (0: never run): a level
                               starts from its own, not another's (a trial
                               on 2 threads left 16 threads a window of 0
                               on Officers to 2^26: bench/README.md) */
    /* the choice of how many threads, by measure (par_choose): level 0 is
       the calling thread alone, level i > 0 min(2^i, par_cap) threads */
    size_t est;      /* pair operations a heap, at the last choice */
    double rate[PAR_LEVELS];     /* pair operations a second of the last
                                    span at each level; 0: not measured */
    double cpu_rate[PAR_LEVELS]; /* and a second of CPU, every thread's */
    unsigned char warm[PAR_LEVELS]; /* a span was run at the level (its
                                       first is not counted: span_end) */
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

/*
 * The values' width.  The table of values is uint8_t while every value is
 * below 256 (Officers, 0.354 and most octal games: one byte a heap, so
 * 2^32 values take 4 GiB) and is widened to uint16_t, in place, by the
 * first value that is not (bt__seq_widen).  Every loop that reads values
 * is written once, as a function of `wide` forced inline (SEQ_TEMPLATE),
 * and instantiated for each width by a caller that passes a constant 0 or
 * 1: the compiler then drops the other width's branch from the loop, as
 * zstd instantiates its templates with constant arguments.  The choice is
 * made once a stream, a run of values or a scan (seq_extend_run,
 * stream_extend, the workers, detect), not once a value.
 */
#if defined(__GNUC__)
#define SEQ_TEMPLATE static inline __attribute__((always_inline))
#else
#define SEQ_TEMPLATE static inline
#endif
#define SEQ_NARROW 256u /* values below this fit the narrow width */

/* G(i) from the table g of width `wide`. */
SEQ_TEMPLATE unsigned
seq_get(const void *g, int wide, size_t i)
{
    return wide ? ((const uint16_t *)g)[i] : ((const uint8_t *)g)[i];
}

/* G(i) of s, i < s->n (not for loops: it tests the width every time). */
static inline unsigned
seq_at(const bt_sequence *s, size_t i)
{
    return seq_get(s->g, s->wide, i);
}

static inline unsigned
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
static inline unsigned
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
static inline int
is_sparse(const bt_sequence *s, size_t x, unsigned v)
{
    return (parity(v & s->mask) ^ (s->domain & (unsigned)x & 1u)) == s->sigma;
}

/* ------------------------------------------------ the marking kernels */

/* Marks the values of the options that leave at most one heap. */
SEQ_TEMPLATE void
mark_singles(const bt__heap_rules *r, const void *g, int wide, size_t n,
             uint8_t *seen)
{
    size_t i, k;
    for (i = 0; i < r->nwhole; i++)
        if (r->whole[i] == n)
            seen[0] = 1;
    for (i = 0; i < r->none; i++)
        if (r->one[i] < n)
            seen[seq_get(g, wide, n - r->one[i])] = 1;
    /* a subtraction set: take k, leaving n - k (0 included) */
    for (i = 0; i < r->nint && r->lo[i] <= n; i++)
        for (k = r->lo[i]; k <= r->hi[i] && k <= n; k++)
            seen[seq_get(g, wide, n - k)] = 1;
}

/*
 * Marks G(a) XOR G(rest - a) for first <= a <= last.  The inner loop of the
 * plain method: two loads, an XOR and a byte store per pair, unrolled so
 * that the stores of independent pairs overlap.
 */
SEQ_TEMPLATE void
mark_pairs(const void *g, int wide, size_t rest, size_t first, size_t last,
           uint8_t *seen)
{
    /* one body for both widths: the loop on typed pointers (indices from
       both ends cost an instruction more a step) */
#define MARK_PAIRS(T)                                                    \
    do {                                                                 \
        const T *lo = (const T *)g + first, *hi = (const T *)g + rest - first; \
        size_t a = 0, h = last + 1 - first;                              \
        for (; a + 4 <= h; a += 4) {                                     \
            unsigned v0 = lo[a] ^ *(hi - a);                             \
            unsigned v1 = lo[a + 1] ^ *(hi - a - 1);                     \
            unsigned v2 = lo[a + 2] ^ *(hi - a - 2);                     \
            unsigned v3 = lo[a + 3] ^ *(hi - a - 3);                     \
            seen[v0] = 1;                                                \
            seen[v1] = 1;                                                \
            seen[v2] = 1;                                                \
            seen[v3] = 1;                                                \
        }                                                                \
        for (; a < h; a++)                                               \
            seen[lo[a] ^ *(hi - a)] = 1;                                 \
    } while (0)
    if (wide)
        MARK_PAIRS(uint16_t);
    else
        MARK_PAIRS(uint8_t);
#undef MARK_PAIRS
}

/* Marks G(x) XOR G(rest - x) for the sparse positions x = rpos[from..to-1]
   (phase 1 of the rare-value method). */
SEQ_TEMPLATE void
mark_sparse(const void *g, int wide, size_t rest, const uint32_t *rpos,
            const uint16_t *rval, size_t from, size_t to, uint8_t *seen)
{
    size_t i = from;
#define G(i) seq_get(g, wide, i)
    for (; i + 4 <= to; i += 4) {
        unsigned v0 = rval[i] ^ G(rest - rpos[i]);
        unsigned v1 = rval[i + 1] ^ G(rest - rpos[i + 1]);
        unsigned v2 = rval[i + 2] ^ G(rest - rpos[i + 2]);
        unsigned v3 = rval[i + 3] ^ G(rest - rpos[i + 3]);
        seen[v0] = 1;
        seen[v1] = 1;
        seen[v2] = 1;
        seen[v3] = 1;
    }
    for (; i < to; i++)
        seen[rval[i] ^ G(rest - rpos[i])] = 1;
#undef G
}

/* Fills sr/sh with the splits of heap n (the rest after taking k, and the
   largest smaller part); returns how many apply. */
static inline size_t
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

static inline size_t
splits_of(bt_sequence *s, size_t n)
{
    return splits_in(s->r, n, s->sr, s->sh);
}

/* The first sparse position above thr, among rpos[0..nr-1]. */
static inline size_t
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
SEQ_TEMPLATE void
mark_split_of(const void *g, int wide, const uint32_t *rpos,
              const uint16_t *rval, int unequal, size_t rest, size_t lo,
              size_t hi, uint8_t *seen)
{
    if (unequal && rest % 2 == 0) {
        size_t mid = rare_above(rpos, hi, rest / 2 - 1);
        if (mid < lo)
            mid = lo;
        mark_sparse(g, wide, rest, rpos, rval, lo, mid, seen);
        if (mid < hi && rpos[mid] == rest / 2)
            mid++;
        mark_sparse(g, wide, rest, rpos, rval, mid, hi, seen);
    } else {
        mark_sparse(g, wide, rest, rpos, rval, lo, hi, seen);
    }
}

/* The least of need[0..k-1], k >= 1. */
static inline unsigned
least_of(const uint16_t *need, size_t k)
{
    unsigned least = need[0];
    size_t i;
    for (i = 1; i < k; i++)
        if (need[i] < least)
            least = need[i];
    return least;
}

/* ------------------------------------- what one file gives another */

/* sequence.c: room for G(0..n-1) in the current width; the table widened
   to two bytes a value (BT_ENOMEM, or BT_ELIMIT past max_memory, with
   lim NULL: no limit); G(i) = v appended, i = s->n (the method's tables
   follow the values; BT_ELIMIT past 16 bits; a value of 256 or more
   widens the table: the caller must hold no pointer into it, nor any
   thread read it); the bytes of n values in the current width. */
bt_status bt__seq_reserve(bt_sequence *s, size_t n);
bt_status bt__seq_widen(bt_sequence *s, const bt_limits *lim, bt_diag *diag);
bt_status bt__seq_commit(bt_sequence *s, size_t i, unsigned v, bt_diag *diag);
static inline size_t
seq_bytes(const bt_sequence *s, size_t n)
{
    return s->wide ? 2 * n : n;
}

/* sequence_plain.c: G(n), n = s->n, by the plain method, the general
   plain method (three heaps, infinite codes) and the sliding windows
   (large subtraction sets); the work the general method would do to
   reach n values. */
unsigned bt__seq_value_plain_8(bt_sequence *s, size_t n);
unsigned bt__seq_value_plain_16(bt_sequence *s, size_t n);
unsigned bt__seq_value_general(bt_sequence *s, size_t n);
unsigned bt__seq_value_window(bt_sequence *s, size_t n);
double bt__seq_general_work(const bt__heap_rules *r, size_t n);

/* sequence_rare.c: G(n) by the rare-value method; the method reconsidered
   at s->n (review); a sparse position appended; room for nc sparse
   positions (0, or -1 out of memory); the check's scan of the pairs
   (returns how many of need[0..k-1] no pair reached). */
unsigned bt__seq_value_rare_8(bt_sequence *s, size_t n);
unsigned bt__seq_value_rare_16(bt_sequence *s, size_t n);
bt_status bt__seq_review(bt_sequence *s);
bt_status bt__seq_rare_push(bt_sequence *s, size_t pos, unsigned v);
int bt__seq_rare_room(uint32_t **pos, uint16_t **val, size_t *cap, size_t nc);
size_t bt__seq_confirm_scan_8(const void *g, uint8_t *seen, uint16_t *need,
                              size_t k, size_t *pa, const size_t *sr,
                              const size_t *sh, size_t m, size_t *work);
size_t bt__seq_confirm_scan_16(const void *g, uint8_t *seen, uint16_t *need,
                               size_t k, size_t *pa, const size_t *sr,
                               const size_t *sh, size_t m, size_t *work);
/* sequence_simd.c: whether the check's scan in AVX-512 is used (the CPU
   has it, and tests have not turned it off with bt__seq_simd_disable(1));
   that scan, with confirm_scan's contract, for need[] values below 1024
   (and only when bt__seq_simd()). */
int bt__seq_simd(void);
void bt__seq_simd_disable(int off);
size_t bt__seq_scan_simd(const void *g, int wide, uint16_t *need, size_t k,
                         size_t *pa, const size_t *sr, const size_t *sh,
                         size_t m, size_t *work);
/* f_8 or f_16 by a width known when the caller is instantiated */
#define SEQ_WIDTH(f, wide) ((wide) ? f##_16 : f##_8)

/* sequence_stream.c: G(s->n .. n-1), on threads where they pay; the
   threads' pool freed (NULL is fine). */
bt_status bt__seq_extend(bt_sequence *s, size_t n, const bt_limits *lim,
                         bt_diag *diag);
void bt__seq_par_free(struct par_pool *pl);

/* sequence_period.c: the periodicity detected, and proved where a theorem
   applies; G(i) of a sequence periodic with p from n0. */
bt_status bt__seq_detect(bt_sequence *s, const bt_limits *lim, bt_diag *diag);
unsigned bt__seq_at_periodic(const bt_sequence *s, size_t i, size_t p,
                             size_t n0);

#endif
