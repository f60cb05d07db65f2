/*
 * opponent_random.c -- seeded randomness for play: the generator
 * (splitmix64, bt_rng_*), random starting positions of any family
 * (bt_position_random), the opponent's levels (how often it errs) and the
 * random move an erring opponent plays (bt_random_move).  Calls the
 * families through their hooks only; the rule of the move is opponent.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "play/opponent_impl.h"

/* ------------------------------------------------------- random numbers */

uint64_t
bt_rng_next(uint64_t *state)
{
    /* SplitMix64 (Steele, Lea, Flood 2014), constants as published */
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t
bt_rng_below(uint64_t *state, uint64_t n)
{
    uint64_t threshold, r;
    if (n == 0)
        return 0;
    /* 2^64 mod n: the values below it would make small results likelier */
    threshold = (0 - n) % n;
    do
        r = bt_rng_next(state);
    while (r < threshold);
    return r % n;
}

void
bt_rng_mpz_below(mpz_t rop, uint64_t *state, const mpz_t n)
{
    size_t bits, words, i;
    uint64_t *w, mask;
    if (mpz_sgn(n) <= 0) {
        mpz_set_ui(rop, 0);
        return;
    }
    bits = mpz_sizeinbase(n, 2);
    words = (bits + 63) / 64;
    mask = bits % 64 ? (((uint64_t)1 << (bits % 64)) - 1) : ~(uint64_t)0;
    w = malloc(words * sizeof *w);
    if (w == NULL) { /* n is bounded by the caller's digit limit */
        mpz_set_ui(rop, 0);
        return;
    }
    do {
        for (i = 0; i < words; i++)
            w[i] = bt_rng_next(state);
        w[words - 1] &= mask;
        mpz_import(rop, words, -1, sizeof *w, 0, 0, w);
    } while (mpz_cmp(rop, n) >= 0);
    free(w);
}

/* ---------------------------------------------------------- random starts */

static bt_status
position_random(bt_position **out, bt_game *g, size_t k, const mpz_t min,
                const mpz_t max, uint64_t *rng, const bt_limits *lim,
                bt_diag *diag)
{
    bt_position *p;
    mpz_t range, *nums;
    size_t ar = g->rules->arity, i, j, n;
    bt__budget b;
    bt_status st;

    *out = NULL;
    lim = bt__limits(lim);
    if (mpz_sgn(min) < 0 || mpz_cmp(min, max) > 0)
        return bt__fail(diag, BT_EINVAL, "random starts need 0 <= min <= max");
    if (k > lim->max_components)
        return bt__fail(diag, BT_ELIMIT,
                        "%zu components are more than the limit of %zu "
                        "(max_components)",
                        k, lim->max_components);
    st = bt__check_number(max, lim, "the largest number", diag);
    if (st != BT_OK)
        return st;
    /* a game of variable arity: one component of k numbers */
    n = ar ? ar : k;
    if (n == 0)
        return bt__fail(diag, BT_EINVAL, "a random start of %s needs at "
                        "least one pile", g->spec);
    st = bt_position_new(&p);
    nums = malloc(n * sizeof *nums);
    if (st != BT_OK || nums == NULL) {
        bt_position_free(p);
        free(nums);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    mpz_init(range);
    for (j = 0; j < n; j++)
        mpz_init(nums[j]);
    mpz_sub(range, max, min);
    mpz_add_ui(range, range, 1);
    /* k components of up to max_digits digits each: the position can pass
       any memory, so its numbers are charged as they are drawn, and the
       draw polls every 1024 components */
    bt__budget_init(&b, lim);
    for (i = 0; i < (ar ? k : 1) && st == BT_OK; i++) {
        size_t bytes = 0;
        if ((i & 1023) == 1023 && bt__poll(lim) != BT_OK) {
            st = bt__fail(diag, BT_EINTR,
                          "the time budget ran out while drawing a random "
                          "start of %zu components",
                          k);
            break;
        }
        for (j = 0; j < n; j++) {
            bt_rng_mpz_below(nums[j], rng, range);
            mpz_add(nums[j], nums[j], min);
            bytes += bt__mpz_bytes(nums[j]);
        }
        st = bt__budget_charge(&b, bytes, diag);
        if (st == BT_OK)
            st = bt_position_add_n(p, g, (const mpz_t *)nums, n, lim, diag);
    }
    mpz_clear(range);
    for (j = 0; j < n; j++)
        mpz_clear(nums[j]);
    free(nums);
    if (st != BT_OK) {
        bt_position_free(p);
        return st;
    }
    *out = p;
    return BT_OK;
}

bt_status
bt_position_random(bt_position **out, bt_game *g, size_t k, const mpz_t min,
                   const mpz_t max, uint64_t *rng, const bt_limits *lim,
                   bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag,
                    position_random(out, g, k, min, max, rng, lim, diag));
}

/* ------------------------------------------------------------ levels */

unsigned
bt_level_error_permille(bt_level l)
{
    switch (l) {
    case BT_LEVEL_MEDIUM:
        return 200;
    case BT_LEVEL_EASY:
        return 500;
    case BT_LEVEL_PERFECT:
    default:
        return 0;
    }
}

const char *
bt_level_name(bt_level l)
{
    switch (l) {
    case BT_LEVEL_MEDIUM:
        return "medium";
    case BT_LEVEL_EASY:
        return "easy";
    case BT_LEVEL_PERFECT:
    default:
        return "perfect";
    }
}

bt_status
bt_level_parse(bt_level *out, const char *text, bt_diag *diag)
{
    static const bt_level all[] = {BT_LEVEL_PERFECT, BT_LEVEL_MEDIUM,
                                   BT_LEVEL_EASY};
    size_t i;
    for (i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(text, bt_level_name(all[i])) == 0) {
            *out = all[i];
            return BT_OK;
        }
    return bt__fail(diag, BT_EPARSE,
                    "unknown level '%.40s' (perfect, medium or easy)", text);
}

/* ------------------------------------------------------------ random move */

static bt_status
random_move(bt_move **out, const bt_position *p, uint64_t *rng,
            const bt_limits *lim, bt_diag *diag)
{
    bt_move *moves;
    size_t n, pick;
    bt_status st;
    bt_diag quiet;

    *out = NULL;
    lim = bt__limits(lim);
    memset(&quiet, 0, sizeof quiet);
    st = bt_position_moves(&moves, &n, p, lim, &quiet);
    if (st == BT_OK) {
        if (n == 0) {
            bt_moves_free(moves, n);
            return bt__fail(diag, BT_EINVAL, "no move: the game is over");
        }
        pick = (size_t)bt_rng_below(rng, (uint64_t)n);
        /* hand the picked move over and free the rest */
        st = bt__move_new(out, p, moves[pick].component,
                          (const mpz_t *)moves[pick].to, moves[pick].nto, diag);
        bt_moves_free(moves, n);
        return st;
    }
    if (st == BT_ELIMIT && all_nim_heaps(p)) {
        /*
         * Too many moves to list, but a Nim pile of a counters has exactly
         * the moves to 0, 1, ..., a - 1: number the T moves of the position
         * pile by pile in that order (the order of bt_position_moves) and
         * draw one number.
         */
        mpz_t t, r;
        size_t i;
        mpz_init(t);
        mpz_init(r);
        nim_total(t, p);
        bt_rng_mpz_below(r, rng, t);
        for (i = 0; i < bt_position_size(p); i++) {
            const mpz_t *v = bt_position_nums(p, i);
            if (mpz_cmp(r, v[0]) < 0)
                break;
            mpz_sub(r, r, v[0]);
        }
        st = bt__move_new(out, p, i, (const mpz_t *)&r, 1, diag);
        mpz_clear(t);
        mpz_clear(r);
        return st;
    }
    if (diag != NULL)
        *diag = quiet;
    return st;
}

bt_status
bt_random_move(bt_move **out, const bt_position *p, uint64_t *rng,
               const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, random_move(out, p, rng, lim, diag));
}
