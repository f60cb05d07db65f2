/*
 * takebreak.c -- take-and-break games given by a code (Winning Ways ch. 4;
 * the hexadecimal games of Siegel, Combinatorial Game Theory, ch. IV).
 *
 * The code d0.d1d2...: digit d_k, a hexadecimal digit 0-F, says what a move
 * removing k counters from one heap may leave: bit j (value 2^j) set means
 * it may leave j non-empty heaps, j = 0..3 (1: the whole heap of exactly k
 * is taken; 2: one heap; 4: two; 8: three).  d0 is 0, 4, 8 or C (a heap
 * may be split without removing counters).  Octal codes are the codes
 * whose digits are at most 7, and "octal:CODE" stays their own family.
 *
 * An infinite code ends with a block in brackets that repeats forever:
 * digit k beyond the written ones is the block's digit (k - t - 1) mod its
 * length.  0.[3] is Nim (take any number), 4.[3] Lasker's Nim (take any
 * number, or split a heap in two), 0.3003330[3] the all-but subtraction
 * game that takes any number but 2, 3 and 7 (CGSuite's notation).  A code
 * of one digit is that digit before the point: "4" is 4.0.
 *
 * Text: "tb:CODE", or "laskers-nim" (tb:4.[3]).  The canonical text writes
 * the digits in upper case, without redundant trailing digits, and the
 * shortest block: "tb:0.[3]", "tb:4.0", "tb:0.F8".
 *
 * What is proved (docs/grundy.md): the periodicity of finite codes, by
 * the Guy-Smith theorem (digits at most 7) or its extension to moves that
 * leave three heaps (n0 <= n < 3*n0 + 2p + t); nothing for infinite codes,
 * which are often arithmetic-periodic instead (Nim, Lasker's Nim), so a
 * heap of an infinite code is valued only within the computed values.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/heapgame.h"

/* The value of hexadecimal digit ch, or -1. */
static int
hex_value(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Reads one digit of text at column i into *out; a message on failure. */
static bt_status
read_digit(const char *text, size_t i, unsigned max_digit, const char *what,
           unsigned char *out, bt_diag *diag)
{
    int v = hex_value(text[i]);
    if (v < 0)
        return bt__fail_at(diag, BT_EPARSE, i,
                           "%s '%.40s': unexpected '%c' at column %zu "
                           "(codes look like 0.77, 4.[3])",
                           what, text, text[i], i + 1);
    if ((unsigned)v > max_digit)
        return bt__fail_at(diag, BT_EPARSE, i,
                           "%s '%.40s': digit %c at column %zu is not %s "
                           "(digits are 0 to %s)",
                           what, text, text[i], i + 1,
                           max_digit == 7 ? "octal" : "a code digit",
                           max_digit == 7 ? "7" : "F");
    *out = (unsigned char)v;
    return BT_OK;
}

/* The shortest period of block[0..n-1] (a divisor of n). */
static size_t
least_period(const unsigned char *block, size_t n)
{
    size_t p, i;
    for (p = 1; p < n; p++) {
        if (n % p != 0)
            continue;
        for (i = p; i < n && block[i] == block[i - p]; i++)
            ;
        if (i == n)
            return p;
    }
    return n;
}

bt_status
bt__tb_parse(bt__tb_code *c, const char *text, unsigned max_digit,
             const char *what, bt_diag *diag)
{
    size_t i = 0, nd = 0;
    int have_d0 = 0, zero = 1;
    bt_status st;

    memset(c, 0, sizeof *c);
    if (text == NULL || *text == '\0')
        return bt__fail(diag, BT_EPARSE, "%s is empty: write e.g. 0.77",
                        what);
    if (text[0] != '.') {
        if ((st = read_digit(text, 0, max_digit, what, &c->d[0], diag)) !=
            BT_OK)
            return st;
        if (c->d[0] & 3u)
            return bt__fail_at(diag, BT_EPARSE, 0,
                               "%s '%.40s': the digit before the point must "
                               "be %s (a move that removes nothing must "
                               "split a heap)",
                               what, text,
                               max_digit == 7 ? "0 or 4" : "0, 4, 8 or C");
        have_d0 = 1;
        i = 1;
    }
    if (text[i] == '\0' && have_d0)
        goto done; /* "4" is 4.0 */
    if (text[i] != '.')
        return bt__fail_at(diag, BT_EPARSE, i,
                           "%s '%.40s': expected a point at column %zu "
                           "(codes look like 0.77, 4.[3])",
                           what, text, i + 1);
    for (i++; text[i] != '\0' && text[i] != '['; i++) {
        if (nd == BT__TB_MAX_DIGITS)
            return bt__fail_at(diag, BT_EPARSE, i,
                               "%s: more than %d digits after the point",
                               what, BT__TB_MAX_DIGITS);
        if ((st = read_digit(text, i, max_digit, what, &c->d[++nd], diag)) !=
            BT_OK)
            return st;
    }
    c->t = nd;
    if (text[i] == '[') {
        size_t open = i;
        for (i++; text[i] != '\0' && text[i] != ']'; i++) {
            if (c->blen == BT__TB_MAX_BLOCK)
                return bt__fail_at(diag, BT_EPARSE, i,
                                   "%s: a repeating block of more than %d "
                                   "digits",
                                   what, BT__TB_MAX_BLOCK);
            if ((st = read_digit(text, i, max_digit, what,
                                 &c->block[c->blen++], diag)) != BT_OK)
                return st;
        }
        if (text[i] != ']')
            return bt__fail_at(diag, BT_EPARSE, open,
                               "%s '%.40s': the '[' at column %zu is not "
                               "closed",
                               what, text, open + 1);
        if (c->blen == 0)
            return bt__fail_at(diag, BT_EPARSE, open,
                               "%s '%.40s': an empty repeating block at "
                               "column %zu",
                               what, text, open + 1);
        if (text[i + 1] != '\0')
            return bt__fail_at(diag, BT_EPARSE, i + 1,
                               "%s '%.40s': unexpected '%c' at column %zu "
                               "(the repeating block ends the code)",
                               what, text, text[i + 1], i + 2);
    } else if (nd == 0) {
        return bt__fail_at(diag, BT_EPARSE, i,
                           "%s '%.40s': no digit after the point", what,
                           text);
    }

done:
    /* the canonical form: the shortest block, no prefix digit the block
       would give anyway, no block of zeros, no trailing zeros */
    for (i = 0; i < c->blen; i++)
        if (c->block[i] != 0)
            zero = 0;
    if (zero)
        c->blen = 0;
    if (c->blen > 0) {
        c->blen = least_period(c->block, c->blen);
        while (c->t > 0 && c->d[c->t] == c->block[c->blen - 1]) {
            unsigned char last = c->block[c->blen - 1];
            memmove(c->block + 1, c->block, c->blen - 1);
            c->block[0] = last;
            c->t--;
        }
    } else {
        while (c->t > 0 && c->d[c->t] == 0)
            c->t--;
        if (c->t == 0 && c->d[0] == 0)
            return bt__fail(diag, BT_EPARSE,
                            "%s '%.40s' allows no move at all", what, text);
    }
    return BT_OK;
}

void
bt__tb_format(bt__buf *b, const bt__tb_code *c)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t i;
    bt__buf_putc(b, hex[c->d[0]]);
    bt__buf_putc(b, '.');
    for (i = 1; i <= c->t; i++)
        bt__buf_putc(b, hex[c->d[i]]);
    if (c->blen > 0) {
        bt__buf_putc(b, '[');
        for (i = 0; i < c->blen; i++)
            bt__buf_putc(b, hex[c->block[i]]);
        bt__buf_putc(b, ']');
    } else if (c->t == 0) {
        bt__buf_putc(b, '0');
    }
}

