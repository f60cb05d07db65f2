/*
 * quotient_learn.c -- learning a quotient heap by heap: Angluin's L* (rows,
 * test columns, closing the table, refining it from a counterexample,
 * Rivest and Schapire), the driver that snapshots a proved quotient, and
 * the learner that goes from heap to heap (conservative extension,
 * pretending, else L* over the search, each candidate proved);
 * bt_quotient_new and bt_quotient_new_until_proved.  Calls the hash table,
 * the search, pretending, the proof and the result (its presentation and
 * tameness).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/quotient_impl.h"

/* -------------------------------------------------------------- learning */

static bt_status
pos_copy(pos *dst, const uint32_t *h, size_t n, uint32_t extra)
{
    dst->h = malloc((n + 1) * sizeof *dst->h);
    if (dst->h == NULL)
        return BT_ENOMEM;
    if (n > 0)
        memcpy(dst->h, h, n * sizeof *h);
    dst->n = n;
    if (extra != 0)
        dst->h[dst->n++] = extra;
    qsort(dst->h, dst->n, sizeof *dst->h, cmp_u32);
    return BT_OK;
}

/* Fills cell[a][t] for t in [t0, ncols). */
static bt_status
fill_cells(qctx *c, size_t s, size_t a, size_t t0)
{
    size_t t;
    bt_status st;
    for (t = t0; t < c->ncols; t++) {
        int p;
        if ((st = bt__q_outcome_sum(c, &c->rows[s].rep, (uint32_t)a,
                                    &c->cols[t], &p)) != BT_OK)
            return st;
        c->rows[s].cell[a][t] = (unsigned char)p;
    }
    return BT_OK;
}

bt_status
bt__q_ensure_letters(qctx *c, size_t n)
{
    size_t s, a;
    if (n <= c->cap_n)
        return BT_OK;
    {
        size_t nc = c->cap_n ? 2 * c->cap_n : 16;
        uint32_t *tr;
        while (nc < n)
            nc *= 2;
        for (s = 0; s < c->nrows; s++) {
            unsigned char **cl = realloc(c->rows[s].cell,
                                         (nc + 1) * sizeof *cl);
            if (cl == NULL)
                return BT_ENOMEM;
            for (a = c->cap_n + 1; a <= nc; a++)
                cl[a] = NULL;
            c->rows[s].cell = cl;
        }
        {
            uint32_t **o = realloc(c->opt, (nc + 1) * sizeof *o);
            size_t *no;
            if (o == NULL)
                return BT_ENOMEM;
            c->opt = o;
            no = realloc(c->nopt, (nc + 1) * sizeof *no);
            if (no == NULL)
                return BT_ENOMEM;
            c->nopt = no;
            for (a = c->cap_n + 1; a <= nc; a++) {
                c->opt[a] = NULL;
                c->nopt[a] = 0;
            }
            if (c->cap_n == 0) {
                c->opt[0] = NULL;
                c->nopt[0] = 0;
            }
        }
        tr = calloc(c->caprows * (nc + 1) + 1, sizeof *tr);
        if (tr == NULL)
            return BT_ENOMEM;
        for (s = 0; s < c->nrows; s++)
            for (a = 0; a <= c->cap_n; a++)
                tr[s * (nc + 1) + a] = c->trans[s * (c->cap_n + 1) + a];
        free(c->trans);
        c->trans = tr;
        c->cap_n = nc;
    }
    return BT_OK;
}

/* Allocates the cells of letter a of row s (live letters only). */
bt_status
bt__q_alloc_cells(qctx *c, size_t s, size_t a)
{
    c->rows[s].cell[a] = calloc(c->tcap ? c->tcap : 1, 1);
    return c->rows[s].cell[a] ? BT_OK : BT_ENOMEM;
}

static bt_status
add_row(qctx *c, const uint32_t *h, size_t n, uint32_t extra)
{
    size_t s = c->nrows, a;
    bt_status st;
    if (s == c->caprows) {
        size_t nc = c->caprows ? 2 * c->caprows : 64;
        row *r = realloc(c->rows, nc * sizeof *r);
        uint32_t *tr;
        if (r == NULL)
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
        c->rows = r;
        tr = realloc(c->trans, (nc * (c->cap_n + 1) + 1) * sizeof *tr);
        if (tr == NULL)
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
        c->trans = tr;
        c->caprows = nc;
    }
    if (s >= c->lim->max_table_piles)
        return bt__fail(c->diag, BT_ELIMIT,
                        "the misère quotient of %s has more than %zu "
                        "elements (the max_table_piles limit)",
                        c->g->spec, c->lim->max_table_piles);
    memset(&c->rows[s], 0, sizeof c->rows[s]);
    c->rows[s].cell = calloc(c->cap_n + 1, sizeof *c->rows[s].cell);
    if (c->rows[s].cell == NULL ||
        pos_copy(&c->rows[s].rep, h, n, extra) != BT_OK) {
        if (c->rows[s].cell != NULL)
            free(c->rows[s].cell);
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    }
    c->nrows++;
    for (a = 0; a <= c->n; a++) {
        if (a > 0 && c->nopt[a] == 0)
            continue;
        if (bt__q_alloc_cells(c, s, a) != BT_OK)
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
        if ((st = fill_cells(c, s, a, 0)) != BT_OK)
            return st;
    }
    return BT_OK;
}

