/*
 * quotient_tame.c -- tame misère quotients at the speed of the theory.
 *
 * A heap game whose heaps all play, in misère sums, as sums of Nim heaps
 * is misère Nim in disguise (Conway's genus theory, Winning Ways ch. 13;
 * T. E. Plambeck, "Taming the wild in impartial combinatorial games",
 * INTEGERS 5 (2005) G5; Plambeck and Siegel, "Misère quotients for
 * impartial games", JCTA 115 (2008)).  Its quotient is then misère Nim's
 * over the nim-values that occur, and needs neither a search nor the
 * exact walk of quotient.c: each heap is checked against its options
 * alone, by the theorem below, as heaps are added.
 *
 * The misère Nim monoid.  Elements 1 (code 0), a (code 1) and z_v (code
 * 2 + v, v >= 0); 1 is the identity, a a = 1, a z_v = z_(v^1), z_v z_w =
 * z_(v^w); P = {a, z_0}.  A sum of Nim heaps maps to a^k when all its
 * heaps are 0 or 1 (k of them 1), else to z_(its nim-sum), and by Bouton's
 * theorem on misère Nim (Bouton 1902, sec. 6) it is a misère P-position
 * exactly when its element is in P.
 *
 * For an element t let S(t) = {y : y t in P}: S(1) = {a, z_0}, S(a) = {1,
 * z_1}, S(z_g) = {z_g}, with 1 added when g = 0 and a when g = 1.  Let
 * each heap h have a code phi(h) (phi(h) = 1 when h has no move), T(h)
 * the elements of its options (products of the codes of the heaps they
 * leave), M the monoid the codes generate, Win(h) = union of S(t) over t
 * in T(h), and Req(e) the union of S(t) over the options t of a Nim
 * position whose element is e (its representative; any one serves the
 * proof, and these ask least): Req(a) = S(1) = {a, z_0} (of *1; every
 * position of Nim heaps of 0 and 1 with element a has only options of
 * element 1), Req(z_0) empty (of *L + *L, L a power of two past every
 * nim-value in M: its options' nim-sums are at least L, outside M),
 * Req(z_1) = S(z_0) = {z_0, 1} (of *L + *(L + 1)), Req(z_g) = {1, a, z_0,
 * ..., z_(g-1)} for g >= 2 (of *g; every Nim position of nim-sum g has
 * options of every nim-sum below g, so none asks less), and Req(1) = {1}
 * for a heap with a move whose code is 1 (it must win alone).  Only the
 * parts in M count (y below ranges over M).
 *
 * Theorem.  If every heap h with a move satisfies, over y in M,
 *   (I)  Win(h) and S(phi(h)) are disjoint, and
 *   (II) Req(phi(h)) is contained in Win(h),
 * then a sum G of the heaps is a misère P-position exactly when its
 * element x = phi(G) is in P.
 *
 * Proof, by induction on G; an option of G replaces a heap h_i by an
 * option o, with element y_i t, y_i = phi(G - h_i) in M, t in T(h_i), and
 * by induction it is P exactly when y_i t in P, i.e. y_i in S(t).  If x
 * is in P, then y_i in S(phi(h_i)) for every i, so by (I) no option is P;
 * and G has a move, since x is not 1 and heaps without a move are 1: G is
 * P.  If x is not in P, replace each heap by a Nim representative of its
 * code: the Nim position N(G) has element x too, so by Bouton it is not
 * P.  If N(G) has a move, one of its options is P: the option of some
 * representative whose element t' has y_i t' in P, i.e. y_i in Req(phi(
 * h_i)), hence by (II) in Win(h_i): G has a P option.  If N(G) has no
 * move, every code is 1, x = 1 and every y_i = 1; if G has a move at all,
 * some heap with a move has code 1 and 1 in Req(1) is in its Win: again
 * a P option.  So G is N.  QED.
 *
 * Hence phi answers every sum, so the quotient is a quotient of M; and M
 * with this P is already reduced: any two distinct elements of M are told
 * apart by an element of M (z_v by z_v itself against z_w, 1 against a by
 * 1, 1 or a against z_w by 1 or z_w, a against z_0 by z_0), and every
 * element of M is the element of some sum.  So the misère quotient of the
 * heaps is M with P = {a, z_0} in M, up to isomorphism -- the one the
 * general learner finds (tests/unit/test_quotient_tame.c compares them).
 *
 * The conditions are local: checking heap h costs its options and, when
 * its code enlarges M, a look at every earlier heap again (conditions
 * (I) and (II) speak of M), at most once per new element kind (the span
 * of the nim-values doubles each time), so a heap costs about its
 * options.  The conditions are sufficient, not necessary: a heap whose
 * options fail them makes the tracker stop, and the general learner
 * takes that heap on (quotient.c); it never gives a wrong quotient.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/quotient_tame.h"
#include "engines/engines.h"

static int taming = 1;

void
bt__quotient_set_taming(int on)
{
    taming = on;
}

int
bt__qtame_on(void)
{
    return taming;
}

/* Nim-values below 2^QT_BITS: M has at most 2 + 2^QT_BITS elements. */
#define QT_BITS 10
#define QT_NV ((uint32_t)1 << QT_BITS)
#define QT_W (QT_NV / 64)

