#!/bin/sh
# bench/startup.sh - how long ./cheskers takes to come up (issue 3 asks for
# the first prompt under 50 ms). Prints the median in ms of STARTUP_RUNS runs
# (default 21) of:
#   batch:       echo quit | ./cheskers   (Lua state, libraries, REPL module)
#   interactive: on a pseudo-terminal (python3's pty module, when there):
#                from the fork until the prompt shows (readline, history, the
#                board drawn in colour)
# Timed by hyperfine or python3 when installed, else by a shell loop of
# date(1) calls (which adds a few ms of its own, printed beside).
# A benchmark, not a test: no limit is checked here.
set -u
cd "$(dirname "$0")/.." || exit 2
runs=${STARTUP_RUNS:-21}
bin=./cheskers
[ -x "$bin" ] || { echo "startup.sh: build ./cheskers first (make)" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
export HOME="$tmp" CHESKERS_HISTORY="$tmp/history"

# median_ms COMMAND...: runs COMMAND $runs times, prints the median wall time in ms
median_ms() {
  i=0
  while [ "$i" -lt "$runs" ]; do
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000))
    i=$((i + 1))
  done | sort -n | awk '{a[NR] = $1} END {printf "%.1f\n", a[int((NR + 1) / 2)] / 1000}'
}

batch() { echo quit | "$bin"; }
nothing() { echo quit | true; }

# batch_ms: like median_ms batch, timed by python3 (no date(1) forks)
batch_ms() {
  python3 - "$bin" "$runs" <<'PY'
import subprocess, sys, time, statistics
bin_, runs = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(runs):
    t0 = time.perf_counter()
    subprocess.run([bin_], input=b"quit\n", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times.append((time.perf_counter() - t0) * 1000)
print("%.1f" % statistics.median(times))
PY
}

# interactive: on a pseudo-terminal (python3's pty), from the fork to the
# first prompt on the screen (the board drawn, history read); then Ctrl-D.
first_prompt_ms() {
  python3 - "$bin" "$runs" <<'PY'
import os, pty, sys, time, select, statistics
bin_, runs = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(runs):
    t0 = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.environ.pop("NO_COLOR", None)
        os.execv(bin_, [bin_])
    buf = b""
    while b"cheskers> " not in buf:
        r, _, _ = select.select([fd], [], [], 5)
        if not r:
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        buf += chunk
    times.append((time.perf_counter() - t0) * 1000)
    os.write(fd, b"\x04")
    try:
        while os.read(fd, 4096):
            pass
    except OSError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)
print("%.1f" % statistics.median(times))
PY
}

if command -v hyperfine >/dev/null 2>&1; then
  printf 'quit\n' >"$tmp/in"
  hyperfine -N --warmup 3 --runs "$runs" --input "$tmp/in" --export-json "$tmp/h.json" "$bin" >/dev/null 2>&1 &&
    b=$(lua5.4 -e 'local s = io.read("a"); print(string.format("%.1f", tonumber(s:match([["median":%s*([%d.e-]+)]])) * 1000))' <"$tmp/h.json")
fi
if [ -z "${b:-}" ] && command -v python3 >/dev/null 2>&1; then b=$(batch_ms); fi
if [ -n "${b:-}" ]; then
  echo "start-up, batch (echo quit | ./cheskers): $b ms (median of $runs)"
else
  echo "start-up, batch (echo quit | ./cheskers): $(median_ms batch) ms (median of $runs;" \
    "the loop's own date(1) and pipe: $(median_ms nothing) ms)"
fi
if command -v python3 >/dev/null 2>&1; then
  echo "start-up, interactive, on a pseudo-terminal, to the first prompt: $(first_prompt_ms) ms (median of $runs)"
else
  echo "start-up, interactive: not measured (needs python3 for a pseudo-terminal)"
fi
