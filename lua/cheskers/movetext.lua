-- cheskers.movetext: move text as people type it, and what to say when it
-- is wrong. Whether a word is shaped like a move, and the one wording of
-- every move error and of a finished game, shared by the REPL, the match
-- runner and puzzle reports.

local movetext = {}

local function side_name(s) return s:sub(1, 1):upper() .. s:sub(2) end

-- A move token as typed: optional piece letter, a square, a separator, a square...
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

-- The message for a move text that board refused, with suggestions.
function movetext.illegal_message(b, text, err)
  local winner, reason = b:result()
  if winner then
    return string.format("the game is over (%s): no more moves; undo or new",
      movetext.result_text(winner, reason))
  end
  err = err or "illegal move"
  if not err:find(text, 1, true) then err = "illegal move " .. text .. ": " .. err end
  local from = text:match("^[KBCPkbcp]?([a-h][1-8])")
  local all = b:moves()
  local mine = {}
  for _, m in ipairs(all) do
    if m.from == from then mine[#mine + 1] = tostring(m) end
  end
  if #mine > 0 then
    return string.format("%s; legal from %s: %s", err, from, table.concat(mine, " "))
  end
  local list = {}
  for i, m in ipairs(all) do
    if i > 12 then list[#list + 1] = string.format("... (%d in all: moves)", #all) break end
    list[#list + 1] = tostring(m)
  end
  local piece = from and b:get(from)
  local what
  if not from or err:find(from, 1, true) then
    what = ""
  elseif not piece then
    what = string.format("; %s is empty", from)
  elseif (piece:match("%u") and "white" or "black") ~= b:turn() then
    what = string.format("; %s holds a %s piece and %s is to move", from,
      piece:match("%u") and "white" or "black", side_name(b:turn()))
  else
    what = string.format("; no legal move from %s", from)
  end
  return string.format("%s%s; legal moves: %s", err, what, table.concat(list, " "))
end

return movetext