/* what a heap's options are, for the conditions */
enum {
    QT_MOVE = 1, /* the heap has a move */
    QT_T1 = 2,   /* 1 in T(h) */
    QT_TA = 4,   /* a in T(h) */
    QT_TZ0 = 8,  /* z_0 in T(h) */
    QT_TZ1 = 16  /* z_1 in T(h) */
};

typedef struct qtmon {
    int has_a, has_big;
    uint32_t basis[QT_BITS]; /* basis[i]: leading bit i, or 0 */
} qtmon;

struct bt__qtame {
    size_t n, cap;
    uint32_t *code;        /* code[h], h = 0..n */
    unsigned char *flags;  /* flags[h] */
    uint64_t *nu;          /* nu[h * QT_W ...]: the nim-values of T(h) */
    qtmon m;               /* the monoid of the codes of heaps 1..n */
    int grew;
    uint32_t rank[QT_NV];  /* rank[w]: how many of the span are below w */
};

static uint32_t
nv(uint32_t c)
{
    return c < 2 ? c : c - 2;
}

static uint32_t
cmul(uint32_t x, uint32_t y)
{
    return x < 2 && y < 2 ? x ^ y : 2 + (nv(x) ^ nv(y));
}

/* Reduces v by the basis: 0 exactly when v is in the span. */
static uint32_t
reduce(const qtmon *m, uint32_t v)
{
    int i;
    for (i = QT_BITS - 1; i >= 0; i--)
        if ((v >> i) & 1 && m->basis[i] != 0)
            v ^= m->basis[i];
    return v;
}

/* Adds code e to the monoid's generators (e's nim-value below QT_NV). */
static void
mon_add(qtmon *m, uint32_t e)
{
    uint32_t v;
    int i;
    if (e == 0)
        return;
    if (e == 1) {
        m->has_a = 1;
        v = 1;
    } else {
        m->has_big = 1;
        v = nv(e);
    }
    v = reduce(m, v);
    if (v != 0) {
        for (i = QT_BITS - 1; !((v >> i) & 1); i--)
            ;
        m->basis[i] = v;
    }
}

/* Whether z_w is in M: M has a big element and w is in the span of the
   big codes' values (with 1 when a is in M). */
static int
has_z(const qtmon *m, uint32_t w)
{
    return m->has_big && w < QT_NV && reduce(m, w) == 0;
}

static int
same_mon(const qtmon *x, const qtmon *y)
{
    return x->has_a == y->has_a && x->has_big == y->has_big &&
           memcmp(x->basis, y->basis, sizeof x->basis) == 0;
}

