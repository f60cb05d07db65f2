#!/bin/sh
# parse_back.sh BUILD SOURCE -- no position turned into text and parsed
# back inside the library (issue 22): of the library's objects, only the
# parsers of what a user writes may call GMP's readers of text (mpz_set_str
# and its kin, read from the objects' symbols with nm).  A search keeps its
# positions in their own form; a key it built is looked up, never read back
# into numbers.  Fails, naming the object and the symbol, on any other
# caller; a listed caller that no longer calls fails too, so the list only
# shrinks.
set -eu
build=$1
src=$2
# object, symbol: the parsers of user text
allowed="src/core/util.c.o __gmpz_set_str
src/games/wythoff.c.o __gmpz_set_str"
# bt__parse_number (util.c) reads the numbers of the position language
# (position.c); wythoff.c reads the A of wythoff:A, checked as digits
# first.

command -v nm >/dev/null 2>&1 || { echo "parse_back.sh: nm is missing" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dir="$build/CMakeFiles/bouton_obj.dir"
[ -d "$dir" ] || { echo "parse_back.sh: no objects in $build" >&2; exit 1; }
# the objects whose source is still there (a moved file leaves its old
# object behind in a build directory)
find "$dir" -name '*.c.o' | while read -r o; do
    rel=${o#"$dir"/}
    if [ -f "$src/${rel%.o}" ]; then
        nm -P "$o" | awk -v rel="$rel" '$2 == "U" { print rel, $1 }'
    fi
done >"$work/refs"
[ -s "$work/refs" ] || { echo "parse_back.sh: no objects in $build" >&2; exit 1; }

printf '%s\n' "$allowed" >"$work/allowed"
awk -v allowed="$work/allowed" '
    BEGIN { while ((getline line < allowed) > 0) listed[line] = 1 }
    # GMP readers of text: mpz_set_str, mpz_init_set_str, mpz_inp_str,
    # mpq_/mpf_ likewise, gmp_sscanf and its kin
    $2 ~ /^__gmp[zqf]_(init_)?set_str$/ || $2 ~ /^__gmp[zqf]_inp_str$/ ||
    $2 ~ /^__gmp_(v)?(s|f)?scanf$/ {
        if (($1 " " $2) in listed) { seen[$1 " " $2] = 1; next }
        printf "parse_back: %s calls %s: only the parsers of user text may read numbers from text\n", $1, $2
        bad = 1
    }
    END {
        for (k in listed)
            if (!(k in seen)) {
                printf "parse_back: \"%s\" is listed but no longer called: take it off the list\n", k
                bad = 1
            }
        if (!bad) print "parse_back: only the parsers of user text read numbers from text"
        exit bad
    }' "$work/refs"
