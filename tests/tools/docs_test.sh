#!/bin/sh
# tests/tools/docs_test.sh - docs that cannot lie. Runs the examples of README.md
# and docs/guide/*.md (tests/tools/doctest.lua: ```console blocks run by sh, ```lua
# blocks by cheskers, their printed output compared with the one shown),
# checks that every relative link of the Markdown files and every docs/ path
# the repository's files name exists, and that the man page's option lists
# are the ones the program's argument parsers declare and each subcommand's
# --help names them (scripts/tools/manpage.lua).
# Blocks after "<!-- not run: REASON -->" are skipped unless DOCS_ALL=1
# (make check-all). Needs ./cheskers (make). Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)

lua5.4 tests/tools/doctest.lua "$root" README.md docs/guide/*.md || exit 1

# every tracked text file (the fuzzers' corpora and the data files are not
# text), and the Markdown files not yet added
files=$( { git ls-files 2>/dev/null; ls README.md docs/*.md docs/*/*.md; } |
  grep -v -e '^tests/fuzz/corpus/' -e '^tests/fuzz/crashes/' -e '^tests/data/' |
  sort -u)
# shellcheck disable=SC2086 # a list of paths without blanks
lua5.4 tests/tools/doctest.lua "$root" --links $files || exit 1

# the man page's option lists and the program's parsers (make man)
# shellcheck source=tests/tap.sh
. tests/tap.sh
# shellcheck disable=SC2034 # n is tap.sh's count: numbers of their own after doctest.lua's
n=1000
if out=$(./cheskers scripts/tools/manpage.lua --check docs/reference/cheskers.1 2>&1); then
  ok "the man page's options are the parsers' and cheskers --help's"
else
  not_ok "the man page's options are the parsers' and cheskers --help's" "$out"
fi
[ "$failed" -eq 0 ]
