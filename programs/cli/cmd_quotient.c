/*
 * cmd_quotient.c -- `bouton quotient`: the misère quotient of the heaps of
 * a heap game up to a bound (Plambeck and Siegel 2008), with its
 * presentation, P-portion, the element of each heap and, on request, the
 * multiplication table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ops.h"

/* The usage and what the command does; its option lines come from the
   table of operations (programs/common/optable.c). */
static const char help_head[] =
    "usage: bouton quotient --game RULES [--upto N | --until-proved] "
    "[--json] [--table]\n"
    "                       [--save FILE]\n"
    "       bouton quotient --load FILE [--json] [--table]\n\n"
    "The misère quotient (Plambeck and Siegel) of the heaps of at most N "
    "counters\n(default 12) of a heap game: Nim, sub:S, octal:CODE and its "
    "aliases, grundy.\nA sum of such heaps is a misère P-position exactly "
    "when the product of its\nheaps' elements lies in the P-portion.  The "
    "quotient is computed heap by\nheap and each step is checked exactly; "
    "it is 'computed to N', and claimed\nfor all heaps only when the "
    "periodicity theorem for misère quotients of\noctal games "
    "(Plambeck and Siegel) proves it: then the element of heap\n"
    "h + period is that of heap h for every h >= preperiod.\n\n"
    "RULES may be a sum of two to four heap games, 'kayles + "
    "dawsons-kayles':\nthe quotient of the union of their heaps of at most "
    "N counters each, which\n`analyze --misere` uses for a sum that mixes "
    "them (computed to N; not saved).\n\n";

/* The games of q as "octal:0.07 + octal:0.77" (one game: its rules). */
static void
print_games(const bt_quotient *q)
{
    size_t i;
    for (i = 0; i < bt_quotient_game_count(q); i++)
        printf("%s%s", i ? " + " : "",
               bt_game_spec(bt_quotient_game_at(q, i)));
}

/* The heaps 0..n of game i (of a union, under its name). */
static void
print_heaps(const bt_quotient *q, size_t gi)
{
    size_t i, n = bt_quotient_upto(q);
    if (bt_quotient_game_count(q) > 1)
        printf("heaps of %s:\n", bt_game_spec(bt_quotient_game_at(q, gi)));
    else
        printf("heaps:\n");
    for (i = 0; i <= n; i++) {
        int last = i % 6 == 5 || i == n;
        printf("%4zu: %-*s", i, last ? 0 : 8,
               bt_quotient_word(q, bt_quotient_heap_of(q, gi, i)));
        fputs(last ? "\n" : "  ", stdout);
    }
}

static int
print_text(const bt_quotient *q, int table)
{
    size_t ord = bt_quotient_order(q), i, j, n = bt_quotient_upto(q);
    size_t per, pre;
    int first = 1;
    size_t ng = bt_quotient_game_count(q);
    if (ng > 1) {
        print_games(q);
        printf(": the misère quotient of the union of their heaps of at "
               "most %zu counters (computed to %zu, not claimed beyond)\n",
               n, n);
    } else if (bt_quotient_period(q, &per, &pre))
        printf("%s: the misère quotient of all heaps, proved from the "
               "heaps up to %zu by the periodicity theorem: period %zu, "
               "preperiod %zu (the element of heap h + %zu is that of heap "
               "h for every h >= %zu)\n",
               bt_game_spec(bt_quotient_game(q)), n, per, pre, per, pre);
    else
        printf("%s: the misère quotient of the heaps of at most %zu "
               "counters (computed to %zu, not claimed beyond)\n",
               bt_game_spec(bt_quotient_game(q)), n, n);
    printf("order %zu, |P| = %zu, %s\n", ord, bt_quotient_p_count(q),
           bt_quotient_is_tame(q) ? "tame (the misère Nim quotient)"
                                  : "wild");
    printf("generators:");
    for (i = 0; i < bt_quotient_generator_count(q); i++) {
        printf("%s %s (heap %zu", i ? "," : "",
               bt_quotient_generator_name(q, i),
               bt_quotient_generator_heap(q, i));
        if (ng > 1)
            printf(" of %s", bt_game_spec(bt_quotient_game_at(
                                 q, bt_quotient_generator_game(q, i))));
        putchar(')');
    }
    printf("%s\nrelations:\n", bt_quotient_generator_count(q) ? "" : " none");
    for (i = 0; i < bt_quotient_relation_count(q); i++)
        printf("  %s\n", bt_quotient_relation(q, i));
    printf("P:");
    for (i = 0; i < ord; i++)
        if (bt_quotient_is_p(q, i)) {
            printf("%s %s", first ? "" : ",", bt_quotient_word(q, i));
            first = 0;
        }
    putchar('\n');
    for (i = 0; i < ng; i++)
        print_heaps(q, i);
    if (table) {
        printf("multiplication table (row * column):\n%10s", "");
        for (j = 0; j < ord; j++)
            printf(" %8s", bt_quotient_word(q, j));
        putchar('\n');
        for (i = 0; i < ord; i++) {
            printf("%10s", bt_quotient_word(q, i));
            for (j = 0; j < ord; j++)
                printf(" %8s", bt_quotient_word(q, bt_quotient_mul(q, i, j)));
            putchar('\n');
        }
    }
    return cli_stdout_check(1);
}

