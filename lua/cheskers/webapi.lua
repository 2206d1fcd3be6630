-- cheskers.webapi: what the analysis board of cheskers serve asks of the
-- engine, as functions of plain tables (the JSON of a request) returning
-- plain tables (the JSON of the answer), or nil and a one-line message.
-- The transport (HTTP, WebSocket, the safety checks) is cheskers.server;
-- docs/reference/serve-api.md is the reference of both.
--
--   api.new(config) -> ctx
--       config: rules (a spec read by cheskers.rulearg from the command
--       line, nil: golomb), tb (a tables object or nil), bots (bot specs
--       the page may offer), puzzles (puzzle lists from --puzzles files:
--       {name =, list =}), limits (see api.LIMITS)
--   ctx:board(req) -> board | nil, message
--       req.rules (rules text, read by cheskers.rulespec.parse_text: the
--       one reader of untrusted rule text; absent: the server's rules),
--       req.fen (absent: the rules' start), req.moves (move texts played
--       from there, each refused in the REPL's wording)
--   ctx:position(req), ctx:play(req), ctx:probe(req), ctx:rules(req),
--   ctx:svg(req), ctx:record_read(req), ctx:record_write(req),
--   ctx:puzzle_read(req), ctx:puzzle_save(req), ctx:info()
--       the quick requests (answered in the server's process)
--   ctx:job(kind, req) -> fn, args | nil, message
--       the long ones ("analyse", "bot", "check", "solve"): fn(emit, ...)
--       runs in a worker process (cheskers.worker) and emits tables
--
-- Every input is bounded (api.LIMITS): texts, move lists, search time and
-- nodes; an analysis asks for at most limits.time seconds and
-- limits.nodes nodes.

local cheskers = require "cheskers"
local rulespec = require "cheskers.rulespec"
local movetext = require "cheskers.movetext"
local truncate = require("cheskers.luadata").truncate
local NULL = {}   -- (dkjson reads null as nil)

local api = {}

-- JSON, by dkjson (whole numbers stay integers; an empty list is written
-- []): decode(text) -> value | nil, message.
function api.decode(text)
  local ok, v, _, err = pcall(require("dkjson").decode, text)
  if not ok then
    if tostring(v):find("stack overflow", 1, true) then return nil, "nested too deeply" end
    return nil, (tostring(v):match("^[^\n]*"))
  end
  if err then return nil, err end
  return v
end

-- The order keys are written in (the same answer is the same text; any
-- key not listed comes after these).
api.KEY_ORDER = { "type", "id", "error", "played", "fen", "turn", "moveno", "rules", "promote", "result", "winner",
  "reason", "text", "squares", "last", "moves", "move", "from", "to", "path", "captures", "promotion", "piece",
  "jump", "multipv", "depth", "seldepth", "score", "white", "mate", "nodes", "nps", "time", "partial", "tb", "pv",
  "best", "covered", "value", "distance", "ok", "faults", "kind", "message", "notes", "wins", "why", "refutation",
  "length", "reply", "solved", "win", "shortest", "hint", "title", "goal", "solution", "invalid", "puzzles",
  "options", "start", "presets", "svg", "pieces", "version", "bots", "puzzle_files", "name", "count", "limits",
  "pages", "position", "analysing", "workers", "analyses_running", "connections", "refused_connections", "host",
  "port" }

function api.encode(t)
  return require("dkjson").encode(t, { keyorder = api.KEY_ORDER })
end


api.LIMITS = {
  text = 256 * 1024,      -- a rules text, record or puzzle file
  moves = 2000,           -- moves of a line
  time = 60,              -- seconds an analysis may run
  nodes = 2000000000,     -- nodes an analysis may search
  multipv = 8,            -- best lines at once
  bot_time = 10,          -- seconds of a bot's move
  check_time = 30,        -- seconds of a puzzle check
  solve_nodes = 5000000,  -- nodes of a solver step (puzzle moves, hints)
}

local Ctx = {}
Ctx.__index = Ctx

function api.new(config)
  config = config or {}
  local limits = {}
  for k, v in pairs(api.LIMITS) do limits[k] = v end
  for k, v in pairs(config.limits or {}) do limits[k] = v end
  return setmetatable({ rules = config.rules, tb = config.tb, bots = config.bots or {},
                        puzzles = config.puzzles or {}, limits = limits, rules_cache = {},
                        sandbox = config.sandbox or nil }, Ctx)
end

-- ---- reading a request --------------------------------------------------------

local function is_text(v, max) return type(v) == "string" and #v <= max end

-- The rules of req: the server's when req.rules is absent or empty.
function Ctx:rules_of(req)
  local text = req.rules
  if text == nil or text == "" or text == NULL then return self.rules end
  if not is_text(text, self.limits.text) then return nil, self:too_long("rules", "a text") end
  local hit = self.rules_cache[text]
  if hit then return hit end
  local spec, err = rulespec.parse_text(text)
  if not spec then return nil, "rules: " .. tostring(err) end
  self.rules_cache[text] = spec
  return spec
end

function Ctx:too_long(what, noun)
  return string.format("%s: %s of at most %d bytes", what, noun, self.limits.text)
end

local function new_board(fen, spec)
  local ok, b = pcall(cheskers.new, fen, spec)
  if not ok then return nil, tostring(b) end
  return b
end

-- Plays the move texts of list on b; nil, message at the first refused one.
local function play_list(b, list, max, what)
  if list == nil then return b end
  if type(list) ~= "table" then return nil, what .. ": a list of move texts" end
  if #list > max then return nil, string.format("%s: at most %d moves", what, max) end
  for i, text in ipairs(list) do
    if type(text) ~= "string" then return nil, string.format("%s: move %d is not a text", what, i) end
    local m, err = b:parse(text)
    if not m then
      return nil, string.format("%s: move %d: %s", what, i, movetext.illegal_message(b, text, err))
    end
    b:play(m)
  end
  return b
end

function Ctx:board(req)
  if type(req) ~= "table" then return nil, "the request is not a JSON object" end
  local spec, err = self:rules_of(req)
  if err then return nil, err end
  local fen = req.fen
  if fen == "" or fen == NULL then fen = nil end
  if fen ~= nil and not is_text(fen, 1000) then return nil, "fen: a text of at most 1000 bytes" end
  local b, berr = new_board(fen, spec)
  if not b then return nil, (fen and "fen: " or "rules: ") .. truncate(berr) end
  return play_list(b, req.moves, self.limits.moves, "moves")
end

-- ---- answers ------------------------------------------------------------------

local function move_table(m)
  return { text = tostring(m), from = m.from, to = m.to, path = m.path, captures = m.captures,
           promotion = m.promotion, piece = m.piece, jump = m.jump or false }
end

-- A list (dkjson writes an empty table as []).
local function array(t) return t end

-- The whole position: what the board draws.
function Ctx:describe(b)
  local moves = {}
  for i, m in ipairs(b:moves()) do moves[i] = move_table(m) end
  local hist = b:history()
  local last = hist[#hist]
  local winner, reason = b:result()
  local rules = b:rules()
  return {
    fen = b:fen(), turn = b:turn(), squares = b:squares(), moveno = b:moveno(),
    moves = array(moves), last = last and move_table(last) or nil,
    result = winner and { winner = winner, reason = reason, text = movetext.result_text(winner, reason) } or nil,
    rules = rulespec.format(rules), promote = rules.promote,
  }
end

function Ctx:position(req)
  local b, err = self:board(req)
  if not b then return nil, err end
  return self:describe(b)
end

-- One move on the position of req: the position after it, or the REPL's
-- word on why it is refused.
function Ctx:play(req)
  local b, err = self:board(req)
  if not b then return nil, err end
  if not is_text(req.move, 200) then return nil, "move: a move text" end
  local m, perr = b:parse(req.move)
  if not m then return nil, movetext.illegal_message(b, req.move, perr) end
  b:play(m)
  local t = self:describe(b)
  t.played = tostring(m)
  return t
end

local tbmoves = require "cheskers.tbmoves"
local puzzle = require "cheskers.puzzle"

-- The tablebases' verdict on the position and on every legal move.
function Ctx:probe(req)
  local b, err = self:board(req)
  if not b then return nil, err end
  if not self.tb then return nil, "no tablebases: start cheskers serve with --tb DIR" end
  local value, distance = b:probe(self.tb)
  local out = { covered = value ~= nil, value = value, distance = distance, moves = {} }
  if value then
    out.text = tbmoves.value_text { value = value, distance = distance }
    for i, e in ipairs(assert(tbmoves.list(b, self.tb))) do
      out.moves[i] = { move = e.text, value = e.value, distance = e.distance, text = tbmoves.value_text(e) }
    end
  else
    out.text = puzzle.not_covered(b, self.tb)   -- the REPL's words: why, and what to build
  end
  array(out.moves)
  return out
end

-- Rules text read: the rules in force, written back, and their options.
function Ctx:rules_info(req)
  local spec, err = self:rules_of(req)
  if err then return nil, err end
  local b, berr = new_board(nil, spec)
  if not b then return nil, "rules: " .. truncate(berr) end
  local all = b:rules()
  local options = {}
  for k, v in pairs(all) do
    if type(v) ~= "function" and k ~= "pieces" then options[k] = v end
  end
  return { text = rulespec.format(all), options = options, start = b:fen(),
           presets = { "golomb" } }
end

function Ctx:svg(req)
  local b, err = self:board(req)
  if not b then return nil, err end
  local ok, text = pcall(b.svg, b, { flip = req.flip == true, title = is_text(req.title, 200) and req.title or nil })
  if not ok then return nil, tostring(text) end
  return { svg = text }
end

-- The pieces as SVG groups drawn around (0, 0) in a square of 50 units
-- (cheskers.svg's own drawing), for the page to place.
function Ctx:pieces(req)
  local b, err = self:board(req)
  if not b then return nil, err end
  local svg = require "cheskers.svg"
  local out = {}
  for letter in pairs(b:material().white) do
    out[letter] = svg.piece(letter)
    out[letter:lower()] = svg.piece(letter:lower())
  end
  return { pieces = out }
end

local record = require "cheskers.record"

function Ctx:record_read(req)
  if not is_text(req.text, self.limits.text) then return nil, self:too_long("text", "a record") end
  local b, err = record.read(req.text)
  if not b then return nil, "record: " .. tostring(err) end
  local moves = {}
  for i, m in ipairs(b:history()) do moves[i] = tostring(m) end
  local start = record.initial(b)
  return { fen = start:fen(), rules = rulespec.format(b:rules()), moves = array(moves),
           position = self:describe(b) }
end

function Ctx:record_write(req)
  local b, err = self:board(req)
  if not b then return nil, err end
  local tags = {}
  if type(req.tags) == "table" then
    for k, v in pairs(req.tags) do
      if type(k) == "string" and k:match("^%u%w*$") and is_text(v, 200) then tags[k] = v end
    end
  end
  return { text = record.write(b, tags) }
end

local function puzzle_table(p)
  return { title = p.title, fen = p.fen, moves = p.moves, rules = p.rules and rulespec.format(p.rules) or nil,
           solution = p.solution and array(p.solution) or nil, goal = puzzle.goal_text(p), invalid = p.invalid }
end

-- A puzzle file's text (read by the sandbox, data only), or a file of the
-- collection the command line named (req.name).
function Ctx:puzzle_read(req)
  local list
  if req.name ~= nil then
    for _, f in ipairs(self.puzzles) do
      if f.name == req.name then list = f.list end
    end
    if not list then
      return nil, "no puzzle file " .. truncate(tostring(req.name), 80) .. " in this server's collection"
    end
  else
    if not is_text(req.text, self.limits.text) then return nil, self:too_long("text", "a puzzle file") end
    local err
    list, err = puzzle.load_string(req.text, "(puzzle text)", { each = true })
    if not list then return nil, err end
  end
  local out = {}
  for i, p in ipairs(list) do out[i] = puzzle_table(p) end
  return { puzzles = array(out) }
end

-- The position of req as a puzzle file (the line played from it as the
-- solution) that cheskers check reads.
function Ctx:puzzle_save(req)
  local b, err = self:board { rules = req.rules, fen = req.fen }
  if not b then return nil, err end
  local n = math.tointeger(req.n)
  if not n or n < 1 or n > 64 then return nil, "n: the solver's moves, a whole number from 1 to 64" end
  local _, perr = play_list(b:copy(), req.moves, self.limits.moves, "solution")
  if perr then return nil, perr end
  local spec = self:rules_of(req)
  local p = { title = is_text(req.title, 200) and req.title ~= "" and req.title or nil, fen = b:fen(), goal = "win",
              moves = n, solution = type(req.moves) == "table" and #req.moves > 0 and req.moves or nil }
  -- a puzzle file's rules are a preset name or a table of options (as mine
  -- writes them), never rules text: cheskers check would take the text for a preset
  if spec ~= nil then
    local rules, rerr = puzzle.file_rules(spec)
    if not rules then return nil, "rules: " .. rerr end
    p.rules = rules
  end
  local text = puzzle.serialize({ p })
  local back, lerr = puzzle.load_string(text, "(saved puzzle)")
  if not back then return nil, "the puzzle would not read back: " .. tostring(lerr) end
  return { text = text }
end

function Ctx:info()
  local bots = {}
  for i, s in ipairs(self.bots) do bots[i] = s end
  local files = {}
  for i, f in ipairs(self.puzzles) do files[i] = { name = f.name, count = #f.list } end
  return { version = cheskers.VERSION, rules = self.rules and rulespec.format(cheskers.rules(self.rules)) or "golomb",
           tb = self.tb ~= nil, bots = array(bots), puzzle_files = array(files),
           limits = { time = self.limits.time, nodes = self.limits.nodes, multipv = self.limits.multipv } }
end

-- ---- the long requests (run in a worker) -----------------------------------------

local MATE = cheskers.engine.MATE_MIN

-- One line of an analysis, as sent: the score for the side to move and for
-- White (the bar), a forced result as plies to it.
local function info_line(b, t, multipv)
  local pv = {}
  for i, m in ipairs(t.pv or {}) do pv[i] = tostring(m) end
  local score = t.score or 0
  local white = b:turn() == "white" and score or -score
  local out = { type = "info", depth = t.depth, seldepth = t.seldepth, score = score, white = white,
                nodes = t.nodes, nps = t.nps and math.floor(t.nps) or nil, time = t.time, pv = array(pv),
                multipv = multipv or 1, partial = t.partial or false, tb = t.tb or nil }
  if math.abs(score) >= MATE then
    out.mate = (score > 0 and 1 or -1) * (cheskers.engine.WIN - math.abs(score))
  end
  return out
end

-- The analysis: one line (the search's own reports, partial ones every
-- info_every seconds), or n best lines (each root move searched a depth
-- less, depth by depth, the best n reported).
local function analyse(emit, b, o, tb)
  cheskers.deadline(o.time)
  local ctx = cheskers.engine.context()
  local started = cheskers.clock()
  if o.multipv <= 1 or #b:moves() <= 1 then
    local r = b:search { depth = o.depth, nodes = o.nodes, time = o.time, tb = tb, context = ctx,
                         info_every = 0.25, info = function(t) emit(info_line(b, t)) end }
    emit { type = "done", best = r.move and tostring(r.move) or nil, depth = r.depth, nodes = r.nodes,
           time = cheskers.clock() - started }
    return
  end
  local nodes, best = 0, nil
  local moves = b:moves()
  for depth = 1, o.depth do
    local lines, complete = {}, true
    for _, m in ipairs(moves) do
      local left = o.time - (cheskers.clock() - started)
      if left <= 0 or nodes >= o.nodes then complete = false break end
      b:play(m)
      local r
      if b:result() then
        local winner = b:result()
        r = { score = winner == "draw" and 0 or -(cheskers.engine.WIN - 1), pv = {}, nodes = 1, seldepth = 0 }
      else
        r = b:search { depth = depth, nodes = o.nodes - nodes, tb = tb, context = ctx }
      end
      b:undo()
      nodes = nodes + r.nodes
      -- a search the deadline or the node budget cut short: the iteration
      -- is not reported
      if (r.depth and r.depth < depth) or cheskers.clock() - started >= o.time then complete = false break end
      local pv = { m }
      for _, x in ipairs(r.pv) do pv[#pv + 1] = x end
      lines[#lines + 1] = { score = -r.score, pv = pv, depth = depth, seldepth = (r.seldepth or depth) + 1 }
    end
    if not complete then break end
    table.sort(lines, function(x, y) return x.score > y.score end)
    local spent = cheskers.clock() - started
    for i = 1, math.min(o.multipv, #lines) do
      local t = lines[i]
      t.nodes, t.time, t.nps = nodes, spent, spent > 0 and nodes / spent or nil
      emit(info_line(b, t, i))
    end
    best = lines[1].pv[1]
    if math.abs(lines[1].score) >= MATE then break end
  end
  emit { type = "done", best = best and tostring(best) or nil, nodes = nodes, time = cheskers.clock() - started }
end

local function bot_move(emit, b, spec, seconds, sandbox)
  local bots, game = require "cheskers.bots", require "cheskers.game"
  local bot = bots.load(spec, { sandbox = sandbox })
  game.start(bot, b:rules(), seconds)
  local m, reason, detail = game.choose(bot, b, { time = seconds }, seconds * 3 + 1)
  if not m then
    emit { type = "error", message = string.format("bot %s: %s%s", spec, tostring(reason),
                                                   detail and (": " .. tostring(detail)) or "") }
    return
  end
  emit { type = "move", move = tostring(m) }
end

local function check_puzzle(emit, p, seconds, tb)
  local r = puzzle.check(p, { max_seconds = seconds, tb = tb })
  local faults = {}
  for i, f in ipairs(r.faults) do faults[i] = { kind = f.kind, message = f.message } end
  emit { type = "report", ok = r.ok, faults = array(faults), notes = array(r.notes or {}),
         text = puzzle.format_report(r), time = r.time }
end

-- A solver's move in a puzzle: does req.move win within n? Then the
-- defence's best reply; else the refutation. hint: the first move of a
-- shortest win.
local function solve_step(emit, b, n, move, hint, nodes, tb)
  if hint then
    local ok, r = pcall(b.solve, b, { moves = math.min(n, 15), all = false, nodes = nodes, tb = tb })
    if not ok then emit { type = "error", message = tostring(r) } return end
    if not r.win then emit { type = "hint", win = false } return end
    local m = r.moves[1]
    emit { type = "hint", win = true, from = m.from, move = tostring(m), shortest = r.shortest }
    return
  end
  local m = b:parse(move)
  local ok, refutation, length = pcall(b.refute, b, m, { moves = math.min(n, 15), nodes = nodes })
  if not ok then emit { type = "error", message = tostring(refutation) } return end
  if refutation == false then
    emit { type = "verdict", wins = false, why = "this move ends the game without winning it" }
  elseif refutation then
    emit { type = "verdict", wins = false, refutation = tostring(refutation),
           why = string.format("it does not win within %s: %s answers it", cheskers.plural(n, "move"),
                               tostring(refutation)) }
  else
    b:play(m)
    local reply
    if not b:result() and n > 1 then
      local dok, d = pcall(b.defend, b, { moves = n - 1, nodes = nodes })
      if dok and d then reply = tostring(d) end
    end
    emit { type = "verdict", wins = true, length = length, reply = reply, solved = b:result() ~= nil }
  end
end

local function bounded(v, max, default)
  local x = tonumber(v)
  if x == nil or x ~= x or x <= 0 then return default end
  return math.min(x, max)
end

function Ctx:job(kind, req)
  local b, err = self:board(req)
  if not b then return nil, err end
  local L = self.limits
  if kind == "analyse" then
    if b:result() then return nil, "the game is over: " .. movetext.result_text(b:result()) end
    local o = { time = bounded(req.time, L.time, L.time), nodes = math.floor(bounded(req.nodes, L.nodes, L.nodes)),
                depth = math.floor(bounded(req.depth, 100, 100)),
                multipv = math.floor(bounded(req.multipv, L.multipv, 1)) }
    return analyse, { b, o, self.tb }
  elseif kind == "bot" then
    if b:result() then return nil, "the game is over" end
    local spec = req.bot
    local known = false
    for _, s in ipairs(self.bots) do if s == spec then known = true end end
    if not known then
      return nil, "bot: " .. truncate(tostring(spec), 80) .. " is not offered by this server"
        .. cheskers.did_you_mean(tostring(spec), self.bots)
    end
    return bot_move, { b, spec, bounded(req.time, L.bot_time, 1), self.sandbox }
  elseif kind == "check" then
    local p = { fen = b:fen(), goal = "win", moves = math.tointeger(req.n), solution = req.solution,
                rules = b:rules() }
    if not p.moves or p.moves < 1 or p.moves > 64 then return nil, "n: a whole number from 1 to 64" end
    for k in pairs(p.rules) do if type(p.rules[k]) == "function" then p.rules = nil break end end
    return check_puzzle, { p, bounded(req.time, L.check_time, L.check_time), self.tb }
  elseif kind == "solve" then
    local n = math.tointeger(req.n)
    if not n or n < 1 or n > 64 then return nil, "n: the solver's moves left, a whole number from 1 to 64" end
    if not req.hint then
      if not is_text(req.move, 200) then return nil, "move: a move text" end
      local m, perr = b:parse(req.move)
      if not m then return nil, movetext.illegal_message(b, req.move, perr) end
    end
    return solve_step, { b, n, req.move, req.hint == true, L.solve_nodes, self.tb }
  end
  return nil, "no such job: " .. tostring(kind)
end

return api
