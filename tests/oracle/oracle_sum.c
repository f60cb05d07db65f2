/*
 * oracle_sum.c -- brute force from the rules: a position is P exactly when
 * no move leads to a P-position; with no move it is P in normal play and
 * N in misère play (the opponent took the last counter).  Memoised on the
 * sorted components.  Deliberately simple: small positions only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_sum.h"

int
or_rules_parse(or_rules *r, const char *spec)
{
    const char *code = NULL;
    memset(r, 0, sizeof *r);
    if (strcmp(spec, "nim") == 0) {
        r->kind = OR_NIM;
        return 0;
    }
    if (strncmp(spec, "wythoff", 7) == 0) {
        r->kind = OR_WYTHOFF;
        r->a = spec[7] == ':' ? atoi(spec + 8) : 1;
        return r->a >= 1 ? 0 : -1;
    }
    if (strncmp(spec, "sub:", 4) == 0) {
        const char *p = spec + 4;
        r->kind = OR_SUB;
        while (*p && r->nset < 16) {
            r->set[r->nset++] = atoi(p);
            p += strspn(p, "0123456789");
            if (*p == ',')
                p++;
        }
        return 0;
    }
    if (strcmp(spec, "grundys-game") == 0) {
        r->kind = OR_GRUNDY;
        return 0;
    }
    if (strcmp(spec, "kayles") == 0)
        code = "0.77";
    else if (strcmp(spec, "dawsons-kayles") == 0)
        code = "0.07";
    else if (strcmp(spec, "dawsons-chess") == 0)
        code = "0.137";
    else if (strncmp(spec, "octal:", 6) == 0)
        code = spec + 6;
    if (code == NULL)
        return -1;
    r->kind = OR_OCTAL;
    r->digit[0] = code[0] - '0';
    r->ndigit = 1;
    for (code += 2; *code && r->ndigit < 16; code++)
        r->digit[r->ndigit++] = *code - '0';
    return 0;
}

static int
push(or_move *m, int n, int max, int comp, int nto, int a, int b)
{
    if (n < max) {
        m[n].comp = comp;
        m[n].nto = nto;
        m[n].to[0] = a;
        m[n].to[1] = b;
    }
    return n + 1;
}

int
or_moves(const or_pos *p, or_move *m, int max)
{
    int n = 0, i, k, l, j;
    for (i = 0; i < p->n; i++) {
        const or_comp *c = &p->c[i];
        const or_rules *r = c->r;
        switch (r->kind) {
        case OR_NIM:
            for (k = 0; k < c->x; k++)
                n = push(m, n, max, i, 1, k, 0);
            break;
        case OR_WYTHOFF:
            for (k = 1; k <= c->x; k++)
                n = push(m, n, max, i, 2, c->x - k, c->y);
            for (k = 1; k <= c->y; k++)
                n = push(m, n, max, i, 2, c->x, c->y - k);
            for (k = 1; k <= c->x; k++)
                for (l = 1; l <= c->y; l++)
                    if (abs(k - l) < r->a)
                        n = push(m, n, max, i, 2, c->x - k, c->y - l);
            break;
        case OR_SUB:
            for (j = 0; j < r->nset; j++)
                if (r->set[j] <= c->x)
                    n = push(m, n, max, i, 1, c->x - r->set[j], 0);
            break;
        case OR_GRUNDY:
            for (k = 1; 2 * k < c->x; k++)
                n = push(m, n, max, i, 2, k, c->x - k);
            break;
        case OR_OCTAL:
            for (k = 0; k < r->ndigit && k <= c->x; k++) {
                int d = r->digit[k], rest = c->x - k;
                if (k == 0 && d != 0 && d != 4)
                    continue; /* only splitting without removing */
                if ((d & 1) && rest == 0 && k > 0)
                    n = push(m, n, max, i, 0, 0, 0);
                if ((d & 2) && rest >= 1 && k > 0)
                    n = push(m, n, max, i, 1, rest, 0);
                if (d & 4)
                    for (l = 1; 2 * l <= rest; l++)
                        n = push(m, n, max, i, 2, l, rest - l);
            }
            break;
        }
    }
    return n;
}

