/*
 * optable_doc.c -- what the table of operations (programs/common/
 * optable.c) generates outside the program, and the checks that hold the
 * rest to it.
 *
 *   optable_doc --check FILE   exit 1 when docs/api.md's generated blocks
 *                              differ from what the table generates, or
 *                              when the table breaks its own rules (a
 *                              parameter of one side only without its
 *                              reason, a name twice, no help, a line of
 *                              --help wider than 79 columns)
 *   optable_doc --write FILE   rewrites those blocks in place
 *   optable_doc --commands     the operations' commands, one a line
 *   optable_doc --options      "COMMAND OPTION" per option of a command
 *   optable_doc --members      "PATH MEMBER TYPE VARIANT" per API member
 *   optable_doc --help-check COMMAND
 *                              reads `bouton COMMAND --help` on stdin;
 *                              exit 1 unless it holds the option lines
 *                              the table renders (optable_cli_help),
 *                              whole, and no other line of those options
 *                              (a hand-written duplicate)
 *
 * A generated block of FILE runs from a line "<!-- optable ROUTE -->" (an
 * endpoint's members) or "<!-- optable one-sided -->" (the parameters of
 * one side only, with their reasons) to the line "<!-- end optable -->".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optable.h"

/* The most options one line of --help shows (an option and those folded
   into it). */
#define CLI_PARAMS_MAX 8