bt_status
bt__heap_rules_code(bt__heap_rules *r, const bt__tb_code *c)
{
    bt_status st = bt__heap_rules_digits(r, BT__HEAP_TB, c->d, c->t, 0);
    if (st != BT_OK || c->blen == 0)
        return st;
    r->block = malloc(c->blen);
    if (r->block == NULL) {
        bt__heap_rules_clear(r);
        return BT_ENOMEM;
    }
    memcpy(r->block, c->block, c->blen);
    r->blen = c->blen;
    r->general = 1;
    r->provable = 0; /* no theorem for infinite codes */
    r->sub_window = 0;
    return BT_OK;
}

static bt_status
tb_init(bt_game *g, const char *name, const char *params, bt_diag *diag)
{
    const char *code = params;
    bt__tb_code c;
    bt__heap_game *hg;
    bt__buf b;
    bt_status st;

    if (strcmp(name, "laskers-nim") == 0) {
        if (params != NULL)
            return bt__fail_at(diag, BT_EPARSE, 0,
                               "%s takes no parameters (it is tb:4.[3])",
                               name);
        code = "4.[3]";
    } else if (params == NULL || *params == '\0') {
        return bt__fail(diag, BT_EPARSE,
                        "tb needs a code, e.g. tb:0.77, tb:4.[3] or tb:0.F");
    }
    if ((st = bt__tb_parse(&c, code, 15, "tb code", diag)) != BT_OK)
        return st;
    hg = calloc(1, sizeof *hg);
    if (hg == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    g->state = hg;
    if (bt__heap_rules_code(&hg->rules, &c) != BT_OK)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    bt__buf_init(&b);
    bt__buf_puts(&b, "tb:");
    bt__tb_format(&b, &c);
    g->spec = bt__buf_take(&b);
    return g->spec ? BT_OK : bt__fail(diag, BT_ENOMEM, "out of memory");
}

const bt__ruleset bt__ruleset_tb = {
    .info =
        {"tb", "tb:CODE",
         "Take-and-break games: hexadecimal digit d_k of the code "
         "d0.d1d2... says whether removing k counters from a heap may leave "
         "nothing (1), one heap (2), two (4) or three (8); a block in "
         "brackets repeats forever (tb:0.[3] is Nim, tb:4.[3] Lasker's Nim).",
         "laskers-nim", "Take-and-break game", "tb:4.[3]"},
    .arity = 1,
    .init = tb_init,
    .fini = bt__heap_fini,
    .flags = BT__RS_HEAPS,
    .heap = bt__heap_state,
    .grundy = bt__heap_grundy,
    .options = bt__heap_options,
    .moves_to = bt__heap_moves_to,
    .is_option = bt__heap_is_option,
    .describe = bt__heap_describe,
    /* misere and explain: NULL, the generic search and explanation */
};
