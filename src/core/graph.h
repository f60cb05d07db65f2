/*
 * core/graph.h -- the game-graph kernel: the one key of a position, the
 * one table and the one walk of the searches (core/graph.c).  Its clients
 * are the searches of the game graph: the default memoised mex
 * (generic.c), the misère outcome search (engines/search.c) and the
 * remoteness solver (analysis/remoteness.c) through the walk, and the
 * misère quotient's outcome search (engines/quotient_search.c) through the
 * table alone, with keys of its own.  It needs only the core (positions and
 * moves, the hooks, the budget), so it sits in the core, where the default
 * mex, a hook's default, may call it.  Not part of the public API.
 */
#ifndef BOUTON_SRC_CORE_GRAPH_H
#define BOUTON_SRC_CORE_GRAPH_H

#include <stdint.h>

#include "core.h"

/*
 * The key of a position is binary: the codes of its components, sorted (a
 * sum is commutative), one after the other.  The code of a component is
 * words (GMP's limbs): the number of its game in the table (games are
 * told apart by their canonical text, g->spec, and numbered as the table
 * meets them), the count of its numbers, then each number (one word when
 * it is small, else its size, sign and limbs; graph.c).  A code says where
 * it ends, so a key splits back into its codes; the codes are compared
 * word by word, then by length.  A key is built from the numbers
 * themselves and looked up, never printed or parsed.
 */
typedef struct bt__gpart {
    const mp_limb_t *w; /* a component's code */
    size_t n;           /* its words */
} bt__gpart;

/* A growable array of words: a key, or codes being built. */
typedef struct bt__gbuf {
    mp_limb_t *w;
    size_t len, cap;
} bt__gbuf;

void bt__gbuf_init(bt__gbuf *b);
void bt__gbuf_free(bt__gbuf *b);

/*
 * The table: keys (copied into the table's own array of words) with one
 * number each (a Grundy value, an outcome, a remoteness).  A key is any
 * string of words: the table hashes and compares words only, so a client
 * whose positions have a compact form of their own stores that (the
 * misère quotient's search: a multiset of heaps of one game, the heaps
 * packed into words, engines/quotient_search.c), provided equal
 * positions, and only they, have equal keys.  Open addressing with linear
 * probing, at most half full.  A slot is one 64-bit word: the high half
 * of its key's hash (which also places it, so that the table doubles
 * without reading a key) and where its entry starts in `keys` (its
 * length, its value, its words), so that a probe reads a key only when
 * the halves agree.  At most 2^32 slots and 2^32 - 2 words of entries
 * (BT_ELIMIT past them).  What it holds (its slots and its entries'
 * array) is charged to `budget` as it grows (NULL: to none;
 * bt__graph_bytes says it either way), and given back by
 * bt__graph_clear.
 */
typedef struct bt__graph {
    uint64_t *slots; /* 0: empty */
    size_t cap, used; /* cap: a power of two */
    mp_limb_t *keys;  /* the entries, one after the other */
    size_t keys_len, keys_cap; /* words */
    char **games;              /* the games' texts, by number */
    size_t ngames, capgames, last;
    bt__budget *budget;
    size_t bytes; /* held: slots and keys */
} bt__graph;

/* An empty table of cap slots (a power of two); BT_ELIMIT or BT_ENOMEM
   with a message. */
bt_status bt__graph_init(bt__graph *t, size_t cap, bt__budget *budget,
                         bt_diag *diag);
/* Frees what t holds; t may be initialised again. */
void bt__graph_clear(bt__graph *t);
/* Forgets every key, keeping the slots and the entries' array for the
   keys to come: a table filled and emptied again and again (the misère
   quotient's, once per heap) does not grow from nothing each time. */
void bt__graph_empty(bt__graph *t);
/* The bytes t holds. */
static inline size_t
bt__graph_bytes(const bt__graph *t)
{
    return t->bytes;
}

/* Appends the code of a component of g with numbers v[0..n-1] to b;
   BT_ENOMEM (no message) when out of memory. */
bt_status bt__graph_code(bt__graph *t, bt__gbuf *b, const bt_game *g,
                         const mpz_t *v, size_t n);
/* The order of codes in a key (word by word, then by length). */
int bt__graph_part_cmp(const bt__gpart *a, const bt__gpart *b);

/* 1 with *value when key is stored, else 0. */
int bt__graph_get(const bt__graph *t, const mp_limb_t *key, size_t len,
                  long *value);
