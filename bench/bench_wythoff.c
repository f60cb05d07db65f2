/*
 * bench_wythoff.c -- Wythoff's game at size (issue 3, "Performance").
 *
 *  1. Outcome and every winning move of a pair of two 10^6-digit piles,
 *     against one mpz_sqrt measured in the same run on numbers of that
 *     size: of a 10^6-digit number, and of 5 x^2 (2 * 10^6 digits), the
 *     square root the closed form floor(x phi) itself takes.  "cold" is a
 *     fresh game (its square-root cache empty); "warm" the same game on
 *     other piles of that size (the square root of 5 cached).
 *  2. The n-th pair for a 10^5-digit n (issue: well under a second).
 *  3. The Sprague-Grundy table G(x, y), x, y < 8192 (issue: under 3 s on
 *     one core), with the bytes it held and the process's peak RSS.
 *
 * Usage: bench_wythoff [REPEATS] [DIGITS] [SIDE]   (defaults 3 1000000 8192)
 * Prints one line per case; the best of REPEATS runs, in CPU seconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <bouton.h>

/* CPU time of this process: the machine is shared, and the ratios below
   compare work, not waiting. */
static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bt_game *
game(const char *spec)
{
    bt_game *g = NULL;
    if (bt_game_new(&g, spec, NULL) != BT_OK) {
        fprintf(stderr, "bt_game_new(%s) failed\n", spec);
        exit(1);
    }
    return g;
}

/* A random number of exactly `digits` decimal digits. */
static void
random_digits(mpz_t rop, gmp_randstate_t rs, unsigned long digits)
{
    mpz_t lo;
    mpz_init(lo);
    mpz_ui_pow_ui(lo, 10, digits - 1);
    mpz_mul_ui(rop, lo, 9);
    mpz_urandomm(rop, rs, rop);
    mpz_add(rop, rop, lo);
    mpz_clear(lo);
}

static double
time_sqrt(const mpz_t v, int repeats)
{
    double best = 1e9;
    int r;
    mpz_t s;
    mpz_init(s);
    for (r = 0; r < repeats; r++) {
        double t = now();
        mpz_sqrt(s, v);
        t = now() - t;
        if (t < best)
            best = t;
    }
    mpz_clear(s);
    return best;
}

static void
bench_moves(int repeats, unsigned long digits)
{
    gmp_randstate_t rs;
    mpz_t x, y, v, to[BT_WYTHOFF_MAX_WINNING][2];
    double s1, s2, cold = 1e9, warm = 1e9;
    size_t i, count = 0;
    int r, p = 0;

    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 1907);
    mpz_inits(x, y, v, NULL);
    for (i = 0; i < BT_WYTHOFF_MAX_WINNING; i++)
        mpz_inits(to[i][0], to[i][1], NULL);
    random_digits(x, rs, digits);
    random_digits(y, rs, digits);
    if (mpz_cmp(x, y) > 0)
        mpz_swap(x, y);
    s1 = time_sqrt(x, repeats);
    mpz_mul(v, x, x);
    mpz_mul_ui(v, v, 5);
    s2 = time_sqrt(v, repeats);
    for (r = 0; r < repeats; r++) {
        bt_game *g = game("wythoff");
        double t = now();
        if (bt_wythoff_is_p(&p, g, 0, x, y, NULL, NULL) != BT_OK ||
            bt_wythoff_winning(to, &count, g, 0, x, y, NULL, NULL) != BT_OK) {
            fprintf(stderr, "winning moves failed\n");
            exit(1);
        }
        t = now() - t;
        if (t < cold)
            cold = t;
        /* warm: another pair of the same size, the square root cached */
        mpz_add_ui(x, x, 1);
        mpz_add_ui(y, y, 2);
        t = now();
        bt_wythoff_is_p(&p, g, 0, x, y, NULL, NULL);
        bt_wythoff_winning(to, &count, g, 0, x, y, NULL, NULL);
        t = now() - t;
        mpz_sub_ui(x, x, 1);
        mpz_sub_ui(y, y, 2);
        if (t < warm)
            warm = t;
        bt_game_free(g);
    }
    printf("wythoff outcome+moves, two %lu-digit piles: cold %.3f s, "
           "warm %.3f s (%s, %zu winning moves)\n",
           digits, cold, warm, p ? "P" : "N", count);
    printf("  mpz_sqrt of a %lu-digit number: %.3f s  -> cold/sqrt = %.2f\n",
           digits, s1, cold / s1);
    printf("  mpz_sqrt of 5 x^2 (%zu digits): %.3f s  -> cold/sqrt = %.2f\n",
           mpz_sizeinbase(v, 10), s2, cold / s2);
    for (i = 0; i < BT_WYTHOFF_MAX_WINNING; i++)
        mpz_clears(to[i][0], to[i][1], NULL);
    mpz_clears(x, y, v, NULL);
    gmp_randclear(rs);
}

