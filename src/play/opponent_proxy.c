/*
 * opponent_proxy.c -- the opponent past exact analysis: the winning moves
 * the windows find when the analysis listed none, the proxy of the
 * longest game when the remoteness is out of reach, and Bouton's misère
 * rule lifted to Grundy values (exact for Nim and tame games, a heuristic
 * for the others).  Calls the rule's order (opponent.c), the windows
 * (opponent_window.c) and the analysis.
 */
#include <stdlib.h>
#include <string.h>

#include "play/opponent_impl.h"

/* ------------------------------------------- the proxies */

/*
 * N-position whose analysis listed no winning move (a component had too
 * many moves to list): the winning moves the windows find, component by
 * component, the moves to g_i xor X.
 */
bt_status
bt__opp_window_wins(opp *o, pool *pl, const bt_analysis *a)
{
    size_t i, n = bt_position_size(o->p);
    mpz_t x, gi, t;
    bt_status st = BT_OK;
    mpz_init(x);
    mpz_init(gi);
    mpz_init(t);
    if (bt_analysis_grundy(x, a) != BT_OK)
        st = BT_EUNDEF;
    for (i = 0; i < n && st == BT_OK && pl->n == 0; i++) {
        if (bt_analysis_component_grundy(gi, a, i) != BT_OK) {
            st = BT_EUNDEF;
            break;
        }
        mpz_xor(t, gi, x);
        st = bt__opp_options_of(o, pl, i, (const mpz_t *)&t);
    }
    mpz_clear(x);
    mpz_clear(gi);
    mpz_clear(t);
    if (st == BT_EUNDEF)
        return bt__fail(o->diag, st, "no Grundy value to aim at");
    return st;
}

/*
 * P-position, remoteness unknown: the proxy of the longest game.
 *   1. the moves that leave the largest total of numbers (they take the
 *      fewest counters: the game stays long);
 *   2. among the first OPP_SCORED of them (in place order), the least
 *      share w/m of the opponent's winning replies, counted by the result's
 *      analysis (its moves_to) among all its replies, when both can be
 *      counted (else, and in misère play, this step is skipped);
 *   3. the place order.
 */
#define OPP_SCORED 16

bt_status
bt__opp_proxy_delay(bt_move **out, opp *o)
{
    pool pl;
    size_t i, n = bt_position_size(o->p), keep = 0, best = 0;
    scored cur, top;
    mpz_t d, dmax;
    bt_status st = BT_OK;
    /* in misère play the result's analysis is a search of its own: the
       share is not counted there (the proxy must stay cheap) */
    int scoring = !o->misere;

    bt__opp_pool_init(&pl, o);
    mpz_init(d);
    mpz_init(dmax);
    for (i = 0; i < n && st == BT_OK; i++)
        st = bt__opp_options_of(o, &pl, i, NULL);
    if (st == BT_OK && pl.n == 0)
        st = bt__fail(o->diag, BT_ELIMIT,
                      "no move found within the opponent's budget");
    if (st != BT_OK) {
        bt_moves_free(pl.m, pl.n);
        mpz_clear(d);
        mpz_clear(dmax);
        return st;
    }
    /* 1: the moves of the largest total first (swapped to the front),
       the first OPP_SCORED of them in place order */
    for (i = 0; i < pl.n; i++) {
        bt__opp_total_delta(d, o->p, &pl.m[i]);
        if (i == 0 || mpz_cmp(d, dmax) > 0)
            mpz_set(dmax, d);
    }
    for (i = 0; i < pl.n; i++) {
        bt__opp_total_delta(d, o->p, &pl.m[i]);
        if (mpz_cmp(d, dmax) == 0) {
            bt_move t = pl.m[keep];
            pl.m[keep] = pl.m[i];
            pl.m[i] = t;
            keep++;
        }
    }
    for (i = 0; i + 1 < keep; i++) {
        size_t j, b = i;
        for (j = i + 1; j < keep; j++)
            if (bt__opp_cmp_place(&pl.m[j], &pl.m[b]) < 0)
                b = j;
        if (b != i) {
            bt_move t = pl.m[i];
            pl.m[i] = pl.m[b];
            pl.m[b] = t;
        }
        if (i + 1 >= OPP_SCORED)
            break;
    }
    /* 2: the share of winning replies */
    bt__opp_scored_init(&cur);
    bt__opp_scored_init(&top);
    for (i = 0; i < keep && i < OPP_SCORED && scoring; i++) {
        bt_position *q;
        bt_analysis *a;
        bt_diag quiet;
        memset(&quiet, 0, sizeof quiet);
        cur.m = &pl.m[i];
        if (bt__opp_child_of(&q, o->p, cur.m, o->diag) != BT_OK)
            break;
        if (bt_analyze(&a, q, o->flags, o->lim, &quiet) == BT_OK) {
            if (!bt_analysis_moves_complete(a))
                scoring = 0;
            mpz_set_ui(cur.w, (unsigned long)bt_analysis_move_count(a));
            bt_analysis_free(a);
            if (scoring &&
                bt__opp_count_moves(cur.all, q, o->lim, &quiet) != BT_OK)
                scoring = 0;
        } else {
            scoring = 0;
        }
        bt_position_free(q);
        if (!scoring)
            break;
        if (mpz_sgn(cur.all) == 0) {
            mpz_set_ui(cur.w, 1);
            mpz_set_ui(cur.all, 1);
        }
        mpz_set_ui(cur.delta, 0);
        if (i == 0 || bt__opp_cmp_delay(&cur, &top, 0) < 0) {
            scored t = top;
            top = cur;
            cur = t;
            best = i;
        }
    }
    if (!scoring)
        best = 0; /* 3: the place order */
    st = bt__move_new(out, o->p, pl.m[best].component,
                      (const mpz_t *)pl.m[best].to, pl.m[best].nto, o->diag);
    bt__opp_scored_clear(&cur);
    bt__opp_scored_clear(&top);
    bt_moves_free(pl.m, pl.n);
    mpz_clear(d);
    mpz_clear(dmax);
    return st;
}

