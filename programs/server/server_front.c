/*
 * server_front.c -- the listening socket of `bouton serve` (see
 * server_net.h and the resource model in docs/api.md).
 *
 * One thread (worker 0) accepts every connection and holds it until its
 * first request head is complete, reading it with MSG_PEEK so that the
 * relay later reads the same bytes.  Holding a connection costs an entry
 * in a list and no thread, so a thousand clients that trickle their
 * headers (slowloris) cost little, and each is cut at its header deadline;
 * when the connection limit is reached the oldest of them makes room for
 * the newcomer, so a client that sends its request at once is always
 * served.  A head that is malformed, too long, or announces what the
 * server will not read is answered here, with the same JSON errors as the
 * API.  The same thread enforces the header and body deadlines of the
 * connections the HTTP library holds, by shutting their sockets down.
 *
 * A connection with a valid first head goes to one of the workers (round
 * robin; worker 0 is one of them), which relays it to its own instance of
 * the HTTP library and runs that instance itself: a request is read from
 * the client, checked, passed on, answered by the library and the answer
 * sent back, all in one thread and one turn of its event loop.
 */
#define _GNU_SOURCE /* accept4 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "server_net.h"

#ifdef BOUTON_SERVER

/* --------------------------------------------------------- request heads */

static int
is_tchar(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static int
name_is(const char *s, size_t n, const char *name)
{
    size_t i;

    if (strlen(name) != n)
        return 0;
    for (i = 0; i < n; i++) {
        char c = s[i];

        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != name[i])
            return 0;
    }
    return 1;
}

static unsigned
bad(const char **code, char *msg, size_t size, unsigned status,
    const char *c, const char *text)
{
    *code = c;
    snprintf(msg, size, "%s", text);
    return status;
}

unsigned
srv_check_head(const char *head, size_t n, size_t max_body,
               const char **code, char *msg, size_t msgsize)
{
    const char *p = head, *end = head + n, *eol, *sp1, *sp2;
    int minor, major, hosts = 0, tes = 0, lens = 0;
    unsigned long long clen = 0;

    while (p < end && (*p == '\r' || *p == '\n'))
        p++; /* empty lines before a request are ignored (RFC 9112 2.2) */
    eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
        return n > SRV_MAX_LINE
                   ? bad(code, msg, msgsize, 414, "ELIMIT",
                         "the request line is over the limit of 4096 bytes")
                   : bad(code, msg, msgsize, 400, "EHTTP",
                         "the request line does not end");
    if ((size_t)(eol - p) > SRV_MAX_LINE)
        return bad(code, msg, msgsize, 414, "ELIMIT",
                   "the request line is over the limit of 4096 bytes");
    if (n > SRV_MAX_HEAD)
        return bad(code, msg, msgsize, 431, "ELIMIT",
                   "the request head is over the limit of 8192 bytes");
    /* method SP target SP HTTP/d.d */
    for (sp1 = p; sp1 < eol && is_tchar((unsigned char)*sp1); sp1++)
        ;
    if (sp1 == p || sp1 >= eol || *sp1 != ' ')
        return bad(code, msg, msgsize, 400, "EHTTP",
                   "malformed request line (expected: METHOD TARGET "
                   "HTTP/1.1)");
    for (sp2 = sp1 + 1; sp2 < eol && (unsigned char)*sp2 > ' ' &&
                        *sp2 != 0x7f;
         sp2++)
        ;
    if (sp2 == sp1 + 1 || sp2 >= eol || *sp2 != ' ')
        return bad(code, msg, msgsize, 400, "EHTTP",
                   "malformed request line (expected: METHOD TARGET "
                   "HTTP/1.1)");
    {
        const char *v = sp2 + 1;
        size_t vl = (size_t)(eol - v);

        if (vl && v[vl - 1] == '\r')
            vl--;
        if (vl != 8 || memcmp(v, "HTTP/", 5) != 0 || v[5] < '0' ||
            v[5] > '9' || v[6] != '.' || v[7] < '0' || v[7] > '9')
            return bad(code, msg, msgsize, 400, "EHTTP",
                       "malformed HTTP version in the request line");
        major = v[5] - '0';
        minor = v[7] - '0';
        if (major != 1 || minor > 1)
            return bad(code, msg, msgsize, 505, "EHTTPVERSION",
                       "this server speaks HTTP/1.0 and HTTP/1.1 only");
    }
    /* header fields, up to the blank line */
    for (p = eol + 1; p < end; p = eol + 1) {
        const char *colon, *v, *ve;
        size_t len;

        eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        len = (size_t)(eol - p);
        if (len && p[len - 1] == '\r')
            len--;
        if (len == 0)
            break; /* the blank line */
        if (*p == ' ' || *p == '\t')
            return bad(code, msg, msgsize, 400, "EHTTP",
                       "a header line folded onto the next (obsolete)");
        colon = memchr(p, ':', len);
        if (!colon)
            return bad(code, msg, msgsize, 400, "EHTTP",
                       "a header line without a colon");
        for (v = p; v < colon && is_tchar((unsigned char)*v); v++)
            ;
        if (v == p || v != colon)
            return bad(code, msg, msgsize, 400, "EHTTP",
                       "a header name with a character not allowed");
        for (v = colon + 1; v < p + len && (*v == ' ' || *v == '\t'); v++)
            ;
        for (ve = p + len; ve > v && (ve[-1] == ' ' || ve[-1] == '\t'); ve--)
            ;
        {
            const char *q;

            for (q = v; q < ve; q++)
                if (((unsigned char)*q < ' ' && *q != '\t') || *q == 0x7f)
                    return bad(code, msg, msgsize, 400, "EHTTP",
                               "a control character in a header value");
        }
        if (name_is(p, (size_t)(colon - p), "host")) {
            hosts++;
        } else if (name_is(p, (size_t)(colon - p), "transfer-encoding")) {
            tes++;
            if (!name_is(v, (size_t)(ve - v), "chunked"))
                return bad(code, msg, msgsize, 501, "ENOTIMPL",
                           "Transfer-Encoding other than chunked is not "
                           "implemented");
        } else if (name_is(p, (size_t)(colon - p), "content-length")) {
            unsigned long long x = 0;
            const char *q;
            int digits = 0;

            for (q = v; q < ve; q++, digits++) {
                if (*q < '0' || *q > '9')
                    return bad(code, msg, msgsize, 400, "EHTTP",
                               "Content-Length is not a decimal number");
                if (digits < 19)
                    x = x * 10 + (unsigned long long)(*q - '0');
                else
                    x = ~0ULL; /* past 10^19: over any limit */
            }
            if (!digits)
                return bad(code, msg, msgsize, 400, "EHTTP",
                           "Content-Length is empty");
            if (lens++ && x != clen)
                return bad(code, msg, msgsize, 400, "EHTTP",
                           "two Content-Length headers that differ");
            clen = x;
        }
    }
    if (tes > 1)
        return bad(code, msg, msgsize, 400, "EHTTP",
                   "more than one Transfer-Encoding header");
    if (tes && lens)
        return bad(code, msg, msgsize, 400, "EHTTP",
                   "both Content-Length and Transfer-Encoding");
    if (hosts > 1)
        return bad(code, msg, msgsize, 400, "EHTTP",
                   "more than one Host header");
    if (!hosts && minor == 1)
        return bad(code, msg, msgsize, 400, "EHTTP",
                   "an HTTP/1.1 request without a Host header");
    if (lens && clen > max_body) {
        *code = "ELIMIT";
        snprintf(msg, msgsize,
                 "request body of %s bytes is over the limit of %zu bytes",
                 clen == ~0ULL ? "more than 10^19" : "that many", max_body);
        if (clen != ~0ULL)
            snprintf(msg, msgsize,
                     "request body of %llu bytes is over the limit of %zu "
                     "bytes",
                     clen, max_body);
        return 413;
    }
    return 0;
}

