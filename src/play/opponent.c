/*
 * opponent.c -- the computer's move: the rule, and the move it plays.
 *
 * The rule (documented for users in include/bouton/play.h, with its reasons
 * and measurements in docs/opponent.md): from an N-position the fastest
 * winning move; from a P-position, where every move loses against perfect
 * play, the longest game (every move of the opponent is a chance to err),
 * then the least share w/m of winning replies among its replies.  Ranking
 * the share first was measured and found worse (bench/README.md).
 * As the AMS column on Nim puts it, "if you are looking at a position and
 * know that you can not win, you can still exploit any mistake your
 * opponent who could win with optimal play might make."
 *
 * The player's files, by concept (opponent_impl.h is what they share):
 *
 *   opponent.c          this: the rule (N- and P-positions, Nim's closed
 *                       forms) and the move (bt_opponent_play)
 *   opponent_proxy.c    the proxies past exact analysis, misère heuristic
 *   opponent_window.c   the options within a budget: windows of huge heaps
 *   opponent_random.c   the random numbers, random starts, levels, and the
 *                       erring opponent's random move
 */
#include <stdlib.h>
#include <string.h>

#include "play/opponent_impl.h"

/* ------------------------------------------------------------ opponent */
/* Prepares the rule for p; remoteness is searched for (p not Nim) only
   when the rule needs it (opp_need_remoteness). */
static void
opp_init(opp *o, const bt_position *p, int misere, const bt_limits *lim,
         bt_diag *diag)
{
    memset(o, 0, sizeof *o);
    o->p = p;
    o->misere = misere;
    o->flags = misere ? BT_MISERE : 0;
    o->lim = lim;
    o->diag = diag;
    o->nim = all_nim_heaps(p);
    o->rem_known = o->nim;
    mpz_init(o->total);
    if (o->nim) {
        size_t i;
        nim_total(o->total, p);
        for (i = 0; i < bt_position_size(p); i++)
            o->big += mpz_cmp_ui(bt_position_nums(p, i)[0], 1) > 0;
    }
}

/* Searches the game graph of a position that is not Nim, within the
   opponent's budget; remoteness is known when the search succeeds. */
static bt_status
opp_need_remoteness(opp *o)
{
    size_t budget;
    bt_outcome out;
    long rem;
    bt_status st;
    bt_diag quiet;

    if (o->nim || o->solver != NULL)
        return BT_OK;
    budget = o->lim->max_search < BT_OPPONENT_SEARCH ? o->lim->max_search
                                                     : BT_OPPONENT_SEARCH;
    st = bt_solver_new(&o->solver, o->misere, budget);
    if (st != BT_OK)
        return bt__fail(o->diag, st, "out of memory");
    bt__solver_bound(o->solver, BT_OPPONENT_MOVES, BT_REMOTENESS_BYTES,
                     bt__clock_ms() + BT_OPPONENT_MILLIS);
    memset(&quiet, 0, sizeof quiet);
    st = bt_solver_solve(o->solver, &out, &rem, o->p, o->lim, &quiet);
    if (st == BT_OK) {
        o->rem_known = 1;
    } else if (st == BT_ELIMIT) {
        /* too big to search: the rule goes on without remoteness; the
           solver stays, empty of use, so that the search is not retried */
        st = BT_OK;
    } else if (o->diag != NULL) {
        *o->diag = quiet;
    }
    return st;
}

static void
opp_fini(opp *o)
{
    bt_solver_free(o->solver);
    mpz_clear(o->total);
}

/* The remoteness of q, a position reachable from o->p. */
static bt_status
opp_remoteness(opp *o, mpz_t rop, const bt_position *q)
{
    bt_outcome out;
    long rem;
    bt_status st;
    if (o->nim)
        return bt_remoteness(rop, q, o->misere, o->lim, o->diag);
    if (o->solver == NULL)
        return bt__fail(o->diag, BT_EUNDEF, "no remoteness search");
    st = bt_solver_solve(o->solver, &out, &rem, q, o->lim, o->diag);
    if (st == BT_OK)
        mpz_set_si(rop, rem);
    return st;
}

/* The sum of to[] minus the numbers of the component it replaces: how the
   total of the position's numbers changes. */
