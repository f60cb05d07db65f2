/*
 * server_api_request.c -- reading a request of the HTTP API: the body (one
 * JSON object), its members with their types and bounds, games, and the
 * position in both its forms (see docs/api.md).  Every failure names the
 * member at fault; its HTTP status comes from srv_fail's map.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_api.h"

/* ------------------------------------------------------------ request body */

json_t *
srv_parse_body(const char *body, size_t len, const srv_config *cfg,
               srv_error *e)
{
    json_error_t jerr;
    json_t *req;

    if (len > cfg->max_body) {
        /* 413, HTTP's own answer for a body too large */
        srv_fail_http(e, 413, "ELIMIT",
                      "request body of %zu bytes is over the limit of %zu "
                      "bytes", len, cfg->max_body);
        return NULL;
    }
    if (len == 0) {
        srv_fail(e, BT_EPARSE, "empty request body: send a JSON object");
        return NULL;
    }
    req = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!req) {
        srv_fail(e, BT_EPARSE, "request body is not JSON (line %d, "
                 "column %d): %s%s", jerr.line, jerr.column, jerr.text,
                 strstr(jerr.text, "too big integer")
                     ? " (send big numbers as decimal strings)"
                     : "");
        return NULL;
    }
    if (!json_is_object(req)) {
        json_decref(req);
        srv_fail(e, BT_EPARSE, "request body must be a JSON object");
        return NULL;
    }
    return req;
}

/* ---------------------------------------------------------------- members */

int
srv_check_members(json_t *req, const char *const *allowed, srv_error *e)
{
    const char *key;
    json_t *v;

    json_object_foreach(req, key, v) {
        size_t i;

        (void)v;
        for (i = 0; allowed[i]; i++)
            if (strcmp(key, allowed[i]) == 0)
                break;
        if (!allowed[i])
            return srv_fail(e, BT_EINVAL, "unknown field \"%.60s\"", key);
    }
    return 0;
}

int
srv_check_op(json_t *req, const char *route, const char *variant,
             srv_error *e)
{
    const optable_op *op = optable_route(route);
    const char *key;
    json_t *v;

    if (op == NULL)
        return srv_fail(e, BT_EINVAL, "internal error: no operation of "
                        "%s in the table", route);
    json_object_foreach(req, key, v) {
        (void)v;
        if (optable_api_find(op, variant, key) == NULL)
            return srv_fail(e, BT_EINVAL, "unknown field \"%.60s\"", key);
    }
    return 0;
}

int
srv_get_bool(json_t *req, const char *key, int dflt, int *out, srv_error *e)
{
    json_t *v = json_object_get(req, key);

    *out = dflt; /* also on failure, so that no caller reads garbage */
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_boolean(v))
        return srv_fail(e, BT_EINVAL, "\"%s\" must be true or false", key);
    *out = json_is_true(v);
    return 0;
}

int
srv_get_string(json_t *req, const char *key, const char *dflt,
               const char **out, srv_error *e)
{
    json_t *v = json_object_get(req, key);

    *out = dflt; /* also on failure, so that no caller reads garbage */
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_string(v))
        return srv_fail(e, BT_EINVAL, "\"%s\" must be a string", key);
    *out = json_string_value(v);
    return 0;
}

/*
 * A non-negative integer of any size from a JSON value: a string of decimal
 * digits (the way big integers travel in this API) or a JSON integer.  The
 * caller names the value in a failure's message (srv_prefix_error).
 */
static int
json_mpz(mpz_t out, json_t *v, const bt_limits *lim, srv_error *e)
{
    if (json_is_integer(v)) {
        json_int_t x = json_integer_value(v);

        if (x < 0)
            return srv_fail(e, BT_EINVAL, "must be a non-negative integer");
        mpz_set_ui(out, 0);
        mpz_import(out, 1, 1, sizeof x, 0, 0, &x);
        return 0;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        size_t n = json_string_length(v), i;

        if (n == 0)
            return srv_fail(e, BT_EINVAL, "empty number");
        for (i = 0; i < n; i++)
            if (s[i] < '0' || s[i] > '9')
                return srv_fail(e, BT_EINVAL,
                                "\"%.40s\" is not a non-negative decimal "
                                "integer", s);
        if (n > lim->max_digits)
            return srv_fail(e, BT_ELIMIT,
                            "%zu digits is over the limit of %zu digits", n,
                            lim->max_digits);
        mpz_set_str(out, s, 10);
        return 0;
    }
    return srv_fail(e, BT_EINVAL, "must be a decimal string or an integer");
}

