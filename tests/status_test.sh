#!/bin/sh
# tests/status_test.sh - the core's status values and stop conditions
# on every long call (tests/status_check.c); prints TAP.
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
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Icore tests/status_check.c build/libcheskers.a \
  -o "$tmp/status_check" 2>"$tmp/err" || {
  echo "not ok 1 - tests/status_check.c does not build"
  sed 's/^/# /' "$tmp/err"
  echo "1..1"
  exit 1
}
"$tmp/status_check"
