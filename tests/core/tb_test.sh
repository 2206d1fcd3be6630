#!/bin/sh
# tests/core/tb_test.sh - every position of the tablebases with up to 3 pieces,
# under several rule sets, checked by tests/core/tb_check.c (consistency of each
# value with its moves, coverage, agreement with the solver on a sample)
# and what the tables' code does with the process's resources; then the
# command cheskers tb. Prints TAP. Needs make (build/libcheskers.a
# and ./cheskers). Run from the repository root.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

if [ ! -f build/libcheskers.a ] || [ ! -x ./cheskers ]; then
  echo "not ok 1 - build/libcheskers.a or ./cheskers is missing (make)"
  echo "1..1"
  exit 1
fi
# Numbers tb_check's "ok - " and "not ok - " lines in $tmp/out into this
# TAP stream; other lines are echoed after the prefix $1.
relay() {
  while IFS= read -r line; do
    case $line in
      "ok - "*) ok "${line#ok - }" ;;
      "not ok - "*) not_ok "${line#not ok - }" ;;
      *) echo "$1$line" ;;
    esac
  done <"$tmp/out"
}

. tests/cprog.sh
cprog tests/core/tb_check.c "$tmp/tb_check" -lpthread

# ---- every position, several rule sets --------------------------------------
i=0
for rules in "" "majority=false" "flying_kings=true" "pawns_capture_backward=true capture=all" \
             "capture=optional promote=K" "capture=jumps promote=BC"; do
  i=$((i + 1))
  "$tmp/tb_check" "$tmp/tb$i" 3 "$rules" 100 >"$tmp/out" 2>&1
  relay ""
done

# ---- resources: threads, memory, mappings, a failed allocation, file names --
"$tmp/tb_check" "$tmp/res" resources >"$tmp/out" 2>&1
relay "# "
grep -q "ok - builds hold no memory" "$tmp/out" || not_ok "tb_check resources ran to its end"

# ---- a write that fails -----------------------------------------------------
# With the file size limit at 0 (and SIGXFSZ ignored) every write of a table
# fails (EFBIG): the build says so, closes what it opened, and leaves no
# half-written file behind.
if cprog_build tests/core/search_signature.c "$tmp/sig" -lm -lpthread; then
  got=$(sh -c 'trap "" XFSZ; ulimit -f 0; "$1" tb-fds "$2"' sh "$tmp/sig" "$tmp/full" 2>&1)
  case $got in
    "build -8 (cannot write "*".ctb.tmp."*": File too large), descriptors all closed") ok "a failed write: the message, no descriptor left open" ;;
    *) not_ok "a failed write: the message, no descriptor left open"; echo "# $got" ;;
  esac
  check "a failed write: no file left in the directory" '[ -z "$(ls -A "$tmp/full")" ]'
  # K v K (the one 2-piece table) read as descriptor 0; Ka1 v kc3 is lost
  # in 2 (a1-b2, c3xa1); info numbers 0 to 0 exist, -1 and 1 do not
  # (-8: CHK_TB_ERROR, core/cheskers.h)
  "$tmp/sig" tb-fds "$tmp/two" >/dev/null 2>&1
  got=$("$tmp/sig" tb-stdin "$tmp/two" 2>&1)
  want=$(printf 'probe 1: loss 2\ninfo -1: -8 no table number -1\ninfo 1 of 1: -8 no table number 1')
  if [ "$got" = "$want" ]; then ok "tables read with standard input closed; info out of range refused"
  else not_ok "tables read with standard input closed; info out of range refused"; echo "$got" | sed 's/^/# /'; fi
else
  not_ok "tests/core/search_signature.c does not build"
  sed 's/^/# /' "$tmp/cprog.err"
fi

# ---- the command ------------------------------------------------------------
dir=$tmp/cmd
./cheskers tb build --pieces 3 --dir "$dir" >"$tmp/out" 2>"$tmp/err"
check "tb build: exit 0 and a summary" '[ $? -eq 0 ] && grep -q "up to 3 pieces" "$tmp/out"'
check "tb build: a progress line per signature" '[ "$(grep -c "entries" "$tmp/err")" -eq 9 ]'
check "tb build: one file per signature" '[ "$(ls "$dir" | grep -c "\.ctb$")" -eq 9 ]'
./cheskers tb build --pieces 3 --dir "$dir" >"$tmp/out" 2>"$tmp/err"
check "tb build again: nothing built, all on disk" \
  'grep -q ": 0 built" "$tmp/out" && [ "$(grep -c "on disk" "$tmp/err")" -eq 9 ]'
