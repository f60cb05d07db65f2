/*
 * optable.c -- the table of operations (see optable.h): each operation
 * once, each of its parameters once, for the CLI, the API and the docs.
 */
#include <stdio.h>
#include <string.h>

#include "optable.h"

/* The reasons that several parameters share, written once. */
#define WHY_JSON                                                           \
    "the API always answers JSON: --json asks the CLI for the same text"
#define WHY_STORE                                                          \
    "the server's store is its own: `serve --store DIR` (or "              \
    "BOUTON_STORE=off) chooses it for every request"
#define WHY_QUOTIENT_FILE                                                  \
    "the API reads no file a client names: `serve --quotient FILE` loads " \
    "the quotients every request uses, and its store keeps the proved ones"
#define WHY_PROGRESS                                                       \
    "a progress line is for a terminal; a request is bounded by the "      \
    "server's time budget instead"
#define WHY_POSITION_CLI                                                   \
    "the command line writes the position as operands (POSITION...)"
#define WHY_POSITION_API                                                   \
    "the API's \"position\" member: the text, or an array of terms "       \
    "(docs/api.md, Positions)"

/* A parameter on both sides. */
#define BOTH(cli, api, type, arg, dflt, limits, help)                      \
    {(cli), (api), (type), (arg), (dflt), (limits), (help), NULL, NULL, 0}
/* On the command line only, or in the API only, with the reason. */
#define CLI_ONLY(cli, type, arg, dflt, limits, help, why)                  \
    {(cli), NULL, (type), (arg), (dflt), (limits), (help), (why), NULL, 0}
#define API_ONLY(api, type, dflt, limits, help, why)                       \
    {NULL, (api), (type), NULL, (dflt), (limits), (help), (why), NULL, 0}
#define END                                                                \
    {NULL, NULL, OPTABLE_BOOL, NULL, NULL, NULL, NULL, NULL, NULL, 0}

/* The parameters most operations share. */
#define P_GAME(dflt, help)                                                 \
    BOTH("game", "game", OPTABLE_GAME, "RULES", (dflt), NULL, (help))
#define P_MISERE                                                           \
    BOTH("misere", "misere", OPTABLE_BOOL, NULL, "false", NULL,           \
         "taking the last counter loses")
/* --json, with what the command prints (its own JSON's shape). */
#define P_JSON(help)                                                       \
    CLI_ONLY("json", OPTABLE_BOOL, NULL, "false", NULL, (help), WHY_JSON)
/* --store DIR and --no-store, with the command's help for each. */
#define P_STORE_AS(help, no_help)                                          \
    CLI_ONLY("store", OPTABLE_FILE, "DIR", "$BOUTON_STORE, else the "     \
             "user's cache", NULL, (help), WHY_STORE),                     \
        CLI_ONLY("no-store", OPTABLE_BOOL, NULL, "false", NULL,           \
                 (no_help), WHY_STORE)
#define P_STORE                                                            \
    P_STORE_AS("the store of proved results (default $BOUTON_STORE, else\n" \
               "the user's cache; `bouton store --help`)",                \
               "neither read nor write the store (BOUTON_STORE=off too)")
/* --progress and --no-progress, one line in --help ("--progress,
   --no-progress": the second is folded into the first), with the
   command's default and help. */
#define P_PROGRESS(dflt, help)                                             \
    CLI_ONLY("progress", OPTABLE_BOOL, NULL, (dflt), NULL, (help),        \
             WHY_PROGRESS),                                                \
    {"no-progress", NULL, OPTABLE_BOOL, NULL, "false", NULL,               \
     "no progress line", WHY_PROGRESS, NULL, 1}
/* The --level of move and play. */
#define H_LEVEL                                                            \
    "perfect (default), medium (a random move 1 time in 5),\n"            \
    "easy (a random move 1 time in 2)"
#define P_POSITION                                                         \
    BOTH("POSITION...", "position", OPTABLE_POSITION, NULL, NULL,         \
         "at most max_components components, numbers of at most "         \
         "max_digits digits",                                              \
         "the position: piles of the game, or a sum in the position "     \
         "language (required)")

