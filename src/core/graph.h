/*
 * core/graph.h -- the game-graph kernel: the one key of a position and the
 * one table of the searches (core/graph.c).  Its clients are the searches
 * of the game graph: the default memoised mex (generic.c), the misère
 * outcome search (engines/search.c) and the remoteness solver
 * (analysis/remoteness.c).  It needs only the core (positions, the hooks,
 * the budget), so it sits in the core, where the default mex may call it.
 * Not part of the public API.
 */
#ifndef BOUTON_SRC_CORE_GRAPH_H
#define BOUTON_SRC_CORE_GRAPH_H

#include "core.h"

/*
 * The key of a position is binary: the codes of its components, sorted (a
 * sum is commutative), one after the other.  The code of a component is
 * words (GMP's limbs): the number of its game in the table (games are
 * told apart by their canonical text, g->spec, and numbered as the table
 * meets them), the count of its numbers, then for each number its size in
 * limbs (times 2, plus 1 when negative) and its limbs.  A code says where
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
 * The table: keys (copied into the table's own blocks) with one number
 * each (a Grundy value, an outcome, a remoteness).  Open addressing with
 * linear probing, at most half full.  What it holds (its slots and its
 * blocks of keys) is charged to `budget` as it
 * grows (NULL: to none; bt__graph_bytes says it either way), and given
 * back by bt__graph_clear.
 */
typedef struct bt__gslot {
    const mp_limb_t *key; /* NULL: empty */
    size_t len;           /* words */
    long value;
} bt__gslot;

typedef struct bt__graph {
    bt__gslot *slots;
    size_t cap, used; /* cap: a power of two */
    struct bt__gblock *blocks; /* the keys' words, newest first */
    size_t block_left;         /* words free in blocks */
    char **games;              /* the games' texts, by number */
    size_t ngames, capgames, last;
    bt__budget *budget;
    size_t bytes; /* held: slots and blocks */
} bt__graph;

/* An empty table of cap slots (a power of two); BT_ELIMIT or BT_ENOMEM
   with a message. */
bt_status bt__graph_init(bt__graph *t, size_t cap, bt__budget *budget,
                         bt_diag *diag);
/* Frees what t holds; t may be initialised again. */
void bt__graph_clear(bt__graph *t);
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
/* The order of codes in a key, and a sort by it. */
int bt__graph_part_cmp(const bt__gpart *a, const bt__gpart *b);
void bt__graph_sort(bt__gpart *parts, size_t n);
/* Sets key to the codes parts[0..n-1] one after the other; BT_ENOMEM. */
bt_status bt__graph_join(bt__gbuf *key, const bt__gpart *parts, size_t n);
/* Sets key to the key of p; BT_ENOMEM. */
bt_status bt__graph_key(bt__graph *t, bt__gbuf *key, const bt_position *p);
/* The number of codes in key[0..len-1]; with parts not NULL, sets
   parts[0..] to them (pointing into key). */
size_t bt__graph_split(const mp_limb_t *key, size_t len, bt__gpart *parts);

/* The slot of key, NULL when it is not stored. */
const bt__gslot *bt__graph_find(const bt__graph *t, const mp_limb_t *key,
                                size_t len);
/* Stores a copy of key (not yet stored) with value.  BT_ELIMIT or
   BT_ENOMEM with a message when the table cannot grow. */
bt_status bt__graph_put(bt__graph *t, const mp_limb_t *key, size_t len,
                        long value, bt_diag *diag);

#endif
