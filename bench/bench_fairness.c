/*
 * bench_fairness.c -- do heavy requests starve light ones?  A client of a
 * running `bouton serve` (bench/bench_fairness.sh starts one):
 *
 *     bench_fairness PORT [HEAVY-CLIENTS] [SECONDS] [ROUNDS]
 *
 * Each round measures the latency of plain `POST /v1/analyze
 * {"position":"3 4 5"}` requests, sent one after another on one kept-alive
 * connection, for SECONDS alone, then for SECONDS while HEAVY-CLIENTS
 * (default 8) threads send `POST /v1/grundy {"game":"grundys-game",
 * "upto":4194304,"no_values":true}` (which runs to the time budget) as
 * fast as the server answers them, each on its own connection.  Prints the
 * percentiles of both phases, their ratio, and what the heavy requests got.
 *
 *     bench_fairness PORT slowloris CONNECTIONS [SECONDS] [ROUNDS]
 *
 * does the same with CONNECTIONS slowloris clients instead: each opens a
 * connection, sends a request line and then one header line a second,
 * never ending its head, and reconnects at once when the server closes it.
 *
 *     bench_fairness PORT hostile [SECS] [CLIENTS] [ROUNDS] [same] [CASE...]
 *
 * runs the hostile requests of issue 26 one case at a time: for each case,
 * the plain requests alone for SECONDS (default 3), then for SECONDS while
 * CLIENTS threads (default 4, at most 4) send that case's request again
 * and again, each on its own kept-alive connection (reopened when the
 * server closes it).  Each request differs from the last (a digit, a pile,
 * a heap size), so that none is known heavy from its hash and each runs
 * its slice on an HTTP thread first; `same` sends one text instead.
 * Prints, per case, the percentiles of both phases (and how many plain
 * requests took over 5 ms: one at a time, a stall of the server delays
 * one plain request, which the p99 may not show), the p99 ratio and the
 * verdict "within 2x of idle" (ratio <= 2) or "NOT within 2x", and what
 * the hostile requests got (status: count, mean ms); ROUNDS (default 1)
 * runs the list again; CASE... (1, 6b, ...) runs those cases only.
 * Case 6c is 6b with a new connection for each request.  The plain client
 * connects from 127.0.0.1, every other from 127.0.0.2.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>

static int port;
static volatile int stop_heavy;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned long statuses[600];

static double
now_s(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/*
 * A connection to the server, from 127.0.0.1 for the plain client and from
 * 127.0.0.2 for the attackers (heavy, slowloris, hostile): the server's
 * per-address rules (a share of the HTTP threads, caps of heavy requests
 * and connections) then see two clients, as they would over a network.
 */
static int
connect_server(int attacker)
{
    struct sockaddr_in a, src;
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

    if (fd < 0)
        return -1;
    memset(&src, 0, sizeof src);
    src.sin_family = AF_INET;
    src.sin_addr.s_addr = htonl(attacker ? 0x7f000002 : 0x7f000001);
    if (bind(fd, (struct sockaddr *)&src, sizeof src) != 0) {
        close(fd);
        return -1;
    }
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* Sends req and reads one answer; returns its status, 0 on a failure
   (the connection is then to be reopened).  The start of an answer other
   than 200 is left in buf (of 65536 bytes). */
static int
exchange_buf(int fd, const char *req, size_t len, char *buf)
{
    size_t got = 0, need = 0, head = 0;
    int status = 0;

    if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len)
        return 0;
    for (;;) {
        ssize_t r = recv(fd, buf + got, 65536 - 1 - got, 0);
        char *e;

        if (r <= 0)
            return 0;
        got += (size_t)r;
        buf[got] = '\0';
        if (!head && (e = strstr(buf, "\r\n\r\n")) != NULL) {
            char *cl = strstr(buf, "Content-Length:");

            head = (size_t)(e + 4 - buf);
            status = atoi(buf + 9);
            need = head + (cl && cl < e ? strtoul(cl + 15, NULL, 10) : 0);
        }
        if (head && got >= need)
            return status;
        if (got >= 65536 - 1)
            return 0;
    }
}

static int
exchange(int fd, const char *req, size_t len)
{
    char buf[65536];

    return exchange_buf(fd, req, len, buf);
}

