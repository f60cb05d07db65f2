/*
 * quotient.c -- misère quotients of heap games (T. E. Plambeck, "Taming
 * the wild in impartial combinatorial games", INTEGERS 5 (2005) G5;
 * T. E. Plambeck and A. N. Siegel, "Misère quotients for impartial games",
 * J. Combin. Theory Ser. A 115 (2008)).
 *
 * The quotient grows heap by heap.  For each bound n the heaps 1..n are
 * the letters of an alphabet and a position is a multiset of letters; the
 * quotient is the coarsest congruence that separates misère P from N, i.e.
 * the minimal automaton of the set of P-positions, which is learnt as in
 * Angluin's L* (rows: representatives of the elements; columns: test
 * positions X; a cell: the misère outcome of row + X, from an exact
 * memoised search whose positions of heaps below n are answered by the
 * quotient of n - 1, already proved).  A candidate is then PROVED exact by
 * a finite check (docs/misere.md): a breadth-first walk over every
 * position G, tracking the element of G, whether G has a move and the set
 * U(G) of y with y * m in P for some option m of G, and checking at each
 * state that the element of G is in P exactly when G has a move and no
 * option's element is in P (the definition of a misère P-position).  By
 * induction on G the quotient then answers every position.  A failed
 * check yields a position whose outcome the candidate gets wrong, from
 * which a new test column follows (Rivest and Schapire's counterexample
 * analysis), and learning continues.
 *
 * Periodicity: once the quotient of the heaps up to N is proved, the
 * periodicity theorem for misère quotients of octal games (Plambeck and
 * Siegel; docs/misere.md states it with its proof) makes it the quotient
 * of all heaps when the heap -> element map is periodic over a long
 * enough stretch (misere_need); heaps of any size are then answered
 * through the period.  The analysis hook also answers sums of several
 * heap games through the quotient of the union of their heaps (qalpha).
 *
 * The engine's files, by concept (quotient_impl.h is what they share):
 *
 *   quotient.c          this: the quotient as a result: its accessors (the
 *                       public API of bt_quotient), its presentation
 *                       (generators and relations) and whether it is tame
 *   quotient_htab.c     the hash table of byte strings to their indices the
 *                       learning table's rows, the proof, the presentation
 *                       and the loader share
 *   quotient_search.c   the exact outcome search (a misère P or N) that
 *                       fills the learning table, memoised in the
 *                       game-graph kernel's table (core/graph.h), with the
 *                       options of the letters
 *   quotient_learn.c    learning: Angluin's L* over the search, the driver
 *                       of one heap, the learner kept from heap to heap,
 *                       bt_quotient_new
 *   quotient_proof.c    the proof of a candidate (the walk of
 *                       docs/misere.md) and the periodicity theorem
 *   quotient_pretend.c  learning by pretending (Plambeck and Siegel's
 *                       MisereSolver method) and the conservative extension
 *   quotient_text.c     the saved text format: bt_quotient_save,
 *                       bt_quotient_load (checked again)
 *   quotient_cache.c    the process-global caches of quotients and learners
 *                       between analyses, bt_quotient_install
 *   quotient_misere.c   the analysis hook: misère sums of heap games through
 *                       their quotient, and unions of several games
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/quotient_impl.h"

void
bt_quotient_free(bt_quotient *q)
{
    size_t i;
    if (q == NULL)
        return;
    bt_game_free(q->g);
    if (q->games != NULL)
        for (i = 0; i < q->ng; i++)
            bt_game_free(q->games[i]);
    free(q->games);
    free(q->mul);
    free(q->isp);
    free(q->heap);
    if (q->genname)
        for (i = 0; i < q->ngen; i++)
            free(q->genname[i]);
    free(q->genname);
    free(q->genheap);
    if (q->rel)
        for (i = 0; i < q->nrel; i++)
            free(q->rel[i]);
    free(q->rel);
    if (q->word)
        for (i = 0; i < q->order; i++)
            free(q->word[i]);
    free(q->word);
    free(q);
}

bt_game *
bt_quotient_game(const bt_quotient *q)
{
    return q->g;
}
size_t
bt_quotient_upto(const bt_quotient *q)
{
    return q->upto;
}
size_t
bt_quotient_order(const bt_quotient *q)
{
    return q->order;
}
size_t
bt_quotient_p_count(const bt_quotient *q)
{
    return q->pcount;
}
int
bt_quotient_is_p(const bt_quotient *q, size_t x)
{
    return x < q->order && q->isp[x];
}
size_t
bt_quotient_mul(const bt_quotient *q, size_t x, size_t y)
{
    if (x >= q->order || y >= q->order)
        return SIZE_MAX;
    return q->mul[x * q->order + y];
}
size_t
bt_quotient_heap(const bt_quotient *q, size_t h)
{
    return h <= q->upto ? q->heap[h] : 0;
}
int
bt_quotient_period(const bt_quotient *q, size_t *period, size_t *preperiod)
{
    if (!q->proved)
        return 0;
    if (period != NULL)
        *period = q->period;
    if (preperiod != NULL)
        *preperiod = q->preperiod;
    return 1;
}

/* The heap size whose element is that of heap h (h itself up to upto;
   beyond it, through the proved period), or SIZE_MAX. */
