/*
 * ops.h -- the rules of the operations that the command line (cmd_NAME.c)
 * and the HTTP API (server_api_*.c) both check, written once.
 *
 * Each adapter reads its own input (argv, or a JSON body) into values,
 * then asks these functions whether the values make a request.  A refusal
 * is a bt_status with its message in a bt_diag, as the library's are: the
 * CLI prints it (cli_status_error, exit 2), the API maps it to its HTTP
 * answer (srv_fail_status).  A message names the fields the way the
 * adapter's users write them: `--below` on the command line, `"below"`
 * in JSON.
 */
#ifndef BOUTON_OPS_H
#define BOUTON_OPS_H

#include <stddef.h>

#include <bouton.h>

/* Who asks: how messages name the fields. */
typedef enum { OP_CLI, OP_API } op_iface;

/*
 * count and table: the piles hold from min counters to at most max, max
 * given either as such or as below (max = below - 1).
 *
 * op_count_bound_given: count is given exactly one of max and below.
 * op_pile_range: bound is the max or the below given (by_below); BT_EINVAL
 * when the range is empty (below 0, or min past the largest pile).  On
 * success, when max is not NULL, it is set to the largest pile (max may
 * be bound).
 */
bt_status op_count_bound_given(op_iface in, int has_max, int has_below,
                               bt_diag *d);
bt_status op_pile_range(op_iface in, const mpz_t min, const mpz_t bound,
                        int by_below, mpz_t max, bt_diag *d);

/* table: the number of piles when the request gives none: 1 for a game
   whose component is a pair (Wythoff's, whose table lists the pairs), 0
   when it must be given. */
size_t op_table_default_piles(const bt_game *g);
/* Whether p has components and every one is one heap (a game of arity
   1): the positions that a misère quotient may answer, whose misère
   answers (analyze, move, moves) carry the quotient's facts. */
int op_all_heaps(const bt_position *p);
/* Whether two analyses answered through the same misère quotient (the
   same game and bound), so that their elements are named alike: the
   words of an element depend on the bound (docs/misere.md). */
int op_same_quotient(const bt_quotient_facts *x, const bt_quotient_facts *y);

/*
 * analyze --random-starts and /v1/analyze's "random_starts": the starts of
 * `bouton play --random`, k piles each uniform in 1..max, counted exactly
 * (bt_nim_count over ordered k-tuples): *all of them, *wins those from
 * which the player to move wins.
 *
 * op_random_starts_game: the starts are Nim's (game NULL: Nim); other
 * games' starts are not counted exactly.  op_random_starts: max at least
 * 1, then the count (its failure as bt_nim_count's).
 */
bt_status op_random_starts_game(op_iface in, const char *game, bt_diag *d);
bt_status op_random_starts(op_iface in, size_t k, const mpz_t max,
                           int misere, const bt_limits *lim, mpz_t all,
                           mpz_t wins, bt_diag *d);

/* pair: the game of a pair is of Wythoff's family (spec as given). */
bt_status op_pair_game(op_iface in, const bt_game *g, const char *spec,
                       bt_diag *d);

/* grundy: 1 when the game's values form a table G(x, y) (Wythoff's
   family), 0 when a sequence G(n). */
int op_grundy_is_table(const bt_game *g);
/* grundy: the game has a Grundy sequence of one heap (BT_EUNDEF when
   not: Nim, Moore's Nim). */
bt_status op_grundy_sequence(op_iface in, const bt_game *g, const char *spec,
                             bt_diag *d);

/* quotient: the heaps up to which a quotient is computed when the request
   gives no bound: a fixed bound, or (until_proved) where the search for
   a proof stops. */
size_t op_quotient_default_upto(int until_proved);
/*
 * quotient: the games of a game text "RULES" or "RULES + RULES + ..." (a
 * sum's games, whose union's quotient the misère analysis uses), at most
 * max: games[0..*ng-1], references the caller frees.  A refusal
 * (BT_EPARSE) names the part at fault.
 */
bt_status op_quotient_games(op_iface in, const char *text, bt_game **games,
                            size_t max, size_t *ng, bt_diag *d);

#endif
