/*
 * fuzz_record.c -- libFuzzer harness for the record parser and the
 * position language with valid-but-heavy inputs, under a small budget of
 * memory and time (issue 10).  The first byte picks the target: 'Q', a
 * saved misère quotient (bt_quotient_load, which must refuse all but a
 * true quotient, and then bt_quotient_save, which must give the text
 * back byte for byte); else even, a game record (bt_record_parse, then
 * bt_record_format); odd, a position (bt_position_parse, then bt_analyze
 * in normal and misère play, and the moves listed).  Nothing may crash, leak or run past its budget: every
 * computation stops at max_memory (16 MiB), max_search, max_grundy or the
 * one-second interrupt, with a status.  Built and run by tests/fuzz/run.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bouton.h>

static struct timespec start;

/* The time budget: one second from the start of the input. */
static int
past_deadline(void *ud)
{
    struct timespec now;
    (void)ud;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - start.tv_sec) * 1000000000L +
               (now.tv_nsec - start.tv_nsec) >
           1000000000L;
}

static void
limits(bt_limits *lim)
{
    bt_limits_default(lim);
    lim->max_memory = (size_t)16 << 20;
    lim->max_search = 20000;
    lim->max_grundy = 1 << 14;
    lim->max_digits = 2000;
    lim->max_components = 1000;
    lim->max_text = 1 << 16;
    lim->interrupt = past_deadline;
}

static void
record(const char *text, const bt_limits *lim)
{
    bt_record *r;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_record_parse(&r, text, lim, &d) == BT_OK) {
        free(bt_record_format(r));
        bt_record_free(r);
    }
}

static void
position(const char *text, const bt_limits *lim)
{
    bt_position *p;
    bt_analysis *a;
    bt_move *m;
    size_t n;
    bt_diag d;
    int misere;
    memset(&d, 0, sizeof d);
    if (bt_position_parse(&p, text, NULL, lim, &d) != BT_OK)
        return;
    for (misere = 0; misere < 2; misere++)
        if (bt_analyze(&a, p, (misere ? BT_MISERE : 0) | BT_EXPLAIN, lim,
                       &d) == BT_OK)
            bt_analysis_free(a);
    if (bt_position_moves(&m, &n, p, lim, &d) == BT_OK)
        bt_moves_free(m, n);
    bt_position_free(p);
}

static void
quotient(const char *text, size_t len, const bt_limits *lim)
{
    bt_quotient *q;
    char *back = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_quotient_load(&q, text, len, lim, &d) != BT_OK)
        return;
    /* the strict parser takes only what bt_quotient_save writes */
    if (bt_quotient_save(&back, q, &d) == BT_OK &&
        (strlen(back) != len || memcmp(back, text, len) != 0))
        abort();
    free(back);
    bt_quotient_free(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    bt_limits lim;
    char *text;
    if (!ready) {
        bt_gmp_install_allocators(NULL, NULL);
        ready = 1;
    }
    if (size < 1)
        return 0;
    text = malloc(size);
    if (text == NULL)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    limits(&lim);
    clock_gettime(CLOCK_MONOTONIC, &start);
    if (data[0] == 'Q')
        quotient(text, size - 1, &lim);
    else if (data[0] % 2 == 0)
        record(text, &lim);
    else
        position(text, &lim);
    free(text);
    return 0;
}
