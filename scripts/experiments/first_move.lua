-- first_move.lua - is moving first an advantage? Golomb has Black move
-- first; compare with White first (the same start position otherwise).
return {
  name = "first_move",
  description = "black moves first (golomb) vs white moves first",
  games = 1000,
  seed = 1,
  max_plies = 300,
  bots = "engine:level=3",      -- scripts/bots/engine.lua: the C search, 1000 nodes a move
  strengths = { 1, 3, 5 },      -- ... replaced by engine:level=1, 3 and 5 (250, 1000, 4000 nodes)
  trace = { depth = 2 },        -- the evaluation after every ply: a 2-ply search
  random_plies = 4,             -- two random moves a side: varied openings
  base = { draw_repetition = 3 },
  variants = {
    { name = "black-first", rules = { first = "black" } },
    { name = "white-first", rules = { first = "white" } },
  },
  measures = {
    "result", "plies", "reason",
    -- 1 when the side that moved first won, 0 otherwise (draws count 0)
    first_mover_won = function(game) return game.result == game.first and 1 or 0 end,
  },
}
