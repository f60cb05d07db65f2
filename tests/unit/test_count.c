/* label: quick
 *
 * test_count.c -- bt_nim_count against independent counts:
 *   - brute force: every position of small K piles in every [MIN, MAX],
 *     classified by the oracle (tests/oracle/oracle_nim.c, from the rules),
 *     ordered and unordered, normal and misère;
 *   - Bouton's sec. 3 formulas for n = 1..64 and his odds;
 *   - closed forms for the piles 0 .. 2^L - 1, 1 .. 2^L - 1 and 1 .. 2^L
 *     (the last is the benchmark's 64 piles up to 2^1024);
 *   - a classic digit DP with "tight" flags for random bounds of hundreds
 *     of bits, and the identities that tie multisets to tuples for K = 3, 4;
 *   - the errors, limits, interruption and aliasing;
 *   - the progress reports of bt_nim_count_progress.
 * BT_TEST_SEED in the environment sets the seed of the random tests; a
 * failure prints it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <bouton.h>

#include "oracle_nim.h"

static unsigned long seed;

/* Counts with the library; fails the test on an error. */
static void
count(mpz_t pos, mpz_t pp, mpq_t q, size_t k, const mpz_t min, const mpz_t max,
      unsigned flags)
{
    bt_diag d;
    bt_status st;
    memset(&d, 0, sizeof d);
    st = bt_nim_count(pos, pp, q, k, min, max, flags, NULL, &d);
    if (st != BT_OK)
        fail_msg("bt_nim_count(%zu piles, flags %u): %s: %s", k, flags,
                 bt_status_name(st), d.message);
    if (q != NULL) { /* the probability is pp/pos in lowest terms */
        mpq_t r;
        mpq_init(r);
        mpq_set_num(r, pp);
        mpq_set_den(r, pos);
        mpq_canonicalize(r);
        assert_true(mpq_equal(r, q));
        mpq_clear(r);
    }
}

static void
count_ui(mpz_t pos, mpz_t pp, size_t k, unsigned long min, unsigned long max,
         unsigned flags)
{
    mpz_t a, b;
    mpq_t q;
    mpz_init_set_ui(a, min);
    mpz_init_set_ui(b, max);
    mpq_init(q);
    count(pos, pp, q, k, a, b, flags);
    mpq_clear(q);
    mpz_clears(a, b, NULL);
}

/* ----------------------------------------------------- brute force */

/* Every K-tuple of [0, top]^K classified by the oracle; for each interval
   [lo, hi] the tuples inside it are counted, and the non-decreasing ones
   as the multisets. */
static void
brute_force(size_t k, unsigned top)
{
    oracle_nim *o[2];
    unsigned x[8];
    unsigned lo, hi, m;
    unsigned long ordered[2], unordered[2], npos, nmulti, code, total;
    size_t i;
    mpz_t pos, pp;
    int misere, mono;

    o[0] = oracle_nim_new(0, k, top);
    o[1] = oracle_nim_new(1, k, top);
    assert_non_null(o[0]);
    assert_non_null(o[1]);
    mpz_inits(pos, pp, NULL);
    for (lo = 0; lo <= top; lo++) {
        for (hi = lo; hi <= top; hi++) {
            m = hi - lo + 1;
            for (total = 1, i = 0; i < k; i++)
                total *= m;
            ordered[0] = ordered[1] = unordered[0] = unordered[1] = 0;
            npos = nmulti = 0;
            for (code = 0; code < total; code++) {
                unsigned long c = code;
                for (i = 0; i < k; i++, c /= m)
                    x[i] = lo + (unsigned)(c % m);
                for (mono = 1, i = 1; i < k; i++)
                    mono &= x[i - 1] <= x[i];
                npos++;
                nmulti += (unsigned long)mono;
                for (misere = 0; misere < 2; misere++) {
                    int p = oracle_nim_is_p(o[misere], x, k);
                    assert_true(p >= 0);
                    ordered[misere] += (unsigned long)p;
                    unordered[misere] += (unsigned long)(p && mono);
                }
            }
            for (misere = 0; misere < 2; misere++) {
                unsigned fl = misere ? BT_MISERE : 0;
                count_ui(pos, pp, k, lo, hi, fl | BT_COUNT_ORDERED);
                if (mpz_cmp_ui(pos, npos) || mpz_cmp_ui(pp, ordered[misere]))
                    fail_msg("%zu piles in [%u, %u], ordered, %s: %s of %s "
                             "P, brute force %lu of %lu",
                             k, lo, hi, misere ? "misère" : "normal",
                             mpz_get_str(NULL, 10, pp),
                             mpz_get_str(NULL, 10, pos), ordered[misere], npos);
                count_ui(pos, pp, k, lo, hi, fl);
                if (mpz_cmp_ui(pos, nmulti) ||
                    mpz_cmp_ui(pp, unordered[misere]))
                    fail_msg("%zu piles in [%u, %u], multisets, %s: %s of "
                             "%s P, brute force %lu of %lu",
                             k, lo, hi, misere ? "misère" : "normal",
                             mpz_get_str(NULL, 10, pp),
                             mpz_get_str(NULL, 10, pos), unordered[misere],
                             nmulti);
            }
        }
    }
    mpz_clears(pos, pp, NULL);
    oracle_nim_free(o[0]);
    oracle_nim_free(o[1]);
}

