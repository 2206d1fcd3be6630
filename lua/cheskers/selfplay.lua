-- cheskers.selfplay - plays a rule experiment (a table of
-- cheskers.experiment): the schedule of its games, one game and its line,
-- and a run of one shard into a results folder kept by cheskers.store.
--
--   selfplay.game_seed(seed, variant, game) -> integer
--   selfplay.schedule(e, shard, nshards) -> {{variant = v, game = g}, ...}
--   selfplay.prepare(e [, opts]) -> e       checks the rules, loads the bots
--   selfplay.play_game(e, v, g [, seed, with_moves]) -> the game's line
--   selfplay.fingerprint(e, seed) -> data   what produced the games
--   selfplay.run(e, dir, shard, nshards [, opts]) -> {played, skipped, total, file}
--
-- Bots are loaded by cheskers.bots (one spec grammar for every command):
-- "builtin-random" and "builtin-greedy" are built in and fast; any other
-- name is a bot file: NAME.lua in the experiment's ../bots folder, then the
-- bot folders of cheskers.bots, or a path, optionally with options
-- ("engine:level=3"). new_game is called before every game: a bot must not
-- carry state from one game into the next, or games would depend on the
-- order they are played in.
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
-- game; shard I of N plays games I, I + N, I + 2N, ... Each shard appends
-- to its own file of the folder (experiment.shard_file), a store.open_shard
-- file: the header holds the fingerprint, and the games of every file of
-- the experiment and seed in the folder are skipped (so resuming, or
-- re-running with another shard count, never plays a game twice); a file
-- made from other inputs is refused naming what differs, unless
-- opts.restart throws the experiment's files away first.
local cheskers = require "cheskers"
local bots_mod = require "cheskers.bots"
local game_mod = require "cheskers.game"
local store = require "cheskers.store"
local measures = require "cheskers.measures"
local experiment = require "cheskers.experiment"
local escape = require "cheskers.escape"

local M = {}

local errorf = require("cheskers").errorf


-- The seed of one game: a function of (seed, variant name, game number).
function M.game_seed(seed, variant, game)
  return store.fnv1a(("%d\0%s\0%d"):format(seed, variant, game))
end

-- The games of shard i of n: list of {variant = v, game = g}, in order.
-- The experiment's games in all, checked against the most of one schedule.
local function checked_total(e)
  local total = 0
  for _, v in ipairs(e.variants) do total = total + v.games end
  return require("cheskers.numbers").check_size(total, "the experiment's games (variants x games)")
end

function M.schedule(e, shard, nshards)
  shard, nshards = shard or 1, nshards or 1
  checked_total(e)
  local list, k = {}, 0
  for _, v in ipairs(e.variants) do
    for g = 1, v.games do
      k = k + 1
      if (k - 1) % nshards == shard - 1 then list[#list + 1] = { variant = v, game = g } end
    end
  end
  return list
end

-- Checks the variants' rules and loads their bots (into v.botobj): what
-- play_game needs. opts.sandbox: bot files in untrusted boxes.
-- An experiment with `fitted` needs its weights first (cheskers.fitted.prepare
-- gives each variant v.fitted and v.play_bots, the specs its bots are loaded
-- from).
function M.prepare(e, opts)
  experiment.check_rules(e)
  local lopts = { dirs = e.path and { require("cheskers.files").dirname(e.path) .. "/../bots" } or nil,
                  sandbox = opts and opts.sandbox }
  for _, v in ipairs(e.variants) do
    if e.fitted and not v.fitted then
      errorf("variant %s: the experiment is fitted and its weights are not there yet "
             .. "(cheskers.fitted.prepare first)", escape.console(v.name))
    end
    local specs = v.play_bots or v.bots
    v.botobj = { white = bots_mod.load(specs.white, lopts), black = bots_mod.load(specs.black, lopts) }
  end
  return e
end

local function new_record(e, v, g, seed, b, names)
  return {
    v = experiment.FILE_VERSION, experiment = e.name, seed = seed, variant = v.name,
    vindex = v.index, game = g, white = names.white, black = names.black,
    first = b:turn(), captures = {}, captured = {}, promotions = {},
    branching_n = 0, branching_sum = 0, family = v.family ~= v.name and v.family or nil,
    strength = v.strength, trace = e.trace and {} or nil, mat_kinds = measures.material_kinds(b), mat = {},
  }
end

-- Plays game g of variant v (prepared: bots loaded into v.botobj) and
-- returns its line (experiment.LINE_KEYS). The game is a function of
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
    repetition = 0, on_ply = measures.observer(e, rec),
    record_moves = with_moves and true or false,
  }
  rec.result, rec.reason, rec.plies = res.winner, tostring(res.reason), res.plies
  rec.detail, rec.traceback = res.detail, res.traceback
  if with_moves then rec.moves = res.moves end
  measures.finish(e, rec, b)
  return rec
