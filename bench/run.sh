#!/bin/sh
# Runs every benchmark of build directory $1 (default build) in turn.
set -eu
build=${1:-build}
for b in "$build"/bench/bench_*; do
    [ -x "$b" ] || continue
    echo "== $(basename "$b")"
    "$b"
done
for s in bench/bench_*.sh; do
    [ -f "$s" ] || continue
    echo "== $(basename "$s")"
    sh "$s" "$build/bouton"
done
