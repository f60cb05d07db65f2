/*
 * nimber.c -- Nim's field: the nim-product at any size, powers, inverses,
 * square roots, and for nimbers below 2^64 orders and discrete logarithms.
 * Pure computation; the contract is include/bouton/nimber.h and the theory
 * docs/nimbers.md.
 *
 * Everything rests on one step of the tower (docs/nimbers.md, sec. 2): for
 * a Fermat 2-power T = 2^h (h = 2^m), the nimbers below T^2 are pairs
 * a = a1 T + a0 (a1, a0 < T, and a1 T is the ordinary product by Conway's
 * first rule), and T * T = T + c with c = T/2 (his second rule).  Hence
 *
 *     a * b = (p_m + p_0) T + (p_0 + p_2 * c),
 *     p_0 = a0 * b0,  p_2 = a1 * b1,  p_m = (a0 + a1) * (b0 + b1),
 *
 * three half-size products and one by the constant c (Karatsuba's trick;
 * + is the nim-sum).  The 64-bit product has two fast forms: carry-less
 * multiplication after a change of basis (x86-64 with PCLMULQDQ), and the
 * tower over log and exp tables of the field of order 256 (elsewhere).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NIM_CLMUL 1
#include <immintrin.h>
#endif

/* ------------------------------------------------ the plain recursion */

/*
 * The product of a, b < 2^bits (bits a power of 2, at most 64) by the
 * tower step above, down to single bits: the reference from which the
 * tables are built.  3^6 = 729 leaves for 64 bits.
 */
static uint64_t
mul_plain(uint64_t a, uint64_t b, unsigned bits)
{
    unsigned h;
    uint64_t mask, a0, a1, b0, b1, p0, p2, pm;
    if (bits == 1)
        return a & b;
    h = bits / 2;
    mask = ((uint64_t)1 << h) - 1;
    a0 = a & mask, a1 = a >> h, b0 = b & mask, b1 = b >> h;
    p0 = mul_plain(a0, b0, h);
    p2 = mul_plain(a1, b1, h);
    pm = mul_plain(a0 ^ a1, b0 ^ b1, h);
    return ((pm ^ p0) << h) | (p0 ^ mul_plain(p2, (uint64_t)1 << (h - 1), h));
}

/* ---------------------------------------------------------- the tables */

/*
 * The field of order 256 by logarithms to a generator: lg[x] its log
 * (0..254) and lg[0] = 768, ex[i] = gen^(i mod 255) for i < 768 and 0
 * beyond, so that ex[lg[a] + lg[b]] and ex[lg[a] + lg[b] + lg[c]] are
 * a * b and a * b * c with no test for 0: a sum of three logs of non-zero
 * bytes is at most 762, one that involves lg[0] at least 768, and any
 * below 768 + 768 + 254 < 2048.
 */
static uint16_t lg[256];
static uint8_t ex[2048];
static uint16_t lg_c8;                /* lg[128]: the constant of 16 bits */
static uint16_t c16[2][256];          /* x * 2^15, x < 2^16, by bytes */
static uint32_t c32[4][256];          /* x * 2^31, x < 2^32, by bytes */
static uint64_t sqrt_bit[64];         /* the square root of 2^i */
/* x * 2^63 for x < 2^64, by bytes: the constant of the step from one word
   to two (a linear map of x, as every product by a constant is) */
static uint64_t c64[8][256];

#ifdef NIM_CLMUL
/*
 * The change of basis (docs/nimbers.md, sec. 4): g = 2^32 lies in no
 * proper subfield of the field of order 2^64, so 1, g, ..., g^63 is a
 * basis and x -> g is an isomorphism from GF(2)[x]/(P) onto it, P the
 * minimal polynomial of g, x^64 + P0.  to_poly and from_poly are the two
 * linear maps by bytes; mu0 is Barrett's constant floor(x^128 / P) - x^64.
 */
static uint64_t to_poly[8][256], from_poly[8][256];
static uint64_t poly_p0, poly_mu0;
static int have_clmul;
/* The same two maps as 8 x 8 bit-matrix blocks for GF2P8AFFINEQB:
   to_mat[i][L] carries byte i of the input to byte L of the image (row r
   of the block in byte 7 - r, as the instruction reads it). */
static uint64_t to_mat[8][8], from_mat[8][8];
static int have_gfni;
#endif

static atomic_int tables_ready;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

#define BYTES8(t, x)                                                        \
    ((t)[0][(x) & 255] ^ (t)[1][(x) >> 8 & 255] ^ (t)[2][(x) >> 16 & 255] ^ \
     (t)[3][(x) >> 24 & 255] ^ (t)[4][(x) >> 32 & 255] ^                    \
     (t)[5][(x) >> 40 & 255] ^ (t)[6][(x) >> 48 & 255] ^ (t)[7][(x) >> 56])

/* Fills t[k][x] = the image of byte x at byte k under the linear map with
   column images col[0..63]. */
static void
fill_bytes64(uint64_t t[8][256], const uint64_t *col)
{
    unsigned k, x, i;
    for (k = 0; k < 8; k++)
        for (x = 0; x < 256; x++) {
            uint64_t v = 0;
            for (i = 0; i < 8; i++)
                if (x >> i & 1)
                    v ^= col[8 * k + i];
            t[k][x] = v;
        }
}

#ifdef NIM_CLMUL
/*
 * Inverts the 64 x 64 matrix over GF(2) whose column i is col[i] (bit j of
 * col[i] is row j): inv[i] receives column i of the inverse.  Gauss-Jordan
 * on the rows; the matrix is invertible (its columns are a basis).
 */
