/*
 * cli.c -- helpers shared by the commands: errors, limits, positions.
 */
#define _XOPEN_SOURCE 700 /* realpath(), for a --save through a link */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "optable.h"

int
cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    char msg[1024];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "bouton %s: ", cmd);
    cli_fputs_safe(msg, stderr);
    fputc('\n', stderr);
    return CLI_USAGE;
}

void
cli_fputs_safe(const char *s, FILE *f)
{
    const unsigned char *p = (const unsigned char *)s;
    for (; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\x%02x", *p);
        else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
            /* a C1 control in UTF-8 (CSI is U+009B) */
            fprintf(f, "\\u%04x", p[1]);
            p++;
        } else
            fputc(*p, f);
    }
}

int
cli_bad_option(const char *cmd, int code, char **argv)
{
    const char *arg = argv[optind - 1];
    if (code == ':')
        return cli_error(cmd, "option '%s' needs a value", arg);
    if (optopt >= '0' && optopt <= '9')
        return cli_error(cmd, "'%s' is negative: piles and sizes are "
                              "non-negative integers",
                         arg);
    if (optopt != 0 && arg[0] == '-' && arg[1] != '-')
        return cli_error(cmd, "unknown option '-%c' (try --help)", optopt);
    return cli_error(cmd, "unknown option '%s' (try --help)", arg);
}

/* --max-time: the monotonic clock's second at which the time is spent
   (0: no --max-time), and the text given, for messages. */
static double time_deadline;
static char time_text[32];

static double
mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
cli_time_up(void)
{
    return time_deadline > 0 && mono_seconds() >= time_deadline;
}

int
cli_interrupt(void *ud)
{
    (void)ud;
    return cli_time_up();
}

/* Parses --max-time's seconds: a decimal in (0, 10^9]. */
static int
parse_max_time(const char *cmd, const char *arg)
{
    char *end;
    double v;
    errno = 0;
    v = arg != NULL && *arg >= '0' && *arg <= '9' ? strtod(arg, &end) : -1;
    if (v < 0 || *end != '\0' || errno != 0 || !isfinite(v) || v <= 0 ||
        v > 1e9)
        return cli_error(cmd,
                         "--max-time '%s' is not a number of seconds in "
                         "(0, 1000000000]",
                         arg ? arg : ""),
               -1;
    snprintf(time_text, sizeof time_text, "%.20s", arg);
    time_deadline = mono_seconds() + v;
    return 0;
}

int
cli_status_error(const char *cmd, bt_status st, const bt_diag *diag)
{
    const char *msg = diag && diag->message[0] ? diag->message
                                               : bt_strerror(st);
    fprintf(stderr, "bouton %s: ", cmd);
    cli_fputs_safe(msg, stderr);
    if (st == BT_EINTR && cli_time_up())
        fprintf(stderr, " (--max-time %s s)", time_text);
    fputc('\n', stderr);
    return st == BT_ENOMEM ? CLI_FAIL : CLI_USAGE;
}

const char cli_limit_help[] =
    "limits (each past its limit gives an error, never a hang):\n"
    "  --max-digits N   digits in one number (default 1000000)\n"
    "  --max-piles N    components in a position (default 10000000)\n"
    "  --max-search N   positions of an exhaustive search, moves listed "
    "(default 250000)\n"
    "  --max-grundy N   values of a Grundy sequence or table side "
    "(default 67108864)\n"
    "  --max-memory B   bytes a computation may hold, with K, M or G "
    "(default 1G; 0: none)\n"
    "  --max-games N    distinct games in one position (default 1000)\n"
    "  --max-time S     seconds of wall-clock time the command may compute, "
    "e.g. 0.5\n"
    "                   (default: none)\n";