/* Steps *pp over the end of a line (CR LF, or a bare LF): 1, or 0 when
   the input ends first, or -1 when anything else stands there. */
static int
line_end(const char **pp, const char *end)
{
    const char *p = *pp;

    if (p < end && *p == '\r')
        p++;
    if (p == end)
        return 0;
    if (*p != '\n')
        return -1;
    *pp = p + 1;
    return 1;
}

/*
 * Checks the chunked framing (RFC 9112 7.1) of the part of a body that has
 * arrived with its head: 0 when it is valid as far as it goes, -1 at the
 * first error.  What arrives later is the HTTP library's to check.
 */
static int
check_chunks(const char *p, const char *end)
{
    while (p < end) {
        unsigned long long size = 0;
        int digits = 0, r;

        for (; p < end && strchr("0123456789abcdefABCDEF", *p) && *p;
             p++, digits++) {
            int d = *p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10;

            if (digits >= 15)
                return -1; /* a chunk of 2^60 bytes is not a body */
            size = size * 16 + (unsigned long long)d;
        }
        if (p == end)
            return 0;
        if (!digits)
            return -1;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p < end && *p == ';') /* chunk extensions, ignored */
            while (p < end && *p != '\r' && *p != '\n') {
                if ((unsigned char)*p < ' ' && *p != '\t')
                    return -1;
                p++;
            }
        if ((r = line_end(&p, end)) <= 0)
            return r;
        if (size == 0)
            return 0; /* the last chunk; trailers follow */
        if ((unsigned long long)(end - p) < size)
            return 0; /* the rest of this chunk is still to come */
        p += size;
        if ((r = line_end(&p, end)) <= 0)
            return r;
    }
    return 0;
}

#define ERROR_MAX 1024 /* an error answer: head and JSON body */

static const char *
reason(unsigned status)
{
    switch (status) {
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
    }
}

/* Writes the whole JSON error answer for status into buf; returns its
   length, or 0 when it does not fit. */
static size_t
format_error(char *buf, size_t size, unsigned status, const char *code,
             const char *msg)
{
    srv_reply r;
    int hn;
    size_t n = 0;

    srv_reply_errorf(&r, status, code, "%s", msg);
    hn = snprintf(buf, size,
                  "HTTP/1.1 %u %s\r\nContent-Type: application/json\r\n"
                  "Cache-Control: no-store\r\nConnection: close\r\n"
                  "%sContent-Length: %zu\r\n\r\n",
                  status, reason(status),
                  status == 429 || status == 503 ? "Retry-After: 1\r\n" : "",
                  r.size);
    if (hn > 0 && (size_t)hn + r.size <= size) {
        memcpy(buf + hn, r.body, r.size);
        n = (size_t)hn + r.size;
    }
    srv_reply_free(&r);
    return n;
}

void
srv_send_error(int fd, unsigned status, const char *code, const char *msg)
{
    char buf[ERROR_MAX];
    size_t n = format_error(buf, sizeof buf, status, code, msg);

    /* A socket just accepted has room for these few hundred bytes; if it
       has not, the client was not reading and loses the answer. */
    if (n) {
        ssize_t w = send(fd, buf, n, MSG_DONTWAIT | MSG_NOSIGNAL);

        (void)w;
    }
}

/* ---------------------------------------------------------------- front */

static long long
now_ms(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* A connection the front holds: reading its first head, or lingering
   (answered, its input drained until the client closes or 2 s pass, so
   that closing it does not reset the answer away). */
typedef struct pending {
    unsigned char tag; /* TAG_PENDING (0) */
    int fd;
    int lingering;
    int counted; /* holds a place in the per-address and total counts */
    int dead;    /* closed or handed over; freed after the batch of events */
    size_t seen; /* bytes of its head peeked so far */
    srv_ip ip;
    struct sockaddr_storage sa;
    socklen_t salen;
    long long accepted, deadline;
    struct pending *prev, *next;
} pending;

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
    struct relay *relay;
    srv_conn *prev, *next;
};

#define DRAIN_SIZE 65536

/* A connection with a valid first head, on its way from the accepting
   thread to the worker that relays it. */
typedef struct handoff {
    int fd;
    int counted;
    srv_ip ip;
    struct sockaddr_storage sa;
    socklen_t salen;
    struct handoff *next;
} handoff;

/*
 * A relay thread: its own epoll set, its connections, and its instance of
 * the HTTP library, which it runs itself (srv_front_lib.run) right after
 * passing on requests, so that a request and its answer cross no thread.
 * Worker 0 is also the accepting thread (the pending connections, the
 * listening socket, the deadlines of the library's connections).
 */
typedef struct worker {
    srv_front *f;
    unsigned k;
    int epfd, wake[2], libfd;
    pthread_t thread;
    int started;
    int lib_due;     /* bytes went to the library since it last ran */
    int lib_stopped; /* its instance of the library is stopped */
    long long exit_by;
    struct relay *relays; /* the connections relayed to the library */
    struct relay *dead;   /* ended, to be freed after the batch of events */
    struct relay *kick;   /* forwarded to the library in this batch */
    struct relay *starting; /* being delivered to the library */
    pthread_mutex_t mu;   /* guards queue */
    handoff *queue;
    char drain[DRAIN_SIZE];
} worker;

struct srv_front {
    srv_front_config fc;
    srv_front_lib lib;
    srv_ipmap *ips;
    int lfd;
    atomic_int open; /* connections held here (counted) and by the library */
    atomic_int evicting; /* of those, idle ones shut down to make room and
                            not yet closed by the library */
    pending *head, *tail;
    pending *dead;      /* closed in this batch of events, to be freed */
    size_t npending, nlinger;
    unsigned next;      /* the worker of the next connection */
    pthread_mutex_t mu; /* guards conns */
    srv_conn *conns;
    unsigned nw;
    worker *w; /* nw of them */
    char buf[SRV_MAX_HEAD + 2];
};

#define LINGER_MS 2000
/* A connection accepted this recently that has sent nothing yet is not
   taken for a slowloris: its request may be on its way. */
#define QUIET_GRACE_MS 200
#define EXIT_MS 500 /* srv_front_free waits this long for the last answers */
#define MAX_LINGER 1024
#define SWEEP_MS 100

/* The worker whose thread this is (srv_conn_open links the library's
   record of a connection to its relay, on that thread). */
static _Thread_local worker *this_worker;

/* Gives back a connection's place in the per-address and total counts. */
static void
release(srv_front *f, const srv_ip *ip)
{
    srv_ipmap_add(f->ips, ip, SRV_IP_CONNS, -1, 0);
    atomic_fetch_sub(&f->open, 1);
}

static void
uncount(srv_front *f, pending *pc)
{
    if (!pc->counted)
        return;
    pc->counted = 0;
    release(f, &pc->ip);
}

