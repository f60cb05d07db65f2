/*
 * ops.c -- the rules of the operations that the CLI and the API both
 * check (see ops.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ops.h"

/* Sets d to a refusal of status st with a printf-style message; returns
   st. */
static bt_status
refuse(bt_diag *d, bt_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static bt_status
refuse(bt_diag *d, bt_status st, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(d->message, sizeof d->message, fmt, ap);
    va_end(ap);
    d->has_offset = 0;
    d->offset = 0;
    return st;
}

/* A field as in's users write it: --below, or "below". */
typedef struct field {
    char s[40];
} field;

static field
name(op_iface in, const char *f)
{
    field n;

    snprintf(n.s, sizeof n.s, in == OP_CLI ? "--%s" : "\"%s\"", f);
    return n;
}

/* A number quoted in a message: its digits, or its size when long. */
typedef struct number {
    char s[48];
} number;

static number
quote(const mpz_t x)
{
    number q;

    /* sizeinbase may count one digit too many, never too few */
    if (mpz_sizeinbase(x, 10) <= 41)
        mpz_get_str(q.s, 10, x);
    if (mpz_sizeinbase(x, 10) > 41 || strlen(q.s) > 40)
        snprintf(q.s, sizeof q.s, "(a number of over 40 digits)");
    return q;
}

bt_status
op_count_bound_given(op_iface in, int has_max, int has_below, bt_diag *d)
{
    if (!has_max && !has_below)
        return refuse(d, BT_EINVAL, "%s (or %s) is required",
                      name(in, "max").s, name(in, "below").s);
    if (has_max && has_below)
        return refuse(d, BT_EINVAL, "give %s or %s, not both",
                      name(in, "max").s, name(in, "below").s);
    return BT_OK;
}

bt_status
op_pile_range(op_iface in, const mpz_t min, const mpz_t bound, int by_below,
              mpz_t max, bt_diag *d)
{
    if (by_below && mpz_sgn(bound) == 0)
        return refuse(d, BT_EINVAL,
                      "%s 0: no pile is below 0 (it must be at least 1)",
                      name(in, "below").s);
    if (by_below && mpz_cmp(min, bound) >= 0)
        return refuse(d, BT_EINVAL,
                      "%s %s is not below %s %s: the range is empty",
                      name(in, "min").s, quote(min).s, name(in, "below").s,
                      quote(bound).s);
    if (!by_below && mpz_cmp(min, bound) > 0)
        return refuse(d, BT_EINVAL, "%s %s is larger than %s %s",
                      name(in, "min").s, quote(min).s, name(in, "max").s,
                      quote(bound).s);
    if (max != NULL && by_below)
        mpz_sub_ui(max, bound, 1);
    else if (max != NULL)
        mpz_set(max, bound);
    return BT_OK;
}

bt_status
op_random_starts_game(op_iface in, const char *game, bt_diag *d)
{
    /* the starts are counted by Nim's own API (bt_nim_count) */
    if (game != NULL && strcmp(game, "nim") != 0)
        return refuse(d, BT_EINVAL,
                      "%s counts Nim positions only (%s %s: its starts "
                      "are not counted exactly)",
                      name(in, in == OP_CLI ? "random-starts"
                                            : "random_starts").s,
                      name(in, "game").s, game);
    return BT_OK;
}

bt_status
op_random_starts(op_iface in, size_t k, const mpz_t max, int misere,
                 const bt_limits *lim, mpz_t all, mpz_t wins, bt_diag *d)
{
    mpz_t lo;
    bt_status st;

    if (mpz_sgn(max) == 0)
        return refuse(d, BT_EINVAL,
                      "%s 0: the piles of a random start hold 1 to N "
                      "counters, N at least 1",
                      name(in, "max").s);
    mpz_init_set_ui(lo, 1);
    st = bt_nim_count(all, wins, NULL, k, lo, max,
                      BT_COUNT_ORDERED | (misere ? BT_MISERE : 0u), lim, d);
    /* wins: the starts that are not P-positions */
    if (st == BT_OK)
        mpz_sub(wins, all, wins);
    mpz_clear(lo);
    return st;
}

size_t
op_table_default_piles(const bt_game *g)
{
    return bt_game_arity(g) == 2 ? 1 : 0;
}

/* The pairs and the Grundy table of a pair are Wythoff's own public API
   (bouton/wythoff.h), not a capability other families could have: this
   asks which game it is on purpose. */
static int
is_wythoff(const bt_game *g)
{
    return strcmp(bt_game_family(g), "wythoff") == 0;
}

bt_status
op_pair_game(op_iface in, const bt_game *g, const char *spec, bt_diag *d)
{
    if (!is_wythoff(g))
        return refuse(d, BT_EINVAL,
                      "%s '%.60s': pairs are defined for Wythoff's game "
                      "only (wythoff[:A])",
                      name(in, "game").s, spec);
    return BT_OK;
}

int
op_grundy_is_table(const bt_game *g)
{
    return is_wythoff(g);
}

bt_status
op_grundy_sequence(op_iface in, const bt_game *g, const char *spec,
                   bt_diag *d)
{
    /* the library says which games have a sequence; Nim is named only to
       word the refusal */
    if (!bt_sequence_is_supported(g))
        return refuse(d, BT_EUNDEF,
                      "%s '%.60s': only heap games have a Grundy "
                      "sequence%s",
                      name(in, "game").s, spec,
                      bt_game_is_nim(g) ? "; a Nim heap's value is its size"
                                        : "");
    return BT_OK;
}

bt_status
op_quotient_games(op_iface in, const char *text, bt_game **games, size_t max,
                  size_t *ng, bt_diag *d)
{
    const char *at = text;
    size_t i;
    *ng = 0;
    for (;;) {
        const char *plus = strchr(at, '+'), *end;
        char part[256];
        bt_diag gd;
        bt_status st;
        end = plus != NULL ? plus : at + strlen(at);
        while (at < end && (*at == ' ' || *at == '\t'))
            at++;
        while (end > at && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        if (end == at || (size_t)(end - at) >= sizeof part)
            st = refuse(d, BT_EPARSE, "%s '%.60s': %s", name(in, "game").s,
                        text,
                        end == at ? "a game is missing around '+'"
                                  : "a game's text is too long");
        else if (*ng == max)
            st = refuse(d, BT_EINVAL, "%s '%.60s': more than %zu games",
                        name(in, "game").s, text, max);
        else {
            memcpy(part, at, (size_t)(end - at));
            part[end - at] = '\0';
            memset(&gd, 0, sizeof gd);
            st = bt_game_new(&games[*ng], part, &gd);
            if (st != BT_OK)
                st = refuse(d, st, "%s '%.60s': %s", name(in, "game").s,
                            part, gd.message);
            else
                (*ng)++;
        }
        if (st != BT_OK) {
            for (i = 0; i < *ng; i++)
                bt_game_free(games[i]);
            *ng = 0;
            return st;
        }
        if (plus == NULL)
            return BT_OK;
        at = plus + 1;
    }
}

size_t
op_quotient_default_upto(int until_proved)
{
    /* without a proof: a bound; with one: the most heaps computed */
    return until_proved ? 1000 : 12;
}

int
op_all_heaps(const bt_position *p)
{
    size_t i, n = bt_position_size(p);

    for (i = 0; i < n; i++)
        if (bt_game_arity(bt_position_game(p, i)) != 1)
            return 0;
    return n > 0;
}

int
op_same_quotient(const bt_quotient_facts *x, const bt_quotient_facts *y)
{
    return strcmp(x->game, y->game) == 0 && x->upto == y->upto &&
           x->order == y->order && x->proved == y->proved &&
           x->period == y->period && x->preperiod == y->preperiod;
}
