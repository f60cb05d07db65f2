#!/bin/sh
# bench_pretend.sh -- misère quotients learnt by pretending (issue 13's
# performance goal): A/B in one run, with hyperfine, of
#   - `bouton quotient --game dawsons-kayles --upto 30` (MisereSolver's
#     reference point: the 360-element quotient in 14 s), and
#   - `bouton quotient --game kayles --until-proved` (proved at heap 169),
# each with --max-search 100000000 --max-memory 3G, for PATH-TO-bouton
# and for a baseline built from git revision BASE in a temporary
# directory with the same CMake build type (default aa28a60, the engine
# just before pretending: L* over the search).  The baseline's runs
# are cut at TIMEOUT seconds (default 120; the search does not finish 0.07
# to 30): hyperfine then records the timeout.  The baseline runs once (a
# minute or more each), the new engine RUNS times (default 5).
# Usage: sh bench/bench_pretend.sh PATH-TO-bouton [BASE] [RUNS] [TIMEOUT]
set -eu
B=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
base=${2:-aa28a60}
runs=${3:-5}
tmo=${4:-120}
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/tree"
git -C "$root" archive "$base" | tar -x -C "$tmp/tree"
cmake -S "$tmp/tree" -B "$tmp/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    >/dev/null
cmake --build "$tmp/build" -j2 -t bouton >/dev/null
A=$tmp/build/bouton
lim="--max-search 100000000 --max-memory 3G"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 |
    sed 's/^ //'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC');" \
    "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "baseline: $base ($(git -C "$root" rev-parse --short "$base"))"
for case in "dawsons-kayles --upto 30" "kayles --until-proved"; do
    # the results first: identical where both finish
    # shellcheck disable=SC2086
    "$B" quotient --game $case $lim --json >"$tmp/new.json"
    # shellcheck disable=SC2086
    if timeout "$tmo" "$A" quotient --game $case $lim --json \
        >"$tmp/old.json"; then
        if cmp -s "$tmp/old.json" "$tmp/new.json"; then
            echo "$case: the same quotient (JSON byte for byte)"
        else
            echo "$case: DIFFERENT results" >&2
            exit 1
        fi
    else
        echo "$case: the baseline did not finish in $tmo s (timed out)"
    fi
    hyperfine -N --style basic -w 1 -r "$runs" \
        -n "pretending: quotient --game $case" \
        "$B quotient --game $case $lim" 2>&1 | grep -v '^ *$'
    hyperfine -N --style basic -i -r 1 \
        -n "baseline: quotient --game $case (timeout $tmo s)" \
        "timeout $tmo $A quotient --game $case $lim" 2>&1 | grep -v '^ *$'
    # shellcheck disable=SC2086
    /usr/bin/time -f "pretending, $case: %e s wall, %U s user, %M KB peak" \
        "$B" quotient --game $case $lim >/dev/null
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
