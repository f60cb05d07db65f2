/*
 * record.c -- recognising a move from two positions, and game records in
 * the notation of Beardon's notes on Nim:
 *
 *     (41,163,13) -A-> (25,163,13) -B-> (25,19,13) -A-> ...
 *
 * written one position per line under a header that names the game and the
 * rules (the format is specified in include/bouton/play.h).  Pure: records
 * are built from and written to strings.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engines.h"
#include "analysis/analysis.h"

#define STOP ((bt_status)101) /* internal: stop an enumeration early */

/* ------------------------------------------------------ finding a move */

static int
same_game(const bt_game *a, const bt_game *b)
{
    return a == b || strcmp(bt_game_spec(a), bt_game_spec(b)) == 0;
}

/* Non-zero when component i of a equals component j of b. */
static int
comp_equal(const bt_position *a, size_t i, const bt_position *b, size_t j)
{
    bt_game *g = bt_position_game(a, i);
    const mpz_t *x = bt_position_nums(a, i), *y = bt_position_nums(b, j);
    size_t k;
    if (!same_game(g, bt_position_game(b, j)) ||
        bt_position_count(a, i) != bt_position_count(b, j))
        return 0;
    for (k = 0; k < bt_position_count(a, i); k++)
        if (mpz_cmp(x[k], y[k]) != 0)
            return 0;
    return 1;
}

typedef struct match {
    const mpz_t *to;
    size_t nto;
} match;

static bt_status
on_match(void *ud, const mpz_t *to, size_t nto)
{
    const match *m = ud;
    size_t k;
    if (nto != m->nto)
        return BT_OK;
    for (k = 0; k < nto; k++)
        if (mpz_cmp(to[k], m->to[k]) != 0)
            return BT_OK;
    return STOP;
}

/*
 * Is `to` an option of component c (n numbers) of game g?  From the rules
 * first: the ruleset's is_option when it decides (Nim, Wythoff's game,
 * Moore's Nim and the heap games in time linear in the digits: listing the
 * options of a pile of n would cost n, and a record of n moves n^2), else
 * the component's options listed, when there are not too many; else
 * through the ruleset's moves_to, which lists every option of a given
 * Grundy value: `to` is an option exactly when it is among those of its
 * own value.
 */
static bt_status
is_option(int *yes, bt_game *g, const mpz_t *c, size_t n, const mpz_t *to,
          size_t nto, const bt_limits *lim, bt_diag *diag)
{
    bt_limits small = *lim;
    match m;
    bt_status st;
    mpz_t target, v;
    size_t k;
    size_t ar = bt__comp_width(g, nto); /* the numbers of a part of `to` */

    m.to = to;
    m.nto = nto;
    if (g->rules->is_option != NULL &&
        (*yes = g->rules->is_option(g, c, n, to, nto)) >= 0)
        return BT_OK;
    if (small.max_search > 100000)
        small.max_search = 100000;
    *yes = 0;
    st = bt__rs_options(g, c, n, on_match, &m, &small, NULL);
    if (st == STOP || st == BT_OK) {
        *yes = st == STOP;
        return BT_OK;
    }
    if (st != BT_ELIMIT)
        return st;
    mpz_init(target);
    mpz_init(v);
    for (k = 0; k < nto / ar && st != STOP; k++) {
        st = bt__rs_grundy(g, v, to + k * ar, ar, lim, diag);
        if (st != BT_OK)
            break;
        mpz_xor(target, target, v);
    }
    if (st == BT_OK)
        st = bt__rs_moves_to(g, c, n, target, on_match, &m, lim, diag);
    mpz_clear(target);
    mpz_clear(v);
    if (st == STOP || st == BT_OK) {
        *yes = st == STOP;
        return BT_OK;
    }
    return st;
}

