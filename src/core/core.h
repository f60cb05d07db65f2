/*
 * core/core.h -- the core of the library, which every file of src/
 * includes; not part of the public API.  The game-graph kernel (the key,
 * the table and the walk of the searches) has its own header,
 * core/graph.h.  What
 * the layers above share among themselves is in their own headers:
 * engines/engines.h (the misère search of the game graph, moves, the
 * misère quotient's hook, the CPUs) and analysis/analysis.h
 * (remoteness); docs/architecture.md draws the layers, and tests/layers.sh
 * checks that calls only go down.
 *
 * The heart of it is bt__ruleset: the small interface behind which a game
 * family plugs in.  A new game family is one new file defining a
 * `const bt__ruleset bt__ruleset_NAME` plus its declaration and one line
 * in the registry of game.c; nothing else in the tree changes.
 */
#ifndef BOUTON_SRC_CORE_H
#define BOUTON_SRC_CORE_H

#include <stdarg.h>
#include <stdint.h>

#include "bouton.h"

/* Helpers shared inside the library start with bt__; the rest is static. */

/* ------------------------------------------------------------ diagnostics */

/* Fills diag (if not NULL) with a printf-style message; returns st. */
bt_status bt__fail(bt_diag *diag, bt_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* As bt__fail, and records the byte offset of the fault. */
bt_status bt__fail_at(bt_diag *diag, bt_status st, size_t offset,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* The limits to use: lim, or the defaults when lim is NULL. */
const bt_limits *bt__limits(const bt_limits *lim);
/* Polls lim->interrupt; BT_EINTR when it asks to stop, or when the
   numbers of the thread's computation have grown past max_memory (its
   entry point then reports BT_ELIMIT: bt__gmp_enter below). */
bt_status bt__poll(const bt_limits *lim);

/* Counts a step of a loop over numbers in units of work, one and one more
   per 16 limbs of x; non-zero when a poll is due (every 4096 units).  A
   loop over small piles polls every 4096 of them, one over piles of
   20 000 digits every 63, so that the time and the numbers it makes
   (copies, moves) are checked in proportion to their size. */
static inline int
bt__tick(unsigned long *work, const mpz_t x)
{
    *work += 1 + (unsigned long)(mpz_size(x) / 16);
    if (*work < 4096)
        return 0;
    *work = 0;
    return 1;
}

/* --------------------------------------------------------- memory budget */

/*
 * The memory half of the resource model (the time half is bt__poll).  A
 * computation that can grow (a search's memo table and stack, a Grundy
 * table, a sequence) owns one bt__budget, initialised from
 * lim->max_memory, and charges the bytes it holds as it takes them:
 *
 *     bt__budget b;
 *     bt__budget_init(&b, lim);
 *     if ((st = bt__budget_charge(&b, bytes, diag)) != BT_OK)
 *         goto cleanup;             (BT_ELIMIT, message written)
 *     ...
 *     bt__budget_release(&b, bytes); (when it frees them)
 *
 * The count is an estimate of what is held, in bytes: what the code asked
 * malloc for (bt__mpz_bytes, bt__moves_bytes help), not malloc's overhead.
 * Past max_memory the charge fails with BT_ELIMIT and the message
 * "... more than N bytes of memory (the max_memory limit)"; the caller frees
 * everything and returns it.  max_memory 0: no limit, nothing fails.
 *
 * GMP cannot report a failed allocation to its caller.  With the allocators
 * of bt_gmp_install_allocators() installed, every GMP allocation of the
 * calling thread between bt__budget_enter(b) and bt__budget_leave() is
 * charged to b as well; past max_memory it sets b->exceeded (it cannot fail
 * there), which bt__budget_check() turns into BT_ELIMIT at the next poll.
 * When malloc fails under GMP, the on_failure of
 * bt_gmp_install_allocators() may unwind the computation (the server's
 * does), so the thread's current budget is cleared before it is called.
 * Budgets nest: enter returns the one that was current;
 * pass it to leave.
 */
typedef struct bt__budget {
    size_t max;     /* bytes; 0: no limit */
    size_t used;    /* bytes charged now */
    size_t peak;    /* the most charged at once */
    int exceeded;   /* set by a charge past max (including GMP's) */
} bt__budget;

void bt__budget_init(bt__budget *b, const bt_limits *lim);
/* Charges `bytes`; BT_ELIMIT with a message when used would pass max. */
bt_status bt__budget_charge(bt__budget *b, size_t bytes, bt_diag *diag);
/* Gives back `bytes` charged earlier. */
void bt__budget_release(bt__budget *b, size_t bytes);
/* BT_ELIMIT (with the message) once the budget was exceeded, also by GMP;
   else bt__poll(lim): the one call a long loop makes for both halves. */
bt_status bt__budget_check(bt__budget *b, const bt_limits *lim,
                           bt_diag *diag);
/* Makes b the current budget of this thread for GMP's allocations;
   returns the previous one (NULL: none). */
bt__budget *bt__budget_enter(bt__budget *b);
void bt__budget_leave(bt__budget *prev);

/*
 * GMP's half of a public entry point's memory.  Every BT_API function that
 * takes a bt_limits and polls it runs inside one scope:
 *
 *     bt_status
 *     bt_thing(..., const bt_limits *lim, bt_diag *diag)
 *     {
 *         BT__GMP_CHARGED(lim, diag, thing(..., lim, diag));
 *     }
 *
 * The scope's budget (max: lim->max_memory) becomes the thread's current
 * one, so that every number the computation allocates, temporaries
 * included, is charged to it as GMP asks for its limbs.  It is a budget of
 * its own, apart from the structural one the engine charges explicitly
 * (whose charges count the numbers a memo or a move list stores): no byte
 * is counted twice in one budget, and a computation holds at most about
 * twice max_memory, each half within it.  Past max_memory the next poll
 * (bt__poll, hence bt__budget_check) stops the computation with BT_EINTR,
 * which bt__gmp_leave turns into BT_ELIMIT with the max_memory message; a
 * computation that finished in spite of it keeps its answer (its outputs
 * are the caller's).  An entry point called inside another (analyze
 * inside the opponent) keeps the outer scope: the whole call is one
 * computation.  On GMP's out-of-memory path the thread's budget is
 * cleared before on_failure (which may unwind past the scope).
 *
 * The closed forms, which never poll (bt_wythoff_pair and its siblings,
 * bt_table_new), run in a scope of their own kind,
 * BT__GMP_CHARGED_CLOSED: their work is a constant number of operations
 * on numbers of the inputs' size, so the time and memory of one call are
 * bounded by max_digits (checked on every number they take), and the
 * scope adds the budget's two halves that a poll would: an interrupt
 * already set stops the call before it starts (BT_EINTR), and numbers
 * past max_memory fail it after the fact (BT_ELIMIT, with the max_memory
 * message, whatever it returned; its outputs are then unspecified).
 * Inside another scope they are part of that computation (its next poll
 * sees the excess).  bt_table_new takes the memory half only: the
 * interrupt is its bt_table_next's to poll.  Not in a scope: the nimber
 * functions, whose one
 * budget charges their work space and GMP together and is polled
 * (nimber.c), and the functions without a bt_limits, each linear in its
 * inputs (bt_nim_sum, bt_position_add_n, which copies its numbers, each
 * checked against max_digits, bt_position_copy, bt_position_format,
 * bt_sequence_grundy and bt_quotient_heap_at on a heap of any size,
 * bt_rng_mpz_below) or bounded by a fixed size (bt_nimber_order and
 * bt_nimber_log below 2^64, bt_nimber_mul_explain below 2^8).
 */
typedef struct bt__gmp_scope {
    bt__budget budget;
    bt__budget *prev;
    int own; /* this scope's budget is the current one */
} bt__gmp_scope;

void bt__gmp_enter(bt__gmp_scope *s, const bt_limits *lim);
/* Non-zero when the thread's current budget is exceeded: a computation
   that stopped for it must fail, not carry on without a part. */
int bt__gmp_exceeded(void);
/* Leaves the scope; returns st, or BT_ELIMIT with the max_memory message
   when st stopped the computation after its numbers passed max_memory. */
bt_status bt__gmp_leave(bt__gmp_scope *s, bt_status st, bt_diag *diag);
#define BT__GMP_CHARGED(lim, diag, call)                                   \
    do {                                                                   \
        bt__gmp_scope bt__gs;                                              \
        bt__gmp_enter(&bt__gs, (lim));                                     \
        return bt__gmp_leave(&bt__gs, (call), (diag));                     \
    } while (0)
/* bt__gmp_enter for a closed form: outside any scope, BT_EINTR (and no
   scope entered) when lim's interrupt is already set. */
bt_status bt__gmp_enter_closed(bt__gmp_scope *s, const bt_limits *lim,
                               bt_diag *diag);
/* bt__gmp_leave for a closed form: st, or BT_ELIMIT with the max_memory
   message when its numbers passed max_memory, whatever st is (BT_OK
   included).  Inside another scope: st. */
bt_status bt__gmp_leave_closed(bt__gmp_scope *s, bt_status st,
                               bt_diag *diag);
#define BT__GMP_CHARGED_CLOSED(lim, diag, call)                            \
    do {                                                                   \
        bt__gmp_scope bt__gs;                                              \
        bt_status bt__st = bt__gmp_enter_closed(&bt__gs, (lim), (diag));   \
        if (bt__st != BT_OK)                                               \
            return bt__st;                                                 \
        return bt__gmp_leave_closed(&bt__gs, (call), (diag));              \
    } while (0)

/* The bytes held by x (its struct and limbs) and by n moves. */
size_t bt__mpz_bytes(const mpz_t x);
size_t bt__moves_bytes(const bt_move *m, size_t n);
/* Grows the array *v of *cap initialised numbers to hold `need` (doubling,
   from 16), the new slots charged to b (their structs and a few limbs
   each) and initialised; BT_ELIMIT or BT_ENOMEM with a message, *v and
   *cap unchanged.  The caller clears the *cap numbers and frees *v. */
bt_status bt__mpz_reserve(mpz_t **v, size_t *cap, size_t need, bt__budget *b,
                          bt_diag *diag);

/* ------------------------------------------------------- growable buffers */

/* A growable text buffer.  On allocation failure it sets `failed` and
   ignores further appends; check it once at the end. */
typedef struct bt__buf {
    char *data;
    size_t len, cap;
    int failed;
} bt__buf;

void bt__buf_init(bt__buf *b);
void bt__buf_free(bt__buf *b);
void bt__buf_puts(bt__buf *b, const char *s);
void bt__buf_putc(bt__buf *b, char c);
void bt__buf_printf(bt__buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* bt__buf_printf with a va_list (ap is left to the caller's va_end). */
void bt__buf_vprintf(bt__buf *b, const char *fmt, va_list ap);
/* Appends the decimal digits of x. */
void bt__buf_mpz(bt__buf *b, const mpz_t x);
/* Appends x in binary, right-aligned in a field of `width` characters. */
void bt__buf_mpz_bin(bt__buf *b, const mpz_t x, size_t width);
/* Detaches the text (NUL-terminated, caller frees); NULL if it failed. */
char *bt__buf_take(bt__buf *b);

/* -------------------------------------------------------------- rulesets */

typedef struct bt__ruleset bt__ruleset;

/*
 * What an analysis found, as analyze.c hands it down to a family's
 * explain hook: borrowed, valid during the call.
 */
typedef struct bt__verdict {
    bt_outcome outcome;
    int misere;
    /* normal play: the nim-sum of the components' values and each one's
       value (comp_grundy[i], i < the position's size); NULL when the
       analysis has none (misère play, one value out of reach) */
    mpz_srcptr grundy;
    const mpz_t *comp_grundy;
    const bt_move *moves; /* the winning moves, with their texts */
    size_t nmoves;
    int moves_complete; /* 0: a limit left some out */
} bt__verdict;

/* The public bt_game: a ruleset and its parameters. */
struct bt_game {
    const bt__ruleset *rules;
    char *spec;         /* canonical text, e.g. "wythoff:2" */
    void *state;        /* the ruleset's parameters and caches */
    unsigned refs;
};

/*
 * Receives one option (a position reachable in one move) of a component:
 * the nto numbers that replace it (a multiple of the game's arity; nto may
 * be 0).  The receiver copies what it keeps.  A non-zero status stops the
 * enumeration and is returned by the enumerator.
 */
typedef bt_status (*bt__emit)(void *ud, const mpz_t *to, size_t nto);

struct bt__ruleset {
    const bt_family_info info;
    unsigned arity; /* numbers per component; 0: any number (>= 1) of
                       numbers make one component (variable arity) */

    /*
     * Parses the parameters: `name` is the text before ':' (the family name
     * or an alias such as "kayles"), `params` the text after it or NULL.
     * Sets g->state and g->spec (malloc'd canonical text).  Returns
     * BT_EPARSE with a message on bad parameters.
     */
    bt_status (*init)(bt_game *g, const char *name, const char *params,
                      bt_diag *diag);
    void (*fini)(bt_game *g);

    /*
     * Checks a component's numbers beyond the generic checks (which ensure
     * they are non-negative and within the digit limit).  May be NULL.
     */
    bt_status (*check)(bt_game *g, const mpz_t *c, const bt_limits *lim,
                       bt_diag *diag);

    /*
     * Sprague-Grundy value of one component in normal play.  BT_ERANGE when
     * the value is beyond what can be computed within lim (with a message).
     */
    bt_status (*grundy)(bt_game *g, mpz_t rop, const mpz_t *c,
                        const bt_limits *lim, bt_diag *diag);

    /*
     * Emits every option of component c, each once.  BT_ELIMIT when there
     * would be more than lim->max_search of them.
     */
    bt_status (*options)(bt_game *g, const mpz_t *c, bt__emit emit, void *ud,
                         const bt_limits *lim, bt_diag *diag);

    /*
     * Emits every option of component c whose Grundy value (for several
     * heaps, the nim-sum of theirs) is `target`, each once.  This is how the
     * winning moves of a sum are found (the Sprague-Grundy theorem).
     */
    bt_status (*moves_to)(bt_game *g, const mpz_t *c, const mpz_t target,
                          bt__emit emit, void *ud, const bt_limits *lim,
                          bt_diag *diag);

    /*
     * Optional: misère analysis of a whole position all of whose components
     * are of this game, when a theorem gives it (Bouton's sec. 6 for Nim,
     * the closed forms for one Wythoff pair).  Sets *outcome and emits every
     * winning move as (component, to, nto) through `move`.  Returns
     * BT_EUNDEF when the theorem does not cover the position, and the caller
     * falls back to exhaustive search.  BT_ELIMIT after a move was emitted
     * means that a limit stopped the list, not the analysis: the caller
     * answers N with the moves emitted, marked incomplete, and diag's
     * message (which names the limit) in the note.
     */
    bt_status (*misere)(bt_game *g, const bt_position *p, bt_outcome *outcome,
                        bt_status (*move)(void *ud, size_t comp,
                                          const mpz_t *to, size_t nto),
                        void *ud, const bt_limits *lim, bt_diag *diag);

    /*
     * Writes the text of a move of component `comp` (0-based) from c to
     * `to`, e.g. "take 2 from pile 1".
     */
    void (*describe)(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
                     const mpz_t *to, size_t nto);

    /*
     * Optional: the explanation of a position all of whose components are of
     * this game (binary columns for Nim, the pair table for Wythoff), from
     * what its analysis found (v, complete when this is called: the hook
     * is handed the values, it never reads the analysis above it).  NULL:
     * the generic explanation of a sum (components' values and their
     * nim-sum).
     */
    void (*explain)(bt_game *g, bt__buf *out, const bt_position *p,
                    const struct bt__verdict *v);

    /*
     * Optional, for games of arity 2 with a closed form: the n-th (from 0)
     * P-position (x <= y) of one component, in increasing order of x, into
     * row[0..1].  Tables of such games use it.
     */
    bt_status (*p_position)(bt_game *g, int misere, const mpz_t n,
                            mpz_t *row);

    /*
     * Optional: writes the rules of g in one line of plain words, worded
     * from its parameters (bt_game_rules).  NULL: the family's summary.
     */
    void (*rules)(const bt_game *g, bt__buf *out);

    /*
     * Optional: counts the positions of k piles (one component of k
     * numbers for a game of variable arity; k components of one number
     * for a heap game), each pile in [min, max], into `positions`, and the
     * P-positions among them into `p_positions` (bt_game_count, which has
     * checked the bounds; flags as bt_nim_count's).  BT_EUNDEF when the
     * family cannot count what flags ask.  fn(ud, fraction), when not
     * NULL, is called with the share of the work done, where the family
     * can tell it (bt_game_count_progress).
     */
    bt_status (*count)(bt_game *g, mpz_t positions, mpz_t p_positions,
                       size_t k, const mpz_t min, const mpz_t max,
                       unsigned flags, const bt_limits *lim, bt_diag *diag,
                       bt_count_progress fn, void *ud);

    /*
     * Optional: whether `to` (nto numbers, the components a move leaves)
     * is an option of component c (n numbers), decided from the rules
     * without listing the options (a record's moves of a huge pile): 1
     * yes, 0 no, -1 when the rules cannot tell this way.  NULL: the
     * options are listed, or past a bound the moves to the value of `to`
     * (record.c).  For any arity (n is the component's count).
     */
    int (*is_option)(bt_game *g, const mpz_t *c, size_t n, const mpz_t *to,
                     size_t nto);

    /*
     * What the family's components are, for the engines whose theory
     * needs it (BT__RS_* below, or'ed; 0: none).  The engines ask these
     * and never which family they are looking at, so a new family with
     * the same structure gets the same engines.
     */
    unsigned flags;

    /*
     * Optional: the heap game of g for the Grundy-sequence engine
     * (engines/heapgame.h): the rules of its moves on one heap and the
     * cached sequence; it lives as long as g.  Its moves are those of the
     * rules (arity 1, and the flags include BT__RS_HEAPS).  A family that
     * has it (sub, octal, grundy, tb, through heapgame.c's hooks) gets
     * Grundy sequences, their periods and proofs, the misère analysis by
     * the quotient of its heaps (with unions of such families) and the
     * opponent's move window over its rules for huge heaps.  NULL: none
     * of these.
     */
    struct bt__heap_game *(*heap)(const bt_game *g);
};

/*
 * A component is one heap (arity 1), and every option of a heap of n is a
 * sum of heaps each below n.  The misère quotient of the game is then
 * learnt heap by heap (bt_quotient_new, quotient.c); without it the
 * quotient is refused.
 */
#define BT__RS_HEAPS 1u
/*
 * A component is a Nim heap: one number n, whose options are exactly the
 * heaps 0, 1, ..., n - 1 and whose Grundy value is n (implies
 * BT__RS_HEAPS).  A position of such heaps takes Nim's closed forms: its
 * remoteness (remoteness.c), the opponent's exact rule and its moves
 * numbered for a random draw (opponent.c), tables whose last pile is the
 * nim-sum of the others with no Grundy value to compute (table.c).
 */
#define BT__RS_NIM_HEAPS 2u

/* Non-zero when every component of p is of a family with all the flags
   `flags` (position.c); 1 for the empty position. */
int bt__position_is_all(const bt_position *p, unsigned flags);
/* Appends a component of g with a copy of nums[0..n-1], unchecked: for
   the positions a search makes from checked ones (remoteness.c); BT_ENOMEM
   (no message) when out of memory. */
bt_status bt__position_push(bt_position *p, bt_game *g, const mpz_t *nums,
                            size_t n);
/* The bytes p holds (its struct, components and numbers), as the memory
   budget counts them (bt__mpz_bytes). */
size_t bt__position_bytes(const bt_position *p);
/* Appends a move (copying `to`) to a growable array of moves (position.c);
   BT_ENOMEM. */
bt_status bt__move_push(bt_move **moves, size_t *n, size_t *cap, size_t comp,
                        const mpz_t *to, size_t nto);

/*
 * A game of variable arity (arity 0: a component is any number n >= 1 of
 * numbers) is a bt__varset: its base ruleset (arity 0, with init, fini,
 * misere, explain as usual; check, grundy, options, moves_to, describe
 * NULL) followed by these, the same contracts with the component's count
 * n.  Its options keep one component (nto numbers, nto >= 1).  The
 * registry lists &bt__varset_NAME.base.
 */
typedef struct bt__varset {
    bt__ruleset base;
    bt_status (*check_n)(bt_game *g, const mpz_t *c, size_t n,
                         const bt_limits *lim, bt_diag *diag);
    bt_status (*grundy_n)(bt_game *g, mpz_t rop, const mpz_t *c, size_t n,
                          const bt_limits *lim, bt_diag *diag);
    bt_status (*options_n)(bt_game *g, const mpz_t *c, size_t n,
                           bt__emit emit, void *ud, const bt_limits *lim,
                           bt_diag *diag);
    bt_status (*moves_to_n)(bt_game *g, const mpz_t *c, size_t n,
                            const mpz_t target, bt__emit emit, void *ud,
                            const bt_limits *lim, bt_diag *diag);
    void (*describe_n)(bt_game *g, bt__buf *out, size_t comp,
                       const mpz_t *c, size_t n, const mpz_t *to,
                       size_t nto);
    /*
     * Optional, for tables (table.c): the one number that completes the
     * piles x[0..n-1] into a P-position of one component of n + 1 piles
     * (in misère play when `misere`): sets `last` and returns 1, or
     * returns 0 when no number does.
     */
    int (*p_last_n)(bt_game *g, int misere, const mpz_t *x, size_t n,
                    mpz_t last);
    /* Numbers that make one item of the component (2: the coin (x,y) of a
       board), written with a comma between them ("corners 3,5 6,2", a
       comma being a blank of the position language); 0 or 1: each
       number alone. */
    unsigned group;
    /* Optional, for coin games (bt_game_board: a row, or a grid when
       group is 2): the number of the first coin along axis 0 (x) or 1
       (y), bt_game_board_first.  NULL: piles. */
    unsigned long (*first_coin)(const bt_game *g, unsigned axis);
} bt__varset;

/* The variable-arity hooks of g (arity 0). */
#define BT__VARSET(g) ((const bt__varset *)(const void *)(g)->rules)

/*
 * The hooks as every caller uses them (generic.c): c is a component of n
 * numbers (n = arity for a game of fixed arity).  A ruleset whose grundy
 * (grundy_n) is NULL gets the generic memoised mex over its options, and
 * one whose moves_to (moves_to_n) is NULL gets its options filtered by
 * value: a new game with no theory is correct at once, within lim
 * (max_search positions, max_memory, interrupt; BT_ELIMIT past them).
 */
bt_status bt__rs_check(bt_game *g, const mpz_t *c, size_t n,
                       const bt_limits *lim, bt_diag *diag);
bt_status bt__rs_grundy(bt_game *g, mpz_t rop, const mpz_t *c, size_t n,
                        const bt_limits *lim, bt_diag *diag);
bt_status bt__rs_options(bt_game *g, const mpz_t *c, size_t n, bt__emit emit,
                         void *ud, const bt_limits *lim, bt_diag *diag);
bt_status bt__rs_moves_to(bt_game *g, const mpz_t *c, size_t n,
                          const mpz_t target, bt__emit emit, void *ud,
                          const bt_limits *lim, bt_diag *diag);
void bt__rs_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
                     size_t n, const mpz_t *to, size_t nto);
/* The generic Sprague-Grundy value: the mex of the values of the options
   (each option's value the nim-sum of its components'), memoised, within
   lim; BT_ELIMIT with a message past max_search positions or
   max_memory. */
bt_status bt__generic_grundy(bt_game *g, mpz_t rop, const mpz_t *c, size_t n,
                             const bt_limits *lim, bt_diag *diag);
/* The generic moves to a value: the options of c whose value (the nim-sum
   of their components' bt__rs_grundy) is target. */
bt_status bt__generic_moves_to(bt_game *g, const mpz_t *c, size_t n,
                               const mpz_t target, bt__emit emit, void *ud,
                               const bt_limits *lim, bt_diag *diag);

/* The numbers per component among the nto numbers of a move of g: its
   arity, or all of them (at least 1) for a game of variable arity (whose
   arity is 0: one component of any number of numbers). */
static inline size_t
bt__comp_width(const bt_game *g, size_t nto)
{
    return g->rules->arity ? g->rules->arity : (nto ? nto : 1);
}

/* ------------------------------------------------------------ nimbers */

/* The 64-bit nim-product by one named method (nimber.c), for the tests
   and bench/bench_nimber.c to compare: 0 the tables of the field of order
   256, 1 carry-less multiplication (0 when the processor lacks it), 2 the
   plain tower recursion down to single bits. */
uint64_t bt__nimber_mul_u64_by(int which, uint64_t a, uint64_t b);
/* 1 when bt_nimber_mul_u64 uses carry-less multiplication here. */
int bt__nimber_has_clmul(void);

/* Makes g->spec a malloc'd copy of the formatted text; BT_ENOMEM on
   failure. */
bt_status bt__game_set_spec(bt_game *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Generic check of a user's number: non-negative, within max_digits.
   `what` names it in the message ("pile 3"). */
bt_status bt__check_number(const mpz_t x, const bt_limits *lim,
                           const char *what, bt_diag *diag);

/* Checks the arguments of a count of k piles in min..max (bt_game_count,
   bt_nim_count): both numbers, min <= max, k within max_table_piles. */
bt_status bt__check_count(size_t k, const mpz_t min, const mpz_t max,
                          const bt_limits *lim, bt_diag *diag);
/* The BT_ELIMIT of k piles past max_table_piles. */
bt_status bt__count_piles_fail(size_t k, const bt_limits *lim, bt_diag *diag);

/* Parses a decimal number of at most lim->max_digits digits from
   s[0..len-1] (digits only). */
bt_status bt__parse_number(mpz_t rop, const char *s, size_t len,
                           const bt_limits *lim, bt_diag *diag);

#endif
