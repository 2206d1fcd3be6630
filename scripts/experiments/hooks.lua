-- hooks.lua - goals and prohibitions the options cannot say, as Lua hooks
-- (slower: the core calls back into Lua for every move or position).
--   no-bishop-takes: a filter forbids captures by bishops;
--   first-king-loses: a result hook ends the game as soon as a side has
--   fewer than two kings (the other side wins, reason "king_lost").
local cheskers = require "cheskers"

local function kings(board)
  local w, b = 0, 0
  for _, sq in ipairs(cheskers.SQUARES) do
    local p = board:get(sq)
    if p == "K" then w = w + 1 elseif p == "k" then b = b + 1 end
  end
  return w, b
end

return {
  name = "hooks",
  description = "filter and result hooks: no bishop captures; fewer than two kings loses",
  games = 100,
  seed = 1,
  max_plies = 300,
  bots = "alphabeta:depth=2",   -- scripts/bots/alphabeta.lua (Lua), 2 plies deep (the
                                -- engine bot obeys the hooks too: b:search applies them)
  random_plies = 4,             -- two random moves a side: varied openings
  base = { draw_repetition = 3 },
  variants = {
    { name = "golomb", rules = {} },
    { name = "no-bishop-takes", rules = {
        filter = function(board, move) return not (move.piece == "B" and move.take) end } },
    { name = "first-king-loses", rules = {
        result = function(board)
          local w, b = kings(board)
          if w < 2 and b >= 2 then return "black", "king_lost" end
          if b < 2 and w >= 2 then return "white", "king_lost" end
          if w < 2 and b < 2 then return "draw", "kings_lost" end
          return nil
        end } },
  },
  measures = { "result", "plies", "reason", "captures" },
}
