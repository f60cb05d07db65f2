/*
 * game.c -- the registry of game families and the bt_game handle.
 *
 * A game text is NAME or NAME:PARAMS.  NAME is a family's name or one of its
 * aliases (bt_family_info.aliases); the family's init() parses PARAMS.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

/* The families (each defined in its file of src/games/) ... */
extern const bt__ruleset bt__ruleset_nim;
extern const bt__ruleset bt__ruleset_wythoff;
extern const bt__ruleset bt__ruleset_sub;
extern const bt__ruleset bt__ruleset_octal;
extern const bt__ruleset bt__ruleset_grundys;
extern const bt__ruleset bt__ruleset_tb;
extern const bt__varset bt__varset_moore;
extern const bt__varset bt__varset_turtles;
extern const bt__varset bt__varset_mock_turtles;
extern const bt__varset bt__varset_ruler;
extern const bt__varset bt__varset_twins;
extern const bt__varset bt__varset_corners;
extern const bt__varset bt__varset_tartan;

/* ... and the registry, in the order of listings: one line per family. */
static const bt__ruleset *const registry[] = {
    &bt__ruleset_nim,
    &bt__ruleset_wythoff,
    &bt__ruleset_sub,
    &bt__ruleset_octal,
    &bt__ruleset_grundys,
    &bt__ruleset_tb,
    &bt__varset_moore.base,
    &bt__varset_turtles.base,
    &bt__varset_mock_turtles.base,
    &bt__varset_ruler.base,
    &bt__varset_twins.base,
    &bt__varset_corners.base,
    &bt__varset_tartan.base,
};
#define NFAMILIES (sizeof registry / sizeof registry[0])

size_t
bt_family_count(void)
{
    return NFAMILIES;
}

const bt_family_info *
bt_family(size_t i)
{
    return i < NFAMILIES ? &registry[i]->info : NULL;
}

unsigned
bt_family_arity(size_t i)
{
    return i < NFAMILIES ? registry[i]->arity : 0;
}

/* The coin games' hook of a family, or NULL for piles. */
static const bt__varset *
coin_hooks(const bt__ruleset *r)
{
    const bt__varset *v = r->arity == 0 ? (const bt__varset *)(const void *)r
                                        : NULL;
    return v != NULL && v->first_coin != NULL ? v : NULL;
}

static bt_board
board_of(const bt__ruleset *r)
{
    const bt__varset *v = coin_hooks(r);
    if (v == NULL)
        return BT_BOARD_PILES;
    return v->group == 2 ? BT_BOARD_GRID : BT_BOARD_ROW;
}

bt_board
bt_family_board(size_t i)
{
    return i < NFAMILIES ? board_of(registry[i]) : BT_BOARD_PILES;
}

bt_board
bt_game_board(const bt_game *g)
{
    return board_of(g->rules);
}

const char *
bt_board_name(bt_board b)
{
    switch (b) {
    case BT_BOARD_PILES:
        return "piles";
    case BT_BOARD_ROW:
        return "row";
    case BT_BOARD_GRID:
        return "grid";
    }
    return NULL;
}

unsigned long
bt_game_board_first(const bt_game *g, unsigned axis)
{
    const bt__varset *v = coin_hooks(g->rules);
    if (v == NULL || axis > (v->group == 2 ? 1u : 0u))
        return 0;
    return v->first_coin(g, axis);
}

char *
bt_games_text(void)
{
    bt__buf b;
    size_t i;
    bt__buf_init(&b);
    for (i = 0; i < NFAMILIES; i++) {
        const bt_family_info *f = &registry[i]->info;
        bt__buf_printf(&b, "%s%s", i ? ", " : "", f->syntax);
        if (f->aliases[0] != '\0') {
            const char *p = f->aliases;
            while (*p != '\0') {
                size_t n = strcspn(p, " ");
                bt__buf_printf(&b, ", %.*s", (int)n, p);
                p += n;
                p += strspn(p, " ");
            }
        }
    }
    return bt__buf_take(&b);
}

