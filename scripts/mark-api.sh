#!/bin/sh
# Marks BT_API on every function declared in include/bouton.h and
# include/bouton/*.h that lacks it (a maintainer's tool, after adding a
# declaration or merging headers).  A declaration's first line gets the
# prefix "BT_API "; nothing else changes.  gcc's -aux-info lists the
# declarations, so the tool sees exactly what the compiler sees.  The test
# `install` fails on a declaration left unmarked (libbouton.so would not
# export it).
#
# A header conflict between a branch that adds declarations and one that
# marks them resolves mechanically: take the other side's lines in the
# conflicted hunks only (for a file F in conflict:
#   git show :1:F >base; git show :2:F >ours; git show :3:F >theirs
#   git merge-file --theirs ours base theirs; cp ours F
# keeps core.h's #include <bouton/export.h>), then run this script.
#
# Usage: sh scripts/mark-api.sh     (from the repository root; needs gcc)
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <bouton.h>\n' >"$tmp/all.c"
gcc -Iinclude -fsyntax-only -aux-info "$tmp/decl.txt" "$tmp/all.c"
# "/* include/bouton/core.h:24:NC */ extern ..." -> "include/bouton/core.h 24"
sed -n 's@^/\* \(include/[a-z/]*\.h\):\([0-9]*\):.*@\1 \2@p' "$tmp/decl.txt" |
    sort -u >"$tmp/lines"
n=0
# shellcheck disable=SC2013 # the paths are words (include/bouton/x.h)
for f in $(awk '{ print $1 }' "$tmp/lines" | sort -u); do
    # One sed command a declaration: prefix its line unless it is marked.
    awk -v f="$f" '$1 == f { printf "%d{/^BT_API /!s/^/BT_API /;}\n", $2 }' \
        "$tmp/lines" >"$tmp/script.sed"
    sed -f "$tmp/script.sed" "$f" >"$tmp/after"
    c=$(diff "$f" "$tmp/after" | grep -c '^>' || true)
    if [ "$c" -ne 0 ]; then
        cat "$tmp/after" >"$f"
        echo "mark-api.sh: $f: $c declaration(s) marked BT_API"
    fi
    n=$((n + c))
done
echo "mark-api.sh: $n declaration(s) marked"
