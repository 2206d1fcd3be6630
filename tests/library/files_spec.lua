-- tests/library/files_spec.lua - the one owner of the files a user names
-- (cheskers.files over cheskers.read_file, lua/binding/lsys.c; issue 30, "Paths
-- and files" and "What reaches the console"): folders, FIFOs and devices
-- refused by name without blocking, sizes capped before reading, empty
-- paths refused by every path option, one line (no traceback) for a
-- mistake in a file, and the file's words escaped on the console. The
-- expected messages are written from docs/reference/security.md, not copied from a
-- run. Readers that would wait on a FIFO run in a child process under
-- `timeout`, so that a regression fails instead of hanging the suite.
local cheskers = require "cheskers"
local files = require "cheskers.files"
local H = require "helpers"

local PROGRAM = H.ROOT .. "/cheskers"
local ESC = "\27"

local q = H.shell_quote

-- Runs the program with the shell words args for at most 30 s: output
-- (stdout and stderr), exit status (124 when it had to be stopped).
local function run(args, dir)
  local p = io.popen(("cd %s && timeout 30 %s %s 2>&1"):format(q(dir or H.ROOT), q(PROGRAM), args))
  local out = p:read("a")
  local ok, how, code = p:close()
  return out, ok and 0 or (how == "exit" and code or -1)
end

-- Runs the Lua code in a fresh program (at most 30 s): its output, status.
local function run_lua(code, dir)
  return run("-e " .. q(code), dir)
end

local function fifo(dir, name)
  local path = dir .. "/" .. name
  assert(os.execute("mkfifo " .. q(path)), "mkfifo")
  return path
end

describe("cheskers.read_file", function()
  local dir
  before_each(function() dir = H.tmpdir() end)
  after_each(function() H.rmdir(dir) end)

  it("reads a regular file whole, and one of exactly cap bytes", function()
    local path = H.write_file(dir .. "/a.txt", "one\ntwo\n")
    assert.equal("one\ntwo\n", cheskers.read_file(path, 100))
    assert.equal("one\ntwo\n", cheskers.read_file(path, 8))
    assert.equal("", cheskers.read_file(H.write_file(dir .. "/empty", ""), 0))
  end)

  it("refuses a file of more than cap bytes before reading it", function()
    local path = H.write_file(dir .. "/a.txt", "123456789")
    local text, err, reason = cheskers.read_file(path, 8)
    assert.is_nil(text)
    assert.equal(path .. " is too large (more than 8 bytes)", err)
    assert.equal("large", reason)
  end)

  it("caps what it reads too: /proc files say size 0", function()
    local text = assert(cheskers.read_file("/proc/self/status", 1024 * 1024))
    assert.truthy(text:find("Name:", 1, true))
    local none, err, reason = cheskers.read_file("/proc/self/status", 10)
    assert.is_nil(none)
    assert.equal("large", reason, err)
  end)

  it("head: the first cap bytes of a file of any size", function()
    local path = H.write_file(dir .. "/a.txt", "first line\nsecond\n")
    assert.equal("first", cheskers.read_file(path, 5, true))
    assert.equal("first line", files.first_line(path, "lock"))
  end)

  -- {what, make(dir) -> path, reason, words in the message}
  local REFUSED = {
    { "a folder", function(d) return d end, "folder", "is a folder, not a file" },
    { "a FIFO (without waiting for a writer)", function(d) return fifo(d, "pipe") end, "fifo",
      "is a FIFO (a named pipe), not a file" },
    { "/dev/zero (a device: it never ends)", function() return "/dev/zero" end, "device", "is a device, not a file" },
    { "/dev/null", function() return "/dev/null" end, "device", "is a device, not a file" },
    { "a missing file", function(d) return d .. "/none" end, "missing", "No such file or directory" },
  }
  for _, c in ipairs(REFUSED) do
    it("refuses " .. c[1] .. " by name", function()
      local path = c[2](dir)
      local text, err, reason = cheskers.read_file(path, 1024)
      assert.is_nil(text)
      assert.equal(c[3], reason)
      assert.equal(path .. (c[3] == "missing" and ": " or " ") .. c[4], err)
    end)
  end
end)

describe("cheskers.files", function()
  it("reads /dev/null as the empty file (CHESKERS_RC=/dev/null: no start-up file), other devices refused", function()
    assert.equal("", files.read("/dev/null", "script"))
    local text, _, reason = files.read("/dev/zero", "script")
    assert.is_nil(text)
    assert.equal("device", reason)
  end)

  it("check_path refuses an empty path, a NUL byte and a non-text", function()
    assert.equal("out", files.check_path("out"))
    assert.equal("/", files.check_path("/"))
    local _, err = files.check_path("", "--out")
    assert.equal("--out is empty (name a file or folder)", err)
    assert.is_nil((files.check_path("a\0b")))
    assert.is_nil((files.check_path(nil)))
  end)

  it("read refuses an empty path instead of reading the root folder", function()
    local text, err, reason = files.read("", "weights")
    assert.is_nil(text)
    assert.equal("path", reason)
    assert.truthy(err:find("empty", 1, true))
  end)

  it("dirname and join", function()
    local CASES = { { "a/b.lua", "a" }, { "b.lua", "." }, { "/b.lua", "/" }, { "/x/y/z", "/x/y" } }
    for _, c in ipairs(CASES) do assert.equal(c[2], files.dirname(c[1]), c[1]) end
    assert.equal("a/b", files.join("a", "b"))
    assert.equal("/b", files.join("/", "b"))
    assert.has_error(function() files.join("", "b") end)
  end)

  it("load_lua compiles text and refuses bytecode", function()
    local dir = H.tmpdir()
    local path = H.write_file(dir .. "/x.lua", "return 1 + 2")
    assert.equal(3, assert(files.load_lua(path, "rules"))())
    H.write_file(path, string.dump(function() return 1 end))
    local f, err = files.load_lua(path, "rules")
    assert.is_nil(f)
    assert.truthy(err:find("binary chunk", 1, true))
    H.rmdir(dir)
  end)
end)

-- Every reader of a file a user names refuses a FIFO at once (each in a
-- child process: before the owner, each of these waited for ever).
describe("every reader refuses a FIFO and /dev/zero at once", function()
  local dir
  setup(function()
    dir = H.tmpdir()
    fifo(dir, "pipe")
    fifo(dir, "pipe.lua")
  end)
  teardown(function() H.rmdir(dir) end)

  -- {reader, Lua code that prints its error (PIPE: the FIFO)}
  local READERS = {
    { "tune.read_weights", 'print(select(2, require("cheskers.tune").read_weights(PIPE)))' },
    { "puzzle.load", 'print(select(2, require("cheskers.puzzle").load(PIPE)))' },
    { "match.read_openings", 'print(select(2, require("cheskers.match").read_openings(PIPE)))' },
    { "store.read", 'print(select(2, pcall(require("cheskers.store").read, PIPE)))' },
    { "rulearg (a rules file)", 'print(select(2, require("cheskers.rulearg").parse(PIPE .. ".lua")))' },
    { "experiment.load", 'print(select(2, pcall(require("cheskers.experiment").load, PIPE .. ".lua")))' },
    { "experiment.load, sandboxed",
      'print(select(2, pcall(require("cheskers.experiment").load, PIPE .. ".lua", { sandbox = true })))' },
    { "bots.load (a bot file)", 'print(select(2, pcall(require("cheskers.bots").load, PIPE .. ".lua")))' },
    { "bots.load (engine:weights=)",
      'print(select(2, pcall(require("cheskers.bots").load, "engine:weights=" .. PIPE)))' },
  }
  for _, c in ipairs(READERS) do
    it(c[1], function()
      local pipe = dir .. "/pipe"
      local out, status = run_lua(("local PIPE = %q; %s"):format(pipe, c[2]))
      assert.equal(0, status, out)
      assert.truthy(out:find("is a FIFO (a named pipe), not a file", 1, true), out)
    end)
  end

  it("a FIFO at a fit's file in a shared weights cache", function()
    local cache = dir .. "/cache"
    local out, status = run_lua(([[
      local experiment, fitted = require "cheskers.experiment", require "cheskers.fitted"
      local e = experiment.normalize({ name = "fit", bots = "engine:nodes=50", games = 2, max_plies = 60,
        trace = false, fitted = { games = 50, nodes = 50, seed = 3 }, variants = { { name = "a" } } }, "fit.lua")
      local path = %q .. "/" .. fitted.key(e, e.variants[1]) .. ".lua"
      assert(require("lfs").mkdir(%q))
      assert(os.execute("mkfifo " .. path))
      print(select(2, pcall(fitted.prepare, e, { cache = %q })))
    ]]):format(cache, cache, cache))
    assert.equal(0, status, out)
    assert.truthy(out:find("^the weights cache: cannot read weights file: " .. cache:gsub("%p", "%%%0")
                           .. "/%x+%.lua is a FIFO %(a named pipe%), not a file"), out)
  end)

  it("engine:weights=/dev/zero is refused by name, not read until memory runs out", function()
    local out, status = run("match 'engine:weights=/dev/zero' builtin-random --games 1")
    assert.equal(1, status, out)
    assert.equal("cheskers match: bot engine:weights=/dev/zero: engine: cannot read weights file: "
                 .. "/dev/zero is a device, not a file\n", out)
  end)

  it("the REPL's weights and load", function()
    local pipe = dir .. "/pipe"
    local out = run(("-c %s"):format(q("weights " .. pipe)))
    assert.truthy(out:find(pipe .. " is a FIFO (a named pipe), not a file", 1, true), out)
    out = run(("-c %s"):format(q("load " .. pipe)))
    assert.truthy(out:find("cannot load: " .. pipe .. " is a FIFO (a named pipe), not a file", 1, true), out)
  end)

  it("a FIFO as an experiment file or a puzzle file on the command line", function()
    local pipe = dir .. "/pipe.lua"
    local out, status = run("experiment " .. q(pipe) .. " --out " .. q(dir .. "/out"))
    assert.equal(1, status, out)
    assert.equal("cheskers experiment: " .. pipe .. " is a FIFO (a named pipe), not a file\n", out)
    out, status = run("check " .. q(pipe))
    assert.equal(1, status, out)
    assert.truthy(out:find(pipe .. " is a FIFO (a named pipe), not a file", 1, true), out)
  end)
end)

-- Every option and argument that names a file or folder refuses "" in
-- one line naming it (before, "" .. "/results.jsonl" wrote into /). The
-- bots named do not exist, so that a program that took the path would
-- stop there rather than write anything.
describe("an empty path", function()
  local CASES = {
    { "match nobot nobot --out ''", "--out" },
    { "match nobot nobot --records ''", "--records" },
    { "tournament nobot nobot --out ''", "--out" },
    { "tournament --report ''", "--report" },
    { "tournament nobot nobot --records ''", "--records" },
    { "tournament nobot nobot --html ''", "--html" },
    { "experiment x.lua --out ''", "--out" },
    { "experiment x.lua --weights-cache ''", "--weights-cache" },
    { "experiment ''", "file" },
    { "tune --out '' --bot nobot", "--out" },
    { "tune --fit ''", "--fit" },
    { "tune --fit x --save ''", "--save" },
    { "report ''", "dir" },
    { "report x --svg ''", "--svg" },
    { "report x --html ''", "--html" },
    { "book ''", "files" },
    { "book x --out ''", "--out" },
    { "check ''", "files" },
    { "check x --tb ''", "--tb" },
    { "mine --games 1 --from nowhere --out ''", "--out" },
    { "mine --games 1 --from nowhere --file ''", "--file" },
    { "mine --games 1 --from nowhere --tb ''", "--tb" },
    { "tb plan --dir ''", "--dir" },
  }
  for _, c in ipairs(CASES) do
    it("cheskers " .. c[1], function()
      local out, status = run(c[1])
      local word = c[1]:match("^(%S+)")
      assert.equal(word == "tb" and 2 or 1, status, out)   -- (every refusal of tb exits 2)
      assert.equal(("cheskers %s: %s must name a file or folder, not ''; see cheskers %s --help\n")
                   :format(word, c[2], word), out)
    end)
  end

  it("the library refuses one too (store.open, store.mkdir, the weights cache)", function()
    local store = require "cheskers.store"
    local ok, err = pcall(store.open, { path = "", kind = "match", key = tostring })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("empty", 1, true), err)
    assert.is_nil((store.mkdir("")))
    assert.has_error(function() store.shard_file("", "tournament", 1, 1) end)
  end)
end)

