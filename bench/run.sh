#!/bin/sh
# bench/run.sh - the benchmarks (make bench). Each figure is the median of
# five runs; the machine is shared, so compare changes side by side in one run.
# Then every other bench/*.sh (engine, puzzles, start-up, nps_compare: nodes
# a second against issue 23's start) runs in turn.
set -u
cd "$(dirname "$0")/.." || exit 2
runs=${BENCH_RUNS:-5}

# the median of the numbers on standard input, one a line
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
# the output of COMMAND over $runs runs
runs_of() { # command...
  i=0
  while [ $i -lt "$runs" ]; do
    "$@"
    i=$((i + 1))
  done
}
# median of the figures printed by COMMAND that the sed expression picks,
# over $runs runs
median_of() { # sed-expression command...
  expr=$1; shift
  runs_of "$@" | sed -n "$expr" | median
}
# median of the "N Mnps" figures printed by COMMAND
median_mnps() { median_of 's/.* \([0-9.]*\) Mnps$/\1/p' "$@"; }

# b:moves() move objects a second before the search-loop API (issue 13):
# bench/lua_moves.lua 8 at commit 301bed8 (NATIVE=1, as make bench builds),
# median of 3 runs on the project machine (load about 8). The ratio below
# compares today's run with it; on another machine run that commit's tree
# beside this one instead.
MOVES_BEFORE=11.4

bulk=$(median_mnps ./build/perft_bench 9 bulk)
make=$(median_mnps ./build/perft_bench 8 make)
lua=$(median_mnps ./cheskers bench/lua_perft.lua 7)
echo "C perft, bulk counting, start position depth 9: $bulk Mnps (median of $runs)"
echo "C perft, every move made, start position depth 8: $make Mnps (median of $runs)"
echo "Lua perft (moves/play/undo, count at the last ply), depth 7: $lua Mnps (median of $runs)"
awk -v l="$lua" -v b="$bulk" 'BEGIN {printf "Lua perft / C bulk perft: %.2f\n", l / b}'

moves=$(median_mnps ./cheskers bench/lua_moves.lua 8)
echo "Lua perft building move objects at every ply (b:moves), depth 8: $moves Mnps (median of $runs)"
awk -v m="$moves" -v o="$MOVES_BEFORE" \
  'BEGIN {printf "b:moves() move objects/s, now / before issue 13 (%s Mnps): %.2f (target >= 2)\n", o, m / o}'
ratio=$(median_of 's/^Lua bot \/ C search nodes\/s: \([0-9.]*\)$/\1/p' ./cheskers bench/bot_bench.lua)
echo "Lua bot (scripts/bots/alphabeta.lua) nodes/s / C search nodes/s: $ratio (median of $runs; target >= 0.05)"

# what a board costs (bench/lua_new.lua): the memory of a live board (the
# same in every run: the first run's; target <= 2 KB) and cheskers.new(fen)
# calls a second (medians)
out=$(runs_of ./cheskers bench/lua_new.lua)
printf '%s\n' "$out" | sed -n "1,2s/^memory/Memory/p"
newfen=$(printf '%s\n' "$out" | sed -n 's/^cheskers.new(fen): \([0-9.]*\) M\/s$/\1/p' | median)
newrules=$(printf '%s\n' "$out" | sed -n 's/^cheskers.new(fen, {majority = false}): \([0-9.]*\) M\/s$/\1/p' | median)
echo "cheskers.new(fen): $newfen M/s (median of $runs; target >= 1); with a rules table: $newrules M/s"

for f in bench/*.sh; do
  case "$f" in bench/run.sh) continue ;; esac
  echo "== $f"
  sh "$f"
done
