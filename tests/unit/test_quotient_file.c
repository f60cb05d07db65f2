/* label: quick
 *
 * test_quotient_file.c -- saving and loading misère quotients
 * (bt_quotient_save, bt_quotient_load, bt_quotient_install; docs/
 * misere.md, "Saving a quotient").
 *
 *   - A saved quotient loads back as the same quotient: order, P, the
 *     heap map, the table, the period, and the presentation computed
 *     again (0.75, 0.52, sub:1-3 proved periodic; Kayles and Nim to a
 *     bound).
 *   - The load never trusts the text: every single P bit flipped, every
 *     table entry changed (alone, and with its mirror so that the table
 *     stays commutative), every heap's element changed, another game
 *     named, the period changed, and every truncation are refused, with
 *     EPARSE for a malformed text and EINVAL for a well-formed wrong one.
 *   - A correct but non-minimal table (a refinement of the quotient) is
 *     refused: the quotient is the coarsest.
 *   - An installed quotient answers the analysis of heaps of 10^12
 *     counters with the outcome its own product gives.
 */
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

static void
same_quotient(const bt_quotient *a, const bt_quotient *b, const char *what)
{
    size_t x, y, pa = 0, qa = 0, pb = 0, qb = 0;
    int ra, rb;
    if (bt_quotient_upto(a) != bt_quotient_upto(b) ||
        bt_quotient_order(a) != bt_quotient_order(b) ||
        bt_quotient_p_count(a) != bt_quotient_p_count(b) ||
        bt_quotient_is_tame(a) != bt_quotient_is_tame(b) ||
        strcmp(bt_game_spec(bt_quotient_game(a)),
               bt_game_spec(bt_quotient_game(b))) != 0)
        fail_msg("%s: the loaded quotient differs", what);
    ra = bt_quotient_period(a, &pa, &qa);
    rb = bt_quotient_period(b, &pb, &qb);
    if (ra != rb || pa != pb || qa != qb)
        fail_msg("%s: the period differs", what);
    for (x = 0; x < bt_quotient_order(a); x++) {
        if (bt_quotient_is_p(a, x) != bt_quotient_is_p(b, x) ||
            strcmp(bt_quotient_word(a, x), bt_quotient_word(b, x)) != 0)
            fail_msg("%s: element %zu differs", what, x);
        for (y = 0; y < bt_quotient_order(a); y++)
            if (bt_quotient_mul(a, x, y) != bt_quotient_mul(b, x, y))
                fail_msg("%s: %zu * %zu differs", what, x, y);
    }
    for (x = 0; x <= bt_quotient_upto(a); x++)
        if (bt_quotient_heap(a, x) != bt_quotient_heap(b, x))
            fail_msg("%s: heap %zu differs", what, x);
    if (bt_quotient_relation_count(a) != bt_quotient_relation_count(b))
        fail_msg("%s: the relations differ", what);
    for (x = 0; x < bt_quotient_relation_count(a); x++)
        if (strcmp(bt_quotient_relation(a, x), bt_quotient_relation(b, x)))
            fail_msg("%s: relation %zu differs", what, x);
}

static char *
save(const bt_quotient *q)
{
    char *text = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_quotient_save(&text, q, &d) != BT_OK)
        fail_msg("save: %s", d.message);
    return text;
}

/* Loads text, expecting status want; returns the quotient when BT_OK. */
static bt_quotient *
load(const char *text, size_t len, bt_status want, const char *what)
{
    bt_quotient *q = NULL;
    bt_diag d;
    bt_status st;
    memset(&d, 0, sizeof d);
    st = bt_quotient_load(&q, text, len, NULL, &d);
    if (st != want)
        fail_msg("%s: load gave %s (%s), want %s", what, bt_status_name(st),
                 d.message, bt_status_name(want));
    if (st != BT_OK && (q != NULL || d.message[0] == '\0' ||
                        strchr(d.message, '\n') != NULL))
        fail_msg("%s: a refusal without one line of message", what);
    return q;
}

