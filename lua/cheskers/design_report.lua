-- cheskers.design_report - the pages of a design search (cheskers.design):
-- the text report and the HTML page (in the experiment report's style,
-- cheskers.report_html), and the one-line progress of a run.
--
--   design_report.target_text(target [, strength]) -> "draws at most 0.15 (strength 1)"
--   design_report.text(result [, opts]) -> text     opts: survivors (design.write_survivors's list),
--                                                   command
--   design_report.html(result [, opts]) -> html
--   design_report.progress(state, look, d) -> one line
local design = require "cheskers.design"
local escape = require "cheskers.escape"

local M = {}

local function num(x)
  if x == math.huge then return "inf" elseif x == -math.huge then return "-inf" end
  if math.abs(x) >= 100 then return ("%.1f"):format(x) end
  return ("%.3f"):format(x)
end

function M.target_text(t, strength)
  local s
  if t.within then s = ("%s within %s-%s"):format(t.measure, num(t.within[1]), num(t.within[2]))
  elseif t.at_most then s = ("%s at most %s"):format(t.measure, num(t.at_most))
  elseif t.at_least then s = ("%s at least %s"):format(t.measure, num(t.at_least))
  else s = ("%s as %s as possible"):format(t.measure, t.goal == "min" and "low" or "high") end
  if strength then s = s .. (" (strength %d)"):format(strength) end
  return s
end

local function est_text(e)
  if not e then return "-" end
  return ("%s [%s, %s]"):format(num(e.value), num(e.lo), num(e.hi))
end

-- The columns of a candidate's row: each test's estimate, then each goal's.
local function columns(d)
  local head = {}
  for _, test in ipairs(d.tests) do head[#head + 1] = M.target_text(test.target, test.strength) end
  for _, t in ipairs(d.targets) do if t.goal then head[#head + 1] = M.target_text(t) end end
  return head
end

local function cells(d, c)
  local row = {}
  for ti in ipairs(d.tests) do row[#row + 1] = est_text(c.estimates and c.estimates[ti]) end
  for i, t in ipairs(d.targets) do if t.goal then row[#row + 1] = est_text(c.goals and c.goals[i]) end end
  return row
end

local function method_lines(r)
  local d = r.design
  local how = d.enumerated
    and ("every one of the %d candidates of the space that meet the constraints"):format(#r.candidates)
    or ("%d of the space's %d, proposed (random, then one option of the best changed)"):format(#r.candidates, d.size)
  return {
    ("Candidates: %s."):format(how),
    ("Racing: rounds of %d games a candidate%s, at most %d looks (%d games); a candidate is dropped when an "
     .. "interval lies outside its target, and meets when every interval lies inside."):format(
      d.round, d.strengths and " and strength" or "", d.looks, d.round * d.looks),
    ("Error control: Bonferroni over %d candidates x %d tests x %d looks = %d intervals, each at "
     .. "z = %.3f: the chance of any wrong claim is at most %g."):format(d.candidates_max, #d.tests, d.looks,
      r.m, r.z, d.alpha),
    ("Games: %d played by racing; a fixed grid of %d games a candidate would have played %d "
     .. "(racing used %.0f%%)."):format(r.games, d.round * d.looks, r.grid,
                                        r.grid > 0 and 100 * r.games / r.grid or 0),
    ("A fixed grid at the same error level (one look, z = %.3f) with racing's resolution plays %d games a "
     .. "candidate, %d in all: racing used %.0f%% of it; one that knew beforehand the games of racing's "
     .. "hardest decision would play %d (%d a candidate): racing used %.0f%%."):format(r.z_grid, r.grid_per,
      r.grid_same, r.grid_same > 0 and 100 * r.games / r.grid_same or 0, r.grid_oracle, r.oracle_per,
      r.grid_oracle > 0 and 100 * r.games / r.grid_oracle or 0),
  }
end

function M.text(r, opts)
  opts = opts or {}
  local d = r.design
  local out = {}
  local function say(s) out[#out + 1] = s end
  say(("Design %s%s"):format(d.name, d.description ~= "" and (": " .. escape.console(d.description)) or ""))
  say("Targets:")
  for _, t in ipairs(d.targets) do say("  " .. M.target_text(t)) end
  for _, line in ipairs(method_lines(r)) do say(line) end
  if r.running then
    say(("In progress: %d rounds played; this report is rewritten after each round."):format(r.looks))
  end
  if r.stopped then
    say(("Stopped early: the next round would have passed the %s budget; candidates still racing are undecided.")
      :format(r.stopped == "time" and "time" or "games'"))
  end
  local head = columns(d)
  local function block(title, list, extra)
    say("")
    say(("%s: %d"):format(title, #list))
    for i, c in ipairs(list) do
      say(("%3d. %s  (%s, %d games%s)"):format(i, escape.console(c.label), c.name, c.games,
                                               d.strengths and " a strength" or ""))
      if extra then say("     " .. extra(c)) end
      for k, cell in ipairs(cells(d, c)) do say(("     %-40s %s"):format(head[k], cell)) end
    end
  end
  local by = { rejected = {}, undecided = {}, racing = {} }
  for _, c in ipairs(r.candidates) do if by[c.status] then table.insert(by[c.status], c) end end
  if #by.racing > 0 then block("Racing", by.racing) end
  block("Meet every target, ranked", design.ranked(r))
  block("Pareto front (by point estimates)", design.pareto(r), function(c) return c.status end)
  block("Rejected", by.rejected, function(c)
    local test = d.tests[c.why]
    return ("rejected by %s after %d games (look %d)")
      :format(M.target_text(test.target, test.strength), c.games, c.looks)
  end)
  block("Undecided", by.undecided)
  if opts.survivors and #opts.survivors > 0 then
    say("")
    say("Survivors as rules and as experiment files (cheskers experiment FILE --out DIR replays their games):")
    for _, s in ipairs(opts.survivors) do say("  " .. s.rules .. "  " .. s.file) end
  end
  return table.concat(out, "\n") .. "\n"
end

function M.html(r, opts)
  opts = opts or {}
  local H = require "cheskers.report_html"
  local esc = escape.xml
  local d = r.design
  local out = {}
  local function add(s) out[#out + 1] = s end
  local title = "Cheskers design search: " .. d.name
  add('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">')
  add("<title>" .. esc(title) .. "</title><style>" .. H.CSS .. "</style></head><body>")
  add("<h1>" .. esc(title) .. "</h1>")
  if d.description ~= "" then add("<p>" .. esc(d.description) .. "</p>") end
  add('<p class="note">Made by <code>' .. esc(opts.command or "cheskers design") .. "</code>. Intervals are "
      .. "at the family-wise level below; the method is in docs/guide/design.md.</p>")
  add("<h2>Targets and method</h2><ul>")
  for _, t in ipairs(d.targets) do add("<li>" .. esc(M.target_text(t)) .. "</li>") end
  add("</ul>")
  for _, line in ipairs(method_lines(r)) do add("<p>" .. esc(line) .. "</p>") end
  local head = { "candidate", "games" }
  for _, h in ipairs(columns(d)) do head[#head + 1] = h end
  local function section(name, list, extra)
    add(("<h2>%s: %d</h2>"):format(esc(name), #list))
    if #list == 0 then return end
    local rows = {}
    local h = { table.unpack(head) }
    if extra then table.insert(h, 3, "why") end
    for _, c in ipairs(list) do
      local row = { c.label, tostring(c.games) }
      if extra then row[#row + 1] = extra(c) end
      for _, cell in ipairs(cells(d, c)) do row[#row + 1] = cell end
      rows[#rows + 1] = row
    end
    H.table(add, h, rows)
  end
  local by = { rejected = {}, undecided = {}, racing = {} }
  for _, c in ipairs(r.candidates) do if by[c.status] then table.insert(by[c.status], c) end end
  if r.running then
    add(("<p><b>In progress</b>: %d rounds played; this page is rewritten after each round.</p>"):format(r.looks))
  end
  if #by.racing > 0 then section("Racing", by.racing) end
  section("Meet every target, ranked", design.ranked(r))
  section("Pareto front", design.pareto(r), function(c) return c.status end)
  section("Rejected", by.rejected, function(c)
    local test = d.tests[c.why]
    return ("%s, look %d"):format(M.target_text(test.target, test.strength), c.looks)
  end)
  section("Undecided", by.undecided)
  if opts.survivors and #opts.survivors > 0 then
    add("<h2>Survivors as files</h2><ul>")
    for _, s in ipairs(opts.survivors) do
      local rules = require("cheskers.rulespec").format(s.candidate.rules)
      add(("<li><code>%s</code>: <code>%s</code></li>"):format(esc(s.file), esc(rules)))
    end
    add("</ul>")
  end
  add("</body></html>")
  return table.concat(out, "\n") .. "\n"
end

function M.progress(state, look)
  local n = { racing = 0, meets = 0, rejected = 0, undecided = 0 }
  for _, c in ipairs(state.candidates) do n[c.status] = (n[c.status] or 0) + 1 end
  return ("look %d: %d candidates: %d racing, %d meet, %d rejected, %d undecided; %d games")
    :format(look, #state.candidates, n.racing, n.meets, n.rejected, n.undecided, state.games)
end

return M
