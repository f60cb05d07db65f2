#!/bin/sh
# CLI tests of `bouton play`, `bouton move` and `bouton replay`: scripted
# games through standard input (a full game won by the computer, a hint, an
# undo, a save and a load), the saved records, a game interrupted by SIGHUP,
# bad input, and one game inside tmux to check what a person sees.
# Usage: sh play.sh PATH-TO-bouton
set -u
B=$1
pass=0
fail=0
tmp=$(mktemp -d)
session="bouton-play-test-$$"
cleanup() {
    tmux kill-session -t "$session" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
# the default save file goes here, never into the user's home
export XDG_STATE_HOME="$tmp/state"

ok() { pass=$((pass + 1)); }
ko() {
    echo "FAIL $1"
    fail=$((fail + 1))
}

# expect NAME FILE TEXT: FILE contains the line(s) TEXT (fixed string)
expect() {
    if grep -qF -- "$3" "$2"; then ok; else
        ko "$1: '$3' not in $2"
        sed 's/^/  | /' "$2"
    fi
}
# absent NAME FILE TEXT
absent() {
    if grep -qF -- "$3" "$2"; then
        ko "$1: '$3' should not be in $2"
        sed 's/^/  | /' "$2"
    else ok; fi
}
# same NAME FILE EXPECTED-TEXT: FILE is exactly the text
same() {
    printf '%s\n' "$3" >"$tmp/want"
    if cmp -s "$2" "$tmp/want"; then ok; else
        ko "$1: $2 differs"
        diff "$tmp/want" "$2" | sed 's/^/  | /'
    fi
}
# bad NAME PATTERN -- ARGS...: exit 2, one line on stderr matching PATTERN
bad() {
    name=$1 pattern=$2
    shift 3
    "$B" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] ||
        ! grep -q -- "$pattern" "$tmp/err"; then
        ko "$name: status $rc, $lines stderr lines"
        sed 's/^/  stderr: /' "$tmp/err"
    else ok; fi
}

full_game='# bouton game record
game: nim
rules: normal
first: A
A: you
B: computer
seed: 7
level: perfect
rng: 7

(1,2,3)
-A-> (0,2,3)
-B-> (0,2,2)
-A-> (0,1,2)
-B-> (0,1,1)
-A-> (0,0,1)
-B-> (0,0,0)
result: B wins'

# 1. A full game from a P-position: the computer wins, the record is saved.
printf '1 1\n2 1\n2 1\n' |
    "$B" play --seed 7 --save "$tmp/full.txt" 1 2 3 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && ok || ko "full game: exit status"
expect full-cpu "$tmp/out" "Computer: take 1 from pile 3."
expect full-end "$tmp/out" "The computer wins."
expect full-where "$tmp/out" "The game is saved in $tmp/full.txt"
absent full-prompt "$tmp/out" "your move>"
[ -s "$tmp/err" ] && ko "full game: stderr not empty" || ok
same full-record "$tmp/full.txt" "$full_game"
# the counters are drawn
expect full-draw "$tmp/out" "   3  ooo   3"

# Coin games are drawn as coins, numbered as the family numbers them (Mock
# Turtles from 0; Turning Corners a board, x across and y down).
printf '= 1 4\nquit\n' | "$B" play --game mock-turtles --save "$tmp/c.txt" 1 4 7 >"$tmp/out" 2>&1
expect coins-heads "$tmp/out" "  game 1 (mock-turtles): heads at 1, 4, 7"
expect coins-numbers "$tmp/out" "     0  1  2  3  4  5  6  7  8  9"
expect coins-row "$tmp/out" "     T  H  T  T  H  T  T  H  T  T"
expect coins-move "$tmp/out" "You: turn coin 7 to tails."
absent coins-no-counters "$tmp/out" "ooo"
printf 'quit\n' | "$B" play --game corners --save "$tmp/c.txt" 2,3 1,1 >"$tmp/out" 2>&1
expect coins-grid-heads "$tmp/out" "  game 1 (corners): heads at (2,3), (1,1)"
expect coins-grid-x "$tmp/out" "    y\\x  0  1  2  3"
expect coins-grid-row "$tmp/out" "      3  T  T  H  T"
printf 'quit\n' | "$B" play --game ruler --save "$tmp/c.txt" 2 100 >"$tmp/out" 2>&1
expect coins-far "$tmp/out" "  (too far along to draw: type the heads your move leaves)"

