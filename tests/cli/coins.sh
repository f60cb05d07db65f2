#!/bin/sh
# CLI tests of the coin-turning games (turtles, mock-turtles, ruler, twins):
# a position lists the coins showing heads; values and winning moves by
# the heads' values (docs/coins.md); bad coins refused with exit 2.
# Usage: sh coins.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

# Mock Turtles 1 4 7: heads worth 2, 8, 14 (odious numbers from 0), nim-sum
# 4; the top 7 goes with a pair of value 10 (l ^ m = 5): {0,5}, {1,4}, {3,6}
check mock-turtles 0 '{"game":"mock-turtles","misere":false,"position":["1","4","7"],"outcome":"N","grundy":"4","components":[{"game":"mock-turtles","position":["1","4","7"],"grundy":"4"}],"winning_moves":[{"component":1,"to":[],"text":"turn coin 7 to tails and coins 1, 4 over"},{"component":1,"to":["0","1","4","5"],"text":"turn coin 7 to tails and coins 0, 5 over"},{"component":1,"to":["1","3","4","6"],"text":"turn coin 7 to tails and coins 3, 6 over"}],"remoteness":"1"}' \
    -- analyze --json "mock-turtles 1 4 7"
# Turning Turtles is Nim: 1 ^ 4 ^ 7 = 2, and 7 goes to 7 ^ 2 = 5
check turtles 0 'position: turtles 1 4 7
outcome:  N (the next player wins)
grundy:   2
remoteness: 5 (the next player wins in 5 moves under best play)
winning moves (1):
  turn coin 7 to tails and coin 5 over' -- analyze "turtles 1 4 7"
check turtles-p 0 '{"game":"turtles","misere":false,"position":["3","5","6"],"outcome":"P","grundy":"0","components":[{"game":"turtles","position":["3","5","6"],"grundy":"0"}],"winning_moves":[],"remoteness":"8"}' \
    -- analyze --json "turtles 3 5 6"
# Ruler 1..6: values 1 2 1 4 1 2, nim-sum 5; a run's value is
# gray(top) ^ gray(first - 1)
check ruler 0 '{"game":"ruler","misere":false,"position":["1","2","3","4","5","6"],"outcome":"N","grundy":"5","components":[{"game":"ruler","position":["1","2","3","4","5","6"],"grundy":"5"}],"winning_moves":[{"component":1,"to":["1","2","5","6"],"text":"turn coin 4 to tails and coin 3 over"},{"component":1,"to":["1","2","3","6"],"text":"turn coin 5 to tails and coin 4 over"},{"component":1,"to":[],"text":"turn coin 6 to tails and the coins 1 to 5 over (6 coins)"}],"remoteness":"1"}' \
    -- analyze --json "ruler 1 2 3 4 5 6"
check twins-move 0 'turn coin 5 to tails and coin 3 over
leaves: twins 0' -- move "twins 0 3 5"
# a huge coin: Turning Turtles 1 and 10^40, worth 10^40 ^ 1 = 10^40 + 1:
# turning both over wins
big=1$(printf '%040d' 0)
check turtles-huge 0 "{\"game\":\"turtles\",\"misere\":false,\"position\":[\"1\",\"$big\"],\"outcome\":\"N\",\"grundy\":\"1$(printf '%039d' 0)1\",\"components\":[{\"game\":\"turtles\",\"position\":[\"1\",\"$big\"],\"grundy\":\"1$(printf '%039d' 0)1\"}],\"winning_moves\":[{\"component\":1,\"to\":[],\"text\":\"turn coin $big to tails and coin 1 over\"}],\"remoteness\":null,\"remoteness_reason\":\"a position of the game graph has more than 100000 moves (the remoteness budget)\"}" \
    -- analyze --json "turtles 1 $big"
"$B" analyze --explain "mock-turtles 1 4 7" >"$tmp/explain" 2>&1
if grep -q '^  head 4  value 8$' "$tmp/explain" &&
    grep -q '^nim-sum of the values: 4$' "$tmp/explain"; then
    pass=$((pass + 1))
else
    echo "FAIL explain: $(cat "$tmp/explain")"
    fail=$((fail + 1))
fi

# The remoteness of these boards is not computed within its budgets, and
# which budget runs out first (the positions of the graph, or CPU time)
# depends on the machine: the checks of values and moves leave it out
# (--no-remoteness), and one check below says only that it was not.
# Turning Corners: 3 (x) 5 = 15, 6 (x) 2 = 11 (Conway's nim-products),
# nim-sum 4; the rectangle (2,1)-(3,5) is worth (3 ^ 2) (x) (5 ^ 1) = 1 (x) 4
check corners 0 '{"game":"corners","misere":false,"position":["3","5","6","2"],"outcome":"N","grundy":"4","components":[{"game":"corners","position":["3","5","6","2"],"grundy":"4"}],"winning_moves":[{"component":1,"to":["2","1","2","5","3","1","6","2"],"text":"turn coin (3,5) to tails and coins (2,1), (2,5), (3,1) over"}]}' \
    -- analyze --json --no-remoteness "corners 3,5 6,2"
check corners-move 0 'turn coin (2,3) to tails and coins (0,2), (0,3), (2,2) over
leaves: corners 0,2 0,3 1,1 2,2' -- move "corners 1,1 2,3"
# Tartan: turtles 2 (x) ruler 3 = 2 (x) 1 = 2, turtles 4 (x) ruler 4 =
# 4 (x) 4 = 6; nim-sum 4
check tartan 0 'position: tartan:turtles*ruler 2,3 4,4
outcome:  N (the next player wins)
grundy:   4
winning moves (1):
  turn coin (4,4) to tails and the other 5 coins of {3, 4} x {2, 3, 4} over' \
    -- analyze --no-remoteness "tartan:turtles*ruler 2,3 4,4"
"$B" analyze "tartan:turtles*ruler 2,3 4,4" >"$tmp/remote" 2>&1
if grep -q '^remoteness: not computed (.*budget' "$tmp/remote"; then
    pass=$((pass + 1))
else
    echo "FAIL tartan-remoteness: no reason given: $(cat "$tmp/remote")"
    fail=$((fail + 1))
fi
"$B" analyze --explain "corners 3,5 6,2" >"$tmp/explain2" 2>&1
if grep -q '^  head (3,5)  3 (x) 5 = 15$' "$tmp/explain2"; then
    pass=$((pass + 1))
else
    echo "FAIL explain corners: $(cat "$tmp/explain2")"
    fail=$((fail + 1))
fi

bad twice 'coin 2 is listed twice' -- analyze "twins 2 2"
bad coin-zero 'coin 0 does not exist (coins are numbered from 1)' -- analyze "ruler 0"
bad params 'turtles takes no parameters' -- analyze "turtles:2 1"
bad corners-odd 'a coin is two numbers' -- analyze "corners 1,2 3"
bad tartan-game "'chess' is not a coin game" -- analyze "tartan:chess*ruler 1,1"
bad tartan-none 'tartan needs two coin games' -- analyze "tartan 1,1"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
