-- cheskers.fitted - experiments played by an engine fitted to each
-- variant's rules (an experiment file's `fitted` field): before the games,
-- every variant gets the evaluation weights that cheskers tune (this very
-- library: tune.run, tune.positions, tune.fit) fits to self-play games
-- under its rules, and its engine bots play with them (given as the bot's
-- weight options, as engine:weights=FILE would set them: fitted.spec).
--
--   fitted.key(e, v [, rules]) -> fingerprint, data   the fit of variant v
--   fitted.prepare(e, opts) -> {fits...}    finds or makes every variant's weights
--   fitted.spec(spec, weights) -> spec      the bot spec with the weights as options
--
-- The cache: a folder (opts.cache, default opts.out/weights) holding, per
-- fit, the weights file <fingerprint>.lua and the folder <fingerprint>/ of
-- its tuning games (tune's run folder: an interrupted tuning resumes). The
-- fingerprint (16 hex digits) is the digest of everything that decides
-- the fit: tune.fingerprint of the tuning run (the variant's rules as their
-- canonical text with digests of their hooks, the bot, the node budget,
-- the seed, the openings, the start weights and the feature names), the
-- number of games, the restriction of restricted play, the ridge, the
-- file format and the engine's signature (store.engine_signature: another
-- engine plays other games, so it fits again). Variants with equal fingerprints (the strengths of one
-- variant, two variants with the same rules) share one fit; a cache shared
-- between runs (--weights-cache) fits each rule set once.
--
-- Parallel runs: the weights file is made under its lock (store.lock), by
-- whichever shard comes first; another shard that needs it waits for the
-- lock (polling once a second) and then reads the file. The file is written
-- whole (store.write_file: a reader never sees half of it). A file found
-- in the cache is read by tune.read_weights, must name this fit's
-- fingerprint and end with the digest line tune.weights_text writes for a
-- fit (tune.edited): a damaged, foreign or hand-edited file is refused by
-- its name, the message saying the way out that works (remove it).
--
-- Each fit is a function of its inputs (tune's games depend on the seed and
-- game number only), so the same fingerprint gives the same file, byte for
-- byte.
local cheskers = require "cheskers"
local store = require "cheskers.store"
local tune = require "cheskers.tune"
local escape = require "cheskers.escape"

local M = {}

local errorf = require("cheskers").errorf

-- The tuning run of variant v of e: tune.run's configuration.
local function tune_config(e, v, dir)
  return { out = dir, bot = tune.DEFAULTS.bot, games = e.fitted.games, nodes = e.fitted.nodes,
           seed = e.fitted.seed, opening_plies = tune.DEFAULTS.opening_plies, rules = v.rules,
           -- the way out of a tuning folder of other inputs (--restart keeps the cache)
           restart_hint = dir and "remove " .. dir .. " to fit again" }
end

-- The fingerprint of variant v's fit (16 hex digits) and the data digested.
function M.key(e, v)
  local data = store.plain {
    tune = tune.fingerprint(tune_config(e, v)), games = e.fitted.games, restrict = v.restrict,
    ridge = tune.DEFAULTS.ridge, format = tune.FORMAT, engine = store.engine_signature(),
  }
  return store.digest(store.encode(data)), data
end

