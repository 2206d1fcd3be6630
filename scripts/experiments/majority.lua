-- majority.lua - does the majority rule (a jump must capture the most
-- pieces, docs/reference/rules.md) change who wins and how long games last?
-- Other descriptions of Cheskers leave the rule out: majority = false.
return {
  name = "majority",
  description = "majority rule on (golomb) vs off",
  games = 1000,
  seed = 1,
  max_plies = 300,
  bots = "engine:level=3",      -- scripts/bots/engine.lua: the C search, 1000 nodes a move
  strengths = { 1, 3, 5 },      -- ... replaced by engine:level=1, 3 and 5 (250, 1000, 4000 nodes)
  trace = { depth = 2 },        -- the evaluation after every ply: a 2-ply search
  random_plies = 4,             -- two random moves a side: varied openings
  base = { draw_repetition = 3 },
  variants = {
    { name = "majority-on", rules = { majority = true } },
    { name = "majority-off", rules = { majority = false } },
  },
  measures = { "result", "plies", "branching", "reason", "captures" },
}
