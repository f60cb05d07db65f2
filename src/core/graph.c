/*
 * graph.c -- the game-graph kernel: the one key of a position and the one
 * table of the searches (graph.h).
 *
 * The key is binary (graph.h): the limbs of the numbers themselves, so a
 * key costs a copy of the numbers, not a decimal conversion, and a search
 * never turns a position into text (tests/parse_back.sh).  The table is
 * open addressing with linear probing, kept at most half full; a key is
 * copied into blocks the table allocates (one malloc per block, not per
 * key), the blocks doubling from 1 KiB to 64 KiB so that a small search
 * holds little.  Everything held is charged to the table's budget.
 */
#include <stdlib.h>
#include <string.h>

#include "core/graph.h"

/* ------------------------------------------------------------- buffers */

void
bt__gbuf_init(bt__gbuf *b)
{
    b->w = NULL;
    b->len = b->cap = 0;
}

void
bt__gbuf_free(bt__gbuf *b)
{
    free(b->w);
    bt__gbuf_init(b);
}

/* Room for `more` words after b->len. */
static bt_status
gbuf_room(bt__gbuf *b, size_t more)
{
    size_t need = b->len + more, cap;
    mp_limb_t *w;
    if (need <= b->cap)
        return BT_OK;
    cap = b->cap ? 2 * b->cap : 32;
    while (cap < need)
        cap *= 2;
    w = realloc(b->w, cap * sizeof *w);
    if (w == NULL)
        return BT_ENOMEM;
    b->w = w;
    b->cap = cap;
    return BT_OK;
}

/* ------------------------------------------------------------- the key */

/* The number of g in t: the games are told apart by their canonical text
   (two positions parsed apart hold equal games at different addresses).
   The texts are not charged to the budget: a few bytes a game, and a
   position holds at most lim->max_games distinct games. */
static bt_status
game_number(bt__graph *t, const bt_game *g, size_t *out)
{
    size_t i, len;
    char *spec, **games;
    if (t->last < t->ngames && strcmp(t->games[t->last], g->spec) == 0) {
        *out = t->last;
        return BT_OK;
    }
    for (i = 0; i < t->ngames; i++)
        if (strcmp(t->games[i], g->spec) == 0) {
            *out = t->last = i;
            return BT_OK;
        }
    len = strlen(g->spec) + 1;
    if (t->ngames == t->capgames) {
        size_t cap = t->capgames ? 2 * t->capgames : 4;
        games = realloc(t->games, cap * sizeof *games);
        if (games == NULL)
            return BT_ENOMEM;
        t->games = games;
        t->capgames = cap;
    }
    if ((spec = malloc(len)) == NULL)
        return BT_ENOMEM;
    memcpy(spec, g->spec, len);
    t->games[t->ngames] = spec;
    *out = t->last = t->ngames++;
    return BT_OK;
}

bt_status
bt__graph_code(bt__graph *t, bt__gbuf *b, const bt_game *g, const mpz_t *v,
               size_t n)
{
    size_t j, words = 2, game;
    bt_status st;
    for (j = 0; j < n; j++)
        words += 1 + mpz_size(v[j]);
    if ((st = game_number(t, g, &game)) != BT_OK ||
        (st = gbuf_room(b, words)) != BT_OK)
        return st;
    b->w[b->len++] = (mp_limb_t)game;
    b->w[b->len++] = (mp_limb_t)n;
    for (j = 0; j < n; j++) {
        size_t k = mpz_size(v[j]);
        b->w[b->len++] = (mp_limb_t)(2 * k + (mpz_sgn(v[j]) < 0));
        if (k > 0)
            memcpy(b->w + b->len, mpz_limbs_read(v[j]), k * sizeof *b->w);
        b->len += k;
    }
    return BT_OK;
}

int
bt__graph_part_cmp(const bt__gpart *a, const bt__gpart *b)
{
    size_t n = a->n < b->n ? a->n : b->n, i;
    for (i = 0; i < n; i++)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return a->n < b->n ? -1 : a->n > b->n;
}

