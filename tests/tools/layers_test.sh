#!/bin/sh
# tests/tools/layers_test.sh - the code of the program is built in layers, each
# using only the layers below it: no call, #include or require goes up or
# sideways, so there is no circle. C: the calls are read from the built
# objects (nm: the symbols each object uses and the object that defines
# them), the includes from the sources. Lua: the require calls of every
# module of lua/cheskers/ and repl/ (a module named by a computed text, as
# the subcommands cheskers.cmd.WORD are, is a plug-in and not counted).
# LAYERS and LUA_LAYERS below are the architecture (README's table;
# core/squares.c and lua/binding/lbind.h describe it): a new file must be placed in
# them. Needs the objects of make (build/). Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh

# One layer a line, lowest first: the core's headers, core/, then the
# binding (lua/binding/), then the program (repl/). Files on one line call none of
# each other.
LAYERS='core/cheskers.h
core/internal.h
core/status core/squares core/suggest
core/rules
core/movegen
core/board
core/result
core/movetext core/perft core/eval
core/tb_index
core/tb_file
core/tb
core/search_internal.h
core/search_tt core/search_tb
core/search core/solve core/tb_build core/tb_walk
lua/binding/lerror
lua/binding/lbind
lua/binding/lhook lua/binding/lopt lua/binding/lstop
lua/binding/lrules lua/binding/lperft lua/binding/lsys lua/binding/lsandbox
lua/binding/lmove
lua/binding/lboard lua/binding/ltb
lua/binding/lsolve lua/binding/lengine
lua/binding/lcheskers
repl/term
repl/main'
# The headers that belong to no file of their own name (X.h belongs to X.c):
# the core's public and internal headers are a layer of their own, under
# every core file; the tablebases' go with tb_index.c, the lowest of their
# files; the engine's context is a layer under the engine's files, its move
# ordering goes with search.c.
HEADERS='core/cheskers.h core/cheskers.h
core/internal.h core/internal.h
core/cheskers_tb.h core/tb_index
core/tb_internal.h core/tb_index
core/search_internal.h core/search_internal.h
core/search_order.h core/search'

echo "$LAYERS" | awk '{ for (i = 1; i <= NF; i++) print $i, NR }' | sort >"$tmp/layer"

