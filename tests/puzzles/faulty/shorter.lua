-- Faulty on purpose: SHORTER WIN. A single White king c3 against Black's
-- lone king d4 (e5 empty). The composer states a win in 3, but the jump
-- 1. c3xe5 (compulsory, so White's only move) takes the last king at once:
-- a shorter win than stated.
return {
  title = "Shorter: the king was there for the taking",
  fen = "8/8/8/8/3k4/2K5/8/8 w",
  goal = "win", moves = 3,
  solution = { "c3xe5" },
}
