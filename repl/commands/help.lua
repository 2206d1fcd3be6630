-- repl.commands.help: the commands about the REPL itself: help, quit.

local registry = require "repl.registry"
local draw = require "repl.draw"

local command = registry.command

command {
  name = "help", args = "[COMMAND]", complete = "commands",
  help = "Lists the commands, or tells about one.",
  run = function(S, args)
    if args[1] then
      local c = registry.commands[args[1]]
      if not c then S:fail(S:unknown_command_message(args[1])) end
      S:print((("%s %s"):format(c.name, c.args):gsub("%s+$", "")))
      S:print("  " .. c.help:gsub("\n", "\n  "))
      if c.aliases and #c.aliases > 0 then S:print("  (also: " .. table.concat(c.aliases, ", ") .. ")") end
      return
    end
    S:print("Commands (help COMMAND tells more):")
    for _, c in ipairs(registry.command_list) do
      -- c.summary, or the first sentence of the help, wrapped
      local text = c.summary or c.help:gsub("%s*\n%s*", " ")
      local summary = c.summary or text:match("^(.-%.)%s") or text
      S:print(draw.wrap(string.format("  %-9s", c.name), registry.words_of(summary), 12))
    end
    S:print([[
A line of moves plays them: d6-e5 (or D6-E5), or 1. d6-e5 c3-d4; text shaped
like a move is always a move. Any other line is Lua, with `board` the current
board and `cheskers` the module (board:moves(), ...).
Tab completes commands, moves, squares, file names and Lua names;
Ctrl-C interrupts; Ctrl-D or quit leaves.]])
  end,
}

command {
  name = "quit", aliases = { "exit" }, help = "Leaves (so does Ctrl-D).",
  run = function(S) S.done = true end,
}
