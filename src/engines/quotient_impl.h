/*
 * quotient_impl.h -- what the files of the misère-quotient engine share;
 * private to them (quotient.c and quotient_*.c), not part of the public
 * API nor of the rest of the library, which reaches the engine through
 * include/bouton/misere.h and the analysis hook.
 *
 * It holds the structures more than one file reads (the hash table, a
 * position, the learning table and its context, the quotient, the
 * learner), the polls of the interrupt and of the work budget (inline),
 * and the functions one file gives another.  The theory is at the top of
 * quotient.c.
 */
#ifndef BOUTON_QUOTIENT_IMPL_H
#define BOUTON_QUOTIENT_IMPL_H

#include <stdint.h>
#include <stdlib.h>

#include "core/graph.h"
#include "engines/heapgame.h"
#include "engines/quotient_tame.h"

/* ------------------------------------------------------------ hash table */

/* Byte-string keys to indices 0..n-1 (the order of insertion). */
typedef struct htab {
    unsigned char *arena;
    size_t alen, acap;
    size_t *off, *len;
    size_t n, cap;
    /* slot: (index + 1) in the low 32 bits, 0 empty; the high 32 bits of
       the key's hash in the high 32, so that a probe compares keys only
       when the hashes agree */
    uint64_t *slot;
    size_t nslot;
} htab;

/* ------------------------------------------------------------- positions */

/* A position: a multiset of live heaps (heaps with a move), sorted. */
typedef struct pos {
    uint32_t *h;
    size_t n;
} pos;

static inline int
cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------- the state */

typedef struct row {
    pos rep;
    unsigned char **cell; /* cell[a][t] for a = 0 (the row itself), 1..n */
} row;

/*
 * The alphabet of a union of heap games: letter (s - 1) * ng + i + 1 is
 * the heap of s counters of game i, s = 1..bound (interleaved by size, so
 * that the options of a letter are smaller letters).
 */
typedef struct qalpha {
    size_t ng, bound;
    bt_game *const *games;
} qalpha;

typedef struct qctx {
    bt_game *g;
    const qalpha *al; /* NULL: the heaps of g, letter = size */
    const bt_limits *lim;
    bt_diag *diag;
    size_t n;        /* letters 1..n */
    size_t cap_n;    /* allocated letters */
    uint32_t **opt;  /* opt[h]: pairs (a, b), 0 = no heap */
    size_t *nopt;
    row *rows;
    size_t nrows, caprows;
    pos *cols;
    size_t ncols, capcols;
    size_t tcap; /* allocated cells per row */
    uint32_t *trans; /* trans[s * (cap_n + 1) + a] */
    htab rowtab;     /* row cells -> row index */
    /* outcome (1: P) of positions with a heap > snap_n: the kernel's
       table (core/graph.h), charged to budget; no slots until the first
       search */
    bt__graph memo;
    bt__budget budget; /* max_memory: the memo is what grows */
    /* the proved quotient of heaps <= snap_n */
    size_t snap_n, snap_order;
    uint32_t *snap_trans; /* snap_order * (snap_n + 1) */
    unsigned char *snap_p;
    size_t polls;    /* calls of poll(): the interrupt every 1024 */
    size_t work;     /* steps of work (poll_w): positions, walked states */
    size_t work_max; /* the most work in all (0: no bound), BT_ELIMIT */
    int work_out;    /* work_max was passed */
} qctx;

#define TR(c, s, a) ((c)->trans[(size_t)(s) * ((c)->cap_n + 1) + (a)])

/*
 * Polls the interrupt every 1024 calls, and counts w steps of work against
 * work_max (a step is about what one state of the check's walk costs per
 * 16 elements of its monoid: the walk is nearly all of the work).
 */
static inline bt_status
poll_w(qctx *c, size_t w)
{
    c->work += w;
    if (c->work_max != 0 && c->work > c->work_max) {
        /* every later poll fails too, so that a phase that takes a
           failure for "try something else" (a trial, a candidate) gets
           no further */
        c->work_out = 1;
        return bt__fail(c->diag, BT_ELIMIT,
                        "the misère quotient needs more than %zu steps of "
                        "work",
                        c->work_max);
    }
    if ((++c->polls & 1023) == 0 && bt__poll(c->lim) != BT_OK)
        return bt__fail(c->diag, BT_EINTR,
                        "the time budget ran out while computing the "
                        "misère quotient");
    return BT_OK;
}

static inline bt_status
poll(qctx *c)
{
    return poll_w(c, 1);
}

/* --------------------------------------------------------- the result */

struct bt_quotient {
    bt_game *g;
    size_t upto, order, pcount;
    size_t ng;                /* a union of ng games (letters), or 0 */
    int proved;               /* the periodicity theorem applied */
    int loaded;               /* read by bt_quotient_load, and checked */
    bt_game **games;          /* bt_quotient_new_sum: the ng games (refs) */
    size_t period, preperiod; /* when proved */
    uint32_t *mul;      /* order * order */
    unsigned char *isp; /* order */
    uint32_t *heap;     /* upto + 1 */
    int tame;
    size_t ngen;
    char **genname;
    size_t *genheap;
    size_t nrel;
    char **rel;
    char **word;
};

