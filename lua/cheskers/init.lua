-- cheskers/init.lua - the module "cheskers": the C core (cheskers.core,
-- built from lua/binding/*.c) with what is written in Lua added on first use:
-- cheskers.puzzle and cheskers.svg load when first indexed. (b:svg(opts) is
-- a method of the binding, lua/binding/lboard.c, which requires cheskers.svg when
-- called: nothing here patches the C types; docs/reference/lua_api.md.)
local core = require "cheskers.core"

-- Lua modules reached as fields of the module, loaded on first use.
local lazy = { puzzle = "cheskers.puzzle", svg = "cheskers.svg" }

setmetatable(core, {
  __index = function(t, k)
    local name = lazy[k]
    if name == nil then return nil end
    local m = require(name)
    rawset(t, k, m)
    return m
  end,
})

-- cheskers.plural(n, word [, words]) -> "1 ply", "3 plies": n and the word
-- for n things (words: the plural when it is not word .. "s"; "ply" and
-- "puzzle" need none). The one way a message counts things.
local PLURALS = { ply = "plies" }
function core.plural(n, word, words)
  local count = n == math.floor(n) and string.format("%d", n) or tostring(n)
  return count .. " " .. (n == 1 and word or words or PLURALS[word] or word .. "s")
end

-- The one way the Lua library raises its errors: cheskers.errorf(fmt, ...)
-- a one-line message (level 0: no "file:line:" prefix), cheskers.raise(code,
-- fmt, ...) an error value with a code of the binding's table
-- (docs/reference/lua_api.md, "Errors": what callers test with cheskers.error_code).
function core.errorf(fmt, ...)
  error(string.format(fmt, ...), 0)
end

function core.raise(code, fmt, ...)
  error(core.error_value(code, string.format(fmt, ...)), 0)
end

return core