-- Tracebacks only for bugs of running code; a mistake in a file read is one
-- line "FILE:LINE: message" (docs/reference/security.md, "What reaches the console").
describe("one line for a mistake in a file, a traceback for a bug", function()
  it("a syntax error in an experiment file", function()
    local dir = H.tmpdir()
    local path = H.write_file(dir .. "/bad.lua", "return {\n  games = ,\n}\n")
    local out, status = run("experiment " .. q(path) .. " --out " .. q(dir .. "/out"))
    assert.equal(1, status, out)
    assert.equal("cheskers experiment: " .. path .. ":2: unexpected symbol near ','\n", out)
    H.write_file(path, "local t = nil\nreturn t.x\n")
    out, status = run("experiment " .. q(path) .. " --out " .. q(dir .. "/out"))
    assert.equal(1, status, out)
    assert.equal("cheskers experiment: " .. path .. ":2: attempt to index a nil value (local 't')\n", out)
    H.rmdir(dir)
  end)

  it("cli.is_bug: a message at a frame of its traceback is a bug, a position it reports is not", function()
    local cli = require "cheskers.cli"
    local function caught(f)
      local tb
      local ok, e = xpcall(f, function(m) tb = debug.traceback(m, 2) return m end)
      assert.is_false(ok)
      return e, tb
    end
    assert.is_true(cli.is_bug(caught(function() local t = nil; return t.x end)))
    assert.is_false(cli.is_bug(caught(function() error("exp.lua:3: unexpected symbol near ','", 0) end)))
    assert.is_false(cli.is_bug(caught(function() error({ code = "x" }) end)))
  end)
end)

-- What a file says reaches the terminal escaped (cheskers.escape).
describe("a file's words on the console", function()
  it("the REPL's weights FILE shows the file's rules text escaped", function()
    local dir = H.tmpdir()
    local path = H.write_file(dir .. "/w.lua",
      'return { format = 1, rules = "golomb\\27[2J\\27]0;owned\\7", weights = { tempo = 3 } }')
    local out = run(("-c %s"):format(q("weights " .. path)))
    assert.is_nil(out:find(ESC, 1, true), out)
    assert.truthy(out:find("fitted for the rules golomb\\x1b[2J\\x1b]0;owned\\x07;", 1, true), out)
    H.rmdir(dir)
  end)

  it("an error quoting what was typed or read is escaped on stderr", function()
    local out, status = run("match " .. q("bad\27[31mbot") .. " builtin-random --games 1")
    assert.equal(1, status, out)
    assert.is_nil(out:find(ESC, 1, true), out)
    assert.truthy(out:find("bad\\x1b[31mbot", 1, true), out)
  end)
end)
