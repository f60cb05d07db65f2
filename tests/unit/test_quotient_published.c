/* label: quick
 *
 * test_quotient_published.c -- misère quotients (src/engines/quotient.c)
 * against the published figures of tests/cases/misere_*.txt, each file one
 * claim with its source named in it:
 *
 *   - claim order: the quotient of a game's heaps up to a bound has the
 *     published order (Dawson's Kayles to 30: 360, A. N. Siegel 2007).
 *     When the engine does not reach the bound within a test's budget
 *     (check bench), and under valgrind, the quotient of fewer heaps is
 *     checked against what the figure implies: it is a quotient of a
 *     submonoid of the larger one, so its order is at most the published
 *     one.
 *   - claim unique: every quotient of the given order found over a family
 *     of codes is isomorphic, with its P-portion, to every other (Siegel's
 *     "exactly one quotient of order 8").
 *   - claim tame: the quotients of a family of codes are tame (games whose
 *     heaps are all misère Nim heaps, Plambeck after Winning Ways).  Tame
 *     is checked twice: bt_quotient_is_tame, and an isomorphism, found
 *     here, onto the misère Nim quotient built from Bouton's sec. 6 rule.
 *   Under valgrind (BT_TEST_LIGHT) the scans stop at heap 8.
 *   - The orders themselves, by brute force: every two elements of the
 *     quotients of 0.07 to 14, 0.75 to 12 and Kayles to 12 are told apart
 *     by a sum of at most three heaps (tests/oracle's misère solver).
 *
 * Isomorphisms are found by backtracking over the images of the
 * generators (the engine's generator heaps), extending the map along
 * products, then checked in full: a bijection that preserves every
 * product and the P-portion.  Element names play no part.
 * CPU: about 6 s in the normal build (tests/README.md).
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <bouton.h>

#include "testutil.h"

#include "oracle_heap.h"

/* ------------------------------------------------------ the case files */

typedef struct mcase {
    char claim[16], game[64], check[16], digits[16];
    char except[32][16];
    size_t nexcept;
    long upto, order, reach, least, len_lo, len_hi;
} mcase;

static int
mcase_key(void *ud, const char *key, const char *p)
{
    mcase *c = ud;
    int k;
    if (strcmp(key, "claim") == 0)
        return sscanf(p, "%15s", c->claim) == 1 ? 0 : -1;
    if (strcmp(key, "game") == 0)
        return sscanf(p, "%63s", c->game) == 1 ? 0 : -1;
    if (strcmp(key, "check") == 0)
        return sscanf(p, "%15s", c->check) == 1 ? 0 : -1;
    if (strcmp(key, "digits") == 0)
        return sscanf(p, "%15s", c->digits) == 1 ? 0 : -1;
    if (strcmp(key, "upto") == 0)
        return sscanf(p, "%ld", &c->upto) == 1 ? 0 : -1;
    if (strcmp(key, "order") == 0)
        return sscanf(p, "%ld", &c->order) == 1 ? 0 : -1;
    if (strcmp(key, "reach") == 0)
        return sscanf(p, "%ld", &c->reach) == 1 ? 0 : -1;
    if (strcmp(key, "least") == 0)
        return sscanf(p, "%ld", &c->least) == 1 ? 0 : -1;
    if (strcmp(key, "length") == 0)
        return sscanf(p, "%ld %ld", &c->len_lo, &c->len_hi) == 2 ? 0 : -1;
    if (strcmp(key, "except") != 0)
        return -1;
    while (c->nexcept < 32 &&
           sscanf(p, "%15s%n", c->except[c->nexcept], &k) == 1) {
        c->nexcept++;
        p += k;
    }
    return 0;
}

/* Reads a misere_*.txt file; -1 when malformed. */
static int
mcase_load(mcase *c, const char *path)
{
    memset(c, 0, sizeof *c);
    c->upto = c->order = c->reach = c->least = c->len_lo = c->len_hi = -1;
    strcpy(c->check, "quick");
    if (oh_read_keys(path, mcase_key, c) != 0)
        return -1;
    return c->claim[0] == '\0' || c->upto < 1 ? -1 : 0;
}

