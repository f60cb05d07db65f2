/*
 * memo.c -- the memo table of the exhaustive searches, and the one key of
 * a position they store under.
 *
 * The searches of the game graph (search.c: outcomes, remoteness.c:
 * remoteness) remember each position they decide.  A sum of games is
 * commutative, so the key is the position with its components sorted: the
 * texts of its components, "spec:n,n", sorted bytewise and each followed
 * by '|', after a '#': "#nim:3|nim:5|".  It holds the whole sum exactly
 * (a component with no move is kept too), and a search can split it into
 * the texts of its components to build the keys of the positions one move
 * away from the texts of the components a move makes alone (remoteness.c
 * does).  A key is looked up, never read back into numbers: a search keeps
 * its positions themselves (tests/parse_back.sh).
 *
 * The table is open addressing with linear probing, kept at most half
 * full, FNV-1a on the key's bytes; each slot holds one number (an outcome,
 * a remoteness).  The slots are charged to the search's budget as the
 * table grows.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/engines.h"

/* ------------------------------------------------------------- the key */

static int
part_qcmp(const void *a, const void *b)
{
    return bt__memo_part_cmp(a, b);
}

int
bt__memo_part_cmp(const bt__memo_part *a, const bt__memo_part *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->s, b->s, n);
    if (c != 0)
        return c;
    return a->len < b->len ? -1 : a->len > b->len;
}

void
bt__memo_put_comp(bt__buf *b, const bt_game *g, const mpz_t *v, size_t n)
{
    size_t j;
    bt__buf_puts(b, g->spec);
    for (j = 0; j < n; j++) {
        bt__buf_putc(b, j ? ',' : ':');
        bt__buf_mpz(b, v[j]);
    }
}

char *
bt__memo_join(const bt__memo_part *parts, size_t n, size_t *len)
{
    size_t i, total = 1, at = 1;
    char *key;
    for (i = 0; i < n; i++)
        total += parts[i].len + 1;
    key = malloc(total + 1);
    if (key == NULL)
        return NULL;
    key[0] = '#';
    for (i = 0; i < n; i++) {
        memcpy(key + at, parts[i].s, parts[i].len);
        at += parts[i].len;
        key[at++] = '|';
    }
    key[at] = '\0';
    *len = total;
    return key;
}

bt_status
bt__memo_split(const char *key, size_t len, bt__memo_part **out, size_t *n)
{
    size_t i, count = 0, k = 0, start = 1;
    bt__memo_part *parts;
    for (i = 1; i < len; i++)
        if (key[i] == '|')
            count++;
    parts = malloc((count ? count : 1) * sizeof *parts);
    if (parts == NULL)
        return BT_ENOMEM;
    for (i = 1; i < len; i++)
        if (key[i] == '|') {
            parts[k].s = key + start;
            parts[k].len = i - start;
            k++;
            start = i + 1;
        }
    *out = parts;
    *n = count;
    return BT_OK;
}

void
bt__memo_sort(bt__memo_part *parts, size_t n)
{
    qsort(parts, n, sizeof *parts, part_qcmp);
}

char *
bt__memo_key(const bt_position *p, size_t *len)
{
    size_t n = bt_position_size(p), i;
    bt__buf b;
    bt__memo_part *parts = malloc((n ? n : 1) * sizeof *parts);
    size_t *ends = malloc((n ? n : 1) * sizeof *ends);
    char *flat = NULL, *key = NULL;
    if (parts == NULL || ends == NULL)
        goto cleanup;
    bt__buf_init(&b);
    for (i = 0; i < n; i++) {
        bt__memo_put_comp(&b, bt_position_game(p, i), bt_position_nums(p, i),
                          bt_position_count(p, i));
        ends[i] = b.len;
    }
    flat = bt__buf_take(&b);
    if (flat == NULL)
        goto cleanup;
    for (i = 0; i < n; i++) {
        parts[i].s = flat + (i ? ends[i - 1] : 0);
        parts[i].len = ends[i] - (i ? ends[i - 1] : 0);
    }
    bt__memo_sort(parts, n);
    key = bt__memo_join(parts, n, len);
cleanup:
    free(flat);
    free(parts);
    free(ends);
    return key;
}

/* ----------------------------------------------------------- the table */

static uint64_t
hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The slot of key: where it is, or the empty slot where it would go. */
static bt__memo_slot *
lookup(const bt__memo *m, const char *key, size_t len)
{
    size_t i = (size_t)hash(key, len) & (m->cap - 1);
    while (m->slots[i].key != NULL) {
        if (m->slots[i].len == len && memcmp(m->slots[i].key, key, len) == 0)
            return &m->slots[i];
        i = (i + 1) & (m->cap - 1);
    }
    return &m->slots[i];
}

bt_status
bt__memo_init(bt__memo *m, size_t cap, bt__budget *budget, bt_diag *diag)
{
    bt_status st;
    memset(m, 0, sizeof *m);
    m->budget = budget;
    if (budget != NULL &&
        (st = bt__budget_charge(budget, cap * sizeof *m->slots, diag)) !=
            BT_OK)
        return st;
    m->slots = calloc(cap, sizeof *m->slots);
    if (m->slots == NULL) {
        if (budget != NULL)
            bt__budget_release(budget, cap * sizeof *m->slots);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    m->cap = cap;
    return BT_OK;
}

void
bt__memo_clear(bt__memo *m)
{
    size_t i;
    for (i = 0; i < m->cap; i++)
        free(m->slots[i].key);
    free(m->slots);
    if (m->budget != NULL)
        bt__budget_release(m->budget, m->cap * sizeof *m->slots);
    m->slots = NULL;
    m->cap = m->used = 0;
}

const bt__memo_slot *
bt__memo_find(const bt__memo *m, const char *key, size_t len)
{
    const bt__memo_slot *s = lookup(m, key, len);
    return s->key != NULL ? s : NULL;
}

/* Doubles the table: the new slots are charged while the old ones are
   still held. */
static bt_status
grow(bt__memo *m, bt_diag *diag)
{
    bt__memo_slot *old = m->slots, *s;
    size_t oldcap = m->cap, i;
    bt_status st;
    if (m->budget != NULL &&
        (st = bt__budget_charge(m->budget, 2 * oldcap * sizeof *s, diag)) !=
            BT_OK)
        return st;
    s = calloc(oldcap * 2, sizeof *s);
    if (s == NULL) {
        if (m->budget != NULL)
            bt__budget_release(m->budget, 2 * oldcap * sizeof *s);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    if (m->budget != NULL)
        bt__budget_release(m->budget, oldcap * sizeof *s);
    m->slots = s;
    m->cap = oldcap * 2;
    for (i = 0; i < oldcap; i++)
        if (old[i].key != NULL)
            *lookup(m, old[i].key, old[i].len) = old[i];
    free(old);
    return BT_OK;
}

bt_status
bt__memo_put(bt__memo *m, char *key, size_t len, long value, bt_diag *diag)
{
    bt__memo_slot *s;
    bt_status st;
    if (2 * (m->used + 1) > m->cap && (st = grow(m, diag)) != BT_OK)
        return st;
    s = lookup(m, key, len);
    s->key = key;
    s->len = len;
    s->value = value;
    m->used++;
    return BT_OK;
}
