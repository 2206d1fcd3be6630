-- repl.commands.puzzle: puzzles to solve at the board (cheskers.puzzle)
-- and diagrams (cheskers.svg): the puzzle and svg commands.

local cheskers = require "cheskers"
local movetext = require "cheskers.movetext"
local registry = require "repl.registry"

local command, trim = registry.command, registry.trim


-- ---- puzzles (cheskers.puzzle) and diagrams (cheskers.svg) -----------------

-- After each line while a puzzle is set (see `puzzle`): answers the
-- solver's move with the best defence, and says when the puzzle is solved
-- or the win thrown away. The state is read from the board's history, so
-- undo and redo work as usual.
local function puzzle_reply(S)
  local P = S.puzzle
  if not P then return end
  local b = S.board
  local plies = #b:history() - P.start
  if b ~= P.board or plies < 0 then
    S.puzzle = nil
    S:print("puzzle off (the board changed)")
    return
  end
  if plies <= P.seen then   -- nothing new, or moves taken back: no answer
    P.seen = plies
    return
  end
  P.seen = plies
  local winner = b:result()
  if winner then
    if winner == P.attacker then
      S:print(string.format("Solved: %s wins in %d. Well played!", P.attacker, (plies + 1) // 2))
    else
      S:print(movetext.game_over(b) .. "; the puzzle is not solved (undo to try again)")
    end
    return
  end
  if b:turn() ~= P.defender then return end
  local used = (plies + 1) // 2
  local left = P.moves - used
  if left <= 0 then
    S:print(string.format("That was your last move (of %d) and the game goes on: not solved (undo to try again)",
      P.moves))
    return
  end
  local d, len = b:defend(left)
  if not d then return end
  b:play(d)
  P.seen = plies + 1
  S:sync_key()
  if len == nil then
    S:print(string.format("Defence: %s. Your last move threw the win away: there is no win in the %d move%s left " ..
      "(undo 2 to try again)", tostring(d), left, left == 1 and "" or "s"))
  else
    S:print(string.format("Defence: %s (you win in %d more move%s at best)", tostring(d), len, len == 1 and "" or "s"))
  end
end

command {
  name = "puzzle", args = "FILE [N] | next | again | hint | solution | off", complete = "files",
  help = "Sets up puzzle N (default 1) of the puzzle file FILE to solve: you play\n" ..
    "the side to move, the program answers each move with the best defence\n" ..
    "and says when you have solved it or when a move throws the win away.\n" ..
    "`puzzle` tells the goal again, `puzzle next` goes on to the file's next\n" ..
    "puzzle, `puzzle again` starts this one over, `puzzle hint` names the piece\n" ..
    "to move, `puzzle solution` shows the main line, `puzzle off` stops. Puzzle\n" ..
    "files are loaded as data (see cheskers check).",
  run = function(S, args)
    local P = S.puzzle
    if args[1] == "next" or args[1] == "again" then
      if not P then S:fail("no puzzle set (puzzle FILE [N])") end
      local n = P.index + (args[1] == "next" and 1 or 0)
      if n > P.count then S:fail(string.format("that was the last puzzle of %s (%d)", P.file, P.count)) end
      args = { P.file, tostring(n) }
    end
    if not args[1] then
      if not P then S:print("no puzzle (puzzle FILE [N])") return end
      S:print(string.format("%s: %s to play and win in %d", P.name, P.attacker, P.moves))
      return
    end
    if args[1] == "off" then
      S.puzzle = nil
      S:print("puzzle off")
      return
    end
    if args[1] == "hint" then
      if not P then S:fail("no puzzle set (puzzle FILE [N])") end
      local b = S.board
      if b:result() or b:turn() ~= P.attacker then S:fail("hint: it is not your move") end
      local left = P.moves - (#b:history() - P.start) // 2
      local s = left >= 1 and b:solve { moves = left, all = false }
      if not s or not s.win then
        S:print(string.format("no win left in %d move%s: undo and try again", left, left == 1 and "" or "s"))
      else
        S:print(string.format("hint: move the piece on %s (a win in %d)", s.moves[1].from, s.shortest))
      end
      return
    end
    if args[1] == "solution" then
      if not P then S:fail("no puzzle set (puzzle FILE [N])") end
      S:print(#P.solution > 0 and table.concat(P.solution, " ") or "(the file gives no solution)")
      return
    end
    local puzzle = require "cheskers.puzzle"
    local list, err = puzzle.load(args[1])
    if not list then S:fail(err) end
    local n = 1
    if args[2] then
      n = math.tointeger(tonumber(args[2]))
      if not n or n < 1 or n > #list then
        S:fail(string.format("puzzle: N must be 1 to %d, not '%s'", #list, args[2]))
      end
    end
    local p = list[n]
    local ok, b = pcall(cheskers.new, p.fen, p.rules)
    if not ok then S:fail("puzzle " .. n .. ": bad position: " .. tostring(b)) end
    if b:result() then S:fail("puzzle " .. n .. ": the game is already over") end
    S:set_board(b)
    local attacker = b:turn()
    S.puzzle = { board = b, start = #b:history(), seen = 0, moves = p.moves, solution = p.solution or {},
                 attacker = attacker, defender = attacker == "white" and "black" or "white",
                 file = args[1], index = n, count = #list,
                 name = (p.title or args[1]) .. (#list > 1 and string.format(" (%d of %d)", n, #list) or "") }
    S:print(string.format("%s: %s to play and win in %d", S.puzzle.name, attacker, p.moves))
    S:answer_after_lines("puzzle", puzzle_reply, function(self) self.puzzle = nil end)
  end,
}

command {
  name = "svg", args = "FILE", complete = "files",
  help = "Writes the board as an SVG diagram to FILE (the last move tinted,\n" ..
    "drawn from Black's side after `flip`).",
  run = function(S, _, rest)
    local path = trim(rest)
    if path == "" then S:fail("usage: svg FILE") end
    local text = require("cheskers.svg").render(S.board, { flip = registry.settings.flip })
    local f, err = io.open(path, "w")
    if not f then S:fail("cannot write: " .. err) end
    f:write(text, "\n")
    f:close()
    S:print("diagram written to " .. path)
  end,
}
