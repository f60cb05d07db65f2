#!/bin/sh
# Runs the quick unit tests of build directory $1 under valgrind's memcheck;
# any error or leak fails.  (The build uses DWARF 4, which valgrind reads.)
# BT_TEST_LIGHT=1 lets the tests whose exhaustive parts take minutes under
# valgrind check a smaller range (bt_test_light() in tests/support).
set -eu
build=${1:-build}
if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind.sh: valgrind is missing (scripts/deps.sh test installs it)" >&2
    exit 1
fi
tests=$(cd "$build" && ctest -N -L quick | sed -n 's/^ *Test *#[0-9]*: \(test_[A-Za-z0-9_]*\)$/\1/p')
[ -n "$tests" ] || { echo "valgrind.sh: no unit tests found in $build" >&2; exit 1; }
# Two or more tests at a time (JOBS, default the number of cores): each is
# one process, and memcheck runs one thread at a time within it.  The
# longest ones first (CTest's record of their cost, when there is one), so
# that the last to finish is a short one.
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
cost="$build/Testing/Temporary/CTestCostData.txt"
if [ -f "$cost" ]; then
    tests=$(for t in $tests; do
        c=$(awk -v t="$t" '$1 == t { print $3 }' "$cost")
        echo "${c:-0} $t"
    done | sort -rn | awk '{ print $2 }')
fi
rm -f "$build"/valgrind-*.rc
for t in $tests; do
    exe=$(find "$build/tests" -maxdepth 1 -type f -name "$t" | head -n 1)
    [ -n "$exe" ] && echo "$exe"
done | xargs -P "$jobs" -I EXE sh -c '
    t=$(basename "EXE")
    BT_TEST_LIGHT=1 valgrind -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect "EXE" \
        >"$1/valgrind-$t.log" 2>&1
    echo $? >"$1/valgrind-$t.rc"' sh "$build"
passed=0
failed=0
for t in $tests; do
    [ -f "$build/valgrind-$t.rc" ] || continue
    if [ "$(cat "$build/valgrind-$t.rc")" = 0 ]; then
        passed=$((passed + 1))
    else
        echo "valgrind: $t failed; see $build/valgrind-$t.log" >&2
        tail -n 30 "$build/valgrind-$t.log" >&2
        failed=$((failed + 1))
    fi
    rm -f "$build/valgrind-$t.rc"
done
echo "valgrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
