-- cheskers.report_html - the HTML experiment report (`cheskers report DIR
-- --html FILE`): one self-contained page (inline CSS and SVG, no script, no
-- network) per folder of results: for each experiment the commands and
-- rules that made it, a summary table, the differences from the base with
-- Holm's correction and the power line, the design measures and piece
-- values with their intervals (tables and charts), strength dependence,
-- win-rate and length charts, and the evaluation traces of sample games.
-- The numbers come from cheskers.report (summarize, compare, power,
-- families, secondary) and cheskers.measures; the charts from cheskers.chart.
--
--   report_html.page(groups, files, opts) -> html text
--   report_html.CSS, report_html.table(add, head, rows)   the page's style and
--                                 tables (cheskers.design_report's page too)
-- groups: report.summarize's list; files: report.read_dir's third result
-- ({path, header}); opts: title, command (the report command line), dir,
-- margins ({margin, plies_margin}: report.compare's equivalence margins).
local report = require "cheskers.report"
local measures = require "cheskers.measures"
local chart = require "cheskers.chart"
local rulespec = require "cheskers.rulespec"

local M = {}

-- Text for XML/HTML: entities, and no byte XML 1.0 forbids (cheskers.escape).
local esc = require("cheskers.escape").xml

local CSS = [[
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 24px auto; max-width: 1000px;
       color: #222; line-height: 1.4; }
h1 { font-size: 24px; } h2 { font-size: 20px; border-bottom: 2px solid #2b4a5c; margin-top: 36px; }
h3 { font-size: 16px; margin-top: 24px; }
div.wide { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; overflow-wrap: anywhere; }
th { background: #eef2f5; } td.l, th.l { text-align: left; }
td.sig { background: #fdebd0; font-weight: bold; }
code, pre { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; overflow-wrap: anywhere; }
pre { background: #f6f6f6; padding: 8px; white-space: pre-wrap; }
p.note { color: #555; font-size: 13px; }
svg { display: block; margin: 8px 0; max-width: 100%; height: auto; }
]]

local function pct(r) return ("%.1f%% [%.1f, %.1f]"):format(100 * r.p, 100 * r.lo, 100 * r.hi) end
local function ci(m, fmt)
  if not m then return "-" end
  fmt = fmt or "%.2f"
  return (fmt .. " [" .. fmt .. ", " .. fmt .. "]"):format(m.value, m.lo, m.hi)
end

-- A table: head (list of texts), rows (lists of cells: a text, or {text, class}).
local function html_table(add, head, rows)
  add('<div class="wide"><table><tr>')
  for i, h in ipairs(head) do add(("<th%s>%s</th>"):format(i == 1 and ' class="l"' or "", esc(h))) end
  add("</tr>")
  for _, row in ipairs(rows) do
    add("<tr>")
    for i, cell in ipairs(row) do
      local text, class = cell, i == 1 and "l" or nil
      if type(cell) == "table" then text, class = cell[1], cell[2] end
      add(("<td%s>%s</td>"):format(class and (' class="' .. class .. '"') or "", esc(text)))
    end
    add("</tr>")
  end
  add("</table></div>")
end

-- The headers of one experiment's files.
local function headers_of(files, name)
  local out = {}
  for _, f in ipairs(files or {}) do
    local fp = f.header and f.header.fingerprint
    if fp and fp.experiment == name then out[#out + 1] = f end
  end
  return out
end

-- A variant's rules as stored (plain data: hooks are "function <digest>")
-- as rules text (cheskers.rulespec.format, the text of --rules and of
-- records), the hooks named after it: "majority=false; filter hook".
local function rules_text(rules)
  if type(rules) ~= "table" then return rules == nil and "golomb" or tostring(rules) end
  local data, hooks = {}, {}
  for k, v in pairs(rules) do
    if type(v) == "string" and v:match("^function %x+$") then hooks[#hooks + 1] = k .. " hook"
    else data[k] = v end
  end
  table.sort(hooks)
  local ok, text = pcall(rulespec.format, data)
  if not ok then text = "?" end
  if #hooks > 0 then text = text .. "; " .. table.concat(hooks, ", ") end
  return text
end

-- A restriction {white = "no-bishop-moves"} as "white: no-bishop-moves".
local function restriction_text(restrict)
  if type(restrict) ~= "table" then return "" end
  local parts = {}
  for _, color in ipairs { "white", "black" } do
    if restrict[color] ~= nil then parts[#parts + 1] = color .. ": " .. tostring(restrict[color]) end
  end
  return table.concat(parts, ", ")
end

local function provenance(add, list, files, opts)
  local hs = headers_of(files, list.name)
  add("<h3>How these games were made</h3>")
  local cmds, seen = {}, {}
  for _, f in ipairs(hs) do
    local plan = f.header.plan or {}
    local c = plan.command or ("cheskers experiment %s.lua --seed %s --shard %s/%s --out %s"
                               .. "   (command not recorded; rebuilt)"):format(list.name,
                               tostring(f.header.fingerprint.seed), tostring(plan.shard), tostring(plan.shards),
                               tostring(opts.dir or "DIR"))
    if not seen[c] then seen[c] = true cmds[#cmds + 1] = c end
  end
  add("<pre>" .. esc(table.concat(cmds, "\n")) .. "\n" .. esc(opts.command or "cheskers report DIR --html FILE")
      .. "</pre>")
  local fp = hs[1] and hs[1].header.fingerprint
  if not fp then return end
  add(("<p class=\"note\">max_plies %s, random opening plies %s, evaluation trace %s, "
       .. "material sampled every %s plies.</p>")
      :format(esc(fp.max_plies), esc(fp.random_plies),
              esc(fp.trace and (fp.trace.kind == "search" and ("search to depth " .. tostring(fp.trace.depth))
                                or "static evaluation") or "none"), esc(fp.material_every or "-")))
  local rows = {}
  for _, v in ipairs(fp.variants or {}) do
    rows[#rows + 1] = { v.name, { rules_text(v.rules), "l" }, { v.white .. " vs " .. v.black, "l" },
                        { restriction_text(v.restrict), "l" } }
  end
  html_table(add, { "variant", "rules (over golomb)", "bots (White vs Black)", "restriction" }, rows)
end

local function summary_table(add, list)
  local rows = {}
  for _, h in ipairs(list) do
    rows[#rows + 1] = { h.variant, tostring(h.games), pct(h.rates.white), pct(h.rates.black), pct(h.rates.draw),
                        ("%.1f"):format(h.plies.mean), ("%g"):format(h.plies.median),
                        ("%.2f"):format(h.branching), ci(h.first_score, "%.3f") }
  end
  add("<h3>Results</h3>")
  html_table(add, { "variant", "games", "White wins", "Black wins", "draws", "mean plies", "median",
                    "branching", "first mover's score" }, rows)
  add('<p class="note">Rates with 95% Wilson intervals. The first mover\'s score counts a win 1 and a draw 1/2 '
      .. "(mean with its normal 95% interval): above 0.5, moving first is an advantage.</p>")
end

-- The experiment's own measures: each one's mean per variant, and the
-- values that are not finite, said (report.measure_text).
local function own_measures(add, list)
  local names = report.measure_names(list)
  if #names == 0 then return end
  local rows = {}
  for _, h in ipairs(list) do
    local row = { h.variant }
    for _, k in ipairs(names) do row[#row + 1] = report.measure_text(h, k) end
    rows[#rows + 1] = row
  end
  local head = { "variant" }
  for _, k in ipairs(names) do head[#head + 1] = k end
  add("<h3>Measures</h3>")
  html_table(add, head, rows)
  add('<p class="note">The mean of each measure of the experiment over the games of a variant; values that '
      .. "are not finite (infinite or NaN) are left out of it and counted.</p>")
end

-- Which weights played each variant (a fitted experiment).
local function weights(add, list)
  local head, rows = report.weights_rows(list)
  if not head then return end
  add("<h3>Weights</h3>")
  html_table(add, head, rows)
  add('<p class="note">Each variant was played by the engine with weights fitted to its rules (cheskers tune: '
      .. "the Texel method, on that many self-play games at that many nodes a move); the engine's default "
      .. "weights in brackets."
      .. "</p>")
end

local function differences(add, list, opts)
  local margins = opts.margins or {}
  local rows, tests = report.compare(list, margins)
  if #rows == 0 then return end
  local out = {}
  for _, row in ipairs(rows) do
    local r = { row.variant, row.base }
    for _, k in ipairs(report.COMPARED) do
      local c = row.cells[k]
      local s = k == "plies" and 1 or 100
      local text = c.lo and ("%+.1f [%+.1f, %+.1f]"):format(s * c.d, s * c.lo, s * c.hi) or ("%+.1f"):format(s * c.d)
      local p = c.p_holm < 1e-4 and " p<0.0001" or (" p=%.2g"):format(c.p_holm)
      r[#r + 1] = { text .. p .. (c.equiv and " =" or ""), c.sig and "sig" or nil }
    end
    out[#out + 1] = r
  end
  add("<h3>Differences from the base</h3>")
  html_table(add, { "variant", "base", "White wins (points)", "Black wins (points)", "draws (points)",
                    "mean plies" }, out)
  local pw = report.power(list, tests)
  add(("<p class=\"note\">Unadjusted 95%% intervals (Newcombe for rates, Welch for the mean length); p is "
       .. "Holm-adjusted over the %d tests of this table, and a shaded cell is significant at a family-wise "
       .. "error of 5%%. <b>=</b>: equivalent within &plusmn;%s points (rates) or &plusmn;%s plies by two "
       .. "one-sided tests, Holm-adjusted the same way; a cell with neither mark is inconclusive (neither a "
       .. "difference nor its absence shown). These comparisons are the experiment's confirmatory tests. "
       .. "<b>Power:</b> %d games per variant detect %d points of White's win rate (from %.1f%%) "
       .. "with 80%% power at the 5%% level, %d at Holm's strictest level; this experiment has %d per variant.</p>")
      :format(tests, ("%g"):format(100 * (margins.margin or report.MARGIN)),
              ("%g"):format(margins.plies_margin or report.PLIES_MARGIN),
              pw.n, math.floor(pw.delta * 100 + 0.5), 100 * pw.p, pw.n_holm, pw.games))
end

local function design(add, list)
  local any = false
  for _, h in ipairs(list) do if next(h.design) then any = true end end
  if not any then return end
  local th = list[1].thresholds
  add("<h3>Design measures</h3>")
  local rows = {}
  for _, h in ipairs(list) do
    local r = { h.variant }
    for _, name in ipairs(measures.NAMES) do r[#r + 1] = ci(h.design[name]) end
    rows[#rows + 1] = r
  end
  html_table(add, { "variant", "drama", "lead changes", "decided at", "killer moves", "uncertainty" }, rows)
  add(("<p class=\"note\">Means with 95%% intervals (Wilson for drama). Thresholds in pawns: clearly behind %s, "
       .. "ahead %s, killer swing %s, near zero %s. Definitions: docs/guide/experiments.md.</p>")
      :format(esc(th.drama or measures.DEFAULTS.drama), esc(th.lead or measures.DEFAULTS.lead),
              esc(th.killer or measures.DEFAULTS.killer), esc(th.doubt or measures.DEFAULTS.doubt)))
  for _, name in ipairs(measures.NAMES) do
    local crows = {}
    for _, h in ipairs(list) do
      local m = h.design[name]
      crows[#crows + 1] = { label = h.variant, value = m and m.value, lo = m and m.lo, hi = m and m.hi }
    end
    add(chart.intervals(crows, { title = measures.LABELS[name], inline = true }))
  end
end

local function pieces(add, list)
  local kinds, seen = {}, {}
  for _, h in ipairs(list) do
    for _, k in ipairs(h.pieces and h.pieces.kinds or {}) do
      if k ~= "P" and not seen[k] then seen[k] = true kinds[#kinds + 1] = k end
    end
  end
  if #kinds == 0 then return end
  table.sort(kinds)
  add("<h3>Piece values (pawns)</h3>")
  local head, rows, crows = { "variant" }, {}, {}
  for _, k in ipairs(kinds) do head[#head + 1] = k end
  head[#head + 1] = "positions (games)"
  for _, h in ipairs(list) do
    local r = { h.variant }
    for _, k in ipairs(kinds) do
      local v = h.pieces and h.pieces.values[k]
      r[#r + 1] = v and report.piece_text(v) or "-"
      -- an unbounded interval has no place on a scale: its row stays empty
      local shown = v and v.bounded ~= false
      crows[#crows + 1] = { label = h.variant .. ": " .. k, value = shown and v.value or nil,
                            lo = shown and v.lo or nil, hi = shown and v.hi or nil }
    end
    r[#r + 1] = h.pieces and ("%d (%d)"):format(h.pieces.positions, h.pieces.games) or tostring(h.pieces_why)
    rows[#rows + 1] = r
  end
  html_table(add, head, rows)
  add('<p class="note">A logistic model of White\'s score on the material difference of each kind at sampled '
      .. "positions; each coefficient over the pawn's, 95% intervals by Fieller's method (not symmetric: a "
      .. "ratio's spread is skewed) with standard errors clustered by game; unbounded when the pawn's "
      .. "coefficient is not distinct from 0. Exploratory: no test compares two variants' values.</p>")
  add(chart.intervals(crows, { title = "Piece values in pawns", ref = 0, unit = "pawns", inline = true }))
end

local function strengths(add, list, opts)
  local fams = report.families(list)
  if #fams[1].groups < 2 then return end
  local rows = report.compare(list, opts.margins)
  local sec = report.secondary(list, rows)
  local function flagged(t) return t and t.bh and t.bh < 0.05 and "sig" or nil end
  local out = {}
  for _, f in ipairs(fams) do
    local r = { f.family }
    for _, name in ipairs(measures.NAMES) do
      local t = sec.trends[f.family][name]
      r[#r + 1] = { t.verdict, flagged(t) }
    end
    out[#out + 1] = r
  end
  add("<h3>Strength dependence</h3>")
  html_table(add, { "variant", "drama", "lead changes", "decided at", "killer moves", "uncertainty" }, out)
  local inter = {}
  for _, t in ipairs(sec.interactions) do
    local scale = (t.measure == "white" or t.measure == "black" or t.measure == "draw") and 100 or 1
    local ds = {}
    for i, d in ipairs(t.ds) do ds[i] = ("%+.2f"):format(scale * d) end
    inter[#inter + 1] = { t.family, report.LABEL[t.measure], table.concat(ds, ", "),
                          ("%.2f (%d)"):format(t.q, t.df), ("%.3g"):format(t.p), { ("%.3g"):format(t.bh), flagged(t) } }
  end
  if #inter > 0 then
    html_table(add, { "variant", "measure", "differences from the base, weakest first", "Q (df)", "p", "BH q" },
               inter)
  end
  add('<p class="note">From the weakest to the strongest play, the change itself tested (5%): "grows", '
      .. '"shrinks", "vanishes" (towards 0), or "no change shown" (which is not evidence that it holds). '
      .. "The second table tests the variant x strength interaction: whether a variant's differences from the "
      .. "base change with strength (Cochran's Q). Both are exploratory: a shaded cell has a Benjamini-Hochberg "
      .. ("q < 0.05 over the %d exploratory tests of the experiment.</p>"):format(sec.tests))
end

-- Sample games for the trace chart: the first two games with a trace of
-- up to four variants spread over the list.
local function samples(list)
  local picks, out = {}, {}
  local n = #list
  local step = math.max(1, math.floor(n / 4 + 0.5))
  for i = 1, n, step do if #picks < 4 then picks[#picks + 1] = list[i] end end
  for _, h in ipairs(picks) do
    local taken = 0
    for _, rec in ipairs(h.recs) do
      if taken < 2 and type(rec.trace) == "table" and #rec.trace > 1 then
        taken = taken + 1
        out[#out + 1] = { label = ("%s game %d: %s, %s, %d plies"):format(h.variant, rec.game, rec.result,
                          tostring(rec.reason), rec.plies), trace = rec.trace }
      end
    end
  end
  return out
end

local function experiment_section(add, list, files, opts)
  local games = 0
  for _, h in ipairs(list) do games = games + h.games end
  add(("<h2>Experiment %s: %d variants, %d games</h2>"):format(esc(list.name), #list, games))
  summary_table(add, list)
  own_measures(add, list)
  weights(add, list)
  differences(add, list, opts)
  add(chart.svg(list, "Win rates and game lengths: " .. list.name, { inline = true }))
  design(add, list)
  pieces(add, list)
  strengths(add, list, opts)
  local s = samples(list)
  if #s > 0 then
    add("<h3>Evaluation traces of sample games</h3>")
    add(chart.traces(s, { inline = true }))
  end
  provenance(add, list, files, opts)
end

M.CSS, M.table = CSS, html_table

-- The page.
function M.page(groups, files, opts)
  opts = opts or {}
  local out = {}
  local function add(s) out[#out + 1] = s end
  local title = opts.title or "Cheskers rule experiments"
  add("<!DOCTYPE html>")
  add('<html lang="en"><head><meta charset="utf-8">')
  add("<title>" .. esc(title) .. "</title>")
  add("<style>" .. CSS .. "</style></head><body>")
  add("<h1>" .. esc(title) .. "</h1>")
  add('<p class="note">Made by <code>' .. esc(opts.command or "cheskers report") .. "</code>. Every number "
      .. "has its 95% interval; the measures are defined in docs/guide/experiments.md.</p>")
  for _, list in ipairs(report.by_experiment(groups)) do experiment_section(add, list, files, opts) end
  add("</body></html>")
  return table.concat(out, "\n") .. "\n"
end

return M
