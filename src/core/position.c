/*
 * position.c -- sums of components, and the position language.
 *
 * Grammar (documented for users in include/bouton/core.h and README.md):
 *
 *     position := [ term { '+' term } ]
 *     term     := [ game ] { number }
 *     game     := name [ ':' params ]
 *     number   := digit { digit }
 *
 * Numbers are separated by blanks or commas; a name starts with a letter.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

/* A component: its game and its numbers (arity of them; any number >= 1
   for a game of variable arity, such as Moore's Nim's piles). */
typedef struct comp {
    bt_game *game;
    size_t nv;
    mpz_t *v;
} comp;

struct bt_position {
    comp *c;
    size_t n, cap;
    bt_game *origin; /* the game of an empty parse, for listings */
};

bt_status
bt_position_new(bt_position **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? BT_OK : BT_ENOMEM;
}

static void
comp_clear(comp *c)
{
    size_t j;
    for (j = 0; j < c->nv; j++)
        mpz_clear(c->v[j]);
    free(c->v);
    bt_game_free(c->game);
}

void
bt_position_free(bt_position *p)
{
    size_t i;
    if (p == NULL)
        return;
    for (i = 0; i < p->n; i++)
        comp_clear(&p->c[i]);
    free(p->c);
    bt_game_free(p->origin);
    free(p);
}

static int
grow(bt_position *p, size_t extra)
{
    size_t cap;
    comp *c;
    if (p->n + extra <= p->cap)
        return 1;
    cap = p->cap ? p->cap : 8;
    while (cap < p->n + extra)
        cap *= 2;
    c = realloc(p->c, cap * sizeof *c);
    if (c == NULL)
        return 0;
    p->c = c;
    p->cap = cap;
    return 1;
}

/* Fills *c with game g and a copy of nums[0..n-1]. */
static bt_status
comp_init(comp *c, bt_game *g, const mpz_t *nums, size_t n)
{
    size_t j;
    c->v = malloc((n ? n : 1) * sizeof *c->v);
    if (c->v == NULL)
        return BT_ENOMEM;
    c->nv = n;
    for (j = 0; j < n; j++)
        mpz_init_set(c->v[j], nums[j]);
    c->game = bt_game_ref(g);
    return BT_OK;
}

/* Appends a component of n numbers without checks; the numbers are
   copied. */
static bt_status
push(bt_position *p, bt_game *g, const mpz_t *nums, size_t n)
{
    if (!grow(p, 1) || comp_init(&p->c[p->n], g, nums, n) != BT_OK)
        return BT_ENOMEM;
    p->n++;
    return BT_OK;
}

bt_status
bt__position_push(bt_position *p, bt_game *g, const mpz_t *nums, size_t n)
{
    return push(p, g, nums, n);
}

/* What malloc keeps beside a block, as util.c counts it for the budget. */
#define MALLOC_OVERHEAD 16

size_t
bt__position_bytes(const bt_position *p)
{
    size_t bytes = sizeof *p + p->cap * sizeof *p->c + 2 * MALLOC_OVERHEAD,
           i, j;
    for (i = 0; i < p->n; i++) {
        bytes += MALLOC_OVERHEAD; /* the array of its numbers */
        for (j = 0; j < p->c[i].nv; j++)
            bytes += bt__mpz_bytes(p->c[i].v[j]);
    }
    return bytes;
}

static bt_status
check_component(bt_game *g, const mpz_t *nums, size_t n, size_t index,
                const bt_limits *lim, bt_diag *diag)
{
    size_t j;
    bt_status st;
    char what[96];
    for (j = 0; j < n; j++) {
        /* the common case, cheaply: non-negative and plainly short */
        if (mpz_sgn(nums[j]) >= 0 &&
            mpz_sizeinbase(nums[j], 10) <= lim->max_digits)
            continue;
        if (g->rules->arity == 1)
            snprintf(what, sizeof what, "component %zu", index + 1);
        else
            snprintf(what, sizeof what, "the number %zu of component %zu",
                     j + 1, index + 1);
        st = bt__check_number(nums[j], lim, what, diag);
        if (st != BT_OK)
            return st;
    }
    return bt__rs_check(g, nums, n, lim, diag);
}

bt_status
bt_position_add(bt_position *p, bt_game *g, const mpz_t *nums,
                const bt_limits *lim, bt_diag *diag)
{
    if (g->rules->arity == 0)
        return bt__fail(diag, BT_EINVAL,
                        "%s has components of any number of numbers: use "
                        "bt_position_add_n",
                        g->spec);
    return bt_position_add_n(p, g, nums, g->rules->arity, lim, diag);
}

