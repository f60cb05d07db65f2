/*
 * bouton/play.h -- playing the games: the computer opponent, remoteness,
 * seeded randomness, random starts and game records.  Part of the public
 * contract; include <bouton.h>.
 *
 * Everything here is pure computation like the rest of the library: a game
 * record is written to and read from a string, never a file.
 */
#ifndef BOUTON_PLAY_H
#define BOUTON_PLAY_H

#include <stdint.h>

#include <bouton/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------- random numbers */

/*
 * A seeded pseudo-random generator, so that a game can be replayed exactly:
 * SplitMix64 (G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom
 * number generators", OOPSLA 2014).  The whole state is one uint64_t and
 * every value is a valid seed.  One step is
 *
 *     state += 0x9e3779b97f4a7c15;
 *     z = state;
 *     z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
 *     z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
 *     return z ^ (z >> 31);
 *
 * The sequence is fixed by this definition: it will not change between
 * versions, so a seed recorded with a game replays it.
 */
BT_API uint64_t bt_rng_next(uint64_t *state);
/*
 * Returns a number uniform on [0, n) for n > 0 (0 when n is 0), without
 * modulo bias: draws are rejected while they fall below 2^64 mod n, and the
 * first one accepted is reduced mod n.
 */
BT_API uint64_t bt_rng_below(uint64_t *state, uint64_t n);
/*
 * Sets rop to a number uniform on [0, n) for n > 0 of any size (0 when
 * n <= 0): draws of bitlength(n) bits (64-bit words from bt_rng_next, least
 * significant word first, the top word masked) are rejected while >= n.
 */
BT_API void bt_rng_mpz_below(mpz_t rop, uint64_t *state, const mpz_t n);

/* ---------------------------------------------------------- random starts */

/*
 * A random start: k components of game g, each of its arity(g) numbers drawn
 * independently and uniformly from [min, max] (bt_rng_mpz_below, in order);
 * for a game of variable arity (Moore's Nim), one component of k numbers.
 * Every ordered tuple of numbers is equally likely, so the chance that the
 * first player wins is the share of N-positions among the tuples -- for Nim
 * the ordered count of `bouton count --ordered --piles k --min min --max max`
 * (Bouton 1901/02 sec. 3 counts the unordered ones).  BT_EINVAL when
 * min > max, and the usual checks of bt_position_add (limits, the game's own
 * checks, e.g. a game that needs positive heaps).
 */
BT_API bt_status bt_position_random(bt_position **out, bt_game *g, size_t k,
                             const mpz_t min, const mpz_t max, uint64_t *rng,
                             const bt_limits *lim, bt_diag *diag);

/* ------------------------------------------------------------- remoteness */

/*
 * Remoteness (C. A. B. Smith, "Graphs and composite games", J. Combin.
 * Theory 1 (1966)): the number of moves to the end of the game when the
 * player who can win hurries and the other delays.  A position with no move
 * has remoteness 0; otherwise a winning position has 1 + the least
 * remoteness of its P-options, a losing one 1 + the greatest remoteness of
 * its options.  In normal play P-positions have even remoteness and
 * N-positions odd; in misère play (no move = the player to move has won)
 * the other way round.
 *
 * bt_remoteness() sets rop to the remoteness of p:
 *   - Nim (every component a Nim pile), at any size, by the closed forms
 *     proved in docs/opponent.md: with T the number of counters, a
 *     P-position has remoteness T in normal play, and in misère play T when
 *     no pile exceeds 1, else T - 1; an N-position has 1 + the least
 *     remoteness of the positions its winning moves leave.
 *   - any other position by exhaustive search of its game graph (a
 *     bt_solver), exact when it has at most lim->max_search positions (sums
 *     count once per multiset of components); BT_ELIMIT beyond, never a
 *     guess.
 */
BT_API bt_status bt_remoteness(mpz_t rop, const bt_position *p, int misere,
                        const bt_limits *lim, bt_diag *diag);

