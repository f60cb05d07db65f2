/*
 * testutil.c -- see testutil.h.
 */
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <bouton.h>

#include "testutil.h"

#include "oracle_heap.h"
#include "oracle_search.h"
#include "oracle_wythoff.h"

static unsigned long long first = 20261122ULL, state_ = 20261122ULL;

int
bt_test_setup(void **state)
{
    const char *env = getenv("BT_TEST_SEED");
    (void)state;
    first = env ? strtoull(env, NULL, 10) : 20261122ULL;
    state_ = first;
    return 0;
}

unsigned long long
bt_test_seed(void)
{
    return first;
}

unsigned
bt_test_rnd(unsigned n)
{
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((state_ >> 33) % n);
}

bt_game *
bt_test_game(const char *spec)
{
    bt_game *g = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_game_new(&g, spec, &d) != BT_OK)
        fail_msg("bt_game_new(%s): %s", spec, d.message);
    return g;
}

void
bt_test_game_refused(const char *text, const char *msg, long offset)
{
    bt_game *g = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_game_new(&g, text, &d) != BT_EPARSE)
        fail_msg("%s: accepted", text);
    assert_null(g);
    if (strstr(d.message, msg) == NULL)
        fail_msg("%s: message '%s' lacks '%s'", text, d.message, msg);
    assert_null(strchr(d.message, '\n'));
    if (offset >= 0 && (!d.has_offset || (long)d.offset != offset))
        fail_msg("%s: offset %zu, expected %ld", text, d.offset, offset);
}

bt_game *
bt_test_gamef(const char *fmt, ...)
{
    char spec[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(spec, sizeof spec, fmt, ap);
    va_end(ap);
    return bt_test_game(spec);
}

bt_position *
bt_test_parse(const char *text, const char *game, const bt_limits *lim)
{
    bt_position *p = NULL;
    bt_game *g = game != NULL ? bt_test_game(game) : NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_position_parse(&p, text, g, lim, &d) != BT_OK) {
        bt_game_free(g);
        fail_msg("parse '%s': %s", text, d.message);
    }
    bt_game_free(g);
    return p;
}

int
bt_test_light(void)
{
    const char *env = getenv("BT_TEST_LIGHT");
    return env != NULL && *env != '\0' && strcmp(env, "0") != 0;
}

double
bt_test_cpu_bound(double seconds)
{
    const char *env = getenv("BT_TEST_CPU_SCALE");
    double scale = 1.0;
#if defined(__SANITIZE_ADDRESS__)
    scale = 5.0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    scale = 5.0;
#endif
#endif
    if (bt_test_light())
        scale = 30.0;
    if (env != NULL && *env != '\0') {
        char *end;
        double extra = strtod(env, &end);
        if (*end == '\0' && extra >= 1.0 && extra <= 1000.0)
            scale *= extra;
    }
    return seconds * scale;
}

void
bt_test_each_position(const char *fmt, int nums, int below,
                      void (*visit)(void *ud, const bt_test_pos *at),
                      void *ud)
{
    int misere;
    assert_true(nums >= 1 && nums <= 5);
    for (misere = 0; misere < 2; misere++) {
        oracle_search *o = oracle_search_new(misere);
        int v[5] = {0}, i;
        assert_non_null(o);
        for (;;) {
            char text[160];
            bt_test_pos at;
            snprintf(text, sizeof text, fmt, v[0], v[1], v[2], v[3], v[4]);
            at.text = text;
            at.p = bt_test_parse(text, "nim", NULL);
            at.misere = misere;
            at.oracle = o;
            visit(ud, &at);
            bt_position_free(at.p);
            for (i = 0; i < nums && ++v[i] == below; i++)
                v[i] = 0;
            if (i == nums)
                break;
        }
        oracle_search_free(o);
    }
}

void
bt_test_list_add(bt_test_list *l, size_t comp, const unsigned *parts,
                 size_t n)
{
    size_t i, len, size = sizeof l->items[0];
    assert_true(l->n < sizeof l->items / sizeof l->items[0]);
    len = (size_t)snprintf(l->items[l->n], size, "%zu:", comp);
    if (n == 0)
        snprintf(l->items[l->n] + len, size - len, "-");
    for (i = 0; i < n; i++)
        len += (size_t)snprintf(l->items[l->n] + len, size - len, "%s%u",
                                i ? "," : "", parts[i]);
    l->n++;
}

