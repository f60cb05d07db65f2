/*
 * grundy_wythoff.c -- `bouton grundy --game wythoff[:A] --below N`: the
 * table of Sprague-Grundy values G(x, y), x, y < N, of Wythoff's game (or
 * of wythoff:A), row x holding G(x, 0), ..., G(x, N - 1).  The table is
 * computed once (bt_wythoff_sg_new) and printed row by row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Writes one row of the table: numbers separated by `sep`, each right-
   aligned in `width` characters (0: no padding). */
static int
print_row(const bt_wythoff_sg *t, size_t x, size_t n, const char *sep,
          int width, char *buf, size_t cap)
{
    size_t y, len = 0;
    for (y = 0; y < n; y++) {
        int k;
        if (len + 32 > cap) {
            if (fwrite(buf, 1, len, stdout) != len)
                return -1;
            len = 0;
        }
        k = snprintf(buf + len, cap - len, "%s%*u", y ? sep : "", width,
                     bt_wythoff_sg_get(t, x, y));
        if (k < 0)
            return -1;
        len += (size_t)k;
    }
    return fwrite(buf, 1, len, stdout) == len ? 0 : -1;
}

int
cli_grundy_wythoff(const char *game_spec, const char *below, int json,
                   const bt_limits *lim)
{
    bt_game *g = NULL;
    bt_wythoff_sg *t = NULL;
    bt_diag d;
    bt_status st;
    size_t n, x, y, cap = 1 << 16;
    unsigned top = 0;
    int rc = CLI_OK, width;
    char *buf = NULL;

    memset(&d, 0, sizeof d);
    if (below == NULL)
        return cli_error("grundy", "--below N is required");
    if (bt_game_new(&g, game_spec ? game_spec : "wythoff", &d) != BT_OK)
        return cli_error("grundy", "--game '%s': %s", game_spec, d.message);
    /* the table is Wythoff's own API (bt_wythoff_sg_*) */
    if (strcmp(bt_game_family(g), "wythoff") != 0) {
        bt_game_free(g);
        return cli_error("grundy", "--game '%s' is not a Wythoff game",
                         game_spec);
    }
    if (cli_parse_size("grundy", "--below", below, 1, lim->max_grundy, &n) <
        0) {
        bt_game_free(g);
        return CLI_USAGE;
    }
    st = bt_wythoff_sg_new(&t, g, n, lim, &d);
    if (st != BT_OK) {
        rc = cli_status_error("grundy", st, &d);
        goto done;
    }
    buf = malloc(cap);
    if (buf == NULL) {
        fprintf(stderr, "bouton grundy: out of memory\n");
        rc = CLI_FAIL;
        goto done;
    }
    if (json) {
        printf("{\"game\":\"%s\",\"below\":%zu,\"rows\":[", bt_game_spec(g), n);
        for (x = 0; x < n && rc == CLI_OK; x++) {
            fputs(x ? ",[" : "[", stdout);
            if (print_row(t, x, n, ",", 0, buf, cap) < 0)
                rc = CLI_FAIL, (void)cli_stdout_check(0);
            fputc(']', stdout);
        }
        fputs("]}\n", stdout);
    } else {
        /* columns as wide as the largest value */
        for (x = 0; x < n; x++)
            for (y = x; y < n; y++)
                if (bt_wythoff_sg_get(t, x, y) > top)
                    top = bt_wythoff_sg_get(t, x, y);
        width = snprintf(NULL, 0, "%u", top);
        for (x = 0; x < n && rc == CLI_OK; x++) {
            if (print_row(t, x, n, " ", width, buf, cap) < 0)
                rc = CLI_FAIL, (void)cli_stdout_check(0);
            fputc('\n', stdout);
        }
    }
    /* a failed write (print_row) stopped the rows; main reports it */
    if (cli_stdout_check(1) != CLI_OK)
        rc = CLI_FAIL;
done:
    free(buf);
    bt_wythoff_sg_free(t);
    bt_game_free(g);
    return rc;
}
