/*
 * bouton/core.h -- statuses, limits, games, positions and their analysis.
 * Part of the public contract; include <bouton.h> rather than this file.
 */
#ifndef BOUTON_CORE_H
#define BOUTON_CORE_H

#include <stddef.h>
#include <stdio.h> /* before gmp.h, so GMP declares its FILE functions */
#include <gmp.h>

#include <bouton/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- version */

#define BT_VERSION_MAJOR 0
#define BT_VERSION_MINOR 4
#define BT_VERSION_PATCH 0
#define BT_VERSION_STRING "0.4.0"

/* Returns MAJOR*10000 + MINOR*100 + PATCH of the library linked in. */
BT_API int bt_version_number(void);
/* Returns the version of the library linked in, e.g. "0.4.0". */
BT_API const char *bt_version_string(void);

/* ----------------------------------------------------------------- status */

/*
 * The one list of statuses.  Append only: the numbers are part of the ABI
 * and the names ("EPARSE") are part of the JSON interface.
 */
#define BT_STATUS_MAP(X)                                                    \
    X(OK, "success")                                                        \
    X(EINVAL, "invalid argument")                                           \
    X(EPARSE, "malformed position or game")                                 \
    X(ELIMIT, "request exceeds a configured limit")                         \
    X(ENOMEM, "out of memory")                                              \
    X(ERANGE, "beyond what has been computed or proved")                    \
    X(EUNDEF, "not defined for this game or play convention")               \
    X(EINTR, "interrupted: the time budget ran out")

typedef enum {
#define BT__STATUS_ENUM(name, msg) BT_##name,
    BT_STATUS_MAP(BT__STATUS_ENUM)
#undef BT__STATUS_ENUM
        BT__STATUS_COUNT
} bt_status;

/* Returns the status's name without the prefix ("EPARSE"), or "EUNKNOWN". */
BT_API const char *bt_status_name(bt_status s);
/* Returns a short English description of the status. */
BT_API const char *bt_strerror(bt_status s);

/*
 * Optional diagnostics for a failed call: a one-line message that names the
 * input at fault and why, and, when the fault lies in a text the caller
 * gave (a position or a game), the 0-based byte offset in that text.
 */
typedef struct bt_diag {
    char message[256];
    size_t offset;  /* valid when has_offset is non-zero */
    int has_offset;
} bt_diag;

/* ----------------------------------------------------------------- limits */

/*
 * Explicit limits on every size a caller controls.  Fill one with
 * bt_limits_default() and change what you need; a NULL bt_limits * means the
 * defaults.  Exceeding one gives BT_ELIMIT with a message naming the limit.
 */
typedef struct bt_limits {
    size_t max_components; /* components (piles, heaps, pairs): 10 000 000 */
    size_t max_digits;     /* decimal digits in one number: 1 000 000 */
    size_t max_text;       /* bytes of a position or game text: 64 MiB */
    size_t max_search;     /* states of an exhaustive search: 250 000 */
    size_t max_grundy;     /* values of a computed Grundy sequence or the
                              side of a Grundy table: 1 << 26 */
    size_t max_table_piles; /* K of a table or count: 4096 */
    size_t max_memory;     /* bytes one computation may hold in its searches,
                              memo tables and sequences, and apart from
                              them in its numbers (GMP's allocations, with
                              bt_gmp_install_allocators): 1 GiB, or half
                              the address-space limit (RLIMIT_AS) when that
                              is smaller; 0 means no limit */
    /* Polled by long computations; a non-zero return stops them with
       BT_EINTR.  NULL: never interrupted. */
    int (*interrupt)(void *ud);
    void *interrupt_ud;
    /* Distinct games in one position text (bt_position_parse): 1 000.
       Terms of one game share it, however they name it ("kayles",
       "octal:0.77"), so a long sum of one game costs linear time; each
       distinct game holds its own caches (a Grundy sequence each), so
       their number is bounded, and their rules are charged to max_memory
       while parsing.  Added in 0.4.1, after the other fields. */
    size_t max_games;
} bt_limits;

/* Fills *lim with the defaults documented above. */
BT_API void bt_limits_default(bt_limits *lim);

/*
 * GMP aborts the process when an allocation fails.  This installs
 * allocation functions (mp_set_memory_functions) that instead call
 * on_failure(bytes, ud) and, if it returns, print one line on stderr and
 * exit(1); and that charge GMP's allocations to the memory budget of the
 * computation running on the calling thread (bt_limits.max_memory: every
 * function taking a bt_limits that computes counts the numbers it makes,
 * temporaries included), so that numbers that grow past it stop the
 * computation at its next poll with BT_ELIMIT.  Call it
 * once, before any other call of the library or of GMP; on_failure may be
 * NULL.  Programs should install it; a library user that has its own GMP
 * allocators need not.
 */
