/*
 * json.c -- library results as JSON values: one builder for the CLI's
 * --json and the HTTP API, so the two print the same answer.
 *
 * Every integer that can grow with the input (pile sizes, Grundy values,
 * counts) is a decimal string; indexes and flags are numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ops.h"

/* cli_json_set_stop()'s budget: the bytes of numbers written since stop
   was last asked, and whether it said yes. */
static _Thread_local int (*json_stop)(void *);
static _Thread_local void *json_stop_ud;
static _Thread_local size_t json_work;
static _Thread_local int json_stopped;

void
cli_json_set_stop(int (*stop)(void *ud), void *ud)
{
    json_stop = stop;
    json_stop_ud = ud;
    json_work = 0;
    json_stopped = 0;
}

int
cli_json_stopped(void)
{
    return json_stopped;
}

json_t *
cli_json_mpz(const mpz_t x)
{
    char *s;
    json_t *v;
    if (json_stop != NULL) {
        /* a number costs its digits and about as much again in the
           tree; 16 KiB of them is some 20 us */
        json_work += mpz_sizeinbase(x, 10) + 24;
        if (!json_stopped && json_work >= 16384) {
            json_work = 0;
            json_stopped = json_stop(json_stop_ud) != 0;
        }
        if (json_stopped)
            return json_null();
    }
    s = mpz_get_str(NULL, 10, x);
    v = s ? json_string(s) : NULL;
    free(s);
    return v;
}

static json_t *
numbers_of(const mpz_t *v, size_t n)
{
    json_t *a = json_array();
    size_t i;
    for (i = 0; a != NULL && i < n; i++)
        json_array_append_new(a, cli_json_mpz(v[i]));
    return a;
}

json_t *
cli_json_numbers(const bt_position *p)
{
    json_t *a = json_array();
    size_t i, n = bt_position_size(p);
    for (i = 0; a != NULL && i < n; i++) {
        const mpz_t *v = bt_position_nums(p, i);
        size_t j, ar = bt_position_count(p, i);
        for (j = 0; j < ar; j++)
            json_array_append_new(a, cli_json_mpz(v[j]));
    }
    return a;
}

json_t *
cli_json_move(const bt_move *m)
{
    return json_pack("{s:I,s:o,s:s}", "component",
                     (json_int_t)(m->component + 1), "to",
                     numbers_of((const mpz_t *)m->to, m->nto), "text",
                     m->text ? m->text : "");
}

json_t *
cli_json_play(const bt_move *m, const bt_play_info *info)
{
    json_t *o = cli_json_move(m);
    if (o == NULL)
        return NULL;
    /* the outcome of the position moved from: null when not known (a
       random move, or misère play beyond exact analysis) */
    json_object_set_new(o, "outcome",
                        !info->outcome_known ? json_null()
                        : info->outcome == BT_N ? json_string("N")
                                                : json_string("P"));
    json_object_set_new(o, "rule", json_string(bt_rule_name(info->rule)));
    json_object_set_new(o, "remoteness_known",
                        json_boolean(info->remoteness_known));
    return o;
}

static void set_period(json_t *o, int has, size_t period, size_t preperiod,
                       int proved);

/* The element of component i where the misère quotient answered:
   "element", and "as_heap" for a heap past the quotient's bound, whose
   element is that of a smaller heap through the proved period. */
static void
add_heap_element(json_t *c, const bt_position *p, const bt_analysis *a,
                 size_t i)
{
    size_t as_heap;
    const char *el = bt_analysis_heap_element(a, i, &as_heap);
    if (c == NULL || el == NULL)
        return;
    json_object_set_new(c, "element", json_string(el));
    if (mpz_cmp_ui(bt_position_nums(p, i)[0], (unsigned long)as_heap) != 0)
        json_object_set_new(c, "as_heap", json_integer((json_int_t)as_heap));
}

/* The misère quotient through which an analysis answered (the member
   "quotient" of an analysis; the names of /v1/quotient's answer). */
