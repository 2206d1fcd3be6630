-- Faulty on purpose: three puzzles, the second with a misspelt field
-- ("solutoin"). The file must not be rejected: puzzles 1 and 3 (the two of
-- scripts/puzzles/composed.lua) are checked and sound, puzzle 2 is reported
-- by its title and index with "did you mean 'solution'".
return {
  { title = "The decoy", fen = "8/b7/1k5p/2p5/7P/4K3/8/8 b", moves = 2,
    solution = { "c5-d4", "e3xc5", "b6xd4" } },
  { title = "Misspelt", fen = "8/8/8/8/3k4/8/1p6/K7 b", moves = 1, solutoin = { "d4-c3" } },
  { title = "The cage", fen = "8/8/8/8/3k4/8/1p6/K7 b", moves = 1, solution = { "d4-c3" } },
}
