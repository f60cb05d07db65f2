#!/bin/sh
# API tests of `bouton serve`: sh api.sh PATH-TO-bouton
#
# Starts the server on a free loopback port with small limits, checks every
# endpoint (answers compared byte for byte with the CLI's --json where the
# CLI has the command), every error code and every limit with curl, checks
# that the server keeps answering, and stops it with SIGTERM.
set -u
bouton=$1
. "$(dirname "$0")/lib/server.sh"

# req METHOD PATH [BODY]: sets $status, $body (the answer) and $headers.
req() {
    if [ $# -ge 3 ]; then
        printf '%s' "$3" >"$tmp/req"
        status=$(curl -s -o "$tmp/body" -D "$tmp/headers" -w '%{http_code}' \
            -X "$1" -H 'Content-Type: application/json' \
            --data-binary @"$tmp/req" "$url${2#/}")
    else
        status=$(curl -s -o "$tmp/body" -D "$tmp/headers" -w '%{http_code}' \
            -X "$1" "$url${2#/}")
    fi
    body=$(cat "$tmp/body")
    headers=$(cat "$tmp/headers")
}

# expect STATUS DESCRIPTION: the last answer had this status.
expect() {
    checks=$((checks + 1))
    [ "$status" = "$1" ] || fail "$2: status $status, expected $1: $body"
}

# has TEXT DESCRIPTION: the last answer contains TEXT.
has() {
    checks=$((checks + 1))
    case $body in *"$1"*) ;; *) fail "$2: no '$1' in: $body" ;; esac
}

header() {
    checks=$((checks + 1))
    printf '%s\n' "$headers" | tr -d '\r' | grep -qi "^$1" ||
        fail "$2: no header '$1' in: $headers"
}

# same_as DESCRIPTION COMMAND CLI-ARGS...: the last answer is what the CLI
# prints, given the server's limits.
same_as() {
    what=$1
    cmd=$2
    shift 2
    checks=$((checks + 1))
    "$bouton" "$cmd" --max-piles 50 --max-digits 100 --max-search 5000 \
        "$@" >"$tmp/cli" 2>"$tmp/cli.err" ||
        { fail "$what: bouton $* failed: $(cat "$tmp/cli.err")"; return; }
    cmp -s "$tmp/body" "$tmp/cli" ||
        fail "$what: server and CLI differ:
  server: $body
  cli:    $(cat "$tmp/cli")"
}

# --------------------------------------------------------------- start

"$bouton" serve --help | grep -q -- '--time-budget' || fail "serve --help"
"$bouton" serve --port 70000 2>/dev/null && fail "--port 70000 accepted"
"$bouton" serve --bogus 2>/dev/null && fail "--bogus accepted"

start_server --max-body 4096 --max-piles 50 --max-digits 100 \
    --max-search 5000 --max-page 10 --max-values 500 --time-budget 2000
case $url in http://127.0.0.1:*/) ;; *) fail "address line: $url" ;; esac

# ------------------------------------------------------------ the page