static void
invert64(uint64_t *inv, const uint64_t *col)
{
    uint64_t row[64], irow[64], t;
    unsigned i, j, p;
    for (j = 0; j < 64; j++) {
        row[j] = 0;
        for (i = 0; i < 64; i++)
            row[j] |= (col[i] >> j & 1) << i;
        irow[j] = (uint64_t)1 << j;
    }
    for (i = 0; i < 64; i++) {
        for (p = i; p < 64 && !(row[p] >> i & 1); p++)
            ;
        t = row[i], row[i] = row[p], row[p] = t;
        t = irow[i], irow[i] = irow[p], irow[p] = t;
        for (j = 0; j < 64; j++)
            if (j != i && (row[j] >> i & 1)) {
                row[j] ^= row[i];
                irow[j] ^= irow[i];
            }
    }
    for (i = 0; i < 64; i++) {
        inv[i] = 0;
        for (j = 0; j < 64; j++)
            inv[i] |= (irow[j] >> i & 1) << j;
    }
}

#endif

static uint64_t pow_with(uint64_t x, uint64_t e,
                         uint64_t (*mul)(uint64_t, uint64_t));
static uint64_t mul64_tab(uint64_t a, uint64_t b);

static uint64_t
mul64_plain(uint64_t a, uint64_t b)
{
    return mul_plain(a, b, 64);
}

static void
build_tables(void)
{
    unsigned x, i, k, gen;
    uint64_t col[64];
    /* a generator of the multiplicative group of order 255 = 3 * 5 * 17 */
    for (gen = 2;; gen++)
        if (pow_with(gen, 85, mul64_plain) != 1 &&
            pow_with(gen, 51, mul64_plain) != 1 &&
            pow_with(gen, 15, mul64_plain) != 1)
            break;
    {
        uint64_t v = 1;
        for (i = 0; i < sizeof ex; i++) {
            ex[i] = (uint8_t)(i < 768 ? v : 0);
            if (i < 255)
                lg[v] = (uint16_t)i;
            v = mul_plain(v, gen, 8);
        }
        lg[0] = 768;
    }
    lg_c8 = lg[128];
    for (k = 0; k < 2; k++)
        for (x = 0; x < 256; x++)
            c16[k][x] = (uint16_t)mul_plain((uint64_t)x << (8 * k),
                                            (uint64_t)1 << 15, 16);
    for (k = 0; k < 4; k++)
        for (x = 0; x < 256; x++)
            c32[k][x] = (uint32_t)mul_plain((uint64_t)x << (8 * k),
                                            (uint64_t)1 << 31, 32);
    for (i = 0; i < 64; i++)
        sqrt_bit[i] =
            pow_with((uint64_t)1 << i, (uint64_t)1 << 63, mul64_tab);
    for (i = 0; i < 64; i++)
        col[i] = mul64_tab((uint64_t)1 << i, (uint64_t)1 << 63);
    fill_bytes64(c64, col);
#ifdef NIM_CLMUL
    {
        uint64_t inv[64], g64, rem[3], q;
        int bit;
        col[0] = 1;
        for (i = 1; i < 64; i++)
            col[i] = mul64_tab(col[i - 1], (uint64_t)1 << 32);
        g64 = mul64_tab(col[63], (uint64_t)1 << 32);
        invert64(inv, col);
        fill_bytes64(from_poly, col);
        fill_bytes64(to_poly, inv);
        /* P0: g^64 in the basis of powers of g */
        poly_p0 = 0;
        for (i = 0; i < 64; i++)
            if (g64 >> i & 1)
                poly_p0 ^= inv[i];
        /* Barrett's mu: the quotient of x^128 by P = x^64 + P0, bit by
           bit from x^128 down to x^64 (three words of remainder) */
        rem[0] = rem[1] = 0, rem[2] = 1;
        q = 0;
        for (bit = 128; bit >= 64; bit--) {
            unsigned s = (unsigned)(bit - 64); /* P shifted by s */
            if (!(rem[bit / 64] >> (bit % 64) & 1))
                continue;
            if (s < 64)
                q |= (uint64_t)1 << s;
            /* rem ^= (x^64 + P0) << s */
            rem[(64 + s) / 64] ^= (uint64_t)1 << ((64 + s) % 64);
            rem[s / 64] ^= poly_p0 << (s % 64);
            if (s % 64)
                rem[s / 64 + 1] ^= poly_p0 >> (64 - s % 64);
        }
        poly_mu0 = q; /* the quotient is x^64 + q: bit 64 came first */
        have_clmul = __builtin_cpu_supports("pclmul") &&
                     __builtin_cpu_supports("sse4.1");
        for (i = 0; i < 8; i++) {
            unsigned L, r, kk;
            for (L = 0; L < 8; L++) {
                uint64_t mt = 0, mf = 0;
                for (r = 0; r < 8; r++) {
                    unsigned bt = 0, bf = 0;
                    for (kk = 0; kk < 8; kk++) {
                        bt |= (unsigned)(to_poly[i][1u << kk] >>
                                             (8 * L + r) & 1)
                              << kk;
                        bf |= (unsigned)(from_poly[i][1u << kk] >>
                                             (8 * L + r) & 1)
                              << kk;
                    }
                    mt |= (uint64_t)bt << (8 * (7 - r));
                    mf |= (uint64_t)bf << (8 * (7 - r));
                }
                to_mat[i][L] = mt, from_mat[i][L] = mf;
            }
        }
        have_gfni = have_clmul && __builtin_cpu_supports("gfni") &&
                    __builtin_cpu_supports("avx512f") &&
                    __builtin_cpu_supports("avx512bw") &&
                    __builtin_cpu_supports("avx512vbmi");
    }
#endif
}

static void
tables_init(void)
{
    build_tables();
    atomic_store_explicit(&tables_ready, 1, memory_order_release);
}

static inline void
tables(void)
{
    if (!atomic_load_explicit(&tables_ready, memory_order_acquire))
        pthread_once(&tables_once, tables_init);
}

/* ------------------------------------------------- the table product */