static void
test_brute_force(void **state)
{
    (void)state;
    brute_force(0, 5);
    brute_force(1, 15);
    brute_force(2, 15);
    brute_force(3, 15);
    brute_force(4, 11);
    brute_force(5, 7);
    brute_force(6, 5);
    brute_force(8, 2);
}

/* ------------------------------------------------------ Bouton sec. 3 */

/* Bouton's formulas for three non-empty piles below 2^n, computed here,
   against tests/cases/nim_bouton_sec3.txt and the library. */
static void
test_bouton_sec3(void **state)
{
    char path[1024], line[1024];
    char t_below[128], t_pos[128], t_safe[128], t_prob[256];
    FILE *f;
    unsigned n, rows = 0;
    mpz_t p2n1, p2n, pos, safe, got_pos, got_safe, one, max, x;
    mpq_t chance, got, odds, want_odds;
    (void)state;
    snprintf(path, sizeof path, "%s/nim_bouton_sec3.txt", BT_TEST_CASES);
    f = fopen(path, "r");
    assert_non_null(f);
    mpz_inits(p2n1, p2n, pos, safe, got_pos, got_safe, one, max, x, NULL);
    mpq_inits(chance, got, odds, want_odds, NULL);
    mpz_set_ui(one, 1);
    while (fgets(line, sizeof line, f) != NULL) {
        if (line[0] == '#')
            continue;
        assert_int_equal(sscanf(line, "%u %127s %127s %127s %255s", &n, t_below,
                                t_pos, t_safe, t_prob),
                         5);
        assert_int_equal(n, rows + 1);
        rows++;
        mpz_ui_pow_ui(p2n1, 2, n - 1); /* 2^(n-1) */
        mpz_mul_2exp(p2n, p2n1, 1);    /* 2^n */
        /* positions 2^(n-1) (2^(2n) - 1) / 3 */
        mpz_mul(pos, p2n, p2n);
        mpz_sub_ui(pos, pos, 1);
        mpz_mul(pos, pos, p2n1);
        assert_true(mpz_divisible_ui_p(pos, 3));
        mpz_divexact_ui(pos, pos, 3);
        /* safe (2^(n-1) - 1) (2^n - 1) / 3 */
        mpz_sub_ui(safe, p2n1, 1);
        mpz_sub_ui(x, p2n, 1);
        mpz_mul(safe, safe, x);
        assert_true(mpz_divisible_ui_p(safe, 3));
        mpz_divexact_ui(safe, safe, 3);
        /* chance (2^(n-1) - 1) / (2^(n-1) (2^n + 1)) */
        mpz_sub_ui(mpq_numref(chance), p2n1, 1);
        mpz_add_ui(x, p2n, 1);
        mpz_mul(mpq_denref(chance), p2n1, x);
        mpq_canonicalize(chance);
        /* the data file holds these values */
        assert_int_equal(mpz_set_str(x, t_below, 10), 0);
        assert_true(mpz_cmp(x, p2n) == 0);
        assert_int_equal(mpz_set_str(x, t_pos, 10), 0);
        assert_true(mpz_cmp(x, pos) == 0);
        assert_int_equal(mpz_set_str(x, t_safe, 10), 0);
        assert_true(mpz_cmp(x, safe) == 0);
        assert_int_equal(mpq_set_str(got, t_prob, 10), 0);
        assert_true(mpq_equal(got, chance));
        /* the library agrees */
        mpz_sub_ui(max, p2n, 1);
        count(got_pos, got_safe, got, 3, one, max, 0);
        if (mpz_cmp(got_pos, pos) || mpz_cmp(got_safe, safe) ||
            !mpq_equal(got, chance))
            fail_msg("Bouton sec. 3, n = %u: the count differs", n);
        /* the odds: "the chances of the first player's winning are to
           those of the second as 2^n + 2 + 3/(2^(n-1) - 1) to 1" */
        if (n >= 2) {
            mpz_sub(mpq_numref(odds), pos, safe);
            mpz_set(mpq_denref(odds), safe);
            mpq_canonicalize(odds);
            mpz_set_ui(mpq_numref(want_odds), 3);
            mpz_sub_ui(mpq_denref(want_odds), p2n1, 1);
            mpq_canonicalize(want_odds);
            mpz_add_ui(x, p2n, 2);
            mpz_addmul(mpq_numref(want_odds), x, mpq_denref(want_odds));
            mpq_canonicalize(want_odds);
            assert_true(mpq_equal(odds, want_odds));
            if (n == 4) /* 18 3/7 to 1, i.e. 129 to 7 */
                assert_int_equal(mpq_cmp_ui(odds, 129, 7), 0);
        }
    }
    fclose(f);
    assert_int_equal(rows, 64);
    mpz_clears(p2n1, p2n, pos, safe, got_pos, got_safe, one, max, x, NULL);
    mpq_clears(chance, got, odds, want_odds, NULL);
}