/*
 * A memoised exhaustive solver: the outcome and remoteness of positions,
 * from the rules alone, keeping what it learnt across calls (so that the
 * positions of one game are searched once).  Positions are stored with their
 * components sorted (a sum is commutative).  The search is iterative, so
 * long games cannot exhaust the stack.
 */
typedef struct bt_solver bt_solver;
/* Makes a solver for one play convention that stores at most max_states
   positions in all. */
BT_API bt_status bt_solver_new(bt_solver **out, int misere, size_t max_states);
BT_API void bt_solver_free(bt_solver *s);
/*
 * Solves p: sets *outcome and *remoteness.  BT_ELIMIT (with a message) when
 * the solver would have to store more than its max_states positions; what it
 * stored so far is kept.  lim bounds the moves of one component and is
 * polled for interruption.
 */
BT_API bt_status bt_solver_solve(bt_solver *s, bt_outcome *outcome, long *remoteness,
                          const bt_position *p, const bt_limits *lim,
                          bt_diag *diag);
/* The number of positions stored. */
BT_API size_t bt_solver_size(const bt_solver *s);

/* --------------------------------------------------------------- moves */

/*
 * The move that leads from `from` to `to`, if one legal move does: sets
 * *out to a malloc'd move (free it with bt_moves_free(m, 1)).  BT_EINVAL
 * with a message naming the difference when no single legal move does.
 * Checking legality may need the component's options: BT_ELIMIT when that
 * passes lim.
 */
BT_API bt_status bt_position_find_move(bt_move **out, const bt_position *from,
                                const bt_position *to, const bt_limits *lim,
                                bt_diag *diag);

/*
 * A uniformly random legal move of p (each of its legal moves equally
 * likely), or BT_EINVAL when p has none.  Draws one bt_rng_below over the
 * list of bt_position_moves; when the list passes lim->max_search and every
 * component is a Nim pile, one bt_rng_mpz_below over the number of counters
 * T instead (the r-th counter, counting from the first pile, picks the pile
 * and how many to take), which is the same distribution.  BT_ELIMIT for
 * other games that have too many moves to list.
 */
BT_API bt_status bt_random_move(bt_move **out, const bt_position *p, uint64_t *rng,
                         const bt_limits *lim, bt_diag *diag);

/* ------------------------------------------------------------ opponent */

/*
 * The computer's strength.  At a level below perfect, each move is, with the
 * stated probability, a uniformly random legal move (bt_random_move) instead
 * of the perfect move; the decision draws one bt_rng_below(rng, 1000) (an
 * error when it is below 1000 times the probability).
 */
typedef enum {
    BT_LEVEL_PERFECT = 0, /* never errs */
    BT_LEVEL_MEDIUM = 1,  /* a random move with probability 1/5 */
    BT_LEVEL_EASY = 2     /* a random move with probability 1/2 */
} bt_level;

/* The probability in thousandths that a move at level l is random. */
BT_API unsigned bt_level_error_permille(bt_level l);
/* "perfect", "medium", "easy". */
BT_API const char *bt_level_name(bt_level l);
/* Parses a level name; BT_EPARSE with a message for anything else. */
BT_API bt_status bt_level_parse(bt_level *out, const char *text, bt_diag *diag);

/*
 * The opponent's budget for remoteness (a game that is not Nim): a search
 * of at most BT_OPPONENT_SEARCH positions (or lim->max_search, if
 * smaller), BT_OPPONENT_MOVES moves listed and BT_REMOTENESS_BYTES bytes;
 * past any, the proxy rule below.  These bounds count work, so the rule
 * (remoteness or proxy) and the move are the same on every machine, at any
 * load, in the CLI and the server alike.  BT_OPPONENT_MILLIS of the
 * thread's CPU time is only a guard behind them: the moves' bound binds in
 * about 10 ms at most (Grundy's game, the costliest moves measured;
 * bench/README.md#move-times), a tenth of it.  In misère play the exact
 * analysis gets BT_OPPONENT_MISERE_MILLIS (and lim->max_search positions);
 * past either, the misère heuristic.
 */
