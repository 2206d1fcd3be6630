-- Faulty on purpose: ILLEGAL SOLUTION MOVE. Black: king b6, bishops a7
-- a3, pawns c5 h6; White: king e3, pawn h4. After 1... c5-d4 White's king
-- must jump (a capture is compulsory): 2. e3xc5 is the only legal move.
-- The solution gives 2. e3-f4 instead, which the rules forbid.
return {
  title = "Illegal: the capture is compulsory",
  fen = "8/b7/1k5p/2p5/7P/b3K3/8/8 b",
  goal = "win", moves = 2,
  solution = { "c5-d4", "e3-f4", "d4-e3" },
}
