#!/bin/sh
# bench_scale.sh -- the Grundy engine on 1, 2, 4, ... threads (issue 20).
#
# For each case and each thread count T (2, 4, 8, ... up to the CPUs, then
# the CPUs, then twice the CPUs: more threads than cores), one run on one
# thread and one on T, alternately (bench_threads, one round: 1 then T), and
# a row of the table: wall and CPU seconds of both, the speedup, values a
# second on T threads, the threads the engine ran, and whether the values'
# digests agree.  Then the bound of the issue: a run on T threads takes at
# most 1.1 times the wall time and 1.3 times the CPU time of one thread,
# plus SLACK seconds (default 0.5) -- a row that breaks it is marked FAIL
# and the script exits 1 (more threads must never be slower).
#
# Usage: sh bench/bench_scale.sh [BUILD-DIR]   (default: build)
#   CASES   the cases, each "NAME LOG" of bench_threads (default: the
#           0.354 proof, the 0.16 proof, Officers to 2^24; Officers to 2^26
#           takes about 5 minutes a run on one thread: add "officers 26")
#   MAX     the largest T (default: twice the CPUs of `nproc`)
#   SLACK   the constant of the bound, in seconds (default 0.5)
# Read the load averages bench_threads prints: on a shared machine the wall
# times say little; the CPU times and the digests still do.
set -u
build=${1:-build}
bench="$build/bench/bench_threads"
[ -x "$bench" ] || {
    echo "bench_scale.sh: $bench is missing (cmake --build $build --target bench_threads)" >&2
    exit 2
}
cases=${CASES:-"0.354 24
0.16 24
officers 24"}
cpus=$(nproc)
max=${MAX:-$((2 * cpus))}
slack=${SLACK:-0.5}

counts() {
    t=2
    while [ "$t" -lt "$cpus" ] && [ "$t" -le "$max" ]; do
        echo "$t"
        t=$((t * 2))
    done
    [ "$cpus" -gt 1 ] && [ "$cpus" -le "$max" ] && echo "$cpus"
    [ $((2 * cpus)) -le "$max" ] && echo $((2 * cpus))
}

echo "bench_scale.sh: $(nproc) CPUs, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%d)"
printf '%-12s %4s %9s %9s %8s %8s %8s %12s %4s %s\n' case T "wall(1)" "wall(T)" \
    "CPU(1)" "CPU(T)" speedup "values/s(T)" ran digests
bad=0
echo "$cases" | while read -r name log; do
    [ -n "$name" ] || continue
    for t in $(counts); do
        out=$("$bench" "$name" "$log" "$t" 1) || {
            echo "FAIL $name T=$t: bench_threads failed"
            exit 1
        }
        # the two run lines: "... CPU x s (calling ...) wall y s ... N
        # values ... digest D  ran R"
        echo "$out" | awk -v name="$name" -v t="$t" -v slack="$slack" '
            / thread[s ]  CPU / {
                for (i = 1; i <= NF; i++) {
                    if ($i == "CPU") cpu = $(i + 1)
                    if ($i == "wall") wall = $(i + 1)
                    if ($i == "values" || $i == "values,") vals = $(i - 1)
                    if ($i == "digest") dig = $(i + 1)
                    if ($i == "ran") ran = $(i + 1)
                }
                if ($2 == 1) { c1 = cpu; w1 = wall; d1 = dig }
                else { ct = cpu; wt = wall; dt = dig; rt = ran; n = vals }
            }
            END {
                ok = (wt <= 1.1 * w1 + slack && ct <= 1.3 * c1 + slack)
                printf "%-12s %4d %9.2f %9.2f %8.2f %8.2f %7.2fx %12.3g %4d %s%s\n",
                    name, t, w1, wt, c1, ct, (wt > 0 ? w1 / wt : 0),
                    (wt > 0 ? n / wt : 0), rt,
                    (d1 == dt ? "same" : "DIFFER"),
                    (ok ? "" : "  FAIL: over 1.1x wall or 1.3x CPU + slack")
                exit (d1 == dt && ok) ? 0 : 1
            }' || bad=1
        [ "$bad" -eq 0 ] || { echo "bench_scale.sh: a row broke the bound"; exit 1; }
    done
done
