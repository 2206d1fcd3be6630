-- core calls chained one after another, each ending at the call's deadline
-- and its error caught: searches, perft, divide and solve from the bot, from
-- a search's eval and info callbacks, and from a rule hook of the bot's own
-- rules that counts moves again on a copy (so the hook runs under itself).
-- Together they would run for minutes; the box's CPU cap must end them.
local bot = {}

local function chain(b)
  pcall(b.search, b, { depth = 40 })
  pcall(b.perft, b, 20)
  pcall(b.divide, b, 20)
  pcall(b.solve, b, { moves = 15 })
end

function bot.choose(board)
  local hooked
  hooked = cheskers.new(board:fen(), { filter = function(x)
    pcall(x.perft, x:copy(), 20)
    return true
  end })
  for _ = 1, 20 do
    chain(board)
    pcall(board.search, board, { depth = 40, eval = function(x) chain(x); return 0 end })
    pcall(board.search, board, { depth = 40, info = function() chain(board:copy()) end })
    pcall(hooked.perft, hooked, 20)
  end
  return board:moves()[1]
end

return bot
