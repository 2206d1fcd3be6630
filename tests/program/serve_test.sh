#!/bin/sh
# tests/program/serve_test.sh - cheskers serve: its API and its safety points, from
# the outside (tests/program/serve_check.py, TAP). Needs python3, lua-http and
# lua-cqueues (make deps). Run from the repository root after make.
set -u
cd "$(dirname "$0")/../.." || exit 2
exec python3 tests/program/serve_check.py
