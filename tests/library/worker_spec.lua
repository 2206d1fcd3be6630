-- tests/library/worker_spec.lua - cheskers.worker and the process calls under it
-- (cheskers.fork, fdopen, kill, reap, exit_now in lua/binding/lsys.c): a child's
-- tables arrive in order and then the end, an error of the child is a
-- line, stop ends a child that never would, and the child holds no
-- descriptor of the parent's but its pipe.
local cheskers = require "cheskers"
assert(require("cheskers.server").load_http())
local worker = require "cheskers.worker"
local cqueues = require "cqueues"

-- Runs fn (in a cqueues coroutine, as the server does) and returns its results.
local function in_loop(fn)
  local out
  local cq = cqueues.new()
  cq:wrap(function() out = table.pack(fn()) end)
  assert(cq:loop())
  return table.unpack(out, 1, out.n)
end

-- Every table a job sends, until its end.
local function all(job)
  local got = {}
  while true do
    local t, why = job:next(10)
    if not t then
      assert.equal("end", why)
      return got
    end
    got[#got + 1] = t
  end
end

describe("cheskers.worker", function()
  it("sends the child's tables in order, then ends", function()
    local got = in_loop(function()
      local job = assert(worker.start(function(emit, a, b)
        for i = 1, 3 do emit { type = "n", n = i * a, text = b } end
      end, 10, "x"))
      return all(job)
    end)
    assert.same({ { type = "n", n = 10, text = "x" }, { type = "n", n = 20, text = "x" },
                  { type = "n", n = 30, text = "x" } }, got)
  end)

  it("an error of the child is a line of type error", function()
    local got = in_loop(function()
      return all(assert(worker.start(function(emit)
        emit { type = "first" }
        error("boom", 0)
      end)))
    end)
    assert.equal(2, #got)
    assert.same({ type = "error", message = "boom" }, got[2])
  end)

  it("stop ends a child that would never end, and reaps it", function()
    local job, first, status = in_loop(function()
      local j = assert(worker.start(function(emit)
        emit { type = "started" }
        while true do end
      end))
      local t = j:next(10)
      j:stop()
      return j, t, j.status
    end)
    assert.same({ type = "started" }, first)
    assert.equal(128 + 9, status)          -- SIGKILL
    assert.is_nil(cheskers.reap(job.pid))  -- nothing left to reap
  end)

  it("the child holds only the standard descriptors and its pipe", function()
    local keep = io.open("/dev/null", "r")  -- a descriptor of the parent's
    local got = in_loop(function()
      return all(assert(worker.start(function(emit)
        local fds = {}
        for name in require("lfs").dir("/proc/self/fd") do
          if name:match("^%d+$") then fds[#fds + 1] = tonumber(name) end
        end
        emit { type = "fds", fds = fds }
      end)))
    end)
    keep:close()
    -- 0, 1, 2, the pipe and the folder being read: at most 5
    assert.truthy(#got[1].fds <= 5, table.concat(got[1].fds, " "))
  end)
end)
