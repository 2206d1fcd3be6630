#!/bin/sh
# bench/selfplay.sh - self-play throughput of rule experiments (issue 15),
# called by bench/run.sh (make bench):
#   - games per CPU second on one core, engine:level=3 both sides, and the
#     cost of recording the evaluation trace (static evaluation, 2-ply
#     search) against no trace (target < 20%);
#   - the scaling over both cores with GNU parallel: the same games in one
#     process, then twice as many in two (target >= 1.8x).
#   BENCH_SELFPLAY_GAMES   games per measure (default 600: shorter runs are
#   dominated by starting the processes)
set -u
cd "$(dirname "$0")/.." || exit 2
games=${BENCH_SELFPLAY_GAMES:-600}

out=$(./cheskers bench/selfplay.lua "$games" none eval depth2) || exit 1
echo "$out" | sed 's/^/self-play, engine:level=3, /'
rate() { echo "$out" | sed -n "s/^$1: .* \([0-9.]*\) games\/s$/\1/p"; }
none=$(rate none); ev=$(rate eval); d2=$(rate depth2)
awk -v n="$none" -v e="$ev" -v d="$d2" 'BEGIN {
  printf "trace cost: static evaluation %+.1f%%, 2-ply search %+.1f%% of the time per game (target < 20%%)\n",
    100 * (n / e - 1), 100 * (n / d - 1) }'

# wall-clock seconds of a command; its output in $tmp_out
tmp_out=$(mktemp) || exit 2
trap 'rm -f "$tmp_out"' EXIT
wall() {
  t0=$(date +%s.%N)
  "$@" >"$tmp_out"
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
# the CPU seconds the selfplay runs of the last wall() printed, added up
cpu() { sed -n 's/.* in \([0-9.]*\) s cpu.*/\1/p' "$tmp_out" | awk '{ s += $1 } END { printf "%.3f", s }'; }
if command -v parallel >/dev/null 2>&1; then
  one=$(wall ./cheskers bench/selfplay.lua "$games" eval); cpu1=$(cpu)
  two=$(wall parallel -N0 -j2 ./cheskers bench/selfplay.lua "$games" eval ::: 1 2); cpu2=$(cpu)
  load=$(cut -d' ' -f1 /proc/loadavg)
  awk -v g="$games" -v a="$one" -v b="$two" -v c1="$cpu1" -v c2="$cpu2" -v l="$load" 'BEGIN {
    printf "self-play over 2 cores with GNU parallel: %d games in %.2f s on one, %d in %.2f s on two: %.2fx (target >= 1.8x; load average %s: other work takes cores too)\n",
      g, a, 2 * g, b, (2 * g / b) / (g / a), l
    printf "CPU time per game, two processes at once against one alone: %.2f (1.00: nothing shared slows them)\n",
      (c2 / (2 * g)) / (c1 / g) }'
else
  echo "self-play scaling: GNU parallel is not installed (apt-get install parallel)"
fi
