-- tests/library/escape_spec.lua - cheskers.escape: names from untrusted code made
-- safe for the console, JSON (valid UTF-8) and XML. One row per case; the
-- expected texts are written from the rules in the module's header (and
-- the UTF-8 and XML 1.0 specifications), byte by byte.
local escape = require "cheskers.escape"

local FFFD = "\239\191\189"    -- U+FFFD, the replacement character

describe("escape.utf8", function()
  local CASES = {
    { "plain ASCII is kept", "engine-3", "engine-3" },
    { "well-formed UTF-8 is kept", "M\195\188ller \226\130\172", "M\195\188ller \226\130\172" },
    { "control characters are kept (JSON escapes them)", "a\nb\0c", "a\nb\0c" },
    { "a stray byte", "a\255b", "a" .. FFFD .. "b" },
    { "each byte of a bad sequence", "\254\255", FFFD .. FFFD },
    { "a character cut short at the end", "ab\195", "ab" .. FFFD },
    { "a lead byte before ASCII", "\195(", FFFD .. "(" },
    { "an overlong '/'", "\192\175", FFFD .. FFFD },
    { "a surrogate (U+D800)", "\237\160\128", FFFD .. FFFD .. FFFD },
    { "past U+10FFFF", "\244\144\128\128", FFFD .. FFFD .. FFFD .. FFFD },
    { "a number through tostring", 12, "12" },
  }
  for _, c in ipairs(CASES) do
    it(c[1], function()
      assert.equal(c[3], escape.utf8(c[2]))
      assert.is_truthy(utf8.len(escape.utf8(c[2])))
    end)
  end
end)

describe("escape.console", function()
  local CASES = {
    { "a plain name is kept", "alphabeta:depth=3", "alphabeta:depth=3" },
    { "UTF-8 letters are kept", "M\195\188ller", "M\195\188ller" },
    { "a backslash is kept", "C:\\bots", "C:\\bots" },
    { "a newline cannot start a line", "evil\n1  forged", "evil\\n1  forged" },
    { "tab and return", "a\tb\rc", "a\\tb\\rc" },
    { "an escape sequence", "\27[2J\27]0;title\7", "\\x1b[2J\\x1b]0;title\\x07" },
    { "NUL and DEL", "a\0b\127", "a\\x00b\\x7f" },
    { "bytes that are not UTF-8", "x\255\254", "x\\xff\\xfe" },
    { "C1 controls (U+0085, U+009B)", "a\194\133b\194\155c", "a\\u{0085}b\\u{009b}c" },
    { "the right-to-left override U+202E", "abc\226\128\174gpj.exe", "abc\\u{202e}gpj.exe" },
    { "the line separator U+2028", "a\226\128\168b", "a\\u{2028}b" },
    { "the isolate U+2067", "\226\129\167x", "\\u{2067}x" },
    { "an en dash (U+2013) is kept", "a\226\128\147b", "a\226\128\147b" },
  }
  for _, c in ipairs(CASES) do
    it(c[1], function() assert.equal(c[3], escape.console(c[2])) end)
  end

  it("what it returns has no control byte and is UTF-8, for every byte value", function()
    local all = {}
    for b = 0, 255 do all[#all + 1] = string.char(b) end
    local s = escape.console(table.concat(all))
    assert.is_nil(s:find("[\0-\31\127]"))
    assert.is_truthy(utf8.len(s))
  end)
end)

-- Messages and tracebacks: several lines, each escaped as a console line,
-- the newlines and Lua's tab indent kept (cli.report, the REPL's errors).
describe("escape.lines", function()
  local CASES = {
    { "plain lines are kept", "a: b\n\tat x.lua:3", "a: b\n\tat x.lua:3" },
    { "an escape sequence in a line", "bad\27[2Jname\nnext", "bad\\x1b[2Jname\nnext" },
    { "a carriage return is shown", "a\r\nb", "a\\r\nb" },
    { "a bell and a byte that is not UTF-8", "\7x\255", "\\x07x\\xff" },
    { "a right-to-left override", "a\226\128\174b", "a\\u{202e}b" },
  }
  for _, c in ipairs(CASES) do
    it(c[1], function() assert.equal(c[3], escape.lines(c[2])) end)
  end
end)

describe("escape.xml", function()
  local CASES = {
    { "the five characters XML and HTML treat specially", [[<a href="x">&'</a>]],
      "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;" },
    { "tab, newline and return are allowed", "a\tb\nc\rd", "a\tb\nc\rd" },
    { "C0 controls XML 1.0 forbids", "a\0b\1c\27d\12e", "a" .. FFFD .. "b" .. FFFD .. "c" .. FFFD .. "d" .. FFFD .. "e" },
    { "DEL and C1 (HTML calls them errors)", "a\127b\194\133c", "a" .. FFFD .. "b" .. FFFD .. "c" },
    { "U+FFFE and U+FFFF", "\239\191\190\239\191\191", FFFD .. FFFD },
    { "bytes that are not UTF-8", "x\255", "x" .. FFFD },
    { "UTF-8 letters are kept", "M\195\188ller", "M\195\188ller" },
  }
  for _, c in ipairs(CASES) do
    it(c[1], function() assert.equal(c[3], escape.xml(c[2])) end)
  end
end)

describe("escape.pad and escape.width", function()
  it("count characters, not bytes", function()
    assert.equal(6, escape.width("M\195\188ller"))
    assert.equal("M\195\188  |", escape.pad("M\195\188", 4) .. "|")
    assert.equal("  ab|", escape.lpad("ab", 4) .. "|")
  end)

  it("widths past 99 (string.format refuses '%-187s')", function()
    local name = string.rep("x", 187)
    assert.equal(name .. "   |", escape.pad(name, 190) .. "|")
    assert.equal(187, #escape.pad(name, 3))
  end)
end)
