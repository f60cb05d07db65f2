#!/bin/sh
# POST /v1/quotient over loopback: sh quotient.sh PATH-TO-bouton
#
# The answer is byte for byte what `bouton quotient --json` prints with the
# same limits; bad requests get 4xx with the error's name.
#
# `serve --quotient FILE`: the server checks saved misère quotients at
# startup (a tampered one: exit 2 and one line, no server), and its
# analyses use them: POST /v1/analyze of heaps of 10^12 counters answers
# byte for byte what `bouton analyze --misere --json --quotient FILE`
# prints, and the explanation says the quotient was read from a file.
set -u
bouton=$1
. "$(dirname "$0")/lib/server.sh"
expect() {
    checks=$((checks + 1))
    [ "$status" = "$1" ] || fail "$2: status $status, expected $1: $body"
}
has() {
    checks=$((checks + 1))
    case $body in *"$1"*) ;; *) fail "$2: no '$1' in: $body" ;; esac
}
same_as() {
    what=$1
    shift
    checks=$((checks + 1))
    "$bouton" quotient --max-search 200000 "$@" >"$tmp/cli" 2>"$tmp/cli.err" ||
        { fail "$what: bouton quotient $* failed: $(cat "$tmp/cli.err")"; return; }
    cmp -s "$tmp/body" "$tmp/cli" ||
        fail "$what: server and CLI differ:
  server: $body
  cli:    $(cat "$tmp/cli")"
}

"$bouton" quotient --game octal:0.75 --until-proved --save "$tmp/q75" >/dev/null &&
    "$bouton" quotient --game sub:1-3 --until-proved --save "$tmp/s13" >/dev/null ||
    { echo "FAIL: cannot save the quotients" >&2; exit 1; }
sed 's/^p 1 4$/p 1 5/' "$tmp/q75" >"$tmp/pbit"
# a tampered file: the server does not start
checks=$((checks + 1))
"$bouton" serve --port 0 --quotient "$tmp/s13" --quotient "$tmp/pbit" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
    grep -q "pbit': not the misère quotient of octal:0.75" "$tmp/err" ||
    fail "tampered file: status $rc, stderr: $(cat "$tmp/err")"
checks=$((checks + 1))
[ -s "$tmp/out" ] && fail "tampered file: the server started: $(cat "$tmp/out")"

start_server --max-search 200000 --time-budget 20000 \
    --quotient "$tmp/q75" --quotient "$tmp/s13"

post /v1/quotient '{"game":"kayles","upto":9}'
expect 200 "quotient kayles"
has '"order":18' "kayles to 9: order 18"
same_as "quotient kayles" --json --game kayles --upto 9
post /v1/quotient '{"game":"nim","upto":3,"table":true}'
expect 200 "quotient nim table"
has '"tame":true' "nim is tame"
same_as "quotient nim table" --json --table --game nim --upto 3
post /v1/quotient '{"game":"wythoff"}'
expect 400 "wythoff is not a heap game"
has 'EINVAL' "wythoff: EINVAL"
post /v1/quotient '{"upto":3}'
expect 400 "no game"
post /v1/quotient '{"game":"octal:0.75","until_proved":true}'
expect 200 "quotient 0.75 until proved"
has '"proved":true' "0.75 is proved periodic"
same_as "quotient 0.75 until proved" --json --game octal:0.75 --until-proved
post /v1/quotient '{"game":"kayles","until_proved":true,"upto":20}'
expect 422 "kayles not proved by heap 20"
has 'not proved periodic' "kayles: not proved"
post /v1/quotient '{"game":"kayles + dawsons-kayles","upto":5}'
expect 200 "quotient of a union"
has '"games":["octal:0.07","octal:0.77"]' "the union's games"
same_as "quotient of a union" --json --game "kayles + dawsons-kayles" --upto 5
post /v1/quotient '{"game":"kayles + sub:1-3","until_proved":true}'
expect 400 "a union is not proved"
post /v1/quotient '{"game":"kayles + octal:0.9"}'
expect 400 "a union with a bad game"
has 'EPARSE' "a bad game: EPARSE"
post /v1/quotient '{"game":"kayles","bogus":1}'
expect 400 "unknown member"

# the analysis through the loaded quotients
pos='octal:0.75 1000000000000 + octal:0.75 7 + octal:0.75 5'
post /v1/analyze "{\"position\":\"$pos\",\"misere\":true}"
expect 200 "analyze 0.75 10^12"
"$bouton" analyze --json --misere --max-search 200000 --quotient "$tmp/q75" "$pos" >"$tmp/cli" 2>&1
checks=$((checks + 1))
cmp -s "$tmp/body" "$tmp/cli" ||
    fail "analyze: server and CLI differ:
  server: $body
  cli:    $(cat "$tmp/cli")"
has '"winning_moves_complete":false' "a window of the huge heap's splits"
has '"winning_moves_note":"a heap past the max_search limit' "the note"
post /v1/analyze "{\"position\":\"$pos\",\"misere\":true,\"explain\":true}"
expect 200 "analyze 0.75 10^12, explained"
has 'read from a saved file and checked exactly' "the loaded quotient answers"
post /v1/analyze '{"position":"sub:1-3 1000000000000 999999999999 6","misere":true,"explain":true}'
expect 200 "analyze sub:1-3 10^12"
has 'read from a saved file' "sub:1-3's loaded quotient answers"

kill "$pid"
wait "$pid" 2>/dev/null
pid=""
if [ $fails -ne 0 ]; then
    echo "quotient.sh: $fails of $checks checks failed" >&2
    exit 1
fi
echo "quotient.sh: all $checks checks passed"
