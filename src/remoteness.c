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
#include <stdlib.h>
#include <string.h>

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
};

bt_status
bt_solver_new(bt_solver **out, int misere, size_t max_states)
{
    bt_solver *s = calloc(1, sizeof *s);
    *out = NULL;
    if (s == NULL)
        return BT_ENOMEM;
    s->misere = misere != 0;
    s->max_states = max_states;
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
    return BT_OK;
}

/* The text of one component, "spec:n,n". */
static char *
comp_text(bt_game *g, const mpz_t *v)
{
    bt__buf b;
    unsigned j;
    bt__buf_init(&b);
    bt__buf_puts(&b, g->spec);
    for (j = 0; j < g->rules->arity; j++) {
        bt__buf_putc(&b, j ? ',' : ':');
        bt__buf_mpz(&b, v[j]);
    }
    return bt__buf_take(&b);
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The canonical key of a sum: its components' texts sorted, each followed
 * by '|'.  parts[0..n-1] are borrowed texts; they are sorted in place.
 */
static char *
join_key(const char **parts, size_t n, size_t *len)
{
    bt__buf b;
    size_t i;
    qsort(parts, n, sizeof *parts, cmp_str);
    bt__buf_init(&b);
    bt__buf_putc(&b, '#');
    for (i = 0; i < n; i++) {
        bt__buf_puts(&b, parts[i]);
        bt__buf_putc(&b, '|');
    }
    *len = b.len;
    return bt__buf_take(&b);
}

/* A position on the search path: its components' texts and its moves. */
typedef struct frame {
    bt_position *pos;
    char **texts; /* one per component of pos */
    size_t ntexts;
    char *key;
    size_t keylen;
    bt_move *kids; /* every move of pos (to and component; no text) */
    size_t nkids, capkids, next;
    int has_p;
    long min_p, max_all;
} frame;

static void
frame_clear(frame *f)
{
    size_t i;
    bt_position_free(f->pos);
    for (i = 0; i < f->ntexts; i++)
        free(f->texts[i]);
    free(f->texts);
    free(f->key);
    bt_moves_free(f->kids, f->nkids);
    memset(f, 0, sizeof *f);
}

typedef struct gather {
    frame *f;
    size_t comp;
} gather;

static bt_status
on_kid(void *ud, const mpz_t *to, size_t nto)
{
    gather *g = ud;
    return bt__move_push(&g->f->kids, &g->f->nkids, &g->f->capkids, g->comp,
                         to, nto);
}

/* Sets up f for position pos (taken): its component texts and its key. */
static bt_status
frame_init(frame *f, bt_position *pos)
{
    size_t n = bt_position_size(pos), i;
    const char **parts;
    memset(f, 0, sizeof *f);
    f->pos = pos;
    f->texts = calloc(n ? n : 1, sizeof *f->texts);
    parts = malloc((n ? n : 1) * sizeof *parts);
    if (f->texts == NULL || parts == NULL) {
        free(parts);
        return BT_ENOMEM;
    }
    for (i = 0; i < n; i++) {
        f->texts[i] = comp_text(bt_position_game(pos, i),
                                bt_position_nums(pos, i));
        if (f->texts[i] == NULL)
            break;
        parts[i] = f->texts[i];
        f->ntexts = i + 1;
    }
    if (f->ntexts == n)
        f->key = join_key(parts, n, &f->keylen);
    free(parts);
    return f->key != NULL ? BT_OK : BT_ENOMEM;
}

/* Lists every move of f's position. */
static bt_status
frame_expand(frame *f, const bt_limits *lim, bt_diag *diag)
{
    size_t i;
    for (i = 0; i < bt_position_size(f->pos); i++) {
        bt_game *g = bt_position_game(f->pos, i);
        gather ga;
        bt_status st;
        ga.f = f;
        ga.comp = i;
        st = g->rules->options(g, bt_position_nums(f->pos, i), on_kid, &ga,
                               lim, diag);
        if (st != BT_OK)
            return st;
    }
    return BT_OK;
}

/* The key of the position that move m leaves from f's position. */
static char *
kid_key(const frame *f, const bt_move *m, size_t *len)
{
    bt_game *g = bt_position_game(f->pos, m->component);
    unsigned ar = g->rules->arity;
    size_t k = m->nto / ar, n = f->ntexts - 1 + k, i, j = 0;
    const char **parts = malloc((n ? n : 1) * sizeof *parts);
    char **made = calloc(k ? k : 1, sizeof *made);
    char *key = NULL;
    if (parts == NULL || made == NULL)
        goto cleanup;
    for (i = 0; i < f->ntexts; i++)
        if (i != m->component)
            parts[j++] = f->texts[i];
    for (i = 0; i < k; i++) {
        made[i] = comp_text(g, (const mpz_t *)m->to + i * ar);
        if (made[i] == NULL)
            goto cleanup;
        parts[j++] = made[i];
    }
    key = join_key(parts, n, len);
cleanup:
    if (made != NULL)
        for (i = 0; i < k; i++)
            free(made[i]);
    free(made);
    free(parts);
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

bt_status
bt_solver_solve(bt_solver *s, bt_outcome *outcome, long *remoteness,
                const bt_position *p, const bt_limits *lim, bt_diag *diag)
{
    frame *stack = NULL;
    size_t depth = 0, cap = 0;
    bt_position *copy;
    bt_status st;
    slot *sl;

    lim = bt__limits(lim);
    st = bt_position_copy(&copy, p);
    if (st != BT_OK)
        return bt__fail(diag, st, "out of memory");
    cap = 64;
    stack = malloc(cap * sizeof *stack);
    if (stack == NULL) {
        bt_position_free(copy);
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    st = frame_init(&stack[0], copy);
    depth = 1;
    if (st != BT_OK)
        goto cleanup;
    sl = lookup(s, stack[0].key, stack[0].keylen);
    if (sl->key != NULL) {
        *outcome = (bt_outcome)sl->outcome;
        *remoteness = sl->rem;
        goto cleanup;
    }
    /*
     * Depth-first, with an explicit stack: a frame is finished when every
     * move of its position has been folded in, and its value is stored
     * before its parent goes on.  Game graphs are acyclic, so a position on
     * the path is never met again below itself.
     */
    while (depth > 0) {
        frame *f = &stack[depth - 1];
        if (f->kids == NULL && f->next == 0 && f->nkids == 0 &&
            f->capkids == 0) {
            f->capkids = 1; /* expanded, even when it has no move */
            st = frame_expand(f, lim, diag);
            if (st != BT_OK)
                goto cleanup;
        }
        if (f->next < f->nkids) {
            const bt_move *m = &f->kids[f->next++];
            size_t len;
            char *key = kid_key(f, m, &len);
            bt_position *q;
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
            free(key);
            if (s->used + depth >= s->max_states) {
                st = bt__fail(diag, BT_ELIMIT,
                              "the game graph has more than %zu positions "
                              "(the search limit)",
                              s->max_states);
                goto cleanup;
            }
            if (depth == cap) {
                frame *ns = realloc(stack, 2 * cap * sizeof *ns);
                if (ns == NULL) {
                    st = BT_ENOMEM;
                    goto cleanup;
                }
                stack = ns;
                cap *= 2;
                f = &stack[depth - 1];
                m = &f->kids[f->next - 1];
            }
            st = bt_position_copy(&q, f->pos);
            if (st == BT_OK)
                st = bt_position_apply(q, m);
            if (st == BT_OK)
                st = frame_init(&stack[depth], q);
            else
                bt_position_free(q);
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
                st = bt__fail(diag, st, "the time budget ran out during "
                                        "the search");
                goto cleanup;
            }
            st = store(s, f->key, f->keylen, o, rem);
            if (st != BT_OK)
                goto cleanup;
            f->key = NULL; /* the table owns it now */
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
    if (st == BT_ENOMEM)
        return bt__fail(diag, st, "out of memory");
    return st;
}

/* ------------------------------------------------------------- Nim */

/* Non-zero when every component of p is a Nim pile. */
static int
all_nim(const bt_position *p)
{
    size_t i;
    for (i = 0; i < bt_position_size(p); i++)
        if (!bt_game_is_nim(bt_position_game(p, i)))
            return 0;
    return 1;
}

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
bt_remoteness(mpz_t rop, const bt_position *p, int misere,
              const bt_limits *lim, bt_diag *diag)
{
    bt_solver *s;
    bt_outcome o;
    long rem;
    bt_status st;

    lim = bt__limits(lim);
    if (all_nim(p))
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