-- spec with the weights w as its options (engine:pawn=100,king=...), but
-- for the weights the spec sets itself (engine:mobility=0 keeps its 0): the
-- weights of the file, given as options so that a bot in a sandbox, which
-- reads no file, gets them too.
function M.spec(spec, w)
  local _, opts = require("cheskers.bots").parse_spec(spec)
  local parts = {}
  for _, n in ipairs(cheskers.engine.names) do
    if opts[n] == nil then parts[#parts + 1] = ("%s=%d"):format(n, w[n]) end
  end
  return spec .. (next(opts) and "," or ":") .. table.concat(parts, ",")
end

-- The weights of the file at path, which must be the fit fp; nil when
-- there is no file.
local function cached(path, fp)
  local w, info, text_or_reason = tune.read_weights(path, "cache")
  if not w and text_or_reason == "missing" then return nil end
  if not w then errorf("the weights cache: %s (remove it to fit again)", info) end
  if info.fingerprint ~= fp then
    errorf("the weights cache: %s is not the fit %s (its fingerprint is %s): remove it to fit again",
           path, fp, info.fingerprint and ("'" .. escape.console(info.fingerprint) .. "'") or "missing")
  end
  local edited = tune.edited(text_or_reason)
  if edited then errorf("the weights cache: %s: %s: remove it to fit again", path, edited) end
  return w, info
end

-- Plays the tuning games of the fit and writes its weights file (the lock
-- held).
local function make(e, v, fp, path, dir, opts)
  local cfg = tune_config(e, v, dir)
  cfg.progress, cfg.steal_lock = opts.progress and function(done, total)
    opts.progress(v.name, fp, done, total)
  end, opts.steal_lock
  tune.run(cfg)
  local run, err = tune.read_dir(dir)
  if not run then error(err, 0) end
  local data = tune.positions(run, nil, v.rules)
  local fit, ferr = tune.fit(data)
  if not fit then errorf("variant %s: fitting its weights (%s): %s", escape.console(v.name), dir, ferr) end
  fit.fingerprint = fp
  store.write_file(path, tune.weights_text(fit))
end

local function sleep(seconds)
  local ok, how = os.execute("sleep " .. seconds)
  if not ok and how == "signal" then error("interrupted while waiting for the weights cache", 0) end
end
M.sleep = sleep   -- also cheskers.design's, waiting for other shards

-- The weights of fit fp: read from the cache, else made under the lock;
-- while another run holds the lock, waits for it.
local function obtain(e, v, fp, opts)
  local path = opts.cache .. "/" .. fp .. ".lua"
  local w, info = cached(path, fp)
  if w then return path, w, info end
  local made, merr = store.mkdir(opts.cache)
  if not made then error(merr, 0) end
  local told = false
  while true do
    local ok, lock = pcall(store.lock, path, opts.steal_lock)
    if ok then
      local done, err = pcall(function()
        if not cached(path, fp) then make(e, v, fp, path, opts.cache .. "/" .. fp, opts) end
      end)
      store.unlock(lock)
      if not done then error(err, 0) end
      return path, cached(path, fp)
    end
    if require("cheskers").error_code(lock) ~= "locked" then error(lock, 0) end
    if not told and opts.waiting then opts.waiting(v.name, fp, lock) end
    told = true
    sleep(opts.poll or 1)
    w, info = cached(path, fp)
    if w then return path, w, info end
  end
end

-- Finds or makes the weights of every variant of e (e.fitted set) and
-- gives each variant v.fitted = {fingerprint, file, games, nodes, seed,
-- weights (every weight), start (the weights the tuning games were played
-- with)} and v.play_bots (its bot specs with the weights as options). opts: out (the
-- experiment's folder) or cache (the weights cache), steal_lock,
-- progress(variant, fingerprint, done, total) during tuning games,
-- waiting(variant, fingerprint, message) when another run is fitting, poll
-- (seconds). Returns the list of distinct fits {fingerprint, file,
-- variants = {names}}.
function M.prepare(e, opts)
  if not e.fitted then return {} end
  opts = setmetatable({}, { __index = opts })
  opts.cache = opts.cache or (opts.out and opts.out .. "/weights")
  if not opts.cache then error("fitted: no weights cache (give out or cache)", 0) end
  local _, perr = require("cheskers.files").check_path(opts.cache, "the weights cache")
  if perr then error(perr, 0) end
  local by, list = {}, {}
  for _, v in ipairs(e.variants) do
    local fp, data = M.key(e, v)
    local fit = by[fp]
    if not fit then
      local path, w, info = obtain(e, v, fp, opts)
      fit = { fingerprint = fp, file = path, variants = {}, weights = w, info = info }
      by[fp] = fit
      list[#list + 1] = fit
    end
    fit.variants[#fit.variants + 1] = v.name
    v.fitted = { fingerprint = fp, file = fit.file, games = e.fitted.games, nodes = e.fitted.nodes,
                 seed = e.fitted.seed, weights = fit.weights, start = data.tune.weights }
    v.play_bots = { white = M.spec(v.bots.white, fit.weights), black = M.spec(v.bots.black, fit.weights) }
  end
  return list
end

return M
