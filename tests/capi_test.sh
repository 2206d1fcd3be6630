#!/bin/sh
# tests/capi_test.sh - edges of the public C API the binding never reaches
# (tests/capi_check.c): text cut to a small buffer, parsing with no error
# buffer, a result hook with nothing to say, the rules as text. Prints TAP;
# a crash of the program is reported as a failure.
# Needs build/libcheskers.a (make). Run from the repository root.
set -u
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
if [ ! -f build/libcheskers.a ]; then
  echo "not ok 1 - build/libcheskers.a is missing (make)"
  echo "1..1"
  exit 1
fi
${CC:-cc} -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Icore tests/capi_check.c \
  build/libcheskers.a -o "$tmp/capi_check" 2>"$tmp/err" || {
  echo "not ok 1 - tests/capi_check.c does not build"
  sed 's/^/# /' "$tmp/err"
  echo "1..1"
  exit 1
}
"$tmp/capi_check" >"$tmp/out"
rc=$?
cat "$tmp/out"
if ! grep -q '^1\.\.' "$tmp/out"; then
  n=$(grep -c '^\(not \)\{0,1\}ok ' "$tmp/out")
  echo "not ok $((n + 1)) - tests/capi_check.c stopped after check $n (exit status $rc)"
  echo "1..$((n + 1))"
  exit 1
fi
exit "$rc"
