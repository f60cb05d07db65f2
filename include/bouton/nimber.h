/*
 * bouton/nimber.h -- Nim's field: nim-multiplication and what it gives.
 * Part of the public contract; include <bouton.h> rather than this file.
 *
 * Conway showed that the non-negative integers with the nim-sum (XOR,
 * bt_nim_sum in nim.h) and the nim-product form a field (On Numbers and
 * Games, ch. 6); the integers below 2^(2^k) are its subfield of order
 * 2^(2^k), for every k.  The nim-product is fixed by Conway's rules on the
 * Fermat 2-powers F = 2^(2^k) (2, 4, 16, 256, 65536, ...):
 *
 *     x * F = x F (the ordinary product) when x < F,
 *     F * F = 3F/2 (= F + F/2, a nim-sum),
 *
 * with nim-multiplication commutative, associative and distributive over
 * the nim-sum.  docs/nimbers.md proves them and derives the algorithms: the
 * tower GF(2^(2^(k+1))) = GF(2^(2^k))[t]/(t^2 + t + F/2) (three half-size
 * products and one by the constant F/2 per level), and for 64-bit operands
 * carry-less multiplication after a change of basis.
 *
 * Operands are non-negative integers of any size (mpz_t, the caller's) or
 * 64-bit words.  The operations on mpz_t check their operands (negative:
 * BT_EINVAL with a message naming the operand; more than lim->max_digits
 * digits: BT_ELIMIT), charge their work space to lim->max_memory and poll
 * lim->interrupt (BT_EINTR); r may alias any operand; on failure r is
 * unchanged.  The field an operation works in is the least one holding
 * every operand, so results stay below the next Fermat 2-power above them.
 */
#ifndef BOUTON_NIMBER_H
#define BOUTON_NIMBER_H

#include <stddef.h>
#include <stdint.h>

#include <bouton/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The nim-product of a and b, two nimbers below 2^64 (the field of order
 * 2^64 is closed: so is the product).  The fast path: a few nanoseconds,
 * by carry-less multiplication where the processor has it, else by tables
 * of the field of order 256 (bench/bench_nimber.c measures both).  Safe
 * from any thread; its tables are built once, on first use.
 */
BT_API uint64_t bt_nimber_mul_u64(uint64_t a, uint64_t b);

/*
 * r[i] = the nim-product of a[i] and b[i] for i < n: the products of
 * bt_nimber_mul_u64, many at a time (the throughput form: with AVX-512 and
 * GFNI, eight at once, the changes of basis by 8 x 8 bit-matrix products;
 * else the single product inlined in a loop).  The arrays may be the same
 * (r = a, r = b); otherwise they must not overlap.
 */
BT_API void bt_nimber_mul_u64_n(uint64_t *r, const uint64_t *a,
                                const uint64_t *b, size_t n);

/*
 * r = the nim-product of a and b, at any size (r may alias a or b).
 * BT_EINVAL when an operand is negative, BT_ELIMIT past lim->max_digits or
 * lim->max_memory (the work space is about 6 times the size of the field
 * holding both operands), BT_EINTR when lim->interrupt asks to stop.
 * lim NULL: the defaults.  Operands of n words take about n^1.58 products
 * of 64-bit words (Karatsuba's three products per level of the tower).
 */
BT_API bt_status bt_nimber_mul(mpz_t r, const mpz_t a, const mpz_t b,
                               const bt_limits *lim, bt_diag *diag);

/*
 * r = x raised to the nim-power e (x * x * ... * x, e factors), e an
 * ordinary integer of any size and sign: x^0 = 1 (0^0 included), and a
 * negative e is a power of the inverse of x.  In the field of order
 * 2^(2^k) holding x, x^(2^(2^k) - 1) = 1 for x != 0, so e is first reduced
 * modulo 2^(2^k) - 1: a huge exponent costs no more than 2^k squarings.
 * BT_EINVAL when x is negative, or x = 0 with e < 0 (0 has no inverse);
 * otherwise as bt_nimber_mul.
 */
BT_API bt_status bt_nimber_pow(mpz_t r, const mpz_t x, const mpz_t e,
                               const bt_limits *lim, bt_diag *diag);

/*
 * r = the nim-inverse of x (x * r = 1).  BT_EINVAL when x is 0 (no
 * inverse) or negative; otherwise as bt_nimber_mul.  By the tower: the
 * inverse of a1 t + a0 is (a1 t + a0 + a1) / N, N = a0^2 + a0 a1 + a1^2 F/2
 * its norm in the half field (docs/nimbers.md).
 */
BT_API bt_status bt_nimber_inv(mpz_t r, const mpz_t x, const bt_limits *lim,
                               bt_diag *diag);

/*
 * r = the nim-square root of x: the one nimber whose nim-square is x
 * (squaring is the Frobenius map, a bijection of every finite field of
 * characteristic 2).  r is below the Fermat 2-power above x.  As
 * bt_nimber_mul for the errors.
 */
BT_API bt_status bt_nimber_sqrt(mpz_t r, const mpz_t x, const bt_limits *lim,
                                bt_diag *diag);

