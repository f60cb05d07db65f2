/*
 * quotient_text.c -- the saved text of a quotient (docs/misere.md, "Saving
 * a quotient"): written by bt_quotient_save, read back by bt_quotient_load
 * and checked again (the algebra, then the proof's walk against the game's
 * rules).  Calls the hash table, the search's options of a letter, the
 * learning table, the proof (and periodicity) and the result.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/quotient_impl.h"

/* ------------------------------------------------- saving and loading */

/*
 * The text of a quotient (docs/misere.md, "Saving a quotient"): a line
 * per item, every number in decimal, the multiplication table last.
 *
 *   bouton-quotient 1
 *   game octal:0.77
 *   upto 169
 *   order 40
 *   period 12 71             (the period and the preperiod; or "none")
 *   p 1 4 ...                (the elements of the P-portion, increasing)
 *   heaps 0 1 2 3 1 5 ...    (the element of each heap 0..upto)
 *   table                    (order lines of order numbers: x * y)
 *   ...
 *   end
 */
#define QFILE_MAGIC "bouton-quotient 1"

/* The text of q, the quotient of the heaps of the game whose rules are
   spec (a cached quotient holds no game). */
bt_status
bt__q_text(char **out, const bt_quotient *q, const char *spec, bt_diag *diag)
{
    size_t x, y, ord = q->order;
    bt__buf b;
    bt__buf_init(&b);
    bt__buf_printf(&b, "%s\ngame %s\nupto %zu\norder %zu\n", QFILE_MAGIC,
                   spec, q->upto, ord);
    if (q->proved)
        bt__buf_printf(&b, "period %zu %zu\n", q->period, q->preperiod);
    else
        bt__buf_puts(&b, "period none\n");
    bt__buf_puts(&b, "p");
    for (x = 0; x < ord; x++)
        if (q->isp[x])
            bt__buf_printf(&b, " %zu", x);
    bt__buf_puts(&b, "\nheaps");
    for (x = 0; x <= q->upto; x++)
        bt__buf_printf(&b, " %u", (unsigned)q->heap[x]);
    bt__buf_puts(&b, "\ntable\n");
    for (x = 0; x < ord; x++)
        for (y = 0; y < ord; y++)
            bt__buf_printf(&b, "%u%c", (unsigned)q->mul[x * ord + y],
                           y + 1 < ord ? ' ' : '\n');
    bt__buf_puts(&b, "end\n");
    *out = bt__buf_take(&b);
    return *out != NULL ? BT_OK : bt__fail(diag, BT_ENOMEM, "out of memory");
}

bt_status
bt_quotient_save(char **out, const bt_quotient *q, bt_diag *diag)
{
    *out = NULL;
    if (q->g == NULL || q->ng > 0)
        return bt__fail(diag, BT_EINVAL,
                        "only the quotient of one game's heaps is saved");
    return bt__q_text(out, q, q->g->spec, diag);
}

/* A cursor over the text of a quotient; line counts from 1. */
typedef struct qtext {
    const char *s;
    size_t len, at, line;
    bt_diag *diag;
} qtext;

static bt_status
qtext_fail(qtext *t, const char *what)
{
    return bt__fail_at(t->diag, BT_EPARSE, t->at,
                       "not a quotient saved by bouton: line %zu: %s",
                       t->line, what);
}

/* Reads the word w and one space (or the end of the line if eol). */
static int
qtext_word(qtext *t, const char *w, int eol)
{
    size_t n = strlen(w);
    if (t->len - t->at < n + 1 || memcmp(t->s + t->at, w, n) != 0 ||
        t->s[t->at + n] != (eol ? '\n' : ' '))
        return 0;
    t->at += n + 1;
    if (eol)
        t->line++;
    return 1;
}

/* Reads a decimal number <= max (no sign, no leading zero), then one
   space or newline, which *end receives. */