json_t *
cli_json_quotient_facts(const bt_quotient_facts *f)
{
    json_t *o = json_pack("{s:s,s:I,s:I,s:I}", "game", f->game, "upto",
                          (json_int_t)f->upto, "order", (json_int_t)f->order,
                          "p_portion", (json_int_t)f->p_count);
    if (o == NULL)
        return NULL;
    set_period(o, f->proved, f->period, f->preperiod, f->proved);
    json_object_set_new(o, "loaded", json_boolean(f->loaded));
    {
        json_t *p = json_array();
        size_t i;
        for (i = 0; p != NULL && i < f->p_count; i++)
            json_array_append_new(p, json_string(f->p[i]));
        json_object_set_new(o, "p", p);
    }
    json_object_set_new(o, "element", json_string(f->element));
    json_object_set_new(o, "in_p", json_boolean(f->in_p));
    return o;
}

void
cli_json_play_quotient(json_t *o, const bt_position *p, const bt_move *m,
                       const bt_play_info *info, const bt_limits *lim)
{
    bt_analysis *a = NULL, *b = NULL;
    bt_position *q = NULL;
    const bt_quotient_facts *f, *g;
    if (o == NULL || !info->outcome_known || !op_all_heaps(p) ||
        bt_analyze(&a, p, BT_MISERE | BT_NO_MOVES, lim, NULL) != BT_OK ||
        (f = bt_analysis_quotient(a)) == NULL) {
        bt_analysis_free(a);
        return;
    }
    json_object_set_new(o, "quotient", cli_json_quotient_facts(f));
    /* the element left, when the same quotient names it (the empty sum
       left by the last move is no analysis of the quotient's) */
    if (bt_position_copy(&q, p) == BT_OK && bt_position_apply(q, m) == BT_OK &&
        bt_analyze(&b, q, BT_MISERE | BT_NO_MOVES, lim, NULL) == BT_OK &&
        (g = bt_analysis_quotient(b)) != NULL && op_same_quotient(g, f))
        json_object_set_new(o, "element", json_string(g->element));
    bt_analysis_free(b);
    bt_position_free(q);
    bt_analysis_free(a);
}

