-- scripts/tools/anchored.lua - a tournament's ratings relative to one bot.
--
--   ./cheskers scripts/tools/anchored.lua DIR BOT
--
-- Reads the tournament folder DIR (cheskers.tournament: the same games, the
-- same maximum-likelihood ratings and prior as `cheskers tournament --report
-- DIR`) and prints, as a Markdown table, every bot's Elo minus BOT's with the
-- 95% interval of that difference (from the ratings' covariance, so BOT's own
-- uncertainty is counted once). docs/guide/bots.md, "The strength scale".
local tournament = require "cheskers.tournament"

local dir, anchor = arg[1], arg[2]
if not dir or not anchor then
  io.stderr:write("usage: cheskers scripts/tools/anchored.lua DIR BOT\n")
  os.exit(2)
end
local sum, err = tournament.read_dir(dir)
if not sum then
  io.stderr:write("anchored: ", err, "\n")
  os.exit(1)
end
local st = tournament.standings(sum)
local a
for i, name in ipairs(st.names) do
  if name == anchor then a = i end
end
if not a then
  io.stderr:write("anchored: no bot '", anchor, "' in ", dir, require("cheskers").did_you_mean(anchor, st.names), "\n")
  os.exit(1)
end
local r = st.ratings
print(string.format("| bot | Elo (%s = 0) | 95%% interval |", anchor))
print("| --- | --- | --- |")
for _, i in ipairs(st.order) do
  local d = r.elo[i] - r.elo[a]
  local se = math.sqrt(math.max(0, r.cov[i][i] + r.cov[a][a] - 2 * r.cov[i][a]))
  local interval = i == a and "" or string.format("[%+.0f, %+.0f]", d - 1.96 * se, d + 1.96 * se)
  print(string.format("| `%s` | %+.0f | %s |", st.names[i], d, interval))
end
if st.auto_prior then
  print("\n(some bots won every game against others: 1 virtual draw added to each pairing)")
end
