/*
 * nimber_expr.c -- the expressions of `bouton nimber` and POST /v1/nimber:
 * the program's input syntax, evaluated by the library's field
 * (include/bouton/nimber.h).
 *
 *     expr     := term { '+' term }             + the nim-sum
 *     term     := power { '*' power }           * the nim-product
 *     power    := atom [ '^' exponent ]         a nim-power
 *     exponent := [ '-' | '+' ] number | '(' [ '-' | '+' ] number ')'
 *     atom     := number | '(' expr ')' | inv(expr) | sqrt(expr)
 *               | order(expr) | log(expr, expr)
 *     number   := decimal digits | 0x hexadecimal digits
 *
 * Blanks may separate the tokens.  The exponent is an ordinary integer
 * (a count of factors, negative for the inverse); `^` does not chain
 * (write (x^a)^b).  The text is bounded by lim->max_text bytes and its
 * nesting by NIMEXPR_MAX_DEPTH; every operation by the library's limits.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct nparser {
    const char *s;
    size_t pos, len;
    unsigned depth;
    const bt_limits *lim;
    bt_diag *d;
    FILE *ex;        /* the explanation, or NULL */
    unsigned steps;  /* explained so far */
    unsigned hidden; /* steps past NIMEXPR_MAX_STEPS, not shown */
    size_t ops;      /* operations done, for the polls */
} nparser;

/* Steps of an explanation shown; the rest are counted. */
#define NIMEXPR_MAX_STEPS 32
/* Numbers shown in full in an explanation up to this many digits. */
#define NIMEXPR_SHOW_DIGITS 40

static bt_status fail_at(nparser *p, bt_status st, size_t at, const char *fmt,
                         ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static bt_status
fail_at(nparser *p, bt_status st, size_t at, const char *fmt, ...)
{
    va_list ap;
    char msg[200];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (p->d) {
        snprintf(p->d->message, sizeof p->d->message, "%s at byte %zu", msg,
                 at + 1);
        p->d->offset = at;
        p->d->has_offset = 1;
    }
    return st;
}

/* A library failure, with the operation it came from. */
static bt_status
lib_fail(nparser *p, bt_status st, const char *op, size_t at)
{
    if (p->d) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", p->d->message);
        snprintf(p->d->message, sizeof p->d->message, "%s at byte %zu: %.200s",
                 op, at + 1, msg);
        p->d->offset = at;
        p->d->has_offset = 1;
    }
    return st;
}

static void
skip(nparser *p)
{
    while (p->pos < p->len && isspace((unsigned char)p->s[p->pos]))
        p->pos++;
}

