#!/bin/sh
# The cost of the front's relay (every connection copied through a socket
# pair so that every request head is checked), against a build without it,
# in the same run:
#     sh bench/bench_relay.sh PATH-TO-bouton PATH-TO-BASELINE-bouton [ROUNDS] [SECONDS] [OTHER-bouton]
#
# Each round runs wrk (2 threads, 32 kept-alive connections, SECONDS s,
# default 5) against the baseline, then OTHER if given (say, an earlier
# relay), then the build, each server started
# fresh as anyone runs it (request log on, to /dev/null), on the same CPUs:
# requests/s, p50, p99, errors, and the server's CPU per request.  Needs wrk.
set -eu
[ $# -ge 2 ] || { echo "usage: sh bench_relay.sh BOUTON BASELINE-BOUTON [ROUNDS] [SECONDS] [OTHER-BOUTON]" >&2; exit 2; }
rounds=${3:-3}
run=${4:-5}
other=${5:-}
command -v wrk >/dev/null 2>&1 || { echo "bench_relay.sh: needs wrk (apt-get install wrk)" >&2; exit 1; }
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
body='{"game":"nim","position":["3","4","5","6","7"]}'
cat >"$tmp/analyze.lua" <<LUA
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["Content-Type"] = "application/json"
LUA
hz=$(getconf CLK_TCK)

one() { # one BINARY NAME
    "$1" serve --port 0 >"$tmp/out" 2>/dev/null &
    pid=$!
    url=""
    i=0
    while [ -z "$url" ] && [ $i -lt 100 ]; do
        url=$(sed -n 's/.*serving \(http:[^ ]*\).*/\1/p' "$tmp/out" 2>/dev/null || true)
        [ -n "$url" ] || sleep 0.1
        i=$((i + 1))
    done
    [ -n "$url" ] || { echo "bench_relay.sh: $2 did not start" >&2; exit 1; }
    wrk -t2 -c32 -d1s -s "$tmp/analyze.lua" "${url}v1/analyze" >/dev/null
    t0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    wrk -t2 -c32 -d"${run}s" --latency -s "$tmp/analyze.lua" "${url}v1/analyze" >"$tmp/w"
    t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    pid=""
    rps=$(sed -n 's/^Requests\/sec: *//p' "$tmp/w")
    n=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$tmp/w")
    p50=$(sed -n 's/^ *50% *//p' "$tmp/w")
    p99=$(sed -n 's/^ *99% *//p' "$tmp/w")
    e=$(sed -n 's/^ *Non-2xx or 3xx responses: *//p' "$tmp/w")
    s=$(sed -n 's/^ *Socket errors: *//p' "$tmp/w")
    echo "| $2 | $rps | $p50 | $p99 | $(((t1 - t0) * 1000000 / hz / n)) us | ${e:-0} non-2xx; ${s:-no} socket errors |"
}

cpu=$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo | head -1)
echo "Machine: $(nproc) CPUs ($cpu), $(uname -sr); load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')."
echo
echo "| server | requests/s | p50 | p99 | server CPU per request | errors |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
r=0
while [ $r -lt "$rounds" ]; do
    one "$2" "baseline (no relay)"
    [ -z "$other" ] || one "$other" "other"
    one "$1" "relay"
    r=$((r + 1))
done
echo
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