size_t
bt__q_heap_reduce(const bt_quotient *q, const mpz_t h)
{
    if (mpz_sgn(h) < 0)
        return SIZE_MAX;
    if (mpz_cmp_ui(h, (unsigned long)q->upto) <= 0)
        return (size_t)mpz_get_ui(h);
    if (!q->proved)
        return SIZE_MAX;
    {
        /* preperiod + (h - preperiod) mod period, h > upto >= preperiod */
        size_t per = q->period, hm = (size_t)mpz_fdiv_ui(h, per);
        return q->preperiod + (hm + per - q->preperiod % per) % per;
    }
}

size_t
bt_quotient_heap_at(const bt_quotient *q, const mpz_t h)
{
    size_t r = bt__q_heap_reduce(q, h);
    return r == SIZE_MAX ? SIZE_MAX : q->heap[r];
}

int
bt_quotient_is_tame(const bt_quotient *q)
{
    return q->tame;
}
size_t
bt_quotient_generator_count(const bt_quotient *q)
{
    return q->ngen;
}
const char *
bt_quotient_generator_name(const bt_quotient *q, size_t i)
{
    return i < q->ngen ? q->genname[i] : NULL;
}
size_t
bt_quotient_generator_heap(const bt_quotient *q, size_t i)
{
    if (i >= q->ngen)
        return 0;
    /* a union's letters: heap (L - 1) / ng + 1 of game (L - 1) % ng */
    return q->ng > 0 ? (q->genheap[i] - 1) / q->ng + 1 : q->genheap[i];
}
size_t
bt_quotient_generator_game(const bt_quotient *q, size_t i)
{
    return i < q->ngen && q->ng > 0 ? (q->genheap[i] - 1) % q->ng : 0;
}
size_t
bt_quotient_game_count(const bt_quotient *q)
{
    return q->ng > 0 ? q->ng : 1;
}
bt_game *
bt_quotient_game_at(const bt_quotient *q, size_t i)
{
    if (q->games != NULL)
        return i < q->ng ? q->games[i] : NULL;
    return i == 0 && q->ng == 0 ? q->g : NULL;
}
size_t
bt_quotient_heap_of(const bt_quotient *q, size_t i, size_t h)
{
    if (q->ng == 0)
        return i == 0 ? bt_quotient_heap(q, h) : 0;
    if (h == 0 || h > q->upto || i >= q->ng)
        return 0;
    return q->heap[(h - 1) * q->ng + i + 1];
}
size_t
bt_quotient_relation_count(const bt_quotient *q)
{
    return q->nrel;
}
const char *
bt_quotient_relation(const bt_quotient *q, size_t i)
{
    return i < q->nrel ? q->rel[i] : NULL;
}
const char *
bt_quotient_word(const bt_quotient *q, size_t x)
{
    return x < q->order ? q->word[x] : NULL;
}

