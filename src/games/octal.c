/*
 * octal.c -- octal games (Guy and Smith 1956; Winning Ways ch. 4).
 *
 * The code d0.d1d2...dt: digit d_k says what a move removing k counters
 * from a heap may leave, as a sum of 1 (nothing: the whole heap is taken),
 * 2 (one non-empty heap) and 4 (two non-empty heaps).  d0 is 0 or 4 (4:
 * a heap may be split in two without removing anything).  Kayles is 0.77,
 * Dawson's Kayles 0.07, Dawson's Chess 0.137.
 *
 * Text: "octal:0.77" (the leading 0 may be left out: "octal:.77"), or a
 * named game: kayles (0.77), dawsons-kayles (0.07), dawsons-chess (0.137),
 * double-kayles (0.7777), officers (0.6), treblecross (0.007).  The
 * canonical text is always the code, "octal:0.77", without trailing zeros,
 * so one game has one text whatever name it was given.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/heapgame.h"

/* The longest code accepted (digits after the point). */
#define OCTAL_MAX_DIGITS 1024

static const struct {
    const char *name, *code, *title;
} aliases[] = {
    {"kayles", "0.77", "Kayles"},
    {"dawsons-kayles", "0.07", "Dawson\u2019s Kayles"},
    {"dawsons-chess", "0.137", "Dawson\u2019s chess"},
    {"double-kayles", "0.7777", "Double Kayles"},
    {"officers", "0.6", "Officers"},
    {"treblecross", "0.007", "Treblecross"},
};