/* The offset of the line that starts with key (at a line start). */
static char *
line_of(char *text, const char *key)
{
    char *p = text;
    size_t n = strlen(key);
    for (;;) {
        if (strncmp(p, key, n) == 0)
            return p;
        p = strchr(p, '\n');
        assert_non_null(p);
        p++;
    }
}

/* The numbers of the table's line x (after "table\n"). */
static char *
table_row(char *text, size_t x)
{
    char *p = line_of(text, "table\n") + 6;
    while (x-- > 0)
        p = strchr(p, '\n') + 1;
    return p;
}

/* Rewrites entry y of the row starting at p to v (a copy of text). */
static char *
set_entry(const char *text, size_t off, size_t y, unsigned v)
{
    size_t len = strlen(text), i = off, k;
    char *out = malloc(len + 16);
    assert_non_null(out);
    for (k = 0; k < y; k++)
        i = (size_t)(strchr(text + i, ' ') - text) + 1;
    k = i + strspn(text + i, "0123456789");
    memcpy(out, text, i);
    sprintf(out + i, "%u", v);
    strcat(out, text + k);
    return out;
}

static void
round_trip(const char *spec, size_t n, int until)
{
    bt_quotient *q = bt_test_quotient(spec, n, until), *r;
    char *text = save(q);
    r = load(text, strlen(text), BT_OK, spec);
    same_quotient(q, r, spec);
    bt_quotient_free(r);
    bt_quotient_free(q);
    free(text);
}

static void
test_round_trip(void **state)
{
    (void)state;
    round_trip("octal:0.75", 100, 1);
    round_trip("octal:0.52", 100, 1);
    round_trip("sub:1-3", 100, 1);
    round_trip("kayles", 12, 0);
    round_trip("nim", 7, 0);
    round_trip("dawsons-kayles", 10, 0);
}

/* Every single change of P, of a table entry (alone and mirrored), and of
   a heap's element is refused (EINVAL), and so is every truncation. */
static void
tampered(const char *spec, size_t n, int until)
{
    bt_quotient *q = bt_test_quotient(spec, n, until);
    char *text = save(q), *t, what[96];
    size_t ord = bt_quotient_order(q), x, y, z, len = strlen(text);
    for (x = 0; x < ord; x++) {
        /* P with x flipped */
        char line[4096] = "p";
        for (y = 0; y < ord; y++)
            if ((bt_quotient_is_p(q, y) != 0) != (y == x))
                sprintf(line + strlen(line), " %zu", y);
        t = malloc(len + 16);
        assert_non_null(t);
        y = (size_t)(line_of(text, "p ") - text);
        memcpy(t, text, y);
        sprintf(t + y, "%s%s", line, strchr(text + y, '\n'));
        snprintf(what, sizeof what, "%s: P bit %zu flipped", spec, x);
        load(t, strlen(t), BT_EINVAL, what);
        free(t);
    }
    for (x = 0; x < ord; x++)
        for (y = 0; y < ord; y++)
            for (z = 0; z < ord; z++) {
                char *u;
                if (z == bt_quotient_mul(q, x, y))
                    continue;
                t = set_entry(text, (size_t)(table_row(text, x) - text), y,
                              (unsigned)z);
                snprintf(what, sizeof what, "%s: %zu * %zu = %zu", spec, x,
                         y, z);
                load(t, strlen(t), BT_EINVAL, what);
                if (x != y) {
                    u = set_entry(t, (size_t)(table_row(t, y) - t), x,
                                  (unsigned)z);
                    snprintf(what, sizeof what, "%s: %zu * %zu = %zu both "
                             "ways", spec, x, y, z);
                    load(u, strlen(u), BT_EINVAL, what);
                    free(u);
                }
                free(t);
            }
    for (x = 0; x <= bt_quotient_upto(q); x++)
        for (z = 0; z < ord; z++) {
            if (z == bt_quotient_heap(q, x))
                continue;
            t = set_entry(text, (size_t)(line_of(text, "heaps ") - text) + 6,
                          x, (unsigned)z);
            snprintf(what, sizeof what, "%s: heap %zu = %zu", spec, x, z);
            load(t, strlen(t), BT_EINVAL, what);
            free(t);
        }
    for (x = 0; x < len; x++) {
        snprintf(what, sizeof what, "%s: truncated to %zu bytes", spec, x);
        load(text, x, BT_EPARSE, what);
    }
    bt_quotient_free(q);
    free(text);
}

