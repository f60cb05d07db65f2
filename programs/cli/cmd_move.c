/*
 * cmd_move.c -- `bouton move`: the move the computer plays.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The usage and what the command does; its option lines come from the
   table of operations (programs/common/optable.c), then help_tail. */
static const char help_head[] =
    "usage: bouton move [--game RULES] [--misere] [--level L] [--seed S] "
    "[--json]\n"
    "                   POSITION...\n"
    "       bouton move [OPTIONS] -      (read the position from standard "
    "input)\n\n"
    "Prints the move the computer plays from POSITION, and the position it\n"
    "leaves.  From a winning position it plays the fastest win; from a "
    "losing\none, the move that leaves the opponent the fewest ways to win "
    "(see\ndocs/opponent.md).\n\n";
static const char help_tail[] = "  --help        this text\n";

int
cmd_move(int argc, char **argv)
{
    const char *game = NULL, *qfile = NULL, *store_dir = NULL;
    int misere = 0, json = 0, no_store = 0, rc;
    bt_level level = BT_LEVEL_PERFECT;
    uint64_t seed = 1;
    const cli_opt opts[] = {CLI_TEXT("game", &game),
                            CLI_FLAG("misere", &misere),
                            CLI_PARSE("level", cli_opt_level, &level),
                            CLI_PARSE("seed", cli_opt_seed, &seed),
                            CLI_FLAG("json", &json),
                            CLI_TEXT("quotient", &qfile),
                            CLI_STORE_OPTS(&store_dir, &no_store),
                            CLI_END};
    bt_limits lim;
    cli_store store;
    bt_position *p = NULL;
    bt_move *m = NULL;
    bt_play_info info;
    bt_diag d;
    bt_status st;

    memset(&d, 0, sizeof d);
    rc = cli_options_help("move", argc, argv, help_head, help_tail, opts,
                          &lim);
    if (rc >= 0)
        return rc;
    if (optind >= argc)
        return cli_error("move", "no position given (try --help)");
    if (qfile != NULL && !misere)
        return cli_error("move", "--quotient goes with --misere");
    rc = cli_position("move", &p, game, argv + optind, argc - optind, &lim);
    if (rc != CLI_OK)
        return rc;
    if (qfile != NULL &&
        (rc = cli_quotient_for("move", qfile, p, &lim)) != CLI_OK) {
        bt_position_free(p);
        return rc;
    }
    if (misere &&
        (rc = cli_store_open(&store, "move", store_dir, no_store, 1)) !=
            CLI_OK) {
        bt_position_free(p);
        return rc;
    }
    if (misere)
        cli_store_use(&store, p, &lim);
    st = bt_opponent_play(&m, &info, p, misere, level, &seed, &lim, &d);
    if (misere) {
        cli_store_keep(&store, p);
        cli_store_close(&store);
    }
    if (st != BT_OK) {
        rc = cli_status_error("move", st, &d);
    } else if (json) {
        json_t *o = cli_json_play(m, &info);
        if (misere)
            cli_json_play_quotient(o, p, m, &info, &lim);
        rc = cli_json_print(o);
    } else {
        char *text = NULL;
        if (bt_position_apply(p, m) == BT_OK)
            text = bt_position_format(p);
        printf("%s\nleaves: %s\n", m->text, text ? text : "?");
        if (info.rule == BT_RULE_HEURISTIC)
            printf("outcome: unknown (misère play beyond exact analysis: "
                   "a heuristic move)\n");
        free(text);
        rc = CLI_OK;
    }
    bt_moves_free(m, m ? 1 : 0);
    bt_position_free(p);
    return rc;
}