/* The 64-bit forms of the three above; bt_nimber_inv_u64(0) is 0. */
BT_API uint64_t bt_nimber_pow_u64(uint64_t x, uint64_t e);
BT_API uint64_t bt_nimber_inv_u64(uint64_t x);
BT_API uint64_t bt_nimber_sqrt_u64(uint64_t x);

/*
 * The multiplicative order of x != 0 below 2^64: the least n >= 1 with
 * x^n = 1.  It divides 2^64 - 1 = 3 * 5 * 17 * 257 * 641 * 65537 * 6700417
 * (the Fermat numbers 2^(2^i) + 1, i < 6, with F5 = 641 * 6700417), a
 * product of distinct primes, so the order is N divided by each prime p
 * with x^(N/p) = 1.  Returns 0 for x = 0.
 */
BT_API uint64_t bt_nimber_order_u64(uint64_t x);

/*
 * The discrete logarithm: sets *e to the least e >= 0 with g^e = x, for g,
 * x nimbers below 2^64 (Pohlig-Hellman over the prime factors of the order
 * of g, each solved by baby steps and giant steps: at most about 2 * 2589
 * products for the largest, 6700417).  BT_EINVAL when g or x is 0 (no
 * power of g is 0; 0 is no base); BT_EUNDEF when x is not a power of g
 * (x^m != 1 for m the order of g: the powers of g are the subgroup of
 * order m, the only one, the group being cyclic); the message says so.
 * On failure *e is unchanged.
 */
BT_API bt_status bt_nimber_log_u64(uint64_t *e, uint64_t g, uint64_t x,
                                   bt_diag *diag);

/*
 * The order and the logarithm for mpz_t operands: as the 64-bit forms,
 * and BT_ERANGE, with a message naming the operand, when one is 2^64 or
 * more (the factors of 2^(2^k) - 1 are not all known past k = 11, and
 * this library computes them for k <= 6 only); BT_EINVAL when negative
 * or, for the order, 0.
 */
BT_API bt_status bt_nimber_order(mpz_t r, const mpz_t x, bt_diag *diag);
BT_API bt_status bt_nimber_log(mpz_t r, const mpz_t g, const mpz_t x,
                               bt_diag *diag);

/*
 * The nim-product of a and b worked by hand, in lines of plain text (the
 * seeds' columns show the nim-sum so): a and b split into powers of 2,
 * each power of 2 into distinct Fermat 2-powers, each product of two
 * powers of 2 by Conway's rules (distinct Fermat 2-powers multiply
 * ordinarily; F * F = 3F/2), and the nim-sum of the partial products.  For
 * operands below 2^8 (BT_ELIMIT beyond: up to 64 lines of partial
 * products there, four times as many per added bit of both); BT_EINVAL
 * when negative.
 * *out is malloc'd (the caller frees it), NULL on failure.
 */
#define BT_NIMBER_EXPLAIN_BITS 8
BT_API bt_status bt_nimber_mul_explain(char **out, const mpz_t a,
                                       const mpz_t b, bt_diag *diag);

/*
 * Lenstra's excess m_p of the odd primes p up to pmax (OEIS A380496: 0, 0,
 * 1, 1, 0, 0, 4, ... for p = 3, 5, 7, 11, 13, 17, 19, ...).  In Conway's
 * field of ordinals below omega^(omega^omega) (the algebraic closure of
 * F_2), the p-th nim-power of omega^(omega^n), p the (n+1)-st odd prime,
 * is alpha_p = kappa_(f(p)) + m_p, f(p) the order of 2 mod p, kappa as
 * Lenstra defines it, m_p the least m >= 0 for which kappa_(f(p)) + m (a
 * nim-sum) is not a p-th power below omega^(omega^n) (Lenstra, "On the
 * algebraic closure of two", 1977; docs/nimbers.md sec. 5 has the method).
 *
 * Fills rows[0..*count) for p = 3, 5, 7, ... <= pmax in order, at most cap
 * of them: p, f(p), m_p and the exponent e_p (the field of kappa_(f(p))
 * and of what it needs has 2^(e_p) elements).  The cost grows with e_p
 * (about e_p^2.6 word operations; e_p reaches 102 180 at p = 263), so the
 * caller bounds it: lim->interrupt (BT_EINTR) and lim->max_memory
 * (BT_ELIMIT) are polled, and the rows finished before are kept in *count.
 * progress (may be NULL) is called with each row as it is finished, with
 * ud.  BT_ELIMIT for pmax above BT_NIMBER_EXCESS_PMAX or a field of more
 * than 2^(2^22) elements.  Deterministic: the random elements it draws come
 * from a fixed seed.
 */
#define BT_NIMBER_EXCESS_PMAX 1000
typedef struct bt_nimber_excess_row {
    unsigned p, f, m;
    unsigned long exponent;
} bt_nimber_excess_row;
typedef void bt_nimber_excess_fn(const bt_nimber_excess_row *row, void *ud);
BT_API bt_status bt_nimber_excess(bt_nimber_excess_row *rows, size_t cap,
                                  size_t *count, unsigned pmax,
                                  bt_nimber_excess_fn *progress, void *ud,
                                  const bt_limits *lim, bt_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
