/*
 * analyze.c -- the analysis of any position, whatever its games.
 *
 * Normal play: by the Sprague-Grundy theorem a sum is a P-position exactly
 * when the nim-sum (XOR) X of its components' Grundy values is 0.  When
 * X != 0, a move in component i is winning exactly when it leaves that
 * component with value g_i XOR X, so every winning move is found by asking
 * each component for its options of that value (bt__ruleset.moves_to).
 *
 * Misère play: the ruleset's own theorem when the whole position is of one
 * game that has one (Bouton sec. 6; Wythoff's closed forms; Moore's rule),
 * else the exhaustive search of search.c.  Never a guess.
 *
 * Results flow down: the remoteness of Nim heaps is computed from the
 * outcome and the winning moves found here (remoteness.c's closed forms,
 * bt_remoteness too), and a family's explain hook is handed what was found
 * (bt__verdict), so nothing below calls back into the analysis and nothing
 * is analysed twice.
 *
 * A list of winning moves that a limit stops (max_search, max_memory)
 * after one move was found does not fail the analysis: the outcome stands,
 * and the list is marked incomplete with a note that quotes the message
 * of the limit that stopped it.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/engines.h"
#include "analysis/analysis.h"
#include "engines/heapgame.h"
#include "engines/window.h"

struct bt_analysis {
    int misere;
    bt_outcome outcome;
    int has_grundy;
    mpz_t grundy;
    mpz_t *comp_grundy; /* normal play: one per component */
    size_t ncomp;
    bt_move *moves;
    size_t nmoves, cap;
    char *explanation;
    long remoteness;
    int has_rem;      /* rem holds the remoteness */
    mpz_t rem;
    char *rem_reason; /* asked for but left out: why */
    int moves_incomplete; /* a component had too many moves to list */
    char *moves_note;     /* then: what is listed, what is left out */
    size_t searched; /* positions stored by a search, for explanations */
    char *quotient_note; /* misère play through the quotient (quotient.c) */
    bt__qfacts qf;       /* then what the quotient said (qf.set) */
    bt_quotient_facts qpub; /* qf, as bt_analysis_quotient shows it */
};

void
bt_analysis_free(bt_analysis *a)
{
    size_t i;
    if (a == NULL)
        return;
    mpz_clear(a->grundy);
    mpz_clear(a->rem);
    free(a->rem_reason);
    if (a->comp_grundy != NULL) {
        for (i = 0; i < a->ncomp; i++)
            mpz_clear(a->comp_grundy[i]);
        free(a->comp_grundy);
    }
    bt_moves_free(a->moves, a->nmoves);
    free(a->explanation);
    free(a->quotient_note);
    bt__qfacts_free(&a->qf);
    free(a->moves_note);
    free(a);
}

const bt_quotient_facts *
bt_analysis_quotient(const bt_analysis *a)
{
    return a->qf.set ? &a->qpub : NULL;
}

const char *
bt_analysis_heap_element(const bt_analysis *a, size_t i, size_t *as_heap)
{
    if (!a->qf.set || i >= a->qf.ncomp)
        return NULL;
    if (as_heap != NULL)
        *as_heap = a->qf.as_heap[i];
    return a->qf.word[a->qf.comp[i]];
}

const char *
bt_analysis_move_element(const bt_analysis *a, size_t i)
{
    /* one element per move the quotient emitted, in their order */
    if (!a->qf.set || i >= a->nmoves || a->qf.nmove != a->nmoves)
        return NULL;
    return a->qf.word[a->qf.move[i]];
}

bt_outcome
bt_analysis_outcome(const bt_analysis *a)
{
    return a->outcome;
}

int
bt_analysis_is_misere(const bt_analysis *a)
{
    return a->misere;
}

bt_status
bt_analysis_grundy(mpz_t rop, const bt_analysis *a)
{
    if (!a->has_grundy)
        return BT_EUNDEF;
    mpz_set(rop, a->grundy);
    return BT_OK;
}

bt_status
bt_analysis_component_grundy(mpz_t rop, const bt_analysis *a, size_t i)
{
    if (!a->has_grundy || i >= a->ncomp)
        return BT_EUNDEF;
    mpz_set(rop, a->comp_grundy[i]);
    return BT_OK;
}

size_t
bt_analysis_move_count(const bt_analysis *a)
{
    return a->nmoves;
}

