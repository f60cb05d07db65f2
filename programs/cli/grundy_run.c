/*
 * grundy_run.c -- long Grundy-sequence runs: progress on stderr and
 * checkpoints that survive SIGKILL (docs/grundy.md, "Checkpoints").
 *
 * A checkpoint is one file, all integers little-endian:
 *
 *   "BTGRUNDY" u32 version (2)
 *   u32 length, the game's spec       u32 until (0 --upto, 1 proof)
 *   u64 n (--upto N or the --limit)   u32 method (bt_seq_method)
 *   u64 values                        u64 goal (the step being computed)
 *   u32 rare mask   u64 sparse positions   u32 length, the method's name
 *   u32 width (1 or 2 bytes a value)
 *   G(0), G(1), ... (u8 or u16)       u64 FNV-1a of every byte before it
 *
 * Version 1 (before the engine kept narrow values) had no width and u16
 * values; it is still read.
 *
 * It is written whole to a temporary file beside FILE, flushed to the disk
 * (fsync), and renamed over FILE (then the directory is synced; cli.h,
 * cli_save_begin): a crash leaves the old file or the new one, never a
 * mixture.  Resuming appends the values to a new
 * sequence, which rebuilds the method's state as if it had computed them;
 * the mask and the count of sparse positions are then compared with the
 * header's, and the goal makes a proof take the steps of the uninterrupted
 * run.  The values take the width the engine keeps them in
 * (bt_sequence_width: 1 byte while every value is below 256, else 2), in
 * memory and on disk, written straight from the engine's table.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "grundy_run.h"

#define MAGIC "BTGRUNDY"
#define VERSION 2u /* 1: no width, u16 values (still read) */
#define CHUNK 65536 /* values read or written at a time */

static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int
grundy_run_tty(void)
{
    return isatty(2);
}

/* ------------------------------------------------------------ hashing */

typedef struct sink {
    cli_save sv;
    uint64_t h; /* FNV-1a 64 of the bytes so far */
} sink;

static void
hash(uint64_t *h, const unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        *h ^= p[i];
        *h *= UINT64_C(1099511628211);
    }
}

static void
put(sink *k, const void *p, size_t n)
{
    hash(&k->h, p, n);
    cli_save_write(&k->sv, p, n); /* a failure is kept for the commit */
}

