/*
 * cmd_table.c -- `bouton table`: the safe combinations, streamed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "cli.h"
#include "ops.h"
#include "grundy_run.h"

/* The usage and what the command does; its option lines come from the
   table of operations (programs/common/optable.c). */
static const char help_head[] =
    "usage: bouton table [--game RULES] [--misere] [--json] --piles K "
    "[--min MIN] --below N\n"
    "       bouton table [--json] --nim-products N\n\n"
    "Lists every P-position (safe combination) of K piles, each pile in "
    "[MIN, N)\n(MIN defaults to 0), once, with its piles in non-decreasing "
    "order, in\nlexicographic order.  The list is streamed: it starts at "
    "once and uses\nconstant memory.  For Wythoff's game it lists the pairs "
    "(x <= y) with y < N\n(--piles is then 1, the default).\n\n";

/* The state the progress line reads, between the rows. */
typedef struct table_tick {
    progress_ticker t;
    size_t rows;
    mpz_t *row; /* the last row, NULL before the first */
    const char *below;
} table_tick;

/* The limits' interrupt hook, polled by the table as it works: shows the
   line when due, and stops the table only at --max-time. */
static int
table_tick_poll(void *ud)
{
    table_tick *tk = ud;
    if (progress_ticker_due(&tk->t)) {
        if (tk->row != NULL && mpz_sizeinbase(tk->row[0], 10) < 40) {
            char first[48];
            mpz_get_str(first, 10, tk->row[0]);
            progress_ticker_line(&tk->t, "%zu rows, first pile %s (below %.40s)",
                                 tk->rows, first, tk->below);
        } else {
            progress_ticker_line(&tk->t, "%zu rows", tk->rows);
        }
    }
    return cli_time_up();
}

/* `table --nim-products N`: the rows x = 0..N-1 of x * y, y < N; every
   product below 2^64 since N <= 2^32 (the field of order 2^64 holds
   them). */
static int
nim_products(const char *arg, int json, const bt_limits *lim)
{
    size_t n, x, y, width;
    char buf[32];
    if (cli_parse_size("table", "--nim-products", arg, 1, (size_t)1 << 32,
                       &n) < 0)
        return CLI_USAGE;
    if (n > lim->max_grundy / n)
        return cli_error("table",
                         "--nim-products %zu: %zu x %zu products are more "
                         "than the max_grundy limit (%zu)",
                         n, n, n, lim->max_grundy);
    /* the columns as wide as the largest product: below the Fermat
       2-power past n - 1 */
    for (width = 1, x = 2; x < n; x *= x)
        ;
    width = (size_t)snprintf(buf, sizeof buf, "%llu",
                             (unsigned long long)(x - 1));
    for (x = 0; x < n; x++) {
        if (cli_time_up())
            return cli_status_error("table", BT_EINTR, NULL);
        if (json)
            putchar('[');
        for (y = 0; y < n; y++) {
            unsigned long long v = bt_nimber_mul_u64(x, y);
            if (json)
                printf(y ? ",\"%llu\"" : "\"%llu\"", v);
            else
                printf(y ? " %*llu" : "%*llu", (int)width, v);
        }
        puts(json ? "]" : "");
        if (cli_stdout_check(0) != CLI_OK)
            break; /* a failed write: main reports it */
    }
    return cli_stdout_check(1);
}