static bt_status
qtext_size(qtext *t, size_t max, size_t *v, char *end, const char *what)
{
    size_t r = 0, start = t->at;
    char buf[160];
    while (t->at < t->len && t->s[t->at] >= '0' && t->s[t->at] <= '9') {
        size_t d = (size_t)(t->s[t->at] - '0');
        if (d > max || r > (max - d) / 10 || (t->at > start && r == 0)) {
            snprintf(buf, sizeof buf, "%s: more than %zu, or a leading "
                     "zero", what, max);
            return qtext_fail(t, buf);
        }
        r = 10 * r + d;
        t->at++;
    }
    if (t->at == start || t->at == t->len ||
        (t->s[t->at] != ' ' && t->s[t->at] != '\n')) {
        snprintf(buf, sizeof buf, "%s: expected a number", what);
        return qtext_fail(t, buf);
    }
    *end = t->s[t->at++];
    if (*end == '\n')
        t->line++;
    *v = r;
    return BT_OK;
}

/* Reads n numbers < max ending the line into v. */
static bt_status
qtext_row(qtext *t, size_t n, size_t max, uint32_t *v, const char *what)
{
    size_t i, x;
    char end = '\n';
    bt_status st;
    for (i = 0; i < n; i++) {
        if ((st = qtext_size(t, max - 1, &x, &end, what)) != BT_OK)
            return st;
        if ((end == '\n') != (i + 1 == n))
            return qtext_fail(t, i + 1 == n ? "too many numbers on the line"
                                            : "too few numbers on the line");
        v[i] = (uint32_t)x;
    }
    return BT_OK;
}

