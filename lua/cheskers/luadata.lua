-- cheskers.luadata - Lua values as text, and Lua files of data: the small
-- shared pieces under every module that shows, writes or reads a value
-- (the sandbox, records, results, rule text, puzzle files, the REPL). It
-- requires only cheskers.files (load_file), so any module may use it.
--
--   luadata.truncate(text [, max]) -> one line of at most max (300) characters
--       (the first line of tostring(text); a longer one ends in "...")
--   luadata.write(v [, opts]) -> text     THE writer of Lua literals: what
--       load("return " .. text) reads back as v (for plain data). Keys sorted
--       (by type, then value), the array part first; strings quoted;
--       keywords and other non-names as ["key"]. opts:
--         compact = true   no spaces ({C={leaps={{1,5}}}}) and strings in
--                          'single quotes' where they need no escape (the
--                          {...} values of rules text)
--         width = N        when the one-line text (after indent) is longer,
--                          one item a line, indented by two spaces a level
--         indent = "  "    the indent of the first line (with width)
--         depth = N        tables deeper than N are written {...}
--         items = N        at most N items a table, then "... (K more)"
--         other = fn(v)    the text of a value that is not plain data
--                          (functions, userdata, tables with __tostring),
--                          or nil for tostring(v)
--       A table met again inside itself is written <cycle>; with depth,
--       items, other or a cycle the text is for people, not for load.
--   luadata.load_file(path [, what [, kind]]) -> value | nil, message
--       THE loader of trusted Lua files that return a value (rule files,
--       experiment files): read by cheskers.files (kind: its cap, default
--       "experiment"; a FIFO or device is refused), run as Lua text (no
--       bytecode) in _G; the message names the file in full. what (e.g. "a
--       rule table"): the value must be a table, else "PATH: does not return
--       WHAT".
--   luadata.readable(text, chunkname) -> text
--       Lua writes a chunk's name in messages and tracebacks cut to
--       LUA_IDSIZE (60) characters ("...ong/path/bot.lua:3: boom"); this
--       writes the name in full again wherever that cut form appears. Every
--       loader of a file (bots, experiments, rule files, puzzle files, the
--       REPL's start-up file) passes its messages through it.
--   luadata.sorted_keys(t, ...) -> the keys of the tables (each once), in
--       the writer's order: by type, then value (numbers and texts), else
--       by their text
--   luadata.KEYWORDS, luadata.is_name(k)   Lua's reserved words; whether k
--       is written as a bare name (an identifier, not a reserved word)
--   luadata.wrap(wrapper, fn) -> wrapper      records that wrapper stands for fn
--   luadata.original(f) -> fn                 the fn behind a wrapper, else f
--       (the sandbox wraps the functions of untrusted files; a fingerprint
--       digests the function the file wrote, not the wrapper)
--
-- (truncate runs inside the sandbox's calls, under its guard of the string
-- metatable: it calls string functions directly, never as methods.)

local M = {}

M.DETAIL = 300                -- characters of a truncated detail

function M.truncate(text, max)
  max = max or M.DETAIL
  local s = string.match(tostring(text), "^[^\n]*")
  if #s > max then s = string.sub(s, 1, max - 3) .. "..." end
  return s
end

-- ---- writing Lua literals ------------------------------------------------------

-- Lua's reserved words, sorted (a key that is one is written ["end"]).
M.KEYWORDS = {
  "and", "break", "do", "else", "elseif", "end", "false", "for", "function",
  "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
  "true", "until", "while",
}
local KEYWORDS = {}
for _, k in ipairs(M.KEYWORDS) do KEYWORDS[k] = true end

local function is_name(k)
  return type(k) == "string" and k:match("^[%a_][%w_]*$") ~= nil and not KEYWORDS[k]
end
M.is_name = is_name

local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end

function M.sorted_keys(...)
  local seen, keys = {}, {}
  for i = 1, select("#", ...) do
    for k in pairs((select(i, ...))) do
      if not seen[k] then seen[k] = true keys[#keys + 1] = k end
    end
  end
  table.sort(keys, key_order)
  return keys
end

-- The keys of t that are not in its array part 1..n, sorted.
local function other_keys(t, n)
  local keys = {}
  for _, k in ipairs(M.sorted_keys(t)) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  return keys
end

local function string_text(s, compact)
  if compact and not s:find("[\\'%c]") then return "'" .. s .. "'" end
  return (string.format("%q", s):gsub("\\\n", "\\n"))
end

local function number_text(x)
  if x ~= x then return "0/0" end
  if x == math.huge then return "1/0" end
  if x == -math.huge then return "-1/0" end
  local s = tostring(x)
  if math.type(x) == "float" and tonumber(s) ~= x then s = string.format("%.17g", x) end
  return s
end

local write

local function table_text(t, o, indent, level, seen)
  if seen[t] then return "<cycle>" end
  if o.depth and level >= o.depth then return "{...}" end
  seen[t] = true
  local eq, sep = o.compact and "=" or " = ", o.compact and "," or ", "
  local inner = indent .. "  "
  local items, n = {}, #t
  for i = 1, n do items[#items + 1] = write(t[i], o, inner, level + 1, seen) end
  for _, k in ipairs(other_keys(t, n)) do
    local key = is_name(k) and k or "[" .. write(k, o, inner, level + 1, seen) .. "]"
    items[#items + 1] = key .. eq .. write(t[k], o, inner, level + 1, seen)
  end
  seen[t] = nil
  if o.items and #items > o.items then
    local more = #items - o.items
    for i = #items, o.items + 1, -1 do items[i] = nil end
    items[#items + 1] = string.format("... (%d more)", more)
  end
  if #items == 0 then return "{}" end
  local one = "{" .. table.concat(items, sep) .. "}"
  if not o.width or (#one + #indent <= o.width and not one:find("\n", 1, true)) then return one end
  return "{\n" .. inner .. table.concat(items, ",\n" .. inner) .. "\n" .. indent .. "}"
end

function write(v, o, indent, level, seen)
  local t = type(v)
  if t == "string" then return string_text(v, o.compact) end
  if t == "number" then return number_text(v) end
  if t == "table" and not (getmetatable(v) or {}).__tostring then return table_text(v, o, indent, level, seen) end
  if t == "nil" or t == "boolean" then return tostring(v) end
  return o.other and o.other(v) or tostring(v)
end

function M.write(v, opts)
  opts = opts or {}
  return write(v, opts, opts.indent or "", 0, {})
end

-- ---- reading Lua files of data ---------------------------------------------------

function M.load_file(path, what, kind)
  local chunk, err = require("cheskers.files").load_lua(path, kind or "experiment")
  if not chunk then return nil, M.readable(err, "@" .. path) end
  local ok, v = pcall(chunk)
  if not ok then
    v = M.readable(tostring(v), "@" .. path)
    if v:sub(1, #path + 1) ~= path .. ":" then v = path .. ": " .. v end
    return nil, v
  end
  if what and type(v) ~= "table" then return nil, path .. ": does not return " .. what end
  return v
end

-- ---- names of files in messages ---------------------------------------------

-- chunkname -> how Lua writes it in messages (only names Lua cuts).
local cut_names = {}

-- See the header. The cut form is Lua's own: the short_src of an empty
-- chunk of that name.
function M.readable(text, chunkname)
  if type(text) ~= "string" or type(chunkname) ~= "string" then return text end
  local cut = cut_names[chunkname]
  if cut == nil then
    local full = string.match(chunkname, "^[@=](.*)$") or chunkname
    cut = debug.getinfo(load("", chunkname), "S").short_src
    cut = cut ~= full and { cut, full } or false
    cut_names[chunkname] = cut
  end
  if not cut then return text end
  local short, full = cut[1], cut[2]
  local out, from = {}, 1
  while true do
    local i, j = string.find(text, short, from, true)
    if not i then break end
    if string.sub(text, i, i + #full - 1) == full then j = i + #full - 1 end  -- already in full ("=name")
    out[#out + 1] = string.sub(text, from, i - 1)
    out[#out + 1] = full
    from = j + 1
  end
  out[#out + 1] = string.sub(text, from)
  return table.concat(out)
end

-- ---- the function behind a wrapper ------------------------------------------------

local ORIGINAL = setmetatable({}, { __mode = "k" })

function M.wrap(wrapper, fn)
  ORIGINAL[wrapper] = fn
  return wrapper
end

function M.original(f)
  return ORIGINAL[f] or f
end

return M
