-- searches from inside a search's eval callback: each inner search makes a
-- search context of its own (a transposition table of 1 MiB and its move
-- stack). many: 2,000 inner searches one after another; deep: inner
-- searches nested 6 deep, all held at once
local bot = {}

function bot.many(board)
  local n = 0
  while n < 2000 do
    board:search{ depth = 1, eval = function(b)
      if n < 2000 then n = n + 1; b:search{ depth = 1 } end
      return 0
    end }
  end
  return n
end

function bot.deep(board)
  local depth = 0
  local function eval(b)
    if depth < 6 then depth = depth + 1; b:search{ depth = 1, eval = eval } end
    return 0
  end
  board:search{ depth = 1, eval = eval }
  return depth
end

return bot
