/*
 * server_api.c -- the HTTP API of `bouton serve`: one request in, one JSON
 * answer out, with no knowledge of sockets (see server.h).  This file
 * routes a request to its endpoint under the time budget and turns the
 * endpoint's result or failure into the answer; server_api.h lists the
 * files of the endpoints and what they share.
 *
 * Every answer is built by the JSON code the CLI uses (json.c), so that
 * `POST /v1/analyze` answers exactly what `bouton analyze --json` prints.
 * Client mistakes are 4xx with {"error":{"code","message"[,"column"]}};
 * nothing a client sends can make a 500.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "server_api.h"

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

/* Fills e's code and message; the HTTP status is the caller's. */
static int
fail_va(srv_error *e, unsigned http, const char *code, const char *fmt,
        va_list ap)
{
    e->http = http;
    e->code = code;
    e->column = 0;
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    return -1;
}

int
srv_fail_http(srv_error *e, unsigned http, const char *code,
              const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fail_va(e, http, code, fmt, ap);
    va_end(ap);
    return -1;
}

unsigned
srv_http_status(bt_status st)
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

int
srv_fail(srv_error *e, bt_status st, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fail_va(e, srv_http_status(st), bt_status_name(st), fmt, ap);
    va_end(ap);
    return -1;
}

int
srv_fail_status(srv_error *e, bt_status st, const bt_diag *diag,
                const char *what)
{
    const char *msg = diag->message[0] ? diag->message : bt_strerror(st);

    if (what)
        return srv_fail(e, st, "%s: %s", what, msg);
    return srv_fail(e, st, "%s", msg);
}

int
srv_prefix_error(srv_error *e, const char *fmt, ...)
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

int
srv_answer(json_t **out, srv_error *e, bt_status st, const bt_diag *diag,
           json_t *v)
{
    *out = NULL;
    if (st != BT_OK) {
        json_decref(v);
        return srv_fail_status(e, st, diag, NULL);
    }
    if (v == NULL)
        return srv_fail(e, BT_ENOMEM, "out of memory");
    *out = v;
    return 0;
}

/* ----------------------------------------------------------------- answers */

static const char oom_body[] =
    "{\"error\":{\"code\":\"ENOMEM\",\"message\":\"out of memory\"}}\n";

