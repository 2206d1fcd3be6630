#!/bin/sh
# tests/search_test.sh - builds tests/search_sweep.c against the core
# (build/libcheskers.a, made by make) and runs it: the C search under every
# rule option on positions of random games (TAP).
set -u
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
CC=${CC:-cc}
if [ ! -f build/libcheskers.a ]; then
  echo "Bail out! build/libcheskers.a is not built (run make)"
  exit 1
fi
$CC -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Icore tests/search_sweep.c build/libcheskers.a \
    -o "$tmp/search_sweep" || { echo "Bail out! tests/search_sweep.c does not build"; exit 1; }
"$tmp/search_sweep"