req GET /
expect 200 "GET /"
has '<title>bouton' "GET / is the play page"
header 'Content-Type: text/html' "GET / type"
etag=$(printf '%s\n' "$headers" | tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
status=$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$url")
expect 304 "GET / revalidated with its ETag"
for f in index.html analyze.html app.js analyze.js common.js app.css favicon.svg; do
    req GET "/$f"
    expect 200 "GET /$f"
done
req GET /app.js
header 'Content-Type: text/javascript' "app.js type"
header 'Content-Security-Policy:' "the page has a CSP"
req HEAD /app.css
expect 200 "HEAD /app.css"
req GET /nothing.html
expect 404 "unknown file"
has '"code":"ENOTFOUND"' "404 code"
req POST /index.html '{}'
expect 405 "POST to a file"
header 'Allow: GET, HEAD' "Allow of a file"

# ------------------------------------------------------------- analyze

req POST /v1/analyze '{"game":"nim","misere":false,"position":["3","4","5"]}'
expect 200 "analyze 3 4 5"
same_as "analyze 3 4 5 (structured)" analyze --json 3 4 5
header 'Content-Type: application/json' "analyze type"
req POST /v1/analyze '{"position":"3 4 5"}'
same_as "analyze 3 4 5 (text)" analyze --json 3 4 5
req POST /v1/analyze '{"position":[3,4,5]}'
same_as "analyze 3 4 5 (JSON numbers)" analyze --json 3 4 5
req POST /v1/analyze '{"position":"nim 3 4 5 + kayles 4"}'
expect 200 "analyze a sum"
same_as "analyze a sum" analyze --json 'nim 3 4 5 + kayles 4'
req POST /v1/analyze '{"position":[{"game":"nim","position":["3","4","5"]},{"game":"kayles","position":["4"]}]}'
same_as "analyze a sum (structured)" analyze --json 'nim 3 4 5 + kayles 4'
req POST /v1/analyze '{"game":"wythoff","position":[["4","6"]]}'
same_as "analyze wythoff (pair array)" analyze --json --game wythoff 4 6
req POST /v1/analyze '{"game":"wythoff:2","position":["4","10"]}'
same_as "analyze wythoff:2" analyze --json --game wythoff:2 4 10
req POST /v1/analyze '{"position":"9 5 12","misere":true}'
same_as "analyze misere" analyze --json --misere 9 5 12
req POST /v1/analyze '{"position":"41 163 13","explain":true}'
same_as "analyze --explain" analyze --json --explain 41 163 13
# Misère heap games (the page's hint shows this "Why"): the explanation
# through the misère quotient, as the CLI's, with each heap's element, and
# POST /v1/moves values every move, here from the quotient (no search:
# the remoteness of Kayles 40 31 17 is past the budget).
for g in 'kayles 5 3 2' 'grundy 7 5' 'sub:1-3 7 5' 'dawsons-kayles 9 4'; do
    req POST /v1/analyze "{\"position\":\"$g\",\"misere\":true,\"explain\":true}"
    expect 200 "analyze --misere --explain $g"
    has 'through the mis\u00E8re quotient Q of' "the quotient explained: $g"
    has 'Each heap is an element of Q: heap' "each heap's element: $g"
    same_as "analyze --misere --explain $g" analyze --json --misere --explain --no-store $g
done
# The quotient's reasoning as data (issue 21, item 5): "quotient" (its
# game, bound, order, P, the position's element), each heap's "element"
# and the element each winning move leaves, in /v1/analyze (the CLI's
# --json, byte for byte) and in /v1/moves; checked against the quotient
# that `bouton quotient --table` computes apart, and against the
# explanation's text.
if command -v python3 >/dev/null 2>&1; then
    for g in 'kayles 7 5 4' 'dawsons-kayles 9 6 4'; do
        req POST /v1/analyze "{\"position\":\"$g\",\"misere\":true,\"explain\":true}"
        expect 200 "analyze --misere --explain $g"
        has '"quotient":{"game":"octal:0.' "the quotient's facts: $g"
        has '"element":"' "the heaps' elements: $g"
        same_as "analyze --misere --explain $g (the quotient's facts)" \
            analyze --json --misere --explain --no-store $g
        cp "$tmp/body" "$tmp/analysis"
        req POST /v1/moves "{\"position\":\"$g\",\"misere\":true}"
        expect 200 "misère move values of $g"
        checks=$((checks + 1))
        python3 "$(dirname "$0")/lib/misere_check.py" "$bouton" \
            "$tmp/analysis" "$tmp/body" >"$tmp/check" 2>&1 ||
            fail "the quotient of $g, checked apart: $(cat "$tmp/check")"
    done
else
    echo "api.sh: no python3: the quotient's elements are not checked apart" >&2
fi
# The computer's move carries them too: the position's quotient, and the
# element its move leaves, in P (the position is N).
req POST /v1/move '{"position":"kayles 7 5 4","misere":true}'
expect 200 "move misère kayles 7 5 4"
has '"quotient":{"game":"octal:0.77"' "the computer's move: the quotient"
same_as "move misère kayles 7 5 4 (the quotient's facts)" \
    move --json --misere --no-store --game kayles 7 5 4
if command -v python3 >/dev/null 2>&1; then
    checks=$((checks + 1))
    printf '%s' "$body" | python3 -c '
import json, sys
m = json.load(sys.stdin)
sys.exit(0 if m["outcome"] == "N" and m["element"] in m["quotient"]["p"] else 1)' ||
        fail "the computer's move leaves an element outside P: $body"
fi
# No quotient member where no quotient answered: misère Nim (Bouton's
# rule), normal play.
req POST /v1/analyze '{"position":"nim 3 4 5","misere":true}'
checks=$((checks + 1))
case $body in *'"quotient"'*) fail "misère Nim: a quotient: $body" ;; esac
req POST /v1/analyze '{"position":"kayles 7 5 4"}'
checks=$((checks + 1))
case $body in *'"element"'*) fail "normal play: an element: $body" ;; esac
req POST /v1/moves '{"position":"kayles 40 31 17","misere":true}'
expect 200 "misère move values of Kayles 40 31 17"
checks=$((checks + 1))
printf '%s' "$body" | grep -q '"outcome":null' &&
    fail "misère Kayles 40 31 17: a move without its value: $body"
