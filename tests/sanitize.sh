#!/bin/sh
# tests/sanitize.sh - the whole test suite (tests/run.sh) with
# AddressSanitizer and UndefinedBehaviorSanitizer, built once with gcc and
# once with clang, warnings as errors. Run from anywhere: make sanitize.
#
# Each build happens in a private copy of the tree (tests/mirror.sh). The
# module is loaded into the stock lua5.4 with the sanitizer runtime preloaded
# (a lua5.4 wrapper first in PATH sets LD_PRELOAD); ./cheskers is
# instrumented itself. Every report is written to a log file, so a report
# inside a child process whose output a test swallows is still counted. With
# gcc the reports go to stderr instead (its libubsan, loaded with the module,
# resets the log path): -fno-sanitize-recover and abort_on_error make each
# one fatal, so its test fails, and the failure output is searched for them.
# Leak checking is on for ./cheskers and off for lua5.4 (busted leaves the
# interpreter's state open at exit; LSAN_LUA=1 turns it on anyway).
#   COMPILERS="gcc clang" (default)    KEEP=1 keeps the temporary folder
#   SANITIZE_SELFTEST=1  adds a module with a heap overflow and a spec that
#                        calls it: the run must then fail with a report (a
#                        check that the reports really reach this script)
. "$(dirname "$0")/mirror.sh"
SAN="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
status=0
for cc in ${COMPILERS:-gcc clang}; do
  if ! command -v "$cc" >/dev/null 2>&1; then
    echo "not ok - $cc is not installed (make deps)"; status=1; continue
  fi
  case $cc in
    clang*) rt=$($cc -print-file-name=libclang_rt.asan-x86_64.so)
            opt="$SAN -shared-libasan"
            LD_LIBRARY_PATH="$(dirname "$rt")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
            export LD_LIBRARY_PATH ;;   # ./cheskers finds the shared runtime
    *)      rt=$($cc -print-file-name=libasan.so); opt=$SAN ;;
  esac
  if [ ! -e "$rt" ]; then
    echo "not ok - $cc: no ASan runtime ($rt): install libasan8 / libclang-rt-dev"; status=1; continue
  fi
  echo "# sanitize: $cc ($opt)"
  mirror_make clean
  if ! mirror_make CC="$cc" OPT="$opt" CFLAGS=-Werror all; then
    echo "not ok - $cc build with -Werror"; status=1; continue
  fi
  if [ "${SANITIZE_SELFTEST:-0}" = 1 ]; then
    printf '%s\n' '#include <stdlib.h>' '#include "lua.h"' 'int luaopen_selftest(lua_State *L);' \
      'static int boom(lua_State *L) { volatile char *p = malloc(8); p[8] = 1; free((void *)p); (void)L; return 0; }' \
      'int luaopen_selftest(lua_State *L) { lua_pushcfunction(L, boom); return 1; }' >"$mirror/selftest.c"
    printf '%s\n' 'describe("sanitizer self-test", function()' \
      '  it("overflows the heap", function() require("selftest")() end)' 'end)' \
      >"$mirror/tests/binding/zz_selftest_spec.lua"
    $cc $opt -shared -fPIC $(pkg-config --cflags lua5.4) "$mirror/selftest.c" -o "$mirror/selftest.so"
  fi
  rm -f "$logdir"/asan.* "$logdir"/ubsan.*
  cat >"$bin/lua5.4" <<WRAP
#!/bin/sh
ASAN_OPTIONS="\$ASAN_OPTIONS:detect_leaks=${LSAN_LUA:-0}" LD_PRELOAD="$rt\${LD_PRELOAD:+:\$LD_PRELOAD}" exec /usr/bin/lua5.4 "\$@"
WRAP
  chmod +x "$bin/lua5.4"
  (
    ASAN_OPTIONS="log_path=$logdir/asan:abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
    UBSAN_OPTIONS="log_path=$logdir/ubsan:print_stacktrace=1:halt_on_error=1"
    LSAN_OPTIONS="suppressions=$mirror/tests/lsan.supp"
    CHESKERS_TIME_SCALE=5
    CC="$cc $opt"   # test programs built against build/libcheskers.a are instrumented too
    export ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS CHESKERS_TIME_SCALE CC
    mirror_test
  ) | tee "$logdir/run.out" | sed "s/^/# $cc: /" | grep -v '^# [a-z]*: ok '
  summary=$(tail -n 1 "$logdir/run.out")
  reports=$(( $(ls "$logdir" | grep -c -E '^(asan|ubsan)\.') +
              $(grep -c -E 'runtime error:|ERROR: [A-Za-z]+Sanitizer' "$logdir/run.out") ))
  if [ "$reports" -ne 0 ]; then
    for f in "$logdir"/asan.* "$logdir"/ubsan.*; do
      [ -e "$f" ] && { echo "# ---- $f"; sed 's/^/# /' "$f" | head -n 60; }
    done
  fi
  case $summary in
    *" 0 failed") ;;
    *) status=1 ;;
  esac
  if [ "$reports" -eq 0 ] && [ $status -eq 0 ]; then
    echo "ok - $cc: $summary, 0 sanitizer reports"
  else
    echo "not ok - $cc: $summary, $reports sanitizer reports"; status=1
  fi
done
exit $status
