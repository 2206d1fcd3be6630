#!/bin/sh
# tests/solve_test.sh - the forced-win solver against a plain minimax
# (tests/solve_crosscheck.c) under several rule sets; prints TAP.
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
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Icore tests/solve_crosscheck.c build/libcheskers.a \
  -o "$tmp/solve_crosscheck" 2>"$tmp/err" || {
  echo "not ok 1 - tests/solve_crosscheck.c does not build"
  sed 's/^/# /' "$tmp/err"
  echo "1..1"
  exit 1
}
"$tmp/solve_crosscheck" 6 3 7