bt_status
bt_position_add_n(bt_position *p, bt_game *g, const mpz_t *nums, size_t n,
                  const bt_limits *lim, bt_diag *diag)
{
    bt_status st;
    lim = bt__limits(lim);
    if (g->rules->arity != 0 && n != g->rules->arity)
        return bt__fail(diag, BT_EINVAL,
                        "a component of %s is %u numbers, got %zu", g->spec,
                        g->rules->arity, n);
    if (g->rules->arity == 0 && n == 0)
        return bt__fail(diag, BT_EINVAL,
                        "a component of %s needs at least one number",
                        g->spec);
    if (g->rules->arity == 0 && n > lim->max_components)
        return bt__fail(diag, BT_ELIMIT,
                        "a component of %zu numbers is more than %zu (the "
                        "max_components limit)",
                        n, lim->max_components);
    if (p->n >= lim->max_components)
        return bt__fail(diag, BT_ELIMIT,
                        "more than %zu components (the max_components "
                        "limit)",
                        lim->max_components);
    st = check_component(g, nums, n, p->n, lim, diag);
    if (st != BT_OK)
        return st;
    st = push(p, g, nums, n);
    return st == BT_OK ? st : bt__fail(diag, st, "out of memory");
}

bt_status
bt_position_copy(bt_position **out, const bt_position *p)
{
    bt_position *q;
    size_t i;
    *out = NULL;
    if (bt_position_new(&q) != BT_OK)
        return BT_ENOMEM;
    if (!grow(q, p->n)) {
        bt_position_free(q);
        return BT_ENOMEM;
    }
    for (i = 0; i < p->n; i++)
        if (push(q, p->c[i].game, (const mpz_t *)p->c[i].v, p->c[i].nv) !=
            BT_OK) {
            bt_position_free(q);
            return BT_ENOMEM;
        }
    q->origin = bt_game_ref(p->origin);
    *out = q;
    return BT_OK;
}

size_t
bt_position_size(const bt_position *p)
{
    return p->n;
}

bt_game *
bt_position_game(const bt_position *p, size_t i)
{
    return i < p->n ? p->c[i].game : NULL;
}

int
bt__position_is_all(const bt_position *p, unsigned flags)
{
    size_t i;
    for (i = 0; i < p->n; i++)
        if ((p->c[i].game->rules->flags & flags) != flags)
            return 0;
    return 1;
}

const mpz_t *
bt_position_nums(const bt_position *p, size_t i)
{
    return i < p->n ? (const mpz_t *)p->c[i].v : NULL;
}

size_t
bt_position_count(const bt_position *p, size_t i)
{
    return i < p->n ? p->c[i].nv : 0;
}

bt_game *
bt_position_single_game(const bt_position *p)
{
    size_t i;
    if (p->n == 0)
        return p->origin;
    for (i = 1; i < p->n; i++)
        if (p->c[i].game != p->c[0].game &&
            strcmp(p->c[i].game->spec, p->c[0].game->spec) != 0)
            return NULL;
    return p->c[0].game;
}

bt_status
bt_position_replace(bt_position *p, size_t i, bt_game *g, const mpz_t *to,
                    size_t nto)
{
    /* a game of variable arity: the nto numbers are one component */
    size_t ar = g->rules->arity ? g->rules->arity : (nto ? nto : 1);
    size_t k = nto / ar, j;
    comp old, *fresh;
    if (i >= p->n || nto % ar != 0)
        return BT_EINVAL;
    fresh = malloc((k ? k : 1) * sizeof *fresh);
    if (fresh == NULL)
        return BT_ENOMEM;
    for (j = 0; j < k; j++)
        if (comp_init(&fresh[j], g, to + j * ar, ar) != BT_OK) {
            while (j-- > 0)
                comp_clear(&fresh[j]);
            free(fresh);
            return BT_ENOMEM;
        }
    if (!grow(p, k)) {
        for (j = 0; j < k; j++)
            comp_clear(&fresh[j]);
        free(fresh);
        return BT_ENOMEM;
    }
    old = p->c[i];
    /* open (or close) a gap of k components at i */
    memmove(&p->c[i + k], &p->c[i + 1], (p->n - i - 1) * sizeof(comp));
    p->n = p->n - 1 + k;
    memcpy(&p->c[i], fresh, k * sizeof *fresh);
    free(fresh);
    if (p->n == 0 && p->origin == NULL)
        p->origin = bt_game_ref(old.game);
    comp_clear(&old);
    return BT_OK;
}

