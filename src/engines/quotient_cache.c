/*
 * quotient_cache.c -- what the analysis keeps between calls, process-wide
 * and under a lock: quotients per game and bound, the installed ones
 * (bt_quotient_install, bt_quotient_save_proved), and the learners that
 * take a game's quotient further as larger heaps come (bt__q_learn).  Calls
 * the learner, the periodicity theorem (quotient_proof.c), the text format
 * and the result.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "engines/quotient_impl.h"

/* ------------------------------------------------- misère analysis hook */

/*
 * The work a quotient learnt for an analysis may take in one call, in
 * steps (searched positions, states of the check's walk, positions marked
 * by pretending: each a poll of quotient.c), as a multiple of max_search:
 * 40 x 250 000 by default, which takes Dawson's Kayles (0.07) to heap 32
 * and Kayles to its proof at heap 169 from nothing, and stops 0.07 in
 * heap 33 after a few seconds (bench/README.md).  Each step of learning
 * is bounded by max_search as well (states of one search or walk).
 */
#define QUOTIENT_ANALYZE_WORK 600

/* Quotients kept between analyses, and the most elements of one. */
#define QCACHE_SLOTS 8
#define QCACHE_MAX_ORDER 2048
/* Quotients installed by bt_quotient_install (never evicted), after the
   QCACHE_SLOTS computed ones. */
#define QCACHE_INSTALLED 16
/*
 * A cache of quotients between analysis calls, per game (by its spec) and
 * bound: the quotient of heaps <= N answers every sum of heaps <= N, so an
 * entry serves any position whose heaps are at most its bound.  For a
 * union of games a failed computation is remembered too (the bound it
 * failed at), so that a position beyond the budget goes to the search at
 * once (a single game's failures are kept with its learner, below).
 * Entries hold no game (a game's reference count is not shared between
 * threads); users take a reference under the lock, so eviction never
 * frees a quotient in use.  Memory: at most QCACHE_SLOTS quotients of at
 * most QCACHE_MAX_ORDER elements (4 * order^2 bytes of table each), and
 * QLEARN_SLOTS learners (their tables: about 20 MB for 0.07 to heap 32).
 */
typedef struct qentry {
    char *spec;
    size_t upto;      /* the bound of q, or the bound that failed */
    bt_quotient *q;   /* NULL: computing to upto failed */
    size_t users;     /* references taken by analyses in progress */
    unsigned long long used;
} qentry;

static pthread_mutex_t qcache_mu = PTHREAD_MUTEX_INITIALIZER;
static qentry qcache[QCACHE_SLOTS + QCACHE_INSTALLED];
static unsigned long long qcache_clock;

/* Drops an entry that no analysis uses; caller holds the lock. */
static void
qcache_drop(qentry *e)
{
    free(e->spec);
    bt_quotient_free(e->q);
    memset(e, 0, sizeof *e);
}

/*
 * Looks up a quotient of spec's heaps that answers heaps up to top (its
 * bound is at least top, or it is proved periodic; top is SIZE_MAX when
 * the largest heap passes a size_t).  Returns it with a reference taken
 * (*slot set), or NULL; *failed is set when a bound <= top is known to
 * fail (the unions of games; a single game's failures are its learner's).
 */
bt_quotient *
bt__q_qcache_get(const char *spec, size_t top, size_t *slot, int *failed)
{
    size_t i, best = 0;
    bt_quotient *q = NULL;
    *failed = 0;
    pthread_mutex_lock(&qcache_mu);
    for (i = 0; i < QCACHE_SLOTS + QCACHE_INSTALLED; i++) {
        qentry *e = &qcache[i];
        int fits;
        if (e->spec == NULL || strcmp(e->spec, spec) != 0)
            continue;
        if (e->q == NULL && e->upto <= top)
            *failed = 1;
        fits = e->q != NULL && (e->q->proved || e->upto >= top);
        if (fits && (q == NULL || e->upto < best)) {
            best = e->upto;
            q = e->q;
            *slot = i;
        }
    }
    if (q != NULL) {
        qcache[*slot].users++;
        qcache[*slot].used = ++qcache_clock;
    }
    pthread_mutex_unlock(&qcache_mu);
    return q;
}