static int
cmp_uint(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

void
bt_test_list_add_move(bt_test_list *l, const bt_move *m)
{
    unsigned parts[3];
    size_t j;
    assert_true(m->nto <= 3);
    for (j = 0; j < m->nto; j++)
        parts[j] = (unsigned)mpz_get_ui(m->to[j]);
    qsort(parts, m->nto, sizeof *parts, cmp_uint);
    bt_test_list_add(l, m->component, parts, m->nto);
}

static int
cmp_items(const void *a, const void *b)
{
    return strcmp(a, b);
}

void
bt_test_list_check(bt_test_list *want, bt_test_list *got, const char *what)
{
    size_t i, size = sizeof want->items[0];
    qsort(want->items, want->n, size, cmp_items);
    qsort(got->items, got->n, size, cmp_items);
    for (i = 0; i < want->n && i < got->n; i++)
        if (strcmp(want->items[i], got->items[i]) != 0)
            fail_msg("%s: move %s, the oracle has %s", what, got->items[i],
                     want->items[i]);
    if (want->n != got->n)
        fail_msg("%s: %zu moves, the oracle has %zu", what, got->n, want->n);
}

bt_sequence *
bt_test_sequence(const char *spec, bt_seq_method m, size_t n)
{
    bt_game *g = bt_test_game(spec);
    bt_sequence *s = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_sequence_new(&s, g, m, &d), BT_OK);
    bt_game_free(g); /* the sequence holds its own reference */
    if (bt_sequence_compute(s, n, NULL, &d) != BT_OK)
        fail_msg("compute(%s, %zu): %s", spec, n, d.message);
    assert_int_equal(bt_sequence_length(s), n);
    return s;
}

void
bt_test_methods_agree(const char *spec, size_t n)
{
    bt_sequence *p = bt_test_sequence(spec, BT_SEQ_PLAIN, n);
    bt_sequence *r = bt_test_sequence(spec, BT_SEQ_RARE, n);
    bt_sequence *a = bt_test_sequence(spec, BT_SEQ_AUTO, n);
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned v = bt_sequence_value(p, i);
        if (bt_sequence_value(r, i) != v || bt_sequence_value(a, i) != v)
            fail_msg("%s: G(%zu) plain %u, rare %u, auto %u", spec, i, v,
                     bt_sequence_value(r, i), bt_sequence_value(a, i));
    }
    bt_sequence_free(p);
    bt_sequence_free(r);
    bt_sequence_free(a);
}

int
bt_test_each_case(const char *dir,
                  void (*f)(const oh_case *c, const char *name))
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int count = 0;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        char path[1024];
        oh_case c;
        if (strncmp(e->d_name, "grundy_", 7) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (oh_case_load(&c, path) != 0)
            fail_msg("malformed case file %s", e->d_name);
        f(&c, e->d_name);
        oh_case_free(&c);
        count++;
    }
    closedir(d);
    return count;
}

void
bt_test_proves_case(bt_sequence *s, const oh_case *c, const char *name,
                    size_t limit)
{
    size_t p, pre;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_sequence_prove(s, limit, NULL, &d) != BT_OK)
        fail_msg("%s: %s", name, d.message);
    if (!bt_sequence_is_proved(s))
        fail_msg("%s: not proved within %zu values", name,
                 bt_sequence_length(s));
    assert_true(bt_sequence_period(s, &p, &pre));
    if ((long)p != c->period || (long)pre != c->preperiod)
        fail_msg("%s: period %zu preperiod %zu, published %ld %ld", name, p,
                 pre, c->period, c->preperiod);
}

bt_quotient *
bt_test_quotient(const char *spec, size_t n, int until_proved)
{
    return bt_test_quotient_search(spec, n, until_proved, 2000000, 0);
}

/* The quotient of spec's heaps up to n within the limits; NULL on
   BT_ELIMIT or BT_EINTR when limit_ok, else a failed test on any error. */
