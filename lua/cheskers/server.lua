-- cheskers.server: the HTTP and WebSocket server of cheskers serve, on
-- Debian's lua-http and lua-cqueues (docs/reference/serve-api.md says why these): it
-- serves the analysis board's page and the API of cheskers.webapi, runs
-- long work in worker processes (cheskers.worker), and guards the door.
--
--   server.load_http() -> true | nil, message   lua-http on package.path
--   server.new(opts) -> srv
--       opts: api (cheskers.webapi ctx), host (default 127.0.0.1), port
--       (0: a free one), token (default: 128 random bits), max_body
--       (bytes, default 256 KiB), max_connections (default 200),
--       max_analyses (running at once, server-wide; default 8; more wait),
--       timeout (seconds a client may take to send a request, and idle
--       time between requests: default 10), web (the folder of the page's
--       files), log (function(line) or nil)
--   srv:listen() -> url | nil, message   the address to open, token included
--   srv:loop()                            until srv:close() (Ctrl-C, SIGTERM)
--   srv:close()                           stops every worker, closes sockets
--   srv:state()                           what the server holds (GET /api/state)
--
-- Safety (docs/reference/security.md, "The analysis board"): every request must carry
-- the token (query ?token= or the X-Cheskers-Token header); Host must be
-- the server's own address (DNS rebinding) and Origin, when sent, too
-- (other sites); bodies above max_body are refused (413) before they are
-- read; a client that takes more than timeout seconds to send its request
-- is cut off; connections above max_connections get 503 at once; each page
-- (WebSocket) runs one analysis at a time, stopped when it closes; every
-- analysis is bounded by the api's limits (time, nodes). The server reads
-- only the page's own files (a fixed list) and what the command line named.

local server = {}

