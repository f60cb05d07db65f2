/*
 * oracle_heap.c -- one heap of a heap game by the definition (see
 * oracle_heap.h).  Deliberately simple: no sparse space, no periodicity
 * theorem, its own parser.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_heap.h"

enum { OH_OCTAL, OH_SUB, OH_GRUNDY };

struct oh_game {
    int kind;
    unsigned char digit[64]; /* octal: digit[k], k <= ndigit - 1 */
    unsigned ndigit;
    unsigned char block[64]; /* then block[0..nblock-1] forever */
    unsigned nblock;
    unsigned char *in_set; /* sub: in_set[s] for s <= maxs */
    unsigned maxs;
};

static const char *const named[][2] = {
    {"kayles", "0.77"},         {"dawsons-kayles", "0.07"},
    {"dawsons-chess", "0.137"}, {"double-kayles", "0.7777"},
    {"officers", "0.6"},        {"treblecross", "0.007"},
};

static int
parse_octal(oh_game *g, const char *code)
{
    const char *p = code;
    g->kind = OH_OCTAL;
    g->digit[0] = 0;
    if (*p == '0' || *p == '4')
        g->digit[0] = (unsigned char)(*p++ - '0');
    if (*p++ != '.')
        return -1;
    g->ndigit = 1;
    for (; *p; p++) {
        if (*p < '0' || *p > '7' || g->ndigit == 64)
            return -1;
        g->digit[g->ndigit++] = (unsigned char)(*p - '0');
    }
    return g->ndigit > 1 ? 0 : -1;
}

static int
parse_sub(oh_game *g, const char *s)
{
    /* two passes: the largest element, then the set */
    int pass;
    g->kind = OH_SUB;
    for (pass = 0; pass < 2; pass++) {
        const char *p = s;
        if (pass == 1) {
            g->in_set = calloc(g->maxs + 1, 1);
            if (g->in_set == NULL)
                return -1;
        }
        for (;;) {
            unsigned long lo = 0, hi, v;
            if (*p < '0' || *p > '9')
                return -1;
            while (*p >= '0' && *p <= '9')
                lo = lo * 10 + (unsigned long)(*p++ - '0');
            hi = lo;
            if (*p == '-') {
                p++;
                if (*p < '0' || *p > '9')
                    return -1;
                hi = 0;
                while (*p >= '0' && *p <= '9')
                    hi = hi * 10 + (unsigned long)(*p++ - '0');
            }
            if (lo == 0 || hi < lo || hi > 100000)
                return -1;
            if (pass == 0 && hi > g->maxs)
                g->maxs = (unsigned)hi;
            if (pass == 1)
                for (v = lo; v <= hi; v++)
                    g->in_set[v] = 1;
            if (*p == '\0')
                break;
            if (*p++ != ',')
                return -1;
        }
    }
    return 0;
}

oh_game *
oh_game_new(const char *spec)
{
    oh_game *g = calloc(1, sizeof *g);
    size_t i;
    int rc = -1;
    if (g == NULL)
        return NULL;
    for (i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strcmp(spec, named[i][0]) == 0)
            rc = parse_octal(g, named[i][1]);
    if (strncmp(spec, "octal:", 6) == 0)
        rc = parse_octal(g, spec + 6);
    else if (strncmp(spec, "sub:", 4) == 0)
        rc = parse_sub(g, spec + 4);
    else if (strcmp(spec, "grundy") == 0 || strcmp(spec, "grundys-game") == 0)
        rc = (g->kind = OH_GRUNDY, 0);
    if (rc != 0) {
        oh_game_free(g);
        return NULL;
    }
    return g;
}

oh_game *
oh_game_code(const unsigned *d, unsigned t, const unsigned *block,
             unsigned blen)
{
    oh_game *g;
    unsigned k;
    if (t >= 64 || blen > 64)
        return NULL;
    for (k = 0; k <= t; k++)
        if (d[k] > 15)
            return NULL;
    for (k = 0; k < blen; k++)
        if (block[k] > 15)
            return NULL;
    g = calloc(1, sizeof *g);
    if (g == NULL)
        return NULL;
    g->kind = OH_OCTAL;
    g->ndigit = t + 1;
    for (k = 0; k <= t; k++)
        g->digit[k] = (unsigned char)d[k];
    g->nblock = blen;
    for (k = 0; k < blen; k++)
        g->block[k] = (unsigned char)block[k];
    return g;
}

/* Digit k of a code: removing k counters may leave j heaps for each bit
   j (value 2^j) set. */
