/*
 * server.c -- `bouton serve`: the HTTP server of the API and the web page.
 *
 * libmicrohttpd does the HTTP of the connections that server_front.c hands
 * it; this file keeps the per-request state (the body, read in chunks, and
 * the time the request began), serves the page's files compiled into the
 * program (web_assets.c), runs /v1/ requests (server_api.c) for a short
 * slice on the HTTP thread and moves those that do not finish to the
 * compute pool (server_pool.c), logs one line per request, and stops
 * cleanly on SIGINT or SIGTERM, cancelling the computations under way.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "server.h"
#include "server_net.h"

#ifndef BOUTON_SERVER

int
cmd_serve(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("serve", "this build of bouton has no HTTP server "
                              "(configure with -DBOUTON_SERVER=ON)");
}

#else

#include <netdb.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <microhttpd.h>

#include "web_assets.h"

static const char serve_usage[] =
    "usage: bouton serve [--host ADDR] [--port N] [OPTION...]\n"
    "\n"
    "Serves the web app at http://ADDR:N/ and the JSON API under /v1/\n"
    "(see docs/api.md) until SIGINT (Ctrl-C) or SIGTERM.  One line per\n"
    "request goes to standard error: method, path, status, microseconds.\n"
    "\n"
    "  --host ADDR          address to listen on (default 127.0.0.1)\n"
    "  --port N             port (default 8080; 0 picks a free one)\n"
    "  --threads N          HTTP threads (default: the number of CPUs)\n"
    "  --quiet              no request log\n"
    "  --quotient FILE      a misère quotient saved by `bouton quotient\n"
    "                       --save`, checked at startup (refused unless it\n"
    "                       is the quotient of its game) and used by every\n"
    "                       misère analysis of its game's heaps; repeatable\n"
    "                       (16 at most)\n"
    "  --store DIR          the store of proved results (`bouton store\n"
    "                       --help`): its checked entries and the shipped\n"
    "                       ones serve misère analyses, and the quotients\n"
    "                       that requests prove are kept there (default\n"
    "                       $BOUTON_STORE, else none: the shipped entries\n"
    "                       are read, nothing is written)\n"
    "  --no-store           no store, not even the shipped entries\n"
    "\n"
    "Fairness and connections (see the resource model in docs/api.md):\n"
    "  --slice-us N         microseconds a request may compute on its HTTP\n"
    "                       thread before it moves to the compute pool\n"
    "                       (default 1000)\n"
    "  --compute-threads N  threads of the compute pool, at a lower CPU\n"
    "                       priority (default: half the CPUs, at least 1)\n"
    "  --max-queue N        requests waiting for the pool (default 64; past\n"
    "                       it: 503)\n"
    "  --max-heavy-per-ip N requests of one address in the pool (default 4;\n"
    "                       past it: 429)\n"
    "  --max-connections N  open connections at once (default 1000)\n"
    "  --max-connections-per-ip N  of one address (default 128; 0: none)\n"
    "  --header-timeout MS  to send a request's head (default 10000)\n"
    "  --body-timeout MS    to send a request's body (default 30000)\n"
    "  --request-memory N   bytes one request may hold, in each of its\n"
    "                       structures, numbers and JSON (default: the\n"
    "                       --max-memory of the process, an option every\n"
    "                       command takes, divided by the HTTP and compute\n"
    "                       threads)\n"
    "\n"
    "Limits of one request (past one: a 413 or 422 answer):\n"
    "  --max-body N         bytes of a request body (default 1048576)\n"
    "  --time-budget MS     milliseconds of computation (default 2000;\n"
    "                       0: none)\n"
    "  --max-page N         rows of one page of /v1/table (default 1000)\n"
    "  --max-values N       values in one /v1/grundy answer (default "
    "100000)\n"
    "  --max-table-piles N  piles of a table or count (default 64)\n"
    "  --max-piles N        components of a position (default 100000)\n"
    "  --max-digits N       decimal digits of one number (default 200000)\n"
    "  --max-search N       states of an exhaustive misere search\n"
    "                       (default 200000)\n"
    "  --max-grundy N       Grundy values computed for one game (default\n"
    "                       4194304)\n"
    "  --max-games N        distinct games in one position (default 1000)\n"
    "  -h, --help           this text\n";

enum {
    OPT_HOST = 2000,
    OPT_PORT,
    OPT_THREADS,
    OPT_MAX_CONN,
    OPT_QUIET,
    OPT_MAX_BODY,
    OPT_BUDGET,
    OPT_MAX_PAGE,
    OPT_MAX_VALUES,
    OPT_MAX_TABLE_PILES,
    OPT_SLICE,
    OPT_COMPUTE,
    OPT_MAX_QUEUE,
    OPT_MAX_HEAVY_IP,
    OPT_MAX_CONN_IP,
    OPT_HEADER_TIMEOUT,
    OPT_BODY_TIMEOUT,
    OPT_REQUEST_MEMORY,
    OPT_QUOTIENT,
    OPT_STORE,
    OPT_NO_STORE
};

/* The most --quotient files (bt_quotient_install's bound). */
#define SERVE_QUOTIENTS 16

#define SRV_DEFAULT_SLICE_US 1000UL
/* A body past this many bytes goes to the compute pool without a slice:
   its JSON, parsed before the library's first poll, would take much of
   the slice alone (jansson reads about 15 ns a byte on the benchmark
   machine: 660 KB held an HTTP thread 10-15 ms), and the plain requests
   the slice is for are far smaller. */
