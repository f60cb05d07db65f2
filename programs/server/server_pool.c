/*
 * server_pool.c -- the compute pool of `bouton serve` and the per-address
 * counters (see server_net.h and the resource model in docs/api.md).
 *
 * Why a pool: a request runs first on its HTTP thread for a short slice
 * (server.c); most answers take microseconds and never leave it.  One that
 * does not finish in its slice is heavy, and is queued here, where few
 * threads at a lower CPU priority run it with its whole time and memory
 * budget.  Heavy requests then share those threads, and light ones keep
 * the HTTP threads and the CPU's priority: they cannot be starved.
 */
#define _GNU_SOURCE /* syscall(SYS_gettid) for a per-thread nice value */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "server_net.h"

#ifdef BOUTON_SERVER

/* ----------------------------------------------------------------- pool */

#define HEAVY_SLOTS 1024
/*
 * A refused heavy request (429, 503) is answered after this delay: a
 * client that repeats it at once then waits instead of spinning, which
 * would take the HTTP threads' time from everyone else.
 */
#define REFUSAL_DELAY_MS 100

struct srv_pool {
    srv_pool_config pc;
    const srv_config *cfg;
    srv_ipmap *ips;
    const atomic_int *cancel;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    srv_job *head, *tail; /* FIFO of waiting jobs */
    size_t queued;
    int stopping;
    pthread_t *threads;
    unsigned started;
    /* refusals, answered REFUSAL_DELAY_MS after they were made */
    pthread_t delayer;
    int delayer_started;
    pthread_cond_t dcv;
    srv_job *dhead, *dtail;
    _Atomic uint64_t heavy[HEAVY_SLOTS];
};

uint64_t
srv_request_hash(const char *path, const char *body, size_t len)
{
    uint64_t h = 1469598103934665603ULL;
    size_t i;

    for (i = 0; path && path[i]; i++)
        h = (h ^ (unsigned char)path[i]) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL;
    for (i = 0; i < len; i++)
        h = (h ^ (unsigned char)body[i]) * 1099511628211ULL;
    return h | 1; /* 0 marks an empty slot */
}

int
srv_pool_known_heavy(srv_pool *p, uint64_t h)
{
    return atomic_load_explicit(&p->heavy[h % HEAVY_SLOTS],
                                memory_order_relaxed) == h;
}

void
srv_pool_mark_heavy(srv_pool *p, uint64_t h)
{
    atomic_store_explicit(&p->heavy[h % HEAVY_SLOTS], h,
                          memory_order_relaxed);
}

void
srv_pool_forget_heavy(srv_pool *p, uint64_t h)
{
    uint64_t was = h;

    atomic_compare_exchange_strong_explicit(&p->heavy[h % HEAVY_SLOTS], &was,
                                            0, memory_order_relaxed,
                                            memory_order_relaxed);
}

