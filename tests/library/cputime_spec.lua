-- tests/library/cputime_spec.lua - the time limits of bots are CPU seconds, with a
-- wall-clock backstop (docs/guide/bots.md, docs/reference/security.md): a bot that waits
-- does not lose on its CPU limit but is stopped by the backstop; a bot that
-- burns CPU loses at about its limit; beside a CPU hog on its core a bot
-- within its CPU budget does not lose; long core calls stop on the CPU
-- deadline (cheskers.deadline) too. Waiting is a child process (sleep):
-- wall time without the process's CPU time.
local cheskers = require "cheskers"
local sandbox = require "cheskers.sandbox"
local bots = require "cheskers.bots"
local game = require "cheskers.game"
local H = require "helpers"

-- Time bounds are multiplied by CHESKERS_TIME_SCALE (sanitizer runs).
local SCALE = tonumber(os.getenv("CHESKERS_TIME_SCALE") or "") or 1

local wall = cheskers.clock

local function tmpfile(text) return H.write_file(H.tmpname(".lua"), text) end

-- Lua that waits about `seconds` in steps of 0.05 s (a child sleeps), with
-- a little Lua between the steps so that the box's hook runs meanwhile.
local function waiting(seconds)
  return ("for _ = 1, %d do os.execute('sleep 0.05'); for _ = 1, 300 do end end"):format(math.ceil(seconds / 0.05))
end

-- A trusted box's call of the code text under seconds of CPU: wall time
-- taken, box:call's results.
local function call(code, seconds, opts)
  local box = sandbox.new(opts or { name = "t", trusted = true })
  local fn = assert(box:load(code))
  local t0 = wall()
  local r = table.pack(box:call(seconds, fn))
  return wall() - t0, r
end

-- Runs f with sandbox.BACKSTOP_MIN set to min: short backstops make fast
-- tests; long ones keep tests of the CPU limit from ending on the wall clock
-- on a busy machine (the bot may get a small share of a core).
local function with_backstop_min(min, f)
  local saved = sandbox.BACKSTOP_MIN
  sandbox.BACKSTOP_MIN = min
  local ok, err = pcall(f)
  sandbox.BACKSTOP_MIN = saved
  if not ok then error(err, 0) end
end

local BACKSTOP = "^wall%-clock backstop: (%d+%.%d%d) s of wall time %(limit (%S+) s; "
                 .. "(%d+%.%d%d) s of CPU time used, limit (%S+) s%)$"

describe("a box's time limit is CPU time", function()
  it("a bot that waits longer than its CPU limit does not lose", function()
    local elapsed, r = call(waiting(0.6) .. " return 'done'", 0.2)
    assert.are.same({ true, "done", n = 2 }, r)
    assert.is_true(elapsed > 0.5, "waited " .. elapsed .. " s")
  end)

  it("a bot that waits for ever is stopped by the wall-clock backstop, and told so", function()
    with_backstop_min(0.5, function()
      local elapsed, r = call("while true do " .. waiting(0.05) .. " end", 0.1)
      assert.are.same({ false, "time" }, { r[1], r[2] })
      local spent, limit, cpu, cpu_limit = r[3]:match(BACKSTOP)
      assert.is_truthy(spent, r[3])
      assert.are.same({ "0.5", "0.1" }, { limit, cpu_limit })
      assert.is_true(tonumber(spent) >= 0.5 and tonumber(cpu) < 0.1, r[3])
      assert.is_true(elapsed >= 0.5 and elapsed < 0.5 + 1.5 * SCALE, "took " .. elapsed .. " s")
    end)
  end)

  it("a wait inside one C call (out of the hook's reach) is caught by the backstop when it returns", function()
    with_backstop_min(0.3, function()
      local elapsed, r = call("os.execute('sleep 0.6') return 'late'", 0.1)
      assert.are.same({ false, "time" }, { r[1], r[2] })
      local spent = r[3]:match(BACKSTOP)
      assert.is_true(spent and tonumber(spent) >= 0.6, r[3])
      assert.is_true(elapsed >= 0.6)
    end)
  end)

  for _, trusted in ipairs({ true, false }) do
    it("a bot that burns CPU loses at about its limit (" .. (trusted and "trusted" or "sandboxed") .. ")", function()
      with_backstop_min(60, function()
        local _, r = call("while true do end", 0.3, { name = "burner", trusted = trusted })
        assert.are.same({ false, "time" }, { r[1], r[2] })
        local used = tonumber(r[3]:match("^used (%d+%.%d%d) s of CPU time %(limit 0%.3 s%)$"))
        assert.is_true(used and used >= 0.3 and used < 0.3 + 0.05 * SCALE, r[3])
      end)
    end)
  end

  it("a limit of any length is taken (past three years, as three years)", function()
    assert.are.same({ true, 7, n = 2 }, select(2, call("return 7", 1e12)))
  end)

  it("a core call in a box stops at its CPU deadline, a little before the call's limit", function()
    with_backstop_min(60, function()
      local _, r = call("local b = cheskers.new() return b:perft(30)", 0.3, { name = "perft" })
      assert.are.same({ false, "time" }, { r[1], r[2] })
      local used = tonumber(r[3]:match("^used (%d+%.%d%d) s of CPU time "
                                       .. "%(limit 0%.3 s; a core call stopped at 0%.27 s%)$"))
      assert.is_true(used and used >= 0.26 and used < 0.3 + 0.05 * SCALE, r[3])
    end)
  end)
end)