int
srv_get_size(json_t *req, const char *key, size_t dflt, size_t min,
             size_t max, size_t *out, srv_error *e)
{
    json_t *v = json_object_get(req, key);
    const char *s;
    char *end;
    unsigned long long x;

    if (!v || json_is_null(v)) {
        *out = dflt;
        return 0;
    }
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);

        if (i < 0 || (unsigned long long)i < min ||
            (unsigned long long)i > max)
            return srv_fail(e, i >= 0 && (unsigned long long)i > max
                                   ? BT_ELIMIT
                                   : BT_EINVAL,
                            "\"%s\" must be between %zu and %zu", key, min,
                            max);
        *out = (size_t)i;
        return 0;
    }
    if (!json_is_string(v))
        return srv_fail(e, BT_EINVAL, "\"%s\" must be an integer", key);
    s = json_string_value(v);
    if (*s < '0' || *s > '9')
        return srv_fail(e, BT_EINVAL, "\"%s\" must be an integer", key);
    errno = 0;
    x = strtoull(s, &end, 10);
    if (*end)
        return srv_fail(e, BT_EINVAL, "\"%s\" must be an integer", key);
    if (errno == ERANGE || x > max)
        return srv_fail(e, BT_ELIMIT, "\"%s\" must be at most %zu", key,
                        max);
    if (x < min)
        return srv_fail(e, BT_EINVAL, "\"%s\" must be at least %zu", key,
                        min);
    *out = (size_t)x;
    return 0;
}

int
srv_get_mpz(json_t *req, const char *key, mpz_t out, const bt_limits *lim,
            srv_error *e)
{
    json_t *v = json_object_get(req, key);

    if (!v || json_is_null(v))
        return srv_fail(e, BT_EINVAL, "\"%s\" is required", key);
    if (json_mpz(out, v, lim, e) != 0)
        return srv_prefix_error(e, "\"%s\"", key);
    return 0;
}

int
srv_new_game(bt_game **out, const char *spec, srv_error *e)
{
    bt_diag diag = {{0}, 0, 0};
    bt_status st = bt_game_new(out, spec, &diag);

    if (st != BT_OK)
        return srv_fail_status(e, st, &diag, "game");
    return 0;
}

int
srv_get_seed(json_t *req, uint64_t *out, srv_error *e)
{
    json_t *v = json_object_get(req, "seed");
    const char *s;
    char *end;
    unsigned long long x;

    *out = 1;
    if (!v || json_is_null(v))
        return 0;
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return 0;
    }
    s = json_is_string(v) ? json_string_value(v) : "";
    if (*s < '0' || *s > '9')
        return srv_fail(e, BT_EINVAL, "\"seed\" must be an integer in "
                        "[0, 2^64) (as a decimal string)");
    errno = 0;
    x = strtoull(s, &end, 10);
    if (*end || errno == ERANGE || x > UINT64_MAX)
        return srv_fail(e, BT_EINVAL, "\"seed\" must be an integer in "
                        "[0, 2^64) (as a decimal string)");
    *out = (uint64_t)x;
    return 0;
}

/* ---------------------------------------------------------------- position */

/* Appends the components of game g made of the numbers nums[from..to-1]
   of a JSON array (a multiple of g's arity of them; for a game of variable
   arity, all of them make one component); `where` names them in
   messages. */
static int
add_numbers(bt_position *p, bt_game *g, json_t *nums, size_t from,
            size_t to, const char *where, const bt_limits *lim, srv_error *e)
{
    size_t n = to - from, i, j, arity = bt_game_arity(g);
    mpz_t *c;
    int rc = 0;

    if (arity == 0 && n == 0)
        return 0;
    if (arity == 0 && n > lim->max_components)
        return srv_fail(e, BT_ELIMIT,
                        "%s: more than %zu numbers in one component (the "
                        "limit)", where, lim->max_components);
    if (arity == 0)
        arity = n;
    if (n % arity != 0)
        return srv_fail(e, BT_EINVAL,
                        "%s: a %s component is %zu numbers; %zu is not a "
                        "multiple of %zu", where, bt_game_spec(g), arity, n,
                        arity);
    if (n / arity > lim->max_components ||
        bt_position_size(p) + n / arity > lim->max_components)
        return srv_fail(e, BT_ELIMIT,
                        "%s: more than %zu components (the limit)", where,
                        lim->max_components);
    c = malloc(arity * sizeof *c);
    if (c == NULL)
        return srv_fail(e, BT_ENOMEM, "out of memory");
    for (j = 0; j < arity; j++)
        mpz_init(c[j]);
    for (i = 0; i < n && rc == 0; i += arity) {
        bt_diag diag = {{0}, 0, 0};
        bt_status st;
        char what[96];

        for (j = 0; j < arity && rc == 0; j++)
            if (json_mpz(c[j], json_array_get(nums, from + i + j), lim, e))
                rc = srv_prefix_error(e, "%s[%zu]", where, from + i + j);
        if (rc != 0)
            break;
        st = bt_position_add_n(p, g, (const mpz_t *)c, arity, lim, &diag);
        if (st != BT_OK) {
            snprintf(what, sizeof what, "%s[%zu]", where, from + i);
            rc = srv_fail_status(e, st, &diag, what);
        }
    }
    for (j = 0; j < arity; j++)
        mpz_clear(c[j]);
    free(c);
    return rc;
}

