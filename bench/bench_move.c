/*
 * bench_move.c -- how long the computer takes to move (issue 9's targets:
 * under 20 ms each), measured in process (no start-up of a program), with
 * bt_opponent_play at level perfect and the default limits.
 *
 * Positions: kayles 40, kayles 10^12, grundys-game 4 8 59, a sum of 100
 * components of mixed games (kayles, grundys-game, nim, sub:1-3,
 * dawsons-kayles, octal:0.137, heaps 7 + (37 i mod 53)), Nim of 10^5 piles
 * (an LCG, piles in 1..10^6), 20 001 Nim piles of 1, and the misère
 * Kayles position beyond exact analysis.  Each is played REPS times
 * (default 20); the table gives the median and the largest wall time
 * (CLOCK_MONOTONIC) and the rule used.
 *
 * usage: bench_move [REPS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bouton.h>

static double
now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void
bench(const char *name, const char *text, int misere, int reps)
{
    bt_game *nim;
    bt_position *p;
    bt_diag d;
    bt_play_info info;
    double *t = malloc((size_t)reps * sizeof *t);
    int r;
    memset(&d, 0, sizeof d);
    if (t == NULL || bt_game_new(&nim, "nim", NULL) != BT_OK ||
        bt_position_parse(&p, text, nim, NULL, &d) != BT_OK) {
        fprintf(stderr, "bench_move: %s: %s\n", name, d.message);
        exit(1);
    }
    for (r = 0; r < reps; r++) {
        bt_move *m;
        double t0 = now_ms();
        bt_status st = bt_opponent_play(&m, &info, p, misere,
                                        BT_LEVEL_PERFECT, NULL, NULL, &d);
        t[r] = now_ms() - t0;
        if (st != BT_OK) {
            fprintf(stderr, "bench_move: %s: %s\n", name, d.message);
            exit(1);
        }
        bt_moves_free(m, 1);
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    printf("| %s | %.2f ms | %.2f ms | %s |\n", name, t[reps / 2],
           t[reps - 1], bt_rule_name(info.rule));
    fflush(stdout);
    bt_position_free(p);
    bt_game_free(nim);
    free(t);
}

int
main(int argc, char **argv)
{
    static const char *games[] = {"kayles",         "grundys-game",
                                  "nim",            "sub:1-3",
                                  "dawsons-kayles", "octal:0.137"};
    int reps = argc > 1 ? atoi(argv[1]) : 20;
    char *text = malloc(100000 * 9);
    size_t len = 0;
    unsigned long x = 1;
    int i;
    if (reps < 1 || text == NULL)
        return 2;
    /* GMP's allocators as the program installs them: their charge to the
       call's budget is part of what a call costs */
    bt_gmp_install_allocators(NULL, NULL);
    printf("| position | median | max | rule |\n| --- | ---: | ---: | --- |\n");
    bench("kayles 40", "kayles 40", 0, reps);
    bench("kayles 10^12", "kayles 1000000000000", 0, reps);
    bench("grundys-game 4 8 59", "grundys-game 4 8 59", 0, reps);
    for (i = 0; i < 100; i++)
        len += (size_t)sprintf(text + len, "%s%s %d", i ? " + " : "",
                               games[i % 6], 7 + (i * 37) % 53);
    bench("sum of 100 mixed components", text, 0, reps);
    len = 0;
    for (i = 0; i < 100000; i++) {
        x = (x * 1103515245UL + 12345UL) % 2147483648UL;
        len += (size_t)sprintf(text + len, "%lu ", 1 + x % 1000000UL);
    }
    bench("Nim, 10^5 piles", text, 0, reps);
    len = 0;
    for (i = 0; i < 20001; i++)
        len += (size_t)sprintf(text + len, "1 ");
    bench("Nim, 20 001 piles of 1", text, 0, reps);
    bench("kayles 1 29429 6 2, misère", "kayles 1 29429 6 2", 1, reps);
    free(text);
    return 0;
}
