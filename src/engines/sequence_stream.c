/*
 * sequence_stream.c -- the sequence engine's loop over the heaps
 * (bt__seq_extend: one method per value, sequence_plain.c and
 * sequence_rare.c) and the rare-value method on several threads in a
 * stream (below): the pool of threads, the ring of batches, the division
 * of the work between the calling thread and the workers, and the choice
 * of how many threads by measure.  The threads are started here and
 * nowhere else in the engine; the CPUs the process may use come from
 * cpus.c.
 */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engines/sequence_impl.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define GENERAL_WORK 256     /* the general method marks at most this many
                                option values per value of max_grundy */

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
 *     cut, rpos[0..k-1] (which include every one below the lag L), and
 *     those found since the stream started; adds the single heaps; takes
 *     the least value c of parity pi; checks the values below c still
 *     missing, looking at the pairs a < L first, then at those
 *     past the window (below); and commits G(n);
 *
 *   - the workers, ahead of it, mark the pairs of the other sparse
 *     positions, rpos[k..nr-1] (nr of them when the stream started), and
 *     then run the check on these marks alone over the pairs L <= a <
 *     L + q, where the calling thread's check would look next, until the
 *     values below the least free one of these marks are found: the
 *     window, at most q pairs a split.  They record how far it went in
 *     each split (reach) and below which value (every value these read
 *     is below n + 1 - split[0] - L, already made).  Most heaps' check
 *     then ends in the window: on 16 cores Officers' calling thread went
 *     from about 2 400 pairs a heap past the window to 120-600
 *     (bench/README.md).
 *
 * Every value is thus the sequential method's, from the same options:
 * nothing is guessed, nothing is thrown away.  The heaps go in batches of
 * STREAM_BATCH; a worker takes the next batch [n0, n1) once the values
 * below n1 - split[0] - L are made, writes its marks into a ring
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
#define STREAM_LAG_MIN 4 /* batches: the least lag (stream_lag) */
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

/* mark_sparse for two rests r0 and r1 at once, over the same sparse
   positions: one load of each position and value for two marks. */
SEQ_TEMPLATE void
mark_sparse2(const void *g, int wide, size_t r0, size_t r1,
             const uint32_t *rpos, const uint16_t *rval, size_t from,
             size_t to, uint8_t *seen)
{
    size_t i = from;
#define G(i) seq_get(g, wide, i)
    for (; i + 2 <= to; i += 2) {
        unsigned v0 = rval[i], v1 = rval[i + 1];
        size_t x0 = rpos[i], x1 = rpos[i + 1];
        unsigned a0 = v0 ^ G(r0 - x0), b0 = v0 ^ G(r1 - x0);
        unsigned a1 = v1 ^ G(r0 - x1), b1 = v1 ^ G(r1 - x1);
        seen[a0] = 1;
        seen[b0] = 1;
        seen[a1] = 1;
        seen[b1] = 1;
    }
    for (; i < to; i++) {
        seen[rval[i] ^ G(r0 - rpos[i])] = 1;
        seen[rval[i] ^ G(r1 - rpos[i])] = 1;
    }
#undef G
}

typedef struct stream_rec {
    _Alignas(PAR_LINE) _Atomic uint64_t seq;
    size_t k; /* the cut they were made with */
} stream_rec;