/* Stores a copy of key (not yet stored, fewer than 2^32 words) with
   value.  BT_ELIMIT or BT_ENOMEM with a message when the table cannot
   grow. */
bt_status bt__graph_put(bt__graph *t, const mp_limb_t *key, size_t len,
                        long value, bt_diag *diag);

/*
 * The walk: the one search of the game graph, depth first with an explicit
 * stack (a game of 10^5 moves cannot exhaust the C stack), each position
 * decided once and stored in the walk's table, kept across the calls.  A
 * frame keeps its position itself, its components in the order they came
 * (the order of the moves it lists), their codes, the order of its key,
 * and its moves as codes, so that a kid's key is merged from the parent's
 * codes and the move's alone, and a kid the table knows is never built.
 * What each client asks is `ask`:
 *
 *   BT__GASK_OUTCOME     P or N (bt_outcome): a position is P exactly when
 *                        no option is P, and its first P-option decides
 *                        it (the rest are not visited);
 *   BT__GASK_REMOTENESS  Smith's remoteness (its parity the outcome):
 *                        every option is visited.
 *   BT__GASK_GRUNDY      the Sprague-Grundy value of a position of one
 *                        component: the mex of the values of its options,
 *                        an option's value the nim-sum of the values of
 *                        its components, each valued (and stored) alone.
 *
 * In normal play a position with no move is P, in misère play N (the
 * mex is of normal play).  The
 * bounds, set by the client before a call, stop the walk cleanly (all it
 * holds on its path freed, the table kept) with `why` saying which: more
 * than max_positions positions (stored, and on the path), more than
 * max_moves moves of one position, more than max_total moves listed in
 * all (w->moves counts them across the calls), the budget's max bytes
 * (the table, the frames on the path and the moves they list), deadline
 * (of clock(), asked every POLL_MOVES moves), or lim's interrupt.
 */
typedef enum bt__gask {
    BT__GASK_OUTCOME,
    BT__GASK_REMOTENESS,
    BT__GASK_GRUNDY
} bt__gask;

typedef enum bt__gwhy {
    BT__GWHY_NONE,
    BT__GWHY_POSITIONS, /* max_positions: BT_ELIMIT */
    BT__GWHY_MOVES,     /* max_moves of one position: BT_ELIMIT */
    BT__GWHY_TOTAL,     /* max_total moves in all: BT_ELIMIT */
    BT__GWHY_BYTES,     /* the budget (its message written): BT_ELIMIT */
    BT__GWHY_DEADLINE,  /* BT_ELIMIT */
    BT__GWHY_INTERRUPT, /* lim's interrupt: BT_EINTR */
    BT__GWHY_RULES      /* a ruleset's own limit (its message written) */
} bt__gwhy;

typedef struct bt__gwalk {
    bt__graph t;       /* values by position */
    bt__budget budget; /* t, and what a running walk holds */
    bt__gask ask;
    int misere;
    /* the bounds (SIZE_MAX, 0: none) */
    size_t max_positions, max_moves, max_total;
    uint64_t deadline;
    uint64_t (*clock)(void); /* asked when deadline is set */
    int check_root; /* max_positions is asked of the root as well */
    /* counts */
    size_t moves; /* moves listed, in all */
    size_t opens; /* options followed: the poll's clock */
    bt__gwhy why; /* of the last call that stopped at a bound */
    /* scratch of a call */
    bt__gbuf key;
    size_t *order, ordcap;
    __mpz_struct *views; /* read-only numbers over a code's limbs */
    mp_limb_t *limbs;    /* the limbs of its small numbers */
    size_t nviews;
} bt__gwalk;

/* A walk asking `ask` in misère play when `misere`, its table of cap slots
   (a power of two) empty, no bounds; BT_ENOMEM. */
bt_status bt__gwalk_init(bt__gwalk *w, bt__gask ask, int misere, size_t cap);
void bt__gwalk_clear(bt__gwalk *w);
/* *value: what w asks of p (bt_outcome, or the remoteness).  BT_ELIMIT or
   BT_EINTR at a bound (w->why; a message in diag where the budget or a
   ruleset wrote one, else the client writes it), BT_ENOMEM (no
   message). */
bt_status bt__gwalk_value(bt__gwalk *w, long *value, const bt_position *p,
                          const bt_limits *lim, bt_diag *diag);

#endif
