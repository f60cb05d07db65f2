/*
 * bouton/misere.h -- misère quotients of heap games (Plambeck 2005;
 * Plambeck and Siegel 2008); part of the public contract, include
 * <bouton.h>.
 *
 * Two sums of heaps G, H are misère-indistinguishable modulo a set A of
 * heaps when G + X and H + X have the same misère outcome for every sum X
 * of heaps of A.  The classes form a commutative monoid Q, the misère
 * quotient, with its P-portion P (the classes of misère P-positions): a
 * sum is a misère P-position exactly when the product of its heaps'
 * elements lies in P.  bt_quotient computes Q for the heaps of sizes 0..n
 * of one heap game (Nim, sub:S, octal codes, Grundy's game), heap by heap,
 * and checks the result exactly (see docs/misere.md): what it returns is
 * the quotient of every sum of such heaps, never an approximation.
 *
 * Elements are numbered 0..order-1; 0 is the identity (the empty sum).
 * A quotient is "computed to n", for heaps of at most n counters, unless
 * the periodicity theorem for misère quotients of octal games applies
 * (docs/misere.md): then it is PROVED to be the quotient of all heaps,
 * with the element of heap h + period equal to that of heap h for every
 * h >= preperiod (bt_quotient_period).
 */
#ifndef BOUTON_MISERE_H
#define BOUTON_MISERE_H

#include <bouton/core.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bt_quotient bt_quotient;

/*
 * Computes the misère quotient of the heaps of at most n counters of the
 * heap game g.  Bounded by lim: max_search caps the positions stored by
 * the searches and the checking automaton, max_table_piles caps the order
 * (BT_ELIMIT past either, with a message), and interrupt stops it
 * (BT_EINTR).  BT_EINVAL when g is not a heap game.  The quotient keeps a
 * reference to g.
 */
BT_API bt_status bt_quotient_new(bt_quotient **out, bt_game *g, size_t n,
                          const bt_limits *lim, bt_diag *diag);
/*
 * Computes the quotient heap by heap, up to max_n heaps at most, and stops
 * at the first bound where the periodicity theorem proves it the quotient
 * of all heaps (octal codes with a finite code, sub:S).  BT_ELIMIT when it
 * is not proved by max_n, with a message; at once, computing nothing,
 * when no theorem applies to g (Nim, Grundy's game); otherwise as
 * bt_quotient_new.
 */
BT_API bt_status bt_quotient_new_until_proved(bt_quotient **out, bt_game *g,
                                              size_t max_n,
                                              const bt_limits *lim,
                                              bt_diag *diag);
BT_API void bt_quotient_free(bt_quotient *q);

/* The game and the bound n it was computed for. */
BT_API bt_game *bt_quotient_game(const bt_quotient *q);
BT_API size_t bt_quotient_upto(const bt_quotient *q);
/* |Q| and |P|. */
BT_API size_t bt_quotient_order(const bt_quotient *q);
BT_API size_t bt_quotient_p_count(const bt_quotient *q);
/* Non-zero when element x is in the P-portion. */
BT_API int bt_quotient_is_p(const bt_quotient *q, size_t x);
/* The product x * y of two elements (x, y < order); SIZE_MAX when x or y
   is not an element. */
BT_API size_t bt_quotient_mul(const bt_quotient *q, size_t x, size_t y);
/* The element of one heap of h counters, h <= upto. */
BT_API size_t bt_quotient_heap(const bt_quotient *q, size_t h);
/*
 * Non-zero when the quotient is proved to be that of all heaps, with the
 * least period and preperiod of the heap -> element map.
 */
BT_API int bt_quotient_period(const bt_quotient *q, size_t *period,
                              size_t *preperiod);
/* The element of a heap of any size h: through the period beyond upto
   when proved; SIZE_MAX when h > upto and the quotient is not proved. */
BT_API size_t bt_quotient_heap_at(const bt_quotient *q, const mpz_t h);
/*
 * Non-zero when Q is tame: isomorphic, with its P-portion, to the misère
 * quotient of Nim heaps (of order 2, or 2^k + 2 for heaps below 2^k),
 * as Bouton's sec. 6 gives it.
 */
