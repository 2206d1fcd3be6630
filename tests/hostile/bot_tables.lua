-- reads the process's default tablebases (cheskers.tb.open, $CHESKERS_TB,
-- ./tb) through the board methods, and what their messages say of the folder
return { choose = function(board)
  local value, detail = board:probe()
  local known, messages = 0, {}
  local moves, err = board:tb_moves()
  for _, m in ipairs(moves or {}) do
    if m.value then known = known + 1 end
  end
  messages[#messages + 1] = err
  return value, detail, #(moves or {}), known, table.concat(messages)
end }