/* s for a cell of a Markdown table: '|' escaped, line breaks joined. */
static void
cell(FILE *f, const char *s)
{
    for (; *s != '\0'; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static int
is_end(const optable_param *p)
{
    return p->cli == NULL && p->api == NULL;
}

/* "`--NAME ARG`", or the operand. */
static void
cli_name(FILE *f, const optable_param *p)
{
    fputc('`', f);
    if (!optable_is_operand(p))
        fputs("--", f);
    cell(f, p->cli);
    if (p->arg != NULL && !optable_is_operand(p)) {
        fputc(' ', f);
        cell(f, p->arg);
    }
    fputc('`', f);
}

static void
endpoint_block(FILE *f, const optable_op *op)
{
    const optable_param *p;
    if (is_end(op->params)) {
        fprintf(f, "No members%s.\n",
                strcmp(op->method, "GET") == 0 ? " (a GET)" : "");
        return;
    }
    fprintf(f, "| member | type | default | limits | command line | "
               "what |\n| --- | --- | --- | --- | --- | --- |\n");
    for (p = op->params; !is_end(p); p++) {
        if (p->api == NULL)
            continue;
        fprintf(f, "| `%s` | %s | ", p->api, optable_type_name(p->type));
        cell(f, p->dflt != NULL ? p->dflt : "");
        fputs(" | ", f);
        cell(f, p->limits != NULL ? p->limits : "");
        fputs(" | ", f);
        if (p->cli != NULL)
            cli_name(f, p);
        else if (op->command == NULL)
            fputs("no command", f);
        else {
            fputs("none: ", f);
            cell(f, p->why);
        }
        fputs(" | ", f);
        /* a help that starts on the next line of --help */
        cell(f, p->help + (p->help[0] == '\n'));
        if (p->only != NULL)
            fprintf(f, " (%s only)", strcmp(p->only, "table") == 0
                                         ? "Wythoff's table"
                                         : "a heap game's sequence");
        fputs(" |\n", f);
    }
}

static void
one_sided_block(FILE *f)
{
    size_t i;
    fprintf(f, "| operation | endpoint | command | why one side only |\n"
               "| --- | --- | --- | --- |\n");
    for (i = 0; i < optable_count(); i++) {
        const optable_op *op = optable_at(i);
        if (op->why == NULL)
            continue;
        fprintf(f, "| %s | %s | %s | ", op->name,
                op->route != NULL ? op->route : "none",
                op->command != NULL ? op->command : "none");
        cell(f, op->why);
        fputs(" |\n", f);
    }
    fprintf(f, "\nThe options of the commands that have an endpoint, "
               "where the endpoint has no member:\n\n"
               "| command | option | why no member |\n"
               "| --- | --- | --- |\n");
    for (i = 0; i < optable_count(); i++) {
        const optable_op *op = optable_at(i);
        const optable_param *p;
        if (op->route == NULL || op->command == NULL)
            continue;
        for (p = op->params; !is_end(p); p++) {
            if (p->api != NULL)
                continue;
            fprintf(f, "| %s | ", op->command);
            cli_name(f, p);
            fputs(" | ", f);
            cell(f, p->why);
            fputs(" |\n", f);
        }
    }
}

/* Whether a line that optable_cli_help prints for p (rendered with the
   options of op up to p) is wider than 79 columns. */
static int
help_too_wide(const optable_op *op, const optable_param *p)
{
    optable_op one = *op;
    optable_param params[CLI_PARAMS_MAX];
    char *text = NULL, *line;
    size_t len = 0, n = 0;
    FILE *m;
    int wide = 0;

    /* p and its folded options alone, then the end */
    do
        params[n++] = *p++;
    while (p->folded && n < CLI_PARAMS_MAX - 1);
    memset(&params[n], 0, sizeof params[n]);
    one.params = params;
    m = open_memstream(&text, &len);
    if (m == NULL)
        return 1;
    optable_cli_help(m, &one);
    if (fclose(m) != 0)
        return 1;
    for (line = text; *line != '\0'; line += strcspn(line, "\n") + 1) {
        if (strcspn(line, "\n") > 79)
            wide = 1;
        if (line[strcspn(line, "\n")] == '\0')
            break;
    }
    free(text);
    return wide;
}

/*
 * The table's own rules: a parameter of one side only, and an operation
 * of one side only, says why (and one of both sides does not); no option
 * or member is named twice in an operation; a parameter has help, whose
 * lines in --help are at most 79 columns wide.
 */
static int
table_valid(void)
{
    size_t i;
    int rc = 0;
    for (i = 0; i < optable_count(); i++) {
        const optable_op *op = optable_at(i);
        const optable_param *p, *q;
        if ((op->command == NULL || op->route == NULL) != (op->why != NULL)) {
            fprintf(stderr, "operation %s: a reason is given exactly when "
                    "it has a command or an endpoint only\n", op->name);
            rc = 1;
        }
        if (op->route != NULL && op->method == NULL) {
            fprintf(stderr, "operation %s: no method\n", op->name);
            rc = 1;
        }
        for (p = op->params; !is_end(p); p++) {
            const char *name = p->api != NULL ? p->api : p->cli;
            if ((p->cli == NULL || p->api == NULL) != (p->why != NULL)) {
                fprintf(stderr, "operation %s, %s: a reason is given "
                        "exactly when it is on one side only\n", op->name,
                        name);
                rc = 1;
            }
            if (p->help == NULL || p->help[0] == '\0') {
                fprintf(stderr, "operation %s, %s: no help\n", op->name,
                        name);
                rc = 1;
            }
            if (p->cli != NULL && !optable_is_operand(p) &&
                !p->folded && help_too_wide(op, p)) {
                fprintf(stderr, "operation %s, --%s: a line of its --help "
                        "is wider than 79 columns (break its help with "
                        "'\\n')\n", op->name, p->cli);
                rc = 1;
            }
            for (q = op->params; q != p; q++)
                if ((p->cli != NULL && q->cli != NULL &&
                     strcmp(p->cli, q->cli) == 0) ||
                    (p->api != NULL && q->api != NULL &&
                     strcmp(p->api, q->api) == 0)) {
                    fprintf(stderr, "operation %s: %s twice\n", op->name,
                            name);
                    rc = 1;
                }
        }
    }
    return rc;
}

/* FILE with its generated blocks made anew, into a malloc'd string. */
static char *
generate(const char *path)
{
    FILE *in = fopen(path, "r"), *out;
    char *text = NULL, line[4096];
    size_t len = 0;
    int skipping = 0;

    if (in == NULL) {
        perror(path);
        return NULL;
    }
    out = open_memstream(&text, &len);
    while (fgets(line, sizeof line, in) != NULL) {
        char what[200];
        if (skipping) {
            if (strcmp(line, "<!-- end optable -->\n") != 0)
                continue;
            skipping = 0;
        }
        fputs(line, out);
        if (sscanf(line, "<!-- optable %199s -->", what) != 1)
            continue;
        skipping = 1;
        if (strcmp(what, "one-sided") == 0)
            one_sided_block(out);
        else if (optable_route(what) != NULL)
            endpoint_block(out, optable_route(what));
        else {
            fprintf(stderr, "%s: no endpoint %s in the table\n", path,
                    what);
            exit(1);
        }
    }
    fclose(in);
    fclose(out);
    if (skipping) {
        fprintf(stderr, "%s: a block has no end line\n", path);
        free(text);
        return NULL;
    }
    return text;
}

/* Every endpoint of the table has its block in text, once. */
static int
blocks_present(const char *path, const char *text)
{
    size_t i;
    int rc = 0;
    for (i = 0; i < optable_count(); i++) {
        char mark[200];
        const char *at;
        if (optable_at(i)->route == NULL)
            continue;
        snprintf(mark, sizeof mark, "<!-- optable %s -->\n",
                 optable_at(i)->route);
        at = strstr(text, mark);
        if (at == NULL || strstr(at + 1, mark) != NULL) {
            fprintf(stderr, "%s: the endpoint %s needs one block '%.*s'\n",
                    path, optable_at(i)->route, (int)strlen(mark) - 1,
                    mark);
            rc = 1;
        }
    }
    if (strstr(text, "<!-- optable one-sided -->\n") == NULL) {
        fprintf(stderr, "%s: no block '<!-- optable one-sided -->'\n", path);
        rc = 1;
    }
    return rc;
}

/* The lines of text that begin "  --NAME" (NAME then a space, a comma or
   the line's end): the option lines of --NAME. */
static size_t
option_lines(const char *text, const char *name)
{
    size_t n = 0, len = strlen(name);
    const char *line;
    for (line = text; *line != '\0'; line += strcspn(line, "\n") + 1) {
        if (strncmp(line, "  --", 4) == 0 &&
            strncmp(line + 4, name, len) == 0 &&
            strchr(" ,\n", line[4 + len]) != NULL)
            n++;
        if (line[strcspn(line, "\n")] == '\0')
            break;
    }
    return n;
}

/* The whole of a stream, malloc'd. */
static char *
slurp(FILE *in)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    int c;
    if (m == NULL)
        return NULL;
    while ((c = getc(in)) != EOF)
        putc(c, m);
    if (fclose(m) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* --help-check COMMAND: the command's --help (stdin) against the table. */
static int
help_check(const char *command)
{
    const optable_op *op = optable_command(command);
    const optable_param *p;
    char *help, *block = NULL;
    size_t len = 0;
    FILE *m;
    int rc = 0;

    if (op == NULL) {
        fprintf(stderr, "no command '%s' in the table\n", command);
        return 1;
    }
    help = slurp(stdin);
    m = open_memstream(&block, &len);
    if (help == NULL || m == NULL)
        return 1;
    optable_cli_help(m, op);
    if (fclose(m) != 0)
        return 1;
    if (strstr(help, block) == NULL) {
        /* the first line of the table's that --help lacks */
        const char *line = block;
        while (*line != '\0') {
            size_t n = strcspn(line, "\n") + 1;
            char *one = strndup(line, n);
            int found = one != NULL && strstr(help, one) != NULL;
            free(one);
            if (!found)
                break;
            line += n;
        }
        fprintf(stderr, "bouton %s --help: its option lines are not the "
                "table's (programs/common/optable.c, optable_cli_help)",
                command);
        if (*line != '\0')
            fprintf(stderr, "; it lacks the line\n%.*s",
                    (int)strcspn(line, "\n"), line);
        fputc('\n', stderr);
        rc = 1;
    }
    for (p = op->params; !is_end(p); p++) {
        size_t want, got;
        if (p->cli == NULL || optable_is_operand(p))
            continue;
        want = option_lines(block, p->cli);
        got = option_lines(help, p->cli);
        if (got != want) {
            fprintf(stderr, "bouton %s --help: %zu line(s) of --%s where "
                    "the table renders %zu: a line of an option of the "
                    "table is written by hand (write its help in "
                    "programs/common/optable.c)\n", command, got, p->cli,
                    want);
            rc = 1;
        }
    }
    free(help);
    free(block);
    return rc;
}

int
main(int argc, char **argv)
{
    size_t i;
    if (argc == 2 && strcmp(argv[1], "--commands") == 0) {
        for (i = 0; i < optable_count(); i++)
            if (optable_at(i)->command != NULL)
                printf("%s\n", optable_at(i)->command);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--options") == 0) {
        for (i = 0; i < optable_count(); i++) {
            const optable_op *op = optable_at(i);
            const optable_param *p;
            if (op->command == NULL)
                continue;
            for (p = op->params; !is_end(p); p++)
                if (p->cli != NULL && !optable_is_operand(p))
                    printf("%s %s\n", op->command, p->cli);
        }
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--help-check") == 0)
        return help_check(argv[2]);
    if (argc == 2 && strcmp(argv[1], "--members") == 0) {
        for (i = 0; i < optable_count(); i++) {
            const optable_op *op = optable_at(i);
            const optable_param *p;
            if (op->route == NULL)
                continue;
            for (p = op->params; !is_end(p); p++)
                if (p->api != NULL)
                    printf("%s %s %s %s\n", op->route, p->api,
                           optable_type_name(p->type),
                           p->only != NULL ? p->only : "-");
        }
        return 0;
    }
    if (argc == 3 && (strcmp(argv[1], "--check") == 0 ||
                      strcmp(argv[1], "--write") == 0)) {
        char *now = NULL, *made;
        FILE *f;
        size_t n = 0;
        int rc;
        if (table_valid() != 0)
            return 1;
        made = generate(argv[2]);
        if (made == NULL)
            return 1;
        if (blocks_present(argv[2], made) != 0) {
            free(made);
            return 1;
        }
        if (strcmp(argv[1], "--write") == 0) {
            f = fopen(argv[2], "w");
            rc = f == NULL || fputs(made, f) < 0;
            if (f != NULL && fclose(f) != 0)
                rc = 1;
            free(made);
            return rc;
        }
        f = fopen(argv[2], "r");
        if (f != NULL) {
            FILE *m = open_memstream(&now, &n);
            int c;
            while ((c = getc(f)) != EOF)
                putc(c, m);
            fclose(m);
            fclose(f);
        }
        rc = now == NULL || strcmp(now, made) != 0;
        if (rc)
            fprintf(stderr, "%s differs from what the table of operations "
                    "generates (programs/common/optable.c): run "
                    "`optable_doc --write %s` and commit it\n", argv[2],
                    argv[2]);
        free(now);
        free(made);
        return rc;
    }
    fprintf(stderr, "usage: optable_doc --check|--write FILE | --commands "
                    "| --options | --members | --help-check COMMAND\n");
    return 2;
}
