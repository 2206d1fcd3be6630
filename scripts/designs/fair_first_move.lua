-- scripts/designs/fair_first_move.lua - a fair first move: which combinations
-- of the majority rule, the capture rule and the promotion kinds bring the
-- first mover's score within 2 points of even, for the engine at level 2
-- (500 nodes a move, scripts/bots/engine.lua), where Golomb's rules give the
-- first mover (Black) about 54.5% (300 games: [47, 62])? Every one of the 56
-- rule sets is raced
-- (cheskers design, docs/guide/design.md); the results are in docs/notes/findings.md.
--   cheskers design scripts/designs/fair_first_move.lua --out results/fair_first_move
return {
  name = "fair_first_move",
  description = "first mover's score within 2 points of even (engine level 2)",
  seed = 1,
  space = {
    majority = { true, false },
    capture = { "mixed", "jumps", "all", "optional" },
    promote = "subsets",            -- every non-empty subset of K, B and C: 7
  },
  base = { draw_repetition = 3 },
  targets = {
    { measure = "first_mover_score", within = { 0.48, 0.52 } },
    { measure = "mean_plies", goal = "min" },   -- ranks the rule sets that meet the target
  },
  players = { bots = "engine:level=2" },
  max_plies = 200,
  random_plies = 4,                 -- two random moves a side: varied openings
  racing = { round = 500, looks = 20, alpha = 0.05 },
  budget = { games = 110000 },
}
