#!/bin/sh
# tests/program/repl_test.sh - the cheskers program from outside: options, scripts,
# subcommands and batch sessions through pipes; the interactive REPL through
# a pseudo-terminal (a tmux server of its own): the board, completion,
# history, colours, Ctrl-C, a newcomer's first session.
# Prints TAP. Expected values come from docs/reference/rules.md (perft from the start: 9, 81,
# 652, ...; the start position text) or are worked out by hand from the rules
# in the comments, never copied from the program's output.
# Leaves no files behind: everything goes to a mktemp folder.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
BIN=${CHESKERS_BIN:-$ROOT/cheskers}   # CHESKERS_BIN: another build to test
[ -x "$BIN" ] || { echo "not ok 1 - $BIN is not built (make)"; exit 1; }

TMP=$(mktemp -d) || exit 1
# one tmux server (socket) per session started, all killed at the end; the
# sockets live in a folder of a short path of their own (a socket's path has
# at most 107 bytes; $TMP may be long: tests/run.sh)
SOCKDIR=$(mktemp -d /tmp/chk.XXXXXX) || exit 1
export TMUX_TMPDIR="$SOCKDIR"
unset TMUX
SOCKS=0
SOCK=cheskers-repl-test-$$-0
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
  k=1
  while [ $k -le $SOCKS ]; do tmux -L "cheskers-repl-test-$$-$k" kill-server 2>/dev/null; k=$((k + 1)); done
  rm -rf "$TMP" "$SOCKDIR"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# the program never sees the developer's files
export HOME="$TMP/home" CHESKERS_HISTORY="$TMP/history"
unset CHESKERS_RC NO_COLOR
mkdir -p "$HOME"

START='1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1'   # docs/reference/rules.md
ESC=$(printf '\033')

. tests/tap.sh
# check NAME EXPECTED ACTUAL: equal
check() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected: $2" "got: $3"; fi; }

# run INPUT ARGS...: the program with INPUT on stdin; sets OUT, ERR, RC
run() {
  input=$1; shift
  printf '%s' "$input" | (cd "$TMP" && "$BIN" "$@") >"$TMP/out" 2>"$TMP/err"
  RC=$?
  OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
}

# ---- options, scripts, subcommands ------------------------------------------

run '' --version
check "--version exits 0" 0 "$RC"
has "--version names the program" "cheskers " "$OUT"

run '' --help
check "--help exits 0" 0 "$RC"
has "--help shows the usage" "usage: cheskers" "$OUT"
has "--help lists the subcommands" "help" "$OUT"

run '' -x
check "an unknown option fails" 1 "$RC"
has "an unknown option is named" "'-x'" "$ERR"

