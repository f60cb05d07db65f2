#!/bin/sh
# CLI tests of the resource model (issue 10): heavy but valid input stops
# at a limit with exit 2 and one clear line, a real out-of-memory exits 1
# with one line (never GMP's abort, 134), and jumps that used to be walks
# answer at once.  The memory cases run under `ulimit -v` where the build
# allows it (an ASan build reserves more address space than any small
# limit, so there they run without one).  A full disk (/dev/full) is a
# write error: exit 1 and one line.  About 20 s.
# Usage: sh limits.sh PATH-TO-bouton
# CPU: about 5 s (tests/README.md).
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

vlimit=""
if sh -c 'ulimit -v 2000000 && exec "$0" --version' "$B" >/dev/null 2>&1; then
    vlimit=2000000
fi

# limited NAME STATUS PATTERN KB -- ARGS...: exits STATUS (never a signal)
# within 60 s, nothing on stdout, one stderr line matching PATTERN; under
# ulimit -v KB when the build allows it (KB "V": $vlimit; "": none)
limited() {
    name=$1 want=$2 pattern=$3 kb=$4
    shift 5
    if [ "$kb" = V ] && [ -n "$vlimit" ]; then
        kb=$vlimit
    elif [ "$kb" = V ]; then
        # no ulimit in this build (ASan): a smaller budget than the default
        # stops the search sooner, so that the slower build stays quick
        kb=""
        cmd=$1
        shift
        set -- "$cmd" --max-memory 256M "$@"
    fi
    (
        [ -z "$kb" ] || ulimit -v "$kb"
        exec timeout 60 "$B" "$@"
    ) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -ne "$want" ] || [ -s "$tmp/out" ] || [ "$lines" -ne 1 ] ||
        ! grep -q -- "$pattern" "$tmp/err"; then
        echo "FAIL $name: status $rc (want $want), $lines stderr lines"
        sed 's/^/  stderr: /' "$tmp/err" | head -5
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

# misère searches: positions with many moves each stop at max_memory,
# a long game at max_search (the positions on the stack count).  Grundy's
# game is used for the wide positions because no periodicity theorem
# gives its quotient for huge heaps (Kayles' is proved at heap 169 within
# the analysis budget, and answers such heaps without a search);
# Dawson's Kayles for the long game because it is wild: its misère
# quotient is learnt by the search, which --max-search 20000 stops near
# heap 24 (a subtraction game such as sub:5000,9997 is tame, and its
# quotient, formed by the theory, now answers 10^9 without a search)
limited grundy-misere 2 'max_memory limit' V -- \
    analyze --misere --game grundy '1 29429 6 2'
limited grundy-misere-small 2 'more than 52428800 bytes of memory' "" -- \
    analyze --misere --game grundy --max-memory 50M '1 29429 6 2'
limited wild-misere-deep 2 'max_search limit' V -- \
    analyze --misere --max-search 20000 'dawsons-kayles 1000000000'
limited grundy-misere-20000 2 'max_memory limit' "" -- \
    analyze --misere --game grundy --max-memory 200M 20000
# the misère quotient's memory is charged to max_memory: a trial monoid
# that does not fit in what is left is dropped (Dawson's Kayles to heap
# 30 needs trials of a few hundred kilobytes), and the search that then
# learns the heap stops at the limit
limited quotient-memory 2 'more than 307200 bytes of memory' "" -- \
    quotient --game dawsons-kayles --upto 30 --max-search 100000000 \
    --max-memory 300K

# GMP's numbers count against max_memory too (issue 26): the analysis of
# 3 001 piles of 2 000 digits (9 then digits from one random text, so that
# every pile is a winning move) copies each value and lists 3 001 moves,
# about 5 MB of numbers beyond the 2.5 MB of the position (which the parse
# charged): under 4 MiB (and the address-space cap of the memory cases)
# it stops at the limit (it answered, its numbers uncharged)
awk 'BEGIN { srand(26); for (j = 0; j < 20000; j++) r = r int(rand() * 10)
    printf "nim"
    for (i = 0; i < 3001; i++)
        printf " 9%s", substr(r, 1 + (i * 7919) % 18000, 1999)
    print "" }' >"$tmp/nines"
limited gmp-memory 2 'more than 4194304 bytes of memory' V -- \
    analyze --max-memory 4M - <"$tmp/nines"

