/*
 * bench_analyze.c -- analyze on big Nim positions (issue: "well under a
 * second"): 10^6 piles of random 64-bit sizes, and 3 piles of 10^6 decimal
 * digits each.  Times parsing and analysis separately with a monotonic
 * clock; prints one line per case.  Usage: bench_analyze [REPEATS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bouton.h>

static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned long long
rnd(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void
run(const char *name, const char *text, int repeats)
{
    bt_game *nim = NULL;
    double best_parse = 1e9, best_an = 1e9;
    int r;
    size_t moves = 0;
    bt_game_new(&nim, "nim", NULL);
    for (r = 0; r < repeats; r++) {
        bt_position *p = NULL;
        bt_analysis *a = NULL;
        double t0 = now(), t1, t2;
        if (bt_position_parse(&p, text, nim, NULL, NULL) != BT_OK) {
            fprintf(stderr, "parse failed\n");
            exit(1);
        }
        t1 = now();
        if (bt_analyze(&a, p, 0, NULL, NULL) != BT_OK) {
            fprintf(stderr, "analyze failed\n");
            exit(1);
        }
        t2 = now();
        moves = bt_analysis_move_count(a);
        if (t1 - t0 < best_parse)
            best_parse = t1 - t0;
        if (t2 - t1 < best_an)
            best_an = t2 - t1;
        bt_analysis_free(a);
        bt_position_free(p);
    }
    printf("%-34s parse %8.1f ms  analyze %8.1f ms  (%zu winning moves, "
           "best of %d)\n",
           name, best_parse * 1e3, best_an * 1e3, moves, repeats);
    bt_game_free(nim);
}

int
main(int argc, char **argv)
{
    int repeats = argc > 1 ? atoi(argv[1]) : 3;
    unsigned long long seed = 42;
    size_t n = 1000000, i, len = 0, d = 1000000;
    char *text = malloc(n * 21 + 1);
    if (repeats < 1)
        repeats = 1;
    /* GMP's allocators as the program installs them: their charge to the
       call's budget is part of what a call costs */
    bt_gmp_install_allocators(NULL, NULL);
    for (i = 0; i < n; i++)
        len += (size_t)sprintf(text + len, "%llu ", rnd(&seed));
    text[len] = '\0';
    run("10^6 piles of 64-bit sizes", text, repeats);
    free(text);
    text = malloc(3 * (d + 1) + 1);
    len = 0;
    for (i = 0; i < 3 * d; i++) {
        if (i % d == 0 && i > 0)
            text[len++] = ' ';
        text[len++] = (char)('0' + (i % d == 0 ? 1 + rnd(&seed) % 9
                                               : rnd(&seed) % 10));
    }
    text[len] = '\0';
    run("3 piles of 10^6 digits", text, repeats);
    free(text);
    return 0;
}
