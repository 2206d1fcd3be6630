#!/bin/sh
# tests/run.sh - runs every test suite and ends with "N passed, N failed".
# Suites: each busted spec (tests/**/*_spec.lua, one busted process each),
# the TAP-printing scripts tests/**/*_test.sh and luacheck (.luacheckrc) over
# the files of LINT below. Each prints TAP; a suite that dies without saying
# "not ok" counts as one failure. Run from the repository root (make test).
# The suites run side by side, TEST_JOBS at a time (default: the number of
# cores, nproc), the longest first (their times of the last run are kept in
# build/test-times); each one's output is kept apart and printed, suite by
# suite in a fixed order, once all have ended: "# SUITE: N passed, N failed"
# and, for a suite that failed, its failures and the end of its stderr.
# TEST_JOBS=1 runs them one after the other.
# TESTS="tests/x_spec.lua tests/y_test.sh" runs only those suites (no
# luacheck): to rerun part of the suite, also under make sanitize or make
# valgrind, which run this script.
# Every suite gets TMPDIR pointed at a scratch folder removed at the end, and
# a last check fails if anything was left in it (the specs clean up after
# themselves: tests/helpers.lua H.tmpname, H.tmpdir). The scratch folder is
# made under the caller's TMPDIR (mktemp -d) and its name is long, so that
# every path of a test file is longer than the 60 characters to which Lua
# cuts a chunk's name in messages: messages must name files in full anyway.
set -u
cd "$(dirname "$0")/.." || exit 2

# The Lua of the whole repository (as make lint checks it; .luacheckrc).
LINT="lua repl scripts tests bench"

# ---- one suite (run by the lines below through xargs): SUITE OUTDIR --------
if [ "${1:-}" = "--suite" ]; then
  t=$2; out=$3/$(echo "$t" | tr '/' '_')
  start=$(date +%s)
  # luacheck: one "ok" per clean file, one "not ok" per warning
  # shellcheck disable=SC2086 # LINT is a list of paths
  case $t in
    *_spec.lua) lua5.4 /usr/bin/busted -o TAP "$t" ;;
    *_test.sh) sh "$t" ;;
    luacheck) luacheck --formatter TAP --codes $LINT ;;
  esac >"$out.out" 2>"$out.err"
  echo "$? $(( $(date +%s) - start ))" >"$out.rc"
  exit 0
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
scratch=$tmp/scratch-a-folder-with-a-name-longer-than-the-60-characters-lua-keeps-of-a-file-name
mkdir "$scratch" "$tmp/out" || exit 2
TMPDIR=$scratch
export TMPDIR
pass=0; fail=0


# the suites, in the order their results are printed
if [ -n "${TESTS:-}" ]; then
  suites=""
  for t in $TESTS; do
    case $t in
      *_spec.lua|*_test.sh) ;;
      *) echo "not ok - TESTS: $t is neither a *_spec.lua nor a *_test.sh of tests/"; exit 2 ;;
    esac
    [ -e "$t" ] || { echo "not ok - TESTS: no file $t"; exit 2; }
    suites="$suites $t"
  done
else
  # every tests/**/*_spec.lua and tests/**/*_test.sh (suites may sit in
  # folders of their own), in the order of their paths
  suites="$(find tests \( -name '*_spec.lua' -o -name '*_test.sh' \) -type f | LC_ALL=C sort) luacheck"
fi

# the order they start in: the longest of the last run first, new ones first
# of all (unknown), so that the last to start are short
times=build/test-times
order=$(for t in $suites; do
  s=$(awk -v t="$t" '$1 == t { print $2 }' "$times" 2>/dev/null)
  echo "${s:-100000} $t"
done | sort -rn | awk '{ print $2 }')

jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
echo "$order" | xargs -P "$jobs" -I '{}' sh tests/run.sh --suite '{}' "$tmp/out"

: >"$tmp/times"
for t in $suites; do
  o=$tmp/out/$(echo "$t" | tr '/' '_')
  name=$t
  case $t in *_spec.lua) name="busted $t" ;; esac
  rc=1; secs=0
  [ -f "$o.rc" ] && read -r rc secs <"$o.rc"
  [ -f "$o.out" ] || : >"$o.out"
  [ -f "$o.err" ] || echo "the suite did not run" >"$o.err"
  echo "$t $secs" >>"$tmp/times"
  p=$(grep -c '^ok ' "$o.out"); f=$(grep -c '^not ok ' "$o.out")
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "not ok - $name exited with status $rc"; fi
  echo "# $name: $p passed, $f failed (${secs} s)"
  if [ "$f" -ne 0 ]; then
    # the failures with their diagnostics, and whatever went to stderr
    awk '/^not ok /{show=1; print; next} /^(ok|not ok) /{show=0} show' "$o.out"
    tail -n 30 "$o.err"
  fi
  pass=$((pass + p)); fail=$((fail + f))
done
# the times of this run for the next one (a partial run updates its suites)
if [ -d build ]; then
  [ -f "$times" ] || : >"$times"
  awk 'NR == FNR { seen[$1] = 1; print; next } !($1 in seen)' "$tmp/times" "$times" >"$tmp/times.new" &&
    mv "$tmp/times.new" "$times"
fi

left=$(ls -A "$TMPDIR")
if [ -z "$left" ]; then
  echo "# tests leave nothing behind: ok"; pass=$((pass + 1))
else
  echo "not ok - the tests left files in TMPDIR: $(echo "$left" | head -n 10 | tr '\n' ' ')"
  fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
