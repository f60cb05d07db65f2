/*
 * cmd_replay.c -- `bouton replay FILE`: a saved game, every move analysed.
 *
 * A move from an N-position to a P-position is a winning move; a move from
 * an N-position to an N-position threw the win away (the replay names the
 * winning moves there were); from a P-position no move wins against best
 * play.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The usage and what the command does; its option lines come from the
   table of operations (programs/common/optable.c), then help_tail. */
static const char help_head[] =
    "usage: bouton replay [--json] FILE\n\n"
    "Shows a game saved by `bouton play` (or written by hand in the same\n"
    "notation, e.g. Beardon's '(41,163,13) -A-> (25,163,13) -B-> ...'), with\n"
    "an analysis of every move: which moves won, and which threw a win "
    "away.\n"
    "FILE '-' reads standard input.\n\n";
static const char help_tail[] = "  --help        this text\n";

/* The outcome of p for the player to move: 'N', 'P', or '?' beyond the
   limits.  *a receives the analysis (NULL when '?'). */
static char
outcome_of(bt_analysis **a, const bt_position *p, int misere,
           const bt_limits *lim)
{
    if (bt_analyze(a, p, misere ? BT_MISERE : 0, lim, NULL) != BT_OK) {
        *a = NULL;
        return '?';
    }
    return bt_analysis_outcome(*a) == BT_N ? 'N' : 'P';
}

static const char *
verdict(char before, char after)
{
    if (before == '?' || after == '?')
        return "unknown";
    if (before == 'P')
        return "lost";
    return after == 'P' ? "win" : "blunder";
}

static json_t *
json_position(const bt_position *p)
{
    if (bt_position_single_game(p) != NULL)
        return cli_json_numbers(p);
    {
        char *s = bt_position_format(p);
        json_t *v = json_string(s ? s : "");
        free(s);
        return v;
    }
}

/* A position as the record writes it: "(3,4,5)" for one game. */
static void
print_position(const bt_position *p)
{
    size_t i;
    if (bt_position_single_game(p) != NULL) {
        int first = 1;
        fputc('(', stdout);
        for (i = 0; i < bt_position_size(p); i++) {
            const mpz_t *v = bt_position_nums(p, i);
            size_t j, ar = bt_position_count(p, i);
            for (j = 0; j < ar; j++) {
                if (!first)
                    fputc(',', stdout);
                mpz_out_str(stdout, 10, v[j]);
                first = 0;
            }
        }
        fputc(')', stdout);
    } else {
        char *s = bt_position_format(p);
        cli_fputs_safe(s ? s : "?", stdout);
        free(s);
    }
}

static const char *
name_of(const bt_record *r, char player)
{
    char key[2] = {player, '\0'};
    const char *n = bt_record_get(r, key);
    return n ? n : "";
}

