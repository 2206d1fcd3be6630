#!/bin/sh
# tests/program/rules_roundtrip_test.sh - every rule set the program writes as text
# reads back through every entry point to the same rule set (TAP):
#   the text cheskers.rulespec writes for a rule set (what the REPL's `rules`,
#   record [Rules] tags, `rules show` and experiment reports print), given to
#     - the REPL's `rules TEXT`, then printed again by `rules`;
#     - `cheskers match --rules TEXT` (its game record's [Rules] tag);
#     - that record loaded back by the REPL (`load FILE`, then `rules`);
#   each time the rule set compares equal (rulespec.equal) to the original.
# Cases: every value of every built-in option, start, and custom pieces.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh

# The rule sets, as Lua table constructors (one a line).
cat >"$tmp/cases" <<'EOF'
{}
{majority = false}
{capture = "jumps"}
{capture = "all"}
{capture = "optional"}
{promote = "K"}
{promote = "BC"}
{promote = "KC"}
{first = "white"}
{flying_kings = true}
{pawns_capture_backward = true}
{draw_repetition = 3}
{draw_quiet_plies = 40}
{majority = false, capture = "jumps", flying_kings = true, draw_repetition = 2}
{start = "7k/8/8/8/8/8/8/K7 w 0 1"}
{start = "1k6/8/8/8/8/8/8/B1K5 b 5 9", first = "white"}
{pieces = {C = {leaps = {{1, 5}}}}}
{pieces = {B = {rides = {{1, 1}}, capture = "jump", compulsory = true}, C = {leaps = {{1, 3}, {3, 3}}}}}
EOF

# Prints "TEXT" for the Lua table constructor $1 (what the program writes).
text_of() {
  ./cheskers -e "print(require('cheskers.rulespec').format($1))"
}
# Exit 0 when rule text $2 reads back to the rule set $1.
same() {
  ./cheskers -e "local rs = require 'cheskers.rulespec'
    local back, err = rs.parse_text([==[$2]==])
    if not back then io.stderr:write(err, '\n') os.exit(1) end
    os.exit(rs.equal($1, back) and 0 or 1)" 2>&1
}

while IFS= read -r case; do
  text=$(text_of "$case") || { not_ok "$case: rulespec writes it" "$text"; continue; }
  # the REPL: rules TEXT, then rules prints the text again
  out=$(./cheskers -c "rules $text" -c "rules" 2>&1 | sed -n 's/^rules: \([^(]*[^ (]\).*$/\1/p' | tail -n 1)
  if [ "$out" = "$text" ] && same "$case" "$out" >/dev/null; then ok "REPL reads and prints back $text"
  else not_ok "REPL reads and prints back $text" "printed: $out"; fi
  # match --rules TEXT: the record's [Rules] tag
  if ./cheskers match random random --games 1 --max-plies 6 --quiet --rules "$text" \
       --records "$tmp/rec.txt" >"$tmp/match.out" 2>&1; then
    tag=$(sed -n 's/^\[Rules "\(.*\)"\]$/\1/p' "$tmp/rec.txt" | head -n 1 | sed 's/\\"/"/g; s/\\\\/\\/g')
    if [ "$tag" = "$text" ]; then ok "match --rules $text writes the same [Rules] tag"
    else not_ok "match --rules $text writes the same [Rules] tag" "tag: $tag"; fi
    # the record loaded back by the REPL
    back=$(./cheskers -c "load $tmp/rec.txt" -c "rules" 2>&1 | sed -n 's/^rules: \([^(]*[^ (]\).*$/\1/p' | tail -n 1)
    if [ "$back" = "$text" ]; then ok "the record of $text loads back under the same rules"
    else not_ok "the record of $text loads back under the same rules" "rules after load: $back"; fi
  else
    not_ok "match --rules $text runs" "$(cat "$tmp/match.out")"
  fi
done <"$tmp/cases"

echo "1..$n"
[ "$failed" -eq 0 ]
