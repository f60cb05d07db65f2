/*
 * cmd_play.c -- `bouton play`: a game against the computer in the terminal.
 *
 * On a terminal the moves are read with libedit (line editing, history);
 * when standard input is not a terminal they are read with getline and no
 * prompt is printed, so a game can be scripted.  The game is kept as a
 * bt_record and saved when it ends, when the player quits or the input
 * ends, and on SIGINT, SIGHUP or SIGTERM (the handlers only set a flag; the
 * read returns and the loop saves).
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <histedit.h>

#include "cli.h"

/* The usage and what the command does; its option lines come from the
   table of operations (programs/common/optable.c), then help_tail. */
static const char help_head[] =
    "usage: bouton play [--game RULES] [--misere] [--first me|computer]\n"
    "                   [--level L] [--seed S] [--save FILE] [POSITION...]\n"
    "       bouton play [OPTIONS] --random [--piles K] [--max N]\n"
    "       bouton play [--level L] [--seed S] [--save FILE] --load FILE\n\n"
    "Plays a game against the computer.  POSITION is piles of the game "
    "given\nby --game (default nim) or a sum in the position language, e.g.\n"
    "'nim 3 4 + kayles 6'.  With no position, or with --random, the start "
    "is\nrandom: K components (default 3; 1 for a game of pairs such as\n"
    "wythoff) whose numbers are drawn independently and uniformly from\n"
    "1..N (default 15).  The player to move wins from most such starts:\n"
    "for Nim the share of safe starts is given by\n"
    "`bouton count --ordered --piles K --min 1 --max N`.\n\n";
static const char help_tail[] =
    "  --help        this text\n\n"
    "During the game, type 'help' for the moves and commands.\n";

static const char game_help[] =
    "Moves:\n"
    "  I N            take N counters from pile I (piles are numbered as "
    "drawn)\n"
    "  take N from I  the same\n"
    "  b N, b J N     Wythoff: take N from both piles (of pair J)\n"
    "  3 0 5          the position your move leaves (a sum: 'nim 3 + "
    "kayles 4')\n"
    "  = 3 5          the position your move leaves, when '3 5' could also\n"
    "                 read as 'take 5 from pile 3'\n"
    "  = 1 4          a coin game (drawn as H and T): the heads your move\n"
    "                 leaves ('= 3,5 6,2' on a board of coins x,y)\n"
    "Commands:\n"
    "  hint           the winning moves and why (or the best try)\n"
    "  undo           take back your last move and the computer's reply\n"
    "  show           draw the position again\n"
    "  save FILE      save the game (bouton play --load FILE resumes it)\n"
    "  help           this text\n"
    "  quit           stop (the game is saved)\n";

/* Piles drawn as rows of counters when none is larger and there are no
   more rows than this. */
#define DRAW_MAX 40
#define DRAW_ROWS 24

static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
    got_signal = sig;
}

/* Long computations poll this (bt_limits.interrupt): a signal, or the
   end of --max-time, stops them. */
static int
interrupted(void *ud)
{
    (void)ud;
    return got_signal != 0 || cli_time_up();
}

typedef struct game {
    bt_record *rec;
    bt_game *dflt; /* the game of terms that name none */
    int misere;
    char human; /* 'A' or 'B' */
    bt_level level;
    uint64_t rng;
    bt_limits lim;
    const char *save_path;
    int save_mkdirs; /* the default path: create its directories */
    int tty;
    EditLine *el;
    History *hist;
    char *line; /* getline's buffer */
    size_t cap;
} game;

/* --------------------------------------------------------------- output */

/* Counts the numbers of p; *width is the largest when all are small enough
   to draw as counters, else 0. */
static void
count_numbers(const bt_position *p, size_t *numbers, unsigned long *width)
{
    size_t i, n = 0;
    unsigned long w = 1;
    int small = 1;
    for (i = 0; i < bt_position_size(p); i++) {
        const mpz_t *v = bt_position_nums(p, i);
        size_t j, ar = bt_position_count(p, i);
        for (j = 0; j < ar; j++, n++) {
            if (mpz_cmp_ui(v[j], DRAW_MAX) > 0)
                small = 0;
            else if (mpz_get_ui(v[j]) > w)
                w = mpz_get_ui(v[j]);
        }
    }
    *numbers = n;
    *width = small && n <= DRAW_ROWS ? w : 0;
}

/* Coins drawn as H and T when every head is within this many of the
   first coin (of each side, on a board); else the heads are listed. */
#define COINS_MAX 40

/* The heads of coin component v (ar numbers, w a coin) as a list:
   "1, 4, 7" or "(3,5), (6,2)". */
static void
list_heads(const mpz_t *v, size_t ar, size_t w)
{
    size_t j;
    for (j = 0; j + w <= ar; j += w) {
        fputs(j ? ", " : "", stdout);
        if (w == 2)
            gmp_printf("(%Zd,%Zd)", v[j], v[j + 1]);
        else
            mpz_out_str(stdout, 10, v[j]);
    }
}

