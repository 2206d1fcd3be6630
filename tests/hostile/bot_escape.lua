-- tries to write a file, run a program, load code, reach the real module
return {
  io = function() return io.open("MARKER", "w") end,
  os = function() return os.execute("touch MARKER") end,
  load = function() return load("return 1") end,
  require = function() return require("io") end,
  puzzle = function() return cheskers.puzzle.load("/etc/passwd") end,
  meta = function() return getmetatable("").__index end,
  gc = function() return setmetatable({}, { __gc = function() end }) end,
  choose = function() end,
}
