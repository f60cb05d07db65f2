#!/bin/sh
# The progress line of long commands: on stderr when it is a terminal (a
# pseudo-terminal made by script(1)), never when piped, and forced either
# way by --progress / --no-progress.  Usage: sh progress.sh PATH-TO-bouton
# CPU: about 8 s (tests/README.md).
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

if ! command -v script >/dev/null 2>&1; then
    echo "SKIP: script(1) (util-linux) is missing: no pseudo-terminal"
    exit 0
fi
run='grundy --game officers --upto 300000 --no-values --threads 1'
# on a terminal: a line with the values done, the rate, the ETA and the
# sparse positions
script -qec "$B $run 2>&1 >/dev/null" /dev/null >"$tmp/tty" 2>&1
if grep -q 'values (.*%), .* values/s, ETA .*, [0-9]* rare' "$tmp/tty"; then
    pass=$((pass + 1))
else
    echo "FAIL tty: no progress line on a terminal"
    head -c 300 "$tmp/tty"
    fail=$((fail + 1))
fi
script -qec "$B $run --no-progress 2>&1 >/dev/null" /dev/null >"$tmp/tty" 2>&1
if grep -q 'values/s' "$tmp/tty"; then
    echo "FAIL no-progress: a progress line although --no-progress"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
# piped: nothing on stderr, unless forced
$B $run >/dev/null 2>"$tmp/err"
if [ -s "$tmp/err" ]; then
    echo "FAIL piped: stderr is not empty"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
$B $run --progress >/dev/null 2>"$tmp/err"
if grep -q 'values/s' "$tmp/err"; then pass=$((pass + 1)); else
    echo "FAIL forced: no progress line with --progress"
    fail=$((fail + 1))
fi
# census: one line per game
$B census --codes 0.1d --upto 4096 --progress --no-time >/dev/null 2>"$tmp/err"
if grep -q 'census: [0-9]*/7 games' "$tmp/err"; then pass=$((pass + 1)); else
    echo "FAIL census: no progress line with --progress"
    fail=$((fail + 1))
fi

# table and count: a line once they have worked half a second (these take
# a few seconds of CPU; count's with the share of its work done and an
# ETA), none for quick ones, none when piped
table='table --piles 3 --below 6000'
script -qec "$B $table 2>&1 >/dev/null" /dev/null >"$tmp/tty" 2>&1
if grep -q 'table: [0-9]* rows, first pile [0-9]* (below 6000), .* elapsed' \
    "$tmp/tty"; then pass=$((pass + 1)); else
    echo "FAIL table tty: no progress line on a terminal"
    head -c 300 "$tmp/tty"
    fail=$((fail + 1))
fi
$B $table >/dev/null 2>"$tmp/err"
if [ -s "$tmp/err" ]; then
    echo "FAIL table piped: stderr is not empty"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
count='count --piles 4096 --below 100000000000000000000000000000000000'
script -qec "$B $count 2>&1 >/dev/null" /dev/null >"$tmp/tty" 2>&1
if grep -q 'count: counting .*, [0-9.]*% done, ETA [0-9].*, .* elapsed' \
    "$tmp/tty"; then
    pass=$((pass + 1))
else
    echo "FAIL count tty: no progress line on a terminal"
    head -c 300 "$tmp/tty"
    fail=$((fail + 1))
fi
script -qec "$B count --piles 3 --below 16 2>&1 >/dev/null" /dev/null \
    >"$tmp/tty" 2>&1
if grep -q 'elapsed' "$tmp/tty"; then
    echo "FAIL count quick: a progress line for a quick count"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
script -qec "$B $count --no-progress 2>&1 >/dev/null" /dev/null \
    >"$tmp/tty" 2>&1
if grep -q 'elapsed' "$tmp/tty"; then
    echo "FAIL count no-progress: a progress line although --no-progress"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
