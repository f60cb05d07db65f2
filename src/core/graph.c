/*
 * graph.c -- the game-graph kernel: the one key of a position, the one
 * table and the one walk of the searches (graph.h).
 *
 * The key is binary (graph.h): the limbs of the numbers themselves, so a
 * key costs a copy of the numbers, not a decimal conversion, and a search
 * never turns a position into text (tests/parse_back.sh).  The table is
 * open addressing with linear probing, kept at most half full, a slot one
 * word (its key's hash's high half, and where its entry is); a key is
 * copied into one array of entries the table holds (no allocation per
 * key), doubling from 1 KiB, so that a small search holds little.
 * Everything held is charged to the table's budget.
 *
 * The walk (graph.h) is the one search of the game graph: the misère
 * outcome search (engines/search.c), the remoteness solver
 * (analysis/remoteness.c) and the default mex (generic.c) ask it for
 * their values and set its bounds.  The misère quotient's outcome search
 * (engines/quotient_search.c) uses the table alone: its positions are
 * multisets of heaps of one game, some answered by the quotient already
 * proved, and its keys are the heaps packed into words.
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

/*
 * A code is short for the small numbers searches meet: its header is one
 * word, (count << 17) | (game << 1) | 1, when the game's number is below
 * 2^16 and the count below 2^(bits - 17), else a 0 then the game's number
 * and the count; a number below 2^(bits - 1) is one word, (x << 1) | 1,
 * any other its size and sign, (size << 2) | (sign << 1), then its limbs.
 * Each number has one form, so equal components have equal codes.
 */
#define SMALL_BITS (GMP_NUMB_BITS - 1)
#define COUNT_BITS (GMP_NUMB_BITS - 17)

bt_status
bt__graph_code(bt__graph *t, bt__gbuf *b, const bt_game *g, const mpz_t *v,
               size_t n)
{
    size_t j, words = 3, game;
    bt_status st;
    for (j = 0; j < n; j++)
        words += 1 + mpz_size(v[j]);
    if ((st = game_number(t, g, &game)) != BT_OK ||
        (st = gbuf_room(b, words)) != BT_OK)
        return st;
    if (game < ((size_t)1 << 16) &&
        (uint64_t)n < ((uint64_t)1 << COUNT_BITS)) {
        b->w[b->len++] = ((mp_limb_t)n << 17) | ((mp_limb_t)game << 1) | 1u;
    } else {
        b->w[b->len++] = 0;
        b->w[b->len++] = (mp_limb_t)game;
        b->w[b->len++] = (mp_limb_t)n;
    }
    for (j = 0; j < n; j++) {
        size_t k = mpz_size(v[j]);
        mp_limb_t low = k ? mpz_getlimbn(v[j], 0) : 0;
        if (mpz_sgn(v[j]) >= 0 && k <= 1 && (low >> SMALL_BITS) == 0) {
            b->w[b->len++] = (low << 1) | 1u;
            continue;
        }
        b->w[b->len++] = ((mp_limb_t)k << 2) | (mpz_sgn(v[j]) < 0 ? 2u : 0u);
        memcpy(b->w + b->len, mpz_limbs_read(v[j]), k * sizeof *b->w);
        b->len += k;
    }
    return BT_OK;
}

/* The words of the header of the code at q, and its count of numbers. */
static size_t
code_header(const mp_limb_t *q, size_t *count)
{
    if (q[0] & 1u) {
        *count = (size_t)(q[0] >> 17);
        return 1;
    }
    *count = (size_t)q[2];
    return 3;
}

/* The words of the number at q. */
static size_t
number_len(const mp_limb_t *q)
{
    return q[0] & 1u ? 1 : 1 + (size_t)(q[0] >> 2);
}

