-- engine: the C search (board:search) at a selectable strength.
--
--   engine              the match's budget (limits.nodes / limits.time),
--                       else 20000 nodes a move
--   engine:level=N      N = 1..10, from 250 to 128000 nodes a move
--   engine:nodes=N      N nodes a move        engine:depth=N   N plies
--   engine:time=S       S seconds a move
--   engine:tb=DIR       probe the endgame tablebases in DIR inside the search
-- Any other option is taken as an evaluation weight (engine:mobility=0),
-- see cheskers.engine.names.

local cheskers = require "cheskers"

local bot = { name = "engine" }
local fixed, weights, tables = nil, nil, nil

-- Raises msg as it is (no position: it is a message for the user).
local function check(ok, msg)
  if not ok then error(msg, 0) end
end

function bot.configure(opts)
  for k, v in pairs(opts) do
    local n = tonumber(v)
    if k == "tb" then
      check(type(v) == "string" and v ~= "", "engine: tb must be a directory")
      tables = cheskers.tb.open(v)
    elseif k == "level" then
      check(n and n >= 1 and n <= 10, "engine: level must be 1..10")
      fixed = { nodes = 250 << (math.floor(n) - 1) }
      bot.name = "engine-" .. math.floor(n)
    elseif k == "nodes" or k == "depth" or k == "time" then
      check(n and n > 0, "engine: " .. k .. " must be a positive number")
      fixed = { [k] = k == "time" and n or math.floor(n) }
    else
      check(pcall(cheskers.engine.get, k), "engine: unknown option or weight '" .. k .. "'")
      check(n, "engine: weight " .. k .. " must be a number")
      weights = weights or {}
      weights[k] = math.floor(n)
    end
  end
end

function bot.choose(board, limits)
  limits = limits or {}
  if board:count() == 1 then return board:moves()[1] end   -- forced: no search
  local opts = {}
  if fixed then
    for k, v in pairs(fixed) do opts[k] = v end
  elseif limits.nodes then
    opts.nodes = limits.nodes
  elseif limits.time then
    opts.time = limits.time * 0.5     -- a hard limit for the search: keep a margin
  else
    opts.nodes = 20000
  end
  opts.weights = weights
  opts.tb = tables
  local r = board:search(opts)
  return r.move
end

return bot
