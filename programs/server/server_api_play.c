/*
 * server_api_play.c -- the endpoints of the HTTP API on positions and play:
 * /v1/analyze, /v1/parse, /v1/move, /v1/moves and /v1/record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_api.h"

/* /v1/analyze with "random_starts": how often the player to move wins
   from the random starts of `bouton play --random`, as `bouton analyze
   --random-starts --json` prints it (op_random_starts). */
static int
random_starts(json_t **out, json_t *req, int misere, const bt_limits *lim,
              srv_error *e)
{
    const char *game;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    size_t k;
    mpz_t max, all, wins;
    int rc = -1;

    if (json_object_get(req, "position") != NULL)
        return srv_fail(e, BT_EINVAL,
                        "\"random_starts\" takes no \"position\"");
    if (srv_get_string(req, "game", NULL, &game, e) != 0)
        return -1;
    if ((st = op_random_starts_game(OP_API, game, &diag)) != BT_OK)
        return srv_fail_status(e, st, &diag, NULL);
    if (srv_get_size(req, "piles", 3, 1, lim->max_table_piles, &k, e) != 0)
        return -1;
    mpz_inits(max, all, wins, NULL);
    mpz_set_ui(max, 15);
    if (json_object_get(req, "max") != NULL &&
        srv_get_mpz(req, "max", max, lim, e) != 0)
        goto done;
    st = op_random_starts(OP_API, k, max, misere, lim, all, wins, &diag);
    rc = srv_answer(out, e, st, &diag,
                    st == BT_OK
                        ? cli_json_random_starts(misere, k, max, all, wins)
                        : NULL);
done:
    mpz_clears(max, all, wins, NULL);
    return rc;
}

int
api_analyze(json_t **out, json_t *req, const srv_config *cfg,
            const bt_limits *lim, srv_error *e)
{
    bt_position *p = NULL;
    bt_analysis *a = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    int misere, explain, remote, starts, rc;
    unsigned flags = 0;

    if (srv_check_op(req, "/v1/analyze", NULL, e) != 0 ||
        srv_get_bool(req, "misere", 0, &misere, e) != 0 ||
        srv_get_bool(req, "explain", 0, &explain, e) != 0 ||
        srv_get_bool(req, "remoteness", 1, &remote, e) != 0 ||
        srv_get_bool(req, "random_starts", 0, &starts, e) != 0)
        return -1;
    if (starts)
        return random_starts(out, req, misere, lim, e);
    if (json_object_get(req, "piles") != NULL ||
        json_object_get(req, "max") != NULL)
        return srv_fail(e, BT_EINVAL, "\"piles\" and \"max\" go with "
                                      "\"random_starts\"");
    if (srv_parse_position(&p, req, lim, e) != 0)
        return -1;
    if (misere)
        flags |= BT_MISERE;
    if (explain)
        flags |= BT_EXPLAIN;
    if (remote)
        flags |= BT_REMOTENESS;
    st = bt_analyze(&a, p, flags, lim, &diag);
    if (st == BT_OK && misere && cfg->store != NULL)
        cli_store_keep(cfg->store, p); /* what it proved, for later */
    rc = srv_answer(out, e, st, &diag,
                    st == BT_OK ? cli_json_analysis(p, a) : NULL);
    bt_analysis_free(a);
    bt_position_free(p);
    return rc;
}

/* The components of a position, each with its game and numbers, as the
   "components" of an analysis are written. */
static json_t *
components_json(const bt_position *p)
{
    json_t *a = json_array();
    size_t i, n = bt_position_size(p);

    for (i = 0; a && i < n; i++) {
        bt_game *g = bt_position_game(p, i);
        const mpz_t *v = bt_position_nums(p, i);
        json_t *nums = json_array();
        size_t j;

        for (j = 0; nums && j < bt_position_count(p, i); j++)
            if (json_array_append_new(nums, cli_json_mpz(v[j])) != 0) {
                json_decref(nums);
                nums = NULL;
            }
        if (json_array_append_new(a, json_pack("{s:s,s:o}", "game",
                                               bt_game_spec(g), "position",
                                               nums)) != 0) {
            json_decref(a);
            a = NULL;
        }
    }
    return a;
}

/* /v1/parse: the position as the server reads it (its canonical text and
   its components), with no analysis: for clients that draw positions. */
int
api_parse(json_t **out, json_t *req, const srv_config *cfg,
          const bt_limits *lim, srv_error *e)
{
    bt_position *p = NULL;
    char *text;
    int rc;

    (void)cfg;
    if (srv_check_op(req, "/v1/parse", NULL, e) != 0 ||
        srv_parse_position(&p, req, lim, e) != 0)
        return -1;
    text = bt_position_format(p);
    rc = srv_answer(out, e, BT_OK, NULL,
                    text ? json_pack("{s:s,s:o}", "position", text,
                                     "components", components_json(p))
                         : NULL);
    free(text);
    bt_position_free(p);
    return rc;
}

