/*
 * cmd_census.c -- `bouton census`: the Grundy sequences of every octal
 * game matching a pattern, one line each in the form of the published
 * tables; on one machine, or on many under MPI (built when MPI is found):
 * rank 0 hands out one game at a time to the ranks that ask (so one slow
 * game never holds back a rank's share) and writes every line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef BOUTON_MPI
#include <mpi.h>
#endif

#include "cli.h"
#include "grundy_run.h"

#define MAX_CODES (1u << 20)
#define CODE_LEN 24

/* The usage and what the command does; its option lines come from the
   table of operations (programs/common/optable.c), then help_tail. */
static const char help_head[] =
    "usage: bouton census --codes PATTERN|@FILE [--upto N] [--until-proved]\n"
    "                     [--json] [--output FILE] [--threads N] [--no-time]\n"
    "                     [--progress | --no-progress]\n\n"
    "The Grundy sequence of every octal game of the pattern, one line each:\n"
    "the code, 'solved' with the period and preperiod (proved by the "
    "Guy-Smith\ntheorem) or 'open' to N values, the last exceptional heap "
    "(the last one\nbefore the period; for an open game the last sparse "
    "position), the largest\nvalue, the rare-value mask, the values "
    "computed and the time.\n\n";
static const char help_tail[] =
    "\nUnder MPI (mpirun -np K bouton census ...) rank 0 hands out the games "
    "and\nwrites the lines; the lines are those of one process, in another "
    "order.\n";

/* One game's line. */
typedef struct result {
    char code[CODE_LEN];
    char method[16];
    int solved;
    unsigned largest, mask;
    long long period, preperiod, last; /* -1: none */
    unsigned long long values;
    double seconds;
} result;

typedef struct census {
    char (*codes)[CODE_LEN];
    size_t ncodes;
    size_t upto;
    int until, json, notime, progress;
    unsigned threads;
    bt_limits lim;
} census;

/* ------------------------------------------------------------ codes */

static int
add_code(census *c, const char *code)
{
    size_t len = strlen(code);
    if (len >= CODE_LEN || c->ncodes >= MAX_CODES)
        return -1;
    if (len > 2 && code[len - 1] == '0')
        return 0; /* the shorter code */
    memcpy(c->codes[c->ncodes++], code, len + 1);
    return 0;
}

/* Every code of pattern p: 'd' at position i stands for each digit. */
static int
expand(census *c, char *buf, const char *p, size_t i)
{
    if (p[i] == '\0') {
        buf[i] = '\0';
        return add_code(c, buf);
    }
    if (p[i] == 'd') {
        const char *digits = i == 0 ? "04" : "01234567";
        size_t k;
        for (k = 0; digits[k]; k++) {
            buf[i] = digits[k];
            if (expand(c, buf, p, i + 1) != 0)
                return -1;
        }
        return 0;
    }
    buf[i] = p[i];
    return expand(c, buf, p, i + 1);
}

static int
valid_pattern(const char *p)
{
    size_t i, len = strlen(p);
    if (len < 3 || len >= CODE_LEN || (p[0] != '0' && p[0] != '4' &&
                                       p[0] != 'd') || p[1] != '.')
        return 0;
    for (i = 2; i < len; i++)
        if (p[i] != 'd' && (p[i] < '0' || p[i] > '7'))
            return 0;
    return 1;
}

/*
 * --codes @FILE: one code a line; blank lines and lines starting with '#'
 * are skipped.  A file that is not text (a NUL byte), a line that is not a
 * code, or a file without any code is bad input: one error naming the
 * file and the line (and the byte, 1-based, for a NUL).
 */