void
bt__q_qcache_release(size_t slot)
{
    pthread_mutex_lock(&qcache_mu);
    qcache[slot].users--;
    pthread_mutex_unlock(&qcache_mu);
}

/*
 * Stores q (or a failure when q is NULL) for spec and bound upto, evicting
 * the least recently used entry that no analysis holds.  On success takes
 * ownership of q, returns 0 and a reference in *slot; -1 when nothing was
 * stored (q stays the caller's).
 */
int
bt__q_qcache_put(const char *spec, size_t upto, bt_quotient *q, size_t *slot)
{
    size_t i, best = SIZE_MAX;
    int r = -1;
    if (q != NULL && q->order > QCACHE_MAX_ORDER)
        return -1;
    pthread_mutex_lock(&qcache_mu);
    if (q != NULL)
        /* a quotient of the same game to a smaller bound answers nothing
           that q does not (the analysis learns on from it): dropped */
        for (i = 0; i < QCACHE_SLOTS; i++) {
            qentry *e = &qcache[i];
            if (e->spec != NULL && e->users == 0 && e->q != NULL &&
                strcmp(e->spec, spec) == 0 && e->upto <= upto &&
                (q->proved || !e->q->proved))
                qcache_drop(e);
        }
    for (i = 0; i < QCACHE_SLOTS; i++) {
        if (qcache[i].users > 0)
            continue;
        if (qcache[i].spec == NULL) {
            best = i;
            break;
        }
        if (best == SIZE_MAX || qcache[i].used < qcache[best].used)
            best = i;
    }
    if (best != SIZE_MAX) {
        qentry *e = &qcache[best];
        char *sp = strdup(spec);
        if (sp != NULL) {
            if (e->spec != NULL)
                qcache_drop(e);
            e->spec = sp;
            e->upto = upto;
            e->q = q;
            e->used = ++qcache_clock;
            e->users = q != NULL;
            *slot = best;
            r = 0;
        }
    }
    pthread_mutex_unlock(&qcache_mu);
    return r;
}

