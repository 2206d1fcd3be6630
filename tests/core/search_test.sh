#!/bin/sh
# tests/core/search_test.sh - builds tests/core/search_sweep.c against the core
# (build/libcheskers.a, made by make) and runs it: the C search under every
# rule option on positions of random games (TAP).
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/cprog.sh
cprog tests/core/search_sweep.c "$tmp/search_sweep"
"$tmp/search_sweep"
