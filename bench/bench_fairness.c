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
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

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

static int
connect_server(void)
{
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

    if (fd < 0)
        return -1;
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
   (the connection is then to be reopened). */
static int
exchange(int fd, const char *req, size_t len)
{
    char buf[65536];
    size_t got = 0, need = 0, head = 0;
    int status = 0;

    if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len)
        return 0;
    for (;;) {
        ssize_t r = recv(fd, buf + got, sizeof buf - 1 - got, 0);
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
        if (got >= sizeof buf - 1)
            return 0;
    }
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
            if (fd[i] < 0 && (fd[i] = connect_server()) >= 0) {
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

        if (fd < 0 && (fd = connect_server()) < 0) {
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
    int fd = connect_server();

    while (v && fd >= 0 && now_s() < end) {
        double t = now_s();
        int st = exchange(fd, req, (size_t)n);

        if (st != 200) {
            fprintf(stderr, "bench_fairness: a plain analyze got %d\n", st);
            close(fd);
            fd = connect_server();
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

int
main(int argc, char **argv)
{
    int heavy, rounds, r, i, a0 = 2;
    double secs;
    void *(*attack)(void *) = heavy_main;

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
