#!/bin/sh
# bench/run.sh - the benchmarks (make bench). Each figure is the median of
# five runs; the machine is shared, so compare changes side by side in one run.
# Then every other bench/*.sh (engine, puzzles, start-up) runs in turn.
set -u
cd "$(dirname "$0")/.." || exit 2
runs=${BENCH_RUNS:-5}

# median of the "N Mnps" figures printed by COMMAND, over $runs runs
median_mnps() {
  i=0
  while [ $i -lt "$runs" ]; do
    "$@" | sed -n 's/.* \([0-9.]*\) Mnps$/\1/p'
    i=$((i + 1))
  done | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}

bulk=$(median_mnps ./build/perft_bench 9 bulk)
make=$(median_mnps ./build/perft_bench 8 make)
lua=$(median_mnps ./cheskers bench/lua_perft.lua 7)
echo "C perft, bulk counting, start position depth 9: $bulk Mnps (median of $runs)"
echo "C perft, every move made, start position depth 8: $make Mnps (median of $runs)"
echo "Lua perft (moves/play/undo, count at the last ply), depth 7: $lua Mnps (median of $runs)"
awk -v l="$lua" -v b="$bulk" 'BEGIN {printf "Lua perft / C bulk perft: %.2f\n", l / b}'

for f in bench/*.sh; do
  case "$f" in bench/run.sh) continue ;; esac
  echo "== $f"
  sh "$f"
done
