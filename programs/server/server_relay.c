/*
 * server_relay.c -- a connection of `bouton serve` relayed to the HTTP
 * library, by the worker that runs the library's instance (see
 * server_front_impl.h and the resource model in docs/api.md).
 *
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
 *
 * A relay lives on its worker's thread from srv_relay_start to
 * srv_relay_free; the worker's loop (server_front.c) calls srv_relay_io on
 * each event of its two ends.  It calls server_http.c (the checks, the
 * error answers) and the library's deliver (srv_front_lib).
 */
#define _GNU_SOURCE /* as the front's other files */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "server_front_impl.h"

#ifdef BOUTON_SERVER

/* ---------------------------------------------------------------- relay */

enum { R_HEAD, R_BODY, C_SIZE, C_EXT, C_SIZE_LF, C_DATA, C_DATA_CR,
       C_DATA_LF, C_TRAILER, C_TRAILER_LF };

/* Reads and drops what the client has sent; returns 1 when it closed. */
int
srv_drain(char *buf, int fd)
{
    size_t total = 0;

    for (;;) {
        ssize_t r = recv(fd, buf, SRV_DRAIN_SIZE, MSG_DONTWAIT);

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
relay_refuse(srv_worker *w, srv_relay *r, unsigned status, const char *code,
             const char *msg)
{
    if (r->err)
        return;
    log_refusal(w->f, status, code, msg);
    r->err = status;
    r->err_len = srv_format_error(r->err_buf, sizeof r->err_buf, status,
                                  code, msg);
    r->in_len = r->fwd;
}

/* Parses in[fwd, in_len): moves fwd past what passed the checks, or
   refuses. */
static void
relay_parse(srv_worker *w, srv_relay *r)
{
    while (!r->err && r->fwd < r->in_len) {
        char *p = r->in + r->fwd;
        size_t avail = r->in_len - r->fwd;
        unsigned char c = (unsigned char)*p;

        switch (r->st) {
        case R_HEAD: {
            size_t n = srv_head_end(p, avail);
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
            r->left = srv_head_body(p, n, &chunked);
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
relay_watch(srv_worker *w, srv_relay *r)
{
    unsigned ec = 0, em = 0;
    struct epoll_event ev;

    if (r->lingering) {
        ec = EPOLLIN;
    } else {
        if (!r->c_eof && !r->err && r->in_len - r->sent < SRV_RELAY_IN)
            ec |= EPOLLIN;
        if (r->out_off < r->out_len || (r->mfd < 0 && r->err_off < r->err_len))
            ec |= EPOLLOUT;
        if (r->mfd >= 0 && r->out_len - r->out_off < SRV_RELAY_OUT)
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
   of epoll events (which may still name it) with srv_relays_reap(). */
void
srv_relay_free(srv_worker *w, srv_relay *r)
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

void
srv_relays_reap(srv_worker *w)
{
    while (w->dead) {
        srv_relay *r = w->dead;

        w->dead = r->next;
        free(r);
    }
}

/* Does what can be done on r without blocking, after an event on one of
   its ends (which: SRV_TAG_CLIENT or SRV_TAG_LIB). */
void
srv_relay_io(srv_worker *w, srv_relay *r, int which, unsigned events)
{
    ssize_t n;

    if (r->dead)
        return; /* ended earlier in this batch of events */
    if (r->lingering) {
        if (srv_drain(w->drain, r->cfd))
            srv_relay_free(w, r);
        return;
    }
    if (which == SRV_TAG_CLIENT && (events & (EPOLLHUP | EPOLLERR)) &&
        (r->c_eof || r->err)) {
        srv_relay_free(w, r); /* the client is gone */
        return;
    }
    if (which == SRV_TAG_CLIENT &&
        (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && !r->c_eof && !r->err &&
        r->in_len - r->sent < SRV_RELAY_IN) {
        if (r->sent > 0) { /* what was written makes room */
            memmove(r->in, r->in + r->sent, r->in_len - r->sent);
            r->in_len -= r->sent;
            r->fwd -= r->sent;
            r->sent = 0;
        }
        n = recv(r->cfd, r->in + r->in_len, SRV_RELAY_IN - r->in_len,
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
            srv_relay_free(w, r); /* the client is gone */
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
    if (which == SRV_TAG_LIB && r->mfd >= 0 &&
        r->out_len - r->out_off < SRV_RELAY_OUT) {
        if (r->out_off > 0) { /* what was sent makes room */
            memmove(r->out, r->out + r->out_off, r->out_len - r->out_off);
            r->out_len -= r->out_off;
            r->out_off = 0;
        }
        n = recv(r->mfd, r->out + r->out_len, SRV_RELAY_OUT - r->out_len,
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
            srv_relay_free(w, r); /* the client is gone */
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
        r->deadline = srv_now_ms() + SRV_LINGER_MS;
        if (r->c_eof) {
            srv_relay_free(w, r);
            return;
        }
    }
    relay_watch(w, r);
}

/* Starts relaying fd, a connection whose first head has passed the checks,
   and hands the other end of the pair to the library; 0, or -1 (fd left
   open) when it could not start. */
int
srv_relay_start(srv_worker *w, int fd, const struct sockaddr *sa,
                socklen_t salen)
{
    srv_front *f = w->f;
    srv_relay *r = calloc(1, sizeof *r);
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
    r->ec.tag = SRV_TAG_CLIENT;
    r->em.tag = SRV_TAG_LIB;
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
    srv_relay_io(w, r, SRV_TAG_CLIENT, EPOLLIN);
    return 0;
fail:
    close(sp[0]);
    close(sp[1]);
    free(r);
    return -1;
}

/* Whether a relay of w still has answers of the library to pass on. */
int
srv_relays_busy(const srv_worker *w)
{
    const srv_relay *r;

    for (r = w->relays; r; r = r->next)
        if (!r->lingering && (r->mfd >= 0 || r->out_off < r->out_len))
            return 1;
    return 0;
}

#else
typedef int srv_relay_unused; /* ISO C: a translation unit is not empty */
#endif /* BOUTON_SERVER */
