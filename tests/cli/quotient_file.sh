#!/bin/sh
# CLI tests of saved misère quotients: `quotient --save FILE`, then
# `analyze --misere --quotient FILE` and `move --quotient FILE` on heaps of
# 10^12 counters, the same answers as without the file on heaps the
# analysis reaches by itself, and every damaged, foreign or tampered file
# refused with exit 2 and one line.  (Kayles' round trip, 40 s to prove,
# is in tests/unit/test_quotient_slow.c.)
# Usage: sh quotient_file.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

# saved, and written atomically (no FILE.tmp left)
"$B" quotient --game octal:0.75 --until-proved --save "$tmp/q75" >/dev/null
"$B" quotient --game sub:1-3 --until-proved --save "$tmp/s13" >/dev/null
"$B" quotient --game kayles --upto 12 --save "$tmp/k12" >/dev/null
if [ "$(head -n 1 "$tmp/q75")" = "bouton-quotient 1" ] &&
    [ ! -e "$tmp/q75.tmp" ] && grep -q '^period 2 8$' "$tmp/q75"; then
    pass=$((pass + 1))
else
    echo "FAIL save: $(head -n 5 "$tmp/q75")"; fail=$((fail + 1))
fi

# printed back (checked) exactly as computed
want=$("$B" quotient --game octal:0.75 --until-proved --json --table)
check load-json 0 "$want" -- quotient --load "$tmp/q75" --json --table
want=$("$B" quotient --game kayles --upto 12)
check load-text 0 "$want" -- quotient --load "$tmp/k12"

# the same answers with the file as without it (JSON, no explanation)
for pos in "octal:0.75 1000000000000 + octal:0.75 7 + octal:0.75 5" \
    "octal:0.75 9 7 4" "octal:0.75 12 3" \
    "sub:1-3 1000000000000 999999999999 7" "sub:1-3 5 6 7 8" \
    "kayles 12 11 7" "kayles 4 1 3"; do
    case $pos in
    octal*) f=$tmp/q75 ;;
    sub*) f=$tmp/s13 ;;
    *) f=$tmp/k12 ;;
    esac
    want=$("$B" analyze --misere --json "$pos")
    check "same: $pos" 0 "$want" -- analyze --misere --json --quotient "$f" "$pos"
done
# the file is what answers a huge heap, and the explanation says so
out=$("$B" analyze --misere --explain --quotient "$tmp/q75" "octal:0.75 1000000000000 + octal:0.75 7 + octal:0.75 5")
case $out in
*"outcome:  N"*"... and more: a heap past the max_search limit has too many splits to list: listed are its winning moves that leave one heap and its winning splits whose smaller heap has at most 14 counters"*"read from a saved file and checked exactly"*"heap 1000000000000 = heap 8 = b"*) pass=$((pass + 1)) ;;
*) echo "FAIL explain: $out"; fail=$((fail + 1)) ;;
esac
# a heap of 10^300 through the period, and the computer's move
big=1$(printf '%0300d' 0)
out=$("$B" analyze --misere --quotient "$tmp/s13" "sub:1-3 $big 6")
case $out in
*"outcome:  N"*"take"*) pass=$((pass + 1)) ;;
*) echo "FAIL 10^300: $out"; fail=$((fail + 1)) ;;
esac
# the computer's move is one of the analysis's winning moves
mv=$("$B" move --misere --quotient "$tmp/q75" "octal:0.75 1000000000000 7 5" | head -n 1)
out=$("$B" analyze --misere --quotient "$tmp/q75" "octal:0.75 1000000000000 7 5")
case $mv in
take*)
    case $out in
    *"  $mv
"*) pass=$((pass + 1)) ;;
    *) echo "FAIL move: '$mv' not among: $out"; fail=$((fail + 1)) ;;
    esac ;;
*) echo "FAIL move: $mv"; fail=$((fail + 1)) ;;
esac
# play takes the file too (and refuses a tampered one)
out=$(printf 'quit\n' | "$B" play --save "$tmp/game" --misere --quotient "$tmp/q75" --first computer --seed 3 "octal:0.75 9 7" 2>&1)
case $out in
*"Computer: "*) pass=$((pass + 1)) ;;
*) echo "FAIL play: $out"; fail=$((fail + 1)) ;;
esac

# damaged, foreign, tampered: exit 2, one line naming the file
head -c 120 "$tmp/q75" >"$tmp/trunc"
bad truncated "'$tmp/trunc': not a quotient saved by bouton: line" -- analyze --misere --quotient "$tmp/trunc" "octal:0.75 9"
: >"$tmp/empty"
bad empty "expected 'bouton-quotient 1'" -- analyze --misere --quotient "$tmp/empty" "octal:0.75 9"
printf 'hello\n' >"$tmp/garbage"
bad garbage "line 1: expected 'bouton-quotient 1'" -- analyze --misere --quotient "$tmp/garbage" "octal:0.75 9"
sed 's/^game octal:0.75$/game octal:0.77/' "$tmp/q75" >"$tmp/other"
bad other-game "not the misère quotient of octal:0.77" -- analyze --misere --quotient "$tmp/other" "kayles 9"
sed 's/^p 1 4$/p 1 5/' "$tmp/q75" >"$tmp/pbit"
bad p-bit "not the misère quotient of octal:0.75: the exact check" -- analyze --misere --quotient "$tmp/pbit" "octal:0.75 9"
# one entry and its mirror (the table stays commutative): 2 * 5 = 2
sed -e '/^table$/,/^end$/{s/^2 3 4 5 2 3 2 3$/2 3 4 5 2 2 2 3/;s/^5 4 3 2 5 4 5 4$/5 4 2 2 5 4 5 4/;}' "$tmp/q75" >"$tmp/entry"
if cmp -s "$tmp/entry" "$tmp/q75"; then
    echo "FAIL entry: the table was not changed"; fail=$((fail + 1))
fi
bad table-entry "'$tmp/entry': " -- analyze --misere --quotient "$tmp/entry" "octal:0.75 9"
sed 's/^period 2 8$/period 2 9/' "$tmp/q75" >"$tmp/period"
bad period "proved periodic with period 2 and preperiod 8, not as the text says" -- analyze --misere --quotient "$tmp/period" "octal:0.75 9"
sed 's/^period .*$/period 4 0/' "$tmp/k12" >"$tmp/claim"
bad claimed-proof "does not prove the quotient of octal:0.77 from its heaps up to 12, as the text claims" -- analyze --misere --quotient "$tmp/claim" "kayles 9"
bad missing "cannot open" -- analyze --misere --quotient "$tmp/nothing" "octal:0.75 9"
bad wrong-game "--quotient is the misère quotient of octal:0.75, and no component" -- analyze --misere --quotient "$tmp/q75" "kayles 9"
bad normal-play "--quotient goes with --misere" -- analyze --quotient "$tmp/q75" "octal:0.75 9"
bad move-normal "--quotient goes with --misere" -- move --quotient "$tmp/q75" "octal:0.75 9"
bad move-tampered "the exact check" -- move --misere --quotient "$tmp/pbit" "octal:0.75 9"
bad load-tampered "--load '$tmp/pbit': not the misère quotient" -- quotient --load "$tmp/pbit"
bad load-game "--load FILE takes no --game" -- quotient --load "$tmp/q75" --game kayles
bad play-tampered "the exact check" -- play --save "$tmp/game" --misere --quotient "$tmp/pbit" "octal:0.75 9"
bad save-dir "--save" -- quotient --game nim --upto 3 --save "$tmp/no/such/dir/q"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
