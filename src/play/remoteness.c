/*
 * remoteness.c -- how many moves are left when the winner hurries and the
 * loser delays (C. A. B. Smith, "Graphs and composite games", 1966).
 *
 * Two ways to the same number:
 *
 *   - Nim, at any size, by closed forms (proved in docs/opponent.md and
 *     checked against the search below on every small position by
 *     tests/unit/test_remoteness.c).  With T the number of counters:
 *     a normal-play P-position has remoteness T, because the loser can make
 *     every move of the rest of the game take exactly one counter (take one
 *     from a pile with the fewest trailing zero bits: every winning reply
 *     then takes one too), and no game is longer than T moves.  In misère
 *     play a P-position has remoteness T when no pile exceeds 1 and T - 1
 *     otherwise.  An N-position has 1 + the least remoteness of the
 *     P-positions its winning moves leave.
 *
 *   - Any other position by an exhaustive, memoised search of its game
 *     graph (bt_solver), from the rules alone.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* ---------------------------------------------------------------- solver */

typedef struct slot {
    char *key; /* NULL: empty */
    size_t len;
    long rem;
    unsigned char outcome;
} slot;

struct bt_solver {
    int misere;
    size_t max_states;
    slot *slots;
    size_t cap, used;
    /* the further bounds of bt__solver_bound (SIZE_MAX, 0: none) */
    size_t max_moves, max_bytes;
    uint64_t deadline_ms;
    size_t moves;     /* moves listed so far, in all */
    size_t key_bytes; /* bytes of the keys stored */
};

/* What one listed move is taken to hold while its frame is on the path:
   the bt_move, one or two small mpz_t and their limbs. */
enum { MOVE_BYTES = sizeof(bt_move) + 2 * sizeof(mpz_t) + 32 };

/* CPU time of the calling thread, not wall time: the bounds of the cheap
   searches measure their work, so that an answer (remoteness known or left
   out, and why) does not change with the load of the machine. */
uint64_t
bt__clock_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0 &&
        clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void
bt__solver_bound(bt_solver *s, size_t max_moves, size_t max_bytes,
                 uint64_t deadline_ms)
{
    s->max_moves = max_moves;
    s->max_bytes = max_bytes;
    s->deadline_ms = deadline_ms;
}

bt_status
bt__solver_cheap(bt_solver **out, int misere, const bt_limits *lim)
{
    size_t states = BT_REMOTENESS_SEARCH;
    bt_status st;
    lim = bt__limits(lim);
    if (lim->max_search < states)
        states = lim->max_search;
    st = bt_solver_new(out, misere, states);
    if (st == BT_OK)
        bt__solver_bound(*out, BT_REMOTENESS_MOVES, BT_REMOTENESS_BYTES,
                         bt__clock_ms() + BT_REMOTENESS_MILLIS);
    return st;
}

bt_status
bt_solver_new(bt_solver **out, int misere, size_t max_states)
{
    bt_solver *s = calloc(1, sizeof *s);
    *out = NULL;
    if (s == NULL)
        return BT_ENOMEM;
    s->misere = misere != 0;
    s->max_states = max_states;
    s->max_moves = SIZE_MAX;
    s->max_bytes = SIZE_MAX;
    s->cap = 256;
    s->slots = calloc(s->cap, sizeof *s->slots);
    if (s->slots == NULL) {
        free(s);
        return BT_ENOMEM;
    }
    *out = s;
    return BT_OK;
}

void
bt_solver_free(bt_solver *s)
{
    size_t i;
    if (s == NULL)
        return;
    for (i = 0; i < s->cap; i++)
        free(s->slots[i].key);
    free(s->slots);
    free(s);
}

size_t
bt_solver_size(const bt_solver *s)
{
    return s->used;
}