bt_status
bt_quotient_element(size_t *x, const bt_quotient *q, const bt_position *p,
                    bt_diag *diag)
{
    size_t i, e = 0;
    for (i = 0; i < bt_position_size(p); i++) {
        bt_game *g = bt_position_game(p, i);
        const mpz_t *v = bt_position_nums(p, i);
        if (strcmp(g->spec, q->g->spec) != 0)
            return bt__fail(diag, BT_EINVAL,
                            "component %zu is %s, not a heap of %s", i + 1,
                            g->spec, q->g->spec);
        if (bt__q_heap_reduce(q, v[0]) == SIZE_MAX)
            return bt__fail(diag, BT_ERANGE,
                            "heap %zu is larger than %zu, the bound of the "
                            "quotient (not proved periodic)",
                            i + 1, q->upto);
        e = q->mul[e * q->order + q->heap[bt__q_heap_reduce(q, v[0])]];
    }
    *x = e;
    return BT_OK;
}

/* The misère Nim quotient of heaps below 2^k (k >= 2; k = 1: order 2), as
   Bouton's sec. 6 gives it: 1 and a (only heaps of 0 and 1: even, odd
   number of ones), and 2 + v (some heap >= 2, nim-sum v). */
static uint32_t
nim_mul(size_t x, size_t y)
{
    if (x < 2 && y < 2)
        return (uint32_t)(x ^ y);
    if (x < 2)
        return (uint32_t)(2 + ((y - 2) ^ x));
    if (y < 2)
        return (uint32_t)(2 + ((x - 2) ^ y));
    return (uint32_t)(2 + ((x - 2) ^ (y - 2)));
}

/* The tame check's search: its budget, and whether it ran out. */
typedef struct tame_search {
    const bt_limits *lim;
    size_t steps; /* images tried, each O(ord) */
    int stop;     /* the budget ran out: the answer is no answer */
} tame_search;

/* Non-zero when (Q, P) is isomorphic to the misère Nim quotient of that
   order.  Backtracks over the images of the generators: up to ord^ngen
   trials, each O(ord * ngen), so it polls the budget every 256 trials
   (sets ts->stop and answers 0 when it runs out). */
static int
iso_extend(const bt_quotient *q, size_t ord, size_t j, uint32_t *img,
           uint32_t *f, uint32_t *finv, size_t *queue, tame_search *ts)
{
    size_t t;
    if (j == q->ngen) {
        size_t x;
        for (x = 0; x < ord; x++)
            if (f[x] == UINT32_MAX)
                return 0;
        return 1;
    }
    for (t = 0; t < ord; t++) {
        uint32_t *f2 = f + ord * 2, *fi2 = finv + ord * 2;
        size_t head = 0, tail = 0, x, i;
        int ok = 1;
        if ((++ts->steps & 255) == 0 && bt__poll(ts->lim) != BT_OK)
            ts->stop = 1;
        if (ts->stop)
            return 0;
        memcpy(f2, f, ord * sizeof *f);
        memcpy(fi2, finv, ord * sizeof *finv);
        img[j] = (uint32_t)t;
        for (x = 0; x < ord; x++)
            if (f2[x] != UINT32_MAX)
                queue[tail++] = x;
        while (head < tail && ok) {
            x = queue[head++];
            for (i = 0; i <= j && ok; i++) {
                size_t y = q->mul[x * q->order + q->heap[q->genheap[i]]];
                uint32_t fy = nim_mul(f2[x], img[i]);
                if (f2[y] == UINT32_MAX) {
                    if (fi2[fy] != UINT32_MAX ||
                        (q->isp[y] != 0) != (fy == 1 || fy == 2))
                        ok = 0;
                    else {
                        f2[y] = fy;
                        fi2[fy] = (uint32_t)y;
                        queue[tail++] = y;
                    }
                } else if (f2[y] != fy)
                    ok = 0;
            }
        }
        if (ok && iso_extend(q, ord, j + 1, img, f2, fi2, queue, ts))
            return 1;
    }
    return 0;
}

/* *tame: whether q is tame (bt_quotient_is_tame); BT_EINTR when the
   budget runs out first, BT_ENOMEM. */
