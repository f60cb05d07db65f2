#!/bin/sh
# CLI tests of `bouton analyze` and `bouton table`: output, JSON, exit codes
# and bad input.  Usage: sh analyze.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

check json-345 0 '{"game":"nim","misere":false,"position":["3","4","5"],"outcome":"N","grundy":"2","winning_moves":[{"component":1,"to":["1"],"text":"take 2 from pile 1"}],"remoteness":"11"}' \
    -- analyze --json 3 4 5
# the issue's example order: options after the piles work too
check json-after 0 '{"game":"nim","misere":false,"position":["9","5","12"],"outcome":"P","grundy":"0","winning_moves":[],"remoteness":"26"}' \
    -- analyze 9 5 12 --json
check game-nim 0 '{"game":"nim","misere":false,"position":["1","2","3"],"outcome":"P","grundy":"0","winning_moves":[],"remoteness":"6"}' \
    -- analyze --game nim --json 1 2 3
check misere-111 0 '{"game":"nim","misere":true,"position":["1","1","1"],"outcome":"P","winning_moves":[],"remoteness":"3"}' \
    -- analyze --misere --json 1 1 1
check misere-110 0 '{"game":"nim","misere":true,"position":["1","1","0"],"outcome":"N","winning_moves":[{"component":1,"to":["0"],"text":"take 1 from pile 1"},{"component":2,"to":["0"],"text":"take 1 from pile 2"}],"remoteness":"2"}' \
    -- analyze --misere --json 1 1 0
check empty 0 '{"game":"nim","misere":false,"position":[],"outcome":"P","grundy":"0","winning_moves":[],"remoteness":"0"}' \
    -- analyze --json
check empty-misere 0 '{"game":"nim","misere":true,"position":[],"outcome":"N","winning_moves":[],"remoteness":"0"}' \
    -- analyze --misere --json
check human 0 'position: nim 7 5 12
outcome:  N (the next player wins)
grundy:   14
remoteness: 15 (the next player wins in 15 moves under best play)
winning moves (1):
  take 10 from pile 3' -- analyze 7 5 12
big=1$(printf '%0300d' 0)
zeros=$(printf "%0300d" 0)
check huge 0 "{\"game\":\"nim\",\"misere\":false,\"position\":[\"$big\",\"$big\"],\"outcome\":\"P\",\"grundy\":\"0\",\"winning_moves\":[],\"remoteness\":\"2$zeros\"}" \
    -- analyze --json "$big" "$big"
printf '9 5 12\n' | "$B" analyze --json - >"$tmp/stdin.out" 2>&1
if grep -q '"outcome":"P"' "$tmp/stdin.out"; then pass=$((pass + 1)); else
    echo "FAIL stdin: $(cat "$tmp/stdin.out")"; fail=$((fail + 1)); fi
"$B" analyze --explain 9 5 12 | grep -q 'column sums   2202' &&
    pass=$((pass + 1)) || { echo "FAIL explain columns"; fail=$((fail + 1)); }

# Moore's Nim with more winning moves than max_search lets list (C(40, 8)
# in misère play, each counting its 40 piles: 50 listed): misère play
# answers as normal play does (it failed, exit 2): the outcome by Moore's
# misère rule, the moves found, and the note of the limit that stopped
# them, the same in the text and in --json; under 0.1 s of CPU each
ones=$(awk 'BEGIN { for (i = 0; i < 40; i++) printf " 1" }')
note='a moore:30 position has more winning moves than the max_search limit lets list (2000: a move counts the 64-bit words of its piles, 40 here); the winning moves listed are those found before the limit'
for play in "" --misere; do
    "$B" analyze $play --max-search 2000 "moore:30$ones" >"$tmp/text" 2>&1
    rc=$?
    "$B" analyze $play --json --max-search 2000 "moore:30$ones" \
        >"$tmp/json" 2>&1
    rc=$rc$?
    if [ "$rc" = 00 ] && grep -qx 'outcome:  N (the next player wins)' "$tmp/text" &&
        grep -qx 'winning moves (50):' "$tmp/text" &&
        grep -qxF "  ... and more: $note" "$tmp/text" &&
        grep -qF '"outcome":"N"' "$tmp/json" &&
        [ "$(grep -o '"component":1,' "$tmp/json" | wc -l)" -eq 50 ] &&
        grep -qF "\"winning_moves_complete\":false,\"winning_moves_note\":\"$note\"" "$tmp/json"
    then
        pass=$((pass + 1))
    else
        echo "FAIL moore-incomplete$play: status $rc"
        grep -v '^  take' "$tmp/text" | head -5
        fail=$((fail + 1))
    fi