static void
unlink_pending(srv_front *f, pending *pc)
{
    if (pc->prev)
        pc->prev->next = pc->next;
    else
        f->head = pc->next;
    if (pc->next)
        pc->next->prev = pc->prev;
    else
        f->tail = pc->prev;
    pc->prev = pc->next = NULL;
    if (pc->lingering)
        f->nlinger--;
    else
        f->npending--;
}

/* Puts pc at the tail of the list (the list stays in deadline order
   within each kind), counted as lingering or pending. */
static void
append_pending(srv_front *f, pending *pc)
{
    pc->prev = f->tail;
    pc->next = NULL;
    if (f->tail)
        f->tail->next = pc;
    else
        f->head = pc;
    f->tail = pc;
    if (pc->lingering)
        f->nlinger++;
    else
        f->npending++;
}

/* Takes pc out of the list; it is freed after the current batch of epoll
   events (which may still name it) by pendings_reap(). */
static void
bury_pending(srv_front *f, pending *pc)
{
    unlink_pending(f, pc);
    pc->dead = 1;
    pc->next = f->dead;
    f->dead = pc;
}

static void
pendings_reap(srv_front *f)
{
    while (f->dead) {
        pending *pc = f->dead;

        f->dead = pc->next;
        free(pc);
    }
}

static void
close_pending(srv_front *f, pending *pc)
{
    uncount(f, pc);
    epoll_ctl(f->w[0].epfd, EPOLL_CTL_DEL, pc->fd, NULL);
    close(pc->fd);
    bury_pending(f, pc);
}

/* Reads and drops what the client has sent; returns 1 when it closed. */
static int
drain(char *buf, int fd)
{
    size_t total = 0;

    for (;;) {
        ssize_t r = recv(fd, buf, DRAIN_SIZE, MSG_DONTWAIT);

        if (r == 0)
            return 1;
        if (r < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
                       ? 0
                       : 1;
        total += (size_t)r;
        if (total > ((size_t)4 << 20))
            return 0; /* enough for one turn of the loop */
    }
}

/* Answers pc with an error and lets it linger. */
static void
refuse(srv_front *f, pending *pc, unsigned status, const char *code,
       const char *msg)
{
    int closed = drain(f->w[0].drain, pc->fd);

    if (!f->fc.quiet) {
        /* the request log's line for an answer made before the HTTP
           library saw the request: no method or path is trusted yet */
        char line[256];
        int n = snprintf(line, sizeof line, "- - %u 0us (%s: %s)\n", status,
                         code, msg);

        if (n > 0) {
            ssize_t w = write(STDERR_FILENO, line,
                              (size_t)n < sizeof line ? (size_t)n
                                                      : sizeof line - 1);
            (void)w;
        }
    }

    srv_send_error(pc->fd, status, code, msg);
    shutdown(pc->fd, SHUT_WR);
    uncount(f, pc);
    if (closed || f->nlinger >= MAX_LINGER) {
        close_pending(f, pc);
        return;
    }
    unlink_pending(f, pc);
    pc->lingering = 1;
    pc->deadline = now_ms() + LINGER_MS;
    append_pending(f, pc);
}

/* ---------------------------------------------------------------- relay */

/*
 * A connection whose first head was valid is relayed, not handed over:
 * the HTTP library gets one end of a socket pair, and the worker copies
 * bytes between the client and the other end.  In the client's direction
 * it follows the framing of each request (its head, then a body of
 * Content-Length bytes or of chunks), checks every head with
 * srv_check_head() and every chunk line, and forwards only what passed:
 * the library never sees a head or a chunk framing that the front would
 * refuse, so every error answer of the server is the JSON of
 * srv_send_error().  On a refusal the relay forwards nothing more, shuts
 * the library's direction, relays the answers to the earlier requests
 * until the library closes its end, then sends the error and closes.
 * Answers are copied as they come, unparsed.
 */
enum {
    TAG_PENDING, /* a pending: its tag field is zero from calloc */
    TAG_CLIENT,  /* the client's end of a relay */
    TAG_LIB      /* the library's end of a relay */
};
enum { R_HEAD, R_BODY, C_SIZE, C_EXT, C_SIZE_LF, C_DATA, C_DATA_CR,
       C_DATA_LF, C_TRAILER, C_TRAILER_LF };

#define RELAY_IN (SRV_MAX_HEAD + 1 + 8192)
#define RELAY_OUT 16384

typedef struct relay_end {
    unsigned char tag;
    struct relay *r;
} relay_end;

typedef struct relay {
    relay_end ec, em;
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
    char in[RELAY_IN];
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
    char out[RELAY_OUT];
    size_t out_len, out_off;
    /* the refusal, once the library's answers are all out */
    unsigned err;
    char err_buf[ERROR_MAX];
    size_t err_len, err_off;
    struct relay *prev, *next, *kick_next;
} relay;

/* The length of the head at the start of b[0, n) (with the empty lines
   before its request line and its blank line), or 0 while incomplete. */
static size_t
head_end(const char *b, size_t n)
{
    const char *p = b, *e = b + n;

    while (p < e && (*p == '\r' || *p == '\n'))
        p++;
    while (p < e) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));

        if (!nl)
            return 0;
        if (nl + 1 < e && nl[1] == '\n')
            return (size_t)(nl + 2 - b);
        if (nl + 2 < e && nl[1] == '\r' && nl[2] == '\n')
            return (size_t)(nl + 3 - b);
        p = nl + 1;
    }
    return 0;
}

/* The body framing of a head that srv_check_head() accepted: *chunked, or
   the Content-Length (0 when none). */
static unsigned long long
head_body(const char *head, size_t n, int *chunked)
{
    const char *p = head, *end = head + n;
    unsigned long long clen = 0;

    *chunked = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *q;

        if (!nl)
            break;
        if ((size_t)(nl - p) >= 18 && name_is(p, 17, "transfer-encoding") &&
            p[17] == ':')
            *chunked = 1;
        if ((size_t)(nl - p) >= 15 && name_is(p, 14, "content-length") &&
            p[14] == ':') {
            clen = 0;
            for (q = p + 15; q < nl; q++)
                if (*q >= '0' && *q <= '9')
                    clen = clen * 10 + (unsigned long long)(*q - '0');
        }
        p = nl + 1;
    }
    return clen;
}

static void
log_refusal(srv_front *f, unsigned status, const char *code, const char *msg)
{
    /* the request log's line for an answer made before the HTTP library
       saw the request: no method or path is trusted yet */
    char line[256];
    int n;

    if (f->fc.quiet)
        return;
    n = snprintf(line, sizeof line, "- - %u 0us (%s: %s)\n", status, code,
                 msg);
    if (n > 0) {
        ssize_t w = write(STDERR_FILENO, line,
                          (size_t)n < sizeof line ? (size_t)n
                                                  : sizeof line - 1);
        (void)w;
    }
}

/* Refuses what r's client sent past fwd: nothing more is forwarded. */
static void
relay_refuse(worker *w, relay *r, unsigned status, const char *code,
             const char *msg)
{
    if (r->err)
        return;
    log_refusal(w->f, status, code, msg);
    r->err = status;
    r->err_len = format_error(r->err_buf, sizeof r->err_buf, status, code,
                              msg);
    r->in_len = r->fwd;
}

/* Parses in[fwd, in_len): moves fwd past what passed the checks, or
   refuses. */
