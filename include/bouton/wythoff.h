/*
 * bouton/wythoff.h -- part of the public contract; include <bouton.h>.
 *
 * Wythoff's game and its generalisation (Wythoff 1907): two piles; a move
 * takes any positive number from one pile, or k > 0 from one pile and
 * l > 0 from the other with |k - l| < a.  The game "wythoff" is a = 1
 * (the same number from both piles); "wythoff:A" is difference a = A.
 *
 * The P-positions (safe pairs) are numbered from 0 in increasing order of
 * their smaller member:
 *   normal play:  (A_n, A_n + a n), A_n = floor(n alpha),
 *                 alpha = (2 - a + sqrt(a^2 + 4)) / 2, from (0, 0);
 *   misère, a = 1: (0, 1), (2, 2), then the normal pairs n >= 2;
 *   misère, a >= 2: (A_n, A_n + 1 + a n), A_n = floor(n alpha + 1/alpha),
 *                 from (0, 1).
 * Everything here is exact for numbers of any size (integer square roots
 * in GMP; never floating point).  The functions take the game (from
 * bt_game_new(&g, "wythoff:2", ...)) because it caches what they compute;
 * BT_EINVAL when it is not of the Wythoff family.  Numbers the caller
 * gives are checked against lim->max_digits (BT_ELIMIT).  The closed forms
 * (bt_wythoff_pair, _index_of, _is_p, _winning) do a fixed number of
 * operations on numbers of their inputs' size, so max_digits bounds their
 * time and memory; they do not poll, but they return BT_EINTR without
 * starting when lim's interrupt already says stop, and BT_ELIMIT when
 * their numbers passed lim->max_memory (their outputs then unspecified).
 */
#ifndef BOUTON_WYTHOFF_H
#define BOUTON_WYTHOFF_H

#include <bouton/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most winning moves one Wythoff pair can have. */
#define BT_WYTHOFF_MAX_WINNING 6

/* Which member of its pair a number is (a pair of equal members, (0, 0) or
   misère (2, 2), counts as LOWER). */
typedef enum { BT_WYTHOFF_LOWER = 0, BT_WYTHOFF_UPPER = 1 } bt_wythoff_member;

/* Sets a to the difference parameter of g (1 for "wythoff"). */
BT_API bt_status bt_wythoff_difference(mpz_t a, const bt_game *g);

/*
 * The n-th P-position (n from 0) of g in normal or misère play, with
 * lo <= hi.  lo and hi may alias each other but not n.
 */
BT_API bt_status bt_wythoff_pair(mpz_t lo, mpz_t hi, bt_game *g, int misere,
                          const mpz_t n, const bt_limits *lim, bt_diag *diag);

/*
 * The inverse: the index n of the one P-position that contains x, whether
 * x is its lower or upper member, and the pair (lo, hi).  member may be
 * NULL.  The outputs must be distinct variables, distinct from x.
 */
BT_API bt_status bt_wythoff_index_of(mpz_t n, bt_wythoff_member *member, mpz_t lo,
                              mpz_t hi, bt_game *g, int misere, const mpz_t x,
                              const bt_limits *lim, bt_diag *diag);

/* Sets *is_p to 1 when the pair (x, y) (in either order) is a P-position,
   else 0. */
BT_API bt_status bt_wythoff_is_p(int *is_p, bt_game *g, int misere, const mpz_t x,
                          const mpz_t y, const bt_limits *lim, bt_diag *diag);

/*
 * Every winning move of the pair (x, y): the P-positions reachable in one
 * move, written into to[i][0] (pile 1) and to[i][1] (pile 2) for i below
 * *count, in the order: shorten pile 1, shorten pile 2, take from both.
 * to[] holds BT_WYTHOFF_MAX_WINNING pairs initialised by the caller.
 * *count is 0 exactly when (x, y) is a P-position (or, misère, (0, 0)).
 */
BT_API bt_status bt_wythoff_winning(mpz_t (*to)[2], size_t *count, bt_game *g,
                             int misere, const mpz_t x, const mpz_t y,
                             const bt_limits *lim, bt_diag *diag);

/*
 * The Sprague-Grundy value G(x, y) in normal play.  Exact: 0 for a
 * P-position of any size; otherwise it is read from a table that g caches,
 * of side T (a power of two above max(x, y), at least 64) with
 * T * min(a, T) <= floor(sqrt(lim->max_grundy)) / 2 (4096 for a = 1 with
 * the default limits).  BT_ERANGE beyond that.
 */
BT_API bt_status bt_wythoff_grundy(mpz_t rop, bt_game *g, const mpz_t x, const mpz_t y,
                            const bt_limits *lim, bt_diag *diag);

/* ------------------------------------------------------ Grundy tables */

/*
 * A table of the Sprague-Grundy values G(x, y), x, y < below, of a game of
 * the Wythoff family in normal play, computed by the mex over row, column
 * and diagonal bitsets.  It keeps x <= y only (G is symmetric), 2 bytes a
 * value.  Limits: below <= lim->max_grundy, and below * min(a, below) <=
 * 16384 (a table of side 16384 takes about 400 MiB).
 */
typedef struct bt_wythoff_sg bt_wythoff_sg;

BT_API bt_status bt_wythoff_sg_new(bt_wythoff_sg **out, bt_game *g, size_t below,
                            const bt_limits *lim, bt_diag *diag);
BT_API void bt_wythoff_sg_free(bt_wythoff_sg *t);
/* The side of the table. */
BT_API size_t bt_wythoff_sg_below(const bt_wythoff_sg *t);
/* G(x, y) for x, y below the side (either order); UINT_MAX outside. */
BT_API unsigned bt_wythoff_sg_get(const bt_wythoff_sg *t, size_t x, size_t y);
/* The most bytes the table held while it was built (values and bitsets). */
BT_API size_t bt_wythoff_sg_peak_bytes(const bt_wythoff_sg *t);

#ifdef __cplusplus
}
#endif
#endif
