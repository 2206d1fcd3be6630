-- cheskers.tune - fitting the evaluation's weights by the Texel method (the
-- library behind `cheskers tune`): self-play games kept in a run folder,
-- the quiet positions of those games with their results, the logistic fit
-- of the results on the positions' features, and the weights file.
--
--   tune.KIND                                 "tune": the kind of its results files
--   tune.schedule(games, shard, nshards) -> {g, ...}   the games of a shard
--   tune.bot_weights(spec) -> weights          the weights a bot spec plays with
--   tune.fingerprint(cfg) -> data              what must agree for stored games to count
--   tune.run(cfg) -> {played, skipped, total, file}   plays (a shard of) the games
--   tune.read_dir(dir) -> run | nil, message   the games of a folder
--   tune.positions(run [, progress [, rules]]) -> data   their quiet positions
--   tune.fit(data [, opts]) -> fit | nil, message
--   tune.weights_text(fit) -> text             the weights file of a fit
--   tune.fit_folder(dir [, opts]) -> fit, data, path | nil   reads, fits and
--                                              writes the weights file under
--                                              its lock (see below)
--   tune.read_weights(path [, kind]) -> weights, info, text | nil, message, reason
--       (read by cheskers.files, kind "weights" or "cache": its cap; reason
--       as files.read's when the file could not be read)
--   tune.edited(text) -> nil | message          whether the digest line of a
--                                              weights file (written with a
--                                              fit's fingerprint) disagrees
--                                              with its other lines
--   tune.WEIGHTS_FILE                          the schema of a weights file
--
-- cfg of run: out (the folder), games (default 1000), shard, shards, seed
-- (default 1), bot (a bot spec, default "engine": both sides), nodes (the
-- budget a move, limits.nodes; default 1000 unless time is given), time,
-- move_timeout, rules, rules_text (the --rules text), openings,
-- opening_plies (default 8), max_plies, repetition, sandbox (what
-- cheskers.match takes), restart, steal_lock, restart_hint (the way out a
-- refusal of the folder's games names: default --restart), progress (function(done,
-- total)), stop (function -> true to stop early).
--
-- The games: game g is the first game of opening pair g of a match of the
-- bot against itself (cheskers.match.play_game with game number 2g - 1: its
-- random opening, seeded by (seed, 2g - 1)), so every game has an opening
-- of its own and depends on nothing but (seed, g) and the inputs of the
-- fingerprint. A folder holds files tune.shard<I>of<N>.jsonl (store's run
-- folder: a header with the fingerprint and the plan, then one line a game:
-- game, opening, moves, winner, reason, plies); shard I of N plays games I,
-- I + N, ...; a rerun skips the games of every tune file of the folder.
--
-- The positions: every position of a game after its opening in which the
-- side to move has a legal move and no capture (a quiet position), with
-- its features (cheskers.engine.features: side to move minus the other
-- side) and the game's result for the side to move (1, 0.5, 0).
--
-- The fit: P(the side to move wins) = 1 / (1 + exp(-K * eval)), eval = sum
-- of weight * feature, by maximum likelihood (stats.logistic: Newton-
-- Raphson; with results 0.5 for draws it minimises the mean logistic loss
-- -[y log p + (1 - y) log(1 - p)]), a small ridge penalty pulling towards
-- the start weights (the weights the games were played with). Only K *
-- weight is identifiable, so the scale is fixed first: K is fitted alone
-- for the start weights (Texel's first step), then every weight with K
-- held; or one weight, the anchor (--anchor pawn), keeps its start value:
-- weight_j = anchor value * beta_j / beta_anchor. A feature that is 0 in
-- every position (extra without added kinds), or that the features before
-- it explain (collinear, see fitted_columns), is not fitted: its weight
-- keeps its start value. tempo is 1 in every position: the intercept.
-- The features are computed again from the games' moves at every fit, so
-- one folder serves every feature set: a weight its fingerprint does not
-- name (a feature added since the games were played) starts at 0, the
-- value the engine that played them had (more games into such a folder
-- are refused: its fingerprint's features differ, --restart).
-- Standard errors are cluster-robust (the positions of one game are not
-- independent), for an anchor mapped to the weights by the delta method.
local cheskers = require "cheskers"
local S = require "cheskers.schema"

local M = {}

M.KIND = "tune"
M.DEFAULTS = { games = 1000, nodes = 1000, bot = "engine", ridge = 1, opening_plies = 8 }
M.FORMAT = 1
M.COLLINEAR = 0.01

local errorf = require("cheskers").errorf

-- ---- the weights file ------------------------------------------------------------

local function weight_fields()
  local f = {}
  for _, n in ipairs(cheskers.engine.names) do f[n] = S.int { min = -100000, max = 100000 } end
  return f
end

local function number_map()
  local f = {}
  for _, n in ipairs(cheskers.engine.names) do f[n] = S.num { min = 0 } end
  return f
end

-- A weights file returns a table: weights (required: name -> integer; a
-- weight left out has its default), and what cheskers tune writes beside
-- them, read and checked but not needed.
M.WEIGHTS_FILE = S.record {
  required = { "weights" },
  fields = {
    format = S.int { min = 1, max = M.FORMAT },
    weights = S.record { noun = "weight", fields = weight_fields() },
    se = S.record { noun = "weight", fields = number_map() },
    fitted = S.list("string"),
    rules = "string", bot = "string", anchor = "string", seed = "integer", fingerprint = "string",
    games = S.int { min = 0 }, positions = S.int { min = 0 },
    loss = S.num { min = 0 }, start_loss = S.num { min = 0 }, scale = "number",
  },
}

-- The weights of a weights file: every weight (the defaults overlaid with
-- the file's), and the file's table; or nil, message. The file is data
-- only, read in cheskers.sandbox.load_data (no code runs). kind: the
-- cheskers.files kind (default "weights").
function M.read_weights(path, kind)
  local text, err, reason = require("cheskers.files").read(path, kind or "weights")
  if not text then return nil, "cannot read weights file: " .. tostring(err), reason end
  local data, derr = require("cheskers.sandbox").load_data(text, path)
  if data == nil then return nil, derr end
  local checked, cerr = S.read(data, M.WEIGHTS_FILE, path)
  if not checked then return nil, cerr end
  local w = cheskers.engine.defaults()
  for k, v in pairs(checked.weights) do w[k] = v end
  return w, checked, text
end

-- a value as a Lua literal (cheskers.luadata.write, the one writer)
local function quote(s) return require("cheskers.luadata").write(s) end

-- The digest line of a weights file of the cache (after the table: a comment).
local DIGEST_LINE = "-- digest %s (of the lines above: the weights cache refuses a file edited since it was fitted)\n"

-- The text of the weights file of a fit (a Lua data file: `return {...}`).
-- The same fit gives the same text, byte for byte.
function M.weights_text(fit)
  local names = cheskers.engine.names
  local out = {
    "-- cheskers engine weights (docs/notes/engine-history.md, \"Weights files\"): fitted by cheskers tune",
    string.format("-- (the Texel method) on %d quiet positions of %d games. Load with", fit.positions, fit.games),
    "-- engine:weights=FILE (a bot spec) or the REPL's `weights FILE`.",
    "return {",
    "  format = " .. M.FORMAT .. ",",
    "  rules = " .. quote(fit.rules) .. ",",
    "  bot = " .. quote(fit.bot) .. ",",
    "  seed = " .. fit.seed .. ",",
    "  games = " .. fit.games .. ",",
    "  positions = " .. fit.positions .. ",",
    string.format("  %-24s-- mean logistic loss of these weights", string.format("loss = %.6f,", fit.loss)),
    string.format("  %-24s-- of the weights the games were played with",
                  string.format("start_loss = %.6f,", fit.start_loss)),
    string.format("  %-24s-- K: P(win) = 1 / (1 + exp(-K * eval))", string.format("scale = %.9g,", fit.scale)),
  }
  if fit.anchor then out[#out + 1] = "  anchor = " .. quote(fit.anchor) .. "," end
  if fit.fingerprint then out[#out + 1] = "  fingerprint = " .. quote(fit.fingerprint) .. "," end
  out[#out + 1] = "  weights = {"
  for _, n in ipairs(names) do
    local note
    if n == fit.anchor then note = "the anchor: kept"
    elseif fit.se[n] then note = string.format("+- %.0f (one standard error)", fit.se[n])
    else note = "not fitted: " .. (fit.why[n] or "?") end
    out[#out + 1] = string.format("    %-22s-- %s", string.format("%s = %d,", n, fit.weights[n]), note)
  end
  out[#out + 1] = "  },"
  local fitted, se = {}, {}
  for _, n in ipairs(names) do
    if fit.se[n] then
      fitted[#fitted + 1] = quote(n)
      se[#se + 1] = string.format("%s = %.6g", n, fit.se[n])
    end
  end
  out[#out + 1] = "  fitted = { " .. table.concat(fitted, ", ") .. " },"
  out[#out + 1] = "  se = { " .. table.concat(se, ", ") .. " },"
  out[#out + 1] = "}"
  local text = table.concat(out, "\n") .. "\n"
  if not fit.fingerprint then return text end
  -- a fit of the cache (cheskers.fitted): a digest of the other lines, last,
  -- so that an edited file is found (M.edited)
  return text .. string.format(DIGEST_LINE, require("cheskers.store").digest(text))
end

function M.edited(text)
  local body, digest = text:match("^(.*\n)%-%- digest (%x+) [^\n]*\n$")
  if not digest then return "it has no digest line (the last line of a fitted weights file)" end
  local now = require("cheskers.store").digest(body)
  if now ~= digest then return "edited since it was fitted (its digest line says " .. digest .. ", its lines make "
                               .. now .. ")" end
  return nil
end

-- ---- the games ----------------------------------------------------------------------

function M.schedule(games, shard, nshards)
  require("cheskers.numbers").check_size(games, "tune's games")
  local list = {}
  for g = shard or 1, games, nshards or 1 do list[#list + 1] = g end
  return list
end

-- The weights the bot of spec plays with: the engine's current ones, and
-- for the engine bot the weights file and the weights of its options.
function M.bot_weights(spec)
  local w = cheskers.engine.weights()
  local opts = require("cheskers.experiment").engine_bot(spec)
  if not opts then return w end
  if opts.weights then
    local fw, err = M.read_weights(tostring(opts.weights))
    if not fw then errorf("bot %s: %s", spec, err) end
    w = fw
  end
  for _, n in ipairs(cheskers.engine.names) do
    if math.type(opts[n]) == "integer" then w[n] = opts[n] end
  end
  return w
end

function M.fingerprint(cfg)
  local match = require "cheskers.match"
  local fp = match.fingerprint(cfg, { { name = "" }, { name = "" } })
  fp.a, fp.b = nil, nil
  fp.bot = cfg.bot
  fp.weights = M.bot_weights(cfg.bot)
  fp.features = table.concat(cheskers.engine.names, " ")
  return fp
end

local function with_defaults(cfg)
  local c = setmetatable({}, { __index = cfg })
  c.bot = cfg.bot or M.DEFAULTS.bot
  c.games = cfg.games or M.DEFAULTS.games
  c.seed = cfg.seed or 1
  c.opening_plies = cfg.opening_plies or M.DEFAULTS.opening_plies
  if not cfg.nodes and not cfg.time then c.nodes = M.DEFAULTS.nodes end
  return c
end

-- One game's line: game g of the run.
local function play_one(cfg, bots, g)
  local r = require("cheskers.match").play_game(cfg, bots, 2 * g - 1)
  return { game = g, opening = r.opening, moves = r.moves, winner = r.winner, reason = r.reason,
           detail = r.detail, plies = r.plies }
end

local function key(r) return math.type(r.game) == "integer" and tostring(r.game) or nil end

local ORDER = { "game", "winner", "reason", "detail", "plies", "opening", "moves" }

function M.run(cfg)
  cfg = with_defaults(cfg)
  local store = require "cheskers.store"
  local bot = require("cheskers.bots").load(cfg.bot, { sandbox = cfg.sandbox })
  local shard, shards = cfg.shard or 1, cfg.shards or 1
  local path = store.shard_file(cfg.out, M.KIND, shard, shards)
  local st = store.open_shard {
    dir = cfg.out, path = path, kind = M.KIND, fingerprint = M.fingerprint(cfg), restart = cfg.restart,
    steal_lock = cfg.steal_lock, key = key, order = ORDER, sync_every = 1, restart_hint = cfg.restart_hint,
    plan = { games = cfg.games, shard = shard, shards = shards, rules = cfg.rules_text },
  }
  local list = M.schedule(cfg.games, shard, shards)
  local todo = {}
  for _, g in ipairs(list) do
    if not st:has(tostring(g)) then todo[#todo + 1] = g end
  end
  local sum = { total = #list, skipped = #list - #todo, played = 0, file = path }
  local ok, err = pcall(function()
    for _, g in ipairs(todo) do
      if cfg.stop and cfg.stop() then break end
      st:append(play_one(cfg, { bot, bot }, g))
      sum.played = sum.played + 1
      if cfg.progress then cfg.progress(sum.skipped + sum.played, sum.total) end
    end
  end)
  st:close()
  if not ok then error(err, 0) end
  return sum
end

-- What the fields of a game line of a tune file that the fit reads must be.
local GAME_FIELDS = { winner = S.one_of { "white", "black", "draw" }, opening = "string", moves = S.list("string") }

-- What the fingerprint's own values must be, besides a match's
-- (match.check_fingerprint: a seed of 1.5 reached a "%d" format): the
-- weights in the engine's range.
local FINGERPRINT_FIELDS = {
  bot = "string", features = "string",
  weights = S.map(S.int { min = -cheskers.engine.MAX_WEIGHT, max = cheskers.engine.MAX_WEIGHT }),
}

-- The games of folder dir: {fingerprint =, plan =, games = {line...} (by
-- game number, each once), planned = the most games a file plans, where =
-- line -> {path, line number}}; nil, message when it holds none or files
-- of different inputs or another engine's; raises "PATH, line N: ..." for
-- a forged value (store.refuse).
function M.read_dir(dir)
  local store = require "cheskers.store"
  local files = store.folder(dir, function(f) return f.header ~= nil and f.header.kind == M.KIND end)
  if #files == 0 then return nil, "no games of cheskers tune in " .. dir end
  local engines = store.two_engines(files)
  if engines then return nil, engines end
  for _, f in ipairs(files) do   -- forged values refused in one line, by file and line
    local fp = store.expect(f.path, f.header_line, f.header.fingerprint, "table", "fingerprint")
    if fp == nil then store.refuse(f.path, f.header_line, "the header has no fingerprint") end
    require("cheskers.match").check_fingerprint(f.path, f.header_line, fp)
    for k, spec in pairs(FINGERPRINT_FIELDS) do
      store.expect(f.path, f.header_line, fp[k], spec, "fingerprint." .. k)
    end
    store.expect(f.path, f.header_line, f.header.plan, "table", "plan")
  end
  local first = files[1].header
  local run = { fingerprint = first.fingerprint, plan = first.plan or {}, games = {}, planned = 0, where = {} }
  local seen = {}
  for _, f in ipairs(files) do
    store.check_header(f.path, f.header, { kind = M.KIND, fingerprint = first.fingerprint,
      restart_hint = "the folder mixes runs: keep the files of one run" })
    local plan = f.header.plan or {}
    if math.type(plan.games) == "integer" and plan.games > run.planned then run.planned = plan.games end
    for i, r in ipairs(f.results) do
      if math.type(r.game) == "integer" and not seen[r.game] then
        for k, spec in pairs(GAME_FIELDS) do store.expect(f.path, f.lines[i], r[k], spec, k) end
        if r.winner == nil then store.refuse(f.path, f.lines[i], "game " .. r.game .. " has no winner") end
        run.where[r] = { f.path, f.lines[i] }
        seen[r.game] = true
        run.games[#run.games + 1] = r
      end
    end
  end
  table.sort(run.games, function(a, b) return a.game < b.game end)
  return run
end

-- ---- the positions -----------------------------------------------------------------

-- The rules of a run's games: the fingerprint's rules text, or the rules
-- given (a table: a trusted --rules FILE, an experiment's variant), checked
-- against the fingerprint; rules with hooks must be given
-- (match.stored_rules: a folder is data, it never names a file to run).
local function run_rules(run, given)
  local plan = type(run.plan) == "table" and run.plan or {}
  return require("cheskers.match").stored_rules(run.fingerprint.rules, given, plan.rules)
end

-- The board a game line starts from (its opening replayed).
local function start_board(line, rules)
  local o = line.opening
  if type(o) == "string" and o:find("/") then return cheskers.new(o, rules) end
  local b = cheskers.new(nil, rules)
  for t in tostring(o or ""):gmatch("%S+") do b:play(t) end
  return b
end

local RESULT = { white = { white = 1, black = 0 }, black = { white = 0, black = 1 } }

-- The quiet positions of the run's games: data = {names (the weight names,
-- in order), X (rows of features), y (results for the side to move),
-- clusters (the game of each row), games (how many games), start (the
-- weights the games were played with), rules (their text), bot, seed}.
-- progress(done, total) after each game. rules: the rule table of the
-- games (checked against the fingerprint), for rules whose hooks no text
-- holds (an experiment's variant); default: read back from the folder.
function M.positions(run, progress, rules)
  rules = run_rules(run, rules)
  local names = cheskers.engine.names
  local features = cheskers.engine.features
  local X, y, clusters = {}, {}, {}
  for i, line in ipairs(run.games) do
    local ok, err = pcall(function()
      local b = start_board(line, rules)
      local score = line.winner == "draw" and 0.5 or nil
      for _, t in ipairs(line.moves or {}) do
        local moves = b:moves()
        local quiet = #moves > 0
        for _, m in ipairs(moves) do if m.is_capture then quiet = false break end end
        if quiet then
          local f, row = features(b), {}
          for j, n in ipairs(names) do row[j] = f[n] end
          X[#X + 1], clusters[#X + 1] = row, line.game
          y[#X] = score or RESULT[line.winner][b:turn()]
        end
        b:play(t)
      end
    end)
    if not ok then
      local at = run.where and run.where[line] or {}
      require("cheskers.store").refuse_error(at[1] or "the games", at[2], "game " .. tostring(line.game), err)
    end
    if progress then progress(i, #run.games) end
  end
  local fp = run.fingerprint
  -- a weight the fingerprint lacks is a feature added since the games were
  -- played: the engine that played them had none, so it starts at 0
  local start = {}
  for _, n in ipairs(names) do start[n] = fp.weights and fp.weights[n] or 0 end
  local text = fp.rules and (fp.rules.hooks and run.plan.rules or fp.rules.text) or "golomb"
  return { names = names, X = X, y = y, clusters = clusters, games = #run.games, start = start,
           rules = type(text) == "string" and text or "?", bot = fp.bot, seed = fp.seed }
end

-- ---- the fit --------------------------------------------------------------------------

local function log_loss(p, y)
  local eps = 1e-15
  p = math.min(math.max(p, eps), 1 - eps)
  return -(y * math.log(p) + (1 - y) * math.log(1 - p))
end

-- The mean logistic loss of the linear predictor beta over rows X.
local function mean_loss(X, y, beta)
  local sum = 0
  for r, row in ipairs(X) do
    local eta = 0
    for j = 1, #beta do eta = eta + row[j] * beta[j] end
    sum = sum + log_loss(1 / (1 + math.exp(-eta)), y[r])
  end
  return sum / #X
end

-- The columns that can be fitted: not 0 in every position, and not (or
-- hardly) a linear combination of the columns before them (in the order
-- of the names) over these positions: a sequential Cholesky factorisation
-- of X'X gives the part of a column's sum of squares the columns kept so
-- far leave unexplained, and a column with less than M.COLLINEAR of it
-- left (a variance inflation factor over 100) is not fitted; why (name ->
-- reason) for the others. tempo is 1 in every position: the intercept.
-- king and lone_king are collinear while no side has more than two kings
-- (lone_king = -king then): lone_king keeps its start value unless enough
-- positions have a third king.
local function fitted_columns(data)
  local names, X = data.names, data.X
  local k = #names
  local G = {}
  for i = 1, k do G[i] = {} for j = 1, k do G[i][j] = 0 end end
  for _, row in ipairs(X) do
    for i = 1, k do
      local xi = row[i]
      if xi ~= 0 then
        local Gi = G[i]
        for j = i, k do Gi[j] = Gi[j] + xi * row[j] end
      end
    end
  end
  local cols, why, L = {}, {}, {}
  for j, n in ipairs(names) do
    if G[j][j] == 0 then
      why[n] = "0 in every position"
    else
      local z, d = {}, G[j][j]
      for a, c in ipairs(cols) do      -- solve L z = G[cols][j]
        local v = c < j and G[c][j] or G[j][c]
        for b = 1, a - 1 do v = v - L[a][b] * z[b] end
        z[a] = v / L[a][a]
        d = d - z[a] * z[a]
      end
      if d <= M.COLLINEAR * G[j][j] then
        why[n] = "the features before it explain 99% of it in these positions"
      else
        z[#cols + 1] = math.sqrt(d)
        cols[#cols + 1], L[#cols + 1] = j, z
      end
    end
  end
  return cols, why
end

-- Texel's first step: the scale K alone for the start weights (a
-- logistic fit of the results on their evaluation), and its mean loss.
local function start_scale(data)
  local evals = {}
  for i, row in ipairs(data.X) do
    local e = 0
    for j, n in ipairs(data.names) do e = e + row[j] * data.start[n] end
    evals[i] = { e / 100 }
  end
  local fit = require("cheskers.stats").logistic(evals, data.y, nil, 100)
  if not fit then return 0, math.log(2) end
  return fit.beta[1] / 100, mean_loss(evals, data.y, fit.beta)
end

-- The weight name -> value of fitted coefficients: beta_k / K with its
-- standard error; with an anchor (column a, weight value), K = beta_a /
-- value and the errors by the delta method (the ratio of two estimates).
local function weights_of(fit, names, cols, beta, cov, a, value)
  local stats = require "cheskers.stats"
  for k, j in ipairs(cols) do
    local n = names[j]
    if k ~= a then
      local w, se
      if a then
        local r, _, _, rse = stats.ratio_ci(beta[k], beta[a], cov[k][k], cov[a][a], cov[k][a])
        w, se = r * value, rse * math.abs(value)
      else
        w, se = beta[k] / fit.scale, math.sqrt(cov[k][k]) / fit.scale
      end
      w = math.floor(w + 0.5)
      if w < -100000 or w > 100000 then
        return nil, string.format("the fitted %s (%d) is out of range: more games, or --ridge", n, w)
      end
      fit.weights[n], fit.se[n] = w, se
    end
  end
  return fit
end

-- Fits the weights to data (M.positions). opts: anchor (nil: the scale K
-- is the start weights' own, K0, fitted first (Texel's first step), and
-- every weight is fitted; a weight name: that weight keeps its start
-- value, which sets K), ridge (default 1: an L2 penalty pulling the
-- coefficients towards K0 * the start weights, so that with few positions
-- telling two features apart the fit keeps to the start weights rather
-- than to 0; 0: plain maximum likelihood), progress (function(iteration)).
-- Returns fit = {weights (every weight, integers), se (name -> standard
-- error, for the fitted weights but the anchor), why (name -> why it was
-- not fitted), scale (K), loss, start_loss (the start weights at K0),
-- positions, games, anchor, rules, bot, seed, iterations}; or nil, message.
function M.fit(data, opts)
  opts = opts or {}
  local names, start = data.names, data.start
  local anchor = opts.anchor
  if anchor and not start[anchor] then
    return nil, "--anchor: unknown weight " .. S.show(anchor) .. cheskers.did_you_mean(anchor, names)
  end
  if #data.X == 0 then return nil, "no quiet positions to fit (play more games)" end
  local cols, why = fitted_columns(data)
  local a
  for k, j in ipairs(cols) do if names[j] == anchor then a = k end end
  if anchor and not a then
    return nil, string.format("the anchor %s cannot be fitted (%s): choose another with --anchor", anchor,
                              why[anchor] or "?")
  end
  if anchor and start[anchor] == 0 then
    return nil, "the anchor " .. anchor .. " is 0 in the start weights: choose another"
  end
  if data.games < 2 * #cols then   -- the robust errors need more games than coefficients
    return nil, string.format("too few games to fit %d weights: %d (at least %d)", #cols, data.games, 2 * #cols)
  end
  local k0, start_loss = start_scale(data)
  if k0 <= 0 or k0 ~= k0 then
    return nil, "the weights the games were played with do not predict their results: more games"
  end
  -- the features not fitted keep their start weights: their part of the
  -- evaluation is an offset (K0 * part), or with an anchor rides on the
  -- anchor's column (in units of the anchor), so that K * (the whole
  -- evaluation) stays the linear predictor
  local value, rest = anchor and start[anchor], {}
  for j, n in ipairs(names) do if why[n] and start[n] ~= 0 then rest[#rest + 1] = j end end
  local X, offset = {}, {}
  for i, row in ipairs(data.X) do
    local r, u = {}, 0
    for k, j in ipairs(cols) do r[k] = row[j] end
    for _, j in ipairs(rest) do u = u + start[names[j]] * row[j] end
    if a then r[a], offset[i] = r[a] + u / value, 0 else offset[i] = k0 * u end
    X[i] = r
  end
  local center = {}
  for k, j in ipairs(cols) do center[k] = k0 * start[names[j]] end
  local res, err = require("cheskers.stats").logistic(X, data.y, data.clusters, 100,
    { ridge = opts.ridge or M.DEFAULTS.ridge, center = center, offset = offset, progress = opts.progress })
  if not res then return nil, "the fit failed: " .. err .. " (more games, or a larger --ridge)" end
  local beta, cov = res.beta, res.cov_cluster or res.cov
  if a and beta[a] <= 2 * math.sqrt(cov[a][a]) then
    return nil, string.format("the anchor %s has no clear positive effect on the results (%.3g +- %.3g): "
      .. "more games, or another --anchor", anchor, beta[a], math.sqrt(cov[a][a]))
  end
  local fit = { weights = {}, se = {}, why = why, scale = a and beta[a] / value or k0, anchor = anchor,
                games = data.games, positions = #X, rules = data.rules, bot = data.bot, seed = data.seed,
                iterations = res.iterations, start_loss = start_loss }
  local sum = 0
  for r, row in ipairs(X) do
    local eta = offset[r]
    for j = 1, #beta do eta = eta + row[j] * beta[j] end
    sum = sum + log_loss(1 / (1 + math.exp(-eta)), data.y[r])
  end
  fit.loss = sum / #X
  for _, n in ipairs(names) do fit.weights[n] = start[n] end
  return weights_of(fit, names, cols, beta, cov, a, value)
end

-- The whole fit of a folder (what `cheskers tune` does after its games):
-- the games of dir read under the lock of the weights file (opts.save,
-- default DIR/weights.lua; its folder made), their quiet positions, the
-- fit, the weights file written. opts: anchor, ridge, rules (the rules of
-- games whose rules have hooks), steal_lock, status(text) (what it is
-- doing; status(nil) when done: a caller's progress line), leave_locked
-- (when another run holds the lock: return nil, leaving the fit to it; else
-- the lock's error, code "locked"). Returns fit, data (tune.positions), the
-- path written. Raises on a folder without games or a failed fit.
function M.fit_folder(dir, opts)
  opts = opts or {}
  local store, files = require "cheskers.store", require "cheskers.files"
  local say = opts.status or function() end
  local path = opts.save or files.join(dir, "weights.lua")
  local found, err = M.read_dir(dir)
  if not found then error(err, 0) end
  local made, merr = store.mkdir(files.dirname(path))   -- the weights file's folder, for its lock
  if not made then error(merr, 0) end
  local ok, lock = pcall(store.lock, path, opts.steal_lock)
  if not ok then
    if opts.leave_locked and cheskers.error_code(lock) == "locked" then return nil end
    error(lock, 0)
  end
  local done, fit, data = pcall(function()
    local run, rerr = M.read_dir(dir)
    if not run then error(rerr, 0) end   -- read again under the lock: every game there now
    local d = M.positions(run, function(i, n)
      if i % 50 == 0 or i == n then say(string.format("reading the games: %d/%d", i, n)) end
    end, opts.rules)
    say(string.format("fitting %d positions", #d.X))
    local f, ferr = M.fit(d, { anchor = opts.anchor, ridge = opts.ridge, progress = function(it)
      say(string.format("fitting %d positions: Newton step %d", #d.X, it))
    end })
    say(nil)
    if not f then error(ferr, 0) end
    store.write_file(path, M.weights_text(f))
    return f, d
  end)
  store.unlock(lock)
  if not done then error(fit, 0) end
  return fit, data, path
end

return M
