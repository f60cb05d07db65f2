/*
 * bench_threads.c -- the parallel rare-value method (issue 12): the same
 * sequence on 1 thread and on T threads, alternately, for some rounds, with
 * CPU and wall seconds, the medians, the load average, and a check that
 * the values are identical.
 *
 *   officers       Officers (0.6) to 2^LOG values (default 2^24): the
 *                  issue asks 1.7x on 2 cores
 *   0.354          prove the periodicity of 0.354 (20 126 195 values): 1.5x
 *   0.16           prove the periodicity of 0.16 (509 622 values)
 *   0.354-threads  the same, the threads kept on for every heap (the
 *                  engine's own choice, by measure, set aside): what the
 *                  parallel method itself does on this game
 *   officers-threads  Officers likewise, the threads kept on
 *
 * Usage: bench_threads [CASE [LOG [THREADS [ROUNDS [stats]]]]]
 *        (default: officers and 0.354, 2^24, 2 threads, 1 round)
 * BENCH_FIX="CUT WINDOW" fixes the division of the work on threads: the
 * calling thread's sparse positions and the most pairs of a worker's
 * window (what the engine's own tuning reaches on more cores).
 * LOG below 24 makes the 0.354 cases compute 2^LOG values instead of the
 * proof.  `stats` prints, after each run on threads, what its threads did:
 * streams, batches, the batches the calling thread waited for, the cut and
 * the window the measure chose, and the time each kind of thread
 * spent working and waiting (the clock is read a few times a batch, which
 * costs about 1%: leave it out for the timings).
 * ROUNDS 0: one run on THREADS threads alone, to count its instructions
 * (valgrind --tool=callgrind) or profile it (perf record).
 * Each round runs 1 thread then T threads, the next round T then 1, so
 * that a change of the machine's load falls on both alike.  Wall time is
 * what the threads gain; CPU time (of the whole process, every thread)
 * shows the work they add, and the calling thread's own CPU time (it makes
 * the guesses alone, and takes chunks like the others) how the work was
 * shared.  On a shared machine, read the medians and the load averages.
 */
#define _DEFAULT_SOURCE /* getloadavg */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bouton.h>

/* Not in the public header: threads for every heap (tests, benchmarks);
   the threads' streams and waits, timed (benchmarks). */
void bt__sequence_par_always(bt_sequence *s);
void bt__sequence_par_stats_on(bt_sequence *s);
void bt__sequence_par_stats(const bt_sequence *s, char *buf, size_t len);
void bt__sequence_par_fix(bt_sequence *s, size_t cut, size_t window);

static int stats; /* STATS given: print what the threads did */

#define MAX_ROUNDS 32

static double
clock_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double
load1(void)
{
    double l[1];
    return getloadavg(l, 1) == 1 ? l[0] : -1;
}

static unsigned long long
digest(const bt_sequence *s)
{
    unsigned long long h = 1469598103934665603ULL;
    size_t i;
    for (i = 0; i < bt_sequence_length(s); i++) {
        h ^= bt_sequence_value(s, i);
        h *= 1099511628211ULL;
    }
    return h;
}

typedef struct result {
    double wall, cpu, main;
    unsigned long long digest;
} result;

