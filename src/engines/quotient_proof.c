/*
 * quotient_proof.c -- the proof of a candidate quotient (the breadth-first
 * walk over every position of docs/misere.md, which yields a counterexample
 * when it fails) and the periodicity theorem for misère quotients of octal
 * games (misere_need, detect_period).  Calls the hash table, the search
 * (the outcomes of a counterexample's positions) and the learning table
 * (run, refine).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/quotient_impl.h"

/* ------------------------------------------------------------ the proof */

typedef struct vnode {
    size_t parent;
    uint32_t letter;
    unsigned char settled; /* least-first walk: its cost is final */
    uint64_t cost;         /* least-first walk: the cost of its word */
} vnode;

/* A binary heap of (cost, node) for the least-first walk. */
typedef struct vheap {
    uint64_t *cost;
    size_t *node;
    size_t n, cap;
} vheap;

static int
vheap_push(vheap *q, uint64_t cost, size_t node)
{
    size_t i;
    if (q->n == q->cap) {
        size_t nc = q->cap ? 2 * q->cap : 1024;
        uint64_t *cs = realloc(q->cost, nc * sizeof *cs);
        size_t *ns;
        if (cs == NULL)
            return -1;
        q->cost = cs;
        ns = realloc(q->node, nc * sizeof *ns);
        if (ns == NULL)
            return -1;
        q->node = ns;
        q->cap = nc;
    }
    for (i = q->n++; i > 0 && q->cost[(i - 1) / 2] > cost; i = (i - 1) / 2) {
        q->cost[i] = q->cost[(i - 1) / 2];
        q->node[i] = q->node[(i - 1) / 2];
    }
    q->cost[i] = cost;
    q->node[i] = node;
    return 0;
}

static size_t
vheap_pop(vheap *q, uint64_t *cost)
{
    size_t top = q->node[0], i = 0, last = --q->n;
    *cost = q->cost[0];
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= last)
            break;
        if (k + 1 < last && q->cost[k + 1] < q->cost[k])
            k++;
        if (q->cost[k] >= q->cost[last])
            break;
        q->cost[i] = q->cost[k];
        q->node[i] = q->node[k];
        i = k;
    }
    q->cost[i] = q->cost[last];
    q->node[i] = q->node[last];
    return top;
}

/*
 * The first part of a step of the walk, U' = {y : y a in U}: bit y of
 * nu[] is ub[ca[y]] (ub: U a byte an element, ca: the column y -> y a),
 * for y < ord.  A word at a time, without a branch: the bits of U follow
 * no pattern (about three in four are set), and a branch on each (the
 * loop before) was mispredicted that often.  This is nearly all of the
 * walk's work.
 */
static void
gather_bits(uint64_t *nu, const uint32_t *ca, const unsigned char *ub,
            size_t ord)
{
    size_t y, b;
    for (y = 0; y < ord; y += 64) {
        size_t lim = ord - y < 64 ? ord - y : 64;
        uint64_t w = 0;
        for (b = 0; b < lim; b++)
            w |= (uint64_t)ub[ca[y + b]] << b;
        nu[y / 64] = w;
    }
}

/* The cost of a heap in the least-first walk: s * 2^20 - 1 for a heap of
   s counters, so that every option of a position costs less than it. */
static uint64_t
letter_cost(const qctx *c, size_t a)
{
    return ((uint64_t)(c->al ? (a - 1) / c->al->ng + 1 : a) << 20) - 1;
}

/* The word of node p (its letters from the root), then letter a (0:
   none), malloc'd into *w, *len. */
static int
path_word(const vnode *nodes, size_t p, uint32_t a, uint32_t **w,
          size_t *len)
{
    size_t q = p, d = a != 0;
    while (q != 0) {
        d++;
        q = nodes[q].parent;
    }
    *w = malloc((d + 1) * sizeof **w);
    if (*w == NULL)
        return -1;
    *len = d;
    if (a != 0)
        (*w)[--d] = a;
    for (q = p; q != 0; q = nodes[q].parent)
        (*w)[--d] = nodes[q].letter;
    return 0;
}

