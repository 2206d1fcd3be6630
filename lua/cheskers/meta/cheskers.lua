---@meta cheskers
-- lua/cheskers/meta/cheskers.lua - LuaLS annotations of the `cheskers` module
-- (docs/reference/lua_api.md is the reference): the module, boards, move objects,
-- cheskers.engine and cheskers.tb, so that editors complete board methods and
-- move fields. Definitions only: nothing here runs. tests/binding/annotations_spec.lua
-- checks it against the module and the docs.
-- luacheck: no unused (stubs: their arguments and the classes are for the editor)

---@alias cheskers.color "white"|"black"
---@alias cheskers.rulespec string|table|nil a preset name ("golomb"), a table of options, or nil
---@alias cheskers.moveish Move|string a move object or a move text ("c3xe5")

---@class cheskers
---@field START string the start position text
---@field VERSION string the version
---@field SQUARES string[] the 32 dark square names in index order (a1, c1, e1, g1, b2, ... h8)
---@field engine cheskers.engine the C engine's weights and constants
---@field tb cheskers.tb endgame tablebases
---@field puzzle table the module cheskers.puzzle (loaded on first use)
---@field svg table the module cheskers.svg (loaded on first use)
local cheskers = {}

---A board: the position `fen` (nil: the start position of the rules) under `rules`.
---@param fen? string
---@param rules? cheskers.rulespec
---@return Board
function cheskers.new(fen, rules) end

---The full rule set for `spec` as a table of every option.
---@param spec? cheskers.rulespec
---@return table
function cheskers.rules(spec) end

---What `word` is as move text under `rules` (the core's one grammar, no
---position): "move" or "square" and its written form ("d6-e5", "b6"), "bad",
---why ("e9 is not a square") and the fault ("piece", "square", "light",
---"promotion", "spelling", "end", "after", "length"), or nil (no move text).
---@param word string
---@param rules? cheskers.rulespec
---@return "move"|"square"|"bad"|nil kind
---@return string|nil text_or_message
---@return string|nil fault
function cheskers.move_shape(word, rules) end

---Asks running long core work to stop (it raises code "interrupted").
function cheskers.interrupt() end

---Every long call stops once `seconds` of wall-clock time have passed, or
---`cpu_seconds` of the process's CPU time have been used (nil: no such deadline).
---@param seconds? number
---@param cpu_seconds? number
---@return number|nil left the seconds left of the previous wall-clock deadline
---@return number|nil cpu_left the CPU seconds left of the previous CPU deadline
function cheskers.deadline(seconds, cpu_seconds) end

---The code of an error value ("illegal_move", "timeout", ...), nil for anything else.
---@param e any
---@return string|nil
function cheskers.error_code(e) end

---An error value (not raised) with a code of the binding's table and a message.
---@param code string
---@param message string
---@return table
function cheskers.error_value(code, message) end

---Raises an error value with this code and the message string.format(fmt, ...)
---(the one way the Lua library raises an error a caller tests).
---@param code string
---@param fmt string
function cheskers.raise(code, fmt, ...) end

---Raises the one-line message string.format(fmt, ...) (level 0: no position).
---@param fmt string
function cheskers.errorf(fmt, ...) end

---The name of `names` that `word` is a likely typo of, or nil.
---@param word string
---@param names string[]
---@return string|nil
function cheskers.closest(word, names) end

---" (did you mean 'x'?)" when `word` is a likely typo of a name of `names`, else "":
---the one wording of a suggestion in every message.
---@param word string
---@param names string[]
---@return string
function cheskers.did_you_mean(word, names) end

---"1 ply", "3 plies", "2 puzzles": n and the word for n things (words: the plural
---when it is not word .. "s"); the one way a message counts things.
---@param n number
---@param word string
---@param words? string
---@return string
function cheskers.plural(n, word, words) end

---Rules text read by the core: a preset name, or the options written ({name = value})
---and data ({pieces = true} when pieces is given as its {...} text); or nil, message.
---cheskers.rulespec.parse_text is the reader to use.
---@param text string
---@return string|table|nil rules
---@return table|string|nil data_or_message
function cheskers.rules_text(text) end

---The name=value items of text by the grammar of rules text (bot options):
---{name = value} (true/false, integers, numbers, texts) and data ({name = true}
---for a {...} value, given as its text); or nil, message.
---@param text string
---@return table|nil values
---@return table|string data_or_message
function cheskers.read_options(text) end

---Seconds on a monotonic clock (for measuring time spent; not the time of day).
---@return number
function cheskers.clock() end

---A new file opened for writing, created exclusively: nil, message, errno when anything
---is at path already, a link included.
---@param path string
---@return file*|nil file
---@return string? message
---@return integer? errno
function cheskers.create_file(path) end

---Flushes the file and asks the system to write it to disk (fsync).
---@param file file*
---@return true|nil ok
---@return string? message
function cheskers.fsync(file) end

---Whether the file (io.stdout, io.stderr ...) is a terminal.
---@param file file*
---@return boolean
function cheskers.isatty(file) end

