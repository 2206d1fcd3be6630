-- cheskers.store - results on disk, for matches, tournaments and
-- experiments: a JSON-lines file with a header line holding the
-- fingerprint of what produced the results, one line appended per finished
-- game (flushed and fsync'd: cheskers.fsync), a lock so that two
-- runs never write one file at once, and resume that keeps every complete
-- game and drops only a line cut short by a kill. An optional game-records
-- file is kept in step: records are rendered from the stored results, so
-- that a resumed run never doubles nor loses one.
--
--   store.open(o) -> s           takes the lock; raises with a message
--     o.path        the results file (its folder is created)
--     o.kind        "match", "experiment", ... (in the header)
--     o.fingerprint plain data: what must be equal for stored games to count
--     o.restart     true: throw away what is there (else it is kept, after
--                   checking the fingerprint)
--     o.key         function(rec) -> text: the identity of a game
--     o.records     game records file, or nil; o.render(rec) -> its text
--     o.order       keys first in each result line (see encode)
--     o.fields      name -> cheskers.schema spec: what the kept lines' fields
--                   must be when present (a forged value raises
--                   "PATH, line N: ...", store.expect)
--     o.restart_hint how the user starts over (default "use --restart to
--                   start over"), in the message refusing other inputs
--     o.lock        a lock of o.path already held (from store.lock), kept
--     o.steal_lock  take the lock even from a run that looks alive
--     o.sync_every  seconds between fsyncs of appended lines (default 0:
--                   every line; lines are always flushed, so a killed run
--                   loses nothing; a crash of the machine loses at most
--                   that many seconds of lines)
--     o.plan        data kept in the header and not checked (what the run
--                   means to play, for reports of missing games)
--   s.header, s.results (complete results read back, in file order)
--   s:has(key) -> boolean
--   s:append(rec)                 one line, then the record; both synced
--   s:close()                     releases the lock
--   store.read(path) -> header, results, torn (a last line cut short), bad,
--                       {lines, unreadable, torn, header}: the line numbers of each
--   store.refuse(path, line, what)   raises "PATH, line N: what" ("PATH: what"
--                                 without a line), one line: the one refusal of
--                                 a forged value in a results file (a header's
--                                 or a game line's), never a traceback
--   store.refuse_error(path, line, what, err)   the same for an error met
--                                 reading a line (a move not legal): "PATH,
--                                 line N: what: err", err without its Lua
--                                 position (an interruption raised as it is)
--   store.expect(path, line, value, spec, name) -> value   value checked against
--                                 spec (cheskers.schema; nil passes), else
--                                 store.refuse with the schema's message
--   store.encode(value [, first]) -> text   JSON on one line: the keys named in
--                                 first (default KEY_ORDER), then the others sorted;
--                                 control characters escaped (\n, \u001b), bytes
--                                 that are not UTF-8 as U+FFFD (cheskers.escape.utf8:
--                                 a name a bot chose may hold any bytes)
--   store.decode(text) -> value | nil   (integers read back as integers)
--   store.mkdir(path) -> true | nil, message      (with its parents)
--   store.diff(a, b) -> { "field: X there, Y here", ... }
--   store.lock(path [, steal]) -> lock; store.unlock(lock)
--       The lock's owner file says "pid@host" and, under Slurm, the job
--       ("slurm_job=ID", "slurm_restart=N"). A lock is taken over when its
--       owner is a dead process of this machine, a Slurm job that squeue no
--       longer lists (a task resubmitted on another node), an earlier run of
--       this job (requeued: another restart count), or when steal is true
--       (--steal-lock: the user says the other run is gone).
--   store.process_alive(pid) -> whether it runs here (a zombie does not)
--   store.plain(v) -> data        functions as digests of their source
--   store.digest(text) -> 16 hex digits (FNV-1a)
--   store.engine_signature() -> 16 hex digits: the digest of fixed searches;
--                                 every header carries it (engine); a run that
--                                 would add games to a file of another engine is
--                                 refused like one of other inputs (a file without
--                                 it is accepted); reading a folder is not
--   store.two_engines(files) -> nil | message   the one rule of every reader of
--                                 a folder (report, tournament --report, tune
--                                 --fit) for games of two engines: files
--                                 ({path, header}, as store.folder gives them)
--                                 whose headers name two signatures are refused,
--                                 the message naming one file of each (a file
--                                 without a signature is taken as of either)
--   store.check_header(path, header, o)  raises when header is not of o.kind,
--                                 o.fingerprint (and o.engine, when given)
--
-- Run folders (tournaments and experiments): one folder holds the files of
-- the shards of a run, each shard appending to its own file; a shard's run
-- skips the games of every file of its run in the folder.
--   store.parse_shard(text) -> i, n       "2/4" (raises on anything else)
--   store.shard_file(dir, prefix, i, n) -> "DIR/PREFIX.shard<I>of<N>.jsonl"
--   store.is_shard_file(path, prefix) -> whether path is named so (any I, N)
--   store.folder(dir [, ours]) -> files   the .jsonl files of dir that
--                                 ours(file) accepts (default: all), sorted by
--                                 path, each {path, header, header_line, results, torn, bad,
--                                 lines, unreadable, torn_line} (store.read)
--   store.kinds(dir) -> {kind = files}  the kinds of the headers of dir's
--                                 .jsonl files (their first lines alone)
--
-- Reading a folder: what does not belong is said by file and line.
--   store.notes() -> notes        notes:add(path, line, what) (line nil: the
--                                 whole file); notes:list() -> texts
--                                 "PATH:LINE: what", the lines of one `what`
--                                 of one file together
--   store.note_unreadable(notes, file)  a folder file's unreadable lines and
--                                 line cut short
--   store.open_shard(o) -> s      store.open of one shard's file o.path in the
--                                 folder o.dir: first takes the lock, then
--                                 every other file of the run (o.ours(file),
--                                 default: its header's kind is o.kind) is
--                                 checked against o.fingerprint, or removed
--                                 with o.restart; s:has(key) and s.done then
--                                 cover the games of all of them
--
-- Other files:
--   store.write_file(path, text [, {mkdir = false}])  a whole file (a report,
--                                 a page, puzzles, a saved game), durably:
--                                 its folder created (unless mkdir = false: the
--                                 REPL's save refuses a missing folder), the text
--                                 written to a new temporary file beside it
--                                 (created exclusively: never through a planted
--                                 link), fsync'd,
--                                 renamed over PATH (a kill leaves the old file
--                                 or the new one); raises "cannot write PATH: ..."
--   store.records_file(path, render) -> w   game records written as games end
--                                 when nothing is stored (no resume):
--                                 w:append(rec) writes render(rec), fsync'd;
--                                 w.results; w:close()
local lfs = require "lfs"

local M = {}

M.VERSION = 1

local cheskers = require "cheskers"
local userfiles = require "cheskers.files"
local escape = require "cheskers.escape"
local luadata = require "cheskers.luadata"

local errorf = require("cheskers").errorf

-- The parts, one concern each (lua/cheskers/store/), re-exported: this
-- module stays the one API of results on disk.
for _, part in ipairs { require "cheskers.store.json", require "cheskers.store.file", require "cheskers.store.lock",
                        (require "cheskers.store.fingerprint") } do
  for k, v in pairs(part) do M[k] = v end
end

-- Flushes f to the file and to the disk.
local function sync(f)
  local ok, err = cheskers.fsync(f)
  if not ok then errorf("cannot write to the disk: %s", tostring(err)) end
end

local parent = userfiles.dirname   -- ("." for a bare name, "/" in the root)

-- The first line of a file (cheskers.files: a FIFO planted in a shared
-- folder is refused, not waited on), or nil.
local function read_first_line(path, kind)
  return (userfiles.first_line(path, kind or "lock"))
end

function M.read(path)
  local data, err, reason = userfiles.read(path, "results")
  if not data and reason == "missing" then return nil, {}, false, 0, { lines = {}, unreadable = {} } end
  if not data then errorf("%s", err) end
  local header, results, bad = nil, {}, 0
  local at = { lines = {}, unreadable = {} }
  local torn = #data > 0 and data:sub(-1) ~= "\n"
  local n = 0
  for line in data:gmatch("([^\n]*)\n") do
    n = n + 1
    local v = line ~= "" and M.decode(line)
    if not v then
      if line ~= "" then bad = bad + 1; at.unreadable[#at.unreadable + 1] = n end
    elseif v.header then
      if not header then header, at.header = v, n end
    else results[#results + 1] = v; at.lines[#results] = n end
  end
  if torn then at.torn = n + 1 end
  return header, results, torn, bad, at
end

function M.refuse(path, line, what)
  what = tostring(what):gsub("\n", " ")
  if line then errorf("%s, line %d: %s", path, line, what) end
  errorf("%s: %s", path, what)
end

function M.refuse_error(path, line, what, err)
  if cheskers.error_code(err) == "interrupted" then error(err, 0) end   -- Ctrl-C stays Ctrl-C
  M.refuse(path, line, what .. ": " .. tostring(err):gsub("^[^\n]-%.lua:%d+: ", ""))
end

function M.expect(path, line, value, spec, name)
  if value == nil then return nil end
  local v, err = require("cheskers.schema").read(value, spec, name)
  if err then M.refuse(path, line, err) end
  return v
end

-- ---- what does not belong ---------------------------------------------------------

-- What a reader of a folder found that does not belong, said by file and
-- line: notes:add(path, line, what) (line nil: the whole file); the same
-- `what` of one file is said once, with its lines. notes:list() -> texts
-- "PATH:LINE: what", "PATH:L1, L2, L3 and N more lines: what", "PATH: what",
-- in the order first added.
local Notes = {}
Notes.__index = Notes

function M.notes() return setmetatable({ order = {}, by = {} }, Notes) end

function Notes:add(path, line, what)
  local k = path .. "\0" .. what
  local n = self.by[k]
  if not n then
    n = { path = path, what = what, lines = {} }
    self.by[k] = n
    self.order[#self.order + 1] = n
  end
  if line then n.lines[#n.lines + 1] = line end
end

function Notes:list()
  local out = {}
  for _, n in ipairs(self.order) do
    local shown = {}
    for i = 1, math.min(#n.lines, 3) do shown[i] = tostring(n.lines[i]) end
    local where = table.concat(shown, ", ")
    if #n.lines > 3 then where = ("%s and %d more lines"):format(where, #n.lines - 3) end
    out[#out + 1] = #n.lines > 0 and ("%s:%s: %s"):format(n.path, where, n.what)
                    or ("%s: %s"):format(n.path, n.what)
  end
  return out
end

-- The notes of a file's unreadable lines and line cut short (file: a
-- store.folder entry), each "not counted".
function M.note_unreadable(notes, file)
  for _, line in ipairs(file.unreadable or {}) do notes:add(file.path, line, "unreadable line: not counted") end
  if file.torn then
    notes:add(file.path, file.torn_line, "last line cut short (a run killed or still writing): not counted")
  end
end

-- ---- the store ---------------------------------------------------------------------

local Store = {}
Store.__index = Store

local function header_of(o)
  return { header = "cheskers results", v = M.VERSION, kind = o.kind, fingerprint = o.fingerprint,
           engine = M.engine_signature(), plan = o.plan }
end

-- Checks a stored header against this run's: raises naming what differs.
function M.check_header(path, header, o)
  if not header then
    errorf("%s has no header line (not a results file of this version); %s", path,
           o.restart_hint or "use --restart to start over")
  end
  local d = M.diff(header.fingerprint, M.decode(M.encode(o.fingerprint)))
  if header.kind ~= o.kind then
    table.insert(d, 1, "kind: " .. tostring(header.kind) .. " there, " .. o.kind .. " here")
  end
  if #d > 0 then
    errorf("%s holds results of other inputs:\n  %s\n(%s)", path, table.concat(d, "\n  "),
           o.restart_hint or "use --restart to start over")
  end
  -- o.engine: the signature the file must have (a file of an older program
  -- has none: its games are kept)
  if o.engine ~= nil and header.engine ~= nil and header.engine ~= o.engine then
    errorf("%s holds results of another engine: its signature is %s there, %s here (the search, "
           .. "evaluation or move generation changed since; games of two engines would mix)\n(%s)",
           path, escape.console(tostring(header.engine)), escape.console(tostring(o.engine)),
           o.restart_hint or "use --restart to start over")
  end
end

-- The lines of the file: the header and the kept results.
local function file_text(header, results, order)
  local lines = { M.encode(header) }
  for _, r in ipairs(results) do lines[#lines + 1] = M.encode(r, order) end
  return table.concat(lines, "\n") .. "\n"
end

-- The records of the kept results; a stored game that cannot be rendered
-- (a forged move) is refused by its line (where: result -> line number).
local function records_text(o, results, where)
  local parts = {}
  for _, r in ipairs(results) do
    local ok, text = pcall(o.render, r)
    if not ok then M.refuse_error(o.path, where and where[r], "game " .. tostring(r.game), text) end
    parts[#parts + 1] = text
  end
  return table.concat(parts)
end

-- What is kept of an existing file (nothing on restart); the file is
-- rewritten when a line was cut short or unreadable.
local function load_existing(self, o)
  local header, results, torn, bad, at = M.read(o.path)
  if o.restart or (not header and #results == 0 and bad == 0) then return {}, true end
  M.check_header(o.path, header, setmetatable({ engine = M.engine_signature() }, { __index = o }))
  local kept, seen = {}, {}
  for i, r in ipairs(results) do
    if o.fields then   -- forged values refused by line (kept games are read back: records, summaries)
      for _, name in ipairs(luadata.sorted_keys(o.fields)) do
        M.expect(o.path, at.lines[i], r[name], o.fields[name], name)
      end
    end
    local k = o.key(r)
    if k and not seen[k] then seen[k] = true; kept[#kept + 1] = r; self.where[r] = at.lines[i] end
  end
  self.header = header
  return kept, torn or bad > 0 or #kept ~= #results
end

function M.open(o)
  assert(o.path and o.kind and o.key, "store.open needs path, kind and key")
  local _, perr = userfiles.check_path(o.path, "the results file's name")
  if perr then error(perr, 0) end
  local made, merr = M.mkdir(parent(o.path))
  if not made then error(merr, 0) end
  local lock = o.lock or M.lock(o.path, o.steal_lock)
  local self = setmetatable({ path = o.path, lock_dir = lock, opts = o, done = {}, where = {} }, Store)
  local ok, err = pcall(function()
    local kept, rewrite = load_existing(self, o)
    self.header = self.header or header_of(o)
    if o.plan and M.encode(self.header.plan or {}) ~= M.encode(o.plan) then
      self.header.plan, rewrite = o.plan, true
    end
    self.results = kept
    for _, r in ipairs(kept) do self.done[o.key(r)] = true end
    if rewrite then M.write_file(o.path, file_text(self.header, kept, o.order)) end
    self:open_records()
    self.f = assert(io.open(o.path, "ab"))
  end)
  if not ok then M.unlock(lock) error(err, 0) end
  return self
end

-- The records file: rewritten from the kept results, then appended to.
function Store:open_records()
  local o = self.opts
  if not o.records then return end
  M.write_file(o.records, records_text(o, self.results, self.where))
  local err
  self.rf, err = io.open(o.records, "ab")
  if not self.rf then errorf("cannot write %s: %s", o.records, tostring(err)) end
end

function Store:has(key) return self.done[key] == true end

-- Flushes f, and fsyncs it when sync_every seconds have passed since the
-- last fsync (every time with the default 0).
function Store:sync(f)
  local every = self.opts.sync_every or 0
  local now = every > 0 and cheskers.clock() or 0
  if every > 0 and now - (self.synced or -math.huge) < every then
    f:flush()
    return
  end
  sync(f)
  if f == self.f then self.synced = now end
end

function Store:append(rec)
  self.f:write(M.encode(rec, self.opts.order) .. "\n")
  self:sync(self.f)
  self.results[#self.results + 1] = rec
  self.done[self.opts.key(rec)] = true
  if self.rf then
    self.rf:write(self.opts.render(rec))
    self:sync(self.rf)
  end
end

function Store:close()
  if self.f then sync(self.f) self.f:close() self.f = nil end
  if self.rf then sync(self.rf) self.rf:close() self.rf = nil end
  if self.lock_dir then M.unlock(self.lock_dir) self.lock_dir = nil end
end

function M.records_file(path, render)
  local ok, err = M.mkdir(parent(path))
  if not ok then error(err, 0) end
  local okp, perr, _, it = userfiles.check_output(path)
  if not okp then errorf("cannot write %s: %s", path, it or perr) end
  local f, ferr = io.open(path, "w")
  if not f then errorf("cannot write %s: %s", path, tostring(ferr)) end
  return {
    results = {},
    append = function(self, rec)
      self.results[#self.results + 1] = rec
      f:write(render(rec))
      sync(f)
    end,
    close = function() f:close() end,
  }
end

-- ---- run folders -------------------------------------------------------------------

function M.parse_shard(text)
  local N = require "cheskers.numbers"
  local itext, ntext = tostring(text):match("^(%d+)/(%d+)$")
  local i, n = itext and N.read(itext, "--shard"), ntext and N.read(ntext, "--shard")
  if not i or not n or i > n then
    local most = itext and #ntext > 6 and (" <= %d"):format(N.MAX_GAMES) or ""   -- a long number: say how long
    errorf("shard must be I/N with 1 <= I <= N%s, not %s", most, require("cheskers.schema").show(tostring(text)))
  end
  return i, n
end

function M.shard_file(dir, prefix, shard, shards)
  local _, perr = userfiles.check_path(dir, "the results folder's name")
  if perr then error(perr, 0) end
  return string.format("%s/%s.shard%dof%d.jsonl", dir, prefix, shard, shards)
end

function M.is_shard_file(path, prefix)
  local name = path:match("([^/]+)$") or path
  return name:sub(1, #prefix + 1) == prefix .. "." and name:sub(#prefix + 2):match("^shard%d+of%d+%.jsonl$") ~= nil
end

function M.folder(dir, ours)
  local files = {}
  if lfs.attributes(dir, "mode") ~= "directory" then return files end
  for name in lfs.dir(dir) do
    if name:match("%.jsonl$") then
      local path = dir .. "/" .. name
      local header, results, torn, bad, at = M.read(path)
      local file = { path = path, header = header, header_line = at.header, results = results, torn = torn, bad = bad,
                     lines = at.lines, unreadable = at.unreadable, torn_line = at.torn }
      if not ours or ours(file) then files[#files + 1] = file end
    end
  end
  table.sort(files, function(x, y) return x.path < y.path end)
  return files
end

function M.kinds(dir)
  local kinds = {}
  if lfs.attributes(dir, "mode") ~= "directory" then return kinds end
  for name in lfs.dir(dir) do
    if name:match("%.jsonl$") then
      local header = M.decode(read_first_line(dir .. "/" .. name, "header") or "")
      local kind = header and header.header and header.kind
      if type(kind) == "string" then kinds[kind] = (kinds[kind] or 0) + 1 end
    end
  end
  return kinds
end

-- The keys of the games in the run's files of the folder other than the
-- shard's own (each checked against the fingerprint); with restart, the
-- run's files are removed instead.
local function games_elsewhere(o)
  local ours = o.ours or function(f) return f.header ~= nil and f.header.kind == o.kind end
  local done = {}
  for _, f in ipairs(M.folder(o.dir, ours)) do
    if o.restart then
      os.remove(f.path)
    elseif f.path ~= o.path then
      M.check_header(f.path, f.header, setmetatable({ engine = M.engine_signature() }, { __index = o }))
      for _, r in ipairs(f.results) do
        local k = o.key(r)
        if k then done[k] = true end
      end
    end
  end
  return done
end

function M.open_shard(o)
  local ok, err = M.mkdir(o.dir)
  if not ok then error(err, 0) end
  local lock = o.lock or M.lock(o.path, o.steal_lock)   -- held while the folder is read and cleared
  local okd, done = pcall(games_elsewhere, o)
  if not okd then M.unlock(lock) error(done, 0) end
  local so = setmetatable({ lock = lock }, { __index = o })
  local st = M.open(so)
  for k in pairs(st.done) do done[k] = true end
  st.done = done
  return st
end

return M
