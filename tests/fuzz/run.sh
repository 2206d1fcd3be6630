#!/bin/sh
# tests/fuzz/run.sh SECONDS TARGET... - runs the libFuzzer targets built by
# make (build/fuzz/fuzz_TARGET), one after the other, SECONDS each.
#
# For each target: first every saved crash input (tests/fuzz/crashes/TARGET-*)
# and the seed corpus (tests/fuzz/corpus/TARGET/) are replayed - a crash
# there is a regression - then the target fuzzes, starting from the seeds and
# what earlier runs found (tests/fuzz/out/TARGET/, not committed). New crash
# inputs land in tests/fuzz/crashes/ as TARGET-crash-<sha1> (also -leak-,
# -timeout-, -oom-): keep them, under a name that says what they show, once
# the bug is understood. Runs niced, one process at a time.
#   FUZZ_OPTS   extra libFuzzer options (e.g. -jobs=2 -workers=2)
#   FUZZ_MERGE=1  afterwards merge the new inputs that add coverage into the
#                 seed corpus (do this after long runs)
set -u
cd "$(dirname "$0")/../.." || exit 2
secs=${1:?usage: run.sh SECONDS TARGET...}; shift
dir=tests/fuzz
status=0
for t in "$@"; do
  bin=build/fuzz/fuzz_$t
  if [ ! -x "$bin" ]; then
    echo "not ok - $t: $bin is not built (make fuzz-build; needs clang)"; status=1; continue
  fi
  mkdir -p "$dir/out/$t" "$dir/corpus/$t" "$dir/crashes"
  dict=""; [ -f "$dir/$t.dict" ] && dict="-dict=$dir/$t.dict"
  log=$dir/out/$t.log
  # replay: saved crash inputs and the seeds must all pass
  set -- "$dir"/crashes/"$t"-*
  if [ -e "$1" ]; then
    if ! nice "$bin" -runs=1 "$@" >"$log" 2>&1; then
      echo "not ok - $t: a saved crash input fails again"; tail -n 30 "$log"; status=1; continue
    fi
    nsaved=$#
  else
    nsaved=0
  fi
  # fuzz
  # shellcheck disable=SC2086
  nice "$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/crashes/$t-" $dict ${FUZZ_OPTS:-} \
    "$dir/out/$t" "$dir/corpus/$t" >"$log" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
  if [ $rc -ne 0 ]; then
    echo "not ok - $t: crashed after ${runs:-?} runs ($log):"
    grep -E 'ERROR|invariant|broke a rule|runtime error|Test unit written' "$log" | head -n 5
    grep -E '^ +#[0-9]+ ' "$log" | head -n 12
    status=1
  else
    echo "ok - $t: ${secs}s, ${runs:-?} runs, $cov, $nsaved saved crash inputs replayed"
  fi
  if [ "${FUZZ_MERGE:-0}" = 1 ] && [ $rc -eq 0 ]; then
    nice "$bin" -merge=1 $dict "$dir/corpus/$t" "$dir/out/$t" >"$dir/out/$t.merge.log" 2>&1 &&
      echo "# $t: seed corpus now $(ls "$dir/corpus/$t" | wc -l) inputs"
  fi
done
exit $status
