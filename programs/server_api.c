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
    if (r->body != oom_body)
        free(r->body);
    r->body = NULL;
    r->size = 0;
}

/* Sets r to the static out-of-memory answer. */
static void
reply_oom(srv_reply *r)
{
    r->status = 503;
    r->body = (char *)oom_body; /* never freed: see srv_reply_free */
    r->size = sizeof oom_body - 1;
}

/* Fills r with v printed compactly on one line, as the CLI prints it, and
   releases v. */
static void
reply_json(srv_reply *r, unsigned status, json_t *v)
{
    char *text = v ? json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
    size_t n;

    json_decref(v);
    if (!text) {
        reply_oom(r);
        return;
    }
    n = strlen(text);
    r->body = malloc(n + 2);
    if (!r->body) {
        free(text);
        reply_oom(r);
        return;
    }
    memcpy(r->body, text, n);
    r->body[n] = '\n';
    r->body[n + 1] = '\0';
    r->size = n + 1;
    r->status = status;
    free(text);
}

void
srv_reply_error(srv_reply *r, const srv_error *e)
{
    json_t *err = json_pack("{s:s,s:s}", "code", e->code, "message",
                            e->message);

    if (err && e->column > 0)
        json_object_set_new(err, "column",
                            json_integer((json_int_t)e->column));
    reply_json(r, e->http, err ? json_pack("{s:o}", "error", err) : NULL);
}

/* ------------------------------------------------------------- time budget */

typedef struct srv_clock {
    struct timespec deadline;
} srv_clock;

static int
clock_expired(void *ud)
{
    const srv_clock *c = ud;
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > c->deadline.tv_sec ||
           (now.tv_sec == c->deadline.tv_sec &&
            now.tv_nsec >= c->deadline.tv_nsec);
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
                 "column %d): %s", jerr.line, jerr.column, jerr.text);
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

    if (!v || json_is_null(v)) {
        *out = dflt;
        return 0;
    }
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

    if (!v || json_is_null(v)) {
        *out = dflt;
        return 0;
    }
    if (!json_is_string(v))
        return srv_fail(e, 400, "EINVAL", "\"%s\" must be a string", key);
    *out = json_string_value(v);
    return 0;
}

/*
 * A non-negative integer of any size from a JSON value: a string of decimal
 * digits (the way big integers travel in this API) or a JSON integer.
 */