bt_status
bt_quotient_install(bt_quotient *q, bt_diag *diag)
{
    size_t i, free_slot = SIZE_MAX;
    char *spec;
    bt_status st = BT_OK;
    if (q == NULL || q->g == NULL || q->ng > 0)
        return bt__fail(diag, BT_EINVAL,
                        "only the quotient of one game's heaps is "
                        "installed");
    spec = strdup(q->g->spec);
    if (spec == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    pthread_mutex_lock(&qcache_mu);
    for (i = QCACHE_SLOTS; i < QCACHE_SLOTS + QCACHE_INSTALLED; i++) {
        qentry *e = &qcache[i];
        if (e->spec == NULL) {
            if (free_slot == SIZE_MAX)
                free_slot = i;
        } else if (strcmp(e->spec, spec) == 0 && e->upto == q->upto &&
                   e->q->proved == q->proved) {
            free_slot = SIZE_MAX - 1; /* the same quotient: nothing to do */
            break;
        }
    }
    if (free_slot == SIZE_MAX)
        st = bt__fail(diag, BT_ELIMIT,
                      "more than %d quotients installed", QCACHE_INSTALLED);
    if (free_slot < SIZE_MAX - 1) {
        qentry *e = &qcache[free_slot];
        /* the cache holds no game (its reference count is not shared
           between threads) */
        bt_game_free(q->g);
        q->g = NULL;
        e->spec = spec;
        e->upto = q->upto;
        e->q = q;
        e->used = ++qcache_clock;
        spec = NULL;
        q = NULL;
    }
    pthread_mutex_unlock(&qcache_mu);
    free(spec);
    bt_quotient_free(q); /* the same one was installed before */
    return st;
}

bt_status
bt_quotient_save_proved(char **out, const bt_game *g, bt_diag *diag)
{
    size_t i, slot = SIZE_MAX;
    bt_status st;
    *out = NULL;
    /* the computed entries only: an installed one came from its caller */
    pthread_mutex_lock(&qcache_mu);
    for (i = 0; i < QCACHE_SLOTS; i++)
        if (qcache[i].spec != NULL && qcache[i].q != NULL &&
            qcache[i].q->proved && strcmp(qcache[i].spec, g->spec) == 0) {
            slot = i;
            qcache[i].users++; /* not evicted while its text is written */
            break;
        }
    pthread_mutex_unlock(&qcache_mu);
    if (slot == SIZE_MAX)
        return bt__fail(diag, BT_EUNDEF,
                        "no proved quotient of %s was computed", g->spec);
    st = bt__q_text(out, qcache[slot].q, g->spec, diag);
    bt__q_qcache_release(slot);
    return st;
}

/*
 * Learners kept between analyses, one per game (by its spec), so that a
 * position with a larger heap takes the quotient on from where the last
 * one stopped instead of from heap 1.  A learner holds no game (its game
 * is set again by each call: same spec, same rules) and no memo; while a
 * call takes it further it is out of the table (busy), and a second call
 * for the same game waits for it.  fail_h is the heap whose learning
 * passed a limit under max_search fail_search: a limit of one step
 * (max_search, max_table_piles, max_memory), or the work budget of a call
 * that started at heap fail_h (so that heap had the whole budget); a call
 * with no larger max_search does not try that heap again.
 */
#define QLEARN_SLOTS 4

typedef struct qlslot {
    char *spec;
    qlearner L;
    int busy;
    size_t fail_h, fail_search;
    unsigned long long used;
} qlslot;

static pthread_cond_t qlearn_cv = PTHREAD_COND_INITIALIZER;
static qlslot qlearn[QLEARN_SLOTS];

/*
 * Takes spec's learner out of the table (a new empty one when there is
 * none: L->c.g is NULL then), waiting while another call has it.  Returns
 * its slot, or SIZE_MAX when no slot is free (every one busy); *fail_h and
 * *fail_search as above.  EINTR while waiting.
 */
static bt_status
qlearn_take(const char *spec, qlearner *L, size_t *slot, size_t *fail_h,
            size_t *fail_search, const bt_limits *lim)
{
    size_t i, best;
    bt_status st = BT_OK;
    memset(L, 0, sizeof *L);
    *slot = SIZE_MAX;
    *fail_h = 0;
    *fail_search = 0;
    pthread_mutex_lock(&qcache_mu);
    for (;;) {
        int waiting = 0;
        best = SIZE_MAX;
        for (i = 0; i < QLEARN_SLOTS; i++)
            if (qlearn[i].spec != NULL && strcmp(qlearn[i].spec, spec) == 0)
                break;
        if (i < QLEARN_SLOTS && qlearn[i].busy)
            waiting = 1;
        else if (i < QLEARN_SLOTS)
            best = i;
        else
            for (i = 0; i < QLEARN_SLOTS; i++) {
                if (qlearn[i].busy)
                    continue;
                if (best == SIZE_MAX || qlearn[i].spec == NULL ||
                    (qlearn[best].spec != NULL &&
                     qlearn[i].used < qlearn[best].used))
                    best = i;
                if (qlearn[best].spec == NULL)
                    break;
            }
        if (!waiting)
            break;
        /* another call is learning this game: wait for it, polling the
           time budget (a timed wait, not a spin) */
        {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 20000000;
            if (ts.tv_nsec >= 1000000000) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000;
            }
            (void)pthread_cond_timedwait(&qlearn_cv, &qcache_mu, &ts);
        }
        if (bt__poll(lim) != BT_OK) {
            st = BT_EINTR;
            break;
        }
    }
    if (st == BT_OK && best != SIZE_MAX) {
        qlslot *e = &qlearn[best];
        if (e->spec != NULL && strcmp(e->spec, spec) != 0) {
            /* evict the least recently used game's learner */
            free(e->spec);
            bt__q_learner_free(&e->L);
            memset(e, 0, sizeof *e);
        }
        if (e->spec == NULL && (e->spec = strdup(spec)) == NULL) {
            st = BT_ENOMEM;
        } else {
            *L = e->L;
            memset(&e->L, 0, sizeof e->L);
            e->busy = 1;
            *fail_h = e->fail_h;
            *fail_search = e->fail_search;
            *slot = best;
        }
    }
    pthread_mutex_unlock(&qcache_mu);
    return st;
}