has '"outcome":"P"' "misère Kayles 40 31 17: a winning move"
big=123456789012345678901234567890123456789012345678901234567890
req POST /v1/analyze "{\"position\":[\"$big\",\"$big\",\"1\"]}"
same_as "analyze a 60-digit pile" analyze --json "$big" "$big" 1
has '"winning_moves":[{"component":3,"to":["0"]' "60-digit winning move"
req POST /v1/analyze '{"position":""}'
expect 200 "the empty position"
has '"outcome":"P"' "the empty position is P"

# --------------------------------------------------------------- parse

req POST /v1/parse '{"position":"nim 3 4 + wythoff 3 5"}'
expect 200 "parse"
has '"components":[{"game":"nim","position":["3"]},{"game":"nim","position":["4"]},{"game":"wythoff","position":["3","5"]}]' "parse components"

# ---------------------------------------------------------------- move

req POST /v1/move '{"position":"3 4 5"}'
expect 200 "move"
same_as "move 3 4 5" move --json 3 4 5
req POST /v1/move '{"position":"9 5 12","level":"easy","seed":"7"}'
same_as "move easy seed 7" move --json --level easy --seed 7 9 5 12
req POST /v1/move '{"game":"wythoff","position":["4","6"],"misere":true}'
same_as "move wythoff misere" move --json --game wythoff --misere 4 6
req POST /v1/move '{"position":"0 0"}'
expect 422 "move from a finished game"
has '"code":"EUNDEF"' "move from a finished game"
req POST /v1/move '{"position":"3","level":"godlike"}'
expect 400 "unknown level"

# --------------------------------------------------------------- table

# Page through the whole table with the cursor: it must be the CLI's table.
"$bouton" table --json --piles 3 --below 16 >"$tmp/cli-table"
cursor=""
: >"$tmp/pages"
pages=0
while :; do
    if [ -z "$cursor" ]; then
        req POST /v1/table '{"game":"nim","piles":3,"below":"16"}'
    else
        req POST /v1/table "{\"game\":\"nim\",\"piles\":3,\"below\":\"16\",\"cursor\":\"$cursor\"}"
    fi
    expect 200 "table page $pages"
    pages=$((pages + 1))
    printf '%s' "$body" | sed 's/.*"rows":\[\(.*\)\],"next":.*/\1/' |
        sed 's/\],\[/]\
[/g' >>"$tmp/pages"
    echo >>"$tmp/pages"
    cursor=$(printf '%s' "$body" | sed -n 's/.*"next":"\([0-9,]*\)".*/\1/p')
    [ -n "$cursor" ] || break
    [ $pages -lt 100 ] || { fail "table: endless pages"; break; }
done
checks=$((checks + 1))
cmp -s "$tmp/pages" "$tmp/cli-table" ||
    fail "table pages differ from the CLI's table: $(diff "$tmp/pages" "$tmp/cli-table")"
[ $pages -eq 6 ] || fail "table: $pages pages of at most 10 rows for 51 rows"
req POST /v1/table '{"game":"nim","piles":3,"below":"16","cursor":"3","limit":2}'
has '"rows":[["3","4","7"],["3","5","6"]],"next":"3,5,6"' "table: a prefix cursor"
req POST /v1/table '{"game":"wythoff","below":"30","min":"5"}'
has '"rows":[["6","10"],["8","13"],["9","15"],["11","18"],["12","20"],["14","23"],["16","26"],["17","28"]],"next":null' "wythoff table"
req POST /v1/table '{"game":"nim","piles":3,"below":"16","limit":11}'
expect 422 "table: a page over --max-page"
has '"code":"ELIMIT"' "table page limit"
req POST /v1/table '{"game":"nim","piles":3,"below":"16","cursor":"1,x"}'
expect 400 "table: a bad cursor"
req POST /v1/table '{"game":"nim","below":"16"}'
expect 400 "table: piles missing"

# ------------------------------------------------- analyze random starts

