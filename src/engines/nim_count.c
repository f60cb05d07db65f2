/*
 * nim_count.c -- counting Nim positions and safe combinations, exactly,
 * without enumerating them (Bouton 1901/02, sec. 3, generalised).
 *
 * K piles, each of size in S = [MIN, MAX], N = |S| = MAX - MIN + 1.  How
 * many positions, and how many P-positions (nim-sum 0 in normal play),
 * counting K-tuples (ordered) or multisets of size K (unordered, as Bouton
 * does)?  docs/counting.md gives the derivation at length; in short:
 *
 * 1. Ordered.  Let T(j) be the number of j-tuples of S with nim-sum 0.
 *    With L = bitlength(MAX), S lies in the group (Z/2)^L under XOR, whose
 *    characters are chi_s(x) = (-1)^popcount(s & x), 0 <= s < 2^L.  The
 *    Walsh transform W_s = sum_{x in S} chi_s(x) turns the count into a
 *    power sum (orthogonality of characters):
 *
 *        T(j) = 2^-L sum_s W_s^j.                                     (1)
 *
 *    W_0 = N.  For an interval [0, B] and s != 0 whose lowest set bit is l,
 *    whole blocks of 2^(h+1) consecutive x cancel (h the top bit of s), and
 *    peeling the bits of s from the top gives the closed form
 *
 *        W_s([0,B]) = (-1)^popcount(B & s') * v_l(B),
 *        v_l(B) = B_l ? 2^l - (B mod 2^l) - 1 : (B mod 2^l) + 1,       (2)
 *
 *    s' being s without its lowest set bit and B_l bit l of B.  For S =
 *    [0, MAX] minus [0, A], A = MIN - 1, W_s is the difference of two such
 *    values.  For a fixed l the 2^(L-l-1) choices of s' give the signs
 *    (chi(MAX >> (l+1)), chi(A >> (l+1))): constant, one uniform, equal and
 *    uniform, or independent and uniform, according as the two high parts
 *    are both zero, one zero, equal or distinct.  So the spectrum has at
 *    most 4L + 1 distinct entries with known multiplicities, and (1) is a
 *    sum of about 2L powers: the digit DP over the binary digits of MIN
 *    and MAX, solved in closed form.
 *
 * 2. Unordered.  By Burnside's lemma (Polya counting) the number of
 *    multisets with nim-sum 0 is the average over the permutations of S_K
 *    of the number of K-tuples they fix that have nim-sum 0.  A fixed tuple
 *    is constant on each cycle; a cycle of even length adds nothing to the
 *    nim-sum (x XOR x = 0) and one of odd length adds its value.  With o
 *    odd and e even cycles the fixed tuples number N^e T(o).  So the count
 *    is the cycle index Z(S_K) with the power sums p_i replaced by W for
 *    odd i and by N for even i, followed by the linear map W^j -> T(j).
 *    From n Z_n = sum_{i=1..n} p_i Z_{n-i}, the generating function
 *    H(t) = exp(sum_i p_i t^i / i) obeys (1 - t^2) H' = (W + N t) H, so
 *    g_n = n! Z_n satisfies a three-term recurrence with integer
 *    coefficients,
 *
 *        g_0 = 1,  g_1 = W,  g_{n+1} = W g_n + n (n - 1 + N) g_{n-1},  (3)
 *
 *    and by (1), summing over the characters instead of over j,
 *
 *        #P (multisets) = (2^L K!)^-1 sum_s g_K(W_s).                  (4)
 *
 *    E.g. K = 3: g_3 = W^3 + (3N + 2) W.  For S = [1, 15], W_s = -1 for all
 *    s != 0, so #P = (15^3 + 47*15 + 15 * (-1 - 47)) / (16 * 6) = 35,
 *    Bouton's count.
 *
 * 3. Misère (Bouton sec. 6).  The P-positions are those of normal play,
 *    except among the positions whose piles are all 0 or 1: there an odd
 *    number of ones is P and an even number (nim-sum 0) is not.  Those
 *    positions are few and counted directly.
 *
 * The positions number N^K (ordered) or C(N + K - 1, K) (unordered).
 *
 * g_K and w^K have the parity of K, so W_s = w and W_s = -w are summed as
 * one point, and the points of equal |W_s| are merged.  Each point costs
 * one power (ordered) or one evaluation of g_K (unordered: by Horner's
 * rule on g_K's coefficients, or by (3) directly when the coefficient table
 * would cost more, as for many piles of small size).  Multisets of
 * non-empty piles (Bouton's case) are counted as those of [0, MAX] less
 * those of one pile fewer, which halves the points (bt_nim_count()).
 */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "engines/engines.h"

/*
 * The most work a count takes on, in multiplications of 64-bit words, as
 * estimated by plan_count() (a few seconds of one core).  K = 64 piles of
 * random 1024-bit sizes take about 2 * 10^8.  Documented in
 * docs/counting.md.
 */
