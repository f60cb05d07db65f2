#!/bin/sh
# CLI tests of Moore's Nim on hostile input (issue 26, finding 1): huge or
# many piles must stop at a limit of the library (exit 2, one stderr line)
# or answer, within a small amount of CPU and of memory, never grow until
# GMP's out-of-memory path ends the process (exit 1).  Each case runs
# under `ulimit -v 2000000` (max_memory then defaults to half of it) where
# the build allows it; an ASan build cannot run under it, so there the
# cases run without it, with --max-memory 256M.  The CPU of each case is
# measured (user + system, by the shell's `times`), not its wall time, and
# its bound is written next to it: each takes well under 1 s of CPU in a
# release build; the bounds leave room for a sanitizer build and a busy
# machine.  The wall-time limit (120 s) only catches a hang.
# Usage: sh hostile_moore.sh PATH-TO-bouton (BT_TEST_VERBOSE=1: the CPU of
# each case)
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

vlimit=""
if sh -c 'ulimit -v 2000000 && exec "$0" --version' "$B" >/dev/null 2>&1; then
    vlimit=2000000
fi

# The CPU seconds (user + system) of the children of a shell, from the
# second line of its `times` ("0m1.250s 0m0.310s") saved in file $1 (in a
# pipeline `times` would run in a subshell, which has no children).
child_cpu() {
    awk 'NR == 2 {
        s = 0
        for (i = 1; i <= 2; i++) {
            split($i, a, "m"); sub("s", "", a[2]); s += a[1] * 60 + a[2]
        }
        printf "%.2f\n", s }' "$1"
}

# hostile NAME STATUS OUT-PATTERN ERR-PATTERN CPU INPUT -- ARGS...: bouton
# ARGS with standard input from INPUT exits STATUS within CPU seconds of
# CPU time; its stdout matches OUT-PATTERN (is empty when that is "") and,
# when ERR-PATTERN is not empty, its one stderr line matches it (else
# stderr is empty).
hostile() {
    name=$1 want=$2 outpat=$3 errpat=$4 cpu=$5 input=$6
    shift 7
    if [ -z "$vlimit" ]; then
        cmd=$1
        shift
        set -- "$cmd" --max-memory 256M "$@"
    fi
    (
        [ -z "$vlimit" ] || ulimit -v "$vlimit"
        timeout 120 "$B" "$@" <"$input" >"$tmp/out" 2>"$tmp/err"
        echo $? >"$tmp/rc"
        times >"$tmp/times"
    )
    child_cpu "$tmp/times" >"$tmp/cpu"
    rc=$(cat "$tmp/rc") used=$(cat "$tmp/cpu")
    lines=$(wc -l <"$tmp/err")
    [ -z "${BT_TEST_VERBOSE:-}" ] || echo "$name: status $rc, $used s of CPU"
    ok=1
    [ "$rc" -eq "$want" ] || ok=0
    awk -v u="$used" -v c="$cpu" 'BEGIN { exit !(u <= c) }' || ok=0
    if [ -n "$outpat" ]; then
        grep -q -- "$outpat" "$tmp/out" || ok=0
    else
        [ -s "$tmp/out" ] && ok=0
    fi
    if [ -n "$errpat" ]; then
        [ "$lines" -eq 1 ] && grep -q -- "$errpat" "$tmp/err" || ok=0
    else
        [ -s "$tmp/err" ] && ok=0
    fi
    if [ "$ok" -eq 1 ]; then
        pass=$((pass + 1))
    else
        echo "FAIL $name: status $rc (want $want), $used s of CPU (at most" \
            "$cpu), $lines stderr lines"
        sed 's/^/  stderr: /' "$tmp/err" | head -3
        head -c 600 "$tmp/out" | sed 's/^/  stdout: /' | head -8
        fail=$((fail + 1))
    fi
}

# ------------------------------------------------------------- inputs

# six piles of 10 000 sevens (60 KB): a P-position of moore:5 (every
# column holds 0 or 6 ones); every pile has 10^10000 moves
sevens=$(head -c 10000 /dev/zero | tr '\0' 7)
echo "moore:5 $sevens $sevens $sevens $sevens $sevens $sevens" >"$tmp/six"
echo "moore:5 $sevens $sevens $sevens $sevens $sevens $sevens + moore:5 1" \
    >"$tmp/six-sum"
