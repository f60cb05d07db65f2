/*
 * server_net.h -- what `bouton serve` puts around libmicrohttpd so that no
 * client can take more than its share (the resource model of docs/api.md):
 *
 *   server_front.c  the listening socket: accepts, counts connections per
 *                   client address, reads each new connection's first
 *                   request head (by peeking, so that the relay reads the
 *                   same bytes) under a deadline, answers a malformed one
 *                   itself with a JSON error, relays the rest to the HTTP
 *                   library through a socket pair, checking each later
 *                   request head and chunked framing of the connection the
 *                   same way, and cuts connections past their header or
 *                   body deadline; its relay threads run the instances of
 *                   the HTTP library themselves (srv_front_lib); with
 *                   server_accept.c (the accepting thread), server_relay.c
 *                   (the relay) and server_http.c (the checks of request
 *                   heads, the JSON errors), which server_front_impl.h
 *                   joins;
 *   server_pool.c   the compute pool: requests that do not finish within a
 *                   short slice on an HTTP (relay) thread run there, at a
 *                   lower CPU priority, behind a bounded queue and a
 *                   per-address limit of heavy requests.
 *
 * Neither knows libmicrohttpd: server.c connects them to it.
 */
#ifndef BOUTON_SERVER_NET_H
#define BOUTON_SERVER_NET_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <sys/socket.h>

#include "server.h"

/* --------------------------------------------------- per-address counts */

/* A client address: IPv4 as IPv4-mapped IPv6. */
typedef struct srv_ip {
    unsigned char a[16];
} srv_ip;

void srv_ip_from_sockaddr(srv_ip *ip, const struct sockaddr *sa);

enum { SRV_IP_CONNS, SRV_IP_HEAVY };

/* Counters per client address, safe to use from every thread. */
typedef struct srv_ipmap srv_ipmap;

/* A map for at most `capacity` addresses at once; NULL when out of memory. */
srv_ipmap *srv_ipmap_new(size_t capacity);
void srv_ipmap_free(srv_ipmap *m);
/*
 * Adds delta to counter `which` of ip.  A positive delta is refused (and
 * nothing changes) when the counter would pass max (0: no limit) or the map
 * is full; returns 0 when done, -1 when refused.
 */
int srv_ipmap_add(srv_ipmap *m, const srv_ip *ip, int which, int delta,
                  unsigned max);
/*
 * The share of the HTTP threads of ip (see srv_conn_slice_cost): counts a
 * slice, costly (at least half a slice) or not, and answers whether ip's
 * requests skip the slice now.  The share outlives ip's connections by
 * SRV_COSTLY_POOL_MS after its last costly slice, unless the map fills
 * with addresses that hold connections.
 */
void srv_ipmap_slice_cost(srv_ipmap *m, const srv_ip *ip, int costly);
int srv_ipmap_to_pool(srv_ipmap *m, const srv_ip *ip);

/* ----------------------------------------------------------------- pool */

/* One request run by the pool; lives in server.c's per-request state. */
typedef struct srv_job {
    const char *method, *path, *body;
    size_t len;
    srv_ip ip;
    const atomic_int *gone;         /* non-zero once its client has closed
                                       the connection (NULL: never) */
    srv_reply reply;                /* the answer, filled by the pool */
    void (*done)(struct srv_job *); /* called by the pool after reply */
    void *ud;                       /* for done */
    struct timespec due;            /* of a delayed refusal */
    struct srv_job *next;
} srv_job;

typedef struct srv_pool srv_pool;

typedef struct srv_pool_config {
    unsigned threads;          /* compute threads, at least 1 */
    size_t max_queue;          /* jobs waiting (not running) at most */
    unsigned max_heavy_per_ip; /* jobs queued or running per address */
    int nice;                  /* added to the threads' nice value */
    unsigned long slice_us;    /* the HTTP threads' slice: a request
                                  remembered heavy whose run here costs
                                  less than half of it is forgotten (0:
                                  never) */
} srv_pool_config;

