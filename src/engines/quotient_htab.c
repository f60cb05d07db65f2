/*
 * quotient_htab.c -- byte-string keys to their indices in the order of
 * insertion: the learning table's rows, the proof's walk, the presentation
 * and the loader.  (The outcome search's memo is the game-graph kernel's
 * table, core/graph.c.)  Calls only the C library.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/quotient_impl.h"

static uint64_t
hash_bytes(const void *k, size_t len)
{
    const unsigned char *p = k;
    uint64_t h = 1469598103934665603ull ^ len;
    size_t i = 0;
    if (len >= 32) {
        /* four independent lanes of 8 bytes: a key of the proof's walk
           (a set of elements, up to hundreds of bytes) is hashed at
           every step of the walk, where one chain of multiplications,
           4 bytes a link, took a tenth of the time */
        uint64_t l0 = h, l1 = ~h, l2 = h ^ 0x9E3779B97F4A7C15ull,
                 l3 = h ^ 0xC2B2AE3D27D4EB4Full;
        for (; i + 32 <= len; i += 32) {
            uint64_t w0, w1, w2, w3;
            memcpy(&w0, p + i, 8);
            memcpy(&w1, p + i + 8, 8);
            memcpy(&w2, p + i + 16, 8);
            memcpy(&w3, p + i + 24, 8);
            l0 = (l0 ^ w0) * 0x9E3779B97F4A7C15ull;
            l1 = (l1 ^ w1) * 0x9E3779B97F4A7C15ull;
            l2 = (l2 ^ w2) * 0x9E3779B97F4A7C15ull;
            l3 = (l3 ^ w3) * 0x9E3779B97F4A7C15ull;
            l0 ^= l0 >> 31;
            l1 ^= l1 >> 31;
            l2 ^= l2 >> 31;
            l3 ^= l3 >> 31;
        }
        /* the lanes folded one into the next, each through a
           multiplication, so that none cancels another */
        h = ((((l0 * 0xff51afd7ed558ccdull) ^ l1) * 0xc4ceb9fe1a85ec53ull ^
              l2) *
                 0xff51afd7ed558ccdull ^
             l3);
    }
    for (; i + 4 <= len; i += 4) {
        uint32_t w;
        memcpy(&w, p + i, 4);
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 31;
    }
    for (; i < len; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    /* a full avalanche (MurmurHash3's fmix64): the table takes low bits
       for the slot and high bits for the tag */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

#define HT_TAG(h) ((uint64_t)(h) & 0xFFFFFFFF00000000ull)

void
bt__q_ht_free(htab *h)
{
    free(h->arena);
    free(h->off);
    free(h->len);
    free(h->slot);
    memset(h, 0, sizeof *h);
}

size_t
bt__q_ht_find(const htab *h, const void *k, size_t len)
{
    size_t i;
    uint64_t hv, tag;
    if (h->nslot == 0)
        return SIZE_MAX;
    hv = hash_bytes(k, len);
    tag = HT_TAG(hv);
    i = (size_t)hv & (h->nslot - 1);
    for (;; i = (i + 1) & (h->nslot - 1)) {
        uint64_t v = h->slot[i];
        size_t e;
        if (v == 0)
            return SIZE_MAX;
        if (HT_TAG(v) != tag)
            continue;
        e = (size_t)(v & 0xFFFFFFFFu) - 1;
        if (h->len[e] == len && memcmp(h->arena + h->off[e], k, len) == 0)
            return e;
    }
}

static int
ht_grow(htab *h)
{
    size_t ns = h->nslot ? 2 * h->nslot : 1024, i;
    uint64_t *s = calloc(ns, sizeof *s);
    if (s == NULL)
        return -1;
    for (i = 0; i < h->n; i++) {
        uint64_t hv = hash_bytes(h->arena + h->off[i], h->len[i]);
        size_t j = (size_t)hv & (ns - 1);
        while (s[j] != 0)
            j = (j + 1) & (ns - 1);
        s[j] = HT_TAG(hv) | (uint64_t)(i + 1);
    }
    free(h->slot);
    h->slot = s;
    h->nslot = ns;
    return 0;
}

/* Inserts a key known to be absent; returns its index or SIZE_MAX. */
size_t
bt__q_ht_add(htab *h, const void *k, size_t len)
{
    size_t i;
    uint64_t hv;
    if (h->n >= 0xFFFFFFFEu)
        return SIZE_MAX; /* indices are 32 bits in the slots */
    if (2 * (h->n + 1) > h->nslot && ht_grow(h) != 0)
        return SIZE_MAX;
    if (h->n == h->cap) {
        size_t nc = h->cap ? 2 * h->cap : 256;
        size_t *o = realloc(h->off, nc * sizeof *o), *l;
        if (o == NULL)
            return SIZE_MAX;
        h->off = o;
        l = realloc(h->len, nc * sizeof *l);
        if (l == NULL)
            return SIZE_MAX;
        h->len = l;
        h->cap = nc;
    }
    if (h->alen + len + 1 > h->acap) {
        size_t nc = h->acap ? 2 * h->acap : 4096;
        unsigned char *a;
        while (nc < h->alen + len + 1)
            nc *= 2;
        a = realloc(h->arena, nc);
        if (a == NULL)
            return SIZE_MAX;
        h->arena = a;
        h->acap = nc;
    }
    if (len > 0)
        memcpy(h->arena + h->alen, k, len);
    h->off[h->n] = h->alen;
    h->len[h->n] = len;
    h->alen += len;
    hv = hash_bytes(k, len);
    i = (size_t)hv & (h->nslot - 1);
    while (h->slot[i] != 0)
        i = (i + 1) & (h->nslot - 1);
    h->slot[i] = HT_TAG(hv) | (uint64_t)(++h->n);
    return h->n - 1;
}

void
bt__q_ht_clear(htab *h)
{
    h->n = 0;
    h->alen = 0;
    if (h->slot != NULL)
        memset(h->slot, 0, h->nslot * sizeof *h->slot);
}
