-- Hostile: tries to compile new code (and the debug library).
local f = load("return io")
debug.sethook()
return {}
