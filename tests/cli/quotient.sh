#!/bin/sh
# CLI tests of `bouton quotient`: the JSON of issue 13, the text output,
# --table, --until-proved (proved, or refused past its bound), and bad
# input.
# Usage: sh quotient.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

# Misère Nim on heaps up to 3: <a, b | a^2 = 1, b^3 = b>, P = {a, b^2}, as
# Plambeck and Siegel (J. Combin. Theory Ser. A 115, 2008) write it; order
# 6 = 2^2 + 2 (Bouton's sec. 6 rule, checked in tests/unit/test_quotient.c).
check nim-3 0 '{"game":"nim","upto":3,"order":6,"p_portion":2,"tame":true,"generators":[{"name":"a","heap":1},{"name":"b","heap":2}],"relations":["a^2 = 1","b^3 = b"],"heaps":["1","a","b","ab"],"p":["a","b^2"],"period":null,"preperiod":null,"proved":false}' \
    -- quotient --game nim --upto 3 --json
check nim-3-table 0 '{"game":"nim","upto":3,"order":6,"p_portion":2,"tame":true,"generators":[{"name":"a","heap":1},{"name":"b","heap":2}],"relations":["a^2 = 1","b^3 = b"],"heaps":["1","a","b","ab"],"p":["a","b^2"],"period":null,"preperiod":null,"proved":false,"elements":["1","a","b","ab","b^2","ab^2"],"table":[[0,1,2,3,4,5],[1,0,3,2,5,4],[2,3,4,5,2,3],[3,2,5,4,3,2],[4,5,2,3,4,5],[5,4,3,2,5,4]]}' \
    -- quotient --game nim --upto 3 --json --table
# Kayles to 5 (regression; the brute-force agreement is the unit test's)
check kayles-5 0 '{"game":"octal:0.77","upto":5,"order":12,"p_portion":3,"tame":false,"generators":[{"name":"a","heap":1},{"name":"b","heap":2},{"name":"c","heap":5}],"relations":["a^2 = 1","c^2 = 1","b^3 = b"],"heaps":["1","a","b","ab","a","c"],"p":["a","b^2","ac"],"period":null,"preperiod":null,"proved":false}' \
    -- quotient --game kayles --upto 5 --json
out=$("$B" quotient --game kayles --upto 9)
case $out in
*"order 18, |P| = 6, wild"*"generators: a (heap 1), b (heap 2), c (heap 5), d (heap 9)"*) pass=$((pass + 1)) ;;
*) echo "FAIL kayles-text: $out"; fail=$((fail + 1)) ;;
esac
# the analysis says how it answered
out=$("$B" analyze --misere --explain "kayles 4 1 3")
case $out in
*"each heap"*|*"Each heap is an element of Q"*"not in P"*) pass=$((pass + 1)) ;;
*) echo "FAIL analyze-explain: $out"; fail=$((fail + 1)) ;;
esac

# 0.75: proved periodic at heap 23 (period 2 from heap 8; tests/unit/
# test_quotient_period.c checks it against brute force past heap 23)
check until-0.75 0 '{"game":"octal:0.75","upto":23,"order":8,"p_portion":2,"tame":false,"generators":[{"name":"a","heap":1},{"name":"b","heap":2},{"name":"c","heap":5}],"relations":["a^2 = 1","bc = ab","c^2 = b^2","b^3 = b"],"heaps":["1","a","b","a","b","c","b","c","b","ab^2","b","ab^2","b","ab^2","b","ab^2","b","ab^2","b","ab^2","b","ab^2","b","ab^2"],"p":["a","b^2"],"period":2,"preperiod":8,"proved":true}' \
    -- quotient --game octal:0.75 --until-proved --json
out=$("$B" quotient --game sub:1-3 --until-proved)
case $out in
*"of all heaps, proved from the heaps up to 8"*"period 4, preperiod 0"*) pass=$((pass + 1)) ;;
*) echo "FAIL until-text: $out"; fail=$((fail + 1)) ;;
esac
# huge heaps through the proved period, and a sum of two games through the
# union's quotient (both checked against brute force in tests/unit/)
out=$("$B" analyze --misere --explain "octal:0.75 1000000000000 + octal:0.75 7 + octal:0.75 5")
case $out in
*"outcome:  N"*"proved to be the quotient of all heaps by the periodicity theorem"*"heap 1000000000000 = heap 8 = b"*) pass=$((pass + 1)) ;;
*) echo "FAIL analyze-huge: $out"; fail=$((fail + 1)) ;;
esac
out=$("$B" analyze --misere --explain "kayles 5 + dawsons-kayles 7")
case $out in
*"quotient Q of the union of the heaps of octal:0.07 + octal:0.77, up to 7 counters"*) pass=$((pass + 1)) ;;
*) echo "FAIL analyze-union: $out"; fail=$((fail + 1)) ;;
esac
# the union's quotient that the analysis above used, printed
out=$("$B" quotient --game "kayles + dawsons-kayles" --upto 7)
case $out in
"octal:0.07 + octal:0.77: the misère quotient of the union of their heaps of at most 7 counters"*"generators: a (heap 1 of octal:0.77)"*"heaps of octal:0.07:"*"heaps of octal:0.77:"*) pass=$((pass + 1)) ;;
*) echo "FAIL union-text: $out"; fail=$((fail + 1)) ;;
esac
check union-json 0 '{"game":"octal:0.07 + octal:0.77","games":["octal:0.07","octal:0.77"],"upto":3,"order":6,"p_portion":2,"tame":true,"generators":[{"name":"a","heap":1,"game":"octal:0.77"},{"name":"b","heap":2,"game":"octal:0.77"}],"relations":["a^2 = 1","b^3 = b"],"heaps":[["1","1","a","a"],["1","a","b","ab"]],"p":["a","b^2"],"period":null,"preperiod":null,"proved":false}' \
    -- quotient --game "dawsons-kayles + kayles" --upto 3 --json
bad union-twice 'named twice' -- quotient --game "kayles + octal:0.77" --upto 3
bad union-empty "a game is missing around '+'" -- quotient --game "kayles +" --upto 3
bad union-until '--until-proved is for the quotient of one game' -- quotient --game "kayles + sub:1-3" --until-proved
bad union-save '--save is for the quotient of one game' -- quotient --game "kayles + sub:1-3" --save x
bad until-kayles 'not proved periodic by heap 20' -- quotient --game kayles --until-proved --upto 20
bad until-nim 'octal codes and subtraction games' -- quotient --game nim --until-proved --upto 7
bad no-game '--game RULES is required' -- quotient --upto 3
bad wythoff 'not a heap game' -- quotient --game wythoff
bad bad-upto '--upto' -- quotient --game kayles --upto -1
bad bad-game "--game 'octal:0.9'" -- quotient --game octal:0.9
# pretending needs fewer than 100 (its trials count against max_search too)
bad limit 'max_search' -- quotient --game kayles --upto 12 --max-search 20
# a limit met past many heaps says where learning stopped
bad stop-heap 'memory (the max_memory limit) (at heap 25 of octal:0.07: the heaps up to 24 were learnt)' -- \
    quotient --game dawsons-kayles --upto 30 --max-search 100000000 --max-memory 300K

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