static int
peek(nparser *p)
{
    skip(p);
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

/* What stands at pos, for messages: "'x'" or "the end". */
static const char *
here(nparser *p, char *buf, size_t size)
{
    if (p->pos >= p->len)
        return "the end";
    if (isprint((unsigned char)p->s[p->pos]))
        snprintf(buf, size, "'%c'", p->s[p->pos]);
    else
        snprintf(buf, size, "byte \\x%02x", (unsigned char)p->s[p->pos]);
    return buf;
}

static bt_status
expect(nparser *p, char c)
{
    char b[16];
    if (peek(p) != c)
        return fail_at(p, BT_EPARSE, p->pos, "expected '%c', not %s", c,
                       here(p, b, sizeof b));
    p->pos++;
    return BT_OK;
}

/* Prints x in an explanation: in full when short, else its size. */
static void
show(FILE *f, const mpz_t x)
{
    size_t digits = mpz_sizeinbase(x, 10);
    if (digits <= NIMEXPR_SHOW_DIGITS)
        mpz_out_str(f, 10, x);
    else
        fprintf(f, "<a %zu-bit number>", mpz_sizeinbase(x, 2));
}

/* Starts an explained step; 0 when past the steps shown. */
static int
step(nparser *p)
{
    if (p->ex == NULL)
        return 0;
    if (p->steps >= NIMEXPR_MAX_STEPS) {
        p->hidden++;
        return 0;
    }
    p->steps++;
    return 1;
}

/* number := decimal digits | 0x hex digits */
static bt_status
number(nparser *p, mpz_t r)
{
    size_t start, at = p->pos, n;
    int base = 10;
    char *tmp, b[16];
    if (p->pos + 1 < p->len && p->s[p->pos] == '0' &&
        (p->s[p->pos + 1] == 'x' || p->s[p->pos + 1] == 'X')) {
        base = 16;
        p->pos += 2;
    }
    start = p->pos;
    while (p->pos < p->len &&
           (base == 16 ? isxdigit((unsigned char)p->s[p->pos])
                       : isdigit((unsigned char)p->s[p->pos])))
        p->pos++;
    n = p->pos - start;
    if (n == 0)
        return fail_at(p, BT_EPARSE, p->pos, "expected %s, not %s",
                       base == 16 ? "hexadecimal digits after 0x" : "a number",
                       here(p, b, sizeof b));
    if (p->pos < p->len && isalnum((unsigned char)p->s[p->pos]))
        return fail_at(p, BT_EPARSE, p->pos,
                       "'%c' cannot follow the digits of a number",
                       p->s[p->pos]);
    /* the digit limit counts decimal digits, leading zeros aside; a
       hexadecimal number has at least as many decimal digits as hex ones
       (past one digit), and is counted exactly once converted */
    {
        size_t z = 0, d;
        while (z + 1 < n && p->s[start + z] == '0')
            z++;
        if (n - z > p->lim->max_digits)
            return fail_at(p, BT_ELIMIT, at,
                           "a number of more than %zu digits (the "
                           "max_digits limit)",
                           p->lim->max_digits);
        tmp = malloc(n + 1);
        if (tmp == NULL)
            return fail_at(p, BT_ENOMEM, at, "out of memory");
        memcpy(tmp, p->s + start, n);
        tmp[n] = '\0';
        mpz_set_str(r, tmp, base);
        free(tmp);
        d = mpz_sizeinbase(r, 10);
        if (d == p->lim->max_digits + 1) {
            /* mpz_sizeinbase may overstate by one: count exactly */
            char *str = mpz_get_str(NULL, 10, r);
            d = str ? strlen(str) : d;
            free(str);
        }
        if (d > p->lim->max_digits)
            return fail_at(p, BT_ELIMIT, at,
                           "a number of more than %zu digits (the "
                           "max_digits limit)",
                           p->lim->max_digits);
    }
    return BT_OK;
}

static bt_status expr(nparser *p, mpz_t r);

/* Polls the interrupt every 1024 operations: a long text of small ones
   never reaches the library's own polls. */
static bt_status
poll_ops(nparser *p)
{
    if ((++p->ops & 1023) == 0 && p->lim->interrupt &&
        p->lim->interrupt(p->lim->interrupt_ud))
        return fail_at(p, BT_EINTR, p->pos,
                       "interrupted: the time budget ran out");
    return BT_OK;
}

/* An ordinary integer exponent: [sign] number, or in parentheses. */
static bt_status
exponent(nparser *p, mpz_t e)
{
    bt_status st;
    int paren = 0, neg = 0;
    if (peek(p) == '(') {
        paren = 1;
        p->pos++;
    }
    if (peek(p) == '-' || peek(p) == '+') {
        neg = p->s[p->pos] == '-';
        p->pos++;
    }
    skip(p);
    if ((st = number(p, e)) != BT_OK)
        return st;
    if (neg)
        mpz_neg(e, e);
    return paren ? expect(p, ')') : BT_OK;
}

/* The functions, by name. */
static bt_status
function(nparser *p, mpz_t r, const char *name, size_t at)
{
    bt_status st;
    mpz_t x, y;
    int two = strcmp(name, "log") == 0;
    if (strcmp(name, "inv") && strcmp(name, "sqrt") && strcmp(name, "order") &&
        !two)
        return fail_at(p, BT_EPARSE, at,
                       "unknown function '%s' (inv, sqrt, order, log)", name);
    if ((st = expect(p, '(')) != BT_OK)
        return st;
    mpz_init(x);
    mpz_init(y);
    if ((st = expr(p, x)) != BT_OK)
        goto done;
    if (two) {
        if ((st = expect(p, ',')) != BT_OK || (st = expr(p, y)) != BT_OK)
            goto done;
    }
    if ((st = expect(p, ')')) != BT_OK)
        goto done;
    if (strcmp(name, "inv") == 0)
        st = bt_nimber_inv(r, x, p->lim, p->d);
    else if (strcmp(name, "sqrt") == 0)
        st = bt_nimber_sqrt(r, x, p->lim, p->d);
    else if (strcmp(name, "order") == 0)
        st = bt_nimber_order(r, x, p->d);
    else
        st = bt_nimber_log(r, x, y, p->d);
    if (st != BT_OK) {
        st = lib_fail(p, st, name, at);
        goto done;
    }
    if (step(p)) {
        FILE *f = p->ex;
        if (two) {
            fputs("log(", f), show(f, x), fputs(", ", f), show(f, y);
            fputs(") = ", f), show(f, r);
            fputs(": the least e >= 0 with ", f), show(f, x);
            fputs("^e = ", f), show(f, y);
            fputs(" (Pohlig-Hellman over the prime factors of the order "
                  "of the base)\n",
                  f);
        } else {
            fprintf(f, "%s(", name), show(f, x), fputs(") = ", f);
            show(f, r);
            if (strcmp(name, "inv") == 0)
                fputs(": ", f), show(f, x), fputs(" * ", f), show(f, r),
                    fputs(" = 1\n", f);
            else if (strcmp(name, "sqrt") == 0)
                fputs(": ", f), show(f, r), fputs(" * ", f), show(f, r),
                    fputs(" = ", f), show(f, x), fputs("\n", f);
            else
                fputs(": the least n >= 1 with x^n = 1, a divisor of "
                      "2^64 - 1 = 3*5*17*257*641*65537*6700417\n",
                      f);
        }
    }
done:
    mpz_clear(x);
    mpz_clear(y);
    return st;
}

static bt_status
atom(nparser *p, mpz_t r)
{
    bt_status st;
    size_t at;
    int c = peek(p);
    char b[16];
    at = p->pos;
    if (c == '(' || isalpha(c)) {
        if (++p->depth > NIMEXPR_MAX_DEPTH)
            return fail_at(p, BT_ELIMIT, at,
                           "the expression nests more than %d deep",
                           NIMEXPR_MAX_DEPTH);
        if (c == '(') {
            p->pos++;
            if ((st = expr(p, r)) != BT_OK)
                return st;
            st = expect(p, ')');
        } else {
            char name[8];
            size_t n = 0;
            while (p->pos < p->len && isalpha((unsigned char)p->s[p->pos])) {
                if (n < sizeof name - 1)
                    name[n] = p->s[p->pos];
                n++, p->pos++;
            }
            name[n < sizeof name ? n : sizeof name - 1] = '\0';
            if (n >= sizeof name)
                return fail_at(p, BT_EPARSE, at,
                               "unknown function '%.*s' (inv, sqrt, "
                               "order, log)",
                               (int)(n > 20 ? 20 : n), p->s + at);
            st = function(p, r, name, at);
        }
        p->depth--;
        return st;
    }
    if (isdigit(c))
        return number(p, r);
    if (c == '-')
        return fail_at(p, BT_EINVAL, at,
                       "nimbers are non-negative: no '-' (the nim-sum is "
                       "its own inverse: x + x = 0)");
    return fail_at(p, BT_EPARSE, at,
                   "expected a number, '(' or a function, not %s",
                   here(p, b, sizeof b));
}

static bt_status
power(nparser *p, mpz_t r)
{
    bt_status st;
    size_t at;
    mpz_t e, x;
    if ((st = atom(p, r)) != BT_OK || peek(p) != '^')
        return st;
    at = p->pos++;
    mpz_init(e);
    mpz_init(x);
    mpz_set(x, r);
    if ((st = exponent(p, e)) == BT_OK &&
        (st = bt_nimber_pow(r, x, e, p->lim, p->d)) != BT_OK)
        st = lib_fail(p, st, "^", at);
    if (st == BT_OK && peek(p) == '^')
        st = fail_at(p, BT_EPARSE, p->pos,
                     "'^' does not chain: write (x^a)^b or x^(a*b)");
    if (st == BT_OK && step(p)) {
        show(p->ex, x), fputs("^", p->ex), show(p->ex, e);
        fputs(" = ", p->ex), show(p->ex, r);
        fputs(" (square and multiply; the exponent counts modulo "
              "2^(2^k) - 1 in the field of 2^(2^k) elements holding ",
              p->ex);
        show(p->ex, x);
        fputs(")\n", p->ex);
    }
    mpz_clear(e);
    mpz_clear(x);
    return st;
}

static bt_status
term(nparser *p, mpz_t r)
{
    bt_status st;
    size_t at;
    mpz_t t, x;
    if ((st = power(p, r)) != BT_OK)
        return st;
    mpz_init(t);
    mpz_init(x);
    while (peek(p) == '*') {
        at = p->pos++;
        if ((st = poll_ops(p)) != BT_OK || (st = power(p, t)) != BT_OK)
            break;
        mpz_set(x, r);
        if ((st = bt_nimber_mul(r, x, t, p->lim, p->d)) != BT_OK) {
            st = lib_fail(p, st, "*", at);
            break;
        }
        if (step(p)) {
            char *text = NULL;
            if (bt_nimber_mul_explain(&text, x, t, NULL) == BT_OK) {
                fputs(text, p->ex);
                free(text);
            } else {
                show(p->ex, x), fputs(" * ", p->ex), show(p->ex, t);
                fputs(" = ", p->ex), show(p->ex, r);
                fputs(" (the tower: three half-size products a level; "
                      "explained step by step below 256)\n",
                      p->ex);
            }
        }
    }
    mpz_clear(t);
    mpz_clear(x);
    return st;
}

/* The nim-sum in binary columns, as Bouton adds (operands below 2^16). */
static void
explain_sum(FILE *f, const mpz_t a, const mpz_t b, const mpz_t r)
{
    size_t w = mpz_sizeinbase(a, 2), i;
    const mpz_srcptr v[3] = {a, b, r};
    if (mpz_sizeinbase(b, 2) > w)
        w = mpz_sizeinbase(b, 2);
    if (w > 16) {
        show(f, a), fputs(" + ", f), show(f, b), fputs(" = ", f), show(f, r);
        fputs(" (binary digits added without carry)\n", f);
        return;
    }
    for (i = 0; i < 3; i++) {
        size_t j;
        fprintf(f, "%s%6lu = ", i == 2 ? "  sum " : "      ", mpz_get_ui(v[i]));
        for (j = w; j-- > 0;)
            fputc(mpz_tstbit(v[i], j) ? '1' : '0', f);
        fputs(i == 2 ? "  (each column added mod 2: no carry)\n" : "\n", f);
    }
}

static bt_status
expr(nparser *p, mpz_t r)
{
    bt_status st;
    mpz_t t, x;
    if ((st = term(p, r)) != BT_OK)
        return st;
    mpz_init(t);
    mpz_init(x);
    while (peek(p) == '+') {
        p->pos++;
        if ((st = poll_ops(p)) != BT_OK || (st = term(p, t)) != BT_OK)
            break;
        mpz_set(x, r);
        mpz_xor(r, r, t);
        if (step(p)) {
            show(p->ex, x), fputs(" + ", p->ex), show(p->ex, t);
            fputs(" = ", p->ex), show(p->ex, r), fputs(":\n", p->ex);
            explain_sum(p->ex, x, t, r);
        }
    }
    mpz_clear(t);
    mpz_clear(x);
    return st;
}

bt_status
nimexpr_eval(mpz_t r, const char *text, const bt_limits *lim,
             char **explanation, bt_diag *diag)
{
    nparser p;
    bt_status st;
    char *buf = NULL, b[16];
    size_t size = 0;
    mpz_t v;
    memset(&p, 0, sizeof p);
    p.s = text;
    p.len = strlen(text);
    p.lim = lim;
    p.d = diag;
    if (explanation)
        *explanation = NULL;
    if (p.len > lim->max_text)
        return fail_at(&p, BT_ELIMIT, 0,
                       "the expression has more than %zu bytes (the "
                       "max_text limit)",
                       lim->max_text);
    if (explanation && (p.ex = open_memstream(&buf, &size)) == NULL)
        return fail_at(&p, BT_ENOMEM, 0, "out of memory");
    mpz_init(v);
    if (peek(&p) < 0)
        st = fail_at(&p, BT_EPARSE, 0, "empty expression");
    else if ((st = expr(&p, v)) == BT_OK && peek(&p) >= 0)
        st = fail_at(&p, BT_EPARSE, p.pos,
                     "expected an operator (+, *, ^) or the end, not %s",
                     here(&p, b, sizeof b));
    if (p.ex) {
        if (p.hidden)
            fprintf(p.ex, "(%u more steps not shown)\n", p.hidden);
        if (fclose(p.ex) != 0 && st == BT_OK)
            st = fail_at(&p, BT_ENOMEM, 0, "out of memory");
        if (st == BT_OK)
            *explanation = buf;
        else
            free(buf);
    }
    if (st == BT_OK)
        mpz_set(r, v);
    mpz_clear(v);
    return st;
}