bt_status
bt__q_is_tame(int *tame, const bt_quotient *q, const bt_limits *lim,
              bt_diag *diag)
{
    size_t ord = q->order, k;
    uint32_t *f, *finv, *img;
    size_t *queue;
    tame_search ts;
    bt_status st = BT_OK;
    *tame = 0;
    if (ord == 1) {
        *tame = 1; /* no move at all: the trivial quotient */
        return BT_OK;
    }
    if (ord != 2) {
        for (k = 2; k < 13; k++)
            if (ord == ((size_t)1 << k) + 2)
                break;
        if (k == 13)
            return BT_OK;
    }
    f = malloc(ord * (2 * q->ngen + 3) * sizeof *f);
    finv = malloc(ord * (2 * q->ngen + 3) * sizeof *finv);
    img = malloc((q->ngen + 1) * sizeof *img);
    queue = malloc(ord * sizeof *queue);
    if (f == NULL || finv == NULL || img == NULL || queue == NULL) {
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
    } else {
        size_t x;
        for (x = 0; x < ord; x++)
            f[x] = finv[x] = UINT32_MAX;
        f[0] = finv[0] = 0;
        ts.lim = lim;
        ts.steps = 0;
        ts.stop = 0;
        *tame = iso_extend(q, ord, 0, img, f, finv, queue, &ts);
        if (ts.stop)
            st = bt__fail(diag, BT_EINTR,
                          "the time budget ran out while checking whether "
                          "the quotient of order %zu is tame",
                          ord);
    }
    free(f);
    free(finv);
    free(img);
    free(queue);
    return st;
}

static char *
gen_name(size_t i)
{
    char b[32];
    if (i < 26)
        snprintf(b, sizeof b, "%c", (char)('a' + i));
    else
        snprintf(b, sizeof b, "x%zu", i + 1);
    return strdup(b);
}

static void
word_of(bt__buf *b, const bt_quotient *q, const uint16_t *v)
{
    size_t i;
    int any = 0;
    for (i = 0; i < q->ngen; i++) {
        if (v[i] == 0)
            continue;
        bt__buf_puts(b, q->genname[i]);
        if (v[i] > 1)
            bt__buf_printf(b, "^%u", (unsigned)v[i]);
        any = 1;
    }
    if (!any)
        bt__buf_putc(b, '1');
}

typedef struct cand {
    const uint16_t *v;
    size_t r, val;
} cand;

/* Lexicographic, more of the earlier generators first ("a^2" < "ab"). */
static int
cmp_cand(const void *pa, const void *pb)
{
    const cand *x = pa, *y = pb;
    size_t i;
    for (i = 0; i < x->r; i++)
        if (x->v[i] != y->v[i])
            return x->v[i] > y->v[i] ? -1 : 1;
    return 0;
}

static bt_status
add_relation(bt_quotient *q, const uint16_t *m, const uint16_t *nf)
{
    bt__buf b;
    char **nr = realloc(q->rel, (q->nrel + 1) * sizeof *nr);
    if (nr == NULL)
        return BT_ENOMEM;
    q->rel = nr;
    bt__buf_init(&b);
    word_of(&b, q, m);
    bt__buf_puts(&b, " = ");
    word_of(&b, q, nf);
    q->rel[q->nrel] = bt__buf_take(&b);
    if (q->rel[q->nrel] == NULL)
        return BT_ENOMEM;
    q->nrel++;
    return BT_OK;
}

/*
 * Generators, normal words and relations.  The normal word of an element
 * is its least monomial in the graded lexicographic order (degree first,
 * then more of the earlier generators), a monomial order, so the normal
 * words form an order ideal and the relations "m = normal word of m" for
 * the minimal monomials m that are not normal rewrite every monomial to
 * its normal word: with commutativity they present Q.
 */
