-- Faulty on purpose: NOT FORCED (unsound). White: kings c1, bishop e1,
-- pawns b4 d6; Black: a lone king on f6. The composer's idea: 1. e1-c3,
-- and the bishop on the long diagonal (c3-d4-e5-f6-g7) with the pawn d6
-- guarding e7 catches the king: f6-e5 c3xe5, f6-g7 c3xg7, f6-e7 d6xf8=K.
-- But 1... f6-g5 steps off every line, and no other first move wins in 2
-- either: the checker must report the goal as not forced, with f6-g5 as
-- the refutation of e1-c3.
return {
  title = "Unsound: the king slips out",
  fen = "8/8/3P1k2/8/1P6/8/8/2K1B3 w",
  goal = "win", moves = 2,
  solution = { "e1-c3", "f6-e5", "c3xe5" },
}
