/*
 * moore.c -- Moore's Nim_k (E. H. Moore, "A generalization of the game
 * called Nim", Annals of Mathematics 11 (1910) 93-94): any number of piles
 * in ONE component (variable arity); a move takes counters from at least
 * one and at most k piles (any number from each).  Selected as `moore:K`.
 *
 * Normal play (Moore's theorem): a position is P exactly when, the piles
 * written in binary, every column's digit sum is divisible by k + 1.  k = 1
 * is Bouton's Nim.  From a P-position a move changes at most k piles, so
 * every column it changes moves its sum by 1..k ones (mod k + 1 not 0), the
 * highest changed column of some changed pile at least; from an N-position
 * the greedy move of winning_one() (top column down, lowering d piles with
 * a 1 where the column's residue is d and no freed pile can fix it) reaches
 * a P-position touching at most k piles.
 *
 * Misère play (docs/moore.md, derived as Bouton sec. 6 derives Nim's): P
 * exactly when some pile is >= 2 and every column sum is divisible by
 * k + 1, or every pile is <= 1 and the number of ones is = 1 (mod k + 1).
 *
 * Grundy values: for k = 1 the nim-sum; for k >= 2 they have no known
 * closed form: 0 exactly at the P-positions above, else the generic mex
 * (generic.c) on small positions, BT_ERANGE (out of reach) on large ones,
 * where a lone component is decided by its moves to value 0.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

/* The largest k accepted: moves change at most k piles. */
#define MOORE_MAX_K 64
/* Columns of the exact enumeration of moves (a recursion per column); past
   it, one winning move by the greedy proof and the list marked partial. */
#define MOORE_MAX_COLUMNS 2048
/* Grundy values by the generic mex only for at most this many positions
   below a component (the product of pile + 1). */
#define MOORE_MEX_POSITIONS 1024ul

typedef struct moore {
    unsigned long k;
} moore;

static unsigned long
k_of(const bt_game *g)
{
    return ((const moore *)g->state)->k;
}