static int slowloris_n;

static void *
slowloris_main(void *arg)
{
    int *fd = calloc((size_t)slowloris_n, sizeof *fd), i;
    unsigned long reopened = 0;

    (void)arg;
    if (!fd)
        return NULL;
    for (i = 0; i < slowloris_n; i++)
        fd[i] = -1;
    while (!stop_heavy) {
        for (i = 0; i < slowloris_n && !stop_heavy; i++) {
            char junk[4096];

            if (fd[i] >= 0 &&
                (recv(fd[i], junk, sizeof junk, MSG_DONTWAIT) == 0 ||
                 send(fd[i], "X-a: b\r\n", 8, MSG_NOSIGNAL | MSG_DONTWAIT) <
                     0)) {
                close(fd[i]);
                fd[i] = -1;
            }
            if (fd[i] < 0 && (fd[i] = connect_server(1)) >= 0) {
                reopened++;
                send(fd[i], "GET / HTTP/1.1\r\n", 16, MSG_NOSIGNAL);
            }
        }
        {
            struct timespec sec = {1, 0};

            nanosleep(&sec, NULL);
        }
    }
    for (i = 0; i < slowloris_n; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    free(fd);
    pthread_mutex_lock(&mu);
    statuses[0] += reopened;
    pthread_mutex_unlock(&mu);
    return NULL;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static void *
heavy_main(void *arg)
{
    static const char body[] =
        "{\"game\":\"grundys-game\",\"upto\":4194304,\"no_values\":true}";
    char req[512];
    int n = snprintf(req, sizeof req,
                     "POST /v1/grundy HTTP/1.1\r\nHost: b\r\n"
                     "Content-Length: %zu\r\n\r\n%s",
                     sizeof body - 1, body);
    int fd = -1;

    (void)arg;
    while (!stop_heavy) {
        int st;

        if (fd < 0 && (fd = connect_server(1)) < 0) {
            struct timespec ms = {0, 1000000L};

            nanosleep(&ms, NULL);
            continue;
        }
        st = exchange(fd, req, (size_t)n);
        pthread_mutex_lock(&mu);
        statuses[st >= 0 && st < 600 ? st : 0]++;
        pthread_mutex_unlock(&mu);
        if (st == 0 || st == 400) {
            close(fd);
            fd = -1;
        }
    }
    if (fd >= 0)
        close(fd);
    return NULL;
}

/* Plain requests for secs; fills *out (malloc'd, sorted) and returns the
   count. */
static size_t
light(double secs, double **out)
{
    static const char body[] = "{\"position\":\"3 4 5\"}";
    char req[256];
    int n = snprintf(req, sizeof req,
                     "POST /v1/analyze HTTP/1.1\r\nHost: b\r\n"
                     "Content-Length: %zu\r\n\r\n%s",
                     sizeof body - 1, body);
    size_t cap = 1 << 16, count = 0;
    double *v = malloc(cap * sizeof *v), end = now_s() + secs;
    int fd = connect_server(0);
    static char ans[65536];

    while (v && fd >= 0 && now_s() < end) {
        double t = now_s();
        int st = exchange_buf(fd, req, (size_t)n, ans);

        if (st != 200) {
            char *b = strstr(ans, "\r\n\r\n");

            fprintf(stderr, "bench_fairness: a plain analyze got %d %.120s\n",
                    st, st && b ? b + 4 : "");
            close(fd);
            fd = connect_server(0);
            continue;
        }
        if (count == cap) {
            double *w = realloc(v, 2 * cap * sizeof *v);

            if (!w)
                break;
            v = w;
            cap *= 2;
        }
        v[count++] = now_s() - t;
    }
    if (fd >= 0)
        close(fd);
    qsort(v, count, sizeof *v, cmp_double);
    *out = v;
    return count;
}

static double
pct(const double *v, size_t n, double p)
{
    size_t i = (size_t)((double)n * p);

    return n ? v[i < n ? i : n - 1] * 1e3 : 0;
}

/* ------------------------------------------------ hostile cases (issue 26) */

typedef struct hbuf {
    char *p;
    size_t len, cap;
} hbuf;

static void
hb_put(hbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        char *p;

        while (b->len + n + 1 > cap)
            cap *= 2;
        if (!(p = realloc(b->p, cap))) {
            fprintf(stderr, "bench_fairness: out of memory\n");
            exit(1);
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void
hb_str(hbuf *b, const char *s)
{
    hb_put(b, s, strlen(s));
}

static void
hb_rep(hbuf *b, char c, size_t n)
{
    while (n--)
        hb_put(b, &c, 1);
}

static void
hb_fmt(hbuf *b, const char *fmt, unsigned long v)
{
    char t[256];

    snprintf(t, sizeof t, fmt, v);
    hb_str(b, t);
}

static uint64_t
rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int vary = 1; /* each hostile request differs from the last */

/* A number of `digits` digits: 1, then zeros, then (varied) 9 random
   digits at the end. */
static void
hb_number(hbuf *b, size_t digits, uint64_t *s)
{
    size_t i;

    hb_str(b, "1");
    for (i = 1; i < digits; i++) {
        char c = vary && i + 9 >= digits ? (char)('0' + rnd(s) % 10) : '0';

        hb_put(b, &c, 1);
    }
}

/* `n` distinct take-and-break games tb:0.XYZ (no code ends in 0, so no
   two are the same game), a heap each. */
static void
hb_tb(hbuf *b, int n, uint64_t *s)
{
    int i, k = 0;

    for (i = 1; k < n; i++) {
        if (i % 16 == 0)
            continue;
        hb_fmt(b, k ? " + tb:0.%03lX" : "tb:0.%03lX", (unsigned long)i);
        hb_fmt(b, " %lu", vary ? 1 + rnd(s) % 9 : 5);
        k++;
    }
}

enum { C_MOVES, C_MOORE, C_WYTHOFF, C_TABLE64, C_PARSE, C_TB900, C_TB1001,
       C_TB1001_EACH, C_SUB, C_ABANDON, NCASES };

static const struct hcase {
    const char *name, *path;
} hcases[NCASES] = {
    {"1. moves: moore:5, 6 piles of 10 000 sevens", "/v1/moves"},
    {"2. analyze: moore:64, 2 048 random piles < 10^6", "/v1/analyze"},
    {"3. table: wythoff, min of 20 000 digits", "/v1/table"},
    {"4. table: 64 piles, min of 50 000 digits", "/v1/table"},
    {"5. parse: kayles 1 + ... (60 001 heaps)", "/v1/parse"},
    {"6. analyze: 900 distinct tb games", "/v1/analyze"},
    {"6b. analyze: 1 001 distinct tb games (past max_games)", "/v1/analyze"},
    {"6c. 6b with a new connection for each request", "/v1/analyze"},
    {"7. grundy: sub:1000000,2000001,4000003 until_proved", "/v1/grundy"},
    {"8. 40 heavy grundy requests abandoned after 0.5 s", "/v1/grundy"},
};

static int only[NCASES], only_any; /* the cases named on the command line */

/* The body of case c (varied by s). */
static void
hostile_body(hbuf *b, int c, uint64_t *s)
{
    int i;

    switch (c) {
    case C_MOVES:
        hb_str(b, "{\"position\":\"moore:5");
        for (i = 0; i < 6; i++) {
            size_t at = b->len + 1;

            hb_str(b, " ");
            hb_rep(b, '7', 10000);
            if (vary && i == (int)(rnd(s) % 6))
                b->p[at + 1 + rnd(s) % 9999] = (char)('0' + rnd(s) % 10);
        }
        hb_str(b, "\"}");
        break;
    case C_MOORE:
        hb_str(b, "{\"position\":\"moore:64");
        for (i = 0; i < 2048; i++)
            hb_fmt(b, " %lu", (unsigned long)(rnd(s) % 1000001));
        hb_str(b, "\"}");
        break;
    case C_WYTHOFF:
        hb_str(b, "{\"game\":\"wythoff\",\"min\":\"");
        hb_number(b, 20000, s);
        hb_str(b, "\",\"below\":\"1");
        hb_rep(b, '0', 20000);
        hb_str(b, "\"}");
        break;
    case C_TABLE64:
        hb_str(b, "{\"piles\":64,\"min\":\"");
        hb_number(b, 50000, s);
        hb_str(b, "\",\"below\":\"1");
        hb_rep(b, '0', 50000);
        hb_str(b, "\"}");
        break;
    case C_PARSE:
        hb_str(b, "{\"position\":\"");
        for (i = 0; i < 60000; i++)
            hb_str(b, "kayles 1 + ");
        hb_fmt(b, "kayles %lu\"}", vary ? 1 + rnd(s) % 1000 : 1);
        break;
    case C_TB900:
    case C_TB1001:
    case C_TB1001_EACH:
        hb_str(b, "{\"position\":\"");
        hb_tb(b, c == C_TB900 ? 900 : 1001, s);
        hb_str(b, "\"}");
        break;
    case C_SUB:
        hb_fmt(b, "{\"game\":\"sub:1000000,2000001,%lu\",\"until_proved\":"
                  "true,\"no_values\":true}",
               4000003UL + (vary ? rnd(s) % 1000 : 0));
        break;
    default: /* C_ABANDON: runs to the time budget */
        hb_fmt(b, "{\"game\":\"grundys-game\",\"upto\":%lu,\"no_values\":"
                  "true}",
               4194304UL - (vary ? rnd(s) % 100000 : 0));
        break;
    }
}

/* The whole request of case c. */
static void
hostile_request(hbuf *req, int c, uint64_t *s)
{
    hbuf body = {NULL, 0, 0};

    hostile_body(&body, c, s);
    req->len = 0;
    hb_str(req, "POST ");
    hb_str(req, hcases[c].path);
    hb_fmt(req, " HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\n"
                "Content-Length: %lu\r\n\r\n",
           (unsigned long)body.len);
    hb_put(req, body.p, body.len);
    free(body.p);
}

/* Sends req and reads one answer of any size, discarding its body;
   returns its status, 0 on a failure (reopen the connection). */
static int
exchange_any(int fd, const char *req, size_t len)
{
    char buf[65536];
    size_t got = 0, off = 0;
    unsigned long long left = 0;
    int status = 0, head = 0;

    while (off < len) {
        ssize_t w = send(fd, req + off, len - off, MSG_NOSIGNAL);

        if (w <= 0)
            return 0;
        off += (size_t)w;
    }
    for (;;) {
        ssize_t r = recv(fd, head ? buf : buf + got,
                         head ? sizeof buf : sizeof buf - 1 - got, 0);
        char *e;

        if (r <= 0)
            return 0;
        if (head) {
            if ((unsigned long long)r >= left)
                return status;
            left -= (unsigned long long)r;
            continue;
        }
        got += (size_t)r;
        buf[got] = '\0';
        if ((e = strstr(buf, "\r\n\r\n")) != NULL) {
            char *cl = strstr(buf, "Content-Length:");
            size_t body = got - (size_t)(e + 4 - buf);
            unsigned long long want =
                cl && cl < e ? strtoull(cl + 15, NULL, 10) : 0;

            status = atoi(buf + 9);
            if (body >= want)
                return status;
            head = 1;
            left = want - body;
        } else if (got >= sizeof buf - 1)
            return 0;
    }
}

static int hostile_case, hostile_clients;
static double status_s[600]; /* seconds to each answer, by status */

static void
hostile_count(int st, double secs)
{
    pthread_mutex_lock(&mu);
    statuses[st >= 0 && st < 600 ? st : 0]++;
    status_s[st >= 0 && st < 600 ? st : 0] += secs;
    pthread_mutex_unlock(&mu);
}

static int
connect_timed(void)
{
    int fd = connect_server(1);
    struct timeval tv = {30, 0};

    if (fd >= 0) {
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    }
    return fd;
}

static void
sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};

    nanosleep(&t, NULL);
}

static void *
hostile_main(void *arg)
{
    uint64_t s = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)(uintptr_t)arg << 32) ^
                 (uint64_t)(now_s() * 1e6);
    hbuf req = {NULL, 0, 0};
    int fd = -1;

    while (!stop_heavy) {
        double t;
        int st;

        if (hostile_case == C_ABANDON) {
            /* 40 sockets in all, each with a heavy request, closed after
               0.5 s without reading the answer */
            int n = 40 / hostile_clients, i, fds[40];

            for (i = 0; i < n; i++) {
                hostile_request(&req, C_ABANDON, &s);
                if ((fds[i] = connect_timed()) >= 0)
                    send(fds[i], req.p, req.len, MSG_NOSIGNAL);
            }
            sleep_ms(500);
            for (i = 0; i < n; i++)
                if (fds[i] >= 0) {
                    close(fds[i]);
                    hostile_count(1, 0.5); /* "1": abandoned */
                }
            continue;
        }
        hostile_request(&req, hostile_case, &s);
        if (fd < 0 && (fd = connect_timed()) < 0) {
            sleep_ms(1);
            continue;
        }
        t = now_s();
        st = exchange_any(fd, req.p, req.len);
        hostile_count(st, now_s() - t);
        if (st == 0 || st == 400 || st == 413 ||
            hostile_case == C_TB1001_EACH) {
            close(fd);
            fd = -1;
        }
    }
    if (fd >= 0)
        close(fd);
    free(req.p);
    return NULL;
}

