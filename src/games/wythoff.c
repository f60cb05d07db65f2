/*
 * wythoff.c -- Wythoff's game and its generalisation with difference a,
 * exact at any size, in normal and misère play.
 *
 * Rules (Wythoff 1907, sec. 1 and 7): two piles; a move takes any positive
 * number from one pile, or k > 0 from one pile and l > 0 from the other
 * with |k - l| < a.  a = 1 is Wythoff's game (the same number from both).
 *
 * Normal play.  The safe pairs are (A_n, B_n), B_n = A_n + a n, A_n the
 * least number not in an earlier pair (sec. 5; sec. 7 for a > 1): each
 * number lies in exactly one pair, and the differences 0, a, 2a, ... are
 * a apart, so a move on one pile (which keeps a number) or on both (which
 * changes the difference by less than a) never joins two safe pairs.  They
 * are the complementary Beatty sequences A_n = floor(n alpha),
 * B_n = floor(n beta), alpha = (2 - a + s) / 2, s = sqrt(a^2 + 4),
 * beta = alpha + a, 1/alpha + 1/beta = 1 (sec. 6; alpha = phi for a = 1,
 * sqrt 2 for a = 2).
 *
 * Misère play (docs/wythoff.md proves both forms).  For a = 1 only the
 * corner changes: (0, 1) and (2, 2) become safe instead of (0, 0) and
 * (1, 2).  For a >= 2 the safe pairs are (A_n, A_n + 1 + a n) from
 * (0, 1): the same mex construction with differences 1, 1 + a, 1 + 2a, ...
 * (Wythoff's "still more general combination", sec. 7), and
 * A_n = floor(n alpha + 1/alpha), B_n = floor(n beta + 1 + 1/alpha).
 *
 * Exactness.  Everything reduces to floor(m s) for integers m >= 0, by the
 * identity floor((k + t) / q) = floor((k + floor t) / q) for integers k and
 * q > 0: floor(m s) = isqrt(m^2 (a^2 + 4)).  For large m the square root
 * is taken once, as S = floor(s 2^P), cached in the game; then
 * m S / 2^P <= m s < (m S + m) / 2^P, which gives floor(m s) unless the
 * fraction lies within m / 2^P of an integer (P carries 64 guard bits, and
 * that case falls back on the exact isqrt).  A query on pairs of D digits
 * costs one square root at that precision (when not cached) and a few
 * products of D-digit numbers.  No floating point anywhere.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

/* The digits a may have. */
#define MAX_A_DIGITS 1000
/* Below this many bits floor(m s) is one isqrt, without the cache. */
#define DIRECT_BITS 4096
/* Guard bits of the cached square root. */
#define GUARD 64
/* Numbers longer than this are abbreviated in explanations. */
#define SHOW_DIGITS 40

/* Large numbers whose pair is remembered: an analysis asks for the pair
   of the same pile in grundy() and again in moves_to(). */
#define MEMO 4

typedef struct wy_memo {
    int used, misere;
    bt_wythoff_member member;
    mpz_t x, n, lo, hi;
} wy_memo;

/* Recent products m floor(s 2^prec): see fixed_product. */
#define PRODS 3

typedef struct wy_prod {
    int used;
    mp_bitcnt_t prec;
    mpz_t m, t;
} wy_prod;

typedef struct wy_state {
    mpz_t a;     /* the difference, >= 1 */
    int a1;      /* a == 1 */
    mpz_t q;     /* a^2 + 4, not a square for a >= 1 */
    mpz_t s_fix; /* floor(sqrt(q) 2^s_prec), when s_prec > 0 */
    mp_bitcnt_t s_prec;
    bt_wythoff_sg *sg; /* cached Grundy table (normal play) or NULL */
    wy_memo memo[MEMO];
    unsigned memo_next;
    wy_prod prod[PRODS];
    unsigned prod_next;
} wy_state;

static wy_state *
state_of(const bt_game *g)
{
    return g->state;
}

extern const bt__ruleset bt__ruleset_wythoff; /* defined at the end */

static int
is_wythoff(const bt_game *g)
{
    return g != NULL && g->rules == &bt__ruleset_wythoff;
}

/* ----------------------------------------------------- floor(m sqrt q) */

/*
 * Sets t = m floor(s 2^prec) and *prec for the m of a large query, with
 * prec >= bits(m) + 1 + GUARD.  Products are linear, so a recent product
 * is reused, and a difference of two recent ones gives (m1 - m2) S at no
 * cost: the move on both piles of a Wythoff pair (x, y) asks for
 * floor((y - x) s) right after floor(x s) and floor(y s).
 */
static void
fixed_product(wy_state *w, mpz_t t, mp_bitcnt_t *prec, const mpz_t m)
{
    mp_bitcnt_t need = mpz_sizeinbase(m, 2) + 1 + GUARD;
    unsigned i, j;
    wy_prod *e;
    for (i = 0; i < PRODS; i++) {
        e = &w->prod[i];
        if (e->used && e->prec >= need && mpz_cmp(e->m, m) == 0) {
            mpz_set(t, e->t);
            *prec = e->prec;
            return;
        }
    }
    for (i = 0; i < PRODS; i++)
        for (j = 0; j < PRODS; j++) {
            if (i == j || !w->prod[i].used || !w->prod[j].used ||
                w->prod[i].prec != w->prod[j].prec || w->prod[i].prec < need)
                continue;
            mpz_sub(t, w->prod[i].m, w->prod[j].m);
            if (mpz_cmp(t, m) == 0) {
                mpz_sub(t, w->prod[i].t, w->prod[j].t);
                *prec = w->prod[i].prec;
                return;
            }
        }
    if (w->s_prec < need) {
        /* a little more than needed, so that the other numbers of the
           same query share the precision */
        w->s_prec = need + need / 16;
        mpz_mul_2exp(w->s_fix, w->q, 2 * w->s_prec);
        mpz_sqrt(w->s_fix, w->s_fix);
    }
    /* all products of one query at the cached precision when it is not
       far above the need, so that their differences can be taken */
    *prec = w->s_prec <= need + need / 8 ? w->s_prec : need;
    mpz_tdiv_q_2exp(t, w->s_fix, w->s_prec - *prec); /* floor(s 2^prec) */
    mpz_mul(t, t, m);
    e = &w->prod[w->prod_next++ % PRODS];
    if (!e->used)
        mpz_inits(e->m, e->t, NULL);
    e->used = 1;
    e->prec = *prec;
    mpz_set(e->m, m);
    mpz_set(e->t, t);
}

/*
 * f0 = floor(m s) from t = m floor(s 2^prec): m s lies in
 * [t / 2^prec, (t + m) / 2^prec), so floor(m s) = t >> prec unless the
 * remainder r = t mod 2^prec has r + m > 2^prec; then (probability below
 * 2^-GUARD) the exact isqrt decides.
 */
static void
floor_from_fixed(wy_state *w, mpz_t f0, const mpz_t t, mp_bitcnt_t prec,
                 const mpz_t m)
{
    mpz_t r;
    mpz_init(r);
    mpz_tdiv_r_2exp(r, t, prec);
    mpz_add(r, r, m);
    if (mpz_sizeinbase(r, 2) <= prec) {
        mpz_tdiv_q_2exp(f0, t, prec);
    } else {
        mpz_mul(r, m, m);
        mpz_mul(r, r, w->q);
        mpz_sqrt(f0, r);
    }
    mpz_clear(r);
}

