/*
 * bench_count.c -- timings of bt_nim_count (bouton count).
 *
 * The target: 64 piles with MAX = 2^1024 in under 100 ms.  Also
 * the other shapes of bound that matter to the algorithm: 2^1024 - 1 (one
 * run of ones), a random 1024-bit MAX (about 1000 runs, the worst case of
 * the spectrum), a random MIN as well, and many small piles.  Each line is
 * the best of REPS runs, in milliseconds of this process's CPU time (the
 * machine may be shared).  Usage: bench_count [REPS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <bouton.h>

static double
now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
bench(const char *name, size_t k, const mpz_t min, const mpz_t max,
      unsigned flags, int reps)
{
    mpz_t pos, pp;
    double best = 1e300, t;
    bt_diag d;
    int i;
    mpz_inits(pos, pp, NULL);
    for (i = 0; i < reps; i++) {
        t = now_ms();
        if (bt_nim_count(pos, pp, NULL, k, min, max, flags, NULL, &d) !=
            BT_OK) {
            fprintf(stderr, "%s: %s\n", name, d.message);
            mpz_clears(pos, pp, NULL);
            return 1;
        }
        t = now_ms() - t;
        if (t < best)
            best = t;
    }
    printf("%-44s %-9s %9.3f ms  (%zu-digit P count)\n", name,
           flags & BT_COUNT_ORDERED ? "ordered" : "multisets", best,
           mpz_sizeinbase(pp, 10));
    mpz_clears(pos, pp, NULL);
    return 0;
}

int
main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 5, rc = 0, o;
    mpz_t zero, one, p1024, m1024, rmax, rmin, fifteen;
    gmp_randstate_t r;

    if (reps < 1)
        reps = 1;
    gmp_randinit_default(r);
    gmp_randseed_ui(r, 1901);
    mpz_init_set_ui(zero, 0);
    mpz_init_set_ui(one, 1);
    mpz_init_set_ui(fifteen, 15);
    mpz_init(p1024);
    mpz_setbit(p1024, 1024); /* 2^1024 */
    mpz_init(m1024);
    mpz_sub_ui(m1024, p1024, 1); /* 2^1024 - 1 */
    mpz_init(rmax);
    mpz_urandomb(rmax, r, 1023);
    mpz_setbit(rmax, 1023); /* a random 1024-bit number */
    mpz_init(rmin);
    mpz_urandomb(rmin, r, 1000); /* below 2^1023: not all piles share
                                    MAX's top bit */

    for (o = 0; o < 2; o++) {
        unsigned fl = o ? BT_COUNT_ORDERED : 0;
        rc |= bench("K=3, piles 1..15 (Bouton sec. 3)", 3, one, fifteen, fl,
                    reps);
        rc |= bench("K=64, piles 1..2^1024", 64, one, p1024, fl, reps);
        rc |= bench("K=64, piles 0..2^1024", 64, zero, p1024, fl, reps);
        rc |= bench("K=64, piles 1..2^1024-1", 64, one, m1024, fl, reps);
        rc |= bench("K=64, piles 1..random 1024-bit", 64, one, rmax, fl, reps);
        rc |= bench("K=64, piles random..random 1024-bit", 64, rmin, rmax, fl,
                    reps);
        rc |= bench("K=63, piles random..random 1024-bit", 63, rmin, rmax, fl,
                    reps);
        rc |= bench("K=4096, piles 1..15", 4096, one, fifteen, fl, reps);
    }
    rc |=
        bench("K=64, piles 1..2^1024, misere", 64, one, p1024, BT_MISERE, reps);
    mpz_clears(zero, one, fifteen, p1024, m1024, rmax, rmin, NULL);
    gmp_randclear(r);
    return rc;
}