---The text of the regular file at path (cheskers.files reads every file a
---user names through it): opened without blocking; a folder, FIFO, device
---or socket is refused by name, a file of more than cap bytes before it is read.
---@param path string
---@param cap integer
---@param head? boolean true: the first cap bytes of a file of any size
---@return string|nil text
---@return string? message
---@return string? reason "missing"|"folder"|"fifo"|"device"|"socket"|"large"|"error"
function cheskers.read_file(path, cap, head) end
---A child process: its pid in the parent, 0 in the child (where every descriptor
---above 2 but keep_fd is closed); nil, message when fork fails.
---@param keep_fd? integer
---@return integer|nil pid
---@return string? message
function cheskers.fork(keep_fd) end

---A Lua file handle writing to the descriptor fd.
---@param fd integer
---@return file*
function cheskers.fdopen(fd) end

---Ends the process pid (SIGKILL).
---@param pid integer
---@return true|nil ok
---@return string? message
function cheskers.kill(pid) end

---The exit status of a child that has ended (128 + n: killed by signal n), nil
---while it runs; wait: wait for it to end.
---@param pid integer
---@param wait? boolean
---@return integer|nil status
function cheskers.reap(pid, wait) end

---Ends the process at once (_exit), for a forked child.
---@param status? integer
function cheskers.exit_now(status) end

-- ---- boards -------------------------------------------------------------------

-- Boards compare with ==: the same pieces, side to move and rules.
---@class Board
local Board = {}

---@return string fen the position text
function Board:fen() end

---@return cheskers.color
function Board:turn() end

---The legal moves sorted by their text (empty when the game is over).
---@return Move[]
function Board:moves() end

---The legal moves in the engine's static order (captures first).
---@return Move[]
function Board:ordered_moves() end

---@return integer
function Board:count() end

---Plays a move; raises (code "illegal_move") for an illegal or ambiguous one.
---@param move cheskers.moveish
---@return Move played
function Board:play(move) end

---@param text string
---@return Move|nil move
---@return string|nil message
function Board:parse(text) end

---What `word` is as move text under this board's rules (cheskers.move_shape).
---@param word string
---@return "move"|"square"|"bad"|nil kind
---@return string|nil text_or_message
---@return string|nil fault
function Board:move_shape(word) end

---@return Move|nil taken_back
function Board:undo() end

---@return Move[]
function Board:history() end

---@return "white"|"black"|"draw"|nil winner
---@return string|nil reason
function Board:result() end

---@param depth integer
---@param progress? function
---@return integer
function Board:perft(depth, progress) end

---@param depth integer
---@param progress? function
---@return table<string, integer>
function Board:divide(depth, progress) end

---@return integer
function Board:hash() end

---@return Board
function Board:copy() end

---The position turned half a turn, colours swapped, the other side to move.
---@return Board
function Board:mirror() end

---@param square string
---@return string|nil letter
function Board:get(square) end

---@param square string
---@param letter? string
function Board:put(square, letter) end

---@return table
function Board:rules() end

---An integer naming the board's rule set: boards made with the same rules share one.
---@return integer
function Board:rules_id() end

---@return integer
function Board:moveno() end

---@return integer
function Board:quiet() end

---@param move cheskers.moveish
---@return boolean
function Board:is_capture(move) end

---The squares of the pieces of `color` (of one kind when given).
---@param color cheskers.color
---@param kind? string
---@return string[]
function Board:pieces(color, kind) end

---@return {white: table<string, integer>, black: table<string, integer>}
function Board:material() end

---The 32 squares in index order, one letter each, "." for empty.
---@return string
function Board:squares() end

---@return table<string, string>
function Board:piece_map() end

---Bit i is square i (docs/reference/lua_api.md); `all` is every piece of the colour.
---@return {white: table<string, integer>, black: table<string, integer>}
function Board:bitboards() end

---The static evaluation for the side to move; the terms with {features = true}.
---@param opts? {features: boolean}
---@return integer score
---@return table<string, integer>|nil terms
function Board:eval(opts) end

---@class cheskers.search_opts
---@field depth? integer plies
---@field nodes? integer
---@field time? number seconds
---@field eval? fun(b: Board): number an evaluation for the side to move
---@field weights? table<string, integer>
---@field info? fun(t: cheskers.search_result)
---@field context? SearchContext tables kept from this context's earlier searches (engine.context)

---@class cheskers.search_result
---@field move Move|nil nil when the game is over
---@field score integer
---@field depth integer
---@field seldepth integer
---@field nodes integer
---@field time number
---@field nps number
---@field pv Move[]

---@param opts? cheskers.search_opts
---@return cheskers.search_result
function Board:search(opts) end

---@param n integer|{moves: integer, all: boolean, nodes: integer}
---@return table
function Board:solve(n) end

---@param n integer|{moves: integer, nodes: integer}
---@return Move|nil move
---@return integer|nil length
function Board:defend(n) end

---@param move cheskers.moveish
---@param n integer|{moves: integer, nodes: integer}
---@return Move|false|nil reply
---@return integer|nil length
function Board:refute(move, n) end