/*
 * f0 = floor(m s) and, when f1 is not NULL, f1 = floor((m + delta) s),
 * s = sqrt(a^2 + 4), m >= 0.  The two share one product when the cached
 * square root is used.  f0, f1 must not alias m.
 */
static void
floor_ms(wy_state *w, mpz_t f0, mpz_t f1, const mpz_t m, unsigned long delta)
{
    mp_bitcnt_t prec;
    mpz_t t, mm;

    if (mpz_sizeinbase(m, 2) + 1 <= DIRECT_BITS) {
        mpz_init(t);
        mpz_mul(t, m, m);
        mpz_mul(t, t, w->q);
        mpz_sqrt(f0, t);
        if (f1 != NULL) {
            mpz_add_ui(t, m, delta);
            mpz_mul(t, t, t);
            mpz_mul(t, t, w->q);
            mpz_sqrt(f1, t);
        }
        mpz_clear(t);
        return;
    }
    mpz_inits(t, mm, NULL);
    fixed_product(w, t, &prec, m);
    floor_from_fixed(w, f0, t, prec, m);
    if (f1 != NULL) {
        /* (m + delta) S = t + delta S */
        mpz_add_ui(mm, m, delta);
        if (mpz_sizeinbase(mm, 2) + 1 + GUARD > prec) {
            floor_ms(w, f1, NULL, mm, 0);
        } else {
            mpz_t sp;
            mpz_init(sp);
            mpz_tdiv_q_2exp(sp, w->s_fix, w->s_prec - prec);
            mpz_addmul_ui(t, sp, delta);
            floor_from_fixed(w, f1, t, prec, mm);
            mpz_clear(sp);
        }
    }
    mpz_clears(t, mm, NULL);
}

/* ------------------------------------------------------ the safe pairs */

/* Normal play: A_n = floor(n alpha) = floor(((2 - a) n + floor(n s)) / 2),
   B_n = A_n + a n. */
static void
pair_normal(wy_state *w, mpz_t lo, mpz_t hi, const mpz_t n)
{
    mpz_t f, t;
    mpz_inits(f, t, NULL);
    floor_ms(w, f, NULL, n, 0);
    mpz_ui_sub(t, 2, w->a);
    mpz_mul(t, t, n);
    mpz_add(t, t, f);
    mpz_fdiv_q_2exp(lo, t, 1);
    mpz_mul(t, w->a, n);
    mpz_add(hi, lo, t);
    mpz_clears(f, t, NULL);
}

/*
 * Misère play, a >= 2: with m = a n + 1,
 *   A_n = floor(n alpha + 1/alpha) = floor(((2 - a)(m - 2) + m s) / (2a)),
 * since 1/alpha = (a - 2 + s) / (2a) (alpha solves x^2 + (a-2)x - a = 0);
 * B_n = A_n + 1 + a n.
 */
static void
pair_misere_an(wy_state *w, mpz_t lo, mpz_t hi, const mpz_t n)
{
    mpz_t m, f, t;
    mpz_inits(m, f, t, NULL);
    mpz_mul(m, w->a, n);
    mpz_add_ui(m, m, 1);
    floor_ms(w, f, NULL, m, 0);
    mpz_ui_sub(t, 2, w->a);
    mpz_sub_ui(m, m, 2);
    mpz_mul(t, t, m);
    mpz_add(t, t, f);
    mpz_mul_2exp(m, w->a, 1);
    mpz_fdiv_q(lo, t, m);
    mpz_mul(t, w->a, n);
    mpz_add(hi, lo, t);
    mpz_add_ui(hi, hi, 1);
    mpz_clears(m, f, t, NULL);
}

/* The n-th safe pair; lo and hi may alias each other but not n. */
static void
pair_of(wy_state *w, int misere, mpz_t lo, mpz_t hi, const mpz_t n)
{
    if (!misere) {
        pair_normal(w, lo, hi, n);
    } else if (!w->a1) {
        pair_misere_an(w, lo, hi, n);
    } else if (mpz_cmp_ui(n, 0) == 0) { /* a = 1: the corner */
        mpz_set_ui(lo, 0);
        mpz_set_ui(hi, 1);
    } else if (mpz_cmp_ui(n, 1) == 0) {
        mpz_set_ui(lo, 2);
        mpz_set_ui(hi, 2);
    } else {
        pair_normal(w, lo, hi, n);
    }
}

/*
 * Which safe pair holds x: its index n, member, and the pair.  By counting
 * cnt(v), the number of lower members A_k below v, x is a lower member
 * exactly when cnt(x + 1) > cnt(x), and then x = A_n with n = cnt(x);
 * otherwise x is the upper member of the pair numbered by the count of
 * upper members below x.
 *
 * Normal play: A_k < v iff k alpha < v, so cnt(v) = floor(v / alpha) + 1
 * for v >= 1 (k = 0 included; v / alpha is irrational), with
 *   floor(v / alpha) = floor(((a - 2) v + floor(v s)) / (2a)).
 * Below x >= 1 there are x numbers, cnt(x) lower members and, as 0 is both
 * A_0 and B_0, x - cnt(x) + 1 upper members.
 *
 * Misère, a >= 2: A_k < v iff k < (v - 1/alpha) / alpha, so for v >= 1
 *   cnt(v) = floor((v a (a - 2) - (a^2 - 2a + 4) + m s) / (2 a^2)) + 1,
 *   m = a (v - 1) + 2,
 * from 1/alpha^2 = (a^2 - 2a + 4 + (a - 2) s) / (2 a^2); the quotient is
 * irrational for v >= 1.  Below x there are x - cnt(x) upper members.
 */
