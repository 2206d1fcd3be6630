-- Faulty on purpose: DUAL. The same position as illegal.lua: 1... c5-d4!
-- is the only first move that wins within 2 (sound key), White must answer
-- 2. e3xc5 (compulsory), and then White's last king on c5 can be taken
-- two ways: by the king, b6xd4, or by the bishop, a3xc5. Two solver moves
-- win at the second move: a dual.
return {
  title = "Dual: two ways to take the king",
  fen = "8/b7/1k5p/2p5/7P/b3K3/8/8 b",
  goal = "win", moves = 2,
  solution = { "c5-d4", "e3xc5", "b6xd4" },
}