int
bt_position_equal(const bt_position *a, const bt_position *b)
{
    size_t i, j;
    if (a->n != b->n)
        return 0;
    for (i = 0; i < a->n; i++) {
        if (strcmp(a->c[i].game->spec, b->c[i].game->spec) != 0 ||
            a->c[i].nv != b->c[i].nv)
            return 0;
        for (j = 0; j < a->c[i].nv; j++)
            if (mpz_cmp(a->c[i].v[j], b->c[i].v[j]) != 0)
                return 0;
    }
    return 1;
}

char *
bt_position_format(const bt_position *p)
{
    bt__buf b;
    size_t i, j;
    bt__buf_init(&b);
    if (p->n == 0 && p->origin != NULL)
        bt__buf_puts(&b, p->origin->spec);
    for (i = 0; i < p->n; i++) {
        const comp *c = &p->c[i];
        /* a component of variable arity is a term of its own */
        if (i == 0 || c->game->rules->arity == 0 ||
            strcmp(c->game->spec, p->c[i - 1].game->spec) != 0) {
            if (i > 0)
                bt__buf_puts(&b, " + ");
            bt__buf_puts(&b, c->game->spec);
        }
        for (j = 0; j < c->nv; j++) {
            /* the numbers of one item (a board's coin) joined by commas */
            unsigned group = c->game->rules->arity == 0
                                 ? BT__VARSET(c->game)->group
                                 : 0;
            bt__buf_putc(&b, group > 1 && j % group != 0 ? ',' : ' ');
            bt__buf_mpz(&b, c->v[j]);
        }
    }
    return bt__buf_take(&b);
}

/* ------------------------------------------------------------- parsing */

/*
 * The games of a text.  A term names its game by a text ("kayles",
 * "octal:0.77", "octal:0.770"); texts that mean one game must give one
 * bt_game, or a sum of 60 000 Kayles terms makes 60 000 games, each with
 * its own Grundy sequence (and a lookup among all of them at every term:
 * quadratic).  So the games are kept in a hash table under two kinds of
 * key: each text written (pointing into the text, so that a repeated name
 * costs one lookup) and each game's canonical spec (pointing into the
 * game, so that a new text of a known game is recognised after
 * bt_game_new and the new game dropped).  A table at most half full of
 * open addressing; its slots and each distinct game's text are charged to
 * the parse's memory budget (as are the components, parse_charge), and the
 * distinct games are counted against lim->max_games.
 */
typedef struct gslot {
    const char *key; /* NULL: empty */
    size_t len;
    bt_game *game;
} gslot;

typedef struct parser {
    const char *text;
    size_t pos, len;
    bt_position *p;
    const bt_limits *lim;
    bt_diag *diag;
    bt_game **games; /* the distinct games named in the text */
    size_t ngames, gcap;
    gslot *slots; /* the hash table: texts and specs to games */
    size_t nslots, used;
    bt__budget budget;
    size_t ticks; /* numbers and terms read: polled every 4096 */
} parser;

/* Charges a component of n numbers to the parse's budget: its slot in
   the position (doubled as the array grows) and its numbers' bytes. */
static bt_status
parse_charge(parser *ps, const mpz_t *nums, size_t n)
{
    size_t bytes = 2 * sizeof(comp) + 16, j;
    for (j = 0; j < n; j++)
        bytes += bt__mpz_bytes(nums[j]);
    return bt__budget_charge(&ps->budget, bytes, ps->diag);
}

/* Polls the budget every 4096 numbers or terms: a text of max_text bytes
   is linear work, but of up to 64 MiB. */
static bt_status
parse_tick(parser *ps)
{
    if ((++ps->ticks & 4095) != 0)
        return BT_OK;
    return bt__budget_check(&ps->budget, ps->lim, ps->diag);
}

static int
is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == ',';
}

static void
skip_blanks(parser *ps)
{
    while (ps->pos < ps->len && is_blank(ps->text[ps->pos]))
        ps->pos++;
}

/* FNV-1a of a key. */
static size_t
key_hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603u;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211u;
    }
    return (size_t)h;
}