static bt_quotient *
quotient_within(const char *spec, size_t n, int until_proved,
                const bt_limits *lim, int limit_ok)
{
    bt_game *g = bt_test_game(spec);
    bt_quotient *q = NULL;
    bt_diag d;
    bt_status st;
    memset(&d, 0, sizeof d);
    st = until_proved ? bt_quotient_new_until_proved(&q, g, n, lim, &d)
                      : bt_quotient_new(&q, g, n, lim, &d);
    bt_game_free(g);
    if ((st == BT_ELIMIT || st == BT_EINTR) && limit_ok)
        return NULL;
    if (st != BT_OK)
        fail_msg("%s to %zu: %s", spec, n, d.message);
    return q;
}

bt_quotient *
bt_test_quotient_search(const char *spec, size_t n, int until_proved,
                        size_t max_search, size_t max_memory)
{
    bt_limits lim;
    bt_limits_default(&lim);
    lim.max_search = max_search;
    if (max_memory != 0)
        lim.max_memory = max_memory;
    return quotient_within(spec, n, until_proved, &lim, 0);
}

/* Interrupts a computation past its deadline (CPU seconds of the
   process, so that a loaded machine does not change what is skipped). */
static int
past_deadline(void *ud)
{
    return clock() > *(const clock_t *)ud;
}

bt_quotient *
bt_test_quotient_within(const char *spec, size_t n, size_t max_search,
                        size_t max_order, double max_seconds)
{
    bt_limits lim;
    clock_t deadline = clock() + (clock_t)(max_seconds * CLOCKS_PER_SEC);
    bt_limits_default(&lim);
    lim.max_search = max_search;
    lim.max_table_piles = max_order;
    lim.interrupt = past_deadline;
    lim.interrupt_ud = &deadline;
    return quotient_within(spec, n, 0, &lim, 1);
}

size_t
bt_test_quotient_sum(const bt_quotient *q, const unsigned *h, size_t k)
{
    size_t x = 0, i;
    for (i = 0; i < k; i++)
        x = bt_quotient_mul(q, x, bt_quotient_heap(q, h[i]));
    return x;
}

size_t
bt_test_quotient_against_brute(const bt_quotient *q, const char *spec,
                               unsigned lo, unsigned hi, unsigned total)
{
    oh_game *og = oh_game_new(spec);
    oh_misere *br;
    unsigned h[3];
    size_t count = 0;
    mpz_t z;
    assert_non_null(og);
    mpz_init(z);
    br = oh_misere_new(og);
    assert_non_null(br);
    for (h[0] = lo; h[0] <= hi; h[0]++)
        for (h[1] = 0; h[1] <= h[0] && h[0] + h[1] <= total; h[1]++)
            for (h[2] = 0; h[2] <= h[1] && h[0] + h[1] + h[2] <= total;
                 h[2]++) {
                int want = oh_misere_is_p(br, h, 3), got;
                size_t x = 0, i;
                for (i = 0; i < 3; i++) { /* through the period past upto */
                    mpz_set_ui(z, h[i]);
                    x = bt_quotient_mul(q, x, bt_quotient_heap_at(q, z));
                }
                got = bt_quotient_is_p(q, x);
                assert_true(want >= 0);
                if (want != got)
                    fail_msg("%s to %zu: heaps %u %u %u: the quotient says "
                             "%s, brute force %s",
                             spec, bt_quotient_upto(q), h[0], h[1], h[2],
                             got ? "P" : "N", want ? "P" : "N");
                count++;
            }
    mpz_clear(z);
    oh_misere_free(br);
    oh_game_free(og);
    return count;
}

int
bt_test_next_multiset(unsigned *h, size_t k, unsigned n)
{
    size_t i, j;
    for (i = k; i-- > 0;)
        if (h[i] < n) {
            h[i]++;
            for (j = i + 1; j < k; j++)
                h[j] = h[i];
            return 1;
        }
    return 0;
}