static void
index_of_compute(wy_state *w, int misere, mpz_t n, bt_wythoff_member *member,
                 mpz_t lo, mpz_t hi, const mpz_t x)
{
    mpz_t f0, f1, t, m, den;
    int lower;

    if (misere && w->a1 && mpz_cmp_ui(x, 2) <= 0) {
        /* the corner: (0, 1) is pair 0, (2, 2) pair 1 */
        unsigned long v = mpz_get_ui(x);
        mpz_set_ui(n, v == 2 ? 1 : 0);
        mpz_set_ui(lo, v == 2 ? 2 : 0);
        mpz_set_ui(hi, v == 2 ? 2 : 1);
        if (member != NULL)
            *member = v == 1 ? BT_WYTHOFF_UPPER : BT_WYTHOFF_LOWER;
        return;
    }
    if (mpz_sgn(x) == 0) {
        mpz_set_ui(n, 0);
        mpz_set_ui(lo, 0);
        mpz_set_ui(hi, misere ? 1 : 0);
        if (member != NULL)
            *member = BT_WYTHOFF_LOWER;
        return;
    }
    mpz_inits(f0, f1, t, m, den, NULL);
    if (!misere || w->a1) {
        /* f0 = floor(x / alpha), f1 = floor((x + 1) / alpha) */
        floor_ms(w, f0, f1, x, 1);
        mpz_mul_2exp(den, w->a, 1);
        mpz_sub_ui(t, w->a, 2);
        mpz_addmul(f0, t, x);
        mpz_fdiv_q(f0, f0, den);
        mpz_add_ui(m, x, 1);
        mpz_addmul(f1, t, m);
        mpz_fdiv_q(f1, f1, den);
        lower = mpz_cmp(f1, f0) > 0;
        if (lower) { /* n = cnt(x) = f0 + 1 */
            mpz_add_ui(n, f0, 1);
            mpz_set(lo, x);
            mpz_mul(t, w->a, n);
            mpz_add(hi, x, t);
        } else { /* n = x - cnt(x) + 1 = x - f0 */
            mpz_sub(n, x, f0);
            mpz_mul(t, w->a, n);
            mpz_sub(lo, x, t);
            mpz_set(hi, x);
        }
    } else {
        /* f0, f1: floor(m s) for v = x and v = x + 1 (m grows by a) */
        unsigned long a = mpz_get_ui(w->a);
        mpz_sub_ui(m, x, 1);
        mpz_mul(m, m, w->a);
        mpz_add_ui(m, m, 2);
        if (mpz_fits_ulong_p(w->a)) {
            floor_ms(w, f0, f1, m, a);
        } else {
            floor_ms(w, f0, NULL, m, 0);
            mpz_add(m, m, w->a);
            floor_ms(w, f1, NULL, m, 0);
        }
        /* c = a^2 - 2a + 4, k = a (a - 2), den = 2 a^2 */
        mpz_mul(den, w->a, w->a);
        mpz_sub(t, den, w->a);
        mpz_sub(t, t, w->a);
        mpz_add_ui(t, t, 4);
        mpz_sub(f0, f0, t);
        mpz_sub(f1, f1, t);
        mpz_sub_ui(t, w->a, 2);
        mpz_mul(t, t, w->a);
        mpz_addmul(f0, t, x);
        mpz_addmul(f1, t, x);
        mpz_add(f1, f1, t);
        mpz_mul_2exp(den, den, 1);
        mpz_fdiv_q(f0, f0, den); /* cnt(x) - 1 */
        mpz_fdiv_q(f1, f1, den); /* cnt(x + 1) - 1 */
        lower = mpz_cmp(f1, f0) > 0;
        if (lower) { /* n = cnt(x) */
            mpz_add_ui(n, f0, 1);
            mpz_set(lo, x);
            mpz_mul(t, w->a, n);
            mpz_add(hi, x, t);
            mpz_add_ui(hi, hi, 1);
        } else { /* n = x - cnt(x) */
            mpz_sub(n, x, f0);
            mpz_sub_ui(n, n, 1);
            mpz_mul(t, w->a, n);
            mpz_sub(lo, x, t);
            mpz_sub_ui(lo, lo, 1);
            mpz_set(hi, x);
        }
    }
    if (member != NULL)
        *member = lower ? BT_WYTHOFF_LOWER : BT_WYTHOFF_UPPER;
    mpz_clears(f0, f1, t, m, den, NULL);
}

/* index_of_compute, remembering the last few large numbers. */
static void
index_of(wy_state *w, int misere, mpz_t n, bt_wythoff_member *member, mpz_t lo,
         mpz_t hi, const mpz_t x)
{
    bt_wythoff_member mem;
    wy_memo *e;
    unsigned i;
    if (mpz_sizeinbase(x, 2) <= DIRECT_BITS) {
        index_of_compute(w, misere, n, member, lo, hi, x);
        return;
    }
    for (i = 0; i < MEMO; i++) {
        e = &w->memo[i];
        if (e->used && e->misere == misere && mpz_cmp(e->x, x) == 0) {
            mpz_set(n, e->n);
            mpz_set(lo, e->lo);
            mpz_set(hi, e->hi);
            if (member != NULL)
                *member = e->member;
            return;
        }
    }
    index_of_compute(w, misere, n, &mem, lo, hi, x);
    if (member != NULL)
        *member = mem;
    e = &w->memo[w->memo_next++ % MEMO];
    if (!e->used)
        mpz_inits(e->x, e->n, e->lo, e->hi, NULL);
    e->used = 1;
    e->misere = misere;
    e->member = mem;
    mpz_set(e->x, x);
    mpz_set(e->n, n);
    mpz_set(e->lo, lo);
    mpz_set(e->hi, hi);
}

/*
 * The indexes n of the safe pairs whose difference B_n - A_n lies in the
 * open interval (lo, hi): at most two, as the differences are a apart
 * (normal: a n; misère a >= 2: 1 + a n; misère a = 1: pair 1 has
 * difference 0, pair 0 difference 1, pair n >= 2 difference n).
 * Returns how many were written to out[0..1].
 */
static int
pairs_with_difference(wy_state *w, int misere, const mpz_t lo, const mpz_t hi,
                      mpz_t out[2])
{
    mpz_t n0, n1, t;
    int k = 0;
    mpz_inits(n0, n1, t, NULL);
    if (misere && w->a1) {
        /* one integer d = lo + 1 = hi - 1 in the interval */
        mpz_add_ui(t, lo, 1);
        if (mpz_sgn(t) >= 0 && mpz_cmp(t, hi) < 0) {
            if (mpz_cmp_ui(t, 1) <= 0)
                mpz_ui_sub(out[k++], 1, t); /* 0 -> pair 1, 1 -> pair 0 */
            else
                mpz_set(out[k++], t);
        }
    } else {
        /* difference c + a n with c = 0 (normal) or 1 (misère):
           n from floor((lo - c) / a) + 1 to ceil((hi - c) / a) - 1 */
        unsigned long c = misere ? 1 : 0;
        mpz_sub_ui(t, lo, c);
        mpz_fdiv_q(n0, t, w->a);
        mpz_add_ui(n0, n0, 1);
        if (mpz_sgn(n0) < 0)
            mpz_set_ui(n0, 0);
        mpz_sub_ui(t, hi, c);
        mpz_cdiv_q(n1, t, w->a);
        mpz_sub_ui(n1, n1, 1);
        for (; mpz_cmp(n0, n1) <= 0 && k < 2; mpz_add_ui(n0, n0, 1))
            mpz_set(out[k++], n0);
    }
    mpz_clears(n0, n1, t, NULL);
    return k;
}

/* The winning moves of (x, y): see bt_wythoff_winning.  Writes at most
   BT_WYTHOFF_MAX_WINNING pairs; returns how many. */
