-- Faulty on purpose: COOKED. Black's only king stands on d4 between the
-- two White kings on c3 and e3, with c5 and e5 empty. The composer meant
-- 1. c3xe5, but 1. e3xc5 captures the same last king just as well: a
-- second first move that wins within 1 (a cook).
return {
  title = "Cooked: two kings, one target",
  fen = "8/8/8/8/3k4/2K1K3/8/8 w",
  goal = "win", moves = 1,
  solution = { "c3xe5" },
}
