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
# `cheskers tb build --pieces PIECES` (tests/program/tb_parallel_test.sh).
#
# DIR, SPEC and the program may hold any character (braces, percent signs,
# quotes, spaces, line ends): the jobs get them from the environment
# (CHESKERS_TB_DIR, CHESKERS_TB_RULES, CHESKERS_TB_PROG, passed on to other
# machines with --env), never through GNU parallel's replacement strings;
# only the signature is put in the command ({}).

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
case $dir in
  -*) dir=./$dir ;;   # not an option of the commands it is given to
esac
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
mkdir -p -- "$dir" || fail "cannot create folder '$dir'"
CHESKERS_TB_PROG=$prog CHESKERS_TB_DIR=$dir CHESKERS_TB_RULES=$rules
export CHESKERS_TB_PROG CHESKERS_TB_DIR CHESKERS_TB_RULES
# each job: one unit on one thread, its signature the job's one argument
# (no braces in this text: GNU parallel would read them as replacement strings)
# shellcheck disable=SC2016 # expanded by the job's shell
job='if [ -n "$CHESKERS_TB_RULES" ]; then
  exec "$CHESKERS_TB_PROG" tb build --only "$1" --dir "$CHESKERS_TB_DIR" --threads 1 --rules "$CHESKERS_TB_RULES"
fi
exec "$CHESKERS_TB_PROG" tb build --only "$1" --dir "$CHESKERS_TB_DIR" --threads 1'
for level in $(printf '%s\n' "$plan" | sed -n 's/^level \([0-9]*\): .*/\1/p'); do
  sigs=$(printf '%s\n' "$plan" | sed -n "s/^level $level: //p")
  echo "level $level: $(echo "$sigs" | wc -w) units" >&2
  # shellcheck disable=SC2086 # $sigs: one word per signature
  parallel --will-cite --halt now,fail=1 -j "$jobs" --env CHESKERS_TB_PROG --env CHESKERS_TB_DIR \
    --env CHESKERS_TB_RULES "$@" -q sh -c "$job" sh {} ::: $sigs
  rc=$?
  case $rc in
    0) ;;
    126 | 127) fail "a job of level $level could not start '$prog' (exit status $rc, its message above)" ;;
    255) fail "GNU parallel could not run the jobs of level $level (exit status 255, its message above)" ;;
    *) fail "a job of level $level failed (exit status $rc, its message above): run the same command again to resume" ;;
  esac
done
echo "tables with up to $pieces pieces in $dir"
