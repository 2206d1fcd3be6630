# tests/mirror.sh - sourced by tests/sanitize.sh and tests/valgrind.sh: makes
# a private copy of the source tree (no .git, build, binaries or fuzzing
# output) in a temporary folder, so that instrumented builds never touch the
# working tree's build/, ./cheskers or ./cheskers.so. Sets:
#   $repo    the repository root
#   $tmp     the temporary folder (removed on exit unless KEEP=1)
#   $mirror  the copy ($tmp/main; the suite needs nothing outside it)
#   $logdir  where the runs write their reports ($tmp/logs)
#   $bin     a folder put first in PATH for wrapper scripts ($mirror/.bin)
# and defines mirror_make (make in the copy) and mirror_test (tests/run.sh in
# the copy, with the install test skipped: make install-test runs it).
repo=$(cd "$(dirname "$0")/.." && pwd) || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cheskers-check.XXXXXX") || exit 2
if [ "${KEEP:-0}" = 1 ]; then
  echo "# keeping $tmp"
else
  trap 'rm -rf "$tmp"' EXIT
  trap 'exit 130' INT TERM
fi
mirror=$tmp/main
logdir=$tmp/logs
bin=$mirror/.bin
mkdir -p "$mirror" "$logdir" "$bin" || exit 2
(cd "$repo" && tar cf - --exclude=./.git --exclude=./build --exclude=./cheskers \
   --exclude=./cheskers.so --exclude=./tests/fuzz/out --exclude='*.o' .) |
  (cd "$mirror" && tar xf -) || exit 2

mirror_make() { # make arguments...
  make -s -C "$mirror" "$@" >"$logdir/make.out" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then cat "$logdir/make.out"; fi
  return $rc
}

mirror_test() { # runs the suite in the copy; its output goes to stdout
  (cd "$mirror" && PATH="$bin:$PATH" CHESKERS_SKIP_INSTALL_TEST=1 sh tests/run.sh)
}
