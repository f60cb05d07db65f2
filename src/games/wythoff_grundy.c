/*
 * wythoff_grundy.c -- Sprague-Grundy tables of Wythoff's game and of its
 * generalisation with difference a (Wythoff 1907, sec. 7).
 *
 * G(x, y) is the mex of the values of the options of (x, y).  The options
 * lie on three kinds of lines: the column (x', y), x' < x; the row (x, y'),
 * y' < y; and, for a move on both piles taking k and l with j = l - k,
 * |j| < a, the diagonal of difference (y - x) - j.  Values on one line are
 * distinct (any two of its cells are joined by a move), so each line is a
 * set, kept as a bitset, and the mex is the first zero bit of their union,
 * found a word (64 values) at a time.
 *
 * G is symmetric, so only x <= y is computed and stored.  For a = 1 the
 * union starts at the lower bound max(y - 2x, mex of each line): the row
 * holds y distinct values, of which the column and the diagonal (x values
 * each) can account for at most 2x below the mex.  The upper bound
 * G(x, y) <= x + y sizes the bitsets.  The table is built in square tiles
 * of 64 x 64 cells so that the bitsets in use stay in the cache: a cell
 * needs only its own column, row and diagonal, and a tile after those above
 * it and to its left.
 *
 * For a >= 2 a diagonal of difference e = d + m (m > 0, d = y - x) is
 * reached only from rows x' <= x - 1 - m, and e = d - m only from rows
 * x' <= x - 1; the table is built row by row and the few cells of a line
 * that are not options (at most a - 1 per line) have their bits cleared
 * for the scan and set again after it.  Cells near the main diagonal
 * (d < a - 1), whose options reach across it, enumerate their two-pile
 * options directly.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

/* The side times min(a, side) of the largest table: about 400 MiB. */
#define SG_MAX_WORK 16384
/* Tile side for a = 1. */
#define TILE 64
/* Words read past the mex by the unrolled scan. */
#define PAD 4

struct bt_wythoff_sg {
    size_t n;
    uint16_t *tri; /* x <= y, row by row: row x holds y = x .. n-1 */
    size_t peak;
};

static size_t
tri_off(size_t n, size_t x)
{
    return x * n - x * (x - 1) / 2; /* rows 0 .. x-1 hold n, n-1, ... */
}

size_t
bt_wythoff_sg_below(const bt_wythoff_sg *t)
{
    return t->n;
}

unsigned
bt_wythoff_sg_get(const bt_wythoff_sg *t, size_t x, size_t y)
{
    if (x > y) {
        size_t s = x;
        x = y;
        y = s;
    }
    if (y >= t->n)
        return UINT_MAX;
    return t->tri[tri_off(t->n, x) + (y - x)];
}

size_t
bt_wythoff_sg_peak_bytes(const bt_wythoff_sg *t)
{
    return t->peak;
}

void
bt_wythoff_sg_free(bt_wythoff_sg *t)
{
    if (t == NULL)
        return;
    free(t->tri);
    free(t);
}

/* ------------------------------------------------------------ bitsets */

#define SETBIT(b, v) ((b)[(v) / 64] |= (uint64_t)1 << ((v) % 64))
#define CLRBIT(b, v) ((b)[(v) / 64] &= ~((uint64_t)1 << ((v) % 64)))

/* The least v >= from that is not in bitset b. */
static size_t
next_free(const uint64_t *b, size_t from)
{
    size_t w = from / 64;
    uint64_t m = b[w] | (((uint64_t)1 << (from % 64)) - 1);
    while (m == ~(uint64_t)0)
        m = b[++w];
    return w * 64 + (size_t)__builtin_ctzll(~m);
}

/*
 * The least v >= lo in none of r, c, d (the mex of their union when no
 * value below lo is free), or SIZE_MAX when it is not found within `words`
 * words (which the bounds rule out).  Four words at a time: the loads are
 * independent and one test covers them.
 */
