#!/bin/sh
# tests/valgrind.sh - the whole test suite (tests/run.sh) under valgrind's
# memcheck: every lua5.4 and every ./cheskers the tests start runs inside
# valgrind (wrapper scripts first in PATH and in place of ./cheskers), with
# the module and program built with -O1 -g in a private copy of the tree
# (tests/mirror.sh). Each process writes its own log; any error or definite
# leak in any of them fails the run. Run from anywhere: make valgrind.
#   KEEP=1 keeps the temporary folder    VALGRIND_OPTS adds options
. "$(dirname "$0")/mirror.sh"
if ! command -v valgrind >/dev/null 2>&1; then
  echo "not ok - valgrind is not installed (apt-get install valgrind)"; exit 1
fi
if ! mirror_make CC="${CC:-gcc}" OPT="-O1 -g" CFLAGS=-Werror all; then
  echo "not ok - build for valgrind"; exit 1
fi
vg="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite
    --errors-for-leak-kinds=definite --track-fds=no --vgdb=no --log-file=$logdir/vg.%p
    --suppressions=$mirror/tests/valgrind.supp ${VALGRIND_OPTS:-}"
vg=$(echo $vg)
# ./cheskers becomes a script that runs the real program under valgrind,
# through a link still called cheskers (messages name the program by its
# argv[0]); the program finds its Lua modules beside the file the link
# points to (/proc/self/exe). --vgdb=no: killed processes leave no pipes in
# TMPDIR.
mv "$mirror/cheskers" "$mirror/cheskers.real"
mkdir "$mirror/.vg"
ln -s ../cheskers.real "$mirror/.vg/cheskers"
cat >"$mirror/cheskers" <<WRAP
#!/bin/sh
exec $vg "$mirror/.vg/cheskers" "\$@"
WRAP
cat >"$bin/lua5.4" <<WRAP
#!/bin/sh
exec $vg /usr/bin/lua5.4 "\$@"
WRAP
chmod +x "$mirror/cheskers" "$bin/lua5.4"
echo "# valgrind: $vg"
(CHESKERS_TIME_SCALE=40; export CHESKERS_TIME_SCALE; mirror_test) | tee "$logdir/run.out" | sed "s/^/# /" | grep -v '^# ok '
summary=$(tail -n 1 "$logdir/run.out")
nlogs=0
for f in "$logdir"/vg.*; do
  [ -s "$f" ] || continue
  nlogs=$((nlogs + 1))
  echo "# ---- $f"; sed 's/^/# /' "$f" | head -n 60
done
nproc=$(ls "$logdir" | grep -c '^vg\.')
case $summary in
  *" 0 failed") if [ $nlogs -eq 0 ]; then
                  echo "ok - valgrind: $summary, $nproc processes, 0 reports"; exit 0
                fi ;;
esac
echo "not ok - valgrind: $summary, $nlogs of $nproc processes reported errors"
exit 1
