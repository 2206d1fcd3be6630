-- a puzzle file that copies ever longer strings: each step is a few cheap
-- instructions, the whole is quadratic (tens of GB copied within the
-- instruction limit)
local s = "x"
for i = 1, 1e12 do s = s .. "yy" .. i end
return { fen = s, moves = 1 }