json_t *
cli_json_analysis(const bt_position *p, const bt_analysis *a)
{
    bt_game *single = bt_position_single_game(p);
    json_t *o = json_object(), *moves = json_array();
    size_t i, n = bt_position_size(p);
    /* the misère quotient's reasoning as data goes with the explanation:
       like its text, it says how the quotient was had (learnt to a
       bound, loaded), which the answer itself does not depend on */
    int explained = bt_analysis_explanation(a) != NULL;
    mpz_t g;

    if (o == NULL || moves == NULL) {
        json_decref(o);
        json_decref(moves);
        return NULL;
    }
    mpz_init(g);
    if (single != NULL) {
        json_object_set_new(o, "game", json_string(bt_game_spec(single)));
        json_object_set_new(o, "misere",
                            json_boolean(bt_analysis_is_misere(a)));
        json_object_set_new(o, "position", cli_json_numbers(p));
    } else {
        char *text = bt_position_format(p);
        json_object_set_new(o, "game", json_string("sum"));
        json_object_set_new(o, "misere",
                            json_boolean(bt_analysis_is_misere(a)));
        json_object_set_new(o, "position", json_string(text ? text : ""));
        free(text);
    }
    json_object_set_new(o, "outcome",
                        json_string(bt_analysis_outcome(a) == BT_P ? "P"
                                                                   : "N"));
    if (bt_analysis_grundy(g, a) == BT_OK)
        json_object_set_new(o, "grundy", cli_json_mpz(g));
    /* each component's own value, except for plain Nim, where it is the
       pile itself and would only repeat the position: the answer's shape
       for the game Nim itself (docs/api.md), not a capability */
    if (single == NULL || !bt_game_is_nim(single)) {
        json_t *comps = json_array();
        for (i = 0; i < n; i++) {
            bt_game *cg = bt_position_game(p, i);
            json_t *c = json_pack(
                "{s:s,s:o}", "game", bt_game_spec(cg), "position",
                numbers_of(bt_position_nums(p, i), bt_position_count(p, i)));
            if (bt_analysis_component_grundy(g, a, i) == BT_OK)
                json_object_set_new(c, "grundy", cli_json_mpz(g));
            if (explained)
                add_heap_element(c, p, a, i);
            json_array_append_new(comps, c);
        }
        json_object_set_new(o, "components", comps);
    }
    for (i = 0; i < bt_analysis_move_count(a); i++) {
        json_t *m = cli_json_move(bt_analysis_move(a, i));
        const char *el = explained ? bt_analysis_move_element(a, i) : NULL;
        if (m != NULL && el != NULL)
            json_object_set_new(m, "element", json_string(el));
        json_array_append_new(moves, m);
    }
    json_object_set_new(o, "winning_moves", moves);
    if (!bt_analysis_moves_complete(a))
        json_object_set_new(o, "winning_moves_complete", json_false());
    if (bt_analysis_moves_note(a) != NULL)
        json_object_set_new(o, "winning_moves_note",
                            json_string(bt_analysis_moves_note(a)));
    /* remoteness grows with the input: a decimal string; null with the
       reason when it was asked for but left out (its budget passed) */
    if (bt_analysis_remoteness_mpz(g, a) == BT_OK) {
        json_object_set_new(o, "remoteness", cli_json_mpz(g));
    } else if (bt_analysis_remoteness_reason(a) != NULL) {
        json_object_set_new(o, "remoteness", json_null());
        json_object_set_new(o, "remoteness_reason",
                            json_string(bt_analysis_remoteness_reason(a)));
    }
    if (explained && bt_analysis_quotient(a) != NULL)
        json_object_set_new(o, "quotient",
                            cli_json_quotient_facts(bt_analysis_quotient(a)));
    if (bt_analysis_explanation(a) != NULL)
        json_object_set_new(o, "explanation",
                            json_string(bt_analysis_explanation(a)));
    mpz_clear(g);
    return o;
}