#define BT_OPPONENT_SEARCH BT_REMOTENESS_SEARCH
#define BT_OPPONENT_MOVES 5000
#define BT_OPPONENT_MILLIS 100
#define BT_OPPONENT_MISERE_MILLIS 100

/* How the opponent chose its move. */
typedef enum {
    BT_RULE_REMOTENESS = 0, /* the exact rule: remoteness known */
    BT_RULE_PROXY = 1,      /* outcome exact, remoteness unknown: proxy */
    BT_RULE_HEURISTIC = 2,  /* misère beyond exact analysis: outcome unknown */
    BT_RULE_RANDOM = 3      /* a random move (a level below perfect) */
} bt_rule;

/* "remoteness", "proxy", "heuristic", "random". */
BT_API const char *bt_rule_name(bt_rule r);

/* What the opponent knew when it moved. */
typedef struct bt_play_info {
    int outcome_known;    /* the outcome of p is exact */
    bt_outcome outcome;   /* of p, for the player to move, when known */
    int remoteness_known; /* the move was ranked by exact remoteness */
    bt_rule rule;
} bt_play_info;

/*
 * The computer's move from p (the rule, its reasons, its measurement and
 * the proofs behind the Nim shortcuts are in docs/opponent.md).  It
 * answers for every position whose analysis answers, within a small,
 * bounded budget (above):
 *
 *  - In an N-position: a winning move (one that leaves a P-position), the
 *    one whose result has the least remoteness (the fastest win, Smith's
 *    rule) when remoteness is known; ties, and every winning move when it
 *    is not known (the proxy), are broken by the tie order below
 *    preferring the move that leaves the smaller total of numbers.  When
 *    a component has too many moves to list (a huge heap), the winning
 *    moves are sought in a window of its options (docs/opponent.md).
 *
 *  - In a P-position every move loses against perfect play, so it plays to
 *    give a fallible opponent the most chances to err: the move whose
 *    result has the greatest remoteness (the longest game) when remoteness
 *    is known; then the least share w/m, where w is the number of the
 *    opponent's winning replies in the result and m the number of all its
 *    replies (w/m = 1 when m = 0); then the tie order preferring the larger
 *    total of numbers left.  When remoteness is not known (the proxy):
 *    the moves that leave the largest total (the fewest counters taken),
 *    then among the first 16 of them in place order the least share w/m
 *    (counted through the result's analysis, when it can be; not in
 *    misère play), then the place order.
 *
 *  - Tie order: the total of the numbers the move leaves (as said above),
 *    then the lower component index, then the smaller `to`, compared number
 *    by number (a shorter `to` that is a prefix of a longer one is smaller).
 *
 *  - Misère play beyond exact analysis (the search passes lim->max_search
 *    or BT_OPPONENT_MISERE_MILLIS): a legal move by Bouton's misère rule
 *    lifted to the normal-play Grundy values (exact for tame games, a
 *    heuristic otherwise), and info->outcome_known is 0.
 *
 * Remoteness is known for Nim (closed forms) and otherwise when the
 * bounded search reaches it.  A Nim P-position gets the exact rule at any
 * size, computed from the binary digits of the piles (or, past
 * lim->max_search steps of that, one counter from the first pile with the
 * fewest trailing zero bits, which still gives the longest game).
 *
 * rng is the generator's state (used only below BT_LEVEL_PERFECT; NULL is
 * allowed at BT_LEVEL_PERFECT).  *out is a malloc'd move (free it with
 * bt_moves_free(m, 1)), with its text; info (may be NULL) says how it was
 * chosen.  BT_EINVAL when p has no move.  Failures of the analysis
 * (BT_ERANGE, BT_EINTR, BT_ELIMIT in normal play) pass through.
 */
BT_API bt_status bt_opponent_play(bt_move **out, bt_play_info *info,
                           const bt_position *p, int misere, bt_level level,
                           uint64_t *rng, const bt_limits *lim,
                           bt_diag *diag);

