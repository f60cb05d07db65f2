/*
 * server_api.c -- the HTTP API of `bouton serve`: one request in, one JSON
 * answer out, with no knowledge of sockets (see server.h).
 *
 * Every answer is built by the JSON code the CLI uses (json.c), so that
 * `POST /v1/analyze` answers exactly what `bouton analyze --json` prints.
 * Client mistakes are 4xx with {"error":{"code","message"[,"column"]}};
 * nothing a client sends can make a 500.
 */
#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "server.h"

/* ----------------------------------------------------------- configuration */

void
srv_config_default(srv_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    bt_limits_default(&cfg->lim);
    /*
     * A server answers strangers, so its limits are tighter than the CLI's:
     * each is what one request may cost a shared machine, and each can be
     * raised on the command line.
     */
    cfg->lim.max_components = SRV_DEFAULT_MAX_COMPONENTS;
    cfg->lim.max_digits = SRV_DEFAULT_MAX_DIGITS;
    cfg->lim.max_text = SRV_DEFAULT_MAX_BODY;
    cfg->lim.max_search = SRV_DEFAULT_MAX_SEARCH;
    cfg->lim.max_grundy = SRV_DEFAULT_MAX_GRUNDY;
    cfg->lim.max_table_piles = SRV_DEFAULT_MAX_TABLE_PILES;
    cfg->max_body = SRV_DEFAULT_MAX_BODY;
    cfg->max_page = SRV_DEFAULT_MAX_PAGE;
    cfg->max_values = SRV_DEFAULT_MAX_VALUES;
    cfg->budget_ms = SRV_DEFAULT_BUDGET_MS;
    cfg->max_memory = cfg->lim.max_memory;
}

/* ------------------------------------------------------------------ errors */

int
srv_fail(srv_error *e, unsigned http, const char *code, const char *fmt, ...)
{
    va_list ap;

    e->http = http;
    e->code = code;
    e->column = 0;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    return -1;
}

/* The HTTP status of a library failure: the client's fault is 4xx. */
static unsigned
status_http(bt_status st)
{
    switch (st) {
    case BT_EINVAL:
    case BT_EPARSE:
        return 400;
    case BT_ELIMIT:
    case BT_ERANGE:
    case BT_EUNDEF:
    case BT_EINTR:
        return 422;
    case BT_ENOMEM:
        return 503;
    default:
        return 500; /* a bug of ours, not anything a client sent */
    }
}

/* Fills e from a library failure; `what` prefixes the message (or NULL). */
static int
fail_status(srv_error *e, bt_status st, const bt_diag *diag, const char *what)
{
    const char *msg = diag->message[0] ? diag->message : bt_strerror(st);

    if (what)
        srv_fail(e, status_http(st), bt_status_name(st), "%s: %s", what, msg);
    else
        srv_fail(e, status_http(st), bt_status_name(st), "%s", msg);
    return -1;
}

static const char oom_body[] =
    "{\"error\":{\"code\":\"ENOMEM\",\"message\":\"out of memory\"}}\n";

void
srv_reply_free(srv_reply *r)
{
    if (!r->is_static)
        free(r->body);
    r->body = NULL;
    r->size = 0;
}

/* Sets r to the static out-of-memory answer. */
static void
reply_oom(srv_reply *r)
{
    r->status = 503;
    r->is_static = 1;
    r->body = (char *)oom_body; /* never freed: see srv_reply_free */
    r->size = sizeof oom_body - 1;
}

/* Fills r with v printed compactly on one line, as the CLI prints it
   (cli_json_print), and releases v. */
static void
reply_json(srv_reply *r, unsigned status, json_t *v)
{
    size_t len = 0;
    char *text = v ? cli_json_text(v, &len) : NULL;

    json_decref(v);
    if (text == NULL) {
        reply_oom(r);
        return;
    }
    r->body = text;
    r->size = len;
    r->status = status;
    r->is_static = 0;
}

/*
 * Makes s valid UTF-8 in place, replacing each byte that does not begin a
 * whole, shortest-form sequence by '?'.  Messages quote what a client sent,
 * cut to a length in bytes, which can split a character: jansson refuses a
 * string that is not UTF-8, and the answer must still be the error.
 */
static void
utf8_clean(char *s)
{
    unsigned char *u = (unsigned char *)s;

    while (*u) {
        size_t len = *u < 0x80 ? 1 : (*u & 0xE0) == 0xC0 ? 2
                               : (*u & 0xF0) == 0xE0 ? 3
                               : (*u & 0xF8) == 0xF0 ? 4 : 0;
        unsigned long cp = len == 2 ? (*u & 0x1Fu) : len == 3 ? (*u & 0x0Fu)
                                                            : (*u & 0x07u);
        size_t k;

        for (k = 1; k < len; k++) {
            if ((u[k] & 0xC0) != 0x80)
                break;
            cp = (cp << 6) | (u[k] & 0x3Fu);
        }
        if (len == 0 || k < len ||
            (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF && len == 3)) {
            *u++ = '?';
            continue;
        }
        u += len;
    }
}

void
srv_reply_error(srv_reply *r, const srv_error *e)
{
    char msg[sizeof e->message];
    json_t *err;

    memcpy(msg, e->message, sizeof msg);
    msg[sizeof msg - 1] = '\0';
    utf8_clean(msg);
    err = json_pack("{s:s,s:s}", "code", e->code, "message", msg);

    if (err && e->column > 0)
        json_object_set_new(err, "column",
                            json_integer((json_int_t)e->column));
    reply_json(r, e->http, err ? json_pack("{s:o}", "error", err) : NULL);
}

/* ------------------------------------------------------------- time budget */

typedef struct srv_clock {
    struct timespec deadline;
    int timed;    /* the deadline applies (a time budget is set) */
    srv_run *run; /* the scheduler's slice and cancellation, or NULL */
} srv_clock;

static int
ts_reached(const struct timespec *now, const struct timespec *t)
{
    return now->tv_sec > t->tv_sec ||
           (now->tv_sec == t->tv_sec && now->tv_nsec >= t->tv_nsec);
}

