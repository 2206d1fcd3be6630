#!/bin/sh
# bench/nps_compare.sh - nodes a second of two engines on the same positions:
#   sh bench/nps_compare.sh [OLD [NEW]]     (make bench-nps OLD=... NEW=...)
# OLD: a commit (default e0fb041, the engine at issue 23's start); NEW: a
# commit, else this working tree as it is (uncommitted changes included).
# Each side's core is built from its own sources and its own Makefile
# (git archive COMMIT into a temporary folder), with the same NATIVE
# setting (NATIVE=1 for both, or neither: the default), and
# bench/nps_driver.c is linked against each library: it searches every
# position of bench/nps_positions.fen (180 FENs of self-play games) to NODES
# nodes (default 20000) with the engine's own defaults, and times the
# searches in CPU time. Rounds (ROUNDS, default 5) alternate which side goes
# first; each round's Mnps (and each side's node total: the budget is the
# same, but a search that finds a forced result stops short of it) are
# printed, then the medians and new / old.
set -u
cd "$(dirname "$0")/.." || exit 2
old=${1:-e0fb041}
new=${2:-}
nodes=${NODES:-20000}
rounds=${ROUNDS:-5}
native=${NATIVE:-0}
positions=bench/nps_positions.fen
cc=${CC:-cc}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# build SIDE COMMIT-or-empty: the core of that commit (or of this tree) in
# $tmp/SIDE, and $tmp/SIDE/nps_driver linked against it
build() { # side commit
  dir=$tmp/$1
  mkdir -p "$dir"
  if [ -n "$2" ]; then
    git rev-parse -q --verify "$2^{commit}" >/dev/null \
      || { echo "nps_compare: no commit '$2' in this repository" >&2; exit 2; }
    git archive "$2" Makefile core | tar -x -C "$dir" || { echo "nps_compare: cannot unpack $2" >&2; exit 2; }
  else
    cp -R Makefile core "$dir/"
  fi
  make -s -C "$dir" NATIVE="$native" build/libcheskers.a >"$dir/make.log" 2>&1 \
    || { echo "nps_compare: building $1 (${2:-this tree}) failed:" >&2; tail -5 "$dir/make.log" >&2; exit 2; }
  flags="-std=c11 -O3 -D_POSIX_C_SOURCE=200809L"
  [ "$native" = 1 ] && flags="$flags -march=native"
  # shellcheck disable=SC2086 # flags is a list of words
  $cc $flags -I"$dir/core" bench/nps_driver.c "$dir/build/libcheskers.a" -lzstd -lm -lpthread \
    -o "$dir/nps_driver" || { echo "nps_compare: linking the driver against $1 failed" >&2; exit 2; }
}
build old "$old"
build new "$new"
echo "old: $old; new: ${new:-this working tree}; NATIVE=$native; $(grep -vc '^#' "$positions") positions of $positions, $nodes nodes each; CPU time"

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
mnps() { sed -n 's/.* \([0-9.]*\) Mnps$/\1/p'; }
nodes_of() { sed -n 's/^[0-9]* positions, \([0-9]*\) nodes.*/\1/p'; }
: >"$tmp/old.mnps"; : >"$tmp/new.mnps"
i=1
while [ "$i" -le "$rounds" ]; do
  if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for side in $order; do
    "$tmp/$side/nps_driver" "$positions" "$nodes" >"$tmp/$side.out" || exit 1
    mnps <"$tmp/$side.out" >>"$tmp/$side.mnps"
  done
  echo "round $i: old $(mnps <"$tmp/old.out") Mnps ($(nodes_of <"$tmp/old.out") nodes), new $(mnps <"$tmp/new.out") Mnps ($(nodes_of <"$tmp/new.out") nodes)"
  i=$((i + 1))
done
mo=$(median <"$tmp/old.mnps")
mn=$(median <"$tmp/new.mnps")
awk -v o="$mo" -v n="$mn" -v r="$rounds" \
  'BEGIN {printf "median of %d rounds: old %.3f Mnps, new %.3f Mnps, new / old %.3f\n", r, o, n, n / o}'