static bt_status
position_find_move(bt_move **out, const bt_position *from,
                   const bt_position *to, const bt_limits *lim,
                   bt_diag *diag)
{
    size_t n = bt_position_size(from), n2 = bt_position_size(to);
    size_t pre = 0, suf = 0, lo, hi, i, mn = n < n2 ? n : n2;
    bt_status st = BT_OK;

    *out = NULL;
    lim = bt__limits(lim);
    while (pre < mn && comp_equal(from, pre, to, pre))
        pre++;
    while (suf < mn && comp_equal(from, n - 1 - suf, to, n2 - 1 - suf))
        suf++;
    if (n == n2 && pre == n)
        return bt__fail(diag, BT_EINVAL,
                        "that is the position itself: a move must change "
                        "it");
    if (n == 0)
        return bt__fail(diag, BT_EINVAL, "no move from an empty position");
    if (n2 + 1 < n)
        return bt__fail(diag, BT_EINVAL,
                        "not one move: %zu components would vanish", n - n2);
    /*
     * One move replaces one component i by n2 - n + 1 components of its
     * game: everything before i and after it stays.  Usually one i fits;
     * when several do, their results are the same position.
     */
    lo = n - 1 > suf ? n - 1 - suf : 0;
    hi = pre < n - 1 ? pre : n - 1;
    if (lo > hi)
        return bt__fail(diag, BT_EINVAL,
                        "not one move: components %zu and %zu both change",
                        pre + 1, n - suf);
    for (i = lo; i <= hi; i++) {
        bt_game *g = bt_position_game(from, i);
        size_t ar = bt_game_arity(g), j;
        /* up to n candidates (a component removed from a run of equal
           ones), each an is_option of up to 100 000 options: poll */
        if ((st = bt__poll(lim)) != BT_OK)
            return bt__fail(diag, st,
                            "the time budget ran out while looking for "
                            "the move");
        size_t k = n2 - n + 1, c, nto;
        mpz_t *nums;
        int ok = 1, yes = 0;
        if (ar == 0) { /* variable arity: one component becomes one, or
                          vanishes (a coin game's last head turned) */
            if (k > 1)
                continue;
            ar = k == 1 ? bt_position_count(to, i) : 1;
        }
        nto = k * ar;
        for (c = 0; c < k && ok; c++)
            ok = same_game(g, bt_position_game(to, i + c));
        if (!ok)
            continue;
        nums = malloc((nto ? nto : 1) * sizeof *nums);
        if (nums == NULL)
            return bt__fail(diag, BT_ENOMEM, "out of memory");
        for (c = 0; c < k; c++)
            for (j = 0; j < ar; j++)
                mpz_init_set(nums[c * ar + j], bt_position_nums(to, i + c)[j]);
        st = is_option(&yes, g, bt_position_nums(from, i),
                       bt_position_count(from, i), (const mpz_t *)nums, nto,
                       lim, diag);
        if (st == BT_OK && yes)
            st = bt__move_new(out, from, i, (const mpz_t *)nums, nto, diag);
        for (c = 0; c < nto; c++)
            mpz_clear(nums[c]);
        free(nums);
        if (st != BT_OK || yes)
            return st;
    }
    if (n == n2 && lo == hi &&
        same_game(bt_position_game(from, lo), bt_position_game(to, lo))) {
        /* say which numbers cannot become which */
        bt_game *g = bt_position_game(from, lo);
        const mpz_t *a = bt_position_nums(from, lo);
        const mpz_t *b = bt_position_nums(to, lo);
        bt__buf t;
        char *text;
        size_t j;
        bt__buf_init(&t);
        for (j = 0; j < 2; j++) {
            const mpz_t *v = j ? b : a;
            /* each side's own count: a coin game's move changes it */
            size_t k, ar = bt_position_count(j ? to : from, lo);
            bt__buf_puts(&t, j ? " to " : "");
            if (ar > 1)
                bt__buf_putc(&t, '(');
            for (k = 0; k < ar; k++) {
                if (k)
                    bt__buf_putc(&t, ',');
                if (mpz_sizeinbase(v[k], 10) > 40)
                    bt__buf_puts(&t, "...");
                else
                    bt__buf_mpz(&t, v[k]);
            }
            if (ar > 1)
                bt__buf_putc(&t, ')');
        }
        text = bt__buf_take(&t);
        st = bt__fail(diag, BT_EINVAL, "%s is not a move of component %zu (%s)",
                      text ? text : "that", lo + 1, bt_game_spec(g));
        free(text);
        return st;
    }
    return bt__fail(diag, BT_EINVAL,
                    "no legal move of one component leads there");
}

