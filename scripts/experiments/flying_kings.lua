-- flying_kings.lua - do flying kings (draughts-style long moves and long
-- jumps) break the game? Compare golomb kings with flying kings.
return {
  name = "flying_kings",
  description = "short kings (golomb) vs flying kings",
  games = 1000,
  seed = 1,
  max_plies = 300,
  bots = "engine:level=3",      -- scripts/bots/engine.lua: the C search, 1000 nodes a move
  strengths = { 1, 3, 5 },      -- ... replaced by engine:level=1, 3 and 5 (250, 1000, 4000 nodes)
  trace = { depth = 2 },        -- the evaluation after every ply: a 2-ply search
  random_plies = 4,             -- two random moves a side: varied openings
  base = { draw_repetition = 3 },
  variants = {
    { name = "short-kings", rules = { flying_kings = false } },
    { name = "flying-kings", rules = { flying_kings = true } },
  },
  measures = {
    "result", "plies", "branching", "reason", "captures",
    king_captures = function(game) return game.captures.K or 0 end,
  },
}