int
cli_parse_size(const char *cmd, const char *what, const char *arg,
               size_t min, size_t max, size_t *out)
{
    char *end;
    unsigned long long v;
    if (arg == NULL || *arg < '0' || *arg > '9')
        return cli_error(cmd, "%s '%s' is not a non-negative integer", what,
                         arg ? arg : ""),
               -1;
    errno = 0;
    v = strtoull(arg, &end, 10);
    if (*end != '\0')
        return cli_error(cmd, "%s '%s' is not a non-negative integer", what,
                         arg),
               -1;
    if (errno == ERANGE || v > max)
        return cli_error(cmd, "%s '%s' is too large (at most %zu)", what, arg,
                         max),
               -1;
    if (v < min)
        return cli_error(cmd, "%s '%s' is too small (at least %zu)", what,
                         arg, min),
               -1;
    *out = (size_t)v;
    return 0;
}

int
cli_parse_bytes(const char *cmd, const char *what, const char *arg,
                size_t max, size_t *out)
{
    char *end;
    unsigned long long v;
    unsigned shift = 0;
    if (arg == NULL || *arg < '0' || *arg > '9')
        return cli_error(cmd, "%s '%.40s' is not a number of bytes (such as "
                              "512M or 2G)", what, arg ? arg : ""),
               -1;
    errno = 0;
    v = strtoull(arg, &end, 10);
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (shift != 0 && (*end == 'i' || *end == 'I'))
        end++;
    if (shift != 0 && (*end == 'b' || *end == 'B'))
        end++;
    if (*end != '\0')
        return cli_error(cmd, "%s '%.40s' is not a number of bytes (such as "
                              "512M or 2G)", what, arg),
               -1;
    if (errno == ERANGE || v > (max >> shift))
        return cli_error(cmd, "%s '%.40s' is too large (at most %zu bytes)",
                         what, arg, max),
               -1;
    *out = (size_t)v << shift;
    return 0;
}

