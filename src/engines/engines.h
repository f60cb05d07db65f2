/*
 * engines/engines.h -- what the engines share with the layers above them
 * (games, analysis, play) and among themselves: the memo of positions, the
 * exhaustive search of the game graph and its moves, the misère quotient's
 * hook for the analysis, and the CPUs the process may use.  Not part of
 * the public API.
 */
#ifndef BOUTON_SRC_ENGINES_H
#define BOUTON_SRC_ENGINES_H

#include "../core/core.h"

/* The CPUs this process may run on (engines/cpus.c): the least of the
   online CPUs, its affinity mask and its cgroup's CPU quota; at least 1. */
unsigned bt__cpus_usable(void);

/* ---------------------------------------------------------------- memo */

/*
 * The memo table of the exhaustive searches (engines/memo.c): positions by
 * their canonical key, each with one number (search.c stores an outcome,
 * remoteness.c a remoteness).  The key of a position is the texts of its
 * components, "spec:n,n", sorted bytewise and each followed by '|', after
 * a '#' ("#nim:3|nim:5|"): a sum is commutative.  Open addressing, at most
 * half full; the slots are charged to `budget` (NULL: to none) as the
 * table grows, and released by bt__memo_clear.
 */
typedef struct bt__memo_slot {
    char *key; /* NULL: empty */
    size_t len;
    long value;
} bt__memo_slot;

typedef struct bt__memo {
    bt__memo_slot *slots;
    size_t cap, used; /* cap: a power of two */
    bt__budget *budget;
} bt__memo;

/* An empty table of cap slots (a power of two); BT_ELIMIT or BT_ENOMEM
   with a message. */
bt_status bt__memo_init(bt__memo *m, size_t cap, bt__budget *budget,
                        bt_diag *diag);
/* Frees the keys and the slots; m may be initialised again. */
void bt__memo_clear(bt__memo *m);
/* The slot of key, NULL when it is not stored. */
const bt__memo_slot *bt__memo_find(const bt__memo *m, const char *key,
                                   size_t len);
/* Stores key (not yet stored) with value; the table takes the key on
   success.  BT_ELIMIT or BT_ENOMEM with a message when it cannot grow. */
bt_status bt__memo_put(bt__memo *m, char *key, size_t len, long value,
                       bt_diag *diag);

/* The canonical key of p (malloc'd, *len its length); NULL when out of
   memory. */
char *bt__memo_key(const bt_position *p, size_t *len);
/* A key's components ("spec:n,n", without the '|'), as pieces of text. */
typedef struct bt__memo_part {
    const char *s;
    size_t len;
} bt__memo_part;
/* Appends the text of a component of g with numbers v[0..n-1]. */
void bt__memo_put_comp(bt__buf *b, const bt_game *g, const mpz_t *v,
                       size_t n);
/* The order of the parts in a key (bytewise), and a sort by it. */
int bt__memo_part_cmp(const bt__memo_part *a, const bt__memo_part *b);
void bt__memo_sort(bt__memo_part *parts, size_t n);
/* The key of sorted parts (malloc'd); NULL when out of memory. */
char *bt__memo_join(const bt__memo_part *parts, size_t n, size_t *len);
/* Splits a key into its parts (*out malloc'd, pointing into key). */
bt_status bt__memo_split(const char *key, size_t len, bt__memo_part **out,
                         size_t *n);

/* ------------------------------------------------------------ search */

/*
 * Exhaustive search of the game graph from the rules (each ruleset's
 * options()), memoised on the position's key (bt__memo), in a memo table
 * kept across the calls of one analysis.  bt__search_outcome() sets
 * *outcome; BT_ELIMIT when more than lim->max_search positions would be
 * stored.
 */
typedef struct bt__search bt__search;
bt_status bt__search_new(bt__search **out);
void bt__search_free(bt__search *s);
bt_status bt__search_outcome(bt__search *s, bt_outcome *outcome,
                             const bt_position *p, int misere,
                             const bt_limits *lim, bt_diag *diag);

/* The number of positions stored in s. */
size_t bt__search_used(const bt__search *s);
/* Non-zero when the last search of s stopped at lim->max_memory. */
int bt__search_over_memory(const bt__search *s);

