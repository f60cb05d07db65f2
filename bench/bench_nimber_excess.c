/*
 * bench_nimber_excess.c -- Lenstra's excess m_p (bt_nimber_excess in
 * include/bouton/nimber.h; OEIS A380496), as far as a CPU budget allows.
 * Prints p, f(p), m_p, the exponent e_p and the CPU time of this process
 * when each row was finished (the rows are computed in order, each reusing
 * what the smaller primes found).  Usage: bench_nimber_excess [PMAX
 * [SECONDS]] (defaults 281 and 600 s of CPU; stops cleanly at the budget).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <bouton.h>

static double budget, last;

static double
cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
over(void *ud)
{
    (void)ud;
    return cpu_s() > budget;
}

static void
row(const bt_nimber_excess_row *r, void *ud)
{
    double t = cpu_s();
    (void)ud;
    printf("%4u %4u %3u %8lu %10.2f %10.2f\n", r->p, r->f, r->m, r->exponent,
           t, t - last);
    fflush(stdout);
    last = t;
}

int
main(int argc, char **argv)
{
    unsigned pmax = argc > 1 ? (unsigned)atoi(argv[1]) : 281;
    bt_nimber_excess_row rows[200];
    size_t n = 0;
    bt_limits lim;
    bt_diag d;
    bt_status st;
    budget = argc > 2 ? atof(argv[2]) : 600;
    bt_limits_default(&lim);
    lim.interrupt = over;
    printf("   p f(p) m_p      e_p  cpu_total_s  cpu_row_s\n");
    last = cpu_s();
    st = bt_nimber_excess(rows, 200, &n, pmax, row, NULL, &lim, &d);
    printf("%zu rows; %s%s%s\n", n, bt_status_name(st),
           st ? ": " : "", st ? d.message : "");
    return 0;
}
