-- Hostile: never ends. Must be stopped by the instruction bound.
local n = 0
while true do n = n + 1 end