static size_t
winning(wy_state *w, int misere, mpz_t (*to)[2], const mpz_t x, const mpz_t y)
{
    mpz_t n, lo, hi, d, il, ih, cand[2];
    size_t count = 0;
    int sigma, i, k;

    mpz_inits(n, lo, hi, d, il, ih, cand[0], cand[1], NULL);
    /* misère (0, 0): the opponent took the last counter; no move */
    if (!(misere && mpz_sgn(x) == 0 && mpz_sgn(y) == 0)) {
        /* shorten pile 1 to the partner of y */
        index_of(w, misere, n, NULL, lo, hi, y);
        if (mpz_cmp(hi, y) == 0 ? mpz_cmp(lo, x) < 0 : 0) {
            mpz_set(to[count][0], lo);
            mpz_set(to[count++][1], y);
        } else if (mpz_cmp(lo, y) == 0 && mpz_cmp(hi, x) < 0) {
            mpz_set(to[count][0], hi);
            mpz_set(to[count++][1], y);
        }
        /* shorten pile 2 to the partner of x */
        index_of(w, misere, n, NULL, lo, hi, x);
        if (mpz_cmp(lo, x) == 0 && mpz_cmp(hi, y) < 0) {
            mpz_set(to[count][0], x);
            mpz_set(to[count++][1], hi);
        } else if (mpz_cmp(hi, x) == 0 && mpz_cmp(lo, y) < 0) {
            mpz_set(to[count][0], x);
            mpz_set(to[count++][1], lo);
        }
        /*
         * Both piles: taking k and l turns the signed difference
         * D = y - x into D - (l - k), |l - k| < a.  The target is a safe
         * pair (p, q) with q - p = sigma * delta, delta its difference,
         * |D - sigma delta| < a, p < x and q < y.
         */
        mpz_sub(d, y, x);
        for (sigma = 1; sigma >= -1; sigma -= 2) {
            /* delta in (sigma D - a, sigma D + a) */
            if (sigma > 0)
                mpz_set(il, d);
            else
                mpz_neg(il, d);
            mpz_add(ih, il, w->a);
            mpz_sub(il, il, w->a);
            k = pairs_with_difference(w, misere, il, ih, cand);
            for (i = 0; i < k; i++) {
                pair_of(w, misere, lo, hi, cand[i]);
                if (sigma < 0 && mpz_cmp(lo, hi) == 0)
                    continue; /* the same target as sigma = +1 */
                if (sigma < 0)
                    mpz_swap(lo, hi);
                if (mpz_cmp(lo, x) < 0 && mpz_cmp(hi, y) < 0) {
                    mpz_set(to[count][0], lo);
                    mpz_set(to[count++][1], hi);
                }
            }
        }
    }
    mpz_clears(n, lo, hi, d, il, ih, cand[0], cand[1], NULL);
    return count;
}

/* Non-zero when the pair (x, y), in either order, is safe. */
static int
is_p(wy_state *w, int misere, const mpz_t x, const mpz_t y)
{
    mpz_srcptr u = mpz_cmp(x, y) <= 0 ? x : y;
    mpz_srcptr v = mpz_cmp(x, y) <= 0 ? y : x;
    mpz_t n, lo, hi;
    int r;
    mpz_inits(n, lo, hi, NULL);
    index_of(w, misere, n, NULL, lo, hi, u);
    r = mpz_cmp(lo, u) == 0 && mpz_cmp(hi, v) == 0;
    mpz_clears(n, lo, hi, NULL);
    return r;
}

/* --------------------------------------------------- the public calls */

static bt_status
check_game(const bt_game *g, bt_diag *diag)
{
    if (!is_wythoff(g))
        return bt__fail(diag, BT_EINVAL, "%s is not a Wythoff game",
                        g != NULL ? g->spec : "(null)");
    return BT_OK;
}

/* check_game, and the numbers of a pair (x, y). */
static bt_status
check_pair(const bt_game *g, const mpz_t x, const mpz_t y,
           const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    if ((st = check_game(g, diag)) != BT_OK ||
        (st = bt__check_number(x, lim, "pile 1", diag)) != BT_OK ||
        (st = bt__check_number(y, lim, "pile 2", diag)) != BT_OK)
        return st;
    return BT_OK;
}

bt_status
bt_wythoff_difference(mpz_t a, const bt_game *g)
{
    if (!is_wythoff(g))
        return BT_EINVAL;
    mpz_set(a, state_of(g)->a);
    return BT_OK;
}

static bt_status
wythoff_pair_closed(mpz_t lo, mpz_t hi, bt_game *g, int misere, const mpz_t n,
                    const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    if ((st = check_game(g, diag)) != BT_OK ||
        (st = bt__check_number(n, lim, "the index n", diag)) != BT_OK)
        return st;
    pair_of(state_of(g), misere, lo, hi, n);
    return BT_OK;
}

bt_status
bt_wythoff_pair(mpz_t lo, mpz_t hi, bt_game *g, int misere, const mpz_t n,
                const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED_CLOSED(lim, diag,
                           wythoff_pair_closed(lo, hi, g, misere, n, lim,
                                               diag));
}

static bt_status
wythoff_index_of_closed(mpz_t n, bt_wythoff_member *member, mpz_t lo, mpz_t hi,
                        bt_game *g, int misere, const mpz_t x, const bt_limits *lim,
                        bt_diag *diag)
{
    bt_status st;
    if ((st = check_game(g, diag)) != BT_OK ||
        (st = bt__check_number(x, lim, "the number", diag)) != BT_OK)
        return st;
    index_of(state_of(g), misere, n, member, lo, hi, x);
    return BT_OK;
}

bt_status
bt_wythoff_index_of(mpz_t n, bt_wythoff_member *member, mpz_t lo, mpz_t hi,
                    bt_game *g, int misere, const mpz_t x, const bt_limits *lim,
                    bt_diag *diag)
{
    BT__GMP_CHARGED_CLOSED(lim, diag,
                           wythoff_index_of_closed(n, member, lo, hi, g, misere,
                                                   x, lim, diag));
}

static bt_status
wythoff_is_p_closed(int *result, bt_game *g, int misere, const mpz_t x,
                    const mpz_t y, const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    *result = 0;
    if ((st = check_pair(g, x, y, lim, diag)) != BT_OK)
        return st;
    *result = is_p(state_of(g), misere, x, y);
    return BT_OK;
}

bt_status
bt_wythoff_is_p(int *result, bt_game *g, int misere, const mpz_t x,
                const mpz_t y, const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED_CLOSED(lim, diag,
                           wythoff_is_p_closed(result, g, misere, x, y, lim,
                                               diag));
}

static bt_status
wythoff_winning_closed(mpz_t (*to)[2], size_t *count, bt_game *g, int misere,
                       const mpz_t x, const mpz_t y, const bt_limits *lim,
                       bt_diag *diag)
{
    bt_status st;
    *count = 0;
    if ((st = check_pair(g, x, y, lim, diag)) != BT_OK)
        return st;
    *count = winning(state_of(g), misere, to, x, y);
    return BT_OK;
}

bt_status
bt_wythoff_winning(mpz_t (*to)[2], size_t *count, bt_game *g, int misere,
                   const mpz_t x, const mpz_t y, const bt_limits *lim,
                   bt_diag *diag)
{
    BT__GMP_CHARGED_CLOSED(lim, diag,
                           wythoff_winning_closed(to, count, g, misere, x, y,
                                                  lim, diag));
}

/* ---------------------------------------------------- Grundy values */

