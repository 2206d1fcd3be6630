-- cheskers.movetext: move text as people type it, and what to say when it
-- is wrong. Whether a word is shaped like a move (movetext.is_move_token,
-- movetext.looks_like_move), its spelling checked and normalised
-- (movetext.normalize: square names in any case), and the one wording of
-- every move error (movetext.illegal_message) and of a finished game
-- (movetext.result_text), for the REPL, the match runner and puzzle reports.

local movetext = {}

-- "white" -> "White"
local function side_name(s) return s:sub(1, 1):upper() .. s:sub(2) end
movetext.side_name = side_name

-- A move token as the REPL plays it: optional piece letter, a square, a
-- separator, a square...
function movetext.is_move_token(t)
  return t:match("^[KBCPkbcp]?[a-h][1-8][%-x:][a-h][1-8][a-h1-8x%-:]*=?[KBCkbc]?$") ~= nil
end

function movetext.is_number_token(t)
  return t:match("^%d+%.+$") ~= nil
end

-- Splits a line into move texts when it is only moves (and move numbers).
function movetext.moves_of_line(line)
  local moves = {}
  for w in line:gmatch("%S+") do
    if movetext.is_move_token(w) then
      moves[#moves + 1] = w
    elseif not movetext.is_number_token(w) then
      return nil
    end
  end
  if #moves > 0 then return moves end
end

-- The parts of a word shaped like move text: a piece letter or "", the
-- square-like names, the separators between them, the promotion letter
-- (or nil). nil when the word has not that shape. Square-like: a file
-- letter a-h (either case) and a number; separators: runs of - x :.
local function parts_of(word)
  local piece, rest = word:match("^([KBCP]?)([a-hA-H]%d.*)$")
  if not piece then return nil end
  local body, promo = rest:match("^(.-)=(%a)$")
  body = body or rest
  local squares, seps = {}, {}
  local pos = 1
  while true do
    local sq, e = body:match("^([a-hA-H]%d+)()", pos)
    if not sq then return nil end
    squares[#squares + 1] = sq
    pos = e
    if pos > #body then break end
    local sep, e2 = body:match("^([%-x:]+)()", pos)
    if not sep then return nil end
    seps[#seps + 1] = sep
    pos = e2
  end
  if #seps == 0 and not promo then return nil end
  return piece, squares, seps, promo
end

-- Whether word is shaped like move text (squares with -, x, : or =), so
-- that it is read as a move, not as Lua: d6-e5, D6-E5, d6-e9, d6--e5,
-- c7-d8=Q, e5=Q.
function movetext.looks_like_move(word)
  return parts_of(word) ~= nil
end

local function is_square(s)
  return s:match("^[a-h][1-8]$") ~= nil
end

-- The text of a move-shaped word as the board reads it (square names in
-- lower case, the promotion letter in upper case), or nil and why it
-- cannot be a move: "e9 is not a square", "promotion is to K, B or C,
-- not Q", "d6--e5 is not move text: write d6-e5".
function movetext.normalize(word)
  local piece, squares, seps, promo = parts_of(word)
  if not piece then return nil, word .. " is not move text" end
  for i, sq in ipairs(squares) do
    squares[i] = sq:lower()
    if not is_square(squares[i]) then return nil, sq .. " is not a square" end
  end
  if promo and not promo:upper():match("^[KBC]$") then
    return nil, "promotion is to K, B or C, not " .. promo
  end
  local text, bad = piece .. squares[1], false
  for i, sep in ipairs(seps) do
    if #sep > 1 then bad = true end
    text = text .. sep:sub(1, 1) .. squares[i + 1]
  end
  if promo then text = text .. "=" .. promo:upper() end
  if bad then return nil, word .. " is not move text: write " .. text end
  if #squares < 2 then return nil, word .. " is not move text: a move needs a start and an end square" end
  return text
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

local function is_capture(m)
  return m.captures ~= nil and #m.captures > 0
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

local function is_light(sq)
  return (sq:byte(1) - 96 + sq:byte(2) - 48) % 2 == 1
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
-- legal moves mine do not contain): the capture rule, a light square, or
-- no such path.
local function piece_reason(b, from, text, mine)
  local free = without_capture_rule(b)
  if free and #mine == 0 and #moves_from(free, from) > 0 then
    return "a capture elsewhere is compulsory"
  end
  local m = free and free:parse(text)
  if m then
    if is_capture(m) then return "a longer capture is compulsory (the majority rule)" end
    return "a capture is compulsory"
  end
  if #mine == 0 then return "the piece on " .. from .. " is blocked" end
  for sq in text:gmatch("[a-h][1-8]") do
    if is_light(sq) then return sq .. " is a light square" end
  end
  return "not a legal path for the piece on " .. from
end

-- Why text, shaped like a move, is no legal move of b, and what is legal.
local function reason_and_hint(b, text)
  local from = text:match("^[KBCP]?([a-h][1-8])")
  local all = b:moves()
  if is_light(from) then return from .. " is a light square", "legal moves: " .. texts(all, 12) end
  local piece = b:get(from)
  if not piece then
    return from .. " is empty", "legal moves: " .. texts(all, 12)
  end
  if color_of(piece) ~= b:turn() then
    return string.format("the piece on %s is %s's and %s is to move", from,
      side_name(color_of(piece)), side_name(b:turn())), "legal moves: " .. texts(all, 12)
  end
  local letter = text:match("^([KBCP])%l")
  if letter and letter ~= piece:upper() then
    return string.format("the piece on %s is %s, not %s", from, piece:upper(), letter),
      "legal moves: " .. texts(all, 12)
  end
  local mine = moves_from(b, from)
  local why = piece_reason(b, from, text, mine)
  if #mine > 0 then return why, "legal moves from " .. from .. ": " .. texts(mine) end
  return why, "legal moves: " .. texts(all, 12)
end

-- The one message for a move text that board b refused (err: what
-- b:parse said, used when the text names no single move), with the legal
-- moves that could have been meant:
--   "illegal move a3-b4: the piece on a3 is blocked; legal moves: ..."
function movetext.illegal_message(b, text, err)
  local over = movetext.game_over(b)
  if over then return over .. "; no more moves (undo or new)" end
  local norm, shape = movetext.normalize(text)
  if not norm then return shape end
  if err and err:match("^ambiguous") then return err end
  local why, hint = reason_and_hint(b, norm)
  return string.format("illegal move %s: %s; %s", norm, why, hint)
end

return movetext
