#!/bin/sh
# bench/selfplay.sh - self-play throughput of rule experiments (issue 15),
# called by bench/run.sh (make bench):
#   - games per CPU second on one core, engine:level=3 both sides, and the
#     cost of recording the evaluation trace (static evaluation, 2-ply
#     search) against no trace (target < 20%);
#   - the scaling over both cores with GNU parallel: the same games in one
#     process, then twice as many in two (target >= 1.8x).
#   BENCH_SELFPLAY_GAMES   games per measure (default 200)
set -u
cd "$(dirname "$0")/.." || exit 2
games=${BENCH_SELFPLAY_GAMES:-200}

out=$(./cheskers bench/selfplay.lua "$games" none eval depth2) || exit 1
echo "$out" | sed 's/^/self-play, engine:level=3, /'
rate() { echo "$out" | sed -n "s/^$1: .* \([0-9.]*\) games\/s$/\1/p"; }
none=$(rate none); ev=$(rate eval); d2=$(rate depth2)
awk -v n="$none" -v e="$ev" -v d="$d2" 'BEGIN {
  printf "trace cost: static evaluation %+.1f%%, 2-ply search %+.1f%% of the time per game (target < 20%%)\n",
    100 * (n / e - 1), 100 * (n / d - 1) }'

# wall-clock seconds of a command
wall() {
  t0=$(date +%s.%N)
  "$@" >/dev/null
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
if command -v parallel >/dev/null 2>&1; then
  one=$(wall ./cheskers bench/selfplay.lua "$games" eval)
  two=$(wall parallel -N0 ./cheskers bench/selfplay.lua "$games" eval ::: 1 2)
  awk -v g="$games" -v a="$one" -v b="$two" 'BEGIN {
    printf "self-play over 2 cores with GNU parallel: %d games in %.2f s on one, %d in %.2f s on two: %.2fx (target >= 1.8x)\n",
      g, a, 2 * g, b, (2 * g / b) / (g / a) }'
else
  echo "self-play scaling: GNU parallel is not installed (apt-get install parallel)"
fi
