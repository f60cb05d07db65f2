/* label: quick
 *
 * test_budget.c -- the suite-wide rule of issue 26: no loop of the library
 * runs unbounded work without polling the budget (time, memory,
 * interrupt), the family hooks included.
 *
 * For every family (nim, moore, wythoff, sub, octal, tb, grundy, the coin
 * games, sums) its
 * heaviest public entry points (analysis with moves, misère analysis,
 * remoteness, tables, Grundy sequences and tables, counts, quotients, the
 * parse of a long text) run on an input that takes far longer than the
 * bound without a budget, three times:
 *   - TIME: an interrupt that says stop after 50 ms of the process's CPU;
 *   - PRESET: an interrupt already set when the call starts;
 *   - MEMORY: max_memory of 2 MB (GMP's allocations charged too: the
 *     test installs bt_gmp_install_allocators), for the cases that hold
 *     memory as they go; a backstop interrupt past the bound keeps a case
 *     the budget misses from hanging the test.
 * Each call must return a status of the budget (BT_EINTR, BT_ELIMIT; some
 * cases also BT_ERANGE, or BT_OK where a theorem answers at once) within a
 * bound of CPU time: 2 s (10 s in a sanitizer build, at -O0 about 7 times
 * slower), for a case that the budget stops after 50 ms.  A case that fails names its entry point, its
 * mode, the status and the CPU time.
 *
 * test_closed_forms: the closed forms, which never poll (Wythoff's pairs,
 * indexes and moves, a table's start), on numbers of 10^6 digits (the
 * default max_digits) stop at an interrupt already set and fail past
 * max_memory (they answered BT_OK under both before their scope); the
 * nimber operations (polled) on 2^19-bit operands stop at their budget.
 *
 * test_gmp_charged: GMP's allocations in an entry point count against
 * max_memory too (an analysis whose copies and moves of big numbers pass
 * it stops with BT_ELIMIT).
 *
 * The cases of the findings are in test functions of their own,
 * named after the finding (test_finding_moore_*, test_finding_search_*,
 * test_finding_sequence_*, test_finding_quotient_*, test_finding_opponent_*,
 * test_finding_record_*), one each, so that every case reports.
 *
 * Cases marked GAP must also poll often: at most 5 ms of CPU between two
 * polls (the Wythoff Grundy table and the misère search polled 17-31 ms
 * apart).  BT_TEST_VERBOSE prints every case's longest gap.
 *
 * BT_TEST_VERBOSE=1 prints every call's status and CPU time;
 * BT_TEST_SKIP="test_finding_*" leaves out the cases of the other
 * findings; BT_TEST_ONLY=NAME (a glob) runs only those tests.
 *
 * CPU: about 8 s in all when every case stops at its budget (about 80
 * calls of at most 50 ms, plus building the inputs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <bouton.h>

#include "testutil.h"

/* seconds of CPU for one call stopped at 50 ms: 2 s on a normal build,
   10 under ASan, 60 under valgrind (bt_test_cpu_bound) */
#define CPU_BOUND bt_test_cpu_bound(2.0)

/* ------------------------------------------------------------ harness */

enum { TIME, PRESET, MEMORY, NMODES };
static const char *const mode_name[] = {"50 ms of CPU", "interrupt set",
                                        "max_memory 2 MB"};

/* statuses a case may end with, besides BT_EINTR and BT_ELIMIT */
#define MAY_OK (1u << BT_OK)
#define MAY_RANGE (1u << BT_ERANGE)
/* A case whose polls must come often: under 50 ms of CPU, at most
   GAP_BOUND of CPU between two of them, its setup included (5 ms; 25
   under sanitizers).  The server's slice is 1 ms: a loop that polls every
   20 ms holds an HTTP thread that long before its request moves. */
#define GAP (1u << 30)
#define GAP_BOUND bt_test_cpu_bound(0.005)

