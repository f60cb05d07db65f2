/*
 * bouton/grundy.h -- Grundy sequences of heap games; part of the public
 * contract, include <bouton.h>.
 *
 * A heap game (a subtraction game "sub:S", an octal game "octal:0.77" or
 * one of its aliases, Grundy's game "grundy") has a Grundy sequence
 * G(0), G(1), ...: the value of one heap of n counters.  A bt_sequence
 * computes it, detects its period, and proves the periodicity when a
 * theorem allows:
 *
 *   - octal games, with t the index of the last non-zero code digit (the
 *     Guy-Smith theorem, Winning Ways ch. 4): if G(n + p) = G(n) for all
 *     n0 <= n < 2*n0 + p + t, then for all n >= n0.  The engine uses
 *     max(n0, 1) in place of n0 in the bound, which keeps the proof valid
 *     when n0 = 0 (a split must leave two non-empty heaps);
 *   - subtraction games (every move takes k in S and leaves at most one
 *     heap), with t = max(S): if G(n + p) = G(n) for n0 <= n < n0 + t, then
 *     for all n >= n0.  Octal games without splits get the same window,
 *     with max(n0, 1) when some digit is 1 or 2;
 *   - Grundy's game is not known to be periodic: never proved.
 *
 * Once proved, the reported period and preperiod are the least ones of the
 * whole infinite sequence, and G(n) is known for every n (any size).
 * Before that, a detected period is only a candidate (see
 * bt_sequence_period).
 *
 * Values are below 65536; a game whose values would reach it fails with
 * BT_ELIMIT.  A bt_sequence holds a reference to its game.
 */
#ifndef BOUTON_GRUNDY_H
#define BOUTON_GRUNDY_H

#include <stdint.h>

#include <bouton/core.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bt_sequence bt_sequence;

/* How the values are computed.  All methods give the same values; they
   differ in speed (tests compare them). */
typedef enum {
    BT_SEQ_AUTO = 0, /* rare values where the game has a sparse space */
    BT_SEQ_PLAIN,    /* the mex over every option: the reference, O(n^2) */
    BT_SEQ_RARE      /* the rare-value method from the start, whatever the
                        sparsity (for tests) */
} bt_seq_method;

/* Non-zero when g is a heap game with a Grundy sequence. */
BT_API int bt_sequence_is_supported(const bt_game *g);

/*
 * Makes an empty sequence (no value computed yet) for heap game g, taking a
 * reference to g.  BT_EINVAL when g is not a heap game (Nim's sequence is
 * G(n) = n; Wythoff's game is not a heap game).
 */
BT_API bt_status bt_sequence_new(bt_sequence **out, bt_game *g, bt_seq_method method,
                          bt_diag *diag);
/* Frees s and drops its reference to the game; accepts NULL. */
BT_API void bt_sequence_free(bt_sequence *s);

/*
 * Computes at least G(0..n-1) and then looks for a period in the values
 * computed (in time linear in their number, 6 bytes a value with the
 * values themselves).  BT_ELIMIT when n exceeds lim->max_grundy, a value
 * reaches 65536, or the values or the period detection need more than
 * lim->max_memory; BT_EINTR when lim->interrupt stops it, which both the
 * values and the detection poll (the values computed so far are kept).
 */
BT_API bt_status bt_sequence_compute(bt_sequence *s, size_t n, const bt_limits *lim,
                              bt_diag *diag);

/*
 * Computes values until the periodicity is proved or `limit` values have
 * been computed, whichever comes first (checking in steps, so a proof may
 * use somewhat more values than the least needed).  Returns BT_OK in both
 * cases: ask bt_sequence_is_proved().  BT_ELIMIT when limit exceeds
 * lim->max_grundy, and BT_ELIMIT or BT_EINTR as bt_sequence_compute.
 * The work is bounded by limit: the values, and a linear detection at
 * each step (the steps at least double).
 */
BT_API bt_status bt_sequence_prove(bt_sequence *s, size_t limit, const bt_limits *lim,
                            bt_diag *diag);

/* The most threads one sequence uses. */
#define BT_SEQ_MAX_THREADS 256

/*
 * Sets the threads that compute the values of s (the rare-value method in
 * a stream of batches, docs/grundy.md); 0 means one per CPU the process may
 * use, more than BT_SEQ_MAX_THREADS means that many.  The values are
 * exactly those of one thread whatever the number.  The engine never runs
 * more threads than the CPUs the process may use (the online CPUs, its
 * affinity mask and its cgroup's CPU quota, the least), and of those only
 * as many as pay: it times spans of heaps on one thread, then on 2, 4, ...,
 * on the clock and in CPU time, and keeps the fastest whose CPU time a
 * value stays within 1.3 times one thread's, trying the counts next to it
 * now and then (less often while they lose).  So on cores held by other
 * programs it may keep one.  A new sequence has 1.
 */