/*
 * Starts the compute threads.  cfg is the server's (read-only, kept);
 * cancel, when it reads non-zero, stops the running computations.
 */
int srv_pool_start(srv_pool **out, const srv_pool_config *pc,
                   const srv_config *cfg, srv_ipmap *ips,
                   const atomic_int *cancel);
/*
 * Queues job.  Returns 0 (job->done will be called, from a compute thread),
 * or the HTTP status of a refusal with nothing queued: 429 (the address
 * has max_heavy_per_ip heavy requests already) or 503 (the queue is full,
 * or the pool is stopping).
 */
unsigned srv_pool_submit(srv_pool *p, srv_job *job);
/*
 * Calls job->done (whose reply the caller has filled with a refusal) after
 * a short delay, from another thread: a client that repeats a refused
 * heavy request waits rather than spins.
 */
void srv_pool_refuse(srv_pool *p, srv_job *job);
/* Answers the jobs still queued with 503 and joins the threads (the
   caller has set *cancel first); frees p. */
void srv_pool_stop(srv_pool *p);

/*
 * A small memory of requests that ran past their slice, by a hash of their
 * path and body: a client repeating a heavy request goes straight to the
 * pool's admission, without costing an HTTP thread a slice each time.
 */
uint64_t srv_request_hash(const char *path, const char *body, size_t len);
int srv_pool_known_heavy(srv_pool *p, uint64_t h);
void srv_pool_mark_heavy(srv_pool *p, uint64_t h);
/* Forgets h (when it is remembered): a request taken for heavy once, by a
   slice that overran in a moment of noise (a stall of the machine) or
   before a cache filled, whose run in the pool then cost less than half a
   slice; it would otherwise go to the pool for good, at its lower
   priority.  Called by the pool itself. */
void srv_pool_forget_heavy(srv_pool *p, uint64_t h);

/* ---------------------------------------------------------------- front */

typedef struct srv_front srv_front;
typedef struct srv_conn srv_conn;

typedef struct srv_front_config {
    unsigned max_conn;        /* connections open at once */
    unsigned max_conn_per_ip; /* connections of one address (0: no limit) */
    unsigned long header_ms;  /* a request head must be in within this */
    unsigned long body_ms;    /* a request body must be in within this */
    size_t max_body;          /* an announced body past it: 413 */
    int quiet;                /* no log line for the answers it makes */
} srv_front_config;

/*
 * What the front needs of the HTTP library: `workers` instances of it,
 * each run by one relay thread of the front, which relays its share of
 * the connections (round robin) to it and runs it without blocking right
 * after passing on requests, so that no request crosses a thread.
 *   fd(ud, k)          a descriptor that becomes readable when instance k
 *                      has work (its own event set, its wake-ups);
 *   deliver(ud, k, fd, sa, len)  hands over a connection whose first
 *                      request head is complete and valid: fd is the
 *                      library's end of a socket pair through which the
 *                      front relays the client's connection (sa: the
 *                      client's address), checking every later request
 *                      head the same way; deliver owns fd from then on and
 *                      returns 0, or -1 when it could not take it (fd is
 *                      closed either way);
 *   run(ud, k, stop)   lets instance k do what it can without blocking,
 *                      and returns 1 when it has work left that its fd
 *                      will not announce (run it again soon), else 0;
 *                      with stop, then stops it (closing its connections).
 * All three are called from worker k's thread only.
 */
typedef struct srv_front_lib {
    unsigned workers;
    int (*fd)(void *ud, unsigned k);
    int (*deliver)(void *ud, unsigned k, int fd, const struct sockaddr *sa,
                   socklen_t len);
    int (*run)(void *ud, unsigned k, int stop);
    void *ud;
} srv_front_lib;

/* Listens on addr (port 0: a free one, written to *port) and starts the
   front's threads (lib is copied). */