/* floor(sqrt(v)). */
static size_t
isqrt_size(size_t v)
{
    size_t r = 0, bit = (size_t)1 << (sizeof(size_t) * 8 - 2);
    while (bit > v)
        bit >>= 2;
    while (bit != 0) { /* the digit-by-digit method, base 4 */
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r;
}

/*
 * The largest side T of the cached table: T * min(a, T) <= cap with
 * cap = floor(sqrt(max_grundy)) / 2.  T * min(a, T) grows with T, so
 * T = cap / a when a^2 <= cap (then T >= a), else T = floor(sqrt(cap)).
 */
static size_t
sg_side_limit(wy_state *w, const bt_limits *lim)
{
    size_t cap = isqrt_size(lim->max_grundy) / 2;
    if (mpz_cmp_ui(w->a, (unsigned long)isqrt_size(cap)) <= 0)
        return cap / (size_t)mpz_get_ui(w->a);
    return isqrt_size(cap);
}

/* Makes sure g caches a table of side above max(x, y) < limit. */
static bt_status
sg_reach(bt_game *g, size_t need, const bt_limits *lim, bt_diag *diag)
{
    wy_state *w = state_of(g);
    size_t side = 64, limit = sg_side_limit(w, lim);
    bt_wythoff_sg *t;
    bt_status st;
    if (w->sg != NULL && bt_wythoff_sg_below(w->sg) > need)
        return BT_OK;
    while (side <= need)
        side *= 2;
    if (side > limit)
        side = limit;
    st = bt_wythoff_sg_new(&t, g, side, lim, diag);
    if (st != BT_OK)
        return st;
    bt_wythoff_sg_free(w->sg);
    w->sg = t;
    return BT_OK;
}

/* Non-zero when (x, y) lies inside the largest table allowed; sets *need
   to max(x, y). */
static int
sg_within(wy_state *w, const mpz_t *c, const bt_limits *lim, size_t *need)
{
    size_t limit = sg_side_limit(w, lim);
    mpz_srcptr m = mpz_cmp(c[0], c[1]) >= 0 ? c[0] : c[1];
    if (mpz_cmp_ui(m, (unsigned long)limit) >= 0)
        return 0;
    *need = (size_t)mpz_get_ui(m);
    return 1;
}

static bt_status
out_of_table(wy_state *w, const mpz_t *c, const bt_limits *lim, bt_diag *diag,
             const char *what)
{
    bt__buf b;
    bt_status st;
    bt__buf_init(&b);
    bt__buf_puts(&b, "(");
    if (mpz_sizeinbase(c[0], 10) <= SHOW_DIGITS)
        bt__buf_mpz(&b, c[0]);
    else
        bt__buf_puts(&b, "...");
    bt__buf_puts(&b, ", ");
    if (mpz_sizeinbase(c[1], 10) <= SHOW_DIGITS)
        bt__buf_mpz(&b, c[1]);
    else
        bt__buf_puts(&b, "...");
    bt__buf_puts(&b, ")");
    st = bt__fail(diag, BT_ERANGE,
                  "the Grundy %s of the Wythoff pair %s %s beyond the "
                  "table of side %zu (raise max_grundy)",
                  what, b.data ? b.data : "",
                  strcmp(what, "value") == 0 ? "is" : "are",
                  sg_side_limit(w, lim));
    bt__buf_free(&b);
    return st;
}

static bt_status
grundy_of(bt_game *g, mpz_t rop, const mpz_t *c, const bt_limits *lim,
          bt_diag *diag)
{
    wy_state *w = state_of(g);
    size_t need;
    bt_status st;
    lim = bt__limits(lim);
    if (sg_within(w, c, lim, &need)) {
        if ((st = sg_reach(g, need, lim, diag)) != BT_OK)
            return st;
        mpz_set_ui(
            rop, bt_wythoff_sg_get(w->sg, mpz_get_ui(c[0]), mpz_get_ui(c[1])));
        return BT_OK;
    }
    if (is_p(w, 0, c[0], c[1])) {
        mpz_set_ui(rop, 0);
        return BT_OK;
    }
    return out_of_table(w, c, lim, diag, "value");
}

static bt_status
wythoff_grundy(mpz_t rop, bt_game *g, const mpz_t x, const mpz_t y,
               const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    mpz_t c[2];
    if ((st = check_pair(g, x, y, lim, diag)) != BT_OK)
        return st;
    /* c[] borrows x and y: the struct copies share their limbs */
    c[0][0] = x[0];
    c[1][0] = y[0];
    return grundy_of(g, rop, (const mpz_t *)c, lim, diag);
}

bt_status
bt_wythoff_grundy(mpz_t rop, bt_game *g, const mpz_t x, const mpz_t y,
                  const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, wythoff_grundy(rop, g, x, y, lim, diag));
}

/* ------------------------------------------------------------ the rules */

