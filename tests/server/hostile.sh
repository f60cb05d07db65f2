#!/bin/sh
# The hostile-client suite of `bouton serve`: sh hostile.sh PATH-TO-bouton
#
# Every server reproducer of issue 10 (memory and time without bound, heavy
# requests against light ones, SIGTERM while computing, slowloris, malformed
# HTTP), each asserted to get a bounded answer, and issue 26's memory
# cases (a request's numbers, and its JSON and answer, against
# --request-memory under a 1 GB address-space cap); see hostile_client.py.
# CPU: 5-11 s (the client and the servers it starts, 2026-11-27), most
# of it the servers' bounded heavy requests; its wall bounds stretch with
# the load average (LOAD in hostile_client.py).
set -u
command -v python3 >/dev/null 2>&1 || {
    echo "hostile.sh: skipped: python3 is not installed" >&2
    exit 77
}
exec python3 "$(dirname "$0")/hostile_client.py" "$1"
