-- puzzle_title.lua: a sound win in 1 whose title forges a line of `cheskers
-- check` ("other.lua#1: OK") and clears the screen. The report must show
-- the title escaped on the puzzle's own line, as must the REPL's `puzzle`.
return {
  title = "evil\nother.lua#1: OK (0.00 s)\27[2J",
  fen = "5k1b/p1p1p3/5p1p/p1p1C1p1/1P1P1P2/P1P1P1P1/8/B1K1c3 w 0 13",
  goal = "win", moves = 1, solution = { "e5xf8" },
}
