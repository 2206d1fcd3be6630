-- Faulty on purpose: THE LINE DOES NOT END IN A WIN. The position is the
-- sound win in 2 of dual.lua's family without the dual: Black: king b6,
-- bishop a7, pawns c5 h6; White: king e3, pawn h4. 1... c5-d4 2. e3xc5
-- b6xd4 wins, but the solution stops after White's forced reply: the game
-- goes on after the last move given.
return {
  title = "Unfinished: the line stops short",
  fen = "8/b7/1k5p/2p5/7P/4K3/8/8 b",
  goal = "win", moves = 2,
  solution = { "c5-d4", "e3xc5" },
}
