/*
 * cmd_grundy.c -- `bouton grundy`: the Grundy sequence of a heap game, its
 * period, and whether a theorem proves it; for Wythoff's game, the table
 * of values (grundy_wythoff.c).
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
    "usage: bouton grundy --game RULES (--upto N | --until-proved "
    "[--limit N])\n"
    "                     [--no-values] [--json] [--method M] [--threads N]\n"
    "                     [--checkpoint FILE [--checkpoint-every S]]\n"
    "                     [--progress | --no-progress]\n"
    "       bouton grundy --game wythoff[:A] --below N [--json]\n\n"
    "The Grundy values G(0), G(1), ... of one heap of a heap game (a game "
    "whose\ncomponents are single numbers: the games below but those of "
    "pairs and of\nvariable arity), with the period and preperiod found in "
    "them.  A\nperiod is 'proved' only when a theorem "
    "proves it from the values: the\nGuy-Smith theorem for octal games, "
    "the max(S) window for subtraction games;\nGrundy's game is never "
    "proved (its periodicity is an open problem).\n\n";

/* Prints the values, ten to a line after their index. */
static void
print_values(const bt_sequence *s, size_t n)
{
    size_t i;
    unsigned top = 0;
    int width, iw;
    char buf[32];
    for (i = 0; i < n; i++)
        if (bt_sequence_value(s, i) > top)
            top = bt_sequence_value(s, i);
    width = snprintf(buf, sizeof buf, "%u", top);
    iw = snprintf(buf, sizeof buf, "%zu", n ? n - 1 : 0);
    for (i = 0; i < n; i++) {
        if (i % 10 == 0 && i > 0 && cli_stdout_check(0) != CLI_OK)
            return; /* a failed write: main reports it */
        if (i % 10 == 0)
            printf("%s%*zu:", i ? "\n" : "", iw, i);
        printf(" %*u", width, bt_sequence_value(s, i));
    }
    if (n > 0)
        putchar('\n');
}

static int
print_json(const bt_sequence *s, const char *spec, int values)
{
    size_t n = bt_sequence_length(s), i, p, pre;
    json_t *js = json_string(spec);
    char *text = js ? json_dumps(js, JSON_ENCODE_ANY) : NULL;
    json_decref(js);
    if (text == NULL)
        return CLI_FAIL;
    printf("{\"game\":%s,\"upto\":%zu", text, n);
    cli_json_free(text);
    if (values) {
        fputs(",\"values\":[", stdout);
        for (i = 0; i < n; i++)
            printf(i ? ",%u" : "%u", bt_sequence_value(s, i));
        putchar(']');
    }
    if (bt_sequence_period(s, &p, &pre))
        printf(",\"period\":%zu,\"preperiod\":%zu", p, pre);
    else
        fputs(",\"period\":null,\"preperiod\":null", stdout);
    printf(",\"proved\":%s,\"threads\":%u}\n",
           bt_sequence_is_proved(s) ? "true" : "false",
           bt_sequence_threads_used(s));
    return cli_stdout_check(1);
}

static int
print_text(const bt_sequence *s, const char *spec, int values, int until,
           size_t limit)
{
    size_t n = bt_sequence_length(s), p, pre;
    int has = bt_sequence_period(s, &p, &pre);
    const char *method = bt_sequence_method_name(s);
    if (n == 0)
        printf("%s: no values (--upto 0)\n", spec);
    else
        printf("%s: %zu value%s, G(0..%zu)%s\n", spec, n, n == 1 ? "" : "s",
               n - 1, values ? ":" : "");
    if (values)
        print_values(s, n);
    if (bt_sequence_is_proved(s))
        printf("period %zu, preperiod %zu: proved (%s)\n", p, pre,
               strncmp(spec, "sub:", 4) == 0 ? "subtraction-game window"
                                             : "Guy-Smith theorem");
    else if (has)
        printf("period %zu, preperiod %zu: detected in the values, not "
               "proved\n",
               p, pre);
    else
        printf("no period detected in these values\n");
    if (until && !bt_sequence_is_proved(s))
        printf("not proved within %zu values (--limit)\n", limit);
    if (strncmp(method, "rare", 4) == 0)
        printf("method: %s (mask %u, %zu sparse positions)\n", method,
               bt_sequence_rare_mask(s), bt_sequence_rare_count(s));
    else
        printf("method: %s\n", method);
    return cli_stdout_check(1);
}

