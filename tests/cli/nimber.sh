#!/bin/sh
# CLI tests of `bouton nimber` and `bouton table --nim-products`: Conway's
# rules and published values, the functions, --explain, --json, and bad
# input (one line, exit 2, never a hang).  Usage: sh nimber.sh PATH-TO-bouton
set -u
B=$1
. "$(dirname "$0")/lib/check.sh"

# Conway's rules (ONAG ch. 6): F * F = 3F/2, x * F = xF for x < F
check ff-4 0 '6' -- nimber '4*4'
check ff-256 0 '384' -- nimber '256 * 256'
check ff-2^64 0 '27670116110564327424' -- nimber '0x10000000000000000*0x10000000000000000'
check xf 0 '1280' -- nimber '5*256'
# OEIS A006042 (the nim-squares): a(8..11) = 13, 12, 14, 15
check square-8 0 '13' -- nimber '8*8'
check square-9 0 '12' -- nimber '9 * 9'
check square-10 0 '14' -- nimber '10^2'
check square-11 0 '15' -- nimber '11 * 11'
check sum 0 '3' -- nimber '5 + 6'
check precedence 0 '9' -- nimber '1 + 2 * 4'
check parens 0 '12' -- nimber '(1 + 2) * 4'
check hex 0 '0x1e' -- nimber --hex 'sqrt(0x10)'
check words 0 '1' -- nimber 2 '*' 3
check stdin 0 '6' -- nimber - <<'END'
4 * 4
END
# the functions: 2 * 3 = 1, so inv(2) = 3; 2^3 = 1; order(2) = 3
check inv 0 '3' -- nimber 'inv(2)'
check inv-check 0 '1' -- nimber '(2^64 + 0x123456789abcdef0) * inv(0x123456789abcdef0 + 2^64)'
check pow-neg 0 '3' -- nimber '2^-1'
check pow-big 0 '1' -- nimber '2^300000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
check order 0 '3' -- nimber 'order(2)'
check order-16 0 '15' -- nimber 'order(4)'
check log 0 '2' -- nimber 'log(2, 3)'
check log-64 0 '12345' -- nimber 'log(0x100000007, 0x100000007^12345)'
check sqrt 0 '0x123456789abcdef0123' -- nimber --hex 'sqrt(0x123456789abcdef0123 * 0x123456789abcdef0123)'
check json 0 '{"expression":"2*3","value":"1"}' -- nimber --json '2*3'
check explain 0 "8 * 8 by Conway's rules, F a Fermat 2-power (2, 4, 16, 256, ...):
  x * F = xF (ordinary) when x < F, F * F = 3F/2, and * distributes over + (the nim-sum).
  8 = 8 (powers of 2)
  8 = 8 (powers of 2)
  8 * 8 = (2*2)*(4*4) = 3*6 = 13   (F*F = 3F/2)
  8 * 8 = 13
13" -- nimber --explain '8*8'
check explain-sum 0 '5 + 6 = 3:
           5 = 101
           6 = 110
  sum      3 = 011  (each column added mod 2: no carry)
3' -- nimber --explain '5+6'

# the table: Conway's 4 x 4, and its JSON
check table 0 '0 0 0 0
0 1 2 3
0 2 3 1
0 3 1 2' -- table --nim-products 4
check table-json 0 '["0","0"]
["0","1"]' -- table --json --nim-products 2
# the 256 x 256 table: its last row's sum of bits is a permutation's
"$B" table --nim-products 256 >"$tmp/t" 2>&1 || { echo "FAIL table 256"; fail=$((fail + 1)); }
[ "$(wc -l <"$tmp/t")" -eq 256 ] || { echo "FAIL table 256: rows"; fail=$((fail + 1)); }
# every row x > 0 is a permutation of 0..255 (a field has no zero divisors)
awk 'NR > 1 { delete s; for (i = 1; i <= NF; i++) s[$i] = 1; n = 0; for (k in s) n++; if (n != 256) bad = 1 } END { exit bad }' "$tmp/t" ||
    { echo "FAIL table 256: a row that is not a permutation"; fail=$((fail + 1)); }

# bad input: one line, exit 2
bad empty 'give an expression' -- nimber
bad blank 'empty expression' -- nimber '  '
bad negative 'non-negative' -- nimber '-3'
bad minus 'expected an operator' -- nimber '3 - 1'
bad unclosed "expected ')'" -- nimber '(2 * 3'
bad unknown "unknown function 'foo'" -- nimber 'foo(3)'
bad chain "does not chain" -- nimber '2^3^4'
bad hex 'hexadecimal digits' -- nimber '0x'
bad letters 'cannot follow' -- nimber '12ab'
bad inv0 '0 has no inverse' -- nimber 'inv(0)'
bad zero-pow 'no inverse' -- nimber '0^-1'
bad nolog 'not a power' -- nimber 'log(2, 16)'
bad log0 'no logarithm' -- nimber 'log(0, 1)'
bad order-big '2^64 or more' -- nimber 'order(18446744073709551616)'
bad digits 'max_digits' -- nimber --max-digits 5 '123456 * 2'
bad deep 'nests more than 200' -- nimber "$(printf '(%.0s' $(seq 1 300))1"
bad byte 'at byte 5' -- nimber '1 + #'
bad time 'time budget' -- nimber --max-time 0.2 "2^$(printf '9%.0s' $(seq 1 300)) * (0x$(printf 'f%.0s' $(seq 1 20000)))^$(printf '9%.0s' $(seq 1 3000))"
bad table-zero 'too small' -- table --nim-products 0
bad table-big 'max_grundy' -- table --nim-products 100000
bad table-mixed 'takes no' -- table --nim-products 4 --below 3

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
