/*
 * util.c -- statuses, diagnostics, limits and text buffers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/core.h"

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
    lim->max_games = 1000;
    lim->max_memory = (size_t)1 << 30;
    {
        /* on a machine (or under a ulimit -v) with less address space, half
           of it: the process's own code, stacks and malloc's slack need
           the rest */
        struct rlimit rl;
        if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
            rl.rlim_cur / 2 < lim->max_memory)
            lim->max_memory = (size_t)(rl.rlim_cur / 2);
    }
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

/* The budget that GMP's allocations on this thread are charged to (see
   bt__budget_enter and bt__gmp_enter in core/core.h). */
static _Thread_local bt__budget *current_budget;

bt_status
bt__poll(const bt_limits *lim)
{
    const bt__budget *g = current_budget;
    /* numbers grown past max_memory stop the computation as an interrupt
       would; its entry point reports BT_ELIMIT (bt__gmp_leave) */
    if (g != NULL && g->exceeded)
        return BT_EINTR;
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
bt__buf_vprintf(bt__buf *b, const char *fmt, va_list ap)
{
    va_list again;
    int n;
    va_copy(again, ap);
    n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0)
        b->failed = 1;
    if (n >= 0 && reserve(b, (size_t)n)) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
        b->len += (size_t)n;
    }
    va_end(again);
}

