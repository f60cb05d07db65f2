#!/bin/sh
# Fairness and slowloris figures of `bouton serve` (issue 10):
#     sh bench/bench_fairness.sh PATH-TO-bouton [SECONDS] [ROUNDS]
#
# Starts the server with its defaults (request log to /dev/null) and runs
# bench/bench_fairness of the same build directory against it: the p99 of plain
# `POST /v1/analyze 3 4 5` alone and then with 8 clients hammering
# `POST /v1/grundy {"game":"grundys-game","upto":4194304}` (which runs to
# the time budget), then alone and with 1 000 slowloris connections.  Each
# round is SECONDS (default 5) of each phase; ROUNDS (default 3) alternate.
# Then the hostile requests of issue 26, one case at a time: HOSTILE-SECONDS
# (default 3) of plain requests alone, then as long again while CLIENTS
# (default 4) clients send that case's request over and over (see
# bench_fairness.c), HOSTILE-ROUNDS (default 1) times; ROUNDS 0 runs only
# these.
# Prints Markdown tables for bench/README.md.
set -eu
[ $# -ge 1 ] || { echo "usage: sh bench_fairness.sh PATH-TO-bouton [SECONDS] [ROUNDS] [HOSTILE-SECONDS] [CLIENTS] [HOSTILE-ROUNDS]" >&2; exit 2; }
bouton=$1
build=$(dirname "$1")
secs=${2:-5}
rounds=${3:-3}
hsecs=${4:-3}
clients=${5:-4}
hrounds=${6:-1}
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

"$bouton" serve --port 0 >"$tmp/out" 2>/dev/null &
pid=$!
i=0
until grep -q serving "$tmp/out" 2>/dev/null; do
    i=$((i + 1))
    [ $i -lt 100 ] || { echo "bench_fairness.sh: the server did not start" >&2; exit 1; }
    sleep 0.1
done
port=$(sed -n 's|.*http://[^:]*:\([0-9]*\)/.*|\1|p' "$tmp/out")

echo "Machine: $(nproc) CPUs, $(uname -m), $(date -u +%Y-%m-%d); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
if [ "$rounds" -gt 0 ]; then
    "$build/bench/bench_fairness" "$port" 8 "$secs" "$rounds"
    echo
    "$build/bench/bench_fairness" "$port" slowloris 1000 "$secs" "$rounds"
    echo
fi
"$build/bench/bench_fairness" "$port" hostile "$hsecs" "$clients" "$hrounds"
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Server RSS at the end: $(sed -n 's/^VmRSS:[[:space:]]*//p' /proc/$pid/status)"