# "random_starts" is `analyze --random-starts`, byte for byte (the member
# the table of operations found missing, issue 22)
req POST /v1/analyze '{"random_starts":true}'
expect 200 "random starts"
has '"starts":"3375","first_player_wins":"3165"' "random starts of 3 piles to 15"
same_as "random starts" analyze --json --random-starts
req POST /v1/analyze '{"random_starts":true,"piles":5,"max":"100","misere":true}'
expect 200 "random starts, misere"
same_as "random starts, misere, 5 piles to 100" analyze --json --random-starts \
    --misere --piles 5 --max 100
req POST /v1/analyze '{"random_starts":true,"game":"kayles"}'
expect 400 "random starts of kayles"
has 'counts Nim positions only' "random starts of kayles: why"
req POST /v1/analyze '{"random_starts":true,"position":"1 2"}'
expect 400 "random starts with a position"
req POST /v1/analyze '{"random_starts":true,"max":"0"}'
expect 400 "random starts to 0"
has '\"max\" 0' "random starts to 0: names max"
req POST /v1/analyze '{"position":"1 2","piles":3}'
expect 400 "piles without random starts"

# --------------------------------------------------------------- count

req POST /v1/count '{"piles":3,"min":"1","max":"15"}'
expect 200 "count"
has '"positions":"680","p_positions":"35","probability":"7/136"' "Bouton sec. 3"
same_as "count" count --json --piles 3 --min 1 --max 15
req POST /v1/count '{"piles":"4","below":"8","ordered":true,"misere":true}'
same_as "count ordered misere" count --json --piles 4 --below 8 --ordered --misere
req POST /v1/count '{"piles":3,"min":"9","max":"2"}'
expect 400 "count: min > max"
req POST /v1/count '{"piles":3,"max":"2","below":"3"}'
expect 400 "count: max and below"
# the command's rules, checked by the same code: 0 piles is the empty
# position; an empty range is refused with the command's sentence
req POST /v1/count '{"piles":0,"max":"3"}'
same_as "count of 0 piles" count --json --piles 0 --max 3
req POST /v1/count '{"piles":3,"min":"9","below":"9"}'
expect 400 "count: an empty range"
has '\"min\" 9 is not below \"below\" 9: the range is empty' "count: range"
# Moore's Nim: ordered tuples (every column of 3 piles 0..7 all 0 or all 1)
req POST /v1/count '{"game":"moore:2","piles":3,"max":"7","ordered":true}'
expect 200 "count moore"
has '"game":"moore:2","piles":"3"' "count: the game leads a count of another game than Nim"
has '"positions":"512","p_positions":"8"' "count moore:2: 2^3 of 8^3"
same_as "count moore" count --json --game moore:2 --piles 3 --max 7 --ordered
req POST /v1/count '{"game":"moore:3","piles":5,"min":"1","below":"20","ordered":true,"misere":true}'
same_as "count moore misere" count --json --game moore:3 --piles 5 --min 1 --below 20 --ordered --misere
req POST /v1/count '{"game":"moore:2","piles":4,"max":"9"}'
expect 200 "count moore: multisets"
same_as "count moore multisets" count --json --game moore:2 --piles 4 --max 9
req POST /v1/count '{"game":"kayles","piles":3,"max":"7","ordered":true}'
expect 422 "count: a game with no count"

# -------------------------------------------------------------- grundy

req POST /v1/grundy '{"game":"kayles","upto":20}'
expect 200 "grundy kayles"
# Kayles, G(0..19): Winning Ways ch. 4 (OEIS A002186).
has '"values":[0,1,2,3,1,4,3,2,1,4,2,6,4,1,2,7,1,4,3,2]' "kayles values"
same_as "grundy kayles" grundy --json --game kayles --upto 20
req POST /v1/grundy '{"game":"kayles","until_proved":true,"no_values":true}'
expect 200 "grundy kayles until proved"
has '"period":12,"preperiod":71,"proved":true' "kayles period"
same_as "grundy kayles until proved" grundy --json --game kayles --until-proved --no-values
req POST /v1/grundy '{"game":"sub:1-3","upto":8}'
has '"values":[0,1,2,3,0,1,2,3]' "take 1-3: multiples of four are P"
req POST /v1/grundy '{"game":"wythoff","below":4}'
has '"rows":[[0,1,2,3],[1,2,0,4],[2,0,1,5],[3,4,5,6]]' "wythoff grundy table"
same_as "grundy wythoff" grundy --json --game wythoff --below 4
req POST /v1/grundy '{"game":"kayles","upto":501}'
expect 422 "grundy: values over --max-values"
req POST /v1/grundy '{"game":"wythoff","below":23}'
expect 422 "grundy: a table over --max-values"
req POST /v1/grundy '{"game":"nim","upto":5}'
expect 422 "grundy of nim"