bt_status
bt__q_present(bt_quotient *q, bt_diag *diag)
{
    size_t ord = q->order, h, r = 0, i, x, deg;
    unsigned char *sub = calloc(ord, 1), *have = NULL;
    size_t *stack = malloc(ord * sizeof *stack);
    uint16_t *vec = NULL;  /* vec[x * (r + 1)]: normal word of x */
    size_t *cur = NULL;    /* the elements whose words have degree deg */
    size_t ncur = 0, *nxt = NULL, nnxt;
    uint16_t *cv = NULL;   /* candidate vectors */
    cand *cs = NULL;
    htab std, seen;
    bt_status st = BT_OK;

    memset(&std, 0, sizeof std);
    memset(&seen, 0, sizeof seen);
    q->genname = calloc(q->upto + 1, sizeof *q->genname);
    q->genheap = calloc(q->upto + 1, sizeof *q->genheap);
    q->word = calloc(ord, sizeof *q->word);
    if (sub == NULL || stack == NULL || q->genname == NULL ||
        q->genheap == NULL || q->word == NULL)
        goto nomem;
    sub[0] = 1;
    for (h = 1; h <= q->upto; h++) {
        size_t e = q->heap[h], n = 0, y;
        if (sub[e])
            continue;
        q->genheap[r] = h;
        q->genname[r] = gen_name(r);
        if (q->genname[r] == NULL)
            goto nomem;
        q->ngen = ++r;
        for (y = 0; y < ord; y++)
            if (sub[y])
                stack[n++] = y;
        while (n > 0) {
            size_t z = q->mul[stack[--n] * ord + e];
            if (!sub[z]) {
                sub[z] = 1;
                stack[n++] = z;
            }
        }
    }
    vec = calloc(ord * (r + 1), sizeof *vec);
    have = calloc(ord, 1);
    cur = malloc((ord + 1) * sizeof *cur);
    nxt = malloc((ord + 1) * sizeof *nxt);
    cv = malloc((ord * r + 1) * (r + 1) * sizeof *cv);
    cs = malloc((ord * r + 1) * sizeof *cs);
    if (vec == NULL || have == NULL || cur == NULL || nxt == NULL ||
        cv == NULL || cs == NULL)
        goto nomem;
    have[0] = 1;
    cur[0] = 0;
    ncur = 1;
    if (bt__q_ht_add(&std, vec, r * sizeof *vec) == SIZE_MAX)
        goto nomem;
    /* every element once: O(ord * r^2) time and memory, r the generators
       (few in the quotients known; at most upto), and no poll */
    for (deg = 1; ncur > 0; deg++) {
        size_t nc = 0, j;
        bt__q_ht_clear(&seen);
        for (i = 0; i < ncur; i++)
            for (j = 0; j < r; j++) {
                uint16_t *m = cv + nc * (r + 1);
                memcpy(m, vec + cur[i] * (r + 1), (r + 1) * sizeof *m);
                m[j]++;
                if (bt__q_ht_find(&seen, m, r * sizeof *m) != SIZE_MAX)
                    continue;
                if (bt__q_ht_add(&seen, m, r * sizeof *m) == SIZE_MAX)
                    goto nomem;
                cs[nc].v = m;
                cs[nc].r = r;
                cs[nc].val = q->mul[cur[i] * ord + q->heap[q->genheap[j]]];
                nc++;
            }
        qsort(cs, nc, sizeof *cs, cmp_cand);
        nnxt = 0;
        for (i = 0; i < nc; i++) {
            uint16_t *m = (uint16_t *)(uintptr_t)cs[i].v;
            size_t val = cs[i].val;
            int minimal = 1;
            if (!have[val]) {
                have[val] = 1;
                memcpy(vec + val * (r + 1), m, (r + 1) * sizeof *m);
                if (bt__q_ht_add(&std, m, r * sizeof *m) == SIZE_MAX)
                    goto nomem;
                nxt[nnxt++] = val;
                continue;
            }
            for (j = 0; j < r && minimal; j++) {
                if (m[j] == 0)
                    continue;
                m[j]--;
                if (bt__q_ht_find(&std, m, r * sizeof *m) == SIZE_MAX)
                    minimal = 0;
                m[j]++;
            }
            if (minimal && add_relation(q, m, vec + val * (r + 1)) != BT_OK)
                goto nomem;
        }
        memcpy(cur, nxt, nnxt * sizeof *cur);
        ncur = nnxt;
    }
    for (x = 0; x < ord; x++) {
        bt__buf b;
        bt__buf_init(&b);
        word_of(&b, q, vec + x * (r + 1));
        q->word[x] = bt__buf_take(&b);
        if (q->word[x] == NULL)
            goto nomem;
    }
    goto done;
nomem:
    st = bt__fail(diag, BT_ENOMEM, "out of memory");
done:
    bt__q_ht_free(&std);
    bt__q_ht_free(&seen);
    free(sub);
    free(stack);
    free(vec);
    free(have);
    free(cur);
    free(nxt);
    free(cv);
    free(cs);
    return st;
}