static uint64_t
hash(const char *k, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= (unsigned char)k[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static slot *
lookup(const bt_solver *s, const char *key, size_t len)
{
    size_t i = (size_t)hash(key, len) & (s->cap - 1);
    while (s->slots[i].key != NULL) {
        if (s->slots[i].len == len && memcmp(s->slots[i].key, key, len) == 0)
            return &s->slots[i];
        i = (i + 1) & (s->cap - 1);
    }
    return &s->slots[i];
}

/* Stores key (taking it) with its value; the table stays at most half
   full. */
static bt_status
store(bt_solver *s, char *key, size_t len, bt_outcome o, long rem)
{
    slot *sl;
    if (2 * (s->used + 1) > s->cap) {
        slot *old = s->slots;
        size_t oldcap = s->cap, i;
        slot *ns = calloc(oldcap * 2, sizeof *ns);
        if (ns == NULL)
            return BT_ENOMEM;
        s->slots = ns;
        s->cap = oldcap * 2;
        for (i = 0; i < oldcap; i++)
            if (old[i].key != NULL)
                *lookup(s, old[i].key, old[i].len) = old[i];
        free(old);
    }
    sl = lookup(s, key, len);
    sl->key = key;
    sl->len = len;
    sl->rem = rem;
    sl->outcome = (unsigned char)o;
    s->used++;
    s->key_bytes += len + 1;
    return BT_OK;
}

/*
 * Keys.  A position is stored as the texts of its components, "spec:n,n",
 * sorted and each followed by '|', after a '#': "#nim:3|nim:5|".  A frame
 * of the search keeps only its key (and its moves): the position is
 * rebuilt from the key when its moves are listed, so that a long game
 * costs little memory per level.
 */
typedef struct part {
    const char *s;
    size_t len;
} part;

static int
part_cmp(const part *a, const part *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->s, b->s, n);
    if (c != 0)
        return c;
    return a->len < b->len ? -1 : a->len > b->len;
}

static int
part_qcmp(const void *a, const void *b)
{
    return part_cmp(a, b);
}

static void
put_comp(bt__buf *b, bt_game *g, const mpz_t *v)
{
    unsigned j;
    bt__buf_puts(b, g->spec);
    for (j = 0; j < g->rules->arity; j++) {
        bt__buf_putc(b, j ? ',' : ':');
        bt__buf_mpz(b, v[j]);
    }
}

/* Joins sorted parts into a key. */
static char *
join_parts(const part *parts, size_t n, size_t *len)
{
    size_t i, total = 1, at = 1;
    char *key;
    for (i = 0; i < n; i++)
        total += parts[i].len + 1;
    key = malloc(total + 1);
    if (key == NULL)
        return NULL;
    key[0] = '#';
    for (i = 0; i < n; i++) {
        memcpy(key + at, parts[i].s, parts[i].len);
        at += parts[i].len;
        key[at++] = '|';
    }
    key[at] = '\0';
    *len = total;
    return key;
}

/* Splits a key into its parts (pointers into the key). */
static bt_status
split_key(const char *key, size_t keylen, part **out, size_t *n)
{
    size_t i, count = 0, k = 0, start = 1;
    part *parts;
    for (i = 1; i < keylen; i++)
        if (key[i] == '|')
            count++;
    parts = malloc((count ? count : 1) * sizeof *parts);
    if (parts == NULL)
        return BT_ENOMEM;
    for (i = 1; i < keylen; i++)
        if (key[i] == '|') {
            parts[k].s = key + start;
            parts[k].len = i - start;
            k++;
            start = i + 1;
        }
    *out = parts;
    *n = count;
    return BT_OK;
}

/* The key of a position. */
static char *
position_key(const bt_position *p, size_t *len)
{
    size_t n = bt_position_size(p), i;
    bt__buf b;
    part *parts = malloc((n ? n : 1) * sizeof *parts);
    size_t *ends = malloc((n ? n : 1) * sizeof *ends);
    char *flat = NULL, *key = NULL;
    if (parts == NULL || ends == NULL)
        goto cleanup;
    bt__buf_init(&b);
    for (i = 0; i < n; i++) {
        put_comp(&b, bt_position_game(p, i), bt_position_nums(p, i));
        ends[i] = b.len;
    }
    flat = bt__buf_take(&b);
    if (flat == NULL)
        goto cleanup;
    for (i = 0; i < n; i++) {
        parts[i].s = flat + (i ? ends[i - 1] : 0);
        parts[i].len = ends[i] - (i ? ends[i - 1] : 0);
    }
    qsort(parts, n, sizeof *parts, part_qcmp);
    key = join_parts(parts, n, len);
cleanup:
    free(flat);
    free(parts);
    free(ends);
    return key;
}

/* The games of the search: every component of every position reached is of
   a game of the root position. */
typedef struct games {
    bt_game **g;
    size_t n;
} games;

static bt_game *
game_named(const games *gs, const char *spec, size_t len)
{
    size_t i;
    for (i = 0; i < gs->n; i++)
        if (strlen(gs->g[i]->spec) == len &&
            memcmp(gs->g[i]->spec, spec, len) == 0)
            return gs->g[i];
    return NULL;
}

/* Rebuilds the position of a key (components in key order). */
static bt_status
key_position(bt_position **out, const part *parts, size_t n, const games *gs,
             bt_diag *diag)
{
    bt_position *q;
    size_t i;
    bt_status st = bt_position_new(&q);
    mpz_t v[2];
    *out = NULL;
    if (st != BT_OK)
        return bt__fail(diag, st, "out of memory");
    mpz_init(v[0]);
    mpz_init(v[1]);
    for (i = 0; i < n && st == BT_OK; i++) {
        const char *s = parts[i].s;
        size_t len = parts[i].len, colon = len, j, at;
        bt_game *g;
        unsigned k;
        while (colon > 0 && s[colon - 1] != ':')
            colon--;
        assert(colon > 0);
        g = game_named(gs, s, colon - 1);
        assert(g != NULL && g->rules->arity <= 2);
        at = colon;
        for (k = 0; k < g->rules->arity; k++) {
            char buf[64], *big = NULL;
            j = at;
            while (j < len && s[j] != ',')
                j++;
            if (j - at < sizeof buf) {
                memcpy(buf, s + at, j - at);
                buf[j - at] = '\0';
                mpz_set_str(v[k], buf, 10);
            } else {
                big = malloc(j - at + 1);
                if (big == NULL) {
                    st = BT_ENOMEM;
                    break;
                }
                memcpy(big, s + at, j - at);
                big[j - at] = '\0';
                mpz_set_str(v[k], big, 10);
                free(big);
            }
            at = j + 1;
        }
        if (st == BT_OK)
            st = bt_position_add(q, g, (const mpz_t *)v, NULL, diag);
    }
    mpz_clear(v[0]);
    mpz_clear(v[1]);
    if (st != BT_OK) {
        bt_position_free(q);
        return st == BT_ENOMEM ? bt__fail(diag, st, "out of memory") : st;
    }
    *out = q;
    return BT_OK;
}

/* A position on the search path: its key and its moves. */
typedef struct frame {
    char *key;
    size_t keylen;
    part *parts; /* into key */
    size_t nparts;
    bt_move *kids; /* every move (component = index of a part) */
    size_t nkids, capkids, next;
    int expanded;
    int has_p;
    long min_p, max_all;
} frame;

static void
frame_clear(frame *f)
{
    free(f->key);
    free(f->parts);
    bt_moves_free(f->kids, f->nkids);
    memset(f, 0, sizeof *f);
}

/* Sets up a frame for a key (taken). */
static bt_status
frame_init(frame *f, char *key, size_t keylen)
{
    memset(f, 0, sizeof *f);
    f->key = key;
    f->keylen = keylen;
    return split_key(key, keylen, &f->parts, &f->nparts);
}

typedef struct gather {
    frame *f;
    size_t comp;
} gather;

static bt_status
on_kid(void *ud, const mpz_t *to, size_t nto)
{
    gather *g = ud;
    return bt__move_push(&g->f->kids, &g->f->nkids, &g->f->capkids, g->comp, to,
                         nto);
}

/* Lists every move of f's position. */
static bt_status
frame_expand(frame *f, const games *gs, const bt_limits *lim, bt_diag *diag)
{
    bt_position *q;
    size_t i;
    bt_status st = key_position(&q, f->parts, f->nparts, gs, diag);
    for (i = 0; st == BT_OK && i < bt_position_size(q); i++) {
        bt_game *g = bt_position_game(q, i);
        gather ga;
        ga.f = f;
        ga.comp = i;
        st = bt__rs_options(g, bt_position_nums(q, i), bt_position_count(q, i), on_kid, &ga, lim,
                               diag);
    }
    bt_position_free(q);
    if (st == BT_OK && f->nkids < f->capkids && f->nkids > 0) {
        /* the frame may wait long on the path: keep it small */
        bt_move *k = realloc(f->kids, f->nkids * sizeof *k);
        if (k != NULL) {
            f->kids = k;
            f->capkids = f->nkids;
        }
    }
    return st;
}

/* The key of the position that move m leaves from f's position: the other
   parts and the new ones, merged in order.  This runs once per move of
   every position searched, so it avoids allocations for small sums. */
static char *
kid_key(const frame *f, const bt_move *m, const games *gs, size_t *len)
{
    enum { SMALL = 16 };
    const part *old = &f->parts[m->component];
    size_t colon = old->len, k, i, j, n, a = 0, b = 0, total = 0;
    bt_game *g;
    unsigned ar;
    part fresh_small[SMALL], all_small[SMALL], *fresh = fresh_small;
    part *all = all_small;
    bt__buf buf;
    size_t ends[SMALL];
    char *flat = NULL, *key = NULL;

    while (colon > 0 && old->s[colon - 1] != ':')
        colon--;
    g = game_named(gs, old->s, colon - 1);
    ar = g->rules->arity;
    k = m->nto / ar;
    n = f->nparts - 1 + k;
    if (k > SMALL) /* no ruleset splits a component into so many */
        return NULL;
    if (n > SMALL && (all = malloc(n * sizeof *all)) == NULL)
        return NULL;
    bt__buf_init(&buf);
    for (i = 0; i < k; i++) {
        put_comp(&buf, g, (const mpz_t *)m->to + i * ar);
        ends[i] = buf.len;
    }
    flat = bt__buf_take(&buf);
    if (flat == NULL)
        goto cleanup;
    for (i = 0; i < k; i++) {
        fresh[i].s = flat + (i ? ends[i - 1] : 0);
        fresh[i].len = ends[i] - (i ? ends[i - 1] : 0);
    }
    qsort(fresh, k, sizeof *fresh, part_qcmp);
    for (j = 0; j < n; j++) {
        if (a == m->component)
            a++;
        if (a < f->nparts && (b >= k || part_cmp(&f->parts[a], &fresh[b]) <= 0))
            all[j] = f->parts[a++];
        else
            all[j] = fresh[b++];
    }
    key = join_parts(all, n, &total);
    *len = total;
cleanup:
    free(flat);
    if (all != all_small)
        free(all);
    return key;
}

static void
fold(frame *f, bt_outcome o, long rem)
{
    if (o == BT_P) {
        if (!f->has_p || rem < f->min_p)
            f->min_p = rem;
        f->has_p = 1;
    }
    if (rem > f->max_all)
        f->max_all = rem;
}

/* The further bounds of bt__solver_bound, checked after each position is
   expanded; live is the estimate of the bytes of the moves on the path. */
static bt_status
over_budget(const bt_solver *s, size_t depth, size_t live, bt_diag *diag)
{
    size_t bytes = s->cap * sizeof(slot) + s->key_bytes + live +
                   depth * sizeof(frame);
    if (s->moves > s->max_moves)
        return bt__fail(diag, BT_ELIMIT,
                        "the game graph has more than %zu moves to list "
                        "(the remoteness budget)",
                        s->max_moves);
    if (bytes > s->max_bytes)
        return bt__fail(diag, BT_ELIMIT,
                        "the search would hold more than %zu MiB (the "
                        "remoteness budget)",
                        s->max_bytes >> 20);
    if (s->deadline_ms != 0 && bt__clock_ms() > s->deadline_ms)
        return bt__fail(diag, BT_ELIMIT,
                        "the search took its time budget (%d ms of CPU, the "
                        "remoteness budget)",
                        (int)BT_REMOTENESS_MILLIS);
    return BT_OK;
}

bt_status
bt_solver_solve(bt_solver *s, bt_outcome *outcome, long *remoteness,
                const bt_position *p, const bt_limits *lim, bt_diag *diag)
{
    frame *stack = NULL;
    size_t depth = 0, cap = 64, i, len, live = 0;
    games gs;
    bt_status st = BT_OK;
    char *key;
    slot *sl;
    bt_limits cl;

    lim = bt__limits(lim);
    for (i = 0; i < bt_position_size(p); i++)
        if (bt_position_game(p, i)->rules->arity == 0)
            return bt__fail(diag, BT_EUNDEF,
                            "remoteness is not computed for %s (a game of "
                            "variable arity)",
                            bt_position_game(p, i)->spec);
    if (s->max_moves != SIZE_MAX) {
        /* one component's moves stop at what is left of the budget */
        cl = *lim;
        if (s->moves >= s->max_moves)
            cl.max_search = 0;
        else if (s->max_moves - s->moves < cl.max_search)
            cl.max_search = s->max_moves - s->moves;
        lim = &cl;
    }
    gs.n = 0;
    gs.g = malloc((bt_position_size(p) + 1) * sizeof *gs.g);
    stack = malloc(cap * sizeof *stack);
    key = position_key(p, &len);
    if (gs.g == NULL || stack == NULL || key == NULL) {
        free(key);
        st = BT_ENOMEM;
        goto cleanup;
    }
    for (i = 0; i < bt_position_size(p); i++) {
        bt_game *g = bt_position_game(p, i);
        if (game_named(&gs, g->spec, strlen(g->spec)) == NULL)
            gs.g[gs.n++] = g;
    }
    sl = lookup(s, key, len);
    if (sl->key != NULL) {
        *outcome = (bt_outcome)sl->outcome;
        *remoteness = sl->rem;
        free(key);
        goto cleanup;
    }
    st = frame_init(&stack[0], key, len);
    depth = 1;
    if (st != BT_OK)
        goto cleanup;
    /*
     * Depth-first, with an explicit stack: a frame is finished when every
     * move of its position has been folded in, and its value is stored
     * before its parent goes on.  Game graphs are acyclic, so a position on
     * the path is never met again below itself.
     */
    while (depth > 0) {
        frame *f = &stack[depth - 1];
        if (!f->expanded) {
            f->expanded = 1;
            st = frame_expand(f, &gs, lim, diag);
            if (st == BT_ELIMIT && s->max_moves != SIZE_MAX)
                st = bt__fail(diag, st,
                              "a position of the game graph has more than "
                              "%zu moves (the remoteness budget)",
                              lim->max_search);
            if (st != BT_OK)
                goto cleanup;
            s->moves += f->nkids;
            live += f->nkids * MOVE_BYTES;
            if ((st = over_budget(s, depth, live, diag)) != BT_OK)
                goto cleanup;
        }
        if (f->next < f->nkids) {
            const bt_move *m = &f->kids[f->next++];
            key = kid_key(f, m, &gs, &len);
            if (key == NULL) {
                st = BT_ENOMEM;
                goto cleanup;
            }
            sl = lookup(s, key, len);
            if (sl->key != NULL) {
                fold(f, (bt_outcome)sl->outcome, sl->rem);
                free(key);
                continue;
            }
            if (s->used + depth >= s->max_states) {
                free(key);
                st = bt__fail(diag, BT_ELIMIT,
                              "the game graph has more than %zu positions "
                              "(the %s)",
                              s->max_states,
                              s->max_moves != SIZE_MAX ? "remoteness budget"
                                                       : "search limit");
                goto cleanup;
            }
            if (depth == cap) {
                frame *ns = realloc(stack, 2 * cap * sizeof *ns);
                if (ns == NULL) {
                    free(key);
                    st = BT_ENOMEM;
                    goto cleanup;
                }
                stack = ns;
                cap *= 2;
            }
            st = frame_init(&stack[depth], key, len);
            depth++;
            if (st != BT_OK)
                goto cleanup;
            continue;
        }
        /* every move is folded in: the value of f */
        {
            bt_outcome o;
            long rem;
            if (f->nkids == 0) {
                o = s->misere ? BT_N : BT_P;
                rem = 0;
            } else if (f->has_p) {
                o = BT_N;
                rem = f->min_p + 1;
            } else {
                o = BT_P;
                rem = f->max_all + 1;
            }
            if ((s->used & 1023) == 0 && (st = bt__poll(lim)) != BT_OK) {
                st = bt__fail(diag, st,
                              "the time budget ran out during "
                              "the search");
                goto cleanup;
            }
            st = store(s, f->key, f->keylen, o, rem);
            if (st != BT_OK)
                goto cleanup;
            f->key = NULL; /* the table owns it now */
            live -= f->nkids * MOVE_BYTES;
            frame_clear(f);
            depth--;
            if (depth > 0)
                fold(&stack[depth - 1], o, rem);
            else {
                *outcome = o;
                *remoteness = rem;
            }
        }
    }
cleanup:
    while (depth > 0)
        frame_clear(&stack[--depth]);
    free(stack);
    free(gs.g);
    if (st == BT_ENOMEM)
        return bt__fail(diag, st, "out of memory");
    return st;
}

/* ------------------------------------------------------------- Nim */

/*
 * The closed forms (see the top of the file).  For an N-position each
 * winning move leaves a P-position Q whose remoteness is known from its
 * counters: T(Q) = T - (a_i - to) and, in misère play, whether a pile above
 * 1 is left.
 */
static bt_status
nim_remoteness(mpz_t rop, const bt_position *p, int misere,
               const bt_limits *lim, bt_diag *diag)
{
    size_t n = bt_position_size(p), i, big = 0;
    bt_analysis *a;
    bt_status st;
    mpz_t t, r;

    mpz_init(t);
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        mpz_add(t, t, v[0]);
        if (mpz_cmp_ui(v[0], 1) > 0)
            big++;
    }
    if (mpz_sgn(t) == 0) {
        mpz_set_ui(rop, 0);
        mpz_clear(t);
        return BT_OK;
    }
    st = bt_analyze(&a, p, misere ? BT_MISERE : 0, lim, diag);
    if (st != BT_OK) {
        mpz_clear(t);
        return st;
    }
    if (bt_analysis_outcome(a) == BT_P) {
        if (misere && big > 0)
            mpz_sub_ui(t, t, 1);
        mpz_set(rop, t);
    } else {
        size_t k;
        mpz_init(r);
        for (k = 0; k < bt_analysis_move_count(a); k++) {
            const bt_move *m = bt_analysis_move(a, k);
            const mpz_t *v = bt_position_nums(p, m->component);
            size_t big_left = big;
            mpz_t q;
            mpz_init(q);
            /* T(Q) = T - a_i + to */
            mpz_sub(q, t, v[0]);
            mpz_add(q, q, m->to[0]);
            if (mpz_cmp_ui(v[0], 1) > 0)
                big_left--;
            if (mpz_cmp_ui(m->to[0], 1) > 0)
                big_left++;
            if (misere && big_left > 0)
                mpz_sub_ui(q, q, 1);
            if (k == 0 || mpz_cmp(q, r) < 0)
                mpz_set(r, q);
            mpz_clear(q);
        }
        mpz_add_ui(rop, r, 1);
        mpz_clear(r);
    }
    bt_analysis_free(a);
    mpz_clear(t);
    return BT_OK;
}

