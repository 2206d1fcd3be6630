-- cheskers.game - the one game loop (match, experiment, mine; later
-- tournaments): bots called through their box under a time cap, one fault
-- policy, adjudication, and a per-ply observer.
--
--   game.play(g) -> result
--   game.choose(bot, board, limits, cap) -> move [, legal moves] | nil, reason, detail, traceback
--       one move of a bot under the fault policy (the REPL's bot mode too)
--   game.start(bot, rules, cap [, board]) -> true | false, reason, detail, traceback
--       the bot's new_game(rules), under the same policy (board: the game's)
--   game.canonical_reason(reason) -> reason   old spellings read back ("max plies")
--   game.rng(seed) -> random                  a seeded generator: random(n) -> 1..n
--   game.random_plies(board, n, random [, over, each]) -> plies played
--       THE random opening (see its comment)
--   game.faulted(result) -> "white" | "black" | nil   the colour that lost by a fault
--
-- g: white, black (bots from cheskers.bots.load), board (the start
-- position, opening plies already played; it is played on), seed (a list
-- of the arguments of math.randomseed, set before anything else: bots that
-- draw from math.random then depend on it alone), random_plies (the first
-- N plies are random legal moves: varied openings), limits ({nodes, time}
-- handed to choose), move_timeout (CPU seconds a call may take: default
-- 3 * limits.time + 1, or 30; and a wall-clock backstop of 3 times that, at
-- least 2 s: cheskers.sandbox), max_plies (default 400: a longer game is a
-- draw, reason "max_plies"), repetition (the N-th occurrence of a position is
-- a draw: default 3, 0 off), on_ply(board, move, info) (called before each
-- move is played, with the position it is played from; info = {ply, color,
-- random (a random opening ply), moves (the legal moves when the loop
-- generated them, else nil)}; the info table is reused from ply to ply:
-- copy what you keep), record_moves (default true).
--
-- The fault policy: a bot whose call raises (reason "error"), exceeds a
-- sandbox limit ("error", detail "sandbox: ..."), overruns its time
-- ("time", detail "used 3.10 s of CPU time (limit 3 s)" or "wall-clock
-- backstop: 9.00 s of wall time (...)"), returns nothing ("no move") or something that is not a legal
-- move ("illegal move") loses the game at once. detail is one line of at
-- most 300 characters; for a Lua error, traceback holds the bot's own
-- frames. Ctrl-C (an "interrupted" error) is raised, not a fault.
--
-- The rules' fault is not the bot's: a rule hook (filter, result) of the
-- game's rules that raises while a bot's call runs (the bot's moves or
-- search call the hooks too, on its copy of the board) is raised as an
-- error, as it is when it fails in the game loop itself: the game, and an
-- experiment's run, stop with it ("filter hook: ... (in white's move)").
-- It is counted by the binding (sandbox.hook_failures), so no bot can
-- forge one; a bot that passed a cap of its own budget (its time, memory
-- or instructions, which a hook it calls uses too) still loses.
--
-- result: winner ("white", "black", "draw"), reason, detail, traceback,
-- fault (the colour that faulted), plies (played in the loop), moves (their
-- texts), board (the final position).
local bots = require "cheskers.bots"
local movetext = require "cheskers.movetext"
local sandbox = require "cheskers.sandbox"

local errorf = require("cheskers").errorf
local M = {}

M.DEFAULTS = { max_plies = 400, repetition = 3 }

-- Reasons spelt otherwise by older results files (match wrote "max plies"
-- before the one spelling "max_plies").
local OLD_REASONS = { ["max plies"] = "max_plies" }

-- The one spelling of a reason read from a results file.
function M.canonical_reason(reason)
  return OLD_REASONS[reason] or reason
end

-- The reasons of the fault policy (below): the loser broke it.
M.FAULT_REASONS = { error = true, time = true, ["no move"] = true, ["illegal move"] = true }