/* A record's header field as a JSON string, or null. */
static json_t *
field_json(const bt_record *r, const char *key)
{
    const char *v = bt_record_get(r, key);

    return v ? json_string(v) : json_null();
}

static json_t *
player_json(char c)
{
    char s[2] = {c, '\0'};

    return c ? json_string(s) : json_null();
}

/* /v1/record: reads a game record in the seeds' notation (the format of
   `bouton play`'s saved games, include/bouton/play.h), checking every move
   by the rules, and returns its positions and moves. */
int
api_record(json_t **out, json_t *req, const srv_config *cfg,
           const bt_limits *lim, srv_error *e)
{
    const char *text;
    bt_record *r = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    json_t *positions = NULL, *moves = NULL, *v = NULL;
    size_t i, n;
    bt_game *g;

    (void)cfg;
    if (srv_check_op(req, "/v1/record", NULL, e) != 0 ||
        srv_get_string(req, "record", NULL, &text, e) != 0)
        return -1;
    if (!text)
        return srv_fail(e, BT_EINVAL, "\"record\" is required");
    st = bt_record_parse(&r, text, lim, &diag);
    if (st != BT_OK)
        return srv_fail_status(e, st, &diag, "record");
    n = bt_record_length(r);
    positions = json_array();
    moves = json_array();
    for (i = 0; positions && i <= n; i++) {
        const bt_position *p = bt_record_position(r, i);
        char *t = bt_position_format(p);
        json_t *o = t ? json_pack("{s:s,s:o}", "position", t, "components",
                                  components_json(p))
                      : NULL;

        free(t);
        if (json_array_append_new(positions, o) != 0) {
            json_decref(positions);
            positions = NULL;
        }
    }
    for (i = 0; moves && i < n; i++) {
        json_t *m = cli_json_move(bt_record_move(r, i));

        if (!m || json_object_set_new(m, "player",
                                      player_json(bt_record_player(r, i))) ||
            json_array_append_new(moves, m) != 0) {
            json_decref(moves);
            moves = NULL;
        }
    }
    g = bt_position_single_game(bt_record_position(r, 0));
    if (positions && moves)
        v = json_pack("{s:s,s:b,s:o,s:{s:o,s:o},s:o,s:o,s:o,s:o,s:o,s:o}",
                         "game", g ? bt_game_spec(g) : "sum", "misere",
                         bt_record_is_misere(r), "first",
                         player_json(bt_record_player(r, 0)), "names", "A",
                         field_json(r, "A"), "B", field_json(r, "B"),
                         "level", field_json(r, "level"), "seed",
                         field_json(r, "seed"), "positions", positions,
                         "moves", moves, "to_move",
                         player_json(bt_record_player(r, n)), "winner",
                         player_json(bt_record_winner(r)));
    else {
        json_decref(positions);
        json_decref(moves);
    }
    bt_record_free(r);
    return srv_answer(out, e, BT_OK, NULL, v);
}

/* /v1/move: the computer's move, as `bouton move --json` prints it. */
int
api_move(json_t **out, json_t *req, const srv_config *cfg,
         const bt_limits *lim, srv_error *e)
{
    const char *level_text;
    bt_level level;
    bt_position *p = NULL;
    bt_move *m = NULL;
    bt_play_info info;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    uint64_t rng;
    int misere, rc;

    if (srv_check_op(req, "/v1/move", NULL, e) != 0 ||
        srv_get_bool(req, "misere", 0, &misere, e) != 0 ||
        srv_get_string(req, "level", "perfect", &level_text, e) != 0 ||
        srv_get_seed(req, &rng, e) != 0)
        return -1;
    st = bt_level_parse(&level, level_text, &diag);
    if (st != BT_OK)
        return srv_fail_status(e, st, &diag, "level");
    if (srv_parse_position(&p, req, lim, e) != 0)
        return -1;
    if (bt_position_is_terminal(p)) {
        rc = srv_fail(e, BT_EUNDEF, "the game is over: the position has no "
                      "move");
        goto done;
    }
    st = bt_opponent_play(&m, &info, p, misere, level, &rng, lim, &diag);
    if (st == BT_OK && misere && cfg->store != NULL)
        cli_store_keep(cfg->store, p); /* what it proved, for later */
    if (st == BT_OK) {
        json_t *o = cli_json_play(m, &info);

        if (misere)
            cli_json_play_quotient(o, p, m, &info, lim);
        rc = srv_answer(out, e, st, &diag, o);
    } else {
        rc = srv_answer(out, e, st, &diag, NULL);
    }
done:
    if (m)
        bt_moves_free(m, 1);
    bt_position_free(p);
    return rc;
}

/* The most moves /v1/moves values in one answer: each is one analysis. */
#define SRV_MOVES_MAX 256