#define COUNT_MAX_WORK 3e9
/* The most memory the table of g_K's coefficients, and the spectrum, may
   take, in bytes. */
#define COUNT_MAX_TABLE (256.0 * 1024 * 1024)
#define COUNT_MAX_MEMORY (256.0 * 1024 * 1024)

void
bt_nim_sum(mpz_t rop, const mpz_t a, const mpz_t b)
{
    mpz_xor(rop, a, b);
}

/* ------------------------------------------------------------ spectrum */

/*
 * The levels l = 0 .. L-1 of (2).  A level's kind says which sign patterns
 * (chi(MAX >> (l+1)), chi(A >> (l+1))) occur, each equally often.
 */
enum { LV_FIXED, LV_ONE, LV_EQUAL, LV_FREE };
/* log2 of the number of sign patterns of each kind */
static const unsigned kind_log[] = {0, 1, 1, 2};

typedef struct levels {
    mpz_srcptr max, a; /* a = MIN - 1, when has_a */
    int has_a;
    mp_bitcnt_t L;  /* bitlength(MAX) */
    mp_bitcnt_t la; /* bitlength(A), 0 without A */
    mp_bitcnt_t d;  /* the top bit where MAX and A differ */
} levels;

static int
level_kind(const levels *lv, mp_bitcnt_t l)
{
    if (l + 1 >= lv->L)
        return LV_FIXED; /* MAX >> (l+1) == 0, hence A >> (l+1) == 0 */
    if (l + 1 >= lv->la)
        return LV_ONE; /* only MAX's sign varies */
    if (l >= lv->d)
        return LV_EQUAL; /* equal high parts: equal signs */
    return LV_FREE;
}

/* Non-zero when level l has the same values as level l - 1: v_l(B)
   changes exactly where bit l of B differs from bit l - 1. */
static int
level_same(const levels *lv, mp_bitcnt_t l)
{
    return l > 0 && level_kind(lv, l) == level_kind(lv, l - 1) &&
           mpz_tstbit(lv->max, l) == mpz_tstbit(lv->max, l - 1) &&
           (!lv->has_a || mpz_tstbit(lv->a, l) == mpz_tstbit(lv->a, l - 1));
}

/*
 * The points a level of this kind leaves: its values are v1 - v2, and for
 * the other kinds also -(v1 - v2) or -(v1 + v2) or both, with v2 = 0
 * without A.  g_K and w^K have the parity of K, so w and -w make one point
 * for even K and cancel for odd K.
 */
static unsigned
kind_points(int kind, int has_a, unsigned long k)
{
    switch (kind) {
    case LV_FIXED:
        return 1;
    case LV_ONE: /* v1 - v2 and -(v1 + v2) */
        return has_a ? 2 : !(k & 1);
    case LV_EQUAL: /* +-(v1 - v2) */
        return !(k & 1);
    default: /* +-(v1 - v2), +-(v1 + v2) */
        return k & 1 ? 0 : 2;
    }
}

/* v = v_l(b) of (2). */
static void
level_value(mpz_t v, mpz_srcptr b, mp_bitcnt_t l)
{
    mpz_fdiv_r_2exp(v, b, l);
    if (mpz_tstbit(b, l)) {
        mpz_com(v, v); /* -(b mod 2^l) - 1, reduced mod 2^l */
        mpz_fdiv_r_2exp(v, v, l);
    } else {
        mpz_add_ui(v, v, 1);
    }
}

/*
 * Follows the bit sizes of v_l(B) as l goes up, without computing them:
 * v_l(B) = (B mod 2^l) + 1 has at most top1 + 2 bits (top1 the highest 1
 * of B below l), and 2^l - (B mod 2^l) - 1 is the complement of B's low
 * l bits, whose highest 1 is top0, the highest 0 of B below l.
 */
typedef struct size_walk {
    long top0, top1;
} size_walk;

static double
size_walk_step(size_walk *sw, mpz_srcptr b, mp_bitcnt_t l)
{
    int bit = mpz_tstbit(b, l);
    double bits = bit ? (double)(sw->top0 + 1) : (double)(sw->top1 + 2);
    if (bit)
        sw->top1 = (long)l;
    else
        sw->top0 = (long)l;
    return bits;
}

/* One value of the transform at s != 0, for `weight` values of s. */
typedef struct raw_point {
    mpz_t w, weight;
} raw_point;

/* A point of (1) and (4): |W_s| = a > 0 with weight c = (the number of s
   with W_s = a) + (-1)^K (the number with W_s = -a). */
typedef struct point {
    mpz_t a, c;
} point;

typedef struct spectrum {
    point *pt;
    size_t n;
    mp_bitcnt_t L;
    mpz_t zeros; /* the number of s != 0 with W_s = 0 */
} spectrum;