void
srv_reply_free(srv_reply *r)
{
    if (!r->is_static)
        cli_json_free(r->body); /* cli_json_text's */
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

void
srv_reply_verrorf(srv_reply *r, unsigned http, const char *code,
                  const char *fmt, va_list ap)
{
    srv_error e;

    fail_va(&e, http, code, fmt, ap);
    srv_reply_error(r, &e);
}

void
srv_reply_errorf(srv_reply *r, unsigned http, const char *code,
                 const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    srv_reply_verrorf(r, http, code, fmt, ap);
    va_end(ap);
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
    if (c->run && c->run->gone && atomic_load(c->run->gone)) {
        c->run->abandoned = 1;
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

/* ------------------------------------------------------ out of memory */

/*
 * GMP cannot return a failed allocation to its caller: the allocators of
 * bt_gmp_install_allocators() call srv_gmp_out_of_memory() instead, on the
 * thread of the computation.  On a thread running a request (in
 * srv_handle_run) it unwinds to the request's entry point, which answers
 * 503 ENOMEM: the request fails, not the process.  What the request held
 * is leaked; srv_gmp_install() counts what its numbers held (GMP passes
 * the size of every block it frees), and past a limit of such losses
 * srv_gmp_out_of_memory() asks the server to stop (see server.h).
 */
static _Thread_local sigjmp_buf *oom_jump;
static _Thread_local size_t oom_bytes;
static _Thread_local long long req_gmp; /* net bytes of the request's
                                           numbers, while oom_jump is set */
static atomic_ulong oom_unwound;
static atomic_ullong oom_lost;
static unsigned long long oom_lost_max; /* 0: no limit */
static void (*oom_stop)(void);
static void *(*lib_alloc)(size_t);
static void *(*lib_realloc)(void *, size_t, size_t);
static void (*lib_free)(void *, size_t);

void
srv_gmp_out_of_memory(size_t bytes, void *ud)
{
    sigjmp_buf *j = oom_jump;

    (void)ud;
    if (j == NULL)
        return; /* not a request's: the library's line, and exit */
    oom_jump = NULL;
    oom_bytes = bytes;
    siglongjmp(*j, 1);
}

/* The library's allocators, counting the request's numbers. */
static void *
gmp_alloc_counted(size_t n)
{
    void *p = lib_alloc(n);

    if (oom_jump)
        req_gmp += (long long)n;
    return p;
}

static void *
gmp_realloc_counted(void *old, size_t oldn, size_t newn)
{
    void *p = lib_realloc(old, oldn, newn);

    if (oom_jump)
        req_gmp += (long long)newn - (long long)oldn;
    return p;
}

static void
gmp_free_counted(void *p, size_t n)
{
    lib_free(p, n);
    if (oom_jump)
        req_gmp -= (long long)n;
}

void
srv_gmp_install(unsigned long long lost_max, void (*stop)(void))
{
    bt_gmp_install_allocators(srv_gmp_out_of_memory, NULL);
    mp_get_memory_functions(&lib_alloc, &lib_realloc, &lib_free);
    mp_set_memory_functions(gmp_alloc_counted, gmp_realloc_counted,
                            gmp_free_counted);
    oom_lost_max = lost_max;
    oom_stop = stop;
}

unsigned long
srv_oom_unwound(void)
{
    return atomic_load(&oom_unwound);
}

/* The answer and log line of a request unwound by srv_gmp_out_of_memory. */
static void
reply_unwound(srv_reply *r, const char *method, const char *path)
{
    unsigned long n = atomic_fetch_add(&oom_unwound, 1) + 1;
    unsigned long long held = req_gmp > 0 ? (unsigned long long)req_gmp : 0,
                       lost = atomic_fetch_add(&oom_lost, held) + held;
    int stop = oom_lost_max && lost > oom_lost_max;
    char line[400];
    int k = snprintf(line, sizeof line,
                     "bouton serve: out of memory in %.12s %.100s (%zu "
                     "bytes for a number): answered 503; the %llu bytes of "
                     "its numbers are lost (%llu bytes in %lu such "
                     "requests)%s\n",
                     method, path, oom_bytes, held, lost, n,
                     stop ? "; past --request-memory of such losses: "
                            "stopping"
                          : "");

    req_gmp = 0;
    if (k > 0) {
        ssize_t w = write(STDERR_FILENO, line,
                          (size_t)k < sizeof line ? (size_t)k
                                                  : sizeof line - 1);
        (void)w;
    }
    srv_reply_errorf(r, 503, "ENOMEM",
                     "out of memory: a number of %zu bytes could not be "
                     "allocated",
                     oom_bytes);
    if (stop && oom_stop)
        oom_stop();
}

/* ------------------------------------------------- about the server: GET */

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

/* A game as the page needs it: {"game" (canonical), "family", "title",
   "arity", "rules" (bt_game_rules: worded from its parameters), "board"
   (how to draw it), and for coins "first_coin" (each axis' first)}. */
static json_t *
game_json(bt_game *g)
{
    const bt_family_info *f = NULL;
    char *rules = bt_game_rules(g);
    json_t *o = NULL;
    size_t i;

    for (i = 0; i < bt_family_count(); i++)
        if (strcmp(bt_family(i)->name, bt_game_family(g)) == 0)
            f = bt_family(i);
    if (rules && f)
        o = json_pack("{s:s,s:s,s:s,s:i,s:s,s:s}", "game", bt_game_spec(g),
                      "family", f->name, "title", f->title, "arity",
                      (int)bt_game_arity(g), "rules", rules, "board",
                      bt_board_name(bt_game_board(g)));
    free(rules);
    if (o && bt_game_board(g) != BT_BOARD_PILES) {
        /* the coins' numbering: the first coin of each axis */
        json_t *first = json_array();
        unsigned axis, axes = bt_game_board(g) == BT_BOARD_GRID ? 2 : 1;

        for (axis = 0; first && axis < axes; axis++)
            if (json_array_append_new(
                    first, json_integer((json_int_t)bt_game_board_first(
                               g, axis))) != 0) {
                json_decref(first);
                first = NULL;
            }
        if (!first || json_object_set_new(o, "first_coin", first) != 0) {
            json_decref(o);
            o = NULL;
        }
    }
    return o;
}

/* The named games (aliases) of a family, each as game_json() with its
   "name". */
static json_t *
named_json(const char *aliases)
{
    json_t *names = split_words(aliases), *a = json_array(), *v;
    size_t i;

    json_array_foreach(names, i, v) {
        bt_game *g = NULL;
        json_t *o = bt_game_new(&g, json_string_value(v), NULL) == BT_OK
                        ? game_json(g)
                        : NULL;

        bt_game_free(g);
        if (!o || json_object_set(o, "name", v) != 0 ||
            json_array_append_new(a, o) != 0) {
            json_decref(o);
            json_decref(a);
            a = NULL;
            break;
        }
    }
    json_decref(names);
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
        json_t *g = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:o,s:i,s:s}", "name",
                              f->name, "syntax", f->syntax, "title",
                              f->title, "summary", f->summary, "example",
                              f->example, "aliases", split_words(f->aliases),
                              "named", named_json(f->aliases), "arity",
                              (int)bt_family_arity(i), "board",
                              bt_board_name(bt_family_board(i)));

        if (json_array_append_new(games, g) != 0) {
            json_decref(games);
            games = NULL;
        }
    }
    *out = games ? json_pack("{s:o}", "games", games) : NULL;
    if (!*out)
        return srv_fail(e, BT_ENOMEM, "out of memory");
    return 0;
}