static int
read_codes_file(census *c, const char *pattern)
{
    const char *path = pattern + 1;
    FILE *f = fopen(path, "r");
    char *line = NULL, *nul;
    size_t cap = 0, no = 0, found = 0;
    unsigned long long at = 0; /* bytes before this line */
    ssize_t len;
    int rc = CLI_OK;
    if (f == NULL)
        return cli_error("census", "--codes '%s': %s", pattern,
                         strerror(errno));
    while ((len = getline(&line, &cap, f)) > 0) {
        char *t = line, *e;
        no++;
        if ((nul = memchr(line, '\0', (size_t)len)) != NULL) {
            rc = cli_error("census",
                           "--codes '%s', line %zu (byte %llu): a NUL byte: "
                           "not a text file of codes",
                           pattern, no,
                           at + (unsigned long long)(nul - line) + 1);
            goto done;
        }
        at += (unsigned long long)len;
        while (isspace((unsigned char)*t))
            t++;
        e = t + strlen(t);
        while (e > t && isspace((unsigned char)e[-1]))
            *--e = '\0';
        if (*t == '\0' || *t == '#')
            continue;
        if (strlen(t) > 64)
            t[64] = '\0'; /* the message shows the start of a long line */
        if (!valid_pattern(t) || strchr(t, 'd') != NULL ||
            add_code(c, t) != 0) {
            rc = cli_error("census",
                           "--codes '%s', line %zu: '%s' is not an octal "
                           "code such as 0.137",
                           pattern, no, t);
            goto done;
        }
        found++;
    }
    if (ferror(f)) {
        rc = cli_error("census", "--codes '%s': cannot read it: %s", pattern,
                       strerror(errno));
        goto done;
    }
    if (found == 0)
        rc = cli_error("census",
                       "--codes '%s': no code in it (one octal code a line, "
                       "such as 0.137)",
                       pattern);
done:
    free(line);
    fclose(f);
    return rc;
}

static int
read_codes(census *c, const char *pattern)
{
    char buf[CODE_LEN + 8];
    if (pattern[0] != '@') {
        if (!valid_pattern(pattern))
            return cli_error("census",
                             "--codes '%s': expected a pattern such as 0.ddd "
                             "(0 or 4 or d, a point, octal digits or d) or "
                             "@FILE",
                             pattern);
        if (expand(c, buf, pattern, 0) != 0)
            return cli_error("census", "--codes '%s': more than %u codes",
                             pattern, MAX_CODES);
        return CLI_OK;
    } else {
        return read_codes_file(c, pattern);
    }
}

/* ------------------------------------------------------------ one game */

static double
seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
run_game(const census *c, const char *code, result *r)
{
    char spec[CODE_LEN + 8];
    bt_game *g = NULL;
    bt_sequence *s = NULL;
    bt_limits lim = c->lim;
    bt_diag d;
    bt_status st;
    size_t n, i, p, pre;
    double t0 = seconds();
    memset(r, 0, sizeof *r);
    snprintf(r->code, sizeof r->code, "%s", code);
    snprintf(spec, sizeof spec, "octal:%s", code);
    if (bt_game_new(&g, spec, &d) != BT_OK)
        return cli_error("census", "code %s: %s", code, d.message);
    if ((st = bt_sequence_new(&s, g, BT_SEQ_AUTO, &d)) != BT_OK) {
        bt_game_free(g);
        return cli_status_error("census", st, &d);
    }
    bt_sequence_set_threads(s, c->threads);
    st = c->until ? bt_sequence_prove(s, c->upto, &lim, &d)
                  : bt_sequence_compute(s, c->upto, &lim, &d);
    if (st != BT_OK) {
        int rc = cli_status_error("census", st, &d);
        bt_sequence_free(s);
        bt_game_free(g);
        return rc;
    }
    n = bt_sequence_length(s);
    r->values = n;
    for (i = 0; i < n; i++)
        if (bt_sequence_value(s, i) > r->largest)
            r->largest = bt_sequence_value(s, i);
    r->solved = bt_sequence_is_proved(s);
    r->period = r->preperiod = r->last = -1;
    if (r->solved && bt_sequence_period(s, &p, &pre)) {
        r->period = (long long)p;
        r->preperiod = (long long)pre;
        r->last = pre > 0 ? (long long)pre - 1 : -1;
    } else if (bt_sequence_rare_count(s) > 0) {
        r->last = (long long)bt_sequence_rare_last(s);
    }
    r->mask = bt_sequence_rare_mask(s);
    snprintf(r->method, sizeof r->method, "%s", bt_sequence_method_name(s));
    r->seconds = seconds() - t0;
    bt_sequence_free(s);
    bt_game_free(g);
    return CLI_OK;
}

