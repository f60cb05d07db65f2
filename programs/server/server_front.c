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
 * server will not read is answered at once, with the same JSON errors as
 * the API.  The same thread enforces the header and body deadlines of the
 * connections the HTTP library holds, by shutting their sockets down.
 *
 * A connection with a valid first head goes to one of the workers (round
 * robin; worker 0 is one of them), which relays it to its own instance of
 * the HTTP library and runs that instance itself: a request is read from
 * the client, checked, passed on, answered by the library and the answer
 * sent back, all in one thread and one turn of its event loop.
 *
 * The front's files share server_front_impl.h: this one holds the
 * workers' threads and their loop, the front's start and stop, the
 * handing over of connections to the workers, the runs of the library's
 * instances, and the srv_conn_* functions; server_accept.c the accepting
 * thread's pending connections, limits and deadlines; server_relay.c the
 * relay; server_http.c the checks of request heads and the error answers.
 * This one calls server_accept.c, server_relay.c, the library through
 * srv_front_lib and the address map (srv_ipmap_*).
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fcntl.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "server_front_impl.h"

#ifdef BOUTON_SERVER

/* ---------------------------------------------------------------- front */

#define EXIT_MS 500 /* srv_front_free waits this long for the last answers */
#define SWEEP_MS 100

/* The worker whose thread this is (srv_conn_open links the library's
   record of a connection to its relay, on that thread). */
static _Thread_local srv_worker *this_worker;

/* Starts relaying the connections handed over to w (or, once it is
   stopping, closes them). */
static void
take_handoffs(srv_worker *w)
{
    srv_handoff *h, *rev = NULL;

    pthread_mutex_lock(&w->mu);
    h = w->queue;
    w->queue = NULL;
    pthread_mutex_unlock(&w->mu);
    while (h) { /* in the order they came */
        srv_handoff *next = h->next;

        h->next = rev;
        rev = h;
        h = next;
    }
    for (h = rev; h; h = rev) {
        rev = h->next;
        if (w->exit_by ||
            srv_relay_start(w, h->fd, (const struct sockaddr *)&h->sa,
                            h->salen) != 0) {
            close(h->fd);
            if (h->counted)
                srv_release(w->f, &h->ip);
        }
        free(h);
    }
}

/* Runs w's instance of the library, then reads the answers of the relays
   that passed it a request in this batch. */
static void
run_library(srv_worker *w)
{
    srv_front *f = w->f;
    int more = 0;

    w->lib_due = 0;
    if (!w->lib_stopped)
        more = f->lib.run(f->lib.ud, w->k, 0);
    while (w->kick) {
        srv_relay *r = w->kick;

        w->kick = r->kick_next;
        r->kicked = 0;
        if (!w->lib_stopped)
            srv_relay_io(w, r, SRV_TAG_LIB, EPOLLIN);
    }
    if (more) /* it has work left that no event will announce */
        w->lib_due = 1;
}

/* The messages of w's wake-up pipe: 'c' connections handed over, 'q'
   (worker 0) stop accepting, 'x' the server is stopping. */
static void
on_wake(srv_worker *w)
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
                srv_close_pending(f, f->head);
        } else if (c[i] == 'x' && !w->exit_by) {
            /* srv_front_free: the compute pool has stopped; the library
               runs once more (the pool's last answers), then stops and
               closes its connections, whose last answers go out */
            w->exit_by = srv_now_ms() + EXIT_MS;
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
    srv_worker *w = arg;
    srv_front *f = w->f;
    long long next_sweep = srv_now_ms() + SWEEP_MS;

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
                srv_accept_all(f);
            } else if (p == &w->wake) {
                on_wake(w);
            } else if (p == &w->libfd) {
                w->lib_due = 1;
            } else if (*(unsigned char *)p == SRV_TAG_PENDING) {
                srv_on_readable(f, p, ev[i].events);
            } else {
                srv_relay_end *e = p;

                srv_relay_io(w, e->r, e->tag, ev[i].events);
            }
        }
        if (w->lib_due)
            run_library(w);
        now = srv_now_ms();
        if (now >= next_sweep) {
            srv_relay *r, *rn;

            if (w->k == 0)
                srv_sweep(f, now);
            for (r = w->relays; r; r = rn) {
                rn = r->next;
                if (r->lingering && r->deadline <= now)
                    srv_relay_free(w, r);
            }
            if (!w->lib_stopped && /* the library's own timeouts */
                f->lib.run(f->lib.ud, w->k, 0))
                w->lib_due = 1;
            next_sweep = now + SWEEP_MS;
        }
        srv_relays_reap(w);
        if (w->k == 0)
            srv_pendings_reap(f);
        if (w->exit_by && (now >= w->exit_by || !srv_relays_busy(w)))
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
        srv_worker *w = &f->w[k];

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
        srv_worker *w = &f->w[k];

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
        srv_close_pending(f, f->head);
    srv_pendings_reap(f);
    for (k = 0; k < f->nw; k++) {
        srv_worker *w = &f->w[k];

        w->exit_by = 1;
        take_handoffs(w);
        while (w->relays)
            srv_relay_free(w, w->relays);
        srv_relays_reap(w);
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
    atomic_store(&c->deadline, srv_now_ms() + (long long)f->fc.header_ms);
    /* its relay: the library opens it on the thread of the worker that
       delivered it, during or soon after the delivery */
    if (this_worker) {
        srv_relay *r = this_worker->starting;

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
    srv_release(f, &c->ip);
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