static const optable_param analyze_params[] = {
    P_POSITION,
    P_GAME("nim", "the game of the piles (the games are listed below)"),
    P_MISERE,
    BOTH("explain", "explain", OPTABLE_BOOL, NULL, "false", NULL,
         "show why (binary columns, pairs, nim-sums)"),
    P_JSON("one JSON value (see README: the JSON interface)"),
    BOTH("no-remoteness", "remoteness", OPTABLE_BOOL, NULL,
         "true (the remoteness is computed)", NULL,
         "leave the remoteness out (how many moves the game\n"
         "lasts under best play; the API's \"remoteness\": false)"),
    CLI_ONLY("quotient", OPTABLE_FILE, "FILE", NULL, "with --misere",
             "with --misere: the misère quotient saved by `bouton\n"
             "quotient --save`, checked before use; sums of its\n"
             "game's heaps are answered through it (any size when\n"
             "it is proved periodic)",
             WHY_QUOTIENT_FILE),
    P_STORE,
    BOTH("random-starts", "random_starts", OPTABLE_BOOL,
         "[--piles K] [--max N]", "false", "Nim only",
         "\nhow often the player to move wins from the random\n"
         "starts of `bouton play --random` (K piles, default 3,\n"
         "each uniform in 1..N, default 15), exactly (Nim only;\n"
         "Bouton sec. 3, generalised); no POSITION then"),
    {"piles", "piles", OPTABLE_SIZE, "K", "3", "1 to max_table_piles",
     "with random starts: the piles of a start", NULL, NULL, 1},
    {"max", "max", OPTABLE_NUMBER, "N", "15", "at least 1",
     "with random starts: each pile holds 1 to N", NULL, NULL, 1},
    END};

static const optable_param move_params[] = {
    P_POSITION,
    P_GAME("nim", "the game of the piles (the games are listed below)"),
    P_MISERE,
    BOTH("level", "level", OPTABLE_WORD, "L", "perfect",
         "perfect, medium, easy", H_LEVEL),
    BOTH("seed", "seed", OPTABLE_SEED, "S", "1", "0 to 2^64-1",
         "seed of the random choices (0 to 2^64-1; default 1),\n"
         "so that a move can be reproduced"),
    P_JSON("{\"component\":1,\"to\":[\"1\"],\"text\":\"...\",\n"
           "\"outcome\":\"N\",\"rule\":\"remoteness\","
           "\"remoteness_known\":true}:\n"
           "the move shape of `bouton analyze --json`, the outcome\n"
           "(null when unknown) and the rule used (remoteness,\n"
           "proxy, heuristic, random; see docs/opponent.md)"),
    CLI_ONLY("quotient", OPTABLE_FILE, "FILE", NULL, "with --misere",
             "with --misere: the misère quotient saved by `bouton\n"
             "quotient --save`, checked before use (heaps of any\n"
             "size when it is proved periodic)",
             WHY_QUOTIENT_FILE),
    P_STORE,
    END};

static const optable_param moves_params[] = {
    API_ONLY("position", OPTABLE_POSITION, NULL,
             "at most 256 moves valued in one answer",
             "the position (required)", "an endpoint only (above)"),
    API_ONLY("game", OPTABLE_GAME, "nim", NULL, "the game of the piles",
             "an endpoint only (above)"),
    API_ONLY("misere", OPTABLE_BOOL, "false", NULL,
             "taking the last counter loses", "an endpoint only (above)"),
    API_ONLY("remoteness", OPTABLE_BOOL, "true", NULL,
             "each move's remoteness, while the time budget lasts",
             "an endpoint only (above)"),
    END};

static const optable_param parse_params[] = {
    API_ONLY("position", OPTABLE_POSITION, NULL, NULL,
             "the position (required)", "an endpoint only (above)"),
    API_ONLY("game", OPTABLE_GAME, "nim", NULL, "the game of the piles",
             "an endpoint only (above)"),
    END};

static const optable_param record_params[] = {
    API_ONLY("record", OPTABLE_TEXT, NULL, "at most max_body bytes",
             "a game record in the seeds' notation (required)",
             "an endpoint only (above)"),
    END};

