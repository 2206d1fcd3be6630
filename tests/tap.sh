# tests/tap.sh - sourced by the shell test scripts (after they cd to the
# repository root): one place for the TAP lines they print. n counts the
# tests so far, failed the failures.
#   ok DESCRIPTION
#   not_ok DESCRIPTION [NOTE...]    each line of each note as a "# " line
#   has DESCRIPTION NEEDLE TEXT     ok when TEXT contains NEEDLE
#   hasnot DESCRIPTION NEEDLE TEXT  ok when it does not
#   rc_is DESCRIPTION WANT GOT      ok when the exit status GOT is WANT
#   succeeds DESCRIPTION COMMAND... ok when the command succeeds, else its
#                                   output (up to 2,000 bytes; needs $tmp)
#   needs_program [PATH]            ends the script with one "not ok" when the
#                                   program (default ./cheskers) is not built

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
  n=$((n + 1)); failed=$((failed + 1))
  echo "not ok $n - $1"; shift
  for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done
}
has() { case $3 in *"$2"*) ok "$1" ;; *) not_ok "$1" "expected to contain: $2" "got: $3" ;; esac; }
hasnot() { case $3 in *"$2"*) not_ok "$1" "expected not to contain: $2" "got: $3" ;; *) ok "$1" ;; esac; }
rc_is() { if [ "$2" -eq "$3" ]; then ok "$1"; else not_ok "$1" "expected status $2, got $3"; fi; }
succeeds() {
  _d=$1; shift
  if "$@" >"$tmp/succeeds.out" 2>&1; then ok "$_d"; else not_ok "$_d" "$(head -c 2000 "$tmp/succeeds.out")"; fi
}
needs_program() {
  [ -x "${1:-./cheskers}" ] && return 0
  echo "not ok 1 - ${1:-./cheskers} is missing (make)"; echo "1..1"; exit 1
}
