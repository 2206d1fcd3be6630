#!/bin/sh
# tests/program/tb5_test.sh - a 5-piece table in use: the engine, the solver and
# check --tb, mine (--studies and --tb), the REPL's tb command and tb probe
# all take the 5-piece unit KKK v KK (built with tb build --only on the
# kings-only tables it reads, the folder's complete set being K v K alone).
# Expected values come from the tables probed position by position (the
# minimax equation over each move's b:probe) and from the solver without
# tables on short wins, never from the output under test.
# Prints TAP. Needs ./cheskers (make). Run from the repository root.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh

needs_program
unset CHESKERS_TB
tb=$tmp/tb
# K v K, then every kings-only table up to KKK v KK (each unit reads the ones before)
out=$( (./cheskers tb build --pieces 2 --dir "$tb" &&
  for s in KKvK KKKvK KKvKK KKKvKK; do ./cheskers tb build --only $s --dir "$tb" || exit 1; done) 2>&1)
rc_is "the kings-only tables up to KKK v KK build (--only, unit by unit)" 0 $?
if [ -f "$tb"/KKKvKK.*.ctb ] && [ -f "$tb"/KKvKKK.*.ctb ]; then ok "the 5-piece unit: KKKvKK and its colour swap"
else not_ok "the 5-piece unit: KKKvKK and its colour swap" "$out" "$(ls "$tb")"; fi
# the same folder without the 5-piece unit
mkdir "$tmp/tb4" && cp "$tb"/*.ctb "$tmp/tb4" && rm "$tmp/tb4"/KKKvKK.* "$tmp/tb4"/KvKKK.* "$tmp/tb4"/KKvKKK.*

# The table's longest win (tables:info), checked move by move against the
# tables' probes; the engine's move and score; a short win by the solver
# alone. Prints "name: ok" lines, or "name: FAIL why".
cat >"$tmp/engine.lua" <<'LUA'
local cheskers = require "cheskers"
local T = cheskers.tb.open(arg[1])
local WIN = cheskers.engine.WIN
local function say(name, ok, why) print(name .. ": " .. (ok and "ok" or ("FAIL " .. tostring(why)))) end
local info
for _, i in ipairs(T:info()) do if i.name == "KKKvKK" then info = i end end
say("info", info and info.pieces == 5 and info.longest_win > 31, info and info.longest_win)
local b = cheskers.new(info.longest_fen)
-- the minimax equation at the root: a win in d plies is a move into a
-- position the opponent loses in d - 1, none faster, and no move left
-- that the opponent wins or draws... is not needed: one losing reply is
local value, d = b:probe(T)
local fastest, fastest_moves = nil, {}
for _, m in ipairs(b:moves()) do
  local c = b:copy()
  c:play(m)
  local v, dc = c:probe(T)
  if v == "loss" then
    if not fastest or dc < fastest then fastest, fastest_moves = dc, {} end
    if dc == fastest then fastest_moves[tostring(m)] = true end
  end
end
say("probe", value == "win" and fastest and d == fastest + 1, ("%s %s, fastest reply loss %s"):format(value, d, fastest))
say("longest", d == info.longest_win, d)
-- the engine: a fastest winning move of the tables, the exact score, from the tables
local r = b:search { depth = 2, tb = T }
say("engine move", fastest_moves[tostring(r.move)], r.move)
say("engine score", r.score == WIN - d, r.score)
say("engine tb", r.tb == true, r.tb)
-- a win the solver alone can see: the table's distance agrees with it
local seed, found = 7, nil
local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % n + 1 end
for _ = 1, 20000 do
  local p = cheskers.new("8/8/8/8/8/8/8/8 w")
  local free = {}
  for _, sq in ipairs(cheskers.SQUARES) do free[#free + 1] = sq end
  for _, l in ipairs { "K", "K", "K", "k", "k" } do p:put(table.remove(free, rnd(#free)), l) end
  local okp, fresh = pcall(cheskers.new, p:fen())
  if okp and not fresh:result() then
    local v, dist = fresh:probe(T)
    if v == "win" and dist >= 5 and dist <= 7 then found = { fresh, dist } break end
  end
end
say("short win found", found ~= nil, "no KKK v KK position won in 5 to 7 plies")
local k = (found[2] + 1) // 2
local s = found[1]:solve { moves = k }
local shorter = k > 1 and found[1]:solve { moves = k - 1 }
say("solver alone", s.win and s.shortest == k and not (shorter and shorter.win), found[1]:fen())
print("fen " .. info.longest_fen)
print("moves " .. (d + 1) // 2)
print("key " .. tostring(r.move))
LUA
out=$(./cheskers "$tmp/engine.lua" "$tb" 2>&1)
for name in info probe longest "engine move" "engine score" "engine tb" "short win found" "solver alone"; do
  has "KKK v KK: $name" "$name: ok" "$out"
done
fen=$(printf '%s\n' "$out" | sed -n 's/^fen //p')
moves=$(printf '%s\n' "$out" | sed -n 's/^moves //p')
key=$(printf '%s\n' "$out" | sed -n 's/^key //p')

# check --tb: the long win (past the solver's 15 moves) is judged by the
# 5-piece table; without it the check says which tables it needs.
cat >"$tmp/long.lua" <<P
return { fen = "$fen", moves = $moves, solution = { "$key" } }
P
out=$(./cheskers check --tb "$tb" "$tmp/long.lua")
hasnot "check --tb: the win in $moves is judged" "needs tablebases" "$out"
hasnot "check --tb: ... by the tables, not given up" "too hard" "$out"
hasnot "check --tb: the key wins in $moves, not faster" "shorter win" "$out"
hasnot "check --tb: ... and it does win in $moves" "not forced" "$out"
has "check --tb: ... and its line of one move does not end the game" \
  "no win at end: after the 1 move of the solution" "$out"
sed "s/moves = $moves/moves = $((moves - 1))/" "$tmp/long.lua" >"$tmp/short.lua"
out=$(./cheskers check --tb "$tb" "$tmp/short.lua")
has "check --tb: it is no win in $((moves - 1))" "not forced" "$out"
out=$(./cheskers check --tb "$tmp/tb4" "$tmp/long.lua"); rc=$?
rc_is "check --tb without the 5-piece unit: fails" 1 $rc
has "check --tb: ... naming the tables it needs" \
  "a win in $moves needs tablebases: cheskers tb build --pieces 5, then check --tb DIR (the tables in $tmp/tb4 go to 4 pieces)" "$out"
out=$(./cheskers check "$tmp/long.lua")
has "check without tables names the position's pieces" "needs tablebases: cheskers tb build --pieces 5" "$out"

# tb probe: the value and distance of the command line
out=$(./cheskers tb probe --dir "$tb" "$fen")
has "tb probe: the 5-piece position" "White to move: win in $((2 * moves - 1)) plies" "$out"

# mine --studies: studies in the 5-piece table, each passing check --tb
./cheskers mine --studies --tb "$tb" --signature KKKvKK,KKvKK --moves 6-40 --out "$tmp/studies" \
  --file s.lua --quiet >"$tmp/mine.out" 2>&1
rc_is "mine --studies --signature KKKvKK,KKvKK runs" 0 $?
five=$(grep -c 'source = "cheskers mine --studies, KKKvKK' "$tmp/studies/s.lua")
if [ "$five" -ge 1 ]; then ok "mine --studies finds studies in KKK v KK ($five)"
else not_ok "mine --studies finds studies in KKK v KK" "$(cat "$tmp/mine.out")"; fi
out=$(./cheskers check --quiet --tb "$tb" "$tmp/studies/s.lua"); rc=$?
rc_is "every study passes check --tb" 0 $rc
# mine --tb: the random positions go up to the largest table there (the
# folder's complete set is K v K alone: it used to be refused)
out=$(./cheskers mine --tb "$tb" --games 50 --moves 2-40 --out "$tmp/random" --quiet 2>&1); rc=$?
rc_is "mine --tb with a 5-piece unit over K v K runs" 0 $rc

# the REPL's tb command: the folder, each move's value
out=$(./cheskers -c "tb $tb; fen $fen; tb" 2>&1)
has "REPL: tb DIR counts the 5-piece tables" "(every position with up to 2 pieces, and 2 tables of 5 pieces)" "$out"
has "REPL: tb gives the key its value and distance" "$key  win in $((2 * moves - 1))" "$out"
out=$(./cheskers -c "tb $tmp/tb4; fen $fen; tb" 2>&1)
has "REPL: without the unit it says which tables to build" \
  "no table covers this position (5 pieces): the tables in $tmp/tb4 go to 4 pieces; build them with \`cheskers tb build --pieces 5 --dir $tmp/tb4\`" "$out"

# the engine bot with tb= in a match from the position: White wins the
# game it plays White in (the other bot searches without tables)
echo "$fen" >"$tmp/open.txt"
out=$(./cheskers match "engine:nodes=200,tb=$tb" "engine:nodes=200" --openings "$tmp/open.txt" --games 1 2>&1); rc=$?
rc_is "match: the engine bot with the 5-piece table" 0 $rc
has "match: ... wins the won position" "+1 =0 -0" "$out"

echo "1..$n"