bt_status
bt_position_find_move(bt_move **out, const bt_position *from,
                      const bt_position *to, const bt_limits *lim,
                      bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, position_find_move(out, from, to, lim, diag));
}

/* -------------------------------------------------------------- records */

struct bt_record {
    int misere;
    char first;
    bt_position **pos; /* npos = moves + 1 */
    size_t npos, cappos;
    bt_move *moves;
    size_t nmoves, capmoves;
    char **keys, **vals;
    size_t nfields;
};

static char
other(char c)
{
    return c == 'A' ? 'B' : 'A';
}

static bt_status
push_pos(bt_record *r, bt_position *p)
{
    if (r->npos == r->cappos) {
        size_t c = r->cappos ? 2 * r->cappos : 16;
        bt_position **np = realloc(r->pos, c * sizeof *np);
        if (np == NULL)
            return BT_ENOMEM;
        r->pos = np;
        r->cappos = c;
    }
    r->pos[r->npos++] = p;
    return BT_OK;
}

bt_status
bt_record_new(bt_record **out, const bt_position *start, int misere, char first,
              bt_diag *diag)
{
    bt_record *r;
    bt_position *p;
    bt_status st;
    *out = NULL;
    if (first != 'A' && first != 'B')
        return bt__fail(diag, BT_EINVAL, "the first player is A or B, not '%c'",
                        first);
    r = calloc(1, sizeof *r);
    if (r == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    r->misere = misere != 0;
    r->first = first;
    st = bt_position_copy(&p, start);
    if (st == BT_OK && (st = push_pos(r, p)) != BT_OK)
        bt_position_free(p);
    if (st != BT_OK) {
        bt_record_free(r);
        return bt__fail(diag, st, "out of memory");
    }
    *out = r;
    return BT_OK;
}

void
bt_record_free(bt_record *r)
{
    size_t i;
    if (r == NULL)
        return;
    for (i = 0; i < r->npos; i++)
        bt_position_free(r->pos[i]);
    free(r->pos);
    bt_moves_free(r->moves, r->nmoves);
    for (i = 0; i < r->nfields; i++) {
        free(r->keys[i]);
        free(r->vals[i]);
    }
    free(r->keys);
    free(r->vals);
    free(r);
}

static int
reserved_key(const char *key)
{
    return strcmp(key, "game") == 0 || strcmp(key, "rules") == 0 ||
           strcmp(key, "first") == 0 || strcmp(key, "result") == 0;
}

static int
valid_key(const char *key, size_t len)
{
    size_t i;
    if (len == 0)
        return 0;
    for (i = 0; i < len; i++)
        if (!isalnum((unsigned char)key[i]) && key[i] != '-' && key[i] != '_')
            return 0;
    return 1;
}

static char *
dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d != NULL) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

