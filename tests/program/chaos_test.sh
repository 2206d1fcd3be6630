#!/bin/sh
# tests/program/chaos_test.sh - long runs lose nothing (issue 11), TAP. A match, an
# experiment and a mining run are each killed with kill -9 at random
# moments, CHAOS_KILLS times (default 3; make check-all sets 20), and rerun
# with the same command (--resume for match) until they finish; the final
# results must be exactly those of one uninterrupted run: every game once
# (by number: winner, reason, plies, moves), no torn line, the game records
# neither doubled nor lost, the same puzzles. Also: two runs writing the
# same output are refused. Run from the repository root after make.
set -u
cd "$(dirname "$0")/../.." || exit 2
CHESKERS=${CHESKERS:-./cheskers}
KILLS=${CHAOS_KILLS:-3}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh

echo "1..9"
if [ ! -x "$CHESKERS" ]; then
  echo "Bail out! $CHESKERS is not built (run make)"
  exit 1
fi

# a random delay in [0, $1) seconds, different at every call
delay() {
  awk -v max="$1" -v s="$(od -An -N4 -tu4 /dev/urandom)" 'BEGIN { srand(s); printf "%.3f", rand() * max }'
}

# Runs "$@" in the background, kills it with kill -9 after a random delay
# (below $SPAN seconds), KILLS times; then once more to the end.
chaos() {
  i=0
  while [ $i -lt "$KILLS" ]; do
    "$@" >/dev/null 2>>"$tmp/chaos.err" &
    pid=$!
    sleep "$(delay "$SPAN")"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    i=$((i + 1))
  done
  "$@" >/dev/null 2>>"$tmp/chaos.err"
}

# The games of a results file, one line each, by number: the fields that
# make a game (not its time), sorted.
cat >"$tmp/games.lua" <<'EOL'
local json = require "dkjson"
local out = {}
for line in io.lines(arg[1]) do
  local t = json.decode(line)
  if type(t) == "table" and not t.header then
    out[#out + 1] = table.concat({ tostring(t.game), tostring(t.variant), tostring(t.winner or t.result),
      tostring(t.reason), tostring(t.plies), table.concat(t.moves or {}, " ") }, "|")
  end
end
table.sort(out)
print(table.concat(out, "\n"))
EOL
games() { lua5.4 "$tmp/games.lua" "$1"; }

# ---- match --------------------------------------------------------------------
M="$CHESKERS match greedy random --games 150 --seed 5 --quiet"
$M --out "$tmp/m_ref/results.jsonl" --records "$tmp/m_ref/games.txt" >/dev/null 2>&1
start=$(date +%s.%N)
$M --out "$tmp/m_time.jsonl" >/dev/null 2>&1
SPAN=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", (b - a) * 1.2 + 0.05 }')
chaos $M --out "$tmp/m/results.jsonl" --records "$tmp/m/games.txt" --resume
games "$tmp/m_ref/results.jsonl" >"$tmp/m_ref.games"
games "$tmp/m/results.jsonl" >"$tmp/m.games"
if [ "$(wc -l <"$tmp/m_ref.games")" -eq 150 ] && cmp -s "$tmp/m_ref.games" "$tmp/m.games"; then
  ok "match killed $KILLS times and resumed: the games of an uninterrupted run, each once"
else
  not_ok "match killed $KILLS times and resumed: the games of an uninterrupted run, each once" \
    "$(diff "$tmp/m_ref.games" "$tmp/m.games" | head -5)" "$(tail -5 "$tmp/chaos.err")"
fi
if [ "$(tail -c 1 "$tmp/m/results.jsonl" | od -An -c | tr -d ' ')" = '\n' ] \
   && [ "$(wc -l <"$tmp/m/results.jsonl")" -eq 151 ]; then
  ok "the match results file has a header and 150 whole lines"
else
  not_ok "the match results file has a header and 150 whole lines" "$(wc -l <"$tmp/m/results.jsonl")"
fi
if cmp -s "$tmp/m_ref/games.txt" "$tmp/m/games.txt"; then
  ok "the game records are those of the uninterrupted run (none doubled or lost)"
else
  not_ok "the game records are those of the uninterrupted run (none doubled or lost)" \
    "$(grep -c Event "$tmp/m/games.txt") records" "$(diff "$tmp/m_ref/games.txt" "$tmp/m/games.txt" | head -5)"