#define SRV_SLICE_MAX_BODY (32UL * 1024)
#define SRV_DEFAULT_MAX_QUEUE 64UL
#define SRV_DEFAULT_MAX_HEAVY_PER_IP 4UL
#define SRV_DEFAULT_MAX_CONN 1000UL
#define SRV_DEFAULT_MAX_CONN_PER_IP 128UL
#define SRV_DEFAULT_HEADER_MS 10000UL
#define SRV_DEFAULT_BODY_MS 30000UL
/* A chunked body (whose size is not announced) past --max-body is read and
   dropped up to this many bytes, so that it gets its 413; past it the
   connection is closed. */
#define SRV_MAX_DISCARD ((size_t)64 << 20)

/* What the whole server shares; read-only once the daemon runs, but for
   cancel. */
typedef struct srv_state {
    srv_config cfg;
    int quiet;
    unsigned long slice_us;
    struct MHD_Response **assets; /* one per bt_web_assets[] entry */
    char (*etags)[24];
    struct MHD_Daemon **daemons; /* one per thread of the front */
    unsigned ndaemons;
    srv_front *front;
    srv_pool *pool;
    atomic_int cancel; /* set on SIGTERM: stops every computation */
    /* The client address of each connection the front relays, by the
       descriptor of the library's end: the library knows that end only
       as a local socket. */
    srv_ip *peer;
    size_t npeer;
} srv_state;

/* What one request keeps between the calls libmicrohttpd makes for it
   (headers, body chunks, completion): see STYLE.md's known traps. */
typedef struct srv_request {
    struct timespec start;
    char *body;
    size_t len, cap;
    size_t dropped;   /* body bytes past the limit, read and discarded */
    unsigned status;  /* of the answer queued, 0 before one */
    struct MHD_Connection *conn;
    srv_conn *sc;     /* its connection's deadlines */
    int suspended;    /* the answer comes from job.reply, once resumed */
    srv_job job;
    char method[12];
    char path[160];
} srv_request;

/* ---------------------------------------------------------------- logging */

/* One line per request, written with one write(2) so that lines from the
   worker threads do not interleave. */
static void
log_request(const srv_request *rq, enum MHD_RequestTerminationCode toe)
{
    struct timespec now;
    long long us;
    char line[256];
    int n;

    clock_gettime(CLOCK_MONOTONIC, &now);
    us = (long long)(now.tv_sec - rq->start.tv_sec) * 1000000LL +
         (now.tv_nsec - rq->start.tv_nsec) / 1000;
    if (rq->status)
        n = snprintf(line, sizeof line, "%s %s %u %lldus%s\n", rq->method,
                     rq->path, rq->status, us,
                     toe == MHD_REQUEST_TERMINATED_COMPLETED_OK
                         ? ""
                         : " (connection closed early)");
    else
        n = snprintf(line, sizeof line, "%s %s - %lldus (no answer: %s)\n",
                     rq->method, rq->path, us,
                     toe == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED
                         ? "timed out"
                         : "connection closed");
    if (n > 0) {
        ssize_t w = write(STDERR_FILENO, line,
                          (size_t)n < sizeof line ? (size_t)n
                                                  : sizeof line - 1);
        (void)w; /* a log that cannot be written must not stop the server */
    }
}

static void
request_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                  enum MHD_RequestTerminationCode toe)
{
    const srv_state *s = cls;
    srv_request *rq = *con_cls;

    (void)conn;
    if (!rq)
        return;
    if (!s->quiet)
        log_request(rq, toe);
    /* keep-alive: the next request's head is due within the header
       timeout (which is also how long an idle connection stays) */
    srv_conn_deadline(s->front, rq->sc, SRV_DEADLINE_HEADER);
    if (rq->suspended)
        srv_reply_free(&rq->job.reply); /* closed before it was sent */
    free(rq->body);
    free(rq);
    *con_cls = NULL;
}

/* Copies text into a log field, replacing what could break the line. */
static void
copy_clean(char *dst, size_t size, const char *src)
{
    size_t i;

    for (i = 0; src && src[i] && i + 1 < size; i++)
        dst[i] = (src[i] > ' ' && src[i] < 127) ? src[i] : '?';
    dst[i] = '\0';
}

/* --------------------------------------------------------------- answers */

static enum MHD_Result
queue(struct MHD_Connection *conn, srv_request *rq, unsigned status,
      struct MHD_Response *resp)
{
    enum MHD_Result r = MHD_queue_response(conn, status, resp);

    if (r == MHD_YES)
        rq->status = status;
    return r;
}

/* Queues a JSON answer of the API; the response takes reply's body. */
static enum MHD_Result
queue_reply(struct MHD_Connection *conn, srv_request *rq, srv_reply *reply)
{
    struct MHD_Response *resp =
        reply->is_static
            ? MHD_create_response_from_buffer(reply->size, reply->body,
                                              MHD_RESPMEM_PERSISTENT)
            : MHD_create_response_from_buffer_with_free_callback(
                  reply->size, reply->body, cli_json_free);
    enum MHD_Result r;

    if (!resp) {
        srv_reply_free(reply);
        return MHD_NO;
    }
    reply->body = NULL; /* the response owns it now */
    /* Few headers: each costs allocations on the path of every answer. */
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
                            "application/json");
    if (reply->status != 200)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL,
                                "no-store");
    if (reply->allow)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, reply->allow);
    /*
     * After a malformed request (400, 404, 405, 413) the connection is
     * closed, as nginx does after a 400: a client that sends garbage pays
     * a new connection for each request, which slows a flood of them (see
     * bench/README.md), while a well-behaved client loses nothing.  A 422
     * is a well-formed request past a limit: the connection stays.
     */
    if (reply->status == 400 || reply->status == 404 ||
        reply->status == 405 || reply->status == 413)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    r = queue(conn, rq, reply->status, resp);
    MHD_destroy_response(resp);
    return r;
}

