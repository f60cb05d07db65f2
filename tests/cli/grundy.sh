#!/bin/sh
# CLI tests of `bouton grundy` for heap games: the JSON of the issue, the
# text output, --until-proved, --no-values, the methods, the essay's game,
# and bad input.  Usage: sh grundy.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

# Kayles (OEIS A002186): period 12 from 71, proved from 168 values by the
# Guy-Smith theorem (2 * 71 + 12 + 2 values, plus the 12 they are compared
# with).
check kayles-json 0 '{"game":"octal:0.77","upto":20,"values":[0,1,2,3,1,4,3,2,1,4,2,6,4,1,2,7,1,4,3,2],"period":null,"preperiod":null,"proved":false,"threads":1}' \
    -- grundy --game kayles --upto 20 --json
check kayles-until 0 '{"game":"octal:0.77","upto":168,"period":12,"preperiod":71,"proved":true,"threads":1}' \
    -- grundy --game kayles --until-proved --no-values --json
check kayles-upto-100 0 '{"game":"octal:0.77","upto":100,"period":12,"preperiod":71,"proved":false,"threads":1}' \
    -- grundy --game octal:0.77 --upto 100 --json --no-values
check kayles-plain 0 '{"game":"octal:0.77","upto":168,"period":12,"preperiod":71,"proved":true,"threads":1}' \
    -- grundy --game kayles --until-proved --no-values --json --method plain
check kayles-rare 0 '{"game":"octal:0.77","upto":168,"period":12,"preperiod":71,"proved":true,"threads":1}' \
    -- grundy --game kayles --until-proved --no-values --json --method rare
# Dawson's Chess (A002187) and Dawson's Kayles (its values shifted by one)
check dawsons-chess 0 '{"game":"octal:0.137","upto":175,"period":34,"preperiod":52,"proved":true,"threads":1}' \
    -- grundy --game dawsons-chess --until-proved --no-values --json
check dawsons-kayles 0 '{"game":"octal:0.07","upto":176,"period":34,"preperiod":53,"proved":true,"threads":1}' \
    -- grundy --game dawsons-kayles --until-proved --no-values --json
# The essay's game, take 1, 2 or 3 coins: G(n) = n mod 4, so the safe
# positions are the multiples of four; proved by the subtraction window.
check essay 0 '{"game":"sub:1-3","upto":13,"values":[0,1,2,3,0,1,2,3,0,1,2,3,0],"period":4,"preperiod":0,"proved":true,"threads":1}' \
    -- grundy --game sub:1,2,3 --upto 13 --json
check essay-text 0 'sub:1-3: 13 values, G(0..12):
 0: 0 1 2 3 0 1 2 3 0 1
10: 2 3 0
period 4, preperiod 0: proved (subtraction-game window)
method: plain' \
    -- grundy --game sub:1-3 --upto 13
check kayles-text 0 'octal:0.77: 168 values, G(0..167)
period 12, preperiod 71: proved (Guy-Smith theorem)
method: plain' \
    -- grundy --game kayles --until-proved --no-values --method plain
# Grundy's game: never proved; --limit bounds the work
check grundy-limit 0 '{"game":"grundy","upto":500,"period":null,"preperiod":null,"proved":false,"threads":1}' \
    -- grundy --game grundys-game --until-proved --limit 500 --no-values --json
# (a period detected in few values is only a candidate: 3 from n = 3 here,
# which the next values break)
check grundy-values 0 '{"game":"grundy","upto":12,"values":[0,0,0,1,0,2,1,0,2,1,0,2],"period":3,"preperiod":3,"proved":false,"threads":1}' \
    -- grundy --game grundy --upto 12 --json
check empty 0 '{"game":"sub:2","upto":0,"values":[],"period":null,"preperiod":null,"proved":false,"threads":1}' \
    -- grundy --game sub:2 --upto 0 --json

# bad input: one line on stderr, exit 2
bad digit-8 'not octal' -- grundy --game octal:0.78 --upto 10
bad d0 '0 or 4' -- grundy --game octal:1.7 --upto 10
bad empty-set 'empty subtraction set' -- grundy --game sub: --upto 10
bad zero 'not a move' -- grundy --game sub:0,1 --upto 10
bad no-game 'game RULES is required' -- grundy --upto 10
bad unknown-game 'unknown game' -- grundy --game chess --upto 10
bad nim 'only heap games' -- grundy --game nim --upto 10
bad both 'exactly one of' -- grundy --game kayles --upto 10 --until-proved
bad neither 'exactly one of' -- grundy --game kayles
bad limit-alone 'goes with --until-proved' -- grundy --game kayles --upto 5 --limit 9
bad upto-word 'not a non-negative integer' -- grundy --game kayles --upto ten
bad upto-negative 'negative' -- grundy --game kayles --upto -5
bad upto-big 'too large' -- grundy --game kayles --upto 99999999999999999999
bad max-grundy 'too large' -- grundy --game kayles --upto 2000 --max-grundy 1000
bad method 'expected auto, plain or rare' -- grundy --game kayles --upto 5 --method fast
bad below 'use --upto' -- grundy --game kayles --below 5
bad wythoff-upto 'use --below' -- grundy --game wythoff --upto 5
bad value-16-bits '65536' -- grundy --game sub:1-70000 --upto 70000
bad stray 'unexpected argument' -- grundy --game kayles --upto 5 7

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