static bt_status
octal_init(bt_game *g, const char *name, const char *params, bt_diag *diag)
{
    const char *code = NULL;
    unsigned char d[OCTAL_MAX_DIGITS + 1];
    size_t i, nd = 0, t = 0, start;
    bt__heap_game *hg;
    bt__buf b;
    bt_status st;

    if (strcmp(name, "octal") == 0) {
        if (params == NULL || *params == '\0')
            return bt__fail(diag, BT_EPARSE,
                            "octal needs a code, e.g. octal:0.77");
        code = params;
    } else {
        for (i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
            if (strcmp(name, aliases[i].name) == 0)
                code = aliases[i].code;
        if (code == NULL)
            return bt__fail(diag, BT_EPARSE, "unknown octal game '%s'", name);
        if (params != NULL)
            return bt__fail_at(diag, BT_EPARSE, 0,
                               "%s takes no parameters (it is octal:%s)", name,
                               code);
    }

    /* [d0] '.' d1 d2 ... */
    i = 0;
    d[0] = 0;
    if (code[0] >= '0' && code[0] <= '9') {
        if (code[0] != '0' && code[0] != '4')
            return bt__fail_at(diag, BT_EPARSE, 0,
                               "octal code '%.40s': the digit before the "
                               "point must be 0 or 4 (4: a heap may be "
                               "split without removing counters)",
                               code);
        d[0] = (unsigned char)(code[0] - '0');
        i = 1;
    }
    if (code[i] != '.')
        return bt__fail_at(diag, BT_EPARSE, i,
                           "octal code '%.40s': expected a point at column "
                           "%zu (codes look like 0.77)",
                           code, i + 1);
    start = ++i;
    for (; code[i] != '\0'; i++) {
        char ch = code[i];
        if (ch == '8' || ch == '9')
            return bt__fail_at(diag, BT_EPARSE, i,
                               "octal code '%.40s': digit %c at column %zu "
                               "is not octal (digits are 0 to 7)",
                               code, ch, i + 1);
        if (ch < '0' || ch > '7')
            return bt__fail_at(diag, BT_EPARSE, i,
                               "octal code '%.40s': unexpected '%c' at "
                               "column %zu",
                               code, ch, i + 1);
        if (++nd > OCTAL_MAX_DIGITS)
            return bt__fail_at(diag, BT_EPARSE, i,
                               "octal code: more than %d digits",
                               OCTAL_MAX_DIGITS);
        d[nd] = (unsigned char)(ch - '0');
        if (d[nd] != 0)
            t = nd;
    }
    if (i == start)
        return bt__fail_at(diag, BT_EPARSE, i,
                           "octal code '%.40s': no digit after the point",
                           code);
    if (t == 0 && d[0] == 0)
        return bt__fail(diag, BT_EPARSE,
                        "octal code '%.40s' allows no move at all", code);

    hg = calloc(1, sizeof *hg);
    if (hg == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    g->state = hg;
    st = bt__heap_rules_digits(&hg->rules, BT__HEAP_OCTAL, d, t, 0);
    if (st != BT_OK)
        return bt__fail(diag, st, "out of memory");

    bt__buf_init(&b);
    bt__buf_printf(&b, "octal:%u.", (unsigned)d[0]);
    if (t == 0)
        bt__buf_putc(&b, '0');
    for (i = 1; i <= t; i++)
        bt__buf_putc(&b, (char)('0' + d[i]));
    g->spec = bt__buf_take(&b);
    return g->spec ? BT_OK : bt__fail(diag, BT_ENOMEM, "out of memory");
}

/*
 * The rules in the words of counters standing in rows (a heap is a row):
 * the counts k that share one digit go together, "take 1 or 2 counters
 * side by side, anywhere in a row" (Kayles, 0.77).
 */
static void
octal_rules(const bt_game *g, bt__buf *out)
{
    /* what a digit allows, by the bits 1 (whole), 2 (end), 4 (middle) */
    static const char *const where[8] = {
        "",
        "only when they are a whole row",
        "from the end of a longer row",
        "from the end of a row, or a whole row",
        "from the middle of a row, splitting it in two",
        "a whole row, or from the middle of a row, splitting it in two",
        "from a longer row: from its end, or from its middle, splitting it "
        "in two",
        "anywhere in a row (from the middle splits the row in two)",
    };
    const bt__heap_rules *r = &((const bt__heap_game *)g->state)->rules;
    const char *code = g->spec + strlen("octal:");
    size_t i, k, j, ways = 0;
    int seen[8] = {0};

    for (i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(code, aliases[i].code) == 0)
            break;
    if (i < sizeof aliases / sizeof aliases[0])
        bt__buf_puts(out, aliases[i].title);
    else
        bt__buf_printf(out, "Octal game %s", code);
    bt__buf_puts(out, ": counters stand in rows; take ");
    /* the digits in the order they first appear, each with its counts */
    for (k = 1; k <= r->t; k++) {
        unsigned d = r->digit[k] & 7u;
        size_t n = 0, last = k, done = 0;
        if (d == 0 || seen[d])
            continue;
        seen[d] = 1;
        for (j = k; j <= r->t; j++)
            if ((r->digit[j] & 7u) == d) {
                n++;
                last = j;
            }
        bt__buf_puts(out, ways++ ? "; or " : "");
        for (j = k; j <= r->t; j++) {
            if ((r->digit[j] & 7u) != d)
                continue;
            done++;
            bt__buf_printf(out, "%s%zu",
                           done == 1 ? "" : done == n ? " or " : ", ", j);
        }
        if (last == 1)
            bt__buf_printf(out, " counter, %s",
                           d == 1 ? "only when it is a whole row" : where[d]);
        else
            bt__buf_printf(out, " counters side by side, %s", where[d]);
    }
    if (r->digit[0] & 4u)
        bt__buf_printf(out, "%sno counter at all, splitting a heap in two",
                       ways++ ? "; or " : "");
    bt__buf_puts(out, ".");
}

const bt__ruleset bt__ruleset_octal = {
    .info =
        {"octal", "octal:D.DDD",
         "Octal games: digit d_k of the code d0.d1d2... says whether removing "
         "k counters from a heap may leave nothing (1), one heap (2) or two "
         "heaps (4).",
         "kayles dawsons-kayles dawsons-chess double-kayles officers "
         "treblecross",
         "Octal game", "octal:0.77"},
    .arity = 1,
    .init = octal_init,
    .fini = bt__heap_fini,
    .flags = BT__RS_HEAPS,
    .heap = bt__heap_state,
    .grundy = bt__heap_grundy,
    .options = bt__heap_options,
    .moves_to = bt__heap_moves_to,
    .is_option = bt__heap_is_option,
    .describe = bt__heap_describe,
    .rules = octal_rules,
    /* misere and explain: NULL, the generic search and explanation */
};