void
bt__opp_total_delta(mpz_t d, const bt_position *p, const bt_move *m)
{
    const mpz_t *v = bt_position_nums(p, m->component);
    size_t j;
    size_t k;
    mpz_set_ui(d, 0);
    for (k = 0; k < m->nto; k++)
        mpz_add(d, d, m->to[k]);
    for (j = 0; j < bt_position_count(p, m->component); j++)
        mpz_sub(d, d, v[j]);
}

/* The tie order after the total: lower component, then smaller `to`. */
int
bt__opp_cmp_place(const bt_move *a, const bt_move *b)
{
    size_t k;
    if (a->component != b->component)
        return a->component < b->component ? -1 : 1;
    for (k = 0; k < a->nto && k < b->nto; k++) {
        int c = mpz_cmp(a->to[k], b->to[k]);
        if (c != 0)
            return c < 0 ? -1 : 1;
    }
    if (a->nto != b->nto)
        return a->nto < b->nto ? -1 : 1;
    return 0;
}
void
bt__opp_scored_init(scored *s)
{
    s->m = NULL;
    mpz_init(s->delta);
    mpz_init(s->rem);
    mpz_init(s->w);
    mpz_init(s->all);
}

void
bt__opp_scored_clear(scored *s)
{
    mpz_clear(s->delta);
    mpz_clear(s->rem);
    mpz_clear(s->w);
    mpz_clear(s->all);
}

/* N-position order: least remoteness, then smaller total, then place.
   Returns < 0 when a is preferred. */
static int
cmp_win(const scored *a, const scored *b, int rem_known)
{
    int c;
    if (rem_known && (c = mpz_cmp(a->rem, b->rem)) != 0)
        return c;
    if ((c = mpz_cmp(a->delta, b->delta)) != 0)
        return c;
    return bt__opp_cmp_place(a->m, b->m);
}

/* P-position order: greatest remoteness (when known), then least w/all,
   then larger total, then place. */
int
bt__opp_cmp_delay(const scored *a, const scored *b, int rem_known)
{
    int c;
    mpz_t x, y;
    if (rem_known && (c = mpz_cmp(b->rem, a->rem)) != 0)
        return c;
    mpz_init(x);
    mpz_init(y);
    mpz_mul(x, a->w, b->all);
    mpz_mul(y, b->w, a->all);
    c = mpz_cmp(x, y);
    mpz_clear(x);
    mpz_clear(y);
    if (c != 0)
        return c;
    if ((c = mpz_cmp(b->delta, a->delta)) != 0)
        return c;
    return bt__opp_cmp_place(a->m, b->m);
}

/* The position m leaves. */
bt_status
bt__opp_child_of(bt_position **out, const bt_position *p, const bt_move *m,
                 bt_diag *diag)
{
    bt_status st = bt_position_copy(out, p);
    if (st == BT_OK && (st = bt_position_apply(*out, m)) != BT_OK) {
        bt_position_free(*out);
        *out = NULL;
    }
    return st == BT_OK ? st : bt__fail(diag, st, "out of memory");
}

/* The remoteness of the P-position a winning move m of a Nim N-position
   leaves, in constant time (Theorems 1 and 2 of docs/opponent.md): T(Q)
   counters, less one in misère play when a pile above 1 is left. */
static void
nim_win_remoteness(mpz_t rop, const opp *o, const bt_move *m)
{
    const mpz_t *v = bt_position_nums(o->p, m->component);
    size_t big = o->big;
    mpz_sub(rop, o->total, v[0]);
    if (m->nto == 1) {
        mpz_add(rop, rop, m->to[0]);
        big += mpz_cmp_ui(m->to[0], 1) > 0;
    }
    big -= mpz_cmp_ui(v[0], 1) > 0;
    if (o->misere && big > 0)
        mpz_sub_ui(rop, rop, 1);
}

/* N-position: the fastest winning move among the n of `moves` (every
   winning move, or those a window found). */
