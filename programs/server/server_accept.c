/*
 * server_accept.c -- the accepting thread of the front of `bouton serve`
 * (worker 0: see server_front.c, server_front_impl.h and the resource
 * model in docs/api.md).
 *
 * It accepts every connection and holds it, as a pending connection,
 * until its first request head is complete: an entry in a list, no
 * thread.  It counts connections, in all and per client address, and
 * when a limit is reached makes room: the oldest connection still without
 * its head (a slowloris suspect) is refused, else the kept-alive
 * connection of the library idle the longest is shut down, else the
 * newcomer is refused.  A valid first head sends the connection to a
 * worker's relay; any other is answered here with the API's JSON error,
 * after which the connection lingers (its input drained) so that closing
 * it does not reset the answer away.  Its sweep cuts the pending
 * connections past their header deadline and shuts down the library's
 * connections past theirs.
 *
 * It calls server_http.c (the checks, the error answers), server_relay.c
 * (srv_relay_start, srv_drain) and the address map (srv_ip_from_sockaddr,
 * srv_ipmap_add).
 */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/epoll.h>
#include <sys/socket.h>

#include "server_front_impl.h"

#ifdef BOUTON_SERVER

/* ------------------------------------------------------------- pendings */

/* A connection the front holds: reading its first head, or lingering
   (answered, its input drained until the client closes or 2 s pass, so
   that closing it does not reset the answer away). */
struct srv_pending {
    unsigned char tag; /* SRV_TAG_PENDING (0) */
    int fd;
    int lingering;
    int counted; /* holds a place in the per-address and total counts */
    int dead;    /* closed or handed over; freed after the batch of events */
    size_t seen; /* bytes of its head peeked so far */
    srv_ip ip;
    struct sockaddr_storage sa;
    socklen_t salen;
    long long accepted, deadline;
    struct srv_pending *prev, *next;
};

/* A connection accepted this recently that has sent nothing yet is not
   taken for a slowloris: its request may be on its way. */
#define QUIET_GRACE_MS 200
#define MAX_LINGER 1024

/* Gives back a connection's place in the per-address and total counts. */
void
srv_release(srv_front *f, const srv_ip *ip)
{
    srv_ipmap_add(f->ips, ip, SRV_IP_CONNS, -1, 0);
    atomic_fetch_sub(&f->open, 1);
}

static void
uncount(srv_front *f, srv_pending *pc)
{
    if (!pc->counted)
        return;
    pc->counted = 0;
    srv_release(f, &pc->ip);
}

static void
unlink_pending(srv_front *f, srv_pending *pc)
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
append_pending(srv_front *f, srv_pending *pc)
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
   events (which may still name it) by srv_pendings_reap(). */
static void
bury_pending(srv_front *f, srv_pending *pc)
{
    unlink_pending(f, pc);
    pc->dead = 1;
    pc->next = f->dead;
    f->dead = pc;
}

void
srv_pendings_reap(srv_front *f)
{
    while (f->dead) {
        srv_pending *pc = f->dead;

        f->dead = pc->next;
        free(pc);
    }
}

void
srv_close_pending(srv_front *f, srv_pending *pc)
{
    uncount(f, pc);
    epoll_ctl(f->w[0].epfd, EPOLL_CTL_DEL, pc->fd, NULL);
    close(pc->fd);
    bury_pending(f, pc);
}

/* Answers pc with an error and lets it linger. */
static void
refuse(srv_front *f, srv_pending *pc, unsigned status, const char *code,
       const char *msg)
{
    int closed = srv_drain(f->w[0].drain, pc->fd);

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
        srv_close_pending(f, pc);
        return;
    }
    unlink_pending(f, pc);
    pc->lingering = 1;
    pc->deadline = srv_now_ms() + SRV_LINGER_MS;
    append_pending(f, pc);
}

static srv_pending *
add_pending(srv_front *f, int fd, const struct sockaddr_storage *sa,
            socklen_t salen)
{
    srv_pending *pc = calloc(1, sizeof *pc);
    struct epoll_event ev;

    if (!pc)
        return NULL;
    pc->fd = fd;
    pc->sa = *sa;
    pc->salen = salen;
    srv_ip_from_sockaddr(&pc->ip, (const struct sockaddr *)sa);
    pc->accepted = srv_now_ms();
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
static srv_pending *
slowest(srv_front *f, const srv_pending *newcomer, const srv_ip *ip)
{
    long long now = srv_now_ms();
    srv_pending *pc, *next;

    for (pc = f->head; pc; pc = next) {
        next = pc->next;
        if (pc->lingering || pc == newcomer ||
            (ip && (!pc->counted ||
                    memcmp(&pc->ip, ip, sizeof *ip) != 0)))
            continue;
        srv_on_readable(f, pc, 0);
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

void
srv_accept_all(srv_front *f)
{
    for (;;) {
        struct sockaddr_storage sa;
        socklen_t salen = sizeof sa;
        int fd = accept4(f->lfd, (struct sockaddr *)&sa, &salen,
                         SOCK_NONBLOCK | SOCK_CLOEXEC);
        srv_pending *pc;

        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE) {
                /* Out of descriptors: make room by dropping the oldest
                   connection that has not sent its head, or wait. */
                srv_pending *old = f->head;

                while (old && old->lingering)
                    old = old->next;
                if (old)
                    srv_close_pending(f, old);
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
            srv_pending *old = slowest(f, pc, NULL);

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
            srv_pending *old = slowest(f, pc, &pc->ip);

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

void
srv_on_readable(srv_front *f, srv_pending *pc, unsigned events)
{
    ssize_t n;
    const char *end;
    unsigned status;
    const char *code;
    char msg[160];

    if (pc->dead)
        return; /* closed earlier in this batch of events */
    if (pc->lingering) {
        if (srv_drain(f->w[0].drain, pc->fd))
            srv_close_pending(f, pc);
        return;
    }
    n = recv(pc->fd, f->buf, SRV_MAX_HEAD + 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
                   errno != EINTR)) {
        srv_close_pending(f, pc);
        return;
    }
    if (n < 0)
        return;
    pc->seen = (size_t)n;
    f->buf[n] = '\0';
    /* the head ends at the first empty line (after any empty lines that
       precede the request line) */
    {
        size_t at = srv_head_end(f->buf, (size_t)n);
        end = at != 0 ? f->buf + at : NULL;
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
    if (!status && srv_is_chunked(f->buf, end) &&
        srv_check_chunks(end, f->buf + n) != 0) {
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
            srv_handoff *h = malloc(sizeof *h);

            if (h) {
                srv_worker *w = &f->w[k];
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
        } else if (srv_relay_start(&f->w[0], fd,
                                   (const struct sockaddr *)&sa,
                                   salen) == 0) {
            return;
        }
        close(fd);
        if (counted)
            srv_release(f, &ip);
    }
}

/* The pending connections and the deadlines of the library's: the
   accepting thread's. */
void
srv_sweep(srv_front *f, long long now)
{
    srv_pending *pc = f->head, *next;
    srv_conn *c;

    for (; pc; pc = next) {
        next = pc->next;
        if (pc->deadline > now)
            continue;
        if (pc->lingering)
            srv_close_pending(f, pc);
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

#else
typedef int srv_accept_unused; /* ISO C: a translation unit is not empty */
#endif /* BOUTON_SERVER */
