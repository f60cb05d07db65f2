/*
 * nim.c -- Bouton's Nim: any number of piles, normal and misère play.
 *
 * Normal play (Bouton 1901/02, sec. 2 and 5): a position is safe (P) when
 * every column of the piles written in binary has an even sum, i.e. the
 * nim-sum s (XOR) is 0.  From an unsafe position the winning moves are
 * exactly the piles p with a 1 in the leftmost odd column (the top bit of
 * s), each reduced to p XOR s (Theorem II: p XOR s < p exactly then).
 * The Grundy value of a pile is its size.
 *
 * Misère play (sec. 6): the safe combinations are the same except that an
 * odd number of piles of one (and nothing larger) is safe and an even
 * number is not.  So with two or more piles above one the rule is the
 * normal one; with exactly one pile above one the position is unsafe and
 * its one winning move reduces that pile to 0 or 1, leaving an odd number
 * of ones; with none, the count of ones decides.
 */
#include <string.h>

#include "core/core.h"

/* Piles drawn in binary when at most this many columns and rows. */
#define DRAW_BITS 64
#define DRAW_PILES 32

static bt_status
nim_init(bt_game *g, const char *name, const char *params, bt_diag *diag)
{
    (void)name;
    if (params != NULL)
        return bt__fail_at(diag, BT_EPARSE, 0,
                           "nim takes no parameters (got 'nim:%s')", params);
    g->state = NULL;
    return bt__game_set_spec(g, "nim");
}

static bt_status
nim_grundy(bt_game *g, mpz_t rop, const mpz_t *c, const bt_limits *lim,
           bt_diag *diag)
{
    (void)g;
    (void)lim;
    (void)diag;
    mpz_set(rop, c[0]);
    return BT_OK;
}

static bt_status
nim_options(bt_game *g, const mpz_t *c, bt__emit emit, void *ud,
            const bt_limits *lim, bt_diag *diag)
{
    mpz_t k;
    bt_status st = BT_OK;
    (void)g;
    lim = bt__limits(lim);
    if (mpz_cmp_ui(c[0], (unsigned long)lim->max_search) > 0)
        return bt__fail(diag, BT_ELIMIT,
                        "a pile has more than %zu moves to list (the "
                        "max_search limit)",
                        lim->max_search);
    mpz_init(k);
    for (; mpz_cmp(k, c[0]) < 0 && st == BT_OK; mpz_add_ui(k, k, 1))
        st = emit(ud, (const mpz_t *)&k, 1);
    mpz_clear(k);
    return st;
}

static bt_status
nim_moves_to(bt_game *g, const mpz_t *c, const mpz_t target, bt__emit emit,
             void *ud, const bt_limits *lim, bt_diag *diag)
{
    mpz_t to; /* target is a pointer here: emit needs an array of mpz_t */
    bt_status st = BT_OK;
    (void)g;
    (void)lim;
    (void)diag;
    if (mpz_cmp(target, c[0]) < 0) {
        mpz_init_set(to, target);
        st = emit(ud, (const mpz_t *)&to, 1);
        mpz_clear(to);
    }
    return st;
}

static bt_status
nim_misere(bt_game *g, const bt_position *p, bt_outcome *outcome,
           bt_status (*move)(void *ud, size_t comp, const mpz_t *to,
                             size_t nto),
           void *ud, const bt_limits *lim, bt_diag *diag)
{
    size_t n = bt_position_size(p), i, big = 0, ones = 0, the_big = 0;
    unsigned long work = 0;
    bt_status st = BT_OK;
    mpz_t s, t;
    (void)g;
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        if (mpz_cmp_ui(v[0], 1) > 0) {
            big++;
            the_big = i;
        } else if (mpz_cmp_ui(v[0], 1) == 0) {
            ones++;
        }
    }
    mpz_init(s);
    mpz_init(t);
    if (big == 0) {
        /* only ones and empty piles: odd ones are safe; from even, any one
           pile taken leaves an odd number */
        *outcome = (ones % 2 == 1) ? BT_P : BT_N;
        for (i = 0; i < n && *outcome == BT_N && st == BT_OK; i++)
            if (mpz_cmp_ui(bt_position_nums(p, i)[0], 1) == 0)
                st = move(ud, i, (const mpz_t *)&t, 1); /* t = 0 */
    } else if (big == 1) {
        /* leave an odd number of ones: the big pile goes to 0 or 1 */
        *outcome = BT_N;
        mpz_set_ui(t, ones % 2 == 1 ? 0 : 1);
        st = move(ud, the_big, (const mpz_t *)&t, 1);
    } else {
        for (i = 0; i < n; i++)
            mpz_xor(s, s, bt_position_nums(p, i)[0]);
        *outcome = mpz_sgn(s) ? BT_N : BT_P;
        for (i = 0; i < n && *outcome == BT_N && st == BT_OK; i++) {
            const mpz_t *v = bt_position_nums(p, i);
            /* the moves can hold as much as the position: polled */
            if (bt__tick(&work, v[0]) && bt__poll(lim) != BT_OK) {
                st = bt__fail(diag, BT_EINTR, "the time budget ran out");
                break;
            }
            mpz_xor(t, v[0], s);
            if (mpz_cmp(t, v[0]) < 0)
                st = move(ud, i, (const mpz_t *)&t, 1);
        }
    }
    mpz_clear(s);
    mpz_clear(t);
    return st;
}