---@param opts? table
---@return string svg
function Board:svg(opts) end

---@param tables? Tables
---@return "win"|"loss"|"draw"|nil value
---@return integer|string|nil distance_or_message
function Board:probe(tables) end

---@param tables? Tables
---@return {move: Move, value: string|nil, distance: integer|nil}[]
function Board:tb_moves(tables) end

-- ---- move objects ---------------------------------------------------------------

---A legal move. `tostring(m)` is its text; `==` compares moves.
---@class Move
---@field from string the start square
---@field to string the end square
---@field path string[] the landing squares in order (built once, kept)
---@field captures string[] the captured squares (built once, kept)
---@field promotion string|nil the kind promoted to ("K", "B", "C")
---@field piece string the moving piece's letter (upper case)
---@field jump boolean a jump chain
---@field take boolean a capture by moving onto the piece
---@field ncaptures integer the number of captured pieces
---@field is_capture boolean
---@field is_promotion boolean
---@field index integer|nil the place in b:moves() of its position
---@field key integer equal for equal moves: a table key
-- (moves compare with ==: the same start, end, captures and promotion)

-- ---- cheskers.engine --------------------------------------------------------------

---@class cheskers.engine
---@field names string[] the weight names, in order
---@field switches table<string, string> b:search's search switches (rfp, aspiration, fp, delta): name -> what
---@field margins table<string, string> b:search's margins (rfp_margin, fp_margin): name -> what
---@field WIN integer
---@field MATE_MIN integer
---@field MAX_DEPTH integer b:search's largest depth (127)
---@field MAX_NODES integer b:search's largest node budget (10^12)
---@field MAX_SECONDS integer b:search's largest time and info_every, in seconds (10^9)
---@field MAX_MARGIN integer the largest rfp_margin and fp_margin (100000)
---@field MAX_WEIGHT integer the largest weight, either sign (100000)
local engine = {}

---@param t? table<string, integer>
---@return table<string, integer>
function engine.weights(t) end

---@param name string
---@return integer
function engine.get(name) end

---@param name string
---@param value integer
function engine.set(name, value) end

function engine.reset() end

---@return table<string, integer>
function engine.defaults() end

---@param board Board
---@return table<string, integer>
function engine.features(board) end

---@param seconds? number
---@param cpu_seconds? number
---@return number|nil
---@return number|nil
function engine.deadline(seconds, cpu_seconds) end

---A search context: b:search{context = ctx} keeps its table and history from one search to the next.
---@class SearchContext
local SearchContext = {}

---Forgets the earlier searches.
function SearchContext:clear() end

---@param megabytes? integer the table's size, 1 to 4096 (default 16)
---@return SearchContext
function engine.context(megabytes) end

-- ---- cheskers.tb ------------------------------------------------------------------

---@class cheskers.tb
---@field MAX_PIECES integer the most pieces a table can have (the index's limit, 6)
local tb = {}

---@param dir? string
---@return Tables|nil tables
---@return string|nil message
function tb.open(dir) end

---@return Tables|nil
function tb.default() end

---Sets the default tables (false: none, nil: the environment's); returns the previous setting.
---@param tables Tables|false|nil
---@return Tables|false|nil previous
function tb.set_default(tables) end

---@param opts {pieces: string|integer, rules: cheskers.rulespec, dir: string, threads: integer, progress: function}
---  (and only: string, a signature; preflight: boolean, false to skip the disk and memory check)
---@return true|nil ok
---@return string|nil message
function tb.build(opts) end

---The units of a build (a signature and its colour swap each) in build order.
---@param opts {pieces: integer, rules: cheskers.rulespec, dir: string, only: string}
---@return TbUnit[]|nil units
---@return string|nil message
function tb.plan(opts) end

---One unit of a tablebase build: a signature and its colour swap.
---@class TbUnit
---@field name string
---@field swap string|nil
---@field pieces integer
---@field level integer
---@field entries integer
---@field disk integer
---@field deps_disk integer
---@field memory integer
---@field built boolean
local TbUnit = {}

---A folder of endgame tables.
---@class Tables
local Tables = {}

---@param b Board
function Tables:probe(b) end

---@param b Board
function Tables:moves(b) end

---@param b Board
---@return Move|nil move
---@return string|nil value
---@return integer|nil distance
function Tables:best(b) end

---@param rules? cheskers.rulespec
---@return table[]
function Tables:info(rules) end

---@param rules? cheskers.rulespec
---@return integer
function Tables:max_pieces(rules) end

---The positions of table `name` (White to move) won in at least `min` plies;
---with `unique` only those with a single winning move: the `keep` longest
---and how many there are (symmetric images counted).
---@param rules cheskers.rulespec|nil
---@param name string
---@param min? integer
---@param unique? boolean
---@param keep? integer
---@return {fen: string, distance: integer}[]|nil list
---@return integer|string count_or_message
function Tables:wins(rules, name, min, unique, keep) end

---@return string
function Tables:dir() end

function Tables:reload() end

cheskers.engine = engine
cheskers.tb = tb
return cheskers
