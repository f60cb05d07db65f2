#!/bin/sh
# CLI tests of issue 10's item 7 and 9: the promises the CLI keeps on odd
# input (a save that cannot happen, terminal escapes echoed from input,
# misleading errors, empty ranges, NUL bytes) and the JSON formats.
# Usage: sh promises.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

# --save into a directory that does not exist: refused before the game,
# nothing claims it was saved, and the directory is not created
missing="$tmp/no/such/dir/game.txt"
echo q | "$B" play --save "$missing" 3 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ] || grep -q "saved" "$tmp/out" ||
    ! grep -q "does not exist" "$tmp/err" || [ -e "$tmp/no" ]; then
    echo "FAIL save-missing-dir: status $rc"; cat "$tmp/out" "$tmp/err"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
# a save that works says so and exits 0
echo q | "$B" play --save "$tmp/ok.txt" 3 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q "saved in $tmp/ok.txt" "$tmp/out" ||
    [ ! -s "$tmp/ok.txt" ]; then
    echo "FAIL save-ok: status $rc"; fail=$((fail + 1))
else
    pass=$((pass + 1))
fi

# terminal escapes from input are shown, never sent: no ESC or BEL byte
# reaches the terminal, from an error line or from a replay
esc=$(printf '\033')
bel=$(printf '\007')
"$B" analyze "$(printf '3 \033[31mred')" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ] || grep -q "$esc" "$tmp/err" ||
    ! grep -q 'byte 0x1b' "$tmp/err"; then
    echo "FAIL escape-in-error: status $rc"; fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
sed "s/^A: .*/A: evil$(printf '\033]0;pwned\007')/" "$tmp/ok.txt" \
    >"$tmp/evil.txt"
"$B" replay "$tmp/evil.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 0 ] || grep -q "$esc" "$tmp/out" || grep -q "$bel" "$tmp/out" ||
    ! grep -q 'evil\\x1b' "$tmp/out"; then
    echo "FAIL escape-in-replay: status $rc"; fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
# a game name with an escape, in an error message
bad escape-in-game 'x1b' -- analyze "$(printf 'wythoff\033[2J 3 4')"

# errors that say what is wrong
bad pair-dash 'not a non-negative integer' -- pair -
bad pair-negative 'is negative' -- pair -3
bad control-byte 'control character (byte 0x01) at column 2' -- \
    analyze "$(printf '3\001 4')"
big=1$(printf '%0100d' 0)
bad grundys-huge 'computed only for heaps below 67108864' -- \
    analyze --game grundys-game "$big"
bad table-empty-range 'not below --below 3' -- table --piles 2 --min 5 --below 3
bad table-equal-range 'range is empty' -- table --piles 2 --min 3 --below 3
check grundy-upto-0 0 'octal:0.77: no values (--upto 0)
no period detected in these values
method: plain' -- grundy --game kayles --upto 0

# a NUL in a typed line: refused, never cut (the move before it is not
# played)
printf '1 1\000 junk\nq\n' | "$B" play --seed 1 --save "$tmp/nul.txt" 3 \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q "NUL byte at column 4" "$tmp/out" ||
    grep -q "^You:" "$tmp/out"; then
    echo "FAIL nul-in-play: status $rc"; cat "$tmp/out"; fail=$((fail + 1))
else
    pass=$((pass + 1))
fi

# one format for probabilities: count's "1/1" and "0/1"
check random-starts-0 0 '{"game":"nim","misere":false,"piles":2,"max":"1","starts":"1","first_player_wins":"0","probability":"0/1"}' \
    -- analyze --random-starts --json --piles 2 --max 1
check random-starts-1 0 '{"game":"nim","misere":false,"piles":1,"max":"1","starts":"1","first_player_wins":"1","probability":"1/1"}' \
    -- analyze --random-starts --json --piles 1 --max 1
check count-piles-0 0 '{"piles":"0","min":"0","max":"3","ordered":false,"misere":false,"positions":"1","p_positions":"1","probability":"1/1"}' \
    -- count --piles 0 --max 3 --json

# --max-memory: suffixes, and bad values named
bad max-memory-bad 'not a number of bytes' -- analyze --max-memory 12X 3 4
bad max-memory-big 'too large' -- analyze --max-memory 99999999999G 3 4
for m in 64K 64k 1M 1MiB 2G 0; do
    "$B" analyze --max-memory $m --json 3 4 5 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ] ||
        ! grep -q '"outcome":"N"' "$tmp/out"; then
        echo "FAIL max-memory-$m: status $rc"; fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