fi
out=$($M --out "$tmp/m/results.jsonl" --records "$tmp/m/games.txt" --resume 2>&1)
if cmp -s "$tmp/m_ref/games.txt" "$tmp/m/games.txt" && [ "$(wc -l <"$tmp/m/results.jsonl")" -eq 151 ]; then
  ok "match --resume after a finished match plays nothing and appends no record"
else
  not_ok "match --resume after a finished match plays nothing and appends no record" "$out"
fi

# ---- experiment -----------------------------------------------------------------
EXP=$tmp/chaos.lua
cat >"$EXP" <<'EOE'
return { name = "chaos", seed = 3, max_plies = 80,
  bots = { white = "random", black = "builtin-greedy" },
  variants = { { name = "golomb" }, { name = "nomajority", rules = { majority = false } } } }
EOE
X="$CHESKERS experiment $EXP --games 100 --quiet --moves"
$X --out "$tmp/x_ref" >/dev/null 2>&1
start=$(date +%s.%N)
$X --out "$tmp/x_time" >/dev/null 2>&1
SPAN=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", (b - a) * 1.2 + 0.05 }')
chaos $X --out "$tmp/x"
games "$tmp/x_ref/chaos.seed3.shard1of1.jsonl" >"$tmp/x_ref.games"
games "$tmp/x/chaos.seed3.shard1of1.jsonl" >"$tmp/x.games"
"$CHESKERS" report "$tmp/x_ref" --no-svg >"$tmp/x_ref.txt" 2>&1
"$CHESKERS" report "$tmp/x" --no-svg >"$tmp/x.txt" 2>&1
if [ "$(wc -l <"$tmp/x_ref.games")" -eq 200 ] && cmp -s "$tmp/x_ref.games" "$tmp/x.games" \
   && cmp -s "$tmp/x_ref.txt" "$tmp/x.txt"; then
  ok "experiment killed $KILLS times and rerun: the games and report of an uninterrupted run"
else
  not_ok "experiment killed $KILLS times and rerun: the games and report of an uninterrupted run" \
    "$(diff "$tmp/x_ref.games" "$tmp/x.games" | head -5)" "$(diff "$tmp/x_ref.txt" "$tmp/x.txt" | head -5)"
fi

# ---- mining -------------------------------------------------------------------------
Y="$CHESKERS mine --games 4 --seed 2 --moves 1-3 --quiet"
$Y --out "$tmp/y_ref" >/dev/null 2>&1
start=$(date +%s.%N)
$Y --out "$tmp/y_time" >/dev/null 2>&1
SPAN=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", (b - a) * 1.2 + 0.05 }')
chaos $Y --out "$tmp/y"
if [ -n "$(ls "$tmp/y_ref")" ] && diff -r "$tmp/y_ref" "$tmp/y" >"$tmp/y.diff" 2>&1; then
  ok "mining killed $KILLS times and rerun: the puzzles of an uninterrupted run"
else
  not_ok "mining killed $KILLS times and rerun: the puzzles of an uninterrupted run" "$(head -5 "$tmp/y.diff")"
fi

# ---- one writer per output --------------------------------------------------------
# a live run holds the lock: a second run on the same output is refused
"$CHESKERS" match greedy random --games 100000 --quiet --out "$tmp/busy/results.jsonl" >/dev/null 2>&1 &
pid=$!
i=0
while [ ! -d "$tmp/busy/results.jsonl.lock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
out=$("$CHESKERS" match greedy random --games 2 --quiet --out "$tmp/busy/results.jsonl" --resume 2>&1)
rc=$?
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
if [ $rc -ne 0 ] && echo "$out" | grep -q "in use by another run"; then
  ok "a second match on the same --out is refused while the first runs"
else
  not_ok "a second match on the same --out is refused while the first runs" "status $rc: $out"
fi
# the killed run's lock is stale now: the next run takes it over
if "$CHESKERS" match greedy random --games 2 --quiet --out "$tmp/busy/results.jsonl" --resume >/dev/null 2>&1; then
  ok "after the first run is killed, its stale lock is taken over"
else
  not_ok "after the first run is killed, its stale lock is taken over"
fi
$X --games 100000 --out "$tmp/xbusy" >/dev/null 2>&1 &
pid=$!
i=0
while [ ! -d "$tmp/xbusy/chaos.seed3.shard1of1.jsonl.lock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
out=$($X --out "$tmp/xbusy" 2>&1)
rc=$?
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
if [ $rc -ne 0 ] && echo "$out" | grep -q "in use by another run"; then
  ok "a second experiment run on the same shard file is refused while the first runs"
else
  not_ok "a second experiment run on the same shard file is refused while the first runs" "status $rc: $out"
fi