static bt_status
add_col(qctx *c, const uint32_t *h, size_t n)
{
    size_t t = c->ncols, s, a;
    bt_status st;
    if (t == c->capcols) {
        size_t nc = c->capcols ? 2 * c->capcols : 64;
        pos *p = realloc(c->cols, nc * sizeof *p);
        if (p == NULL)
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
        c->cols = p;
        c->capcols = nc;
    }
    if (t + 1 > c->tcap) {
        size_t nc = c->tcap ? 2 * c->tcap : 64;
        for (s = 0; s < c->nrows; s++)
            for (a = 0; a <= c->n; a++) {
                unsigned char *q;
                if (c->rows[s].cell[a] == NULL)
                    continue;
                q = realloc(c->rows[s].cell[a], nc);
                if (q == NULL)
                    return bt__fail(c->diag, BT_ENOMEM, "out of memory");
                c->rows[s].cell[a] = q;
            }
        c->tcap = nc;
    }
    if (pos_copy(&c->cols[t], h, n, 0) != BT_OK)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    c->ncols++;
    for (s = 0; s < c->nrows; s++)
        for (a = 0; a <= c->n; a++)
            if (c->rows[s].cell[a] != NULL &&
                (st = fill_cells(c, s, a, t)) != BT_OK)
                return st;
    return BT_OK;
}

/*
 * Makes the table closed: every row + letter matches a row.  Fills trans.
 * Rows stay pairwise distinct, so each cell vector names one element.
 */
static bt_status
close_table(qctx *c)
{
    size_t s, a;
    bt_status st;
    bt__q_ht_clear(&c->rowtab);
    for (s = 0; s < c->nrows; s++)
        if (bt__q_ht_add(&c->rowtab, c->rows[s].cell[0], c->ncols) == SIZE_MAX)
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (s = 0; s < c->nrows; s++) {
        TR(c, s, 0) = (uint32_t)s;
        for (a = 1; a <= c->n; a++) {
            size_t r;
            if (c->nopt[a] == 0) {
                TR(c, s, a) = (uint32_t)s;
                continue;
            }
            r = bt__q_ht_find(&c->rowtab, c->rows[s].cell[a], c->ncols);
            if (r == SIZE_MAX) {
                r = c->nrows;
                if ((st = add_row(c, c->rows[s].rep.h, c->rows[s].rep.n,
                                  (uint32_t)a)) != BT_OK)
                    return st;
                if (bt__q_ht_add(&c->rowtab, c->rows[r].cell[0], c->ncols) ==
                    SIZE_MAX)
                    return bt__fail(c->diag, BT_ENOMEM, "out of memory");
                TR(c, r, 0) = (uint32_t)r;
            }
            TR(c, s, a) = (uint32_t)r;
        }
    }
    return BT_OK;
}

/*
 * Counterexample analysis (Rivest and Schapire 1993): w[0..k-1] is a word
 * of letters read from state x0, and alpha_i = o(rep(x_i) +
 * w[i..k-1]) with x_i the state after i letters.  Given alpha_0 !=
 * alpha_kstop (with x_kstop's row deciding alpha_kstop), some i has
 * alpha_i != alpha_{i+1}: the suffix w[i+1..k-1] separates rep(x_i) +
 * w_i from rep(x_{i+1}) and becomes a new column.
 */
