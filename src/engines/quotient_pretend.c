/*
 * quotient_pretend.c -- learning a heap without searching the game graph:
 * the conservative extension, and MisereSolver's method (trial monoids,
 * marked by pretending, minimised, checked by the proof, recalibrated).
 * Calls the hash table, the learning table and the proof; only a candidate
 * the proof passes is used.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/quotient_extend.h"
#include "engines/quotient_impl.h"

/* ------------------------------------------------ learning by pretending */

int bt__q_pretending = 1;

void
bt__quotient_set_pretending(int on)
{
    bt__q_pretending = on;
}

/*
 * When heap h is not a conservative extension, MisereSolver's method (T. E.
 * Plambeck and A. N. Siegel, "Misère quotients for impartial games", J.
 * Combin. Theory Ser. A 115 (2008), sec. 6; docs/misere.md) finds the new
 * quotient without searching the game graph: a trial monoid M (the
 * previous quotient times a cyclic monoid for heap h) is given a
 * P-portion by marking, "pretending" that every position is P or N as
 * the first position reaching its element of M is; the bipartite monoid
 * is minimised, and the exact check (check_walk) proves it or yields a
 * position G that it gets wrong, after which the heaps of G are
 * recalibrated (given free cyclic components) and the trial marked again.
 * Nothing here has to be right for the result to be: only a candidate
 * that passes the check is used, and it then answers the learner's
 * questions in place of the search (snapshot), so that the table, its
 * numbering and every later step are those of the search.
 */

/* The most cyclic components of a trial, and the most trials one heap
   may cost before the search takes over (a recalibration tries every
   subset of the fewest heaps, a few trials for each walk). */
#define PM_MAXCYC 6
#define PM_MAXTRIALS 256

/* A trial monoid: B (its table) times cyclic monoids C(i, p) = <g |
   g^(i+p) = g^i>; element b + rad[0] * (e_0 + len_0 * (e_1 + ...)). */
typedef struct pmon {
    size_t nb, k, size;
    const uint32_t *bmul;
    size_t ci[PM_MAXCYC], cp[PM_MAXCYC], rad[PM_MAXCYC + 1];
} pmon;

static size_t
pm_mul(const pmon *m, size_t x, size_t y)
{
    size_t r = m->bmul[(x % m->nb) * m->nb + y % m->nb], j;
    x /= m->nb;
    y /= m->nb;
    for (j = 0; j < m->k; j++) {
        size_t len = m->ci[j] + m->cp[j], e = x % len + y % len;
        x /= len;
        y /= len;
        if (e >= len)
            e = m->ci[j] + (e - m->ci[j]) % m->cp[j];
        r += m->rad[j] * e;
    }
    return r;
}

/* Sets the radices and the size; -1 when the size passes cap. */
static int
pm_layout(pmon *m, size_t cap)
{
    size_t j, s = m->nb;
    for (j = 0; j < m->k; j++) {
        size_t len = m->ci[j] + m->cp[j];
        m->rad[j] = s;
        if (len == 0 || s > cap / len)
            return -1;
        s *= len;
    }
    m->rad[m->k] = s;
    m->size = s;
    return s > cap ? -1 : 0;
}

/* A candidate: ord elements, x * heap a in tr[x * (n + 1) + a] (a = 0 and
   heaps without a move: x), its P-portion, its multiplication, and the
   element of each heap (heap[a] = tr[a]); its bytes are charged to
   max_memory while it lives (the multiplication, ord^2 numbers, is what
   grows when the trials of a heap grow). */
typedef struct ptrial {
    size_t ord;
    uint32_t *tr, *mul;
    unsigned char *isp;
    size_t charged;
} ptrial;

static void
ptrial_free(qctx *c, ptrial *t)
{
    bt__budget_release(&c->budget, t->charged);
    free(t->tr);
    free(t->mul);
    free(t->isp);
    memset(t, 0, sizeof *t);
}

