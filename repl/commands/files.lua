-- repl.commands.files: the commands that read and write games: save, load.

local record = require "cheskers.record"
local registry = require "repl.registry"

local command, trim = registry.command, registry.trim

command {
  name = "save", args = "FILE", complete = "files",
  help = "Writes the game to FILE as a game record.\n"
    .. "The record holds the rules, the start position when it is not the usual one, and\n"
    .. "the moves (cheskers.record).",
  run = function(S, _, rest)
    local path = trim(rest)
    if path == "" then S:fail("usage: save FILE") end
    local ok, err = pcall(require("cheskers.store").write_file, path, record.write(S.board, S.tags),
                          { mkdir = false })
    if not ok then S:fail("cannot save: " .. tostring(err):gsub("^cannot write ", "")) end
    local n = #S.board:history()
    S:print(string.format("saved %s to %s", require("cheskers").plural(n, "move"), path))
  end,
}

command {
  name = "load", args = "FILE", complete = "files",
  help = "Reads a game record from FILE.\n"
    .. "Its rules, start position and moves become the current game; undo walks back\n"
    .. "through it.",
  run = function(S, _, rest)
    local path = trim(rest)
    if path == "" then S:fail("usage: load FILE") end
    local text, err = require("cheskers.files").read(path, "record")
    if not text then S:fail("cannot load: " .. err) end
    local b, tags = record.read(text)
    if not b then S:fail(path .. ": " .. tags) end
    S:set_board(b)
    S.tags = tags
    local n = #b:history()
    S:print(string.format("loaded %s from %s", require("cheskers").plural(n, "move"), path))
  end,
}