BT_API void bt_gmp_install_allocators(void (*on_failure)(size_t bytes, void *ud),
                               void *ud);

/* ------------------------------------------------------------------ games */

/*
 * A game: a ruleset family with its parameters, e.g. "nim", "wythoff:2",
 * "sub:1-3,7", "octal:0.77", "kayles".  A game may cache computed values
 * (an octal game's Grundy sequence), so it is not const in use; a game is
 * reference counted and bt_game_free() drops one reference.
 */
typedef struct bt_game bt_game;

/* Parses a game text.  On failure *out is NULL and diag names the fault. */
BT_API bt_status bt_game_new(bt_game **out, const char *spec, bt_diag *diag);
/* Adds a reference to g and returns it. */
BT_API bt_game *bt_game_ref(bt_game *g);
/* Drops one reference; the last frees the game.  Accepts NULL. */
BT_API void bt_game_free(bt_game *g);
/* The canonical text of the game ("wythoff:2", "octal:0.77"); owned by g. */
BT_API const char *bt_game_spec(const bt_game *g);
/* The family name ("nim", "wythoff", "sub", "octal", "grundy"). */
BT_API const char *bt_game_family(const bt_game *g);
/* How many numbers make one component: 1 for heap games, 2 for Wythoff;
   0 for a game of variable arity, whose component is any number (at least
   one) of numbers (Moore's Nim: all its piles). */
BT_API unsigned bt_game_arity(const bt_game *g);
/* Non-zero when g is plain Nim. */
BT_API int bt_game_is_nim(const bt_game *g);
/* The rules of g in one line of plain words, worded from its parameters
   where its family can ("Subtraction game: take 1, 2 or 3 counters from
   one heap."), else the family's summary.  malloc'd (caller frees); NULL
   when out of memory. */
BT_API char *bt_game_rules(const bt_game *g);

/* The families of games, for listings (GET /v1/games, --help). */
typedef struct bt_family_info {
    const char *name;    /* "wythoff" */
    const char *syntax;  /* "wythoff[:A]" */
    const char *summary; /* one sentence */
    const char *aliases; /* space-separated named games, or "" */
    const char *title;   /* its name in words: "Wythoff's game" */
    const char *example; /* a game of the family: "wythoff:2" */
} bt_family_info;
/* Returns the number of families; bt_family(i) for i below it. */
BT_API size_t bt_family_count(void);
BT_API const bt_family_info *bt_family(size_t i);
/* The numbers per component of family i's games: 1 or 2; 0 for a family
   of variable arity (a component of any number >= 1 of numbers). */
BT_API unsigned bt_family_arity(size_t i);
/* Every game's syntax and named game, comma-separated, in the registry's
   order ("nim, wythoff[:A], ..., moore:K"): for help texts and messages.
   malloc'd (caller frees); NULL when out of memory. */
BT_API char *bt_games_text(void);

/*
 * How a front end draws a game's component (appended: never reordered).
 * PILES: counters in piles (heap games, Wythoff, Moore's Nim); ROW: a row
 * of coins, the component the set of heads (coin-turning games); GRID: a
 * board of coins (x, y), the component its heads, two numbers each
 * (Turning Corners, Tartan products).
 */
typedef enum bt_board {
    BT_BOARD_PILES = 0,
    BT_BOARD_ROW = 1,
    BT_BOARD_GRID = 2
} bt_board;
/* The board of g's components, and of family i's games (BT_BOARD_PILES
   for i past the families). */
BT_API bt_board bt_game_board(const bt_game *g);
BT_API bt_board bt_family_board(size_t i);
/* The board's name as JSON shows it: "piles", "row" or "grid" (NULL for a
   value not in the list). */
BT_API const char *bt_board_name(bt_board b);
/* The number of the first coin along axis 0 (x, or the row) or 1 (y) of
   a coin game (BT_BOARD_ROW or GRID), as its family numbers them: 0 or 1
   (Turning Turtles and Ruler from 1, Mock Turtles and Twins from 0; a
   Tartan product G*H numbers x as G and y as H).  0 for a game of piles
   or an axis it does not have. */
BT_API unsigned long bt_game_board_first(const bt_game *g, unsigned axis);

/* -------------------------------------------------------------- positions */

/*
 * A position: a sum of components, each a position of one game.  A heap
 * game's component is one number; a Wythoff component is two.
 *
 * The position language (the same text in the CLI, the API and the page):
 *
 *     position := [ term { '+' term } ]
 *     term     := [ game ] { number }
 *     game     := name [ ':' params ]    e.g. nim, wythoff:2, sub:1-3,7
 *     number   := digit { digit }        decimal, any size
 *
 * Numbers are separated by blanks or commas.  A term without a game name
 * belongs to the default game given to the parser.  Each number of a heap
 * game's term is one component ("kayles 10 12" is two components); a
 * Wythoff term holds pairs ("wythoff 3 5" is one component); all the
 * numbers of a term of a game of variable arity are one component
 * ("moore:2 3 5 6" is one position of Moore's Nim of three piles).
 */