/* -------------------------------------------- finite bipartite monoids */

/* A commutative monoid on 0..n-1 (0 the identity) with a subset P, and a
   list of generators: what an isomorphism test needs of a quotient. */
typedef struct bmon {
    size_t n, ngen;
    size_t *mul; /* n * n */
    unsigned char *isp;
    size_t gen[64];
} bmon;

static void
bmon_free(bmon *m)
{
    free(m->mul);
    free(m->isp);
}

static void
bmon_of_quotient(bmon *m, const bt_quotient *q)
{
    size_t x, y, i;
    m->n = bt_quotient_order(q);
    m->mul = malloc(m->n * m->n * sizeof *m->mul);
    m->isp = malloc(m->n);
    assert_non_null(m->mul);
    assert_non_null(m->isp);
    for (x = 0; x < m->n; x++) {
        m->isp[x] = bt_quotient_is_p(q, x) != 0;
        for (y = 0; y < m->n; y++)
            m->mul[x * m->n + y] = bt_quotient_mul(q, x, y);
    }
    m->ngen = bt_quotient_generator_count(q);
    assert_true(m->ngen <= 64);
    for (i = 0; i < m->ngen; i++)
        m->gen[i] = bt_quotient_heap(q, bt_quotient_generator_heap(q, i));
}

/* Misère Nim's quotient of heaps below 2^k, from Bouton's sec. 6 rule
   alone: 0 and 1 are the positions of ones only (even, odd number of
   ones), 2 + v the positions with a heap of 2 or more and nim-sum v; P is
   an odd number of ones, or nim-sum 0 with a large heap. */
static void
bmon_misere_nim(bmon *m, unsigned k)
{
    size_t x, y, v = (size_t)1 << k;
    m->n = k == 0 ? 2 : 2 + v;
    m->mul = malloc(m->n * m->n * sizeof *m->mul);
    m->isp = malloc(m->n);
    assert_non_null(m->mul);
    assert_non_null(m->isp);
    for (x = 0; x < m->n; x++) {
        m->isp[x] = x == 1 || x == 2;
        for (y = 0; y < m->n; y++) {
            size_t nx = x < 2 ? x : x - 2, ny = y < 2 ? y : y - 2;
            int large = x >= 2 || y >= 2;
            m->mul[x * m->n + y] = large ? 2 + (nx ^ ny) : nx ^ ny;
        }
    }
    m->ngen = 0;
}

/* The map f of a onto b defined so far: f[x] = SIZE_MAX where undefined.
   Extends f along products with generators 0..j of a from every defined
   element; 0 on a contradiction (two images for one element, one image
   for two elements, or an element of P sent outside P or back). */
static int
extend(const bmon *a, const bmon *b, const size_t *img, size_t j, size_t *f,
       size_t *g)
{
    int grew = 1;
    while (grew) {
        size_t x, i;
        grew = 0;
        for (x = 0; x < a->n; x++) {
            if (f[x] == SIZE_MAX)
                continue;
            for (i = 0; i <= j; i++) {
                size_t y = a->mul[x * a->n + a->gen[i]];
                size_t fy = b->mul[f[x] * b->n + img[i]];
                if (f[y] == SIZE_MAX) {
                    if (g[fy] != SIZE_MAX || a->isp[y] != b->isp[fy])
                        return 0;
                    f[y] = fy;
                    g[fy] = y;
                    grew = 1;
                } else if (f[y] != fy) {
                    return 0;
                }
            }
        }
    }
    return 1;
}

/* Whether f is an isomorphism of bipartite monoids, checked in full. */
static int
is_iso(const bmon *a, const bmon *b, const size_t *f)
{
    size_t x, y;
    unsigned char *hit = calloc(b->n, 1);
    int ok = a->n == b->n && hit != NULL;
    for (x = 0; ok && x < a->n; x++) {
        if (f[x] >= b->n || hit[f[x]] || a->isp[x] != b->isp[f[x]])
            ok = 0;
        else
            hit[f[x]] = 1;
    }
    for (x = 0; ok && x < a->n; x++)
        for (y = 0; ok && y < a->n; y++)
            if (f[a->mul[x * a->n + y]] != b->mul[f[x] * b->n + f[y]])
                ok = 0;
    free(hit);
    return ok;
}

