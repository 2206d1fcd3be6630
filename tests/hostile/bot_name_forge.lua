-- bot_name_forge.lua: a bot whose name forges output. A newline and a
-- table row after it (a standings line of its own), an escape sequence
-- that clears the screen and one that colours it, a NUL (string.format
-- refuses it in a padded column), bytes that are not UTF-8 (invalid JSON),
-- a right-to-left override, and markup. Its error text carries the same.
-- Every place the name goes must show it escaped, keep JSON valid and
-- XML well-formed.
local name = "evil\n  1  forged   9  9.0\27[2J\27[31m\0\255\254\226\128\174<b>&"
local calls = 0
return {
  name = name,
  choose = function(b)
    calls = calls + 1
    if calls > 3 then error("bad move\27[2J\0\255\n  1  forged", 0) end
    return b:moves()[1]
  end,
}