json_t *
cli_json_random_starts(int misere, size_t k, const mpz_t max,
                       const mpz_t all, const mpz_t wins)
{
    json_t *o = json_object();
    mpq_t share;
    char *q;

    if (o == NULL)
        return NULL;
    mpq_init(share);
    mpq_set_num(share, wins);
    mpq_set_den(share, all);
    mpq_canonicalize(share);
    q = mpq_get_str(NULL, 10, share);
    json_object_set_new(o, "game", json_string("nim"));
    json_object_set_new(o, "misere", json_boolean(misere));
    json_object_set_new(o, "piles", json_integer((json_int_t)k));
    json_object_set_new(o, "max", cli_json_mpz(max));
    json_object_set_new(o, "starts", cli_json_mpz(all));
    json_object_set_new(o, "first_player_wins", cli_json_mpz(wins));
    /* a whole number keeps the fraction's form, as count writes it */
    json_object_set_new(o, "probability",
                        q == NULL ? json_string("?")
                        : mpz_cmp_ui(mpq_denref(share), 1) == 0
                            ? json_sprintf("%s/1", q)
                            : json_string(q));
    free(q);
    mpq_clear(share);
    if (json_object_size(o) != 7u) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *
cli_json_count(const bt_game *g, size_t k, const mpz_t min, const mpz_t max,
               int ordered, int misere, const mpz_t pos, const mpz_t pp,
               mpq_srcptr q)
{
    json_t *o = json_object();
    char *s;
    mpz_t kz;
    if (o == NULL)
        return NULL;
    /* Nim is the count's default game (Bouton's sec. 3): its answer
       names no game */
    if (!bt_game_is_nim(g))
        json_object_set_new(o, "game", json_string(bt_game_spec(g)));
    mpz_init_set_ui(kz, (unsigned long)k);
    json_object_set_new(o, "piles", cli_json_mpz(kz));
    mpz_clear(kz);
    json_object_set_new(o, "min", cli_json_mpz(min));
    json_object_set_new(o, "max", cli_json_mpz(max));
    json_object_set_new(o, "ordered", json_boolean(ordered));
    json_object_set_new(o, "misere", json_boolean(misere));
    json_object_set_new(o, "positions", cli_json_mpz(pos));
    json_object_set_new(o, "p_positions", cli_json_mpz(pp));
    s = mpq_get_str(NULL, 10, q);
    if (s == NULL) {
        json_decref(o);
        return NULL;
    }
    /* a whole number prints without "/1": keep the fraction's form */
    if (strchr(s, '/') == NULL) {
        json_object_set_new(o, "probability",
                            json_string(mpz_sgn(pp) ? "1/1" : "0/1"));
    } else {
        json_object_set_new(o, "probability", json_string(s));
    }
    free(s);
    if (json_object_size(o) != (bt_game_is_nim(g) ? 8u : 9u)) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *
cli_json_pair(const bt_game *g, int misere, const mpz_t n, const mpz_t lo,
              const mpz_t hi)
{
    return json_pack("{s:s,s:b,s:o,s:[o,o]}", "game", bt_game_spec(g),
                     "misere", misere, "n", cli_json_mpz(n), "pair",
                     cli_json_mpz(lo), cli_json_mpz(hi));
}

json_t *
cli_json_nimber(const char *text, const mpz_t value, const char *explanation)
{
    json_t *o = json_pack("{s:s,s:o}", "expression", text, "value",
                          cli_json_mpz(value));
    if (o != NULL && explanation != NULL &&
        json_object_set_new(o, "explanation", json_string(explanation)) !=
            0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *
cli_json_index_of(const mpz_t x, const mpz_t n, int upper, const mpz_t lo,
                  const mpz_t hi)
{
    return json_pack("{s:o,s:o,s:s,s:[o,o]}", "x", cli_json_mpz(x), "n",
                     cli_json_mpz(n), "member", upper ? "upper" : "lower",
                     "pair", cli_json_mpz(lo), cli_json_mpz(hi));
}

/*
 * A compact JSON writer, byte for byte what jansson's json_dumpb() prints
 * with JSON_COMPACT | JSON_ENSURE_ASCII (the CLI's cli_json_print): members
 * in insertion order, "," and ":" without blanks, strings escaped as
 * jansson escapes them (\" \\ \b \f \n \r \t, other controls and every
 * non-ASCII code point as \uXXXX in upper case, UTF-16 pairs beyond the
 * BMP).  It exists because jansson 2.14's dump formats a pointer with
 * snprintf and hashes it for every array and object it writes (its loop
 * check), which was a third of the time of an answer.  The fuzzer
 * compares every answer with json_dumpb(), so the two cannot drift apart
 * unseen.
 */
typedef struct wbuf {
    char *p;
    size_t len, cap;
    int failed;
} wbuf;

/* jansson's allocator (the server's sets one that charges its request,
   server_api_mem.c), so that the text is charged where its tree is. */
static void *
w_alloc(size_t n)
{
    json_malloc_t m;
    json_free_t f;

    json_get_alloc_funcs(&m, &f);
    return m(n);
}

void
cli_json_free(void *p)
{
    json_malloc_t m;
    json_free_t f;

    json_get_alloc_funcs(&m, &f);
    f(p);
}

static void
w_put(wbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (n + 2 > b->cap - b->len) {
        size_t cap = b->cap * 2;
        char *p;

        while (cap - b->len < n + 2)
            cap *= 2;
        p = w_alloc(cap); /* jansson's allocators have no realloc */
        if (!p) {
            b->failed = 1;
            return;
        }
        memcpy(p, b->p, b->len);
        cli_json_free(b->p);
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void
w_hex4(wbuf *b, unsigned u)
{
    static const char hex[] = "0123456789ABCDEF";
    char seq[6] = {'\\', 'u', hex[(u >> 12) & 15], hex[(u >> 8) & 15],
                   hex[(u >> 4) & 15], hex[u & 15]};

    w_put(b, seq, 6);
}

static void
w_string(wbuf *b, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, run;

    w_put(b, "\"", 1);
    while (i < n) {
        for (run = i; run < n && u[run] >= 0x20 && u[run] < 0x80 &&
                      u[run] != '"' && u[run] != '\\';
             run++)
            ;
        w_put(b, s + i, run - i);
        if (run == n)
            break;
        i = run;
        if (u[i] < 0x80) {
            const char *esc = NULL;

            switch (u[i]) {
            case '"': esc = "\\\""; break;
            case '\\': esc = "\\\\"; break;
            case '\b': esc = "\\b"; break;
            case '\f': esc = "\\f"; break;
            case '\n': esc = "\\n"; break;
            case '\r': esc = "\\r"; break;
            case '\t': esc = "\\t"; break;
            default: break;
            }
            if (esc)
                w_put(b, esc, 2);
            else
                w_hex4(b, u[i]);
            i++;
        } else {
            /* jansson keeps strings valid UTF-8: decode one code point */
            unsigned cp;
            size_t len = u[i] >= 0xF0 ? 4 : u[i] >= 0xE0 ? 3 : 2, k;

            cp = u[i] & (len == 4 ? 0x07u : len == 3 ? 0x0Fu : 0x1Fu);
            for (k = 1; k < len && i + k < n; k++)
                cp = (cp << 6) | (u[i + k] & 0x3Fu);
            if (cp < 0x10000) {
                w_hex4(b, cp);
            } else {
                cp -= 0x10000;
                w_hex4(b, 0xD800 | ((cp >> 10) & 0x3FF));
                w_hex4(b, 0xDC00 | (cp & 0x3FF));
            }
            i += len;
        }
    }
    w_put(b, "\"", 1);
}

/* Returns -1 for what this writer leaves to jansson (reals). */
static int
w_value(wbuf *b, json_t *v)
{
    char num[32];
    size_t i, n;
    const char *key;
    json_t *x;
    int first = 1;

    switch (json_typeof(v)) {
    case JSON_OBJECT:
        w_put(b, "{", 1);
        json_object_foreach(v, key, x) {
            if (!first)
                w_put(b, ",", 1);
            first = 0;
            w_string(b, key, strlen(key));
            w_put(b, ":", 1);
            if (w_value(b, x) != 0)
                return -1;
        }
        w_put(b, "}", 1);
        return 0;
    case JSON_ARRAY:
        w_put(b, "[", 1);
        n = json_array_size(v);
        for (i = 0; i < n; i++) {
            if (i)
                w_put(b, ",", 1);
            if (w_value(b, json_array_get(v, i)) != 0)
                return -1;
        }
        w_put(b, "]", 1);
        return 0;
    case JSON_STRING:
        w_string(b, json_string_value(v), json_string_length(v));
        return 0;
    case JSON_INTEGER: {
        json_int_t iv = json_integer_value(v);
        unsigned long long u = iv < 0 ? 0ULL - (unsigned long long)iv
                                      : (unsigned long long)iv;
        char *end = num + sizeof num, *at = end;

        do {
            *--at = (char)('0' + u % 10);
            u /= 10;
        } while (u);
        if (iv < 0)
            *--at = '-';
        w_put(b, at, (size_t)(end - at));
        return 0;
    }
    case JSON_TRUE:
        w_put(b, "true", 4);
        return 0;
    case JSON_FALSE:
        w_put(b, "false", 5);
        return 0;
    case JSON_NULL:
        w_put(b, "null", 4);
        return 0;
    default:
        return -1;
    }
}

char *
cli_json_text(json_t *v, size_t *len)
{
    wbuf b = {NULL, 0, 512, 0};

    b.p = w_alloc(b.cap);
    if (b.p != NULL && w_value(&b, v) != 0) {
        /* a real: let jansson print the whole value */
        char *text = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);

        b.len = 0;
        if (text)
            w_put(&b, text, strlen(text));
        else
            b.failed = 1;
        cli_json_free(text);
    }
    if (b.p == NULL || b.failed) {
        cli_json_free(b.p);
        return NULL;
    }
    b.p[b.len] = '\n';
    b.p[b.len + 1] = '\0';
    *len = b.len + 1;
    return b.p;
}

int
cli_json_print(json_t *v)
{
    size_t len = 0;
    char *text = v ? cli_json_text(v, &len) : NULL;
    int rc;

    json_decref(v);
    if (text == NULL) {
        fprintf(stderr, "bouton: out of memory\n");
        return CLI_FAIL;
    }
    rc = fwrite(text, 1, len, stdout) != len;
    cli_json_free(text);
    if (rc)
        (void)cli_stdout_check(0); /* keeps the reason for main */
    return rc ? CLI_FAIL : CLI_OK;
}

/* Sets o's "period" and "preperiod" (null when has is 0) and "proved". */
static void
set_period(json_t *o, int has, size_t period, size_t preperiod, int proved)
{
    json_object_set_new(o, "period", has ? json_integer((json_int_t)period)
                                         : json_null());
    json_object_set_new(o, "preperiod",
                        has ? json_integer((json_int_t)preperiod)
                            : json_null());
    json_object_set_new(o, "proved", json_boolean(proved));
}

json_t *
cli_json_sequence(const bt_game *g, const bt_sequence *s, size_t n,
                  int values)
{
    json_t *o = json_pack("{s:s,s:I}", "game", bt_game_spec(g), "upto",
                          (json_int_t)n);
    json_t *vals;
    size_t i, period, preperiod;
    int has_period = bt_sequence_period(s, &period, &preperiod);

    if (o && values) {
        vals = json_array();
        for (i = 0; vals && i < n; i++)
            if (json_array_append_new(
                    vals, json_integer((json_int_t)bt_sequence_value(s, i)))) {
                json_decref(vals);
                vals = NULL;
            }
        if (!vals || json_object_set_new(o, "values", vals) != 0) {
            json_decref(o);
            return NULL;
        }
    }
    if (o) {
        set_period(o, has_period, period, preperiod,
                   bt_sequence_is_proved(s));
        /* the most threads that ran at once: the engine's choice */
        json_object_set_new(
            o, "threads",
            json_integer((json_int_t)bt_sequence_threads_used(s)));
    }
    return o;
}

json_t *
cli_json_grundy_table(const bt_game *g, const bt_wythoff_sg *t, size_t below)
{
    json_t *rows = json_array();
    size_t x, y;

    for (x = 0; rows && x < below; x++) {
        json_t *row = json_array();

        for (y = 0; row && y < below; y++)
            if (json_array_append_new(
                    row, json_integer((json_int_t)bt_wythoff_sg_get(t, x, y))))
            {
                json_decref(row);
                row = NULL;
            }
        if (json_array_append_new(rows, row) != 0) {
            json_decref(rows);
            rows = NULL;
        }
    }
    return rows ? json_pack("{s:s,s:I,s:o}", "game", bt_game_spec(g),
                            "below", (json_int_t)below, "rows", rows)
                : NULL;
}

/* A misère quotient (bouton quotient --json, POST /v1/quotient). */
json_t *
cli_json_quotient(const bt_quotient *q, int table)
{
    size_t ord = bt_quotient_order(q), i, j, ng = bt_quotient_game_count(q);
    json_t *o = json_object(), *gens = json_array(), *rels = json_array();
    json_t *heaps = json_array(), *p = json_array();
    if (o == NULL || gens == NULL || rels == NULL || heaps == NULL ||
        p == NULL)
        goto fail;
    if (ng > 1) {
        /* a union of games: "game" names the sum, "games" lists them, a
           generator names its game and "heaps" has a list per game */
        json_t *names = json_array();
        char *sum = NULL;
        size_t len = 0;
        for (i = 0; i < ng; i++) {
            const char *sp = bt_game_spec(bt_quotient_game_at(q, i));
            char *t = realloc(sum, len + strlen(sp) + 4);
            if (t == NULL) {
                free(sum);
                json_decref(names);
                goto fail;
            }
            sum = t;
            len += (size_t)sprintf(sum + len, "%s%s", i ? " + " : "", sp);
            json_array_append_new(names, json_string(sp));
        }
        json_object_set_new(o, "game", json_string(sum));
        json_object_set_new(o, "games", names);
        free(sum);
    } else {
        json_object_set_new(o, "game",
                            json_string(bt_game_spec(bt_quotient_game(q))));
    }
    json_object_set_new(o, "upto", json_integer((json_int_t)bt_quotient_upto(q)));
    json_object_set_new(o, "order", json_integer((json_int_t)ord));
    json_object_set_new(o, "p_portion",
                        json_integer((json_int_t)bt_quotient_p_count(q)));
    json_object_set_new(o, "tame", json_boolean(bt_quotient_is_tame(q)));
    for (i = 0; i < bt_quotient_generator_count(q); i++) {
        json_t *gen = json_pack("{s:s,s:I}", "name",
                                bt_quotient_generator_name(q, i), "heap",
                                (json_int_t)bt_quotient_generator_heap(q, i));
        if (gen != NULL && ng > 1)
            json_object_set_new(
                gen, "game",
                json_string(bt_game_spec(bt_quotient_game_at(
                    q, bt_quotient_generator_game(q, i)))));
        json_array_append_new(gens, gen);
    }
    json_object_set_new(o, "generators", gens);
    gens = NULL;
    for (i = 0; i < bt_quotient_relation_count(q); i++)
        json_array_append_new(rels, json_string(bt_quotient_relation(q, i)));
    json_object_set_new(o, "relations", rels);
    rels = NULL;
    for (j = 0; j < ng; j++) {
        json_t *row = ng > 1 ? json_array() : heaps;
        for (i = 0; row != NULL && i <= bt_quotient_upto(q); i++)
            json_array_append_new(
                row,
                json_string(bt_quotient_word(q, bt_quotient_heap_of(q, j, i))));
        if (ng > 1)
            json_array_append_new(heaps, row);
    }
    json_object_set_new(o, "heaps", heaps);
    heaps = NULL;
    for (i = 0; i < ord; i++)
        if (bt_quotient_is_p(q, i))
            json_array_append_new(p, json_string(bt_quotient_word(q, i)));
    json_object_set_new(o, "p", p);
    p = NULL;
    {
        size_t per, pre;
        int proved = bt_quotient_period(q, &per, &pre);
        set_period(o, proved, per, pre, proved);
    }
    if (table) {
        json_t *els = json_array(), *tab = json_array();
        if (els == NULL || tab == NULL) {
            json_decref(els);
            json_decref(tab);
            goto fail;
        }
        for (i = 0; i < ord; i++) {
            json_t *r = json_array();
            json_array_append_new(els, json_string(bt_quotient_word(q, i)));
            for (j = 0; r && j < ord; j++)
                json_array_append_new(r, json_integer((json_int_t)
                                                          bt_quotient_mul(
                                                              q, i, j)));
            json_array_append_new(tab, r);
        }
        json_object_set_new(o, "elements", els);
        json_object_set_new(o, "table", tab);
    }
    return o;
fail:
    json_decref(o);
    json_decref(gens);
    json_decref(rels);
    json_decref(heaps);
    json_decref(p);
    return NULL;
}
