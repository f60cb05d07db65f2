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
# the values on disk in the engine's width: one byte each for 0.354 (every
# value below 256), two for Officers (from heap 10344 on); a file of
# version 1 (no width, two bytes a value: before the engine kept one) is
# still read and gives the same output; a width other than 1 or 2 is
# refused
killed narrow-0.354 grundy --game octal:0.354 --upto 200000 --json --threads 2
if command -v python3 >/dev/null 2>&1; then
    for game in octal:0.354 officers; do
        "$B" grundy --game $game --upto 20000 --json >"$tmp/want"
        rm -f "$tmp/w"
        "$B" grundy --game $game --upto 20000 --json --checkpoint "$tmp/w" \
            >/dev/null
        python3 - "$tmp/w" "$tmp/w1" "$tmp/w3" >"$tmp/width" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
def fnv(b):
    h = 14695981039346656037
    for x in b:
        h = ((h ^ x) * 1099511628211) % (1 << 64)
    return h
# the count, then the header up to the method's name and the width
# (grundy_run.c)
spec = 16 + struct.unpack_from("<I", d, 12)[0]
count = struct.unpack_from("<Q", d, spec + 16)[0]
at = spec + 4 + 8 + 4 + 8 + 8 + 4 + 8
at += 4 + struct.unpack_from("<I", d, at)[0]
width = struct.unpack_from("<I", d, at)[0]
vals = d[at + 4:len(d) - 8]
print(width, len(vals) == width * count)
if width == 1:
    vals = b"".join(struct.pack("<H", v) for v in vals)
v1 = bytearray(d[:at] + vals)
struct.pack_into("<I", v1, 8, 1)
open(sys.argv[2], "wb").write(bytes(v1) + struct.pack("<Q", fnv(v1)))
w3 = bytearray(d[:-8])
struct.pack_into("<I", w3, at, 3)
open(sys.argv[3], "wb").write(bytes(w3) + struct.pack("<Q", fnv(w3)))
EOF
        case $game in officers) w="2 True" ;; *) w="1 True" ;; esac
        if [ "$(cat "$tmp/width")" != "$w" ]; then
            echo "FAIL width-$game: width and size $(cat "$tmp/width"), not $w"
            fail=$((fail + 1))
        else
            pass=$((pass + 1))
        fi
        "$B" grundy --game $game --upto 20000 --json --checkpoint "$tmp/w1" \
            >"$tmp/got" 2>"$tmp/err"
        if [ $? -ne 0 ] || ! same "$tmp/want" "$tmp/got"; then
            echo "FAIL version-1-$game: a version 1 file does not resume"
            sed 's/^/  stderr: /' "$tmp/err"
            fail=$((fail + 1))
        else
            pass=$((pass + 1))
        fi
        bad width-3-$game 'damaged' -- grundy --game $game --upto 20000 \
            --json --checkpoint "$tmp/w3"
    done
fi
bad every-alone 'goes with --checkpoint' -- grundy --game kayles --upto 5 \
    --checkpoint-every 3
bad every-bad 'expected seconds' -- grundy --game kayles --upto 5 \
    --checkpoint "$tmp/x" --checkpoint-every -1
bad threads-zero 'threads' -- grundy --game kayles --upto 5 --threads 0

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
