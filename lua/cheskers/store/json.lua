-- cheskers.store.json - the JSON lines of results files (part of
-- cheskers.store, which re-exports it): store.encode(value [, first]) and
-- store.decode(text); see lua/cheskers/store.lua for the API.
local json = require "dkjson"
local escape = require "cheskers.escape"

local M = {}

-- Keys first in this order, then the others sorted.
M.KEY_ORDER = { "header", "v", "kind", "fingerprint", "game", "experiment", "seed", "variant",
                "vindex", "white", "black", "a_color", "first", "winner", "result", "reason",
                "detail", "traceback", "plies", "score_a" }

local function collect_keys(v, acc)
  if type(v) ~= "table" then return end
  for k, x in pairs(v) do
    if type(k) == "string" then acc[k] = true end
    collect_keys(x, acc)
  end
end

local PREFERRED = {}
for _, k in ipairs(M.KEY_ORDER) do PREFERRED[k] = true end

-- Whether every text in v (keys too) is UTF-8.
local function all_utf8(v)
  if type(v) == "string" then return utf8.len(v) ~= nil end
  if type(v) ~= "table" then return true end
  for k, x in pairs(v) do
    if not (all_utf8(k) and all_utf8(x)) then return false end
  end
  return true
end

-- A copy of v with every text made valid UTF-8.
local function to_utf8(v)
  if type(v) == "string" then return escape.utf8(v) end
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[to_utf8(k)] = to_utf8(x) end
  return t
end

function M.encode(value, first)
  first = first or M.KEY_ORDER
  if not all_utf8(value) then value = to_utf8(value) end
  local acc = {}
  collect_keys(value, acc)
  local rest = {}
  local preferred = first == M.KEY_ORDER and PREFERRED or {}
  if first ~= M.KEY_ORDER then for _, k in ipairs(first) do preferred[k] = true end end
  for k in pairs(acc) do if not preferred[k] then rest[#rest + 1] = k end end
  table.sort(rest)
  local order = table.move(first, 1, #first, 1, {})
  table.move(rest, 1, #rest, #order + 1, order)
  return json.encode(value, { keyorder = order })
end

function M.decode(text)
  local ok, v = pcall(json.decode, text, 1, nil)
  if ok and type(v) == "table" then return v end
  return nil
end

return M