/* The essay, sec. 3.2, counts ordered triples: 4^n of the 8^n triples of
   piles below 2^n have nim-sum 0 (each binary column is one of the four
   even columns), 3 (2^n - 1) of them (0, m, m) in some order and one
   (0, 0, 0); dividing the rest by 3! gives Bouton's count (35 for n = 4,
   7 for n = 3).  Table 2 (piles up to 10) has 21 multisets. */
static void
test_essay_counts(void **state)
{
    mpz_t pos, pp, want;
    unsigned n;
    (void)state;
    mpz_inits(pos, pp, want, NULL);
    for (n = 1; n <= 40; n++) {
        count_ui(pos, pp, 3, 0, (1ul << n) - 1, BT_COUNT_ORDERED);
        mpz_ui_pow_ui(want, 4, n);
        assert_true(mpz_cmp(pp, want) == 0);
        count_ui(pos, pp, 3, 1, (1ul << n) - 1, BT_COUNT_ORDERED);
        mpz_sub_ui(want, want, 3 * ((1ul << n) - 1) + 1);
        assert_true(mpz_cmp(pp, want) == 0);
        count_ui(pos, pp, 3, 1, (1ul << n) - 1, 0);
        mpz_divexact_ui(want, want, 6);
        assert_true(mpz_cmp(pp, want) == 0);
    }
    count_ui(pos, pp, 3, 1, 15, BT_COUNT_ORDERED);
    assert_int_equal(mpz_get_ui(pp), 210);
    count_ui(pos, pp, 3, 1, 7, 0);
    assert_int_equal(mpz_get_ui(pp), 7);
    count_ui(pos, pp, 3, 0, 10, 0);
    assert_int_equal(mpz_get_ui(pp), 21);
    assert_int_equal(mpz_get_ui(pos), 286);
    mpz_clears(pos, pp, want, NULL);
}

/* ------------------------------------------------------- closed forms */

