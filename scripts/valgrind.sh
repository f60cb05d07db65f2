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
passed=0
failed=0
for t in $tests; do
    exe=$(find "$build/tests" -maxdepth 1 -type f -name "$t" | head -n 1)
    [ -n "$exe" ] || continue
    if BT_TEST_LIGHT=1 valgrind -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect "$exe" >"$build/valgrind-$t.log" 2>&1; then
        passed=$((passed + 1))
    else
        echo "valgrind: $t failed; see $build/valgrind-$t.log" >&2
        tail -n 30 "$build/valgrind-$t.log" >&2
        failed=$((failed + 1))
    fi
done
echo "valgrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