# Ka1 v kc3: a1-b2 is the only move and kc3 jumps it (worked out by hand)
./cheskers tb probe "8/8/8/8/8/2k5/8/K7 w" --dir "$dir" >"$tmp/out" 2>&1
check "tb probe: the value and each move" \
  '[ $? -eq 0 ] && grep -q "White to move: loss in 2 plies" "$tmp/out" && grep -q "a1-b2 *loss in 2 plies" "$tmp/out"'
CHESKERS_TB=$dir ./cheskers tb probe "8/8/8/8/3k4/2K5/8/8 b" >"$tmp/out" 2>&1
check "tb probe: CHESKERS_TB, Black to move" '[ $? -eq 0 ] && grep -qx "Black to move: win in 1 ply" "$tmp/out"'
./cheskers tb probe "8/8/8/8/3k4/2K5/8/B1B5 w" --dir "$dir" >"$tmp/out" 2>&1
check "tb probe: 4 pieces, not covered, exit 1, with the tables to build" '[ $? -eq 1 ] && grep -qxF "no table covers this position (4 pieces): the tables in $dir go to 3 pieces; build them with \`cheskers tb build --pieces 4 --dir $dir\`" "$tmp/out"'
./cheskers tb probe "8/8/8/8/3k4/2K5/8/8 w" --dir "$dir" --rules "majority=false" >"$tmp/out" 2>&1
check "tb probe: other rules, not covered, with the tables to build" '[ $? -eq 1 ] && grep -qxF "no table covers this position (2 pieces): there are none in $dir for these rules; build them with \`cheskers tb build --pieces 2 --rules '"'"'majority=false'"'"' --dir $dir\`" "$tmp/out"'
./cheskers tb probe "8/8/9/8/3k4/2K5/8/8 w" --dir "$dir" >"$tmp/out" 2>&1
check "tb probe: a bad position is an error (exit 2)" '[ $? -eq 2 ] && grep -q "cheskers tb:" "$tmp/out"'
# hooks come from rule files (rule literals on a command line are data only)
echo 'return { filter = function() return true end }' >"$tmp/hook_rules.lua"
./cheskers tb build --pieces 2 --dir "$tmp/hook" --rules "$tmp/hook_rules.lua" >"$tmp/out" 2>&1
check "tb build: hooks refused with the reason" '[ $? -eq 2 ] && grep -q "hooks" "$tmp/out"'
./cheskers tb build --pieces 1 --dir "$tmp/x" >"$tmp/out" 2>&1
check "tb build: --pieces out of range refused" '[ $? -eq 2 ] && grep -q "pieces" "$tmp/out"'
./cheskers tb frobnicate >"$tmp/out" 2>&1
check "tb: an unknown action is an error" '[ $? -eq 2 ] && grep -q "unknown action" "$tmp/out"'
./cheskers tb atlas --dir "$dir" >"$tmp/atlas" 2>&1
check "tb atlas: a table row per signature" '[ $? -eq 0 ] && [ "$(grep -c "^| K" "$tmp/atlas")" -eq 9 ]'
# K v K with White to move: 32 * 31 placements of the two kings
check "tb atlas: K v K has 992 positions" 'grep -q "^| K v K | 992 |" "$tmp/atlas"'
check "tb atlas: its heading says which tables it covers" \
  'grep -qx "# Cheskers endgame atlas: every table with up to 3 pieces" "$tmp/atlas"'
./cheskers tb atlas --dir "$dir" --pieces 4 >"$tmp/out" 2>&1
check "tb atlas --pieces 4 refuses a folder with tables up to 3 pieces, saying so" \
  '[ $? -eq 2 ] && grep -q "holds every table up to 3 pieces, not up to 4" "$tmp/out" && ! grep -q "^# " "$tmp/out"'