/* Parses the text into q (game, bound, order, P, heaps, table, period). */
static bt_status
quotient_parse(bt_quotient *q, qtext *t, const bt_limits *lim,
               size_t *fperiod, size_t *fpre)
{
    size_t eol, maxn, x, v;
    char end, *spec;
    bt_status st;
    const char *nl;
    bt_diag gd;

    if (!qtext_word(t, QFILE_MAGIC, 1))
        return qtext_fail(t, "expected '" QFILE_MAGIC "'");
    if (!qtext_word(t, "game", 0))
        return qtext_fail(t, "expected 'game RULES'");
    nl = memchr(t->s + t->at, '\n', t->len - t->at);
    if (nl == NULL)
        return qtext_fail(t, "the text ends inside the game line");
    eol = (size_t)(nl - t->s);
    spec = malloc(eol - t->at + 1);
    if (spec == NULL)
        return bt__fail(t->diag, BT_ENOMEM, "out of memory");
    memcpy(spec, t->s + t->at, eol - t->at);
    spec[eol - t->at] = '\0';
    memset(&gd, 0, sizeof gd);
    st = strlen(spec) != eol - t->at ? BT_EPARSE : bt_game_new(&q->g, spec,
                                                               &gd);
    if (st == BT_OK && strcmp(q->g->spec, spec) != 0)
        st = bt__fail(t->diag, BT_EPARSE,
                      "not a quotient saved by bouton: line %zu: the game "
                      "'%s' is not written as bouton writes it ('%s')",
                      t->line, spec, q->g->spec);
    else if (st == BT_ENOMEM)
        st = bt__fail(t->diag, st, "out of memory");
    else if (st != BT_OK)
        st = bt__fail_at(t->diag, BT_EPARSE, t->at,
                         "not a quotient saved by bouton: line %zu: %s",
                         t->line, gd.message[0] ? gd.message
                                                : "a NUL byte in the game");
    free(spec);
    if (st != BT_OK)
        return st;
    if (!(q->g->rules->flags & BT__RS_HEAPS))
        return bt__fail(t->diag, BT_EINVAL,
                        "%s is not a heap game: misère quotients are for "
                        "games whose component is one heap",
                        q->g->spec);
    t->at = eol + 1;
    t->line++;
    maxn = lim->max_grundy < 100000 ? lim->max_grundy : 100000;
    if (!qtext_word(t, "upto", 0))
        return qtext_fail(t, "expected 'upto N'");
    if ((st = qtext_size(t, SIZE_MAX, &q->upto, &end, "upto")) != BT_OK)
        return st;
    if (end != '\n')
        return qtext_fail(t, "expected one number after 'upto'");
    if (q->upto > maxn)
        return bt__fail(t->diag, BT_ELIMIT,
                        "the quotient's heap bound %zu exceeds the limit "
                        "%zu", q->upto, maxn);
    if (!qtext_word(t, "order", 0))
        return qtext_fail(t, "expected 'order N'");
    if ((st = qtext_size(t, SIZE_MAX, &q->order, &end, "order")) != BT_OK)
        return st;
    if (end != '\n' || q->order == 0)
        return qtext_fail(t, "expected one positive number after 'order'");
    if (q->order > lim->max_table_piles || q->order > UINT32_MAX)
        return bt__fail(t->diag, BT_ELIMIT,
                        "the quotient has %zu elements, more than %zu (the "
                        "max_table_piles limit)",
                        q->order, lim->max_table_piles);
    if (qtext_word(t, "period none", 1)) {
        *fperiod = *fpre = 0;
    } else {
        if (!qtext_word(t, "period", 0))
            return qtext_fail(t, "expected 'period P PREPERIOD' or 'period "
                                 "none'");
        if ((st = qtext_size(t, SIZE_MAX, fperiod, &end, "period")) != BT_OK)
            return st;
        if (end != ' ' || *fperiod == 0)
            return qtext_fail(t, "expected a positive period and the "
                                 "preperiod");
        if ((st = qtext_size(t, SIZE_MAX, fpre, &end, "preperiod")) != BT_OK)
            return st;
        if (end != '\n')
            return qtext_fail(t, "expected two numbers after 'period'");
    }
    /* each number of the heaps and the table takes two bytes at least:
       a short text claiming a large order allocates nothing */
    if ((t->len - t->at) / 2 < q->order * q->order + q->upto + 1)
        return qtext_fail(t, "the text is too short for its order and "
                             "bound");
    q->isp = calloc(q->order, 1);
    q->heap = malloc((q->upto + 1) * sizeof *q->heap);
    q->mul = malloc(q->order * q->order * sizeof *q->mul);
    if (q->isp == NULL || q->heap == NULL || q->mul == NULL)
        return bt__fail(t->diag, BT_ENOMEM, "out of memory");
    if (qtext_word(t, "p", 1)) {
        end = '\n';
    } else if (!qtext_word(t, "p", 0)) {
        return qtext_fail(t, "expected 'p' and the P-portion's elements");
    } else {
        size_t last = 0;
        do {
            if ((st = qtext_size(t, q->order - 1, &v, &end, "p")) != BT_OK)
                return st;
            if (q->pcount > 0 && v <= last)
                return qtext_fail(t, "the P-portion's elements must "
                                     "increase");
            q->isp[v] = 1;
            q->pcount++;
            last = v;
        } while (end == ' ');
    }
    if (!qtext_word(t, "heaps", 0))
        return qtext_fail(t, "expected 'heaps' and the element of each heap");
    if ((st = qtext_row(t, q->upto + 1, q->order, q->heap, "heaps")) !=
        BT_OK)
        return st;
    if (!qtext_word(t, "table", 1))
        return qtext_fail(t, "expected 'table'");
    for (x = 0; x < q->order; x++) {
        if ((x & 63) == 63 && bt__poll(lim) != BT_OK)
            return bt__fail(t->diag, BT_EINTR, "the time budget ran out");
        if ((st = qtext_row(t, q->order, q->order, q->mul + x * q->order,
                            "table")) != BT_OK)
            return st;
    }
    if (!qtext_word(t, "end", 1))
        return qtext_fail(t, "expected 'end' after the table");
    if (t->at != t->len)
        return qtext_fail(t, "text after 'end'");
    return BT_OK;
}

