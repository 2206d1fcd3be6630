#!/bin/sh
# tests/binding/errcodes_test.sh - the binding's one table of error codes (the enum
# lb_code and its names, lua/binding/lerror.h and lua/binding/lerror.c) against the table of
# docs/reference/lua_api.md ("## Errors"): the same codes both ways, in the same
# order; and no binding file but lerror.c writes an error value's code.
# Prints TAP. Run from the repository root.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh

# the C table, as the binding has it
# shellcheck disable=SC2046 # pkg-config prints several words
if ! ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L $(pkg-config --cflags lua5.4) -Ilua/binding \
     tests/binding/errcodes_check.c lua/binding/lerror.c $(pkg-config --libs lua5.4) -o "$tmp/errcodes" \
     2>"$tmp/cc.err"; then
  not_ok "tests/binding/errcodes_check.c builds" "$(cat "$tmp/cc.err")"
  echo "1..$n"; exit 1
fi
if "$tmp/errcodes" >"$tmp/c"; then
  ok "every code of lb_code has a name (lb_code_name), and none outside the enum"
else
  not_ok "every code of lb_code has a name (lb_code_name), and none outside the enum" "$(cat "$tmp/c")"
fi

# the documented table: the first column of the rows under "| code | meaning |"
awk '/^\| code \| meaning \|$/ { on = 1; next }
     on && /^\| ---/ { next }
     on && /^\|/ { split($0, f, "|"); c = f[2]; gsub(/[ `]/, "", c); print c; next }
     on { exit }' docs/reference/lua_api.md >"$tmp/doc"

if [ -s "$tmp/doc" ] && [ "$(wc -l <"$tmp/doc")" -ge 2 ]; then
  ok "docs/reference/lua_api.md has the table of error codes ($(wc -l <"$tmp/doc") rows)"
else
  not_ok "docs/reference/lua_api.md has the table of error codes" "no rows found under '| code | meaning |'"
fi

while read -r code; do
  if grep -qx "$code" "$tmp/doc"; then ok "code $code (lua/binding/lerror.c) is documented"
  else not_ok "code $code (lua/binding/lerror.c) is documented" "docs/reference/lua_api.md's error table has no row \`$code\`"; fi
done <"$tmp/c"
while read -r code; do
  if grep -qx "$code" "$tmp/c"; then ok "documented code $code is in lua/binding/lerror.c's table"
  else not_ok "documented code $code is in lua/binding/lerror.c's table" "lb_code has no code named $code"; fi
done <"$tmp/doc"
if cmp -s "$tmp/c" "$tmp/doc"; then
  ok "the two tables list the codes in the same order"
else
  not_ok "the two tables list the codes in the same order" "lerror.c: $(tr '\n' ' ' <"$tmp/c")" \
    "docs: $(tr '\n' ' ' <"$tmp/doc")"
fi

# Only lerror.c sets the field code of an error value: every other file
# names a code by its enum value (lb_error, lb_push_error).
sites=$(grep -n '"code"' lua/binding/*.c repl/*.c | grep -v '^lua/binding/lerror\.c:')
if [ -z "$sites" ]; then ok "no binding file but lua/binding/lerror.c writes the field code"
else not_ok "no binding file but lua/binding/lerror.c writes the field code" "$sites"; fi

echo "1..$n"
[ "$failed" -eq 0 ]