static void
relay_parse(worker *w, relay *r)
{
    while (!r->err && r->fwd < r->in_len) {
        char *p = r->in + r->fwd;
        size_t avail = r->in_len - r->fwd;
        unsigned char c = (unsigned char)*p;

        switch (r->st) {
        case R_HEAD: {
            size_t n = head_end(p, avail);
            unsigned status;
            const char *code;
            char msg[160];
            int chunked;

            if (!n) {
                if (avail > SRV_MAX_HEAD ||
                    (avail > SRV_MAX_LINE && !memchr(p, '\n', avail))) {
                    status = srv_check_head(p, avail, w->f->fc.max_body, &code,
                                            msg, sizeof msg);
                    relay_refuse(w, r, status ? status : 431,
                                 status ? code : "ELIMIT",
                                 status ? msg
                                        : "the request head is over the "
                                          "limit");
                }
                return; /* the rest of the head is still to come */
            }
            status = srv_check_head(p, n, w->f->fc.max_body, &code, msg,
                                    sizeof msg);
            if (status) {
                relay_refuse(w, r, status, code, msg);
                return;
            }
            r->left = head_body(p, n, &chunked);
            r->fwd += n;
            r->total = 0;
            r->head_len = n;
            r->trailer = 0;
            r->st = chunked ? C_SIZE : r->left ? R_BODY : R_HEAD;
            r->digits = r->line = 0;
            break;
        }
        case R_BODY:
        case C_DATA: {
            size_t k = avail < r->left ? avail : (size_t)r->left;

            r->fwd += k;
            r->left -= k;
            if (!r->left)
                r->st = r->st == R_BODY ? R_HEAD : C_DATA_CR;
            break;
        }
        default:
            /* the chunk lines, a byte at a time (RFC 9112 7.1) */
            r->fwd++;
            /*
             * Trailer fields are header fields: the library keeps them
             * with the head, in the same 16 KiB, and refuses their excess
             * with an HTML page of its own.  Head and trailers together
             * get the head's limit, refused here with the JSON 431.
             */
            if ((r->st == C_TRAILER || r->st == C_TRAILER_LF) &&
                ++r->trailer + r->head_len > SRV_MAX_HEAD) {
                r->fwd--;
                relay_refuse(w, r, 431, "ELIMIT",
                             "the trailer fields of the chunked body are "
                             "over the limit of the request head");
                return;
            }
            if (++r->line > SRV_MAX_LINE) {
                relay_refuse(w, r, 400, "EHTTP",
                             "a line of the chunked encoding is too long");
                return;
            }
            switch (r->st) {
            case C_SIZE:
                if (isxdigit(c)) {
                    if (++r->digits > 15) {
                        relay_refuse(w, r, 413, "ELIMIT",
                                     "a chunk is over the body limit");
                        return;
                    }
                    r->left = r->left * 16 +
                              (unsigned long long)(c <= '9' ? c - '0'
                                                            : (c | 0x20) -
                                                                  'a' + 10);
                    continue;
                }
                if (!r->digits)
                    goto bad_chunk;
                if (c == ';' || c == ' ' || c == '\t')
                    r->st = C_EXT;
                else if (c == '\r')
                    r->st = C_SIZE_LF;
                else if (c == '\n')
                    goto size_line;
                else
                    goto bad_chunk;
                continue;
            case C_EXT:
                if (c == '\r')
                    r->st = C_SIZE_LF;
                else if (c == '\n')
                    goto size_line;
                else if ((c < ' ' && c != '\t') || c == 0x7f)
                    goto bad_chunk;
                continue;
            case C_SIZE_LF:
                if (c != '\n')
                    goto bad_chunk;
            size_line:
                r->line = 0;
                r->total += r->left;
                if (r->total > w->f->fc.max_body) {
                    char msg[160];

                    snprintf(msg, sizeof msg,
                             "chunked request body over the limit of %zu "
                             "bytes",
                             w->f->fc.max_body);
                    relay_refuse(w, r, 413, "ELIMIT", msg);
                    return;
                }
                r->st = r->left ? C_DATA : C_TRAILER;
                continue;
            case C_DATA_CR:
                r->line = 0;
                if (c == '\r')
                    r->st = C_DATA_LF;
                else if (c == '\n')
                    r->st = C_SIZE, r->digits = 0;
                else
                    goto bad_chunk;
                continue;
            case C_DATA_LF:
                r->line = 0;
                if (c != '\n')
                    goto bad_chunk;
                r->st = C_SIZE;
                r->digits = 0;
                continue;
            case C_TRAILER: /* trailer fields, up to an empty line */
                if (c == '\n') {
                    if (r->line == 1) {
                        r->st = R_HEAD;
                        continue;
                    }
                    r->line = 0;
                } else if (c == '\r' && r->line == 1) {
                    r->st = C_TRAILER_LF;
                }
                continue;
            case C_TRAILER_LF:
                if (c != '\n')
                    goto bad_chunk;
                r->st = R_HEAD;
                continue;
            }
        bad_chunk:
            r->fwd--;
            relay_refuse(w, r, 400, "EHTTP",
                         "malformed chunked encoding of the body");
            return;
        }
    }
}

static void
relay_watch(worker *w, relay *r)
{
    unsigned ec = 0, em = 0;
    struct epoll_event ev;

    if (r->lingering) {
        ec = EPOLLIN;
    } else {
        if (!r->c_eof && !r->err && r->in_len - r->sent < RELAY_IN)
            ec |= EPOLLIN;
        if (r->out_off < r->out_len || (r->mfd < 0 && r->err_off < r->err_len))
            ec |= EPOLLOUT;
        if (r->mfd >= 0 && r->out_len - r->out_off < RELAY_OUT)
            em |= EPOLLIN;
        if (r->mfd >= 0 && r->sent < r->fwd)
            em |= EPOLLOUT;
    }
    memset(&ev, 0, sizeof ev);
    if (ec != r->evc) {
        ev.events = ec;
        ev.data.ptr = &r->ec;
        epoll_ctl(w->epfd, EPOLL_CTL_MOD, r->cfd, &ev);
        r->evc = ec;
    }
    if (r->mfd >= 0 && em != r->evm) {
        /* out of the set while waiting on the client: a closed library
           end would report EPOLLHUP at every turn */
        ev.events = em;
        ev.data.ptr = &r->em;
        epoll_ctl(w->epfd,
                  !em        ? EPOLL_CTL_DEL
                  : !r->evm  ? EPOLL_CTL_ADD
                             : EPOLL_CTL_MOD,
                  r->mfd, &ev);
        r->evm = em;
    }
}

/* Ends r: its descriptors close now, its memory after the current batch
   of epoll events (which may still name it) with relays_reap(). */
static void
relay_free(worker *w, relay *r)
{
    if (r->dead)
        return;
    if (r->sc) { /* what the library still runs for it is abandoned */
        atomic_store(&r->sc->gone, 1);
        r->sc->relay = NULL;
        r->sc = NULL;
    }
    if (r->prev)
        r->prev->next = r->next;
    else
        w->relays = r->next;
    if (r->next)
        r->next->prev = r->prev;
    close(r->cfd);
    if (r->mfd >= 0)
        close(r->mfd);
    r->mfd = -1;
    r->dead = 1;
    r->prev = NULL;
    r->next = w->dead;
    w->dead = r;
}

