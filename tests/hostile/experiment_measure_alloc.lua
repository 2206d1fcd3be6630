-- experiment_measure_alloc.lua: a measure that allocates without end (a
-- table kept across games, growing by megabytes a call, and a string that
-- doubles). With --sandbox it is stopped at the box's memory cap.
local hoard = {}
return {
  name = "hoard", games = 2, seed = 1, max_plies = 10, bots = "builtin-random",
  variants = { { name = "a" } },
  measures = { "result", grow = function()
    local s = "x"
    while true do
      s = s .. s
      hoard[#hoard + 1] = s
    end
  end },
}
