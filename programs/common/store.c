/*
 * store.c -- the store of proved results (docs/store.md): the proved
 * misère quotients that commands computed, kept in files so that a later
 * process reads them back instead of proving them again.
 *
 * Two layers, read in this order: the user's store (written and read:
 * --store DIR, else $BOUTON_STORE, else $XDG_CACHE_HOME/bouton, else
 * ~/.cache/bouton) and the entries the install ships (read only:
 * share/bouton/store beside the program's bin/).  One file per game,
 * named from the game's canonical rules; its text is bt_quotient_save()'s.
 * Nothing read is trusted: an entry is used only after bt_quotient_load()
 * has checked it exactly (as `--quotient FILE` is), and only when it is
 * a quotient of the game its name says: proved, or computed to a heap
 * past CLI_STORE_SMALL_HEAP (a wild game's quotient to its heap 32 is
 * checked in a fortieth of the time it takes to learn).  An entry is
 * replaced only by one that says more: a proved quotient, or one computed
 * further.  A store that cannot be read or written costs a warning at
 * most, never an answer.
 */
#define _XOPEN_SOURCE 700 /* readlink(), O_NOFOLLOW */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Guards the games of every cli_store: the server keeps what its
   requests prove from several threads. */
static pthread_mutex_t store_mu = PTHREAD_MUTEX_INITIALIZER;

/* The suffix of an entry's file name. */
static const char entry_suffix[] = ".quotient";
#ifndef BOUTON_SHIPPED_STORE /* the build says (CMakeLists.txt) */
#define BOUTON_SHIPPED_STORE "../share/bouton/store"
#endif
/*
 * A game whose heaps in a position are all this small is not looked up:
 * the analysis learns the quotient of such heaps in about the time the
 * check of a stored entry takes (Kayles to 26: 0.02 s of CPU, as the
 * check of Kayles' entry), so a script that analyses small positions in a
 * loop pays nothing for the store.  Past it the analysis proves the
 * period (Kayles: 1.2 s), which the entry saves.
 */
#define CLI_STORE_SMALL_HEAP 26
/* The longest escaped game rules an entry is named from (a file name has
   at most 255 bytes); a game with longer rules is not stored. */
#define ENTRY_NAME_MAX 200


/* A malloc'd "a/b" (b may be empty: "a"); NULL when out of memory. */
static char *
join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = malloc(n);
    if (s != NULL)
        snprintf(s, n, b[0] ? "%s/%s" : "%s", a, b);
    return s;
}

/*
 * The file name of spec's entry: the rules with every byte but letters,
 * digits, '.', '-' and '_' written %XX (so ':' ',' ' ' '/' and '%'
 * cannot make a path or collide), then the suffix.  0, or -1 when the
 * name would be too long.
 */
static int
entry_name(const char *spec, char *out, size_t size)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    const unsigned char *c = (const unsigned char *)spec;
    if (*c == '\0' || *c == '.')
        return -1; /* never ".", ".." or a hidden file */
    for (; *c; c++) {
        int plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                    (*c >= '0' && *c <= '9') || *c == '.' || *c == '-' ||
                    *c == '_';
        if (n + 3 >= ENTRY_NAME_MAX)
            return -1;
        if (plain) {
            out[n++] = (char)*c;
        } else {
            out[n++] = '%';
            out[n++] = hex[*c >> 4];
            out[n++] = hex[*c & 15];
        }
    }
    if (n + sizeof entry_suffix > size)
        return -1;
    memcpy(out + n, entry_suffix, sizeof entry_suffix);
    return 0;
}

/* The entries the install ships: share/bouton/store beside the bin/ that
   holds this program, when it is a directory (malloc'd), else NULL.  From
   the program's own path, so that an install under any prefix finds its
   own entries, and a program in a build tree has none. */
static char *
shipped_dir(void)
{
    char exe[PATH_MAX], *slash, *dir;
    struct stat st;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (slash == NULL)
        return NULL;
    *slash = '\0'; /* the directory of the program: PREFIX/bin */
    dir = join(exe, BOUTON_SHIPPED_STORE);
    if (dir != NULL && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        free(dir);
        dir = NULL;
    }
    return dir;
}

