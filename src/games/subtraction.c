/*
 * subtraction.c -- subtraction games: a move takes from one heap a number
 * of counters that belongs to a finite set S (the essay's game, taking 1, 2
 * or 3 coins, is sub:1-3, whose P-positions are the multiples of four).
 *
 * Text: "sub:S" with S a comma-separated list of positive integers and
 * ranges, e.g. "sub:1,2,3", "sub:1-3,7".  The canonical text lists S in
 * increasing order with runs of three or more written as ranges
 * ("sub:1-3,7"; "sub:2,3").  Elements are at most 1 000 000 000.
 *
 * G(n) = mex { G(n - s) : s in S, s <= n }; the sequence is always
 * eventually periodic (the last max(S) values decide the next), and the
 * periodicity is proved once G(n + p) = G(n) for n0 <= n < n0 + max(S).
 */
#include <stdlib.h>
#include <string.h>

#include "engines/heapgame.h"

#define SUB_MAX_ELEMENT 1000000000u

typedef struct range {
    size_t lo, hi;
} range;

static int
range_cmp(const void *a, const void *b)
{
    const range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Parses a number at s[*i]; BT_EPARSE with a message on failure. */
static bt_status
parse_element(const char *s, size_t *i, size_t *out, bt_diag *diag)
{
    size_t v = 0, start = *i;
    if (s[*i] < '0' || s[*i] > '9') {
        if (s[*i] == '\0' || s[*i] == ',')
            return bt__fail_at(diag, BT_EPARSE, *i,
                               "subtraction set '%.40s': a number is "
                               "missing at column %zu",
                               s, *i + 1);
        return bt__fail_at(diag, BT_EPARSE, *i,
                           "subtraction set '%.40s': unexpected '%c' at "
                           "column %zu",
                           s, s[*i], *i + 1);
    }
    while (s[*i] >= '0' && s[*i] <= '9') {
        v = v * 10 + (size_t)(s[*i] - '0');
        if (v > SUB_MAX_ELEMENT)
            return bt__fail_at(diag, BT_EPARSE, start,
                               "subtraction set '%.40s': the number at "
                               "column %zu exceeds %u",
                               s, start + 1, SUB_MAX_ELEMENT);
        (*i)++;
    }
    if (v == 0)
        return bt__fail_at(diag, BT_EPARSE, start,
                           "subtraction set '%.40s': 0 at column %zu is "
                           "not a move (a move takes at least one counter)",
                           s, start + 1);
    *out = v;
    return BT_OK;
}

static bt_status
sub_init(bt_game *g, const char *name, const char *params, bt_diag *diag)
{
    range *rs = NULL;
    size_t nr = 0, cap = 0, i = 0, m, j;
    bt__heap_game *hg;
    bt__heap_rules *r;
    bt__buf b;
    bt_status st;

    (void)name;
    if (params == NULL || *params == '\0')
        return bt__fail(diag, BT_EPARSE,
                        "empty subtraction set: write e.g. sub:1,2,3 or "
                        "sub:1-3,7");
    for (;;) {
        size_t lo = 0, hi = 0, at = i;
        if ((st = parse_element(params, &i, &lo, diag)) != BT_OK)
            goto fail;
        hi = lo;
        if (params[i] == '-') {
            i++;
            if ((st = parse_element(params, &i, &hi, diag)) != BT_OK)
                goto fail;
            if (hi < lo) {
                st = bt__fail_at(diag, BT_EPARSE, at,
                                 "subtraction set '%.40s': the range at "
                                 "column %zu is empty (%zu-%zu)",
                                 params, at + 1, lo, hi);
                goto fail;
            }
        }
        if (nr == cap) {
            size_t nc = cap ? 2 * cap : 8;
            range *p = realloc(rs, nc * sizeof *p);
            if (p == NULL) {
                st = bt__fail(diag, BT_ENOMEM, "out of memory");
                goto fail;
            }
            rs = p;
            cap = nc;
        }
        rs[nr].lo = lo;
        rs[nr].hi = hi;
        nr++;
        if (params[i] == '\0')
            break;
        if (params[i] != ',') {
            st = bt__fail_at(diag, BT_EPARSE, i,
                             "subtraction set '%.40s': unexpected '%c' at "
                             "column %zu",
                             params, params[i], i + 1);
            goto fail;
        }
        i++;
    }
    /* sort and merge overlapping or adjacent ranges */
    qsort(rs, nr, sizeof *rs, range_cmp);
    m = 0;
    for (j = 0; j < nr; j++) {
        if (m > 0 && rs[j].lo <= rs[m - 1].hi + 1) {
            if (rs[j].hi > rs[m - 1].hi)
                rs[m - 1].hi = rs[j].hi;
        } else {
            rs[m++] = rs[j];
        }
    }

    hg = calloc(1, sizeof *hg);
    if (hg == NULL) {
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
        goto fail;
    }
    g->state = hg;
    r = &hg->rules;
    r->kind = BT__HEAP_SUB;
    r->provable = 1;
    r->sub_window = 1;
    r->nint = m;
    r->lo = malloc(m * sizeof *r->lo);
    r->hi = malloc(m * sizeof *r->hi);
    if (r->lo == NULL || r->hi == NULL) {
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
        goto fail;
    }
    bt__buf_init(&b);
    bt__buf_puts(&b, "sub:");
    for (j = 0; j < m; j++) {
        r->lo[j] = rs[j].lo;
        r->hi[j] = rs[j].hi;
        r->setsize += rs[j].hi - rs[j].lo + 1;
        if (j > 0)
            bt__buf_putc(&b, ',');
        if (rs[j].hi == rs[j].lo)
            bt__buf_printf(&b, "%zu", rs[j].lo);
        else if (rs[j].hi == rs[j].lo + 1)
            bt__buf_printf(&b, "%zu,%zu", rs[j].lo, rs[j].hi);
        else
            bt__buf_printf(&b, "%zu-%zu", rs[j].lo, rs[j].hi);
    }
    r->t = rs[m - 1].hi;
    free(rs);
    g->spec = bt__buf_take(&b);
    return g->spec ? BT_OK : bt__fail(diag, BT_ENOMEM, "out of memory");

fail:
    free(rs);
    return st;
}

/* "Subtraction game: take 1, 2 or 3 counters from one heap." */
static void
sub_rules(const bt_game *g, bt__buf *out)
{
    const bt__heap_rules *r = &((const bt__heap_game *)g->state)->rules;
    size_t j;
    bt__buf_puts(out, "Subtraction game: take ");
    for (j = 0; j < r->nint; j++) {
        size_t lo = r->lo[j], hi = r->hi[j];
        const char *sep = j == 0 ? "" : j + 1 < r->nint ? ", " : " or ";
        if (hi - lo >= 3)
            bt__buf_printf(out, "%s%zu to %zu", sep, lo, hi);
        else if (hi == lo)
            bt__buf_printf(out, "%s%zu", sep, lo);
        else if (hi - lo == 1)
            bt__buf_printf(out, "%s%zu%s%zu", sep, lo,
                           j + 1 < r->nint ? ", " : " or ", hi);
        else
            bt__buf_printf(out, "%s%zu, %zu%s%zu", sep, lo, lo + 1,
                           j + 1 < r->nint ? ", " : " or ", hi);
    }
    bt__buf_printf(out, " counter%s from one heap.",
                   r->setsize == 1 && r->lo[0] == 1 ? "" : "s");
}

const bt__ruleset bt__ruleset_sub = {
    .info =
        {"sub", "sub:S",
         "Subtraction games: take from one heap a number of counters in the "
         "set S, e.g. sub:1-3,7.",
         "", "Subtraction game", "sub:1-3"},
    .arity = 1,
    .init = sub_init,
    .fini = bt__heap_fini,
    .flags = BT__RS_HEAPS,
    .heap = bt__heap_state,
    .grundy = bt__heap_grundy,
    .options = bt__heap_options,
    .moves_to = bt__heap_moves_to,
    .is_option = bt__heap_is_option,
    .describe = bt__heap_describe,
    .rules = sub_rules,
    /* misere and explain: NULL, the generic search and explanation */
};
