/*
 * quotient.c -- misère quotients of heap games (T. E. Plambeck, "Taming
 * the wild in impartial combinatorial games", INTEGERS 5 (2005) G5;
 * T. E. Plambeck and A. N. Siegel, "Misère quotients for impartial games",
 * J. Combin. Theory Ser. A 115 (2008)).
 *
 * The quotient grows heap by heap.  For each bound n the heaps 1..n are
 * the letters of an alphabet and a position is a multiset of letters; the
 * quotient is the coarsest congruence that separates misère P from N, i.e.
 * the minimal automaton of the set of P-positions, which is learnt as in
 * Angluin's L* (rows: representatives of the elements; columns: test
 * positions X; a cell: the misère outcome of row + X, from an exact
 * memoised search whose positions of heaps below n are answered by the
 * quotient of n - 1, already proved).  A candidate is then PROVED exact by
 * a finite check (docs/misere.md): a breadth-first walk over every
 * position G, tracking the element of G, whether G has a move and the set
 * U(G) of y with y * m in P for some option m of G, and checking at each
 * state that the element of G is in P exactly when G has a move and no
 * option's element is in P (the definition of a misère P-position).  By
 * induction on G the quotient then answers every position.  A failed
 * check yields a position whose outcome the candidate gets wrong, from
 * which a new test column follows (Rivest and Schapire's counterexample
 * analysis), and learning continues.
 *
 * Periodicity: once the quotient of the heaps up to N is proved, the
 * periodicity theorem for misère quotients of octal games (Plambeck and
 * Siegel; docs/misere.md states it with its proof) makes it the quotient
 * of all heaps when the heap -> element map is periodic over a long
 * enough stretch (misere_need); heaps of any size are then answered
 * through the period.  The analysis hook also answers sums of several
 * heap games through the quotient of the union of their heaps (qalpha).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/heapgame.h"

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

static uint64_t
hash_bytes(const void *k, size_t len)
{
    const unsigned char *p = k;
    uint64_t h = 1469598103934665603ull ^ len;
    size_t i = 0;
    for (; i + 4 <= len; i += 4) {
        uint32_t w;
        memcpy(&w, p + i, 4);
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 31;
    }
    for (; i < len; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    /* a full avalanche (MurmurHash3's fmix64): the table takes low bits
       for the slot and high bits for the tag */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

#define HT_TAG(h) ((uint64_t)(h) & 0xFFFFFFFF00000000ull)

static void
ht_free(htab *h)
{
    free(h->arena);
    free(h->off);
    free(h->len);
    free(h->slot);
    memset(h, 0, sizeof *h);
}

static size_t
ht_find(const htab *h, const void *k, size_t len)
{
    size_t i;
    uint64_t hv, tag;
    if (h->nslot == 0)
        return SIZE_MAX;
    hv = hash_bytes(k, len);
    tag = HT_TAG(hv);
    i = (size_t)hv & (h->nslot - 1);
    for (;; i = (i + 1) & (h->nslot - 1)) {
        uint64_t v = h->slot[i];
        size_t e;
        if (v == 0)
            return SIZE_MAX;
        if (HT_TAG(v) != tag)
            continue;
        e = (size_t)(v & 0xFFFFFFFFu) - 1;
        if (h->len[e] == len && memcmp(h->arena + h->off[e], k, len) == 0)
            return e;
    }
}

static int
ht_grow(htab *h)
{
    size_t ns = h->nslot ? 2 * h->nslot : 1024, i;
    uint64_t *s = calloc(ns, sizeof *s);
    if (s == NULL)
        return -1;
    for (i = 0; i < h->n; i++) {
        uint64_t hv = hash_bytes(h->arena + h->off[i], h->len[i]);
        size_t j = (size_t)hv & (ns - 1);
        while (s[j] != 0)
            j = (j + 1) & (ns - 1);
        s[j] = HT_TAG(hv) | (uint64_t)(i + 1);
    }
    free(h->slot);
    h->slot = s;
    h->nslot = ns;
    return 0;
}

/* Inserts a key known to be absent; returns its index or SIZE_MAX. */
static size_t
ht_add(htab *h, const void *k, size_t len)
{
    size_t i;
    uint64_t hv;
    if (h->n >= 0xFFFFFFFEu)
        return SIZE_MAX; /* indices are 32 bits in the slots */
    if (2 * (h->n + 1) > h->nslot && ht_grow(h) != 0)
        return SIZE_MAX;
    if (h->n == h->cap) {
        size_t nc = h->cap ? 2 * h->cap : 256;
        size_t *o = realloc(h->off, nc * sizeof *o), *l;
        if (o == NULL)
            return SIZE_MAX;
        h->off = o;
        l = realloc(h->len, nc * sizeof *l);
        if (l == NULL)
            return SIZE_MAX;
        h->len = l;
        h->cap = nc;
    }
    if (h->alen + len + 1 > h->acap) {
        size_t nc = h->acap ? 2 * h->acap : 4096;
        unsigned char *a;
        while (nc < h->alen + len + 1)
            nc *= 2;
        a = realloc(h->arena, nc);
        if (a == NULL)
            return SIZE_MAX;
        h->arena = a;
        h->acap = nc;
    }
    if (len > 0)
        memcpy(h->arena + h->alen, k, len);
    h->off[h->n] = h->alen;
    h->len[h->n] = len;
    h->alen += len;
    hv = hash_bytes(k, len);
    i = (size_t)hv & (h->nslot - 1);
    while (h->slot[i] != 0)
        i = (i + 1) & (h->nslot - 1);
    h->slot[i] = HT_TAG(hv) | (uint64_t)(++h->n);
    return h->n - 1;
}

static void
ht_clear(htab *h)
{
    h->n = 0;
    h->alen = 0;
    if (h->slot != NULL)
        memset(h->slot, 0, h->nslot * sizeof *h->slot);
}

/* ------------------------------------------------------------- positions */

/* A position: a multiset of live heaps (heaps with a move), sorted. */
typedef struct pos {
    uint32_t *h;
    size_t n;
} pos;

static int
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
    htab memo;       /* outcome of positions with a heap > snap_n */
    unsigned char *memo_out;
    size_t memo_cap;
    bt__budget budget;   /* max_memory: the memo is what grows */
    size_t memo_charged; /* bytes of the memo charged to it */
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

/* The bytes the memo holds once a key of klen bytes is added: ht_add's
   and the outcome array's growth rules, foreseen so that the charge comes
   before the allocation (a doubling of a large table must not pass
   max_memory first and be refused after). */
static size_t
memo_bytes_after(const qctx *c, size_t klen)
{
    const htab *h = &c->memo;
    size_t nslot = h->nslot, cap = h->cap, acap = h->acap;
    size_t mcap = c->memo_cap;
    if (2 * (h->n + 1) > nslot)
        nslot = nslot ? 2 * nslot : 1024;
    if (h->n == cap)
        cap = cap ? 2 * cap : 256;
    if (h->alen + klen + 1 > acap) {
        size_t nc = acap ? 2 * acap : 4096;
        while (nc < h->alen + klen + 1)
            nc *= 2;
        acap = nc;
    }
    if (h->n >= mcap)
        mcap = mcap ? 2 * mcap : 4096;
    return nslot * sizeof *h->slot + cap * (sizeof *h->off + sizeof *h->len) +
           acap + mcap;
}

/*
 * Polls the interrupt every 1024 calls, and counts w steps of work against
 * work_max (a step is about what one state of the check's walk costs per
 * 16 elements of its monoid: the walk is nearly all of the work).
 */
static bt_status
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

static bt_status
poll(qctx *c)
{
    return poll_w(c, 1);
}

typedef struct optcol {
    uint32_t *v;
    size_t n, cap;
    int bad;
} optcol;

static bt_status
on_opt(void *ud, const mpz_t *to, size_t nto)
{
    optcol *o = ud;
    uint32_t a = 0, b = 0;
    if (nto > 2)
        return BT_EINVAL;
    if (nto >= 1)
        a = (uint32_t)mpz_get_ui(to[0]);
    if (nto == 2)
        b = (uint32_t)mpz_get_ui(to[1]);
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    if (o->n + 2 > o->cap) {
        size_t nc = o->cap ? 2 * o->cap : 16;
        uint32_t *p = realloc(o->v, nc * sizeof *p);
        if (p == NULL)
            return BT_ENOMEM;
        o->v = p;
        o->cap = nc;
    }
    o->v[o->n++] = a;
    o->v[o->n++] = b;
    return BT_OK;
}

/* The options of heap h from the ruleset, as pairs. */
static bt_status
load_options(qctx *c, size_t h)
{
    optcol o = {NULL, 0, 0, 0};
    mpz_t x;
    bt_status st;
    bt_game *g = c->g;
    size_t gi = 0, i;
    if (c->al != NULL) {
        gi = (h - 1) % c->al->ng;
        g = c->al->games[gi];
        h = (h - 1) / c->al->ng + 1;
    }
    mpz_init_set_ui(x, (unsigned long)h);
    st = g->rules->options(g, (const mpz_t *)&x, on_opt, &o, c->lim,
                           c->diag);
    mpz_clear(x);
    if (c->al != NULL) {
        /* sizes to letters, each pair in order */
        h = (h - 1) * c->al->ng + gi + 1;
        for (i = 0; st == BT_OK && i < o.n; i++)
            if (o.v[i] != 0)
                o.v[i] = (uint32_t)((o.v[i] - 1) * c->al->ng + gi + 1);
        for (i = 0; st == BT_OK && i + 1 < o.n; i += 2)
            if (o.v[i] > o.v[i + 1]) {
                uint32_t t = o.v[i];
                o.v[i] = o.v[i + 1];
                o.v[i + 1] = t;
            }
    }
    if (st != BT_OK) {
        free(o.v);
        return st == BT_EINVAL
                   ? bt__fail(c->diag, BT_EINVAL,
                              "%s: a move leaves more than two heaps",
                              c->g->spec)
                   : st;
    }
    c->opt[h] = o.v;
    c->nopt[h] = o.n / 2;
    return BT_OK;
}

/* Appends heap h to a position under construction if it is live. */
static void
push_heap(const qctx *c, uint32_t *buf, size_t *len, uint32_t h)
{
    if (h != 0 && c->nopt[h] > 0)
        buf[(*len)++] = h;
}

/* ----------------------------------------------------- outcome by search */

/* Heaps of an option kept on the stack by outcome() (longer: malloc). */
#define OUTCOME_STACK 32
#define KEY_STACK 64

/* *p_out = 1 when the position (sorted, live heaps) is a misère P. */
static bt_status
outcome(qctx *c, const uint32_t *h, size_t len, int *p_out)
{
    size_t i, j, e, r, klen;
    uint32_t *buf, sbuf[OUTCOME_STACK];
    unsigned char skey[KEY_STACK], *kb = NULL;
    const void *key;
    bt_status st = BT_OK;
    if (len == 0) {
        *p_out = 0; /* no move: the player to move has won */
        return BT_OK;
    }
    if (h[len - 1] <= c->snap_n && c->snap_trans != NULL) {
        size_t x = 0;
        for (i = 0; i < len; i++)
            x = c->snap_trans[x * (c->snap_n + 1) + h[i]];
        *p_out = c->snap_p[x];
        return BT_OK;
    }
    /* the memo's key: one byte per heap when every heap is below 256
       (letters up to 255), else the 32-bit heaps; the two never collide,
       since a live heap is never 0 and a 32-bit heap below 2^24 has a zero
       byte */
    if (h[len - 1] < 256) {
        kb = len <= KEY_STACK ? skey : malloc(len);
        if (kb == NULL)
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
        for (i = 0; i < len; i++)
            kb[i] = (unsigned char)h[i];
        key = kb;
        klen = len;
    } else {
        key = h;
        klen = len * sizeof *h;
    }
    e = ht_find(&c->memo, key, klen);
    if (e != SIZE_MAX) {
        if (kb != NULL && kb != skey)
            free(kb);
        *p_out = c->memo_out[e];
        return BT_OK;
    }
    if ((st = poll(c)) != BT_OK)
        goto out;
    /* the options' positions: on the stack when short (most are) */
    buf = len + 2 <= OUTCOME_STACK ? sbuf : malloc((len + 2) * sizeof *buf);
    if (buf == NULL) {
        st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
        goto out;
    }
    *p_out = 1;
    /* the largest heap first: the options of the newest heap leave
       positions the snapshot answers at once, and one P option ends it;
       then the others, smallest first (cheaper searches) */
    for (r = 0; r < len && *p_out; r++) {
        i = r == 0 ? len - 1 : r - 1;
        if (r > 0 && (i == len - 1 || (i > 0 && h[i] == h[i - 1]) ||
                      h[i] == h[len - 1]))
            continue;
        for (j = 0; j < c->nopt[h[i]] && *p_out; j++) {
            size_t k, m = 0;
            int cp;
            uint32_t oa = c->opt[h[i]][2 * j], ob = c->opt[h[i]][2 * j + 1];
            if (oa == 0 || c->nopt[oa] == 0) {
                oa = ob;
                ob = 0;
            }
            if (ob != 0 && c->nopt[ob] == 0)
                ob = 0;
            if (oa == 0 || c->nopt[oa] == 0)
                oa = 0;
            /* merge h minus h[i] with oa <= ob (0: none), keeping order */
            for (k = 0; k < len; k++) {
                if (k == i)
                    continue;
                while (oa != 0 && oa <= h[k]) {
                    buf[m++] = oa;
                    oa = ob;
                    ob = 0;
                }
                buf[m++] = h[k];
            }
            while (oa != 0) {
                buf[m++] = oa;
                oa = ob;
                ob = 0;
            }
            if ((st = outcome(c, buf, m, &cp)) != BT_OK) {
                if (buf != sbuf)
                    free(buf);
                goto out;
            }
            if (cp)
                *p_out = 0;
        }
    }
    if (buf != sbuf)
        free(buf);
    if (c->memo.n >= c->lim->max_search) {
        st = bt__fail(c->diag, BT_ELIMIT,
                      "the misère quotient needs more than %zu searched "
                      "positions (the max_search limit)",
                      c->lim->max_search);
        goto out;
    }
    {
        size_t need = memo_bytes_after(c, klen);
        if (need > c->memo_charged) {
            st = bt__budget_charge(&c->budget, need - c->memo_charged,
                                   c->diag);
            if (st != BT_OK)
                goto out;
            c->memo_charged = need;
        }
    }
    e = ht_add(&c->memo, key, klen);
    if (e == SIZE_MAX) {
        st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
        goto out;
    }
    if (e >= c->memo_cap) {
        size_t nc = c->memo_cap ? 2 * c->memo_cap : 4096;
        unsigned char *o = realloc(c->memo_out, nc);
        if (o == NULL) {
            st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
            goto out;
        }
        c->memo_out = o;
        c->memo_cap = nc;
    }
    c->memo_out[e] = (unsigned char)*p_out;
out:
    if (kb != NULL && kb != skey)
        free(kb);
    return st;
}

