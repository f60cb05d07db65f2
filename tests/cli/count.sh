#!/bin/sh
# CLI tests of `bouton count`: output, JSON, Bouton's sec. 3 for n = 1..64,
# exit codes and bad input.  Usage: sh count.sh PATH-TO-bouton
set -u
B=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/lib/check.sh"

# Bouton sec. 3: three non-empty piles below 16.  The JSON is the issue's,
# byte for byte.
check bouton-json 0 '{"piles":"3","min":"1","max":"15","ordered":false,"misere":false,"positions":"680","p_positions":"35","probability":"7/136"}' \
    -- count --piles 3 --min 1 --max 15 --json
check bouton-text 0 '3 piles, each of 1 to 15 counters, as multisets (the order of the piles does not count), normal play
positions    680
P-positions  35 (safe: the second player wins)
probability  7/136 (about 0.0514706)' \
    -- count --piles 3 --min 1 --max 15
check bouton-below 0 '{"piles":"3","min":"1","max":"15","ordered":false,"misere":false,"positions":"680","p_positions":"35","probability":"7/136"}' \
    -- count --json --piles 3 --min 1 --below 16
# options in any order, --min defaults to 0: the 35, the 15 (0, n, n) and
# (0, 0, 0) among the C(18, 3) = 816 multisets of piles below 16
check default-min 0 '{"piles":"3","min":"0","max":"15","ordered":false,"misere":false,"positions":"816","p_positions":"51","probability":"1/16"}' \
    -- count --max 15 --json --piles 3
# the essay (sec. 3.2) counts ordered triples: 4^4 = 256 with XOR 0 among
# the 16^3 of piles 0..15, 210 of them with no empty pile
check essay-256 0 '{"piles":"3","min":"0","max":"15","ordered":true,"misere":false,"positions":"4096","p_positions":"256","probability":"1/16"}' \
    -- count --ordered --json --piles 3 --min 0 --max 15
check essay-210 0 '{"piles":"3","min":"1","max":"15","ordered":true,"misere":false,"positions":"3375","p_positions":"210","probability":"14/225"}' \
    -- count --ordered --json --piles 3 --min 1 --max 15
# the essay's Table 2 (piles up to 10): 10 rows without an empty pile,
# plus (0, n, n) for n = 1..10 and (0, 0, 0)
check essay-table2 0 '{"piles":"3","min":"0","max":"10","ordered":false,"misere":false,"positions":"286","p_positions":"21","probability":"21/286"}' \
    -- count --json --piles 3 --max 10
# misère (Bouton sec. 6): 1, 1, 1 becomes safe
check misere 0 '{"piles":"3","min":"1","max":"15","ordered":false,"misere":true,"positions":"680","p_positions":"36","probability":"9/170"}' \
    -- count --misere --json --piles 3 --min 1 --max 15
check misere-ones 0 '{"piles":"4","min":"0","max":"1","ordered":true,"misere":true,"positions":"16","p_positions":"8","probability":"1/2"}' \
    -- count --misere --ordered --json --piles 4 --max 1
check one-pile 0 '{"piles":"1","min":"1","max":"9","ordered":false,"misere":false,"positions":"9","p_positions":"0","probability":"0/1"}' \
    -- count --json --piles 1 --min 1 --max 9
check all-zero 0 '{"piles":"5","min":"0","max":"0","ordered":false,"misere":false,"positions":"1","p_positions":"1","probability":"1/1"}' \
    -- count --json --piles 5 --max 0
# big: 64 piles below 2^1024 answers at once (checked in test_count)
"$B" count --json --piles 64 --min 1 --below \
    179769313486231590772930519078902473361797697894230657273430081157732675805500963132708477322407536021120113879871393357658789768814416622492847430639474124377767893424865485276302219601246094119453082952085005768838150682342462881473913110540827237163350510684586298239947245938479716304835356329624224137216 \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
digits=$(sed -n 's/.*"positions":"\([0-9]*\)".*/\1/p' "$tmp/out" | tr -d '\n' |
    wc -c)
if [ "$rc" -eq 0 ] && [ "$digits" -gt 19000 ] && [ ! -s "$tmp/err" ]; then
    pass=$((pass + 1))
else
    echo "FAIL big: $(head -c 300 "$tmp/out") $(cat "$tmp/err")"
    fail=$((fail + 1))
fi
check help 0 "$("$B" count --help)" -- count --help

# Bouton's sec. 3 formulas for n = 1..64 (tests/cases/nim_bouton_sec3.txt)
n_ok=0
while read -r n below positions safe prob; do
    case $n in '#'* | '') continue ;; esac
    got=$("$B" count --json --piles 3 --min 1 --below "$below" 2>&1)
    want="\"positions\":\"$positions\",\"p_positions\":\"$safe\",\"probability\":\"$prob\"}"
    case $got in
    *"$want") n_ok=$((n_ok + 1)) ;;
    *)
        echo "FAIL sec3 n=$n: got $got"
        echo "  want ...$want"
        fail=$((fail + 1))
        ;;
    esac
