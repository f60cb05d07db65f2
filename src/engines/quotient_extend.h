/*
 * quotient_extend.h -- what quotient.c asks of quotient_extend.c: the
 * candidates of a conservative extension, in a good order, and the ones
 * proved without the exact walk.  Not part of the public API.
 */
#ifndef BOUTON_QUOTIENT_EXTEND_H
#define BOUTON_QUOTIENT_EXTEND_H

#include <stddef.h>
#include <stdint.h>

/*
 * Heap h as an element of the proved quotient Q(h - 1) of the heaps below
 * h: mul its table (ord elements), isp its P-portion, el[a] the element
 * of heap a (0 for a heap with no move; el[0] = 0), opt[a] and nopt[a]
 * the options of heap a (pairs of heaps, 0: none).  Writes to cand the
 * elements x that may be heap h's (those whose P-status is that of heap h
 * alone), *ncand of them, most likely first.  *proved = 1 when cand[0] is
 * heap h's element for certain, with no walk: an earlier heap a has the
 * same set of options' elements as heap h, and cand[0] = el[a]
 * (quotient_extend.c states why).  -1 when out of memory, else 0.
 */
int bt__qext_plan(uint32_t *cand, size_t *ncand, int *proved,
                  const uint32_t *mul, size_t ord, const unsigned char *isp,
                  const uint32_t *el, uint32_t *const *opt,
                  const size_t *nopt, size_t h);

#endif
