# tests/cprog.sh - sourced by the TAP scripts that test the C core through
# a C program of their own (tests/*.c linked with build/libcheskers.a): one
# place for how such a program is built. Expects $tmp (a scratch folder).
#   cprog_build SOURCE OUTPUT [LINK ARGS...]  builds it; the compiler's
#       messages go to $tmp/cprog.err; returns the compiler's status
#   cprog SOURCE OUTPUT [LINK ARGS...]        the same, or, when the library
#       is missing or the program does not build, prints one "not ok" with
#       the reason and the plan "1..1", and exits 1
# CC comes from the environment (make sanitize instruments these programs).

cprog_build() { # source output [link args...]
  src=$1 out=$2
  shift 2
  ${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Icore -Itests "$src" build/libcheskers.a "$@" -lzstd \
    -o "$out" 2>"$tmp/cprog.err"
}

cprog() { # source output [link args...]
  if [ ! -f build/libcheskers.a ]; then
    echo "not ok 1 - build/libcheskers.a is missing (make)"; echo "1..1"; exit 1
  fi
  if ! cprog_build "$@"; then
    echo "not ok 1 - $1 does not build"; sed 's/^/# /' "$tmp/cprog.err"; echo "1..1"; exit 1
  fi
}