static const optable_param table_params[] = {
    P_GAME("nim", "the game of the piles"),
    P_MISERE,
    BOTH("piles", "piles", OPTABLE_SIZE, "K",
         "1 for a game of pairs (Wythoff's); else required",
         "1 to max_table_piles (the command takes 0 too: the one empty "
         "row of the empty position)",
         "the number of piles"),
    BOTH("min", "min", OPTABLE_NUMBER, "MIN", "0", NULL,
         "the least counters of a pile"),
    BOTH("below", "below", OPTABLE_NUMBER, "N", NULL, "above min",
         "every pile below N (required)"),
    P_JSON("one JSON array of decimal strings per line"),
    P_PROGRESS("when stderr is a terminal and the rows go elsewhere",
               "\na progress line on stderr once the table has taken half a\n"
               "second (default: when stderr is a terminal and the rows go\n"
               "elsewhere)"),
    CLI_ONLY("nim-products", OPTABLE_SIZE, "N", NULL,
             "N*N at most max_grundy",
             "\nthe N x N table of nim-products x * y, x, y < N (row x,\n"
             "column y; `bouton nimber` explains them), N*N at most the\n"
             "max_grundy limit",
             "no endpoint gives the table yet: /v1/nimber computes one "
             "nim-product an expression"),
    API_ONLY("cursor", OPTABLE_TEXT, "the first row", NULL,
             "the last row sent, its numbers joined by commas: the page "
             "starts after it",
             "the command streams the whole table; the API pages it"),
    API_ONLY("limit", OPTABLE_SIZE, "100", "1 to max_page",
             "the rows of a page",
             "the command streams the whole table; the API pages it"),
    END};

static const optable_param count_params[] = {
    P_GAME("nim", "the game (default nim): a game whose family counts its\n"
                  "positions exactly (for a game of variable arity, K piles\n"
                  "of one game); another game is an error that says so"),
    P_MISERE,
    BOTH("ordered", "ordered", OPTABLE_BOOL, NULL, "false", NULL,
         "count K-tuples instead: the piles are told apart"),
    BOTH("piles", "piles", OPTABLE_SIZE, "K", NULL, "0 to max_table_piles",
         "the number of piles (required), 0 to max_table_piles\n"
         "(4096 for the command; 0: the empty position)"),
    BOTH("min", "min", OPTABLE_NUMBER, "MIN", "0", NULL,
         "the least counters of a pile"),
    BOTH("max", "max", OPTABLE_NUMBER, "MAX", NULL, "max or below",
         "the most counters of a pile (or below)"),
    BOTH("below", "below", OPTABLE_NUMBER, "N", NULL, "max or below",
         "every pile below N (or max)"),
    P_JSON("one JSON object; the counts are decimal strings:\n"
           "{\"piles\":\"3\",\"min\":\"1\",\"max\":\"15\","
           "\"ordered\":false,\n"
           " \"misere\":false,\"positions\":\"680\","
           "\"p_positions\":\"35\",\n"
           " \"probability\":\"7/136\"}"),
    P_PROGRESS("when stderr is a terminal",
               "\na line on stderr while a count takes over half a second,\n"
               "with the share of the estimated work done and an ETA\n"
               "(default: when stderr is a terminal)"),
    END};

static const optable_param grundy_params[] = {
    P_GAME(NULL, "the game (required): a heap game, or Wythoff's family"),
    {"upto", "upto", OPTABLE_SIZE, "N", NULL, "0 to max_grundy",
     "compute G(0..N-1) (required without until_proved)", NULL, "sequence",
     0},
    {"until-proved", "until_proved", OPTABLE_BOOL, NULL, "false", NULL,
     "compute until the periodicity is proved, or until\n"
     "--limit values (the API: \"upto\" values); 'upto' is then the\n"
     "number of values computed",
     NULL, "sequence", 0},
    {"no-values", "no_values", OPTABLE_BOOL, NULL, "false", NULL,
     "leave the values out (for long runs)", NULL, "sequence", 0},
    P_JSON("one JSON object: {\"game\",\"upto\",\"values\",\"period\",\n"
           "\"preperiod\",\"proved\",\"threads\"} (the most threads\n"
           "that ran at once)"),
    CLI_ONLY("limit", OPTABLE_SIZE, "N", "max_grundy", "1 to max_grundy",
             "with --until-proved: compute at most N values\n"
             "(default: the --max-grundy limit)",
             "the API's \"upto\" is the bound of \"until_proved\" (the "
             "command's --upto and --until-proved exclude each other)"),
    CLI_ONLY("method", OPTABLE_WORD, "M", "auto", "auto, plain, rare",
             "auto (default), plain (the O(n^2) mex, the reference)\n"
             "or rare (the rare-value method from the start); the values\n"
             "are the same",
             "the server chooses (auto): a method is a benchmark's "
             "choice, not a request's"),
    CLI_ONLY("threads", OPTABLE_SIZE, "N", "one per CPU", NULL,
             "threads for the rare-value method, at most (default:\n"
             "one per CPU the process may use); the engine runs as many as\n"
             "pay, by measure, never more than those CPUs; the values are\n"
             "the same on any number",
             "a request runs on one of the server's compute threads"),
    CLI_ONLY("checkpoint", OPTABLE_FILE, "FILE", NULL, NULL,
             "keep the values in FILE (written atomically every\n"
             "--checkpoint-every seconds and at the end) and resume from\n"
             "it: a killed run, started again the same way, ends as if\n"
             "never killed; a FILE that is not a regular file is refused",
             "the API writes no file; a request is bounded by the time "
             "budget"),
    CLI_ONLY("checkpoint-every", OPTABLE_SIZE, "S", "60", NULL,
             "seconds between checkpoints (default 60)",
             "a parameter of --checkpoint (above)"),
    P_PROGRESS("when stderr is a terminal",
               "\na progress line on stderr (default: when stderr is a\n"
               "terminal)"),
    {"below", "below", OPTABLE_SIZE, "N", NULL, "1 to max_grundy",
     "Wythoff's game: the table G(x, y), x, y < N (required)", NULL,
     "table", 0},
    END};

