/*
 * heapgame.h -- what the heap-game families (sub, octal, grundy) share with
 * the Sprague-Grundy sequence engine of sequence.c; not part of the public
 * API.
 *
 * A heap game is described to the engine by its moves on one heap of n
 * counters: remove k counters and leave nothing (k = n), one non-empty heap
 * (n - k), two non-empty heaps a + b = n - k, or three a + b + c = n - k.
 * Octal and hexadecimal codes, subtraction sets and Grundy's game all
 * reduce to these lists; an infinite take-and-break code (takebreak.c)
 * adds a repeating block of digits that rules every k beyond its prefix.
 */
#ifndef BOUTON_HEAPGAME_H
#define BOUTON_HEAPGAME_H

#include "engines/engines.h"

typedef enum {
    BT__HEAP_OCTAL,
    BT__HEAP_SUB,
    BT__HEAP_GRUNDY,
    BT__HEAP_TB
} bt__heap_kind;

typedef struct bt__heap_rules {
    bt__heap_kind kind;
    size_t t;      /* the most counters one move removes */
    size_t nwhole; /* take the whole heap of exactly k (octal bit 1) */
    size_t *whole;
    size_t none; /* take k, leave one non-empty heap (bit 2) */
    size_t *one;
    size_t nsplit; /* take k (0 allowed), leave two non-empty heaps
                      (bit 4), ascending */
    size_t *split;
    size_t ntriple; /* take k (0 allowed), leave three non-empty heaps
                       (bit 8 of a hexadecimal digit), ascending */
    size_t *triple;
    /* An infinite code: digit k > t is block[(k - t - 1) % blen]; blen 0
       for a finite code.  Such games (and those with triples) take the
       general plain method of the engine. */
    size_t blen;
    unsigned char *block;
    int general;    /* ntriple > 0 or blen > 0: the general plain method */
    int unequal;    /* the two heaps of a split must differ */
    int provable;   /* a periodicity theorem applies (octal, sub) */
    int sub_window; /* every move is "take k, leave 0 or 1 heap" for the
                       same set of k (every non-zero digit is 3): the
                       subtraction-game window applies */
    /* A subtraction set as sorted disjoint intervals [lo, hi]; the engine
       slides windows over them when the set is large. */
    size_t nint;
    size_t *lo, *hi;
    size_t setsize;       /* elements in the set (sub) */
    unsigned char *digit; /* digits d[0..t] (octal, grundy, tb) */
} bt__heap_rules;

/* The state of a game of the three families. */
typedef struct bt__heap_game {
    bt__heap_rules rules;
    bt_sequence *seq; /* the cached Grundy sequence, made on demand */
} bt__heap_game;

/* Releases what the rules own (not the struct itself). */
void bt__heap_rules_clear(bt__heap_rules *r);

/*
 * Fills r from octal digits d[0..t] (d[0] is 0 or 4, d[t] is not 0); with
 * unequal, the two heaps of a split must differ (Grundy's game).  Octal
 * games are provable (Guy-Smith).  BT_ENOMEM on failure.
 */
bt_status bt__heap_rules_digits(bt__heap_rules *r, bt__heap_kind kind,
                                const unsigned char *d, size_t t, int unequal);

/*
 * A take-and-break code (takebreak.c): digits d[0..t] (d[t] is not 0 in a
 * finite code; d[0] is 0, 4, 8 or C), then, when blen > 0, the block
 * block[0..blen-1] repeated forever.  Digit d_k: bit j (value 2^j) set
 * means a move removing k counters may leave j non-empty heaps.
 */
#define BT__TB_MAX_DIGITS 1024
#define BT__TB_MAX_BLOCK 64
typedef struct bt__tb_code {
    unsigned char d[BT__TB_MAX_DIGITS + 1];
    size_t t;
    unsigned char block[BT__TB_MAX_BLOCK];
    size_t blen;
} bt__tb_code;

/*
 * Parses a code ("0.77", ".137", "4", "0.3003330[3]", "4.[3]", "0.F8")
 * into c, in its canonical form (no redundant trailing digits, the
 * shortest block).  Digits above max_digit (7 for octal, 15 for
 * hexadecimal) are refused.  BT_EPARSE with a one-line message naming the
 * code and the column at fault.
 */
bt_status bt__tb_parse(bt__tb_code *c, const char *text, unsigned max_digit,
                       const char *what, bt_diag *diag);
/* Appends the canonical text of c ("0.77", "4.[3]", "4.0"). */
void bt__tb_format(bt__buf *b, const bt__tb_code *c);
/* Fills r from c (kind BT__HEAP_TB; finite codes are provable).
   BT_ENOMEM on failure. */
bt_status bt__heap_rules_code(bt__heap_rules *r, const bt__tb_code *c);
/* Digit k of the rules' code (k may exceed t for an infinite code). */
unsigned bt__heap_digit(const bt__heap_rules *r, size_t k);

/* Grundy values of a heap game are below this (16 bits a value). */
#define BT__HEAP_MAXV 65536u

/* What heapgame.c asks of the sequence engine (sequence.c): a new
   sequence of rules r; G(n) from what s knows (BT_ERANGE, without a
   message, when unknown); G(x) of x below the computed length or within
   a proved period; n in decimal in buf (64 bytes), the middle of a huge
   number elided. */
bt_status bt__seq_create(bt_sequence **out, const bt__heap_rules *r,
                         bt_seq_method method);
bt_status bt__seq_lookup(const bt_sequence *s, unsigned *v, const mpz_t n);
unsigned bt__seq_at(const bt_sequence *s, size_t x);
const char *bt__heap_text(char *buf, const mpz_t n);

/* The ruleset hooks shared by the heap families (heapgame.c; g->state is
   a bt__heap_game). */
void bt__heap_fini(bt_game *g);
bt_status bt__heap_grundy(bt_game *g, mpz_t rop, const mpz_t *c,
                          const bt_limits *lim, bt_diag *diag);
bt_status bt__heap_options(bt_game *g, const mpz_t *c, bt__emit emit, void *ud,
                           const bt_limits *lim, bt_diag *diag);
bt_status bt__heap_moves_to(bt_game *g, const mpz_t *c, const mpz_t target,
                            bt__emit emit, void *ud, const bt_limits *lim,
                            bt_diag *diag);
void bt__heap_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
                       const mpz_t *to, size_t nto);
int bt__heap_is_option(bt_game *g, const mpz_t *c, size_t n, const mpz_t *to,
                       size_t nto);

/* The heap hook of the heap families (g->state is their bt__heap_game). */
bt__heap_game *bt__heap_state(const bt_game *g);

/* g's heap game when its family has one (the ruleset's heap hook), else
   NULL: how the engines tell a game of heap rules, never by its family. */
static inline bt__heap_game *
bt__heap_of(const bt_game *g)
{
    return g != NULL && g->rules->heap != NULL ? g->rules->heap(g) : NULL;
}
/* The bytes g's cached Grundy sequence holds (estimated; 0: none yet). */
size_t bt__heap_cache_bytes(const bt_game *g);

#endif