BT_API int bt_quotient_is_tame(const bt_quotient *q);

/*
 * The presentation, as the papers write it: generators a, b, c, ... (each
 * the first heap whose element the smaller heaps do not generate), and
 * relations "b^3 = b" that, with commutativity, define Q.  Strings are
 * owned by q.
 */
BT_API size_t bt_quotient_generator_count(const bt_quotient *q);
BT_API const char *bt_quotient_generator_name(const bt_quotient *q, size_t i);
/* The heap size of generator i (of game bt_quotient_generator_game for
   a union of games). */
BT_API size_t bt_quotient_generator_heap(const bt_quotient *q, size_t i);
BT_API size_t bt_quotient_generator_game(const bt_quotient *q, size_t i);
BT_API size_t bt_quotient_relation_count(const bt_quotient *q);
BT_API const char *bt_quotient_relation(const bt_quotient *q, size_t i);
/* Element x as its normal word in the generators ("1", "a", "ab^2"). */
BT_API const char *bt_quotient_word(const bt_quotient *q, size_t x);

/*
 * The element of a position all of whose components are heaps of q's game
 * of at most upto counters (any size when proved periodic).  BT_ERANGE
 * when a heap is larger than upto and the quotient is not proved, BT_EINVAL
 * when a component is of another game.
 */
BT_API bt_status bt_quotient_element(size_t *x, const bt_quotient *q,
                              const bt_position *p, bt_diag *diag);

/*
 * The misère quotient of the UNION of the heaps of at most n counters of
 * ng heap games (2 to 4, each named once): the quotient that the misère
 * analysis uses for a sum that mixes them (docs/misere.md), whose letters
 * are the heaps 1..n of every game.  The games are taken in the order of
 * their canonical texts (bt_quotient_game_at); ng = 1 is bt_quotient_new.
 * Bounds and failures as bt_quotient_new; no periodicity is claimed.
 * bt_quotient_game() is the first game; bt_quotient_upto() is n; the
 * element of a heap is bt_quotient_heap_of() (bt_quotient_heap and
 * bt_quotient_heap_at are for one game's quotient).
 */
BT_API bt_status bt_quotient_new_sum(bt_quotient **out,
                                     bt_game *const *games, size_t ng,
                                     size_t n, const bt_limits *lim,
                                     bt_diag *diag);
/* The number of games (1 but for bt_quotient_new_sum), game i (owned by
   q), and the element of a heap of h <= upto counters of game i. */
BT_API size_t bt_quotient_game_count(const bt_quotient *q);
BT_API bt_game *bt_quotient_game_at(const bt_quotient *q, size_t i);
BT_API size_t bt_quotient_heap_of(const bt_quotient *q, size_t i, size_t h);

/*
 * Saving and loading a quotient, so that one proved once (Kayles' takes
 * 40 s and 1.5 GB) serves later analyses at once.
 *
 * bt_quotient_save() writes q as a text (docs/misere.md, "Saving a
 * quotient"): the game's canonical rules, the bound, the order, the
 * period and preperiod when proved, the P-portion, the element of each
 * heap and the multiplication table.  *out is malloc'd (the caller frees
 * it with free()); BT_EINVAL for a quotient of several games.
 */
BT_API bt_status bt_quotient_save(char **out, const bt_quotient *q,
                                  bt_diag *diag);
/*
 * Reads a text written by bt_quotient_save() (len bytes, NUL not needed)
 * and never trusts it: the quotient is checked exactly as bt_quotient_new
 * checks what it computes (the exact check of docs/misere.md over every
 * sum of heaps up to the bound, from the game's rules), its table must be
 * a commutative monoid with identity 0 generated by the heaps, its
 * elements must be told apart by P (the quotient is the coarsest), and
 * the period it claims must be the one the periodicity theorem proves from
 * its heaps (or none).  A text that claims a period is checked exactly
 * only up to the bound at which the theorem proves that period, and its
 * heaps beyond must repeat it: the work is that of the proof, whatever
 * bound the text states.  The presentation is computed again.
 *   BT_EPARSE  not such a text (malformed, truncated), diag names the line
 *   BT_EINVAL  well formed, but not the misère quotient of its game
 *   BT_ELIMIT  past lim: max_text bytes, max_table_piles elements, a bound
 *              past max_grundy, more than max_search states in the check,
 *              tables of the check past max_memory
 *   BT_EINTR   lim's interrupt (polled heap by heap in the check)
 * On success *out is a quotient as bt_quotient_new() returns it, with a
 * reference to its own game; else *out is NULL.
 */