bt_status
bt_remoteness(mpz_t rop, const bt_position *p, int misere, const bt_limits *lim,
              bt_diag *diag)
{
    bt_solver *s;
    bt_outcome o;
    long rem;
    bt_status st;

    lim = bt__limits(lim);
    if (bt__all_nim(p))
        return nim_remoteness(rop, p, misere, lim, diag);
    st = bt_solver_new(&s, misere, lim->max_search);
    if (st != BT_OK)
        return bt__fail(diag, st, "out of memory");
    st = bt_solver_solve(s, &o, &rem, p, lim, diag);
    if (st == BT_OK)
        mpz_set_si(rop, rem);
    bt_solver_free(s);
    return st;
}

bt_status
bt__remoteness_cheap(mpz_t rop, const bt_position *p, int misere,
                     const bt_limits *lim, bt_diag *diag)
{
    bt_solver *s;
    bt_outcome o;
    long rem;
    bt_status st;

    lim = bt__limits(lim);
    if (bt__all_nim(p))
        return nim_remoteness(rop, p, misere, lim, diag);
    st = bt__solver_cheap(&s, misere, lim);
    if (st != BT_OK)
        return bt__fail(diag, st, "out of memory");
    st = bt_solver_solve(s, &o, &rem, p, lim, diag);
    if (st == BT_OK)
        mpz_set_si(rop, rem);
    bt_solver_free(s);
    return st;
}
