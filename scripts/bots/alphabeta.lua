-- alphabeta: a complete game-tree search written in plain Lua on the public
-- `cheskers` module API (docs/reference/lua_api.md). It is meant to be read and
-- copied: every piece a real engine has is here, in its simplest form, and
-- it uses the parts of the API made for search loops, so it is fast too.
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
-- What makes it fast (the search loop allocates only the move lists):
--   * b:eval() is the engine's static evaluation, written in C: one call,
--     a number, no table;
--   * b:ordered_moves() lists the moves captures first (more and dearer
--     pieces first), then promotions: the order alpha-beta wants;
--   * moves are read through fields that cost no allocation (m.is_capture,
--     m.is_promotion, m.key) and compared by m.key, an integer.
--
-- The bot interface: choose(board, limits) returns a move; limits.nodes
-- and limits.time (seconds) are the budget for this move. configure(opts)
-- takes options from the match command line (alphabeta:depth=3). After a
-- move, bot.last_nodes is the number of nodes searched for it.

local WIN = 100000   -- the score of a won game (minus the plies it takes)

-- ---- the search ---------------------------------------------------------------

-- The search state for one call of choose: the node count and the budget.
local Search = {}
Search.__index = Search

-- Counts a node; true when the budget is spent (the search then unwinds).
function Search:tick()
  local n = self.nodes + 1
  self.nodes = n
  if n >= self.max_nodes then self.stopped = true end
  if self.deadline and n % 256 == 0 and os.clock() >= self.deadline then
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

-- Quiescence: only captures (and promotions), unless every legal move is a
-- capture, in which case the side to move has no choice and all are searched.
function Search:quiesce(board, alpha, beta, ply)
  if self:tick() then return 0 end
  local moves = board:ordered_moves()   -- captures first, then promotions
  local n = #moves
  if n == 0 then return game_over_score(board, ply) end
  -- the last move is a capture only when every move is one
  local forced = moves[n].is_capture
  local best = -math.huge
  if not forced then
    -- "stand pat": the side to move may decline the captures
    best = board:eval()
    if best >= beta then return best end
    if best > alpha then alpha = best end
  end
  for i = 1, n do
    local m = moves[i]
    if not (forced or m.is_capture or m.is_promotion) then break end  -- quiet moves follow
    board:play(m)
    local score = -self:quiesce(board, -beta, -alpha, ply + 1)
    board:undo()
    if self.stopped then return 0 end
    if score > best then best = score end
    if score > alpha then alpha = score end
    if alpha >= beta then break end     -- the opponent will avoid this line
  end
  return best
end

-- Negamax with alpha-beta: the score of board for the side to move,
-- searching depth more plies. Returns the score and the best move. first:
-- the key of the move to try first (the previous iteration's best).
function Search:negamax(board, depth, alpha, beta, ply, first)
  if depth <= 0 then return self:quiesce(board, alpha, beta, ply) end
  if self:tick() then return 0 end
  local moves = board:ordered_moves()
  if #moves == 0 then return game_over_score(board, ply) end
  if first then                         -- the previous best move to the front
    for i = 2, #moves do
      if moves[i].key == first then
        table.insert(moves, 1, table.remove(moves, i))
        break
      end
    end
  end
  local best, best_move = -math.huge, nil
  for i = 1, #moves do
    local m = moves[i]
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

-- Options from the command line: depth=N (fixed depth), nodes=N. The
-- loader checks them against this declaration before configure runs.
bot.options = { depth = { type = "integer", min = 1, max = bot.max_depth },
                nodes = { type = "integer", min = 1, max = 1000000000000 } }

function bot.configure(opts)
  bot.max_depth = opts.depth or bot.max_depth
  bot.nodes = opts.nodes or bot.nodes
  if opts.depth and not opts.nodes then bot.fixed_depth = true end
end

function bot.choose(board, limits)
  limits = limits or {}
  board = board:copy()                -- search on our own copy
  local s = setmetatable({ nodes = 0, stopped = false, max_nodes = math.huge }, Search)
  if not bot.fixed_depth then
    s.max_nodes = bot.nodes or limits.nodes or math.huge
    if limits.time then s.deadline = os.clock() + limits.time * 0.8 end
    if s.max_nodes == math.huge and not s.deadline then s.max_nodes = 20000 end
  end
  local moves = board:ordered_moves()
  local best = moves[1]
  if #moves == 1 then return best end
  for depth = 1, bot.max_depth do
    local score, move = s:negamax(board, depth, -math.huge, math.huge, 0, best and best.key)
    if s.stopped then break end       -- an unfinished iteration is not trusted
    best = move or best
    if math.abs(score) > WIN - 1000 then break end   -- a forced result: done
  end
  bot.last_nodes = s.nodes
  return best
end

return bot
