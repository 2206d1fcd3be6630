#!/bin/sh
# tests/tools/deps_test.sh - make deps (TAP): it installs only the missing Debian
# packages and leaves the lua/luac alternatives as they were. apt-get,
# dpkg-query, update-alternatives and sudo are stand-ins first in PATH that
# keep their state in a temporary folder, so nothing on the machine is
# installed or changed; the stand-in apt-get does what installing lua5.1
# does on Debian (it moves an automatic alternative to the higher-priority
# lua5.1, or creates a missing one pointing at it). Run from the repository
# root (make test).
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh
expect() { # description, wanted, got
  if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "wanted: $2" "got:    $3"; fi
}

# the real Lua 5.4 paths must exist: make deps only sets back to what exists
lua=/usr/bin/lua5.4 luac=/usr/bin/luac5.4
if [ ! -e "$lua" ] || [ ! -e "$luac" ]; then
  echo "Bail out! $lua or $luac is missing (make deps installs lua5.4)"
  exit 1
fi

bin=$tmp/bin state=$tmp/state
mkdir -p "$bin"
cat >"$bin/dpkg-query" <<'EOF'
#!/bin/sh
# dpkg-query -W -f '${Status}' PKG: installed unless listed in $state/missing
for p; do :; done
if grep -qx "$p" "$STATE/missing" 2>/dev/null; then printf 'deinstall ok config-files'
else printf 'install ok installed'; fi
EOF
cat >"$bin/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >>"$STATE/log"
[ -e "$STATE/apt-fails" ] && exit 100
case " $* " in
  *" install "*)
    for a in lua-interpreter:/usr/bin/lua5.1 lua-compiler:/usr/bin/luac5.1; do
      name=${a%%:*}
      # automatic, or new: the higher priority of lua5.1 wins; manual stays
      if [ ! -e "$STATE/alt.$name" ] || [ "$(cat "$STATE/mode.$name")" = auto ]; then
        echo "${a#*:}" >"$STATE/alt.$name"; echo auto >"$STATE/mode.$name"
      fi
    done
    : >"$STATE/missing" ;;
esac
EOF
cat >"$bin/update-alternatives" <<'EOF'
#!/bin/sh
echo "update-alternatives $*" >>"$STATE/log"
[ "$1" = --quiet ] && shift
case $1 in
  --query) [ -e "$STATE/alt.$2" ] || exit 2
           echo "Name: $2"; echo "Status: $(cat "$STATE/mode.$2")"; echo "Value: $(cat "$STATE/alt.$2")" ;;
  --set)   echo "$3" >"$STATE/alt.$2"; echo manual >"$STATE/mode.$2" ;;
  *)       exit 2 ;;
esac
EOF
printf '#!/bin/sh\nexec "$@"\n' >"$bin/sudo"
chmod +x "$bin"/*

# setup MISSING LUA_VALUE LUA_MODE: a fresh state (LUA_VALUE "none": no
# alternatives at all); the compiler alternative mirrors the interpreter's
setup() {
  rm -rf "$state"; mkdir -p "$state"
  printf '%s\n' $1 >"$state/missing"
  if [ "$2" != none ]; then
    echo "$2" >"$state/alt.lua-interpreter"; echo "$3" >"$state/mode.lua-interpreter"
    echo "$2" | sed 's#/lua#/luac#' >"$state/alt.lua-compiler"; echo "$3" >"$state/mode.lua-compiler"
  fi
}
run_deps() {
  STATE=$state PATH="$bin:$PATH" make -s deps DEBIAN_PACKAGES="lua5.4 lua-check tmux" \
    >"$tmp/out" 2>&1
}
value() { cat "$state/alt.$1" 2>/dev/null || echo none; }
mode() { cat "$state/mode.$1" 2>/dev/null || echo none; }
calls() { if [ -e "$state/log" ]; then grep -c "^$1" "$state/log"; else echo 0; fi; }

echo "1..14"

setup "" "$lua" auto
run_deps; rc=$?
expect "nothing missing: make deps succeeds" 0 "$rc"
expect "nothing missing: apt-get is not run" 0 "$(calls apt-get)"
expect "nothing missing: the alternatives are not touched" 0 "$(calls 'update-alternatives --quiet --set')"

setup "lua-check" "$lua" auto
run_deps; rc=$?
expect "a missing package: make deps succeeds" 0 "$rc"
expect "installs exactly the missing package" "apt-get install -y -qq lua-check" \
  "$(grep 'apt-get install' "$state/log")"
expect "lua: automatic lua5.4 moved by the install is set back" "$lua" "$(value lua-interpreter)"
expect "luac: automatic luac5.4 moved by the install is set back" "$luac" "$(value lua-compiler)"
expect "says what it set back" 2 "$(grep -c 'back to' "$tmp/out")"

setup "lua-check" none
run_deps
expect "no alternative before: lua points at Lua 5.4 afterwards" "$lua" "$(value lua-interpreter)"
expect "no alternative before: luac points at Lua 5.4 afterwards" "$luac" "$(value lua-compiler)"

setup "lua-check" /usr/bin/lua5.1 manual
run_deps
expect "a manual choice (lua5.1) is kept" "/usr/bin/lua5.1" "$(value lua-interpreter)"
expect "a manual choice is not set again" 0 "$(calls 'update-alternatives --quiet --set')"

setup "lua-check" "$lua" auto
touch "$state/apt-fails"
run_deps; rc=$?
expect "a failing apt-get fails make deps" "failed" "$([ "$rc" -ne 0 ] && echo failed || echo "exit $rc")"
expect "a failing apt-get leaves the alternatives alone" "$lua auto" \
  "$(value lua-interpreter) $(mode lua-interpreter)"