void
bt__buf_printf(bt__buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bt__buf_vprintf(b, fmt, ap);
    va_end(ap);
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
bt__check_count(size_t k, const mpz_t min, const mpz_t max,
                const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    lim = bt__limits(lim);
    if ((st = bt__check_number(min, lim, "the minimum pile", diag)) != BT_OK)
        return st;
    if ((st = bt__check_number(max, lim, "the maximum pile", diag)) != BT_OK)
        return st;
    if (mpz_cmp(min, max) > 0)
        return bt__fail(diag, BT_EINVAL,
                        "the minimum pile is larger than the maximum");
    if (k > lim->max_table_piles)
        return bt__count_piles_fail(k, lim, diag);
    return BT_OK;
}

bt_status
bt__count_piles_fail(size_t k, const bt_limits *lim, bt_diag *diag)
{
    return bt__fail(diag, BT_ELIMIT,
                    "%zu piles are more than the limit of %zu "
                    "(max_table_piles)",
                    k, bt__limits(lim)->max_table_piles);
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

/* ---------------------------------------------------------- memory budget */

/* What one malloc'd block costs beyond its bytes (the allocator's header,
   rounded), so that many small blocks are not counted as free. */
#define BT__MALLOC_OVERHEAD 16

void
bt__budget_init(bt__budget *b, const bt_limits *lim)
{
    memset(b, 0, sizeof *b);
    b->max = bt__limits(lim)->max_memory;
}

static bt_status
budget_message(const bt__budget *b, bt_diag *diag)
{
    return bt__fail(diag, BT_ELIMIT,
                    "the computation needs more than %zu bytes of memory "
                    "(the max_memory limit)",
                    b->max);
}

bt_status
bt__budget_charge(bt__budget *b, size_t bytes, bt_diag *diag)
{
    if (b->max != 0 && (bytes > b->max || b->used > b->max - bytes)) {
        b->exceeded = 1;
        return budget_message(b, diag);
    }
    b->used += bytes;
    if (b->used > b->peak)
        b->peak = b->used;
    return b->exceeded ? budget_message(b, diag) : BT_OK;
}

void
bt__budget_release(bt__budget *b, size_t bytes)
{
    b->used = bytes < b->used ? b->used - bytes : 0;
}

bt_status
bt__budget_check(bt__budget *b, const bt_limits *lim, bt_diag *diag)
{
    if (b != NULL && b->exceeded)
        return budget_message(b, diag);
    if (bt__poll(lim) != BT_OK)
        return bt__fail(diag, BT_EINTR, "the time budget ran out");
    return BT_OK;
}

bt__budget *
bt__budget_enter(bt__budget *b)
{
    bt__budget *prev = current_budget;
    current_budget = b;
    return prev;
}

void
bt__budget_leave(bt__budget *prev)
{
    current_budget = prev;
}

void
bt__gmp_enter(bt__gmp_scope *s, const bt_limits *lim)
{
    s->prev = current_budget;
    s->own = current_budget == NULL;
    if (s->own) {
        bt__budget_init(&s->budget, lim);
        current_budget = &s->budget;
    }
}

int
bt__gmp_exceeded(void)
{
    return current_budget != NULL && current_budget->exceeded;
}

bt_status
bt__gmp_leave(bt__gmp_scope *s, bt_status st, bt_diag *diag)
{
    if (!s->own)
        return st;
    current_budget = s->prev;
    /* a poll saw the numbers past max_memory and stopped the computation
       (BT_EINTR), or a limit stopped it on the way: say why */
    if (s->budget.exceeded && (st == BT_EINTR || st == BT_ELIMIT))
        return budget_message(&s->budget, diag);
    return st;
}

bt_status
bt__gmp_enter_closed(bt__gmp_scope *s, const bt_limits *lim, bt_diag *diag)
{
    if (current_budget == NULL && lim != NULL && lim->interrupt != NULL &&
        lim->interrupt(lim->interrupt_ud))
        return bt__fail(diag, BT_EINTR, "the time budget ran out");
    bt__gmp_enter(s, lim);
    return BT_OK;
}

bt_status
bt__gmp_leave_closed(bt__gmp_scope *s, bt_status st, bt_diag *diag)
{
    if (!s->own)
        return st;
    current_budget = s->prev;
    if (s->budget.exceeded)
        return budget_message(&s->budget, diag);
    return st;
}

size_t
bt__mpz_bytes(const mpz_t x)
{
    return sizeof(mpz_t) + (size_t)x->_mp_alloc * sizeof(mp_limb_t) +
           BT__MALLOC_OVERHEAD;
}

size_t
bt__moves_bytes(const bt_move *m, size_t n)
{
    size_t i, bytes = n * sizeof *m + BT__MALLOC_OVERHEAD;
    for (i = 0; i < n; i++) {
        size_t j;
        if (m[i].nto > 0)
            bytes += BT__MALLOC_OVERHEAD;
        for (j = 0; j < m[i].nto; j++)
            bytes += bt__mpz_bytes(m[i].to[j]);
        if (m[i].text != NULL)
            bytes += strlen(m[i].text) + 1 + BT__MALLOC_OVERHEAD;
    }
    return bytes;
}

bt_status
bt__mpz_reserve(mpz_t **v, size_t *cap, size_t need, bt__budget *b,
                bt_diag *diag)
{
    size_t nc = *cap ? *cap : 16, j;
    mpz_t *grown;
    bt_status st;
    if (need <= *cap)
        return BT_OK;
    while (nc < need)
        nc *= 2;
    if ((st = bt__budget_charge(b, (nc - *cap) * (sizeof(mpz_t) + 16),
                                diag)) != BT_OK)
        return st;
    grown = realloc(*v, nc * sizeof *grown);
    if (grown == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    for (j = *cap; j < nc; j++)
        mpz_init(grown[j]);
    *v = grown;
    *cap = nc;
    return BT_OK;
}

/* ------------------------------------------------------- GMP allocators */

static void (*gmp_on_failure)(size_t, void *);
static void *gmp_on_failure_ud;

static void
gmp_failed(size_t bytes)
{
    /* on_failure may unwind the computation (the server's does, to the
       request's entry): the budget on its stack is this thread's no more. */
    current_budget = NULL;
    if (gmp_on_failure != NULL)
        gmp_on_failure(bytes, gmp_on_failure_ud);
    fprintf(stderr, "bouton: out of memory (a number of %zu bytes could "
                    "not be allocated)\n", bytes);
    exit(1);
}

/* Charges GMP's bytes to this thread's budget: past it, the budget says so
   at its next check (GMP's allocation itself cannot fail). */
static void
gmp_charge(size_t bytes)
{
    bt__budget *b = current_budget;
    if (b == NULL)
        return;
    b->used += bytes;
    if (b->used > b->peak)
        b->peak = b->used;
    if (b->max != 0 && b->used > b->max)
        b->exceeded = 1;
}

static void *
gmp_alloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL)
        gmp_failed(n);
    gmp_charge(n);
    return p;
}

static void *
gmp_realloc(void *old, size_t oldn, size_t newn)
{
    void *p = realloc(old, newn);
    if (p == NULL)
        gmp_failed(newn);
    if (current_budget != NULL) {
        bt__budget_release(current_budget, oldn);
        gmp_charge(newn);
    }
    return p;
}

static void
gmp_free(void *p, size_t n)
{
    free(p);
    if (current_budget != NULL)
        bt__budget_release(current_budget, n);
}

void
bt_gmp_install_allocators(void (*on_failure)(size_t bytes, void *ud),
                          void *ud)
{
    gmp_on_failure = on_failure;
    gmp_on_failure_ud = ud;
    mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
}
