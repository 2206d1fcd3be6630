-- cheskers.store.fingerprint - what makes stored results comparable (part
-- of cheskers.store, which re-exports it): store.digest(text),
-- store.fnv1a(text), store.engine_signature(), store.two_engines(files),
-- store.plain(v), store.diff(a, b); see lua/cheskers/store.lua.
local cheskers = require "cheskers"
local userfiles = require "cheskers.files"
local escape = require "cheskers.escape"
local luadata = require "cheskers.luadata"

local M = {}

-- 64-bit FNV-1a of a string, as a Lua integer (wrapping arithmetic): the
-- one hash of the Lua library (fingerprints, the seeds of games).
function M.fnv1a(s)
  local h = -3750763034362895579   -- 0xcbf29ce484222325
  for i = 1, #s do h = (h ~ s:byte(i)) * 1099511628211 end
  return h
end

-- 64-bit FNV-1a of a string, as 16 hex digits.
function M.digest(s)
  return string.format("%016x", M.fnv1a(s))
end

-- The engine's signature: 16 hex digits, the digest of fixed searches
-- (default weights and options, fixed depths) from fixed positions: their
-- nodes, moves and scores, as chess engines keep a bench signature. A
-- change of the search, the evaluation or the move generation changes it
-- (tests/core/search_signature_test.sh pins the same kind of numbers); a faster
-- program that searches the same does not. Made once a process.
local SIGNATURE_POSITIONS = {
  { cheskers.START, 6 },
  { "3k4/p3k3/5b1p/p1c5/5P1P/P3P1P1/1P6/B1K1K3 b 0 11", 6 },
  { "3k1k2/p3p3/3b4/6p1/1P1B4/4P3/3K4/2K5 b 0 15", 7 },
}
local engine_signature

function M.engine_signature()
  if not engine_signature then
    local parts, weights = {}, cheskers.engine.defaults()
    for _, sp in ipairs(SIGNATURE_POSITIONS) do
      local r = cheskers.new(sp[1]):search { depth = sp[2], weights = weights }
      parts[#parts + 1] = string.format("%d %s %d", r.nodes, tostring(r.move), r.score)
    end
    engine_signature = M.digest(table.concat(parts, ";"))
  end
  return engine_signature
end

function M.two_engines(files)
  local first
  for _, f in ipairs(files) do
    local e = type(f.header) == "table" and f.header.engine or nil
    if e ~= nil then
      if not first then
        first = f
      elseif e ~= first.header.engine then
        return string.format("%s and %s hold games of two engines (signatures %s and %s: the search, evaluation "
          .. "or move generation changed between their runs), which must not be pooled: keep the files of "
          .. "one engine in a folder", first.path, f.path, escape.console(tostring(first.header.engine)),
          escape.console(tostring(e)))
      end
    end
  end
  return nil
end

-- The source lines of a Lua function (from its file or its chunk text),
-- or nil.
local function source_of(fn)
  local info = debug.getinfo(fn, "S")
  if info.what ~= "Lua" or info.linedefined < 1 then return nil end
  local text
  if info.source:sub(1, 1) == "@" then
    text = userfiles.read(info.source:sub(2), "script")
    if not text then return nil end
  elseif info.source:sub(1, 1) ~= "=" then
    text = info.source
  else
    return nil
  end
  local out, n = {}, 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    if n >= info.linedefined then out[#out + 1] = line end
    if n >= info.lastlinedefined then break end
  end
  return table.concat(out, "\n")
end

-- v as plain data for a fingerprint: functions (rule hooks, measures) as
-- a digest of their source lines (else of their bytecode), so that an
-- edited hook counts as a change and a moved one does not.
function M.plain(v)
  local t = type(v)
  if t == "function" then
    v = luadata.original(v)   -- a sandboxed function: its own source
    local code = source_of(v)
    if not code then
      local ok, dump = pcall(string.dump, v, true)
      code = ok and dump or "?"
    end
    return "function " .. M.digest(code)
  elseif t == "table" then
    local c = {}
    for k, x in pairs(v) do c[type(k) == "number" and k or tostring(k)] = M.plain(x) end
    return c
  elseif t == "userdata" or t == "thread" then
    return tostring(t)
  end
  return v
end

local function show(v)
  if type(v) == "table" then return "{}" end
  if v == nil then return "nothing" end
  return luadata.write(v)
end

-- Leaves of plain data as path -> shown value ("variants[2].rules.majority").
local function flatten(v, path, out)
  if type(v) ~= "table" or next(v) == nil then
    out[path] = show(v)
    return out
  end
  for k, x in pairs(v) do
    local sub = math.type(k) == "integer" and string.format("%s[%d]", path, k)
                or (path == "" and tostring(k) or path .. "." .. tostring(k))
    flatten(x, sub, out)
  end
  return out
end

-- The fields of two fingerprints that differ, as "field: X there, Y here",
-- down to the leaves of nested tables.
function M.diff(there, here)
  local a, b = flatten(there or {}, "", {}), flatten(here or {}, "", {})
  local keys, seen = {}, {}
  for _, t in ipairs({ a, b }) do
    for k in pairs(t) do if not seen[k] then seen[k] = true keys[#keys + 1] = k end end
  end
  table.sort(keys)
  local out = {}
  for _, k in ipairs(keys) do
    local x, y = a[k] or "nothing", b[k] or "nothing"
    if x ~= y then out[#out + 1] = string.format("%s: %s there, %s here", k, x, y) end
  end
  return out
end

return M