/* Non-zero when the space-separated list `words` holds name[0..len-1]. */
static int
has_word(const char *words, const char *name, size_t len)
{
    const char *p = words;
    while (p != NULL && *p != '\0') {
        size_t n = strcspn(p, " ");
        if (n == len && memcmp(p, name, len) == 0)
            return 1;
        p += n;
        p += strspn(p, " ");
    }
    return 0;
}

static const bt__ruleset *
find_family(const char *name, size_t len)
{
    size_t i;
    for (i = 0; i < NFAMILIES; i++) {
        const bt__ruleset *r = registry[i];
        if ((strlen(r->info.name) == len &&
             memcmp(r->info.name, name, len) == 0) ||
            has_word(r->info.aliases, name, len))
            return r;
    }
    return NULL;
}

bt_status
bt_game_new(bt_game **out, const char *spec, bt_diag *diag)
{
    const bt__ruleset *r;
    const char *colon;
    size_t len;
    char *name = NULL;
    bt_game *g = NULL;
    bt_status st;

    *out = NULL;
    if (spec == NULL)
        return bt__fail(diag, BT_EINVAL, "no game given");
    colon = strchr(spec, ':');
    len = colon ? (size_t)(colon - spec) : strlen(spec);
    r = find_family(spec, len);
    if (r == NULL) {
        /* the list of games comes from the registry */
        char *known = bt_games_text();
        st = bt__fail(diag, BT_EPARSE, "unknown game '%.*s' (known: %s)",
                      (int)(len > 40 ? 40 : len), spec,
                      known ? known : "out of memory");
        free(known);
        if (diag != NULL) {
            diag->has_offset = 1;
            diag->offset = 0;
        }
        return st;
    }
    g = calloc(1, sizeof *g);
    name = malloc(len + 1);
    if (g == NULL || name == NULL) {
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
        goto cleanup;
    }
    memcpy(name, spec, len);
    name[len] = '\0';
    g->rules = r;
    g->refs = 1;
    st = r->init(g, name, colon ? colon + 1 : NULL, diag);
    if (st != BT_OK) {
        if (diag != NULL && diag->has_offset)
            diag->offset += colon ? len + 1 : 0;
        goto cleanup;
    }
    if (g->spec == NULL) {
        st = bt__fail(diag, BT_ENOMEM, "out of memory");
        goto cleanup;
    }
    free(name);
    *out = g;
    return BT_OK;

cleanup:
    free(name);
    if (g != NULL) {
        if (g->state != NULL && r->fini != NULL)
            r->fini(g);
        free(g->spec);
        free(g);
    }
    return st;
}

bt_game *
bt_game_ref(bt_game *g)
{
    if (g != NULL)
        g->refs++;
    return g;
}

void
bt_game_free(bt_game *g)
{
    if (g == NULL || --g->refs > 0)
        return;
    if (g->rules->fini != NULL)
        g->rules->fini(g);
    free(g->spec);
    free(g);
}

const char *
bt_game_spec(const bt_game *g)
{
    return g->spec;
}

const char *
bt_game_family(const bt_game *g)
{
    return g->rules->info.name;
}

unsigned
bt_game_arity(const bt_game *g)
{
    return g->rules->arity;
}

int
bt_game_is_nim(const bt_game *g)
{
    return g->rules == &bt__ruleset_nim;
}

char *
bt_game_rules(const bt_game *g)
{
    bt__buf b;
    bt__buf_init(&b);
    if (g->rules->rules != NULL)
        g->rules->rules(g, &b);
    else
        bt__buf_puts(&b, g->rules->info.summary);
    return bt__buf_take(&b);
}

bt_status
bt__game_set_spec(bt_game *g, const char *fmt, ...)
{
    va_list ap;
    bt__buf b;
    bt__buf_init(&b);
    va_start(ap, fmt);
    bt__buf_vprintf(&b, fmt, ap);
    va_end(ap);
    free(g->spec);
    g->spec = bt__buf_take(&b);
    return g->spec != NULL ? BT_OK : BT_ENOMEM;
}