done <"$here/../cases/nim_bouton_sec3.txt"
if [ "$n_ok" -eq 64 ]; then
    pass=$((pass + 1))
else
    echo "FAIL sec3: $n_ok of 64 rows agree"
    fail=$((fail + 1))
fi

# bad input: one line on stderr, exit 2, nothing on stdout
bad min-gt-max 'larger than --max' -- count --piles 3 --min 9 --max 3
bad min-not-below 'not below' -- count --piles 3 --min 9 --below 9
# K = 0 (docs/counting.md): the one empty position, safe in normal play
# only
check piles-0 0 '{"piles":"0","min":"0","max":"3","ordered":false,"misere":false,"positions":"1","p_positions":"1","probability":"1/1"}' \
    -- count --piles 0 --max 3 --json
check piles-0-misere 0 '{"piles":"0","min":"0","max":"3","ordered":false,"misere":true,"positions":"1","p_positions":"0","probability":"0/1"}' \
    -- count --piles 0 --max 3 --json --misere
bad piles-big 'too large' -- count --piles 5000 --max 3
bad piles-text 'not a non-negative integer' -- count --piles three --max 3
bad piles-neg 'piles' -- count --piles -3 --max 3
bad min-neg 'negative' -- count --piles 3 --min -1 --max 3
bad max-neg 'negative' -- count --piles 3 --max -3
bad max-text 'not a non-negative integer' -- count --piles 3 --max 1e9
bad max-empty 'empty' -- count --piles 3 --max ''
bad below-0 'below 0' -- count --piles 3 --below 0
bad no-piles 'piles K is required' -- count --max 3
bad no-max 'required' -- count --piles 3
bad max-and-below 'not both' -- count --piles 3 --max 3 --below 4
bad unknown 'unknown option' -- count --piles 3 --max 3 --frobnicate
bad stray 'unexpected argument' -- count --piles 3 --max 3 7
bad no-value 'needs a value' -- count --piles 3 --max
bad digits 'max-digits' -- count --piles 3 --max 123456 --max-digits 5
# a count too long to print: 4096 piles of 300 digits
bad too-many-digits 'digits' -- count --piles 4096 --max \
    999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999
# a count too long to compute: 1000 multisets of random 1000-bit piles
bad too-much-work 'work limit' -- count --piles 1000 --min 3 --max \
    8146418573198757839526458471262758165913216452895318766651834839186378637895913875638762098465619856398576387462394862938746239874623987462398746239876423987462398476239847623984762398476239847623987462398476239847623984762398476239847623984762398476293847692837469283746928374692837469283746928374692837469283746928347692834769234

# Moore's Nim (--game moore:K, ordered tuples): with piles 0..7 each of the
# 3 columns of 3 piles has all 0 or all 1 (sum 0 or 3, divisible by 3) for
# moore:2, 2^3 = 8 of 8^3; moore:1 is Nim (the essay's 256 of 16^3)
check moore-text 0 '3 piles of moore:2, each of 0 to 7 counters, as ordered tuples (the piles are told apart), normal play
positions    512
P-positions  8 (safe: the second player wins)
probability  1/64 (about 0.015625)' \
    -- count --game moore:2 --ordered --piles 3 --max 7
check moore-1-is-nim 0 '{"game":"moore:1","piles":"3","min":"0","max":"15","ordered":true,"misere":false,"positions":"4096","p_positions":"256","probability":"1/16"}' \
    -- count --game moore:1 --ordered --json --piles 3 --max 15
# misère, piles 0..1: the ones must be 1 mod 3: C(4,1) + C(4,4) = 5 of 16
check moore-misere-ones 0 '{"game":"moore:2","piles":"4","min":"0","max":"1","ordered":true,"misere":true,"positions":"16","p_positions":"5","probability":"5/16"}' \
    -- count --game moore:2 --misere --ordered --json --piles 4 --max 1
# multisets: every column of three piles all 0 or all 1 makes the piles
# equal, (v, v, v): 8 of the C(10, 3) = 120 multisets of piles 0..7
check moore-multisets 0 '{"game":"moore:2","piles":"3","min":"0","max":"7","ordered":false,"misere":false,"positions":"120","p_positions":"8","probability":"1/15"}' \
    -- count --game moore:2 --json --piles 3 --max 7
bad moore-multisets-many 'more than 40 piles' -- count --game moore:2 --piles 41 --max 7
bad count-kayles 'not counted' -- count --game kayles --piles 3 --max 7
bad count-unknown-game "unknown game 'chess'" -- count --game chess --piles 3 --max 7

echo "count.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
