/*
 * cmd_analyze.c -- `bouton analyze`: who wins, every winning move, why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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
 * ordered K-tuples, counted exactly by bt_nim_count().
 */
static int
random_starts(const char *game, unsigned flags, int json, const char *piles,
              const char *max, const bt_limits *lim)
{
    size_t k = 3;
    mpz_t lo, hi, all, p, wins;
    mpq_t share;
    bt_diag d;
    bt_status st;
    int rc = CLI_OK;

    /* the starts are counted by Nim's own API (bt_nim_count) */
    if (game != NULL && strcmp(game, "nim") != 0)
        return cli_error("analyze", "--random-starts counts Nim positions "
                                    "only (--game %s: its starts are not "
                                    "counted exactly)",
                         game);
    if (piles != NULL && cli_parse_size("analyze", "--piles", piles, 1,
                                        lim->max_table_piles, &k) < 0)
        return CLI_USAGE;
    mpz_inits(lo, hi, all, p, wins, NULL);
    mpq_init(share);
    mpz_set_ui(lo, 1);
    mpz_set_ui(hi, 15);
    if (max != NULL &&
        (cli_parse_mpz("analyze", "--max", max, lim, hi) < 0 ||
         (mpz_sgn(hi) == 0 &&
          cli_error("analyze", "--max 0: the piles of a random start hold "
                               "1 to N counters, N at least 1")))) {
        rc = CLI_USAGE;
        goto done;
    }
    memset(&d, 0, sizeof d);
    st = bt_nim_count(all, p, NULL, k, lo, hi,
                      BT_COUNT_ORDERED | (flags & BT_MISERE), lim, &d);
    if (st != BT_OK) {
        rc = cli_status_error("analyze", st, &d);
        goto done;
    }
    mpz_sub(wins, all, p);
    mpq_set_num(share, wins);
    mpq_set_den(share, all);
    mpq_canonicalize(share);
    if (json) {
        char *q = mpq_get_str(NULL, 10, share);
        json_t *o = json_object();
        json_object_set_new(o, "game", json_string("nim"));
        json_object_set_new(o, "misere", json_boolean(flags & BT_MISERE));
        json_object_set_new(o, "piles", json_integer((json_int_t)k));
        json_object_set_new(o, "max", cli_json_mpz(hi));
        json_object_set_new(o, "starts", cli_json_mpz(all));
        json_object_set_new(o, "first_player_wins", cli_json_mpz(wins));
        /* a whole number keeps the fraction's form, as count writes it */
        json_object_set_new(o, "probability",
                            q == NULL ? json_string("?")
                            : mpz_cmp_ui(mpq_denref(share), 1) == 0
                                ? json_sprintf("%s/1", q)
                                : json_string(q));
        free(q);
        rc = cli_json_print(o);
    } else {
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
    mpz_clears(lo, hi, all, p, wins, NULL);
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
    char *help;
    cli_store store;
    bt_limits lim;
    bt_position *p = NULL;
    bt_analysis *a = NULL;
    bt_diag d;
    bt_status st;

    help = cli_help_from_table("analyze", help_head, help_tail);
    if (help == NULL) {
        fprintf(stderr, "bouton analyze: out of memory\n");
        return CLI_FAIL;
    }
    rc = cli_options("analyze", argc, argv, help, opts, &lim);
    free(help);
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