BT_API bt_status bt_quotient_load(bt_quotient **out, const char *text,
                                  size_t len, const bt_limits *lim,
                                  bt_diag *diag);
/*
 * Lends q to the misère analysis of this process (bt_analyze with
 * BT_MISERE, the opponent): every later analysis of a sum of heaps of
 * q's game, of at most upto counters or of any size when q is proved
 * periodic, is answered through q.  Takes ownership of q in every case
 * (it lives until the process ends).  At most 16 quotients; BT_ELIMIT
 * past them, BT_EINVAL for a quotient of several games.  Thread-safe;
 * install before the analyses start.
 */
BT_API bt_status bt_quotient_install(bt_quotient *q, bt_diag *diag);
/*
 * The text, as bt_quotient_save() writes it, of the proved quotient of
 * g's heaps that the misère analyses of this process computed (a
 * quotient lent by bt_quotient_install is not one of them), so that a
 * caller can keep it for later processes; *out is malloc'd.  BT_EUNDEF
 * when no analysis has proved g's quotient (then *out is NULL).
 * Thread-safe.
 */
BT_API bt_status bt_quotient_save_proved(char **out, const bt_game *g,
                                         bt_diag *diag);

/*
 * What a misère analysis read from the misère quotient that answered it
 * (bt_analyze with BT_MISERE of a sum of heaps of heap games; docs/
 * misere.md, "Misère analysis through the quotient"): the quotient's
 * facts and the element of the position.  An element is written as its
 * word in Q's generators, as bt_quotient_word writes it ("1", "a",
 * "ab^2c"); the words are those of this Q, which is the quotient of the
 * heaps of at most upto counters (of every heap when proved): another
 * bound may name the elements otherwise.  Owned by the analysis.
 */
typedef struct bt_quotient_facts {
    const char *game;   /* Q's game, canonical; "G + H" for the quotient
                           of the union of several games' heaps */
    size_t upto;        /* Q was computed for the heaps of at most upto
                           counters */
    size_t order;       /* |Q| */
    size_t p_count;     /* |P|, the elements of misère P-positions */
    int proved;         /* proved the quotient of every heap */
    size_t period;      /* when proved: heap h + period is heap h ... */
    size_t preperiod;   /* ... for every h >= preperiod; else both 0 */
    int loaded;         /* read from a saved quotient (a file, the store)
                           and checked exactly */
    const char *element; /* the position's: the product of its heaps' */
    int in_p;           /* element lies in P: a misère P-position */
    const char *const *p; /* the p_count elements of P, in Q's order */
} bt_quotient_facts;

/* The facts, or NULL when no quotient answered: normal play, or another
   method did (Bouton's rule for Nim, a family's theorem, the search). */
BT_API const bt_quotient_facts *bt_analysis_quotient(const bt_analysis *a);
/*
 * The element of component i (a heap), and in *as_heap (when not NULL)
 * the heap of at most upto counters whose element it is: its own size, or
 * for a larger heap of a proved Q the heap it repeats through the period.
 * NULL without a quotient or when i is not a component.  Owned by a.
 */
BT_API const char *bt_analysis_heap_element(const bt_analysis *a, size_t i,
                                            size_t *as_heap);
/* The element of the position that winning move i (bt_analysis_move)
   leaves, which lies in P; NULL without a quotient or when i is not a
   move.  Owned by a. */
BT_API const char *bt_analysis_move_element(const bt_analysis *a, size_t i);

#ifdef __cplusplus
}
#endif
#endif
