/*
 * quotient_extend.c -- conservative extensions of a misère quotient
 * without the exact walk where it is not needed (docs/misere.md, "The
 * algorithm" and "Conservative extension first").
 *
 * When heap h is an element x of the proved quotient Q(h - 1), the exact
 * check of quotient.c walks the triples (x, e, U) that the sums of heaps
 * up to h reach.  A heap acts on a triple only through its element, the
 * set of its options' elements and whether it has a move: x' = x el(a),
 * e' = 1, U' = {y : y el(a) in U} united with {y : y x t in P} over the
 * elements t of a's options.  So when an earlier heap a < h has the same
 * set of options' elements as heap h (both computed in Q(h - 1)), setting
 * heap h to el(a) adds no triple that heap a does not reach already: every
 * sum with copies of heap h reaches the triple of the sum with heap a in
 * their place.  Those triples pass, because Q(h - 1) is exact on every
 * sum of heaps below h (its triple then satisfies "x in P exactly when
 * e and 1 not in U", by induction on the options, which Q(h - 1) answers
 * right).  So by the check's theorem Q(h - 1) with heap h -> el(a) answers
 * every sum of heaps up to h, and is Q(h) (its elements are told apart by
 * sums of smaller heaps already).  No walk is needed.  This is the
 * reduction bouton's loader uses (quotient_check_walk), here for learning;
 * past the preperiod of an octal game the sets recur with the period (the
 * proof of the periodicity theorem), so most late heaps are free: Kayles
 * repeats an earlier heap at 95 of its first 169 heaps.
 *
 * Otherwise the candidates are ordered by how much an earlier heap's set
 * of options' elements looks like heap h's (the elements of the closest
 * earlier heaps first): only one candidate can pass (two would be
 * indistinguishable elements of a quotient), so the order changes only
 * how many failed walks come before it, never the result.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/quotient_extend.h"

/* Earlier heaps compared with heap h: the last QEXT_BACK (the sets recur
   with the period, which is far shorter in every known game). */
#define QEXT_BACK 1024

/* The set of elements of heap a's options, as ord bits. */
static void
opt_set(uint64_t *set, size_t nw, const uint32_t *mul, size_t ord,
        const uint32_t *el, const uint32_t *opt, size_t nopt)
{
    size_t j;
    memset(set, 0, nw * sizeof *set);
    for (j = 0; j < nopt; j++) {
        size_t z = mul[(size_t)el[opt[2 * j]] * ord + el[opt[2 * j + 1]]];
        set[z / 64] |= (uint64_t)1 << (z % 64);
    }
}

static unsigned
popcount64(uint64_t v)
{
    unsigned n = 0;
    for (; v != 0; v &= v - 1)
        n++;
    return n;
}

int
bt__qext_plan(uint32_t *cand, size_t *ncand, int *proved,
              const uint32_t *mul, size_t ord, const unsigned char *isp,
              const uint32_t *el, uint32_t *const *opt,
              const size_t *nopt, size_t h)
{
    size_t nw = (ord + 63) / 64, a, x, k = 0, w, lo;
    uint64_t *th = malloc((2 * nw + 1) * sizeof *th), *ta;
    long *score = malloc((ord + 1) * sizeof *score);
    unsigned char *taken = calloc(ord + 1, 1);
    int hp = 1;
    *ncand = 0;
    *proved = 0;
    if (th == NULL || score == NULL || taken == NULL) {
        free(th);
        free(score);
        free(taken);
        return -1;
    }
    ta = th + nw;
    opt_set(th, nw, mul, ord, el, opt[h], nopt[h]);
    for (x = 0; x < ord; x++) {
        score[x] = -(long)(2 * ord + 1); /* below every heap's */
        if (isp[x] && (th[x / 64] >> (x % 64)) & 1)
            hp = 0; /* an option in P: heap h is N */
    }
    lo = h > QEXT_BACK ? h - QEXT_BACK : 1;
    for (a = h; a-- > lo;) {
        long s = 0;
        if (nopt[a] == 0)
            continue;
        opt_set(ta, nw, mul, ord, el, opt[a], nopt[a]);
        for (w = 0; w < nw; w++)
            s += (long)popcount64(ta[w] & th[w]) -
                 (long)popcount64(ta[w] ^ th[w]);
        if (memcmp(ta, th, nw * sizeof *th) == 0) {
            /* the same set: proved (the file's comment) */
            cand[0] = el[a];
            *ncand = 1;
            *proved = 1;
            goto out;
        }
        if (s > score[el[a]])
            score[el[a]] = s;
    }
    /* the candidates of heap h's P-status, best score first (a stable
       selection: ties in numbering order) */
    for (;;) {
        size_t best = SIZE_MAX;
        for (x = 0; x < ord; x++)
            if (!taken[x] && (isp[x] != 0) == hp &&
                (best == SIZE_MAX || score[x] > score[best]))
                best = x;
        if (best == SIZE_MAX)
            break;
        taken[best] = 1;
        cand[k++] = (uint32_t)best;
    }
    *ncand = k;
out:
    free(th);
    free(score);
    free(taken);
    return 0;
}