# one 4-piece signature (and its colour swap) on top: an incomplete set, left out
./cheskers -e "assert(require('cheskers').tb.build{ pieces = 4, only = 'KKvKK', dir = '$dir' })" >/dev/null 2>&1
./cheskers tb atlas --dir "$dir" >"$tmp/atlas4" 2>&1
check "tb atlas: tables of an incomplete set of 4 pieces are left out, and said to be" \
  '[ "$(grep -c "^| K" "$tmp/atlas4")" -eq 9 ] && grep -q "^(Left out: 1 table of more pieces" "$tmp/atlas4"'
./cheskers tb atlas --dir "$tmp/none" >"$tmp/out" 2>&1
check "tb atlas: no tables is an error" '[ $? -eq 2 ] && grep -q "no tables" "$tmp/out"'
# ---- table files and folders are input (docs/reference/security.md) -------------------
# What another user of a shared folder (the usage's --dir /tmp/tb) can plant.
kvk=$(ls "$dir" | grep '^KvK\.')      # KvK.RULEHASH.ctb of the default rules
# A FIFO named like a table used to block every probe for ever: refused at
# once, by name, by the command, a script's probe and search, and the REPL.
mkdir "$tmp/fifo" && mkfifo "$tmp/fifo/$kvk"
timeout 20 ./cheskers tb probe "8/8/8/8/8/2k5/8/K7 w" --dir "$tmp/fifo" >"$tmp/out" 2>&1
check "a FIFO named like a table: tb probe refuses it at once, naming it (exit 2)" \
  '[ $? -eq 2 ] && grep -q "tablebase $tmp/fifo/$kvk: not a regular file" "$tmp/out"'
cat >"$tmp/fifo.lua" <<'LUA'
local cheskers = require "cheskers"
local tables = cheskers.tb.open(arg[1])
local b = cheskers.new("8/8/8/8/8/2k5/8/K7 w")
print("probe", b:probe())
print("search", b:search{ depth = 3, tb = tables }.move)
LUA
timeout 20 ./cheskers "$tmp/fifo.lua" "$tmp/fifo" >"$tmp/out" 2>&1
check "a FIFO named like a table: a script's probe and search go on" \
  '[ $? -eq 0 ] && grep -q "^probe	nil	tablebase .*: not a regular file" "$tmp/out" && grep -q "^search	a1-b2" "$tmp/out"'
printf 'fen 8/8/8/8/8/2k5/8/K7 w\ntb\n' | CHESKERS_TB=$tmp/fifo timeout 20 ./cheskers --norc >"$tmp/out" 2>&1
check "a FIFO named like a table: the REPL goes on" '[ $? -ne 124 ] && grep -q "not a regular file" "$tmp/out"'
# Files copied over tables in use (they were mapped: SIGBUS): the process
# keeps the values it read and checked.
mkdir "$tmp/inuse" && cp "$dir"/* "$tmp/inuse/"
cat >"$tmp/inuse.lua" <<'LUA'
local cheskers = require "cheskers"
local tables = cheskers.tb.open(arg[1])
local b = cheskers.new("8/8/8/8/8/2k5/8/K7 w")
print("before", b:probe(tables))
os.execute(("for f in '%s'/*; do : >\"$f\"; done"):format(arg[1]))
print("truncated", b:probe(tables))
os.execute(("cp '%s'/* '%s'/"):format(arg[2], arg[1]))
print("copied", b:probe(tables))
LUA
./cheskers "$tmp/inuse.lua" "$tmp/inuse" "$dir" >"$tmp/out" 2>&1
check "tables in use truncated, then copied over: the values read stay" \
  '[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf "before\tloss\t2\ntruncated\tloss\t2\ncopied\tloss\t2")" ]'
# A link planted at the temporary name builds used to take: not followed
# (each temporary file is new, under a name no other file has).
mkdir "$tmp/shared" && echo precious >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/shared/$kvk.tmp"
./cheskers tb build --pieces 2 --dir "$tmp/shared" >"$tmp/out" 2>&1
check "tb build: a link planted at a temporary name is not followed" \
  '[ $? -eq 0 ] && [ "$(cat "$tmp/victim")" = precious ] && [ -f "$tmp/shared/$kvk" ] && [ "$(ls "$tmp/shared" | wc -l)" -eq 2 ]'

./cheskers tb --help >"$tmp/out" 2>&1
check "tb --help prints the usage" '[ $? -eq 0 ] && grep -q "usage: cheskers tb build" "$tmp/out"'

echo "1..$n"