static enum MHD_Result
queue_error(struct MHD_Connection *conn, srv_request *rq, const char *allow,
            unsigned status, const char *code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static enum MHD_Result
queue_error(struct MHD_Connection *conn, srv_request *rq, const char *allow,
            unsigned status, const char *code, const char *fmt, ...)
{
    srv_reply reply;
    va_list ap;

    va_start(ap, fmt);
    srv_reply_verrorf(&reply, status, code, fmt, ap);
    va_end(ap);
    reply.allow = allow;
    return queue_reply(conn, rq, &reply);
}

static const char *
content_type(const char *name)
{
    static const char *const types[][2] = {
        {".html", "text/html; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".json", "application/json"},
        {".png", "image/png"},
        {".ico", "image/x-icon"},
        {".txt", "text/plain; charset=utf-8"},
    };
    size_t n = strlen(name), i;

    for (i = 0; i < sizeof types / sizeof types[0]; i++) {
        size_t m = strlen(types[i][0]);

        if (n >= m && strcmp(name + n - m, types[i][0]) == 0)
            return types[i][1];
    }
    return "application/octet-stream";
}

/*
 * Makes one response per file of the page at start-up; libmicrohttpd
 * counts references to a response, so every request for a file reuses it.
 * The ETag (an FNV-1a hash of the bytes) lets browsers revalidate cheaply.
 */
static int
assets_init(srv_state *s)
{
    size_t n = 0, i;

    while (bt_web_assets[n].name)
        n++;
    s->assets = calloc(n + 1, sizeof *s->assets);
    s->etags = calloc(n + 1, sizeof *s->etags);
    if (!s->assets || !s->etags)
        return -1;
    for (i = 0; i < n; i++) {
        const bt_web_asset *a = &bt_web_assets[i];
        unsigned long long h = 1469598103934665603ULL;
        struct MHD_Response *r;
        size_t k;

        for (k = 0; k < a->size; k++)
            h = (h ^ a->data[k]) * 1099511628211ULL;
        snprintf(s->etags[i], sizeof s->etags[i], "\"%016llx\"", h);
        r = MHD_create_response_from_buffer(a->size, (void *)a->data,
                                            MHD_RESPMEM_PERSISTENT);
        if (!r)
            return -1;
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
                                content_type(a->name));
        MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
        MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, s->etags[i]);
        MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
        MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
        MHD_add_response_header(
            r, "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'");
        s->assets[i] = r;
    }
    return 0;
}

static void
assets_fini(srv_state *s)
{
    size_t i;

    for (i = 0; s->assets && s->assets[i]; i++)
        MHD_destroy_response(s->assets[i]);
    free(s->assets);
    free(s->etags);
}

/* GET of a file of the page: "/" is index.html; web/ is flat. */
static enum MHD_Result
serve_asset(const srv_state *s, struct MHD_Connection *conn,
            srv_request *rq, const char *url, const char *method)
{
    const char *name = strcmp(url, "/") == 0 ? "index.html" : url + 1;
    size_t i;

    for (i = 0; bt_web_assets[i].name; i++) {
        const char *inm;

        if (strcmp(bt_web_assets[i].name, name) != 0)
            continue;
        if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
            return queue_error(conn, rq, "GET, HEAD", 405, "EMETHOD",
                               "%.100s takes GET, not %.20s", url, method);
        inm = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                          MHD_HTTP_HEADER_IF_NONE_MATCH);
        if (inm && strstr(inm, s->etags[i])) {
            struct MHD_Response *r =
                MHD_create_response_from_buffer(0, NULL,
                                                MHD_RESPMEM_PERSISTENT);
            enum MHD_Result res;

            if (!r)
                return MHD_NO;
            MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, s->etags[i]);
            res = queue(conn, rq, 304, r);
            MHD_destroy_response(r);
            return res;
        }
        return queue(conn, rq, 200, s->assets[i]);
    }
    return queue_error(conn, rq, NULL, 404, "ENOTFOUND",
                       "no such page or endpoint: %.100s", url);
}

/* ---------------------------------------------------------------- requests */

/* Appends a chunk of the body; past the limit, counts and drops it. */
static int
body_append(srv_request *rq, const char *data, size_t size, size_t max)
{
    if (rq->dropped || size > max - rq->len) {
        rq->dropped += size;
        return 0;
    }
    if (rq->len + size > rq->cap) {
        size_t cap = rq->cap ? rq->cap : 1024;
        char *b;

        while (cap < rq->len + size)
            cap = cap > max / 2 ? max : cap * 2;
        b = realloc(rq->body, cap);
        if (!b)
            return -1;
        rq->body = b;
        rq->cap = cap;
    }
    memcpy(rq->body + rq->len, data, size);
    rq->len += size;
    return 0;
}

/* Counts the Content-Length headers of a request and notes a conflict. */
typedef struct clen_scan {
    int count, conflict;
    const char *first;
} clen_scan;

static enum MHD_Result
scan_clen(void *cls, enum MHD_ValueKind kind, const char *key,
          const char *value)
{
    clen_scan *cs = cls;

    (void)kind;
    if (key && strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
        if (cs->count++ && (!value || !cs->first ||
                            strcmp(value, cs->first) != 0))
            cs->conflict = 1;
        cs->first = value;
    }
    return MHD_YES;
}