bt_status
bt_record_set(bt_record *r, const char *key, const char *value, bt_diag *diag)
{
    size_t i;
    char *v = NULL;
    if (!valid_key(key, strlen(key)))
        return bt__fail(diag, BT_EINVAL,
                        "'%.40s' is not a record key (letters, digits, - "
                        "and _)",
                        key);
    if (reserved_key(key))
        return bt__fail(diag, BT_EINVAL, "'%s' is written by the record itself",
                        key);
    if (value != NULL) {
        if (strchr(value, '\n') != NULL || strchr(value, '\r') != NULL)
            return bt__fail(diag, BT_EINVAL,
                            "the value of '%s' must be one line", key);
        v = dup_n(value, strlen(value));
        if (v == NULL)
            return bt__fail(diag, BT_ENOMEM, "out of memory");
    }
    for (i = 0; i < r->nfields; i++)
        if (strcmp(r->keys[i], key) == 0)
            break;
    if (i < r->nfields) {
        free(r->vals[i]);
        if (v != NULL) {
            r->vals[i] = v;
            return BT_OK;
        }
        free(r->keys[i]);
        memmove(&r->keys[i], &r->keys[i + 1],
                (r->nfields - i - 1) * sizeof *r->keys);
        memmove(&r->vals[i], &r->vals[i + 1],
                (r->nfields - i - 1) * sizeof *r->vals);
        r->nfields--;
        return BT_OK;
    }
    if (v == NULL)
        return BT_OK;
    {
        char **nk = realloc(r->keys, (r->nfields + 1) * sizeof *nk);
        char **nv;
        if (nk != NULL)
            r->keys = nk;
        nv = nk ? realloc(r->vals, (r->nfields + 1) * sizeof *nv) : NULL;
        if (nv != NULL)
            r->vals = nv;
        if (nk == NULL || nv == NULL ||
            (r->keys[r->nfields] = dup_n(key, strlen(key))) == NULL) {
            free(v);
            return bt__fail(diag, BT_ENOMEM, "out of memory");
        }
        r->vals[r->nfields++] = v;
    }
    return BT_OK;
}

const char *
bt_record_get(const bt_record *r, const char *key)
{
    size_t i;
    for (i = 0; i < r->nfields; i++)
        if (strcmp(r->keys[i], key) == 0)
            return r->vals[i];
    return NULL;
}

int
bt_record_is_misere(const bt_record *r)
{
    return r->misere;
}

size_t
bt_record_length(const bt_record *r)
{
    return r->nmoves;
}

const bt_position *
bt_record_position(const bt_record *r, size_t i)
{
    return i < r->npos ? r->pos[i] : NULL;
}

const bt_position *
bt_record_current(const bt_record *r)
{
    return r->pos[r->npos - 1];
}

const bt_move *
bt_record_move(const bt_record *r, size_t i)
{
    return i < r->nmoves ? &r->moves[i] : NULL;
}

char
bt_record_player(const bt_record *r, size_t i)
{
    return i % 2 == 0 ? r->first : other(r->first);
}

char
bt_record_winner(const bt_record *r)
{
    char to_move = bt_record_player(r, r->nmoves);
    if (!bt_position_is_terminal(bt_record_current(r)))
        return 0;
    /* the player to move has no move: in normal play they lost, in misère
       play the other one took the last counter and lost */
    return r->misere ? to_move : other(to_move);
}

/* Records move (from the current position to q, which is taken). */
static bt_status
append(bt_record *r, bt_move *found, bt_position *q)
{
    bt_status st;
    if (r->nmoves == r->capmoves) {
        size_t c = r->capmoves ? 2 * r->capmoves : 16;
        bt_move *nm = realloc(r->moves, c * sizeof *nm);
        if (nm == NULL)
            return BT_ENOMEM;
        r->moves = nm;
        r->capmoves = c;
    }
    st = push_pos(r, q);
    if (st != BT_OK)
        return st;
    r->moves[r->nmoves++] = *found;
    free(found); /* the array, not what it held: the record has that now */
    return BT_OK;
}