/* Whether coin (x, y) (y ignored in a row) is among the heads. */
static int
is_head(const mpz_t *v, size_t ar, size_t w, unsigned long x,
        unsigned long y)
{
    size_t j;
    for (j = 0; j + w <= ar; j += w)
        if (mpz_cmp_ui(v[j], x) == 0 &&
            (w == 1 || mpz_cmp_ui(v[j + 1], y) == 0))
            return 1;
    return 0;
}

/* Draws a coin game's component (bt_game_board): its heads, then, when
   they are near enough, the row of coins numbered as the family numbers
   them, or the board with x across and y down, H heads and T tails. */
static void
draw_coins(bt_game *g, size_t comp, const mpz_t *v, size_t ar)
{
    int grid = bt_game_board(g) == BT_BOARD_GRID;
    size_t j, w = grid ? 2 : 1;
    unsigned long first[2], last[2] = {0, 0}, x, y;
    int far = 0;
    first[0] = bt_game_board_first(g, 0);
    first[1] = bt_game_board_first(g, 1);
    printf("  game %zu (%s): heads at ", comp + 1, bt_game_spec(g));
    list_heads(v, ar, w);
    fputc('\n', stdout);
    for (j = 0; j < ar; j++) {
        size_t a = j % w;
        if (mpz_cmp_ui(v[j], first[a] + COINS_MAX) >= 0)
            far = 1;
        else if (mpz_get_ui(v[j]) > last[a])
            last[a] = mpz_get_ui(v[j]);
    }
    if (far) {
        printf("  (too far along to draw: type the heads your move "
               "leaves)\n");
        return;
    }
    if (!grid) {
        /* two tails past the largest head, numbered above */
        printf("   ");
        for (x = first[0]; x <= last[0] + 2; x++)
            printf(" %2lu", x);
        printf("\n   ");
        for (x = first[0]; x <= last[0] + 2; x++)
            printf("  %c", is_head(v, ar, 1, x, 0) ? 'H' : 'T');
        fputc('\n', stdout);
        return;
    }
    printf("    y\\x");
    for (x = first[0]; x <= last[0] + 1; x++)
        printf(" %2lu", x);
    fputc('\n', stdout);
    for (y = first[1]; y <= last[1] + 1; y++) {
        printf("    %3lu", y);
        for (x = first[0]; x <= last[0] + 1; x++)
            printf("  %c", is_head(v, ar, 2, x, y) ? 'H' : 'T');
        fputc('\n', stdout);
    }
}

/* Draws the position: a row per pile, numbered as moves name them; the
   piles of one component of several numbers are bracketed together (a
   Wythoff pair, or all the piles of a game of variable arity such as
   Moore's Nim). */
static void
draw(const bt_position *p)
{
    size_t i, n, flat = 0;
    unsigned long width;
    int mixed = bt_position_single_game(p) == NULL;
    count_numbers(p, &n, &width);
    if (n == 0) {
        printf("  (nothing left)\n");
        return;
    }
    for (i = 0; i < bt_position_size(p); i++) {
        bt_game *g = bt_position_game(p, i);
        const mpz_t *v = bt_position_nums(p, i);
        size_t j, ar = bt_position_count(p, i);
        if (bt_game_board(g) != BT_BOARD_PILES) {
            draw_coins(g, i, v, ar);
            flat += ar; /* the piles after it keep their numbers */
            continue;
        }
        for (j = 0; j < ar; j++) {
            flat++;
            printf("  %2zu  ", flat);
            if (width > 0) {
                unsigned long k, c = mpz_get_ui(v[j]);
                for (k = 0; k < width; k++)
                    fputs(k < c ? "o" : " ", stdout);
                printf("  %2lu", c);
            } else {
                mpz_out_str(stdout, 10, v[j]);
            }
            if (ar > 1 && j == 0 && bt_game_arity(g) == 2)
                printf("   \\ pair %zu (%s)", i + 1, bt_game_spec(g));
            else if (ar > 1 && j == 0)
                printf("   \\ game %zu (%s): piles %zu to %zu", i + 1,
                       bt_game_spec(g), flat, flat + ar - 1);
            else if (ar > 1 && j + 1 < ar)
                printf("   |");
            else if (ar > 1)
                printf("   /");
            else if (mixed)
                printf("   (%s)", bt_game_spec(g));
            fputc('\n', stdout);
        }
    }
}

static void
banner(const game *gm)
{
    const bt_position *p = bt_record_current(gm->rec);
    bt_game *g = bt_position_single_game(p);
    if (g != NULL) {
        char *rules = bt_game_rules(g);
        printf("Game: %s -- %s\n", bt_game_spec(g), rules ? rules : "");
        free(rules);
    } else
        printf("Game: a sum -- a move is a move in one of its games.\n");
    printf(gm->misere ? "Misère play: whoever makes the last move loses.\n"
                      : "Normal play: whoever makes the last move wins.\n");
    if (bt_record_length(gm->rec) == 0)
        printf("You play %s.\n",
               bt_record_player(gm->rec, 0) == gm->human ? "first" : "second");
    else
        printf("Resumed after %zu moves.\n", bt_record_length(gm->rec));
    if (gm->level != BT_LEVEL_PERFECT)
        printf("The computer plays at level %s (a random move %u times in "
               "1000).\n",
               bt_level_name(gm->level), bt_level_error_permille(gm->level));
    printf("Type 'help' for the moves and commands.\n");
}

