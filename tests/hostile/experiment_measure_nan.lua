-- experiment_measure_nan.lua: measures returning NaN or an infinity (the
-- variant says which). JSON has no such numbers: stored, they would come
-- back as nothing and the measure would vanish from the report. The run
-- must end with a message naming the measure.
local values = { nan = 0 / 0, inf = math.huge, ["-inf"] = -math.huge }
return {
  name = "nonfinite", games = 2, seed = 1, max_plies = 10, bots = "builtin-random",
  variants = { { name = "nan" }, { name = "inf" }, { name = "-inf" } },
  measures = { "result", odd = function(game) return values[game.variant] end },
}