static const optable_param quotient_params[] = {
    P_GAME(NULL, "the heap game (required), or a sum of two to four"),
    BOTH("upto", "upto", OPTABLE_SIZE, "N",
         "12; 1000 with until_proved",
         "0 to 4096 (the command: to max_grundy; a request is one of "
         "many)",
         "heaps of at most N counters (default 12)"),
    BOTH("until-proved", "until_proved", OPTABLE_BOOL, NULL, "false", NULL,
         "compute heap by heap until the periodicity theorem\n"
         "proves the quotient of all heaps (octal codes, sub:S); up to\n"
         "--upto N heaps at most (default 1000), an error past it"),
    BOTH("table", "table", OPTABLE_BOOL, NULL, "false", NULL,
         "also the multiplication table (in JSON with its \"elements\")"),
    P_JSON("one JSON object: {\"game\",\"upto\",\"order\",\"p_portion\",\n"
           "\"tame\",\"generators\",\"relations\",\"heaps\",\"period\",\n"
           "\"preperiod\",\"proved\"} with \"p\" (the P-portion's\n"
           "elements) and, with --table, \"elements\" and \"table\""),
    CLI_ONLY("save", OPTABLE_FILE, "FILE", NULL, NULL,
             "also write the quotient to FILE (atomically), for\n"
             "`analyze --quotient FILE`, `move`, `play` and `serve`,\n"
             "which check it again before they use it (a failed\n"
             "write leaves the old FILE; a link is followed; a FILE\n"
             "that is not a regular file is refused)",
             "the API writes no file; the server's store keeps the "
             "proved quotients"),
    CLI_ONLY("load", OPTABLE_FILE, "FILE", NULL, NULL,
             "print the quotient saved in FILE, after checking it\n"
             "exactly as if it had been computed (refused otherwise)",
             WHY_QUOTIENT_FILE),
    P_STORE_AS("where the quotient is kept for later misère analyses\n"
               "when proved, or computed past heap 26 further than the\n"
               "entry there (default $BOUTON_STORE, else the user's\n"
               "cache; `bouton store --help`)",
               "keep nothing"),
    END};

static const optable_param pair_params[] = {
    P_GAME("wythoff", "wythoff (default) or wythoff:A, difference A >= 1"),
    P_MISERE,
    BOTH("N", "n", OPTABLE_NUMBER, NULL, NULL, "n or index_of",
         "the index of the pair, from 0"),
    BOTH("index-of", "index_of", OPTABLE_NUMBER, "X", NULL, "n or index_of",
         "the pair holding X instead of the N-th pair"),
    P_JSON("{\"game\":..,\"misere\":..,\"n\":\"N\",\"pair\":[\"A\",\"B\"]}, "
           "or with\n"
           "--index-of {\"x\":\"X\",\"n\":\"N\",\"member\":\"lower\","
           "\"pair\":[\"A\",\"B\"]}"),
    END};