const bt_move *
bt_analysis_move(const bt_analysis *a, size_t i)
{
    return i < a->nmoves ? &a->moves[i] : NULL;
}

const char *
bt_analysis_moves_note(const bt_analysis *a)
{
    return a->moves_incomplete ? a->moves_note : NULL;
}

/* Marks the moves incomplete with the note why (kept from the first). */
static bt_status
moves_left_out(bt_analysis *a, char *note, bt_diag *diag)
{
    a->moves_incomplete = 1;
    if (a->moves_note == NULL)
        a->moves_note = note;
    else
        free(note);
    return a->moves_note != NULL ? BT_OK
                                 : bt__fail(diag, BT_ENOMEM, "out of memory");
}

/*
 * Marks the moves incomplete because a limit stopped their list (st, most
 * often BT_ELIMIT), with the note: what stopped it, from the message the
 * ruleset left in why (which names the limit that actually stopped it:
 * max_search, max_memory), then `listed`, which moves are given.
 */
static bt_status
moves_stopped(bt_analysis *a, const bt_diag *why, bt_status st,
              const char *listed, bt_diag *diag)
{
    bt__buf b;
    bt__buf_init(&b);
    bt__buf_printf(&b, "%s; %s",
                   why->message[0] ? why->message : bt_strerror(st), listed);
    return moves_left_out(a, bt__buf_take(&b), diag);
}

/* Hands on to the caller's diag what a call made with a diag of its own
   left there (diag may be NULL). */
static bt_status
pass_on(bt_diag *diag, const bt_diag *why, bt_status st)
{
    if (diag != NULL)
        *diag = *why;
    return st;
}

const char *
bt_analysis_explanation(const bt_analysis *a)
{
    return a->explanation;
}

int
bt_analysis_moves_complete(const bt_analysis *a)
{
    return !a->moves_incomplete;
}

long
bt_analysis_remoteness(const bt_analysis *a)
{
    return a->remoteness;
}

bt_status
bt_analysis_remoteness_mpz(mpz_t rop, const bt_analysis *a)
{
    if (!a->has_rem)
        return BT_EUNDEF;
    mpz_set(rop, a->rem);
    return BT_OK;
}

const char *
bt_analysis_remoteness_reason(const bt_analysis *a)
{
    return a->rem_reason;
}

/* ------------------------------------------------------- normal play */

typedef struct collect {
    bt_analysis *a;
    size_t comp;
} collect;

static bt_status
on_winning(void *ud, const mpz_t *to, size_t nto)
{
    collect *c = ud;
    return bt__move_push(&c->a->moves, &c->a->nmoves, &c->a->cap, c->comp,
                         to, nto);
}

/*
 * One component whose Grundy value is out of reach (a Wythoff pair of
 * 10^6 digits): it is P exactly when no move leads to a P-position, and
 * the moves to value 0 are exactly the moves to P-positions, which the
 * ruleset gives by its closed form at any size.
 */
static bt_status
analyze_single(bt_analysis *a, const bt_position *p, const bt_limits *lim,
               bt_diag *diag)
{
    bt_game *g = bt_position_game(p, 0);
    collect c;
    bt_status st;
    bt_diag why;
    mpz_t zero;
    c.a = a;
    c.comp = 0;
    memset(&why, 0, sizeof why);
    mpz_init(zero);
    st = bt__rs_moves_to(g, bt_position_nums(p, 0), bt_position_count(p, 0),
                         zero, on_winning, &c, lim, &why);
    mpz_clear(zero);
    if (st == BT_ELIMIT && a->nmoves > 0) {
        /* more winning moves than a limit lets list: the outcome
           stands (one was found), the list says it is incomplete */
        st = moves_stopped(a, &why, st,
                           "the winning moves listed are those found "
                           "before the limit",
                           diag);
    } else if (st != BT_OK) {
        return pass_on(diag, &why, st);
    }
    if (st != BT_OK)
        return st;
    a->outcome = a->nmoves > 0 ? BT_N : BT_P;
    return BT_OK;
}

/*
 * The caches of the games of one analysis.  Each distinct heap game of a
 * sum keeps its own Grundy sequence (a few hundred kilobytes to megabytes
 * each, held after the computation that made it, which charged only
 * itself): a sum of a thousand distinct codes held 5.5 GB.  So the
 * analysis charges every distinct game's cache to one budget of its own
 * (lim->max_memory), by the growth of each after each component: a set of
 * the games seen, by address, with what was charged for each.
 */
