/*
 * server_ipmap.c -- counters per client address for `bouton serve` (open
 * connections, heavy requests), shared by the front and the compute pool;
 * see server_net.h.  tests/server/test_ipmap.c checks it against a plain
 * array on random operations.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <netinet/in.h>

#include "server_net.h"

#ifdef BOUTON_SERVER

/* ------------------------------------------------------------ addresses */

void
srv_ip_from_sockaddr(srv_ip *ip, const struct sockaddr *sa)
{
    memset(ip, 0, sizeof *ip);
    if (!sa)
        return;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

        ip->a[10] = ip->a[11] = 0xff;
        memcpy(ip->a + 12, &in->sin_addr, 4);
    } else if (sa->sa_family == AF_INET6) {
        memcpy(ip->a, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
    }
}

typedef struct srv_ipslot {
    srv_ip ip;
    unsigned count[2];
    /* the address's share of the HTTP threads (srv_ipmap_slice_cost):
       costly slices in a row, until when (ms) its requests skip the
       slice, and until when the slot outlives its counts to keep both */
    unsigned costly;
    long long pool_until, keep_until;
    int used;
} srv_ipslot;

/* Open addressing with linear probing; a slot is freed when both of its
   counts are zero and it keeps no share state (past keep_until), or, at
   a full map, when its counts are zero whatever it keeps: connections
   come before the memory of costly slices (backward-shift deletion keeps
   probes short). */
struct srv_ipmap {
    pthread_mutex_t mu;
    size_t cap, used; /* cap a power of two */
    srv_ipslot *slot;
};

srv_ipmap *
srv_ipmap_new(size_t capacity)
{
    srv_ipmap *m = calloc(1, sizeof *m);
    size_t cap = 64;

    while (cap < 2 * capacity + 16)
        cap *= 2;
    if (!m || !(m->slot = calloc(cap, sizeof *m->slot))) {
        free(m);
        return NULL;
    }
    m->cap = cap;
    pthread_mutex_init(&m->mu, NULL);
    return m;
}

void
srv_ipmap_free(srv_ipmap *m)
{
    if (!m)
        return;
    pthread_mutex_destroy(&m->mu);
    free(m->slot);
    free(m);
}

static size_t
ip_hash(const srv_ip *ip)
{
    uint64_t h = 1469598103934665603ULL;
    size_t i;

    for (i = 0; i < sizeof ip->a; i++)
        h = (h ^ ip->a[i]) * 1099511628211ULL;
    return (size_t)(h ^ (h >> 29));
}

static void
ipmap_remove(srv_ipmap *m, size_t i)
{
    size_t j = i;

    m->slot[i].used = 0;
    m->used--;
    for (;;) {
        size_t k;

        j = (j + 1) & (m->cap - 1);
        if (!m->slot[j].used)
            return;
        k = ip_hash(&m->slot[j].ip) & (m->cap - 1);
        /* move slot j back to i when its home k does not lie in (i, j] */
        if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
            m->slot[i] = m->slot[j];
            m->slot[j].used = 0;
            i = j;
        }
    }
}

static long long
now_ms(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The slot of ip, or of where it would go (not used). */
static size_t
ipmap_find(srv_ipmap *m, const srv_ip *ip)
{
    size_t i = ip_hash(ip) & (m->cap - 1);

    while (m->slot[i].used && memcmp(&m->slot[i].ip, ip, sizeof *ip) != 0)
        i = (i + 1) & (m->cap - 1);
    return i;
}

/* Frees every slot with no counts (their share state is dropped); the
   map was full.  O(cap), once per filling. */
static void
ipmap_sweep(srv_ipmap *m)
{
    size_t i = 0;

    while (i < m->cap)
        if (m->slot[i].used && !m->slot[i].count[0] && !m->slot[i].count[1])
            ipmap_remove(m, i); /* slot i may now hold a later one */
        else
            i++;
}

/* A slot for ip, made when absent; SIZE_MAX when the map is full. */
static size_t
ipmap_slot(srv_ipmap *m, const srv_ip *ip)
{
    size_t i = ipmap_find(m, ip);

    if (m->slot[i].used)
        return i;
    if (m->used + 1 >= m->cap / 2) {
        ipmap_sweep(m);
        if (m->used + 1 >= m->cap / 2)
            return SIZE_MAX;
        i = ipmap_find(m, ip);
    }
    memset(&m->slot[i], 0, sizeof m->slot[i]);
    m->slot[i].ip = *ip;
    m->slot[i].used = 1;
    m->used++;
    return i;
}

/* Frees slot i when it holds nothing: no counts, no share state. */
static void
ipmap_drop_empty(srv_ipmap *m, size_t i)
{
    if (!m->slot[i].count[0] && !m->slot[i].count[1] &&
        m->slot[i].keep_until <= now_ms())
        ipmap_remove(m, i);
}

int
srv_ipmap_add(srv_ipmap *m, const srv_ip *ip, int which, int delta,
              unsigned max)
{
    size_t i;
    int rc = 0;

    pthread_mutex_lock(&m->mu);
    i = ipmap_find(m, ip);
    if (!m->slot[i].used) {
        if (delta <= 0 || (i = ipmap_slot(m, ip)) == SIZE_MAX) {
            rc = delta <= 0 ? 0 : -1;
            goto done;
        }
    }
    if (delta > 0 && max && m->slot[i].count[which] + (unsigned)delta > max) {
        rc = -1;
    } else if (delta < 0 && m->slot[i].count[which] < (unsigned)-delta) {
        m->slot[i].count[which] = 0; /* never below zero */
    } else {
        m->slot[i].count[which] += (unsigned)delta;
    }
    ipmap_drop_empty(m, i);
done:
    pthread_mutex_unlock(&m->mu);
    return rc;
}

int
srv_ipmap_to_pool(srv_ipmap *m, const srv_ip *ip)
{
    size_t i;
    int rc;

    pthread_mutex_lock(&m->mu);
    i = ipmap_find(m, ip);
    rc = m->slot[i].used && m->slot[i].pool_until &&
         now_ms() < m->slot[i].pool_until;
    pthread_mutex_unlock(&m->mu);
    return rc;
}

void
srv_ipmap_slice_cost(srv_ipmap *m, const srv_ip *ip, int costly)
{
    long long now = now_ms();
    size_t i;

    pthread_mutex_lock(&m->mu);
    i = costly ? ipmap_slot(m, ip) : ipmap_find(m, ip);
    if (i == SIZE_MAX || !m->slot[i].used)
        goto done; /* a light slice of an address with no state, or a
                      full map: nothing to remember */
    if (!costly) {
        m->slot[i].costly = 0;
    } else if (++m->slot[i].costly >= SRV_COSTLY_SLICES) {
        m->slot[i].costly = 0;
        m->slot[i].pool_until = now + SRV_COSTLY_POOL_MS;
        m->slot[i].keep_until = m->slot[i].pool_until;
    } else if (m->slot[i].keep_until < now + SRV_COSTLY_POOL_MS) {
        m->slot[i].keep_until = now + SRV_COSTLY_POOL_MS;
    }
    ipmap_drop_empty(m, i);
done:
    pthread_mutex_unlock(&m->mu);
}

#else
typedef int srv_ipmap_unused; /* ISO C: a translation unit is not empty */
#endif /* BOUTON_SERVER */
