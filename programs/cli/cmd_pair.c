/*
 * cmd_pair.c -- `bouton pair`: the n-th P-position of Wythoff's game (or
 * of its generalisation wythoff:A), and the inverse: which pair holds X.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ops.h"

/* The usage and what the command does; its option lines come from the
   table of operations (programs/common/optable.c), then help_tail. */
static const char help_head[] =
    "usage: bouton pair [--game wythoff[:A]] [--misere] [--json] N\n"
    "       bouton pair [--game wythoff[:A]] [--misere] [--json] "
    "--index-of X\n\n"
    "Prints the N-th safe pair (P-position) (A_N, B_N) of Wythoff's game, "
    "counted\nfrom 0 in increasing order: (0, 0) first in normal play, "
    "(0, 1) first in\nmisère play.  With --index-of, says which safe pair "
    "holds X and whether X is\nits lower or upper member (every number is "
    "in exactly one pair; in (0, 0)\nand misère (2, 2) it counts as the "
    "lower).  Exact for numbers of any size.\n\n";
static const char help_tail[] = "  --help        this text\n";

static void
print_pair(const mpz_t lo, const mpz_t hi)
{
    fputc('(', stdout);
    mpz_out_str(stdout, 10, lo);
    fputs(", ", stdout);
    mpz_out_str(stdout, 10, hi);
    fputs(")\n", stdout);
}

int
cmd_pair(int argc, char **argv)
{
    const char *spec = "wythoff", *index_of = NULL;
    int misere = 0, json = 0, rc;
    const cli_opt opts[] = {CLI_TEXT("game", &spec),
                            CLI_FLAG("misere", &misere),
                            CLI_FLAG("json", &json),
                            CLI_TEXT("index-of", &index_of),
                            CLI_END};
    bt_limits lim;
    bt_game *g = NULL;
    bt_diag d;
    bt_status st;
    bt_wythoff_member mem = BT_WYTHOFF_LOWER;
    mpz_t n, x, lo, hi;

    rc = cli_options_help("pair", argc, argv, help_head, help_tail, opts,
                          &lim);
    if (rc >= 0)
        return rc;
    rc = CLI_OK;
    if (index_of == NULL && optind >= argc)
        return cli_error("pair", "give the index N of the pair, or "
                                 "--index-of X (try --help)");
    if (index_of == NULL && optind < argc - 1)
        return cli_error("pair", "unexpected argument '%s'", argv[argc - 1]);
    if (index_of != NULL && optind < argc)
        return cli_error("pair", "unexpected argument '%s' with --index-of",
                         argv[optind]);
    memset(&d, 0, sizeof d);
    if (bt_game_new(&g, spec, &d) != BT_OK)
        return cli_error("pair", "--game '%s': %s", spec, d.message);
    if ((st = op_pair_game(OP_CLI, g, spec, &d)) != BT_OK) {
        bt_game_free(g);
        return cli_status_error("pair", st, &d);
    }
    mpz_inits(n, x, lo, hi, NULL);
    if (index_of != NULL) {
        if (cli_parse_mpz("pair", "--index-of", index_of, &lim, x) < 0) {
            rc = CLI_USAGE;
            goto done;
        }
        st = bt_wythoff_index_of(n, &mem, lo, hi, g, misere, x, &lim, &d);
    } else {
        if (cli_parse_mpz("pair", "the index N", argv[optind], &lim, n) < 0) {
            rc = CLI_USAGE;
            goto done;
        }
        st = bt_wythoff_pair(lo, hi, g, misere, n, &lim, &d);
    }
    if (st != BT_OK) {
        rc = cli_status_error("pair", st, &d);
        goto done;
    }
    if (json) {
        json_t *v;
        if (index_of != NULL)
            v = cli_json_index_of(x, n, mem == BT_WYTHOFF_UPPER, lo, hi);
        else
            v = cli_json_pair(g, misere, n, lo, hi);
        rc = cli_json_print(v);
    } else {
        if (index_of != NULL) {
            mpz_out_str(stdout, 10, x);
            printf(" is the %s member of pair ",
                   mem == BT_WYTHOFF_LOWER ? "lower" : "upper");
        } else {
            fputs("pair ", stdout);
        }
        mpz_out_str(stdout, 10, n);
        fputs(": ", stdout);
        print_pair(lo, hi);
        if (cli_stdout_check(1) != CLI_OK)
            rc = CLI_FAIL;
    }
done:
    mpz_clears(n, x, lo, hi, NULL);
    bt_game_free(g);
    return rc;
}