/* The user's store by default: $XDG_CACHE_HOME/bouton (an absolute
   path, as the XDG base directory specification asks), else
   $HOME/.cache/bouton; NULL when neither is set. */
static char *
default_dir(void)
{
    const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char *base, *dir;
    if (cache != NULL && cache[0] == '/')
        return join(cache, "bouton");
    if (home == NULL || home[0] != '/')
        return NULL;
    base = join(home, ".cache");
    dir = base != NULL ? join(base, "bouton") : NULL;
    free(base);
    return dir;
}

int
cli_store_open(cli_store *s, const char *cmd, const char *dir, int off,
               int cache_default)
{
    const char *env = getenv("BOUTON_STORE");
    memset(s, 0, sizeof *s);
    s->cmd = cmd;
    if (dir != NULL && dir[0] == '\0')
        return cli_error(cmd, "--store '': an empty directory name");
    if (off || (dir == NULL && env != NULL && strcmp(env, "off") == 0))
        return CLI_OK;
    if (dir != NULL)
        s->dir = strdup(dir);
    else if (env != NULL && env[0] != '\0')
        s->dir = strdup(env);
    else if (cache_default)
        s->dir = default_dir();
    s->shipped = shipped_dir();
    s->on = 1;
    return CLI_OK;
}

void
cli_store_close(cli_store *s)
{
    size_t i;
    for (i = 0; i < s->ngames; i++)
        free(s->games[i].spec);
    free(s->dir);
    free(s->shipped);
    memset(s, 0, sizeof *s);
}

/* "bouton CMD: warning: ..." on stderr. */
static void
warn(const cli_store *s, const char *fmt, const char *a, const char *b)
{
    char msg[1200];
    snprintf(msg, sizeof msg, fmt, a, b);
    fprintf(stderr, "bouton %s: warning: ", s->cmd);
    cli_fputs_safe(msg, stderr);
    fputc('\n', stderr);
}

/*
 * Reads the entry at path into a malloc'd text (*len bytes).  Only a
 * regular file is read: a symbolic link is not followed (O_NOFOLLOW) and
 * a directory, FIFO or device is refused, without blocking (O_NONBLOCK).
 * 1 with the text; 0 when there is no such file; -1 with the reason in
 * why.
 */
static int
read_entry(const char *path, size_t max, char **text, size_t *len,
           char *why, size_t size)
{
    struct stat st;
    size_t got = 0;
    char *buf;
    int fd;
    *text = NULL;
    errno = 0;
    fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return 0; /* no entry (no store yet; writing it will say) */
        snprintf(why, size, "%s", errno == ELOOP ? "a symbolic link"
                                                 : strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int dir = errno == 0 && S_ISDIR(st.st_mode);
        snprintf(why, size, "%s", dir ? "a directory" : "not a regular file");
        close(fd);
        return -1;
    }
    if ((size_t)st.st_size > max) {
        snprintf(why, size, "longer than %zu bytes", max);
        close(fd);
        return -1;
    }
    buf = malloc((size_t)st.st_size + 1);
    if (buf == NULL) {
        snprintf(why, size, "out of memory");
        close(fd);
        return -1;
    }
    for (;;) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            snprintf(why, size, "%s", strerror(errno));
            free(buf);
            close(fd);
            return -1;
        }
        if (n == 0 || (got += (size_t)n) == (size_t)st.st_size)
            break;
    }
    close(fd);
    buf[got] = '\0';
    *text = buf;
    *len = got;
    return 1;
}

static void header_field(const char *text, const char *word, char *out,
                         size_t size);

/* How far a quotient reaches: SIZE_MAX proved, else the heaps it was
   computed to. */
static size_t
quotient_reach(const bt_quotient *q)
{
    size_t per, pre;
    return bt_quotient_period(q, &per, &pre) ? SIZE_MAX : bt_quotient_upto(q);
}

/* How far an entry's text says it reaches, from its header (not checked:
   only to choose which entry to check first, and whether to write over
   it); 0 when the header says nothing. */