/* Numbers the span's values in increasing order (mon_index). */
static void
rank_build(bt__qtame *t)
{
    uint32_t w, r = 0;
    for (w = 0; w < QT_NV; w++) {
        t->rank[w] = r;
        r += reduce(&t->m, w) == 0;
    }
}

static int
nu_has(const uint64_t *nu, uint32_t w)
{
    return w < QT_NV && (nu[w / 64] >> (w % 64)) & 1;
}

/* Conditions (I) and (II) of the theorem for a heap with these options
   and code e, over the monoid m (which holds e). */
static int
heap_ok(const qtmon *m, unsigned flags, const uint64_t *nu, uint32_t e)
{
    int win1 = (flags & (QT_TA | QT_TZ0)) != 0; /* 1 in Win */
    int wina = (flags & (QT_T1 | QT_TZ1)) != 0; /* a in Win */
    uint32_t g, w;
    if (!(flags & QT_MOVE))
        return e == 0;
    if (e == 0) /* S(1) = {a, z_0}; Req(1) = {1} */
        return !(m->has_a && wina) && !(has_z(m, 0) && nu_has(nu, 0)) &&
               win1;
    if (e == 1) /* S(a) = {1, z_1}; Req(a) = {a, z_0} */
        return !win1 && !(has_z(m, 1) && nu_has(nu, 1)) && wina &&
               !(has_z(m, 0) && !nu_has(nu, 0));
    g = e - 2;
    /* (I): S(z_g) = {z_g}, with 1 when g = 0 and a when g = 1 */
    if (nu_has(nu, g) || (g == 0 && win1) ||
        (g == 1 && m->has_a && wina))
        return 0;
    /* (II): Req(z_0) is empty, Req(z_1) = S(z_0) = {z_0, 1} */
    if (g == 0)
        return 1;
    if (g == 1)
        return nu_has(nu, 0) && win1;
    if (!win1 || (m->has_a && !wina))
        return 0;
    for (w = 0; w < g; w++)
        if (!nu_has(nu, w) && has_z(m, w))
            return 0;
    return 1;
}

bt__qtame *
bt__qtame_new(void)
{
    bt__qtame *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->cap = 64;
    t->code = calloc(t->cap + 1, sizeof *t->code);
    t->flags = calloc(t->cap + 1, 1);
    t->nu = calloc((t->cap + 1) * QT_W, sizeof *t->nu);
    if (t->code == NULL || t->flags == NULL || t->nu == NULL) {
        bt__qtame_free(t);
        return NULL;
    }
    rank_build(t);
    return t;
}

void
bt__qtame_free(bt__qtame *t)
{
    if (t == NULL)
        return;
    free(t->code);
    free(t->flags);
    free(t->nu);
    free(t);
}

bt__qtame *
bt__qtame_copy(const bt__qtame *t)
{
    bt__qtame *d;
    if (t == NULL || (d = calloc(1, sizeof *d)) == NULL)
        return NULL;
    *d = *t;
    d->code = malloc((t->cap + 1) * sizeof *d->code);
    d->flags = malloc(t->cap + 1);
    d->nu = malloc((t->cap + 1) * QT_W * sizeof *d->nu);
    if (d->code == NULL || d->flags == NULL || d->nu == NULL) {
        bt__qtame_free(d);
        return NULL;
    }
    memcpy(d->code, t->code, (t->cap + 1) * sizeof *d->code);
    memcpy(d->flags, t->flags, t->cap + 1);
    memcpy(d->nu, t->nu, (t->cap + 1) * QT_W * sizeof *d->nu);
    return d;
}

size_t
bt__qtame_heaps(const bt__qtame *t)
{
    return t->n;
}

int
bt__qtame_grew(const bt__qtame *t)
{
    return t->grew;
}