# a streamed table stops at the limit with its message (rows before it
# are printed)
for lim in "--max-memory 100K:max_memory limit" "--max-search 100:max_search limit"; do
    opt=${lim%%:*} pattern=${lim#*:}
    # shellcheck disable=SC2086
    "$B" table --game kayles --misere --piles 3 --below 200 $opt \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
        ! grep -q "$pattern" "$tmp/err" || ! grep -q '^0 0 1$' "$tmp/out"; then
        echo "FAIL table-limit $opt: status $rc"
        sed 's/^/  stderr: /' "$tmp/err" | head -3
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done

# a number GMP cannot allocate under a small ulimit: exit 1, one line
if [ -n "$vlimit" ]; then
    zeros=$(head -c 999999 /dev/zero | tr '\0' 0)
    printf '1%s 1%s\n' "$zeros" "$zeros" >"$tmp/big.txt"
    (ulimit -v 20000; exec "$B" analyze --game wythoff - <"$tmp/big.txt") \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
        ! grep -q 'out of memory' "$tmp/err"; then
        echo "FAIL gmp-oom: status $rc (want 1, one line)"
        sed 's/^/  stderr: /' "$tmp/err" | head -5
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
fi

# jumps: the first row of a table far from 0, and a long record.  A lower
# Wythoff member x = floor(n phi) pairs with x + n, n = ceil(x / phi):
# 10^8 / phi = 61803398.87..., 10^22 / phi = 6180339887498948482045.86...
first_row() {
    name=$1 want=$2
    shift 3
    out=$(timeout 10 "$B" "$@" | head -1)
    if [ "$out" != "$want" ]; then
        echo "FAIL $name: first row '$out', want '$want'"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}
e30=1000000000000000000000000000000
first_row wythoff-min '100000000 161803399' -- \
    table --game wythoff --min 100000000 --below $e30
first_row wythoff-min-far '10000000000000000000000 16180339887498948482046' -- \
    table --game wythoff --min 10000000000000000000000 --below $e30
# 10^21 < 2^70 (bit 69 its top): the second pile is the least y >= 10^21
# with bit 69 clear, 2^70, and the third is their nim-sum
first_row nim-min '1000000000000000000000 1180591620717411303424 2180591620717411303424' -- \
    table --piles 3 --min 1000000000000000000000 --below $e30

awk 'BEGIN { n = 50000; print "game: nim"; print ""; print "(" n ")";
    for (i = 1; i <= n; i++) print "-" (i % 2 ? "A" : "B") "-> (" n - i ")" }' \
    >"$tmp/long.txt"
out=$(timeout 30 "$B" replay --json "$tmp/long.txt" | head -c 9)
if [ "$out" != '{"game":"' ]; then
    echo "FAIL record-50000: no replay within 30 s ('$out')"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi

# write errors (issue 26): every command's stdout is checked once, at the
# end (and streaming ones stop at the first failed write): exit 1 and one
# line "bouton: write error: ..." within 60 s, never exit 0 or silence,
# never a table computed on into /dev/full
full() {
    name=$1
    shift 2
    timeout 60 "$B" "$@" </dev/null >/dev/full 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -ne 1 ] || [ "$lines" -ne 1 ] ||
        ! grep -q '^bouton: write error: No space left on device$' "$tmp/err"; then
        echo "FAIL full-$name: status $rc (want 1), $lines stderr lines"
        sed 's/^/  stderr: /' "$tmp/err" | head -5
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}
# --max-time: work that polls but would run for hours (the misère
# quotient of Nim to heap 1000 is about n^4; a table of 3 piles below 10^9
# streams for hours) stops at the given seconds with exit 2 and one line.
# Each stops after 0.3 s of wall time; the 60 s of `limited` is the bound
# on a busy machine.
limited time-quotient 2 'max-time 0.3 s' "" -- \
    quotient --game nim --upto 1000 --max-time 0.3
limited time-analyze 2 'max-time 0.3 s' "" -- \
    analyze --misere --game grundy --max-time 0.3 '1 29429 6 2'
# --max-games: the distinct games of one position (aliases count once)
limited games 2 'more than 2 distinct games.*max_games limit' "" -- \
    analyze --max-games 2 'sub:1 1 + sub:2 1 + kayles 3'
limited time-bad 2 "max-time 'x' is not a number of seconds" "" -- \
    analyze --max-time x 3 4 5
limited time-zero 2 "max-time '0' is not a number of seconds" "" -- \
    analyze --max-time 0 3 4 5
"$B" table --piles 3 --below 1000000000 --max-time 0.3 >"$tmp/out" \
    2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ] || ! grep -q 'max-time 0.3 s' "$tmp/err" ||
    ! [ -s "$tmp/out" ]; then
    echo "FAIL time-table: status $rc (want 2, rows then the message)"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi

if [ -w /dev/full ]; then
    printf 'game: nim\n\n(3 4 5)\n-A-> (1 4 5)\n' >"$tmp/rec.txt"
    full analyze -- analyze 3 4 5
    full analyze-json -- analyze --json 3 4 5
    full replay -- replay "$tmp/rec.txt"
    full replay-json -- replay --json "$tmp/rec.txt"
    full move -- move 3 4 5
    full pair -- pair 5
    full count -- count --piles 3 --below 10
    full quotient -- quotient --game kayles --upto 30
    full table -- table --piles 3 --below 1000000000
    full table-json -- table --piles 3 --below 1000000000 --json
    full grundy -- grundy --game octal:0.07 --upto 100000
    full grundy-json -- grundy --game octal:0.07 --upto 100000 --json
    full grundy-wythoff -- grundy --game wythoff --below 300
    full census -- census --codes 0.1d --upto 100 --no-time
    full help -- --help
    full version -- --version
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
