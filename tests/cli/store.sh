#!/bin/sh
# CLI tests of the store of proved results (docs/store.md):
#   - a proved quotient written by `quotient --until-proved` and by
#     `analyze --misere`, read back by a second process, which learns
#     nothing: its explanation says the quotient "was read from a saved
#     file", the first one's does not, and the answers are the same;
#   - where the store is: --store DIR, BOUTON_STORE, $XDG_CACHE_HOME/bouton,
#     ~/.cache/bouton; BOUTON_STORE=off and --no-store write nothing;
#   - heaps of at most 26 counters: the store is not looked up;
#   - every kind of damaged entry (truncated, a tampered digit, another
#     game's entry under this name, empty, a directory or a symbolic link
#     in its place) ignored with one warning, the answer computed again
#     and the same, and a damaged file replaced by a good entry;
#   - two processes writing the same entry at once: both succeed, the
#     entry is valid, no temporary file is left;
#   - a store that cannot be written (a file where its directory should
#     be, a read-only directory, as nobody when run as root): the command
#     answers, with one warning at most;
#   - entries computed to a heap past 26, not proved: kept, read back,
#     replaced only by one computed further or proved (a forged "proved"
#     header does not keep its entry);
#   - `store list`, `store verify` (exit 1 on a bad entry), `store clear`.
# Uses 0.53 (proved at heap 63 in about 10 ms), 0.75 and Kayles; about
# 1.5 s of CPU.
# Usage: sh store.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"
unset BOUTON_STORE
export XDG_CACHE_HOME="$tmp/cache"

ok() { pass=$((pass + 1)); }
no() { echo "FAIL $*"; fail=$((fail + 1)); }
saved() { grep -q 'read from a saved file' "$1"; }

pos='octal:0.53 1000000000001 17 5'
entry=octal%3A0.53.quotient
# the answer without a store, and without its explanation
"$B" analyze --misere --no-store "$pos" >"$tmp/want"

# ---------------------------------------------- written, then read back
S=$tmp/cache/bouton
"$B" analyze --misere --explain "$pos" >"$tmp/out1" 2>"$tmp/err1"
"$B" analyze --misere --explain "$pos" >"$tmp/out2" 2>"$tmp/err2"
if [ -f "$S/$entry" ] && ! saved "$tmp/out1" && saved "$tmp/out2" &&
    [ ! -s "$tmp/err1" ] && [ ! -s "$tmp/err2" ]; then ok; else
    no "analyze: first learns and writes $S/$entry, second reads it"
    ls -la "$S" 2>&1; cat "$tmp/err1" "$tmp/err2"
fi
"$B" analyze --misere "$pos" >"$tmp/out3"
cmp -s "$tmp/want" "$tmp/out3" || no "the stored quotient's answer differs"
# move and the JSON analysis through it too
"$B" move --misere --no-store "$pos" >"$tmp/m1"
"$B" move --misere "$pos" >"$tmp/m2" 2>"$tmp/err"
cmp -s "$tmp/m1" "$tmp/m2" && [ ! -s "$tmp/err" ] || no "move through the store"
"$B" analyze --misere --json "$pos" | grep -q '"outcome":"N"' ||
    no "analyze --json through the store"

# quotient --until-proved writes; the entry is what --save writes
"$B" quotient --game octal:0.75 --until-proved --store "$tmp/s2" \
    --save "$tmp/q75" >/dev/null
cmp -s "$tmp/q75" "$tmp/s2/octal%3A0.75.quotient" ||
    no "quotient --until-proved: the entry is not the saved quotient"
"$B" analyze --misere --explain --store "$tmp/s2" 'octal:0.75 999999 4' \
    >"$tmp/out" 2>"$tmp/err"
saved "$tmp/out" && [ ! -s "$tmp/err" ] || no "--store DIR read back"
# not proved: nothing written
"$B" quotient --game kayles --upto 10 --store "$tmp/s3" >/dev/null
[ ! -e "$tmp/s3" ] || no "an unproved quotient was stored"
# BOUTON_STORE=DIR, =off, --no-store
BOUTON_STORE=$tmp/s4 "$B" quotient --game octal:0.53 --until-proved >/dev/null
[ -f "$tmp/s4/$entry" ] || no "BOUTON_STORE=DIR not written"
BOUTON_STORE=off "$B" analyze --misere --explain 'octal:0.75 999999 4' \
    >"$tmp/out"
saved "$tmp/out" && no "BOUTON_STORE=off read the store"
XDG_CACHE_HOME=$tmp/c5 BOUTON_STORE=off "$B" quotient --game octal:0.53 \
    --until-proved >/dev/null
XDG_CACHE_HOME=$tmp/c5 "$B" quotient --game octal:0.53 --until-proved \
    --no-store >/dev/null
