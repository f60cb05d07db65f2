/*
 * oracle_wythoff.c -- see oracle_wythoff.h.  Deliberately plain: every
 * candidate move is checked against the rules by oracle_wythoff_is_move().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "oracle_wythoff.h"

int
oracle_wythoff_is_move(int a, int x, int y, int x2, int y2)
{
    int k = x - x2, l = y - y2;
    if (x2 < 0 || y2 < 0 || k < 0 || l < 0 || (k == 0 && l == 0))
        return 0;
    if (k == 0 || l == 0) /* from one pile */
        return 1;
    return (k > l ? k - l : l - k) < a; /* from both */
}

unsigned char *
oracle_wythoff_outcomes(int n, int a, int misere)
{
    int m = n + 1, x, y, x2, y2;
    unsigned char *win = calloc((size_t)m * (size_t)m, 1);
    if (win == NULL)
        return NULL;
    /* every option of (x, y) has x2 <= x and y2 <= y, not both equal, so
       it comes earlier in this order */
    for (x = 0; x <= n; x++)
        for (y = 0; y <= n; y++) {
            int any = 0, w = 0;
            for (x2 = 0; x2 <= x && !w; x2++)
                for (y2 = 0; y2 <= y && !w; y2++)
                    if (oracle_wythoff_is_move(a, x, y, x2, y2)) {
                        any = 1;
                        if (!win[x2 * m + y2])
                            w = 1;
                    }
            win[x * m + y] = (unsigned char)(any ? w : misere);
        }
    return win;
}

/* Marks the value of option (x2, y2) of (x, y) after checking the move
   against the rules. */
static void
mark(unsigned char *seen, size_t cap, const unsigned *g, int n, int a, int x,
     int y, int x2, int y2)
{
    if (oracle_wythoff_is_move(a, x, y, x2, y2) && g[x2 * n + y2] < cap)
        seen[g[x2 * n + y2]] = 1;
}

unsigned *
oracle_wythoff_grundy(int n, int a)
{
    int ae = a < n ? a : n, x, y, k, l;
    /* a value is at most the number of options */
    size_t cap = (size_t)n * (size_t)(2 * ae + 2) + 1;
    unsigned *g = malloc((size_t)n * (size_t)n * sizeof *g);
    unsigned char *seen = malloc(cap);
    if (g == NULL || seen == NULL) {
        free(g);
        free(seen);
        return NULL;
    }
    for (x = 0; x < n; x++)
        for (y = 0; y < n; y++) {
            size_t v = 0;
            memset(seen, 0, cap);
            for (k = 1; k <= x; k++)
                mark(seen, cap, g, n, a, x, y, x - k, y);
            for (l = 1; l <= y; l++)
                mark(seen, cap, g, n, a, x, y, x, y - l);
            /* from both piles: |k - l| < a, so l within a of k (the
               rules check again in mark()) */
            for (k = 1; k <= x; k++)
                for (l = k - ae + 1 > 1 ? k - ae + 1 : 1; l <= y && l < k + ae;
                     l++)
                    mark(seen, cap, g, n, a, x, y, x - k, y - l);
            while (seen[v])
                v++;
            g[x * n + y] = (unsigned)v;
        }
    free(seen);
    return g;
}

int
oracle_wythoff_pairs(long count, int a, int misere, long *lo, long *hi)
{
    /* the marks of the numbers in the pairs (they stay below top:
       checked) */
    long n, v, top = count * (a + 3) + 8;
    unsigned char *used = calloc((size_t)top, 1);
    if (used == NULL)
        return -1;
    for (n = 0, v = 0; n < count; n++) {
        while (used[v])
            v++;
        lo[n] = v;
        hi[n] = v + (long)a * n + (misere && a > 1 ? 1 : 0);
        if (hi[n] >= top) {
            free(used);
            return -1;
        }
        used[lo[n]] = used[hi[n]] = 1;
    }
    if (misere && a == 1 && count >= 2) {
        lo[0] = 0;
        hi[0] = 1;
        lo[1] = hi[1] = 2;
    }
    free(used);
    return 0;
}

int
oracle_wythoff_defining(int a, int misere, const mpz_t n, const mpz_t lo,
                        const mpz_t hi)
{
    mpz_t l, u, m, t;
    int ok;
    mpz_inits(l, u, m, t, NULL);
    if (!misere || a == 1) {
        mpz_set(m, n);
        mpz_mul_2exp(l, lo, 1);
        mpz_set_si(t, 2 - a);
        mpz_submul(l, t, n);
        mpz_add_ui(u, l, 2);
    } else {
        mpz_mul_ui(m, n, (unsigned long)a);
        mpz_add_ui(m, m, 1);
        mpz_mul_ui(l, lo, 2 * (unsigned long)a);
        mpz_sub_ui(t, m, 2);
        mpz_mul_si(t, t, 2 - a);
        mpz_sub(l, l, t);
        mpz_add_ui(u, l, 2 * (unsigned long)a);
    }
    ok = mpz_sgn(l) >= 0;
    mpz_mul(t, m, m);
    mpz_mul_ui(t, t, (unsigned long)(a * a + 4)); /* (m s)^2 */
    mpz_mul(l, l, l);
    mpz_mul(u, u, u);
    ok = ok && mpz_cmp(l, t) <= 0 && mpz_cmp(t, u) < 0;
    mpz_sub(t, hi, lo);
    mpz_submul_ui(t, n, (unsigned long)a);
    ok = ok && mpz_cmp_si(t, misere && a > 1 ? 1 : 0) == 0;
    mpz_clears(l, u, m, t, NULL);
    return ok;
}