static size_t
mex3(const uint64_t *r, const uint64_t *c, const uint64_t *d, size_t lo,
     size_t words)
{
    size_t w = lo / 64;
    uint64_t m = r[w] | c[w] | d[w] | (((uint64_t)1 << (lo % 64)) - 1);
    if (m != ~(uint64_t)0)
        return w * 64 + (size_t)__builtin_ctzll(~m);
    for (w++; w + PAD <= words; w += 4) {
        uint64_t m0 = r[w] | c[w] | d[w];
        uint64_t m1 = r[w + 1] | c[w + 1] | d[w + 1];
        uint64_t m2 = r[w + 2] | c[w + 2] | d[w + 2];
        uint64_t m3 = r[w + 3] | c[w + 3] | d[w + 3];
        if ((m0 & m1 & m2 & m3) == ~(uint64_t)0)
            continue;
        if (m0 != ~(uint64_t)0)
            return w * 64 + (size_t)__builtin_ctzll(~m0);
        if (m1 != ~(uint64_t)0)
            return (w + 1) * 64 + (size_t)__builtin_ctzll(~m1);
        if (m2 != ~(uint64_t)0)
            return (w + 2) * 64 + (size_t)__builtin_ctzll(~m2);
        return (w + 3) * 64 + (size_t)__builtin_ctzll(~m3);
    }
    return SIZE_MAX;
}

/* As mex3 for the union of r, c and the nd bitsets d[0..nd-1]. */
static size_t
mexn(const uint64_t *r, const uint64_t *c, const uint64_t *const *d, size_t nd,
     size_t lo, size_t words)
{
    size_t w, i;
    uint64_t first = ((uint64_t)1 << (lo % 64)) - 1;
    for (w = lo / 64; w < words; w++) {
        uint64_t m = r[w] | c[w] | first;
        for (i = 0; i < nd && m != ~(uint64_t)0; i++)
            m |= d[i][w];
        if (m != ~(uint64_t)0)
            return w * 64 + (size_t)__builtin_ctzll(~m);
        first = 0;
    }
    return SIZE_MAX;
}

/* --------------------------------------------------------- the builder */

typedef struct builder {
    size_t n, a;  /* side; difference, at most n */
    size_t words; /* per bitset, PAD included */
    uint16_t *tri;
    uint64_t *col;   /* n bitsets: column y, rows processed so far */
    uint64_t *dg;    /* n bitsets: diagonal e = y - x >= 0 */
    uint64_t *rows;  /* row bitsets in use */
    uint64_t *tmp;   /* a >= 2: scratch for cells near the diagonal */
    size_t *cm, *dm; /* mex of each column and diagonal (lower bounds) */
    const uint64_t **dp;
    const bt_limits *lim;
} builder;

static uint64_t *
bits_at(uint64_t *base, size_t words, size_t i)
{
    return base + i * words;
}

static uint16_t
val(const builder *b, size_t x, size_t y)
{
    if (x > y) {
        size_t s = x;
        x = y;
        y = s;
    }
    return b->tri[tri_off(b->n, x) + (y - x)];
}

/* Records G(x, y) = v in its row bitset r, column and diagonal. */
static void
record(builder *b, uint64_t *r, size_t x, size_t y, size_t v)
{
    uint64_t *c = bits_at(b->col, b->words, y);
    uint64_t *d = bits_at(b->dg, b->words, y - x);
    b->tri[tri_off(b->n, x) + (y - x)] = (uint16_t)v;
    SETBIT(r, v);
    SETBIT(c, v);
    SETBIT(d, v);
    if (v == b->cm[y])
        b->cm[y] = next_free(c, v);
    if (v == b->dm[y - x])
        b->dm[y - x] = next_free(d, v);
}

/* a = 1: tiles of TILE x TILE cells, rows of tiles from the top. */
static bt_status
build_a1(builder *b)
{
    size_t n = b->n, X, Y, x, y, rm[TILE];
    bt_status st;
    for (X = 0; X < n; X += TILE) {
        size_t xe = X + TILE < n ? X + TILE : n;
        for (Y = X; Y < n; Y += TILE) {
            size_t ye = Y + TILE < n ? Y + TILE : n;
            /* a tile at a time: a row of tiles is TILE * n cells (half a
               million at the side of 8000, some 30 ms) */
            if ((st = bt__poll(b->lim)) != BT_OK)
                return st;
            for (x = X; x < xe; x++) {
                uint64_t *r = bits_at(b->rows, b->words, x - X);
                size_t y0 = Y;
                if (Y == X) {
                    /* the row left of the diagonal is column x above it */
                    memcpy(r, bits_at(b->col, b->words, x),
                           b->words * sizeof *r);
                    rm[x - X] = next_free(r, 0);
                    y0 = x;
                }
                for (y = y0; y < ye; y++) {
                    size_t d = y - x, lo = y > 2 * x ? y - 2 * x : 0, v;
                    if (rm[x - X] > lo)
                        lo = rm[x - X];
                    if (b->cm[y] > lo)
                        lo = b->cm[y];
                    if (b->dm[d] > lo)
                        lo = b->dm[d];
                    v = mex3(r, bits_at(b->col, b->words, y),
                             bits_at(b->dg, b->words, d), lo, b->words);
                    if (v == SIZE_MAX)
                        return BT_ERANGE;
                    record(b, r, x, y, v);
                    if (v == rm[x - X])
                        rm[x - X] = next_free(r, v);
                }
            }
        }
    }
    return BT_OK;
}

