/*
 * bouton/nim.h -- Bouton's Nim: the nim-sum and the counting of positions.
 * Part of the public contract; include <bouton.h> rather than this file.
 *
 * Nim positions themselves are analysed through the generic API of core.h
 * (a position of game "nim"); what is here is specific to Nim.
 */
#ifndef BOUTON_NIM_H
#define BOUTON_NIM_H

#include <bouton/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * rop = the nim-sum of a and b: their binary digits added column by column
 * without carry (Bouton's column sums mod 2, i.e. XOR).  a and b must be
 * non-negative.  Aliasing is allowed: bt_nim_sum(a, a, b) works.
 */
BT_API void bt_nim_sum(mpz_t rop, const mpz_t a, const mpz_t b);

/* Flags of bt_nim_count(), besides BT_MISERE (core.h). */
enum {
    BT_COUNT_ORDERED = 1u << 8 /* count tuples, not multisets */
};

/*
 * Counts the Nim positions of k piles, every pile holding between min and
 * max counters (inclusive), and among them the P-positions (Bouton's safe
 * combinations: the previous player wins).
 *
 * By default a position is a multiset of pile sizes (the order of the
 * piles does not matter), as Bouton counts in his sec. 3: 3 non-empty
 * piles below 16 give 680 positions of which 35 are safe.  With
 * BT_COUNT_ORDERED a position is a k-tuple (the piles are told apart):
 * (max - min + 1)^k positions.  With BT_MISERE the P-positions are those of
 * misère play (Bouton's sec. 6: the nim-sum is 0 and some pile exceeds 1,
 * or every pile is 0 or 1 and an odd number of them are 1).  k = 0 counts
 * the one empty position, a P-position in normal play only.
 *
 * positions and p_positions (caller-initialised) receive the counts, and
 * probability, if not NULL, the fraction p_positions / positions in lowest
 * terms: the chance that a position drawn uniformly at random is a
 * P-position, i.e. that the second player wins.
 *
 * The counts are exact at any size and never enumerate: a sum over the
 * Walsh spectrum of [min, max] (at most about 2 log2(max) terms) and, for
 * multisets, the cycle index of the symmetric group; docs/counting.md
 * derives it.  64 piles below 2^1024 take milliseconds to a few tenths of
 * a second.  Fails with BT_EINVAL when min > max or a bound is negative;
 * BT_ELIMIT when k exceeds lim->max_table_piles, a bound has more than
 * lim->max_digits digits, the count would have more than lim->max_digits
 * digits, or the count would exceed the fixed work budget of the library
 * (about 3e9 word multiplications or 256 MiB, docs/counting.md); BT_EINTR
 * when lim->interrupt asks to stop.  On failure the outputs are unchanged.
 */
BT_API bt_status bt_nim_count(mpz_t positions, mpz_t p_positions, mpq_ptr probability,
                       size_t k, const mpz_t min, const mpz_t max,
                       unsigned flags, const bt_limits *lim, bt_diag *diag);

/*
 * bt_nim_count() with progress reports: fn(ud, fraction) is called from the
 * calling thread after each step of the count (a power, an evaluation of
 * the cycle polynomial, a step of its table), with the fraction of the
 * whole work done so far, 0 to 1, estimated by the count's cost model
 * (docs/counting.md: word multiplications, good to a factor of about two
 * per step, so an ETA drawn from it is approximate).  It reaches 1 when
 * the count ends; a count of k <= 2 piles has no steps and never calls fn.
 * fn may be NULL.
 */
typedef void (*bt_count_progress)(void *ud, double fraction);
BT_API bt_status bt_nim_count_progress(mpz_t positions, mpz_t p_positions,
                                mpq_ptr probability, size_t k,
                                const mpz_t min, const mpz_t max,
                                unsigned flags, const bt_limits *lim,
                                bt_diag *diag, bt_count_progress fn,
                                void *ud);

/*
 * bt_nim_count for game g, where its family counts exactly: Nim (as
 * above), and Moore's Nim (k piles of one component, tuples or multisets;
 * ELIMIT past its work limit, multisets of more than 40 piles included;
 * docs/moore.md).  BT_EUNDEF with a message for a
 * family that does not count; otherwise the contract of bt_nim_count.
 */
BT_API bt_status bt_game_count(mpz_t positions, mpz_t p_positions,
                               mpq_ptr probability, bt_game *g, size_t k,
                               const mpz_t min, const mpz_t max,
                               unsigned flags, const bt_limits *lim,
                               bt_diag *diag);
/* bt_game_count() with progress reports, as bt_nim_count_progress() gives
   them; a family that cannot report progress never calls fn. */
BT_API bt_status bt_game_count_progress(mpz_t positions, mpz_t p_positions,
                                        mpq_ptr probability, bt_game *g,
                                        size_t k, const mpz_t min,
                                        const mpz_t max, unsigned flags,
                                        const bt_limits *lim, bt_diag *diag,
                                        bt_count_progress fn, void *ud);

#ifdef __cplusplus
}
#endif
#endif