static const optable_param nimber_params[] = {
    BOTH("EXPR...", "expression", OPTABLE_TEXT, NULL, NULL,
         "at most max_digits digits a number, nesting 200 deep",
         "the expression of Nim's field (required)"),
    BOTH("explain", "explain", OPTABLE_BOOL, NULL, "false", NULL,
         "the steps: products of numbers below 256 by Conway's\n"
         "rules, sums in binary columns"),
    CLI_ONLY("hex", OPTABLE_BOOL, NULL, "false", NULL,
             "print the value in hexadecimal (0x...)",
             "JSON's numbers are decimal strings, as --json prints them"),
    P_JSON("{\"expression\":..,\"value\":\"N\"}, with \"explanation\" "
           "after\n--explain"),
    END};

static const optable_param game_params[] = {
    API_ONLY("game", OPTABLE_GAME, NULL, NULL, "the game (required)",
             "an endpoint only (above)"),
    END};

static const optable_param none_params[] = {END};

static const optable_param play_params[] = {
    CLI_ONLY("POSITION...", OPTABLE_POSITION, NULL, "a random start", NULL,
             "the start", "a command only (above)"),
    CLI_ONLY("game", OPTABLE_GAME, "RULES", "nim", NULL,
             "the game (the games are listed below)",
             "a command only (above)"),
    CLI_ONLY("misere", OPTABLE_BOOL, NULL, "false", NULL,
             "taking the last counter loses", "a command only (above)"),
    CLI_ONLY("first", OPTABLE_WORD, "me|computer", "me", "me, computer",
             "who moves first (default me)", "a command only (above)"),
    CLI_ONLY("level", OPTABLE_WORD, "L", "perfect", "perfect, medium, easy",
             H_LEVEL, "a command only (above)"),
    CLI_ONLY("seed", OPTABLE_SEED, "S", "from the clock", "0 to 2^64-1",
             "seed of the computer's random choices and of the\n"
             "random start (default: from the clock; the seed is\n"
             "written in the record, so a game replays)",
             "a command only (above)"),
    CLI_ONLY("random", OPTABLE_BOOL, NULL, "false", NULL,
             "a random start (see above)", "a command only (above)"),
    CLI_ONLY("piles", OPTABLE_SIZE, "K", "3", NULL,
             "the random start's size", "a command only (above)"),
    {"max", NULL, OPTABLE_NUMBER, "N", "15", NULL,
     "the random start's largest number", "a command only (above)", NULL,
     1},
    CLI_ONLY("load", OPTABLE_FILE, "FILE", NULL, NULL,
             "resume a game saved by bouton play",
             "a command only (above)"),
    CLI_ONLY("save", OPTABLE_FILE, "FILE", "the user's state directory",
             NULL,
             "where the game is saved (default\n"
             "$XDG_STATE_HOME/bouton/last-game.txt, or\n"
             "~/.local/state/bouton/last-game.txt); written whole to a\n"
             "file beside it, then renamed, so a failed save leaves the\n"
             "old file; a link is followed, a FILE not a regular file\n"
             "refused",
             "a command only (above)"),
    CLI_ONLY("quotient", OPTABLE_FILE, "FILE", NULL, NULL,
             "a misère quotient saved by `bouton quotient --save`,\n"
             "checked first: misère sums of its game's heaps are analysed\n"
             "through it (any size when it is proved periodic)",
             "a command only (above)"),
    P_STORE,
    END};

static const optable_param replay_params[] = {
    CLI_ONLY("FILE", OPTABLE_FILE, NULL, NULL, NULL,
             "the saved game ('-': standard input)",
             "a command only (above)"),
    P_JSON("{\"game\":...,\"misere\":...,\"moves\":[{\"player\":\"A\","
           "\"move\":{...},\n"
           "\"before\":\"N\",\"after\":\"P\",\"verdict\":\"win\"},...],"
           "\"result\":\"B\"}\n"
           "verdict: win (N to P), blunder (N to N: the win thrown\n"
           "away), lost (from a P-position), unknown (beyond the\n"
           "limits)"),
    P_STORE,
    END};

