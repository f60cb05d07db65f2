/*
 * server.h -- the HTTP API of `bouton serve`, apart from HTTP itself.
 *
 * server_api*.c turn one request (method, path, body) into one reply
 * (status, JSON body) with no knowledge of sockets or libmicrohttpd, so the
 * same code runs under the server (server.c), the API tests and the fuzzer
 * (tests/fuzz/fuzz_request.c).  The JSON of every answer is built by json.c,
 * the same code as the CLI's --json, so the two cannot drift apart.
 */
#ifndef BOUTON_SERVER_H
#define BOUTON_SERVER_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <time.h>

#include <jansson.h>

#include <bouton.h>

/* The limits of one server; see srv_config_default() for the defaults. */
typedef struct srv_config {
    bt_limits lim;     /* the library's limits; interrupt is set per request */
    size_t max_body;   /* bytes of a request body */
    size_t max_page;   /* rows of one page of /v1/table */
    size_t max_values; /* numbers in one answer of /v1/grundy */
    unsigned long budget_ms; /* time for one request; 0: unlimited */
    size_t max_memory; /* bytes of the whole process (--max-memory); the
                          budget of one request is lim.max_memory */
    struct cli_store *store; /* where proved quotients are kept; NULL:
                                nowhere */
} srv_config;

/* The server's defaults (documented in docs/api.md and `serve --help`). */
#define SRV_DEFAULT_MAX_BODY ((size_t)1 << 20)
#define SRV_DEFAULT_MAX_COMPONENTS ((size_t)100000)
#define SRV_DEFAULT_MAX_DIGITS ((size_t)200000)
#define SRV_DEFAULT_MAX_SEARCH ((size_t)200000)
#define SRV_DEFAULT_MAX_GRUNDY ((size_t)1 << 22)
#define SRV_DEFAULT_MAX_TABLE_PILES ((size_t)64)
#define SRV_DEFAULT_MAX_PAGE ((size_t)1000)
#define SRV_DEFAULT_MAX_VALUES ((size_t)100000)
#define SRV_DEFAULT_BUDGET_MS 2000UL

/* Fills *cfg with the defaults above. */
void srv_config_default(srv_config *cfg);

/* One answer: an HTTP status and a JSON body. */
typedef struct srv_reply {
    unsigned status;   /* 200, 400, 404, 405, 413, 422, 501, 503 */
    char *body;        /* malloc'd JSON text ending in a newline */
    size_t size;       /* bytes of body */
    const char *allow; /* the methods of the Allow header of a 405, or NULL */
    int is_static;     /* body is a static text, not to be freed */
} srv_reply;

/* Releases r->body (unless it is static). */
void srv_reply_free(srv_reply *r);

/*
 * A failed request: the HTTP status, the code ("EPARSE"), a one-line
 * message, and the 1-based column in a position text when one is at fault
 * (0: none).
 */
typedef struct srv_error {
    unsigned http;
    const char *code;
    char message[320];
    size_t column;
} srv_error;

/* Fills r with the JSON error answer for e; always succeeds (a static text
   stands in when memory runs out). */
void srv_reply_error(srv_reply *r, const srv_error *e);
/* The same for an HTTP status, a code and a printf-style message (the
   answers of the server's own refusals: busy, too large, bad HTTP). */
void srv_reply_errorf(srv_reply *r, unsigned http, const char *code,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void srv_reply_verrorf(srv_reply *r, unsigned http, const char *code,
                       const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 0)))
#endif
    ;
/* Sets e and returns -1: a printf-style message with an HTTP status and a
   code of HTTP's own (404 ENOTFOUND, 405 EMETHOD, 413 ELIMIT...).  A
   failure of the library's statuses is srv_fail() of server_api.h, whose
   HTTP status comes from the one map (srv_http_status). */
