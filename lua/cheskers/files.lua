-- cheskers.files - the one owner that opens the files a user names: weights
-- files and the fitted-weights cache, experiment, rules, puzzle, record,
-- openings and bot files, results files, the REPL's `load` and `weights`.
-- Every one is read by cheskers.read_file (lua/binding/lsys.c): opened without
-- blocking and looked at before anything is read, so a folder, a FIFO, a
-- device or a socket is refused by name at once (a FIFO in a shared cache
-- never hangs the program), and a file larger than the cap of its kind is
-- refused before it is read (engine:weights=/dev/zero is a device; a huge
-- file fails in one line instead of filling the memory). docs/reference/security.md
-- ("Files and paths") lists the kinds and their caps.
--
--   files.CAPS[kind] -> the most bytes a file of kind may hold
--   files.read(path, kind) -> text | nil, message, reason
--       ("/dev/null" reads as the empty file, as in every Unix tool)
--       reason: "missing" (nothing at path), "folder", "fifo", "device",
--       "socket", "large", "path" (an empty path) or "error"
--   files.head(path, kind) -> the first bytes of the file, the kind's cap
--       at most, whatever its size | nil, message, reason
--   files.first_line(path, kind) -> the first line of files.head (without
--       its newline) | nil, message, reason
--   files.load_lua(path, kind [, env]) -> function | nil, message [, reason]
--       a trusted Lua file (an experiment, a rules file, a start-up file)
--       read by files.read and compiled as text ("@path" names it; Lua cuts
--       long names in messages: cheskers.luadata.readable writes them in
--       full); binary chunks are refused. reason: files.read's when the
--       file could not be read, "binary", none for a syntax error
--   files.check_path(path [, what]) -> path | nil, message
--       a path a user gave: a string, not empty (an empty path is never
--       taken as the root folder), without a NUL byte
--   files.check_output(path [, what]) -> path | nil, message, reason, what
--       a path a file is to be written to: files.check_path's, and what
--       stands there already, if anything, a regular file (or a link to
--       one). A folder, FIFO, device or socket is refused by name, as
--       files.read refuses it, without opening it: a whole file is written
--       to a temporary and renamed over its name, which would replace
--       /dev/null (as root) or a FIFO with a file, and a stream opened on a
--       FIFO waits for a reader for ever. reason: as files.read's; what:
--       what stands there ("a FIFO (a named pipe), not a file")
--   files.exists(path) -> whether anything is at path (looked at, never
--       opened: a FIFO does not block)
--   files.dirname(path) -> the folder of path ("." for a bare name, "/"
--       for a name in the root)
--   files.join(dir, name) -> dir/name (raises on an empty dir: a caller
--       checks user paths first)
-- Untrusted Lua files (bots, puzzles, experiments under --sandbox) are read
-- here too and loaded only in cheskers.sandbox. The core's tablebase files
-- are opened by the core itself (core/tb.c: by names it makes, also with
-- O_NONBLOCK, regular files only); a script run as `cheskers FILE` by Lua's
-- loadfile (it may be a pipe: cheskers <(...)).
local cheskers = require "cheskers.core"   -- (read_file: lua/binding/lsys.c)

local M = {}

local KB, MB = 1024, 1024 * 1024

M.CAPS = {
  weights = 1 * MB,        -- a weights file (engine:weights=, the REPL's weights, tune --save)
  cache = 1 * MB,          -- a file of the fitted-weights cache
  experiment = 4 * MB,     -- an experiment file
  rules = 1 * MB,          -- a rules file (FILE.lua as a rule spec)
  puzzle = 256 * KB,       -- a puzzle file (cheskers.puzzle.MAX_SOURCE)
  record = 4 * MB,         -- a game record (the REPL's load)
  openings = 16 * MB,      -- an openings file
  bot = 1 * MB,            -- a bot file (the box's source limit is lower or equal)
  results = 1024 * MB,     -- a results file (JSON lines)
  lock = 4 * KB,           -- the owner file of a lock (its first line)
  header = 1 * MB,         -- the first line of a results file (files.first_line)
  script = 16 * MB,        -- a Lua script or start-up file
}

function M.check_path(path, what)
  what = what or "path"
  if type(path) ~= "string" then return nil, what .. " must be text" end
  if path == "" then return nil, what .. " is empty (name a file or folder)" end
  if path:find("\0", 1, true) then return nil, what .. " holds a NUL byte" end
  return path
end

-- cheskers.read_file(path, the cap of kind, head), the path checked.
local function read(path, kind, head)
  local cap = M.CAPS[kind]
  if not cap then error("cheskers.files: unknown kind of file " .. tostring(kind), 3) end
  local ok, err = M.check_path(path, "the " .. kind .. " file's name")
  if not ok then return nil, err, "path" end
  if path == "/dev/null" then return "" end   -- the empty file, as everywhere (CHESKERS_RC=/dev/null: no start-up file)
  return cheskers.read_file(path, cap, head)
end

function M.read(path, kind) return read(path, kind, false) end

function M.head(path, kind) return read(path, kind, true) end

function M.first_line(path, kind)
  local text, err, reason = read(path, kind, true)
  if not text then return nil, err, reason end
  return (text:match("^[^\n]*"))
end

function M.load_lua(path, kind, env)
  local text, err, reason = M.read(path, kind)
  if not text then return nil, err, reason end
  if text:byte(1) == 27 then return nil, path .. " is a binary chunk; only Lua text is read", "binary" end
  local chunk, lerr
  if env == nil then chunk, lerr = load(text, "@" .. path, "t") else chunk, lerr = load(text, "@" .. path, "t", env) end
  if not chunk then return nil, lerr end
  return chunk
end

local KINDS = {
  directory = { "a folder", "folder" }, ["named pipe"] = { "a FIFO (a named pipe)", "fifo" },
  socket = { "a socket", "socket" }, ["char device"] = { "a device", "device" },
  ["block device"] = { "a device", "device" }, other = { "a device", "device" },
}

function M.check_output(path, what)
  local ok, err = M.check_path(path, what)
  if not ok then return nil, err, "path" end
  local kind = KINDS[require("lfs").attributes(path, "mode")]   -- (follows a link: a link to a device is one)
  if kind then
    local it = kind[1] .. ", not a file"
    return nil, path .. " is " .. it, kind[2], it
  end
  return path
end

function M.exists(path)
  return require("lfs").attributes(path, "mode") ~= nil
end

function M.dirname(path)
  local dir = path:match("^(.*)/[^/]*$")
  if dir == nil then return "." end
  if dir == "" then return "/" end
  return dir
end

function M.join(dir, name)
  if dir == "" then error("files.join: an empty folder name", 2) end
  if dir:sub(-1) == "/" then return dir .. name end
  return dir .. "/" .. name
end

return M
