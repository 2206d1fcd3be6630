#!/bin/sh
# tests/tools/html_report_check.sh - the HTML experiment report in a real browser
# (make check-all; TAP): a small experiment at two strengths with a
# handicap, `cheskers report --html`, then headless chromium takes a
# screenshot. Checks: the page is self-contained (no link outside it), the
# screenshot is a non-empty PNG, and the browser logs no console error; a
# page of long variant names and rules does not scroll sideways at 1200
# or 800 px. Then the same checks of a design search's page (`cheskers
# design`: DIR/design.html, cheskers.design_report) from a small design
# whose description holds HTML and whose candidates have long labels.
# Needs chromium (apt-get install chromium). Run from the repository root
# after make (CHESKERS overrides ./cheskers).
set -u
cd "$(dirname "$0")/../.." || exit 2
CHESKERS=${CHESKERS:-./cheskers}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
. tests/tap.sh

echo "1..11"
BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then echo "Bail out! chromium is not installed (apt-get install chromium)"; exit 1; fi
if [ ! -x "$CHESKERS" ]; then echo "Bail out! $CHESKERS is not built (run make)"; exit 1; fi

# too_wide PAGE: " at W px: 'SCROLL CLIENT'" for each of 1200 and 800 px at
# which PAGE is wider than the window (a copy of it with a script that writes
# the widths into the DOM chromium dumps: scrollWidth against clientWidth).
too_wide() {
  sed 's|</body>|<script>document.body.setAttribute("data-width", document.documentElement.scrollWidth + " of " + document.documentElement.clientWidth);</script></body>|' \
    "$1" >"$tmp/measure.html"
  for w in 1200 800; do
    width=$(timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --window-size=$w,900 --dump-dom \
      "file://$tmp/measure.html" 2>/dev/null | sed -n 's/.*data-width="\([0-9]*\) of \([0-9]*\)".*/\1 \2/p')
    if [ -z "$width" ] || [ "${width% *}" -gt "${width#* }" ]; then printf " at %s px: '%s'" "$w" "$width"; fi
  done
}

