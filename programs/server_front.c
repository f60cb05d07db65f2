/*
 * server_front.c -- the listening socket of `bouton serve` (see
 * server_net.h and the resource model in docs/api.md).
 *
 * One thread accepts every connection and holds it until its first request
 * head is complete, reading it with MSG_PEEK so that the HTTP library later
 * reads the same bytes.  Holding a connection costs an entry in a list and
 * no thread, so a thousand clients that trickle their headers (slowloris)
 * cost little, and each is cut at its header deadline; when the connection
 * limit is reached the oldest of them makes room for the newcomer, so a
 * client that sends its request at once is always served.  A head that is
 * malformed, too long, or announces what the server will not read is
 * answered here, with the same JSON errors as the API.  The same thread
 * enforces the header and body deadlines of the connections the HTTP
 * library holds, by shutting their sockets down.
 */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fcntl.h>
#include <netinet/in.h>
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
        int digits = 0;

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
        if (p < end && *p == '\r')
            p++;
        if (p == end)
            return 0;
        if (*p != '\n')
            return -1;
        p++;
        if (size == 0)
            return 0; /* the last chunk; trailers follow */
        if ((unsigned long long)(end - p) < size)
            return 0; /* the rest of this chunk is still to come */
        p += size;
        if (p < end && *p == '\r')
            p++;
        if (p == end)
            return 0;
        if (*p != '\n')
            return -1;
        p++;
    }
    return 0;
}

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

void
srv_send_error(int fd, unsigned status, const char *code, const char *msg)
{
    srv_error e;
    srv_reply r;
    char head[256];
    int hn;

    memset(&e, 0, sizeof e);
    e.http = status;
    e.code = code;
    snprintf(e.message, sizeof e.message, "%s", msg);
    srv_reply_error(&r, &e);
    hn = snprintf(head, sizeof head,
                  "HTTP/1.1 %u %s\r\nContent-Type: application/json\r\n"
                  "Cache-Control: no-store\r\nConnection: close\r\n"
                  "%sContent-Length: %zu\r\n\r\n",
                  status, reason(status),
                  status == 429 || status == 503 ? "Retry-After: 1\r\n" : "",
                  r.size);
    if (hn > 0 && (size_t)hn < sizeof head) {
        /* A socket just accepted has room for these few hundred bytes; if
           it has not, the client was not reading and loses the answer. */
        ssize_t w = send(fd, head, (size_t)hn, MSG_DONTWAIT | MSG_NOSIGNAL);

        if (w == hn)
            w = send(fd, r.body, r.size, MSG_DONTWAIT | MSG_NOSIGNAL);
        (void)w;
    }
    srv_reply_free(&r);
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
    int fd;
    int lingering;
    int counted; /* holds a place in the per-address and total counts */
    srv_ip ip;
    struct sockaddr_storage sa;
    socklen_t salen;
    long long deadline;
    struct pending *prev, *next;
} pending;

struct srv_conn {
    int fd;
    _Atomic long long deadline; /* ms of CLOCK_MONOTONIC; 0: none */
    srv_ip ip;
    srv_conn *prev, *next;
};

struct srv_front {
    srv_front_config fc;
    srv_ipmap *ips;
    int lfd, epfd, wake[2];
    int (*deliver)(void *, int, const struct sockaddr *, socklen_t);
    void *ud;
    pthread_t thread;
    int started;
    atomic_int open; /* connections held here (counted) and by the library */
    pending *head, *tail;
    size_t npending, nlinger;
    pthread_mutex_t mu; /* guards conns */
    srv_conn *conns;
    char buf[SRV_MAX_HEAD + 2];
    char drain[65536];
};

#define LINGER_MS 2000
#define MAX_LINGER 1024
#define SWEEP_MS 100