/* The element of the word cnt (cnt[a] heaps of a, a = 1..n). */
static size_t
pt_run(const ptrial *t, size_t n, const uint32_t *cnt)
{
    size_t x = 0, a, i;
    for (a = 1; a <= n; a++)
        for (i = 0; i < cnt[a]; i++)
            x = t->tr[x * (n + 1) + a];
    return x;
}

/* The transition sets of the heaps in M: toff[a]..toff[a + 1] in tl. */
static bt_status
pm_transitions(qctx *c, const pmon *m, const uint32_t *pre, size_t n,
               size_t **toff, uint32_t **tl)
{
    size_t a, j, k = 0, tot = 0;
    *toff = malloc((n + 2) * sizeof **toff);
    for (a = 1; a <= n; a++)
        tot += c->nopt[a];
    *tl = malloc((tot + 1) * sizeof **tl);
    if (*toff == NULL || *tl == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    (*toff)[0] = (*toff)[1] = 0;
    for (a = 1; a <= n; a++) {
        (*toff)[a] = k;
        for (j = 0; j < c->nopt[a]; j++) {
            size_t z = pre[c->opt[a][2 * j]];
            z = pm_mul(m, z, pre[c->opt[a][2 * j + 1]]);
            (*tl)[k++] = (uint32_t)z;
        }
    }
    (*toff)[n + 1] = k;
    return BT_OK;
}

/*
 * Marks the P-portion of M (MisereSolver's markPPortion): the words over
 * the heaps are walked with the multiplicity of the largest heap
 * outermost, so that every option of a word (one heap replaced by smaller
 * ones) comes before it; a word carries its element x and the set T of
 * its options' elements, T(w + a) = T(w) * a  u  x(w) * T(a).  The first
 * word to reach an element decides it (P exactly when it has a move and
 * no element of T is P); a word whose element is marked is not extended.
 * isp[x] is set for the P elements (an element never reached stays N).
 */
static bt_status
pm_mark(qctx *c, const pmon *m, const uint32_t *pre, size_t n,
        const size_t *toff, const uint32_t *tl, unsigned char *isp)
{
    size_t L = n + 1, d, i;
    unsigned char *marked = calloc(m->size + 1, 1);
    uint32_t *stamp = calloc(m->size + 1, sizeof *stamp), gen = 0;
    long *mult = calloc(L + 1, sizeof *mult);
    size_t *elem = calloc(L + 1, sizeof *elem);
    uint32_t **own = calloc(L + 1, sizeof *own);
    size_t *owncap = calloc(L + 1, sizeof *owncap);
    const uint32_t **trp = calloc(L + 1, sizeof *trp);
    size_t *trn = calloc(L + 1, sizeof *trn);
    uint32_t *scratch = NULL;
    size_t scap = 0;
    long depth = -1;
    bt_status st = BT_OK;
    if (marked == NULL || stamp == NULL || mult == NULL || elem == NULL ||
        own == NULL || owncap == NULL || trp == NULL || trn == NULL)
        goto nomem;
    memset(isp, 0, m->size);
    /* level d is heap d (level 0: the empty heap, the identity) */
    while (depth < (long)L) {
        if (depth == -1) {
            size_t x = elem[0];
            if (trn[0] > 0) {
                int p = 1;
                for (i = 0; i < trn[0] && p; i++)
                    if (isp[trp[0][i]])
                        p = 0;
                isp[x] = (unsigned char)p;
            }
            marked[x] = 1;
            depth++;
            if ((st = poll(c)) != BT_OK)
                goto done;
            continue;
        }
        d = (size_t)depth;
        mult[d]++;
        if (mult[d] > 0) {
            size_t nx, a = d, k = 0, need;
            if (a == 0 || c->nopt[a] == 0) {
                mult[d] = -1; /* the identity: nothing new */
                depth++;
                continue;
            }
            nx = pm_mul(m, elem[d], pre[a]);
            if (marked[nx]) {
                mult[d] = -1;
                depth++;
                continue;
            }
            need = trn[d] + (toff[a + 1] - toff[a]);
            if (need > scap) {
                uint32_t *s = realloc(scratch, (2 * need + 16) * sizeof *s);
                if (s == NULL)
                    goto nomem;
                scratch = s;
                scap = 2 * need + 16;
            }
            if (++gen == 0) {
                memset(stamp, 0, (m->size + 1) * sizeof *stamp);
                gen = 1;
            }
            for (i = 0; i < trn[d]; i++) {
                size_t z = pm_mul(m, trp[d][i], pre[a]);
                if (stamp[z] != gen) {
                    stamp[z] = gen;
                    scratch[k++] = (uint32_t)z;
                }
            }
            for (i = toff[a]; i < toff[a + 1]; i++) {
                size_t z = pm_mul(m, elem[d], tl[i]);
                if (stamp[z] != gen) {
                    stamp[z] = gen;
                    scratch[k++] = (uint32_t)z;
                }
            }
            {
                /* the new set becomes level d's own (the lower levels
                   copy it again below) */
                uint32_t *t = own[d];
                size_t tc = owncap[d];
                own[d] = scratch;
                owncap[d] = scap;
                scratch = t;
                scap = tc;
            }
            trp[d] = own[d];
            trn[d] = k;
            elem[d] = nx;
        }
        depth--;
        if (depth >= 0) {
            elem[depth] = elem[depth + 1];
            trp[depth] = trp[depth + 1];
            trn[depth] = trn[depth + 1];
        }
    }
    goto done;
nomem:
    st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
done:
    if (own != NULL)
        for (i = 0; i <= L; i++)
            free(own[i]);
    free(own);
    free(owncap);
    free(trp);
    free(trn);
    free(scratch);
    free(marked);
    free(stamp);
    free(mult);
    free(elem);
    return st;
}

/* Charges a trial's bytes to max_memory; one that does not fit is refused
   (BT_ELIMIT) without spending the budget, so that the search can still
   try. */
static bt_status
pm_charge(qctx *c, size_t bytes)
{
    bt__budget *b = &c->budget;
    if (b->max != 0 && (bytes > b->max || b->used > b->max - bytes))
        return bt__fail(c->diag, BT_ELIMIT,
                        "a trial monoid needs more than the memory left");
    return bt__budget_charge(b, bytes, c->diag);
}

/*
 * The bipartite monoid (M, isp) restricted to the elements the heaps
 * generate and minimised (Moore's partition refinement under the heaps'
 * actions: two elements merge when no product tells them apart w.r.t.
 * P, the Myhill-Nerode congruence, a congruence since M is commutative).
 * Classes are numbered in the breadth-first order of their first
 * elements, the identity first.  BT_ELIMIT past max_search elements.
 */
static bt_status
pm_reduce(qctx *c, const pmon *m, const uint32_t *pre, size_t n,
          const unsigned char *ispm, ptrial *out)
{
    size_t L = n + 1, nr = 1, head, a, i, ncls = 2, round, tbytes;
    uint32_t *idx = malloc((m->size + 1) * sizeof *idx);
    uint32_t *succ = NULL, *cls = NULL, *ncl = NULL, *key = NULL;
    uint32_t *list = malloc(16 * sizeof *list), *par = NULL, *let = NULL;
    size_t cap = 16;
    htab sig;
    bt_status st = BT_OK;
    memset(&sig, 0, sizeof sig);
    memset(out, 0, sizeof *out);
    if (idx == NULL || list == NULL)
        goto nomem;
    for (i = 0; i < m->size; i++)
        idx[i] = UINT32_MAX;
    idx[0] = 0;
    list[0] = 0;
    /* breadth-first over the heaps' actions */
    for (head = 0; head < nr; head++) {
        if (nr + L > cap) {
            uint32_t *nl;
            uint32_t *ns;
            size_t nc = 2 * (nr + L);
            if (nc > c->lim->max_search + L) {
                st = bt__fail(c->diag, BT_ELIMIT,
                              "a trial monoid has more than %zu elements",
                              c->lim->max_search);
                goto done;
            }
            nl = realloc(list, nc * sizeof *nl);
            if (nl == NULL)
                goto nomem;
            list = nl;
            ns = realloc(succ, nc * L * sizeof *ns);
            if (ns == NULL)
                goto nomem;
            succ = ns;
            cap = nc;
        }
        if (succ == NULL) {
            succ = malloc(cap * L * sizeof *succ);
            if (succ == NULL)
                goto nomem;
        }
        for (a = 0; a < L; a++) {
            size_t y;
            if (a == 0 || c->nopt[a] == 0) {
                succ[head * L + a] = (uint32_t)head;
                continue;
            }
            y = pm_mul(m, list[head], pre[a]);
            if (idx[y] == UINT32_MAX) {
                idx[y] = (uint32_t)nr;
                list[nr++] = (uint32_t)y;
            }
            succ[head * L + a] = idx[y];
        }
    }
    cls = malloc(nr * sizeof *cls);
    ncl = malloc(nr * sizeof *ncl);
    key = malloc((L + 1) * sizeof *key);
    if (cls == NULL || ncl == NULL || key == NULL)
        goto nomem;
    for (i = 0; i < nr; i++)
        cls[i] = ispm[list[i]];
    ncls = 0; /* the count of the previous round, unknown */
    for (round = 0;; round++) {
        bt__q_ht_clear(&sig);
        for (i = 0; i < nr; i++) {
            size_t e;
            key[0] = cls[i];
            for (a = 1; a < L; a++)
                key[a] = cls[succ[i * L + a]];
            e = bt__q_ht_find(&sig, key, L * sizeof *key);
            if (e == SIZE_MAX &&
                (e = bt__q_ht_add(&sig, key, L * sizeof *key)) == SIZE_MAX)
                goto nomem;
            ncl[i] = (uint32_t)e;
        }
        memcpy(cls, ncl, nr * sizeof *cls);
        if (sig.n == ncls)
            break;
        ncls = sig.n;
        if ((st = poll(c)) != BT_OK)
            goto done;
    }
    if (ncls > c->lim->max_table_piles) {
        st = bt__fail(c->diag, BT_ELIMIT,
                      "a trial quotient has more than %zu elements",
                      c->lim->max_table_piles);
        goto done;
    }
    /* the classes: the first element of each is its representative; the
       candidate within the memory left (a trial that does not fit is
       dropped, as in pm_trial) */
    tbytes = ncls * ncls * sizeof *out->mul + ncls * L * sizeof *out->tr + ncls;
    if ((st = pm_charge(c, tbytes)) != BT_OK)
        goto done;
    out->charged = tbytes;
    out->ord = ncls;
    out->tr = malloc(ncls * L * sizeof *out->tr + 1);
    out->isp = malloc(ncls + 1);
    out->mul = malloc(ncls * ncls * sizeof *out->mul + 1);
    par = malloc(ncls * sizeof *par + 1);
    let = malloc(ncls * sizeof *let + 1);
    if (out->tr == NULL || out->isp == NULL || out->mul == NULL ||
        par == NULL || let == NULL)
        goto nomem;
    memset(ncl, 0xFF, nr * sizeof *ncl); /* ncl[class]: first element */
    for (i = 0; i < nr; i++)
        if (ncl[cls[i]] == UINT32_MAX)
            ncl[cls[i]] = (uint32_t)i;
    for (i = 0; i < ncls; i++) {
        size_t r = ncl[i];
        out->isp[i] = ispm[list[r]];
        for (a = 0; a < L; a++)
            out->tr[i * L + a] = cls[succ[r * L + a]];
    }
    /* the breadth-first tree gives each representative a parent class
       and a heap, which give the multiplication column by column */
    {
        uint32_t *bpar = idx; /* reused: parent of element i in the BFS */
        size_t j;
        for (i = 0; i < nr; i++)
            bpar[i] = UINT32_MAX;
        for (i = 0; i < nr; i++)
            for (a = 1; a < L; a++) {
                size_t y = succ[i * L + a];
                if (y != i && y != 0 && bpar[y] == UINT32_MAX)
                    bpar[y] = (uint32_t)i;
            }
        for (i = 1; i < ncls; i++) {
            size_t r = ncl[i];
            /* the parent of r in the BFS, and the heap from it */
            size_t p = bpar[r];
            for (a = 1; a < L; a++)
                if (succ[p * L + a] == r)
                    break;
            par[i] = cls[p];
            let[i] = (uint32_t)a;
        }
        for (i = 0; i < ncls; i++) {
            out->mul[i * ncls + 0] = (uint32_t)i;
            for (j = 1; j < ncls; j++)
                out->mul[i * ncls + j] =
                    out->tr[out->mul[i * ncls + par[j]] * L + let[j]];
        }
    }
    goto done;
nomem:
    st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
done:
    if (st != BT_OK)
        ptrial_free(c, out);
    bt__q_ht_free(&sig);
    free(idx);
    free(list);
    free(succ);
    free(cls);
    free(ncl);
    free(key);
    free(par);
    free(let);
    return st;
}

/* Marks and minimises the trial M (heap a -> pre[a]) into *out. */
static bt_status
pm_trial(qctx *c, const pmon *m, const uint32_t *pre, size_t n, ptrial *out)
{
    size_t *toff = NULL;
    uint32_t *tl = NULL;
    unsigned char *isp = NULL;
    /* marked, isp, stamps, the BFS index and list, n + 1 successors */
    size_t bytes = m->size * (2 + 4 + 8 + 4 * (n + 2));
    bt_status st;
    memset(out, 0, sizeof *out);
    if ((st = pm_charge(c, bytes)) != BT_OK)
        return st;
    if ((st = pm_transitions(c, m, pre, n, &toff, &tl)) != BT_OK)
        goto done;
    isp = malloc(m->size + 1);
    if (isp == NULL) {
        st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
        goto done;
    }
    if ((st = pm_mark(c, m, pre, n, toff, tl, isp)) != BT_OK)
        goto done;
    st = pm_reduce(c, m, pre, n, isp, out);
done:
    bt__budget_release(&c->budget, bytes);
    free(toff);
    free(tl);
    free(isp);
    return st;
}

/* The index of x's cyclic submonoid: the least i with x^i = x^(i+p) for
   some p >= 1 (x^0 the identity). */
static size_t
pt_index(const ptrial *t, size_t x, size_t *scratch)
{
    size_t y = 0, i = 0, o = t->ord;
    for (y = 0; y < o; y++)
        scratch[y] = SIZE_MAX;
    y = 0;
    while (scratch[y] == SIZE_MAX) {
        scratch[y] = i++;
        y = t->mul[y * o + x];
    }
    return scratch[y];
}

/*
 * The submonoid B of t generated by the elements pre[a] of the heaps a
 * outside the subset (skip[a]): map[x] its number in B (UINT32_MAX
 * outside), bmul its table, identity 0.
 */
static bt_status
pt_submonoid(qctx *c, const ptrial *t, size_t n, const unsigned char *skip,
             uint32_t *map, uint32_t **bmul, size_t *nb)
{
    size_t o = t->ord, L = n + 1, k = 1, head, a, i, j;
    uint32_t *list = malloc((o + 1) * sizeof *list);
    if (list == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (i = 0; i < o; i++)
        map[i] = UINT32_MAX;
    map[0] = 0;
    list[0] = 0;
    for (head = 0; head < k; head++)
        for (a = 1; a < L; a++) {
            size_t y;
            if (skip[a] || c->nopt[a] == 0)
                continue;
            y = t->tr[list[head] * L + a];
            if (map[y] == UINT32_MAX) {
                map[y] = (uint32_t)k;
                list[k++] = (uint32_t)y;
            }
        }
    *bmul = malloc(k * k * sizeof **bmul + 1);
    if (*bmul == NULL) {
        free(list);
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    }
    for (i = 0; i < k; i++)
        for (j = 0; j < k; j++)
            (*bmul)[i * k + j] = map[t->mul[list[i] * o + list[j]]];
    *nb = k;
    free(list);
    return BT_OK;
}

/*
 * Recalibration (MisereSolver's): t gets the position cnt wrong.  For the
 * heaps of cnt, one first, then two, ..., the heaps of the subset get
 * free cyclic components (index: that of their element in t, at least
 * their multiplicity in cnt less one; period max(2, 2 floor((index -
 * 4) / 2))), the others keep their elements of t (the submonoid they
 * generate); of the trials of the fewest heaps whose marking gets cnt
 * right, the one of least order (the first of them in the order of the
 * subsets) is *out (*ok).  MisereSolver takes the first; the least keeps
 * the trials small, and so their walks, which are nearly all of the
 * work (heap 33 of 0.07 walks 19 trials of order 638 to 1 308, where
 * the first that fixes cnt walked 30 of order 638 to 1 668).  The trial
 * chosen changes only how soon a candidate passes the check, never the
 * quotient (it is the one candidate that passes).  *left counts the
 * trials still allowed.
 */
static bt_status
pm_recalibrate(qctx *c, const ptrial *t, size_t n, const uint32_t *cnt,
               size_t cap, size_t *left, ptrial *out, int *ok)
{
    size_t L = n + 1, ninv = 0, a, s, j;
    size_t *inv = malloc(L * sizeof *inv), *scr = NULL;
    unsigned char *skip = calloc(L, 1);
    uint32_t *map = malloc((t->ord + 1) * sizeof *map);
    uint32_t *pre = malloc(L * sizeof *pre);
    int want = !t->isp[pt_run(t, n, cnt)];
    bt_status st = BT_OK;
    *ok = 0;
    scr = malloc((t->ord + 1) * sizeof *scr);
    if (inv == NULL || skip == NULL || map == NULL || pre == NULL ||
        scr == NULL) {
        st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
        goto done;
    }
    for (a = 1; a <= n; a++)
        if (cnt[a] > 0 && c->nopt[a] > 0)
            inv[ninv++] = a;
    for (s = 1; s <= ninv && s <= PM_MAXCYC && !*ok; s++) {
        size_t comb[PM_MAXCYC];
        for (j = 0; j < s; j++)
            comb[j] = j;
        for (;;) {
            pmon m = {0};
            uint32_t *bmul = NULL;
            ptrial nt;
            if (*left == 0)
                goto done;
            --*left;
            memset(&m, 0, sizeof m);
            memset(skip, 0, L);
            for (j = 0; j < s; j++)
                skip[inv[comb[j]]] = 1;
            if ((st = pt_submonoid(c, t, n, skip, map, &bmul, &m.nb)) !=
                BT_OK)
                goto done;
            m.bmul = bmul;
            m.k = s;
            for (j = 0; j < s; j++) {
                size_t hh = inv[comb[j]];
                long ix = (long)pt_index(t, t->tr[hh], scr);
                if ((long)cnt[hh] - 1 > ix)
                    ix = (long)cnt[hh] - 1;
                m.ci[j] = (size_t)ix;
                m.cp[j] = 2 * ((ix - 4) / 2) > 2 ? (size_t)(2 * ((ix - 4) / 2))
                                                : 2;
            }
            if (pm_layout(&m, cap) == 0) {
                for (a = 0; a <= n; a++)
                    pre[a] = a == 0 || c->nopt[a] == 0
                                 ? 0
                                 : skip[a] ? 0 : map[t->tr[a]];
                for (j = 0; j < s; j++)
                    pre[inv[comb[j]]] = (uint32_t)m.rad[j];
                st = pm_trial(c, &m, pre, n, &nt);
                if (st == BT_OK) {
                    if (nt.isp[pt_run(&nt, n, cnt)] == want &&
                        (!*ok || nt.ord < out->ord)) {
                        if (*ok)
                            ptrial_free(c, out);
                        *out = nt;
                        *ok = 1;
                    } else
                        ptrial_free(c, &nt);
                } else if (st == BT_ELIMIT && !c->budget.exceeded)
                    st = BT_OK; /* too large: the next subset */
            }
            free(bmul);
            if (st != BT_OK)
                goto done;
            /* the next subset of s heaps, in lexicographic order */
            for (j = s; j-- > 0;)
                if (comb[j] < ninv - s + j)
                    break;
            if (j == SIZE_MAX)
                break;
            comb[j]++;
            for (j++; j < s; j++)
                comb[j] = comb[j - 1] + 1;
        }
    }
done:
    if (st != BT_OK && *ok) {
        /* the best so far, kept while the others were tried */
        ptrial_free(c, out);
        *ok = 0;
    }
    free(inv);
    free(skip);
    free(map);
    free(pre);
    free(scr);
    return st;
}

/*
 * Learns heap h by pretending (above), given the proved quotient of the
 * heaps below h (the table's rows, mul its multiplication).  When a
 * candidate passes the exact check it becomes the snapshot that answers
 * every position of heaps <= h, and *done is set; the learner then fills
 * its table from it without a search.  *done is 0 when the trials run
 * out or pass a limit of their own: the search learns heap h as before.
 */
bt_status
bt__q_try_pretend(qctx *c, const uint32_t *mul, size_t h, int *done)
{
    size_t L = h + 1, a, i, left = PM_MAXTRIALS, cap;
    size_t badlen;
    uint32_t *pre = malloc(L * sizeof *pre), *cnt = calloc(L, sizeof *cnt);
    uint32_t *bad = NULL;
    ptrial t;
    pmon m;
    bt_status st = BT_OK;
    int found, ok;
    *done = 0;
    memset(&t, 0, sizeof t);
    if (pre == NULL || cnt == NULL) {
        st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
        goto out;
    }
    cap = c->lim->max_search < ((size_t)1 << 26) ? c->lim->max_search
                                                 : ((size_t)1 << 26);
    /* the first trial: Q(h - 1) x C(2, 2), heap h -> the new generator */
    m.nb = c->nrows;
    m.bmul = mul;
    m.k = 1;
    m.ci[0] = 2;
    m.cp[0] = 2;
    if (pm_layout(&m, cap) != 0)
        goto out;
    for (a = 0; a < h; a++)
        pre[a] = a == 0 || c->nopt[a] == 0 ? 0 : TR(c, 0, a);
    pre[h] = (uint32_t)m.rad[0];
    if ((st = pm_trial(c, &m, pre, h, &t)) != BT_OK)
        goto out;
    for (;;) {
        ptrial nt;
        st = bt__q_check_walk(c, t.ord, t.tr, L, t.isp, t.mul, 1, 1, &bad,
                              &badlen, &found);
        if (st != BT_OK)
            goto out;
        if (!found)
            break;
        memset(cnt, 0, L * sizeof *cnt);
        for (i = 0; i < badlen; i++)
            cnt[bad[i]]++;
        free(bad);
        bad = NULL;
        if ((st = pm_recalibrate(c, &t, h, cnt, cap, &left, &nt, &ok)) !=
            BT_OK)
            goto out;
        if (!ok)
            goto out;
        ptrial_free(c, &t);
        t = nt;
    }
    /* proved: the snapshot of the heaps up to h */
    free(c->snap_trans);
    free(c->snap_p);
    c->snap_trans = t.tr;
    c->snap_p = t.isp;
    t.tr = NULL;
    t.isp = NULL;
    c->snap_n = h;
    c->snap_order = t.ord;
    *done = 1;
out:
    if (st == BT_ELIMIT && !c->budget.exceeded)
        st = BT_OK; /* past a bound of the trials: the search */
    ptrial_free(c, &t);
    free(pre);
    free(cnt);
    free(bad);
    return st;
}

/* Heap h is the element x of the proved quotient of the heaps below h
   (mul its table): its transitions and its cells, from the algebra. */
bt_status
bt__q_conservative_set(qctx *c, const uint32_t *mul, size_t h, size_t x)
{
    size_t ord = c->nrows, s, t, *colx;
    for (s = 0; s < ord; s++)
        TR(c, s, h) = mul[s * ord + x];
    colx = malloc((c->ncols + 1) * sizeof *colx);
    if (colx == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    for (t = 0; t < c->ncols; t++)
        colx[t] = bt__q_run(c, 0, &c->cols[t]);
    for (s = 0; s < ord; s++) {
        if (bt__q_alloc_cells(c, s, h) != BT_OK) {
            free(colx);
            return bt__fail(c->diag, BT_ENOMEM, "out of memory");
        }
        for (t = 0; t < c->ncols; t++)
            c->rows[s].cell[h][t] =
                c->rows[mul[TR(c, s, h) * ord + colx[t]]].cell[0][0];
    }
    free(colx);
    return BT_OK;
}

/*
 * A conservative extension (MisereSolver's first test, here proved by the
 * check): when heap h is an element x of the proved quotient of the heaps
 * below h (mul its table), that quotient with heap h -> x is the quotient
 * of the heaps up to h.  Tries every x whose P-status is that of heap h
 * alone (it has a move; P exactly when no option's element is in P),
 * each by the exact check of bt__q_verify(), most likely first; the one that
 * passes is taken (only one can: two would be indistinguishable), or,
 * with no walk, the element of an earlier heap with the same options'
 * elements (quotient_extend.c); the cells of letter h follow from the
 * algebra (no search).  *done is 0 when none passes: the caller learns
 * as usual.
 */
bt_status
bt__q_try_conservative(qctx *c, const uint32_t *mul, size_t h, int *done)
{
    size_t ord = c->nrows, x = ord, s, i, ncands;
    uint32_t *cands = malloc((ord + 1) * sizeof *cands);
    uint32_t *el = malloc((h + 1) * sizeof *el);
    unsigned char *isp = malloc(ord + 1);
    bt_status st = BT_OK;
    int proved;
    *done = 0;
    if (cands == NULL || el == NULL || isp == NULL)
        goto nomem;
    for (s = 0; s < ord; s++)
        isp[s] = c->rows[s].cell[0][0];
    for (s = 0; s < h; s++)
        el[s] = TR(c, 0, s);
    /* the candidates, most likely first, and the one proved at once when
       heap h repeats an earlier heap (quotient_extend.c) */
    if (bt__qext_plan(cands, &ncands, &proved, mul, ord, isp, el, c->opt,
                      c->nopt, h) != 0)
        goto nomem;
    for (i = 0; i < ncands && x == ord; i++) {
        int failed = 0;
        if (proved) {
            x = cands[0];
            break;
        }
        for (s = 0; s < ord; s++)
            TR(c, s, h) = mul[s * ord + cands[i]];
        st = bt__q_verify(c, mul, &failed, 1);
        if (st == BT_ELIMIT)
            failed = 1; /* too many states for this candidate: the next */
        else if (st != BT_OK)
            goto out;
        st = BT_OK;
        if (!failed)
            x = cands[i];
    }
    if (x < ord) {
        *done = 1;
        st = bt__q_conservative_set(c, mul, h, x);
    }
    goto out;
nomem:
    st = bt__fail(c->diag, BT_ENOMEM, "out of memory");
out:
    free(cands);
    free(el);
    free(isp);
    return st;
}

/* The element of each heap 0..n of the current table (0: no move). */
bt_status
bt__q_heap_map(qctx *c, size_t n, uint32_t **e)
{
    size_t h;
    uint32_t *v = realloc(*e, (n + 1) * sizeof *v);
    if (v == NULL)
        return bt__fail(c->diag, BT_ENOMEM, "out of memory");
    v[0] = 0;
    for (h = 1; h <= n; h++)
        v[h] = c->nopt[h] > 0 ? TR(c, 0, h) : 0;
    *e = v;
    return BT_OK;
}
