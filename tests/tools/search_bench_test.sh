#!/bin/sh
# tests/tools/search_bench_test.sh - the bench's comparison (bench/search_bench.c,
# `search_bench compare NAME`) takes exactly the search's switches and
# margins of docs/guide/engine.md (it reads the one list, CHK_SEARCH_SWITCHES and
# CHK_SEARCH_MARGINS of core/cheskers.h) and refuses the tries that left the
# code, naming the ones it takes. Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh
. tests/cprog.sh
cprog bench/search_bench.c "$tmp/search_bench"

# docs/guide/engine.md: the switches that shipped, the margins, the rejected tries
for name in rfp aspiration fp delta rfp_margin=90 fp_margin=200; do
  "$tmp/search_bench" compare "$name" 20 >"$tmp/out" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && grep -q "^median of 5 rounds, 180 positions, 20 nodes each: ${name%%=*}.* off .* on " "$tmp/out"; then
    ok "compare $name: both sides measured"
  else
    not_ok "compare $name: both sides measured" "status $rc" "$(tail -n 3 "$tmp/out")"
  fi
done
want="(rfp, aspiration, fp, delta, rfp_margin=N, fp_margin=N)"
for name in nmp lmr lmp qtt hlmr unfinished hmalus iir counter pext rfp_margin=0 nmp_margin=5; do
  "$tmp/search_bench" compare "$name" 20 >"$tmp/out" 2>&1
  rc=$?
  if [ $rc -eq 2 ] && [ "$(cat "$tmp/out")" = "search_bench: no search switch or margin '$name' $want" ]; then
    ok "compare $name: refused in one line naming the ones it takes"
  else
    not_ok "compare $name: refused in one line naming the ones it takes" "status $rc" "$(cat "$tmp/out")"
  fi
done
echo "1..$n"
[ "$failed" -eq 0 ]
