-- cheskers.tournament: many bots, every pairing (round robin) or one bot
-- against all the others (gauntlet); the library behind `cheskers
-- tournament`. Bots are loaded by cheskers.bots, each game is one game of
-- cheskers.match (its openings, colours and game loop), results are kept by
-- cheskers.store and rated by cheskers.stats.ratings: this file owns the
-- schedule, the shards of a tournament folder, the standings, the
-- crosstable and its text and HTML.
--
--   tournament.players(cfg) -> specs          the gauntlet bot first, then cfg.bots
--   tournament.pairings(n, gauntlet) -> {{a, b}, ...}
--   tournament.schedule(npairs, games, shard, nshards) -> {{round, pair, game}, ...}
--   tournament.run(cfg) -> summary            plays (this shard of) the tournament
--   tournament.read_dir(dir) -> summary | nil, message   the games of a folder
--   tournament.config_of(fingerprint [, rules [, where]]) -> cfg   enough of
--                                             it for render_record (rules: given
--                                             on the command line, for hooks;
--                                             where: read_dir's, result -> {path,
--                                             line}: a game that cannot be replayed
--                                             is refused by its line)
--   tournament.standings(summary [, prior]) -> standings
--   tournament.report(standings) -> text      standings, crosstable, how games ended
--   tournament.html(standings [, opts]) -> text   the same as an HTML page of its own
--       (opts.command: the command that wrote it)
--   tournament.render_record(cfg, result) -> text   its game record
--   tournament.progress_line(done, total, result) -> text
--
-- cfg: bots (list of bot specs), gauntlet (a spec: it plays every bot of
-- cfg.bots), games (per pairing, default 2), and what cheskers.match takes:
-- seed, nodes, time, move_timeout, rules, openings, opening_plies,
-- max_plies, repetition, sandbox; out (a folder), shard and shards (play
-- only the games numbered shard, shard + shards, ...), restart (throw the
-- folder's tournament files away first), steal_lock (take over the lock of
-- the shard's file: see cheskers.store), records (game records file),
-- progress (function(done, total, result)), stop (function -> true to
-- stop early), command (the command line, kept in the folder's plan).
--
-- The schedule: pairing p = {a, b} plays games 1..N; game g is game g of a
-- match between a and b (a has White in odd games; games 2k-1 and 2k share
-- an opening, the same openings in every pairing) seeded by (seed, g).
-- Games are numbered round by round: round k is game g = (k - 1) // P + 1
-- of pairing (k - 1) % P + 1 (P pairings), so that growing --games keeps
-- every number, and shard I of N plays rounds I, I + N, ...
--
-- A folder holds one tournament: files tournament.shard<I>of<N>.jsonl
-- (cheskers.store's run folder, store.open_shard: a header with the
-- fingerprint and the plan, one line per game). A run skips the games of
-- every tournament file of the folder, refuses files of other inputs
-- (unless restart), and appends its own games to its shard's file.
local bots_mod = require "cheskers.bots"
local game_mod = require "cheskers.game"
local match = require "cheskers.match"
local stats = require "cheskers.stats"
local store = require "cheskers.store"
local escape = require "cheskers.escape"

local M = {}

M.KIND = "tournament"
M.DEFAULT_GAMES = 2

local RESULT_TOKEN = { white = "1-0", black = "0-1", draw = "1/2-1/2" }

local errorf = require("cheskers").errorf

-- ---- the schedule ------------------------------------------------------------

function M.players(cfg)
  local list = {}
  if cfg.gauntlet then list[1] = cfg.gauntlet end
  for _, b in ipairs(cfg.bots or {}) do list[#list + 1] = b end
  return list
end

-- Round robin: every {a, b} with a < b, in order; gauntlet: {1, b}.
-- The number of pairings of n bots, checked before any list is made for
-- them (3000 bots made 4.5 million pairings, 650 MB, before the schedule's
-- size was checked; a forged header's 100000 names, 5 billion).
local function pairing_count(n, gauntlet)
  return gauntlet and math.max(n - 1, 0) or n * (n - 1) // 2
end

function M.pairings(n, gauntlet)
  require("cheskers.numbers").check_size(pairing_count(n, gauntlet), "the tournament's games (a game a pairing)")
  local list = {}
  for a = 1, gauntlet and 1 or n do
    for b = a + 1, n do list[#list + 1] = { a, b } end
  end
  return list
end

function M.schedule(npairs, games, shard, nshards)
  shard, nshards = shard or 1, nshards or 1
  require("cheskers.numbers").check_size(npairs * games, "the tournament's games (pairings x --games)")
  local list = {}
  for k = 1, npairs * games do
    if (k - 1) % nshards == shard - 1 then
      list[#list + 1] = { round = k, pair = (k - 1) % npairs + 1, game = (k - 1) // npairs + 1 }
    end
  end
  return list
end

local function key(r) return string.format("%s/%s", tostring(r.pair), tostring(r.game)) end

-- ---- bots and fingerprint ------------------------------------------------------

-- The bots, loaded; names made unique (the spec, then "#k", when two agree).
local function load_bots(specs, sandbox)
  local list, count = {}, {}
  for i, spec in ipairs(specs) do
    list[i] = bots_mod.load(spec, { sandbox = sandbox })
    count[list[i].name] = (count[list[i].name] or 0) + 1
  end
  local used = {}
  for i, b in ipairs(list) do
    local name = b.name
    if count[name] > 1 then name = type(specs[i]) == "string" and specs[i] or name end
    if used[name] then name = name .. "#" .. i end
    used[name] = true
    if name ~= b.name then list[i] = setmetatable({ name = name }, { __index = b }) end
  end
  return list
end

-- What must agree for stored games to count: match's fingerprint of the
-- games, with the players in place of its two bots. The games per pairing
-- are left out (they may grow).
function M.fingerprint(cfg)
  local fp = match.fingerprint(cfg, { { name = "" }, { name = "" } })
  fp.a, fp.b = nil, nil
  fp.players = store.plain(M.players(cfg))
  fp.gauntlet = cfg.gauntlet and true or false
  return fp
end

local function plan_of(cfg, names, shard, shards)
  return { games = cfg.games or M.DEFAULT_GAMES, names = names, shard = shard, shards = shards,
           command = cfg.command }
end

-- ---- one game and its record -------------------------------------------------------

local function play_one(cfg, bots, pairs, item)
  local p = pairs[item.pair]
  local r = match.play_game(cfg, { bots[p[1]], bots[p[2]] }, item.game)
  r.board, r.time = nil, nil
  r.round, r.pair = item.round, item.pair
  return r
end

-- A result's game record (match's, with the tournament's event and round):
-- Round "G.P", PGN's round and board: round G is game G of every pairing,
-- P the pairing.
function M.render_record(cfg, r)
  if cfg.rules_error then error(cfg.rules_error, 0) end
  local round = string.format("%s.%s", tostring(r.game), tostring(r.pair))
  local at = cfg.where and cfg.where[r]
  if not at then return match.render_record(cfg, r, "cheskers tournament", round) end
  -- a game read from a folder: one that cannot be replayed (a forged move) is refused by its line
  local ok, text = pcall(match.render_record, cfg, r, "cheskers tournament", round)
  if not ok then store.refuse_error(at[1], at[2], "game " .. round, text) end
  return text
end

-- ---- the folder ----------------------------------------------------------------

local function basename(path) return path:match("([^/]+)$") or path end

function M.shard_file(dir, shard, shards)
  return store.shard_file(dir, "tournament", shard, shards)
end

local function is_tournament(file) return file.header ~= nil and file.header.kind == M.KIND end

local function game_key(r)
  return math.type(r.pair) == "integer" and math.type(r.game) == "integer" and key(r) or nil
end

-- The store of this shard (store.open_shard: the games of the folder's
-- other tournament files are skipped); without --out, the records file
-- alone, or nothing.
local function open_store(cfg, names, shard, shards, fingerprint)
  if not cfg.out then
    if cfg.records then return store.records_file(cfg.records, function(r) return M.render_record(cfg, r) end) end
    return { results = {}, append = function(self, r) self.results[#self.results + 1] = r end,
             close = function() end }
  end
  return store.open_shard {
    dir = cfg.out, path = M.shard_file(cfg.out, shard, shards), kind = M.KIND, ours = is_tournament,
    fingerprint = fingerprint, restart = cfg.restart, steal_lock = cfg.steal_lock, key = game_key,
    plan = plan_of(cfg, names, shard, shards), records = cfg.records,
    render = function(r) return M.render_record(cfg, r) end,
  }
end

-- ---- running -------------------------------------------------------------------------

local function check_cfg(cfg)
  local n = #M.players(cfg)
  if n < 2 then errorf("a tournament needs at least two bots") end
  local games = cfg.games or M.DEFAULT_GAMES
  if math.type(games) ~= "integer" or games < 1 then errorf("games must be a positive integer") end
  local shard, shards = cfg.shard or 1, cfg.shards or 1
  if shards > 1 and not cfg.out then errorf("--shard needs --out DIR (each shard writes its own file there)") end
  return n, games, shard, shards
end

local function play_todo(cfg, bots, pairs, todo, st, sum)
  for _, item in ipairs(todo) do
    if cfg.stop and cfg.stop() then break end
    local r = play_one(cfg, bots, pairs, item)
    st:append(r)
    sum.played = sum.played + 1
    if cfg.progress then cfg.progress(sum.skipped + sum.played, sum.planned, r) end
  end
end

-- Plays this shard's games not yet in the folder. Returns {played,
-- skipped, planned (this shard's games), file, names, pairs, gauntlet,
-- games (per pairing), fingerprint, commands, results (without --out: the
-- games played)}. An error (Ctrl-C included) leaves every
-- finished game stored.
function M.run(cfg)
  local n, games, shard, shards = check_cfg(cfg)
  -- the schedule's size, before bots are loaded or the folder is locked
  require("cheskers.numbers").check_size(pairing_count(n, cfg.gauntlet ~= nil) * games,
                                         "the tournament's games (pairings x --games)")
  local fingerprint = M.fingerprint(cfg)   -- before loading: a bot given as a table gets a box
  local bots = load_bots(M.players(cfg), cfg.sandbox)
  local names = {}
  for i, b in ipairs(bots) do names[i] = b.name end
  local pairs = M.pairings(n, cfg.gauntlet ~= nil)
  local st = open_store(cfg, names, shard, shards, fingerprint)
  local done = st.done or {}   -- a store's: the games of the folder
  local todo, list = {}, M.schedule(#pairs, games, shard, shards)
  for _, item in ipairs(list) do
    if not done[key(item)] then todo[#todo + 1] = item end
  end
  local sum = { played = 0, skipped = #list - #todo, planned = #list, names = names, pairs = pairs,
                gauntlet = cfg.gauntlet ~= nil, file = cfg.out and M.shard_file(cfg.out, shard, shards),
                games = games, fingerprint = fingerprint, commands = { cfg.command } }
  local ok, err = pcall(play_todo, cfg, bots, pairs, todo, st, sum)
  if not cfg.out then sum.results = st.results end
  st:close()
  if not ok then error(err, 0) end
  return sum
end

-- ---- reading a folder ------------------------------------------------------------------

-- Why a stored result does not belong to the tournament (its pairings,
-- the games per pairing its file planned or nil), or nil: a game is one of the
-- schedule (pairing, game number, round) with a result.
local SCORE = { white = true, black = true, draw = true }
local function misfit(r, pairs, games)
  if math.type(r.pair) ~= "integer" or math.type(r.game) ~= "integer" or not SCORE[r.winner]
     or (r.score_a ~= 0 and r.score_a ~= 0.5 and r.score_a ~= 1) then
    return "not a game of a tournament: not counted"
  end
  if r.pair < 1 or r.pair > #pairs or r.game < 1 or r.game > (games or math.huge)
     or r.round ~= (r.game - 1) * #pairs + r.pair then
    return ("game outside the schedule (%d pairing%s, %s game%s each): not counted"):format(#pairs,
      #pairs == 1 and "" or "s", games or "any number of", games == 1 and "" or "s")
  end
end

-- The games of a tournament folder, merged: {names, gauntlet, games (per
-- pairing, the most any shard planned), pairs, results (one per game, in
-- round order), total (games planned), warnings, fingerprint, commands
-- (those its files recorded), cfg (config_of its fingerprint)}; or nil,
-- message. A result counts when it is a game of the schedule its file's
-- header plans; what does not belong (other files, unreadable lines, games
-- outside the schedule) is a warning by file and line.
function M.read_dir(dir)
  local all = store.folder(dir)
  local files, notes = {}, store.notes()
  for _, f in ipairs(all) do
    if is_tournament(f) and type(f.header.fingerprint) == "table" then files[#files + 1] = f
    else
      notes:add(f.path, nil, f.header and ("results of a %s, not of a tournament: not counted"):format(
        tostring(f.header.kind)) or "no header line (not written by cheskers tournament): not counted")
    end
  end
  if #files == 0 then return nil, "no tournament results in " .. dir end
  local engines = store.two_engines(files)
  if engines then return nil, engines end
  local S = require "cheskers.schema"
  for _, f in ipairs(files) do
    store.expect(f.path, f.header_line, f.header.plan, "table", "plan")
    match.check_fingerprint(f.path, f.header_line, f.header.fingerprint)
  end
  local first = files[1].header
  local names = first.plan and first.plan.names or first.fingerprint.players
  names = store.expect(files[1].path, files[1].header_line, names, S.list("string", { min = 1 }), "the bots' names")
  if names == nil then store.refuse(files[1].path, files[1].header_line, "the header names no bots") end
  local pairs = M.pairings(#names, first.fingerprint.gauntlet)
  local seen, results, games, commands, said, where = {}, {}, 0, {}, {}, {}
  for _, f in ipairs(files) do
    local command = f.header.plan and f.header.plan.command
    if type(command) == "string" and not said[command] then
      said[command] = true
      commands[#commands + 1] = command
    end
    local d = store.diff(first.fingerprint, f.header.fingerprint)
    if #d > 0 then
      return nil, string.format("%s (there) and %s (here) hold different tournaments:\n  %s",
                                basename(files[1].path), basename(f.path), table.concat(d, "\n  "))
    end
    local planned = type(f.header.plan) == "table" and math.type(f.header.plan.games) == "integer"
                    and f.header.plan.games or nil
    games = math.max(games, planned or 0)
    store.note_unreadable(notes, f)
    for i, r in ipairs(f.results) do
      local why = misfit(r, pairs, planned)
      if why then notes:add(f.path, f.lines[i], why)
      elseif not seen[key(r)] then
        seen[key(r)] = true
        results[#results + 1] = r
        where[r] = { f.path, f.lines[i] }
      end
    end
  end
  table.sort(results, function(x, y) return x.round < y.round end)
  local warnings = notes:list()
  local total = #pairs * games
  if #results < total then
    warnings[#warnings + 1] = string.format("found %d of %d games: some shards are not done", #results, total)
  end
  return { names = names, gauntlet = first.fingerprint.gauntlet, games = games, pairs = pairs,
           results = results, total = total, warnings = warnings, fingerprint = first.fingerprint,
           commands = commands, cfg = M.config_of(first.fingerprint, nil, where), where = where }
end

-- What render_record needs of a stored fingerprint: seed, openings,
-- opening plies, rules (match.stored_rules: rules text only, never a file;
-- rules with hooks only when given, checked against the fingerprint; when
-- they cannot be had, cfg.rules_error says why and render_record raises it).
function M.config_of(fp, rules, where)
  local cfg = { seed = fp.seed, openings = fp.openings, opening_plies = fp.opening_plies }
  local ok, r = pcall(match.stored_rules, fp.rules, rules)
  cfg.where = where
  if ok then cfg.rules = r else cfg.rules_error = "the game records: " .. tostring(r) end
  return cfg
end

-- ---- standings ---------------------------------------------------------------------

-- How result r of bots a and b ended (t.reasons: reason -> games) and
-- who lost it by a fault (t.faults[i]: {n, reasons}).
local function count_ending(t, r, a, b)
  if type(r.reason) ~= "string" then return end
  local reason = game_mod.canonical_reason(r.reason)
  t.reasons[reason] = (t.reasons[reason] or 0) + 1
  local color = game_mod.faulted(r)
  if not color or (r.a_color ~= "white" and r.a_color ~= "black") then return end
  local f = t.faults[color == r.a_color and a or b]
  f.n, f.reasons[reason] = f.n + 1, (f.reasons[reason] or 0) + 1
end

local function tally(names, pairs, results)
  local n = #names
  local t = { n = n, names = names, score = {}, played = {}, points = {}, met = {}, wdl = {},
              reasons = {}, faults = {} }
  for i = 1, n do
    t.score[i], t.played[i], t.points[i], t.met[i], t.faults[i] = 0, 0, {}, {}, { n = 0, reasons = {} }
    for j = 1, n do t.points[i][j], t.met[i][j] = 0, 0 end
  end
  for p, ab in ipairs(pairs) do t.wdl[p] = { i = ab[1], j = ab[2], w = 0, d = 0, l = 0 } end
  for _, r in ipairs(results) do
    local p = t.wdl[r.pair]
    local a, b = p.i, p.j
    if r.score_a == 1 then p.w = p.w + 1 elseif r.score_a == 0 then p.l = p.l + 1 else p.d = p.d + 1 end
    t.score[a], t.score[b] = t.score[a] + r.score_a, t.score[b] + 1 - r.score_a
    t.played[a], t.played[b] = t.played[a] + 1, t.played[b] + 1
    t.points[a][b], t.points[b][a] = t.points[a][b] + r.score_a, t.points[b][a] + 1 - r.score_a
    t.met[a][b], t.met[b][a] = t.met[a][b] + 1, t.met[b][a] + 1
    count_ending(t, r, a, b)
  end
  return t
end

-- The standings of a summary ({names, pairs, results} as read_dir gives):
-- the tally, ratings (stats.ratings; prior: virtual draws a pairing, by
-- default 0 when the maximum likelihood is finite, else 1), order (player
-- indices by rating; ratings within 1e-6 Elo by score, then as given), los[k] (of order[k] over order[k + 1]).
function M.standings(sum, prior)
  local t = tally(sum.names, sum.pairs, sum.results)
  local list = {}
  for _, p in ipairs(t.wdl) do list[#list + 1] = p end
  local r = stats.ratings(list, t.n, { prior = prior or 0 })
  if not prior and not r.finite then
    r = stats.ratings(list, t.n, { prior = 1 })
    t.auto_prior = true
  end
  t.ratings = r
  t.order = {}
  for i = 1, t.n do t.order[i] = i end
  table.sort(t.order, function(x, y)
    if math.abs(r.elo[x] - r.elo[y]) > 1e-6 then return r.elo[x] > r.elo[y] end
    if t.score[x] ~= t.score[y] then return t.score[x] > t.score[y] end
    return x < y
  end)
  t.los = {}
  for k = 1, t.n - 1 do t.los[k] = stats.los(r, t.order[k], t.order[k + 1]) end
  t.games = #sum.results
  t.warnings = sum.warnings or {}
  t.gauntlet = sum.gauntlet
  t.fingerprint, t.commands, t.per_pairing = sum.fingerprint, sum.commands or {}, sum.games
  return t
end

-- ---- text ------------------------------------------------------------------------------

-- Bot names are chosen by bot files: shown escaped (cheskers.escape), and
-- columns padded by escape.pad, never by a format width built from data.
local console = escape.console

local function num(x)
  if x == math.floor(x) then return string.format("%d", math.floor(x)) end
  return string.format("%.1f", x)
end

local function elo_text(e)
  if e ~= e then return "?" end
  if math.abs(e) < 0.5 then return "0" end
  return string.format("%+.0f", e)
end

-- "2.5/3", "." on the diagonal, "" when the two never met.
local function cell(t, i, j)
  if i == j then return "." end
  if t.met[i][j] == 0 then return "" end
  return num(t.points[i][j]) .. "/" .. t.met[i][j]
end

local function standings_lines(t, w, say)
  say("%3s  %s  %5s  %5s  %6s  %5s  %-14s  %6s", "#", escape.pad("bot", w), "games", "score", "%",
      "Elo", "95% interval", "LOS")
  local r = t.ratings
  local shown = r.finite and elo_text or function() return "?" end
  for k, i in ipairs(t.order) do
    local pct = t.played[i] > 0 and 100 * t.score[i] / t.played[i] or 0
    local interval = string.format("[%s, %s]", shown(r.lo[i]), shown(r.hi[i]))
    local line = string.format("%3d  %s  %5d  %5s  %6.1f  %5s  %-14s  %6s", k, escape.pad(console(t.names[i]), w),
      t.played[i], num(t.score[i]), pct, shown(r.elo[i]), interval,
      t.los[k] and r.finite and string.format("%.1f%%", 100 * t.los[k]) or "")
    say("%s", (line:gsub("%s+$", "")))
  end
end

local function crosstable_lines(t, w, say)
  local widths = {}
  for k in ipairs(t.order) do
    widths[k] = 3
    for _, i in ipairs(t.order) do widths[k] = math.max(widths[k], #cell(t, i, t.order[k])) end
  end
  local head = { string.format("%3s  %s", "#", escape.pad("bot", w)) }
  for k in ipairs(t.order) do head[#head + 1] = escape.lpad(k, widths[k]) end
  say("%s", table.concat(head, "  "))
  for k, i in ipairs(t.order) do
    local row = { string.format("%3d  %s", k, escape.pad(console(t.names[i]), w)) }
    for c, j in ipairs(t.order) do row[#row + 1] = escape.lpad(cell(t, i, j), widths[c]) end
    say("%s", (table.concat(row, "  "):gsub("%s+$", "")))
  end
end

-- "round robin of 3 bots, 6 games"
local function title(t)
  return string.format("%s of %d bots, %s", t.gauntlet and "gauntlet" or "round robin", t.n,
                       require("cheskers").plural(t.games, "game"))
end

-- What is said under the tables, in paragraphs (lists of lines; lines =
-- true: lines that stay lines on the HTML page): how the games ended and
-- who lost games by a fault (the fault policy of cheskers.game), then what
-- the ratings are. The text and the HTML page say the same.
local function footer(t)
  local paras, ended = {}, { lines = true }
  if next(t.reasons) then ended[1] = match.reasons_line(t.reasons) end
  local faulted = {}
  for _, i in ipairs(t.order) do
    local f = t.faults[i]
    if f.n > 0 then
      local parts = {}
      for reason, n in pairs(f.reasons) do parts[#parts + 1] = string.format("%s %d", reason, n) end
      table.sort(parts)
      faulted[#faulted + 1] = string.format("%s %d (%s)", console(t.names[i]), f.n, table.concat(parts, ", "))
    end
  end
  if #faulted > 0 then ended[#ended + 1] = "lost by a fault: " .. table.concat(faulted, ", ") end
  if #ended > 0 then paras[#paras + 1] = ended end
  local r = t.ratings
  local rating = {
    string.format("Elo: maximum likelihood, Davidson's model of draws (nu %.3f), mean 0;", r.nu),
    "95% interval from the observed information; LOS: that a bot is stronger than the next.",
    "Davidson's Elo is on the scale of the win/loss odds (+191: three wins a loss); with draws",
    "it spreads wider than the score-based Elo of cheskers match and of Ordo.",
  }
  if not r.finite then
    rating[#rating + 1] = "No finite maximum: the games do not link every bot to every other both ways (a perfect"
    rating[#rating + 1] = string.format("score, or bots with no games between them%s).", r.prior > 0
      and ", even with virtual draws" or "; --prior 1 adds one virtual draw to each pairing")
  elseif r.prior > 0 then
    local why = t.auto_prior and "some bots won every game against the others: " or ""
    rating[#rating + 1] = string.format("(%s%s added to each pairing,", why,
                                        require("cheskers").plural(r.prior, "virtual draw"))
    rating[#rating + 1] = "each counted as half a win and half a loss)"
  end
  paras[#paras + 1] = rating
  return paras
end

-- The report: standings with ratings, the crosstable, how the games ended,
-- what the ratings are.
function M.report(t)
  local out = {}
  local function say(fmt, ...) out[#out + 1] = console(string.format(fmt, ...)) end   -- one line each
  local w = 3
  for _, name in ipairs(t.names) do w = math.max(w, escape.width(console(name))) end
  say("%s", title(t))
  for _, line in ipairs(t.warnings) do say("warning: %s", line) end
  say("")
  standings_lines(t, w, say)
  say("")
  say("crosstable (points of the row's bot against the column's / games):")
  crosstable_lines(t, w, say)
  for _, para in ipairs(footer(t)) do
    say("")
    for _, line in ipairs(para) do say("%s", line) end
  end
  return table.concat(out, "\n")
end

-- Text for XML/HTML: entities, and no byte XML 1.0 forbids.
local xml = escape.xml

-- How the games were played, from the fingerprint: {name, value} rows.
function M.settings(fp, per_pairing)
  if type(fp) ~= "table" then return {} end
  local rows = {}
  local function row(name, value) if value ~= nil then rows[#rows + 1] = { name, tostring(value) } end end
  row("rules", type(fp.rules) == "table" and fp.rules.text or "golomb")
  row("games per pairing", per_pairing)
  row("seed", fp.seed)
  local budget = {}
  if fp.nodes then budget[#budget + 1] = fp.nodes .. " nodes a move" end
  if fp.time then budget[#budget + 1] = fp.time .. " s a move" end
  row("budget", #budget > 0 and table.concat(budget, ", ") or "each bot's own")
  row("move timeout (s)", fp.move_timeout)
  if type(fp.openings) == "table" then row("openings", #fp.openings .. " from a file")
  else row("openings", string.format("%s random plies", tostring(fp.opening_plies))) end
  row("longest game (plies)", fp.max_plies)
  row("draw at repetition", fp.repetition == 0 and "off" or fp.repetition)
  if fp.sandbox then row("sandbox", "bot files in boxes") end
  return rows
end

local CSS = [[
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 24px auto; max-width: 1000px;
       padding: 0 12px; color: #222; line-height: 1.4; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 24px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid #999; padding: 2px 8px; text-align: right; }
th { background: #eef2f5; } .l, .name { text-align: left; } td.self { background: #ddd; }
div.wide { overflow-x: auto; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; overflow-wrap: anywhere; }
p.note { color: #444; font-size: 13px; }
]]

local function html_standings(t, add)
  local r = t.ratings
  local shown = r.finite and elo_text or function() return "?" end
  local head = { '<tr><th>#</th><th class="l">bot</th><th>games</th><th>score</th><th>%</th><th>Elo</th>'
                 .. "<th>95% interval</th><th>LOS</th>" }
  for k in ipairs(t.order) do head[#head + 1] = "<th>" .. k .. "</th>" end
  add(table.concat(head) .. "</tr>")
  for k, i in ipairs(t.order) do
    local pct = t.played[i] > 0 and 100 * t.score[i] / t.played[i] or 0
    local row = { string.format('<tr><td>%d</td><td class="name">%s</td><td>%d</td><td>%s</td><td>%.1f</td>'
      .. "<td>%s</td><td>[%s, %s]</td><td>%s</td>", k, xml(t.names[i]), t.played[i], num(t.score[i]), pct,
      shown(r.elo[i]), shown(r.lo[i]), shown(r.hi[i]),
      t.los[k] and r.finite and string.format("%.1f%%", 100 * t.los[k]) or "") }
    for _, j in ipairs(t.order) do
      row[#row + 1] = i == j and '<td class="self"></td>' or "<td>" .. xml(cell(t, i, j)) .. "</td>"
    end
    add(table.concat(row) .. "</tr>")
  end
end

-- The standings, crosstable, settings and footer as a page that stands on
-- its own (no script, nothing fetched). opts.command: the command that
-- wrote the page (the folder's own commands are shown too).
function M.html(t, opts)
  opts = opts or {}
  local out = {}
  local function add(text) out[#out + 1] = text end
  local heading = "Cheskers tournament: " .. title(t)
  add("<!DOCTYPE html>")
  add('<html lang="en"><head><meta charset="utf-8">')
  add("<title>" .. xml(heading) .. "</title>")
  add("<style>" .. CSS .. "</style></head><body>")
  add("<h1>" .. xml(heading) .. "</h1>")
  for _, line in ipairs(t.warnings) do add('<p class="note"><b>warning:</b> ' .. xml(line) .. "</p>") end
  add('<div class="wide"><table>')
  html_standings(t, add)
  add("</table></div>")
  add('<p class="note">Score: points (a win 1, a draw 1/2) of the games played; the numbered columns '
      .. "are the crosstable: points of the row's bot against the column's / games.</p>")
  for _, para in ipairs(footer(t)) do
    local lines = {}
    for i, line in ipairs(para) do lines[i] = xml(line) end
    add('<p class="note">' .. table.concat(lines, para.lines and "<br>\n" or "\n") .. "</p>")
  end
  local rows = M.settings(t.fingerprint, t.per_pairing)
  if #rows > 0 then
    add("<h2>How these games were played</h2>")
    add("<table>")
    for _, row in ipairs(rows) do
      add(string.format('<tr><th class="l">%s</th><td class="l">%s</td></tr>', xml(row[1]), xml(row[2])))
    end
    add("</table>")
  end
  local commands = {}
  for _, c in ipairs(t.commands or {}) do commands[#commands + 1] = c end
  if opts.command and opts.command ~= commands[#commands] then commands[#commands + 1] = opts.command end
  if #commands > 0 then
    for _, c in ipairs(commands) do add('<p class="note">Made by <code>' .. xml(c) .. "</code></p>") end
  end
  add("</body></html>")
  return table.concat(out, "\n") .. "\n"
end

-- "game 7/30  greedy - random 1-0 (no moves)"
function M.progress_line(done, total, r)
  return string.format("game %d/%d  %s - %s %s (%s)", done, total, console(r.white), console(r.black),
                       RESULT_TOKEN[r.winner] or "?", tostring(r.reason))
end

return M