typedef struct par_scratch {
    uint8_t *seen;
    uint16_t *need;
    size_t *pa, *sr, *sh;
    size_t *to; /* stream_check: per split, the last pair to look at */
    uint64_t *bits; /* the calling thread's copy of a heap's marks */
    size_t work;
    size_t beyond; /* heaps whose check looked past the window */
    /* benchmarks (par_stats): the pair operations of the calling thread's
       parts -- sparse positions, the check's pairs below the lag, those
       past the window -- and of a worker's */
    uint64_t w_sparse, w_near, w_beyond, w_worker;
    uint64_t h_from_lag; /* heaps whose check went on from L for values
                            the worker's window did not look for */
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
    pthread_cond_t ready;  /* for the calling thread: a batch ready, or a
                              worker out */
    pthread_cond_t vready; /* for the workers: values made, or the end */
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
    const void *g; /* the values, of width `wide` (fixed for a stream: a
                      value that would widen them ends it first) */
    int wide;
    size_t lo, hi, words, split0;
    size_t lag; /* L: the workers' pairs start there (stream_lag) */
    int unequal;
    unsigned w, domain; /* the sequence's w and domain (the mex's parity) */
    size_t *reach; /* nring batches of msplit a heap: how far a worker's
                      window went in each split, and below which value
                      (stream_work_w) */
    size_t msplit, reach_cap;
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
    _Alignas(PAR_LINE) _Atomic unsigned sleepers; /* the calling thread
                                                     asleep on `ready` */
    _Alignas(PAR_LINE) _Atomic unsigned vsleepers; /* workers asleep on
                                                      `vready` */
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
SEQ_TEMPLATE void
mark_range(const void *g, int wide, const uint32_t *rpos, const uint16_t *rval,
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
        mark_sparse2(g, wide, sc->sr[0], sc->sr[1], rpos, rval, lo, a, seen);
        mark_sparse(g, wide, sc->sr[0], rpos, rval, a, top[0], seen);
        mark_sparse(g, wide, sc->sr[1], rpos, rval, a, top[1], seen);
        sc->work += top[0] + top[1] - 2 * lo;
        j = 2;
    }
    for (; j < m; j++) {
        size_t t = hi;
        while (t > lo && rpos[t - 1] >= sc->sr[j])
            t--;
        mark_split_of(g, wide, rpos, rval, unequal, sc->sr[j], lo, t, seen);
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
   usually a few microseconds away), then sleeps on cv, its side's
   condition (it lost its core, or the cores are fewer than the threads:
   polling would keep it from them).  The poll adapts, as an adaptive
   mutex's: a wait that ended in a sleep halves the next poll, one that
   ended polling doubles it, up to STREAM_POLL; so on a busy machine,
   where the other side is often off its core, the threads mostly sleep
   and burn nothing.  A thread that makes something ready wakes that
   side's sleepers when there are any (wake_side): counted here before the
   last look, looked at there after the change, both sequentially
   consistent, so one of the two sees the other. */
static void
stream_sleep(par_pool *pl, pthread_cond_t *cv, _Atomic unsigned *sleepers,
             double *spin, stream_cond ok, const void *arg)
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
    atomic_fetch_add(sleepers, 1);
    while (!ok(pl, arg))
        pthread_cond_wait(cv, &pl->mu);
    atomic_fetch_sub(sleepers, 1);
    pthread_mutex_unlock(&pl->mu);
}

/* After a change a sleeping thread may wait for: the calling thread's
   (a batch, a worker out) or the workers' (values, the end).  Two sides,
   so that a batch done wakes no worker and values made wake no calling
   thread: on 16 threads kept on, one broadcast to all at every batch woke
   14 threads for nothing, and 0.354 spent 164 s of its 212 s of CPU in
   the kernel (bench/README.md). */
static void
wake_side(par_pool *pl, pthread_cond_t *cv, _Atomic unsigned *sleepers)
{
    if (atomic_load(sleepers) > 0) {
        pthread_mutex_lock(&pl->mu);
        pthread_cond_broadcast(cv);
        pthread_mutex_unlock(&pl->mu);
    }
}

static void
wake_caller(par_pool *pl)
{
    wake_side(pl, &pl->ready, &pl->sleepers);
}

