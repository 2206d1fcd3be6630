-- cheskers.measures - what rule experiments measure: what a game records
-- as it is played (the counts, the evaluation trace, the material samples
-- and the experiment's own measures), the design measures of one recorded
-- game's trace (drama, lead changes, decisiveness, killer moves,
-- uncertainty), their means with 95% intervals over a group of games, and
-- the piece values fitted from recorded material and results.
-- Definitions, formulas and sources: docs/guide/experiments.md ("Design measures").
--
-- A trace is a list of integers, the engine's evaluation in centipawns from
-- White's view: trace[1] of the start position, trace[i + 1] after ply i.
-- winner is "white", "black" or "draw". Thresholds are in centipawns.
--
-- Recording (cheskers.selfplay; e is a normalized experiment, rec a game's
-- line being filled in):
--   measures.STANDARD                     the names recorded for every game
--   measures.trace_value(board, trace) -> centipawns from White's view
--   measures.material_kinds(board) -> "BCKP" (the kinds whose material is sampled)
--   measures.observer(e, rec) -> on_ply(board, move, info) for cheskers.game
--   measures.finish(e, rec, board)        the last trace value, the mean
--                                         branching, the experiment's own measures
-- Reading:
--   measures.DEFAULTS                     thresholds in pawns
--   measures.THRESHOLDS                   their schema (cheskers.schema)
--   measures.thresholds(t) -> t in centipawns (t in pawns, defaults filled in)
--   measures.drama(trace, winner, T) -> 1 | 0 | nil (nil for a draw)
--   measures.lead_changes(trace, L) -> count
--   measures.decided_at(trace, winner, L) -> fraction | nil
--   measures.killer_moves(trace, K) -> count
--   measures.uncertainty(trace, U) -> fraction
--   measures.of_game(rec, th) -> {drama =, lead_changes =, decided_at =, killer_moves =, uncertainty =}
--   measures.summarize(recs, th) -> {name -> {value, lo, hi, n, se}} (NAMES order)
--   measures.material_rows(rec) -> list of {kinds -> difference} with the game's score
--   measures.piece_values(recs [, z]) -> {values = {kind -> {value, lo, hi}}, ...} or nil, reason
local stats = require "cheskers.stats"
local S = require "cheskers.schema"
local escape = require "cheskers.escape"

local errorf = require("cheskers").errorf
local M = {}

M.STANDARD = { "result", "plies", "reason", "branching", "captures", "captured", "promotions" }

-- Thresholds in pawns (100 centipawns): clearly behind (drama), ahead at
-- all (lead changes, decisiveness), a killer swing, near zero (doubt).
M.DEFAULTS = { drama = 2, lead = 0.5, killer = 2, doubt = 0.5 }

-- The measures in the order reports show them, with their labels.
M.NAMES = { "drama", "lead_changes", "decided_at", "killer_moves", "uncertainty" }
M.LABELS = {
  drama = "drama (winner clearly behind, share of decisive games)",
  lead_changes = "lead changes per game",
  decided_at = "decided at (share of the game before the winner's lead held)",
  killer_moves = "killer moves per game",
  uncertainty = "uncertainty (share of positions near 0)",
}

local PAWNS = require("cheskers.numbers").spec "thresholds"
M.THRESHOLDS = S.record { fields = { drama = PAWNS, lead = PAWNS, killer = PAWNS, doubt = PAWNS },
                          what = "{drama =, lead =, killer =, doubt =} in pawns" }

-- The thresholds of an experiment (given in pawns) in centipawns.
function M.thresholds(t)
  if t ~= nil then S.check(t, M.THRESHOLDS, "thresholds") end
  local out = {}
  for k, v in pairs(M.DEFAULTS) do out[k] = (t and t[k] or v) * 100 end
  return out
end

-- ---- recording a game ------------------------------------------------------------

local function bump(t, k, n) t[k] = (t[k] or 0) + (n or 1) end

