#!/bin/sh
# tests/program/tbuse_test.sh - the tablebases from the command line: check --tb
# (and $CHESKERS_TB) for a win past the solver's 15 moves, refused with what
# to do without tables; mine --tb finds studies that check passes, with the
# tables and (within 15 moves) with the solver alone; the engine bot's tb=
# option in a match; the endgame openings file of the match in docs/guide/engine.md.
# Prints TAP. Needs ./cheskers (make). Run from the repository root.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh

needs_program
unset CHESKERS_TB
./cheskers tb build --pieces 3 --dir "$tmp/tb" >/dev/null 2>&1
rc_is "the 3-piece tables build" 0 $?

# Two kings against one: the tables' longest 3-piece win is 33 plies, 17
# moves, past the solver's 15: a puzzle of it needs the tables.
cat >"$tmp/long.lua" <<'P'
return { fen = "1K1K4/8/8/8/8/8/8/2k5 w", moves = 17, solution = { "b8-a7" } }
P
out=$(./cheskers check "$tmp/long.lua"); rc=$?
rc_is "check: a win in 17 fails without tables" 1 $rc
has "check: ... and says what to do (the tables of its 3 pieces)" "needs tablebases: cheskers tb build --pieces 3" "$out"
out=$(./cheskers check --tb "$tmp/tb" "$tmp/long.lua")
hasnot "check --tb: the win in 17 is judged" "needs tablebases" "$out"
hasnot "check --tb: ... by the tables, not given up" "too hard" "$out"
# the tables make every answer exact: the line of one move does not end the
# game, and the key's rivals win in 17 too (the solver's own report of it)
has "check --tb: the unfinished line is a fault" "no win at end: after the 1 move of the solution the game goes on" "$out"
has "check --tb: rival first moves are found within 17" "also win within 17: " "$out"
out=$(CHESKERS_TB="$tmp/tb" ./cheskers check "$tmp/long.lua")
hasnot "check uses \$CHESKERS_TB" "needs tablebases" "$out"

# mine --tb: studies from the tables; each passes check with the tables,
# and (all within 15 moves here) with the solver alone.
./cheskers mine --tb "$tmp/tb" --games 20000 --moves 2-17 --seed 3 --out "$tmp/studies" --quiet >"$tmp/mine.out" 2>&1
rc_is "mine --tb runs" 0 $?
count=$(ls "$tmp/studies" | wc -l)
if [ "$count" -ge 3 ]; then ok "mine --tb finds studies ($count)"; else not_ok "mine --tb finds studies" "$(cat "$tmp/mine.out")"; fi
out=$(./cheskers check --quiet --tb "$tmp/tb" "$tmp/studies"/*); rc=$?
rc_is "every study passes check --tb" 0 $rc
out=$(./cheskers check --quiet "$tmp/studies"/*); rc=$?
rc_is "every study passes check with the solver alone" 0 $rc
has "the studies are tagged" "tablebase" "$(cat "$tmp/studies"/*)"
out=$(./cheskers mine --games 1 --moves 2-20 2>&1); rc=$?
rc_is "mine: more than 15 moves needs --tb" 1 $rc
has "mine: ... and says so" "up to 64 with --tb" "$out"

# The endgame openings: at least 100 lines, each 5 or 6 pieces, both kings.
bad=$(awk '!/^#/ && NF { b = $1; n = gsub(/[KBCPkbcp]/, "", b); c = $1;
        if (n < 5 || n > 6 || index(c, "K") == 0 || index(c, "k") == 0) print }' scripts/openings/endgames.txt)
lines=$(grep -vc '^#' scripts/openings/endgames.txt)
if [ -z "$bad" ] && [ "$lines" -ge 100 ]; then ok "endgames.txt: $lines openings of 5-6 pieces with both kings"
else not_ok "endgames.txt: openings of 5-6 pieces with both kings" "$bad"; fi

# The engine bot with tables in a match (two games of one opening).
head -n 3 scripts/openings/endgames.txt >"$tmp/open.txt"
out=$(./cheskers match "engine:nodes=300,tb=$tmp/tb" "engine:nodes=300" --openings "$tmp/open.txt" \
  --games 2 --quiet 2>&1); rc=$?
rc_is "match: the engine bot takes tb=DIR" 0 $rc
has "match: ... and plays both games" "engine:nodes=300,tb=" "$out"
out=$(./cheskers match "engine:tb=" "engine" --games 1 --quiet 2>&1); rc=$?
has "match: an empty tb= is refused" "bot engine:tb=: option 'tb' has no value after =" "$out"

echo "1..$n"
