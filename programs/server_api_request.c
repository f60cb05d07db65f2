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
 * The structured form of a position: an array whose items are numbers of
 * the default game (grouped by its arity: ["3","5"] is one Wythoff pair),
 * arrays (one component of the default game each: [["3","5"],["1","2"]]),
 * or objects {"game":"kayles","position":["10","12"]} (the components of a
 * named game).  It mirrors the position language term by term.
 */
static int
parse_position_array(bt_position *p, json_t *arr, bt_game *dflt,
                     const bt_limits *lim, srv_error *e)
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
            int rc;

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
            if (srv_new_game(&g, spec, e) != 0)
                return -1;
            snprintf(where, sizeof where, "position[%zu].position", i);
            rc = add_numbers(p, g, nums, 0, json_array_size(nums), where,
                             lim, e);
            bt_game_free(g);
            if (rc != 0)
                return rc;
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

        if (st != BT_OK) {
            srv_fail(e, BT_ENOMEM, "out of memory");
            goto done;
        }
        if (parse_position_array(p, pos, dflt, lim, e) != 0)
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

