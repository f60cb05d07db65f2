#!/bin/sh
# bench_quotient_file.sh -- misère analysis of huge Kayles sums once the
# quotient is known (issue 13): wall time of the whole command, median and
# largest of RUNS runs (default 11), of
#   - `bouton analyze --misere --quotient FILE "kayles 1"`: start, reading
#     and checking the saved proved quotient of Kayles (the exact check over
#     the heaps up to 169 and the periodicity hypotheses), a trivial analysis;
#   - the same on 10^4 Kayles heaps of pseudo-random sizes 1..10^12 (one
#     pass: products kept as prefix and suffix; every winning move of each
#     heap, its splits in the window of docs/misere.md), text and --json;
#   - as reference points in the same run: `bouton analyze --misere
#     "kayles 1"` (the start of the program, no file) and the 10^4 heaps
#     without the file (refused: the search cannot answer them).
# FILE is made first with `bouton quotient --game kayles --until-proved
# --save FILE` (about 40 s of CPU and 1.5 GB) unless given.
# Usage: sh bench/bench_quotient_file.sh PATH-TO-bouton [RUNS] [FILE]
set -eu
B=$1
runs=${2:-11}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -ge 3 ]; then
    Q=$3
else
    Q=$tmp/kayles.q
    t0=$(date +%s%N)
    "$B" quotient --game kayles --until-proved --max-search 100000000 \
        --max-memory 3G --save "$Q" >/dev/null
    t1=$(date +%s%N)
    echo "proving and saving Kayles' quotient: $(((t1 - t0) / 1000000)) ms"
fi
awk 'BEGIN { x = 1; printf "kayles"; for (i = 0; i < 10000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648; a = x % 1000000
    x = (x * 1103515245 + 12345) % 2147483648; b = x % 1000000
    printf " %.0f", a * 1000000 + b + 1 }
    print "" }' >"$tmp/k4"
echo "kayles 1" >"$tmp/k1"
# time1 FILE ARGS...: the wall time of one run in microseconds
time1() {
    file=$1
    shift
    t0=$(date +%s%N)
    "$B" analyze --misere "$@" - <"$tmp/$file" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000))
}
# stats FILE ARGS...: "median | max" in milliseconds over $runs runs
stats() {
    i=0
    : >"$tmp/times"
    while [ $i -lt "$runs" ]; do
        time1 "$@" >>"$tmp/times"
        i=$((i + 1))
    done
    sort -n "$tmp/times" | awk '{ t[NR] = $1 } END {
        printf "%.1f ms | %.1f ms", t[int((NR + 1) / 2)] / 1000, t[NR] / 1000 }'
}
echo "| command | median | max |"
echo "| --- | ---: | ---: |"
echo "| analyze --misere \"kayles 1\" (no file) | $(stats k1) |"
echo "| analyze --misere --quotient FILE \"kayles 1\" | $(stats k1 --quotient "$Q") |"
echo "| analyze --misere --quotient FILE, 10^4 heaps of 1..10^12 | $(stats k4 --quotient "$Q") |"
echo "| the same, --json | $(stats k4 --json --quotient "$Q") |"
echo "| the same without the file | $(stats k4) |"
echo
"$B" analyze --misere --quotient "$Q" - <"$tmp/k4" | sed -n '2p;4p'
"$B" analyze --misere --quotient "$Q" - <"$tmp/k4" | tail -n 1 | cut -c1-100
"$B" analyze --misere - <"$tmp/k4" 2>&1 | head -n 1 | cut -c1-120 || true
