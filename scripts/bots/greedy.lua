-- greedy: the best immediate material. Every legal move is scored by the
-- value of the pieces it captures plus what a promotion gains; the best
-- score wins, ties are broken at random. It never looks at the reply.

local VALUE = { P = 100, K = 300, B = 300, C = 250 }

local function value(letter)
  return VALUE[letter:upper()] or 250   -- a kind added by a rule experiment
end

local function gain(board, m)
  local g = 0
  for _, sq in ipairs(m.captures) do
    g = g + value(board:get(sq))
  end
  if m.promotion then g = g + value(m.promotion) - VALUE.P end
  return g
end

return {
  name = "greedy",
  choose = function(board)
    local best, bestg = {}, nil
    for _, m in ipairs(board:moves()) do
      local g = gain(board, m)
      if not bestg or g > bestg then
        best, bestg = { m }, g
      elseif g == bestg then
        best[#best + 1] = m
      end
    end
    return best[math.random(#best)]
  end,
}