void
bt_test_quotient_distinct(const bt_quotient *q, const char *spec, unsigned n,
                          size_t reps)
{
    oh_game *og = oh_game_new(spec);
    oh_misere *b = oh_misere_new(og);
    size_t ord = bt_quotient_order(q), found = 0, x, y, i;
    unsigned (*rep)[8] = calloc(ord, sizeof *rep);
    unsigned h[8] = {0};
    unsigned char *have = calloc(ord, 1);
    assert_non_null(og);
    assert_non_null(b);
    assert_non_null(rep);
    assert_non_null(have);
    assert_true(reps <= 5);
    do {
        unsigned tot = 0, rtot = 0;
        x = bt_test_quotient_sum(q, h, reps);
        for (i = 0; i < reps; i++) {
            tot += h[i];
            rtot += rep[x][i];
        }
        if (!have[x] || tot < rtot) {
            found += !have[x];
            have[x] = 1;
            memcpy(rep[x], h, sizeof h);
        }
    } while (bt_test_next_multiset(h, reps, n));
    if (found < ord)
        fail_msg("%s to %u: %zu of %zu elements have a sum of %zu heaps", spec,
                 n, found, ord, reps);
    for (x = 0; x < ord; x++)
        for (y = x + 1; y < ord; y++) {
            unsigned t[3] = {0, 0, 0}, w[3] = {0, 0, 0}, g[8], k[8];
            unsigned best = UINT_MAX;
            int apart = 0, tried = 0;
            /* The witness the engine's quotient proposes: the sum X of
               fewest counters whose element separates x and y by P.  Only
               a proposal: the oracle below decides, and when it does not
               confirm it every X is tried in turn, as if none had been
               proposed (so the check stays the oracle's alone; the
               proposal saves it the positions of the X that fail). */
            do {
                size_t e = bt_test_quotient_sum(q, t, 3);
                if (bt_quotient_is_p(q, bt_quotient_mul(q, x, e)) !=
                        bt_quotient_is_p(q, bt_quotient_mul(q, y, e)) &&
                    t[0] + t[1] + t[2] < best) {
                    best = t[0] + t[1] + t[2];
                    memcpy(w, t, sizeof w);
                }
            } while (bt_test_next_multiset(t, 3, n));
            memset(t, 0, sizeof t);
            if (best != UINT_MAX)
                memcpy(t, w, sizeof t);
            do {
                memcpy(g, rep[x], reps * sizeof *g);
                memcpy(k, rep[y], reps * sizeof *k);
                for (i = 0; i < 3; i++)
                    g[reps + i] = k[reps + i] = t[i];
                apart = oh_misere_is_p(b, g, reps + 3) !=
                        oh_misere_is_p(b, k, reps + 3);
                if (!apart && !tried++)
                    memset(t, 0, sizeof t); /* not confirmed: every X */
                else if (!apart && !bt_test_next_multiset(t, 3, n))
                    break;
            } while (!apart);
            if (!apart)
                fail_msg("%s to %u: elements %s and %s: no sum of three "
                         "heaps tells them apart",
                         spec, n, bt_quotient_word(q, x),
                         bt_quotient_word(q, y));
        }
    print_message("%s, heaps up to %u: the %zu elements are told apart by "
                  "brute force\n",
                  spec, n, ord);
    free(rep);
    free(have);
    oh_misere_free(b);
    oh_game_free(og);
}