/*
 * The exact check of a candidate (ord elements, transitions tr[x * stride +
 * a] for the letters a = 1..c->n, P-portion isp, multiplication mul): walks
 * every reachable triple (x, has a move, U) where U = {y : y * m in P for
 * an option m}, and checks x in P <=> (has a move and 1 not in U).  On
 * failure sets *found and returns in *bad (malloc'd, *badlen letters) the
 * word of a position where the check fails.  With monoid, tr and mul are
 * those of a monoid (x * (a b) = (x * a) * b), and an option's element is
 * found by one product (a learner's hypothesis need not be one: its
 * transitions are followed letter by letter).  With least, the states are
 * walked least cost first (Dijkstra), a heap of s counters costing s *
 * 2^20 - 1, and checked as they are taken: every option of a position
 * costs less than the position (it has fewer counters, or as many in
 * more heaps), so the position found is one whose options all pass, and
 * by induction on the cost all are predicted right: the candidate gets
 * that position itself wrong.
 */
bt_status
bt__q_check_walk(qctx *c, size_t ord, const uint32_t *tr, size_t stride,
                 const unsigned char *isp, const uint32_t *mul, int monoid,
                 int least, uint32_t **bad, size_t *badlen_out, int *found_out)
{
    vheap pq = {NULL, NULL, 0, 0};
    uint32_t *col = NULL; /* col[a * ord + y] = y * a, by letter */
    /* the distinct elements of the options of letter a: oel[ooff[a]..] */
    uint32_t *oel = NULL;
    size_t *ooff = NULL;
    size_t nw = (ord + 63) / 64, klen, i, a, head = 0;
    /* a key: U (nw words, first, so aligned), x, has-a-move */
    size_t keybytes = nw * 8 + sizeof(uint32_t) + 1;
    size_t kstride = (keybytes + 7) & ~(size_t)7;
    uint64_t *vset = NULL; /* vset[z]: {y : y*z in P} */
    unsigned char *ucur = NULL; /* the U of the state expanded, a byte
                                   an element */
    /* same[a]: a letter below a that acts as a does (monoid only) */
    unsigned char *same = NULL;
    unsigned char *key = NULL;
    vnode *nodes = NULL;
    size_t nnodes = 0, capnodes = 0;
    htab seen;
    bt_status st = BT_OK;
    uint32_t *badword = NULL;
    size_t badlen = 0;
    int found = 0;

    *bad = NULL;
    *badlen_out = 0;
    *found_out = 0;
    memset(&seen, 0, sizeof seen);
    klen = keybytes;
    vset = calloc(ord * nw + 1, sizeof *vset);
    key = malloc(2 * kstride);
    if (vset == NULL || key == NULL) {
        st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
        goto done;
    }
    col = malloc((c->n + 1) * ord * sizeof *col + 1);
    ucur = malloc(ord + 1);
    same = calloc(c->n + 1, 1);
    ooff = malloc((c->n + 2) * sizeof *ooff);
    for (i = 0, a = 1; a <= c->n; a++)
        i += c->nopt[a];
    oel = malloc((i + 1) * sizeof *oel);
    if (col == NULL || ooff == NULL || oel == NULL || ucur == NULL ||
        same == NULL)
        goto nomem;
    ooff[0] = ooff[1] = 0;
    for (a = 1; a <= c->n; a++) {
        size_t j, k = ooff[a];
        for (j = 0; j < c->nopt[a]; j++) {
            size_t z = 0, m;
            if (c->opt[a][2 * j] != 0)
                z = tr[z * stride + c->opt[a][2 * j]];
            if (c->opt[a][2 * j + 1] != 0)
                z = tr[z * stride + c->opt[a][2 * j + 1]];
            for (m = ooff[a]; m < k && oel[m] != z; m++)
                ;
            if (m == k)
                oel[k++] = (uint32_t)z;
        }
        ooff[a + 1] = k;
    }
    for (a = 1; a <= c->n; a++)
        for (i = 0; i < ord; i++)
            col[a * ord + i] = tr[i * stride + a];
    /*
     * In a monoid a letter acts on a state through its element (its
     * column) and the set of its options' elements alone, so a letter
     * with the column and the set of a smaller one reaches the states
     * that one reaches, at a higher cost, and checks what it checks:
     * it is not expanded (the loader's reduction, and quotient_extend.c's).
     */
    for (a = 2; monoid && a <= c->n; a++) {
        size_t b, j, m;
        if (c->nopt[a] == 0)
            continue;
        for (b = 1; b < a && !same[a]; b++) {
            if (c->nopt[b] == 0 || same[b] ||
                ooff[b + 1] - ooff[b] != ooff[a + 1] - ooff[a] ||
                memcmp(col + a * ord, col + b * ord, ord * sizeof *col) != 0)
                continue;
            for (j = ooff[a]; j < ooff[a + 1]; j++) {
                for (m = ooff[b]; m < ooff[b + 1] && oel[m] != oel[j]; m++)
                    ;
                if (m == ooff[b + 1])
                    break;
            }
            if (j == ooff[a + 1])
                same[a] = 1;
        }
    }
    for (i = 0; i < ord; i++) {
        size_t y;
        for (y = 0; y < ord; y++)
            if (isp[mul[y * ord + i]])
                vset[i * nw + y / 64] |= 1ull << (y % 64);
    }
    if (isp[0]) {
        /* the empty position would be P */
        badword = malloc(sizeof *badword);
        if (badword == NULL)
            goto nomem;
        found = 1;
        goto done;
    }
    memset(key, 0, keybytes);
    if (bt__q_ht_add(&seen, key, klen) == SIZE_MAX)
        goto nomem;
    capnodes = 1024;
    nodes = malloc(capnodes * sizeof *nodes);
    if (nodes == NULL)
        goto nomem;
    nodes[0].parent = SIZE_MAX;
    nodes[0].letter = 0;
    nodes[0].cost = 0;
    nodes[0].settled = 0;
    nnodes = 1;
    if (least && vheap_push(&pq, 0, 0) != 0)
        goto nomem;
    while (!found) {
        const unsigned char *k0;
        uint32_t x;
        if (least) {
            uint64_t pc;
            if (pq.n == 0)
                break;
            head = vheap_pop(&pq, &pc);
            if (nodes[head].settled || pc != nodes[head].cost)
                continue; /* a stale entry */
            nodes[head].settled = 1;
            k0 = seen.arena + seen.off[head];
            memcpy(&x, k0 + nw * 8, sizeof x);
            if (head != 0 && isp[x] != !(k0[0] & 1)) {
                if (path_word(nodes, head, 0, &badword, &badlen) != 0)
                    goto nomem;
                found = 1;
                break;
            }
        } else if (head >= nnodes)
            break;
        k0 = seen.arena + seen.off[head];
        memcpy(&x, k0 + nw * 8, sizeof x);
        for (i = 0; i < ord; i += 64) {
            uint64_t w;
            size_t b, lim = ord - i < 64 ? ord - i : 64;
            memcpy(&w, k0 + i / 8, 8);
            for (b = 0; b < lim; b++)
                ucur[i + b] = (unsigned char)((w >> b) & 1);
        }
        for (a = 1; a <= c->n && !found; a++) {
            unsigned char *nk = key + kstride;
            uint64_t *nu;
            uint32_t nx;
            size_t j, idx;
            int xp, rule;
            uint64_t ncost;
            if (c->nopt[a] == 0 || same[a])
                continue;
            if ((st = poll_w(c, 1 + ord / 16)) != BT_OK)
                goto done;
            k0 = seen.arena + seen.off[head]; /* arena may have moved */
            memset(nk, 0, keybytes);
            nx = tr[(size_t)(x) * stride + (a)];
            memcpy(nk + nw * 8, &nx, sizeof nx);
            nk[nw * 8 + sizeof nx] = 1;
            nu = (uint64_t *)(void *)nk;
            /* y in U' iff y*a in U, or y * x * o in P for an option o */
            gather_bits(nu, col + a * ord, ucur, ord);
            for (j = ooff[a]; monoid && j < ooff[a + 1]; j++) {
                size_t z = mul[(size_t)x * ord + oel[j]], w2;
                for (w2 = 0; w2 < nw; w2++)
                    nu[w2] |= vset[z * nw + w2];
            }
            for (j = 0; !monoid && j < c->nopt[a]; j++) {
                size_t z = x, w2;
                if (c->opt[a][2 * j] != 0)
                    z = tr[z * stride + c->opt[a][2 * j]];
                if (c->opt[a][2 * j + 1] != 0)
                    z = tr[z * stride + c->opt[a][2 * j + 1]];
                for (w2 = 0; w2 < nw; w2++)
                    nu[w2] |= vset[z * nw + w2];
            }
            xp = isp[nx];
            rule = !(nu[0] & 1); /* has a move; no option in P */
            idx = bt__q_ht_find(&seen, nk, klen);
            if (!least && xp != rule) {
                /* the word of the parent, then a */
                if (path_word(nodes, head, (uint32_t)a, &badword,
                              &badlen) != 0)
                    goto nomem;
                found = 1;
                break;
            }
            ncost = nodes[head].cost + letter_cost(c, a);
            if (idx != SIZE_MAX) {
                if (least && !nodes[idx].settled && ncost < nodes[idx].cost) {
                    nodes[idx].cost = ncost;
                    nodes[idx].parent = head;
                    nodes[idx].letter = (uint32_t)a;
                    if (vheap_push(&pq, ncost, idx) != 0)
                        goto nomem;
                }
                continue;
            }
            if (seen.n >= c->lim->max_search) {
                st = bt__fail(c->diag, BT_ELIMIT,
                              "checking the misère quotient of %s needs "
                              "more than %zu states (the max_search limit)",
                              c->g->spec, c->lim->max_search);
                goto done;
            }
            if (least && c->budget.max != 0 &&
                (seen.n + 1) * (kstride + sizeof *nodes + 48) >
                    c->budget.max - c->budget.used) {
                /* a trial's check: within the memory left, uncharged
                   (the budget stays whole for the search) */
                st = bt__fail(c->diag, BT_ELIMIT,
                              "checking a trial quotient needs more than "
                              "the memory left");
                goto done;
            }
            if (bt__q_ht_add(&seen, nk, klen) == SIZE_MAX)
                goto nomem;
            if (nnodes == capnodes) {
                vnode *nn = realloc(nodes, 2 * capnodes * sizeof *nn);
                if (nn == NULL)
                    goto nomem;
                nodes = nn;
                capnodes *= 2;
            }
            nodes[nnodes].parent = head;
            nodes[nnodes].letter = (uint32_t)a;
            nodes[nnodes].cost = ncost;
            nodes[nnodes].settled = 0;
            if (least && vheap_push(&pq, ncost, nnodes) != 0)
                goto nomem;
            nnodes++;
        }
        if (!least)
            head++;
    }
    goto done;
nomem:
    st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
done:
    free(pq.cost);
    free(pq.node);
    free(col);
    free(oel);
    free(ooff);
    free(vset);
    free(ucur);
    free(same);
    free(key);
    free(nodes);
    bt__q_ht_free(&seen);
    if (st == BT_OK && found) {
        *bad = badword;
        *badlen_out = badlen;
        *found_out = 1;
    } else
        free(badword);
    return st;
}

