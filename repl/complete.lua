-- repl.complete: Tab completion. complete.line(S, line, start, stop) is
-- what readline calls: commands, moves (also after moves already typed),
-- squares, file names, rule options and Lua names (fields and methods of
-- the value before "." or ":").

local cheskers = require "cheskers"
local movetext = require "cheskers.movetext"
local registry = require "repl.registry"

local complete = {}
local words_of, KEYWORDS = registry.words_of, registry.KEYWORDS

local function starts(s, prefix) return s:sub(1, #prefix) == prefix end

-- The texts of the legal moves of b (cached per position).
function complete.move_texts(S, b)
  local key = b:fen() .. "|" .. tostring(b)
  if S.cache_key ~= key then
    local list = {}
    for _, m in ipairs(b:moves()) do list[#list + 1] = tostring(m) end
    S.cache_key, S.cache_moves = key, list
  end
  return S.cache_moves
end

local function square_texts(b)
  local from, seen = {}, {}
  for _, m in ipairs(b:moves()) do
    if not seen[m.from] then seen[m.from] = true; from[#from + 1] = m.from end
  end
  return from, cheskers.SQUARES or {}
end

-- The keys of a value usable after "." (or ":", methods only), following
-- __index tables.
local function fields_of(v, methods_only)
  local out, seen = {}, {}
  local function add_table(t, depth)
    if type(t) ~= "table" or depth > 4 then return end
    for k, val in pairs(t) do
      if type(k) == "string" and k:match("^[%a_][%w_]*$") and not seen[k]
          and (not methods_only or type(val) == "function") then
        seen[k] = true
        out[#out + 1] = k
      end
    end
    local mt = debug.getmetatable(t)
    if mt and type(mt.__index) == "table" then add_table(mt.__index, depth + 1) end
  end
  if type(v) == "table" then
    add_table(v, 0)
  else
    local mt = debug.getmetatable(v)
    if mt and type(mt.__index) == "table" then add_table(mt.__index, 0) end
  end
  return out
end

-- Lua completion of the name chain that ends `before`: candidates for the
-- chain and the position where the chain starts.
local function lua_candidates(before)
  local chain = before:match("[%a_][%w_%.:]*$") or ""
  local tokstart = #before - #chain + 1
  local prev = before:sub(tokstart - 1, tokstart - 1)
  if prev:match("[%w_%.:]") then return {}, tokstart end
  -- nothing typed yet: only where an expression can start
  if chain == "" and prev ~= "" and not prev:match("[%s%(%[{,=+*/<>~]") then return {}, tokstart end
  local path, sep, last = chain:match("^(.*)([%.:])([%w_]*)$")
  local out = {}
  if not path then
    for k in pairs(_G) do
      if type(k) == "string" and starts(k, chain) then out[#out + 1] = k end
    end
    for _, k in ipairs(KEYWORDS) do
      if starts(k, chain) then out[#out + 1] = k end
    end
    return out, tokstart
  end
  if path:find(":", 1, true) then return {}, tokstart end
  local v = _G
  for name in path:gmatch("[^%.]+") do
    local ok, nv = pcall(function() return v[name] end)
    if not ok or nv == nil then return {}, tokstart end
    v = nv
  end
  for _, k in ipairs(fields_of(v, sep == ":")) do
    if starts(k, last) then out[#out + 1] = path .. sep .. k end
  end
  return out, tokstart
end

-- Converts candidates for line[tokstart..] into readline's word line[start+1..].
local function relative(cands, tokstart, start, line)
  local out = {}
  local s1 = start + 1
  if tokstart <= s1 then
    local kept = line:sub(tokstart, start)
    for _, c in ipairs(cands) do
      if starts(c, kept) then out[#out + 1] = c:sub(#kept + 1) end
    end
  else
    local pre = line:sub(s1, tokstart - 1)
    for _, c in ipairs(cands) do out[#out + 1] = pre .. c end
  end
  return out
end

-- The words of `bot NAME [white|black] | off` (a command's complete
-- function): the bot names (cheskers.bots.names: scripts/bots and the
-- built-ins) and off, then the sides.
function complete.bot_words(_, _, words)
  if #words == 1 then
    local list = require("cheskers.bots").names()
    list[#list + 1] = "off"
    return list
  elseif #words == 2 and words[2] ~= "off" then
    return { "white", "black" }
  end
  return {}
end

-- Keeps the candidates that start with token.
local function filtered(list, token)
  local out = {}
  for _, c in ipairs(list) do if starts(c, token) then out[#out + 1] = c end end
  return out
end

-- The legal move texts after the moves among words have been played.
local function moves_after(S, words)
  local b = S.board
  local played = {}
  for _, w in ipairs(words) do
    if movetext.word_kind(b, w) == "move" then played[#played + 1] = w end
  end
  if #played > 0 then
    b = b:copy()
    for _, w in ipairs(played) do
      local m = b:parse(w)
      if not m then return {} end
      b:play(m)
    end
  end
  return complete.move_texts(S, b)
end

-- Inside an open string literal: moves and squares. Returns the group
-- and the kind, or nil.
local function in_string(S, before)
  local q = before:match("^.*()[\"']")
  if not q then return nil end
  local quote = before:sub(q, q)
  local _, count = before:gsub(quote, "")
  if count % 2 == 0 then return nil end
  local inner = before:sub(q + 1)
  if inner:find("%s") then return nil end
  local list = {}
  for _, m in ipairs(complete.move_texts(S, S.board)) do list[#list + 1] = m end
  for _, sq in ipairs(cheskers.SQUARES or {}) do list[#list + 1] = sq end
  return { filtered(list, inner), q + 1 }, "nospace"
end

-- The first word: commands, moves and Lua names.
local function first_word(S, before, token, wstart)
  local groups = { { filtered(registry.command_names(), token), wstart } }
  if not token:find("[%.:%(]") then
    groups[#groups + 1] = { filtered(complete.move_texts(S, S.board), token), wstart }
  end
  local kind = movetext.word_kind(S.board, token)
  if kind ~= "move" and kind ~= "bad" then
    local lc, ls = lua_candidates(before)
    groups[#groups + 1] = { lc, ls, true }
  end
  return groups
end

-- A command's argument, as its `complete` field says. Returns the groups
-- and the kind.
local function command_arg(S, cmd, before, token, words, wstart)
  local spec = cmd.complete
  if spec == "files" then return {}, "files" end
  if spec == "moves" then
    return { { filtered(moves_after(S, { table.unpack(words, 2) }), token), wstart } }
  elseif spec == "squares" then
    if #words > 1 then return { { {}, wstart } } end   -- one square only
    local from, all = square_texts(S.board)
    local list = filtered(from, token)
    if #list == 0 then list = filtered(all, token) end
    return { { list, wstart } }
  elseif spec == "commands" then
    return { { filtered(registry.command_names(), token), wstart } }
  elseif type(spec) == "function" then
    local ok, list = pcall(spec, S, token, words)
    list = ok and type(list) == "table" and filtered(list, token) or {}
    local allnospace = #list > 0
    for _, c in ipairs(list) do
      if not c:match("=$") then allnospace = false end
    end
    return { { list, wstart } }, allnospace and "nospace" or nil
  end
  local lc, ls = lua_candidates(before)
  return { { lc, ls, true } }
end

-- The candidate groups ({candidates, tokstart, lua?}) for the word that
-- ends before, and a kind.
local function groups_for(S, line, before)
  local wstart = before:match("()%S*$")
  local token = before:sub(wstart)
  local words = words_of(line:sub(1, wstart - 1))
  local g, kind = in_string(S, before)
  if g then return { g }, kind end
  local cmd = words[1] and registry.commands[words[1]]
  if #words == 0 then
    return first_word(S, before, token, wstart)
  elseif cmd and not words[1]:find("[=%.:%[%(]") then
    return command_arg(S, cmd, before, token, words, wstart)
  elseif movetext.moves_of_line(S.board, table.concat(words, " ")) then
    return { { filtered(moves_after(S, words), token), wstart } }
  end
  local lc, ls = lua_candidates(before)
  return { { lc, ls, true } }
end

-- The completer called by readline: line, and the word line[start+1..stop]
-- (0-based start). Returns the candidates for that word and a kind ("files",
-- "nospace" or nil).
function complete.line(S, line, start, stop)
  local groups, kind = groups_for(S, line, line:sub(1, stop))
  local out, seen, lua_only = {}, {}, true
  for _, g in ipairs(groups) do
    for _, c in ipairs(relative(g[1], g[2], start, line)) do
      if not seen[c] then
        seen[c] = true
        out[#out + 1] = c
        if not g[3] then lua_only = false end
      end
    end
  end
  table.sort(out)
  if lua_only and #out > 0 then kind = "nospace" end
  return out, kind
end

return complete