static void
wake_workers(par_pool *pl)
{
    wake_side(pl, &pl->vready, &pl->vsleepers);
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

/* A worker's part of a stream: batches, until it ends; for each width
   (sequence_impl.h), chosen once a stream by stream_work. */
SEQ_TEMPLATE void
stream_work_w(par_pool *pl, par_thread *t, int wide)
{
    par_scratch *sc = &t->sc;
    const bt__heap_rules *r = pl->r;
    uint64_t *marks = pl->marks;
    const void *g = pl->g;
    const uint32_t *rpos = pl->rpos;
    const uint16_t *rval = pl->rval;
    size_t words = pl->words, P = STREAM_BATCH, lo = pl->lo, hi = pl->hi;
    size_t nr = pl->nr, L = pl->lag, lag = pl->split0 + L, nring = pl->nring;
    size_t w0, ms = pl->msplit, i;
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
            stream_sleep(pl, &pl->vready, &pl->vsleepers, &t->spin,
                         values_made, &need);
            stat_add(pl, t, PT_WAIT, &t0);
            if (atomic_load(&pl->stop))
                break;
        }
        w0 = sc->work;
        for (n = n0; n < n1; n++) {
            size_t m = splits_in(r, n, sc->sr, sc->sh), kn = 0;
            uint64_t *bn = bits + (n - n0) * words;
            size_t *reach = pl->reach + ((b % nring) * P + (n - n0)) * ms;
            unsigned c = 0;
            memset(sc->seen, 0, words * 64);
            mark_range(g, wide, rpos, rval, unequal, sc, m, k, nr, sc->seen);
            pack_or(bn, NULL, sc->seen, words);
            for (j = 0; j < m; j++) {
                sc->pa[j] = L;
                sc->to[j] = q > 0 && L + q - 1 < sc->sh[j] ? L + q - 1
                                                            : sc->sh[j];
            }
            if (m > 0 && q > 0) {
                /* the window is the check of these marks alone, as far
                   as it goes within q pairs: the values below c, their
                   least free one of the mex's parity, still missing */
                unsigned pi = 1u ^ (pl->domain & (unsigned)sc->sr[0] & 1u);
                size_t left;
                c = least_free(bn, pl->par, pi, pl->w);
                for (i = 0; (unsigned)i * 64 < c; i++) {
                    uint64_t z = ~bn[i];
                    if ((i + 1) * 64 > c)
                        z &= ((uint64_t)1 << (c & 63)) - 1;
                    for (; z != 0; z &= z - 1)
                        sc->need[kn++] = (uint16_t)(i * 64 + ctz64(z));
                    sc->bits[i] = 0;
                }
                if (kn > 0) {
                    left = SEQ_WIDTH(bt__seq_confirm_scan, wide)(
                        g, sc->seen, sc->need, kn, sc->pa, sc->sr, sc->to,
                        m, &sc->work);
                    /* found: the values of need[] no longer missing
                       (the scan marks some in seen, finds others in
                       registers) */
                    for (i = 0; i < left; i++)
                        set_bit(sc->bits, sc->need[i]);
                    for (i = 0; (unsigned)i * 64 < c; i++) {
                        uint64_t z = ~bn[i] & ~sc->bits[i];
                        if ((i + 1) * 64 > c)
                            z &= ((uint64_t)1 << (c & 63)) - 1;
                        for (; z != 0; z &= z - 1)
                            sc->seen[i * 64 + ctz64(z)] = 1;
                    }
                    pack_or(bn, NULL, sc->seen, words);
                }
            }
            /* what the check may take as looked at: the pairs L <= a <
               reach[j] for every value below reach[ms] (stream_check) */
            for (j = 0; j < m; j++)
                reach[j] = sc->pa[j];
            reach[ms - 1] = c;
        }
        sc->w_worker += sc->work - w0;
        rec->k = k;
        atomic_store(&rec->seq, b + 1);
        wake_caller(pl);
    }
    stat_add(pl, t, PT_WORK, &t0);
    atomic_fetch_add(&pl->out, 1);
    wake_caller(pl);
}