int
cli_parse_mpz(const char *cmd, const char *what, const char *arg,
              const bt_limits *lim, mpz_t out)
{
    size_t i, n = strlen(arg);
    if (n == 0)
        return cli_error(cmd, "%s is empty", what), -1;
    if (arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9')
        return cli_error(cmd, "%s '%.40s' is negative", what, arg), -1;
    for (i = 0; i < n; i++)
        if (arg[i] < '0' || arg[i] > '9')
            return cli_error(cmd, "%s '%.40s' is not a non-negative integer",
                             what, arg),
                   -1;
    while (n > 1 && *arg == '0') {
        arg++;
        n--;
    }
    if (lim != NULL && n > lim->max_digits)
        return cli_error(cmd,
                         "%s has %zu digits, more than the limit of %zu "
                         "(--max-digits)",
                         what, n, lim->max_digits),
               -1;
    mpz_set_str(out, arg, 10);
    return 0;
}

int
cli_limit_option(const char *cmd, int code, const char *arg, bt_limits *lim)
{
    size_t big = (size_t)1 << 40, *to;
    const char *name;
    switch (code) {
    case CLI_OPT_MAX_DIGITS:
        name = "--max-digits", to = &lim->max_digits;
        break;
    case CLI_OPT_MAX_PILES:
        name = "--max-piles", to = &lim->max_components;
        break;
    case CLI_OPT_MAX_SEARCH:
        name = "--max-search", to = &lim->max_search;
        break;
    case CLI_OPT_MAX_GRUNDY:
        name = "--max-grundy", to = &lim->max_grundy;
        break;
    case CLI_OPT_MAX_GAMES:
        name = "--max-games", to = &lim->max_games;
        break;
    case CLI_OPT_MAX_MEMORY:
        return cli_parse_bytes(cmd, "--max-memory", arg, (size_t)1 << 50,
                               &lim->max_memory) ? -1 : 1;
    default:
        return 0;
    }
    return cli_parse_size(cmd, name, arg, 1, big, to) ? -1 : 1;
}

/* Prints `text` from column `col` on, its words wrapped before column 80,
   continuation lines indented to column `indent`. */
static void
print_wrapped(const char *text, size_t col, size_t indent)
{
    while (*text != '\0') {
        size_t n = strcspn(text, " ");
        if (col > indent && col + 1 + n > 79) {
            printf("\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent) {
            putchar(' ');
            col++;
        }
        printf("%.*s", (int)n, text);
        col += n;
        text += n;
        text += strspn(text, " ");
    }
    putchar('\n');
}

/* The games of --help, one family a paragraph: its syntax, its rules in
   one line and its named games, all from the library's registry. */
static void
print_games(void)
{
    size_t i;
    printf("\nGames (--game RULES, or a term's name), from the library's "
           "registry:\n");
    for (i = 0; i < bt_family_count(); i++) {
        const bt_family_info *f = bt_family(i);
        size_t w = strlen(f->syntax);
        printf("  %s", f->syntax);
        if (w > 13) {
            printf("\n%16s", "");
            w = 13;
        }
        printf("%*s", (int)(14 - w), "");
        print_wrapped(f->summary, 16, 16);
        if (f->aliases[0] != '\0') {
            /* "named games: kayles, dawsons-kayles, ..." */
            char named[512];
            const char *a = f->aliases;
            size_t len = (size_t)snprintf(named, sizeof named, "named games:");
            while (*a != '\0' && len < sizeof named) {
                size_t n = strcspn(a, " ");
                len += (size_t)snprintf(named + len, sizeof named - len,
                                        "%s %.*s", a == f->aliases ? "" : ",",
                                        (int)n, a);
                a += n;
                a += strspn(a, " ");
            }
            printf("%16s", "");
            print_wrapped(named, 16, 16);
        }
    }
}

/* What cli_options() does with a code that is not of the command's table:
   -1 when it goes on, else the exit status. */
static int
other_option(const char *cmd, int code, char **argv, const char *help,
             bt_limits *lim)
{
    int r;
    switch (code) {
    case 'h':
        fputs(help, stdout);
        if (strstr(help, "--game") != NULL)
            print_games();
        printf("\n%s", cli_limit_help);
        return CLI_OK;
    case '?':
    case ':':
        return cli_bad_option(cmd, code, argv);
    case CLI_OPT_MAX_TIME:
        if (parse_max_time(cmd, optarg) != 0)
            return CLI_USAGE;
        lim->interrupt = cli_interrupt;
        lim->interrupt_ud = NULL;
        return -1;
    default:
        r = cli_limit_option(cmd, code, optarg, lim);
        if (r < 0)
            return CLI_USAGE;
        if (r == 0)
            return cli_error(cmd, "unexpected option '%s'", argv[optind - 1]);
        return -1;
    }
}

/* getopt_long()'s code for entry i of a command's table: past 'h' and the
   limit options' codes. */
#define TABLE_CODE 3000

int
cli_options(const char *cmd, int argc, char **argv, const char *help,
            const cli_opt *opts, bt_limits *lim)
{
    static const struct option common[] = {
        {"help", no_argument, NULL, 'h'},
        {"max-time", required_argument, NULL, CLI_OPT_MAX_TIME},
        CLI_LIMIT_LONGOPTS};
    enum { NCOMMON = sizeof common / sizeof common[0] };
    struct option lo[CLI_MAX_OPTIONS + NCOMMON + 1];
    const char *names[CLI_MAX_OPTIONS];
    char err[160];
    int n, c, rc;

    /* the command's options are its operation's in the table of
       operations (optable.h), checked on every run: no test of a command
       passes while they differ */
    for (n = 0; opts[n].name != NULL; n++) {
        assert(n < CLI_MAX_OPTIONS);
        names[n] = opts[n].name;
    }
    if (optable_cli_check(cmd, names, (size_t)n, err, sizeof err) != 0) {
        fprintf(stderr, "bouton %s: internal error: %s\n", cmd, err);
        return CLI_FAIL;
    }
    for (n = 0; opts[n].name != NULL; n++) {
        lo[n].name = opts[n].name;
        lo[n].has_arg = opts[n].text != NULL || opts[n].parse != NULL
                            ? required_argument
                            : no_argument;
        lo[n].flag = NULL;
        lo[n].val = TABLE_CODE + n;
    }
    memcpy(lo + n, common, sizeof common);
    memset(lo + n + NCOMMON, 0, sizeof lo[0]);
    bt_limits_default(lim);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", lo, NULL)) != -1) {
        const cli_opt *o;

        if (c < TABLE_CODE || c >= TABLE_CODE + n) {
            rc = other_option(cmd, c, argv, help, lim);
            if (rc >= 0)
                return rc;
            continue;
        }
        o = &opts[c - TABLE_CODE];
        if (o->flag != NULL)
            *o->flag = o->value;
        if (o->text != NULL)
            *o->text = optarg;
        if (o->parse != NULL && (rc = o->parse(cmd, optarg, o->to)) != 0)
            return rc;
    }
    return -1;
}

char *
cli_help_from_table(const char *cmd, const char *head, const char *tail)
{
    const optable_op *op = optable_command(cmd);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    if (f == NULL)
        return NULL;
    fputs(head, f);
    if (op != NULL)
        optable_cli_help(f, op);
    if (tail != NULL)
        fputs(tail, f);
    if (ferror(f)) {
        fclose(f);
        free(text);
        return NULL;
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int
cli_options_help(const char *cmd, int argc, char **argv, const char *head,
                 const char *tail, const cli_opt *opts, bt_limits *lim)
{
    char *help = cli_help_from_table(cmd, head, tail);
    int rc;

    if (help == NULL) {
        fprintf(stderr, "bouton %s: out of memory\n", cmd);
        return CLI_FAIL;
    }
    rc = cli_options(cmd, argc, argv, help, opts, lim);
    free(help);
    return rc;
}

int
cli_opt_level(const char *cmd, const char *arg, void *to)
{
    bt_diag d;

    memset(&d, 0, sizeof d);
    if (bt_level_parse(to, arg, &d) != BT_OK)
        return cli_error(cmd, "--level: %s", d.message);
    return 0;
}

int
cli_opt_seed(const char *cmd, const char *arg, void *to)
{
    return cli_parse_seed(cmd, "--seed", arg, to) != 0 ? CLI_USAGE : 0;
}

int
cli_parse_seed(const char *cmd, const char *what, const char *arg,
               uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (arg[0] < '0' || arg[0] > '9')
        return cli_error(cmd, "%s '%.40s' is not a non-negative integer",
                         what, arg),
               -1;
    errno = 0;
    v = strtoull(arg, &end, 10);
    if (*end != '\0')
        return cli_error(cmd, "%s '%.40s' is not a non-negative integer",
                         what, arg),
               -1;
    if (errno == ERANGE)
        return cli_error(cmd, "%s '%.40s' is too large (below 2^64)", what,
                         arg),
               -1;
    *out = (uint64_t)v;
    return 0;
}

/* Reads all of f (named `name` in messages) into a malloc'd string of at
   most max bytes; NULL after printing an error. */
static char *
read_stream(const char *cmd, FILE *f, const char *name, size_t max)
{
    size_t len = 0, cap = 65536, n;
    char *buf = malloc(cap);
    if (buf == NULL) {
        fprintf(stderr, "bouton %s: out of memory\n", cmd);
        return NULL;
    }
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len > max) {
            free(buf);
            cli_error(cmd, "%s is longer than %zu bytes", name, max);
            return NULL;
        }
        if (cap - len - 1 == 0) {
            char *p = realloc(buf, cap * 2);
            if (p == NULL) {
                free(buf);
                fprintf(stderr, "bouton %s: out of memory\n", cmd);
                return NULL;
            }
            buf = p;
            cap *= 2;
        }
    }
    if (ferror(f)) {
        free(buf);
        fprintf(stderr, "bouton %s: cannot read %s\n", cmd, name);
        return NULL;
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        free(buf);
        cli_error(cmd, "%s contains a NUL byte", name);
        return NULL;
    }
    return buf;
}

char *
cli_read_stdin(const char *cmd, size_t max)
{
    return read_stream(cmd, stdin, "standard input", max);
}

char *
cli_read_file(const char *cmd, const char *path, size_t max)
{
    FILE *f;
    char *text, name[300];
    if (strcmp(path, "-") == 0)
        return cli_read_stdin(cmd, max);
    f = fopen(path, "r");
    if (f == NULL) {
        cli_error(cmd, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    snprintf(name, sizeof name, "'%s'", path);
    text = read_stream(cmd, f, name, max);
    fclose(f);
    return text;
}

/* Syncs the directory holding path (after a rename into it); 0 or -1
   with errno set.  A file system that cannot sync a directory (EINVAL)
   is no failure. */
static int
sync_dir(const char *path)
{
    char *dir = strdup(path), *slash;
    int fd, rc = 0;
    if (dir == NULL)
        return -1;
    slash = strrchr(dir, '/');
    if (slash == NULL)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        rc = fsync(fd) != 0 && errno != EINVAL ? -1 : 0;
        close(fd);
    }
    free(dir);
    return rc;
}

/* What st is, for a refusal: "a directory", "a device", ... */
static const char *
file_kind(const struct stat *st)
{
    if (S_ISDIR(st->st_mode))
        return "a directory";
    if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
        return "a device";
    if (S_ISFIFO(st->st_mode))
        return "a FIFO";
    if (S_ISSOCK(st->st_mode))
        return "a socket";
    return "not a regular file";
}

/* cli_save_target, with the target's permissions in *mode (-1: there is
   no file yet). */
static int
check_target(const char *what, const char *path, char **target, int *mode,
             char *err, size_t size)
{
    struct stat st;
    char *real = NULL;
    *mode = -1;
    if (target != NULL)
        *target = NULL;
    if (path[0] == '\0') {
        snprintf(err, size, "%s '': an empty file name", what);
        return CLI_USAGE;
    }
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT) {
            snprintf(err, size, "%s '%s': %s", what, path, strerror(errno));
            return CLI_USAGE;
        }
    } else if (S_ISLNK(st.st_mode)) {
        /* the link stays; the file it names is replaced */
        if (stat(path, &st) != 0) {
            snprintf(err, size,
                     "%s '%s' is a symbolic link to a missing file: refused",
                     what, path);
            return CLI_USAGE;
        }
        if (!S_ISREG(st.st_mode)) {
            snprintf(err, size,
                     "%s '%s' is a symbolic link to %s, not a regular "
                     "file: refused",
                     what, path, file_kind(&st));
            return CLI_USAGE;
        }
        real = realpath(path, NULL);
        if (real == NULL) {
            snprintf(err, size, "%s '%s': %s", what, path, strerror(errno));
            return errno == ENOMEM ? CLI_FAIL : CLI_USAGE;
        }
        *mode = (int)(st.st_mode & 07777);
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(err, size, "%s '%s' is %s, not a regular file: refused",
                 what, path, file_kind(&st));
        return CLI_USAGE;
    } else {
        *mode = (int)(st.st_mode & 07777);
    }
    if (target == NULL) {
        free(real);
        return CLI_OK;
    }
    *target = real != NULL ? real : strdup(path);
    if (*target == NULL) {
        snprintf(err, size, "out of memory");
        return CLI_FAIL;
    }
    return CLI_OK;
}