[ ! -e "$tmp/c5" ] || no "BOUTON_STORE=off or --no-store wrote"
# ~/.cache/bouton without XDG_CACHE_HOME (or with a relative one)
XDG_CACHE_HOME=relative HOME=$tmp/home "$B" quotient --game octal:0.53 \
    --until-proved >/dev/null
[ -f "$tmp/home/.cache/bouton/$entry" ] || no "~/.cache/bouton not used"
# the name escapes the rules: no ':' or ',' in it, and its game listed
"$B" quotient --game sub:2,3 --until-proved --store "$tmp/s6" >/dev/null
n=$(ls "$tmp/s6")
case $n in
sub%3A2%2C3.quotient) ok ;;
*) no "entry name '$n' for sub:2,3" ;;
esac

# --------------------------------------------------- damaged entries
good=$tmp/good
cp "$S/$entry" "$good"
# damage NAME: each damaged entry is ignored with one warning naming it,
# the answer is computed again (not read) and the same
damage() {
    "$B" analyze --misere --explain "$pos" >"$tmp/out" 2>"$tmp/err"
    "$B" analyze --misere "$pos" --no-store >/dev/null
    if ! saved "$tmp/out" && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
        grep -q "warning: the store's entry '.*$entry' is ignored" "$tmp/err" &&
        "$B" analyze --misere "$pos" 2>/dev/null | cmp -s - "$tmp/want"; then
        ok
    else
        no "damaged entry ($1): $(cat "$tmp/err")"
    fi
}
# after: a damaged file is replaced by the recomputed, good entry
replaced() {
    if cmp -s "$S/$entry" "$good"; then ok; else no "not replaced ($1)"; fi
}
head -c $(($(wc -c <"$good") / 2)) "$good" >"$S/$entry"
damage truncated
replaced truncated
# one digit of the multiplication table changed
awk 'BEGIN { t = 0 } /^table$/ { t = 1; print; next }
     t == 1 { sub(/^[0-9]/, $1 == "1" ? "2" : "1"); t = 2 } { print }' \
    "$good" >"$S/$entry"
cmp -s "$good" "$S/$entry" && no "the tampering changed nothing"
damage tampered
replaced tampered
sed 's/^period .*/period 9 20/' "$good" >"$S/$entry"
damage "a false period"
"$B" quotient --game octal:0.75 --until-proved --save "$S/$entry" >/dev/null
damage "another game's entry"
grep -q 'quotient of octal:0.75' "$tmp/err" || no "foreign: $(cat "$tmp/err")"
replaced foreign
: >"$S/$entry"
damage empty
replaced empty
rm "$S/$entry" && mkdir "$S/$entry"
damage directory
# a position of small heaps does not look the store up (learnt as fast)
"$B" analyze --misere 'octal:0.53 26 3' >/dev/null 2>"$tmp/err"
[ -s "$tmp/err" ] && no "small heaps looked the store up: $(cat "$tmp/err")"
[ -d "$S/$entry" ] || no "a directory in the entry's place was replaced"
rmdir "$S/$entry"
cp "$good" "$tmp/elsewhere" && ln -s "$tmp/elsewhere" "$S/$entry"
damage "symbolic link"
[ -L "$S/$entry" ] || no "a symbolic link in the entry's place was replaced"
rm "$S/$entry"
"$B" analyze --misere "$pos" >/dev/null
replaced "the link removed"

# ------------------------------------ two writers of one entry at once
i=0
while [ $i -lt 4 ]; do
    rm -rf "$tmp/s7"
    "$B" quotient --game octal:0.53 --until-proved --store "$tmp/s7" \
        >/dev/null 2>"$tmp/e1" &
    a=$!
    "$B" analyze --misere "$pos" --store "$tmp/s7" >/dev/null 2>"$tmp/e2" &
    b=$!
    wait $a; ra=$?
    wait $b; rb=$?
    if [ $ra -eq 0 ] && [ $rb -eq 0 ] && [ ! -s "$tmp/e1" ] &&
        [ ! -s "$tmp/e2" ] && [ "$(ls "$tmp/s7")" = "$entry" ] &&
        cmp -s "$tmp/s7/$entry" "$good"; then ok; else
        no "two writers: $ra $rb $(ls "$tmp/s7") $(cat "$tmp/e1" "$tmp/e2")"
    fi
    i=$((i + 1))
done

# ------------------------------------------ a store that cannot be written
: >"$tmp/afile"
for d in "$tmp/afile" "$tmp/afile/sub"; do
    "$B" analyze --misere --store "$d" "$pos" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$tmp/out" "$tmp/want" &&
        [ "$(wc -l <"$tmp/err")" -le 1 ]; then ok; else
        no "store '$d' not a directory: status $rc, $(cat "$tmp/err")"
    fi
