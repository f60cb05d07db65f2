/*
 * optable.h -- the table of operations: every operation of the `bouton`
 * program (analyze, move, table, count, grundy, quotient, pair, nimber,
 * ...) described once, with each of its parameters once: its command-line
 * option, its JSON member in the HTTP API, its type, default, limits and
 * help in one line.  Where a parameter exists on one side only, the table
 * says why; where an operation has a command or an endpoint only, so too.
 *
 * As Redis describes its commands in one table and generates the rest,
 * the adapters read this one:
 *   - cli_options() (cli.c) checks a command's option table against its
 *     operation here on every run, before it reads argv: an option of the
 *     command that the table lacks, or a parameter of the table that the
 *     command does not take, stops the command with an internal error
 *     (exit 1), so that no test of the command passes while they differ;
 *   - the API accepts exactly the members the table gives an endpoint
 *     (srv_check_op, server_api_request.c: "unknown field" for any
 *     other), and `serve` refuses to start when its route table and this
 *     one differ (srv_routes_check);
 *   - docs/api.md's member tables are generated from it (tests/
 *     optable_doc.c, checked by the test `optable_docs`);
 *   - every command's `--help` renders its option lines from it
 *     (optable_cli_help, through cli_options_help): the command keeps its
 *     synopsis and prose, and the lines of options of no operation
 *     (`--help`; the limit options, which cli_options() adds), while an
 *     option's help exists here only; the test `optable_cli` fails when
 *     a command's --help lacks the table's lines or holds a line of a
 *     table option written by hand.  The man page and the bash
 *     completion are rendered from `--help` (scripts/helpdoc.sh).
 *
 * Adding an operation: its entry here (its parameters), its command
 * (cmd_NAME.c, main.c) and/or its endpoint (server_api_*.c, the route),
 * then `optable_doc --write docs/api.md`.
 */
#ifndef BOUTON_OPTABLE_H
#define BOUTON_OPTABLE_H

#include <stddef.h>
#include <stdio.h>

/* What a parameter holds, on both sides. */
typedef enum {
    OPTABLE_BOOL,     /* a flag; JSON true or false */
    OPTABLE_TEXT,     /* a string */
    OPTABLE_GAME,     /* a game's rules (--game RULES, "game") */
    OPTABLE_POSITION, /* a position: operands, or the member's text or
                         array of terms (docs/api.md, Positions) */
    OPTABLE_SIZE,     /* a non-negative integer within the limits */
    OPTABLE_NUMBER,   /* a non-negative integer of any size: JSON a
                         decimal string (or an integer) */
    OPTABLE_WORD,     /* one of the words its limits list */
    OPTABLE_SEED,     /* 0 to 2^64 - 1: JSON a decimal string or an
                         integer */
    OPTABLE_FILE      /* a file's path (the command line only) */
} optable_type;

typedef struct optable_param {
    /* The long option without "--"; or an operand, in capitals
       ("POSITION...", "N"); NULL: none on the command line. */
    const char *cli;
    /* The JSON member; NULL: none in the API. */
    const char *api;
    optable_type type;
    /* The option's argument in --help ("RULES", "N"); NULL: a flag. */
    const char *arg;
    /* The default in words; NULL: none (absent means off, or required:
       then the help says so). */
    const char *dflt;
    /* The values allowed in words; NULL: any of the type. */
    const char *limits;
    /* What it does: the option's help in --help, and the member's in
       the docs (a '\n' breaks the line in --help, each line from column
       16, at most 79 wide; one that starts with '\n' begins below the
       option; the docs join the lines).  Where the help speaks of the
       other side, it names it (the API's "upto", --limit). */
    const char *help;
    /* One side only: why the other side has none.  NULL exactly when
       both cli and api are given. */
    const char *why;
    /* The variant of the operation that takes it (grundy: "sequence" of
       a heap game, "table" of Wythoff's family); NULL: every variant. */
    const char *only;
    /* 1: no --help line of its own; the line of the option before it
       shows it: in that option's arg (`--random-starts [--piles K]
       [--max N]`), else after a comma (`--progress, --no-progress`,
       `--piles K, --max N`). */
    int folded;
} optable_param;

typedef struct optable_op {
    const char *name;     /* the operation: "analyze" */
    const char *command;  /* its command (`bouton NAME`); NULL: none */
    const char *route;    /* its endpoint ("/v1/analyze"); NULL: none */
    const char *method;   /* "POST" or "GET" (NULL with no route) */
    const char *summary;  /* one line */
    const char *why;      /* one side only: why the other has none */
    const optable_param *params; /* ends with an entry of neither side */
} optable_op;

/* The operations, in the table's order. */
size_t optable_count(void);
const optable_op *optable_at(size_t i);
/* The operation of a command, of an endpoint's path; NULL: none. */
const optable_op *optable_command(const char *command);
const optable_op *optable_route(const char *path);
/* Whether the operation has a parameter named so on the command line
   (an option, without "--"; operands are never found), or in the API
   for the variant (NULL: any variant; a parameter of no variant is in
   every one). */
const optable_param *optable_cli_find(const optable_op *op,
                                      const char *option);
const optable_param *optable_api_find(const optable_op *op,
                                      const char *variant,
                                      const char *member);
/* Whether the parameter is an operand of the command line. */
int optable_is_operand(const optable_param *p);
/* A type in words, as docs/api.md writes it. */
const char *optable_type_name(optable_type t);

/*
 * Compares a command's own options (names, without "--", n of them) with
 * its operation in the table: 0 when they are the same set, else -1 with
 * the first difference in err (size bytes).
 */
int optable_cli_check(const char *command, const char *const *names,
                      size_t n, char *err, size_t size);

/* Prints the --help lines of op's options to f, in the table's order:
   "  --NAME ARG" (and ", --FOLDED ARG" for the folded options after it
   that ARG does not name) and the help from column 16 (past a longer
   option, two spaces after it; a help that starts with '\n', on the next
   line).  Every command's --help holds these lines (cli_options_help,
   cli.h). */
void optable_cli_help(FILE *f, const optable_op *op);

#endif