void
bt_test_wythoff_pairs(int a, int misere, long count, long below)
{
    bt_game *g = bt_test_gamef("wythoff:%d", a);
    long n, v;
    long *lo = malloc((size_t)count * sizeof *lo);
    long *hi = malloc((size_t)count * sizeof *hi);
    long *idx;
    mpz_t zn, zl, zh, zx;
    bt_wythoff_member mem;
    assert_true(lo != NULL && hi != NULL);
    assert_int_equal(oracle_wythoff_pairs(count, a, misere, lo, hi), 0);
    if (below > hi[count - 1])
        below = hi[count - 1];
    mpz_inits(zn, zl, zh, zx, NULL);
    for (n = 0; n < count; n++) {
        mpz_set_si(zn, n);
        assert_int_equal(bt_wythoff_pair(zl, zh, g, misere, zn, NULL, NULL),
                         BT_OK);
        if (mpz_cmp_si(zl, lo[n]) != 0 || mpz_cmp_si(zh, hi[n]) != 0)
            fail_msg("a=%d %s pair %ld: (%ld, %ld) by mex, closed form "
                     "(%lu, %lu)",
                     a, misere ? "misere" : "normal", n, lo[n], hi[n],
                     mpz_get_ui(zl), mpz_get_ui(zh));
    }
    idx = malloc((size_t)(hi[count - 1] + 1) * sizeof *idx);
    assert_non_null(idx);
    for (v = 0; v <= hi[count - 1]; v++)
        idx[v] = -1;
    for (n = 0; n < count; n++)
        idx[lo[n]] = idx[hi[n]] = n;
    for (v = 0; v < below; v++) {
        if (idx[v] < 0) {
            /* in a pair beyond count, so above the last lower number */
            assert_true(v > lo[count - 1]);
            continue;
        }
        mpz_set_si(zx, v);
        assert_int_equal(
            bt_wythoff_index_of(zn, &mem, zl, zh, g, misere, zx, NULL, NULL),
            BT_OK);
        if (mpz_cmp_si(zn, idx[v]) != 0 ||
            mem != (v == lo[idx[v]] ? BT_WYTHOFF_LOWER : BT_WYTHOFF_UPPER) ||
            mpz_cmp_si(zl, lo[idx[v]]) != 0 || mpz_cmp_si(zh, hi[idx[v]]))
            fail_msg("a=%d %s index_of(%ld): n=%lu member %d, want n=%ld", a,
                     misere ? "misere" : "normal", v, mpz_get_ui(zn), (int)mem,
                     idx[v]);
    }
    mpz_clears(zn, zl, zh, zx, NULL);
    free(idx);
    free(lo);
    free(hi);
    bt_game_free(g);
}

size_t
bt_test_load_terms(const char *path, const char *key, unsigned long *v,
                   size_t cap)
{
    char line[4096], *p, *end;
    size_t n = 0, klen = strlen(key);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, klen) == 0 && line[klen] == ' ')
            for (p = line + klen; n < cap; p = end) {
                unsigned long x = strtoul(p, &end, 10);
                if (end == p)
                    break;
                v[n++] = x;
            }
    fclose(f);
    assert_true(n > 0);
    return n;
}

void
bt_test_quotients_same(const char *what, const bt_quotient *a,
                       const bt_quotient *b)
{
    size_t o = bt_quotient_order(a), x, y, i, n = bt_quotient_upto(a);
    if (o != bt_quotient_order(b))
        fail_msg("%s to %zu: order %zu against %zu", what, n, o,
                 bt_quotient_order(b));
    assert_int_equal(bt_quotient_upto(b), n);
    assert_int_equal(bt_quotient_p_count(a), bt_quotient_p_count(b));
    for (x = 0; x < o; x++) {
        assert_int_equal(bt_quotient_is_p(a, x), bt_quotient_is_p(b, x));
        assert_string_equal(bt_quotient_word(a, x), bt_quotient_word(b, x));
        for (y = 0; y < o; y++)
            if (bt_quotient_mul(a, x, y) != bt_quotient_mul(b, x, y))
                fail_msg("%s to %zu: %zu * %zu differs", what, n, x, y);
    }
    for (i = 0; i <= n; i++)
        assert_int_equal(bt_quotient_heap(a, i), bt_quotient_heap(b, i));
    assert_int_equal(bt_quotient_generator_count(a),
                     bt_quotient_generator_count(b));
    for (i = 0; i < bt_quotient_generator_count(a); i++)
        assert_int_equal(bt_quotient_generator_heap(a, i),
                         bt_quotient_generator_heap(b, i));
    assert_int_equal(bt_quotient_relation_count(a),
                     bt_quotient_relation_count(b));
    for (i = 0; i < bt_quotient_relation_count(a); i++)
        assert_string_equal(bt_quotient_relation(a, i),
                            bt_quotient_relation(b, i));
    assert_int_equal(bt_quotient_is_tame(a), bt_quotient_is_tame(b));
}
