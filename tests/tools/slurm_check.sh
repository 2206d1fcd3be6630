#!/bin/sh
# tests/tools/slurm_check.sh - owns the real-Slurm test of the shipped recipe
# (scripts/slurm/experiment.sbatch), TAP, run by `make slurm-check` (part of
# make check-all, not of make test). As root it sets up a single-node Slurm
# on this machine (munge, slurmctld and slurmd on localhost, no accounting,
# a slurm.conf in a temporary folder), then in a fresh clone of this
# repository (the committed tree), built with make and with no runs/ folder:
#   - submits the recipe from the repository root, waits for the array, and
#     checks that the merged report equals the report of an unsplit run;
#   - submits it with an experiment file and OUT whose names hold braces,
#     quotes, spaces, a dollar sign and %j, and checks the same;
#   - submits a design search as an array of 2 and checks that it reaches
#     the decisions of one process;
#   - submits the recipe again (one task at a time), cancels a task midway through
#     its shard, resubmits that task alone, and checks the report again;
#   - checks that bad arguments (OUT with a backslash among them) are
#     refused before anything is submitted;
#   - submits the tablebase recipe (scripts/slurm/tb.sbatch: an array per
#     level, each after the one before) for 4 pieces and checks that its
#     files equal a single-process build's byte for byte.
# Everything it started is stopped and removed at the end, whatever
# happened; the whole run is bounded (SLURM_CHECK_LIMIT seconds, 600).
# Needs: slurm-wlm and munge (make slurm-check installs them), root.
set -u
cd "$(dirname "$0")/../.." || exit 2
SRC=$(pwd)
LIMIT=${SLURM_CHECK_LIMIT:-600}
tmp=$(mktemp -d /tmp/cheskers-slurm.XXXXXX) || exit 2
. tests/tap.sh

# ---- setting up and tearing down -------------------------------------------------

ctld_pid="" slurmd_pid="" munged_pid="" hosts_line="" watchdog=""

# Stops every daemon this test started (by its pid) and removes its files.
# Idempotent: the EXIT trap runs it again after an explicit call.
cleanup() {
  trap '' INT TERM
  if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null; then
    scancel --quiet --user="$(id -un)" 2>/dev/null
    wait_until 20 queue_is_empty
  fi
  stop_pid "$slurmd_pid"
  stop_pid "$ctld_pid"
  stop_pid "$munged_pid"
  if [ -n "$hosts_line" ]; then
    # remove only the line added here (others may have edited the file since)
    grep -vxF "$hosts_line" /etc/hosts >"$tmp/hosts" && cat "$tmp/hosts" >/etc/hosts
  fi
  stop_pid "$watchdog"
  slurmd_pid="" ctld_pid="" munged_pid="" hosts_line="" watchdog=""
  rm -rf "$tmp"
}

# SIGTERM, then SIGKILL after 10 s.
stop_pid() {
  [ -n "$1" ] || return 0
  kill "$1" 2>/dev/null || return 0
  i=0
  while kill -0 "$1" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
  kill -9 "$1" 2>/dev/null
  return 0
}

on_timeout() {
  not_ok "the whole check finishes within $LIMIT s"
  finish
}

finish() {
  cleanup
  echo "1..$n"
  exit 1
}

# wait_until SECONDS COMMAND...: polls every 0.5 s; false on timeout.
wait_until() {
  limit=$(($1 * 2)); shift
  i=0
  until "$@"; do
    i=$((i + 1))
    [ $i -ge "$limit" ] && return 1
    sleep 0.5
  done
  return 0
}

trap cleanup EXIT
trap 'exit 130' INT
trap on_timeout TERM
# the watchdog: TERM to this script after LIMIT s (its sleep ends with it)
( trap 'kill "$s" 2>/dev/null; exit 0' TERM
  sleep "$LIMIT" & s=$!
  wait "$s" && kill -TERM $$ 2>/dev/null ) &
watchdog=$!

# Fatal: the rest cannot run; reported as a failure with its reason.
bail() {
  not_ok "$@"
  finish
}

if [ "$(id -u)" -ne 0 ]; then
  bail "the Slurm check runs as root (it starts munged, slurmctld and slurmd)"