static gslot *
slot_of(const parser *ps, const char *key, size_t n)
{
    size_t i = key_hash(key, n) & (ps->nslots - 1);
    while (ps->slots[i].key != NULL &&
           (ps->slots[i].len != n || memcmp(ps->slots[i].key, key, n) != 0))
        i = (i + 1) & (ps->nslots - 1);
    return &ps->slots[i];
}

static bt_game *
games_find(const parser *ps, const char *key, size_t n)
{
    return ps->nslots ? slot_of(ps, key, n)->game : NULL;
}

/* Maps key (not yet in the table, and alive as long as the parse) to g. */
static bt_status
games_put(parser *ps, const char *key, size_t n, bt_game *g)
{
    gslot *sl;
    bt_status st;
    if (2 * (ps->used + 1) > ps->nslots) {
        size_t oldcap = ps->nslots, cap = oldcap ? 2 * oldcap : 64, i;
        gslot *old = ps->slots, *fresh;
        st = bt__budget_charge(&ps->budget, cap * sizeof *fresh, ps->diag);
        if (st != BT_OK)
            return st;
        fresh = calloc(cap, sizeof *fresh);
        if (fresh == NULL)
            return bt__fail(ps->diag, BT_ENOMEM, "out of memory");
        ps->slots = fresh;
        ps->nslots = cap;
        for (i = 0; i < oldcap; i++)
            if (old[i].key != NULL)
                *slot_of(ps, old[i].key, old[i].len) = old[i];
        bt__budget_release(&ps->budget, oldcap * sizeof *fresh);
        free(old);
    }
    sl = slot_of(ps, key, n);
    sl->key = key;
    sl->len = n;
    sl->game = g;
    ps->used++;
    return BT_OK;
}

static bt_status
game_at(parser *ps, bt_game **out)
{
    size_t start = ps->pos, n;
    const char *name = ps->text + start;
    char *spec;
    bt_game *g, *known;
    bt_status st;
    while (ps->pos < ps->len && !isspace((unsigned char)ps->text[ps->pos]) &&
           ps->text[ps->pos] != '+')
        ps->pos++;
    n = ps->pos - start;
    if ((*out = games_find(ps, name, n)) != NULL)
        return BT_OK;
    spec = malloc(n + 1);
    if (spec == NULL)
        return bt__fail(ps->diag, BT_ENOMEM, "out of memory");
    memcpy(spec, name, n);
    spec[n] = '\0';
    st = bt_game_new(&g, spec, ps->diag);
    free(spec);
    if (st != BT_OK) {
        if (ps->diag != NULL) {
            size_t off = ps->diag->has_offset ? ps->diag->offset : 0;
            ps->diag->has_offset = 1;
            ps->diag->offset = start + off;
        }
        return st;
    }
    known = games_find(ps, g->spec, strlen(g->spec));
    if (known != NULL) {
        /* another text of a game already named ("kayles" after
           "octal:0.77"): the one game serves both */
        bt_game_free(g);
        *out = known;
        return games_put(ps, name, n, known);
    }
    if (ps->ngames >= ps->lim->max_games) {
        bt_game_free(g);
        return bt__fail_at(ps->diag, BT_ELIMIT, start,
                           "more than %zu distinct games in one position "
                           "(the max_games limit), at column %zu",
                           ps->lim->max_games, start + 1);
    }
    if (ps->ngames == ps->gcap) {
        size_t cap = ps->gcap ? 2 * ps->gcap : 8;
        bt_game **gs = realloc(ps->games, cap * sizeof *gs);
        if (gs == NULL) {
            bt_game_free(g);
            return bt__fail(ps->diag, BT_ENOMEM, "out of memory");
        }
        ps->games = gs;
        ps->gcap = cap;
    }
    ps->games[ps->ngames++] = g;
    /* a game's rules grow with its text (a code of 1 000 digits keeps
       lists of its moves): charged by that measure */
    st = bt__budget_charge(&ps->budget,
                           sizeof *g + 64 * (n + strlen(g->spec)) + 256,
                           ps->diag);
    if (st == BT_OK)
        st = games_put(ps, g->spec, strlen(g->spec), g);
    if (st == BT_OK && (n != strlen(g->spec) || memcmp(name, g->spec, n)))
        st = games_put(ps, name, n, g);
    /* a new game costs about a microsecond (its rules are built), a
       thousand times a number's reading: polled every 16 new games, so a
       text of max_games distinct games sees a 1 ms slice end */
    if (st == BT_OK && (ps->ngames & 15) == 0)
        st = bt__budget_check(&ps->budget, ps->lim, ps->diag);
    *out = g;
    return st;
}

