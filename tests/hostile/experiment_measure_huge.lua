-- experiment_measure_huge.lua: a measure returning math.maxinteger every
-- game. Summed in integers the mean wraps round to -1; it must be reported
-- as about 9.22e18.
return {
  name = "huge", games = 4, seed = 1, max_plies = 10, bots = "builtin-random",
  variants = { { name = "a" } },
  measures = { "result", huge = function() return math.maxinteger end },
}