int
cli_save_target(const char *what, const char *path, char **target,
                char *err, size_t size)
{
    int mode;
    return check_target(what, path, target, &mode, err, size);
}

static void
save_release(cli_save *s)
{
    free(s->target);
    free(s->tmp);
    s->target = s->tmp = NULL;
    s->f = NULL;
}

int
cli_save_begin(cli_save *s, const char *what, const char *path)
{
    int mode, fd, rc;
    size_t n;
    memset(s, 0, sizeof *s);
    s->what = what;
    s->path = path;
    rc = check_target(what, path, &s->target, &mode, s->error,
                      sizeof s->error);
    if (rc != CLI_OK)
        return rc;
    n = strlen(s->target) + sizeof ".tmp.XXXXXX";
    s->tmp = malloc(n);
    if (s->tmp == NULL) {
        snprintf(s->error, sizeof s->error, "out of memory");
        save_release(s);
        return CLI_FAIL;
    }
    snprintf(s->tmp, n, "%s.tmp.XXXXXX", s->target);
    fd = mkstemp(s->tmp);
    if (fd < 0) {
        int e = errno;
        snprintf(s->error, sizeof s->error,
                 "%s '%s': cannot create a file beside it: %s", what, path,
                 strerror(e));
        save_release(s);
        /* a place that cannot hold the file is the user's to change */
        return e == ENOENT || e == ENOTDIR || e == EACCES || e == EPERM ||
                       e == EROFS
                   ? CLI_USAGE
                   : CLI_FAIL;
    }
    if (mode < 0) {
        mode_t mask = umask(0);
        umask(mask);
        mode = (int)(0666 & ~mask);
    }
    if (fchmod(fd, (mode_t)mode) != 0 || (s->f = fdopen(fd, "wb")) == NULL) {
        snprintf(s->error, sizeof s->error, "%s '%s': %s", what, path,
                 strerror(errno));
        close(fd);
        unlink(s->tmp);
        save_release(s);
        return CLI_FAIL;
    }
    return CLI_OK;
}

