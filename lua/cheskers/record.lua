-- cheskers.record: game records as PGN-like text, read and written.
--
--   [Event "?"]                            PGN's seven-tag roster first, in its
--   [Site "?"]                             order ("?": unknown; Date defaults to
--   [Date "2024.05.01"]                    today); Round may have levels ("3.2":
--   [Round "?"]                            round 3, board 2)
--   [White "?"]
--   [Black "?"]
--   [Result "*"]                           "1-0" White won, "0-1" Black won,
--                                          "1/2-1/2" draw, "*" not finished
--   [Rules "golomb"]                       the rules as cheskers.rulespec writes them:
--                                          "golomb", or the options that differ
--   [SetUp "1"] [FEN "..."]                only when the game did not start from
--                                          the start position of its rules
--
--   1. d6-e5 c3-d4 2. e5xc3 b2xd4 ... *
--
-- Moves are numbered by the rules' `first` side (Black by default), as the
-- rule book and draughts' PDN do (Black moves first there too): "1." before
-- each move of the side that moves first, then the other side's answer,
-- and "N..." when a game from a position starts with the other side. The
-- reader ignores the numbers (so chess-style "1... d6-e5 2. c3-d4" reads as
-- well); it also skips comments ({...} and ; to the end of the line), NAGs
-- ($1) and move suffixes (!, ?).
--
--   record.write(board [, tags]) -> text
--   record.read(text) -> board, tags          or nil, "line N: ..."
--   record.read_all(text) -> array of {board = b, tags = t}   or nil, message
--   record.movetext(board) -> "1. d6-e5 c3-d4 ..."
--   record.result_token(board) -> "1-0" | "0-1" | "1/2-1/2" | nil

local cheskers = require "cheskers"
local rulespec = require "cheskers.rulespec"
-- error messages echo at most a short piece of the input
local truncate = require("cheskers.luadata").truncate

local record = {}