-- The colour that lost a result ({winner, reason}, stored ones too) by a
-- fault, or nil.
function M.faulted(r)
  if not M.FAULT_REASONS[M.canonical_reason(r.reason)] then return nil end
  return r.winner == "white" and "black" or r.winner == "black" and "white" or nil
end

local COLORS = { "white", "black" }

local function other(color) return color == "white" and "black" or "white" end

-- A seeded generator (splitmix64: every bit random), of its own: what it
-- draws depends on seed alone, never on math.random. Returns a
-- function(n) -> 1..n.
function M.rng(seed)
  local s = seed
  return function(n)
    s = s + 0x9E3779B97F4A7C15
    local z = s
    z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ~ (z >> 27)) * 0x94D049BB133111EB
    z = z ~ (z >> 31)
    return (z >> 1) % n + 1
  end
end

-- The one source of random openings: plays up to n random legal moves on
-- board, each moves[random(#moves)] of board:moves(); stops early at a
-- position without moves, or when over(board) (called before each draw)
-- returns true. each(board, move, moves) is called before each move is
-- played. Returns the plies played. So the openings depend on the seeded
-- state of random alone: a match's (match.opening_board) on its own
-- game.rng(seed, game pair), identical whatever the bots; an experiment's
-- (g.random_plies) on math.random, seeded with the game's seed before the
-- bots' new_game, so on that seed and on what new_game draws.
function M.random_plies(board, n, random, over, each)
  local played = 0
  while played < n and not (over and over(board)) do
    local moves = board:moves()
    if #moves == 0 then break end
    local m = moves[random(#moves)]
    if each then each(board, m, moves) end
    board:play(m)
    played = played + 1
  end
  return played
end

local function forfeit(res, color, reason, detail, traceback)
  res.winner, res.reason, res.fault = other(color), reason, color
  res.detail, res.traceback = detail, traceback
end

-- The box's reason as the game's ("limit": a sandbox rule broken).
local function fault_reason(reason) return reason == "time" and "time" or "error" end

-- bots.call(bot, cap, fn, ...) for a bot playing on board (or a copy):
-- its results, or raises the error of a rule hook of board's rules that
-- failed meanwhile, saying where (what: "white's move"; see the header).
local function call_bot(board, what, bot, cap, fn, ...)
  local before = sandbox.hook_failures(board)
  local r = table.pack(bots.call(bot, cap, fn, ...))
  local after, message = sandbox.hook_failures(board)
  if after > before and not bot.box:capped() then
    errorf("%s (in %s)", message, what)
  end
  return table.unpack(r, 1, r.n)
end

-- new_game for both bots; true when both started.
local function start_bots(g, res, cap)
  local rules
  for _, color in ipairs(COLORS) do
    local bot = g[color]
    local same = color == "black" and g.black == g.white
    if bot.new_game and not same then
      rules = rules or g.board:rules()
      local ok, reason, detail, tb = M.start(bot, rules, cap, g.board)
      if not ok then forfeit(res, color, reason, detail, tb) return false end
    end
  end
  return true
end

-- At most n characters of text ("..." marks a cut).
local function clip(text, n)
  if #text > n then return text:sub(1, n - 3) .. "..." end
  return text
end

-- The move a bot's answer names, or nil and the fault. The detail of an
-- illegal move is the one move-error wording (movetext.illegal_message),
-- which names the move itself.
local function resolve(board, answer)
  if answer == nil then return nil, "no move", "choose returned nothing" end
  local t = type(answer)
  if t ~= "string" and t ~= "userdata" then return nil, "illegal move", "not a move (" .. t .. ")" end
  local text = tostring(answer)
  local m, err = board:parse(text)
  if not m then
    local msg = movetext.illegal_message(board, clip(text, 60), tostring(err):match("^[^\n]*"))
    return nil, "illegal move", clip(msg:match("^[^\n]*"), 300)
  end
  return m
end

-- Asks the bot to move: its answer (and the legal moves a built-in bot
-- was given), or nil, nil and reason, detail, traceback.
local function ask(limits, board, bot, cap)
  if bot.builtin then
    local moves = board:moves()
    return bot.choose(board, limits, moves), moves
  end
  local copy = {}
  for k, v in pairs(limits) do copy[k] = v end
  local ok, answer, detail, tb = call_bot(board, board:turn() .. "'s move", bot, cap, bot.choose,
                                         board:copy(), copy)
  if not ok then return nil, nil, fault_reason(answer), detail, tb end
  return answer
end

-- The bot's move in board: move, legal moves (a built-in bot's, else nil)
-- | nil, reason, detail, traceback (the fault policy of the header).
-- board is not changed.
function M.choose(bot, board, limits, cap)
  local answer, moves, reason, detail, tb = ask(limits or {}, board, bot, cap or 30)
  if reason then return nil, reason, detail, tb end
  if moves and type(answer) == "userdata" then return answer, moves end
  local m
  m, reason, detail = resolve(board, answer)
  if not m then return nil, reason, detail end
  return m
end

-- new_game(rules) of one bot: true | false, reason, detail, traceback.
-- board: the game's, when there is one (its hooks' failures are the rules'
-- fault).
function M.start(bot, rules, cap, board)
  if not bot.new_game then return true end
  if bot.builtin then bot.new_game(rules) return true end
  local call = board and function(...) return call_bot(board, "new_game", ...) end or bots.call
  local ok, reason, detail, tb = call(bot, cap or 30, bot.new_game, rules)
  if ok then return true end
  return false, fault_reason(reason), detail, tb
end

-- The adjudicated end of the position, if any.
local function adjudicate(g, board, ply, seen)
  local winner, reason = board:result()
  if winner then return winner, reason end
  if ply >= g.max_plies then return "draw", "max_plies" end
  if g.repetition > 0 then
    local h = board:hash()
    seen[h] = (seen[h] or 0) + 1
    if seen[h] >= g.repetition then return "draw", "repetition" end
  end
end

-- What the loop does with move m of ply n + 1 before it is played: the
-- observer and the record.
local function observe(g, res, board, m, n, random, moves)
  if g.on_ply then
    local info = res.info      -- one table a game, refilled each ply
    info.ply, info.color, info.random, info.moves = n + 1, board:turn(), random, moves
    g.on_ply(board, m, info)
  end
  if g.record_moves then res.moves[#res.moves + 1] = tostring(m) end
end

-- The adjudicated end before ply n, kept in res: true when the game is over.
local function over(g, res, board, n, seen)
  local winner, reason = adjudicate(g, board, n, seen)
  if winner then res.winner, res.reason = winner, reason end
  return winner ~= nil
end

-- One ply of a bot: its move chosen and played. Returns true to go on.
local function ply(g, res, board, n, cap)
  local color = board:turn()
  local m, reason, detail, tb = M.choose(g[color], board, g.limits, cap)
  if not m then forfeit(res, color, reason, detail, tb) return false end
  observe(g, res, board, m, n, false, reason)   -- reason: the legal moves a built-in bot was given, or nil
  board:play(m)
  return true
end

local function complete(g)
  g.limits = g.limits or {}
  g.max_plies = g.max_plies or M.DEFAULTS.max_plies
  g.repetition = g.repetition or M.DEFAULTS.repetition
  g.random_plies = g.random_plies or 0
  if g.record_moves == nil then g.record_moves = true end
  return g.move_timeout or (g.limits.time and g.limits.time * 3 + 1) or 30
end

function M.play(g)
  local cap = complete(g)
  if g.seed then math.randomseed(table.unpack(g.seed)) end
  local board = g.board
  local res = { moves = {}, board = board, info = {} }
  local seen, n = {}, 0
  if start_bots(g, res, cap) then
    M.random_plies(board, g.random_plies, math.random,
      function(b) return over(g, res, b, n, seen) end,
      function(b, m, moves) observe(g, res, b, m, n, true, moves) n = n + 1 end)
    while not res.winner and not over(g, res, board, n, seen) do
      if not ply(g, res, board, n, cap) then break end
      n = n + 1
    end
  end
  res.plies, res.info = n, nil
  return res
end

return M