int srv_fail_http(srv_error *e, unsigned http, const char *code,
                  const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/*
 * Parses a request body: a JSON object of at most cfg->max_body bytes.
 * Returns it (the caller releases it) or NULL with e filled.
 */
json_t *srv_parse_body(const char *body, size_t len, const srv_config *cfg,
                       srv_error *e);

/*
 * The position of a request object: its "position" member, either a text
 * in the position language or an array of components (see docs/api.md),
 * with "game" (default "nim") the game of terms and numbers that name none.
 * Returns 0 with *out set, or -1 with e filled (and *out NULL).
 */
int srv_parse_position(bt_position **out, json_t *req, const bt_limits *lim,
                       srv_error *e);

/* Whether the route table and the table of operations name the same
   endpoints with the same methods: 0, else -1 with the first difference
   in err (`serve` checks it before it listens). */
int srv_routes_check(char *err, size_t size);

/*
 * Handles one request to the API: method "GET"/"POST"/..., path beginning
 * with "/v1/", body the request body (may be NULL when len is 0).  Always
 * fills r.  The time budget starts when it is called.
 */
void srv_handle(srv_reply *r, const srv_config *cfg, const char *method,
                const char *path, const char *body, size_t len);

/*
 * How the server's scheduler (server_pool.c) may stop one run of a request
 * early.  The computation polls it through bt_limits.interrupt, with the
 * time budget:
 *   - cancel: when it reads non-zero (the server is stopping), the run stops
 *     and sets cancelled;
 *   - gone: the same for a request whose client went away (abandoned);
 *   - slice_end: when slice is set, the run stops when the calling
 *     thread's CPU time (CLOCK_THREAD_CPUTIME_ID, so that time the thread
 *     spends preempted does not count) reaches it, and sets sliced: the
 *     request did not finish within its slice on the HTTP thread, and its
 *     answer (whatever it is) is to be discarded and the request run again
 *     in the compute pool.
 */
typedef struct srv_run {
    const atomic_int *cancel;
    const atomic_int *gone; /* when it reads non-zero (the client closed its
                               connection), the run stops and sets
                               abandoned; NULL: never */
    int slice;
    struct timespec slice_end;
    int sliced;    /* out */
    int cancelled; /* out */
    int abandoned; /* out */
} srv_run;

/*
 * The server's on_failure of bt_gmp_install_allocators(): GMP's allocation
 * failed (the process is out of memory, or RLIMIT_AS).  On a thread inside
 * srv_handle_run() it does not return: it unwinds (siglongjmp) to that
 * request's entry, which answers 503 ENOMEM and logs one line; what the
 * request held is leaked, and its objects are never touched again.
 * Elsewhere it returns, and the library prints its line and exits.
 */
void srv_gmp_out_of_memory(size_t bytes, void *ud);
/*
 * Installs GMP's allocators for the server, before any thread starts: the
 * library's (bt_gmp_install_allocators with srv_gmp_out_of_memory),
 * wrapped to count the bytes of each request's numbers, which are the
 * bytes lost when it is unwound.  Once more than lost_max bytes (0: no
 * limit) are lost so, stop() is called (once per unwinding past it) so
 * that the server stops, to be restarted, rather than run on with less and
 * less memory.
 */
void srv_gmp_install(unsigned long long lost_max, void (*stop)(void));
/* The requests unwound so far by srv_gmp_out_of_memory(). */
unsigned long srv_oom_unwound(void);

/*
 * The server's own allocations (server_api_mem.c), charged to the request
 * the calling thread is handling: srv_malloc() fails (NULL) when the block
 * would take the request's meter past its cap, and the meter then refuses
 * every later block; srv_free() releases a block of srv_malloc() on any
 * thread (NULL: nothing), giving its bytes back to the meter that charged
 * it only on that meter's thread while it lasts.  srv_mem_install() makes
 * them jansson's allocators (json_set_alloc_funcs), before the first JSON
 * value is made, so that the JSON of every request is charged.
 */
void *srv_malloc(size_t n);
void srv_free(void *p);
void srv_mem_install(void);
/* Starts the calling thread's meter for one request, with a cap of `cap`
   bytes (0: none); srv_handle_run() does so with the request's
   bt_limits.max_memory.  srv_meter_end() stops it and returns whether it
   refused a block. */
void srv_meter_begin(size_t cap);
int srv_meter_end(void);

/* srv_handle() under run's control (NULL: as srv_handle). */
void srv_handle_run(srv_reply *r, const srv_config *cfg, srv_run *run,
                    const char *method, const char *path, const char *body,
                    size_t len);

#endif