objs=$(ls build/core/*.o build/lua/binding/*.o build/repl/*.o 2>/dev/null)
if [ -z "$objs" ]; then
  not_ok "the objects are built (make)"; echo "1..$n"; exit 1
fi

# every object and every source file has a layer
missing=""
for f in $objs core/*.c lua/binding/*.c repl/*.c; do
  name=${f#build/}; name=${name%.o}; name=${name%.c}
  grep -q "^$name " "$tmp/layer" || missing="$missing $f"
done
if [ -z "$missing" ]; then ok "every C file of core/, lua/binding/ and repl/ has a place in LAYERS"
else not_ok "every C file of core/, lua/binding/ and repl/ has a place in LAYERS" "no layer for:$missing"; fi

# calls: "user definer symbol" for each symbol one object uses and another defines
for o in $objs; do
  name=${o#build/}; name=${name%.o}
  nm -g --defined-only "$o" | awk -v f="$name" 'NF == 3 && $2 ~ /^[TDBRCV]$/ { print $3, f }'
done | sort >"$tmp/defs"
for o in $objs; do
  name=${o#build/}; name=${name%.o}
  nm -u "$o" | awk -v f="$name" '{ print $NF, f }'
done | sort >"$tmp/uses"
join "$tmp/uses" "$tmp/defs" | awk '$2 != $3 { print $2, $3, $1 }' | sort -u >"$tmp/calls"
if [ -s "$tmp/calls" ]; then
  ok "the objects call each other ($(wc -l <"$tmp/calls") symbols across files)"
else
  not_ok "the objects call each other" "no call across files found: is nm working?"
fi

# "from to what" edges -> the ones that do not go to a lower layer
upward() { # file of "from to what" lines
  awk 'NR == FNR { layer[$1] = $2; next }
       !($1 in layer) || !($2 in layer) { next }
       layer[$2] >= layer[$1] { print $1 " -> " $2 " (" $3 ")" }' "$tmp/layer" "$1"
}

bad=$(upward "$tmp/calls")
if [ -z "$bad" ]; then ok "every call goes to a lower layer (no circle among the files)"
else not_ok "every call goes to a lower layer (no circle among the files)" "$bad"; fi

# includes: "includer header-owner header" for the project's own headers
echo "$HEADERS" >"$tmp/owners"
for f in core/*.c core/*.h lua/binding/*.c lua/binding/*.h repl/*.c repl/*.h; do
  from=${f%.*}
  case $f in *.h) from=$(awk -v h="$f" '$1 == h { print $2 }' "$tmp/owners"); [ -n "$from" ] || from=${f%.h} ;; esac
  sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do
    dir=${f%/*}
    [ -f "$dir/$h" ] || continue            # lua.h, lauxlib.h ...: not ours
    owner=$(awk -v h="$dir/$h" '$1 == h { print $2 }' "$tmp/owners")
    [ -n "$owner" ] || owner=$dir/${h%.h}
    [ "$owner" = "$from" ] || echo "$from $owner $f:$h"
  done
done >"$tmp/includes"
bad=$(upward "$tmp/includes")
if [ -z "$bad" ]; then ok "every #include names a header of the same or a lower layer"
else not_ok "every #include names a header of the same or a lower layer" "$bad"; fi

# ---- Lua modules ----------------------------------------------------------------
# One layer a line, lowest first: the C modules, then the Lua library
# (cheskers.*: no module of it requires repl.*), its subcommands, then the
# program's REPL and start (repl.*). Modules on one line require none of
# each other.
LUA_LAYERS='cheskers.core cheskers.budget cheskers.readline cheskers.escape
cheskers.files
cheskers.luadata cheskers.stats cheskers.meta.cheskers
cheskers
cheskers.schema cheskers.movetext cheskers.chart cheskers.tbmoves
cheskers.numbers
cheskers.sandbox cheskers.svg cheskers.measures
cheskers.rulespec
cheskers.store.json cheskers.store.lock cheskers.store.fingerprint
cheskers.store.file
cheskers.bots cheskers.puzzle cheskers.store
cheskers.record cheskers.game cheskers.experiment cheskers.tables cheskers.book
cheskers.selfplay cheskers.report cheskers.rulearg cheskers.mine cheskers.webapi
cheskers.match cheskers.report_html cheskers.worker
cheskers.tournament cheskers.tune cheskers.server
cheskers.fitted
cheskers.design
cheskers.design_report
cheskers.cli
cheskers.cmd.book cheskers.cmd.check cheskers.cmd.design cheskers.cmd.experiment cheskers.cmd.help cheskers.cmd.match cheskers.cmd.mine cheskers.cmd.report cheskers.cmd.rules cheskers.cmd.serve cheskers.cmd.tb cheskers.cmd.tournament cheskers.cmd.tune
repl.registry
repl.draw repl.complete
repl.commands.engine repl.commands.files repl.commands.game repl.commands.help repl.commands.puzzle repl.commands.tb
repl.session
repl.start'
echo "$LUA_LAYERS" | awk '{ for (i = 1; i <= NF; i++) print $i, NR }' | sort >"$tmp/lualayer"

# the module a file is: lua/cheskers/x/y.lua -> cheskers.x.y, lua/cheskers/init.lua
# -> cheskers, repl/commands/game.lua -> repl.commands.game
module_of() {
  m=${1#lua/}; m=${m#repl/cheskers/}; m=${m%.lua}; m=${m%/init}
  case $1 in repl/cheskers/*) m=cheskers/$m ;; esac
  echo "$m" | tr / .
}

luafiles=$(find lua/cheskers repl -name '*.lua' | sort)
missing=""
for f in $luafiles; do
  grep -q "^$(module_of "$f") " "$tmp/lualayer" || missing="$missing $f"
done
if [ -z "$missing" ]; then ok "every Lua module of lua/cheskers/ and repl/ has a place in LUA_LAYERS"
else not_ok "every Lua module of lua/cheskers/ and repl/ has a place in LUA_LAYERS" "no layer for:$missing"; fi

# "from to file" for each require of a constant name (lines that are only a
# comment skipped; require "x", require 'x', require("x") ...)
for f in $luafiles; do
  m=$(module_of "$f")
  grep -v '^[[:space:]]*--' "$f" \
    | grep -oE "require[[:space:]]*\(?[[:space:]]*[\"'][A-Za-z0-9_.]+[\"'][[:space:]]*(\.\.)?" \
    | grep -v '\.\.$' | sed -E "s/.*[\"']([^\"']+)[\"'].*/\1/" | sort -u \
    | while read -r to; do echo "$m $to $f"; done
done >"$tmp/requires"
if [ -s "$tmp/requires" ]; then
  ok "the Lua modules require each other ($(wc -l <"$tmp/requires") requires)"
else
  not_ok "the Lua modules require each other" "no require found"
fi

unknown=$(awk 'NR == FNR { layer[$1] = 1; next }
               ($2 ~ /^cheskers(\.|$)/ || $2 ~ /^repl\./) && !($2 in layer) { print $3 ": " $2 }' \
          "$tmp/lualayer" "$tmp/requires")
if [ -z "$unknown" ]; then ok "every module of the project a Lua file requires has a place in LUA_LAYERS"
else not_ok "every module of the project a Lua file requires has a place in LUA_LAYERS" "$unknown"; fi

bad=$(awk 'NR == FNR { layer[$1] = $2; next }
           !($1 in layer) || !($2 in layer) { next }
           layer[$2] >= layer[$1] { print $1 " -> " $2 " (" $3 ")" }' "$tmp/lualayer" "$tmp/requires")
if [ -z "$bad" ]; then ok "every require goes to a lower layer (no circle among the Lua modules)"
else not_ok "every require goes to a lower layer (no circle among the Lua modules)" "$bad"; fi

# A module named by a computed text (require(name), require("x." .. y)) is
# counted too: each such require of the Lua files is a plug-in point listed
# here with the modules it may load ("file prefix": every module whose name
# starts with prefix; these go up by design: the subcommand table loads the
# subcommands, the module "cheskers" loads its lazy fields); any other is
# refused, so that no require escapes the layer check.
PLUGINS='repl/cheskers/cli.lua cheskers.cmd.
lua/cheskers/init.lua cheskers.puzzle
lua/cheskers/init.lua cheskers.svg'
computed=""
for f in $luafiles; do
  k=$(grep -v '^[[:space:]]*--' "$f" \
      | grep -cE "require[[:space:]]*\(?[[:space:]]*[\"'][A-Za-z0-9_.]+[\"'][[:space:]]*\.\.|require[[:space:]]*\([[:space:]]*[A-Za-z_][A-Za-z0-9_.]*[[:space:]]*[),]|pcall\(require,")
  [ "$k" -gt 0 ] || continue
  echo "$PLUGINS" | grep -q "^$f " || computed="$computed $f ($k)"
done
if [ -z "$computed" ]; then ok "every computed require is a declared plug-in point (PLUGINS)"
else not_ok "every computed require is a declared plug-in point (PLUGINS)" "undeclared:$computed"; fi
# the modules of each plug-in point exist, and the lazy fields of "cheskers" are the ones declared
bad=""
echo "$PLUGINS" | while read -r f prefix; do
  grep -q "^$prefix" "$tmp/lualayer" || echo "$f: no module $prefix*"
done >"$tmp/plugbad"
lazy=$(sed -n 's/^local lazy = {\(.*\)}.*/\1/p' lua/cheskers/init.lua | grep -oE '"[^"]+"' | tr -d '"' | sort | tr '\n' ' ')
declared=$(echo "$PLUGINS" | awk '$1 == "lua/cheskers/init.lua" { print $2 }' | sort | tr '\n' ' ')
[ "$lazy" = "$declared" ] || echo "lua/cheskers/init.lua: lazy modules '$lazy', declared '$declared'" >>"$tmp/plugbad"
if [ ! -s "$tmp/plugbad" ]; then ok "the plug-in points load the modules declared"
else not_ok "the plug-in points load the modules declared" "$(cat "$tmp/plugbad")"; fi

# No argparse under the library: the command line is read by the program
# (repl/cheskers/cli.lua, the subcommands repl/cheskers/cmd/, repl/); the
# library's functions take plain tables.
bad=$(find lua/cheskers -name '*.lua' \
      -exec grep -nHE "argparse|:option\(|:flag\(|:argument\(|:convert\(" {} + \
      | grep -vE '^[^:]+:[0-9]+:[[:space:]]*--')
if [ -z "$bad" ]; then ok "no argparse in the library (only cli.lua and cmd/ declare options)"
else not_ok "no argparse in the library (only cli.lua and cmd/ declare options)" "$bad"; fi

# One owner of progress lines: cheskers.cli.progress (a line rewritten on a
# terminal, a line each elsewhere, never "\r" in a log file). No other file
# of lua/cheskers/ writes "\r" (escape.lua names it, record.lua reads CRLF
# records, server.lua writes HTTP's CRLF; the REPL's own status lines are repl/'s).
bad=$(grep -rn '\\r' lua/cheskers repl/cheskers --include='*.lua' \
      | grep -vE '^(repl/cheskers/cli|lua/cheskers/(escape|record|server))\.lua:' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*--')
if [ -z "$bad" ]; then ok "progress lines have one owner (cli.progress): no other \\\\r under lua/cheskers/"
else not_ok "progress lines have one owner (cli.progress): no other \\\\r under lua/cheskers/" "$bad"; fi

# One dirname: cheskers.files.dirname; no other file cuts a path at its last "/".
bad=$(grep -rnE "match\(\"\^\(\.\*\)/|match\('\^\(\.\*\)/|function[[:space:]]+[A-Za-z_.:]*dirname" lua/cheskers repl \
      --include='*.lua' | grep -v '^lua/cheskers/files\.lua:')
if [ -z "$bad" ]; then ok "paths have one dirname (cheskers.files.dirname)"
else not_ok "paths have one dirname (cheskers.files.dirname)" "$bad"; fi

# One helper makes the Lua library's errors: cheskers.errorf (a message) and
# cheskers.raise (an error value with a code), lua/cheskers/init.lua; no module
# keeps its own copy of errorf.
bad=$(grep -rnE "function[[:space:]]+errorf|function[[:space:]]+[A-Za-z_.]*raise\(" lua/cheskers repl --include='*.lua' \
      | grep -vE '^lua/cheskers/(init|meta/cheskers)\.lua:')
bad="$bad$(find lua/cheskers -name '*.lua' \
      ! -path lua/cheskers/init.lua -exec grep -nHE 'error\((string\.format\(|\(["'"'"'])' {} +)"
if [ -z "$bad" ]; then ok "the library's errors have one maker (cheskers.errorf, cheskers.raise)"
else not_ok "the library's errors have one maker (cheskers.errorf, cheskers.raise)" "$bad"; fi

# the library (lua/cheskers/) requires nothing of the program (repl/: repl.*,
# cheskers.cli, cheskers.cmd.WORD)
program=$(find repl -name '*.lua' | while read -r f; do module_of "$f"; done | sort -u)
lib_repl=$(echo "$program" | awk 'NR == FNR { prog[$1] = 1; next }
  $3 ~ /^lua\/cheskers\// && ($2 in prog || $2 ~ /^repl\./ || $2 ~ /^cheskers\.cmd\./) { print $3 ": " $2 }' \
  - "$tmp/requires")
if [ -z "$lib_repl" ]; then ok "no module of lua/cheskers/ requires the program (repl/)"
else not_ok "no module of lua/cheskers/ requires the program (repl/)" "$lib_repl"; fi

# ---- folders -------------------------------------------------------------------
# The binding, the library and the program each in a folder of their own:
# C files of the binding only in lua/binding/, no program module (cheskers.cli,
# cheskers.cmd.WORD) under lua/; every test suite in the folder of what it
# tests (docs/reference/testing.md), the shared helpers at tests/.
stray=$(ls lua/*.c lua/*.h 2>/dev/null; find lua \( -path '*/cheskers/cli.lua' -o -path '*/cheskers/cmd/*.lua' \))
if [ -z "$stray" ]; then ok "the binding is in lua/binding/, the program's Lua in repl/"
else not_ok "the binding is in lua/binding/, the program's Lua in repl/" \
  "move the binding's C files to lua/binding/, cheskers.cli and cheskers.cmd.WORD to repl/cheskers/:" "$stray"; fi
stray=$(find tests \( -name '*_spec.lua' -o -name '*_test.sh' -o -name '*_check.c' -o -name '*_check.sh' \) -type f |
  grep -Ev '^tests/(core|binding|library|program|tools)/[^/]+$')
if [ -z "$stray" ]; then ok "every test suite is in tests/core, binding, library, program or tools"
else not_ok "every test suite is in tests/core, binding, library, program or tools" \
  "put each in the folder of what it tests (docs/reference/testing.md):" "$stray"; fi

echo "1..$n"
[ "$failed" -eq 0 ]