static bt_status
record_play(bt_record *r, const bt_move *m, const bt_limits *lim,
            bt_diag *diag)
{
    const bt_position *cur = bt_record_current(r);
    bt_position *q;
    bt_move *found;
    bt_status st;

    if (m->component >= bt_position_size(cur))
        return bt__fail(diag, BT_EINVAL, "there is no component %zu",
                        m->component + 1);
    st = bt_position_copy(&q, cur);
    if (st != BT_OK)
        return bt__fail(diag, st, "out of memory");
    st = bt_position_apply(q, m);
    if (st != BT_OK) {
        bt_position_free(q);
        return bt__fail(diag, BT_EINVAL, "a move of the wrong shape");
    }
    st = bt_position_find_move(&found, cur, q, lim, diag);
    if (st == BT_OK && found->component != m->component) {
        /* the same result from another component: keep the caller's */
        bt_moves_free(found, 1);
        st = bt__move_new(&found, cur, m->component, (const mpz_t *)m->to,
                          m->nto, diag);
    }
    if (st != BT_OK) {
        bt_position_free(q);
        return st;
    }
    st = append(r, found, q);
    if (st != BT_OK) {
        bt_moves_free(found, 1);
        bt_position_free(q);
        return bt__fail(diag, st, "out of memory");
    }
    return BT_OK;
}

bt_status
bt_record_play(bt_record *r, const bt_move *m, const bt_limits *lim,
               bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, record_play(r, m, lim, diag));
}

bt_status
bt_record_undo(bt_record *r, size_t n)
{
    if (n > r->nmoves)
        return BT_EINVAL;
    while (n-- > 0) {
        bt_move *m = &r->moves[--r->nmoves];
        bt_position_free(r->pos[--r->npos]);
        /* free what the move holds, not the array */
        {
            size_t j;
            for (j = 0; j < m->nto; j++)
                mpz_clear(m->to[j]);
            free(m->to);
            free(m->text);
        }
    }
    return BT_OK;
}

/* ------------------------------------------------------------- writing */

/* The game named in the header: the start's one game, else "sum". */
static const char *
header_game(const bt_record *r)
{
    bt_game *g = bt_position_single_game(r->pos[0]);
    size_t i;
    if (g == NULL)
        return "sum";
    /* every position of the game must be of that game */
    for (i = 1; i < r->npos; i++) {
        bt_game *h = bt_position_single_game(r->pos[i]);
        if (h != NULL && !same_game(g, h))
            return "sum";
    }
    return bt_game_spec(g);
}

static void
put_position(bt__buf *b, const bt_position *p, const char *game)
{
    size_t i, n = bt_position_size(p);
    int plain = strcmp(game, "sum") != 0;
    for (i = 0; i < n && plain; i++)
        plain = strcmp(bt_game_spec(bt_position_game(p, i)), game) == 0;
    bt__buf_putc(b, '(');
    if (plain) {
        int firstnum = 1;
        for (i = 0; i < n; i++) {
            const mpz_t *v = bt_position_nums(p, i);
            size_t j, ar = bt_position_count(p, i);
            for (j = 0; j < ar; j++) {
                if (!firstnum)
                    bt__buf_putc(b, ',');
                bt__buf_mpz(b, v[j]);
                firstnum = 0;
            }
        }
    } else {
        char *s = bt_position_format(p);
        if (s == NULL)
            b->failed = 1;
        else
            bt__buf_puts(b, s);
        free(s);
    }
    bt__buf_putc(b, ')');
}

char *
bt_record_format(const bt_record *r)
{
    bt__buf b;
    const char *game = header_game(r);
    size_t i;
    char w;

    bt__buf_init(&b);
    bt__buf_puts(&b, "# bouton game record\n");
    bt__buf_printf(&b, "game: %s\n", game);
    bt__buf_printf(&b, "rules: %s\n", r->misere ? "misère" : "normal");
    bt__buf_printf(&b, "first: %c\n", r->first);
    for (i = 0; i < r->nfields; i++)
        bt__buf_printf(&b, "%s: %s\n", r->keys[i], r->vals[i]);
    bt__buf_putc(&b, '\n');
    put_position(&b, r->pos[0], game);
    bt__buf_putc(&b, '\n');
    for (i = 0; i < r->nmoves; i++) {
        bt__buf_printf(&b, "-%c-> ", bt_record_player(r, i));
        put_position(&b, r->pos[i + 1], game);
        bt__buf_putc(&b, '\n');
    }
    w = bt_record_winner(r);
    if (w != 0)
        bt__buf_printf(&b, "result: %c wins\n", w);
    return bt__buf_take(&b);
}