static inline uint64_t
mul16_tab(uint64_t a, uint64_t b)
{
    unsigned a0 = (unsigned)a & 255, a1 = (unsigned)a >> 8;
    unsigned b0 = (unsigned)b & 255, b1 = (unsigned)b >> 8;
    unsigned p0 = ex[lg[a0] + lg[b0]];
    unsigned p2c = ex[lg[a1] + lg[b1] + lg_c8];
    unsigned pm = ex[lg[a0 ^ a1] + lg[b0 ^ b1]];
    return (uint64_t)(((pm ^ p0) << 8) | (p0 ^ p2c));
}

static inline uint64_t
mul32_tab(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xffff, a1 = a >> 16, b0 = b & 0xffff, b1 = b >> 16;
    uint64_t p0 = mul16_tab(a0, b0), p2 = mul16_tab(a1, b1);
    uint64_t pm = mul16_tab(a0 ^ a1, b0 ^ b1);
    return ((pm ^ p0) << 16) | (p0 ^ c16[0][p2 & 255] ^ c16[1][p2 >> 8]);
}

static uint64_t
mul64_tab(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xffffffff, a1 = a >> 32, b0 = b & 0xffffffff,
             b1 = b >> 32;
    uint64_t p0 = mul32_tab(a0, b0), p2 = mul32_tab(a1, b1);
    uint64_t pm = mul32_tab(a0 ^ a1, b0 ^ b1);
    uint64_t p2c = (uint64_t)c32[0][p2 & 255] ^ c32[1][p2 >> 8 & 255] ^
                   c32[2][p2 >> 16 & 255] ^ c32[3][p2 >> 24];
    return ((pm ^ p0) << 32) | (p0 ^ p2c);
}

/* ------------------------------------------- the carry-less product */

#ifdef NIM_CLMUL

/*
 * a * b in the polynomial basis: the 127-bit carry-less product H x^64 + L,
 * reduced by Barrett: q = H + floor(H mu0 / x^64) is the quotient by P
 * exactly (docs/nimbers.md, sec. 4), and the remainder L + (q P0 mod
 * x^64).  Three carry-less products, which take their halves from the
 * 128-bit registers directly (H, q in the high lanes: no moves to and
 * from general registers between them), and 24 byte lookups.
 */
__attribute__((target("pclmul,sse4.1"))) static inline uint64_t
mul64_clmul(uint64_t a, uint64_t b)
{
    uint64_t pa = BYTES8(to_poly, a), pb = BYTES8(to_poly, b), r;
    __m128i k = _mm_set_epi64x((long long)poly_p0, (long long)poly_mu0);
    __m128i c = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)pa),
                                     _mm_cvtsi64_si128((long long)pb), 0x00);
    __m128i q = _mm_xor_si128(c, _mm_clmulepi64_si128(c, k, 0x01));
    __m128i u = _mm_clmulepi64_si128(q, k, 0x11); /* q P0 */
    r = (uint64_t)_mm_cvtsi128_si64(_mm_xor_si128(c, u));
    return BYTES8(from_poly, r);
}
#endif

/*
 * The product callers get: the fastest form here, chosen once.  Until the
 * tables are built it is mul64_first, which builds them and then installs
 * the form; afterwards bt_nimber_mul_u64 is one indirect jump to it (the
 * pointer is read with acquire order, after the tables it needs).
 */
static uint64_t mul64_first(uint64_t a, uint64_t b);
typedef uint64_t (*mul64_fn)(uint64_t, uint64_t);
static _Atomic(mul64_fn) mul64_best = mul64_first;

static uint64_t
mul64_first(uint64_t a, uint64_t b)
{
    mul64_fn f = mul64_tab;
    tables();
#ifdef NIM_CLMUL
    if (have_clmul)
        f = mul64_clmul;
#endif
    atomic_store_explicit(&mul64_best, f, memory_order_release);
    return f(a, b);
}

uint64_t
bt_nimber_mul_u64(uint64_t a, uint64_t b)
{
    return atomic_load_explicit(&mul64_best, memory_order_acquire)(a, b);
}

uint64_t
bt__nimber_mul_u64_by(int which, uint64_t a, uint64_t b)
{
    tables();
    switch (which) {
    case 0:
        return mul64_tab(a, b);
#ifdef NIM_CLMUL
    case 1:
        return have_clmul ? mul64_clmul(a, b) : 0;
#endif
    case 2:
        return mul_plain(a, b, 64);
    default:
        return 0;
    }
}

/*
 * The batch form: r[i] = a[i] * b[i] for i < n.  The same products as n
 * calls of bt_nimber_mul_u64, without a call and an indirect jump each:
 * the carry-less form is inlined into the loop, where the processor
 * overlaps the independent products.
 */
#ifdef NIM_CLMUL
__attribute__((target("pclmul,sse4.1"))) static void
mul64_n_clmul(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        r[i] = mul64_clmul(a[i], b[i]);
}
#endif

/*
 * Eight at a time: a linear map of GF(2)^64 applied to eight words is
 * 64 blocks of 8 x 8 bits, each applied to the same byte of the eight
 * words.  Transposed (lane k = byte k of each word, one VPERMB), lane i
 * broadcast meets in lane L the block from byte i to byte L (one
 * GF2P8AFFINEQB for all L); the eight sums, transposed back, are the
 * images.  The carry-less product and Barrett's reduction between are as
 * in mul64_clmul, one word at a time.
 */
__attribute__((target("avx512f,avx512bw,avx512vbmi,gfni,pclmul,sse4.1")))
static inline __m512i
map8(__m512i x, const __m512i *mat, __m512i tr)
{
    __m512i t = _mm512_permutexvar_epi8(tr, x), acc;
    int i;
    acc = _mm512_gf2p8affine_epi64_epi8(
        _mm512_permutexvar_epi64(_mm512_set1_epi64(0), t), mat[0], 0);
    for (i = 1; i < 8; i++)
        acc = _mm512_xor_si512(
            acc, _mm512_gf2p8affine_epi64_epi8(
                     _mm512_permutexvar_epi64(_mm512_set1_epi64(i), t),
                     mat[i], 0));
    return _mm512_permutexvar_epi8(tr, acc);
}