static bt_status
moore_init(bt_game *g, const char *name, const char *params, bt_diag *diag)
{
    moore *m;
    char *end;
    unsigned long k;
    (void)name;
    if (params == NULL || *params < '0' || *params > '9')
        return bt__fail_at(diag, BT_EPARSE, 0,
                           "moore needs k, the most piles a move may take "
                           "from, as moore:K (e.g. moore:2)");
    k = strtoul(params, &end, 10);
    if (*end != '\0' || k < 1 || k > MOORE_MAX_K)
        return bt__fail_at(diag, BT_EPARSE, 0,
                           "moore:%s: K must be an integer from 1 to %d",
                           params, MOORE_MAX_K);
    m = malloc(sizeof *m);
    if (m == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    m->k = k;
    g->state = m;
    return bt__game_set_spec(g, "moore:%lu", k);
}

static void
moore_fini(bt_game *g)
{
    free(g->state);
    g->state = NULL;
}

/* The most binary columns among the piles. */
static size_t
columns(const mpz_t *c, size_t n)
{
    size_t i, w = 0;
    for (i = 0; i < n; i++)
        if (mpz_sgn(c[i]) > 0 && mpz_sizeinbase(c[i], 2) > w)
            w = mpz_sizeinbase(c[i], 2);
    return w;
}

/* --------------------------------------------------------------- bounds */

/*
 * The bounds of every walk below whose length depends on the input (the
 * piles, their columns, the moves listed).  A walk counts its steps and
 * every BOUND_POLL of them asks the budget and lim's interrupt whether to
 * go on (bt__budget_check); what it holds is charged to a budget of
 * lim->max_memory, and so are the moves it hands out, since its caller
 * keeps them.  Past either the walk stops with BT_ELIMIT or BT_EINTR and
 * the message in diag.
 *
 * The moves listed count toward lim->max_search by their size: a move is
 * a whole position, n piles of their 64-bit words, and a list of 200 000
 * of them (2 048 piles each) is hundreds of megabytes of answer for 15 KB
 * of question.  A move counts the words of its piles (at least one a
 * pile), so that a list holds at most max_search words, as a search holds
 * at most max_search positions; the first move is always listed.  Past
 * that the walk stops with BT_ELIMIT and sets `full` (max_search's, told
 * apart from the budget's).
 */
#define BOUND_POLL 1024u

typedef struct bound {
    bt__budget budget;
    const bt_limits *lim;
    bt_diag *diag;
    size_t steps;
    size_t move_bytes; /* what one move handed out holds, at most */
    size_t move_words; /* what one move counts toward max_search */
    size_t listed, words; /* moves handed out, and their count */
    int full;             /* max_search stopped the list */
} bound;

/* lim: already bt__limits()'d.  A move of c (n piles) lowers some of them:
   it holds no more than c does. */
static void
bound_init(bound *b, const mpz_t *c, size_t n, const bt_limits *lim,
           bt_diag *diag)
{
    size_t i;
    bt__budget_init(&b->budget, lim);
    b->lim = lim;
    b->diag = diag;
    b->steps = b->listed = b->words = 0;
    b->full = 0;
    b->move_bytes = sizeof(bt_move) + 2 * 16;
    b->move_words = 0;
    for (i = 0; i < n; i++) {
        b->move_bytes += bt__mpz_bytes(c[i]);
        b->move_words += mpz_size(c[i]) ? mpz_size(c[i]) : 1;
    }
}

static bt_status
bound_step(bound *b)
{
    if ((++b->steps % BOUND_POLL) != 0)
        return BT_OK;
    return bt__budget_check(&b->budget, b->lim, b->diag);
}

static bt_status
bound_charge(bound *b, size_t bytes)
{
    return bt__budget_charge(&b->budget, bytes, b->diag);
}

/* Counts and charges one more move to hand out: BT_ELIMIT (full) past
   max_search, or past the budget. */
static bt_status
bound_move(bound *b)
{
    bt_status st;
    if (b->listed > 0 && (b->words >= b->lim->max_search ||
                          b->move_words > b->lim->max_search - b->words)) {
        b->full = 1;
        return BT_ELIMIT;
    }
    if ((st = bound_charge(b, b->move_bytes)) != BT_OK)
        return st;
    b->listed++;
    b->words += b->move_words;
    return BT_OK;
}

/* The message of a list that max_search stopped. */
static bt_status
bound_full(const bound *b, unsigned long k, const char *what)
{
    return bt__fail(b->diag, BT_ELIMIT,
                    "a moore:%lu position has more %s than the max_search "
                    "limit lets list (%zu: a move counts the 64-bit words "
                    "of its piles, %zu here)",
                    k, what, b->lim->max_search, b->move_words);
}

/* The binary columns' digit sums, counts[j] for j < w (malloc'd, charged
   to b), in one pass over the ones of the piles (mpz_scan1): the work is
   that of the input, not of its piles times its columns (a pile of 10^6
   digits among 10^6 piles of 0 is 3.3 10^6 columns, not 3.3 10^12 bits to
   test). */
static bt_status
column_counts(size_t **out, const mpz_t *c, size_t n, size_t w, bound *b)
{
    size_t *counts, i;
    bt_status st;
    *out = NULL;
    if ((st = bound_charge(b, (w ? w : 1) * sizeof *counts)) != BT_OK)
        return st;
    counts = calloc(w ? w : 1, sizeof *counts);
    if (counts == NULL)
        return bt__fail(b->diag, BT_ENOMEM, "out of memory");
    for (i = 0; i < n; i++) {
        mp_bitcnt_t j;
        if (mpz_sgn(c[i]) == 0)
            continue;
        for (j = mpz_scan1(c[i], 0); j != ~(mp_bitcnt_t)0;
             j = mpz_scan1(c[i], j + 1)) {
            counts[j]++;
            if ((st = bound_step(b)) != BT_OK) {
                free(counts);
                return st;
            }
        }
        if ((st = bound_step(b)) != BT_OK) {
            free(counts);
            return st;
        }
    }
    *out = counts;
    return BT_OK;
}

/* Moore's rule: every column's digit sum divisible by k + 1 (*zero 1). */
static bt_status
columns_zero(int *zero, const mpz_t *c, size_t n, unsigned long k, bound *b)
{
    size_t w = columns(c, n), j, *counts;
    bt_status st = column_counts(&counts, c, n, w, b);
    if (st != BT_OK)
        return st;
    *zero = 1;
    for (j = 0; j < w && *zero; j++)
        *zero = counts[j] % (k + 1) == 0;
    free(counts);
    bt__budget_release(&b->budget, (w ? w : 1) * sizeof *counts);
    return BT_OK;
}

/* ------------------------------------------------------------ options */

typedef struct opts {
    const mpz_t *c;
    size_t n;
    unsigned long k;
    mpz_t *y;
    bt__emit emit;
    void *ud;
    bound b;
} opts;

/* Hands y out as one move: counted (max_search), charged, emitted. */
static bt_status
opts_emit(opts *o)
{
    bt_status st = bound_move(&o->b);
    return st != BT_OK ? st : o->emit(o->ud, (const mpz_t *)o->y, o->n);
}

/* Every y with y_i <= x_i that differs from x in 1..k piles, each once:
   the changed piles are chosen in increasing order, each lowered to every
   smaller size, and y is handed out when its last changed pile is set.
   The recursion is as deep as the piles changed (at most k), whatever the
   number of piles, and every step of a loop hands out a move or passes a
   pile. */
static bt_status
all_options(opts *o, size_t from, unsigned long changed)
{
    size_t i;
    bt_status st = BT_OK;
    if (changed == o->k)
        return BT_OK;
    for (i = from; i < o->n && st == BT_OK; i++) {
        if ((st = bound_step(&o->b)) != BT_OK)
            break;
        if (mpz_sgn(o->c[i]) == 0)
            continue;
        while (st == BT_OK && mpz_sgn(o->y[i]) > 0) {
            mpz_sub_ui(o->y[i], o->y[i], 1);
            st = opts_emit(o);
            if (st == BT_OK)
                st = all_options(o, i + 1, changed + 1);
        }
        mpz_set(o->y[i], o->c[i]);
    }
    return st;
}

static bt_status
moore_options(bt_game *g, const mpz_t *c, size_t n, bt__emit emit, void *ud,
              const bt_limits *lim, bt_diag *diag)
{
    opts o;
    size_t i;
    bt_status st;
    lim = bt__limits(lim);
    o.c = c;
    o.n = n;
    o.k = k_of(g);
    o.emit = emit;
    o.ud = ud;
    bound_init(&o.b, c, n, lim, diag);
    o.y = malloc((n ? n : 1) * sizeof *o.y);
    if (o.y == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    for (i = 0; i < n; i++)
        mpz_init_set(o.y[i], c[i]);
    st = all_options(&o, 0, 0);
    for (i = 0; i < n; i++)
        mpz_clear(o.y[i]);
    free(o.y);
    if (st == BT_ELIMIT && o.b.full)
        return bound_full(&o.b, o.k, "moves");
    return st;
}

/* ------------------------------------------------ moves to P-positions */

/*
 * The moves to P-positions, column by column from the top: `loose` piles
 * (changed already, so below their first change free) number at most k;
 * in column j a pile not yet loose keeps its bit, or, when its bit is 1,
 * becomes loose with bit 0; the column's sum must be divisible by k + 1.
 * Each path to the bottom with at least one loose pile is one move, and
 * each move is one path (its loose piles are those it changes).
 *
 * No path dies (so the walk is as long as the moves it lists, not as the
 * subsets of piles it could try): with T tight piles with a 1 in column j,
 * f loose piles (free here) and c = k - f more that may be lowered, the
 * column's sum T - l + v (l <= min(T, c) lowered here, v <= f ones from
 * the free piles) takes every value of [T - min(T, c), T + f], an interval
 * of k + 1 values when T >= c and one holding 0 otherwise: some choice
 * always makes it divisible.  Within a column a choice is tried only when
 * the choices left can still make it so (feasible()), and the piles of a
 * column are walked as lists (column j's ones, built once), so the C stack
 * holds a frame per column and per pile lowered, never one per pile.
 */
typedef struct pmoves {
    const mpz_t *c;
    size_t n;
    unsigned long k;
    mpz_t *y;
    long *since; /* -1: tight (y_i = x_i so far); else the column where
                    pile i was lowered (bit 1 to 0): free below it */
    size_t *loose; /* the loose piles, in the order they were lowered */
    size_t nloose;
    size_t *off;   /* column j's ones are piles ones[off[j] .. off[j+1]) */
    size_t *ones;
    size_t *tight; /* column j's tight ones at tight[off[j]..], in use */
    bt__emit emit;
    void *ud;
    size_t work, max_work;
    int tired; /* max_work steps taken */
    bound b;
} pmoves;

static bt_status p_column(pmoves *m, long j);

/* With T tight ones in column j and f free piles: the ones v the free
   piles must give when l of the T are lowered (v = l - T mod k + 1); a
   choice is good when v <= f. */
static unsigned long
free_ones(const pmoves *m, size_t l, size_t T)
{
    unsigned long m1 = m->k + 1;
    return (unsigned long)((l % m1 + m1 - T % m1) % m1);
}

/* Some l in [lo, hi] is good. */
static int
feasible(const pmoves *m, size_t lo, size_t hi, size_t T, size_t f)
{
    unsigned long m1 = m->k + 1, v;
    if (hi < lo)
        return 0;
    if (hi - lo + 1 >= m1)
        return 1;
    v = free_ones(m, lo, T);
    return v <= f || lo + (m1 - v) <= hi;
}

/* In column j: every choice of `need` of the f free piles (the first f
   loose ones) to put a 1, the others a 0, then the next column. */
static bt_status
set_free_bits(pmoves *m, long j, size_t f, size_t need)
{
    unsigned char comb[MOORE_MAX_K + 1];
    size_t r, x;
    bt_status st;
    for (r = 0; r < need; r++)
        comb[r] = (unsigned char)r;
    for (;;) {
        for (x = 0; x < f; x++)
            mpz_clrbit(m->y[m->loose[x]], (mp_bitcnt_t)j);
        for (r = 0; r < need; r++)
            mpz_setbit(m->y[m->loose[comb[r]]], (mp_bitcnt_t)j);
        if ((st = p_column(m, j - 1)) != BT_OK)
            return st;
        /* the next combination, in lexicographic order */
        for (r = need; r > 0 && comb[r - 1] == f - need + r - 1; r--)
            ;
        if (r == 0)
            return BT_OK;
        comb[r - 1]++;
        for (x = r; x < need; x++)
            comb[x] = (unsigned char)(comb[x - 1] + 1);
    }
}

/* In column j, whose T tight ones are t[0..T-1] and f piles are free: l of
   t[0..p-1] lowered here so far; lowers no more (when that is good), or
   one more of t[p..] and goes on. */
static bt_status
lower_from(pmoves *m, long j, const size_t *t, size_t T, size_t p, size_t l,
           size_t f)
{
    size_t q, cap = m->k - m->nloose;
    bt_status st;
    if ((st = bound_step(&m->b)) != BT_OK)
        return st;
    if (++m->work > m->max_work) {
        m->tired = 1;
        return BT_ELIMIT;
    }
    if (free_ones(m, l, T) <= f &&
        (st = set_free_bits(m, j, f, free_ones(m, l, T))) != BT_OK)
        return st;
    if (cap == 0)
        return BT_OK;
    for (q = p; q < T; q++) {
        size_t i = t[q], more = T - q - 1 < cap - 1 ? T - q - 1 : cap - 1;
        /* the reach of lowering t[q] shrinks with q: once none is good,
           none further is */
        if (!feasible(m, l + 1, l + 1 + more, T, f))
            break;
        m->since[i] = j;
        m->loose[m->nloose++] = i;
        mpz_clrbit(m->y[i], (mp_bitcnt_t)j);
        st = lower_from(m, j, t, T, q + 1, l + 1, f);
        mpz_set(m->y[i], m->c[i]); /* tight again: all its bits restored */
        m->nloose--;
        m->since[i] = -1;
        if (st != BT_OK)
            return st;
    }
    return BT_OK;
}

static bt_status
p_column(pmoves *m, long j)
{
    size_t q, T = 0, *t;
    bt_status st;
    if (j < 0) {
        if (m->nloose == 0)
            return BT_OK;
        if ((st = bound_move(&m->b)) != BT_OK)
            return st;
        return m->emit(m->ud, (const mpz_t *)m->y, m->n);
    }
    t = m->tight + m->off[j];
    for (q = m->off[j]; q < m->off[j + 1]; q++) {
        if ((st = bound_step(&m->b)) != BT_OK)
            return st;
        if (m->since[m->ones[q]] < 0)
            t[T++] = m->ones[q];
    }
    return lower_from(m, j, t, T, 0, 0, m->nloose);
}

/* One winning move by the greedy proof (any size, any number of columns):
   top column down, the loose piles take the ones that fix the column when
   they can, else d = the column's residue piles with a 1 are freed.  From
   the columns' sums (column_counts) the tight ones of a column are its sum
   less the loose piles' ones (at most k), and the piles are scanned only
   when some are freed (at most k times): the work is k times the input's,
   not its piles times its columns. */
static bt_status
winning_one(const mpz_t *c, size_t n, unsigned long k, mpz_t *y, bound *b)
{
    size_t w = columns(c, n), i, *counts, loose[MOORE_MAX_K], nloose = 0, x;
    unsigned char *isl; /* isl[i]: pile i is loose */
    long j;
    bt_status st = column_counts(&counts, c, n, w, b);
    if (st != BT_OK)
        return st;
    if ((st = bound_charge(b, n ? n : 1)) != BT_OK ||
        (isl = calloc(n ? n : 1, 1)) == NULL) {
        free(counts);
        return st != BT_OK ? st
                           : bt__fail(b->diag, BT_ENOMEM, "out of memory");
    }
    for (i = 0; i < n; i++)
        mpz_set(y[i], c[i]);
    for (j = (long)w - 1; j >= 0; j--) {
        size_t u = counts[j];
        unsigned long d, v;
        if ((st = bound_step(b)) != BT_OK)
            break;
        for (x = 0; x < nloose; x++)
            u -= (size_t)mpz_tstbit(c[loose[x]], (mp_bitcnt_t)j);
        d = (unsigned long)(u % (k + 1));
        v = (k + 1 - d) % (k + 1); /* ones wanted from the loose piles */
        if (v <= nloose) {
            for (x = 0; x < nloose; x++)
                if (x < v)
                    mpz_setbit(y[loose[x]], (mp_bitcnt_t)j);
                else
                    mpz_clrbit(y[loose[x]], (mp_bitcnt_t)j);
            continue;
        }
        /* free d piles with a 1 here (d <= u; nloose + d <= k) */
        for (x = 0; x < nloose; x++)
            mpz_clrbit(y[loose[x]], (mp_bitcnt_t)j);
        for (i = 0; i < n && d > 0; i++) {
            if (!isl[i] && mpz_tstbit(c[i], (mp_bitcnt_t)j)) {
                isl[i] = 1;
                loose[nloose++] = i;
                mpz_clrbit(y[i], (mp_bitcnt_t)j);
                d--;
            }
            if ((st = bound_step(b)) != BT_OK)
                break;
        }
        if (st != BT_OK)
            break;
    }
    free(counts);
    free(isl);
    bt__budget_release(&b->budget, (w ? w : 1) * sizeof *counts + (n ? n : 1));
    return st;
}

/* Column j's ones as lists (m->off, m->ones; m->tight the same size for
   the walk), sorted by pile, from column_counts: the bytes are those of
   the piles' ones, charged. */
static bt_status
column_lists(pmoves *m, size_t w)
{
    size_t *counts, j, i, total = 0;
    bt_status st = column_counts(&counts, m->c, m->n, w, &m->b);
    if (st != BT_OK)
        return st;
    for (j = 0; j < w; j++)
        total += counts[j];
    if ((st = bound_charge(&m->b, (w + 1 + 2 * total) * sizeof(size_t))) !=
        BT_OK) {
        free(counts);
        return st;
    }
    m->off = malloc((w + 1) * sizeof *m->off);
    m->ones = malloc((total ? total : 1) * sizeof *m->ones);
    m->tight = malloc((total ? total : 1) * sizeof *m->tight);
    if (m->off == NULL || m->ones == NULL || m->tight == NULL) {
        free(counts);
        return bt__fail(m->b.diag, BT_ENOMEM, "out of memory");
    }
    m->off[0] = 0;
    for (j = 0; j < w; j++) {
        m->off[j + 1] = m->off[j] + counts[j];
        counts[j] = m->off[j]; /* the next free slot of column j */
    }
    for (i = 0; i < m->n; i++) {
        mp_bitcnt_t b;
        if (mpz_sgn(m->c[i]) == 0)
            continue;
        for (b = mpz_scan1(m->c[i], 0); b != ~(mp_bitcnt_t)0;
             b = mpz_scan1(m->c[i], b + 1))
            m->ones[counts[b]++] = i;
        if ((st = bound_step(&m->b)) != BT_OK)
            break;
    }
    free(counts);
    return st;
}

static bt_status
p_moves(bt_game *g, const mpz_t *c, size_t n, bt__emit emit, void *ud,
        const bt_limits *lim, bt_diag *diag)
{
    pmoves m;
    size_t i, w = columns(c, n);
    int zero = 0;
    bt_status st;
    lim = bt__limits(lim);
    memset(&m, 0, sizeof m);
    m.c = c;
    m.n = n;
    m.k = k_of(g);
    m.emit = emit;
    m.ud = ud;
    m.max_work = lim->max_search * 64;
    bound_init(&m.b, c, n, lim, diag);
    m.y = malloc((n ? n : 1) * sizeof *m.y);
    m.since = malloc((n ? n : 1) * sizeof *m.since);
    m.loose = malloc((m.k + 1) * sizeof *m.loose);
    if (m.y == NULL || m.since == NULL || m.loose == NULL) {
        free(m.y);
        free(m.since);
        free(m.loose);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    for (i = 0; i < n; i++) {
        mpz_init_set(m.y[i], c[i]);
        m.since[i] = -1;
    }
    st = columns_zero(&zero, c, n, m.k, &m.b);
    if (st != BT_OK || zero) {
        /* a P-position: no move to another */
    } else if (w > MOORE_MAX_COLUMNS) {
        st = winning_one(c, n, m.k, m.y, &m.b);
        if (st == BT_OK)
            st = emit(ud, (const mpz_t *)m.y, n);
        if (st == BT_OK)
            st = BT_ELIMIT;
    } else if ((st = column_lists(&m, w)) == BT_OK) {
        st = p_column(&m, (long)w - 1);
        if (st == BT_ELIMIT && m.b.listed == 0 && m.tired) {
            /* the search ran out before a first move: the greedy one */
            for (i = 0; i < n; i++)
                mpz_set(m.y[i], c[i]);
            st = winning_one(c, n, m.k, m.y, &m.b);
            if (st == BT_OK)
                st = emit(ud, (const mpz_t *)m.y, n);
            if (st == BT_OK)
                st = BT_ELIMIT;
        }
    }
    for (i = 0; i < n; i++)
        mpz_clear(m.y[i]);
    free(m.y);
    free(m.since);
    free(m.loose);
    free(m.off);
    free(m.ones);
    free(m.tight);
    if (st == BT_ELIMIT && m.b.full)
        return bound_full(&m.b, m.k, "winning moves");
    if (st == BT_ELIMIT && m.tired)
        return bt__fail(diag, st,
                        "a moore:%lu position's winning moves take more "
                        "steps to find than the limit allows (64 max_search, "
                        "%zu)",
                        m.k, m.max_work);
    return st;
}

/* ------------------------------------------------------------ values */

/* The positions below c (product of pile + 1), capped at cap + 1. */
static unsigned long
positions_below(const mpz_t *c, size_t n, unsigned long cap)
{
    unsigned long p = 1;
    size_t i;
    for (i = 0; i < n; i++) {
        if (mpz_cmp_ui(c[i], cap) >= 0)
            return cap + 1;
        p *= mpz_get_ui(c[i]) + 1;
        if (p > cap)
            return cap + 1;
    }
    return p;
}

static bt_status
moore_grundy(bt_game *g, mpz_t rop, const mpz_t *c, size_t n,
             const bt_limits *lim, bt_diag *diag)
{
    unsigned long k = k_of(g);
    size_t i;
    int zero = 0;
    bound b;
    bt_status st;
    if (k == 1) { /* Bouton: the nim-sum */
        mpz_set_ui(rop, 0);
        for (i = 0; i < n; i++)
            mpz_xor(rop, rop, c[i]);
        return BT_OK;
    }
    lim = bt__limits(lim);
    bound_init(&b, c, n, lim, diag);
    if ((st = columns_zero(&zero, c, n, k, &b)) != BT_OK)
        return st;
    if (zero) {
        mpz_set_ui(rop, 0);
        return BT_OK;
    }
    if (positions_below(c, n, MOORE_MEX_POSITIONS) > MOORE_MEX_POSITIONS)
        return bt__fail(diag, BT_ERANGE,
                        "the Grundy value of a moore:%lu position with more "
                        "than %lu positions below it is out of reach (no "
                        "closed form for k >= 2; only its outcome is known)",
                        k, MOORE_MEX_POSITIONS);
    return bt__generic_grundy(g, rop, c, n, lim, diag);
}

static bt_status
moore_moves_to(bt_game *g, const mpz_t *c, size_t n, const mpz_t target,
               bt__emit emit, void *ud, const bt_limits *lim, bt_diag *diag)
{
    if (mpz_sgn(target) == 0)
        return p_moves(g, c, n, emit, ud, lim, diag);
    if (k_of(g) > 1 &&
        positions_below(c, n, MOORE_MEX_POSITIONS) > MOORE_MEX_POSITIONS)
        return bt__fail(diag, BT_ERANGE,
                        "the moves of a moore:%lu position to Grundy value "
                        "non-zero are out of reach on a position this large",
                        k_of(g));
    return bt__generic_moves_to(g, c, n, target, emit, ud, lim, diag);
}

/* ------------------------------------------------------------ misère */

typedef struct mis {
    size_t n;
    bt_status (*move)(void *ud, size_t comp, const mpz_t *to, size_t nto);
    void *ud;
    bound b;
} mis;

/* Hands y out as a winning move: counted (max_search), charged. */
static bt_status
mis_emit(mis *m, const mpz_t *to, size_t nto)
{
    bt_status st = bound_move(&m->b);
    return st != BT_OK ? st : m->move(m->ud, 0, to, nto);
}

static bt_status
on_misere_p(void *ud, const mpz_t *to, size_t nto)
{
    mis *m = ud;
    size_t i;
    /* a normal P-position with a pile >= 2 is misère P; one of piles <= 1
       (ones = 0 mod k + 1) is not, and the all-small moves come apart */
    for (i = 0; i < nto; i++)
        if (mpz_cmp_ui(to[i], 1) > 0)
            break;
    if (i == nto)
        return BT_OK;
    return mis_emit(m, to, nto);
}

/* The first r-subset of 0..t-1 in lexicographic order is 0..r-1; this
   steps to the next, 0 after the last. */
static int
next_subset(size_t *s, size_t r, size_t t)
{
    size_t i, x;
    for (i = r; i > 0 && s[i - 1] == t - r + i - 1; i--)
        ;
    if (i == 0)
        return 0;
    s[i - 1]++;
    for (x = i; x < r; x++)
        s[x] = s[x - 1] + 1;
    return 1;
}

/*
 * The moves to piles all <= 1 with ones = 1 (mod k + 1): every pile > 1
 * (the nb of `big`) goes to 0 or 1, so all of them change and nb <= k,
 * and d of the no piles of 1 (`one`) go to 0, 1 <= nb + d <= k.  With h of
 * the big piles raised to 1 the ones left are h + no - d: each pair (h, d)
 * with h + no - d = 1 (mod k + 1) is C(nb, h) C(no, d) moves, listed by
 * walking the subsets, so every step lists a move: the work is that of the
 * moves listed (max_search), never of the 2^n subsets of the piles.
 */
static bt_status
small_moves(mis *m, const mpz_t *c, size_t n, unsigned long k, mpz_t *y,
            const size_t *big, size_t nb, const size_t *one, size_t no)
{
    size_t h, d, i, hs[MOORE_MAX_K + 1], *ds;
    bt_status st = BT_OK;
    if ((st = bound_charge(&m->b, (k + 1) * sizeof *ds)) != BT_OK)
        return st;
    ds = malloc((k + 1) * sizeof *ds);
    if (ds == NULL)
        return bt__fail(m->b.diag, BT_ENOMEM, "out of memory");
    for (h = 0; h <= nb && st == BT_OK; h++)
        for (d = 0; d <= no && nb + d <= k && st == BT_OK; d++) {
            int more_h = 1;
            if (nb + d == 0 || (h + no - d) % (k + 1) != 1 % (k + 1))
                continue;
            for (i = 0; i < h; i++)
                hs[i] = i;
            for (; more_h && st == BT_OK; more_h = next_subset(hs, h, nb)) {
                int more_d = 1;
                size_t x = 0;
                /* the big piles: those of hs to 1, the others to 0 */
                for (i = 0; i < nb; i++) {
                    int up = x < h && hs[x] == i;
                    mpz_set_ui(y[big[i]], up ? 1 : 0);
                    x += (size_t)up;
                }
                for (i = 0; i < d; i++)
                    ds[i] = i;
                for (; more_d && st == BT_OK;
                     more_d = next_subset(ds, d, no)) {
                    for (i = 0; i < d; i++)
                        mpz_set_ui(y[one[ds[i]]], 0);
                    st = bound_step(&m->b);
                    if (st == BT_OK)
                        st = mis_emit(m, (const mpz_t *)y, n);
                    for (i = 0; i < d; i++)
                        mpz_set_ui(y[one[ds[i]]], 1);
                }
            }
            for (i = 0; i < nb; i++)
                mpz_set(y[big[i]], c[big[i]]);
        }
    free(ds);
    bt__budget_release(&m->b.budget, (k + 1) * sizeof *ds);
    return st;
}

/*
 * Misère play of one Moore position: the outcome by the rule of
 * docs/moore.md, set before any move is listed, then the winning moves.
 * Their list counts toward max_search and is charged to max_memory (bound
 * above); past either it stops with BT_ELIMIT and the message of the limit
 * that stopped it, after at least one move when the first fits the memory,
 * and the analysis answers with the moves listed, marked incomplete
 * (analyze.c).
 */
static bt_status
moore_misere(bt_game *g, const bt_position *p, bt_outcome *outcome,
             bt_status (*move)(void *ud, size_t comp, const mpz_t *to,
                               size_t nto),
             void *ud, const bt_limits *lim, bt_diag *diag)
{
    unsigned long k = k_of(g);
    const mpz_t *c;
    size_t n, i, nb = 0, no = 0, big[MOORE_MAX_K], *one = NULL;
    int zero = 0;
    mis m;
    bt_status st;
    mpz_t *y;
    if (bt_position_size(p) != 1)
        return BT_EUNDEF; /* a sum of Moore games: the search */
    lim = bt__limits(lim);
    c = bt_position_nums(p, 0);
    n = bt_position_count(p, 0);
    m.n = n;
    m.move = move;
    m.ud = ud;
    bound_init(&m.b, c, n, lim, diag);
    for (i = 0; i < n; i++) {
        if (mpz_cmp_ui(c[i], 1) > 0)
            nb++;
        else if (mpz_sgn(c[i]) > 0)
            no++;
        if ((st = bound_step(&m.b)) != BT_OK)
            return st;
    }
    if (nb == 0)
        *outcome = no % (k + 1) == 1 % (k + 1) ? BT_P : BT_N;
    else if ((st = columns_zero(&zero, c, n, k, &m.b)) != BT_OK)
        return st;
    else
        *outcome = zero ? BT_P : BT_N;
    if (*outcome == BT_P || (nb == 0 && no == 0))
        return BT_OK; /* no winning move (none at all when all are 0) */
    if ((st = bound_charge(&m.b, n * (sizeof *y + sizeof *one))) != BT_OK)
        return st;
    y = malloc((n ? n : 1) * sizeof *y);
    one = malloc((no ? no : 1) * sizeof *one);
    if (y == NULL || one == NULL) {
        free(y);
        free(one);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    for (i = 0, nb = no = 0; i < n; i++) {
        mpz_init_set(y[i], c[i]);
        if (mpz_cmp_ui(c[i], 1) > 0) {
            if (nb < MOORE_MAX_K)
                big[nb] = i;
            nb++;
        } else if (mpz_sgn(c[i]) > 0) {
            one[no++] = i;
        }
    }
    st = BT_OK;
    /* to piles all <= 1: possible when at most k piles are > 1 */
    if (nb <= k)
        st = small_moves(&m, c, n, k, y, big, nb, one, no);
    /* to normal P-positions keeping a pile >= 2 (only when one exists
       among k+1 piles of a column: nb > k) */
    if (st == BT_OK && nb > 0)
        st = p_moves(g, c, n, on_misere_p, &m, lim, diag);
    for (i = 0; i < n; i++)
        mpz_clear(y[i]);
    free(y);
    free(one);
    if (st == BT_ELIMIT && m.b.full)
        return bound_full(&m.b, k, "winning moves");
    return st;
}

/* ------------------------------------------------------------ words */

static void
moore_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
               size_t n, const mpz_t *to, size_t nto)
{
    size_t i;
    int first = 1;
    mpz_t d;
    (void)g;
    (void)comp;
    mpz_init(d);
    for (i = 0; i < n && i < nto; i++) {
        if (mpz_cmp(c[i], to[i]) == 0)
            continue;
        mpz_sub(d, c[i], to[i]);
        bt__buf_puts(out, first ? "take " : ", ");
        bt__buf_mpz(out, d);
        bt__buf_printf(out, " from pile %zu", i + 1);
        first = 0;
    }
    if (first)
        bt__buf_puts(out, "no change");
    mpz_clear(d);
}

/* The piles in binary columns with each column's sum and its residue mod
   k + 1 (Moore's rule), then the verdict. */
static void
moore_explain(bt_game *g, bt__buf *out, const bt_position *p,
              const bt__verdict *found)
{
    unsigned long k = k_of(g);
    size_t i, j, w, n, nm;
    const mpz_t *c;
    int misere = found->misere;
    if (bt_position_size(p) != 1) {
        bt__buf_puts(out, "A sum of Moore's Nim games: each component "
                          "counts by its Grundy value (Sprague-Grundy).\n");
        return;
    }
    c = bt_position_nums(p, 0);
    n = bt_position_count(p, 0);
    w = columns(c, n);
    bt__buf_printf(out,
                   "Moore's Nim_%lu (Moore 1910): a move takes from 1 to "
                   "%lu piles.  A position is P exactly when in every binary "
                   "column the digit sum is divisible by %lu.\n",
                   k, k, k + 1);
    if (w <= 64 && n <= 32) {
        for (i = 0; i < n; i++) {
            bt__buf_printf(out, "  pile %2zu  ", i + 1);
            bt__buf_mpz_bin(out, c[i], w ? w : 1);
            bt__buf_puts(out, "  (");
            bt__buf_mpz(out, c[i]);
            bt__buf_puts(out, ")\n");
        }
        bt__buf_puts(out, "  sum      ");
        for (j = w ? w : 1; j-- > 0;) {
            unsigned long s = 0;
            for (i = 0; i < n; i++)
                s += mpz_tstbit(c[i], j);
            bt__buf_printf(out, "%lu%s", s, j ? " " : "");
        }
        bt__buf_printf(out, "  (column sums, high to low)\n  mod %lu    ",
                       k + 1);
        for (j = w ? w : 1; j-- > 0;) {
            unsigned long s = 0;
            for (i = 0; i < n; i++)
                s += mpz_tstbit(c[i], j);
            bt__buf_printf(out, "%lu%s", s % (k + 1), j ? " " : "");
        }
        bt__buf_putc(out, '\n');
    } else {
        bt__buf_printf(out, "  (%zu piles, %zu binary columns: too large "
                            "to draw)\n", n, w);
    }
    if (misere)
        bt__buf_printf(out,
                       "Misère play (docs/moore.md): with a pile of 2 or "
                       "more the rule is the normal one; with every pile 0 "
                       "or 1 the position is P exactly when the number of "
                       "ones is 1 mod %lu.\n",
                       k + 1);
    if (found->outcome == BT_P) {
        bt__buf_puts(out, "A P-position: every move leaves a column whose "
                          "sum is not divisible; the previous player "
                          "wins.\n");
        return;
    }
    nm = found->nmoves;
    bt__buf_printf(out, "An N-position: the winning moves (%zu%s):\n", nm,
                   found->moves_complete ? "" : ", not all listed");
    for (i = 0; i < nm; i++)
        bt__buf_printf(out, "  - %s\n", found->moves[i].text);
}

/* ------------------------------------------------------ tables, counts */

/*
 * The last pile of a P-position given the others (tables): in every
 * column the others' digit sum s must leave s mod (k + 1) at 0 (the last
 * pile has 0 there) or k (it has 1), so the last pile is determined, or
 * none exists.  In misère play, with every other pile 0 or 1 the last is
 * too (a higher digit alone would make a column sum of 1), and the rule
 * is the count of ones = 1 (mod k + 1).
 */
static int
moore_p_last(bt_game *g, int misere, const mpz_t *x, size_t n, mpz_t last)
{
    unsigned long m = k_of(g) + 1, ones = 0, s;
    size_t w = columns(x, n), i, j;
    int small = 1;

    for (i = 0; i < n; i++) {
        if (mpz_cmp_ui(x[i], 1) > 0)
            small = 0;
        else if (mpz_cmp_ui(x[i], 1) == 0)
            ones++;
    }
    mpz_set_ui(last, 0);
    if (misere && small) {
        s = (m + 1 - ones % m) % m; /* ones + s = 1 (mod m) */
        mpz_set_ui(last, s);
        return s <= 1;
    }
    for (j = 0; j < w; j++) {
        s = 0;
        for (i = 0; i < n; i++)
            s += mpz_tstbit(x[i], j);
        if (s % m == m - 1)
            mpz_setbit(last, j);
        else if (s % m != 0)
            return 0;
    }
    return 1;
}

/* Work of a count (weighted_work(), summed over the cycle types for
   multisets) refused past this: about a second. */
#define MOORE_COUNT_WORK 200000000.0
/* Piles of a count of multisets at most (the cycle types are the
   partitions of the piles: 37 338 for 40). */
#define MOORE_COUNT_MULTISET_PILES 40

/* Piles of one weight w (mod m) in a count: n of them. */
typedef struct wclass {
    unsigned long w;
    size_t n;
} wclass;

/*
 * Counts the assignments of a number in [min, max] to each pile of the
 * classes cl[0..ncl-1] such that in every binary column the sum of the
 * weights of the piles with a 1 there is divisible by m, exactly, by a walk
 * down the columns.  A pile is "low" while its digits equal min's so far,
 * "high" while they equal max's (both until the first column where min and
 * max differ, where each pile chooses), else free.  The piles of a class
 * are counted by how many are low (a) and high (b): in each column a low
 * pile may rise above min where min has a 0 (it takes a 1 and is free), a
 * high pile may fall below max where max has a 1 (it takes a 0), and the f
 * = n - a - b free piles put any number j of ones, in C(f, j) ways.  The
 * classes are folded in one after the other, carrying the column's weight
 * sum mod m; a column is kept when it is 0.
 */
static bt_status
weighted_count(mpz_t out, const wclass *cl, size_t ncl, unsigned long m,
               const mpz_t min, const mpz_t max, const bt_limits *lim,
               bt_diag *diag)
{
    size_t nb = mpz_sgn(max) ? mpz_sizeinbase(max, 2) : 1, nmax = 0;
    size_t nstate = 1, stride[64], c, i, x, y, z, r, f;
    mpz_t *A = NULL, *B = NULL, *bin = NULL, *freew = NULL, w, t;
    int diverged = 0, dead = 0;
    long j;
    bt_status st = BT_OK;

    for (c = 0; c < ncl; c++) {
        stride[c] = nstate;
        nstate *= (cl[c].n + 1) * (cl[c].n + 1);
        if (cl[c].n > nmax)
            nmax = cl[c].n;
    }
    /* two tables of nstate x m numbers, each some limbs: refused before
       they are made when past the memory limit or 2^22 numbers */
    if ((double)nstate * (double)m > (double)(1u << 22) ||
        (lim->max_memory > 0 &&
         (double)nstate * (double)m * 2 * (sizeof(mpz_t) + 32) >
             (double)lim->max_memory))
        return bt__fail(diag, BT_ELIMIT,
                        "the count needs tables of %.0f numbers, more than "
                        "the memory limit allows",
                        (double)nstate * (double)m * 2);
    A = malloc(nstate * m * sizeof *A);
    B = malloc(nstate * m * sizeof *B);
    bin = malloc((nmax + 1) * (nmax + 1) * sizeof *bin);
    freew = malloc(ncl * (nmax + 1) * m * sizeof *freew);
    if (A == NULL || B == NULL || bin == NULL || freew == NULL) {
        free(A);
        free(B);
        free(bin);
        free(freew);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    mpz_inits(w, t, NULL);
    for (i = 0; i < nstate * m; i++) {
        mpz_init(A[i]);
        mpz_init(B[i]);
    }
    for (i = 0; i < (nmax + 1) * (nmax + 1); i++)
        mpz_init(bin[i]);
    for (i = 0; i < ncl * (nmax + 1) * m; i++)
        mpz_init(freew[i]);
    /* bin[n][i] = C(n, i); freew[c][f][r]: the ways of f free piles of
       class c to put a weight sum r (mod m) in a column */
    for (x = 0; x <= nmax; x++) {
        mpz_set_ui(bin[x * (nmax + 1)], 1);
        for (y = 1; y <= x; y++)
            mpz_add(bin[x * (nmax + 1) + y], bin[(x - 1) * (nmax + 1) + y - 1],
                    bin[(x - 1) * (nmax + 1) + y]);
    }
    for (c = 0; c < ncl; c++)
        for (f = 0; f <= cl[c].n; f++)
            for (y = 0; y <= f; y++) {
                mpz_t *e = &freew[(c * (nmax + 1) + f) * m +
                                  (cl[c].w * y) % m];
                mpz_add(*e, *e, bin[f * (nmax + 1) + y]);
            }
    mpz_set_ui(A[0], 1); /* every class at a = b = 0 until the divergence */

    for (j = (long)nb - 1; j >= 0 && !dead; j--) {
        int lo = mpz_tstbit(min, (mp_bitcnt_t)j);
        int hi = mpz_tstbit(max, (mp_bitcnt_t)j);
        int split = !diverged && lo != hi;
        if ((st = bt__poll(lim)) != BT_OK) {
            bt__fail(diag, st, "the time budget ran out");
            goto out;
        }
        if (!diverged && lo == hi) { /* every pile takes the common digit */
            unsigned long s = 0;
            for (c = 0; c < ncl; c++)
                s += lo ? (cl[c].w * (cl[c].n % m)) % m : 0;
            dead = s % m != 0;
            continue;
        }
        diverged = 1;
        /* A[state][0] holds the tuples so far; fold the classes in */
        for (c = 0; c < ncl; c++) {
            size_t n = cl[c].n, n1 = n + 1;
            for (i = 0; i < nstate * m; i++)
                mpz_set_ui(B[i], 0);
            for (i = 0; i < nstate; i++) {
                size_t cell = (i / stride[c]) % (n1 * n1);
                size_t a = cell / n1, b = cell % n1, base = i - cell * stride[c];
                if (a + b > n)
                    continue;
                f = n - a - b;
                for (r = 0; r < m; r++) {
                    if (mpz_sgn(A[i * m + r]) == 0)
                        continue;
                    /* at the divergence x piles take 1 (high), the rest 0
                       (low); after it, y low piles rise, z high ones fall */
                    for (y = 0; y <= (split ? n : lo ? 0 : a); y++)
                        for (z = 0; z <= (!split && hi ? b : 0); z++) {
                            size_t ones, na, nbh, to;
                            unsigned long q;
                            if (split) {
                                ones = y;
                                na = n - y;
                                nbh = y;
                                mpz_mul(w, A[i * m + r], bin[n * (nmax + 1) + y]);
                            } else {
                                ones = (lo ? a : y) + (hi ? b - z : 0);
                                na = a - (lo ? 0 : y);
                                nbh = b - z;
                                mpz_set(w, A[i * m + r]);
                                if (!lo)
                                    mpz_mul(w, w, bin[a * (nmax + 1) + y]);
                                if (hi)
                                    mpz_mul(w, w, bin[b * (nmax + 1) + z]);
                            }
                            to = base + (na * n1 + nbh) * stride[c];
                            for (q = 0; q < m; q++) {
                                mpz_t *e =
                                    &freew[(c * (nmax + 1) + (split ? 0 : f)) *
                                               m + q];
                                size_t rr = (r + cl[c].w * ones + q) % m;
                                if (mpz_sgn(*e) == 0)
                                    continue;
                                mpz_mul(t, w, *e);
                                mpz_add(B[to * m + rr], B[to * m + rr], t);
                            }
                        }
                }
            }
            mpz_t *sw = A;
            A = B;
            B = sw;
        }
        /* keep the columns whose weight sum is 0 mod m */
        for (i = 0; i < nstate; i++)
            for (r = 1; r < m; r++)
                mpz_set_ui(A[i * m + r], 0);
    }
    mpz_set_ui(out, 0);
    if (!dead)
        for (i = 0; i < nstate; i++)
            mpz_add(out, out, A[i * m]);
out:
    for (i = 0; i < nstate * m; i++) {
        mpz_clear(A[i]);
        mpz_clear(B[i]);
    }
    for (i = 0; i < (nmax + 1) * (nmax + 1); i++)
        mpz_clear(bin[i]);
    for (i = 0; i < ncl * (nmax + 1) * m; i++)
        mpz_clear(freew[i]);
    free(A);
    free(B);
    free(bin);
    free(freew);
    mpz_clears(w, t, NULL);
    return st;
}

/* The steps of weighted_count() at most: per column and class c, the
   states of the other classes ((n+1)(n+2)/2 each) times the choices of c
   (sum over a + b <= n of (a+1)(b+1) = C(n+4, 4)) times m^2 residues. */
static double
weighted_work(const wclass *cl, size_t ncl, unsigned long m, double nb)
{
    double work = 0;
    size_t c, d;
    for (c = 0; c < ncl; c++) {
        double n = (double)cl[c].n, t = (n + 1) * (n + 2) * (n + 3) * (n + 4) / 24;
        for (d = 0; d < ncl; d++)
            if (d != c)
                t *= ((double)cl[d].n + 1) * ((double)cl[d].n + 2) / 2;
        work += t;
    }
    return work * nb * (double)m * (double)m;
}

/* The multisets count: the cycle types of the symmetric group on k piles
   (partitions of k, parts in non-increasing order), walked recursively. */
typedef struct cycles {
    size_t k, len[MOORE_COUNT_MULTISET_PILES], nparts;
    unsigned long m;
    const mpz_t *min, *max;
    const bt_limits *lim;
    bt_diag *diag;
    double work; /* estimated, when counting (mpz NULL) */
    mpz_t sum, kfact, f, zl;
} cycles;

/* The weight classes of the cycle type in cy->len (a cycle of length l
   is a pile of weight l mod m; those of weight 0 only multiply). */
static size_t
classes_of(const cycles *cy, wclass *cl, size_t *n0)
{
    size_t i, c, ncl = 0;
    *n0 = 0;
    for (i = 0; i < cy->nparts; i++) {
        unsigned long w = (unsigned long)(cy->len[i] % cy->m);
        if (w == 0) {
            (*n0)++;
            continue;
        }
        for (c = 0; c < ncl && cl[c].w != w; c++)
            ;
        if (c == ncl) {
            cl[ncl].w = w;
            cl[ncl++].n = 0;
        }
        cl[c].n++;
    }
    return ncl;
}

/* Burnside: sum over the cycle types of F(type) * k! / z(type). */
static bt_status
each_type(cycles *cy, size_t left, size_t most, int run)
{
    bt_status st;
    size_t l;
    if (left == 0) {
        wclass cl[64];
        size_t n0, ncl = classes_of(cy, cl, &n0), i, same = 1;
        if (!run) {
            cy->work += weighted_work(cl, ncl, cy->m,
                                      (double)mpz_sizeinbase(*cy->max, 2));
            return BT_OK;
        }
        st = weighted_count(cy->f, cl, ncl, cy->m, *cy->min, *cy->max,
                            cy->lim, cy->diag);
        if (st != BT_OK)
            return st;
        /* the cycles of weight 0 take any number of the range */
        mpz_sub(cy->zl, *cy->max, *cy->min);
        mpz_add_ui(cy->zl, cy->zl, 1);
        mpz_pow_ui(cy->zl, cy->zl, (unsigned long)n0);
        mpz_mul(cy->f, cy->f, cy->zl);
        /* z = prod_l l^{c_l} c_l!: k!/z permutations have this type */
        mpz_set_ui(cy->zl, 1);
        for (i = 0; i < cy->nparts; i++) {
            same = i > 0 && cy->len[i] == cy->len[i - 1] ? same + 1 : 1;
            mpz_mul_ui(cy->zl, cy->zl, (unsigned long)(cy->len[i] * same));
        }
        mpz_divexact(cy->zl, cy->kfact, cy->zl);
        mpz_addmul(cy->sum, cy->f, cy->zl);
        return BT_OK;
    }
    for (l = most < left ? most : left; l >= 1; l--) {
        cy->len[cy->nparts++] = l;
        st = each_type(cy, left - l, l, run);
        cy->nparts--;
        if (st != BT_OK)
            return st;
    }
    return BT_OK;
}

/*
 * Counts the positions of k piles in [min, max] and the P-positions among
 * them (every column's digit sum divisible by m = K + 1).  Ordered tuples:
 * weighted_count with k piles of weight 1.  Multisets (the order of the
 * piles does not count): Burnside's lemma over the permutations of the
 * piles, as Nim's count uses the cycle index (docs/counting.md): a
 * permutation with cycles of lengths l_1, l_2, ... fixes the tuples that
 * are constant on each cycle, and such a tuple is a P-position when the
 * cycles, a cycle of length l a pile of weight l (mod m), have every
 * column's weight sum divisible by m; the multisets are the average of
 * these counts over the k! permutations, grouped by cycle type.
 */
static bt_status
moore_count(bt_game *g, mpz_t positions, mpz_t p_positions, size_t k,
            const mpz_t min, const mpz_t max, unsigned flags,
            const bt_limits *lim, bt_diag *diag, bt_count_progress fn,
            void *ud)
{
    unsigned long m = k_of(g) + 1;
    double nb = (double)(mpz_sgn(max) ? mpz_sizeinbase(max, 2) : 1);
    size_t y;
    mpz_t n, b;
    bt_status st = BT_OK;
    cycles cy;

    (void)fn; /* no reports: the count is quick within its work limit */
    (void)ud;
    mpz_inits(n, b, NULL);
    mpz_sub(n, max, min);
    mpz_add_ui(n, n, 1);
    if (flags & BT_COUNT_ORDERED) {
        wclass cl;
        cl.w = 1;
        cl.n = k;
        if (weighted_work(&cl, 1, m, nb) > MOORE_COUNT_WORK) {
            st = bt__fail(diag, BT_ELIMIT,
                          "counting %zu piles of %.0f binary digits of %s "
                          "takes more than the work limit of the library",
                          k, nb, g->spec);
            goto out;
        }
        st = weighted_count(p_positions, &cl, k ? 1 : 0, m, min, max, lim,
                            diag);
        mpz_pow_ui(positions, n, (unsigned long)k);
    } else {
        if (k > MOORE_COUNT_MULTISET_PILES) {
            st = bt__fail(diag, BT_ELIMIT,
                          "multisets of more than %d piles of %s are not "
                          "counted (--ordered counts tuples)",
                          MOORE_COUNT_MULTISET_PILES, g->spec);
            goto out;
        }
        memset(&cy, 0, sizeof cy);
        cy.k = k;
        cy.m = m;
        cy.min = (const mpz_t *)&min[0];
        cy.max = (const mpz_t *)&max[0];
        cy.lim = lim;
        cy.diag = diag;
        each_type(&cy, k, k, 0);
        if (cy.work > MOORE_COUNT_WORK) {
            st = bt__fail(diag, BT_ELIMIT,
                          "counting multisets of %zu piles of %.0f binary "
                          "digits of %s takes more than the work limit of "
                          "the library (--ordered counts tuples)",
                          k, nb, g->spec);
            goto out;
        }
        mpz_inits(cy.sum, cy.kfact, cy.f, cy.zl, NULL);
        mpz_fac_ui(cy.kfact, (unsigned long)k);
        st = each_type(&cy, k, k, 1);
        mpz_divexact(p_positions, cy.sum, cy.kfact);
        mpz_clears(cy.sum, cy.kfact, cy.f, cy.zl, NULL);
        /* C(n + k - 1, k) multisets */
        mpz_add_ui(b, n, (unsigned long)k);
        mpz_sub_ui(b, b, 1);
        mpz_bin_ui(positions, b, (unsigned long)k);
    }
    if (st == BT_OK && (flags & BT_MISERE)) {
        /* every pile 0 or 1: P in misère play when the ones are 1 mod m,
           in normal play when they are 0 mod m (docs/moore.md); y ones
           are C(k, y) tuples or one multiset */
        int zero = mpz_sgn(min) == 0, one = mpz_cmp_ui(min, 1) <= 0 &&
                                             mpz_cmp_ui(max, 1) >= 0;
        for (y = zero ? 0 : k; y <= k && (one || y == 0); y++) {
            if (flags & BT_COUNT_ORDERED)
                mpz_bin_uiui(b, (unsigned long)k, (unsigned long)y);
            else
                mpz_set_ui(b, 1);
            if (y % m == 0)
                mpz_sub(p_positions, p_positions, b);
            else if (y % m == 1)
                mpz_add(p_positions, p_positions, b);
        }
    }
out:
    mpz_clears(n, b, NULL);
    return st;
}

static void
moore_rules(const bt_game *g, bt__buf *out)
{
    unsigned long k = k_of(g);
    bt__buf_printf(out,
                   "Moore's Nim with k = %lu: take counters from at least one "
                   "and at most %lu pile%s (any number from each).",
                   k, k, k == 1 ? "" : "s");
}

/* A move of Nim_k lowers at least one and at most k of the n piles (and
   keeps them all, emptied ones too). */
static int
moore_is_option(bt_game *g, const mpz_t *c, size_t n, const mpz_t *to,
                size_t nto)
{
    size_t i, lowered = 0;
    if (nto != n)
        return 0;
    for (i = 0; i < n; i++) {
        int d = mpz_cmp(to[i], c[i]);
        if (d > 0 || mpz_sgn(to[i]) < 0)
            return 0;
        lowered += d < 0;
    }
    return lowered >= 1 && lowered <= k_of(g);
}

const bt__varset bt__varset_moore = {
    .base = {
        .info = {"moore", "moore:K",
                 "Moore's Nim: take from at least one and at most K piles "
                 "(any number from each).",
                 "", "Moore's Nim", "moore:2"},
        .arity = 0,
        .init = moore_init,
        .fini = moore_fini,
        .misere = moore_misere,
        .explain = moore_explain,
        .rules = moore_rules,
        .count = moore_count,
        .is_option = moore_is_option,
    },
    .grundy_n = moore_grundy,
    .options_n = moore_options,
    .moves_to_n = moore_moves_to,
    .describe_n = moore_describe,
    .p_last_n = moore_p_last,
};
