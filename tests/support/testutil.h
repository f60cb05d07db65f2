/*
 * testutil.h -- what the unit tests share: the seed of their random parts
 * and a position parser that fails the test on bad text.  Include after
 * <cmocka.h> and <bouton.h>.
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
/* Parses text with default game `game` (NULL: none), failing the test with
   the library's message when it does not parse. */
bt_position *bt_test_parse(const char *text, const char *game,
                           const bt_limits *lim);

#endif
