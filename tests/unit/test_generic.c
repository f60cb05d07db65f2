/* label: quick
 *
 * test_generic.c -- the defaults of the ruleset interface (src/generic.c)
 * on a toy ruleset defined here with only init, options and describe: the
 * subtraction game {1, 2} on one heap, and a splitting game whose move
 * takes 1 counter and may split the rest into two heaps (octal 0.4 style,
 * written from its rules).  The generic memoised mex must give Grundy
 * values equal to a brute-force mex computed here, the generic moves_to
 * exactly the options of the asked value, and a clean BT_ELIMIT past
 * max_search.  A third toy of arity 3 (a component of three numbers, a
 * move lowers one) goes through the analysis, remoteness, the computer's
 * move and tables, against a brute force from its rules.  Last, what a
 * family says it has reaches the engines: the toy saying its components
 * are heaps (BT__RS_HEAPS) gets the misère quotient of its registered
 * twin and, unsaid, a refusal; a toy Nim saying BT__RS_NIM_HEAPS gets
 * Nim's closed forms of play at sizes no search reaches.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/core/core.h"

static int splits; /* 0: subtraction {1,2}; 1: take 1 and maybe split */

static bt_status
toy_options(bt_game *g, const mpz_t *c, bt__emit emit, void *ud,
            const bt_limits *lim, bt_diag *diag)
{
    unsigned long n = mpz_get_ui(c[0]), t, a;
    bt_status st = BT_OK;
    mpz_t to[2];
    (void)g;
    (void)lim;
    (void)diag;
    mpz_init(to[0]);
    mpz_init(to[1]);
    if (!splits) {
        for (t = 1; t <= 2 && t <= n && st == BT_OK; t++) {
            mpz_set_ui(to[0], n - t);
            st = emit(ud, (const mpz_t *)to, 1);
        }
    } else if (n >= 1) {
        mpz_set_ui(to[0], n - 1);
        st = emit(ud, (const mpz_t *)to, n - 1 ? 1 : 0);
        for (a = 1; 2 * a <= n - 1 && st == BT_OK; a++) {
            if (n - 1 - a == 0)
                continue;
            mpz_set_ui(to[0], a);
            mpz_set_ui(to[1], n - 1 - a);
            st = emit(ud, (const mpz_t *)to, 2);
        }
    }
    mpz_clear(to[0]);
    mpz_clear(to[1]);
    return st;
}

static void
toy_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
             const mpz_t *to, size_t nto)
{
    (void)g, (void)c, (void)to, (void)nto;
    bt__buf_printf(out, "move in %zu", comp + 1);
}

static const bt__ruleset toy = {
    .info = {"toy", "toy", "a toy game for the tests", ""},
    .arity = 1,
    .options = toy_options,
    .describe = toy_describe,
};

/* Brute force from the same rules: G[n] by the mex, the splits by XOR. */
static void
brute(unsigned *G, unsigned upto)
{
    unsigned n, a, v;
    for (n = 0; n <= upto; n++) {
        unsigned char seen[256] = {0};
        if (!splits) {
            if (n >= 1)
                seen[G[n - 1]] = 1;
            if (n >= 2)
                seen[G[n - 2]] = 1;
        } else if (n >= 1) {
            seen[G[n - 1]] = 1;
            for (a = 1; 2 * a <= n - 1; a++)
                if (n - 1 - a > 0)
                    seen[G[a] ^ G[n - 1 - a]] = 1;
        }
        for (v = 0; seen[v]; v++)
            ;
        G[n] = v;
    }
}

typedef struct got {
    unsigned long n;
    unsigned count;
} got;

static bt_status
count_emit(void *ud, const mpz_t *to, size_t nto)
{
    got *g = ud;
    (void)to;
    (void)nto;
    g->count++;
    return BT_OK;
}