/* bt_opponent_play without the info. */
BT_API bt_status bt_opponent_move(bt_move **out, const bt_position *p, int misere,
                           bt_level level, uint64_t *rng, const bt_limits *lim,
                           bt_diag *diag);

/* ---------------------------------------------------------- game records */

/*
 * A game record: the start, every move, who made it, and a header naming the
 * game and the rules.  As text (bt_record_format, bt_record_parse) it is the
 * notation of Beardon's notes, one position per line with the player who
 * moved to it:
 *
 *     # bouton game record
 *     game: nim
 *     rules: normal
 *     first: A
 *     A: you
 *     B: computer
 *
 *     (41,163,13)
 *     -A-> (25,163,13)
 *     -B-> (25,19,13)
 *     ...
 *     -B-> (0,0,0)
 *     result: B wins
 *
 * Header lines are `key: value` before the first position; `game` is the
 * game of terms that name none ("sum" when the positions name their games;
 * default nim), `rules` is `normal` or `misère` (also `misere`; default
 * normal), `first` the player who moves first, A or B (default A).  Other
 * keys (player names A and B, level, seed, ...) are kept as they are.  A
 * position is the position language in parentheses; numbers of the header's
 * game are written separated by commas, as Beardon writes them.  Lines
 * starting with '#' are comments.  The parser also takes the chained form of
 * the notes, several `-X-> (...)` on one line, with blanks anywhere between
 * the tokens.  Players alternate; every move must be legal.  The `result`
 * line is written when the game is over (the last line when a player has
 * no move) and checked when read.
 */
typedef struct bt_record bt_record;

/* Starts a record at `start` (copied); the first move is player `first`'s
   ('A' or 'B'). */
BT_API bt_status bt_record_new(bt_record **out, const bt_position *start, int misere,
                        char first, bt_diag *diag);
BT_API void bt_record_free(bt_record *r);
/*
 * Sets a header field.  Keys are letters, digits, '-' and '_'; values one
 * line.  The keys game, rules, first and result belong to the record and
 * give BT_EINVAL.  A NULL value removes the field.
 */
BT_API bt_status bt_record_set(bt_record *r, const char *key, const char *value,
                        bt_diag *diag);
/* A header field's value (owned by r), or NULL. */
BT_API const char *bt_record_get(const bt_record *r, const char *key);
BT_API int bt_record_is_misere(const bt_record *r);
/* The number of moves played. */
BT_API size_t bt_record_length(const bt_record *r);
/* The position after i moves, 0 <= i <= length (borrowed from r). */
BT_API const bt_position *bt_record_position(const bt_record *r, size_t i);
/* The current position: bt_record_position(r, bt_record_length(r)). */
BT_API const bt_position *bt_record_current(const bt_record *r);
/* The i-th move (from position i to i + 1), i < length; borrowed. */
BT_API const bt_move *bt_record_move(const bt_record *r, size_t i);
/* The player ('A' or 'B') who makes move i; with i == length, the player to
   move now. */
BT_API char bt_record_player(const bt_record *r, size_t i);
/*
 * The winner, 'A' or 'B', when the current position has no move, else 0.
 * Normal play: the player who moved last (nobody when no move was made: the
 * player to move has lost, so the other one).  Misère: the player to move.
 */
BT_API char bt_record_winner(const bt_record *r);
/*
 * Plays m from the current position (checked against the rules, as by
 * bt_position_find_move) and records it.  BT_EINVAL when it is not legal.
 */
BT_API bt_status bt_record_play(bt_record *r, const bt_move *m, const bt_limits *lim,
                         bt_diag *diag);
/* Takes back the last n moves; BT_EINVAL when fewer were played. */
BT_API bt_status bt_record_undo(bt_record *r, size_t n);
/* The record as text (see above), malloc'd; NULL when out of memory. */
BT_API char *bt_record_format(const bt_record *r);
/*
 * Reads a record.  BT_EPARSE with a message naming the line (and diag->offset
 * at the byte at fault) for a malformed record or an illegal move.
 */
BT_API bt_status bt_record_parse(bt_record **out, const char *text,
                          const bt_limits *lim, bt_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
