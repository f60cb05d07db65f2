/*
 * cmd_analyze.c -- `bouton analyze`: who wins, every winning move, why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char help[] =
    "usage: bouton analyze [--game RULES] [--misere] [--explain] [--json] "
    "POSITION...\n"
    "       bouton analyze [OPTIONS] -      (read the position from "
    "standard input)\n\n"
    "Says who wins the position (P: the previous player, N: the next "
    "player),\nits Grundy value in normal play, and every winning move.\n\n"
    "POSITION is piles of the game given by --game (default nim), or a sum "
    "in\nthe position language: 'nim 3 4 5 + wythoff 3 5 + kayles 10 12'.\n\n"
    "  --game RULES  nim, wythoff[:A], sub:S, octal:CODE, kayles,\n"
    "                dawsons-kayles, dawsons-chess, grundys-game\n"
    "  --misere      taking the last counter loses\n"
    "  --explain     show why (binary columns, pairs, nim-sums)\n"
    "  --json        one JSON value (see README: the JSON interface)\n"
    "  --help        this text\n";

static void
print_human(const bt_position *p, const bt_analysis *a)
{
    char *text = bt_position_format(p);
    size_t i, n = bt_analysis_move_count(a);
    mpz_t g;
    mpz_init(g);
    printf("position: %s%s\n", text ? text : "?",
           bt_analysis_is_misere(a) ? " (misère play)" : "");
    free(text);
    printf("outcome:  %s\n", bt_analysis_outcome(a) == BT_P
                                 ? "P (the previous player wins)"
                                 : "N (the next player wins)");
    if (bt_analysis_grundy(g, a) == BT_OK) {
        fputs("grundy:   ", stdout);
        mpz_out_str(stdout, 10, g);
        fputc('\n', stdout);
    }
    if (bt_analysis_remoteness(a) >= 0)
        printf("remoteness: %ld (%s in %ld moves under best play)\n",
               bt_analysis_remoteness(a),
               bt_analysis_outcome(a) == BT_N ? "the next player wins"
                                              : "the next player loses",
               bt_analysis_remoteness(a));
    if (n == 0 && bt_analysis_outcome(a) == BT_P)
        printf("winning moves: none (every move loses against best "
               "play)\n");
    else
        printf("winning moves (%zu):\n", n);
    for (i = 0; i < n; i++)
        printf("  %s\n", bt_analysis_move(a, i)->text);
    if (!bt_analysis_moves_complete(a))
        printf("  ... and more: a component has more winning moves than "
               "the --max-search limit lets bouton list\n");
    mpz_clear(g);
    if (bt_analysis_explanation(a) != NULL)
        printf("\n%s", bt_analysis_explanation(a));
}

int
cmd_analyze(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"game", required_argument, NULL, 'g'},
        {"misere", no_argument, NULL, 'm'},
        {"explain", no_argument, NULL, 'e'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        CLI_LIMIT_LONGOPTS,
        {NULL, 0, NULL, 0}};
    const char *game = NULL;
    unsigned flags = BT_REMOTENESS;
    int json = 0, c, rc;
    bt_limits lim;
    bt_position *p = NULL;
    bt_analysis *a = NULL;
    bt_diag d;
    bt_status st;

    bt_limits_default(&lim);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'g':
            game = optarg;
            break;
        case 'm':
            flags |= BT_MISERE;
            break;
        case 'e':
            flags |= BT_EXPLAIN;
            break;
        case 'j':
            json = 1;
            break;
        case 'h':
            fputs(help, stdout);
            printf("\n%s", cli_limit_help);
            return CLI_OK;
        case '?':
        case ':':
            return cli_bad_option("analyze", c, argv);
        default:
            rc = cli_limit_option("analyze", c, optarg, &lim);
            if (rc < 0)
                return CLI_USAGE;
        }
    }
    rc = cli_position("analyze", &p, game, argv + optind, argc - optind,
                      &lim);
    if (rc != CLI_OK)
        return rc;
    memset(&d, 0, sizeof d);
    st = bt_analyze(&a, p, flags, &lim, &d);
    if (st != BT_OK) {
        rc = cli_status_error("analyze", st, &d);
    } else if (json) {
        rc = cli_json_print(cli_json_analysis(p, a));
    } else {
        print_human(p, a);
        rc = CLI_OK;
    }
    bt_analysis_free(a);
    bt_position_free(p);
    return rc;
}
