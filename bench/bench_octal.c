/*
 * bench_octal.c -- the Sprague-Grundy engine at size (issue 4,
 * "Performance").
 *
 *   0.16        prove the periodicity of 0.16 (period 149459, preperiod
 *               105351; Gangolli and Plambeck 1989): issue, under 0.5 s
 *   0.354       prove the periodicity of 0.354 (period 1180, preperiod
 *               10061916; Flammenkamp): issue, under 20 s and 100 MB
 *   officers    Officers, 0.6, to n = 2^20: issue, under 6 s
 *   treblecross the plain method's inner loop on Treblecross, 0.007, to
 *               n = 2^18: issue, at least 0.6e9 pair-XORs per second
 *
 * Usage: bench_octal [CASE...]   (default: all four, in that order)
 * Prints one line per case: CPU seconds of this process (the machine is
 * shared: CPU time measures work, not waiting), wall seconds, the values
 * computed, what was found, and the peak RSS of the process so far (run a
 * case alone for its own peak).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <bouton.h>

static double
cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double
wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double
peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0; /* KiB on Linux */
}

static bt_sequence *
sequence(const char *spec, bt_seq_method m)
{
    bt_game *g = NULL;
    bt_sequence *s = NULL;
    bt_diag d;
    if (bt_game_new(&g, spec, &d) != BT_OK ||
        bt_sequence_new(&s, g, m, &d) != BT_OK) {
        fprintf(stderr, "%s: %s\n", spec, d.message);
        exit(1);
    }
    bt_game_free(g);
    return s;
}

/* Proves the periodicity of spec and checks the published figures. */
static int
prove(const char *spec, size_t want_p, size_t want_pre)
{
    bt_sequence *s = sequence(spec, BT_SEQ_AUTO);
    bt_diag d;
    size_t p = 0, pre = 0;
    double c0 = cpu_now(), w0 = wall_now(), c1, w1;
    int ok;
    if (bt_sequence_prove(s, (size_t)1 << 26, NULL, &d) != BT_OK) {
        fprintf(stderr, "%s: %s\n", spec, d.message);
        exit(1);
    }
    c1 = cpu_now();
    w1 = wall_now();
    ok = bt_sequence_is_proved(s) && bt_sequence_period(s, &p, &pre) &&
         p == want_p && pre == want_pre;
    printf("prove %-11s %7.3f s cpu %7.3f s wall  %zu values  period %zu "
           "preperiod %zu %s  (%s, mask %u, %zu sparse)  peak %.1f MiB\n",
           spec, c1 - c0, w1 - w0, bt_sequence_length(s), p, pre,
           ok ? "proved" : "WRONG", bt_sequence_method_name(s),
           bt_sequence_rare_mask(s), bt_sequence_rare_count(s), peak_mib());
    bt_sequence_free(s);
    return ok ? 0 : 1;
}

static int
officers(void)
{
    bt_sequence *s = sequence("officers", BT_SEQ_AUTO);
    bt_diag d;
    double c0 = cpu_now(), w0 = wall_now(), c1, w1;
    if (bt_sequence_compute(s, (size_t)1 << 20, NULL, &d) != BT_OK) {
        fprintf(stderr, "officers: %s\n", d.message);
        exit(1);
    }
    c1 = cpu_now();
    w1 = wall_now();
    printf("officers to 2^20    %7.3f s cpu %7.3f s wall  %zu values  "
           "proved %d  (%s, mask %u, %zu sparse)  peak %.1f MiB\n",
           c1 - c0, w1 - w0, bt_sequence_length(s), bt_sequence_is_proved(s),
           bt_sequence_method_name(s), bt_sequence_rare_mask(s),
           bt_sequence_rare_count(s), peak_mib());
    bt_sequence_free(s);
    return 0;
}

/* The plain method on Treblecross (0.007: take 3, leaving 0, 1 or 2
   heaps): heap n has floor((n - 3) / 2) splits for n >= 5; pair-XORs per
   second is their total over the CPU time. */
static int
treblecross(void)
{
    const size_t n = (size_t)1 << 18;
    bt_sequence *s = sequence("treblecross", BT_SEQ_PLAIN);
    bt_diag d;
    double c0 = cpu_now(), w0 = wall_now(), c1, w1, pairs = 0;
    size_t i;
    if (bt_sequence_compute(s, n, NULL, &d) != BT_OK) {
        fprintf(stderr, "treblecross: %s\n", d.message);
        exit(1);
    }
    c1 = cpu_now();
    w1 = wall_now();
    for (i = 5; i < n; i++)
        pairs += (double)((i - 3) / 2);
    printf("treblecross plain to 2^18 %7.3f s cpu %7.3f s wall  %.3g "
           "pair-XORs, %.3g per cpu second  peak %.1f MiB\n",
           c1 - c0, w1 - w0, pairs, pairs / (c1 - c0), peak_mib());
    bt_sequence_free(s);
    return 0;
}

int
main(int argc, char **argv)
{
    static const char *const all[] = {"0.16", "0.354", "officers",
                                      "treblecross"};
    const char *const *cases = argc > 1 ? (const char *const *)argv + 1 : all;
    int n = argc > 1 ? argc - 1 : 4, i, rc = 0;
    for (i = 0; i < n; i++) {
        if (strcmp(cases[i], "0.16") == 0)
            rc |= prove("octal:0.16", 149459, 105351);
        else if (strcmp(cases[i], "0.354") == 0)
            rc |= prove("octal:0.354", 1180, 10061916);
        else if (strcmp(cases[i], "officers") == 0)
            rc |= officers();
        else if (strcmp(cases[i], "treblecross") == 0)
            rc |= treblecross();
        else {
            fprintf(stderr,
                    "unknown case '%s' (0.16, 0.354, officers, "
                    "treblecross)\n",
                    cases[i]);
            return 2;
        }
        fflush(stdout);
    }
    return rc;
}