/* Puts a learner back (or frees it when slot is SIZE_MAX), with its
   failure, and wakes the calls waiting for it. */
static void
qlearn_give(size_t slot, qlearner *L, size_t fail_h, size_t fail_search)
{
    /* a parked learner holds no game and no memo */
    if (L->c.g != NULL)
        bt__q_learner_bind(L, NULL, NULL);
    L->c.g = NULL;
    L->c.lim = NULL;
    L->c.diag = NULL;
    if (slot == SIZE_MAX) {
        bt__q_learner_free(L);
        return;
    }
    pthread_mutex_lock(&qcache_mu);
    qlearn[slot].L = *L;
    qlearn[slot].busy = 0;
    qlearn[slot].fail_h = fail_h;
    qlearn[slot].fail_search = fail_search;
    qlearn[slot].used = ++qcache_clock;
    pthread_cond_broadcast(&qlearn_cv);
    pthread_mutex_unlock(&qcache_mu);
    memset(L, 0, sizeof *L);
}

/*
 * The quotient that answers a position of g whose largest heap is need
 * (SIZE_MAX: past a size_t): the quotient of the heaps up to need, or one
 * proved periodic.  Takes g's cached learner on heap by heap from where it
 * stopped (each heap learnt on a copy, kept once proved), stopping at need
 * or at the first heap where the periodicity theorem applies, within
 * QUOTIENT_ANALYZE_WORK times max_search steps of work in this call.
 * Returns BT_OK with *out (a quotient for the cache, holding no game), or
 * BT_EUNDEF with *why (malloc'd) saying how far the quotient got and
 * which option raises the limit; BT_EINTR, BT_ENOMEM.
 */