static void
test_tampered(void **state)
{
    (void)state;
    tampered("octal:0.75", 100, 1);
    tampered("sub:1-3", 100, 1);
    if (!bt_test_light())
        tampered("kayles", 6, 0);
}

static void
test_foreign(void **state)
{
    bt_quotient *q = bt_test_quotient("octal:0.75", 100, 1);
    char *text = save(q), *t = malloc(strlen(text) + 64), *p;
    (void)state;
    assert_non_null(t);
    /* another game's rules over 0.75's tables */
    p = strstr(text, "octal:0.75");
    sprintf(t, "%.*soctal:0.77%s", (int)(p - text), text, p + 10);
    load(t, strlen(t), BT_EINVAL, "0.75's quotient named Kayles");
    sprintf(t, "%.*ssub:1-3%s", (int)(p - text), text, p + 10);
    load(t, strlen(t), BT_EINVAL, "0.75's quotient named sub:1-3");
    /* not a heap game; not canonical; not a game */
    sprintf(t, "%.*swythoff%s", (int)(p - text), text, p + 10);
    load(t, strlen(t), BT_EINVAL, "wythoff");
    sprintf(t, "%.*skayles%s", (int)(p - text), text, p + 10);
    load(t, strlen(t), BT_EPARSE, "an alias");
    sprintf(t, "%.*soctal:0.9%s", (int)(p - text), text, p + 10);
    load(t, strlen(t), BT_EPARSE, "not a game");
    /* the period: another, none, or one not proved */
    p = strstr(text, "period 2 8");
    assert_non_null(p);
    sprintf(t, "%.*speriod 2 9%s", (int)(p - text), text, p + 10);
    load(t, strlen(t), BT_EINVAL, "preperiod 9");
    sprintf(t, "%.*speriod 4 8%s", (int)(p - text), text, p + 10);
    load(t, strlen(t), BT_EINVAL, "period 4");
    sprintf(t, "%.*speriod none%s", (int)(p - text), text, p + 10);
    load(t, strlen(t), BT_EINVAL, "no period");
    /* text after the end, a leading zero, a sign */
    sprintf(t, "%sx\n", text);
    load(t, strlen(t), BT_EPARSE, "text after end");
    p = strstr(text, "upto 23");
    sprintf(t, "%.*supto 023%s", (int)(p - text), text, p + 7);
    load(t, strlen(t), BT_EPARSE, "a leading zero");
    sprintf(t, "%.*supto -23%s", (int)(p - text), text, p + 7);
    load(t, strlen(t), BT_EPARSE, "a sign");
    load("", 0, BT_EPARSE, "empty");
    /* numbers past the order: an element 8 of a quotient of order 8 */
    p = strstr(text, "heaps 0 1 2");
    sprintf(t, "%.*sheaps 0 1 8%s", (int)(p - text), text, p + 11);
    load(t, strlen(t), BT_EPARSE, "heap 2 = 8");
    p = strstr(text, "p 1 4");
    sprintf(t, "%.*sp 1 8%s", (int)(p - text), text, p + 5);
    load(t, strlen(t), BT_EPARSE, "P holds 8");
    p = strstr(text, "table\n0 1");
    sprintf(t, "%.*stable\n0 8%s", (int)(p - text), text, p + 9);
    load(t, strlen(t), BT_EPARSE, "0 * 1 = 8");
    free(t);
    free(text);
    bt_quotient_free(q);
}