/* ------------------------------------------------------------- saving */

/* Makes the directories above path (like mkdir -p of its dirname). */
static void
make_parents(const char *path)
{
    char *copy = strdup(path), *s;
    if (copy == NULL)
        return;
    for (s = copy + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(copy, 0777); /* fails harmlessly when it exists */
            *s = '/';
        }
    free(copy);
}

/* Saves the game to path atomically (cli_save_begin); 0, or -1 with the
   reason in err. */
static int
save_to(const game *gm, const char *path, int mkdirs, char *err,
        size_t size)
{
    bt_record *r = gm->rec;
    char state[32];
    char *text;
    cli_save sv;
    int rc;
    snprintf(state, sizeof state, "%llu", (unsigned long long)gm->rng);
    bt_record_set(r, "rng", state, NULL);
    text = bt_record_format(r);
    if (text == NULL) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    if (mkdirs)
        make_parents(path);
    rc = cli_save_begin(&sv, "--save", path);
    if (rc == CLI_OK) {
        cli_save_write(&sv, text, strlen(text));
        rc = cli_save_commit(&sv);
    }
    free(text);
    if (rc != CLI_OK)
        snprintf(err, size, "%s", sv.error);
    return rc == CLI_OK ? 0 : -1;
}

/* Saves to the game's path and says where (or why not, returning -1). */
static int
save_game(const game *gm)
{
    char err[512];
    if (save_to(gm, gm->save_path, gm->save_mkdirs, err, sizeof err) == 0) {
        printf("The game is saved in %s\n(bouton replay FILE shows it, "
               "bouton play --load FILE resumes it).\n",
               gm->save_path);
        return 0;
    }
    cli_error("play", "cannot save the game: %s", err);
    return -1;
}

/* Before a game starts: a --save path must be one a save may replace
   (cli_save_target: a regular file or none), and its directory must exist
   and be writable, so that the game is not lost at its end.  -1 after an
   error. */
static int
check_save_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir, err[512];
    struct stat sb;
    int ok;
    if (cli_save_target("--save", path, NULL, err, sizeof err) != CLI_OK) {
        cli_error("play", "%s", err);
        return -1;
    }
    if (slash == NULL)
        dir = strdup(".");
    else if (slash == path)
        dir = strdup("/");
    else
        dir = strndup(path, (size_t)(slash - path));
    if (dir == NULL)
        return -1;
    ok = stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) &&
         access(dir, W_OK) == 0;
    if (!ok)
        cli_error("play", "cannot save the game in '%.200s': the directory "
                          "'%.200s' %s",
                  path, dir,
                  stat(dir, &sb) != 0 ? "does not exist"
                  : !S_ISDIR(sb.st_mode) ? "is not a directory"
                                         : "is not writable");
    free(dir);
    return ok ? 0 : -1;
}

static char *
default_save_path(void)
{
    const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    const char *tail = "/bouton/last-game.txt";
    char *p;
    if (state != NULL && state[0] == '/') {
        p = malloc(strlen(state) + strlen(tail) + 1);
        if (p != NULL)
            sprintf(p, "%s%s", state, tail);
        return p;
    }
    if (home != NULL && home[0] == '/') {
        p = malloc(strlen(home) + strlen("/.local/state") + strlen(tail) + 1);
        if (p != NULL)
            sprintf(p, "%s/.local/state%s", home, tail);
        return p;
    }
    return strdup("bouton-last-game.txt");
}

/* -------------------------------------------------------------- input */

static char *
prompt(EditLine *el)
{
    (void)el;
    return (char *)"your move> ";
}

/* Reads a line without its newline; NULL at the end of input or on a
   signal. */
static const char *
read_line(game *gm)
{
    if (got_signal) /* arrived while the computer was thinking */
        return NULL;
    if (gm->tty) {
        int count = 0;
        const char *line;
        HistEvent ev;
        size_t len;
        line = el_gets(gm->el, &count);
        if (line == NULL || count <= 0 || got_signal)
            return NULL;
        len = strlen(line);
        free(gm->line);
        gm->line = malloc(len + 1);
        if (gm->line == NULL)
            return NULL;
        memcpy(gm->line, line, len + 1);
        while (len > 0 &&
               (gm->line[len - 1] == '\n' || gm->line[len - 1] == '\r'))
            gm->line[--len] = '\0';
        if (len > 0)
            history(gm->hist, &ev, H_ENTER, gm->line);
        return gm->line;
    } else {
        for (;;) {
            ssize_t n = getline(&gm->line, &gm->cap, stdin);
            char *nul;
            if (n < 0 || got_signal)
                return NULL;
            while (n > 0 &&
                   (gm->line[n - 1] == '\n' || gm->line[n - 1] == '\r'))
                gm->line[--n] = '\0';
            nul = memchr(gm->line, '\0', (size_t)n);
            if (nul == NULL)
                return gm->line;
            /* never act on the part before it: say so and read again */
            printf("Not a move: the line has a NUL byte at column %zu; "
                   "type it again.\n",
                   (size_t)(nul - gm->line) + 1);
            fflush(stdout);
        }
    }
}