static unsigned
digit_of(const oh_game *g, unsigned k)
{
    if (k < g->ndigit)
        return g->digit[k];
    return g->nblock ? g->block[(k - g->ndigit) % g->nblock] : 0;
}

void
oh_game_free(oh_game *g)
{
    if (g == NULL)
        return;
    free(g->in_set);
    free(g);
}

size_t
oh_options(const oh_game *g, unsigned n,
           void (*f)(void *ud, const unsigned *parts, size_t nparts), void *ud)
{
    unsigned parts[3], k, a, b;
    size_t count = 0;
    if (g->kind == OH_GRUNDY) {
        /* split into two heaps of different sizes */
        for (a = 1; 2 * a < n; a++) {
            parts[0] = a;
            parts[1] = n - a;
            f(ud, parts, 2);
            count++;
        }
        return count;
    }
    if (g->kind == OH_SUB) {
        for (k = 1; k <= n && k <= g->maxs; k++) {
            if (!g->in_set[k])
                continue;
            parts[0] = n - k;
            f(ud, parts, n == k ? 0 : 1);
            count++;
        }
        return count;
    }
    for (k = 0; k <= n && (k < g->ndigit || g->nblock > 0); k++) {
        unsigned d = digit_of(g, k), rest = n - k;
        if ((d & 1) && rest == 0) {
            f(ud, parts, 0);
            count++;
        }
        if ((d & 2) && rest >= 1 && k >= 1) {
            parts[0] = rest;
            f(ud, parts, 1);
            count++;
        }
        if (d & 4)
            for (a = 1; 2 * a <= rest; a++) {
                parts[0] = a;
                parts[1] = rest - a;
                f(ud, parts, 2);
                count++;
            }
        if (d & 8) /* three heaps a <= b <= c */
            for (a = 1; 3 * a <= rest; a++)
                for (b = a; b <= rest - a - b; b++) {
                    parts[0] = a;
                    parts[1] = b;
                    parts[2] = rest - a - b;
                    f(ud, parts, 3);
                    count++;
                }
    }
    return count;
}

typedef struct mexer {
    const unsigned *g;
    unsigned char *seen;
    unsigned cap;
} mexer;

static void
on_option(void *ud, const unsigned *parts, size_t nparts)
{
    mexer *m = ud;
    unsigned v = 0;
    size_t i;
    for (i = 0; i < nparts; i++)
        v ^= m->g[parts[i]];
    if (v < m->cap)
        m->seen[v] = 1;
}

unsigned *
oh_grundy(const oh_game *g, unsigned n)
{
    unsigned *a = malloc((n ? n : 1) * sizeof *a), i, v;
    mexer m;
    if (a == NULL)
        return NULL;
    /* a mex never exceeds the number of options, at most n * 64 here;
       values above the cap cannot be the mex */
    m.cap = 1u << 16;
    m.seen = malloc(m.cap + 1);
    m.g = a;
    if (m.seen == NULL) {
        free(a);
        return NULL;
    }
    for (i = 0; i < n; i++) {
        memset(m.seen, 0, m.cap + 1);
        oh_options(g, i, on_option, &m);
        for (v = 0; m.seen[v]; v++)
            ;
        a[i] = v;
    }
    free(m.seen);
    return a;
}

/* -------------------------------------------------------- misère sums */

/* One slot of the memo: the high half of its key's hash, compared first,
   the key's length and outcome, and the key (the sorted heaps, one byte
   each) in the memo's arena; 16 bytes, so that a probe reads one cache
   line and the table of a big search stays small. */
typedef struct mis_slot_t {
    uint32_t tag;
    unsigned char len, val;
    unsigned char *key; /* NULL: empty */
} mis_slot_t;

/* The keys, bump-allocated in blocks that are freed with the memo. */
typedef struct mis_block {
    struct mis_block *next;
    size_t used;
    unsigned char bytes[(1u << 20) - 64];
} mis_block;

struct oh_misere {
    const oh_game *g;
    mis_slot_t *slot;
    size_t n, cap;
    mis_block *keys;
};

oh_misere *
oh_misere_new(const oh_game *g)
{
    oh_misere *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->g = g;
    m->cap = 1024;
    m->slot = calloc(m->cap, sizeof *m->slot);
    if (m->slot == NULL) {
        free(m);
        return NULL;
    }
    return m;
}

