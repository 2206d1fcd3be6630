#!/bin/sh
# bench/serve.sh - the analysis board (cheskers serve): page ready, first
# analysis line, nodes a second against the REPL's go, 50 pages at once
# (bench/serve_bench.py; docs/BENCHMARKS.md, "Analysis board").
set -u
cd "$(dirname "$0")/.." || exit 2
exec /usr/bin/python3 bench/serve_bench.py