end

-- ---- a run ----------------------------------------------------------------------------

-- What decides a fitted variant's weights, and what they are (the file's
-- place is the plan's: shards may reach one cache by two paths).
local function fitted_print(f)
  if f == nil then return nil end
  return { fingerprint = f.fingerprint, games = f.games, nodes = f.nodes, seed = f.seed,
           weights = f.weights, start = f.start }
end

-- What produced an experiment's games: a file made from other inputs is
-- refused. The number of games is left out (it may grow). A fitted variant's fit is part of it: games
-- of default weights and of fitted ones never mix.
function M.fingerprint(e, seed)
  local variants = {}
  for i, v in ipairs(e.variants) do
    variants[i] = { name = v.name, rules = v.rules, white = v.bots.white, black = v.bots.black,
                    restrict = v.restrict,
                    limits = v.limits, fitted = fitted_print(v.fitted) }
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
local function plan(e, shard, nshards, command)
  local games = {}
  for _, v in ipairs(e.variants) do
    games[#games + 1] = { variant = v.name, games = v.games, weights = v.fitted and v.fitted.file }
  end
  return { variants = games, shard = shard, shards = nshards, command = command }
end

-- Whether a file of the folder holds games of experiment e with this seed:
-- by its header, else by its games, else by its name.
local function ours(e, seed, file)
  local fp = file.header and file.header.fingerprint
  if fp then return fp.experiment == e.name and fp.seed == seed end
  for _, r in ipairs(file.results) do
    if r.experiment == e.name and r.seed == seed then return true end
  end
  return store.is_shard_file(file.path, experiment.shard_prefix(e, seed))
end

local function play_todo(e, seed, todo, st, summary, opts)
  for _, item in ipairs(todo) do
    if opts.stop and opts.stop() then break end
    local okg, rec = pcall(M.play_game, e, item.variant, item.game, seed, opts.moves)
    if not okg then
      if cheskers.error_code(rec) == "interrupted" then error(rec, 0) end
      -- one line: the variant's name and the error are the experiment file's
      errorf("variant %s, game %d: %s", escape.console(item.variant.name), item.game,
             escape.console(tostring(rec)))
    end
    st:append(rec)
    summary.played = summary.played + 1
    if opts.progress then opts.progress(summary.skipped + summary.played, summary.total, rec) end
  end
end

-- Runs shard `shard` of `nshards` of experiment e into folder dir.
-- opts: seed, games (overrides every variant's count), moves (record the
-- start position and the moves of each game), restart (throw away the
-- experiment's games in dir first), steal_lock, sandbox (bot files in
-- untrusted boxes), progress (function(done, total, rec) or nil), stop
-- (function returning true to stop early), command (the command line, kept
-- in the file header). Returns a summary {played =, skipped =, total =,
-- file =}. An error (an interruption included) leaves every finished game
-- recorded.
function M.run(e, dir, shard, nshards, opts)
  opts = opts or {}
  local seed = opts.seed or e.seed
  if opts.games then
    for _, v in ipairs(e.variants) do v.games = opts.games end
  end
  checked_total(e)   -- before the bots are loaded and the folder is locked and written (a refused run left both)
  M.prepare(e, opts)
  local out = experiment.shard_file(dir, e, seed, shard, nshards)
  local st = store.open_shard {
    dir = dir, path = out, kind = "experiment", fingerprint = M.fingerprint(e, seed),
    ours = function(file) return ours(e, seed, file) end, restart = opts.restart,
    steal_lock = opts.steal_lock, key = experiment.record_key, order = experiment.LINE_KEYS,
    plan = plan(e, shard, nshards, opts.command),
    sync_every = 1,   -- fsync once a second: short games (store.lua)
  }
  local todo, list = {}, M.schedule(e, shard, nshards)
  for _, item in ipairs(list) do
    local key = experiment.record_key({ experiment = e.name, seed = seed, variant = item.variant.name,
                                        game = item.game })
    if not st:has(key) then todo[#todo + 1] = item end
  end
  local summary = { total = #list, skipped = #list - #todo, played = 0, file = out }
  local ok, err = pcall(play_todo, e, seed, todo, st, summary, opts)
  st:close()
  if not ok then error(err, 0) end
  return summary
end

return M
