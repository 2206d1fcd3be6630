-- aa.lua - an A/A test of the report's statistics: six identical variants
-- (golomb, greedy bots), 60 games each. Every difference the report finds
-- is a false alarm; with the Holm correction it should flag nothing in at
-- least 19 seeds of 20. The test "A/A" of tests/library/experiment_spec.lua (make
-- test) plays seeds 1 to 20 and checks that, and that unadjusted intervals
-- flag many seeds (9 of 20: docs/guide/experiments.md).
local variants = {}
for i = 1, 6 do variants[i] = { name = "same-" .. i, rules = {} } end
return {
  name = "aa",
  description = "six identical variants: any significant difference is a false alarm",
  games = 60,
  seed = 1,
  max_plies = 300,
  bots = "builtin-greedy",
  trace = false,
  base = { draw_repetition = 3 },
  variants = variants,
  measures = { "result", "plies", "reason" },
}