/* /v1/moves: every legal move of a position with the value of the position
   it leaves (for the player who moves): "outcome" of that position (P: the
   move wins), its "remoteness" where known cheaply (a decimal string, else
   null), or null with a "reason" where its analysis fails (a limit).  At
   most SRV_MOVES_MAX moves (ELIMIT beyond).  In misère play of heaps that
   a misère quotient answers, "quotient" (the position's, as in
   /v1/analyze) and each move's "element", that of the position it
   leaves.  Built on the public API only: bt_position_moves, then
   bt_analyze of each position left. */
int
api_moves(json_t **out, json_t *req, const srv_config *cfg,
          const bt_limits *lim, srv_error *e)
{
    bt_position *p = NULL;
    bt_move *mv = NULL;
    bt_analysis *top = NULL;
    const bt_quotient_facts *ref = NULL;
    size_t n = 0, i;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    json_t *list = NULL, *answer;
    int misere, remote, rc = -1;
    unsigned flags = BT_NO_MOVES;

    (void)cfg;
    if (srv_check_op(req, "/v1/moves", NULL, e) != 0 ||
        srv_get_bool(req, "misere", 0, &misere, e) != 0 ||
        srv_get_bool(req, "remoteness", 1, &remote, e) != 0 ||
        srv_parse_position(&p, req, lim, e) != 0)
        return -1;
    if (misere)
        flags |= BT_MISERE;
    st = bt_position_moves(&mv, &n, p, lim, &diag);
    if (st != BT_OK) {
        srv_fail_status(e, st, &diag, NULL);
        goto done;
    }
    if (n > SRV_MOVES_MAX) {
        srv_fail(e, BT_ELIMIT, "the position has %zu moves: more than "
                 "the %d whose values one answer gives", n, SRV_MOVES_MAX);
        goto done;
    }
    /* misère heaps: the position's own analysis first, so that the
       quotient it learns (to its largest heap) answers the position left
       by every move and names their elements alike; when it fails (a
       limit), the moves are valued as before, without elements */
    if (misere && n > 0 && op_all_heaps(p)) {
        bt_diag d2 = {{0}, 0, 0};

        if (bt_analyze(&top, p, BT_MISERE | BT_NO_MOVES, lim, &d2) == BT_OK)
            ref = bt_analysis_quotient(top);
    }
    list = json_array();
    if (!list)
        goto oom;
    /* First every move's outcome (cheap: Grundy values, or the misère
       search), then the remoteness of each while the budget lasts: an
       expensive remoteness never costs the outcomes. */
    for (i = 0; i < n; i++) {
        bt_position *q = NULL;
        bt_analysis *a = NULL;
        bt_diag d2 = {{0}, 0, 0};
        json_t *o = cli_json_move(&mv[i]);

        if (!o || json_array_append_new(list, o) != 0)
            goto oom;
        st = bt_position_copy(&q, p);
        if (st == BT_OK)
            st = bt_position_apply(q, &mv[i]);
        if (st == BT_OK)
            st = bt_analyze(&a, q, flags, lim, &d2);
        json_object_set_new(o, "outcome", st != BT_OK ? json_null()
                            : json_string(bt_analysis_outcome(a) == BT_P
                                          ? "P" : "N"));
        json_object_set_new(o, "remoteness", json_null());
        if (st != BT_OK)
            json_object_set_new(o, "reason", json_string(
                d2.message[0] ? d2.message : bt_strerror(st)));
        if (st == BT_OK && ref != NULL && bt_analysis_quotient(a) != NULL &&
            op_same_quotient(bt_analysis_quotient(a), ref))
            json_object_set_new(o, "element", json_string(
                bt_analysis_quotient(a)->element));
        bt_analysis_free(a);
        bt_position_free(q);
    }
    for (i = 0; remote && i < n; i++) {
        json_t *o = json_array_get(list, i);
        bt_position *q = NULL;
        bt_analysis *a = NULL;
        bt_diag d2 = {{0}, 0, 0};
        char num[32];

        if (json_is_null(json_object_get(o, "outcome")))
            continue;
        st = bt_position_copy(&q, p);
        if (st == BT_OK)
            st = bt_position_apply(q, &mv[i]);
        if (st == BT_OK)
            st = bt_analyze(&a, q, flags | BT_REMOTENESS, lim, &d2);
        if (st == BT_OK && bt_analysis_remoteness(a) >= 0) {
            snprintf(num, sizeof num, "%ld", bt_analysis_remoteness(a));
            json_object_set_new(o, "remoteness", json_string(num));
        }
        bt_analysis_free(a);
        bt_position_free(q);
        if (st == BT_EINTR)
            break; /* the time budget is spent: the rest stay null */
    }
    answer = json_pack("{s:b,s:o}", "misere", misere, "moves", list);
    list = NULL;
    if (answer != NULL && ref != NULL)
        json_object_set_new(answer, "quotient", cli_json_quotient_facts(ref));
    rc = srv_answer(out, e, BT_OK, NULL, answer);
    goto done;
oom:
    srv_fail(e, BT_ENOMEM, "out of memory");
done:
    json_decref(list);
    bt_analysis_free(top);
    if (mv)
        bt_moves_free(mv, n);
    bt_position_free(p);
    return rc;
}

