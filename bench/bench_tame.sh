#!/bin/sh
# bench_tame.sh -- tame and near-tame misère quotients (issue 21, item 4):
# A/B in one run of `bouton quotient` for PATH-TO-bouton and for a
# baseline BOUTON-BASE (a bouton built the same way from the revision
# before the change), CPU seconds (user + system, /usr/bin/time), the
# median of RUNS runs (default 3), alternating the two binaries; each
# run is cut at CUT s of CPU (ulimit -t; default 30).  The printed quotients are
# compared first (JSON with the table, byte for byte) where both finish
# within the cut.
# Cases: 0.56 to heap 100, to 300 and --until-proved (to 1000: refused, no
# period meets the bound), Kayles --until-proved, Dawson's Kayles to 30
# and 32, and the sum over the 20 two-digit codes that are tame to heap
# 30 of `--upto 30`.
# Usage: sh bench/bench_tame.sh PATH-TO-bouton BOUTON-BASE [RUNS] [CUT]
set -eu
B=$1
A=$2
runs=${3:-3}
cut=${4:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BOUTON_STORE=off
lim="--max-search 100000000 --max-memory 3G"
tame2="0.01 0.02 0.03 0.05 0.11 0.12 0.13 0.21 0.22 0.23 0.24 0.25 0.31
0.32 0.33 0.51 0.52 0.55 0.56 0.73"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 |
    sed 's/^ //'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC');" \
    "load: $(cut -d' ' -f1-3 /proc/loadavg)"
# cpu BIN ARGS...: CPU seconds of one run, or "cut" past $cut s
cpu() {
    bin=$1
    shift
    if /usr/bin/time -f '%U %S' -o "$tmp/t" sh -c 'ulimit -t "$0"; exec "$@"' \
        "$cut" "$bin" "$@" >/dev/null 2>&1 || [ -s "$tmp/t" ]; then
        if grep -q 'signal' "$tmp/t"; then
            echo cut
        else
            tail -n 1 "$tmp/t" | awk '{printf "%.2f", $1 + $2}'
        fi
    else
        echo cut
    fi
}
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR] = $1}
    END {print (NR ? a[int((NR + 1) / 2)] : "-")}'; }
run_case() {
    name=$1
    shift
    sh -c 'ulimit -t "$0"; exec "$@"' "$cut" "$B" quotient "$@" --json \
        --table >"$tmp/new.json" 2>&1 || true
    if sh -c 'ulimit -t "$0"; exec "$@"' "$cut" "$A" quotient "$@" --json \
        --table >"$tmp/old.json" 2>&1; then
        if cmp -s "$tmp/new.json" "$tmp/old.json"; then same=identical
        else same=DIFFERENT; fi
    elif cmp -s "$tmp/new.json" "$tmp/old.json"; then
        same="identical (both refused)"
    else
        same="not compared (the baseline did not finish)"
    fi
    ta=""
    tb=""
    i=0
    while [ "$i" -lt "$runs" ]; do
        ta="$ta $(cpu "$A" quotient "$@")"
        tb="$tb $(cpu "$B" quotient "$@")"
        i=$((i + 1))
    done
    printf '%s | %s s | %s s | output %s\n' "$name" \
        "$(echo "$ta" | median)" "$(echo "$tb" | median)" "$same"
}
echo "case | baseline (median CPU) | now (median CPU) | results"
# shellcheck disable=SC2086
run_case "0.56 --upto 100" --game octal:0.56 --upto 100 $lim
# shellcheck disable=SC2086
run_case "0.56 --upto 300" --game octal:0.56 --upto 300 $lim
# shellcheck disable=SC2086
run_case "0.56 --until-proved (to 1000)" --game octal:0.56 --until-proved \
    --upto 1000 $lim
# shellcheck disable=SC2086
run_case "kayles --until-proved" --game kayles --until-proved $lim
# shellcheck disable=SC2086
run_case "dawsons-kayles --upto 30" --game dawsons-kayles --upto 30 $lim
# shellcheck disable=SC2086
run_case "dawsons-kayles --upto 32" --game dawsons-kayles --upto 32 $lim
sa=0
sb=0
for c in $tame2; do
    # shellcheck disable=SC2086
    a=$(cpu "$A" quotient --game "octal:$c" --upto 30 $lim)
    # shellcheck disable=SC2086
    b=$(cpu "$B" quotient --game "octal:$c" --upto 30 $lim)
    sa=$(echo "$sa $a $cut" | awk '{print $1 + ($2 == "cut" ? $3 : $2)}')
    sb=$(echo "$sb $b $cut" | awk '{print $1 + ($2 == "cut" ? $3 : $2)}')
done
echo "the 20 tame two-digit codes, --upto 30 each, in all | $sa s | $sb s |"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
