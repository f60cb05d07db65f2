#!/bin/sh
# The installed tree, used as a user would use it.  Installs build directory
# BUILD into a temporary prefix (cmake --install, what `make install` runs),
# then checks:
#   - the layout: program, libraries with their soname, headers, bouton.pc,
#     the CMake package, the man page, the bash completion;
#   - the shared library exports the public API and nothing else: no bt__
#     internal, every function <bouton.h> declares (gcc's -aux-info lists
#     them) and no other symbol;
#   - consumer.c builds and runs through `pkg-config --cflags --libs bouton`
#     (shared, and static with --static) and through find_package(bouton)
#     (bouton::bouton and bouton::bouton_static);
#   - the man page renders (man -l, or groff), without warnings, with a
#     section for every command of `bouton --help` holding that command's
#     --help line for line;
#   - the bash completion completes the commands and their options;
#   - the store's shipped entries (share/bouton/store) verify, and a fresh
#     process answers Kayles' heap of 10^12 through them, learning nothing;
#   - with PYTHON (the interpreter the Python package was built for), the
#     package imports from the prefix alone and analyses a position, and
#     pip builds python/ offline against the installed library.
#
# Usage: sh install.sh BUILD CMAKE CC [SANITIZE [PYTHON]]
# Exit 77 (skipped) in a sanitizer build: the consumers would need the
# sanitizer runtime too, and that build's library is not the one installed.
set -eu
build=$(cd "$1" && pwd)
cmake=$2
cc=$3
if [ "${4:-OFF}" = ON ]; then
    echo "install.sh: skipped in a sanitizer build"
    exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() {
    echo "install.sh: $*" >&2
    exit 1
}

"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" ||
    { cat "$tmp/install.log" >&2; fail "cmake --install failed"; }

# ------------------------------------------------------------------ layout
bouton=$prefix/bin/bouton
[ -x "$bouton" ] || fail "bin/bouton not installed"
version=$("$bouton" --version | awk '{ print $2 }')
[ "$version" = "$("$build/bouton" --version | awk '{ print $2 }')" ] ||
    fail "installed bouton --version differs from the build's"
major=${version%%.*}
pc=$(find "$prefix" -name bouton.pc)
[ -n "$pc" ] || fail "bouton.pc not installed"
libdir=$(dirname "$(dirname "$pc")")
for f in "$libdir/libbouton.a" "$libdir/libbouton.so" \
    "$libdir/libbouton.so.$major" "$libdir/libbouton.so.$version" \
    "$prefix/include/bouton.h" "$prefix/include/bouton/core.h" \
    "$libdir/cmake/bouton/bouton-config.cmake" \
    "$libdir/cmake/bouton/bouton-config-version.cmake" \
    "$prefix/share/man/man1/bouton.1" \
    "$prefix/share/bash-completion/completions/bouton"; do
    [ -e "$f" ] || fail "${f#"$prefix"/} not installed"
done
soname=$(readelf -d "$libdir/libbouton.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libbouton.so.$major" ] ||
    fail "soname is '$soname', expected libbouton.so.$major"

# ----------------------------------------------------------------- exports
nm -D --defined-only "$libdir/libbouton.so" | awk 'NF == 3 { print $3 }' |
    sort >"$tmp/exported"
if grep '^bt__' "$tmp/exported" >"$tmp/internal"; then
    fail "libbouton.so exports internal symbols: $(tr '\n' ' ' <"$tmp/internal")"
fi
grep -v '^bt_[a-z]' "$tmp/exported" >"$tmp/other" &&
    fail "libbouton.so exports symbols outside the API: $(tr '\n' ' ' <"$tmp/other")"
printf '#include <bouton.h>\n' >"$tmp/decl.c"
if "$cc" -I"$prefix/include" -fsyntax-only -aux-info "$tmp/decl.txt" \
    "$tmp/decl.c" 2>/dev/null; then
    grep -F "/* $prefix/include/" "$tmp/decl.txt" |
        sed -n 's/^[^(]*[ (*]*\(bt_[a-z0-9_]*\) (.*/\1/p' | sort -u >"$tmp/declared"
    [ -s "$tmp/declared" ] || fail "no function found in the installed headers"
    if ! cmp -s "$tmp/declared" "$tmp/exported"; then
        diff "$tmp/declared" "$tmp/exported" >&2 || true
        fail "the functions <bouton.h> declares ('<') and those libbouton.so exports ('>') differ (a declaration without BT_API?)"
    fi
else
    echo "install.sh: $cc has no -aux-info; declarations not compared"
fi

# -------------------------------------------------------------- pkg-config
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
[ "$(pkg-config --modversion bouton)" = "$version" ] ||
    fail "pkg-config --modversion bouton is not $version"
# shellcheck disable=SC2046
"$cc" -o "$tmp/pc_shared" "$here/consumer.c" $(pkg-config --cflags --libs bouton) ||
    fail "consumer.c does not build with pkg-config --cflags --libs bouton"
LD_LIBRARY_PATH=$libdir "$tmp/pc_shared" >"$tmp/out" ||
    fail "consumer (pkg-config, shared) failed"
