#!/bin/sh
# tests/program/tb_parallel_test.sh - a tablebase build spread over jobs: the plan
# (cheskers tb plan: levels), one unit alone (tb build --only), the
# preflight of disk space and memory, and the GNU parallel recipe
# (scripts/tb/build_parallel.sh) whose files must be byte for byte those of
# one process. Prints TAP. Needs ./cheskers and GNU parallel. Run from the
# repository root.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh
check() { if eval "$2"; then ok "$1"; else not_ok "$1" "$(cat "$tmp/out" 2>/dev/null)"; fi; }

needs_program
sums() { (cd "$1" && sha256sum -- *.ctb); }

# ---- the plan ------------------------------------------------------------------
./cheskers tb plan --pieces 4 --dir "$tmp/none" >"$tmp/plan" 2>"$tmp/out"
check "tb plan --pieces 4: K v K first, alone at level 1" \
  '[ $? -eq 0 ] && [ "$(sed -n 1p "$tmp/plan")" = "level 1: KvK" ]'
# 45 signatures up to 4 pieces: 25 units (KvK, KKvKK, KBvKB, KCvKC, KPvKP are
# their own colour swap: 5 + 2 * 20 = 45)
units=$(sed -n 's/^level [0-9]*: //p' "$tmp/plan" | wc -w)
check "tb plan: 25 units (a signature and its swap), each named once" \
  '[ "$units" -eq 25 ] && [ "$(sed -n "s/^level [0-9]*: //p" "$tmp/plan" | tr " " "\n" | sort -u | wc -l)" -eq 25 ]'
# the files' size at most: 45 headers, block indexes and zstd's bound of every
# block (ZSTD_compressBound: its entries, 1/256 more and 32 bytes); they come out
# 3 to 4 times smaller
check "tb plan: the size of the files at most (16535904 entries in zstd blocks, 45 headers)" \
  'grep -q "^25 units (a signature and its colour swap), 16535904 entries: at most 16.6 MB of files, 16.6 MB not yet in" "$tmp/plan"'
# the 5-piece set: its size figures without building anything
./cheskers tb plan --pieces 5 --dir "$tmp/none" >"$tmp/plan5" 2>"$tmp/out"
check "tb plan --pieces 5: 85 units, 1363992848 entries, at most 1.37 GB" \
  'grep -q "^85 units (a signature and its colour swap), 1363992848 entries: at most 1.37 GB of files" "$tmp/plan5"'
check "tb plan --pieces 5: a pawn's promotion comes after the pawnless tables (KPvK at 3, KPPPvK last)" \
  'grep -q "^level 3: KPvK " "$tmp/plan5" && tail -n 3 "$tmp/plan5" | grep -q "^level 7: KPPPvK KPPvKP$"'
check "tb plan writes nothing" '[ ! -e "$tmp/none" ]'
# the memory of the largest unit, as the build's preflight counts it (the
# 17.8 MB the preflight below refuses a 3-piece build with)
./cheskers tb plan --pieces 3 --dir "$tmp/none" >"$tmp/plan3" 2>"$tmp/out"
check "tb plan: the memory of its largest unit" \
  'grep -q "^building one unit needs at most about 17.8 MB of memory (KP v K, " "$tmp/plan3"'
./cheskers tb plan --only KXvK >"$tmp/out" 2>&1
check "tb plan --only: a name that is no signature is refused" \
  '[ $? -eq 2 ] && grep -q "^cheskers tb: .KXvK. is not a signature" "$tmp/out"'

# ---- one unit: --only --------------------------------------------------------------
d=$tmp/one
./cheskers tb build --pieces 3 --dir "$d" >/dev/null 2>&1
before=$(ls "$d" | wc -l)
./cheskers tb build --only KBCvKB --dir "$d" >"$tmp/out" 2>&1
check "tb build --only KBCvKB without its 4-piece tables: refused, naming them (exit 2)" \
  '[ $? -eq 2 ] && grep -q "KBCvKB needs the tables KBCvK, KCvKB, KBvKB first, not in $d" "$tmp/out"'
check "and nothing written" '[ "$(ls "$d" | wc -l)" -eq "$before" ]'
./cheskers tb build --only KBvKC --dir "$d" >"$tmp/out" 2>&1
check "tb build --only KBvKC (no --pieces: its 4) builds it and its swap, those two files alone" \
  '[ $? -eq 0 ] && [ "$(ls "$d" | wc -l)" -eq $((before + 2)) ] && ls "$d" | grep -q "^KBvKC\." && ls "$d" | grep -q "^KCvKB\."'
./cheskers tb build --only KBvKB --dir "$d" >"$tmp/out" 2>&1
check "tb build --only KBvKB: its own swap, one file" '[ $? -eq 0 ] && [ "$(ls "$d" | wc -l)" -eq $((before + 3)) ]'
./cheskers tb build --only KBvKB --dir "$d" >"$tmp/out" 2>&1
check "again: on disk, not built again" '[ $? -eq 0 ] && grep -q "on disk" "$tmp/out" && grep -q ": 0 built" "$tmp/out"'
./cheskers tb build --only KBBvKB --pieces 3 --dir "$d" >"$tmp/out" 2>&1
check "--only with fewer --pieces than its signature: refused" \
  '[ $? -eq 2 ] && grep -q "no signature KBBvKB with up to 3 pieces" "$tmp/out"'

