-- cheskers.design - design search: which rule sets of a declared space meet
-- declared targets (`cheskers design FILE`). The one reader of design files
-- (scripts/designs/*.lua, checked with cheskers.schema), the candidates of
-- the space (enumerated, or proposed: random, then steps around the best),
-- and racing: every candidate plays its games in rounds as an experiment of
-- its own (cheskers.experiment, played by cheskers.selfplay into a results
-- folder of cheskers.store, or in memory), is judged after each round
-- against every target at a family-wise error level (cheskers.stats), and
-- is dropped as soon as an interval excludes a target. The text and HTML
-- pages of a search are cheskers.design_report's. Method and sources:
-- docs/guide/design.md.
--
-- A design file returns a table:
--   name = "fair_first_move", description = "...", seed = 1,
--   space = { majority = { true, false },          -- any rule option: its values
--             capture = { "mixed", "jumps" },
--             promote = "subsets",                 -- or a list of texts
--             camel = { {1, 3}, {1, 5} },          -- the camel's leap vectors
--             pieces = { {...}, {...} },           -- piece kinds the rule book can define
--             start = { "FEN", "FEN" } },          -- start positions from a list
--   constraints = { function(rules) return ok end, ... },   -- rules: the candidate's
--                                                   -- options (a plain table)
--   base = { draw_repetition = 3 },                 -- rules shared by every candidate
--   targets = { { measure = "first_mover_score", within = { 0.48, 0.52 } },
--               { measure = "draws", at_most = 0.15 },
--               { measure = "mean_plies", goal = "min" } },   -- or "max"; also at_least
--   players = { bots = "engine:level=1" }           -- or strengths = {1, 3}; limits,
--                                                   -- fitted (as experiments: true or a budget)
--   max_plies = 200, random_plies = 4, material_every = 4,
--   racing = { round = 50, looks = 8, alpha = 0.05 },
--   budget = { games = 20000, time = 3600 },        -- both optional
--   proposer = { candidates = 40, initial = 12 },   -- a space larger than `candidates`
--
-- Error control: Bonferroni over a fixed look schedule. A run tests at most
-- C candidates (the space's size, or proposer.candidates), each against T
-- tests (a range or bound target at each strength) at most K times (after
-- round, 2 round, ..., K round games). Every interval is a two-sided
-- interval at level alpha / (C T K) (stats.bonferroni_z): the chance that
-- any interval of the run misses its true value, so that any claim "meets"
-- or "rejected" is wrong, is at most alpha.
--
--   design.MEASURES                         the measures a target may name
--   design.load(path [, opts]) -> d         reads and checks a design file (opts.sandbox)
--   design.normalize(t [, path]) -> d
--   design.space_size(d) -> n               the candidates of the space (constraints
--                                           not applied)
--   design.enumerate(d) -> candidates       every candidate meeting the constraints
--   design.candidate(d, assign) -> c        {label, key, name, assign, rules}
--   design.experiment(d, c) -> e            the candidate's experiment (normalized)
--   design.experiment_table(d, c, games) -> t   the same as a file's table (data)
--   design.estimate(d, recs, target, z) -> {value, lo, hi, n} | nil, why
--   design.judge(target, est) -> "meets" | "misses" | nil
--   design.run(d, opts) -> result           the search (opts below)
local cheskers = require "cheskers"
local S = require "cheskers.schema"
local experiment = require "cheskers.experiment"
local rulespec = require "cheskers.rulespec"
local measures = require "cheskers.measures"
local stats = require "cheskers.stats"
local store = require "cheskers.store"
local luadata = require "cheskers.luadata"
local escape = require "cheskers.escape"
local number = require("cheskers.numbers").spec   -- the declared ranges of the numbers users write

local M = {}

local errorf = require("cheskers").errorf
local sorted_keys = luadata.sorted_keys

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end

-- ---- measures ---------------------------------------------------------------------

-- The mean of per-game values of the records (nil values left out).
local function per_game(recs, fn)
  local xs = {}
  for _, r in ipairs(recs) do
    local x = fn(r)
    if x ~= nil then xs[#xs + 1] = x end
  end
  return xs
end

-- An estimate of a [0, 1] measure: the mean with stats.bounded_mean_ci.
local function bounded(fn)
  return function(recs, z)
    local xs = per_game(recs, fn)
    if #xs == 0 then return nil, "no game has it" end
    local m = stats.mean(xs)
    local lo, hi = stats.bounded_mean_ci(m, #xs, z)
    return { value = m, lo = lo, hi = hi, n = #xs }
  end
end

-- An estimate of an unbounded measure: the mean with its normal interval.
local function unbounded(fn)
  return function(recs, z)
    local xs = per_game(recs, fn)
    if #xs < 2 then return nil, "fewer than 2 games have it" end
    local m, lo, hi = stats.mean_ci(xs, z)
    return { value = m, lo = lo, hi = hi, n = #xs }
  end
end

local function design_measure(name)
  return function(r, th)
    if type(r.trace) ~= "table" or #r.trace == 0 then return nil end
    return measures.of_game(r, th)[name]
  end
end

local function first_score(r)
  if r.result == "draw" then return 0.5 end
  return r.result == r.first and 1 or 0
end
local WHITE = { white = 1, draw = 0.5, black = 0 }
local function share(r, result) return r.result == result and 1 or 0 end

-- name -> {estimate(recs, z, th), what, trace (needs the evaluation trace)}
M.MEASURES = {
  first_mover_score = { what = "the first mover's score (a win 1, a draw 1/2)", estimate = bounded(first_score) },
  white_score = { what = "White's score", estimate = bounded(function(r) return WHITE[r.result] end) },
  draws = { what = "the share of drawn games", estimate = bounded(function(r) return share(r, "draw") end) },
  decisive = { what = "the share of won games", estimate = bounded(function(r) return 1 - share(r, "draw") end) },
  white_wins = { what = "White's share of wins", estimate = bounded(function(r) return share(r, "white") end) },
  black_wins = { what = "Black's share of wins", estimate = bounded(function(r) return share(r, "black") end) },
  mean_plies = { what = "the mean game length in plies", estimate = unbounded(function(r) return r.plies end) },
  branching = { what = "the mean branching factor",
                estimate = unbounded(function(r)
                  return (r.branching_n or 0) > 0 and r.branching_sum / r.branching_n or nil
                end) },
}
for _, name in ipairs(measures.NAMES) do
  local get = design_measure(name)
  local shape = (name == "drama" or name == "decided_at" or name == "uncertainty") and bounded or unbounded
  M.MEASURES[name] = { what = measures.LABELS[name] or name, trace = true,
                       estimate = function(recs, z, th) return shape(function(r) return get(r, th) end)(recs, z) end }
end
-- piece values: value_B, value_C, value_K (pawns; stats.fieller at z)
for _, kind in ipairs { "B", "C", "K" } do
  M.MEASURES["value_" .. kind] = {
    what = "the value of piece " .. kind .. " in pawns (fitted from material and results)",
    estimate = function(recs, z)
      local pv, why = measures.piece_values(recs, z)
      if not pv then return nil, why end
      local v = pv.values[kind]
      if not v then return nil, "piece " .. kind .. " never differs in material" end
      return { value = v.value, lo = v.lo, hi = v.hi, n = pv.games }
    end,
  }
end
M.MEASURE_NAMES = sorted_keys(M.MEASURES)

-- ---- the schema ---------------------------------------------------------------------


local function space_spec()
  local fields = {}
  for _, name in ipairs(rulespec.option_names()) do fields[name] = S.list("any", { min = 1 }) end
  fields.camel = S.list(experiment.LEAP, { min = 1 })
  fields.promote = S.either(S.one_of { "subsets" }, S.list("string", { min = 1 }))
  fields.pieces = S.list("table", { min = 1 })
  fields.start = S.list("string", { min = 1 })
  return S.record { fields = fields, what = "a table of rule options to lists of values" }
end

local BOUND = number "design target"
local RANGE = S.test(function(v)
  return type(v) == "table" and #v == 2 and S.read(v[1], BOUND) ~= nil and S.read(v[2], BOUND) ~= nil
         and v[1] <= v[2]
end, ("{low, high} with low <= high, each from %s to %s"):format(BOUND.min, BOUND.max))

local function read_target(t, where)
  local spec = S.record {
    fields = { measure = S.one_of(M.MEASURE_NAMES), within = RANGE, at_most = BOUND, at_least = BOUND,
               goal = S.one_of { "min", "max" } },
    required = { "measure" }, what = "{measure = NAME, within = {lo, hi} | at_most = x | at_least = x | goal = 'min'}",
  }
  local v, err = S.read(t, spec, where)
  if v == nil then return nil, err end
  local n = (v.within and 1 or 0) + (v.at_most and 1 or 0) + (v.at_least and 1 or 0) + (v.goal and 1 or 0)
  if n ~= 1 then
    return nil, where .. ": give one of within, at_most, at_least or goal"
  end
  return v
end

local FILE
local function file_spec()
  if FILE then return FILE end
  local X = experiment.schema().fields
  FILE = S.record {
    fields = {
      name = X.name, description = "string", seed = number "--seed",
      space = space_spec(),
      constraints = S.list("function", { min = 1 }),
      base = "table",
      targets = S.list(S.custom(read_target, "a target"), { min = 1, item = function(i) return "target " .. i end }),
      players = S.record { fields = { bots = X.bots, strengths = X.strengths, strength_bot = X.strength_bot,
                                      limits = X.limits, fitted = X.fitted },
                           what = "{bots = SPEC | strengths = {...}, limits, fitted}" },
      max_plies = X.max_plies, random_plies = X.random_plies, material_every = X.material_every,
      thresholds = X.thresholds,
      racing = S.record { fields = { round = number "design round", looks = number "design looks",
                                     alpha = S.num { above = 0, max = 0.5 } },
                          what = "{round = GAMES, looks = K, alpha = A}" },
      budget = S.record { fields = { games = number "design --budget", time = number "design --time" },
                          what = "{games = N, time = SECONDS}" },
      proposer = S.record { fields = { candidates = number "design candidates", initial = number "design candidates" },
                            what = "{candidates = N, initial = N}" },
    },
    required = { "space", "targets" },
    what = "a design table",
  }
  return FILE
end
M.schema = file_spec

M.DEFAULTS = { seed = 1, max_plies = 200, random_plies = 4, round = 50, looks = 8, alpha = 0.05,
               candidates = 64, bots = "engine:level=1" }

-- The axes of the space: sorted list of {key, values, labels}.
local function axes_of(space)
  local axes = {}
  for _, key in ipairs(sorted_keys(space)) do
    local values = space[key]
    if key == "promote" and values == "subsets" then values = experiment.subsets("KBC") end
    local labels = {}
    for i, v in ipairs(values) do
      if key == "camel" then labels[i] = ("%d-%d"):format(v[1], v[2])
      elseif key == "start" or key == "pieces" then labels[i] = tostring(i)
      else labels[i] = rulespec.value_text(v) end
    end
    axes[#axes + 1] = { key = key, values = values, labels = labels }
  end
  return axes
end

-- Checks and completes a design table. path: for messages and the default name.
function M.normalize(t, path)
  local where = path or "design"
  if type(t) ~= "table" then errorf("%s: must return a table, not %s", where, S.show(t)) end
  t = S.check(t, file_spec(), where)
  local D = M.DEFAULTS
  local players = t.players or {}
  local racing, budget, proposer = t.racing or {}, t.budget or {}, t.proposer or {}
  local d = {
    path = path, file = t,
    name = t.name or (path and (path:match("([^/]+)$") or path):gsub("%.lua$", "")) or "design",
    description = t.description or "", seed = t.seed or D.seed,
    base = t.base, constraints = t.constraints or {}, targets = t.targets,
    bots = players.bots, strengths = players.strengths, strength_bot = players.strength_bot,
    limits = players.limits, fitted = players.fitted,
    max_plies = t.max_plies or D.max_plies, random_plies = t.random_plies or D.random_plies,
    material_every = t.material_every, thresholds = t.thresholds,
    round = racing.round or D.round, looks = racing.looks or D.looks, alpha = racing.alpha or D.alpha,
    budget_games = budget.games, budget_time = budget.time,
    max_candidates = proposer.candidates or D.candidates, initial = proposer.initial,
    axes = axes_of(t.space),
  }
  if not d.name:match("^[%w_%-%.]+$") then
    errorf("%s: name '%s' must be letters, digits, '_', '-' or '.'", where, d.name)
  end
  if d.bots == nil and d.strengths == nil then d.bots = D.bots end
  for _, target in ipairs(d.targets) do
    if M.MEASURES[target.measure].trace then d.trace = true end
  end
  d.tests = {}
  local strengths = d.strengths or { false }
  for i, target in ipairs(d.targets) do
    if not target.goal then
      for _, s in ipairs(strengths) do
        d.tests[#d.tests + 1] = { target = target, index = i, strength = s or nil }
      end
    end
  end
  d.size = M.space_size(d)
  d.enumerated = d.size <= d.max_candidates
  d.candidates_max = d.enumerated and d.size or d.max_candidates
  -- every value of the space must make a board with the others' first values
  local first = {}
  for _, a in ipairs(d.axes) do first[a.key] = 1 end
  for _, a in ipairs(d.axes) do
    for i = 1, #a.values do
      local assign = copy(first)
      assign[a.key] = i
      local c = M.candidate(d, assign)
      local ok, err = pcall(cheskers.new, nil, c.rules)
      if not ok then
        errorf("%s: space: %s: value %d (%s): %s", where, a.key, i, escape.console(a.labels[i]),
               escape.console((tostring(err):gsub("^[^\n]*: ", ""))))
      end
    end
  end
  M.experiment(d, M.candidate(d, first))
  return d
end

-- Reads a design file. opts.sandbox (--sandbox; a table: the box's limits):
-- the file runs in an untrusted box (cheskers.sandbox.load_file), its
-- constraints are called through it, and its bots are loaded in boxes.
function M.load(path, opts)
  local t, err
  if opts and opts.sandbox then
    local limits = {}
    for k, v in pairs(type(opts.sandbox) == "table" and opts.sandbox or {}) do limits[k] = v end
    limits.label = function(keys) return "constraint " .. tostring(keys[#keys]) end
    t, err = require("cheskers.sandbox").load_file(path, limits)
  else
    t, err = luadata.load_file(path)
  end
  if t == nil then errorf("%s", err) end
  local d = M.normalize(t, path)
  d.sandbox = opts and opts.sandbox or nil
  return d
end

-- ---- candidates ---------------------------------------------------------------------

function M.space_size(d)
  local n = 1
  for _, a in ipairs(d.axes) do n = n * #a.values end
  return n
end

-- The candidate of an assignment (axis key -> value index): its label
-- ("capture=jumps,majority=false"), key (a digest of it, with the design's
-- name: the name of its experiment), and rules (base, then the options).
function M.candidate(d, assign)
  local parts, opts, values = {}, {}, {}
  for _, a in ipairs(d.axes) do
    local i = assign[a.key]
    parts[#parts + 1] = a.key .. "=" .. a.labels[i]
    -- start positions and pieces are labelled by their place in the list:
    -- their values name the candidate too (another list, another candidate)
    if a.key == "start" or a.key == "pieces" then values[#values + 1] = luadata.write(a.values[i]) end
    local v = copy(a.values[i])
    if a.key == "camel" then
      opts.pieces = opts.pieces or {}
      opts.pieces.C = { leaps = { v } }
    elseif a.key == "pieces" then
      opts.pieces = opts.pieces or {}
      for k, p in pairs(v) do opts.pieces[k] = p end
    else
      opts[a.key] = v
    end
  end
  local label = table.concat(parts, ",")
  local rules, err = rulespec.compose(copy(d.base), opts)
  if not rules then errorf("%s: candidate %s: %s", d.path or d.name, label, err) end
  return { label = label, assign = copy(assign), options = opts, rules = rules,
           name = ("%s-%s"):format(d.name, store.digest(label .. table.concat(values, "\0")):sub(1, 10)) }
end

local function allowed(d, c)
  for i, f in ipairs(d.constraints) do
    local ok, res = pcall(f, copy(c.options))
    if not ok then errorf("%s: constraint %d: %s", d.path or d.name, i, escape.console(tostring(res))) end
    if not res then return false end
  end
  local ok = pcall(cheskers.new, nil, c.rules)
  return ok
end

-- Every candidate of the space that meets the constraints, in order.
function M.enumerate(d)
  local out = {}
  local assign = {}
  local function walk(k)
    if k > #d.axes then
      local c = M.candidate(d, assign)
      if allowed(d, c) then out[#out + 1] = c end
      return
    end
    for i = 1, #d.axes[k].values do
      assign[d.axes[k].key] = i
      walk(k + 1)
    end
  end
  walk(1)
  return out
end

-- A small deterministic generator (splitmix64) of the proposer: its draws
-- depend on the design's seed and what was drawn before, nothing else.
local function rng(seed)
  local s = seed
  return function(n)
    s = s + 0x9e3779b97f4a7c15
    local z = s
    z = (z ~ (z >> 30)) * -4658895280553007687
    z = (z ~ (z >> 27)) * -7723592293110705685
    z = z ~ (z >> 31)
    return (z >> 1) % n + 1
  end
end

-- ---- the experiment of a candidate -------------------------------------------------

-- The candidate's experiment as a file's table (data only when the rules are).
function M.experiment_table(d, c, games)
  return {
    name = c.name, description = c.label, seed = d.seed, games = games or d.round,
    max_plies = d.max_plies, random_plies = d.random_plies, material_every = d.material_every,
    bots = d.bots, strengths = d.strengths, strength_bot = d.strength_bot, limits = d.limits,
    trace = d.trace and "eval" or false, thresholds = d.thresholds, fitted = d.fitted,
    variants = { { name = c.label, rules = c.rules } },
  }
end

function M.experiment(d, c)
  local ok, e = pcall(experiment.normalize, M.experiment_table(d, c), d.path)
  if not ok then errorf("candidate %s: %s", c.label, e) end
  return e
end

-- ---- judging --------------------------------------------------------------------------

function M.estimate(d, recs, target, z)
  return M.MEASURES[target.measure].estimate(recs, z, measures.thresholds(d.thresholds))
end

-- "meets" when the interval lies inside the target, "misses" when it lies
-- outside, nil when it straddles a bound (or the target is a goal).
function M.judge(target, est)
  local lo_t, hi_t
  if target.within then lo_t, hi_t = target.within[1], target.within[2]
  elseif target.at_most then lo_t, hi_t = -math.huge, target.at_most
  elseif target.at_least then lo_t, hi_t = target.at_least, math.huge
  else return nil end
  if est.lo >= lo_t and est.hi <= hi_t then return "meets" end
  if est.hi < lo_t or est.lo > hi_t then return "misses" end
  return nil
end

-- The records of strength s (all when s is nil).
local function of_strength(recs, s)
  if not s then return recs end
  local out = {}
  for _, r in ipairs(recs) do if r.strength == s then out[#out + 1] = r end end
  return out
end

-- Judges candidate c on its records: c.estimates (per test), and c.status
-- "meets" / "rejected" (c.why: the test) or unchanged.
local function judge_candidate(d, c, recs, z)
  c.estimates = {}
  local all_meet, missed = true, nil
  for ti, test in ipairs(d.tests) do
    local est = M.estimate(d, of_strength(recs, test.strength), test.target, z)
    c.estimates[ti] = est
    local verdict = est and M.judge(test.target, est)
    if verdict == "misses" and not missed then missed = ti end
    if verdict ~= "meets" then all_meet = false end
  end
  if missed then c.status, c.why = "rejected", missed
  elseif all_meet then c.status = "meets" end
end

-- The point estimates of the goals (direction targets) at level z.
local function goal_estimates(d, c, recs, z)
  c.goals = {}
  for i, target in ipairs(d.targets) do
    if target.goal then c.goals[i] = M.estimate(d, recs, target, z) end
  end
end

-- ---- playing --------------------------------------------------------------------------

-- Plays candidate c up to n games a strength, in memory (opts.out nil) or
-- into its folder OUT/games/<name> (shard opts.shard of opts.shards; other
-- shards' games are waited for). Returns its records.
local function play(d, c, n, opts, state)
  if opts.play then
    local recs = opts.play(c, n)
    state.played = state.played + (n - c.games) * (d.strengths and #d.strengths or 1)
    return recs
  end
  local e = c.experiment
  if not e then
    e = M.experiment(d, c)
    c.experiment = e
    if e.fitted then
      if not opts.out then errorf("fitted players need a results folder (--out)") end
      require("cheskers.fitted").prepare(e, { out = opts.out, cache = opts.weights_cache or (opts.out .. "/weights"),
                                               steal_lock = opts.steal_lock, waiting = opts.waiting })
    end
  end
  local want = n * #e.variants
  if not opts.out then
    c.recs = c.recs or {}
    if not c.prepared then require("cheskers.selfplay").prepare(e, { sandbox = d.sandbox }) c.prepared = true end
    local have = {}
    for _, r in ipairs(c.recs) do have[r.variant .. "\0" .. r.game] = true end
    for _, v in ipairs(e.variants) do
      for g = 1, n do
        if not have[v.name .. "\0" .. g] then
          c.recs[#c.recs + 1] = require("cheskers.selfplay").play_game(e, v, g, d.seed)
          state.played = state.played + 1
          if opts.tick then opts.tick(state, c) end
        end
      end
    end
    return c.recs
  end
  local dir = opts.out .. "/games/" .. c.name
  local s = require("cheskers.selfplay").run(e, dir, opts.shard or 1, opts.shards or 1,
    { seed = d.seed, games = n, steal_lock = opts.steal_lock, command = opts.command, sandbox = d.sandbox,
      restart = opts.restart and c.looks == 0,
      progress = opts.tick and function() state.played = state.played + 1 opts.tick(state, c) end })
  if not opts.tick then state.played = state.played + s.played end   -- else counted game by game
  local report = require "cheskers.report"
  while true do
    local recs = report.read_dir(dir)
    local count = 0
    for _, r in ipairs(recs) do if r.experiment == c.name and r.game <= n then count = count + 1 end end
    if count >= want then
      local mine = {}
      for _, r in ipairs(recs) do if r.experiment == c.name and r.game <= n then mine[#mine + 1] = r end end
      return mine
    end
    if opts.waiting then opts.waiting(c, count, want) end
    require("cheskers.fitted").sleep(opts.poll or 0.25)
  end
end

-- ---- the proposer -----------------------------------------------------------------------

-- How far a candidate's estimates are from its targets (0: inside every
-- one), the proposer's ranking of candidates.
local function distance(d, c)
  local sum = 0
  for ti, test in ipairs(d.tests) do
    local est, t = c.estimates and c.estimates[ti], test.target
    if est then
      local lo = t.within and t.within[1] or t.at_least or -math.huge
      local hi = t.within and t.within[2] or t.at_most or math.huge
      if est.value < lo then sum = sum + (lo - est.value) elseif est.value > hi then sum = sum + (est.value - hi) end
    end
  end
  return sum
end

local function assign_key(d, a)
  local t = {}
  for _, ax in ipairs(d.axes) do t[#t + 1] = a[ax.key] end
  return table.concat(t, ",")
end

-- Proposes up to k new candidates (not seen before, meeting the
-- constraints): random while fewer than `initial` were tried, else one
-- option of a good candidate changed (a local step: the candidates that meet
-- every target first, then the nearest to the targets), random when no step
-- is new. Deterministic: the draws are the design's (rng).
local function propose(d, state, k)
  local out = {}
  local tries = 0
  local initial = d.initial or math.max(1, d.candidates_max // 3)
  while #out < k and tries < 200 * k do
    tries = tries + 1
    local a = {}
    local ranked = {}
    for _, c in ipairs(state.candidates) do
      if c.estimates then ranked[#ranked + 1] = c end
    end
    if #state.candidates >= initial and #ranked > 0 then
      table.sort(ranked, function(x, y)
        local mx, my = x.status == "meets" and 0 or 1, y.status == "meets" and 0 or 1
        if mx ~= my then return mx < my end
        local dx, dy = distance(d, x), distance(d, y)
        if dx ~= dy then return dx < dy end
        return x.order < y.order
      end)
      local parent = ranked[state.rand(math.min(3, #ranked))]
      for key, i in pairs(parent.assign) do a[key] = i end
      local ax = d.axes[state.rand(#d.axes)]
      a[ax.key] = state.rand(#ax.values)
    else
      for _, ax in ipairs(d.axes) do a[ax.key] = state.rand(#ax.values) end
    end
    local key = assign_key(d, a)
    if not state.seen[key] then
      state.seen[key] = true
      local c = M.candidate(d, a)
      if allowed(d, c) then out[#out + 1] = c end
    end
  end
  return out
end

-- ---- the run ------------------------------------------------------------------------------

-- The result of a run so far (see M.run).
local function result_of(d, state, z, m, look, stopped, seconds)
  local nstr = d.strengths and #d.strengths or 1
  -- a fixed grid at the same error level: one look, so each interval at
  -- alpha / (C T) (z1 < z). With the resolution racing reaches at its last
  -- look (intervals as narrow as after K round games) it plays K round
  -- (z1 / z)^2 games a candidate; an oracle grid that knew beforehand the
  -- games of the hardest decision racing made (n) would play n (z1 / z)^2.
  local z1 = stats.bonferroni_z(d.alpha, d.candidates_max * math.max(1, #d.tests))
  local hardest = 0
  for _, c in ipairs(state.candidates) do
    if (c.status == "meets" or c.status == "rejected") and c.games > hardest then hardest = c.games end
  end
  local per = math.ceil(d.looks * d.round * (z1 / z) ^ 2)
  local oracle = math.ceil(hardest * (z1 / z) ^ 2)
  return {
    design = d, candidates = state.candidates, z = z, m = m, games = state.games, played = state.played,
    grid = #state.candidates * d.looks * d.round * nstr, stopped = stopped, looks = look,
    z_grid = z1, grid_per = per, grid_same = #state.candidates * per * nstr,
    oracle_per = oracle, grid_oracle = #state.candidates * oracle * nstr,
    seconds = seconds,
  }
end

-- The search. opts: out (results folder; nil: games in memory), shard,
-- shards, budget (games, overrides the file's), time (seconds), restart,
-- steal_lock, weights_cache, command, progress(state, look, result so far:
-- candidates still racing have status "racing") after each round,
-- tick(state, c) after each game played (state.played: games played here), waiting(c,
-- have, want), clock (a function, for tests), play (function(c, n) -> the
-- records of c's first n games a strength, made some other way: tests plant
-- a known truth with it). Returns the result:
-- {design = d, candidates (every one tested, in order: label, name, rules,
-- status "meets" | "rejected" | "undecided", why (a test index), games (a
-- strength), looks, estimates, goals), z, m (intervals of the family),
-- games (played in all, over strengths), grid (games of a fixed grid of
-- racing's most games a candidate), grid_same and grid_per (in all, a
-- candidate: a one-look grid at the same error level, intervals at z_grid,
-- as narrow as racing's at its last look), grid_oracle and oracle_per (the
-- same grid as narrow as racing's hardest decision), stopped (nil,
-- "budget" or "time")}.
function M.run(d, opts)
  opts = opts or {}
  local clock = opts.clock or cheskers.clock
  local started = clock()
  local m = d.candidates_max * math.max(1, #d.tests) * d.looks
  local z = stats.bonferroni_z(d.alpha, m)
  local nstr = d.strengths and #d.strengths or 1
  local budget = opts.budget or d.budget_games
  local time = opts.time or d.budget_time
  local state = { candidates = {}, seen = {}, rand = rng(d.seed), played = 0, games = 0 }
  local pending
  if d.enumerated then pending = M.enumerate(d) else pending = {} end
  for _, c in ipairs(pending) do state.seen[assign_key(d, c.assign)] = true end
  local width = math.max(1, math.min(d.candidates_max, opts.width or 8))
  local stopped
  local look = 0
  while true do
    -- the candidates racing: the enumerated ones, or proposals up to width at a time
    if not d.enumerated then
      local racing = 0
      for _, c in ipairs(state.candidates) do if c.status == "racing" then racing = racing + 1 end end
      local room = math.min(width - racing, d.candidates_max - #state.candidates)
      if room > 0 then for _, c in ipairs(propose(d, state, room)) do pending[#pending + 1] = c end end
    end
    for _, c in ipairs(pending) do
      c.status, c.looks, c.games, c.order = "racing", 0, 0, #state.candidates + 1
      state.candidates[#state.candidates + 1] = c
    end
    pending = {}
    local racing = {}
    for _, c in ipairs(state.candidates) do if c.status == "racing" then racing[#racing + 1] = c end end
    if #racing == 0 then break end
    local need = #racing * d.round * nstr
    if budget and state.games + need > budget then stopped = "budget" break end
    if time and clock() - started > time then stopped = "time" break end
    look = look + 1
    for _, c in ipairs(racing) do
      local n = (c.looks + 1) * d.round
      local recs = play(d, c, n, opts, state)
      c.looks, c.games = c.looks + 1, n
      state.games = state.games + d.round * nstr
      judge_candidate(d, c, recs, z)
      goal_estimates(d, c, recs, z)
      if c.status == "racing" and c.looks >= d.looks then c.status = "undecided" end
      c.recs_count = #recs
    end
    if opts.progress then opts.progress(state, look, result_of(d, state, z, m, look, nil, clock() - started)) end
  end
  for _, c in ipairs(state.candidates) do
    if c.status == "racing" then c.status = "undecided" end
    c.recs = nil
  end
  return result_of(d, state, z, m, look, stopped, clock() - started)
end

-- ---- results --------------------------------------------------------------------------------

-- The candidates that meet every target, ranked: by the goals in order
-- (their point estimates), then by distance, then by order.
function M.ranked(result)
  local d = result.design
  local list = {}
  for _, c in ipairs(result.candidates) do if c.status == "meets" then list[#list + 1] = c end end
  table.sort(list, function(x, y)
    for i, t in ipairs(d.targets) do
      if t.goal then
        local a, b = x.goals[i] and x.goals[i].value, y.goals[i] and y.goals[i].value
        if a and b and a ~= b then
          if t.goal == "min" then return a < b end
          return a > b
        end
      end
    end
    return x.order < y.order
  end)
  return list
end

-- The objectives of a candidate for the Pareto front: for each target, the
-- distance of its point estimate from a range or bound, or the goal's
-- value (negated for "max"): smaller is better in each.
local function objectives(d, c)
  local out = {}
  for i, t in ipairs(d.targets) do
    if t.goal then
      local g = c.goals and c.goals[i]
      out[#out + 1] = g and (t.goal == "min" and g.value or -g.value) or math.huge
    else
      local worst = 0
      for k, test in ipairs(d.tests) do
        if test.index == i then
          local est = c.estimates and c.estimates[k]
          if not est then worst = math.huge else
            local lo = t.within and t.within[1] or t.at_least or -math.huge
            local hi = t.within and t.within[2] or t.at_most or math.huge
            local dist = est.value < lo and lo - est.value or est.value > hi and est.value - hi or 0
            if dist > worst then worst = dist end
          end
        end
      end
      out[#out + 1] = worst
    end
  end
  return out
end

-- The Pareto front of every candidate tested (rejected ones too: when none
-- meets every target, the front shows the best trades there are): those no
-- other one beats in every objective (and strictly in one), by their point
-- estimates.
function M.pareto(result)
  local d = result.design
  local list, objs = {}, {}
  for _, c in ipairs(result.candidates) do
    list[#list + 1] = c
    objs[#list] = objectives(d, c)
  end
  local front = {}
  for i, c in ipairs(list) do
    local dominated = false
    for j = 1, #list do
      if j ~= i then
        local all, strict = true, false
        for k = 1, #objs[i] do
          if objs[j][k] > objs[i][k] then all = false break end
          if objs[j][k] < objs[i][k] then strict = true end
        end
        if all and strict then dominated = true break end
      end
    end
    if not dominated then front[#front + 1] = c end
  end
  return front
end

-- Writes each candidate that meets every target as OUT/survivors/<name>.rules
-- (its rules as text) and <name>.lua (an experiment file that `cheskers
-- experiment` replays: the same name, seed, variants and so the same games),
-- after removing the design's survivor files of an earlier run. Returns the
-- list of {candidate, rules, file}.
function M.write_survivors(result, dir)
  local d = result.design
  local ok, err = store.mkdir(dir)
  if not ok then error(err, 0) end
  -- the design's survivors of an earlier run (other targets, another budget) go
  local prefix = d.name .. "-"
  for name in require("lfs").dir(dir) do
    if name:sub(1, #prefix) == prefix and (name:match("%.rules$") or name:match("%.lua$")) then
      os.remove(dir .. "/" .. name)
    end
  end
  local out = {}
  for _, c in ipairs(M.ranked(result)) do
    local text = rulespec.format(c.rules)
    local base = dir .. "/" .. c.name
    store.write_file(base .. ".rules", text .. "\n")
    local t = M.experiment_table(d, c, c.games)
    t.variants[1].rules = text
    store.write_file(base .. ".lua", ("-- %s: a survivor of design %s (%s), replayed by\n"
      .. "--   cheskers experiment %s.lua --out DIR\nreturn %s\n")
      :format(c.label, d.name, d.path or "", c.name, luadata.write(t, { width = 100 })))
    out[#out + 1] = { candidate = c, rules = base .. ".rules", file = base .. ".lua" }
  end
  return out
end

return M