/* POST /v1/game {"game": TEXT}: one game, canonical, with its rules. */
static int
api_game(json_t **out, json_t *req, const srv_config *cfg,
         const bt_limits *lim, srv_error *e)
{
    const char *spec;
    bt_game *g = NULL;
    int rc;

    (void)cfg;
    (void)lim;
    if (srv_check_op(req, "/v1/game", NULL, e) != 0 ||
        srv_get_string(req, "game", NULL, &spec, e) != 0)
        return -1;
    if (spec == NULL)
        return srv_fail(e, BT_EINVAL, "\"game\" is required");
    if (srv_new_game(&g, spec, e) != 0)
        return -1;
    rc = srv_answer(out, e, BT_OK, NULL, game_json(g));
    bt_game_free(g);
    return rc;
}

static int
api_info(json_t **out, json_t *req, const srv_config *cfg,
         const bt_limits *lim, srv_error *e)
{
    (void)req;
    (void)lim;
    return srv_answer(out, e, BT_OK, NULL, json_pack(
        "{s:s,s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}}",
        "version",
        bt_version_string(), "limits", "max_body",
        (json_int_t)cfg->max_body, "max_components",
        (json_int_t)cfg->lim.max_components, "max_digits",
        (json_int_t)cfg->lim.max_digits, "max_search",
        (json_int_t)cfg->lim.max_search, "max_grundy",
        (json_int_t)cfg->lim.max_grundy, "max_games",
        (json_int_t)cfg->lim.max_games, "max_table_piles",
        (json_int_t)cfg->lim.max_table_piles, "max_page",
        (json_int_t)cfg->max_page, "max_values",
        (json_int_t)cfg->max_values, "time_budget_ms",
        (json_int_t)cfg->budget_ms, "max_memory",
        (json_int_t)cfg->max_memory, "request_memory",
        (json_int_t)cfg->lim.max_memory));
}

/* ----------------------------------------------------------------- routing */

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
    {"/v1/nimber", "POST", api_nimber},
    {"/v1/games", "GET", api_games},
    {"/v1/game", "POST", api_game},
    {"/v1/info", "GET", api_info},
};

int
srv_routes_check(char *err, size_t size)
{
    size_t i, j, n = sizeof routes / sizeof routes[0];

    for (i = 0; i < n; i++) {
        const optable_op *op = optable_route(routes[i].path);
        if (op == NULL || strcmp(op->method, routes[i].method) != 0) {
            snprintf(err, size, "%s %s is not in the table of operations "
                     "(programs/common/optable.c)", routes[i].method,
                     routes[i].path);
            return -1;
        }
    }
    for (i = 0; i < optable_count(); i++) {
        const optable_op *op = optable_at(i);
        if (op->route == NULL)
            continue;
        for (j = 0; j < n && strcmp(routes[j].path, op->route) != 0; j++)
            ;
        if (j == n) {
            snprintf(err, size, "the table of operations has %s %s, which "
                     "the server does not serve", op->method, op->route);
            return -1;
        }
    }
    return 0;
}

void
srv_handle(srv_reply *r, const srv_config *cfg, const char *method,
           const char *path, const char *body, size_t len)
{
    srv_handle_run(r, cfg, NULL, method, path, body, len);
}

