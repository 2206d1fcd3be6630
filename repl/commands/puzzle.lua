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
    S:print(string.format("Defence: %s. Your last move threw the win away: there is no win in the %s left " ..
      "(undo 2 to try again)", tostring(d), cheskers.plural(left, "move")))
  else
    S:print(string.format("Defence: %s (you win in %s more at best)", tostring(d), cheskers.plural(len, "move")))
  end
end

-- The header of a puzzle: its title (and place in the file), and the goal
-- unless the title already says who plays and wins.
local function header(P)
  local goal = string.format("%s to play and win in %d", P.attacker, P.moves)
  if P.title and P.title:lower():find("to play", 1, true) then return P.name end
  return P.name .. ": " .. goal
end

-- What `puzzle check` says about p, when it is not sound: one warning line
-- per fault (none when the check was cut short by its time budget).
local function soundness_warnings(puzzle, p)
  local ok, r = pcall(puzzle.check, p, { max_seconds = 2 })
  if not ok then
    if cheskers.error_code(r) == "interrupted" then error(r, 0) end
    return {}
  end
  local out = {}
  for _, f in ipairs(r.ok and {} or r.faults) do
    if f.kind ~= "too hard" then
      -- (the message quotes the file: escaped as cheskers check's report, puzzle.format_report)
      out[#out + 1] = string.format("warning: this puzzle is unsound (%s): %s", f.kind,
                                    require("cheskers.escape").console(f.message))
    end
  end
  return out
end

-- Sets up puzzle n of file (n as typed, default 1).
local function set_puzzle(S, file, ntext)
  local puzzle = require "cheskers.puzzle"
  local list, err = puzzle.load(file)
  if not list then S:fail(err) end
  local n = require("cheskers.numbers").read(ntext or "1", "puzzle")
  if not n or n > #list then
    S:fail(string.format("puzzle: N must be 1 to %d, not %s", #list, require("cheskers.schema").show(ntext)))
  end
  local p = list[n]
  local ok, b = pcall(cheskers.new, p.fen, p.rules)
  if not ok then S:fail("puzzle " .. n .. ": bad position: " .. tostring(b)) end
  if b:result() then S:fail("puzzle " .. n .. ": the game is already over") end
  local warnings = soundness_warnings(puzzle, p)
  S:set_board(b)
  local attacker = b:turn()
  S.puzzle = { board = b, start = #b:history(), seen = 0, moves = p.moves, solution = p.solution or {},
               attacker = attacker, defender = attacker == "white" and "black" or "white",
               file = file, index = n, count = #list, title = p.title,
               name = require("cheskers.escape").console(p.title or file)   -- the file's words
                 .. (#list > 1 and string.format(" (%d of %d)", n, #list) or "") }
  S:print(header(S.puzzle))
  for _, w in ipairs(warnings) do S:print(w) end
  S:answer_after_lines("puzzle", puzzle_reply, function(self) self.puzzle = nil end)
end

-- puzzle hint: the piece to move for a win in the moves left.
local function hint(S, P)
  local b = S.board
  if b:result() or b:turn() ~= P.attacker then S:fail("hint: it is not your move") end
  local left = P.moves - (#b:history() - P.start) // 2
  local s = left >= 1 and b:solve { moves = left, all = false }
  if not s or not s.win then
    S:print(string.format("no win left in %s: undo and try again", cheskers.plural(left, "move")))
  else
    S:print(string.format("hint: move the piece on %s (a win in %d)", s.moves[1].from, s.shortest))
  end
end

local NEEDS_PUZZLE = { next = true, again = true, hint = true, solution = true }

command {
  name = "puzzle", args = "FILE [N] | next | again | hint | solution | off", complete = "files",
  help = "Sets up puzzle N (default 1) of the puzzle file FILE to solve: you play\n" ..
    "the side to move, the program answers each move with the best defence\n" ..
    "and says when you have solved it or when a move throws the win away.\n" ..
    "A warning says when the puzzle is unsound (see cheskers check).\n" ..
    "`puzzle` tells the goal again, `puzzle next` goes on to the file's next\n" ..
    "puzzle, `puzzle again` starts this one over, `puzzle hint` names the piece\n" ..
    "to move, `puzzle solution` shows the main line, `puzzle off` stops. Puzzle\n" ..
    "files are loaded as data (see cheskers check).",
  run = function(S, args)
    local P, word = S.puzzle, args[1]
    if NEEDS_PUZZLE[word] and not P then S:fail("no puzzle set (puzzle FILE [N])") end
    if word == "next" or word == "again" then
      local n = P.index + (word == "next" and 1 or 0)
      if n > P.count then S:fail(string.format("that was the last puzzle of %s (%d)", P.file, P.count)) end
      return set_puzzle(S, P.file, tostring(n))
    elseif not word then
      S:print(P and header(P) or "no puzzle (puzzle FILE [N])")
    elseif word == "off" then
      S.puzzle = nil
      S:print("puzzle off")
    elseif word == "hint" then
      hint(S, P)
    elseif word == "solution" then
      S:print(#P.solution > 0 and require("cheskers.escape").console(table.concat(P.solution, " "))   -- the file's
        or "(the file gives no solution)")
    else
      set_puzzle(S, word, args[2])
    end
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
    local f, err = require("cheskers.files").check_output(path)
    if f then f, err = io.open(path, "w") end
    if not f then S:fail("cannot write: " .. err) end
    f:write(text, "\n")
    f:close()
    S:print("diagram written to " .. path)
  end,
}