/*
 * Misère play beyond exact analysis: Bouton's misère rule (sec. 6) lifted
 * to the normal-play Grundy values g_j of the components -- exact for
 * Nim and for the "tame" games of Conway's genus theory (On Numbers and
 * Games, ch. 12), a heuristic for the others (Kayles is not tame), so the
 * outcome is reported unknown.  With b components of value >= 2:
 *   - b >= 2: the normal-play winning move (to nim-sum 0), or in a
 *     normal P-position the proxy of bt__opp_proxy_delay;
 *   - b == 1: that component to value 1 when the others have an even
 *     number of value-1 components, else to 0 (an odd number of ones is
 *     left);
 *   - b == 0: with an even number of ones, a value-1 component to 0; else
 *     the proxy of bt__opp_proxy_delay.
 * When the move aimed at does not exist, bt__opp_proxy_delay.
 */
bt_status
bt__opp_misere_heuristic(bt_move **out, opp *o)
{
    bt_analysis *a = NULL;
    size_t i, n = bt_position_size(o->p), big = 0, ones = 0, bigi = 0;
    size_t onei = (size_t)-1;
    mpz_t g, t;
    bt_status st;
    bt_diag quiet;
    pool pl;

    memset(&quiet, 0, sizeof quiet);
    st = bt_analyze(&a, o->p, 0, o->lim, &quiet);
    if (st == BT_EINTR || st == BT_ENOMEM) {
        if (o->diag != NULL)
            *o->diag = quiet;
        return st;
    }
    if (st != BT_OK) /* no Grundy values: any move of the proxy */
        return bt__opp_proxy_delay(out, o);
    mpz_init(g);
    mpz_init(t);
    for (i = 0; i < n; i++) {
        bt_analysis_component_grundy(g, a, i);
        if (mpz_cmp_ui(g, 1) > 0) {
            big++;
            bigi = i;
        } else if (mpz_cmp_ui(g, 1) == 0) {
            ones++;
            onei = i;
        }
    }
    bt__opp_pool_init(&pl, o);
    st = BT_OK;
    if (big >= 2 && bt_analysis_move_count(a) > 0) {
        st = bt__opp_choose_win(out, o, bt_analysis_move(a, 0),
                                bt_analysis_move_count(a));
        pl.n = 1; /* done */
    } else if (big == 1) {
        mpz_set_ui(t, ones % 2 == 0 ? 1 : 0);
        st = bt__opp_options_of(o, &pl, bigi, (const mpz_t *)&t);
    } else if (big == 0 && ones % 2 == 0 && onei != (size_t)-1) {
        mpz_set_ui(t, 0);
        st = bt__opp_options_of(o, &pl, onei, (const mpz_t *)&t);
    }
    if (st == BT_OK && pl.m != NULL && pl.n > 0) {
        /* of the moves aimed at, the one that leaves the fewest
           counters (the place order after) */
        size_t best = 0;
        mpz_t d, db;
        mpz_init(d);
        mpz_init(db);
        for (i = 0; i < pl.n; i++) {
            bt__opp_total_delta(d, o->p, &pl.m[i]);
            if (i == 0 || mpz_cmp(d, db) < 0 ||
                (mpz_cmp(d, db) == 0 &&
                 bt__opp_cmp_place(&pl.m[i], &pl.m[best]) < 0)) {
                mpz_set(db, d);
                best = i;
            }
        }
        st = bt__move_new(out, o->p, pl.m[best].component,
                          (const mpz_t *)pl.m[best].to, pl.m[best].nto,
                          o->diag);
        mpz_clear(d);
        mpz_clear(db);
    } else if (st == BT_OK && pl.n == 0) {
        st = bt__opp_proxy_delay(out, o);
    }
    bt_moves_free(pl.m, pl.m != NULL ? pl.n : 0);
    mpz_clear(g);
    mpz_clear(t);
    bt_analysis_free(a);
    return st;
}