int
cmd_replay(int argc, char **argv)
{
    int json = 0, no_store = 0, rc;
    const char *store_dir = NULL;
    const cli_opt opts[] = {CLI_FLAG("json", &json),
                            CLI_STORE_OPTS(&store_dir, &no_store), CLI_END};
    cli_store store;
    bt_limits lim;
    bt_record *r = NULL;
    char *text;
    bt_diag d;
    size_t i, n, blunders = 0;
    json_t *moves = NULL, *out = NULL;
    int misere;
    char w;

    rc = cli_options_help("replay", argc, argv, help_head, help_tail, opts,
                          &lim);
    if (rc >= 0)
        return rc;
    rc = CLI_OK;
    if (argc - optind != 1)
        return cli_error("replay", "give one FILE (try --help)");
    text = cli_read_file("replay", argv[optind], lim.max_text);
    if (text == NULL)
        return CLI_USAGE;
    memset(&d, 0, sizeof d);
    if (bt_record_parse(&r, text, &lim, &d) != BT_OK) {
        rc = cli_error("replay", "%s: %s", argv[optind], d.message);
        free(text);
        return rc;
    }
    free(text);
    misere = bt_record_is_misere(r);
    n = bt_record_length(r);
    /* a misère record: the games of its start, from the store and to it */
    memset(&store, 0, sizeof store);
    if (misere &&
        (rc = cli_store_open(&store, "replay", store_dir, no_store, 1)) !=
            CLI_OK) {
        bt_record_free(r);
        return rc;
    }
    cli_store_use(&store, bt_record_position(r, 0), &lim);
    if (json) {
        bt_game *g = bt_position_single_game(bt_record_position(r, 0));
        out = json_object();
        moves = json_array();
        json_object_set_new(out, "game",
                            json_string(g ? bt_game_spec(g) : "sum"));
        json_object_set_new(out, "misere", json_boolean(misere));
        json_object_set_new(out, "start",
                            json_position(bt_record_position(r, 0)));
    } else {
        bt_game *g = bt_position_single_game(bt_record_position(r, 0));
        printf("%s, %s play", g ? bt_game_spec(g) : "a sum of games",
               misere ? "misère" : "normal");
        if (bt_record_get(r, "A") || bt_record_get(r, "B"))
        {
            /* the names are the file's text: shown, never obeyed */
            printf("; A: ");
            cli_fputs_safe(name_of(r, 'A'), stdout);
            printf(", B: ");
            cli_fputs_safe(name_of(r, 'B'), stdout);
        }
        printf(".\n");
        printf("start: ");
        print_position(bt_record_position(r, 0));
        printf("\n");
    }
    for (i = 0; i < n; i++) {
        const bt_position *p = bt_record_position(r, i);
        const bt_position *q = bt_record_position(r, i + 1);
        const bt_move *m = bt_record_move(r, i);
        bt_analysis *a, *b;
        char before, after;
        const char *v;
        char who;
        if (!json && cli_stdout_check(0) != CLI_OK)
            break; /* a failed write stops the replay: main reports it */
        before = outcome_of(&a, p, misere, &lim);
        after = outcome_of(&b, q, misere, &lim);
        v = verdict(before, after);
        who = bt_record_player(r, i);
        if (strcmp(v, "blunder") == 0)
            blunders++;
        if (json) {
            json_t *o = json_object();
            json_object_set_new(o, "player",
                                json_string(who == 'A' ? "A" : "B"));
            json_object_set_new(o, "move", cli_json_move(m));
            json_object_set_new(o, "position", json_position(q));
            if (before != '?')
                json_object_set_new(o, "before",
                                    json_string(before == 'N' ? "N" : "P"));
            if (after != '?')
                json_object_set_new(o, "after",
                                    json_string(after == 'N' ? "N" : "P"));
            json_object_set_new(o, "verdict", json_string(v));
            if (strcmp(v, "blunder") == 0) {
                json_t *wm = json_array();
                size_t k;
                for (k = 0; k < bt_analysis_move_count(a); k++)
                    json_array_append_new(
                        wm, cli_json_move(bt_analysis_move(a, k)));
                json_object_set_new(o, "winning_moves", wm);
            }
            json_array_append_new(moves, o);
        } else {
            printf("%3zu. -%c-> ", i + 1, who);
            print_position(q);
            printf("   %s\n", m->text);
            if (strcmp(v, "win") == 0)
                printf("       a winning move: it leaves a P-position\n");
            else if (strcmp(v, "lost") == 0)
                printf("       %c had no winning move (a P-position)\n", who);
            else if (strcmp(v, "unknown") == 0)
                printf("       (beyond the limits of the analysis)\n");
            else {
                size_t k, nw = bt_analysis_move_count(a);
                printf("       THREW THE WIN AWAY: it leaves an "
                       "N-position; the winning move%s: ",
                       nw > 1 ? "s were" : " was");
                for (k = 0; k < nw; k++)
                    printf("%s%s", k ? "; " : "", bt_analysis_move(a, k)->text);
                printf("\n");
            }
        }
        bt_analysis_free(a);
        bt_analysis_free(b);
    }
    w = bt_record_winner(r);
    if (json) {
        json_object_set_new(out, "moves", moves);
        if (w != 0)
            json_object_set_new(out, "result",
                                json_string(w == 'A' ? "A" : "B"));
        else
            json_object_set_new(out, "result", json_null());
        rc = cli_json_print(out);
    } else {
        if (w != 0)
            printf("result: %c wins%s%s%s.\n", w,
                   bt_record_get(r, w == 'A' ? "A" : "B") ? " (" : "",
                   name_of(r, w),
                   bt_record_get(r, w == 'A' ? "A" : "B") ? ")" : "");
        else
            printf("unfinished: %c to move.\n", bt_record_player(r, n));
        printf("%zu move%s, %zu thrown win%s.\n", n, n == 1 ? "" : "s",
               blunders, blunders == 1 ? "" : "s");
    }
    cli_store_keep(&store, bt_record_position(r, 0));
    cli_store_close(&store);
    bt_record_free(r);
    return rc;
}
