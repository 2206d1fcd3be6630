-- cheskers.report - the report of rule experiments: the games of a results
-- folder (every shard and run of cheskers.selfplay, as cheskers.store keeps
-- them), their statistics per variant (cheskers.stats, cheskers.measures),
-- the comparisons with the base variant, and the text `cheskers report`
-- prints (cheskers.report_html draws the same numbers as a page). It reads
-- what is stored and never plays.
--
--   report.read_file(path) -> games, lines not counted, torn, header, notes
--   report.read_dir(dir) -> games, warnings, files   (raises on two editions)
--   report.summarize(games) -> groups (one per variant)
--   report.compare(groups [, opts]) -> rows, tests   every variant against its base
--                                            (opts: margin, plies_margin: TOST)
--   report.MARGIN, report.PLIES_MARGIN       the default equivalence margins
--   report.COMPARED                          the cells of a row
--   report.power(groups, tests [, delta]) -> the power line's numbers
--   report.trend(weak, strong) -> "no change shown" | "grows" | "shrinks" | "vanishes" | "-", p
--   report.secondary(groups, rows) -> the exploratory tests, Benjamini-Hochberg q-values
--   report.families(groups) -> {{family, groups}, ...}
--   report.by_experiment(groups) -> {{name, group, ...}, ...}
--   report.weights_rows(groups) -> head, rows | nil   which weights played each
--                                            variant (fitted experiments), as text cells
--   report.format_report(groups [, opts]) -> text
--
-- What is confirmatory: the differences table of an experiment (each
-- variant against its base: three rates and the mean length), Holm-corrected
-- over the table for differences (*) and, separately, for equivalence
-- within the margins (=). Everything else (design-measure contrasts, the
-- variant x strength interactions, strength trends) is exploratory: its
-- p-values get Benjamini-Hochberg q-values over all of them in the
-- experiment, and piece values are shown with intervals only, never tested.
local S = require "cheskers.schema"
local store = require "cheskers.store"
local stats = require "cheskers.stats"
local measures = require "cheskers.measures"
local experiment = require "cheskers.experiment"
local escape = require "cheskers.escape"
local plural = require("cheskers").plural

local errorf = require("cheskers").errorf
local M = {}

local sorted_keys = require("cheskers.luadata").sorted_keys

local function bump(t, k, n) t[k] = (t[k] or 0) + (n or 1) end

-- ---- reading a folder -------------------------------------------------------------

-- A folder holds the shard files of runs of experiments: each file starts
-- with a header (cheskers.store) holding the fingerprint of the experiment
-- and seed that made it and the plan (games per variant, the shard). A
-- game counts when its file's header says it belongs there: the same
-- experiment and seed, a variant the fingerprint declares, a game number
-- within the plan. What does not belong is said by file and line (the
-- warnings) and never counted; files of one experiment made from other
-- inputs (another edition) are refused.

local RESULTS = { white = true, black = true, draw = true }

local function is_game(rec)
  return type(rec.experiment) == "string" and type(rec.variant) == "string"
         and math.type(rec.game) == "integer" and RESULTS[rec.result] ~= nil
         and math.type(rec.plies) == "integer"
end

-- The variants a header declares (name -> true) and its plan (name ->
-- games; empty for a header without one).
local function declared(header)
  local names, planned = {}, {}
  for _, v in ipairs(type(header.fingerprint.variants) == "table" and header.fingerprint.variants or {}) do
    if type(v) == "table" and v.name ~= nil then names[v.name] = true end
  end
  local plan = type(header.plan) == "table" and header.plan.variants
  for _, v in ipairs(type(plan) == "table" and plan or {}) do
    if type(v) == "table" and v.variant ~= nil and math.type(v.games) == "integer" then planned[v.variant] = v.games end
  end
  return names, planned
end

-- The fitted weights of the variants a header declares (name -> {fingerprint,
-- games, nodes, seed, weights, start, file}); what is not plainly such data
-- is left out.
local function fitted_of(header)
  local fits, files = {}, {}
  local plan = type(header.plan) == "table" and header.plan.variants
  for _, v in ipairs(type(plan) == "table" and plan or {}) do
    if type(v) == "table" and type(v.weights) == "string" then files[v.variant] = v.weights end
  end
  for _, v in ipairs(type(header.fingerprint.variants) == "table" and header.fingerprint.variants or {}) do
    local f = type(v) == "table" and v.fitted
    if type(f) == "table" and type(f.fingerprint) == "string" and type(f.weights) == "table"
        and type(f.start) == "table" then
      fits[v.name] = { fingerprint = f.fingerprint, games = f.games, nodes = f.nodes, seed = f.seed,
                       weights = f.weights, start = f.start, file = files[v.name] }
    end
  end
  return fits
end

-- Why a line of a file with this header does not belong there, or nil.
local function misfit(rec, fp, names, planned)
  if not is_game(rec) then return "not a game of an experiment: not counted" end
  if rec.experiment ~= fp.experiment or rec.seed ~= fp.seed then
    return ("a game of experiment '%s' (seed %s) in a file of '%s' (seed %s): not counted"):format(
      rec.experiment, tostring(rec.seed), tostring(fp.experiment), tostring(fp.seed))
  end
  if not names[rec.variant] then
    return ("variant '%s' is not in the file's header: not counted"):format(rec.variant)
  end
  local games = planned[rec.variant]
  if rec.game < 1 or (games and rec.game > games) then
    return ("game outside the plan (variant '%s' has games 1 to %d): not counted"):format(rec.variant, games or 0)
  end
end

