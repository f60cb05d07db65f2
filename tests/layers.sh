#!/bin/sh
# layers.sh BUILD SOURCE -- the layers' rules, read from the objects'
# symbols (nm): which file's code may call which.  Fails, naming the
# object, the symbol and the rule, on any reference the rules forbid
# (docs/architecture.md, "Layers").
#
# programs/:
#   programs/           the library's public API only: no bt__ symbol
#   programs/cli/       not programs/server/ (and the other way round);
#                       both may call programs/common/
#
# src/, in layers, lowest first, a folder each (but the analysis, whose
# folder holds two); a file calls its own layer and those below, never one
# above:
#   1 core        src/core/* (statuses, limits, the budget, buffers,
#                 numbers, Nim's field, the registry, positions, the hooks
#                 as callers use them, the game-graph kernel: graph.c)
#   2 engines     src/engines/* (sequences, quotients, the misère search,
#                 tables, counting, the move window)
#   3 games       src/games/*, one family a file
#   4 remoteness  src/analysis/remoteness.c (handed the analysis's moves)
#   5 analysis    src/analysis/analyze.c
#   6 play        src/play/* (the opponent, records)
# and, across one layer or over it:
#   - only the registry (src/core/game.c) names a family's ruleset
#     (bt__ruleset_*, bt__varset_*): it lists them, the one data
#     reference up;
#   - a family does not call another family's code (games/tartan.c builds
#     on games/coins.c's coin codes, coins.h: allowed);
#   - above the games (remoteness, analysis, play) the families are
#     reached through their hooks only, never by name.
#
# The references that break a rule today are listed below, each by object
# and symbol with its reason: a new one fails; a listed one that is gone
# fails too, so the list only shrinks.  Today it is empty (the last one,
# the generic mex keeping its positions in the engines' memo, went with
# the game-graph kernel, src/core/graph.c).
set -eu
build=$1
src=$2
# object, symbol, reason (one line each)
known=""

command -v nm >/dev/null 2>&1 || { echo "layers.sh: nm is missing" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The objects of the library and the program whose source is still there
# (a moved file leaves its old object behind in a build directory).
for dir in "$build/CMakeFiles/bouton_obj.dir" "$build/CMakeFiles/bouton.dir"; do
    [ -d "$dir" ] || continue
    find "$dir" -name '*.c.o' | while read -r o; do
        rel=${o#"$dir"/}
        if [ -f "$src/${rel%.o}" ]; then printf '%s %s\n' "$o" "$rel"; fi
    done
done >"$work/objects"
[ -s "$work/objects" ] || { echo "layers.sh: no objects in $build" >&2; exit 1; }

while read -r o rel; do
    nm -P "$o" | awk -v rel="$rel" '
        $2 ~ /^[TDBR]$/ { print "D", rel, $1 }
        $2 == "U"       { print "U", rel, $1 }'
done <"$work/objects" >"$work/symbols"

printf '%s\n' "$known" >"$work/known"
awk -v known="$work/known" '
    function folder(rel) { sub(/\/[^\/]*$/, "", rel); return rel }
    function file(rel) { sub(/\.o$/, "", rel); return rel }
    # The layer of a file of src/ (0: not in src/).
    function layer(f) {
        if (f ~ /^src\/core\//) return 1
        if (f ~ /^src\/engines\//) return 2
        if (f ~ /^src\/games\//) return 3
        if (f == "src/analysis/remoteness.c") return 4
        if (f ~ /^src\/analysis\//) return 5
        if (f ~ /^src\/play\//) return 6
        return 0
    }
    # A family: a file of games/ up to its first "_" (wythoff_grundy.c is
    # of the family wythoff).
    function family(f) { sub(/^.*\//, "", f); sub(/[_.].*$/, "", f); return f }
    function rule(from, to, sym,    lf, lt) {
        if (from ~ /^programs/ && sym ~ /^bt__/)
            return "programs/ calls the public API only"
        if (folder(from) == "programs/cli" && folder(to) == "programs/server" ||
            folder(from) == "programs/server" && folder(to) == "programs/cli")
            return "the commands and the server share only programs/common/"
        lf = layer(from); lt = layer(to)
        if (lf == 0 || lt == 0)
            return ""
        if (sym ~ /^bt__(ruleset|varset)_/ && folder(to) == "src/games")
            return from == "src/core/game.c" ? "" : \
                "only the registry (src/core/game.c) names the families\047 rulesets"
        if (lt > lf)
            return sprintf("the %s layer calls up into the %s layer " \
                           "(core < engines < games < remoteness < " \
                           "analysis < play)", name[lf], name[lt])
        if (lf > 3 && lt == 3)
            return "above the games, the families are reached through their hooks only"
        if (lf == 3 && lt == 3 && family(from) != family(to) &&
            !((from SUBSEP to) in allowed))
            return "a family does not call the code of another family"
        return ""
    }
    BEGIN {
        while ((getline line < known) > 0) {
            if (line == "") continue
            split(line, f, " ")
            listed[f[1] " " f[2]] = 1
        }
        split("core engines games remoteness analysis play", name, " ")
        allowed["src/games/tartan.c", "src/games/coins.c"] = 1
    }
    $1 == "D" { where[$3] = $2; next }
    $1 == "U" { refs[++n] = $2 " " $3 }
    END {
        bad = 0
        for (i = 1; i <= n; i++) {
            split(refs[i], r, " ")
            if (!(r[2] in where)) continue   # libc, GMP, ...
            from = file(r[1]); to = file(where[r[2]])
            if (from == to) continue
            why = rule(from, to, r[2])
            if (why == "") continue
            if (refs[i] in listed) { seen[refs[i]] = 1; continue }
            printf "layers: %s calls %s (%s): %s\n", r[1], r[2], where[r[2]], why
            bad = 1
        }
        for (k in listed)
            if (!(k in seen)) {
                printf "layers: \"%s\" is listed as a known breach but is gone: take it off the list\n", k
                bad = 1
            }
        if (!bad) print "layers: every reference keeps the rules"
        exit bad
    }' "$work/symbols"