static bt_status
parse_term(parser *ps, bt_game *dflt)
{
    bt_game *g = dflt;
    size_t term_start, count = 0, cap = 0, ar, j;
    mpz_t *nums = NULL;
    bt_status st = BT_OK;

    skip_blanks(ps);
    term_start = ps->pos;
    if (ps->pos < ps->len && isalpha((unsigned char)ps->text[ps->pos])) {
        st = game_at(ps, &g);
        if (st != BT_OK)
            return st;
    } else if (g == NULL) {
        return bt__fail_at(ps->diag, BT_EPARSE, ps->pos,
                           "expected a game name at column %zu",
                           ps->pos + 1);
    }
    if (ps->p->origin == NULL)
        ps->p->origin = bt_game_ref(g);
    /* a game of variable arity: every number of the term is one component
       (gathered in nums, grown as needed); else groups of arity */
    ar = g->rules->arity ? g->rules->arity : (size_t)-1;
    for (;;) {
        size_t start;
        skip_blanks(ps);
        if (ps->pos >= ps->len || ps->text[ps->pos] == '+')
            break;
        if ((st = parse_tick(ps)) != BT_OK)
            goto cleanup;
        start = ps->pos;
        while (ps->pos < ps->len && isdigit((unsigned char)ps->text[ps->pos]))
            ps->pos++;
        if (ps->pos == start || (ps->pos < ps->len &&
                                 !is_blank(ps->text[ps->pos]) &&
                                 ps->text[ps->pos] != '+')) {
            size_t bad = ps->pos, end = ps->pos;
            while (end < ps->len && !is_blank(ps->text[end]) &&
                   ps->text[end] != '+')
                end++;
            if (bad < ps->len && ((unsigned char)ps->text[bad] < 0x20 ||
                                  ps->text[bad] == 0x7f))
                st = bt__fail_at(ps->diag, BT_EPARSE, bad,
                                 "a control character (byte 0x%02x) at "
                                 "column %zu: a position has numbers, game "
                                 "names, spaces, commas and '+' only",
                                 (unsigned)(unsigned char)ps->text[bad],
                                 bad + 1);
            else if (isalpha((unsigned char)ps->text[start]))
                st = bt__fail_at(ps->diag, BT_EPARSE, start,
                                 "'%.*s' at column %zu is not a "
                                 "non-negative integer (a game's term "
                                 "starts after '+')",
                                 (int)(end - start > 40 ? 40 : end - start),
                                 ps->text + start, start + 1);
            else if (ps->text[start] == '-')
                st = bt__fail_at(ps->diag, BT_EPARSE, start,
                                 "'%.*s' at column %zu: a pile cannot be "
                                 "negative",
                                 (int)(end - start > 40 ? 40 : end - start),
                                 ps->text + start, start + 1);
            else
                st = bt__fail_at(
                    ps->diag, BT_EPARSE, bad,
                    "'%.*s' at column %zu is not a non-negative integer",
                    (int)(end - start > 40 ? 40 : end - start),
                    ps->text + start, bad + 1);
            goto cleanup;
        }
        if (count % ar == cap) {
            mpz_t *grown;
            if (count >= ps->lim->max_components) {
                st = bt__fail_at(ps->diag, BT_ELIMIT, start,
                                 "more than %zu numbers in one component "
                                 "(the max_components limit)",
                                 ps->lim->max_components);
                goto cleanup;
            }
            grown = realloc(nums, (cap ? 2 * cap : 4) * sizeof *nums);
            if (grown == NULL) {
                st = bt__fail(ps->diag, BT_ENOMEM, "out of memory");
                goto cleanup;
            }
            nums = grown;
            for (j = cap; j < (cap ? 2 * cap : 4); j++)
                mpz_init(nums[j]);
            cap = cap ? 2 * cap : 4;
        }
        st = bt__parse_number(nums[count % ar], ps->text + start,
                              ps->pos - start, ps->lim, ps->diag);
        if (st != BT_OK) {
            if (ps->diag != NULL) {
                ps->diag->has_offset = 1;
                ps->diag->offset = start;
            }
            goto cleanup;
        }
        count++;
        if (count % ar == 0) {
            st = parse_charge(ps, (const mpz_t *)nums, ar);
            if (st == BT_OK)
                st = bt_position_add(ps->p, g, (const mpz_t *)nums, ps->lim,
                                     ps->diag);
            if (st != BT_OK) {
                if (ps->diag != NULL) {
                    ps->diag->has_offset = 1;
                    ps->diag->offset = start;
                }
                goto cleanup;
            }
        }
    }
    if (g->rules->arity == 0 && count > 0 &&
        (st = parse_charge(ps, (const mpz_t *)nums, count)) != BT_OK)
        goto cleanup;
    if (g->rules->arity == 0 && count > 0)
        st = bt_position_add_n(ps->p, g, (const mpz_t *)nums, count, ps->lim,
                               ps->diag);
    else if (count % ar != 0)
        st = bt__fail_at(ps->diag, BT_EPARSE, term_start,
                         "%s at column %zu: a position of %s is %zu numbers "
                         "per component, got %zu",
                         g->spec, term_start + 1, g->spec, ar, count);
cleanup:
    for (j = 0; j < cap; j++)
        mpz_clear(nums[j]);
    free(nums);
    return st;
}

