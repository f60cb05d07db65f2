#!/bin/sh
# The CPU seconds (user + system, children included) of each test of build
# directory $1 whose labels match $2 (a ctest -L regex; default: all), one
# test at a time, longest last: the figures of tests/README.md's table.
# BT_TEST_LIGHT and the like pass through the environment.
set -eu
build=${1:-build}
labels=${2:-.}
command -v /usr/bin/time >/dev/null 2>&1 || {
    echo "test-cpu.sh: needs /usr/bin/time (Debian's package time)" >&2
    exit 1
}
tests=$(cd "$build" && ctest -N -L "$labels" |
        sed -n 's/^ *Test *#[0-9]*: \([A-Za-z0-9_]*\)$/\1/p')
for t in $tests; do
    # a failing test still has its figure (time's last line)
    cpu=$(cd "$build" && { /usr/bin/time -f '%U %S' ctest -R "^$t\$" \
          2>&1 >/dev/null || true; } | tail -n 1 |
          awk '{ printf "%.1f", $1 + $2 }') || cpu="?"
    echo "$cpu $t"
done | sort -n
