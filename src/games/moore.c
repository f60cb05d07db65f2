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

#include "internal.h"

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

/* Moore's rule: every column's digit sum divisible by k + 1. */
static int
columns_zero(const mpz_t *c, size_t n, unsigned long k)
{
    size_t w = columns(c, n), j, i;
    for (j = 0; j < w; j++) {
        unsigned long s = 0;
        for (i = 0; i < n; i++)
            s += mpz_tstbit(c[i], j);
        if (s % (k + 1) != 0)
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ options */

typedef struct opts {
    const mpz_t *c;
    size_t n;
    unsigned long k;
    mpz_t *y;
    bt__emit emit;
    void *ud;
    size_t emitted, max;
} opts;

/* Every y with y_i <= x_i, the piles from `from` on still to choose,
   `changed` of them changed so far. */
static bt_status
all_options(opts *o, size_t from, unsigned long changed)
{
    bt_status st;
    if (from == o->n) {
        if (changed == 0)
            return BT_OK;
        if (++o->emitted > o->max)
            return BT_ELIMIT;
        return o->emit(o->ud, (const mpz_t *)o->y, o->n);
    }
    st = all_options(o, from + 1, changed);
    if (st != BT_OK || changed == o->k)
        return st;
    /* change pile `from` to each smaller size */
    mpz_set(o->y[from], o->c[from]);
    while (mpz_sgn(o->y[from]) > 0 && st == BT_OK) {
        mpz_sub_ui(o->y[from], o->y[from], 1);
        st = all_options(o, from + 1, changed + 1);
    }
    mpz_set(o->y[from], o->c[from]);
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
    o.emitted = 0;
    o.max = lim->max_search;
    o.y = malloc((n ? n : 1) * sizeof *o.y);
    if (o.y == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    for (i = 0; i < n; i++)
        mpz_init_set(o.y[i], c[i]);
    st = all_options(&o, 0, 0);
    for (i = 0; i < n; i++)
        mpz_clear(o.y[i]);
    free(o.y);
    if (st == BT_ELIMIT)
        return bt__fail(diag, st,
                        "a moore:%lu position has more than %zu moves to "
                        "list (the max_search limit)",
                        o.k, lim->max_search);
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
 */
typedef struct pmoves {
    const mpz_t *c;
    size_t n;
    unsigned long k;
    mpz_t *y;
    long *since; /* -1: tight (y_i = x_i so far); else the column where
                    pile i was lowered (bit 1 to 0): free below it */
    size_t nloose;
    bt__emit emit;
    void *ud;
    size_t emitted, max, work, max_work;
    const bt_limits *lim;
} pmoves;

static bt_status p_column(pmoves *m, long j);

/* In column j: the piles free here (lowered above j), from index `at` on,
   get bits with `need` ones among them. */
static bt_status
set_free_bits(pmoves *m, long j, size_t at, unsigned long need)
{
    bt_status st;
    size_t i;
    if (++m->work > m->max_work)
        return BT_ELIMIT;
    for (i = at; i < m->n && !(m->since[i] > j); i++)
        ;
    if (i == m->n)
        return need == 0 ? p_column(m, j - 1) : BT_OK;
    mpz_clrbit(m->y[i], (mp_bitcnt_t)j);
    st = set_free_bits(m, j, i + 1, need);
    if (st == BT_OK && need > 0) {
        mpz_setbit(m->y[i], (mp_bitcnt_t)j);
        st = set_free_bits(m, j, i + 1, need - 1);
    }
    return st;
}

/* Chooses, from pile `at` on, which tight piles with a 1 in column j are
   lowered here (bit 0); u counts the ones the tight piles keep. */
static bt_status
choose_lowered(pmoves *m, long j, size_t at, unsigned long u,
               unsigned long nfree)
{
    size_t i;
    bt_status st;
    if (++m->work > m->max_work)
        return BT_ELIMIT;
    for (i = at; i < m->n; i++)
        if (m->since[i] < 0 && mpz_tstbit(m->c[i], (mp_bitcnt_t)j))
            break;
    if (i == m->n) {
        /* the free piles give the ones that make the sum divisible */
        unsigned long need = (m->k + 1 - u % (m->k + 1)) % (m->k + 1);
        if (need > nfree)
            return BT_OK;
        return set_free_bits(m, j, 0, need);
    }
    /* pile i keeps its 1 ... */
    st = choose_lowered(m, j, i + 1, u + 1, nfree);
    if (st != BT_OK || m->nloose >= m->k)
        return st;
    /* ... or is lowered here */
    m->since[i] = j;
    m->nloose++;
    mpz_clrbit(m->y[i], (mp_bitcnt_t)j);
    st = choose_lowered(m, j, i + 1, u, nfree);
    mpz_set(m->y[i], m->c[i]); /* tight again: all its bits restored */
    m->nloose--;
    m->since[i] = -1;
    return st;
}

static bt_status
p_column(pmoves *m, long j)
{
    size_t i;
    unsigned long nfree = 0;
    if (j < 0) {
        if (m->nloose == 0)
            return BT_OK;
        if (++m->emitted > m->max)
            return BT_ELIMIT;
        return m->emit(m->ud, (const mpz_t *)m->y, m->n);
    }
    if ((++m->work & 1023) == 0 && bt__poll(m->lim) != BT_OK)
        return BT_EINTR;
    for (i = 0; i < m->n; i++)
        if (m->since[i] > j)
            nfree++;
    return choose_lowered(m, j, 0, 0, nfree);
}

/* One winning move by the greedy proof (any size, any number of columns):
   top column down, the loose piles take the ones that fix the column when
   they can, else d = the column's residue piles with a 1 are freed. */
static void
winning_one(const mpz_t *c, size_t n, unsigned long k, mpz_t *y)
{
    size_t w = columns(c, n), i;
    unsigned char *loose = calloc(n ? n : 1, 1);
    size_t nloose = 0;
    long j;
    for (i = 0; i < n; i++)
        mpz_set(y[i], c[i]);
    if (loose == NULL)
        return;
    for (j = (long)w - 1; j >= 0; j--) {
        unsigned long u = 0, d, v;
        for (i = 0; i < n; i++)
            if (!loose[i] && mpz_tstbit(c[i], (mp_bitcnt_t)j))
                u++;
        d = u % (k + 1);
        v = (k + 1 - d) % (k + 1); /* ones wanted from the loose piles */
        if (v <= nloose) {
            for (i = 0; i < n; i++)
                if (loose[i]) {
                    if (v > 0) {
                        mpz_setbit(y[i], (mp_bitcnt_t)j);
                        v--;
                    } else {
                        mpz_clrbit(y[i], (mp_bitcnt_t)j);
                    }
                }
            continue;
        }
        /* free d piles with a 1 here (d <= u; nloose + d <= k) */
        for (i = 0; i < n; i++)
            if (loose[i])
                mpz_clrbit(y[i], (mp_bitcnt_t)j);
        for (i = 0; i < n && d > 0; i++)
            if (!loose[i] && mpz_tstbit(c[i], (mp_bitcnt_t)j)) {
                loose[i] = 1;
                nloose++;
                mpz_clrbit(y[i], (mp_bitcnt_t)j);
                d--;
            }
    }
    free(loose);
}

static bt_status
p_moves(bt_game *g, const mpz_t *c, size_t n, bt__emit emit, void *ud,
        const bt_limits *lim, bt_diag *diag)
{
    pmoves m;
    size_t i, w = columns(c, n);
    bt_status st;
    lim = bt__limits(lim);
    memset(&m, 0, sizeof m);
    m.c = c;
    m.n = n;
    m.k = k_of(g);
    m.emit = emit;
    m.ud = ud;
    m.max = lim->max_search;
    m.max_work = lim->max_search * 64;
    m.lim = lim;
    m.y = malloc((n ? n : 1) * sizeof *m.y);
    m.since = malloc((n ? n : 1) * sizeof *m.since);
    if (m.y == NULL || m.since == NULL) {
        free(m.y);
        free(m.since);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    for (i = 0; i < n; i++) {
        mpz_init_set(m.y[i], c[i]);
        m.since[i] = -1;
    }
    if (columns_zero(c, n, m.k)) {
        st = BT_OK; /* a P-position: no move to another */
    } else if (w > MOORE_MAX_COLUMNS) {
        winning_one(c, n, m.k, m.y);
        st = emit(ud, (const mpz_t *)m.y, n);
        if (st == BT_OK)
            st = BT_ELIMIT;
    } else {
        st = p_column(&m, (long)w - 1);
        if (st == BT_ELIMIT && m.emitted == 0) {
            /* the search ran out before a first move: the greedy one */
            winning_one(c, n, m.k, m.y);
            st = emit(ud, (const mpz_t *)m.y, n);
            if (st == BT_OK)
                st = BT_ELIMIT;
        }
    }
    for (i = 0; i < n; i++)
        mpz_clear(m.y[i]);
    free(m.y);
    free(m.since);
    if (st == BT_ELIMIT)
        return bt__fail(diag, st,
                        "a moore:%lu position has more winning moves than "
                        "the limit lets list (max_search %zu)",
                        m.k, lim->max_search);
    if (st == BT_EINTR)
        return bt__fail(diag, st, "the time budget ran out");
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
    if (k == 1) { /* Bouton: the nim-sum */
        mpz_set_ui(rop, 0);
        for (i = 0; i < n; i++)
            mpz_xor(rop, rop, c[i]);
        return BT_OK;
    }
    if (columns_zero(c, n, k)) {
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
    size_t emitted, max;
} mis;

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
    if (++m->emitted > m->max)
        return BT_ELIMIT;
    return m->move(m->ud, 0, to, nto);
}

/* The moves to piles all <= 1 with ones = 1 (mod k + 1): every pile > 1
   goes to 0 or 1, and some 1-piles to 0, at most k piles changed. */
static bt_status
small_moves(mis *m, const mpz_t *c, size_t n, unsigned long k, mpz_t *y,
            size_t at, unsigned long changed, unsigned long ones)
{
    bt_status st;
    if (at == n) {
        if (changed == 0 || ones % (k + 1) != 1 % (k + 1))
            return BT_OK;
        if (++m->emitted > m->max)
            return BT_ELIMIT;
        return m->move(m->ud, 0, (const mpz_t *)y, n);
    }
    if (mpz_cmp_ui(c[at], 1) > 0) {
        if (changed >= k)
            return BT_OK;
        mpz_set_ui(y[at], 0);
        st = small_moves(m, c, n, k, y, at + 1, changed + 1, ones);
        if (st == BT_OK) {
            mpz_set_ui(y[at], 1);
            st = small_moves(m, c, n, k, y, at + 1, changed + 1, ones + 1);
        }
        mpz_set(y[at], c[at]);
        return st;
    }
    st = small_moves(m, c, n, k, y, at + 1, changed,
                     ones + (mpz_sgn(c[at]) > 0));
    if (st == BT_OK && mpz_sgn(c[at]) > 0 && changed < k) {
        mpz_set_ui(y[at], 0);
        st = small_moves(m, c, n, k, y, at + 1, changed + 1, ones);
        mpz_set(y[at], c[at]);
    }
    return st;
}

static bt_status
moore_misere(bt_game *g, const bt_position *p, bt_outcome *outcome,
             bt_status (*move)(void *ud, size_t comp, const mpz_t *to,
                               size_t nto),
             void *ud, const bt_limits *lim, bt_diag *diag)
{
    unsigned long k = k_of(g), ones = 0;
    const mpz_t *c;
    size_t n, i, big = 0;
    mis m;
    bt_status st;
    mpz_t *y;
    if (bt_position_size(p) != 1)
        return BT_EUNDEF; /* a sum of Moore games: the search */
    lim = bt__limits(lim);
    c = bt_position_nums(p, 0);
    n = bt_position_count(p, 0);
    for (i = 0; i < n; i++) {
        if (mpz_cmp_ui(c[i], 1) > 0)
            big++;
        else if (mpz_sgn(c[i]) > 0)
            ones++;
    }
    if (big == 0)
        *outcome = ones % (k + 1) == 1 % (k + 1) ? BT_P : BT_N;
    else
        *outcome = columns_zero(c, n, k) ? BT_P : BT_N;
    if (*outcome == BT_P || (big == 0 && ones == 0))
        return BT_OK; /* no winning move (none at all when all are 0) */
    m.n = n;
    m.move = move;
    m.ud = ud;
    m.emitted = 0;
    m.max = lim->max_search;
    y = malloc(n * sizeof *y);
    if (y == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    for (i = 0; i < n; i++)
        mpz_init_set(y[i], c[i]);
    st = BT_OK;
    /* to piles all <= 1: possible when at most k piles are > 1 */
    if (big <= k)
        st = small_moves(&m, c, n, k, y, 0, 0, 0);
    /* to normal P-positions keeping a pile >= 2 (only when one exists
       among k+1 piles of a column: big > k) */
    if (st == BT_OK && big > 0)
        st = p_moves(g, c, n, on_misere_p, &m, lim, diag);
    for (i = 0; i < n; i++)
        mpz_clear(y[i]);
    free(y);
    if (st == BT_ELIMIT && m.emitted > m.max)
        return bt__fail(diag, st,
                        "a moore:%lu position has more winning moves than "
                        "the limit lets list (max_search %zu)",
                        k, lim->max_search);
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
              const bt_analysis *a)
{
    unsigned long k = k_of(g);
    size_t i, j, w, n, nm;
    const mpz_t *c;
    int misere = bt_analysis_is_misere(a);
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
    if (bt_analysis_outcome(a) == BT_P) {
        bt__buf_puts(out, "A P-position: every move leaves a column whose "
                          "sum is not divisible; the previous player "
                          "wins.\n");
        return;
    }
    nm = bt_analysis_move_count(a);
    bt__buf_printf(out, "An N-position: the winning moves (%zu%s):\n", nm,
                   bt_analysis_moves_complete(a) ? "" : ", not all listed");
    for (i = 0; i < nm; i++)
        bt__buf_printf(out, "  - %s\n", bt_analysis_move(a, i)->text);
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
    },
    .grundy_n = moore_grundy,
    .options_n = moore_options,
    .moves_to_n = moore_moves_to,
    .describe_n = moore_describe,
    .p_last_n = moore_p_last,
};
