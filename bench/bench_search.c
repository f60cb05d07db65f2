/*
 * bench_search.c -- the searches of the game graph: the generic memoised
 * mex (Moore's Nim_2, whose values have no closed form), the misère
 * outcome search of a sum no theorem covers, and the remoteness search,
 * each from a fresh table.  Prints the median CPU time of this process
 * (the machine is shared: CPU time compares work, not waiting) of REPEATS
 * runs of each case, and what the run found, so that two builds
 * can be compared case by case.  Usage: bench_search [REPEATS]
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
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static bt_position *
parse(const char *text)
{
    bt_position *p = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_position_parse(&p, text, NULL, NULL, &d) != BT_OK) {
        fprintf(stderr, "bench_search: %s: %s\n", text, d.message);
        exit(1);
    }
    return p;
}

/* One run of a case: its wall time, and what it found in *found. */
static double
run_analyze(const char *text, unsigned flags, long *found)
{
    bt_position *p = parse(text);
    bt_analysis *a = NULL;
    bt_limits lim;
    bt_diag d;
    double t0, t1;
    bt_limits_default(&lim);
    lim.max_search = 100000000;
    memset(&d, 0, sizeof d);
    t0 = now();
    if (bt_analyze(&a, p, flags | BT_NO_MOVES, &lim, &d) != BT_OK) {
        fprintf(stderr, "bench_search: %s: %s\n", text, d.message);
        exit(1);
    }
    t1 = now();
    *found = (long)bt_analysis_outcome(a);
    bt_analysis_free(a);
    bt_position_free(p);
    return t1 - t0;
}

static double
run_remoteness(const char *text, int misere, long *found)
{
    bt_position *p = parse(text);
    bt_solver *s = NULL;
    bt_outcome o;
    bt_diag d;
    double t0, t1;
    memset(&d, 0, sizeof d);
    t0 = now();
    if (bt_solver_new(&s, misere, 100000000) != BT_OK ||
        bt_solver_solve(s, &o, found, p, NULL, &d) != BT_OK) {
        fprintf(stderr, "bench_search: %s: %s\n", text, d.message);
        exit(1);
    }
    t1 = now();
    bt_solver_free(s);
    bt_position_free(p);
    return t1 - t0;
}

typedef struct bench_case {
    const char *name, *text;
    int kind; /* 0 analyze (normal), 1 analyze (misère), 2 remoteness,
                 3 misère remoteness */
} bench_case;

static const bench_case cases[] = {
    {"mex: moore:2 values, 3 rows below 1024 positions",
     "moore:2 9 9 9 + moore:2 7 8 12 + moore:2 3 14 16", 0},
    {"mex: moore:3, 4 piles below 1024 positions", "moore:3 3 4 5 6", 0},
    {"misère search: wythoff 4 7 + wythoff 3 5 + kayles 9 + nim 3",
     "wythoff 4 7 + wythoff 3 5 + kayles 9 + nim 3", 1},
    {"misère search: moore:2 4 5 6 + kayles 8 + nim 2 3",
     "moore:2 4 5 6 + kayles 8 + nim 2 3", 1},
    {"remoteness: kayles 13 11 9", "kayles 13 11 9", 2},
    {"remoteness: wythoff 9 14 + kayles 14", "wythoff 9 14 + kayles 14", 2},
    {"misère remoteness: kayles 13 11 9", "kayles 13 11 9", 3},
};

int
main(int argc, char **argv)
{
    int repeats = argc > 1 ? atoi(argv[1]) : 9, r;
    size_t i;
    double *t;
    if (repeats < 1)
        repeats = 1;
    t = malloc((size_t)repeats * sizeof *t);
    if (t == NULL)
        return 1;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bench_case *c = &cases[i];
        long found = 0;
        for (r = 0; r < repeats; r++)
            t[r] = c->kind < 2
                       ? run_analyze(c->text, c->kind ? BT_MISERE : 0, &found)
                       : run_remoteness(c->text, c->kind == 3, &found);
        qsort(t, (size_t)repeats, sizeof *t, cmp_double);
        printf("%-62s %9.2f ms  (found %ld)\n", c->name,
               t[repeats / 2] * 1e3, found);
    }
    free(t);
    return 0;
}