static void
stream_work(par_pool *pl, par_thread *t)
{
    if (pl->wide)
        stream_work_w(pl, t, 1);
    else
        stream_work_w(pl, t, 0);
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
            wake_caller(pl);
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

void
bt__seq_par_free(par_pool *pl)
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
    pthread_cond_destroy(&pl->vready);
    free(pl->th);
    free(pl->rpos);
    free(pl->rval);
    free(pl->marks);
    free(pl->reach);
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
    pthread_cond_init(&pl->vready, NULL);
    atomic_init(&pl->sleepers, 0);
    atomic_init(&pl->vsleepers, 0);
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
        bt__seq_par_free(pl);
        return NULL;
    }
    for (i = 0; i < pl->nthreads; i++) {
        pl->th[i].pool = pl;
        pl->th[i].spin = STREAM_POLL;
        if (scratch_init(&pl->th[i].sc, s->r->nsplit) != 0) {
            pl->nthreads = i; /* those made so far are freed */
            bt__seq_par_free(pl);
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
    pl->msplit = s->r->nsplit + 1; /* the splits' reach, and c */
    need = pl->nring * STREAM_BATCH * pl->msplit;
    if (need > pl->reach_cap) {
        size_t *p = realloc(pl->reach, need * sizeof *p);
        if (p == NULL)
            return -1;
        pl->reach = p;
        pl->reach_cap = need;
    }
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
    if (bt__seq_rare_room(&pl->rpos, &pl->rval, &pl->rcap, s->nrare) != 0)
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
 * heaps) are looked for among the pairs the window left out: a < L
 * (recent values), then a >= reach[j] for the values the worker's window
 * looked for (below reach[ms - 1]) and a >= L for the others.  Returns
 * G(n).
 */
SEQ_TEMPLATE unsigned
stream_check(const void *g, int wide, par_scratch *sc, size_t m,
             const uint64_t *b, unsigned c, size_t L, const size_t *reach,
             size_t ms)
{
    size_t k = 0, i, j, w0, nlo, lo = 0, hi = 0;
    unsigned vlo, vhi, cw;
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
        sc->to[j] = L - 1 < sc->sh[j] ? L - 1 : sc->sh[j];
    }
    w0 = sc->work;
    k = SEQ_WIDTH(bt__seq_confirm_scan, wide)(g, sc->seen, sc->need, k,
                                              sc->pa, sc->sr, sc->to, m,
                                              &sc->work);
    sc->w_near += sc->work - w0;
    if (k == 0)
        return c;
    sc->beyond++;
    /* the worker's window looked at the pairs L <= a < reach[j] for the
       values below cw = reach[ms - 1] (read only here: a line another
       core wrote): those go on from there; the others (the calling
       thread's marks made c larger than the worker's cw) from L */
    cw = (unsigned)reach[ms - 1];
    for (i = 0, nlo = 0; i < k; i++) {
        uint16_t v = sc->need[i];
        if (v < cw) {
            sc->need[i] = sc->need[nlo];
            sc->need[nlo++] = v;
        }
    }
    w0 = sc->work;
    if (nlo < k) {
        sc->h_from_lag++;
        for (j = 0; j < m; j++)
            sc->pa[j] = L;
        hi = SEQ_WIDTH(bt__seq_confirm_scan, wide)(
            g, sc->seen, sc->need + nlo, k - nlo, sc->pa, sc->sr, sc->sh, m,
            &sc->work);
    }
    if (nlo > 0) {
        for (j = 0; j < m; j++)
            sc->pa[j] = reach[j];
        lo = SEQ_WIDTH(bt__seq_confirm_scan, wide)(g, sc->seen, sc->need,
                                                   nlo, sc->pa, sc->sr,
                                                   sc->sh, m, &sc->work);
    }
    sc->w_beyond += sc->work - w0;
    vlo = lo > 0 ? least_of(sc->need, lo) : c;
    vhi = hi > 0 ? least_of(sc->need + nlo, hi) : c;
    return vlo < vhi ? vlo : vhi;
}

