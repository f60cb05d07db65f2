#!/bin/sh
# layers.sh BUILD SOURCE -- the folders' rules, read from the objects'
# symbols (nm): which folder's code may call which.  Fails, naming the
# object, the symbol and the rule, on any reference the rules forbid.
#
#   programs/           the library's public API only: no bt__ symbol
#   programs/cli/       not programs/server/ (and the other way round);
#                       both may call programs/common/
#   src/engines/        not src/games/ nor src/play/ (a game reaches an
#                       engine through its hooks, never the reverse)
#   src/games/          not src/play/
#   src/play/           not src/games/ (families are told apart by hooks)
#   src/ (the core)     not src/play/
#
# The references that break a rule today are listed below, each by object
# and symbol: they are the debts of issue 22 (analyze.c handing its
# results down to remoteness.c, which the rules still place above it).  A new one fails; a listed one that is
# gone fails too, so the list only shrinks.
set -eu
build=$1
src=$2
known="src/analyze.c.o bt__remoteness_nim
src/analyze.c.o bt__remoteness_search"

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
    function rule(from, to, sym) {
        if (from ~ /^programs/ && sym ~ /^bt__/)
            return "programs/ calls the public API only"
        if (from == "programs/cli" && to == "programs/server" ||
            from == "programs/server" && to == "programs/cli")
            return "the commands and the server share only programs/common/"
        if (from == "src/engines" && (to == "src/games" || to == "src/play"))
            return "src/engines/ calls neither src/games/ nor src/play/"
        if (from == "src/games" && to == "src/play")
            return "src/games/ does not call src/play/"
        if (from == "src/play" && to == "src/games")
            return "src/play/ reaches the families through their hooks"
        if (from == "src" && to == "src/play")
            return "the core of src/ does not call src/play/"
        return ""
    }
    BEGIN { while ((getline line < known) > 0) listed[line] = 1 }
    $1 == "D" { where[$3] = $2; next }
    $1 == "U" { refs[++n] = $2 " " $3 }
    END {
        bad = 0
        for (i = 1; i <= n; i++) {
            split(refs[i], r, " ")
            if (!(r[2] in where)) continue   # libc, GMP, ...
            from = folder(r[1]); to = folder(where[r[2]])
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
