# server.sh -- what the server's shell tests share.  Source it after
# setting bouton to the program's path (the test's $1):
#
#   bouton=$1
#   . "$(dirname "$0")/lib/server.sh"
#
# It makes $bouton absolute, a scratch folder $tmp removed at exit (with
# the server, if one runs), the counters $fails and $checks with fail(),
# start_server and post.
case $bouton in /*) ;; *) bouton=$(pwd)/$bouton ;; esac
tmp=$(mktemp -d)
pid=""
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fails=0
checks=0

fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

# start_server ARGS...: `bouton serve --host 127.0.0.1 --port 0 ARGS...` in
# the background, its output in $tmp/out and its log in $tmp/log; sets $pid
# and $url (the address it prints), within 10 s, or exits 1 with its log.
start_server() {
    "$bouton" serve --host 127.0.0.1 --port 0 "$@" >"$tmp/out" 2>"$tmp/log" &
    pid=$!
    url=""
    i=0
    while [ -z "$url" ] && [ $i -lt 100 ]; do
        url=$(sed -n 's/.*serving \(http:[^ ]*\).*/\1/p' "$tmp/out" 2>/dev/null)
        [ -n "$url" ] || sleep 0.1
        i=$((i + 1))
    done
    if [ -z "$url" ]; then
        echo "FAIL: the server did not start: $(cat "$tmp/log")" >&2
        exit 1
    fi
}

# post PATH BODY: POST the JSON BODY to the server's PATH (a leading /
# optional); sets $status (the HTTP code) and $body (the answer).
post() {
    printf '%s' "$2" >"$tmp/req"
    status=$(curl -s -o "$tmp/body" -w '%{http_code}' -X POST \
        -H 'Content-Type: application/json' --data-binary @"$tmp/req" \
        "$url${1#/}")
    body=$(cat "$tmp/body")
}