/* Misère Nim's heaps up to 1: Q = {1, a}, a^2 = 1, P = {a}.  Z4 with P the
   odd powers answers every sum the same, but 1 and a^2 are not told
   apart: a refinement, not the quotient. */
static void
test_not_minimal(void **state)
{
    static const char z2[] = "bouton-quotient 1\ngame nim\nupto 1\norder 2\n"
                             "period none\np 1\nheaps 0 1\ntable\n0 1\n1 0\n"
                             "end\n";
    static const char z4[] = "bouton-quotient 1\ngame nim\nupto 1\norder 4\n"
                             "period none\np 1 3\nheaps 0 1\ntable\n"
                             "0 1 2 3\n1 2 3 0\n2 3 0 1\n3 0 1 2\nend\n";
    static const char z3[] = "bouton-quotient 1\ngame nim\nupto 1\norder 3\n"
                             "period none\np 1\nheaps 0 1\ntable\n"
                             "0 1 2\n1 2 0\n2 0 1\nend\n";
    bt_quotient *q;
    (void)state;
    q = load(z2, sizeof z2 - 1, BT_OK, "misère Nim to 1");
    assert_int_equal(bt_quotient_order(q), 2);
    bt_quotient_free(q);
    load(z4, sizeof z4 - 1, BT_EINVAL, "Z4: not minimal");
    load(z3, sizeof z3 - 1, BT_EINVAL, "Z3: three ones would be N");
}

/* An installed proved quotient answers heaps of 10^12 counters: the
   outcome is its own product's, the explanation says it was loaded. */
static void
test_install(void **state)
{
    bt_quotient *q = bt_test_quotient("octal:0.52", 100, 1), *r;
    char *text = save(q);
    bt_position *p;
    bt_analysis *a;
    bt_diag d;
    size_t x;
    (void)state;
    r = load(text, strlen(text), BT_OK, "0.52");
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_quotient_install(r, &d), BT_OK);
    p = bt_test_parse("octal:0.52 1000000000000 + octal:0.52 "
                      "999999999999 + octal:0.52 7",
                      NULL, NULL);
    assert_int_equal(bt_quotient_element(&x, q, p, &d), BT_OK);
    assert_int_equal(bt_analyze(&a, p, BT_MISERE | BT_EXPLAIN, NULL, &d),
                     BT_OK);
    assert_int_equal(bt_analysis_outcome(a) == BT_P,
                     bt_quotient_is_p(q, x) != 0);
    assert_non_null(strstr(bt_analysis_explanation(a),
                           "read from a saved file"));
    bt_analysis_free(a);
    bt_position_free(p);
    bt_quotient_free(q);
    free(text);
}

/* text with its bound set to upto and its heaps extended along period
   per (malloc'd); heap `bad` (0: none) is given element 0 instead. */
static char *
extended(const char *text, size_t upto, size_t per, size_t bad)
{
    const char *h = strstr(text, "\nheaps ") + 7, *end = strchr(h, '\n');
    size_t n = 0, cap = 64, i, len;
    unsigned *v = malloc(cap * sizeof *v);
    char *out, *o;
    assert_non_null(v);
    while (h < end) {
        v[n++] = (unsigned)strtoul(h, (char **)&h, 10);
        assert_true(n < cap);
    }
    out = malloc(strlen(text) + 8 * (upto + 1) + 64);
    assert_non_null(out);
    o = out;
    len = (size_t)(strstr(text, "\nupto ") - text) + 1;
    memcpy(o, text, len);
    o += len;
    o += sprintf(o, "upto %zu", upto);
    text = strchr(text + len, '\n');
    len = (size_t)(strstr(text, "\nheaps ") - text) + 1;
    memcpy(o, text, len);
    o += len;
    o += sprintf(o, "heaps");
    for (i = 0; i <= upto; i++)
        o += sprintf(o, " %u", i == bad && bad != 0 ? 0u
                               : i < n          ? v[i]
                                                : v[n - per + (i - n) % per]);
    strcpy(o, end);
    free(v);
    return out;
}

