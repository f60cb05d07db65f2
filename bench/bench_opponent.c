/*
 * bench_opponent.c -- how often the computer, put in a losing position,
 * still wins against a fallible player.
 *
 * The fallible player, with probability e, plays a uniformly random legal
 * move, and otherwise a winning move (uniformly among them) when it has one
 * (a random legal move when it has none).  Every game starts from a random
 * P-position with the computer to move, so the computer wins exactly when
 * the fallible player errs at some point and the computer then keeps the
 * win.  Strategies of the computer (all play a winning move whenever they
 * have one; they differ in a P-position):
 *
 *   designed  bt_opponent_move at level perfect (docs/opponent.md): the
 *             longest game (the greatest remoteness of the result), then
 *             the least share w/m of winning replies among all replies;
 *   naive     take one counter from the largest pile (the first such);
 *   delay     only the longest game (the first such move, in the order
 *             of bt_position_moves);
 *   share     the rule first tried and rejected: the least share w/m,
 *             then the longest game.
 *
 * Naive, delay and share play the first winning move of bt_analyze in an
 * N-position.  Starts, by game:
 *
 *   nim       4 piles: three uniform on 1..15, the fourth their nim-sum
 *             (drawn again when 0);
 *   nim-misere the same starts in misère play (still P: a pile above 1);
 *   wythoff   one pair (a_k, b_k), k uniform on 1..20;
 *   kayles    three Kayles heaps uniform on 12..30, drawn again until the
 *             position is P: game graphs past the opponent's remoteness
 *             budget, so that "designed" is the proxy rule
 *             (docs/opponent.md).
 *
 * Each strategy plays the same starts with the same random choices of the
 * fallible player (one seed per game), so the differences are not luck of
 * the draw.  The figures are win rates with 95% confidence intervals
 * (normal approximation, 1.96 standard errors), and for the difference
 * designed - naive, the interval of the paired difference.
 *
 * usage: bench_opponent [GAMES [SEED [all|two [GAME]]]]
 *   GAMES games per cell of Nim (default 20000), a tenth of that for
 *   Wythoff, whose every move searches the game graph; with `all` the two
 *   brute-force
 *   strategies (delay, share) play too, which is much slower.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bouton.h>

enum { DESIGNED, NAIVE, DELAY, SHARE, NSTRAT };

static void
die(const char *what, bt_status st, const bt_diag *d)
{
    fprintf(stderr, "bench_opponent: %s: %s\n", what,
            d && d->message[0] ? d->message : bt_strerror(st));
    exit(1);
}

/* Remoteness for the brute-force strategies: one solver per convention,
   kept for the whole run (positions of different games recur). */
static bt_solver *solvers[2];

static void
remoteness(mpz_t r, const bt_position *q, int misere)
{
    bt_outcome o;
    long rem;
    bt_diag d;
    bt_status st;
    memset(&d, 0, sizeof d);
    if (bt_game_is_nim(bt_position_game(q, 0))) {
        st = bt_remoteness(r, q, misere, NULL, &d);
    } else {
        st = bt_solver_solve(solvers[misere], &o, &rem, q, NULL, &d);
        mpz_set_si(r, rem);
    }
    if (st != BT_OK)
        die("remoteness", st, &d);
}

static bt_move *
copy_move(const bt_move *m)
{
    bt_move *c = calloc(1, sizeof *c);
    size_t k;
    if (c == NULL)
        die("copy", BT_ENOMEM, NULL);
    c->component = m->component;
    c->nto = m->nto;
    c->to = m->nto ? malloc(m->nto * sizeof *c->to) : NULL;
    for (k = 0; k < m->nto; k++)
        mpz_init_set(c->to[k], m->to[k]);
    c->text = NULL;
    return c;
}

static void
apply(bt_position *p, const bt_move *m)
{
    bt_status st = bt_position_apply(p, m);
    if (st != BT_OK)
        die("apply", st, NULL);
}

/* The fallible player's move. */
static bt_move *
fallible_move(const bt_position *p, int misere, double e, uint64_t *rng)
{
    bt_analysis *a;
    bt_move *m;
    bt_diag d;
    bt_status st;
    double u = (double)(bt_rng_next(rng) >> 11) / 9007199254740992.0;
    memset(&d, 0, sizeof d);
    if (u >= e) {
        st = bt_analyze(&a, p, misere ? BT_MISERE : 0, NULL, &d);
        if (st != BT_OK)
            die("analyze", st, &d);
        if (bt_analysis_move_count(a) > 0) {
            size_t i = (size_t)bt_rng_below(rng, bt_analysis_move_count(a));
            m = copy_move(bt_analysis_move(a, i));
            bt_analysis_free(a);
            return m;
        }
        bt_analysis_free(a);
    }
    st = bt_random_move(&m, p, rng, NULL, &d);
    if (st != BT_OK)
        die("random move", st, &d);
    return m;
}

