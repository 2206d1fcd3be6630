-- repl.commands.game: the commands that walk through a game: show, new,
-- fen, moves, play (and a line of moves), undo, redo, history, rules, flip.
-- game.play_moves is how any part of the REPL plays typed move text.

local cheskers = require "cheskers"
local record = require "cheskers.record"
local rulespec = require "cheskers.rulespec"
local movetext = require "cheskers.movetext"
local registry = require "repl.registry"
local draw = require "repl.draw"

local command, trim, count_arg = registry.command, registry.trim, registry.count_arg

local game = {}

-- Where the board is not drawn after a line (a batch session): "played
-- d6-e5 c3-d4" for the moves (objects or texts) just played, and the end
-- of the game when it came.
function game.say_played(S, moves)
  if S:autoshow() or #moves == 0 then return end
  local t = {}
  for i, m in ipairs(moves) do t[i] = tostring(m) end
  S:print("played " .. table.concat(t, " "))
  local over = movetext.game_over(S.board)
  if over then S:print(over) end
end

-- Plays move texts on the board, all or none: each is read once, on the
-- board itself (the moves before a refused one are taken back). Fails with
-- the legal moves that could have been meant. Where the board is not drawn
-- after it (a batch session), says "played d6-e5 c3-d4", and the end of the
-- game when it came.
function game.play_moves(S, texts)
  local b, played = S.board, {}
  for i, typed in ipairs(texts) do
    local m, err = b:parse(typed)
    if not m then
      local prefix = #texts > 1 and string.format("move %d of %d: ", i, #texts) or ""
      local msg = prefix .. movetext.illegal_message(b, typed, err)
      for _ = 1, #played do b:undo() end
      S:fail(msg)
    end
    played[i] = b:play(m)
  end
  game.say_played(S, played)
  for _, m in ipairs(played) do
    -- keep the redo list when the move is its next one
    if S.redo[#S.redo] and S.redo[#S.redo] == tostring(m) then
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
    for _, n in ipairs(rulespec.option_names()) do out[#out + 1] = n .. "=" end
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
    local sq = args[1] and args[1]:lower()
    if sq and not sq:match("^[a-h][1-8]$") then S:fail(args[1] .. " is not a square") end
    local list = {}
    for _, m in ipairs(S.board:moves()) do
      if not sq or m.from == sq then list[#list + 1] = tostring(m) end
    end
    if #list == 0 then
      S:print(movetext.game_over(S.board) or
        ("no legal move" .. (sq and (" from " .. sq) or "")))
      return
    end
    S:print(draw.wrap(string.format("%s:", cheskers.plural(#list, "legal move")), list, 2, 78))
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

-- Takes back one move onto the redo list; false when there is none.
local function undo_one(S)
  local m = S.board:undo()
  if not m then return false end
  S.redo[#S.redo + 1] = tostring(m)
  return true
end

-- Where the board is not drawn (a batch session): "took back c3-d4 d6-e5",
-- the last n moves of the redo list, in the order they were taken back.
local function say_taken_back(S, n)
  if S:autoshow() or n == 0 then return end
  local t = {}
  for i = #S.redo - n + 1, #S.redo do t[#t + 1] = S.redo[i] end
  S:print("took back " .. table.concat(t, " "))
end

command {
  name = "undo", args = "[N]",
  help = "Takes back the last move (or N moves).\nredo plays them again. Against a bot (see bot), undo\n" ..
    "goes back to your turn: it takes back the bot's reply and your move.",
  run = function(S, args)
    local n = count_arg(S, args[1], "undo: N", 1, "undo")
    if #S.board:history() == 0 then S:fail("nothing to undo") end
    local done = 0
    while done < n and undo_one(S) do done = done + 1 end
    if done < n then S:print(string.format("took back %s (no more to undo)", cheskers.plural(done, "move"))) end
    local bot = S.bot_player
    if bot and S.board:turn() == bot.color and undo_one(S) then
      S:print(string.format("took back %d moves (back to your turn; %s plays %s)", done + 1,
                            require("cheskers.escape").console(bot.bot.name), bot.color))
    elseif done == n then
      say_taken_back(S, done)
    end
    S:sync_key()
  end,
}

command {
  name = "redo", args = "[N]",
  help = "Plays again the last move taken back (the last N).",
  run = function(S, args)
    local n = count_arg(S, args[1], "redo: N", 1, "redo")
    if #S.redo == 0 then S:fail("nothing to redo") end
    local done, played = 0, {}
    while done < n and #S.redo > 0 do
      played[#played + 1] = S.board:play(table.remove(S.redo))
      done = done + 1
    end
    if done < n then
      S:print(string.format("redid %s (no more to redo)", cheskers.plural(done, "move")))
    else
      game.say_played(S, played)
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

-- The current game under the rules spec: its start position and moves
-- replayed, or (when a move is not legal under them) the current position
-- with no history. Returns the board and a note for the user.
local function game_under(S, spec)
  local start = record.initial(S.board)
  local ok, b = pcall(cheskers.new, start:fen(), spec)
  local bad
  if ok then
    for i, m in ipairs(S.board:history()) do
      local mv = b:parse(tostring(m))
      if not mv then bad = string.format("move %d (%s)", i, tostring(m)) break end
      b:play(mv)
    end
    local n = #b:history()
    if not bad then return b, n > 0 and string.format("position and %s kept", cheskers.plural(n, "move"))
      or "position kept" end
  end
  local okc, cur = pcall(cheskers.new, S.board:fen(), spec)
  if not okc then S:fail(tostring(cur)) end
  return cur, bad and string.format("position kept; history cleared: %s is not legal under these rules", bad)
    or "position kept; history cleared: its start is not legal under these rules"
end

-- `rules` alone: the rule set, option by option, with the defaults changed.
local function print_rules(S)
  local r = S.board:rules()
  local default = cheskers.rules()
  S:print("rules: " .. rulespec.format(r))
  for _, name in ipairs(rulespec.option_names()) do
    S:print(string.format("  %-24s %s%s", name, tostring(r[name]),
      r[name] ~= default[name] and "   (golomb: " .. tostring(default[name]) .. ")" or ""))
  end
end

command {
  name = "rules", args = "[OPTION=VALUE ... | golomb]", complete = complete_rules,
  help = "Shows the rules, or changes them for the current game.\n"
    .. "Options (docs/reference/rules.md): majority, capture, promote, first, flying_kings,\n"
    .. "pawns_capture_backward, draw_repetition, draw_quiet_plies.\n"
    .. "Example: rules majority=false capture=jumps. `rules golomb` goes back to the defaults.\n"
    .. "Options are laid over the current rules. A rule file or FILE.lua:VARIANT works too,\n"
    .. "as for --rules (docs/reference/rules.md, \"Options as text\").\n"
    .. "The position stays; its moves too when they are legal under the new rules\n"
    .. "(else the history is cleared, and rules says so). `new` starts over.",
  run = function(S, args, rest)
    if #args == 0 then return print_rules(S) end
    local spec, err = require("cheskers.rulearg").parse(rest)
    if not spec then S:fail(err) end
    -- options are laid over the game's rules (rulespec.compose); a preset
    -- alone replaces them
    if type(spec) == "table" then spec = assert(rulespec.compose(S.board:rules(), spec)) end
    local okr, rerr = pcall(cheskers.rules, spec)
    if not okr then S:fail(tostring(rerr)) end
    local b, note = game_under(S, spec)
    S:set_board(b)
    S:print("rules: " .. rulespec.format(b:rules()) .. " (" .. note .. ")")
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