/*
 * The piles 0 .. 2^L - 1 are the whole group (Z/2)^L under XOR:
 *   ordered: the last pile is fixed by the others, 2^(L (K-1)) (K >= 1);
 *   multisets: the characters of the group other than the trivial one sum
 *   to zero over it, so Burnside's count (over the cyclic-free part)
 *   reduces to (C(2^L + K - 1, K) + (2^L - 1) c_K) / 2^L, with c_K =
 *   C(2^(L-1) + K/2 - 1, K/2) for even K and 0 for odd K.
 * Piles 1 .. 2^L - 1 (no empty pile):
 *   ordered: f(K) = (2^L - 1)^(K-1) - f(K-1), f(0) = 1 (choose K - 1
 *   piles, the last is their nim-sum, which must not be 0);
 *   multisets: U(K) - U(K-1), U of the whole group (drop the empty piles).
 * Piles 1 .. 2^L: the pile 2^L, alone in its column, occurs an even number
 * of times i: ordered sum_i C(K, i) f(K - i), multisets sum_i U'(K - i).
 */
static void
group_multisets(mpz_t rop, unsigned long L, unsigned long k)
{
    mpz_t g, t;
    mpz_inits(g, t, NULL);
    mpz_setbit(g, L);
    mpz_add_ui(t, g, k - 1);
    if (k == 0)
        mpz_set_ui(rop, 1);
    else
        mpz_bin_ui(rop, t, k);
    if (k % 2 == 0) {
        mpz_fdiv_q_2exp(t, g, 1);
        mpz_add_ui(t, t, k / 2);
        mpz_sub_ui(t, t, 1);
        mpz_bin_ui(t, t, k / 2);
        mpz_sub_ui(g, g, 1);
        mpz_addmul(rop, g, t);
    }
    assert_true(mpz_divisible_2exp_p(rop, L));
    mpz_fdiv_q_2exp(rop, rop, L);
    mpz_clears(g, t, NULL);
}

static void
check_closed_forms(unsigned long L, unsigned long k)
{
    mpz_t pos, pp, want, min, max, n, f[2], u[2], t;
    mpz_t *fk, *uk;
    unsigned long j, i;
    mpz_inits(pos, pp, want, min, max, n, t, f[0], f[1], u[0], u[1], NULL);
    fk = malloc((k + 1) * sizeof *fk);
    uk = malloc((k + 1) * sizeof *uk);
    assert_non_null(fk);
    assert_non_null(uk);

    /* 0 .. 2^L - 1 */
    mpz_setbit(max, L);
    mpz_sub_ui(max, max, 1);
    count(pos, pp, NULL, k, min, max, BT_COUNT_ORDERED);
    mpz_set_ui(want, 0);
    mpz_setbit(want, L * (k - 1));
    if (mpz_cmp(pp, want) != 0)
        fail_msg("ordered, %lu piles of 0..2^%lu-1", k, L);
    count(pos, pp, NULL, k, min, max, 0);
    group_multisets(want, L, k);
    if (mpz_cmp(pp, want) != 0)
        fail_msg("multisets, %lu piles of 0..2^%lu-1", k, L);

    /* 1 .. 2^L - 1: f(j) and U'(j) for j <= k */
    mpz_set(n, max);
    for (j = 0; j <= k; j++) {
        mpz_init(fk[j]);
        mpz_init(uk[j]);
        if (j == 0) {
            mpz_set_ui(fk[j], 1);
        } else {
            mpz_pow_ui(fk[j], n, j - 1);
            mpz_sub(fk[j], fk[j], fk[j - 1]);
        }
        group_multisets(uk[j], L, j);
        if (j > 0) {
            group_multisets(t, L, j - 1);
            mpz_sub(uk[j], uk[j], t);
        }
    }
    mpz_set_ui(min, 1);
    count(pos, pp, NULL, k, min, max, BT_COUNT_ORDERED);
    if (mpz_cmp(pp, fk[k]) != 0)
        fail_msg("ordered, %lu piles of 1..2^%lu-1", k, L);
    count(pos, pp, NULL, k, min, max, 0);
    if (mpz_cmp(pp, uk[k]) != 0)
        fail_msg("multisets, %lu piles of 1..2^%lu-1", k, L);

    /* 1 .. 2^L */
    mpz_add_ui(max, max, 1);
    mpz_set_ui(want, 0);
    mpz_set_ui(u[0], 0);
    for (i = 0; i <= k; i += 2) {
        mpz_bin_uiui(t, k, i);
        mpz_addmul(want, t, fk[k - i]);
        mpz_add(u[0], u[0], uk[k - i]);
    }
    count(pos, pp, NULL, k, min, max, BT_COUNT_ORDERED);
    if (mpz_cmp(pp, want) != 0)
        fail_msg("ordered, %lu piles of 1..2^%lu", k, L);
    count(pos, pp, NULL, k, min, max, 0);
    if (mpz_cmp(pp, u[0]) != 0)
        fail_msg("multisets, %lu piles of 1..2^%lu", k, L);

    for (j = 0; j <= k; j++) {
        mpz_clear(fk[j]);
        mpz_clear(uk[j]);
    }
    free(fk);
    free(uk);
    mpz_clears(pos, pp, want, min, max, n, t, f[0], f[1], u[0], u[1], NULL);
}

