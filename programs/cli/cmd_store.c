/*
 * cmd_store.c -- `bouton store list|verify|clear`: the store of proved
 * results (programs/common/store.c, docs/store.md) shown, checked and
 * emptied.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The usage and what the command does; its option lines come from the
   table of operations (programs/common/optable.c). */
static const char help_head[] =
    "usage: bouton store list|verify|clear [--store DIR]\n\n"
    "The store of proved results: every misère quotient that a command "
    "proves\n(quotient --until-proved, analyze, move, play and replay "
    "with --misere) is\nkept there, as is a quotient computed past heap 26 "
    "(quotient --upto N)\nuntil one that says more replaces it; a later "
    "misère analysis reads it\nback after checking it exactly, as "
    "`--quotient FILE` is checked; a damaged\nentry is ignored with a "
    "warning and computed again.  The user's store is\n--store DIR, else "
    "$BOUTON_STORE, else\n"
    "$XDG_CACHE_HOME/bouton, else ~/.cache/bouton; an install ships "
    "entries for\nthe classical games in share/bouton/store, read after "
    "the user's.\nBOUTON_STORE=off (or a command's --no-store): no "
    "store.\n\n"
    "  list          each entry: layer, game, kind, bound, period, bytes\n"
    "  verify        check every entry exactly; exit 1 if any is bad\n"
    "  clear         remove the entries of the user's store (never the "
    "shipped\n"
    "                ones)\n";

/* One layer's entries listed (verify 0) or checked (verify 1); the
   number of bad ones. */
static size_t
show_layer(const char *layer, const char *dir, int verify,
           const bt_limits *lim)
{
    size_t n, i, bad = 0;
    char **names = cli_store_names(dir, 0, &n);
    for (i = 0; i < n; i++) {
        cli_store_info e;
        if (cli_store_entry(&e, dir, names[i], verify, lim, NULL) < 0) {
            bad++;
            printf("%-8s %s: bad: ", layer, names[i]);
            cli_fputs_safe(e.why, stdout);
            putchar('\n');
            continue;
        }
        printf("%-8s ", layer);
        cli_fputs_safe(e.game, stdout);
        printf("  misère quotient, to heap ");
        cli_fputs_safe(e.upto, stdout);
        {
            unsigned long per, pre;
            if (sscanf(e.period, "%lu %lu", &per, &pre) == 2)
                printf(", period %lu, preperiod %lu", per, pre);
            else
                printf(", not proved");
        }
        printf(", %zu bytes%s\n", e.bytes, verify ? ": ok" : "");
    }
    cli_store_names_free(names, n);
    return bad;
}

/* `store clear`: the user store's entries and the temporary files that
   interrupted writes left; a directory in an entry's place stays. */
static int
clear(const char *dir)
{
    size_t n, m, i, removed = 0;
    int rc = CLI_OK;
    char **names = cli_store_names(dir, 0, &n);
    char **left = cli_store_names(dir, 1, &m);
    for (i = 0; i < n + m; i++) {
        const char *name = i < n ? names[i] : left[i - n];
        size_t len = strlen(dir) + strlen(name) + 2;
        char *path = malloc(len);
        struct stat st;
        if (path == NULL) {
            rc = CLI_FAIL;
            break;
        }
        snprintf(path, len, "%s/%s", dir, name);
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            cli_error("store", "'%s' is a directory: left alone", path);
        } else if (unlink(path) == 0) {
            removed++;
        } else if (errno != ENOENT) {
            cli_error("store", "cannot remove '%s': %s", path,
                      strerror(errno));
            rc = CLI_FAIL;
        }
        free(path);
    }
    cli_store_names_free(names, n);
    cli_store_names_free(left, m);
    printf("removed %zu file%s from %s\n", removed, removed == 1 ? "" : "s",
           dir);
    return rc;
}

int
cmd_store(int argc, char **argv)
{
    const char *dir = NULL, *verb;
    const cli_opt opts[] = {CLI_TEXT("store", &dir), CLI_END};
    bt_limits lim;
    cli_store s;
    size_t bad = 0;
    int rc, verify;

    rc = cli_options_help("store", argc, argv, help_head, NULL, opts, &lim);
    if (rc >= 0)
        return rc;
    if (optind >= argc)
        return cli_error("store", "list, verify or clear? (try --help)");
    verb = argv[optind];
    if (optind + 1 < argc)
        return cli_error("store", "unexpected argument '%s'",
                         argv[optind + 1]);
    if (strcmp(verb, "list") != 0 && strcmp(verb, "verify") != 0 &&
        strcmp(verb, "clear") != 0)
        return cli_error("store",
                         "unknown action '%s' (list, verify or clear)", verb);
    if ((rc = cli_store_open(&s, "store", dir, 0, 1)) != CLI_OK)
        return rc;
    if (!s.on) {
        printf("no store (BOUTON_STORE=off)\n");
        cli_store_close(&s);
        return CLI_OK;
    }
    if (strcmp(verb, "clear") == 0) {
        rc = s.dir != NULL ? clear(s.dir)
                           : cli_error("store", "no user store (give "
                                                "--store DIR, or set HOME)");
        cli_store_close(&s);
        return rc;
    }
    verify = strcmp(verb, "verify") == 0;
    printf("user store:    ");
    cli_fputs_safe(s.dir ? s.dir : "none", stdout);
    printf("\nshipped store: ");
    cli_fputs_safe(s.shipped ? s.shipped : "none", stdout);
    putchar('\n');
    if (s.dir != NULL)
        bad += show_layer("user", s.dir, verify, &lim);
    if (s.shipped != NULL)
        bad += show_layer("shipped", s.shipped, verify, &lim);
    cli_store_close(&s);
    if (verify && bad > 0) {
        fprintf(stderr, "bouton store: %zu bad entr%s\n", bad,
                bad == 1 ? "y" : "ies");
        return CLI_FAIL;
    }
    return CLI_OK;
}
