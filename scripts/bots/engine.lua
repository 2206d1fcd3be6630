-- engine: the C search (board:search) at a selectable strength.
--
--   engine              the match's budget (limits.nodes / limits.time),
--                       else 20000 nodes a move
--   engine:level=N      N = 1..10, from 250 to 128000 nodes a move
--   engine:nodes=N      N nodes a move        engine:depth=N   N plies
--   engine:time=S       S seconds a move
--   engine:tb=DIR       probe the endgame tablebases in DIR inside the search
--   engine:weights=FILE the weights of a weights file (cheskers tune writes
--                       them; docs/guide/engine.md): every weight, the defaults
--                       for those the file leaves out
--   engine:rfp=false    a search switch off (cheskers.engine.switches: rfp,
--                       aspiration, fp, delta; each on by default, docs/guide/engine.md)
--   engine:rfp_margin=N a search margin (cheskers.engine.margins: rfp_margin,
--                       fp_margin), N >= 1
-- (every number in b:search's range: depth <= cheskers.engine.MAX_DEPTH ...)
--   engine:keep=false   every search from empty tables; by default the bot
--                       keeps one search context (cheskers.engine.context)
--                       for the game, cleared by new_game, so each search
--                       builds on the ones before
-- and every evaluation weight by its name (engine:mobility=0, over a
-- weights file's), see cheskers.engine.names. The options are declared below (bot.options): the
-- loader refuses an unknown one or a wrong value before configure runs.

local cheskers = require "cheskers"

local bot = { name = "engine" }
local fixed, weights, tables = nil, nil, nil
local features = {}   -- search switches and margins (b:search's rfp, rfp_margin ...)
local FEATURES = cheskers.engine.switches   -- name -> what: the one list (core/cheskers.h)
local MARGINS = cheskers.engine.margins
local keep = true     -- one search context for the game (cheskers.engine.context); keep=false: none
local context = nil

bot.options = {
  level = { type = "integer", min = 1, max = 10 },
  nodes = { type = "integer", min = 1, max = cheskers.engine.MAX_NODES },      -- b:search's ranges
  depth = { type = "integer", min = 1, max = cheskers.engine.MAX_DEPTH },
  time = { type = "number", above = 0, max = cheskers.engine.MAX_SECONDS },
  tb = "string",
  weights = "string",
  keep = "boolean",
}
for f in pairs(FEATURES) do bot.options[f] = "boolean" end
for m in pairs(MARGINS) do bot.options[m] = { type = "integer", min = 1, max = cheskers.engine.MAX_MARGIN } end
local W = cheskers.engine.MAX_WEIGHT
for _, w in ipairs(cheskers.engine.names) do bot.options[w] = { type = "integer", min = -W, max = W } end

-- opts: checked against bot.options by the loader.
-- The weights of a weights file (cheskers.tune reads it: data only).
local function file_weights(path)
  if not rawget(_ENV, "package") then   -- a sandbox (--sandbox): no package, no files to read
    error("engine: weights=FILE cannot be read in a sandbox (give the weights as options)", 0)
  end
  local w, err = require("cheskers.tune").read_weights(path)
  if not w then error("engine: " .. err, 0) end
  return w
end

function bot.configure(opts)
  if opts.weights then weights = file_weights(opts.weights) end
  for k, v in pairs(opts) do
    if k == "tb" then
      if v == "" then error("engine: tb must be a directory", 0) end
      tables = cheskers.tb.open(v)
    elseif k == "level" then
      fixed = { nodes = 250 << (v - 1) }
      bot.name = "engine-" .. v
    elseif k == "nodes" or k == "depth" or k == "time" then
      fixed = { [k] = v }
    elseif FEATURES[k] or MARGINS[k] then
      features[k] = v
    elseif k == "keep" then
      keep = v
    elseif k ~= "weights" then
      weights = weights or {}
      weights[k] = v
    end
  end
end

-- A new game forgets the last one's searches: game g's moves depend on g alone.
function bot.new_game()
  if context then context:clear() end
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
  for k, v in pairs(features) do opts[k] = v end
  if keep then
    context = context or cheskers.engine.context()
    opts.context = context
  end
  local r = board:search(opts)
  return r.move
end

return bot