static void
test_closed_forms(void **state)
{
    static const unsigned long ls[] = {1, 2, 3, 5, 64, 300, 1024};
    static const unsigned long ks[] = {1, 2, 3, 4, 5, 6, 7, 17, 64};
    size_t i, j;
    (void)state;
    for (i = 0; i < sizeof ls / sizeof ls[0]; i++)
        for (j = 0; j < sizeof ks / sizeof ks[0]; j++)
            check_closed_forms(ls[i], ks[j]);
    /* many piles of few bits, and many of a few words */
    check_closed_forms(4, 4096);
    check_closed_forms(64, 300);
}

/* --------------------------------------------- the digit DP, random */

/*
 * The classic digit DP: tuples of K piles in [lo, hi] with nim-sum 0, bit
 * by bit from the top, each pile in a state (tight to lo, tight to hi);
 * the bits placed in a column must have an even sum.  4^K states.
 */
static void
digit_dp(mpz_t rop, size_t k, const mpz_t lo, const mpz_t hi)
{
    size_t nst = (size_t)1 << (2 * k), s, i;
    mpz_t *cur = malloc(nst * sizeof *cur), *nxt = malloc(nst * sizeof *nxt);
    long b;
    unsigned long bits;
    assert_non_null(cur);
    assert_non_null(nxt);
    for (s = 0; s < nst; s++) {
        mpz_init(cur[s]);
        mpz_init(nxt[s]);
    }
    mpz_set_ui(cur[nst - 1], 1); /* every pile tight to both bounds */
    for (b = (long)mpz_sizeinbase(hi, 2); b >= 0; b--) {
        int lb = mpz_tstbit(lo, (mp_bitcnt_t)b);
        int hb = mpz_tstbit(hi, (mp_bitcnt_t)b);
        for (s = 0; s < nst; s++)
            mpz_set_ui(nxt[s], 0);
        for (s = 0; s < nst; s++) {
            if (mpz_sgn(cur[s]) == 0)
                continue;
            for (bits = 0; bits < (1ul << k); bits++) {
                size_t t = 0;
                unsigned long x, par = 0;
                int ok;
                for (x = bits; x != 0; x >>= 1)
                    par ^= x & 1;
                ok = par == 0; /* an even number of 1s in the column */
                for (i = 0; i < k && ok; i++) {
                    int bit = (int)((bits >> i) & 1);
                    int tl = (int)((s >> (2 * i)) & 1);
                    int th = (int)((s >> (2 * i + 1)) & 1);
                    if ((tl && bit < lb) || (th && bit > hb))
                        ok = 0;
                    t |= (size_t)(tl && bit == lb) << (2 * i);
                    t |= (size_t)(th && bit == hb) << (2 * i + 1);
                }
                if (ok)
                    mpz_add(nxt[t], nxt[t], cur[s]);
            }
        }
        for (s = 0; s < nst; s++)
            mpz_swap(cur[s], nxt[s]);
    }
    mpz_set_ui(rop, 0);
    for (s = 0; s < nst; s++) {
        mpz_add(rop, rop, cur[s]);
        mpz_clear(cur[s]);
        mpz_clear(nxt[s]);
    }
    free(cur);
    free(nxt);
}

