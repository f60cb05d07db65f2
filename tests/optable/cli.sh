#!/bin/sh
# The commands against the table of operations (programs/common/
# optable.c): sh cli.sh PATH-TO-bouton PATH-TO-optable_doc
#
# Each command compares its own option table with the table of
# operations when it starts (cli_options), and stops with an internal
# error (exit 1) when they differ; this runs every command of the table
# once (--help) and checks that the commands `bouton --help` lists are
# the table's (but serve, the server itself, whose endpoints are checked
# when it starts).
set -u
bouton=$1
doc=$2
fails=0
"$doc" --commands | sort >cli_table.$$ || exit 1
trap 'rm -f cli_table.$$ cli_program.$$' EXIT
"$bouton" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
    on && /^  [a-z]/ && $1 != "serve" { print $1 }' | sort >cli_program.$$
if ! cmp -s cli_table.$$ cli_program.$$; then
    echo "FAIL: the commands of bouton --help and of the table differ:" >&2
    diff cli_program.$$ cli_table.$$ >&2
    fails=$((fails + 1))
fi
for c in $(cat cli_table.$$); do
    if ! out=$("$bouton" "$c" --help 2>&1 >/dev/null); then
        echo "FAIL: bouton $c --help: $out" >&2
        fails=$((fails + 1))
    fi
done
[ $fails -eq 0 ] || exit 1
echo "cli.sh: the commands and their options are the table's"
