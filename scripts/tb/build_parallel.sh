#!/bin/sh
# scripts/tb/build_parallel.sh - owns the GNU parallel recipe of a tablebase
# build: every table with up to PIECES pieces, one job per unit (a signature
# and its colour swap), level by level (cheskers tb plan): the units of a
# level read only tables of lower levels, so they run at once.
#
#   scripts/tb/build_parallel.sh PIECES DIR [--rules=SPEC] [--jobs=N] [PARALLEL-OPTION ...]
#
# Each job is `cheskers tb build --only SIG --dir DIR --threads 1 [--rules SPEC]`
# with $CHESKERS if set, else the repository's ./cheskers if built, else
# cheskers from PATH. --jobs=N: jobs at once on each machine (default: its
# cores). PARALLEL-OPTIONs go to GNU parallel, e.g. --sshlogin=8/node1,8/node2
# to spread the jobs over machines: DIR must then be the same shared folder
# on every machine, and the program at the same path ($CHESKERS, absolute).
# A finished unit is never built again: rerun the same command after an
# interruption or a failed job. The files are byte for byte those of one
# `cheskers tb build --pieces PIECES` (tests/tb_parallel_test.sh).

usage() {
  echo "usage: $0 PIECES DIR [--rules=SPEC] [--jobs=N] [PARALLEL-OPTION ...]" >&2
  echo "  builds every table with up to PIECES pieces into DIR, one GNU parallel job" >&2
  echo "  per signature, level by level (cheskers tb plan)" >&2
  exit 2
}

fail() {
  echo "build_parallel.sh: $*" >&2
  exit 2
}

[ $# -ge 2 ] || usage
pieces=$1 dir=$2
shift 2
case $pieces in
  [2-6]) ;;
  *) fail "PIECES must be 2 to 6, not '$pieces'" ;;
esac
[ -n "$dir" ] || fail "DIR must not be empty"
rules="" jobs=""
for opt in "$@"; do
  shift
  case $opt in
    --rules=*) rules=${opt#--rules=} ;;
    --jobs=*) jobs=${opt#--jobs=} ;;
    *) set -- "$@" "$opt" ;;
  esac
done
case $jobs in
  '') jobs=100% ;;
  *[!0-9]* | 0*) fail "--jobs must be a positive whole number, not '$jobs'" ;;
esac
command -v parallel >/dev/null 2>&1 || fail "GNU parallel not found (Debian: apt-get install parallel)"
prog=${CHESKERS:-}
if [ -z "$prog" ]; then
  root=$(cd "$(dirname "$0")/../.." && pwd)
  if [ -x "$root/cheskers" ]; then prog=$root/cheskers; else prog=cheskers; fi
fi

# tb ACTION ARGS...: the program with the rules, when given
tb() {
  act=$1; shift
  if [ -n "$rules" ]; then "$prog" tb "$act" --rules "$rules" "$@"; else "$prog" tb "$act" "$@"; fi
}

# the levels, one line each: "level K: SIG SIG ..."
plan=$(tb plan --pieces "$pieces" --dir "$dir") || fail "cheskers tb plan failed (its message above)"
mkdir -p "$dir" || fail "cannot create folder '$dir'"
for level in $(echo "$plan" | sed -n 's/^level \([0-9]*\): .*/\1/p'); do
  sigs=$(echo "$plan" | sed -n "s/^level $level: //p")
  echo "level $level: $(echo "$sigs" | wc -w) units" >&2
  # each job: one unit on one thread ({} is its signature)
  if [ -n "$rules" ]; then
    # shellcheck disable=SC2086 # $sigs: one word per signature
    parallel --will-cite --halt now,fail=1 -j "$jobs" "$@" -q \
      "$prog" tb build --only {} --dir "$dir" --threads 1 --rules "$rules" ::: $sigs
  else
    # shellcheck disable=SC2086
    parallel --will-cite --halt now,fail=1 -j "$jobs" "$@" -q \
      "$prog" tb build --only {} --dir "$dir" --threads 1 ::: $sigs
  fi || fail "a job of level $level failed (its message above): run the same command again to resume"
done
echo "tables with up to $pieces pieces in $dir"