/*
 * The cut and the window by measure, every STREAM_TUNE batches: aw, the
 * batches the calling thread waited for in the last ones, against ww, those
 * a worker waited for values.  When the workers are behind, they get less:
 * a shorter window, else a higher cut; when the calling thread is, they
 * get more: a lower cut (down to kmin, the first sparse position at or
 * past the lag), else a longer window -- but only while some check
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
            q -= q / 16 + 1;
        else if (k < pl->nr)
            k += (pl->nr - k) / 16 + 1;
    } else if (ww > aw) {
        if (k > kmin)
            k -= (k - kmin) / 8 + 1;
        else if (q < STREAM_MAX_WINDOW && beyond > 0)
            q += q / 8 + 1;
    }
    atomic_store_explicit(&pl->k, k, memory_order_relaxed);
    atomic_store_explicit(&pl->q, q, memory_order_relaxed);
    s->par_k = k;
    s->par_q = q;
    s->lvl_k[s->span_level] = k;
    s->lvl_q[s->span_level] = q;
}

/* L, the lag of a stream on `workers` workers (besides the calling
   thread).  A worker may take a batch only once the values L heaps
   before it are made, so at most L / STREAM_BATCH batches are in flight
   ahead of the calling thread: fewer than the workers, and the others
   wait.  (At L = 64 for every count, 16 threads did no better than 4 on
   a 16-core Xeon: bench/README.md.)  A longer lag gives the calling
   thread the sparse positions below it and the pairs a < L of the check:
   more of its own work, which the workers no longer overlap. */
static size_t
stream_lag(unsigned workers)
{
    size_t batches = workers + 2 > STREAM_LAG_MIN ? workers + 2
                                                  : STREAM_LAG_MIN;
    return batches * STREAM_BATCH;
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
    stream_sleep(pl, &pl->ready, &pl->sleepers, &pl->th[0].spin,
                 batch_ready, rec);
    stat_add(pl, &pl->th[0], PT_WAIT, t0);
}

/*
 * Computes G(s->n .. end-1) on `active` threads (the calling one
 * included, as many as the pool has at most) by the stream (above);
 * stops early, every value made exact, after a value that reaches w (the
 * caller goes on).  For the width `wide` of the values, fixed for the
 * stream: a value of 256 or more reaches w (w <= 256 while the values are
 * narrow), so the workers are out of the stream before it widens the
 * table they read.
 */