static void
nim_describe(bt_game *g, bt__buf *out, size_t comp, const mpz_t *c,
             const mpz_t *to, size_t nto)
{
    mpz_t k;
    (void)g;
    (void)nto;
    mpz_init(k);
    mpz_sub(k, c[0], to[0]);
    bt__buf_puts(out, "take ");
    bt__buf_mpz(out, k);
    bt__buf_printf(out, " from pile %zu", comp + 1);
    mpz_clear(k);
}

/* ----------------------------------------------------------- explain */

/* The number of decimal digits of x >= 0, exactly: mpz_sizeinbase(x, 10)
   may be one too big, which misaligned the columns below (9 drawn one
   column left of 5). */
static size_t
decimal_digits(const mpz_t x)
{
    size_t d = mpz_sizeinbase(x, 10);
    mpz_t t;
    if (d <= 1)
        return 1;
    mpz_init(t);
    mpz_ui_pow_ui(t, 10, (unsigned long)(d - 1));
    if (mpz_cmpabs(x, t) < 0)
        d--;
    mpz_clear(t);
    return d;
}

static void
explain_columns(bt__buf *b, const bt_position *p, const mpz_t s, size_t w)
{
    size_t n = bt_position_size(p), i, col, dw = 1;
    int wide = n >= 10; /* column sums above 9: separate them */
    for (i = 0; i < n; i++) {
        size_t d = decimal_digits(bt_position_nums(p, i)[0]);
        if (d > dw)
            dw = d;
    }
    bt__buf_puts(b, "The piles in binary, units in one column (Bouton, "
                    "sec. 2):\n");
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        size_t d = decimal_digits(v[0]), k;
        bt__buf_printf(b, "  pile %-3zu ", i + 1);
        for (k = d; k < dw; k++)
            bt__buf_putc(b, ' ');
        bt__buf_mpz(b, v[0]);
        bt__buf_puts(b, " = ");
        bt__buf_mpz_bin(b, v[0], w);
        bt__buf_putc(b, '\n');
    }
    bt__buf_printf(b, "  %-*s", (int)(dw + 12), "column sums");
    for (col = w; col-- > 0;) {
        size_t sum = 0;
        for (i = 0; i < n; i++)
            sum += (size_t)mpz_tstbit(bt_position_nums(p, i)[0], col);
        if (wide)
            bt__buf_printf(b, "%s%zu", col + 1 == w ? "" : ",", sum);
        else
            bt__buf_printf(b, "%zu", sum);
    }
    bt__buf_putc(b, '\n');
    bt__buf_printf(b, "  %-*s", (int)(dw + 12), "nim-sum");
    bt__buf_mpz_bin(b, s, w);
    bt__buf_puts(b, " = ");
    bt__buf_mpz(b, s);
    bt__buf_puts(b, "\n\n");
}