# 2 048 piles of 0..10^6 from a fixed linear congruential generator (15 KB)
awk 'BEGIN { x = 12345; printf "moore:64";
    for (i = 0; i < 2048; i++) {
        x = (x * 1103515245 + 12345) % 2147483648
        printf " %d", x % 1000001 }
    print "" }' >"$tmp/r2048"
# 100 piles of 1: C(100, 35) winning moves (normal play), and a walk over
# the 2^100 subsets of the piles before (misère play)
awk 'BEGIN { printf "moore:64"; for (i = 0; i < 100; i++) printf " 1";
    print "" }' >"$tmp/ones"
# one pile of 20 000 nines and 20 000 piles of 0: the column sums were
# piles x columns (66 000 x 20 000 bits tested)
awk 'BEGIN { printf "moore:2 "; for (i = 0; i < 20000; i++) printf "9";
    for (i = 0; i < 20000; i++) printf " 0"; print "" }' >"$tmp/wide"

# -------------------------------------------------------------- cases

# the remoteness of a position whose moves are 25 KB each is left out
# within its budget (it listed 10^5 moves, 2.4 GB, and died); under 0.1 s
# of CPU, bound 10 s
hostile six 0 'remoteness: not computed (.*remoteness budget' \
    "" 10 "$tmp/six" -- analyze -
hostile six-misere 0 'outcome:  P' "" 10 "$tmp/six" -- analyze --misere -
hostile six-json 0 '"outcome":"P"' "" 10 "$tmp/six" -- analyze --json -
# the misère search of a sum: a position's moves are bounded as they are
# listed (4 GB, GMP's abort before); under 1 s of CPU, bound 20 s
hostile six-sum-misere 2 "" 'max_search limit' 20 "$tmp/six-sum" -- \
    analyze --misere -
# 2 048 piles: the winning moves listed count their numbers (each is
# 2 048) toward max_search and are charged to max_memory, and the list
# says that it stopped; under 0.5 s of CPU, bound 20 s
hostile r2048 0 'and more' "" 20 "$tmp/r2048" -- \
    analyze --max-memory 100M -
# misère play: the same moves (a pile >= 2 is left), the same stop; the
# outcome stands and the list says it is incomplete (it failed, exit 2)
hostile r2048-misere 0 'and more: .*max_search limit' "" 20 "$tmp/r2048" -- \
    analyze --misere --max-memory 100M -
# 100 piles of 1: the moves are listed without dead branches, to the
# limit (20 000 numbers: 200 moves); under 0.5 s of CPU, bound 20 s
hostile ones 0 'winning moves (200)' "" 20 "$tmp/ones" -- \
    analyze --max-search 20000 -
hostile ones-remoteness 0 'remoteness: not computed (.*remoteness budget' \
    "" 20 "$tmp/ones" -- analyze -
# misère: did not end (and ignored SIGTERM), then failed at the limit
# (exit 2); now the outcome by Moore's misère rule and the first 200 of
# the C(100, 34) winning moves, marked incomplete with the limit that
# stopped them, as in normal play; under 0.5 s of CPU, bound 20 s
hostile ones-misere 0 'winning moves (200)' "" 20 "$tmp/ones" -- \
    analyze --misere --max-search 20000 -
hostile ones-misere-note 0 'and more: .*max_search limit' "" 20 "$tmp/ones" -- \
    analyze --misere --max-search 20000 -
# the list stopped by max_memory says so (it blamed max_search); under
# 0.5 s of CPU, bound 20 s
hostile ones-memory 0 'and more: .*max_memory limit' "" 20 "$tmp/ones" -- \
    analyze --max-memory 1M -
hostile ones-misere-memory 0 'and more: .*max_memory limit' "" 20 \
    "$tmp/ones" -- analyze --misere --max-memory 1M -
# one wide pile among many empty ones: the work is that of the input;
# under 0.1 s of CPU, bound 10 s
hostile wide 0 'take 9' "" 10 "$tmp/wide" -- analyze -

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