/*
 * The checks of server_http.c's srv_check_head() that matter, again on
 * what libmicrohttpd has parsed: a second line of defence, since the relay
 * (server_relay.c) checks every head of a kept-alive connection before
 * the library sees it.  Returns 0 or an answer queued.
 */
static int
check_request(struct MHD_Connection *conn, srv_request *rq,
              const char *version, enum MHD_Result *res)
{
    const char *te = MHD_lookup_connection_value(
        conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
    clen_scan cs = {0, 0, NULL};

    if (strcmp(version, MHD_HTTP_VERSION_1_1) == 0 &&
        !MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                     MHD_HTTP_HEADER_HOST)) {
        *res = queue_error(conn, rq, NULL, 400, "EHTTP",
                           "an HTTP/1.1 request without a Host header");
        return 1;
    }
    if (te && strcasecmp(te, "chunked") != 0) {
        *res = queue_error(conn, rq, NULL, 501, "ENOTIMPL",
                           "Transfer-Encoding other than chunked is not "
                           "implemented");
        return 1;
    }
    MHD_get_connection_values(conn, MHD_HEADER_KIND, scan_clen, &cs);
    if (cs.conflict || (cs.count && te)) {
        *res = queue_error(conn, rq, NULL, 400, "EHTTP",
                           cs.conflict ? "two Content-Length headers that "
                                         "differ"
                                       : "both Content-Length and "
                                         "Transfer-Encoding");
        return 1;
    }
    return 0;
}

/* Called by a compute thread when the job's reply is ready. */
static void
job_done(srv_job *job)
{
    srv_request *rq = job->ud;

    MHD_resume_connection(rq->conn); /* rq may be gone after this */
}

/*
 * Runs a /v1/ request: a slice on this HTTP thread, then (if it did not
 * finish) the compute pool, whose answer arrives when libmicrohttpd calls
 * answer() again after job_done() resumed the connection.  A request known
 * heavy (by its hash), with a body past SRV_SLICE_MAX_BODY, or on a
 * connection whose last slices each cost half a slice or more
 * (srv_conn_to_pool) goes to the pool at once.
 */
static enum MHD_Result
run_api(srv_state *s, struct MHD_Connection *conn, srv_request *rq,
        const char *url, const char *method)
{
    uint64_t h = srv_request_hash(url, rq->body, rq->len);
    const union MHD_ConnectionInfo *ci;
    srv_reply reply;
    unsigned refused;

    if (rq->len <= SRV_SLICE_MAX_BODY && !srv_pool_known_heavy(s->pool, h) &&
        !srv_conn_to_pool(rq->sc)) {
        srv_run run;
        struct timespec t, t0;

        memset(&run, 0, sizeof run);
        run.cancel = &s->cancel;
        /* CPU time, so that a thread preempted by others' work does not
           take a light request for a heavy one */
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        t0 = t;
        t.tv_sec += (time_t)(s->slice_us / 1000000UL);
        t.tv_nsec += (long)(s->slice_us % 1000000UL) * 1000L;
        t.tv_sec += t.tv_nsec / 1000000000L;
        t.tv_nsec %= 1000000000L;
        run.slice = 1;
        run.slice_end = t;
        srv_handle_run(&reply, &s->cfg, &run, method, url, rq->body, rq->len);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        srv_conn_slice_cost(rq->sc,
                            (unsigned long)((t.tv_sec - t0.tv_sec) * 1000000L +
                                            (t.tv_nsec - t0.tv_nsec) / 1000),
                            s->slice_us);
        if (run.cancelled) {
            srv_reply_free(&reply);
            return queue_error(conn, rq, NULL, 503, "EBUSY",
                               "the server is stopping");
        }
        if (!run.sliced)
            return queue_reply(conn, rq, &reply);
        srv_reply_free(&reply);
        srv_pool_mark_heavy(s->pool, h);
    }
    memset(&rq->job, 0, sizeof rq->job);
    rq->job.method = method;
    rq->job.path = url;
    rq->job.body = rq->body;
    rq->job.len = rq->len;
    rq->job.done = job_done;
    rq->job.ud = rq;
    rq->job.gone = srv_conn_gone(rq->sc);
    ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (ci && ci->connect_fd >= 0 && (size_t)ci->connect_fd < s->npeer)
        rq->job.ip = s->peer[ci->connect_fd];
    else
        srv_ip_from_sockaddr(&rq->job.ip, NULL);
    /* Suspended before the job is queued, so that a quick job_done()
       cannot resume it first. */
    rq->conn = conn;
    rq->suspended = 1;
    MHD_suspend_connection(conn);
    refused = srv_pool_submit(s->pool, &rq->job);
    if (refused) {
        srv_reply_errorf(&rq->job.reply, refused,
                         refused == 429 ? "ELIMIT" : "EBUSY", "%s",
                         refused == 429
                             ? "too many heavy requests from this address "
                               "at once (--max-heavy-per-ip); retry when "
                               "one is answered"
                             : "the server is busy with heavy requests "
                               "(--max-queue); retry later");
        srv_pool_refuse(s->pool, &rq->job);
    }
    return MHD_YES;
}

