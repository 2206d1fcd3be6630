#!/bin/sh
# tests/core/status_test.sh - the core's status values and stop conditions
# on every long call (tests/core/status_check.c); prints TAP.
# Needs build/libcheskers.a (make). Run from the repository root.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/cprog.sh
cprog tests/core/status_check.c "$tmp/status_check" -lpthread
"$tmp/status_check"