SEQ_TEMPLATE bt_status
stream_extend_w(bt_sequence *s, size_t end, unsigned active,
                const bt_limits *lim, bt_diag *diag, int wide)
{
    par_pool *pl = s->pool;
    par_scratch *sc = &pl->th[0].sc;
    size_t N = s->n, P = STREAM_BATCH, words = ((size_t)s->w + 63) / 64;
    size_t kmin, k, n, nb = 0, aw = 0, ww0 = 0, nr = s->nrare, w0;
    unsigned w = s->w, widen = UINT_MAX;
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
    pl->wide = wide;
    pl->split0 = s->r->split[0];
    pl->unequal = s->r->unequal;
    pl->w = s->w;
    pl->domain = s->domain;
    pl->lo = N;
    pl->hi = end;
    pl->words = words;
    pl->lag = stream_lag(pl->active);
    for (kmin = 0; kmin < nr && s->rpos[kmin] < pl->lag; kmin++)
        ;
    if (!s->par_fixed && s->lvl_k[s->span_level] > 0) {
        s->par_k = s->lvl_k[s->span_level];
        s->par_q = s->lvl_q[s->span_level];
    }
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
        mark_singles(s->r, s->g, wide, n, sc->seen);
        /* the sparse positions below the cut, and those found since the
           stream started */
        w0 = sc->work;
        mark_range(s->g, wide, s->rpos, s->rval, s->r->unequal, sc, m, 0,
                   rec->k, sc->seen);
        mark_range(s->g, wide, s->rpos, s->rval, s->r->unequal, sc, m, nr,
                   s->nrare, sc->seen);
        sc->w_sparse += sc->work - w0;
        /* into a copy: a line of the ring written here would have to be
           taken back by the worker's core */
        pack_or(bl, bn, sc->seen, words);
        if (m == 0) {
            v = least_free(bl, NULL, 0, w); /* the single heaps' mex */
        } else {
            unsigned pi = 1u ^ (s->domain & (unsigned)sc->sr[0] & 1u);
            c = least_free(bl, pl->par, pi, w);
            const size_t *reach =
                pl->reach + ((b % pl->nring) * P + (n - N) % P) * pl->msplit;
            v = stream_check(s->g, wide, sc, m, bl, c, pl->lag, reach,
                             pl->msplit);
        }
        if (v >= w) {
            widen = v; /* committed once the workers are out */
            break;
        }
        if ((st = bt__seq_commit(s, n, v, diag)) != BT_OK)
            break;
        if ((n + 1 - N) % P == 0) {
            atomic_store(&pl->done, n + 1);
            wake_workers(pl);
        }
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
    wake_workers(pl);
    stat_add(pl, &pl->th[0], PT_WORK, &t0);
    stream_sleep(pl, &pl->ready, &pl->sleepers, &pl->th[0].spin,
                 workers_out, NULL);
    stat_add(pl, &pl->th[0], PT_WAIT, &t0);
    if (widen < UINT_MAX) {
        /* a value that reaches w, the marks after it would need more
           bits: the stream ends with it; the workers are out, so the
           table may widen (the values past it are another stream's) */
        st = widen >= SEQ_NARROW ? bt__seq_widen(s, lim, diag) : BT_OK;
        if (st == BT_OK)
            st = bt__seq_commit(s, n, widen, diag);
        s->work += sc->work;
        sc->work = 0;
    }
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
   threads' start) and timed on this thread (its CPU clock), and was not
   the level's first on threads: that one starts the threads and tunes the
   cut and the window from where they were (Officers' first span on two
   threads measured 1.5 times one thread's CPU an operation, its later
   ones less than one thread's, and the level was set aside for the run). */
static void
span_end(bt_sequence *s)
{
    if (s->timing >= 0) {
        double dt = mono_now() - s->t_from, dc = threads_cpu(s) - s->c_from;
        double ops = (double)(s->n - s->n_from) * (double)s->est;
        if (dt > 0 && dc > 0 && s->n >= s->n_from + PAR_MEASURE &&
            pthread_equal(s->th_from, pthread_self()) &&
            (s->timing == 0 || s->warm[s->timing]++ > 0)) {
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
        (void)SEQ_WIDTH(bt__seq_value_rare, s->wide)(s, s->n - k);
    {
        /* smoothed: the work of 256 heaps varies by a tenth from one
           sample to the next, and a span's rate is counted in it */
        size_t e = s->work / PAR_SAMPLE + 1;
        s->est = s->est > 0 ? (3 * s->est + e) / 4 : e;
    }
    s->work = saved;
    if (s->est < PAR_MIN_WORK || top == 0)
        return 0;
    if (s->rate[0] == 0)
        return 0; /* one thread first: what the others are measured by */
    b = s->best = best_level(s);
    if (s->retry == 0)
        s->retry = PAR_RETRY;
    /* a trial that lost on the clock backs off; one that was faster but
       refused for its CPU time does not: its first spans may have been
       dearer than its later ones will be (span_end) */
    if (was_trial)
        s->retry = b != prev || s->rate[s->span_level] > s->rate[b]
                       ? PAR_RETRY
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
    {
        /* the pair operations a heap of each part */
        double h = pl->heaps > 0 ? (double)pl->heaps : 1, wk = 0;
        size_t used = strlen(buf);
        for (i = 1; i < pl->nthreads; i++)
            wk += (double)pl->th[i].sc.w_worker;
        if (used < len)
            snprintf(buf + used, len - used,
                     "; pairs a heap: calling thread %.0f sparse, %.0f "
                     "below the lag (%zu), %.0f past the window (%llu "
                     "heaps from the lag); workers %.0f",
                     (double)pl->th[0].sc.w_sparse / h,
                     (double)pl->th[0].sc.w_near / h, pl->lag,
                     (double)pl->th[0].sc.w_beyond / h,
                     (unsigned long long)pl->th[0].sc.h_from_lag, wk / h);
    }
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
bt_status
bt__seq_extend(bt_sequence *s, size_t n, const bt_limits *lim, bt_diag *diag)
{
    bt_status st = extend_run(s, n, lim, diag);
    span_end(s); /* the span's time must not count what the caller does */
    return st;
}

static bt_status extend_values(bt_sequence *s, size_t n, const bt_limits *lim,
                               bt_diag *diag, int wide);

static bt_status
extend_run(bt_sequence *s, size_t n, const bt_limits *lim, bt_diag *diag)
{
    if (n <= s->n)
        return BT_OK;
    if (n > lim->max_grundy)
        return bt__fail(diag, BT_ELIMIT,
                        "%zu values of the Grundy sequence exceed the "
                        "max_grundy limit (%zu)",
                        n, lim->max_grundy);
    /* the table at its width now (a widening is charged again) */
    if (lim->max_memory != 0 && n > lim->max_memory / seq_bytes(s, 1))
        return bt__fail(diag, BT_ELIMIT,
                        "%zu values of the Grundy sequence need more than "
                        "the max_memory limit of %zu bytes",
                        n, lim->max_memory);
    if (s->r->general &&
        bt__seq_general_work(s->r, n) > (double)lim->max_grundy * GENERAL_WORK)
        return bt__fail(diag, BT_ELIMIT,
                        "%zu values of the Grundy sequence of this code "
                        "need about %.3g option values (moves that leave "
                        "three heaps, or an infinite code, take the plain "
                        "method), more than %d times the max_grundy limit "
                        "(%zu)",
                        n, bt__seq_general_work(s->r, n), GENERAL_WORK,
                        lim->max_grundy);
    if (bt__seq_reserve(s, n) != BT_OK)
        return bt__fail(diag, BT_ENOMEM, "out of memory for %zu values", n);
    s->goal = n;
    /* the loop for the table's width, again after each widening (once at
       most) */
    while (s->n < n) {
        bt_status st = s->wide ? extend_values(s, n, lim, diag, 1)
                               : extend_values(s, n, lim, diag, 0);
        if (st != BT_OK)
            return st;
    }
    return BT_OK;
}

/* Computes G(s->n .. n-1) while the table's width is `wide` (returns when
   a value widens it). */
SEQ_TEMPLATE bt_status
extend_values_w(bt_sequence *s, size_t n, const bt_limits *lim, bt_diag *diag,
                int wide)
{
    bt_status st;
    while (s->n < n && s->wide == wide) {
        size_t i = s->n;
        unsigned v;
        if (i == s->review && (st = bt__seq_review(s)) != BT_OK)
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
                st = stream_extend_w(s, s->span_stop < n ? s->span_stop : n,
                                     level_threads(s, s->span_level), lim,
                                     diag, wide);
                if (st != BT_OK)
                    return st;
                if (s->span_level > 0)
                    continue;
            }
        }
        if (s->window)
            v = bt__seq_value_window(s, i);
        else if (s->r->general)
            v = bt__seq_value_general(s, i);
        else if (s->rare)
            v = SEQ_WIDTH(bt__seq_value_rare, wide)(s, i);
        else
            v = SEQ_WIDTH(bt__seq_value_plain, wide)(s, i);
        if (v >= SEQ_NARROW && !wide &&
            (st = bt__seq_widen(s, lim, diag)) != BT_OK)
            return st;
        if ((st = bt__seq_commit(s, i, v, diag)) != BT_OK)
            return st;
        if (++s->work >= POLL_WORK) {
            s->work = 0;
            if ((st = report(s, lim, diag)) != BT_OK)
                return st;
        }
    }
    return BT_OK;
}

static bt_status
extend_values(bt_sequence *s, size_t n, const bt_limits *lim, bt_diag *diag,
              int wide)
{
    return wide ? extend_values_w(s, n, lim, diag, 1)
                : extend_values_w(s, n, lim, diag, 0);
}