void
or_apply(or_pos *out, const or_pos *p, const or_move *m)
{
    int i, k = 0;
    const or_comp *c = &p->c[m->comp];
    or_pos q;
    q.n = 0;
    for (i = 0; i < p->n; i++) {
        if (i != m->comp) {
            q.c[q.n++] = p->c[i];
            continue;
        }
        if (c->r->kind == OR_WYTHOFF) {
            q.c[q.n] = *c;
            q.c[q.n].x = m->to[0];
            q.c[q.n].y = m->to[1];
            q.n++;
            continue;
        }
        for (k = 0; k < m->nto; k++) {
            q.c[q.n] = *c;
            q.c[q.n].x = m->to[k];
            q.c[q.n].y = 0;
            q.n++;
        }
    }
    *out = q;
}

/* ------------------------------------------------------------ memo */

typedef struct entry {
    char key[OR_MAX_COMPS * 48 + 4];
    unsigned char val;
    unsigned char used;
} entry;

#define MEMO_SIZE (1u << 18)
static entry *memo;
static unsigned memo_used;

void
or_reset(void)
{
    free(memo);
    memo = NULL;
    memo_used = 0;
}

static int
cmp_comp(const void *a, const void *b)
{
    const or_comp *x = a, *y = b;
    if (x->r != y->r)
        return x->r < y->r ? -1 : 1;
    if (x->x != y->x)
        return x->x - y->x;
    return x->y - y->y;
}

static void
make_key(const or_pos *p, int misere, char *key)
{
    or_pos s = *p;
    int i, len;
    qsort(s.c, (size_t)s.n, sizeof s.c[0], cmp_comp);
    len = 0;
    key[len++] = (char)('0' + misere);
    for (i = 0; i < s.n; i++) {
        /* the rules' address names the game: tests keep them static */
        const unsigned char *rp = (const unsigned char *)&s.c[i].r;
        int b;
        for (b = 0; b < (int)sizeof s.c[i].r; b++)
            key[len++] = (char)('a' + (rp[b] & 15)),
            key[len++] = (char)('a' + (rp[b] >> 4));
        len += sprintf(key + len, ":%d,%d;", s.c[i].x, s.c[i].y);
    }
    key[len] = '\0';
}

static unsigned
hash(const char *s)
{
    unsigned h = 2166136261u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

int
or_is_p(const or_pos *p, int misere)
{
    or_move m[4096];
    char key[sizeof memo[0].key];
    int n, i, res = 1;
    unsigned h;
    if (memo == NULL)
        memo = calloc(MEMO_SIZE, sizeof *memo);
    make_key(p, misere, key);
    for (h = hash(key) & (MEMO_SIZE - 1); memo[h].used;
         h = (h + 1) & (MEMO_SIZE - 1))
        if (strcmp(memo[h].key, key) == 0)
            return memo[h].val;
    n = or_moves(p, m, 4096);
    if (n > 4096)
        abort(); /* positions in tests are far smaller */
    if (n == 0)
        res = !misere;
    for (i = 0; i < n && res; i++) {
        or_pos q;
        or_apply(&q, p, &m[i]);
        if (or_is_p(&q, misere))
            res = 0;
    }
    /* the slot may have been taken by the recursion: probe again */
    for (h = hash(key) & (MEMO_SIZE - 1); memo[h].used;
         h = (h + 1) & (MEMO_SIZE - 1))
        ;
    if (++memo_used > MEMO_SIZE / 2)
        abort(); /* tests call or_reset() long before this */
    strcpy(memo[h].key, key);
    memo[h].val = (unsigned char)res;
    memo[h].used = 1;
    return res;
}