# ---- the preflight -------------------------------------------------------------------
# memory: an address space limit leaves about 10 MB, less than the plan's
# estimate for the 3-piece set (17.8 MB) but more than it really needs
base=$(./cheskers -e 'local f = io.open("/proc/self/statm"); print(f:read("n") * 4)')
(ulimit -v $((base + 10240)); ./cheskers tb build --pieces 3 --threads 1 --dir "$tmp/mem") >"$tmp/out" 2>&1
check "tb build: refused when memory is short, with both figures and the way round" \
  '[ $? -eq 2 ] && grep -Eq "^cheskers tb: not enough memory: the build needs about 17.8 MB, [0-9.]+ MB available \(--ignore-space builds anyway\)$" "$tmp/out"'
check "and nothing written, not even the folder" '[ ! -e "$tmp/mem" ]'
(ulimit -v $((base + 10240)); ./cheskers tb build --pieces 3 --threads 1 --dir "$tmp/mem" --ignore-space) >"$tmp/out" 2>&1
check "--ignore-space builds anyway (the estimate is generous)" '[ $? -eq 0 ] && [ "$(ls "$tmp/mem" | wc -l)" -eq 9 ]'
# disk: a 1 MB file system (a private mount; root only) for the 16.6 MB at most of 4 pieces
if [ "$(id -u)" -eq 0 ] && unshare -m sh -c "mkdir -p '$tmp/small' && mount -t tmpfs -o size=1m tmpfs '$tmp/small' &&
   ./cheskers tb build --pieces 4 --dir '$tmp/small/tb'; echo \"rc=\$?\"; ls '$tmp/small/tb' | wc -l" >"$tmp/out" 2>&1 &&
   grep -q "^rc=" "$tmp/out"; then
  check "tb build: refused when the disk is short, with both figures" \
    'grep -Eq "^cheskers tb: not enough disk space in .*/small/tb: the tables need up to 16.6 MB, [0-9.]+ MB free \(--ignore-space builds anyway\)$" "$tmp/out" && grep -q "^rc=2$" "$tmp/out" && [ "$(tail -n 1 "$tmp/out")" = 0 ]'
else
  ok "# SKIP the disk preflight needs root and a private tmpfs mount (unshare -m)"
fi

# ---- the GNU parallel recipe against one process ------------------------------------
if ! command -v parallel >/dev/null 2>&1; then
  not_ok "GNU parallel is installed (make deps)"
else
  scripts/tb/build_parallel.sh 4 "$tmp/par" --jobs=2 >"$tmp/out" 2>&1
  check "scripts/tb/build_parallel.sh 4 DIR --jobs=2 builds level by level" \
    '[ $? -eq 0 ] && grep -q "^level 5: 2 units" "$tmp/out" && [ "$(ls "$tmp/par" | wc -l)" -eq 45 ]'
  ./cheskers tb build --pieces 4 --dir "$tmp/single" >"$tmp/out" 2>&1
  check "one process builds the same 45 files" '[ $? -eq 0 ] && [ "$(ls "$tmp/single" | wc -l)" -eq 45 ]'
  sums "$tmp/par" >"$tmp/par.sum"
  sums "$tmp/single" >"$tmp/single.sum"
  check "the files are byte for byte the same (sha256 of each)" 'cmp -s "$tmp/par.sum" "$tmp/single.sum"'
  scripts/tb/build_parallel.sh 4 "$tmp/par" --jobs=2 >"$tmp/out" 2>&1
  check "run again: every unit on disk, none built again" \
    '[ $? -eq 0 ] && ! grep -q "entries  [0-9.]* s$" "$tmp/out" && sums "$tmp/par" | cmp -s - "$tmp/single.sum"'
  scripts/tb/build_parallel.sh 3 "$tmp/parr" --rules="majority=false flying_kings=true" --jobs=2 >"$tmp/out" 2>&1
  ./cheskers tb build --pieces 3 --rules "majority=false flying_kings=true" --dir "$tmp/singler" >/dev/null 2>&1
  check "--rules=SPEC (with a space): the same files as one process, for those rules" \
    'sums "$tmp/parr" | cmp -s - "$(sums "$tmp/singler" >"$tmp/r.sum"; echo "$tmp/r.sum")" && ! ls "$tmp/parr" | grep -q "$(ls "$tmp/single" | sed -n "s/^KvK\.\([0-9a-f]*\)\..*/\1/p")"'
  scripts/tb/build_parallel.sh 9 "$tmp/x" >"$tmp/out" 2>&1
  check "the recipe refuses PIECES out of range" '[ $? -eq 2 ] && grep -q "PIECES must be 2 to 6" "$tmp/out"'
fi
echo "1..$n"
[ "$failed" -eq 0 ]