typedef struct held_game {
    const bt_game *g; /* NULL: empty */
    size_t charged;
} held_game;

typedef struct held {
    held_game *slots;
    size_t cap, used;
    bt__budget budget;
} held;

static held_game *
held_slot(held *h, const bt_game *g)
{
    size_t i = ((uintptr_t)g >> 4) * 0x9E3779B97F4A7C15u & (h->cap - 1);
    while (h->slots[i].g != NULL && h->slots[i].g != g)
        i = (i + 1) & (h->cap - 1);
    return &h->slots[i];
}

/* Charges what g's cache grew by since it was last charged. */
static bt_status
held_charge(held *h, const bt_game *g, bt_diag *diag)
{
    size_t bytes = bt__heap_cache_bytes(g);
    held_game *e;
    bt_status st;
    if (bytes == 0)
        return BT_OK;
    if (2 * (h->used + 1) > h->cap) {
        size_t old = h->cap, cap = old ? 2 * old : 16, i;
        held_game *was = h->slots;
        if ((st = bt__budget_charge(&h->budget, cap * sizeof *was, diag)) !=
            BT_OK)
            return st;
        h->slots = calloc(cap, sizeof *was);
        if (h->slots == NULL) {
            h->slots = was;
            return bt__fail(diag, BT_ENOMEM, "out of memory");
        }
        h->cap = cap;
        for (i = 0; i < old; i++)
            if (was[i].g != NULL)
                *held_slot(h, was[i].g) = was[i];
        bt__budget_release(&h->budget, old * sizeof *was);
        free(was);
    }
    e = held_slot(h, g);
    if (e->g == NULL) {
        e->g = g;
        h->used++;
    }
    if (bytes > e->charged) {
        st = bt__budget_charge(&h->budget, bytes - e->charged, diag);
        if (st != BT_OK)
            return bt__fail(diag, st,
                            "the Grundy sequences of the sum's %zu distinct "
                            "games need more than %zu bytes of memory (the "
                            "max_memory limit)",
                            h->used, h->budget.max);
        e->charged = bytes;
    }
    return BT_OK;
}

static bt_status normal_moves(bt_analysis *a, const bt_position *p,
                              unsigned long *work, const bt_limits *lim,
                              bt_diag *diag);