/* The words of the code at q. */
static size_t
code_len(const mp_limb_t *q)
{
    size_t n, j, len = code_header(q, &n);
    for (j = 0; j < n; j++)
        len += number_len(q + len);
    return len;
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

/* ----------------------------------------------------------- the table */

/* An entry in t->keys: its length (one word), its value, its words. */
#define VALUE_WORDS \
    ((sizeof(long) + sizeof(mp_limb_t) - 1) / sizeof(mp_limb_t))
#define ENTRY_WORDS(len) (1 + VALUE_WORDS + (len))
/* The first entries' array, in words (1 KiB). */
#define KEYS_FIRST 128u
/* A slot: the high half of the hash, and 1 + where the entry starts. */
#define SLOT_TAG(s) ((uint32_t)((s) >> 32))
#define SLOT_AT(s) ((size_t)((s) & 0xFFFFFFFFu) - 1)
#define KEYS_MOST ((size_t)0xFFFFFFFEu)
/* The most slots: the tag's 32 bits place a slot. */
#define SLOTS_MOST ((uint64_t)1 << 32)

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

/* Where key, of hash tag (the hash's high half, which places it), is in
   t's slots, or the empty slot where it would go. */
static size_t
lookup(const bt__graph *t, const mp_limb_t *key, size_t len, uint32_t tag)
{
    size_t i = (size_t)tag & (t->cap - 1), j;
    for (;; i = (i + 1) & (t->cap - 1)) {
        uint64_t s = t->slots[i];
        const mp_limb_t *e;
        if (s == 0)
            return i;
        if (SLOT_TAG(s) != tag)
            continue;
        e = t->keys + SLOT_AT(s);
        if ((size_t)e[0] != len)
            continue;
        /* a key of a few words (the quotient's) by a loop, a longer one
           (the walk's) by memcmp */
        e += 1 + VALUE_WORDS;
        if (len > 4) {
            if (memcmp(e, key, len * sizeof *key) == 0)
                return i;
            continue;
        }
        for (j = 0; j < len && e[j] == key[j]; j++)
            ;
        if (j == len)
            return i;
    }
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
    for (i = 0; i < t->ngames; i++)
        free(t->games[i]);
    free(t->games);
    free(t->slots);
    free(t->keys);
    if (t->budget != NULL)
        bt__budget_release(t->budget, t->bytes);
    memset(t, 0, sizeof *t);
}

void
bt__graph_empty(bt__graph *t)
{
    if (t->slots != NULL)
        memset(t->slots, 0, t->cap * sizeof *t->slots);
    t->used = 0;
    t->keys_len = 0;
}

int
bt__graph_get(const bt__graph *t, const mp_limb_t *key, size_t len,
              long *value)
{
    uint32_t tag = (uint32_t)(hash(key, len) >> 32);
    uint64_t s = t->slots[lookup(t, key, len, tag)];
    if (s == 0)
        return 0;
    memcpy(value, t->keys + SLOT_AT(s) + 1, sizeof *value);
    return 1;
}

/* Doubles the table: the new slots are charged while the old ones are
   still held.  A slot's tag places it, so no key is read. */
static bt_status
grow(bt__graph *t, bt_diag *diag)
{
    uint64_t *old = t->slots, *s;
    size_t oldcap = t->cap, i;
    bt_status st;
    if (oldcap > SIZE_MAX / 2 / sizeof *s ||
        2 * (uint64_t)oldcap > SLOTS_MOST)
        return bt__fail(diag, BT_ELIMIT,
                        "a search's table would need more than 2^32 slots");
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
        if (old[i] != 0) {
            size_t j = (size_t)SLOT_TAG(old[i]) & (t->cap - 1);
            while (s[j] != 0)
                j = (j + 1) & (t->cap - 1);
            s[j] = old[i];
        }
    free(old);
    return BT_OK;
}

/* Room for `words` more words in t->keys: the array doubles, the new one
   charged while the old one is still held. */
static bt_status
keys_room(bt__graph *t, size_t words, bt_diag *diag)
{
    size_t need = t->keys_len + words, cap;
    mp_limb_t *k;
    bt_status st;
    if (need <= t->keys_cap)
        return BT_OK;
    if (words > KEYS_MOST || need > KEYS_MOST)
        return bt__fail(diag, BT_ELIMIT,
                        "a search's table would need more than 2^32 words "
                        "of keys");
    cap = t->keys_cap ? 2 * t->keys_cap : KEYS_FIRST;
    while (cap < need)
        cap *= 2;
    if ((st = charge(t, cap * sizeof *k, diag)) != BT_OK)
        return st;
    if ((k = realloc(t->keys, cap * sizeof *k)) == NULL) {
        release(t, cap * sizeof *k);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    release(t, t->keys_cap * sizeof *k);
    t->keys = k;
    t->keys_cap = cap;
    return BT_OK;
}

bt_status
bt__graph_put(bt__graph *t, const mp_limb_t *key, size_t len, long value,
              bt_diag *diag)
{
    mp_limb_t *e;
    uint32_t tag;
    bt_status st;
    if (2 * (t->used + 1) > t->cap && (st = grow(t, diag)) != BT_OK)
        return st;
    if ((st = keys_room(t, ENTRY_WORDS(len), diag)) != BT_OK)
        return st;
    e = t->keys + t->keys_len;
    e[0] = (mp_limb_t)len;
    memcpy(e + 1, &value, sizeof value);
    if (len > 0)
        memcpy(e + 1 + VALUE_WORDS, key, len * sizeof *key);
    tag = (uint32_t)(hash(key, len) >> 32);
    t->slots[lookup(t, key, len, tag)] =
        ((uint64_t)tag << 32) | (uint64_t)(t->keys_len + 1);
    t->keys_len += ENTRY_WORDS(len);
    t->used++;
    return BT_OK;
}

/* ------------------------------------------------------------ the walk */

/* The walk asks the clock and the interrupt every this many moves listed,
   and the interrupt every 16 options followed (known ones too: each costs
   its key and a lookup, and a walk that mostly meets known positions went
   3-20 ms between polls when only new ones counted). */
#define POLL_MOVES 64u
/* The mex lists the moves of a position this many at a time, listing
   again past those it has valued when it needs more: the recursion it
   replaces held no list, and a list of every move of every position on
   the path would hold a few hundred KB where it held a few.  The outcome
   and remoteness searches list every move at once, as they did. */
#define MEX_CHUNK 32u
/* internal: a chunk is full, stop the listing */
#define GSTOP ((bt_status)101)

/* A position on the walk's path.  Its moves are kept as codes (graph.h),
   one record a move: the component it changes, the count k of the
   components it leaves there, and their k codes; a kid's key is merged
   from them, and its numbers are read from their limbs only when the kid
   is new. */
typedef struct gframe {
    bt_position *p; /* its components in the order they came */
    bt__gbuf codes; /* their codes, in p's order */
    bt__gpart *parts; /* parts[i]: the code of component i, into codes */
    size_t *sorted;   /* sorted[j]: the component j-th in the key */
    size_t n;
    bt__gbuf key;
    bt__gbuf moves;  /* the records of its moves */
    size_t nmoves;   /* listed */
    size_t next, at; /* the next move to follow, and where its record is */
    size_t bytes;    /* charged to the walk's budget */
    size_t moves_bytes; /* of them, the moves' words */
    int expanded, cut;
    int has_p;
    long min_p, max_all;
    /* the mex: seen[v], an option of value v (v < nseen, grown as values
       come); whether moves are left past those listed (MEX_CHUNK at a
       time); the next component of the move being valued (where its code
       is), and the nim-sum of the values of those before it */
    unsigned char *seen;
    size_t nseen, part, part_at;
    int more;
    unsigned long x;
} gframe;

typedef struct gidx {
    bt__gpart part;
    size_t idx;
} gidx;

static int
gidx_cmp(const void *a, const void *b)
{
    return bt__graph_part_cmp(&((const gidx *)a)->part,
                              &((const gidx *)b)->part);
}

static void
gidx_sort(gidx *x, size_t n)
{
    size_t i, j;
    if (n > 16) {
        qsort(x, n, sizeof *x, gidx_cmp);
        return;
    }
    for (i = 1; i < n; i++) {
        gidx y = x[i];
        for (j = i; j > 0 && bt__graph_part_cmp(&x[j - 1].part, &y.part) > 0;
             j--)
            x[j] = x[j - 1];
        x[j] = y;
    }
}


bt_status
bt__gwalk_init(bt__gwalk *w, bt__gask ask, int misere, size_t cap)
{
    memset(w, 0, sizeof *w);
    bt__budget_init(&w->budget, NULL);
    w->budget.max = 0;
    w->ask = ask;
    w->misere = misere != 0;
    w->max_positions = w->max_moves = w->max_total = SIZE_MAX;
    if (bt__graph_init(&w->t, cap, &w->budget, NULL) != BT_OK)
        return BT_ENOMEM;
    return BT_OK;
}

void
bt__gwalk_clear(bt__gwalk *w)
{
    bt__graph_clear(&w->t);
    bt__gbuf_free(&w->key);
    free(w->order);
    free(w->views);
    free(w->limbs);
    w->order = NULL;
    w->views = NULL;
    w->limbs = NULL;
    w->ordcap = w->nviews = 0;
}

static void
frame_free(bt__gwalk *w, gframe *f)
{
    bt_position_free(f->p);
    bt__gbuf_free(&f->codes);
    bt__gbuf_free(&f->key);
    bt__gbuf_free(&f->moves);
    free(f->parts); /* and sorted, in the same block */
    free(f->seen);
    bt__budget_release(&w->budget, f->bytes);
    memset(f, 0, sizeof *f);
}

/* Room for n components' parts and order in f (one block). */
static bt_status
frame_arrays(gframe *f, size_t n)
{
    size_t each = sizeof *f->parts + sizeof *f->sorted;
    f->parts = malloc((n ? n : 1) * each);
    if (f->parts == NULL)
        return BT_ENOMEM;
    f->sorted = (size_t *)(void *)(f->parts + n);
    f->n = n;
    return BT_OK;
}

/* Charges what f holds (its arrays, codes, key and position) to the
   walk's budget. */
static bt_status
frame_charge(bt__gwalk *w, gframe *f, bt_diag *diag)
{
    size_t bytes = sizeof *f + f->n * (sizeof *f->parts + sizeof *f->sorted) +
                   (f->codes.cap + f->key.cap) * sizeof(mp_limb_t) +
                   bt__position_bytes(f->p);
    bt_status st = bt__budget_charge(&w->budget, bytes, diag);
    if (st != BT_OK) {
        w->why = BT__GWHY_BYTES;
        return st;
    }
    f->bytes = bytes;
    return BT_OK;
}

/* Sets f->key to the codes of f in the order of f->sorted. */
static bt_status
frame_key(gframe *f)
{
    size_t i;
    bt_status st;
    f->key.len = 0;
    for (i = 0; i < f->n; i++) {
        const bt__gpart *q = &f->parts[f->sorted[i]];
        if ((st = gbuf_room(&f->key, q->n)) != BT_OK)
            return st;
        memcpy(f->key.w + f->key.len, q->w, q->n * sizeof *q->w);
        f->key.len += q->n;
    }
    return BT_OK;
}

/* Points f->parts into f->codes, the codes ending at ends[0..n-1]. */
static void
frame_parts(gframe *f, const size_t *ends)
{
    size_t i, at = 0;
    for (i = 0; i < f->n; i++) {
        f->parts[i].w = f->codes.w + at;
        f->parts[i].n = ends[i] - at;
        at = ends[i];
    }
}

/* The root's frame: a copy of p, its codes, their order and its key. */
static bt_status
root_frame(bt__gwalk *w, gframe *f, const bt_position *p)
{
    size_t n = bt_position_size(p), i;
    gidx small[16], *x = small;
    bt_status st;
    memset(f, 0, sizeof *f);
    if (bt_position_copy(&f->p, p) != BT_OK || frame_arrays(f, n) != BT_OK)
        return BT_ENOMEM;
    for (i = 0; i < n; i++) {
        st = bt__graph_code(&w->t, &f->codes, bt_position_game(p, i),
                            bt_position_nums(p, i), bt_position_count(p, i));
        if (st != BT_OK)
            return st;
        f->sorted[i] = f->codes.len; /* the ends, for frame_parts */
    }
    frame_parts(f, f->sorted);
    if (n > 16 && (x = malloc(n * sizeof *x)) == NULL)
        return BT_ENOMEM;
    for (i = 0; i < n; i++) {
        x[i].part = f->parts[i];
        x[i].idx = i;
    }
    gidx_sort(x, n);
    for (i = 0; i < n; i++)
        f->sorted[i] = x[i].idx;
    if (x != small)
        free(x);
    return frame_key(f);
}

/* The key of the position that the move whose record is at rec leaves
   from f's position, in w->key, and in w->order the order of its key:
   component i of the kid is component i of f below the move's, the new
   ones at the move's place, then the rest of f's.  This runs once per move
   of every position walked: nothing is copied but the key. */
static bt_status
kid_key(bt__gwalk *w, const gframe *f, const mp_limb_t *rec, size_t *nkid)
{
    size_t c = (size_t)rec[0], k = (size_t)rec[1], i, j, a = 0, b = 0, n;
    const mp_limb_t *q = rec + 2;
    gidx small[16], *x = small;
    bt_status st = BT_ENOMEM;

    n = f->n - 1 + k;
    *nkid = n;
    if (n > w->ordcap) {
        size_t cap = 2 * n, *o = realloc(w->order, cap * sizeof *o);
        if (o == NULL)
            return BT_ENOMEM;
        w->order = o;
        w->ordcap = cap;
    }
    if (k > 16 && (x = malloc(k * sizeof *x)) == NULL)
        return BT_ENOMEM;
    for (i = 0; i < k; i++) {
        x[i].part.w = q;
        x[i].part.n = code_len(q);
        x[i].idx = i;
        q += x[i].part.n;
    }
    gidx_sort(x, k);
    /* merge f's order (less the move's component) with the new codes' */
    w->key.len = 0;
    for (j = 0; j < n; j++) {
        const bt__gpart *pt;
        if (a < f->n && f->sorted[a] == c)
            a++;
        if (a < f->n &&
            (b >= k ||
             bt__graph_part_cmp(&f->parts[f->sorted[a]], &x[b].part) <= 0)) {
            size_t i0 = f->sorted[a++];
            pt = &f->parts[i0];
            w->order[j] = i0 < c ? i0 : i0 - 1 + k;
        } else {
            pt = &x[b].part;
            w->order[j] = c + x[b++].idx;
        }
        if ((st = gbuf_room(&w->key, pt->n)) != BT_OK)
            goto cleanup;
        memcpy(w->key.w + w->key.len, pt->w, pt->n * sizeof *pt->w);
        w->key.len += pt->n;
    }
    st = BT_OK;
cleanup:
    if (x != small)
        free(x);
    return st;
}

/* Appends to p the component of g whose code is at q, its numbers read
   from the code's limbs (read-only views: no text, no copy but p's). */
static bt_status
push_code(bt__gwalk *w, bt_position *p, bt_game *g, const mp_limb_t *q)
{
    size_t n, j, at = code_header(q, &n);
    if (n > w->nviews) {
        size_t cap = 2 * n;
        __mpz_struct *v = realloc(w->views, cap * sizeof *v);
        mp_limb_t *l;
        if (v == NULL)
            return BT_ENOMEM;
        w->views = v;
        l = realloc(w->limbs, cap * sizeof *l);
        if (l == NULL)
            return BT_ENOMEM;
        w->limbs = l;
        w->nviews = cap;
    }
    for (j = 0; j < n; j++) {
        if (q[at] & 1u) {
            w->limbs[j] = q[at] >> 1;
            (void)mpz_roinit_n(&w->views[j], &w->limbs[j],
                               w->limbs[j] != 0);
            at++;
        } else {
            mp_size_t xs = (mp_size_t)(q[at] >> 2);
            (void)mpz_roinit_n(&w->views[j], q + at + 1,
                               q[at] & 2u ? -xs : xs);
            at += 1 + (size_t)xs;
        }
    }
    return bt__position_push(p, g, (const mpz_t *)(void *)w->views, n);
}

/* The frame of the kid whose key kid_key made (n components) from the
   move whose record is at rec: its position, its codes, its order, and
   the key (taken from w->key). */
static bt_status
kid_frame(bt__gwalk *w, gframe *kid, const gframe *f, const mp_limb_t *rec,
          size_t n)
{
    size_t c = (size_t)rec[0], k = (size_t)rec[1], i;
    bt_game *g = bt_position_game(f->p, c);
    const mp_limb_t *q = rec + 2;
    bt_status st;
    memset(kid, 0, sizeof *kid);
    if (bt_position_new(&kid->p) != BT_OK || frame_arrays(kid, n) != BT_OK)
        return BT_ENOMEM;
    for (i = 0; i < n; i++) {
        bt__gpart pt;
        if (i < c || i >= c + k) {
            size_t i0 = i < c ? i : i + 1 - k;
            st = bt__position_push(kid->p, bt_position_game(f->p, i0),
                                   bt_position_nums(f->p, i0),
                                   bt_position_count(f->p, i0));
            pt = f->parts[i0];
        } else {
            /* the new codes follow one another in the record */
            pt.w = q;
            pt.n = code_len(q);
            q += pt.n;
            st = push_code(w, kid->p, g, pt.w);
        }
        if (st != BT_OK || gbuf_room(&kid->codes, pt.n) != BT_OK)
            return BT_ENOMEM;
        memcpy(kid->codes.w + kid->codes.len, pt.w, pt.n * sizeof *pt.w);
        kid->codes.len += pt.n;
        kid->sorted[i] = kid->codes.len; /* the ends, for frame_parts */
    }
    frame_parts(kid, kid->sorted);
    if (n > 0)
        memcpy(kid->sorted, w->order, n * sizeof *kid->sorted);
    kid->key = w->key; /* the key passes to the frame */
    bt__gbuf_init(&w->key);
    return BT_OK;
}

/* The frame of the one component of g whose code is in w->key (taken):
   the mex values the components of an option apart. */
static bt_status
kid_frame_one(bt__gwalk *w, gframe *kid, bt_game *g)
{
    memset(kid, 0, sizeof *kid);
    if (bt_position_new(&kid->p) != BT_OK || frame_arrays(kid, 1) != BT_OK ||
        push_code(w, kid->p, g, w->key.w) != BT_OK ||
        gbuf_room(&kid->codes, w->key.len) != BT_OK)
        return BT_ENOMEM;
    memcpy(kid->codes.w, w->key.w, w->key.len * sizeof *w->key.w);
    kid->codes.len = w->key.len;
    kid->parts[0].w = kid->codes.w;
    kid->parts[0].n = kid->codes.len;
    kid->sorted[0] = 0;
    kid->key = w->key;
    bt__gbuf_init(&w->key);
    return BT_OK;
}

/* Asks the clock and the interrupt. */
static bt_status
walk_poll(bt__gwalk *w, int clock, const bt_limits *lim)
{
    if (clock && w->deadline != 0 && w->clock() > w->deadline) {
        w->why = BT__GWHY_DEADLINE;
        return BT_ELIMIT;
    }
    if (w->budget.exceeded) {
        w->why = BT__GWHY_BYTES;
        return BT_ELIMIT;
    }
    if (bt__poll(lim) != BT_OK) {
        w->why = BT__GWHY_INTERRUPT;
        return BT_EINTR;
    }
    return BT_OK;
}

typedef struct gather {
    bt__gwalk *w;
    gframe *f;
    size_t comp;
    bt_game *g;
    size_t skip, room; /* the mex: moves to pass over, and to keep */
    const bt_limits *lim;
    bt_diag *diag;
} gather;

/* Keeps one more move as its record, charged to the budget as it comes:
   the moves of one position are the walk's memory too (moore:5 with six
   piles of 10^4 digits has 10^5 moves of 25 KB), so they are bounded as
   they are listed, not once listed. */
static bt_status
on_kid(void *ud, const mpz_t *to, size_t nto)
{
    gather *ga = ud;
    bt__gwalk *w = ga->w;
    gframe *f = ga->f;
    size_t ar = bt__comp_width(ga->g, nto), k = nto / ar, i, bytes;
    bt__gbuf *m = &f->moves;
    bt_status st;
    if (ga->skip > 0) {
        ga->skip--; /* listed and valued before */
        return BT_OK;
    }
    if (ga->room == 0) {
        f->more = 1;
        return GSTOP;
    }
    ga->room--;
    if (f->nmoves >= w->max_moves) {
        w->why = BT__GWHY_MOVES;
        return BT_ELIMIT;
    }
    if (gbuf_room(m, 2) != BT_OK)
        return BT_ENOMEM;
    m->w[m->len++] = (mp_limb_t)ga->comp;
    m->w[m->len++] = (mp_limb_t)k;
    for (i = 0; i < k; i++)
        if (bt__graph_code(&w->t, m, ga->g, to + i * ar, ar) != BT_OK)
            return BT_ENOMEM;
    f->nmoves++;
    bytes = m->cap * sizeof *m->w;
    if (bytes > f->moves_bytes) {
        if ((st = bt__budget_charge(&w->budget, bytes - f->moves_bytes,
                                    ga->diag)) != BT_OK) {
            w->why = BT__GWHY_BYTES;
            return st;
        }
        f->bytes += bytes - f->moves_bytes;
        f->moves_bytes = bytes;
    }
    if (++w->moves > w->max_total) {
        w->why = BT__GWHY_TOTAL;
        return BT_ELIMIT;
    }
    if (w->moves % POLL_MOVES == 0)
        return walk_poll(w, 1, ga->lim);
    return BT_OK;
}

/* Lists every move of f's position, within the bounds; the mex lists the
   next MEX_CHUNK of them, past the f->nmoves it listed before. */
static bt_status
frame_expand(bt__gwalk *w, gframe *f, const bt_limits *lim, bt_diag *diag)
{
    gather ga;
    size_t i;
    bt_status st = BT_OK;
    ga.w = w;
    ga.f = f;
    ga.skip = 0;
    ga.room = SIZE_MAX;
    ga.lim = lim;
    ga.diag = diag;
    f->expanded = 1;
    if (w->ask == BT__GASK_GRUNDY) {
        ga.skip = f->nmoves;
        ga.room = MEX_CHUNK;
        f->more = 0;
        f->moves.len = 0;
        f->at = 0;
        f->part_at = 2;
    }
    for (i = 0; st == BT_OK && i < f->n; i++) {
        ga.comp = i;
        ga.g = bt_position_game(f->p, i);
        st = bt__rs_options(ga.g, bt_position_nums(f->p, i),
                            bt_position_count(f->p, i), on_kid, &ga, lim,
                            diag);
    }
    if (st == GSTOP)
        st = BT_OK;
    /* a ruleset's own limit or interrupt, with its message */
    if (st != BT_OK && st != BT_ENOMEM && w->why == BT__GWHY_NONE)
        w->why = BT__GWHY_RULES;
    return st;
}

/* The mex: an option of value v is seen. */
static bt_status
mex_mark(bt__gwalk *w, gframe *f, unsigned long v, bt_diag *diag)
{
    if (v >= f->nseen) {
        size_t n = f->nseen ? 2 * f->nseen : 64;
        unsigned char *seen;
        bt_status st;
        while (n <= v)
            n *= 2;
        if ((st = bt__budget_charge(&w->budget, n - f->nseen, diag)) !=
            BT_OK) {
            w->why = BT__GWHY_BYTES;
            return st;
        }
        f->bytes += n - f->nseen;
        if ((seen = realloc(f->seen, n)) == NULL)
            return BT_ENOMEM;
        memset(seen + f->nseen, 0, n - f->nseen);
        f->seen = seen;
        f->nseen = n;
    }
    f->seen[v] = 1;
    return BT_OK;
}

/* The outcome of a stored value. */
static bt_outcome
outcome_of(const bt__gwalk *w, long v)
{
    if (w->ask == BT__GASK_OUTCOME)
        return (bt_outcome)v;
    /* remoteness: in normal play P-positions are even and N-positions
       odd; in misère play a position with no move is N at 0 and the
       parities swap (Smith 1966) */
    return (v & 1) == w->misere ? BT_P : BT_N;
}

/* Folds an option's value into f (the mex: the value of the component of
   the option being valued). */
static void
fold(const bt__gwalk *w, gframe *f, long v)
{
    bt_outcome o;
    if (w->ask == BT__GASK_GRUNDY) {
        f->x ^= (unsigned long)v;
        f->part++;
        f->part_at += code_len(f->moves.w + f->part_at);
        return;
    }
    o = outcome_of(w, v);
    if (o == BT_P) {
        if (!f->has_p || v < f->min_p)
            f->min_p = v;
        f->has_p = 1;
        if (w->ask == BT__GASK_OUTCOME)
            f->cut = 1; /* decided: the rest need not be visited */
    }
    if (v > f->max_all)
        f->max_all = v;
}

/* The value of f once its options are folded in. */
static long
frame_value(const bt__gwalk *w, const gframe *f)
{
    if (w->ask == BT__GASK_GRUNDY) {
        size_t v = 0; /* at most the number of options */
        while (v < f->nseen && v < f->nmoves && f->seen[v])
            v++;
        return (long)v;
    }
    if (w->ask == BT__GASK_OUTCOME) {
        if (f->nmoves == 0)
            return w->misere ? BT_N : BT_P;
        return f->has_p ? BT_N : BT_P;
    }
    if (f->nmoves == 0)
        return 0;
    return f->has_p ? f->min_p + 1 : f->max_all + 1;
}

/* Makes room for one more frame above depth. */
static bt_status
stack_room(gframe **stack, size_t *cap, size_t depth)
{
    gframe *ns;
    if (depth < *cap)
        return BT_OK;
    ns = realloc(*stack, 2 * *cap * sizeof *ns);
    if (ns == NULL)
        return BT_ENOMEM;
    *stack = ns;
    *cap *= 2;
    return BT_OK;
}

/*
 * The next option of f to follow: 1 with its key in w->key when one is
 * left (and, through *rec, its record), 0 when f is decided.  The mex
 * follows the components of each option one by one, and marks the
 * option's value when the last is folded in.
 */
static int
next_option(bt__gwalk *w, gframe *f, const mp_limb_t **rec, size_t *nkid,
            bt_status *st, const bt_limits *lim, bt_diag *diag)
{
    *st = BT_OK;
    if (w->ask != BT__GASK_GRUNDY) {
        if (f->cut || f->next == f->nmoves)
            return 0;
        *rec = f->moves.w + f->at;
        f->at += 2;
        {
            size_t i, k = (size_t)(*rec)[1];
            for (i = 0; i < k; i++)
                f->at += code_len(f->moves.w + f->at);
        }
        f->next++;
        *st = kid_key(w, f, *rec, nkid);
        return 1;
    }
    for (;;) {
        const mp_limb_t *r;
        if (f->next == f->nmoves) {
            if (!f->more)
                return 0;
            if ((*st = frame_expand(w, f, lim, diag)) != BT_OK)
                return 0;
            continue;
        }
        r = f->moves.w + f->at;
        if (f->part < (size_t)r[1])
            break;
        /* every component of this option is valued */
        if ((*st = mex_mark(w, f, f->x, diag)) != BT_OK)
            return 0;
        f->next++;
        f->at = f->part_at;
        f->part_at = f->at + 2;
        f->part = 0;
        f->x = 0;
    }
    *rec = f->moves.w + f->at;
    *nkid = 1;
    w->key.len = 0;
    {
        const mp_limb_t *q = f->moves.w + f->part_at;
        size_t len = code_len(q);
        if ((*st = gbuf_room(&w->key, len)) == BT_OK) {
            memcpy(w->key.w, q, len * sizeof *q);
            w->key.len = len;
        }
    }
    return 1;
}

bt_status
bt__gwalk_value(bt__gwalk *w, long *value, const bt_position *p,
                const bt_limits *lim, bt_diag *diag)
{
    gframe *stack;
    size_t depth = 0, cap = 64, nkid;
    long known;
    bt_status st;

    lim = bt__limits(lim);
    w->why = BT__GWHY_NONE;
    w->budget.exceeded = 0;
    stack = malloc(cap * sizeof *stack);
    if (stack == NULL)
        return BT_ENOMEM;
    depth = 1;
    if ((++w->opens & 15) == 0 && (st = walk_poll(w, 0, lim)) != BT_OK) {
        memset(&stack[0], 0, sizeof stack[0]);
        goto cleanup;
    }
    if ((st = root_frame(w, &stack[0], p)) != BT_OK)
        goto cleanup;
    if (bt__graph_get(&w->t, stack[0].key.w, stack[0].key.len, value))
        goto cleanup;
    if (w->check_root && w->t.used >= w->max_positions) {
        w->why = BT__GWHY_POSITIONS;
        st = BT_ELIMIT;
        goto cleanup;
    }
    if ((st = frame_charge(w, &stack[0], diag)) != BT_OK)
        goto cleanup;
    /*
     * Depth first: a frame is finished when every option is folded in (or
     * the first P-option decided it), and its value is stored before its
     * parent goes on.  Game graphs are acyclic, so a position on the path
     * is never met again below itself.
     */
    while (depth > 0) {
        gframe *f = &stack[depth - 1];
        const mp_limb_t *rec = NULL;
        long v;
        if (!f->expanded && (st = frame_expand(w, f, lim, diag)) != BT_OK)
            goto cleanup;
        if (next_option(w, f, &rec, &nkid, &st, lim, diag)) {
            if (st != BT_OK)
                goto cleanup;
            if ((++w->opens & 15) == 0 &&
                (st = walk_poll(w, (w->opens & 63) == 0, lim)) != BT_OK)
                goto cleanup;
            if (bt__graph_get(&w->t, w->key.w, w->key.len, &known)) {
                fold(w, f, known);
                continue;
            }
            /* the positions stored and those on the path being decided (a
               long game goes deep before it stores anything) */
            if (w->t.used + depth >= w->max_positions) {
                w->why = BT__GWHY_POSITIONS;
                st = BT_ELIMIT;
                goto cleanup;
            }
            if ((st = stack_room(&stack, &cap, depth)) != BT_OK)
                goto cleanup;
            f = &stack[depth - 1];
            st = w->ask == BT__GASK_GRUNDY
                     ? kid_frame_one(w, &stack[depth],
                                     bt_position_game(f->p, (size_t)rec[0]))
                     : kid_frame(w, &stack[depth], f, rec, nkid);
            depth++;
            if (st != BT_OK ||
                (st = frame_charge(w, &stack[depth - 1], diag)) != BT_OK)
                goto cleanup;
            continue;
        }
        if (st != BT_OK)
            goto cleanup;
        /* every option is folded in, or the first P-option cut it short:
           the value of f */
        v = frame_value(w, f);
        st = bt__graph_put(&w->t, f->key.w, f->key.len, v, diag);
        if (st != BT_OK) {
            if (st == BT_ELIMIT)
                w->why = BT__GWHY_BYTES;
            goto cleanup;
        }
        frame_free(w, f);
        depth--;
        if (depth > 0)
            fold(w, &stack[depth - 1], v);
        else
            *value = v;
    }
cleanup:
    while (depth > 0)
        frame_free(w, &stack[--depth]);
    free(stack);
    return st;
}