/*
 * The algebra of a loaded quotient: 0 is the identity, the table is
 * commutative and associative, the heaps' elements generate it, and its
 * elements are told apart by P (x != y: some z has x z in P and y z not,
 * or the reverse).  Associativity is Light's test over the generators:
 * the z with (x z) y = x (z y) for all x, y are closed under products, so
 * checking the heaps' elements checks every z they generate.
 */
static bt_status
quotient_check_algebra(const bt_quotient *q, const bt_limits *lim,
                       bt_diag *diag)
{
    size_t ord = q->order, x, y, h, n = 0, i, nw = (ord + 63) / 64, ngen = 0;
    const uint32_t *m = q->mul;
    unsigned char *gen = calloc(ord, 1), *sub = calloc(ord, 1);
    size_t *stack = malloc(ord * sizeof *stack);
    uint64_t *sig = calloc(ord * nw + 1, sizeof *sig);
    htab rows;
    bt_status st = BT_OK;

    memset(&rows, 0, sizeof rows);
    if (gen == NULL || sub == NULL || stack == NULL || sig == NULL) {
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
        goto done;
    }
#define QBAD(...) do { st = bt__fail(diag, BT_EINVAL, __VA_ARGS__); \
                       goto done; } while (0)
    if (q->heap[0] != 0)
        QBAD("heap 0 (no heap) must be the identity 0, not element %u",
             (unsigned)q->heap[0]);
    for (x = 0; x < ord; x++) {
        if (m[x] != x || m[x * ord] != x)
            QBAD("element 0 is not the identity (0 * %zu is not %zu)", x,
                 x);
        for (y = 0; y < x; y++)
            if (m[x * ord + y] != m[y * ord + x])
                QBAD("the table is not commutative: %zu * %zu differs "
                     "from %zu * %zu", x, y, y, x);
    }
    /* The generators: each heap whose element is not yet a product of
       the earlier ones (products taken left to right from 0, so that they
       lie in what the generators generate whatever the table); then the
       heaps' elements must generate Q. */
    sub[0] = 1;
    for (h = 1; h <= q->upto; h++) {
        size_t e = q->heap[h];
        if (sub[e])
            continue;
        gen[e] = 1;
        ngen++;
        for (x = 0, n = 0; x < ord; x++)
            if (sub[x])
                stack[n++] = x;
        while (n > 0) {
            size_t z = stack[--n];
            for (i = 0; i < ord; i++)
                if (gen[i] && !sub[m[z * ord + i]]) {
                    sub[m[z * ord + i]] = 1;
                    stack[n++] = m[z * ord + i];
                }
        }
    }
    for (x = 0; x < ord; x++)
        if (!sub[x])
            QBAD("element %zu is no product of heaps: not the quotient", x);
    if (ngen > 0 && ord * ord > ((size_t)1 << 34) / ngen) {
        st = bt__fail(diag, BT_ELIMIT,
                      "the quotient's table is too large to check (%zu "
                      "elements, %zu generators)", ord, ngen);
        goto done;
    }
    for (i = 0; i < ord; i++) {
        if (!gen[i])
            continue;
        if (bt__poll(lim) != BT_OK) {
            st = bt__fail(diag, BT_EINTR, "the time budget ran out");
            goto done;
        }
        for (x = 0; x < ord; x++) {
            size_t xg = m[x * ord + i];
            for (y = 0; y < ord; y++)
                if (m[xg * ord + y] != m[x * ord + m[i * ord + y]])
                    QBAD("the table is not associative: (%zu * %zu) * %zu "
                         "differs from %zu * (%zu * %zu)", x, i, y, x, i,
                         y);
        }
    }
    /* distinct elements are told apart */
    for (x = 0; x < ord; x++) {
        for (y = 0; y < ord; y++)
            if (q->isp[m[x * ord + y]])
                sig[x * nw + y / 64] |= 1ull << (y % 64);
        if (bt__q_ht_find(&rows, sig + x * nw, nw * 8) != SIZE_MAX)
            QBAD("element %zu is told apart from no other by P: not the "
                 "quotient (which is the coarsest)",
                 x);
        if (bt__q_ht_add(&rows, sig + x * nw, nw * 8) == SIZE_MAX) {
            st = bt__fail(diag, BT_ENOMEM, "out of memory");
            goto done;
        }
    }