static bt_status
analyze_normal(bt_analysis *a, const bt_position *p, unsigned flags,
               const bt_limits *lim, bt_diag *diag)
{
    size_t n = bt_position_size(p), i;
    unsigned long work = 0;
    bt_status st;
    held h;

    a->comp_grundy = malloc((n ? n : 1) * sizeof *a->comp_grundy);
    if (a->comp_grundy == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    memset(&h, 0, sizeof h);
    bt__budget_init(&h.budget, lim);
    for (i = 0; i < n; i++) {
        bt_game *g = bt_position_game(p, i);
        mpz_init(a->comp_grundy[i]);
        a->ncomp = i + 1;
        st = bt__rs_grundy(g, a->comp_grundy[i], bt_position_nums(p, i),
                           bt_position_count(p, i),
                              lim, diag);
        if (st == BT_ERANGE && n == 1) {
            free(h.slots);
            return analyze_single(a, p, lim, diag);
        }
        if (st == BT_OK)
            st = held_charge(&h, g, diag);
        if (st != BT_OK) {
            free(h.slots);
            return st;
        }
        mpz_xor(a->grundy, a->grundy, a->comp_grundy[i]);
        if (bt__tick(&work, a->comp_grundy[i]) &&
            (st = bt__poll(lim)) != BT_OK) {
            free(h.slots);
            return bt__fail(diag, st, "the time budget ran out");
        }
    }
    free(h.slots);
    a->has_grundy = 1;
    a->outcome = mpz_sgn(a->grundy) ? BT_N : BT_P;
    if (a->outcome == BT_P || (flags & BT_NO_MOVES))
        return BT_OK;
    return normal_moves(a, p, &work, lim, diag);
}

/* The winning moves of an N-position of normal play whose values are
   known (a->comp_grundy, a->grundy): for each component of value g, its
   moves to value g xor X; *work counts the steps between polls. */
static bt_status
normal_moves(bt_analysis *a, const bt_position *p, unsigned long *work,
             const bt_limits *lim, bt_diag *diag)
{
    size_t n = bt_position_size(p), i;
    bt_status st;
    mpz_t t;

    mpz_init(t);
    for (i = 0; i < n; i++) {
        bt_game *g = bt_position_game(p, i);
        collect c;
        c.a = a;
        c.comp = i;
        bt_diag why;
        memset(&why, 0, sizeof why);
        if (bt__tick(work, a->comp_grundy[i]) &&
            (st = bt__poll(lim)) != BT_OK) {
            mpz_clear(t);
            return bt__fail(diag, st, "the time budget ran out");
        }
        mpz_xor(t, a->comp_grundy[i], a->grundy);
        st = bt__rs_moves_to(g, bt_position_nums(p, i),
                             bt_position_count(p, i), t, on_winning, &c, lim,
                             &why);
        if (st == BT_ELIMIT) {
            /* a huge heap whose moves to value t are too many to list
               (10^1000 counters of Kayles): the outcome and the values
               stand; the list says it is incomplete, and gives those of
               the moves of a bounded window (engines/window.c) */
            st = moves_stopped(
                a, &why, st,
                "the winning moves listed for that component are those of "
                "a bounded window of its moves (those that take few "
                "counters, and the splits with a small part), the others "
                "are left out",
                diag);
            if (st != BT_OK) {
                mpz_clear(t);
                return st;
            }
            st = bt__window_moves_to(g, bt_position_nums(p, i),
                                     bt_position_count(p, i), t, on_winning,
                                     &c, lim);
            if (st == BT_ENOMEM) {
                mpz_clear(t);
                return bt__fail(diag, st, "out of memory");
            }
            continue;
        }
        if (st != BT_OK) {
            mpz_clear(t);
            return pass_on(diag, &why, st);
        }
    }
    mpz_clear(t);
    return BT_OK;
}

/* ------------------------------------------------------- misère play */

static bt_status
on_misere_move(void *ud, size_t comp, const mpz_t *to, size_t nto)
{
    bt_analysis *a = ud;
    return bt__move_push(&a->moves, &a->nmoves, &a->cap, comp, to, nto);
}

typedef struct root {
    bt_analysis *a;
    bt__search *memo;
    const bt_position *p;
    size_t comp;
    const bt_limits *lim;
    bt_diag *diag;
} root;

static bt_status
on_root_option(void *ud, const mpz_t *to, size_t nto)
{
    root *r = ud;
    bt_position *q;
    bt_outcome o;
    bt_status st = bt_position_copy(&q, r->p);
    if (st != BT_OK)
        return bt__fail(r->diag, st, "out of memory");
    st = bt_position_replace(q, r->comp, bt_position_game(r->p, r->comp), to,
                             nto);
    if (st == BT_OK)
        st = bt__search_outcome(r->memo, &o, q, 1, r->lim, r->diag);
    bt_position_free(q);
    if (st == BT_OK && o == BT_P)
        st = bt__move_push(&r->a->moves, &r->a->nmoves, &r->a->cap, r->comp,
                           to, nto);
    return st;
}

static bt_status
analyze_misere_search(bt_analysis *a, const bt_position *p,
                      const bt_limits *lim, bt_diag *diag)
{
    root r;
    size_t i;
    int any = 0, over_memory;
    bt_status st = bt__search_new(&r.memo);
    if (st != BT_OK)
        return bt__fail(diag, st, "out of memory");
    r.a = a;
    r.p = p;
    r.lim = lim;
    r.diag = diag;
    for (i = 0; i < bt_position_size(p) && st == BT_OK; i++) {
        bt_game *g = bt_position_game(p, i);
        r.comp = i;
        st = bt__rs_options(g, bt_position_nums(p, i), bt_position_count(p, i), on_root_option, &r,
                               lim, diag);
        any = any || !bt__component_is_terminal(p, i, lim);
    }
    a->searched = bt__search_used(r.memo);
    over_memory = bt__search_over_memory(r.memo);
    bt__search_free(r.memo);
    if (st != BT_OK) {
        if (st == BT_ELIMIT && over_memory)
            return bt__fail(diag, st,
                            "too large for exact misère analysis: the "
                            "search needs more than %zu bytes of memory "
                            "(the max_memory limit)",
                            lim->max_memory);
        if (st == BT_ELIMIT)
            return bt__fail(diag, st,
                            "too large for exact misère analysis: the "
                            "search passed %zu positions (the max_search "
                            "limit)",
                            lim->max_search);
        return st;
    }
    /* with no move at all, the player to move has won: the opponent took
       the last counter */
    a->outcome = (a->nmoves > 0 || !any) ? BT_N : BT_P;
    return BT_OK;
}

static bt_status
analyze_misere(bt_analysis *a, const bt_position *p, const bt_limits *lim,
               bt_diag *diag)
{
    bt_game *g = bt_position_single_game(p);
    if (g != NULL && g->rules->misere != NULL) {
        bt_diag why;
        bt_status st;
        memset(&why, 0, sizeof why);
        st = g->rules->misere(g, p, &a->outcome, on_misere_move, a, lim,
                              &why);
        if (st == BT_ELIMIT && a->nmoves > 0) {
            /* the theorem gave the outcome, and a limit stopped the list
               of its winning moves (Moore's Nim: C(100, 34) of them for
               100 piles of 1): a winning move listed proves N; the list
               says it is incomplete, as in normal play */
            a->outcome = BT_N;
            return moves_stopped(a, &why, st,
                                 "the winning moves listed are those "
                                 "found before the limit",
                                 diag);
        }
        if (st != BT_EUNDEF)
            return pass_on(diag, &why, st);
        bt_moves_free(a->moves, a->nmoves);
        a->moves = NULL;
        a->nmoves = a->cap = 0;
    }
    {
        char *left_out = NULL, *why;
        bt_status st = bt__quotient_misere(p, &a->outcome, on_misere_move, a,
                                           &a->quotient_note, &left_out,
                                           &a->qf, lim, diag);
        if (st == BT_OK && a->qf.set) {
            bt_quotient_facts *f = &a->qpub;
            f->game = a->qf.game;
            f->upto = a->qf.upto;
            f->order = a->qf.order;
            f->p_count = a->qf.pcount;
            f->proved = a->qf.proved;
            f->period = a->qf.period;
            f->preperiod = a->qf.preperiod;
            f->loaded = a->qf.loaded;
            f->element = a->qf.word[a->qf.element];
            f->in_p = a->outcome == BT_P;
            f->p = a->qf.p;
        }
        if (st == BT_OK && left_out != NULL)
            return moves_left_out(a, left_out, diag);
        free(left_out);
        if (st != BT_EUNDEF)
            return st;
        /* the quotient did not reach the position: the search is the last
           resort, and when it fails too the message says how far the
           quotient got */
        why = a->quotient_note;
        a->quotient_note = NULL;
        st = analyze_misere_search(a, p, lim, diag);
        if (why != NULL && (st == BT_ELIMIT || st == BT_EINTR) &&
            diag != NULL) {
            /* "<the search's message>; <why>", cut to the diag's size */
            size_t k = strlen(diag->message), room = sizeof diag->message;
            size_t w = strlen(why);
            if (k + 3 < room) {
                memcpy(diag->message + k, "; ", 2);
                k += 2;
                if (w > room - 1 - k) {
                    w = room - 1 - k;
                    while (w > 0 && ((unsigned char)why[w] & 0xC0) == 0x80)
                        w--; /* not inside a UTF-8 character */
                }
                memcpy(diag->message + k, why, w);
                diag->message[k + w] = '\0';
            }
        }
        free(why);
        return st;
    }
}

/* ------------------------------------------------------- explanation */

static void
explain_sum(bt__buf *b, const bt_position *p, const bt_analysis *a)
{
    size_t n = bt_position_size(p), i, w = 1;
    if (a->misere && a->quotient_note != NULL) {
        bt__buf_puts(b, a->quotient_note);
    } else if (a->misere) {
        bt__buf_printf(b,
                       "Misère play of a sum is not decided by Grundy "
                       "values, so bouton searched the game graph itself: "
                       "%zu positions, each P exactly when none of its "
                       "moves leads to a P-position (a position with no "
                       "move is N: the opponent took the last counter).\n",
                       a->searched);
    } else {
        bt__buf_puts(b, "By the Sprague-Grundy theorem each component "
                        "counts as a Nim pile of its Grundy value G, and "
                        "the sum is a P-position exactly when the nim-sum "
                        "(binary addition without carry) of the values is "
                        "0.\n\n");
        for (i = 0; i < n; i++) {
            size_t bits = mpz_sizeinbase(a->comp_grundy[i], 2);
            if (bits > w)
                w = bits;
        }
        if (mpz_sizeinbase(a->grundy, 2) > w)
            w = mpz_sizeinbase(a->grundy, 2);
        for (i = 0; i < n; i++) {
            bt_game *g = bt_position_game(p, i);
            const mpz_t *v = bt_position_nums(p, i);
            size_t j;
            bt__buf_printf(b, "  %zu. %s", i + 1, g->spec);
            for (j = 0; j < bt_position_count(p, i); j++) {
                bt__buf_putc(b, ' ');
                bt__buf_mpz(b, v[j]);
            }
            bt__buf_puts(b, ": G = ");
            bt__buf_mpz(b, a->comp_grundy[i]);
            if (w <= 64) {
                bt__buf_puts(b, "  (binary ");
                bt__buf_mpz_bin(b, a->comp_grundy[i], w);
                bt__buf_putc(b, ')');
            }
            bt__buf_putc(b, '\n');
        }
        bt__buf_puts(b, "  nim-sum of the values: ");
        bt__buf_mpz(b, a->grundy);
        if (w <= 64) {
            bt__buf_puts(b, "  (binary ");
            bt__buf_mpz_bin(b, a->grundy, w);
            bt__buf_putc(b, ')');
        }
        bt__buf_puts(b, "\n\n");
        if (a->outcome == BT_P) {
            bt__buf_puts(b, "The nim-sum is 0: a P-position.  Every move "
                            "changes one component's value and so makes "
                            "the nim-sum non-zero; the previous player "
                            "wins.\n");
            return;
        }
        bt__buf_puts(b, "The nim-sum X is not 0: an N-position.  A winning "
                        "move changes one component of value G into one "
                        "of value G xor X, which makes the nim-sum 0.\n");
    }
    if (a->outcome == BT_P) {
        bt__buf_puts(b, "No move leads to a P-position: the previous player "
                        "wins.\n");
        return;
    }
    bt__buf_printf(b, "The winning moves (%zu):\n", a->nmoves);
    for (i = 0; i < a->nmoves; i++) {
        bt__buf_printf(b, "  - %s", a->moves[i].text);
        if (!a->misere) {
            mpz_t t;
            mpz_init(t);
            mpz_xor(t, a->comp_grundy[a->moves[i].component], a->grundy);
            bt__buf_printf(b, " (component %zu: G ",
                           a->moves[i].component + 1);
            bt__buf_mpz(b, a->comp_grundy[a->moves[i].component]);
            bt__buf_puts(b, " -> ");
            bt__buf_mpz(b, t);
            bt__buf_putc(b, ')');
            mpz_clear(t);
        }
        bt__buf_putc(b, '\n');
    }
}

/* ------------------------------------------------------- remoteness */

/*
 * The remoteness of p, analysed in a, within the budget of the optional
 * extras: Nim's closed forms from the outcome and the winning moves the
 * analysis found (remoteness.c; handed down, never analysed again), else
 * a search within the BT_REMOTENESS_* budget.  An N-position of normal
 * play analysed without its moves (BT_NO_MOVES) has them listed for the
 * closed forms, then dropped, as the caller asked.
 */
static bt_status
analysis_remoteness(bt_analysis *a, const bt_position *p, unsigned flags,
                    const bt_limits *lim, bt_diag *diag)
{
    unsigned long work = 0;
    bt_status st;
    if (!bt__position_is_all(p, BT__RS_NIM_HEAPS))
        return bt__remoteness_search(a->rem, p, a->misere, 1, lim, diag);
    if (a->misere || a->outcome == BT_P || !(flags & BT_NO_MOVES)) {
        bt__remoteness_nim(a->rem, p, a->misere, a->outcome, a->moves,
                           a->nmoves);
        return BT_OK;
    }
    st = normal_moves(a, p, &work, lim, diag);
    if (st == BT_OK)
        bt__remoteness_nim(a->rem, p, 0, a->outcome, a->moves, a->nmoves);
    bt_moves_free(a->moves, a->nmoves);
    a->moves = NULL;
    a->nmoves = a->cap = 0;
    a->moves_incomplete = 0;
    free(a->moves_note);
    a->moves_note = NULL;
    return st;
}

/* ------------------------------------------------------------ entry */

static bt_status
analyze_charged(bt_analysis **out, const bt_position *p, unsigned flags,
                const bt_limits *lim, bt_diag *diag)
{
    bt_analysis *a;
    bt_status st;
    size_t i;

    *out = NULL;
    lim = bt__limits(lim);
    a = calloc(1, sizeof *a);
    if (a == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    mpz_init(a->grundy);
    mpz_init(a->rem);
    a->misere = (flags & BT_MISERE) != 0;
    a->remoteness = -1;
    if (a->misere)
        st = analyze_misere(a, p, lim, diag);
    else
        st = analyze_normal(a, p, flags, lim, diag);
    if (st != BT_OK)
        goto fail;
    for (i = 0; i < a->nmoves; i++) {
        a->moves[i].text = bt__move_text(p, &a->moves[i]);
        if (a->moves[i].text == NULL) {
            st = bt__fail(diag, BT_ENOMEM, "out of memory");
            goto fail;
        }
    }
    if (flags & BT_REMOTENESS) {
        /* cheap, or left out with the reason: closed forms (Nim) or a
           search within the BT_REMOTENESS_* budget; a position beyond it
           has no remoteness, which is not an error of the analysis */
        bt_diag why;
        bt_status rs;
        memset(&why, 0, sizeof why);
        rs = analysis_remoteness(a, p, flags, lim, &why);
        if (rs == BT_OK) {
            a->has_rem = 1;
            if (mpz_fits_slong_p(a->rem))
                a->remoteness = mpz_get_si(a->rem);
        } else if (rs == BT_ENOMEM || bt__gmp_exceeded()) {
            /* out of memory, or its numbers passed max_memory (which
               bt_analyze then reports): that is the analysis's too */
            st = bt__fail(diag, rs, "%s", why.message);
            goto fail;
        } else {
            a->rem_reason = strdup(why.message[0] ? why.message
                                                   : bt_strerror(rs));
            if (a->rem_reason == NULL) {
                st = bt__fail(diag, BT_ENOMEM, "out of memory");
                goto fail;
            }
        }
    }
    if (flags & BT_EXPLAIN) {
        bt_game *g = bt_position_single_game(p);
        bt__buf b;
        bt__buf_init(&b);
        if (g != NULL && g->rules->explain != NULL) {
            /* the family's explanation is handed what was found */
            bt__verdict v;
            v.outcome = a->outcome;
            v.misere = a->misere;
            v.grundy = a->has_grundy ? a->grundy : NULL;
            v.comp_grundy =
                a->has_grundy ? (const mpz_t *)a->comp_grundy : NULL;
            v.moves = a->moves;
            v.nmoves = a->nmoves;
            v.moves_complete = !a->moves_incomplete;
            g->rules->explain(g, &b, p, &v);
        } else
            explain_sum(&b, p, a);
        a->explanation = bt__buf_take(&b);
        if (a->explanation == NULL) {
            st = bt__fail(diag, BT_ENOMEM, "out of memory");
            goto fail;
        }
    }
    *out = a;
    return BT_OK;
fail:
    bt_analysis_free(a);
    return st;
}

bt_status
bt_analyze(bt_analysis **out, const bt_position *p, unsigned flags,
           const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, analyze_charged(out, p, flags, lim, diag));
}

/* Remoteness: Nim's closed forms from one analysis of p (its outcome and
   winning moves), else the search within lim->max_search positions. */
static bt_status
remoteness(mpz_t rop, const bt_position *p, int misere, const bt_limits *lim,
           bt_diag *diag)
{
    bt_analysis *a;
    bt_status st;
    lim = bt__limits(lim);
    if (!bt__position_is_all(p, BT__RS_NIM_HEAPS))
        return bt__remoteness_search(rop, p, misere, 0, lim, diag);
    st = analyze_charged(&a, p, misere ? BT_MISERE : 0, lim, diag);
    if (st != BT_OK)
        return st;
    bt__remoteness_nim(rop, p, misere, a->outcome, a->moves, a->nmoves);
    bt_analysis_free(a);
    return BT_OK;
}

bt_status
bt_remoteness(mpz_t rop, const bt_position *p, int misere, const bt_limits *lim,
              bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, remoteness(rop, p, misere, lim, diag));
}