done

check table-3 0 '0 0 0
0 1 1
0 2 2
0 3 3
1 2 3' -- table --piles 3 --below 4
check table-json 0 '["1","2","3"]' -- table --json --piles 3 --min 1 --below 4
check table-misere-1 0 '1' -- table --misere --piles 1 --below 5
# Moore's Nim: one component of 3 piles a row; moore:2 with piles below 4:
# each column of the three piles all 0 or all 1; in misère play the piles
# of 0 and 1 hold one 1 (1 mod 3)
check table-moore 0 '0 0 0
1 1 1
2 2 2
3 3 3' -- table --game moore:2 --piles 3 --below 4
check table-moore-misere 0 '0 0 1
2 2 2
3 3 3' -- table --game moore:2 --misere --piles 3 --below 4
[ "$("$B" table --piles 3 --min 1 --below 16 | wc -l)" -eq 35 ] &&
    pass=$((pass + 1)) || { echo "FAIL Bouton's 35"; fail=$((fail + 1)); }

# tables of other games: G(x1) xor G(x2) = 0 (Kayles: 0 1 2 3 1 4 ...)
check table-kayles 0 '["0","0"]
["1","1"]
["1","4"]
["2","2"]
["3","3"]
["4","4"]
["5","5"]' -- table --game kayles --piles 2 --below 6 --json
check table-sub 0 '0 0 0
0 0 4
0 1 1
0 1 5
0 2 2
0 3 3
0 4 4
0 5 5
1 1 4
1 2 3
1 4 5
2 2 4
2 3 5
3 3 4
4 4 4
4 5 5' -- table --game sub:1-3 --piles 3 --below 6
check table-kayles-misere 0 '0 1
0 4
1 5
2 2
3 3
4 5' -- table --game kayles --misere --piles 2 --below 6
check table-wythoff 0 '0 0
1 2
3 5
4 7
6 10
8 13' -- table --game wythoff --below 15

# random starts (play --random): 1 - P/(15^3), the P count from the essay's
# ordered counting (210 safe tuples of three piles in 1..15)
check random-starts 0 '{"game":"nim","misere":false,"piles":3,"max":"15","starts":"3375","first_player_wins":"3165","probability":"211/225"}' \
    -- analyze --random-starts --json
check random-starts-1 0 '{"game":"nim","misere":true,"piles":1,"max":"4","starts":"4","first_player_wins":"3","probability":"3/4"}' \
    -- analyze --random-starts --misere --json --piles 1 --max 4
bad random-starts-pos 'takes no position' -- analyze --random-starts 3 4
bad random-starts-game 'Nim positions only' -- analyze --random-starts --game kayles
bad piles-alone 'go with' -- analyze --piles 3 1 2

bad negative 'negative' -- analyze 3 -4 5
bad not-a-number 'not a non-negative integer' -- analyze 3 four 5
bad fraction 'not a non-negative integer' -- analyze 3 4.5
bad unknown-option 'unknown option' -- analyze --frobnicate 3
bad unknown-game 'unknown game' -- analyze --game chess 3
bad too-many-digits 'max_digits' -- analyze --max-digits 5 123456
bad too-many-piles 'max_components' -- analyze --max-piles 2 1 2 3
bad below-0 'below' -- table --piles 3 --below 0
bad below-missing 'below' -- table --piles 3
bad piles-huge 'piles' -- table --piles 99999999999999999999 --below 3
bad below-neg 'negative' -- table --piles 2 --below -3
bad unknown-command 'unknown command' -- frobnicate
bad limit-value 'max-digits' -- analyze --max-digits x 3

"$B" --version | grep -q '^bouton [0-9]' && pass=$((pass + 1)) ||
    { echo "FAIL --version"; fail=$((fail + 1)); }
for c in analyze table; do
    "$B" $c --help | grep -q usage && pass=$((pass + 1)) ||
        { echo "FAIL $c --help"; fail=$((fail + 1)); }
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
