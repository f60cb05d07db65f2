/*
 * server_api.h -- what the files of the HTTP API share, behind server.h:
 *
 *   server_api.c          the route table, srv_handle, the time budget,
 *                         errors and answers (the status -> HTTP map)
 *   server_api_request.c  reading a request: its members, their types and
 *                         bounds, games and positions
 *   server_api_play.c     the endpoints on positions: analyze, parse,
 *                         move, moves, record
 *   server_api_tables.c   the endpoints on tables and sequences: table,
 *                         count, grundy, pair, quotient, nimber
 *
 * An endpoint reads its request with the srv_get_* functions, calls the
 * library, and ends with srv_answer(), which maps a failed status to its
 * HTTP answer (srv_http_status, the one map) or takes the JSON built by
 * json.c.
 */
#ifndef BOUTON_SERVER_API_H
#define BOUTON_SERVER_API_H

#include <stdint.h>

#include "cli.h"
#include "ops.h"
#include "optable.h"
#include "server.h"

#if defined(__GNUC__)
#define SRV_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SRV_PRINTF(f, a)
#endif

/* ------------------------------------------------------------------ errors */

/* The HTTP status of a library status: the client's fault is 4xx, a
   machine out of memory 503, anything else (a bug of ours) 500. */
unsigned srv_http_status(bt_status st);

/* Sets e to a failure of status st (its HTTP status and its name as the
   code) with a printf-style message; returns -1. */
int srv_fail(srv_error *e, bt_status st, const char *fmt, ...)
    SRV_PRINTF(3, 4);

/* Sets e from a library failure: diag's message (or the status's
   description), after "what: " when what is not NULL; returns -1. */
int srv_fail_status(srv_error *e, bt_status st, const bt_diag *diag,
                    const char *what);

/* Puts a printf-style prefix and ": " before e's message; returns -1. */
int srv_prefix_error(srv_error *e, const char *fmt, ...) SRV_PRINTF(2, 3);

/*
 * The end of an endpoint: st and diag are what the library answered, v
 * the JSON built from its result (only when st is BT_OK; NULL there means
 * memory ran out).  Sets *out to v and returns 0, or fills e and returns
 * -1 (releasing v).
 */
int srv_answer(json_t **out, srv_error *e, bt_status st, const bt_diag *diag,
               json_t *v);

/* ---------------------------------------------------------- request fields */

/* Each returns 0, or -1 with e filled.  A member that is absent or null
   takes its default. */

/* Rejects members of req not named in `allowed` (NULL-terminated): a typo
   in a field name must not pass silently for its default. */
int srv_check_members(json_t *req, const char *const *allowed, srv_error *e);
/* Rejects members of req that the table of operations (optable.h) does
   not give the endpoint `route` in its variant (NULL: any variant): the
   members an endpoint accepts are the table's, written once. */
int srv_check_op(json_t *req, const char *route, const char *variant,
                 srv_error *e);
/* A boolean member (*out is dflt also on failure). */
int srv_get_bool(json_t *req, const char *key, int dflt, int *out,
                 srv_error *e);
/* A string member (*out is dflt also on failure). */
int srv_get_string(json_t *req, const char *key, const char *dflt,
                   const char **out, srv_error *e);
/* A bounded count (piles, page size) from a JSON integer or digit string,
   in [min, max] (ELIMIT above max, EINVAL below min). */
int srv_get_size(json_t *req, const char *key, size_t dflt, size_t min,
                 size_t max, size_t *out, srv_error *e);
/* A required non-negative integer of any size (a decimal string or a JSON
   integer). */
int srv_get_mpz(json_t *req, const char *key, mpz_t out,
                const bt_limits *lim, srv_error *e);
/* The optional "seed": a uint64 from a JSON integer or decimal string
   (default 1, as the CLI's --seed). */
int srv_get_seed(json_t *req, uint64_t *out, srv_error *e);
/* The game named by spec ("game: ..." in a failure's message). */
int srv_new_game(bt_game **out, const char *spec, srv_error *e);

/* ------------------------------------------------------------- endpoints */

/* An endpoint: fills *out with its answer, or e; returns 0 or -1. */
typedef int (*srv_endpoint)(json_t **out, json_t *req, const srv_config *cfg,
                            const bt_limits *lim, srv_error *e);

#define SRV_ENDPOINT(name)                                                 \
    int name(json_t **out, json_t *req, const srv_config *cfg,             \
             const bt_limits *lim, srv_error *e)

SRV_ENDPOINT(api_analyze);
SRV_ENDPOINT(api_parse);
SRV_ENDPOINT(api_move);
SRV_ENDPOINT(api_moves);
SRV_ENDPOINT(api_record);
SRV_ENDPOINT(api_table);
SRV_ENDPOINT(api_count);
SRV_ENDPOINT(api_grundy);
SRV_ENDPOINT(api_pair);
SRV_ENDPOINT(api_quotient);
SRV_ENDPOINT(api_nimber);

#endif
