#!/bin/sh
# Browser tests of the web app: sh run.sh PATH-TO-bouton
#
# Starts `bouton serve` on a free loopback port, runs test.mjs with Debian's
# chromium through the npm package playwright-core (installed here with
# `npm ci` when node_modules is missing; it never downloads a browser), and
# stops the server.  Screenshots and the server's log go to
# BROWSER_ARTIFACTS (default: browser-artifacts/ beside the binary, i.e. in
# the build directory; screens/ there holds every board at 1280x800 and
# 390x844, with an index.html).  Exits 77 (skipped) when chromium or node is absent:
# `scripts/deps.sh browser` installs them.  BROWSER_ONLY=REGEX runs the
# tests whose names match; BROWSER_WEB_DIR=DIR serves the page's files from
# DIR (say an older web/), to see a test fail before its fix.
set -eu
[ $# -eq 1 ] || { echo "usage: sh run.sh PATH-TO-bouton" >&2; exit 2; }
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
art=${BROWSER_ARTIFACTS:-$(dirname "$bin")/browser-artifacts}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM
if [ ! -x "$CHROMIUM" ] || ! command -v node >/dev/null 2>&1; then
    echo "run.sh: skipped: needs node and $CHROMIUM (scripts/deps.sh browser)" >&2
    exit 77
fi
cd "$here"
if [ ! -d node_modules/playwright-core ]; then
    npm ci --no-audit --no-fund --loglevel=error
fi
mkdir -p "$art"
rm -f "$art"/*.png "$art/server.out" "$art/server.log"
rm -rf "$art/screens"
"$bin" serve --host 127.0.0.1 --port 0 >"$art/server.out" 2>"$art/server.log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true' EXIT
trap 'exit 1' INT TERM
url=""
i=0
while [ -z "$url" ] && [ $i -lt 100 ]; do
    url=$(sed -n 's/.*serving \(http:[^ ]*\).*/\1/p' "$art/server.out" 2>/dev/null || true)
    [ -n "$url" ] || { kill -0 "$pid" 2>/dev/null || break; sleep 0.1; }
    i=$((i + 1))
done
if [ -z "$url" ]; then
    echo "run.sh: the server did not start:" >&2
    cat "$art/server.log" >&2
    exit 1
fi
# the program itself too: some tests compare the page with its CLI
BOUTON_BIN=$bin node test.mjs "$url" "$art"
