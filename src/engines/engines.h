/*
 * engines/engines.h -- what the engines share with the layers above them
 * (games, analysis, play) and among themselves: the exhaustive search of
 * the game graph and its moves, the misère quotient's hook for the
 * analysis, and the CPUs the process may use.  Not part of the public
 * API.
 */
#ifndef BOUTON_SRC_ENGINES_H
#define BOUTON_SRC_ENGINES_H

#include "../core/core.h"

/* The CPUs this process may run on (engines/cpus.c): the least of the
   online CPUs, its affinity mask and its cgroup's CPU quota; at least 1. */
unsigned bt__cpus_usable(void);

/* ------------------------------------------------------------ search */

/*
 * Exhaustive search of the game graph from the rules (each ruleset's
 * options()): the kernel's walk (core/graph.h) asked for outcomes, its
 * table kept across the calls of one analysis.  bt__search_outcome() sets
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