static void
raw_add(raw_point *r, size_t *n, const mpz_t w, const mpz_t weight)
{
    if (mpz_sgn(w) == 0)
        return;
    mpz_init_set(r[*n].w, w);
    mpz_init_set(r[*n].weight, weight);
    (*n)++;
}

static int
raw_cmp(const void *x, const void *y)
{
    const raw_point *a = x, *b = y;
    return mpz_cmpabs(a->w, b->w);
}

static void
raw_free(raw_point *raw, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        mpz_clears(raw[i].w, raw[i].weight, NULL);
    free(raw);
}

static void
spectrum_free(spectrum *sp)
{
    size_t i;
    for (i = 0; i < sp->n; i++)
        mpz_clears(sp->pt[i].a, sp->pt[i].c, NULL);
    free(sp->pt);
    sp->pt = NULL;
    sp->n = 0;
    mpz_clear(sp->zeros);
}

/*
 * Builds the spectrum of S = [MIN, MAX] for the parity of k, one run of
 * equal levels at a time (nruns of them), then merges the values of equal
 * magnitude.  BT_ENOMEM on failure.
 */
static bt_status
spectrum_init(spectrum *sp, const levels *lv, size_t nruns, unsigned long k)
{
    mp_bitcnt_t l, l1, L = lv->L;
    mpz_t v1, v2, w, wt;
    raw_point *raw;
    size_t nraw = 0, i, j;

    sp->n = 0;
    sp->L = L;
    sp->pt = NULL;
    mpz_init(sp->zeros);
    raw = malloc((4 * nruns + 1) * sizeof *raw);
    if (raw == NULL)
        return BT_ENOMEM;
    mpz_inits(v1, v2, w, wt, NULL);
    for (l = 0; l < L; l = l1 + 1) {
        int kind = level_kind(lv, l);
        for (l1 = l; l1 + 1 < L && level_same(lv, l1 + 1); l1++)
            ;
        /* Each sign pattern occurs 2^(L - i - 1 - kind_log) times at level
           i, so over the run wt = 2^e (2^(l1 - l + 1) - 1) times. */
        mpz_set_ui(wt, 0);
        mpz_setbit(wt, l1 - l + 1);
        mpz_sub_ui(wt, wt, 1);
        mpz_mul_2exp(wt, wt, L - l1 - 1 - kind_log[kind]);
        level_value(v1, lv->max, l);
        if (lv->has_a)
            level_value(v2, lv->a, l);
        else
            mpz_set_ui(v2, 0);
        mpz_sub(w, v1, v2); /* signs (+, +) */
        raw_add(raw, &nraw, w, wt);
        if (kind == LV_EQUAL || kind == LV_FREE) {
            mpz_neg(w, w); /* (-, -) */
            raw_add(raw, &nraw, w, wt);
        }
        if (kind == LV_ONE || kind == LV_FREE) {
            mpz_add(w, v1, v2); /* (-, +) */
            mpz_neg(w, w);
            raw_add(raw, &nraw, w, wt);
        }
        if (kind == LV_FREE) {
            mpz_add(w, v1, v2); /* (+, -) */
            raw_add(raw, &nraw, w, wt);
        }
    }
    mpz_clears(v1, v2, w, wt, NULL);

    /* merge equal magnitudes: c = sum of weight * sign^K */
    qsort(raw, nraw, sizeof *raw, raw_cmp);
    sp->pt = malloc((nraw + 1) * sizeof *sp->pt);
    if (sp->pt == NULL) {
        raw_free(raw, nraw);
        return BT_ENOMEM;
    }
    mpz_setbit(sp->zeros, L);
    mpz_sub_ui(sp->zeros, sp->zeros, 1);
    for (i = 0; i < nraw; i = j) {
        point *p = &sp->pt[sp->n];
        mpz_init(p->c);
        mpz_init(p->a);
        mpz_abs(p->a, raw[i].w);
        for (j = i; j < nraw && mpz_cmpabs(raw[j].w, p->a) == 0; j++) {
            mpz_sub(sp->zeros, sp->zeros, raw[j].weight);
            if (mpz_sgn(raw[j].w) < 0 && (k & 1))
                mpz_sub(p->c, p->c, raw[j].weight);
            else
                mpz_add(p->c, p->c, raw[j].weight);
        }
        if (mpz_sgn(p->c) == 0)
            mpz_clears(p->a, p->c, NULL); /* w and -w cancel (odd K) */
        else
            sp->n++;
    }
    raw_free(raw, nraw);
    return BT_OK;
}

/*
 * rop += c x.  The weights are sums of a few blocks of powers of two
 * (one block per run of levels): then shifts are cheaper than a product.
 */
