#!/bin/sh
# CLI tests of the files bouton writes (issue 26): play --save, quotient
# --save, grundy --checkpoint and census --output never replace what is
# not a regular file (a device through a symbolic link, a FIFO, a
# directory: exit 2, one line, checked before anything is opened, so a
# FIFO never blocks); a symbolic link to a file is followed (the file
# replaced, the link kept); a save keeps the file's permissions; and a
# write that fails (a tiny `ulimit -f`, SIGXFSZ ignored: EFBIG, a real
# failure that works as root) exits 1 with one line and leaves the old
# file as it was, with no temporary file beside it.  About 10 s.
# Usage: sh files.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

# is NAME TEST-ARGS...: `test TEST-ARGS` holds
is() {
    name=$1
    shift
    if test "$@"; then
        pass=$((pass + 1))
    else
        echo "FAIL $name: not test $*"
        fail=$((fail + 1))
    fi
}

# no_temp NAME: no temporary file left in $tmp/d
no_temp() {
    if ls "$tmp/d" | grep -q '\.tmp'; then
        echo "FAIL $1: a temporary file is left: $(ls "$tmp/d" | tr '\n' ' ')"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

# limited FILE-BLOCKS NAME WANT-PATTERN -- ARGS...: runs ARGS under
# `ulimit -f FILE-BLOCKS` (stdout to /dev/null, no limit there; stderr to
# a fresh file, small) with SIGXFSZ ignored, so that writing a file past
# the limit fails with EFBIG; wants exit 1 and one line matching PATTERN
limited() {
    blocks=$1 name=$2 pattern=$3
    shift 4
    (
        trap '' XFSZ
        ulimit -f "$blocks"
        exec timeout 60 "$B" "$@"
    ) </dev/null >/dev/null 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -ne 1 ] || [ "$lines" -ne 1 ] ||
        ! grep -q -- "$pattern" "$tmp/err"; then
        echo "FAIL $name: status $rc, $lines stderr lines (want 1, 1)"
        sed 's/^/  stderr: /' "$tmp/err"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

mkdir "$tmp/d"
ln -s /dev/null "$tmp/d/null"
mkfifo "$tmp/d/fifo"
mkdir "$tmp/d/dir"

# ---- targets that are not regular files: refused, left as they were
for t in null fifo dir; do
    bad quotient-$t 'not a regular file: refused' -- \
        quotient --game kayles --upto 20 --save "$tmp/d/$t"
    bad play-$t 'not a regular file: refused' -- \
        play --save "$tmp/d/$t" 1 2 3
    bad checkpoint-$t 'not a regular file: refused' -- \
        grundy --game kayles --upto 100 --checkpoint "$tmp/d/$t"
    bad census-$t 'not a regular file: refused' -- \
        census --codes 0.1d --upto 100 --output "$tmp/d/$t"
done
is null-kept -L "$tmp/d/null"
is null-target-kept -c /dev/null
is fifo-kept -p "$tmp/d/fifo"
is dir-kept -d "$tmp/d/dir"
ln -s "$tmp/d/missing" "$tmp/d/dangling"
bad dangling 'link to a missing file' -- \
    quotient --game kayles --upto 20 --save "$tmp/d/dangling"
is dangling-kept -L "$tmp/d/dangling"
no_temp refused-no-temp

# ---- a link to a regular file: the file is replaced, the link kept
"$B" quotient --game kayles --upto 20 --save "$tmp/d/q" >/dev/null
ln -s q "$tmp/d/lq"
"$B" quotient --game octal:0.07 --upto 20 --save "$tmp/d/lq" >/dev/null
rc=$?
is link-status "$rc" -eq 0
is link-kept -L "$tmp/d/lq"
if grep -q '^game octal:0.07' "$tmp/d/q"; then
    pass=$((pass + 1))
else
    echo "FAIL link-target: the file the link names was not replaced"
    fail=$((fail + 1))
fi

# ---- the permissions of the file replaced are kept
chmod 640 "$tmp/d/q"
"$B" quotient --game kayles --upto 20 --save "$tmp/d/q" >/dev/null
mode=$(ls -l "$tmp/d/q" | cut -c1-10)
is mode-kept "$mode" = "-rw-r-----"

# ---- a failed write leaves the old file intact
# play: a game of 20 piles of 80 digits makes a record of over 1600 bytes,
# past 1 block (512 bytes; 1024 in some shells)
printf 'quit\n' | "$B" play --save "$tmp/d/game.txt" 1 2 3 >/dev/null 2>&1
cp "$tmp/d/game.txt" "$tmp/game.orig"
big=$(awk 'BEGIN { for (i = 0; i < 20; i++) {
    s = ""; for (j = 0; j < 80; j++) s = s (j % 9 + 1); printf "%s ", s } }')