typedef struct bt_position bt_position;

/* Makes an empty position (no components). */
BT_API bt_status bt_position_new(bt_position **out);
BT_API void bt_position_free(bt_position *p);
/*
 * Parses text in the position language.  dflt is the game of terms that
 * name none (NULL: such a term is an error).  On a syntax error diag->offset
 * points at the offending byte.
 */
BT_API bt_status bt_position_parse(bt_position **out, const char *text,
                            bt_game *dflt, const bt_limits *lim,
                            bt_diag *diag);
/*
 * Appends one component of game g made of arity(g) numbers.  The position
 * takes a reference to g.  Checks the numbers (non-negative, within the
 * digit limit) and the component limit.
 */
BT_API bt_status bt_position_add(bt_position *p, bt_game *g, const mpz_t *nums,
                          const bt_limits *lim, bt_diag *diag);
/* As bt_position_add with n numbers: n must be arity(g), or any n >= 1
   (at most max_components) for a game of variable arity. */
BT_API bt_status bt_position_add_n(bt_position *p, bt_game *g, const mpz_t *nums,
                            size_t n, const bt_limits *lim, bt_diag *diag);
/* Makes an independent copy of p. */
BT_API bt_status bt_position_copy(bt_position **out, const bt_position *p);
/* Number of components. */
BT_API size_t bt_position_size(const bt_position *p);
/* The game of component i (borrowed from p). */
BT_API bt_game *bt_position_game(const bt_position *p, size_t i);
/* The numbers of component i (bt_position_count of them); borrowed. */
BT_API const mpz_t *bt_position_nums(const bt_position *p, size_t i);
/* How many numbers component i has: its game's arity, or any number >= 1
   for a game of variable arity. */
BT_API size_t bt_position_count(const bt_position *p, size_t i);
/* If every component belongs to one game, returns it; else NULL.  An empty
   position returns the game it was parsed with, if any. */
BT_API bt_game *bt_position_single_game(const bt_position *p);
/*
 * Replaces component i by the components of game g given by nto numbers
 * (a multiple of arity(g); 0 removes the component; for a game of variable
 * arity the nto numbers are one component).  Used to apply moves.
 */
BT_API bt_status bt_position_replace(bt_position *p, size_t i, bt_game *g,
                              const mpz_t *to, size_t nto);
/* Writes p in the position language into a malloc'd string (caller frees).
   Returns NULL when out of memory. */
BT_API char *bt_position_format(const bt_position *p);
/* Non-zero when a and b are the same sum (same components, same order). */
BT_API int bt_position_equal(const bt_position *a, const bt_position *b);

/* ------------------------------------------------------------------ moves */

/*
 * A move replaces one component by what stands in its place afterwards:
 * `to` holds nto numbers (a heap's new size; the two heaps after a split;
 * none when the heap vanishes; a Wythoff pair's two new numbers).
 */
typedef struct bt_move {
    size_t component; /* 0-based */
    size_t nto;
    mpz_t *to;
    char *text; /* "take 2 from pile 1" */
} bt_move;

/* ------------------------------------------------------------- analysis */

typedef enum { BT_P = 0, BT_N = 1 } bt_outcome;

/*
 * The budget of the optional remoteness that BT_REMOTENESS asks for, and of
 * the opponent's search for it (bt_opponent_move): a search of the game
 * graph stops past any of these bounds and remoteness is left out, with a
 * reason (bt_analysis_remoteness_reason), so that it never costs more than
 * the answer it decorates.  The closed forms of Nim need none;
 * bt_remoteness() itself takes lim->max_search.
 */
#define BT_REMOTENESS_SEARCH 2000           /* positions stored */
#define BT_REMOTENESS_MOVES 100000          /* moves listed, in all */
#define BT_REMOTENESS_BYTES ((size_t)16 << 20) /* bytes held, estimated */
#define BT_REMOTENESS_MILLIS 200            /* ms of the thread's CPU time */

enum {
    BT_MISERE = 1u << 0,     /* taking the last counter loses */
    BT_EXPLAIN = 1u << 1,    /* build the explanation text */
    BT_REMOTENESS = 1u << 2, /* compute remoteness where cheap */
    BT_NO_MOVES = 1u << 3    /* outcome only: skip the winning moves */
};

typedef struct bt_analysis bt_analysis;

/*
 * Analyses p: outcome, Grundy values (normal play), every winning move, and
 * with BT_EXPLAIN the explanation.  Normal play uses Sprague-Grundy theory;
 * misère play uses Bouton's rule for Nim, the closed forms for a single
 * Wythoff pair, a family's misère rule (Moore's Nim), a proved misère
 * quotient, and otherwise an exhaustive search bounded by lim->max_search
 * and lim->max_memory (BT_ELIMIT beyond them: never a guess).
 */
