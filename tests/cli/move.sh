#!/bin/sh
# CLI tests of `bouton move` at every size (issue 9: the computer never
# stalls) and of the remoteness fields of `bouton analyze --json` (issue 10:
# a decimal string, or null with the reason).  Usage: sh move.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

# has NAME PATTERN -- ARGS...: exit 0, stdout contains PATTERN, no stderr
has() {
    name=$1 pat=$2
    shift 3
    "$B" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 0 ] || ! grep -q -F -- "$pat" "$tmp/out" ||
        [ -s "$tmp/err" ]; then
        echo "FAIL $name: status $rc; want '$pat' in:"
        head -c 400 "$tmp/out"
        sed 's/^/  stderr: /' "$tmp/err"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

# the positions the computer could not move from before
has kayles-40 '"outcome":"N","rule":"proxy"' -- move --json --game kayles 40
has kayles-14-13-12 '"outcome":"N"' -- move --json --game kayles 14 13 12
has kayles-1e12 '"outcome":"N"' -- move --json --game kayles 1000000000000
has grundy-4-8-59 '"outcome":"N"' -- move --json --game grundys-game 4 8 59
has grundy-1e4 '"outcome":"N"' -- move --json --game grundys-game 10000
has kayles-pair-1e12 '"outcome":"P","rule":"proxy"' -- \
    move --json --game kayles 1000000000000 1000000000000
# the move leaves a P-position (checked by the analysis of what it leaves)
"$B" move --game kayles 1000000000000 >"$tmp/mv" 2>&1
left=$(sed -n 's/^leaves: //p' "$tmp/mv")
has kayles-1e12-wins 'outcome:  P' -- analyze "$left"
"$B" move --game grundys-game 4 8 59 >"$tmp/mv" 2>&1
left=$(sed -n 's/^leaves: //p' "$tmp/mv")
has grundy-4-8-59-wins 'outcome:  P' -- analyze "$left"

# a sum of 100 components of mixed games
sum=$(awk 'BEGIN { g[0] = "kayles"; g[1] = "grundys-game"; g[2] = "nim";
    g[3] = "sub:1-3"; g[4] = "dawsons-kayles"; g[5] = "octal:0.137";
    for (i = 0; i < 100; i++)
        printf "%s%s %d", (i ? " + " : ""), g[i % 6], 7 + (i * 37) % 53 }')
has sum-100 '"rule":' -- move --json "$sum"

# Nim of 10^5 piles, and 20 001 piles of 1 (quadratic before)
awk 'BEGIN { x = 1; for (i = 0; i < 100000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648; printf "%d ", 1 + x % 1000000 }
    print "" }' >"$tmp/nim"
"$B" move --json - <"$tmp/nim" >"$tmp/out" 2>&1 && ok=1 || ok=0
if [ "$ok" -eq 1 ] && grep -q '"rule":"remoteness"' "$tmp/out"; then
    pass=$((pass + 1))
else
    echo "FAIL nim-1e5: $(head -c 300 "$tmp/out")"
    fail=$((fail + 1))
fi
awk 'BEGIN { for (i = 0; i < 20001; i++) printf "1 "; print "" }' >"$tmp/ones"
"$B" move - <"$tmp/ones" >"$tmp/out" 2>&1 && ok=1 || ok=0
if [ "$ok" -eq 1 ] && grep -q '^take 1 from pile 1$' "$tmp/out"; then
    pass=$((pass + 1))
else
    echo "FAIL nim-ones: $(head -c 300 "$tmp/out")"
    fail=$((fail + 1))
fi

# misère beyond the exact search: a legal move, the outcome unknown
check misere-heuristic 0 '{"component":2,"to":["2","29426"],"text":"take 1 from heap 2 and split the rest into 2 and 29426","outcome":null,"rule":"heuristic","remoteness_known":false}' \
    -- move --json --misere --game kayles 1 29429 6 2
has misere-heuristic-text 'outcome: unknown' -- \
    move --misere --game kayles 1 29429 6 2
# misère within reach: exact
check misere-exact 0 '{"component":1,"to":["0"],"text":"take 1 from pile 1","outcome":"N","rule":"remoteness","remoteness_known":true}' \
    -- move --json --misere 1 1 0

# remoteness: never silently dropped, a string at any size
has grundy-3000-null '"remoteness":null,"remoteness_reason":"' -- \
    analyze --json --game grundys-game 3000
has grundy-3000-text 'remoteness: not computed (' -- \
    analyze --game grundys-game 3000
has remoteness-2-53 '"remoteness":"18014398509481986"' -- \
    analyze --json 9007199254740993 9007199254740993
has remoteness-2-62 '"remoteness":"9223372036854775808"' -- \
    analyze --json 4611686018427387904 4611686018427387904
has remoteness-small '"remoteness":"6"' -- analyze --json --game wythoff 4 7

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
