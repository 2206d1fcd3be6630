-- search contexts (cheskers.engine.context, 16 MiB of C memory each by
-- default) made in a box. hoard: kept, until the memory cap stops it;
-- churn: 40 made and dropped one after another (the collector must give
-- them back); huge: one of 4096 MiB.
local bot = {}

function bot.hoard()
  local held = {}
  for i = 1, 100 do held[i] = cheskers.engine.context() end
  return #held
end

function bot.churn(board)
  for _ = 1, 40 do
    local ctx = cheskers.engine.context()
    board:search{ depth = 2, context = ctx }
  end
  return 40
end

function bot.huge()
  return cheskers.engine.context(4096)
end

return bot
