-- handicap.lua - a known handicap: White starts without its bishop (a1).
-- The piece values fitted from these games must find the bishop worth
-- something (docs/guide/experiments.md, "Piece values"); the win rates say what
-- a bishop is worth in results.
local NO_WHITE_BISHOP = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/2K1K1C1 b 0 1"
return {
  name = "handicap",
  description = "golomb vs White without its bishop",
  games = 1000,
  seed = 1,
  max_plies = 300,
  bots = "engine:level=3",
  strengths = { 1, 3, 5 },      -- engine:level=1, 3 and 5 for both sides
  trace = { depth = 2 },
  random_plies = 4,
  base = { draw_repetition = 3 },
  variants = {
    { name = "golomb", rules = {} },
    { name = "white-no-bishop", rules = { start = NO_WHITE_BISHOP } },
  },
  measures = { "result", "plies", "reason", "captures" },
}
