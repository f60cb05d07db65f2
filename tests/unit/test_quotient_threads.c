/* label: quick
 *
 * test_quotient_threads.c -- the misère analysis's learners shared between
 * threads (docs/misere.md, "Learning on, not again"): the server analyses
 * in several threads, and two analyses of one game wait for each other's
 * learner rather than learn it twice.  Four threads analyse single heaps
 * of Kayles (to 40) and Dawson's Kayles (to 26), each in its own order,
 * so that they ask for larger and smaller heaps of the same games at once;
 * every outcome is then checked against the brute-force misère solver of
 * tests/oracle/oracle_heap.c.  (Under ASan this is also the check that the
 * learners change hands without a race on their memory; the threads
 * wait for each other's learner about 150 times in a run.)  About 0.7 s
 * of CPU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#include <cmocka.h>

#include <bouton.h>

#include "testutil.h"

#include "oracle_heap.h"

#define NTHREADS 4
#define KAYLES_MAX 40
#define DAWSON_MAX 26
#define NPOS ((KAYLES_MAX - 12) + (DAWSON_MAX - 12))

typedef struct job {
    size_t offset;
    int down;
    int outcome[NPOS]; /* 1: P, 0: N, -1: failed */
} job;

/* Position i: a heap of 13..KAYLES_MAX of Kayles, then of 13..DAWSON_MAX
   of Dawson's Kayles. */
static void
position_text(char *buf, size_t len, size_t i, const char **spec,
              unsigned *heap)
{
    if (i < (size_t)(KAYLES_MAX - 12)) {
        *spec = "kayles";
        *heap = (unsigned)(13 + i);
    } else {
        *spec = "dawsons-kayles";
        *heap = (unsigned)(13 + i - (KAYLES_MAX - 12));
    }
    snprintf(buf, len, "%s %u", *spec, *heap);
}

static void *
run(void *arg)
{
    job *j = arg;
    size_t k;
    for (k = 0; k < NPOS; k++)
        j->outcome[k] = -1;
    for (k = 0; k < NPOS; k++) {
        /* every position once: from the offset up, or down */
        size_t i = (k + j->offset) % NPOS;
        if (j->down)
            i = NPOS - 1 - i;
        char text[64];
        const char *spec;
        unsigned heap;
        bt_position *p = NULL;
        bt_analysis *a = NULL;
        bt_diag d;
        position_text(text, sizeof text, i, &spec, &heap);
        if (bt_position_parse(&p, text, NULL, NULL, &d) != BT_OK)
            continue;
        if (bt_analyze(&a, p, BT_MISERE, NULL, &d) == BT_OK) {
            j->outcome[i] = bt_analysis_outcome(a) == BT_P;
            bt_analysis_free(a);
        }
        bt_position_free(p);
    }
    return NULL;
}

static void
test_threads(void **state)
{
    pthread_t t[NTHREADS];
    job jobs[NTHREADS];
    oh_game *kg = oh_game_new("kayles"), *dg = oh_game_new("dawsons-kayles");
    oh_misere *km, *dm;
    size_t i, n;
    (void)state;
    assert_non_null(kg);
    assert_non_null(dg);
    for (n = 0; n < NTHREADS; n++) {
        jobs[n].offset = n * 11;
        jobs[n].down = (int)(n & 1);
        assert_int_equal(pthread_create(&t[n], NULL, run, &jobs[n]), 0);
    }
    for (n = 0; n < NTHREADS; n++)
        assert_int_equal(pthread_join(t[n], NULL), 0);
    km = oh_misere_new(kg);
    dm = oh_misere_new(dg);
    assert_non_null(km);
    assert_non_null(dm);
    for (i = 0; i < NPOS; i++) {
        char text[64];
        const char *spec;
        unsigned heap;
        int want;
        position_text(text, sizeof text, i, &spec, &heap);
        want = oh_misere_is_p(strcmp(spec, "kayles") == 0 ? km : dm, &heap,
                              1);
        assert_true(want >= 0);
        for (n = 0; n < NTHREADS; n++)
            if (jobs[n].outcome[i] != want)
                fail_msg("%s in thread %zu: %s, brute force %s", text, n,
                         jobs[n].outcome[i] < 0
                             ? "failed"
                             : (jobs[n].outcome[i] ? "P" : "N"),
                         want ? "P" : "N");
    }
    oh_misere_free(km);
    oh_misere_free(dm);
    oh_game_free(kg);
    oh_game_free(dg);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
