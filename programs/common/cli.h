/*
 * cli.h -- what the files of the `bouton` program share.
 *
 * The program uses libbouton's public API only (<bouton.h>).  Each command
 * lives in programs/cli/cmd_NAME.c as `int cmd_NAME(int argc, char **argv)`,
 * registered in the table of main.c; json.c turns library results into the
 * JSON values that the CLI's --json and the HTTP API both print, so the two
 * interfaces cannot drift apart.
 */
#ifndef BOUTON_CLI_H
#define BOUTON_CLI_H

#include <getopt.h>
#include <stdio.h>
#include <stdint.h>
#include <jansson.h>

#include <bouton.h>

/* Exit statuses: 0 success, 1 a failure of the machine (out of memory,
   I/O), 2 bad input or usage (always with one line on stderr). */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* The commands. */
int cmd_analyze(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_count(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_pair(int argc, char **argv);
int cmd_grundy(int argc, char **argv);
int cmd_census(int argc, char **argv);
int cmd_move(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_quotient(int argc, char **argv);
int cmd_nimber(int argc, char **argv);
int cmd_store(int argc, char **argv);

/* `bouton grundy --game wythoff[:A] --below N [--json]` (programs/cli/
   grundy_wythoff.c), called by cmd_grundy for the Wythoff family. */
int cli_grundy_wythoff(const char *game_spec, const char *below, int json,
                       const bt_limits *lim);

/* Prints "bouton CMD: MESSAGE" on stderr; returns CLI_USAGE. */
int cli_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Writes s to f with the bytes a terminal would act on (C0 and C1
   controls, DEL: escape sequences) shown as \xNN, so that text echoed from
   input cannot drive the terminal.  Error lines and replays use it. */
void cli_fputs_safe(const char *s, FILE *f);
/*
 * Reports what getopt_long() returned as '?' (unknown option) or ':' (a
 * missing value; use an optstring starting with ':'), naming the argument;
 * "-3" is reported as a negative number.  Returns CLI_USAGE.
 */
int cli_bad_option(const char *cmd, int code, char **argv);

/* Prints a library failure as one line on stderr (the diag's message, or
   the status's description); returns CLI_FAIL for BT_ENOMEM, else
   CLI_USAGE. */
int cli_status_error(const char *cmd, bt_status st, const bt_diag *diag);

/*
 * A command's options, declared as a table that cli_options() reads.  An
 * entry names a long option (without "--") and says what it does, in
 * any combination: set *flag to value when the option is given; keep its
 * argument in *text; parse its argument at once with parse(cmd, arg, to),
 * which returns 0, or the exit status after printing one error line.  An
 * option takes an argument when it has text or parse.  The table ends
 * with CLI_END.
 */
typedef struct cli_opt {
    const char *name;
    int *flag;
    int value;
    const char **text;
    int (*parse)(const char *cmd, const char *arg, void *to);
    void *to;
} cli_opt;

#define CLI_FLAG(name, flag) {(name), (flag), 1, NULL, NULL, NULL}
#define CLI_SET(name, flag, value) {(name), (flag), (value), NULL, NULL, NULL}
#define CLI_TEXT(name, text) {(name), NULL, 0, (text), NULL, NULL}
#define CLI_PARSE(name, parse, to) {(name), NULL, 0, NULL, (parse), (to)}
#define CLI_PARSE_SEEN(name, parse, to, seen)                              \
    {(name), (seen), 1, NULL, (parse), (to)}
/* --progress and --no-progress: *flag is 1 or 0 (the command's default
   for neither, -1, is when stderr is a terminal). */
#define CLI_PROGRESS(flag)                                                 \
    CLI_SET("progress", (flag), 1), CLI_SET("no-progress", (flag), 0)
#define CLI_END {NULL, NULL, 0, NULL, NULL, NULL}
/* The most entries of one table. */
#define CLI_MAX_OPTIONS 32

/*
 * Reads the options of argv (getopt_long(), from argv[1]) by the table
 * opts, and those every command has alike, with *lim set to the defaults
 * first:
 *   --help          prints help, the games (when help mentions --game)
 *                   and the limit options;
 *   --max-digits N  --max-piles N  --max-search N  --max-grundy N
 *   --max-memory BYTES (K, M, G suffixes; 0: no limit)   into *lim;
 * and reports an unknown option or a missing value in one line.  Returns
 * -1 when the command goes on, with its operands at argv[optind..argc-1];
 * else the exit status it returns at once (CLI_OK after --help).
 */
int cli_options(const char *cmd, int argc, char **argv, const char *help,
                const cli_opt *opts, bt_limits *lim);

/*
 * A command's --help whose option lines come from the table of operations
 * (optable.h): head, then the lines of cmd's options in the table's order
 * (optable_cli_help), then tail (NULL: none); malloc'd, NULL when out of
 * memory.
 */
char *cli_help_from_table(const char *cmd, const char *head,
                          const char *tail);
/* cli_options() with that help: head, cmd's option lines from the table,
   tail (CLI_FAIL after one line when out of memory).  Every command of the
   table reads its options so, and none spells an option line of its own
   but for --help (tests/optable/cli.sh checks it). */
int cli_options_help(const char *cmd, int argc, char **argv,
                     const char *head, const char *tail, const cli_opt *opts,
                     bt_limits *lim);

/* Parsers for cli_opt's parse: --level (a bt_level), --seed (a uint64_t,
   0 to 2^64-1). */
int cli_opt_level(const char *cmd, const char *arg, void *to);
int cli_opt_seed(const char *cmd, const char *arg, void *to);

/*
 * The limit options for a command with its own getopt_long() loop
 * (`serve`): put CLI_LIMIT_LONGOPTS inside its struct option array and
 * pass unknown codes to cli_limit_option(), which returns 1 if it handled
 * the code, 0 if the code is not a limit option, or -1 after printing an
 * error.
 */
enum {
    CLI_OPT_MAX_DIGITS = 1000,
    CLI_OPT_MAX_PILES,
    CLI_OPT_MAX_SEARCH,
    CLI_OPT_MAX_GRUNDY,
    CLI_OPT_MAX_MEMORY,
    CLI_OPT_MAX_GAMES,
    CLI_OPT_MAX_TIME /* the commands' own, not serve's (cli_options) */
};
#define CLI_LIMIT_LONGOPTS                                                 \
    {"max-digits", required_argument, NULL, CLI_OPT_MAX_DIGITS},           \
        {"max-piles", required_argument, NULL, CLI_OPT_MAX_PILES},         \
        {"max-search", required_argument, NULL, CLI_OPT_MAX_SEARCH},       \
        {"max-grundy", required_argument, NULL, CLI_OPT_MAX_GRUNDY},       \
        {"max-memory", required_argument, NULL, CLI_OPT_MAX_MEMORY},       \
        {"max-games", required_argument, NULL, CLI_OPT_MAX_GAMES}
int cli_limit_option(const char *cmd, int code, const char *arg,
                     bt_limits *lim);

/*
 * --max-time S, which every command of cli_options() takes: the seconds of
 * wall-clock time (a decimal, e.g. 0.5) the command may compute, counted
 * from when its options were read.  Past them the library's polls stop the
 * computation with BT_EINTR, which the command reports (exit 2).
 * cli_options() installs cli_interrupt as the limits' interrupt hook; a
 * command that installs a hook of its own (a progress line, a checkpoint)
 * replaces cli_interrupt only, and returns cli_time_up() from its hook.
 * cli_time_up() is 0 without --max-time, and 1 once the time is spent.
 */
int cli_time_up(void);
int cli_interrupt(void *ud);

/* Parses a seed (0 to 2^64-1); -1 after an error naming `what`. */
int cli_parse_seed(const char *cmd, const char *what, const char *arg,
                   uint64_t *out);

/* The text of the limit options for --help. */
extern const char cli_limit_help[];

/* Parses a size argument (a decimal integer in [min, max]); on error prints
   one line naming `what` and returns -1. */
int cli_parse_size(const char *cmd, const char *what, const char *arg,
                   size_t min, size_t max, size_t *out);
/* Parses a number of bytes: decimal digits and an optional suffix K, M or
   G (powers of 1024, either case, "KB"/"KiB" too), at most max; on error
   prints one line naming `what` and returns -1.  `serve` parses its memory
   options with it too. */
int cli_parse_bytes(const char *cmd, const char *what, const char *arg,
                    size_t max, size_t *out);
/* Parses a non-negative decimal integer of any size; -1 after an error. */
int cli_parse_mpz(const char *cmd, const char *what, const char *arg,
                  const bt_limits *lim, mpz_t out);

/*
 * Builds the position of a command line: args[0..n-1] are numbers and
 * position-language text joined by spaces, or the single argument "-" to
 * read the text from standard input.  game_spec is the --game option (NULL:
 * nim).  Returns CLI_OK with *out set, or prints an error and returns
 * CLI_USAGE/CLI_FAIL.
 */
int cli_position(const char *cmd, bt_position **out, const char *game_spec,
                 char **args, int n, const bt_limits *lim);

/* Reads all of standard input into a malloc'd string of at most max bytes
   (NULL on failure or when longer, after printing an error). */
char *cli_read_stdin(const char *cmd, size_t max);
/* The same for the file at path ("-": standard input). */
char *cli_read_file(const char *cmd, const char *path, size_t max);

/*
 * Saving a file: every file the program writes whole (play --save,
 * quotient --save, grundy --checkpoint) goes through these, so that a
 * failure never leaves a mixture and never replaces what is not a file of
 * ours; census --output, an append-only log, checks its target with
 * cli_save_target and takes back a line not written whole:
 *   - a target that exists and is not a regular file (a directory, a
 *     device such as /dev/null, a FIFO, a socket) is refused, checked with
 *     stat() before anything is opened (a FIFO opened for writing would
 *     block), exit status 2;
 *   - a symbolic link is followed: the file it names is replaced and the
 *     link kept (a link to a missing file or to a non-regular file is
 *     refused);
 *   - the new contents go to a temporary file beside the target
 *     (TARGET.tmp.XXXXXX, mkstemp: never another's file), with the
 *     target's permissions (a new file: 0666 less the umask); committing
 *     checks every write, flushes it to the disk (fsync), renames it over
 *     the target and syncs the directory; on any failure the temporary
 *     file is removed and the old file is left as it was.
 * Messages in `error` read "WHAT 'PATH': why" (`what` names the option,
 * "--save"), for the caller to print (or to keep, as a progress line
 * does).
 */
typedef struct cli_save {
    FILE *f;         /* the new contents are written here */
    char *target;    /* the file replaced (a link's target), malloc'd */
    char *tmp;       /* the temporary file, malloc'd */
    const char *what;
    const char *path; /* as given, for messages */
    int errnum;       /* the first failed write's errno; 0: none */
    char error[512];
} cli_save;

/*
 * Checks path as a target (above); CLI_OK when it may be written (it need
 * not exist), else CLI_USAGE with the reason in err (size bytes), or
 * CLI_FAIL when out of memory.  *target (when not NULL) receives the file
 * to replace, malloc'd: path, or a link's target.
 */
int cli_save_target(const char *what, const char *path, char **target,
                    char *err, size_t size);
/* Starts saving to path: CLI_OK with s->f open, else the exit status
   (CLI_USAGE: a refused target; CLI_FAIL: the temporary file could not be
   made) with s->error set and nothing left behind. */
int cli_save_begin(cli_save *s, const char *what, const char *path);
/* Writes len bytes of data to s->f, keeping the first failure's errno
   for the message; 0, or -1 (and later writes do nothing). */
int cli_save_write(cli_save *s, const void *data, size_t len);
/* Commits what was written to s->f (above); CLI_OK, or CLI_FAIL with
   s->error set, the temporary file removed and the target untouched.
   Releases s either way. */
int cli_save_commit(cli_save *s);
/* Drops the new contents: the temporary file removed; releases s.
   Does nothing to a cli_save that was released or never begun (zeroed). */
void cli_save_abort(cli_save *s);
/* The whole of data saved to path as above; CLI_OK, or the exit status
   after one error line ("bouton CMD: WHAT 'PATH': why"). */
int cli_write_atomic(const char *cmd, const char *what, const char *path,
                     const char *data, size_t len);
/*
 * The end of every command (main.c), like coreutils' close_stdout: flushes
 * and closes standard output and checks that every write to it succeeded;
 * if not, prints "bouton: write error: REASON" and returns CLI_FAIL (rc
 * otherwise, or rc itself when it is already a failure).
 */
int cli_close_stdout(int rc);
/*
 * Whether every write to stdout so far succeeded (after fflush(stdout)
 * when flush is set): CLI_OK, or CLI_FAIL with the failure's errno kept
 * for cli_close_stdout's message.  Streaming commands call it as they go,
 * to stop as soon as a write fails; they print nothing about it.
 */
int cli_stdout_check(int flush);

/*
 * Reads a quotient saved by `bouton quotient --save` from path, has the
 * library check it (bt_quotient_load: refused unless it is the misère
 * quotient of its game) and installs it for the analyses of this process
 * (bt_quotient_install).  *spec (when spec is not NULL) receives its
 * game's rules, malloc'd.  Returns CLI_OK, or the exit status after one
 * error line.
 */
int cli_quotient_install(const char *cmd, const char *path,
                         const bt_limits *lim, char **spec);
/* Reads and checks (bt_quotient_load) the quotient saved in path into *q;
   CLI_OK, or the exit status after one error line naming `what` (the
   option: "--quotient", "--load") and the file. */
int cli_quotient_read(const char *cmd, const char *what, const char *path,
                      const bt_limits *lim, bt_quotient **q);
/* cli_quotient_install for the position p of `analyze` and `move`: one
   error line ("--quotient is the quotient of ...", CLI_USAGE) too when
   no component of p is a heap of the file's game. */
int cli_quotient_for(const char *cmd, const char *path, const bt_position *p,
                     const bt_limits *lim);

/* ----------------------------------------------------------- the store */

/*
 * The store of proved results (store.c, docs/store.md): the proved misère
 * quotients that commands computed, one file per game, read back by later
 * processes after the exact check of `--quotient FILE`.  Two layers: the
 * user's store (read and written) and the install's shipped entries (read
 * only, share/bouton/store beside bin/).  Nothing in it is trusted, and a
 * store that cannot be read or written costs a warning, never an answer.
 */
enum {
    CLI_STORE_ABSENT,  /* looked up, not found (or found damaged) */
    CLI_STORE_LOADED,  /* installed from the store, or written to it */
    CLI_STORE_BLOCKED  /* not a regular file in its place, or a write
                          failed: not written again */
};
#define CLI_STORE_GAMES 16
typedef struct cli_store_game {
    char *spec;
    int state;
    size_t reach; /* CLI_STORE_LOADED: how far the entry read or written
                     reaches (SIZE_MAX: proved, else its heaps) */
} cli_store_game;
typedef struct cli_store {
    int on;          /* 0: --no-store, BOUTON_STORE=off */
    char *dir;       /* the user's store, malloc'd; NULL: none */
    char *shipped;   /* the shipped entries, malloc'd; NULL: none */
    const char *cmd; /* for warnings */
    cli_store_game games[CLI_STORE_GAMES]; /* the games looked up */
    size_t ngames;
} cli_store;

/* --store DIR and --no-store, for a command's option table (their --help
   lines are the table of operations': P_STORE, optable.c). */
#define CLI_STORE_OPTS(dir, off)                                           \
    CLI_TEXT("store", (dir)), CLI_FLAG("no-store", (off))
/*
 * Finds the store: none with off or BOUTON_STORE=off; else the user's
 * store is dir, else $BOUTON_STORE, else (when cache_default is set; not
 * for `serve`) $XDG_CACHE_HOME/bouton or ~/.cache/bouton, and the shipped
 * entries are read when the install has them.  Creates nothing.  CLI_OK,
 * or CLI_USAGE after an error line (an empty DIR).
 */
int cli_store_open(cli_store *s, const char *cmd, const char *dir, int off,
                   int cache_default);
void cli_store_close(cli_store *s);
/* Before a misère analysis of p: installs (bt_quotient_install) the
   stored proved quotient of each heap game of p that has a heap of more
   than 26 counters (smaller ones are learnt as fast as an entry is
   checked), when it passes the check, the user's entry first; a damaged
   entry gets one warning and is passed over (the analysis computes
   instead). */
void cli_store_use(cli_store *s, const bt_position *p, const bt_limits *lim);
/* Keeps q in the user's store when it is proved and not read from the
   store (a failure is one warning). */
void cli_store_put(cli_store *s, const bt_quotient *q);
/* After the analyses of p: keeps the proved quotients they computed
   (bt_quotient_save_proved) of p's games that the store did not give. */
void cli_store_keep(cli_store *s, const bt_position *p);
/* `serve` at startup: installs every entry of both layers that passes
   the check (the user's first), at most max; a damaged entry gets one
   warning.  Returns the number installed.  cli_store_use, _put and _keep
   may be called from several threads at once. */
size_t cli_store_use_all(cli_store *s, const bt_limits *lim, size_t max);

/* An entry as `bouton store` shows it. */
typedef struct cli_store_info {
    char game[256], upto[32], period[64]; /* from its text's header */
    size_t bytes;
    char why[600]; /* why it is bad */
} cli_store_info;
/* Reads entry `name` of dir into *e, and with verify checks it exactly
   (bt_quotient_load, its game the one its name says, proved): 1, with
   the quotient in *q when q is not NULL, or -1 with e->why. */
int cli_store_entry(cli_store_info *e, const char *dir, const char *name,
                    int verify, const bt_limits *lim, bt_quotient **q);
/* The sorted names of dir's entries (leftovers: of the temporary files
   that an interrupted write left), malloc'd, *n of them. */
char **cli_store_names(const char *dir, int leftovers, size_t *n);
void cli_store_names_free(char **v, size_t n);

/* ------------------------------------------------------------- nimbers */

/* The deepest nesting of parentheses and functions in an expression. */
#define NIMEXPR_MAX_DEPTH 200
/*
 * Evaluates a nimber expression (programs/common/nimber_expr.c: + the
 * nim-sum, * the nim-product, ^ a power by an ordinary integer, inv(), sqrt(),
 * order(), log(g, x), parentheses, decimal or 0x numbers) into r, the
 * text bounded by lim->max_text bytes and NIMEXPR_MAX_DEPTH, each
 * operation by lim.  With explanation not NULL, *explanation receives the
 * steps in lines of text (malloc'd), the products of operands below 256
 * by Conway's rules (bt_nimber_mul_explain) and the sums in binary
 * columns.  On failure r is unchanged and diag names the fault and its
 * byte (EPARSE, ELIMIT, EINVAL, ERANGE, EUNDEF, EINTR, ENOMEM).
 */
bt_status nimexpr_eval(mpz_t r, const char *text, const bt_limits *lim,
                       char **explanation, bt_diag *diag);

/* ----------------------------------------------------------------- JSON */

/* A decimal string of x (big integers travel as strings in JSON). */
json_t *cli_json_mpz(const mpz_t x);
/*
 * The budget of the JSON built on this thread, for a builder that runs
 * within a slice (the server's HTTP threads): with stop set, cli_json_mpz()
 * asks stop(ud) after every 16 KiB or so of numbers it writes; once stop
 * says yes, it and every later number of the thread give JSON null, and
 * cli_json_stopped() is 1 until the next cli_json_set_stop(), so that the
 * caller throws the answer away.  stop NULL: no budget (the default).
 */
void cli_json_set_stop(int (*stop)(void *ud), void *ud);
int cli_json_stopped(void);
/* The numbers of a position as an array of decimal strings, flat. */
json_t *cli_json_numbers(const bt_position *p);
/* A move: {"component":1-based,"to":[...],"text":"..."}. */
json_t *cli_json_move(const bt_move *m);
/* The computer's move with what it knew (bouton move --json, /v1/move). */
json_t *cli_json_play(const bt_move *m, const bt_play_info *info);
/*
 * Adds to o, the computer's move m from p in misère play (info: what it
 * knew), where a misère quotient answers p: "quotient", the facts of p's
 * (as an analysis gives them), and "element", that of the position m
 * leaves through the same quotient.  Nothing when the outcome was not
 * known exactly or no quotient answers (an analysis that fails adds
 * nothing: the move stands).
 */
void cli_json_play_quotient(json_t *o, const bt_position *p, const bt_move *m,
                            const bt_play_info *info, const bt_limits *lim);
/* The answer of `count --json` (and /v1/count); a whole-number probability
   keeps the fraction's form ("0/1", "1/1").  "game" leads it for a game
   other than Nim. */
json_t *cli_json_count(const bt_game *g, size_t k, const mpz_t min,
                       const mpz_t max, int ordered, int misere,
                       const mpz_t pos, const mpz_t pp, mpq_srcptr q);
/* The answer of `analyze --random-starts --json` (and /v1/analyze with
   "random_starts"): k piles each in 1..max, all the starts, wins those
   the player to move wins, and their share as a fraction. */
json_t *cli_json_random_starts(int misere, size_t k, const mpz_t max,
                               const mpz_t all, const mpz_t wins);
/* The answers of `pair --json` and of `pair --index-of X --json`. */
json_t *cli_json_pair(const bt_game *g, int misere, const mpz_t n,
                      const mpz_t lo, const mpz_t hi);
json_t *cli_json_index_of(const mpz_t x, const mpz_t n, int upper,
                          const mpz_t lo, const mpz_t hi);
/* The whole answer of `analyze --json` for p and its analysis. */
json_t *cli_json_analysis(const bt_position *p, const bt_analysis *a);
/* The facts of the misère quotient that answered an analysis (the member
   "quotient" of an analysis and of POST /v1/moves). */
json_t *cli_json_quotient_facts(const bt_quotient_facts *f);
/*
 * v printed compactly on one line and a newline, byte for byte what
 * jansson's json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII) prints, but
 * several times faster; its length in *len; NULL when out of memory.  v
 * is not released.  The text is allocated as jansson allocates (so that
 * the server charges it to its request, server_api_mem.c): release it
 * with cli_json_free().  The CLI and the server both print with it.
 */
char *cli_json_text(json_t *v, size_t *len);
/* Releases what jansson allocated (cli_json_text's text, json_dumps'),
   with jansson's free function; NULL: nothing. */
void cli_json_free(void *p);
/* Prints v compactly on one line to stdout and releases it; CLI_FAIL if it
   could not be printed. */
int cli_json_print(json_t *v);
/*
 * The answer of `grundy --json` (and /v1/grundy) for the first n values of
 * s, with them when values is set; and of `grundy --game wythoff --below N
 * --json`, the table G(x, y), x, y < below.  The CLI streams the same text
 * itself (cmd_grundy.c, grundy_wythoff.c): its answers may hold 2^26
 * values, a tree of which would take gigabytes.
 */
json_t *cli_json_sequence(const bt_game *g, const bt_sequence *s, size_t n,
                          int values);
json_t *cli_json_grundy_table(const bt_game *g, const bt_wythoff_sg *t,
                              size_t below);
/* The answer of `quotient --json` (and /v1/quotient); with table, the
   elements' words and the multiplication table too. */
json_t *cli_json_quotient(const bt_quotient *q, int table);
/* The answer of `nimber --json` (and /v1/nimber): {"expression":..,
   "value":"N"}, with "explanation" when it is not NULL. */
json_t *cli_json_nimber(const char *text, const mpz_t value,
                        const char *explanation);

#endif
