#!/bin/sh
# tests/tools/recipes_test.sh - the batch recipes take any folder name: the GNU
# parallel tablebase recipe (scripts/tb/build_parallel.sh, a 3-piece build
# with real GNU parallel) and the Slurm recipes (scripts/slurm/*.sbatch,
# against a stand-in sbatch on PATH that runs each array task at once, as
# Slurm would: SLURM_JOB_ID, SLURM_ARRAY_TASK_ID, ENVIRONMENT=BATCH, the
# --chdir folder and the --output log with %A, %a and %% expanded). Folder names
# with braces, percent signs, spaces, quotes and line ends either work (the
# files land in that folder and nowhere else) or, where Slurm cannot take
# them, are refused in one line with nothing submitted. A task that cannot
# start its program fails and says so. Prints TAP. Run from the repository
# root; needs ./cheskers and GNU parallel.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh
ROOT=$(pwd)
sums() { (cd "$1" && sha256sum -- *.ctb) 2>/dev/null; }
nl='
'

./cheskers tb build --pieces 3 --dir "$tmp/single" >/dev/null 2>&1 || not_ok "the single-process 3-piece build"
sums "$tmp/single" >"$tmp/single.sum"
[ "$(wc -l <"$tmp/single.sum")" -eq 9 ] || not_ok "the single-process build has 9 files"

# A program that plans like cheskers but whose builds cannot start (exit 127,
# as the shell does for a missing program).
cat >"$tmp/noprog" <<EOF2
#!/bin/sh
case \$2 in plan) exec "$ROOT/cheskers" "\$@" ;; esac
echo "noprog: not found" >&2
exit 127
EOF2
chmod +x "$tmp/noprog"

# ---- GNU parallel --------------------------------------------------------------
if ! command -v parallel >/dev/null 2>&1; then
  not_ok "GNU parallel is installed (make deps)"
else
  mkdir "$tmp/par"
  for name in 'a{}b' '{=1=} {.} {#}' 'p%j q' "it's \"quoted\"" "line${nl}end" '-dash'; do
    shown=$(printf '%s' "$name" | tr '\n' '?')
    (cd "$tmp/par" && "$ROOT/scripts/tb/build_parallel.sh" 3 "$name" --jobs=2) >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && sums "$tmp/par/$name" | cmp -s - "$tmp/single.sum"; then
      ok "build_parallel.sh 3 '$shown': the 9 files of one process, in that folder"
    else
      not_ok "build_parallel.sh 3 '$shown': the 9 files of one process, in that folder" "status $rc" "$(cat "$tmp/out")"
    fi
  done
  # nothing but the folders named (no folder named by a substituted signature)
  if [ "$(find "$tmp/par" -mindepth 1 -maxdepth 1 -printf x | wc -c)" -eq 6 ]; then ok "and nothing written beside them"
  else not_ok "and nothing written beside them" "$(ls -A "$tmp/par")"; fi
  CHESKERS=$tmp/noprog scripts/tb/build_parallel.sh 3 "$tmp/nop" >"$tmp/out" 2>&1
  rc=$?
  if [ $rc -ne 0 ] && grep -q "^build_parallel.sh: a job of level 1 could not start '$tmp/noprog' (exit status 127" "$tmp/out"; then
    ok "a job that cannot start its program: the recipe fails (status $rc) and says so"
  else
    not_ok "a job that cannot start its program: the recipe fails and says so" "status $rc" "$(cat "$tmp/out")"
  fi
fi

# ---- Slurm, with a stand-in sbatch ---------------------------------------------
mkdir "$tmp/bin"
cat >"$tmp/bin/sbatch" <<'EOF2'
#!/bin/sh
# stand-in sbatch: records the call, then runs every array task at once
log=$FAKE_SBATCH_LOG
echo "call" >>"$log"
[ -z "${FAKE_SBATCH_FAIL:-}" ] || { echo "sbatch: error: Batch job submission failed" >&2; exit 1; }
job=$((1000 + $(grep -c '^call$' "$log")))
parsable="" array="1-1" chdir=$(pwd) output="slurm-%j.out"
while [ $# -gt 0 ]; do
  case $1 in
    --parsable) parsable=1 ;;
    --array=*) array=${1#--array=} ;;
    --chdir=*) chdir=${1#--chdir=} ;;
    --output=*) output=${1#--output=} ;;
    --*) ;;
    *) break ;;
  esac
  shift
