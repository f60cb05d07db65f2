#!/bin/sh
# Checks that every example in README.md is the real output: in each
# ```console block, a line "$ bouton ARGS" is run with the built program and
# the lines after it, up to the next "$ " line or the end of the block, must
# be exactly what it prints (stdout and stderr).  Usage: sh readme.sh BOUTON
set -u
B=$1
readme=$(cd "$(dirname "$0")/../.." && pwd)/README.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v dir="$tmp" '
    /^```console/ { inblock = 1; next }
    /^```/ && inblock { inblock = 0; if (n) close(f); next }
    inblock && /^\$ / { n++; f = sprintf("%s/%04d", dir, n);
                        print substr($0, 3) > (f ".cmd"); close(f ".cmd");
                        printf "" > (f ".want"); next }
    inblock && n { print >> (f ".want") }
' "$readme"
pass=0
fail=0
for cmdfile in "$tmp"/*.cmd; do
    [ -f "$cmdfile" ] || continue
    base=${cmdfile%.cmd}
    cmd=$(cat "$cmdfile")
    case "$cmd" in
    bouton\ *|*\|\ bouton\ *) ;;
    *) continue ;;
    esac
    # run with the program under test in place of "bouton"
    mkdir -p "$tmp/work" && (cd "$tmp/work" && PATH="$(dirname "$B"):$PATH" BOUTON="$B" \
        sh -c "$(printf '%s' "$cmd" | sed "s#\\(^\\|| \\)bouton #\\1\"\$BOUTON\" #g")" \
        >"$base.got" 2>&1)
    if cmp -s "$base.want" "$base.got"; then
        pass=$((pass + 1))
    else
        echo "FAIL README example: \$ $cmd"
        diff "$base.want" "$base.got" | head -20
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$pass" -gt 0 ] && [ "$fail" -eq 0 ]
