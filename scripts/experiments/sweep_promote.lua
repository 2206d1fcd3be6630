-- sweep_promote.lua - every set of promotion choices: `promote` over every
-- non-empty subset of K, B and C (7 variants, named promote=K ...
-- promote=KBC), one results store for the grid.
return {
  name = "sweep_promote",
  description = "promotion choices: every non-empty subset of K, B, C",
  games = 200,
  seed = 1,
  max_plies = 300,
  bots = "engine:level=3",
  strengths = { 1, 3, 5 },
  trace = { depth = 2 },
  random_plies = 4,
  base = { draw_repetition = 3 },
  sweep = { promote = "subsets" },
  measures = { "result", "plies", "reason", "promotions" },
}