/* ---------------------------------------------------------- moves typed */

static int
is_number(const char *s)
{
    if (*s == '\0')
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

/* Splits line into at most max blank-separated words (in place). */
static int
split_words(char *line, char **w, int max)
{
    int n = 0;
    char *s = line;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || n == max)
            return *s == '\0' ? n : max + 1;
        w[n++] = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        if (*s)
            *s++ = '\0';
    }
}

/*
 * The move "take n from pile `pile`" (1-based, numbered as drawn); for a
 * pair, both = 1 takes n from both of its piles.  NULL with a message in
 * why when it is not legal.
 */
static bt_move *
short_move(const game *gm, const char *pile, const char *n, int both, char *why,
           size_t whylen)
{
    const bt_position *p = bt_record_current(gm->rec);
    size_t i, j, flat = 0, want, nto = 0;
    mpz_t k, *to = NULL;
    bt_move *m = NULL;
    bt_diag d;
    char *end;
    int found = 0;

    errno = 0;
    want = strtoul(pile, &end, 10);
    if (*end != '\0' || errno == ERANGE || want == 0) {
        snprintf(why, whylen, "there is no pile %.20s", pile);
        return NULL;
    }
    mpz_init(k);
    if (mpz_set_str(k, n, 10) != 0 || mpz_sgn(k) == 0) {
        snprintf(why, whylen, "take at least one counter");
        goto done;
    }
    for (i = 0; i < bt_position_size(p) && !found; i++) {
        bt_game *g = bt_position_game(p, i);
        const mpz_t *v = bt_position_nums(p, i);
        size_t ar = bt_position_count(p, i);
        size_t at = flat;
        flat += ar;
        if (both ? (i + 1 != want || ar != 2) : want > flat)
            continue;
        found = 1;
        /* the component's numbers: two for a pair, any number for a game
           of variable arity */
        to = malloc(ar * sizeof *to);
        if (to == NULL) {
            snprintf(why, whylen, "out of memory");
            goto done;
        }
        for (nto = 0; nto < ar; nto++)
            mpz_init_set(to[nto], v[nto]);
        for (j = 0; j < ar; j++) {
            if (!both && at + j + 1 != want)
                continue;
            if (mpz_cmp(k, v[j]) > 0) {
                gmp_snprintf(why, whylen, "pile %zu has only %Zd", at + j + 1,
                             v[j]);
                goto done;
            }
            mpz_sub(to[j], v[j], k);
        }
        {
            /* as one component of what is left; for a heap game emptied,
               also as no component (whichever the rules have) */
            int tries = (ar == 1 && mpz_sgn(to[0]) == 0) ? 2 : 1, t;
            for (t = 0; t < tries && m == NULL; t++) {
                bt_position *q;
                if (bt_position_copy(&q, p) != BT_OK)
                    goto done;
                memset(&d, 0, sizeof d);
                if (bt_position_replace(q, i, g, (const mpz_t *)to,
                                        t == 0 ? ar : 0) == BT_OK &&
                    bt_position_find_move(&m, p, q, &gm->lim, &d) != BT_OK)
                    m = NULL;
                if (m == NULL && t == tries - 1)
                    snprintf(why, whylen, "%s", d.message);
                bt_position_free(q);
            }
        }
    }
    if (!found)
        snprintf(why, whylen,
                 both ? "there is no pair %zu" : "there is no pile %zu", want);
done:
    mpz_clear(k);
    for (j = 0; j < nto; j++)
        mpz_clear(to[j]);
    free(to);
    return m;
}

/* The move that leaves the position written in text. */
static bt_move *
position_move(const game *gm, const char *text, char *why, size_t whylen)
{
    bt_position *q;
    bt_move *m = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_position_parse(&q, text, gm->dflt, &gm->lim, &d) != BT_OK) {
        snprintf(why, whylen, "%s", d.message);
        return NULL;
    }
    if (bt_position_find_move(&m, bt_record_current(gm->rec), q, &gm->lim,
                              &d) != BT_OK) {
        snprintf(why, whylen, "%s", d.message);
        m = NULL;
    }
    bt_position_free(q);
    return m;
}

static int
same_result(const bt_position *p, const bt_move *a, const bt_move *b)
{
    bt_position *x, *y;
    int same = 0;
    if (bt_position_copy(&x, p) != BT_OK)
        return 0;
    if (bt_position_copy(&y, p) == BT_OK) {
        same = bt_position_apply(x, a) == BT_OK &&
               bt_position_apply(y, b) == BT_OK && bt_position_equal(x, y);
        bt_position_free(y);
    }
    bt_position_free(x);
    return same;
}