static bt_status
wy_init(bt_game *g, const char *name, const char *params, bt_diag *diag)
{
    wy_state *w;
    size_t i, len;
    (void)name;
    if (params != NULL) {
        len = strlen(params);
        if (len == 0)
            return bt__fail_at(diag, BT_EPARSE, 0,
                               "the difference A after 'wythoff:' is "
                               "missing (A a positive integer)");
        for (i = 0; i < len; i++)
            if (params[i] < '0' || params[i] > '9')
                return bt__fail_at(diag, BT_EPARSE, i,
                                   "the difference A of wythoff:A must be a "
                                   "positive integer, not '%.40s'",
                                   params);
        while (len > 1 && params[0] == '0') {
            params++;
            len--;
        }
        if (len > MAX_A_DIGITS)
            return bt__fail(diag, BT_ELIMIT,
                            "the difference A of wythoff:A has %zu digits, "
                            "more than %d",
                            len, MAX_A_DIGITS);
        if (strcmp(params, "0") == 0)
            return bt__fail_at(diag, BT_EPARSE, 0,
                               "the difference A of wythoff:A must be at "
                               "least 1 (wythoff:1 is Wythoff's game)");
    }
    w = calloc(1, sizeof *w);
    if (w == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    mpz_init_set_ui(w->a, 1);
    if (params != NULL)
        mpz_set_str(w->a, params, 10);
    w->a1 = mpz_cmp_ui(w->a, 1) == 0;
    mpz_init(w->q);
    mpz_mul(w->q, w->a, w->a);
    mpz_add_ui(w->q, w->q, 4);
    mpz_init(w->s_fix);
    g->state = w;
    if (w->a1)
        return bt__game_set_spec(g, "wythoff");
    return bt__game_set_spec(g, "wythoff:%s", params);
}

static void
wy_fini(bt_game *g)
{
    wy_state *w = state_of(g);
    unsigned i;
    if (w == NULL)
        return;
    for (i = 0; i < MEMO; i++)
        if (w->memo[i].used)
            mpz_clears(w->memo[i].x, w->memo[i].n, w->memo[i].lo, w->memo[i].hi,
                       NULL);
    for (i = 0; i < PRODS; i++)
        if (w->prod[i].used)
            mpz_clears(w->prod[i].m, w->prod[i].t, NULL);
    mpz_clears(w->a, w->q, w->s_fix, NULL);
    bt_wythoff_sg_free(w->sg);
    free(w);
    g->state = NULL;
}

static bt_status
wy_grundy(bt_game *g, mpz_t rop, const mpz_t *c, const bt_limits *lim,
          bt_diag *diag)
{
    return grundy_of(g, rop, c, lim, diag);
}

/*
 * The options of (x, y) in a fixed order: take k = 1..x from pile 1, then
 * l = 1..y from pile 2, then for k = 1..x every l with |k - l| < a.
 * Calls visit() for each; with a table, only those of value `want`.
 */
typedef struct opt_walk {
    bt__emit emit;
    void *ud;
    const bt_wythoff_sg *sg; /* NULL: every option */
    unsigned long want;
} opt_walk;

static bt_status
walk_emit(opt_walk *o, mpz_t *to, unsigned long x, unsigned long y)
{
    if (o->sg != NULL && bt_wythoff_sg_get(o->sg, x, y) != o->want)
        return BT_OK;
    mpz_set_ui(to[0], x);
    mpz_set_ui(to[1], y);
    return o->emit(o->ud, (const mpz_t *)to, 2);
}

/* The number of options of (x, y), x and y small. */
static size_t
count_options(wy_state *w, size_t x, size_t y)
{
    size_t k, a, n = x + y;
    a = mpz_cmp_ui(w->a, (unsigned long)(x + y + 1)) > 0
            ? x + y + 1
            : (size_t)mpz_get_ui(w->a);
    for (k = 1; k <= x; k++) {
        size_t l0 = k + 1 > a ? k + 1 - a : 1;
        size_t l1 = k + a - 1 < y ? k + a - 1 : y;
        if (l1 >= l0)
            n += l1 - l0 + 1;
    }
    return n;
}

static bt_status
walk(wy_state *w, opt_walk *o, unsigned long x, unsigned long y)
{
    unsigned long k, l, a;
    bt_status st = BT_OK;
    mpz_t to[2];
    a = mpz_cmp_ui(w->a, x + y + 1) > 0 ? x + y + 1 : mpz_get_ui(w->a);
    mpz_init(to[0]);
    mpz_init(to[1]);
    for (k = 1; k <= x && st == BT_OK; k++)
        st = walk_emit(o, to, x - k, y);
    for (l = 1; l <= y && st == BT_OK; l++)
        st = walk_emit(o, to, x, y - l);
    for (k = 1; k <= x && st == BT_OK; k++) {
        unsigned long l0 = k + 1 > a ? k + 1 - a : 1;
        unsigned long l1 = k + a - 1 < y ? k + a - 1 : y;
        for (l = l0; l <= l1 && st == BT_OK; l++)
            st = walk_emit(o, to, x - k, y - l);
    }
    mpz_clear(to[0]);
    mpz_clear(to[1]);
    return st;
}

static bt_status
wy_options(bt_game *g, const mpz_t *c, bt__emit emit, void *ud,
           const bt_limits *lim, bt_diag *diag)
{
    wy_state *w = state_of(g);
    opt_walk o;
    lim = bt__limits(lim);
    if (mpz_cmp_ui(c[0], (unsigned long)lim->max_search) > 0 ||
        mpz_cmp_ui(c[1], (unsigned long)lim->max_search) > 0 ||
        count_options(w, mpz_get_ui(c[0]), mpz_get_ui(c[1])) > lim->max_search)
        return bt__fail(diag, BT_ELIMIT,
                        "a Wythoff pair has more than %zu moves to list "
                        "(the max_search limit)",
                        lim->max_search);
    o.emit = emit;
    o.ud = ud;
    o.sg = NULL;
    o.want = 0;
    return walk(w, &o, mpz_get_ui(c[0]), mpz_get_ui(c[1]));
}

static bt_status
emit_winning(wy_state *w, int misere, const mpz_t *c,
             bt_status (*emit)(void *ud, size_t comp, const mpz_t *to,
                               size_t nto),
             bt__emit emit1, void *ud, size_t comp)
{
    mpz_t to[BT_WYTHOFF_MAX_WINNING][2];
    size_t i, n;
    bt_status st = BT_OK;
    for (i = 0; i < BT_WYTHOFF_MAX_WINNING; i++)
        mpz_inits(to[i][0], to[i][1], NULL);
    n = winning(w, misere, to, c[0], c[1]);
    for (i = 0; i < n && st == BT_OK; i++)
        st = emit ? emit(ud, comp, (const mpz_t *)to[i], 2)
                  : emit1(ud, (const mpz_t *)to[i], 2);
    for (i = 0; i < BT_WYTHOFF_MAX_WINNING; i++)
        mpz_clears(to[i][0], to[i][1], NULL);
    return st;
}

static bt_status
wy_moves_to(bt_game *g, const mpz_t *c, const mpz_t target, bt__emit emit,
            void *ud, const bt_limits *lim, bt_diag *diag)
{
    wy_state *w = state_of(g);
    size_t need;
    opt_walk o;
    bt_status st;
    lim = bt__limits(lim);
    if (mpz_sgn(target) == 0) /* the safe pairs: any size */
        return emit_winning(w, 0, c, NULL, emit, ud, 0);
    if (!sg_within(w, c, lim, &need))
        return out_of_table(w, c, lim, diag, "values of the options");
    if (!mpz_fits_ulong_p(target) || mpz_cmp_ui(target, UINT_MAX) >= 0)
        return BT_OK; /* above every value in the table */
    if ((st = sg_reach(g, need, lim, diag)) != BT_OK)
        return st;
    o.emit = emit;
    o.ud = ud;
    o.sg = w->sg;
    o.want = mpz_get_ui(target);
    return walk(w, &o, mpz_get_ui(c[0]), mpz_get_ui(c[1]));
}

/* Misère play of one pair (other components (0, 0) add nothing): the
   closed forms.  Two or more live pairs: BT_EUNDEF (search). */
static bt_status
wy_misere(bt_game *g, const bt_position *p, bt_outcome *outcome,
          bt_status (*move)(void *ud, size_t comp, const mpz_t *to, size_t nto),
          void *ud, const bt_limits *lim, bt_diag *diag)
{
    size_t i, live = 0, which = 0, n = bt_position_size(p);
    const mpz_t *c;
    (void)lim;
    (void)diag;
    for (i = 0; i < n; i++) {
        const bt_game *gi = bt_position_game(p, i);
        if (gi->rules != g->rules || strcmp(gi->spec, g->spec) != 0)
            return BT_EUNDEF;
        c = bt_position_nums(p, i);
        if (mpz_sgn(c[0]) != 0 || mpz_sgn(c[1]) != 0) {
            live++;
            which = i;
        }
    }
    if (live > 1)
        return BT_EUNDEF;
    if (live == 0) { /* no move: the opponent took the last counter */
        *outcome = BT_N;
        return BT_OK;
    }
    c = bt_position_nums(p, which);
    *outcome = is_p(state_of(g), 1, c[0], c[1]) ? BT_P : BT_N;
    if (*outcome == BT_P)
        return BT_OK;
    return emit_winning(state_of(g), 1, c, move, NULL, ud, which);
}

static void
wy_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
            const mpz_t *to, size_t nto)
{
    mpz_t k, l;
    (void)g;
    if (nto != 2) {
        bt__buf_puts(out, "(not a move of a Wythoff pair)");
        return;
    }
    mpz_init(k);
    mpz_init(l);
    mpz_sub(k, c[0], to[0]);
    mpz_sub(l, c[1], to[1]);
    bt__buf_puts(out, "take ");
    if (mpz_sgn(l) == 0) {
        bt__buf_mpz(out, k);
        bt__buf_puts(out, " from pile 1");
    } else if (mpz_sgn(k) == 0) {
        bt__buf_mpz(out, l);
        bt__buf_puts(out, " from pile 2");
    } else if (mpz_cmp(k, l) == 0) {
        bt__buf_mpz(out, k);
        bt__buf_puts(out, " from both piles");
    } else {
        bt__buf_mpz(out, k);
        bt__buf_puts(out, " from pile 1 and ");
        bt__buf_mpz(out, l);
        bt__buf_puts(out, " from pile 2");
    }
    if (comp > 0)
        bt__buf_printf(out, " of pair %zu", comp + 1);
    mpz_clear(k);
    mpz_clear(l);
}

static bt_status
wy_p_position(bt_game *g, int misere, const mpz_t n, mpz_t *row)
{
    pair_of(state_of(g), misere, row[0], row[1], n);
    return BT_OK;
}

/* ------------------------------------------------------- explanations */

/* Appends x, abbreviated when long. */
static void
put_num(bt__buf *b, const mpz_t x)
{
    size_t d = mpz_sizeinbase(x, 10);
    char *s, *full;
    if (d <= SHOW_DIGITS) {
        bt__buf_mpz(b, x);
        return;
    }
    full = mpz_get_str(NULL, 10, x);
    if (full == NULL) {
        b->failed = 1;
        return;
    }
    s = full + (full[0] == '-');
    d = strlen(s);
    bt__buf_printf(b, "%.12s...%s (%zu digits)", s, s + d - 12, d);
    free(full);
}