static void
relays_reap(worker *w)
{
    while (w->dead) {
        relay *r = w->dead;

        w->dead = r->next;
        free(r);
    }
}

/* Does what can be done on r without blocking, after an event on one of
   its ends (which: TAG_CLIENT or TAG_LIB). */
static void
relay_io(worker *w, relay *r, int which, unsigned events)
{
    ssize_t n;

    if (r->dead)
        return; /* ended earlier in this batch of events */
    if (r->lingering) {
        if (drain(w->drain, r->cfd))
            relay_free(w, r);
        return;
    }
    if (which == TAG_CLIENT && (events & (EPOLLHUP | EPOLLERR)) &&
        (r->c_eof || r->err)) {
        relay_free(w, r); /* the client is gone */
        return;
    }
    if (which == TAG_CLIENT && (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) &&
        !r->c_eof && !r->err && r->in_len - r->sent < RELAY_IN) {
        if (r->sent > 0) { /* what was written makes room */
            memmove(r->in, r->in + r->sent, r->in_len - r->sent);
            r->in_len -= r->sent;
            r->fwd -= r->sent;
            r->sent = 0;
        }
        n = recv(r->cfd, r->in + r->in_len, RELAY_IN - r->in_len,
                 MSG_DONTWAIT);
        if (n > 0) {
            r->in_len += (size_t)n;
            relay_parse(w, r);
        } else if (n == 0) {
            size_t i = r->fwd;

            /*
             * The client's FIN: it sends nothing more, and (as nginx
             * assumes of a client that closes while its request is served)
             * it reads nothing more: a request of it still queued or
             * computing is abandoned, and the compute pool drops it.
             */
            r->c_eof = 1;
            if (r->sc)
                atomic_store(&r->sc->gone, 1);
            while (i < r->in_len && (r->in[i] == '\r' || r->in[i] == '\n'))
                i++;
            if (r->st == R_HEAD && i < r->in_len)
                relay_refuse(w, r, 400, "EHTTP",
                             "the request head ended early");
        } else if (errno != EAGAIN && errno != EWOULDBLOCK &&
                   errno != EINTR) {
            relay_free(w, r); /* the client is gone */
            return;
        }
    }
    if (r->mfd >= 0 && r->sent < r->fwd) {
        n = send(r->mfd, r->in + r->sent, r->fwd - r->sent,
                 MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n > 0) {
            r->sent += (size_t)n;
            if (r->sc) /* a request on its way: not idle, not evicted */
                atomic_store(&r->sc->idle, 0);
            /* the library runs at the end of this batch of events, and
               its answer is read then, without waiting for an event */
            w->lib_due = 1;
            if (!r->kicked) {
                r->kicked = 1;
                r->kick_next = w->kick;
                w->kick = r;
            }
        }
    }
    if (r->mfd >= 0 && !r->m_shut && (r->c_eof || r->err) &&
        r->sent == r->fwd) {
        /* nothing more for the library: it ends the connection after
           its answers to what it has */
        shutdown(r->mfd, SHUT_WR);
        r->m_shut = 1;
        w->lib_due = 1;
    }
    if (which == TAG_LIB && r->mfd >= 0 && r->out_len - r->out_off < RELAY_OUT) {
        if (r->out_off > 0) { /* what was sent makes room */
            memmove(r->out, r->out + r->out_off, r->out_len - r->out_off);
            r->out_len -= r->out_off;
            r->out_off = 0;
        }
        n = recv(r->mfd, r->out + r->out_len, RELAY_OUT - r->out_len,
                 MSG_DONTWAIT);
        if (n > 0) {
            r->out_len += (size_t)n;
        } else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK &&
                              errno != EINTR)) {
            close(r->mfd); /* the library closed the connection */
            r->mfd = -1;
        }
    }
    while (r->out_off < r->out_len ||
           (r->mfd < 0 && r->err_off < r->err_len)) {
        int own = r->out_off == r->out_len;
        const char *b = own ? r->err_buf + r->err_off : r->out + r->out_off;
        size_t len = own ? r->err_len - r->err_off : r->out_len - r->out_off;

        n = send(r->cfd, b, len, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
                      errno == EINTR))
            break;
        if (n <= 0) {
            relay_free(w, r); /* the client is gone */
            return;
        }
        if (own)
            r->err_off += (size_t)n;
        else
            r->out_off += (size_t)n;
    }
    if (r->mfd < 0 && r->out_off == r->out_len && r->err_off == r->err_len) {
        /* all said: let the client read it before the connection closes */
        shutdown(r->cfd, SHUT_WR);
        r->lingering = 1;
        r->deadline = now_ms() + LINGER_MS;
        if (r->c_eof) {
            relay_free(w, r);
            return;
        }
    }
    relay_watch(w, r);
}

/* Starts relaying fd, a connection whose first head has passed the checks,
   and hands the other end of the pair to the library; 0, or -1 (fd left
   open) when it could not start. */
static int
relay_start(worker *w, int fd, const struct sockaddr *sa,
            socklen_t salen)
{
    srv_front *f = w->f;
    relay *r = calloc(1, sizeof *r);
    int sp[2], one = 1, rc;
    struct epoll_event ev;

    if (!r)
        return -1;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
                   sp) != 0) {
        free(r);
        return -1;
    }
    /* the answers come in pieces (head, body): each is sent at once */
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    r->cfd = fd;
    r->mfd = sp[0];
    r->lfd = sp[1];
    r->ec.tag = TAG_CLIENT;
    r->em.tag = TAG_LIB;
    r->ec.r = r->em.r = r;
    r->evc = EPOLLIN;
    r->evm = EPOLLIN;
    memset(&ev, 0, sizeof ev);
    ev.events = r->evc;
    ev.data.ptr = &r->ec;
    if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev) != 0)
        goto fail;
    ev.events = r->evm;
    ev.data.ptr = &r->em;
    if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, r->mfd, &ev) != 0) {
        epoll_ctl(w->epfd, EPOLL_CTL_DEL, fd, NULL);
        goto fail;
    }
    r->next = w->relays;
    if (w->relays)
        w->relays->prev = r;
    w->relays = r;
    w->starting = r;
    rc = f->lib.deliver(f->lib.ud, w->k, sp[1], sa, salen);
    w->starting = NULL;
    if (rc != 0) {
        /* the library did not take it: the client's end closes, and its
           place in the counts is the caller's to give back */
        r->mfd = -1;
        close(sp[0]);
        epoll_ctl(w->epfd, EPOLL_CTL_DEL, fd, NULL);
        if (r->prev)
            r->prev->next = r->next;
        else
            w->relays = r->next;
        if (r->next)
            r->next->prev = r->prev;
        free(r);
        return -1;
    }
    /* the head that the front peeked is there to be read again */
    relay_io(w, r, TAG_CLIENT, EPOLLIN);
    return 0;
fail:
    close(sp[0]);
    close(sp[1]);
    free(r);
    return -1;
}