/* One number per component for Nim and heap games; the largest pile. */
static bt_move *
naive_delay(const bt_position *p)
{
    size_t i, best = 0, n = bt_position_size(p);
    unsigned j, bestj = 0;
    bt_move m;
    mpz_t to[2];
    bt_move *c;
    for (i = 0; i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        const mpz_t *b = bt_position_nums(p, best);
        unsigned ar = bt_game_arity(bt_position_game(p, i));
        for (j = 0; j < ar; j++)
            if (mpz_cmp(v[j], b[bestj]) > 0) {
                best = i;
                bestj = j;
                b = v;
            }
    }
    {
        const mpz_t *v = bt_position_nums(p, best);
        unsigned ar = bt_game_arity(bt_position_game(p, best));
        for (j = 0; j < ar; j++)
            mpz_init_set(to[j], v[j]);
        mpz_sub_ui(to[bestj], to[bestj], 1);
        m.component = best;
        m.nto = ar;
        m.to = to;
        m.text = NULL;
        c = copy_move(&m);
        for (j = 0; j < ar; j++)
            mpz_clear(to[j]);
    }
    return c;
}

/* delay / share: brute force over every move. */
static bt_move *
scored_delay(const bt_position *p, int misere, int which)
{
    bt_move *moves, *c;
    size_t n, i, best = 0;
    long best_w = 0, best_m = 1;
    mpz_t r, best_r;
    bt_diag d;
    bt_status st;
    memset(&d, 0, sizeof d);
    st = bt_position_moves(&moves, &n, p, NULL, &d);
    if (st != BT_OK)
        die("moves", st, &d);
    mpz_init(r);
    mpz_init(best_r);
    for (i = 0; i < n; i++) {
        bt_position *q;
        bt_analysis *a;
        bt_move *rep;
        size_t nrep;
        long w, m;
        int better;
        if (bt_position_copy(&q, p) != BT_OK)
            die("copy", BT_ENOMEM, NULL);
        apply(q, &moves[i]);
        remoteness(r, q, misere);
        st = bt_analyze(&a, q, misere ? BT_MISERE : 0, NULL, &d);
        if (st != BT_OK)
            die("analyze", st, &d);
        w = (long)bt_analysis_move_count(a);
        bt_analysis_free(a);
        st = bt_position_moves(&rep, &nrep, q, NULL, &d);
        if (st != BT_OK)
            die("moves", st, &d);
        bt_moves_free(rep, nrep);
        m = (long)nrep;
        if (m == 0)
            w = m = 1;
        if (which == DELAY)
            better = mpz_cmp(r, best_r) > 0;
        else
            better = w * best_m < best_w * m ||
                     (w * best_m == best_w * m && mpz_cmp(r, best_r) > 0);
        if (i == 0 || better) {
            mpz_set(best_r, r);
            best_w = w;
            best_m = m;
            best = i;
        }
        bt_position_free(q);
    }
    c = copy_move(&moves[best]);
    bt_moves_free(moves, n);
    mpz_clear(r);
    mpz_clear(best_r);
    return c;
}

static bt_move *
computer_move(const bt_position *p, int misere, int strat)
{
    bt_move *m;
    bt_analysis *a;
    bt_diag d;
    bt_status st;
    memset(&d, 0, sizeof d);
    if (strat == DESIGNED) {
        st = bt_opponent_move(&m, p, misere, BT_LEVEL_PERFECT, NULL, NULL, &d);
        if (st != BT_OK)
            die("opponent", st, &d);
        return m;
    }
    st = bt_analyze(&a, p, misere ? BT_MISERE : 0, NULL, &d);
    if (st != BT_OK)
        die("analyze", st, &d);
    if (bt_analysis_move_count(a) > 0) {
        m = copy_move(bt_analysis_move(a, 0));
        bt_analysis_free(a);
        return m;
    }
    bt_analysis_free(a);
    if (strat == NAIVE)
        return naive_delay(p);
    return scored_delay(p, misere, strat);
}

static void
free_move(bt_move *m)
{
    size_t k;
    for (k = 0; k < m->nto; k++)
        mpz_clear(m->to[k]);
    free(m->to);
    free(m->text);
    free(m);
}

/* Plays one game; 1 when the computer (to move first) wins. */
static int
play(const bt_position *start, int misere, double e, int strat,
     uint64_t game_seed)
{
    bt_position *p;
    uint64_t rng = game_seed;
    int computer = 1, won;
    if (bt_position_copy(&p, start) != BT_OK)
        die("copy", BT_ENOMEM, NULL);
    while (!bt_position_is_terminal(p)) {
        bt_move *m = computer ? computer_move(p, misere, strat)
                              : fallible_move(p, misere, e, &rng);
        apply(p, m);
        free_move(m);
        computer = !computer;
    }
    /* `computer` is now the player to move, who has no move */
    won = misere ? computer : !computer;
    bt_position_free(p);
    return won;
}