static enum MHD_Result
answer(void *cls, struct MHD_Connection *conn, const char *url,
       const char *method, const char *version, const char *upload_data,
       size_t *upload_data_size, void **con_cls)
{
    srv_state *s = cls;
    srv_request *rq = *con_cls;
    const size_t max = s->cfg.max_body;

    if (!rq) {
        /*
         * First call: the headers are in, the body (if any) is not.  Only
         * an announced oversized body or a head the server refuses is
         * answered now (and the connection closed); everything else waits
         * for the last call, since a response queued this early makes
         * libmicrohttpd close the connection instead of keeping it alive.
         */
        const char *clen;
        const union MHD_ConnectionInfo *ci;
        enum MHD_Result res;

        rq = calloc(1, sizeof *rq);
        if (!rq)
            return MHD_NO;
        clock_gettime(CLOCK_MONOTONIC, &rq->start);
        copy_clean(rq->method, sizeof rq->method, method);
        copy_clean(rq->path, sizeof rq->path, url);
        *con_cls = rq;
        ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        rq->sc = ci ? ci->socket_context : NULL;
        if (check_request(conn, rq, version, &res))
            return res;
        clen = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                           MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (clen) {
            char *end;
            unsigned long long n;

            errno = 0;
            n = strtoull(clen, &end, 10);
            if (errno == ERANGE || n > max)
                return queue_error(conn, rq, NULL, 413, "ELIMIT",
                                   "request body of %s bytes is over the "
                                   "limit of %zu bytes", clen, max);
        }
        /* The body, if one comes, is due within the body timeout. */
        srv_conn_deadline(s->front, rq->sc,
                          (clen && strcmp(clen, "0") != 0) ||
                                  MHD_lookup_connection_value(
                                      conn, MHD_HEADER_KIND,
                                      MHD_HTTP_HEADER_TRANSFER_ENCODING)
                              ? SRV_DEADLINE_BODY
                              : SRV_DEADLINE_NONE);
        return MHD_YES;
    }
    if (rq->status)
        return MHD_YES; /* answered already; let the rest of it go */
    if (rq->suspended) /* resumed: the compute pool's answer */
        return queue_reply(conn, rq, &rq->job.reply);
    if (*upload_data_size > 0) {
        if (body_append(rq, upload_data, *upload_data_size, max) != 0)
            return MHD_NO;
        *upload_data_size = 0;
        /* A chunked body far past the limit: stop reading it. */
        if (rq->dropped > SRV_MAX_DISCARD)
            return MHD_NO;
        return MHD_YES;
    }
    /* The last call: the whole request is in. */
    srv_conn_deadline(s->front, rq->sc, SRV_DEADLINE_NONE);
    if (rq->dropped)
        return queue_error(conn, rq, NULL, 413, "ELIMIT",
                           "request body of more than %zu bytes is over the "
                           "limit", max);
    if (strcmp(method, "OPTIONS") == 0) {
        struct MHD_Response *r =
            MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
        enum MHD_Result res;

        if (!r)
            return MHD_NO;
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW,
                                "GET, HEAD, POST, OPTIONS");
        res = queue(conn, rq, 204, r);
        MHD_destroy_response(r);
        return res;
    }
    if (strncmp(url, "/v1/", 4) != 0)
        return serve_asset(s, conn, rq, url, method);
    return run_api(s, conn, rq, url, method);
}

/* libmicrohttpd's notice of each connection it opens and closes: the
   front's registry of their deadlines and counts. */
static void
conn_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
            enum MHD_ConnectionNotificationCode code)
{
    srv_state *s = cls;

    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *fd =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);

        *socket_context =
            fd && fd->connect_fd >= 0 && (size_t)fd->connect_fd < s->npeer
                ? srv_conn_open(s->front, fd->connect_fd,
                                &s->peer[fd->connect_fd])
                : NULL;
    } else {
        srv_conn_close(s->front, *socket_context);
        *socket_context = NULL;
    }
}

/*
 * libmicrohttpd's messages, to stderr, but for those about TCP options: its
 * connections are local sockets (the front relays them), where setting
 * TCP_NODELAY or TCP_CORK fails and nothing waits on Nagle's algorithm.
 */
static void
library_log(void *cls, const char *fmt, va_list ap)
{
    char line[512];

    (void)cls;
    if (strncmp(fmt, "Setting %s option", 17) == 0)
        return; /* TCP_NODELAY or TCP_CORK, on each answer: not formatted */
    vsnprintf(line, sizeof line, fmt, ap);
    if (strstr(line, "TCP_NODELAY") || strstr(line, "TCP_CORK") ||
        strstr(line, "push the data"))
        return;
    fputs(line, stderr);
}

/*
 * The library as the front runs it (srv_front_lib): one instance per
 * thread of the front, each with its own epoll set, run by that thread
 * without blocking.
 */
static int
lib_fd(void *ud, unsigned k)
{
    const srv_state *s = ud;
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(s->daemons[k], MHD_DAEMON_INFO_EPOLL_FD);

    return info ? info->epoll_fd : -1;
}

/* The front hands a connection with a valid first head to instance k. */
static int
lib_deliver(void *ud, unsigned k, int fd, const struct sockaddr *sa,
            socklen_t len)
{
    srv_state *s = ud;
    struct sockaddr_un local;

    (void)len;
    if (fd < 0 || (size_t)fd >= s->npeer || !s->daemons[k]) {
        close(fd);
        return -1;
    }
    srv_ip_from_sockaddr(&s->peer[fd], sa);
    /* The library is told the truth, a local socket, so that it does not
       set TCP options on it. */
    memset(&local, 0, sizeof local);
    local.sun_family = AF_UNIX;
    return MHD_add_connection(s->daemons[k], fd,
                              (const struct sockaddr *)&local,
                              sizeof local) == MHD_YES
               ? 0
               : -1;
}

static int
lib_run(void *ud, unsigned k, int stop)
{
    srv_state *s = ud;
    MHD_UNSIGNED_LONG_LONG t;

    if (!s->daemons[k])
        return 0;
    MHD_run(s->daemons[k]);
    if (stop) {
        MHD_stop_daemon(s->daemons[k]);
        s->daemons[k] = NULL;
        return 0;
    }
    /* a connection with more to read or write than one turn took (its
       socket stays ready, with no new edge in the library's epoll set) */
    return MHD_get_timeout(s->daemons[k], &t) == MHD_YES && t == 0;
}