/*
 * A learner: the table of the heaps 1..h with Q(h) proved (snapshot), and
 * its multiplication.  bt__q_build() runs one from heap 1 to its bound;
 * the analysis hook keeps one per game in its cache and takes it further
 * when a position needs a larger heap (learner_to).
 */
typedef struct qlearner {
    qctx c;
    uint32_t *mul; /* the multiplication of Q(h); NULL before heap 1 */
    size_t h;      /* the heaps learnt: 1..h */
    bt__qtame *tame; /* heaps 1..h tame so far (quotient_tame.c), or NULL */
} qlearner;

/* ------------------------------------- what one file gives another */

/* quotient.c */
size_t bt__q_heap_reduce(const bt_quotient *q, const mpz_t h);
bt_status bt__q_is_tame(int *tame, const bt_quotient *q, const bt_limits *lim,
                        bt_diag *diag);
bt_status bt__q_present(bt_quotient *q, bt_diag *diag);

/* quotient_htab.c */
size_t bt__q_ht_add(htab *h, const void *k, size_t len);
void bt__q_ht_clear(htab *h);
size_t bt__q_ht_find(const htab *h, const void *k, size_t len);
void bt__q_ht_free(htab *h);

/* quotient_search.c */
bt_status bt__q_load_options(qctx *c, size_t h);
bt_status bt__q_outcome_sum(qctx *c, const pos *a, uint32_t x, const pos *b,
                            int *p_out);
void bt__q_push_heap(const qctx *c, uint32_t *buf, size_t *len, uint32_t h);

/* quotient_learn.c */
bt_status bt__q_alloc_cells(qctx *c, size_t s, size_t a);
void bt__q_ctx_free(qctx *c);
bt_status bt__q_ensure_letters(qctx *c, size_t n);
void bt__q_learner_bind(qlearner *L, const bt_limits *lim, bt_diag *diag);
bt_status bt__q_learner_copy(qlearner *dst, const qlearner *src);
void bt__q_learner_free(qlearner *L);
bt_status bt__q_learner_heap_begin(qlearner *L, int *done);
bt_status bt__q_learner_heap_rest(qlearner *L);
bt_status bt__q_learner_init(qlearner *L, bt_game *g, const qalpha *al,
                             size_t n, const bt_limits *lim, bt_diag *diag);
int bt__q_learner_period(qlearner *L, size_t *period, size_t *preperiod);
bt_status bt__q_learner_quotient(bt_quotient **out, qlearner *L, bt_diag *diag);
void bt__q_learner_undo(qlearner *L);
bt_status bt__q_build(bt_quotient **out, bt_game *g, const qalpha *al, size_t n,
                      int until, const bt_limits *lim, bt_diag *diag);
bt_status bt__q_refine(qctx *c, size_t x0, const uint32_t *w, size_t k,
                       size_t kstop);
size_t bt__q_run(const qctx *c, size_t x, const pos *p);

/* quotient_proof.c */
bt_status bt__q_check_walk(qctx *c, size_t ord, const uint32_t *tr,
                           size_t stride, const unsigned char *isp,
                           const uint32_t *mul, int monoid, int least,
                           uint32_t **bad, size_t *badlen_out, int *found_out);
int bt__q_detect_period(const bt_game *g, const uint32_t *e, size_t n,
                        size_t *period, size_t *preperiod);
size_t bt__q_misere_need(const bt_game *g, size_t n0, size_t p);
bt_status bt__q_verify(qctx *c, const uint32_t *mul, int *refined,
                       int check_only);

/* quotient_pretend.c */
bt_status bt__q_heap_map(qctx *c, size_t n, uint32_t **e);
extern int bt__q_pretending;
bt_status bt__q_conservative_set(qctx *c, const uint32_t *mul, size_t h,
                                 size_t x);
bt_status bt__q_try_conservative(qctx *c, const uint32_t *mul, size_t h,
                                 int *done);
bt_status bt__q_try_pretend(qctx *c, const uint32_t *mul, size_t h, int *done);

/* quotient_text.c */
bt_status bt__q_text(char **out, const bt_quotient *q, const char *spec,
                     bt_diag *diag);

/* quotient_cache.c */
bt_quotient *bt__q_qcache_get(const char *spec, size_t top, size_t *slot,
                              int *failed);
int bt__q_qcache_put(const char *spec, size_t upto, bt_quotient *q,
                     size_t *slot);
void bt__q_qcache_release(size_t slot);
bt_status bt__q_learn(bt_quotient **out, char **why, bt_game *g, size_t need,
                      const bt_limits *lim, bt_diag *diag);

#endif
