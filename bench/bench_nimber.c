/*
 * bench_nimber.c -- timings of the nim-product (include/bouton/nimber.h).
 *
 * The targets: the 64-bit product at <= 8 ns (throughput, one
 * core), products of 10^4-bit nimbers well under a millisecond, the
 * 256 x 256 table in milliseconds.  The 64-bit product is timed in every
 * form the library has (bt_nimber_mul_u64 as callers get it; the batch
 * form bt_nimber_mul_u64_n, eight at a time with GFNI; the GF(256)
 * log tables; carry-less multiplication after the change of basis; the
 * library's tower down to single bits) and against a plain recursion on
 * Conway's rules written here, in the same run, on the same operands:
 * POOL random pairs (in cache) multiplied ROUNDS times, each product
 * independent of the others, so the figure is throughput.  Every form's
 * results are checked against bt_nimber_mul_u64 first.  Each line is the
 * best of REPS runs, in nanoseconds of this process's CPU time per
 * product (the machine may be shared).  Usage: bench_nimber [REPS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <bouton.h>

/* The library's named methods (src/core/core.h). */
uint64_t bt__nimber_mul_u64_by(int which, uint64_t a, uint64_t b);
int bt__nimber_has_clmul(void);

#define POOL 65536
#define ROUNDS 64 /* 4 194 304 products a run */

static uint64_t pa[POOL], pb[POOL];

static double
now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t state = 0x9e3779b97f4a7c15u;

static uint64_t
rnd(void)
{
    /* xorshift64* */
    state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
    return state * 0x2545f4914f6cdd1du;
}

/*
 * The plain recursion: Conway's rules on the halves of a Fermat 2-power
 * field, four half-size products a level, (a1 T + a0)(b1 T + b0) =
 * (a1 b1 + a1 b0 + a0 b1) T + (a0 b0 + a1 b1 T/2), with the shortcut for
 * factors 0 and 1: how the product is usually first written.
 */
static uint64_t
plain(uint64_t a, uint64_t b, unsigned bits)
{
    unsigned h;
    uint64_t m, a0, a1, b0, b1, hh;
    if (a < 2 || b < 2)
        return a * b;
    h = bits / 2;
    m = ((uint64_t)1 << h) - 1;
    a0 = a & m, a1 = a >> h, b0 = b & m, b1 = b >> h;
    hh = plain(a1, b1, h);
    return ((hh ^ plain(a1, b0, h) ^ plain(a0, b1, h)) << h) ^
           plain(a0, b0, h) ^ plain(hh, (uint64_t)1 << (h - 1), h);
}

static uint64_t
by_plain(uint64_t a, uint64_t b)
{
    return plain(a, b, 64);
}
static uint64_t
by_public(uint64_t a, uint64_t b)
{
    return bt_nimber_mul_u64(a, b);
}
static uint64_t
by_tables(uint64_t a, uint64_t b)
{
    return bt__nimber_mul_u64_by(0, a, b);
}
static uint64_t
by_clmul(uint64_t a, uint64_t b)
{
    return bt__nimber_mul_u64_by(1, a, b);
}
static uint64_t
by_tower(uint64_t a, uint64_t b)
{
    return bt__nimber_mul_u64_by(2, a, b);
}

static volatile uint64_t sink;

static void
report(const char *name, double best, int rounds)
{
    printf("%-46s %9.2f ns/product  (%d x %d products)\n", name,
           best / ((double)rounds * POOL), rounds, POOL);
}

static int
bench64(const char *name, uint64_t (*f)(uint64_t, uint64_t), int rounds,
        int reps)
{
    double best = 1e300, t;
    uint64_t acc;
    int r, k;
    size_t i;
    for (i = 0; i < POOL; i++)
        if (f(pa[i], pb[i]) != bt_nimber_mul_u64(pa[i], pb[i])) {
            fprintf(stderr, "%s: wrong product at pair %zu\n", name, i);
            return 1;
        }
    for (k = 0; k < reps; k++) {
        acc = 0;
        t = now_ns();
        for (r = 0; r < rounds; r++)
            for (i = 0; i < POOL; i++)
                acc ^= f(pa[i], pb[i]);
        t = now_ns() - t;
        sink = acc;
        if (t < best)
            best = t;
    }
    report(name, best, rounds);
    return 0;
}

/* bt_nimber_mul_u64 called as a caller calls it: directly, not through
   a pointer as bench64 calls the forms. */
static void
bench64_direct(int reps)
{
    double best = 1e300, t;
    uint64_t acc;
    int r, k;
    size_t i;
    for (k = 0; k < reps; k++) {
        acc = 0;
        t = now_ns();
        for (r = 0; r < ROUNDS; r++)
            for (i = 0; i < POOL; i++)
                acc ^= bt_nimber_mul_u64(pa[i], pb[i]);
        t = now_ns() - t;
        sink = acc;
        if (t < best)
            best = t;
    }
    report("bt_nimber_mul_u64, called directly", best, ROUNDS);
}

