#!/bin/sh
# `bouton census`: the table of a pattern of octal codes (text and JSON
# lines), published periods in it, a census killed halfway that resumes
# from its own output, and under MPI (when the program is built with it)
# the lines of one process on 2 and 4 ranks.
# Usage: sh census.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

# Dawson's chess 0.137: period 34, preperiod 52 (the last exceptional heap
# is 51), largest value 9; proved from 175 values.  Kayles 0.77: period 12,
# preperiod 71.
check dawson 0 '# code     status   period preperiod  last-exc    max   mask method         values
0.137      solved       34        52        51      9      - plain             175' \
    -- census --codes 0.137 --until-proved --no-time
check kayles-json 0 '{"code":"0.77","status":"solved","period":12,"preperiod":71,"last_exceptional":70,"largest":8,"mask":null,"method":"plain","values":168}' \
    -- census --codes 0.77 --until-proved --json --no-time
# a pattern: 0.1d has the seven codes 0.11 ... 0.17 (0.10 is 0.1)
"$B" census --codes 0.1d --upto 2048 --json --no-time >"$tmp/p" 2>"$tmp/err"
n=$(grep -c '"code":"0.1[1-7]"' "$tmp/p")
if [ "$n" -ne 7 ] || [ "$(wc -l <"$tmp/p")" -ne 7 ] || [ -s "$tmp/err" ]; then
    echo "FAIL pattern: $n codes"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
# every line agrees with bouton grundy on the same game
while read -r line; do
    code=$(echo "$line" | sed 's/.*"code":"\([0-7.]*\)".*/\1/')
    want=$("$B" grundy --game "octal:$code" --upto 2048 --no-values --json |
        sed 's/.*"period":\([0-9a-z]*\),"preperiod":\([0-9a-z]*\),"proved":\([a-z]*\).*}/\1 \2 \3/')
    period=$(echo "$line" | sed 's/.*"period":\([0-9a-z]*\),.*/\1/')
    proved=$(echo "$line" | grep -q '"status":"solved"' && echo true || echo false)
    case "$want" in
    "$period "*" $proved" | "$period "*" false") pass=$((pass + 1)) ;;
    *) echo "FAIL grundy-$code: census '$line', grundy '$want'"
       fail=$((fail + 1)) ;;
    esac
done <"$tmp/p"

# a census killed halfway resumes from its output and reruns only the rest
"$B" census --codes 0.dd --upto 16384 --no-time >"$tmp/full"
"$B" census --codes 0.dd --upto 16384 --no-time --output "$tmp/cens" &
pid=$!
sleep 1
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
before=$(wc -l <"$tmp/cens")
"$B" census --codes 0.dd --upto 16384 --no-time --output "$tmp/cens"
if ! cmp -s "$tmp/full" "$tmp/cens"; then
    echo "FAIL resume: the resumed output differs (had $before lines)"
    diff "$tmp/full" "$tmp/cens" | head -5
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
# a finished output: nothing to do, nothing added
"$B" census --codes 0.dd --upto 16384 --no-time --output "$tmp/cens"
if cmp -s "$tmp/full" "$tmp/cens"; then pass=$((pass + 1)); else
    echo "FAIL rerun: a finished census changed its output"
    fail=$((fail + 1))
fi

# MPI: the lines of one process, on 2 and 4 ranks
if ldd "$B" 2>/dev/null | grep -q libmpi; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    "$B" census --codes 0.ddd --upto 2048 --json --no-time | sort >"$tmp/one"
    for np in 2 4; do
        mpirun -np $np --oversubscribe "$B" census --codes 0.ddd --upto 2048 \
            --json --no-time --threads 1 2>"$tmp/err" | sort >"$tmp/many"
        if [ "$(wc -l <"$tmp/one")" -lt 400 ] || ! cmp -s "$tmp/one" "$tmp/many"; then
            echo "FAIL mpi-$np: not the lines of one process"
            sed 's/^/  stderr: /' "$tmp/err" | head -5
            fail=$((fail + 1))
        else
            pass=$((pass + 1))
        fi
    done
else
    echo "SKIP mpi: $B was built without MPI (install libopenmpi-dev and openmpi-bin and rebuild)"
fi

bad no-codes 'is required' -- census
bad bad-pattern 'expected a pattern' -- census --codes 0.8d
bad bad-pattern2 'expected a pattern' -- census --codes kayles
bad no-file 'codes' -- census --codes @/nonexistent/codes
bad upto-zero 'upto' -- census --codes 0.1 --upto 0
# a codes file that is not text, or holds no code, is bad input (it
# exited 0 having done nothing): one line naming the file and where
head -c 1000000 /dev/zero >"$tmp/zeros"
bad codes-nul "--codes '@$tmp/zeros', line 1 (byte 1): a NUL byte" -- \
    census --codes "@$tmp/zeros"
printf '0.137\n0.1\0007\n' >"$tmp/nul2"
bad codes-nul-line2 "--codes '@$tmp/nul2', line 2 (byte 10): a NUL byte" -- \
    census --codes "@$tmp/nul2"
printf '# only a comment\n\n   \n' >"$tmp/empty-codes"
bad codes-none "--codes '@$tmp/empty-codes': no code in it" -- \
    census --codes "@$tmp/empty-codes"
: >"$tmp/zero-bytes"
bad codes-empty-file "--codes '@$tmp/zero-bytes': no code in it" -- \
    census --codes "@$tmp/zero-bytes"
bad codes-dir "--codes '@$tmp': cannot read it" -- census --codes "@$tmp"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