static void
add_weighted(mpz_t rop, const mpz_t c, const mpz_t x, mpz_t tmp)
{
    mp_bitcnt_t lo, hi;
    int runs = 0, neg = mpz_sgn(c) < 0;
    mpz_t u;

    mpz_abs(tmp, c);
    for (lo = mpz_scan1(tmp, 0); lo != ~(mp_bitcnt_t)0 && runs <= 4;
         lo = mpz_scan1(tmp, hi)) {
        hi = mpz_scan0(tmp, lo);
        runs++;
    }
    if (runs > 4) {
        mpz_addmul(rop, c, x);
        return;
    }
    /* |c| = the sum over its runs of ones [lo, hi) of 2^hi - 2^lo */
    mpz_init(u);
    for (lo = mpz_scan1(tmp, 0); lo != ~(mp_bitcnt_t)0;
         lo = mpz_scan1(tmp, hi)) {
        hi = mpz_scan0(tmp, lo);
        mpz_mul_2exp(u, x, hi);
        if (neg)
            mpz_sub(rop, rop, u);
        else
            mpz_add(rop, rop, u);
        mpz_mul_2exp(u, x, lo);
        if (neg)
            mpz_add(rop, rop, u);
        else
            mpz_sub(rop, rop, u);
    }
    mpz_clear(u);
}

/* ------------------------------------------------------------ cost model */

/*
 * Word multiplications to multiply numbers of x and y words, as GMP does
 * it: schoolbook when small, then Toom (about n^1.5), then FFT (about
 * n log n).  Measured within a factor of two.
 */
static double
mulcost(double x, double y)
{
    double n = x < y ? x : y, m = x < y ? y : x, one;
    if (n < 32)
        return n * m + 1;
    if (n <= 8192)
        one = 5.6 * n * sqrt(n);
    else
        one = 45.0 * n * log2(n);
    return one * (m / n);
}

static double
words(double bits)
{
    return bits / 64.0 + 1.0;
}

/* The estimated cost of one point of `bits` bits: a power (ordered), g_K
   by the recurrence (3), or g_K by Horner's rule on its table. */
enum { BY_POWER, BY_REC, BY_TABLE };

static double
point_cost(int how, double bits, double kd, double nbits)
{
    double lg = log2(kd + 1.0), m;
    switch (how) {
    case BY_POWER: /* a^K: squarings up to K * bits bits, the last one
                      dominating */
        return 2 * mulcost(words(kd * bits / 2), words(kd * bits / 2));
    case BY_REC: /* (3): K steps; numbers up to K max(bits, nbits/2) +
                    K lg K bits */
        m = kd * ((bits > nbits / 2 ? bits : nbits / 2) + lg);
        return kd *
               (mulcost(words(bits), words(m)) +
                mulcost(words(nbits + lg), words(m))) /
               2;
    default: /* Horner in w^2: K/2 steps; up to K/2 max(2 bits, nbits)
                bits */
        m = kd / 2 * ((2 * bits > nbits ? 2 * bits : nbits) + lg);
        return kd / 2 * mulcost(words(2 * bits), words(m)) / 2;
    }
}

/* The estimated cost of step i of the table of g_K's coefficients: about
   i/2 coefficients of about i (nbits/2 + lg K) bits times one of
   nbits + 2 lg K bits. */
static double
table_step_cost(double i, double kd, double nbits)
{
    double lg = log2(kd + 1.0);
    return (i / 2 + 1) * mulcost(words(nbits + 2 * lg),
                                 words(i * (nbits / 2 + lg))) /
           2;
}

/* What a count will cost, estimated from the sizes alone. */
typedef struct plan {
    size_t runs;    /* runs of equal levels */
    double memory;  /* bytes of the spectrum */
    double ordered; /* word multiplications of each method */
    double by_rec;
    double by_table;
    double table_bytes;
} plan;

/* Adds the cost of one point of `bits` bits to the plan. */
static void
plan_point(plan *pl, double bits, double kd, double nbits)
{
    pl->ordered += point_cost(BY_POWER, bits, kd, nbits);
    pl->by_rec += point_cost(BY_REC, bits, kd, nbits);
    pl->by_table += point_cost(BY_TABLE, bits, kd, nbits);
}