/* bt_nimber_mul_u64_n over the pool: the batch form, every product
   still computed and folded into a checksum. */
static int
bench64_batch(int reps)
{
    static uint64_t out[POOL];
    double best = 1e300, t;
    uint64_t acc;
    int r, k;
    size_t i;
    bt_nimber_mul_u64_n(out, pa, pb, POOL);
    for (i = 0; i < POOL; i++)
        if (out[i] != bt_nimber_mul_u64(pa[i], pb[i])) {
            fprintf(stderr, "bt_nimber_mul_u64_n: wrong product at %zu\n", i);
            return 1;
        }
    for (k = 0; k < reps; k++) {
        acc = 0;
        t = now_ns();
        for (r = 0; r < ROUNDS; r++) {
            bt_nimber_mul_u64_n(out, pa, pb, POOL);
            for (i = 0; i < POOL; i++)
                acc ^= out[i]; /* every product used, as bench64's */
        }
        t = now_ns() - t;
        sink = acc;
        if (t < best)
            best = t;
    }
    report("bt_nimber_mul_u64_n, the batch form", best, ROUNDS);
    return 0;
}

static void
rnd_mpz(mpz_t x, size_t bits)
{
    size_t i;
    mpz_set_ui(x, 0);
    for (i = 0; i < bits; i += 64) {
        mpz_mul_2exp(x, x, 64);
        mpz_add_ui(x, x, (unsigned long)rnd());
    }
    mpz_fdiv_r_2exp(x, x, bits);
    mpz_setbit(x, bits - 1);
}

int
main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 3, rc = 0, k, i;
    size_t n;
    double best, t;
    mpz_t a, b, r;
    bt_diag d;
    static const size_t sizes[] = {128, 1024, 10000, 100000};

    if (reps < 1)
        reps = 1;
    for (n = 0; n < POOL; n++)
        pa[n] = rnd(), pb[n] = rnd();
    printf("64-bit products of random operands (carry-less multiplication "
           "%s here)\n",
           bt__nimber_has_clmul() ? "available" : "NOT available");
    bench64_direct(reps);
    rc |= bench64_batch(reps);
    rc |= bench64("bt_nimber_mul_u64 through a pointer", by_public,
                  ROUNDS, reps);
    if (bt__nimber_has_clmul())
        rc |= bench64("  carry-less, change of basis", by_clmul, ROUNDS,
                      reps);
    rc |= bench64("  GF(256) log tables, tower of 3 products", by_tables,
                  ROUNDS, reps);
    rc |= bench64("  the library's tower down to bits", by_tower, 2, reps);
    rc |= bench64("plain recursion, 4 products a level", by_plain, 2, reps);

    mpz_inits(a, b, r, NULL);
    for (i = 0; i < (int)(sizeof sizes / sizeof *sizes); i++) {
        int times = sizes[i] >= 100000 ? 3 : sizes[i] >= 10000 ? 20 : 200;
        rnd_mpz(a, sizes[i]);
        rnd_mpz(b, sizes[i]);
        best = 1e300;
        for (k = 0; k < reps; k++) {
            int j;
            t = now_ns();
            for (j = 0; j < times; j++)
                if (bt_nimber_mul(r, a, b, NULL, &d) != BT_OK) {
                    fprintf(stderr, "bt_nimber_mul: %s\n", d.message);
                    return 1;
                }
            t = (now_ns() - t) / times;
            if (t < best)
                best = t;
        }
        printf("bt_nimber_mul, two %6zu-bit nimbers %18.1f us/product\n",
               sizes[i], best / 1e3);
    }
    /* the 256 x 256 table, as `bouton table --nim-products 256` computes
       it (through mpz_t, one bt_nimber_mul a cell) and by the 64-bit
       product */
    best = 1e300;
    for (k = 0; k < reps; k++) {
        unsigned x, y;
        t = now_ns();
        for (x = 0; x < 256; x++)
            for (y = 0; y < 256; y++) {
                mpz_set_ui(a, x), mpz_set_ui(b, y);
                bt_nimber_mul(r, a, b, NULL, &d);
            }
        t = now_ns() - t;
        if (t < best)
            best = t;
    }
    printf("the 256 x 256 table by bt_nimber_mul (mpz_t) %9.3f ms\n",
           best / 1e6);
    best = 1e300;
    for (k = 0; k < reps; k++) {
        unsigned x, y;
        uint64_t acc = 0;
        t = now_ns();
        for (x = 0; x < 256; x++)
            for (y = 0; y < 256; y++)
                acc ^= bt_nimber_mul_u64(x, y);
        t = now_ns() - t;
        sink = acc;
        if (t < best)
            best = t;
    }
    printf("the 256 x 256 table by bt_nimber_mul_u64     %9.3f ms\n",
           best / 1e6);
    mpz_clears(a, b, r, NULL);
    return rc;
}
