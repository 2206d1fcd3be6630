-- mcts: Monte Carlo tree search (UCT) in plain Lua.
--
-- Each iteration walks down the tree choosing children by the UCB1 formula
-- (average result plus an exploration bonus), adds one new child, plays a
-- short random game from it (captures preferred, as a weak player would),
-- scores the end by material when the game is not over, and adds the
-- result to every node on the way back. The most visited root move is
-- played. Options: mcts:iterations=N, mcts:playout=PLIES, mcts:c=1.4.

local cheskers = require "cheskers"

local VALUE = { P = 1, K = 3, B = 3, C = 2.5 }

local bot = { name = "mcts", playout = 24, c = 1.4 }

-- The options, checked by the loader before configure runs.
bot.options = {
  iterations = { type = "integer", min = 1, max = 1000000000 },
  playout = { type = "integer", min = 0, max = 10000 },
  c = { type = "number", min = 0, max = 1000 },
}

function bot.configure(opts)
  bot.iterations = opts.iterations or bot.iterations
  bot.playout = opts.playout or bot.playout
  bot.c = opts.c or bot.c
end

-- 1 for a win of `side`, 0 for a loss, 0.5 for a draw; material decides
-- (smoothly) when the game is not over.
local function outcome(board, side)
  local winner = board:result()
  if winner then
    if winner == "draw" then return 0.5 end
    return winner == side and 1 or 0
  end
  local diff = 0
  for _, sq in ipairs(cheskers.SQUARES) do
    local p = board:get(sq)
    if p then
      local v = VALUE[p:upper()] or 2.5
      if (p == p:upper()) == (side == "white") then diff = diff + v else diff = diff - v end
    end
  end
  return 1 / (1 + math.exp(-diff / 2))
end

-- A playout move: a random capture when there is one, else a random move.
local function playout_move(moves)
  local caps = {}
  for _, m in ipairs(moves) do
    if #m.captures > 0 then caps[#caps + 1] = m end
  end
  local pool = #caps > 0 and caps or moves
  return pool[math.random(#pool)]
end

local function new_node(board)
  return { moves = board:moves(), children = {}, visits = 0, total = 0, tried = 0 }
end

function bot.choose(board, limits)
  limits = limits or {}
  board = board:copy()
  local root = new_node(board)
  if #root.moves == 1 then return root.moves[1] end
  local iterations = bot.iterations or (limits.nodes and math.max(50, limits.nodes // 40)) or 400
  local deadline = limits.time and os.clock() + limits.time * 0.8
  for it = 1, iterations do
    if deadline and it % 16 == 0 and os.clock() > deadline then break end
    -- selection: descend while every move of the node has a child
    local node, path, played = root, { root }, 0
    while node.tried == #node.moves and #node.moves > 0 do
      local best, bestv
      local logn = math.log(node.visits)
      for i, child in ipairs(node.children) do
        -- child.total is from the point of view of the side that moved into it
        local v = child.total / child.visits + bot.c * math.sqrt(logn / child.visits)
        if not bestv or v > bestv then best, bestv = i, v end
      end
      board:play(node.moves[best])
      played = played + 1
      node = node.children[best]
      path[#path + 1] = node
    end
    -- expansion: one untried move
    if node.tried < #node.moves then
      node.tried = node.tried + 1
      local side = board:turn()
      board:play(node.moves[node.tried])
      played = played + 1
      local child = new_node(board)
      child.mover = side
      node.children[node.tried] = child
      node = child
      path[#path + 1] = node
    end
    -- simulation
    local extra = 0
    for _ = 1, bot.playout do
      local moves = board:moves()
      if #moves == 0 then break end
      board:play(playout_move(moves))
      extra = extra + 1
    end
    local white = outcome(board, "white")
    for _ = 1, extra + played do board:undo() end
    -- backpropagation
    for _, n in ipairs(path) do
      n.visits = n.visits + 1
      if n.mover then n.total = n.total + (n.mover == "white" and white or 1 - white) end
    end
  end
  local best, bestv
  for i, child in ipairs(root.children) do
    if not bestv or child.visits > bestv then best, bestv = i, child.visits end
  end
  return root.moves[best or 1]
end

return bot