bt_status
bt__opp_choose_win(bt_move **out, opp *o, const bt_move *moves, size_t n)
{
    size_t i, best = 0;
    scored cur, top;
    bt_status st = BT_OK;

    if (n == 0)
        return bt__fail(o->diag, BT_EUNDEF,
                        "the analysis gave an N-position no winning move "
                        "(a bug in the game's rules)");
    if (n > 1 && (st = opp_need_remoteness(o)) != BT_OK)
        return st;
    bt__opp_scored_init(&cur);
    bt__opp_scored_init(&top);
    for (i = 0; i < n; i++) {
        const bt_move *m = &moves[i];
        cur.m = m;
        bt__opp_total_delta(cur.delta, o->p, m);
        if (o->nim && n > 1) {
            nim_win_remoteness(cur.rem, o, m);
        } else if (o->rem_known && n > 1) {
            bt_position *q;
            st = bt__opp_child_of(&q, o->p, m, o->diag);
            if (st == BT_OK) {
                st = opp_remoteness(o, cur.rem, q);
                bt_position_free(q);
            }
            if (st != BT_OK)
                break;
        }
        if (i == 0 || cmp_win(&cur, &top, o->rem_known) < 0) {
            scored t = top;
            top = cur;
            cur = t;
            best = i;
        }
    }
    if (st == BT_OK) {
        const bt_move *m = &moves[best];
        st = bt__move_new(out, o->p, m->component, (const mpz_t *)m->to, m->nto,
                          o->diag);
    }
    bt__opp_scored_clear(&cur);
    bt__opp_scored_clear(&top);
    return st;
}

/* Counts the options of every component of q (stops past `max`). */
typedef struct counter {
    size_t n, max;
} counter;

static bt_status
count_one(void *ud, const mpz_t *to, size_t nto)
{
    counter *c = ud;
    (void)to;
    (void)nto;
    return ++c->n > c->max ? BT_ELIMIT : BT_OK;
}

bt_status
bt__opp_count_moves(mpz_t rop, const bt_position *q, const bt_limits *lim,
                    bt_diag *diag)
{
    counter c;
    size_t i;
    c.n = 0;
    c.max = lim->max_search;
    for (i = 0; i < bt_position_size(q); i++) {
        bt_game *g = bt_position_game(q, i);
        bt_status st = bt__rs_options(g, bt_position_nums(q, i), bt_position_count(q, i), count_one,
                                         &c, lim, diag);
        if (st == BT_ELIMIT)
            return bt__fail(diag, st,
                            "more than %zu replies to count (the "
                            "max_search limit)",
                            lim->max_search);
        if (st != BT_OK)
            return st;
    }
    mpz_set_ui(rop, (unsigned long)c.n);
    return BT_OK;
}

/* Starts the score of move m of a P-position: the move, its delta, and w
   from the analysis of *q, the position m leaves (the caller frees it). */
static bt_status
score_child(scored *s, opp *o, const bt_move *m, bt_position **q)
{
    bt_analysis *a;
    bt_status st;

    s->m = m;
    bt__opp_total_delta(s->delta, o->p, m);
    st = bt__opp_child_of(q, o->p, m, o->diag);
    if (st != BT_OK)
        return st;
    st = bt_analyze(&a, *q, o->flags, o->lim, o->diag);
    if (st != BT_OK) {
        bt_position_free(*q);
        return st;
    }
    mpz_set_ui(s->w, (unsigned long)bt_analysis_move_count(a));
    bt_analysis_free(a);
    return BT_OK;
}

/* Scores move m of a P-position: w, all, remoteness, delta. */
static bt_status
score_delay(scored *s, opp *o, const bt_move *m)
{
    bt_position *q;
    bt_status st = score_child(s, o, m, &q);

    if (st != BT_OK)
        return st;
    st = bt__opp_count_moves(s->all, q, o->lim, o->diag);
    if (st == BT_OK && mpz_sgn(s->all) == 0) {
        /* no reply: the game is over and (misère) we lost */
        mpz_set_ui(s->w, 1);
        mpz_set_ui(s->all, 1);
    }
    if (st == BT_OK && o->rem_known)
        st = opp_remoteness(o, s->rem, q);
    bt_position_free(q);
    return st;
}