/*
 * Multisets from tuples, by the type of the multiset (z = [0 in S]):
 *   K = 3: a multiset {x, x, y} has nim-sum y, so only {0, m, m} (m != 0)
 *   and {0, 0, 0} have two equal piles: U = (T - 3 (N-1) z - z) / 6 +
 *   (N - 1) z + z.
 *   K = 4: {x, x, y, y} always, {x, x, x, x} always, {x, x, y, z} and
 *   {x, x, x, y} never (y != z, x != y): U = D + C(N, 2) + N with
 *   24 D = T - 6 C(N, 2) - N.
 */
static void
multisets_from_tuples(mpz_t rop, size_t k, const mpz_t t, const mpz_t n, int z)
{
    mpz_t c2, d;
    mpz_inits(c2, d, NULL);
    if (k == 3) {
        mpz_sub_ui(c2, n, 1); /* N - 1 */
        mpz_mul_ui(d, c2, 3 * (unsigned long)z);
        mpz_sub(d, t, d);
        mpz_sub_ui(d, d, (unsigned long)z);
        assert_true(mpz_divisible_ui_p(d, 6));
        mpz_divexact_ui(rop, d, 6);
        if (z) {
            mpz_add(rop, rop, c2);
            mpz_add_ui(rop, rop, 1);
        }
    } else {
        mpz_bin_ui(c2, n, 2);
        mpz_mul_ui(d, c2, 6);
        mpz_sub(d, t, d);
        mpz_sub(d, d, n);
        assert_true(mpz_divisible_ui_p(d, 24));
        mpz_divexact_ui(rop, d, 24);
        mpz_add(rop, rop, c2);
        mpz_add(rop, rop, n);
    }
    mpz_clears(c2, d, NULL);
}

static void
test_digit_dp_random(void **state)
{
    gmp_randstate_t r;
    mpz_t lo, hi, n, pos, pp, want, t;
    int trial;
    (void)state;
    gmp_randinit_default(r);
    gmp_randseed_ui(r, seed);
    mpz_inits(lo, hi, n, pos, pp, want, t, NULL);
    for (trial = 0; trial < 40; trial++) {
        size_t k = 3 + gmp_urandomm_ui(r, 2);
        unsigned long bits = 1 + gmp_urandomm_ui(r, trial < 30 ? 200 : 1024);
        unsigned long kind = gmp_urandomm_ui(r, 4);
        mpz_urandomb(hi, r, bits);
        if (kind == 0)
            mpz_set_ui(lo, 0);
        else if (kind == 1)
            mpz_set_ui(lo, 1);
        else
            mpz_urandomm(lo, r, hi);
        if (kind == 3) /* a long common prefix */
            mpz_setbit(lo, bits - 1);
        if (mpz_cmp(lo, hi) > 0)
            mpz_swap(lo, hi);
        if (k == 4 && bits > 200)
            k = 3; /* keep the DP quick */
        mpz_sub(n, hi, lo);
        mpz_add_ui(n, n, 1);
        digit_dp(want, k, lo, hi);
        count(pos, pp, NULL, k, lo, hi, BT_COUNT_ORDERED);
        if (mpz_cmp(pp, want) != 0)
            fail_msg("seed %lu, trial %d: ordered count of %zu piles differs "
                     "from the digit DP",
                     seed, trial, k);
        mpz_pow_ui(t, n, k);
        assert_true(mpz_cmp(pos, t) == 0);
        multisets_from_tuples(want, k, want, n, mpz_sgn(lo) == 0);
        count(pos, pp, NULL, k, lo, hi, 0);
        if (mpz_cmp(pp, want) != 0)
            fail_msg("seed %lu, trial %d: multiset count of %zu piles "
                     "differs from the identity",
                     seed, trial, k);
        /* misère differs only where every pile is 0 or 1 */
        count(pos, want, NULL, k, lo, hi, BT_MISERE);
        if (mpz_cmp_ui(lo, 2) >= 0 && mpz_cmp(pp, want) != 0)
            fail_msg("seed %lu, trial %d: misère differs", seed, trial);
    }
    mpz_clears(lo, hi, n, pos, pp, want, t, NULL);
    gmp_randclear(r);
}

/* ------------------------------------------------------------ errors */

static int
stop_now(void *ud)
{
    (void)ud;
    return 1;
}

