#!/bin/sh
# tests/core/capi_test.sh - edges of the public C API the binding never reaches
# (tests/core/capi_check.c): text cut to a small buffer, parsing with no error
# buffer, a result hook with nothing to say, the rules as text. Prints TAP;
# a crash of the program is reported as a failure.
# Needs build/libcheskers.a (make). Run from the repository root.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/cprog.sh
cprog tests/core/capi_check.c "$tmp/capi_check"
"$tmp/capi_check" >"$tmp/out"
rc=$?
cat "$tmp/out"
if ! grep -q '^1\.\.' "$tmp/out"; then
  n=$(grep -c '^\(not \)\{0,1\}ok ' "$tmp/out")
  echo "not ok $((n + 1)) - tests/core/capi_check.c stopped after check $n (exit status $rc)"
  echo "1..$((n + 1))"
  exit 1
fi
exit "$rc"