/* ------------------------------------------------------------- reading */

typedef struct reader {
    const char *text;
    size_t pos, len;
    bt_diag *diag;
} reader;

static size_t
line_of(const reader *rd, size_t at)
{
    size_t i, line = 1;
    for (i = 0; i < at && i < rd->len; i++)
        if (rd->text[i] == '\n')
            line++;
    return line;
}

/* Skips blanks, newlines and comments (# to the end of the line). */
static void
skip_space(reader *rd)
{
    while (rd->pos < rd->len) {
        char c = rd->text[rd->pos];
        if (c == '#') {
            while (rd->pos < rd->len && rd->text[rd->pos] != '\n')
                rd->pos++;
        } else if (isspace((unsigned char)c)) {
            rd->pos++;
        } else {
            break;
        }
    }
}

static bt_status
bad(reader *rd, size_t at, const char *what)
{
    return bt__fail_at(rd->diag, BT_EPARSE, at, "line %zu: %s", line_of(rd, at),
                       what);
}

/* Reads the header lines into the fields of a scratch record. */
typedef struct header {
    char *game, *rules, *first;
    char **keys, **vals;
    size_t n;
} header;

static void
header_free(header *h)
{
    size_t i;
    free(h->game);
    free(h->rules);
    free(h->first);
    for (i = 0; i < h->n; i++) {
        free(h->keys[i]);
        free(h->vals[i]);
    }
    free(h->keys);
    free(h->vals);
}

static bt_status
read_header(reader *rd, header *h)
{
    for (;;) {
        size_t start, end, colon, vs, ve;
        char *key, *val;
        skip_space(rd);
        if (rd->pos >= rd->len || rd->text[rd->pos] == '(')
            return BT_OK;
        start = rd->pos;
        end = start;
        while (end < rd->len && rd->text[end] != '\n')
            end++;
        colon = start;
        while (colon < end && rd->text[colon] != ':')
            colon++;
        if (colon == end || !valid_key(rd->text + start, colon - start))
            return bad(rd, start,
                       "expected a header line 'key: value' or a position "
                       "in parentheses");
        vs = colon + 1;
        while (vs < end && isspace((unsigned char)rd->text[vs]))
            vs++;
        ve = end;
        while (ve > vs && isspace((unsigned char)rd->text[ve - 1]))
            ve--;
        key = dup_n(rd->text + start, colon - start);
        val = dup_n(rd->text + vs, ve - vs);
        if (key == NULL || val == NULL) {
            free(key);
            free(val);
            return bt__fail(rd->diag, BT_ENOMEM, "out of memory");
        }
        rd->pos = end;
        if (strcmp(key, "game") == 0 || strcmp(key, "rules") == 0 ||
            strcmp(key, "first") == 0) {
            char **slot = key[0] == 'g'   ? &h->game
                          : key[0] == 'r' ? &h->rules
                                          : &h->first;
            free(key);
            if (*slot != NULL) {
                free(val);
                return bad(rd, start, "a header field is given twice");
            }
            *slot = val;
            continue;
        }
        if (strcmp(key, "result") == 0) {
            free(key);
            free(val);
            return bad(rd, start, "'result' comes after the moves");
        }
        {
            char **nk = realloc(h->keys, (h->n + 1) * sizeof *nk);
            char **nv;
            if (nk != NULL)
                h->keys = nk;
            nv = nk ? realloc(h->vals, (h->n + 1) * sizeof *nv) : NULL;
            if (nv != NULL)
                h->vals = nv;
            if (nk == NULL || nv == NULL) {
                free(key);
                free(val);
                return bt__fail(rd->diag, BT_ENOMEM, "out of memory");
            }
            h->keys[h->n] = key;
            h->vals[h->n++] = val;
        }
    }
}

