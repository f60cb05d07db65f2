/*
 * server_api_tables.c -- the endpoints of the HTTP API on tables and
 * sequences: /v1/table (paged), /v1/count, /v1/grundy, /v1/pair and
 * /v1/quotient.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_api.h"

/*
 * The cursor of /v1/table is the last row of the previous page, its numbers
 * joined by commas ("3,5,6"); the next page holds the rows after it in the
 * table's lexicographic order.  A shorter prefix is allowed ("3" starts at
 * the first row beginning with 3), so a client can also jump into a table.
 */
static int
parse_cursor(mpz_t *cur, size_t width, size_t *ncur, const char *s,
             const bt_limits *lim, srv_error *e)
{
    size_t n = 0;

    while (*s) {
        size_t len = 0;
        char buf[32], *dyn = NULL;
        const char *txt;

        while (s[len] >= '0' && s[len] <= '9')
            len++;
        if (len == 0 || (s[len] != ',' && s[len] != '\0') || n == width)
            return srv_fail(e, BT_EINVAL,
                            "\"cursor\": expected at most %zu decimal "
                            "numbers joined by commas (the last row of the "
                            "previous page)", width);
        if (len > lim->max_digits)
            return srv_fail(e, BT_ELIMIT, "\"cursor\": a number has "
                            "more than %zu digits", lim->max_digits);
        if (len < sizeof buf) {
            memcpy(buf, s, len);
            buf[len] = '\0';
            txt = buf;
        } else {
            dyn = srv_malloc(len + 1);
            if (!dyn)
                return srv_fail(e, BT_ENOMEM, "out of memory");
            memcpy(dyn, s, len);
            dyn[len] = '\0';
            txt = dyn;
        }
        mpz_set_str(cur[n++], txt, 10);
        srv_free(dyn);
        s += len;
        if (*s == ',') {
            s++;
            if (!*s)
                return srv_fail(e, BT_EINVAL,
                                "\"cursor\": ends with a comma");
        }
    }
    *ncur = n;
    return 0;
}

/* Compares a row of `width` numbers with a cursor of ncur <= width
   numbers lexicographically (a proper prefix is smaller). */
static int
row_cmp(mpz_t *row, size_t width, const mpz_t *cur, size_t ncur)
{
    size_t i;

    for (i = 0; i < ncur; i++) {
        int c = mpz_cmp(row[i], cur[i]);

        if (c)
            return c;
    }
    return ncur < width;
}