/* Non-zero when component i of p has no move. */
int bt__component_is_terminal(const bt_position *p, size_t i,
                              const bt_limits *lim);

/* Appends a move (copying `to`) to a growable array of moves. */
bt_status bt__move_push(bt_move **moves, size_t *n, size_t *cap, size_t comp,
                        const mpz_t *to, size_t nto);
/* The ruleset's text for move m of p (malloc'd), NULL when out of memory. */
char *bt__move_text(const bt_position *p, const bt_move *m);
/* bt__move_push, with the move's text (a move of p). */
bt_status bt__move_push_text(bt_move **moves, size_t *n, size_t *cap,
                             const bt_position *p, size_t comp,
                             const mpz_t *to, size_t nto);
/* *out: a new array of one move of p, component comp to `to` (nto
   numbers), with its text; free it with bt_moves_free(*out, 1).
   BT_ENOMEM with a message. */
bt_status bt__move_new(bt_move **out, const bt_position *p, size_t comp,
                       const mpz_t *to, size_t nto, bt_diag *diag);

/*
 * What a misère analysis through the quotient read from it, for the
 * analysis's public accessors (bt_analysis_quotient, include/bouton/
 * misere.h): copied, since the quotient is the cache's and is released
 * when the hook returns.  Elements are Q's numbers; word[x] is the word
 * of every element named here (NULL for the others).
 */
typedef struct bt__qfacts {
    int set;            /* the quotient answered */
    char *game;         /* its game's spec, "G + H" for a union */
    size_t upto, order, pcount, period, preperiod;
    int proved, loaded;
    size_t element;     /* the position's */
    size_t ncomp;
    size_t *comp;       /* each component's element */
    size_t *as_heap;    /* each component's heap <= upto of that element */
    size_t *move;       /* each winning move's element, in the moves' order */
    size_t nmove, capmove;
    char **word;        /* order entries */
    const char **p;     /* the words of P's pcount elements (in word) */
} bt__qfacts;

/*
 * Misère analysis through the misère quotient (quotient.c): when every
 * component of p is a heap of one heap game and the quotient of the heaps
 * up to the largest one is cached, or can be learnt within the budget
 * (600 x max_search steps of work, learnt on from the game's cached
 * learner), or the game's quotient is proved periodic within it (heaps
 * of any size), sets *outcome, emits every winning move and sets *note
 * (malloc'd) to the explanation.  A huge heap with splits has more moves
 * than can be listed: its winning moves are given for the splits whose
 * smaller heap is at most preperiod + 2 period + t (one of each class),
 * and *left_out is set (malloc'd) to a sentence saying what is listed and
 * what is left out when there are more.  BT_EUNDEF otherwise (the caller
 * searches), with *note set (malloc'd) to a clause saying how far the
 * quotient got and which limit stopped it when it was tried, else NULL.
 * With facts (may be NULL), what the quotient says of the position, each
 * heap and each winning move, on BT_OK (bt__qfacts_free frees it).
 */
bt_status bt__quotient_misere(const bt_position *p, bt_outcome *outcome,
                              bt_status (*move)(void *ud, size_t comp,
                                                const mpz_t *to, size_t nto),
                              void *ud, char **note, char **left_out,
                              bt__qfacts *facts, const bt_limits *lim,
                              bt_diag *diag);
/* Frees what bt__quotient_misere put in *f (and zeroes it). */
void bt__qfacts_free(bt__qfacts *f);

/*
 * How quotient.c learns a heap that is not a conservative extension: 1
 * (the default) by pretending (MisereSolver's method, docs/misere.md)
 * first, searching the game graph only when that fails; 0 by the search
 * alone.  For the tests that compare the two; set it before a
 * computation, never while one runs.
 */
void bt__quotient_set_pretending(int on);

/*
 * Whether quotient.c forms the quotients of tame heaps by the theory
 * (quotient_tame.c, docs/misere.md): 1 (the default), or 0 for the
 * general learner alone, for the tests that compare the two; set it
 * before a computation, never while one runs.
 */
void bt__quotient_set_taming(int on);

#endif
