#!/bin/sh
# tests/run.sh - runs every test suite and ends with "N passed, N failed".
# Suites: the busted specs (tests/*_spec.lua), the TAP-printing scripts
# tests/*_test.sh and luacheck (.luacheckrc) over the files of LINT below.
# Each prints TAP; a suite that dies without saying "not ok" counts as one
# failure. Run from the repository root (make test).
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
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
scratch=$tmp/scratch-a-folder-with-a-name-longer-than-the-60-characters-lua-keeps-of-a-file-name
mkdir "$scratch" || exit 2
TMPDIR=$scratch
export TMPDIR
pass=0; fail=0

# The Lua of the whole repository (as make lint checks it; .luacheckrc).
LINT="lua repl scripts tests bench"

suite() { # name, command...
  name=$1; shift
  "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  p=$(grep -c '^ok ' "$tmp/out"); f=$(grep -c '^not ok ' "$tmp/out")
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "not ok - $name exited with status $rc"; fi
  echo "# $name: $p passed, $f failed"
  if [ "$f" -ne 0 ]; then
    # the failures with their diagnostics, and whatever went to stderr
    awk '/^not ok /{show=1; print; next} /^(ok|not ok) /{show=0} show' "$tmp/out"
    tail -n 30 "$tmp/err"
  fi
  pass=$((pass + p)); fail=$((fail + f))
}

if [ -n "${TESTS:-}" ]; then
  specs=""; scripts=""
  for t in $TESTS; do
    case $t in
      *_spec.lua) specs="$specs $t" ;;
      *_test.sh) scripts="$scripts $t" ;;
      *) echo "not ok - TESTS: $t is neither a tests/*_spec.lua nor a tests/*_test.sh"; exit 2 ;;
    esac
    [ -e "$t" ] || { echo "not ok - TESTS: no file $t"; exit 2; }
  done
  # shellcheck disable=SC2086 # lists of paths
  [ -z "$specs" ] || suite busted lua5.4 /usr/bin/busted -o TAP $specs
  for t in $scripts; do suite "$t" sh "$t"; done
else
  suite busted lua5.4 /usr/bin/busted -o TAP
  for t in tests/*_test.sh; do
    [ -e "$t" ] || continue
    suite "$t" sh "$t"
  done
  # one "ok" per clean file, one "not ok" per warning
  # shellcheck disable=SC2086 # LINT is a list of paths
  suite luacheck luacheck --formatter TAP --codes $LINT
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
