#!/bin/sh
# tests/tools/install_test.sh - make install into a temporary DESTDIR (TAP): the
# files land where PREFIX says, the stock lua5.4 finds the installed module
# and its Lua submodules (LUA_CPATH/LUA_PATH pointing into DESTDIR), the
# installed program runs (version, help, -e, a subcommand) and serves the
# board's page (cheskers serve), the man page is there, and make uninstall
# removes it all again. Run from the repository
# root after make (make install-test); uses the built ./cheskers and
# ./cheskers.so. CHESKERS_SKIP_INSTALL_TEST=1 skips it (the sanitizer and
# valgrind runs set it: make install-test runs it on its own).
set -u
cd "$(dirname "$0")/../.." || exit 2
if [ "${CHESKERS_SKIP_INSTALL_TEST:-0}" = 1 ]; then
  echo "1..0 # SKIP install test (CHESKERS_SKIP_INSTALL_TEST=1)"
  exit 0
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh

# the luarocks check runs only under make install-test (CHESKERS_INSTALL_STRICT=1)
if [ "${CHESKERS_INSTALL_STRICT:-0}" = 1 ]; then echo "1..18"; else echo "1..16"; fi
if [ ! -x ./cheskers ] || [ ! -f ./cheskers.so ]; then
  echo "Bail out! ./cheskers and ./cheskers.so are not built (run make)"
  exit 1
fi

dest=$tmp/dest
prefix=/opt/cheskers-test
root=$dest$prefix
# the folders come from the Makefile (one owner): BINDIR CMODDIR LUADIR MANDIR
dirs=$(make -s print-dirs PREFIX="$prefix") || { echo "Bail out! make print-dirs failed"; exit 1; }
eval "$dirs"
cmod=$dest$CMODDIR
lmod=$dest$LUADIR
case $CMODDIR in
  "$prefix"/lib/*lua/5.4) ;;
  *) echo "Bail out! CMODDIR=$CMODDIR is not under PREFIX/lib"; exit 1 ;;
esac
# make's own output (and any rebuild) goes to a log, not into TAP
if make -s install DESTDIR="$dest" PREFIX="$prefix" >"$tmp/install.out" 2>&1; then
  ok "make install DESTDIR=... PREFIX=$prefix"
else
  not_ok "make install DESTDIR=... PREFIX=$prefix" "$(tail -n 20 "$tmp/install.out")"
  echo "Bail out! make install failed"
  exit 1
fi

succeeds "installs the program into PREFIX/bin" test -x "$root/bin/cheskers"
succeeds "installs the module into PREFIX/lib/<multiarch>/lua/5.4" test -f "$cmod/cheskers.so"
succeeds "installs the Lua submodules into PREFIX/share/lua/5.4/cheskers" \
  test -f "$lmod/cheskers/record.lua"
succeeds "installs the man page into PREFIX/share/man/man1" test -f "$root/share/man/man1/cheskers.1"
succeeds "installs nothing outside DESTDIR" test -z "$(find "$dest" -mindepth 1 -maxdepth 1 ! -name opt)"

# ";;" keeps the default paths (Debian's lua-argparse, lua-cjson)
LUA_CPATH="$cmod/?.so;;" LUA_PATH="$lmod/?.lua;$lmod/?/init.lua;;"
export LUA_CPATH LUA_PATH
run_lua() {
  # from an empty folder, so that nothing of the source tree is found
  (cd "$tmp" && lua5.4 -e "$1")
}
succeeds "the installed lua5.4 loads the installed module and plays a move" run_lua '
  local c = require "cheskers"
  assert(package.searchpath("cheskers", package.cpath):find("'"$dest"'", 1, true))
  local b = c.new(); b:play("b6-a5"); assert(b:perft(2) > 0)'
succeeds "the installed lua5.4 loads the installed Lua submodules" run_lua '
  local record = require "cheskers.record"
  assert(package.searchpath("cheskers.record", package.path):find("'"$dest"'", 1, true))
  local b = assert(record.read("1. b6-a5 c3-b4 *")); assert(#b:history() == 2)'

version=$(cd "$tmp" && "$root/bin/cheskers" --version 2>&1)
case $version in
  *[0-9].[0-9]*) ok "the installed program prints its version ($version)" ;;
  *) not_ok "the installed program prints its version" "$version" ;;
esac
succeeds "the installed program runs Lua (-e)" sh -c "cd '$tmp' && '$root/bin/cheskers' -e 'local c = require \"cheskers\" assert(c.new():perft(3) == 652)'"
succeeds "the installed program runs a subcommand (rules diff)" sh -c "cd '$tmp' && '$root/bin/cheskers' rules diff golomb 'majority=false' >/dev/null"

# serves_page DESCRIPTION WEBDIR COMMAND...: COMMAND (run in the background
# from $tmp) prints the address of a server with its token; the page's three
# files come back from it as they are in the source tree, except board.css,
# which gets a marker in WEBDIR first: the page comes from the installed
# files, not from the source tree
serves_page() {
  _d=$1 _web=$2; shift 2
  printf '/* installed copy */\n' >>"$_web/board.css"
  (cd "$tmp" && exec "$@") >"$tmp/serve.out" 2>&1 &
  _pid=$! _i=0 _url=
  while [ $_i -lt 600 ] && kill -0 $_pid 2>/dev/null; do   # up to a minute
    _url=$(grep -o 'http://[^ ]*token=[0-9a-f]*' "$tmp/serve.out" | head -n 1)
    [ -n "$_url" ] && break
    sleep 0.1; _i=$((_i + 1))
  done
  _why=
  if [ -z "$_url" ]; then _why="no address: $(head -c 2000 "$tmp/serve.out")"
  else
    for _f in board.html board.js board.css; do
      _path=/$_f; [ $_f = board.html ] && _path=/
      curl -s -o "$tmp/got.$_f" -H "X-Cheskers-Token: ${_url#*token=}" "${_url%/?token=*}$_path"
    done
    cmp -s "$tmp/got.board.html" lua/cheskers/web/board.html || _why="$_why / is not board.html;"
    cmp -s "$tmp/got.board.js" lua/cheskers/web/board.js || _why="$_why /board.js is not board.js;"
    grep -q 'installed copy' "$tmp/got.board.css" || _why="$_why /board.css is not the installed one;"
  fi
  kill $_pid 2>/dev/null; wait $_pid 2>/dev/null
  if [ -z "$_why" ]; then ok "$_d"; else not_ok "$_d" "$_why" "$(head -c 1000 "$tmp/serve.out")"; fi
}
serves_page "the installed program serves the board's page (cheskers serve)" "$lmod/cheskers/web" \
  "$root/bin/cheskers" serve --port 0