cat >"$tmp/exp.lua" <<'X'
return {
  name = "htmlcheck", games = 40, seed = 1, max_plies = 200, random_plies = 4,
  strengths = { 100, 400 }, strength_bot = "engine:nodes=%d", trace = { depth = 1 },
  variants = {
    { name = "golomb" },
    { name = "white-no-bishop", rules = { start = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/2K1K1C1 b 0 1" } },
  },
}
X
"$CHESKERS" experiment "$tmp/exp.lua" --out "$tmp/runs" --quiet 2>"$tmp/exp.err" &&
  "$CHESKERS" report "$tmp/runs" --no-svg --html "$tmp/report.html" >"$tmp/report.txt" 2>"$tmp/report.err"
if [ -s "$tmp/report.html" ] && grep -q "<svg" "$tmp/report.html" && grep -q "</html>" "$tmp/report.html"
then ok "cheskers report --html writes a page with inline SVG"
else not_ok "cheskers report --html writes a page with inline SVG" "$(cat "$tmp/exp.err" "$tmp/report.err")"; fi

# every address in the page is the SVG namespace: nothing is fetched
links=$(grep -o 'https\{0,1\}://[^"'"'"' <)]*' "$tmp/report.html" | grep -v '^http://www.w3.org/2000/svg$' | sort -u)
if [ -z "$links" ]; then ok "the page links nothing outside itself"
else not_ok "the page links nothing outside itself" "$links"; fi

if grep -q "Piece values" "$tmp/report.html" && grep -q "Strength dependence" "$tmp/report.html" \
   && grep -q "Evaluation traces of sample games" "$tmp/report.html" && grep -q "Holm" "$tmp/report.html"
then ok "the page has piece values, strength dependence, traces and the Holm note"
else not_ok "the page has piece values, strength dependence, traces and the Holm note"; fi

timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
  --screenshot="$tmp/shot.png" --window-size=1200,2000 "file://$tmp/report.html" >"$tmp/browser.out" 2>&1
# a PNG starts with \211PNG; a blank page is a few kilobytes at this size
size=$(wc -c <"$tmp/shot.png" 2>/dev/null || echo 0)
magic=$(head -c 4 "$tmp/shot.png" 2>/dev/null | od -An -c | tr -d ' \n')
if [ "$magic" = '211PNG' ] && [ "$size" -gt 50000 ]; then ok "chromium renders it ($size bytes of PNG)"
else not_ok "chromium renders it (PNG of $size bytes, magic '$magic')" "$(tail -5 "$tmp/browser.out")"; fi

if grep -q 'CONSOLE' "$tmp/browser.out"; then
  not_ok "the browser logs no console message" "$(grep CONSOLE "$tmp/browser.out" | head -5)"
else ok "the browser logs no console message"; fi
if [ -n "${KEEP_SHOT:-}" ]; then cp "$tmp/shot.png" "$KEEP_SHOT"; fi

# Long names and rules, at 1200 and 800 px: the page is no wider than the window.
cat >"$tmp/wide.lua" <<'X'
return {
  name = "wide", games = 2, seed = 1, max_plies = 40, random_plies = 2,
  bots = { white = "builtin-random", black = "builtin-greedy" },
  variants = {
    { name = "golomb" },
    { name = "camel-leaps-1-5-rides-1-1-takes_no-majority_kings-promote-only_flying-kings_backward-pawn-captures",
      rules = { pieces = { C = { leaps = { { 1, 5 } }, rides = { { 1, 1 } }, capture = "take" } },
                majority = false, promote = "K", flying_kings = true, pawns_capture_backward = true,
                start = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1" } },
  },
}
X
"$CHESKERS" experiment "$tmp/wide.lua" --out "$tmp/wide" --quiet 2>"$tmp/wide.err" &&
  "$CHESKERS" report "$tmp/wide" --no-svg --html "$tmp/wide.html" >/dev/null 2>>"$tmp/wide.err"
wide=$(too_wide "$tmp/wide.html")
if [ -z "$wide" ]; then ok "at 1200 and 800 px the page does not scroll sideways (wide tables scroll in place)"
else not_ok "at 1200 and 800 px the page does not scroll sideways (wide tables scroll in place)" \
  "scroll width, client width$wide" "$(cat "$tmp/wide.err")"; fi

# The design search's page (cheskers.design_report): a small design, two
# start positions (one without White's bishop) and two long rule options.
cat >"$tmp/design.lua" <<'X'
return {
  name = "htmlcheck-design", seed = 1,
  description = "White's score <b>within</b> 30-80% & fast games",
  space = {
    majority = { true, false },
    pawns_capture_backward = { false, true },
    start = {
      "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1",
      "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/2K1K1C1 b 0 1",
    },
  },
  targets = {
    { measure = "white_score", within = { 0.30, 0.80 } },
    { measure = "mean_plies", goal = "min" },
  },
  players = { bots = "engine:nodes=30" },
  max_plies = 100, random_plies = 2,
  racing = { round = 10, looks = 3, alpha = 0.05 },
}
X
"$CHESKERS" design "$tmp/design.lua" --out "$tmp/design" --quiet >"$tmp/design.txt" 2>"$tmp/design.err"
page="$tmp/design/design.html"
if [ -s "$page" ] && grep -q "</html>" "$page" && grep -q "Meet every target" "$page" \
   && grep -q "Rejected" "$page" && grep -q "Pareto front" "$page" \
   && grep -q "&lt;b&gt;within&lt;/b&gt; 30-80% &amp; fast" "$page" && ! grep -q "<b>within" "$page"
then ok "cheskers design writes a page with its sections, the file's text escaped"
else not_ok "cheskers design writes a page with its sections, the file's text escaped" \
  "$(cat "$tmp/design.err")"; fi

links=$(grep -o 'https\{0,1\}://[^"'"'"' <)]*' "$page" | grep -v '^http://www.w3.org/2000/svg$' | sort -u)
if [ -z "$links" ]; then ok "the design page links nothing outside itself"
else not_ok "the design page links nothing outside itself" "$links"; fi

timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
  --screenshot="$tmp/design.png" --window-size=1200,2000 "file://$page" >"$tmp/design-browser.out" 2>&1
size=$(wc -c <"$tmp/design.png" 2>/dev/null || echo 0)
magic=$(head -c 4 "$tmp/design.png" 2>/dev/null | od -An -c | tr -d ' \n')
# a page of text and tables: a blank one is a few kilobytes at this size
if [ "$magic" = '211PNG' ] && [ "$size" -gt 20000 ]; then ok "chromium renders the design page ($size bytes of PNG)"
else not_ok "chromium renders the design page (PNG of $size bytes, magic '$magic')" \
  "$(tail -5 "$tmp/design-browser.out")"; fi

if grep -q 'CONSOLE' "$tmp/design-browser.out"; then
  not_ok "the browser logs no console message on the design page" "$(grep CONSOLE "$tmp/design-browser.out" | head -5)"
else ok "the browser logs no console message on the design page"; fi

wide=$(too_wide "$page")
if [ -z "$wide" ]; then ok "at 1200 and 800 px the design page does not scroll sideways"
else not_ok "at 1200 and 800 px the design page does not scroll sideways" "scroll width, client width$wide"; fi
