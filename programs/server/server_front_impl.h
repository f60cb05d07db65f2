/*
 * server_front_impl.h -- what the files of the front of `bouton serve`
 * share, behind server_net.h (whose srv_front_*, srv_conn_*,
 * srv_check_head and srv_send_error they implement):
 *
 *   server_front.c   the workers' threads and their loop, the front's
 *                    start and stop, the handing over of connections, the
 *                    runs of the library's instances, and srv_conn_*
 *   server_accept.c  the accepting thread (worker 0): the connections
 *                    until their first head (pending), the limits, the
 *                    refusals, the header and body deadlines
 *   server_relay.c   a connection relayed to the library, every later
 *                    request head and chunk line checked
 *   server_http.c    the checks of request heads and their framing, the
 *                    JSON error answers: functions of bytes alone
 *
 * Each calls only the files below it in this list (server_http.c none of
 * them), and all share the state declared here: a worker, the front, the
 * library's connections (srv_conn) and the relays.
 */
#ifndef BOUTON_SERVER_FRONT_IMPL_H
#define BOUTON_SERVER_FRONT_IMPL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <time.h>

#include <sys/socket.h>

#include "server_net.h"

/* Milliseconds of CLOCK_MONOTONIC. */
static inline long long
srv_now_ms(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

#define SRV_ERROR_MAX 1024 /* an error answer: head and JSON body */
#define SRV_DRAIN_SIZE 65536
#define SRV_LINGER_MS 2000
#define SRV_RELAY_IN (SRV_MAX_HEAD + 1 + 8192)
#define SRV_RELAY_OUT 16384

/* What an epoll event of a worker names (data.ptr) begins with this tag. */
enum {
    SRV_TAG_PENDING, /* a pending: its tag field is zero from calloc */
    SRV_TAG_CLIENT,  /* the client's end of a relay */
    SRV_TAG_LIB      /* the library's end of a relay */
};

/* A connection of the accepting thread (server_accept.c). */
typedef struct srv_pending srv_pending;

/*
 * A connection the HTTP library holds.  Its fields are the accepting
 * thread's (under srv_front.mu) and its relay's (the worker that runs its
 * instance of the library, which opens and closes it): relay links the two
 * and is touched by that worker only.
 */
struct srv_conn {
    int fd;
    _Atomic long long deadline; /* ms of CLOCK_MONOTONIC; 0: none */
    _Atomic long long idle;     /* since when (us) it waits for its next
                                   head, its answers all given; 0: busy */
    atomic_int gone;            /* its client closed the connection */
    int evicted;                /* shut down to make room (under mu) */
    srv_ipmap *ips; /* the front's: its address's share of the HTTP
                       threads (srv_conn_slice_cost) */
    srv_ip ip;
    struct srv_relay *relay;
    srv_conn *prev, *next;
};

/* A connection with a valid first head, on its way from the accepting
   thread to the worker that relays it. */
typedef struct srv_handoff {
    int fd;
    int counted;
    srv_ip ip;
    struct sockaddr_storage sa;
    socklen_t salen;
    struct srv_handoff *next;
} srv_handoff;

typedef struct srv_relay_end {
    unsigned char tag;
    struct srv_relay *r;
} srv_relay_end;

typedef struct srv_relay {
    srv_relay_end ec, em;
    int cfd, mfd;      /* client; library (-1 once it closed) */
    unsigned evc, evm; /* the epoll events asked for each */
    int c_eof;         /* the client sent its FIN */
    int m_shut;        /* the library's direction is shut */
    int lingering;     /* answered and shut; draining the client */
    int dead;          /* ended; freed after the current batch of events */
    int kicked;        /* on its worker's kick list */
    long long deadline;
    /* client -> library: in[0, sent) written, [sent, fwd) passed the
       checks, [fwd, in_len) still being parsed */
    char in[SRV_RELAY_IN];
    size_t in_len, sent, fwd;
    int st;
    unsigned long long left;  /* of a body or of a chunk */
    unsigned long long total; /* chunked body so far */
    unsigned digits, line;    /* of a chunk size; of a chunk line */
    size_t head_len;          /* of the request's head */
    size_t trailer;           /* bytes of its trailer fields so far */
    int lfd;                  /* the library's end, as it knows it */
    srv_conn *sc;             /* the library's record of it, or NULL */
    /* library -> client */
    char out[SRV_RELAY_OUT];
    size_t out_len, out_off;
    /* the refusal, once the library's answers are all out */
    unsigned err;
    char err_buf[SRV_ERROR_MAX];
    size_t err_len, err_off;
    struct srv_relay *prev, *next, *kick_next;
} srv_relay;

/*
 * A relay thread: its own epoll set, its connections, and its instance of
 * the HTTP library, which it runs itself (srv_front_lib.run) right after
 * passing on requests, so that a request and its answer cross no thread.
 * Worker 0 is also the accepting thread (the pending connections, the
 * listening socket, the deadlines of the library's connections).
 */
typedef struct srv_worker {
    srv_front *f;
    unsigned k;
    int epfd, wake[2], libfd;
    pthread_t thread;
    int started;
    int lib_due;     /* bytes went to the library since it last ran */
    int lib_stopped; /* its instance of the library is stopped */
    long long exit_by;
    struct srv_relay *relays;   /* the connections relayed to the library */
    struct srv_relay *dead;     /* ended, to be freed after the batch of
                                   events */
    struct srv_relay *kick;     /* forwarded to the library in this batch */
    struct srv_relay *starting; /* being delivered to the library */
    pthread_mutex_t mu;         /* guards queue */
    srv_handoff *queue;
    char drain[SRV_DRAIN_SIZE];
} srv_worker;

struct srv_front {
    srv_front_config fc;
    srv_front_lib lib;
    srv_ipmap *ips;
    int lfd;
    atomic_int open; /* connections held here (counted) and by the library */
    atomic_int evicting; /* of those, idle ones shut down to make room and
                            not yet closed by the library */
    srv_pending *head, *tail;
    srv_pending *dead;      /* closed in this batch of events, to be freed */
    size_t npending, nlinger;
    unsigned next;      /* the worker of the next connection */
    pthread_mutex_t mu; /* guards conns */
    srv_conn *conns;
    unsigned nw;
    srv_worker *w; /* nw of them */
    char buf[SRV_MAX_HEAD + 2];
};

/* ---------------------------------------------------------- server_http.c */

/* Writes the whole JSON error answer for status into buf; returns its
   length, or 0 when it does not fit. */
size_t srv_format_error(char *buf, size_t size, unsigned status,
                        const char *code, const char *msg);
/* The length of the head at the start of b[0, n) (with the empty lines
   before its request line and its blank line), or 0 while incomplete. */
size_t srv_head_end(const char *b, size_t n);
/* The body framing of a head that srv_check_head() accepted: *chunked, or
   the Content-Length (0 when none). */
unsigned long long srv_head_body(const char *head, size_t n, int *chunked);
/* Whether a valid head (srv_check_head) announces a chunked body. */
int srv_is_chunked(const char *head, const char *end);
/* Checks the chunked framing of the part of a body that arrived with its
   head: 0 when valid as far as it goes, -1 at the first error. */
int srv_check_chunks(const char *p, const char *end);

/* --------------------------------------------------------- server_relay.c */

/* Reads and drops what the client has sent; returns 1 when it closed. */
int srv_drain(char *buf, int fd);
/* Starts relaying fd, a connection whose first head has passed the checks,
   and hands the other end of the pair to the library; 0, or -1 (fd left
   open) when it could not start. */
int srv_relay_start(srv_worker *w, int fd, const struct sockaddr *sa,
                    socklen_t salen);
/* Does what can be done on r without blocking, after an event on one of
   its ends (which: SRV_TAG_CLIENT or SRV_TAG_LIB). */
void srv_relay_io(srv_worker *w, srv_relay *r, int which, unsigned events);
/* Ends r: its descriptors close now, its memory with srv_relays_reap(),
   after the current batch of epoll events (which may still name it). */
void srv_relay_free(srv_worker *w, srv_relay *r);
void srv_relays_reap(srv_worker *w);
/* Whether a relay of w still has answers of the library to pass on. */
int srv_relays_busy(const srv_worker *w);

/* -------------------------------------------------------- server_accept.c */

/* Gives back a connection's place in the per-address and total counts. */
void srv_release(srv_front *f, const srv_ip *ip);
/* Accepts the connections waiting on the listening socket. */
void srv_accept_all(srv_front *f);
/* An event of pending connection pc (events 0: read it anyway). */
void srv_on_readable(srv_front *f, srv_pending *pc, unsigned events);
/* Closes pc; it is freed with srv_pendings_reap(), after the current batch
   of epoll events (which may still name it). */
void srv_close_pending(srv_front *f, srv_pending *pc);
void srv_pendings_reap(srv_front *f);
/* The pending connections and the deadlines of the library's. */
void srv_sweep(srv_front *f, long long now);

#endif