/* Reads a move from what the player typed; NULL after saying why not. */
static bt_move *
parse_move(const game *gm, const char *line)
{
    char copy[1024], *w[8], why[300], why2[300];
    int n;
    size_t len = strlen(line);
    bt_move *a = NULL, *b = NULL;

    why[0] = why2[0] = '\0';
    if (line[0] == '=')
        a = position_move(gm, line + 1, why, sizeof why);
    else if (len >= sizeof copy)
        a = position_move(gm, line, why, sizeof why);
    else {
        memcpy(copy, line, len + 1);
        n = split_words(copy, w, 6);
        if (n == 4 && strcmp(w[0], "take") == 0 && strcmp(w[2], "from") == 0 &&
            is_number(w[1]) && is_number(w[3]))
            a = short_move(gm, w[3], w[1], 0, why, sizeof why);
        else if ((n == 2 || n == 3) &&
                 (strcmp(w[0], "b") == 0 || strcmp(w[0], "both") == 0) &&
                 is_number(w[1]) && (n == 2 || is_number(w[2])))
            a = short_move(gm, n == 3 ? w[1] : "1", w[n - 1], 1, why,
                           sizeof why);
        else if (n == 2 && is_number(w[0]) && is_number(w[1])) {
            /* "I N", or a position of two numbers */
            a = short_move(gm, w[0], w[1], 0, why, sizeof why);
            b = position_move(gm, line, why2, sizeof why2);
            if (a != NULL && b != NULL &&
                !same_result(bt_record_current(gm->rec), a, b)) {
                printf("'%s' is ambiguous: it could mean '%s' or, as the "
                       "position it leaves, '%s'.  Type 'take %s from %s' "
                       "or '= %s %s'.\n",
                       line, a->text, b->text, w[1], w[0], w[0], w[1]);
                bt_moves_free(a, 1);
                bt_moves_free(b, 1);
                return NULL;
            }
            if (a == NULL) {
                a = b;
                b = NULL;
            }
            bt_moves_free(b, b ? 1 : 0);
        } else
            a = position_move(gm, line, why, sizeof why);
    }
    if (a == NULL && strpbrk(line, "0123456789") == NULL)
        printf("'%s' is not a move or a command (type 'help').\n", line);
    else if (a == NULL)
        printf("Not a move: %s.  (Type 'help' for how to write moves.)\n",
               why[0] ? why : "not understood");
    return a;
}

/* --------------------------------------------------------------- hints */

static void
hint(game *gm)
{
    const bt_position *p = bt_record_current(gm->rec);
    bt_analysis *a;
    bt_diag d;
    bt_status st;
    mpz_t r;
    size_t i;

    memset(&d, 0, sizeof d);
    st = bt_analyze(&a, p,
                    BT_EXPLAIN | BT_REMOTENESS | (gm->misere ? BT_MISERE : 0),
                    &gm->lim, &d);
    if (st != BT_OK) {
        printf("No hint: %s.\n", d.message);
        return;
    }
    mpz_init(r);
    if (bt_analysis_outcome(a) == BT_N) {
        printf("You can win.  The winning move%s:\n",
               bt_analysis_move_count(a) > 1 ? "s" : "");
        for (i = 0; i < bt_analysis_move_count(a); i++)
            printf("  %s\n", bt_analysis_move(a, i)->text);
        if (bt_analysis_remoteness_mpz(r, a) == BT_OK) /* bounded */
            gmp_printf("With best play on both sides the game lasts %Zd "
                       "more move%s.\n",
                       r, mpz_cmp_ui(r, 1) == 0 ? "" : "s");
    } else {
        bt_move *m = NULL;
        printf("Every move loses against perfect play (a P-position).\n");
        if (bt_opponent_move(&m, p, gm->misere, BT_LEVEL_PERFECT, NULL,
                             &gm->lim, NULL) == BT_OK) {
            printf("Best try: %s -- it leaves the computer the fewest ways "
                   "to win.\n",
                   m->text);
            bt_moves_free(m, 1);
        }
        if (bt_analysis_remoteness_mpz(r, a) == BT_OK) /* bounded */
            gmp_printf("Against best play the game lasts %Zd more "
                       "move%s.\n",
                       r, mpz_cmp_ui(r, 1) == 0 ? "" : "s");
    }
    if (bt_analysis_explanation(a) != NULL)
        printf("\n%s", bt_analysis_explanation(a));
    mpz_clear(r);
    bt_analysis_free(a);
}

/* ---------------------------------------------------------------- play */