static bt_status
position_parse(bt_position **out, const char *text, bt_game *dflt,
               const bt_limits *lim, bt_diag *diag)
{
    parser ps;
    bt_status st;
    size_t i, plus;

    *out = NULL;
    lim = bt__limits(lim);
    memset(&ps, 0, sizeof ps);
    ps.text = text;
    ps.len = strlen(text);
    ps.lim = lim;
    ps.diag = diag;
    bt__budget_init(&ps.budget, lim);
    if (ps.len > lim->max_text)
        return bt__fail(diag, BT_ELIMIT,
                        "position text of %zu bytes is more than the limit "
                        "of %zu (max_text)",
                        ps.len, lim->max_text);
    st = bt_position_new(&ps.p);
    if (st != BT_OK)
        return bt__fail(diag, st, "out of memory");
    for (;;) {
        if ((st = parse_tick(&ps)) != BT_OK)
            break;
        st = parse_term(&ps, dflt);
        if (st != BT_OK)
            break;
        if (ps.pos >= ps.len)
            break;
        plus = ps.pos++;
        skip_blanks(&ps);
        if (ps.pos >= ps.len || ps.text[ps.pos] == '+') {
            st = bt__fail_at(diag, BT_EPARSE, plus,
                             "a term is missing after '+' at column %zu",
                             plus + 1);
            break;
        }
    }
    for (i = 0; i < ps.ngames; i++)
        bt_game_free(ps.games[i]);
    free(ps.games);
    free(ps.slots);
    if (st != BT_OK) {
        bt_position_free(ps.p);
        return st;
    }
    if (ps.p->origin == NULL && dflt != NULL)
        ps.p->origin = bt_game_ref(dflt);
    *out = ps.p;
    return BT_OK;
}

bt_status
bt_position_parse(bt_position **out, const char *text, bt_game *dflt,
                  const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, position_parse(out, text, dflt, lim, diag));
}

/* ---------------------------------------------------------------- moves */

bt_status
bt__move_push(bt_move **moves, size_t *n, size_t *cap, size_t component,
              const mpz_t *to, size_t nto)
{
    bt_move *m;
    size_t j;
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 8;
        bt_move *q = realloc(*moves, c * sizeof *q);
        if (q == NULL)
            return BT_ENOMEM;
        *moves = q;
        *cap = c;
    }
    m = &(*moves)[*n];
    m->component = component;
    m->nto = nto;
    m->text = NULL;
    m->to = NULL;
    if (nto > 0) {
        m->to = malloc(nto * sizeof *m->to);
        if (m->to == NULL)
            return BT_ENOMEM;
        for (j = 0; j < nto; j++)
            mpz_init_set(m->to[j], to[j]);
    }
    (*n)++;
    return BT_OK;
}

void
bt_moves_free(bt_move *moves, size_t count)
{
    size_t i, j;
    if (moves == NULL)
        return;
    for (i = 0; i < count; i++) {
        for (j = 0; j < moves[i].nto; j++)
            mpz_clear(moves[i].to[j]);
        free(moves[i].to);
        free(moves[i].text);
    }
    free(moves);
}

bt_status
bt_position_apply(bt_position *p, const bt_move *m)
{
    if (m->component >= bt_position_size(p))
        return BT_EINVAL;
    return bt_position_replace(p, m->component,
                               bt_position_game(p, m->component),
                               (const mpz_t *)m->to, m->nto);
}
