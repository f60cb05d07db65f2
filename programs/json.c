/*
 * json.c -- library results as JSON values: one builder for the CLI's
 * --json and the HTTP API, so the two print the same answer.
 *
 * Every integer that can grow with the input (pile sizes, Grundy values,
 * counts) is a decimal string; indexes and flags are numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

json_t *
cli_json_mpz(const mpz_t x)
{
    char *s = mpz_get_str(NULL, 10, x);
    json_t *v = s ? json_string(s) : NULL;
    free(s);
    return v;
}

static json_t *
numbers_of(const mpz_t *v, size_t n)
{
    json_t *a = json_array();
    size_t i;
    for (i = 0; a != NULL && i < n; i++)
        json_array_append_new(a, cli_json_mpz(v[i]));
    return a;
}

json_t *
cli_json_numbers(const bt_position *p)
{
    json_t *a = json_array();
    size_t i, n = bt_position_size(p);
    for (i = 0; a != NULL && i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        unsigned j, ar = bt_game_arity(bt_position_game(p, i));
        for (j = 0; j < ar; j++)
            json_array_append_new(a, cli_json_mpz(v[j]));
    }
    return a;
}

json_t *
cli_json_move(const bt_move *m)
{
    return json_pack("{s:I,s:o,s:s}", "component",
                     (json_int_t)(m->component + 1), "to",
                     numbers_of((const mpz_t *)m->to, m->nto), "text",
                     m->text ? m->text : "");
}

json_t *
cli_json_analysis(const bt_position *p, const bt_analysis *a)
{
    bt_game *single = bt_position_single_game(p);
    json_t *o = json_object(), *moves = json_array();
    size_t i, n = bt_position_size(p);
    mpz_t g;

    if (o == NULL || moves == NULL) {
        json_decref(o);
        json_decref(moves);
        return NULL;
    }
    mpz_init(g);
    if (single != NULL) {
        json_object_set_new(o, "game", json_string(bt_game_spec(single)));
        json_object_set_new(o, "misere",
                            json_boolean(bt_analysis_is_misere(a)));
        json_object_set_new(o, "position", cli_json_numbers(p));
    } else {
        char *text = bt_position_format(p);
        json_object_set_new(o, "game", json_string("sum"));
        json_object_set_new(o, "misere",
                            json_boolean(bt_analysis_is_misere(a)));
        json_object_set_new(o, "position", json_string(text ? text : ""));
        free(text);
    }
    json_object_set_new(o, "outcome",
                        json_string(bt_analysis_outcome(a) == BT_P ? "P"
                                                                   : "N"));
    if (bt_analysis_grundy(g, a) == BT_OK)
        json_object_set_new(o, "grundy", cli_json_mpz(g));
    /* each component's own value, except for plain Nim, where it is the
       pile itself and would only repeat the position */
    if (single == NULL || !bt_game_is_nim(single)) {
        json_t *comps = json_array();
        for (i = 0; i < n; i++) {
            bt_game *cg = bt_position_game(p, i);
            json_t *c = json_pack(
                "{s:s,s:o}", "game", bt_game_spec(cg), "position",
                numbers_of(bt_position_nums(p, i), bt_game_arity(cg)));
            if (bt_analysis_component_grundy(g, a, i) == BT_OK)
                json_object_set_new(c, "grundy", cli_json_mpz(g));
            json_array_append_new(comps, c);
        }
        json_object_set_new(o, "components", comps);
    }
    for (i = 0; i < bt_analysis_move_count(a); i++)
        json_array_append_new(moves, cli_json_move(bt_analysis_move(a, i)));
    json_object_set_new(o, "winning_moves", moves);
    if (!bt_analysis_moves_complete(a))
        json_object_set_new(o, "winning_moves_complete", json_false());
    if (bt_analysis_remoteness(a) >= 0)
        json_object_set_new(o, "remoteness",
                            json_integer(bt_analysis_remoteness(a)));
    if (bt_analysis_explanation(a) != NULL)
        json_object_set_new(o, "explanation",
                            json_string(bt_analysis_explanation(a)));
    mpz_clear(g);
    return o;
}

int
cli_json_print(json_t *v)
{
    char *text;
    int rc;
    if (v == NULL) {
        fprintf(stderr, "bouton: out of memory\n");
        return CLI_FAIL;
    }
    /* one string, one write: jansson's own FILE output writes token by
       token, which dominates for answers of millions of values */
    text = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(v);
    if (text == NULL) {
        fprintf(stderr, "bouton: out of memory\n");
        return CLI_FAIL;
    }
    rc = fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF;
    free(text);
    return rc ? CLI_FAIL : CLI_OK;
}