static const optable_param census_params[] = {
    CLI_ONLY("codes", OPTABLE_TEXT, "PATTERN|@FILE", NULL, NULL,
             "\ne.g. 0.ddd: 'd' is any octal digit, others are themselves\n"
             "(the digit before the point is 0, 4 or d); codes ending\n"
             "in 0 are the shorter codes and are left out; @FILE: one\n"
             "code a line (required)",
             "a command only (above)"),
    CLI_ONLY("upto", OPTABLE_SIZE, "N", "65536", NULL,
             "values per game, at most (default 65536)",
             "a command only (above)"),
    CLI_ONLY("until-proved", OPTABLE_BOOL, NULL, "false", NULL,
             "stop a game as soon as its period is proved",
             "a command only (above)"),
    CLI_ONLY("json", OPTABLE_BOOL, NULL, "false", NULL,
             "JSON lines instead of the table", "a command only (above)"),
    CLI_ONLY("output", OPTABLE_FILE, "FILE", NULL, NULL,
             "append the lines to FILE, skipping the games already\n"
             "in it (a killed census reruns only the unfinished games; a\n"
             "line cut short is dropped; a FILE that is not a census's\n"
             "output, or not a regular file, is refused)",
             "a command only (above)"),
    CLI_ONLY("threads", OPTABLE_SIZE, "N", "one per online CPU", NULL,
             "threads per game (default: one per online CPU; 1 under MPI)",
             "a command only (above)"),
    CLI_ONLY("no-time", OPTABLE_BOOL, NULL, "false", NULL,
             "leave the time out (output comparable between runs)",
             "a command only (above)"),
    P_PROGRESS("when stderr is a terminal",
               "\na line on stderr: the games done, the game under way\n"
               "and the time (default: when stderr is a terminal)"),
    END};

static const optable_param store_params[] = {
    CLI_ONLY("ACTION", OPTABLE_WORD, NULL, NULL, "list, verify, clear",
             "what to do", "a command only (above)"),
    CLI_ONLY("store", OPTABLE_FILE, "DIR", "$BOUTON_STORE, else the "
             "user's cache", NULL, "the user's store",
             "a command only (above)"),
    END};

static const optable_op ops[] = {
    {"analyze", "analyze", "/v1/analyze", "POST",
     "who wins, the Grundy values, every winning move, why", NULL,
     analyze_params},
    {"move", "move", "/v1/move", "POST", "the move the computer plays",
     NULL, move_params},
    {"moves", NULL, "/v1/moves", "POST",
     "every move with the outcome of the position it leaves",
     "the page's move values; `bouton analyze` lists the winning moves",
     moves_params},
    {"parse", NULL, "/v1/parse", "POST",
     "a position's canonical text and components",
     "the page draws them; every command prints its position",
     parse_params},
    {"record", NULL, "/v1/record", "POST",
     "a game record read and checked, with its positions",
     "`bouton replay FILE` reads a record and analyses each move",
     record_params},
    {"table", "table", "/v1/table", "POST",
     "the safe combinations (P-positions)", NULL, table_params},
    {"count", "count", "/v1/count", "POST",
     "positions and safe ones counted exactly", NULL, count_params},
    {"grundy", "grundy", "/v1/grundy", "POST",
     "a heap game's Grundy sequence, or Wythoff's table G(x, y)", NULL,
     grundy_params},
    {"quotient", "quotient", "/v1/quotient", "POST",
     "the misère quotient of a heap game's heaps", NULL, quotient_params},
    {"pair", "pair", "/v1/pair", "POST",
     "the n-th safe pair of Wythoff's game, or the pair holding x", NULL,
     pair_params},
    {"nimber", "nimber", "/v1/nimber", "POST",
     "an expression of Nim's field", NULL, nimber_params},
    {"games", NULL, "/v1/games", "GET", "the game families",
     "every command's --help lists the games", none_params},
    {"game", NULL, "/v1/game", "POST", "one game and its rules in words",
     "`bouton play` shows the rules", game_params},
    {"info", NULL, "/v1/info", "GET", "the version and the limits",
     "`bouton --version`; a command's limits are its --max-* options",
     none_params},
    {"play", "play", NULL, NULL, "a game against the computer",
     "a session at the terminal; the page plays through /v1/move",
     play_params},
    {"replay", "replay", NULL, NULL,
     "a saved game with an analysis of each move",
     "a walk through a record: /v1/record reads one, /v1/analyze "
     "analyses each position",
     replay_params},
    {"census", "census", NULL, NULL,
     "Grundy sequences of many octal games",
     "hours of computing, past any request's time budget",
     census_params},
    {"store", "store", NULL, NULL, "the store of proved results",
     "the user's files; the server's store is `serve --store`",
     store_params},
};
#define NOPS (sizeof ops / sizeof ops[0])

size_t
optable_count(void)
{
    return NOPS;
}

const optable_op *
optable_at(size_t i)
{
    return i < NOPS ? &ops[i] : NULL;
}