/*
 * The games named by the terms of one structured position.  A term names
 * its game by a text ("kayles", "octal:0.77"); texts that mean one game
 * must give one bt_game, as in the position language (bt_position_parse),
 * or 60 000 terms of Kayles make 60 000 games, each with its own Grundy
 * sequence (the analysis of such a sum then needs their 60 000 caches).
 * So the games are kept in a hash table under two kinds of key: each text
 * written (a string of the request, alive as long as it) and each game's
 * canonical spec (bt_game_spec, alive as long as the game), so that a new
 * text of a known game is recognised after bt_game_new and the new game
 * dropped.  The distinct games are counted against lim->max_games, as the
 * parser counts them; the table holds one reference to each.  A table at
 * most half full of open addressing: its keys number at most the terms,
 * which max_body bounds.
 */
typedef struct game_slot {
    const char *key; /* NULL: empty */
    bt_game *game;
} game_slot;

typedef struct game_set {
    game_slot *slots;
    size_t cap, used;
    bt_game **games; /* the distinct games, one reference each */
    size_t ngames, gcap;
} game_set;

static void
game_set_free(game_set *gs)
{
    size_t i;

    for (i = 0; i < gs->ngames; i++)
        bt_game_free(gs->games[i]);
    free(gs->games);
    free(gs->slots);
}

/* FNV-1a of a key. */
static size_t
game_key_hash(const char *key)
{
    uint64_t h = 1469598103934665603u;

    for (; *key; key++) {
        h ^= (unsigned char)*key;
        h *= 1099511628211u;
    }
    return (size_t)h;
}

/* The slot of key: its own, or the empty one where it would go.  The table
   is not empty. */
static game_slot *
game_slot_of(const game_set *gs, const char *key)
{
    size_t i = game_key_hash(key) & (gs->cap - 1);

    while (gs->slots[i].key != NULL && strcmp(gs->slots[i].key, key) != 0)
        i = (i + 1) & (gs->cap - 1);
    return &gs->slots[i];
}

static bt_game *
game_set_find(const game_set *gs, const char *key)
{
    return gs->cap ? game_slot_of(gs, key)->game : NULL;
}

/* Maps key (not yet in the table) to g. */
static int
game_set_put(game_set *gs, const char *key, bt_game *g, srv_error *e)
{
    game_slot *sl;

    if (2 * (gs->used + 1) > gs->cap) {
        size_t old = gs->cap, cap = old ? 2 * old : 64, i;
        game_slot *was = gs->slots, *fresh = calloc(cap, sizeof *fresh);

        if (fresh == NULL)
            return srv_fail(e, BT_ENOMEM, "out of memory");
        gs->slots = fresh;
        gs->cap = cap;
        for (i = 0; i < old; i++)
            if (was[i].key != NULL)
                *game_slot_of(gs, was[i].key) = was[i];
        free(was);
    }
    sl = game_slot_of(gs, key);
    sl->key = key;
    sl->game = g;
    gs->used++;
    return 0;
}

/* The game named by spec (a string of the request), made once per
   canonical spec; borrowed from gs.  `where` names the term in messages. */
static int
game_set_get(game_set *gs, bt_game **out, const char *spec,
             const char *where, const bt_limits *lim, srv_error *e)
{
    bt_game *g, *known;

    if ((*out = game_set_find(gs, spec)) != NULL)
        return 0;
    if (srv_new_game(&g, spec, e) != 0)
        return -1;
    known = game_set_find(gs, bt_game_spec(g));
    if (known != NULL) {
        /* another text of a game already named ("kayles" after
           "octal:0.77"): the one game serves both */
        bt_game_free(g);
        *out = known;
        return game_set_put(gs, spec, known, e);
    }
    if (gs->ngames >= lim->max_games) {
        bt_game_free(g);
        return srv_fail(e, BT_ELIMIT,
                        "%s: more than %zu distinct games in one position "
                        "(the max_games limit)",
                        where, lim->max_games);
    }
    if (gs->ngames == gs->gcap) {
        size_t cap = gs->gcap ? 2 * gs->gcap : 8;
        bt_game **games = realloc(gs->games, cap * sizeof *games);

        if (games == NULL) {
            bt_game_free(g);
            return srv_fail(e, BT_ENOMEM, "out of memory");
        }
        gs->games = games;
        gs->gcap = cap;
    }
    gs->games[gs->ngames++] = g;
    *out = g;
    if (game_set_put(gs, bt_game_spec(g), g, e) != 0)
        return -1;
    if (strcmp(spec, bt_game_spec(g)) != 0)
        return game_set_put(gs, spec, g, e);
    return 0;
}

