/*
 * bench_quotient.c -- misère quotients (issue 13, "Performance").
 *
 *   kayles-N    the quotient of Kayles heaps up to N
 *   0.07-N      the quotient of Dawson's Kayles heaps up to N
 *   0.35-N      the quotient of 0.35 heaps up to N (a fast-growing one)
 *   analyze     bt_analyze, misère, of 10^4 random Kayles heaps of at most
 *               24 counters (through the quotient), with every winning move,
 *               twice: the second call finds the quotient in the cache
 *   search      not a case: the cases after it learn without pretending,
 *               by L* over the exact search alone (its memo is then what
 *               the time goes to)
 *
 * Usage: bench_quotient [CASE...] (default: kayles-20 0.07-20 0.35-10
 * analyze).  One line per case: CPU seconds of this process (the machine
 * is shared), wall seconds, and what was found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bouton.h>

/* The library's switch of pretending (src/engines/engines.h), which the
   tests use too. */
void bt__quotient_set_pretending(int on);

/* The largest heap of the analysis case. */
#define ANALYZE_MAX_HEAP 24

static double
now(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
run_quotient(const char *spec, size_t n)
{
    bt_game *g;
    bt_quotient *q;
    bt_diag d;
    bt_limits lim;
    double c0, w0;
    bt_status st;
    bt_limits_default(&lim);
    lim.max_search = 50000000;
    if (bt_game_new(&g, spec, &d) != BT_OK)
        return 1;
    c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    w0 = now(CLOCK_MONOTONIC);
    st = bt_quotient_new(&q, g, n, &lim, &d);
    if (st != BT_OK) {
        printf("%s-%zu: %s (%s)\n", spec, n, bt_status_name(st), d.message);
        bt_game_free(g);
        return 1;
    }
    printf("%s-%zu: cpu %.2f s, wall %.2f s, order %zu, |P| %zu, %zu "
           "generators\n",
           spec, n, now(CLOCK_PROCESS_CPUTIME_ID) - c0,
           now(CLOCK_MONOTONIC) - w0, bt_quotient_order(q),
           bt_quotient_p_count(q), bt_quotient_generator_count(q));
    bt_quotient_free(q);
    bt_game_free(g);
    return 0;
}

/* One misère analysis of p; prints CPU and wall time. */
static int
analyze_once(const bt_position *p, const char *what)
{
    bt_analysis *a;
    bt_diag d;
    double c0 = now(CLOCK_PROCESS_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
    if (bt_analyze(&a, p, BT_MISERE, NULL, &d) != BT_OK) {
        printf("analyze: %s\n", d.message);
        return 1;
    }
    printf("analyze (%s): 10^4 Kayles heaps of 1..%d: cpu %.3f s, wall "
           "%.3f s, %s, %zu winning moves\n",
           what, ANALYZE_MAX_HEAP, now(CLOCK_PROCESS_CPUTIME_ID) - c0,
           now(CLOCK_MONOTONIC) - w0,
           bt_analysis_outcome(a) == BT_P ? "P" : "N",
           bt_analysis_move_count(a));
    bt_analysis_free(a);
    return 0;
}

/* 10^4 random Kayles heaps of 1..ANALYZE_MAX_HEAP, analysed twice: the
   first call computes the quotient, the second finds it in the cache. */
static int
run_analyze(void)
{
    char *text = malloc(10000 * 4 + 16);
    size_t len, i;
    unsigned long long s = 12345;
    bt_position *p;
    bt_diag d;
    int rc;
    len = (size_t)sprintf(text, "kayles");
    for (i = 0; i < 10000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        len += (size_t)sprintf(text + len, " %u",
                               (unsigned)(s >> 33) % ANALYZE_MAX_HEAP + 1);
    }
    if (bt_position_parse(&p, text, NULL, NULL, &d) != BT_OK)
        return 1;
    rc = analyze_once(p, "first call");
    rc |= analyze_once(p, "quotient cached");
    bt_position_free(p);
    free(text);
    return rc;
}

int
main(int argc, char **argv)
{
    static const char *dflt[] = {"kayles-20", "0.07-20", "0.35-10",
                                 "analyze"};
    int i, n = argc > 1 ? argc - 1 : 4, rc = 0;
    for (i = 0; i < n; i++) {
        const char *c = argc > 1 ? argv[i + 1] : dflt[i];
        const char *dash = strrchr(c, '-');
        if (strcmp(c, "analyze") == 0)
            rc |= run_analyze();
        else if (strcmp(c, "search") == 0)
            bt__quotient_set_pretending(0);
        else if (dash != NULL) {
            char spec[64];
            size_t k = (size_t)(dash - c);
            if (k >= sizeof spec - 8)
                return 2;
            if (strncmp(c, "kayles", k) == 0)
                strcpy(spec, "kayles");
            else {
                strcpy(spec, "octal:");
                memcpy(spec + 6, c, k);
                spec[6 + k] = '\0';
            }
            rc |= run_quotient(spec, (size_t)atol(dash + 1));
        } else {
            fprintf(stderr, "unknown case %s\n", c);
            return 2;
        }
    }
    return rc;
}
