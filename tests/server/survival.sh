#!/bin/sh
# The server's survival of the hostile findings (issue 26): sh survival.sh PATH-TO-bouton
#
# Idle kept-alive connections make room for new clients, abandoned heavy
# requests leave the compute pool, a burst of one address is answered 429
# (never 408), oversized trailers get a JSON 431, work that overruns its
# slice on the HTTP thread moves to the pool, and GMP out of memory fails
# one request, not the process; see survival_client.py.
set -u
command -v python3 >/dev/null 2>&1 || {
    echo "survival.sh: skipped: python3 is not installed" >&2
    exit 77
}
exec python3 "$(dirname "$0")/survival_client.py" "$1"