static double
cpu_process(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double deadline;
/* the longest CPU time between two polls of the interrupt in a call, and
   when the last was (BT_TEST_VERBOSE prints it: a long gap is a loop that
   polls too rarely, though the budget stops it in the end) */
static double last_poll, poll_gap;

static int
after_deadline(void *ud)
{
    double now = cpu_process();
    (void)ud;
    if (now - last_poll > poll_gap)
        poll_gap = now - last_poll;
    last_poll = now;
    return now > deadline;
}

static int
always(void *ud)
{
    (void)ud;
    return 1;
}

/* One entry point on one heavy input under lim; the status it returns. */
typedef bt_status (*case_fn)(const bt_limits *lim, bt_diag *d);

static void
run_mode(const char *name, case_fn fn, int mode, unsigned may)
{
    bt_limits lim;
    bt_diag d;
    bt_status st;
    double t0, used;
    bt_limits_default(&lim);
    memset(&d, 0, sizeof d);
    if (mode == TIME)
        lim.interrupt = after_deadline;
    else if (mode == PRESET)
        lim.interrupt = always;
    else
        lim.max_memory = (size_t)2 << 20;
    t0 = cpu_process();
    deadline = t0 + 0.05;
    last_poll = t0;
    poll_gap = 0;
    if (mode == MEMORY) {
        /* a backstop, so that a case the memory budget does not stop
           fails (past the bound) rather than hangs */
        lim.interrupt = after_deadline;
        deadline = t0 + CPU_BOUND + 0.5;
    }
    st = fn(&lim, &d);
    used = cpu_process() - t0;
    if (getenv("BT_TEST_VERBOSE") != NULL)
        fprintf(stderr, "%-50s %-16s %-7s %.3f s (polls at most %.1f ms "
                        "apart)\n",
                name, mode_name[mode], bt_status_name(st), used,
                mode == PRESET ? 0.0 : 1e3 * poll_gap);
    if (mode == TIME && (may & GAP) && poll_gap > GAP_BOUND)
        fail_msg("%s under %s: %.1f ms of CPU between two polls (want at "
                 "most %.0f ms)",
                 name, mode_name[mode], 1e3 * poll_gap, 1e3 * GAP_BOUND);
    if (used > CPU_BOUND ||
        !(st == BT_EINTR || st == BT_ELIMIT || ((may >> st) & 1u)))
        fail_msg("%s under %s: %s after %.2f s of CPU (want EINTR or "
                 "ELIMIT%s%s within %.0f s): %s",
                 name, mode_name[mode], bt_status_name(st), used,
                 (may & MAY_RANGE) ? " or ERANGE" : "",
                 (may & MAY_OK) ? " or OK" : "", CPU_BOUND, d.message);
}

/* Runs a case in the modes TIME and PRESET, and MEMORY when `may` has
   MEM: a computation that holds memory as it goes (searches, sequences,
   tables of values, many games); a walk in constant memory (a table of
   P-positions) is stopped by time alone. */
#define MEM (1u << 31)
static void
run_case(const char *name, case_fn fn, unsigned may)
{
    int mode;
    if (getenv("BT_TEST_VERBOSE") != NULL)
        fprintf(stderr, "%s ...\n", name);
    /* Under valgrind (bt_test_light(): 20-50 times slower) CPU bounds mean
       nothing: only the interrupt already set runs, which still takes
       every case's path out of its loops, the one memcheck is for. */
    for (mode = 0; mode < NMODES; mode++)
        if ((mode != MEMORY || (may & MEM)) &&
            (mode == PRESET || !bt_test_light()))
            run_mode(name, fn, mode, may & ~MEM);
}

/* --------------------------------------------------------- the inputs */

/* term repeated n times, joined by " + "; malloc'd. */
static char *
repeat(const char *term, size_t n)
{
    size_t len = strlen(term), i;
    char *s = malloc((len + 3) * n + 1), *at = s;
    assert_non_null(s);
    for (i = 0; i < n; i++) {
        if (i) {
            memcpy(at, " + ", 3);
            at += 3;
        }
        memcpy(at, term, len);
        at += len;
    }
    *at = '\0';
    return s;
}

/* A decimal number of `digits` digits (7...7); malloc'd. */
static char *
big(size_t digits)
{
    char *s = malloc(digits + 1);
    assert_non_null(s);
    memset(s, '7', digits);
    s[digits] = '\0';
    return s;
}

/* Parses text (default limits: the parse itself is not the case). */
static bt_position *
pos(const char *text)
{
    return bt_test_parse(text, NULL, NULL);
}

static bt_status
analyze_text(const char *text, unsigned flags, const bt_limits *lim,
             bt_diag *d)
{
    bt_position *p = pos(text);
    bt_analysis *a = NULL;
    bt_status st = bt_analyze(&a, p, flags, lim, d);
    bt_analysis_free(a);
    bt_position_free(p);
    return st;
}

static bt_status
remoteness_text(const char *text, int misere, const bt_limits *lim,
                bt_diag *d)
{
    bt_position *p = pos(text);
    bt_status st;
    mpz_t r;
    mpz_init(r);
    st = bt_remoteness(r, p, misere, lim, d);
    mpz_clear(r);
    bt_position_free(p);
    return st;
}

/* Rows of a table until it ends or fails (at most 10^7). */
static bt_status
table_rows(const char *spec, int misere, size_t k, const char *min,
           const char *below, const bt_limits *lim, bt_diag *d)
{
    bt_game *g = bt_test_game(spec);
    bt_table *t = NULL;
    mpz_t lo, hi, *row;
    size_t i, w, n = 0;
    int r = 1;
    bt_status st;
    mpz_init_set_str(lo, min, 10);
    mpz_init_set_str(hi, below, 10);
    st = bt_table_new(&t, g, misere, k, lo, hi, lim, d);
    if (st == BT_OK) {
        w = bt_table_width(t);
        row = malloc(w * sizeof *row);
        assert_non_null(row);
        for (i = 0; i < w; i++)
            mpz_init(row[i]);
        while (n++ < 10000000 && (r = bt_table_next(t, row)) == 1)
            ;
        st = r < 0 ? (bt_status)-r : BT_OK;
        if (r < 0)
            snprintf(d->message, sizeof d->message, "%s",
                     bt_table_message(t));
        for (i = 0; i < w; i++)
            mpz_clear(row[i]);
        free(row);
    }
    bt_table_free(t);
    bt_game_free(g);
    mpz_clears(lo, hi, NULL);
    return st;
}

static bt_status
sequence_of(const char *spec, size_t n, int prove, const bt_limits *lim,
            bt_diag *d)
{
    bt_game *g = bt_test_game(spec);
    bt_sequence *s = NULL;
    bt_status st = bt_sequence_new(&s, g, BT_SEQ_AUTO, d);
    if (st == BT_OK)
        st = prove ? bt_sequence_prove(s, n, lim, d)
                   : bt_sequence_compute(s, n, lim, d);
    bt_sequence_free(s);
    bt_game_free(g);
    return st;
}

/* --------------------------------------------------------------- Nim */

/* 64 piles of 50 000 digits: each row is 3 MB of numbers. */
static bt_status
nim_table(const bt_limits *lim, bt_diag *d)
{
    char *lo = big(50000), *hi = big(50001);
    bt_status st = table_rows("nim", 0, 64, lo, hi, lim, d);
    free(lo);
    free(hi);
    return st;
}

static bt_status
nim_table_misere(const bt_limits *lim, bt_diag *d)
{
    return table_rows("nim", 1, 6, "0", "1000000", lim, d);
}

/* Misère analysis of a sum of Nim and another game: the search. */
static bt_status
nim_misere_sum(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("nim 30 31 29 28 27 26 + kayles 30 29", BT_MISERE,
                        lim, d);
}

static bt_status
nim_count(const bt_limits *lim, bt_diag *d)
{
    bt_game *g = bt_test_game("nim");
    mpz_t pos_, p, lo, hi;
    char *m = big(1000);
    bt_status st;
    mpz_inits(pos_, p, lo, NULL);
    mpz_init_set_str(hi, m, 10);
    /* about 1.3 s of CPU without a budget */
    st = bt_game_count(pos_, p, NULL, g, 64, lo, hi, 0, lim, d);
    mpz_clears(pos_, p, lo, hi, NULL);
    free(m);
    bt_game_free(g);
    return st;
}

static void
test_nim(void **state)
{
    (void)state;
    run_case("nim table, 64 piles of 50 000 digits", nim_table, 0);
    run_case("misère nim table, 6 piles below 10^6", nim_table_misere, 0);
    run_case("misère analysis of nim + kayles", nim_misere_sum, 0 | MEM);
    run_case("nim count, 64 piles below 10^1000", nim_count, 0);
}

/* ----------------------------------------------------------- Wythoff */

static bt_status
wythoff_table_far(const bt_limits *lim, bt_diag *d)
{
    char *lo = big(100000), *hi = big(100001);
    bt_status st = table_rows("wythoff", 0, 1, lo, hi, lim, d);
    free(lo);
    free(hi);
    return st;
}

static bt_status
wythoff_table_long(const bt_limits *lim, bt_diag *d)
{
    return table_rows("wythoff:2", 1, 1, "0",
                      "100000000000000000000000000000", lim, d);
}

static bt_status
wythoff_sg(const bt_limits *lim, bt_diag *d)
{
    bt_game *g = bt_test_game("wythoff");
    bt_wythoff_sg *t = NULL;
    bt_status st = bt_wythoff_sg_new(&t, g, 8000, lim, d);
    bt_wythoff_sg_free(t);
    bt_game_free(g);
    return st;
}

/* A sum of Wythoff pairs: Grundy values from the table, then the moves. */
static bt_status
wythoff_sum_moves(const bt_limits *lim, bt_diag *d)
{
    char *text = repeat("wythoff 3000 4001", 200);
    bt_status st = analyze_text(text, 0, lim, d);
    free(text);
    return st;
}

static bt_status
wythoff_misere_sum(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("wythoff 20 33 + wythoff 17 40 + wythoff 25 26",
                        BT_MISERE, lim, d);
}

static bt_status
wythoff_remoteness(const bt_limits *lim, bt_diag *d)
{
    return remoteness_text("wythoff 30 41 + wythoff 28 29 + wythoff 33 35",
                           0, lim, d);
}

static void
test_wythoff(void **state)
{
    (void)state;
    run_case("wythoff table from 10^100000", wythoff_table_far, MAY_OK);
    run_case("misère wythoff:2 table below 10^29", wythoff_table_long, 0);
    /* it polled once a row of 64 x 8000 cells, 30 ms apart */
    run_case("wythoff Grundy table of side 8000", wythoff_sg, GAP | MEM);
    run_case("analysis of 200 wythoff pairs", wythoff_sum_moves,
             MAY_RANGE | MEM);
    run_case("misère analysis of 3 wythoff pairs", wythoff_misere_sum, 0 | MEM);
}

/* ------------------------------------------------------ closed forms */

/*
 * The closed forms never poll: their work is a constant number of
 * operations on numbers of their inputs' size, at most max_digits (10^6
 * by default) each, so a call is bounded by that limit; a scope of their
 * own (BT__GMP_CHARGED_CLOSED) adds the budget's two halves: an interrupt
 * already set stops the call before it starts, and numbers past
 * max_memory fail it (they answered BT_OK under both).  Under 50 ms of
 * CPU they may finish (BT_OK) within the bound.
 */
#define CLOSED_DIGITS 1000000

static bt_status
closed_number(mpz_t x)
{
    char *s = big(CLOSED_DIGITS);
    int rc = mpz_set_str(x, s, 10);
    free(s);
    return rc == 0 ? BT_OK : BT_EINVAL;
}

static bt_status
closed_pair(const bt_limits *lim, bt_diag *d)
{
    bt_game *g = bt_test_game("wythoff");
    mpz_t n, lo, hi;
    bt_status st;
    mpz_inits(n, lo, hi, NULL);
    closed_number(n);
    st = bt_wythoff_pair(lo, hi, g, 0, n, lim, d);
    mpz_clears(n, lo, hi, NULL);
    bt_game_free(g);
    return st;
}

static bt_status
closed_index_of(const bt_limits *lim, bt_diag *d)
{
    bt_game *g = bt_test_game("wythoff:3");
    mpz_t x, n, lo, hi;
    bt_status st;
    mpz_inits(x, n, lo, hi, NULL);
    closed_number(x);
    st = bt_wythoff_index_of(n, NULL, lo, hi, g, 1, x, lim, d);
    mpz_clears(x, n, lo, hi, NULL);
    bt_game_free(g);
    return st;
}

static bt_status
closed_winning(const bt_limits *lim, bt_diag *d)
{
    bt_game *g = bt_test_game("wythoff");
    mpz_t x, y, to[BT_WYTHOFF_MAX_WINNING][2];
    size_t count = 0, i;
    int is_p = 0;
    bt_status st;
    mpz_inits(x, y, NULL);
    for (i = 0; i < BT_WYTHOFF_MAX_WINNING; i++)
        mpz_inits(to[i][0], to[i][1], NULL);
    closed_number(x);
    mpz_add_ui(y, x, 1);
    st = bt_wythoff_is_p(&is_p, g, 0, x, y, lim, d);
    if (st == BT_OK)
        st = bt_wythoff_winning(to, &count, g, 0, x, y, lim, d);
    for (i = 0; i < BT_WYTHOFF_MAX_WINNING; i++)
        mpz_clears(to[i][0], to[i][1], NULL);
    mpz_clears(x, y, NULL);
    bt_game_free(g);
    return st;
}

static bt_status
closed_table(const bt_limits *lim, bt_diag *d)
{
    bt_game *g = bt_test_game("wythoff");
    bt_table *t = NULL;
    mpz_t min, below;
    bt_status st;
    mpz_inits(min, below, NULL);
    closed_number(min);
    mpz_add_ui(below, min, 1000);
    st = bt_table_new(&t, g, 0, 1, min, below, lim, d);
    if (st == BT_OK) {
        /* its first row: where the work is (polled, in a scope) */
        mpz_t row[2];
        int r;
        mpz_inits(row[0], row[1], NULL);
        r = bt_table_next(t, row);
        st = r < 0 ? (bt_status)-r : BT_OK;
        mpz_clears(row[0], row[1], NULL);
    }
    bt_table_free(t);
    mpz_clears(min, below, NULL);
    bt_game_free(g);
    return st;
}

/* The nimber operations poll their one budget (nimber.c); operands of
   2^19 bits (10^5 words: about 10^8 word products for a product). */
static bt_status
nimber_op(int op, const bt_limits *lim, bt_diag *d)
{
    mpz_t a, b, r;
    bt_status st;
    mpz_inits(a, b, r, NULL);
    mpz_ui_pow_ui(a, 3, 330000); /* 523 042 bits */
    mpz_ui_pow_ui(b, 7, 180000);
    st = op == 0   ? bt_nimber_mul(r, a, b, lim, d)
         : op == 1 ? bt_nimber_pow(r, a, b, lim, d)
         : op == 2 ? bt_nimber_inv(r, a, lim, d)
                   : bt_nimber_sqrt(r, a, lim, d);
    mpz_clears(a, b, r, NULL);
    return st;
}

static bt_status
nimber_mul(const bt_limits *lim, bt_diag *d)
{
    return nimber_op(0, lim, d);
}

static bt_status
nimber_pow(const bt_limits *lim, bt_diag *d)
{
    return nimber_op(1, lim, d);
}

static bt_status
nimber_inv(const bt_limits *lim, bt_diag *d)
{
    return nimber_op(2, lim, d);
}

static bt_status
nimber_sqrt(const bt_limits *lim, bt_diag *d)
{
    return nimber_op(3, lim, d);
}

/* A case that must stop at an interrupt already set, may finish within
   the bound under 50 ms of CPU, and under max_memory must stop (mem 1)
   or is not run (mem 0: its memory is within the 2 MB, and its time is
   the time budget's). */
static void
run_closed(const char *name, case_fn fn, int mem)
{
    if (getenv("BT_TEST_VERBOSE") != NULL)
        fprintf(stderr, "%s ...\n", name);
    run_mode(name, fn, PRESET, 0);
    if (bt_test_light())
        return;
    if (mem)
        run_mode(name, fn, MEMORY, 0);
    run_mode(name, fn, TIME, MAY_OK);
}

static void
test_closed_forms(void **state)
{
    (void)state;
    run_closed("wythoff pair of an index of 10^6 digits", closed_pair, 1);
    run_closed("misère wythoff:3 index of 10^6 digits", closed_index_of, 1);
    run_closed("wythoff moves of a pair of 10^6 digits", closed_winning, 1);
    run_closed("wythoff table from 10^6 digits, a row", closed_table, 1);
    /* a field of 2^20 bits: its work space (6 times 128 KiB) fits 2 MB,
       and the power runs to its time budget */
    run_closed("nimber product of 2^19-bit numbers", nimber_mul, 0);
    run_closed("nimber power of a 2^19-bit number", nimber_pow, 0);
    run_closed("nimber inverse of a 2^19-bit number", nimber_inv, 0);
    run_closed("nimber square root of a 2^19-bit number", nimber_sqrt, 0);
}

/* ----------------------------------------------------- subtraction */

static bt_status
sub_sequence(const bt_limits *lim, bt_diag *d)
{
    return sequence_of("sub:1,3,7,19,37,61,97,151,211,307", 1 << 26, 0, lim,
                       d);
}

static bt_status
sub_table(const bt_limits *lim, bt_diag *d)
{
    return table_rows("sub:1-3,7", 0, 3, "0", "4000000", lim, d);
}

static bt_status
sub_table_misere(const bt_limits *lim, bt_diag *d)
{
    return table_rows("sub:1-3,7", 1, 3, "0", "400", lim, d);
}

static bt_status
sub_misere_sum(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("sub:1-3,7 40 41 42 43 44 45 + sub:2,5 40 41",
                        BT_MISERE, lim, d);
}

static void
test_subtraction(void **state)
{
    (void)state;
    run_case("sub sequence to 2^26", sub_sequence, MAY_OK | MEM);
    run_case("sub table, 3 heaps below 4 000 000", sub_table, 0);
    run_case("misère sub table, 3 heaps below 400", sub_table_misere, 0 | MEM);
    run_case("misère analysis of a sum of two sub games", sub_misere_sum,
             0 | MEM);
}

/* ------------------------------------------------------------- octal */

/* An octal game with no known period: values to max_grundy. */
static bt_status
octal_sequence(const bt_limits *lim, bt_diag *d)
{
    return sequence_of("octal:0.16", 1 << 26, 0, lim, d);
}

/* A huge heap of an unproved code: its moves to a value. */
static bt_status
octal_huge_heap(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("octal:0.16 3000000 + nim 1", 0, lim, d);
}

static bt_status
octal_table(const bt_limits *lim, bt_diag *d)
{
    return table_rows("kayles", 0, 4, "0", "100000", lim, d);
}

static bt_status
octal_misere_table(const bt_limits *lim, bt_diag *d)
{
    return table_rows("kayles", 1, 4, "0", "60", lim, d);
}

static bt_status
octal_remoteness(const bt_limits *lim, bt_diag *d)
{
    return remoteness_text("kayles 14 15 16 17 18", 1, lim, d);
}

static void
test_octal(void **state)
{
    (void)state;
    run_case("octal:0.16 sequence to 2^26", octal_sequence, 0 | MEM);
    /* under max_memory alone its moves are listed from a window: OK */
    run_case("analysis of octal:0.16 3 000 000", octal_huge_heap,
             MAY_RANGE | MAY_OK | MEM);
    run_case("kayles table, 4 heaps below 100 000", octal_table, 0);
    run_case("misère kayles table, 4 heaps below 60", octal_misere_table,
             0 | MEM);
}

/* ---------------------------------------------------- take-and-break */

/* Moves that leave three heaps take the general plain method: cubic
   (about 1.5 s of CPU to 6000 without a budget). */
static bt_status
tb_sequence(const bt_limits *lim, bt_diag *d)
{
    return sequence_of("tb:0.F8", 6000, 0, lim, d);
}

/* Moves that leave three heaps: many options per heap. */
static bt_status
tb_analysis(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("tb:0.F8 6000 + tb:0.F8 6001", 0, lim, d);
}

static bt_status
tb_misere(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("tb:0.F8 30 31 32 33", BT_MISERE, lim, d);
}

static void
test_takebreak(void **state)
{
    (void)state;
    run_case("tb:0.F8 sequence to 6000", tb_sequence, 0);
    run_case("analysis of tb:0.F8 heaps of 6000", tb_analysis, MAY_RANGE);
    run_case("misère analysis of tb:0.F8", tb_misere, 0 | MEM);
}

/* ----------------------------------------------------- Grundy's game */

static bt_status
grundys_sequence(const bt_limits *lim, bt_diag *d)
{
    return sequence_of("grundy", 1 << 26, 0, lim, d);
}

static bt_status
grundys_analysis(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("grundy 3000000 + grundy 2999999", 0, lim, d);
}

static bt_status
grundys_misere(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("grundy 40 41 42 43", BT_MISERE, lim, d);
}

static void
test_grundys(void **state)
{
    (void)state;
    run_case("grundy's game sequence to 2^26", grundys_sequence, 0 | MEM);
    run_case("analysis of grundy 3 000 000", grundys_analysis, MAY_RANGE);
    /* the search polled every 256 new positions, 23 ms apart here */
    run_case("misère analysis of grundy's game", grundys_misere, GAP | MEM);
}

/* ------------------------------------------------------- coin games */

/* Mock Turtles, 600 heads of 30 digits: each head's pairs below it
   (l ^ h < top, as many as top / 2) are walked until max_search cuts the
   list.  (Past max_memory the analysis lists the opponent's window of
   moves, 64 (n + 1) candidates each valued in O(n): quadratic in the
   heads, so a few hundred here.) */
static bt_status
coins_analysis(const bt_limits *lim, bt_diag *d)
{
    char *text = malloc(600 * 40 + 32), *at = text;
    bt_status st;
    int i;
    assert_non_null(text);
    at += sprintf(at, "mock-turtles");
    for (i = 0; i < 600; i++)
        at += sprintf(at, " 1%029d", 7 * i + 3);
    st = analyze_text(text, 0, lim, d);
    free(text);
    return st;
}

/* Every move of Turning Turtles' head at 10^30: 10^30 of them. */
static bt_status
coins_moves(const bt_limits *lim, bt_diag *d)
{
    bt_position *p = pos("turtles 1000000000000000000000000000000");
    bt_move *m = NULL;
    size_t n = 0;
    bt_status st = bt_position_moves(&m, &n, p, lim, d);
    bt_moves_free(m, n);
    bt_position_free(p);
    return st;
}

/* Misère play of a coin game: the exhaustive search. */
static bt_status
coins_misere(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("ruler 3 5 8 13 21 34 55 89", BT_MISERE, lim, d);
}

/* Turning Corners of two heads at 20-digit coordinates: every move set
   of the x side (10^20 of them) paired with the y side's of the value. */
static bt_status
corners_analysis(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("corners 100000000000000000000,300000000000000000007 "
                        "5,123456789012345678901",
                        0, lim, d);
}

static void
test_coins(void **state)
{
    (void)state;
    run_case("analysis of mock-turtles, 600 heads of 30 digits",
             coins_analysis, MAY_OK | MEM);
    run_case("moves of turtles 10^30", coins_moves, 0 | MEM);
    run_case("misère analysis of ruler, 8 heads to 89", coins_misere,
             0 | MEM);
    run_case("analysis of corners, coordinates of 20 digits",
             corners_analysis, MAY_OK | MEM);
}

/* -------------------------------------------------------------- sums */

/* The parse of a long sum of one game under many names. */
static bt_status
sum_parse_long(const bt_limits *lim, bt_diag *d)
{
    char *text = repeat("kayles 1 + octal:0.77 2 + dawsons-kayles 3",
                        400000);
    bt_position *p = NULL;
    bt_status st = bt_position_parse(&p, text, NULL, lim, d);
    bt_position_free(p);
    free(text);
    return st;
}

/* 1 000 distinct codes with moves that leave three heaps, each with its
   own sequence (20 s of CPU and 5 GB at its peak with remoteness). */
static bt_status
sum_distinct_games(const bt_limits *lim, bt_diag *d)
{
    char *text = malloc(1000 * 32), *at = text;
    bt_status st;
    unsigned i;
    assert_non_null(text);
    for (i = 1; i <= 1000; i++)
        at += sprintf(at, "%stb:0.%08X7 300", i > 1 ? " + " : "",
                      (i * 2654435761u) | 0x8u);
    st = analyze_text(text, 0, lim, d);
    free(text);
    return st;
}

static bt_status
sum_misere(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("nim 9 10 + kayles 20 21 + sub:1-3,7 30 + "
                        "wythoff 10 12 + grundy 30 + tb:0.F8 20",
                        BT_MISERE, lim, d);
}

static bt_status
sum_moves(const bt_limits *lim, bt_diag *d)
{
    bt_position *p = pos("kayles 3000 + tb:0.F8 3000 + grundy 3000");
    bt_move *m = NULL;
    size_t n = 0;
    bt_status st = bt_position_moves(&m, &n, p, lim, d);
    bt_moves_free(m, n);
    bt_position_free(p);
    return st;
}

static void
test_sums(void **state)
{
    (void)state;
    run_case("parse of 1 200 000 terms of Kayles", sum_parse_long, 0 | MEM);
    run_case("analysis of 1 000 distinct tb games", sum_distinct_games,
             0 | MEM);
    run_case("misère analysis of a sum of six families", sum_misere,
             GAP | MEM); /* 17 ms apart when only new positions counted */
    run_case("every move of a sum of three heaps of 3000", sum_moves,
             MAY_OK | MEM);
}

/* ------------------------------------- cases of the findings */

/*
 * Finding 1: Moore's Nim and the misère search (moore.c, remoteness.c,
 * search.c) ran loops that did not poll.
 */
/* 400 piles: the winning moves of Moore's Nim (6 s of CPU before). */
static bt_status
moore_analysis(const bt_limits *lim, bt_diag *d)
{
    char text[4096], *at = text;
    unsigned i;
    at += sprintf(at, "moore:3");
    for (i = 0; i < 400; i++)
        at += sprintf(at, " %u", 1000 + 7 * i);
    return analyze_text(text, 0, lim, d);
}

static bt_status
moore_misere(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("moore:2 30 31 32 33 34 35", BT_MISERE, lim, d);
}

static bt_status
moore_table(const bt_limits *lim, bt_diag *d)
{
    return table_rows("moore:2", 0, 5, "0", "100000", lim, d);
}

static bt_status
moore_remoteness(const bt_limits *lim, bt_diag *d)
{
    return remoteness_text("moore:2 12 13 14 15 16", 0, lim, d);
}

static void
test_finding_moore_analysis(void **state)
{
    (void)state;
    /* OK is an answer too: the list stops at max_search (a move counts
       its piles' words) and the analysis says it is incomplete, at once */
    run_case("analysis of moore:3, 400 piles", moore_analysis,
             MAY_OK | MEM);
}

static void
test_finding_moore_misere(void **state)
{
    (void)state;
    run_case("misère analysis of moore:2, 6 piles", moore_misere,
             MAY_OK | MEM);
}

static void
test_finding_moore_table(void **state)
{
    (void)state;
    run_case("moore:2 table, 5 piles below 100 000", moore_table, 0);
}

static void
test_finding_search_remoteness(void **state)
{
    (void)state;
    run_case("remoteness of moore:2, 5 piles", moore_remoteness, 0 | MEM);
    run_case("remoteness of 3 wythoff pairs", wythoff_remoteness, 0 | MEM);
    run_case("misère remoteness of 5 kayles heaps", octal_remoteness,
             0 | MEM);
}

/*
 * Findings 3, 5 and 7: period detection (sequence.c) and quotient
 * verification (quotient.c) ran loops that did not poll.
 */
static bt_status
sequence_prove(const bt_limits *lim, bt_diag *d)
{
    return sequence_of("octal:0.06", 1 << 26, 1, lim, d); /* open */
}

static void
test_finding_sequence_period(void **state)
{
    (void)state;
    /* slow, not large: 174 000 values in 2.5 s hold under 2 MB */
    run_case("octal:0.06 proof of periodicity to 2^26", sequence_prove, 0);
}

static bt_status
quotient_kayles(const bt_limits *lim, bt_diag *d)
{
    bt_game *g = bt_test_game("kayles");
    bt_quotient *q = NULL;
    bt_status st = bt_quotient_new_until_proved(&q, g, 100000, lim, d);
    bt_quotient_free(q);
    bt_game_free(g);
    return st;
}

static bt_status
quotient_misere(const bt_limits *lim, bt_diag *d)
{
    return analyze_text("octal:0.137 30 31 32 33 34 35 36 37", BT_MISERE,
                        lim, d);
}

static void
test_finding_quotient_kayles(void **state)
{
    (void)state;
    /* time only, as the misère analysis below: the learner is bounded by
       max_search, and under 2 MB it runs to its proof (1.4 s of CPU,
       past 10 s under ASan), which is no test of the budget */
    run_case("kayles quotient until proved", quotient_kayles, MAY_OK);
}

static void
test_finding_quotient_misere(void **state)
{
    (void)state;
    /* time only: the quotient's learner holds its tables by max_search
       (states), not by max_memory; at the analysis's own budget of
       200 000 states that is about 30 MB (measured: 33 MB of peak RSS
       under --max-memory 2M), so a 2 MB max_memory is no bound for it */
    run_case("misère analysis through the quotient", quotient_misere, 0);
}

/*
 * Finding 9: the remaining loops (record.c, opponent.c, quotient.c): the
 * opponent's window of moves of a component of many numbers, the moves of
 * a long record, the tame check.
 */
/* A P-position of Moore's Nim (k = 2) of 3000 piles of one counter: its
   options pass the opponent's budget, so the proxy lists the window
   (window_plain), 64 * 3001 candidates of 3000 numbers (3.6 s of CPU,
   and OK, before it polled). */
static bt_status
opponent_moore_window(const bt_limits *lim, bt_diag *d)
{
    char *text = malloc(8 + 2 * 3000), *at = text;
    bt_position *p;
    bt_move *m = NULL;
    bt_status st;
    unsigned i;
    assert_non_null(text);
    at += sprintf(at, "moore:2");
    for (i = 0; i < 3000; i++)
        at += sprintf(at, " 1");
    p = pos(text);
    st = bt_opponent_move(&m, p, 0, BT_LEVEL_PERFECT, NULL, lim, d);
    bt_moves_free(m, m != NULL);
    bt_position_free(p);
    free(text);
    return st;
}

/* 3000 Wythoff pairs (30 000, 30 000), and the same with one fewer: no
   move removes a pair, but every one of the 3000 could be the one removed
   (bt_position_find_move), each checked by listing its options (the rules
   do not decide a pair that vanishes). */
static bt_status
record_find_move(const bt_limits *lim, bt_diag *d)
{
    char *from = repeat("wythoff 30000 30000", 3000);
    char *to = repeat("wythoff 30000 30000", 2999);
    bt_position *p = pos(from), *q = pos(to);
    bt_move *m = NULL;
    bt_status st = bt_position_find_move(&m, p, q, lim, d);
    bt_moves_free(m, m != NULL);
    bt_position_free(p);
    bt_position_free(q);
    free(from);
    free(to);
    return st;
}

/* A random start of 10^6 Nim piles below 10^1000: 400 MB of numbers
   (bt_position_random: OK after 0.6 s of CPU and 400 MB, whatever the
   budget, before it polled and charged them). */
static bt_status
opponent_random_start(const bt_limits *lim, bt_diag *d)
{
    bt_game *g = bt_test_game("nim");
    bt_position *p = NULL;
    uint64_t rng = 26;
    char *m = big(1000);
    mpz_t lo, hi;
    bt_status st;
    mpz_init(lo);
    mpz_init_set_str(hi, m, 10);
    st = bt_position_random(&p, g, 1000000, lo, hi, &rng, lim, d);
    bt_position_free(p);
    mpz_clears(lo, hi, NULL);
    free(m);
    bt_game_free(g);
    return st;
}

static void
test_finding_opponent_window(void **state)
{
    (void)state;
    run_case("opponent in moore:2, 3000 piles of 1", opponent_moore_window,
             0);
}

static void
test_finding_opponent_random(void **state)
{
    (void)state;
    run_case("random start of 10^6 piles below 10^1000",
             opponent_random_start, 0 | MEM);
}

static void
test_finding_record_find_move(void **state)
{
    (void)state;
    run_case("find_move among 3000 wythoff pairs", record_find_move, 0);
}

/* ------------------------------------------------ GMP's numbers charged */

/*
 * Nim, n piles of `digits` digits, each 9 then pseudo-random digits, n
 * odd: they share their top bit, so the nim-sum has it and every pile is
 * a winning move to a number of about its size.  malloc'd.
 */
static char *
nine_piles(size_t n, size_t digits)
{
    char *s = malloc(4 + n * (digits + 1) + 1), *at = s;
    uint64_t x = 0x9E3779B97F4A7C15u;
    size_t i, j;
    assert_non_null(s);
    memcpy(at, "nim ", 4);
    at += 4;
    for (i = 0; i < n; i++) {
        *at++ = '9';
        for (j = 1; j < digits; j++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            *at++ = (char)('0' + (x >> 33) % 10);
        }
        *at++ = ' ';
    }
    at[-1] = '\0';
    return s;
}

/*
 * GMP's allocations in a public entry point count against max_memory
 * (bt__gmp_enter): the analysis of 3 001 piles of 2 000 digits holds
 * about 5 MB of numbers (a copy of each value, 3 001 winning moves)
 * beyond the position's 2.5 MB, which the parse charged.  Under a
 * max_memory of 4 MiB it stops with BT_ELIMIT and the max_memory message
 * (it answered before: the numbers were not charged), within the bound of
 * CPU, and so does the misère analysis (its moves alone) under 2 MiB;
 * under the default it answers, and so does the next call on the thread
 * (the budget was left).
 */
static void
test_gmp_charged(void **state)
{
    char *text = nine_piles(3001, 2000);
    bt_position *p = pos(text);
    bt_analysis *a = NULL;
    bt_limits lim;
    bt_diag d;
    bt_status st;
    double t0, used;
    (void)state;
    bt_limits_default(&lim);
    lim.max_memory = (size_t)4 << 20;
    memset(&d, 0, sizeof d);
    t0 = cpu_process();
    st = bt_analyze(&a, p, 0, &lim, &d);
    used = cpu_process() - t0;
    if (st != BT_ELIMIT || strstr(d.message, "max_memory") == NULL ||
        used > CPU_BOUND)
        fail_msg("analysis of 3 001 piles of 2 000 digits under max_memory "
                 "4 MiB: %s after %.2f s of CPU (want ELIMIT, max_memory, "
                 "within %.0f s): %s",
                 bt_status_name(st), used, CPU_BOUND, d.message);
    assert_null(a);
    /* the misère analysis (Bouton's sec. 6) holds the moves, 2.5 MB */
    lim.max_memory = (size_t)2 << 20;
    st = bt_analyze(&a, p, BT_MISERE, &lim, &d);
    assert_int_equal(st, BT_ELIMIT);
    assert_null(a);
    st = bt_analyze(&a, p, 0, NULL, &d);
    assert_int_equal(st, BT_OK);
    assert_int_equal(bt_analysis_move_count(a), 3001);
    bt_analysis_free(a);
    bt_position_free(p);
    free(text);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nim),
        cmocka_unit_test(test_wythoff),
        cmocka_unit_test(test_closed_forms),
        cmocka_unit_test(test_subtraction),
        cmocka_unit_test(test_octal),
        cmocka_unit_test(test_takebreak),
        cmocka_unit_test(test_grundys),
        cmocka_unit_test(test_sums),
        cmocka_unit_test(test_coins),
        cmocka_unit_test(test_finding_moore_analysis),
        cmocka_unit_test(test_finding_moore_misere),
        cmocka_unit_test(test_finding_moore_table),
        cmocka_unit_test(test_finding_search_remoteness),
        cmocka_unit_test(test_finding_sequence_period),
        cmocka_unit_test(test_finding_quotient_kayles),
        cmocka_unit_test(test_finding_quotient_misere),
        cmocka_unit_test(test_finding_opponent_window),
        cmocka_unit_test(test_finding_opponent_random),
        cmocka_unit_test(test_finding_record_find_move),
        cmocka_unit_test(test_gmp_charged),
    };
    bt_gmp_install_allocators(NULL, NULL);
    /* BT_TEST_SKIP="test_finding_*" leaves out the cases of the other
       findings (a glob of cmocka's) */
    if (getenv("BT_TEST_SKIP") != NULL)
        cmocka_set_skip_filter(getenv("BT_TEST_SKIP"));
    if (getenv("BT_TEST_ONLY") != NULL)
        cmocka_set_test_filter(getenv("BT_TEST_ONLY"));
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
