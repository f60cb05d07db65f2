# Shared by the CLI test scripts: `. lib/check.sh` after setting B (the
# program under test).  Counts in pass and fail; the script ends with
#   echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check NAME EXPECTED-STATUS EXPECTED-STDOUT -- ARGS...
check() {
    name=$1 want_rc=$2 want_out=$3
    shift 4
    "$B" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    out=$(cat "$tmp/out")
    if [ "$rc" -ne "$want_rc" ] || [ "$out" != "$want_out" ] ||
        [ -s "$tmp/err" ]; then
        echo "FAIL $name: status $rc (want $want_rc)"
        echo "  got:  $out"
        echo "  want: $want_out"
        sed 's/^/  stderr: /' "$tmp/err"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

# bad NAME PATTERN -- ARGS...: exit 2 within 60 s (input from /dev/null, so
# that nothing waits on a terminal or a FIFO), nothing on stdout, one
# stderr line that matches PATTERN
bad() {
    name=$1 pattern=$2
    shift 3
    timeout 60 "$B" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -ne 2 ] || [ -s "$tmp/out" ] || [ "$lines" -ne 1 ] ||
        ! grep -q -- "$pattern" "$tmp/err"; then
        echo "FAIL $name: status $rc, $lines stderr lines (want 2, 1)"
        sed 's/^/  stderr: /' "$tmp/err"
        sed 's/^/  stdout: /' "$tmp/out"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}
