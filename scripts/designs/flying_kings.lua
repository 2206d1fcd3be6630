-- scripts/designs/flying_kings.lua - flying kings without the draws: with
-- flying kings (a king jumps from afar), which capture rule, majority rule,
-- backward pawn captures and promotion kinds keep draws at 10% or less and
-- the first mover's score within 10 points of even, for the engine at level
-- 2, where flying kings under Golomb's other rules draw about 19% of games?
-- The space has 112 rule sets (fewer after the constraint); the proposer
-- races 40 of them (random, then steps around the best: cheskers design,
-- docs/guide/design.md). The results are in docs/notes/findings.md.
--   cheskers design scripts/designs/flying_kings.lua --out results/flying_kings
return {
  name = "flying_kings_draws",
  description = "flying kings with draws at most 10% and a first mover's score within 40-60% (engine level 2)",
  seed = 1,
  space = {
    capture = { "mixed", "jumps", "all", "optional" },
    majority = { true, false },
    pawns_capture_backward = { false, true },
    promote = "subsets",
  },
  constraints = {
    -- the majority rule does not apply when nothing is forced: one of the two is enough
    function(r) return not (r.capture == "optional" and r.majority == false) end,
  },
  base = { draw_repetition = 3, flying_kings = true },
  targets = {
    { measure = "draws", at_most = 0.10 },
    { measure = "first_mover_score", within = { 0.40, 0.60 } },
    { measure = "mean_plies", goal = "min" },
  },
  players = { bots = "engine:level=2" },
  max_plies = 200,
  random_plies = 4,
  racing = { round = 100, looks = 10, alpha = 0.05 },
  proposer = { candidates = 40, initial = 16 },
  budget = { games = 60000 },
}
