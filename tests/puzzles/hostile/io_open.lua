-- Hostile: tries to write a file. Must be rejected; the file must not appear.
local f = io.open("/tmp/cheskers-hostile-puzzle-marker", "w")
f:write("pwned")
f:close()
return { fen = "8/8/8/8/3k4/2K5/8/8 w", moves = 1, solution = { "c3xe5" } }
