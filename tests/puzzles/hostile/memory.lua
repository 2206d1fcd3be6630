-- Hostile: a memory bomb, one concatenation of many large strings at a
-- time. Must be stopped by the memory bound before it gets far.
local s = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
for _ = 1, 10 do
  s = s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s
end
return { fen = s, moves = 1 }