static void
format(const census *c, const result *r, char *out, size_t size)
{
    char per[32] = "-", pre[32] = "-", last[32] = "-", mask[16] = "-",
         t[32] = "";
    if (r->period >= 0)
        snprintf(per, sizeof per, "%lld", r->period);
    if (r->preperiod >= 0)
        snprintf(pre, sizeof pre, "%lld", r->preperiod);
    if (r->last >= 0)
        snprintf(last, sizeof last, "%lld", r->last);
    if (r->mask != 0)
        snprintf(mask, sizeof mask, "%u", r->mask);
    if (c->json) {
        if (!c->notime)
            snprintf(t, sizeof t, ",\"seconds\":%.3f", r->seconds);
        snprintf(out, size,
                 "{\"code\":\"%s\",\"status\":\"%s\",\"period\":%s,"
                 "\"preperiod\":%s,\"last_exceptional\":%s,\"largest\":%u,"
                 "\"mask\":%s,\"method\":\"%s\",\"values\":%llu%s}\n",
                 r->code, r->solved ? "solved" : "open",
                 r->period >= 0 ? per : "null",
                 r->preperiod >= 0 ? pre : "null",
                 r->last >= 0 ? last : "null", r->largest,
                 r->mask ? mask : "null", r->method, r->values, t);
        return;
    }
    if (!c->notime)
        snprintf(t, sizeof t, "  %8.3fs", r->seconds);
    snprintf(out, size, "%-10s %-6s %8s %9s %9s %6u %6s %-11s %9llu%s\n",
             r->code, r->solved ? "solved" : "open", per, pre, last,
             r->largest, mask, r->method, r->values, t);
}

/* ------------------------------------------------------------ output */

/* The code a line of an earlier run names, into code; 0 when none. */
static int
line_code(const char *line, char *code)
{
    const char *p = line;
    size_t k = 0;
    if (strncmp(p, "{\"code\":\"", 9) == 0)
        p += 9;
    while (*p == '.' || (*p >= '0' && *p <= '7')) {
        if (k + 1 >= CODE_LEN)
            return 0;
        code[k++] = *p++;
    }
    code[k] = '\0';
    return k >= 3 && code[1] == '.';
}

static int
cmp_code(const void *a, const void *b)
{
    return strcmp(a, b);
}

/*
 * Opens FILE (--output) for appending, into *out: an append-only log of
 * lines, so that a killed census reruns only the games it has not
 * written.  The lines already there are never rewritten; a last line cut
 * short (by a kill, or a failed write) is dropped; the codes of the others
 * are marked done[].  Refused with exit status 2, before anything is
 * opened: a target that is not a regular file (cli_save_target; a FIFO
 * would block), and a file that is not a census's output of the same form
 * (its first line the table's header, or a JSON line with --json), which
 * appending would spoil.  Returns CLI_OK, or the exit status after one
 * error line.
 */
static int
open_output(const census *c, const char *path, unsigned char *done,
            FILE **out)
{
    FILE *f;
    char line[512], err[512], *target = NULL;
    long good = 0;
    char(*sorted)[CODE_LEN];
    size_t i, no = 0;
    int rc;
    *out = NULL;
    rc = cli_save_target("--output", path, &target, err, sizeof err);
    if (rc != CLI_OK)
        return cli_error("census", "%s", err), rc;
    f = fopen(target, "r+");
    if (f == NULL && errno == ENOENT)
        f = fopen(target, "w+");
    free(target);
    if (f == NULL)
        return cli_error("census", "--output '%s': %s", path,
                         strerror(errno));
    sorted = malloc((c->ncodes ? c->ncodes : 1) * sizeof *sorted);
    if (sorted == NULL) {
        fclose(f);
        cli_error("census", "out of memory");
        return CLI_FAIL;
    }
    memcpy(sorted, c->codes, c->ncodes * sizeof *sorted);
    qsort(sorted, c->ncodes, sizeof *sorted, cmp_code);
    while (fgets(line, sizeof line, f) != NULL) {
        char code[CODE_LEN], (*hit)[CODE_LEN];
        const char *start = c->json ? "{\"code\":\"" : "# code ";
        size_t len = strlen(line);
        int whole = len > 0 && line[len - 1] == '\n';
        /* the first line starts as ours do (if cut short: as far as it
           goes) */
        if (no++ == 0 &&
            strncmp(line, start, whole || len > strlen(start) ? strlen(start)
                                                               : len) != 0) {
            free(sorted);
            fclose(f);
            return cli_error("census",
                             "--output '%s' is not the output of bouton "
                             "census%s: refused (appending would spoil it)",
                             path, c->json ? " --json" : " (without --json)");
        }
        if (!whole)
            break; /* cut short: written again */
        good = ftell(f);
        if (!line_code(line, code))
            continue;
        hit = bsearch(code, sorted, c->ncodes, sizeof *sorted, cmp_code);
        if (hit != NULL)
            for (i = 0; i < c->ncodes; i++)
                if (strcmp(c->codes[i], code) == 0)
                    done[i] = 1;
    }
    free(sorted);
    if (ferror(f) || ftruncate(fileno(f), good) != 0 ||
        fseek(f, good, SEEK_SET) != 0) {
        fclose(f);
        return cli_error("census", "--output '%s': %s", path,
                         strerror(errno));
    }
    /* unbuffered: a line is written whole or taken back (put_line) */
    setvbuf(f, NULL, _IONBF, 0);
    *out = f;
    return CLI_OK;
}