__attribute__((target("avx512f,avx512bw,avx512vbmi,gfni,pclmul,sse4.1")))
static void
mul64_n_gfni(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
    __m512i tm[8], fm[8], tr;
    __m128i k = _mm_set_epi64x((long long)poly_p0, (long long)poly_mu0);
    uint8_t idx[64];
    uint64_t pa[8], pb[8], pr[8];
    size_t i;
    int j;
    for (j = 0; j < 64; j++)
        idx[j] = (uint8_t)(8 * (j % 8) + j / 8);
    tr = _mm512_loadu_si512(idx);
    for (j = 0; j < 8; j++) {
        tm[j] = _mm512_loadu_si512(to_mat[j]);
        fm[j] = _mm512_loadu_si512(from_mat[j]);
    }
    for (i = 0; i + 8 <= n; i += 8) {
        _mm512_storeu_si512(pa, map8(_mm512_loadu_si512(a + i), tm, tr));
        _mm512_storeu_si512(pb, map8(_mm512_loadu_si512(b + i), tm, tr));
        for (j = 0; j < 8; j++) {
            __m128i c = _mm_clmulepi64_si128(
                _mm_cvtsi64_si128((long long)pa[j]),
                _mm_cvtsi64_si128((long long)pb[j]), 0x00);
            __m128i q = _mm_xor_si128(c, _mm_clmulepi64_si128(c, k, 0x01));
            __m128i u = _mm_clmulepi64_si128(q, k, 0x11);
            pr[j] = (uint64_t)_mm_cvtsi128_si64(_mm_xor_si128(c, u));
        }
        _mm512_storeu_si512(r + i, map8(_mm512_loadu_si512(pr), fm, tr));
    }
    for (; i < n; i++)
        r[i] = mul64_clmul(a[i], b[i]);
}

void
bt_nimber_mul_u64_n(uint64_t *r, const uint64_t *a, const uint64_t *b,
                    size_t n)
{
    size_t i;
    tables();
#ifdef NIM_CLMUL
    if (have_gfni) {
        mul64_n_gfni(r, a, b, n);
        return;
    }
    if (have_clmul) {
        mul64_n_clmul(r, a, b, n);
        return;
    }
#endif
    for (i = 0; i < n; i++)
        r[i] = mul64_tab(a[i], b[i]);
}

/* ------------------------------------------ powers, inverses, roots */

static uint64_t
pow_with(uint64_t x, uint64_t e, uint64_t (*mul)(uint64_t, uint64_t))
{
    uint64_t r = 1;
    while (e) {
        if (e & 1)
            r = mul(r, x);
        e >>= 1;
        if (e)
            x = mul(x, x);
    }
    return r;
}

uint64_t
bt_nimber_pow_u64(uint64_t x, uint64_t e)
{
    return pow_with(x, e, bt_nimber_mul_u64);
}

/*
 * The inverse of x < 2^bits by the tower: for a = a1 T + a0, the other root
 * of t^2 + t + c is T + 1, so the conjugate of a is a1 T + (a0 + a1) and
 * a times it is the norm N = a0 (a0 + a1) + a1^2 c, in the half field; the
 * inverse is the conjugate times 1/N.
 */
static uint64_t
inv_bits(uint64_t x, unsigned bits)
{
    unsigned h;
    uint64_t mask, a0, a1, n, ni;
    if (bits == 1)
        return x;
    h = bits / 2;
    mask = ((uint64_t)1 << h) - 1;
    a0 = x & mask, a1 = x >> h;
    n = bt_nimber_mul_u64(a0, a0 ^ a1) ^
        bt_nimber_mul_u64(bt_nimber_mul_u64(a1, a1), (uint64_t)1 << (h - 1));
    ni = inv_bits(n, h);
    return (bt_nimber_mul_u64(a1, ni) << h) | bt_nimber_mul_u64(a0 ^ a1, ni);
}

uint64_t
bt_nimber_inv_u64(uint64_t x)
{
    return inv_bits(x, 64);
}

/* Squaring is linear over GF(2) (the Frobenius map), so is its inverse:
   the root of x is the nim-sum of the roots of its bits. */
uint64_t
bt_nimber_sqrt_u64(uint64_t x)
{
    uint64_t r = 0;
    unsigned i;
    tables();
    for (i = 0; x; i++, x >>= 1)
        if (x & 1)
            r ^= sqrt_bit[i];
    return r;
}

/* ------------------------------------------------- order and logarithm */

/* 2^64 - 1 = F0 F1 F2 F3 F4 F5, F_i = 2^(2^i) + 1, F5 = 641 * 6700417
   (Euler): seven distinct primes. */
static const uint64_t order_primes[7] = {3,   5,     17,     257,
                                         641, 65537, 6700417};

uint64_t
bt_nimber_order_u64(uint64_t x)
{
    uint64_t ord = UINT64_MAX;
    unsigned i;
    if (x == 0)
        return 0;
    for (i = 0; i < 7; i++)
        if (bt_nimber_pow_u64(x, ord / order_primes[i]) == 1)
            ord /= order_primes[i];
    return ord;
}

typedef struct {
    uint64_t v;
    uint32_t j;
} baby;

static int
baby_cmp(const void *pa, const void *pb)
{
    const baby *a = pa, *b = pb;
    return a->v < b->v ? -1 : a->v > b->v;
}

/* The e in [0, p) with g^e = x, g of prime order p and x a power of g, by
   baby steps g^j (j < m) and giant steps x g^(-m i): m = ceil(sqrt p). */