# 2. A hint in an N-position, and in a P-position.
printf 'hint\nquit\n' | "$B" play --save "$tmp/h.txt" 3 4 5 >"$tmp/out" 2>&1
expect hint-n "$tmp/out" "You can win.  The winning move:"
expect hint-move "$tmp/out" "  take 2 from pile 1"
expect hint-length "$tmp/out" "the game lasts 11 more moves."
expect hint-why "$tmp/out" "The piles in binary"
printf 'hint\nquit\n' | "$B" play --save "$tmp/h.txt" 1 2 3 >"$tmp/out" 2>&1
expect hint-p "$tmp/out" "Every move loses against perfect play"
expect hint-try "$tmp/out" "Best try: take 1 from pile"

# 3. Undo takes back the move and the reply; input ending mid-game saves.
printf '1 1\nundo\n2 2\n' |
    "$B" play --seed 7 --save "$tmp/undo.txt" 1 2 3 >"$tmp/out" 2>&1
expect undo-said "$tmp/out" "Taken back."
expect undo-saved "$tmp/out" "The game is saved in $tmp/undo.txt"
same undo-record "$tmp/undo.txt" '# bouton game record
game: nim
rules: normal
first: A
A: you
B: computer
seed: 7
level: perfect
rng: 7

(1,2,3)
-A-> (1,0,3)
-B-> (1,0,1)'

# 4. Save mid-game, then load and finish: the same game as in 1.
printf '1 1\nsave %s\nquit\n' "$tmp/mid.txt" |
    "$B" play --seed 7 --save "$tmp/q.txt" 1 2 3 >"$tmp/out" 2>&1
expect save-said "$tmp/out" "Saved in $tmp/mid.txt."
printf '2 1\n2 1\n' |
    "$B" play --load "$tmp/mid.txt" --save "$tmp/loaded.txt" >"$tmp/out" 2>&1
expect load-resumed "$tmp/out" "Resumed after 2 moves."
expect load-end "$tmp/out" "The computer wins."
same load-record "$tmp/loaded.txt" "$full_game"

# 5. Misère, the computer first, and the player wins.
printf '2 1\n' | "$B" play --misere --first computer --seed 1 \
    --save "$tmp/m.txt" 1 1 1 >"$tmp/out" 2>&1
expect misere-rules "$tmp/out" "Misère play: whoever makes the last move loses."
expect misere-win "$tmp/out" "You win!"
expect misere-record "$tmp/m.txt" "result: B wins"
expect misere-who "$tmp/m.txt" "A: computer"

# 6. Moves in other forms: an ambiguous pair, the position left, Wythoff's
#    "both", a sum, and nonsense.
printf '2 3\n= 2 3\n' | "$B" play --save "$tmp/x.txt" 2 5 >"$tmp/out" 2>&1
expect ambiguous "$tmp/out" "'2 3' is ambiguous"
expect position-form "$tmp/out" "You: take 2 from pile 2."
printf 'take 3 from 2\n' | "$B" play --save "$tmp/x.txt" 2 5 >"$tmp/out" 2>&1
expect long-form "$tmp/out" "You: take 3 from pile 2."
printf 'b 1\n' | "$B" play --game wythoff --save "$tmp/x.txt" 3 5 \
    >"$tmp/out" 2>&1
expect wythoff-both "$tmp/out" "You: take 1 from both piles."
printf '1 2\n' | "$B" play --save "$tmp/x.txt" 'nim 2 + kayles 3' \
    >"$tmp/out" 2>&1
expect sum-move "$tmp/out" "You: take 2 from pile 1."
expect sum-draw "$tmp/out" "(octal:0.77)"
# a move on a heap of 10^12 counters, checked from the code's digits
# (listing the heap's options would pass max_search), and one the code
# does not allow (Kayles never takes 3)
printf 'take 2 from 1\n' | "$B" play --game kayles --save "$tmp/x.txt" \
    '1000000000000 + 7' >"$tmp/out" 2>&1
expect huge-heap-move "$tmp/out" "You: take 2 from heap 1."
printf 'take 3 from 1\n' | "$B" play --game kayles --save "$tmp/x.txt" \
    '1000000000000 + 7' >"$tmp/out" 2>&1
expect huge-heap-illegal "$tmp/out" "Not a move"
printf 'fly\n9 1\n1 9\n' | "$B" play --save "$tmp/x.txt" 3 4 5 \
    >"$tmp/out" 2>&1
expect nonsense "$tmp/out" "'fly' is not a move or a command"
expect no-pile "$tmp/out" "there is no pile 9"
expect too-many "$tmp/out" "pile 1 has only 3"