/* The same through bt_analyze (Grundy value, then the moves), on the
   N-position of bench_moves and on a P-position of that size. */
static void
bench_analyze(int repeats, unsigned long digits)
{
    gmp_randstate_t rs;
    mpz_t c[2], n;
    int r, k;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 1907);
    mpz_inits(c[0], c[1], n, NULL);
    for (k = 0; k < 2; k++) {
        double best = 1e9;
        bt_diag d;
        bt_status st = BT_OK;
        size_t moves = 0;
        memset(&d, 0, sizeof d);
        random_digits(c[0], rs, digits);
        random_digits(c[1], rs, digits);
        if (k == 1) { /* the pair of index c[0] / 2 */
            bt_game *g = game("wythoff");
            mpz_tdiv_q_2exp(n, c[0], 1);
            bt_wythoff_pair(c[0], c[1], g, 0, n, NULL, NULL);
            bt_game_free(g);
        }
        for (r = 0; r < repeats && st == BT_OK; r++) {
            bt_game *g = game("wythoff");
            bt_position *p = NULL;
            bt_analysis *a = NULL;
            double t;
            bt_position_new(&p);
            bt_position_add(p, g, (const mpz_t *)c, NULL, NULL);
            t = now();
            st = bt_analyze(&a, p, 0, NULL, &d);
            t = now() - t;
            if (st == BT_OK) {
                moves = bt_analysis_move_count(a);
                if (t < best)
                    best = t;
            }
            bt_analysis_free(a);
            bt_position_free(p);
            bt_game_free(g);
        }
        if (st == BT_OK)
            printf("  bt_analyze of %s (%lu-digit piles): %.3f s, %zu "
                   "winning moves\n",
                   k ? "a P-position" : "an N-position", digits, best, moves);
        else
            printf("  bt_analyze of %s (%lu-digit piles): %s\n",
                   k ? "a P-position" : "an N-position", digits, d.message);
    }
    mpz_clears(c[0], c[1], n, NULL);
    gmp_randclear(rs);
}

static void
bench_pair(int repeats, unsigned long digits)
{
    gmp_randstate_t rs;
    mpz_t n, lo, hi;
    double best = 1e9;
    int r, a;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 7);
    mpz_inits(n, lo, hi, NULL);
    random_digits(n, rs, digits);
    for (a = 1; a <= 2; a++) {
        best = 1e9;
        for (r = 0; r < repeats; r++) {
            bt_game *g = game(a == 1 ? "wythoff" : "wythoff:2");
            double t = now();
            bt_wythoff_pair(lo, hi, g, 0, n, NULL, NULL);
            t = now() - t;
            if (t < best)
                best = t;
            bt_game_free(g);
        }
        printf("wythoff%s pair n for a %lu-digit n: %.3f s\n",
               a == 1 ? "" : ":2", digits, best);
    }
    mpz_clears(n, lo, hi, NULL);
    gmp_randclear(rs);
}

static void
bench_sg(int repeats, size_t side)
{
    bt_game *g = game("wythoff");
    bt_wythoff_sg *t = NULL;
    bt_limits lim;
    struct rusage ru;
    double best = 1e9;
    size_t peak = 0;
    int r;
    bt_limits_default(&lim);
    for (r = 0; r < repeats; r++) {
        double t0 = now();
        bt_diag d;
        if (bt_wythoff_sg_new(&t, g, side, &lim, &d) != BT_OK) {
            fprintf(stderr, "table: %s\n", d.message);
            exit(1);
        }
        t0 = now() - t0;
        if (t0 < best)
            best = t0;
        peak = bt_wythoff_sg_peak_bytes(t);
        bt_wythoff_sg_free(t);
    }
    getrusage(RUSAGE_SELF, &ru);
    printf("wythoff Grundy table %zu x %zu: %.3f s, %.1f MiB held, peak RSS "
           "%.1f MiB\n",
           side, side, best, (double)peak / (1 << 20),
           (double)ru.ru_maxrss / 1024);
    bt_game_free(g);
}

int
main(int argc, char **argv)
{
    int repeats = argc > 1 ? atoi(argv[1]) : 3;
    unsigned long digits = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000000;
    size_t side = argc > 3 ? (size_t)strtoul(argv[3], NULL, 10) : 8192;
    if (repeats < 1)
        repeats = 1;
    bench_moves(repeats, digits);
    bench_analyze(repeats, digits);
    bench_pair(repeats, 100000);
    bench_sg(repeats, side);
    return 0;
}