/* The computer moves; -1 when it cannot. */
static int
computer_moves(game *gm)
{
    const bt_position *p = bt_record_current(gm->rec);
    bt_move *m = NULL;
    bt_diag d;
    bt_status st;
    memset(&d, 0, sizeof d);
    st = bt_opponent_move(&m, p, gm->misere, gm->level, &gm->rng, &gm->lim, &d);
    if (got_signal) {
        bt_moves_free(m, m ? 1 : 0);
        return -2;
    }
    if (st != BT_OK) {
        /* too big to weigh: any legal move keeps the game going */
        bt_diag d2;
        memset(&d2, 0, sizeof d2);
        if (bt_random_move(&m, p, &gm->rng, &gm->lim, &d2) != BT_OK) {
            fprintf(stderr, "bouton play: the computer cannot move: %s\n",
                    d.message);
            return -1;
        }
    }
    memset(&d, 0, sizeof d);
    st = bt_record_play(gm->rec, m, &gm->lim, &d);
    if (st != BT_OK) {
        fprintf(stderr, "bouton play: %s\n", d.message);
        bt_moves_free(m, 1);
        return -1;
    }
    printf("Computer: %s.\n", m->text);
    bt_moves_free(m, 1);
    return 0;
}

static void
announce_end(const game *gm)
{
    char w = bt_record_winner(gm->rec);
    printf("%s\n", w == gm->human ? "You win!" : "The computer wins.");
}

/* Takes back the player's last move and the replies after it. */
static void
undo(game *gm)
{
    size_t len = bt_record_length(gm->rec), back = 0;
    while (back < len && bt_record_player(gm->rec, len - 1 - back) != gm->human)
        back++;
    if (back == len) {
        printf("Nothing to undo.\n");
        return;
    }
    bt_record_undo(gm->rec, back + 1);
    printf("Taken back.\n");
}

/* "save FILE": saves the game there. */
static void
save_command(const game *gm, const char *path)
{
    char err[512];
    while (*path == ' ')
        path++;
    if (*path == '\0')
        printf("Save where?  Type 'save FILE'.\n");
    else if (save_to(gm, path, 0, err, sizeof err) == 0)
        printf("Saved in %s.\n", path);
    else
        printf("Cannot save: %s.\n", err);
}

/* The commands that leave the turn with the player (help, hint, show,
   save); returns 0 when line is none of them. */
static int
turn_command(game *gm, const bt_position *p, const char *line)
{
    if (strcmp(line, "help") == 0 || strcmp(line, "?") == 0)
        fputs(game_help, stdout);
    else if (strcmp(line, "hint") == 0)
        hint(gm);
    else if (strcmp(line, "show") == 0)
        draw(p);
    else if (strncmp(line, "save", 4) == 0 &&
             (line[4] == ' ' || line[4] == '\0'))
        save_command(gm, line + 4);
    else
        return 0;
    return 1;
}

/* Plays the player's move m (and frees it), or says why it is not one. */
static void
play_human(game *gm, bt_move *m)
{
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (bt_record_play(gm->rec, m, &gm->lim, &d) != BT_OK)
        printf("Not a move: %s.\n", d.message);
    else
        printf("You: %s.\n", m->text);
    bt_moves_free(m, 1);
}

/* The player's turn: reads lines until a move is tried or taken back
   (returns 1), or the input ends or the player quits (returns 0). */
static int
human_turn(game *gm, const bt_position *p)
{
    for (;;) {
        const char *line;
        bt_move *m;
        fflush(stdout);
        if ((line = read_line(gm)) == NULL)
            return 0;
        while (*line == ' ' || *line == '\t')
            line++;
        if (*line == '\0' || turn_command(gm, p, line))
            continue;
        if (strcmp(line, "quit") == 0 || strcmp(line, "q") == 0 ||
            strcmp(line, "exit") == 0)
            return 0;
        if (strcmp(line, "undo") == 0) {
            undo(gm);
            return 1;
        }
        if ((m = parse_move(gm, line)) != NULL) {
            play_human(gm, m);
            return 1;
        }
    }
}

/* The player stopped (quit, end of input, a signal): saves the game;
   returns the exit status. */
static int
stop(const game *gm)
{
    int rc;
    fputc('\n', stdout);
    if (got_signal)
        printf("Interrupted.\n");
    rc = got_signal ? 128 + got_signal : CLI_OK;
    if (save_game(gm) != 0 && rc == CLI_OK)
        rc = CLI_FAIL;
    return rc;
}

/* Runs the game; returns the exit status. */
static int
run(game *gm)
{
    banner(gm);
    for (;;) {
        const bt_position *p = bt_record_current(gm->rec);
        fputc('\n', stdout);
        draw(p);
        if (bt_record_winner(gm->rec) != 0) {
            announce_end(gm);
            return save_game(gm) != 0 ? CLI_FAIL : CLI_OK;
        }
        if (bt_record_player(gm->rec, bt_record_length(gm->rec)) != gm->human) {
            int cm;
            fflush(stdout);
            cm = computer_moves(gm);
            if (cm == -2)
                printf("\nInterrupted.\n");
            if (cm != 0) {
                save_game(gm);
                return cm == -2 ? 128 + got_signal : CLI_FAIL;
            }
        } else if (!human_turn(gm, p)) {
            return stop(gm);
        }
    }
}

/* --------------------------------------------------------------- setup */

/* Who is who in a loaded record: the player named "you", else the one not
   named "computer", else the player to move. */
