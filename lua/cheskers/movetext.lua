-- cheskers.movetext: move text as people type it, and what to say when it
-- is wrong. The shape of a word (a move, a square alone, malformed move text
-- and why, or no move text) is the core's one grammar, read with a board's
-- rules: b:move_shape(word) (core/movetext.c); this module sorts the words
-- of a line with it (movetext.word_kind, movetext.moves_of_line) and keeps
-- the one wording of every move error (movetext.illegal_message) and of a
-- finished game (movetext.result_text), for the REPL, the match runner and
-- puzzle reports.

local movetext = {}

-- "white" -> "White"
local function side_name(s) return s:sub(1, 1):upper() .. s:sub(2) end
movetext.side_name = side_name

-- A move number of a game line: "1.", "12...".
function movetext.is_number_token(t)
  return t:match("^%d+%.+$") ~= nil
end

-- What word is under the rules of board b: "move" (move text),
-- "bad" (shaped like a move, but malformed: b:move_shape says why),
-- "square" (a square alone), "number" (a move number) or nil (no move text).
function movetext.word_kind(b, word)
  if movetext.is_number_token(word) then return "number" end
  return (b:move_shape(word))
end

-- The move texts of a line that is only moves (and move numbers) under the
-- rules of board b, or nil.
function movetext.moves_of_line(b, line)
  local moves = {}
  for w in line:gmatch("%S+") do
    local kind = movetext.word_kind(b, w)
    if kind == "move" then
      moves[#moves + 1] = w
    elseif kind ~= "number" then
      return nil
    end
  end
  if #moves > 0 then return moves end
end

-- "White wins: Black has no king left", "Draw: repetition", ...
function movetext.result_text(winner, reason)
  local loser = winner == "white" and "Black" or "White"
  local why = ({
    kings = loser .. " has no king left", stalemate = loser .. " cannot move",
    repetition = "repetition", quiet = "quiet moves",
  })[reason] or tostring(reason)
  if winner == "draw" then return "Draw: " .. why end
  return side_name(tostring(winner)) .. " wins: " .. why
end

-- "Game over. White wins: Black has no king left" when board b is over, else nil.
function movetext.game_over(b)
  local winner, reason = b:result()
  if winner then return "Game over. " .. movetext.result_text(winner, reason) end
end

local function color_of(piece)
  return piece:match("%u") and "white" or "black"
end

-- The board b with nothing compulsory (capture = "optional"), or nil when
-- it cannot be made (rules with hooks the copy refuses).
local function without_capture_rule(b)
  local rules = b:rules()
  if rules.capture == "optional" then return nil end
  rules.capture = "optional"
  local ok, nb = pcall(require("cheskers").new, b:fen(), rules)
  if ok then return nb end
end

local function moves_from(b, from)
  local list = {}
  for _, m in ipairs(b:moves()) do
    if m.from == from then list[#list + 1] = m end
  end
  return list
end

local function texts(moves, max)
  local t = {}
  for i, m in ipairs(moves) do
    if max and i > max then t[#t + 1] = string.format("... (%d in all)", #moves) break end
    t[#t + 1] = tostring(m)
  end
  return table.concat(t, " ")
end

-- Why a piece of the side to move, on from, cannot play text (which its
-- legal moves mine do not contain), most specific first: the capture rule
-- when text is a move without it; else a piece of its own on the end
-- square, a piece with no move at all, or no such path.
local function piece_reason(b, from, text, mine)
  local free = without_capture_rule(b)
  local m = free and free:parse(text)
  if m then
    if m.jump then return "a longer capture is compulsory (the majority rule)" end
    if #mine == 0 then return "a capture elsewhere is compulsory" end
    return "a capture is compulsory"
  end
  local to = text:match("([a-h][1-8])[^a-h]*$")
  local there = b:get(to)
  if to ~= from and there and color_of(there) == b:turn() then
    return to .. " holds your own piece"
  end
  if #mine == 0 and not (free and #moves_from(free, from) > 0) then
    return "the piece on " .. from .. " is blocked"
  end
  return "not a legal path for the piece on " .. from
end

-- Why text, shaped like a move, is no legal move of b, and what is legal.
local function reason_and_hint(b, text)
  local from = text:match("^%u?([a-h][1-8])")
  local all = b:moves()
  local piece = b:get(from)
  if not piece then
    return from .. " is empty", "legal moves: " .. texts(all, 12)
  end
  if color_of(piece) ~= b:turn() then
    return string.format("the piece on %s is %s's and %s is to move", from,
      side_name(color_of(piece)), side_name(b:turn())), "legal moves: " .. texts(all, 12)
  end
  local letter = text:match("^(%u)%l")
  if letter and letter ~= piece:upper() then
    return string.format("the piece on %s is %s, not %s", from, piece:upper(), letter),
      "legal moves: " .. texts(all, 12)
  end
  local mine = moves_from(b, from)
  local why = piece_reason(b, from, text, mine)
  if #mine > 0 then return why, "legal moves from " .. from .. ": " .. texts(mine) end
  return why, "legal moves: " .. texts(all, 12)
end

-- A move text with a light square (why: the core's "d5 is a light square"),
-- with the legal moves of its start square, when it has any, or all.
local function light_message(b, text, why)
  local shown = text:match("^%s*(.-)%s*$"):gsub("%a%d", string.lower)
  local from = shown:match("^%u?([a-h][1-8])")
  local mine = from and b:move_shape(from) == "square" and moves_from(b, from) or {}
  local hint = #mine > 0 and "legal moves from " .. from .. ": " .. texts(mine)
    or "legal moves: " .. texts(b:moves(), 12)
  return string.format("illegal move %s: %s; %s", shown, why, hint)
end

-- The one message for a move text that board b refused (err: what
-- b:parse said, used when the text names no single move), with the legal
-- moves that could have been meant:
--   "illegal move a3-b4: the piece on a3 is blocked; legal moves: ..."
-- Text that is no move says why in the core's wording ("e9 is not a square").
function movetext.illegal_message(b, text, err)
  local over = movetext.game_over(b)
  if over then return over .. "; no more moves (undo or new)" end
  local shape, norm, fault = b:move_shape(text)
  if shape == "bad" and fault == "light" then return light_message(b, text, norm) end
  if shape == "bad" then return norm end
  if shape ~= "move" then
    return err or select(2, b:parse(text)) or (text .. " is not move text")
  end
  -- what b:parse says of a capture sign on a step ("b6xa5 is not a
  -- capture: write b6-a5", docs/reference/rules.md) is said as it is
  err = err or select(2, b:parse(text))
  if err and (err:match("^ambiguous") or err:match("^%S+ is not a capture: write ")) then return err end
  local why, hint = reason_and_hint(b, norm)
  return string.format("illegal move %s: %s; %s", norm, why, hint)
end

return movetext
