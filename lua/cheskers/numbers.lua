-- cheskers.numbers - the one reader of the numbers users write, and the
-- declarations of every numeric option (docs/reference/security.md, "Numbers"):
-- the command line's options (cheskers WORD --NAME N), the REPL's counts
-- and limits (go depth N, perft N, undo N ...) and the pairs of them
-- (--shard I/N, --moves A-B). Each is declared once below with its kind
-- (a whole number, or a finite real number) and its range, which always has
-- a maximum. The other surfaces read by the same rules: bot options and
-- the tables of experiment files by cheskers.schema (S.int/S.num, given
-- their ranges from here), the Lua API's option tables in C by lbind's
-- lb_opt_integer/lb_opt_number, and the core's chk_search_run refuses a
-- search option out of its range (CHK_BAD_OPTION).
--
-- A number is read from text as written in decimal: an optional sign and
-- digits for a whole number; digits with a point or an exponent too for a
-- real one. No hexadecimal, no "inf" or "nan", no blank, no empty text, no
-- more than 40 characters; a value outside the declared range (2^31, 2^63,
-- 1e999 ...) is refused, never cut, wrapped or rounded. The message is one
-- line: "--games must be a whole number from 1 to 1000000, not '2147483648'".
--
--   numbers.DECLARED[key] -> spec      key: "--games", "mine --depth",
--                                      "go depth", "perft" ...; spec: a
--                                      cheskers.schema S.int or S.num
--   numbers.spec(key) -> spec          (raises for an undeclared key)
--   numbers.read(value, key, where) -> number | nil, message
--   numbers.check(value, key, where) -> number | raises the message
--   numbers.pair(text, sep, key, where) -> a, b | nil, message ("I/N", "A-B")
--   numbers.converter(key) -> fn       an argparse converter (cheskers.cli
--                                      names the option in its message)
--   numbers.key_of(fn) -> key          the declaration of a converter (nil:
--                                      not one of ours), for the tests
--   numbers.check_size(n, what)        raises "what: N games, more than the
--                                      1000000 of one schedule" before a
--                                      schedule (a list a game) is made
--   numbers.MAX_GAMES                  the most games of one schedule
local S = require "cheskers.schema"
local cheskers = require "cheskers"

local errorf = require("cheskers").errorf
local N = {}

N.MAX_GAMES = 1000000          -- the games of one schedule, in all (each takes memory before play)
N.MAX_NODES = cheskers.engine.MAX_NODES   -- a node budget (10^12: hours of search), the engine's
N.MAX_SECONDS = 86400          -- a time limit a move, and a search's time in the REPL: a day
N.MAX_PLIES = 100000           -- a game's length
N.MAX_TEXT = 40                -- the longest text a number may be written in

local MAX_DEPTH = cheskers.engine.MAX_DEPTH   -- b:search's (127)
local MAX_PERFT = 64           -- b:perft's largest depth (lperft.c)

local int, num = S.int, S.num

-- The declarations: key -> spec. A command-line option shared by several
-- subcommands with one meaning is keyed by its name alone.
N.DECLARED = {
  -- the options of how games are played (cheskers.cli.game_options:
  -- match, tournament, tune) and of the runs
  ["--games"] = int { min = 1, max = N.MAX_GAMES },
  ["games"] = int { min = 0, max = N.MAX_GAMES },   -- of Lua tables (match.run, experiment files): 0 plays none
  -- experiment files: random_plies, branching_every and material_every, strengths
  ["plies"] = int { min = 0, max = N.MAX_PLIES },
  ["every"] = int { min = 1, max = N.MAX_PLIES },
  ["strength"] = int { min = 1, max = N.MAX_NODES },
  ["thresholds"] = num { min = 0, max = 1000 },             -- pawns, of experiment and design files (cheskers.measures)
  ["--seed"] = int { min = math.mininteger, max = math.maxinteger },
  ["--nodes"] = int { min = 1, max = N.MAX_NODES },
  ["--time"] = num { above = 0, max = N.MAX_SECONDS },
  ["--move-timeout"] = num { above = 0, max = N.MAX_SECONDS },
  ["--opening-plies"] = int { min = 0, max = 1000 },
  ["--max-plies"] = int { min = 1, max = N.MAX_PLIES },
  ["--repetition"] = int { min = 0, max = 1000 },
  ["--shard"] = int { min = 1, max = N.MAX_GAMES },          -- I and N of --shard I/N
  ["--sprt"] = num { min = -1000, max = 1000 },               -- ELO0 and ELO1 of match --sprt ELO0,ELO1
  -- tournament, tune, report
  ["--prior"] = num { min = 0, max = 1000000 },
  ["--ridge"] = num { min = 0, max = 1000000 },
  ["--margin"] = num { above = 0, max = 100 },
  ["--plies-margin"] = num { above = 0, max = N.MAX_PLIES },
  -- check
  ["--max-seconds"] = num { min = 0, max = N.MAX_SECONDS },
  ["--max-nodes"] = int { min = 1, max = N.MAX_NODES },
  -- mine
  ["mine --games"] = int { min = 0, max = N.MAX_GAMES },
  ["mine --depth"] = int { min = 1, max = MAX_DEPTH },
  ["mine --max"] = int { min = 1, max = N.MAX_GAMES },
  ["mine --pieces"] = int { min = 0, max = 10 },
  ["mine --duals"] = int { min = 0, max = 253 },
  ["mine --per-signature"] = int { min = 1, max = 1000 },
  ["mine --moves"] = int { min = 1, max = 64 },               -- A and B of --moves A-B
  -- design
  ["design --budget"] = int { min = 1, max = N.MAX_GAMES },
  ["design --time"] = num { above = 0, max = 366 * 86400 },    -- wall-clock seconds of a whole search
  -- design files (cheskers.design): budget = {games, time} are --budget's and --time's;
  -- racing's games a round and looks, the proposer's candidates, and a target's bounds
  -- (every measure lies within a game's length: scores, rates, plies, piece values)
  ["design round"] = int { min = 1, max = N.MAX_GAMES },
  ["design looks"] = int { min = 1, max = 1000 },
  ["design candidates"] = int { min = 1, max = 100000 },
  ["design target"] = num { min = -N.MAX_PLIES, max = N.MAX_PLIES },
  -- serve
  ["serve --port"] = int { min = 0, max = 65535 },
  ["serve --max-analyses"] = int { min = 1, max = 1000 },
  ["serve --max-time"] = num { above = 0, max = N.MAX_SECONDS },
  ["serve --timeout"] = num { above = 0, max = 3600 },
  -- rules, tb
  ["rules --depth"] = int { min = 0, max = 12 },              -- perft in both rule sets, depth by depth
  ["tb --pieces"] = int { min = 2, max = cheskers.tb.MAX_PIECES },
  ["tb --threads"] = int { min = 0, max = 64 },
  -- the REPL's commands
  ["go depth"] = int { min = 1, max = MAX_DEPTH },
  ["go nodes"] = int { min = 1, max = N.MAX_NODES },
  ["go time"] = num { above = 0, max = N.MAX_SECONDS },
  ["perft"] = int { min = 0, max = MAX_PERFT },
  ["divide"] = int { min = 1, max = MAX_PERFT },
  ["undo"] = int { min = 0, max = N.MAX_PLIES },
  ["redo"] = int { min = 0, max = N.MAX_PLIES },
  ["puzzle"] = int { min = 1, max = N.MAX_GAMES },
  -- a box's time limit (bots.load's sandbox.time): the sandbox's clocks end at 10^8 s
  ["sandbox time"] = num { above = 0, max = 100000000 },
  -- the REPL's settings (settings.history_size = N)
  ["history_size"] = int { min = 0, max = 1000000 },
  ["progress_after"] = num { min = 0, max = N.MAX_SECONDS },
}