static int
find_iso(const bmon *a, const bmon *b, size_t j, size_t *img, const size_t *f,
         const size_t *g)
{
    size_t t;
    if (j == a->ngen)
        return is_iso(a, b, f);
    for (t = 0; t < b->n; t++) {
        size_t *f2 = malloc(a->n * sizeof *f2);
        size_t *g2 = malloc(b->n * sizeof *g2);
        int ok;
        assert_non_null(f2);
        assert_non_null(g2);
        memcpy(f2, f, a->n * sizeof *f2);
        memcpy(g2, g, b->n * sizeof *g2);
        img[j] = t;
        ok = extend(a, b, img, j, f2, g2) &&
             find_iso(a, b, j + 1, img, f2, g2);
        free(f2);
        free(g2);
        if (ok)
            return 1;
    }
    return 0;
}

/* Non-zero when a (with its generators) and b are isomorphic with their
   P-portions. */
static int
isomorphic(const bmon *a, const bmon *b)
{
    size_t *f, *g, img[64], x;
    int r;
    if (a->n != b->n)
        return 0;
    f = malloc(a->n * sizeof *f);
    g = malloc(b->n * sizeof *g);
    assert_non_null(f);
    assert_non_null(g);
    for (x = 0; x < a->n; x++)
        f[x] = g[x] = SIZE_MAX;
    f[0] = g[0] = 0;
    r = a->isp[0] == b->isp[0] && find_iso(a, b, 0, img, f, g);
    free(f);
    free(g);
    return r;
}

/* ----------------------------------------------------------- families */

/* The quotient of code's heaps up to n, or NULL when it exceeds a small
   budget (200 000 search positions, 64 elements, 1 s of CPU): a scan
   skips such codes (0.354, 0.774 and 0.775 among the three-digit ones). */
static bt_quotient *
try_quotient(const char *code, size_t n)
{
    char spec[32];
    snprintf(spec, sizeof spec, "octal:%s", code);
    return bt_test_quotient_within(spec, n, 200000, 64, 1.0);
}

/* Calls f on every code "0.d1..dL" with digits from c->digits, L in
   c->len_lo..len_hi, last digit non-zero, not in c->except. */
static void
each_code(const mcase *c, void (*f)(const mcase *c, const char *code,
                                    void *ud),
          void *ud)
{
    size_t nd = strlen(c->digits);
    long len;
    assert_true(c->len_lo >= 1 && c->len_hi >= c->len_lo && c->len_hi < 8);
    for (len = c->len_lo; len <= c->len_hi; len++) {
        size_t idx[8] = {0}, total = 1, t, i;
        for (i = 0; i < (size_t)len; i++)
            total *= nd;
        for (t = 0; t < total; t++) {
            char code[16] = "0.";
            size_t r = t, e;
            int skip = 0;
            for (i = 0; i < (size_t)len; i++) {
                idx[i] = r % nd;
                r /= nd;
                code[2 + i] = c->digits[idx[i]];
            }
            code[2 + len] = '\0';
            if (code[1 + len] == '0')
                continue;
            for (e = 0; e < c->nexcept; e++)
                if (strcmp(c->except[e], code) == 0)
                    skip = 1;
            if (!skip)
                f(c, code, ud);
        }
    }
}

/* ------------------------------------------------------------- claims */