bt_status
bt__q_learn(bt_quotient **out, char **why, bt_game *g, size_t need,
            const bt_limits *lim, bt_diag *diag)
{
    qlearner L, next;
    size_t slot, fail_h, fail_search, h0, period = 0, preperiod = 0;
    size_t work = lim->max_search;
    bt_status st = BT_OK;
    bt_quotient *q = NULL;
    bt_diag stop;
    int proved = 0, periodic = bt__q_misere_need(g, 1, 1) != SIZE_MAX;
    *out = NULL;
    *why = NULL;
    memset(&stop, 0, sizeof stop);
    st = qlearn_take(g->spec, &L, &slot, &fail_h, &fail_search, lim);
    if (st != BT_OK)
        return bt__fail(diag, st,
                        st == BT_EINTR ? "the time budget ran out"
                                       : "out of memory");
    if (work > SIZE_MAX / QUOTIENT_ANALYZE_WORK)
        work = SIZE_MAX / QUOTIENT_ANALYZE_WORK;
    work = work > 0 ? work * QUOTIENT_ANALYZE_WORK : 1;
    if (L.c.nrows == 0) {
        st = bt__q_learner_init(&L, g, NULL, need < 64 ? need : 64, lim, &stop);
        if (st != BT_OK)
            bt__q_learner_free(&L);
    } else {
        L.c.g = g;
        bt__q_learner_bind(&L, lim, &stop);
    }
    h0 = L.h;
    L.c.work_max = L.c.work + work;
    L.c.work_out = 0;
    while (st == BT_OK) {
        if (periodic && L.h > 0 && need > L.h) {
            proved = bt__q_learner_period(&L, &period, &preperiod);
            if (proved < 0) {
                st = bt__fail(&stop, BT_ENOMEM, "out of memory");
                break;
            }
            if (proved)
                break;
        }
        if (L.h >= need)
            break;
        if (L.h + 1 == fail_h && lim->max_search <= fail_search) {
            /* failed before with this budget: not again */
            st = bt__fail(&stop, BT_ELIMIT,
                          "past the budget of max_search %zu before; raise "
                          "max_search, --max-search",
                          fail_search);
            break;
        }
        if (L.c.nrows > QCACHE_MAX_ORDER) {
            st = bt__fail(&stop, BT_ELIMIT,
                          "more than %d elements", QCACHE_MAX_ORDER);
            break;
        }
        {
            /* the conservative extension on L itself (undone if it
               fails); the rest, which changes the whole table, on a copy
               kept once the heap is proved */
            int done;
            if ((st = bt__q_learner_heap_begin(&L, &done)) != BT_OK) {
                bt__q_learner_undo(&L);
                if (st == BT_ELIMIT && (L.h == h0 || !L.c.work_out)) {
                    fail_h = L.h + 1;
                    fail_search = lim->max_search;
                }
                break;
            }
            if (done)
                continue;
        }
        st = bt__q_learner_copy(&next, &L);
        bt__q_learner_undo(&L);
        if (st != BT_OK)
            break;
        next.c.diag = &stop;
        if ((st = bt__q_learner_heap_rest(&next)) != BT_OK) {
            L.c.polls = next.c.polls;
            L.c.work = next.c.work;
            L.c.work_out = next.c.work_out;
            bt__q_learner_free(&next);
            if (st == BT_ELIMIT && (L.h == h0 || !L.c.work_out)) {
                fail_h = L.h + 1;
                fail_search = lim->max_search;
            }
            break;
        }
        bt__q_learner_free(&L);
        L = next;
        /* its memo is empty now: its memory goes back, and the budget
           starts afresh for the next heap's copy */
        bt__q_learner_bind(&L, lim, &stop);
    }
    if (st == BT_OK) {
        st = bt__q_learner_quotient(&q, &L, &stop);
        if (st == BT_OK) {
            q->proved = proved;
            q->period = period;
            q->preperiod = preperiod;
            st = bt__q_present(q, &stop);
        }
        if (st == BT_OK) {
            /* the cache holds no game: q's reference is dropped here, in
               the thread that took it */
            bt_game_free(q->g);
            q->g = NULL;
            *out = q;
            q = NULL;
        }
    }
    bt_quotient_free(q);
    if (st == BT_ELIMIT) {
        bt__buf b;
        bt__buf_init(&b);
        bt__buf_printf(&b, "the misère quotient of %s got to heap %zu",
                       g->spec, L.h);
        if (need != SIZE_MAX)
            bt__buf_printf(&b, " of %zu", need);
        if (L.c.work_out)
            bt__buf_printf(&b,
                           " (heap %zu: over %zu steps of work, %d x "
                           "max_search; raise max_search, --max-search)",
                           L.h + 1, work, QUOTIENT_ANALYZE_WORK);
        else
            bt__buf_printf(&b, " (heap %zu: %s)", L.h + 1, stop.message);
        *why = bt__buf_take(&b);
        st = *why == NULL ? bt__fail(diag, BT_ENOMEM, "out of memory")
                          : BT_EUNDEF;
    } else if (st == BT_EINTR && L.h > h0) {
        (void)bt__fail(diag, st,
                       "the time budget ran out while learning the misère "
                       "quotient of %s at heap %zu (heaps up to %zu are "
                       "learnt, kept for the next analysis)",
                       g->spec, L.h + 1, L.h);
    } else if (st != BT_OK && diag != NULL) {
        *diag = stop;
    }
    qlearn_give(slot, &L, fail_h, fail_search);
    return st;
}
