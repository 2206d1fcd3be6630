-- repl.commands.tb: the REPL's `tb` command: every legal move's value by
-- the endgame tablebases, best first, and the setting of the tables'
-- directory (registry.settings.tb; repl.draw finds the tables, by default
-- those of $CHESKERS_TB, else ./tb, as on the command line and in Lua, and
-- draws the verdict line under the board).

local cheskers = require "cheskers"
local registry = require "repl.registry"
local draw = require "repl.draw"
local puzzle = require "cheskers.puzzle"
local tbmoves = require "cheskers.tbmoves"
local escape = require "cheskers.escape"

local tb = {}

registry.setting { name = "tb", spec = require("cheskers.schema").either("string", "boolean"),
                   help = "the tablebases' folder (false: none; nil: $CHESKERS_TB, else ./tb)" }

-- Why `tb` has nothing to say about board b: the tables are off, or dir
-- has none for these rules (the build named has b's pieces when a table
-- can hold them).
local function no_tables(dir, b)
  if not dir then return "tablebases off: type `tb DIR` to use the tables in DIR" end
  return string.format("no tablebases in %s for these rules: build them with `%s`, or type `tb DIR` "
    .. "(the folder also comes from $CHESKERS_TB)", dir, puzzle.build_hint(b, dir))
end

-- The most pieces of a table of t for the rules of b, and how many tables
-- have that many.
local function largest_tables(t, b)
  local most, count = 0, 0
  for _, info in ipairs(t:info(b) or {}) do
    if info.pieces > most then most, count = info.pieces, 0 end
    if info.pieces == most then count = count + 1 end
  end
  return most, count
end

-- The lines of `tb` for board b and tables t: "d6-e5  win in 15", ...,
-- best first; nil and why when there is nothing to list.
function tb.move_lines(b, t)
  if b:result() then return nil, "the game is over" end
  local list, err = tbmoves.list(b, t)
  if not list then return nil, "tablebase: " .. tostring(err) end
  if not b:probe(t) then
    local _, perr = b:probe(t)
    if perr then return nil, "tablebase: " .. perr end
    return nil, puzzle.not_covered(b, t)
  end
  local width = 0
  for _, e in ipairs(list) do width = math.max(width, #e.text) end
  local lines = {}
  for i, e in ipairs(list) do
    lines[i] = string.format("%-" .. width .. "s  %s", e.text, tbmoves.value_text(e))
  end
  return lines
end

-- `tb DIR`: the tables of DIR from now on (`tb off`: none).
local function set_dir(S, dir)
  if dir == "off" then
    registry.settings.tb = false
    S:print("tablebases off")
    return
  end
  registry.settings.tb = dir
  local t = draw.tables(true)
  local n = t:max_pieces(S.board) or 0
  if n < 2 then   -- (the folder's name as typed or completed from a listing: escaped for the terminal)
    S:print(escape.console(string.format("tablebases: %s (no tables for these rules there yet: %s)", dir,
      puzzle.build_hint(S.board, dir))))
    return
  end
  local most, count = largest_tables(t, S.board)
  S:print(string.format("tablebases: %s (every position with up to %d pieces%s)", escape.console(dir), n,
    most > n and (", and %s of %s"):format(cheskers.plural(count, "table"), cheskers.plural(most, "piece")) or ""))
end

registry.command {
  name = "tb", args = "[DIR | off]",
  help = "Every legal move with its value by the endgame tablebases, best first:\n" ..
    "\"d6-e5  win in 15\" (plies to the end, counting the move), \"draw\", \"loss in 8\".\n" ..
    "`tb DIR` uses the tables in DIR (default: $CHESKERS_TB, else ./tb, as for\n" ..
    "`cheskers tb` and cheskers.tb.open); `tb off` none.\n" ..
    "When a table covers the position, the board shows its verdict under it.",
  complete = "files",
  run = function(S, args)
    if #args > 1 then S:fail("usage: tb [DIR | off]") end
    if args[1] then return set_dir(S, args[1]) end
    local t = draw.tables()
    -- a position the tables do not cover: the folder looked at again first
    -- (tables built since the session opened it)
    if t and not S.board:probe(t) then t = draw.tables(true) end
    if not t or (t:max_pieces(S.board) or 0) < 2 then S:fail(no_tables(t and t:dir(), S.board)) end
    local lines, why = tb.move_lines(S.board, t)
    if not lines then S:fail(why) end
    for _, l in ipairs(lines) do S:print(l) end
  end,
}

return tb