static void
check_order(const mcase *c, const char *name)
{
    bt_quotient *q;
    assert_true(c->order > 0 && c->game[0] != '\0');
    if (strcmp(c->check, "quick") == 0 &&
        !(bt_test_light() && c->reach > 0)) {
        q = bt_test_quotient(c->game, (size_t)c->upto, 0);
        if ((long)bt_quotient_order(q) != c->order)
            fail_msg("%s: %s to %ld has order %zu, published %ld", name,
                     c->game, c->upto, bt_quotient_order(q), c->order);
        print_message("%s: %s to %ld has order %zu, as published\n", name,
                      c->game, c->upto, bt_quotient_order(q));
    } else {
        /* Q(A) is the image of the submonoid of Q(A') that A generates
           (A within A'): sums told apart by A are told apart by A'. */
        assert_true(c->reach >= 1 && c->reach < c->upto);
        q = bt_test_quotient(c->game, (size_t)c->reach, 0);
        if ((long)bt_quotient_order(q) > c->order)
            fail_msg("%s: %s to %ld has order %zu, more than the %ld "
                     "published for heaps up to %ld",
                     name, c->game, c->reach, bt_quotient_order(q), c->order,
                     c->upto);
        print_message("%s: %s to %ld has order %zu (published: %ld to %ld)\n",
                      name, c->game, c->reach, bt_quotient_order(q), c->order,
                      c->upto);
    }
    bt_quotient_free(q);
}

typedef struct unique_ud {
    bmon first;
    char first_code[16];
    size_t games, seen;
} unique_ud;

/* The bound of a scan: under valgrind (bt_test_light) at most 8. */
static long
scan_bound(const mcase *c)
{
    return bt_test_light() && c->upto > 8 ? 8 : c->upto;
}

static void
unique_code(const mcase *c, const char *code, void *p)
{
    unique_ud *u = p;
    long n;
    int counted = 0;
    for (n = 1; n <= scan_bound(c); n++) {
        bt_quotient *q = try_quotient(code, (size_t)n);
        bmon m;
        if (q == NULL)
            return;
        if ((long)bt_quotient_order(q) != c->order) {
            bt_quotient_free(q);
            continue;
        }
        bmon_of_quotient(&m, q);
        bt_quotient_free(q);
        u->seen++;
        if (u->games == 0) {
            u->first = m;
            snprintf(u->first_code, sizeof u->first_code, "%s", code);
        } else {
            if (!isomorphic(&m, &u->first))
                fail_msg("the quotient of order %ld of octal:%s to %ld is "
                         "not isomorphic to that of octal:%s",
                         c->order, code, n, u->first_code);
            bmon_free(&m);
        }
        if (!counted) {
            u->games++;
            counted = 1;
        }
    }
}

static void
check_unique(const mcase *c, const char *name)
{
    unique_ud u;
    memset(&u, 0, sizeof u);
    assert_true(c->order > 0 && c->least >= 2);
    each_code(c, unique_code, &u);
    if ((long)u.games < (bt_test_light() ? 1 : c->least))
        fail_msg("%s: only %zu games give a quotient of order %ld", name,
                 u.games, c->order);
    print_message("%s: %zu quotients of order %ld from %zu games, all "
                  "isomorphic\n",
                  name, u.seen, c->order, u.games);
    bmon_free(&u.first);
}

static void
tame_code(const mcase *c, const char *code, void *p)
{
    size_t *count = p;
    bt_quotient *q = try_quotient(code, (size_t)scan_bound(c));
    bmon m, nim;
    size_t ord;
    unsigned k = 0;
    if (q == NULL)
        fail_msg("octal:%s to %ld: beyond the test's budget", code,
                 scan_bound(c));
    ord = bt_quotient_order(q);
    if (!bt_quotient_is_tame(q))
        fail_msg("octal:%s to %ld: order %zu, not tame", code, scan_bound(c),
                 ord);
    bmon_of_quotient(&m, q);
    bt_quotient_free(q);
    if (ord > 2)
        while (k < 20 && ((size_t)1 << k) + 2 != ord)
            k++;
    if (ord != 1) {
        if (ord > 2 && k == 20)
            fail_msg("octal:%s to %ld: order %zu is not 2^k + 2", code,
                     scan_bound(c), ord);
        bmon_misere_nim(&nim, ord == 2 ? 0 : k);
        if (!isomorphic(&m, &nim))
            fail_msg("octal:%s to %ld: not isomorphic to misère Nim's "
                     "quotient of order %zu",
                     code, scan_bound(c), ord);
        bmon_free(&nim);
    }
    bmon_free(&m);
    (*count)++;
}

static void
check_tame(const mcase *c, const char *name)
{
    size_t count = 0;
    each_code(c, tame_code, &count);
    assert_true(count > 0);
    print_message("%s: %zu codes, all tame to %ld\n", name, count,
                  scan_bound(c));
}