-- The evaluation of a position in centipawns from White's view: the static
-- evaluation or a shallow search (trace = {kind, depth}); forced results
-- are clamped to +-100 pawns, and a finished game is worth +-100 pawns to
-- its winner (0 for a draw).
local TRACE_CLAMP = 10000
function M.trace_value(b, trace)
  local winner = b:result()
  if winner then   -- the end: a won position is worth the clamp, a draw 0
    return winner == "white" and TRACE_CLAMP or winner == "black" and -TRACE_CLAMP or 0
  end
  local score
  if trace.kind == "search" then
    score = b:search({ depth = trace.depth }).score
  else
    score = b:eval()
  end
  score = math.max(-TRACE_CLAMP, math.min(TRACE_CLAMP, math.floor(score)))
  return b:turn() == "white" and score or -score
end

-- The piece kinds whose material is recorded: the letters of the start
-- position and of the promotion choices, upper case, sorted.
function M.material_kinds(b)
  local seen = {}
  for ch in b:fen():match("^%S+"):gmatch("%a") do seen[ch:upper()] = true end
  local promote = b:rules().promote
  if type(promote) == "string" then
    for ch in promote:gmatch("%a") do seen[ch:upper()] = true end
  end
  local kinds = {}
  for k in pairs(seen) do kinds[#kinds + 1] = k end
  table.sort(kinds)
  return table.concat(kinds)
end

-- One material sample: {ply, White's count minus Black's for each kind}.
local function material_row(b, kinds, ply)
  local count = {}
  for ch in b:fen():match("^%S+"):gmatch("%a") do
    local up = ch:upper()
    count[up] = (count[up] or 0) + (ch == up and 1 or -1)
  end
  local row = { ply }
  for i = 1, #kinds do row[#row + 1] = count[kinds:sub(i, i)] or 0 end
  return row
end

-- The observer that fills in what the record holds: branching (sampled
-- every e.branching_every plies), captures by kind, pieces lost,
-- promotions, the evaluation trace and the material samples. rec has
-- captures, captured, promotions, branching_n, branching_sum, mat_kinds,
-- mat and (when e.trace) trace.
function M.observer(e, rec)
  local every = e.branching_every
  return function(b, m, info)
    if e.trace then rec.trace[info.ply] = M.trace_value(b, e.trace) end
    if (info.ply - 1) % e.material_every == 0 then
      rec.mat[#rec.mat + 1] = material_row(b, rec.mat_kinds, info.ply - 1)
    end
    if (info.ply - 1) % every == 0 then
      rec.branching_sum = rec.branching_sum + (info.moves and #info.moves or b:count())
      rec.branching_n = rec.branching_n + 1
    end
    for _, sq in ipairs(m.captures) do
      local piece = b:get(sq)
      bump(rec.captured, piece and piece:upper() or "?")
    end
    if #m.captures > 0 then bump(rec.captures, m.piece:upper(), #m.captures) end
    if m.promotion then bump(rec.promotions, m.promotion) end
  end
end

-- The end of a game (b its final board): the last trace value, the mean
-- branching factor, and the experiment's own measures (e.custom: {name,
-- fn}; fn(rec, b) must return a number; raises "measure NAME: ...").
function M.finish(e, rec, b)
  if e.trace then rec.trace[#rec.trace + 1] = M.trace_value(b, e.trace) end
  local bn, bsum = rec.branching_n, rec.branching_sum
  rec.branching = bn > 0 and math.floor(bsum / bn * 1000 + 0.5) / 1000 or 0
  if #e.custom == 0 then return end
  rec.measures = {}
  for _, c in ipairs(e.custom) do
    local name = escape.console(c.name)
    local ok, val = pcall(c.fn, rec, b)
    if not ok then errorf("measure %s: %s", name, tostring(val)) end
    if type(val) ~= "number" then
      errorf("measure %s returned %s, not a number", name, type(val))
    end
    -- JSON has no nan nor inf: stored, they would come back as nothing
    if val ~= val or val == math.huge or val == -math.huge then
      errorf("measure %s returned %s, not a finite number", name, val ~= val and "nan" or tostring(val))
    end
    rec.measures[c.name] = val
  end
end

-- ---- the design measures of a trace ----------------------------------------------------

local function sign_for(winner) return winner == "white" and 1 or -1 end

-- 1 when the eventual winner was at -T or worse (its own view) at some
-- point, else 0; nil for a draw or an empty trace.
function M.drama(trace, winner, T)
  if (winner ~= "white" and winner ~= "black") or #trace == 0 then return nil end
  local s = sign_for(winner)
  for _, e in ipairs(trace) do
    if s * e <= -T then return 1 end
  end
  return 0
end

-- How often the side ahead changes: positions with |e| <= L are level and
-- skipped; each change of sign between two consecutive non-level
-- positions counts one.
function M.lead_changes(trace, L)
  local n, last = 0, 0
  for _, e in ipairs(trace) do
    local side = e > L and 1 or e < -L and -1 or 0
    if side ~= 0 then
      if last ~= 0 and side ~= last then n = n + 1 end
      last = side
    end
  end
  return n
end

-- The share of the game played before the winner's lead became permanent:
-- with i the first index such that the winner is ahead by more than L at
-- every position from i to the end, (i - 1) / (#trace - 1) (0: ahead from
-- the start; 1: ahead only at the end, or not even then). nil for a draw
-- or a trace of fewer than 2 positions.
function M.decided_at(trace, winner, L)
  if (winner ~= "white" and winner ~= "black") or #trace < 2 then return nil end
  local s = sign_for(winner)
  local first = #trace + 1
  for i = #trace, 1, -1 do
    if s * trace[i] > L then first = i else break end
  end
  return math.min(1, (first - 1) / (#trace - 1))
end

-- How many plies change the evaluation by more than K. The last position
-- is left out: a finished game is scored +-100 pawns, so the ply that ends
-- it always swings.
function M.killer_moves(trace, K)
  local n = 0
  for i = 2, #trace - 1 do
    if math.abs(trace[i] - trace[i - 1]) > K then n = n + 1 end
  end
  return n
end

-- The share of the positions whose evaluation is within U of 0.
function M.uncertainty(trace, U)
  if #trace == 0 then return nil end
  local n = 0
  for _, e in ipairs(trace) do
    if math.abs(e) <= U then n = n + 1 end
  end
  return n / #trace
end

-- Every measure of one record (which has a trace), th in centipawns.
function M.of_game(rec, th)
  local t, w = rec.trace, rec.result
  return {
    drama = M.drama(t, w, th.drama),
    lead_changes = M.lead_changes(t, th.lead),
    decided_at = M.decided_at(t, w, th.lead),
    killer_moves = M.killer_moves(t, th.killer),
    uncertainty = M.uncertainty(t, th.doubt),
  }
end

-- The measures of a group of records with their 95% intervals (Wilson for
-- drama, a share of games; the normal interval of the mean otherwise).
-- Records without a trace are left out; n is the number of games used.
function M.summarize(recs, th)
  local lists = {}
  for _, name in ipairs(M.NAMES) do lists[name] = {} end
  for _, rec in ipairs(recs) do
    if type(rec.trace) == "table" and #rec.trace > 0 then
      local g = M.of_game(rec, th)
      for _, name in ipairs(M.NAMES) do
        if g[name] ~= nil then table.insert(lists[name], g[name]) end
      end
    end
  end
  local out = {}
  for _, name in ipairs(M.NAMES) do
    local xs = lists[name]
    if #xs > 0 then
      if name == "drama" then
        local k = 0
        for _, x in ipairs(xs) do k = k + x end
        local lo, hi = stats.wilson(k, #xs)
        local share = k / #xs
        out[name] = { value = share, lo = lo, hi = hi, n = #xs, se = stats.proportion_se(k, #xs) }
      else
        local m, lo, hi = stats.mean_ci(xs)
        local se = (hi - lo) / (2 * stats.Z95)
        -- every measure is >= 0, and the shares are <= 1: the interval is cut there
        lo = math.max(0, lo)
        if name == "decided_at" or name == "uncertainty" then hi = math.min(1, hi) end
        out[name] = { value = m, lo = lo, hi = hi, n = #xs, se = se }
      end
    end
  end
  return out
end

-- ---- piece values ------------------------------------------------------------

local SCORE = { white = 1, draw = 0.5, black = 0 }

-- The sampled material of a record: a list of {kind -> White's count minus
-- Black's}, and White's score in the game (1, 0.5, 0; nil if unknown).
function M.material_rows(rec)
  local rows = {}
  local kinds, mat = rec.mat_kinds, rec.mat
  if type(kinds) ~= "string" or type(mat) ~= "table" then return rows, SCORE[rec.result] end
  for _, row in ipairs(mat) do
    local d = {}
    for i = 1, #kinds do d[kinds:sub(i, i)] = row[i + 1] or 0 end
    rows[#rows + 1] = d
  end
  return rows, SCORE[rec.result]
end

-- The kinds that vary in the rows (a column of zeros cannot be fitted), P first.
local function varying_kinds(rows)
  local seen = {}
  for _, d in ipairs(rows) do
    for k, x in pairs(d) do if x ~= 0 then seen[k] = true end end
  end
  local kinds = {}
  for k in pairs(seen) do if k ~= "P" then kinds[#kinds + 1] = k end end
  table.sort(kinds)
  if seen.P then table.insert(kinds, 1, "P") end
  return kinds
end

-- Piece values from recorded material and results: a logistic model of
-- White's score on an intercept and the material difference of each kind
-- at the sampled positions (stats.logistic, cluster-robust covariance by
-- game), each kind's coefficient divided by the pawn's, with Fieller's 95%
-- interval (stats.fieller: not symmetric; lo, hi = -inf, +inf and bounded
-- false when the pawn's coefficient is not distinct from 0).
-- Returns {values = {kind -> {value, lo, hi, bounded, ratio_se (delta
-- method), coef, se}}, kinds (P first), beta
-- (kind -> coefficient, "first" -> intercept), positions, games}, or nil
-- and a reason. z: the normal quantile of the intervals (default 95%).
function M.piece_values(recs, z)
  local all, ys, clusters = {}, {}, {}
  local games = 0
  for gi, rec in ipairs(recs) do
    local rows, y = M.material_rows(rec)
    if y and #rows > 0 then
      games = games + 1
      for _, d in ipairs(rows) do
        all[#all + 1], ys[#ys + 1], clusters[#clusters + 1] = d, y, gi
      end
    end
  end
  local kinds = varying_kinds(all)
  if kinds[1] ~= "P" then return nil, "the pawn count never differs: no scale" end
  local X = {}
  for i, d in ipairs(all) do
    local row = { 1 }
    for _, k in ipairs(kinds) do row[#row + 1] = d[k] or 0 end
    X[i] = row
  end
  local fit, why = stats.logistic(X, ys, clusters)
  if not fit then return nil, why end
  local cov = fit.cov_cluster
  local out = { values = {}, kinds = kinds, beta = { first = fit.beta[1] },
                positions = #X, games = games }
  local p = 2      -- the pawn's column
  for j, k in ipairs(kinds) do
    local c = j + 1
    out.beta[k] = fit.beta[c]
    local r, _, _, se = stats.ratio_ci(fit.beta[c], fit.beta[p], cov[c][c], cov[p][p], cov[c][p], z)
    local lo, hi, bounded = stats.fieller(fit.beta[c], fit.beta[p], cov[c][c], cov[p][p], cov[c][p], z)
    out.values[k] = { value = r, lo = lo, hi = hi, bounded = bounded, ratio_se = se,
                      coef = fit.beta[c], se = math.sqrt(cov[c][c]) }
  end
  return out
end

return M