BT_API bt_status bt_analyze(bt_analysis **out, const bt_position *p, unsigned flags,
                     const bt_limits *lim, bt_diag *diag);
BT_API void bt_analysis_free(bt_analysis *a);
BT_API bt_outcome bt_analysis_outcome(const bt_analysis *a);
BT_API int bt_analysis_is_misere(const bt_analysis *a);
/* The Grundy value of the whole position (normal play only); BT_EUNDEF in
   misère play. */
BT_API bt_status bt_analysis_grundy(mpz_t rop, const bt_analysis *a);
/* The Grundy value of component i (normal play only). */
BT_API bt_status bt_analysis_component_grundy(mpz_t rop, const bt_analysis *a,
                                       size_t i);
/* The winning moves, in component order; none in a P-position. */
BT_API size_t bt_analysis_move_count(const bt_analysis *a);
BT_API const bt_move *bt_analysis_move(const bt_analysis *a, size_t i);
/* Zero when some component had more winning moves than lim->max_search
   or lim->max_memory allows to list (a huge octal heap, Moore's Nim of
   many piles): the moves given are then only some of them, while the
   outcome and the values are exact. */
BT_API int bt_analysis_moves_complete(const bt_analysis *a);
/* When the moves are not complete, one sentence saying which winning
   moves are listed and which are left out, and why; else NULL.  Owned by
   a. */
BT_API const char *bt_analysis_moves_note(const bt_analysis *a);
/* The explanation (with BT_EXPLAIN), else NULL.  Owned by a. */
BT_API const char *bt_analysis_explanation(const bt_analysis *a);
/* Remoteness (moves to the end under best play: the winner hurries, the
   loser delays) when computed and it fits a long, else -1. */
BT_API long bt_analysis_remoteness(const bt_analysis *a);
/* Remoteness at any size (Nim's closed forms give numbers as large as the
   piles): BT_OK and rop set when computed; BT_EUNDEF when it was not asked
   for (no BT_REMOTENESS) or was left out. */
BT_API bt_status bt_analysis_remoteness_mpz(mpz_t rop, const bt_analysis *a);
/* Why remoteness was left out although BT_REMOTENESS asked for it (one
   line, owned by a: the budget it passed, e.g. "the game graph has more
   than 2000 positions (the remoteness budget)"); NULL when it was computed
   or not asked for. */
BT_API const char *bt_analysis_remoteness_reason(const bt_analysis *a);

/*
 * Every legal move of p (not only the winning ones), in component order.
 * Fails with BT_ELIMIT when there are more than lim->max_search of them.
 * The caller frees the array with bt_moves_free().
 */
BT_API bt_status bt_position_moves(bt_move **out, size_t *count,
                            const bt_position *p, const bt_limits *lim,
                            bt_diag *diag);
BT_API void bt_moves_free(bt_move *moves, size_t count);
/* Applies move m to p in place. */
BT_API bt_status bt_position_apply(bt_position *p, const bt_move *m);
/* Non-zero when p has no move left (the game is over). */
BT_API int bt_position_is_terminal(const bt_position *p);

/* ----------------------------------------------------------------- tables */

/*
 * Streams the P-positions of k components of game g (a heap game) with
 * every number in [min, below), each listed once with its numbers in
 * non-decreasing order, in lexicographic order, in constant memory.  For a
 * game of arity 2 (Wythoff) k must be 1 and it streams the P-positions
 * (x <= y) with min <= x and y < below.  Misère tables of games other than
 * Nim and Wythoff test each position by search (bounded by max_search).
 * A game of variable arity lists one component of k numbers a row when
 * its family gives the last number from the others (Moore's Nim); tables
 * of other games (no such rule, or components of 3 or more numbers) are
 * refused with BT_EINVAL.
 */
typedef struct bt_table bt_table;
BT_API bt_status bt_table_new(bt_table **out, bt_game *g, int misere, size_t k,
                       const mpz_t min, const mpz_t below,
                       const bt_limits *lim, bt_diag *diag);
/* Returns 1 and fills row[0..width-1] (caller-initialised mpz_t) with the
   next P-position, 0 at the end, or a negative bt_status negated on error
   (-BT_EINTR). */
BT_API int bt_table_next(bt_table *t, mpz_t *row);
/* Numbers in each row. */
BT_API size_t bt_table_width(const bt_table *t);
/* The one-line message of the error bt_table_next() last returned (for
   instance which limit a misère search passed); "" when there is none. */
BT_API const char *bt_table_message(const bt_table *t);
BT_API void bt_table_free(bt_table *t);

#ifdef __cplusplus
}
#endif
#endif
