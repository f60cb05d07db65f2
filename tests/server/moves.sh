#!/bin/sh
# API test of POST /v1/moves (every legal move with the value it leaves):
# sh moves.sh PATH-TO-bouton
#
# Checks the answers against the rules computed here: in Nim a move wins
# (leaves a P-position) exactly when the piles it leaves have nim-sum 0
# (Bouton, Theorem I and II); in the subtraction game {1,2,3} exactly when
# the heap it leaves is a multiple of 4.  Every legal move is listed once.
# Then the limit and bad input.
set -u
bouton=$1
. "$(dirname "$0")/lib/server.sh"

start_server

# post BODY: sets $status and $body
post() {
    printf '%s' "$1" >"$tmp/req"
    status=$(curl -s -o "$tmp/body" -w '%{http_code}' -X POST \
        -H 'Content-Type: application/json' --data-binary @"$tmp/req" \
        "${url}v1/moves")
    body=$(cat "$tmp/body")
}

# One line per move: "COMPONENT TO OUTCOME" (TO with commas).
moves() {
    printf '%s\n' "$body" | sed 's/},{/}\n{/g' |
        sed -n 's/.*"component":\([0-9]*\),"to":\[\([^]]*\)\].*"outcome":"\([PN]\)".*/\1 \2 \3/p' |
        tr -d '"'
}

# nim PILE...: every move of Nim is listed, valued as the nim-sum says.
nim() {
    post "{\"position\":\"$*\"}"
    checks=$((checks + 1))
    [ "$status" = 200 ] || { fail "nim $*: status $status: $body"; return; }
    moves >"$tmp/moves"
    want=0
    for p in "$@"; do want=$((want + p)); done
    got=$(wc -l <"$tmp/moves")
    [ "$got" -eq "$want" ] || fail "nim $*: $got moves listed, $want legal"
    while read -r comp to outcome; do
        s=0
        k=1
        for p in "$@"; do
            [ $k -eq "$comp" ] && p=$to
            s=$((s ^ p))
            k=$((k + 1))
        done
        [ $s -eq 0 ] && w=P || w=N
        checks=$((checks + 1))
        [ "$outcome" = "$w" ] || fail "nim $*: pile $comp to $to left $outcome, want $w"
    done <"$tmp/moves"
}

nim 3 4 5
nim 1 2 3
nim 7 7
nim 9 5 12
nim 1

post '{"game":"sub:1-3","position":["13"]}'
moves >"$tmp/moves"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/moves")" -eq 3 ] || fail "sub 13: $(cat "$tmp/moves")"
while read -r comp to outcome; do
    [ $((to % 4)) -eq 0 ] && w=P || w=N
    checks=$((checks + 1))
    [ "$outcome" = "$w" ] || fail "sub 13 -> $to: $outcome, want $w"
done <"$tmp/moves"

# remoteness: a decimal string or null, never a bare number
post '{"position":"3 4 5"}'
checks=$((checks + 1))
case $body in *'"remoteness":"'[0-9]*) ;; *) fail "remoteness as a string: $body" ;; esac
case $body in *'"remoteness":'[0-9]*) fail "remoteness as a number: $body" ;; esac

post '{"position":"0 0"}'
checks=$((checks + 1))
[ "$status" = 200 ] && [ "$body" = '{"misere":false,"moves":[]}' ] ||
    fail "no move: $status $body"

post '{"position":"nim 300"}'
checks=$((checks + 1))
[ "$status" = 422 ] && case $body in *ELIMIT*"300 moves"*) true ;; *) false ;; esac ||
    fail "300 moves: $status $body"

post '{"position":"3 4 5","colour":"red"}'
checks=$((checks + 1))
[ "$status" = 400 ] || fail "unknown member: $status $body"

post '{"position":"3 x"}'
checks=$((checks + 1))
[ "$status" = 400 ] || fail "bad position: $status $body"

if [ $fails -ne 0 ]; then
    echo "moves.sh: $fails of $checks checks failed" >&2
    exit 1
fi
echo "moves.sh: all $checks checks passed"