/* P-position, any game: every legal move scored. */
static bt_status
choose_delay(bt_move **out, opp *o)
{
    bt_move *moves;
    size_t n, i, best = 0;
    scored cur, top;
    bt_status st;

    st = bt_position_moves(&moves, &n, o->p, o->lim, o->diag);
    if (st == BT_OK && n > 1)
        st = opp_need_remoteness(o);
    if (st != BT_OK) {
        bt_moves_free(moves, n);
        return st;
    }
    bt__opp_scored_init(&cur);
    bt__opp_scored_init(&top);
    for (i = 0; i < n && st == BT_OK; i++) {
        st = score_delay(&cur, o, &moves[i]);
        if (st == BT_OK &&
            (i == 0 || bt__opp_cmp_delay(&cur, &top, o->rem_known) < 0)) {
            scored t = top;
            top = cur;
            cur = t;
            best = i;
        }
    }
    if (st == BT_OK)
        st = bt__move_new(out, o->p, moves[best].component,
                          (const mpz_t *)moves[best].to, moves[best].nto,
                          o->diag);
    bt__opp_scored_clear(&cur);
    bt__opp_scored_clear(&top);
    bt_moves_free(moves, n);
    return st;
}

/* ------------------------------------------- the P-position rule for Nim */

/*
 * Nim piles can be far too large to list their moves, but the rule can be
 * computed from the binary digits (proofs in docs/opponent.md).  Let the
 * P-position have piles a_i, T counters, and write z(a) for the number of
 * trailing zero bits of a.
 *
 * Normal play.  The result of any move has remoteness at most T - 1, and
 * exactly T - 1 when the move takes one counter from a pile a_i such that
 * every pile with a 1 in column z = z(a_i) has z(a) = z: then (Bouton,
 * Theorem II) the opponent's winning replies are those piles, each taking
 * exactly one counter, and the game goes on one counter at a time.  Such a
 * pile exists (one with the least z).  Its result has w = c_z - 1 winning
 * replies among m = T - 1, with c_z the number of piles with a 1 in column
 * z; so the rule takes one counter from the eligible pile of least c_z (the
 * first of them).
 *
 * Misère play with two piles or more above 1 (the P-positions with one
 * above 1 do not exist; with none, every move takes a 1 and all score the
 * same).  A result that keeps two piles above 1 has the normal remoteness
 * less one and the same winning replies; so the best of those are the
 * normal candidates that keep two piles above 1, with remoteness T - 2.
 * A result with one pile above 1 can only come from a position with two,
 * by reducing one of them to 0 or 1: those few moves are scored exactly.
 */

/* Too much work for the exact Nim rule (more than lim->max_search steps):
   one counter from the first pile of least z, one of the longest games. */
static bt_status
nim_fallback(bt_move **out, opp *o)
{
    size_t i, best = 0, bestz = (size_t)-1;
    mpz_t b;
    bt_status st;
    for (i = 0; i < bt_position_size(o->p); i++) {
        const mpz_t *v = bt_position_nums(o->p, i);
        size_t z;
        if (mpz_sgn(v[0]) == 0)
            continue;
        z = mpz_scan1(v[0], 0);
        if (z < bestz) {
            bestz = z;
            best = i;
        }
    }
    mpz_init(b);
    mpz_sub_ui(b, bt_position_nums(o->p, best)[0], 1);
    st = bt__move_new(out, o->p, best, (const mpz_t *)&b, 1, o->diag);
    mpz_clear(b);
    return st;
}

/* Scores the move (comp -> to) of a Nim P-position exactly, from the
   result's analysis: a misère special case. */
static bt_status
score_exact(scored *s, bt_move *m, opp *o)
{
    bt_position *q;
    size_t i;
    bt_status st = score_child(s, o, m, &q);
    if (st != BT_OK)
        return st;
    mpz_set_ui(s->all, 0);
    for (i = 0; i < bt_position_size(q); i++)
        mpz_add(s->all, s->all, bt_position_nums(q, i)[0]);
    if (mpz_sgn(s->all) == 0) {
        mpz_set_ui(s->w, 1);
        mpz_set_ui(s->all, 1);
    }
    st = bt_remoteness(s->rem, q, o->misere, o->lim, o->diag);
    bt_position_free(q);
    return st;
}

