/*
 * sequence_rules.c -- the rules of a heap game as the sequence engine reads
 * them (bt__heap_rules, heapgame.h): built from the digits of an octal or
 * hexadecimal code, a subtraction set or Grundy's game, released, and
 * read digit by digit; and a heap's size in words for messages.  It calls
 * only the core of the library (core/core.h) and the C library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/heapgame.h"

/* Writes n in decimal into buf (size 64), eliding the middle of a huge
   number. */
const char *
bt__heap_text(char *buf, const mpz_t n)
{
    size_t digits = mpz_sizeinbase(n, 10);
    if (digits <= 40) {
        gmp_snprintf(buf, 64, "%Zd", n);
    } else {
        char head[24];
        gmp_snprintf(head, sizeof head, "%Zd", n); /* the leading digits */
        snprintf(buf, 64, "%.20s... (%zu digits)", head, digits);
    }
    return buf;
}

/* ------------------------------------------------------------- rules */

void
bt__heap_rules_clear(bt__heap_rules *r)
{
    free(r->whole);
    free(r->one);
    free(r->split);
    free(r->triple);
    free(r->block);
    free(r->lo);
    free(r->hi);
    free(r->digit);
    memset(r, 0, sizeof *r);
}

bt_status
bt__heap_rules_digits(bt__heap_rules *r, bt__heap_kind kind,
                      const unsigned char *d, size_t t, int unequal)
{
    size_t k, nw = 0, no = 0, ns = 0, nt = 0;
    int only3 = 1;
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->t = t;
    r->unequal = unequal;
    r->digit = malloc(t + 1);
    r->whole = malloc((t + 1) * sizeof *r->whole);
    r->one = malloc((t + 1) * sizeof *r->one);
    r->split = malloc((t + 1) * sizeof *r->split);
    r->triple = malloc((t + 1) * sizeof *r->triple);
    if (r->digit == NULL || r->whole == NULL || r->one == NULL ||
        r->split == NULL || r->triple == NULL) {
        bt__heap_rules_clear(r);
        return BT_ENOMEM;
    }
    memcpy(r->digit, d, t + 1);
    for (k = 0; k <= t; k++) {
        if (d[k] & 1u)
            r->whole[nw++] = k;
        if (d[k] & 2u)
            r->one[no++] = k;
        if (d[k] & 4u)
            r->split[ns++] = k;
        if (d[k] & 8u)
            r->triple[nt++] = k;
        if (d[k] != 0 && d[k] != 3)
            only3 = 0;
    }
    r->nwhole = nw;
    r->none = no;
    r->nsplit = ns;
    r->ntriple = nt;
    r->general = nt > 0;
    /* Guy-Smith for octal codes; its extension to three heaps for the
       finite hexadecimal codes of tb (need_of) */
    r->provable = kind == BT__HEAP_OCTAL || kind == BT__HEAP_TB;
    r->sub_window = only3;
    return BT_OK;
}

unsigned
bt__heap_digit(const bt__heap_rules *r, size_t k)
{
    if (k <= r->t)
        return r->digit[k];
    return r->blen > 0 ? r->block[(k - r->t - 1) % r->blen] : 0u;
}
