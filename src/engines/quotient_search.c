/*
 * quotient_search.c -- the exact misère outcome of a position of the
 * learning table (a multiset of letters): a memoised search whose positions
 * of heaps below the snapshot are answered by the quotient already proved,
 * bounded by max_search and max_memory; and the options of each letter,
 * read from the family's rules.  Its memo is the game-graph kernel's table
 * (core/graph.c), charged to the learner's budget, its keys the heaps
 * packed into words; it calls the families' hooks.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/quotient_impl.h"

typedef struct optcol {
    uint32_t *v;
    size_t n, cap;
    int bad;
} optcol;

static bt_status
on_opt(void *ud, const mpz_t *to, size_t nto)
{
    optcol *o = ud;
    uint32_t a = 0, b = 0;
    if (nto > 2)
        return BT_EINVAL;
    if (nto >= 1)
        a = (uint32_t)mpz_get_ui(to[0]);
    if (nto == 2)
        b = (uint32_t)mpz_get_ui(to[1]);
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    if (o->n + 2 > o->cap) {
        size_t nc = o->cap ? 2 * o->cap : 16;
        uint32_t *p = realloc(o->v, nc * sizeof *p);
        if (p == NULL)
            return BT_ENOMEM;
        o->v = p;
        o->cap = nc;
    }
    o->v[o->n++] = a;
    o->v[o->n++] = b;
    return BT_OK;
}

/* The options of heap h from the ruleset, as pairs. */
bt_status
bt__q_load_options(qctx *c, size_t h)
{
    optcol o = {NULL, 0, 0, 0};
    mpz_t x;
    bt_status st;
    bt_game *g = c->g;
    size_t gi = 0, i;
    if (c->al != NULL) {
        gi = (h - 1) % c->al->ng;
        g = c->al->games[gi];
        h = (h - 1) / c->al->ng + 1;
    }
    mpz_init_set_ui(x, (unsigned long)h);
    st = g->rules->options(g, (const mpz_t *)&x, on_opt, &o, c->lim,
                           c->diag);
    mpz_clear(x);
    if (c->al != NULL) {
        /* sizes to letters, each pair in order */
        h = (h - 1) * c->al->ng + gi + 1;
        for (i = 0; st == BT_OK && i < o.n; i++)
            if (o.v[i] != 0)
                o.v[i] = (uint32_t)((o.v[i] - 1) * c->al->ng + gi + 1);
        for (i = 0; st == BT_OK && i + 1 < o.n; i += 2)
            if (o.v[i] > o.v[i + 1]) {
                uint32_t t = o.v[i];
                o.v[i] = o.v[i + 1];
                o.v[i + 1] = t;
            }
    }
    if (st != BT_OK) {
        free(o.v);
        return st == BT_EINVAL
                   ? bt__fail(c->diag, BT_EINVAL,
                              "%s: a move leaves more than two heaps",
                              c->g->spec)
                   : st;
    }
    c->opt[h] = o.v;
    c->nopt[h] = o.n / 2;
    return BT_OK;
}

/* Appends heap h to a position under construction if it is live. */
void
bt__q_push_heap(const qctx *c, uint32_t *buf, size_t *len, uint32_t h)
{
    if (h != 0 && c->nopt[h] > 0)
        buf[(*len)++] = h;
}

/* ----------------------------------------------------- outcome by search */

/* Heaps of an option kept on the stack by outcome() (longer: malloc). */
#define OUTCOME_STACK 32
/* Words of a key kept on the stack (longer: malloc). */
#define KEY_STACK 16
/* The memo's first slots (a power of two). */
#define MEMO_FIRST 1024u

/*
 * The memo's key of a position (sorted, live heaps) in key[], its words
 * returned: the heaps one byte each, packed into words, when every heap
 * is below 256 (letters up to 255: most searches), else a 0 word, then
 * the heaps 32 bits each, packed the same way; the rest of the last word
 * is 0.  A live heap is never 0, so the first word of a key of bytes is
 * never 0 and the zeros that fill the last word add no heap: two
 * positions have equal keys exactly when they are equal.
 */
static size_t
memo_key(mp_limb_t *key, const uint32_t *h, size_t len)
{
    size_t w = 0, i = 0, k;
    unsigned bits = 8;
    size_t per = sizeof(mp_limb_t);
    if (h[len - 1] >= 256) {
        key[w++] = 0;
        bits = 32;
        per = sizeof(mp_limb_t) / sizeof(uint32_t);
    }
    /* each word built in a register, its first heap in its low bits */
    for (; i < len; i += per) {
        mp_limb_t x = 0;
        for (k = i + per < len ? i + per : len; k > i; k--)
            x = (x << (bits % GMP_NUMB_BITS)) | h[k - 1];
        key[w++] = x;
    }
    return w;
}

