#!/bin/sh
# CLI tests of issue 26's hostile tables and texts: inputs that used to take
# seconds to minutes answer at once, in bounded memory.
#   - pair tables from a --min of 20 000 and 100 000 digits give their
#     first row at once (the index by interpolation; a bisection of
#     log2(min) closed forms took 10 s and more than 30 s);
#   - a Nim table of 64 piles of 50 000 digits streams its first rows at
#     once, in constant memory;
#   - a sum of 120 000 Kayles terms parses and is analysed at once (each
#     term made its own game, looked up among all the others: quadratic);
#   - 1 001 distinct games in one text stop at max_games (exit 2, one
#     line).
# Each case runs under `ulimit -v 4000000` where the build allows it (not
# under ASan) and within a generous wall limit: well under 1 s of CPU each
# now, against the tens of seconds they took.  About 5 s in all.
# Usage: sh hostile_tables.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

vlimit=""
if sh -c 'ulimit -v 4000000 && exec "$0" --version' "$B" >/dev/null 2>&1; then
    vlimit=4000000
fi

# run WALL ARGS...: bouton under the ulimit, stdout in $tmp/out (the first
# 3 lines), stderr in $tmp/err; rc in $rc
run() {
    wall=$1
    shift
    (
        [ -z "$vlimit" ] || ulimit -v "$vlimit"
        timeout "$wall" "$B" "$@" 2>"$tmp/err" | head -n 3 >"$tmp/out"
        exit 0
    ) <"${stdin:-/dev/null}"
    rc=$?
}

ok() { pass=$((pass + 1)); }
ko() {
    echo "FAIL $1"
    sed 's/^/  stderr: /' "$tmp/err" | head -3
    fail=$((fail + 1))
}

# digits N D: the decimal number of N digits D...D
digits() { awk -v n="$1" -v d="$2" 'BEGIN { s = ""; for (i = 0; i < n; i++)
    s = s d; print s }'; }

# first_pair NAME GAME MIN: the first row of the table of GAME from MIN is
# a pair x <= y with x >= MIN (as many digits, and not below it)
first_pair() {
    name=$1 game=$2 min=$3
    shift 3
    run 30 table --game "$game" "$@" --min "$min" --below "${min}00"
    set -- $(head -n 1 "$tmp/out")
    if [ $# -ne 2 ] || [ ${#1} -ne ${#min} ] || [ "$1" \< "$min" ] ||
        [ ${#2} -lt ${#1} ]; then
        ko "$name: no first pair at once (got $# numbers)"
    else
        ok
    fi
}

m20=$(digits 20000 7)
m100=$(digits 100000 3)
first_pair wythoff-20000 wythoff "$m20"
first_pair wythoff-100000 wythoff "$m100"
first_pair wythoff2-misere-100000 wythoff:2 "$m100" --misere

# Nim, 64 piles of 50 000 digits: three rows of 64 numbers each
m50=$(digits 50000 1)
run 30 table --piles 64 --min "$m50" --below "${m50}0"
if [ "$(wc -l <"$tmp/out")" -ne 3 ] ||
    [ "$(head -n 1 "$tmp/out" | wc -w)" -ne 64 ]; then
    ko "nim-64-piles-50000: no three rows at once"
else
    ok
fi

# 120 000 terms of Kayles by its alias, 1 + 2 60 000 times, whose values
# (1, 2) cancel: P.  Each "kayles" term made a game of its own, looked up
# among all the others: quadratic (50 s of CPU here)
awk 'BEGIN { for (i = 0; i < 60000; i++)
    printf("%skayles 1 + kayles 2", (i ? " + " : "")); print "" }' \
    >"$tmp/sum.txt"
stdin=$tmp/sum.txt run 20 analyze -
stdin=
if ! grep -q '^outcome:  P' "$tmp/out"; then
    ko "kayles-120000-terms: no analysis at once"
else
    ok
fi

# 1 001 distinct games: exit 2, one line naming the limit
awk 'BEGIN { for (i = 1; i <= 1001; i++)
    printf("%ssub:%d 5", (i > 1 ? " + " : ""), i); print "" }' \
    >"$tmp/games.txt"
(
    [ -z "$vlimit" ] || ulimit -v "$vlimit"
    exec timeout 30 "$B" analyze - <"$tmp/games.txt"
) >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ] || [ -s "$tmp/out" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
    ! grep -q 'max_games' "$tmp/err"; then
    ko "distinct-games-1001: status $rc (want 2 and one line on max_games)"
else
    ok
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