-- Tags written first, in this order (PGN's seven-tag roster, then the
-- position's); any others follow sorted.
record.TAG_ORDER = { "Event", "Site", "Date", "Round", "White", "Black", "Result", "Rules", "SetUp", "FEN" }

local RESULT_TOKENS = { white = "1-0", black = "0-1", draw = "1/2-1/2" }
local IS_RESULT = { ["1-0"] = true, ["0-1"] = true, ["1/2-1/2"] = true, ["*"] = true }

-- The rules text of a [Rules] tag is cheskers.rulespec's (format, parse_text).

-- "1-0", "0-1", "1/2-1/2", or nil while the game goes on.
function record.result_token(board)
  local winner = board:result()
  return winner and RESULT_TOKENS[winner]
end

-- A copy of board with every move of its history taken back.
function record.initial(board)
  local c = board:copy()
  while c:undo() do end
  return c
end

-- The numbered moves of board's history.
function record.movetext(board)
  local c = record.initial(board)
  local first = board:rules().first
  local out = {}
  for i, m in ipairs(board:history()) do
    local text = tostring(m)
    if c:turn() == first then
      out[#out + 1] = c:moveno() .. "."
    elseif i == 1 then
      out[#out + 1] = c:moveno() .. "..."
    end
    out[#out + 1] = text
    c:play(text)
  end
  return table.concat(out, " ")
end

-- A tag value: \ and " escaped, control characters (a bot's name may hold
-- a newline or an escape sequence) as spaces.
local function escape(s)
  return (tostring(s):gsub("[\\\"]", "\\%0"):gsub("[\0-\31\127]", " "))
end

local function unescape(s)
  return (s:gsub("\\(.)", "%1"))
end

-- The words of move text, each move number joined to the move after it
-- ("1. d6-e5"), so that a line never ends with a move number.
local function move_units(mt)
  local units, number = {}, nil
  for w in mt:gmatch("%S+") do
    if w:match("^%d+%.+$") then number = w
    else
      units[#units + 1] = number and number .. " " .. w or w
      number = nil
    end
  end
  if number then units[#units + 1] = number end
  return units
end

-- Wraps words into lines of at most width characters (a longer word has a
-- line of its own).
local function wrap(words, width)
  local lines, line = {}, ""
  for _, w in ipairs(words) do
    if line == "" then line = w
    elseif #line + 1 + #w <= width then line = line .. " " .. w
    else lines[#lines + 1] = line; line = w
    end
  end
  if line ~= "" then lines[#lines + 1] = line end
  return table.concat(lines, "\n")
end

-- The record of board's game. tags (optional) adds or overrides tags; Rules,
-- SetUp and FEN always come from the board, Result from the board when the
-- game is over (else tags.Result or "*"), Date defaults to today and the
-- other tags of the roster to "?".
function record.write(board, tags)
  local t = {}
  for k, v in pairs(tags or {}) do t[k] = v end
  local rules = board:rules()
  local start = record.initial(board)
  t.Rules = rulespec.format(rules)
  local startfen = start:fen()
  local ok, fresh = pcall(cheskers.new, nil, rules)
  if ok and fresh:fen() == startfen then t.FEN, t.SetUp = nil, nil else t.FEN, t.SetUp = startfen, "1" end
  t.Result = record.result_token(board) or (IS_RESULT[t.Result or ""] and t.Result) or "*"
  for _, name in ipairs { "Event", "Site", "Round", "White", "Black" } do t[name] = t[name] or "?" end
  t.Date = t.Date or os.date("%Y.%m.%d")

  local out, done = {}, {}
  for _, name in ipairs(record.TAG_ORDER) do
    if t[name] ~= nil then
      out[#out + 1] = string.format('[%s "%s"]', name, escape(t[name]))
      done[name] = true
    end
  end
  local extra = {}
  for name in pairs(t) do
    if not done[name] and type(name) == "string" and name:match("^[%w_]+$") then
      extra[#extra + 1] = name
    end
  end
  table.sort(extra)
  for _, name in ipairs(extra) do
    out[#out + 1] = string.format('[%s "%s"]', name, escape(t[name]))
  end
  local words = move_units(record.movetext(board))
  words[#words + 1] = t.Result
  out[#out + 1] = ""
  out[#out + 1] = wrap(words, 79)
  return table.concat(out, "\n") .. "\n"
end

-- Splits text into games: arrays of {tags = {{name, value, line}...},
-- moves = {{text, line}...}, result = token or nil}.
local function scan(text)
  local games, game = {}, nil
  local in_comment = false
  local lineno = 0
  local function current()
    if not game then
      game = { tags = {}, moves = {} }
      games[#games + 1] = game
    end
    return game
  end
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    lineno = lineno + 1
    if not in_comment and line:match("^%s*%[") then
      local name, value = line:match('^%s*%[([%w_]+)%s+"(.*)"%]%s*$')
      if not name then
        return nil, string.format("line %d: bad tag line: %s", lineno, truncate(line, 80))
      end
      if game and (#game.moves > 0 or game.result) then game = nil end
      local g = current()
      g.tags[#g.tags + 1] = { name, unescape(value), lineno }
    else
      local i = 1
      while i <= #line do
        if in_comment then
          local e = line:find("}", i, true)
          if e then in_comment = false; i = e + 1 else i = #line + 1 end
        else
          local c = line:sub(i, i)
          if c:match("%s") then
            i = i + 1
          elseif c == "{" then
            in_comment = lineno
            i = i + 1
          elseif c == ";" then
            break
          else
            local tok = line:match("^[^%s{;]+", i)
            i = i + #tok
            local g = current()
            if IS_RESULT[tok] then
              g.result = tok
              game = nil
            else
              tok = tok:gsub("^%d+%.+", ""):gsub("[!?]+$", "")
              if tok ~= "" and not tok:match("^%$%d+$") then
                if g.result then
                  return nil, string.format("line %d: move %s after the result", lineno, truncate(tok, 40))
                end
                g.moves[#g.moves + 1] = { tok, lineno }
              end
            end
          end
        end
      end
    end
  end
  if in_comment then
    return nil, string.format("line %d: comment not closed", in_comment)
  end
  return games
end

-- Builds the board of one scanned game: board, tags or nil, message.
local function build(g)
  local tags, where = {}, {}
  for _, t in ipairs(g.tags) do
    tags[t[1]] = t[2]
    where[t[1]] = t[3]
  end
  if g.result and not tags.Result then tags.Result = g.result end
  local rules
  if tags.Rules then
    local err
    rules, err = rulespec.parse_text(tags.Rules)
    if not rules then return nil, string.format("line %d: %s", where.Rules, err) end
  end
  local ok, board = pcall(cheskers.new, tags.FEN, rules)
  if not ok then
    local line = tags.FEN and where.FEN or where.Rules or 1
    return nil, string.format("line %d: %s", line, (tostring(board):gsub("^[^:]*:%d+: ", "")))
  end
  for n, mv in ipairs(g.moves) do
    local m, err = board:parse(mv[1])
    if not m then
      return nil, string.format("line %d: move %d (%s): %s", mv[2], n, truncate(mv[1], 40), err or "illegal move")
    end
    board:play(m)
  end
  return board, tags
end

-- Reads the first game of a record: board (the position after its moves,
-- with them as history), tags.
function record.read(text)
  local games, err = scan(text)
  if not games then return nil, err end
  if #games == 0 then return nil, "line 1: no game in the record" end
  return build(games[1])
end

-- Reads every game of a record.
function record.read_all(text)
  local games, err = scan(text)
  if not games then return nil, err end
  local out = {}
  for _, g in ipairs(games) do
    local board, tags = build(g)
    if not board then return nil, tags end
    out[#out + 1] = { board = board, tags = tags }
  end
  return out
end

return record