bt_status
bt__q_refine(qctx *c, size_t x0, const uint32_t *w, size_t k, size_t kstop)
{
    size_t i, x;
    int prev = -1;
    bt_status st;
    pos suf;
    suf.h = malloc((k + 1) * sizeof *suf.h);
    if (suf.h == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    x = x0;
    for (i = 0; i <= kstop; i++) {
        int al;
        suf.n = k - i;
        memcpy(suf.h, w + i, suf.n * sizeof *suf.h);
        qsort(suf.h, suf.n, sizeof *suf.h, cmp_u32);
        if ((st = bt__q_outcome_sum(c, &c->rows[x].rep, 0, &suf, &al)) != BT_OK)
            break;
        if (prev >= 0 && al != prev) {
            /* separates rep(x_{i-1}) + w_{i-1} from rep(x_i): column
               w[i..k-1] */
            st = add_col(c, suf.h, suf.n);
            free(suf.h);
            return st;
        }
        prev = al;
        if (i < k)
            x = TR(c, x, w[i]);
    }
    free(suf.h);
    if (st != BT_OK)
        return st;
    return bt__fail(c->diag, BT_EINVAL,
                    "internal: a counterexample without a distinguishing "
                    "suffix");
}

/* The state reached from x by the heaps of position p. */
size_t
bt__q_run(const qctx *c, size_t x, const pos *p)
{
    size_t i;
    for (i = 0; i < p->n; i++)
        x = TR(c, x, p->h[i]);
    return x;
}

/*
 * Commutativity of the letters: trans(trans(s,a),b) = trans(trans(s,b),a).
 * Returns 1 with a refinement made, 0 when they commute.
 */
static bt_status
check_commute(qctx *c, int *refined)
{
    size_t s, a, b, t;
    bt_status st;
    *refined = 0;
    for (s = 0; s < c->nrows; s++)
        for (a = 1; a <= c->n; a++) {
            if (c->nopt[a] == 0)
                continue;
            for (b = a + 1; b <= c->n; b++) {
                size_t r1, r2, k = 0, kstop;
                uint32_t *w;
                int o1, o2, og;
                if (c->nopt[b] == 0)
                    continue;
                r1 = TR(c, TR(c, s, a), b);
                r2 = TR(c, TR(c, s, b), a);
                if (r1 == r2)
                    continue;
                for (t = 0; t < c->ncols; t++)
                    if (c->rows[r1].cell[0][t] != c->rows[r2].cell[0][t])
                        break;
                w = malloc((2 + c->cols[t].n) * sizeof *w);
                if (w == NULL)
                    return bt__fail(c->diag, BT_ENOMEM, "out of memory");
                w[0] = (uint32_t)a;
                w[1] = (uint32_t)b;
                kstop = 2;
                memcpy(w + 2, c->cols[t].h, c->cols[t].n * sizeof *w);
                k = 2 + c->cols[t].n;
                o1 = c->rows[r1].cell[0][t];
                o2 = c->rows[r2].cell[0][t];
                {
                    pos ab = {w, 2};
                    uint32_t *sorted = malloc((k + c->rows[s].rep.n) *
                                              sizeof *sorted);
                    pos gp;
                    if (sorted == NULL) {
                        free(w);
                        return bt__fail(c->diag, BT_ENOMEM,
                                        "out of memory");
                    }
                    (void)ab;
                    memcpy(sorted, w, k * sizeof *w);
                    memcpy(sorted + k, c->rows[s].rep.h,
                           c->rows[s].rep.n * sizeof *w);
                    gp.h = sorted;
                    gp.n = k + c->rows[s].rep.n;
                    qsort(sorted, gp.n, sizeof *sorted, cmp_u32);
                    {
                        pos e = {NULL, 0};
                        st = bt__q_outcome_sum(c, &gp, 0, &e, &og);
                    }
                    free(sorted);
                    if (st != BT_OK) {
                        free(w);
                        return st;
                    }
                }
                /* o(G) differs from one of the two predictions */
                if (og == o1) {
                    (void)o2;
                    w[0] = (uint32_t)b;
                    w[1] = (uint32_t)a;
                }
                st = bt__q_refine(c, s, w, k, kstop);
                free(w);
                if (st == BT_OK)
                    *refined = 1;
                return st;
            }
        }
    return BT_OK;
}

/* ------------------------------------------------------------ the driver */

void
bt__q_ctx_free(qctx *c)
{
    size_t s, a;
    for (s = 0; s < c->nrows; s++) {
        for (a = 0; a <= c->cap_n; a++)
            free(c->rows[s].cell[a]);
        free(c->rows[s].cell);
        free(c->rows[s].rep.h);
    }
    free(c->rows);
    for (s = 0; s < c->ncols; s++)
        free(c->cols[s].h);
    free(c->cols);
    if (c->opt)
        for (a = 0; a <= c->cap_n; a++)
            free(c->opt[a]);
    free(c->opt);
    free(c->nopt);
    free(c->trans);
    bt__q_ht_free(&c->rowtab);
    bt__graph_clear(&c->memo);
    free(c->snap_trans);
    free(c->snap_p);
}

/* The multiplication of the candidate: x * y = run of rep(y) from x. */
static bt_status
make_mul(qctx *c, uint32_t **out)
{
    size_t ord = c->nrows, x, y;
    uint32_t *m = malloc(ord * ord * sizeof *m + 1);
    if (m == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (x = 0; x < ord; x++)
        for (y = 0; y < ord; y++)
            m[x * ord + y] = (uint32_t)bt__q_run(c, x, &c->rows[y].rep);
    *out = m;
    return BT_OK;
}

static bt_status
snapshot(qctx *c)
{
    size_t ord = c->nrows, s, a;
    free(c->snap_trans);
    free(c->snap_p);
    c->snap_trans = malloc(ord * (c->n + 1) * sizeof *c->snap_trans + 1);
    c->snap_p = malloc(ord + 1);
    if (c->snap_trans == NULL || c->snap_p == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (s = 0; s < ord; s++) {
        for (a = 0; a <= c->n; a++)
            c->snap_trans[s * (c->n + 1) + a] = TR(c, s, a);
        c->snap_p[s] = c->rows[s].cell[0][0];
    }
    c->snap_n = c->n;
    c->snap_order = ord;
    return BT_OK;
}

void
bt__q_learner_free(qlearner *L)
{
    bt__q_ctx_free(&L->c);
    free(L->mul);
    bt__qtame_free(L->tame);
    memset(L, 0, sizeof *L);
}

/* Points the learner at this call's limits and diag (a cached learner
   outlives the call that made it), with a fresh memory budget. */
void
bt__q_learner_bind(qlearner *L, const bt_limits *lim, bt_diag *diag)
{
    L->c.lim = lim;
    L->c.diag = diag;
    /* the memo goes, and its charges with the budget they were made to
       (a learner moved by value keeps the old address there) */
    L->c.memo.budget = NULL;
    bt__graph_clear(&L->c.memo);
    bt__budget_init(&L->c.budget, lim);
}

/* The empty table: the identity row and the empty column. */
bt_status
bt__q_learner_init(qlearner *L, bt_game *g, const qalpha *al, size_t n,
                   const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    memset(L, 0, sizeof *L);
    L->c.g = g;
    L->c.al = al;
    /* tame until a heap says otherwise (NULL when out of memory: the
       general learner alone, as for a union of games) */
    L->tame = al == NULL && bt__qtame_on() ? bt__qtame_new() : NULL;
    bt__q_learner_bind(L, lim, diag);
    if (bt__q_ensure_letters(&L->c, n > 0 ? n : 1) != BT_OK)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    if ((st = add_col(&L->c, NULL, 0)) != BT_OK ||
        (st = add_row(&L->c, NULL, 0, 0)) != BT_OK)
        return st;
    return BT_OK;
}

/* Q(h + 1) proved (L->h + 1 = c->n): its snapshot, and a fresh memo. */
static bt_status
learner_proved(qlearner *L)
{
    bt_status st;
    if ((st = snapshot(&L->c)) != BT_OK)
        return st;
    /* every memo entry holds a heap <= h, now answered by the snapshot:
       the memo starts afresh */
    bt__graph_empty(&L->c.memo);
    L->h = L->c.n;
    return BT_OK;
}

/* ------------------------------------------- hooks into quotient_tame.c */

/*
 * Heap h = L->h + 1 (options loaded, c->n = h) added to the tame tracker.
 * When the heaps up to h are tame and heap h's element is an element of
 * Q(h - 1), it is a conservative extension with that element, set here
 * (*done); when it is a new element, learner_heap_rest forms Q(h) from
 * the tracker (tame_snapshot); when heap h breaks tameness the tracker is
 * dropped and the general learner goes on from heap h.
 */
static bt_status
tame_heap(qlearner *L, int *done)
{
    qctx *c = &L->c;
    size_t h = c->n, s, e;
    uint32_t hh = (uint32_t)h;
    int r = bt__qtame_add(L->tame, h, c->opt[h], c->nopt[h]);
    *done = 0;
    if (r < 0)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    if (r == 0) {
        bt__qtame_free(L->tame);
        L->tame = NULL;
        return BT_OK;
    }
    if (bt__qtame_grew(L->tame) || c->nopt[h] == 0 || L->mul == NULL)
        return BT_OK;
    /* Q(h - 1) is M (proved by both): the row whose representative's
       element is heap h's */
    e = bt__qtame_element(L->tame, &hh, 1);
    for (s = 0; s < c->nrows; s++)
        if (bt__qtame_element(L->tame, c->rows[s].rep.h, c->rows[s].rep.n) ==
            e)
            break;
    if (s == c->nrows || bt__qtame_order(L->tame) != c->nrows)
        return bt__fail(c->diag, BT_EINVAL,
                        "internal: the tame quotient of %s disagrees with "
                        "the learnt one at heap %zu",
                        c->g->spec, h);
    *done = 1;
    return bt__q_conservative_set(c, L->mul, h, s);
}

/* The tame quotient of the heaps up to h = c->n as the proved snapshot
   that answers the learner (as a proved trial of pretending does). */
static bt_status
tame_snapshot(qlearner *L)
{
    qctx *c = &L->c;
    uint32_t *tr;
    unsigned char *isp;
    size_t ord;
    bt_status st;
    if (bt__qtame_table(L->tame, &tr, &isp, &ord) != 0)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    if ((st = bt__budget_charge(&c->budget, ord * (c->n + 2) * 4, c->diag)) !=
        BT_OK) {
        free(tr);
        free(isp);
        return st;
    }
    free(c->snap_trans);
    free(c->snap_p);
    c->snap_trans = tr;
    c->snap_p = isp;
    c->snap_n = c->n;
    c->snap_order = ord;
    return BT_OK;
}

/* Whether the closed table is the proved snapshot of the heaps up to c->n
   (an isomorphism of automata, bt__qauto_same): 1, 0, -1 out of memory. */
static int
snapshot_is_table(const qctx *c)
{
    size_t s;
    int same;
    unsigned char *isp = malloc(c->nrows + 1);
    if (isp == NULL)
        return -1;
    for (s = 0; s < c->nrows; s++)
        isp[s] = c->rows[s].cell[0][0];
    same = bt__qauto_same(c->trans, c->cap_n + 1, isp, c->nrows,
                          c->snap_trans, c->snap_n + 1, c->snap_p,
                          c->snap_order, c->nopt, c->n);
    free(isp);
    return same;
}

/*
 * The first part of learning heap h + 1: its options, and the conservative
 * extension (*done when it passes: Q(h + 1) is then proved).  This part
 * changes the table only in the letter h + 1 (its options, its
 * transitions, and its cells when it passes), so that bt__q_learner_undo() puts
 * a learner back to Q(h) after it, whatever it returned.
 */
bt_status
bt__q_learner_heap_begin(qlearner *L, int *done)
{
    qctx *c = &L->c;
    size_t h = L->h + 1;
    bt_status st;
    *done = 0;
    /* a heap whose element the table already has may go through no
       search and no walk, which poll: the heap loop polls too */
    if (bt__poll(c->lim) != BT_OK)
        return bt__fail(c->diag, BT_EINTR,
                        "the time budget ran out while computing the "
                        "misère quotient (at heap %zu)",
                        h);
    if (bt__q_ensure_letters(c, h) != BT_OK)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    if ((st = bt__q_load_options(c, h)) != BT_OK)
        return st;
    c->n = h;
    if (L->tame != NULL) {
        /* tame so far: the theory, without the search or the walk */
        if ((st = tame_heap(L, done)) != BT_OK || *done)
            return st != BT_OK ? st : learner_proved(L);
        if (L->tame != NULL)
            return BT_OK; /* a new element: bt__q_learner_heap_rest */
    }
    if (c->nopt[h] > 0 && L->mul != NULL) {
        if ((st = bt__q_try_conservative(c, L->mul, h, done)) != BT_OK)
            return st;
        if (*done)
            return learner_proved(L);
    }
    return BT_OK;
}

/* Puts a learner whose heap h + 1 failed in bt__q_learner_heap_begin() back to
   Q(h). */
void
bt__q_learner_undo(qlearner *L)
{
    qctx *c = &L->c;
    size_t h = L->h + 1, s;
    if (L->tame != NULL)
        bt__qtame_truncate(L->tame, L->h);
    if (h > c->cap_n)
        return;
    c->n = L->h;
    free(c->opt[h]);
    c->opt[h] = NULL;
    c->nopt[h] = 0;
    for (s = 0; s < c->nrows; s++) {
        free(c->rows[s].cell[h]);
        c->rows[s].cell[h] = NULL;
    }
}

/*
 * The rest of learning heap h + 1 when it is not a conservative
 * extension: pretending, else L* over the search.  On failure the table
 * may be half changed: the caller frees the learner (or keeps a copy taken
 * before).
 */
bt_status
bt__q_learner_heap_rest(qlearner *L)
{
    qctx *c = &L->c;
    size_t h = c->n, s;
    int refined, done = 0;
    bt_status st;
    /* tame: the quotient of heaps up to h is known, as pretending would
       find it; else a new element: pretending finds the quotient, which
       then answers the learner below in place of the search */
    if (L->tame != NULL && bt__qtame_heaps(L->tame) == h &&
        (st = tame_snapshot(L)) != BT_OK)
        return st;
    if (c->nopt[h] > 0 && L->mul != NULL && bt__q_pretending &&
        c->snap_n != h &&
        (st = bt__q_try_pretend(c, L->mul, h, &done)) != BT_OK)
        return st;
    if (c->nopt[h] > 0)
        for (s = 0; s < c->nrows; s++) {
            if (bt__q_alloc_cells(c, s, h) != BT_OK)
                return bt__fail(c->diag, BT_ENOMEM, "out of memory");
            if ((st = fill_cells(c, s, h, 0)) != BT_OK)
                return st;
        }
    for (;;) {
        if ((st = close_table(c)) != BT_OK)
            return st;
        if (c->snap_n == h) {
            /* the proved quotient answers; a table that is it needs no
               check (and would pass both) */
            int same = snapshot_is_table(c);
            if (same < 0)
                return bt__fail(c->diag, BT_ENOMEM, "out of memory");
            if (same) {
                free(L->mul);
                L->mul = NULL;
                if ((st = make_mul(c, &L->mul)) != BT_OK)
                    return st;
                break;
            }
        }
        if ((st = check_commute(c, &refined)) != BT_OK)
            return st;
        if (refined)
            continue;
        free(L->mul);
        L->mul = NULL;
        if ((st = make_mul(c, &L->mul)) != BT_OK)
            return st;
        if ((st = bt__q_verify(c, L->mul, &refined, 0)) != BT_OK)
            return st;
        if (!refined)
            break;
    }
    return learner_proved(L);
}

/* Learns heap h + 1 and proves Q(h + 1) (for a learner that is freed on
   failure). */
static bt_status
learner_heap(qlearner *L)
{
    int done;
    bt_status st = bt__q_learner_heap_begin(L, &done);
    if (st != BT_OK || done)
        return st;
    return bt__q_learner_heap_rest(L);
}

/* Copies a hash table; -1 when out of memory (dst is then empty). */
static int
ht_copy(htab *dst, const htab *src)
{
    memset(dst, 0, sizeof *dst);
    dst->arena = malloc(src->acap + 1);
    dst->off = malloc((src->cap + 1) * sizeof *dst->off);
    dst->len = malloc((src->cap + 1) * sizeof *dst->len);
    dst->slot = malloc((src->nslot + 1) * sizeof *dst->slot);
    if (dst->arena == NULL || dst->off == NULL || dst->len == NULL ||
        dst->slot == NULL) {
        bt__q_ht_free(dst);
        return -1;
    }
    if (src->acap > 0)
        memcpy(dst->arena, src->arena, src->acap);
    if (src->cap > 0) {
        memcpy(dst->off, src->off, src->cap * sizeof *dst->off);
        memcpy(dst->len, src->len, src->cap * sizeof *dst->len);
    }
    if (src->nslot > 0)
        memcpy(dst->slot, src->slot, src->nslot * sizeof *dst->slot);
    dst->alen = src->alen;
    dst->acap = src->acap;
    dst->n = src->n;
    dst->cap = src->cap;
    dst->nslot = src->nslot;
    return 0;
}

static void *
dup_bytes(const void *p, size_t bytes)
{
    void *q = malloc(bytes + 1);
    if (q != NULL && bytes > 0)
        memcpy(q, p, bytes);
    return q;
}

/*
 * A deep copy of a learner between heaps (its memo is empty there and is
 * not copied), so that a heap that fails half way leaves the learner as
 * it was: the analysis learns each heap on a copy and keeps it once the
 * heap is proved.  The copy's table memory is that of the original
 * (rows x letters x columns bytes); BT_ENOMEM.
 */
bt_status
bt__q_learner_copy(qlearner *dst, const qlearner *src)
{
    const qctx *c = &src->c;
    qctx *d = &dst->c;
    size_t s, a, ntr = c->caprows * (c->cap_n + 1) + 1;
    memset(dst, 0, sizeof *dst);
    d->g = c->g;
    d->al = c->al;
    d->lim = c->lim;
    d->diag = c->diag;
    d->n = c->n;
    d->cap_n = c->cap_n;
    d->tcap = c->tcap;
    d->polls = c->polls;
    d->work = c->work;
    d->work_max = c->work_max;
    bt__budget_init(&d->budget, c->lim); /* its memo is empty */
    dst->h = src->h;
    d->opt = calloc(c->cap_n + 1, sizeof *d->opt);
    d->nopt = dup_bytes(c->nopt, (c->cap_n + 1) * sizeof *c->nopt);
    d->rows = calloc(c->caprows + 1, sizeof *d->rows);
    d->cols = calloc(c->capcols + 1, sizeof *d->cols);
    d->trans = dup_bytes(c->trans, ntr * sizeof *c->trans);
    if (d->opt == NULL || d->nopt == NULL || d->rows == NULL ||
        d->cols == NULL || d->trans == NULL)
        goto nomem;
    d->caprows = c->caprows;
    d->capcols = c->capcols;
    for (a = 0; a <= c->cap_n; a++)
        if (c->opt[a] != NULL &&
            (d->opt[a] = dup_bytes(c->opt[a], 2 * c->nopt[a] *
                                                  sizeof *c->opt[a])) ==
                NULL)
            goto nomem;
    for (s = 0; s < c->nrows; s++) {
        const row *r = &c->rows[s];
        row *q = &d->rows[s];
        q->cell = calloc(c->cap_n + 1, sizeof *q->cell);
        if (q->cell == NULL)
            goto nomem;
        d->nrows = s + 1;
        q->rep.n = r->rep.n;
        q->rep.h = dup_bytes(r->rep.h, r->rep.n * sizeof *r->rep.h);
        if (q->rep.h == NULL)
            goto nomem;
        for (a = 0; a <= c->cap_n; a++)
            if (r->cell[a] != NULL &&
                (q->cell[a] = dup_bytes(r->cell[a],
                                        c->tcap ? c->tcap : 1)) == NULL)
                goto nomem;
    }
    for (s = 0; s < c->ncols; s++) {
        d->cols[s].n = c->cols[s].n;
        d->cols[s].h = dup_bytes(c->cols[s].h,
                                 c->cols[s].n * sizeof *c->cols[s].h);
        if (d->cols[s].h == NULL)
            goto nomem;
        d->ncols = s + 1;
    }
    if (ht_copy(&d->rowtab, &c->rowtab) != 0)
        goto nomem;
    if (c->snap_trans != NULL) {
        d->snap_trans = dup_bytes(c->snap_trans, c->snap_order *
                                                     (c->snap_n + 1) *
                                                     sizeof *c->snap_trans);
        d->snap_p = dup_bytes(c->snap_p, c->snap_order);
        if (d->snap_trans == NULL || d->snap_p == NULL)
            goto nomem;
    }
    d->snap_n = c->snap_n;
    d->snap_order = c->snap_order;
    dst->tame = bt__qtame_copy(src->tame); /* NULL: the general learner */
    if (src->mul != NULL &&
        (dst->mul = dup_bytes(src->mul, c->nrows * c->nrows *
                                            sizeof *src->mul)) == NULL)
        goto nomem;
    return BT_OK;
nomem:
    bt__q_learner_free(dst);
    return bt__fail(c->diag, BT_ENOMEM, "out of memory");
}

/* Q(h) as a quotient object (its period, if proved, set by the caller). */
bt_status
bt__q_learner_quotient(bt_quotient **out, qlearner *L, bt_diag *diag)
{
    qctx *c = &L->c;
    bt_quotient *q;
    size_t x, h, n = L->h;
    bt_status st;
    *out = NULL;
    q = calloc(1, sizeof *q);
    if (q == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    q->g = bt_game_ref(c->g);
    q->upto = n;
    q->ng = c->al != NULL ? c->al->ng : 0;
    q->order = c->nrows;
    if (L->mul == NULL) { /* no heap learnt: Q is the identity alone */
        if ((st = make_mul(c, &q->mul)) != BT_OK) {
            bt_quotient_free(q);
            return st;
        }
    } else
        q->mul = dup_bytes(L->mul, q->order * q->order * sizeof *q->mul);
    q->isp = malloc(q->order);
    q->heap = calloc(n + 1, sizeof *q->heap);
    if (q->mul == NULL || q->isp == NULL || q->heap == NULL) {
        bt_quotient_free(q);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    for (x = 0; x < q->order; x++) {
        q->isp[x] = c->rows[x].cell[0][0];
        q->pcount += q->isp[x];
    }
    for (h = 1; h <= n; h++)
        q->heap[h] = c->nopt[h] > 0 ? TR(c, 0, h) : 0;
    *out = q;
    return BT_OK;
}

/* Whether Q(h) of a learner is proved periodic: 1, with the period. */
int
bt__q_learner_period(qlearner *L, size_t *period, size_t *preperiod)
{
    uint32_t *e = NULL;
    int proved;
    if (L->c.al != NULL || bt__q_misere_need(L->c.g, 1, 1) == SIZE_MAX)
        return 0;
    if (bt__q_heap_map(&L->c, L->h, &e) != BT_OK)
        return -1;
    proved = bt__q_detect_period(L->c.g, e, L->h, period, preperiod);
    free(e);
    return proved;
}

/* The presentation and tameness of a quotient made by learner_quotient. */
static bt_status
quotient_finish(bt_quotient *q, int proved, size_t period, size_t preperiod,
                const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    q->proved = proved;
    q->period = period;
    q->preperiod = preperiod;
    if ((st = bt__q_present(q, diag)) != BT_OK)
        return st;
    return bt__q_is_tame(&q->tame, q, lim, diag);
}

/*
 * The quotient of the heaps up to n; with until, heap by heap up to n at
 * most, stopping at the first heap where the periodicity theorem applies
 * (BT_ELIMIT when it does not by n).
 */
bt_status
bt__q_build(bt_quotient **out, bt_game *g, const qalpha *al, size_t n,
            int until, const bt_limits *lim, bt_diag *diag)
{
    qlearner L;
    bt_quotient *q = NULL;
    bt_status st;
    size_t period = 0, preperiod = 0;
    int proved = 0;

    *out = NULL;
    lim = bt__limits(lim);
    if (g == NULL || !(g->rules->flags & BT__RS_HEAPS))
        return bt__fail(diag, BT_EINVAL,
                        "%s is not a heap game: misère quotients are for "
                        "games whose component is one heap",
                        g ? g->spec : "(null)");
    if (n > lim->max_grundy || n > 100000)
        return bt__fail(diag, BT_ELIMIT,
                        "heap bound %zu exceeds the limit %zu", n,
                        lim->max_grundy < 100000 ? lim->max_grundy
                                                 : (size_t)100000);
    if (until && bt__q_misere_need(g, 1, 1) == SIZE_MAX)
        /* no bound proves it: computing to n could only end in this
           refusal, after as long as the bound takes (for Nim to 1000
           heaps, hours) */
        return bt__fail(diag, BT_ELIMIT,
                        "the misère quotient of %s is not proved periodic "
                        "by any bound: the periodicity theorem is for "
                        "octal codes and subtraction games",
                        g->spec);
    if ((st = bt__q_learner_init(&L, g, al, n, lim, diag)) != BT_OK)
        goto fail;
    while (L.h < n) {
        if ((st = learner_heap(&L)) != BT_OK) {
            /* say where learning stopped: past the wild frontier a heap
               can run into a limit after many that passed */
            if (diag != NULL && L.h > 0 &&
                (st == BT_ELIMIT || st == BT_EINTR || st == BT_ENOMEM)) {
                char why[sizeof diag->message];
                memcpy(why, diag->message, sizeof why);
                (void)bt__fail(diag, st,
                               "%s (at heap %zu of %s: the heaps up to %zu "
                               "were learnt)",
                               why, L.h + 1, g->spec, L.h);
            }
            goto fail;
        }
        if (until || L.h == n) {
            proved = bt__q_learner_period(&L, &period, &preperiod);
            if (proved < 0)
                goto nomem;
            if (proved && until)
                break;
        }
    }
    if (until && !proved) {
        st = bt__fail(diag, BT_ELIMIT,
                      "the misère quotient of %s is not proved periodic "
                      "by heap %zu (computed to %zu, with %zu elements): "
                      "%s",
                      g->spec, n, n, L.c.nrows,
                      bt__q_misere_need(g, 1, 1) == SIZE_MAX
                          ? "the periodicity theorem is for octal codes "
                            "and subtraction games"
                          : "no period of its heap map meets the bound "
                            "of the periodicity theorem there");
        goto fail;
    }
    if ((st = bt__q_learner_quotient(&q, &L, diag)) != BT_OK ||
        (st = quotient_finish(q, proved, period, preperiod, lim, diag)) !=
            BT_OK)
        goto fail;
    bt__q_learner_free(&L);
    *out = q;
    return BT_OK;
nomem:
    st = bt__fail(diag, BT_ENOMEM, "out of memory");
fail:
    bt__q_learner_free(&L);
    bt_quotient_free(q);
    return st;
}

bt_status
bt_quotient_new(bt_quotient **out, bt_game *g, size_t n,
                const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, bt__q_build(out, g, NULL, n, 0, lim, diag));
}

bt_status
bt_quotient_new_until_proved(bt_quotient **out, bt_game *g, size_t max_n,
                             const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, bt__q_build(out, g, NULL, max_n, 1, lim, diag));
}
