/*
 * grundy_run.h -- long Grundy-sequence runs for `bouton grundy` and
 * `bouton census`: a progress line on stderr and checkpoints on disk that a
 * killed run resumes from (format in docs/grundy.md).
 */
#ifndef BOUTON_GRUNDY_RUN_H
#define BOUTON_GRUNDY_RUN_H

#include <stddef.h>

#include <bouton.h>

typedef struct grundy_run {
    const char *cmd;        /* for messages: "grundy" */
    const char *spec;       /* the game, as bt_game_spec() gives it */
    int until;              /* 1: prove up to `n` values; 0: compute n */
    size_t n;               /* --upto N, or the --limit of a proof */
    int method;             /* the bt_seq_method */
    const char *checkpoint; /* NULL: none */
    double every;           /* seconds between checkpoints */
    int progress;           /* 1: a progress line on stderr */
    /* private: the state of the run */
    double t0, last_line, last_ckpt;
    size_t n0;
    int failed; /* a checkpoint could not be written: stop */
    char error[600];
} grundy_run;

/*
 * Resumes s (new, empty) from run->checkpoint when the file exists: it must
 * be a checkpoint of the same game, method and command, with a good
 * checksum, else an error is printed and CLI_USAGE returned.  Returns
 * CLI_OK (also when there is no file yet), CLI_USAGE or CLI_FAIL.
 */
int grundy_run_resume(grundy_run *run, bt_sequence *s);

/* Computes (or proves) with progress and checkpoints as run says; writes a
   last checkpoint at the end.  Returns CLI_OK or prints an error. */
int grundy_run_compute(grundy_run *run, bt_sequence *s, bt_limits *lim);

/* 1 when a progress line belongs on stderr by default (a terminal). */
int grundy_run_tty(void);

/*
 * The progress line of commands without a sequence (`table`, `count`): the
 * same line on stderr, shown only once the work has taken half a second
 * (quick commands print nothing), then at most four times a second.
 */
typedef struct progress_ticker {
    const char *cmd;
    int on;      /* 0: never a line */
    double t0, last;
    int shown;   /* a line is on the terminal */
} progress_ticker;

void progress_ticker_start(progress_ticker *t, const char *cmd, int on);
/* 1 when a line is due now. */
int progress_ticker_due(progress_ticker *t);
/* Prints "CMD: TEXT, ELAPSED elapsed" over the last line. */
void progress_ticker_line(progress_ticker *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Prints "CMD: WHAT, P% done, ETA T, ELAPSED elapsed" for the fraction f
   (0 to 1) of the work done, the ETA drawn from the rate so far. */
void progress_ticker_fraction(progress_ticker *t, const char *what, double f);
/* Erases the line, if one was shown. */
void progress_ticker_end(progress_ticker *t);

#endif
