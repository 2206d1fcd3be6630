#!/bin/sh
# bench/engine.sh - the engine's figures (docs/BENCHMARKS.md): C search speed, and the
# strength matches of issue 4. Called by bench/run.sh (make bench).
#   BENCH_RUNS   runs for the speed median (default 5)
#   BENCH_GAMES  games of engine vs greedy (default 100)
#   BENCH_AB_GAMES  games of alphabeta vs greedy (default 40)
set -u
cd "$(dirname "$0")/.." || exit 2
runs=${BENCH_RUNS:-5}
games=${BENCH_GAMES:-100}
ab_games=${BENCH_AB_GAMES:-40}
[ -x build/search_bench ] || make -s build/search_bench || exit 2

# search speed: six positions of a game, each searched to depth 10
i=0
nps=$(while [ $i -lt "$runs" ]; do
        ./build/search_bench depth 10 | sed -n 's/.* \([0-9.]*\) Mnps$/\1/p'
        i=$((i + 1))
      done | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
echo "C search (6 positions, depth 10, quiescence included): $nps Mnps (median of $runs; target >= 3)"

# strength: the score of the first bot, from the final table
score() { sed -n "s/^$1 .* \([0-9.]*%\)\$/\1/p" | head -n 1; }

t0=$(date +%s)
out=$(./cheskers match engine greedy --games "$games" --nodes 20000 --seed 1 --quiet)
echo "$out"
s=$(echo "$out" | score engine)
t1=$(date +%s)
echo "engine (20000 nodes a move) vs greedy, $games games: engine scores $s (target >= 90%), $((t1 - t0)) s"

out=$(./cheskers match alphabeta greedy --games "$ab_games" --nodes 2000 --seed 1 --quiet)
echo "$out"
s=$(echo "$out" | score alphabeta)
t2=$(date +%s)
echo "alphabeta (pure Lua, 2000 nodes a move) vs greedy, $ab_games games: alphabeta scores $s (target > 50%), $((t2 - t1)) s"