static void
check(int split)
{
    bt_game g = {&toy, (char *)"toy", NULL, 1};
    unsigned G[80], n;
    mpz_t x, v;
    splits = split;
    brute(G, 79);
    mpz_init(x);
    mpz_init(v);
    for (n = 0; n < 80; n++) {
        unsigned want = 0, a;
        got gt = {n, 0};
        mpz_set_ui(x, n);
        assert_int_equal(bt__rs_grundy(&g, v, (const mpz_t *)&x, 1, NULL, NULL),
                         BT_OK);
        assert_int_equal(mpz_get_ui(v), G[n]);
        /* moves to value 0: the options of value 0, counted here */
        if (!split) {
            want = (n >= 1 && G[n - 1] == 0) + (n >= 2 && G[n - 2] == 0);
        } else if (n >= 1) {
            want = G[n - 1] == 0;
            for (a = 1; 2 * a <= n - 1; a++)
                if (n - 1 - a > 0 && (G[a] ^ G[n - 1 - a]) == 0)
                    want++;
        }
        mpz_set_ui(v, 0);
        assert_int_equal(bt__rs_moves_to(&g, (const mpz_t *)&x, 1, v,
                                         count_emit, &gt, NULL, NULL),
                         BT_OK);
        assert_int_equal(gt.count, want);
    }
    mpz_clear(x);
    mpz_clear(v);
}

static void
test_subtraction(void **state)
{
    (void)state;
    check(0);
}

static void
test_splitting(void **state)
{
    (void)state;
    check(1);
}

/* Past max_search: BT_ELIMIT with a message, never a wrong value. */
static void
test_limit(void **state)
{
    bt_game g = {&toy, (char *)"toy", NULL, 1};
    bt_limits lim;
    bt_diag diag;
    mpz_t x, v;
    (void)state;
    splits = 1;
    bt_limits_default(&lim);
    lim.max_search = 10;
    memset(&diag, 0, sizeof diag);
    mpz_init_set_ui(x, 60);
    mpz_init(v);
    assert_int_equal(bt__rs_grundy(&g, v, (const mpz_t *)&x, 1, &lim, &diag),
                     BT_ELIMIT);
    assert_non_null(strstr(diag.message, "max_search"));
    mpz_clear(x);
    mpz_clear(v);
}

/* ------------------------------------------- a component of 3 numbers */

/* A second toy, of arity 3: a component is three numbers, and a move
   lowers one of them (to any smaller number).  Only options and
   describe. */
#define T3 5 /* numbers 0..4 */

static bt_status
toy3_options(bt_game *g, const mpz_t *c, bt__emit emit, void *ud,
             const bt_limits *lim, bt_diag *diag)
{
    mpz_t to[3];
    unsigned long v;
    bt_status st = BT_OK;
    size_t i;
    (void)g, (void)lim, (void)diag;
    for (i = 0; i < 3; i++)
        mpz_init_set(to[i], c[i]);
    for (i = 0; i < 3 && st == BT_OK; i++) {
        for (v = 0; mpz_cmp_ui(c[i], v) > 0 && st == BT_OK; v++) {
            mpz_set_ui(to[i], v);
            st = emit(ud, (const mpz_t *)to, 3);
        }
        mpz_set(to[i], c[i]);
    }
    for (i = 0; i < 3; i++)
        mpz_clear(to[i]);
    return st;
}

static const bt__ruleset toy3 = {
    .info = {"toy3", "toy3", "a toy game of three numbers", ""},
    .arity = 3,
    .options = toy3_options,
    .describe = toy_describe,
};

/* The brute force from the rules: by increasing code a + T3 b + T3^2 c
   (every option has a smaller code), the Grundy value (mex) and the
   remoteness (normal play). */
static void
brute3(unsigned *G, unsigned *R)
{
    unsigned code, i, v;
    for (code = 0; code < T3 * T3 * T3; code++) {
        unsigned char seen[T3 * T3 * T3] = {0};
        unsigned x[3] = {code % T3, code / T3 % T3, code / (T3 * T3)};
        unsigned lose_max = 0, win_min = 0, any_p = 0, no = 0, scale = 1;
        for (i = 0; i < 3; i++, scale *= T3)
            for (v = 0; v < x[i]; v++) {
                unsigned o = code - (x[i] - v) * scale;
                seen[G[o]] = 1;
                no++;
                if (G[o] == 0 && (!any_p || R[o] < win_min)) {
                    win_min = R[o];
                    any_p = 1;
                }
                if (R[o] > lose_max)
                    lose_max = R[o];
            }
        for (v = 0; seen[v]; v++)
            ;
        G[code] = v;
        R[code] = no == 0 ? 0 : 1 + (any_p ? win_min : lose_max);
    }
}