static int
clock_expired(void *ud)
{
    srv_clock *c = ud;
    struct timespec now;

    if (c->run && c->run->cancel && atomic_load(c->run->cancel)) {
        c->run->cancelled = 1;
        return 1;
    }
    if (c->run && c->run->slice) {
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
        if (ts_reached(&now, &c->run->slice_end)) {
            c->run->sliced = 1;
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    return c->timed && ts_reached(&now, &c->deadline);
}

static void
clock_start(srv_clock *c, unsigned long ms)
{
    clock_gettime(CLOCK_MONOTONIC, &c->deadline);
    c->deadline.tv_sec += (time_t)(ms / 1000);
    c->deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (c->deadline.tv_nsec >= 1000000000L) {
        c->deadline.tv_sec++;
        c->deadline.tv_nsec -= 1000000000L;
    }
    c->timed = 1;
}

/* --------------------------------------------------------- request fields */

json_t *
srv_parse_body(const char *body, size_t len, const srv_config *cfg,
               srv_error *e)
{
    json_error_t jerr;
    json_t *req;

    if (len > cfg->max_body) {
        srv_fail(e, 413, "ELIMIT",
                 "request body of %zu bytes is over the limit of %zu bytes",
                 len, cfg->max_body);
        return NULL;
    }
    if (len == 0) {
        srv_fail(e, 400, "EPARSE", "empty request body: send a JSON object");
        return NULL;
    }
    req = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!req) {
        srv_fail(e, 400, "EPARSE", "request body is not JSON (line %d, "
                 "column %d): %s%s", jerr.line, jerr.column, jerr.text,
                 strstr(jerr.text, "too big integer")
                     ? " (send big numbers as decimal strings)"
                     : "");
        return NULL;
    }
    if (!json_is_object(req)) {
        json_decref(req);
        srv_fail(e, 400, "EPARSE", "request body must be a JSON object");
        return NULL;
    }
    return req;
}

/* Rejects members of req not named in `allowed` (NULL-terminated): a typo
   in a field name must not pass silently for its default. */
static int
check_members(json_t *req, const char *const *allowed, srv_error *e)
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
            return srv_fail(e, 400, "EINVAL", "unknown field \"%.60s\"",
                            key);
    }
    return 0;
}

static int
get_bool(json_t *req, const char *key, int dflt, int *out, srv_error *e)
{
    json_t *v = json_object_get(req, key);

    *out = dflt; /* also on failure, so that no caller reads garbage */
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_boolean(v))
        return srv_fail(e, 400, "EINVAL", "\"%s\" must be true or false",
                        key);
    *out = json_is_true(v);
    return 0;
}

static int
get_string(json_t *req, const char *key, const char *dflt, const char **out,
           srv_error *e)
{
    json_t *v = json_object_get(req, key);

    *out = dflt; /* also on failure, so that no caller reads garbage */
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_string(v))
        return srv_fail(e, 400, "EINVAL", "\"%s\" must be a string", key);
    *out = json_string_value(v);
    return 0;
}

/* Puts a printf-style prefix and ": " before e's message. */
static int
prefix_error(srv_error *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int
prefix_error(srv_error *e, const char *fmt, ...)
{
    char msg[sizeof e->message];
    va_list ap;
    int n;

    size_t at, len;

    memcpy(msg, e->message, sizeof msg);
    va_start(ap, fmt);
    n = vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    at = n < 0 ? 0 : (size_t)n;
    if (at + 3 < sizeof e->message) {
        e->message[at++] = ':';
        e->message[at++] = ' ';
        len = strnlen(msg, sizeof msg);
        if (len > sizeof e->message - 1 - at)
            len = sizeof e->message - 1 - at;
        memcpy(e->message + at, msg, len);
        e->message[at + len] = '\0';
    }
    return -1;
}

/*
 * A non-negative integer of any size from a JSON value: a string of decimal
 * digits (the way big integers travel in this API) or a JSON integer.  The
 * caller names the value in a failure's message (prefix_error).
 */
static int
json_mpz(mpz_t out, json_t *v, const bt_limits *lim, srv_error *e)
{
    if (json_is_integer(v)) {
        json_int_t x = json_integer_value(v);

        if (x < 0)
            return srv_fail(e, 400, "EINVAL",
                            "must be a non-negative integer");
        mpz_set_ui(out, 0);
        mpz_import(out, 1, 1, sizeof x, 0, 0, &x);
        return 0;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        size_t n = json_string_length(v), i;

        if (n == 0)
            return srv_fail(e, 400, "EINVAL", "empty number");
        for (i = 0; i < n; i++)
            if (s[i] < '0' || s[i] > '9')
                return srv_fail(e, 400, "EINVAL",
                                "\"%.40s\" is not a non-negative decimal "
                                "integer", s);
        if (n > lim->max_digits)
            return srv_fail(e, 422, "ELIMIT",
                            "%zu digits is over the limit of %zu digits", n,
                            lim->max_digits);
        mpz_set_str(out, s, 10);
        return 0;
    }
    return srv_fail(e, 400, "EINVAL",
                    "must be a decimal string or an integer");
}

/* A bounded count (piles, page size) from a JSON integer or digit string,
   in [min, max]; dflt when absent. */
static int
get_size(json_t *req, const char *key, size_t dflt, size_t min, size_t max,
         size_t *out, srv_error *e)
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
            return srv_fail(e, i >= 0 && (unsigned long long)i > max ? 422
                                                                       : 400,
                            i >= 0 && (unsigned long long)i > max ? "ELIMIT"
                                                                  : "EINVAL",
                            "\"%s\" must be between %zu and %zu", key, min,
                            max);
        *out = (size_t)i;
        return 0;
    }
    if (!json_is_string(v))
        return srv_fail(e, 400, "EINVAL", "\"%s\" must be an integer", key);
    s = json_string_value(v);
    if (*s < '0' || *s > '9')
        return srv_fail(e, 400, "EINVAL", "\"%s\" must be an integer", key);
    errno = 0;
    x = strtoull(s, &end, 10);
    if (*end)
        return srv_fail(e, 400, "EINVAL", "\"%s\" must be an integer", key);
    if (errno == ERANGE || x > max)
        return srv_fail(e, 422, "ELIMIT", "\"%s\" must be at most %zu", key,
                        max);
    if (x < min)
        return srv_fail(e, 400, "EINVAL", "\"%s\" must be at least %zu", key,
                        min);
    *out = (size_t)x;
    return 0;
}