static bt_status
nim_delay(bt_move **out, opp *o)
{
    const bt_position *p = o->p;
    size_t n = bt_position_size(p), i, j, big = 0, nz = 0, work = 0;
    size_t *zs = NULL, *cz = NULL, *ez = NULL, *pz = NULL;
    bt_move *cands = NULL;
    size_t ncand = 0, capcand = 0, best = 0;
    scored cur, top;
    mpz_t t, b;
    bt_status st = BT_OK;

    for (i = 0; i < n; i++)
        if (mpz_cmp_ui(bt_position_nums(p, i)[0], 1) > 0)
            big++;
    if (o->misere && big == 0) {
        /* piles of one: every move takes a 1 and scores the same */
        for (i = 0; i < n; i++)
            if (mpz_sgn(bt_position_nums(p, i)[0]) > 0)
                break;
        mpz_init(b);
        st = bt__move_new(out, p, i, (const mpz_t *)&b, 1, o->diag);
        mpz_clear(b);
        return st;
    }
    mpz_init(t);
    mpz_init(b);
    bt__opp_scored_init(&cur);
    bt__opp_scored_init(&top);
    nim_total(t, p);
    /* the distinct z of the piles, and for each c_z and e_z (the piles
       with a 1 in column z, and those with z trailing zeros) */
    zs = malloc((n ? n : 1) * sizeof *zs);
    pz = malloc((n ? n : 1) * sizeof *pz);
    cz = calloc(n ? n : 1, sizeof *cz);
    ez = calloc(n ? n : 1, sizeof *ez);
    if (zs == NULL || pz == NULL || cz == NULL || ez == NULL) {
        st = bt__fail(o->diag, BT_ENOMEM, "out of memory");
        goto cleanup;
    }
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        size_t z;
        pz[i] = (size_t)-1;
        if (mpz_sgn(v[0]) == 0)
            continue;
        z = mpz_scan1(v[0], 0);
        for (j = 0; j < nz && zs[j] != z; j++)
            if (++work > o->lim->max_search)
                break;
        if (work > o->lim->max_search)
            break;
        if (j == nz)
            zs[nz++] = z;
        pz[i] = j;
        ez[j]++;
    }
    for (j = 0; j < nz && work <= o->lim->max_search; j++)
        for (i = 0; i < n; i++) {
            cz[j] += (size_t)mpz_tstbit(bt_position_nums(p, i)[0], zs[j]);
            if (++work > o->lim->max_search)
                break;
        }
    if (work > o->lim->max_search) {
        st = nim_fallback(out, o);
        goto cleanup;
    }
    /* the candidates */
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        if (pz[i] == (size_t)-1 || cz[pz[i]] != ez[pz[i]])
            continue;
        if (o->misere && big == 2 && mpz_cmp_ui(v[0], 2) == 0)
            continue; /* leaves one pile above 1: scored exactly below */
        mpz_sub_ui(b, v[0], 1);
        st = bt__move_push(&cands, &ncand, &capcand, i, (const mpz_t *)&b, 1);
        if (st != BT_OK) {
            st = bt__fail(o->diag, st, "out of memory");
            goto cleanup;
        }
        cur.m = &cands[ncand - 1];
        top.m = &cands[best]; /* the array may have moved */
        mpz_sub_ui(cur.rem, t, o->misere ? 2 : 1);
        mpz_set_ui(cur.w, (unsigned long)(cz[pz[i]] - 1));
        mpz_sub_ui(cur.all, t, 1);
        mpz_set_si(cur.delta, -1);
        if (ncand == 1 || bt__opp_cmp_delay(&cur, &top, 1) < 0) {
            scored x = top;
            top = cur;
            cur = x;
            best = ncand - 1;
        }
    }
    if (o->misere && big == 2) {
        for (i = 0; i < n; i++) {
            const mpz_t *v = bt_position_nums(p, i);
            unsigned long k;
            if (mpz_cmp_ui(v[0], 1) <= 0)
                continue;
            for (k = 0; k <= 1; k++) {
                mpz_set_ui(b, k);
                st = bt__move_push(&cands, &ncand, &capcand, i,
                                   (const mpz_t *)&b, 1);
                if (st != BT_OK) {
                    st = bt__fail(o->diag, st, "out of memory");
                    goto cleanup;
                }
                st = score_exact(&cur, &cands[ncand - 1], o);
                if (st != BT_OK)
                    goto cleanup;
                top.m = &cands[best];
                if (ncand == 1 || bt__opp_cmp_delay(&cur, &top, 1) < 0) {
                    scored x = top;
                    top = cur;
                    cur = x;
                    best = ncand - 1;
                }
            }
        }
    }
    if (ncand == 0) /* cannot happen: a pile of least z is eligible */
        st = nim_fallback(out, o);
    else
        st = bt__move_new(out, p, cands[best].component,
                          (const mpz_t *)cands[best].to, 1, o->diag);