int
cmd_grundy(int argc, char **argv)
{
    const char *game = NULL, *upto = NULL, *limit_arg = NULL, *below = NULL;
    const char *method_arg = "auto", *threads_arg = NULL, *ckpt = NULL;
    const char *every_arg = NULL;
    int progress = -1;
    size_t threads = 0;
    grundy_run run;
    int until = 0, values = 1, json = 0, rc;
    const cli_opt opts[] = {CLI_TEXT("game", &game),
                            CLI_TEXT("upto", &upto),
                            CLI_FLAG("until-proved", &until),
                            CLI_TEXT("limit", &limit_arg),
                            CLI_SET("no-values", &values, 0),
                            CLI_FLAG("json", &json),
                            CLI_TEXT("method", &method_arg),
                            CLI_TEXT("below", &below),
                            CLI_TEXT("threads", &threads_arg),
                            CLI_TEXT("checkpoint", &ckpt),
                            CLI_TEXT("checkpoint-every", &every_arg),
                            CLI_PROGRESS(&progress),
                            CLI_END};
    size_t n = 0, limit;
    bt_seq_method method;
    bt_limits lim;
    bt_game *g = NULL;
    bt_sequence *s = NULL;
    bt_diag d;
    bt_status st;

    rc = cli_options_help("grundy", argc, argv, help_head, NULL, opts, &lim);
    if (rc >= 0)
        return rc;
    if (optind < argc)
        return cli_error("grundy", "unexpected argument '%s'", argv[optind]);
    if (game == NULL)
        return cli_error("grundy", "--game RULES is required (e.g. --game "
                                   "kayles, --game sub:1-3, --game "
                                   "octal:0.16)");
    memset(&d, 0, sizeof d);
    if (bt_game_new(&g, game, &d) != BT_OK)
        return cli_error("grundy", "--game '%s': %s", game, d.message);
    if (op_grundy_is_table(g)) {
        bt_game_free(g);
        if (upto != NULL || until || limit_arg != NULL)
            return cli_error("grundy", "Wythoff's game has a table of "
                                       "values, not a sequence: use "
                                       "--below N");
        return cli_grundy_wythoff(game, below, json, &lim);
    }
    rc = CLI_USAGE;
    if ((st = op_grundy_sequence(OP_CLI, g, game, &d)) != BT_OK) {
        rc = cli_status_error("grundy", st, &d);
        goto done;
    }
    if (below != NULL) {
        rc = cli_error("grundy",
                       "--below is for Wythoff's game; use --upto "
                       "N for %s",
                       bt_game_spec(g));
        goto done;
    }
    if ((upto != NULL) + until != 1) {
        rc = cli_error("grundy", "give exactly one of --upto N and "
                                 "--until-proved");
        goto done;
    }
    if (limit_arg != NULL && !until) {
        rc = cli_error("grundy", "--limit goes with --until-proved");
        goto done;
    }
    if (strcmp(method_arg, "auto") == 0)
        method = BT_SEQ_AUTO;
    else if (strcmp(method_arg, "plain") == 0)
        method = BT_SEQ_PLAIN;
    else if (strcmp(method_arg, "rare") == 0)
        method = BT_SEQ_RARE;
    else {
        rc = cli_error("grundy",
                       "--method '%s': expected auto, plain or "
                       "rare",
                       method_arg);
        goto done;
    }
    limit = lim.max_grundy;
    if (upto != NULL &&
        cli_parse_size("grundy", "--upto", upto, 0, lim.max_grundy, &n) < 0)
        goto done;
    if (limit_arg != NULL && cli_parse_size("grundy", "--limit", limit_arg, 1,
                                            lim.max_grundy, &limit) < 0)
        goto done;
    if (threads_arg != NULL &&
        cli_parse_size("grundy", "--threads", threads_arg, 1,
                       BT_SEQ_MAX_THREADS, &threads) < 0)
        goto done;
    memset(&run, 0, sizeof run);
    run.every = 60;
    if (every_arg != NULL) {
        char *end;
        run.every = strtod(every_arg, &end);
        if (end == every_arg || *end != '\0' || !(run.every >= 0) ||
            run.every > 1e9) {
            rc = cli_error("grundy",
                           "--checkpoint-every '%s': expected seconds "
                           "(a number, 0 or more)",
                           every_arg);
            goto done;
        }
        if (ckpt == NULL) {
            rc = cli_error("grundy", "--checkpoint-every goes with "
                                     "--checkpoint FILE");
            goto done;
        }
    }
    if ((st = bt_sequence_new(&s, g, method, &d)) != BT_OK) {
        rc = cli_status_error("grundy", st, &d);
        goto done;
    }
    bt_sequence_set_threads(s, (unsigned)threads); /* 0: every CPU */
    run.cmd = "grundy";
    run.spec = bt_game_spec(g);
    run.until = until;
    run.n = until ? limit : n;
    run.method = (int)method;
    run.checkpoint = ckpt;
    run.progress = progress >= 0 ? progress : grundy_run_tty();
    if (ckpt != NULL && (rc = grundy_run_resume(&run, s)) != CLI_OK)
        goto done;
    if ((rc = grundy_run_compute(&run, s, &lim)) != CLI_OK)
        goto done;
    rc = json ? print_json(s, bt_game_spec(g), values)
              : print_text(s, bt_game_spec(g), values, until, limit);
done:
    bt_sequence_free(s);
    bt_game_free(g);
    return rc;
}