static size_t
text_reach(const char *text)
{
    char upto[32], period[64];
    header_field(text, "period", period, sizeof period);
    if (strcmp(period, "none") != 0 && strcmp(period, "?") != 0)
        return SIZE_MAX;
    header_field(text, "upto", upto, sizeof upto);
    return strspn(upto, "0123456789") == strlen(upto) && strlen(upto) < 10
               ? (size_t)strtoul(upto, NULL, 10)
               : 0;
}

/*
 * Checks the text of spec's entry: bt_quotient_load() (the exact check of
 * `--quotient FILE`), then that it is the quotient of spec's game (not
 * another game's under this name), proved or computed past
 * CLI_STORE_SMALL_HEAP.  BT_OK with *q, else *q is NULL and why says what
 * failed.
 */
static bt_status
check_entry(const char *spec, const char *text, size_t len,
            const bt_limits *lim, bt_quotient **q, char *why, size_t size)
{
    bt_diag d;
    bt_status st;
    size_t per, pre;
    memset(&d, 0, sizeof d);
    st = bt_quotient_load(q, text, len, lim, &d);
    if (st != BT_OK) {
        snprintf(why, size, "%s",
                 d.message[0] ? d.message : bt_strerror(st));
        return st;
    }
    if (spec != NULL && strcmp(bt_game_spec(bt_quotient_game(*q)), spec) != 0)
        snprintf(why, size, "it holds the quotient of %s",
                 bt_game_spec(bt_quotient_game(*q)));
    else if (!bt_quotient_period(*q, &per, &pre) &&
             bt_quotient_upto(*q) <= CLI_STORE_SMALL_HEAP)
        snprintf(why, size,
                 "its quotient is neither proved nor computed past heap %d",
                 CLI_STORE_SMALL_HEAP);
    else
        return BT_OK;
    bt_quotient_free(*q);
    *q = NULL;
    return BT_EINVAL;
}

/* The record of spec in s (added when new); NULL when out of room. */
static cli_store_game *
game_of(cli_store *s, const char *spec, int *fresh)
{
    size_t i;
    *fresh = 0;
    for (i = 0; i < s->ngames; i++)
        if (strcmp(s->games[i].spec, spec) == 0)
            return &s->games[i];
    if (s->ngames == CLI_STORE_GAMES)
        return NULL;
    s->games[s->ngames].spec = strdup(spec);
    if (s->games[s->ngames].spec == NULL)
        return NULL;
    s->games[s->ngames].state = CLI_STORE_ABSENT;
    *fresh = 1;
    return &s->games[s->ngames++];
}

/*
 * Looks up g's entry in the user's store and in the shipped one, and
 * installs the one that says more (proved, else computed further; the
 * user's on a tie) when it passes the check, else the other.  A damaged
 * entry is named in one warning and passed over.
 */
