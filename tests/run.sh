#!/bin/sh
# tests/run.sh - runs every test suite and ends with "N passed, N failed".
# Suites: the busted specs (tests/*_spec.lua) and the TAP-printing scripts
# tests/*_test.sh. Each prints TAP; a suite that dies without saying
# "not ok" counts as one failure. Run from the repository root (make test).
set -u
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0; fail=0

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

suite busted lua5.4 /usr/bin/busted -o TAP
for t in tests/*_test.sh; do
  [ -e "$t" ] || continue
  suite "$t" sh "$t"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