# ---------------------------------------------------------------- pair

req POST /v1/pair '{"game":"wythoff","n":"2"}'
has '"pair":["3","5"]' "pair 2"
req POST /v1/pair '{"game":"wythoff:2","n":"10"}'
expect 200 "pair wythoff:2"
same_as "pair wythoff:2 10" pair --game wythoff:2 --json 10
req POST /v1/pair '{"index_of":"10"}'
has '"x":"10","n":"4","member":"upper","pair":["6","10"]' "index of 10"
same_as "pair --index-of 10" pair --json --index-of 10
req POST /v1/pair '{"n":"3","misere":true}'
same_as "pair misere 3" pair --json --misere 3
req POST /v1/pair "{\"n\":\"$big\"}"
expect 200 "pair of a 60-digit n"
req POST /v1/pair '{"game":"nim","n":"1"}'
expect 400 "pair of nim"
req POST /v1/pair '{"n":"1","index_of":"1"}'
expect 400 "pair: n and index_of"

# -------------------------------------------------------------- nimber

req POST /v1/nimber '{"expression":"2*2"}'
expect 200 "nimber 2*2"
has '"value":"3"' "nimber: 2*2 = 3 (F*F = 3F/2)"
same_as "nimber 2*2" nimber --json '2*2'
req POST /v1/nimber '{"expression":"8*8 + inv(2)","explain":true}'
expect 200 "nimber explained"
has '"value":"14"' "nimber: 8*8 + inv(2) = 13 + 3"
same_as "nimber --explain" nimber --json --explain '8*8 + inv(2)'
req POST /v1/nimber '{"expression":"log(2^0x20 + 7, (2^32+7)^12345)"}'
same_as "nimber log" nimber --json 'log(2^0x20 + 7, (2^32+7)^12345)'
req POST /v1/nimber '{"expression":"2 * (3"}'
expect 400 "nimber: an unclosed parenthesis"
has '"code":"EPARSE"' "nimber: EPARSE"
has 'at byte 7' "nimber: the byte at fault"
req POST /v1/nimber '{"expression":"inv(0)"}'
expect 400 "nimber: inv(0)"
req POST /v1/nimber '{"expression":"log(2, 16)"}'
expect 422 "nimber: no logarithm"
has '"code":"EUNDEF"' "nimber: no logarithm is EUNDEF"
req POST /v1/nimber '{"expression":"order(18446744073709551616)"}'
expect 422 "nimber: an order past 2^64"
req POST /v1/nimber "{\"expression\":\"$big * $big $big\"}"
expect 400 "nimber: a number after a number"
req POST /v1/nimber "{\"expression\":\"1${big}${big}\"}"
expect 422 "nimber: a number over --max-digits"
deep=$(printf '(%.0s' $(seq 1 201))
req POST /v1/nimber "{\"expression\":\"${deep}1\"}"
expect 422 "nimber: nested too deep"
req POST /v1/nimber '{"expr":"1"}'
expect 400 "nimber: an unknown member"
req POST /v1/nimber '{}'
expect 400 "nimber: no expression"

# -------------------------------------------------------------- record

req POST /v1/record '{"record":"(41,163,13) -A-> (25,163,13) -B-> (25,19,13)"}'
expect 200 "record"
has '"positions":[{"position":"nim 41 163 13"' "record start"
has '"player":"B"' "record players"
has '"to_move":"A","winner":null' "record: A to move"
req POST /v1/record '{"record":"(3,4,5) -A-> (3,4,6)"}'
expect 400 "record: an illegal move"

# ---------------------------------------------------------------- GETs

req GET /v1/games
expect 200 "games"
for g in nim wythoff sub octal; do has "\"name\":\"$g\"" "games lists $g"; done
has '"kayles"' "games lists the aliases"
has '"name":"moore","syntax":"moore:K"' "games lists moore (from its ruleset)"
has '"arity":0' "games: moore's variable arity"
has '"arity":2' "games: wythoff's arity"
has '"name":"moore","syntax":"moore:K","title":"Moore' "games: each family's title"
has '"example":"sub:1-3"' "games: each family's example"
for g in turtles mock-turtles ruler twins corners; do
    has "\"name\":\"$g\",\"syntax\":\"$g\"" "games lists the coin game $g"