static void
use_game(cli_store *s, bt_game *g, const bt_limits *lim)
{
    char name[ENTRY_NAME_MAX + sizeof entry_suffix], why[600];
    const char *layers[2];
    char *path[2] = {NULL, NULL}, *text[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    int fresh, k, r[2] = {0, 0}, order[2] = {0, 1};
    cli_store_game *sg = game_of(s, bt_game_spec(g), &fresh);
    if (sg == NULL || !fresh ||
        entry_name(bt_game_spec(g), name, sizeof name) != 0)
        return;
    layers[0] = s->dir;
    layers[1] = s->shipped;
    for (k = 0; k < 2; k++) {
        if (layers[k] == NULL || (path[k] = join(layers[k], name)) == NULL)
            continue;
        r[k] = read_entry(path[k], lim->max_text, &text[k], &len[k], why,
                          sizeof why);
        if (r[k] < 0) {
            warn(s, "the store's entry '%s' is ignored, not trusted: %s",
                 path[k], why);
            if (k == 0)
                sg->state = CLI_STORE_BLOCKED; /* not a file of ours */
        }
    }
    if (r[0] > 0 && r[1] > 0 && text_reach(text[1]) > text_reach(text[0])) {
        order[0] = 1;
        order[1] = 0;
    }
    for (k = 0; k < 2; k++) {
        int i = order[k];
        bt_quotient *q = NULL;
        if (r[i] <= 0)
            continue;
        if (check_entry(bt_game_spec(g), text[i], len[i], lim, &q, why,
                        sizeof why) == BT_OK) {
            size_t reach = quotient_reach(q);
            /* the library owns q from here, whatever it answers (at most
               16 quotients lent: past them the analysis computes) */
            if (bt_quotient_install(q, NULL) == BT_OK) {
                if (sg->state != CLI_STORE_BLOCKED)
                    sg->state = CLI_STORE_LOADED;
                sg->reach = reach;
            }
            break;
        }
        warn(s, "the store's entry '%s' is ignored, not trusted: %s",
             path[i], why);
    }
    for (k = 0; k < 2; k++) {
        free(text[k]);
        free(path[k]);
    }
}

void
cli_store_use(cli_store *s, const bt_position *p, const bt_limits *lim)
{
    size_t i;
    if (!s->on)
        return;
    pthread_mutex_lock(&store_mu);
    for (i = 0; i < bt_position_size(p); i++) {
        bt_game *g = bt_position_game(p, i);
        /* the heap games with a Grundy sequence: those whose quotient a
           periodicity theorem can prove (Nim has Bouton's rule); and only
           for a heap past CLI_STORE_SMALL_HEAP */
        if (g != NULL && bt_sequence_is_supported(g) &&
            mpz_cmp_ui(bt_position_nums(p, i)[0], CLI_STORE_SMALL_HEAP) > 0)
            use_game(s, g, lim);
    }
    pthread_mutex_unlock(&store_mu);
}

/* Creates dir and its missing parents (0700, as the XDG specification
   asks of the directories it names); 0 or -1 with errno set. */
static int
make_dirs(const char *dir)
{
    char *p = strdup(dir), *c;
    struct stat st;
    int rc = 0;
    if (p == NULL)
        return -1;
    for (c = p + 1; rc == 0; c++) {
        if (*c != '/' && *c != '\0')
            continue;
        {
            char keep = *c;
            *c = '\0';
            if (mkdir(p, 0700) != 0 && errno != EEXIST)
                rc = -1;
            *c = keep;
        }
        if (*c == '\0')
            break;
    }
    free(p);
    if (rc == 0 && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        errno = ENOTDIR; /* a file where the store should be */
        rc = -1;
    }
    return rc;
}

/*
 * Writes text as spec's entry in the user's store, atomically
 * (cli_save_*: a temporary file beside it, fsync, rename), never over
 * what is not a regular file.  A failure is one warning; 0 or -1.
 */
static int
put_text(cli_store *s, const char *spec, const char *text)
{
    char name[ENTRY_NAME_MAX + sizeof entry_suffix];
    char *path;
    struct stat st;
    cli_save sv;
    int rc = -1;
    if (s->dir == NULL || entry_name(spec, name, sizeof name) != 0)
        return -1;
    path = join(s->dir, name);
    if (path == NULL)
        return -1;
    if (make_dirs(s->dir) != 0) {
        warn(s, "the store '%s' cannot hold a new entry: %s", s->dir,
             strerror(errno));
    } else if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        warn(s, "the store's entry '%s' is %s: not replaced", path,
             S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
    } else if (cli_save_begin(&sv, "the store's entry", path) != CLI_OK) {
        warn(s, "%s%s", sv.error, "");
    } else {
        cli_save_write(&sv, text, strlen(text));
        if (cli_save_commit(&sv) != CLI_OK)
            warn(s, "%s%s", sv.error, "");
        else
            rc = 0;
    }
    free(path);
    return rc;
}

/* Whether the user's store holds an entry of spec that reaches at least
   reach and passes the check (another process may have written it since
   this one looked). */
static int
user_has(const cli_store *s, const char *spec, size_t reach)
{
    char name[ENTRY_NAME_MAX + sizeof entry_suffix], why[600];
    char *path, *text = NULL;
    size_t len = 0;
    bt_limits lim;
    bt_quotient *q = NULL;
    int has = 0;
    if (entry_name(spec, name, sizeof name) != 0 ||
        (path = join(s->dir, name)) == NULL)
        return 0;
    bt_limits_default(&lim);
    if (read_entry(path, lim.max_text, &text, &len, why, sizeof why) > 0 &&
        text_reach(text) >= reach &&
        check_entry(spec, text, len, &lim, &q, why, sizeof why) == BT_OK)
        has = quotient_reach(q) >= reach;
    bt_quotient_free(q);
    free(text);
    free(path);
    return has;
}

void
cli_store_put(cli_store *s, const bt_quotient *q)
{
    char *text = NULL;
    int fresh;
    size_t reach;
    const char *spec;
    cli_store_game *sg;
    if (!s->on || s->dir == NULL || bt_quotient_game_count(q) != 1)
        return;
    reach = quotient_reach(q);
    if (reach <= CLI_STORE_SMALL_HEAP)
        return; /* learnt again as fast as checked */
    spec = bt_game_spec(bt_quotient_game(q));
    pthread_mutex_lock(&store_mu);
    sg = game_of(s, spec, &fresh);
    /* never over what is not a file of ours, nor over an entry that says
       as much (read or written by this process, or now in the store) */
    if ((sg == NULL || sg->state == CLI_STORE_ABSENT ||
         (sg->state == CLI_STORE_LOADED && sg->reach < reach)) &&
        !user_has(s, spec, reach) && bt_quotient_save(&text, q, NULL) == BT_OK) {
        int rc = put_text(s, spec, text);
        if (sg != NULL) {
            sg->state = rc == 0 ? CLI_STORE_LOADED : CLI_STORE_BLOCKED;
            sg->reach = reach;
        }
    }
    pthread_mutex_unlock(&store_mu);
    free(text);
}

void
cli_store_keep(cli_store *s, const bt_position *p)
{
    size_t i;
    if (!s->on || s->dir == NULL)
        return;
    pthread_mutex_lock(&store_mu);
    for (i = 0; i < bt_position_size(p); i++) {
        bt_game *g = bt_position_game(p, i);
        char *text = NULL;
        int fresh;
        cli_store_game *sg;
        if (g == NULL || !bt_sequence_is_supported(g))
            continue;
        sg = game_of(s, bt_game_spec(g), &fresh);
        if (sg == NULL || sg->state == CLI_STORE_BLOCKED ||
            (sg->state == CLI_STORE_LOADED && sg->reach == SIZE_MAX))
            continue;
        /* what the analysis proved on its own, if anything; one try
           (a store that cannot be written warns once) */
        if (bt_quotient_save_proved(&text, g, NULL) == BT_OK) {
            sg->state = put_text(s, sg->spec, text) == 0
                            ? CLI_STORE_LOADED
                            : CLI_STORE_BLOCKED;
            sg->reach = SIZE_MAX;
        }
        free(text);
    }
    pthread_mutex_unlock(&store_mu);
}

size_t
cli_store_use_all(cli_store *s, const bt_limits *lim, size_t max)
{
    const char *layers[2];
    size_t installed = 0, k, i, n;
    if (!s->on)
        return 0;
    layers[0] = s->dir;
    layers[1] = s->shipped;
    for (k = 0; k < 2; k++) {
        char **names;
        if (layers[k] == NULL)
            continue;
        names = cli_store_names(layers[k], 0, &n);
        for (i = 0; i < n && installed < max; i++) {
            cli_store_info e;
            bt_quotient *q = NULL;
            int fresh;
            cli_store_game *sg;
            if (cli_store_entry(&e, layers[k], names[i], 1, lim, &q) < 0) {
                char *path = join(layers[k], names[i]);
                warn(s, "the store's entry '%s' is ignored, not trusted: %s",
                     path ? path : names[i], e.why);
                free(path);
                continue;
            }
            sg = game_of(s, e.game, &fresh);
            if (sg == NULL || sg->state == CLI_STORE_BLOCKED ||
                (sg->state == CLI_STORE_LOADED &&
                 sg->reach >= quotient_reach(q))) {
                bt_quotient_free(q); /* the user's entry says as much */
                continue;
            }
            sg->reach = quotient_reach(q);
            if (bt_quotient_install(q, NULL) == BT_OK) {
                sg->state = CLI_STORE_LOADED;
                installed++;
            }
        }
        cli_store_names_free(names, n);
    }
    return installed;
}

/* ------------------------------------------------ what `store` reads */

/* Whether name is an entry's file name (not a temporary file of one). */
static int
is_entry(const char *name)
{
    size_t n = strlen(name), k = sizeof entry_suffix - 1;
    return name[0] != '.' && n > k && strcmp(name + n - k, entry_suffix) == 0;
}

/* Whether name is a temporary file that a write left behind
   (NAME.quotient.tmp.XXXXXX, cli_save_begin's). */
static int
is_leftover(const char *name)
{
    const char *t = strstr(name, ".quotient.tmp.");
    return name[0] != '.' && t != NULL &&
           strlen(t) == strlen(".quotient.tmp.XXXXXX");
}

static int
cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **
cli_store_names(const char *dir, int leftovers, size_t *n)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **v = NULL;
    size_t cap = 0;
    *n = 0;
    if (d == NULL)
        return NULL;
    while ((e = readdir(d)) != NULL) {
        if (!(leftovers ? is_leftover(e->d_name) : is_entry(e->d_name)))
            continue;
        if (*n == cap) {
            char **nv = realloc(v, (cap = cap ? 2 * cap : 16) * sizeof *v);
            if (nv == NULL)
                break;
            v = nv;
        }
        if ((v[*n] = strdup(e->d_name)) == NULL)
            break;
        (*n)++;
    }
    closedir(d);
    if (*n > 0)
        qsort(v, *n, sizeof *v, cmp_names);
    return v;
}