[ "$(cat "$tmp/out")" = "bouton $version" ] || fail "consumer printed $(cat "$tmp/out")"
LD_LIBRARY_PATH=$libdir ldd "$tmp/pc_shared" | grep -q "libbouton.so.$major => $libdir/" ||
    fail "consumer (pkg-config) does not load the installed libbouton.so.$major"
# Static: the archive and what --static adds (Libs.private).
# shellcheck disable=SC2046
"$cc" -o "$tmp/pc_static" "$here/consumer.c" $(pkg-config --cflags bouton) \
    $(pkg-config --static --libs bouton |
        sed "s|-lbouton|$(pkg-config --variable=libdir bouton)/libbouton.a|") ||
    fail "consumer.c does not build with pkg-config --static --libs bouton"
"$tmp/pc_static" >/dev/null || fail "consumer (pkg-config, static) failed"
ldd "$tmp/pc_static" | grep -q libbouton && fail "the static consumer loads libbouton.so"

# ----------------------------------------------------------- find_package
"$cmake" -S "$here" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$prefix" \
    -DBOUTON_VERSION="$version" -DCMAKE_C_COMPILER="$cc" >"$tmp/cm.log" 2>&1 ||
    { cat "$tmp/cm.log" >&2; fail "find_package(bouton) failed"; }
"$cmake" --build "$tmp/cm" >>"$tmp/cm.log" 2>&1 ||
    { cat "$tmp/cm.log" >&2; fail "the find_package(bouton) project does not build"; }
"$tmp/cm/consumer_shared" >/dev/null || fail "consumer (bouton::bouton) failed"
ldd "$tmp/cm/consumer_shared" | grep -q "libbouton.so.$major => $libdir/" ||
    fail "consumer (bouton::bouton) does not load the installed libbouton.so.$major"
"$tmp/cm/consumer_static" >/dev/null || fail "consumer (bouton::bouton_static) failed"

# ---------------------------------------------------------------- man page
page=$prefix/share/man/man1/bouton.1
export LC_ALL=C.UTF-8 MANWIDTH=200
if command -v man >/dev/null 2>&1; then
    MANPAGER=cat PAGER=cat man -l "$page" >"$tmp/man.txt" 2>"$tmp/man.err" ||
        fail "man -l does not render bouton.1: $(cat "$tmp/man.err")"
elif command -v groff >/dev/null 2>&1; then
    groff -k -man -Tutf8 -P-cbou "$page" >"$tmp/man.txt" 2>"$tmp/man.err" ||
        fail "groff does not render bouton.1: $(cat "$tmp/man.err")"
else
    fail "neither man (man-db) nor groff is installed (scripts/deps.sh test)"
fi
if command -v groff >/dev/null 2>&1; then
    groff -k -man -ww -z "$page" >"$tmp/warn" 2>&1 || true
    [ -s "$tmp/warn" ] && fail "groff warns on bouton.1: $(cat "$tmp/warn")"
