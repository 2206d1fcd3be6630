#!/bin/sh
# tests/program/experiment_test.sh - the experiment commands end to end, as a user
# runs them (TAP): shards run with GNU parallel and merged give exactly the
# report of one unsplit run; a run cut off mid-line resumes to the same
# results; `cheskers rules diff` finds the moves and counts that differ.
# Run from the repository root after make (CHESKERS overrides ./cheskers).
set -u
cd "$(dirname "$0")/../.." || exit 2
CHESKERS=${CHESKERS:-./cheskers}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh

echo "1..23"

if [ ! -x "$CHESKERS" ]; then
  echo "Bail out! $CHESKERS is not built (run make)"
  exit 1
fi

# A small experiment: fast bots (a bot file of scripts/bots against the
# built-in greedy player), short games, and variants with a redefined
# camel, a filter hook and a result hook, which must behave the same in
# every process.
EXP=$tmp/small.lua
GAMES=4
cat >"$EXP" <<'EOF'
return {
  name = "small",
  seed = 3,
  max_plies = 80,
  bots = { white = "random", black = "builtin-greedy" },
  variants = {
    { name = "golomb" },
    { name = "camel-1-5", rules = { pieces = { C = { leaps = { { 1, 5 } } } } } },
    { name = "hooks", rules = {
        filter = function(_, m) return m.piece ~= "B" end,
        result = function(b) if b:get("d4") == "C" then return "white", "camel_d4" end end } },
  },
}
EOF

# ---- GNU parallel: 2 shards merged == 1 unsplit run --------------------------
if command -v parallel >/dev/null 2>&1; then
  parallel --will-cite -j 2 "$CHESKERS" experiment "$EXP" --games $GAMES --shard {}/2 \
    --out "$tmp/split" --quiet ::: 1 2 2>"$tmp/par.err"
  rc=$?
  if [ $rc -eq 0 ]; then ok "parallel -j 2 runs shards 1/2 and 2/2"
  else not_ok "parallel -j 2 runs shards 1/2 and 2/2 (status $rc)" "$(cat "$tmp/par.err")"; fi
else
  not_ok "GNU parallel is installed (make deps)"
fi
succeeds "one unsplit run" "$CHESKERS" experiment "$EXP" --games $GAMES --out "$tmp/whole" --quiet
"$CHESKERS" report "$tmp/split" >"$tmp/split.txt" 2>"$tmp/split.err"
"$CHESKERS" report "$tmp/whole" >"$tmp/whole.txt" 2>"$tmp/whole.err"
if [ -s "$tmp/whole.txt" ] && cmp -s "$tmp/split.txt" "$tmp/whole.txt"; then
  ok "the merged shards give exactly the report of the unsplit run"
else
  not_ok "the merged shards give exactly the report of the unsplit run" \
    "$(diff "$tmp/split.txt" "$tmp/whole.txt" | head -20)" "$(cat "$tmp/split.err" "$tmp/whole.err")"
fi
if [ -s "$tmp/whole/report.svg" ] && cmp -s "$tmp/split/report.svg" "$tmp/whole/report.svg"; then
  ok "and the same SVG chart"
else
  not_ok "and the same SVG chart"