/* Plans the count of k >= 3 piles over the levels lv. */
static void
plan_count(plan *pl, const levels *lv, unsigned long k, double nbits)
{
    double kd = (double)k, lg = log2(kd + 1.0), s1, s2, bits;
    double coef = kd / 2 * nbits + kd * lg; /* bits of g_K's coefficients */
    size_walk w1 = {-1, -1}, w2 = {-1, -1};
    mp_bitcnt_t l;
    unsigned i;

    pl->runs = 0;
    pl->memory = 0;
    pl->ordered = pl->by_rec = pl->by_table = 0;
    plan_point(pl, nbits, kd, nbits); /* W_0 = N */
    for (l = 0; l < lv->L; l++) {
        s1 = size_walk_step(&w1, lv->max, l);
        s2 = lv->has_a ? size_walk_step(&w2, lv->a, l) : 0;
        if (level_same(lv, l))
            continue;
        pl->runs++;
        bits = (s1 > s2 ? s1 : s2) + 1;
        for (i = 0; i < kind_points(level_kind(lv, l), lv->has_a, k); i++)
            plan_point(pl, bits, kd, nbits);
        /* 4 raw values, each with a weight of up to L - l bits */
        pl->memory += 4 * ((bits + (double)(lv->L - l)) / 8 + 64);
    }
    /* the table: K steps of about n/2 coefficients times N */
    pl->by_table += kd * kd / 4 * mulcost(words(nbits + lg), words(coef)) / 2;
    pl->table_bytes = 2 * (kd + 1) * (coef / 8 + 32);
}

/*
 * The progress of a count, for bt_nim_count_progress(): the work done and
 * the work of the whole count, in the cost model's word multiplications,
 * step by step (a power, an evaluation of g_K, a step of its table).  The
 * whole is the sum of the same estimates over the actual points, so the
 * fraction ends at exactly 1.  One count of P-positions takes the share
 * [base, base + span) of the command's work.
 */
typedef struct meter {
    bt_count_progress fn; /* NULL: no reports */
    void *ud;
    double base, span;
    double done, total;
} meter;

static void
meter_add(meter *mt, double w)
{
    double f;
    if (mt == NULL || mt->fn == NULL)
        return;
    mt->done += w;
    f = mt->total > 0 && mt->done < mt->total ? mt->done / mt->total : 1.0;
    f = mt->base + mt->span * f;
    mt->fn(mt->ud, f < 1.0 ? f : 1.0);
}

static double
bits_of(const mpz_t a)
{
    return (double)mpz_sizeinbase(a, 2);
}

/* Sets the whole work of a sum over sp's points (and N) by `how`, with the
   table's steps first when there is one. */
static void
meter_begin(meter *mt, int how, const spectrum *sp, const mpz_t n,
            unsigned long k, int table)
{
    double kd = (double)k, nbits = bits_of(n);
    unsigned long i;
    size_t j;
    if (mt == NULL || mt->fn == NULL)
        return;
    mt->done = 0;
    mt->total = point_cost(how, nbits, kd, nbits);
    for (j = 0; j < sp->n; j++)
        mt->total += point_cost(how, bits_of(sp->pt[j].a), kd, nbits);
    if (table)
        for (i = 1; i < k; i++)
            mt->total += table_step_cost((double)i, kd, nbits);
}

/* -------------------------------------------------------------- counting */

/* rop = 2^L T(K) = N^K + sum_{s != 0} W_s^K, by (1), for K >= 1. */
static bt_status
ordered_sum(mpz_t rop, const spectrum *sp, const mpz_t n, unsigned long k,
            const bt_limits *lim, meter *mt)
{
    mpz_t t, u;
    size_t i;
    bt_status st = BT_OK;
    double kd = (double)k, nbits = bits_of(n);
    mpz_inits(t, u, NULL);
    meter_begin(mt, BY_POWER, sp, n, k, 0);
    mpz_pow_ui(rop, n, k);
    meter_add(mt, point_cost(BY_POWER, nbits, kd, nbits));
    for (i = 0; i < sp->n && st == BT_OK; i++) {
        mpz_pow_ui(t, sp->pt[i].a, k);
        add_weighted(rop, sp->pt[i].c, t, u);
        meter_add(mt, point_cost(BY_POWER, bits_of(sp->pt[i].a), kd, nbits));
        st = bt__poll(lim);
    }
    mpz_clears(t, u, NULL);
    return st;
}

/* rop = g_k(w), by the recurrence (3). */
static void
cycle_poly_rec(mpz_t rop, const mpz_t w, const mpz_t n, unsigned long k)
{
    mpz_t a, b, c;
    unsigned long i;
    mpz_inits(a, b, c, NULL);
    mpz_set_ui(a, 1);
    mpz_set(b, w);
    for (i = 1; i < k; i++) { /* (a, b) = (b, w b + i (i - 1 + N) a) */
        mpz_add_ui(c, n, i - 1);
        mpz_mul_ui(c, c, i);
        mpz_mul(a, a, c);
        mpz_addmul(a, w, b);
        mpz_swap(a, b);
    }
    if (k == 0)
        mpz_set_ui(rop, 1);
    else
        mpz_swap(rop, b);
    mpz_clears(a, b, c, NULL);
}

/* rop = g_k(w) = sum_j g[j] w^j by Horner's rule in w^2 (g[j] = 0 unless
   j has the parity of k). */
