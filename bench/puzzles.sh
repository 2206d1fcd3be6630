#!/bin/sh
# bench/puzzles.sh - the puzzle checker's speed (issue 5):
#   - the median time to check one win-in-5 puzzle of the collection, each
#     checked alone in a fresh `cheskers check` (a cold solver table), target
#     under 1 s;
#   - the collection's total check time (`cheskers check scripts/puzzles/*.lua`,
#     wall clock, one process).
# Run from anywhere (make bench runs it); needs ./cheskers built.
set -u
cd "$(dirname "$0")/.." || exit 2
exe=${CHESKERS:-./cheskers}
[ -x "$exe" ] || { echo "bench/puzzles.sh: $exe is not built (make)"; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

now() { date +%s.%N; }

# one file per win-in-5 puzzle of the collection
"$exe" - "$tmp" scripts/puzzles/*.lua <<'EOF'
local puzzle = require "cheskers.puzzle"
local dir, n = arg[1], 0
for i = 2, #arg do
  for _, p in ipairs(assert(puzzle.load(arg[i]))) do
    if p.moves == 5 then
      n = n + 1
      p.file, p.index = nil, nil
      local f = assert(io.open(string.format("%s/p%03d.lua", dir, n), "w"))
      f:write(puzzle.serialize({ p }))
      f:close()
    end
  end
end
EOF

count=0
for f in "$tmp"/p*.lua; do
  [ -e "$f" ] || continue
  t0=$(now)
  "$exe" check --quiet "$f" >/dev/null || echo "bench/puzzles.sh: $f fails its check"
  t1=$(now)
  echo "$t0 $t1" | awk '{printf "%.3f\n", $2 - $1}' >>"$tmp/times"
  count=$((count + 1))
done
if [ "$count" -gt 0 ]; then
  sort -n "$tmp/times" | awk -v n="$count" '{a[NR] = $1} END {
    printf "check a win-in-5 puzzle (alone, fresh process): median %.3f s, max %.3f s over %d puzzles (target < 1 s)\n",
      a[int((NR + 1) / 2)], a[NR], n }'
else
  echo "no win-in-5 puzzle in scripts/puzzles"
fi

t0=$(now)
"$exe" check --quiet scripts/puzzles/*.lua >"$tmp/all" 2>&1
rc=$?
t1=$(now)
summary=$(tail -n 1 "$tmp/all")
echo "$t0 $t1" | awk -v s="$summary" '{printf "collection check: %s (wall %.2f s)\n", s, $2 - $1}'
[ "$rc" -eq 0 ] || { echo "bench/puzzles.sh: the collection does not pass its check"; cat "$tmp/all"; exit 1; }
