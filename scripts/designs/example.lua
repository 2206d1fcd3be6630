-- scripts/designs/example.lua - a design search small enough to run in a
-- few seconds (docs/guide/design.md): which of Golomb's start and one
-- without White's bishop, with or without the majority rule, keep White's
-- score within 30-80% for a weak engine (30 nodes a move)?
--   cheskers design scripts/designs/example.lua --out results/example
return {
  name = "example",
  description = "White's score within 30-80%, with and without White's bishop",
  seed = 1,
  space = {
    majority = { true, false },
    start = {
      "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1",   -- Golomb's
      "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/2K1K1C1 b 0 1",    -- White without its bishop
    },
  },
  targets = {
    { measure = "white_score", within = { 0.30, 0.80 } },
    { measure = "mean_plies", goal = "min" },
  },
  players = { bots = "engine:nodes=30" },
  max_plies = 100,
  random_plies = 2,
  racing = { round = 20, looks = 6, alpha = 0.05 },
}