static char
loaded_human(const bt_record *r)
{
    const char *a = bt_record_get(r, "A"), *b = bt_record_get(r, "B");
    if (a != NULL && strcmp(a, "you") == 0)
        return 'A';
    if (b != NULL && strcmp(b, "you") == 0)
        return 'B';
    if (a != NULL && strcmp(a, "computer") == 0)
        return 'B';
    if (b != NULL && strcmp(b, "computer") == 0)
        return 'A';
    return bt_record_player(r, bt_record_length(r));
}

/* --first: me or computer. */
static int
parse_first(const char *cmd, const char *arg, void *to)
{
    if (strcmp(arg, "me") != 0 && strcmp(arg, "computer") != 0)
        return cli_error(cmd, "--first '%.40s': me or computer", arg);
    *(const char **)to = arg;
    return 0;
}

/* The options of `bouton play` as given (the rest go into the game). */
typedef struct play_args {
    const char *game_spec, *load, *first, *piles, *max, *save;
    int random_start, seeded, level_given;
    char **pos; /* the position's words */
    int npos;
} play_args;

/* The options that cannot go together; CLI_OK or the exit status. */
static int
check_args(const play_args *a, int misere)
{
    if (a->load != NULL &&
        (a->game_spec != NULL || misere || a->random_start || a->npos > 0))
        return cli_error("play", "--load takes the game, the rules and the "
                                 "position from the file");
    if (a->random_start && a->npos > 0)
        return cli_error("play", "--random and a position: give one or the "
                                 "other");
    return CLI_OK;
}

/* Where the game is saved: --save (its directory checked), else the
   default path (its directories made when saving).  *path is malloc'd. */
static int
set_save_path(game *gm, const play_args *a, char **path)
{
    if (a->save != NULL && check_save_dir(a->save) != 0)
        return CLI_USAGE;
    *path = a->save != NULL ? strdup(a->save) : default_save_path();
    if (*path == NULL)
        return CLI_FAIL;
    gm->save_mkdirs = a->save == NULL;
    gm->save_path = *path;
    return CLI_OK;
}

/* --load: the record (its text in *text, malloc'd), who is who, and the
   level and seed it names unless given. */
static int
load_game(game *gm, const play_args *a, char **text)
{
    bt_game *g;
    bt_diag d;
    memset(&d, 0, sizeof d);
    *text = cli_read_file("play", a->load, gm->lim.max_text);
    if (*text == NULL)
        return CLI_USAGE;
    if (bt_record_parse(&gm->rec, *text, &gm->lim, &d) != BT_OK)
        return cli_error("play", "%s: %s", a->load, d.message);
    gm->misere = bt_record_is_misere(gm->rec);
    gm->human = loaded_human(gm->rec);
    if (!a->level_given && bt_record_get(gm->rec, "level") != NULL)
        bt_level_parse(&gm->level, bt_record_get(gm->rec, "level"), NULL);
    if (!a->seeded && bt_record_get(gm->rec, "rng") != NULL)
        gm->rng = strtoull(bt_record_get(gm->rec, "rng"), NULL, 10);
    /* the game of terms that name none, for typed positions */
    g = bt_position_single_game(bt_record_position(gm->rec, 0));
    gm->dflt = bt_game_ref(g);
    if (gm->dflt == NULL && bt_game_new(&gm->dflt, "nim", NULL))
        gm->dflt = NULL;
    return CLI_OK;
}

/* The random start: --piles components (3; 1 for a game of pairs) of
   numbers drawn from 1..--max (15). */
static int
random_start(game *gm, const play_args *a, bt_position **p)
{
    size_t k = bt_game_arity(gm->dflt) == 2 ? 1 : 3;
    mpz_t lo, hi;
    bt_diag d;
    bt_status st;
    int rc = CLI_OK;
    if (a->piles != NULL &&
        cli_parse_size("play", "--piles", a->piles, 1, 1000, &k))
        return CLI_USAGE;
    mpz_init_set_ui(lo, 1);
    mpz_init_set_ui(hi, 15);
    memset(&d, 0, sizeof d);
    if (a->max != NULL &&
        (cli_parse_mpz("play", "--max", a->max, &gm->lim, hi) != 0 ||
         (mpz_sgn(hi) == 0 && cli_error("play", "--max must be at least 1"))))
        rc = CLI_USAGE;
    else if ((st = bt_position_random(p, gm->dflt, k, lo, hi, &gm->rng,
                                      &gm->lim, &d)) != BT_OK)
        rc = cli_status_error("play", st, &d);
    mpz_clear(lo);
    mpz_clear(hi);
    return rc;
}

/* A new game: its game (--game, else that of a start all of one game),
   its start (given or random, into *p) and its record, with who plays
   first and the seed. */