/* a >= 2, a cell near the diagonal (d < a - 1): its two-pile options are
   enumerated one by one. */
static size_t
cell_direct(builder *b, const uint64_t *r, size_t x, size_t y, size_t lo)
{
    const uint64_t *c = bits_at(b->col, b->words, y);
    size_t w, k, l;
    for (w = 0; w < b->words; w++)
        b->tmp[w] = r[w] | c[w];
    for (k = 1; k <= x; k++) {
        size_t l0 = k + 1 > b->a ? k + 1 - b->a : 1;
        size_t l1 = k + b->a - 1 < y ? k + b->a - 1 : y;
        for (l = l0; l <= l1; l++)
            SETBIT(b->tmp, (size_t)val(b, x - k, y - l));
    }
    return mexn(b->tmp, b->tmp, NULL, 0, lo, b->words);
}

/* a >= 2, d >= a - 1: every option lies at or above the diagonal. */
static size_t
cell_lines(builder *b, const uint64_t *r, size_t x, size_t y, size_t lo)
{
    size_t n = b->n, a = b->a, d = y - x, e, e0 = d + 1 - a, e1, i, nd = 0;
    size_t v;
    e1 = d + a - 1 < n - 1 ? d + a - 1 : n - 1;
    /* leave out the cells of each line that are not options */
    for (e = e0; e <= e1; e++) {
        uint64_t *de = bits_at(b->dg, b->words, e);
        if (e < d) {
            CLRBIT(de, (size_t)val(b, x, x + e));
        } else {
            for (i = 1; i <= e - d && i <= x; i++)
                if (x - i + e < n)
                    CLRBIT(de, (size_t)val(b, x - i, x - i + e));
        }
        b->dp[nd++] = de;
    }
    v = mexn(r, bits_at(b->col, b->words, y), b->dp, nd, lo, b->words);
    for (e = e0; e <= e1; e++) {
        uint64_t *de = bits_at(b->dg, b->words, e);
        if (e < d) {
            SETBIT(de, (size_t)val(b, x, x + e));
        } else {
            for (i = 1; i <= e - d && i <= x; i++)
                if (x - i + e < n)
                    SETBIT(de, (size_t)val(b, x - i, x - i + e));
        }
    }
    return v;
}

/* a >= 2: row by row. */
static bt_status
build_an(builder *b)
{
    size_t n = b->n, x, y;
    uint64_t *r = b->rows;
    bt_status st;
    for (x = 0; x < n; x++) {
        size_t rm;
        if ((st = bt__poll(b->lim)) != BT_OK)
            return st;
        memcpy(r, bits_at(b->col, b->words, x), b->words * sizeof *r);
        rm = next_free(r, 0);
        for (y = x; y < n; y++) {
            size_t lo = rm > b->cm[y] ? rm : b->cm[y], v;
            if (y - x + 1 < b->a)
                v = cell_direct(b, r, x, y, lo);
            else
                v = cell_lines(b, r, x, y, lo);
            if (v == SIZE_MAX || v > UINT16_MAX)
                return BT_ERANGE;
            record(b, r, x, y, v);
            if (v == rm)
                rm = next_free(r, v);
        }
    }
    return BT_OK;
}

