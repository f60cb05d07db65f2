/*
 * coins.h -- what the coin-turning families share: the one-dimensional
 * codes of coins.c (their values and their move sets, by the rules and by
 * value), which the products of tartan.c multiply.  Private to src/games.
 *
 * A coin-turning game (Winning Ways ch. 14; Ferguson, Game Theory, Part I
 * sec. 5) is a row of coins; a move turns over a set of coins allowed by
 * the game's code, the one of largest index (its top) from heads to tails.
 * Such a game is a sum of its heads (each head a game of its own, since a
 * coin turned twice is as if untouched: H + H = 0), so the value of a
 * position is the nim-sum of the values of its heads, and turning a set S
 * changes the value by the nim-sum of the values of S.
 */
#ifndef BOUTON_GAMES_COINS_H
#define BOUTON_GAMES_COINS_H

#include "core/core.h"

typedef struct bt__coin_code bt__coin_code;

/* The one-dimensional code named name[0..len-1] ("turtles", "ruler"),
   NULL when there is none. */
const bt__coin_code *bt__coin_code_find(const char *name, size_t len);
const char *bt__coin_code_name(const bt__coin_code *k);
/* The codes' names, for messages ("turtles, mock-turtles, ruler, twins"). */
const char *bt__coin_code_names(void);
/* The index of the first coin: 1 (Turning Turtles, Ruler) or 0 (Mock
   Turtles, Twins), as in Ferguson's numbering. */
unsigned long bt__coin_code_base(const bt__coin_code *k);
/* The value of a head at coin n >= base (r may alias n). */
void bt__coin_value(const bt__coin_code *k, mpz_t r, const mpz_t n);

/*
 * One move set of a code: the coin `top` (heads to tails) and either the
 * nlow (0 to 2) coins low[0] < low[1] < top, or, when `run`, every coin
 * from low[0] to top.  `value` is the nim-sum of the values of its coins.
 */
typedef struct bt__coin_set {
    int run;
    size_t nlow;
    mpz_t low[2];
    mpz_t value;
} bt__coin_set;

/*
 * The bound of a walk over move sets: every step counts, every 1024th
 * polls the budget and lim's interrupt (bt__budget_check); past max_steps
 * the walk stops with BT_ELIMIT and sets `tired`.
 */
typedef struct bt__coin_bound {
    bt__budget budget;
    const bt_limits *lim; /* bt__limits()'d */
    bt_diag *diag;
    size_t steps, max_steps;
    int tired;
} bt__coin_bound;

void bt__coin_bound_init(bt__coin_bound *b, const bt_limits *lim,
                         bt_diag *diag);
bt_status bt__coin_step(bt__coin_bound *b);

typedef bt_status (*bt__coin_visit)(void *ud, const bt__coin_set *s);

/* Calls f on every move set of code k whose top is coin n, each once,
   fewest coins first.  A non-zero status of f or of the bound stops the
   walk and is returned. */
bt_status bt__coin_sets(const bt__coin_code *k, const mpz_t n,
                        bt__coin_visit f, void *ud, bt__coin_bound *b);
/* Calls f on every move set of code k whose top is coin n and whose value
   is e: with `pairs` 0 those of at most one coin below the top and the
   runs, with `pairs` 1 those of two (Mock Turtles), which can be as many
   as n / 2. */
bt_status bt__coin_sets_to(const bt__coin_code *k, const mpz_t n,
                           const mpz_t e, int pairs, bt__coin_visit f,
                           void *ud, bt__coin_bound *b);

/* Whether code k has at most `most` move sets of top n (then walking them
   all is cheaper than solving for a value). */
int bt__coin_sets_few(const bt__coin_code *k, const mpz_t n,
                      unsigned long most);

/* Whether the coins s[0..n-1] (distinct, ascending) are a move set of
   code k, by the rules (its top s[n - 1]; whether it is heads is the
   caller's to check). */
int bt__coin_is_set(const bt__coin_code *k, const mpz_srcptr *s, size_t n);

/* Sorts the pointers p[0..n-1] by their numbers. */
void bt__coin_sort(mpz_srcptr *p, size_t n);

#endif