# shellcheck disable=SC2086
limited 1 play-efbig "cannot save the game: --save '$tmp/d/game.txt'" -- \
    play --save "$tmp/d/game.txt" $big
is play-intact "$(cmp "$tmp/d/game.txt" "$tmp/game.orig" && echo same)" = same
no_temp play-no-temp
# the game's "save FILE" command too
# (stdout through a pipe: the limit is on files)
printf 'save %s\nquit\n' "$tmp/d/game.txt" |
    (trap '' XFSZ; ulimit -f 1; exec "$B" play --save "$tmp/d/other.txt" $big) \
    2>/dev/null | cat >"$tmp/out"
if grep -q "Cannot save: --save '$tmp/d/game.txt'" "$tmp/out"; then
    pass=$((pass + 1))
else
    echo "FAIL play-save-command: no refusal said"
    fail=$((fail + 1))
fi
is play-save-command-intact \
    "$(cmp "$tmp/d/game.txt" "$tmp/game.orig" && echo same)" = same
rm -f "$tmp/d/other.txt"

# quotient: kayles to 200 is some 20 kB
cp "$tmp/d/q" "$tmp/q.orig"
limited 2 quotient-efbig "--save '$tmp/d/q': cannot write it (File too large)" \
    -- quotient --game kayles --upto 200 --save "$tmp/d/q"
is quotient-intact "$(cmp "$tmp/d/q" "$tmp/q.orig" && echo same)" = same
no_temp quotient-no-temp

# checkpoint: kayles to 5000 is 10 kB of values; the finished run, started
# again, rewrites its checkpoint at the end: under the limit that fails
"$B" grundy --game kayles --upto 5000 --checkpoint "$tmp/d/ck" >/dev/null
cp "$tmp/d/ck" "$tmp/ck.orig"
limited 4 checkpoint-efbig "--checkpoint '$tmp/d/ck': cannot write it" -- \
    grundy --game kayles --upto 5000 --checkpoint "$tmp/d/ck"
is checkpoint-intact "$(cmp "$tmp/d/ck" "$tmp/ck.orig" && echo same)" = same
no_temp checkpoint-no-temp

# census --output: an append-only log; the line that crosses the limit is
# taken back, the lines before stay, and a run without the limit finishes
# with exactly the output of an uninterrupted run
"$B" census --codes 0.dd --upto 200 --no-time >"$tmp/census.want"
limited 1 census-efbig "--output '$tmp/d/census': cannot write it" -- \
    census --codes 0.dd --upto 200 --no-time --output "$tmp/d/census"
n=$(wc -c <"$tmp/d/census")
if [ "$n" -gt 0 ] && [ "$(tail -c 1 "$tmp/d/census" | od -An -c | tr -d ' ')" = '\n' ] &&
    [ "$(head -c "$n" "$tmp/census.want" | cmp - "$tmp/d/census" && echo same)" = same ]; then
    pass=$((pass + 1))
else
    echo "FAIL census-whole-lines: $n bytes, not whole lines of the output"
    tail -c 100 "$tmp/d/census" | od -c | tail -3 | sed 's/^/  /'
    fail=$((fail + 1))
fi
"$B" census --codes 0.dd --upto 200 --no-time --output "$tmp/d/census" \
    >/dev/null 2>"$tmp/err"
is census-resumed "$(cmp "$tmp/d/census" "$tmp/census.want" && echo same)" = same

# census --output onto a file that is not a census's output: refused,
# the file left as it was (appending, or cutting its last line, spoils it)
printf 'notes\nno newline at the end' >"$tmp/d/notes"
cp "$tmp/d/notes" "$tmp/notes.orig"
bad census-foreign 'is not the output of bouton census' -- \
    census --codes 0.1d --upto 100 --output "$tmp/d/notes"
is census-foreign-intact "$(cmp "$tmp/d/notes" "$tmp/notes.orig" && echo same)" = same
bad census-json-mixed 'is not the output of bouton census --json' -- \
    census --codes 0.1d --upto 100 --json --output "$tmp/d/census"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
