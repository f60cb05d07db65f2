/*
 * cmd_nimber.c -- `bouton nimber EXPR`: arithmetic in Nim's field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The usage and what the command does; its option lines come from the
   table of operations (programs/common/optable.c), then help_tail. */
static const char help_head[] =
    "usage: bouton nimber [--explain] [--hex] [--json] EXPR...\n\n"
    "Evaluates EXPR in Nim's field (Conway, On Numbers and Games, ch. 6), "
    "exactly, at\nany size; the words of EXPR are joined by spaces, and "
    "'-' reads it from\nstandard input.\n\n"
    "  a + b        the nim-sum (binary addition without carry)\n"
    "  a * b        the nim-product (x * F = xF for x below a Fermat "
    "2-power F,\n"
    "               F * F = 3F/2)\n"
    "  a ^ e        a nim-power: e an ordinary integer, negative for "
    "inverses\n"
    "  inv(a)  sqrt(a)      the inverse and the square root\n"
    "  order(a)  log(g, a)  the multiplicative order and the discrete "
    "logarithm,\n"
    "               for nimbers below 2^64\n"
    "  ( )  decimal or 0x hexadecimal numbers; * and ^ bind before +\n\n";
static const char help_tail[] =
    "\nexamples: bouton nimber '2*2'  (3)   bouton nimber --explain '8*8'  "
    "(13)\n"
    "          bouton nimber 'inv(2)'  (3)   bouton nimber 'log(2, 3)'  "
    "(2)\n";

/* The words of argv joined by spaces (malloc'd), or standard input for
   the one word "-". */
static char *
joined(int argc, char **argv, const bt_limits *lim)
{
    size_t len = 0, i;
    char *s;
    if (argc == 1 && strcmp(argv[0], "-") == 0)
        return cli_read_stdin("nimber", lim->max_text);
    for (i = 0; i < (size_t)argc; i++)
        len += strlen(argv[i]) + 1;
    s = malloc(len + 1);
    if (s == NULL) {
        fprintf(stderr, "bouton nimber: out of memory\n");
        return NULL;
    }
    s[0] = '\0';
    for (i = 0, len = 0; i < (size_t)argc; i++) {
        size_t n = strlen(argv[i]);
        if (i)
            s[len++] = ' ';
        memcpy(s + len, argv[i], n + 1);
        len += n;
    }
    return s;
}

int
cmd_nimber(int argc, char **argv)
{
    int explain = 0, hex = 0, json = 0, rc;
    const cli_opt opts[] = {CLI_FLAG("explain", &explain),
                            CLI_FLAG("hex", &hex), CLI_FLAG("json", &json),
                            CLI_END};
    bt_limits lim;
    bt_diag d;
    bt_status st;
    char *text, *ex = NULL;
    mpz_t v;

    rc = cli_options_help("nimber", argc, argv, help_head, help_tail, opts,
                          &lim);
    if (rc >= 0)
        return rc;
    if (optind >= argc)
        return cli_error("nimber", "give an expression, e.g. '2*3' (try "
                                   "--help)");
    text = joined(argc - optind, argv + optind, &lim);
    if (text == NULL)
        return CLI_FAIL;
    memset(&d, 0, sizeof d);
    mpz_init(v);
    st = nimexpr_eval(v, text, &lim, explain ? &ex : NULL, &d);
    if (st != BT_OK) {
        rc = cli_status_error("nimber", st, &d);
    } else if (json) {
        rc = cli_json_print(cli_json_nimber(text, v, ex));
    } else {
        if (ex)
            fputs(ex, stdout);
        if (hex) {
            fputs("0x", stdout);
            mpz_out_str(stdout, 16, v);
        } else {
            mpz_out_str(stdout, 10, v);
        }
        putchar('\n');
        rc = cli_stdout_check(1);
    }
    free(ex);
    free(text);
    mpz_clear(v);
    return rc;
}
