#!/bin/sh
# tests/core/solve_test.sh - the forced-win solver against a plain minimax
# (tests/core/solve_crosscheck.c) under several rule sets; prints TAP.
# Needs build/libcheskers.a (make). Run from the repository root.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/cprog.sh
cprog tests/core/solve_crosscheck.c "$tmp/solve_crosscheck"
"$tmp/solve_crosscheck" 6 3 7
