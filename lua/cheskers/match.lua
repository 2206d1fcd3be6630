-- cheskers.match: bot against bot, game after game (the library behind
-- `cheskers match`). Bots are loaded by cheskers.bots, games played by
-- cheskers.game, results kept by cheskers.store, statistics from
-- cheskers.stats: this file owns what makes a match (openings, colours,
-- the summary, its table).
--
--   match.run(cfg) -> summary               plays the match (fields of cfg below)
--   match.play_game(cfg, bots, game) -> result
--   match.opening_board(cfg, game) -> board  the start of game `game`
--   match.read_openings(path [, rules]) -> list | nil, message (each opening checked under rules)
--   match.fingerprint(cfg, bots) -> data     what a rerun into --out compares
--   match.stored_rules(fp [, given [, played_with]]) -> rules   the rules of
--                                            stored games (fp: a fingerprint's
--                                            rules): see below
--   match.render_record(cfg, result) -> text the game record of a result
--   match.progress_line(summary, result), match.table(summary) -> text
--   match.fault_text(result, number) -> text   who lost by what fault (nil: none)
--   match.reasons_line(counts) -> "ended by: error 1, kings 3"
--   match.game_options(o, cfg) -> cfg | nil, message   how games are played
--                                            (o: cheskers.cli.game_options')
--
-- cfg: a, b (bot specs or bot tables), games (default 2), rules (what
-- cheskers.new accepts), rules_text (the --rules text), seed (default 1),
-- nodes, time (the per-move budget), move_timeout (hard limit a move, CPU
-- seconds: default 3 * time + 1, or 30; cheskers.game), openings (array of {fen =, moves =
-- {text...}}), opening_plies (random plies when there are no openings:
-- default 4), max_plies (default 400), repetition (the N-th occurrence of
-- a position is a draw: default 3, 0 off), out (results file: a header
-- line with the fingerprint, then one line per game, written as each game
-- ends; the games already in out are kept and not played again, and a
-- file of out made from other inputs is refused naming what differs, as
-- cheskers.store does for every results file), records (game records
-- file, kept in step with out), restart (throw away what out holds and
-- start over), resume (what happens anyway; kept for old callers), sprt =
-- {elo0, elo1, alpha, beta}, progress (function(summary, result) after each
-- game), log (function(msg)), sandbox (run the bot files in untrusted boxes;
-- a table sets their limits: {instructions =, memory =, time =}),
-- steal_lock (take over the lock of out: see cheskers.store).

local cheskers = require "cheskers"
local bots_mod = require "cheskers.bots"
local game_mod = require "cheskers.game"
local store = require "cheskers.store"
local stats = require "cheskers.stats"
local S = require "cheskers.schema"
local escape = require "cheskers.escape"

local errorf = require("cheskers").errorf
local match = {}

-- What match.run accepts (the fields of cfg above); any other is refused
-- with the nearest name. The numbers have the ranges of the command line's
-- (cheskers.numbers).
local declared = require("cheskers.numbers").spec
match.CONFIG = S.record {
  noun = "option", required = { "a", "b" },
  fields = {
    a = S.either("string", "table"), b = S.either("string", "table"),
    games = declared "games", rules = "any", rules_text = "string", seed = declared "--seed",
    nodes = declared "--nodes", time = declared "--time", move_timeout = declared "--move-timeout",
    openings = "table", openings_file = "string", opening_plies = declared "--opening-plies",
    max_plies = declared "--max-plies", repetition = declared "--repetition", out = "string",
    records = "string", restart = "boolean", resume = "boolean", sprt = "table", progress = "function",
    log = "function", sandbox = S.either("boolean", "table"), steal_lock = "boolean",
  },
}

-- ---- openings ------------------------------------------------------------------------

-- Reads an openings file: one opening a line, a position text (it has a
-- '/') or moves from the start position separated by spaces (move numbers
-- skipped). Blank lines and lines starting with # are skipped.
-- The board of opening o (an entry of read_openings) under rules, or nil
-- and "opening line N: why".
local function opening_position(o, rules)
  local ok, b = pcall(cheskers.new, o.fen, rules)
  if not ok then return nil, string.format("opening line %d: %s", o.line or 0, tostring(b)) end
  for _, t in ipairs(o.moves or {}) do
    local m, err = b:parse(t)
    if not m then return nil, string.format("opening line %d: %s", o.line or 0, err) end
    b:play(m)
  end
  return b
end

function match.read_openings(path, rules)
  local text, err = require("cheskers.files").read(path, "openings")
  if not text then return nil, err end
  local list = {}
  local n = 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    line = line:gsub("^%s+", ""):gsub("%s+$", "")
    if line ~= "" and not line:match("^#") then
      if line:find("/") then
        list[#list + 1] = { fen = line, line = n }
      else
        local moves = {}
        for w in line:gmatch("%S+") do
          if not w:match("^%d+%.+$") then moves[#moves + 1] = w end
        end
        list[#list + 1] = { moves = moves, line = n }
      end
    end
  end
  if #list == 0 then return nil, path .. ": no openings" end
  for _, o in ipairs(list) do   -- every one, before any game is played (a bad line 500 failed at game 1000)
    local b, oerr = opening_position(o, rules)
    if not b then return nil, path .. ": " .. oerr end
  end
  return list
end

-- The board for game `game`: games 2k-1 and 2k share an opening.
function match.opening_board(cfg, game)
  local pair = (game - 1) // 2
  if cfg.openings and #cfg.openings > 0 then
    local o = cfg.openings[pair % #cfg.openings + 1]
    return assert(opening_position(o, cfg.rules))   -- (read_openings checked it)
  end
  -- random plies (game.random_plies) from a generator of the pair's own
  local random = game_mod.rng(((cfg.seed or 1) * 1000003 + pair) * 7919)
  for _ = 1, 20 do
    local b = cheskers.new(nil, cfg.rules)
    game_mod.random_plies(b, cfg.opening_plies or 4, random)
    if not b:result() then return b end
  end
  return cheskers.new(nil, cfg.rules)
end

-- ---- one game ---------------------------------------------------------------------------

-- Plays game number `game` between bots[1] (a) and bots[2] (b). Returns a
-- result table: game, white, black (bot names), a_color, winner ("white",
-- "black", "draw"), reason, detail and traceback (for faults), plies,
-- moves (texts), opening (its moves or position), score_a (1, 0.5, 0),
-- time; and board (the final position, not stored).
function match.play_game(cfg, bots, game)
  local t0 = cheskers.clock()
  local a_white = game % 2 == 1
  local white, black = bots[1], bots[2]
  if not a_white then white, black = black, white end
  local board = match.opening_board(cfg, game)
  local opening = {}
  for i, m in ipairs(board:history()) do opening[i] = tostring(m) end
  opening = #opening > 0 and table.concat(opening, " ") or board:fen()
  local g = game_mod.play {
    white = white, black = black, board = board, seed = { cfg.seed or 1, game },
    limits = { nodes = cfg.nodes, time = cfg.time }, move_timeout = cfg.move_timeout,
    max_plies = cfg.max_plies, repetition = cfg.repetition,
  }
  return {
    game = game, white = white.name, black = black.name, a_color = a_white and "white" or "black",
    opening = opening, winner = g.winner, reason = g.reason, detail = g.detail, traceback = g.traceback,
    plies = g.plies, moves = g.moves,
    score_a = g.winner == "draw" and 0.5 or ((g.winner == "white") == a_white and 1 or 0),
    time = cheskers.clock() - t0, board = g.board,
  }
end

-- ---- the match ------------------------------------------------------------------------

local RESULT_TOKEN = { white = "1-0", black = "0-1", draw = "1/2-1/2" }

local function new_summary(cfg, bots)
  return {
    a = bots[1].name, b = bots[2].name, games = cfg.games or 2, played = 0,
    wins = 0, draws = 0, losses = 0, reasons = {}, results = {},
  }
end

local function add_result(sum, r)
  sum.played = sum.played + 1
  if r.score_a == 1 then sum.wins = sum.wins + 1
  elseif r.score_a == 0 then sum.losses = sum.losses + 1
  else sum.draws = sum.draws + 1 end
  local reason = r.reason or "?"   -- (a line written by hand may have none)
  sum.reasons[reason] = (sum.reasons[reason] or 0) + 1
  sum.results[#sum.results + 1] = r
end

-- The rules of a fingerprint: their text (cheskers.rulespec.format, so
-- that two spellings of one rule set agree) and digests of any hooks.
local function rules_print(rules)
  if rules == nil then return nil end
  local hooks
  if type(rules) == "table" then
    for k, v in pairs(rules) do
      if type(v) == "function" then hooks = hooks or {}; hooks[k] = v end
    end
  end
  local ok, text = pcall(require("cheskers.rulespec").format, rules)
  return { text = ok and text or store.plain(rules), hooks = hooks }
end

-- What produced the results: a rerun into the same file must agree on all of it
-- (the number of games may grow).
function match.fingerprint(cfg, bots)
  return store.plain {
    a = bots[1].spec or bots[1].name, b = bots[2].spec or bots[2].name,
    seed = cfg.seed or 1, nodes = cfg.nodes, time = cfg.time,
    rules = rules_print(cfg.rules),
    max_plies = cfg.max_plies or game_mod.DEFAULTS.max_plies,
    repetition = cfg.repetition or game_mod.DEFAULTS.repetition,
    opening_plies = not cfg.openings and (cfg.opening_plies or 4) or nil,
    openings = cfg.openings, move_timeout = cfg.move_timeout, sandbox = cfg.sandbox or nil,
  }
end

-- What the values of a stored fingerprint (match.fingerprint's, also of
-- tournament and tune files) must be, when present: each number by its
-- command-line option's declaration, the openings texts. A folder is data:
-- a forged seed of 1.5 reached the openings' random draws (a traceback),
-- another value a "%d" format. Raises "PATH, line N: ..." (store.expect).
local function fingerprint_fields()
  local N = require "cheskers.numbers"
  local fields = { openings = S.list("string"), a = "string", b = "string" }
  for _, k in ipairs({ "seed", "nodes", "time", "max_plies", "repetition", "opening_plies", "move_timeout" }) do
    fields[k] = N.spec("--" .. k:gsub("_", "-"))
  end
  return fields
end

function match.check_fingerprint(path, line, fp)
  for k, spec in pairs(fingerprint_fields()) do store.expect(path, line, fp[k], spec, "fingerprint." .. k) end
end

-- The rules of stored games, the one reader of a fingerprint's rules
-- ({text, hooks} as rules_print makes them; nil: golomb), for every reader
-- of a results folder (tournament --report, tune --fit, fitted weights):
-- a folder is data, which anyone may have written, so its rules are read
-- as rules text only (rulespec.parse_text: a file's name is refused, no
-- code runs). Rules with hooks (a rule file's filter or result) cannot be
-- read back from data: they must be given (given: the rule table of a
-- trusted --rules FILE on the command line, or an experiment's variant),
-- and the digests of their hooks and their text must be those stored.
-- played_with: the --rules text the games were played with (a plan's,
-- for the message). Raises "the rules of these games ..." in one line.
function match.stored_rules(fp, given, played_with)
  if fp == nil then fp = { text = "golomb" } end
  if type(fp) ~= "table" then
    error("the rules of these games cannot be read back: " .. escape.console(tostring(fp)), 0)
  end
  local rules = given
  if rules == nil then
    if fp.hooks ~= nil then
      local names = {}
      for k in pairs(type(fp.hooks) == "table" and fp.hooks or {}) do
        names[#names + 1] = escape.console(tostring(k))
      end
      table.sort(names)
      errorf("the rules of these games have hooks (%s), which a results folder does not hold: "
        .. "give their rule file with --rules FILE%s", table.concat(names, ", "),
        type(played_with) == "string" and " (they were played with --rules " .. escape.console(played_with) .. ")"
        or "")
    end
    if type(fp.text) ~= "string" then
      error("the rules of these games cannot be read back: " .. escape.console(store.encode(fp.text)), 0)
    end
    local err
    rules, err = require("cheskers.rulespec").parse_text(fp.text)
    if rules == nil then errorf("the rules of these games (%s): %s", escape.console(fp.text), err) end
  end
  local now = store.plain { rules = rules_print(rules) }.rules
  local d = store.diff(fp, store.decode(store.encode(now)))
  if #d > 0 then
    for i, line in ipairs(d) do d[i] = escape.console(line) end
    errorf("the rules given are not those the games were played with: %s", table.concat(d, "; "))
  end
  return rules
end

-- The game record of a stored result: its opening replayed, then its moves.
-- event and round: the tags (default: "cheskers match", the game number).
function match.render_record(cfg, r, event, round)
  local record = require "cheskers.record"
  local board = match.opening_board(cfg, r.game)
  for _, t in ipairs(r.moves or {}) do board:play(t) end
  local tags = {
    Event = event or "cheskers match", Round = round or r.game, White = r.white, Black = r.black,
    Result = RESULT_TOKEN[r.winner], Termination = r.reason,
  }
  if r.detail then tags.Annotator = r.detail end
  return record.write(board, tags) .. "\n"
end

-- What the fields of a stored game that a resumed match reads must be
-- (store.open's fields: a forged value is refused by file and line).
match.RESULT_FIELDS = {
  reason = "string", winner = S.one_of { "white", "black", "draw" }, score_a = S.one_of { 0, 0.5, 1 },
  moves = S.list("string"), plies = S.int { min = 0 }, white = "string", black = "string", detail = "string",
  a_color = S.one_of { "white", "black" }, opening = "string",
}

-- The two bots, told apart when they have the same name.
local function load_bots(cfg)
  local bopts = { sandbox = cfg.sandbox }
  local bots = { bots_mod.load(cfg.a, bopts), bots_mod.load(cfg.b, bopts) }
  if bots[1].name == bots[2].name then
    local s1, s2 = type(cfg.a) == "string" and cfg.a, type(cfg.b) == "string" and cfg.b
    local n1, n2 = bots[1].name .. "#1", bots[2].name .. "#2"
    if s1 and s2 and s1 ~= s2 then n1, n2 = s1, s2 end
    bots[1] = setmetatable({ name = n1 }, { __index = bots[1] })
    bots[2] = setmetatable({ name = n2 }, { __index = bots[2] })
  end
  return bots
end

-- Without --out, records alone: written as games end (nothing to resume).
local function records_only(cfg)
  return store.records_file(cfg.records, function(r) return match.render_record(cfg, r) end)
end

local function open_store(cfg, bots)
  if not cfg.out then return cfg.records and records_only(cfg) or nil end
  return store.open {
    path = cfg.out, kind = "match", fingerprint = match.fingerprint(cfg, bots),
    restart = cfg.restart, steal_lock = cfg.steal_lock,
    key = function(r) return math.type(r.game) == "integer" and r.game or nil end,
    records = cfg.records, render = function(r) return match.render_record(cfg, r) end,
    fields = match.RESULT_FIELDS,
  }
end

local function update_sprt(cfg, sum)
  if not cfg.sprt then return end
  local s = cfg.sprt
  local llr, lo, hi, decision = stats.sprt(sum.wins, sum.draws, sum.losses, s.elo0, s.elo1, s.alpha, s.beta)
  sum.sprt = { llr = llr, lower = lo, upper = hi, decision = decision }
end

-- The stored results of the games of this match, in game order (their
-- values were checked by the store against match.RESULT_FIELDS).
local function kept_results(st, games)
  local kept = {}
  for _, r in ipairs(st and st.results or {}) do
    if r.game <= games then
      r.reason = game_mod.canonical_reason(r.reason)
      kept[#kept + 1] = r
    end
  end
  table.sort(kept, function(x, y) return x.game < y.game end)
  return kept
end

-- Plays the games not stored yet; stops early on an SPRT decision.
local function play_games(cfg, bots, sum, st)
  local done = {}
  for _, r in ipairs(kept_results(st, sum.games)) do
    done[r.game] = true
    add_result(sum, r)
    update_sprt(cfg, sum)
  end
  if sum.played > 0 and cfg.log then cfg.log(string.format("resuming: %d games kept", sum.played)) end
  for game = 1, sum.games do
    if sum.sprt and sum.sprt.decision then break end
    if not done[game] then
      local r = match.play_game(cfg, bots, game)
      r.board = nil
      if st then st:append(r) end
      add_result(sum, r)
      update_sprt(cfg, sum)
      if cfg.progress then cfg.progress(sum, r) end
    end
  end
end

-- Runs the match. Returns the summary: a, b (names), games, played, wins,
-- draws, losses (of a), reasons (reason -> count), results, elo, elo_lo,
-- elo_hi, sprt = {llr, lower, upper, decision} when asked.
function match.run(cfg)
  S.check(cfg, match.CONFIG, "match.run")
  local bots = load_bots(cfg)
  local sum = new_summary(cfg, bots)
  local st = open_store(cfg, bots)
  local ok, err = pcall(play_games, cfg, bots, sum, st)
  if st then st:close() end
  if not ok then error(err, 0) end
  table.sort(sum.results, function(x, y) return x.game < y.game end)
  sum.elo, sum.elo_lo, sum.elo_hi = stats.elo(sum.wins, sum.draws, sum.losses)
  return sum
end

-- ---- text ------------------------------------------------------------------------------

-- Bot names are chosen by bot files: shown escaped (cheskers.escape.console),
-- so that a newline or an escape sequence in a name cannot forge a line.
local console = escape.console

local function elo_text(e)
  if e == math.huge then return "+inf" end
  if e == -math.huge then return "-inf" end
  if math.abs(e) < 0.5 then return "0" end
  return string.format("%+.0f", e)
end

-- "game 12/100  engine +9 =1 -2  79.2%  Elo +230 [+120, +inf]"
function match.progress_line(sum, r)
  local n = sum.played
  local s = n > 0 and (sum.wins + sum.draws / 2) / n * 100 or 0
  local e, lo, hi = stats.elo(sum.wins, sum.draws, sum.losses)
  local line = string.format("game %d/%d  %s +%d =%d -%d  %.1f%%  Elo %s [%s, %s]",
    n, sum.games, console(sum.a), sum.wins, sum.draws, sum.losses, s, elo_text(e), elo_text(lo), elo_text(hi))
  if r then
    local who = r.winner == "draw" and "draw" or console(r.winner == "white" and r.white or r.black) .. " won"
    line = line .. string.format("  (last: %s, %s)", who, r.reason)
  end
  if sum.sprt then
    line = line .. string.format("  LLR %.2f [%.2f, %.2f]", sum.sprt.llr, sum.sprt.lower, sum.sprt.upper)
  end
  return line
end

-- "game 3: liar (black) lost by illegal move a1-h8: ..." (a detail that
-- starts with the reason is not preceded by it again) and, for a Lua
-- error, the bot's own traceback; nil when no bot faulted. number: the
-- game's number (default r.game).
function match.fault_text(r, number)
  local color = game_mod.faulted(r)
  if not color then return nil end
  local who = color == "white" and r.white or r.black
  local detail = r.detail or ""
  local how = detail == "" and r.reason
    or detail:sub(1, #r.reason) == r.reason and detail or r.reason .. ": " .. detail
  local text = string.format("game %d: %s (%s) lost by %s", number or r.game, console(who), color, console(how))
  if r.traceback and r.traceback ~= "" then   -- escaped line by line, Lua's tab before each level kept
    text = text .. "\n" .. r.traceback:gsub("([^\n]+)", function(line)
      local indent, rest = line:match("^(\t*)(.*)$")
      return indent .. console(rest)
    end)
  end
  return text
end

-- How games ended: "ended by: error 1, kings 3" (reason -> count).
function match.reasons_line(counts)
  local reasons = {}
  for k, v in pairs(counts) do reasons[#reasons + 1] = string.format("%s %d", k, v) end
  table.sort(reasons)
  return "ended by: " .. table.concat(reasons, ", ")
end

-- The final table.
function match.table(sum)
  local n = sum.played
  local lines = {}
  local a, b = console(sum.a), console(sum.b)
  local w = math.max(escape.width(a), escape.width(b), 3)
  local function row(name, wi, d, l)
    local s = n > 0 and (wi + d / 2) / n * 100 or 0
    return string.format("%s  %5d  %5d  %5d  %6d  %6.1f%%", escape.pad(name, w), n, wi, d, l, s)
  end
  lines[#lines + 1] = string.format("%s  %5s  %5s  %5s  %6s  %7s",
                                    escape.pad("bot", w), "games", "wins", "draws", "losses", "score")
  lines[#lines + 1] = row(a, sum.wins, sum.draws, sum.losses)
  lines[#lines + 1] = row(b, sum.losses, sum.draws, sum.wins)
  local e, lo, hi = stats.elo(sum.wins, sum.draws, sum.losses)
  lines[#lines + 1] = string.format("Elo difference (%s - %s): %s, 95%% interval [%s, %s]",
    a, b, elo_text(e), elo_text(lo), elo_text(hi))
  lines[#lines + 1] = match.reasons_line(sum.reasons)
  if sum.sprt then
    lines[#lines + 1] = string.format("SPRT: LLR %.2f, bounds [%.2f, %.2f]: %s", sum.sprt.llr, sum.sprt.lower,
      sum.sprt.upper, sum.sprt.decision == "H1" and "H1 accepted (" .. a .. " is stronger)"
      or sum.sprt.decision == "H0" and "H0 accepted" or "no decision")
  end
  return table.concat(lines, "\n")
end

-- The options of how games are played (o: the fields of cfg above, as
-- `cheskers match`, `tournament` and `tune` read them with
-- cheskers.cli.game_options, or a table from code), each checked, copied
-- into cfg. Returns cfg, or nil and a message.
function match.game_options(o, cfg)
  -- each number read again by its declaration (o may come from code, not
  -- from the parser); games and seed are always there
  local N = require "cheskers.numbers"
  for _, name in ipairs({ "games", "seed", "nodes", "time", "move_timeout", "opening_plies", "max_plies",
                          "repetition" }) do
    if o[name] ~= nil or name == "games" or name == "seed" then
      local key = "--" .. name:gsub("_", "-")
      local ok, err = N.read(o[name], key, key)
      if ok == nil then return nil, err end
    end
  end
  cfg.games, cfg.seed, cfg.nodes, cfg.time, cfg.move_timeout = o.games, o.seed, o.nodes, o.time, o.move_timeout
  cfg.opening_plies, cfg.max_plies, cfg.repetition, cfg.sandbox = o.opening_plies, o.max_plies, o.repetition, o.sandbox
  if o.rules then
    local rules, err = require("cheskers.rulearg").parse(o.rules)
    if not rules then return nil, err end
    local okr, rerr = pcall(cheskers.rules, rules)
    if not okr then return nil, tostring(rerr) end
    cfg.rules, cfg.rules_text = rules, o.rules
  end
  if o.openings then
    local list, err = match.read_openings(o.openings, cfg.rules)
    if not list then return nil, err end
    cfg.openings, cfg.openings_file = list, o.openings
  end
  return cfg
end

return match