-- Debian's lua-http (and lua-fifo, lua-basexx ... it needs) is installed
-- for Lua 5.1-5.3 only, as pure Lua that runs on 5.4: their folders are
-- added after package.path's own.
function server.load_http()
  if not package.path:find("/usr/share/lua/5.3/?.lua", 1, true) then
    local extra = {}
    for _, v in ipairs({ "5.3", "5.2", "5.1" }) do
      extra[#extra + 1] = "/usr/share/lua/" .. v .. "/?.lua;/usr/share/lua/" .. v .. "/?/init.lua"
    end
    package.path = package.path .. ";" .. table.concat(extra, ";")
  end
  local ok, err = pcall(function() return require "http.server" end)
  if not ok then
    return nil, "cheskers serve needs Debian's lua-http and lua-cqueues (make deps): " .. tostring(err):match("^[^\n]*")
  end
  return true
end

local json = require "cheskers.webapi"   -- encode, decode
local cheskers = require "cheskers"
local worker = require "cheskers.worker"

local Server = {}
Server.__index = Server

local STATIC = {
  ["/"] = { "board.html", "text/html; charset=utf-8" },
  ["/board.js"] = { "board.js", "text/javascript; charset=utf-8" },
  ["/board.css"] = { "board.css", "text/css; charset=utf-8" },
}

-- The folder of the page's files: lua/cheskers/web beside this module.
function server.web_dir()
  local src = debug.getinfo(1, "S").source
  local here = src:sub(1, 1) == "@" and require("cheskers.files").dirname(src:sub(2)) or "."
  return here .. "/web"
end

-- The browser opener: the first of OPENERS found on $PATH (xdg-open on a
-- desktop, sensible-browser on Debian), started in the background with the
-- address. Returns its name, or nil and a line saying none was found.
server.OPENERS = { "xdg-open", "sensible-browser" }
function server.open_browser(url)
  local files = require "cheskers.files"
  for _, name in ipairs(server.OPENERS) do
    for dir in (os.getenv("PATH") or ""):gmatch("[^:]+") do
      local path = files.join(dir, name)
      if require("lfs").attributes(path, "mode") == "file" then
        local function quote(text) return "'" .. text:gsub("'", "'\\''") .. "'" end
        os.execute(quote(path) .. " " .. quote(url) .. " >/dev/null 2>&1 </dev/null &")
        return name
      end
    end
  end
  return nil, "no browser opener found (" .. table.concat(server.OPENERS, ", ")
    .. " on PATH): open the address above in a browser"
end

local function random_token()
  local rand = require "openssl.rand"
  return (rand.bytes(16):gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

function server.new(opts)
  assert(server.load_http())
  local self = setmetatable({
    api = assert(opts.api, "server.new: api"), host = opts.host or "127.0.0.1", port = opts.port or 0,
    token = opts.token or random_token(), max_body = opts.max_body or 256 * 1024,
    max_connections = opts.max_connections or 200, max_analyses = opts.max_analyses or 8,
    timeout = opts.timeout or 10, web = opts.web or server.web_dir(), log = opts.log or function() end,
    pages = {}, next_page = 0, running = 0, jobs = {}, conns = setmetatable({}, { __mode = "k" }),
    refused = 0, files = {},
  }, Server)
  self.slot = require("cqueues.condition").new()
  return self
end

-- ---- answers --------------------------------------------------------------------

local function respond(stream, status, body, ctype, extra)
  local headers = require("http.headers").new()
  headers:append(":status", tostring(status))
  headers:append("content-type", ctype or "application/json")
  headers:append("cache-control", "no-store")
  headers:append("x-content-type-options", "nosniff")
  headers:append("referrer-policy", "no-referrer")
  for k, v in pairs(extra or {}) do headers:append(k, v) end
  stream:write_headers(headers, false, 5)
  stream:write_chunk(body, true, 10)
end

local function respond_json(stream, status, t)
  respond(stream, status, json.encode(t) .. "\n")
end

local function refuse(stream, status, message)
  respond_json(stream, status, { error = message })
end

-- ---- the door ---------------------------------------------------------------------

-- The Host values that name this server: its address and port, and the
-- loopback's names when it listens on the loopback.
function Server:allowed_hosts()
  local p = tostring(self.port)
  local t = { [self.host .. ":" .. p] = true }
  if self.host:find(":", 1, true) then t["[" .. self.host .. "]:" .. p] = true end
  if self.host == "127.0.0.1" or self.host == "::1" or self.host == "localhost" then
    t["127.0.0.1:" .. p], t["localhost:" .. p], t["[::1]:" .. p] = true, true, true
  end
  return t
end

local function query_param(path, name)
  local q = path:match("%?(.*)$")
  if not q then return nil end
  for k, v in q:gmatch("([^&=]+)=([^&]*)") do
    if k == name then return v end
  end
end

-- Compares two texts in a time that does not depend on where they differ.
local function same_text(a, b)
  if type(a) ~= "string" or #a ~= #b then return false end
  local diff = 0
  for i = 1, #a do diff = diff | (a:byte(i) ~ b:byte(i)) end
  return diff == 0
end

-- The page's own files (board.css, board.js) carry the token in a cookie
-- set with the page (SameSite=Strict: another site's requests do not send
-- it; named by port: each server its own).
function Server:cookie_name()
  return "cheskers_token_" .. tostring(self.port)
end

function Server:cookie_token(headers)
  local name = self:cookie_name()
  local seq = headers:get_as_sequence("cookie")
  for i = 1, seq.n do
    for k, v in seq[i]:gmatch("([^=;%s]+)=([^;]*)") do
      if k == name then return v end
    end
  end
end

-- Listening on every address (--host 0.0.0.0 or ::), the server is reached
-- by any of the machine's addresses: a Host that is an address (not a name,
-- which DNS rebinding needs) with the server's port is its own.
function Server:any_address(host)
  if self.host ~= "0.0.0.0" and self.host ~= "::" then return false end
  local addr, port = host:match("^(%d+%.%d+%.%d+%.%d+):(%d+)$")
  if not addr then addr, port = host:match("^%[([%x:.]+)%]:(%d+)$") end
  return addr ~= nil and tonumber(port) == self.port
end

-- nil when the request may go on, else status, message.
function Server:check_door(headers)
  local host = headers:get(":authority") or headers:get("host")
  if not host or not (self.hosts[host:lower()] or self:any_address(host)) then
    return 403, "Host " .. tostring(host) .. " is not this server's address (a DNS rebinding attempt?)"
  end
  local origin = headers:get("origin")
  if origin and not (origin:match("^http://(.*)$") and self.hosts[origin:match("^http://(.*)$"):lower()]) then
    return 403, "Origin " .. origin .. " is not this server's page (a cross-site request)"
  end
  local path = headers:get(":path") or ""
  local token = headers:get("x-cheskers-token") or query_param(path, "token") or self:cookie_token(headers)
  if not same_text(token, self.token) then
    return 403, "no token or a wrong one: open the address cheskers serve printed (with ?token=...)"
  end
end

-- The body of a request as text, at most max_body bytes, read by the
-- deadline; or nil, status, message.
function Server:read_body(stream, headers, deadline)
  local length = tonumber(headers:get("content-length") or "")
  if length and length > self.max_body then
    return nil, 413, string.format("the body is %d bytes: at most %d are read", length, self.max_body)
  end
  local monotime = require("cqueues").monotime
  local parts, n = {}, 0
  while true do
    local left = deadline - monotime()
    if left <= 0 then return nil, 408, "the body took too long to arrive" end
    local chunk, err = stream:get_next_chunk(left)
    if chunk == nil then
      if err == nil then break end
      return nil, 408, "the body could not be read: " .. tostring(err)
    end
    n = n + #chunk
    if n > self.max_body then return nil, 413, string.format("the body is over %d bytes", self.max_body) end
    parts[#parts + 1] = chunk
  end
  return table.concat(parts)
end

-- ---- workers ------------------------------------------------------------------------

-- Waits for a free analysis slot (queued: called once when it must wait).
function Server:acquire(queued)
  if self.running >= self.max_analyses then
    if queued then queued() end
    while self.running >= self.max_analyses do self.slot:wait() end
  end
  self.running = self.running + 1
end

function Server:release()
  self.running = self.running - 1
  self.slot:signal(1)
end

-- Runs fn(emit, table.unpack(args)) in a worker, calling send(t) for each
-- table it emits, until it ends, send fails or stopped() says so.
-- Returns "done", "stopped" or "gone".
function Server:run_job(fn, args, send, stopped)
  local job, err = worker.start(fn, table.unpack(args))
  if not job then
    send { type = "error", message = err }
    return "done"
  end
  self.jobs[job] = true
  local how = "done"
  while true do
    local t, why = job:next(0.2)
    if t then
      if not send(t) then how = "gone" break end
    elseif why == "end" then
      break
    end
    if stopped and stopped() then how = "stopped" break end
  end
  job:stop()
  self.jobs[job] = nil
  return how
end

-- ---- the routes -------------------------------------------------------------------

local QUICK = {
  position = "position", play = "play", probe = "probe", rules = "rules_info", svg = "svg",
  pieces = "pieces", ["record/read"] = "record_read", ["record/write"] = "record_write",
  ["puzzle/read"] = "puzzle_read", ["puzzle/save"] = "puzzle_save",
}
local LONG = { analyse = true, bot = true, check = true, solve = true }

function Server:static(stream, name, ctype)
  local body = self.files[name]
  if not body then
    local f, err = io.open(self.web .. "/" .. name, "rb")
    if not f then return refuse(stream, 500, "the page's file " .. name .. " is missing: " .. tostring(err)) end
    body = f:read("a")
    f:close()
    self.files[name] = body
  end
  respond(stream, 200, body, ctype, { ["set-cookie"] = self:cookie_name() .. "=" .. self.token
    .. "; Path=/; HttpOnly; SameSite=Strict", ["content-security-policy"] =
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
    .. "connect-src 'self'; frame-ancestors 'none'" })
end

-- A long request over HTTP: the worker's tables as lines of JSON (NDJSON),
-- streamed as they come; the worker is stopped when the client goes away.
function Server:stream_job(stream, fn, args)
  local headers = require("http.headers").new()
  headers:append(":status", "200")
  headers:append("content-type", "application/x-ndjson")
  headers:append("cache-control", "no-store")
  stream:write_headers(headers, false, 5)
  self:acquire()
  local ok, how = pcall(self.run_job, self, fn, args, function(t)
    return stream:write_chunk(json.encode(t) .. "\n", false, 10) ~= nil
  end)
  self:release()
  if not ok then error(how, 0) end
  if how == "done" then stream:write_chunk("", true, 5) end
end

function Server:handle(stream)
  local monotime = require("cqueues").monotime
  local deadline = monotime() + self.timeout
  local headers = stream:get_headers(self.timeout)
  if not headers then return end
  local status, message = self:check_door(headers)
  if status then return refuse(stream, status, message) end
  local sock = stream.connection.socket
  local method = headers:get(":method")
  local path = (headers:get(":path") or "/"):match("^[^?#]*")
  if method == "GET" then self.conns[sock] = "busy" end
  local static = STATIC[path]
  if static and method == "GET" then return self:static(stream, static[1], static[2]) end
  if path == "/api/ws" and method == "GET" then return self:websocket(stream, headers, sock) end
  if path == "/api/info" and method == "GET" then return respond_json(stream, 200, self.api:info()) end
  if path == "/api/state" and method == "GET" then return respond_json(stream, 200, self:state()) end
  local op = path:match("^/api/(.+)$")
  if not op or not (QUICK[op] or LONG[op]) then return refuse(stream, 404, "no such address: " .. path) end
  if method ~= "POST" then return refuse(stream, 405, path .. " takes POST with a JSON body") end
  local body, bstatus, berr = self:read_body(stream, headers, deadline)
  if not body then return refuse(stream, bstatus, berr) end
  self.conns[sock] = "busy"
  local req, jerr = json.decode(body)
  if type(req) ~= "table" then
    return refuse(stream, 400, "malformed JSON: " .. (jerr or "not an object"))
  end
  if QUICK[op] then
    local ok2, out, err = pcall(self.api[QUICK[op]], self.api, req)
    if not ok2 then return refuse(stream, 500, "internal error: " .. tostring(out)) end
    if not out then return refuse(stream, 400, err) end
    return respond_json(stream, 200, out)
  end
  local fn, args = self.api:job(op, req)
  if not fn then return refuse(stream, 400, args) end
  return self:stream_job(stream, fn, args)
end

-- ---- pages (WebSocket) ----------------------------------------------------------------

-- A page: the board's WebSocket. Messages in: {op = "analyse", id, rules,
-- fen, moves, multipv, time, nodes}, {op = "stop"}, {op = "position",
-- rules, fen, moves} (what the page shows: GET /api/state lists it).
-- Messages out: the worker's tables with the analysis' id, {type =
-- "queued"}, {type = "stopped", id}, {type = "error", message}.
function Server:websocket(stream, headers, sock)
  local websocket = require "http.websocket"
  local ws = websocket.new_from_stream(stream, headers)
  if not ws or not ws:accept(nil, 5) then return end
  self.conns[sock] = "page"
  self.next_page = self.next_page + 1
  local page = { id = self.next_page, analysing = false }
  self.pages[page.id] = page
  local cq = require("cqueues").running()
  local current             -- the running analysis: {id =, stop = bool}
  local function send(t)
    return ws:send(json.encode(t), "text", 10) ~= nil
  end
  local function analyse(req)
    local fn, args = self.api:job("analyse", req)
    if not fn then send { type = "error", id = req.id, message = args } return end
    local a = { id = req.id, stop = false }
    current = a
    cq:wrap(function()
      self:acquire(function() send { type = "queued", id = a.id } end)
      if a.stop then self:release() return end
      page.analysing = true
      local how = self:run_job(fn, args, function(t)
        t.id = a.id
        return send(t)
      end, function() return a.stop end)
      self:release()
      if current == a then page.analysing = false end
      if how == "stopped" then send { type = "stopped", id = a.id } end
      a.done = true
    end)
  end
  while true do
    local data, opcode = ws:receive(3600)
    if not data then break end
    if opcode == "text" or opcode == "binary" then
      if #data > self.max_body then
        send { type = "error", message = string.format("a message over %d bytes", self.max_body) }
      else
        local msg = json.decode(data)
        if type(msg) ~= "table" then
          send { type = "error", message = "malformed JSON" }
        elseif msg.op == "analyse" then
          if current then current.stop = true end
          analyse(msg)
        elseif msg.op == "stop" then
          if current then current.stop = true end
        elseif msg.op == "position" then
          page.position = { rules = msg.rules, fen = msg.fen, moves = msg.moves }
          if current then current.stop = true end
        else
          send { type = "error", message = "unknown op " .. tostring(msg.op) .. cheskers.did_you_mean(
            tostring(msg.op), { "analyse", "stop", "position" }) }
        end
      end
    end
  end
  if current then current.stop = true end
  self.pages[page.id] = nil
  ws:close()
end

function Server:state()
  local pages = {}
  for id, p in pairs(self.pages) do
    pages[#pages + 1] = { id = id, analysing = p.analysing, position = p.position }
  end
  table.sort(pages, function(a, b) return a.id < b.id end)
  local njobs = 0
  for _ in pairs(self.jobs) do njobs = njobs + 1 end
  return { pages = pages, workers = njobs, analyses_running = self.running,
           connections = self.http and self.http.n_connections or 0, refused_connections = self.refused,
           host = self.host, port = self.port }
end

-- ---- the loop -----------------------------------------------------------------------

function Server:listen()
  local http_server = require "http.server"
  local monotime = require("cqueues").monotime
  local srv, err = http_server.listen {
    host = self.host, port = self.port, reuseaddr = true, tls = false,
    connection_setup_timeout = self.timeout, intra_stream_timeout = self.timeout,
    onstream = function(_, stream)
      local sock = stream.connection.socket
      local ok, e = pcall(self.handle, self, stream)
      if not ok then
        self.log("error: " .. tostring(e))
        pcall(refuse, stream, 500, "internal error")
      end
      if stream.state ~= "closed" and sock then
        -- a request whose body was not read to its end (refused, too big,
        -- cut off): the connection ends here (lua-http 0.4 would try to
        -- read the rest at shutdown, in a loop that spins on a client gone)
        pcall(sock.shutdown, sock, "rw")
        pcall(stream.set_state, stream, "closed")
      end
      -- a request served: the idle time before the next one counts from
      -- now; a request that never came keeps the time of the last one
      if sock and type(self.conns[sock]) == "string" then self.conns[sock] = monotime() end
    end,
    onerror = function(_, _, op, e) self.log(string.format("%s: %s", tostring(op), tostring(e))) end,
  }
  if not srv then return nil, tostring(err) end
  local ok, lerr = srv:listen()
  if not ok then
    return nil, string.format("cannot listen on %s port %s: %s", self.host, tostring(self.port), tostring(lerr))
  end
  local _, _, port = srv:localname()
  self.port = port
  self.hosts = self:allowed_hosts()
  self.http = srv
  -- connections above the cap get 503 at once; each one waiting for its
  -- request longer than timeout (a slow client) is cut off
  local add_socket = srv.add_socket
  srv.add_socket = function(s, sock)
    if s.n_connections >= self.max_connections then
      self.refused = self.refused + 1
      s.cq:wrap(function()
        sock:settimeout(1)
        sock:xwrite("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nConnection: close\r\n"
          .. "Content-Length: 30\r\n\r\ntoo many connections: the cap\n", "n", 1)
        sock:close()
      end)
      return
    end
    self.conns[sock] = monotime()
    local result = add_socket(s, sock)
    return result
  end
  srv.cq:wrap(function() self:watch() end)
  local host = self.host:find(":", 1, true) and ("[" .. self.host .. "]") or self.host
  return string.format("http://%s:%d/?token=%s", host, port, self.token)
end

-- Every second: closes the connections that have waited longer than
-- timeout for a request (a slow client; an idle one), and counts them.
function Server:watch()
  local cqueues = require "cqueues"
  while self.http do
    cqueues.sleep(0.5)
    local now = cqueues.monotime()
    for sock, since in pairs(self.conns) do
      if type(since) == "number" and now - since > self.timeout then
        self.conns[sock] = nil
        pcall(sock.shutdown, sock, "rw")
      end
    end
  end
end

function Server:loop()
  local signal = require "cqueues.signal"
  signal.block(signal.SIGINT, signal.SIGTERM)
  local listener = signal.listen(signal.SIGINT, signal.SIGTERM)
  self.http.cq:wrap(function()
    while self.http do
      if listener:wait(0.5) then self:close() end
    end
  end)
  while self.http do
    local ok, err = self.http.cq:step(0.5)
    if not ok then self.log("loop: " .. tostring(err)) end
  end
  signal.unblock(signal.SIGINT, signal.SIGTERM)
end

function Server:close()
  for job in pairs(self.jobs) do job:stop() end
  self.jobs = {}
  if self.http then
    local http = self.http
    self.http = nil
    http:close()
  end
end

return server
