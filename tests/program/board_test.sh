#!/bin/sh
# tests/program/board_test.sh - the analysis board of cheskers serve in headless
# Chromium (tests/program/board_check.py, TAP; Debian's chromium, chromium-driver
# and python3-selenium: make deps). BOARD_SHOTS=DIR keeps the screenshots
# of each step there. Run from the repository root after make.
set -u
cd "$(dirname "$0")/../.." || exit 2
exec /usr/bin/python3 tests/program/board_check.py
