/*
 * cmd_analyze.c -- `bouton analyze`: who wins, every winning move, why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ops.h"

/* The usage and what the command does; its option lines come from the
   table of operations (programs/common/optable.c), then help_tail. */
static const char help_head[] =
    "usage: bouton analyze [--game RULES] [--misere] [--explain] [--json] "
    "[--no-remoteness]\n"
    "                      POSITION...\n"
    "       bouton analyze [OPTIONS] -      (read the position from "
    "standard input)\n\n"
    "Says who wins the position (P: the previous player, N: the next "
    "player),\nits Grundy value in normal play, and every winning move.\n\n"
    "POSITION is piles of the game given by --game (default nim), or a sum "
    "in\nthe position language: 'nim 3 4 5 + wythoff 3 5 + kayles 10 12'.\n\n";
static const char help_tail[] = "  --help        this text\n";

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
    if (bt_analysis_remoteness_mpz(g, a) == BT_OK)
        gmp_printf("remoteness: %Zd (%s in %Zd moves under best play)\n", g,
                   bt_analysis_outcome(a) == BT_N ? "the next player wins"
                                                  : "the next player loses",
                   g);
    else if (bt_analysis_remoteness_reason(a) != NULL)
        printf("remoteness: not computed (%s)\n",
               bt_analysis_remoteness_reason(a));
    if (n == 0 && bt_analysis_outcome(a) == BT_P)
        printf("winning moves: none (every move loses against best "
               "play)\n");
    else
        printf("winning moves (%zu):\n", n);
    for (i = 0; i < n; i++)
        printf("  %s\n", bt_analysis_move(a, i)->text);
    if (!bt_analysis_moves_complete(a))
        printf("  ... and more: %s\n",
               bt_analysis_moves_note(a) != NULL
                   ? bt_analysis_moves_note(a)
                   : "a component has more winning moves than the "
                     "--max-search limit lets bouton list");
    mpz_clear(g);
    if (bt_analysis_explanation(a) != NULL)
        printf("\n%s", bt_analysis_explanation(a));
}

/*
 * `--random-starts`: the share of the starts of `bouton play --random`
 * (K piles drawn independently and uniformly from 1..N) from which the
 * player to move wins, i.e. one minus the share of P-positions among the
 * ordered K-tuples, counted exactly (op_random_starts, which /v1/analyze's
 * "random_starts" shares).
 */
static int
random_starts(const char *game, unsigned flags, int json, const char *piles,
              const char *max, const bt_limits *lim)
{
    size_t k = 3;
    mpz_t hi, all, wins;
    mpq_t share;
    bt_diag d;
    bt_status st;
    int rc = CLI_OK;

    memset(&d, 0, sizeof d);
    if ((st = op_random_starts_game(OP_CLI, game, &d)) != BT_OK)
        return cli_status_error("analyze", st, &d);
    if (piles != NULL && cli_parse_size("analyze", "--piles", piles, 1,
                                        lim->max_table_piles, &k) < 0)
        return CLI_USAGE;
    mpz_inits(hi, all, wins, NULL);
    mpq_init(share);
    mpz_set_ui(hi, 15);
    if (max != NULL && cli_parse_mpz("analyze", "--max", max, lim, hi) < 0) {
        rc = CLI_USAGE;
        goto done;
    }
    st = op_random_starts(OP_CLI, k, hi, (flags & BT_MISERE) != 0, lim, all,
                          wins, &d);
    if (st != BT_OK) {
        rc = cli_status_error("analyze", st, &d);
        goto done;
    }
    if (json) {
        rc = cli_json_print(cli_json_random_starts((flags & BT_MISERE) != 0,
                                                   k, hi, all, wins));
    } else {
        mpq_set_num(share, wins);
        mpq_set_den(share, all);
        mpq_canonicalize(share);
        printf("random starts: %zu piles, each uniform in 1..", k);
        mpz_out_str(stdout, 10, hi);
        printf("%s\nstarts:        ", flags & BT_MISERE ? " (misère play)"
                                                          : "");
        mpz_out_str(stdout, 10, all);
        printf("\nthe player to move wins from ");
        mpz_out_str(stdout, 10, wins);
        printf(" of them: ");
        mpq_out_str(stdout, 10, share);
        printf(" (about %.6f)\n", mpq_get_d(share));
    }
done:
    mpz_clears(hi, all, wins, NULL);
    mpq_clear(share);
    return rc;
}

int
cmd_analyze(int argc, char **argv)
{
    const char *game = NULL, *piles = NULL, *max = NULL, *qfile = NULL;
    const char *store_dir = NULL;
    int misere = 0, explain = 0, json = 0, starts = 0, no_store = 0, rc;
    int no_remote = 0;
    const cli_opt opts[] = {CLI_TEXT("game", &game),
                            CLI_FLAG("misere", &misere),
                            CLI_FLAG("explain", &explain),
                            CLI_FLAG("json", &json),
                            CLI_FLAG("no-remoteness", &no_remote),
                            CLI_FLAG("random-starts", &starts),
                            CLI_TEXT("piles", &piles),
                            CLI_TEXT("max", &max),
                            CLI_TEXT("quotient", &qfile),
                            CLI_STORE_OPTS(&store_dir, &no_store),
                            CLI_END};
    unsigned flags = BT_REMOTENESS;
    cli_store store;
    bt_limits lim;
    bt_position *p = NULL;
    bt_analysis *a = NULL;
    bt_diag d;
    bt_status st;

    rc = cli_options_help("analyze", argc, argv, help_head, help_tail, opts,
                          &lim);
    if (rc >= 0)
        return rc;
    if (misere)
        flags |= BT_MISERE;
    if (explain)
        flags |= BT_EXPLAIN;
    if (no_remote)
        flags &= ~(unsigned)BT_REMOTENESS;
    if ((piles != NULL || max != NULL) && !starts)
        return cli_error("analyze", "--piles and --max go with "
                                    "--random-starts");
    if (qfile != NULL && (!misere || starts))
        return cli_error("analyze", "--quotient goes with --misere and a "
                                    "position");
    if (starts) {
        if (optind < argc)
            return cli_error("analyze", "--random-starts takes no position "
                                        "(got '%s')",
                             argv[optind]);
        return random_starts(game, flags, json, piles, max, &lim);
    }
    rc = cli_position("analyze", &p, game, argv + optind, argc - optind,
                      &lim);
    if (rc != CLI_OK)
        return rc;
    if (qfile != NULL &&
        (rc = cli_quotient_for("analyze", qfile, p, &lim)) != CLI_OK) {
        bt_position_free(p);
        return rc;
    }
    /* misère play: proved quotients from the store, and to it */
    if (misere &&
        (rc = cli_store_open(&store, "analyze", store_dir, no_store, 1)) !=
            CLI_OK) {
        bt_position_free(p);
        return rc;
    }
    if (misere)
        cli_store_use(&store, p, &lim);
    memset(&d, 0, sizeof d);
    st = bt_analyze(&a, p, flags, &lim, &d);
    if (misere) {
        cli_store_keep(&store, p);
        cli_store_close(&store);
    }
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
