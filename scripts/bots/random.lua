-- random: plays a uniformly random legal move. The weakest bot, and the
-- smallest example of the bot interface:
--   return { name = "...", choose = function(board, limits) return move end }
-- The match runner seeds math.random for each game, so games replay.
return {
  name = "random",
  choose = function(board)
    local moves = board:moves()
    return moves[math.random(#moves)]
  end,
}