done
script=$1; shift
if [ -n "${FAKE_SBATCH_NOID:-}" ]; then echo "sbatch: something odd"; exit 0; fi
first=${array%%-*} last=${array##*-}
i=$first
while [ "$i" -le "$last" ]; do
  o=$(printf '%s' "$output" | sed "s/%%/@PCT@/g; s/%A/$job/g; s/%a/$i/g; s/@PCT@/%/g")
  (cd "$chdir" && CHESKERS=${FAKE_TASK_CHESKERS:-${CHESKERS:-}} SLURM_JOB_ID=$job SLURM_ARRAY_TASK_ID=$i \
    ENVIRONMENT=BATCH sh "$script" "$@" >"$o" 2>&1)
  echo "task $i $?" >>"$log"
  i=$((i + 1))
done
if [ -n "$parsable" ]; then echo "$job"; else echo "Submitted batch job $job"; fi
EOF2
chmod +x "$tmp/bin/sbatch"
PATH=$tmp/bin:$PATH
FAKE_SBATCH_LOG=$tmp/sbatch.log
export PATH FAKE_SBATCH_LOG
TB=$ROOT/scripts/slurm/tb.sbatch
EXP=$ROOT/scripts/slurm/experiment.sbatch

mkdir "$tmp/slurm"
odd="a {} it's \"q\" \$HOME 100%j"
: >"$FAKE_SBATCH_LOG"
(cd "$tmp/slurm" && "$TB" 3 "$odd") >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && sums "$tmp/slurm/$odd" | cmp -s - "$tmp/single.sum" && ! grep -q "^task [0-9]* [1-9]" "$FAKE_SBATCH_LOG"; then
  ok "tb.sbatch 3 '$odd': every task ran, the 9 files of one process in that folder"
else
  not_ok "tb.sbatch 3 '$odd': the 9 files of one process in that folder" "status $rc" "$(cat "$tmp/out" "$FAKE_SBATCH_LOG")"
fi
if [ "$(ls "$tmp/slurm/$odd"/slurm-*_*.log 2>/dev/null | wc -l)" -eq 5 ] && [ "$(find "$tmp/slurm" -mindepth 1 -maxdepth 1 -printf x | wc -c)" -eq 1 ]; then
  ok "and a log a task in it (slurm-JOB_TASK.log), nothing beside it"
else
  not_ok "and a log a task in it, nothing beside it" "$(ls -A "$tmp/slurm" "$tmp/slurm/$odd")"
fi

# refused RECIPE DESCRIPTION ARGS...: status 2, one line naming the character, no sbatch call, no folder
refused() {
  recipe=$1 d=$2; shift 2
  : >"$FAKE_SBATCH_LOG"
  rm -rf "$tmp/r"; mkdir "$tmp/r"
  (cd "$tmp/r" && "$recipe" "$@") >"$tmp/out" 2>&1
  rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
     grep -q "has a character Slurm cannot take in a log path (a backslash or a line end)" "$tmp/out" &&
     [ ! -s "$FAKE_SBATCH_LOG" ] && [ -z "$(ls -A "$tmp/r")" ]; then
    ok "$d"
  else
    not_ok "$d" "status $rc" "$(cat "$tmp/out")" "sbatch: $(cat "$FAKE_SBATCH_LOG")" "$(ls -A "$tmp/r")"
  fi
}
refused "$TB" "tb.sbatch: a folder with a backslash is refused in one line, nothing submitted" 3 'a\b'
refused "$TB" "tb.sbatch: a folder with a line end is refused" 3 "a${nl}b"

: >"$FAKE_SBATCH_LOG"
FAKE_SBATCH_FAIL=1 "$TB" 3 "$tmp/fail" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "^tb.sbatch: sbatch failed for level 1" "$tmp/out"; then ok "tb.sbatch: sbatch failing: status 2, said so"
else not_ok "tb.sbatch: sbatch failing: status 2, said so" "status $rc" "$(cat "$tmp/out")"; fi
FAKE_SBATCH_NOID=1 "$TB" 3 "$tmp/noid" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "^tb.sbatch: sbatch gave no job id for level 1" "$tmp/out"; then ok "tb.sbatch: sbatch giving no job id: status 2, said so"
else not_ok "tb.sbatch: sbatch giving no job id: status 2, said so" "status $rc" "$(cat "$tmp/out")"; fi
: >"$FAKE_SBATCH_LOG"
FAKE_TASK_CHESKERS=$tmp/noprog "$TB" 2 "$tmp/nop" >"$tmp/out" 2>&1
if grep -q "^task 1 127$" "$FAKE_SBATCH_LOG" && grep -q "^tb KvK: could not start '$tmp/noprog' (exit status 127)" "$tmp/nop"/slurm-*_1.log; then
  ok "tb.sbatch: a task that cannot start its program fails (127) and its log says so"
else
  not_ok "tb.sbatch: a task that cannot start its program fails and its log says so" "$(cat "$FAKE_SBATCH_LOG" "$tmp/nop"/slurm-*.log)"
fi

# the experiment recipe: an experiment file and OUT with odd names
mkdir -p "$tmp/e/it's {} \"x\""
expfile="$tmp/e/it's {} \"x\"/tiny game's.lua"
cat >"$expfile" <<'EOF2'
return { name = "tiny", games = 2, seed = 1, max_plies = 6, bots = "builtin-random",
  variants = { { name = "a" } }, measures = { "result" } }
EOF2
: >"$FAKE_SBATCH_LOG"
(cd "$tmp/e" && "$EXP" "$expfile" 2 2 "out {} it's \"q\" %j") >"$tmp/out" 2>&1
rc=$?
shards=$(ls "$tmp/e/out {} it's \"q\" %j"/*.jsonl 2>/dev/null | wc -l)
if [ $rc -eq 0 ] && [ "$shards" -eq 2 ] && [ "$(ls "$tmp/e/out {} it's \"q\" %j"/slurm-*_*.log 2>/dev/null | wc -l)" -eq 2 ] && ! grep -q "^task [0-9]* [1-9]" "$FAKE_SBATCH_LOG"; then
  ok "experiment.sbatch with odd file and folder names: both shards played, their logs in that folder"
else
  not_ok "experiment.sbatch with odd file and folder names: both shards played" "status $rc, $shards shards" \
    "$(cat "$tmp/out" "$FAKE_SBATCH_LOG" "$tmp/e/out {} it's \"q\" %j"/*.log 2>/dev/null)"
fi
refused "$EXP" "experiment.sbatch: OUT with a backslash is refused in one line, nothing submitted" "$expfile" 2 2 'o\p'
refused "$EXP" "experiment.sbatch: OUT with a line end is refused" "$expfile" 2 2 "o${nl}p"
: >"$FAKE_SBATCH_LOG"
FAKE_TASK_CHESKERS=$tmp/noprog "$EXP" "$expfile" 2 1 "$tmp/enop" >"$tmp/out" 2>&1
if grep -q "^task 1 127$" "$FAKE_SBATCH_LOG" && grep -q "^shard 1/1: could not start '$tmp/noprog' (exit status 127)" "$tmp/enop"/slurm-*_1.log; then
  ok "experiment.sbatch: a task that cannot start its program fails (127) and its log says so"
else
  not_ok "experiment.sbatch: a task that cannot start its program fails and its log says so" "$(cat "$FAKE_SBATCH_LOG" "$tmp/enop"/slurm-*.log)"
fi
# design mode: its own words for its arguments, nothing submitted
: >"$FAKE_SBATCH_LOG"
"$EXP" design "$expfile" 0 2 "$tmp/dbad" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "^experiment.sbatch: BUDGET must be a positive whole number, not '0'$" "$tmp/out" &&
   [ ! -s "$FAKE_SBATCH_LOG" ] && [ ! -e "$tmp/dbad" ]; then
  ok "experiment.sbatch design: a budget of 0 is refused as BUDGET, nothing submitted"
else
  not_ok "experiment.sbatch design: a budget of 0 is refused as BUDGET, nothing submitted" "status $rc" "$(cat "$tmp/out")"
fi
"$EXP" design "$tmp/nosuch.lua" 10 2 "$tmp/dbad" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "^experiment.sbatch: no design file '$tmp/nosuch.lua'$" "$tmp/out" && [ ! -e "$tmp/dbad" ]; then
  ok "experiment.sbatch design: a missing design file is named, nothing submitted"
else
  not_ok "experiment.sbatch design: a missing design file is named, nothing submitted" "status $rc" "$(cat "$tmp/out")"
fi
FAKE_SBATCH_FAIL=1 "$EXP" "$expfile" 2 1 "$tmp/efail" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "^experiment.sbatch: sbatch failed" "$tmp/out"; then ok "experiment.sbatch: sbatch failing: status 2, said so"
else not_ok "experiment.sbatch: sbatch failing: status 2, said so" "status $rc" "$(cat "$tmp/out")"; fi

echo "1..$n"
[ "$failed" -eq 0 ]
