-- Composed by hand for the collection (each one checked by `cheskers check`).
return {
  {
    title = "The decoy",
    -- 1... c5-d4! offers a pawn: White's king must jump it (a capture is
    -- compulsory), 2. e3xc5, and lands next to Black's king: 2... b6xd4
    -- takes the last White king.
    fen = "8/b7/1k5p/2p5/7P/4K3/8/8 b",
    goal = "win",
    moves = 2,
    solution = { "c5-d4", "e3xc5", "b6xd4" },
    tags = { "composed", "kings", "decoy" },
  },
  {
    title = "The cage",
    -- White's king in the corner has one square, b2, held by a pawn; it
    -- could jump the pawn while c3 is empty. 1... d4-c3 fills c3: White
    -- has no legal move, and a side without a move loses.
    fen = "8/8/8/8/3k4/8/1p6/K7 b",
    goal = "win",
    moves = 1,
    solution = { "d4-c3" },
    tags = { "composed", "stalemate" },
  },
}