/* Outcome of a + b (+ one more heap x when x != 0). */
static bt_status
outcome_sum(qctx *c, const pos *a, uint32_t x, const pos *b, int *p_out)
{
    size_t m = 0, i;
    bt_status st;
    uint32_t *buf = malloc((a->n + b->n + 1) * sizeof *buf + 1);
    if (buf == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (i = 0; i < a->n; i++)
        buf[m++] = a->h[i];
    for (i = 0; i < b->n; i++)
        buf[m++] = b->h[i];
    push_heap(c, buf, &m, x);
    qsort(buf, m, sizeof *buf, cmp_u32);
    st = outcome(c, buf, m, p_out);
    free(buf);
    return st;
}

/* -------------------------------------------------------------- learning */

static bt_status
pos_copy(pos *dst, const uint32_t *h, size_t n, uint32_t extra)
{
    dst->h = malloc((n + 1) * sizeof *dst->h);
    if (dst->h == NULL)
        return BT_ENOMEM;
    if (n > 0)
        memcpy(dst->h, h, n * sizeof *h);
    dst->n = n;
    if (extra != 0)
        dst->h[dst->n++] = extra;
    qsort(dst->h, dst->n, sizeof *dst->h, cmp_u32);
    return BT_OK;
}

/* Fills cell[a][t] for t in [t0, ncols). */
static bt_status
fill_cells(qctx *c, size_t s, size_t a, size_t t0)
{
    size_t t;
    bt_status st;
    for (t = t0; t < c->ncols; t++) {
        int p;
        if ((st = outcome_sum(c, &c->rows[s].rep, (uint32_t)a, &c->cols[t],
                              &p)) != BT_OK)
            return st;
        c->rows[s].cell[a][t] = (unsigned char)p;
    }
    return BT_OK;
}

static bt_status
ensure_letters(qctx *c, size_t n)
{
    size_t s, a;
    if (n <= c->cap_n)
        return BT_OK;
    {
        size_t nc = c->cap_n ? 2 * c->cap_n : 16;
        uint32_t *tr;
        while (nc < n)
            nc *= 2;
        for (s = 0; s < c->nrows; s++) {
            unsigned char **cl = realloc(c->rows[s].cell,
                                         (nc + 1) * sizeof *cl);
            if (cl == NULL)
                return BT_ENOMEM;
            for (a = c->cap_n + 1; a <= nc; a++)
                cl[a] = NULL;
            c->rows[s].cell = cl;
        }
        {
            uint32_t **o = realloc(c->opt, (nc + 1) * sizeof *o);
            size_t *no;
            if (o == NULL)
                return BT_ENOMEM;
            c->opt = o;
            no = realloc(c->nopt, (nc + 1) * sizeof *no);
            if (no == NULL)
                return BT_ENOMEM;
            c->nopt = no;
            for (a = c->cap_n + 1; a <= nc; a++) {
                c->opt[a] = NULL;
                c->nopt[a] = 0;
            }
            if (c->cap_n == 0) {
                c->opt[0] = NULL;
                c->nopt[0] = 0;
            }
        }
        tr = calloc(c->caprows * (nc + 1) + 1, sizeof *tr);
        if (tr == NULL)
            return BT_ENOMEM;
        for (s = 0; s < c->nrows; s++)
            for (a = 0; a <= c->cap_n; a++)
                tr[s * (nc + 1) + a] = c->trans[s * (c->cap_n + 1) + a];
        free(c->trans);
        c->trans = tr;
        c->cap_n = nc;
    }
    return BT_OK;
}

/* Allocates the cells of letter a of row s (live letters only). */
static bt_status
alloc_cells(qctx *c, size_t s, size_t a)
{
    c->rows[s].cell[a] = calloc(c->tcap ? c->tcap : 1, 1);
    return c->rows[s].cell[a] ? BT_OK : BT_ENOMEM;
}

static bt_status
add_row(qctx *c, const uint32_t *h, size_t n, uint32_t extra)
{
    size_t s = c->nrows, a;
    bt_status st;
    if (s == c->caprows) {
        size_t nc = c->caprows ? 2 * c->caprows : 64;
        row *r = realloc(c->rows, nc * sizeof *r);
        uint32_t *tr;
        if (r == NULL)
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
        c->rows = r;
        tr = realloc(c->trans, (nc * (c->cap_n + 1) + 1) * sizeof *tr);
        if (tr == NULL)
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
        c->trans = tr;
        c->caprows = nc;
    }
    if (s >= c->lim->max_table_piles)
        return bt__fail(c->diag, BT_ELIMIT,
                        "the misère quotient of %s has more than %zu "
                        "elements (the max_table_piles limit)",
                        c->g->spec, c->lim->max_table_piles);
    memset(&c->rows[s], 0, sizeof c->rows[s]);
    c->rows[s].cell = calloc(c->cap_n + 1, sizeof *c->rows[s].cell);
    if (c->rows[s].cell == NULL ||
        pos_copy(&c->rows[s].rep, h, n, extra) != BT_OK) {
        if (c->rows[s].cell != NULL)
            free(c->rows[s].cell);
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    }
    c->nrows++;
    for (a = 0; a <= c->n; a++) {
        if (a > 0 && c->nopt[a] == 0)
            continue;
        if (alloc_cells(c, s, a) != BT_OK)
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
        if ((st = fill_cells(c, s, a, 0)) != BT_OK)
            return st;
    }
    return BT_OK;
}

static bt_status
add_col(qctx *c, const uint32_t *h, size_t n)
{
    size_t t = c->ncols, s, a;
    bt_status st;
    if (t == c->capcols) {
        size_t nc = c->capcols ? 2 * c->capcols : 64;
        pos *p = realloc(c->cols, nc * sizeof *p);
        if (p == NULL)
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
        c->cols = p;
        c->capcols = nc;
    }
    if (t + 1 > c->tcap) {
        size_t nc = c->tcap ? 2 * c->tcap : 64;
        for (s = 0; s < c->nrows; s++)
            for (a = 0; a <= c->n; a++) {
                unsigned char *q;
                if (c->rows[s].cell[a] == NULL)
                    continue;
                q = realloc(c->rows[s].cell[a], nc);
                if (q == NULL)
                    return bt__fail(c->diag, BT_ENOMEM, "out of memory");
                c->rows[s].cell[a] = q;
            }
        c->tcap = nc;
    }
    if (pos_copy(&c->cols[t], h, n, 0) != BT_OK)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    c->ncols++;
    for (s = 0; s < c->nrows; s++)
        for (a = 0; a <= c->n; a++)
            if (c->rows[s].cell[a] != NULL &&
                (st = fill_cells(c, s, a, t)) != BT_OK)
                return st;
    return BT_OK;
}

/*
 * Makes the table closed: every row + letter matches a row.  Fills trans.
 * Rows stay pairwise distinct, so each cell vector names one element.
 */
static bt_status
close_table(qctx *c)
{
    size_t s, a;
    bt_status st;
    ht_clear(&c->rowtab);
    for (s = 0; s < c->nrows; s++)
        if (ht_add(&c->rowtab, c->rows[s].cell[0], c->ncols) == SIZE_MAX)
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (s = 0; s < c->nrows; s++) {
        TR(c, s, 0) = (uint32_t)s;
        for (a = 1; a <= c->n; a++) {
            size_t r;
            if (c->nopt[a] == 0) {
                TR(c, s, a) = (uint32_t)s;
                continue;
            }
            r = ht_find(&c->rowtab, c->rows[s].cell[a], c->ncols);
            if (r == SIZE_MAX) {
                r = c->nrows;
                if ((st = add_row(c, c->rows[s].rep.h, c->rows[s].rep.n,
                                  (uint32_t)a)) != BT_OK)
                    return st;
                if (ht_add(&c->rowtab, c->rows[r].cell[0], c->ncols) ==
                    SIZE_MAX)
                    return bt__fail(c->diag, BT_ENOMEM, "out of memory");
                TR(c, r, 0) = (uint32_t)r;
            }
            TR(c, s, a) = (uint32_t)r;
        }
    }
    return BT_OK;
}

/*
 * Counterexample analysis (Rivest and Schapire 1993): w[0..k-1] is a word
 * of letters read from state x0, and alpha_i = o(rep(x_i) +
 * w[i..k-1]) with x_i the state after i letters.  Given alpha_0 !=
 * alpha_kstop (with x_kstop's row deciding alpha_kstop), some i has
 * alpha_i != alpha_{i+1}: the suffix w[i+1..k-1] separates rep(x_i) +
 * w_i from rep(x_{i+1}) and becomes a new column.
 */
static bt_status
refine(qctx *c, size_t x0, const uint32_t *w, size_t k, size_t kstop)
{
    size_t i, x;
    int prev = -1;
    bt_status st;
    pos suf;
    suf.h = malloc((k + 1) * sizeof *suf.h);
    if (suf.h == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    x = x0;
    for (i = 0; i <= kstop; i++) {
        int al;
        suf.n = k - i;
        memcpy(suf.h, w + i, suf.n * sizeof *suf.h);
        qsort(suf.h, suf.n, sizeof *suf.h, cmp_u32);
        if ((st = outcome_sum(c, &c->rows[x].rep, 0, &suf, &al)) != BT_OK)
            break;
        if (prev >= 0 && al != prev) {
            /* separates rep(x_{i-1}) + w_{i-1} from rep(x_i): column
               w[i..k-1] */
            st = add_col(c, suf.h, suf.n);
            free(suf.h);
            return st;
        }
        prev = al;
        if (i < k)
            x = TR(c, x, w[i]);
    }
    free(suf.h);
    if (st != BT_OK)
        return st;
    return bt__fail(c->diag, BT_EINVAL,
                    "internal: a counterexample without a distinguishing "
                    "suffix");
}

/* The state reached from x by the heaps of position p. */
static size_t
run(const qctx *c, size_t x, const pos *p)
{
    size_t i;
    for (i = 0; i < p->n; i++)
        x = TR(c, x, p->h[i]);
    return x;
}

/*
 * Commutativity of the letters: trans(trans(s,a),b) = trans(trans(s,b),a).
 * Returns 1 with a refinement made, 0 when they commute.
 */
static bt_status
check_commute(qctx *c, int *refined)
{
    size_t s, a, b, t;
    bt_status st;
    *refined = 0;
    for (s = 0; s < c->nrows; s++)
        for (a = 1; a <= c->n; a++) {
            if (c->nopt[a] == 0)
                continue;
            for (b = a + 1; b <= c->n; b++) {
                size_t r1, r2, k = 0, kstop;
                uint32_t *w;
                int o1, o2, og;
                if (c->nopt[b] == 0)
                    continue;
                r1 = TR(c, TR(c, s, a), b);
                r2 = TR(c, TR(c, s, b), a);
                if (r1 == r2)
                    continue;
                for (t = 0; t < c->ncols; t++)
                    if (c->rows[r1].cell[0][t] != c->rows[r2].cell[0][t])
                        break;
                w = malloc((2 + c->cols[t].n) * sizeof *w);
                if (w == NULL)
                    return bt__fail(c->diag, BT_ENOMEM, "out of memory");
                w[0] = (uint32_t)a;
                w[1] = (uint32_t)b;
                kstop = 2;
                memcpy(w + 2, c->cols[t].h, c->cols[t].n * sizeof *w);
                k = 2 + c->cols[t].n;
                o1 = c->rows[r1].cell[0][t];
                o2 = c->rows[r2].cell[0][t];
                {
                    pos ab = {w, 2};
                    uint32_t *sorted = malloc((k + c->rows[s].rep.n) *
                                              sizeof *sorted);
                    pos gp;
                    if (sorted == NULL) {
                        free(w);
                        return bt__fail(c->diag, BT_ENOMEM,
                                        "out of memory");
                    }
                    (void)ab;
                    memcpy(sorted, w, k * sizeof *w);
                    memcpy(sorted + k, c->rows[s].rep.h,
                           c->rows[s].rep.n * sizeof *w);
                    gp.h = sorted;
                    gp.n = k + c->rows[s].rep.n;
                    qsort(sorted, gp.n, sizeof *sorted, cmp_u32);
                    {
                        pos e = {NULL, 0};
                        st = outcome_sum(c, &gp, 0, &e, &og);
                    }
                    free(sorted);
                    if (st != BT_OK) {
                        free(w);
                        return st;
                    }
                }
                /* o(G) differs from one of the two predictions */
                if (og == o1) {
                    (void)o2;
                    w[0] = (uint32_t)b;
                    w[1] = (uint32_t)a;
                }
                st = refine(c, s, w, k, kstop);
                free(w);
                if (st == BT_OK)
                    *refined = 1;
                return st;
            }
        }
    return BT_OK;
}

/* ------------------------------------------------------------ the proof */

typedef struct vnode {
    size_t parent;
    uint32_t letter;
    unsigned char settled; /* least-first walk: its cost is final */
    uint64_t cost;         /* least-first walk: the cost of its word */
} vnode;

/* A binary heap of (cost, node) for the least-first walk. */
typedef struct vheap {
    uint64_t *cost;
    size_t *node;
    size_t n, cap;
} vheap;

static int
vheap_push(vheap *q, uint64_t cost, size_t node)
{
    size_t i;
    if (q->n == q->cap) {
        size_t nc = q->cap ? 2 * q->cap : 1024;
        uint64_t *cs = realloc(q->cost, nc * sizeof *cs);
        size_t *ns;
        if (cs == NULL)
            return -1;
        q->cost = cs;
        ns = realloc(q->node, nc * sizeof *ns);
        if (ns == NULL)
            return -1;
        q->node = ns;
        q->cap = nc;
    }
    for (i = q->n++; i > 0 && q->cost[(i - 1) / 2] > cost; i = (i - 1) / 2) {
        q->cost[i] = q->cost[(i - 1) / 2];
        q->node[i] = q->node[(i - 1) / 2];
    }
    q->cost[i] = cost;
    q->node[i] = node;
    return 0;
}

static size_t
vheap_pop(vheap *q, uint64_t *cost)
{
    size_t top = q->node[0], i = 0, last = --q->n;
    *cost = q->cost[0];
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= last)
            break;
        if (k + 1 < last && q->cost[k + 1] < q->cost[k])
            k++;
        if (q->cost[k] >= q->cost[last])
            break;
        q->cost[i] = q->cost[k];
        q->node[i] = q->node[k];
        i = k;
    }
    q->cost[i] = q->cost[last];
    q->node[i] = q->node[last];
    return top;
}

/* The word of node p (its letters from the root), then letter a (0:
   none), malloc'd into *w, *len. */
static int
path_word(const vnode *nodes, size_t p, uint32_t a, uint32_t **w,
          size_t *len)
{
    size_t q = p, d = a != 0;
    while (q != 0) {
        d++;
        q = nodes[q].parent;
    }
    *w = malloc((d + 1) * sizeof **w);
    if (*w == NULL)
        return -1;
    *len = d;
    if (a != 0)
        (*w)[--d] = a;
    for (q = p; q != 0; q = nodes[q].parent)
        (*w)[--d] = nodes[q].letter;
    return 0;
}

/*
 * The exact check of a candidate (ord elements, transitions tr[x * stride +
 * a] for the letters a = 1..c->n, P-portion isp, multiplication mul): walks
 * every reachable triple (x, has a move, U) where U = {y : y * m in P for
 * an option m}, and checks x in P <=> (has a move and 1 not in U).  On
 * failure sets *found and returns in *bad (malloc'd, *badlen letters) the
 * word of a position where the check fails.  With monoid, tr and mul are
 * those of a monoid (x * (a b) = (x * a) * b), and an option's element is
 * found by one product (a learner's hypothesis need not be one: its
 * transitions are followed letter by letter).  With least, the states are
 * walked least cost first (Dijkstra), a heap of s counters costing s *
 * 2^20 - 1, and checked as they are taken: every option of a position
 * costs less than the position (it has fewer counters, or as many in
 * more heaps), so the position found is one whose options all pass, and
 * by induction on the cost all are predicted right: the candidate gets
 * that position itself wrong.
 */
static bt_status
check_walk(qctx *c, size_t ord, const uint32_t *tr, size_t stride,
           const unsigned char *isp, const uint32_t *mul, int monoid,
           int least, uint32_t **bad, size_t *badlen_out, int *found_out)
{
    vheap pq = {NULL, NULL, 0, 0};
    uint32_t *col = NULL; /* col[a * ord + y] = y * a, by letter */
    /* the distinct elements of the options of letter a: oel[ooff[a]..] */
    uint32_t *oel = NULL;
    size_t *ooff = NULL;
    size_t nw = (ord + 63) / 64, klen, i, a, head = 0;
    /* a key: U (nw words, first, so aligned), x, has-a-move */
    size_t keybytes = nw * 8 + sizeof(uint32_t) + 1;
    size_t kstride = (keybytes + 7) & ~(size_t)7;
    uint64_t *vset = NULL; /* vset[z]: {y : y*z in P} */
    unsigned char *key = NULL;
    vnode *nodes = NULL;
    size_t nnodes = 0, capnodes = 0;
    htab seen;
    bt_status st = BT_OK;
    uint32_t *badword = NULL;
    size_t badlen = 0;
    int found = 0;

    *bad = NULL;
    *badlen_out = 0;
    *found_out = 0;
    memset(&seen, 0, sizeof seen);
    klen = keybytes;
    vset = calloc(ord * nw + 1, sizeof *vset);
    key = malloc(2 * kstride);
    if (vset == NULL || key == NULL) {
        st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
        goto done;
    }
    col = malloc((c->n + 1) * ord * sizeof *col + 1);
    ooff = malloc((c->n + 2) * sizeof *ooff);
    for (i = 0, a = 1; a <= c->n; a++)
        i += c->nopt[a];
    oel = malloc((i + 1) * sizeof *oel);
    if (col == NULL || ooff == NULL || oel == NULL)
        goto nomem;
    ooff[0] = ooff[1] = 0;
    for (a = 1; a <= c->n; a++) {
        size_t j, k = ooff[a];
        for (j = 0; j < c->nopt[a]; j++) {
            size_t z = 0, m;
            if (c->opt[a][2 * j] != 0)
                z = tr[z * stride + c->opt[a][2 * j]];
            if (c->opt[a][2 * j + 1] != 0)
                z = tr[z * stride + c->opt[a][2 * j + 1]];
            for (m = ooff[a]; m < k && oel[m] != z; m++)
                ;
            if (m == k)
                oel[k++] = (uint32_t)z;
        }
        ooff[a + 1] = k;
    }
    for (a = 1; a <= c->n; a++)
        for (i = 0; i < ord; i++)
            col[a * ord + i] = tr[i * stride + a];
    for (i = 0; i < ord; i++) {
        size_t y;
        for (y = 0; y < ord; y++)
            if (isp[mul[y * ord + i]])
                vset[i * nw + y / 64] |= 1ull << (y % 64);
    }
    if (isp[0]) {
        /* the empty position would be P */
        badword = malloc(sizeof *badword);
        if (badword == NULL)
            goto nomem;
        found = 1;
        goto done;
    }
    memset(key, 0, keybytes);
    if (ht_add(&seen, key, klen) == SIZE_MAX)
        goto nomem;
    capnodes = 1024;
    nodes = malloc(capnodes * sizeof *nodes);
    if (nodes == NULL)
        goto nomem;
    nodes[0].parent = SIZE_MAX;
    nodes[0].letter = 0;
    nodes[0].cost = 0;
    nodes[0].settled = 0;
    nnodes = 1;
    if (least && vheap_push(&pq, 0, 0) != 0)
        goto nomem;
    while (!found) {
        const unsigned char *k0;
        uint32_t x;
        if (least) {
            uint64_t pc;
            if (pq.n == 0)
                break;
            head = vheap_pop(&pq, &pc);
            if (nodes[head].settled || pc != nodes[head].cost)
                continue; /* a stale entry */
            nodes[head].settled = 1;
            k0 = seen.arena + seen.off[head];
            memcpy(&x, k0 + nw * 8, sizeof x);
            if (head != 0 && isp[x] != !(k0[0] & 1)) {
                if (path_word(nodes, head, 0, &badword, &badlen) != 0)
                    goto nomem;
                found = 1;
                break;
            }
        } else if (head >= nnodes)
            break;
        k0 = seen.arena + seen.off[head];
        memcpy(&x, k0 + nw * 8, sizeof x);
        for (a = 1; a <= c->n && !found; a++) {
            unsigned char *nk = key + kstride;
            uint64_t *nu;
            uint32_t nx;
            size_t y, j, idx;
            int xp, rule;
            uint64_t ubuf, ncost;
            if (c->nopt[a] == 0)
                continue;
            if ((st = poll_w(c, 1 + ord / 16)) != BT_OK)
                goto done;
            k0 = seen.arena + seen.off[head]; /* arena may have moved */
            memset(nk, 0, keybytes);
            nx = tr[(size_t)(x) * stride + (a)];
            memcpy(nk + nw * 8, &nx, sizeof nx);
            nk[nw * 8 + sizeof nx] = 1;
            nu = (uint64_t *)(void *)nk;
            /* y in U' iff y*a in U, or y * x * o in P for an option o */
            for (y = 0; y < ord; y++) {
                size_t ya = col[a * ord + y];
                memcpy(&ubuf, k0 + (ya / 64) * 8, 8);
                if ((ubuf >> (ya % 64)) & 1)
                    nu[y / 64] |= 1ull << (y % 64);
            }
            for (j = ooff[a]; monoid && j < ooff[a + 1]; j++) {
                size_t z = mul[(size_t)x * ord + oel[j]], w2;
                for (w2 = 0; w2 < nw; w2++)
                    nu[w2] |= vset[z * nw + w2];
            }
            for (j = 0; !monoid && j < c->nopt[a]; j++) {
                size_t z = x, w2;
                if (c->opt[a][2 * j] != 0)
                    z = tr[z * stride + c->opt[a][2 * j]];
                if (c->opt[a][2 * j + 1] != 0)
                    z = tr[z * stride + c->opt[a][2 * j + 1]];
                for (w2 = 0; w2 < nw; w2++)
                    nu[w2] |= vset[z * nw + w2];
            }
            xp = isp[nx];
            rule = !(nu[0] & 1); /* has a move; no option in P */
            idx = ht_find(&seen, nk, klen);
            if (!least && xp != rule) {
                /* the word of the parent, then a */
                if (path_word(nodes, head, (uint32_t)a, &badword,
                              &badlen) != 0)
                    goto nomem;
                found = 1;
                break;
            }
            ncost = nodes[head].cost +
                    (((uint64_t)(c->al ? (a - 1) / c->al->ng + 1 : a))
                     << 20) -
                    1;
            if (idx != SIZE_MAX) {
                if (least && !nodes[idx].settled && ncost < nodes[idx].cost) {
                    nodes[idx].cost = ncost;
                    nodes[idx].parent = head;
                    nodes[idx].letter = (uint32_t)a;
                    if (vheap_push(&pq, ncost, idx) != 0)
                        goto nomem;
                }
                continue;
            }
            if (seen.n >= c->lim->max_search) {
                st = bt__fail(c->diag, BT_ELIMIT,
                              "checking the misère quotient of %s needs "
                              "more than %zu states (the max_search limit)",
                              c->g->spec, c->lim->max_search);
                goto done;
            }
            if (least && c->budget.max != 0 &&
                (seen.n + 1) * (kstride + sizeof *nodes + 48) >
                    c->budget.max - c->budget.used) {
                /* a trial's check: within the memory left, uncharged
                   (the budget stays whole for the search) */
                st = bt__fail(c->diag, BT_ELIMIT,
                              "checking a trial quotient needs more than "
                              "the memory left");
                goto done;
            }
            if (ht_add(&seen, nk, klen) == SIZE_MAX)
                goto nomem;
            if (nnodes == capnodes) {
                vnode *nn = realloc(nodes, 2 * capnodes * sizeof *nn);
                if (nn == NULL)
                    goto nomem;
                nodes = nn;
                capnodes *= 2;
            }
            nodes[nnodes].parent = head;
            nodes[nnodes].letter = (uint32_t)a;
            nodes[nnodes].cost = ncost;
            nodes[nnodes].settled = 0;
            if (least && vheap_push(&pq, ncost, nnodes) != 0)
                goto nomem;
            nnodes++;
        }
        if (!least)
            head++;
    }
    goto done;
nomem:
    st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
done:
    free(pq.cost);
    free(pq.node);
    free(col);
    free(oel);
    free(ooff);
    free(vset);
    free(key);
    free(nodes);
    ht_free(&seen);
    if (st == BT_OK && found) {
        *bad = badword;
        *badlen_out = badlen;
        *found_out = 1;
    } else
        free(badword);
    return st;
}

/*
 * The exact check of the learner's candidate (trans, P = column 0).  On
 * failure (*refined = 1) finds a position that the candidate mispredicts
 * and refines the table, unless check_only.
 */