int
cmd_table(int argc, char **argv)
{
    const char *game = "nim", *piles = NULL, *below = NULL, *min = "0",
               *nimp = NULL;
    int misere = 0, json = 0, rc, r, progress = -1;
    const cli_opt opts[] = {CLI_TEXT("game", &game),
                            CLI_FLAG("misere", &misere),
                            CLI_FLAG("json", &json),
                            CLI_TEXT("piles", &piles),
                            CLI_TEXT("min", &min),
                            CLI_TEXT("below", &below),
                            CLI_TEXT("nim-products", &nimp),
                            CLI_PROGRESS(&progress),
                            CLI_END};
    table_tick tk;
    size_t k, i, width;
    bt_limits lim;
    bt_game *g = NULL;
    bt_table *t = NULL;
    bt_diag d;
    bt_status st;
    mpz_t lo, hi, *row = NULL;

    rc = cli_options_help("table", argc, argv, help_head, NULL, opts, &lim);
    if (rc >= 0)
        return rc;
    rc = CLI_OK;
    if (optind < argc)
        return cli_error("table", "unexpected argument '%s'", argv[optind]);
    if (nimp != NULL) {
        /* "nim" is --game's default: any other text was given */
        if (below != NULL || piles != NULL || misere ||
            strcmp(game, "nim") != 0 || strcmp(min, "0") != 0)
            return cli_error("table", "--nim-products takes no --game, "
                                      "--misere, --piles, --min or --below");
        return nim_products(nimp, json, &lim);
    }
    if (below == NULL)
        return cli_error("table", "--below N is required");
    memset(&d, 0, sizeof d);
    if ((st = bt_game_new(&g, game, &d)) != BT_OK)
        return cli_error("table", "--game '%s': %s", game, d.message);
    k = op_table_default_piles(g);
    if (piles == NULL && k == 0) {
        bt_game_free(g);
        return cli_error("table", "--piles K is required");
    }
    if (piles != NULL &&
        cli_parse_size("table", "--piles", piles, 0, lim.max_table_piles,
                       &k) < 0) {
        bt_game_free(g);
        return CLI_USAGE;
    }
    mpz_init(lo);
    mpz_init(hi);
    if (cli_parse_mpz("table", "--below", below, &lim, hi) < 0 ||
        cli_parse_mpz("table", "--min", min, &lim, lo) < 0) {
        rc = CLI_USAGE;
        goto done;
    }
    st = op_pile_range(OP_CLI, lo, hi, 1, NULL, &d);
    if (st != BT_OK) {
        rc = cli_status_error("table", st, &d);
        goto done;
    }
    /* rows on the terminal are their own progress */
    progress_ticker_start(&tk.t, "table",
                          progress >= 0 ? progress
                                        : grundy_run_tty() && !isatty(1));
    tk.rows = 0;
    tk.row = NULL;
    tk.below = below;
    if (tk.t.on && (lim.interrupt == NULL || lim.interrupt == cli_interrupt)) {
        lim.interrupt = table_tick_poll;
        lim.interrupt_ud = &tk;
    }
    st = bt_table_new(&t, g, misere, k, lo, hi, &lim, &d);
    if (st != BT_OK) {
        rc = cli_status_error("table", st, &d);
        goto done;
    }
    width = bt_table_width(t);
    row = malloc((width ? width : 1) * sizeof *row);
    if (row == NULL) {
        rc = CLI_FAIL;
        goto done;
    }
    for (i = 0; i < width; i++)
        mpz_init(row[i]);
    while ((r = bt_table_next(t, row)) > 0) {
        tk.rows++;
        tk.row = width > 0 ? row : NULL;
        if (tk.t.shown)
            progress_ticker_end(&tk.t);
        else if ((tk.rows & 1023) == 0)
            (void)table_tick_poll(&tk); /* rows come fast, no poll */
        if (json)
            putchar('[');
        for (i = 0; i < width; i++) {
            if (i > 0)
                fputs(json ? "," : " ", stdout);
            if (json)
                putchar('"');
            mpz_out_str(stdout, 10, row[i]);
            if (json)
                putchar('"');
        }
        if (json)
            putchar(']');
        putchar('\n');
        if (cli_stdout_check(0) != CLI_OK)
            break; /* a failed write stops the table: main reports it */
    }
    tk.row = NULL;
    progress_ticker_end(&tk.t);
    if (r < 0) {
        memset(&d, 0, sizeof d);
        snprintf(d.message, sizeof d.message, "%s", bt_table_message(t));
        rc = cli_status_error("table", (bt_status)-r, &d);
    }
    if (cli_stdout_check(1) != CLI_OK)
        rc = CLI_FAIL;
    for (i = 0; i < width; i++)
        mpz_clear(row[i]);
done:
    free(row);
    mpz_clear(lo);
    mpz_clear(hi);
    bt_table_free(t);
    bt_game_free(g);
    return rc;
}