fi
for p in munged munge unmunge slurmctld slurmd sbatch squeue scancel scontrol sinfo git make; do
  command -v "$p" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
  command -v "$p" >/dev/null 2>&1 ||
    bail "$p is installed (make slurm-check installs slurm-wlm and munge)"
done

# munge: a key if there is none, munged started if it does not answer.
munge_works() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }
start_munge() {
  if [ ! -e /etc/munge/munge.key ]; then
    mkdir -p /etc/munge &&
      dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null &&
      chown munge:munge /etc/munge/munge.key && chmod 0400 /etc/munge/munge.key ||
      return 1
  fi
  munge_works && return 0
  mkdir -p /run/munge && chown munge:munge /run/munge || return 1
  su -s /bin/sh munge -c /usr/sbin/munged >"$tmp/munged.out" 2>&1 || return 1
  munged_pid=$(cat /run/munge/munged.pid 2>/dev/null)
  wait_until 10 munge_works
}
if start_munge; then ok "munge works (a credential encoded and decoded)"
else bail "munge works (a credential encoded and decoded)" "$(cat "$tmp/munged.out" 2>/dev/null)"; fi

# The node is this host's short name, reached on 127.0.0.1.
host=$(hostname -s)
if ! getent hosts "$host" >/dev/null 2>&1; then
  hosts_line="127.0.0.1 $host # added by cheskers tests/tools/slurm_check.sh"
  echo "$hosts_line" >>/etc/hosts
fi

write_conf() {
  mem=$(awk '/^MemTotal:/ { printf "RealMemory=%d", $2 / 1024 * 0.9 }' /proc/meminfo 2>/dev/null)
  mkdir -p "$tmp/slurm/state" "$tmp/slurm/spool" || return 1
  cat >"$tmp/slurm/slurm.conf" <<EOF
# a single-node Slurm for tests/tools/slurm_check.sh
ClusterName=cheskers-check
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$tmp/slurm/state
SlurmdSpoolDir=$tmp/slurm/spool
SlurmctldPidFile=$tmp/slurm/slurmctld.pid
SlurmdPidFile=$tmp/slurm/slurmd.pid
SlurmctldLogFile=$tmp/slurm/slurmctld.log
SlurmdLogFile=$tmp/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) $mem State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

node_idle() { [ "$(sinfo -h -N -n "$host" -o %t 2>/dev/null)" = idle ]; }
queue_is_empty() { [ -z "$(squeue -h -o %i 2>/dev/null)" ]; }

write_conf || bail "a slurm.conf is written in $tmp/slurm"
SLURM_CONF=$tmp/slurm/slurm.conf
export SLURM_CONF
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurm/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -f "$SLURM_CONF" >"$tmp/slurm/slurmd.out" 2>&1 &
slurmd_pid=$!
if wait_until 60 node_idle; then
  ok "slurmctld and slurmd run; sinfo shows node $host idle"
else
  bail "slurmctld and slurmd run; sinfo shows node $host idle" \
    "sinfo: $(sinfo -N 2>&1 | tr '\n' ' ')" \
    "$(cat "$tmp/slurm/slurmctld.out" "$tmp/slurm/slurmd.out" 2>/dev/null | tail -n 20)" \
    "$(tail -n 20 "$tmp/slurm/slurmctld.log" "$tmp/slurm/slurmd.log" 2>/dev/null)"
fi

# ---- a fresh copy of the repository ---------------------------------------------

repo=$tmp/repo
if git clone -q "$SRC" "$repo" >"$tmp/clone.out" 2>&1 && timeout 240 make -C "$repo" -s >>"$tmp/clone.out" 2>&1 &&
   [ -x "$repo/cheskers" ]; then
  ok "a fresh clone of the repository builds"
else
  bail "a fresh clone of the repository builds" "$(tail -n 20 "$tmp/clone.out")"
fi
cd "$repo" || bail "cd $repo"
if [ ! -e runs ]; then ok "the clone has no runs/ folder"
else not_ok "the clone has no runs/ folder"; fi

SCRIPT=scripts/slurm/experiment.sbatch

# The report text with any timing line left out.
report() { timeout 60 ./cheskers report "$1" --no-svg 2>&1 | grep -v -E 'elapsed|[0-9] ?s\)$'; }