done
has '"named":[{"game":"octal:0.77","family":"octal","title":"Octal game","arity":1,"rules":"Kayles:' \
    "games: a named game with its canonical text and rules"
req POST /v1/game '{"game":"dawsons-kayles"}'
expect 200 "game: a named game"
has '"game":"octal:0.07","family":"octal"' "game: the canonical text of a named game"
# The rules are the library's words: the same as bouton play shows.
req POST /v1/game '{"game":"sub:1-3,7"}'
has '"rules":"Subtraction game: take 1, 2, 3 or 7 counters from one heap."' \
    "game: rules worded from the parameters"
cli=$(printf 'quit\n' | "$bouton" play --game sub:1-3,7 --save "$tmp/g.txt" 2>/dev/null |
    sed -n 's/^Game: sub:1-3,7 -- //p')
has "\"rules\":\"$cli\"" "game: the rules bouton play shows"
req POST /v1/game '{"game":"moore:3"}'
has '"game":"moore:3","family":"moore","title":"Moore' "game: moore"
has '"arity":0' "game: variable arity"
# a coin game: one component of the heads, its winning moves by value
req POST /v1/analyze '{"position":"mock-turtles 1 4 7"}'
expect 200 "analyze: mock turtles"
has '"grundy":"4"' "analyze: mock turtles, the nim-sum of the odious values 2, 8, 14"
has '"to":["1","3","4","6"],"text":"turn coin 7 to tails and coins 3, 6 over"' \
    "analyze: a mock turtles move of three coins"
req POST /v1/analyze '{"game":"corners","position":["3","5","6","2"]}'
expect 200 "analyze: turning corners"
has '"grundy":"4"' "analyze: corners, 3 nim-times 5 = 15 plus 6 nim-times 2 = 11"
req POST /v1/game '{"game":"tartan:turtles*ruler"}'
has '"rules":"Tartan product turtles x ruler:' "game: a tartan's rules from its games"
# how to draw a game: the board of its family, and a coin game's numbering
has '"rules":"Tartan product turtles x ruler:' "game: a tartan's rules (again)"
has '"board":"grid","first_coin":[1,1]}' "game: a tartan's board, coins from 1 as turtles and ruler number them"
req POST /v1/game '{"game":"corners"}'
has '"board":"grid","first_coin":[0,0]}' "game: turning corners on a grid from (0,0)"
req POST /v1/game '{"game":"mock-turtles"}'
has '"board":"row","first_coin":[0]}' "game: mock turtles on a row from coin 0"
req POST /v1/game '{"game":"ruler"}'
has '"board":"row","first_coin":[1]}' "game: ruler on a row from coin 1"
req POST /v1/game '{"game":"kayles"}'
has '"board":"piles"}' "game: kayles drawn as piles"
case $body in *first_coin*) fail "game: piles have no coins to number: $body" ;; esac
# board_of NAME: the board of family NAME in the last GET /v1/games (its
# "arity" comes just before it; a named game's is followed by its rules)
board_of() {
    printf '%s' "$body" | awk -v f="{\"name\":\"$1\",\"syntax\"" '{
        i = index($0, f); if (!i) exit
        s = substr($0, i)
        if (match(s, /"arity":[0-9]+,"board":"[a-z]+"/))
            print substr(s, RSTART, RLENGTH)
    }' | sed 's/.*"board":"\([a-z]*\)"/\1/'
}
req GET /v1/games
for g in nim:piles wythoff:piles sub:piles octal:piles grundy:piles tb:piles \
         moore:piles turtles:row mock-turtles:row ruler:row twins:row \
         corners:grid tartan:grid; do
    checks=$((checks + 1))
    b=$(board_of "${g%%:*}")
    [ "$b" = "${g#*:}" ] || fail "games: ${g%%:*} drawn as ${g#*:}, not '$b'"