static bt_status
log_prime(uint64_t *e, uint64_t g, uint64_t x, uint64_t p, bt_diag *diag)
{
    uint64_t m = 1, v, step, i;
    baby *tab, key, *hit;
    while (m * m < p)
        m++;
    tab = malloc(m * sizeof *tab);
    if (tab == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    for (v = 1, i = 0; i < m; i++) {
        tab[i].v = v, tab[i].j = (uint32_t)i;
        v = bt_nimber_mul_u64(v, g);
    }
    qsort(tab, m, sizeof *tab, baby_cmp);
    step = bt_nimber_inv_u64(v); /* g^(-m) */
    for (v = x, i = 0; i <= m; i++) {
        key.v = v;
        hit = bsearch(&key, tab, m, sizeof *tab, baby_cmp);
        if (hit) {
            *e = (i * m + hit->j) % p;
            free(tab);
            return BT_OK;
        }
        v = bt_nimber_mul_u64(v, step);
    }
    free(tab);
    /* unreachable when x is a power of g: the caller checked it */
    return bt__fail(diag, BT_EUNDEF, "no logarithm of order %llu found",
                    (unsigned long long)p);
}

bt_status
bt_nimber_log_u64(uint64_t *e, uint64_t g, uint64_t x, bt_diag *diag)
{
    uint64_t m, r = 0, mod = 1, ep = 0, t, inv, k, q;
    unsigned i;
    bt_status st;
    if (g == 0)
        return bt__fail(diag, BT_EINVAL, "the base 0 has no powers but 0 "
                                         "and 1: no logarithm to base 0");
    if (x == 0)
        return bt__fail(diag, BT_EINVAL,
                        "0 is no power of a nimber: it has no logarithm");
    m = bt_nimber_order_u64(g);
    if (bt_nimber_pow_u64(x, m) != 1)
        return bt__fail(diag, BT_EUNDEF,
                        "%llu is not a power of %llu: its order does not "
                        "divide %llu, the order of %llu",
                        (unsigned long long)x, (unsigned long long)g,
                        (unsigned long long)m, (unsigned long long)g);
    /* Pohlig-Hellman: e mod p from g^(m/p) and x^(m/p), then the Chinese
       remainders (m is squarefree) */
    for (i = 0; i < 7; i++) {
        uint64_t p = order_primes[i];
        if (m % p)
            continue;
        st = log_prime(&ep, bt_nimber_pow_u64(g, m / p),
                       bt_nimber_pow_u64(x, m / p), p, diag);
        if (st != BT_OK)
            return st;
        /* r += mod * ((ep - r) / mod mod p), all below mod * p <= m */
        t = (ep + p - r % p) % p;
        for (inv = 1, k = mod % p, q = p - 2; q; q >>= 1) {
            if (q & 1) /* mod^(p-2) = 1/mod modulo p (Fermat) */
                inv = inv * k % p;
            k = k * k % p;
        }
        r += mod * ((t * inv) % p);
        mod *= p;
    }
    *e = r;
    return BT_OK;
}

/* ------------------------------------------------------- any size */

/*
 * Nimbers of any size as arrays of n 64-bit words, n a power of 2 (the
 * field of order 2^(64 n)), least significant first.  The recursions take
 * a scratch area (mul: 5n words, the constant: 3n) and poll the budget at
 * the larger sizes; after a failure (ctx->st) they return at once.
 */
typedef struct {
    bt__budget *budget;
    const bt_limits *lim;
    bt_diag *diag;
    bt_status st;
} nctx;

#define POLL_WORDS 16

static int
nctx_poll(nctx *c, size_t n)
{
    if (c->st == BT_OK && n >= POLL_WORDS)
        c->st = bt__budget_check(c->budget, c->lim, c->diag);
    return c->st != BT_OK;
}

static void
xorw(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        r[i] = a[i] ^ b[i];
}

/*
 * r = x * C_n, C_n = 2^(64n - 1), the constant of the step from n to 2n
 * words (c above).  C_n = T * C_h for T = 2^(64h), h = n/2 (C_h < T, the
 * first rule), so with x = x1 T + x0:
 *   x * T C_h = x1 C_h (T + C_h) + x0 C_h T
 *             = ((x0 + x1) C_h) T + (x1 C_h) C_h.
 * r may alias x.
 */
static void
mulc(nctx *c, uint64_t *r, const uint64_t *x, size_t n, uint64_t *s)
{
    size_t h = n / 2;
    if (n == 1) {
        r[0] = BYTES8(c64, x[0]);
        return;
    }
    if (nctx_poll(c, n))
        return;
    xorw(s, x, x + h, h);
    mulc(c, s, s, h, s + 2 * h);     /* (x0 + x1) C_h */
    mulc(c, s + h, x + h, h, s + 2 * h); /* x1 C_h */
    memcpy(r + h, s, h * sizeof *r);
    mulc(c, r, s + h, h, s + 2 * h);
}

/* r = a * b (n words each); r may alias a or b. */
static void
mulw(nctx *c, uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n,
     uint64_t *s)
{
    size_t h = n / 2;
    uint64_t *sa = s, *sb = s + h, *p0 = s + 2 * h, *p2 = s + 3 * h,
             *pm = s + 4 * h, *rest = s + 5 * h;
    if (n == 1) {
        r[0] = bt_nimber_mul_u64(a[0], b[0]);
        return;
    }
    if (nctx_poll(c, n))
        return;
    xorw(sa, a, a + h, h);
    xorw(sb, b, b + h, h);
    mulw(c, p0, a, b, h, rest);
    mulw(c, p2, a + h, b + h, h, rest);
    mulw(c, pm, sa, sb, h, rest);
    mulc(c, p2, p2, h, rest);
    xorw(r + h, pm, p0, h);
    xorw(r, p0, p2, h);
}

/* r = the inverse of x (n words, x != 0); by the norm, as inv_bits.
   Scratch: 3n + that of mulw (5h) words. */
static void
invw(nctx *c, uint64_t *r, const uint64_t *x, size_t n, uint64_t *s)
{
    size_t h = n / 2;
    uint64_t *t = s, *nrm = s + h, *ni = s + 2 * h, *rest = s + 3 * h;
    if (n == 1) {
        r[0] = bt_nimber_inv_u64(x[0]);
        return;
    }
    if (nctx_poll(c, n))
        return;
    xorw(t, x, x + h, h);               /* a0 + a1 */
    mulw(c, nrm, x + h, x + h, h, rest); /* a1^2 */
    mulc(c, nrm, nrm, h, rest);          /* a1^2 c */
    mulw(c, ni, x, t, h, rest);          /* a0 (a0 + a1) */
    xorw(nrm, nrm, ni, h);
    invw(c, ni, nrm, h, rest);
    mulw(c, r + h, x + h, ni, h, rest);
    mulw(c, r, t, ni, h, rest);
}

/* r = the square root of x (n words): with y = y1 T + y0, y^2 =
   y1^2 T + (y0^2 + y1^2 c), so y1 = sqrt(x1), y0 = sqrt(x0 + x1 c).
   r may alias x. */
static void
sqrtw(nctx *c, uint64_t *r, const uint64_t *x, size_t n, uint64_t *s)
{
    size_t h = n / 2;
    if (n == 1) {
        r[0] = bt_nimber_sqrt_u64(x[0]);
        return;
    }
    if (nctx_poll(c, n))
        return;
    mulc(c, s, x + h, h, s + h);
    xorw(s, s, x, h);
    sqrtw(c, r + h, x + h, h, s + h);
    sqrtw(c, r, s, h, s + h);
}

/* The words of the field holding x and y: the least power of 2 n with
   both below 2^(64 n). */
static size_t
field_words(const mpz_t x, const mpz_t y)
{
    size_t bits = mpz_sizeinbase(x, 2), n = 1;
    if (mpz_sizeinbase(y, 2) > bits)
        bits = mpz_sizeinbase(y, 2);
    while (64 * n < bits)
        n *= 2;
    return n;
}

/* The bits of the least field holding x: the least 2^k >= its bits. */
static size_t
field_bits(const mpz_t x)
{
    size_t bits = mpz_sizeinbase(x, 2), f = 1;
    while (f < bits)
        f *= 2;
    return f;
}

static void
to_words(uint64_t *w, size_t n, const mpz_t x)
{
    memset(w, 0, n * sizeof *w);
    mpz_export(w, NULL, -1, sizeof *w, 0, 0, x);
}

static void
from_words(mpz_t r, const uint64_t *w, size_t n)
{
    mpz_import(r, n, -1, sizeof *w, 0, 0, w);
}

/* The operands' checks and the work space of n words, charged. */
static bt_status
begin(nctx *c, bt__budget *b, uint64_t **ws, size_t words,
      const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    /* the tables before any step: mulc() reads them directly, and a
       square root reaches it before any 64-bit product would build them */
    tables();
    c->budget = b, c->lim = lim, c->diag = diag, c->st = BT_OK;
    bt__budget_init(b, lim);
    if (words > SIZE_MAX / 16)
        return bt__fail(diag, BT_ELIMIT, "the nimbers are too large");
    if ((st = bt__budget_charge(b, words * sizeof **ws, diag)) != BT_OK)
        return st;
    *ws = malloc(words * sizeof **ws);
    if (*ws == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    return BT_OK;
}

static bt_status
check2(const mpz_t a, const char *an, const mpz_t b, const char *bn,
       const bt_limits *lim, bt_diag *diag)
{
    bt_status st = bt__check_number(a, lim, an, diag);
    if (st == BT_OK && b != NULL)
        st = bt__check_number(b, lim, bn, diag);
    return st;
}

bt_status
bt_nimber_mul(mpz_t r, const mpz_t a, const mpz_t b, const bt_limits *lim,
              bt_diag *diag)
{
    nctx c;
    bt__budget bud, *prev;
    uint64_t *ws = NULL;
    size_t n;
    bt_status st;
    lim = bt__limits(lim);
    if ((st = check2(a, "the first factor", b, "the second factor", lim,
                     diag)) != BT_OK)
        return st;
    if (mpz_sizeinbase(a, 2) <= 64 && mpz_sizeinbase(b, 2) <= 64) {
        uint64_t w[2];
        to_words(w, 1, a);
        to_words(w + 1, 1, b);
        w[0] = bt_nimber_mul_u64(w[0], w[1]);
        from_words(r, w, 1);
        return BT_OK;
    }
    n = field_words(a, b);
    if ((st = begin(&c, &bud, &ws, 8 * n, lim, diag)) != BT_OK)
        goto cleanup;
    prev = bt__budget_enter(&bud);
    to_words(ws, n, a);
    to_words(ws + n, n, b);
    mulw(&c, ws, ws, ws + n, n, ws + 2 * n);
    if ((st = c.st) == BT_OK)
        st = bt__budget_check(&bud, lim, diag);
    if (st == BT_OK)
        from_words(r, ws, n);
    bt__budget_leave(prev);
cleanup:
    free(ws);
    return st;
}

/* r = op(x) for a one-operand step (inverse, root), x checked: x in the
   first n words of the work space, op's result in the next n, its
   scratch (scratch * n words) after them. */
typedef void unary_step(nctx *c, uint64_t *r, const uint64_t *x, size_t n,
                        uint64_t *s);

static bt_status
unary(mpz_t r, const mpz_t x, unary_step *op, size_t scratch,
      const bt_limits *lim, bt_diag *diag)
{
    nctx c;
    bt__budget bud, *prev;
    uint64_t *ws = NULL;
    size_t n;
    bt_status st;
    n = field_words(x, x);
    if ((st = begin(&c, &bud, &ws, 2 * n + scratch * n, lim, diag)) != BT_OK)
        goto cleanup;
    prev = bt__budget_enter(&bud);
    to_words(ws, n, x);
    op(&c, ws + n, ws, n, ws + 2 * n);
    if ((st = c.st) == BT_OK)
        st = bt__budget_check(&bud, lim, diag);
    if (st == BT_OK)
        from_words(r, ws + n, n);
    bt__budget_leave(prev);
cleanup:
    free(ws);
    return st;
}

bt_status
bt_nimber_inv(mpz_t r, const mpz_t x, const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    lim = bt__limits(lim);
    if ((st = check2(x, "the nimber to invert", NULL, NULL, lim, diag)) !=
        BT_OK)
        return st;
    if (mpz_sgn(x) == 0)
        return bt__fail(diag, BT_EINVAL, "0 has no inverse");
    /* invw: 3n words and mulw's 5h */
    return unary(r, x, invw, 8, lim, diag);
}

bt_status
bt_nimber_sqrt(mpz_t r, const mpz_t x, const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    lim = bt__limits(lim);
    if ((st = check2(x, "the nimber under the root", NULL, NULL, lim,
                     diag)) != BT_OK)
        return st;
    /* sqrtw: h words a level and mulc's */
    return unary(r, x, sqrtw, 5, lim, diag);
}

bt_status
bt_nimber_pow(mpz_t r, const mpz_t x, const mpz_t e, const bt_limits *lim,
              bt_diag *diag)
{
    nctx c;
    bt__budget bud, *prev = NULL;
    uint64_t *ws = NULL, *acc, *base, *s;
    size_t n, fb, i, nbits;
    mpz_t ee, ord;
    bt_status st;
    int entered = 0;
    lim = bt__limits(lim);
    if ((st = check2(x, "the nimber raised to a power", NULL, NULL, lim,
                     diag)) != BT_OK)
        return st;
    if (mpz_sizeinbase(e, 10) > lim->max_digits + 1)
        return bt__fail(diag, BT_ELIMIT,
                        "the exponent has more than %zu digits (the "
                        "max_digits limit)",
                        lim->max_digits);
    if (mpz_sgn(x) == 0) {
        if (mpz_sgn(e) < 0)
            return bt__fail(diag, BT_EINVAL,
                            "0 has no inverse: a negative power of 0 is "
                            "undefined");
        mpz_set_ui(r, mpz_sgn(e) == 0);
        return BT_OK;
    }
    /* x^(2^f - 1) = 1 in the field of 2^f elements holding x (Lagrange):
       e counts modulo 2^f - 1, and a negative e becomes its residue */
    fb = field_bits(x);
    mpz_init(ee);
    mpz_init(ord);
    mpz_ui_pow_ui(ord, 2, fb);
    mpz_sub_ui(ord, ord, 1);
    mpz_fdiv_r(ee, e, ord);
    if (fb <= 64) {
        uint64_t w[2];
        to_words(w, 1, x);
        to_words(w + 1, 1, ee);
        w[0] = bt_nimber_pow_u64(w[0], w[1]);
        from_words(r, w, 1);
        st = BT_OK;
        goto cleanup;
    }
    n = fb / 64;
    if ((st = begin(&c, &bud, &ws, 7 * n, lim, diag)) != BT_OK)
        goto cleanup;
    prev = bt__budget_enter(&bud);
    entered = 1;
    acc = ws, base = ws + n, s = ws + 2 * n;
    memset(acc, 0, n * sizeof *acc);
    acc[0] = 1;
    to_words(base, n, x);
    nbits = mpz_sizeinbase(ee, 2);
    for (i = nbits; i-- > 0 && c.st == BT_OK;) {
        mulw(&c, acc, acc, acc, n, s);
        if (mpz_tstbit(ee, i))
            mulw(&c, acc, acc, base, n, s);
        if (c.st == BT_OK)
            c.st = bt__budget_check(&bud, lim, diag);
    }
    if ((st = c.st) == BT_OK)
        from_words(r, acc, n);
cleanup:
    if (entered)
        bt__budget_leave(prev);
    free(ws);
    mpz_clear(ee);
    mpz_clear(ord);
    return st;
}

/* The 64-bit value of x, or BT_ERANGE / BT_EINVAL naming it. */
static bt_status
small(uint64_t *v, const mpz_t x, const char *what, bt_diag *diag)
{
    if (mpz_sgn(x) < 0)
        return bt__fail(diag, BT_EINVAL, "%s is negative", what);
    if (mpz_sizeinbase(x, 2) > 64)
        return bt__fail(diag, BT_ERANGE,
                        "%s is 2^64 or more: orders and logarithms are "
                        "computed below 2^64 only",
                        what);
    to_words(v, 1, x);
    return BT_OK;
}

bt_status
bt_nimber_order(mpz_t r, const mpz_t x, bt_diag *diag)
{
    uint64_t v;
    bt_status st = small(&v, x, "the nimber whose order is asked", diag);
    if (st != BT_OK)
        return st;
    if (v == 0)
        return bt__fail(diag, BT_EINVAL,
                        "0 has no multiplicative order (no power of 0 is 1)");
    v = bt_nimber_order_u64(v);
    from_words(r, &v, 1);
    return BT_OK;
}

bt_status
bt_nimber_log(mpz_t r, const mpz_t g, const mpz_t x, bt_diag *diag)
{
    uint64_t vg, vx, e;
    bt_status st = small(&vg, g, "the base of the logarithm", diag);
    if (st == BT_OK)
        st = small(&vx, x, "the nimber whose logarithm is asked", diag);
    if (st == BT_OK)
        st = bt_nimber_log_u64(&e, vg, vx, diag);
    if (st == BT_OK)
        from_words(r, &e, 1);
    return st;
}

/* ---------------------------------------------------- the explanation */

/* Appends the Fermat 2-powers whose product is 2^i: 2^(2^k) for each bit
   k of i ("2*4*16"; "1" for i = 0). */
static void
put_fermat(bt__buf *b, unsigned i)
{
    unsigned k, first = 1;
    if (i == 0) {
        bt__buf_puts(b, "1");
        return;
    }
    for (k = 0; i >> k; k++)
        if (i >> k & 1) {
            bt__buf_printf(b, "%s%lu", first ? "" : "*", 1ul << (1u << k));
            first = 0;
        }
}

bt_status
bt_nimber_mul_explain(char **out, const mpz_t a, const mpz_t b,
                      bt_diag *diag)
{
    bt__buf t;
    uint64_t va, vb, total = 0;
    unsigned i, j, k;
    int first;
    *out = NULL;
    if (mpz_sgn(a) < 0 || mpz_sgn(b) < 0)
        return bt__fail(diag, BT_EINVAL, "the %s factor is negative",
                        mpz_sgn(a) < 0 ? "first" : "second");
    if (mpz_sizeinbase(a, 2) > BT_NIMBER_EXPLAIN_BITS ||
        mpz_sizeinbase(b, 2) > BT_NIMBER_EXPLAIN_BITS)
        return bt__fail(diag, BT_ELIMIT,
                        "products are explained for factors below 2^%d "
                        "only",
                        BT_NIMBER_EXPLAIN_BITS);
    va = mpz_get_ui(a), vb = mpz_get_ui(b);
    bt__buf_init(&t);
    bt__buf_printf(&t,
                   "%llu * %llu by Conway's rules, F a Fermat 2-power "
                   "(2, 4, 16, 256, ...):\n"
                   "  x * F = xF (ordinary) when x < F, F * F = 3F/2, "
                   "and * distributes over + (the nim-sum).\n",
                   (unsigned long long)va, (unsigned long long)vb);
    for (k = 0; k < 2; k++) {
        uint64_t v = k ? vb : va;
        bt__buf_printf(&t, "  %llu =", (unsigned long long)v);
        if (v == 0)
            bt__buf_puts(&t, " 0");
        for (first = 1, i = BT_NIMBER_EXPLAIN_BITS; i-- > 0;)
            if (v >> i & 1) {
                bt__buf_printf(&t, "%s %llu", first ? "" : " +",
                               (unsigned long long)1 << i);
                first = 0;
            }
        bt__buf_puts(&t, " (powers of 2)\n");
    }
    for (i = BT_NIMBER_EXPLAIN_BITS; i-- > 0;) {
        if (!(va >> i & 1))
            continue;
        for (j = BT_NIMBER_EXPLAIN_BITS; j-- > 0;) {
            uint64_t p, d, sq = 1;
            unsigned common = i & j;
            if (!(vb >> j & 1))
                continue;
            p = bt_nimber_mul_u64((uint64_t)1 << i, (uint64_t)1 << j);
            total ^= p;
            bt__buf_printf(&t, "  %llu * %llu", (unsigned long long)1 << i,
                           (unsigned long long)1 << j);
            if (common == 0) {
                if (i && j) {
                    bt__buf_puts(&t, " = ");
                    put_fermat(&t, i);
                    bt__buf_puts(&t, "*");
                    put_fermat(&t, j);
                }
                bt__buf_printf(&t, " = %llu", (unsigned long long)p);
                bt__buf_puts(&t, i && j ? "   (distinct Fermat 2-powers: "
                                          "the ordinary product)\n"
                                        : "\n");
                continue;
            }
            /* 2^i * 2^j = 2^(i xor j) * product of F*F over the common
               Fermat 2-powers F */
            d = (uint64_t)1 << (i ^ j);
            bt__buf_puts(&t, " = ");
            if (i ^ j) {
                put_fermat(&t, i ^ j);
                bt__buf_puts(&t, " * ");
            }
            for (first = 1, k = 0; common >> k; k++)
                if (common >> k & 1) {
                    unsigned long f = 1ul << (1u << k);
                    bt__buf_printf(&t, "%s(%lu*%lu)", first ? "" : "*", f,
                                   f);
                    first = 0;
                }
            if ((i ^ j) == 0 && (common & (common - 1)) == 0) {
                bt__buf_printf(&t, " = %llu   (F*F = 3F/2)\n",
                               (unsigned long long)p);
                continue;
            }
            bt__buf_puts(&t, " = ");
            if (i ^ j)
                bt__buf_printf(&t, "%llu * ", (unsigned long long)d);
            for (first = 1, k = 0; common >> k; k++)
                if (common >> k & 1) {
                    unsigned long f = 1ul << (1u << k);
                    bt__buf_printf(&t, "%s%lu", first ? "" : "*",
                                   f + f / 2);
                    sq = bt_nimber_mul_u64(sq, f + f / 2);
                    first = 0;
                }
            if ((i ^ j) && (common & (common - 1)) != 0)
                bt__buf_printf(&t, " = %llu * %llu", (unsigned long long)d,
                               (unsigned long long)sq);
            bt__buf_printf(&t, " = %llu   (F*F = 3F/2)\n",
                           (unsigned long long)p);
        }
    }
    bt__buf_printf(&t, "  %llu * %llu = ", (unsigned long long)va,
                   (unsigned long long)vb);
    if (va == 0 || vb == 0)
        bt__buf_puts(&t, "0");
    else {
        for (first = 1, i = BT_NIMBER_EXPLAIN_BITS; i-- > 0;)
            for (j = BT_NIMBER_EXPLAIN_BITS; j-- > 0;)
                if ((va >> i & 1) && (vb >> j & 1)) {
                    bt__buf_printf(
                        &t, "%s%llu", first ? "" : " + ",
                        (unsigned long long)bt_nimber_mul_u64(
                            (uint64_t)1 << i, (uint64_t)1 << j));
                    first = 0;
                }
        if (!first && (va & (va - 1) || vb & (vb - 1)))
            bt__buf_printf(&t, " = %llu", (unsigned long long)total);
    }
    bt__buf_puts(&t, "\n");
    *out = bt__buf_take(&t);
    if (*out == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    return BT_OK;
}

int
bt__nimber_has_clmul(void)
{
    tables();
#ifdef NIM_CLMUL
    return have_clmul;
#else
    return 0;
#endif
}