/*
 * The exact check of the learner's candidate (trans, P = column 0).  On
 * failure (*refined = 1) finds a position that the candidate mispredicts
 * and refines the table, unless check_only.
 */
bt_status
bt__q_verify(qctx *c, const uint32_t *mul, int *refined, int check_only)
{
    size_t ord = c->nrows, i, badlen = 0;
    unsigned char *isp = malloc(ord + 1);
    uint32_t *badword = NULL;
    bt_status st;
    int found = 0;

    *refined = 0;
    if (isp == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (i = 0; i < ord; i++)
        isp[i] = c->rows[i].cell[0][0];
    st = bt__q_check_walk(c, ord, c->trans, c->cap_n + 1, isp, mul, check_only,
                          0, &badword, &badlen, &found);
    free(isp);
    if (st != BT_OK || !found)
        goto done;
    if (check_only) {
        *refined = 1; /* the candidate fails; nothing is learnt */
        goto done;
    }
    /* Which position does the candidate get wrong: G, or an option? */
    {
        pos gp, e = {NULL, 0};
        int og;
        size_t xg;
        if (badword == NULL && badlen == 0 && c->rows[0].cell[0][0]) {
            st = bt__fail(c->diag, BT_EINVAL,
                          "internal: the empty position came out P");
            goto done;
        }
        gp.n = badlen;
        gp.h = malloc((badlen + 2) * sizeof *gp.h);
        if (gp.h == NULL)
            goto nomem;
        memcpy(gp.h, badword, badlen * sizeof *gp.h);
        qsort(gp.h, gp.n, sizeof *gp.h, cmp_u32);
        if ((st = bt__q_outcome_sum(c, &gp, 0, &e, &og)) != BT_OK) {
            free(gp.h);
            goto done;
        }
        xg = bt__q_run(c, 0, &gp);
        if (og != c->rows[xg].cell[0][0]) {
            st = bt__q_refine(c, 0, gp.h, gp.n, gp.n);
            free(gp.h);
            if (st == BT_OK)
                *refined = 1;
            goto done;
        }
        /* an option: replace one heap by its option */
        for (i = 0; i < gp.n && !*refined; i++) {
            uint32_t h = gp.h[i];
            size_t j;
            if (i > 0 && gp.h[i - 1] == h)
                continue;
            for (j = 0; j < c->nopt[h]; j++) {
                pos q;
                size_t m = 0, k, xq;
                int oq;
                q.h = malloc((gp.n + 2) * sizeof *q.h);
                if (q.h == NULL) {
                    free(gp.h);
                    goto nomem;
                }
                for (k = 0; k < gp.n; k++)
                    if (k != i)
                        q.h[m++] = gp.h[k];
                bt__q_push_heap(c, q.h, &m, c->opt[h][2 * j]);
                bt__q_push_heap(c, q.h, &m, c->opt[h][2 * j + 1]);
                q.n = m;
                qsort(q.h, q.n, sizeof *q.h, cmp_u32);
                st = bt__q_outcome_sum(c, &q, 0, &e, &oq);
                xq = bt__q_run(c, 0, &q);
                if (st == BT_OK && oq != c->rows[xq].cell[0][0]) {
                    st = bt__q_refine(c, 0, q.h, q.n, q.n);
                    if (st == BT_OK)
                        *refined = 1;
                }
                free(q.h);
                if (st != BT_OK || *refined)
                    break;
            }
            if (st != BT_OK)
                break;
        }
        free(gp.h);
        if (st == BT_OK && !*refined)
            st = bt__fail(c->diag, BT_EINVAL,
                          "internal: the quotient check failed without a "
                          "wrong position");
    }
    goto done;
nomem:
    st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
done:
    free(badword);
    return st;
}

/* ----------------------------------------------------------- periodicity */

/*
 * The periodicity theorem for misère quotients of octal games (docs/
 * misere.md): for a game whose moves on a heap of n counters are "take k
 * (k <= t) and leave nothing (n = k), one heap n - k, or two heaps a + b =
 * n - k", with a finite code, if the proved quotient Q_N of the heaps up to
 * N has Phi_N(n + p) = Phi_N(n) for all n0 <= n <= N - p, then Q_N is the
 * quotient of ALL heaps and Phi(n + p) = Phi(n) for every n >= n0, as soon
 * as N reaches the bound below.  Returns that bound (the least N that
 * proves period p from n0), or SIZE_MAX when no theorem applies to g.
 *
 * The bound is MisereSolver's criterion (2 n0 + 2 p + t + 2 values, heaps
 * 0..N, for a game with splits), with n0 counted as at least 1; without
 * splits, n0 + p + t.  The proof in docs/misere.md needs 2 n0 + 2 p + t - 1
 * and n0 + p + t - 1.
 */
size_t
bt__q_misere_need(const bt_game *g, size_t n0, size_t p)
{
    const bt__heap_game *hg = bt__heap_of(g);
    const bt__heap_rules *r;
    size_t m = n0 > 0 ? n0 : 1;
    if (hg == NULL) /* no rules to bound the proof by */
        return SIZE_MAX;
    r = &hg->rules;
    if (r->general || r->unequal || r->ntriple > 0 || r->blen > 0 ||
        (r->kind != BT__HEAP_OCTAL && r->kind != BT__HEAP_SUB &&
         r->kind != BT__HEAP_TB))
        return SIZE_MAX;
    if (r->nsplit > 0)
        return 2 * m + 2 * p + r->t + 1;
    return m + p + r->t;
}

/*
 * The Z-function of x[0..len-1] read backwards (back) or forwards: z[k] =
 * the number of j < len - k with x(j) = x(j + k), where x(j) is x[len-1-j]
 * backwards.  Gusfield's linear algorithm (Algorithms on Strings, Trees
 * and Sequences, 1997, sec. 1.4): at most 2 len comparisons.
 */
static void
z_function(const uint32_t *x, size_t len, int back, size_t *z)
{
    size_t k, l = 0, r = 0;
#define ZAT(j) (back ? x[len - 1 - (j)] : x[(j)])
    if (len == 0)
        return;
    z[0] = len;
    for (k = 1; k < len; k++) {
        size_t m = 0;
        if (k < r) {
            m = z[k - l];
            if (m > r - k)
                m = r - k;
        }
        while (k + m < len && ZAT(m) == ZAT(k + m))
            m++;
        z[k] = m;
        if (k + m > r) {
            l = k;
            r = k + m;
        }
    }
#undef ZAT
}

/*
 * Looks for a period of the heap map e[0..n] that the theorem proves.  On
 * success sets *period and *preperiod to the least ones and returns 1; 0
 * when none, -1 when out of memory.  Linear in n: for every p at once, the
 * least n0 with e[j] = e[j + p] for n0 <= j <= n - p is n + 1 - p - z[p],
 * z the Z-function of e read backwards (a scan back from the end for each
 * p took O(n^2), at every heap of a run until proved); the least period
 * is the least divisor d of a proved p with w[j] = w[j + d] for j < p - d,
 * w = e[n0..n0+p-1] (inside e: the bound is at least n0 + p), from the
 * Z-function of w.
 */
int
bt__q_detect_period(const bt_game *g, const uint32_t *e, size_t n,
                    size_t *period, size_t *preperiod)
{
    size_t p, i = 0, d, m, *z;
    if (bt__q_misere_need(g, 1, 1) == SIZE_MAX)
        return 0;
    z = malloc((n + 1) * sizeof *z);
    if (z == NULL)
        return -1;
    z_function(e, n + 1, 1, z);
    for (p = 1; p <= n; p++) {
        i = n + 1 - p - z[p]; /* n0 */
        if (bt__q_misere_need(g, i, p) <= n)
            break;
    }
    if (p > n) {
        free(z);
        return 0;
    }
    z_function(e + i, p, 0, z);
    for (d = 1; d < p; d++)
        if (p % d == 0 && z[d] >= p - d)
            break;
    free(z);
    /* n0 = i: the element of heap j is EXT(j) */
#define EXT(j) ((j) <= n ? e[(j)] : e[i + ((j) - i) % p])
    m = i;
    while (m > 0 && e[m - 1] == EXT(m - 1 + d))
        m--;
#undef EXT
    *period = d;
    *preperiod = m;
    return 1;
}