int
cli_save_write(cli_save *s, const void *data, size_t len)
{
    if (s->errnum != 0)
        return -1;
    if (fwrite(data, 1, len, s->f) != len) {
        s->errnum = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

int
cli_save_commit(cli_save *s)
{
    int e = s->errnum;
    errno = 0;
    if (e == 0 && (fflush(s->f) != 0 || ferror(s->f)))
        e = errno ? errno : EIO;
    if (e == 0 && fsync(fileno(s->f)) != 0)
        e = errno;
    if (fclose(s->f) != 0 && e == 0)
        e = errno ? errno : EIO;
    s->f = NULL;
    if (e == 0 && rename(s->tmp, s->target) != 0)
        e = errno;
    if (e != 0) {
        unlink(s->tmp);
        snprintf(s->error, sizeof s->error,
                 "%s '%s': cannot write it (%s): the old file, if any, is "
                 "left as it was",
                 s->what, s->path, strerror(e));
        save_release(s);
        return CLI_FAIL;
    }
    if (sync_dir(s->target) != 0) {
        snprintf(s->error, sizeof s->error,
                 "%s '%s': written, but its directory could not be synced "
                 "(%s)",
                 s->what, s->path, strerror(errno));
        save_release(s);
        return CLI_FAIL;
    }
    save_release(s);
    return CLI_OK;
}

void
cli_save_abort(cli_save *s)
{
    if (s->f != NULL) {
        fclose(s->f);
        unlink(s->tmp);
    }
    save_release(s);
}

int
cli_write_atomic(const char *cmd, const char *what, const char *path,
                 const char *data, size_t len)
{
    cli_save s;
    int rc = cli_save_begin(&s, what, path);
    if (rc == CLI_OK) {
        cli_save_write(&s, data, len);
        rc = cli_save_commit(&s);
    }
    if (rc != CLI_OK)
        cli_error(cmd, "%s", s.error);
    return rc;
}

/* The errno of the first failed write to stdout that cli_stdout_check
   saw; 0: none. */
static int stdout_errno;

int
cli_stdout_check(int flush)
{
    int e = errno; /* the failed write's, when it is the last call */
    errno = 0;
    if (flush && fflush(stdout) != 0)
        e = errno;
    if (!ferror(stdout))
        return CLI_OK;
    if (stdout_errno == 0)
        stdout_errno = e;
    return CLI_FAIL;
}

int
cli_close_stdout(int rc)
{
    int bad = ferror(stdout), e = stdout_errno, pending = 0;
    errno = 0;
    /* an earlier failed write keeps its bytes in the buffer: the flush
       tries them again and gives its reason */
    if (fflush(stdout) != 0) {
        bad = 1;
        e = e ? e : errno;
        pending = 1;
    }
    errno = 0;
    if (fclose(stdout) != 0 && !bad) {
        /* stdout closed (>&-) with nothing written to it is no error */
        if (errno != EBADF || pending) {
            bad = 1;
            e = errno;
        }
    }
    if (!bad)
        return rc;
    if (e != 0)
        fprintf(stderr, "bouton: write error: %s\n", strerror(e));
    else
        fprintf(stderr, "bouton: write error\n");
    return rc == CLI_OK ? CLI_FAIL : rc;
}

int
cli_quotient_read(const char *cmd, const char *what, const char *path,
                  const bt_limits *lim, bt_quotient **q)
{
    char *text = cli_read_file(cmd, path, lim->max_text);
    bt_diag d;
    bt_status st;
    *q = NULL;
    if (text == NULL)
        return CLI_USAGE;
    memset(&d, 0, sizeof d);
    st = bt_quotient_load(q, text, strlen(text), lim, &d);
    free(text);
    if (st == BT_ENOMEM)
        return cli_status_error(cmd, st, &d);
    if (st != BT_OK)
        return cli_error(cmd, "%s '%s': %s", what, path,
                         d.message[0] ? d.message : bt_strerror(st));
    return CLI_OK;
}

int
cli_quotient_install(const char *cmd, const char *path, const bt_limits *lim,
                     char **spec)
{
    bt_quotient *q = NULL;
    bt_diag d;
    bt_status st;
    int rc = cli_quotient_read(cmd, "--quotient", path, lim, &q);
    if (rc != CLI_OK)
        return rc;
    memset(&d, 0, sizeof d);
    if (spec != NULL &&
        (*spec = strdup(bt_game_spec(bt_quotient_game(q)))) == NULL) {
        bt_quotient_free(q);
        fprintf(stderr, "bouton %s: out of memory\n", cmd);
        return CLI_FAIL;
    }
    st = bt_quotient_install(q, &d);
    if (st != BT_OK) {
        if (spec != NULL) {
            free(*spec);
            *spec = NULL;
        }
        return cli_error(cmd, "--quotient '%s': %s", path, d.message);
    }
    return CLI_OK;
}

int
cli_quotient_for(const char *cmd, const char *path, const bt_position *p,
                 const bt_limits *lim)
{
    char *spec = NULL;
    size_t i;
    int rc = cli_quotient_install(cmd, path, lim, &spec);
    if (rc != CLI_OK)
        return rc;
    for (i = 0; i < bt_position_size(p); i++)
        if (strcmp(bt_game_spec(bt_position_game(p, i)), spec) == 0)
            break;
    if (i == bt_position_size(p))
        rc = cli_error(cmd, "--quotient is the misère quotient of %s, and "
                            "no component of the position is a heap of it",
                       spec);
    free(spec);
    return rc;
}

int
cli_position(const char *cmd, bt_position **out, const char *game_spec,
             char **args, int n, const bt_limits *lim)
{
    bt_game *g = NULL;
    bt_diag d;
    bt_status st;
    char *text = NULL;
    size_t len = 0;
    int i, rc;

    *out = NULL;
    memset(&d, 0, sizeof d);
    st = bt_game_new(&g, game_spec ? game_spec : "nim", &d);
    if (st != BT_OK)
        return cli_error(cmd, "--game '%s': %s", game_spec, d.message);
    if (n == 1 && strcmp(args[0], "-") == 0) {
        text = cli_read_stdin(cmd, lim->max_text);
        if (text == NULL) {
            bt_game_free(g);
            return CLI_USAGE;
        }
    } else {
        for (i = 0; i < n; i++)
            len += strlen(args[i]) + 1;
        text = malloc(len + 1);
        if (text == NULL) {
            bt_game_free(g);
            return CLI_FAIL;
        }
        text[0] = '\0';
        len = 0;
        for (i = 0; i < n; i++) {
            size_t k = strlen(args[i]);
            memcpy(text + len, args[i], k);
            len += k;
            text[len++] = ' ';
        }
        if (len > 0)
            len--;
        text[len] = '\0';
    }
    st = bt_position_parse(out, text, g, lim, &d);
    if (st != BT_OK) {
        rc = cli_status_error(cmd, st, &d);
    } else {
        rc = CLI_OK;
    }
    free(text);
    bt_game_free(g);
    return rc;
}
