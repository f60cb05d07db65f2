/*
 * quotient_tame.h -- what quotient.c asks of quotient_tame.c: tame misère
 * quotients recognised and formed by the theory, heap by heap, and a
 * cheap test that a learnt automaton is a proved one.  Not part of the
 * public API.
 *
 * A tame quotient is misère Nim's (Conway's genus theory, Winning Ways
 * ch. 13; Plambeck and Siegel 2008): each heap plays as a sum of Nim heaps.
 * Its elements are coded 0 (the identity: sums of an even number of heaps
 * of genus 0^1), 1 (a: an odd number of them) and 2 + v (z_v: a sum with a
 * Nim heap of at least 2 whose nim-sum is v); the P-portion is {a, z_0}.
 * The tracker keeps, for the heaps 1..n added so far, each heap's code and
 * what its options' codes are, and the submonoid M they generate; it
 * states the theorem it relies on in quotient_tame.c and docs/misere.md.
 */
#ifndef BOUTON_QUOTIENT_TAME_H
#define BOUTON_QUOTIENT_TAME_H

#include <stddef.h>
#include <stdint.h>

typedef struct bt__qtame bt__qtame;

/* Whether learners start a tracker (bt__quotient_set_taming, engines/engines.h). */
int bt__qtame_on(void);

/* A tracker with no heap (the empty sum alone); NULL when out of
   memory.  bt__qtame_free accepts NULL. */
bt__qtame *bt__qtame_new(void);
void bt__qtame_free(bt__qtame *t);
/* A deep copy; NULL when out of memory or t is NULL. */
bt__qtame *bt__qtame_copy(const bt__qtame *t);

/* The heaps 1..n the tracker has proved tame. */
size_t bt__qtame_heaps(const bt__qtame *t);

/*
 * Adds heap h = bt__qtame_heaps(t) + 1, whose options are the nopt pairs
 * opt[2j], opt[2j + 1] of smaller heaps (0: no heap).  Returns 1 when the
 * heaps 1..h are proved tame (quotient_tame.c, the theorem): then the
 * misère quotient of the heaps up to h is M with P = {a, z_0} in M, and
 * heap h's element is known; 0 when heap h breaks the theorem's
 * conditions (the tracker is unchanged: it covers 1..h-1); -1 when out of
 * memory.
 */
int bt__qtame_add(bt__qtame *t, size_t h, const uint32_t *opt, size_t nopt);
/* Forgets the heaps past n (n at most bt__qtame_heaps(t)). */
void bt__qtame_truncate(bt__qtame *t, size_t n);
/* Whether the last heap added enlarged M (a new element). */
int bt__qtame_grew(const bt__qtame *t);

/* The order of M, and the number in 0..order-1 of the element of the sum
   of the n heaps h[] (heaps of at most bt__qtame_heaps(t)); 0 is the
   identity. */
size_t bt__qtame_order(const bt__qtame *t);
size_t bt__qtame_element(const bt__qtame *t, const uint32_t *h, size_t n);

/*
 * M as an automaton over the heaps 0..n, n = bt__qtame_heaps(t):
 * (*tr)[x * (n + 1) + a] the element x times heap a, (*isp)[x] whether x
 * is in P; both malloc'd, *ord = the order.  -1 when out of memory.
 */
int bt__qtame_table(const bt__qtame *t, uint32_t **tr, unsigned char **isp,
                    size_t *ord);

/*
 * Whether two automata over the letters 1..n accept the same positions:
 * the hypothesis (tr[s * stride + a], its P-portion isp, ord states) and
 * a reference (rtr[x * rstride + a], risp, rord states), both from state
 * 0, letters a with live[a] == 0 skipped (a heap with no move acts as the
 * identity in both).  1 when every word leads to states of the same
 * P-status, 0 when not, -1 when out of memory.  With a reference that is
 * the proved quotient and a hypothesis whose states are told apart, 1
 * means the hypothesis is that quotient (docs/misere.md).
 */
int bt__qauto_same(const uint32_t *tr, size_t stride, const unsigned char *isp,
                   size_t ord, const uint32_t *rtr, size_t rstride,
                   const unsigned char *risp, size_t rord, const size_t *live,
                   size_t n);

#endif
