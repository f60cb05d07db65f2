#!/bin/sh
# `serve --store DIR` over loopback: sh store.sh PATH-TO-bouton
#
# A server with a store keeps the quotients its requests prove (a misère
# /v1/analyze of a huge heap, /v1/quotient with "until_proved"), and a
# server started later reads them back, checked, at startup: its analysis
# says the quotient "was read from a saved file" (nothing learnt), with
# the same answer.  A damaged entry costs one warning at startup and the
# server still starts; BOUTON_STORE=off or --no-store: nothing written.
# About 0.3 s of CPU.
set -u
bouton=$1
. "$(dirname "$0")/lib/server.sh"
unset BOUTON_STORE
has() {
    checks=$((checks + 1))
    case $body in *"$1"*) ;; *) fail "$2: no '$1' in: $body" ;; esac
}
hasnt() {
    checks=$((checks + 1))
    case $body in *"$1"*) fail "$2: '$1' in: $body" ;; esac
}
stop() {
    kill "$pid"
    wait "$pid" 2>/dev/null
    pid=""
    rm -f "$tmp/out" "$tmp/body" # the next start_server reads a new address
}
S=$tmp/store
pos='octal:0.53 1000000000001 + octal:0.53 17 + octal:0.53 5'
areq="{\"position\":\"$pos\",\"misere\":true,\"explain\":true}"

# the first server learns and keeps 0.53 (analysis) and 0.75 (quotient)
start_server --store "$S"
post /v1/analyze "$areq"
hasnt 'read from a saved file' "first server: learnt"
first=$body
post /v1/quotient '{"game":"octal:0.75","until_proved":true}'
has '"proved":true' "quotient until_proved"
stop
checks=$((checks + 1))
[ -f "$S/octal%3A0.53.quotient" ] && [ -f "$S/octal%3A0.75.quotient" ] ||
    fail "entries not written: $(ls "$S" 2>&1)"
checks=$((checks + 1))
"$bouton" store verify --store "$S" >/dev/null 2>&1 || fail "the entries do not verify"

# the second reads them back: nothing learnt, the same answer
start_server --store "$S"
post /v1/analyze "$areq"
has 'read from a saved file' "second server: read back"
checks=$((checks + 1))
# (the explanation and the quotient's facts say how it was had)
unexplained() {
    printf '%s' "$1" | sed 's/"quotient":{[^}]*},//; s/"explanation":"[^"]*"//'
}
[ "$(unexplained "$body")" = "$(unexplained "$first")" ] ||
    fail "the answer differs: $body / $first"
post /v1/analyze '{"position":"octal:0.75 999999 4","misere":true,"explain":true}'
has 'read from a saved file' "0.75 read back"
stop

# a damaged entry: one warning, the server starts and learns again
head -c 300 "$S/octal%3A0.53.quotient" >"$tmp/t" && mv "$tmp/t" "$S/octal%3A0.53.quotient"
start_server --store "$S"
checks=$((checks + 1))
grep -q "warning: the store's entry .*octal%3A0.53.quotient' is ignored" "$tmp/log" ||
    fail "no warning for a truncated entry: $(cat "$tmp/log")"
post /v1/analyze "$areq"
hasnt 'read from a saved file' "truncated entry: not trusted"
stop
checks=$((checks + 1))
"$bouton" store verify --store "$S" >/dev/null 2>&1 ||
    fail "the truncated entry was not replaced by the one learnt"

# no store: --no-store, BOUTON_STORE=off; nothing read, nothing written
for how in "--no-store" "BOUTON_STORE=off"; do
    if [ "$how" = --no-store ]; then start_server --no-store --store "$tmp/n"
    else BOUTON_STORE=off start_server; fi
    post /v1/analyze '{"position":"octal:0.75 999999 4","misere":true,"explain":true}'
    hasnt 'read from a saved file' "$how: the store read"
    stop
done
checks=$((checks + 1))
[ ! -e "$tmp/n" ] || fail "--no-store wrote"

if [ $fails -ne 0 ]; then
    echo "store.sh: $fails of $checks checks failed" >&2
    exit 1
fi
echo "store.sh: all $checks checks passed"
