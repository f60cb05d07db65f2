#!/bin/sh
# Benchmarks `bouton serve` with wrk on loopback:
#     sh bench/bench_server.sh PATH-TO-bouton [SOAK-SECONDS] [RUN-SECONDS]
#
#  1. throughput: POST /v1/analyze of a 5-pile Nim position, 2 wrk threads
#     and 32 connections: requests/s, p50, p99, errors;
#  2. soak: the same load for SOAK-SECONDS (default 120), the server's RSS
#     at its start and end;
#  3. flood: the latency of normal requests (1 thread, 8 connections) alone,
#     then with a flood of malformed and oversized requests in parallel
#     (1 thread, 32 connections), and the ratio.
#
# The server runs as it would for anyone (request log on, to /dev/null
# here), with --max-body 16384 so that the flood's oversized bodies are
# cheap to send.  Prints a Markdown block for bench/README.md.  Needs wrk
# (Debian package wrk).
set -eu
[ $# -ge 1 ] || { echo "usage: sh bench_server.sh PATH-TO-bouton [SOAK-SECONDS] [RUN-SECONDS]" >&2; exit 2; }
bouton=$1
soak=${2:-120}
run=${3:-10}
command -v wrk >/dev/null 2>&1 || { echo "bench_server.sh: needs wrk (apt-get install wrk)" >&2; exit 1; }
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

body='{"game":"nim","position":["3","4","5","6","7"]}'
cat >"$tmp/analyze.lua" <<EOF
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["Content-Type"] = "application/json"
EOF
# The flood: invalid JSON, bodies over --max-body, unknown fields, positions
# with syntax errors, 404s and 405s, in turn.
cat >"$tmp/flood.lua" <<'EOF'
local big = '{"position":"' .. string.rep("7 ", 10000) .. '"}'
local bad = {
  {"POST", "/v1/analyze", '{"position": [3, 4,'},
  {"POST", "/v1/analyze", big},
  {"POST", "/v1/analyze", '{"position":"nim 3 x 5"}'},
  {"POST", "/v1/analyze", '{"position":"3","bogus":true}'},
  {"POST", "/v1/nothing", '{}'},
  {"GET", "/v1/analyze", nil},
  {"POST", "/v1/table", '{"game":"nim","piles":3,"below":"16","cursor":",,"}'},
  {"POST", "/v1/analyze", '\0\1\2\3'},
}
local i = 0
request = function()
  i = i + 1
  local r = bad[(i % #bad) + 1]
  return wrk.format(r[1], r[2], {["Content-Type"] = "application/json"}, r[3])
end
EOF

"$bouton" serve --port 0 --max-body 16384 >"$tmp/out" 2>/dev/null &
pid=$!
url=""
i=0
while [ -z "$url" ] && [ $i -lt 100 ]; do
    url=$(sed -n 's/.*serving \(http:[^ ]*\).*/\1/p' "$tmp/out" 2>/dev/null || true)
    [ -n "$url" ] || sleep 0.1
    i=$((i + 1))
done
[ -n "$url" ] || { echo "bench_server.sh: the server did not start" >&2; exit 1; }
target="${url}v1/analyze"
curl -s -d "$body" "$target" | grep -q '"outcome":"N"' ||
    { echo "bench_server.sh: unexpected answer" >&2; exit 1; }

rss() { awk '/^VmRSS/ {print $2 " kB"}' "/proc/$pid/status"; }
# the server's CPU time so far (user + system), in clock ticks
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
# us_per FILE T0 T1: the server's CPU microseconds per request of a run
us_per() {
    n=$(field "$1" n)
    echo $((($3 - $2) * 1000000 / hz / n))
}
# field FILE WHAT: requests/s, p50, p99 or errors from wrk's report
field() {
    case $2 in
    rps) sed -n 's/^Requests\/sec: *//p' "$1" ;;
    p50) sed -n 's/^ *50% *//p' "$1" ;;
    p99) sed -n 's/^ *99% *//p' "$1" ;;
    n) sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$1" ;;
    errors)
        e=$(sed -n 's/^ *Non-2xx or 3xx responses: *//p' "$1")
        s=$(sed -n 's/^ *Socket errors: *//p' "$1")
        echo "non-2xx: ${e:-0}; socket errors: ${s:-none}" ;;
    esac
}

load=$(cut -d' ' -f1-3 /proc/loadavg)
wrk -t2 -c32 -d3s -s "$tmp/analyze.lua" "$target" >/dev/null # warm-up

c0=$(ticks)
wrk -t2 -c32 -d"${run}s" --latency -s "$tmp/analyze.lua" "$target" >"$tmp/t"
c1=$(ticks)
rss0=$(rss)
wrk -t2 -c32 -d"${soak}s" --latency -s "$tmp/analyze.lua" "$target" >"$tmp/s"
rss1=$(rss)

wrk -t1 -c8 -d"${run}s" --latency -s "$tmp/analyze.lua" "$target" >"$tmp/n0"
c2=$(ticks)
wrk -t1 -c32 -d"${run}s" -s "$tmp/flood.lua" "$url" >"$tmp/f0"
c3=$(ticks)
wrk -t1 -c32 -d"$((run + 2))s" -s "$tmp/flood.lua" "$url" >"$tmp/f" &
fpid=$!
sleep 1
wrk -t1 -c8 -d"${run}s" --latency -s "$tmp/analyze.lua" "$target" >"$tmp/n1"
wait "$fpid"
curl -s -d "$body" "$target" | grep -q '"outcome":"N"' ||
    { echo "bench_server.sh: the server stopped answering" >&2; exit 1; }

cpu=$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo | head -1)
cat <<EOF
Machine: $(nproc) CPUs ($cpu), $(uname -sr); load average before: $load; $(date -u '+%Y-%m-%d %H:%M UTC'); $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2).
Request: POST /v1/analyze $body

| run | requests/s | p50 | p99 | errors |
| --- | ---: | ---: | ---: | --- |
| throughput, ${run} s, 2 threads x 32 connections | $(field "$tmp/t" rps) | $(field "$tmp/t" p50) | $(field "$tmp/t" p99) | $(field "$tmp/t" errors) |
| soak, ${soak} s, same load | $(field "$tmp/s" rps) | $(field "$tmp/s" p50) | $(field "$tmp/s" p99) | $(field "$tmp/s" errors) |
| normal alone, 1 thread x 8 connections | $(field "$tmp/n0" rps) | $(field "$tmp/n0" p50) | $(field "$tmp/n0" p99) | $(field "$tmp/n0" errors) |
| normal during the flood | $(field "$tmp/n1" rps) | $(field "$tmp/n1" p50) | $(field "$tmp/n1" p99) | $(field "$tmp/n1" errors) |
| the flood itself, 1 thread x 32 connections | $(field "$tmp/f" rps) | | | (all 4xx by design) |

Server RSS during the soak: $rss0 at its start, $rss1 at its end ($(field "$tmp/s" n) requests).
Server CPU time per request (user + system, from /proc): $(us_per "$tmp/t" "$c0" "$c1") us for /v1/analyze, $(us_per "$tmp/f0" "$c2" "$c3") us for a request of the flood (alone: $(field "$tmp/f0" rps) requests/s).
EOF
