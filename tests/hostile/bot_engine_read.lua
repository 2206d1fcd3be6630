-- reads what another bot may have left in the engine
return { choose = function()
  local e = cheskers.engine
  return e.names[1], e.get(e.names[1]), e.weights()[e.names[1]]
end }