cat >"$TMP/script.lua" <<'EOF'
local cheskers = require "cheskers"
print(arg[0]:match("[^/]*$"), arg[1], arg[2], #arg, select("#", ...))
print(cheskers.new():perft(2))
EOF
run '' "$TMP/script.lua" one two
check "a script runs with arg and ... set as lua5.4 sets them" "script.lua	one	two	2	2
81" "$OUT"

printf 'error("boom")\n' >"$TMP/bad.lua"
run '' "$TMP/bad.lua"
check "a failing script exits 1" 1 "$RC"
has "a failing script's error is reported" "bad.lua:1: boom" "$ERR"
has "with a traceback" "stack traceback" "$ERR"

run '' -e 'print(require("cheskers").new():perft(3))'
check "-e runs code" "652" "$OUT"

run '' nosuchcommand
check "an unknown subcommand fails" 1 "$RC"
has "and lists the known subcommands" "help" "$ERR"

run '' matc
check "a mistyped subcommand fails" 1 "$RC"
has "and gets the nearest name" "cheskers: no file or subcommand 'matc' (did you mean 'match'?). Subcommands: " "$ERR"

run '' help
check "the help subcommand exits 0" 0 "$RC"
has "the help subcommand prints the usage" "usage: cheskers" "$OUT"

run '' -c 'd6-e5; c3-d4; history'
check "-c runs REPL commands; a move says it was played" "played d6-e5
played c3-d4
1. d6-e5 c3-d4" "$OUT"

# --stop-on-error: a batch stops at its first failing line, exit status 1
run '' --stop-on-error -c 'd6-e5; d6-e5; perft 1'
check "--stop-on-error: -c stops at the first failure" "played d6-e5" "$OUT"
check "--stop-on-error: the failure is said" 1 "$(printf '%s\n' "$ERR" | grep -c '^cheskers: illegal move d6-e5: d6 is empty')"
check "--stop-on-error: -c exits 1" 1 "$RC"
run 'd6-e5
d6-e5
perft 1
' --stop-on-error
check "--stop-on-error: lines from a pipe stop at the first failure" "played d6-e5" "$OUT"
check "--stop-on-error: the failing line is named" 1 "$(printf '%s\n' "$ERR" | grep -c '^cheskers: line 2: illegal move d6-e5')"
check "--stop-on-error: a pipe exits 1" 1 "$RC"
run '' --stop-on-error -c 'd6-e5; perft 1'
check "--stop-on-error: exit 0 when nothing failed" 0 "$RC"
has "--stop-on-error: help says it" "--stop-on-error" "$("$BIN" --help)"

run '' -c 'x = 6; x * 7'
check "-c runs Lua; an expression prints its value" "42" "$OUT"

run '' -c 'perft 3; d6-d5'
check "-c exits 1 when a command failed" 1 "$RC"
has "-c still ran the other commands" "perft 3: 652 nodes" "$OUT"

# ---- batch sessions ---------------------------------------------------------

# after d6-e5 (docs/reference/rules.md start, Black first): d6 empties, a black pawn on e5,
# White to move, no capture (quiet 0), still move 1
run 'd6-e5
fen
'
check "batch: a bare move plays it; fen prints the position" \
  "played d6-e5
1c1k1k1b/p1p1p1p1/1p3p1p/4p3/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 w 0 1" "$OUT"
check "batch: exit 0 when every line succeeded" 0 "$RC"
check "batch: nothing on stderr" "" "$ERR"
hasnot "batch: no colours" "$ESC" "$OUT"

# a NUL byte in a line: that line is refused whole, naming where the NUL is
# (column 6), and the next line is read on its own (it plays d6-e5: the
# position above); not "d6-e5d6-e5" glued together
printf 'd6-e5\000junk\nd6-e5\nfen\n' | (cd "$TMP" && "$BIN") >"$TMP/out" 2>"$TMP/err"
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
check "batch: a line with a NUL byte is refused in one line" \
  "cheskers: line 1: a NUL byte (at column 6) in the line: it is skipped" "$ERR"
check "batch: the line after a NUL byte is read on its own" \
  "played d6-e5
1c1k1k1b/p1p1p1p1/1p3p1p/4p3/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 w 0 1" "$OUT"
check "batch: a refused line makes the exit status 1" 1 "$RC"

run 'fen
perft 1
perft 2
perft 3
perft 4
'
check "batch: perft 1..4 from the start (docs/reference/rules.md)" \
  "$START
9 81 652 4395" "$(printf '%s\n' "$OUT" | sed -n 1p)
$(printf '%s\n' "$OUT" | sed -n 's/^perft [0-9]*: \([0-9]*\) nodes in .* s (.*nodes\/s)$/\1/p' | tr '\n' ' ' | sed 's/ $//')"

run 'divide 1
'
# the 9 moves from the start: 4 black pawns step twice each except the rim
# pawn h6 (h6-g5 only) and b6 (b6-a5, b6-c5): b6-a5 b6-c5 d6-c5 d6-e5 f6-e5
# f6-g5 h6-g5, and the camel b8 leaps to a5 and c5
check "batch: divide 1 lists the 9 moves of the start" \
  "b6-a5 1|b6-c5 1|b8-a5 1|b8-c5 1|d6-c5 1|d6-e5 1|f6-e5 1|f6-g5 1|h6-g5 1|" \
  "$(printf '%s\n' "$OUT" | awk 'NF == 2 && $2 == 1 { printf "%s %s|", $1, $2 }')"

run 'd6-d5
fen
'
check "batch: exit 1 when a line failed" 1 "$RC"
has "batch: the error names the line" "line 1:" "$ERR"
has "batch: the error names the move" "d6-d5" "$ERR"
has "batch: an illegal move lists the legal moves from its square" "d6-c5 d6-e5" "$ERR"
check "batch: the session goes on after an error" "$START" "$OUT"

run 'perf 3
'
has "batch: a mistyped command gets the closest name" "perft" "$ERR"

run 'undo
'
has "batch: undo with no move says so" "nothing to undo" "$ERR"

run 'd6-e5
c3-d4
undo 2
fen
redo
redo
history
'
check "batch: undo 2 goes back to the start; redo replays; each says what it did" "played d6-e5
played c3-d4
took back c3-d4 d6-e5
$START
played d6-e5
played c3-d4
1. d6-e5 c3-d4" "$OUT"

run 'for i = 1, 3 do
  print(i * 10)
end
t = {1, 2, x = "y"}
t
board:turn()
'
check "batch: multi-line Lua, tables printed readably, board is the board" '10
20
30
{1, 2, x = "y"}
black' "$OUT"

run 'error("oops")
print("after")
'
check "batch: a Lua error fails the session" 1 "$RC"
has "batch: the Lua error is on stderr" "oops" "$ERR"
has "batch: with a traceback" "stack traceback" "$ERR"
check "batch: the session goes on after a Lua error" "after" "$OUT"

run 'for i = 1, 2 do
'
check "batch: an unfinished statement at the end fails" 1 "$RC"

run 'board = cheskers.new("8/k5P1/8/8/8/8/8/K7 w 0 1")
moves
fen
'
# White: king a1 (a1-b2), pawn g7 promoting on f8 or h8 to K, B or C
check "batch: a board assigned from Lua becomes the current board" \
  "7 legal moves: a1-b2 g7-f8=B g7-f8=C g7-f8=K g7-h8=B g7-h8=C g7-h8=K
8/k5P1/8/8/8/8/8/K7 w 0 1" "$OUT"

run 'board = 42
fen
'
check "batch: board must stay a board" 1 "$RC"
check "batch: the old board stays current" "$START" "$OUT"

run 'rules majority=false
perft 6
rules capture=jumps
perft 4
rules golomb
perft 6
'
# docs/reference/rules.md: majority=false gives 1474381 at 7 and 209816 at 6;
# capture=jumps (with majority=false) 4335 at 4; the defaults 209035 at 6
check "batch: rules changes apply to the game (from the start here)" "209816 4335 209035" \
  "$(printf '%s\n' "$OUT" | sed -n 's/^perft [0-9]*: \([0-9]*\) nodes.*/\1/p' | tr '\n' ' ' | sed 's/ $//')"

run 'rules majority=maybe
'
check "batch: a bad rule value fails" 1 "$RC"
has "batch: the bad option is named" "majority" "$ERR"

run 'rules
'
has "batch: rules shows the rule set" "capture" "$OUT"

run 'fen 8/8/8/8/8/8/8/8 x
'
check "batch: a bad FEN fails" 1 "$RC"

run "d6-e5
c3-d4
save $TMP/game.pgn
new
load $TMP/game.pgn
history
"
has "batch: load reads back the saved moves" "1. d6-e5 c3-d4" "$OUT"
has "batch: the record has a Rules tag" '[Rules "golomb"]' "$(cat "$TMP/game.pgn")"
has "batch: the record numbers the moves" "1. d6-e5 c3-d4" "$(cat "$TMP/game.pgn")"
hasnot "batch: no FEN tag for a game from the start" "[FEN" "$(cat "$TMP/game.pgn")"

run "load $TMP/nonexistent.pgn
"
check "batch: loading a missing file fails" 1 "$RC"

run 'flip
show
'
# drawn from Black's side: rank 1 on top, files from h to a
check "batch: flip turns the board" "    h g f e d c b a
  +-----------------+
1 |   C   K   K   B | 1" "$(printf '%s\n' "$OUT" | sed -n 1,3p | sed 's/ *$//')"

run 'help
help perft
'
has "batch: help lists the commands" "divide" "$OUT"
has "batch: help CMD tells about it" "perft N" "$OUT"

run 'go
'
if "$BIN" -e 'os.exit(require("cheskers").new().search and 0 or 1)'; then
  check "batch: go runs the engine when it is there" 0 "$RC"
else
  has "batch: go says the engine is not there yet" "not available yet" "$ERR"
fi

cat >"$TMP/rc.lua" <<'EOF'
repl.command {
  name = "hello", args = "[NAME]", help = "Says hello.",
  run = function(S, args) S:print("hello " .. (args[1] or "you")) end,
}
EOF
run 'hello Golomb
' 
check "batch: no start-up file by default" 1 "$RC"
export CHESKERS_RC="$TMP/rc.lua"
run 'hello Golomb
'
unset CHESKERS_RC
check "batch: a start-up file (CHESKERS_RC) adds commands" "hello Golomb" "$OUT"
cp "$TMP/rc.lua" "$HOME/.cheskersrc.lua"
run 'hello
'
check "batch: ~/.cheskersrc.lua is loaded" "hello you" "$OUT"
run 'hello
' --norc
check "batch: --norc skips it" 1 "$RC"
rm -f "$HOME/.cheskersrc.lua"

# ---- exploring positions (issue 12) -------------------------------------------
# Expected texts are worked out by hand from docs/reference/rules.md: the squares, the legal
# moves of each position (listed in the comments) and the wording the REPL
# promises (docs/reference/cheskers.1).

# the 9 moves of the start (see divide 1 above), in board order
START_MOVES="b6-a5 b6-c5 b8-a5 b8-c5 d6-c5 d6-e5 f6-e5 f6-g5 h6-g5"

# text shaped like a move is a move, never Lua
run 'd6-e9
'
check "a move to a square off the board: a move error" "cheskers: line 1: e9 is not a square" "$ERR"
run 'D6-E5
fen
'
check "square names are case-insensitive: D6-E5 plays d6-e5" \
  "played d6-e5
1c1k1k1b/p1p1p1p1/1p3p1p/4p3/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 w 0 1" "$OUT"
run 'D6
moves F6
'
check "a square alone, in either case, lists its moves" "2 legal moves: d6-c5 d6-e5
2 legal moves: f6-e5 f6-g5" "$OUT"
run 'd6--e5
'
check "a doubled separator: says how to write it" "cheskers: line 1: d6--e5 is not move text: write d6-e5" "$ERR"
run 'c7-d8=Q
e5=Q
print(e5)
'
check "promotion to Q (no queens in Cheskers): a move error, twice" "cheskers: line 1: promotion is to K, B or C, not Q
cheskers: line 2: promotion is to K, B or C, not Q" "$ERR"
check "e5=Q sets no Lua global" "nil" "$OUT"
# words shaped like moves that are no moves: off-board files, squares
# written together, two squares, an unknown piece letter; never Lua, never
# "unknown command"
run 'i1-a1
k3-h4
b6a5
e5 c3
Nb8-c7
'
check "every word shaped like a move gets a move error" "cheskers: line 1: i1 is not a square
cheskers: line 2: k3 is not a square
cheskers: line 3: b6a5 is not move text: write b6-a5
cheskers: line 4: 'e5 c3' is not a move: write e5-c3
cheskers: line 5: N is not a piece letter (P, K, B or C)" "$ERR"
# a new kind N (leaps (1,3)); W: Ka1 Nb8, B: kh8: Nb8-c5 is a leap
run 'rules pieces={N={leaps={{1,3}}}}
fen 1N5k/8/8/8/8/8/8/K7 w 0 1
Nb8-c5
fen
'
check "a custom kind's letter reads as a piece letter" "7k/8/8/2N5/8/8/8/K7 b 1 2" "$(printf '%s\n' "$OUT" | tail -n 1)"
check "a custom kind's move: no error" "" "$ERR"
# Lua that holds squares stays Lua
run 'a1 = 3
print(a1)
n1 = 7
print(n1-1)
x = board:moves()
print(#x, e5)
'
check "Lua with squares in it is not stolen" "3
6
9	nil" "$OUT"
check "Lua with squares in it: no error" "" "$ERR"

# the true reason a move is refused, and the legal moves said once
run 'c3-d4
d4-e5
d6-d4
'
check "wrong side, empty square, not a legal path" \
"cheskers: line 1: illegal move c3-d4: the piece on c3 is White's and Black is to move; legal moves: $START_MOVES
cheskers: line 2: illegal move d4-e5: d4 is empty; legal moves: $START_MOVES
cheskers: line 3: illegal move d6-d4: not a legal path for the piece on d6; legal moves from d6: d6-c5 d6-e5" "$ERR"
# W: Ka1 Pa3 Bf2; B: kh8 pb4 pc5 pd4. The pawn a3 is blocked (b4 taken, c5
# behind it taken); the bishop may take d4 (a take is optional), so the
# legal moves are a1-b2 and the bishop's f2-e1 f2-e3 f2-g1 f2-g3 f2-h4 f2xd4.
run 'fen 7k/8/8/2p5/1p1p4/P7/5B2/K7 w 0 1
a3-b4
'
check "a blocked pawn is blocked, not held by a capture rule" \
  "cheskers: line 2: illegal move a3-b4: the piece on a3 is blocked; legal moves: a1-b2 f2-e1 f2-e3 f2-g1 f2-g3 f2-h4 f2xd4" "$ERR"
# W: Ka1 Pa3 Pc3; B: kh8 pb4 pc5 pd4. c3 must jump (c3xa5 or c3xe5), so the
# king's free step a1-b2 is not legal; a3 is still blocked.
run 'fen 7k/8/8/2p5/1p1p4/P1P5/8/K7 w 0 1
a1-b2
a3-b4
'
check "a piece held by the capture rule, and a blocked one" \
"cheskers: line 2: illegal move a1-b2: a capture elsewhere is compulsory; legal moves: c3xa5 c3xe5
cheskers: line 3: illegal move a3-b4: the piece on a3 is blocked; legal moves: c3xa5 c3xe5" "$ERR"
# W: Ka1 Pb2; B: kh8 pc3: b2 must jump c3 (b2xd4), its step b2-a3 is refused
run 'fen 7k/8/8/8/8/2p5/1P6/K7 w 0 1
b2-a3
'
check "a piece that must capture" \
  "cheskers: line 2: illegal move b2-a3: a capture is compulsory; legal moves from b2: b2xd4" "$ERR"
# W: Ka1 Cg1 Pc3 Pf4; B: kh8 pd4. c3 must jump d4 (c3xe5, the only legal
# move); the camel's leaps from g1 are d2, h4 and f4, where its own pawn stands
run 'fen 7k/8/8/8/3p1P2/2P5/8/K5C1 w 0 1
g1-f4
g1-h4
'
check "a camel onto its own pawn: the true reason first" \
"cheskers: line 2: illegal move g1-f4: f4 holds your own piece; legal moves: c3xe5
cheskers: line 3: illegal move g1-h4: a capture elsewhere is compulsory; legal moves: c3xe5" "$ERR"
# W: Ka1 Pc3; B: kd4 alone. c3xe5 takes Black's last king: White wins.
run 'fen 8/8/8/8/3k4/2P5/8/K7 w 0 1
c3xe5
moves
a1-b2
'
check "game over: one wording, when the move is played and by moves" "played c3xe5
Game over. White wins: Black has no king left
Game over. White wins: Black has no king left" "$OUT"
check "a move after the end: the same wording" \
  "cheskers: line 4: Game over. White wins: Black has no king left; no more moves (undo or new)" "$ERR"

# rules changes keep the game; new starts over; typos get "did you mean"
run 'd6-e5
rules majority=false
fen
history
new
fen
'
check "rules keep the position and its moves; new starts over" \
"played d6-e5
rules: majority=false (position and 1 move kept)
1c1k1k1b/p1p1p1p1/1p3p1p/4p3/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 w 0 1
1. d6-e5
$START" "$OUT"
# W: Ka1 Pg7; B: ka7. g7-f8=C promotes to a camel (move 1, White), then
# promote=K forbids that promotion: the position (camel on f8, Black to move,
# move 2) stays, the history goes.
run 'fen 8/k5P1/8/8/8/8/8/K7 w 0 1
g7-f8=C
rules promote=K
fen
'
check "a history not legal under the new rules is cleared, and the REPL says so" \
"played g7-f8=C
rules: promote=K (position kept; history cleared: move 1 (g7-f8=C) is not legal under these rules)
5C2/k7/8/8/8/8/8/K7 b 0 2" "$OUT"
run 'rules majorty=false
rules flying_kings
'
check "rule typos: did you mean" \
"cheskers: line 1: unknown rule option 'majorty' (did you mean 'majority'?)
cheskers: line 2: rule option 'flying_kings' is not written name=value: write flying_kings=true or flying_kings=false" "$ERR"

# undo against a bot goes back to your turn
run 'bot greedy
d6-e5
undo
fen
history
'
check "undo takes back the bot's reply and your move" \
  "took back 2 moves (back to your turn; greedy plays white)
$START
no moves yet" "$(printf '%s\n' "$OUT" | sed -n '4,$p')"

# redo past the end; save into a missing folder
run 'd6-e5
undo
redo 3
'
check "redo N past the end says so" "played d6-e5
took back d6-e5
redid 1 move (no more to redo)" "$OUT"
run "save $TMP/no-such-folder/game.pgn
"
check "a failed save names the file given" \
  "cheskers: line 1: cannot save: $TMP/no-such-folder/game.pgn: No such file or directory" "$ERR"

# analysis lines wrap between moves: at most 79 columns, and every word of a
# continuation line is a move
run 'go depth 9
'
check "go: no line longer than 79 columns" "" "$(printf '%s\n' "$OUT" | awk 'length > 79')"
check "go: continuation lines hold whole moves only" "" \
  "$(printf '%s\n' "$OUT" | grep '^        ' | tr ' ' '\n' | grep -v '^$' | grep -Ev '^[a-h][1-8]([-x][a-h][1-8])+(=[KBC])?$')"

# puzzles: an unsound one is flagged; a title that states the goal is not repeated
run "puzzle $ROOT/tests/puzzles/faulty/unsound.lua
"
# the file's own comment: 1. e1-c3 is refuted by 1... f6-g5
check "puzzle warns when the puzzle is unsound" \
"Unsound: the king slips out: white to play and win in 2
warning: this puzzle is unsound (not forced): no win in 2 for White: best defence against e1-c3: f6-g5" "$OUT"
run "puzzle $ROOT/scripts/puzzles/stalemate.lua
"
has "a puzzle titled with its goal shows the title" "Black to play stalemates in 4 (1 of " "$OUT"
hasnot "and does not repeat the goal" "to play and win" "$OUT"

# ---- the interactive REPL, through tmux ---------------------------------------

if ! command -v tmux >/dev/null 2>&1; then
  not_ok "tmux is installed (make deps)"
  echo "1..$n"
  exit 1
fi

# start ENV ARGS: the program in a fresh 110x50 terminal in $TMP/work. The
# shell around it survives the Ctrl-Cs sent to the program (trap), and
# stays after it to show its exit status.
mkdir -p "$TMP/work/games"
start() {
  tm kill-server 2>/dev/null
  SOCKS=$((SOCKS + 1))
  SOCK=cheskers-repl-test-$$-$SOCKS
  LANG=C.UTF-8 tmux -L "$SOCK" -f /dev/null -u new-session -d -x 110 -y 50 \
    "trap : INT; cd '$TMP/work' && env -u NO_COLOR HOME='$HOME' CHESKERS_HISTORY='$CHESKERS_HISTORY' LANG=C.UTF-8 TERM=xterm-256color $1 '$BIN' $2; echo \"[exit \$?]\"; sleep 60"
}
screen() { tm capture-pane -p -S - "$@" 2>/dev/null; }
# recent N: the last N lines that are not blank
recent() { screen | sed '/^ *$/d' | tail -n "$1"; }
lastline() { recent 1; }
# wait_for TEXT: until the screen (with its history) shows TEXT; 10 s at most
wait_for() {
  i=0
  while [ $i -lt 200 ]; do
    case $(screen) in *"$1"*) return 0 ;; esac
    sleep 0.05; i=$((i + 1))
  done
  return 1
}
# prompts: how many prompt lines the screen shows
prompts() { screen | grep -c '^cheskers>'; }
# wait_prompts N: until at least N prompt lines
wait_prompts() {
  i=0
  while [ $i -lt 200 ]; do
    [ "$(prompts)" -ge "$1" ] && return 0
    sleep 0.05; i=$((i + 1))
  done
  return 1
}
# cmd TEXT: types a line and waits for the next prompt
cmd() {
  p=$(prompts)
  tm send-keys -l "$1"
  tm send-keys Enter
  wait_prompts $((p + 1))
}
# typed TEXT: types without Enter and waits until the line shows it
typed() {
  tm send-keys -l "$1"
  want=$(printf '%s' "$1" | sed 's/ *$//')   # the screen has no trailing blanks
  i=0
  while [ $i -lt 200 ]; do
    case $(lastline) in *"$want") return 0 ;; esac
    sleep 0.05; i=$((i + 1))
  done
  return 1
}
# leave: types quit and waits for the program's end
leave() {
  tm send-keys -l "quit"; tm send-keys Enter
  wait_for "[exit 0]"
}
# wait_line TEXT: until the last line ends with TEXT
wait_line() {
  i=0
  while [ $i -lt 100 ]; do
    case $(lastline) in *"$1") return 0 ;; esac
    sleep 0.05; i=$((i + 1))
  done
  return 1
}