static bt_position *
random_start(const char *game, uint64_t *rng, bt_game *nim, bt_game *wyt)
{
    bt_position *p;
    char text[128];
    if (strcmp(game, "kayles") == 0) {
        for (;;) {
            bt_analysis *a;
            int isp;
            snprintf(text, sizeof text, "kayles %lu %lu %lu",
                     12 + (unsigned long)bt_rng_below(rng, 19),
                     12 + (unsigned long)bt_rng_below(rng, 19),
                     12 + (unsigned long)bt_rng_below(rng, 19));
            if (bt_position_parse(&p, text, nim, NULL, NULL) != BT_OK ||
                bt_analyze(&a, p, BT_NO_MOVES, NULL, NULL) != BT_OK)
                die("parse", BT_EPARSE, NULL);
            isp = bt_analysis_outcome(a) == BT_P;
            bt_analysis_free(a);
            if (isp)
                return p;
            bt_position_free(p);
        }
    }
    if (strcmp(game, "wythoff") == 0) {
        /* a_k = floor(k phi), b_k = a_k + k */
        unsigned long k = 1 + (unsigned long)bt_rng_below(rng, 20);
        double phi = (1 + sqrt(5.0)) / 2;
        unsigned long a = (unsigned long)floor((double)k * phi);
        snprintf(text, sizeof text, "%lu %lu", a, a + k);
        if (bt_position_parse(&p, text, wyt, NULL, NULL) != BT_OK)
            die("parse", BT_EPARSE, NULL);
        return p;
    }
    for (;;) {
        unsigned long v[3], x;
        int i;
        for (i = 0; i < 3; i++)
            v[i] = 1 + (unsigned long)bt_rng_below(rng, 15);
        x = v[0] ^ v[1] ^ v[2];
        if (x == 0)
            continue;
        snprintf(text, sizeof text, "%lu %lu %lu %lu", v[0], v[1], v[2], x);
        if (bt_position_parse(&p, text, nim, NULL, NULL) != BT_OK)
            die("parse", BT_EPARSE, NULL);
        return p;
    }
}

int
main(int argc, char **argv)
{
    static const char *games[] = {"nim", "nim-misere", "wythoff", "kayles"};
    static const double es[] = {0.1, 0.3, 0.5};
    long ngames = argc > 1 ? atol(argv[1]) : 20000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 20261122ULL;
    int nstrat = argc > 3 && strcmp(argv[3], "all") == 0 ? NSTRAT : 2;
    /* a fourth argument runs one game only (nim, nim-misere, wythoff,
       kayles) */
    const char *only = argc > 4 ? argv[4] : NULL;
    bt_game *nim, *wyt;
    size_t gi, ei;
    clock_t t0 = clock();

    if (ngames < 20) {
        fprintf(stderr, "usage: bench_opponent [GAMES] [SEED]\n");
        return 2;
    }
    if (bt_game_new(&nim, "nim", NULL) != BT_OK ||
        bt_game_new(&wyt, "wythoff", NULL) != BT_OK ||
        bt_solver_new(&solvers[0], 0, 10000000) != BT_OK ||
        bt_solver_new(&solvers[1], 1, 10000000) != BT_OK)
        die("setup", BT_ENOMEM, NULL);
    printf("seed %llu; win rate of the computer from a P-position, 95%% "
           "CI\n\n",
           (unsigned long long)seed);
    printf("| game | e | games | designed | naive | delay | share | "
           "designed - naive |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (gi = 0; gi < sizeof games / sizeof games[0]; gi++) {
        int misere = strcmp(games[gi], "nim-misere") == 0;
        long cell = strcmp(games[gi], "wythoff") == 0  ? ngames / 10
                    : strcmp(games[gi], "kayles") == 0 ? ngames / 100
                                                       : ngames;
        if (only != NULL && strcmp(only, games[gi]) != 0)
            continue;
        for (ei = 0; ei < sizeof es / sizeof es[0]; ei++) {
            long wins[NSTRAT] = {0}, g;
            double sum_d = 0, sum_d2 = 0;
            uint64_t rng = seed ^ (uint64_t)(gi * 977 + ei * 131);
            int s;
            for (g = 0; g < cell; g++) {
                bt_position *start = random_start(games[gi], &rng, nim, wyt);
                uint64_t game_seed = bt_rng_next(&rng);
                int won[NSTRAT];
                double dd;
                for (s = 0; s < nstrat; s++) {
                    won[s] = play(start, misere, es[ei], s, game_seed);
                    wins[s] += won[s];
                }
                dd = won[DESIGNED] - won[NAIVE];
                sum_d += dd;
                sum_d2 += dd * dd;
                bt_position_free(start);
            }
            printf("| %s | %.1f | %ld |", games[gi], es[ei], cell);
            for (s = 0; s < NSTRAT; s++) {
                double p = (double)wins[s] / (double)cell;
                double h = 1.96 * sqrt(p * (1 - p) / (double)cell);
                if (s < nstrat)
                    printf(" %.3f ± %.3f |", p, h);
                else
                    printf(" |");
            }
            {
                double mean = sum_d / (double)cell;
                double var = (sum_d2 / (double)cell - mean * mean) *
                             (double)cell / (double)(cell - 1);
                double h = 1.96 * sqrt(var / (double)cell);
                printf(" %+.3f ± %.3f |\n", mean, h);
            }
            fflush(stdout);
        }
    }
    printf("\n%.1f s of CPU\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    bt_game_free(nim);
    bt_game_free(wyt);
    bt_solver_free(solvers[0]);
    bt_solver_free(solvers[1]);
    return 0;
}
