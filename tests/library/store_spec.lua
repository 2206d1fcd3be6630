-- tests/library/store_spec.lua - cheskers.store: JSON lines with a stable key
-- order and integers read back as integers, the header and its
-- fingerprint, resume after a cut-short line, records kept in step with the
-- results, the lock, folders.
local store = require "cheskers.store"
local H = require "helpers"

local tmpdir, rmdir = H.tmpdir, H.rmdir

local read, write = H.read_file, H.write_file

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

  it("writes every text as valid UTF-8 with control characters escaped (names are the bots' choice)", function()
    -- a byte that is not UTF-8 becomes U+FFFD (JSON text is UTF-8, RFC 8259;
    -- dkjson writes U+FFFD as \ufffd); keys too; a newline, ESC and NUL are
    -- written as escapes
    local line = store.encode({ white = "a\n\27\0b\255", moves = { "x\254y" }, ["k\255"] = 1 })
    assert.equal('{"white":"a\\n\\u001b\\u0000b\\ufffd","k\\ufffd":1,"moves":["x\\ufffdy"]}', line)
    assert.is_nil(line:find("[\0-\31]"))
    assert.equal("a\n\27\0b\239\191\189", store.decode(line).white)
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

  it("writes the engine's signature in the header, and refuses a file of another engine unless restarted", function()
    local sig = store.engine_signature()
    assert.matches("^%x+$", sig)
    assert.equal(16, #sig)
    assert.equal(sig, store.engine_signature(), "made once")
    local s = open(dir)
    s:append({ game = 1 })
    s:close()
    local path = dir .. "/out/results.jsonl"
    local text = read(path)
    assert.equal(sig, store.decode(text:match("^[^\n]*")).engine)
    -- the same file as another program would have written it
    local other = text:gsub('"engine":"' .. sig .. '"', '"engine":"0123456789abcdef"', 1)
    assert.are_not.equal(text, other)
    H.write_file(path, other)
    local ok, err = pcall(open, dir)
    assert.is_false(ok)
    assert.matches("holds results of another engine: its signature is 0123456789abcdef there, "
                   .. sig .. " here", err, 1, true)
    assert.matches("--restart", err, 1, true)
    assert.is_nil(err:find("\n[^(]"), "two lines: the reason and the hint")
    assert.is_nil(io.open(path .. ".lock/owner"))     -- the lock was released
    -- a file of an older program (no signature) keeps its games
    H.write_file(path, (text:gsub(',?"engine":"' .. sig .. '"', "", 1)))
    assert.is_nil(read(path):match('"engine"'))
    s = open(dir)
    s:close()
    assert.equal(1, #s.results)
    s = open(dir, { restart = true })
    s:close()
    assert.equal(0, #s.results)
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

  it("refuses a file of text that is not results (no header, unreadable lines): never overwrites it", function()
    store.mkdir(dir .. "/out")
    write(dir .. "/out/results.jsonl", "my notes, not results\n")
    local ok, err = pcall(open, dir)
    assert.is_false(ok)
    assert.matches("has no header line", err, 1, true)
    assert.equal("my notes, not results\n", read(dir .. "/out/results.jsonl"))
  end)

  it("lets one run write a file at a time", function()
    local s = open(dir)
    local ok, err = pcall(open, dir)
    assert.is_false(ok)
    assert.matches("in use by another run", err, 1, true)
    assert.equal("locked", require("cheskers").error_code(err))   -- what a caller tests (cheskers.fitted waits)
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

describe("run folders", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() rmdir(dir) end)

  -- Shard i of n of a run "r" of kind "test" in dir/run: games keyed by number.
  local function shard(i, n, extra)
    local o = { dir = dir .. "/run", path = store.shard_file(dir .. "/run", "r", i, n), kind = "test",
                fingerprint = { seed = 1 }, key = function(r) return r.game end }
    for k, v in pairs(extra or {}) do o[k] = v end
    return store.open_shard(o)
  end

  it("names shard files DIR/PREFIX.shard<I>of<N>.jsonl and knows them by name", function()
    assert.equal("d/camel.seed1.shard2of8.jsonl", store.shard_file("d", "camel.seed1", 2, 8))
    assert.is_true(store.is_shard_file("d/camel.seed1.shard12of16.jsonl", "camel.seed1"))
    assert.is_false(store.is_shard_file("d/camel.seed12.shard1of2.jsonl", "camel.seed1"))
    assert.is_false(store.is_shard_file("d/camel.seed1.shard1of2.jsonl.tmp", "camel.seed1"))
    assert.is_false(store.is_shard_file("d/xcamel.seed1.shard1of2.jsonl", "camel.seed1"))
  end)

  it("parses I/N and refuses shards outside 1..N", function()
    assert.same({ 2, 3 }, { store.parse_shard("2/3") })
    for _, bad in ipairs({ "0/2", "3/2", "1/0", "x", "1-2", "1/2/3" }) do
      local ok, err = pcall(store.parse_shard, bad)
      assert.is_false(ok, bad)
      assert.equal("shard must be I/N with 1 <= I <= N, not '" .. bad .. "'", err)
    end
  end)

  it("a shard skips the games of the run's other files, and only of its run", function()
    local one = shard(1, 2)
    one:append({ game = 1 })
    one:append({ game = 3 })
    one:close()
    local other = shard(1, 1, { kind = "other", fingerprint = { seed = 9 } })   -- another run in the folder
    other:append({ game = 2 })
    other:close()
    local two = shard(2, 2)
    assert.is_true(two:has(1))
    assert.is_true(two:has(3))
    assert.is_false(two:has(2))
    assert.equal(0, #two.results)           -- its own file holds nothing yet
    two:close()
    assert.same({ "r.shard1of1.jsonl", "r.shard1of2.jsonl", "r.shard2of2.jsonl" },
      (function()
        local names = {}
        for _, f in ipairs(store.folder(dir .. "/run")) do names[#names + 1] = f.path:match("[^/]+$") end
        return names
      end)())
  end)

  it("refuses a file of the run made from other inputs, naming it; restart removes the run's files only", function()
    local one = shard(1, 2)
    one:append({ game = 1 })
    one:close()
    local other = shard(1, 1, { kind = "other" })
    other:close()
    local ok, err = pcall(shard, 2, 2, { fingerprint = { seed = 2 } })
    assert.is_false(ok)
    assert.matches("r.shard1of2.jsonl holds results of other inputs", err, 1, true)
    assert.matches("seed: 1 there, 2 here", err, 1, true)
    assert.is_nil(io.open(store.shard_file(dir .. "/run", "r", 2, 2) .. ".lock/owner"))   -- released
    local fresh = shard(2, 2, { fingerprint = { seed = 2 }, restart = true })
    assert.is_false(fresh:has(1))
    fresh:close()
    assert.is_nil(io.open(store.shard_file(dir .. "/run", "r", 1, 2)))
    assert.is_table(store.read(store.shard_file(dir .. "/run", "r", 1, 1)))    -- the other run's file stays
  end)

  it("lists a folder's .jsonl files sorted, with what a filter keeps; none for a missing folder", function()
    store.mkdir(dir .. "/f")
    write(dir .. "/f/b.jsonl", '{"header":"cheskers results","kind":"x"}\n{"game":1}\n')
    write(dir .. "/f/a.jsonl", '{"game":2}\n{"ga')
    write(dir .. "/f/c.txt", '{"game":3}\n')
    local files = store.folder(dir .. "/f")
    assert.equal(2, #files)
    assert.matches("/a%.jsonl$", files[1].path)
    assert.is_nil(files[1].header)
    assert.is_true(files[1].torn)
    assert.equal("x", files[2].header.kind)
    assert.same({ { game = 1 } }, files[2].results)
    assert.equal(1, #store.folder(dir .. "/f", function(f) return f.header ~= nil end))
    assert.same({}, store.folder(dir .. "/none"))
  end)

  it("says on which line each result, unreadable line and line cut short is", function()
    store.mkdir(dir .. "/f")
    write(dir .. "/f/r.jsonl", '{"header":"cheskers results","kind":"x"}\n{"game":1}\n\nnot json\n{"game":2}\n{"ga')
    local header, results, torn, bad, at = store.read(dir .. "/f/r.jsonl")
    assert.equal("x", header.kind)
    assert.same({ { game = 1 }, { game = 2 } }, results)
    assert.same({ true, 1 }, { torn, bad })
    assert.same({ header = 1, lines = { 2, 5 }, unreadable = { 4 }, torn = 6 }, at)
    local f = store.folder(dir .. "/f")[1]
    assert.same({ { 2, 5 }, { 4 }, 6, 1 }, { f.lines, f.unreadable, f.torn_line, f.header_line })
  end)

  it("notes what does not belong by file and line, the lines of one note together", function()
    local notes = store.notes()
    notes:add("a.jsonl", 3, "odd")
    notes:add("b.jsonl", nil, "not ours")
    for _, line in ipairs({ 7, 9, 12, 20, 31 }) do notes:add("a.jsonl", line, "bad") end
    notes:add("a.jsonl", 4, "odd")
    assert.same({ "a.jsonl:3, 4: odd", "b.jsonl: not ours", "a.jsonl:7, 9, 12 and 2 more lines: bad" },
                notes:list())
  end)

  it("knows the kinds of a folder's files by their first lines", function()
    store.mkdir(dir .. "/k")
    write(dir .. "/k/a.jsonl", '{"header":"cheskers results","kind":"tournament"}\n')
    write(dir .. "/k/b.jsonl", '{"header":"cheskers results","kind":"tournament"}\n{"game":1}\n')
    write(dir .. "/k/c.jsonl", '{"game":1}\n')
    write(dir .. "/k/d.txt", '{"header":"cheskers results","kind":"match"}\n')
    assert.same({ tournament = 2 }, store.kinds(dir .. "/k"))
    assert.same({}, store.kinds(dir .. "/none"))
  end)
end)

describe("locks of processes that are gone", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() rmdir(dir) end)

  local function first_line(path) return assert(read(path)):match("^[^\n]*") end

  -- A zombie: a child that has ended, of a parent (sleep) that never waits
  -- for it. Returns the zombie's pid, the parent's pid and the pipe to close
  -- after killing the parent.
  local function zombie()
    local p = assert(io.popen("sh -c 'true & echo $! $$; exec sleep 60'", "r"))
    local z, parent = p:read("l"):match("^(%d+) (%d+)$")
    for _ = 1, 200 do   -- until the child has ended (2 s at most)
      local stat = io.open("/proc/" .. z .. "/stat")
      local state = stat and stat:read("l"):match(".*%) (%a)")
      if stat then stat:close() end
      if state == "Z" then break end
      os.execute("sleep 0.01")
    end
    return z, parent, p
  end

  it("a zombie is not alive; the lock of a killed owner not yet waited for is taken over", function()
    local z, parent, p = zombie()
    local ok, err = pcall(function()
      assert.is_false(store.process_alive(z))
      assert.is_true(store.process_alive(parent))
      assert.is_true(store.process_alive(first_line("/proc/self/stat"):match("^(%d+)")))
      assert.is_false(store.process_alive("999999999"))
      local path = dir .. "/r.jsonl"
      store.mkdir(path .. ".lock")
      write(path .. ".lock/owner", z .. "@" .. first_line("/proc/sys/kernel/hostname") .. "\n")
      store.unlock(store.lock(path))
      assert.is_nil(io.open(path .. ".lock/owner"))
    end)
    os.execute("kill " .. parent)
    p:close()
    assert(ok, err)
  end)
end)

describe("a lock being taken", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() rmdir(dir) end)

  -- A run that finds a lock folder its taker has not yet written its owner
  -- into waits (it took the lock too: two shards fitted one weights file);
  -- only a folder left so for longer than store's grace is taken over.
  it("a fresh lock folder without its owner is in use; one left so for long is taken over", function()
    local path = dir .. "/w.lua"
    store.mkdir(path .. ".lock")
    local ok, err = pcall(store.lock, path)
    assert.is_false(ok)
    assert.equal("locked", require("cheskers").error_code(err))
    assert.truthy(tostring(err):find("in use by another run (?)", 1, true), tostring(err))
    local lfs = require "lfs"
    local old = os.time() - 60
    assert(lfs.touch(path .. ".lock", old, old))
    store.unlock(store.lock(path))
    assert.is_nil(lfs.attributes(path .. ".lock"))
  end)
end)

describe("whole files", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() rmdir(dir) end)

  it("writes a file whole, creating its folder, replacing the old text, leaving no temporary file", function()
    local path = dir .. "/a/b/page.html"
    store.write_file(path, "first, a longer text\n")
    store.write_file(path, "second\n")
    assert.equal("second\n", read(path))
    local names = {}
    for name in require("lfs").dir(dir .. "/a/b") do
      if name ~= "." and name ~= ".." then names[#names + 1] = name end
    end
    assert.are.same({ "page.html" }, names)
  end)

  it("writes through no link planted at a temporary name (it was PATH.tmp, followed)", function()
    local victim, path = dir .. "/victim", dir .. "/page.html"
    local f = assert(io.open(victim, "w"))
    f:write("precious")
    f:close()
    assert(os.execute(("ln -s '%s' '%s.tmp'"):format(victim, path)))
    store.write_file(path, "page\n")
    assert.equal("precious", read(victim))
    assert.equal("page\n", read(path))
    assert.is_true(os.execute(("test -L '%s.tmp'"):format(path)))   -- the planted link is left as it was
  end)

  it("cheskers.create_file refuses a path that exists, a link included", function()
    local cheskers = require "cheskers"
    local path = dir .. "/new"
    local f = assert(cheskers.create_file(path))
    f:write("x")
    assert.is_true(f:close())
    local g, err = cheskers.create_file(path)
    assert.is_nil(g)
    assert.matches("File exists", err)
    assert(os.execute(("ln -s '%s/nowhere' '%s/link'"):format(dir, dir)))
    g, err = cheskers.create_file(dir .. "/link")
    assert.is_nil(g)
    assert.matches("File exists", err)
    assert.is_nil(io.open(dir .. "/nowhere"))
  end)

  it("a temporary left by a writer killed before its rename is removed by the next write here; a live one's stays", function()
    local function names_in(d)
      local out = {}
      for name in require("lfs").dir(d) do
        if name ~= "." and name ~= ".." then out[#out + 1] = name end
      end
      table.sort(out)
      return out
    end
    -- a writer that dies (exit 9, nothing cleaned up) right after making its temporary file
    local dying = ([[local c = require "cheskers"; local make = c.create_file
      c.create_file = function(p) local f = make(p); f:write("half"); os.exit(9) end
      require("cheskers.store").write_file(%q, "whole\n")]]):format(dir .. "/page.html")
    local q = function(x) return "'" .. x:gsub("'", "'\\''") .. "'" end
    local _, _, code = os.execute(q(H.ROOT .. "/cheskers") .. " -e " .. q(dying))
    assert.equal(9, code)
    local left = names_in(dir)
    assert.equal(1, #left, table.concat(left, " "))
    assert.truthy(left[1]:find("^page%.html%.tmp%."), left[1])
    -- a write in progress in this process (its temporary made, not yet renamed) is not a dead one's
    local cheskers = require "cheskers"
    local make = cheskers.create_file
    cheskers.create_file = function(p) make(p):close(); error("stopped here", 0) end
    local ok = pcall(store.write_file, dir .. "/live.html", "x")
    cheskers.create_file = make
    assert.is_false(ok)
    store.write_file(dir .. "/other.html", "other\n")
    local now = names_in(dir)
    -- the dead writer's temporary is gone; the live one's is kept
    assert.equal(2, #now, table.concat(now, " "))
    assert.truthy(now[1]:find("^live%.html%.tmp%."), now[1])
    assert.equal("other.html", now[2])
  end)

  it("a failed write names the file asked for, not the temporary one, and leaves nothing", function()
    store.mkdir(dir .. "/taken")                    -- a folder where the file should go: rename fails
    local ok, err = pcall(store.write_file, dir .. "/taken", "text")
    assert.is_false(ok)
    assert.matches("^cannot write " .. dir:gsub("%p", "%%%0") .. "/taken: ", err)
    local names = {}
    for name in require("lfs").dir(dir) do
      if name ~= "." and name ~= ".." then names[#names + 1] = name end
    end
    assert.are.same({ "taken" }, names)
    ok, err = pcall(store.write_file, "/proc/no/such/file", "text")
    assert.is_false(ok)
    assert.matches("^cannot", err)
  end)

  it("a records file gets each game's record as it ends", function()
    local w = store.records_file(dir .. "/r/games.txt", function(r) return "game " .. r.game .. "\n" end)
    w:append({ game = 1 })
    assert.equal("game 1\n", read(dir .. "/r/games.txt"))
    w:append({ game = 2 })
    w:close()
    assert.equal("game 1\ngame 2\n", read(dir .. "/r/games.txt"))
    assert.equal(2, #w.results)
  end)
end)
