-- camel.lua - what if the camel moved differently? Golomb's camel leaps
-- (1,3); compare a long camel (1,5), a (3,3) leaper that stays on its
-- diagonals, a camel that captures by jumping (like a king, compulsory),
-- and a new kind N, an alfil-like (2,2) leaper, standing where the camels
-- start. Every vector keeps a + b even, so pieces stay on dark squares.
local START_N = "1n1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1N1 b 0 1"
return {
  name = "camel",
  description = "the camel redefined by its leap vectors, and a new kind",
  games = 300,
  seed = 1,
  max_plies = 300,
  bots = "engine:level=3",      -- scripts/bots/engine.lua: the C search, 1000 nodes a move
  strengths = { 1, 3, 5 },      -- ... replaced by engine:level=1, 3 and 5 (250, 1000, 4000 nodes)
  trace = { depth = 2 },        -- the evaluation after every ply: a 2-ply search
  random_plies = 4,             -- two random moves a side: varied openings
  base = { draw_repetition = 3 },
  variants = {
    { name = "camel-1-3", rules = { pieces = { C = { leaps = { { 1, 3 } } } } } },
    { name = "camel-1-5", rules = { pieces = { C = { leaps = { { 1, 5 } } } } } },
    { name = "camel-3-3", rules = { pieces = { C = { leaps = { { 3, 3 } } } } } },
    { name = "camel-jumps", rules = { pieces = { C = { leaps = { { 1, 3 } }, capture = "jump",
                                                        compulsory = true } } } },
    { name = "alfil-N", rules = { start = START_N, promote = "KBN",
                                  pieces = { N = { leaps = { { 2, 2 } } } } } },
  },
  measures = {
    "result", "plies", "branching", "captures", "reason",
    -- pieces taken by the camel (or its replacement N) per game
    camel_captures = function(game) return (game.captures.C or 0) + (game.captures.N or 0) end,
    -- how often the camel (or N) was lost
    camel_lost = function(game) return (game.captured.C or 0) + (game.captured.N or 0) end,
  },
}