void
bt__qtame_truncate(bt__qtame *t, size_t n)
{
    size_t h;
    if (n >= t->n)
        return;
    t->n = n;
    memset(&t->m, 0, sizeof t->m);
    for (h = 1; h <= n; h++)
        mon_add(&t->m, t->code[h]);
    t->grew = 0;
    rank_build(t);
}

int
bt__qtame_add(bt__qtame *t, size_t h, const uint32_t *opt, size_t nopt)
{
    uint64_t *nu;
    unsigned flags = nopt > 0 ? QT_MOVE : 0;
    uint32_t e, gmax = 0;
    size_t j;
    if (h != t->n + 1)
        return 0;
    if (h > t->cap) {
        size_t nc = 2 * t->cap;
        uint32_t *c2;
        unsigned char *f2;
        uint64_t *n2;
        while (nc < h)
            nc *= 2;
        c2 = realloc(t->code, (nc + 1) * sizeof *c2);
        if (c2 == NULL)
            return -1;
        t->code = c2;
        f2 = realloc(t->flags, nc + 1);
        if (f2 == NULL)
            return -1;
        t->flags = f2;
        n2 = realloc(t->nu, (nc + 1) * QT_W * sizeof *n2);
        if (n2 == NULL)
            return -1;
        t->nu = n2;
        t->cap = nc;
    }
    nu = t->nu + h * QT_W;
    memset(nu, 0, QT_W * sizeof *nu);
    for (j = 0; j < nopt; j++) {
        uint32_t a = opt[2 * j], b = opt[2 * j + 1], x;
        if (a > t->n || b > t->n)
            return 0; /* not an option of smaller heaps */
        x = cmul(t->code[a], t->code[b]);
        if (nv(x) >= QT_NV)
            return 0;
        nu[nv(x) / 64] |= (uint64_t)1 << (nv(x) % 64);
        if (nv(x) + 1 > gmax)
            gmax = nv(x) + 1;
        flags |= x == 0   ? QT_T1
                 : x == 1 ? QT_TA
                 : x == 2 ? QT_TZ0
                 : x == 3 ? QT_TZ1
                          : 0;
    }
    t->flags[h] = (unsigned char)flags;
    /* the candidates: 1, a, then z_g up to past the options' values and
       the span (a code past both cannot meet (II) unless it enlarges the
       span, and then the smallest such is as good as any) */
    {
        uint32_t span = 1;
        int i;
        for (i = 0; i < QT_BITS; i++)
            if (t->m.basis[i] != 0)
                span = (uint32_t)2 << i;
        if (span > gmax)
            gmax = span;
        gmax = gmax < QT_NV / 2 ? 2 * gmax : QT_NV - 1;
    }
    for (e = 0; e < 2 + gmax; e++) {
        qtmon m = t->m;
        size_t k;
        if (!(flags & QT_MOVE) && e != 0)
            break;
        mon_add(&m, e);
        if (!heap_ok(&m, flags, nu, e))
            continue;
        if (!same_mon(&m, &t->m)) {
            /* M grows: the earlier heaps meet more contexts */
            for (k = 1; k < h; k++)
                if (!heap_ok(&m, t->flags[k], t->nu + k * QT_W,
                             t->code[k]))
                    break;
            if (k < h)
                continue;
        }
        t->grew = !same_mon(&m, &t->m);
        t->m = m;
        t->code[h] = e;
        t->n = h;
        if (t->grew)
            rank_build(t);
        return 1;
    }
    return 0;
}

/* The order of m, and the number of code c in it: 1, then a, then z_w
   for w in the span, in increasing order of w. */
static size_t
mon_order(const qtmon *m)
{
    size_t d = 0;
    int i;
    for (i = 0; i < QT_BITS; i++)
        d += m->basis[i] != 0;
    return 1 + (size_t)m->has_a + (m->has_big ? (size_t)1 << d : 0);
}

static size_t
mon_index(const bt__qtame *t, uint32_t c)
{
    return c < 2 ? c : 1 + (size_t)t->m.has_a + t->rank[nv(c)];
}

