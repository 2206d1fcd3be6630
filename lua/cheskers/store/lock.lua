-- cheskers.store.lock - the lock of a results file or run folder (part of
-- cheskers.store, which re-exports it): store.lock(path [, steal]),
-- store.unlock(lock), store.process_alive(pid), store.slurm_job_gone(id),
-- store.owner_id(); see lua/cheskers/store.lua for the rules.
local lfs = require "lfs"
local cheskers = require "cheskers"
local userfiles = require "cheskers.files"
local errorf = cheskers.errorf

local M = {}

-- The first line of a file (cheskers.files: a FIFO planted in a shared
-- folder is refused, not waited on), or nil.
local function read_first_line(path, kind)
  return (userfiles.first_line(path, kind or "lock"))
end

-- "pid@host" of this process (Linux /proc; "?" elsewhere).
function M.owner_id()
  local stat = read_first_line("/proc/self/stat")
  local pid = stat and stat:match("^(%d+)") or "?"
  local host = read_first_line("/proc/sys/kernel/hostname") or os.getenv("HOSTNAME") or "?"
  return pid .. "@" .. host
end
local owner_id = M.owner_id


-- This process's Slurm job and how often it was requeued (or nil).
local function slurm_job()
  local job = os.getenv("SLURM_JOB_ID")
  if not (job and job:match("^%d+$")) then return nil end
  return job, os.getenv("SLURM_RESTART_COUNT") or "0"
end

-- The owner file's text: "pid@host", and the Slurm job when there is one.
local function owner_text(me)
  local job, restart = slurm_job()
  if job then return string.format("%s\nslurm_job=%s\nslurm_restart=%s\n", me, job, restart) end
  return me .. "\n"
end

-- The owner file: "pid@host", the Slurm job id and restart count (or nil).
local function read_owner(lock)
  local text, _, reason = userfiles.head(lock .. "/owner", "lock")
  if not text then return reason == "missing" and "" or nil end   -- "": not written yet; nil: not a file
  return text:match("^([^\n]*)"), text:match("\nslurm_job=(%d+)"), text:match("\nslurm_restart=(%d+)")
end

function M.unlock(lock)
  os.remove(lock .. "/owner")
  os.remove(lock)
end

-- Whether Slurm no longer runs job id: squeue answers and does not list it
-- (unknown to squeue, or not there at all: taken as alive).
function M.slurm_job_gone(id)
  local p = io.popen("squeue -h -o %A -j " .. id .. " 2>&1", "r")
  if not p then return false end
  local out = p:read("a") or ""
  local ok, _, code = p:close()
  if ok or code == 1 then
    return not out:find("%f[%d]" .. id .. "%f[%D]") and (ok or out:find("Invalid job id") ~= nil)
  end
  return false
end

-- Whether process pid of this machine is alive: it exists (/proc/PID)
-- and is not a zombie (state Z or X in /proc/PID/stat: it has ended and
-- only waits for its parent to read its status).
function M.process_alive(pid)
  local stat = read_first_line("/proc/" .. pid .. "/stat")
  if not stat then return false end
  local state = stat:match(".*%) (%a)")   -- after the command name, which may hold ") "
  return state ~= "Z" and state ~= "X"
end

-- A lock folder without its owner's line is being taken: its taker writes
-- the line just after making the folder. Only when the folder is older than
-- this many seconds was its taker killed in between.
M.UNWRITTEN_GRACE = 10

-- Whether the owner of a lock is gone: a dead process of this machine, a
-- Slurm job no longer running or an earlier run of this very job (requeued:
-- another restart count), or no owner written for M.UNWRITTEN_GRACE
-- seconds (before, a run that found the folder between its taker's mkdir
-- and its write took the lock too: two shards fitted one weights file), or
-- an owner that is not a file (a FIFO planted there: never waited on).
local function owner_dead(lock, owner, job, restart, me)
  if not owner then return true end
  if owner == "" then
    local made = lfs.attributes(lock, "modification")
    return made == nil or os.time() - made > M.UNWRITTEN_GRACE
  end
  local pid, host = owner:match("^(%d+)@(.*)$")
  if pid and host == me:match("@(.*)$") then return not M.process_alive(pid) end
  if job == nil then return false end
  local my_job, my_restart = slurm_job()
  if job == my_job then return restart ~= my_restart end
  return M.slurm_job_gone(job)
end

-- Takes the lock folder of a file (mkdir is atomic): two runs never write
-- one file at once. A lock whose owner is gone (see the header), or any
-- lock when steal is true, is taken over. Raises when a live run holds it.
function M.lock(path, steal)
  local lock = path .. ".lock"
  local me = owner_id()
  for _ = 1, 3 do
    if lfs.mkdir(lock) then
      local f = io.open(lock .. "/owner", "w")
      if f then f:write(owner_text(me)) f:close() end
      return lock
    end
    local owner, job, restart = read_owner(lock)
    if not steal and not owner_dead(lock, owner, job, restart, me) then
      cheskers.raise("locked", "%s is in use by another run (%s%s); if no such run is alive, use --steal-lock "
        .. "or remove %s",
             path, owner ~= "" and owner or "?", job and ", Slurm job " .. job or "", lock)
    end
    M.unlock(lock)
  end
  errorf("cannot take the lock %s", lock)
end

return M