/* v in its `bytes` low bytes, little-endian (4 for a u32, 8 for a u64). */
static void
put_le(sink *k, uint64_t v, size_t bytes)
{
    unsigned char b[8];
    size_t i;
    for (i = 0; i < bytes; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put(k, b, bytes);
}

static void
put_u32(sink *k, uint32_t v)
{
    put_le(k, v, 4);
}

static void
put_u64(sink *k, uint64_t v)
{
    put_le(k, v, 8);
}

static void
put_str(sink *k, const char *s)
{
    put_u32(k, (uint32_t)strlen(s));
    put(k, s, strlen(s));
}

/* ------------------------------------------------------------ writing */

/* Writes s to run->checkpoint atomically (cli_save_begin); 0, or -1 with
   run->error set. */
static int
write_checkpoint(grundy_run *run, const bt_sequence *s)
{
    size_t n = bt_sequence_length(s), i;
    unsigned width = bt_sequence_width(s);
    const void *data = bt_sequence_data(s);
    unsigned char buf[2 * 4096];
    sink k;
    uint64_t h;
    k.h = UINT64_C(14695981039346656037);
    if (cli_save_begin(&k.sv, "--checkpoint", run->checkpoint) != CLI_OK) {
        snprintf(run->error, sizeof run->error, "%s", k.sv.error);
        return -1;
    }
    put(&k, MAGIC, 8);
    put_u32(&k, VERSION);
    put_str(&k, run->spec);
    put_u32(&k, (uint32_t)run->until);
    put_u64(&k, run->n);
    put_u32(&k, (uint32_t)run->method);
    put_u64(&k, n);
    put_u64(&k, bt_sequence_goal(s));
    put_u32(&k, bt_sequence_rare_mask(s));
    put_u64(&k, bt_sequence_rare_count(s));
    put_str(&k, bt_sequence_method_name(s));
    put_u32(&k, width);
    for (i = 0; i < n && k.sv.errnum == 0;) {
        size_t c = n - i < 4096 ? n - i : 4096, j;
        if (width == 1) {
            put(&k, (const unsigned char *)data + i, c);
        } else {
            const uint16_t *g = data;
            for (j = 0; j < c; j++) {
                buf[2 * j] = (unsigned char)(g[i + j] & 0xFFu);
                buf[2 * j + 1] = (unsigned char)(g[i + j] >> 8);
            }
            put(&k, buf, 2 * c);
        }
        i += c;
    }
    h = k.h;
    put_u64(&k, h);
    if (cli_save_commit(&k.sv) != CLI_OK) {
        snprintf(run->error, sizeof run->error, "%s", k.sv.error);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ reading */

typedef struct source {
    FILE *f;
    uint64_t h;
    int bad; /* short or unreadable */
} source;

static void
get(source *r, void *p, size_t n)
{
    if (r->bad || fread(p, 1, n, r->f) != n) {
        r->bad = 1;
        memset(p, 0, n);
        return;
    }
    hash(&r->h, p, n);
}

static uint64_t
get_uint(source *r, int bytes)
{
    unsigned char b[8];
    uint64_t v = 0;
    int i;
    get(r, b, (size_t)bytes);
    for (i = bytes - 1; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

/* Reads a string of at most max bytes into buf (size max + 1). */
static int
get_str(source *r, char *buf, size_t max)
{
    uint64_t len = get_uint(r, 4);
    if (r->bad || len > max) {
        r->bad = 1;
        return -1;
    }
    get(r, buf, (size_t)len);
    buf[len] = '\0';
    return r->bad ? -1 : 0;
}

int
grundy_run_resume(grundy_run *run, bt_sequence *s)
{
    const char *cmd = run->cmd, *path = run->checkpoint;
    source r = {NULL, UINT64_C(14695981039346656037), 0};
    char magic[8], spec[1024], mname[64];
    uint64_t until, n, method, count, goal, mask, nrare, h, want, i, version;
    uint64_t width = 2;
    uint16_t *chunk = NULL;
    unsigned char *bytes = NULL;
    bt_diag d;
    int rc = CLI_USAGE;

    {
        /* a FIFO or a device is refused before it is opened (opening a
           FIFO blocks), not after the hours of a run */
        char err[512];
        int st = cli_save_target("--checkpoint", path, NULL, err, sizeof err);
        if (st != CLI_OK) {
            cli_error(cmd, "%s", err);
            return st;
        }
    }
    r.f = fopen(path, "rb");
    if (r.f == NULL) {
        if (errno == ENOENT)
            return CLI_OK; /* a new run */
        return cli_error(cmd, "--checkpoint '%s': %s", path, strerror(errno));
    }
    get(&r, magic, 8);
    if (r.bad || memcmp(magic, MAGIC, 8) != 0) {
        cli_error(cmd, "--checkpoint '%s' is not a checkpoint of bouton grundy",
                  path);
        goto done;
    }
    version = get_uint(&r, 4);
    if (version != 1 && version != VERSION) {
        cli_error(cmd, "--checkpoint '%s': a format version this program "
                       "does not read", path);
        goto done;
    }
    if (get_str(&r, spec, sizeof spec - 1) != 0)
        goto corrupt;
    until = get_uint(&r, 4);
    n = get_uint(&r, 8);
    method = get_uint(&r, 4);
    count = get_uint(&r, 8);
    goal = get_uint(&r, 8);
    mask = get_uint(&r, 4);
    nrare = get_uint(&r, 8);
    if (get_str(&r, mname, sizeof mname - 1) != 0)
        goto corrupt;
    if (version >= 2)
        width = get_uint(&r, 4);
    if (width != 1 && width != 2)
        goto corrupt;
    if (strcmp(spec, run->spec) != 0 || until != (uint64_t)run->until ||
        n != (uint64_t)run->n || method != (uint64_t)run->method) {
        cli_error(cmd,
                  "--checkpoint '%s' belongs to another run (%s, %s %llu, "
                  "method %llu): give the same game and options, or another "
                  "file",
                  path, spec, until ? "--until-proved --limit" : "--upto",
                  (unsigned long long)n, (unsigned long long)method);
        goto done;
    }
    if (count > n || count > SIZE_MAX / 2)
        goto corrupt;
    chunk = malloc(CHUNK * sizeof *chunk);
    bytes = malloc(2 * CHUNK);
    if (chunk == NULL || bytes == NULL) {
        rc = cli_error(cmd, "out of memory");
        rc = CLI_FAIL;
        goto done;
    }
    for (i = 0; i < count;) {
        size_t c = count - i < CHUNK ? (size_t)(count - i) : CHUNK, j;
        get(&r, bytes, (size_t)width * c);
        if (r.bad)
            goto corrupt;
        for (j = 0; j < c; j++)
            chunk[j] = width == 1
                           ? bytes[j]
                           : (uint16_t)((unsigned)bytes[2 * j] |
                                        (unsigned)bytes[2 * j + 1] << 8);
        if (bt_sequence_append(s, chunk, c, &d) != BT_OK) {
            cli_error(cmd, "--checkpoint '%s': %s", path, d.message);
            goto done;
        }
        i += c;
    }
    want = r.h;
    h = get_uint(&r, 8);
    if (r.bad || h != want || fgetc(r.f) != EOF)
        goto corrupt;
    if (mask != bt_sequence_rare_mask(s) ||
        nrare != bt_sequence_rare_count(s) ||
        strcmp(mname, bt_sequence_method_name(s)) != 0) {
        /* all three compared fields, in both states: the one that
           differs shows (often the count, the mask being alike) */
        cli_error(cmd,
                  "--checkpoint '%s': its method state (%s, mask %llu, %llu "
                  "sparse positions) is not what its values give (%s, mask "
                  "%u, %zu sparse positions): refused",
                  path, mname, (unsigned long long)mask,
                  (unsigned long long)nrare, bt_sequence_method_name(s),
                  bt_sequence_rare_mask(s), bt_sequence_rare_count(s));
        goto done;
    }
    bt_sequence_set_goal(s, (size_t)goal);
    rc = CLI_OK;
    goto done;
corrupt:
    cli_error(cmd,
              "--checkpoint '%s' is damaged (truncated or a wrong checksum): "
              "refused; remove it to start again",
              path);
done:
    free(chunk);
    free(bytes);
    fclose(r.f);
    return rc;
}

/* ------------------------------------------------------------ running */

static void
human(char *buf, size_t size, double secs)
{
    if (secs < 0 || secs > 1e9)
        snprintf(buf, size, "?");
    else if (secs < 100)
        snprintf(buf, size, "%.0fs", secs);
    else if (secs < 6000)
        snprintf(buf, size, "%ldm%02lds", (long)secs / 60, (long)secs % 60);
    else
        snprintf(buf, size, "%.1fh", secs / 3600);
}

static void
progress_line(grundy_run *run, const bt_sequence *s, double t)
{
    size_t n = bt_sequence_length(s), goal = bt_sequence_goal(s);
    size_t top = run->until ? run->n : goal;
    double rate = t > run->t0 ? (double)(n - run->n0) / (t - run->t0) : 0;
    double pct = top ? 100.0 * (double)n / (double)top : 100.0;
    char eta[32];
    human(eta, sizeof eta,
          rate > 0 && top >= n ? (double)(top - n) / rate : -1);
    fprintf(stderr,
            "\r%s %s: %zu/%zu values (%.1f%%), %.3g values/s, ETA %s%s, %zu "
            "rare, %u thread%s\033[K",
            run->cmd, run->spec, n, top, pct, rate, eta,
            run->until ? " (at most)" : "",
            bt_sequence_rare_count(s), bt_sequence_threads_used(s),
            bt_sequence_threads_used(s) == 1 ? "" : "s");
    fflush(stderr);
}

static void
on_progress(void *ud, const bt_sequence *s)
{
    grundy_run *run = ud;
    double t = now();
    if (run->progress && t - run->last_line >= 0.25) {
        run->last_line = t;
        progress_line(run, s, t);
    }
    if (run->checkpoint != NULL && !run->failed &&
        t - run->last_ckpt >= run->every) {
        if (write_checkpoint(run, s) != 0)
            run->failed = 1;
        run->last_ckpt = now();
    }
}

static int
on_interrupt(void *ud)
{
    return ((grundy_run *)ud)->failed || cli_time_up();
}

int
grundy_run_compute(grundy_run *run, bt_sequence *s, bt_limits *lim)
{
    bt_diag d;
    bt_status st;
    run->t0 = run->last_line = run->last_ckpt = now();
    run->n0 = bt_sequence_length(s);
    run->failed = 0;
    bt_sequence_set_progress(s, on_progress, run);
    if (run->checkpoint != NULL &&
        (lim->interrupt == NULL || lim->interrupt == cli_interrupt)) {
        lim->interrupt = on_interrupt;
        lim->interrupt_ud = run;
    }
    st = run->until ? bt_sequence_prove(s, run->n, lim, &d)
                    : bt_sequence_compute(s, run->n, lim, &d);
    bt_sequence_set_progress(s, NULL, NULL);
    if (run->progress)
        fputs("\r\033[K", stderr);
    if (run->failed)
        return cli_error(run->cmd, "%s", run->error), CLI_FAIL;
    if (st != BT_OK)
        return cli_status_error(run->cmd, st, &d);
    if (run->checkpoint != NULL && write_checkpoint(run, s) != 0)
        return cli_error(run->cmd, "%s", run->error), CLI_FAIL;
    return CLI_OK;
}

/* ------------------------------------------------ other commands' line */

void
progress_ticker_start(progress_ticker *t, const char *cmd, int on)
{
    t->cmd = cmd;
    t->on = on;
    t->t0 = now();
    t->last = t->t0;
    t->shown = 0;
}

int
progress_ticker_due(progress_ticker *t)
{
    double x;
    if (!t->on)
        return 0;
    x = now();
    if (x - t->t0 < 0.5 || x - t->last < 0.25)
        return 0;
    t->last = x;
    return 1;
}

void
progress_ticker_line(progress_ticker *t, const char *fmt, ...)
{
    char text[160], el[32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    human(el, sizeof el, now() - t->t0);
    fprintf(stderr, "\r%s: %s, %s elapsed\033[K", t->cmd, text, el);
    fflush(stderr);
    t->shown = 1;
}

void
progress_ticker_fraction(progress_ticker *t, const char *what, double f)
{
    char eta[32];
    double el = now() - t->t0;
    if (f < 0)
        f = 0;
    if (f > 1)
        f = 1;
    human(eta, sizeof eta, f > 0 ? el * (1 - f) / f : -1);
    progress_ticker_line(t, "%s, %.1f%% done, ETA %s", what, 100 * f, eta);
}

void
progress_ticker_end(progress_ticker *t)
{
    if (t->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    t->shown = 0;
}