static int
json_mpz(mpz_t out, json_t *v, const char *what, const bt_limits *lim,
         srv_error *e)
{
    if (json_is_integer(v)) {
        json_int_t x = json_integer_value(v);

        if (x < 0)
            return srv_fail(e, 400, "EINVAL",
                            "%s: must be a non-negative integer", what);
        mpz_set_ui(out, 0);
        mpz_import(out, 1, 1, sizeof x, 0, 0, &x);
        return 0;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        size_t n = json_string_length(v), i;

        if (n == 0)
            return srv_fail(e, 400, "EINVAL", "%s: empty number", what);
        for (i = 0; i < n; i++)
            if (s[i] < '0' || s[i] > '9')
                return srv_fail(e, 400, "EINVAL",
                                "%s: \"%.40s\" is not a non-negative decimal "
                                "integer", what, s);
        if (n > lim->max_digits)
            return srv_fail(e, 422, "ELIMIT",
                            "%s: %zu digits is over the limit of %zu digits",
                            what, n, lim->max_digits);
        mpz_set_str(out, s, 10);
        return 0;
    }
    return srv_fail(e, 400, "EINVAL",
                    "%s: must be a decimal string or an integer", what);
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
    char what[64];

    if (!v || json_is_null(v))
        return srv_fail(e, 400, "EINVAL", "\"%s\" is required", key);
    snprintf(what, sizeof what, "\"%s\"", key);
    return json_mpz(out, v, what, lim, e);
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

/* Appends the components of game g made of the numbers of array `nums`
   (a multiple of g's arity of them); `where` names it in messages. */
static int
add_numbers(bt_position *p, bt_game *g, json_t *nums, const char *where,
            const bt_limits *lim, srv_error *e)
{
    unsigned arity = bt_game_arity(g);
    size_t n = json_array_size(nums), i, j;
    mpz_t c[2];
    int rc = 0;

    if (arity < 1 || arity > 2)
        return srv_fail(e, 400, "EINVAL", "%s: unsupported game", where);
    if (n % arity != 0)
        return srv_fail(e, 400, "EINVAL",
                        "%s: a %s component is %u numbers; %zu is not a "
                        "multiple of %u", where, bt_game_spec(g), arity, n,
                        arity);
    if (n / arity > lim->max_components ||
        bt_position_size(p) + n / arity > lim->max_components)
        return srv_fail(e, 422, "ELIMIT",
                        "%s: more than %zu components (the limit)", where,
                        lim->max_components);
    mpz_init(c[0]);
    mpz_init(c[1]);
    for (i = 0; i < n && rc == 0; i += arity) {
        bt_diag diag = {{0}, 0, 0};
        bt_status st;
        char what[96];

        for (j = 0; j < arity && rc == 0; j++) {
            snprintf(what, sizeof what, "%s[%zu]", where, i + j);
            rc = json_mpz(c[j], json_array_get(nums, i + j), what, lim, e);
        }
        if (rc != 0)
            break;
        st = bt_position_add(p, g, (const mpz_t *)c, lim, &diag);
        if (st != BT_OK) {
            snprintf(what, sizeof what, "%s[%zu]", where, i);
            rc = fail_status(e, st, &diag, what);
        }
    }
    mpz_clear(c[0]);
    mpz_clear(c[1]);
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
            json_t *run = json_array();
            int rc;

            if (!run)
                return srv_fail(e, 503, "ENOMEM", "out of memory");
            while (j < n && (json_is_string(json_array_get(arr, j)) ||
                             json_is_integer(json_array_get(arr, j))))
                json_array_append(run, json_array_get(arr, j++));
            snprintf(where, sizeof where, "position[%zu..%zu]", i, j - 1);
            if (i == 0 && j == n)
                snprintf(where, sizeof where, "position");
            rc = add_numbers(p, dflt, run, where, lim, e);
            json_decref(run);
            if (rc != 0)
                return rc;
            i = j;
        } else if (json_is_array(item)) {
            snprintf(where, sizeof where, "position[%zu]", i);
            if (json_array_size(item) != bt_game_arity(dflt))
                return srv_fail(e, 400, "EINVAL",
                                "%s: a %s component is %u numbers", where,
                                bt_game_spec(dflt), bt_game_arity(dflt));
            if (add_numbers(p, dflt, item, where, lim, e) != 0)
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
            rc = add_numbers(p, g, nums, where, lim, e);
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
        get_bool(req, "remoteness", 0, &remote, e) != 0 ||
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

/* Compares a row with a cursor lexicographically (a prefix is smaller). */
static int
row_cmp(mpz_t *row, const mpz_t *cur, size_t ncur)
{
    size_t i;

    for (i = 0; i < ncur; i++) {
        int c = mpz_cmp(row[i], cur[i]);

        if (c)
            return c;
    }
    return 1;
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
           row_cmp(row, (const mpz_t *)cur, ncur) <= 0)
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

static int
api_todo(json_t **out, json_t *req, const srv_config *cfg,
         const bt_limits *lim, srv_error *e)
{
    (void)out;
    (void)req;
    (void)cfg;
    (void)lim;
    return srv_fail(e, 501, "EUNDEF",
                    "not implemented in this build of bouton");
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
        json_t *g = json_pack("{s:s,s:s,s:s,s:o}", "name", f->name, "syntax",
                              f->syntax, "summary", f->summary, "aliases",
                              split_words(f->aliases));

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
        "{s:s,s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}}", "version",
        bt_version_string(), "limits", "max_body",
        (json_int_t)cfg->max_body, "max_components",
        (json_int_t)cfg->lim.max_components, "max_digits",
        (json_int_t)cfg->lim.max_digits, "max_search",
        (json_int_t)cfg->lim.max_search, "max_grundy",
        (json_int_t)cfg->lim.max_grundy, "max_table_piles",
        (json_int_t)cfg->lim.max_table_piles, "max_page",
        (json_int_t)cfg->max_page, "max_values",
        (json_int_t)cfg->max_values, "time_budget_ms",
        (json_int_t)cfg->budget_ms);
    if (!*out)
        return srv_fail(e, 503, "ENOMEM", "out of memory");
    return 0;
}

/* ----------------------------------------------------------------- routing */

typedef struct srv_route {
    const char *path;
    const char *method; /* "GET" (which admits HEAD) or "POST" */
    srv_endpoint fn;
} srv_route;

static const srv_route routes[] = {
    {"/v1/analyze", "POST", api_analyze},
    {"/v1/move", "POST", api_todo},
    {"/v1/table", "POST", api_table},
    {"/v1/count", "POST", api_todo},
    {"/v1/grundy", "POST", api_todo},
    {"/v1/pair", "POST", api_todo},
    {"/v1/games", "GET", api_games},
    {"/v1/info", "GET", api_info},
};

void
srv_handle(srv_reply *r, const srv_config *cfg, const char *method,
           const char *path, const char *body, size_t len)
{
    const srv_route *route = NULL;
    srv_error e = {0, "EUNKNOWN", {0}, 0};
    srv_clock clk;
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
    if (cfg->budget_ms > 0) {
        clock_start(&clk, cfg->budget_ms);
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