fi
# 3 variants x GAMES games, one line each
lines=$(cat "$tmp"/split/*.jsonl | grep -vc '^{"header"')
if [ "$lines" -eq $((3 * GAMES)) ]; then ok "one JSON line per game ($lines)"
else not_ok "one JSON line per game" "found $lines lines, expected $((3 * GAMES))"; fi
if grep -q '^experiment small: 3 variants, 12 games' "$tmp/whole.txt" \
   && grep -q '^camel-1-5 ' "$tmp/whole.txt"; then
  ok "the report names the experiment, its variants and game count"
else
  not_ok "the report names the experiment, its variants and game count" "$(head -5 "$tmp/whole.txt")"
fi
svg="$tmp/whole/report.svg"
if head -c 200 "$svg" | grep -q '<svg ' && tail -n 1 "$svg" | grep -q '</svg>'; then
  ok "the SVG chart is a whole SVG document"
else
  not_ok "the SVG chart is a whole SVG document"
fi

# the shipped bots too: the engine bot of a shipped experiment plays the
# same games whatever shard (and so whatever games before) it plays them in
E2=scripts/experiments/majority.lua
"$CHESKERS" experiment $E2 --games 3 --out "$tmp/eng1" --quiet 2>"$tmp/eng.err"
for i in 3 1 2; do "$CHESKERS" experiment $E2 --games 3 --shard $i/3 --out "$tmp/eng3" --quiet 2>>"$tmp/eng.err"; done
# the game lines (the headers differ: they name the shard)
grep -hv '^{"header"' "$tmp"/eng1/*.jsonl | sort >"$tmp/eng1.s" 2>/dev/null
grep -hv '^{"header"' "$tmp"/eng3/*.jsonl | sort >"$tmp/eng3.s" 2>/dev/null
if [ -s "$tmp/eng1.s" ] && cmp -s "$tmp/eng1.s" "$tmp/eng3.s"; then
  ok "a shipped experiment's bots give the same games in 3 shards as in one run"
else
  not_ok "a shipped experiment's bots give the same games in 3 shards as in one run" \
    "$(cat "$tmp/eng.err")" "$(diff "$tmp/eng1.s" "$tmp/eng3.s" | head -4)"
fi

# ---- resuming after an interruption ---------------------------------------------
"$CHESKERS" experiment "$EXP" --games $GAMES --out "$tmp/cut" --quiet
f=$(ls "$tmp"/cut/*.jsonl)
# keep the header, 5 whole game lines and a torn 6th, as a kill in the
# middle of a write would leave
head -n 6 "$f" >"$tmp/head"
sed -n 7p "$f" | head -c 40 >>"$tmp/head"
cp "$tmp/head" "$f"
"$CHESKERS" experiment "$EXP" --games $GAMES --out "$tmp/cut" 2>"$tmp/resume.err"
"$CHESKERS" report "$tmp/cut" --no-svg >"$tmp/cut.txt" 2>/dev/null
if cmp -s "$tmp/cut.txt" "$tmp/whole.txt"; then ok "a resumed run gives the same results"
else not_ok "a resumed run gives the same results" "$(diff "$tmp/cut.txt" "$tmp/whole.txt" | head)"; fi
if grep -q "7 played, 5 already done" "$tmp/resume.err"; then ok "it plays only the missing games"
else not_ok "it plays only the missing games" "$(cat "$tmp/resume.err")"; fi

# ---- a report with games missing says so -------------------------------------------
# one shard of two: 3 variants x 4 games = 12 planned, shard 1/2 plays the
# odd-numbered 6 of them
"$CHESKERS" experiment "$EXP" --games $GAMES --shard 1/2 --out "$tmp/half" --quiet
"$CHESKERS" report "$tmp/half" --no-svg >/dev/null 2>"$tmp/half.err"
if grep -qx "cheskers report: small (seed 3): found 6 of 12 games; shards short: shard 2/2 (no file)" "$tmp/half.err"
then ok "report names the shard that was not run"
else not_ok "report names the shard that was not run" "$(cat "$tmp/half.err")"; fi
# shard 1/2 cut to its header and 4 games (as if it had been stopped)
f="$tmp/half/small.seed3.shard1of2.jsonl"
head -n 5 "$f" >"$tmp/cut4" && cp "$tmp/cut4" "$f"
"$CHESKERS" experiment "$EXP" --games $GAMES --shard 2/2 --out "$tmp/half" --quiet
"$CHESKERS" report "$tmp/half" --no-svg >/dev/null 2>"$tmp/half.err"
if grep -qx "cheskers report: small (seed 3): found 10 of 12 games; shards short: small.seed3.shard1of2.jsonl (4 of 6)" "$tmp/half.err"
then ok "report names the shard that is short, with its count"
else not_ok "report names the shard that is short, with its count" "$(cat "$tmp/half.err")"; fi

# ---- a changed experiment is refused, naming what differs ----------------------------
sed 's/max_plies = 80/max_plies = 90/' "$EXP" >"$tmp/small.lua.new" && cp "$tmp/small.lua.new" "$EXP"
if "$CHESKERS" experiment "$EXP" --games $GAMES --out "$tmp/whole" --quiet >"$tmp/changed.err" 2>&1; then
  not_ok "an edited experiment is refused in a folder of the old one"
elif grep -q "max_plies: 80 there, 90 here" "$tmp/changed.err" && grep -q -- "--restart" "$tmp/changed.err"; then
  ok "an edited experiment is refused in a folder of the old one, naming what differs"
else
  not_ok "an edited experiment is refused in a folder of the old one, naming what differs" "$(cat "$tmp/changed.err")"
fi

# ---- what does not belong in a folder is not counted -------------------------------
# a game 5 where the plan has 4 a variant: said by file and line, not counted
cp -r "$tmp/whole" "$tmp/extra"
f=$(ls "$tmp"/extra/*.jsonl)
n=$(($(wc -l <"$f") + 1))
grep -v '^{"header"' "$f" | head -n 1 | sed 's/"game":1,/"game":5,/' >>"$f"
"$CHESKERS" report "$tmp/extra" --no-svg >"$tmp/extra.txt" 2>"$tmp/extra.err"
if cmp -s "$tmp/extra.txt" "$tmp/whole.txt" \
   && grep -qx "cheskers report: $f:$n: game outside the plan (variant 'golomb' has games 1 to 4): not counted" \
      "$tmp/extra.err"; then
  ok "report names a game outside the plan by file and line and does not count it"
else
  not_ok "report names a game outside the plan by file and line and does not count it" "$(cat "$tmp/extra.err")"
fi
# the edited experiment's games beside the old ones: refused, not pooled
"$CHESKERS" experiment "$EXP" --games 1 --shard 1/2 --out "$tmp/edited" --quiet
cp -r "$tmp/whole" "$tmp/mixed" && cp "$tmp"/edited/*.jsonl "$tmp/mixed/"
if "$CHESKERS" report "$tmp/mixed" --no-svg >"$tmp/mixed.txt" 2>"$tmp/mixed.err"; then
  not_ok "report refuses a folder with two editions of an experiment" "$(head -3 "$tmp/mixed.txt")"
elif grep -q "hold games of two editions of experiment 'small'" "$tmp/mixed.err" \
     && grep -q "max_plies: 80 there, 90 here" "$tmp/mixed.err" && [ ! -s "$tmp/mixed.txt" ]; then
  ok "report refuses a folder with two editions of an experiment, naming what differs"
else
  not_ok "report refuses a folder with two editions of an experiment, naming what differs" "$(cat "$tmp/mixed.err")"
fi

# ---- errors ---------------------------------------------------------------------
if "$CHESKERS" experiment "$EXP" --shard 3/2 --out "$tmp/bad" >"$tmp/bad.out" 2>&1; then
  not_ok "a shard outside 1..N is refused"
elif grep -q "shard" "$tmp/bad.out"; then ok "a shard outside 1..N is refused"
else not_ok "a shard outside 1..N is refused with a message" "$(cat "$tmp/bad.out")"; fi

# ---- rules diff -------------------------------------------------------------------
"$CHESKERS" rules diff golomb golomb --depth 3 >"$tmp/same.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "no difference found" "$tmp/same.out"; then ok "rules diff of a rule set with itself: no difference, status 0"
else not_ok "rules diff of a rule set with itself (status $rc)" "$(cat "$tmp/same.out")"; fi

# White pawn a3 can jump b4, d6 (a3xc5xe7), pawn h2 only g3 (h2xf4): the
# majority rule keeps the 2-piece chain only; without it both are legal.
FEN="7k/8/3p4/8/1p6/P5p1/7P/K7 w"
"$CHESKERS" rules diff majority=true majority=false "$FEN" --depth 2 >"$tmp/maj.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "only under B (1): h2xf4" "$tmp/maj.out" \
   && grep -q "only under A (0)" "$tmp/maj.out" && grep -Eq "^1 +1 +2 +differs" "$tmp/maj.out"; then
  ok "rules diff shows the move and perft count the majority rule removes"
else
  not_ok "rules diff shows the move and perft count the majority rule removes (status $rc)" "$(cat "$tmp/maj.out")"
fi

# A camel on d4 that leaps {1,1} reaches c3 c5 e3 e5 instead of a3 a5 c1 c7 e1 e7 g3 g5.
"$CHESKERS" rules diff golomb "{pieces={C={leaps={{1,1}}}}}" "7k/8/8/8/3C4/8/8/K7 w" --depth 1 \
  >"$tmp/camel.out" 2>&1
if grep -q "only under A (8): d4-a3 d4-a5 d4-c1 d4-c7 d4-e1 d4-e7 d4-g3 d4-g5" "$tmp/camel.out" \
   && grep -q "only under B (4): d4-c3 d4-c5 d4-e3 d4-e5" "$tmp/camel.out"; then
  ok "rules diff with a redefined camel lists both move sets"
else
  not_ok "rules diff with a redefined camel lists both move sets" "$(cat "$tmp/camel.out")"
fi

# ---- the HTML report ---------------------------------------------------------------
"$CHESKERS" report "$tmp/whole" --no-svg --html "$tmp/report.html" >/dev/null 2>"$tmp/html.err"
if grep -q "<svg" "$tmp/report.html" 2>/dev/null && grep -q "Design measures" "$tmp/report.html" \
   && grep -qF "cheskers experiment $EXP --games $GAMES --out $tmp/whole --quiet" "$tmp/report.html"; then
  ok "report --html writes a page with charts, design measures and the command that made the games"
else not_ok "report --html writes a page with charts, design measures and the command that made the games" "$(cat "$tmp/html.err")"; fi
# the rules of each variant as rules text (as --rules and records write
# them), hooks named; never the fingerprint's raw JSON
if grep -q '^<td class="l">pieces={C={[^<]*leaps={{1,5}}[^<]*}}</td>$' "$tmp/report.html" \
   && grep -q '^<td class="l">golomb; filter hook, result hook</td>$' "$tmp/report.html"; then
  ok "the HTML report shows each variant's rules as rules text, hooks by name"
else not_ok "the HTML report shows each variant's rules as rules text, hooks by name" \
  "$(grep -A3 '<td class="l">camel-1-5</td>' "$tmp/report.html")"; fi
hasnot "the HTML report shows no raw JSON" "{&quot;" "$(cat "$tmp/report.html")"
links=$(grep -o 'https\{0,1\}://[^"'"'"' <)]*' "$tmp/report.html" | grep -v '^http://www.w3.org/2000/svg$' | sort -u)
if [ -z "$links" ]; then ok "the HTML report links nothing outside itself"
else not_ok "the HTML report links nothing outside itself" "$links"; fi

# ---- report files: their folders created, written whole --------------------------
"$CHESKERS" report "$tmp/whole" --svg "$tmp/charts/new/report.svg" --html "$tmp/pages/report.html" \
  >/dev/null 2>"$tmp/files.err"
if grep -q "</svg>" "$tmp/charts/new/report.svg" 2>/dev/null && grep -q "</html>" "$tmp/pages/report.html" 2>/dev/null \
   && ! ls "$tmp/charts/new" "$tmp/pages" | grep -q "\.tmp$"; then
  ok "report --svg and --html create the folders of their files and leave no temporary file"
else not_ok "report --svg and --html create the folders of their files" "$(cat "$tmp/files.err")"; fi

# ---- a misspelt field is an error, not ignored -----------------------------------------
sed 's/max_plies = 90/max_plies = 90, swap_colours = true/' "$EXP" >"$tmp/typo.lua"
if "$CHESKERS" experiment "$tmp/typo.lua" --out "$tmp/typo" --quiet >"$tmp/typo.err" 2>&1; then
  not_ok "an experiment file with a misspelt field is refused"
elif [ "$(cat "$tmp/typo.err")" = "cheskers experiment: $tmp/typo.lua: unknown field 'swap_colours' (did you mean 'swap_colors'?)" ]
then ok "an experiment file with a misspelt field is refused in one line, naming the nearest field"
else not_ok "an experiment file with a misspelt field is refused in one line" "$(cat "$tmp/typo.err")"; fi

# ---- the equivalence margins: a bad one is refused in one line; a wider one is named ------
for m in 0 abc 101; do
  if "$CHESKERS" report "$tmp/whole" --no-svg --margin "$m" >/dev/null 2>"$tmp/margin.err"; then
    not_ok "report --margin $m is refused"
  elif [ "$(wc -l <"$tmp/margin.err")" -eq 1 ] && grep -q "^cheskers report: --margin must be a number > 0 and <= 100" "$tmp/margin.err"
  then ok "report --margin $m is refused in one line"
  else not_ok "report --margin $m is refused in one line" "$(cat "$tmp/margin.err")"; fi
done
if "$CHESKERS" report "$tmp/whole" --no-svg --margin 2.5 --plies-margin 8 2>/dev/null \
   | grep -q "within +-2.5 points (rates) or +-8 plies"
then ok "report --margin and --plies-margin set the equivalence margins it names"
else not_ok "report --margin and --plies-margin set the equivalence margins it names"; fi