void
oh_misere_free(oh_misere *m)
{
    if (m == NULL)
        return;
    while (m->keys != NULL) {
        mis_block *next = m->keys->next;
        free(m->keys);
        m->keys = next;
    }
    free(m->slot);
    free(m);
}

/* A copy of key k in m's arena; NULL when out of memory. */
static unsigned char *
mis_keep(oh_misere *m, const unsigned char *k, size_t len)
{
    unsigned char *at;
    if (m->keys == NULL || m->keys->used + len > sizeof m->keys->bytes) {
        mis_block *b = malloc(sizeof *b);
        if (b == NULL)
            return NULL;
        b->next = m->keys;
        b->used = 0;
        m->keys = b;
    }
    at = m->keys->bytes + m->keys->used;
    memcpy(at, k, len);
    m->keys->used += len;
    return at;
}

/* The hash of a key: FNV-1a, then a 64-bit finaliser (MurmurHash3's),
   so that the low bits the table uses are mixed: with the plain
   multiply-by-33 hash, keys of a few bytes clustered and the probes with
   their comparisons took two thirds of the solver's time. */
static uint64_t
mis_hash(const unsigned char *k, size_t len)
{
    uint64_t h = 14695981039346656037u;
    size_t i;
    for (i = 0; i < len; i++)
        h = (h ^ k[i]) * 1099511628211u;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    return h;
}

/* The slot of key k (hash hv) in m: its own, or the empty one it goes to
   (linear probing). */
static mis_slot_t *
mis_find(const oh_misere *m, const unsigned char *k, size_t len, uint64_t hv)
{
    size_t h = (size_t)hv & (m->cap - 1);
    uint32_t tag = (uint32_t)(hv >> 32);
    for (;;) {
        mis_slot_t *s = &m->slot[h];
        if (s->key == NULL || (s->tag == tag && s->len == len &&
                               memcmp(s->key, k, len) == 0))
            return s;
        h = (h + 1) & (m->cap - 1);
    }
}

/* Stores a copy of key (length len <= 255, hash hv) with its value,
   doubling the table when half full; -1 when out of memory. */
static int
mis_store(oh_misere *m, const unsigned char *key, size_t len, uint64_t hv,
          int p)
{
    mis_slot_t *s;
    unsigned char *kept;
    size_t i;
    if (2 * (m->n + 1) > m->cap) {
        mis_slot_t *old = m->slot;
        size_t oldcap = m->cap;
        m->slot = calloc(2 * oldcap, sizeof *m->slot);
        if (m->slot == NULL) {
            m->slot = old;
            return -1;
        }
        m->cap = 2 * oldcap;
        for (i = 0; i < oldcap; i++)
            if (old[i].key != NULL) {
                /* the full hash again, for the slot: the tag is only its
                   high half */
                uint64_t oh = mis_hash(old[i].key, old[i].len);
                *mis_find(m, old[i].key, old[i].len, oh) = old[i];
            }
        free(old);
    }
    if ((kept = mis_keep(m, key, len ? len : 1)) == NULL)
        return -1;
    s = mis_find(m, key, len, hv);
    s->key = kept;
    s->len = (unsigned char)len;
    s->tag = (uint32_t)(hv >> 32);
    s->val = (unsigned char)p;
    m->n++;
    return 0;
}

/* One heap's options, the sum's other heaps beside them. */
typedef struct mis_move {
    oh_misere *m;
    const unsigned *h; /* the sum, sorted */
    size_t n, i;       /* its heaps; heap i moves */
    int any, p;        /* a move was seen; still P (-1: failed) */
} mis_move;

static void
on_mis_option(void *ud, const unsigned *parts, size_t nparts)
{
    mis_move *mv = ud;
    unsigned c[128 + 3];
    size_t k, mc = 0;
    int r;
    mv->any = 1;
    if (mv->p != 1) /* decided (a P option) or failed */
        return;
    for (k = 0; k < mv->n; k++)
        if (k != mv->i)
            c[mc++] = mv->h[k];
    for (k = 0; k < nparts; k++)
        c[mc++] = parts[k];
    r = oh_misere_is_p(mv->m, c, mc);
    if (r != 0)
        mv->p = r == 1 ? 0 : -1;
}