const optable_op *
optable_command(const char *command)
{
    size_t i;
    for (i = 0; i < NOPS; i++)
        if (ops[i].command != NULL && strcmp(ops[i].command, command) == 0)
            return &ops[i];
    return NULL;
}

const optable_op *
optable_route(const char *path)
{
    size_t i;
    for (i = 0; i < NOPS; i++)
        if (ops[i].route != NULL && strcmp(ops[i].route, path) == 0)
            return &ops[i];
    return NULL;
}

int
optable_is_operand(const optable_param *p)
{
    /* operands are written in capitals, options in lower case */
    return p->cli != NULL && !(p->cli[0] >= 'a' && p->cli[0] <= 'z');
}

const optable_param *
optable_cli_find(const optable_op *op, const char *option)
{
    const optable_param *p;
    for (p = op->params; p->cli != NULL || p->api != NULL; p++)
        if (p->cli != NULL && !optable_is_operand(p) &&
            strcmp(p->cli, option) == 0)
            return p;
    return NULL;
}

const optable_param *
optable_api_find(const optable_op *op, const char *variant,
                 const char *member)
{
    const optable_param *p;
    for (p = op->params; p->cli != NULL || p->api != NULL; p++)
        if (p->api != NULL && strcmp(p->api, member) == 0 &&
            (variant == NULL || p->only == NULL ||
             strcmp(p->only, variant) == 0))
            return p;
    return NULL;
}

const char *
optable_type_name(optable_type t)
{
    switch (t) {
    case OPTABLE_BOOL:
        return "boolean";
    case OPTABLE_TEXT:
        return "string";
    case OPTABLE_GAME:
        return "game";
    case OPTABLE_POSITION:
        return "position";
    case OPTABLE_SIZE:
        return "integer";
    case OPTABLE_NUMBER:
        return "number";
    case OPTABLE_WORD:
        return "word";
    case OPTABLE_SEED:
        return "seed";
    case OPTABLE_FILE:
        return "file";
    }
    return "?";
}

int
optable_cli_check(const char *command, const char *const *names, size_t n,
                  char *err, size_t size)
{
    const optable_op *op = optable_command(command);
    const optable_param *p;
    size_t i;

    if (op == NULL) {
        snprintf(err, size, "the table of operations has no command '%s'",
                 command);
        return -1;
    }
    for (i = 0; i < n; i++)
        if (optable_cli_find(op, names[i]) == NULL) {
            snprintf(err, size, "--%s is not in the table of operations "
                     "(programs/common/optable.c)", names[i]);
            return -1;
        }
    for (p = op->params; p->cli != NULL || p->api != NULL; p++) {
        if (p->cli == NULL || optable_is_operand(p))
            continue;
        for (i = 0; i < n; i++)
            if (strcmp(p->cli, names[i]) == 0)
                break;
        if (i == n) {
            snprintf(err, size, "the table of operations has --%s, which "
                     "the command does not take", p->cli);
            return -1;
        }
    }
    return 0;
}

void
optable_cli_help(FILE *f, const optable_op *op)
{
    const optable_param *p, *q;
    for (p = op->params; p->cli != NULL || p->api != NULL; p++) {
        const char *h = p->help;
        int w;
        if (p->cli == NULL || optable_is_operand(p) || p->folded)
            continue;
        w = fprintf(f, "  --%s%s%s", p->cli, p->arg != NULL ? " " : "",
                    p->arg != NULL ? p->arg : "");
        /* the folded options after it, unless its argument shows them */
        for (q = p + 1; q->folded; q++) {
            char name[64];
            snprintf(name, sizeof name, "--%s", q->cli);
            if (p->arg == NULL || strstr(p->arg, name) == NULL)
                w += fprintf(f, ", %s%s%s", name, q->arg != NULL ? " " : "",
                             q->arg != NULL ? q->arg : "");
        }
        /* the help from column 16, or two spaces past a longer option,
           or on the next line */
        if (*h == '\n')
            fprintf(f, "\n%16s", "");
        else
            fprintf(f, "%*s", w < 14 ? 16 - w : 2, "");
        h += *h == '\n';
        while (*h != '\0') {
            size_t len = strcspn(h, "\n");
            fprintf(f, "%.*s\n", (int)len, h);
            h += len;
            if (*h == '\n' && *++h != '\0')
                fprintf(f, "%16s", "");
        }
    }
}