BT_API void bt_sequence_set_threads(bt_sequence *s, unsigned threads);
/* The threads set for s. */
BT_API unsigned bt_sequence_threads(const bt_sequence *s);
/* The most threads that computed values of s at once so far (1: the
   calling thread alone): what the engine chose. */
BT_API unsigned bt_sequence_threads_used(const bt_sequence *s);

/*
 * Long runs.  A progress function set on s is called from the computing
 * thread every few milliseconds of work, between values (every value below
 * bt_sequence_length(s) is final then): it may read s (its length, goal,
 * values, sparse positions) but not change it.  NULL removes it.
 */
typedef void (*bt_sequence_progress)(void *ud, const bt_sequence *s);
BT_API void bt_sequence_set_progress(bt_sequence *s, bt_sequence_progress fn,
                              void *ud);
/* The length s is being computed towards (the current step of a proof), or
   its length when idle. */
BT_API size_t bt_sequence_goal(const bt_sequence *s);
/*
 * The values G(0..length-1) as s keeps them, bt_sequence_width(s) bytes
 * each in the machine's order (uint8_t, or uint16_t), valid until s
 * computes again or is freed.  The width is 1 while every value is below
 * 256 and 2 from the first that is not (the engine widens its table
 * then: a sequence of Officers keeps one byte a heap).  For one value,
 * bt_sequence_value.
 */
BT_API const void *bt_sequence_data(const bt_sequence *s);
BT_API unsigned bt_sequence_width(const bt_sequence *s);
/*
 * Resuming: appends values that an earlier run of the same game and method
 * computed (a checkpoint), rebuilding the method's state exactly as if s
 * had computed them; then bt_sequence_set_goal(s, goal) with that run's
 * goal makes bt_sequence_prove take the very steps the uninterrupted run
 * took.  The values are trusted (a sliding-window game checks them);
 * BT_ENOMEM, BT_ELIMIT.  It takes no limits: its work is O(count) (times
 * the intervals of the set, for a sliding-window game) plus one review of
 * the method at each doubling of the length (O(length + w log w), w the
 * values' power of two), and it holds the values and the sparse positions,
 * O(length): the caller bounds it by count.
 */
BT_API bt_status bt_sequence_append(bt_sequence *s, const uint16_t *values,
                             size_t count, bt_diag *diag);
BT_API void bt_sequence_set_goal(bt_sequence *s, size_t goal);

/* The number of values computed. */
BT_API size_t bt_sequence_length(const bt_sequence *s);
/* G(i) for i < bt_sequence_length(s). */
BT_API unsigned bt_sequence_value(const bt_sequence *s, size_t i);

/*
 * The period and preperiod: returns 1 and sets them when the periodicity is
 * proved or a candidate was detected in the values (the last quarter of the
 * values, and at least two whole periods, repeat), else 0.
 */
BT_API int bt_sequence_period(const bt_sequence *s, size_t *period, size_t *preperiod);
/* Non-zero when a theorem proves the periodicity (see above). */
BT_API int bt_sequence_is_proved(const bt_sequence *s);

/*
 * G(n) for a heap of any size: from the values computed, or from the proved
 * period.  BT_ERANGE with a message when n is beyond the values computed
 * and the periodicity is not proved.
 */
BT_API bt_status bt_sequence_grundy(mpz_t rop, const bt_sequence *s, const mpz_t n,
                             bt_diag *diag);

/* The method in use for the latest values: "plain", "rare" (the sparse
   space in the values), "rare-domain" (Flammenkamp's sparse space in the
   domain: the class also flips with the parity of n) or "window" (a
   subtraction game with a large set).  See docs/grundy.md. */
BT_API const char *bt_sequence_method_name(const bt_sequence *s);
/* The rare-value mask in use (a value v is rare when v AND mask has an even
   number of one bits; in the domain type, the parity of n counts too), or
   0 with another method. */
BT_API unsigned bt_sequence_rare_mask(const bt_sequence *s);
/* How many positions n >= 1 have a rare value under the current mask (0
   with the plain method). */
BT_API size_t bt_sequence_rare_count(const bt_sequence *s);
/* The last of those positions (0 when there is none). */
BT_API size_t bt_sequence_rare_last(const bt_sequence *s);

#ifdef __cplusplus
}
#endif
#endif