static int
new_game(game *gm, const play_args *a, bt_position **p)
{
    bt_diag d;
    bt_status st;
    char buf[32];
    int rc;
    memset(&d, 0, sizeof d);
    st = bt_game_new(&gm->dflt, a->game_spec ? a->game_spec : "nim", &d);
    if (st != BT_OK)
        return cli_error("play", "--game '%s': %s", a->game_spec, d.message);
    rc = a->npos > 0 ? cli_position("play", p, a->game_spec, a->pos, a->npos,
                                    &gm->lim)
                     : random_start(gm, a, p);
    if (rc != CLI_OK)
        return rc;
    if (a->game_spec == NULL && bt_position_single_game(*p) != NULL) {
        /* typed positions are of the start's game, as for --load */
        bt_game_free(gm->dflt);
        gm->dflt = bt_game_ref(bt_position_single_game(*p));
    }
    st = bt_record_new(&gm->rec, *p, gm->misere, 'A', &d);
    if (st != BT_OK)
        return cli_status_error("play", st, &d);
    gm->human = strcmp(a->first, "me") == 0 ? 'A' : 'B';
    bt_record_set(gm->rec, "A", gm->human == 'A' ? "you" : "computer", NULL);
    bt_record_set(gm->rec, "B", gm->human == 'B' ? "you" : "computer", NULL);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)gm->rng);
    bt_record_set(gm->rec, "seed", buf, NULL);
    return CLI_OK;
}

/* Line editing and history, when the input is a terminal. */
static void
open_terminal(game *gm)
{
    HistEvent ev;
    gm->tty = isatty(STDIN_FILENO);
    if (!gm->tty)
        return;
    gm->el = el_init("bouton", stdin, stdout, stderr);
    gm->hist = history_init();
    if (gm->el == NULL || gm->hist == NULL) {
        gm->tty = 0;
        return;
    }
    history(gm->hist, &ev, H_SETSIZE, 200);
    el_set(gm->el, EL_PROMPT, prompt);
    el_set(gm->el, EL_EDITOR, "emacs");
    el_set(gm->el, EL_HIST, history, gm->hist);
    el_set(gm->el, EL_SIGNAL, 1);
}

/* run(), with SIGINT, SIGHUP and SIGTERM caught (the game is saved). */
static int
run_caught(game *gm)
{
    struct sigaction sa, old_int, old_hup, old_term;
    int rc;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: the read must return */
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGHUP, &sa, &old_hup);
    sigaction(SIGTERM, &sa, &old_term);
    rc = run(gm);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return rc;
}

int
cmd_play(int argc, char **argv)
{
    play_args a;
    char *save_path = NULL, *text = NULL;
    const char *qfile = NULL, *store_dir = NULL;
    bt_position *p = NULL;
    int rc, no_store = 0;
    game gm;
    cli_store store;
    const cli_opt opts[] = {
        CLI_TEXT("game", &a.game_spec),
        CLI_FLAG("misere", &gm.misere),
        CLI_PARSE("first", parse_first, &a.first),
        CLI_PARSE_SEEN("level", cli_opt_level, &gm.level, &a.level_given),
        CLI_PARSE_SEEN("seed", cli_opt_seed, &gm.rng, &a.seeded),
        CLI_FLAG("random", &a.random_start),
        CLI_TEXT("piles", &a.piles),
        CLI_TEXT("max", &a.max),
        CLI_TEXT("load", &a.load),
        CLI_TEXT("save", &a.save),
        CLI_TEXT("quotient", &qfile),
        CLI_STORE_OPTS(&store_dir, &no_store),
        CLI_END};

    memset(&a, 0, sizeof a);
    memset(&store, 0, sizeof store);
    memset(&gm, 0, sizeof gm);
    a.first = "me";
    gm.level = BT_LEVEL_PERFECT;
    rc = cli_options_help("play", argc, argv, help_head, help_tail, opts,
                          &gm.lim);
    if (rc >= 0)
        return rc;
    gm.lim.interrupt = interrupted;
    a.pos = argv + optind;
    a.npos = argc - optind;
    if ((rc = check_args(&a, gm.misere)) != CLI_OK)
        return rc;
    if (qfile != NULL &&
        (rc = cli_quotient_install("play", qfile, &gm.lim, NULL)) != CLI_OK)
        return rc;
    if (!a.seeded)
        gm.rng = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
    if ((rc = set_save_path(&gm, &a, &save_path)) != CLI_OK)
        return rc;
    rc = a.load != NULL ? load_game(&gm, &a, &text) : new_game(&gm, &a, &p);
    /* misère play: the start's games from the store, and to it */
    if (rc == CLI_OK && gm.misere &&
        (rc = cli_store_open(&store, "play", store_dir, no_store, 1)) ==
            CLI_OK)
        cli_store_use(&store, bt_record_position(gm.rec, 0), &gm.lim);
    if (rc == CLI_OK) {
        bt_record_set(gm.rec, "level", bt_level_name(gm.level), NULL);
        open_terminal(&gm);
        rc = run_caught(&gm);
        cli_store_keep(&store, bt_record_position(gm.rec, 0));
    }
    cli_store_close(&store);
    if (gm.el != NULL)
        el_end(gm.el);
    if (gm.hist != NULL)
        history_end(gm.hist);
    free(gm.line);
    bt_record_free(gm.rec);
    bt_game_free(gm.dflt);
    bt_position_free(p);
    free(text);
    free(save_path);
    return rc;
}
