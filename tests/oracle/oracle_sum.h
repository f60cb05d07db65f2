/*
 * oracle_sum.h -- a brute-force solver for small sums of games, written
 * from the rules of each game alone (no Grundy theory, no library code).
 */
#ifndef ORACLE_SUM_H
#define ORACLE_SUM_H

enum { OR_NIM, OR_WYTHOFF, OR_SUB, OR_OCTAL, OR_GRUNDY };

typedef struct or_rules {
    int kind;
    int a;            /* Wythoff: |k - l| < a for moves on both piles */
    int set[16];      /* subtraction: the set S */
    int nset;
    int digit[16];    /* octal: digit[k] for removing k counters */
    int ndigit;
} or_rules;

typedef struct or_comp {
    const or_rules *r;
    int x, y; /* y only for Wythoff */
} or_comp;

#define OR_MAX_COMPS 16

typedef struct or_pos {
    or_comp c[OR_MAX_COMPS];
    int n;
} or_pos;

/* A move: component i (0-based) replaced by nto numbers to[]. */
typedef struct or_move {
    int comp;
    int to[2];
    int nto;
} or_move;

/* Parses "nim", "wythoff:A", "sub:1,2", "octal:0.77", "kayles",
   "dawsons-kayles", "dawsons-chess", "grundys-game"; 0 on success. */
int or_rules_parse(or_rules *r, const char *spec);

/* Every move of p (into moves, at most max); returns the count. */
int or_moves(const or_pos *p, or_move *moves, int max);
/* p after move m. */
void or_apply(or_pos *out, const or_pos *p, const or_move *m);
/* 1 when p is a P-position (the previous player wins). */
int or_is_p(const or_pos *p, int misere);
/* Forgets the memo (call between unrelated test families). */
void or_reset(void);

#endif
