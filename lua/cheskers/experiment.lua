-- cheskers.experiment - the experiment file and its design: the one reader
-- of scripts/experiments/*.lua (checked against the schema below, with
-- cheskers.schema), the sweeps, strengths and restrictions it expands into
-- variants, and the identity of a game of it. Playing the games is
-- cheskers.selfplay's, reading them back and the statistics
-- cheskers.report's.
--
-- An experiment file returns a table (docs/guide/experiments.md has the table of
-- fields; tests/library/experiment_spec.lua checks that it names these and no others):
--   name        = "majority",           -- default: the file name
--   description = "what is compared",
--   games       = 200,                  -- games per variant (--games overrides)
--   seed        = 1,                    -- default seed (--seed overrides)
--   max_plies   = 300,                  -- longer games end as a draw, reason "max_plies"
--   bots        = { white = "builtin-greedy", black = "builtin-greedy" },
--                                        -- or one name for both sides
--   limits      = { nodes = 2000 },     -- passed to every bot's choose() (nodes, time)
--   swap_colors = false,                -- true: even games swap the two bots
--   random_plies = 0,                   -- the first N plies are random moves (varied
--                                        -- openings for deterministic bots)
--   branching_every = 1,                -- sample the branching factor every N plies
--   base        = { draw_repetition = 3 },  -- rules shared by every variant
--   variants    = {                     -- compared in this order
--     { name = "majority-on",  rules = { majority = true } },
--     { name = "majority-off", rules = "majority=false", bots = ..., games = ...,
--       limits = ..., description = ..., restrict = ... },
--   },
--   measures    = { "result", "plies", "reason", "branching", "captures",
--                   "promotions", camel_share = function(game, board) return ... end },
--   trace       = "eval",               -- the evaluation after every ply: "eval" (the
--                                        -- static evaluation, default), {depth = 2}
--                                        -- (a shallow search) or false (none)
--   material_every = 4,                 -- sample the material every N plies (piece values)
--   thresholds  = { drama = 2, lead = 0.5, killer = 2, doubt = 0.5 },  -- pawns
--   strengths   = { 1, 3, 5 },          -- every variant at each engine level ...
--   strength_bot = "engine:level=%d",   -- ... as this bot for both sides (%d: the strength)
--   sweep       = { camel = { {1,3}, {1,5} }, promote = "subsets" },  -- a grid of rules
--   fitted      = { games = 1000, nodes = 1000, seed = 1 },  -- or true: every variant
--                                        -- played by the engine with weights fitted to
--                                        -- its rules (cheskers.fitted; engine bots only)
-- A field nobody declared is an error naming where it is and the nearest
-- known name ("variant 2 ('backward'): unknown field 'rule' (did you mean
-- 'rules'?)"); a wrong value is echoed with what is allowed.
--
-- Rules: a variant's rules (a rule table, which may hold pieces, start and
-- the filter/result hooks; a preset name; or rules text) are composed over
-- base by rulespec.compose: base, then what the preset changes, then the
-- variant's own settings. restrict = { white = "no-bishop-moves" |
-- "no-camel-promotion" | "no-king-moves" | function(board, move) -> ok }
-- is restricted play: that side never plays the moves refused (a filter
-- rule, so both sides' searches know of it). `measures` names what the
-- report shows first; a function entry is a measure of its own (see
-- cheskers.measures.custom).
--
--   experiment.load(path [, opts]) -> e     reads and normalizes a file
--   experiment.normalize(exp [, path]) -> e  checks and completes a table
--   experiment.check_rules(e)                raises unless every variant's rules make a board
--   experiment.engine_bot(spec) -> options | nil   the options of a spec of the engine bot
--   experiment.FITTED                         the defaults of `fitted`
--   experiment.set_fitted(e, value, where) -> e   `fitted` set after reading (--fitted)
--   experiment.record_key(rec) -> text       the identity of a game across files and runs
--   experiment.encode_record(rec) -> text    a game's JSON line (LINE_KEYS first)
--   experiment.shard_file(dir, e, seed, shard, nshards) -> path
--                                            DIR/<name>.seed<S>.shard<I>of<N>.jsonl
--   experiment.shard_prefix(e, seed) -> "<name>.seed<S>"   (store.shard_file's prefix)
--   experiment.subsets("KBC") -> {"B", "C", "K", "BC", ...}   a sweep's promote = "subsets"
--   experiment.LEAP                          the schema of a leap vector {a, b}
--
-- e: name, description, path, games, seed, max_plies, branching_every,
-- bots {white, black}, limits, swap_colors, random_plies, base, measures
-- (names), custom ({name, fn}), trace (nil, {kind = "eval"} or {kind =
-- "search", depth}), material_every, thresholds (centipawns),
-- thresholds_pawns, strengths, fitted (nil or {games, nodes, seed}),
-- variants: list of {name, index,
-- description, rules (a table), restrict, bots, games, limits, family,
-- strength}.
local cheskers = require "cheskers"
local S = require "cheskers.schema"
local rulespec = require "cheskers.rulespec"
local measures = require "cheskers.measures"
local store = require "cheskers.store"
local luadata = require "cheskers.luadata"
local escape = require "cheskers.escape"

local M = {}

M.FILE_VERSION = 1
M.DEFAULTS = {
  games = 100, seed = 1, max_plies = 300, branching_every = 1, material_every = 4, random_plies = 0,
  bots = { white = "builtin-greedy", black = "builtin-greedy" }, strength_bot = "engine:level=%d",
}
-- fitted = true: the tuning budget of every variant's weights (cheskers tune's
-- own defaults: 1000 games at 1000 nodes a move, seed 1)
M.FITTED = { games = 1000, nodes = 1000, seed = 1 }

local errorf = require("cheskers").errorf

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end

local sorted_keys = luadata.sorted_keys

local function basename(path) return (path:match("([^/]+)$") or path) end

-- ---- the schema -------------------------------------------------------------------

-- Named restrictions of restricted play (after Jaffe et al. 2012): a move
-- filter for the restricted side.
M.RESTRICTIONS = {
  ["no-bishop-moves"] = function(_, m) return m.piece ~= "B" end,
  ["no-camel-promotion"] = function(_, m) return m.promotion ~= "C" end,
  ["no-king-moves"] = function(_, m) return m.piece ~= "K" end,
}

local BOTS = S.either("string", S.record { fields = { white = "string", black = "string" },
                                           required = { "white", "black" },
                                           what = "{white = NAME, black = NAME}" })
local number = require("cheskers.numbers").spec   -- the ranges of the command line's numbers
local LIMITS = S.record { fields = { nodes = number "--nodes", time = S.num { min = 0, max = number("--time").max } },
                          what = "{nodes = N, time = SECONDS}" }
local RESTRICTION = S.either(S.one_of(sorted_keys(M.RESTRICTIONS)), "function")
local RESTRICT = S.record { fields = { white = RESTRICTION, black = RESTRICTION },
                            what = "{white = ..., black = ...}" }

local VARIANT = S.record {
  fields = {
    name = S.test(function(v) return type(v) == "string" and v ~= "" end, "a text that is not empty"),
    description = "string",
    rules = S.either("string", "table"),
    bots = BOTS, games = number "games", limits = LIMITS, restrict = RESTRICT,
  },
  required = { "name" },
}

local function variant_label(i, v)
  if type(v) == "table" and type(v.name) == "string" then return ("variant %d (%s)"):format(i, S.show(v.name)) end
  return "variant " .. i
end

-- The measures: the standard names (a list) and the experiment's own
-- (name = function), in one table.
local function read_measures(m, where)
  if type(m) ~= "table" then
    return nil, ("%s must be a list of measure names and name = function entries, not %s"):format(where, S.show(m))
  end
  local standard = {}
  for _, name in ipairs(measures.STANDARD) do standard[name] = true end
  for _, name in ipairs(m) do
    if not standard[name] then
      return nil, ("%s: unknown measure %s%s (recorded for every game: %s; add your own as name = function)")
        :format(where, S.show(name), type(name) == "string" and cheskers.did_you_mean(name, measures.STANDARD) or "",
                table.concat(measures.STANDARD, ", "))
    end
  end
  for k, fn in pairs(m) do
    if math.type(k) ~= "integer" then
      if type(k) ~= "string" then return nil, ("%s: names must be texts, not %s"):format(where, S.show(k)) end
      if type(fn) ~= "function" then
        return nil, ("%s: measure '%s' must be a function(game, board) returning a number, not %s")
          :format(where, k, S.show(fn))
      end
    elseif k < 1 or k > #m then
      return nil, ("%s: must be a list (keys 1, 2, ...) and names, not a table with the key %s"):format(where, k)
    end
  end
  return m
end

local LEAP = S.test(function(v)
  return type(v) == "table" and #v == 2 and math.type(v[1]) == "integer" and math.type(v[2]) == "integer"
end, "a leap vector {a, b}")

-- A sweep: rule option -> the list of its values; camel -> leap vectors;
-- promote -> also "subsets".
local function sweep_spec()
  local fields = {}
  for _, name in ipairs(rulespec.option_names()) do fields[name] = S.list("any", { min = 1 }) end
  fields.camel = S.list(LEAP, { min = 1 })
  fields.promote = S.either(S.one_of { "subsets" }, S.list("string", { min = 1 }))
  return S.record { fields = fields, what = "a table of rule options to lists of values" }
end

local FILE
local function file_spec()
  if FILE then return FILE end
  FILE = S.record {
    fields = {
      name = S.test(function(v) return type(v) == "string" and v:match("^[%w_%-%.]+$") ~= nil end,
                    "letters, digits, '_', '-' or '.'"),
      description = "string",
      games = number "games", seed = "integer", max_plies = number "--max-plies",
      bots = BOTS, limits = LIMITS, swap_colors = "boolean", random_plies = number "plies",
      branching_every = number "every", base = "table",
      variants = S.list(VARIANT, { item = variant_label }),
      measures = S.custom(read_measures, "measure names and name = function entries"),
      trace = S.either(S.one_of { "eval", false }, S.record { fields = { depth = S.int { min = 1, max = 6 } },
                                                              required = { "depth" }, what = "{depth = 1..6}" }),
      material_every = number "every",
      thresholds = measures.THRESHOLDS,
      strengths = S.list(number "strength", { min = 1 }),
      strength_bot = S.test(function(v) return type(v) == "string" and v:find("%d", 1, true) ~= nil end,
                            "a bot spec with %d for the strength"),
      sweep = sweep_spec(),
      fitted = S.either("boolean", S.record {
        fields = { games = number "--games", nodes = number "--nodes", seed = "integer" },
        what = "{games = N, nodes = N, seed = S}" }),
    },
    what = "an experiment table",
  }
  return FILE
end

-- The schema of an experiment table (cheskers.schema), built on first use.
M.schema = file_spec

-- ---- design: rules, restrictions, sweeps, strengths ----------------------------------

-- The rules with restrict = {white =, black =} added as a filter rule (after
-- the variant's own filter, if any).
local function restricted_rules(rules, restrict)
  if restrict == nil then return rules end
  local side = {}
  for color, r in pairs(restrict) do side[color] = type(r) == "function" and r or M.RESTRICTIONS[r] end
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
M.subsets, M.LEAP = subsets, LEAP   -- cheskers.design's spaces too

local function sweep_axis(key, values)
  if key == "promote" and values == "subsets" then values = subsets("KBC") end
  local axis = {}
  for _, v in ipairs(values) do
    local label, apply
    if key == "camel" then
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

-- The variants of a sweep: the grid of every combination of the axes (keys
-- in sorted order), laid over each variant (rules composed already), named
-- "<variant>:<key>=<value>,...".
local function expand_sweep(variants, sweep)
  if sweep == nil then return variants end
  local grid = { { labels = {}, applies = {} } }
  for _, key in ipairs(sorted_keys(sweep)) do
    local next_grid = {}
    for _, cell in ipairs(grid) do
      for _, step in ipairs(sweep_axis(key, sweep[key])) do
        local c = { labels = { table.unpack(cell.labels) }, applies = { table.unpack(cell.applies) } }
        c.labels[#c.labels + 1] = step.label
        c.applies[#c.applies + 1] = step.apply
        next_grid[#next_grid + 1] = c
      end
    end
    grid = next_grid
  end
  local out = {}
  for _, v in ipairs(variants) do
    for _, cell in ipairs(grid) do
      local nv = copy(v)
      for _, apply in ipairs(cell.applies) do apply(nv.rules) end
      local label = table.concat(cell.labels, ",")
      nv.name = v.name ~= "" and (v.name .. ":" .. label) or label
      nv.restrict = v.restrict
      out[#out + 1] = nv
    end
  end
  return out
end

-- The variants of strengths: each variant once per strength, named
-- "<variant>@<strength>", both sides playing pattern (%d: the strength).
local function expand_strengths(variants, strengths, pattern)
  if strengths == nil then return variants end
  local out = {}
  for _, v in ipairs(variants) do
    for _, s in ipairs(strengths) do
      local nv = copy(v)
      nv.restrict = v.restrict
      nv.name, nv.family, nv.strength = ("%s@%d"):format(v.name, s), v.name, s
      nv.bots = pattern:format(s)
      out[#out + 1] = nv
    end
  end
  return out
end

local function normalize_bots(spec)
  if type(spec) == "string" then return { white = spec, black = spec } end
  return spec
end

-- The file's variants with their rules composed over base (or, for a sweep
-- without variants, one plain variant named "").
local function composed_variants(exp, where)
  local list = exp.variants
  if list == nil and exp.sweep ~= nil then list = { { name = "" } } end
  local out = {}
  for i, v in ipairs(list or {}) do
    local rules, err = rulespec.compose(exp.base, v.rules)
    if not rules then errorf("%s: %s: rules: %s", where, variant_label(i, v), err) end
    local nv = copy(v)
    nv.rules, nv.restrict = rules, v.restrict
    out[i] = nv
  end
  return out
end

-- The variants with their bots, games, limits and restrictions.
local function normalize_variants(e, variants, where)
  if #variants == 0 then errorf("%s: needs a list of variants", where) end
  e.variants = {}
  local seen = {}
  for i, v in ipairs(variants) do
    if seen[v.name] then errorf("%s: two variants named '%s'", where, escape.console(v.name)) end
    seen[v.name] = true
    e.variants[i] = {
      name = v.name, index = i,
      description = v.description,
      rules = restricted_rules(v.rules, v.restrict),
      restrict = v.restrict,
      bots = normalize_bots(v.bots) or e.bots,
      games = v.games or e.games,
      limits = v.limits or e.limits,
      family = v.family or v.name, strength = v.strength,
    }
  end
end

-- The options of spec when it is the engine bot (scripts/bots/engine.lua, by
-- name or path), else nil.
function M.engine_bot(spec)
  local name, opts = require("cheskers.bots").parse_spec(spec)
  if name == "engine" or (name and name:match("/engine%.lua$")) then return opts end
  return nil
end

-- fitted: its budget (the defaults completed) or nil; every variant's bots
-- must be the engine, without weights of their own.
local function normalize_fitted(e, fitted, where)
  if not fitted then return nil end
  where = where == "--fitted" and where or where .. ": fitted"
  local f = {}
  for k, d in pairs(M.FITTED) do f[k] = type(fitted) == "table" and fitted[k] or d end
  for _, v in ipairs(e.variants) do
    for _, side in ipairs { "white", "black" } do
      local spec = v.bots[side]
      local opts = M.engine_bot(spec)
      if not opts then
        errorf("%s: variant '%s': the %s bot %s is not the engine (fitted weights are the "
               .. "engine's: use engine bots, or leave fitted out)", where, escape.console(v.name), side, S.show(spec))
      elseif opts.weights ~= nil then
        errorf("%s: variant '%s': the %s bot %s has weights of its own (fitted gives it the "
               .. "variant's: drop one)", where, escape.console(v.name), side, S.show(spec))
      end
    end
  end
  return f
end

-- Sets the fitting of e (a normalized experiment) from value (what the
-- field `fitted` holds), checked as the field is; where names it in messages
-- ("--fitted").
function M.set_fitted(e, value, where)
  e.fitted = normalize_fitted(e, S.check(value, file_spec().fields.fitted, where), where)
  return e
end

-- ---- reading ------------------------------------------------------------------------

-- Checks and completes an experiment table. path: for messages and the
-- default name and bot folder.
function M.normalize(exp, path)
  local where = path or "experiment"
  if type(exp) ~= "table" then errorf("%s: must return a table, not %s", where, S.show(exp)) end
  exp = S.check(exp, file_spec(), where)
  local D = M.DEFAULTS
  local e = {
    path = path,
    name = exp.name or (path and basename(path):gsub("%.lua$", "")) or "experiment",
    description = exp.description or "",
    games = exp.games or D.games, seed = exp.seed or D.seed, max_plies = exp.max_plies or D.max_plies,
    branching_every = exp.branching_every or D.branching_every,
    bots = normalize_bots(exp.bots) or copy(D.bots), limits = exp.limits or {},
    swap_colors = exp.swap_colors or false, random_plies = exp.random_plies or D.random_plies,
    base = exp.base, material_every = exp.material_every or D.material_every,
    strengths = exp.strengths,
  }
  if not e.name:match("^[%w_%-%.]+$") then   -- a file name the user did not choose
    errorf("%s: name '%s' must be letters, digits, '_', '-' or '.'", where, e.name)
  end
  local m = exp.measures or measures.STANDARD
  e.measures, e.custom = {}, {}
  for _, name in ipairs(m) do e.measures[#e.measures + 1] = name end
  for _, name in ipairs(sorted_keys(m)) do
    if math.type(name) ~= "integer" then
      e.custom[#e.custom + 1] = { name = name, fn = m[name] }
      e.measures[#e.measures + 1] = name
    end
  end
  if exp.trace == nil or exp.trace == "eval" then e.trace = { kind = "eval" }
  elseif exp.trace then e.trace = { kind = "search", depth = exp.trace.depth } end
  e.thresholds, e.thresholds_pawns = measures.thresholds(exp.thresholds), exp.thresholds
  local variants = expand_sweep(composed_variants(exp, where), exp.sweep)
  variants = expand_strengths(variants, exp.strengths, exp.strength_bot or D.strength_bot)
  normalize_variants(e, variants, where)
  e.fitted = normalize_fitted(e, exp.fitted, where)
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
  local exp, err = luadata.load_file(path)
  if exp == nil then errorf("%s", err) end
  return M.normalize(exp, path)
end

-- Raises unless every variant's rules make a board.
function M.check_rules(e)
  for _, v in ipairs(e.variants) do
    local ok, err = pcall(cheskers.new, nil, v.rules)
    if not ok then errorf("variant %s: %s", escape.console(v.name), tostring(err)) end
  end
end

-- ---- a game's identity and line ----------------------------------------------------

M.LINE_KEYS = { "v", "experiment", "seed", "variant", "vindex", "game",
                "white", "black", "first", "result", "reason", "detail", "plies",
                "captures", "captured", "promotions", "branching",
                "branching_n", "branching_sum", "measures", "traceback", "family",
                "strength", "trace", "mat_kinds", "mat", "start", "moves" }

-- One game record as a JSON object on one line (no newline), keys in the
-- order of LINE_KEYS, nested objects sorted by key.
function M.encode_record(rec)
  return store.encode(rec, M.LINE_KEYS)
end

-- The identity of a game across files and runs.
function M.record_key(rec)
  return ("%s\0%s\0%s\0%s"):format(rec.experiment, tostring(rec.seed),
                                   rec.variant, tostring(rec.game))
end

-- The prefix of the shard files of e and seed in a folder: "<name>.seed<S>".
function M.shard_prefix(e, seed)
  return ("%s.seed%d"):format(e.name, seed)
end

function M.shard_file(dir, e, seed, shard, nshards)
  return store.shard_file(dir, M.shard_prefix(e, seed), shard, nshards)
end

return M