# 7. A random start is fair as documented and reproducible by its seed.
printf 'quit\n' | "$B" play --random --seed 5 --save "$tmp/r1.txt" \
    >/dev/null 2>&1
printf 'quit\n' | "$B" play --random --seed 5 --save "$tmp/r2.txt" \
    >/dev/null 2>&1
if cmp -s "$tmp/r1.txt" "$tmp/r2.txt" &&
    grep -qE '^\(([1-9]|1[0-5]),([1-9]|1[0-5]),([1-9]|1[0-5])\)$' \
        "$tmp/r1.txt"; then ok; else
    ko "random start"
    cat "$tmp/r1.txt" "$tmp/r2.txt"
fi

# 8. SIGHUP (a closed terminal) saves the game.
mkfifo "$tmp/fifo"
(sleep 120 >"$tmp/fifo") &
holder=$!
# No out to begin with: the board of the game of step 6 stays in it until
# the job's shell truncates it, which may come after the wait below has
# seen that board; the SIGHUP then killed a shell that had not yet run
# bouton (status 129, nothing said or saved).
rm -f "$tmp/out"
"$B" play --save "$tmp/hup.txt" 3 4 5 <"$tmp/fifo" >"$tmp/out" 2>&1 &
pid=$!
# Wait for the board, which the program prints once its signal handlers
# are in place: a SIGHUP sent earlier would meet the default action (under
# a sanitizer on a loaded machine the start can take seconds).
i=0
while [ $i -lt 600 ] && ! grep -qs "ooooo" "$tmp/out"; do
    sleep 0.1
    i=$((i + 1))
done
grep -qs "ooooo" "$tmp/out" || ko "sighup: no board after 60 s"
kill -HUP $pid
wait $pid
rc=$?
kill $holder 2>/dev/null
[ $rc -eq 129 ] && ok || ko "sighup: status $rc"
expect sighup-said "$tmp/out" "Interrupted."
expect sighup-saved "$tmp/hup.txt" "(3,4,5)"

# 9. bouton move.
"$B" move --json 3 4 5 >"$tmp/out" 2>&1
same move-json "$tmp/out" \
    '{"component":1,"to":["1"],"text":"take 2 from pile 1","outcome":"N","rule":"remoteness","remoteness_known":true}'
"$B" move 1 2 3 >"$tmp/out" 2>&1
same move-text "$tmp/out" 'take 1 from pile 1
leaves: nim 0 2 3'
"$B" move --level easy --seed 3 --json 20 20 20 20 >"$tmp/a" 2>&1
"$B" move --level easy --seed 3 --json 20 20 20 20 >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b" && ok || ko "move: the seed does not replay"

# 10. bouton replay: Beardon's game, B winning after A's slips.
printf '(41,163,13) -A-> (25,163,13) -B-> (25,19,13) -A-> (25,13,13)\n' \
    >"$tmp/beardon.txt"
printf -- '-B-> (0,13,13) -A-> (0,7,13) -B-> (0,7,7) -A-> (0,0,7)\n' \
    >>"$tmp/beardon.txt"
printf -- '-B-> (0,0,0)\n' >>"$tmp/beardon.txt"
"$B" replay "$tmp/beardon.txt" >"$tmp/out" 2>&1
expect replay-slip "$tmp/out" "THREW THE WIN AWAY: it leaves an N-position; the winning move was: take 127 from pile 2"
expect replay-end "$tmp/out" "result: B wins."
expect replay-count "$tmp/out" "8 moves, 3 thrown wins."
"$B" replay --json "$tmp/beardon.txt" >"$tmp/out" 2>&1
expect replay-json "$tmp/out" '"verdict":"blunder","winning_moves":[{"component":2,"to":["36"],"text":"take 127 from pile 2"}]'
"$B" replay "$tmp/full.txt" >"$tmp/out" 2>&1
expect replay-own "$tmp/out" "6 moves, 0 thrown wins."

# 11. Bad input: one line on stderr, status 2.
bad first 'me or computer' -- play --first nobody 3
bad level 'unknown level' -- play --level godlike 3
bad seed 'seed' -- play --seed -1 3
bad load-missing 'cannot open' -- play --load "$tmp/none.txt"
bad load-and-position 'takes the game' -- play --load "$tmp/full.txt" 3 4
bad position 'not a non-negative integer' -- play 3 x
bad piles 'piles' -- play --random --piles 0
bad move-over 'the game is over' -- move 0 0
bad move-none 'no position' -- move
bad move-bad 'negative' -- move 3 -4
printf '(3,4,5)\n-A-> (3,4,6)\n' >"$tmp/illegal.txt"
bad replay-illegal 'line 2: not a legal move of A' -- replay "$tmp/illegal.txt"
bad replay-none 'cannot open' -- replay "$tmp/none.txt"
bad load-illegal 'not a legal move' -- play --load "$tmp/illegal.txt"

