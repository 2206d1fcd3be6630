-- promotion.lua - what does the choice of promotion piece bring? Golomb
-- lets a pawn become a king, a bishop or a camel; compare with kings only.
return {
  name = "promotion",
  description = "promotion to K, B or C (golomb) vs to K only",
  games = 1000,
  seed = 1,
  max_plies = 300,
  bots = "engine:level=3",      -- scripts/bots/engine.lua: the C search, 1000 nodes a move
  strengths = { 1, 3, 5 },      -- ... replaced by engine:level=1, 3 and 5 (250, 1000, 4000 nodes)
  trace = { depth = 2 },        -- the evaluation after every ply: a 2-ply search
  random_plies = 4,             -- two random moves a side: varied openings
  base = { draw_repetition = 3 },
  variants = {
    { name = "promote-KBC", rules = { promote = "KBC" } },
    { name = "promote-K", rules = { promote = "K" } },
  },
  measures = {
    "result", "plies", "promotions", "reason",
    promotions_per_game = function(game)
      local n = 0
      for _, count in pairs(game.promotions) do n = n + count end
      return n
    end,
  },
}