/*
 * The structured form of a position: an array whose items are numbers of
 * the default game (grouped by its arity: ["3","5"] is one Wythoff pair),
 * arrays (one component of the default game each: [["3","5"],["1","2"]]),
 * or objects {"game":"kayles","position":["10","12"]} (the components of a
 * named game).  It mirrors the position language term by term.
 */
static int
parse_position_array(bt_position *p, json_t *arr, bt_game *dflt,
                     const bt_limits *lim, game_set *games, srv_error *e)
{
    static const char *const term_members[] = {"game", "position", NULL};
    size_t n = json_array_size(arr), i = 0;
    char where[64];

    while (i < n) {
        json_t *item = json_array_get(arr, i);

        if (json_is_string(item) || json_is_integer(item)) {
            /* A run of plain numbers: the default game's components. */
            size_t j = i;

            while (j < n && (json_is_string(json_array_get(arr, j)) ||
                             json_is_integer(json_array_get(arr, j))))
                j++;
            if (add_numbers(p, dflt, arr, i, j, "position", lim, e) != 0)
                return -1;
            i = j;
        } else if (json_is_array(item)) {
            snprintf(where, sizeof where, "position[%zu]", i);
            if (bt_game_arity(dflt) != 0 &&
                json_array_size(item) != bt_game_arity(dflt))
                return srv_fail(e, BT_EINVAL,
                                "%s: a %s component is %u numbers", where,
                                bt_game_spec(dflt), bt_game_arity(dflt));
            if (add_numbers(p, dflt, item, 0, json_array_size(item), where,
                            lim, e) != 0)
                return -1;
            i++;
        } else if (json_is_object(item)) {
            json_t *nums = json_object_get(item, "position");
            const char *spec;
            bt_game *g;

            snprintf(where, sizeof where, "position[%zu]", i);
            if (srv_check_members(item, term_members, e) != 0 ||
                srv_get_string(item, "game", NULL, &spec, e) != 0)
                return -1;
            if (!spec)
                return srv_fail(e, BT_EINVAL, "%s: \"game\" is required",
                                where);
            if (!json_is_array(nums))
                return srv_fail(e, BT_EINVAL,
                                "%s: \"position\" must be an array of "
                                "numbers", where);
            if (game_set_get(games, &g, spec, where, lim, e) != 0)
                return -1;
            snprintf(where, sizeof where, "position[%zu].position", i);
            if (add_numbers(p, g, nums, 0, json_array_size(nums), where, lim,
                            e) != 0)
                return -1;
            i++;
        } else {
            return srv_fail(e, BT_EINVAL,
                            "position[%zu]: must be a number (as a decimal "
                            "string), an array or an object", i);
        }
    }
    return 0;
}

int
srv_parse_position(bt_position **out, json_t *req, const bt_limits *lim,
                   srv_error *e)
{
    json_t *pos = json_object_get(req, "position");
    const char *spec;
    bt_game *dflt = NULL;
    bt_position *p = NULL;
    int rc = -1;

    *out = NULL;
    if (srv_get_string(req, "game", "nim", &spec, e) != 0)
        return -1;
    if (!pos || json_is_null(pos))
        return srv_fail(e, BT_EINVAL, "\"position\" is required");
    if (srv_new_game(&dflt, spec, e) != 0)
        return -1;
    if (json_is_string(pos)) {
        bt_diag diag = {{0}, 0, 0};
        bt_status st;

        if (strlen(json_string_value(pos)) != json_string_length(pos)) {
            srv_fail(e, BT_EPARSE, "position: contains a NUL character");
            goto done;
        }
        st = bt_position_parse(&p, json_string_value(pos), dflt, lim, &diag);
        if (st != BT_OK) {
            srv_fail_status(e, st, &diag, "position");
            if (diag.has_offset)
                e->column = diag.offset + 1;
            goto done;
        }
    } else if (json_is_array(pos)) {
        bt_status st = bt_position_new(&p);
        game_set games;
        int bad;

        if (st != BT_OK) {
            srv_fail(e, BT_ENOMEM, "out of memory");
            goto done;
        }
        memset(&games, 0, sizeof games);
        bad = parse_position_array(p, pos, dflt, lim, &games, e);
        game_set_free(&games); /* p holds its own references */
        if (bad)
            goto done;
    } else {
        srv_fail(e, BT_EINVAL, "\"position\" must be a string in the "
                 "position language or an array of components");
        goto done;
    }
    *out = p;
    p = NULL;
    rc = 0;
done:
    bt_position_free(p);
    bt_game_free(dflt);
    return rc;
}