/* Thread CPU time in microseconds. */
static long long
thread_us(void)
{
    struct timespec t;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static void
answer_busy(srv_job *job, unsigned http, const char *code, const char *msg)
{
    srv_reply_errorf(&job->reply, http, code, "%s", msg);
}

static void *
pool_main(void *arg)
{
    srv_pool *p = arg;

#ifdef SYS_gettid
    /* Linux: setpriority on a thread id changes that thread alone. */
    if (p->pc.nice)
        (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid),
                          getpriority(PRIO_PROCESS, 0) + p->pc.nice);
#endif
    for (;;) {
        srv_job *job;
        srv_run run;

        pthread_mutex_lock(&p->mu);
        while (!p->head && !p->stopping)
            pthread_cond_wait(&p->cv, &p->mu);
        job = p->head;
        if (!job) { /* stopping, and nothing left */
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        p->head = job->next;
        if (!p->head)
            p->tail = NULL;
        p->queued--;
        pthread_mutex_unlock(&p->mu);

        memset(&run, 0, sizeof run);
        run.cancel = p->cancel;
        run.gone = job->gone;
        if (atomic_load(p->cancel)) {
            answer_busy(job, 503, "EBUSY", "the server is stopping");
        } else if (job->gone && atomic_load(job->gone)) {
            /* its client left while it waited: nobody reads the answer */
            answer_busy(job, 503, "EBUSY",
                        "the client closed its connection");
        } else {
            long long t0 = thread_us();

            srv_handle_run(&job->reply, p->cfg, &run, job->method, job->path,
                           job->body, job->len);
            if (!run.cancelled && !run.abandoned && p->pc.slice_us &&
                2 * (thread_us() - t0) < (long long)p->pc.slice_us)
                srv_pool_forget_heavy(p, srv_request_hash(job->path,
                                                          job->body,
                                                          job->len));
            if (run.cancelled) {
                srv_reply_free(&job->reply);
                answer_busy(job, 503, "EBUSY", "the server is stopping");
            } else if (run.abandoned) {
                srv_reply_free(&job->reply);
                answer_busy(job, 503, "EBUSY",
                            "the client closed its connection");
            }
        }
        srv_ipmap_add(p->ips, &job->ip, SRV_IP_HEAVY, -1, 0);
        job->done(job); /* job may be gone after this */
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
        /* A heavy request may have held much memory: give it back to the
           system now rather than keep the peak for the process's life.
           Not under ASan: its allocator replaces glibc's, whose arenas are
           then first set up here, racily when two workers end at once
           (a SIGTERM ends them together), and the race read a null arena. */
        malloc_trim(0);
#endif
    }
}

static struct timespec
due_time(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_nsec += REFUSAL_DELAY_MS * 1000000L;
    t.tv_sec += t.tv_nsec / 1000000000L;
    t.tv_nsec %= 1000000000L;
    return t;
}

static void *
delay_main(void *arg)
{
    srv_pool *p = arg;

    pthread_mutex_lock(&p->mu);
    for (;;) {
        srv_job *job = p->dhead;
        struct timespec now;

        if (!job) {
            if (p->stopping)
                break;
            pthread_cond_wait(&p->dcv, &p->mu);
            continue;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (!p->stopping && (now.tv_sec < job->due.tv_sec ||
                             (now.tv_sec == job->due.tv_sec &&
                              now.tv_nsec < job->due.tv_nsec))) {
            pthread_cond_timedwait(&p->dcv, &p->mu, &job->due);
            continue;
        }
        p->dhead = job->next;
        if (!p->dhead)
            p->dtail = NULL;
        pthread_mutex_unlock(&p->mu);
        job->done(job);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

void
srv_pool_refuse(srv_pool *p, srv_job *job)
{
    pthread_mutex_lock(&p->mu);
    if (p->stopping) {
        pthread_mutex_unlock(&p->mu);
        job->done(job);
        return;
    }
    job->due = due_time();
    job->next = NULL;
    if (p->dtail)
        p->dtail->next = job;
    else
        p->dhead = job;
    p->dtail = job;
    pthread_cond_signal(&p->dcv);
    pthread_mutex_unlock(&p->mu);
}

int
srv_pool_start(srv_pool **out, const srv_pool_config *pc,
               const srv_config *cfg, srv_ipmap *ips,
               const atomic_int *cancel)
{
    srv_pool *p = calloc(1, sizeof *p);
    pthread_condattr_t ca;
    unsigned i;

    *out = NULL;
    if (!p)
        return -1;
    p->pc = *pc;
    p->cfg = cfg;
    p->ips = ips;
    p->cancel = cancel;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&p->dcv, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&p->delayer, NULL, delay_main, p) != 0) {
        srv_pool_stop(p);
        return -1;
    }
    p->delayer_started = 1;
    p->threads = calloc(pc->threads, sizeof *p->threads);
    if (!p->threads) {
        srv_pool_stop(p);
        return -1;
    }
    for (i = 0; i < pc->threads; i++) {
        if (pthread_create(&p->threads[i], NULL, pool_main, p) != 0) {
            srv_pool_stop(p);
            return -1;
        }
        p->started++;
    }
    *out = p;
    return 0;
}

unsigned
srv_pool_submit(srv_pool *p, srv_job *job)
{
    if (srv_ipmap_add(p->ips, &job->ip, SRV_IP_HEAVY, 1,
                      p->pc.max_heavy_per_ip) != 0)
        return 429;
    pthread_mutex_lock(&p->mu);
    if (p->stopping || p->queued >= p->pc.max_queue) {
        pthread_mutex_unlock(&p->mu);
        srv_ipmap_add(p->ips, &job->ip, SRV_IP_HEAVY, -1, 0);
        return 503;
    }
    job->next = NULL;
    if (p->tail)
        p->tail->next = job;
    else
        p->head = job;
    p->tail = job;
    p->queued++;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

void
srv_pool_stop(srv_pool *p)
{
    unsigned i;

    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stopping = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_cond_broadcast(&p->dcv);
    pthread_mutex_unlock(&p->mu);
    if (p->delayer_started)
        pthread_join(p->delayer, NULL); /* answers the refusals at once */
    /* The threads drain the queue (answering 503, since *cancel is set)
       and leave. */
    for (i = 0; i < p->started; i++)
        pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->cv);
    pthread_cond_destroy(&p->dcv);
    pthread_mutex_destroy(&p->mu);
    free(p->threads);
    free(p);
}

#else
typedef int srv_pool_unused; /* ISO C: a translation unit is not empty */
#endif /* BOUTON_SERVER */
