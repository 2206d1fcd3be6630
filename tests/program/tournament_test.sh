#!/bin/sh
# tests/program/tournament_test.sh - `cheskers tournament` as a process, TAP: shards
# run at once into one folder report what one run reports; a run killed with
# kill -9 and rerun ends with the games and records of an uninterrupted run;
# a gauntlet of bots with forced results prints its crosstable exactly;
# --report, --records, --html; mistakes get one clear line. Run from the
# repository root after make.
set -u
cd "$(dirname "$0")/../.." || exit 2
CHESKERS=${CHESKERS:-./cheskers}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh

echo "1..15"
if [ ! -x "$CHESKERS" ]; then
  echo "Bail out! $CHESKERS is not built (run make)"
  exit 1
fi

# The games of a tournament folder, one line each: the fields that make a
# game, sorted.
cat >"$tmp/games.lua" <<'EOL'
local json = require "dkjson"
local out = {}
for i = 1, #arg do
  for line in io.lines(arg[i]) do
    local t = json.decode(line)
    if type(t) == "table" and not t.header then
      out[#out + 1] = table.concat({ t.round, t.pair, t.game, t.white, t.black, t.winner, t.reason,
        t.plies, table.concat(t.moves or {}, " ") }, "|")
    end
  end
end
table.sort(out)
print(table.concat(out, "\n"))
EOL
games() { lua5.4 "$tmp/games.lua" "$1"/*.jsonl; }

T="$CHESKERS tournament builtin-random builtin-greedy random --games 6 --seed 4 --max-plies 120 --quiet"

# ---- shards --------------------------------------------------------------------------
$T --out "$tmp/one" >"$tmp/one.txt" 2>"$tmp/one.err"
$T --out "$tmp/split" --shard 1/3 >"$tmp/s1.txt" 2>&1 &
p1=$!
$T --out "$tmp/split" --shard 2/3 >"$tmp/s2.txt" 2>&1 &
p2=$!
$T --out "$tmp/split" --shard 3/3 >"$tmp/s3.txt" 2>&1 &
p3=$!
wait $p1 $p2 $p3
"$CHESKERS" tournament --report "$tmp/split" >"$tmp/split.txt" 2>&1
if grep -q '^round robin of 3 bots, 18 games$' "$tmp/one.txt" && cmp -s "$tmp/one.txt" "$tmp/split.txt"; then
  ok "three shards run at once report what one run reports"
else
  not_ok "three shards run at once report what one run reports" "$(diff "$tmp/one.txt" "$tmp/split.txt" | head -5)" \
    "$(cat "$tmp/one.err")"
fi
if [ "$(games "$tmp/one")" = "$(games "$tmp/split")" ] && [ "$(ls "$tmp/split" | tr '\n' ' ')" = \
     "tournament.shard1of3.jsonl tournament.shard2of3.jsonl tournament.shard3of3.jsonl " ]; then
  ok "each shard wrote its own file; together they hold the games of one run"
else
  not_ok "each shard wrote its own file; together they hold the games of one run" "$(ls "$tmp/split")"
fi
# the shards that finished before the others said how far the folder was
if cat "$tmp/s1.txt" "$tmp/s2.txt" "$tmp/s3.txt" | grep -q '^round robin of 3 bots, 18 games$' \
   || cat "$tmp/s1.txt" "$tmp/s2.txt" "$tmp/s3.txt" | grep -q "holds .* of 18 games: when every shard is done"; then
  ok "a shard prints the report when the folder is complete, else how many games it holds"
else
  not_ok "a shard prints the report when the folder is complete, else how many games it holds" "$(cat "$tmp/s1.txt")"
fi

# ---- kill -9 and resume ----------------------------------------------------------------
K="$CHESKERS tournament builtin-random builtin-greedy random greedy --games 150 --seed 7 --max-plies 200 --quiet"
$K --out "$tmp/k_ref" --records "$tmp/k_ref.pgn" >/dev/null 2>&1
i=0
while [ $i -lt 3 ]; do
  $K --out "$tmp/k" --records "$tmp/k.pgn" >/dev/null 2>>"$tmp/k.err" &
  pid=$!
  sleep "0.$((3 + i * 2))"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  i=$((i + 1))
done
$K --out "$tmp/k" --records "$tmp/k.pgn" >"$tmp/k.txt" 2>>"$tmp/k.err"
if [ "$(games "$tmp/k_ref" | wc -l)" -eq 900 ] && [ "$(games "$tmp/k_ref")" = "$(games "$tmp/k")" ]; then
  ok "killed three times and rerun: the games of an uninterrupted run, each once"
else
  not_ok "killed three times and rerun: the games of an uninterrupted run, each once" "$(tail -3 "$tmp/k.err")"
fi
if cmp -s "$tmp/k_ref.pgn" "$tmp/k.pgn" && [ "$(grep -c '^\[White ' "$tmp/k.pgn")" -eq 900 ]; then
  ok "the game records are those of the uninterrupted run (none doubled or lost)"
else
  not_ok "the game records are those of the uninterrupted run (none doubled or lost)" \
    "$(grep -c '^\[White ' "$tmp/k.pgn") records"
fi

# ---- a gauntlet with forced results ------------------------------------------------------
# nomove returns no move and illegal an illegal one: each loses at its first
# turn, so greedy wins all four games and the two never meet.
printf 'return { name = "nomove", choose = function() return nil end }\n' >"$tmp/nomove.lua"
printf 'return { name = "illegal", choose = function() return "a1-h8" end }\n' >"$tmp/illegal.lua"
"$CHESKERS" tournament --gauntlet greedy "$tmp/nomove.lua" "$tmp/illegal.lua" --games 2 --sandbox --quiet \
  --out "$tmp/g" --html "$tmp/g.html" >"$tmp/g.txt" 2>&1
cat >"$tmp/g.want" <<'EOW'
crosstable (points of the row's bot against the column's / games):
  #  bot        1    2    3
  1  greedy     .  2/2  2/2
  2  nomove   0/2    .
  3  illegal  0/2         .
EOW
if grep -q '^gauntlet of 3 bots, 4 games$' "$tmp/g.txt" && grep -A4 '^crosstable' "$tmp/g.txt" | cmp -s - "$tmp/g.want"; then
  ok "a gauntlet's crosstable: the gauntlet bot against each, the others never meet"
else
  not_ok "a gauntlet's crosstable: the gauntlet bot against each, the others never meet" "$(cat "$tmp/g.txt")"
fi
"$CHESKERS" tournament --report "$tmp/g" --records "$tmp/g.pgn" >/dev/null 2>&1
if [ "$(grep -c '^\[Round ' "$tmp/g.pgn")" -eq 4 ] && grep -q '^\[White "greedy"\]' "$tmp/g.pgn" \
   && grep -q '^\[Black "nomove"\]' "$tmp/g.pgn" && [ "$(grep -c '^\[Result "1-0"\]' "$tmp/g.pgn")" -eq 2 ] \
   && grep -q '<td class="name">greedy</td><td>4</td><td>4</td>' "$tmp/g.html"; then
  ok "--report --records writes every game with White, Black, Result, Round; --html the table"
else
  not_ok "--report --records writes every game with White, Black, Result, Round; --html the table" \
    "$(head -12 "$tmp/g.pgn")"
fi

# ---- cheskers report on a tournament's folder -------------------------------------------
"$CHESKERS" report "$tmp/g" --no-svg >"$tmp/g_report.txt" 2>"$tmp/g_report.err"; rc=$?
"$CHESKERS" tournament --report "$tmp/g" >"$tmp/g_t.txt" 2>&1
if [ $rc -eq 0 ] && [ ! -s "$tmp/g_report.err" ] && grep -q '^gauntlet of 3 bots, 4 games$' "$tmp/g_report.txt" \
   && cmp -s "$tmp/g_report.txt" "$tmp/g_t.txt"; then
  ok "cheskers report DIR of a tournament prints what tournament --report DIR prints"
else
  not_ok "cheskers report DIR of a tournament prints what tournament --report DIR prints" \
    "status $rc" "$(head -5 "$tmp/g_report.err")"
fi

# ---- a lock of a run on another machine --------------------------------------------------
mkdir -p "$tmp/lk/tournament.shard1of1.jsonl.lock"
echo "4242@other-node" >"$tmp/lk/tournament.shard1of1.jsonl.lock/owner"
L="$CHESKERS tournament random greedy --games 1 --max-plies 20 --quiet --out $tmp/lk"
out1=$($L 2>&1); rc1=$?
out2=$($L --steal-lock 2>&1); rc2=$?
if [ $rc1 -eq 1 ] && echo "$out1" | grep -q 'in use by another run (4242@other-node); if no such run is alive, use --steal-lock' \
   && [ $rc2 -eq 0 ] && echo "$out2" | grep -q '^round robin of 2 bots, 1 game$' \
   && [ ! -e "$tmp/lk/tournament.shard1of1.jsonl.lock" ]; then
  ok "a lock held elsewhere is refused with the advice --steal-lock, which takes it"
else
  not_ok "a lock held elsewhere is refused with the advice --steal-lock, which takes it" "$out1" "$out2"
fi

if grep -q '^<h1>Cheskers tournament: gauntlet of 3 bots, 4 games</h1>$' "$tmp/g.html" \
   && grep -q "^<p class=\"note\">Made by <code>cheskers tournament --gauntlet greedy $tmp/nomove.lua" "$tmp/g.html" \
   && grep -q '<th class="l">seed</th><td class="l">1</td>' "$tmp/g.html" \
   && grep -q '<td class="name">greedy</td><td>4</td><td>4</td><td>100.0</td>' "$tmp/g.html" \
   && grep -q 'lost by a fault: nomove 2 (no move 2), illegal 2 (illegal move 2)' "$tmp/g.html"; then
  ok "the HTML page stands on its own: heading, command, settings, score %, faults"
else
  not_ok "the HTML page stands on its own: heading, command, settings, score %, faults" "$(head -30 "$tmp/g.html")"
fi

# ---- faults: who lost, how, with the bot's traceback ------------------------------------
# boom raises at its first turn; illegal answers a1-h8. After the 4 opening
# plies Black moves: in boom - illegal the bot with Black faults first.
printf 'return { name = "boom", choose = function() error("boom here") end }\n' >"$tmp/boom.lua"
"$CHESKERS" tournament greedy "$tmp/boom.lua" "$tmp/illegal.lua" --games 2 --quiet >"$tmp/f.txt" 2>"$tmp/f.err"
if grep -q "^game [0-9]*: boom (\(white\|black\)) lost by error: $tmp/boom.lua:1: boom here$" "$tmp/f.err" \
   && grep -A1 "lost by error" "$tmp/f.err" | grep -q '^stack traceback:$' \
   && grep -q '^game [0-9]*: illegal (\(white\|black\)) lost by illegal move a1-h8: ' "$tmp/f.err" \
   && ! grep -q 'illegal move: illegal move' "$tmp/f.err"; then
  ok "a game lost by a fault: the bot, its colour, the fault once, the traceback (also with --quiet)"
else
  not_ok "a game lost by a fault: the bot, its colour, the fault once, the traceback (also with --quiet)" \
    "$(cat "$tmp/f.err")"
fi
if grep -q '^ended by: error 3, illegal move 3$' "$tmp/f.txt" \
   && grep -q '^lost by a fault: boom 3 (error 3), illegal 3 (illegal move 3)$' "$tmp/f.txt"; then
  ok "the report says how the games ended and which bots lost games by a fault"
else
  not_ok "the report says how the games ended and which bots lost games by a fault" "$(cat "$tmp/f.txt")"
fi

# ---- records of a shard: .shard<I>of<N> before the extension, as --help says ----------
"$CHESKERS" tournament builtin-random builtin-greedy --games 2 --quiet --out "$tmp/rs" --shard 2/2 \
  --records "$tmp/rs.pgn" >/dev/null 2>&1
if [ "$(grep -c '^\[Event "cheskers tournament"\]$' "$tmp/rs.shard2of2.pgn" 2>/dev/null)" = 1 ] \
   && [ ! -e "$tmp/rs.pgn" ] && "$CHESKERS" tournament --help | tr -s ' \n' '  ' \
      | grep -q 'before the extension (games.pgn: games.shard1of4.pgn)'; then
  ok "--records with --shard 2/2 writes FILE.shard2of2.pgn, as --help says"
else
  not_ok "--records with --shard 2/2 writes FILE.shard2of2.pgn, as --help says" "$(ls "$tmp")"
fi

# ---- mistakes ---------------------------------------------------------------------------
out=$("$CHESKERS" tournament random --games 2 2>&1); rc=$?
want="cheskers tournament: give at least two bots (or --gauntlet BOT and one bot)"
if [ $rc -eq 1 ] && [ "$(echo "$out" | head -1)" = "$want" ]; then
  ok "one bot: a clear error"
else
  not_ok "one bot: a clear error" "$out"
fi
out1=$("$CHESKERS" tournament random greedy --shard 3/2 --out "$tmp/bad" 2>&1); rc1=$?
out2=$("$CHESKERS" tournament --report "$tmp/nothing" 2>&1); rc2=$?
if [ $rc1 -eq 1 ] && [ "$out1" = "cheskers tournament: shard must be I/N with 1 <= I <= N, not '3/2'" ] \
   && [ $rc2 -eq 1 ] && [ "$out2" = "cheskers tournament: no tournament results in $tmp/nothing" ]; then
  ok "a bad shard and an empty folder: one line each"
else
  not_ok "a bad shard and an empty folder: one line each" "$out1" "$out2"
fi