# the stock bots (scripts/bots/, installed to PREFIX/share/cheskers/bots)
# are found by the installed program
succeeds "the installed program finds the stock bots (match random greedy)" \
  sh -c "cd '$tmp' && '$root/bin/cheskers' match random greedy --games 2 --quiet >/dev/null"

# the rockspec names every source file of the library (core/, lua/: the
# program's repl/ is the Makefile's; the page's files lua/cheskers/web/*), and (make install-test,
# luarocks installed) builds a module the stock lua5.4 loads (its Lua
# dependencies come from Debian's packages: --deps-mode=none, no download)
spec=$(ls cheskers-*.rockspec 2>/dev/null | head -n 1)
drift=$(lua5.4 - "$spec" <<'LUA' 2>&1
local spec = assert(arg[1], "no rockspec")
local env = {}
assert(loadfile(spec, "t", env))()
local listed, missing = {}, {}
local mod = env.build.modules
for _, src in ipairs(mod["cheskers.core"].sources) do listed[src] = true end
for name, path in pairs(mod) do if type(path) == "string" then listed[path] = name end end
local p = io.popen("ls core/*.c lua/binding/*.c lua/cheskers/*.lua lua/cheskers/*/*.lua 2>/dev/null")
for f in p:lines() do
  if not listed[f] then missing[#missing + 1] = f end
  local want = f:match("^lua/(cheskers/.*)%.lua$")
  want = want and want:gsub("/init$", "")
  if want and listed[f] ~= true and listed[f] and listed[f] ~= want:gsub("/", ".") then
    missing[#missing + 1] = f .. " (as " .. listed[f] .. ")"
  end
  listed[f] = nil
end
p:close()
-- the page's files: build.install.lua, each under cheskers/web/ (a key
-- "cheskers.web.X"; the file keeps its name)
local page = {}
for key, path in pairs(env.build.install and env.build.install.lua or {}) do
  if key:match("^cheskers%.web%.[^.]+$") then page[path] = true
  else missing[#missing + 1] = path .. " (as " .. key .. ": not cheskers.web.X)" end
end
p = io.popen("ls lua/cheskers/web/* 2>/dev/null")
for f in p:lines() do
  if not page[f] then missing[#missing + 1] = f .. " (not in build.install.lua)" end
  page[f] = nil
end
p:close()
for f in pairs(page) do missing[#missing + 1] = f .. " (listed, not in the tree)" end
for f in pairs(listed) do missing[#missing + 1] = f .. " (listed, not in the tree)" end
table.sort(missing)
io.write(table.concat(missing, " "))
LUA
)
if [ -n "$spec" ] && [ -z "$drift" ]; then ok "$spec names every source file"
else not_ok "the rockspec names every source file" "${spec:-no rockspec}: $drift"; fi
# luarocks (make install-test, after make deps-check installed it; make test
# leaves this check to the release gate)
if [ "${CHESKERS_INSTALL_STRICT:-0}" != 1 ]; then
  :
elif ! command -v luarocks >/dev/null 2>&1; then
  not_ok "luarocks make --local builds a module lua5.4 loads" "luarocks is not installed (make deps-check)"
else
  mkdir -p "$tmp/rock/src" "$tmp/rock/home"
  tar cf - --exclude=./.git --exclude=./build --exclude=./tests/fuzz --exclude='*.o' \
    --exclude=./cheskers.so --exclude=./cheskers . | (cd "$tmp/rock/src" && tar xf -)
  if (cd "$tmp/rock/src" && HOME="$tmp/rock/home" luarocks --lua-version 5.4 make --local --deps-mode=none "$spec") \
       >"$tmp/rock.out" 2>&1 &&
     (cd "$tmp" && LUA_CPATH="$tmp/rock/home/.luarocks/lib/lua/5.4/?.so" \
       LUA_PATH="$tmp/rock/home/.luarocks/share/lua/5.4/?.lua;$tmp/rock/home/.luarocks/share/lua/5.4/?/init.lua;;" lua5.4 -e '
         local c = require "cheskers"
         assert(c.new():perft(3) == 652)
         assert(require("cheskers.record").read("1. b6-a5 *"))') >>"$tmp/rock.out" 2>&1; then
    ok "luarocks make --local builds a module lua5.4 loads"
  else
    not_ok "luarocks make --local builds a module lua5.4 loads" "$(tail -n 15 "$tmp/rock.out")"
  fi
  # the rock has no program: a server of its modules, started by lua5.4
  rock=$tmp/rock/home/.luarocks
  cat >"$tmp/rock/serve.lua" <<'LUA'
local server = require "cheskers.server"
assert(server.load_http())
assert(server.web_dir():find("/.luarocks/", 1, true), server.web_dir())
local srv = server.new { api = require("cheskers.webapi").new {}, port = 0 }
io.stdout:write("Open ", assert(srv:listen()), "\n")
io.stdout:flush()
srv:loop()
LUA
  serves_page "the module luarocks installed serves the board's page" "$rock/share/lua/5.4/cheskers/web" \
    env LUA_CPATH="$rock/lib/lua/5.4/?.so;;" \
    LUA_PATH="$rock/share/lua/5.4/?.lua;$rock/share/lua/5.4/?/init.lua;;" lua5.4 "$tmp/rock/serve.lua"
fi

# the program copied away from its source tree, not installed: one line
# saying where it looked and what to do, no Lua traceback
mkdir -p "$tmp/away"
cp ./cheskers "$tmp/away/cheskers"
out=$(cd "$tmp/away" && ./cheskers -e 'print(1)' 2>&1); rc=$?
eval "$(make -s print-dirs)"
if [ -f "$LUADIR/cheskers/repl/start.lua" ]; then
  # this machine has an installation where the program looks: the copy uses it
  if [ $rc -eq 0 ] && [ "$out" = 1 ]; then ok "a copy of the program finds the installed Lua library"
  else not_ok "a copy of the program finds the installed Lua library" "status $rc: $out"; fi
elif [ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
   printf '%s' "$out" | grep -q "its Lua library is not here.*make install"; then
  ok "a copy of the program without its Lua library says so in one line"
else
  not_ok "a copy of the program without its Lua library says so in one line" "status $rc: $out"
fi

make -s uninstall DESTDIR="$dest" PREFIX="$prefix" >"$tmp/un.out" 2>&1
left=$(find "$dest" -type f ! -path '*/share/man/*' | head -n 5)
if [ -z "$left" ]; then ok "make uninstall removes the installed files"
else not_ok "make uninstall removes the installed files" "left: $left"; fi
