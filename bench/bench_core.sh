#!/bin/sh
# bench_core.sh -- the Grundy engine on one core (issue 20, item 3): A/B in
# one run of `bouton grundy --threads 1` for PATH-TO-bouton and a baseline
# BOUTON-BASE (a bouton built the same way from the revision before the
# change), CPU seconds (user + system, /usr/bin/time), the median of RUNS
# runs (default 3), the two binaries alternating; values a second from the
# median.  The values are compared first (the whole `--json` output, with
# every value, byte for byte) for the cases of up to 2^22 values.
# Cases: Officers (0.6) to 2^22 and 2^24, the 0.354 proof, the 0.16 proof,
# Grundy's game to 2^17; with BIG=1 also Officers to 2^26 (about two minutes
# a run here).
# Usage: sh bench/bench_core.sh PATH-TO-bouton BOUTON-BASE [RUNS]
set -eu
B=$1
A=$2
runs=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 |
    sed 's/^ //'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC');" \
    "load: $(cut -d' ' -f1-3 /proc/loadavg)"
# cpu BIN ARGS...: CPU seconds of one run
cpu() {
    bin=$1
    shift
    /usr/bin/time -f '%U %S' -o "$tmp/t" "$bin" grundy "$@" --threads 1 \
        --no-values --json >/dev/null 2>&1
    tail -n 1 "$tmp/t" | awk '{printf "%.2f", $1 + $2}'
}
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR] = $1}
    END {print (NR ? a[int((NR + 1) / 2)] : "-")}'; }
# run_case VALUES ARGS...: VALUES is the number of values, for the rate
run_case() {
    values=$1
    shift
    same="not compared (over 2^22 values)"
    if [ "$values" -le 4194304 ]; then
        "$B" grundy "$@" --threads 1 --json >"$tmp/new.json" 2>&1
        "$A" grundy "$@" --threads 1 --json >"$tmp/old.json" 2>&1
        if cmp -s "$tmp/new.json" "$tmp/old.json"; then same=identical
        else same=DIFFERENT; fi
    fi
    ta=""
    tb=""
    i=0
    while [ "$i" -lt "$runs" ]; do
        ta="$ta $(cpu "$A" "$@")"
        tb="$tb $(cpu "$B" "$@")"
        i=$((i + 1))
    done
    ma=$(echo "$ta" | median)
    mb=$(echo "$tb" | median)
    echo "| \`grundy $*\` | $ta | $tb | $(echo "$values $ma $mb" |
        awk '{printf "%.2f, %.2f", $1 / $2 / 1e6, $1 / $3 / 1e6}') | $same |"
}
echo "| case | base: CPU s | this: CPU s | M values/s base, this | values |"
echo "| --- | --- | --- | --- | --- |"
run_case 4194304 --game officers --upto 4194304
run_case 16777216 --game officers --upto 16777216
if [ "${BIG:-0}" = 1 ]; then
    run_case 67108864 --game officers --upto 67108864
fi
run_case 20126195 --game octal:0.354 --until-proved
run_case 509622 --game octal:0.16 --until-proved
run_case 131072 --game grundy --upto 131072
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