int
oh_misere_is_p(oh_misere *m, const unsigned *h0, size_t n)
{
    unsigned h[128 + 3];
    unsigned char key[128 + 3] = {0};
    size_t i, len = 0;
    uint64_t hv;
    mis_slot_t *found;
    mis_move mv;
    if (n > sizeof h / sizeof h[0])
        return -1;
    for (i = 0; i < n; i++)
        if (h0[i] > 0) {
            if (h0[i] > 255)
                return -1;
            h[len++] = h0[i];
        }
    if (len > 128)
        return -1;
    /* insertion sort: an option's heaps come sorted but for the one or
       two parts of the heap moved, at the end */
    for (i = 1; i < len; i++) {
        unsigned v = h[i];
        size_t j = i;
        for (; j > 0 && h[j - 1] > v; j--)
            h[j] = h[j - 1];
        h[j] = v;
    }
    for (i = 0; i < len; i++)
        key[i] = (unsigned char)h[i];
    hv = mis_hash(key, len);
    found = mis_find(m, key, len, hv);
    if (found->key != NULL)
        return found->val;
    mv.m = m;
    mv.h = h;
    mv.n = len;
    mv.any = 0;
    mv.p = 1;
    for (i = 0; i < len && mv.p == 1; i++) {
        if (i > 0 && h[i] == h[i - 1])
            continue; /* the same options as the heap before */
        mv.i = i;
        oh_options(m->g, h[i], on_mis_option, &mv);
    }
    if (mv.p < 0)
        return -1;
    if (!mv.any)
        mv.p = 0; /* no move: the player to move has won */
    if (mis_store(m, key, len, hv, mv.p) != 0)
        return -1;
    return mv.p;
}

/* ------------------------------------------------------------ periods */

int
oh_period(const unsigned *a, size_t n, size_t tail, size_t *p, size_t *n0)
{
    size_t q, i;
    for (q = 1; 2 * q <= n; q++) {
        /* the least start from which a is q-periodic up to the end */
        size_t start = n - q;
        for (i = n - q; i > 0 && a[i - 1] == a[i - 1 + q]; i--)
            ;
        start = i;
        if (n - start >= tail && 2 * q <= n - start) {
            *p = q;
            *n0 = start;
            return 1;
        }
    }
    return 0;
}

int
oh_read_keys(const char *path,
             int (*f)(void *ud, const char *key, const char *rest), void *ud)
{
    FILE *fp = fopen(path, "r");
    char line[1024];
    int rc = 0;
    if (fp == NULL)
        return -1;
    while (rc == 0 && fgets(line, sizeof line, fp) != NULL) {
        char key[32];
        int used;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%31s%n", key, &used) != 1)
            continue;
        rc = f(ud, key, line + used) != 0 ? -1 : 0;
    }
    fclose(fp);
    return rc;
}

static int
case_key(void *ud, const char *key, const char *p)
{
    oh_case *c = ud;
    if (strcmp(key, "game") == 0)
        return sscanf(p, "%63s", c->game) == 1 ? 0 : -1;
    if (strcmp(key, "check") == 0)
        return sscanf(p, "%15s", c->check) == 1 ? 0 : -1;
    if (strcmp(key, "offset") == 0)
        return sscanf(p, "%ld", &c->offset) == 1 ? 0 : -1;
    if (strcmp(key, "period") == 0)
        return sscanf(p, "%ld", &c->period) == 1 ? 0 : -1;
    if (strcmp(key, "preperiod") == 0)
        return sscanf(p, "%ld", &c->preperiod) == 1 ? 0 : -1;
    if (strcmp(key, "ppos_mod") == 0)
        return sscanf(p, "%ld %ld", &c->ppos_mod, &c->ppos_rem) == 2 ? 0 : -1;
    if (strcmp(key, "values") == 0) {
        unsigned v;
        int k;
        while (sscanf(p, "%u%n", &v, &k) == 1) {
            unsigned *q = realloc(c->values, (c->nvalues + 1) * sizeof *q);
            if (q == NULL)
                return -1;
            c->values = q;
            c->values[c->nvalues++] = v;
            p += k;
        }
        return 0;
    }
    return -1;
}

int
oh_case_load(oh_case *c, const char *path)
{
    int rc;
    memset(c, 0, sizeof *c);
    c->offset = c->period = c->preperiod = c->ppos_mod = c->ppos_rem = -1;
    strcpy(c->check, "quick");
    rc = oh_read_keys(path, case_key, c);
    if (rc == 0 && (c->game[0] == '\0' || (c->nvalues > 0 && c->offset < 0)))
        rc = -1;
    if (rc != 0)
        oh_case_free(c);
    return rc;
}

void
oh_case_free(oh_case *c)
{
    free(c->values);
    c->values = NULL;
    c->nvalues = 0;
}
