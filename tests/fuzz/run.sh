#!/bin/sh
# Builds the libFuzzer harness on the server's request parsing and runs it
# for a fixed number of inputs:  sh tests/fuzz/run.sh [RUNS] [WORK-DIR]
#
# RUNS defaults to 50000 (seconds, after a build of about 15 s); WORK-DIR
# keeps the binary, the corpus and any crash (default: a temporary
# directory, removed unless the run found something).
# Needs clang (scripts/deps.sh test installs it).  Exits non-zero on a
# finding, printing the input that caused it.
set -eu
runs=${1:-50000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -ge 2 ]; then
    work=$2
else
    work=$(mktemp -d)
    # a temporary directory goes unless it holds a finding
    trap 'rc=$?; [ $rc -eq 0 ] && rm -rf "$work"; [ $rc -eq 0 ] || echo "fuzz/run.sh: the finding is in $work" >&2' EXIT
fi
mkdir -p "$work/corpus"
command -v clang >/dev/null 2>&1 || {
    echo "fuzz/run.sh: skipped: clang is not installed" >&2
    exit 77
}

# The page's files are not needed; json.c, ops.c, cli.c (what json.c
# prints through) and the API's files are.
flags="-std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
# shellcheck disable=SC2086
clang $flags -I"$root/include" -I"$root/src" \
    -I"$root/programs/server" -I"$root/programs/common" \
    -o "$work/fuzz_request" "$here/fuzz_request.c" \
    "$root/programs/server"/server_api*.c "$root/programs/common"/*.c \
    "$root/src"/*/*.c \
    $(pkg-config --cflags --libs gmp jansson) -lm

# Seeds: the first byte picks the target (below 32: the position language;
# 32 + i: endpoint i of fuzz_request.c's list, as POST).
# position-language seeds: a first byte below 32
pos() {
    { printf '\001'; printf '%s' "$1"; } >"$work/corpus/seed-$2"
}
# request seeds: the first byte ' ' + i picks endpoint i
req() {
    printf '%s%s' "$1" "$2" >"$work/corpus/seed-$3"
}
pos 'nim 3 4 5 + kayles 10 + wythoff 3 5 + sub:1-3 13' p1
pos 'wythoff:2 4 10, 1 2' p2
pos 'octal:0.137 9 + grundys-game 12' p3
pos '123456789012345678901234567890 7' p4
req ' ' '{"game":"nim","misere":false,"position":["3","4","5"]}' a1
req ' ' '{"position":"nim 3 4 5 + kayles 10","explain":true}' a2
req ' ' '{"position":[{"game":"kayles","position":["10","12"]},["1"],2]}' a3
req '!' '{"position":"9 5 12","level":"easy","seed":"7"}' m1
req '"' '{"game":"nim","piles":3,"below":"16","cursor":"1,2","limit":5}' t1
req '"' '{"game":"wythoff","below":"40","min":"3"}' t2
req '#' '{"piles":3,"min":"1","max":"15","ordered":true}' c1
req '$' '{"game":"kayles","upto":50}' g1
req '$' '{"game":"wythoff","below":5}' g2
req '%' '{"game":"wythoff:2","n":"10"}' r1
req '%' '{"index_of":"10","misere":true}' r2
req '&' '{"position":"wythoff 3 5"}' s1
req "'" '{"record":"(41,163,13) -A-> (25,163,13) -B-> (25,19,13)"}' s2
req '*' '{"expression":"(2*3 + inv(5))^-7 + sqrt(0x10)","explain":true}' n1
req '*' '{"expression":"log(0x100000007, order(12345) * 7)"}' n2
req ' ' '{"a\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9":1}' u1
req ' ' '{"position":"3 ééééééééééééééééééééééééééééééééééééé😀"}' u2

cat >"$work/dict" <<'DICT'
"\"position\""
"\"game\""
"\"misere\""
"\"explain\""
"\"level\""
"\"seed\""
"\"piles\""
"\"below\""
"\"min\""
"\"max\""
"\"cursor\""
"\"limit\""
"\"upto\""
"\"until_proved\""
"\"no_values\""
"\"index_of\""
"\"record\""
"\"ordered\""
"true"
"false"
"null"
"nim"
"wythoff:"
"sub:"
"octal:0."
"kayles"
"grundys-game"
" + "
"-A-> "
"\"expression\""
"inv("
"sqrt("
"order("
"log("
"^-"
"0x"
DICT

cd "$work"
./fuzz_request -runs="$runs" -max_len=1024 -timeout=10 -rss_limit_mb=2048 \
    -dict="$work/dict" -print_final_stats=1 "$work/corpus"

# The second harness: records and positions, valid but heavy, under a small
# budget of memory and time (fuzz_record.c); FUZZ_RECORD_SECONDS (default
# 20) of inputs.
# shellcheck disable=SC2086
clang $flags -I"$root/include" -I"$root/src" \
    -o "$work/fuzz_record" "$root/tests/fuzz/fuzz_record.c" "$root/src"/*/*.c \
    $(pkg-config --cflags --libs gmp) -lm
mkdir -p "$work/corpus_record"
seed2() {
    { printf '%s' "$1"; printf '%s' "$2"; } >"$work/corpus_record/seed-$3"
}
seed2 '0' 'game: nim
(41,163,13) -A-> (25,163,13) -B-> (25,19,13)' r1
seed2 '0' 'game: kayles
rules: misere
(20) -A-> (9,9) -B-> (4,4,9)' r2
seed2 '0' 'game: wythoff
(3000,4000) -A-> (3000,3999)' r3
seed2 '1' 'octal:4.37 6000' p1
seed2 '1' 'kayles 1 29429 6 2' p2
seed2 '1' 'grundys-game 3000 + wythoff:2 1000 1500' p3
seed2 '1' 'sub:1-3 100000000 + nim 1 2' p4
seed2 '1' 'wythoff 40 50, 31 20, 17 9, 44 12, 3 5' p5
# saved quotients (the first byte 'Q'): 0.75 proved, Nim to 1
seed2 'Q' 'bouton-quotient 1
game octal:0.75
upto 23
order 8
period 2 8
p 1 4
heaps 0 1 2 1 2 7 2 7 2 5 2 5 2 5 2 5 2 5 2 5 2 5 2 5
table
0 1 2 3 4 5 6 7
1 0 3 2 5 4 7 6
2 3 4 5 2 3 2 3
3 2 5 4 3 2 3 2
4 5 2 3 4 5 4 5
5 4 3 2 5 4 5 4
6 7 2 3 4 5 4 5
7 6 3 2 5 4 5 4
end
' q1
seed2 'Q' 'bouton-quotient 1
game nim
upto 1
order 2
period none
p 1
heaps 0 1
table
0 1
1 0
end
' q2
./fuzz_record -max_total_time="${FUZZ_RECORD_SECONDS:-20}" -max_len=512 \
    -timeout=10 -rss_limit_mb=1024 -dict="$work/dict" -print_final_stats=1 \
    "$work/corpus_record"