static void
test_errors(void **state)
{
    mpz_t pos, pp, min, max;
    bt_limits lim;
    bt_diag d;
    (void)state;
    mpz_inits(pos, pp, min, max, NULL);
    mpz_set_ui(pos, 12345);
    mpz_set_ui(pp, 678);

    /* min > max */
    mpz_set_ui(min, 9);
    mpz_set_ui(max, 3);
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_nim_count(pos, pp, NULL, 3, min, max, 0, NULL, &d),
                     BT_EINVAL);
    assert_non_null(strstr(d.message, "minimum"));
    /* negative bounds */
    mpz_set_si(min, -1);
    assert_int_equal(bt_nim_count(pos, pp, NULL, 3, min, max, 0, NULL, &d),
                     BT_EINVAL);
    assert_non_null(strstr(d.message, "negative"));
    mpz_set_ui(min, 0);
    mpz_set_si(max, -5);
    assert_int_equal(bt_nim_count(pos, pp, NULL, 3, min, max, 0, NULL, &d),
                     BT_EINVAL);
    /* too many piles */
    mpz_set_ui(max, 3);
    bt_limits_default(&lim);
    assert_int_equal(bt_nim_count(pos, pp, NULL, lim.max_table_piles + 1, min,
                                  max, 0, NULL, &d),
                     BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_table_piles"));
    lim.max_table_piles = 10;
    assert_int_equal(bt_nim_count(pos, pp, NULL, 11, min, max, 0, &lim, &d),
                     BT_ELIMIT);
    /* a bound with too many digits */
    lim.max_digits = 5;
    mpz_set_ui(max, 123456);
    assert_int_equal(bt_nim_count(pos, pp, NULL, 3, min, max, 0, &lim, &d),
                     BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_digits"));
    /* an answer with too many digits: 3 piles of 5 digits is 15 */
    mpz_set_ui(max, 99999);
    assert_int_equal(bt_nim_count(pos, pp, NULL, 3, min, max, 0, &lim, &d),
                     BT_ELIMIT);
    assert_non_null(strstr(d.message, "digits"));
    /* too much work: 1000 multisets of random 1100-bit piles */
    {
        gmp_randstate_t r;
        gmp_randinit_default(r);
        gmp_randseed_ui(r, 7);
        mpz_urandomb(max, r, 1100);
        gmp_randclear(r);
    }
    mpz_setbit(max, 1100);
    mpz_set_ui(min, 3);
    bt_limits_default(&lim);
    assert_int_equal(bt_nim_count(pos, pp, NULL, 1000, min, max, 0, &lim, &d),
                     BT_ELIMIT);
    assert_non_null(strstr(d.message, "work limit"));
    /* interrupted */
    lim.interrupt = stop_now;
    mpz_set_ui(max, 0);
    mpz_setbit(max, 300);
    mpz_sub_ui(max, max, 7777);
    assert_int_equal(bt_nim_count(pos, pp, NULL, 5, min, max, 0, &lim, &d),
                     BT_EINTR);
    assert_int_equal(
        bt_nim_count(pos, pp, NULL, 5, min, max, BT_COUNT_ORDERED, &lim, &d),
        BT_EINTR);
    /* the outputs never changed; a NULL diag is fine */
    assert_int_equal(mpz_get_ui(pos), 12345);
    assert_int_equal(mpz_get_ui(pp), 678);
    assert_int_equal(bt_nim_count(pos, pp, NULL, 3, max, min, 0, NULL, NULL),
                     BT_EINVAL);
    mpz_clears(pos, pp, min, max, NULL);
}

/* Zero piles, one pile, two piles; outputs aliasing the inputs. */
static void
test_edges(void **state)
{
    mpz_t pos, pp, a, b;
    mpq_t q;
    (void)state;
    mpz_inits(pos, pp, a, b, NULL);
    mpq_init(q);
    /* the empty position: P in normal play, N in misère */
    mpz_set_ui(b, 9);
    count(pos, pp, q, 0, a, b, 0);
    assert_int_equal(mpz_get_ui(pos), 1);
    assert_int_equal(mpz_get_ui(pp), 1);
    count(pos, pp, q, 0, a, b, BT_MISERE | BT_COUNT_ORDERED);
    assert_int_equal(mpz_get_ui(pos), 1);
    assert_int_equal(mpz_get_ui(pp), 0);
    assert_int_equal(mpq_sgn(q), 0);
    /* one pile of 10^500: only the empty pile is safe; misère, only 1 */
    mpz_ui_pow_ui(b, 10, 500);
    count(pos, pp, q, 1, a, b, 0);
    assert_int_equal(mpz_get_ui(pp), 1);
    count(pos, pp, q, 1, a, b, BT_MISERE);
    assert_int_equal(mpz_get_ui(pp), 1);
    mpz_add_ui(b, b, 1);
    assert_true(mpz_cmp(pos, b) == 0);
    /* two piles: the equal pairs */
    mpz_set_ui(a, 5);
    count(pos, pp, q, 2, a, b, 0);
    mpz_sub_ui(b, b, 4); /* N = (10^500 + 1) - 5 + 1 */
    assert_true(mpz_cmp(pp, b) == 0);
    /* aliasing: the outputs are the inputs */
    mpz_set_ui(a, 1);
    mpz_set_ui(b, 15);
    assert_int_equal(bt_nim_count(a, b, q, 3, a, b, 0, NULL, NULL), BT_OK);
    assert_int_equal(mpz_get_ui(a), 680);
    assert_int_equal(mpz_get_ui(b), 35);
    assert_int_equal(mpq_cmp_ui(q, 7, 136), 0);
    mpz_clears(pos, pp, a, b, NULL);
    mpq_clear(q);
}

/* The progress reports: from 0 to 1, never backwards, ending at exactly
   1, with the counts of bt_nim_count; none for k <= 2. */
typedef struct reports {
    int calls, backwards;
    double last;
} reports;

static void
on_report(void *ud, double f)
{
    reports *r = ud;
    if (f < r->last || f < 0 || f > 1)
        r->backwards++;
    r->last = f;
    r->calls++;
}

static void
test_progress(void **state)
{
    static const struct {
        size_t k;
        const char *min, *max;
        unsigned flags;
    } cases[] = {
        {64, "1", "1000000000000000000000000000000", 0}, /* two counts */
        {64, "0", "1000000000000000000000000000000", 0},
        {300, "0", "12345678901234567890", 0},      /* table, or not */
        {40, "7", "98765432109876543210", BT_COUNT_ORDERED},
        {33, "1", "4000000000", BT_MISERE},
    };
    size_t i;
    mpz_t a, b, pos, pp, pos2, pp2;
    mpq_t q, q2;
    (void)state;
    mpz_inits(a, b, pos, pp, pos2, pp2, NULL);
    mpq_inits(q, q2, NULL);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        reports r = {0, 0, 0};
        mpz_set_str(a, cases[i].min, 10);
        mpz_set_str(b, cases[i].max, 10);
        count(pos, pp, q, cases[i].k, a, b, cases[i].flags);
        assert_int_equal(bt_nim_count_progress(pos2, pp2, q2, cases[i].k, a,
                                               b, cases[i].flags, NULL,
                                               NULL, on_report, &r),
                         BT_OK);
        assert_true(mpz_cmp(pos, pos2) == 0 && mpz_cmp(pp, pp2) == 0);
        assert_true(r.calls >= 2);
        assert_int_equal(r.backwards, 0);
        assert_true(r.last == 1.0);
    }
    {
        reports r = {0, 0, 0};
        mpz_set_ui(a, 0);
        mpz_set_ui(b, 1000);
        assert_int_equal(bt_nim_count_progress(pos2, pp2, NULL, 2, a, b, 0,
                                               NULL, NULL, on_report, &r),
                         BT_OK);
        assert_int_equal(r.calls, 0);
        assert_int_equal(mpz_get_ui(pp2), 1001);
    }
    mpz_clears(a, b, pos, pp, pos2, pp2, NULL);
    mpq_clears(q, q2, NULL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brute_force),
        cmocka_unit_test(test_bouton_sec3),
        cmocka_unit_test(test_essay_counts),
        cmocka_unit_test(test_closed_forms),
        cmocka_unit_test(test_digit_dp_random),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_progress),
    };
    const char *s = getenv("BT_TEST_SEED");
    seed = s ? strtoul(s, NULL, 10) : 20240601ul;
    return cmocka_run_group_tests(tests, NULL, NULL);
}