static pending *
add_pending(srv_front *f, int fd, const struct sockaddr_storage *sa,
            socklen_t salen)
{
    pending *pc = calloc(1, sizeof *pc);
    struct epoll_event ev;

    if (!pc)
        return NULL;
    pc->fd = fd;
    pc->sa = *sa;
    pc->salen = salen;
    srv_ip_from_sockaddr(&pc->ip, (const struct sockaddr *)sa);
    pc->accepted = now_ms();
    pc->deadline = pc->accepted + (long long)f->fc.header_ms;
    memset(&ev, 0, sizeof ev);
    /* Edge-triggered: peeking leaves the bytes there, so a level-triggered
       socket would wake the loop again at once; each new segment is an
       edge. */
    ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
    ev.data.ptr = pc;
    if (epoll_ctl(f->w[0].epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
        free(pc);
        return NULL;
    }
    append_pending(f, pc);
    return pc;
}

static void on_readable(srv_front *f, pending *pc, unsigned events);

/*
 * The oldest connection (of ip, or of any address when ip is NULL) still
 * without its head once its socket is read, other than newcomer: a
 * slowloris suspect.  The connections are read first because those
 * accepted in the same turn have not been read yet: a burst of clients
 * that each sent a request at once is served or refused (429, 503), never
 * taken for slowloris.  One that has sent nothing within QUIET_GRACE_MS
 * of its accept is not a suspect yet.  Reading may hand connections over
 * to the relays (or refuse them); their memory lasts the batch of events.
 */
static pending *
slowest(srv_front *f, const pending *newcomer, const srv_ip *ip)
{
    long long now = now_ms();
    pending *pc, *next;

    for (pc = f->head; pc; pc = next) {
        next = pc->next;
        if (pc->lingering || pc == newcomer ||
            (ip && (!pc->counted ||
                    memcmp(&pc->ip, ip, sizeof *ip) != 0)))
            continue;
        on_readable(f, pc, 0);
        if (pc->dead || pc->lingering)
            continue; /* handed over or refused: it had sent its head */
        if (pc->seen == 0 && now - pc->accepted < QUIET_GRACE_MS)
            continue;
        return pc;
    }
    return NULL;
}

/*
 * Shuts down the connection of the library that has waited longest for
 * its next request, its answers all given (a kept-alive connection left
 * idle), so that a new client takes its place; returns 0 when there is
 * none.  nginx does the same when it runs out of connections (it reuses
 * the idle kept-alive ones); a request sent on it in the same instant is
 * lost with the connection, which a client must expect of any kept-alive
 * connection (RFC 9112 9.3.1).
 */
static int
evict_idle(srv_front *f)
{
    srv_conn *c, *best = NULL;
    long long oldest = 0;

    pthread_mutex_lock(&f->mu);
    for (c = f->conns; c; c = c->next) {
        long long t = atomic_load(&c->idle);

        if (t && !c->evicted && (!best || t < oldest)) {
            best = c;
            oldest = t;
        }
    }
    if (best) {
        best->evicted = 1;
        atomic_store(&best->idle, 0);
        atomic_store(&best->deadline, 0);
        atomic_fetch_add(&f->evicting, 1);
        shutdown(best->fd, SHUT_RDWR); /* the library closes it */
    }
    pthread_mutex_unlock(&f->mu);
    return best != NULL;
}

static void
accept_all(srv_front *f)
{
    for (;;) {
        struct sockaddr_storage sa;
        socklen_t salen = sizeof sa;
        int fd = accept4(f->lfd, (struct sockaddr *)&sa, &salen,
                         SOCK_NONBLOCK | SOCK_CLOEXEC);
        pending *pc;

        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE) {
                /* Out of descriptors: make room by dropping the oldest
                   connection that has not sent its head, or wait. */
                pending *old = f->head;

                while (old && old->lingering)
                    old = old->next;
                if (old)
                    close_pending(f, old);
                else
                    usleep(10000);
            }
            return; /* EAGAIN, or an error of that one connection */
        }
        pc = add_pending(f, fd, &sa, salen);
        if (!pc) {
            close(fd);
            continue;
        }
        if ((unsigned)(atomic_load(&f->open) - atomic_load(&f->evicting)) >=
            f->fc.max_conn) {
            /* Full: the oldest connection still sending its head (a
               slowloris suspect) makes room, else the kept-alive
               connection idle the longest, else the newcomer waits
               elsewhere. */
            pending *old = slowest(f, pc, NULL);

            if (old)
                refuse(f, old, 503, "EBUSY",
                       "the server is at its connection limit and this "
                       "connection had not sent its request");
            else if (!evict_idle(f)) {
                refuse(f, pc, 503, "EBUSY",
                       "the server is at its connection limit; try again");
                continue;
            }
        }
        if (srv_ipmap_add(f->ips, &pc->ip, SRV_IP_CONNS, 1,
                          f->fc.max_conn_per_ip) != 0) {
            /* The address is at its limit: its oldest connection that
               has not sent its head makes room, if it has one. */
            pending *old = slowest(f, pc, &pc->ip);

            if (old)
                refuse(f, old, 408, "ETIMEOUT",
                       "this address is at its connection limit and this "
                       "connection had not sent its request");
            if (!old || srv_ipmap_add(f->ips, &pc->ip, SRV_IP_CONNS, 1,
                                      f->fc.max_conn_per_ip) != 0) {
                refuse(f, pc, 429, "ELIMIT",
                       "too many connections from this address");
                continue;
            }
        }
        pc->counted = 1;
        atomic_fetch_add(&f->open, 1);
    }
}

/* Whether a valid head (srv_check_head) announces a chunked body. */
static int
is_chunked(const char *head, const char *end)
{
    const char *p = head;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));

        if (!nl)
            return 0;
        if ((size_t)(nl - p) >= 18 && name_is(p, 17, "transfer-encoding") &&
            p[17] == ':')
            return 1;
        p = nl + 1;
    }
    return 0;
}

static void
on_readable(srv_front *f, pending *pc, unsigned events)
{
    ssize_t n;
    const char *end;
    unsigned status;
    const char *code;
    char msg[160];

    if (pc->dead)
        return; /* closed earlier in this batch of events */
    if (pc->lingering) {
        if (drain(f->w[0].drain, pc->fd))
            close_pending(f, pc);
        return;
    }
    n = recv(pc->fd, f->buf, SRV_MAX_HEAD + 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
                   errno != EINTR)) {
        close_pending(f, pc);
        return;
    }
    if (n < 0)
        return;
    pc->seen = (size_t)n;
    f->buf[n] = '\0';
    /* the head ends at the first empty line (after any empty lines that
       precede the request line) */
    {
        const char *p = f->buf, *e = f->buf + n;

        while (p < e && (*p == '\r' || *p == '\n'))
            p++;
        end = NULL;
        while (p < e) {
            const char *nl = memchr(p, '\n', (size_t)(e - p));

            if (!nl)
                break;
            if (nl + 1 < e && nl[1] == '\n') {
                end = nl + 2;
                break;
            }
            if (nl + 2 < e && nl[1] == '\r' && nl[2] == '\n') {
                end = nl + 3;
                break;
            }
            p = nl + 1;
        }
    }
    if (!end) {
        int has_line = memchr(f->buf, '\n', (size_t)n) != NULL;

        if ((!has_line && n > SRV_MAX_LINE) || n > SRV_MAX_HEAD) {
            /* past a limit before its end: 414 or 431 */
            status = srv_check_head(f->buf, (size_t)n, f->fc.max_body, &code,
                                    msg, sizeof msg);
            refuse(f, pc, status ? status : 431, status ? code : "ELIMIT",
                   status ? msg : "the request head is over the limit");
        } else if (events & (EPOLLRDHUP | EPOLLHUP)) {
            /* the client stopped sending before the end of its head */
            refuse(f, pc, 400, "EHTTP", "the request head ended early");
        }
        return;
    }
    status = srv_check_head(f->buf, (size_t)(end - f->buf), f->fc.max_body,
                            &code, msg, sizeof msg);
    if (!status && is_chunked(f->buf, end) &&
        check_chunks(end, f->buf + n) != 0) {
        status = 400;
        code = "EHTTP";
        snprintf(msg, sizeof msg, "malformed chunked encoding of the body");
    }
    if (status) {
        refuse(f, pc, status, code, msg);
        return;
    }
    /* A valid head: a worker relays the connection to its instance of
       the HTTP library, which takes the connection's place in the counts
       (server.c releases it with srv_conn_close). */
    {
        int fd = pc->fd, counted = pc->counted;
        srv_ip ip = pc->ip;
        struct sockaddr_storage sa = pc->sa;
        socklen_t salen = pc->salen;
        unsigned k = f->next++ % f->nw;

        epoll_ctl(f->w[0].epfd, EPOLL_CTL_DEL, fd, NULL);
        bury_pending(f, pc);
        if (k != 0) {
            handoff *h = malloc(sizeof *h);

            if (h) {
                worker *w = &f->w[k];
                ssize_t wr;

                h->fd = fd;
                h->counted = counted;
                h->ip = ip;
                h->sa = sa;
                h->salen = salen;
                pthread_mutex_lock(&w->mu);
                h->next = w->queue;
                w->queue = h;
                pthread_mutex_unlock(&w->mu);
                wr = write(w->wake[1], "c", 1);
                (void)wr;
                return;
            }
        } else if (relay_start(&f->w[0], fd, (const struct sockaddr *)&sa,
                               salen) == 0) {
            return;
        }
        close(fd);
        if (counted)
            release(f, &ip);
    }
}

