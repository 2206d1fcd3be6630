-- alphabeta: a complete game-tree search written in plain Lua on the public
-- `cheskers` module API (docs/lua_api.md). It is meant to be read and
-- copied: every piece a real engine has is here, in its simplest form.
--
--   * negamax: one function scores a position for the side to move; the
--     other side's score is its negation, so White and Black share code;
--   * alpha-beta pruning: stop looking at a position's moves once one of
--     them is good enough that the opponent would never allow it;
--   * quiescence: at the horizon, keep searching captures so that the
--     evaluation never sees a position in the middle of an exchange (and,
--     because capturing is compulsory in Cheskers, never stop while the side
--     to move must capture);
--   * iterative deepening: search depth 1, 2, 3, ... until the budget is
--     spent, trying the previous best move first each time.
--
-- The bot interface: choose(board, limits) returns a move; limits.nodes
-- and limits.time (seconds) are the budget for this move. configure(opts)
-- takes options from the match command line (alphabeta:depth=3).

local cheskers = require "cheskers"

-- ---- evaluation -------------------------------------------------------------

-- Piece values in centipawns (a pawn is 100). Kings are precious: a side
-- that loses all its kings loses the game.
local VALUE = { P = 100, K = 300, B = 300, C = 250 }
local WIN = 100000   -- the score of a won game (minus the plies it takes)

-- The rank (1..8) of a square name such as "c3".
local function rank_of(sq) return sq:byte(2) - 48 end

-- Material plus a small bonus for advanced pawns, from the point of view of
-- the side to move. Upper-case letters are White's pieces.
local function evaluate(board)
  local score = 0
  for _, sq in ipairs(cheskers.SQUARES) do
    local piece = board:get(sq)
    if piece then
      local white = piece == piece:upper()
      local v = VALUE[piece:upper()] or 250
      if piece == "P" then v = v + 6 * (rank_of(sq) - 1) end      -- White goes up
      if piece == "p" then v = v + 6 * (8 - rank_of(sq)) end      -- Black goes down
      score = score + (white and v or -v)
    end
  end
  return board:turn() == "white" and score or -score
end

-- ---- the search ---------------------------------------------------------------

-- The search state for one call of choose: the node count and the budget.
local Search = {}
Search.__index = Search

-- Counts a node; true when the budget is spent (the search then unwinds).
function Search:tick()
  self.nodes = self.nodes + 1
  if self.max_nodes and self.nodes >= self.max_nodes then self.stopped = true end
  if self.deadline and self.nodes % 256 == 0 and os.clock() >= self.deadline then
    self.stopped = true
  end
  return self.stopped
end

-- The score of a finished game for the side to move, ply plies from the
-- root: winning sooner is better, losing later is better.
local function game_over_score(board, ply)
  local winner = board:result()
  if winner == "draw" or winner == nil then return 0 end
  return winner == board:turn() and WIN - ply or -(WIN - ply)
end

-- Orders moves: captures first, more captured pieces first, then
-- promotions; the move `first` (the previous best) before everything.
local function order(moves, first)
  local key = {}
  for _, m in ipairs(moves) do
    local k = #m.captures * 10 + (m.promotion and 5 or 0)
    if first and m == first then k = 1000 end
    key[m] = k
  end
  table.sort(moves, function(a, b)
    if key[a] ~= key[b] then return key[a] > key[b] end
    return tostring(a) < tostring(b)    -- a fixed order: the bot is deterministic
  end)
  return moves
end

-- Quiescence: only captures (and promotions), unless every legal move is a
-- capture, in which case the side to move has no choice and all are searched.
function Search:quiesce(board, alpha, beta, ply)
  if self:tick() then return 0 end
  local moves = board:moves()
  if #moves == 0 then return game_over_score(board, ply) end
  local forced = true
  for _, m in ipairs(moves) do
    if #m.captures == 0 then forced = false break end
  end
  local best = -math.huge
  if not forced then
    -- "stand pat": the side to move may decline the captures
    best = evaluate(board)
    if best >= beta then return best end
    if best > alpha then alpha = best end
  end
  for _, m in ipairs(order(moves)) do
    if forced or #m.captures > 0 or m.promotion then
      board:play(m)
      local score = -self:quiesce(board, -beta, -alpha, ply + 1)
      board:undo()
      if self.stopped then return 0 end
      if score > best then best = score end
      if score > alpha then alpha = score end
      if alpha >= beta then break end     -- the opponent will avoid this line
    end
  end
  return best
end

-- Negamax with alpha-beta: the score of board for the side to move,
-- searching depth more plies. Returns the score and the best move.
function Search:negamax(board, depth, alpha, beta, ply, first)
  if depth <= 0 then return self:quiesce(board, alpha, beta, ply) end
  if self:tick() then return 0 end
  local moves = board:moves()
  if #moves == 0 then return game_over_score(board, ply) end
  local best, best_move = -math.huge, nil
  for _, m in ipairs(order(moves, first)) do
    board:play(m)
    local score = -self:negamax(board, depth - 1, -beta, -alpha, ply + 1)
    board:undo()                      -- always put the board back
    if self.stopped then return 0 end
    if score > best then best, best_move = score, m end
    if score > alpha then alpha = score end
    if alpha >= beta then break end   -- a refutation: no need to look further
  end
  return best, best_move
end

-- ---- the bot -------------------------------------------------------------------

local bot = { name = "alphabeta", max_depth = 64 }

-- Options from the command line: depth=N (fixed depth), nodes=N.
function bot.configure(opts)
  bot.max_depth = tonumber(opts.depth) or bot.max_depth
  bot.nodes = tonumber(opts.nodes) or bot.nodes
  if opts.depth and not opts.nodes then bot.fixed_depth = true end
end

function bot.choose(board, limits)
  limits = limits or {}
  board = board:copy()                -- search on our own copy
  local s = setmetatable({ nodes = 0, stopped = false }, Search)
  if not bot.fixed_depth then
    s.max_nodes = bot.nodes or limits.nodes
    if limits.time then s.deadline = os.clock() + limits.time * 0.8 end
    if not s.max_nodes and not s.deadline then s.max_nodes = 20000 end
  end
  local moves = board:moves()
  local best = moves[1]
  if #moves == 1 then return best end
  for depth = 1, bot.max_depth do
    local score, move = s:negamax(board, depth, -math.huge, math.huge, 0, best)
    if s.stopped then break end       -- an unfinished iteration is not trusted
    best = move or best
    if math.abs(score) > WIN - 1000 then break end   -- a forced result: done
  end
  return best
end

return bot