describe("a game's move timeout is CPU time", function()
  it("a bot that waits longer than the timeout plays its move", function()
    local bot = bots.load(tmpfile("return { name = 'waiter', choose = function(b) "
                                  .. waiting(0.4) .. " return b:moves()[1] end }"))
    local t0 = wall()
    local m, moves = game.choose(bot, cheskers.new(), {}, 0.2)
    assert.is_true(wall() - t0 > 0.3)
    assert.are.equal("userdata", type(m), tostring(moves))
  end)

  it("a bot that burns CPU loses by time, the detail saying how much it used", function()
    local bot = bots.load(tmpfile("return { name = 'burner', choose = function() while true do end end }"))
    with_backstop_min(60, function()
      local m, reason, detail = game.choose(bot, cheskers.new(), {}, 0.2)
      assert.is_nil(m)
      assert.are.equal("time", reason)
      assert.matches("^used 0%.2%d s of CPU time %(limit 0%.2 s%)$", detail)
    end)
  end)

  it("beside a CPU hog on the same core, a bot within its CPU budget does not lose", function()
    if not os.execute("command -v taskset >/dev/null 2>&1") then
      pending("taskset is not installed")
      return
    end
    -- the bot uses 0.4 s of CPU against a limit of 0.6 s: sharing its core
    -- with the hog it takes more than 0.6 s of wall time (the backstop is
    -- set far off: the machine may be busy besides)
    local script = tmpfile([[
      local sandbox = require "cheskers.sandbox"
      sandbox.BACKSTOP_MIN = 60
      local box = sandbox.new { name = "worker", trusted = true }
      local t0 = require("cheskers").clock()
      local ok, reason, detail = box:call(0.6, function()
        local c0 = os.clock()
        while os.clock() - c0 < 0.4 do end
      end)
      print(ok, reason, detail, require("cheskers").clock() - t0)]])
    local p = assert(io.popen("taskset -c 0 sh -c 'while :; do :; done' >/dev/null 2>&1 & echo $!"))
    local hog = p:read("l")
    p:close()
    local out = assert(io.popen(("taskset -c 0 %s/cheskers %s 2>&1"):format(H.ROOT, script))):read("a")
    os.execute("kill " .. hog)
    local ok, elapsed = out:match("^(%a+)\t.-\t([%d.]+)\n$")
    assert.are.equal("true", ok, out)
    assert.is_true(tonumber(elapsed) > 0.6, "the hog did not compete: " .. out)
  end)
end)

describe("cheskers.deadline's CPU deadline", function()
  after_each(function() cheskers.deadline() end)

  it("stops a long core call after that much CPU time", function()
    cheskers.deadline(nil, 0.2)
    local c0 = os.clock()
    local ok, err = pcall(cheskers.new().perft, cheskers.new(), 30)
    local used = os.clock() - c0
    assert.is_false(ok)
    assert.are.equal("timeout", cheskers.error_code(err))
    assert.is_true(used >= 0.2 and used < 0.2 + 0.3 * SCALE, used .. " s of CPU")
  end)

  it("does not pass while the process waits; a wall-clock deadline does", function()
    local b = cheskers.new()
    cheskers.deadline(nil, 0.1)
    os.execute("sleep 0.3")
    assert.are.equal(652, b:perft(3))      -- docs/reference/rules.md: 652 sequences of 3 plies
    cheskers.deadline(0.1)
    os.execute("sleep 0.3")
    local ok, err = pcall(b.perft, b, 3)
    assert.is_false(ok)
    assert.are.equal("timeout", cheskers.error_code(err))
  end)

  it("returns the seconds left of both previous deadlines", function()
    assert.are.same({ nil, nil }, { cheskers.deadline(5, 3) })
    local w, c = cheskers.deadline()
    assert.is_true(w > 4 and w <= 5 and c > 2.5 and c <= 3, w .. ", " .. c)
    assert.are.same({ nil, nil }, { cheskers.deadline() })
    assert.has_error(function() cheskers.deadline(1, -1) end)
    assert.are.same({ nil, nil }, { cheskers.deadline() })   -- a bad argument sets neither
  end)
end)
