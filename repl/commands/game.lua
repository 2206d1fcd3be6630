-- repl.commands.game: the commands that walk through a game: show, new,
-- fen, moves, play (and a line of moves), undo, redo, history, rules, flip.
-- game.play_moves is how any part of the REPL plays typed move text.

local cheskers = require "cheskers"
local record = require "cheskers.record"
local movetext = require "cheskers.movetext"
local registry = require "repl.registry"

local command, trim, count_arg = registry.command, registry.trim, registry.count_arg

local game = {}

-- Plays move texts on board, all or none. Fails with the legal moves that
-- could have been meant.
function game.play_moves(S, texts)
  local b = S.board:copy()
  for i, text in ipairs(texts) do
    local m, err = b:parse(text)
    if not m then
      local prefix = #texts > 1 and string.format("move %d of %d: ", i, #texts) or ""
      S:fail(prefix .. movetext.illegal_message(b, text, err))
    end
    b:play(m)
  end
  for _, text in ipairs(texts) do
    local played = S.board:play(text)
    -- keep the redo list when the move is its next one
    if S.redo[#S.redo] and S.redo[#S.redo] == tostring(played) then
      S.redo[#S.redo] = nil
    else
      S.redo = {}
    end
  end
  S:sync_key()
end



-- The rule values offered by completion.
local RULE_VALUES = {
  majority = { "true", "false" }, capture = { "mixed", "jumps", "all", "optional" },
  promote = { "KBC", "KB", "KC", "BC", "K", "B", "C" }, first = { "black", "white" },
  flying_kings = { "true", "false" }, pawns_capture_backward = { "true", "false" },
  draw_repetition = { "0", "2", "3" }, draw_quiet_plies = { "0", "50", "100" },
}

local function complete_rules(_, token)
  local name = token:match("^([%w_]+)=")
  local out = {}
  if name then
    for _, v in ipairs(RULE_VALUES[name] or {}) do out[#out + 1] = name .. "=" .. v end
  else
    for _, n in ipairs(record.RULE_OPTIONS) do out[#out + 1] = n .. "=" end
    out[#out + 1] = "golomb"
  end
  return out
end

command {
  name = "show", help = "Draws the board.",
  run = function(S) S:show() end,
}

command {
  name = "new", help = "Starts a new game under the current rules.",
  run = function(S)
    S:set_board(cheskers.new(nil, S.board:rules()))
  end,
}

command {
  name = "fen", args = "[FEN]",
  help = "Prints the position as FEN text, or sets it.\nSetting keeps the rules; the history starts over.",
  run = function(S, args, rest)
    if #args == 0 then S:print(S.board:fen()) return end
    local ok, b = pcall(cheskers.new, trim(rest), S.board:rules())
    if not ok then S:fail(tostring(b)) end
    S:set_board(b)
  end,
}

command {
  name = "moves", args = "[SQUARE]", complete = "squares",
  help = "Lists the legal moves (those from SQUARE only, when given).",
  run = function(S, args)
    local sq = args[1]
    if sq and not sq:match("^[a-h][1-8]$") then S:fail("not a square: " .. sq) end
    local list = {}
    for _, m in ipairs(S.board:moves()) do
      if not sq or m.from == sq then list[#list + 1] = tostring(m) end
    end
    if #list == 0 then
      local winner = S.board:result()
      S:print(winner and "no moves: the game is over" or
        ("no legal move" .. (sq and (" from " .. sq) or "")))
      return
    end
    local lines, line = {}, string.format("%d legal move%s:", #list, #list == 1 and "" or "s")
    for _, m in ipairs(list) do
      if #line + #m + 1 > 78 then lines[#lines + 1] = line; line = " " end
      line = line .. " " .. m
    end
    lines[#lines + 1] = line
    S:print(table.concat(lines, "\n"))
  end,
}

command {
  name = "play", args = "MOVE...", complete = "moves",
  help = "Plays the moves in order (all or none). A line of moves alone does the same.",
  run = function(S, args)
    if #args == 0 then S:fail("usage: play MOVE...") end
    local moves = {}
    for _, a in ipairs(args) do
      if not movetext.is_number_token(a) then moves[#moves + 1] = a end
    end
    game.play_moves(S, moves)
  end,
}

command {
  name = "undo", args = "[N]",
  help = "Takes back the last move (or N moves).\nredo plays them again.",
  run = function(S, args)
    local n = count_arg(S, args[1], "N", 1)
    if #S.board:history() == 0 then S:fail("nothing to undo") end
    local done = 0
    for _ = 1, n do
      local m = S.board:undo()
      if not m then break end
      S.redo[#S.redo + 1] = tostring(m)
      done = done + 1
    end
    if done < n then S:print(string.format("took back %d move%s (no more to undo)", done, done == 1 and "" or "s")) end
    S:sync_key()
  end,
}

command {
  name = "redo", args = "[N]",
  help = "Plays again the last move taken back (the last N).",
  run = function(S, args)
    local n = count_arg(S, args[1], "N", 1)
    if #S.redo == 0 then S:fail("nothing to redo") end
    for _ = 1, n do
      local text = table.remove(S.redo)
      if not text then break end
      S.board:play(text)
    end
    S:sync_key()
  end,
}

command {
  name = "history", help = "Prints the moves played, numbered.",
  run = function(S)
    local start = record.initial(S.board)
    local fresh = cheskers.new(nil, S.board:rules())
    if start:fen() ~= fresh:fen() then S:print("from " .. start:fen()) end
    local text = record.movetext(S.board)
    S:print(text == "" and "no moves yet" or text)
  end,
}

command {
  name = "rules", args = "[OPTION=VALUE ... | golomb]", complete = complete_rules,
  help = "Shows the rules, or starts a new game under changed rules.\n"
    .. "Options (RULES.md): majority, capture, promote, first, flying_kings,\n"
    .. "pawns_capture_backward, draw_repetition, draw_quiet_plies.\n"
    .. "Example: rules majority=false capture=jumps. `rules golomb` goes back to the defaults.",
  run = function(S, args, rest)
    if #args == 0 then
      local r = S.board:rules()
      local default = cheskers.rules()
      S:print("rules: " .. record.rules_text(r))
      for _, name in ipairs(record.RULE_OPTIONS) do
        S:print(string.format("  %-24s %s%s", name, tostring(r[name]),
          r[name] ~= default[name] and "   (golomb: " .. tostring(default[name]) .. ")" or ""))
      end
      return
    end
    local spec, err = record.parse_rules(rest)
    if not spec then S:fail(err) end
    if type(spec) == "table" then
      local merged = S.board:rules()
      for k, v in pairs(spec) do merged[k] = v end
      spec = merged
    end
    local ok, b = pcall(cheskers.new, nil, spec)
    if not ok then S:fail(tostring(b)) end
    S:set_board(b)
    S:print("new game, rules: " .. record.rules_text(b:rules()))
  end,
}

command {
  name = "flip", help = "Turns the board round (draws it from the other side).",
  run = function(S)
    registry.settings.flip = not registry.settings.flip
    S:show()
  end,
}

return game
