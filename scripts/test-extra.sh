#!/bin/sh
# The tests that need more than CTest: the browser tests (Debian's chromium
# driven by playwright-core from npm) and the fuzzer run.  $1: build dir.
set -eu
build=${1:-build}
if [ -f tests/fuzz/run.sh ]; then
    sh tests/fuzz/run.sh
fi
if [ -f tests/browser/run.sh ]; then
    sh tests/browser/run.sh "$build/bouton"
fi