# submit OUTFILE ARGS...: runs the recipe ($SCRIPT, or $via when set);
# prints the job id, or nothing.
via=""
submit() {
  o=$1; shift
  timeout 60 "${via:-$SCRIPT}" "$@" >"$o" 2>&1
  sed -n 's/^Submitted batch job \([0-9][0-9]*\)$/\1/p' "$o"
}

job_done() { [ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]; }

# The state of each task of job array $1: "K STATE" lines, by task id.
task_states() {
  scontrol -o show job "$1" 2>/dev/null |
    sed -n 's/.*ArrayTaskId=\([0-9][0-9]*\) .*JobState=\([A-Z_]*\) .*/\1 \2/p' | sort -n
}

# games FILE: the games a results file holds, its lines but the header (0
# when missing).
games() { if [ -f "$1" ]; then grep -c -v '^{"header"' "$1"; else echo 0; fi; }

# ---- 1. the recipe as docs/guide/experiments.md gives it, from the repository root ----------------------

EXP=scripts/experiments/majority.lua
timeout 60 ./cheskers experiment $EXP --games 4 --shard 1/1 --out "$tmp/whole" --quiet >"$tmp/whole.out" 2>&1 ||
  not_ok "the unsplit run" "$(cat "$tmp/whole.out")"
report "$tmp/whole" >"$tmp/whole.txt"

job=$(submit "$tmp/submit1.out" $EXP 4 4 runs/majority)
if [ -n "$job" ]; then ok "$SCRIPT $EXP 4 4 runs/majority submits job $job"
else bail "$SCRIPT $EXP 4 4 runs/majority submits a job" "$(cat "$tmp/submit1.out")"; fi
if wait_until 120 job_done "$job"; then ok "the array of 4 tasks finishes"
else not_ok "the array of 4 tasks finishes (within 120 s)" "$(squeue 2>&1 | tr '\n' ' ')"; fi
states=$(task_states "$job" | tr '\n' ' ')
if [ "$states" = "1 COMPLETED 2 COMPLETED 3 COMPLETED 4 COMPLETED " ]; then
  ok "every task COMPLETED"
else
  not_ok "every task COMPLETED" "task states: $states" \
    "$(tail -n 20 "$tmp/slurm/slurmd.log" 2>/dev/null)"
fi
logs=0
for k in 1 2 3 4; do
  grep -q "^shard $k/4: exit status 0" "runs/majority/slurm-${job}_$k.log" 2>/dev/null && logs=$((logs + 1))
done
if [ $logs -eq 4 ]; then ok "each task wrote its log runs/majority/slurm-${job}_K.log"
else not_ok "each task wrote its log runs/majority/slurm-${job}_K.log" "$(ls runs/majority 2>&1)"; fi
shards=$(ls runs/majority/majority.seed1.shard*of4.jsonl 2>/dev/null | wc -l)
if [ "$shards" -eq 4 ]; then ok "four shard files"
else not_ok "four shard files" "found: $(ls runs/majority 2>&1 | tr '\n' ' ')"; fi
report runs/majority >"$tmp/split.txt"
if grep -q '^majority-off@1  *4 ' "$tmp/whole.txt" && cmp -s "$tmp/whole.txt" "$tmp/split.txt"; then
  ok "the merged report equals the report of the unsplit run"
else
  not_ok "the merged report equals the report of the unsplit run" \
    "$(diff "$tmp/whole.txt" "$tmp/split.txt" | head -n 20)"
fi

# ---- 1b. submitted from another folder, with paths relative to it ---------------------

# (the tasks still run from the repository root: ./cheskers is found)
cd "$tmp" || bail "cd $tmp"
via=repo/$SCRIPT
job=$(submit "$tmp/submit1b.out" repo/$EXP 4 2 elsewhere)
via=""
cd "$repo" || bail "cd $repo"
if [ -n "$job" ] && wait_until 120 job_done "$job" &&
   [ "$(task_states "$job" | tr '\n' ' ')" = "1 COMPLETED 2 COMPLETED " ]; then
  ok "submitted from another folder (repo/$SCRIPT repo/$EXP 4 2 elsewhere), both tasks complete"
else
  not_ok "submitted from another folder, both tasks complete" "$(cat "$tmp/submit1b.out")" \
    "task states: $(task_states "$job" | tr '\n' ' ')" "$(cat "$tmp"/elsewhere/*.log 2>/dev/null)"