static size_t
count_over(const double *v, size_t n, double secs)
{
    size_t k = 0;

    while (k < n && v[n - 1 - k] > secs)
        k++;
    return k;
}

/* The hostile cases, one after another, rounds times. */
static int
hostile_run(double secs, int clients, int rounds)
{
    double idle[NCASES * 16];
    int c, i, r, nidle = 0;

    hostile_clients = clients;
    printf("| case | alone: n, p50, p99, max (ms) | with %d hostile client%s: "
           "n, p50, p99, max (ms), over 5 ms | p99 ratio | verdict | "
           "hostile answers (status: count, mean ms) |\n",
           clients, clients > 1 ? "s" : "");
    printf("|---|---|---|---|---|---|\n");
    for (r = 0; r < rounds; r++)
        for (c = 0; c < NCASES; c++) {
            pthread_t t[4];
            double *a, *b, ratio;
            size_t na, nb;

            if (only_any && !only[c])
                continue;
            memset(statuses, 0, sizeof statuses);
            memset(status_s, 0, sizeof status_s);
            hostile_case = c;
            na = light(secs, &a);
            stop_heavy = 0;
            for (i = 0; i < clients; i++)
                pthread_create(&t[i], NULL, hostile_main,
                               (void *)(uintptr_t)(i + 1));
            sleep_ms(300);
            nb = light(secs, &b);
            stop_heavy = 1;
            for (i = 0; i < clients; i++)
                pthread_join(t[i], NULL);
            ratio = pct(b, nb, .99) / pct(a, na, .99);
            if (nidle < NCASES * 16)
                idle[nidle++] = pct(a, na, .99);
            printf("| %s | %zu, %.3f, %.3f, %.3f | %zu, %.3f, %.3f, %.3f, "
                   "%zu | %.2f | %s |",
                   hcases[c].name, na, pct(a, na, .5), pct(a, na, .99),
                   pct(a, na, 1), nb, pct(b, nb, .5), pct(b, nb, .99),
                   pct(b, nb, 1), count_over(b, nb, 5e-3), ratio,
                   ratio <= 2 ? "within 2x of idle" : "**NOT within 2x**");
            for (i = 0; i < 600; i++)
                if (statuses[i])
                    printf(" %s%d: %lu, %.0f", i == 1 ? "abandoned " : "",
                           i == 1 ? 0 : i, statuses[i],
                           1e3 * status_s[i] / (double)statuses[i]);
            printf(" |\n");
            fflush(stdout);
            free(a);
            free(b);
            /* let the server finish what the case left */
            sleep_ms(c == C_ABANDON || c == C_SUB ? 2500 : 500);
        }
    qsort(idle, (size_t)nidle, sizeof *idle, cmp_double);
    printf("\nidle p99 over the run (ms): lowest %.3f, median %.3f, "
           "highest %.3f\n",
           idle[0], idle[nidle / 2], idle[nidle - 1]);
    return 0;
}