static bt_status
verify(qctx *c, const uint32_t *mul, int *refined, int check_only)
{
    size_t ord = c->nrows, i, badlen = 0;
    unsigned char *isp = malloc(ord + 1);
    uint32_t *badword = NULL;
    bt_status st;
    int found = 0;

    *refined = 0;
    if (isp == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (i = 0; i < ord; i++)
        isp[i] = c->rows[i].cell[0][0];
    st = check_walk(c, ord, c->trans, c->cap_n + 1, isp, mul, check_only, 0,
                    &badword, &badlen, &found);
    free(isp);
    if (st != BT_OK || !found)
        goto done;
    if (check_only) {
        *refined = 1; /* the candidate fails; nothing is learnt */
        goto done;
    }
    /* Which position does the candidate get wrong: G, or an option? */
    {
        pos gp, e = {NULL, 0};
        int og;
        size_t xg;
        if (badword == NULL && badlen == 0 && c->rows[0].cell[0][0]) {
            st = bt__fail(c->diag, BT_EINVAL,
                          "internal: the empty position came out P");
            goto done;
        }
        gp.n = badlen;
        gp.h = malloc((badlen + 2) * sizeof *gp.h);
        if (gp.h == NULL)
            goto nomem;
        memcpy(gp.h, badword, badlen * sizeof *gp.h);
        qsort(gp.h, gp.n, sizeof *gp.h, cmp_u32);
        if ((st = outcome_sum(c, &gp, 0, &e, &og)) != BT_OK) {
            free(gp.h);
            goto done;
        }
        xg = run(c, 0, &gp);
        if (og != c->rows[xg].cell[0][0]) {
            st = refine(c, 0, gp.h, gp.n, gp.n);
            free(gp.h);
            if (st == BT_OK)
                *refined = 1;
            goto done;
        }
        /* an option: replace one heap by its option */
        for (i = 0; i < gp.n && !*refined; i++) {
            uint32_t h = gp.h[i];
            size_t j;
            if (i > 0 && gp.h[i - 1] == h)
                continue;
            for (j = 0; j < c->nopt[h]; j++) {
                pos q;
                size_t m = 0, k, xq;
                int oq;
                q.h = malloc((gp.n + 2) * sizeof *q.h);
                if (q.h == NULL) {
                    free(gp.h);
                    goto nomem;
                }
                for (k = 0; k < gp.n; k++)
                    if (k != i)
                        q.h[m++] = gp.h[k];
                push_heap(c, q.h, &m, c->opt[h][2 * j]);
                push_heap(c, q.h, &m, c->opt[h][2 * j + 1]);
                q.n = m;
                qsort(q.h, q.n, sizeof *q.h, cmp_u32);
                st = outcome_sum(c, &q, 0, &e, &oq);
                xq = run(c, 0, &q);
                if (st == BT_OK && oq != c->rows[xq].cell[0][0]) {
                    st = refine(c, 0, q.h, q.n, q.n);
                    if (st == BT_OK)
                        *refined = 1;
                }
                free(q.h);
                if (st != BT_OK || *refined)
                    break;
            }
            if (st != BT_OK)
                break;
        }
        free(gp.h);
        if (st == BT_OK && !*refined)
            st = bt__fail(c->diag, BT_EINVAL,
                          "internal: the quotient check failed without a "
                          "wrong position");
    }
    goto done;
nomem:
    st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
done:
    free(badword);
    return st;
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

void
bt_quotient_free(bt_quotient *q)
{
    size_t i;
    if (q == NULL)
        return;
    bt_game_free(q->g);
    if (q->games != NULL)
        for (i = 0; i < q->ng; i++)
            bt_game_free(q->games[i]);
    free(q->games);
    free(q->mul);
    free(q->isp);
    free(q->heap);
    if (q->genname)
        for (i = 0; i < q->ngen; i++)
            free(q->genname[i]);
    free(q->genname);
    free(q->genheap);
    if (q->rel)
        for (i = 0; i < q->nrel; i++)
            free(q->rel[i]);
    free(q->rel);
    if (q->word)
        for (i = 0; i < q->order; i++)
            free(q->word[i]);
    free(q->word);
    free(q);
}

bt_game *
bt_quotient_game(const bt_quotient *q)
{
    return q->g;
}
size_t
bt_quotient_upto(const bt_quotient *q)
{
    return q->upto;
}
size_t
bt_quotient_order(const bt_quotient *q)
{
    return q->order;
}
size_t
bt_quotient_p_count(const bt_quotient *q)
{
    return q->pcount;
}
int
bt_quotient_is_p(const bt_quotient *q, size_t x)
{
    return x < q->order && q->isp[x];
}
size_t
bt_quotient_mul(const bt_quotient *q, size_t x, size_t y)
{
    if (x >= q->order || y >= q->order)
        return SIZE_MAX;
    return q->mul[x * q->order + y];
}
size_t
bt_quotient_heap(const bt_quotient *q, size_t h)
{
    return h <= q->upto ? q->heap[h] : 0;
}
int
bt_quotient_period(const bt_quotient *q, size_t *period, size_t *preperiod)
{
    if (!q->proved)
        return 0;
    if (period != NULL)
        *period = q->period;
    if (preperiod != NULL)
        *preperiod = q->preperiod;
    return 1;
}

/* The heap size whose element is that of heap h (h itself up to upto;
   beyond it, through the proved period), or SIZE_MAX. */
static size_t
heap_reduce(const bt_quotient *q, const mpz_t h)
{
    if (mpz_sgn(h) < 0)
        return SIZE_MAX;
    if (mpz_cmp_ui(h, (unsigned long)q->upto) <= 0)
        return (size_t)mpz_get_ui(h);
    if (!q->proved)
        return SIZE_MAX;
    {
        /* preperiod + (h - preperiod) mod period, h > upto >= preperiod */
        size_t per = q->period, hm = (size_t)mpz_fdiv_ui(h, per);
        return q->preperiod + (hm + per - q->preperiod % per) % per;
    }
}

size_t
bt_quotient_heap_at(const bt_quotient *q, const mpz_t h)
{
    size_t r = heap_reduce(q, h);
    return r == SIZE_MAX ? SIZE_MAX : q->heap[r];
}

int
bt_quotient_is_tame(const bt_quotient *q)
{
    return q->tame;
}
size_t
bt_quotient_generator_count(const bt_quotient *q)
{
    return q->ngen;
}
const char *
bt_quotient_generator_name(const bt_quotient *q, size_t i)
{
    return i < q->ngen ? q->genname[i] : NULL;
}
size_t
bt_quotient_generator_heap(const bt_quotient *q, size_t i)
{
    if (i >= q->ngen)
        return 0;
    /* a union's letters: heap (L - 1) / ng + 1 of game (L - 1) % ng */
    return q->ng > 0 ? (q->genheap[i] - 1) / q->ng + 1 : q->genheap[i];
}
size_t
bt_quotient_generator_game(const bt_quotient *q, size_t i)
{
    return i < q->ngen && q->ng > 0 ? (q->genheap[i] - 1) % q->ng : 0;
}
size_t
bt_quotient_game_count(const bt_quotient *q)
{
    return q->ng > 0 ? q->ng : 1;
}
bt_game *
bt_quotient_game_at(const bt_quotient *q, size_t i)
{
    if (q->games != NULL)
        return i < q->ng ? q->games[i] : NULL;
    return i == 0 && q->ng == 0 ? q->g : NULL;
}
size_t
bt_quotient_heap_of(const bt_quotient *q, size_t i, size_t h)
{
    if (q->ng == 0)
        return i == 0 ? bt_quotient_heap(q, h) : 0;
    if (h == 0 || h > q->upto || i >= q->ng)
        return 0;
    return q->heap[(h - 1) * q->ng + i + 1];
}
size_t
bt_quotient_relation_count(const bt_quotient *q)
{
    return q->nrel;
}
const char *
bt_quotient_relation(const bt_quotient *q, size_t i)
{
    return i < q->nrel ? q->rel[i] : NULL;
}
const char *
bt_quotient_word(const bt_quotient *q, size_t x)
{
    return x < q->order ? q->word[x] : NULL;
}

bt_status
bt_quotient_element(size_t *x, const bt_quotient *q, const bt_position *p,
                    bt_diag *diag)
{
    size_t i, e = 0;
    for (i = 0; i < bt_position_size(p); i++) {
        bt_game *g = bt_position_game(p, i);
        const mpz_t *v = bt_position_nums(p, i);
        if (strcmp(g->spec, q->g->spec) != 0)
            return bt__fail(diag, BT_EINVAL,
                            "component %zu is %s, not a heap of %s", i + 1,
                            g->spec, q->g->spec);
        if (heap_reduce(q, v[0]) == SIZE_MAX)
            return bt__fail(diag, BT_ERANGE,
                            "heap %zu is larger than %zu, the bound of the "
                            "quotient (not proved periodic)",
                            i + 1, q->upto);
        e = q->mul[e * q->order + q->heap[heap_reduce(q, v[0])]];
    }
    *x = e;
    return BT_OK;
}

/* The misère Nim quotient of heaps below 2^k (k >= 2; k = 1: order 2), as
   Bouton's sec. 6 gives it: 1 and a (only heaps of 0 and 1: even, odd
   number of ones), and 2 + v (some heap >= 2, nim-sum v). */
static uint32_t
nim_mul(size_t x, size_t y)
{
    if (x < 2 && y < 2)
        return (uint32_t)(x ^ y);
    if (x < 2)
        return (uint32_t)(2 + ((y - 2) ^ x));
    if (y < 2)
        return (uint32_t)(2 + ((x - 2) ^ y));
    return (uint32_t)(2 + ((x - 2) ^ (y - 2)));
}

/* The tame check's search: its budget, and whether it ran out. */
typedef struct tame_search {
    const bt_limits *lim;
    size_t steps; /* images tried, each O(ord) */
    int stop;     /* the budget ran out: the answer is no answer */
} tame_search;

/* Non-zero when (Q, P) is isomorphic to the misère Nim quotient of that
   order.  Backtracks over the images of the generators: up to ord^ngen
   trials, each O(ord * ngen), so it polls the budget every 256 trials
   (sets ts->stop and answers 0 when it runs out). */
static int
iso_extend(const bt_quotient *q, size_t ord, size_t j, uint32_t *img,
           uint32_t *f, uint32_t *finv, size_t *queue, tame_search *ts)
{
    size_t t;
    if (j == q->ngen) {
        size_t x;
        for (x = 0; x < ord; x++)
            if (f[x] == UINT32_MAX)
                return 0;
        return 1;
    }
    for (t = 0; t < ord; t++) {
        uint32_t *f2 = f + ord * 2, *fi2 = finv + ord * 2;
        size_t head = 0, tail = 0, x, i;
        int ok = 1;
        if ((++ts->steps & 255) == 0 && bt__poll(ts->lim) != BT_OK)
            ts->stop = 1;
        if (ts->stop)
            return 0;
        memcpy(f2, f, ord * sizeof *f);
        memcpy(fi2, finv, ord * sizeof *finv);
        img[j] = (uint32_t)t;
        for (x = 0; x < ord; x++)
            if (f2[x] != UINT32_MAX)
                queue[tail++] = x;
        while (head < tail && ok) {
            x = queue[head++];
            for (i = 0; i <= j && ok; i++) {
                size_t y = q->mul[x * q->order + q->heap[q->genheap[i]]];
                uint32_t fy = nim_mul(f2[x], img[i]);
                if (f2[y] == UINT32_MAX) {
                    if (fi2[fy] != UINT32_MAX ||
                        (q->isp[y] != 0) != (fy == 1 || fy == 2))
                        ok = 0;
                    else {
                        f2[y] = fy;
                        fi2[fy] = (uint32_t)y;
                        queue[tail++] = y;
                    }
                } else if (f2[y] != fy)
                    ok = 0;
            }
        }
        if (ok && iso_extend(q, ord, j + 1, img, f2, fi2, queue, ts))
            return 1;
    }
    return 0;
}

/* *tame: whether q is tame (bt_quotient_is_tame); BT_EINTR when the
   budget runs out first, BT_ENOMEM. */
static bt_status
is_tame(int *tame, const bt_quotient *q, const bt_limits *lim,
        bt_diag *diag)
{
    size_t ord = q->order, k;
    uint32_t *f, *finv, *img;
    size_t *queue;
    tame_search ts;
    bt_status st = BT_OK;
    *tame = 0;
    if (ord == 1) {
        *tame = 1; /* no move at all: the trivial quotient */
        return BT_OK;
    }
    if (ord != 2) {
        for (k = 2; k < 13; k++)
            if (ord == ((size_t)1 << k) + 2)
                break;
        if (k == 13)
            return BT_OK;
    }
    f = malloc(ord * (2 * q->ngen + 3) * sizeof *f);
    finv = malloc(ord * (2 * q->ngen + 3) * sizeof *finv);
    img = malloc((q->ngen + 1) * sizeof *img);
    queue = malloc(ord * sizeof *queue);
    if (f == NULL || finv == NULL || img == NULL || queue == NULL) {
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
    } else {
        size_t x;
        for (x = 0; x < ord; x++)
            f[x] = finv[x] = UINT32_MAX;
        f[0] = finv[0] = 0;
        ts.lim = lim;
        ts.steps = 0;
        ts.stop = 0;
        *tame = iso_extend(q, ord, 0, img, f, finv, queue, &ts);
        if (ts.stop)
            st = bt__fail(diag, BT_EINTR,
                          "the time budget ran out while checking whether "
                          "the quotient of order %zu is tame",
                          ord);
    }
    free(f);
    free(finv);
    free(img);
    free(queue);
    return st;
}

static char *
gen_name(size_t i)
{
    char b[32];
    if (i < 26)
        snprintf(b, sizeof b, "%c", (char)('a' + i));
    else
        snprintf(b, sizeof b, "x%zu", i + 1);
    return strdup(b);
}

static void
word_of(bt__buf *b, const bt_quotient *q, const uint16_t *v)
{
    size_t i;
    int any = 0;
    for (i = 0; i < q->ngen; i++) {
        if (v[i] == 0)
            continue;
        bt__buf_puts(b, q->genname[i]);
        if (v[i] > 1)
            bt__buf_printf(b, "^%u", (unsigned)v[i]);
        any = 1;
    }
    if (!any)
        bt__buf_putc(b, '1');
}

typedef struct cand {
    const uint16_t *v;
    size_t r, val;
} cand;

/* Lexicographic, more of the earlier generators first ("a^2" < "ab"). */
static int
cmp_cand(const void *pa, const void *pb)
{
    const cand *x = pa, *y = pb;
    size_t i;
    for (i = 0; i < x->r; i++)
        if (x->v[i] != y->v[i])
            return x->v[i] > y->v[i] ? -1 : 1;
    return 0;
}

static bt_status
add_relation(bt_quotient *q, const uint16_t *m, const uint16_t *nf)
{
    bt__buf b;
    char **nr = realloc(q->rel, (q->nrel + 1) * sizeof *nr);
    if (nr == NULL)
        return BT_ENOMEM;
    q->rel = nr;
    bt__buf_init(&b);
    word_of(&b, q, m);
    bt__buf_puts(&b, " = ");
    word_of(&b, q, nf);
    q->rel[q->nrel] = bt__buf_take(&b);
    if (q->rel[q->nrel] == NULL)
        return BT_ENOMEM;
    q->nrel++;
    return BT_OK;
}

/*
 * Generators, normal words and relations.  The normal word of an element
 * is its least monomial in the graded lexicographic order (degree first,
 * then more of the earlier generators), a monomial order, so the normal
 * words form an order ideal and the relations "m = normal word of m" for
 * the minimal monomials m that are not normal rewrite every monomial to
 * its normal word: with commutativity they present Q.
 */
static bt_status
present(bt_quotient *q, bt_diag *diag)
{
    size_t ord = q->order, h, r = 0, i, x, deg;
    unsigned char *sub = calloc(ord, 1), *have = NULL;
    size_t *stack = malloc(ord * sizeof *stack);
    uint16_t *vec = NULL;  /* vec[x * (r + 1)]: normal word of x */
    size_t *cur = NULL;    /* the elements whose words have degree deg */
    size_t ncur = 0, *nxt = NULL, nnxt;
    uint16_t *cv = NULL;   /* candidate vectors */
    cand *cs = NULL;
    htab std, seen;
    bt_status st = BT_OK;

    memset(&std, 0, sizeof std);
    memset(&seen, 0, sizeof seen);
    q->genname = calloc(q->upto + 1, sizeof *q->genname);
    q->genheap = calloc(q->upto + 1, sizeof *q->genheap);
    q->word = calloc(ord, sizeof *q->word);
    if (sub == NULL || stack == NULL || q->genname == NULL ||
        q->genheap == NULL || q->word == NULL)
        goto nomem;
    sub[0] = 1;
    for (h = 1; h <= q->upto; h++) {
        size_t e = q->heap[h], n = 0, y;
        if (sub[e])
            continue;
        q->genheap[r] = h;
        q->genname[r] = gen_name(r);
        if (q->genname[r] == NULL)
            goto nomem;
        q->ngen = ++r;
        for (y = 0; y < ord; y++)
            if (sub[y])
                stack[n++] = y;
        while (n > 0) {
            size_t z = q->mul[stack[--n] * ord + e];
            if (!sub[z]) {
                sub[z] = 1;
                stack[n++] = z;
            }
        }
    }
    vec = calloc(ord * (r + 1), sizeof *vec);
    have = calloc(ord, 1);
    cur = malloc((ord + 1) * sizeof *cur);
    nxt = malloc((ord + 1) * sizeof *nxt);
    cv = malloc((ord * r + 1) * (r + 1) * sizeof *cv);
    cs = malloc((ord * r + 1) * sizeof *cs);
    if (vec == NULL || have == NULL || cur == NULL || nxt == NULL ||
        cv == NULL || cs == NULL)
        goto nomem;
    have[0] = 1;
    cur[0] = 0;
    ncur = 1;
    if (ht_add(&std, vec, r * sizeof *vec) == SIZE_MAX)
        goto nomem;
    /* every element once: O(ord * r^2) time and memory, r the generators
       (few in the quotients known; at most upto), and no poll */
    for (deg = 1; ncur > 0; deg++) {
        size_t nc = 0, j;
        ht_clear(&seen);
        for (i = 0; i < ncur; i++)
            for (j = 0; j < r; j++) {
                uint16_t *m = cv + nc * (r + 1);
                memcpy(m, vec + cur[i] * (r + 1), (r + 1) * sizeof *m);
                m[j]++;
                if (ht_find(&seen, m, r * sizeof *m) != SIZE_MAX)
                    continue;
                if (ht_add(&seen, m, r * sizeof *m) == SIZE_MAX)
                    goto nomem;
                cs[nc].v = m;
                cs[nc].r = r;
                cs[nc].val = q->mul[cur[i] * ord + q->heap[q->genheap[j]]];
                nc++;
            }
        qsort(cs, nc, sizeof *cs, cmp_cand);
        nnxt = 0;
        for (i = 0; i < nc; i++) {
            uint16_t *m = (uint16_t *)(uintptr_t)cs[i].v;
            size_t val = cs[i].val;
            int minimal = 1;
            if (!have[val]) {
                have[val] = 1;
                memcpy(vec + val * (r + 1), m, (r + 1) * sizeof *m);
                if (ht_add(&std, m, r * sizeof *m) == SIZE_MAX)
                    goto nomem;
                nxt[nnxt++] = val;
                continue;
            }
            for (j = 0; j < r && minimal; j++) {
                if (m[j] == 0)
                    continue;
                m[j]--;
                if (ht_find(&std, m, r * sizeof *m) == SIZE_MAX)
                    minimal = 0;
                m[j]++;
            }
            if (minimal && add_relation(q, m, vec + val * (r + 1)) != BT_OK)
                goto nomem;
        }
        memcpy(cur, nxt, nnxt * sizeof *cur);
        ncur = nnxt;
    }
    for (x = 0; x < ord; x++) {
        bt__buf b;
        bt__buf_init(&b);
        word_of(&b, q, vec + x * (r + 1));
        q->word[x] = bt__buf_take(&b);
        if (q->word[x] == NULL)
            goto nomem;
    }
    goto done;
nomem:
    st = bt__fail(diag, BT_ENOMEM, "out of memory");
done:
    ht_free(&std);
    ht_free(&seen);
    free(sub);
    free(stack);
    free(vec);
    free(have);
    free(cur);
    free(nxt);
    free(cv);
    free(cs);
    return st;
}

/* ----------------------------------------------------------- periodicity */

/*
 * The periodicity theorem for misère quotients of octal games (docs/
 * misere.md): for a game whose moves on a heap of n counters are "take k
 * (k <= t) and leave nothing (n = k), one heap n - k, or two heaps a + b =
 * n - k", with a finite code, if the proved quotient Q_N of the heaps up to
 * N has Phi_N(n + p) = Phi_N(n) for all n0 <= n <= N - p, then Q_N is the
 * quotient of ALL heaps and Phi(n + p) = Phi(n) for every n >= n0, as soon
 * as N reaches the bound below.  Returns that bound (the least N that
 * proves period p from n0), or SIZE_MAX when no theorem applies to g.
 *
 * The bound is MisereSolver's criterion (2 n0 + 2 p + t + 2 values, heaps
 * 0..N, for a game with splits), with n0 counted as at least 1; without
 * splits, n0 + p + t.  The proof in docs/misere.md needs 2 n0 + 2 p + t - 1
 * and n0 + p + t - 1.
 */
static size_t
misere_need(const bt_game *g, size_t n0, size_t p)
{
    const bt__heap_game *hg = bt__heap_of(g);
    const bt__heap_rules *r;
    size_t m = n0 > 0 ? n0 : 1;
    if (hg == NULL) /* no rules to bound the proof by */
        return SIZE_MAX;
    r = &hg->rules;
    if (r->general || r->unequal || r->ntriple > 0 || r->blen > 0 ||
        (r->kind != BT__HEAP_OCTAL && r->kind != BT__HEAP_SUB &&
         r->kind != BT__HEAP_TB))
        return SIZE_MAX;
    if (r->nsplit > 0)
        return 2 * m + 2 * p + r->t + 1;
    return m + p + r->t;
}

/*
 * The Z-function of x[0..len-1] read backwards (back) or forwards: z[k] =
 * the number of j < len - k with x(j) = x(j + k), where x(j) is x[len-1-j]
 * backwards.  Gusfield's linear algorithm (Algorithms on Strings, Trees
 * and Sequences, 1997, sec. 1.4): at most 2 len comparisons.
 */
static void
z_function(const uint32_t *x, size_t len, int back, size_t *z)
{
    size_t k, l = 0, r = 0;
#define ZAT(j) (back ? x[len - 1 - (j)] : x[(j)])
    if (len == 0)
        return;
    z[0] = len;
    for (k = 1; k < len; k++) {
        size_t m = 0;
        if (k < r) {
            m = z[k - l];
            if (m > r - k)
                m = r - k;
        }
        while (k + m < len && ZAT(m) == ZAT(k + m))
            m++;
        z[k] = m;
        if (k + m > r) {
            l = k;
            r = k + m;
        }
    }
#undef ZAT
}

/*
 * Looks for a period of the heap map e[0..n] that the theorem proves.  On
 * success sets *period and *preperiod to the least ones and returns 1; 0
 * when none, -1 when out of memory.  Linear in n: for every p at once, the
 * least n0 with e[j] = e[j + p] for n0 <= j <= n - p is n + 1 - p - z[p],
 * z the Z-function of e read backwards (a scan back from the end for each
 * p took O(n^2), at every heap of a run until proved); the least period
 * is the least divisor d of a proved p with w[j] = w[j + d] for j < p - d,
 * w = e[n0..n0+p-1] (inside e: the bound is at least n0 + p), from the
 * Z-function of w.
 */
static int
detect_period(const bt_game *g, const uint32_t *e, size_t n, size_t *period,
              size_t *preperiod)
{
    size_t p, i = 0, d, m, *z;
    if (misere_need(g, 1, 1) == SIZE_MAX)
        return 0;
    z = malloc((n + 1) * sizeof *z);
    if (z == NULL)
        return -1;
    z_function(e, n + 1, 1, z);
    for (p = 1; p <= n; p++) {
        i = n + 1 - p - z[p]; /* n0 */
        if (misere_need(g, i, p) <= n)
            break;
    }
    if (p > n) {
        free(z);
        return 0;
    }
    z_function(e + i, p, 0, z);
    for (d = 1; d < p; d++)
        if (p % d == 0 && z[d] >= p - d)
            break;
    free(z);
    /* n0 = i: the element of heap j is EXT(j) */
#define EXT(j) ((j) <= n ? e[(j)] : e[i + ((j) - i) % p])
    m = i;
    while (m > 0 && e[m - 1] == EXT(m - 1 + d))
        m--;
#undef EXT
    *period = d;
    *preperiod = m;
    return 1;
}

/* ------------------------------------------------------------ the driver */

static void
ctx_free(qctx *c)
{
    size_t s, a;
    for (s = 0; s < c->nrows; s++) {
        for (a = 0; a <= c->cap_n; a++)
            free(c->rows[s].cell[a]);
        free(c->rows[s].cell);
        free(c->rows[s].rep.h);
    }
    free(c->rows);
    for (s = 0; s < c->ncols; s++)
        free(c->cols[s].h);
    free(c->cols);
    if (c->opt)
        for (a = 0; a <= c->cap_n; a++)
            free(c->opt[a]);
    free(c->opt);
    free(c->nopt);
    free(c->trans);
    ht_free(&c->rowtab);
    ht_free(&c->memo);
    free(c->memo_out);
    free(c->snap_trans);
    free(c->snap_p);
}

/* The multiplication of the candidate: x * y = run of rep(y) from x. */
static bt_status
make_mul(qctx *c, uint32_t **out)
{
    size_t ord = c->nrows, x, y;
    uint32_t *m = malloc(ord * ord * sizeof *m + 1);
    if (m == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (x = 0; x < ord; x++)
        for (y = 0; y < ord; y++)
            m[x * ord + y] = (uint32_t)run(c, x, &c->rows[y].rep);
    *out = m;
    return BT_OK;
}

static bt_status
snapshot(qctx *c)
{
    size_t ord = c->nrows, s, a;
    free(c->snap_trans);
    free(c->snap_p);
    c->snap_trans = malloc(ord * (c->n + 1) * sizeof *c->snap_trans + 1);
    c->snap_p = malloc(ord + 1);
    if (c->snap_trans == NULL || c->snap_p == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (s = 0; s < ord; s++) {
        for (a = 0; a <= c->n; a++)
            c->snap_trans[s * (c->n + 1) + a] = TR(c, s, a);
        c->snap_p[s] = c->rows[s].cell[0][0];
    }
    c->snap_n = c->n;
    c->snap_order = ord;
    return BT_OK;
}

/* ------------------------------------------------ learning by pretending */

static int pretending = 1;

void
bt__quotient_set_pretending(int on)
{
    pretending = on;
}

/*
 * When heap h is not a conservative extension, MisereSolver's method (T. E.
 * Plambeck and A. N. Siegel, "Misère quotients for impartial games", J.
 * Combin. Theory Ser. A 115 (2008), sec. 6; docs/misere.md) finds the new
 * quotient without searching the game graph: a trial monoid M (the
 * previous quotient times a cyclic monoid for heap h) is given a
 * P-portion by marking, "pretending" that every position is P or N as
 * the first position reaching its element of M is; the bipartite monoid
 * is minimised, and the exact check (check_walk) proves it or yields a
 * position G that it gets wrong, after which the heaps of G are
 * recalibrated (given free cyclic components) and the trial marked again.
 * Nothing here has to be right for the result to be: only a candidate
 * that passes the check is used, and it then answers the learner's
 * questions in place of the search (snapshot), so that the table, its
 * numbering and every later step are those of the search.
 */

/* The most cyclic components of a trial, and the most trials one heap
   may cost before the search takes over. */
#define PM_MAXCYC 6
#define PM_MAXTRIALS 64

/* A trial monoid: B (its table) times cyclic monoids C(i, p) = <g |
   g^(i+p) = g^i>; element b + rad[0] * (e_0 + len_0 * (e_1 + ...)). */
typedef struct pmon {
    size_t nb, k, size;
    const uint32_t *bmul;
    size_t ci[PM_MAXCYC], cp[PM_MAXCYC], rad[PM_MAXCYC + 1];
} pmon;

static size_t
pm_mul(const pmon *m, size_t x, size_t y)
{
    size_t r = m->bmul[(x % m->nb) * m->nb + y % m->nb], j;
    x /= m->nb;
    y /= m->nb;
    for (j = 0; j < m->k; j++) {
        size_t len = m->ci[j] + m->cp[j], e = x % len + y % len;
        x /= len;
        y /= len;
        if (e >= len)
            e = m->ci[j] + (e - m->ci[j]) % m->cp[j];
        r += m->rad[j] * e;
    }
    return r;
}

/* Sets the radices and the size; -1 when the size passes cap. */
static int
pm_layout(pmon *m, size_t cap)
{
    size_t j, s = m->nb;
    for (j = 0; j < m->k; j++) {
        size_t len = m->ci[j] + m->cp[j];
        m->rad[j] = s;
        if (len == 0 || s > cap / len)
            return -1;
        s *= len;
    }
    m->rad[m->k] = s;
    m->size = s;
    return s > cap ? -1 : 0;
}

/* A candidate: ord elements, x * heap a in tr[x * (n + 1) + a] (a = 0 and
   heaps without a move: x), its P-portion, its multiplication, and the
   element of each heap (heap[a] = tr[a]). */
typedef struct ptrial {
    size_t ord;
    uint32_t *tr, *mul;
    unsigned char *isp;
} ptrial;

static void
ptrial_free(ptrial *t)
{
    free(t->tr);
    free(t->mul);
    free(t->isp);
    memset(t, 0, sizeof *t);
}

/* The element of the word cnt (cnt[a] heaps of a, a = 1..n). */
static size_t
pt_run(const ptrial *t, size_t n, const uint32_t *cnt)
{
    size_t x = 0, a, i;
    for (a = 1; a <= n; a++)
        for (i = 0; i < cnt[a]; i++)
            x = t->tr[x * (n + 1) + a];
    return x;
}

/* The transition sets of the heaps in M: toff[a]..toff[a + 1] in tl. */
static bt_status
pm_transitions(qctx *c, const pmon *m, const uint32_t *pre, size_t n,
               size_t **toff, uint32_t **tl)
{
    size_t a, j, k = 0, tot = 0;
    *toff = malloc((n + 2) * sizeof **toff);
    for (a = 1; a <= n; a++)
        tot += c->nopt[a];
    *tl = malloc((tot + 1) * sizeof **tl);
    if (*toff == NULL || *tl == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    (*toff)[0] = (*toff)[1] = 0;
    for (a = 1; a <= n; a++) {
        (*toff)[a] = k;
        for (j = 0; j < c->nopt[a]; j++) {
            size_t z = pre[c->opt[a][2 * j]];
            z = pm_mul(m, z, pre[c->opt[a][2 * j + 1]]);
            (*tl)[k++] = (uint32_t)z;
        }
    }
    (*toff)[n + 1] = k;
    return BT_OK;
}

/*
 * Marks the P-portion of M (MisereSolver's markPPortion): the words over
 * the heaps are walked with the multiplicity of the largest heap
 * outermost, so that every option of a word (one heap replaced by smaller
 * ones) comes before it; a word carries its element x and the set T of
 * its options' elements, T(w + a) = T(w) * a  u  x(w) * T(a).  The first
 * word to reach an element decides it (P exactly when it has a move and
 * no element of T is P); a word whose element is marked is not extended.
 * isp[x] is set for the P elements (an element never reached stays N).
 */
static bt_status
pm_mark(qctx *c, const pmon *m, const uint32_t *pre, size_t n,
        const size_t *toff, const uint32_t *tl, unsigned char *isp)
{
    size_t L = n + 1, d, i;
    unsigned char *marked = calloc(m->size + 1, 1);
    uint32_t *stamp = calloc(m->size + 1, sizeof *stamp), gen = 0;
    long *mult = calloc(L + 1, sizeof *mult);
    size_t *elem = calloc(L + 1, sizeof *elem);
    uint32_t **own = calloc(L + 1, sizeof *own);
    size_t *owncap = calloc(L + 1, sizeof *owncap);
    const uint32_t **trp = calloc(L + 1, sizeof *trp);
    size_t *trn = calloc(L + 1, sizeof *trn);
    uint32_t *scratch = NULL;
    size_t scap = 0;
    long depth = -1;
    bt_status st = BT_OK;
    if (marked == NULL || stamp == NULL || mult == NULL || elem == NULL ||
        own == NULL || owncap == NULL || trp == NULL || trn == NULL)
        goto nomem;
    memset(isp, 0, m->size);
    /* level d is heap d (level 0: the empty heap, the identity) */
    while (depth < (long)L) {
        if (depth == -1) {
            size_t x = elem[0];
            if (trn[0] > 0) {
                int p = 1;
                for (i = 0; i < trn[0] && p; i++)
                    if (isp[trp[0][i]])
                        p = 0;
                isp[x] = (unsigned char)p;
            }
            marked[x] = 1;
            depth++;
            if ((st = poll(c)) != BT_OK)
                goto done;
            continue;
        }
        d = (size_t)depth;
        mult[d]++;
        if (mult[d] > 0) {
            size_t nx, a = d, k = 0, need;
            if (a == 0 || c->nopt[a] == 0) {
                mult[d] = -1; /* the identity: nothing new */
                depth++;
                continue;
            }
            nx = pm_mul(m, elem[d], pre[a]);
            if (marked[nx]) {
                mult[d] = -1;
                depth++;
                continue;
            }
            need = trn[d] + (toff[a + 1] - toff[a]);
            if (need > scap) {
                uint32_t *s = realloc(scratch, (2 * need + 16) * sizeof *s);
                if (s == NULL)
                    goto nomem;
                scratch = s;
                scap = 2 * need + 16;
            }
            if (++gen == 0) {
                memset(stamp, 0, (m->size + 1) * sizeof *stamp);
                gen = 1;
            }
            for (i = 0; i < trn[d]; i++) {
                size_t z = pm_mul(m, trp[d][i], pre[a]);
                if (stamp[z] != gen) {
                    stamp[z] = gen;
                    scratch[k++] = (uint32_t)z;
                }
            }
            for (i = toff[a]; i < toff[a + 1]; i++) {
                size_t z = pm_mul(m, elem[d], tl[i]);
                if (stamp[z] != gen) {
                    stamp[z] = gen;
                    scratch[k++] = (uint32_t)z;
                }
            }
            {
                /* the new set becomes level d's own (the lower levels
                   copy it again below) */
                uint32_t *t = own[d];
                size_t tc = owncap[d];
                own[d] = scratch;
                owncap[d] = scap;
                scratch = t;
                scap = tc;
            }
            trp[d] = own[d];
            trn[d] = k;
            elem[d] = nx;
        }
        depth--;
        if (depth >= 0) {
            elem[depth] = elem[depth + 1];
            trp[depth] = trp[depth + 1];
            trn[depth] = trn[depth + 1];
        }
    }
    goto done;
nomem:
    st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
done:
    if (own != NULL)
        for (i = 0; i <= L; i++)
            free(own[i]);
    free(own);
    free(owncap);
    free(trp);
    free(trn);
    free(scratch);
    free(marked);
    free(stamp);
    free(mult);
    free(elem);
    return st;
}

/*
 * The bipartite monoid (M, isp) restricted to the elements the heaps
 * generate and minimised (Moore's partition refinement under the heaps'
 * actions: two elements merge when no product tells them apart w.r.t.
 * P, the Myhill-Nerode congruence, a congruence since M is commutative).
 * Classes are numbered in the breadth-first order of their first
 * elements, the identity first.  BT_ELIMIT past max_search elements.
 */
static bt_status
pm_reduce(qctx *c, const pmon *m, const uint32_t *pre, size_t n,
          const unsigned char *ispm, ptrial *out)
{
    size_t L = n + 1, nr = 1, head, a, i, ncls = 2, round;
    uint32_t *idx = malloc((m->size + 1) * sizeof *idx);
    uint32_t *succ = NULL, *cls = NULL, *ncl = NULL, *key = NULL;
    uint32_t *list = malloc(16 * sizeof *list), *par = NULL, *let = NULL;
    size_t cap = 16;
    htab sig;
    bt_status st = BT_OK;
    memset(&sig, 0, sizeof sig);
    memset(out, 0, sizeof *out);
    if (idx == NULL || list == NULL)
        goto nomem;
    for (i = 0; i < m->size; i++)
        idx[i] = UINT32_MAX;
    idx[0] = 0;
    list[0] = 0;
    /* breadth-first over the heaps' actions */
    for (head = 0; head < nr; head++) {
        if (nr + L > cap) {
            uint32_t *nl;
            uint32_t *ns;
            size_t nc = 2 * (nr + L);
            if (nc > c->lim->max_search + L) {
                st = bt__fail(c->diag, BT_ELIMIT,
                              "a trial monoid has more than %zu elements",
                              c->lim->max_search);
                goto done;
            }
            nl = realloc(list, nc * sizeof *nl);
            if (nl == NULL)
                goto nomem;
            list = nl;
            ns = realloc(succ, nc * L * sizeof *ns);
            if (ns == NULL)
                goto nomem;
            succ = ns;
            cap = nc;
        }
        if (succ == NULL) {
            succ = malloc(cap * L * sizeof *succ);
            if (succ == NULL)
                goto nomem;
        }
        for (a = 0; a < L; a++) {
            size_t y;
            if (a == 0 || c->nopt[a] == 0) {
                succ[head * L + a] = (uint32_t)head;
                continue;
            }
            y = pm_mul(m, list[head], pre[a]);
            if (idx[y] == UINT32_MAX) {
                idx[y] = (uint32_t)nr;
                list[nr++] = (uint32_t)y;
            }
            succ[head * L + a] = idx[y];
        }
    }
    cls = malloc(nr * sizeof *cls);
    ncl = malloc(nr * sizeof *ncl);
    key = malloc((L + 1) * sizeof *key);
    if (cls == NULL || ncl == NULL || key == NULL)
        goto nomem;
    for (i = 0; i < nr; i++)
        cls[i] = ispm[list[i]];
    ncls = 0; /* the count of the previous round, unknown */
    for (round = 0;; round++) {
        ht_clear(&sig);
        for (i = 0; i < nr; i++) {
            size_t e;
            key[0] = cls[i];
            for (a = 1; a < L; a++)
                key[a] = cls[succ[i * L + a]];
            e = ht_find(&sig, key, L * sizeof *key);
            if (e == SIZE_MAX &&
                (e = ht_add(&sig, key, L * sizeof *key)) == SIZE_MAX)
                goto nomem;
            ncl[i] = (uint32_t)e;
        }
        memcpy(cls, ncl, nr * sizeof *cls);
        if (sig.n == ncls)
            break;
        ncls = sig.n;
        if ((st = poll(c)) != BT_OK)
            goto done;
    }
    if (ncls > c->lim->max_table_piles) {
        st = bt__fail(c->diag, BT_ELIMIT,
                      "a trial quotient has more than %zu elements",
                      c->lim->max_table_piles);
        goto done;
    }
    /* the classes: the first element of each is its representative */
    out->ord = ncls;
    out->tr = malloc(ncls * L * sizeof *out->tr + 1);
    out->isp = malloc(ncls + 1);
    out->mul = malloc(ncls * ncls * sizeof *out->mul + 1);
    par = malloc(ncls * sizeof *par + 1);
    let = malloc(ncls * sizeof *let + 1);
    if (out->tr == NULL || out->isp == NULL || out->mul == NULL ||
        par == NULL || let == NULL)
        goto nomem;
    memset(ncl, 0xFF, nr * sizeof *ncl); /* ncl[class]: first element */
    for (i = 0; i < nr; i++)
        if (ncl[cls[i]] == UINT32_MAX)
            ncl[cls[i]] = (uint32_t)i;
    for (i = 0; i < ncls; i++) {
        size_t r = ncl[i];
        out->isp[i] = ispm[list[r]];
        for (a = 0; a < L; a++)
            out->tr[i * L + a] = cls[succ[r * L + a]];
    }
    /* the breadth-first tree gives each representative a parent class
       and a heap, which give the multiplication column by column */
    {
        uint32_t *bpar = idx; /* reused: parent of element i in the BFS */
        size_t j;
        for (i = 0; i < nr; i++)
            bpar[i] = UINT32_MAX;
        for (i = 0; i < nr; i++)
            for (a = 1; a < L; a++) {
                size_t y = succ[i * L + a];
                if (y != i && y != 0 && bpar[y] == UINT32_MAX)
                    bpar[y] = (uint32_t)i;
            }
        for (i = 1; i < ncls; i++) {
            size_t r = ncl[i];
            /* the parent of r in the BFS, and the heap from it */
            size_t p = bpar[r];
            for (a = 1; a < L; a++)
                if (succ[p * L + a] == r)
                    break;
            par[i] = cls[p];
            let[i] = (uint32_t)a;
        }
        for (i = 0; i < ncls; i++) {
            out->mul[i * ncls + 0] = (uint32_t)i;
            for (j = 1; j < ncls; j++)
                out->mul[i * ncls + j] =
                    out->tr[out->mul[i * ncls + par[j]] * L + let[j]];
        }
    }
    goto done;
nomem:
    st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
done:
    if (st != BT_OK)
        ptrial_free(out);
    ht_free(&sig);
    free(idx);
    free(list);
    free(succ);
    free(cls);
    free(ncl);
    free(key);
    free(par);
    free(let);
    return st;
}

/* Charges a trial's bytes to max_memory; one that does not fit is refused
   (BT_ELIMIT) without spending the budget, so that the search can still
   try. */
static bt_status
pm_charge(qctx *c, size_t bytes)
{
    bt__budget *b = &c->budget;
    if (b->max != 0 && (bytes > b->max || b->used > b->max - bytes))
        return bt__fail(c->diag, BT_ELIMIT,
                        "a trial monoid needs more than the memory left");
    return bt__budget_charge(b, bytes, c->diag);
}

/* Marks and minimises the trial M (heap a -> pre[a]) into *out. */
static bt_status
pm_trial(qctx *c, const pmon *m, const uint32_t *pre, size_t n, ptrial *out)
{
    size_t *toff = NULL;
    uint32_t *tl = NULL;
    unsigned char *isp = NULL;
    /* marked, isp, stamps, the BFS index and list, n + 1 successors */
    size_t bytes = m->size * (2 + 4 + 8 + 4 * (n + 2));
    bt_status st;
    memset(out, 0, sizeof *out);
    if ((st = pm_charge(c, bytes)) != BT_OK)
        return st;
    if ((st = pm_transitions(c, m, pre, n, &toff, &tl)) != BT_OK)
        goto done;
    isp = malloc(m->size + 1);
    if (isp == NULL) {
        st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
        goto done;
    }
    if ((st = pm_mark(c, m, pre, n, toff, tl, isp)) != BT_OK)
        goto done;
    st = pm_reduce(c, m, pre, n, isp, out);
done:
    bt__budget_release(&c->budget, bytes);
    free(toff);
    free(tl);
    free(isp);
    return st;
}

/* The index of x's cyclic submonoid: the least i with x^i = x^(i+p) for
   some p >= 1 (x^0 the identity). */
static size_t
pt_index(const ptrial *t, size_t x, size_t *scratch)
{
    size_t y = 0, i = 0, o = t->ord;
    for (y = 0; y < o; y++)
        scratch[y] = SIZE_MAX;
    y = 0;
    while (scratch[y] == SIZE_MAX) {
        scratch[y] = i++;
        y = t->mul[y * o + x];
    }
    return scratch[y];
}

/*
 * The submonoid B of t generated by the elements pre[a] of the heaps a
 * outside the subset (skip[a]): map[x] its number in B (UINT32_MAX
 * outside), bmul its table, identity 0.
 */
static bt_status
pt_submonoid(qctx *c, const ptrial *t, size_t n, const unsigned char *skip,
             uint32_t *map, uint32_t **bmul, size_t *nb)
{
    size_t o = t->ord, L = n + 1, k = 1, head, a, i, j;
    uint32_t *list = malloc((o + 1) * sizeof *list);
    if (list == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (i = 0; i < o; i++)
        map[i] = UINT32_MAX;
    map[0] = 0;
    list[0] = 0;
    for (head = 0; head < k; head++)
        for (a = 1; a < L; a++) {
            size_t y;
            if (skip[a] || c->nopt[a] == 0)
                continue;
            y = t->tr[list[head] * L + a];
            if (map[y] == UINT32_MAX) {
                map[y] = (uint32_t)k;
                list[k++] = (uint32_t)y;
            }
        }
    *bmul = malloc(k * k * sizeof **bmul + 1);
    if (*bmul == NULL) {
        free(list);
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    }
    for (i = 0; i < k; i++)
        for (j = 0; j < k; j++)
            (*bmul)[i * k + j] = map[t->mul[list[i] * o + list[j]]];
    *nb = k;
    free(list);
    return BT_OK;
}

/*
 * Recalibration (MisereSolver's): t gets the position cnt wrong.  For the
 * heaps of cnt, one first, then two, ..., the heaps of the subset get
 * free cyclic components (index: that of their element in t, at least
 * their multiplicity in cnt less one; period max(2, 2 floor((index -
 * 4) / 2))), the others keep their elements of t (the submonoid they
 * generate); the first such trial whose marking gets cnt right is *out
 * (*ok).  *left counts the trials still allowed.
 */
static bt_status
pm_recalibrate(qctx *c, const ptrial *t, size_t n, const uint32_t *cnt,
               size_t cap, size_t *left, ptrial *out, int *ok)
{
    size_t L = n + 1, ninv = 0, a, s, j;
    size_t *inv = malloc(L * sizeof *inv), *scr = NULL;
    unsigned char *skip = calloc(L, 1);
    uint32_t *map = malloc((t->ord + 1) * sizeof *map);
    uint32_t *pre = malloc(L * sizeof *pre);
    int want = !t->isp[pt_run(t, n, cnt)];
    bt_status st = BT_OK;
    *ok = 0;
    scr = malloc((t->ord + 1) * sizeof *scr);
    if (inv == NULL || skip == NULL || map == NULL || pre == NULL ||
        scr == NULL) {
        st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
        goto done;
    }
    for (a = 1; a <= n; a++)
        if (cnt[a] > 0 && c->nopt[a] > 0)
            inv[ninv++] = a;
    for (s = 1; s <= ninv && s <= PM_MAXCYC && !*ok; s++) {
        size_t comb[PM_MAXCYC];
        for (j = 0; j < s; j++)
            comb[j] = j;
        for (;;) {
            pmon m = {0};
            uint32_t *bmul = NULL;
            ptrial nt;
            if (*left == 0)
                goto done;
            --*left;
            memset(&m, 0, sizeof m);
            memset(skip, 0, L);
            for (j = 0; j < s; j++)
                skip[inv[comb[j]]] = 1;
            if ((st = pt_submonoid(c, t, n, skip, map, &bmul, &m.nb)) !=
                BT_OK)
                goto done;
            m.bmul = bmul;
            m.k = s;
            for (j = 0; j < s; j++) {
                size_t hh = inv[comb[j]];
                long ix = (long)pt_index(t, t->tr[hh], scr);
                if ((long)cnt[hh] - 1 > ix)
                    ix = (long)cnt[hh] - 1;
                m.ci[j] = (size_t)ix;
                m.cp[j] = 2 * ((ix - 4) / 2) > 2 ? (size_t)(2 * ((ix - 4) / 2))
                                                : 2;
            }
            if (pm_layout(&m, cap) == 0) {
                for (a = 0; a <= n; a++)
                    pre[a] = a == 0 || c->nopt[a] == 0
                                 ? 0
                                 : skip[a] ? 0 : map[t->tr[a]];
                for (j = 0; j < s; j++)
                    pre[inv[comb[j]]] = (uint32_t)m.rad[j];
                st = pm_trial(c, &m, pre, n, &nt);
                if (st == BT_OK) {
                    if (nt.isp[pt_run(&nt, n, cnt)] == want) {
                        *out = nt;
                        *ok = 1;
                    } else
                        ptrial_free(&nt);
                } else if (st == BT_ELIMIT && !c->budget.exceeded)
                    st = BT_OK; /* too large: the next subset */
            }
            free(bmul);
            if (st != BT_OK || *ok)
                goto done;
            /* the next subset of s heaps, in lexicographic order */
            for (j = s; j-- > 0;)
                if (comb[j] < ninv - s + j)
                    break;
            if (j == SIZE_MAX)
                break;
            comb[j]++;
            for (j++; j < s; j++)
                comb[j] = comb[j - 1] + 1;
        }
    }
done:
    free(inv);
    free(skip);
    free(map);
    free(pre);
    free(scr);
    return st;
}

/*
 * Learns heap h by pretending (above), given the proved quotient of the
 * heaps below h (the table's rows, mul its multiplication).  When a
 * candidate passes the exact check it becomes the snapshot that answers
 * every position of heaps <= h, and *done is set; the learner then fills
 * its table from it without a search.  *done is 0 when the trials run
 * out or pass a limit of their own: the search learns heap h as before.
 */
static bt_status
try_pretend(qctx *c, const uint32_t *mul, size_t h, int *done)
{
    size_t L = h + 1, a, i, left = PM_MAXTRIALS, cap;
    size_t badlen;
    uint32_t *pre = malloc(L * sizeof *pre), *cnt = calloc(L, sizeof *cnt);
    uint32_t *bad = NULL;
    ptrial t;
    pmon m;
    bt_status st = BT_OK;
    int found, ok;
    *done = 0;
    memset(&t, 0, sizeof t);
    if (pre == NULL || cnt == NULL) {
        st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
        goto out;
    }
    cap = c->lim->max_search < ((size_t)1 << 26) ? c->lim->max_search
                                                 : ((size_t)1 << 26);
    /* the first trial: Q(h - 1) x C(2, 2), heap h -> the new generator */
    m.nb = c->nrows;
    m.bmul = mul;
    m.k = 1;
    m.ci[0] = 2;
    m.cp[0] = 2;
    if (pm_layout(&m, cap) != 0)
        goto out;
    for (a = 0; a < h; a++)
        pre[a] = a == 0 || c->nopt[a] == 0 ? 0 : TR(c, 0, a);
    pre[h] = (uint32_t)m.rad[0];
    if ((st = pm_trial(c, &m, pre, h, &t)) != BT_OK)
        goto out;
    for (;;) {
        ptrial nt;
        st = check_walk(c, t.ord, t.tr, L, t.isp, t.mul, 1, 1, &bad, &badlen,
                        &found);
        if (st != BT_OK)
            goto out;
        if (!found)
            break;
        memset(cnt, 0, L * sizeof *cnt);
        for (i = 0; i < badlen; i++)
            cnt[bad[i]]++;
        free(bad);
        bad = NULL;
        if ((st = pm_recalibrate(c, &t, h, cnt, cap, &left, &nt, &ok)) !=
            BT_OK)
            goto out;
        if (!ok)
            goto out;
        ptrial_free(&t);
        t = nt;
    }
    /* proved: the snapshot of the heaps up to h */
    free(c->snap_trans);
    free(c->snap_p);
    c->snap_trans = t.tr;
    c->snap_p = t.isp;
    t.tr = NULL;
    t.isp = NULL;
    c->snap_n = h;
    c->snap_order = t.ord;
    *done = 1;
out:
    if (st == BT_ELIMIT && !c->budget.exceeded)
        st = BT_OK; /* past a bound of the trials: the search */
    ptrial_free(&t);
    free(pre);
    free(cnt);
    free(bad);
    return st;
}

/*
 * A conservative extension (MisereSolver's first test, here proved by the
 * check): when heap h is an element x of the proved quotient of the heaps
 * below h (mul its table), that quotient with heap h -> x is the quotient
 * of the heaps up to h.  Tries every x whose P-status is that of heap h
 * alone (it has a move; P exactly when no option's element is in P),
 * each by the exact check of verify(); the first that passes is taken,
 * and the cells of letter h follow from the algebra (no search).  *done
 * is 0 when none passes: the caller learns as usual.
 */
static bt_status
try_conservative(qctx *c, const uint32_t *mul, size_t h, int *done)
{
    size_t ord = c->nrows, x, s, j, t, *colx;
    int isp = 1;
    bt_status st;
    *done = 0;
    for (j = 0; j < c->nopt[h] && isp; j++) {
        size_t z = 0;
        if (c->opt[h][2 * j] != 0)
            z = TR(c, z, c->opt[h][2 * j]);
        if (c->opt[h][2 * j + 1] != 0)
            z = TR(c, z, c->opt[h][2 * j + 1]);
        if (c->rows[z].cell[0][0])
            isp = 0;
    }
    for (x = 0; x < ord; x++) {
        int failed = 0;
        if ((c->rows[x].cell[0][0] != 0) != isp)
            continue;
        for (s = 0; s < ord; s++)
            TR(c, s, h) = mul[s * ord + x];
        st = verify(c, mul, &failed, 1);
        if (st == BT_ELIMIT)
            failed = 1; /* too many states for this candidate: the next */
        else if (st != BT_OK)
            return st;
        if (!failed)
            break;
    }
    if (x == ord)
        return BT_OK;
    colx = malloc((c->ncols + 1) * sizeof *colx);
    if (colx == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (t = 0; t < c->ncols; t++)
        colx[t] = run(c, 0, &c->cols[t]);
    for (s = 0; s < ord; s++) {
        if (alloc_cells(c, s, h) != BT_OK) {
            free(colx);
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
        }
        for (t = 0; t < c->ncols; t++)
            c->rows[s].cell[h][t] =
                c->rows[mul[TR(c, s, h) * ord + colx[t]]].cell[0][0];
    }
    free(colx);
    *done = 1;
    return BT_OK;
}

/* The element of each heap 0..n of the current table (0: no move). */
static bt_status
heap_map(qctx *c, size_t n, uint32_t **e)
{
    size_t h;
    uint32_t *v = realloc(*e, (n + 1) * sizeof *v);
    if (v == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    v[0] = 0;
    for (h = 1; h <= n; h++)
        v[h] = c->nopt[h] > 0 ? TR(c, 0, h) : 0;
    *e = v;
    return BT_OK;
}

/*
 * A learner: the table of the heaps 1..h with Q(h) proved (snapshot), and
 * its multiplication.  quotient_build() runs one from heap 1 to its bound;
 * the analysis hook keeps one per game in its cache and takes it further
 * when a position needs a larger heap (learner_to).
 */
typedef struct qlearner {
    qctx c;
    uint32_t *mul; /* the multiplication of Q(h); NULL before heap 1 */
    size_t h;      /* the heaps learnt: 1..h */
} qlearner;

static void
learner_free(qlearner *L)
{
    ctx_free(&L->c);
    free(L->mul);
    memset(L, 0, sizeof *L);
}

/* Points the learner at this call's limits and diag (a cached learner
   outlives the call that made it), with a fresh memory budget. */
static void
learner_bind(qlearner *L, const bt_limits *lim, bt_diag *diag)
{
    L->c.lim = lim;
    L->c.diag = diag;
    bt__budget_init(&L->c.budget, lim);
    L->c.memo_charged = 0;
    ht_free(&L->c.memo);
    free(L->c.memo_out);
    L->c.memo_out = NULL;
    L->c.memo_cap = 0;
}

/* The empty table: the identity row and the empty column. */
static bt_status
learner_init(qlearner *L, bt_game *g, const qalpha *al, size_t n,
             const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    memset(L, 0, sizeof *L);
    L->c.g = g;
    L->c.al = al;
    learner_bind(L, lim, diag);
    if (ensure_letters(&L->c, n > 0 ? n : 1) != BT_OK)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    if ((st = add_col(&L->c, NULL, 0)) != BT_OK ||
        (st = add_row(&L->c, NULL, 0, 0)) != BT_OK)
        return st;
    return BT_OK;
}

/* Q(h + 1) proved (L->h + 1 = c->n): its snapshot, and a fresh memo. */
static bt_status
learner_proved(qlearner *L)
{
    bt_status st;
    if ((st = snapshot(&L->c)) != BT_OK)
        return st;
    /* every memo entry holds a heap <= h, now answered by the snapshot:
       the memo starts afresh */
    ht_clear(&L->c.memo);
    L->h = L->c.n;
    return BT_OK;
}

/*
 * The first part of learning heap h + 1: its options, and the conservative
 * extension (*done when it passes: Q(h + 1) is then proved).  This part
 * changes the table only in the letter h + 1 (its options, its
 * transitions, and its cells when it passes), so that learner_undo() puts
 * a learner back to Q(h) after it, whatever it returned.
 */
static bt_status
learner_heap_begin(qlearner *L, int *done)
{
    qctx *c = &L->c;
    size_t h = L->h + 1;
    bt_status st;
    *done = 0;
    /* a heap whose element the table already has may go through no
       search and no walk, which poll: the heap loop polls too */
    if (bt__poll(c->lim) != BT_OK)
        return bt__fail(c->diag, BT_EINTR,
                        "the time budget ran out while computing the "
                        "misère quotient (at heap %zu)",
                        h);
    if (ensure_letters(c, h) != BT_OK)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    if ((st = load_options(c, h)) != BT_OK)
        return st;
    c->n = h;
    if (c->nopt[h] > 0 && L->mul != NULL) {
        if ((st = try_conservative(c, L->mul, h, done)) != BT_OK)
            return st;
        if (*done)
            return learner_proved(L);
    }
    return BT_OK;
}

/* Puts a learner whose heap h + 1 failed in learner_heap_begin() back to
   Q(h). */
static void
learner_undo(qlearner *L)
{
    qctx *c = &L->c;
    size_t h = L->h + 1, s;
    if (h > c->cap_n)
        return;
    c->n = L->h;
    free(c->opt[h]);
    c->opt[h] = NULL;
    c->nopt[h] = 0;
    for (s = 0; s < c->nrows; s++) {
        free(c->rows[s].cell[h]);
        c->rows[s].cell[h] = NULL;
    }
}

/*
 * The rest of learning heap h + 1 when it is not a conservative
 * extension: pretending, else L* over the search.  On failure the table
 * may be half changed: the caller frees the learner (or keeps a copy taken
 * before).
 */
static bt_status
learner_heap_rest(qlearner *L)
{
    qctx *c = &L->c;
    size_t h = c->n, s;
    int refined, done = 0;
    bt_status st;
    /* a new element: pretending finds the quotient, which then answers
       the learner below in place of the search */
    if (c->nopt[h] > 0 && L->mul != NULL && pretending &&
        (st = try_pretend(c, L->mul, h, &done)) != BT_OK)
        return st;
    if (c->nopt[h] > 0)
        for (s = 0; s < c->nrows; s++) {
            if (alloc_cells(c, s, h) != BT_OK)
                return bt__fail(c->diag, BT_ENOMEM, "out of memory");
            if ((st = fill_cells(c, s, h, 0)) != BT_OK)
                return st;
        }
    for (;;) {
        if ((st = close_table(c)) != BT_OK)
            return st;
        if ((st = check_commute(c, &refined)) != BT_OK)
            return st;
        if (refined)
            continue;
        free(L->mul);
        L->mul = NULL;
        if ((st = make_mul(c, &L->mul)) != BT_OK)
            return st;
        if ((st = verify(c, L->mul, &refined, 0)) != BT_OK)
            return st;
        if (!refined)
            break;
    }
    return learner_proved(L);
}

/* Learns heap h + 1 and proves Q(h + 1) (for a learner that is freed on
   failure). */
static bt_status
learner_heap(qlearner *L)
{
    int done;
    bt_status st = learner_heap_begin(L, &done);
    if (st != BT_OK || done)
        return st;
    return learner_heap_rest(L);
}

/* Copies a hash table; -1 when out of memory (dst is then empty). */
static int
ht_copy(htab *dst, const htab *src)
{
    memset(dst, 0, sizeof *dst);
    dst->arena = malloc(src->acap + 1);
    dst->off = malloc((src->cap + 1) * sizeof *dst->off);
    dst->len = malloc((src->cap + 1) * sizeof *dst->len);
    dst->slot = malloc((src->nslot + 1) * sizeof *dst->slot);
    if (dst->arena == NULL || dst->off == NULL || dst->len == NULL ||
        dst->slot == NULL) {
        ht_free(dst);
        return -1;
    }
    if (src->acap > 0)
        memcpy(dst->arena, src->arena, src->acap);
    if (src->cap > 0) {
        memcpy(dst->off, src->off, src->cap * sizeof *dst->off);
        memcpy(dst->len, src->len, src->cap * sizeof *dst->len);
    }
    if (src->nslot > 0)
        memcpy(dst->slot, src->slot, src->nslot * sizeof *dst->slot);
    dst->alen = src->alen;
    dst->acap = src->acap;
    dst->n = src->n;
    dst->cap = src->cap;
    dst->nslot = src->nslot;
    return 0;
}

static void *
dup_bytes(const void *p, size_t bytes)
{
    void *q = malloc(bytes + 1);
    if (q != NULL && bytes > 0)
        memcpy(q, p, bytes);
    return q;
}

/*
 * A deep copy of a learner between heaps (its memo is empty there and is
 * not copied), so that a heap that fails half way leaves the learner as
 * it was: the analysis learns each heap on a copy and keeps it once the
 * heap is proved.  The copy's table memory is that of the original
 * (rows x letters x columns bytes); BT_ENOMEM.
 */
static bt_status
learner_copy(qlearner *dst, const qlearner *src)
{
    const qctx *c = &src->c;
    qctx *d = &dst->c;
    size_t s, a, ntr = c->caprows * (c->cap_n + 1) + 1;
    memset(dst, 0, sizeof *dst);
    d->g = c->g;
    d->al = c->al;
    d->lim = c->lim;
    d->diag = c->diag;
    d->n = c->n;
    d->cap_n = c->cap_n;
    d->tcap = c->tcap;
    d->polls = c->polls;
    d->work = c->work;
    d->work_max = c->work_max;
    bt__budget_init(&d->budget, c->lim); /* its memo is empty */
    dst->h = src->h;
    d->opt = calloc(c->cap_n + 1, sizeof *d->opt);
    d->nopt = dup_bytes(c->nopt, (c->cap_n + 1) * sizeof *c->nopt);
    d->rows = calloc(c->caprows + 1, sizeof *d->rows);
    d->cols = calloc(c->capcols + 1, sizeof *d->cols);
    d->trans = dup_bytes(c->trans, ntr * sizeof *c->trans);
    if (d->opt == NULL || d->nopt == NULL || d->rows == NULL ||
        d->cols == NULL || d->trans == NULL)
        goto nomem;
    d->caprows = c->caprows;
    d->capcols = c->capcols;
    for (a = 0; a <= c->cap_n; a++)
        if (c->opt[a] != NULL &&
            (d->opt[a] = dup_bytes(c->opt[a], 2 * c->nopt[a] *
                                                  sizeof *c->opt[a])) ==
                NULL)
            goto nomem;
    for (s = 0; s < c->nrows; s++) {
        const row *r = &c->rows[s];
        row *q = &d->rows[s];
        q->cell = calloc(c->cap_n + 1, sizeof *q->cell);
        if (q->cell == NULL)
            goto nomem;
        d->nrows = s + 1;
        q->rep.n = r->rep.n;
        q->rep.h = dup_bytes(r->rep.h, r->rep.n * sizeof *r->rep.h);
        if (q->rep.h == NULL)
            goto nomem;
        for (a = 0; a <= c->cap_n; a++)
            if (r->cell[a] != NULL &&
                (q->cell[a] = dup_bytes(r->cell[a],
                                        c->tcap ? c->tcap : 1)) == NULL)
                goto nomem;
    }
    for (s = 0; s < c->ncols; s++) {
        d->cols[s].n = c->cols[s].n;
        d->cols[s].h = dup_bytes(c->cols[s].h,
                                 c->cols[s].n * sizeof *c->cols[s].h);
        if (d->cols[s].h == NULL)
            goto nomem;
        d->ncols = s + 1;
    }
    if (ht_copy(&d->rowtab, &c->rowtab) != 0)
        goto nomem;
    if (c->snap_trans != NULL) {
        d->snap_trans = dup_bytes(c->snap_trans, c->snap_order *
                                                     (c->snap_n + 1) *
                                                     sizeof *c->snap_trans);
        d->snap_p = dup_bytes(c->snap_p, c->snap_order);
        if (d->snap_trans == NULL || d->snap_p == NULL)
            goto nomem;
    }
    d->snap_n = c->snap_n;
    d->snap_order = c->snap_order;
    if (src->mul != NULL &&
        (dst->mul = dup_bytes(src->mul, c->nrows * c->nrows *
                                            sizeof *src->mul)) == NULL)
        goto nomem;
    return BT_OK;
nomem:
    learner_free(dst);
    return bt__fail(c->diag, BT_ENOMEM, "out of memory");
}

/* Q(h) as a quotient object (its period, if proved, set by the caller). */
static bt_status
learner_quotient(bt_quotient **out, qlearner *L, bt_diag *diag)
{
    qctx *c = &L->c;
    bt_quotient *q;
    size_t x, h, n = L->h;
    bt_status st;
    *out = NULL;
    q = calloc(1, sizeof *q);
    if (q == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    q->g = bt_game_ref(c->g);
    q->upto = n;
    q->ng = c->al != NULL ? c->al->ng : 0;
    q->order = c->nrows;
    if (L->mul == NULL) { /* no heap learnt: Q is the identity alone */
        if ((st = make_mul(c, &q->mul)) != BT_OK) {
            bt_quotient_free(q);
            return st;
        }
    } else
        q->mul = dup_bytes(L->mul, q->order * q->order * sizeof *q->mul);
    q->isp = malloc(q->order);
    q->heap = calloc(n + 1, sizeof *q->heap);
    if (q->mul == NULL || q->isp == NULL || q->heap == NULL) {
        bt_quotient_free(q);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    for (x = 0; x < q->order; x++) {
        q->isp[x] = c->rows[x].cell[0][0];
        q->pcount += q->isp[x];
    }
    for (h = 1; h <= n; h++)
        q->heap[h] = c->nopt[h] > 0 ? TR(c, 0, h) : 0;
    *out = q;
    return BT_OK;
}

/* Whether Q(h) of a learner is proved periodic: 1, with the period. */
static int
learner_period(qlearner *L, size_t *period, size_t *preperiod)
{
    uint32_t *e = NULL;
    int proved;
    if (L->c.al != NULL || misere_need(L->c.g, 1, 1) == SIZE_MAX)
        return 0;
    if (heap_map(&L->c, L->h, &e) != BT_OK)
        return -1;
    proved = detect_period(L->c.g, e, L->h, period, preperiod);
    free(e);
    return proved;
}

/* The presentation and tameness of a quotient made by learner_quotient. */
static bt_status
quotient_finish(bt_quotient *q, int proved, size_t period, size_t preperiod,
                const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    q->proved = proved;
    q->period = period;
    q->preperiod = preperiod;
    if ((st = present(q, diag)) != BT_OK)
        return st;
    return is_tame(&q->tame, q, lim, diag);
}

/*
 * The quotient of the heaps up to n; with until, heap by heap up to n at
 * most, stopping at the first heap where the periodicity theorem applies
 * (BT_ELIMIT when it does not by n).
 */
static bt_status
quotient_build(bt_quotient **out, bt_game *g, const qalpha *al, size_t n,
               int until, const bt_limits *lim, bt_diag *diag)
{
    qlearner L;
    bt_quotient *q = NULL;
    bt_status st;
    size_t period = 0, preperiod = 0;
    int proved = 0;

    *out = NULL;
    lim = bt__limits(lim);
    if (g == NULL || !(g->rules->flags & BT__RS_HEAPS))
        return bt__fail(diag, BT_EINVAL,
                        "%s is not a heap game: misère quotients are for "
                        "games whose component is one heap",
                        g ? g->spec : "(null)");
    if (n > lim->max_grundy || n > 100000)
        return bt__fail(diag, BT_ELIMIT,
                        "heap bound %zu exceeds the limit %zu", n,
                        lim->max_grundy < 100000 ? lim->max_grundy
                                                 : (size_t)100000);
    if (until && misere_need(g, 1, 1) == SIZE_MAX)
        /* no bound proves it: computing to n could only end in this
           refusal, after as long as the bound takes (for Nim to 1000
           heaps, hours) */
        return bt__fail(diag, BT_ELIMIT,
                        "the misère quotient of %s is not proved periodic "
                        "by any bound: the periodicity theorem is for "
                        "octal codes and subtraction games",
                        g->spec);
    if ((st = learner_init(&L, g, al, n, lim, diag)) != BT_OK)
        goto fail;
    while (L.h < n) {
        if ((st = learner_heap(&L)) != BT_OK)
            goto fail;
        if (until || L.h == n) {
            proved = learner_period(&L, &period, &preperiod);
            if (proved < 0)
                goto nomem;
            if (proved && until)
                break;
        }
    }
    if (until && !proved) {
        st = bt__fail(diag, BT_ELIMIT,
                      "the misère quotient of %s is not proved periodic "
                      "by heap %zu (computed to %zu, with %zu elements): "
                      "%s",
                      g->spec, n, n, L.c.nrows,
                      misere_need(g, 1, 1) == SIZE_MAX
                          ? "the periodicity theorem is for octal codes "
                            "and subtraction games"
                          : "no period of its heap map meets the bound "
                            "of the periodicity theorem there");
        goto fail;
    }
    if ((st = learner_quotient(&q, &L, diag)) != BT_OK ||
        (st = quotient_finish(q, proved, period, preperiod, lim, diag)) !=
            BT_OK)
        goto fail;
    learner_free(&L);
    *out = q;
    return BT_OK;
nomem:
    st = bt__fail(diag, BT_ENOMEM, "out of memory");
fail:
    learner_free(&L);
    bt_quotient_free(q);
    return st;
}

bt_status
bt_quotient_new(bt_quotient **out, bt_game *g, size_t n,
                const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, quotient_build(out, g, NULL, n, 0, lim, diag));
}

bt_status
bt_quotient_new_until_proved(bt_quotient **out, bt_game *g, size_t max_n,
                             const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag,
                    quotient_build(out, g, NULL, max_n, 1, lim, diag));
}

/* ------------------------------------------------- saving and loading */

/*
 * The text of a quotient (docs/misere.md, "Saving a quotient"): a line
 * per item, every number in decimal, the multiplication table last.
 *
 *   bouton-quotient 1
 *   game octal:0.77
 *   upto 169
 *   order 40
 *   period 12 71             (the period and the preperiod; or "none")
 *   p 1 4 ...                (the elements of the P-portion, increasing)
 *   heaps 0 1 2 3 1 5 ...    (the element of each heap 0..upto)
 *   table                    (order lines of order numbers: x * y)
 *   ...
 *   end
 */
#define QFILE_MAGIC "bouton-quotient 1"

/* The text of q, the quotient of the heaps of the game whose rules are
   spec (a cached quotient holds no game). */
static bt_status
quotient_text(char **out, const bt_quotient *q, const char *spec,
              bt_diag *diag)
{
    size_t x, y, ord = q->order;
    bt__buf b;
    bt__buf_init(&b);
    bt__buf_printf(&b, "%s\ngame %s\nupto %zu\norder %zu\n", QFILE_MAGIC,
                   spec, q->upto, ord);
    if (q->proved)
        bt__buf_printf(&b, "period %zu %zu\n", q->period, q->preperiod);
    else
        bt__buf_puts(&b, "period none\n");
    bt__buf_puts(&b, "p");
    for (x = 0; x < ord; x++)
        if (q->isp[x])
            bt__buf_printf(&b, " %zu", x);
    bt__buf_puts(&b, "\nheaps");
    for (x = 0; x <= q->upto; x++)
        bt__buf_printf(&b, " %u", (unsigned)q->heap[x]);
    bt__buf_puts(&b, "\ntable\n");
    for (x = 0; x < ord; x++)
        for (y = 0; y < ord; y++)
            bt__buf_printf(&b, "%u%c", (unsigned)q->mul[x * ord + y],
                           y + 1 < ord ? ' ' : '\n');
    bt__buf_puts(&b, "end\n");
    *out = bt__buf_take(&b);
    return *out != NULL ? BT_OK : bt__fail(diag, BT_ENOMEM, "out of memory");
}

bt_status
bt_quotient_save(char **out, const bt_quotient *q, bt_diag *diag)
{
    *out = NULL;
    if (q->g == NULL || q->ng > 0)
        return bt__fail(diag, BT_EINVAL,
                        "only the quotient of one game's heaps is saved");
    return quotient_text(out, q, q->g->spec, diag);
}

/* A cursor over the text of a quotient; line counts from 1. */
typedef struct qtext {
    const char *s;
    size_t len, at, line;
    bt_diag *diag;
} qtext;

static bt_status
qtext_fail(qtext *t, const char *what)
{
    return bt__fail_at(t->diag, BT_EPARSE, t->at,
                       "not a quotient saved by bouton: line %zu: %s",
                       t->line, what);
}

/* Reads the word w and one space (or the end of the line if eol). */
static int
qtext_word(qtext *t, const char *w, int eol)
{
    size_t n = strlen(w);
    if (t->len - t->at < n + 1 || memcmp(t->s + t->at, w, n) != 0 ||
        t->s[t->at + n] != (eol ? '\n' : ' '))
        return 0;
    t->at += n + 1;
    if (eol)
        t->line++;
    return 1;
}

/* Reads a decimal number <= max (no sign, no leading zero), then one
   space or newline, which *end receives. */
static bt_status
qtext_size(qtext *t, size_t max, size_t *v, char *end, const char *what)
{
    size_t r = 0, start = t->at;
    char buf[160];
    while (t->at < t->len && t->s[t->at] >= '0' && t->s[t->at] <= '9') {
        size_t d = (size_t)(t->s[t->at] - '0');
        if (d > max || r > (max - d) / 10 || (t->at > start && r == 0)) {
            snprintf(buf, sizeof buf, "%s: more than %zu, or a leading "
                     "zero", what, max);
            return qtext_fail(t, buf);
        }
        r = 10 * r + d;
        t->at++;
    }
    if (t->at == start || t->at == t->len ||
        (t->s[t->at] != ' ' && t->s[t->at] != '\n')) {
        snprintf(buf, sizeof buf, "%s: expected a number", what);
        return qtext_fail(t, buf);
    }
    *end = t->s[t->at++];
    if (*end == '\n')
        t->line++;
    *v = r;
    return BT_OK;
}

/* Reads n numbers < max ending the line into v. */
static bt_status
qtext_row(qtext *t, size_t n, size_t max, uint32_t *v, const char *what)
{
    size_t i, x;
    char end = '\n';
    bt_status st;
    for (i = 0; i < n; i++) {
        if ((st = qtext_size(t, max - 1, &x, &end, what)) != BT_OK)
            return st;
        if ((end == '\n') != (i + 1 == n))
            return qtext_fail(t, i + 1 == n ? "too many numbers on the line"
                                            : "too few numbers on the line");
        v[i] = (uint32_t)x;
    }
    return BT_OK;
}

/* Parses the text into q (game, bound, order, P, heaps, table, period). */
static bt_status
quotient_parse(bt_quotient *q, qtext *t, const bt_limits *lim,
               size_t *fperiod, size_t *fpre)
{
    size_t eol, maxn, x, v;
    char end, *spec;
    bt_status st;
    const char *nl;
    bt_diag gd;

    if (!qtext_word(t, QFILE_MAGIC, 1))
        return qtext_fail(t, "expected '" QFILE_MAGIC "'");
    if (!qtext_word(t, "game", 0))
        return qtext_fail(t, "expected 'game RULES'");
    nl = memchr(t->s + t->at, '\n', t->len - t->at);
    if (nl == NULL)
        return qtext_fail(t, "the text ends inside the game line");
    eol = (size_t)(nl - t->s);
    spec = malloc(eol - t->at + 1);
    if (spec == NULL)
        return bt__fail(t->diag, BT_ENOMEM, "out of memory");
    memcpy(spec, t->s + t->at, eol - t->at);
    spec[eol - t->at] = '\0';
    memset(&gd, 0, sizeof gd);
    st = strlen(spec) != eol - t->at ? BT_EPARSE : bt_game_new(&q->g, spec,
                                                               &gd);
    if (st == BT_OK && strcmp(q->g->spec, spec) != 0)
        st = bt__fail(t->diag, BT_EPARSE,
                      "not a quotient saved by bouton: line %zu: the game "
                      "'%s' is not written as bouton writes it ('%s')",
                      t->line, spec, q->g->spec);
    else if (st == BT_ENOMEM)
        st = bt__fail(t->diag, st, "out of memory");
    else if (st != BT_OK)
        st = bt__fail_at(t->diag, BT_EPARSE, t->at,
                         "not a quotient saved by bouton: line %zu: %s",
                         t->line, gd.message[0] ? gd.message
                                                : "a NUL byte in the game");
    free(spec);
    if (st != BT_OK)
        return st;
    if (!(q->g->rules->flags & BT__RS_HEAPS))
        return bt__fail(t->diag, BT_EINVAL,
                        "%s is not a heap game: misère quotients are for "
                        "games whose component is one heap",
                        q->g->spec);
    t->at = eol + 1;
    t->line++;
    maxn = lim->max_grundy < 100000 ? lim->max_grundy : 100000;
    if (!qtext_word(t, "upto", 0))
        return qtext_fail(t, "expected 'upto N'");
    if ((st = qtext_size(t, SIZE_MAX, &q->upto, &end, "upto")) != BT_OK)
        return st;
    if (end != '\n')
        return qtext_fail(t, "expected one number after 'upto'");
    if (q->upto > maxn)
        return bt__fail(t->diag, BT_ELIMIT,
                        "the quotient's heap bound %zu exceeds the limit "
                        "%zu", q->upto, maxn);
    if (!qtext_word(t, "order", 0))
        return qtext_fail(t, "expected 'order N'");
    if ((st = qtext_size(t, SIZE_MAX, &q->order, &end, "order")) != BT_OK)
        return st;
    if (end != '\n' || q->order == 0)
        return qtext_fail(t, "expected one positive number after 'order'");
    if (q->order > lim->max_table_piles || q->order > UINT32_MAX)
        return bt__fail(t->diag, BT_ELIMIT,
                        "the quotient has %zu elements, more than %zu (the "
                        "max_table_piles limit)",
                        q->order, lim->max_table_piles);
    if (qtext_word(t, "period none", 1)) {
        *fperiod = *fpre = 0;
    } else {
        if (!qtext_word(t, "period", 0))
            return qtext_fail(t, "expected 'period P PREPERIOD' or 'period "
                                 "none'");
        if ((st = qtext_size(t, SIZE_MAX, fperiod, &end, "period")) != BT_OK)
            return st;
        if (end != ' ' || *fperiod == 0)
            return qtext_fail(t, "expected a positive period and the "
                                 "preperiod");
        if ((st = qtext_size(t, SIZE_MAX, fpre, &end, "preperiod")) != BT_OK)
            return st;
        if (end != '\n')
            return qtext_fail(t, "expected two numbers after 'period'");
    }
    /* each number of the heaps and the table takes two bytes at least:
       a short text claiming a large order allocates nothing */
    if ((t->len - t->at) / 2 < q->order * q->order + q->upto + 1)
        return qtext_fail(t, "the text is too short for its order and "
                             "bound");
    q->isp = calloc(q->order, 1);
    q->heap = malloc((q->upto + 1) * sizeof *q->heap);
    q->mul = malloc(q->order * q->order * sizeof *q->mul);
    if (q->isp == NULL || q->heap == NULL || q->mul == NULL)
        return bt__fail(t->diag, BT_ENOMEM, "out of memory");
    if (qtext_word(t, "p", 1)) {
        end = '\n';
    } else if (!qtext_word(t, "p", 0)) {
        return qtext_fail(t, "expected 'p' and the P-portion's elements");
    } else {
        size_t last = 0;
        do {
            if ((st = qtext_size(t, q->order - 1, &v, &end, "p")) != BT_OK)
                return st;
            if (q->pcount > 0 && v <= last)
                return qtext_fail(t, "the P-portion's elements must "
                                     "increase");
            q->isp[v] = 1;
            q->pcount++;
            last = v;
        } while (end == ' ');
    }
    if (!qtext_word(t, "heaps", 0))
        return qtext_fail(t, "expected 'heaps' and the element of each heap");
    if ((st = qtext_row(t, q->upto + 1, q->order, q->heap, "heaps")) !=
        BT_OK)
        return st;
    if (!qtext_word(t, "table", 1))
        return qtext_fail(t, "expected 'table'");
    for (x = 0; x < q->order; x++) {
        if ((x & 63) == 63 && bt__poll(lim) != BT_OK)
            return bt__fail(t->diag, BT_EINTR, "the time budget ran out");
        if ((st = qtext_row(t, q->order, q->order, q->mul + x * q->order,
                            "table")) != BT_OK)
            return st;
    }
    if (!qtext_word(t, "end", 1))
        return qtext_fail(t, "expected 'end' after the table");
    if (t->at != t->len)
        return qtext_fail(t, "text after 'end'");
    return BT_OK;
}

/*
 * The algebra of a loaded quotient: 0 is the identity, the table is
 * commutative and associative, the heaps' elements generate it, and its
 * elements are told apart by P (x != y: some z has x z in P and y z not,
 * or the reverse).  Associativity is Light's test over the generators:
 * the z with (x z) y = x (z y) for all x, y are closed under products, so
 * checking the heaps' elements checks every z they generate.
 */
static bt_status
quotient_check_algebra(const bt_quotient *q, const bt_limits *lim,
                       bt_diag *diag)
{
    size_t ord = q->order, x, y, h, n = 0, i, nw = (ord + 63) / 64, ngen = 0;
    const uint32_t *m = q->mul;
    unsigned char *gen = calloc(ord, 1), *sub = calloc(ord, 1);
    size_t *stack = malloc(ord * sizeof *stack);
    uint64_t *sig = calloc(ord * nw + 1, sizeof *sig);
    htab rows;
    bt_status st = BT_OK;

    memset(&rows, 0, sizeof rows);
    if (gen == NULL || sub == NULL || stack == NULL || sig == NULL) {
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
        goto done;
    }
#define QBAD(...) do { st = bt__fail(diag, BT_EINVAL, __VA_ARGS__); \
                       goto done; } while (0)
    if (q->heap[0] != 0)
        QBAD("heap 0 (no heap) must be the identity 0, not element %u",
             (unsigned)q->heap[0]);
    for (x = 0; x < ord; x++) {
        if (m[x] != x || m[x * ord] != x)
            QBAD("element 0 is not the identity (0 * %zu is not %zu)", x,
                 x);
        for (y = 0; y < x; y++)
            if (m[x * ord + y] != m[y * ord + x])
                QBAD("the table is not commutative: %zu * %zu differs "
                     "from %zu * %zu", x, y, y, x);
    }
    /* The generators: each heap whose element is not yet a product of
       the earlier ones (products taken left to right from 0, so that they
       lie in what the generators generate whatever the table); then the
       heaps' elements must generate Q. */
    sub[0] = 1;
    for (h = 1; h <= q->upto; h++) {
        size_t e = q->heap[h];
        if (sub[e])
            continue;
        gen[e] = 1;
        ngen++;
        for (x = 0, n = 0; x < ord; x++)
            if (sub[x])
                stack[n++] = x;
        while (n > 0) {
            size_t z = stack[--n];
            for (i = 0; i < ord; i++)
                if (gen[i] && !sub[m[z * ord + i]]) {
                    sub[m[z * ord + i]] = 1;
                    stack[n++] = m[z * ord + i];
                }
        }
    }
    for (x = 0; x < ord; x++)
        if (!sub[x])
            QBAD("element %zu is no product of heaps: not the quotient", x);
    if (ngen > 0 && ord * ord > ((size_t)1 << 34) / ngen) {
        st = bt__fail(diag, BT_ELIMIT,
                      "the quotient's table is too large to check (%zu "
                      "elements, %zu generators)", ord, ngen);
        goto done;
    }
    for (i = 0; i < ord; i++) {
        if (!gen[i])
            continue;
        if (bt__poll(lim) != BT_OK) {
            st = bt__fail(diag, BT_EINTR, "the time budget ran out");
            goto done;
        }
        for (x = 0; x < ord; x++) {
            size_t xg = m[x * ord + i];
            for (y = 0; y < ord; y++)
                if (m[xg * ord + y] != m[x * ord + m[i * ord + y]])
                    QBAD("the table is not associative: (%zu * %zu) * %zu "
                         "differs from %zu * (%zu * %zu)", x, i, y, x, i,
                         y);
        }
    }
    /* distinct elements are told apart */
    for (x = 0; x < ord; x++) {
        for (y = 0; y < ord; y++)
            if (q->isp[m[x * ord + y]])
                sig[x * nw + y / 64] |= 1ull << (y % 64);
        if (ht_find(&rows, sig + x * nw, nw * 8) != SIZE_MAX)
            QBAD("element %zu is told apart from no other by P: not the "
                 "quotient (which is the coarsest)", x);
        if (ht_add(&rows, sig + x * nw, nw * 8) == SIZE_MAX) {
            st = bt__fail(diag, BT_ENOMEM, "out of memory");
            goto done;
        }
    }
#undef QBAD
done:
    ht_free(&rows);
    free(gen);
    free(sub);
    free(stack);
    free(sig);
    return st;
}

/*
 * The exact check of docs/misere.md (the (x, e, U) walk of verify()), run
 * on the loaded table as on a computed candidate, over the sums of heaps
 * of at most top counters: a context with one row per element (its P
 * bit), the transitions x -> x * (element of heap a) and the heaps'
 * options from the rules.  *wrong is set when it fails.  Bounded by lim:
 * the interrupt is polled heap by heap (a heap's options take O(top)),
 * and the tables (about 16 bytes per element and heap) and the options
 * kept (at most one per element and heap) are charged to max_memory
 * before they are taken.
 */
static bt_status
quotient_check_walk(const bt_quotient *q, size_t top, const bt_limits *lim,
                    bt_diag *diag, int *wrong)
{
    qctx c;
    size_t s, a, ord = q->order;
    bt_status st;
    uint32_t *tr;
    unsigned char *seen = malloc(ord + sizeof(uint32_t));
    htab acts; /* (the options' elements, the element) of the heaps */

    memset(&c, 0, sizeof c);
    memset(&acts, 0, sizeof acts);
    if (seen == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    c.g = q->g;
    c.lim = lim;
    c.diag = diag;
    bt__budget_init(&c.budget, lim);
    {
        /* the rows' cell pointers, the transitions, the walk's columns */
        size_t letters = 16, per = sizeof(unsigned char *) +
                                   2 * sizeof(uint32_t);
        while (letters < top)
            letters *= 2;
        if (ord > SIZE_MAX / per / (letters + 1) ||
            (st = bt__budget_charge(&c.budget, ord * per * (letters + 1),
                                    diag)) != BT_OK) {
            st = bt__fail(diag, BT_ELIMIT,
                          "checking the quotient of %s (%zu elements) over "
                          "the heaps up to %zu needs more than the "
                          "max_memory limit of %zu bytes",
                          q->g->spec, ord, top, lim->max_memory);
            goto done;
        }
    }
    if ((st = ensure_letters(&c, top > 0 ? top : 1)) != BT_OK)
        goto nomem;
    for (a = 1; a <= top; a++) {
        if (bt__poll(lim) != BT_OK) {
            st = bt__fail(diag, BT_EINTR,
                          "the time budget ran out while checking the "
                          "quotient of %s (at heap %zu of %zu)",
                          q->g->spec, a, top);
            goto done;
        }
        if ((st = load_options(&c, a)) != BT_OK)
            goto done;
        if (c.nopt[a] == 0 && q->heap[a] != 0) {
            st = bt__fail(diag, BT_EINVAL,
                          "heap %zu has no move, so its element is the "
                          "identity 0, not %u", a, (unsigned)q->heap[a]);
            goto done;
        }
        /* The walk uses an option (o1, o2) of heap a only through x *
           o1 * o2 = x * (o1 o2) (the table is associative: checked
           before), so one option per element o1 o2 gives the same check:
           at most |Q| options per heap in place of about a / 2 splits. */
        /* And a heap acts on a triple only through its element and that
           set of its options' elements: a heap that repeats both of a
           smaller one's (past the preperiod they recur with the period)
           reaches no new triple, and the walk skips it. */
        if (c.nopt[a] > 0) {
            size_t j, k = 0;
            memset(seen, 0, ord + sizeof(uint32_t));
            for (j = 0; j < c.nopt[a]; j++) {
                uint32_t o1 = c.opt[a][2 * j], o2 = c.opt[a][2 * j + 1];
                uint32_t m = q->mul[(size_t)q->heap[o1] * ord + q->heap[o2]];
                if (seen[m])
                    continue;
                seen[m] = 1;
                c.opt[a][2 * k] = o1;
                c.opt[a][2 * k + 1] = o2;
                k++;
            }
            c.nopt[a] = k;
            memcpy(seen + ord, &q->heap[a], sizeof(uint32_t));
            if (ht_find(&acts, seen, ord + sizeof(uint32_t)) != SIZE_MAX)
                c.nopt[a] = 0;
            else if (ht_add(&acts, seen, ord + sizeof(uint32_t)) == SIZE_MAX)
                goto nomem;
            /* keep what the walk uses, not the a / 2 splits: the options
               kept are O(top * min(top, ord)), not O(top^2) */
            if (c.nopt[a] == 0) {
                free(c.opt[a]);
                c.opt[a] = NULL;
            } else {
                uint32_t *o = realloc(c.opt[a], 2 * k * sizeof *o);
                if (o != NULL)
                    c.opt[a] = o;
            }
            if ((st = bt__budget_charge(&c.budget,
                                        2 * c.nopt[a] * sizeof(uint32_t) +
                                            ord + 2 * sizeof(size_t),
                                        diag)) != BT_OK)
                goto done;
        }
    }
    c.n = top;
    c.rows = calloc(ord, sizeof *c.rows);
    tr = realloc(c.trans, (ord * (c.cap_n + 1) + 1) * sizeof *tr);
    if (c.rows == NULL || tr == NULL)
        goto nomem;
    c.trans = tr;
    c.caprows = ord;
    for (s = 0; s < ord; s++) {
        c.rows[s].cell = calloc(c.cap_n + 1, sizeof *c.rows[s].cell);
        if (c.rows[s].cell == NULL)
            goto nomem;
        c.nrows = s + 1;
        c.rows[s].cell[0] = malloc(1);
        if (c.rows[s].cell[0] == NULL)
            goto nomem;
        c.rows[s].cell[0][0] = q->isp[s];
        for (a = 0; a <= c.cap_n; a++)
            TR(&c, s, a) = a <= top
                               ? q->mul[s * ord + q->heap[a]] : (uint32_t)s;
    }
    st = verify(&c, q->mul, wrong, 1);
    goto done;
nomem:
    st = bt__fail(diag, BT_ENOMEM, "out of memory");
done:
    ctx_free(&c);
    ht_free(&acts);
    free(seen);
    return st;
}

static bt_status
quotient_load(bt_quotient **out, const char *text, size_t len,
              const bt_limits *lim, bt_diag *diag)
{
    bt_quotient *q;
    qtext t;
    size_t fper = 0, fpre = 0, period = 0, preperiod = 0, top, h;
    bt_status st;
    int wrong = 0, proved;

    *out = NULL;
    lim = bt__limits(lim);
    if (len > lim->max_text)
        return bt__fail(diag, BT_ELIMIT,
                        "the quotient's text has %zu bytes, more than %zu "
                        "(the max_text limit)", len, lim->max_text);
    q = calloc(1, sizeof *q);
    if (q == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    t.s = text;
    t.len = len;
    t.at = 0;
    t.line = 1;
    t.diag = diag;
    if ((st = quotient_parse(q, &t, lim, &fper, &fpre)) != BT_OK)
        goto fail;
    /*
     * A text that claims period fper from fpre needs checking only up to
     * the bound top at which the periodicity theorem proves that claim
     * (misere_need): once the heaps up to top are checked exactly and
     * prove it, the quotient of the heaps up to top is that of all heaps,
     * and the element of every larger heap follows from the period, which
     * the text's heaps must then repeat.  So the work is that of the
     * proof, whatever upto the text states (20 000 heaps of 0.75 took
     * 24 s and 1.6 GB to check in full; its proof needs 23).
     */
    top = q->upto;
    if (fper > 0 && fper <= q->upto && fpre <= q->upto) {
        size_t need = misere_need(q->g, fpre, fper); /* >= fpre + fper */
        if (need < top)
            top = need;
        for (h = top + 1; h <= q->upto; h++)
            if (q->heap[h] != q->heap[h - fper]) {
                st = bt__fail(diag, BT_EINVAL,
                              "heap %zu is element %u, but the period %zu "
                              "the text claims makes it that of heap %zu, "
                              "%u",
                              h, (unsigned)q->heap[h], fper, h - fper,
                              (unsigned)q->heap[h - fper]);
                goto fail;
            }
    }
    /* A text that claims no period, but whose heaps the theorem proves
       periodic, is refused before the check (which would take the heaps
       up to upto): whether its quotient is right or wrong, it is wrong. */
    if (fper == 0 &&
        (proved = detect_period(q->g, q->heap, q->upto, &period,
                                &preperiod)) != 0) {
        if (proved < 0)
            st = bt__fail(diag, BT_ENOMEM, "out of memory");
        else
            st = bt__fail(diag, BT_EINVAL,
                          "the quotient of %s is proved periodic with "
                          "period %zu and preperiod %zu, not as the text "
                          "says",
                          q->g->spec, period, preperiod);
        goto fail;
    }
    if ((st = quotient_check_algebra(q, lim, diag)) != BT_OK)
        goto fail;
    /* The check over the heaps up to 64, 128, ..., top: a right table
       predicts every sum of smaller heaps too, so a wrong one is refused
       at the first bound that shows it, after work of that bound (the
       heaps' options cost O(bound^2): 23 s for 100 000 heaps), and a
       right one costs 4/3 of the check up to top. */
    for (h = 64;; h *= 2) {
        size_t k = h < top ? h : top;
        if ((st = quotient_check_walk(q, k, lim, diag, &wrong)) != BT_OK)
            goto fail;
        if (wrong) {
            st = bt__fail(diag, BT_EINVAL,
                          "not the misère quotient of %s: the exact check "
                          "finds a sum of heaps of at most %zu counters "
                          "whose outcome it gets wrong",
                          q->g->spec, k);
            goto fail;
        }
        if (k == top)
            break;
    }
    proved = detect_period(q->g, q->heap, top, &period, &preperiod);
    if (proved < 0) {
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
        goto fail;
    }
    if (proved != (fper > 0) ||
        (proved && (period != fper || preperiod != fpre))) {
        if (proved)
            st = bt__fail(diag, BT_EINVAL,
                          "the quotient of %s is proved periodic with "
                          "period %zu and preperiod %zu, not as the text "
                          "says", q->g->spec, period, preperiod);
        else
            st = bt__fail(diag, BT_EINVAL,
                          "the periodicity theorem does not prove the "
                          "quotient of %s from its heaps up to %zu%s",
                          q->g->spec, q->upto,
                          fper > 0 ? ", as the text claims" : "");
        goto fail;
    }
    q->proved = proved;
    q->period = period;
    q->preperiod = preperiod;
    q->loaded = 1;
    if ((st = present(q, diag)) != BT_OK ||
        (st = is_tame(&q->tame, q, lim, diag)) != BT_OK)
        goto fail;
    *out = q;
    return BT_OK;
fail:
    bt_quotient_free(q);
    return st;
}

bt_status
bt_quotient_load(bt_quotient **out, const char *text, size_t len,
                 const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, quotient_load(out, text, len, lim, diag));
}

/* ------------------------------------------------- misère analysis hook */

/*
 * The work a quotient learnt for an analysis may take in one call, in
 * steps (searched positions, states of the check's walk, positions marked
 * by pretending: each a poll of quotient.c), as a multiple of max_search:
 * 40 x 250 000 by default, which takes Dawson's Kayles (0.07) to heap 32
 * and Kayles to its proof at heap 169 from nothing, and stops 0.07 in
 * heap 33 after a few seconds (bench/README.md).  Each step of learning
 * is bounded by max_search as well (states of one search or walk).
 */
#define QUOTIENT_ANALYZE_WORK 600
/*
 * A game with no periodicity theorem (Grundy's game, a code that leaves
 * three heaps) learns its quotient for an analysis up to this heap only:
 * its quotient never answers heaps beyond the bound learnt, and such
 * quotients grow fast (Grundy's game passes the work budget at heap 29,
 * where the search answers `grundy 30` in 0.04 s).
 */
#define QUOTIENT_ANALYZE_NOPROOF 26
/*
 * The search budget of a quotient computed for a sum of several games
 * (never above the caller's max_search): a failed attempt costs its
 * whole budget before the search answers (50 000 positions, about 0.3 s
 * of CPU).
 */
#define QUOTIENT_ANALYZE_SEARCH_BIG 50000
/* The most heaps whose elements an explanation lists. */
#define QUOTIENT_EXPLAIN_HEAPS 64
/* Quotients kept between analyses, and the most elements of one. */
#define QCACHE_SLOTS 8
#define QCACHE_MAX_ORDER 2048
/* Quotients installed by bt_quotient_install (never evicted), after the
   QCACHE_SLOTS computed ones. */
#define QCACHE_INSTALLED 16
/*
 * A cache of quotients between analysis calls, per game (by its spec) and
 * bound: the quotient of heaps <= N answers every sum of heaps <= N, so an
 * entry serves any position whose heaps are at most its bound.  For a
 * union of games a failed computation is remembered too (the bound it
 * failed at), so that a position beyond the budget goes to the search at
 * once (a single game's failures are kept with its learner, below).
 * Entries hold no game (a game's reference count is not shared between
 * threads); users take a reference under the lock, so eviction never
 * frees a quotient in use.  Memory: at most QCACHE_SLOTS quotients of at
 * most QCACHE_MAX_ORDER elements (4 * order^2 bytes of table each), and
 * QLEARN_SLOTS learners (their tables: about 20 MB for 0.07 to heap 32).
 */
typedef struct qentry {
    char *spec;
    size_t upto;      /* the bound of q, or the bound that failed */
    bt_quotient *q;   /* NULL: computing to upto failed */
    size_t users;     /* references taken by analyses in progress */
    unsigned long long used;
} qentry;

static pthread_mutex_t qcache_mu = PTHREAD_MUTEX_INITIALIZER;
static qentry qcache[QCACHE_SLOTS + QCACHE_INSTALLED];
static unsigned long long qcache_clock;

/* Drops an entry that no analysis uses; caller holds the lock. */
static void
qcache_drop(qentry *e)
{
    free(e->spec);
    bt_quotient_free(e->q);
    memset(e, 0, sizeof *e);
}

/*
 * Looks up a quotient of spec's heaps that answers heaps up to top (its
 * bound is at least top, or it is proved periodic; top is SIZE_MAX when
 * the largest heap passes a size_t).  Returns it with a reference taken
 * (*slot set), or NULL; *failed is set when a bound <= top is known to
 * fail (the unions of games; a single game's failures are its learner's).
 */
static bt_quotient *
qcache_get(const char *spec, size_t top, size_t *slot, int *failed)
{
    size_t i, best = 0;
    bt_quotient *q = NULL;
    *failed = 0;
    pthread_mutex_lock(&qcache_mu);
    for (i = 0; i < QCACHE_SLOTS + QCACHE_INSTALLED; i++) {
        qentry *e = &qcache[i];
        int fits;
        if (e->spec == NULL || strcmp(e->spec, spec) != 0)
            continue;
        if (e->q == NULL && e->upto <= top)
            *failed = 1;
        fits = e->q != NULL && (e->q->proved || e->upto >= top);
        if (fits && (q == NULL || e->upto < best)) {
            best = e->upto;
            q = e->q;
            *slot = i;
        }
    }
    if (q != NULL) {
        qcache[*slot].users++;
        qcache[*slot].used = ++qcache_clock;
    }
    pthread_mutex_unlock(&qcache_mu);
    return q;
}

static void
qcache_release(size_t slot)
{
    pthread_mutex_lock(&qcache_mu);
    qcache[slot].users--;
    pthread_mutex_unlock(&qcache_mu);
}

/*
 * Stores q (or a failure when q is NULL) for spec and bound upto, evicting
 * the least recently used entry that no analysis holds.  On success takes
 * ownership of q, returns 0 and a reference in *slot; -1 when nothing was
 * stored (q stays the caller's).
 */
static int
qcache_put(const char *spec, size_t upto, bt_quotient *q, size_t *slot)
{
    size_t i, best = SIZE_MAX;
    int r = -1;
    if (q != NULL && q->order > QCACHE_MAX_ORDER)
        return -1;
    pthread_mutex_lock(&qcache_mu);
    if (q != NULL)
        /* a quotient of the same game to a smaller bound answers nothing
           that q does not (the analysis learns on from it): dropped */
        for (i = 0; i < QCACHE_SLOTS; i++) {
            qentry *e = &qcache[i];
            if (e->spec != NULL && e->users == 0 && e->q != NULL &&
                strcmp(e->spec, spec) == 0 && e->upto <= upto &&
                (q->proved || !e->q->proved))
                qcache_drop(e);
        }
    for (i = 0; i < QCACHE_SLOTS; i++) {
        if (qcache[i].users > 0)
            continue;
        if (qcache[i].spec == NULL) {
            best = i;
            break;
        }
        if (best == SIZE_MAX || qcache[i].used < qcache[best].used)
            best = i;
    }
    if (best != SIZE_MAX) {
        qentry *e = &qcache[best];
        char *sp = strdup(spec);
        if (sp != NULL) {
            if (e->spec != NULL)
                qcache_drop(e);
            e->spec = sp;
            e->upto = upto;
            e->q = q;
            e->used = ++qcache_clock;
            e->users = q != NULL;
            *slot = best;
            r = 0;
        }
    }
    pthread_mutex_unlock(&qcache_mu);
    return r;
}

bt_status
bt_quotient_install(bt_quotient *q, bt_diag *diag)
{
    size_t i, free_slot = SIZE_MAX;
    char *spec;
    bt_status st = BT_OK;
    if (q == NULL || q->g == NULL || q->ng > 0)
        return bt__fail(diag, BT_EINVAL,
                        "only the quotient of one game's heaps is "
                        "installed");
    spec = strdup(q->g->spec);
    if (spec == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    pthread_mutex_lock(&qcache_mu);
    for (i = QCACHE_SLOTS; i < QCACHE_SLOTS + QCACHE_INSTALLED; i++) {
        qentry *e = &qcache[i];
        if (e->spec == NULL) {
            if (free_slot == SIZE_MAX)
                free_slot = i;
        } else if (strcmp(e->spec, spec) == 0 && e->upto == q->upto &&
                   e->q->proved == q->proved) {
            free_slot = SIZE_MAX - 1; /* the same quotient: nothing to do */
            break;
        }
    }
    if (free_slot == SIZE_MAX)
        st = bt__fail(diag, BT_ELIMIT,
                      "more than %d quotients installed", QCACHE_INSTALLED);
    if (free_slot < SIZE_MAX - 1) {
        qentry *e = &qcache[free_slot];
        /* the cache holds no game (its reference count is not shared
           between threads) */
        bt_game_free(q->g);
        q->g = NULL;
        e->spec = spec;
        e->upto = q->upto;
        e->q = q;
        e->used = ++qcache_clock;
        spec = NULL;
        q = NULL;
    }
    pthread_mutex_unlock(&qcache_mu);
    free(spec);
    bt_quotient_free(q); /* the same one was installed before */
    return st;
}

bt_status
bt_quotient_save_proved(char **out, const bt_game *g, bt_diag *diag)
{
    size_t i, slot = SIZE_MAX;
    bt_status st;
    *out = NULL;
    /* the computed entries only: an installed one came from its caller */
    pthread_mutex_lock(&qcache_mu);
    for (i = 0; i < QCACHE_SLOTS; i++)
        if (qcache[i].spec != NULL && qcache[i].q != NULL &&
            qcache[i].q->proved && strcmp(qcache[i].spec, g->spec) == 0) {
            slot = i;
            qcache[i].users++; /* not evicted while its text is written */
            break;
        }
    pthread_mutex_unlock(&qcache_mu);
    if (slot == SIZE_MAX)
        return bt__fail(diag, BT_EUNDEF,
                        "no proved quotient of %s was computed", g->spec);
    st = quotient_text(out, qcache[slot].q, g->spec, diag);
    qcache_release(slot);
    return st;
}

/*
 * Learners kept between analyses, one per game (by its spec), so that a
 * position with a larger heap takes the quotient on from where the last
 * one stopped instead of from heap 1.  A learner holds no game (its game
 * is set again by each call: same spec, same rules) and no memo; while a
 * call takes it further it is out of the table (busy), and a second call
 * for the same game waits for it.  fail_h is the heap whose learning
 * passed a limit under max_search fail_search: a limit of one step
 * (max_search, max_table_piles, max_memory), or the work budget of a call
 * that started at heap fail_h (so that heap had the whole budget); a call
 * with no larger max_search does not try that heap again.
 */
#define QLEARN_SLOTS 4

typedef struct qlslot {
    char *spec;
    qlearner L;
    int busy;
    size_t fail_h, fail_search;
    unsigned long long used;
} qlslot;

static pthread_cond_t qlearn_cv = PTHREAD_COND_INITIALIZER;
static qlslot qlearn[QLEARN_SLOTS];

/*
 * Takes spec's learner out of the table (a new empty one when there is
 * none: L->c.g is NULL then), waiting while another call has it.  Returns
 * its slot, or SIZE_MAX when no slot is free (every one busy); *fail_h and
 * *fail_search as above.  EINTR while waiting.
 */
static bt_status
qlearn_take(const char *spec, qlearner *L, size_t *slot, size_t *fail_h,
            size_t *fail_search, const bt_limits *lim)
{
    size_t i, best;
    bt_status st = BT_OK;
    memset(L, 0, sizeof *L);
    *slot = SIZE_MAX;
    *fail_h = 0;
    *fail_search = 0;
    pthread_mutex_lock(&qcache_mu);
    for (;;) {
        int waiting = 0;
        best = SIZE_MAX;
        for (i = 0; i < QLEARN_SLOTS; i++)
            if (qlearn[i].spec != NULL && strcmp(qlearn[i].spec, spec) == 0)
                break;
        if (i < QLEARN_SLOTS && qlearn[i].busy)
            waiting = 1;
        else if (i < QLEARN_SLOTS)
            best = i;
        else
            for (i = 0; i < QLEARN_SLOTS; i++) {
                if (qlearn[i].busy)
                    continue;
                if (best == SIZE_MAX || qlearn[i].spec == NULL ||
                    (qlearn[best].spec != NULL &&
                     qlearn[i].used < qlearn[best].used))
                    best = i;
                if (qlearn[best].spec == NULL)
                    break;
            }
        if (!waiting)
            break;
        /* another call is learning this game: wait for it, polling the
           time budget (a timed wait, not a spin) */
        {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 20000000;
            if (ts.tv_nsec >= 1000000000) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000;
            }
            (void)pthread_cond_timedwait(&qlearn_cv, &qcache_mu, &ts);
        }
        if (bt__poll(lim) != BT_OK) {
            st = BT_EINTR;
            break;
        }
    }
    if (st == BT_OK && best != SIZE_MAX) {
        qlslot *e = &qlearn[best];
        if (e->spec != NULL && strcmp(e->spec, spec) != 0) {
            /* evict the least recently used game's learner */
            free(e->spec);
            learner_free(&e->L);
            memset(e, 0, sizeof *e);
        }
        if (e->spec == NULL && (e->spec = strdup(spec)) == NULL) {
            st = BT_ENOMEM;
        } else {
            *L = e->L;
            memset(&e->L, 0, sizeof e->L);
            e->busy = 1;
            *fail_h = e->fail_h;
            *fail_search = e->fail_search;
            *slot = best;
        }
    }
    pthread_mutex_unlock(&qcache_mu);
    return st;
}

/* Puts a learner back (or frees it when slot is SIZE_MAX), with its
   failure, and wakes the calls waiting for it. */
static void
qlearn_give(size_t slot, qlearner *L, size_t fail_h, size_t fail_search)
{
    /* a parked learner holds no game and no memo */
    if (L->c.g != NULL)
        learner_bind(L, NULL, NULL);
    L->c.g = NULL;
    L->c.lim = NULL;
    L->c.diag = NULL;
    if (slot == SIZE_MAX) {
        learner_free(L);
        return;
    }
    pthread_mutex_lock(&qcache_mu);
    qlearn[slot].L = *L;
    qlearn[slot].busy = 0;
    qlearn[slot].fail_h = fail_h;
    qlearn[slot].fail_search = fail_search;
    qlearn[slot].used = ++qcache_clock;
    pthread_cond_broadcast(&qlearn_cv);
    pthread_mutex_unlock(&qcache_mu);
    memset(L, 0, sizeof *L);
}

/*
 * The quotient that answers a position of g whose largest heap is need
 * (SIZE_MAX: past a size_t): the quotient of the heaps up to need, or one
 * proved periodic.  Takes g's cached learner on heap by heap from where it
 * stopped (each heap learnt on a copy, kept once proved), stopping at need
 * or at the first heap where the periodicity theorem applies, within
 * QUOTIENT_ANALYZE_WORK times max_search steps of work in this call.
 * Returns BT_OK with *out (a quotient for the cache, holding no game), or
 * BT_EUNDEF with *why (malloc'd) saying how far the quotient got and
 * which option raises the limit; BT_EINTR, BT_ENOMEM.
 */
static bt_status
quotient_learn(bt_quotient **out, char **why, bt_game *g, size_t need,
               const bt_limits *lim, bt_diag *diag)
{
    qlearner L, next;
    size_t slot, fail_h, fail_search, h0, period = 0, preperiod = 0;
    size_t work = lim->max_search;
    bt_status st = BT_OK;
    bt_quotient *q = NULL;
    bt_diag stop;
    int proved = 0, periodic = misere_need(g, 1, 1) != SIZE_MAX;
    *out = NULL;
    *why = NULL;
    memset(&stop, 0, sizeof stop);
    st = qlearn_take(g->spec, &L, &slot, &fail_h, &fail_search, lim);
    if (st != BT_OK)
        return bt__fail(diag, st,
                        st == BT_EINTR ? "the time budget ran out"
                                       : "out of memory");
    if (work > SIZE_MAX / QUOTIENT_ANALYZE_WORK)
        work = SIZE_MAX / QUOTIENT_ANALYZE_WORK;
    work = work > 0 ? work * QUOTIENT_ANALYZE_WORK : 1;
    if (L.c.nrows == 0) {
        st = learner_init(&L, g, NULL, need < 64 ? need : 64, lim, &stop);
        if (st != BT_OK)
            learner_free(&L);
    } else {
        L.c.g = g;
        learner_bind(&L, lim, &stop);
    }
    h0 = L.h;
    L.c.work_max = L.c.work + work;
    L.c.work_out = 0;
    while (st == BT_OK) {
        if (periodic && L.h > 0 && need > L.h) {
            proved = learner_period(&L, &period, &preperiod);
            if (proved < 0) {
                st = bt__fail(&stop, BT_ENOMEM, "out of memory");
                break;
            }
            if (proved)
                break;
        }
        if (L.h >= need)
            break;
        if (L.h + 1 == fail_h && lim->max_search <= fail_search) {
            /* failed before with this budget: not again */
            st = bt__fail(&stop, BT_ELIMIT,
                          "past the budget of max_search %zu before; raise "
                          "max_search, --max-search",
                          fail_search);
            break;
        }
        if (L.c.nrows > QCACHE_MAX_ORDER) {
            st = bt__fail(&stop, BT_ELIMIT,
                          "more than %d elements", QCACHE_MAX_ORDER);
            break;
        }
        {
            /* the conservative extension on L itself (undone if it
               fails); the rest, which changes the whole table, on a copy
               kept once the heap is proved */
            int done;
            if ((st = learner_heap_begin(&L, &done)) != BT_OK) {
                learner_undo(&L);
                if (st == BT_ELIMIT && (L.h == h0 || !L.c.work_out)) {
                    fail_h = L.h + 1;
                    fail_search = lim->max_search;
                }
                break;
            }
            if (done)
                continue;
        }
        st = learner_copy(&next, &L);
        learner_undo(&L);
        if (st != BT_OK)
            break;
        next.c.diag = &stop;
        if ((st = learner_heap_rest(&next)) != BT_OK) {
            L.c.polls = next.c.polls;
            L.c.work = next.c.work;
            L.c.work_out = next.c.work_out;
            learner_free(&next);
            if (st == BT_ELIMIT && (L.h == h0 || !L.c.work_out)) {
                fail_h = L.h + 1;
                fail_search = lim->max_search;
            }
            break;
        }
        learner_free(&L);
        L = next;
        /* its memo is empty now: its memory goes back, and the budget
           starts afresh for the next heap's copy */
        learner_bind(&L, lim, &stop);
    }
    if (st == BT_OK) {
        st = learner_quotient(&q, &L, &stop);
        if (st == BT_OK) {
            q->proved = proved;
            q->period = period;
            q->preperiod = preperiod;
            st = present(q, &stop);
        }
        if (st == BT_OK) {
            /* the cache holds no game: q's reference is dropped here, in
               the thread that took it */
            bt_game_free(q->g);
            q->g = NULL;
            *out = q;
            q = NULL;
        }
    }
    bt_quotient_free(q);
    if (st == BT_ELIMIT) {
        bt__buf b;
        bt__buf_init(&b);
        bt__buf_printf(&b, "the misère quotient of %s got to heap %zu",
                       g->spec, L.h);
        if (need != SIZE_MAX)
            bt__buf_printf(&b, " of %zu", need);
        if (L.c.work_out)
            bt__buf_printf(&b,
                           " (heap %zu: over %zu steps of work, %d x "
                           "max_search; raise max_search, --max-search)",
                           L.h + 1, work, QUOTIENT_ANALYZE_WORK);
        else
            bt__buf_printf(&b, " (heap %zu: %s)", L.h + 1, stop.message);
        *why = bt__buf_take(&b);
        st = *why == NULL ? bt__fail(diag, BT_ENOMEM, "out of memory")
                          : BT_EUNDEF;
    } else if (st == BT_EINTR && L.h > h0) {
        (void)bt__fail(diag, st,
                       "the time budget ran out while learning the misère "
                       "quotient of %s at heap %zu (heaps up to %zu are "
                       "learnt, kept for the next analysis)",
                       g->spec, L.h + 1, L.h);
    } else if (st != BT_OK && diag != NULL) {
        *diag = stop;
    }
    qlearn_give(slot, &L, fail_h, fail_search);
    return st;
}

typedef struct qmove {
    const bt_quotient *q;
    size_t comp, excl;
    size_t gi; /* the component's game in a union quotient (q->ng > 0) */
    bt_status (*move)(void *ud, size_t comp, const mpz_t *to, size_t nto);
    void *ud;
} qmove;

/* The element of a heap of h counters of game gi (a union quotient), or
   of the quotient's game. */
static size_t
heap_element(const bt_quotient *q, size_t gi, const mpz_t h)
{
    if (q->ng > 0) {
        size_t s = (size_t)mpz_get_ui(h);
        return s == 0 ? 0 : q->heap[(s - 1) * q->ng + gi + 1];
    }
    return q->heap[heap_reduce(q, h)];
}

static bt_status
on_quotient_option(void *ud, const mpz_t *to, size_t nto)
{
    qmove *m = ud;
    size_t x = m->excl, i;
    for (i = 0; i < nto; i++)
        x = m->q->mul[x * m->q->order + heap_element(m->q, m->gi, to[i])];
    return m->q->isp[x] ? m->move(m->ud, m->comp, to, nto) : BT_OK;
}

/*
 * The winning moves of a huge heap h of an octal code (too many options
 * to list): every move leaving one heap, and the splits a + (h - k - a)
 * with a <= preperiod + 2 period + t.  Past that bound both heaps are at
 * least the preperiod, so a split's element depends on a mod period only,
 * and every class of winning splits has a member listed; *more is set
 * when some class has more members (then it has many more).
 */
static bt_status
window_moves(qmove *m, const bt__heap_rules *r, const mpz_t h, int *more,
             const bt_limits *lim, bt_diag *diag)
{
    const bt_quotient *q = m->q;
    size_t k, a, w = q->preperiod + 2 * q->period + r->t, per = q->period;
    size_t hm = 0;
    int fast = 0;
    mpz_t to[2];
    bt_status st = BT_OK;
    mpz_init(to[0]);
    mpz_init(to[1]);
    /* the larger heap h - k - a is past upto: its element is that of
       heap_reduce's residue, from h mod period once per heap (10^4 huge
       heaps: no division of a big number per split) */
    if (q->proved && w + r->t < SIZE_MAX - q->upto &&
        mpz_cmp_ui(h, (unsigned long)(q->upto + w + r->t)) > 0) {
        hm = (size_t)mpz_fdiv_ui(h, (unsigned long)per);
        fast = 1;
    }
    for (k = 0; k <= r->t && st == BT_OK; k++) {
        unsigned d = r->digit[k];
        if ((d & 2u) && k > 0) {
            mpz_sub_ui(to[0], h, (unsigned long)k);
            st = on_quotient_option(m, (const mpz_t *)to, 1);
        }
        if (!(d & 4u))
            continue;
        for (a = 1; a <= w && st == BT_OK; a++) {
            size_t x, big;
            /* w grows with the period, up to that of a loaded quotient */
            if ((a & 4095) == 0 && bt__poll(lim) != BT_OK) {
                st = bt__fail(diag, BT_EINTR, "the time budget ran out");
                break;
            }
            if (fast) {
                size_t res = (hm + per - (k + a) % per) % per;
                big = q->preperiod +
                      (res + per - q->preperiod % per) % per;
            } else {
                mpz_sub_ui(to[1], h, (unsigned long)(k + a));
                big = heap_reduce(q, to[1]);
            }
            mpz_set_ui(to[0], (unsigned long)a);
            x = q->mul[m->excl * q->order +
                       q->heap[a <= q->upto ? a : heap_reduce(q, to[0])]];
            x = q->mul[x * q->order + q->heap[big]];
            if (!q->isp[x])
                continue;
            mpz_sub_ui(to[1], h, (unsigned long)(k + a));
            if (a >= q->preperiod)
                *more = 1; /* a + period wins too, and so on */
            st = m->move(m->ud, m->comp, (const mpz_t *)to, 2);
        }
    }
    mpz_clear(to[0]);
    mpz_clear(to[1]);
    return st;
}

/* The most games and the largest heap of a sum of several games that the
   analysis takes to the quotient of the union of their heaps. */
#define QUNION_GAMES 4
#define QUNION_MAX 16

static int
cmp_spec(const void *a, const void *b)
{
    return strcmp((*(bt_game *const *)a)->spec,
                  (*(bt_game *const *)b)->spec);
}

/*
 * A sum of heaps of several heap games, all of at most QUNION_MAX
 * counters: through the quotient of the union of the games' heaps up to
 * the largest heap (cached under "game1 + game2 + ...", the specs in
 * order), within the smaller search budget.  BT_EUNDEF when it does not
 * apply or exceeds the budget.
 */
static bt_status
quotient_misere_union(const bt_position *p, bt_outcome *outcome,
                      bt_status (*move)(void *ud, size_t comp,
                                        const mpz_t *to, size_t nto),
                      void *ud, char **note, const bt_limits *lim,
                      bt_diag *diag)
{
    size_t n = bt_position_size(p), i, j, ng = 0, top = 0, slot = SIZE_MAX;
    size_t *gi = NULL, *el = NULL, x, prefix;
    bt_game *games[QUNION_GAMES];
    bt_quotient *q = NULL;
    bt_status st = BT_OK;
    bt__buf key, b;
    int failed;

    for (i = 0; i < n; i++) {
        bt_game *g = bt_position_game(p, i);
        const mpz_t *v = bt_position_nums(p, i);
        if (bt__heap_of(g) == NULL || mpz_cmp_ui(v[0], QUNION_MAX) > 0)
            return BT_EUNDEF;
        if (mpz_get_ui(v[0]) > top)
            top = mpz_get_ui(v[0]);
        for (j = 0; j < ng; j++)
            if (strcmp(games[j]->spec, g->spec) == 0)
                break;
        if (j == ng) {
            if (ng == QUNION_GAMES)
                return BT_EUNDEF;
            games[ng++] = g;
        }
    }
    if (ng < 2 || top == 0)
        return BT_EUNDEF;
    qsort(games, ng, sizeof *games, cmp_spec);
    bt__buf_init(&key);
    for (j = 0; j < ng; j++)
        bt__buf_printf(&key, "%s%s", j ? " + " : "", games[j]->spec);
    if (key.data == NULL) {
        bt__buf_free(&key);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    q = qcache_get(key.data, top, &slot, &failed);
    if (q == NULL && failed) {
        bt__buf_free(&key);
        return BT_EUNDEF;
    }
    if (q == NULL) {
        qalpha al;
        bt_limits small = *lim;
        if (small.max_search > QUOTIENT_ANALYZE_SEARCH_BIG)
            small.max_search = QUOTIENT_ANALYZE_SEARCH_BIG;
        al.ng = ng;
        al.bound = top;
        al.games = games;
        st = quotient_build(&q, games[0], &al, ng * top, 0, &small, NULL);
        if (st == BT_EINTR || st == BT_ENOMEM) {
            bt__buf_free(&key);
            return bt__fail(diag, st,
                            st == BT_EINTR ? "the time budget ran out"
                                           : "out of memory");
        }
        if (st != BT_OK) {
            (void)qcache_put(key.data, top, NULL, &slot);
            bt__buf_free(&key);
            return BT_EUNDEF;
        }
        bt_game_free(q->g);
        q->g = NULL;
        q->upto = top; /* the bound of every game (letters: ng * top) */
        if (qcache_put(key.data, top, q, &slot) != 0)
            slot = SIZE_MAX;
    }
    gi = malloc((n + 1) * sizeof *gi);
    el = malloc((n + 1) * sizeof *el);
    if (gi == NULL || el == NULL) {
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
        goto done;
    }
    /* suffix products in el, from the right */
    el[n] = 0;
    for (i = n; i-- > 0;) {
        bt_game *g = bt_position_game(p, i);
        for (j = 0; strcmp(games[j]->spec, g->spec) != 0; j++)
            ;
        gi[i] = j;
        el[i] = q->mul[heap_element(q, j, bt_position_nums(p, i)[0]) *
                           q->order +
                       el[i + 1]];
    }
    x = el[0];
    *outcome = q->isp[x] ? BT_P : BT_N;
    prefix = 0;
    /* a heap of at most QUNION_MAX counters: O(QUNION_MAX^2) options
       each, O(n) in all */
    for (i = 0; *outcome == BT_N && i < n; i++) {
        qmove m;
        bt_game *g = bt_position_game(p, i);
        const mpz_t *v = bt_position_nums(p, i);
        m.q = q;
        m.comp = i;
        m.gi = gi[i];
        m.excl = q->mul[prefix * q->order + el[i + 1]];
        m.move = move;
        m.ud = ud;
        st = bt__rs_options(g, v, bt_position_count(p, i),
                            on_quotient_option, &m, lim, diag);
        if (st != BT_OK)
            goto done;
        prefix = q->mul[prefix * q->order + heap_element(q, gi[i], v[0])];
    }
    bt__buf_init(&b);
    bt__buf_printf(&b,
                   "Misère play through the misère quotient Q of the union "
                   "of the heaps of %s, up to %zu counters (Plambeck and "
                   "Siegel): every sum of such heaps is an element of Q, of "
                   "order %zu with %zu elements in its P-portion P, and a "
                   "sum is a misère P-position exactly when its element is "
                   "in P.  The product of the heaps' elements is x = %s, "
                   "which is %sin P: %s.\n",
                   key.data, top, q->order, q->pcount, q->word[x],
                   q->isp[x] ? "" : "not ",
                   q->isp[x] ? "a P-position, every move leaves a product "
                               "outside P"
                             : "an N-position; a winning move leaves a "
                               "product in P");
    *note = bt__buf_take(&b);
    if (*note == NULL)
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
done:
    bt__buf_free(&key);
    free(gi);
    free(el);
    if (slot != SIZE_MAX)
        qcache_release(slot);
    else
        bt_quotient_free(q);
    return st;
}

static bt_status
quotient_new_sum(bt_quotient **out, bt_game *const *games, size_t ng,
                 size_t n, const bt_limits *lim, bt_diag *diag)
{
    bt_game *gs[QUNION_GAMES];
    bt_quotient *q = NULL;
    qalpha al;
    size_t i;
    bt_status st;

    *out = NULL;
    if (ng == 1)
        return bt_quotient_new(out, games[0], n, lim, diag);
    if (ng < 1 || ng > QUNION_GAMES)
        return bt__fail(diag, BT_EINVAL,
                        "the quotient of a union is of 2 to %d games, not "
                        "%zu", QUNION_GAMES, ng);
    for (i = 0; i < ng; i++) {
        if (bt__heap_of(games[i]) == NULL)
            return bt__fail(diag, BT_EINVAL,
                            "%s is not a heap game of a union: the union's "
                            "quotient is of sub:S, octal and Grundy's game",
                            games[i] ? games[i]->spec : "(null)");
        gs[i] = games[i];
    }
    /* the letters in the order the analysis uses (cmp_spec) */
    qsort(gs, ng, sizeof *gs, cmp_spec);
    for (i = 1; i < ng; i++)
        if (strcmp(gs[i - 1]->spec, gs[i]->spec) == 0)
            return bt__fail(diag, BT_EINVAL, "%s is named twice in the "
                                             "union", gs[i]->spec);
    if (n == 0 || n > SIZE_MAX / ng)
        return bt__fail(diag, BT_EINVAL,
                        "the heap bound of a union must be at least 1");
    al.ng = ng;
    al.bound = n;
    al.games = gs;
    st = quotient_build(&q, gs[0], &al, ng * n, 0, lim, diag);
    if (st != BT_OK)
        return st;
    q->upto = n; /* the bound of every game (letters: ng * n) */
    q->games = malloc(ng * sizeof *q->games);
    if (q->games == NULL) {
        bt_quotient_free(q);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    for (i = 0; i < ng; i++)
        q->games[i] = bt_game_ref(gs[i]);
    *out = q;
    return BT_OK;
}

bt_status
bt_quotient_new_sum(bt_quotient **out, bt_game *const *games, size_t ng,
                    size_t n, const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, quotient_new_sum(out, games, ng, n, lim, diag));
}

bt_status
bt__quotient_misere(const bt_position *p, bt_outcome *outcome,
                    bt_status (*move)(void *ud, size_t comp, const mpz_t *to,
                                      size_t nto),
                    void *ud, char **note, char **left_out,
                    const bt_limits *lim, bt_diag *diag)
{
    bt_game *g = bt_position_single_game(p);
    size_t n = bt_position_size(p), i, top = 0, x = 0, slot = SIZE_MAX;
    size_t *suffix = NULL, *red = NULL, need = 0, listed;
    bt_quotient *q = NULL;
    bt_status st;
    bt__buf b;
    int failed;

    *note = NULL;
    *left_out = NULL;
    if (g == NULL && n > 0)
        return quotient_misere_union(p, outcome, move, ud, note, lim, diag);
    if (n == 0 || bt__heap_of(g) == NULL)
        return BT_EUNDEF;
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        if (!mpz_fits_ulong_p(v[0]) || mpz_get_ui(v[0]) >= SIZE_MAX)
            need = SIZE_MAX;
        else if (mpz_get_ui(v[0]) > need)
            need = (size_t)mpz_get_ui(v[0]);
    }
    /* a cached quotient to a bound of at least need, or proved (computed,
       or installed from a file) */
    q = qcache_get(g->spec, need, &slot, &failed);
    if (q == NULL && need > QUOTIENT_ANALYZE_NOPROOF &&
        misere_need(g, 1, 1) == SIZE_MAX)
        return BT_EUNDEF; /* no periodicity theorem: the search */
    if (q == NULL) {
        char *why = NULL;
        st = quotient_learn(&q, &why, g, need, bt__limits(lim), diag);
        if (st == BT_EUNDEF) {
            *note = why; /* how far it got: the search answers instead */
            return st;
        }
        if (st != BT_OK)
            return st;
        if (qcache_put(g->spec, q->upto, q, &slot) != 0)
            slot = SIZE_MAX; /* not stored: q is ours to free */
    }
    top = q->upto;
    st = BT_OK; /* a quotient from the cache: nothing has run yet */
    suffix = malloc((n + 1) * sizeof *suffix);
    red = malloc((n + 1) * sizeof *red);
    if (suffix == NULL || red == NULL) {
        free(suffix);
        free(red);
        if (slot != SIZE_MAX)
            qcache_release(slot);
        else
            bt_quotient_free(q);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    /* red[i]: the heap of at most upto counters whose element is that of
       component i (itself, or through the proved period) */
    for (i = 0; i < n; i++)
        red[i] = heap_reduce(q, bt_position_nums(p, i)[0]);
    suffix[n] = 0;
    for (i = n; i-- > 0;)
        suffix[i] = q->mul[q->heap[red[i]] * q->order + suffix[i + 1]];
    x = suffix[0];
    *outcome = q->isp[x] ? BT_P : BT_N;
    if (*outcome == BT_N) {
        size_t prefix = 0;
        for (i = 0; i < n; i++) {
            qmove m;
            size_t e = q->heap[red[i]];
            const mpz_t *v = bt_position_nums(p, i);
            m.q = q;
            m.comp = i;
            m.excl = q->mul[prefix * q->order + suffix[i + 1]];
            m.gi = 0;
            m.move = move;
            m.ud = ud;
            st = bt__rs_options(g, v, bt_position_count(p, i),
                                on_quotient_option, &m, lim, diag);
            if (st == BT_ELIMIT && mpz_cmp_ui(v[0], top) > 0) {
                /* a huge heap with splits: a window of its moves */
                const bt__heap_rules *r = &bt__heap_of(g)->rules;
                int more = 0;
                st = window_moves(&m, r, v[0], &more, lim, diag);
                if (st == BT_OK && more && *left_out == NULL) {
                    bt__buf lb;
                    bt__buf_init(&lb);
                    bt__buf_printf(
                        &lb,
                        "a heap past the max_search limit has too many "
                        "splits to list: listed are its winning moves that "
                        "leave one heap and its winning splits whose "
                        "smaller heap has at most %zu counters; left out "
                        "are the winning splits whose smaller heap is "
                        "larger, each of which leaves the same element of "
                        "Q as a listed one (both heaps past the preperiod "
                        "%zu, the smaller one shorter by a multiple of the "
                        "period %zu)",
                        q->preperiod + 2 * q->period + r->t, q->preperiod,
                        q->period);
                    *left_out = bt__buf_take(&lb);
                    if (*left_out == NULL)
                        st = bt__fail(diag, BT_ENOMEM, "out of memory");
                }
            }
            if (st != BT_OK)
                break;
            prefix = q->mul[prefix * q->order + e];
            if ((i & 4095) == 4095 && (st = bt__poll(lim)) != BT_OK) {
                st = bt__fail(diag, st, "the time budget ran out");
                break;
            }
        }
    }
    if (st == BT_OK) {
        /* the explanation: each heap size once, then the product */
        unsigned char *shown = calloc(top + 1, 1);
        bt__buf_init(&b);
        if (q->proved)
            bt__buf_printf(&b,
                           "Misère play through the misère quotient Q of "
                           "%s (Plambeck and Siegel): every sum of heaps "
                           "is an element of Q, of order %zu with %zu "
                           "elements in its P-portion P, and a sum is a "
                           "misère P-position exactly when its element is "
                           "in P.  Q was %s the heaps of at "
                           "most %zu counters and proved to be the "
                           "quotient of all heaps by the periodicity "
                           "theorem: the element of heap h + %zu is that "
                           "of heap h for every h >= %zu.  Each heap is an "
                           "element of Q:",
                           g->spec, q->order, q->pcount,
                           q->loaded ? "read from a saved file and checked "
                                       "exactly, as if computed, on"
                                     : "computed from",
                           top, q->period, q->preperiod);
        else
            bt__buf_printf(&b,
                           "Misère play through the misère quotient Q of "
                           "%s (Plambeck and Siegel): every sum of heaps "
                           "of at most %zu counters is an element of Q, of "
                           "order %zu with %zu elements in its P-portion "
                           "P, and a sum is a misère P-position exactly "
                           "when its element is in P.%s  Each heap is an "
                           "element of Q:",
                           g->spec, top, q->order, q->pcount,
                           q->loaded ? "  Q was read from a saved file and "
                                       "checked exactly, as if computed."
                                     : "");
        for (i = 0, listed = 0; shown != NULL && i < n; i++) {
            const mpz_t *v = bt_position_nums(p, i);
            if (mpz_cmp_ui(v[0], top) <= 0) {
                if (shown[red[i]])
                    continue;
                shown[red[i]] = 1;
            }
            if (listed++ == QUOTIENT_EXPLAIN_HEAPS) {
                bt__buf_puts(&b, " (the other heaps likewise);");
                break;
            }
            bt__buf_puts(&b, " heap ");
            bt__buf_mpz(&b, v[0]);
            if (mpz_cmp_ui(v[0], top) > 0)
                bt__buf_printf(&b, " = heap %zu", red[i]);
            bt__buf_printf(&b, " = %s;", q->word[q->heap[red[i]]]);
        }
        free(shown);
        bt__buf_printf(&b, " the product is x = %s, which is %sin P: %s.\n",
                       q->word[x], q->isp[x] ? "" : "not ",
                       q->isp[x] ? "a P-position, every move leaves a "
                                   "product outside P"
                                 : "an N-position; a winning move leaves "
                                   "a product in P");
        *note = bt__buf_take(&b);
        if (*note == NULL)
            st = bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    free(suffix);
    free(red);
    if (slot != SIZE_MAX)
        qcache_release(slot);
    else
        bt_quotient_free(q);
    return st;
}
