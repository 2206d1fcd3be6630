#!/bin/sh
# tests/layers_test.sh - the C code of the program is built in layers, each
# calling and including only the layers below it: no call or #include goes
# up or sideways, so there is no circle. The calls are read from the built
# objects (nm: the symbols each object uses and the object that defines
# them), the includes from the sources. LAYERS below is the architecture
# (README's table; core/squares.c and lua/lbind.h describe it): a new file
# must be placed in it. Needs the objects of make (build/). Prints TAP.
set -u
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh

# One layer a line, lowest first: the core's headers, core/, then the
# binding (lua/), then the program (repl/). Files on one line call none of
# each other.
LAYERS='core/cheskers.h
core/internal.h
core/status core/squares core/suggest
core/rules
core/movegen
core/board
core/result
core/movetext core/perft core/eval
core/tb
core/search core/solve core/tb_build
lua/lerror
lua/lbind
lua/lrules lua/lperft lua/lsys lua/lsandbox
lua/lmove
lua/lboard lua/ltb
lua/lsolve lua/lengine
lua/lcheskers
repl/term
repl/main'
# The headers that belong to no file of their own name (X.h belongs to X.c):
# the core's public and internal headers are a layer of their own, under
# every core file; the tablebases' go with tb.c.
HEADERS='core/cheskers.h core/cheskers.h
core/internal.h core/internal.h
core/cheskers_tb.h core/tb
core/tb_internal.h core/tb'

echo "$LAYERS" | awk '{ for (i = 1; i <= NF; i++) print $i, NR }' | sort >"$tmp/layer"

objs=$(ls build/core/*.o build/lua/*.o build/repl/*.o 2>/dev/null)
if [ -z "$objs" ]; then
  not_ok "the objects are built (make)"; echo "1..$n"; exit 1
fi

# every object and every source file has a layer
missing=""
for f in $objs core/*.c lua/*.c repl/*.c; do
  name=${f#build/}; name=${name%.o}; name=${name%.c}
  grep -q "^$name " "$tmp/layer" || missing="$missing $f"
done
if [ -z "$missing" ]; then ok "every C file of core/, lua/ and repl/ has a place in LAYERS"
else not_ok "every C file of core/, lua/ and repl/ has a place in LAYERS" "no layer for:$missing"; fi

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
for f in core/*.c core/*.h lua/*.c lua/*.h repl/*.c repl/*.h; do
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

echo "1..$n"
[ "$failed" -eq 0 ]
