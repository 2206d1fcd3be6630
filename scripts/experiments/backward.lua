-- backward.lua - pawns that may also jump backward (as in international
-- draughts): more captures, shorter games?
return {
  name = "backward",
  description = "pawns capture forward only (golomb) vs also backward",
  games = 500,
  seed = 1,
  max_plies = 300,
  bots = "engine:level=3",      -- scripts/bots/engine.lua: the C search, 1000 nodes a move
  strengths = { 1, 3, 5 },      -- ... replaced by engine:level=1, 3 and 5 (250, 1000, 4000 nodes)
  trace = { depth = 2 },        -- the evaluation after every ply: a 2-ply search
  random_plies = 4,             -- two random moves a side: varied openings
  base = { draw_repetition = 3 },
  variants = {
    { name = "forward-only", rules = { pawns_capture_backward = false } },
    { name = "backward-too", rules = { pawns_capture_backward = true } },
  },
  measures = {
    "result", "plies", "branching", "reason", "captures",
    pawn_captures = function(game) return game.captures.P or 0 end,
  },
}