-- What the fields of a game line that the report reads must be, when
-- present: a line with another value is forged (refused by file and line,
-- store.refuse). Measure values may be infinite (JSON's 1e999), which the
-- report counts and says (summarize: nonfinite).
local finite = S.num {}
-- a game's pieces of one kind captured or promoted, and its positions and
-- their moves for the branching factor: counts, each at most a game's
-- length (its plies) or every move of each position
local MAX_PLIES = require("cheskers.numbers").MAX_PLIES
local counts = S.map(S.int { min = 0, max = MAX_PLIES })
local moves_sum = S.num { min = 0, max = MAX_PLIES * 1000 }
local any_number = S.test(function(x) return type(x) == "number" end, "a number")   -- inf too
local GAME_FIELDS = {
  white = "string", black = "string", first = "string", reason = "string", vindex = S.int { min = 1 },
  plies = S.int { min = 0, max = 1000000000 },
  captures = counts, captured = counts, promotions = counts, measures = S.map(any_number), mat_kinds = "string",
  branching_sum = moves_sum, branching_n = S.int { min = 0, max = MAX_PLIES + 1 },
  trace = S.list(finite), mat = S.list(S.list(finite)),
}
local GAME_FIELD_NAMES = sorted_keys(GAME_FIELDS)

local function check_game(path, line, r)
  for _, k in ipairs(GAME_FIELD_NAMES) do store.expect(path, line, r[k], GAME_FIELDS[k], k) end
  for i, row in ipairs(r.mat or {}) do
    if #row < 1 then store.refuse(path, line, ("mat[%d] is empty"):format(i)) end
  end
end

-- The games of one store file that belong there (a list), said in notes
-- (store.notes) by line when they do not.
local function games_of(file, notes)
  local recs, header = {}, file.header
  if not header then
    notes:add(file.path, nil, ("no header line (not written by cheskers experiment): its %d line(s) not counted")
      :format(#file.results + file.bad + (file.torn and 1 or 0)))
    return recs
  end
  if header.kind ~= "experiment" or type(header.fingerprint) ~= "table" then
    notes:add(file.path, nil, ("results of a %s, not of an experiment: not counted"):format(tostring(header.kind)))
    return recs
  end
  store.note_unreadable(notes, file)
  local names, planned = declared(header)
  for i, r in ipairs(file.results) do
    check_game(file.path, file.lines and file.lines[i], r)
    local why = misfit(r, header.fingerprint, names, planned)
    if why then notes:add(file.path, file.lines and file.lines[i], why) else recs[#recs + 1] = r end
  end
  return recs
end

-- The games of the file at path that belong there (see games_of), the
-- number of lines not counted (a torn last line counts), whether it ends
-- with a torn line, its header (nil for a file without one), and what
-- does not belong (texts "PATH:LINE: ...").
function M.read_file(path)
  local header, results, torn, bad, at = store.read(path)
  local notes = store.notes()
  local recs = games_of({ path = path, header = header, results = results, torn = torn, bad = bad,
                          lines = at.lines, unreadable = at.unreadable, torn_line = at.torn }, notes)
  local skipped = #results + bad + (torn and 1 or 0) - #recs
  return recs, skipped, torn, header, notes:list()
end

-- Refuses (store.refuse: "PATH, line N: ...", one line) an experiment
-- file's header whose values the report reads are forged: not of their kind.
local function check_header(f)
  local at, h = f.header_line, f.header
  local fp = store.expect(f.path, at, h.fingerprint, "table", "fingerprint")
  if fp == nil then store.refuse(f.path, at, "the header has no fingerprint") end
  local plan = store.expect(f.path, at, h.plan, "table", "plan") or {}
  store.expect(f.path, at, plan.command, "string", "plan.command")
  store.expect(f.path, at, plan.variants, S.list("table"), "plan.variants")
  for i, v in ipairs(type(plan.variants) == "table" and plan.variants or {}) do
    store.expect(f.path, at, v.games, S.int { min = 0, max = 1 << 53 }, ("plan.variants[%d].games"):format(i))
  end
  store.expect(f.path, at, plan.shard, S.int { min = 1 }, "plan.shard")
  store.expect(f.path, at, plan.shards, S.int { min = math.max(1, math.type(plan.shard) and plan.shard or 1) },
               "plan.shards")
  store.expect(f.path, at, fp.trace, S.test(function(x) return x == false or type(x) == "table" end,
                                            "a table or false"), "fingerprint.trace")
  store.expect(f.path, at, fp.variants, S.list("table"), "fingerprint.variants")
  for i, v in ipairs(fp.variants or {}) do
    for _, k in ipairs { "name", "white", "black" } do
      if type(v[k]) ~= "string" then
        store.refuse(f.path, at, ("fingerprint.variants[%d].%s must be a text, not %s"):format(i, k, S.show(v[k])))
      end
    end
  end
end

-- A fingerprint without its seed: what every run of one experiment shares.
local function edition(fp)
  local t = {}
  for k, v in pairs(fp) do if k ~= "seed" then t[k] = v end end
  return t
end

-- Refuses files of one experiment made from other inputs (edited
-- variants, rules, bots...): their games cannot be pooled.
local function check_editions(files)
  local first = {}
  for _, f in ipairs(files) do
    local fp = f.header and f.header.kind == "experiment" and type(f.header.fingerprint) == "table"
               and f.header.fingerprint
    if fp then
      local name = tostring(fp.experiment)
      local ref = first[name]
      if not ref then
        first[name] = f
      else
        local d = store.diff(edition(ref.header.fingerprint), edition(fp))
        if #d > 0 then
          errorf("%s (there) and %s (here) hold games of two editions of experiment '%s' "
                 .. "(made from other inputs):\n  %s\n"
                 .. "(their games cannot be pooled: report each edition from its own folder)",
                 ref.path, f.path, name, table.concat(d, "\n  "))
        end
      end
    end
  end
end

-- The plan and fingerprint of a file's header when the plan says its
-- shard and the games of each variant (else nil).
local function planned_shards(f)
  local plan, fp = f.header.plan, f.header.fingerprint
  if type(plan) ~= "table" or math.type(plan.shard) ~= "integer" or math.type(plan.shards) ~= "integer"
     or type(plan.variants) ~= "table" then
    return nil
  end
  for _, v in ipairs(plan.variants) do
    if type(v) ~= "table" or math.type(v.games) ~= "integer" or v.games < 0 or v.games > 1 << 53 then return nil end
  end
  if plan.shard < 1 or plan.shards < plan.shard then return nil end
  return plan, fp
end

-- The shards of a split run that have no file: "shard 2/3 (no file)".
local function missing_shards(files)
  local present, splits = {}, {}
  for _, f in ipairs(files) do
    local plan, fp = planned_shards(f)
    if plan then
      local run = tostring(fp.experiment) .. "\0" .. tostring(fp.seed) .. "\0" .. plan.shards
      splits[run] = plan.shards
      present[run .. "\0" .. plan.shard] = true
    end
  end
  -- at most SHOWN named a run, the rest counted (a forged plan may say
  -- 2^62 shards: the walk stops after SHOWN missing ones)
  local SHOWN = 20
  local out = {}
  for _, run in ipairs(sorted_keys(splits)) do
    local listed = 0
    for i = 1, splits[run] do
      if not present[run .. "\0" .. i] then
        if listed == SHOWN then
          local n = 0
          for k in pairs(present) do if k:sub(1, #run + 1) == run .. "\0" then n = n + 1 end end
          out[#out + 1] = ("%d more shards of %d (no file)"):format(splits[run] - n - SHOWN, splits[run])
          break
        end
        listed = listed + 1
        out[#out + 1] = ("shard %d/%d (no file)"):format(i, splits[run])
      end
    end
  end
  return out
end

-- How many games each file's plan expects of it: warnings for files and
-- experiments with games missing ("found M of N games; shards short: ...").
local function completeness(files, found)
  local want, short = {}, {}
  for _, f in ipairs(files) do
    local plan, fp = planned_shards(f)
    if plan then
      local key = tostring(fp.experiment) .. " (seed " .. tostring(fp.seed) .. ")"
      local k, mine = 0, 0
      want[key] = want[key] or 0
      local total = 0
      -- the games k (1, 2, ...) of the shard: (k - 1) % shards == shard - 1;
      -- counted, not walked (a forged plan may say 2^62 games)
      local function upto(n) return n >= plan.shard and (n - plan.shard) // plan.shards + 1 or 0 end
      for _, v in ipairs(plan.variants) do
        mine = mine + upto(k + v.games) - upto(k)
        k = k + v.games
        total = total + v.games
      end
      want[key] = math.max(want[key], total)
      if #f.recs < mine then
        short[#short + 1] = ("%s (%d of %d)"):format(f.path:match("([^/]+)$"), #f.recs, mine)
      end
    end
  end
  for _, line in ipairs(missing_shards(files)) do short[#short + 1] = line end
  local warnings = {}
  for _, key in ipairs(sorted_keys(want)) do
    local n = found[key] or 0
    if n < want[key] then
      warnings[#warnings + 1] = ("%s: found %d of %d games%s"):format(key, n, want[key],
        #short > 0 and ("; shards short: " .. table.concat(short, ", ")) or "")
    end
  end
  return warnings
end

local function sort_records(recs)
  table.sort(recs, function(a, b)
    if a.experiment ~= b.experiment then return a.experiment < b.experiment end
    if a.seed ~= b.seed then return a.seed < b.seed end
    if (a.vindex or 0) ~= (b.vindex or 0) then return (a.vindex or 0) < (b.vindex or 0) end
    if a.variant ~= b.variant then return a.variant < b.variant end
    return a.game < b.game
  end)
end

-- All records of a folder that belong there (see above), one per game
-- (duplicates dropped), sorted by experiment, seed, variant order and game.
-- Also returns warnings: what does not belong, by file and line; games
-- recorded twice with different outcomes; games missing from what the runs
-- planned. Third: the files of experiments read, a list of {path =, header
-- =}. Raises when two files hold two editions of one experiment, or games
-- of two engines (store.two_engines).
function M.read_dir(dir)
  local seen, recs, warnings, files, found = {}, {}, {}, {}, {}
  local stored = store.folder(dir)
  if #stored == 0 then warnings[#warnings + 1] = "no .jsonl files in " .. dir end
  local experiments = {}
  for _, f in ipairs(stored) do
    if f.header and f.header.kind == "experiment" then
      check_header(f)
      experiments[#experiments + 1] = f
    end
  end
  check_editions(stored)
  local engines = store.two_engines(experiments)
  if engines then error(engines, 0) end
  local notes = store.notes()
  local conflicts = 0
  for _, file in ipairs(stored) do
    local list = games_of(file, notes)
    local header = file.header
    if header and header.kind == "experiment" and type(header.fingerprint) == "table" then
      files[#files + 1] = { path = file.path, header = header, recs = list }
    end
    local th = header and header.fingerprint and header.fingerprint.thresholds
    local fits = #list > 0 and fitted_of(header) or {}
    for _, rec in ipairs(list) do
      if type(th) == "table" then rec.thresholds = th end
      rec.fitted = fits[rec.variant]
      local key = experiment.record_key(rec)
      local prev = seen[key]
      if not prev then
        seen[key] = rec
        recs[#recs + 1] = rec
        local ek = rec.experiment .. " (seed " .. tostring(rec.seed) .. ")"
        found[ek] = (found[ek] or 0) + 1
      elseif prev.result ~= rec.result or prev.plies ~= rec.plies then
        conflicts = conflicts + 1
      end
    end
  end
  for _, w in ipairs(notes:list()) do warnings[#warnings + 1] = w end
  if conflicts > 0 then
    warnings[#warnings + 1] = ("%d game(s) recorded twice with different outcomes "
                               .. "(non-deterministic bots?): the first kept"):format(conflicts)
  end
  for _, w in ipairs(completeness(files, found)) do warnings[#warnings + 1] = w end
  sort_records(recs)
  local list = {}
  for i, fl in ipairs(files) do list[i] = { path = fl.path, header = fl.header } end
  return recs, warnings, list
end

local function add_counts(acc, t)
  for k, n in pairs(t or {}) do acc[k] = (acc[k] or 0) + n end
end

-- The design measures of a group (cheskers.measures): g.design (name ->
-- {value, lo, hi, n}), g.pieces (the piece values or nil; g.pieces_why),
-- g.first_score (the first mover's score, a win 1 and a draw 1/2, as
-- {value, lo, hi}: the mean with its normal 95% interval), g.thresholds (pawns).
local function design_summary(g)
  local th = g.recs[1] and g.recs[1].thresholds
  g.thresholds = th or measures.DEFAULTS
  g.design = measures.summarize(g.recs, measures.thresholds(th))
  g.pieces, g.pieces_why = measures.piece_values(g.recs)
  local scores = {}
  for i, r in ipairs(g.recs) do
    scores[i] = r.result == "draw" and 0.5 or (r.result == r.first and 1 or 0)
  end
  local m, lo, hi = stats.mean_ci(scores)
  g.first_score = m and { value = m, lo = lo, hi = hi } or nil
end

-- Per-variant statistics of sorted records: a list in order of appearance of
-- {experiment, variant, seeds, games, white, black, draw (counts),
--  rates = {white = {p, lo, hi}, ...}, plies = {mean, q1, median, q3, min, max},
--  lengths (sorted), branching, reasons (list of {reason, count}),
--  captures, captured, promotions (totals by kind), measures (means), bots,
--  family and strength (a variant of `strengths`), recs (the records),
--  design, pieces, first_score (see design_summary)}.
function M.summarize(recs)
  local groups, order = {}, {}
  for _, r in ipairs(recs) do
    local key = r.experiment .. "\0" .. r.variant
    local g = groups[key]
    if not g then
      g = { experiment = r.experiment, variant = r.variant, seeds = {}, games = 0,
            white = 0, black = 0, draw = 0, lengths = {}, bsum = 0.0, bn = 0,
            reasons = {}, captures = {}, captured = {}, promotions = {},
            msum = {}, mn = {}, nonfinite = {}, bots = {}, first = {}, recs = {},
            family = r.family or r.variant, strength = r.strength }
      groups[key] = g
      order[#order + 1] = g
    end
    g.seeds[r.seed] = true
    g.fitted = g.fitted or r.fitted
    g.games = g.games + 1
    g.recs[#g.recs + 1] = r
    if r.result == "white" or r.result == "black" or r.result == "draw" then
      g[r.result] = g[r.result] + 1
    end
    g.lengths[#g.lengths + 1] = r.plies
    g.bsum = g.bsum + (r.branching_sum or 0)
    g.bn = g.bn + (r.branching_n or 0)
    bump(g.reasons, r.reason or "?")
    add_counts(g.captures, r.captures)
    add_counts(g.captured, r.captured)
    add_counts(g.promotions, r.promotions)
    for k, x in pairs(r.measures or {}) do
      local bad = x ~= x and "nan" or (x == math.huge and "inf") or (x == -math.huge and "-inf")
      if bad then   -- (a file written by hand: the runs refuse such values) counted and said, not summed
        g.nonfinite[k] = g.nonfinite[k] or {}
        bump(g.nonfinite[k], bad)
      else
        g.msum[k] = (g.msum[k] or 0.0) + x      -- in floats: integers would wrap
        g.mn[k] = (g.mn[k] or 0) + 1
      end
    end
    g.bots[(r.white or "?") .. " vs " .. (r.black or "?")] = true
    if r.first then g.first[r.first] = true end
  end
  for _, g in ipairs(order) do
    local n = g.games
    g.rates = {}
    for _, side in ipairs({ "white", "black", "draw" }) do
      local lo, hi = stats.wilson(g[side], n)
      g.rates[side] = { p = n > 0 and g[side] / n or 0, lo = lo, hi = hi }
    end
    table.sort(g.lengths)
    local mean
    mean, g.plies_var = stats.mean_var(g.lengths)
    g.plies = { mean = mean, q1 = stats.quantile(g.lengths, 0.25),
                median = stats.quantile(g.lengths, 0.5), q3 = stats.quantile(g.lengths, 0.75),
                min = g.lengths[1] or 0, max = g.lengths[#g.lengths] or 0 }
    g.branching = g.bn > 0 and g.bsum / g.bn or 0
    local reasons = {}
    for reason, count in pairs(g.reasons) do reasons[#reasons + 1] = { reason = reason, count = count } end
    table.sort(reasons, function(a, b)
      if a.count ~= b.count then return a.count > b.count end
      return a.reason < b.reason
    end)
    g.reasons = reasons
    g.measures = {}
    for _, k in ipairs(sorted_keys(g.msum)) do g.measures[k] = g.msum[k] / g.mn[k] end
    g.seed_list = sorted_keys(g.seeds)
    g.bot_list = sorted_keys(g.bots)
    g.first_list = sorted_keys(g.first)
    design_summary(g)
  end
  return order
end

-- ---- the text report --------------------------------------------------------------------

local function pct(x) return ("%5.1f%%"):format(100 * x) end
local function rate_text(r)
  return ("%s [%4.1f, %5.1f]"):format(pct(r.p), 100 * r.lo, 100 * r.hi)
end
-- A label (a variant, family or bot name: the experiment file chose it)
-- escaped for the console and padded to n columns.
local function pad(s, n) return escape.pad(escape.console(s), n) end
local function num(x)
  if math.type(x) == "integer" or x == math.floor(x) then return ("%d"):format(math.floor(x)) end
  return ("%.1f"):format(x)
end

local function counts_text(t, games)
  local parts = {}
  for _, k in ipairs(sorted_keys(t)) do
    parts[#parts + 1] = ("%s %.2f"):format(k, games > 0 and t[k] / games or 0)
  end
  return #parts > 0 and table.concat(parts, "  ") or "-"
end

-- The report of one experiment: each section gets say(fmt, ...), the
-- experiment's groups (variants, in order) and the label width.

-- The names of the experiment's own measures (a record's measures) of the
-- variants of list, sorted: those with a mean and those whose values are
-- all infinite or NaN.
function M.measure_names(list)
  local seen = {}
  for _, h in ipairs(list) do
    for k in pairs(h.measures or {}) do seen[k] = true end
    for k in pairs(h.nonfinite or {}) do seen[k] = true end
  end
  return sorted_keys(seen)
end

-- A measure's mean over a variant's games, "1.500", and the values left
-- out of it because they are not finite, said: "1.500 (2 values not
-- finite, left out: inf 1, nan 1)"; "-" when it has no value.
function M.measure_text(h, k)
  local mean = h.measures and h.measures[k]
  local text = mean and ("%.3f"):format(mean) or "-"
  local bad = h.nonfinite and h.nonfinite[k]
  if not bad then return text end
  local parts, n = {}, 0
  for _, kind in ipairs { "inf", "-inf", "nan" } do
    if bad[kind] then parts[#parts + 1] = kind .. " " .. bad[kind]; n = n + bad[kind] end
  end
  return ("%s (%d %s not finite, left out: %s)"):format(text, n, n == 1 and "value" or "values",
                                                          table.concat(parts, ", "))
end

local function rates_section(say, list, w)
  say("%s %6s  %-22s  %-22s  %s", pad("variant", w), "games",
      "white wins [95% CI]", "black wins [95% CI]", "draws [95% CI]")
  for _, h in ipairs(list) do
    say("%s %6d  %-22s  %-22s  %s", pad(h.variant, w), h.games,
        rate_text(h.rates.white), rate_text(h.rates.black), rate_text(h.rates.draw))
  end
end

-- The weights shown beside their defaults: the material.
M.WEIGHTS_SHOWN = { "pawn", "king", "bishop", "camel" }

local function weight_cell(f, n)
  local w, d = f.weights[n], f.start[n]
  if math.type(w) ~= "integer" then return "-" end
  return math.type(d) == "integer" and ("%d (%d)"):format(w, d) or ("%d"):format(w)
end

-- Which weights played each variant of a fitted experiment: head and rows
-- of text cells (variant, fingerprint, tuning games, nodes a move, seed, the
-- shown weights as "fitted (default)", the file); nil when no variant was
-- fitted.
function M.weights_rows(list)
  local any = false
  for _, h in ipairs(list) do if h.fitted then any = true end end
  if not any then return nil end
  local head = { "variant", "fingerprint", "games", "nodes", "seed" }
  for _, n in ipairs(M.WEIGHTS_SHOWN) do head[#head + 1] = n end
  head[#head + 1] = "file"
  local rows = {}
  for _, h in ipairs(list) do
    local f = h.fitted
    if f then
      local row = { h.variant, f.fingerprint, tostring(f.games), tostring(f.nodes), tostring(f.seed) }
      for _, n in ipairs(M.WEIGHTS_SHOWN) do row[#row + 1] = weight_cell(f, n) end
      row[#row + 1] = f.file or "?"
      rows[#rows + 1] = row
    else
      rows[#rows + 1] = { h.variant, "the engine's own weights" }
    end
  end
  return head, rows
end

local function weights_section(say, list, w)
  local head, rows = M.weights_rows(list)
  if not head then return end
  say("")
  say("weights: each variant played by the engine with weights fitted to its rules by cheskers tune")
  say(" (on that many self-play games at that many nodes a move); the engine's defaults in brackets")
  local widths = {}
  for j, c in ipairs(head) do widths[j] = escape.width(c) end
  for _, row in ipairs(rows) do
    for j, c in ipairs(row) do if j > 1 then widths[j] = math.max(widths[j] or 0, escape.width(c)) end end
  end
  local function line(row)
    local cells = { pad(row[1], w) }
    for j = 2, #row do cells[j] = j == #row and row[j] or escape.pad(row[j], widths[j]) end
    say("%s", table.concat(cells, " "))
  end
  line(head)
  for _, row in ipairs(rows) do line(row) end
end

-- ---- comparisons: Holm, power, strengths ---------------------------------------------

-- The variant each one is compared with: the experiment's first variant (its
-- family, at the same strength when the experiment has strengths).
local function base_of(list)
  local family, by = list[1].family, {}
  for _, h in ipairs(list) do
    if h.family == family then by[h.strength or 0] = h end
  end
  return function(h) local b = by[h.strength or 0] if b ~= h then return b end end
end

-- The default equivalence margins of compare(): 5 points of a rate, 5 plies
-- of the mean length (`cheskers report --margin`, `--plies-margin`).
M.MARGIN, M.PLIES_MARGIN = 0.05, 5

-- A rate cell of h against b: the Newcombe interval, the pooled z-test, the
-- unpooled standard error (for the interaction test) and the TOST p-value.
local function rate_cell(k1, n1, k2, n2, margin)
  local d, lo, hi = stats.newcombe(k1, n1, k2, n2)
  return { d = d, lo = lo, hi = hi, p = stats.p_proportions(k1, n1, k2, n2),
           se = math.sqrt(stats.proportion_se(k1, n1) ^ 2 + stats.proportion_se(k2, n2) ^ 2),
           p_tost = stats.tost(function(z) local _, l, u = stats.newcombe(k1, n1, k2, n2, z) return l, u end,
                               d, margin) }
end

-- Every variant against its base: a list of rows {variant =, base =, group =,
-- cells = {white, black, draw, plies}}, each cell {d, lo, hi (unadjusted
-- 95%: Newcombe for rates, Welch for the mean length), se, p, p_holm, sig,
-- p_tost, p_tost_holm, equiv}; sig when Holm's adjusted p < 0.05 over every
-- test of the list; equiv when the two one-sided tests (stats.tost) show
-- the difference inside +-opts.margin (rates, default MARGIN) or
-- +-opts.plies_margin (plies, default PLIES_MARGIN), Holm-adjusted over the
-- list too. Also returns the number of tests.
function M.compare(list, opts)
  local margin = opts and opts.margin or M.MARGIN
  local plies_margin = opts and opts.plies_margin or M.PLIES_MARGIN
  local base, rows, cells = base_of(list), {}, {}
  for _, h in ipairs(list) do
    local b = base(h)
    if b then
      local row = { variant = h.variant, base = b.variant, group = h, cells = {} }
      for _, side in ipairs({ "white", "black", "draw" }) do
        row.cells[side] = rate_cell(h[side], h.games, b[side], b.games, margin)
      end
      local m1, v1, n1, m2, v2, n2 = h.plies.mean, h.plies_var, h.games, b.plies.mean, b.plies_var, b.games
      local d, lo, hi = stats.welch(m1, v1, n1, m2, v2, n2)
      d = d or m1 - m2
      row.cells.plies = { d = d, lo = lo, hi = hi, p = stats.p_welch(m1, v1, n1, m2, v2, n2),
                          se = lo and (hi - lo) / (2 * stats.Z95) or 0,
                          p_tost = lo and stats.tost(function(z) local _, l, u = stats.welch(m1, v1, n1, m2, v2, n2, z)
                                                                 return l, u end, d, plies_margin) or 1 }
      for _, k in ipairs(M.COMPARED) do cells[#cells + 1] = row.cells[k] end
      rows[#rows + 1] = row
    end
  end
  local ps, qs = {}, {}
  for i, c in ipairs(cells) do ps[i], qs[i] = c.p, c.p_tost end
  for i, adj in ipairs(stats.holm(ps)) do cells[i].p_holm, cells[i].sig = adj, adj < 0.05 end
  for i, adj in ipairs(stats.holm(qs)) do cells[i].p_tost_holm, cells[i].equiv = adj, adj < 0.05 end
  return rows, #cells
end
M.COMPARED = { "white", "black", "draw", "plies" }

-- The power line of an experiment: games per variant to tell the base's
-- White win rate p from p + delta (default 0.05) at 80% power, at the 5%
-- level and at the Holm-corrected level of the first test (0.05 / tests).
function M.power(list, tests, delta)
  delta = delta or 0.05
  local p = list[1].rates.white.p
  local p2 = p + delta <= 1 and p + delta or p - delta
  local n = stats.power_n(p, p2)
  local n_holm = tests > 1 and stats.power_n(p, p2, 0.05 / tests) or n
  local games = math.huge
  for _, h in ipairs(list) do games = math.min(games, h.games) end
  return { p = p, delta = delta, n = n, n_holm = n_holm, tests = tests, games = games }
end

-- How a measure moves from the weakest to the strongest play, judged by the
-- test of the change itself (z of the difference, 5% two-sided), never by
-- one interval excluding 0 and the other not: "no change shown" (not
-- significant: the data do not say it holds either), "grows", "shrinks"
-- (in absolute value), or "vanishes" (a significant change towards 0 that
-- leaves the strongest's interval around 0). Also returns the p-value.
function M.trend(weak, strong)
  if not weak or not strong then return "-" end
  local z = stats.z_difference(weak, strong)
  local p = stats.p_two_sided(z)
  if math.abs(z) < stats.Z95 then return "no change shown", p end
  if (weak.lo > 0 or weak.hi < 0) and strong.lo <= 0 and strong.hi >= 0 then return "vanishes", p end
  return math.abs(strong.value) > math.abs(weak.value) and "grows" or "shrinks", p
end

-- The standard error of a difference of two design measures {value, se}.
local function contrast(m, base)
  if not m or not base or not m.se or not base.se then return nil end
  local d, se = m.value - base.value, math.sqrt(m.se ^ 2 + base.se ^ 2)
  return { d = d, se = se, lo = d - stats.Z95 * se, hi = d + stats.Z95 * se,
           p = se > 0 and stats.p_two_sided(d / se) or (d == 0 and 1 or 0) }
end

-- The interaction of a family with strength on one measure: Cochran's Q of
-- its differences from the base at each strength (cells {d, se}).
local function interaction(cells)
  local ds, ses = {}, {}
  for i, c in ipairs(cells) do
    if not c or not c.se then return nil end
    ds[i], ses[i] = c.d, c.se
  end
  local q, df, p = stats.heterogeneity(ds, ses)
  if not q then return nil end
  return { ds = ds, q = q, df = df, p = p }
end

-- The exploratory tests of an experiment (list: its groups; rows:
-- compare()'s), each with its Benjamini-Hochberg q-value over all of them:
--   contrasts[variant][measure] = {d, lo, hi, se, p, bh}  design measures against the base
--   interactions = list of {family, measure, ds (by strength), q (Cochran's), df, p, bh}
--                  for every family but the base's, on the compared cells and the
--                  design measures (with strengths only)
--   trends[family][measure] = {verdict, p, bh}           weakest -> strongest (with strengths)
--   tests = how many
function M.secondary(list, rows)
  local base = base_of(list)
  local all, out = {}, { contrasts = {}, interactions = {}, trends = {} }
  local function add(t) if t and t.p then all[#all + 1] = t end return t end
  for _, h in ipairs(list) do
    local b = base(h)
    if b then
      out.contrasts[h.variant] = {}
      for _, name in ipairs(measures.NAMES) do
        out.contrasts[h.variant][name] = add(contrast(h.design[name], b.design[name]))
      end
    end
  end
  local fams = M.families(list)
  if #fams[1].groups >= 2 then
    local by = {}
    for _, row in ipairs(rows) do by[row.variant] = row end
    for _, f in ipairs(fams) do
      out.trends[f.family] = {}
      for _, name in ipairs(measures.NAMES) do
        local verdict, p = M.trend(f.groups[1].design[name], f.groups[#f.groups].design[name])
        out.trends[f.family][name] = add(p and { verdict = verdict, p = p } or { verdict = verdict })
      end
      if f ~= fams[1] then
        for _, k in ipairs(M.COMPARED) do
          local cells = {}
          for i, h in ipairs(f.groups) do cells[i] = by[h.variant] and by[h.variant].cells[k] or false end
          local t = add(interaction(cells))
          if t then t.family, t.measure = f.family, k; out.interactions[#out.interactions + 1] = t end
        end
        for _, name in ipairs(measures.NAMES) do
          local cells = {}
          for i, h in ipairs(f.groups) do
            local c = out.contrasts[h.variant]
            cells[i] = c and c[name] or false
          end
          local t = add(interaction(cells))
          if t then t.family, t.measure = f.family, name; out.interactions[#out.interactions + 1] = t end
        end
      end
    end
  end
  local ps = {}
  for i, t in ipairs(all) do ps[i] = t.p end
  for i, q in ipairs(stats.bh(ps)) do all[i].bh = q end
  out.tests = #all
  return out
end

-- The families of a list with their groups by strength (ascending):
-- list of {family =, groups = {...}}.
function M.families(list)
  local out, index = {}, {}
  for _, h in ipairs(list) do
    local f = index[h.family]
    if not f then f = { family = h.family, groups = {} } index[h.family] = f out[#out + 1] = f end
    f.groups[#f.groups + 1] = h
  end
  for _, f in ipairs(out) do
    table.sort(f.groups, function(a, b) return (a.strength or 0) < (b.strength or 0) end)
  end
  return out
end

local function cell_text(k, c)
  local s = k == "plies" and 1 or 100
  if not c.lo then return ("%+5.1f"):format(s * c.d) end
  return ("%+5.1f [%+5.1f, %+5.1f]%s"):format(s * c.d, s * c.lo, s * c.hi, c.sig and "*" or c.equiv and "=" or " ")
end

local function differences_section(say, list, w, rows, tests, opts)
  if #rows == 0 then return end
  say("")
  say("%s %6s  %-22s  %-22s  %-22s  %s", pad("vs base", w), "", "white wins",
      "black wins", "draws", "mean plies")
  for _, row in ipairs(rows) do
    local t = {}
    for i, k in ipairs(M.COMPARED) do t[i] = cell_text(k, row.cells[k]) end
    say("%s %6s  %-22s  %-22s  %-22s  %s", pad(row.variant, w), "", t[1], t[2], t[3], t[4])
  end
  say("(confirmatory: differences from %s%s: rates in points, Newcombe 95%% CI; mean length in plies,",
      list[1].family, list[1].strength and " at the same strength" or "")
  say(" Welch 95%% CI; * significant after Holm's correction over these %d tests, family-wise error 5%%;", tests)
  say(" = equivalent: within +-%s points (rates) or +-%s plies by two one-sided tests, Holm over the %d;",
      num(100 * ((opts and opts.margin) or M.MARGIN)), num((opts and opts.plies_margin) or M.PLIES_MARGIN), tests)
  say(" no mark: inconclusive, neither a difference nor its absence shown; the intervals are not adjusted)")
  local pw = M.power(list, tests)
  say("power: %d games per variant detect %d points of White's win rate (from %.1f%%) with 80%% power at",
      pw.n, math.floor(pw.delta * 100 + 0.5), 100 * pw.p)
  say(" the 5%% level, %d at Holm's first level (5%%/%d); this experiment has %d per variant",
      pw.n_holm, tests, pw.games)
end

-- "<0.001" or the q-value with 2 digits, "+" when below 5%.
local function q_text(t)
  if not t or not t.bh then return "" end
  return (t.bh < 0.001 and "q<0.001" or ("q %.2g"):format(t.bh)) .. (t.bh < 0.05 and "+" or "")
end

local function contrasts_section(say, list, w, sec)
  local any = false
  for _, c in pairs(sec.contrasts) do if next(c) then any = true end end
  if not any then return end
  say("")
  say("design measures against %s%s (differences, 95%% CI, exploratory):", list[1].family,
      list[1].strength and " at the same strength" or "")
  say("%s %-29s %-29s %-29s %-29s %s", pad("variant", w), "drama", "lead changes", "decided at",
      "killer moves", "uncertainty")
  for _, h in ipairs(list) do
    local c = sec.contrasts[h.variant]
    if c then
      local t = {}
      for i, name in ipairs(measures.NAMES) do
        local m = c[name]
        t[i] = m and ("%+.2f [%+.2f, %+.2f] %s"):format(m.d, m.lo, m.hi, q_text(m)) or "-"
      end
      say("%s %-29s %-29s %-29s %-29s %s", pad(h.variant, w), t[1], t[2], t[3], t[4], t[5])
    end
  end
end

local function interval_text(m, scale, fmt)
  if not m then return "-" end
  fmt = fmt or "%.2f"
  scale = scale or 1
  return (fmt .. " [" .. fmt .. ", " .. fmt .. "]"):format(scale * m.value, scale * m.lo, scale * m.hi)
end

local function design_section(say, list, w)
  local any = false
  for _, h in ipairs(list) do if next(h.design) then any = true end end
  if not any then return end
  local th = list[1].thresholds
  say("")
  say("design measures (95%% CI; thresholds in pawns: drama %s, lead %s, killer %s, doubt %s)",
      th.drama or measures.DEFAULTS.drama, th.lead or measures.DEFAULTS.lead,
      th.killer or measures.DEFAULTS.killer, th.doubt or measures.DEFAULTS.doubt)
  say("%s %-20s %-20s %-20s %-20s %-20s %s", pad("variant", w), "drama", "lead changes",
      "decided at", "killer moves", "uncertainty", "first mover's score")
  for _, h in ipairs(list) do
    local d = h.design
    say("%s %-20s %-20s %-20s %-20s %-20s %s", pad(h.variant, w), interval_text(d.drama),
        interval_text(d.lead_changes), interval_text(d.decided_at), interval_text(d.killer_moves),
        interval_text(d.uncertainty), interval_text(h.first_score, 1, "%.3f"))
  end
end

-- A piece value: "4.40 [3.90, 5.01]", or "15.40 [unbounded]" when Fieller's
-- interval has no bound (the pawn's coefficient not distinct from 0).
local function piece_text(m)
  if m.bounded == false then return ("%.2f [unbounded]"):format(m.value) end
  return interval_text(m)
end
M.piece_text = piece_text

local function pieces_section(say, list, w)
  local any = false
  for _, h in ipairs(list) do if h.pieces then any = true end end
  if not any then return end
  say("")
  say("piece values in pawns (logistic fit of the result on material; Fieller 95%% CI from standard errors")
  say(" clustered by game; exploratory: no test compares the values of two variants)")
  for _, h in ipairs(list) do
    if h.pieces then
      local parts = {}
      for _, k in ipairs(h.pieces.kinds) do
        if k ~= "P" then parts[#parts + 1] = ("%s %s"):format(k, piece_text(h.pieces.values[k])) end
      end
      say("%s %s  (%d positions of %d games)", pad(h.variant, w),
          #parts > 0 and table.concat(parts, "  ") or "-", h.pieces.positions, h.pieces.games)
    else
      say("%s - (%s)", pad(h.variant, w), tostring(h.pieces_why))
    end
  end
end

local LABEL = { white = "white wins", black = "black wins", draw = "draws", plies = "mean plies",
                drama = "drama", lead_changes = "lead changes", decided_at = "decided at",
                killer_moves = "killer moves", uncertainty = "uncertainty" }
M.LABEL = LABEL

local function strengths_section(say, list, w, sec)
  local fams = M.families(list)
  if #fams[1].groups < 2 then return end
  say("")
  say("strength dependence (weakest -> strongest, the change itself tested: grows, shrinks, vanishes")
  say(" or no change shown; exploratory)")
  for _, f in ipairs(fams) do
    local parts = {}
    for _, name in ipairs(measures.NAMES) do
      local t = sec.trends[f.family][name]
      parts[#parts + 1] = ("%s %s%s"):format(name, t.verdict, t.bh and (" (" .. q_text(t) .. ")") or "")
    end
    say("%s %s", pad(f.family, w), table.concat(parts, ", "))
  end
  if #sec.interactions == 0 then return end
  say("")
  say("variant x strength interaction (do the differences from %s change with strength? Cochran's Q;", fams[1].family)
  say(" differences at each strength, weakest first: rates in points; exploratory)")
  for _, t in ipairs(sec.interactions) do
    local scale = (t.measure == "white" or t.measure == "black" or t.measure == "draw") and 100 or 1
    local ds = {}
    for i, d in ipairs(t.ds) do ds[i] = ("%+.2f"):format(scale * d) end
    say("%s %-13s %-26s Q %6.2f df %d  p %-7s %s", pad(t.family, w), LABEL[t.measure], table.concat(ds, " "),
        t.q, t.df, t.p < 0.001 and "<0.001" or ("%.3f"):format(t.p), q_text(t))
  end
end

local function secondary_note(say, sec)
  if sec.tests == 0 then return end
  say("")
  say("(exploratory tests: + when Benjamini-Hochberg q < 0.05 over the %d exploratory tests of this", sec.tests)
  say(" experiment (design contrasts, strength trends, interactions): false discovery rate 5%%)")
end

local function lengths_section(say, list, w)
  say("")
  say("%s %7s %6s %6s %6s %6s %6s  %9s", pad("plies", w), "mean", "q1", "median", "q3",
      "min", "max", "branching")
  for _, h in ipairs(list) do
    local p = h.plies
    say("%s %7.1f %6s %6s %6s %6d %6d  %9.2f", pad(h.variant, w), p.mean, num(p.q1),
        num(p.median), num(p.q3), p.min, p.max, h.branching)
  end
end

local function endings_section(say, list, w)
  say("")
  say("how games ended (games), pieces per game (captured by / lost / promoted to)")
  for _, h in ipairs(list) do
    local parts = {}
    for _, r in ipairs(h.reasons) do parts[#parts + 1] = ("%s %d"):format(r.reason, r.count) end
    say("%s ended: %s", pad(h.variant, w), table.concat(parts, ", "))
    say("%s captures by: %s", pad("", w), counts_text(h.captures, h.games))
    say("%s lost:        %s", pad("", w), counts_text(h.captured, h.games))
    say("%s promoted to: %s", pad("", w), counts_text(h.promotions, h.games))
    local names = M.measure_names({ h })
    if #names > 0 then
      local ms = {}
      for _, k in ipairs(names) do ms[#ms + 1] = k .. " " .. M.measure_text(h, k) end
      say("%s measures:    %s", pad("", w), table.concat(ms, "  "))
    end
    say("%s bots %s; moves first: %s; seed %s", pad("", w), table.concat(h.bot_list, ", "),
        table.concat(h.first_list, ", "), table.concat(h.seed_list, ", "))
  end
end

-- The groups of summarize()'s list by experiment, in order.
local function by_experiment(groups)
  local list, current = {}, nil
  for _, g in ipairs(groups) do
    if g.experiment ~= current then
      current = g.experiment
      list[#list + 1] = { name = current }
    end
    table.insert(list[#list], g)
  end
  return list
end

M.by_experiment = by_experiment

-- The report text for summarize()'s list (opts: margin, plies_margin, as
-- compare()).
function M.format_report(groups, opts)
  local out = {}
  -- every line escaped for the console: names, bots and measures are the
  -- experiment file's, and the folder's files may have been written by anyone
  local function say(fmt, ...) out[#out + 1] = escape.console(fmt:format(...)) end
  local w = 12
  for _, g in ipairs(groups) do w = math.max(w, 3 + escape.width(escape.console(g.variant))) end
  for _, list in ipairs(by_experiment(groups)) do
    local games = 0
    for _, h in ipairs(list) do games = games + h.games end
    if #out > 0 then say("") end
    say("experiment %s: %s, %s", list.name, plural(#list, "variant"), plural(games, "game"))
    say("")
    rates_section(say, list, w)
    weights_section(say, list, w)
    local rows, tests = {}, 0
    if #list >= 2 then rows, tests = M.compare(list, opts) end
    differences_section(say, list, w, rows, tests, opts)
    lengths_section(say, list, w)
    endings_section(say, list, w)
    design_section(say, list, w)
    local sec = M.secondary(list, rows)
    contrasts_section(say, list, w, sec)
    pieces_section(say, list, w)
    strengths_section(say, list, w, sec)
    secondary_note(say, sec)
  end
  if #out == 0 then out[1] = "no games" end
  return table.concat(out, "\n") .. "\n"
end

return M
