-- cheskers.store.file - folders and whole files written durably (part of
-- cheskers.store, which re-exports it): store.mkdir(path),
-- store.write_file(path, text [, opts]); see lua/cheskers/store.lua.
local lfs = require "lfs"
local cheskers = require "cheskers"
local userfiles = require "cheskers.files"
local lock = require "cheskers.store.lock"
local errorf = cheskers.errorf

local M = {}


function M.mkdir(path)
  local _, perr = userfiles.check_path(path, "the folder's name")
  if perr then return nil, perr end
  if lfs.attributes(path, "mode") == "directory" then return true end
  local parent = userfiles.dirname((path:gsub("/+$", "")))
  if parent ~= "." and parent ~= "/" then
    local ok, err = M.mkdir(parent)
    if not ok then return nil, err end
  end
  local ok, err = lfs.mkdir(path)
  if not ok and lfs.attributes(path, "mode") ~= "directory" then
    return nil, "cannot create folder " .. path .. ": " .. tostring(err)
  end
  return true
end
local parent = userfiles.dirname   -- ("." for a bare name, "/" in the root)
local owner_id = lock.owner_id

-- The temporary files of write_file are named PATH.tmp.PID@HOST.N: the
-- writer's "pid@host" says whose they are. One left behind by a writer that
-- was killed (kill -9 between creating it and the rename) is removed by the
-- next write_file of this machine into the same folder (once a folder per
-- process): only when its writer ran here and is dead, so that a write in
-- progress, here or on another machine sharing the folder, is never touched.
local swept = {}
local function sweep_dead_temps(dir)
  if swept[dir] then return end
  swept[dir] = true
  local me = owner_id()
  local host = me:match("@(.*)$")
  local ok, iter, state = pcall(lfs.dir, dir)
  if not ok then return end
  for name in iter, state do
    local pid, h = name:match("%.tmp%.(%d+)@(.+)%.%d+$")
    if pid and h == host and pid .. "@" .. h ~= me and not lock.process_alive(pid) then
      os.remove(dir .. "/" .. name)
    end
  end
end

-- A new temporary file beside path, PATH.tmp.PID@HOST.N, created
-- exclusively (cheskers.create_file): nothing planted at such a name, a
-- link included, is ever written through; a taken name is passed over.
-- Returns the file and its name, or nil and why (the temporary's name left
-- out). (No math.random: bots' draws must not depend on what the store
-- writes.)
local temp_count = 0
local function create_temp(path)
  local EEXIST = 17
  sweep_dead_temps(parent(path))
  local me = owner_id()
  for _ = 1, 100 do
    temp_count = temp_count + 1
    local tmp = string.format("%s.tmp.%s.%d", path, me, temp_count)
    local f, err, code = cheskers.create_file(tmp)
    if f then return f, tmp end
    if code ~= EEXIST then return nil, err:sub(1, #tmp + 2) == tmp .. ": " and err:sub(#tmp + 3) or err end
  end
  return nil, "no free temporary name beside it"
end

function M.write_file(path, text, opts)
  local okp, perr, _, it = userfiles.check_output(path)
  if not okp then errorf("cannot write %s: %s", path, it or perr) end
  if not (opts and opts.mkdir == false) then
    local ok, derr = M.mkdir(parent(path))
    if not ok then error(derr, 0) end
  end
  local f, tmp = create_temp(path)
  if not f then errorf("cannot write %s: %s", path, tmp) end   -- (tmp: why, without the temporary's name)
  local function failed(err)
    os.remove(tmp)
    err = tostring(err)
    if err:sub(1, #tmp + 2) == tmp .. ": " then err = err:sub(#tmp + 3) end   -- name PATH, not its temporary
    errorf("cannot write %s: %s", path, err)
  end
  local wrote, werr = f:write(text)
  local synced, serr = cheskers.fsync(f)
  local closed, cerr = f:close()
  if not (wrote and synced and closed) then failed(werr or serr or cerr) end
  local renamed, rerr = os.rename(tmp, path)
  if not renamed then failed(rerr) end
end

-- Reads a results file: the header (nil when there is none), the complete
-- results in file order, whether its last line was cut short, the number
-- of unreadable lines, and where they are: {lines = the line number of
-- each result, unreadable = the numbers of the unreadable lines, torn =

return M
