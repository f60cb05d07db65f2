#!/bin/sh
# `bouton grundy --checkpoint FILE`: runs killed with SIGKILL at random
# moments (checkpoints are written every few milliseconds, so many kills
# land inside a write) and started again the same way end with exactly the
# output of an uninterrupted run; damaged, foreign and other runs'
# checkpoints are refused with one clear error.
# Usage: sh checkpoint.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

seed=${BT_TEST_SEED:-$$}
echo "seed $seed (BT_TEST_SEED replays it)"
rand_state=$seed
# rnd N: a pseudo-random number below N (a linear congruential generator,
# so that the seed replays the same kills)
rnd() {
    rand_state=$(( (rand_state * 1103515245 + 12345) % 2147483648 ))
    echo $(( rand_state / 65536 % $1 ))
}

# same WANT GOT: the same output, but for the JSON's "threads" (how many
# threads ran at once: a run resumed from a finished checkpoint computes
# nothing more, on one thread, and the engine chooses by measure)
same() {
    sed 's/,"threads":[0-9]*//' "$1" >"$1.cmp"
    sed 's/,"threads":[0-9]*//' "$2" >"$2.cmp"
    cmp -s "$1.cmp" "$2.cmp"
}

# killed NAME ARGS...: the run of ARGS, killed again and again, then let
# finish, against the same run uninterrupted
killed() {
    name=$1
    shift
    "$B" "$@" >"$tmp/want" 2>"$tmp/err" || {
        echo "FAIL $name: the uninterrupted run failed"
        fail=$((fail + 1))
        return
    }
    rm -f "$tmp"/ck "$tmp"/ck.tmp*
    kills=0
    i=0
    while [ $i -lt 8 ]; do
        "$B" "$@" --checkpoint "$tmp/ck" --checkpoint-every 0.005 \
            >"$tmp/got" 2>"$tmp/err" &
        pid=$!
        ms=$(( 20 + $(rnd 150) ))
        sleep "0.$(printf %03d $ms)"
        if kill -9 $pid 2>/dev/null; then
            kills=$((kills + 1))
        fi
        wait $pid 2>/dev/null
        i=$((i + 1))
    done
    "$B" "$@" --checkpoint "$tmp/ck" >"$tmp/got" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ] || ! same "$tmp/want" "$tmp/got"; then
        echo "FAIL $name: status $rc after $kills kills (seed $seed)"
        sed 's/^/  stderr: /' "$tmp/err"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
    # and once more from the finished checkpoint
    "$B" "$@" --checkpoint "$tmp/ck" >"$tmp/got" 2>"$tmp/err"
    if ! same "$tmp/want" "$tmp/got"; then
        echo "FAIL $name: a finished checkpoint gives another output"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

# Officers: values (JSON, every value) on one and on two threads
killed officers-1 grundy --game officers --upto 200000 --json --threads 1
killed officers-2 grundy --game officers --upto 200000 --json --threads 2
# a proof: the resumed run takes the steps of the uninterrupted one
killed prove-0.16 grundy --game octal:0.16 --until-proved --no-values --json

# refused: another game, other options, a damaged file, a foreign file
"$B" grundy --game kayles --upto 5000 --checkpoint "$tmp/k" >/dev/null
bad other-game 'belongs to another run' -- grundy --game dawsons-kayles \
    --upto 5000 --checkpoint "$tmp/k"
bad other-upto 'belongs to another run' -- grundy --game kayles \
    --upto 6000 --checkpoint "$tmp/k"
size=$(wc -c <"$tmp/k")
# one byte of the values changed
cp "$tmp/k" "$tmp/bad"
printf '\377' | dd of="$tmp/bad" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
bad damaged 'damaged' -- grundy --game kayles --upto 5000 --checkpoint "$tmp/bad"
head -c $((size - 3)) "$tmp/k" >"$tmp/short"
bad truncated 'damaged' -- grundy --game kayles --upto 5000 --checkpoint "$tmp/short"
echo "not a checkpoint" >"$tmp/foreign"
bad foreign 'not a checkpoint' -- grundy --game kayles --upto 5000 \
    --checkpoint "$tmp/foreign"
# a method state that its values do not give (the count of sparse
# positions one more, the checksum made right): the refusal shows both
# counts, the field that differs (it printed the mask twice, alike)
if command -v python3 >/dev/null 2>&1; then
    "$B" grundy --game kayles --upto 5000 --method rare --no-values \
        --checkpoint "$tmp/rk" >"$tmp/out"
    n=$(sed -n 's/^method: rare (mask 15, \([0-9]*\) sparse.*/\1/p' "$tmp/out")
    python3 - "$tmp/rk" "$tmp/rk-bad" <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
# the count of sparse positions: after the spec, until, n, method, values,
# goal and the mask (grundy_run.c)
at = 16 + struct.unpack_from("<I", d, 12)[0] + 4 + 8 + 4 + 8 + 8 + 4
struct.pack_into("<Q", d, at, struct.unpack_from("<Q", d, at)[0] + 1)
h = 14695981039346656037
for b in d[:-8]:
    h = ((h ^ b) * 1099511628211) % (1 << 64)
struct.pack_into("<Q", d, len(d) - 8, h)
open(sys.argv[2], "wb").write(d)
EOF
    bad rare-state "(rare, mask 15, $((n + 1)) sparse positions) is not what its values give (rare, mask 15, $n sparse positions)" \
        -- grundy --game kayles --upto 5000 --method rare --no-values \
        --checkpoint "$tmp/rk-bad"
fi
bad every-alone 'goes with --checkpoint' -- grundy --game kayles --upto 5 \
    --checkpoint-every 3
bad every-bad 'expected seconds' -- grundy --game kayles --upto 5 \
    --checkpoint "$tmp/x" --checkpoint-every -1
bad threads-zero 'threads' -- grundy --game kayles --upto 5 --threads 0

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
