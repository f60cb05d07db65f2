#!/bin/sh
# The API against the table of operations (programs/common/optable.c):
# sh api.sh PATH-TO-bouton PATH-TO-optable_doc
#
# The server accepts exactly the members the table gives an endpoint (it
# reads its list there); this checks the other way: that each endpoint
# reads every member the table gives it.  Each member is sent with a value
# of the wrong type beside a request that is valid without it, and the
# answer must be 400 naming the member ("misere": "x", any other: true):
# a member the endpoint ignored would pass, or fail on another member.
# And a member the table does not give an endpoint is refused.
set -u
bouton=$1
doc=$2
. "$(dirname "$0")/../server/lib/server.sh"

# A valid request of each endpoint (and variant), as "key":value pairs
# without commas in them.
base() {
    case "$1 $2" in
    "/v1/analyze "* | "/v1/move "* | "/v1/moves "*) echo '"position":"1 2"' ;;
    "/v1/parse "*) echo '"position":"1"' ;;
    "/v1/record "*) echo '"record":"(1) -A-> (0)"' ;;
    "/v1/table "*) echo '"piles":2,"below":"4"' ;;
    "/v1/count "*) echo '"piles":2,"max":"4"' ;;
    "/v1/grundy table") echo '"game":"wythoff","below":3' ;;
    "/v1/grundy "*) echo '"game":"kayles","upto":4' ;;
    "/v1/pair "*) echo '"n":"1"' ;;
    "/v1/quotient "*) echo '"game":"nim","upto":2' ;;
    "/v1/nimber "*) echo '"expression":"2"' ;;
    "/v1/game "*) echo '"game":"nim"' ;;
    *) echo "" ;;
    esac
}

start_server

"$doc" --members >"$tmp/members" || { echo "FAIL: optable_doc --members" >&2; exit 1; }
[ -s "$tmp/members" ] || { echo "FAIL: no members in the table" >&2; exit 1; }
while read -r route member type variant; do
    checks=$((checks + 1))
    b=$(base "$route" "$variant")
    [ -n "$b" ] || { fail "$route: no valid request in api.sh for it"; continue; }
    post "$route" "{$b}"
    [ "$status" = 200 ] || { fail "$route {$b}: $status $body (want 200)"; continue; }
    # the request without the member, and the member of the wrong type
    rest=$(printf '%s' "$b" | tr ',' '\n' | grep -v "^\"$member\":" | paste -sd, -)
    [ "$type" = boolean ] && wrong='"x"' || wrong=true
    req="{\"$member\":$wrong${rest:+,$rest}}"
    post "$route" "$req"
    case "$status $body" in
    "400 "*"\\\"$member\\\""*) ;;
    *) fail "$route $req: $status $body (want 400 naming \"$member\")" ;;
    esac
done <"$tmp/members"

# a member the table does not give the endpoint
for route in $(cut -d' ' -f1 "$tmp/members" | sort -u); do
    checks=$((checks + 1))
    b=$(base "$route" -)
    post "$route" "{$b,\"no_such_member\":1}"
    case "$status $body" in
    *'unknown field \"no_such_member\"'*) ;;
    *) fail "$route: an unknown member gave $status $body" ;;
    esac
done
# Wythoff's table takes no "upto" (the sequence's member)
checks=$((checks + 1))
post /v1/grundy '{"game":"wythoff","below":3,"upto":4}'
case "$body" in
*'unknown field \"upto\"'*) ;;
*) fail "/v1/grundy wythoff with upto: $status $body" ;;
esac

if [ $fails -ne 0 ]; then
    echo "api.sh: $fails of $checks checks failed" >&2
    exit 1
fi
echo "api.sh: all $checks checks passed"