/* Reads "(...)" at rd->pos into a position. */
static bt_status
read_position(reader *rd, bt_position **out, bt_game *dflt,
              const bt_limits *lim)
{
    size_t start = rd->pos, end = start + 1;
    char *inner;
    bt_status st;
    bt_diag d;
    while (end < rd->len && rd->text[end] != ')' && rd->text[end] != '(')
        end++;
    if (end >= rd->len || rd->text[end] != ')')
        return bad(rd, start, "a position's '(' has no ')'");
    inner = dup_n(rd->text + start + 1, end - start - 1);
    if (inner == NULL)
        return bt__fail(rd->diag, BT_ENOMEM, "out of memory");
    memset(&d, 0, sizeof d);
    st = bt_position_parse(out, inner, dflt, lim, &d);
    free(inner);
    if (st != BT_OK) {
        size_t at = start + 1 + (d.has_offset ? d.offset : 0);
        if (st == BT_ENOMEM)
            return bt__fail(rd->diag, st, "out of memory");
        return bt__fail_at(rd->diag, st == BT_ELIMIT ? st : BT_EPARSE, at,
                           "line %zu: %s", line_of(rd, at), d.message);
    }
    rd->pos = end + 1;
    return BT_OK;
}

static bt_status
record_parse(bt_record **out, const char *text, const bt_limits *lim,
             bt_diag *diag)
{
    reader rd;
    header h;
    bt_game *game = NULL;
    bt_position *p = NULL;
    bt_record *r = NULL;
    bt_status st;
    int misere = 0;
    char first = 'A';

    *out = NULL;
    lim = bt__limits(lim);
    memset(&h, 0, sizeof h);
    rd.text = text;
    rd.len = strlen(text);
    rd.pos = 0;
    rd.diag = diag;
    if (rd.len > lim->max_text)
        return bt__fail(diag, BT_ELIMIT,
                        "a record of %zu bytes is more than the limit of "
                        "%zu (max_text)",
                        rd.len, lim->max_text);
    st = read_header(&rd, &h);
    if (st != BT_OK)
        goto cleanup;
    if (h.rules != NULL) {
        if (strcmp(h.rules, "misère") == 0 || strcmp(h.rules, "misere") == 0)
            misere = 1;
        else if (strcmp(h.rules, "normal") != 0) {
            st = bt__fail(diag, BT_EPARSE,
                          "rules '%.40s': expected normal or misère", h.rules);
            goto cleanup;
        }
    }
    if (h.first != NULL) {
        if (strcmp(h.first, "A") != 0 && strcmp(h.first, "B") != 0) {
            st = bt__fail(diag, BT_EPARSE, "first '%.40s': expected A or B",
                          h.first);
            goto cleanup;
        }
        first = h.first[0];
    }
    if (h.game == NULL || strcmp(h.game, "sum") != 0) {
        bt_diag d;
        memset(&d, 0, sizeof d);
        st = bt_game_new(&game, h.game ? h.game : "nim", &d);
        if (st != BT_OK) {
            st = bt__fail(diag, st == BT_ENOMEM ? st : BT_EPARSE, "game: %s",
                          d.message);
            goto cleanup;
        }
    }
    if (rd.pos >= rd.len) {
        st = bad(&rd, rd.pos, "no position: a record starts with one");
        goto cleanup;
    }
    st = read_position(&rd, &p, game, lim);
    if (st != BT_OK)
        goto cleanup;
    st = bt_record_new(&r, p, misere, first, diag);
    bt_position_free(p);
    p = NULL;
    if (st != BT_OK)
        goto cleanup;
    for (size_t i = 0; i < h.n; i++) {
        st = bt_record_set(r, h.keys[i], h.vals[i], diag);
        if (st != BT_OK) {
            st = BT_EPARSE;
            goto cleanup;
        }
    }
    for (;;) {
        size_t at;
        char who;
        bt_move *found;
        bt_diag d;
        /* a move's check costs up to 100 000 options of its component
           (is_option above), so the moves of a long record poll */
        if ((st = bt__poll(lim)) != BT_OK) {
            st = bt__fail(diag, st,
                          "the time budget ran out while reading the "
                          "record's moves");
            goto cleanup;
        }
        skip_space(&rd);
        if (rd.pos >= rd.len)
            break;
        at = rd.pos;
        if (rd.len - at >= 7 && memcmp(rd.text + at, "result:", 7) == 0) {
            size_t vs = at + 7, ve;
            char w = bt_record_winner(r);
            while (vs < rd.len && (rd.text[vs] == ' ' || rd.text[vs] == '\t'))
                vs++;
            ve = vs;
            while (ve < rd.len && rd.text[ve] != '\n')
                ve++;
            while (ve > vs && isspace((unsigned char)rd.text[ve - 1]))
                ve--;
            if (w == 0) {
                st = bad(&rd, at, "a result, but the game is not over");
                goto cleanup;
            }
            if (ve - vs != 6 || rd.text[vs] != w ||
                memcmp(rd.text + vs + 1, " wins", 5) != 0) {
                char msg[64];
                snprintf(msg, sizeof msg, "the result should be '%c wins'", w);
                st = bad(&rd, vs, msg);
                goto cleanup;
            }
            rd.pos = ve;
            skip_space(&rd);
            if (rd.pos < rd.len) {
                st = bad(&rd, rd.pos, "nothing may follow the result");
                goto cleanup;
            }
            break;
        }
        if (rd.len - at < 4 || rd.text[at] != '-' ||
            (rd.text[at + 1] != 'A' && rd.text[at + 1] != 'B') ||
            rd.text[at + 2] != '-' || rd.text[at + 3] != '>') {
            st = bad(&rd, at, "expected a move '-A->' or '-B->'");
            goto cleanup;
        }
        who = rd.text[at + 1];
        if (who != bt_record_player(r, bt_record_length(r))) {
            char msg[64];
            snprintf(msg, sizeof msg, "it is %c's turn, not %c's",
                     bt_record_player(r, bt_record_length(r)), who);
            st = bad(&rd, at, msg);
            goto cleanup;
        }
        rd.pos = at + 4;
        skip_space(&rd);
        if (rd.pos >= rd.len || rd.text[rd.pos] != '(') {
            st = bad(&rd, rd.pos, "expected a position after the move");
            goto cleanup;
        }
        at = rd.pos;
        st = read_position(&rd, &p, game, lim);
        if (st != BT_OK)
            goto cleanup;
        memset(&d, 0, sizeof d);
        st = bt_position_find_move(&found, bt_record_current(r), p, lim, &d);
        if (st != BT_OK) {
            if (st == BT_ENOMEM)
                st = bt__fail(diag, st, "out of memory");
            else
                st = bt__fail_at(diag, st == BT_ELIMIT ? st : BT_EPARSE, at,
                                 "line %zu: not a legal move of %c: %s",
                                 line_of(&rd, at), who, d.message);
            goto cleanup;
        }
        st = append(r, found, p);
        if (st != BT_OK) {
            bt_moves_free(found, 1);
            st = bt__fail(diag, st, "out of memory");
            goto cleanup;
        }
        p = NULL;
    }
cleanup:
    header_free(&h);
    bt_game_free(game);
    bt_position_free(p);
    if (st != BT_OK) {
        bt_record_free(r);
        return st;
    }
    *out = r;
    return BT_OK;
}

bt_status
bt_record_parse(bt_record **out, const char *text, const bt_limits *lim,
                bt_diag *diag)
{
    BT__GMP_CHARGED(lim, diag, record_parse(out, text, lim, diag));
}
