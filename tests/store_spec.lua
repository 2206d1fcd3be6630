-- tests/store_spec.lua - cheskers.store: JSON lines with a stable key
-- order and integers read back as integers, the header and its
-- fingerprint, resume after a cut-short line, records kept in step with the
-- results, the lock, folders.
local store = require "cheskers.store"
local H = require "helpers"

local tmpdir, rmdir = H.tmpdir, H.rmdir

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local t = f:read("a")
  f:close()
  return t
end

local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

local function lines(path)
  local t = {}
  for l in (read(path) or ""):gmatch("([^\n]*)\n") do t[#t + 1] = l end
  return t
end

-- A store of games keyed by number, with records "game N\n".
local function open(dir, extra)
  local o = { path = dir .. "/out/results.jsonl", kind = "test", fingerprint = { seed = 1, bots = { "a", "b" } },
              key = function(r) return r.game end, records = dir .. "/rec/games.txt",
              render = function(r) return "game " .. r.game .. "\n" end }
  for k, v in pairs(extra or {}) do o[k] = v end
  return store.open(o)
end

describe("store JSON", function()
  it("writes the named keys first, then the others sorted, on one line", function()
    assert.equal('{"game":3,"winner":"white","a":1,"b":[1,2],"z":{"x":true,"y":"q"}}',
                 store.encode({ z = { y = "q", x = true }, b = { 1, 2 }, a = 1, winner = "white", game = 3 }))
    assert.equal('{"k":1,"a":2}', store.encode({ a = 2, k = 1 }, { "k" }))
  end)

  it("reads integers back as integers and fractions as floats", function()
    local t = store.decode('{"game":1,"x":1.5,"n":[2,3]}')
    assert.equal("integer", math.type(t.game))
    assert.equal("float", math.type(t.x))
    assert.equal("integer", math.type(t.n[2]))
    assert.is_nil(store.decode('{"game":'))
  end)
end)

describe("store files", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() rmdir(dir) end)

  it("creates the folders, writes a header, then one line and one record per game", function()
    local s = open(dir)
    s:append({ game = 1, winner = "white" })
    s:append({ game = 2, winner = "draw" })
    s:close()
    local l = lines(dir .. "/out/results.jsonl")
    assert.equal(3, #l)
    local h = store.decode(l[1])
    assert.equal("test", h.kind)
    assert.same({ seed = 1, bots = { "a", "b" } }, h.fingerprint)
    assert.equal('{"game":2,"winner":"draw"}', l[3])
    assert.equal("game 1\ngame 2\n", read(dir .. "/rec/games.txt"))
  end)

  it("keeps every complete game, drops a line cut short and rewrites the records to match", function()
    local s = open(dir)
    for g = 1, 3 do s:append({ game = g }) end
    s:close()
    local path = dir .. "/out/results.jsonl"
    -- a kill while game 4 was written: half a line; its record never written
    write(path, read(path) .. '{"game":4,"win')
    -- and a kill between game 3's line and its record
    write(dir .. "/rec/games.txt", "game 1\ngame 2\n")
    s = open(dir)
    assert.equal(3, #s.results)
    assert.is_true(s:has(3))
    assert.is_false(s:has(4))
    s:append({ game = 4 })
    s:close()
    assert.equal(5, #lines(path))
    assert.equal("\n", read(path):sub(-1))
    assert.equal("game 1\ngame 2\ngame 3\ngame 4\n", read(dir .. "/rec/games.txt"))
  end)

  it("keeps a game stored twice once", function()
    local s = open(dir)
    s:append({ game = 1 })
    s:append({ game = 1 })
    s:close()
    s = open(dir)
    s:close()
    assert.equal(1, #s.results)
    assert.equal("game 1\n", read(dir .. "/rec/games.txt"))
  end)

  it("refuses a file made from other inputs, saying which fields differ, unless restarted", function()
    local s = open(dir)
    s:append({ game = 1 })
    s:close()
    local ok, err = pcall(open, dir, { fingerprint = { seed = 2, bots = { "a", "c" } } })
    assert.is_false(ok)
    assert.matches("holds results of other inputs", err, 1, true)
    assert.matches("bots[2]: \"b\" there, \"c\" here", err, 1, true)
    assert.matches("seed: 1 there, 2 here", err, 1, true)
    assert.matches("--restart", err, 1, true)
    assert.is_nil(io.open(dir .. "/out/results.jsonl.lock/owner"))     -- the lock was released
    s = open(dir, { fingerprint = { seed = 2 }, restart = true })
    s:close()
    assert.equal(0, #s.results)
    assert.equal(1, #lines(dir .. "/out/results.jsonl"))
    assert.equal("", read(dir .. "/rec/games.txt"))
  end)

  it("refuses a file without a header", function()
    store.mkdir(dir .. "/out")
    write(dir .. "/out/results.jsonl", '{"game":1}\n')
    local ok, err = pcall(open, dir)
    assert.is_false(ok)
    assert.matches("has no header line", err, 1, true)
  end)

  it("lets one run write a file at a time", function()
    local s = open(dir)
    local ok, err = pcall(open, dir)
    assert.is_false(ok)
    assert.matches("in use by another run", err, 1, true)
    s:close()
    open(dir):close()
  end)

  it("functions in a fingerprint are digests of their source: an edit is a change, a move is not", function()
    local function chunk(prefix, body)
      return assert(load(prefix .. "return function(b) " .. body .. " end"))()
    end
    local a = store.plain({ f = chunk("", "return b + 1") })
    local moved = store.plain({ f = chunk("-- a comment above\n\n", "return b + 1") })
    local edited = store.plain({ f = chunk("", "return b + 2") })
    assert.matches("^function %x+$", a.f)
    assert.equal(a.f, moved.f)
    assert.are_not.equal(a.f, edited.f)
  end)
end)