void
cli_store_names_free(char **v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* The value of the header line "WORD ..." of an entry's text, in out
   ("?" when there is none before the table). */
static void
header_field(const char *text, const char *word, char *out, size_t size)
{
    size_t n = strlen(word);
    const char *at = text;
    snprintf(out, size, "?");
    while (at != NULL && *at && strncmp(at, "table", 5) != 0) {
        if (strncmp(at, word, n) == 0 && at[n] == ' ') {
            size_t len = strcspn(at + n + 1, "\n");
            snprintf(out, size, "%.*s", (int)(len < size ? len : size - 1),
                     at + n + 1);
            return;
        }
        at = strchr(at, '\n');
        if (at != NULL)
            at++;
    }
}

int
cli_store_entry(cli_store_info *e, const char *dir, const char *name,
                int verify, const bt_limits *lim, bt_quotient **out)
{
    char *path = join(dir, name), *text = NULL;
    char exp[ENTRY_NAME_MAX + sizeof entry_suffix];
    size_t len = 0;
    int r;
    memset(e, 0, sizeof *e);
    if (path == NULL) {
        snprintf(e->why, sizeof e->why, "out of memory");
        return -1;
    }
    r = read_entry(path, lim->max_text, &text, &len, e->why, sizeof e->why);
    free(path);
    if (r == 0)
        snprintf(e->why, sizeof e->why, "removed while it was read");
    if (r <= 0)
        return -1;
    e->bytes = len;
    header_field(text, "game", e->game, sizeof e->game);
    header_field(text, "upto", e->upto, sizeof e->upto);
    header_field(text, "period", e->period, sizeof e->period);
    if (verify) {
        bt_quotient *q = NULL;
        /* the name must be the one its game's rules give */
        if (entry_name(e->game, exp, sizeof exp) != 0 ||
            strcmp(exp, name) != 0) {
            snprintf(e->why, sizeof e->why,
                     "it holds the quotient of %s, not of the game its "
                     "name says",
                     e->game);
            r = -1;
        } else if (check_entry(e->game, text, len, lim, &q, e->why,
                               sizeof e->why) != BT_OK) {
            r = -1;
        }
        if (out != NULL && r > 0)
            *out = q;
        else
            bt_quotient_free(q);
    }
    free(text);
    return r;
}