/* The most words memo_key writes for len heaps. */
static size_t
memo_key_words(size_t len)
{
    const size_t per = sizeof(mp_limb_t) / sizeof(uint32_t);
    return 1 + (len + per - 1) / per;
}

/* *p_out = 1 when the position (sorted, live heaps) is a misère P. */
static bt_status
outcome(qctx *c, const uint32_t *h, size_t len, int *p_out)
{
    size_t i, j, r, klen;
    uint32_t *buf, sbuf[OUTCOME_STACK];
    mp_limb_t skey[KEY_STACK], *key;
    long known;
    bt_status st = BT_OK;
    if (len == 0) {
        *p_out = 0; /* no move: the player to move has won */
        return BT_OK;
    }
    if (h[len - 1] <= c->snap_n && c->snap_trans != NULL) {
        size_t x = 0;
        for (i = 0; i < len; i++)
            x = c->snap_trans[x * (c->snap_n + 1) + h[i]];
        *p_out = c->snap_p[x];
        return BT_OK;
    }
    if (c->memo.slots == NULL &&
        (st = bt__graph_init(&c->memo, MEMO_FIRST, &c->budget, c->diag)) !=
            BT_OK)
        return st;
    klen = memo_key_words(len);
    key = klen <= KEY_STACK ? skey : malloc(klen * sizeof *key);
    if (key == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    klen = memo_key(key, h, len);
    if (bt__graph_get(&c->memo, key, klen, &known)) {
        *p_out = (int)known;
        goto out;
    }
    if ((st = poll(c)) != BT_OK)
        goto out;
    /* the options' positions: on the stack when short (most are) */
    buf = len + 2 <= OUTCOME_STACK ? sbuf : malloc((len + 2) * sizeof *buf);
    if (buf == NULL) {
        st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
        goto out;
    }
    *p_out = 1;
    /* the largest heap first: the options of the newest heap leave
       positions the snapshot answers at once, and one P option ends it;
       then the others, smallest first (cheaper searches) */
    for (r = 0; r < len && *p_out; r++) {
        i = r == 0 ? len - 1 : r - 1;
        if (r > 0 && (i == len - 1 || (i > 0 && h[i] == h[i - 1]) ||
                      h[i] == h[len - 1]))
            continue;
        for (j = 0; j < c->nopt[h[i]] && *p_out; j++) {
            size_t k, m = 0;
            int cp;
            uint32_t oa = c->opt[h[i]][2 * j], ob = c->opt[h[i]][2 * j + 1];
            if (oa == 0 || c->nopt[oa] == 0) {
                oa = ob;
                ob = 0;
            }
            if (ob != 0 && c->nopt[ob] == 0)
                ob = 0;
            if (oa == 0 || c->nopt[oa] == 0)
                oa = 0;
            /* merge h minus h[i] with oa <= ob (0: none), keeping order */
            for (k = 0; k < len; k++) {
                if (k == i)
                    continue;
                while (oa != 0 && oa <= h[k]) {
                    buf[m++] = oa;
                    oa = ob;
                    ob = 0;
                }
                buf[m++] = h[k];
            }
            while (oa != 0) {
                buf[m++] = oa;
                oa = ob;
                ob = 0;
            }
            if ((st = outcome(c, buf, m, &cp)) != BT_OK) {
                if (buf != sbuf)
                    free(buf);
                goto out;
            }
            if (cp)
                *p_out = 0;
        }
    }
    if (buf != sbuf)
        free(buf);
    if (c->memo.used >= c->lim->max_search) {
        st = bt__fail(c->diag, BT_ELIMIT,
                      "the misère quotient needs more than %zu searched "
                      "positions (the max_search limit)",
                      c->lim->max_search);
        goto out;
    }
    /* the table charges its growth to the learner's budget (max_memory)
       before it allocates */
    st = bt__graph_put(&c->memo, key, klen, *p_out, c->diag);
out:
    if (key != skey)
        free(key);
    return st;
}

/* Outcome of a + b (+ one more heap x when x != 0). */
bt_status
bt__q_outcome_sum(qctx *c, const pos *a, uint32_t x, const pos *b, int *p_out)
{
    size_t m = 0, i;
    bt_status st;
    uint32_t *buf = malloc((a->n + b->n + 1) * sizeof *buf + 1);
    if (buf == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (i = 0; i < a->n; i++)
        buf[m++] = a->h[i];
    for (i = 0; i < b->n; i++)
        buf[m++] = b->h[i];
    bt__q_push_heap(c, buf, &m, x);
    qsort(buf, m, sizeof *buf, cmp_u32);
    st = outcome(c, buf, m, p_out);
    free(buf);
    return st;
}
