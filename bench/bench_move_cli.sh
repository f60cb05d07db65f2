#!/bin/sh
# bench_move_cli.sh -- wall time of the whole `bouton move` command (start,
# parsing, the move, output) on the positions of issue 9, median and
# largest of RUNS runs (default 11), against two baselines in the same
# run: `bouton analyze --json` of the same position (the core answer), and
# `bouton move 3 4 5` (the start of the program).  Usage: sh bench/bench_move_cli.sh
# PATH-TO-bouton [RUNS]
set -eu
B=$1
runs=${2:-11}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk 'BEGIN { g[0] = "kayles"; g[1] = "grundys-game"; g[2] = "nim";
    g[3] = "sub:1-3"; g[4] = "dawsons-kayles"; g[5] = "octal:0.137";
    for (i = 0; i < 100; i++)
        printf "%s%s %d", (i ? " + " : ""), g[i % 6], 7 + (i * 37) % 53
    print "" }' >"$tmp/sum"
awk 'BEGIN { x = 1; for (i = 0; i < 100000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648; printf "%d ", 1 + x % 1000000 }
    print "" }' >"$tmp/nim"
echo "kayles 40" >"$tmp/k40"
echo "kayles 1000000000000" >"$tmp/k12"
echo "grundys-game 4 8 59" >"$tmp/g"
echo "3 4 5" >"$tmp/small"
echo "| position | move, median | move, max | analyze, median |"
echo "| --- | ---: | ---: | ---: |"
# time1 FILE CMD...: the wall time of one run in microseconds
time1() {
    file=$1
    shift
    t0=$(date +%s%N)
    "$B" "$@" - <"$tmp/$file" >/dev/null
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000))
}
for f in small:3-4-5 k40:kayles-40 k12:kayles-10^12 g:grundys-game-4-8-59 \
    sum:sum-of-100-components nim:Nim-10^5-piles; do
    file=${f%%:*}
    name=$(echo "${f#*:}" | tr '-' ' ')
    i=0
    : >"$tmp/times"
    : >"$tmp/atimes"
    while [ "$i" -lt "$runs" ]; do
        time1 "$file" move >>"$tmp/times"
        time1 "$file" analyze --json >>"$tmp/atimes"
        i=$((i + 1))
    done
    a=$(sort -n "$tmp/atimes" | awk '{ t[NR] = $1 }
        END { printf "%.1f", t[int((NR + 1) / 2)] / 1000 }')
    sort -n "$tmp/times" | awk -v name="$name" -v a="$a" '{ t[NR] = $1 }
        END { printf "| %s | %.1f ms | %.1f ms | %s ms |\n", name,
              t[int((NR + 1) / 2)] / 1000, t[NR] / 1000, a }'
done