static bt_status
wythoff_sg_new(bt_wythoff_sg **out, bt_game *g, size_t below,
               const bt_limits *lim, bt_diag *diag)
{
    bt_wythoff_sg *t = NULL;
    builder b;
    size_t n = below, a, vmax, nrows, cells;
    bt_status st = BT_OK;
    mpz_t az;

    *out = NULL;
    lim = bt__limits(lim);
    mpz_init(az);
    if (bt_wythoff_difference(az, g) != BT_OK) {
        mpz_clear(az);
        return bt__fail(diag, BT_EINVAL, "%s is not a Wythoff game", g->spec);
    }
    /* a >= n plays like a = n inside the table: |k - l| < n always */
    a = mpz_cmp_ui(az, (unsigned long)(n ? n : 1)) >= 0 ? (n ? n : 1)
                                                        : mpz_get_ui(az);
    mpz_clear(az);
    if (n > lim->max_grundy)
        return bt__fail(diag, BT_ELIMIT,
                        "a Grundy table of side %zu is more than the "
                        "max_grundy limit of %zu",
                        n, lim->max_grundy);
    if (n > SG_MAX_WORK / a)
        return bt__fail(diag, BT_ELIMIT,
                        "a Grundy table of %s of side %zu is too large: "
                        "side * min(a, side) must be at most %d",
                        g->spec, n, SG_MAX_WORK);
    memset(&b, 0, sizeof b);
    t = calloc(1, sizeof *t);
    if (t == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    t->n = n;
    if (n == 0) {
        *out = t;
        return BT_OK;
    }
    /* G is at most the number of options: x + y for a = 1 (the bound of
       the issue, checked by the scan's limit), else
       x + y + x * min(y, 2a - 1) */
    if (a == 1)
        vmax = 2 * n;
    else
        vmax = (n - 1) * (2 + (n - 1 < 2 * a - 1 ? n - 1 : 2 * a - 1)) + 1;
    b.n = n;
    b.a = a;
    b.lim = lim;
    b.words = vmax / 64 + 1 + PAD;
    nrows = a == 1 ? TILE : 1;
    cells = n * (n + 1) / 2;
    {
        /* what the build holds at its peak (t->peak below), checked
           against the memory budget before any of it is taken */
        size_t need = cells * sizeof *b.tri +
                      (2 * n + nrows + 1) * b.words * sizeof(uint64_t) +
                      2 * n * sizeof(size_t) + 2 * a * sizeof(void *);
        if (lim->max_memory != 0 && need > lim->max_memory) {
            free(t);
            return bt__fail(diag, BT_ELIMIT,
                            "a Grundy table of %s of side %zu needs %zu "
                            "bytes, more than the max_memory limit of %zu",
                            g->spec, n, need, lim->max_memory);
        }
    }
    b.tri = malloc(cells * sizeof *b.tri);
    b.col = calloc(n * b.words, sizeof *b.col);
    b.dg = calloc(n * b.words, sizeof *b.dg);
    b.rows = calloc(nrows * b.words, sizeof *b.rows);
    b.tmp = calloc(b.words, sizeof *b.tmp);
    b.cm = calloc(n, sizeof *b.cm);
    b.dm = calloc(n, sizeof *b.dm);
    b.dp = calloc(2 * a, sizeof *b.dp);
    if (b.tri == NULL || b.col == NULL || b.dg == NULL || b.rows == NULL ||
        b.tmp == NULL || b.cm == NULL || b.dm == NULL || b.dp == NULL) {
        st = bt__fail(diag, BT_ENOMEM,
                      "out of memory for a Grundy table of side %zu", n);
        goto cleanup;
    }
    t->peak = cells * sizeof *b.tri +
              (2 * n + nrows + 1) * b.words * sizeof(uint64_t) +
              2 * n * sizeof(size_t) + 2 * a * sizeof(void *);
    st = a == 1 ? build_a1(&b) : build_an(&b);
    if (st == BT_EINTR)
        st = bt__fail(diag, st, "the time budget ran out");
    else if (st != BT_OK) /* a broken bound: never expected */
        st =
            bt__fail(diag, BT_ERANGE,
                     "a Grundy value of %s exceeded its proven bound", g->spec);
cleanup:
    free(b.col);
    free(b.dg);
    free(b.rows);
    free(b.tmp);
    free(b.cm);
    free(b.dm);
    free(b.dp);
    if (st != BT_OK) {
        free(b.tri);
        free(t);
        return st;
    }
    t->tri = b.tri;
    *out = t;
    return BT_OK;
}

bt_status
bt_wythoff_sg_new(bt_wythoff_sg **out, bt_game *g, size_t below,
                  const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, wythoff_sg_new(out, g, below, lim, diag));
}