done
# a read-only directory: root writes anyway, so as root the command runs
# as nobody (setpriv), when it can reach the program
mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
as=""
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
    as="setpriv --reuid=65534 --regid=65534 --clear-groups"
    chmod 755 "$tmp"
fi
if [ "$(id -u)" -ne 0 ] || { [ -n "$as" ] && $as "$B" --version >/dev/null 2>&1; }; then
    # shellcheck disable=SC2086 # $as is a command and its options
    $as "$B" analyze --misere --store "$tmp/ro" "$pos" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$tmp/out" "$tmp/want" &&
        [ "$(wc -l <"$tmp/err")" -le 1 ] && [ -z "$(ls "$tmp/ro")" ]; then ok; else
        no "read-only store: status $rc, $(cat "$tmp/err")"
    fi
else
    echo "store.sh: the read-only directory is not checked (root, no setpriv)"
fi
chmod 755 "$tmp/ro"
chmod 700 "$tmp"

# ------------------------------ entries computed to a heap, not proved
# kept past heap 26, replaced only by one that says more (further, or
# proved), a forged header replaced; read back by the analysis (Kayles,
# whose quotient to 29 and proof take about 0.3 s of CPU)
K=$tmp/s7
ke=octal%3A0.77.quotient
upto_of() { sed -n 's/^upto //p' "$K/$ke"; }
"$B" quotient --game kayles --upto 28 --store "$K" >/dev/null
[ "$(upto_of)" = 28 ] || no "a quotient to heap 28 was not stored"
"$B" quotient --game kayles --upto 27 --store "$K" >/dev/null
[ "$(upto_of)" = 28 ] || no "an entry to 28 replaced by one to 27"
"$B" analyze --misere --explain --store "$K" 'kayles 28 5' >"$tmp/out" \
    2>"$tmp/err"
saved "$tmp/out" && [ ! -s "$tmp/err" ] ||
    no "the entry to 28 not read back: $(cat "$tmp/err")"
"$B" analyze --misere --no-store 'kayles 28 5' >"$tmp/a1"
"$B" analyze --misere --store "$K" 'kayles 28 5' >"$tmp/a2"
cmp -s "$tmp/a1" "$tmp/a2" || no "the entry to 28 answers otherwise"
"$B" quotient --game kayles --upto 29 --store "$K" >/dev/null
[ "$(upto_of)" = 29 ] || no "an entry to 28 not replaced by one to 29"
sed 's/^period none$/period 2 5/' "$K/$ke" >"$tmp/forged" &&
    cp "$tmp/forged" "$K/$ke"
"$B" quotient --game kayles --upto 30 --store "$K" >/dev/null
[ "$(upto_of)" = 30 ] || no "a forged 'proved' header kept its entry"
"$B" quotient --game kayles --until-proved --store "$K" >/dev/null
grep -q '^period 12 71$' "$K/$ke" || no "a proved quotient did not replace one to 30"
"$B" quotient --game kayles --upto 40 --store "$K" >/dev/null
grep -q '^period 12 71$' "$K/$ke" || no "a proved entry replaced by one to 40"
"$B" store list --store "$K" | grep -q 'to heap 169, period 12' ||
    no "store list of the proved entry"

# ------------------------------------------------ store list|verify|clear
"$B" store list >"$tmp/out" 2>"$tmp/err"
if grep -q "^user store: *$S\$" "$tmp/out" &&
    grep -q '^user  *octal:0.53  misère quotient, to heap 63, period 9, preperiod 21' "$tmp/out" &&
    [ ! -s "$tmp/err" ]; then ok; else no "store list: $(cat "$tmp/out" "$tmp/err")"; fi
"$B" store verify >"$tmp/out" 2>&1 && grep -q ': ok$' "$tmp/out" ||
    no "store verify: $(cat "$tmp/out")"
cp "$tmp/q75" "$S/$entry"
"$B" store verify >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "$entry: bad: .*octal:0.75" "$tmp/out" &&
    grep -q '1 bad entry' "$tmp/err"; then ok; else
    no "store verify of a foreign entry: status $rc, $(cat "$tmp/out" "$tmp/err")"
fi
: >"$S/octal%3A0.75.quotient.tmp.AbC123"
"$B" store clear >"$tmp/out" 2>&1 || no "store clear: $(cat "$tmp/out")"
[ -z "$(ls "$S")" ] || no "store clear left $(ls "$S")"
"$B" store list | grep -q '^user  ' && no "store list after clear"
bad store-action 'unknown action' -- store remove
bad store-empty-dir 'empty directory' -- analyze --misere --store '' 'kayles 3'
BOUTON_STORE=off "$B" store list | grep -q '^no store' ||
    no "store list with BOUTON_STORE=off"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
