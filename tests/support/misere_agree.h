/*
 * misere_agree.h -- a misère analysis checked against brute force, as the
 * quotient tests check it.  Include after <cmocka.h> and <bouton.h>.
 */
#ifndef BT_MISERE_AGREE_H
#define BT_MISERE_AGREE_H

#include "oracle_heap.h"

/*
 * bt_analyze(flags | BT_MISERE) of the sum of the heaps c[0..nc-1] of spec
 * (nc <= 6, each heap > 0) against og's brute-force misère solver b: the
 * outcome, and the exact set of winning moves (each move the analysis
 * lists leaves a P-position by brute force, and every option that does is
 * listed once, moves to the same heaps counting once).  Fails the test on
 * any difference.  Returns the analysis (the caller frees it) for further
 * checks; *cpu: the CPU seconds of bt_analyze when cpu is not NULL.
 */
bt_analysis *bt_test_misere_agree(const char *spec, oh_game *og,
                                  oh_misere *b, const unsigned *c, size_t nc,
                                  unsigned flags, double *cpu);

#endif