/* Components of three numbers reach every caller: the generic value and
   moves, the analysis, the remoteness search (which rebuilds components
   from its keys), the computer's move, and tables refuse them. */
static void
test_arity3(void **state)
{
    bt_game g = {&toy3, (char *)"toy3", NULL, 1};
    static unsigned G[T3 * T3 * T3], R[T3 * T3 * T3];
    unsigned code, i;
    mpz_t x[3], v, z;
    bt_table *t;
    bt_diag diag;
    (void)state;
    brute3(G, R);
    for (i = 0; i < 3; i++)
        mpz_init(x[i]);
    mpz_init(v);
    mpz_init(z);
    for (code = 0; code < T3 * T3 * T3; code++) {
        bt_position *p;
        bt_analysis *a;
        bt_move *m;
        for (i = 0; i < 3; i++)
            mpz_set_ui(x[i], i == 0 ? code % T3 : i == 1 ? code / T3 % T3
                                                         : code / (T3 * T3));
        assert_int_equal(bt_position_new(&p), BT_OK);
        assert_int_equal(
            bt_position_add_n(p, &g, (const mpz_t *)x, 3, NULL, NULL), BT_OK);
        assert_int_equal(bt_analyze(&a, p, 0, NULL, NULL), BT_OK);
        assert_int_equal(bt_analysis_grundy(v, a), BT_OK);
        assert_int_equal(mpz_get_ui(v), G[code]);
        assert_int_equal(bt_analysis_outcome(a), G[code] ? BT_N : BT_P);
        assert_int_equal(bt_remoteness(v, p, 0, NULL, NULL), BT_OK);
        assert_int_equal(mpz_get_ui(v), R[code]);
        if (code > 0) {
            unsigned to = 0;
            assert_int_equal(bt_opponent_play(&m, NULL, p, 0,
                                              BT_LEVEL_PERFECT, NULL, NULL,
                                              NULL),
                             BT_OK);
            assert_int_equal(m->nto, 3);
            for (i = 3; i-- > 0;)
                to = to * T3 + (unsigned)mpz_get_ui(m->to[i]);
            assert_true(to < code); /* a move of the rules lowers the code */
            assert_int_equal(G[to] == 0, G[code] != 0);
            bt_moves_free(m, 1);
        }
        bt_analysis_free(a);
        bt_position_free(p);
    }
    mpz_set_ui(v, T3);
    memset(&diag, 0, sizeof diag);
    assert_int_equal(bt_table_new(&t, &g, 0, 1, z, v, NULL, &diag), BT_EINVAL);
    assert_non_null(strstr(diag.message, "not supported"));
    for (i = 0; i < 3; i++)
        mpz_clear(x[i]);
    mpz_clear(v);
    mpz_clear(z);
}

/* ------------------------------------------------ what a family has */

/* The toy of the first tests again, saying that its components are heaps
   whose options are smaller heaps. */
static const bt__ruleset toy_heaps = {
    .info = {"toy", "toy", "a toy game for the tests", ""},
    .arity = 1,
    .options = toy_options,
    .describe = toy_describe,
    .flags = BT__RS_HEAPS,
};

/* Whether the sum of heaps a and b is P in misère play by quotient q. */
static int
sum_is_p(const bt_quotient *q, size_t a, size_t b)
{
    return bt_quotient_is_p(
        q, bt_quotient_mul(q, bt_quotient_heap(q, a), bt_quotient_heap(q, b)));
}

/*
 * The engines ask a family what it has, never which family it is: the
 * toy that says BT__RS_HEAPS gets the misère quotient of its registered
 * twin (sub:1,2; octal:0.7 with the splits), the same rules unsaid get a
 * clear refusal.  Among the registered families, every one whose
 * components are heaps gets a quotient and the others the refusal; the
 * heap families (sub, octal, grundy, tb) have heap rules, hence Grundy
 * sequences.
 */