static void
uncount(srv_front *f, pending *pc)
{
    if (!pc->counted)
        return;
    pc->counted = 0;
    srv_ipmap_add(f->ips, &pc->ip, SRV_IP_CONNS, -1, 0);
    atomic_fetch_sub(&f->open, 1);
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

static void
close_pending(srv_front *f, pending *pc)
{
    unlink_pending(f, pc);
    uncount(f, pc);
    epoll_ctl(f->epfd, EPOLL_CTL_DEL, pc->fd, NULL);
    close(pc->fd);
    free(pc);
}

/* Reads and drops what the client has sent; returns 1 when it closed. */
static int
drain(srv_front *f, int fd)
{
    size_t total = 0;

    for (;;) {
        ssize_t r = recv(fd, f->drain, sizeof f->drain, MSG_DONTWAIT);

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
    int closed = drain(f, pc->fd);

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
    /* to the tail: the list stays in deadline order within each kind */
    pc->prev = f->tail;
    if (f->tail)
        f->tail->next = pc;
    else
        f->head = pc;
    f->tail = pc;
    f->nlinger++;
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
    pc->deadline = now_ms() + (long long)f->fc.header_ms;
    memset(&ev, 0, sizeof ev);
    /* Edge-triggered: peeking leaves the bytes there, so a level-triggered
       socket would wake the loop again at once; each new segment is an
       edge. */
    ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
    ev.data.ptr = pc;
    if (epoll_ctl(f->epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
        free(pc);
        return NULL;
    }
    pc->prev = f->tail;
    if (f->tail)
        f->tail->next = pc;
    else
        f->head = pc;
    f->tail = pc;
    f->npending++;
    return pc;
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
        if ((unsigned)atomic_load(&f->open) >= f->fc.max_conn) {
            /* Full: the oldest connection still sending its head (a
               slowloris suspect) makes room, else the newcomer waits
               elsewhere. */
            pending *old = f->head;

            while (old && (old->lingering || old == pc))
                old = old->next;
            if (old)
                refuse(f, old, 503, "EBUSY",
                       "the server is at its connection limit and this "
                       "connection had not sent its request");
            else {
                refuse(f, pc, 503, "EBUSY",
                       "the server is at its connection limit; try again");
                continue;
            }
        }
        if (srv_ipmap_add(f->ips, &pc->ip, SRV_IP_CONNS, 1,
                          f->fc.max_conn_per_ip) != 0) {
            /* The address is at its limit: its oldest connection that
               has not sent its head makes room, if it has one. */
            pending *old = f->head;

            while (old && (old->lingering || !old->counted ||
                           memcmp(&old->ip, &pc->ip, sizeof pc->ip) != 0))
                old = old->next;
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

    if (pc->lingering) {
        if (drain(f, pc->fd))
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
    /* A valid head: the HTTP library takes the connection, and its place
       in the counts (server.c releases it with srv_conn_close). */
    {
        int fd = pc->fd, counted = pc->counted;
        srv_ip ip = pc->ip;
        struct sockaddr_storage sa = pc->sa;
        socklen_t salen = pc->salen;

        epoll_ctl(f->epfd, EPOLL_CTL_DEL, fd, NULL);
        unlink_pending(f, pc);
        free(pc);
        if (f->deliver(f->ud, fd, (const struct sockaddr *)&sa, salen) !=
                0 &&
            counted) {
            srv_ipmap_add(f->ips, &ip, SRV_IP_CONNS, -1, 0);
            atomic_fetch_sub(&f->open, 1);
        }
    }
}

static void
sweep(srv_front *f)
{
    long long now = now_ms();
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

static void *
front_main(void *arg)
{
    srv_front *f = arg;
    long long next_sweep = now_ms() + SWEEP_MS;

    for (;;) {
        struct epoll_event ev[64];
        int n = epoll_wait(f->epfd, ev, 64, SWEEP_MS), i;
        long long now;

        for (i = 0; i < n; i++) {
            if (ev[i].data.ptr == &f->lfd) {
                accept_all(f);
            } else if (ev[i].data.ptr == &f->wake) {
                return NULL;
            } else {
                on_readable(f, ev[i].data.ptr, ev[i].events);
            }
        }
        now = now_ms();
        if (now >= next_sweep) {
            sweep(f);
            next_sweep = now + SWEEP_MS;
        }
    }
}

int
srv_front_start(srv_front **out, const srv_front_config *fc,
                const struct sockaddr *addr, socklen_t addrlen,
                srv_ipmap *ips,
                int (*deliver)(void *, int, const struct sockaddr *,
                               socklen_t),
                void *ud, unsigned *port)
{
    srv_front *f = calloc(1, sizeof *f);
    struct epoll_event ev;
    struct sockaddr_storage bound;
    socklen_t blen = sizeof bound;
    int one = 1;

    *out = NULL;
    if (!f)
        return -1;
    f->fc = *fc;
    f->ips = ips;
    f->deliver = deliver;
    f->ud = ud;
    f->lfd = f->epfd = f->wake[0] = f->wake[1] = -1;
    pthread_mutex_init(&f->mu, NULL);
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
    f->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (f->epfd < 0 || pipe(f->wake) != 0)
        goto fail;
    memset(&ev, 0, sizeof ev);
    ev.events = EPOLLIN;
    ev.data.ptr = &f->lfd;
    if (epoll_ctl(f->epfd, EPOLL_CTL_ADD, f->lfd, &ev) != 0)
        goto fail;
    ev.data.ptr = &f->wake;
    if (epoll_ctl(f->epfd, EPOLL_CTL_ADD, f->wake[0], &ev) != 0)
        goto fail;
    if (pthread_create(&f->thread, NULL, front_main, f) != 0)
        goto fail;
    f->started = 1;
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
    if (!f)
        return;
    if (f->started) {
        ssize_t w = write(f->wake[1], "x", 1);

        (void)w;
        pthread_join(f->thread, NULL);
        f->started = 0;
    }
    while (f->head)
        close_pending(f, f->head);
    if (f->lfd >= 0)
        close(f->lfd);
    if (f->epfd >= 0)
        close(f->epfd);
    if (f->wake[0] >= 0)
        close(f->wake[0]);
    if (f->wake[1] >= 0)
        close(f->wake[1]);
    f->lfd = f->epfd = f->wake[0] = f->wake[1] = -1;
}

void
srv_front_free(srv_front *f)
{
    if (!f)
        return;
    srv_front_stop(f);
    pthread_mutex_destroy(&f->mu);
    free(f);
}

srv_conn *
srv_conn_open(srv_front *f, int fd, const struct sockaddr *sa)
{
    srv_conn *c = f ? calloc(1, sizeof *c) : NULL;

    if (!c)
        return NULL;
    c->fd = fd;
    srv_ip_from_sockaddr(&c->ip, sa);
    atomic_store(&c->deadline, now_ms() + (long long)f->fc.header_ms);
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
    pthread_mutex_unlock(&f->mu);
    srv_ipmap_add(f->ips, &c->ip, SRV_IP_CONNS, -1, 0);
    atomic_fetch_sub(&f->open, 1);
    free(c);
}

void
srv_conn_deadline(srv_front *f, srv_conn *c, int which)
{
    unsigned long ms;

    if (!f || !c)
        return;
    ms = which == SRV_DEADLINE_HEADER ? f->fc.header_ms
         : which == SRV_DEADLINE_BODY ? f->fc.body_ms
                                      : 0;
    atomic_store(&c->deadline, ms ? now_ms() + (long long)ms : 0);
}

#else
typedef int srv_front_unused; /* ISO C: a translation unit is not empty */
#endif /* BOUTON_SERVER */