done
req POST /v1/game '{"game":"tartan:turtles*chess"}'
expect 400 "game: a tartan of an unknown coin game"
req POST /v1/analyze '{"position":"twins 2 2"}'
expect 400 "analyze: a coin listed twice"
has 'coin 2 is listed twice' "analyze: the coin listed twice named"
req POST /v1/game '{"game":"chess"}'
expect 400 "game: an unknown game"
has '"code":"EPARSE"' "game: EPARSE for an unknown game"
has 'known: nim, wythoff' "game: the known games, from the registry"
req POST /v1/game '{}'
expect 400 "game: none given"
req POST /v1/analyze '{"position":"moore:2 5 6 7 2"}'
expect 200 "analyze a position of variable arity"
has '"outcome":"N"' "moore:2 5 6 7 2 is N (column sums 3 3 2)"
has '"position":["5","6","7","2"]' "one component of four numbers"
# more winning moves than max_search lets list (5000: 125 moves of 40
# piles): misère play answers as normal play does (it was a 422), with the
# moves found and the note of the limit, as the CLI does
ones=$(awk 'BEGIN { for (i = 0; i < 40; i++) printf " 1" }')
for m in false true; do
    req POST /v1/analyze "{\"position\":\"moore:30$ones\",\"misere\":$m}"
    expect 200 "analyze moore:30, 40 piles of 1, misere $m"
    has '"winning_moves_complete":false,"winning_moves_note":"a moore:30 position has more winning moves than the max_search limit' \
        "misere $m: the list is incomplete, and says which limit"
done
same_as "analyze moore:30, 40 piles of 1, misère" analyze --json --misere \
    "moore:30$ones"
req GET /v1/info
has '"max_body":4096' "info: max_body"
has '"max_components":50' "info: max_components"
has '"time_budget_ms":2000' "info: time budget"
req HEAD /v1/games
expect 200 "HEAD /v1/games"

# -------------------------------------------------------------- errors

req POST /v1/analyze '{"position":"nim 3 x 5"}'
expect 400 "a position with a syntax error"
has '"code":"EPARSE"' "syntax error code"
has '"column":7' "syntax error column"
req POST /v1/analyze '{"position":"frobnicate 3"}'
expect 400 "an unknown game"
req POST /v1/analyze 'not json'
expect 400 "a body that is not JSON"
has '"code":"EPARSE"' "not JSON"
header 'Connection: close' "a malformed request closes its connection"
req POST /v1/analyze '[1,2]'
expect 400 "a body that is not an object"
req POST /v1/analyze ''
expect 400 "an empty body"
req POST /v1/analyze '{"position":"3","colour":"red"}'
expect 400 "an unknown field"
has 'unknown field' "unknown field message"
req POST /v1/analyze '{"position":["3","-4"]}'
expect 400 "a negative pile"
req POST /v1/analyze '{"position":[3,-4]}'
expect 400 "a negative JSON pile"
req POST /v1/analyze '{"position":[3,123456789012345678901234567890]}'
expect 400 "a big JSON integer"
has 'decimal strings' "big JSON integer advice"
req POST /v1/analyze '{"position":["3",null]}'
expect 400 "null in a position"
req POST /v1/analyze '{"position":3}'
expect 400 "position of the wrong type"
req POST /v1/analyze '{"position":"3","misere":"yes"}'
expect 400 "misere of the wrong type"
req POST /v1/analyze '{"position":"3","position":"4"}'
expect 400 "a duplicate field"
req POST /v1/analyze '{"game":"wythoff","position":["1","2","3"]}'
expect 400 "half a Wythoff pair"
req POST /v1/analyze '{"game":"wythoff","position":"1 2 3"}'
expect 400 "half a Wythoff pair (text)"
req POST /v1/analyze '{"game":"wythoff:0","position":"1 2"}'
expect 400 "wythoff:0"
req POST /v1/analyze '{"position":"octal:0.78 3"}'
expect 400 "an octal digit 8"
# A message that quotes a client's text cut inside a UTF-8 character is
# still an error answer (not a 503).
req POST /v1/analyze "{\"a$(printf 'é%.0s' $(seq 1 40))\":1}"
expect 400 "an unknown field cut inside a character"
has 'unknown field' "unknown field cut inside a character"
req GET /v1/analyze
expect 405 "GET of a POST endpoint"
header 'Allow: POST' "Allow of a POST endpoint"
has '"code":"EMETHOD"' "405 code"
req POST /v1/games '{}'
expect 405 "POST to a GET endpoint"
header 'Allow: GET, HEAD' "Allow of a GET endpoint"
req DELETE /v1/table
expect 405 "DELETE"
req POST /v1/nothing '{}'
expect 404 "an unknown endpoint"
req POST /v2/analyze '{}'
expect 404 "an unknown version"

# -------------------------------------------------------------- limits