# A newcomer's first session: start, look at the board, play a few moves,
# take one back, count perft, quit.
start "" ""
if wait_prompts 1; then ok "first session: the prompt comes up"; else not_ok "first session: the prompt comes up" "$(screen)"; fi
has "first session: the board is shown at the start, Black to move" "Black to move, move 1" "$(screen)"
has "first session: Unicode pieces on a terminal (black king)" "♚" "$(screen)"
has "first session: colours on a terminal" "${ESC}[" "$(screen -e)"
cmd "help"
has "first session: help lists the commands" "  perft " "$(screen)"
cmd "d6-e5"
has "first session: a move is played and the board redrawn" "White to move, move 1; last move d6-e5" "$(screen)"
cmd "c3-d4"
has "first session: White's move" "Black to move, move 2; last move c3-d4" "$(screen)"
cmd "undo"
check "first session: undo takes the move back" 2 "$(screen | grep -c 'White to move, move 1; last move d6-e5')"
cmd "undo"
check "first session: undo again, back at the start" 2 "$(screen | grep -c '^Black to move, move 1$')"
cmd "perft 3"
has "first session: perft 3 from the start (docs/reference/rules.md)" "perft 3: 652 nodes in" "$(screen)"
has "first session: with nodes per second" "nodes/s)" "$(screen)"
if leave; then ok "first session: quit leaves with status 0"; else not_ok "first session: quit leaves with status 0" "$(screen)"; fi

