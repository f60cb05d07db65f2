/*
 * util.c -- statuses, diagnostics, limits and text buffers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int
bt_version_number(void)
{
    return BT_VERSION_MAJOR * 10000 + BT_VERSION_MINOR * 100 +
           BT_VERSION_PATCH;
}

const char *
bt_version_string(void)
{
    return BT_VERSION_STRING;
}

const char *
bt_status_name(bt_status s)
{
    switch (s) {
#define BT__STATUS_NAME(name, msg)                                         \
    case BT_##name:                                                        \
        return #name;
        BT_STATUS_MAP(BT__STATUS_NAME)
#undef BT__STATUS_NAME
    default:
        return "EUNKNOWN";
    }
}

const char *
bt_strerror(bt_status s)
{
    switch (s) {
#define BT__STATUS_MSG(name, msg)                                          \
    case BT_##name:                                                        \
        return msg;
        BT_STATUS_MAP(BT__STATUS_MSG)
#undef BT__STATUS_MSG
    default:
        return "unknown status";
    }
}

static void
vdiag(bt_diag *diag, const char *fmt, va_list ap)
{
    if (diag == NULL)
        return;
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    diag->has_offset = 0;
    diag->offset = 0;
}

bt_status
bt__fail(bt_diag *diag, bt_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(diag, fmt, ap);
    va_end(ap);
    return st;
}

bt_status
bt__fail_at(bt_diag *diag, bt_status st, size_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(diag, fmt, ap);
    va_end(ap);
    if (diag != NULL) {
        diag->offset = offset;
        diag->has_offset = 1;
    }
    return st;
}

void
bt_limits_default(bt_limits *lim)
{
    memset(lim, 0, sizeof *lim);
    lim->max_components = 10000000;
    lim->max_digits = 1000000;
    lim->max_text = (size_t)64 << 20;
    lim->max_search = 250000; /* about 8 s of search at most */
    lim->max_grundy = (size_t)1 << 26;
    lim->max_table_piles = 4096;
    lim->max_memory = (size_t)1 << 30;
}

const bt_limits *
bt__limits(const bt_limits *lim)
{
    static bt_limits dflt;
    static int ready;
    if (lim != NULL)
        return lim;
    if (!ready) { /* idempotent: racing threads write the same values */
        bt_limits_default(&dflt);
        ready = 1;
    }
    return &dflt;
}

bt_status
bt__poll(const bt_limits *lim)
{
    if (lim != NULL && lim->interrupt != NULL &&
        lim->interrupt(lim->interrupt_ud))
        return BT_EINTR;
    return BT_OK;
}

/* ------------------------------------------------------------ buffers */

void
bt__buf_init(bt__buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

void
bt__buf_free(bt__buf *b)
{
    free(b->data);
    bt__buf_init(b);
}

static int
reserve(bt__buf *b, size_t extra)
{
    size_t need, cap;
    char *p;
    if (b->failed)
        return 0;
    need = b->len + extra + 1;
    if (need <= b->cap)
        return 1;
    cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap *= 2;
    p = realloc(b->data, cap);
    if (p == NULL) {
        b->failed = 1;
        return 0;
    }
    b->data = p;
    b->cap = cap;
    return 1;
}

void
bt__buf_puts(bt__buf *b, const char *s)
{
    size_t n = strlen(s);
    if (!reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
}

void
bt__buf_putc(bt__buf *b, char c)
{
    if (!reserve(b, 1))
        return;
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

void
bt__buf_printf(bt__buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void
bt__buf_mpz(bt__buf *b, const mpz_t x)
{
    size_t n = mpz_sizeinbase(x, 10) + 2;
    if (!reserve(b, n))
        return;
    mpz_get_str(b->data + b->len, 10, x);
    b->len += strlen(b->data + b->len);
}

void
bt__buf_mpz_bin(bt__buf *b, const mpz_t x, size_t width)
{
    size_t n = mpz_sgn(x) == 0 ? 1 : mpz_sizeinbase(x, 2);
    size_t pad = width > n ? width - n : 0;
    if (!reserve(b, pad + n + 2))
        return;
    memset(b->data + b->len, ' ', pad);
    b->len += pad;
    mpz_get_str(b->data + b->len, 2, x);
    b->len += strlen(b->data + b->len);
}

char *
bt__buf_take(bt__buf *b)
{
    char *s;
    if (b->failed) {
        bt__buf_free(b);
        return NULL;
    }
    if (b->data == NULL && !reserve(b, 0))
        return NULL;
    if (b->data)
        b->data[b->len] = '\0';
    s = b->data;
    bt__buf_init(b);
    return s;
}

/* ------------------------------------------------------------ numbers */

bt_status
bt__check_number(const mpz_t x, const bt_limits *lim, const char *what,
                 bt_diag *diag)
{
    size_t d;
    lim = bt__limits(lim);
    if (mpz_sgn(x) < 0)
        return bt__fail(diag, BT_EINVAL, "%s is negative", what);
    d = mpz_sizeinbase(x, 10);
    if (d == lim->max_digits + 1) {
        /* mpz_sizeinbase may overstate by one: count exactly */
        char *str = mpz_get_str(NULL, 10, x);
        d = strlen(str);
        free(str);
    }
    if (d > lim->max_digits)
        return bt__fail(diag, BT_ELIMIT,
                        "%s has more than %zu digits (the max_digits limit)",
                        what, lim->max_digits);
    return BT_OK;
}

bt_status
bt__parse_number(mpz_t rop, const char *s, size_t len, const bt_limits *lim,
                 bt_diag *diag)
{
    char *tmp, small[128];
    size_t i;
    lim = bt__limits(lim);
    if (len == 0)
        return bt__fail(diag, BT_EPARSE, "empty number");
    for (i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return bt__fail_at(diag, BT_EPARSE, i,
                               "'%.*s' is not a non-negative integer",
                               (int)(len > 40 ? 40 : len), s);
    /* leading zeros do not count against the digit limit */
    while (len > 1 && s[0] == '0') {
        s++;
        len--;
    }
    if (len > lim->max_digits)
        return bt__fail(diag, BT_ELIMIT,
                        "a number of %zu digits is more than the limit of "
                        "%zu (max_digits)",
                        len, lim->max_digits);
    if (len < sizeof small) {
        /* most numbers are short: spare the allocation */
        memcpy(small, s, len);
        small[len] = '\0';
        mpz_set_str(rop, small, 10);
        return BT_OK;
    }
    tmp = malloc(len + 1);
    if (tmp == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    mpz_set_str(rop, tmp, 10);
    free(tmp);
    return BT_OK;
}
