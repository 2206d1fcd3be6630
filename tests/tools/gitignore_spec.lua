-- tests/tools/gitignore_spec.lua - the scratch output of the README's and the
-- docs' examples (runs/, mined/, book.html, tb/) is ignored by git, so that
-- trying the examples in a checkout leaves `git status` clean.
local H = require "helpers"

local SCRATCH = { "/runs/", "/mined/", "/book.html", "/tb/" }

describe(".gitignore", function()
  it("lists the examples' scratch output", function()
    local f = assert(io.open(H.ROOT .. "/.gitignore"))
    local lines = {}
    for line in f:lines() do lines[line] = true end
    f:close()
    for _, want in ipairs(SCRATCH) do assert.is_true(lines[want] == true, want .. " is not in .gitignore") end
  end)

  it("makes git ignore files there (in a git checkout)", function()
    local p = io.popen("cd '" .. H.ROOT .. "' && git rev-parse --is-inside-work-tree 2>/dev/null")
    local inside = p:read("a")
    p:close()
    if not inside:match("^true") then return end     -- a copy without git: the file check above
    p = io.popen("cd '" .. H.ROOT .. "' && git check-ignore runs/camel/x.jsonl mined/a.lua book.html tb/w.tb")
    local out = p:read("a")
    p:close()
    assert.equal("runs/camel/x.jsonl\nmined/a.lua\nbook.html\ntb/w.tb\n", out)
  end)
end)
