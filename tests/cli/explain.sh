#!/bin/sh
# CLI test of the explanation's binary block (`bouton analyze --explain`):
# every number right-aligned, so that each '=' and the last binary digit of
# every row fall in one column, whatever the widths of the numbers (9 was
# drawn one column left of 5: mpz_sizeinbase overestimates digits).
# Usage: sh explain.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

# aligned POSITION...: the pile rows' '=' columns, the decimal numbers' last
# digits and the rows' ends agree; the nim-sum's binary ends where theirs do.
aligned() {
    "$B" analyze --explain "$@" >"$tmp/ex" 2>"$tmp/err"
    if awk '
        /^  pile / { eq = index($0, " = "); len = length($0)
                     # the digit just left of " = " ends the number
                     if (substr($0, eq - 1, 1) !~ /[0-9]/) bad = 1
                     if (e == "") { e = eq; l = len } else if (eq != e || len != l) bad = 1
                     rows++ }
        /^  nim-sum / { ns = index($0, " = ") }
        # the nim-sum in binary ends in the piles'"'"' units column
        END { if (rows == 0 || bad || ns != l + 1) exit 1 }' "$tmp/ex"; then
        pass=$((pass + 1))
    else
        echo "FAIL aligned $*:"; sed 's/^/  /' "$tmp/ex"; fail=$((fail + 1))
    fi
}

aligned 9 5 12
aligned 9 5
aligned 99 100 7
aligned 999 1000 1 10
aligned 1 2 3 4 5 6 7 8 9 10 11
aligned 99999999 100000000 5
check exact 0 'position: nim 9 5 12
outcome:  P (the previous player wins)
grundy:   0
remoteness: 26 (the next player loses in 26 moves under best play)
winning moves: none (every move loses against best play)

The piles in binary, units in one column (Bouton, sec. 2):
  pile 1    9 = 1001
  pile 2    5 =  101
  pile 3   12 = 1100
  column sums   2202
  nim-sum          0 = 0

Every column sum is even: a safe combination (P-position).  Any move changes one pile, so it makes some column odd (Theorem I); the previous player wins.' -- analyze --explain 9 5 12
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