fi
report "$tmp/elsewhere" >"$tmp/elsewhere.txt"
if cmp -s "$tmp/whole.txt" "$tmp/elsewhere.txt"; then
  ok "and its merged report (2 shards, into elsewhere/) equals the unsplit run's"
else
  not_ok "and its merged report (2 shards, into elsewhere/) equals the unsplit run's" \
    "$(diff "$tmp/whole.txt" "$tmp/elsewhere.txt" | head -n 20)"
fi

# ---- 1b'. odd file and folder names reach the real Slurm's tasks intact ---------------

# (braces, quotes, spaces, a dollar sign, %j: through the environment, never
# a text Slurm or a shell expands, and the log path with %% for each %;
# tests/tools/recipes_test.sh covers more names against a stand-in sbatch)
oddexp="$tmp/it's {} \"x\"/maj game's.lua"
oddout="$tmp/out {} it's \"q\" \$HOME 100%j"
mkdir -p "$(dirname "$oddexp")" && cp "$EXP" "$oddexp"
job=$(submit "$tmp/submit1d.out" "$oddexp" 4 2 "$oddout")
if [ -n "$job" ] && wait_until 120 job_done "$job" &&
   [ "$(task_states "$job" | tr '\n' ' ')" = "1 COMPLETED 2 COMPLETED " ] &&
   [ "$(ls "$oddout"/slurm-"${job}"_*.log 2>/dev/null | wc -l)" -eq 2 ]; then
  ok "an experiment file and OUT with braces, quotes, spaces, \$ and %j: both tasks complete, their logs in OUT"
else
  not_ok "an experiment file and OUT with braces, quotes, spaces, \$ and %j: both tasks complete, their logs in OUT" \
    "$(cat "$tmp/submit1d.out")" "task states: $(task_states "$job" | tr '\n' ' ')" \
    "$(ls -A "$tmp" "$oddout" 2>&1 | tr '\n' ' ')" "$(cat "$oddout"/*.log 2>/dev/null)"
fi
report "$oddout" >"$tmp/odd.txt"
if cmp -s "$tmp/whole.txt" "$tmp/odd.txt"; then
  ok "and its merged report equals the unsplit run's"
else
  not_ok "and its merged report equals the unsplit run's" "$(diff "$tmp/whole.txt" "$tmp/odd.txt" | head -n 20)"
fi

# ---- 1c. a design search as an array: the shards wait for each other each round -------

# (cheskers design; the decisions: the report's lines of candidates and verdicts)
decisions() { grep -E '^ *[0-9]+\. |rejected by|^[A-Z].*: [0-9]+$' "$1"; }
DESIGN=scripts/designs/example.lua
timeout 120 ./cheskers design $DESIGN --out "$tmp/design-whole" --quiet >"$tmp/dw.out" 2>&1 ||
  not_ok "the unsplit design search" "$(cat "$tmp/dw.out")"
job=$(submit "$tmp/submit1c.out" design $DESIGN 100000 2 runs/design)
if [ -n "$job" ] && wait_until 180 job_done "$job" &&
   [ "$(task_states "$job" | tr '\n' ' ')" = "1 COMPLETED 2 COMPLETED " ]; then
  ok "$SCRIPT design $DESIGN 100000 2 runs/design: both tasks complete"
else
  not_ok "$SCRIPT design $DESIGN 100000 2 runs/design: both tasks complete" "$(cat "$tmp/submit1c.out")" \
    "task states: $(task_states "$job" | tr '\n' ' ')" "$(cat runs/design/*.log 2>/dev/null)"
fi
if [ -s runs/design/design.txt ] && [ "$(decisions "$tmp/dw.out")" = "$(decisions runs/design/design.txt)" ]; then
  ok "and the array reaches the decisions of one process"
else
  not_ok "and the array reaches the decisions of one process" \
    "$(diff "$tmp/dw.out" runs/design/design.txt 2>&1 | head -n 20)"
fi

# ---- 2. a task cancelled midway, then resubmitted alone ---------------------------------

