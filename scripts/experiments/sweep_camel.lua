-- sweep_camel.lua - the camel's leap vector over a grid (each keeps the
-- camel on the dark squares): {1,3} (golomb), {1,5}, {3,3}, {2,4}.
return {
  name = "sweep_camel",
  description = "the camel's leap vector: (1,3), (1,5), (3,3), (2,4)",
  games = 100,
  seed = 1,
  max_plies = 300,
  bots = "engine:level=3",
  strengths = { 1, 3, 5 },
  trace = { depth = 2 },
  random_plies = 4,
  base = { draw_repetition = 3 },
  sweep = { camel = { { 1, 3 }, { 1, 5 }, { 3, 3 }, { 2, 4 } } },
  measures = { "result", "plies", "reason", "captures" },
}