/* Starts relaying the connections handed over to w (or, once it is
   stopping, closes them). */
static void
take_handoffs(worker *w)
{
    handoff *h, *rev = NULL;

    pthread_mutex_lock(&w->mu);
    h = w->queue;
    w->queue = NULL;
    pthread_mutex_unlock(&w->mu);
    while (h) { /* in the order they came */
        handoff *next = h->next;

        h->next = rev;
        rev = h;
        h = next;
    }
    for (h = rev; h; h = rev) {
        rev = h->next;
        if (w->exit_by || relay_start(w, h->fd, (const struct sockaddr *)&h->sa,
                                      h->salen) != 0) {
            close(h->fd);
            if (h->counted)
                release(w->f, &h->ip);
        }
        free(h);
    }
}

/* The pending connections and the deadlines of the library's: the
   accepting thread's. */
static void
sweep(srv_front *f, long long now)
{
    pending *pc = f->head, *next;
    srv_conn *c;

    for (; pc; pc = next) {
        next = pc->next;
        if (pc->deadline > now)
            continue;
        if (pc->lingering)
            close_pending(f, pc);
        else
            refuse(f, pc, 408, "ETIMEOUT",
                   "the request head did not arrive within the header "
                   "timeout");
    }
    /* The library's connections: their sockets are shut down, which it
       sees as the client leaving, and closes them. */
    pthread_mutex_lock(&f->mu);
    for (c = f->conns; c; c = c->next) {
        long long d = atomic_load(&c->deadline);

        if (d && d <= now) {
            shutdown(c->fd, SHUT_RDWR);
            atomic_store(&c->deadline, 0);
        }
    }
    pthread_mutex_unlock(&f->mu);
}

/* Whether a relay of w still has answers of the library to pass on. */
static int
relays_busy(const worker *w)
{
    const relay *r;

    for (r = w->relays; r; r = r->next)
        if (!r->lingering && (r->mfd >= 0 || r->out_off < r->out_len))
            return 1;
    return 0;
}

/* Runs w's instance of the library, then reads the answers of the relays
   that passed it a request in this batch. */
static void
run_library(worker *w)
{
    srv_front *f = w->f;
    int more = 0;

    w->lib_due = 0;
    if (!w->lib_stopped)
        more = f->lib.run(f->lib.ud, w->k, 0);
    while (w->kick) {
        relay *r = w->kick;

        w->kick = r->kick_next;
        r->kicked = 0;
        if (!w->lib_stopped)
            relay_io(w, r, TAG_LIB, EPOLLIN);
    }
    if (more) /* it has work left that no event will announce */
        w->lib_due = 1;
}

/* The messages of w's wake-up pipe: 'c' connections handed over, 'q'
   (worker 0) stop accepting, 'x' the server is stopping. */
static void
on_wake(worker *w)
{
    srv_front *f = w->f;
    char c[64];
    ssize_t n = read(w->wake[0], c, sizeof c), i;

    for (i = 0; i < n; i++) {
        if (c[i] == 'c') {
            take_handoffs(w);
        } else if (c[i] == 'q' && w->k == 0 && f->lfd >= 0) {
            /* srv_front_stop: no more connections */
            epoll_ctl(w->epfd, EPOLL_CTL_DEL, f->lfd, NULL);
            close(f->lfd);
            f->lfd = -1;
            while (f->head)
                close_pending(f, f->head);
        } else if (c[i] == 'x' && !w->exit_by) {
            /* srv_front_free: the compute pool has stopped; the library
               runs once more (the pool's last answers), then stops and
               closes its connections, whose last answers go out */
            w->exit_by = now_ms() + EXIT_MS;
            take_handoffs(w);
            if (!w->lib_stopped) {
                epoll_ctl(w->epfd, EPOLL_CTL_DEL, w->libfd, NULL);
                run_library(w);
                f->lib.run(f->lib.ud, w->k, 1);
                w->lib_stopped = 1;
            }
        }
    }
}

static void *
worker_main(void *arg)
{
    worker *w = arg;
    srv_front *f = w->f;
    long long next_sweep = now_ms() + SWEEP_MS;

    this_worker = w;
    for (;;) {
        struct epoll_event ev[64];
        int n = epoll_wait(w->epfd, ev, 64,
                           w->lib_due ? 0 : w->exit_by ? 10 : SWEEP_MS),
            i;
        long long now;

        for (i = 0; i < n; i++) {
            void *p = ev[i].data.ptr;

            if (p == &f->lfd) {
                accept_all(f);
            } else if (p == &w->wake) {
                on_wake(w);
            } else if (p == &w->libfd) {
                w->lib_due = 1;
            } else if (*(unsigned char *)p == TAG_PENDING) {
                on_readable(f, p, ev[i].events);
            } else {
                relay_end *e = p;

                relay_io(w, e->r, e->tag, ev[i].events);
            }
        }
        if (w->lib_due)
            run_library(w);
        now = now_ms();
        if (now >= next_sweep) {
            relay *r, *rn;

            if (w->k == 0)
                sweep(f, now);
            for (r = w->relays; r; r = rn) {
                rn = r->next;
                if (r->lingering && r->deadline <= now)
                    relay_free(w, r);
            }
            if (!w->lib_stopped && /* the library's own timeouts */
                f->lib.run(f->lib.ud, w->k, 0))
                w->lib_due = 1;
            next_sweep = now + SWEEP_MS;
        }
        relays_reap(w);
        if (w->k == 0)
            pendings_reap(f);
        if (w->exit_by && (now >= w->exit_by || !relays_busy(w)))
            return NULL;
    }
}

