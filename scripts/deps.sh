#!/bin/sh
# Installs the Debian packages bouton needs to build and test.
# Usage: scripts/deps.sh [build|test|browser]
#   build    compiler, CMake, GMP, jansson, libmicrohttpd, libedit
#   test     build + cmocka, valgrind, tmux, Open MPI (bouton census on MPI),
#            man-db (the install test renders the man page),
#            python3-dev and python3-pytest (the Python package and its tests)
#   browser  test + chromium (for the browser tests; playwright-core comes from npm)
#   bench    test + wrk and hyperfine (for the benchmarks)
# As root it runs apt-get; otherwise it prints the exact command and stops.
set -eu
level=${1:-build}
pkgs="gcc make cmake pkg-config libgmp-dev libjansson-dev libmicrohttpd-dev libedit-dev"
case "$level" in
build) ;;
test) pkgs="$pkgs libcmocka-dev valgrind tmux clang curl libopenmpi-dev openmpi-bin man-db python3-dev python3-pytest" ;;
browser)
    pkgs="$pkgs libcmocka-dev valgrind tmux clang curl libopenmpi-dev openmpi-bin man-db python3-dev python3-pytest chromium"
    # Node may come from elsewhere than Debian; only ask for it when absent.
    command -v npm >/dev/null 2>&1 || pkgs="$pkgs nodejs npm" ;;
bench) pkgs="$pkgs libcmocka-dev valgrind tmux clang curl libopenmpi-dev openmpi-bin man-db python3-dev python3-pytest wrk hyperfine" ;;
*) echo "deps.sh: unknown level '$level' (build, test, browser or bench)" >&2; exit 2 ;;
esac
missing=""
for p in $pkgs; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "bouton needs these Debian packages:$missing" >&2
    echo "run: sudo apt-get update && sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >&2