static int
part_qcmp(const void *a, const void *b)
{
    return bt__graph_part_cmp(a, b);
}

void
bt__graph_sort(bt__gpart *parts, size_t n)
{
    size_t i, j;
    if (n > 16) {
        qsort(parts, n, sizeof *parts, part_qcmp);
        return;
    }
    /* the sums a search meets are mostly a few components */
    for (i = 1; i < n; i++) {
        bt__gpart x = parts[i];
        for (j = i; j > 0 && bt__graph_part_cmp(&parts[j - 1], &x) > 0; j--)
            parts[j] = parts[j - 1];
        parts[j] = x;
    }
}

bt_status
bt__graph_join(bt__gbuf *key, const bt__gpart *parts, size_t n)
{
    size_t i, words = 0;
    bt_status st;
    for (i = 0; i < n; i++)
        words += parts[i].n;
    key->len = 0;
    if ((st = gbuf_room(key, words)) != BT_OK)
        return st;
    for (i = 0; i < n; i++) {
        /* a part may point into key itself: memmove */
        memmove(key->w + key->len, parts[i].w, parts[i].n * sizeof *key->w);
        key->len += parts[i].n;
    }
    return BT_OK;
}

size_t
bt__graph_split(const mp_limb_t *key, size_t len, bt__gpart *parts)
{
    size_t at = 0, count = 0;
    while (at < len) {
        size_t start = at, n = (size_t)key[at + 1], j;
        at += 2;
        for (j = 0; j < n; j++)
            at += 1 + (size_t)(key[at] >> 1);
        if (parts != NULL) {
            parts[count].w = key + start;
            parts[count].n = at - start;
        }
        count++;
    }
    return count;
}

bt_status
bt__graph_key(bt__graph *t, bt__gbuf *key, const bt_position *p)
{
    size_t n = bt_position_size(p), i;
    bt__gbuf codes;
    bt__gpart small[16], *parts = small;
    size_t ends_small[16], *ends = ends_small;
    bt_status st = BT_ENOMEM;
    bt__gbuf_init(&codes);
    if (n > 16 && ((parts = malloc(n * sizeof *parts)) == NULL ||
                   (ends = malloc(n * sizeof *ends)) == NULL))
        goto cleanup;
    for (i = 0; i < n; i++) {
        st = bt__graph_code(t, &codes, bt_position_game(p, i),
                            bt_position_nums(p, i), bt_position_count(p, i));
        if (st != BT_OK)
            goto cleanup;
        ends[i] = codes.len;
    }
    for (i = 0; i < n; i++) {
        size_t start = i ? ends[i - 1] : 0;
        parts[i].w = codes.w + start;
        parts[i].n = ends[i] - start;
    }
    bt__graph_sort(parts, n);
    st = bt__graph_join(key, parts, n);
cleanup:
    bt__gbuf_free(&codes);
    if (parts != small)
        free(parts);
    if (ends != ends_small)
        free(ends);
    return st;
}

/* ----------------------------------------------------------- the table */

/* A block of the keys' words. */
typedef struct bt__gblock {
    struct bt__gblock *next;
    size_t words;
    mp_limb_t w[]; /* the keys */
} bt__gblock;

#define BLOCK_FIRST 128u   /* words: 1 KiB */
#define BLOCK_MOST 8192u   /* words: 64 KiB */

static uint64_t
hash(const mp_limb_t *w, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= (uint64_t)w[i];
        h *= 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
    }
    h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 29);
}

/* The slot of key: where it is, or the empty slot where it would go. */
static bt__gslot *
lookup(const bt__graph *t, const mp_limb_t *key, size_t len)
{
    size_t i = (size_t)hash(key, len) & (t->cap - 1);
    while (t->slots[i].key != NULL) {
        if (t->slots[i].len == len &&
            memcmp(t->slots[i].key, key, len * sizeof *key) == 0)
            return &t->slots[i];
        i = (i + 1) & (t->cap - 1);
    }
    return &t->slots[i];
}