/* The request's route from its body on; fills r. */
static void
run_route_json(srv_reply *r, const srv_route *route, const srv_config *cfg,
               srv_run *run, srv_clock *clk, const bt_limits *lim,
               const char *body, size_t len, int get)
{
    srv_error e = {0, "EUNKNOWN", {0}, 0};
    json_t *req = NULL, *out = NULL;

    if (!get) {
        req = srv_parse_body(body, len, cfg, &e);
        if (!req) {
            srv_reply_error(r, &e);
            return;
        }
        /* The parse does not poll: a request past its slice already is
           heavy (the compute pool parses it again). */
        if (run && run->slice && clock_expired(clk) && run->sliced) {
            json_decref(req);
            srv_reply_errorf(r, 422, "EINTR", "the slice ran out");
            return;
        }
    }
    /* Building an answer's JSON does not poll the library: within a slice
       its numbers ask the slice's clock as they are written, and an
       answer past the slice is thrown away for the pool to make again
       (a position of 4 000 piles took 2 ms there, 1.9 MB of Moore's
       moves 70-89 ms). */
    cli_json_set_stop(run && run->slice ? clock_expired : NULL, clk);
    if (route->fn(&out, req, cfg, lim, &e) != 0) {
        json_decref(out);
        srv_reply_error(r, &e);
    } else if (cli_json_stopped() ||
               (run && run->slice && clock_expired(clk) && run->sliced)) {
        json_decref(out);
        srv_reply_errorf(r, 422, "EINTR", "%s",
                         run && run->sliced ? "the slice ran out"
                                            : "the time budget ran out");
    } else {
        reply_json(r, 200, out);
    }
    cli_json_set_stop(NULL, NULL);
    json_decref(req);
}

/*
 * run_route_json() with what the server allocates for the request (its
 * JSON, the answer's tree and text) charged to a meter of the request's
 * max_memory (server_api_mem.c): past it an allocation fails, and the
 * answer, whatever the handler made of the failure, is 422 ELIMIT, made
 * once the meter is stopped.  A run cut at the end of its slice keeps its
 * answer, thrown away by the caller (the pool runs it again).
 */
static void
run_route(srv_reply *r, const srv_route *route, const srv_config *cfg,
          srv_run *run, srv_clock *clk, const bt_limits *lim,
          const char *body, size_t len, int get)
{
    srv_meter_begin(lim->max_memory);
    run_route_json(r, route, cfg, run, clk, lim, body, len, get);
    if (srv_meter_end() && !(run && run->sliced)) {
        srv_reply_free(r);
        srv_reply_errorf(r, 422, "ELIMIT",
                         "the request's JSON and its answer passed the "
                         "memory limit of a request (%zu bytes)",
                         lim->max_memory);
    }
}

static const srv_route *
find_route(const char *path)
{
    const srv_route *route = NULL;
    size_t i;

    for (i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (strcmp(path, routes[i].path) == 0)
            route = &routes[i];
    return route;
}

void
srv_handle_run(srv_reply *r, const srv_config *cfg, srv_run *run,
               const char *method, const char *path, const char *body,
               size_t len)
{
    /* volatile: live across sigsetjmp (-Wclobbered) */
    const srv_route *volatile route = find_route(path);
    srv_error e = {0, "EUNKNOWN", {0}, 0};
    srv_clock clk = {{0, 0}, 0, run};
    bt_limits lim = cfg->lim;
    sigjmp_buf jb;
    int get;

    memset(r, 0, sizeof *r);
    if (!route) {
        srv_fail_http(&e, 404, "ENOTFOUND", "no such endpoint: %.100s",
                      path);
        srv_reply_error(r, &e);
        return;
    }
    get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (strcmp(route->method, "GET") == 0 ? !get
                                          : strcmp(method, "POST") != 0) {
        srv_fail_http(&e, 405, "EMETHOD", "%.100s takes %s, not %.20s",
                      path, route->method, method);
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
    /*
     * GMP out of memory in run_route unwinds to here, the one place where
     * a request may be abandoned half-done: its objects, and what the
     * library held for it, are leaked and never used again.  Nothing the
     * request touched is shared with another (its games and positions are
     * its own; the library fills its shared caches under their locks
     * outside GMP's calls), so the other requests go on.
     */
    if (sigsetjmp(jb, 0) != 0) {
        cli_json_set_stop(NULL, NULL);
        srv_meter_end();
        reply_unwound(r, method, path);
        return;
    }
    req_gmp = 0;
    oom_jump = &jb;
    run_route(r, route, cfg, run, &clk, &lim, body, len, get);
    oom_jump = NULL;
}