# 12. On a terminal (tmux): the prompt, line editing, the board, and
#     Ctrl-C saving the game.
if ! command -v tmux >/dev/null 2>&1; then
    ko "tmux is not installed (scripts/deps.sh test installs it)"
else
    # wait_for TEXT: until the pane shows TEXT (at most 10 s)
    wait_for() {
        i=0
        while [ $i -lt 100 ]; do
            tmux capture-pane -t "$session" -p >"$tmp/pane" 2>/dev/null
            grep -qF -- "$1" "$tmp/pane" && return 0
            sleep 0.1
            i=$((i + 1))
        done
        return 1
    }
    tmux new-session -d -s "$session" -x 100 -y 50 \
        "XDG_STATE_HOME='$tmp/state' '$B' play --seed 7 3 4 5; echo EXIT=\$?; sleep 60"
    if wait_for "your move>"; then ok; else
        ko "tmux: no prompt"
        sed "s/^/  | /" "$tmp/pane"
    fi
    expect tmux-board "$tmp/pane" "   3  ooooo   5"
    # "2 9", backspace, "1": the line editor makes it "2 1"
    tmux send-keys -t "$session" "2 9" BSpace "1" Enter
    if wait_for "Computer: take 5 from pile 3."; then ok; else
        ko "tmux: the edited move was not played"
        sed 's/^/  | /' "$tmp/pane"
    fi
    expect tmux-you "$tmp/pane" "You: take 1 from pile 2."
    tmux send-keys -t "$session" C-c
    if wait_for "EXIT=130"; then ok; else
        ko "tmux: Ctrl-C did not end the game"
        sed 's/^/  | /' "$tmp/pane"
    fi
    expect tmux-saved "$tmp/pane" "The game is saved in $tmp/state/bouton/last-game.txt"
    expect tmux-record "$tmp/state/bouton/last-game.txt" "-B-> (3,3,0)"
fi

# Moore's Nim: the piles of one component bracketed together and numbered
# as moves name them, the rules worded from k, a move on one pile by its
# number, and a random start of one component of K piles.
printf '2 4\nquit\n' | "$B" play --game moore:2 --save "$tmp/m.txt" \
    "moore:2 3 5 6 + nim 2" >"$tmp/out" 2>&1
expect moore-first "$tmp/out" "   1  ooo      3   \\ game 1 (moore:2): piles 1 to 3"
expect moore-middle "$tmp/out" "   2  ooooo    5   |"
expect moore-last "$tmp/out" "   3  oooooo   6   /"
expect moore-other "$tmp/out" "   4  oo       2   (nim)"
expect moore-move "$tmp/out" "You: take 4 from pile 2."
expect moore-after "$tmp/out" "   2  o        1   |"
printf 'quit\n' | "$B" play --game moore:3 --random --piles 5 --seed 3 \
    --save "$tmp/m.txt" >"$tmp/out" 2>&1
expect moore-rules "$tmp/out" "Game: moore:3 -- Moore's Nim with k = 3: take counters from at least one and at most 3 piles"
expect moore-random "$tmp/out" "\\ game 1 (moore:3): piles 1 to 5"
# A huge Moore position: the player's move is checked from the rules at any
# size (the ruleset's is_option), and with no --game a typed position is of
# the start's game.
printf '1 5\nquit\n' | "$B" play --save "$tmp/m.txt" \
    "moore:2 1000000 1000000 1000000" >"$tmp/out" 2>&1
expect moore-huge "$tmp/out" "You: take 5 from pile 1."
absent moore-huge-refused "$tmp/out" "Not a move"
printf '= 1 5\nquit\n' | "$B" play --save "$tmp/m.txt" \
    "moore:2 1000000 1000000 1000000" >"$tmp/out" 2>&1
expect moore-huge-piles "$tmp/out" "is not a move of component 1 (moore:2)"
printf '= 2 3 4\nquit\n' | "$B" play --save "$tmp/m.txt" "moore:1 3 3 4" \
    >"$tmp/out" 2>&1
expect moore-typed "$tmp/out" "You: take 1 from pile 1."

echo "play.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
