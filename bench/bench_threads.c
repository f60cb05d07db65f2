/*
 * bench_threads.c -- the parallel rare-value method (issue 12): the same
 * sequence on 1 thread and on T threads in one run, with CPU and wall
 * seconds, and a check that the values are identical.
 *
 *   officers   Officers (0.6) to 2^LOG values (default 2^24): the issue
 *              asks 1.7x on 2 cores
 *   0.354      prove the periodicity of 0.354 (20 126 195 values): 1.5x
 *
 * Usage: bench_threads [CASE [LOG]] [THREADS]   (default: both, 2 threads)
 * Wall time is what the threads gain; CPU time (of the whole process, every
 * thread) shows the overhead they cost, and the calling thread's own CPU
 * time (it makes the guesses alone, and takes chunks like the others) the
 * least wall time the run could take with a core per thread.  On a shared machine compare the
 * two lines of a case, taken one after the other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bouton.h>

static double
clock_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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

static unsigned long long
one(const char *name, const char *spec, size_t n, int prove, unsigned threads,
    double *wall)
{
    bt_game *g = NULL;
    bt_sequence *s = NULL;
    bt_limits lim;
    bt_diag d;
    double c0, w0, c1, m0, m1;
    unsigned long long h;
    bt_limits_default(&lim);
    lim.max_grundy = (size_t)1 << 28;
    if (bt_game_new(&g, spec, &d) != BT_OK ||
        bt_sequence_new(&s, g, BT_SEQ_AUTO, &d) != BT_OK) {
        fprintf(stderr, "%s: %s\n", spec, d.message);
        exit(1);
    }
    bt_sequence_set_threads(s, threads);
    c0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
    m0 = clock_of(CLOCK_THREAD_CPUTIME_ID);
    w0 = clock_of(CLOCK_MONOTONIC);
    if ((prove ? bt_sequence_prove(s, n, &lim, &d)
               : bt_sequence_compute(s, n, &lim, &d)) != BT_OK) {
        fprintf(stderr, "%s: %s\n", spec, d.message);
        exit(1);
    }
    c1 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
    m1 = clock_of(CLOCK_THREAD_CPUTIME_ID);
    *wall = clock_of(CLOCK_MONOTONIC) - w0;
    h = digest(s);
    printf("%-10s %u thread%s  CPU %7.2f s (calling thread %7.2f s)  wall "
           "%7.2f s  %zu values%s  digest %016llx\n",
           name, threads, threads == 1 ? " " : "s", c1 - c0, m1 - m0, *wall,
           bt_sequence_length(s), bt_sequence_is_proved(s) ? " (proved)" : "",
           h);
    fflush(stdout);
    bt_sequence_free(s);
    bt_game_free(g);
    return h;
}

static void
compare(const char *name, const char *spec, size_t n, int prove,
        unsigned threads)
{
    double w1, wt;
    unsigned long long h1 = one(name, spec, n, prove, 1, &w1);
    unsigned long long ht = one(name, spec, n, prove, threads, &wt);
    printf("%-10s speedup (wall) %.2fx%s\n", name, w1 / wt,
           h1 == ht ? "" : "  VALUES DIFFER");
    if (h1 != ht)
        exit(1);
}

int
main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "all";
    int log = argc > 2 ? atoi(argv[2]) : 24;
    unsigned threads = argc > 3 ? (unsigned)atoi(argv[3]) : 2;
    if (log < 10 || log > 28 || threads < 1) {
        fprintf(stderr, "usage: bench_threads [officers|0.354|all [LOG "
                        "[THREADS]]]\n");
        return 2;
    }
    if (strcmp(which, "all") == 0 || strcmp(which, "officers") == 0)
        compare("officers", "officers", (size_t)1 << log, 0, threads);
    if (strcmp(which, "all") == 0 || strcmp(which, "0.354") == 0)
        compare("0.354", "octal:0.354", (size_t)1 << 26, 1, threads);
    return 0;
}