# The last move is highlighted (a background of its own on its squares).
start "" ""
wait_prompts 1
before=$(screen -e | grep -o "${ESC}\[48;5;[0-9]*m" | sort -u | wc -l)
cmd "d6-e5"
after=$(screen -e | grep -o "${ESC}\[48;5;[0-9]*m" | sort -u | wc -l)
if [ "$after" -gt "$before" ]; then ok "the last move is highlighted"; else not_ok "the last move is highlighted" "backgrounds before $before, after $after"; fi

# ASCII: NO_COLOR, --ascii
start "NO_COLOR=1" ""
wait_prompts 1
hasnot "NO_COLOR: no colours" "${ESC}[4" "$(screen -e)"
has "NO_COLOR: an ASCII board" "+-----------------+" "$(screen)"
start "" "--ascii"
wait_prompts 1
hasnot "--ascii: no colours" "${ESC}[4" "$(screen -e)"
has "--ascii: an ASCII board" "8 |   c   k   k   b | 8" "$(screen)"
cmd "d6-e5"
# the last move in brackets: from d6 (now empty) and to e5
has "--ascii: the last move is marked" "6 |   p  [.]  p   p | 6" "$(screen)"

# Completion
start "" ""
wait_prompts 1
typed "div"; tm send-keys Tab
if wait_line "cheskers> divide"; then ok "Tab completes a command"; else not_ok "Tab completes a command" "$(lastline)"; fi
tm send-keys C-u
typed "d6-"; tm send-keys Tab Tab
if wait_for "d6-c5  d6-e5"; then ok "Tab lists the legal moves that fit"; else not_ok "Tab lists the legal moves that fit" "$(recent 3)"; fi
tm send-keys C-u
typed "h6"; tm send-keys Tab
if wait_line "cheskers> h6-g5"; then ok "Tab completes a move"; else not_ok "Tab completes a move" "$(lastline)"; fi
tm send-keys C-u
typed "moves "; tm send-keys Tab Tab
# the squares with a legal move at the start: b6 b8 d6 f6 h6
if wait_for "b6  b8  d6  f6  h6"; then ok "Tab lists the squares that have a move"; else not_ok "Tab lists the squares that have a move" "$(recent 3)"; fi
tm send-keys C-u
cmd 'fen 7k/8/5p2/8/3p4/2P5/8/K7 w 0 1'
# White must jump: c3 over d4 to e5, then over f6 to g7 (the only move)
typed "c3"; tm send-keys Tab
if wait_line "cheskers> c3xe5xg7"; then ok "Tab completes a jump chain"; else not_ok "Tab completes a jump chain" "$(lastline)"; fi
tm send-keys C-u
cmd 'fen 8/k5P1/8/8/8/8/8/K7 w 0 1'
typed "g7-h"; tm send-keys Tab
if wait_line "cheskers> g7-h8="; then ok "Tab completes up to the promotion choice"; else not_ok "Tab completes up to the promotion choice" "$(lastline)"; fi
tm send-keys Tab Tab
if wait_for "B  C  K"; then ok "Tab lists the promotions"; else not_ok "Tab lists the promotions" "$(recent 3)"; fi
tm send-keys C-u
typed "chesk"; tm send-keys Tab
typed ".ne"; tm send-keys Tab
if wait_line "cheskers> cheskers.new"; then ok "Tab completes Lua globals and fields after a dot"; else not_ok "Tab completes Lua globals and fields after a dot" "$(lastline)"; fi
tm send-keys C-u
typed "board:pe"; tm send-keys Tab
if wait_line "cheskers> board:perft"; then ok "Tab completes methods after a colon"; else not_ok "Tab completes methods after a colon" "$(lastline)"; fi
tm send-keys C-u
: >"$TMP/work/games/first-game.pgn"
typed "load gam"; tm send-keys Tab
typed "fi"; tm send-keys Tab
if wait_line "cheskers> load games/first-game.pgn"; then ok "Tab completes file names for load"; else not_ok "Tab completes file names for load" "$(lastline)"; fi
tm send-keys C-u
typed "rules maj"; tm send-keys Tab
typed "f"; tm send-keys Tab
if wait_line "cheskers> rules majority=false"; then ok "Tab completes rule options and values"; else not_ok "Tab completes rule options and values" "$(lastline)"; fi
tm send-keys C-u