/* A required big integer member. */
static int
get_mpz(json_t *req, const char *key, mpz_t out, const bt_limits *lim,
        srv_error *e)
{
    json_t *v = json_object_get(req, key);

    if (!v || json_is_null(v))
        return srv_fail(e, 400, "EINVAL", "\"%s\" is required", key);
    if (json_mpz(out, v, lim, e) != 0)
        return prefix_error(e, "\"%s\"", key);
    return 0;
}

static int
new_game(bt_game **out, const char *spec, srv_error *e)
{
    bt_diag diag = {{0}, 0, 0};
    bt_status st = bt_game_new(out, spec, &diag);

    if (st != BT_OK)
        return fail_status(e, st, &diag, "game");
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
        return srv_fail(e, 422, "ELIMIT",
                        "%s: more than %zu numbers in one component (the "
                        "limit)", where, lim->max_components);
    if (arity == 0)
        arity = n;
    if (n % arity != 0)
        return srv_fail(e, 400, "EINVAL",
                        "%s: a %s component is %zu numbers; %zu is not a "
                        "multiple of %zu", where, bt_game_spec(g), arity, n,
                        arity);
    if (n / arity > lim->max_components ||
        bt_position_size(p) + n / arity > lim->max_components)
        return srv_fail(e, 422, "ELIMIT",
                        "%s: more than %zu components (the limit)", where,
                        lim->max_components);
    c = malloc(arity * sizeof *c);
    if (c == NULL)
        return srv_fail(e, 500, "ENOMEM", "out of memory");
    for (j = 0; j < arity; j++)
        mpz_init(c[j]);
    for (i = 0; i < n && rc == 0; i += arity) {
        bt_diag diag = {{0}, 0, 0};
        bt_status st;
        char what[96];

        for (j = 0; j < arity && rc == 0; j++)
            if (json_mpz(c[j], json_array_get(nums, from + i + j), lim, e))
                rc = prefix_error(e, "%s[%zu]", where, from + i + j);
        if (rc != 0)
            break;
        st = bt_position_add_n(p, g, (const mpz_t *)c, arity, lim, &diag);
        if (st != BT_OK) {
            snprintf(what, sizeof what, "%s[%zu]", where, from + i);
            rc = fail_status(e, st, &diag, what);
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
                return srv_fail(e, 400, "EINVAL",
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
            if (check_members(item, term_members, e) != 0 ||
                get_string(item, "game", NULL, &spec, e) != 0)
                return -1;
            if (!spec)
                return srv_fail(e, 400, "EINVAL", "%s: \"game\" is required",
                                where);
            if (!json_is_array(nums))
                return srv_fail(e, 400, "EINVAL",
                                "%s: \"position\" must be an array of "
                                "numbers", where);
            if (new_game(&g, spec, e) != 0)
                return -1;
            snprintf(where, sizeof where, "position[%zu].position", i);
            rc = add_numbers(p, g, nums, 0, json_array_size(nums), where,
                             lim, e);
            bt_game_free(g);
            if (rc != 0)
                return rc;
            i++;
        } else {
            return srv_fail(e, 400, "EINVAL",
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
    if (get_string(req, "game", "nim", &spec, e) != 0)
        return -1;
    if (!pos || json_is_null(pos))
        return srv_fail(e, 400, "EINVAL", "\"position\" is required");
    if (new_game(&dflt, spec, e) != 0)
        return -1;
    if (json_is_string(pos)) {
        bt_diag diag = {{0}, 0, 0};
        bt_status st;

        if (strlen(json_string_value(pos)) != json_string_length(pos)) {
            srv_fail(e, 400, "EPARSE", "position: contains a NUL character");
            goto done;
        }
        st = bt_position_parse(&p, json_string_value(pos), dflt, lim, &diag);
        if (st != BT_OK) {
            fail_status(e, st, &diag, "position");
            if (diag.has_offset)
                e->column = diag.offset + 1;
            goto done;
        }
    } else if (json_is_array(pos)) {
        bt_status st = bt_position_new(&p);

        if (st != BT_OK) {
            srv_fail(e, 503, "ENOMEM", "out of memory");
            goto done;
        }
        if (parse_position_array(p, pos, dflt, lim, e) != 0)
            goto done;
    } else {
        srv_fail(e, 400, "EINVAL", "\"position\" must be a string in the "
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

/* --------------------------------------------------------------- endpoints */

/* An endpoint: fills *out with its answer, or e; returns 0 or -1. */
typedef int (*srv_endpoint)(json_t **out, json_t *req, const srv_config *cfg,
                            const bt_limits *lim, srv_error *e);

static int
api_analyze(json_t **out, json_t *req, const srv_config *cfg,
            const bt_limits *lim, srv_error *e)
{
    static const char *const members[] = {"game",    "misere",     "position",
                                          "explain", "remoteness", NULL};
    bt_position *p = NULL;
    bt_analysis *a = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    int misere, explain, remote, rc = -1;
    unsigned flags = 0;

    (void)cfg;
    if (check_members(req, members, e) != 0 ||
        get_bool(req, "misere", 0, &misere, e) != 0 ||
        get_bool(req, "explain", 0, &explain, e) != 0 ||
        get_bool(req, "remoteness", 1, &remote, e) != 0 ||
        srv_parse_position(&p, req, lim, e) != 0)
        return -1;
    if (misere)
        flags |= BT_MISERE;
    if (explain)
        flags |= BT_EXPLAIN;
    if (remote)
        flags |= BT_REMOTENESS;
    st = bt_analyze(&a, p, flags, lim, &diag);
    if (st != BT_OK) {
        fail_status(e, st, &diag, NULL);
        goto done;
    }
    *out = cli_json_analysis(p, a);
    if (!*out) {
        srv_fail(e, 503, "ENOMEM", "out of memory");
        goto done;
    }
    rc = 0;
done:
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
static int
api_parse(json_t **out, json_t *req, const srv_config *cfg,
          const bt_limits *lim, srv_error *e)
{
    static const char *const members[] = {"game", "position", NULL};
    bt_position *p = NULL;
    char *text;

    (void)cfg;
    if (check_members(req, members, e) != 0 ||
        srv_parse_position(&p, req, lim, e) != 0)
        return -1;
    text = bt_position_format(p);
    *out = text ? json_pack("{s:s,s:o}", "position", text, "components",
                            components_json(p))
                : NULL;
    free(text);
    bt_position_free(p);
    if (!*out)
        return srv_fail(e, 503, "ENOMEM", "out of memory");
    return 0;
}

/*
 * The cursor of /v1/table is the last row of the previous page, its numbers
 * joined by commas ("3,5,6"); the next page holds the rows after it in the
 * table's lexicographic order.  A shorter prefix is allowed ("3" starts at
 * the first row beginning with 3), so a client can also jump into a table.
 */
static int
parse_cursor(mpz_t *cur, size_t width, size_t *ncur, const char *s,
             const bt_limits *lim, srv_error *e)
{
    size_t n = 0;

    while (*s) {
        size_t len = 0;
        char buf[32], *dyn = NULL;
        const char *txt;

        while (s[len] >= '0' && s[len] <= '9')
            len++;
        if (len == 0 || (s[len] != ',' && s[len] != '\0') || n == width)
            return srv_fail(e, 400, "EINVAL",
                            "\"cursor\": expected at most %zu decimal "
                            "numbers joined by commas (the last row of the "
                            "previous page)", width);
        if (len > lim->max_digits)
            return srv_fail(e, 422, "ELIMIT", "\"cursor\": a number has "
                            "more than %zu digits", lim->max_digits);
        if (len < sizeof buf) {
            memcpy(buf, s, len);
            buf[len] = '\0';
            txt = buf;
        } else {
            dyn = malloc(len + 1);
            if (!dyn)
                return srv_fail(e, 503, "ENOMEM", "out of memory");
            memcpy(dyn, s, len);
            dyn[len] = '\0';
            txt = dyn;
        }
        mpz_set_str(cur[n++], txt, 10);
        free(dyn);
        s += len;
        if (*s == ',') {
            s++;
            if (!*s)
                return srv_fail(e, 400, "EINVAL",
                                "\"cursor\": ends with a comma");
        }
    }
    *ncur = n;
    return 0;
}

/* Compares a row of `width` numbers with a cursor of ncur <= width
   numbers lexicographically (a proper prefix is smaller). */
static int
row_cmp(mpz_t *row, size_t width, const mpz_t *cur, size_t ncur)
{
    size_t i;

    for (i = 0; i < ncur; i++) {
        int c = mpz_cmp(row[i], cur[i]);

        if (c)
            return c;
    }
    return ncur < width;
}

static json_t *
row_json(mpz_t *row, size_t width)
{
    json_t *a = json_array();
    size_t i;

    for (i = 0; a && i < width; i++)
        if (json_array_append_new(a, cli_json_mpz(row[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static char *
row_cursor(mpz_t *row, size_t width)
{
    size_t len = 1, i, at = 0;
    char *s;

    for (i = 0; i < width; i++)
        len += mpz_sizeinbase(row[i], 10) + 1;
    s = malloc(len);
    if (!s)
        return NULL;
    for (i = 0; i < width; i++) {
        if (i)
            s[at++] = ',';
        mpz_get_str(s + at, 10, row[i]);
        at += strlen(s + at);
    }
    s[at] = '\0';
    return s;
}

static int
api_table(json_t **out, json_t *req, const srv_config *cfg,
          const bt_limits *lim, srv_error *e)
{
    static const char *const members[] = {"game",   "misere", "piles", "min",
                                          "below",  "cursor", "limit", NULL};
    const char *spec, *cursor;
    bt_game *g = NULL;
    bt_table *t = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    mpz_t min, below, *row = NULL, *cur = NULL;
    size_t piles, limit, width = 0, ncur = 0, i, got = 0, skipped = 0;
    int misere, rc = -1, r = 0;
    json_t *rows = NULL;
    char *next = NULL;

    mpz_init(min);
    mpz_init(below);
    if (check_members(req, members, e) != 0 ||
        get_string(req, "game", "nim", &spec, e) != 0 ||
        get_bool(req, "misere", 0, &misere, e) != 0 ||
        get_string(req, "cursor", NULL, &cursor, e) != 0 ||
        get_size(req, "limit", cfg->max_page < 100 ? cfg->max_page : 100, 1,
                 cfg->max_page, &limit, e) != 0 ||
        get_mpz(req, "below", below, lim, e) != 0 ||
        (json_object_get(req, "min") &&
         get_mpz(req, "min", min, lim, e) != 0) ||
        new_game(&g, spec, e) != 0)
        goto done;
    if (get_size(req, "piles", bt_game_arity(g) == 2 ? 1 : 0, 1,
                 lim->max_table_piles, &piles, e) != 0)
        goto done;
    if (piles == 0) {
        srv_fail(e, 400, "EINVAL", "\"piles\" is required for %s",
                 bt_game_spec(g));
        goto done;
    }
    st = bt_table_new(&t, g, misere, piles, min, below, lim, &diag);
    if (st != BT_OK) {
        fail_status(e, st, &diag, NULL);
        goto done;
    }
    width = bt_table_width(t);
    row = malloc(width * sizeof *row);
    cur = malloc(width * sizeof *cur);
    rows = json_array();
    if (!row || !cur || !rows) {
        free(row);
        free(cur);
        row = cur = NULL;
        width = 0;
        srv_fail(e, 503, "ENOMEM", "out of memory");
        goto done;
    }
    for (i = 0; i < width; i++) {
        mpz_init(row[i]);
        mpz_init(cur[i]);
    }
    if (cursor && parse_cursor(cur, width, &ncur, cursor, lim, e) != 0)
        goto done;
    /*
     * The table streams in lexicographic order and cannot seek, so a later
     * page re-walks the rows before it; the time budget bounds that walk.
     */
    while (cursor && (r = bt_table_next(t, row)) == 1 &&
           row_cmp(row, width, (const mpz_t *)cur, ncur) <= 0)
        if (++skipped % 1024 == 0 && lim->interrupt &&
            lim->interrupt(lim->interrupt_ud)) {
            r = -BT_EINTR;
            break;
        }
    if (!cursor)
        r = bt_table_next(t, row);
    while (r == 1) {
        if (got == limit)
            break; /* more rows: next (the last row sent) goes on */
        if (json_array_append_new(rows, row_json(row, width)) != 0) {
            srv_fail(e, 503, "ENOMEM", "out of memory");
            goto done;
        }
        got++;
        free(next);
        next = row_cursor(row, width);
        if (!next) {
            srv_fail(e, 503, "ENOMEM", "out of memory");
            goto done;
        }
        /* Out of time with rows in hand: a short page that can go on. */
        if (lim->interrupt && got % 64 == 0 &&
            lim->interrupt(lim->interrupt_ud))
            break;
        r = bt_table_next(t, row);
    }
    if (r < 0) {
        if (-r == BT_EINTR && got > 0) {
            r = 1; /* a short page; next is its last row */
        } else {
            st = (bt_status)-r;
            srv_fail(e, status_http(st), bt_status_name(st),
                     "%s", -r == BT_EINTR
                               ? "the time budget ran out before the page "
                                 "began; ask for an earlier cursor"
                               : bt_strerror(st));
            goto done;
        }
    }
    if (r == 0) {
        free(next);
        next = NULL;
    }
    *out = json_pack("{s:s,s:b,s:I,s:o,s:o,s:o,s:o}", "game",
                     bt_game_spec(g), "misere", misere, "piles",
                     (json_int_t)piles, "min", cli_json_mpz(min), "below",
                     cli_json_mpz(below), "rows", rows, "next",
                     next ? json_string(next) : json_null());
    rows = NULL;
    if (!*out) {
        srv_fail(e, 503, "ENOMEM", "out of memory");
        goto done;
    }
    rc = 0;
done:
    for (i = 0; i < width; i++) {
        mpz_clear(row[i]);
        mpz_clear(cur[i]);
    }
    free(row);
    free(cur);
    free(next);
    json_decref(rows);
    bt_table_free(t);
    bt_game_free(g);
    mpz_clear(min);
    mpz_clear(below);
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
static int
api_record(json_t **out, json_t *req, const srv_config *cfg,
           const bt_limits *lim, srv_error *e)
{
    static const char *const members[] = {"record", NULL};
    const char *text;
    bt_record *r = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    json_t *positions = NULL, *moves = NULL;
    size_t i, n;
    bt_game *g;

    (void)cfg;
    if (check_members(req, members, e) != 0 ||
        get_string(req, "record", NULL, &text, e) != 0)
        return -1;
    if (!text)
        return srv_fail(e, 400, "EINVAL", "\"record\" is required");
    st = bt_record_parse(&r, text, lim, &diag);
    if (st != BT_OK)
        return fail_status(e, st, &diag, "record");
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
    *out = NULL;
    if (positions && moves)
        *out = json_pack("{s:s,s:b,s:o,s:{s:o,s:o},s:o,s:o,s:o,s:o,s:o,s:o}",
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
    if (!*out)
        return srv_fail(e, 503, "ENOMEM", "out of memory");
    return 0;
}

/* A uint64 seed from a JSON integer or decimal string (default 1, as the
   CLI's --seed). */
static int
get_seed(json_t *req, uint64_t *out, srv_error *e)
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
        return srv_fail(e, 400, "EINVAL", "\"seed\" must be an integer in "
                        "[0, 2^64) (as a decimal string)");
    errno = 0;
    x = strtoull(s, &end, 10);
    if (*end || errno == ERANGE || x > UINT64_MAX)
        return srv_fail(e, 400, "EINVAL", "\"seed\" must be an integer in "
                        "[0, 2^64) (as a decimal string)");
    *out = (uint64_t)x;
    return 0;
}

/* /v1/move: the computer's move, as `bouton move --json` prints it. */
static int
api_move(json_t **out, json_t *req, const srv_config *cfg,
         const bt_limits *lim, srv_error *e)
{
    static const char *const members[] = {"game",  "misere", "position",
                                          "level", "seed",   NULL};
    const char *level_text;
    bt_level level;
    bt_position *p = NULL;
    bt_move *m = NULL;
    bt_play_info info;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    uint64_t rng;
    int misere, rc = -1;

    (void)cfg;
    if (check_members(req, members, e) != 0 ||
        get_bool(req, "misere", 0, &misere, e) != 0 ||
        get_string(req, "level", "perfect", &level_text, e) != 0 ||
        get_seed(req, &rng, e) != 0)
        return -1;
    st = bt_level_parse(&level, level_text, &diag);
    if (st != BT_OK)
        return fail_status(e, st, &diag, "level");
    if (srv_parse_position(&p, req, lim, e) != 0)
        return -1;
    if (bt_position_is_terminal(p)) {
        srv_fail(e, 422, "EUNDEF", "the game is over: the position has no "
                 "move");
        goto done;
    }
    st = bt_opponent_play(&m, &info, p, misere, level, &rng, lim, &diag);
    if (st != BT_OK) {
        fail_status(e, st, &diag, NULL);
        goto done;
    }
    *out = cli_json_play(m, &info);
    if (!*out) {
        srv_fail(e, 503, "ENOMEM", "out of memory");
        goto done;
    }
    rc = 0;
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
   most SRV_MOVES_MAX moves (ELIMIT beyond).  Built on the public API only:
   bt_position_moves, then bt_analyze of each position left. */
static int
api_moves(json_t **out, json_t *req, const srv_config *cfg,
          const bt_limits *lim, srv_error *e)
{
    static const char *const members[] = {"game", "misere", "position",
                                          "remoteness", NULL};
    bt_position *p = NULL;
    bt_move *mv = NULL;
    size_t n = 0, i;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    json_t *list = NULL;
    int misere, remote, rc = -1;
    unsigned flags = BT_NO_MOVES;

    (void)cfg;
    if (check_members(req, members, e) != 0 ||
        get_bool(req, "misere", 0, &misere, e) != 0 ||
        get_bool(req, "remoteness", 1, &remote, e) != 0 ||
        srv_parse_position(&p, req, lim, e) != 0)
        return -1;
    if (misere)
        flags |= BT_MISERE;
    st = bt_position_moves(&mv, &n, p, lim, &diag);
    if (st != BT_OK) {
        fail_status(e, st, &diag, NULL);
        goto done;
    }
    if (n > SRV_MOVES_MAX) {
        srv_fail(e, 422, "ELIMIT", "the position has %zu moves: more than "
                 "the %d whose values one answer gives", n, SRV_MOVES_MAX);
        goto done;
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
    *out = json_pack("{s:b,s:o}", "misere", misere, "moves", list);
    list = NULL;
    if (!*out)
        goto oom;
    rc = 0;
    goto done;
oom:
    srv_fail(e, 503, "ENOMEM", "out of memory");
done:
    json_decref(list);
    if (mv)
        bt_moves_free(mv, n);
    bt_position_free(p);
    return rc;
}

/* /v1/count: Bouton's sec. 3 counts, as `bouton count --json` prints. */
static int
api_count(json_t **out, json_t *req, const srv_config *cfg,
          const bt_limits *lim, srv_error *e)
{
    static const char *const members[] = {"piles",   "min",    "max",
                                          "below",   "ordered",
                                          "misere",  NULL};
    mpz_t min, max, pos, ppos;
    mpq_t prob;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    size_t piles;
    int ordered, misere, by_below, rc = -1;

    (void)cfg;
    mpz_inits(min, max, pos, ppos, NULL);
    mpq_init(prob);
    if (check_members(req, members, e) != 0 ||
        get_bool(req, "ordered", 0, &ordered, e) != 0 ||
        get_bool(req, "misere", 0, &misere, e) != 0 ||
        get_size(req, "piles", 0, 1, lim->max_table_piles, &piles, e) != 0 ||
        (json_object_get(req, "min") &&
         get_mpz(req, "min", min, lim, e) != 0))
        goto done;
    if (piles == 0) {
        srv_fail(e, 400, "EINVAL", "\"piles\" is required");
        goto done;
    }
    by_below = json_object_get(req, "below") != NULL;
    if (by_below == (json_object_get(req, "max") != NULL)) {
        srv_fail(e, 400, "EINVAL", "give exactly one of \"max\" and "
                 "\"below\"");
        goto done;
    }
    if (get_mpz(req, by_below ? "below" : "max", max, lim, e) != 0)
        goto done;
    if (by_below) {
        if (mpz_sgn(max) == 0) {
            srv_fail(e, 400, "EINVAL", "\"below\" must be at least 1");
            goto done;
        }
        mpz_sub_ui(max, max, 1);
    }
    if (mpz_cmp(min, max) > 0) {
        srv_fail(e, 400, "EINVAL", "\"min\" is larger than the largest "
                 "pile allowed");
        goto done;
    }
    st = bt_nim_count(pos, ppos, prob, piles, min, max,
                      (misere ? BT_MISERE : 0u) |
                          (ordered ? BT_COUNT_ORDERED : 0u),
                      lim, &diag);
    if (st != BT_OK) {
        fail_status(e, st, &diag, NULL);
        goto done;
    }
    *out = cli_json_count(piles, min, max, ordered, misere, pos, ppos, prob);
    if (!*out) {
        srv_fail(e, 503, "ENOMEM", "out of memory");
        goto done;
    }
    rc = 0;
done:
    mpq_clear(prob);
    mpz_clears(min, max, pos, ppos, NULL);
    return rc;
}

/* The table of G(x, y), x, y < below, of a Wythoff game, as `bouton
   grundy --game wythoff --below N --json` prints it. */
static int
grundy_wythoff(json_t **out, json_t *req, bt_game *g, const srv_config *cfg,
               const bt_limits *lim, srv_error *e)
{
    static const char *const members[] = {"game", "below", NULL};
    bt_wythoff_sg *t = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    size_t below, x, y;
    json_t *rows;

    if (check_members(req, members, e) != 0 ||
        get_size(req, "below", (size_t)-1, 1, lim->max_grundy, &below, e) !=
            0)
        return -1;
    if (below == (size_t)-1)
        return srv_fail(e, 400, "EINVAL", "\"below\" is required for %s",
                        bt_game_spec(g));
    if (below > cfg->max_values / below)
        return srv_fail(e, 422, "ELIMIT",
                        "a table of %zu x %zu values is over the limit of "
                        "%zu values in one answer", below, below,
                        cfg->max_values);
    st = bt_wythoff_sg_new(&t, g, below, lim, &diag);
    if (st != BT_OK)
        return fail_status(e, st, &diag, NULL);
    rows = json_array();
    for (x = 0; rows && x < below; x++) {
        json_t *row = json_array();

        for (y = 0; row && y < below; y++)
            if (json_array_append_new(
                    row, json_integer((json_int_t)bt_wythoff_sg_get(t, x, y))))
            {
                json_decref(row);
                row = NULL;
            }
        if (json_array_append_new(rows, row) != 0) {
            json_decref(rows);
            rows = NULL;
        }
    }
    bt_wythoff_sg_free(t);
    *out = rows ? json_pack("{s:s,s:I,s:o}", "game", bt_game_spec(g),
                            "below", (json_int_t)below, "rows", rows)
                : NULL;
    if (!*out)
        return srv_fail(e, 503, "ENOMEM", "out of memory");
    return 0;
}

/* /v1/grundy: a heap game's Grundy sequence with its period, as `bouton
   grundy --json` prints it; for the Wythoff family, the table G(x, y). */
static int
api_grundy(json_t **out, json_t *req, const srv_config *cfg,
           const bt_limits *lim, srv_error *e)
{
    static const char *const members[] = {"game", "upto", "until_proved",
                                          "no_values", NULL};
    const char *spec;
    bt_game *g = NULL;
    bt_sequence *s = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    size_t upto, n, i, period, preperiod;
    int until, novalues, has_period, rc = -1;
    json_t *values = NULL;

    if (get_string(req, "game", NULL, &spec, e) != 0)
        return -1;
    if (!spec)
        return srv_fail(e, 400, "EINVAL", "\"game\" is required");
    if (new_game(&g, spec, e) != 0)
        return -1;
    if (bt_game_arity(g) == 2) {
        rc = grundy_wythoff(out, req, g, cfg, lim, e);
        bt_game_free(g);
        return rc;
    }
    if (check_members(req, members, e) != 0 ||
        get_bool(req, "until_proved", 0, &until, e) != 0 ||
        get_bool(req, "no_values", 0, &novalues, e) != 0 ||
        get_size(req, "upto", until ? lim->max_grundy : (size_t)-1, 0,
                 lim->max_grundy, &upto, e) != 0)
        goto done;
    if (upto == (size_t)-1) {
        srv_fail(e, 400, "EINVAL", "\"upto\" is required (or "
                 "\"until_proved\": true)");
        goto done;
    }
    if (!novalues && !until && upto > cfg->max_values) {
        srv_fail(e, 422, "ELIMIT", "%zu values are over the limit of %zu "
                 "values in one answer; ask with \"no_values\": true",
                 upto, cfg->max_values);
        goto done;
    }
    if (!bt_sequence_is_supported(g)) {
        srv_fail(e, 422, "EUNDEF", "%s has no Grundy sequence of one heap%s",
                 bt_game_spec(g), bt_game_is_nim(g) ? " (in Nim G(n) = n)"
                                                    : "");
        goto done;
    }
    st = bt_sequence_new(&s, g, BT_SEQ_AUTO, &diag);
    if (st == BT_OK)
        st = until ? bt_sequence_prove(s, upto, lim, &diag)
                   : bt_sequence_compute(s, upto, lim, &diag);
    if (st != BT_OK) {
        fail_status(e, st, &diag, NULL);
        goto done;
    }
    /* compute may go past upto; the answer is what was asked for */
    n = until ? bt_sequence_length(s) : upto;
    if (!novalues && n > cfg->max_values) {
        srv_fail(e, 422, "ELIMIT", "%zu values are over the limit of %zu "
                 "values in one answer; ask with \"no_values\": true", n,
                 cfg->max_values);
        goto done;
    }
    has_period = bt_sequence_period(s, &period, &preperiod);
    *out = json_pack("{s:s,s:I}", "game", bt_game_spec(g), "upto",
                     (json_int_t)n);
    if (*out && !novalues) {
        values = json_array();
        for (i = 0; values && i < n; i++)
            if (json_array_append_new(
                    values,
                    json_integer((json_int_t)bt_sequence_value(s, i)))) {
                json_decref(values);
                values = NULL;
            }
        if (!values || json_object_set_new(*out, "values", values) != 0) {
            json_decref(*out);
            *out = NULL;
        }
    }
    if (*out) {
        json_object_set_new(*out, "period",
                            has_period ? json_integer((json_int_t)period)
                                       : json_null());
        json_object_set_new(*out, "preperiod",
                            has_period ? json_integer((json_int_t)preperiod)
                                       : json_null());
        json_object_set_new(*out, "proved",
                            json_boolean(bt_sequence_is_proved(s)));
    }
    if (!*out) {
        srv_fail(e, 503, "ENOMEM", "out of memory");
        goto done;
    }
    rc = 0;
done:
    bt_sequence_free(s);
    bt_game_free(g);
    return rc;
}

/* /v1/pair: the n-th safe pair of a Wythoff game, or the pair of x, as
   `bouton pair --json` prints them. */
static int
api_pair(json_t **out, json_t *req, const srv_config *cfg,
         const bt_limits *lim, srv_error *e)
{
    static const char *const members[] = {"game", "misere", "n", "index_of",
                                          NULL};
    const char *spec;
    bt_game *g = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    bt_wythoff_member member;
    mpz_t n, x, lo, hi;
    int misere, rc = -1, by_x;

    (void)cfg;
    mpz_inits(n, x, lo, hi, NULL);
    if (check_members(req, members, e) != 0 ||
        get_string(req, "game", "wythoff", &spec, e) != 0 ||
        get_bool(req, "misere", 0, &misere, e) != 0)
        goto done;
    by_x = json_object_get(req, "index_of") != NULL;
    if (by_x == (json_object_get(req, "n") != NULL)) {
        srv_fail(e, 400, "EINVAL", "give exactly one of \"n\" and "
                 "\"index_of\"");
        goto done;
    }
    if ((by_x ? get_mpz(req, "index_of", x, lim, e)
              : get_mpz(req, "n", n, lim, e)) != 0 ||
        new_game(&g, spec, e) != 0)
        goto done;
    if (strcmp(bt_game_family(g), "wythoff") != 0) {
        srv_fail(e, 400, "EINVAL", "game: pairs belong to the Wythoff "
                 "family (wythoff[:A]), not %s", bt_game_spec(g));
        goto done;
    }
    st = by_x ? bt_wythoff_index_of(n, &member, lo, hi, g, misere, x, lim,
                                    &diag)
              : bt_wythoff_pair(lo, hi, g, misere, n, lim, &diag);
    if (st != BT_OK) {
        fail_status(e, st, &diag, NULL);
        goto done;
    }
    if (by_x)
        *out = cli_json_index_of(x, n, member == BT_WYTHOFF_UPPER, lo, hi);
    else
        *out = cli_json_pair(g, misere, n, lo, hi);
    if (!*out) {
        srv_fail(e, 503, "ENOMEM", "out of memory");
        goto done;
    }
    rc = 0;
done:
    bt_game_free(g);
    mpz_clears(n, x, lo, hi, NULL);
    return rc;
}

/* The aliases text "kayles dawsons-kayles" as a JSON array. */
static json_t *
split_words(const char *s)
{
    json_t *a = json_array();

    while (a && s && *s) {
        size_t n = strcspn(s, " ");

        if (n > 0 && json_array_append_new(a, json_stringn(s, n)) != 0) {
            json_decref(a);
            return NULL;
        }
        s += n;
        s += strspn(s, " ");
    }
    return a;
}

static int
api_games(json_t **out, json_t *req, const srv_config *cfg,
          const bt_limits *lim, srv_error *e)
{
    json_t *games = json_array();
    size_t i, n = bt_family_count();

    (void)req;
    (void)cfg;
    (void)lim;
    for (i = 0; games && i < n; i++) {
        const bt_family_info *f = bt_family(i);
        json_t *g = json_pack("{s:s,s:s,s:s,s:o,s:i}", "name", f->name,
                              "syntax", f->syntax, "summary", f->summary,
                              "aliases", split_words(f->aliases), "arity",
                              (int)bt_family_arity(i));

        if (json_array_append_new(games, g) != 0) {
            json_decref(games);
            games = NULL;
        }
    }
    *out = games ? json_pack("{s:o}", "games", games) : NULL;
    if (!*out)
        return srv_fail(e, 503, "ENOMEM", "out of memory");
    return 0;
}

static int
api_info(json_t **out, json_t *req, const srv_config *cfg,
         const bt_limits *lim, srv_error *e)
{
    (void)req;
    (void)lim;
    *out = json_pack(
        "{s:s,s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}}", "version",
        bt_version_string(), "limits", "max_body",
        (json_int_t)cfg->max_body, "max_components",
        (json_int_t)cfg->lim.max_components, "max_digits",
        (json_int_t)cfg->lim.max_digits, "max_search",
        (json_int_t)cfg->lim.max_search, "max_grundy",
        (json_int_t)cfg->lim.max_grundy, "max_table_piles",
        (json_int_t)cfg->lim.max_table_piles, "max_page",
        (json_int_t)cfg->max_page, "max_values",
        (json_int_t)cfg->max_values, "time_budget_ms",
        (json_int_t)cfg->budget_ms, "max_memory",
        (json_int_t)cfg->max_memory, "request_memory",
        (json_int_t)cfg->lim.max_memory);
    if (!*out)
        return srv_fail(e, 503, "ENOMEM", "out of memory");
    return 0;
}

/* ----------------------------------------------------------------- routing */

/* /v1/quotient: the misère quotient of a heap game's heaps up to "upto"
   (default 12), as `bouton quotient --json` prints it; "table": true adds
   the multiplication table.  "until_proved": heap by heap until the
   periodicity theorem proves the quotient of all heaps, up to "upto"
   heaps (default 1000; ELIMIT past it). */
static int
api_quotient(json_t **out, json_t *req, const srv_config *cfg,
             const bt_limits *lim, srv_error *e)
{
    static const char *const members[] = {"game", "upto", "table",
                                          "until_proved", NULL};
    const char *spec;
    bt_game *g = NULL;
    bt_quotient *q = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    size_t upto;
    int table, until, rc = -1;

    (void)cfg;
    if (check_members(req, members, e) != 0 ||
        get_string(req, "game", NULL, &spec, e) != 0 ||
        get_bool(req, "table", 0, &table, e) != 0 ||
        get_bool(req, "until_proved", 0, &until, e) != 0 ||
        get_size(req, "upto", 12, 0, 4096, &upto, e) != 0)
        return -1;
    if (!spec)
        return srv_fail(e, 400, "EINVAL", "\"game\" is required");
    if (until && json_object_get(req, "upto") == NULL)
        upto = 1000;
    if (new_game(&g, spec, e) != 0)
        return -1;
    st = until ? bt_quotient_new_until_proved(&q, g, upto, lim, &diag)
               : bt_quotient_new(&q, g, upto, lim, &diag);
    if (st != BT_OK) {
        fail_status(e, st, &diag, NULL);
        goto done;
    }
    *out = cli_json_quotient(q, table);
    if (!*out) {
        srv_fail(e, 503, "ENOMEM", "out of memory");
        goto done;
    }
    rc = 0;
done:
    bt_quotient_free(q);
    bt_game_free(g);
    return rc;
}

typedef struct srv_route {
    const char *path;
    const char *method; /* "GET" (which admits HEAD) or "POST" */
    srv_endpoint fn;
} srv_route;

static const srv_route routes[] = {
    {"/v1/analyze", "POST", api_analyze},
    {"/v1/parse", "POST", api_parse},
    {"/v1/record", "POST", api_record},
    {"/v1/move", "POST", api_move},
    {"/v1/moves", "POST", api_moves},
    {"/v1/table", "POST", api_table},
    {"/v1/count", "POST", api_count},
    {"/v1/grundy", "POST", api_grundy},
    {"/v1/quotient", "POST", api_quotient},
    {"/v1/pair", "POST", api_pair},
    {"/v1/games", "GET", api_games},
    {"/v1/info", "GET", api_info},
};

void
srv_handle(srv_reply *r, const srv_config *cfg, const char *method,
           const char *path, const char *body, size_t len)
{
    srv_handle_run(r, cfg, NULL, method, path, body, len);
}

void
srv_handle_run(srv_reply *r, const srv_config *cfg, srv_run *run,
               const char *method, const char *path, const char *body,
               size_t len)
{
    const srv_route *route = NULL;
    srv_error e = {0, "EUNKNOWN", {0}, 0};
    srv_clock clk = {{0, 0}, 0, run};
    bt_limits lim = cfg->lim;
    json_t *req = NULL, *out = NULL;
    size_t i;
    int get;

    memset(r, 0, sizeof *r);
    for (i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (strcmp(path, routes[i].path) == 0)
            route = &routes[i];
    if (!route) {
        srv_fail(&e, 404, "ENOTFOUND", "no such endpoint: %.100s", path);
        srv_reply_error(r, &e);
        return;
    }
    get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (strcmp(route->method, "GET") == 0 ? !get
                                          : strcmp(method, "POST") != 0) {
        srv_fail(&e, 405, "EMETHOD", "%.100s takes %s, not %.20s", path,
                 route->method, method);
        srv_reply_error(r, &e);
        r->allow = strcmp(route->method, "GET") == 0 ? "GET, HEAD" : "POST";
        return;
    }
    if (cfg->budget_ms > 0)
        clock_start(&clk, cfg->budget_ms);
    if (cfg->budget_ms > 0 || run) {
        lim.interrupt = clock_expired;
        lim.interrupt_ud = &clk;
    }
    if (!get) {
        req = srv_parse_body(body, len, cfg, &e);
        if (!req) {
            srv_reply_error(r, &e);
            return;
        }
    }
    if (route->fn(&out, req, cfg, &lim, &e) != 0) {
        json_decref(out);
        srv_reply_error(r, &e);
    } else {
        reply_json(r, 200, out);
    }
    json_decref(req);
}
