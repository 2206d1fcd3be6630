-- cheskers.worker: long work (a search, a bot's move, a puzzle check) in a
-- process of its own, for cheskers serve: the C core blocks the thread that
-- calls it, so a search run in the server itself would stop every page.
--
--   worker.start(fn, ...) -> job | nil, message
--       fork()s a child that runs fn(emit, ...) and ends; emit(t) sends the
--       table t to the parent as one line of JSON. An error of fn is sent
--       as {type = "error", message = ...}. The child holds no descriptor
--       of the parent's but its end of the pipe (cheskers.fork's keep).
--   job:next(timeout) -> t | nil, "end" | nil, "timeout"
--       the next table the child sent (inside a cqueues coroutine: waits
--       without blocking the others); "end" once the child has finished
--   job:stop()          ends the child (SIGKILL) and reaps it; idempotent
--   job.pid
--
-- The pipe is a cqueues socket pair (AF_UNIX): the parent polls its end,
-- the child writes its end as a plain Lua file (cheskers.fdopen).

local cheskers = require "cheskers"
local json = require "cheskers.webapi"   -- encode, decode

local worker = {}

local Job = {}
Job.__index = Job

-- The child's side: runs fn, sends what it emits, and ends without
-- returning to the parent's code (cheskers.exit_now).
local function child(fd, fn, ...)
  local status = 0
  local ok, err = pcall(function(...)
    local out = assert(cheskers.fdopen(fd))
    local function emit(t)
      -- a write to a closed pipe ends the process (SIGPIPE): the parent
      -- stopped listening
      out:write(json.encode(t), "\n")
      out:flush()
    end
    local ok2, e = pcall(fn, emit, ...)
    if not ok2 then
      status = 1
      emit { type = "error", message = tostring(e) }
    end
    out:close()
  end, ...)
  if not ok then
    status = 2
    io.stderr:write("cheskers worker: ", tostring(err), "\n")
  end
  cheskers.exit_now(status)
end

function worker.start(fn, ...)
  local socket = require "cqueues.socket"
  local mine, theirs = socket.pair()
  if not mine then return nil, "worker: cannot make a pipe: " .. tostring(theirs) end
  local pid, err = cheskers.fork(theirs:pollfd())
  if not pid then
    mine:close(); theirs:close()
    return nil, "worker: " .. tostring(err)
  end
  if pid == 0 then child(theirs:pollfd(), fn, ...) end
  theirs:close()
  mine:setmode("t", "t")
  return setmetatable({ pid = pid, sock = mine }, Job)
end

function Job:next(timeout)
  if not self.sock then return nil, "end" end
  local line, err = self.sock:xread("*l", timeout)
  if line then
    local t = json.decode(line)
    if type(t) == "table" then return t end
    return { type = "error", message = "worker: a line that is not JSON" }
  end
  if err == require("cqueues.errno").ETIMEDOUT then
    self.sock:clearerr()
    return nil, "timeout"
  end
  self:stop()
  return nil, "end"
end

function Job:stop()
  if self.sock then
    self.sock:close()
    self.sock = nil
  end
  if self.pid and not self.status then
    cheskers.kill(self.pid)
    self.status = cheskers.reap(self.pid, true)
  end
end

return worker
