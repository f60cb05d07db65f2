/*
 * sequence_simd.c -- the check of the rare-value method in AVX-512 (see
 * the top of sequence.c and confirm_scan in sequence_rare.c), for the CPUs
 * that have it; the others, and every value of 1024 or more, take the
 * portable scan.  Same answers: a kernel changes the time only.
 *
 * The check looks for each value still needed (rare values below the
 * least common value missing) among the pairs G(a) XOR G(rest - a) of the
 * splits.  The portable scan marks every pair's value in a byte table and
 * then drops the values found: about a cycle a pair, and the check is half
 * of Officers' time on one thread (perf; bench/README.md).  Here the
 * values still needed are a bitmap of 1024 bits in two registers, as 64
 * words of 16 bits; 32 pairs are formed in one register (a load from each
 * end, the upper one reversed), and each pair's value v is tested in the
 * bitmap by one permutation (vpermi2w: word v >> 4 of the two registers,
 * for 32 lanes at once) and one shift by v & 15.  A lane that hits is
 * rare past the first blocks; it is then checked and dropped one by one.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engines/sequence_impl.h"

#if defined(__GNUC__) && defined(__x86_64__) && !defined(BOUTON_NO_SIMD)
#define SCAN_BLOCK 256 /* pairs a split and round (the portable scan's
                          rounds interleave the splits the same way) */
#include <immintrin.h>
#include <pthread.h>

#define AVX512 __attribute__((target("avx512f,avx512bw")))

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int have_avx512;   /* the CPU has it */
static int avx512_off;    /* tests: the portable scan only */

static void
probe(void)
{
    __builtin_cpu_init();
    have_avx512 = __builtin_cpu_supports("avx512f") &&
                  __builtin_cpu_supports("avx512bw");
}

int
bt__seq_simd(void)
{
    pthread_once(&probe_once, probe);
    return have_avx512 && !avx512_off;
}

void
bt__seq_simd_disable(int off)
{
    avx512_off = off;
}

/* G(i .. i+31) in 32 lanes of 16 bits. */
AVX512 static inline __m512i
load32(const void *g, int wide, size_t i)
{
    if (wide)
        return _mm512_loadu_si512((const void *)((const uint16_t *)g + i));
    return _mm512_cvtepu8_epi16(
        _mm256_loadu_si256((const void *)((const uint8_t *)g + i)));
}

/* The bitmap bm (64 words) in two registers. */
AVX512 static inline void
bitmap_load(const uint16_t *bm, __m512i *b0, __m512i *b1)
{
    *b0 = _mm512_loadu_si512((const void *)bm);
    *b1 = _mm512_loadu_si512((const void *)(bm + 32));
}

/* Drops value u from bm when bm holds it (a value of 1024 or more, which
   wraps in the registers' permutation, never); 1 when it did. */
static inline int
bm_drop(uint16_t *bm, unsigned u)
{
    uint16_t bit = (uint16_t)(1u << (u & 15));
    if (u >= 1024 || !(bm[u >> 4] & bit))
        return 0;
    bm[u >> 4] = (uint16_t)(bm[u >> 4] & ~bit);
    return 1;
}

/* Drops from bm, and from its registers b0 and b1, the values of x's
   lanes in hits that bm holds; returns how many it dropped.  The
   registers are changed in place, not reloaded from bm (a wide load of
   narrow stores waits for them). */
AVX512 static inline size_t
drop_hits(uint16_t *bm, __m512i *b0, __m512i *b1, __m512i x, __mmask32 hits)
{
    uint16_t v[32];
    size_t dropped = 0;
    _mm512_storeu_si512((void *)v, x);
    for (; hits != 0; hits &= hits - 1) {
        unsigned u = v[__builtin_ctz(hits)], w = u >> 4;
        __m512i flip = _mm512_set1_epi16((short)(1u << (u & 15)));
        if (!bm_drop(bm, u))
            continue;
        if (w < 32)
            *b0 = _mm512_mask_mov_epi16(*b0, (__mmask32)1 << w,
                                        _mm512_xor_si512(*b0, flip));
        else
            *b1 = _mm512_mask_mov_epi16(*b1, (__mmask32)1 << (w - 32),
                                        _mm512_xor_si512(*b1, flip));
        dropped++;
    }
    return dropped;
}