# Ctrl-C: at the prompt it clears the line; in Lua and in perft it returns
# to the prompt with the board as it was.
start "" ""
wait_prompts 1
typed "print(12"
tm send-keys C-c
wait_prompts 2
cmd "print(34)"
check "Ctrl-C at the prompt drops the line; the next line runs alone" 1 "$(screen | grep -c '^34$')"
cmd "d6-e5"
p=$(prompts)
tm send-keys -l "perft 20"; tm send-keys Enter
if wait_for "perft 20: root move"; then ok "a long perft shows a progress line"; else not_ok "a long perft shows a progress line" "$(recent 3)"; fi
tm send-keys C-c
if wait_prompts $((p + 1)); then ok "Ctrl-C stops perft and returns to the prompt"; else not_ok "Ctrl-C stops perft and returns to the prompt" "$(recent 3)"; fi
has "it says so" "interrupted" "$(recent 4)"
has "and keeps the counts done so far" "perft 20 stopped after" "$(recent 4)"
has "by root move" "root moves done" "$(recent 4)"
p=$(prompts)
tm send-keys -l "go depth 60"; tm send-keys Enter
wait_for "depth  5/"
sleep 0.5
tm send-keys C-c
if wait_prompts $((p + 1)); then ok "Ctrl-C stops go"; else not_ok "Ctrl-C stops go" "$(recent 3)"; fi
has "go keeps the best move, score and line found so far" "stopped: best so far " "$(recent 5)"
cmd "fen"
has "the board is unchanged" "1c1k1k1b/p1p1p1p1/1p3p1p/4p3/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 w 0 1" "$(recent 3)"
p=$(prompts)
tm send-keys -l "while true do end"; tm send-keys Enter
sleep 0.3
tm send-keys C-c
if wait_prompts $((p + 1)); then ok "Ctrl-C stops a Lua loop"; else not_ok "Ctrl-C stops a Lua loop" "$(recent 3)"; fi
cmd "print(board:turn())"
has "the session goes on" "white" "$(recent 3)"
cmd "error('oops')"
has "a Lua error prints with a traceback" "stack traceback" "$(screen)"
tm send-keys -l "x = 1 +"; tm send-keys Enter
wait_line ">>"
cmd "2"
cmd "x"
has "an unfinished statement continues on the next line" "3" "$(recent 2)"
cmd "zz"
has "an unknown word is reported as an unknown command" "unknown command 'zz'" "$(screen)"
tm send-keys C-d
if wait_for "[exit 0]"; then ok "Ctrl-D leaves"; else not_ok "Ctrl-D leaves" "$(recent 3)"; fi

