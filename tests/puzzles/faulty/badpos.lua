-- Faulty on purpose: BAD POSITION. A White pawn stands on h8, its own
-- promotion rank, which docs/reference/rules.md forbids in a position.
return {
  title = "Bad position: a pawn on its last rank",
  fen = "7P/8/8/8/3k4/2K5/8/8 w",
  goal = "win", moves = 1,
  solution = { "c3xe5" },
}