/* Charges bytes to t's budget and counts them held. */
static bt_status
charge(bt__graph *t, size_t bytes, bt_diag *diag)
{
    bt_status st;
    if (t->budget != NULL &&
        (st = bt__budget_charge(t->budget, bytes, diag)) != BT_OK)
        return st;
    t->bytes += bytes;
    return BT_OK;
}

static void
release(bt__graph *t, size_t bytes)
{
    if (t->budget != NULL)
        bt__budget_release(t->budget, bytes);
    t->bytes -= bytes;
}

bt_status
bt__graph_init(bt__graph *t, size_t cap, bt__budget *budget, bt_diag *diag)
{
    bt_status st;
    memset(t, 0, sizeof *t);
    t->budget = budget;
    if ((st = charge(t, cap * sizeof *t->slots, diag)) != BT_OK)
        return st;
    t->slots = calloc(cap, sizeof *t->slots);
    if (t->slots == NULL) {
        release(t, cap * sizeof *t->slots);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    t->cap = cap;
    return BT_OK;
}

void
bt__graph_clear(bt__graph *t)
{
    size_t i;
    while (t->blocks != NULL) {
        bt__gblock *b = t->blocks;
        t->blocks = b->next;
        free(b);
    }
    for (i = 0; i < t->ngames; i++)
        free(t->games[i]);
    free(t->games);
    free(t->slots);
    if (t->budget != NULL)
        bt__budget_release(t->budget, t->bytes);
    memset(t, 0, sizeof *t);
}

const bt__gslot *
bt__graph_find(const bt__graph *t, const mp_limb_t *key, size_t len)
{
    const bt__gslot *s = lookup(t, key, len);
    return s->key != NULL ? s : NULL;
}

/* Doubles the table: the new slots are charged while the old ones are
   still held. */
static bt_status
grow(bt__graph *t, bt_diag *diag)
{
    bt__gslot *old = t->slots, *s;
    size_t oldcap = t->cap, i;
    bt_status st;
    if ((st = charge(t, 2 * oldcap * sizeof *s, diag)) != BT_OK)
        return st;
    s = calloc(oldcap * 2, sizeof *s);
    if (s == NULL) {
        release(t, 2 * oldcap * sizeof *s);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    release(t, oldcap * sizeof *s);
    t->slots = s;
    t->cap = oldcap * 2;
    for (i = 0; i < oldcap; i++)
        if (old[i].key != NULL)
            *lookup(t, old[i].key, old[i].len) = old[i];
    free(old);
    return BT_OK;
}

/* Room for a key of len words in the newest block. */
static bt_status
block_room(bt__graph *t, size_t len, bt_diag *diag)
{
    size_t words, bytes;
    bt__gblock *b;
    bt_status st;
    if (t->blocks != NULL && t->block_left >= len)
        return BT_OK;
    words = t->blocks == NULL ? BLOCK_FIRST
            : t->blocks->words < BLOCK_MOST ? 2 * t->blocks->words
                                            : BLOCK_MOST;
    if (words < len)
        words = len;
    bytes = sizeof *b + words * sizeof(mp_limb_t);
    if ((st = charge(t, bytes, diag)) != BT_OK)
        return st;
    if ((b = malloc(bytes)) == NULL) {
        release(t, bytes);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    b->words = words;
    b->next = t->blocks;
    t->blocks = b;
    t->block_left = words;
    return BT_OK;
}

bt_status
bt__graph_put(bt__graph *t, const mp_limb_t *key, size_t len, long value,
              bt_diag *diag)
{
    bt__gslot *s;
    mp_limb_t *copy;
    bt_status st;
    if (2 * (t->used + 1) > t->cap && (st = grow(t, diag)) != BT_OK)
        return st;
    if ((st = block_room(t, len, diag)) != BT_OK)
        return st;
    copy = t->blocks->w + (t->blocks->words - t->block_left);
    t->block_left -= len;
    if (len > 0)
        memcpy(copy, key, len * sizeof *key);
    s = lookup(t, key, len);
    s->key = copy;
    s->len = len;
    s->value = value;
    t->used++;
    return BT_OK;
}
