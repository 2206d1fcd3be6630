-- aa.lua - an A/A test of the report's statistics: six identical variants
-- (golomb, greedy bots), 60 games each. Every difference the report finds
-- is a false alarm; with the Holm correction it should flag nothing in at
-- least 19 seeds of 20 (tests/experiment_test.sh, tests/aa_check.sh).
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
