-- endgames.lua - writes the endgame start positions of scripts/openings/
-- endgames.txt (an openings file for `cheskers match --openings`): random
-- legal positions of 5 or 6 pieces, each side a king and at most one piece
-- more than the other, the side to move random, the game not over. None is
-- covered by the 4-piece tablebases at the start (they have 5-6 pieces).
--
--   cheskers scripts/openings/endgames.lua [N] [SEED] > scripts/openings/endgames.txt
-- (N 400 and SEED 14 wrote the file here; the positions depend only on them)

local cheskers = require "cheskers"

local N = tonumber(arg[1]) or 400
math.randomseed(tonumber(arg[2]) or 14)

local KINDS = { "K", "B", "C", "P" }

-- The dark squares (a1 is dark) as names.
local function dark_squares()
  local list = {}
  for r = 1, 8 do
    for f = 1, 8 do
      if (f + r) % 2 == 0 then list[#list + 1] = string.char(96 + f) .. r end
    end
  end
  return list
end
local DARK = dark_squares()

-- A random side: a king and `extra` other pieces (letters, upper case).
local function side(extra)
  local t = { "K" }
  for _ = 1, extra do t[#t + 1] = KINDS[math.random(#KINDS)] end
  return t
end

-- A square for the letter: pawns never on their own promotion rank.
local function place(b, used, letter)
  while true do
    local sq = DARK[math.random(#DARK)]
    local rank = tonumber(sq:sub(2))
    local bad = (letter == "P" and rank == 8) or (letter == "p" and rank == 1)
    if not used[sq] and not bad then
      used[sq] = true
      b:put(sq, letter)
      return
    end
  end
end

local function random_position()
  local total = math.random(5, 6)
  local w = total == 5 and math.random(2, 3) or 3
  local b = cheskers.new("8/8/8/8/8/8/8/8 " .. (math.random(2) == 1 and "w" or "b"))
  local used = {}
  for _, l in ipairs(side(w - 1)) do place(b, used, l) end
  for _, l in ipairs(side(total - w - 1)) do place(b, used, l:lower()) end
  return b
end

local seen, n = {}, 0
print("# Endgame start positions: 5-6 pieces, both sides a king (scripts/openings/endgames.lua)")
while n < N do
  local ok, b = pcall(random_position)
  if ok and not b:result() and b:count() > 0 and not seen[b:fen()] then
    seen[b:fen()] = true
    n = n + 1
    print(b:fen())
  end
end
