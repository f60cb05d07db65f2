#!/bin/sh
# wythoff.sh -- the Wythoff commands of the CLI: pair, pair --index-of,
# grundy --game wythoff, and analyze/table on Wythoff games.
# Usage: sh wythoff.sh PATH-TO-bouton
set -u
B=${1:?usage: sh wythoff.sh PATH-TO-bouton}
fails=0
# the command, shortened for messages (some arguments are huge)
cmd() { echo "$*" | cut -c1-160; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# expect WANT CMD...: stdout must be exactly WANT, exit status 0
expect() {
    want=$1
    shift
    got=$("$@" 2>"$tmp/err")
    rc=$?
    if [ "$rc" -ne 0 ] || [ "$got" != "$want" ]; then
        echo "FAIL: $(cmd "$@")"
        echo "  want: $want"
        echo "  got:  $(echo "$got" | cut -c1-160) (exit $rc)"
        cat "$tmp/err"
        fails=$((fails + 1))
    fi
}

# contains NEEDLE CMD...: stdout must contain NEEDLE, exit status 0
contains() {
    needle=$1
    shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 0 ] || ! grep -qF -- "$needle" "$tmp/out"; then
        echo "FAIL: $(cmd "$@") (exit $rc): no '$needle'"
        head -c 300 "$tmp/out"
        echo
        cut -c1-300 "$tmp/err"
        fails=$((fails + 1))
    fi
}

# bad CMD...: exit status 2, nothing on stdout, one line on stderr
bad() {
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -ne 2 ] || [ -s "$tmp/out" ] || [ "$lines" -ne 1 ]; then
        echo "FAIL: $(cmd "$@") should fail with exit 2 and one error line"
        echo "  exit $rc, stderr:"
        cat "$tmp/err"
        fails=$((fails + 1))
    fi
}

# --- pair: Wythoff's table (1907, sec. 5) and its generalisations
expect 'pair 0: (0, 0)' "$B" pair 0
expect 'pair 3: (4, 7)' "$B" pair 3
expect 'pair 15: (24, 39)' "$B" pair --game wythoff 15
expect '{"game":"wythoff","misere":false,"n":"3","pair":["4","7"]}' \
    "$B" pair --json 3
expect '{"game":"wythoff:2","misere":false,"n":"5","pair":["7","17"]}' \
    "$B" pair --game wythoff:2 --json 5
expect '{"game":"wythoff:2","misere":true,"n":"0","pair":["0","1"]}' \
    "$B" pair --game wythoff:2 --misere --json 0
expect '{"game":"wythoff:2","misere":true,"n":"1","pair":["2","5"]}' \
    "$B" pair --game wythoff:2 --misere --json 1
expect '{"game":"wythoff","misere":true,"n":"1","pair":["2","2"]}' \
    "$B" pair --misere --json 1
expect '{"game":"wythoff","misere":true,"n":"2","pair":["3","5"]}' \
    "$B" pair --misere --json 2
# the 10^20-th pair: floor(10^20 phi) = 161803398874989484820
want='{"game":"wythoff","misere":false,"n":"100000000000000000000",'
want=$want'"pair":["161803398874989484820","261803398874989484820"]}'
expect "$want" "$B" pair --json 100000000000000000000

# --- pair --index-of: complementary Beatty sequences
expect '{"x":"7","n":"3","member":"upper","pair":["4","7"]}' \
    "$B" pair --index-of 7 --json
expect '{"x":"4","n":"3","member":"lower","pair":["4","7"]}' \
    "$B" pair --index-of 4 --json
expect '{"x":"0","n":"0","member":"lower","pair":["0","0"]}' \
    "$B" pair --index-of 0 --json
expect '{"x":"1","n":"0","member":"upper","pair":["0","1"]}' \
    "$B" pair --index-of 1 --misere --json
expect '{"x":"17","n":"5","member":"upper","pair":["7","17"]}' \
    "$B" pair --game wythoff:2 --index-of 17 --json
expect '7 is the upper member of pair 3: (4, 7)' "$B" pair --index-of 7
expect '2 is the lower member of pair 1: (2, 2)' \
    "$B" pair --index-of 2 --misere

# a 100000-digit index answers
big=$(head -c 100000 /dev/zero | tr '\0' '7')
contains '"n":"7777777777' "$B" pair --json "$big"
contains '"member":"' "$B" pair --game wythoff:3 --index-of "$big" --json

# --- bad input: one line, exit 2
bad "$B" pair --game wythoff:0 3
bad "$B" pair --game wythoff:1.5 3
bad "$B" pair --game wythoff: 3
bad "$B" pair --game wythoff:-2 3
bad "$B" pair --game nim 3
bad "$B" pair 1.5
bad "$B" pair -- -1
bad "$B" pair
bad "$B" pair 3 4
bad "$B" pair --index-of x
bad "$B" pair --max-digits 3 1000
bad "$B" pair --index-of 1000 --max-digits 3
bad "$B" analyze --game wythoff 1 2 3
bad "$B" analyze --game wythoff:0 1 2
bad "$B" grundy --game wythoff --below 20000
bad "$B" grundy --game wythoff:3 --below 6000
bad "$B" grundy --game wythoff --below 100 --max-grundy 50
bad "$B" grundy --game wythoff --below x

# --- grundy: the table of Sprague-Grundy values
expect '0 1 2 3 4 5
1 2 0 4 5 3
2 0 1 5 3 4
3 4 5 6 2 0
4 5 3 2 7 6
5 3 4 0 6 8' "$B" grundy --game wythoff --below 6
expect '{"game":"wythoff","below":3,"rows":[[0,1,2],[1,2,0],[2,0,1]]}' \
    "$B" grundy --game wythoff --below 3 --json
expect '{"game":"wythoff:2","below":3,"rows":[[0,1,2],[1,2,3],[2,3,4]]}' \
    "$B" grundy --game wythoff:2 --below 3 --json

# --- analyze: the same JSON contract as Nim
contains '"outcome":"P"' "$B" analyze --game wythoff:2 --json 4 10
contains '"grundy":"0"' "$B" analyze --game wythoff:2 --json 4 10
contains '"to":["3","5"]' "$B" analyze --game wythoff --json 3 7
contains 'take 2 from pile 2' "$B" analyze --game wythoff 3 7
contains 'take 1 from both piles' "$B" analyze --game wythoff 4 6
contains 'take 2 from pile 1 and 3 from pile 2' \
    "$B" analyze --game wythoff:2 3 6
contains '"outcome":"P"' "$B" analyze --game wythoff --misere --json 2 2
contains '"to":["0","1"]' "$B" analyze --game wythoff --misere --json 1 2
contains 'safe pair 3 = (4, 7)' "$B" analyze --game wythoff --explain 4 9
# two huge piles: outcome and winning moves from the closed form
contains '"outcome":"N"' "$B" analyze --game wythoff --json "$big" "${big}1"
contains '"outcome":"P"' "$B" analyze --game wythoff --json \
    161803398874989484820 261803398874989484820

# --- table: the P-positions, streamed
expect '0 0
1 2
3 5
4 7
6 10' "$B" table --game wythoff --below 11
expect '0 1
2 2
3 5
4 7' "$B" table --game wythoff --misere --below 8

if [ "$fails" -ne 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "wythoff.sh: all passed"