#undef QBAD
done:
    bt__q_ht_free(&rows);
    free(gen);
    free(sub);
    free(stack);
    free(sig);
    return st;
}

/*
 * The exact check of docs/misere.md (the (x, e, U) walk of bt__q_verify()), run
 * on the loaded table as on a computed candidate, over the sums of heaps
 * of at most top counters: a context with one row per element (its P
 * bit), the transitions x -> x * (element of heap a) and the heaps'
 * options from the rules.  *wrong is set when it fails.  Bounded by lim:
 * the interrupt is polled heap by heap (a heap's options take O(top)),
 * and the tables (about 16 bytes per element and heap) and the options
 * kept (at most one per element and heap) are charged to max_memory
 * before they are taken.
 */
static bt_status
quotient_check_walk(const bt_quotient *q, size_t top, const bt_limits *lim,
                    bt_diag *diag, int *wrong)
{
    qctx c;
    size_t s, a, ord = q->order;
    bt_status st;
    uint32_t *tr;
    unsigned char *seen = malloc(ord + sizeof(uint32_t));
    htab acts; /* (the options' elements, the element) of the heaps */

    memset(&c, 0, sizeof c);
    memset(&acts, 0, sizeof acts);
    if (seen == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    c.g = q->g;
    c.lim = lim;
    c.diag = diag;
    bt__budget_init(&c.budget, lim);
    {
        /* the rows' cell pointers, the transitions, the walk's columns */
        size_t letters = 16, per = sizeof(unsigned char *) +
                                   2 * sizeof(uint32_t);
        while (letters < top)
            letters *= 2;
        if (ord > SIZE_MAX / per / (letters + 1) ||
            (st = bt__budget_charge(&c.budget, ord * per * (letters + 1),
                                    diag)) != BT_OK) {
            st = bt__fail(diag, BT_ELIMIT,
                          "checking the quotient of %s (%zu elements) over "
                          "the heaps up to %zu needs more than the "
                          "max_memory limit of %zu bytes",
                          q->g->spec, ord, top, lim->max_memory);
            goto done;
        }
    }
    if ((st = bt__q_ensure_letters(&c, top > 0 ? top : 1)) != BT_OK)
        goto nomem;
    for (a = 1; a <= top; a++) {
        if (bt__poll(lim) != BT_OK) {
            st = bt__fail(diag, BT_EINTR,
                          "the time budget ran out while checking the "
                          "quotient of %s (at heap %zu of %zu)",
                          q->g->spec, a, top);
            goto done;
        }
        if ((st = bt__q_load_options(&c, a)) != BT_OK)
            goto done;
        if (c.nopt[a] == 0 && q->heap[a] != 0) {
            st = bt__fail(diag, BT_EINVAL,
                          "heap %zu has no move, so its element is the "
                          "identity 0, not %u", a, (unsigned)q->heap[a]);
            goto done;
        }
        /* The walk uses an option (o1, o2) of heap a only through x *
           o1 * o2 = x * (o1 o2) (the table is associative: checked
           before), so one option per element o1 o2 gives the same check:
           at most |Q| options per heap in place of about a / 2 splits. */
        /* And a heap acts on a triple only through its element and that
           set of its options' elements: a heap that repeats both of a
           smaller one's (past the preperiod they recur with the period)
           reaches no new triple, and the walk skips it. */
        if (c.nopt[a] > 0) {
            size_t j, k = 0;
            memset(seen, 0, ord + sizeof(uint32_t));
            for (j = 0; j < c.nopt[a]; j++) {
                uint32_t o1 = c.opt[a][2 * j], o2 = c.opt[a][2 * j + 1];
                uint32_t m = q->mul[(size_t)q->heap[o1] * ord + q->heap[o2]];
                if (seen[m])
                    continue;
                seen[m] = 1;
                c.opt[a][2 * k] = o1;
                c.opt[a][2 * k + 1] = o2;
                k++;
            }
            c.nopt[a] = k;
            memcpy(seen + ord, &q->heap[a], sizeof(uint32_t));
            if (bt__q_ht_find(&acts, seen, ord + sizeof(uint32_t)) != SIZE_MAX)
                c.nopt[a] = 0;
            else if (bt__q_ht_add(&acts, seen, ord + sizeof(uint32_t)) ==
                     SIZE_MAX)
                goto nomem;
            /* keep what the walk uses, not the a / 2 splits: the options
               kept are O(top * min(top, ord)), not O(top^2) */
            if (c.nopt[a] == 0) {
                free(c.opt[a]);
                c.opt[a] = NULL;
            } else {
                uint32_t *o = realloc(c.opt[a], 2 * k * sizeof *o);
                if (o != NULL)
                    c.opt[a] = o;
            }
            if ((st = bt__budget_charge(&c.budget,
                                        2 * c.nopt[a] * sizeof(uint32_t) +
                                            ord + 2 * sizeof(size_t),
                                        diag)) != BT_OK)
                goto done;
        }
    }
    c.n = top;
    c.rows = calloc(ord, sizeof *c.rows);
    tr = realloc(c.trans, (ord * (c.cap_n + 1) + 1) * sizeof *tr);
    if (c.rows == NULL || tr == NULL)
        goto nomem;
    c.trans = tr;
    c.caprows = ord;
    for (s = 0; s < ord; s++) {
        c.rows[s].cell = calloc(c.cap_n + 1, sizeof *c.rows[s].cell);
        if (c.rows[s].cell == NULL)
            goto nomem;
        c.nrows = s + 1;
        c.rows[s].cell[0] = malloc(1);
        if (c.rows[s].cell[0] == NULL)
            goto nomem;
        c.rows[s].cell[0][0] = q->isp[s];
        for (a = 0; a <= c.cap_n; a++)
            TR(&c, s, a) = a <= top
                               ? q->mul[s * ord + q->heap[a]] : (uint32_t)s;
    }
    st = bt__q_verify(&c, q->mul, wrong, 1);
    goto done;
nomem:
    st = bt__fail(diag, BT_ENOMEM, "out of memory");
done:
    bt__q_ctx_free(&c);
    bt__q_ht_free(&acts);
    free(seen);
    return st;
}

static bt_status
quotient_load(bt_quotient **out, const char *text, size_t len,
              const bt_limits *lim, bt_diag *diag)
{
    bt_quotient *q;
    qtext t;
    size_t fper = 0, fpre = 0, period = 0, preperiod = 0, top, h;
    bt_status st;
    int wrong = 0, proved;

    *out = NULL;
    lim = bt__limits(lim);
    if (len > lim->max_text)
        return bt__fail(diag, BT_ELIMIT,
                        "the quotient's text has %zu bytes, more than %zu "
                        "(the max_text limit)", len, lim->max_text);
    q = calloc(1, sizeof *q);
    if (q == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    t.s = text;
    t.len = len;
    t.at = 0;
    t.line = 1;
    t.diag = diag;
    if ((st = quotient_parse(q, &t, lim, &fper, &fpre)) != BT_OK)
        goto fail;
    /*
     * A text that claims period fper from fpre needs checking only up to
     * the bound top at which the periodicity theorem proves that claim
     * (misere_need): once the heaps up to top are checked exactly and
     * prove it, the quotient of the heaps up to top is that of all heaps,
     * and the element of every larger heap follows from the period, which
     * the text's heaps must then repeat.  So the work is that of the
     * proof, whatever upto the text states (20 000 heaps of 0.75 took
     * 24 s and 1.6 GB to check in full; its proof needs 23).
     */
    top = q->upto;
    if (fper > 0 && fper <= q->upto && fpre <= q->upto) {
        size_t need = bt__q_misere_need(q->g, fpre, fper); /* >= fpre + fper */
        if (need < top)
            top = need;
        for (h = top + 1; h <= q->upto; h++)
            if (q->heap[h] != q->heap[h - fper]) {
                st = bt__fail(diag, BT_EINVAL,
                              "heap %zu is element %u, but the period %zu "
                              "the text claims makes it that of heap %zu, "
                              "%u",
                              h, (unsigned)q->heap[h], fper, h - fper,
                              (unsigned)q->heap[h - fper]);
                goto fail;
            }
    }
    /* A text that claims no period, but whose heaps the theorem proves
       periodic, is refused before the check (which would take the heaps
       up to upto): whether its quotient is right or wrong, it is wrong. */
    if (fper == 0 && (proved = bt__q_detect_period(q->g, q->heap, q->upto,
                                                   &period, &preperiod)) != 0) {
        if (proved < 0)
            st = bt__fail(diag, BT_ENOMEM, "out of memory");
        else
            st = bt__fail(diag, BT_EINVAL,
                          "the quotient of %s is proved periodic with "
                          "period %zu and preperiod %zu, not as the text "
                          "says",
                          q->g->spec, period, preperiod);
        goto fail;
    }
    if ((st = quotient_check_algebra(q, lim, diag)) != BT_OK)
        goto fail;
    /* The check over the heaps up to 64, 128, ..., top: a right table
       predicts every sum of smaller heaps too, so a wrong one is refused
       at the first bound that shows it, after work of that bound (the
       heaps' options cost O(bound^2): 23 s for 100 000 heaps), and a
       right one costs 4/3 of the check up to top. */
    for (h = 64;; h *= 2) {
        size_t k = h < top ? h : top;
        if ((st = quotient_check_walk(q, k, lim, diag, &wrong)) != BT_OK)
            goto fail;
        if (wrong) {
            st = bt__fail(diag, BT_EINVAL,
                          "not the misère quotient of %s: the exact check "
                          "finds a sum of heaps of at most %zu counters "
                          "whose outcome it gets wrong",
                          q->g->spec, k);
            goto fail;
        }
        if (k == top)
            break;
    }
    proved = bt__q_detect_period(q->g, q->heap, top, &period, &preperiod);
    if (proved < 0) {
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
        goto fail;
    }
    if (proved != (fper > 0) ||
        (proved && (period != fper || preperiod != fpre))) {
        if (proved)
            st = bt__fail(diag, BT_EINVAL,
                          "the quotient of %s is proved periodic with "
                          "period %zu and preperiod %zu, not as the text "
                          "says", q->g->spec, period, preperiod);
        else
            st = bt__fail(diag, BT_EINVAL,
                          "the periodicity theorem does not prove the "
                          "quotient of %s from its heaps up to %zu%s",
                          q->g->spec, q->upto,
                          fper > 0 ? ", as the text claims" : "");
        goto fail;
    }
    q->proved = proved;
    q->period = period;
    q->preperiod = preperiod;
    q->loaded = 1;
    if ((st = bt__q_present(q, diag)) != BT_OK ||
        (st = bt__q_is_tame(&q->tame, q, lim, diag)) != BT_OK)
        goto fail;
    *out = q;
    return BT_OK;
fail:
    bt_quotient_free(q);
    return st;
}

bt_status
bt_quotient_load(bt_quotient **out, const char *text, size_t len,
                 const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, quotient_load(out, text, len, lim, diag));
}