# Slower games (the engine at 64000 nodes a move) so that a shard of 6 games
# runs long enough to be cancelled after its first game; one task at a time.
cat >scripts/experiments/slurm_slow.lua <<'EOF'
return {
  name = "slow", seed = 5, max_plies = 300, games = 24,
  bots = "engine:level=9", random_plies = 4, base = { draw_repetition = 3 },
  variants = { { name = "golomb" } },
}
EOF
SLOW=scripts/experiments/slurm_slow.lua
timeout 120 ./cheskers experiment $SLOW --games 24 --shard 1/1 --out "$tmp/slow-whole" --quiet >"$tmp/sw.out" 2>&1 ||
  not_ok "the unsplit slow run" "$(cat "$tmp/sw.out")"
report "$tmp/slow-whole" >"$tmp/slow-whole.txt"

job=$(submit "$tmp/submit2.out" $SLOW 24 4 runs/slow --array=1-4%1)
[ -n "$job" ] || bail "the slow experiment is submitted" "$(cat "$tmp/submit2.out")"
shard2=runs/slow/slow.seed5.shard2of4.jsonl
task2_midway() {
  [ "$(squeue -h -j "${job}_2" -o %t 2>/dev/null)" = R ] && [ "$(games "$shard2")" -ge 1 ]
}
if wait_until 120 task2_midway; then
  scancel "${job}_2"
  wait_until 120 job_done "$job"
  got=$(games "$shard2")
  states=$(task_states "$job" | tr '\n' ' ')
  if [ "$states" = "1 COMPLETED 2 CANCELLED 3 COMPLETED 4 COMPLETED " ] && [ "$got" -lt 6 ]; then
    ok "task 2 cancelled midway ($got of its 6 games recorded); tasks 1, 3, 4 completed"
  else
    not_ok "task 2 cancelled midway; tasks 1, 3, 4 completed" "task states: $states" \
      "task 2 recorded $got of 6 games (6: it finished before scancel)"
  fi
else
  not_ok "task 2 runs and records a game" "squeue: $(squeue 2>&1 | tr '\n' ' ')"
  scancel "$job"
  wait_until 60 job_done "$job"
fi
report runs/slow >"$tmp/slow-cut.txt"
if ! cmp -s "$tmp/slow-whole.txt" "$tmp/slow-cut.txt"; then
  ok "without task 2 the report differs from the unsplit run"
else
  not_ok "without task 2 the report differs from the unsplit run"
fi

job2=$(submit "$tmp/submit3.out" $SLOW 24 4 runs/slow --array=2)
if [ -n "$job2" ] && wait_until 120 job_done "$job2" &&
   [ "$(task_states "$job2" | tr '\n' ' ')" = "2 COMPLETED " ]; then
  ok "task 2 resubmitted alone ($SCRIPT $SLOW 24 4 runs/slow --array=2) completes"
else
  not_ok "task 2 resubmitted alone completes" "$(cat "$tmp/submit3.out")" \
    "task states: $(task_states "$job2" | tr '\n' ' ')" \
    "$(cat "runs/slow/slurm-${job2}_2.log" 2>/dev/null)"
fi
got=$(games "$shard2")
if [ "$got" -eq 6 ]; then ok "it resumed: shard 2 has its 6 games, once each"
else not_ok "it resumed: shard 2 has its 6 games, once each" "shard 2 has $got games"; fi
report runs/slow >"$tmp/slow-split.txt"
if grep -q '^golomb  *24 ' "$tmp/slow-whole.txt" && cmp -s "$tmp/slow-whole.txt" "$tmp/slow-split.txt"; then
  ok "the merged report equals the report of the unsplit run"
else
  not_ok "the merged report equals the report of the unsplit run" \
    "$(diff "$tmp/slow-whole.txt" "$tmp/slow-split.txt" | head -n 20)"
fi

# ---- 3. bad arguments: a clear message, nothing submitted ---------------------------------