static void
nim_explain(bt_game *g, bt__buf *b, const bt_position *p,
            const bt__verdict *found)
{
    size_t n = bt_position_size(p), i, w = 1, m;
    mpz_t s, t;
    (void)g;
    mpz_init(s);
    mpz_init(t);
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        size_t bits = mpz_sizeinbase(v[0], 2);
        if (bits > w)
            w = bits;
        mpz_xor(s, s, v[0]);
    }
    if (n == 0) {
        bt__buf_puts(b, "No piles: the game is over.  ");
        bt__buf_puts(b, found->misere
                            ? "In misère play the player who took the last "
                              "counter lost, so the player to move has won "
                              "(N).\n"
                            : "The player who took the last counter won: "
                              "the player to move has lost (P).\n");
        goto done;
    }
    if (w <= DRAW_BITS && n <= DRAW_PILES) {
        explain_columns(b, p, s, w);
    } else {
        bt__buf_printf(b, "%zu piles, the widest %zu binary digits: too "
                          "many to draw, but the rule is the same (Bouton, "
                          "sec. 2 and 5).\nThe nim-sum (the parity of each "
                          "binary column) is ",
                       n, w);
        if (mpz_sizeinbase(s, 10) <= 200)
            bt__buf_mpz(b, s);
        else
            bt__buf_printf(b, "a number of %zu binary digits",
                           mpz_sizeinbase(s, 2));
        bt__buf_puts(b, ".\n\n");
    }
    if (found->misere) {
        size_t big = 0;
        for (i = 0; i < n; i++)
            if (mpz_cmp_ui(bt_position_nums(p, i)[0], 1) > 0)
                big++;
        bt__buf_puts(b, "Misère play (Bouton, sec. 6): the safe "
                        "combinations are those of normal play, except "
                        "that an odd number of piles of one (and nothing "
                        "larger) is safe and an even number is not.\n");
        if (big >= 2)
            bt__buf_printf(b, "%zu piles are larger than one, so the "
                              "normal rule applies.\n",
                           big);
        else if (big == 1)
            bt__buf_puts(b, "Exactly one pile is larger than one: reduce it "
                            "to 0 or 1 so that an odd number of piles of "
                            "one remains.\n");
        else
            bt__buf_puts(b, "Every pile is 0 or 1: the position is safe "
                            "exactly when the number of ones is odd.\n");
        if (big < 2)
            goto moves;
    }
    if (mpz_sgn(s) == 0) {
        bt__buf_puts(b, "Every column sum is even: a safe combination "
                        "(P-position).  Any move changes one pile, so it "
                        "makes some column odd (Theorem I); the previous "
                        "player wins.\n");
        goto done;
    }
    m = mpz_sizeinbase(s, 2) - 1;
    bt__buf_printf(b, "Some column sum is odd: not safe (N-position).  The "
                      "leftmost odd column is the one worth 2^%zu.  A pile "
                      "with a 1 there can be reduced by writing 0 in that "
                      "column and choosing the digits to its right so that "
                      "every column sum becomes even (Theorem II); ",
                   m);
    bt__buf_printf(b, "%zu pile%s such a 1.\n", found->nmoves,
                   found->nmoves == 1 ? " has" : "s have");
moves:
    for (i = 0; i < found->nmoves; i++) {
        const bt_move *mv = &found->moves[i];
        const mpz_t *v = bt_position_nums(p, mv->component);
        bt__buf_printf(b, "  - %s: pile %zu goes from ", mv->text,
                       mv->component + 1);
        bt__buf_mpz(b, v[0]);
        bt__buf_puts(b, " to ");
        bt__buf_mpz(b, mv->to[0]);
        if (w <= DRAW_BITS) {
            bt__buf_puts(b, " (");
            bt__buf_mpz_bin(b, v[0], 0);
            bt__buf_puts(b, " -> ");
            bt__buf_mpz_bin(b, mv->to[0], 0);
            bt__buf_putc(b, ')');
        }
        bt__buf_putc(b, '\n');
    }
    if (found->outcome == BT_P && found->misere)
        bt__buf_puts(b, "No move leaves a safe combination: the previous "
                        "player wins.\n");
done:
    mpz_clear(s);
    mpz_clear(t);
}

/*
 * P-positions of one pile: (0) in normal play, (1) in misère play.  Tables
 * of several piles are built in table.c.
 */
static bt_status
nim_count(bt_game *g, mpz_t positions, mpz_t p_positions, size_t k,
          const mpz_t min, const mpz_t max, unsigned flags,
          const bt_limits *lim, bt_diag *diag, bt_count_progress fn,
          void *ud)
{
    (void)g;
    return bt_nim_count_progress(positions, p_positions, NULL, k, min, max,
                                 flags, lim, diag, fn, ud);
}

/* A move of Nim leaves any smaller pile. */
static int
nim_is_option(bt_game *g, const mpz_t *c, size_t n, const mpz_t *to,
              size_t nto)
{
    (void)g;
    (void)n;
    return nto == 1 ? mpz_cmp(to[0], c[0]) < 0 : -1;
}

const bt__ruleset bt__ruleset_nim = {
    {"nim", "nim",
     "Bouton's Nim: take any number of counters from one pile.", "", "Nim",
     "nim"},
    1,
    nim_init,
    NULL,
    NULL,
    nim_grundy,
    nim_options,
    nim_moves_to,
    nim_misere,
    nim_describe,
    nim_explain,
    NULL,
    NULL,
    nim_count,
    nim_is_option,
    BT__RS_HEAPS | BT__RS_NIM_HEAPS,
    NULL,
};