int srv_front_start(srv_front **out, const srv_front_config *fc,
                    const struct sockaddr *addr, socklen_t addrlen,
                    srv_ipmap *ips, const srv_front_lib *lib,
                    unsigned *port);
/* Stops accepting connections and closes those that have not sent their
   first head; the relayed ones go on until srv_front_free (and the
   srv_conn functions below work until then). */
void srv_front_stop(srv_front *f);
/* After the compute pool has stopped: runs each instance of the library
   once more and stops it, passes on its last answers (within half a
   second), stops the front's threads, closes every connection, frees f.
   An instance whose thread never started is the caller's to stop. */
void srv_front_free(srv_front *f);

/*
 * The connections the HTTP library holds, for their deadlines: open when it
 * starts one (fd: its end of the relay's socket pair; ip: the client's
 * address; NULL when out of memory), close when it ends it.
 */
srv_conn *srv_conn_open(srv_front *f, int fd, const srv_ip *ip);
void srv_conn_close(srv_front *f, srv_conn *c);
enum { SRV_DEADLINE_NONE, SRV_DEADLINE_HEADER, SRV_DEADLINE_BODY };
/*
 * Sets c's deadline: none, or now plus the header or body timeout.  The
 * header deadline is set after an answer: c is idle from then on (until
 * another deadline is set), and when the server is at its connection
 * limit the connection idle the longest is shut down to make room for a
 * new client.
 */
void srv_conn_deadline(srv_front *f, srv_conn *c, int which);
/* A flag that reads non-zero once c's client has closed its connection
   (or the relay ended it): a request of c still queued or computing is
   abandoned.  Valid until srv_conn_close(c); NULL when c is NULL. */
const atomic_int *srv_conn_gone(const srv_conn *c);

/*
 * A share of the HTTP threads per client address.  A request that ends
 * inside its slice costs its thread up to a slice, and a client sending
 * such requests back to back (each refused 422 just before its slice ends:
 * bench/README.md, fairness case 6b) holds the thread as a heavy request
 * would, while never being remembered as heavy.  srv_conn_slice_cost
 * counts what each slice of c cost (thread CPU) against c's address
 * (srv_ipmap_slice_cost); after SRV_COSTLY_SLICES in a row of at least
 * half a slice, the address's requests, on every connection, new ones
 * included, skip the slice for SRV_COSTLY_POOL_MS (srv_conn_to_pool) and
 * go to the compute pool, with its lower priority and per-address cap.  A
 * lighter slice starts the count again.  Per address, not per connection:
 * a client opening a connection for each request would otherwise get a
 * fresh slice each time.  Called from c's HTTP thread.
 */
#define SRV_COSTLY_SLICES 2
#define SRV_COSTLY_POOL_MS 1000
int srv_conn_to_pool(const srv_conn *c);
void srv_conn_slice_cost(srv_conn *c, unsigned long used_us,
                         unsigned long slice_us);

/*
 * Checks the head of a request (request line and header fields, ending
 * with its blank line) as the front and the server see it.  Returns 0 when
 * it is acceptable, else the HTTP status of the answer with *code (static)
 * and msg filled: 400 (malformed, conflicting or invalid Content-Length,
 * HTTP/1.1 without Host, both Content-Length and Transfer-Encoding), 413
 * (announced body over max_body), 414 (request line too long), 431 (head
 * too long), 501 (a Transfer-Encoding other than chunked), 505 (an HTTP
 * version other than 1.0 and 1.1).
 */
#define SRV_MAX_LINE 4096
#define SRV_MAX_HEAD 8192
unsigned srv_check_head(const char *head, size_t n, size_t max_body,
                        const char **code, char *msg, size_t msgsize);

/* Writes a complete HTTP/1.1 JSON error answer for status to fd, best
   effort, with Connection: close. */
void srv_send_error(int fd, unsigned status, const char *code,
                    const char *msg);

#endif