int
srv_front_start(srv_front **out, const srv_front_config *fc,
                const struct sockaddr *addr, socklen_t addrlen,
                srv_ipmap *ips, const srv_front_lib *lib, unsigned *port)
{
    srv_front *f = calloc(1, sizeof *f);
    struct epoll_event ev;
    struct sockaddr_storage bound;
    socklen_t blen = sizeof bound;
    int one = 1;
    unsigned k;

    *out = NULL;
    if (!f)
        return -1;
    f->fc = *fc;
    f->lib = *lib;
    f->ips = ips;
    f->lfd = -1;
    pthread_mutex_init(&f->mu, NULL);
    f->w = calloc(lib->workers ? lib->workers : 1, sizeof *f->w);
    if (!f->w) {
        free(f);
        return -1;
    }
    f->nw = lib->workers ? lib->workers : 1;
    for (k = 0; k < f->nw; k++) {
        worker *w = &f->w[k];

        w->f = f;
        w->k = k;
        w->epfd = w->wake[0] = w->wake[1] = -1;
        w->libfd = lib->fd(lib->ud, k);
        pthread_mutex_init(&w->mu, NULL);
    }
    f->lfd = socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
                    0);
    if (f->lfd < 0)
        goto fail;
    setsockopt(f->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(f->lfd, addr, addrlen) != 0 || listen(f->lfd, 1024) != 0)
        goto fail;
    if (getsockname(f->lfd, (struct sockaddr *)&bound, &blen) == 0) {
        if (bound.ss_family == AF_INET)
            *port = ntohs(((struct sockaddr_in *)&bound)->sin_port);
        else if (bound.ss_family == AF_INET6)
            *port = ntohs(((struct sockaddr_in6 *)&bound)->sin6_port);
    }
    for (k = 0; k < f->nw; k++) {
        worker *w = &f->w[k];

        w->epfd = epoll_create1(EPOLL_CLOEXEC);
        if (w->epfd < 0 || pipe2(w->wake, O_CLOEXEC | O_NONBLOCK) != 0)
            goto fail;
        memset(&ev, 0, sizeof ev);
        ev.events = EPOLLIN;
        ev.data.ptr = &w->wake;
        if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->wake[0], &ev) != 0)
            goto fail;
        ev.data.ptr = &w->libfd;
        if (w->libfd < 0 ||
            epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->libfd, &ev) != 0)
            goto fail;
    }
    ev.data.ptr = &f->lfd;
    if (epoll_ctl(f->w[0].epfd, EPOLL_CTL_ADD, f->lfd, &ev) != 0)
        goto fail;
    for (k = 0; k < f->nw; k++) {
        if (pthread_create(&f->w[k].thread, NULL, worker_main, &f->w[k]) !=
            0)
            goto fail;
        f->w[k].started = 1;
    }
    *out = f;
    return 0;
fail:
    {
        int err = errno;

        srv_front_free(f);
        errno = err;
    }
    return -1;
}

void
srv_front_stop(srv_front *f)
{
    if (f && f->w[0].started) {
        ssize_t w = write(f->w[0].wake[1], "q", 1);

        (void)w;
    }
}

void
srv_front_free(srv_front *f)
{
    unsigned k;

    if (!f)
        return;
    for (k = 0; k < f->nw; k++)
        if (f->w[k].started) {
            ssize_t w = write(f->w[k].wake[1], "x", 1);

            (void)w;
        }
    for (k = 0; k < f->nw; k++)
        if (f->w[k].started) {
            pthread_join(f->w[k].thread, NULL);
            f->w[k].started = 0;
        }
    while (f->head)
        close_pending(f, f->head);
    pendings_reap(f);
    for (k = 0; k < f->nw; k++) {
        worker *w = &f->w[k];

        w->exit_by = 1;
        take_handoffs(w);
        while (w->relays)
            relay_free(w, w->relays);
        relays_reap(w);
        if (w->epfd >= 0)
            close(w->epfd);
        if (w->wake[0] >= 0)
            close(w->wake[0]);
        if (w->wake[1] >= 0)
            close(w->wake[1]);
        pthread_mutex_destroy(&w->mu);
    }
    if (f->lfd >= 0)
        close(f->lfd);
    pthread_mutex_destroy(&f->mu);
    free(f->w);
    free(f);
}

srv_conn *
srv_conn_open(srv_front *f, int fd, const srv_ip *ip)
{
    srv_conn *c = f ? calloc(1, sizeof *c) : NULL;

    if (!c)
        return NULL;
    c->fd = fd;
    c->ip = *ip;
    c->ips = f->ips;
    atomic_store(&c->deadline, now_ms() + (long long)f->fc.header_ms);
    /* its relay: the library opens it on the thread of the worker that
       delivered it, during or soon after the delivery */
    if (this_worker) {
        relay *r = this_worker->starting;

        if (!r || r->lfd != fd || r->sc)
            for (r = this_worker->relays; r; r = r->next)
                if (r->lfd == fd && !r->sc && r->mfd >= 0)
                    break;
        if (r) {
            r->sc = c;
            c->relay = r;
        }
    }
    pthread_mutex_lock(&f->mu);
    c->next = f->conns;
    if (f->conns)
        f->conns->prev = c;
    f->conns = c;
    pthread_mutex_unlock(&f->mu);
    return c;
}

void
srv_conn_close(srv_front *f, srv_conn *c)
{
    if (!f || !c)
        return;
    /* Under the lock, so that the sweep never shuts down a descriptor the
       library has closed (and the system may have given to another). */
    pthread_mutex_lock(&f->mu);
    if (c->prev)
        c->prev->next = c->next;
    else
        f->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    if (c->evicted)
        atomic_fetch_sub(&f->evicting, 1);
    pthread_mutex_unlock(&f->mu);
    if (c->relay) { /* the same thread's */
        c->relay->sc = NULL;
        c->relay->lfd = -1; /* the number may be another's from now on */
    }
    release(f, &c->ip);
    free(c);
}

void
srv_conn_deadline(srv_front *f, srv_conn *c, int which)
{
    unsigned long ms;
    struct timespec t;
    long long now;

    if (!f || !c)
        return;
    ms = which == SRV_DEADLINE_HEADER ? f->fc.header_ms
         : which == SRV_DEADLINE_BODY ? f->fc.body_ms
                                      : 0;
    clock_gettime(CLOCK_MONOTONIC, &t);
    now = (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
    atomic_store(&c->deadline, ms ? now + (long long)ms : 0);
    /* waiting for its next head, its answers given: idle (since when, in
       microseconds), and first to make room when the server is full */
    atomic_store(&c->idle, which == SRV_DEADLINE_HEADER
                               ? (long long)t.tv_sec * 1000000 +
                                     t.tv_nsec / 1000 + 1
                               : 0);
}

const atomic_int *
srv_conn_gone(const srv_conn *c)
{
    return c ? &c->gone : NULL;
}

int
srv_conn_to_pool(const srv_conn *c)
{
    return c && srv_ipmap_to_pool(c->ips, &c->ip);
}

void
srv_conn_slice_cost(srv_conn *c, unsigned long used_us,
                    unsigned long slice_us)
{
    if (c)
        srv_ipmap_slice_cost(c->ips, &c->ip, 2 * used_us >= slice_us);
}

#else
typedef int srv_front_unused; /* ISO C: a translation unit is not empty */
#endif /* BOUTON_SERVER */