static void
check_case(const char *dir, const char *file)
{
    char path[1024];
    mcase c;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (mcase_load(&c, path) != 0)
        fail_msg("malformed case file %s", file);
    if (strcmp(c.claim, "order") == 0)
        check_order(&c, file);
    else if (strcmp(c.claim, "unique") == 0)
        check_unique(&c, file);
    else if (strcmp(c.claim, "tame") == 0)
        check_tame(&c, file);
    else
        fail_msg("%s: unknown claim %s", file, c.claim);
}

/* ---------------------------------------------------------------- tests */

static void
test_published(void **state)
{
    DIR *d = opendir(BT_TEST_CASES);
    struct dirent *e;
    int count = 0;
    (void)state;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "misere_", 7) != 0)
            continue;
        check_case(BT_TEST_CASES, e->d_name);
        count++;
    }
    closedir(d);
    assert_true(count >= 4);
}

/* The isomorphism test itself: it tells 0.75's quotient of order 8 from
   misère Nim's of order 10 and from a relabelled copy with P changed, and
   finds the identity and a relabelling. */
static void
test_isomorphism(void **state)
{
    bt_quotient *q = bt_test_quotient("octal:0.75", 12, 0);
    bmon a, b, nim;
    size_t x, y, *perm;
    (void)state;
    bmon_of_quotient(&a, q);
    bt_quotient_free(q);
    assert_int_equal(a.n, 8);
    assert_true(isomorphic(&a, &a));
    /* b: a with the elements 1..n-1 renumbered in reverse */
    perm = malloc(a.n * sizeof *perm);
    assert_non_null(perm);
    perm[0] = 0;
    for (x = 1; x < a.n; x++)
        perm[x] = a.n - x;
    b = a;
    b.mul = malloc(a.n * a.n * sizeof *b.mul);
    b.isp = malloc(a.n);
    assert_non_null(b.mul);
    assert_non_null(b.isp);
    for (x = 0; x < a.n; x++) {
        b.isp[perm[x]] = a.isp[x];
        for (y = 0; y < a.n; y++)
            b.mul[perm[x] * a.n + perm[y]] = perm[a.mul[x * a.n + y]];
    }
    for (x = 0; x < a.ngen; x++)
        b.gen[x] = perm[a.gen[x]];
    assert_true(isomorphic(&a, &b));
    assert_true(isomorphic(&b, &a));
    /* moving one element out of P breaks it */
    for (x = 0; x < a.n && !b.isp[x]; x++)
        ;
    assert_true(x < a.n);
    b.isp[x] = 0;
    assert_false(isomorphic(&a, &b));
    bmon_misere_nim(&nim, 3);
    assert_false(isomorphic(&a, &nim));
    bmon_free(&nim);
    /* misère Nim's quotient of heaps up to 3 against Bouton's rule */
    q = bt_test_quotient("nim", 3, 0);
    bmon_free(&b);
    bmon_of_quotient(&b, q);
    bt_quotient_free(q);
    bmon_misere_nim(&nim, 2);
    assert_true(isomorphic(&b, &nim));
    bmon_free(&nim);
    bmon_free(&b);
    bmon_free(&a);
    free(perm);
}

/* No two elements are one class, by brute force: Dawson's Kayles to 14
   (order 24, as to 20, the bound compared with Siegel's figure above:
   orders only grow with the bound), 0.75 to 12, Kayles to 12. */
static void
test_distinct(void **state)
{
    static const struct {
        const char *spec;
        unsigned n, light_n;
        size_t reps;
    } cases[] = {
        {"octal:0.07", 14, 14, 4},
        {"octal:0.75", 12, 12, 3},
        {"kayles", 12, 9, 4},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned n = bt_test_light() ? cases[i].light_n : cases[i].n;
        bt_quotient *q = bt_test_quotient(cases[i].spec, n, 0);
        bt_test_quotient_distinct(q, cases[i].spec, n, cases[i].reps);
        bt_quotient_free(q);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isomorphism),
        cmocka_unit_test(test_distinct),
        cmocka_unit_test(test_published),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