static void
test_capabilities(void **state)
{
    static const char *const twin[] = {"sub:1,2", "octal:0.7"};
    bt_game plain = {&toy, (char *)"toy", NULL, 1};
    bt_game heaps = {&toy_heaps, (char *)"toy-heaps", NULL, 1};
    bt_quotient *q, *r;
    bt_game *g;
    bt_diag diag;
    size_t i, a, b, heap_families = 0;
    int split;
    (void)state;
    for (split = 0; split < 2; split++) {
        splits = split;
        memset(&diag, 0, sizeof diag);
        assert_int_equal(bt_quotient_new(&q, &plain, 12, NULL, &diag),
                         BT_EINVAL);
        assert_null(q);
        assert_non_null(strstr(diag.message, "not a heap game"));
        assert_int_equal(bt_quotient_new(&q, &heaps, 12, NULL, NULL), BT_OK);
        assert_int_equal(bt_game_new(&g, twin[split], NULL), BT_OK);
        assert_int_equal(bt_quotient_new(&r, g, 12, NULL, NULL), BT_OK);
        assert_int_equal(bt_quotient_order(q), bt_quotient_order(r));
        assert_int_equal(bt_quotient_p_count(q), bt_quotient_p_count(r));
        for (a = 0; a <= 12; a++)
            for (b = 0; b <= 12; b++)
                assert_int_equal(sum_is_p(q, a, b), sum_is_p(r, a, b));
        bt_quotient_free(q);
        bt_quotient_free(r);
        bt_game_free(g);
    }
    for (i = 0; i < bt_family_count(); i++) {
        const char *name = bt_family(i)->name;
        unsigned flags;
        bt_status st;
        assert_int_equal(bt_game_new(&g, bt_family(i)->example, NULL), BT_OK);
        flags = g->rules->flags;
        memset(&diag, 0, sizeof diag);
        st = bt_quotient_new(&q, g, 8, NULL, &diag);
        if (flags & BT__RS_HEAPS) {
            assert_int_equal(st, BT_OK);
            assert_int_equal(g->rules->arity, 1);
            bt_quotient_free(q);
        } else {
            assert_int_equal(st, BT_EINVAL);
            assert_non_null(strstr(diag.message, "not a heap game"));
        }
        if (flags & BT__RS_NIM_HEAPS)
            assert_true(flags & BT__RS_HEAPS);
        assert_int_equal(bt_sequence_is_supported(g), g->rules->heap != NULL);
        if (g->rules->heap != NULL) {
            assert_true(flags & BT__RS_HEAPS);
            heap_families++;
        }
        if (strcmp(name, "sub") == 0 || strcmp(name, "octal") == 0 ||
            strcmp(name, "grundy") == 0 || strcmp(name, "tb") == 0)
            assert_non_null(g->rules->heap);
        bt_game_free(g);
    }
    assert_int_equal(heap_families, 4);
}

/* A toy Nim heap: the options of n are 0..n-1 (listed only within
   max_search), its value n, its move to value t the heap t. */
static bt_status
tnim_grundy(bt_game *g, mpz_t rop, const mpz_t *c, const bt_limits *lim,
            bt_diag *diag)
{
    (void)g, (void)lim, (void)diag;
    mpz_set(rop, c[0]);
    return BT_OK;
}

static bt_status
tnim_options(bt_game *g, const mpz_t *c, bt__emit emit, void *ud,
             const bt_limits *lim, bt_diag *diag)
{
    mpz_t to;
    bt_status st = BT_OK;
    (void)g;
    lim = bt__limits(lim);
    if (mpz_cmp_ui(c[0], (unsigned long)lim->max_search) > 0)
        return bt__fail(diag, BT_ELIMIT, "too many options (max_search)");
    mpz_init(to);
    while (st == BT_OK && mpz_cmp(to, c[0]) < 0) {
        st = emit(ud, (const mpz_t *)&to, mpz_sgn(to) ? 1 : 0);
        mpz_add_ui(to, to, 1);
    }
    mpz_clear(to);
    return st;
}