static clock_t cpu_deadline;

static int
past_deadline(void *ud)
{
    (void)ud;
    return clock() > cpu_deadline;
}

/*
 * A saved quotient that claims a period is checked up to the bound that
 * proves it, whatever bound it states (issue 26, finding 7): 0.75's,
 * proved from 23 heaps, extended along its period to 20 000 heaps took
 * 24 s and 1.6 GB to load, and to 100 000 (the largest bound) ran out of
 * memory under 4 GB.  CPU budget: well under 0.1 s for the loads here;
 * the interrupt at 20 s of CPU turns a regression into EINTR.
 */
static void
test_bounded_check(void **state)
{
    bt_quotient *q = bt_test_quotient("octal:0.75", 100, 1), *r;
    char *text = save(q), *t;
    static const size_t uptos[] = {200, 20000, 100000};
    bt_limits lim;
    bt_diag d;
    size_t k, per, pre;
    mpz_t z;
    (void)state;
    bt_limits_default(&lim);
    lim.interrupt = past_deadline;
    cpu_deadline = clock() + 20 * CLOCKS_PER_SEC;
    mpz_init(z);
    for (k = 0; k < 3; k++) {
        t = extended(text, uptos[k], 2, 0);
        memset(&d, 0, sizeof d);
        r = NULL;
        if (bt_quotient_load(&r, t, strlen(t), &lim, &d) != BT_OK)
            fail_msg("0.75 to %zu: %s", uptos[k], d.message);
        assert_int_equal(bt_quotient_upto(r), uptos[k]);
        assert_true(bt_quotient_period(r, &per, &pre));
        assert_int_equal(per, 2);
        assert_int_equal(pre, 8);
        mpz_set_ui(z, (unsigned long)uptos[k] - 1);
        assert_int_equal(bt_quotient_heap(r, uptos[k] - 1),
                         bt_quotient_heap_at(q, z));
        assert_int_equal(bt_quotient_order(r), bt_quotient_order(q));
        assert_int_equal(bt_quotient_relation_count(r),
                         bt_quotient_relation_count(q));
        bt_quotient_free(r);
        free(t);
    }
    /* a heap past the proof's bound that breaks the period is refused */
    t = extended(text, 100000, 2, 77777);
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_quotient_load(&r, t, strlen(t), &lim, &d),
                     BT_EINVAL);
    assert_non_null(strstr(d.message, "heap 77777"));
    free(t);
    /* and so is the same text claiming no period: its heaps prove one */
    t = extended(text, 100000, 2, 0);
    {
        char *p = strstr(t, "period 2 8"), *u = malloc(strlen(t) + 2);
        assert_non_null(u);
        sprintf(u, "%.*speriod none%s", (int)(p - t), t, p + 10);
        free(t);
        t = u;
    }
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_quotient_load(&r, t, strlen(t), &lim, &d),
                     BT_EINVAL);
    assert_non_null(strstr(d.message, "proved periodic with period 2"));
    free(t);
    assert_true(clock() < cpu_deadline);
    /* the check's tables count against max_memory */
    lim.max_memory = 1000;
    memset(&d, 0, sizeof d);
    assert_int_equal(bt_quotient_load(&r, text, strlen(text), &lim, &d),
                     BT_ELIMIT);
    assert_non_null(strstr(d.message, "max_memory"));
    mpz_clear(z);
    bt_quotient_free(q);
    free(text);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_tampered),
        cmocka_unit_test(test_foreign),
        cmocka_unit_test(test_not_minimal),
        cmocka_unit_test(test_install),
        cmocka_unit_test(test_bounded_check),
    };
    return cmocka_run_group_tests(tests, bt_test_setup, NULL);
}
