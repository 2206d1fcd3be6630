-- cheskers serve: the analysis board in a browser, and its HTTP/WebSocket
-- API (cheskers.server, cheskers.webapi; docs/guide/board.md,
-- docs/reference/serve-api.md).

local usage = [[
usage: cheskers serve [--port N] [--host ADDR] [--open] [--tb DIR] [--rules SPEC]
                      [--bot SPEC]... [--sandbox] [--puzzles FILE]...
                      [--max-analyses N] [--max-time S] [--timeout S]

Starts the analysis board: a local web server, and prints the address to
open (with its token: a request without it is refused). It runs until
Ctrl-C (or SIGTERM), then stops every search and closes its sockets.

  --port N          the port (default 8642, else a free one when that is
                    taken; 0: a free one)
  --host ADDR       the address to listen on (default 127.0.0.1: this
                    machine only). Another address lets other machines
                    reach the board: anyone with the token drives the engine
  --open            open the address in the browser (xdg-open or
                    sensible-browser), when there is one
  --tb DIR          endgame tablebases: verdicts of every move, exact scores
                    (default: $CHESKERS_TB when set)
  --rules SPEC      the rules of a new board (as for cheskers rules; the page
                    may choose others by rules text)
  --bot SPEC        a bot the page may play against (repeatable; default:
                    engine:level=1, 3, 5, 8 and 10, alphabeta, mcts,
                    greedy, random); read by the bot loader of cheskers match
  --sandbox         run the bots in the sandbox (untrusted bot files)
  --puzzles FILE    a puzzle file the page offers (repeatable; the page can
                    also open one from the browser's machine)
  --max-analyses N  analyses running at once, all pages together (default 8;
                    more wait their turn)
  --max-time S      seconds an analysis may run (default 60)
  --timeout S       seconds a client may take to send a request (default 10)]]

local DEFAULT_BOTS = { "engine:level=1", "engine:level=3", "engine:level=5", "engine:level=8",
                       "engine:level=10", "alphabeta", "mcts", "greedy", "random" }

local function parser()
  local cli = require "cheskers.cli"
  local p = cli.parser("cheskers serve", "The analysis board.")
  cli.number(p, "--port", "the port (0: a free one)", nil, "serve --port")
  p:option("--host")
  p:flag("--open")
  p:option("--tb"):convert(cli.path)
  p:option("--rules")
  p:option("--bot"):count("*")
  p:flag("--sandbox")
  p:option("--puzzles"):count("*"):convert(cli.path)
  cli.number(p, "--max-analyses", "analyses running at once", nil, "serve --max-analyses")
  cli.number(p, "--max-time", "seconds an analysis may run", nil, "serve --max-time")
  cli.number(p, "--timeout", "seconds a client may take to send a request", nil, "serve --timeout")
  return p
end

local function run(args)
  local opts = require("cheskers.cli").parse_args(parser(), args, usage)
  if not opts then return 0 end
  local server = require "cheskers.server"
  local ok, err = server.load_http()
  if not ok then error(err, 0) end
  local spec
  if opts.rules then
    spec, err = require("cheskers.rulearg").parse(opts.rules)
    if not spec then error("--rules: " .. tostring(err), 0) end
  end
  local tables = require("cheskers.puzzle").tables(opts.tb)
  if tables then
    local start = require("cheskers").new(nil, spec)
    if (tables:max_pieces(start) or 0) < 2 then
      io.stdout:write(string.format("cheskers serve: no tablebases in %s for these rules yet (%s)\n", tables:dir(),
        require("cheskers.puzzle").build_hint(start, tables:dir())))
    end
  end
  local bots = #opts.bot > 0 and opts.bot or DEFAULT_BOTS
  local loader = require "cheskers.bots"
  for _, b in ipairs(bots) do   -- refused here, not when the page asks
    loader.load(b, { sandbox = opts.sandbox or nil })
  end
  local puzzles = {}
  for _, path in ipairs(opts.puzzles) do
    local list, perr = require("cheskers.puzzle").load(path, { each = true })
    if not list then error("--puzzles: " .. tostring(perr), 0) end
    puzzles[#puzzles + 1] = { name = path:match("[^/]*$"), list = list }
  end
  local limits = opts.max_time and { time = opts.max_time } or nil
  local api = require("cheskers.webapi").new { rules = spec, tb = tables, bots = bots, puzzles = puzzles,
                                               limits = limits, sandbox = opts.sandbox }
  local srv = server.new { api = api, host = opts.host, port = opts.port or 8642,
                           max_analyses = opts.max_analyses, timeout = opts.timeout,
                           log = function(line) io.stderr:write("cheskers serve: ", line, "\n") end }
  local url, lerr = srv:listen()
  if not url and opts.port == nil then
    srv.port = 0
    url, lerr = srv:listen()
  end
  if not url then error(lerr, 0) end
  local host = srv.host
  if host == "127.0.0.1" or host == "::1" or host == "localhost" then
    io.stdout:write("cheskers serve: listening on ", host, " only (this machine; --host to change)\n")
  else
    io.stdout:write("cheskers serve: listening on ", host, ": other machines can reach this board;",
      " anyone with the address below drives the engine\n")
  end
  io.stdout:write("Open ", url, "\n")
  io.stdout:write("Ctrl-C stops the server.\n")
  io.stdout:flush()
  if opts.open then
    local opener, oerr = server.open_browser(url)
    io.stdout:write("cheskers serve: --open: ", opener and ("opened with " .. opener) or oerr, "\n")
    io.stdout:flush()
  end
  srv:loop()
  io.stdout:write("cheskers serve: stopped\n")
  return 0
end

return {
  summary = "the analysis board in a browser, and its HTTP API",
  usage = usage,
  run = run,
}
