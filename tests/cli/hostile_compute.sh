#!/bin/sh
# CLI (and one server) tests of computations whose work grows with their
# input (issue 26): every one ends within its limits, in CPU time bounded
# by what the answer needs, with exit 0 or the limit's exit 2 and one line;
# none runs on for ever or takes the process down.
#   - Period detection of Grundy sequences is linear (it was O(n^2) on
#     values in long runs), and the server answers such a request and
#     still stops on SIGTERM.
#   - A misère quotient "until proved" where no theorem applies is refused
#     at once (it used to compute for hours first).
#   - A saved quotient that claims a period is checked up to the bound
#     that proves it, not up to the bound it states (100 000 heaps ran out
#     of memory under 4 GB); a forged one is refused at the first bound
#     (64, 128, ...) whose check shows it.
# Each case gives its CPU time now; the wall limits are ten times that or
# more, so that a loaded machine (or an ASan build) stays green.  About
# 3 s of CPU in all.
# Usage: sh hostile_compute.sh PATH-TO-bouton
set -u
B=$1
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
. "$(dirname "$0")/lib/check.sh"

vlimit=""
if sh -c 'ulimit -v 4000000 && exec "$0" --version' "$B" >/dev/null 2>&1; then
    vlimit=4000000
fi

# within NAME STATUS SECONDS PATTERN -- ARGS...: exits STATUS within
# SECONDS of wall time (under ulimit -v when the build allows it), and its
# output (stdout, then stderr) matches the grep pattern PATTERN
within() {
    name=$1 want=$2 secs=$3 pattern=$4
    shift 5
    (
        [ -z "$vlimit" ] || ulimit -v "$vlimit"
        exec timeout "$secs" "$B" "$@"
    ) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne "$want" ] ||
        ! cat "$tmp/out" "$tmp/err" | grep -q -- "$pattern"; then
        echo "FAIL $name: status $rc (want $want within $secs s)"
        sed 's/^/  stdout: /' "$tmp/out" | tail -n 3
        sed 's/^/  stderr: /' "$tmp/err" | head -n 3
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

# sub:1000000,2000001,4000003 has runs of a million equal values: 3.5
# million values and their period detection take 0.3 s of CPU (they ran
# past 100 s, the detection never polling); to the max_grundy limit of
# 2^26 values, 6 s.
within grundy-runs 0 60 'not proved within 3500000 values (--limit)' -- \
    grundy --game sub:1000000,2000001,4000003 --until-proved --limit 3500000 \
    --no-values

# Nim and Grundy's game: no periodicity theorem, refused at once (0.0 s;
# Nim's ran for hours to its bound of 1000 heaps before saying so)
within nim-until 2 20 'not proved periodic by any bound' -- \
    quotient --game nim --until-proved
within grundy-until 2 20 'not proved periodic by any bound' -- \
    quotient --game grundy --until-proved --upto 5000

# 0.75's quotient, proved from 23 heaps (period 2 from 8), extended along
# its period to 100 000 heaps: checked up to 23 and loaded in 0.0 s of CPU
# and 10 MB (20 000 heaps took 1.6 GB; 100 000 ran out of memory under
# 4 GB); a heap past 23 that breaks the period is refused
"$B" quotient --game octal:0.75 --until-proved --save "$tmp/q75" >/dev/null
# extend FILE UPTO BAD: FILE's heaps extended along period 2 to UPTO,
# heap BAD (0: none) set to element 0
extend() {
    awk -v upto="$2" -v bad="$3" '
        /^upto / { print "upto " upto; next }
        /^heaps / {
            n = split($0, f, " ")
            line = "heaps"
            for (i = 0; i <= upto; i++) {
                v = i + 2 < n ? f[i + 2] : v2[i % 2]
                if (i == bad && bad > 0) v = 0
                v2[i % 2] = v
                line = line " " v
            }
            print line
            next
        }
        { print }' "$1"
}
extend "$tmp/q75" 100000 0 >"$tmp/q75x"
extend "$tmp/q75" 100000 77777 >"$tmp/q75bad"
within load-extended 0 20 'proved from the heaps up to 100000' -- \
    quotient --load "$tmp/q75x"
within load-extended-bad 2 20 'heap 77777 is element 0' -- \
    quotient --load "$tmp/q75bad"
sed 's/^period 2 8$/period none/' "$tmp/q75x" >"$tmp/q75none"
within load-extended-none 2 20 'proved periodic with period 2 and preperiod 8' -- \
    quotient --load "$tmp/q75none"

# A forged quotient of Grundy's game (no theorem: checked to its bound)
# over 100 000 heaps: refused by the check of the heaps up to 64, in 0.0 s
# (the whole check takes the heaps' 2.5 10^9 splits: 23 s of CPU, and
# before it kept them all, out of memory)
awk 'BEGIN { printf "bouton-quotient 1\ngame grundy\nupto 100000\norder 2\n"
    printf "period none\np 1\nheaps 0 0 0"
    for (i = 3; i <= 100000; i++) printf " 1"
    printf "\ntable\n0 1\n1 0\nend\n" }' >"$tmp/forged"
within load-forged 2 20 'heaps of at most 64 counters whose outcome' -- \
    quotient --load "$tmp/forged"

# The server (when built with it): the same Grundy request answers within
# its time budget (0.8 s of CPU to its 2^22 values), the compute thread
# free again, and SIGTERM stops it
if "$B" serve --help >/dev/null 2>&1 && command -v curl >/dev/null 2>&1; then
    "$B" serve --host 127.0.0.1 --port 0 --time-budget 2000 \
        >"$tmp/srv" 2>"$tmp/srvlog" &
    pid=$!
    url=""
    i=0
    while [ -z "$url" ] && [ $i -lt 100 ]; do
        url=$(sed -n 's/.*serving \(http:[^ ]*\).*/\1/p' "$tmp/srv")
        [ -n "$url" ] || sleep 0.1
        i=$((i + 1))
    done
    if [ -z "$url" ]; then
        echo "FAIL serve: did not start: $(cat "$tmp/srvlog")"
        fail=$((fail + 1))
    else
        for body in '{"game":"sub:1000000,2000001,4000003","until_proved":true,"no_values":true}' \
            '{"game":"kayles","upto":20}'; do
            status=$(curl -s -m 60 -o "$tmp/body" -w '%{http_code}' -X POST \
                -H 'Content-Type: application/json' --data-binary "$body" \
                "${url}v1/grundy")
            case $status in
            200 | 422) pass=$((pass + 1)) ;;
            *) echo "FAIL serve $body: status $status: $(cat "$tmp/body" 2>/dev/null)"
               fail=$((fail + 1)) ;;
            esac
        done
        kill -TERM "$pid"
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt 200 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        if kill -0 "$pid" 2>/dev/null; then
            echo "FAIL serve: no exit within 20 s of SIGTERM"
            kill -KILL "$pid"
            fail=$((fail + 1))
        else
            pass=$((pass + 1))
        fi
        wait "$pid" 2>/dev/null
    fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
