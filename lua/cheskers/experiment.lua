-- cheskers.experiment - rule experiments: variants played in self-play by
-- bots, one JSON line per game, in shards that can run anywhere; and the
-- statistics that `cheskers report` prints.
--
-- An experiment file (scripts/experiments/*.lua) returns a table:
--   name        = "majority",           -- default: the file name
--   description = "what is compared",
--   games       = 200,                  -- games per variant (--games overrides)
--   seed        = 1,                    -- default seed (--seed overrides)
--   max_plies   = 300,                  -- longer games end as a draw, reason "max_plies"
--   bots        = { white = "builtin-greedy", black = "builtin-greedy" },
--                                        -- or one name for both sides
--   limits      = { nodes = 2000 },     -- passed to every bot's choose()
--   swap_colors = false,                -- true: even games swap the two bots
--   random_plies = 0,                   -- the first N plies are random moves (varied
--                                        -- openings for deterministic bots)
--   branching_every = 1,                -- sample the branching factor every N plies
--   base        = { draw_repetition = 3 },  -- rules shared by every variant
--   variants    = {                     -- compared in this order
--     { name = "majority-on",  rules = { majority = true } },
--     { name = "majority-off", rules = { majority = false }, bots = ..., games = ... },
--   },
--   measures    = { "result", "plies", "reason", "branching", "captures",
--                   "promotions", camel_share = function(game) return ... end },
--   trace       = "eval",               -- the evaluation after every ply: "eval" (the
--                                        -- static evaluation, default), {depth = 2}
--                                        -- (a shallow search) or false (none)
--   material_every = 4,                 -- sample the material every N plies (piece values)
--   thresholds  = { drama = 2, lead = 0.5, killer = 2, doubt = 0.5 },  -- pawns
--   strengths   = { 1, 3, 5 },          -- every variant at each engine level ...
--   strength_bot = "engine:level=%d",   -- ... as this bot for both sides (%d: the strength)
--   sweep       = { camel = { {1,3}, {1,5} }, promote = "subsets" },  -- a grid of rules
-- A variant may also have restrict = { white = "no-bishop-moves" |
-- "no-camel-promotion" | "no-king-moves" | function(board, move) -> ok }
-- (restricted play: that side never plays the moves refused; the restriction
-- is a filter rule, so both sides' searches know of it).
-- Rules are what cheskers.new accepts (a table, which may hold pieces,
-- start and the filter/result hooks, or a preset name); a variant's rules
-- are laid over `base`. `measures` names what the report shows first; a
-- function entry is a measure of its own: called with the game record and
-- the final board at the end of each game, it returns a number the report
-- averages.
--
-- Bots are loaded by cheskers.bots (one spec grammar for every command):
-- "builtin-random" (uniform over the legal moves) and "builtin-greedy"
-- (the moves capturing the most pieces, ties at random) are built in and
-- fast. Any other name is a bot file: NAME.lua in the experiment's ../bots
-- folder, then the bot folders of cheskers.bots, or a path to a .lua file,
-- optionally with options: "alphabeta:depth=2", "engine:level=3,mobility=0"
-- (passed to the bot's configure(opts); numbers as numbers). A bot file returns
-- { name = "...", choose = function(board, limits) return move end,
--   new_game = function(rules) end (optional) }, the move a move object or
-- its text; choose() gets a copy of the board. new_game is called before
-- every game: a bot must not carry state from one game into the next, or
-- games would depend on the order they are played in.
--
-- Determinism: game g of variant v seeds math.random from (seed, v, g)
-- before it starts, and bots draw from math.random, so a game depends on
-- nothing else: not the shard that plays it nor the games before it. Bots
-- limited by time rather than depth or nodes are not deterministic.
--
-- A bot that faults (an error, no move, an illegal move, its time) loses
-- that game (cheskers.game's fault policy); the reason and detail are in
-- its line.
--
-- Shards: the games are numbered 1, 2, ... variant by variant, game by
-- game; shard I of N plays games I, I + N, I + 2N, ... Each shard
-- appends to its own file in the output folder,
-- <experiment>.seed<S>.shard<I>of<N>.jsonl (a cheskers.store file: a
-- header with the fingerprint of the experiment, then one line per
-- finished game, synced). A run first reads every .jsonl file of the
-- folder and skips the games already there (so resuming, or re-running
-- with another shard count, never plays a game twice); a torn last line
-- left by a killed run is dropped from its file. A file of the same
-- experiment and seed made from other inputs (edited variants, bots,
-- rules, limits) is refused, naming what differs, unless opts.restart
-- (--restart) throws the experiment's files away first. The store's lock
-- keeps two runs of one shard from writing it at once.
local cheskers = require "cheskers"
local bots_mod = require "cheskers.bots"
local game_mod = require "cheskers.game"
local store = require "cheskers.store"
local stats = require "cheskers.stats"
local measures = require "cheskers.measures"
local lfs = require "lfs"

local M = {}

M.FILE_VERSION = 1
M.DEFAULTS = {
  games = 100, seed = 1, max_plies = 300, branching_every = 1,
  bots = { white = "builtin-greedy", black = "builtin-greedy" },
}
M.STANDARD_MEASURES = { "result", "plies", "reason", "branching", "captures",
                        "captured", "promotions" }

-- ---- small helpers ----------------------------------------------------------

local function errorf(fmt, ...) error(string.format(fmt, ...), 0) end

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  return keys
end

local function basename(path) return (path:match("([^/]+)$") or path) end
local function dirname(path) return path:match("^(.*)/[^/]*$") or "." end

-- 64-bit FNV-1a of a string, as a Lua integer (wrapping arithmetic).
local function fnv1a(s)
  local h = -3750763034362895579   -- 0xcbf29ce484222325
  for i = 1, #s do
    h = h ~ s:byte(i)
    h = h * 1099511628211
  end
  return h
end

-- The seed of one game: a function of (seed, variant name, game number).
function M.game_seed(seed, variant, game)
  return fnv1a(("%d\0%s\0%d"):format(seed, variant, game))
end

-- ---- result lines -------------------------------------------------------------

local LINE_KEYS = { "v", "experiment", "seed", "variant", "vindex", "game",
                    "white", "black", "first", "result", "reason", "detail", "plies",
                    "captures", "captured", "promotions", "branching",
                    "branching_n", "branching_sum", "measures", "traceback", "family",
                    "strength", "trace", "mat_kinds", "mat", "start", "moves" }

-- One game record as a JSON object on one line (no newline), keys in the
-- order of LINE_KEYS, nested objects sorted by key.
function M.encode_record(rec)
  return store.encode(rec, LINE_KEYS)
end

-- The identity of a game across files and runs.
function M.record_key(rec)
  return ("%s\0%s\0%s\0%s"):format(rec.experiment, tostring(rec.seed),
                                   rec.variant, tostring(rec.game))
end

-- ---- experiment files ----------------------------------------------------------

local function merge_rules(base, rules)
  if rules == nil then rules = {} end
  if type(rules) == "string" then
    if base and next(base) then
      -- a preset over a base: the preset's full table, then the base under it
      local full = cheskers.rules(rules)
      for k, v in pairs(base) do if full[k] == nil then full[k] = v end end
      return full
    end
    return rules
  end
  local r = copy(base or {})
  for k, v in pairs(rules) do r[k] = copy(v) end
  return r
end

local function normalize_bots(spec, where)
  if spec == nil then return nil end
  if type(spec) == "string" then return { white = spec, black = spec } end
  if type(spec) ~= "table" then errorf("%s: bots must be a name or {white=, black=}", where) end
  local w, b = spec.white or spec[1], spec.black or spec[2]
  if type(w) ~= "string" or type(b) ~= "string" then
    errorf("%s: bots needs a white and a black bot name", where)
  end
  return { white = w, black = b }
end

local function positive_int(v, what, allow_zero)
  if math.type(v) ~= "integer" or v < (allow_zero and 0 or 1) then
    errorf("%s must be a whole number >= %d, not %s", what, allow_zero and 0 or 1, tostring(v))
  end
  return v
end

-- The measures of an experiment: e.measures (names, standard ones and the
-- experiment's own) and e.custom ({name, fn} of its own).
local function normalize_measures(e, m, where)
  e.measures, e.custom = {}, {}
  local standard = {}
  for _, name in ipairs(M.STANDARD_MEASURES) do standard[name] = true end
  for _, name in ipairs(m) do
    if not standard[name] then
      errorf("%s: unknown measure '%s' (recorded for every game: %s; add your own as name = function)",
             where, tostring(name), table.concat(M.STANDARD_MEASURES, ", "))
    end
    e.measures[#e.measures + 1] = name
  end
  for _, name in ipairs(sorted_keys(m)) do
    if math.type(name) ~= "integer" then
      if type(m[name]) ~= "function" then
        errorf("%s: measure '%s' must be a function(game) returning a number", where, tostring(name))
      end
      e.custom[#e.custom + 1] = { name = name, fn = m[name] }
      e.measures[#e.measures + 1] = name
    end
  end
end

-- ---- design research: restrictions, sweeps, strengths, traces --------------------

-- Named restrictions of restricted play (after Jaffe et al. 2012): a move
-- filter for the restricted side.
M.RESTRICTIONS = {
  ["no-bishop-moves"] = function(_, m) return m.piece ~= "B" end,
  ["no-camel-promotion"] = function(_, m) return m.promotion ~= "C" end,
  ["no-king-moves"] = function(_, m) return m.piece ~= "K" end,
}

local function restriction_fn(r, where)
  if type(r) == "function" then return r end
  local fn = M.RESTRICTIONS[r]
  if not fn then
    local names = sorted_keys(M.RESTRICTIONS)
    local near = cheskers.closest and cheskers.closest(tostring(r), names)
    errorf("%s: unknown restriction '%s'%s (known: %s, or a function(board, move))", where,
           tostring(r), near and ("; did you mean '" .. near .. "'?") or "", table.concat(names, ", "))
  end
  return fn
end

-- The rules with restrict = {white =, black =} added as a filter rule (after
-- the variant's own filter, if any).
local function restricted_rules(rules, restrict, where)
  if restrict == nil then return rules end
  if type(restrict) ~= "table" or type(rules) ~= "table" then
    errorf("%s: restrict must be {white = ..., black = ...} over a rule table", where)
  end
  local side = {}
  for color, r in pairs(restrict) do
    if color ~= "white" and color ~= "black" then
      errorf("%s: restrict takes white and black, not '%s'", where, tostring(color))
    end
    side[color] = restriction_fn(r, where)
  end
  local own = rules.filter
  rules.filter = function(board, move)
    if own and not own(board, move) then return false end
    local f = side[board:turn()]
    return f == nil or f(board, move) and true or false
  end
  return rules
end

-- Every non-empty subset of the letters of s, in order of size then text.
local function subsets(s)
  local out = {}
  local n = #s
  for mask = 1, (1 << n) - 1 do
    local t = {}
    for i = 1, n do if mask & (1 << (i - 1)) ~= 0 then t[#t + 1] = s:sub(i, i) end end
    out[#out + 1] = table.concat(t)
  end
  table.sort(out, function(a, b) if #a ~= #b then return #a < #b end return a < b end)
  return out
end

-- One sweep axis: list of {label, apply(rules)}. "camel" sets the camel's
-- leap vectors (each value one {a, b}); any other key is a rule option;
-- promote = "subsets" means every non-empty subset of K, B and C.
local function sweep_axis(key, values, where)
  if key == "promote" and values == "subsets" then values = subsets("KBC") end
  if type(values) ~= "table" or #values == 0 then
    errorf("%s: sweep.%s must be a list of values", where, tostring(key))
  end
  local axis = {}
  for _, v in ipairs(values) do
    local label, apply
    if key == "camel" then
      if type(v) ~= "table" or math.type(v[1]) ~= "integer" or math.type(v[2]) ~= "integer" then
        errorf("%s: sweep.camel values are leap vectors {a, b}", where)
      end
      label = ("camel=%d-%d"):format(v[1], v[2])
      apply = function(r)
        r.pieces = r.pieces or {}
        r.pieces.C = { leaps = { { v[1], v[2] } } }
      end
    else
      label = ("%s=%s"):format(key, tostring(v))
      apply = function(r) r[key] = copy(v) end
    end
    axis[#axis + 1] = { label = label, apply = apply }
  end
  return axis
end

-- The variants of exp.sweep: the grid of every combination of the axes
-- (keys in sorted order), laid over each listed variant (or one plain
-- variant), named "<variant>:<key>=<value>,...".
local function expand_sweep(exp, where)
  if exp.sweep == nil then return exp.variants end
  if type(exp.sweep) ~= "table" then errorf("%s: sweep must be a table key -> values", where) end
  local grid = { { labels = {}, applies = {} } }
  for _, key in ipairs(sorted_keys(exp.sweep)) do
    local next_grid = {}
    for _, cell in ipairs(grid) do
      for _, step in ipairs(sweep_axis(key, exp.sweep[key], where)) do
        local c = { labels = { table.unpack(cell.labels) }, applies = { table.unpack(cell.applies) } }
        c.labels[#c.labels + 1] = step.label
        c.applies[#c.applies + 1] = step.apply
        next_grid[#next_grid + 1] = c
      end
    end
    grid = next_grid
  end
  local out = {}
  for _, v in ipairs(exp.variants or { { name = "" } }) do
    for _, cell in ipairs(grid) do
      local nv = copy(v)
      if type(nv.rules) ~= "table" then nv.rules = nv.rules and cheskers.rules(nv.rules) or {} end
      for _, apply in ipairs(cell.applies) do apply(nv.rules) end
      local label = table.concat(cell.labels, ",")
      nv.name = v.name ~= "" and (v.name .. ":" .. label) or label
      nv.restrict = v.restrict
      out[#out + 1] = nv
    end
  end
  return out
end

-- The variants of exp.strengths: each variant once per strength, named
-- "<variant>@<strength>", both sides playing strength_bot (default
-- "engine:level=%d") at that strength.
local function expand_strengths(variants, exp, where)
  if exp.strengths == nil then return variants end
  if type(exp.strengths) ~= "table" or #exp.strengths == 0 then
    errorf("%s: strengths must be a list of numbers (engine levels or node budgets)", where)
  end
  local pattern = exp.strength_bot or "engine:level=%d"
  if type(pattern) ~= "string" or not pattern:find("%d", 1, true) then
    errorf("%s: strength_bot must be a bot spec with %%d for the strength", where)
  end
  local out = {}
  for _, v in ipairs(variants) do
    for _, s in ipairs(exp.strengths) do
      if math.type(s) ~= "integer" or s < 1 then errorf("%s: strengths must be whole numbers >= 1", where) end
      local nv = copy(v)
      nv.restrict = v.restrict
      nv.name, nv.family, nv.strength = ("%s@%d"):format(v.name, s), v.name, s
      nv.bots = pattern:format(s)
      out[#out + 1] = nv
    end
  end
  return out
end

-- The trace option: nil (none), {kind = "eval"} or {kind = "search", depth = d}.
local function normalize_trace(t, where)
  if t == false then return nil end
  if t == nil or t == "eval" then return { kind = "eval" } end
  if type(t) == "table" and math.type(t.depth) == "integer" and t.depth >= 1 and t.depth <= 6 then
    return { kind = "search", depth = t.depth }
  end
  errorf("%s: trace must be \"eval\", {depth = 1..6} or false, not %s", where, tostring(t))
end

-- The variants, their rules laid over the base, bots, games and limits.
local function normalize_variants(e, variants, where)
  if type(variants) ~= "table" or #variants == 0 then
    errorf("%s: needs a list of variants", where)
  end
  e.variants = {}
  local seen = {}
  for i, v in ipairs(variants) do
    local vw = ("%s: variant %d"):format(where, i)
    if type(v) ~= "table" or type(v.name) ~= "string" or v.name == "" then
      errorf("%s needs a name", vw)
    end
    if seen[v.name] then errorf("%s: two variants named '%s'", where, v.name) end
    seen[v.name] = true
    local rules = v.rules
    if rules ~= nil and type(rules) ~= "table" and type(rules) ~= "string" then
      errorf("%s (%s): rules must be a table or a preset name", vw, v.name)
    end
    e.variants[i] = {
      name = v.name, index = i,
      description = v.description,
      rules = restricted_rules(merge_rules(e.base, rules), v.restrict, vw),
      restrict = v.restrict,
      bots = normalize_bots(v.bots, vw) or e.bots,
      games = v.games and positive_int(v.games, vw .. ": games", true) or e.games,
      limits = v.limits or e.limits,
      family = v.family or v.name, strength = v.strength,
    }
  end
end

-- Checks and completes an experiment table. path: for messages and the
-- default name and bot folder.
function M.normalize(exp, path)
  local where = path or "experiment"
  if type(exp) ~= "table" then errorf("%s: must return a table", where) end
  local e = {}
  e.path = path
  e.name = exp.name or (path and basename(path):gsub("%.lua$", "")) or "experiment"
  if type(e.name) ~= "string" or not e.name:match("^[%w_%-%.]+$") then
    errorf("%s: name '%s' must be letters, digits, '_', '-' or '.'", where, tostring(e.name))
  end
  e.description = exp.description or ""
  e.games = positive_int(exp.games or M.DEFAULTS.games, where .. ": games", true)
  e.seed = exp.seed or M.DEFAULTS.seed
  if math.type(e.seed) ~= "integer" then errorf("%s: seed must be an integer", where) end
  e.max_plies = positive_int(exp.max_plies or M.DEFAULTS.max_plies, where .. ": max_plies")
  e.branching_every = positive_int(exp.branching_every or M.DEFAULTS.branching_every,
                                   where .. ": branching_every")
  e.bots = normalize_bots(exp.bots, where) or copy(M.DEFAULTS.bots)
  e.limits = exp.limits or {}
  e.swap_colors = exp.swap_colors and true or false
  e.random_plies = positive_int(exp.random_plies or 0, where .. ": random_plies", true)
  e.base = exp.base
  if e.base ~= nil and type(e.base) ~= "table" then errorf("%s: base must be a rule table", where) end
  normalize_measures(e, exp.measures or M.STANDARD_MEASURES, where)
  e.trace = normalize_trace(exp.trace, where)
  e.material_every = positive_int(exp.material_every or 4, where .. ": material_every")
  local okt, th = pcall(measures.thresholds, exp.thresholds)
  if not okt then errorf("%s: %s", where, th) end
  e.thresholds, e.thresholds_pawns = th, exp.thresholds
  e.strengths = exp.strengths
  local variants = expand_strengths(expand_sweep(exp, where), exp, where)
  normalize_variants(e, variants, where)
  return e
end

-- Reads an experiment file. opts.sandbox (--sandbox; a table: the box's
-- limits): the file runs in an untrusted box (cheskers.sandbox.load_file)
-- and its functions (rule hooks, measures) are called through that box:
-- hooks under the light limits of a wrapped call (they run inside bots'
-- boxes too), measures under all the box's limits.
function M.load(path, opts)
  if opts and opts.sandbox then
    local limits = {}
    for k, v in pairs(type(opts.sandbox) == "table" and opts.sandbox or {}) do limits[k] = v end
    limits.capped = function(keys) return keys[1] == "measures" end
    limits.label = function(keys) return keys[1] ~= "measures" and keys[#keys] .. " hook" or nil end
    local exp, err = require("cheskers.sandbox").load_file(path, limits)
    if exp == nil then errorf("%s", err) end
    return M.normalize(exp, path)
  end
  local chunk, err = loadfile(path, "t")
  if not chunk then errorf("%s", err) end
  local ok, exp = pcall(chunk)
  if not ok then errorf("%s: %s", path, tostring(exp)) end
  return M.normalize(exp, path)
end

-- Raises unless every variant's rules make a board.
function M.check_rules(e)
  for _, v in ipairs(e.variants) do
    local ok, err = pcall(cheskers.new, nil, v.rules)
    if not ok then errorf("variant %s: %s", v.name, tostring(err)) end
  end
end

-- ---- the schedule ---------------------------------------------------------------

-- "2/4" -> 2, 4 (raises on a bad shard).
function M.parse_shard(text)
  local i, n = tostring(text):match("^(%d+)/(%d+)$")
  i, n = tonumber(i), tonumber(n)
  if not i or n < 1 or i < 1 or i > n then
    errorf("shard must be I/N with 1 <= I <= N, not '%s'", tostring(text))
  end
  return math.tointeger(i), math.tointeger(n)
end

-- The games of shard i of n: list of {variant = v, game = g}, in order.
function M.schedule(e, shard, nshards)
  shard, nshards = shard or 1, nshards or 1
  local list, k = {}, 0
  for _, v in ipairs(e.variants) do
    for g = 1, v.games do
      k = k + 1
      if (k - 1) % nshards == shard - 1 then list[#list + 1] = { variant = v, game = g } end
    end
  end
  return list
end

-- ---- one game --------------------------------------------------------------------

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
local function material_kinds(b)
  local seen = {}
  for ch in b:fen():match("^%S+"):gmatch("%a") do seen[ch:upper()] = true end
  local promote = b:rules().promote
  if type(promote) == "string" then
    for ch in promote:gmatch("%a") do seen[ch:upper()] = true end
  end
  return table.concat(sorted_keys(seen))
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

-- The observer that counts what the record holds: branching (sampled every
-- e.branching_every plies), captures by kind, pieces lost, promotions, the
-- evaluation trace and the material samples.
local function counter(e, rec)
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

-- The experiment's own measures of a finished game.
local function custom_measures(e, rec, b)
  if #e.custom == 0 then return end
  rec.measures = {}
  for _, c in ipairs(e.custom) do
    local ok, val = pcall(c.fn, rec, b)
    if not ok then errorf("measure %s: %s", c.name, tostring(val)) end
    if type(val) ~= "number" then errorf("measure %s returned %s, not a number", c.name, type(val)) end
    rec.measures[c.name] = val
  end
end

local function new_record(e, v, g, seed, b, names)
  return {
    v = M.FILE_VERSION, experiment = e.name, seed = seed, variant = v.name,
    vindex = v.index, game = g, white = names.white, black = names.black,
    first = b:turn(), captures = {}, captured = {}, promotions = {},
    branching_n = 0, branching_sum = 0, family = v.family ~= v.name and v.family or nil,
    strength = v.strength, trace = e.trace and {} or nil, mat_kinds = material_kinds(b), mat = {},
  }
end

-- Plays game g of variant v (normalized, bots loaded into v.botobj) and
-- returns its record (see LINE_KEYS). The game is a function of
-- (seed, v.name, g) alone.
function M.play_game(e, v, g, seed, with_moves)
  seed = seed or e.seed
  local b = cheskers.new(nil, v.rules)
  local names = { white = v.bots.white, black = v.bots.black }
  local bots = { white = v.botobj.white, black = v.botobj.black }
  if e.swap_colors and g % 2 == 0 then
    names.white, names.black = names.black, names.white
    bots.white, bots.black = bots.black, bots.white
  end
  local rec = new_record(e, v, g, seed, b, names)
  if with_moves then rec.start = b:fen() end
  local res = game_mod.play {
    white = bots.white, black = bots.black, board = b, seed = { M.game_seed(seed, v.name, g) },
    random_plies = e.random_plies, limits = v.limits, max_plies = e.max_plies,
    repetition = 0, on_ply = counter(e, rec),
    record_moves = with_moves and true or false,
  }
  rec.result, rec.reason, rec.plies = res.winner, tostring(res.reason), res.plies
  rec.detail, rec.traceback = res.detail, res.traceback
  if with_moves then rec.moves = res.moves end
  if e.trace then rec.trace[#rec.trace + 1] = M.trace_value(b, e.trace) end
  local bn, bsum = rec.branching_n, rec.branching_sum
  rec.branching = bn > 0 and math.floor(bsum / bn * 1000 + 0.5) / 1000 or 0
  custom_measures(e, rec, b)
  return rec
end

-- ---- output folders ----------------------------------------------------------------

-- The .jsonl files of a folder, sorted.
function M.result_files(dir)
  local files = {}
  if lfs.attributes(dir, "mode") ~= "directory" then return files end
  for name in lfs.dir(dir) do
    if name:match("%.jsonl$") then files[#files + 1] = dir .. "/" .. name end
  end
  table.sort(files)
  return files
end

local function is_game(rec)
  return rec.experiment and rec.variant and math.type(rec.game) == "integer"
end

-- Reads the records of one file: list of records, number of unreadable
-- lines, whether the file ends with a torn line (no final newline), and
-- the header (nil for a file without one).
function M.read_file(path)
  local header, results, torn, bad = store.read(path)
  local recs = {}
  for _, r in ipairs(results) do
    if is_game(r) then recs[#recs + 1] = r else bad = bad + 1 end
  end
  if torn then bad = bad + 1 end
  return recs, bad, torn, header
end

function M.shard_file(dir, e, seed, shard, nshards)
  return ("%s/%s.seed%d.shard%dof%d.jsonl"):format(dir, e.name, seed, shard, nshards)
end

-- Checks the variants' rules and loads their bots (into v.botobj): what
-- play_game needs. opts.sandbox: bot files in untrusted boxes.
function M.prepare(e, opts)
  M.check_rules(e)
  local lopts = { dirs = e.path and { dirname(e.path) .. "/../bots" } or nil,
                  sandbox = opts and opts.sandbox }
  for _, v in ipairs(e.variants) do
    v.botobj = { white = bots_mod.load(v.bots.white, lopts), black = bots_mod.load(v.bots.black, lopts) }
  end
  return e
end

-- What produced an experiment's games: a file made from other inputs is
-- refused. The number of games is left out (it may grow).
function M.fingerprint(e, seed)
  local variants = {}
  for i, v in ipairs(e.variants) do
    variants[i] = { name = v.name, rules = v.rules, white = v.bots.white, black = v.bots.black,
                    restrict = v.restrict,
                    limits = v.limits }
  end
  local custom = {}
  for _, c in ipairs(e.custom) do custom[c.name] = c.fn end
  return store.plain {
    experiment = e.name, seed = seed, max_plies = e.max_plies, random_plies = e.random_plies,
    swap_colors = e.swap_colors, branching_every = e.branching_every, variants = variants,
    measures = custom, trace = e.trace, material_every = e.material_every,
    thresholds = e.thresholds_pawns,
  }
end

-- The games each variant is to have: the plan kept in the file headers.
-- command: the command line that ran it (shown by the HTML report).
function M.plan(e, shard, nshards, command)
  local games = {}
  for _, v in ipairs(e.variants) do games[#games + 1] = { variant = v.name, games = v.games } end
  return { variants = games, shard = shard, shards = nshards, command = command }
end

-- Whether a file holds games of experiment e with this seed.
local function ours(e, seed, path, header, recs)
  if header and header.fingerprint then
    return header.fingerprint.experiment == e.name and header.fingerprint.seed == seed
  end
  for _, r in ipairs(recs) do
    if r.experiment == e.name and r.seed == seed then return true end
  end
  return path:match("/" .. e.name:gsub("%p", "%%%0") .. "%.seed" .. seed .. "%.shard%d+of%d+%.jsonl$") ~= nil
end

-- The keys of the games already in the folder (every file of experiment
-- e and this seed is checked against the fingerprint); with restart, the
-- experiment's files are removed instead.
local function games_done(e, seed, dir, restart, fingerprint)
  local done = {}
  for _, path in ipairs(M.result_files(dir)) do
    local recs, _, _, header = M.read_file(path)
    if ours(e, seed, path, header, recs) then
      if restart then
        os.remove(path)
      else
        store.check_header(path, header, { kind = "experiment", fingerprint = fingerprint })
        for _, rec in ipairs(recs) do done[M.record_key(rec)] = true end
      end
    end
  end
  return done
end

local function todo_list(e, seed, shard, nshards, done)
  local todo = {}
  local list = M.schedule(e, shard, nshards)
  for _, item in ipairs(list) do
    local key = M.record_key({ experiment = e.name, seed = seed, variant = item.variant.name,
                               game = item.game })
    if not done[key] then todo[#todo + 1] = item end
  end
  return todo, #list
end

local function play_todo(e, seed, todo, st, summary, opts)
  for _, item in ipairs(todo) do
    if opts.stop and opts.stop() then break end
    local okg, rec = pcall(M.play_game, e, item.variant, item.game, seed, opts.moves)
    if not okg then
      if cheskers.error_code(rec) == "interrupted" then error(rec, 0) end
      errorf("variant %s, game %d: %s", item.variant.name, item.game, tostring(rec))
    end
    st:append(rec)
    summary.played = summary.played + 1
    if opts.progress then opts.progress(summary.skipped + summary.played, summary.total, rec) end
  end
end

-- Runs shard `shard` of `nshards` of experiment e into folder dir.
-- opts: seed, games (overrides every variant's count), moves (record the
-- start position and the moves of each game), restart (throw away the
-- experiment's games in dir first), sandbox (bot files in untrusted boxes),
-- progress (function(done, total, rec) or nil), stop (function returning
-- true to stop early), command (the command line, kept in the file
-- header). Returns a summary {played =, skipped =, total =, file =}. An
-- error (an interruption included) leaves every finished game recorded.
function M.run(e, dir, shard, nshards, opts)
  opts = opts or {}
  local seed = opts.seed or e.seed
  if opts.games then
    for _, v in ipairs(e.variants) do v.games = opts.games end
  end
  M.prepare(e, opts)
  local ok_dir, derr = store.mkdir(dir)
  if not ok_dir then error(derr, 0) end
  local out = M.shard_file(dir, e, seed, shard, nshards)
  local fingerprint = M.fingerprint(e, seed)
  local lock = store.lock(out, opts.steal_lock)    -- held while the folder is read and cleared, then by the store
  local okd, done = pcall(games_done, e, seed, dir, opts.restart, fingerprint)
  if not okd then store.unlock(lock) error(done, 0) end
  local st = store.open { path = out, kind = "experiment", fingerprint = fingerprint, lock = lock,
                          key = M.record_key, order = LINE_KEYS,
                          plan = M.plan(e, shard, nshards, opts.command),
                          sync_every = 1 }   -- fsync once a second: short games (store.lua)
  local todo, total = todo_list(e, seed, shard, nshards, done)
  local summary = { total = total, skipped = total - #todo, played = 0, file = out }
  local ok, err = pcall(play_todo, e, seed, todo, st, summary, opts)
  st:close()
  if not ok then error(err, 0) end
  return summary
end

-- ---- reading a folder -------------------------------------------------------------

-- The shards of a split run that have no file: "shard 2/3 (no file)".
local function missing_shards(files)
  local present, splits = {}, {}
  for _, f in ipairs(files) do
    local plan, fp = f.header and f.header.plan, f.header and f.header.fingerprint
    if plan and fp and plan.shards then
      local run = fp.experiment .. "\0" .. tostring(fp.seed) .. "\0" .. plan.shards
      splits[run] = plan.shards
      present[run .. "\0" .. plan.shard] = true
    end
  end
  local out = {}
  for _, run in ipairs(sorted_keys(splits)) do
    for i = 1, splits[run] do
      if not present[run .. "\0" .. i] then
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
    local plan = f.header and f.header.plan
    local fp = f.header and f.header.fingerprint
    if plan and fp and plan.shards then
      local key = fp.experiment .. " (seed " .. tostring(fp.seed) .. ")"
      local k, mine = 0, 0
      want[key] = want[key] or 0
      local total = 0
      for _, v in ipairs(plan.variants or {}) do
        for _ = 1, v.games do
          k = k + 1
          if (k - 1) % plan.shards == plan.shard - 1 then mine = mine + 1 end
        end
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

-- All records of a folder, one per game (duplicates dropped), sorted by
-- experiment, seed, variant order and game. Also returns warnings: lines
-- unreadable, games recorded twice with different outcomes, and games
-- missing from what the runs planned. Third: the files read, a list of
-- {path =, header =}.
function M.read_dir(dir)
  local seen, recs, warnings, files, found = {}, {}, {}, {}, {}
  local paths = M.result_files(dir)
  if #paths == 0 then warnings[#warnings + 1] = "no .jsonl files in " .. dir end
  local conflicts = 0
  for _, path in ipairs(paths) do
    local list, bad, _, header = M.read_file(path)
    files[#files + 1] = { path = path, header = header, recs = list }
    if bad > 0 then
      warnings[#warnings + 1] = ("%s: %d unreadable line(s) skipped"):format(path, bad)
    end
    local th = header and header.fingerprint and header.fingerprint.thresholds
    for _, rec in ipairs(list) do
      if type(th) == "table" then rec.thresholds = th end
      local key = M.record_key(rec)
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
            white = 0, black = 0, draw = 0, lengths = {}, bsum = 0, bn = 0,
            reasons = {}, captures = {}, captured = {}, promotions = {},
            msum = {}, mn = {}, bots = {}, first = {}, recs = {},
            family = r.family or r.variant, strength = r.strength }
      groups[key] = g
      order[#order + 1] = g
    end
    g.seeds[r.seed] = true
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
      g.msum[k] = (g.msum[k] or 0) + x
      g.mn[k] = (g.mn[k] or 0) + 1
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
local function pad(s, n) return s .. string.rep(" ", math.max(0, n - #s)) end
local function diff_text(d, lo, hi, significant)
  local sig = significant and "*" or " "
  return ("%+5.1f [%+5.1f, %+5.1f]%s"):format(d, lo, hi, sig)
end
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

local function rates_section(say, list, w)
  say("%s %6s  %-22s  %-22s  %s", pad("variant", w), "games",
      "white wins [95% CI]", "black wins [95% CI]", "draws [95% CI]")
  for _, h in ipairs(list) do
    say("%s %6d  %-22s  %-22s  %s", pad(h.variant, w), h.games,
        rate_text(h.rates.white), rate_text(h.rates.black), rate_text(h.rates.draw))
  end
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

-- Every variant against its base: a list of rows {variant =, base =, group =,
-- cells = {white, black, draw, plies}}, each cell {d, lo, hi (unadjusted
-- 95%: Newcombe for rates, Welch for the mean length), p, p_holm, sig}; sig
-- when Holm's adjusted p < 0.05 over every test of the list. Also returns
-- the number of tests.
function M.compare(list)
  local base, rows, cells = base_of(list), {}, {}
  for _, h in ipairs(list) do
    local b = base(h)
    if b then
      local row = { variant = h.variant, base = b.variant, group = h, cells = {} }
      for _, side in ipairs({ "white", "black", "draw" }) do
        local d, lo, hi = stats.newcombe(h[side], h.games, b[side], b.games)
        row.cells[side] = { d = d, lo = lo, hi = hi, p = stats.p_proportions(h[side], h.games, b[side], b.games) }
      end
      local d, lo, hi = stats.welch(h.plies.mean, h.plies_var, h.games, b.plies.mean, b.plies_var, b.games)
      row.cells.plies = { d = d or h.plies.mean - b.plies.mean, lo = lo, hi = hi,
                          p = stats.p_welch(h.plies.mean, h.plies_var, h.games, b.plies.mean, b.plies_var, b.games) }
      for _, k in ipairs(M.COMPARED) do cells[#cells + 1] = row.cells[k] end
      rows[#rows + 1] = row
    end
  end
  local ps = {}
  for i, c in ipairs(cells) do ps[i] = c.p end
  for i, adj in ipairs(stats.holm(ps)) do cells[i].p_holm, cells[i].sig = adj, adj < 0.05 end
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

-- The standard error of an estimate from its 95% interval.
local function se_of(m) return (m.hi - m.lo) / (2 * stats.Z95) end

-- How a measure moves from the weakest to the strongest play: "holds" (no
-- significant change), "grows", "shrinks", or "vanishes" (the weakest's
-- interval excludes 0, the strongest's does not).
function M.trend(weak, strong)
  if not weak or not strong then return "-" end
  local se = math.sqrt(se_of(weak) ^ 2 + se_of(strong) ^ 2)
  local z = se > 0 and (strong.value - weak.value) / se or 0
  if (weak.lo > 0 or weak.hi < 0) and strong.lo <= 0 and strong.hi >= 0 then return "vanishes" end
  if math.abs(z) < stats.Z95 then return "holds" end
  return math.abs(strong.value) > math.abs(weak.value) and "grows" or "shrinks"
end

-- What a family's difference from the base does across strengths (from
-- compare()'s rows, on White's win rate): "every strength", "weak play
-- only", "strong play only", "some strengths" or "none".
function M.effect_verdict(sigs)
  local n, first, last = 0, sigs[1], sigs[#sigs]
  for _, x in ipairs(sigs) do if x then n = n + 1 end end
  if n == 0 then return "none" end
  if n == #sigs then return "every strength" end
  if first and not last then return "weak play only" end
  if last and not first then return "strong play only" end
  return "some strengths"
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

local function differences_section(say, list, w)
  if #list < 2 then return end
  local rows, tests = M.compare(list)
  if #rows == 0 then return end
  say("")
  say("%s %6s  %-22s  %-22s  %-22s  %s", pad("vs base", w), "", "white wins",
      "black wins", "draws", "mean plies")
  for _, row in ipairs(rows) do
    local t = {}
    for i, k in ipairs(M.COMPARED) do
      local c = row.cells[k]
      t[i] = c.lo and diff_text((k == "plies" and 1 or 100) * c.d, (k == "plies" and 1 or 100) * c.lo,
                                (k == "plies" and 1 or 100) * c.hi, c.sig)
             or ("%+5.1f"):format(c.d)
    end
    say("%s %6s  %-22s  %-22s  %-22s  %s", pad(row.variant, w), "", t[1], t[2], t[3], t[4])
  end
  say("(differences from %s%s: rates in points, Newcombe 95%% CI; mean length in plies,",
      list[1].family, list[1].strength and " at the same strength" or "")
  say(" Welch 95%% CI; * significant after Holm's correction over these %d tests,", tests)
  say(" family-wise error 5%%; the intervals are not adjusted)")
  local pw = M.power(list, tests)
  say("power: %d games per variant detect %d points of White's win rate (from %.1f%%) with 80%% power at",
      pw.n, math.floor(pw.delta * 100 + 0.5), 100 * pw.p)
  say(" the 5%% level, %d at Holm's first level (5%%/%d); this experiment has %d per variant",
      pw.n_holm, tests, pw.games)
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

local function pieces_section(say, list, w)
  local any = false
  for _, h in ipairs(list) do if h.pieces then any = true end end
  if not any then return end
  say("")
  say("piece values in pawns (logistic fit of the result on material, 95%% CI by the delta method,")
  say(" standard errors clustered by game)")
  for _, h in ipairs(list) do
    if h.pieces then
      local parts = {}
      for _, k in ipairs(h.pieces.kinds) do
        if k ~= "P" then parts[#parts + 1] = ("%s %s"):format(k, interval_text(h.pieces.values[k])) end
      end
      say("%s %s  (%d positions of %d games)", pad(h.variant, w),
          #parts > 0 and table.concat(parts, "  ") or "-", h.pieces.positions, h.pieces.games)
    else
      say("%s - (%s)", pad(h.variant, w), tostring(h.pieces_why))
    end
  end
end

local function strengths_section(say, list, w)
  local fams = M.families(list)
  if #fams[1].groups < 2 then return end
  local rows = M.compare(list)
  local sig = {}
  for _, row in ipairs(rows) do sig[row.variant] = row.cells.white.sig or row.cells.black.sig end
  say("")
  say("strength dependence (weakest -> strongest: holds, grows, shrinks or vanishes)")
  for _, f in ipairs(fams) do
    local weak, strong = f.groups[1], f.groups[#f.groups]
    local parts = {}
    for _, name in ipairs(measures.NAMES) do
      parts[#parts + 1] = ("%s %s"):format(name, M.trend(weak.design[name], strong.design[name]))
    end
    say("%s %s", pad(f.family, w), table.concat(parts, ", "))
    if f ~= fams[1] then
      local sigs = {}
      for i, h in ipairs(f.groups) do sigs[i] = sig[h.variant] or false end
      say("%s win rates differ from %s: %s", pad("", w), fams[1].family, M.effect_verdict(sigs))
    end
  end
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
    if next(h.measures) then
      local ms = {}
      for _, k in ipairs(sorted_keys(h.measures)) do ms[#ms + 1] = ("%s %.3f"):format(k, h.measures[k]) end
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

-- The report text for summarize()'s list.
function M.format_report(groups)
  local out = {}
  local function say(fmt, ...) out[#out + 1] = fmt:format(...) end
  local w = 12
  for _, g in ipairs(groups) do w = math.max(w, #g.variant, 3 + #g.variant) end
  for _, list in ipairs(by_experiment(groups)) do
    local games = 0
    for _, h in ipairs(list) do games = games + h.games end
    if #out > 0 then say("") end
    say("experiment %s: %d variant%s, %d games", list.name, #list, #list == 1 and "" or "s", games)
    say("")
    rates_section(say, list, w)
    differences_section(say, list, w)
    lengths_section(say, list, w)
    endings_section(say, list, w)
    design_section(say, list, w)
    pieces_section(say, list, w)
    strengths_section(say, list, w)
  end
  if #out == 0 then out[1] = "no games" end
  return table.concat(out, "\n") .. "\n"
end

return M
