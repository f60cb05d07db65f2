/*
 * testutil.h -- what the unit tests share: the seed of their random parts,
 * a position parser that fails the test on bad text, and a walk over every
 * small position of a shape.  Include after <cmocka.h> and <bouton.h>.
 */
#ifndef BT_TESTUTIL_H
#define BT_TESTUTIL_H

/* A cmocka group setup: reads the seed from BT_TEST_SEED (a fixed default
   otherwise).  Tests with a setup of their own call it from theirs. */
int bt_test_setup(void **state);
/* The seed the run started from: print it when a random test fails, so
   that BT_TEST_SEED=it replays the failure. */
unsigned long long bt_test_seed(void);
/* The next pseudo-random number in [0, n), n > 0 (a 64-bit LCG). */
unsigned bt_test_rnd(unsigned n);
/* 1 when BT_TEST_LIGHT is set (scripts/valgrind.sh sets it): tests whose
   exhaustive parts take minutes under valgrind check a smaller range there;
   the normal and ASan runs check the whole range. */
int bt_test_light(void);
/* The CPU bound of a timed check, `seconds` on a normal build: 5 times
   that under AddressSanitizer, 30 times under valgrind (BT_TEST_LIGHT),
   and times BT_TEST_CPU_SCALE (a number >= 1) when it is set, for a
   machine so loaded that even CPU time stretches.  A bound is set 10-20
   times above what the check takes, so that it catches a slower order of
   growth, not a slow machine. */
double bt_test_cpu_bound(double seconds);
/* The game of spec (bt_game_new), failing the test with the library's
   message when spec is not a game. */