static result
one(const char *name, const char *spec, size_t n, int prove, int always,
    unsigned threads)
{
    bt_game *g = NULL;
    bt_sequence *s = NULL;
    bt_limits lim;
    bt_diag d;
    double c0, w0, m0, la = load1();
    result r;
    bt_limits_default(&lim);
    lim.max_grundy = (size_t)1 << 28;
    if (bt_game_new(&g, spec, &d) != BT_OK ||
        bt_sequence_new(&s, g, BT_SEQ_AUTO, &d) != BT_OK) {
        fprintf(stderr, "%s: %s\n", spec, d.message);
        exit(1);
    }
    bt_sequence_set_threads(s, threads);
    if (always && threads > 1)
        bt__sequence_par_always(s);
    if (stats && threads > 1)
        bt__sequence_par_stats_on(s);
    if (threads > 1 && getenv("BENCH_FIX") != NULL) {
        /* "CUT WINDOW": the division of the work fixed (what a tuning
           would reach with more cores than this machine has) */
        size_t cut = 0, window = 0;
        if (sscanf(getenv("BENCH_FIX"), "%zu %zu", &cut, &window) == 2)
            bt__sequence_par_fix(s, cut, window);
    }
    c0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
    m0 = clock_of(CLOCK_THREAD_CPUTIME_ID);
    w0 = clock_of(CLOCK_MONOTONIC);
    if ((prove ? bt_sequence_prove(s, n, &lim, &d)
               : bt_sequence_compute(s, n, &lim, &d)) != BT_OK) {
        fprintf(stderr, "%s: %s\n", spec, d.message);
        exit(1);
    }
    r.cpu = clock_of(CLOCK_PROCESS_CPUTIME_ID) - c0;
    r.main = clock_of(CLOCK_THREAD_CPUTIME_ID) - m0;
    r.wall = clock_of(CLOCK_MONOTONIC) - w0;
    r.digest = digest(s);
    printf("%-13s %u thread%s  CPU %7.2f s (calling thread %7.2f s)  wall "
           "%7.2f s  load %.1f -> %.1f  %zu values%s  digest %016llx  "
           "ran %u\n",
           name, threads, threads == 1 ? " " : "s", r.cpu, r.main, r.wall,
           la, load1(), bt_sequence_length(s),
           bt_sequence_is_proved(s) ? " (proved)" : "", r.digest,
           bt_sequence_threads_used(s));
    if (stats && threads > 1) {
        char buf[512];
        bt__sequence_par_stats(s, buf, sizeof buf);
        printf("%-13s   %s\n", name, buf);
    }
    fflush(stdout);
    bt_sequence_free(s);
    bt_game_free(g);
    return r;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
compare(const char *name, const char *spec, size_t n, int prove, int always,
        unsigned threads, int rounds)
{
    double w1[MAX_ROUNDS], wt[MAX_ROUNDS], c1[MAX_ROUNDS], ct[MAX_ROUNDS];
    double ratio[MAX_ROUNDS], l0 = load1();
    int i;
    if (rounds == 0) {
        (void)one(name, spec, n, prove, always, threads);
        return;
    }
    for (i = 0; i < rounds; i++) {
        result a, b;
        if (i % 2 == 0) {
            a = one(name, spec, n, prove, always, 1);
            b = one(name, spec, n, prove, always, threads);
        } else {
            b = one(name, spec, n, prove, always, threads);
            a = one(name, spec, n, prove, always, 1);
        }
        if (a.digest != b.digest) {
            printf("%-13s VALUES DIFFER\n", name);
            exit(1);
        }
        w1[i] = a.wall;
        wt[i] = b.wall;
        c1[i] = a.cpu;
        ct[i] = b.cpu;
        ratio[i] = a.wall / b.wall;
        printf("%-13s round %d: speedup (wall) %.2fx\n", name, i + 1,
               ratio[i]);
    }
    printf("%-13s medians of %d round%s: 1 thread wall %.2f s CPU %.2f s; "
           "%u threads wall %.2f s CPU %.2f s; speedup (wall) %.2fx; "
           "load average %.1f -> %.1f\n",
           name, rounds, rounds == 1 ? "" : "s", median(w1, rounds),
           median(c1, rounds), threads, median(wt, rounds),
           median(ct, rounds), median(ratio, rounds), l0, load1());
    fflush(stdout);
}

int
main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "all";
    int log = argc > 2 ? atoi(argv[2]) : 24;
    unsigned threads = argc > 3 ? (unsigned)atoi(argv[3]) : 2;
    int rounds = argc > 4 ? atoi(argv[4]) : 1;
    int all = strcmp(which, "all") == 0;
    /* 0.354 proves its period, or computes 2^LOG values for LOG < 24
       (shorter runs, for callgrind) */
    size_t n354 = log < 24 ? (size_t)1 << log : (size_t)1 << 26;
    int prove354 = log >= 24;
    stats = argc > 5 && strcmp(argv[5], "stats") == 0;
    if (log < 10 || log > 28 || threads < 1 || rounds < 0 ||
        rounds > MAX_ROUNDS || (argc > 5 && !stats) ||
        (!all && strcmp(which, "officers") != 0 &&
         strcmp(which, "0.354") != 0 && strcmp(which, "0.16") != 0 &&
         strcmp(which, "0.354-threads") != 0 &&
         strcmp(which, "officers-threads") != 0)) {
        fprintf(stderr, "usage: bench_threads [officers|0.354|0.16|"
                        "0.354-threads|officers-threads|all [LOG "
                        "[THREADS [ROUNDS "
                        "[stats]]]]]\n");
        return 2;
    }
    if (all || strcmp(which, "officers") == 0)
        compare("officers", "officers", (size_t)1 << log, 0, 0, threads,
                rounds);
    if (all || strcmp(which, "0.354") == 0)
        compare("0.354", "octal:0.354", n354, prove354, 0, threads, rounds);
    if (strcmp(which, "0.16") == 0)
        compare("0.16", "octal:0.16", (size_t)1 << 26, 1, 0, threads,
                rounds);
    if (strcmp(which, "officers-threads") == 0)
        compare("officers-thr", "officers", (size_t)1 << log, 0, 1, threads,
                rounds);
    if (strcmp(which, "0.354-threads") == 0)
        compare("0.354-threads", "octal:0.354", n354, prove354, 1, threads,
                rounds);
    return 0;
}