static void
cycle_poly_horner(mpz_t rop, const mpz_t w, mpz_t *g, unsigned long k, mpz_t z)
{
    unsigned long j;
    mpz_mul(z, w, w);
    mpz_set(rop, g[k]);
    for (j = k; j >= 2; j -= 2) {
        mpz_mul(rop, rop, z);
        mpz_add(rop, rop, g[j - 2]);
    }
    if (k & 1)
        mpz_mul(rop, rop, w);
}

/* Fills g[0..k] with the coefficients of g_k, by (3); h is scratch of the
   same length.  All entries are initialised by the caller. */
static bt_status
cycle_poly_table(mpz_t *g, mpz_t *h, const mpz_t n, unsigned long k,
                 const bt_limits *lim, meter *mt)
{
    unsigned long i, j;
    mpz_t c;
    bt_status st = BT_OK;
    mpz_init(c);
    mpz_set_ui(h[0], 1); /* g_0 */
    mpz_set_ui(g[0], 0);
    mpz_set_ui(g[1], 1); /* g_1 */
    for (i = 1; i < k && st == BT_OK; i++) {
        /* h := g_{i+1} = W g_i + c g_{i-1}, in place over g_{i-1} */
        mpz_add_ui(c, n, i - 1);
        mpz_mul_ui(c, c, i);
        for (j = i + 1;; j -= 2) {
            mpz_mul(h[j], h[j], c);
            mpz_add(h[j], h[j], g[j - 1]);
            if (j < 2)
                break;
            if (j == 2) { /* the constant term of h, when i + 1 is even */
                mpz_mul(h[0], h[0], c);
                break;
            }
        }
        for (j = 0; j <= i + 1; j++)
            mpz_swap(g[j], h[j]);
        meter_add(mt, table_step_cost((double)i, (double)k, bits_of(n)));
        st = bt__poll(lim);
    }
    mpz_clear(c);
    return st;
}

/* rop = g_k(w), through the table g when there is one. */
static void
eval_g(mpz_t rop, const mpz_t w, mpz_t *g, const mpz_t n, unsigned long k,
       mpz_t z)
{
    if (g != NULL)
        cycle_poly_horner(rop, w, g, k, z);
    else
        cycle_poly_rec(rop, w, n, k);
}

/* rop = 2^L K! #P(multisets) = sum_s g_K(W_s), by (4), for K >= 1. */
static bt_status
unordered_sum(mpz_t rop, const spectrum *sp, const mpz_t n, unsigned long k,
              int use_table, const bt_limits *lim, meter *mt)
{
    mpz_t *g = NULL, *h = NULL, t, z, u;
    unsigned long j;
    size_t i;
    bt_status st = BT_OK;
    int how = use_table ? BY_TABLE : BY_REC;
    double kd = (double)k, nbits = bits_of(n);

    meter_begin(mt, how, sp, n, k, use_table);
    if (use_table) {
        g = malloc((k + 1) * sizeof *g);
        h = malloc((k + 1) * sizeof *h);
        if (g == NULL || h == NULL) {
            free(g);
            free(h);
            return BT_ENOMEM;
        }
        for (j = 0; j <= k; j++)
            mpz_inits(g[j], h[j], NULL);
        st = cycle_poly_table(g, h, n, k, lim, mt);
    }
    mpz_inits(t, z, u, NULL);

    if (st == BT_OK) {
        eval_g(rop, n, g, n, k, z); /* s = 0: W_0 = N */
        meter_add(mt, point_cost(how, nbits, kd, nbits));
    }
    for (i = 0; i < sp->n && st == BT_OK; i++) {
        eval_g(t, sp->pt[i].a, g, n, k, z);
        add_weighted(rop, sp->pt[i].c, t, u);
        meter_add(mt, point_cost(how, bits_of(sp->pt[i].a), kd, nbits));
        st = bt__poll(lim);
    }
    if (st == BT_OK && mpz_sgn(sp->zeros) != 0 && !(k & 1)) {
        mpz_set_ui(u, 0);
        eval_g(t, u, g, n, k, z);
        mpz_addmul(rop, t, sp->zeros);
    }

    mpz_clears(t, z, u, NULL);
    if (use_table) {
        for (j = 0; j <= k; j++)
            mpz_clears(g[j], h[j], NULL);
        free(g);
        free(h);
    }
    return st;
}

/*
 * Misère: among the positions whose piles are all 0 or 1 (k >= 1), those
 * with an even number of ones (*even: nim-sum 0, yet N in misère) and
 * those with an odd number (*odd: P in misère only).
 */
static void
small_positions(mpz_t even, mpz_t odd, unsigned long k, const mpz_t min,
                const mpz_t max, int ordered)
{
    mpz_set_ui(even, 0);
    mpz_set_ui(odd, 0);
    if (mpz_cmp_ui(min, 1) > 0)
        return;
    if (mpz_sgn(max) == 0) {
        mpz_set_ui(even, 1); /* every pile empty */
    } else if (mpz_sgn(min) > 0) {
        mpz_set_ui(k % 2 ? odd : even, 1); /* every pile 1 */
    } else if (ordered) {
        mpz_setbit(even, k - 1); /* half of the 2^k tuples each */
        mpz_set(odd, even);
    } else {
        mpz_set_ui(even, k / 2 + 1); /* one multiset per count of ones */
        mpz_set_ui(odd, (k + 1) / 2);
    }
}

