#!/bin/sh
# The games of the structured form of a position (issue 26): sh
# json_games.sh PATH-TO-bouton
#
# Terms given as JSON objects, {"game": ..., "position": [...]}, share one
# game per canonical spec within a request, as the position language does:
# 60 000 terms of Kayles (named "kayles" and "octal:0.77" in turn) are one
# game, not 60 000 games each with its own Grundy sequence (which the
# analysis refused, 422, past the request's memory); and the distinct
# games of one position are bounded by the library's max_games (1 000),
# with the text parser's code and a message naming the limit.
#
# Starts the server on a free loopback port (127.0.0.1), sends each request
# with curl (bounded by --max-time), and stops it with SIGTERM.  CPU: the
# 60 000 terms take about 1 s of the server's in a release build (the body
# is 2.9 MB of JSON), the others well under 1 s each; the wall-time bounds
# (a 60 s time budget, curl's 120 s) leave room for a sanitizer build on a
# busy machine.
set -u
bouton=$1
. "$(dirname "$0")/lib/server.sh"

# post FILE: POST /v1/analyze with the body in FILE; sets $status, $body.
post() {
    status=$(curl -s --max-time 120 -o "$tmp/body" -w '%{http_code}' \
        -X POST -H 'Content-Type: application/json' \
        --data-binary @"$1" "${url}v1/analyze")
    body=$(head -c 300 "$tmp/body")
}

expect() {
    checks=$((checks + 1))
    [ "$status" = "$1" ] || fail "$2: status $status, expected $1: $body"
}

# has TEXT DESCRIPTION: the last answer contains TEXT.
has() {
    checks=$((checks + 1))
    grep -qF -- "$1" "$tmp/body" || fail "$2: no '$1' in: $body..."
}

# terms N GAME-OF-I: a body of N object terms of one pile of 5, term i
# (from 1) of the game that the awk expression GAME-OF-I makes of i.
terms() {
    awk -v n="$1" 'BEGIN { printf "{\"position\":["
        for (i = 1; i <= n; i++)
            printf "%s{\"game\":\"%s\",\"position\":[\"5\"]}",
                (i > 1 ? "," : ""), '"$2"'
        print "]}" }'
}

start_server --max-body 4194304 --request-memory 268435456 \
    --time-budget 60000 --quiet
case $url in http://127.0.0.1:*/) ;; *) fail "address line: $url" ;; esac

# 60 000 heaps of 10^12 of Kayles, under two names in turn: one game, one
# Grundy sequence; the sum of 60 000 equal values is P (it was a 422: the
# Grundy sequences of about 4 000 distinct games past the request's 256 MB)
awk 'BEGIN { printf "{\"position\":["
    for (i = 1; i <= 60000; i++)
        printf "%s{\"game\":\"%s\",\"position\":[\"1000000000000\"]}",
            (i > 1 ? "," : ""), (i % 2 ? "kayles" : "octal:0.77")
    print "]}" }' >"$tmp/kayles.json"
post "$tmp/kayles.json"
expect 200 "60 000 terms of Kayles under two names"
has '"game":"octal:0.77","misere":false' "60 000 terms: one game"
has '"outcome":"P"' "60 000 equal values: P"

# 1 000 distinct games are allowed; 1 001 stop at max_games, as the text
# parser stops (it answered, making a game per term)
terms 1000 '"sub:" i' >"$tmp/g1000.json"
post "$tmp/g1000.json"
expect 200 "1 000 distinct games"
has '"outcome":' "1 000 distinct games: analysed"
terms 1001 '"sub:" i' >"$tmp/g1001.json"
post "$tmp/g1001.json"
expect 422 "1 001 distinct games"
has '"code":"ELIMIT"' "1 001 distinct games: ELIMIT"
has 'position[1000]: more than 1000 distinct games in one position (the max_games limit)' \
    "1 001 distinct games: the term and the limit named"
# names of one game count once: 998 subtraction games, "kayles" and
# "octal:0.77" (one game) and "octal:0.770" (the same) are 999 games
terms 1001 '(i <= 998 ? "sub:" i : i == 999 ? "kayles" : i == 1000 ? "octal:0.77" : "octal:0.770")' \
    >"$tmp/aliases.json"
post "$tmp/aliases.json"
expect 200 "aliases count once"

# the text form says the same
awk 'BEGIN { printf "{\"position\":\""
    for (i = 1; i <= 1001; i++) printf "%ssub:%d 5", (i > 1 ? " + " : ""), i
    print "\"}" }' >"$tmp/text1001.json"
post "$tmp/text1001.json"
expect 422 "1 001 distinct games in a text"
has 'distinct games in one position (the max_games limit)' \
    "1 001 distinct games in a text: the limit named"

# the shared games change no answer: a small mixed sum, byte for byte the
# CLI's answer to its text
printf '%s' '{"position":[{"game":"kayles","position":["3","4"]},{"game":"octal:0.77","position":["5"]},{"game":"sub:1-3","position":["2"]},{"game":"kayles","position":["6"]}]}' \
    >"$tmp/mixed.json"
post "$tmp/mixed.json"
expect 200 "a mixed sum"
checks=$((checks + 1))
"$bouton" analyze --json 'kayles 3 4 + octal:0.77 5 + sub:1-3 2 + kayles 6' \
    >"$tmp/cli" 2>&1
cmp -s "$tmp/body" "$tmp/cli" ||
    fail "a mixed sum: server and CLI differ:
  server: $(cat "$tmp/body")
  cli:    $(cat "$tmp/cli")"

# the server still answers
printf '%s' '{"position":"3 4 5"}' >"$tmp/small.json"
post "$tmp/small.json"
expect 200 "a plain request after the others"

kill "$pid"
wait "$pid" 2>/dev/null
pid=""
if [ "$fails" -gt 0 ]; then
    echo "json_games.sh: $fails of $checks checks failed"
    exit 1
fi
echo "json_games.sh: all $checks checks passed"