/* The pairs (a + i, rest - a - i), i < 32: their values in *x, and the
   lanes whose value the bitmap in b0, b1 holds (or that wrap past 1023). */
AVX512 static inline __mmask32
test32(const void *g, int wide, size_t rest, size_t a, __m512i b0,
       __m512i b1, __m512i *x)
{
    const __m512i rev = _mm512_set_epi16(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
        19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    __m512i hi = _mm512_permutexvar_epi16(rev,
                                          load32(g, wide, rest - a - 31));
    __m512i word;
    *x = _mm512_xor_si512(load32(g, wide, a), hi);
    word = _mm512_permutex2var_epi16(b0, _mm512_srli_epi16(*x, 4), b1);
    return _mm512_test_epi16_mask(
        _mm512_srlv_epi16(word, _mm512_and_si512(*x, _mm512_set1_epi16(15))),
        _mm512_set1_epi16(1));
}

/* The scan of one split's pairs first <= a <= last, for the k values in
   bm; returns how many remain. */
AVX512 static size_t
scan_split(const void *g, int wide, uint16_t *bm, size_t k, size_t rest,
           size_t first, size_t last)
{
    __m512i b0 = _mm512_loadu_si512((const void *)bm);
    __m512i b1 = _mm512_loadu_si512((const void *)(bm + 32));
    size_t a = first;

    /* two blocks a branch: past the first blocks, hits are rare */
    for (; a + 63 <= last; a += 64) {
        __m512i x, x2;
        __mmask32 hits = test32(g, wide, rest, a, b0, b1, &x);
        __mmask32 hits2 = test32(g, wide, rest, a + 32, b0, b1, &x2);
        if ((hits | hits2) != 0) {
            k -= drop_hits(bm, &b0, &b1, x, hits);
            k -= drop_hits(bm, &b0, &b1, x2, hits2);
            if (k == 0)
                return 0;
        }
    }
    for (; a + 31 <= last; a += 32) {
        __m512i x;
        __mmask32 hits = test32(g, wide, rest, a, b0, b1, &x);
        if (hits != 0) {
            k -= drop_hits(bm, &b0, &b1, x, hits);
            if (k == 0)
                return 0;
        }
    }
    for (; a <= last; a++)
        if (bm_drop(bm, seq_get(g, wide, a) ^ seq_get(g, wide, rest - a)) &&
            --k == 0)
            return 0;
    return k;
}

AVX512 static size_t
scan(const void *g, int wide, uint16_t *need, size_t k, size_t *pa,
     const size_t *sr, const size_t *sh, size_t m, size_t *work)
{
    uint16_t bm[64];
    size_t i, j, kept;
    int live;

    memset(bm, 0, sizeof bm);
    for (i = 0; i < k; i++)
        bm[need[i] >> 4] = (uint16_t)(bm[need[i] >> 4] | 1u << (need[i] & 15));
    do {
        live = 0;
        for (j = 0; j < m && k > 0; j++) {
            size_t a = pa[j], h = sh[j], last;
            if (a > h)
                continue;
            live = 1;
            last = a + SCAN_BLOCK - 1 < h ? a + SCAN_BLOCK - 1 : h;
            pa[j] = last + 1;
            *work += last - a + 1;
            k = scan_split(g, wide, bm, k, sr[j], a, last);
        }
    } while (k > 0 && live);
    /* need[] keeps the values still missing */
    for (i = 0, kept = 0; kept < k; i++) {
        unsigned v = need[i];
        need[kept] = (uint16_t)v;
        kept += bm[v >> 4] >> (v & 15) & 1u;
    }
    return k;
}

size_t
bt__seq_scan_simd(const void *g, int wide, uint16_t *need, size_t k,
                  size_t *pa, const size_t *sr, const size_t *sh, size_t m,
                  size_t *work)
{
    return scan(g, wide, need, k, pa, sr, sh, m, work);
}

#else

int
bt__seq_simd(void)
{
    return 0;
}

void
bt__seq_simd_disable(int off)
{
    (void)off;
}

size_t
bt__seq_scan_simd(const void *g, int wide, uint16_t *need, size_t k,
                  size_t *pa, const size_t *sr, const size_t *sh, size_t m,
                  size_t *work)
{
    (void)g, (void)wide, (void)need, (void)pa, (void)sr, (void)sh, (void)m;
    (void)work;
    return k;
}

#endif