/*
 * pp = the number of normal-play P-positions of k piles in [min, max]
 * (tuples or multisets), for any k.  Plans the work first and refuses what
 * exceeds the budget.  With pp NULL it only plans, and sets *work to the
 * estimated work (0 for k <= 2); mt (or NULL) follows the work done.
 */
static bt_status
p_count(mpz_t pp, unsigned long k, const mpz_t min, const mpz_t max,
        const mpz_t n, int ordered, const bt_limits *lim, bt_diag *diag,
        meter *mt, double *work_out)
{
    mpz_t a, t;
    spectrum sp;
    levels lv;
    plan pl;
    bt_status st = BT_OK;
    double work;
    int use_table = 0;

    if (pp == NULL)
        *work_out = 0;
    if (k <= 2) {
        if (pp == NULL)
            return BT_OK;
        /* The empty position is safe; a single pile only when it is empty;
           two piles exactly when equal (Bouton sec. 2: x ^ y = 0 iff
           x = y), in N ways either way. */
        if (k == 0)
            mpz_set_ui(pp, 1);
        else if (k == 1)
            mpz_set_ui(pp, mpz_sgn(min) == 0);
        else
            mpz_set(pp, n);
        return BT_OK;
    }

    mpz_inits(a, t, NULL);
    lv.max = max;
    lv.has_a = mpz_sgn(min) > 0;
    if (lv.has_a)
        mpz_sub_ui(a, min, 1);
    lv.a = a;
    lv.L = mpz_sgn(max) == 0 ? 0 : mpz_sizeinbase(max, 2);
    lv.la = mpz_sgn(a) == 0 ? 0 : mpz_sizeinbase(a, 2);
    mpz_xor(t, max, a);
    lv.d = mpz_sizeinbase(t, 2) - 1; /* max > a, so they differ */

    /* The cost model (in word multiplications) picks the method for
       multisets, and bounds the work and the memory of every count. */
    plan_count(&pl, &lv, k, (double)mpz_sizeinbase(n, 2));
    if (ordered) {
        work = pl.ordered;
    } else if (pl.by_table < pl.by_rec && pl.table_bytes <= COUNT_MAX_TABLE) {
        work = pl.by_table;
        use_table = 1;
    } else {
        work = pl.by_rec;
    }
    if (pp == NULL) {
        *work_out = work;
        goto out;
    }
    if (work > COUNT_MAX_WORK) {
        st = bt__fail(diag, BT_ELIMIT,
                      "counting %lu piles of up to %zu bits is beyond the "
                      "work limit of the count (about %.1e word "
                      "multiplications, the limit is %.0e)",
                      k, (size_t)lv.L, work, COUNT_MAX_WORK);
        goto out;
    }
    if (pl.memory > COUNT_MAX_MEMORY) {
        st = bt__fail(diag, BT_ELIMIT,
                      "counting piles of up to %zu bits is beyond the "
                      "memory limit of the count (about %.0f MiB, the "
                      "limit is %.0f MiB)",
                      (size_t)lv.L, pl.memory / 1048576.0,
                      COUNT_MAX_MEMORY / 1048576.0);
        goto out;
    }

    /* O(runs * L) bits, within the planned work just bounded */
    st = spectrum_init(&sp, &lv, pl.runs, k);
    if (st == BT_OK && ordered) {
        st = ordered_sum(pp, &sp, n, k, lim, mt);
        if (st == BT_OK) {
            assert(mpz_divisible_2exp_p(pp, sp.L));
            mpz_fdiv_q_2exp(pp, pp, sp.L);
        }
    } else if (st == BT_OK) {
        st = unordered_sum(pp, &sp, n, k, use_table, lim, mt);
        if (st == BT_OK) {
            mpz_fac_ui(t, k);
            mpz_mul_2exp(t, t, sp.L);
            assert(mpz_divisible_p(pp, t));
            mpz_divexact(pp, pp, t);
        }
    }
    spectrum_free(&sp);
    if (st != BT_OK)
        st = bt__fail(diag, st,
                      st == BT_ENOMEM ? "out of memory"
                                      : "the count was interrupted");
out:
    mpz_clears(a, t, NULL);
    return st;
}

bt_status
bt_nim_count(mpz_t positions, mpz_t p_positions, mpq_ptr probability, size_t k,
             const mpz_t min, const mpz_t max, unsigned flags,
             const bt_limits *lim, bt_diag *diag)
{
    return bt_nim_count_progress(positions, p_positions, probability, k, min,
                                 max, flags, lim, diag, NULL, NULL);
}