# History across sessions, in $CHESKERS_HISTORY
rm -f "$CHESKERS_HISTORY"
start "" ""
wait_prompts 1
cmd "x = 40 + 2"
leave
has "history is saved in CHESKERS_HISTORY" "x = 40 + 2" "$(cat "$CHESKERS_HISTORY" 2>/dev/null)"
start "" ""
wait_prompts 1
tm send-keys Up
wait_line "cheskers> quit"
tm send-keys Up
if wait_line "cheskers> x = 40 + 2"; then ok "history is read back by the next session"; else not_ok "history is read back by the next session" "$(lastline)"; fi
p=$(prompts); tm send-keys Enter; wait_prompts $((p + 1))
cmd "x"
has "a line from the history runs again" "42" "$(recent 2)"
leave


# ---- tablebases in the REPL (tbuse): the verdict under the board, `tb`,
# and `go` with a live line of the depth in progress -------------------------
# Worked out from the rules: White Ka1 against Black Kc3 has one move, a1-b2,
# and Black's king then jumps it (c3xa1): Black wins 2 plies on. White Kd4
# must jump Black Ke5 (d4xf6): no Black king is left, White wins in 1 ply.
"$BIN" tb build --pieces 3 --dir "$TMP/tb" >/dev/null 2>&1
run "tb $TMP/tb
fen 8/8/8/8/8/2k5/8/K7 w
show
tb
fen 8/8/8/4k3/3K4/8/8/8 w
show
tb
"
has "tb DIR says what it found" "tablebases: $TMP/tb (every position with up to 3 pieces)" "$OUT"
has "the board shows the tables' verdict (a loss)" "White to move, move 1
tablebase: Black wins in 2 plies" "$OUT"
has "tb lists each move's value" "a1-b2  loss in 2" "$OUT"
has "the board shows the tables' verdict (a win in 1)" "tablebase: White wins in 1 ply" "$OUT"
has "tb lists the capture's value" "d4xf6  win in 1" "$OUT"
export CHESKERS_TB="$TMP/tb"
run "fen 8/8/8/8/8/2k5/8/K7 w
show
go depth 3
tb off
show
"
unset CHESKERS_TB
has "the tables of CHESKERS_TB are used" "tablebase: Black wins in 2 plies" "$OUT"
has "go answers from the tables" "best move a1-b2 (score loss in 2" "$OUT"
case $OUT in *"tablebases off"*"tablebase: "*) not_ok "tb off: no verdict any more" "$OUT" ;; *) ok "tb off: no verdict any more" ;; esac
# without tb DIR or CHESKERS_TB the REPL uses ./tb, as the command line and
# cheskers.tb.open() do (run works in $TMP, where the tables are in ./tb)
run "fen 8/8/8/8/8/2k5/8/K7 w
show
tb
"
has "the tables of ./tb are used by default" "tablebase: Black wins in 2 plies" "$OUT"
has "tb lists the moves by the tables of ./tb" "a1-b2  loss in 2" "$OUT"
mkdir -p "$TMP/notables"
export CHESKERS_TB="$TMP/notables"
run "tb
"
unset CHESKERS_TB
has "tb without tables says where it looked and how to get them" "no tablebases in $TMP/notables for these rules: build them with \`cheskers tb build --pieces 4 --dir $TMP/notables\`, or type \`tb DIR\` (the folder also comes from \$CHESKERS_TB)" "$ERR"
run "tb off
tb
"
has "tb after tb off says the tables are off" "tablebases off: type \`tb DIR\` to use the tables in DIR" "$ERR"
run "tb $TMP/tb
tb
"
has "tb where no table covers the position (24 pieces at the start)" "no table covers this position (24 pieces)" "$ERR"
# tables built while the session runs are found: by `tb` (a position they
# did not cover sends it to the folder again) and by `tb DIR`
run "fen 8/8/8/8/8/2k5/8/K7 w
tb $TMP/later
tb
os.execute([[\"$BIN\" tb build --pieces 3 --dir \"$TMP/later\" >/dev/null 2>&1]])
tb
tb $TMP/later2
show
os.execute([[\"$BIN\" tb build --pieces 3 --dir \"$TMP/later2\" >/dev/null 2>&1]])
tb $TMP/later2
show
"
has "tb finds the tables built after the session looked" "a1-b2  loss in 2" "$OUT"
has "tb DIR finds the tables built after the session looked" "tablebases: $TMP/later2 (every position with up to 3 pieces)" "$OUT"
has "and the board shows their verdict from then on" "tablebase: Black wins in 2 plies" "$OUT"
# go and the board's verdict see tables built after the session looked
# (the longest win of KK v K, 33 plies: docs/generated/endgames.md, the atlas; a
# search of depth 3 alone cannot see it)
run "fen 1K1K4/8/8/8/8/8/8/2k5 w 0 1
tb $TMP/later3
show
os.execute([[\"$BIN\" tb build --pieces 3 --dir \"$TMP/later3\" >/dev/null 2>&1]])
go depth 3
show
"
has "go answers from tables built after the session looked" "(score win in 33, " "$OUT"
has "and the board shows their verdict" "tablebase: White wins in 33 plies" "$OUT"
# the tables of other rules: the command that builds them says which
run "rules majority=false
tb $TMP/tb
"
has "tb DIR under other rules names them in the build command" \
  "tablebases: $TMP/tb (no tables for these rules there yet: cheskers tb build --pieces 4 --rules 'majority=false' --dir $TMP/tb)" "$OUT"

# go on a terminal: a live line of the depth in progress ("best so far")
start "" ""
wait_prompts 1
p=$(prompts)
tm send-keys -l "go time 3"; tm send-keys Enter
live=no
i=0
while [ $i -lt 40 ]; do
  case $(screen) in *"...  best so far "*) live=yes; break ;; esac
  sleep 0.1; i=$((i + 1))
done
if [ $live = yes ]; then ok "go shows a live line inside a depth"; else not_ok "go shows a live line inside a depth" "$(recent 5)"; fi
wait_prompts $((p + 1))
has "go ends with its best move" "best move " "$(recent 3)"
leave

echo "1..$n"
