#!/bin/sh
# Makes the store entries that the install ships (docs/store.md): the
# proved misère quotients of the given games, computed by the bouton just
# built (`quotient --until-proved --store DIR`; a game GAME@N: its
# quotient computed to heap N, `quotient --upto N --store DIR`), then
# checked again by `bouton store verify`.  The build runs it
# (cmake/install.cmake).
#
# Usage: scripts/store-entries.sh BOUTON DIR STAMP GAME...
set -eu
[ $# -ge 4 ] || { echo "usage: store-entries.sh BOUTON DIR STAMP GAME..." >&2; exit 2; }
bouton=$1
dir=$2
stamp=$3
shift 3
rm -rf "$dir"
mkdir -p "$dir"
for g in "$@"; do
    case $g in
    *@*) # computed to a heap, not proved
        "$bouton" quotient --game "${g%@*}" --upto "${g##*@}" --store "$dir" \
            >/dev/null ;;
    *) "$bouton" quotient --game "$g" --until-proved --store "$dir" >/dev/null ;;
    esac
done
"$bouton" store verify --store "$dir" >/dev/null
n=$(find "$dir" -name '*.quotient' | wc -l)
[ "$n" -eq $# ] || { echo "store-entries.sh: $n entries for $# games" >&2; exit 1; }
touch "$stamp"
