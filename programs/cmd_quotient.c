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

static const char help[] =
    "usage: bouton quotient --game RULES [--upto N | --until-proved] "
    "[--json] [--table]\n"
    "                       [--save FILE]\n\n"
    "The misère quotient (Plambeck and Siegel) of the heaps of at most N "
    "counters\n(default 12) of a heap game: Nim, sub:S, octal:CODE and its "
    "aliases, grundy.\nA sum of such heaps is a misère P-position exactly "
    "when the product of its\nheaps' elements lies in the P-portion.  The "
    "quotient is computed heap by\nheap and each step is checked exactly; "
    "it is 'computed to N', and claimed\nfor all heaps only when the "
    "periodicity theorem for misère quotients of\noctal games "
    "(Plambeck and Siegel) proves it: then the element of heap\n"
    "h + period is that of heap h for every h >= preperiod.\n\n"
    "  --upto N   heaps of at most N counters (default 12)\n"
    "  --table    also print the multiplication table\n"
    "  --json     one JSON object: {\"game\",\"upto\",\"order\","
    "\"p_portion\",\"tame\",\n"
    "             \"generators\",\"relations\",\"heaps\",\"period\","
    "\"preperiod\",\"proved\"}\n"
    "             with \"p\" (the P-portion's elements) and, with "
    "--table,\n"
    "             \"elements\" and \"table\"\n"
    "  --until-proved   compute heap by heap until the periodicity "
    "theorem proves\n"
    "             the quotient of all heaps (octal codes, sub:S); up to "
    "--upto N\n"
    "             heaps at most (default 1000), an error past it\n"
    "  --save FILE  also write the quotient to FILE (atomically), for\n"
    "             `analyze --quotient FILE`, `move`, `play` and `serve`,\n"
    "             which check it again before they use it\n";

static int
print_text(const bt_quotient *q, int table)
{
    size_t ord = bt_quotient_order(q), i, j, n = bt_quotient_upto(q);
    size_t per, pre;
    int first = 1;
    if (bt_quotient_period(q, &per, &pre))
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
    for (i = 0; i < bt_quotient_generator_count(q); i++)
        printf("%s %s (heap %zu)", i ? "," : "",
               bt_quotient_generator_name(q, i),
               bt_quotient_generator_heap(q, i));
    printf("%s\nrelations:\n", bt_quotient_generator_count(q) ? "" : " none");
    for (i = 0; i < bt_quotient_relation_count(q); i++)
        printf("  %s\n", bt_quotient_relation(q, i));
    printf("P:");
    for (i = 0; i < ord; i++)
        if (bt_quotient_is_p(q, i)) {
            printf("%s %s", first ? "" : ",", bt_quotient_word(q, i));
            first = 0;
        }
    printf("\nheaps:\n");
    for (i = 0; i <= n; i++) {
        int last = i % 6 == 5 || i == n;
        printf("%4zu: %-*s", i, last ? 0 : 8,
               bt_quotient_word(q, bt_quotient_heap(q, i)));
        fputs(last ? "\n" : "  ", stdout);
    }
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
    return fflush(stdout) == 0 && !ferror(stdout) ? CLI_OK : CLI_FAIL;
}

int
cmd_quotient(int argc, char **argv)
{
    const char *game = NULL, *upto = NULL, *save = NULL;
    int until = 0, json = 0, table = 0, rc;
    const cli_opt opts[] = {CLI_TEXT("game", &game),
                            CLI_TEXT("upto", &upto),
                            CLI_FLAG("until-proved", &until),
                            CLI_FLAG("json", &json),
                            CLI_FLAG("table", &table),
                            CLI_TEXT("save", &save),
                            CLI_END};
    size_t n;
    bt_limits lim;
    bt_game *g = NULL;
    bt_quotient *q = NULL;
    bt_diag d;
    bt_status st;

    rc = cli_options("quotient", argc, argv, help, opts, &lim);
    if (rc >= 0)
        return rc;
    if (optind < argc)
        return cli_error("quotient", "unexpected argument '%s'",
                         argv[optind]);
    if (game == NULL)
        return cli_error("quotient", "--game RULES is required (e.g. "
                                     "--game kayles, --game sub:1-3)");
    n = op_quotient_default_upto(until);
    if (upto != NULL &&
        cli_parse_size("quotient", "--upto", upto, 0, lim.max_grundy, &n) < 0)
        return CLI_USAGE;
    memset(&d, 0, sizeof d);
    if (bt_game_new(&g, game, &d) != BT_OK)
        return cli_error("quotient", "--game '%s': %s", game, d.message);
    st = until ? bt_quotient_new_until_proved(&q, g, n, &lim, &d)
               : bt_quotient_new(&q, g, n, &lim, &d);
    if (st != BT_OK) {
        rc = cli_status_error("quotient", st, &d);
        goto done;
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
    if (json) {
        json_t *v = cli_json_quotient(q, table);
        rc = v ? cli_json_print(v) : CLI_FAIL;
    } else {
        rc = print_text(q, table);
    }
done:
    bt_quotient_free(q);
    bt_game_free(g);
    return rc;
}