fi
grep -q '^NAME' "$tmp/man.txt" || fail "the rendered man page has no NAME"
# Leading spaces go (the page indents); the rest must be as --help prints.
sed 's/^ *//; s/ *$//' "$tmp/man.txt" >"$tmp/man.trim"
commands=$("$bouton" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
                                   on && /^  [a-z]/ { print $1 }')
[ -n "$commands" ] || fail "no commands in bouton --help"
for c in $commands; do
    grep -qx "bouton $c" "$tmp/man.trim" || fail "the man page has no section for '$c'"
    "$bouton" "$c" --help | sed 's/^ *//; s/ *$//' |
        awk 'NR == FNR { page[$0] = 1; next } $0 != "" && !($0 in page)' \
            "$tmp/man.trim" - >"$tmp/missing"
    [ -s "$tmp/missing" ] &&
        fail "the man page lacks these lines of 'bouton $c --help': $(cat "$tmp/missing")"
done

# ---------------------------------------------------------- bash completion
if command -v bash >/dev/null 2>&1; then
    comp=$prefix/share/bash-completion/completions/bouton
    bash -n "$comp" || fail "the bash completion is not valid bash"
    complete_words() { # complete_words WORD... : what TAB offers after them
        bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
                 _bouton; printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$@"
    }
    got=$(complete_words bouton "" | sort | tr '\n' ' ')
    # shellcheck disable=SC2086 # one word a command
    want=$(printf '%s\n' $commands --help --version | sort | tr '\n' ' ')
    [ "$got" = "$want" ] || fail "bouton <TAB> offers '$got', expected '$want'"
    for c in $commands; do
        # Every option a line of the command's help begins with is offered.
        complete_words bouton "$c" -- >"$tmp/offered"
        "$bouton" "$c" --help | sed -n 's/^ *\(-h, \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' |
            awk 'NR == FNR { offered[$0] = 1; next } !($0 in offered)' \
                "$tmp/offered" - >"$tmp/missing"
        [ -s "$tmp/missing" ] &&
            fail "'bouton $c --<TAB>' does not offer: $(cat "$tmp/missing")"
    done
fi
# ------------------------------------------------------ the store's entries
# The quotients the build made ship in share/bouton/store (proved, and
# Dawson's Kayles and 0.137 computed to a heap); they verify, and a fresh
# process of the fresh install answers Kayles' heap of 10^12 and Dawson's
# Kayles 33 31 17 through them: the quotient "was read from a saved file"
# (nothing learnt), with an empty user cache that stays empty.
shipped=$prefix/share/bouton/store
[ -f "$shipped/octal%3A0.77.quotient" ] ||
    fail "share/bouton/store/octal%3A0.77.quotient (Kayles) not installed"
env -u BOUTON_STORE XDG_CACHE_HOME="$tmp/cache" "$bouton" store verify \
    >"$tmp/verify" 2>&1 || fail "the shipped store entries do not verify: $(cat "$tmp/verify")"
for g in 0.77 0.75 0.53 0.07 0.137; do
    grep -q "^shipped  *octal:$g  misère quotient, .*: ok\$" "$tmp/verify" ||
        fail "store verify does not show the shipped octal:$g: $(cat "$tmp/verify")"
done
env -u BOUTON_STORE XDG_CACHE_HOME="$tmp/cache" "$bouton" analyze --misere \
    --explain 'kayles 1000000000000 7 5' >"$tmp/kayles" 2>&1 ||
    fail "analyze --misere of Kayles' huge heaps failed: $(cat "$tmp/kayles")"
grep -q 'read from a saved file' "$tmp/kayles" ||
    fail "a fresh process did not use the shipped Kayles entry: $(cat "$tmp/kayles")"
# Dawson's Kayles, shipped computed to heap 33 (not proved): a sum of its
# heaps up to 33 is answered through it, nothing learnt (about 5 s of CPU
# without it)
env -u BOUTON_STORE XDG_CACHE_HOME="$tmp/cache" "$bouton" analyze --misere \
    --explain 'dawsons-kayles 33 31 17' >"$tmp/dk" 2>&1 ||
    fail "analyze --misere of Dawson's Kayles 33 31 17 failed: $(cat "$tmp/dk")"
grep -q 'read from a saved file' "$tmp/dk" ||
    fail "a fresh process did not use the shipped Dawson's Kayles entry: $(cat "$tmp/dk")"
[ ! -e "$tmp/cache" ] || fail "reading the shipped entries wrote to the user's store"

# ------------------------------------------------------------ Python package
python=${5:-}
if [ -n "$python" ]; then
    ext=$(find "$prefix" -name '_bouton*.so' | head -n 1)
    [ -n "$ext" ] || fail "the Python package is not installed (no _bouton*.so)"
    site=$(dirname "$(dirname "$ext")")
    for f in __init__.py __init__.pyi _bouton.pyi _html.py py.typed; do
        [ -e "$site/bouton/$f" ] || fail "${site#"$prefix"/}/bouton/$f not installed"
    done
    # Only the prefix: not the build tree, not the user's site-packages.
    (cd "$tmp" && PYTHONPATH=$site PYTHONNOUSERSITE=1 "$python" -c '
import sys, bouton
assert bouton.__file__.startswith(sys.argv[1]), bouton.__file__
a = bouton.Position("nim 9 5 12").analyze()
assert (a.outcome, a.grundy) == ("P", 0), a
assert bouton.__version__ == sys.argv[2], bouton.__version__
' "$site" "$version") || fail "the installed Python package does not import and run"
    echo "install.sh: the Python package imports from the prefix ($site)" | sed "s|$prefix|PREFIX|"
    # pip, offline, against the installed library (pkg-config bouton), with
    # the setuptools the system has.
    if "$python" -c 'import setuptools' 2>/dev/null &&
        "$python" -m pip --version >/dev/null 2>&1; then
        cp -R "$here/../../python" "$tmp/pysrc"
        rm -rf "$tmp/pysrc/build" "$tmp/pysrc/tests"
        PKG_CONFIG_PATH="$libdir/pkgconfig" PIP_DISABLE_PIP_VERSION_CHECK=1 \
            "$python" -m pip install -q --no-build-isolation --no-index \
            --target "$tmp/pysite" "$tmp/pysrc" >"$tmp/pip.log" 2>&1 ||
            { cat "$tmp/pip.log" >&2; fail "pip install ./python failed"; }
        (cd "$tmp" && PYTHONPATH=$tmp/pysite PYTHONNOUSERSITE=1 "$python" -c '
import sys, bouton
assert bouton.__file__.startswith(sys.argv[1]), bouton.__file__
assert bouton.Position.nim([37, 20, 29]).analyze().grundy == 44
' "$tmp/pysite") || fail "the package pip installed does not import and run"
        echo "install.sh: pip install ./python (offline) builds a package that imports"
    else
        echo "install.sh: no pip or setuptools for $python: pip install ./python not checked"
    fi
fi
echo "install.sh: installed tree checked ($version, $(wc -l <"$tmp/exported") symbols exported)"