static bt_status
tnim_moves_to(bt_game *g, const mpz_t *c, const mpz_t target, bt__emit emit,
              void *ud, const bt_limits *lim, bt_diag *diag)
{
    mpz_t to;
    bt_status st;
    (void)g, (void)lim, (void)diag;
    if (mpz_cmp(target, c[0]) >= 0)
        return BT_OK;
    mpz_init_set(to, target);
    st = emit(ud, (const mpz_t *)&to, mpz_sgn(to) ? 1 : 0);
    mpz_clear(to);
    return st;
}

static const bt__ruleset tnim_plain = {
    .info = {"tnim", "tnim", "a toy Nim for the tests", ""},
    .arity = 1,
    .grundy = tnim_grundy,
    .options = tnim_options,
    .moves_to = tnim_moves_to,
    .describe = toy_describe,
};

static const bt__ruleset tnim = {
    .info = {"tnim", "tnim", "a toy Nim for the tests", ""},
    .arity = 1,
    .grundy = tnim_grundy,
    .options = tnim_options,
    .moves_to = tnim_moves_to,
    .describe = toy_describe,
    .flags = BT__RS_HEAPS | BT__RS_NIM_HEAPS,
};

/*
 * A family that says its components are Nim heaps (BT__RS_NIM_HEAPS) gets
 * Nim's closed forms of play: the remoteness of heaps of 10^30 counters,
 * which no search reaches (the same rules unsaid: BT_ELIMIT), equal to
 * Nim's own, and the computer's move of Nim's exact rule.
 */
static void
test_nim_heaps(void **state)
{
    bt_game said = {&tnim, (char *)"tnim", NULL, 1};
    bt_game unsaid = {&tnim_plain, (char *)"tnim-plain", NULL, 1};
    bt_game *nim;
    bt_position *p, *pu, *pn;
    bt_move *m, *mn;
    mpz_t x, v, w;
    unsigned k;
    (void)state;
    assert_int_equal(bt_game_new(&nim, "nim", NULL), BT_OK);
    mpz_init(x);
    mpz_init(v);
    mpz_init(w);
    assert_int_equal(bt_position_new(&p), BT_OK);
    assert_int_equal(bt_position_new(&pu), BT_OK);
    assert_int_equal(bt_position_new(&pn), BT_OK);
    for (k = 0; k < 3; k++) {
        mpz_ui_pow_ui(x, 10, 30);
        mpz_add_ui(x, x, 7 * k + 3);
        assert_int_equal(
            bt_position_add_n(p, &said, (const mpz_t *)&x, 1, NULL, NULL),
            BT_OK);
        assert_int_equal(
            bt_position_add_n(pu, &unsaid, (const mpz_t *)&x, 1, NULL, NULL),
            BT_OK);
        assert_int_equal(
            bt_position_add_n(pn, nim, (const mpz_t *)&x, 1, NULL, NULL),
            BT_OK);
    }
    assert_int_equal(bt_remoteness(v, p, 0, NULL, NULL), BT_OK);
    assert_int_equal(bt_remoteness(w, pn, 0, NULL, NULL), BT_OK);
    assert_int_equal(mpz_cmp(v, w), 0);
    assert_int_equal(bt_remoteness(v, pu, 0, NULL, NULL), BT_ELIMIT);
    assert_int_equal(bt_opponent_play(&m, NULL, p, 0, BT_LEVEL_PERFECT, NULL,
                                      NULL, NULL),
                     BT_OK);
    assert_int_equal(bt_opponent_play(&mn, NULL, pn, 0, BT_LEVEL_PERFECT,
                                      NULL, NULL, NULL),
                     BT_OK);
    assert_int_equal(m->component, mn->component);
    assert_int_equal(m->nto, mn->nto);
    assert_int_equal(mpz_cmp(m->to[0], mn->to[0]), 0);
    bt_moves_free(m, 1);
    bt_moves_free(mn, 1);
    bt_position_free(p);
    bt_position_free(pu);
    bt_position_free(pn);
    bt_game_free(nim);
    mpz_clear(x);
    mpz_clear(v);
    mpz_clear(w);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subtraction),
        cmocka_unit_test(test_splitting),
        cmocka_unit_test(test_limit),
        cmocka_unit_test(test_arity3),
        cmocka_unit_test(test_capabilities),
        cmocka_unit_test(test_nim_heaps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
