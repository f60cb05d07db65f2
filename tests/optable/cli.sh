#!/bin/sh
# The commands against the table of operations (programs/common/
# optable.c): sh cli.sh PATH-TO-bouton PATH-TO-optable_doc
#
# Each command compares its own option table with the table of
# operations when it starts (cli_options), and stops with an internal
# error (exit 1) when they differ; this runs every command of the table
# once (--help), checks that the commands `bouton --help` lists are the
# table's (but serve, the server itself, whose endpoints are checked when
# it starts), that each option of the table is in its command's --help,
# and that each command's option lines are the ones the table renders
# (optable_cli_help), with no line of a table option written by hand
# beside them (optable_doc --help-check).
set -u
bouton=$1
doc=$2
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$doc" --commands | sort >"$tmp/table" || exit 1
"$bouton" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
    on && /^  [a-z]/ && $1 != "serve" { print $1 }' | sort >"$tmp/program"
if ! cmp -s "$tmp/table" "$tmp/program"; then
    echo "FAIL: the commands of bouton --help and of the table differ:" >&2
    diff "$tmp/program" "$tmp/table" >&2
    fails=$((fails + 1))
fi
for c in $(cat "$tmp/table"); do
    if ! out=$("$bouton" "$c" --help 2>&1 >/dev/null); then
        echo "FAIL: bouton $c --help: $out" >&2
        fails=$((fails + 1))
    fi
done
# every option of the table is in its command's --help
"$doc" --options >"$tmp/options" || exit 1
while read -r c o; do
    if ! "$bouton" "$c" --help 2>/dev/null | grep -qE -- "--$o([^a-z-]|\$)"; then
        echo "FAIL: bouton $c --help does not show --$o" >&2
        fails=$((fails + 1))
    fi
done <"$tmp/options"
# the option lines of every command are the table's, and only the table's
for c in $(cat "$tmp/table"); do
    if ! "$bouton" "$c" --help 2>/dev/null | "$doc" --help-check "$c"; then
        fails=$((fails + 1))
    fi
done
[ $fails -eq 0 ] || exit 1
echo "cli.sh: the commands, their options and their option lines are the table's"