static bt_status
nim_count_progress(mpz_t positions, mpz_t p_positions,
                   mpq_ptr probability, size_t k, const mpz_t min,
                   const mpz_t max, unsigned flags, const bt_limits *lim,
                   bt_diag *diag, bt_count_progress fn, void *ud)
{
    meter mt = {NULL, NULL, 0, 1, 0, 0};
    double w1, w2;

    mt.fn = fn;
    mt.ud = ud;
    int ordered = (flags & BT_COUNT_ORDERED) != 0;
    int misere = (flags & BT_MISERE) != 0;
    unsigned long kk;
    mpz_t n, pos, pp, t, u;
    bt_status st;
    double digits;

    lim = bt__limits(lim);
    if ((st = bt__check_count(k, min, max, lim, diag)) != BT_OK)
        return st;
    if (k > ULONG_MAX / 4) /* the exponents below are unsigned long */
        return bt__count_piles_fail(k, lim, diag);
    kk = (unsigned long)k;

    mpz_inits(n, pos, pp, t, u, NULL);
    mpz_sub(n, max, min);
    mpz_add_ui(n, n, 1);

    /* The positions number at most N^K, about K log10(N) digits: refuse a
       count that could not be written within the digit limit, before GMP
       allocates it. */
    {
        signed long ex;
        double mant = mpz_get_d_2exp(&ex, n); /* n = mant 2^ex */
        digits = (double)k * ((double)ex + log2(mant)) * 0.30102999566;
    }
    if (digits > (double)lim->max_digits) {
        st = bt__fail(diag, BT_ELIMIT,
                      "the count would have about %.0f digits, more than "
                      "the limit of %zu (max_digits)",
                      ceil(digits), lim->max_digits);
        goto out;
    }

    if (ordered) {
        mpz_pow_ui(pos, n, kk);
    } else if (kk > 0) {
        mpz_add_ui(t, n, kk - 1);
        mpz_bin_ui(pos, t, kk); /* C(N + K - 1, K) */
    } else {
        mpz_set_ui(pos, 1);
    }
    if (!ordered && kk >= 3 && mpz_cmp_ui(min, 1) == 0) {
        /*
         * Non-empty piles, as Bouton counts: a multiset of k piles in
         * [0, max] with j empty piles is one of k - j piles in [1, max],
         * so #P[1, max](k) = #P[0, max](k) - #P[0, max](k - 1).  On
         * [0, max] the spectrum has half the points (v and -v, one value)
         * and odd k - 1 cancels them all: half the work.
         */
        mpz_add_ui(u, n, 1); /* the size of [0, max] */
        mpz_set_ui(t, 0);
        /* the two counts share the progress by their planned work */
        (void)p_count(NULL, kk, t, max, u, 0, lim, diag, NULL, &w1);
        (void)p_count(NULL, kk - 1, t, max, u, 0, lim, diag, NULL, &w2);
        mt.span = w1 + w2 > 0 ? w1 / (w1 + w2) : 0.5;
        st = p_count(pp, kk, t, max, u, 0, lim, diag, &mt, NULL);
        mt.base = mt.span;
        mt.span = 1 - mt.span;
        if (st == BT_OK)
            st = p_count(t, kk - 1, t, max, u, 0, lim, diag, &mt, NULL);
        mpz_sub(pp, pp, t);
    } else {
        st = p_count(pp, kk, min, max, n, ordered, lim, diag, &mt, NULL);
    }
    if (st != BT_OK)
        goto out;
    if (fn != NULL && mt.done > 0)
        fn(ud, 1.0); /* the sums of estimates may round below 1 */

    if (misere) {
        if (kk == 0) { /* no piles: the player to move did not take the
                          last counter, so he wins */
            mpz_set_ui(pp, 0);
        } else {
            small_positions(t, u, kk, min, max, ordered);
            mpz_sub(pp, pp, t);
            mpz_add(pp, pp, u);
        }
    }
    mpz_swap(positions, pos);
    mpz_swap(p_positions, pp);
    if (probability != NULL) {
        mpq_set_num(probability, p_positions);
        mpq_set_den(probability, positions);
        mpq_canonicalize(probability);
    }
out:
    mpz_clears(n, pos, pp, t, u, NULL);
    return st;
}

bt_status
bt_nim_count_progress(mpz_t positions, mpz_t p_positions,
                      mpq_ptr probability, size_t k, const mpz_t min,
                      const mpz_t max, unsigned flags, const bt_limits *lim,
                      bt_diag *diag, bt_count_progress fn, void *ud)
{
    BT__GMP_CHARGED(lim, diag,
                    nim_count_progress(positions, p_positions, probability, k,
                                       min, max, flags, lim, diag, fn, ud));
}
