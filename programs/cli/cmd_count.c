/*
 * cmd_count.c -- `bouton count`: how many positions, and how many safe
 * ones, exactly (Bouton 1901/02, sec. 3, for any number and size of piles).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ops.h"
#include "grundy_run.h"

/* The usage and what the command does; its option lines come from the
   table of operations (programs/common/optable.c). */
static const char help_head[] =
    "usage: bouton count [--game RULES] [--misere] [--ordered] [--json] "
    "--piles K\n                    [--min MIN] (--max MAX | --below N)\n\n"
    "Counts the Nim positions of K piles, each pile holding MIN to MAX "
    "counters\n(MIN defaults to 0; --below N means MAX = N - 1), and the "
    "P-positions among\nthem (the safe combinations: the second player "
    "wins), exactly, at any size,\nwith the chance that a position drawn "
    "at random is safe as a reduced fraction.\n\n"
    "A position is a multiset of piles (the order of the piles does not "
    "count), as\nBouton counts: 3 non-empty piles below 16 give 680 "
    "positions, 35 safe, 7/136.\n\n";

/* The count's progress: the ticker, and the fraction of the work done
   once the count knows it (-1 before). */
typedef struct count_progress {
    progress_ticker tk;
    double frac;
} count_progress;

static void
count_line(count_progress *cp)
{
    static const char what[] = "counting the positions and P-positions";
    if (!progress_ticker_due(&cp->tk))
        return;
    if (cp->frac >= 0)
        progress_ticker_fraction(&cp->tk, what, cp->frac);
    else
        progress_ticker_line(&cp->tk, "%s", what);
}

/* The count's report after each step: the percentage and the ETA. */
static void
count_on_progress(void *ud, double fraction)
{
    count_progress *cp = ud;
    cp->frac = fraction;
    count_line(cp);
}

/* The limits' interrupt hook, polled by the count as it works: shows the
   progress line when due (before the count knows its work, and between
   its reports), and stops the count only at --max-time. */
static int
count_tick_poll(void *ud)
{
    count_line(ud);
    return cli_time_up();
}

/* Prints the human-readable answer. */
static void
print_text(const bt_game *g, size_t k, const mpz_t min, const mpz_t max,
           int ordered, int misere, const mpz_t pos, const mpz_t pp,
           mpq_srcptr q)
{
    double d = mpq_get_d(q);
    /* Nim, the default game, is not named (as in the JSON answer) */
    gmp_printf("%zu pile%s%s%s, each of %Zd to %Zd counters, %s, %s play\n",
               k, k == 1 ? "" : "s", bt_game_is_nim(g) ? "" : " of ",
               bt_game_is_nim(g) ? "" : bt_game_spec(g), min, max,
               ordered ? "as ordered tuples (the piles are told apart)"
                       : "as multisets (the order of the piles does not "
                         "count)",
               misere ? "misère" : "normal");
    gmp_printf("positions    %Zd\n", pos);
    gmp_printf("P-positions  %Zd (safe: the second player wins)\n", pp);
    gmp_printf("probability  %Qd", q);
    if (mpz_sgn(pp) != 0 && mpz_cmp(pp, pos) != 0) {
        if (d > 0)
            printf(" (about %.6g)", d);
        else
            printf(" (below 1e-300)");
    }
    putchar('\n');
}


int
cmd_count(int argc, char **argv)
{
    const char *piles = NULL, *min = "0", *max = NULL, *below = NULL;
    const char *game = "nim";
    bt_game *g = NULL;
    int misere = 0, ordered = 0, json = 0, rc = CLI_OK, progress = -1;
    const cli_opt opts[] = {CLI_TEXT("game", &game),
                            CLI_FLAG("misere", &misere),
                            CLI_FLAG("ordered", &ordered),
                            CLI_FLAG("json", &json),
                            CLI_TEXT("piles", &piles),
                            CLI_TEXT("min", &min),
                            CLI_TEXT("max", &max),
                            CLI_TEXT("below", &below),
                            CLI_PROGRESS(&progress),
                            CLI_END};
    count_progress cp;
    size_t k;
    bt_limits lim;
    bt_diag d;
    bt_status st;
    mpz_t lo, hi, pos, pp;
    mpq_t q;

    rc = cli_options_help("count", argc, argv, help_head, NULL, opts, &lim);
    if (rc >= 0)
        return rc;
    rc = CLI_OK;
    if (optind < argc)
        return cli_error("count", "unexpected argument '%s'", argv[optind]);
    if (piles == NULL)
        return cli_error("count", "--piles K is required");
    st = op_count_bound_given(OP_CLI, max != NULL, below != NULL, &d);
    if (st != BT_OK)
        return cli_status_error("count", st, &d);
    if (cli_parse_size("count", "--piles", piles, 0, lim.max_table_piles, &k) <
        0)
        return CLI_USAGE;
    memset(&d, 0, sizeof d);
    if (bt_game_new(&g, game, &d) != BT_OK)
        return cli_error("count", "--game '%s': %s", game, d.message);

    mpz_inits(lo, hi, pos, pp, NULL);
    mpq_init(q);
    if (cli_parse_mpz("count", "--min", min, &lim, lo) < 0 ||
        cli_parse_mpz("count", max ? "--max" : "--below", max ? max : below,
                      &lim, hi) < 0) {
        rc = CLI_USAGE;
        goto done;
    }
    st = op_pile_range(OP_CLI, lo, hi, below != NULL, hi, &d);
    if (st != BT_OK) {
        rc = cli_status_error("count", st, &d);
        goto done;
    }
    progress_ticker_start(&cp.tk, "count",
                          progress >= 0 ? progress : grundy_run_tty());
    cp.frac = -1;
    if (cp.tk.on && (lim.interrupt == NULL || lim.interrupt == cli_interrupt)) {
        lim.interrupt = count_tick_poll;
        lim.interrupt_ud = &cp;
    }
    st = bt_game_count_progress(pos, pp, q, g, k, lo, hi,
                                (misere ? BT_MISERE : 0u) |
                                    (ordered ? BT_COUNT_ORDERED : 0u),
                                &lim, &d,
                                cp.tk.on ? count_on_progress : NULL, &cp);
    progress_ticker_end(&cp.tk);
    if (st != BT_OK) {
        rc = cli_status_error("count", st, &d);
        goto done;
    }
    if (json)
        rc =
            cli_json_print(
                cli_json_count(g, k, lo, hi, ordered, misere, pos, pp, q));
    else
        print_text(g, k, lo, hi, ordered, misere, pos, pp, q);
    if (cli_stdout_check(1) != CLI_OK)
        rc = CLI_FAIL;
done:
    mpz_clears(lo, hi, pos, pp, NULL);
    mpq_clear(q);
    bt_game_free(g);
    return rc;
}
