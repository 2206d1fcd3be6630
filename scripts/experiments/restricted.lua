-- restricted.lua - restricted play (after Jaffe et al. 2012): how much does
-- a piece or an option matter? White plays with one restriction (its
-- bishop never moves; it never promotes to a camel), Black plays the full
-- game. The restriction is a filter rule, so both
-- searches know of it. The drop in White's score is what the piece or
-- option is worth to a player of that strength.
return {
  name = "restricted",
  description = "White restricted: no bishop moves, no camel promotion",
  games = 200,
  seed = 1,
  max_plies = 300,
  bots = "engine:level=3",
  strengths = { 1, 3 },         -- the Lua filter slows the search about 30 times: no level 5
  trace = { depth = 2 },
  random_plies = 4,
  base = { draw_repetition = 3 },
  variants = {
    { name = "free", rules = {} },
    { name = "no-bishop-moves", rules = {}, restrict = { white = "no-bishop-moves" } },
    { name = "no-camel-promotion", rules = {}, restrict = { white = "no-camel-promotion" } },
  },
  measures = { "result", "plies", "reason", "promotions" },
}
