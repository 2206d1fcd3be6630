-- cheskers help [SUBCOMMAND]: the program's help, or one subcommand's usage.
--
-- Every subcommand is a module like this one: repl/cheskers/cmd/NAME.lua
-- returning { summary = "one line", usage = "text", run = function(args, cli) }
-- (see cheskers/cli.lua).

local usage = [[
usage: cheskers help [SUBCOMMAND]

Without SUBCOMMAND: the options of the program and the list of subcommands.
With one: how to use it.]]

local function run(args, cli)
  cli = cli or require "cheskers.cli"
  if cli.wants_help(args) then
    io.stdout:write(usage, "\n")
    return 0
  end
  local name = args[1]
  if not name then
    io.stdout:write(cli.help(), "\n")
    return 0
  end
  if name == "help" then
    io.stdout:write(usage, "\n")
    return 0
  end
  local mod, err = cli.subcommand(name)
  if not mod then
    if package.searchpath("cheskers.cmd." .. name, package.path) then error(err, 0) end
    error(cli.no_subcommand(name), 0)
  end
  io.stdout:write(mod.usage or mod.summary or ("cheskers " .. name), "\n")
  return 0
end

return {
  summary = "this help, or the usage of a subcommand (help SUBCOMMAND)",
  usage = usage,
  run = run,
}