# refused DESCRIPTION EXPECTED-TEXT ARGS...
refused() {
  d=$1 want=$2; shift 2
  timeout 60 "$SCRIPT" "$@" >"$tmp/bad.out" 2>&1
  rc=$?
  if [ $rc -eq 2 ] && grep -qF "$want" "$tmp/bad.out" && queue_is_empty &&
     ! grep -q '^Submitted' "$tmp/bad.out"; then
    ok "$d"
  else
    not_ok "$d" "status $rc, output:" "$(cat "$tmp/bad.out")"
  fi
}
refused "no arguments: the usage" "usage: $SCRIPT EXPERIMENT GAMES SHARDS OUT"
refused "GAMES must be a number" "GAMES must be a positive whole number, not 'many'" $EXP many 4 runs/x
refused "SHARDS must be positive" "SHARDS must be a positive whole number, not '0'" $EXP 4 0 runs/x
refused "a missing experiment file is named" "no experiment file 'nosuch.lua'" nosuch.lua 4 4 runs/x
refused "OUT with a backslash is refused" "has a character Slurm cannot take in a log path" $EXP 4 4 'runs/x\y'
if [ ! -e runs/x ] && [ ! -e 'runs/x\y' ]; then ok "and no folder was created for them"
else not_ok "and no folder was created for them"; fi

# ---- 4. the tablebase recipe: one array per level, byte for byte one process's ---------

TB=scripts/slurm/tb.sbatch
timeout 120 ./cheskers tb build --pieces 4 --dir "$tmp/tb-single" >"$tmp/tbs.out" 2>&1 ||
  not_ok "the single-process build of 4 pieces" "$(cat "$tmp/tbs.out")"
timeout 60 $TB 4 runs/tb >"$tmp/tbsub.out" 2>&1
jobs=$(sed -n 's/^level [0-9]*: job \([0-9][0-9]*\), .*/\1/p' "$tmp/tbsub.out" | tr '\n' ' ')
if [ "$(echo $jobs | wc -w)" -eq 5 ]; then ok "$TB 4 runs/tb submits one array per level (5: $jobs)"
else bail "$TB 4 runs/tb submits one array per level" "$(cat "$tmp/tbsub.out")"; fi
last=${jobs% }; last=${last##* }
deps=$(scontrol -o show job "$last" 2>/dev/null | sed -n 's/.*Dependency=\([^ ]*\).*/\1/p' | head -n 1)
has "the last level's array waits for the level before (afterok)" "afterok:" "$deps"
all_done() { for j in $jobs; do job_done "$j" || return 1; done; }
if wait_until 240 all_done; then ok "every level's array finishes"
else not_ok "every level's array finishes (within 240 s)" "$(squeue 2>&1 | tr '\n' ' ')"; fi
bad=""
for j in $jobs; do
  task_states "$j" | grep -qv ' COMPLETED$' && bad="$bad $j: $(task_states "$j" | tr '\n' ' ')"
done
if [ -z "$bad" ]; then ok "every task of every level COMPLETED"
else not_ok "every task of every level COMPLETED" "$bad" "$(cat runs/tb/slurm-*.log 2>/dev/null | tail -n 20)"; fi
(cd "$tmp/tb-single" && sha256sum -- *.ctb) >"$tmp/tbs.sum" 2>&1
(cd runs/tb && sha256sum -- *.ctb) >"$tmp/tbj.sum" 2>&1
if [ "$(wc -l <"$tmp/tbs.sum")" -eq 45 ] && cmp -s "$tmp/tbs.sum" "$tmp/tbj.sum"; then
  ok "the 45 files of the Slurm build equal the single process's byte for byte (sha256)"
else
  not_ok "the 45 files of the Slurm build equal the single process's" "$(diff "$tmp/tbs.sum" "$tmp/tbj.sum" | head -n 10)"
fi
timeout 60 $TB 9 runs/tbx >"$tmp/bad.out" 2>&1
if [ $? -eq 2 ] && grep -q "PIECES must be 2 to 6, not '9'" "$tmp/bad.out" && queue_is_empty && [ ! -e runs/tbx ]; then
  ok "$TB: bad PIECES refused, nothing submitted"
else
  not_ok "$TB: bad PIECES refused, nothing submitted" "$(cat "$tmp/bad.out")"
fi

cd "$SRC" || exit 2
trap - TERM
daemons="$ctld_pid $slurmd_pid"
cleanup
alive=""
for p in $daemons; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
if [ -n "$alive" ]; then
  not_ok "slurmctld and slurmd are stopped at the end" "still running:$alive"
else
  ok "slurmctld and slurmd are stopped at the end"
fi
echo "1..$n"
[ "$failed" -eq 0 ]