/*
 * Appends line to out; 0, or -1 after a failed write.  To a file
 * (--output) a line not written whole is taken back (the file cut to its
 * length before it), so that a failure leaves the lines before intact;
 * the error names the file.  A failed write to stdout is reported once,
 * by main (cli_close_stdout).
 */
static int
put_line(FILE *out, const char *output, const char *line)
{
    long at = out != stdout ? ftell(out) : -1;
    int e;
    errno = 0;
    if (fputs(line, out) >= 0 && fflush(out) == 0 && !ferror(out))
        return 0;
    if (out == stdout)
        return (void)cli_stdout_check(0), -1;
    e = errno ? errno : EIO;
    if (at >= 0 && ftruncate(fileno(out), at) == 0)
        (void)fseek(out, at, SEEK_SET);
    clearerr(out);
    cli_error("census",
              "--output '%s': cannot write it (%s): the lines before are "
              "kept; run the census again to finish",
              output, strerror(e));
    return -1;
}

static int
emit(FILE *out, const char *output, const census *c, const result *r)
{
    char line[512];
    format(c, r, line, sizeof line);
    return put_line(out, output, line);
}

/* ------------------------------------------------------------ MPI */

#ifdef BOUTON_MPI
enum { TAG_ASK = 1, TAG_GAME = 2 };

/* Rank 0: hands out the games not done, one per request; writes lines. */
static int
mpi_master(const census *c, const unsigned char *done, FILE *out,
           const char *output, int size, int rc)
{
    size_t next = 0;
    int active = size - 1;
    while (active > 0) {
        result r;
        MPI_Status ms;
        long long idx = -1;
        MPI_Recv(&r, (int)sizeof r, MPI_BYTE, MPI_ANY_SOURCE, TAG_ASK,
                 MPI_COMM_WORLD, &ms);
        if (r.code[0] != '\0' && out != NULL &&
            emit(out, output, c, &r) != 0)
            rc = CLI_FAIL;
        if (r.code[0] == '\0' && r.values == 1)
            rc = CLI_USAGE; /* the worker failed on a game */
        while (next < c->ncodes && done[next])
            next++;
        if (next < c->ncodes && rc == CLI_OK)
            idx = (long long)next++;
        else
            active--;
        MPI_Send(&idx, 1, MPI_LONG_LONG, ms.MPI_SOURCE, TAG_GAME,
                 MPI_COMM_WORLD);
    }
    return rc;
}

