/*
 * main.c -- the `bouton` program: dispatches to one command per file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"analyze", cmd_analyze,
     "who wins a position, every winning move, and why"},
    {"table", cmd_table, "stream the safe combinations (P-positions)"},
    {"count", cmd_count, "count positions and safe ones, exactly"},
    {"pair", cmd_pair, "the n-th P-position of Wythoff's game, or its index"},
    {"grundy", cmd_grundy, "Grundy sequences, periods and tables"},
    {"quotient", cmd_quotient, "misère quotients of heap games"},
    {"census", cmd_census, "Grundy sequences of many octal games, on MPI"},
    {"move", cmd_move, "the move the computer plays"},
    {"play", cmd_play, "play a game against the computer in the terminal"},
    {"replay", cmd_replay, "replay a saved game with an analysis of each move"},
    {"nimber", cmd_nimber, "arithmetic in Nim's field: nim-products, "
                           "inverses, roots, logs"},
    {"store", cmd_store, "the store of proved results: list, verify, "
                         "clear"},
#ifdef BOUTON_SERVER
    {"serve", cmd_serve, "serve the web app and the HTTP/JSON API"},
#endif
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void
usage(FILE *f)
{
    size_t i;
    fprintf(f, "usage: bouton COMMAND [OPTIONS] [ARGS]\n\n"
               "bouton analyses Nim and the games that grew out of it, "
               "exactly, at any size.\n\ncommands:\n");
    for (i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-8s  %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'bouton COMMAND --help' describes a command; "
               "'bouton --version' prints the version.\n");
}

/* A real out-of-memory inside GMP: one line and exit status 1, never
   GMP's abort. */
static void
gmp_out_of_memory(size_t bytes, void *ud)
{
    (void)ud;
    fprintf(stderr, "bouton: out of memory (%zu bytes for a number could not "
                    "be allocated)\n", bytes);
    exit(CLI_FAIL);
}

int
main(int argc, char **argv)
{
    size_t i;
    bt_gmp_install_allocators(gmp_out_of_memory, NULL);
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return cli_close_stdout(CLI_OK);
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("bouton %s\n", bt_version_string());
        return cli_close_stdout(CLI_OK);
    }
    for (i = 0; i < NCOMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            /* every write to stdout is checked here, once */
            return cli_close_stdout(commands[i].run(argc - 1, argv + 1));
    fprintf(stderr,
            "bouton: unknown command '%s' (try 'bouton --help')\n", argv[1]);
    return CLI_USAGE;
}