for key, spec in pairs(N.DECLARED) do
  assert(spec.max, "cheskers.numbers: " .. key .. " declares no maximum")
end

function N.spec(key)
  if type(key) == "table" then return key end
  return N.DECLARED[key] or error("cheskers.numbers: no declaration of " .. tostring(key), 2)
end

-- The number text s stands for (a float for a real, an integer for a whole
-- number that fits), or nil for anything else.
local function from_text(s, whole)
  if #s == 0 or #s > N.MAX_TEXT then return nil end
  if whole then
    if not s:match("^[+-]?%d+$") then return nil end
    -- Lua reads a whole number past 2^63 as a float, rounded: the nearest
    -- float of -9223372036854775809 is -2^63, which math.tointeger would
    -- take as the integer mininteger. Only a text read as an integer is one.
    local v = tonumber(s)
    if math.type(v) ~= "integer" then return nil end
    return v
  end
  if not s:match("^[+-]?%d*%.?%d*[eE]?[+-]?%d*$") or not s:match("%d") then return nil end
  return tonumber(s)   -- "5" stays the integer 5, as written
end

function N.read(value, key, where)
  local spec = N.spec(key)
  local v = value
  if type(value) == "string" then
    v = from_text(value, spec.kind == "int")
    if v == nil then return S.read(value, spec, where) end   -- its message, echoing the text
  end
  local x, err = S.read(v, spec, where)
  if x == nil and type(value) == "string" then return S.read(value, spec, where) end
  return x, err
end

function N.check(value, key, where)
  local v, err = N.read(value, key, where)
  if v == nil then error(err, 0) end
  return v
end

function N.pair(text, sep, key, where)
  local a, b = string.match(tostring(text), "^([^" .. sep .. "]*)%" .. sep .. "(.*)$")
  if not a then return nil, string.format("%s must be two numbers A%sB, not %s", where, sep, S.show(text)) end
  local x, err = N.read(a, key, where)
  if x == nil then return nil, err end
  local y
  y, err = N.read(b, key, where)
  if y == nil then return nil, err end
  return x, y
end

function N.check_size(n, what)
  if math.type(n) ~= "integer" or n > N.MAX_GAMES then
    errorf("%s: %s games, more than the %d of one schedule", what, S.show(n), N.MAX_GAMES)
  end
  return n
end

local CONVERTERS = setmetatable({}, { __mode = "k" })

function N.converter(key)
  local spec = N.spec(key)
  local f = function(text)
    local v = N.read(text, spec)
    if v ~= nil then return v end
    return nil, "must be " .. S.allowed(spec)
  end
  CONVERTERS[f] = key
  return f
end

function N.key_of(f) return CONVERTERS[f] end

-- What a declaration allows, for --help: "1 to 1000000", "> 0, at most 86400".
function N.range_text(key)
  local spec = N.spec(key)
  if spec.min == math.mininteger and spec.max == math.maxinteger then return "any 64-bit integer" end
  local lo = spec.above and ("> %s, at most"):format(spec.above) or tostring(spec.min) .. " to"
  return ("%s %s"):format(lo, spec.max)
end

return N
