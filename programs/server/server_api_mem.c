/*
 * server_api_mem.c -- the server's own allocations charged to the request
 * that makes them.
 *
 * The library counts what a computation holds against bt_limits.max_memory
 * (its structures, and apart its numbers); what the server builds around
 * it (the request's JSON, the answer's tree and text, a table's cursor)
 * was plain malloc, uncounted, so a request whose answer grew large (a
 * page of a table of huge numbers: 16 MB of text and twice that in its
 * tree) passed --request-memory unchecked.  Here every such block is
 * charged to a meter of the request, the thread's current one, and an
 * allocation that would take the meter past its cap fails: jansson
 * returns NULL, and srv_handle_run() answers 422 ELIMIT for the request
 * whatever the handler made of the failure (a failed append it did not
 * check leaves a tree short of a part: it is thrown away).
 *
 * A block carries its size and the id of the meter that charged it in a
 * header before it.  A block may outlive its request's meter and be freed
 * on another thread: the pool builds an answer, the HTTP thread sends and
 * frees it.  So a meter is never pointed at: it lives in its thread's
 * storage, with an id drawn once per request from a counter of 64 bits
 * (never reused), and freeing a block gives its bytes back only to the
 * meter of the calling thread, and only when that is the one that charged
 * it.  A block freed elsewhere (the answer, after its request ended)
 * gives back nothing: its meter is gone, and counts no more.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"

/* Before each block: its meter's id (0: none) and its size; aligned as
   malloc aligns, so that the block after it is too. */
typedef struct srv_block {
    _Alignas(max_align_t) uint64_t meter;
    size_t size;
} srv_block;

/* The meter of the request the thread is handling (id 0: none). */
static _Thread_local struct {
    uint64_t id;
    size_t used, cap;
    int refused;
} meter;
static atomic_uint_fast64_t meter_ids;

void *
srv_malloc(size_t n)
{
    srv_block *b;

    if (n > SIZE_MAX - sizeof *b)
        return NULL;
    if (meter.id) {
        if (meter.refused || n + sizeof *b > meter.cap - meter.used) {
            meter.refused = 1;
            return NULL;
        }
    }
    b = malloc(sizeof *b + n);
    if (!b)
        return NULL;
    b->meter = meter.id;
    b->size = n;
    if (meter.id)
        meter.used += sizeof *b + n;
    return b + 1;
}

void
srv_free(void *p)
{
    srv_block *b;

    if (!p)
        return;
    b = (srv_block *)p - 1;
    if (b->meter && b->meter == meter.id)
        meter.used -= sizeof *b + b->size;
    free(b);
}

void
srv_mem_install(void)
{
    json_set_alloc_funcs(srv_malloc, srv_free);
}

void
srv_meter_begin(size_t cap)
{
    meter.id = atomic_fetch_add(&meter_ids, 1) + 1;
    meter.used = 0;
    meter.cap = cap ? cap : SIZE_MAX;
    meter.refused = 0;
}

int
srv_meter_end(void)
{
    int refused = meter.refused;

    meter.id = 0;
    meter.used = 0;
    meter.refused = 0;
    return refused;
}