cleanup:
    free(zs);
    free(pz);
    free(cz);
    free(ez);
    bt_moves_free(cands, ncand);
    bt__opp_scored_clear(&cur);
    bt__opp_scored_clear(&top);
    mpz_clear(t);
    mpz_clear(b);
    return st;
}

/* ------------------------------------------------------------- the move */

const char *
bt_rule_name(bt_rule r)
{
    switch (r) {
    case BT_RULE_RANDOM:
        return "random";
    case BT_RULE_REMOTENESS:
        return "remoteness";
    case BT_RULE_PROXY:
        return "proxy";
    case BT_RULE_HEURISTIC:
    default:
        return "heuristic";
    }
}

/*
 * Normal-play Nim, in one pass over the piles (linear at any number of
 * piles: no list of every winning move is built).  X is the nim-sum; a
 * winning move takes a pile v with v xor X < v to v xor X (Bouton,
 * Theorem II), and leaves a P-position of remoteness T - (v - (v xor X))
 * (Theorem 1 of docs/opponent.md): the fastest win takes the most
 * counters, the first such pile on ties (the tie order).  A P-position:
 * nim_delay.
 */
static bt_status
nim_normal(bt_move **out, bt_play_info *info, const bt_position *p,
           const bt_limits *lim, bt_diag *diag)
{
    size_t i, n = bt_position_size(p), best = (size_t)-1;
    mpz_t x, to, take, most, bestto;
    bt_status st;
    mpz_init(x);
    mpz_init(to);
    mpz_init(take);
    mpz_init(most);
    mpz_init(bestto);
    for (i = 0; i < n; i++)
        mpz_xor(x, x, bt_position_nums(p, i)[0]);
    if (mpz_sgn(x) == 0) {
        opp o;
        info->outcome = BT_P;
        opp_init(&o, p, 0, lim, diag);
        st = nim_delay(out, &o);
        opp_fini(&o);
    } else {
        size_t top = mpz_sizeinbase(x, 2) - 1;
        info->outcome = BT_N;
        for (i = 0; i < n; i++) {
            const mpz_t *v = bt_position_nums(p, i);
            if (!mpz_tstbit(v[0], top))
                continue;
            mpz_xor(to, v[0], x);
            mpz_sub(take, v[0], to);
            if (best == (size_t)-1 || mpz_cmp(take, most) > 0) {
                mpz_set(most, take);
                mpz_set(bestto, to);
                best = i;
            }
        }
        st = bt__move_new(out, p, best, (const mpz_t *)&bestto, 1, diag);
    }
    mpz_clear(x);
    mpz_clear(to);
    mpz_clear(take);
    mpz_clear(most);
    mpz_clear(bestto);
    return st;
}

/* The opponent's own deadline on top of the caller's interrupt: the
   misère search stops at BT_OPPONENT_MISERE_MILLIS. */
typedef struct deadline {
    const bt_limits *outer;
    uint64_t at;
    int fired;
} deadline;

static int
deadline_hit(void *ud)
{
    deadline *dl = ud;
    if (dl->outer->interrupt != NULL &&
        dl->outer->interrupt(dl->outer->interrupt_ud))
        return 1;
    if (bt__clock_ms() > dl->at) {
        dl->fired = 1;
        return 1;
    }
    return 0;
}