/* Appends v / 10^k with k <= 18 decimals (v >= 0). */
static void
put_fixed(bt__buf *b, const mpz_t v, unsigned k)
{
    mpz_t ip, fp, p;
    char fmt[16];
    mpz_inits(ip, fp, p, NULL);
    mpz_ui_pow_ui(p, 10, k);
    mpz_fdiv_qr(ip, fp, v, p);
    put_num(b, ip);
    snprintf(fmt, sizeof fmt, ".%%0%ulu", k);
    bt__buf_printf(b, fmt, mpz_get_ui(fp)); /* k <= 18 */
    mpz_clears(ip, fp, p, NULL);
}

/* floor(10^k alpha) (misère a >= 2 also needs 1/alpha: floor(10^k/alpha)
   when inverse is set). */
static void
alpha_fixed(wy_state *w, mpz_t rop, unsigned k, int inverse)
{
    mpz_t m, f, t;
    mpz_inits(m, f, t, NULL);
    mpz_ui_pow_ui(m, 10, k);
    floor_ms(w, f, NULL, m, 0); /* floor(10^k s) */
    if (!inverse) {             /* alpha = (2 - a + s) / 2 */
        mpz_ui_sub(t, 2, w->a);
        mpz_mul(t, t, m);
        mpz_add(t, t, f);
        mpz_fdiv_q_2exp(rop, t, 1);
    } else { /* 1/alpha = (a - 2 + s) / (2a) */
        mpz_sub_ui(t, w->a, 2);
        mpz_mul(t, t, m);
        mpz_add(t, t, f);
        mpz_mul_2exp(m, w->a, 1);
        mpz_fdiv_q(rop, t, m);
    }
    mpz_clears(m, f, t, NULL);
}

static void
explain_rules(wy_state *w, bt__buf *b, int misere)
{
    mpz_t al;
    mpz_init(al);
    if (w->a1) {
        bt__buf_puts(b, "Wythoff's game: a move takes any number of "
                        "counters from one pile, or the same number from "
                        "both.\n");
    } else {
        bt__buf_puts(b, "Wythoff's game with difference a = ");
        put_num(b, w->a);
        bt__buf_puts(b, " (Wythoff 1907, sec. 7): a move takes any number "
                        "from one pile, or k from one pile and l from the "
                        "other with |k - l| < a.\n");
    }
    alpha_fixed(w, al, 10, 0);
    if (!misere || w->a1) {
        bt__buf_puts(b, "The safe pairs (P-positions) are (A_n, B_n) with "
                        "B_n = A_n + ");
        if (!w->a1) {
            put_num(b, w->a);
            bt__buf_putc(b, ' ');
        }
        bt__buf_puts(b, "n and A_n = floor(n * alpha), alpha = ");
        bt__buf_puts(b, w->a1 ? "(1 + sqrt 5)/2" : "(2 - a + sqrt(a^2 + 4))/2");
        bt__buf_puts(b, " = ");
        put_fixed(b, al, 10);
        bt__buf_puts(b, "...: each number lies in exactly one pair and the "
                        "differences B_n - A_n are ");
        bt__buf_puts(b, w->a1 ? "0, 1, 2, ..." : "0, a, 2a, ...");
        bt__buf_puts(b, " (Wythoff 1907, sec. 5-7).\n");
        if (misere)
            bt__buf_puts(b, "Misère play (taking the last counter loses) "
                            "changes only the corner: (0, 1) and (2, 2) are "
                            "safe instead of (0, 0) and (1, 2).\n");
    } else {
        mpz_t ia;
        mpz_init(ia);
        alpha_fixed(w, ia, 10, 1);
        bt__buf_puts(b, "Misère play (taking the last counter loses): the "
                        "safe pairs are (0, 1) and then (A_n, A_n + 1 + a n), "
                        "the differences 1, 1 + a, 1 + 2a, ..., with "
                        "A_n = floor(n * alpha + 1/alpha), alpha = "
                        "(2 - a + sqrt(a^2 + 4))/2 = ");
        put_fixed(b, al, 10);
        bt__buf_puts(b, "..., 1/alpha = ");
        put_fixed(b, ia, 10);
        bt__buf_puts(b, "...\n");
        mpz_clear(ia);
    }
    mpz_clear(al);
}

/* "v is the lower member A_n of pair n = (lo, hi)" with the computation. */
static void
explain_number(wy_state *w, bt__buf *b, int misere, const mpz_t v)
{
    mpz_t n, lo, hi, t;
    bt_wythoff_member mem;
    mpz_inits(n, lo, hi, t, NULL);
    index_of(w, misere, n, &mem, lo, hi, v);
    bt__buf_puts(b, "  ");
    put_num(b, v);
    bt__buf_puts(b, mem == BT_WYTHOFF_LOWER ? " is the smaller member A_"
                                            : " is the larger member B_");
    put_num(b, n);
    bt__buf_puts(b, " of safe pair ");
    put_num(b, n);
    bt__buf_puts(b, " = (");
    put_num(b, lo);
    bt__buf_puts(b, ", ");
    put_num(b, hi);
    bt__buf_puts(b, ")");
    if ((!misere || !w->a1 || mpz_cmp_ui(n, 2) >= 0) &&
        mpz_sizeinbase(n, 10) <= SHOW_DIGITS && mpz_sgn(n) > 0) {
        /* show n * alpha (+ 1/alpha) to three decimals */
        mpz_t m, f;
        mpz_inits(m, f, NULL);
        mpz_mul_ui(m, n, 1000);
        if (!misere || w->a1) {
            floor_ms(w, f, NULL, m, 0);
            mpz_ui_sub(t, 2, w->a);
            mpz_mul(t, t, m);
            mpz_add(t, t, f);
            mpz_fdiv_q_2exp(t, t, 1);
            bt__buf_puts(b, ": n * alpha = ");
        } else {
            /* 1000 (n alpha + 1/alpha) = ((2-a)(M - 2000) + M s)/(2a),
               M = 1000 (a n + 1) */
            mpz_mul(m, w->a, n);
            mpz_add_ui(m, m, 1);
            mpz_mul_ui(m, m, 1000);
            floor_ms(w, f, NULL, m, 0);
            mpz_sub_ui(m, m, 2000);
            mpz_ui_sub(t, 2, w->a);
            mpz_mul(t, t, m);
            mpz_add(t, t, f);
            mpz_mul_2exp(m, w->a, 1);
            mpz_fdiv_q(t, t, m);
            bt__buf_puts(b, ": n * alpha + 1/alpha = ");
        }
        put_fixed(b, t, 3);
        bt__buf_puts(b, "..., whose floor is A_n");
        mpz_clears(m, f, NULL);
    }
    bt__buf_puts(b, ".\n");
    mpz_clears(n, lo, hi, t, NULL);
}

