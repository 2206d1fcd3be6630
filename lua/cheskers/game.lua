-- cheskers.game - the one game loop (match, experiment, mine; later
-- tournaments): bots called through their box under a time cap, one fault
-- policy, adjudication, and a per-ply observer.
--
--   game.play(g) -> result
--
-- g: white, black (bots from cheskers.bots.load), board (the start
-- position, opening plies already played; it is played on), seed (a list
-- of the arguments of math.randomseed, set before anything else: bots that
-- draw from math.random then depend on it alone), random_plies (the first
-- N plies are random legal moves: varied openings), limits ({nodes, time}
-- handed to choose), move_timeout (CPU seconds a call may take: default
-- 3 * limits.time + 1, or 30), max_plies (default 400) and max_plies_reason
-- (default "max plies"), repetition (the N-th occurrence of a position is
-- a draw: default 3, 0 off), on_ply(board, move, info) (called before each
-- move is played, with the position it is played from; info = {ply, color,
-- random (a random opening ply), moves (the legal moves when the loop
-- generated them, else nil)}; the info table is reused from ply to ply:
-- copy what you keep), record_moves (default true).
--
-- The fault policy: a bot whose call raises (reason "error"), exceeds a
-- sandbox limit ("error", detail "sandbox: ..."), overruns its time
-- ("time"), returns nothing ("no move") or something that is not a legal
-- move ("illegal move") loses the game at once. detail is one line of at
-- most 300 characters; for a Lua error, traceback holds the bot's own
-- frames. Ctrl-C (an "interrupted" error) is raised, not a fault.
--
-- result: winner ("white", "black", "draw"), reason, detail, traceback,
-- fault (the colour that faulted), plies (played in the loop), moves (their
-- texts), board (the final position).
local bots = require "cheskers.bots"

local M = {}

M.DEFAULTS = { max_plies = 400, repetition = 3, max_plies_reason = "max plies" }

local clock = os.clock
local COLORS = { "white", "black" }

local function other(color) return color == "white" and "black" or "white" end

local function forfeit(res, color, reason, detail, traceback)
  res.winner, res.reason, res.fault = other(color), reason, color
  res.detail, res.traceback = detail, traceback
end

-- The box's reason as the game's ("limit": a sandbox rule broken).
local function fault_reason(reason) return reason == "time" and "time" or "error" end

-- new_game for both bots; true when both started.
local function start_bots(g, res, cap)
  local rules
  for _, color in ipairs(COLORS) do
    local bot = g[color]
    local same = color == "black" and g.black == g.white
    if bot.new_game and not same then
      rules = rules or g.board:rules()
      local ok, reason, detail, tb
      if bot.builtin then ok = true; bot.new_game(rules)
      else ok, reason, detail, tb = bots.call(bot, cap, bot.new_game, rules) end
      if not ok then forfeit(res, color, fault_reason(reason), detail, tb) return false end
    end
  end
  return true
end

-- The move a bot's answer names, or nil and the fault.
local function resolve(board, answer)
  if answer == nil then return nil, "no move", "choose returned nothing" end
  local t = type(answer)
  if t ~= "string" and t ~= "userdata" then return nil, "illegal move", "not a move (" .. t .. ")" end
  local text = tostring(answer)
  local m, err = board:parse(text)
  if not m then
    if #text > 60 then text = text:sub(1, 57) .. "..." end
    return nil, "illegal move", text .. ": " .. tostring(err):match("^[^\n]*")
  end
  return m
end

-- Asks the bot to move: move, or nil and reason, detail, traceback.
local function ask(g, board, bot, cap)
  if bot.builtin then
    local moves = board:moves()
    return bot.choose(board, g.limits, moves), moves
  end
  local limits = {}
  for k, v in pairs(g.limits) do limits[k] = v end
  local c0 = clock()
  local ok, answer, detail, tb = bots.call(bot, cap, bot.choose, board:copy(), limits)
  if not ok then return nil, nil, fault_reason(answer), detail, tb end
  local spent = clock() - c0
  if spent > cap then
    return nil, nil, "time", string.format("%.2f s for one move (limit %.2f s)", spent, cap)
  end
  return answer
end

-- The adjudicated end of the position, if any.
local function adjudicate(g, board, ply, seen)
  local winner, reason = board:result()
  if winner then return winner, reason end
  if ply >= g.max_plies then return "draw", g.max_plies_reason end
  if g.repetition > 0 then
    local h = board:hash()
    seen[h] = (seen[h] or 0) + 1
    if seen[h] >= g.repetition then return "draw", "repetition" end
  end
end

-- One ply: the move chosen (random in the opening, else by the bot) and
-- played. Returns true to go on.
local function ply(g, res, board, n, cap)
  local color = board:turn()
  local random = n < g.random_plies
  local m, moves, reason, detail, tb
  if random then
    moves = board:moves()
    m = moves[math.random(#moves)]
  else
    local answer
    answer, moves, reason, detail, tb = ask(g, board, g[color], cap)
    if reason then forfeit(res, color, reason, detail, tb) return false end
    if moves and type(answer) == "userdata" then
      m = answer        -- a built-in bot's pick from the legal moves it was given
    else
      m, reason, detail = resolve(board, answer)
      if not m then forfeit(res, color, reason, detail) return false end
    end
  end
  if g.on_ply then
    local info = res.info      -- one table a game, refilled each ply
    info.ply, info.color, info.random, info.moves = n + 1, color, random, moves
    g.on_ply(board, m, info)
  end
  if g.record_moves then res.moves[#res.moves + 1] = tostring(m) end
  board:play(m)
  return true
end

local function complete(g)
  g.limits = g.limits or {}
  g.max_plies = g.max_plies or M.DEFAULTS.max_plies
  g.max_plies_reason = g.max_plies_reason or M.DEFAULTS.max_plies_reason
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
    while true do
      local winner, reason = adjudicate(g, board, n, seen)
      if winner then res.winner, res.reason = winner, reason break end
      if not ply(g, res, board, n, cap) then break end
      n = n + 1
    end
  end
  res.plies, res.info = n, nil
  return res
end

return M