/* ----------------------------------------------------------------- command */

/* Set when the memory lost to out-of-memory requests stops the server. */
static atomic_int oom_stopping;

/* srv_gmp_install's stop: the main thread's sigwait takes it. */
static void
oom_stop(void)
{
    atomic_store(&oom_stopping, 1);
    kill(getpid(), SIGTERM);
}

/* An option's value in [min, max]; -1 after one error line. */
static int
parse_ulong(const char *what, const char *arg, unsigned long min,
            unsigned long max, unsigned long *out)
{
    size_t v;

    if (cli_parse_size("serve", what, arg, 0, max, &v) != 0)
        return -1;
    if (v < min)
        return cli_error("serve", "%s: must be at least %lu", what, min), -1;
    *out = (unsigned long)v;
    return 0;
}

int
cmd_serve(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"host", required_argument, NULL, OPT_HOST},
        {"port", required_argument, NULL, OPT_PORT},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"max-connections", required_argument, NULL, OPT_MAX_CONN},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"max-body", required_argument, NULL, OPT_MAX_BODY},
        {"time-budget", required_argument, NULL, OPT_BUDGET},
        {"max-page", required_argument, NULL, OPT_MAX_PAGE},
        {"max-values", required_argument, NULL, OPT_MAX_VALUES},
        {"max-table-piles", required_argument, NULL, OPT_MAX_TABLE_PILES},
        {"slice-us", required_argument, NULL, OPT_SLICE},
        {"compute-threads", required_argument, NULL, OPT_COMPUTE},
        {"max-queue", required_argument, NULL, OPT_MAX_QUEUE},
        {"max-heavy-per-ip", required_argument, NULL, OPT_MAX_HEAVY_IP},
        {"max-connections-per-ip", required_argument, NULL, OPT_MAX_CONN_IP},
        {"header-timeout", required_argument, NULL, OPT_HEADER_TIMEOUT},
        {"body-timeout", required_argument, NULL, OPT_BODY_TIMEOUT},
        {"request-memory", required_argument, NULL, OPT_REQUEST_MEMORY},
        {"quotient", required_argument, NULL, OPT_QUOTIENT},
        {"store", required_argument, NULL, OPT_STORE},
        {"no-store", no_argument, NULL, OPT_NO_STORE},
        CLI_LIMIT_LONGOPTS,
        {NULL, 0, NULL, 0}};
    static srv_state s; /* static: its cancel flag is shared with threads */
    const char *host = "127.0.0.1";
    unsigned long port = 8080, threads = 0, maxconn = SRV_DEFAULT_MAX_CONN, v;
    unsigned long compute = 0, request_memory = 0;
    srv_pool_config pc = {0, SRV_DEFAULT_MAX_QUEUE,
                          SRV_DEFAULT_MAX_HEAVY_PER_IP, 10, 0};
    srv_front_config fc = {0, SRV_DEFAULT_MAX_CONN_PER_IP,
                           SRV_DEFAULT_HEADER_MS, SRV_DEFAULT_BODY_MS, 0, 0};
    srv_ipmap *ips = NULL;
    unsigned bound_port = 0;
    struct addrinfo hints, *ai = NULL;
    srv_front_lib lib;
    unsigned k;
    sigset_t stop;
    unsigned int flags;
    int c, sig = 0, rc = CLI_FAIL, gai;
    char hostbuf[80], routes_err[160];
    const char *qfiles[SERVE_QUOTIENTS], *store_dir = NULL;
    size_t nq = 0, i;
    int no_store = 0;
    /* static: reachable until the end (the early returns below) */
    static cli_store store;
    bt_limits qlim;

    memset(&s, 0, sizeof s);
    /* the endpoints served are the table of operations' (optable.h) */
    if (srv_routes_check(routes_err, sizeof routes_err) != 0) {
        fprintf(stderr, "bouton serve: internal error: %s\n", routes_err);
        return CLI_FAIL;
    }
    srv_config_default(&s.cfg);
    s.slice_us = SRV_DEFAULT_SLICE_US;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(serve_usage, stdout);
            return CLI_OK;
        case OPT_HOST:
            host = optarg;
            break;
        case OPT_PORT:
            if (parse_ulong("--port", optarg, 0, 65535, &port) != 0)
                return CLI_USAGE;
            break;
        case OPT_THREADS:
            if (parse_ulong("--threads", optarg, 1, 256, &threads) != 0)
                return CLI_USAGE;
            break;
        case OPT_MAX_CONN:
            if (parse_ulong("--max-connections", optarg, 1, 1000000,
                            &maxconn) != 0)
                return CLI_USAGE;
            break;
        case OPT_QUIET:
            s.quiet = 1;
            break;
        case OPT_MAX_BODY:
            if (parse_ulong("--max-body", optarg, 64, 1UL << 30, &v) != 0)
                return CLI_USAGE;
            s.cfg.max_body = v;
            s.cfg.lim.max_text = v;
            break;
        case OPT_BUDGET:
            if (parse_ulong("--time-budget", optarg, 0, 3600000UL, &v) != 0)
                return CLI_USAGE;
            s.cfg.budget_ms = v;
            break;
        case OPT_MAX_PAGE:
            if (parse_ulong("--max-page", optarg, 1, 1000000UL, &v) != 0)
                return CLI_USAGE;
            s.cfg.max_page = v;
            break;
        case OPT_MAX_VALUES:
            if (parse_ulong("--max-values", optarg, 0, 1UL << 30, &v) != 0)
                return CLI_USAGE;
            s.cfg.max_values = v;
            break;
        case OPT_MAX_TABLE_PILES:
            if (parse_ulong("--max-table-piles", optarg, 0, 1UL << 20,
                            &v) != 0)
                return CLI_USAGE;
            s.cfg.lim.max_table_piles = v;
            break;
        case OPT_SLICE:
            if (parse_ulong("--slice-us", optarg, 0, 10000000UL,
                            &s.slice_us) != 0)
                return CLI_USAGE;
            break;
        case OPT_COMPUTE:
            if (parse_ulong("--compute-threads", optarg, 1, 256, &compute) !=
                0)
                return CLI_USAGE;
            break;
        case OPT_MAX_QUEUE:
            if (parse_ulong("--max-queue", optarg, 0, 1000000UL, &v) != 0)
                return CLI_USAGE;
            pc.max_queue = v;
            break;
        case OPT_MAX_HEAVY_IP:
            if (parse_ulong("--max-heavy-per-ip", optarg, 0, 1000000UL,
                            &v) != 0)
                return CLI_USAGE;
            pc.max_heavy_per_ip = (unsigned)v;
            break;
        case OPT_MAX_CONN_IP:
            if (parse_ulong("--max-connections-per-ip", optarg, 0,
                            1000000UL, &v) != 0)
                return CLI_USAGE;
            fc.max_conn_per_ip = (unsigned)v;
            break;
        case OPT_HEADER_TIMEOUT:
        case OPT_BODY_TIMEOUT:
            if (parse_ulong(c == OPT_HEADER_TIMEOUT ? "--header-timeout"
                                                    : "--body-timeout",
                            optarg, 1, 3600000UL, &v) != 0)
                return CLI_USAGE;
            if (c == OPT_HEADER_TIMEOUT)
                fc.header_ms = v;
            else
                fc.body_ms = v;
            break;
        case OPT_REQUEST_MEMORY:
            if (parse_ulong("--request-memory", optarg, 1, ULONG_MAX,
                            &request_memory) != 0)
                return CLI_USAGE;
            break;
        case OPT_QUOTIENT:
            if (nq == SERVE_QUOTIENTS)
                return cli_error("serve", "--quotient: more than %d files",
                                 SERVE_QUOTIENTS);
            qfiles[nq++] = optarg;
            break;
        case OPT_STORE:
            store_dir = optarg;
            break;
        case OPT_NO_STORE:
            no_store = 1;
            break;
        case '?':
        case ':':
            return cli_bad_option("serve", c, argv);
        default:
            switch (cli_limit_option("serve", c, optarg, &s.cfg.lim)) {
            case 1:
                break;
            case 0:
                return cli_error("serve", "unknown option (see --help)");
            default:
                return CLI_USAGE;
            }
        }
    }
    if (optind < argc)
        return cli_error("serve", "unexpected argument '%s' (see --help)",
                         argv[optind]);
    /* the quotients are checked before the server listens, with the
       library's limits (a check of Kayles' proved quotient is startup
       work, not a request's), raised by the operator's --max-search */
    bt_limits_default(&qlim);
    if (s.cfg.lim.max_search > qlim.max_search)
        qlim.max_search = s.cfg.lim.max_search;
    for (i = 0; i < nq; i++)
        if ((rc = cli_quotient_install("serve", qfiles[i], &qlim, NULL)) !=
            CLI_OK)
            return rc;
    /* the store's entries, checked the same way, in the slots left; a
       writable store only when asked for (--store, BOUTON_STORE) */
    if ((rc = cli_store_open(&store, "serve", store_dir, no_store, 0)) !=
        CLI_OK)
        return rc;
    (void)cli_store_use_all(&store, &qlim, SERVE_QUOTIENTS - nq);
    s.cfg.store = &store;
    rc = CLI_FAIL;
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);

        threads = n > 0 ? (unsigned long)n : 1;
        if (threads > 64)
            threads = 64;
    }
    if (compute == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);

        compute = n > 1 ? (unsigned long)n / 2 : 1;
        if (compute > 32)
            compute = 32;
    }
    pc.threads = (unsigned)compute;
    pc.slice_us = s.slice_us;
    fc.max_conn = (unsigned)maxconn;
    fc.max_body = s.cfg.max_body;
    fc.quiet = s.quiet;
    /*
     * Memory: --max-memory (the shared limit options) bounds the process;
     * every HTTP thread (in its slice) and every compute thread may hold
     * one request's budget at once, so that is its share by default.
     */
    s.cfg.max_memory = s.cfg.lim.max_memory;
    if (request_memory)
        s.cfg.lim.max_memory = request_memory;
    else if (s.cfg.max_memory)
        s.cfg.lim.max_memory = s.cfg.max_memory / (threads + compute);
    if (s.cfg.max_memory && s.cfg.lim.max_memory > s.cfg.max_memory)
        return cli_error("serve", "--request-memory: more than the "
                                  "--max-memory of the process");
    /* GMP out of memory in a request fails that request (503 ENOMEM),
       not the process (srv_gmp_out_of_memory); once the numbers lost so
       pass one request's memory, the server stops with status 1.  No
       thread runs yet. */
    srv_mem_install(); /* before the first JSON value */
    srv_gmp_install(s.cfg.lim.max_memory ? s.cfg.lim.max_memory
                                         : (unsigned long long)1 << 30,
                    oom_stop);

    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    gai = getaddrinfo(host, NULL, &hints, &ai);
    if (gai != 0 || !ai)
        return cli_error("serve", "--host '%s': %s", host,
                         gai ? gai_strerror(gai) : "no address");
    if (ai->ai_family == AF_INET)
        ((struct sockaddr_in *)ai->ai_addr)->sin_port =
            htons((unsigned short)port);
    else if (ai->ai_family == AF_INET6)
        ((struct sockaddr_in6 *)ai->ai_addr)->sin6_port =
            htons((unsigned short)port);

    {
        /* Room for three descriptors per connection (the client's, and
           the socket pair of its relay to the library) and a few more, if
           the soft limit is below that and the hard one allows it. */
        struct rlimit rl;
        rlim_t want = (rlim_t)maxconn * 3 + 64;

        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < want &&
            rl.rlim_cur < rl.rlim_max) {
            rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
            setrlimit(RLIMIT_NOFILE, &rl);
        }
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
            s.npeer = rl.rlim_cur < (rlim_t)1 << 20 ? (size_t)rl.rlim_cur
                                                    : (size_t)1 << 20;
        s.peer = calloc(s.npeer ? s.npeer : 1, sizeof *s.peer);
        if (!s.peer)
            s.npeer = 0;
    }
    if (assets_init(&s) != 0 || !(ips = srv_ipmap_new(maxconn))) {
        cli_error("serve", "out of memory");
        goto done;
    }

    /*
     * SIGINT and SIGTERM are blocked before any thread starts, so they
     * inherit the mask and only this thread, in sigwait(), takes them: no
     * work happens in a signal handler.
     */
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    /* One instance of the library per thread of the front, which runs it
       (external epoll mode: no thread of its own) right after passing it
       requests.  TURBO: read and write before asking epoll whether the
       socket is ready, saving a system call when it is (the common case
       under load); the sockets are non-blocking either way.  The front
       listens (server_front.c) and accepts (server_accept.c); the library
       gets each connection, through the relay (server_relay.c), once its
       first head is in. */
    flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG | MHD_USE_TURBO |
            MHD_USE_NO_LISTEN_SOCKET | MHD_ALLOW_SUSPEND_RESUME;
    s.daemons = calloc(threads, sizeof *s.daemons);
    if (!s.daemons) {
        cli_error("serve", "out of memory");
        goto done;
    }
    s.ndaemons = (unsigned)threads;
    for (k = 0; k < s.ndaemons; k++) {
        s.daemons[k] = MHD_start_daemon(
            flags, 0, NULL, NULL, answer, &s,
            MHD_OPTION_EXTERNAL_LOGGER, library_log, NULL, /* the first */
            MHD_OPTION_CONNECTION_LIMIT, (unsigned int)maxconn,
            /* the idle limit of a connection that does not read its
               answer; the front's deadlines cut those that do not send */
            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
            /* 16 KiB per connection for the request line and headers (the
               body comes in chunks; the front refuses heads over 8 KiB):
               libmicrohttpd clears this pool between the requests of a
               connection, so its size costs time on each. */
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
            MHD_OPTION_NOTIFY_COMPLETED, request_completed, &s,
            MHD_OPTION_NOTIFY_CONNECTION, conn_notify, &s,
            MHD_OPTION_END);
        if (!s.daemons[k]) {
            cli_error("serve", "cannot start the HTTP library: %s",
                      errno ? strerror(errno) : "libmicrohttpd failed");
            goto done;
        }
    }
    if (srv_pool_start(&s.pool, &pc, &s.cfg, ips, &s.cancel) != 0) {
        cli_error("serve", "cannot start the compute threads");
        goto done;
    }
    lib.workers = s.ndaemons;
    lib.fd = lib_fd;
    lib.deliver = lib_deliver;
    lib.run = lib_run;
    lib.ud = &s;
    if (srv_front_start(&s.front, &fc, ai->ai_addr, ai->ai_addrlen, ips,
                        &lib, &bound_port) != 0) {
        cli_error("serve", "cannot listen on %s port %lu: %s", host, port,
                  strerror(errno));
        goto done;
    }
    port = bound_port;
    snprintf(hostbuf, sizeof hostbuf, strchr(host, ':') ? "[%s]" : "%s",
             host);
    printf("bouton %s: serving http://%s:%lu/ (Ctrl-C stops)\n",
           bt_version_string(), hostbuf, port);
    fflush(stdout);

    if (sigwait(&stop, &sig) != 0)
        sig = 0;
    if (atomic_load(&oom_stopping)) {
        fprintf(stderr, "bouton serve: memory lost to out-of-memory "
                        "requests, stopping\n");
        rc = CLI_FAIL;
    } else {
        fprintf(stderr, "bouton serve: %s, stopping\n",
                sig == SIGINT    ? "SIGINT"
                : sig == SIGTERM ? "SIGTERM"
                                 : "signal");
        rc = CLI_OK;
    }
done:
    /* Stop every computation, then the threads that could start one:
       accept, compute (whose queued requests get 503), then the front's
       threads, each stopping its instance of the library after passing
       on its last answers. */
    atomic_store(&s.cancel, 1);
    srv_front_stop(s.front);
    srv_pool_stop(s.pool);
    srv_front_free(s.front);
    s.front = NULL;
    for (k = 0; k < s.ndaemons; k++)
        if (s.daemons[k]) /* the front did not start its thread */
            MHD_stop_daemon(s.daemons[k]);
    free(s.daemons);
    srv_ipmap_free(ips);
    assets_fini(&s);
    s.cfg.store = NULL;
    cli_store_close(&store);
    if (ai)
        freeaddrinfo(ai);
    return rc;
}

#endif /* BOUTON_SERVER */