/* Why the move to (p, q) from (x, y) wins. */
static void
explain_move(wy_state *w, bt__buf *b, int misere, const mpz_t *c,
             const bt_move *m)
{
    mpz_t n, lo, hi, d;
    mpz_srcptr u = mpz_cmp(m->to[0], m->to[1]) <= 0 ? m->to[0] : m->to[1];
    mpz_inits(n, lo, hi, d, NULL);
    index_of(w, misere, n, NULL, lo, hi, u);
    bt__buf_printf(b, "  - %s: leaves (", m->text ? m->text : "");
    put_num(b, m->to[0]);
    bt__buf_puts(b, ", ");
    put_num(b, m->to[1]);
    bt__buf_puts(b, "), safe pair ");
    put_num(b, n);
    if (mpz_cmp(m->to[0], c[0]) == 0) {
        bt__buf_puts(b, ": pile 1 keeps ");
        put_num(b, c[0]);
        bt__buf_puts(b, " and pile 2 drops to its partner.\n");
    } else if (mpz_cmp(m->to[1], c[1]) == 0) {
        bt__buf_puts(b, ": pile 2 keeps ");
        put_num(b, c[1]);
        bt__buf_puts(b, " and pile 1 drops to its partner.\n");
    } else {
        mpz_sub(d, hi, lo);
        bt__buf_puts(b, ": a move on both piles");
        if (w->a1)
            bt__buf_puts(b, " keeps the difference ");
        else
            bt__buf_puts(b, " changes the difference by less than a, to ");
        put_num(b, d);
        bt__buf_puts(b, ", the difference of that pair.\n");
    }
    mpz_clears(n, lo, hi, d, NULL);
}

static void
wy_explain(bt_game *g, bt__buf *out, const bt_position *p,
           const bt__verdict *found)
{
    wy_state *w = state_of(g);
    int misere = found->misere;
    size_t n = bt_position_size(p), i, nm = found->nmoves;

    explain_rules(w, out, misere);
    bt__buf_putc(out, '\n');
    if (n == 1) {
        const mpz_t *c = bt_position_nums(p, 0);
        bt__buf_puts(out, "The position (");
        put_num(out, c[0]);
        bt__buf_puts(out, ", ");
        put_num(out, c[1]);
        bt__buf_puts(out, "):\n");
        explain_number(w, out, misere, c[0]);
        if (mpz_cmp(c[0], c[1]) != 0)
            explain_number(w, out, misere, c[1]);
        if (misere && mpz_sgn(c[0]) == 0 && mpz_sgn(c[1]) == 0) {
            bt__buf_puts(out, "\nNo counter is left: the opponent took the "
                              "last one and lost.  The player to move has "
                              "won.\n");
        } else if (mpz_sgn(c[0]) == 0 && mpz_sgn(c[1]) == 0) {
            bt__buf_puts(out, "\nNo counter is left: the previous player "
                              "took the last one and won.  A P-position.\n");
        } else if (found->outcome == BT_P) {
            bt__buf_puts(out, "\nSo the position is a safe pair: a "
                              "P-position.  No move reaches another safe "
                              "pair, since two safe pairs share no number "
                              "(a move on one pile keeps a number) and their "
                              "differences are at least a = ");
            put_num(out, w->a);
            bt__buf_puts(out, " apart (a move on both piles changes the "
                              "difference by less than a) (sec. 4).  The "
                              "previous player wins.\n");
        } else {
            bt__buf_printf(out,
                           "\nSo the position is not a safe pair: an "
                           "N-position.  The winning moves (%zu) "
                           "leave a safe pair:\n",
                           nm);
            for (i = 0; i < nm; i++)
                explain_move(w, out, misere, c, &found->moves[i]);
        }
        if (!misere && found->comp_grundy != NULL) {
            bt__buf_puts(out, "Its Grundy value (for sums) is ");
            put_num(out, found->comp_grundy[0]);
            bt__buf_puts(out, ".\n");
        }
        return;
    }
    /* a sum of pairs */
    for (i = 0; i < n; i++) {
        const mpz_t *c = bt_position_nums(p, i);
        int safe = is_p(w, misere, c[0], c[1]);
        bt__buf_printf(out, "  %zu. (", i + 1);
        put_num(out, c[0]);
        bt__buf_puts(out, ", ");
        put_num(out, c[1]);
        bt__buf_puts(out, safe ? "): a safe pair" : "): not a safe pair");
        if (!misere && found->comp_grundy != NULL) {
            bt__buf_puts(out, ", Grundy value ");
            put_num(out, found->comp_grundy[i]);
        }
        bt__buf_puts(out, "\n");
    }
    if (!misere && found->grundy != NULL) {
        bt__buf_puts(out, "The nim-sum of the Grundy values is ");
        put_num(out, found->grundy);
        bt__buf_puts(out, mpz_sgn(found->grundy)
                              ? ": not 0, an N-position (Sprague-Grundy).\n"
                              : ": 0, a P-position (Sprague-Grundy).\n");
    } else if (misere) {
        bt__buf_puts(out, "Misère play of a sum of pairs is decided by "
                          "searching the game graph.\n");
    }
    if (found->outcome == BT_P) {
        bt__buf_puts(out, "No move leads to a P-position: the previous "
                          "player wins.\n");
    } else {
        bt__buf_printf(out, "The winning moves (%zu):\n", nm);
        for (i = 0; i < nm; i++)
            bt__buf_printf(out, "  - %s\n", found->moves[i].text);
    }
}

static void
wy_rules(const bt_game *g, bt__buf *out)
{
    const wy_state *w = state_of(g);
    if (mpz_cmp_ui(w->a, 1) == 0) {
        bt__buf_puts(out, "Wythoff's game: take any number of counters from "
                          "one pile, or the same number from both piles.");
        return;
    }
    bt__buf_puts(out, "Wythoff's game with a = ");
    bt__buf_mpz(out, w->a);
    bt__buf_puts(out, ": take any number of counters from one pile, or "
                      "from both piles two numbers that differ by less "
                      "than ");
    bt__buf_mpz(out, w->a);
    bt__buf_puts(out, ".");
}

/* The rules of a pair (x, y) of difference parameter a (1 for Wythoff):
   one pile shortened, or k >= 1 and l >= 1 taken from both with
   |k - l| < a (Fraenkel). */
static int
wy_is_option(bt_game *g, const mpz_t *c, size_t n, const mpz_t *to,
             size_t nto)
{
    mpz_t k, l;
    int cx, cy, yes;
    (void)n;
    if (nto != 2)
        return -1;
    cx = mpz_cmp(to[0], c[0]);
    cy = mpz_cmp(to[1], c[1]);
    if (cx > 0 || cy > 0 || (cx == 0 && cy == 0))
        return 0;
    if (cx == 0 || cy == 0)
        return 1;
    mpz_inits(k, l, NULL);
    mpz_sub(k, c[0], to[0]);
    mpz_sub(l, c[1], to[1]);
    mpz_sub(k, k, l);
    mpz_abs(k, k);
    yes = mpz_cmp(k, state_of(g)->a) < 0;
    mpz_clears(k, l, NULL);
    return yes;
}

const bt__ruleset bt__ruleset_wythoff = {
    {"wythoff", "wythoff[:A]",
     "Wythoff's game: take from one pile, or from both with amounts "
     "differing by less than A (default 1: the same number).",
     "", "Wythoff's game", "wythoff"},
    2,
    wy_init,
    wy_fini,
    NULL,
    wy_grundy,
    wy_options,
    wy_moves_to,
    wy_misere,
    wy_describe,
    wy_explain,
    wy_p_position,
    wy_rules,
    NULL,
    wy_is_option,
    0,    /* flags: a component is a pair, not a heap */
    NULL, /* heap */
};