int
main(int argc, char **argv)
{
    int heavy, rounds, r, i, a0 = 2;
    double secs;
    void *(*attack)(void *) = heavy_main;

    if (argc > 2 && strcmp(argv[2], "hostile") == 0) {
        int clients = argc > 4 ? atoi(argv[4]) : 4;

        if ((port = atoi(argv[1])) <= 0 || clients < 1 || clients > 4) {
            fprintf(stderr, "usage: bench_fairness PORT hostile [SECONDS] "
                            "[CLIENTS (1 to 4)] [ROUNDS] [same] [CASE...]\n");
            return 2;
        }
        int hr = argc > 5 ? atoi(argv[5]) : 1;

        if (hr < 1 || hr > 16)
            hr = 1;
        for (i = 6; i < argc; i++) {
            int c;

            if (strcmp(argv[i], "same") == 0) {
                vary = 0;
                continue;
            }
            for (c = 0; c < NCASES; c++)
                if (strncmp(hcases[c].name, argv[i], strlen(argv[i])) == 0 &&
                    hcases[c].name[strlen(argv[i])] == '.')
                    only[c] = 1;
            only_any = 1;
        }
        return hostile_run(argc > 3 ? atof(argv[3]) : 3, clients, hr);
    }
    if (argc > 2 && strcmp(argv[2], "slowloris") == 0) {
        attack = slowloris_main;
        a0 = 3;
        slowloris_n = argc > 3 ? atoi(argv[3]) : 1000;
    }
    heavy = argc > a0 ? atoi(argv[a0]) : 8;
    secs = argc > a0 + 1 ? atof(argv[a0 + 1]) : 5;
    rounds = argc > a0 + 2 ? atoi(argv[a0 + 2]) : 3;
    if (attack == slowloris_main) {
        secs = argc > 4 ? atof(argv[4]) : 5;
        rounds = argc > 5 ? atoi(argv[5]) : 3;
        heavy = 1; /* one thread holds all the connections */
    }

    if (argc < 2) {
        /* bench/run.sh runs every benchmark without arguments: this one
           needs a server, which bench_fairness.sh starts. */
        fprintf(stderr, "bench_fairness: a client of a running server; "
                        "run bench/bench_fairness.sh\n");
        return 0;
    }
    if ((port = atoi(argv[1])) <= 0 || heavy < 1 || rounds < 1) {
        fprintf(stderr, "usage: bench_fairness PORT [HEAVY-CLIENTS] [SECONDS] "
                        "[ROUNDS]\n");
        return 2;
    }
    if (attack == slowloris_main)
        printf("| round | analyze alone: n, p50, p99, max (ms) | with %d "
               "slowloris connections: n, p50, p99, max (ms) | p99 ratio "
               "|\n",
               slowloris_n);
    else
        printf("| round | analyze alone: n, p50, p99, max (ms) | with %d "
               "heavy clients: n, p50, p99, max (ms) | p99 ratio |\n",
               heavy);
    printf("|---|---|---|---|\n");
    for (r = 1; r <= rounds; r++) {
        pthread_t *t = calloc((size_t)heavy, sizeof *t);
        double *a, *b;
        size_t na = light(secs, &a), nb;

        stop_heavy = 0;
        for (i = 0; i < heavy; i++)
            pthread_create(&t[i], NULL, attack, NULL);
        {
            struct timespec wait = {attack == slowloris_main ? 2 : 0,
                                    300000000L};

            nanosleep(&wait, NULL);
        }
        nb = light(secs, &b);
        stop_heavy = 1;
        for (i = 0; i < heavy; i++)
            pthread_join(t[i], NULL);
        printf("| %d | %zu, %.3f, %.3f, %.3f | %zu, %.3f, %.3f, %.3f | "
               "%.2f |\n",
               r, na, pct(a, na, .5), pct(a, na, .99), pct(a, na, 1), nb,
               pct(b, nb, .5), pct(b, nb, .99), pct(b, nb, 1),
               pct(b, nb, .99) / pct(a, na, .99));
        fflush(stdout);
        free(a);
        free(b);
        free(t);
    }
    printf(attack == slowloris_main ? "\nslowloris connections opened "
                                      "(0):"
                                    : "\nheavy answers:");
    for (i = 0; i < 600; i++)
        if (statuses[i])
            printf(" %d: %lu", i, statuses[i]);
    printf("\n");
    return 0;
}
