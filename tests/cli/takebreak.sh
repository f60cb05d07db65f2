#!/bin/sh
# CLI tests of take-and-break codes (tb:CODE): grundy and analyze on
# hexadecimal and infinite codes, the canonical texts, and bad codes (one
# line on stderr, exit 2).  Usage: sh takebreak.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

# Lasker's Nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4,
# G(4k+4) = 4k+3; an infinite code, never proved
check laskers 0 '{"game":"tb:4.[3]","upto":12,"values":[0,1,2,4,3,5,6,8,7,9,10,12],"period":null,"preperiod":null,"proved":false,"threads":1}' \
    -- grundy --game laskers-nim --upto 12 --json
# Nim is 0.[3], and redundant digits are dropped
check nim 0 '{"game":"tb:0.[3]","upto":10,"values":[0,1,2,3,4,5,6,7,8,9],"period":null,"preperiod":null,"proved":false,"threads":1}' \
    -- grundy --game 'tb:0.33[3]' --upto 10 --json
# an octal code as a tb code: Dawson's Chess, as octal:0.137 proves it
check dawsons-chess 0 '{"game":"tb:0.137","upto":175,"period":34,"preperiod":52,"proved":true,"threads":1}' \
    -- grundy --game tb:0.137 --until-proved --no-values --json
# a hexadecimal code (a move may leave three heaps), proved by the
# three-heap bound n0 <= n < 3*n0 + 2p + t
check hex-4C 0 '{"game":"tb:4.C","upto":265,"period":34,"preperiod":54,"proved":true,"threads":1}' \
    -- grundy --game tb:4.c --until-proved --no-values --json
# "4" is 4.0: split a heap in two (an octal code: Guy-Smith proves it
# from 2*1 + 2 + 0 values and the 2 they are compared with)
check four 0 'tb:4.0: 6 values, G(0..5):
0: 0 0 1 0 1 0
period 2, preperiod 1: proved (Guy-Smith theorem)
method: plain' \
    -- grundy --game tb:4 --upto 6
# a move that leaves three heaps, in the answer
check split3 0 '{"game":"tb:8.1","misere":false,"position":["9"],"outcome":"N","grundy":"4","components":[{"game":"tb:8.1","position":["9"],"grundy":"4"}],"winning_moves":[{"component":1,"to":["3","3","3"],"text":"split heap 1 into 3, 3 and 3"}],"remoteness":"13"}' \
    -- analyze --json 'tb:8.1 9'
# which of the remoteness budgets runs out first (positions or CPU time)
# depends on the machine: the remoteness is left out
check sum 0 'position: tb:4.C 10 + tb:4.[3] 7
outcome:  N (the next player wins)
grundy:   9
winning moves (1):
  take 6 from heap 2' \
    -- analyze --no-remoteness 'tb:4.C 10 + laskers-nim 7'

# bad codes and limits: one line on stderr, exit 2
bad digit 'unexpected .G. at column 4' -- grundy --game tb:0.7G --upto 10
bad d0 'must be 0, 4, 8 or C' -- grundy --game tb:1.3 --upto 10
bad open 'is not closed' -- analyze 'tb:0.[3 5'
bad empty-block 'empty repeating block' -- analyze 'tb:0.[] 5'
bad no-move 'allows no move at all' -- analyze 'tb:0.0 5'
bad no-code 'tb needs a code' -- analyze 'tb 5'
bad huge-infinite 'not covered by any theorem (an infinite code)' \
    -- analyze 'tb:0.[3] 100000000000000000000'
bad work 'more than 256 times the max_grundy limit' \
    -- grundy --game tb:0.8 --upto 100000 --no-values

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