# Body size: refused from its Content-Length, and when sent in chunks.
head -c 5000 /dev/zero | tr '\0' '1' >"$tmp/long"
printf '{"position":"%s"}' "$(cat "$tmp/long")" >"$tmp/big.json"
status=$(curl -s -o "$tmp/body" -w '%{http_code}' --data-binary @"$tmp/big.json" "${url}v1/analyze")
body=$(cat "$tmp/body")
expect 413 "a body over --max-body"
has '"code":"ELIMIT"' "413 code"
status=$(curl -s -o "$tmp/body" -w '%{http_code}' -H 'Transfer-Encoding: chunked' \
    --data-binary @"$tmp/big.json" "${url}v1/analyze")
body=$(cat "$tmp/body")
expect 413 "a chunked body over --max-body"
# Components: 50 pass, 51 do not.
fifty=$(seq 1 50 | tr '\n' ' ')
req POST /v1/analyze "{\"position\":\"$fifty\"}"
expect 200 "50 piles (the limit)"
req POST /v1/analyze "{\"position\":\"$fifty 51\"}"
expect 422 "51 piles"
has '"code":"ELIMIT"' "piles limit code"
req POST /v1/analyze "{\"position\":[$(seq -s, 1 51)]}"
expect 422 "51 piles (structured)"
# Digits: 100 pass, 101 do not.
d100=$(head -c 100 /dev/zero | tr '\0' '7')
req POST /v1/analyze "{\"position\":[\"$d100\"]}"
expect 200 "a 100-digit pile (the limit)"
req POST /v1/analyze "{\"position\":[\"${d100}7\"]}"
expect 422 "a 101-digit pile"
req POST /v1/analyze "{\"position\":\"${d100}7\"}"
expect 422 "a 101-digit pile (text)"
# Exhaustive misère search of a sum: over --max-search.
req POST /v1/analyze '{"position":"kayles 20 21 22 + sub:1-5 30 31","misere":true}'
expect 422 "misère search over --max-search"
has '"code":"ELIMIT"' "search limit code"
# The time budget: a computation of many seconds stops at 2000 ms.
# Officers (0.6) is not known to be periodic, so "until proved" runs to the
# server's Grundy limit (2^22 values): far more than 2 s on any machine of
# this class (2^20 values alone take about 3 s of CPU, bench/README.md).
start=$(date +%s%N)
req POST /v1/grundy '{"game":"octal:0.6","until_proved":true,"no_values":true}'
end=$(date +%s%N)
expect 422 "a computation over the time budget"
has '"code":"EINTR"' "time budget code"
ms=$(((end - start) / 1000000))
[ $ms -lt 6000 ] || fail "the time budget of 2000 ms took $ms ms"
# Table piles over the server's default of 64.
req POST /v1/table '{"game":"nim","piles":65,"below":"2"}'
expect 422 "a table of 65 piles"

# ------------------------------------------ never a 500, always answering

for ep in analyze move table count grundy pair parse record; do
    for b in '{' '{"position":{}}' '{"position":[[[]]]}' '{"game":7}' \
        '{"position":"+ + +"}' '{"position":"\u0000"}' '{"game":"wythoff:-1","position":"1 2"}' \
        '{"piles":-1}' '{"below":"1e9"}' '{"n":[]}' '{"record":"("}' \
        '{"cursor":",,,"}' '{"upto":18446744073709551617}'; do
        req POST "/v1/$ep" "$b"
        checks=$((checks + 1))
        case $status in 4??) ;; *) fail "$ep $b: status $status: $body" ;; esac
    done
done
req POST /v1/analyze '{"position":"1 2 3"}'
expect 200 "still answering"

# ---------------------------------------------------------- log and stop

grep -q '^POST /v1/analyze 200 [0-9]*us$' "$tmp/log" || fail "no request log line"
grep -q '^GET / 200 ' "$tmp/log" || fail "no log line of GET /"
kill -TERM "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
if kill -0 "$pid" 2>/dev/null; then
    fail "the server did not stop on SIGTERM"
else
    wait "$pid"
    rc=$?
    [ $rc -eq 0 ] || fail "the server exited $rc on SIGTERM"
    grep -q 'SIGTERM, stopping' "$tmp/log" || fail "no stopping line"
fi
pid=""

if [ $fails -ne 0 ]; then
    echo "api.sh: $fails of $checks checks failed" >&2
    exit 1
fi
echo "api.sh: all $checks checks passed"