static bt_status
opponent_play(bt_move **out, bt_play_info *info, const bt_position *p,
              int misere, bt_level level, uint64_t *rng,
              const bt_limits *lim, bt_diag *diag)
{
    bt_analysis *a = NULL;
    bt_status st;
    bt_play_info dummy;
    opp o;

    *out = NULL;
    if (info == NULL)
        info = &dummy;
    memset(info, 0, sizeof *info);
    lim = bt__limits(lim);
    if (bt_position_is_terminal(p))
        return bt__fail(diag, BT_EINVAL, "no move: the game is over");
    if (level != BT_LEVEL_PERFECT) {
        if (rng == NULL)
            return bt__fail(diag, BT_EINVAL,
                            "a level below perfect needs a random "
                            "generator");
        if (bt_rng_below(rng, 1000) < bt_level_error_permille(level)) {
            info->rule = BT_RULE_RANDOM;
            return bt_random_move(out, p, rng, lim, diag);
        }
    }
    if (!misere && all_nim_heaps(p)) {
        info->outcome_known = 1;
        info->remoteness_known = 1;
        info->rule = BT_RULE_REMOTENESS;
        return nim_normal(out, info, p, lim, diag);
    }
    if (misere) {
        /* the exact misère analysis, within the opponent's time */
        bt_limits ml = *lim;
        deadline dl;
        bt_diag quiet;
        dl.outer = lim;
        dl.at = bt__clock_ms() + BT_OPPONENT_MISERE_MILLIS;
        dl.fired = 0;
        ml.interrupt = deadline_hit;
        ml.interrupt_ud = &dl;
        memset(&quiet, 0, sizeof quiet);
        st = bt_analyze(&a, p, BT_MISERE, &ml, &quiet);
        if (st == BT_ELIMIT || (st == BT_EINTR && dl.fired)) {
            opp_init(&o, p, misere, lim, diag);
            info->rule = BT_RULE_HEURISTIC;
            st = bt__opp_misere_heuristic(out, &o);
            opp_fini(&o);
            return st;
        }
        if (st != BT_OK) {
            if (diag != NULL)
                *diag = quiet;
            return st;
        }
    } else {
        st = bt_analyze(&a, p, 0, lim, diag);
        if (st != BT_OK)
            return st;
    }
    info->outcome_known = 1;
    info->outcome = bt_analysis_outcome(a);
    opp_init(&o, p, misere, lim, diag);
    if (info->outcome == BT_N && bt_analysis_move_count(a) > 0) {
        st = bt__opp_choose_win(out, &o, bt_analysis_move(a, 0),
                                bt_analysis_move_count(a));
    } else if (info->outcome == BT_N) {
        /* too many moves to list: the winning moves of the windows */
        pool pl;
        bt__opp_pool_init(&pl, &o);
        st = misere ? BT_EUNDEF : bt__opp_window_wins(&o, &pl, a);
        if (st == BT_OK && pl.n == 0)
            st = bt__fail(diag, BT_ELIMIT,
                          "no winning move found among the moves the "
                          "opponent's budget lets it list");
        if (st == BT_OK)
            st = bt__opp_choose_win(out, &o, pl.m, pl.n);
        bt_moves_free(pl.m, pl.m != NULL ? pl.n : 0);
    } else if (o.nim) {
        st = nim_delay(out, &o);
    } else {
        st = opp_need_remoteness(&o);
        if (st == BT_OK && o.rem_known)
            st = choose_delay(out, &o);
        else if (st == BT_OK)
            st = bt__opp_proxy_delay(out, &o);
    }
    info->rule = o.rem_known ? BT_RULE_REMOTENESS : BT_RULE_PROXY;
    info->remoteness_known = o.rem_known;
    opp_fini(&o);
    bt_analysis_free(a);
    return st;
}

bt_status
bt_opponent_play(bt_move **out, bt_play_info *info, const bt_position *p,
                 int misere, bt_level level, uint64_t *rng,
                 const bt_limits *lim, bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag,
                    opponent_play(out, info, p, misere, level, rng, lim, diag));
}

bt_status
bt_opponent_move(bt_move **out, const bt_position *p, int misere,
                 bt_level level, uint64_t *rng, const bt_limits *lim,
                 bt_diag *diag)
{
    return bt_opponent_play(out, NULL, p, misere, level, rng, lim, diag);
}