bt_game *bt_test_game(const char *spec);
/* bt_test_game of a spec formatted as by printf ("wythoff:%d"). */
bt_game *bt_test_gamef(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Checks that bt_game_new refuses text with BT_EPARSE and a one-line
   message containing msg, at byte offset `offset` of the text when it is
   not -1. */
void bt_test_game_refused(const char *text, const char *msg, long offset);
/* Parses text with default game `game` (NULL: none), failing the test with
   the library's message when it does not parse. */
bt_position *bt_test_parse(const char *text, const char *game,
                           const bt_limits *lim);

/* A set of moves as texts "COMP:A,B" (COMP 0-based, the heaps left in
   non-decreasing order, "-" for none), to compare the library's moves with
   an oracle's whatever their order. */
typedef struct bt_test_list {
    char items[4096][40];
    size_t n;
} bt_test_list;
/* Adds the move of component comp that leaves heaps parts[0..n-1] (n <= 3,
   in non-decreasing order). */
void bt_test_list_add(bt_test_list *l, size_t comp, const unsigned *parts,
                      size_t n);
/* Adds a move of the library (numbers below 2^32, at most 3). */
void bt_test_list_add_move(bt_test_list *l, const bt_move *m);
/* Fails the test, naming `what`, unless got and want hold the same moves
   (both are sorted). */
void bt_test_list_check(bt_test_list *want, bt_test_list *got,
                        const char *what);

/* G(0..n-1) of spec by method m (bt_sequence_compute), failing the test
   with the library's message when it fails. */
bt_sequence *bt_test_sequence(const char *spec, bt_seq_method m, size_t n);
/* Fails the test unless the plain, rare-value and automatic methods give
   spec the same first n values. */
void bt_test_methods_agree(const char *spec, size_t n);

/* The misère quotient of spec's heaps up to n (bt_quotient_new), or, with
   until_proved, until its periodicity is proved within n
   (bt_quotient_new_until_proved); max_search 2 000 000.  Fails the test
   with the library's message when it fails. */
bt_quotient *bt_test_quotient(const char *spec, size_t n, int until_proved);
/* The same with another max_search and max_memory (0: the default):
   Kayles past heap 26 needs 10^8 positions and about 1.5 GB. */
bt_quotient *bt_test_quotient_search(const char *spec, size_t n,
                                     int until_proved, size_t max_search,
                                     size_t max_memory);

/* The quotient of spec's heaps up to n (bt_quotient_new) within
   max_search positions, max_order elements and max_seconds of the
   process's CPU time, or NULL when it needs more (BT_ELIMIT, BT_EINTR);
   any other failure fails the test. */
bt_quotient *bt_test_quotient_within(const char *spec, size_t n,
                                     size_t max_search, size_t max_order,
                                     double max_seconds);

/* The element of the sum of heaps h[0..k-1] (0: absent) in q. */
size_t bt_test_quotient_sum(const bt_quotient *q, const unsigned *h,
                            size_t k);
/* Fails the test unless q gives every sum of three heaps a >= b >= c
   (b, c may be 0: absent) with lo <= a <= hi and a + b + c <= total
   (heaps past q's bound through its proved period) the misère outcome that tests/oracle's solver (oh_misere) gives spec's
   rules; returns the number of sums checked. */
size_t bt_test_quotient_against_brute(const bt_quotient *q, const char *spec,
                                      unsigned lo, unsigned hi,
                                      unsigned total);
/* Steps h[0..k-1] to the next multiset of k heaps of 0..n (0: absent;
   start from all zeros); 0 after the last. */
int bt_test_next_multiset(unsigned *h, size_t k, unsigned n);

/*
 * Fails the test unless every two elements of q (spec's quotient) are told
 * apart by brute force: for representatives G, H (sums of up to `reps`
 * heaps <= n with those elements, the fewest counters; reps <= 5), some
 * sum X of up to three heaps <= n makes G + X and H + X of different
 * misère outcomes by tests/oracle's solver (oh_misere).  So |Q| is at
 * least bt_quotient_order(q), whatever the engine does: q only proposes
 * each pair's X (the fewest counters whose element separates them); the
 * oracle checks it, and tries every X in turn when it does not confirm.
 */
void bt_test_quotient_distinct(const bt_quotient *q, const char *spec,
                               unsigned n, size_t reps);

/* A published sequence of tests/cases (tests/oracle/oracle_heap.h). */
typedef struct oh_case oh_case;
/* Calls f on each published sequence (grundy_*.txt) of the folder `dir`,
   failing the test on a malformed file; returns how many there were. */
/* Two quotients of the same heaps the same, bit for bit: order, P, words,
   multiplication, heaps' elements, generators, relations, tameness (what
   names the pair in a failure). */
void bt_test_quotients_same(const char *what, const bt_quotient *a,
                            const bt_quotient *b);

/* The terms of one sequence from a data file of tests/cases/ whose lines
   are "KEY t0 t1 t2 ..." (path the file's path, key e.g. an OEIS number):
   at most cap terms into v, their count (the test fails on none). */
size_t bt_test_load_terms(const char *path, const char *key, unsigned long *v,
                          size_t cap);

int bt_test_each_case(const char *dir,
                      void (*f)(const oh_case *c, const char *name));
/* Proves the periodicity of s within `limit` values and fails the test
   unless its period and preperiod are c's (name: the case's file). */
void bt_test_proves_case(bt_sequence *s, const oh_case *c, const char *name,
                         size_t limit);

/* Wythoff's game of difference a by Wythoff's construction
   (oracle_wythoff_pairs): bt_wythoff_pair for n < count, and
   bt_wythoff_index_of for every number below `below` (or below the upper
   number of pair count - 1, if smaller) that is in one of those pairs. */
void bt_test_wythoff_pairs(int a, int misere, long count, long below);

/* The brute-force solver of tests/oracle/oracle_search.h. */
typedef struct oracle_search oracle_search;

/* One position of a walk over a shape (bt_test_each_position). */
typedef struct bt_test_pos {
    const char *text;       /* the position's text */
    bt_position *p;         /* parsed, the default game Nim */
    int misere;             /* the convention of this pass */
    oracle_search *oracle;  /* a brute-force solver for it, kept over the
                               pass (the walk owns it) */
} bt_test_pos;

/*
 * Calls visit(ud, at) for every position of a shape, first in normal and
 * then in misère play: fmt has `nums` conversions %d (at most 5), each
 * running over 0..below-1, the first fastest.  Fails the test when a text
 * does not parse or the oracle cannot be made.
 */
void bt_test_each_position(const char *fmt, int nums, int below,
                           void (*visit)(void *ud, const bt_test_pos *at),
                           void *ud);

#endif