static void
mpi_worker(const census *c)
{
    result r;
    memset(&r, 0, sizeof r);
    for (;;) {
        long long idx;
        MPI_Send(&r, (int)sizeof r, MPI_BYTE, 0, TAG_ASK, MPI_COMM_WORLD);
        MPI_Recv(&idx, 1, MPI_LONG_LONG, 0, TAG_GAME, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        if (idx < 0)
            return;
        if (run_game(c, c->codes[idx], &r) != CLI_OK) {
            memset(&r, 0, sizeof r);
            r.values = 1; /* a failure */
        }
    }
}

/* Non-zero when started by mpirun (Open MPI, PMIx, or MPICH's PMI). */
static int
under_mpi(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") != NULL ||
           getenv("PMIX_RANK") != NULL || getenv("PMI_RANK") != NULL;
}
#endif

/* ------------------------------------------------------------ command */

int
cmd_census(int argc, char **argv)
{
    const char *codes = NULL, *upto = NULL, *output = NULL, *threads = NULL;
    census c;
    const cli_opt opts[] = {CLI_TEXT("codes", &codes),
                            CLI_TEXT("upto", &upto),
                            CLI_FLAG("until-proved", &c.until),
                            CLI_FLAG("json", &c.json),
                            CLI_TEXT("output", &output),
                            CLI_TEXT("threads", &threads),
                            CLI_FLAG("no-time", &c.notime),
                            CLI_PROGRESS(&c.progress),
                            CLI_END};
    unsigned char *done = NULL;
    FILE *out = stdout;
    size_t i, th = 0, ndone = 0;
    int rc, rank = 0;
#ifdef BOUTON_MPI
    int size = 1, mpi = 0;
#endif
    double t0;

    memset(&c, 0, sizeof c);
    c.progress = -1;
    rc = cli_options_help("census", argc, argv, help_head, help_tail, opts,
                          &c.lim);
    if (rc >= 0)
        return rc;
    rc = CLI_USAGE;
    if (optind < argc)
        return cli_error("census", "unexpected argument '%s'", argv[optind]);
    if (codes == NULL)
        return cli_error("census", "--codes PATTERN is required (e.g. "
                                   "--codes 0.ddd)");
    c.upto = 65536;
    if (upto != NULL && cli_parse_size("census", "--upto", upto, 1,
                                       c.lim.max_grundy, &c.upto) < 0)
        return CLI_USAGE;
    if (threads != NULL && cli_parse_size("census", "--threads", threads, 1,
                                          BT_SEQ_MAX_THREADS, &th) < 0)
        return CLI_USAGE;
    c.threads = (unsigned)th;
    if (c.progress < 0)
        c.progress = grundy_run_tty();
    c.codes = malloc(MAX_CODES * sizeof *c.codes);
    if (c.codes == NULL)
        return cli_error("census", "out of memory"), CLI_FAIL;
    if ((rc = read_codes(&c, codes)) != CLI_OK)
        goto done;
    done = calloc(c.ncodes ? c.ncodes : 1, 1);
    if (done == NULL) {
        rc = CLI_FAIL;
        goto done;
    }
#ifdef BOUTON_MPI
    if (under_mpi()) {
        MPI_Init(NULL, NULL);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        mpi = 1;
        if (threads == NULL)
            c.threads = 1; /* a rank per core is the usual layout */
    }
#endif
    rc = CLI_OK;
    if (rank == 0 && output != NULL &&
        (rc = open_output(&c, output, done, &out)) != CLI_OK)
        out = NULL; /* under MPI the workers are told to stop */
    for (i = 0; i < c.ncodes; i++)
        ndone += done[i];
    if (rank == 0 && out != NULL && !c.json && ftell(out) <= 0) {
        char head[256];
        snprintf(head, sizeof head,
                 "%-10s %-6s %8s %9s %9s %6s %6s %-11s %9s%s\n", "# code",
                 "status", "period", "preperiod", "last-exc", "max", "mask",
                 "method", "values", c.notime ? "" : "       time");
        if (put_line(out, output, head) != 0)
            rc = CLI_FAIL;
    }
    t0 = seconds();
#ifdef BOUTON_MPI
    if (mpi && size > 1) {
        if (rank == 0)
            rc = mpi_master(&c, done, out, output, size, rc);
        else
            mpi_worker(&c);
    } else
#endif
        if (out != NULL) {
        for (i = 0; i < c.ncodes && rc == CLI_OK; i++) {
            result r;
            if (done[i])
                continue;
            if (c.progress) {
                double el = seconds() - t0;
                fprintf(stderr, "\rcensus: %zu/%zu games, %s, %.0fs\033[K",
                        ndone, c.ncodes, c.codes[i], el);
                fflush(stderr);
            }
            if ((rc = run_game(&c, c.codes[i], &r)) != CLI_OK)
                break;
            if (emit(out, output, &c, &r) != 0)
                rc = CLI_FAIL;
            ndone++;
        }
        if (c.progress)
            fputs("\r\033[K", stderr);
    }
    if (out != NULL && out != stdout && fclose(out) != 0 && rc == CLI_OK) {
        cli_error("census", "--output '%s': %s", output, strerror(errno));
        rc = CLI_FAIL;
    }
#ifdef BOUTON_MPI
    if (mpi)
        MPI_Finalize();
#endif
done:
    free(done);
    free(c.codes);
    return rc;
}
