-- cheskers.escape - text that untrusted code chose (bot names, variant and
-- measure names, a bot's error detail and traceback) made safe for where
-- it goes: the console, JSON and XML/HTML. A bot file or an experiment
-- file picks its own names; a name holding a newline must not forge a
-- table row, an escape sequence must not reach the terminal, a byte that
-- is not UTF-8 must not make a results line invalid JSON, and a control
-- byte must not make an SVG invalid XML. docs/reference/security.md ("Names and
-- values") says what each place shows.
--
--   escape.utf8(s) -> s as valid UTF-8: each byte that does not belong to
--       a well-formed character (strict: no surrogates, nothing past
--       U+10FFFF, no overlong form) becomes U+FFFD. s itself when valid.
--   escape.console(s) -> one line for a terminal: control characters (C0,
--       DEL), bytes that are not UTF-8, and the C1, line-separator and
--       bidirectional-override characters are written as \n, \t, \r,
--       \xHH (a byte) or \u{HHHH} (a character); the rest is kept, so
--       "Müller" stays "Müller". s itself when nothing needs escaping.
--   escape.lines(s) -> text of several lines for a terminal (a message, a
--       traceback): each line as escape.console, its newlines and tabs kept.
--   escape.xml(s) -> text for XML 1.0 and HTML element text or a quoted
--       attribute: valid UTF-8 (as escape.utf8), the characters XML 1.0
--       forbids (C0 but tab, newline and return; U+FFFE, U+FFFF) and the
--       ones HTML calls errors (DEL, C1) become U+FFFD, and & < > " ' their
--       entities.
--   escape.width(s) -> the columns s takes on a terminal: its characters
--       (its bytes when it is not UTF-8); s should be escape.console's.
--   escape.pad(s, w), escape.lpad(s, w) -> s padded with spaces to w
--       columns, on the right (left-justified) or on the left: the one
--       way to align a column of names. A format width ("%-20s") built
--       from data is refused by string.format past 99 and counts bytes,
--       not characters.
-- Non-strings are taken through tostring.
-- (It runs inside sandboxed calls too, e.g. b:svg in a box, where strings
-- have no methods: string functions are called as functions.)
local byte, find, format, gsub, sub = string.byte, string.find, string.format, string.gsub, string.sub

local M = {}

local REPLACEMENT = "\u{FFFD}"

-- Calls good(piece) on each stretch of well-formed UTF-8 of s and bad(byte)
-- on each byte between them; returns their results joined.
local function by_validity(s, good, bad)
  local out, i = {}, 1
  while true do
    local n, at = utf8.len(s, i)
    if n then
      out[#out + 1] = good(sub(s, i))
      return table.concat(out)
    end
    out[#out + 1] = good(sub(s, i, at - 1))
    out[#out + 1] = bad(byte(s, at))
    i = at + 1
  end
end

local function same(piece) return piece end
local function replacement() return REPLACEMENT end

function M.utf8(s)
  s = tostring(s)
  if utf8.len(s) then return s end
  return by_validity(s, same, replacement)
end

-- ---- the console ----------------------------------------------------------------

local NAMED = { ["\n"] = "\\n", ["\t"] = "\\t", ["\r"] = "\\r" }

local function byte_text(b) return format("\\x%02x", b) end

local function control_text(c) return NAMED[c] or byte_text(byte(c)) end

local function char_text(c) return format("\\u{%04x}", utf8.codepoint(c)) end

-- C1 controls (U+0080..U+009F); U+2028, U+2029 (line and paragraph
-- separators) and U+202A..U+202E (embeddings and overrides); U+2066..U+2069
-- (isolates).
local C1 = "\194[\128-\159]"
local SEPARATORS_AND_OVERRIDES = "\226\128[\168-\174]"
local ISOLATES = "\226\129[\166-\169]"

local function console_piece(piece)
  piece = gsub(piece, "[\0-\31\127]", control_text)
  piece = gsub(piece, C1, char_text)
  piece = gsub(piece, SEPARATORS_AND_OVERRIDES, char_text)
  return (gsub(piece, ISOLATES, char_text))
end

function M.console(s)
  s = tostring(s)
  if utf8.len(s) and not find(s, "[\0-\31\127\194\226]") then return s end
  return by_validity(s, console_piece, byte_text)
end

function M.lines(s)
  s = tostring(s)
  if utf8.len(s) and not find(s, "[\0-\8\11-\31\127\194\226]") then return s end
  return (gsub(s, "[^\n\t]+", M.console))
end

-- ---- XML and HTML ---------------------------------------------------------------

local ENTITIES = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }

local function xml_piece(piece)
  piece = gsub(piece, "[\0-\8\11\12\14-\31\127]", REPLACEMENT)
  piece = gsub(piece, C1, REPLACEMENT)
  piece = gsub(piece, "\239\191[\190\191]", REPLACEMENT)
  return (gsub(piece, "[&<>\"']", ENTITIES))
end

function M.xml(s)
  return by_validity(tostring(s), xml_piece, replacement)
end

-- ---- columns -----------------------------------------------------------------

function M.width(s)
  s = tostring(s)
  return utf8.len(s) or #s
end

function M.pad(s, w)
  s = tostring(s)
  return s .. string.rep(" ", w - M.width(s))
end

function M.lpad(s, w)
  s = tostring(s)
  return string.rep(" ", w - M.width(s)) .. s
end

return M