size_t
bt__qtame_order(const bt__qtame *t)
{
    return mon_order(&t->m);
}

size_t
bt__qtame_element(const bt__qtame *t, const uint32_t *h, size_t n)
{
    uint32_t x = 0;
    size_t i;
    for (i = 0; i < n; i++)
        x = cmul(x, h[i] <= t->n ? t->code[h[i]] : 0);
    return mon_index(t, x);
}

int
bt__qtame_table(const bt__qtame *t, uint32_t **tr, unsigned char **isp,
                size_t *ord)
{
    size_t o = mon_order(&t->m), n = t->n, x, a, k = 0;
    uint32_t *codes = malloc(o * sizeof *codes), *idx, w;
    idx = malloc((2 + QT_NV) * sizeof *idx);
    *tr = malloc(o * (n + 1) * sizeof **tr);
    *isp = malloc(o);
    if (codes == NULL || idx == NULL || *tr == NULL || *isp == NULL) {
        free(codes);
        free(idx);
        free(*tr);
        free(*isp);
        *tr = NULL;
        *isp = NULL;
        return -1;
    }
    codes[k++] = 0;
    if (t->m.has_a)
        codes[k++] = 1;
    for (w = 0; t->m.has_big && w < QT_NV; w++)
        if (reduce(&t->m, w) == 0)
            codes[k++] = 2 + w;
    for (x = 0; x < o; x++)
        idx[codes[x]] = (uint32_t)x;
    for (x = 0; x < o; x++) {
        (*isp)[x] = codes[x] == 1 || codes[x] == 2;
        for (a = 0; a <= n; a++)
            (*tr)[x * (n + 1) + a] = idx[cmul(codes[x], t->code[a])];
    }
    free(codes);
    free(idx);
    *ord = o;
    return 0;
}

int
bt__qauto_same(const uint32_t *tr, size_t stride, const unsigned char *isp,
               size_t ord, const uint32_t *rtr, size_t rstride,
               const unsigned char *risp, size_t rord, const size_t *live,
               size_t n)
{
    /* a breadth-first walk of the pairs (s, x) reachable from (0, 0);
       each hypothesis state is paired with one reference state at most
       (a second means the two automata differ in structure: answered 0,
       and the caller checks the long way) */
    uint32_t *pair = malloc((ord + 1) * sizeof *pair);
    uint32_t *queue = malloc((ord + 1) * sizeof *queue);
    size_t head = 0, tail = 0, a;
    int same = 1;
    if (pair == NULL || queue == NULL) {
        free(pair);
        free(queue);
        return -1;
    }
    for (a = 0; a < ord; a++)
        pair[a] = UINT32_MAX;
    pair[0] = 0;
    queue[tail++] = 0;
    while (head < tail && same) {
        uint32_t s = queue[head++], x = pair[s];
        if (x >= rord || isp[s] != risp[x]) {
            same = 0;
            break;
        }
        for (a = 1; a <= n; a++) {
            uint32_t s2, x2;
            if (!live[a])
                continue;
            s2 = tr[s * stride + a];
            x2 = rtr[(size_t)x * rstride + a];
            if (s2 >= ord) {
                same = 0;
                break;
            }
            if (pair[s2] == UINT32_MAX) {
                pair[s2] = x2;
                queue[tail++] = s2;
            } else if (pair[s2] != x2) {
                same = 0;
                break;
            }
        }
    }
    /* every state reached, and the pairing one to one */
    if (same && (tail != ord || ord != rord))
        same = 0;
    for (a = 0; same && a < ord; a++)
        queue[a] = 0;
    for (a = 0; same && a < ord; a++) {
        if (pair[a] >= ord || queue[pair[a]])
            same = 0;
        else
            queue[pair[a]] = 1;
    }
    free(pair);
    free(queue);
    return same;
}