static json_t *
row_json(mpz_t *row, size_t width)
{
    json_t *a = json_array();
    size_t i;

    for (i = 0; a && i < width; i++)
        if (json_array_append_new(a, cli_json_mpz(row[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

/* The decimal digits of a row, a bound on its bytes in the answer less
   the quotes and commas. */
static size_t
row_digits(mpz_t *row, size_t width)
{
    size_t n = 0, i;

    for (i = 0; i < width; i++)
        n += mpz_sizeinbase(row[i], 10) + 4;
    return n;
}

/* The bytes of rows one page holds at most (besides its first row, which
   it always holds): past them the page ends short, with its `next`, as
   when the time budget runs out.  A page of 64 piles of 50 000 digits is
   thus 5 rows (16 MB), not the 64 rows (200 MB) it was. */
#define PAGE_BYTES ((size_t)16 << 20)

static char *
row_cursor(mpz_t *row, size_t width)
{
    size_t len = 1, i, at = 0;
    char *s;

    for (i = 0; i < width; i++)
        len += mpz_sizeinbase(row[i], 10) + 1;
    s = srv_malloc(len); /* charged to the request: up to 64 numbers of
                            max_digits */
    if (!s)
        return NULL;
    for (i = 0; i < width; i++) {
        if (i)
            s[at++] = ',';
        mpz_get_str(s + at, 10, row[i]);
        at += strlen(s + at);
    }
    s[at] = '\0';
    return s;
}

int
api_table(json_t **out, json_t *req, const srv_config *cfg,
          const bt_limits *lim, srv_error *e)
{
    const char *spec, *cursor;
    bt_game *g = NULL;
    bt_table *t = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    mpz_t min, below, *row = NULL, *cur = NULL;
    size_t piles, limit, width = 0, ncur = 0, i, got = 0, skipped = 0,
                             bytes = 0;
    int misere, rc = -1, r = 0;
    json_t *rows = NULL;
    char *next = NULL;

    mpz_init(min);
    mpz_init(below);
    if (srv_check_op(req, "/v1/table", NULL, e) != 0 ||
        srv_get_string(req, "game", "nim", &spec, e) != 0 ||
        srv_get_bool(req, "misere", 0, &misere, e) != 0 ||
        srv_get_string(req, "cursor", NULL, &cursor, e) != 0 ||
        srv_get_size(req, "limit", cfg->max_page < 100 ? cfg->max_page : 100,
                     1, cfg->max_page, &limit, e) != 0 ||
        srv_get_mpz(req, "below", below, lim, e) != 0 ||
        (json_object_get(req, "min") &&
         srv_get_mpz(req, "min", min, lim, e) != 0) ||
        srv_new_game(&g, spec, e) != 0)
        goto done;
    if (srv_get_size(req, "piles", op_table_default_piles(g), 1,
                     lim->max_table_piles, &piles, e) != 0)
        goto done;
    if (piles == 0) {
        srv_fail(e, BT_EINVAL, "\"piles\" is required for %s",
                 bt_game_spec(g));
        goto done;
    }
    st = bt_table_new(&t, g, misere, piles, min, below, lim, &diag);
    if (st != BT_OK) {
        srv_fail_status(e, st, &diag, NULL);
        goto done;
    }
    width = bt_table_width(t);
    row = malloc(width * sizeof *row);
    cur = malloc(width * sizeof *cur);
    rows = json_array();
    if (!row || !cur || !rows) {
        free(row);
        free(cur);
        row = cur = NULL;
        width = 0;
        srv_fail(e, BT_ENOMEM, "out of memory");
        goto done;
    }
    for (i = 0; i < width; i++) {
        mpz_init(row[i]);
        mpz_init(cur[i]);
    }
    if (cursor && parse_cursor(cur, width, &ncur, cursor, lim, e) != 0)
        goto done;
    /*
     * The table streams in lexicographic order and cannot seek, so a later
     * page re-walks the rows before it; the time budget bounds that walk.
     */
    while (cursor && (r = bt_table_next(t, row)) == 1 &&
           row_cmp(row, width, (const mpz_t *)cur, ncur) <= 0)
        if (++skipped % 1024 == 0 && lim->interrupt &&
            lim->interrupt(lim->interrupt_ud)) {
            r = -BT_EINTR;
            break;
        }
    if (!cursor)
        r = bt_table_next(t, row);
    /*
     * `cur` keeps the last row sent, whose text is the page's `next`, made
     * once at the end (a row's decimal text costs as much as its JSON).
     */
    while (r == 1) {
        size_t n = row_digits(row, width);

        if (got == limit || (got > 0 && n > PAGE_BYTES - bytes))
            break; /* more rows: next (the last row sent) goes on */
        if (json_array_append_new(rows, row_json(row, width)) != 0) {
            srv_fail(e, BT_ENOMEM, "out of memory");
            goto done;
        }
        got++;
        bytes += n < PAGE_BYTES ? n : PAGE_BYTES;
        for (i = 0; i < width; i++)
            mpz_set(cur[i], row[i]);
        /* Out of time with rows in hand: a short page that can go on.  A
           row of many long numbers costs as much as thousands of short
           ones, so the clock is read at every row. */
        if (lim->interrupt && lim->interrupt(lim->interrupt_ud))
            break;
        r = bt_table_next(t, row);
    }
    if (got > 0 && r != 0) {
        next = row_cursor(cur, width);
        if (!next) {
            srv_fail(e, BT_ENOMEM, "out of memory");
            goto done;
        }
    }
    if (r < 0) {
        if (-r == BT_EINTR && got > 0) {
            r = 1; /* a short page; next is its last row */
        } else {
            st = (bt_status)-r;
            srv_fail(e, st, "%s",
                     st == BT_EINTR ? "the time budget ran out before the "
                                      "page began; ask for an earlier cursor"
                                    : bt_strerror(st));
            goto done;
        }
    }
    if (r == 0) {
        srv_free(next);
        next = NULL;
    }
    rc = srv_answer(out, e, BT_OK, NULL,
                    json_pack("{s:s,s:b,s:I,s:o,s:o,s:o,s:o}", "game",
                              bt_game_spec(g), "misere", misere, "piles",
                              (json_int_t)piles, "min", cli_json_mpz(min),
                              "below", cli_json_mpz(below), "rows", rows,
                              "next", next ? json_string(next) : json_null()));
    rows = NULL;
done:
    for (i = 0; i < width; i++) {
        mpz_clear(row[i]);
        mpz_clear(cur[i]);
    }
    free(row);
    free(cur);
    srv_free(next);
    json_decref(rows);
    bt_table_free(t);
    bt_game_free(g);
    mpz_clear(min);
    mpz_clear(below);
    return rc;
}

/* /v1/count: Bouton's sec. 3 counts, as `bouton count --json` prints. */
int
api_count(json_t **out, json_t *req, const srv_config *cfg,
          const bt_limits *lim, srv_error *e)
{
    const char *spec;
    bt_game *g = NULL;
    mpz_t min, max, pos, ppos;
    mpq_t prob;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    size_t piles;
    int ordered, misere, by_below, rc = -1;

    (void)cfg;
    mpz_inits(min, max, pos, ppos, NULL);
    mpq_init(prob);
    if (srv_check_op(req, "/v1/count", NULL, e) != 0 ||
        srv_get_string(req, "game", "nim", &spec, e) != 0 ||
        srv_new_game(&g, spec, e) != 0 ||
        srv_get_bool(req, "ordered", 0, &ordered, e) != 0 ||
        srv_get_bool(req, "misere", 0, &misere, e) != 0 ||
        srv_get_size(req, "piles", (size_t)-1, 0, lim->max_table_piles,
                     &piles, e) != 0 ||
        (json_object_get(req, "min") &&
         srv_get_mpz(req, "min", min, lim, e) != 0))
        goto done;
    if (piles == (size_t)-1) {
        srv_fail(e, BT_EINVAL, "\"piles\" is required");
        goto done;
    }
    by_below = json_object_get(req, "below") != NULL;
    st = op_count_bound_given(OP_API, json_object_get(req, "max") != NULL,
                              by_below, &diag);
    if (st != BT_OK) {
        srv_fail_status(e, st, &diag, NULL);
        goto done;
    }
    if (srv_get_mpz(req, by_below ? "below" : "max", max, lim, e) != 0)
        goto done;
    st = op_pile_range(OP_API, min, max, by_below, max, &diag);
    if (st != BT_OK) {
        srv_fail_status(e, st, &diag, NULL);
        goto done;
    }
    st = bt_game_count(pos, ppos, prob, g, piles, min, max,
                       (misere ? BT_MISERE : 0u) |
                           (ordered ? BT_COUNT_ORDERED : 0u),
                       lim, &diag);
    rc = srv_answer(out, e, st, &diag,
                    st == BT_OK ? cli_json_count(g, piles, min, max, ordered,
                                                 misere, pos, ppos, prob)
                                : NULL);
done:
    bt_game_free(g);
    mpq_clear(prob);
    mpz_clears(min, max, pos, ppos, NULL);
    return rc;
}

/* The table of G(x, y), x, y < below, of a Wythoff game, as `bouton
   grundy --game wythoff --below N --json` prints it. */
static int
grundy_wythoff(json_t **out, json_t *req, bt_game *g, const srv_config *cfg,
               const bt_limits *lim, srv_error *e)
{
    bt_wythoff_sg *t = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    size_t below;
    int rc;

    if (srv_check_op(req, "/v1/grundy", "table", e) != 0 ||
        srv_get_size(req, "below", (size_t)-1, 1, lim->max_grundy, &below,
                     e) != 0)
        return -1;
    if (below == (size_t)-1)
        return srv_fail(e, BT_EINVAL, "\"below\" is required for %s",
                        bt_game_spec(g));
    if (below > cfg->max_values / below)
        return srv_fail(e, BT_ELIMIT,
                        "a table of %zu x %zu values is over the limit of "
                        "%zu values in one answer", below, below,
                        cfg->max_values);
    st = bt_wythoff_sg_new(&t, g, below, lim, &diag);
    if (st != BT_OK)
        return srv_fail_status(e, st, &diag, NULL);
    rc = srv_answer(out, e, BT_OK, NULL, cli_json_grundy_table(g, t, below));
    bt_wythoff_sg_free(t);
    return rc;
}

/* /v1/grundy: a heap game's Grundy sequence with its period, as `bouton
   grundy --json` prints it; for the Wythoff family, the table G(x, y). */
int
api_grundy(json_t **out, json_t *req, const srv_config *cfg,
           const bt_limits *lim, srv_error *e)
{
    const char *spec;
    bt_game *g = NULL;
    bt_sequence *s = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    size_t upto, n;
    int until, novalues, rc = -1;

    if (srv_get_string(req, "game", NULL, &spec, e) != 0)
        return -1;
    if (!spec)
        return srv_fail(e, BT_EINVAL, "\"game\" is required");
    if (srv_new_game(&g, spec, e) != 0)
        return -1;
    if (op_grundy_is_table(g)) {
        rc = grundy_wythoff(out, req, g, cfg, lim, e);
        bt_game_free(g);
        return rc;
    }
    if (srv_check_op(req, "/v1/grundy", "sequence", e) != 0 ||
        srv_get_bool(req, "until_proved", 0, &until, e) != 0 ||
        srv_get_bool(req, "no_values", 0, &novalues, e) != 0 ||
        srv_get_size(req, "upto", until ? lim->max_grundy : (size_t)-1, 0,
                     lim->max_grundy, &upto, e) != 0)
        goto done;
    if (upto == (size_t)-1) {
        srv_fail(e, BT_EINVAL, "\"upto\" is required (or "
                 "\"until_proved\": true)");
        goto done;
    }
    if (!novalues && !until && upto > cfg->max_values) {
        srv_fail(e, BT_ELIMIT, "%zu values are over the limit of %zu "
                 "values in one answer; ask with \"no_values\": true",
                 upto, cfg->max_values);
        goto done;
    }
    if ((st = op_grundy_sequence(OP_API, g, spec, &diag)) != BT_OK) {
        srv_fail_status(e, st, &diag, NULL);
        goto done;
    }
    st = bt_sequence_new(&s, g, BT_SEQ_AUTO, &diag);
    if (st == BT_OK)
        st = until ? bt_sequence_prove(s, upto, lim, &diag)
                   : bt_sequence_compute(s, upto, lim, &diag);
    if (st != BT_OK) {
        srv_fail_status(e, st, &diag, NULL);
        goto done;
    }
    /* compute may go past upto; the answer is what was asked for */
    n = until ? bt_sequence_length(s) : upto;
    if (!novalues && n > cfg->max_values) {
        srv_fail(e, BT_ELIMIT, "%zu values are over the limit of %zu "
                 "values in one answer; ask with \"no_values\": true", n,
                 cfg->max_values);
        goto done;
    }
    rc = srv_answer(out, e, BT_OK, NULL,
                    cli_json_sequence(g, s, n, !novalues));
done:
    bt_sequence_free(s);
    bt_game_free(g);
    return rc;
}

/* /v1/pair: the n-th safe pair of a Wythoff game, or the pair of x, as
   `bouton pair --json` prints them. */
int
api_pair(json_t **out, json_t *req, const srv_config *cfg,
         const bt_limits *lim, srv_error *e)
{
    const char *spec;
    bt_game *g = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    bt_wythoff_member member;
    mpz_t n, x, lo, hi;
    int misere, rc = -1, by_x;

    (void)cfg;
    mpz_inits(n, x, lo, hi, NULL);
    if (srv_check_op(req, "/v1/pair", NULL, e) != 0 ||
        srv_get_string(req, "game", "wythoff", &spec, e) != 0 ||
        srv_get_bool(req, "misere", 0, &misere, e) != 0)
        goto done;
    by_x = json_object_get(req, "index_of") != NULL;
    if (by_x == (json_object_get(req, "n") != NULL)) {
        srv_fail(e, BT_EINVAL, "give exactly one of \"n\" and "
                 "\"index_of\"");
        goto done;
    }
    if ((by_x ? srv_get_mpz(req, "index_of", x, lim, e)
              : srv_get_mpz(req, "n", n, lim, e)) != 0 ||
        srv_new_game(&g, spec, e) != 0)
        goto done;
    if ((st = op_pair_game(OP_API, g, spec, &diag)) != BT_OK) {
        srv_fail_status(e, st, &diag, NULL);
        goto done;
    }
    st = by_x ? bt_wythoff_index_of(n, &member, lo, hi, g, misere, x, lim,
                                    &diag)
              : bt_wythoff_pair(lo, hi, g, misere, n, lim, &diag);
    rc = srv_answer(out, e, st, &diag,
                    st != BT_OK ? NULL
                    : by_x      ? cli_json_index_of(x, n,
                                                    member == BT_WYTHOFF_UPPER,
                                                    lo, hi)
                                : cli_json_pair(g, misere, n, lo, hi));
done:
    bt_game_free(g);
    mpz_clears(n, x, lo, hi, NULL);
    return rc;
}

/* /v1/quotient: the misère quotient of a heap game's heaps up to "upto"
   (default 12), as `bouton quotient --json` prints it; "table": true adds
   the multiplication table.  "until_proved": heap by heap until the
   periodicity theorem proves the quotient of all heaps, up to "upto"
   heaps (default 1000; ELIMIT past it). */
int
api_quotient(json_t **out, json_t *req, const srv_config *cfg,
             const bt_limits *lim, srv_error *e)
{
    const char *spec;
    bt_game *games[4];
    bt_quotient *q = NULL;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    size_t upto, ng = 0, i;
    int table, until, rc;

    if (srv_check_op(req, "/v1/quotient", NULL, e) != 0 ||
        srv_get_string(req, "game", NULL, &spec, e) != 0 ||
        srv_get_bool(req, "table", 0, &table, e) != 0 ||
        srv_get_bool(req, "until_proved", 0, &until, e) != 0 ||
        srv_get_size(req, "upto", op_quotient_default_upto(until), 0, 4096,
                     &upto, e) != 0)
        return -1;
    if (!spec)
        return srv_fail(e, BT_EINVAL, "\"game\" is required");
    /* one game, or a sum of games: the quotient of the union of their
       heaps, as the misère analysis uses it */
    st = op_quotient_games(OP_API, spec, games, 4, &ng, &diag);
    if (st != BT_OK)
        return srv_fail_status(e, st, &diag, NULL);
    if (ng > 1 && until) {
        for (i = 0; i < ng; i++)
            bt_game_free(games[i]);
        return srv_fail(e, BT_EINVAL,
                        "\"until_proved\" is for the quotient of one game");
    }
    st = ng > 1   ? bt_quotient_new_sum(&q, games, ng, upto, lim, &diag)
         : until ? bt_quotient_new_until_proved(&q, games[0], upto, lim,
                                                &diag)
                 : bt_quotient_new(&q, games[0], upto, lim, &diag);
    if (st == BT_OK && until && cfg->store != NULL)
        cli_store_put(cfg->store, q); /* proved: kept for later */
    rc = srv_answer(out, e, st, &diag,
                    st == BT_OK ? cli_json_quotient(q, table) : NULL);
    bt_quotient_free(q);
    for (i = 0; i < ng; i++)
        bt_game_free(games[i]);
    return rc;
}

/* /v1/nimber: an expression of Nim's field, as `bouton nimber --json`
   evaluates it ("expression"; "explain": true adds the steps). */
int
api_nimber(json_t **out, json_t *req, const srv_config *cfg,
           const bt_limits *lim, srv_error *e)
{
    const char *text;
    bt_diag diag = {{0}, 0, 0};
    bt_status st;
    char *ex = NULL;
    int explain, rc;
    mpz_t v;

    (void)cfg;
    if (srv_check_op(req, "/v1/nimber", NULL, e) != 0 ||
        srv_get_string(req, "expression", NULL, &text, e) != 0 ||
        srv_get_bool(req, "explain", 0, &explain, e) != 0)
        return -1;
    if (text == NULL)
        return srv_fail(e, BT_EINVAL, "\"expression\" is required, e.g. "
                                      "\"2*3\"");
    mpz_init(v);
    st = nimexpr_eval(v, text, lim, explain ? &ex : NULL, &diag);
    rc = srv_answer(out, e, st, &diag,
                    st != BT_OK ? NULL : cli_json_nimber(text, v, ex));
    free(ex);
    mpz_clear(v);
    return rc;
}