int
cmd_quotient(int argc, char **argv)
{
    const char *game = NULL, *upto = NULL, *save = NULL, *load = NULL;
    const char *store_dir = NULL;
    int until = 0, json = 0, table = 0, no_store = 0, rc;
    const cli_opt opts[] = {CLI_TEXT("game", &game),
                            CLI_TEXT("upto", &upto),
                            CLI_FLAG("until-proved", &until),
                            CLI_FLAG("json", &json),
                            CLI_FLAG("table", &table),
                            CLI_TEXT("save", &save),
                            CLI_TEXT("load", &load),
                            CLI_STORE_OPTS(&store_dir, &no_store),
                            CLI_END};
    size_t n, ng = 0, i;
    bt_limits lim;
    bt_game *games[4];
    bt_quotient *q = NULL;
    bt_diag d;
    bt_status st;

    rc = cli_options_help("quotient", argc, argv, help_head, NULL, opts, &lim);
    if (rc >= 0)
        return rc;
    if (optind < argc)
        return cli_error("quotient", "unexpected argument '%s'",
                         argv[optind]);
    if (load != NULL) {
        if (game != NULL || upto != NULL || until || save != NULL)
            return cli_error("quotient", "--load FILE takes no --game, "
                                         "--upto, --until-proved or --save");
        rc = cli_quotient_read("quotient", "--load", load, &lim, &q);
        if (rc == CLI_OK)
            goto print;
        return rc;
    }
    if (game == NULL)
        return cli_error("quotient", "--game RULES is required (e.g. "
                                     "--game kayles, --game sub:1-3)");
    if (save != NULL) {
        /* a target never replaced is refused before the work, not after */
        char err[512];
        rc = cli_save_target("--save", save, NULL, err, sizeof err);
        if (rc != CLI_OK)
            return cli_error("quotient", "%s", err), rc;
    }
    n = op_quotient_default_upto(until);
    if (upto != NULL &&
        cli_parse_size("quotient", "--upto", upto, 0, lim.max_grundy, &n) < 0)
        return CLI_USAGE;
    memset(&d, 0, sizeof d);
    st = op_quotient_games(OP_CLI, game, games, 4, &ng, &d);
    if (st != BT_OK)
        return cli_status_error("quotient", st, &d);
    if (ng > 1 && (until || save != NULL)) {
        rc = cli_error("quotient", "%s is for the quotient of one game",
                       until ? "--until-proved" : "--save");
        goto done;
    }
    st = ng > 1   ? bt_quotient_new_sum(&q, games, ng, n, &lim, &d)
         : until ? bt_quotient_new_until_proved(&q, games[0], n, &lim, &d)
                 : bt_quotient_new(&q, games[0], n, &lim, &d);
    if (st != BT_OK) {
        rc = cli_status_error("quotient", st, &d);
        goto done;
    }
    if (ng == 1) {
        /* kept for later analyses when proved or computed past heap 26
           and further than the store's entry (cli_store_put) */
        cli_store store;
        if ((rc = cli_store_open(&store, "quotient", store_dir, no_store,
                                 1)) != CLI_OK)
            goto done;
        cli_store_put(&store, q);
        cli_store_close(&store);
    }
    if (save != NULL) {
        char *text = NULL;
        st = bt_quotient_save(&text, q, &d);
        rc = st != BT_OK ? cli_status_error("quotient", st, &d)
                         : cli_write_atomic("quotient", "--save", save, text,
                                            strlen(text));
        free(text);
        if (rc != CLI_OK)
            goto done;
    }
print:
    if (json) {
        json_t *v = cli_json_quotient(q, table);
        rc = v ? cli_json_print(v) : CLI_FAIL;
    } else {
        rc = print_text(q, table);
    }
done:
    bt_quotient_free(q);
    for (i = 0; i < ng; i++)
        bt_game_free(games[i]);
    return rc;
}
