-- repl.commands.engine: the commands that ask the engine: eval, go (with
-- the REPL's tablebases, and a live line of the iteration in progress on a
-- terminal), bot (a bot answering your moves), perft and divide (with a
-- progress line and the counts kept on Ctrl-C).

local cheskers = require "cheskers"
local movetext = require "cheskers.movetext"
local console = require("cheskers.escape").console   -- bot names are the bot file's choice
local registry = require "repl.registry"
local draw = require "repl.draw"

local command, count_arg = registry.command, registry.count_arg


-- The engine's method, when the board has one.
local function engine_method(b, name)
  local ok, f = pcall(function() return b[name] end)
  if ok and type(f) == "function" then return f end
end

-- Counts with the binding's b:perft / b:divide (progress after each root
-- move, and between subtrees of a deep count). st keeps what is done:
-- st.per (root move text -> count, for the root moves done), st.total
-- (their sum), st.done and st.n (root moves done, in all). On Ctrl-C the
-- error value's partial and total are taken; the error is raised again.
local function count_moves(b, depth, divide, st, report)
  st.per, st.total, st.done, st.n = {}, 0, 0, #b:moves()
  local function progress(i, n, nodes, move, count)
    st.n = n
    if move then
      st.per[move], st.done, st.total = count, i, st.total + count
    end
    report(i, n, nodes)
  end
  local ok, e = pcall(divide and b.divide or b.perft, b, depth, progress)
  if ok then
    if not divide then st.total = e end
    return
  end
  if type(e) == "table" and type(e.partial) == "table" then
    st.per, st.total, st.done = e.partial, e.total or st.total, 0
    for _ in pairs(e.partial) do st.done = st.done + 1 end
  end
  error(e, 0)
end

-- The progress line of perft/divide on a terminal (after progress_after s).
local function progress_reporter(S, name, depth, t0)
  if not (S.tty_out and S.interactive) then return function() end end
  local after = registry.settings.progress_after
  local shown = 0
  return function(i, n, nodes)
    local now = cheskers.clock()
    if now - t0 >= after and now - shown >= 0.1 then
      shown = now
      S.progress_shown = true
      S.out:write(string.format("\r%s %d: root move %d of %d, %d nodes, %.1f s\27[K",
        name, depth, i, n, nodes, now - t0))
      S.out:flush()
    end
  end
end

local function rate_of(total, dt)
  local rate = dt > 0 and total / dt or 0
  return rate >= 1e6 and string.format("%.1f M", rate / 1e6)
    or rate >= 1e3 and string.format("%.1f k", rate / 1e3) or string.format("%.0f ", rate)
end

-- Prints the counts per root move (divide) and the total line; after
-- Ctrl-C (interrupted) the counts of the root moves completed.
local function print_counts(S, name, depth, st, dt, divide, interrupted)
  if divide then
    local keys = {}
    for k in pairs(st.per) do keys[#keys + 1] = k end
    table.sort(keys)
    for _, k in ipairs(keys) do S:print(string.format("%-14s %d", k, st.per[k])) end
    if not interrupted then S:print(require("cheskers").plural(#keys, "move")) end
  end
  if interrupted then
    S:print(string.format("%s %d stopped after %.3f s: %d of %d root moves done, %d nodes under them",
      name, depth, dt, st.done, st.n, st.total))
  else
    S:print(string.format("%s %d: %d nodes in %.3f s (%snodes/s)", name, depth, st.total, dt,
      rate_of(st.total, dt)))
  end
end

local function count_command(S, args, divide)
  local name = divide and "divide" or "perft"
  if #args ~= 1 then S:fail(string.format("usage: %s N (the depth)", name)) end
  local depth = count_arg(S, args[1], name .. ": the depth", nil, name)
  if divide and depth < 1 then S:fail("divide needs a depth of 1 or more") end
  local b = S.board:copy()   -- the board stays as it was, even after Ctrl-C
  local t0 = cheskers.clock()
  local st = {}
  local how = registry.catch_interrupt(count_moves, b, depth, divide, st, progress_reporter(S, name, depth, t0))
  S:clear_progress()
  print_counts(S, name, depth, st, cheskers.clock() - t0, divide, how == "interrupted")
  if how == "interrupted" then S:interrupted() end
end


command {
  name = "perft", args = "N",
  help = "Counts the move sequences of length N from the position.\n"
    .. "Prints the time taken and the nodes per second; a progress line after a second\n"
    .. "on a terminal. Ctrl-C stops it; the board stays as it was.",
  run = function(S, args) count_command(S, args, false) end,
}

command {
  name = "divide", args = "N",
  help = "perft N for each legal move, then the total.",
  run = function(S, args) count_command(S, args, true) end,
}

command {
  name = "eval",
  help = "The engine's static evaluation of the position.\nIn pawns for the side to move, with its terms.",
  run = function(S, args)
    local f = engine_method(S.board, "eval")
    if not f then S:fail("not available yet: the engine is a later issue") end
    if #args > 0 then S:fail("usage: eval (no arguments)") end
    local score, terms = f(S.board)
    S:print(string.format("eval %+.2f for %s (the side to move)", score / 100, S.board:turn()))
    if type(terms) == "table" then
      local names = {}
      for k, v in pairs(terms) do
        if v ~= 0 then names[#names + 1] = k end
      end
      table.sort(names)
      for _, k in ipairs(names) do S:print(string.format("  %-24s %+.2f", k, terms[k] / 100)) end
    end
  end,
}

-- The current weights, one a line, with the default where it differs.
local function print_weights(S)
  local e = cheskers.engine
  local w, d = e.weights(), e.defaults()
  for _, n in ipairs(e.names) do
    S:print(string.format("  %-15s %6d%s", n, w[n], w[n] ~= d[n] and string.format("   (default %d)", d[n]) or ""))
  end
end

command {
  name = "weights", args = "[FILE | reset]", complete = "files",
  help = "The engine's evaluation weights (eval, go and the engine bot use them).\n"
    .. "`weights FILE` loads a weights file (what cheskers tune writes, docs/notes/engine-history.md):\n"
    .. "a weight the file leaves out gets its default. `weights reset`: the defaults.",
  run = function(S, _, rest)
    local arg = registry.trim(rest or "")
    if arg == "reset" then
      cheskers.engine.reset()
      S:print("weights: the defaults")
      return
    end
    if arg ~= "" then
      local w, info = require("cheskers.tune").read_weights(arg)
      if not w then S:fail(info) end
      cheskers.engine.weights(w)
      local what = info.positions and string.format(" (fitted on %d positions of %d games)", info.positions,
        info.games or 0) or ""
      S:print("weights of " .. console(arg) .. what)
      local here = require("cheskers.rulespec").format(S.board:rules())
      if info.rules and info.rules ~= here then
        S:print(string.format("note: fitted for the rules %s; this game's rules are %s", console(info.rules),
                              console(here)))
      end
    end
    print_weights(S)
  end,
}

-- ---- engine commands: go, bot (the engine's author) ------------------------

-- A score for people: "+0.35" (pawns), or "win in 5" / "loss in 4" (plies).
local function score_text(score)
  local e = cheskers.engine
  if e and math.abs(score) >= e.MATE_MIN then
    local plies = e.WIN - math.abs(score)
    return string.format("%s in %d", score > 0 and "win" or "loss", plies)
  end
  return string.format("%+.2f", score / 100)
end

local function rate_text(n)
  if n >= 1e6 then return string.format("%.1fM", n / 1e6) end
  if n >= 1e3 then return string.format("%.0fk", n / 1e3) end
  return tostring(math.floor(n))
end

-- The texts of the moves of a line (at most max, then "...").
local function line_words(pv, max)
  local t = {}
  for i, m in ipairs(pv) do
    if i > max then t[#t + 1] = "..." break end
    t[#t + 1] = tostring(m)
  end
  return t
end

-- One analysis line: depth, score, nodes, speed, time and the line of
-- play, wrapped between moves (79 columns, the next lines indented).
local function info_text(t)
  if t.tb then
    return draw.wrap(string.format("tablebase     score %-11s", score_text(t.score)), line_words(t.pv, 16), 8)
  end
  local head = string.format("depth %2d/%-2d  score %-11s nodes %-9d %6s nps  %6.2f s",
    t.depth, t.seldepth, score_text(t.score), t.nodes, rate_text(t.nps), t.time)
  return draw.wrap(head, line_words(t.pv, 16), 8)
end

-- The live line of an iteration in progress (a partial report): depth,
-- the best line so far, nodes and time, cut to 79 columns.
local GO_EVERY = 0.5     -- seconds between live lines
local function partial_text(t)
  local text = string.format("depth %2d...  best so far %s (score %s)  %d nodes  %.1f s  %s",
    t.depth, tostring(t.pv[1]), score_text(t.score), t.nodes, t.time, table.concat(line_words(t.pv, 8), " "))
  return utf8.len(text) > 79 and text:sub(1, utf8.offset(text, 77) - 1) .. "..." or text
end

-- The info function of `go`: complete depths as lines, partial ones as the
-- live line on a terminal; keep(t) hears each (what Ctrl-C keeps).
local function go_reporter(S, keep)
  local live = S.tty_out and S.interactive
  return function(t)
    keep(t)
    if t.partial then
      if live then
        S.progress_shown = true
        S.out:write("\r", partial_text(t), "\27[K")
        S.out:flush()
      end
      return
    end
    S:clear_progress()
    S:print(info_text(t))
  end, live
end

-- The limits of `go`: "go" (2 seconds), "go 8" (depth 8), "go depth 8",
-- "go nodes 100000", "go time 5" / "go 5s", or name=value options.
local function go_limits(S, args)
  local o, i = {}, 1
  while i <= #args do
    local a = args[i]
    local k, v = a:match("^([%a_]+)=(.*)$")
    if not k and (a == "depth" or a == "nodes" or a == "time") then
      k, v = a, args[i + 1]
      i = i + 1
    end
    if not k then
      if a:match("^%d+$") then k, v = "depth", a
      elseif a:match("^[%d.]+s$") then k, v = "time", a:sub(1, -2)
      else
        S:fail("go: expected depth N, nodes N, time S, N (a depth) or Ns (seconds), not '" .. a .. "'"
               .. cheskers.did_you_mean(a, { "depth", "nodes", "time" }))
      end
    end
    if k ~= "depth" and k ~= "nodes" and k ~= "time" then
      S:fail("go: expected depth N, nodes N, time S, N (a depth) or Ns (seconds), not '" .. a .. "'"
             .. cheskers.did_you_mean(k, { "depth", "nodes", "time" }))
    end
    if v == nil then   -- "go depth" and nothing after
      S:fail(("go: %s must be %s, not nothing"):format(k,
        require("cheskers.schema").allowed(require("cheskers.numbers").spec("go " .. k))))
    end
    o[k] = count_arg(S, v, "go: " .. k, nil, "go " .. k)
    i = i + 1
  end
  if not o.depth and not o.nodes and not o.time then o.time = 2 end
  return o
end

command {
  name = "go", args = "[N | depth N | nodes N | time S | Ns]",
  help = "Engine analysis of the position: best line, score, depth and speed,\n" ..
    "a line per completed depth (on a terminal also a live line of the depth in\n" ..
    "progress). Default: 2 seconds. Ctrl-C stops it, keeping the best so far.\n" ..
    "With tablebases (`tb DIR` or CHESKERS_TB) the search probes them.\n" ..
    "The session keeps what go learnt (its search table) from one go to the next,\n" ..
    "so go again, or after a move, gets deeper sooner; other rules or weights\n" ..
    "start it afresh.\n" ..
    "Scores are in pawns for the side to move; \"win in N\" counts plies.",
  run = function(S, args)
    local f = engine_method(S.board, "search")
    if not f then S:fail("the engine is not built into this cheskers module") end
    local o = go_limits(S, args)
    if S.board:result() then S:fail("the game is over: nothing to analyse") end
    local last   -- the last report (a depth completed, or in progress): what Ctrl-C keeps
    local live
    o.info, live = go_reporter(S, function(t) last = t end)
    if live then o.info_every = GO_EVERY end
    o.tb = draw.tables()
    -- one search context a session (cheskers.engine.context): it forgets by
    -- itself when the rules or the weights change
    S.go_context = S.go_context or cheskers.engine.context()
    o.context = S.go_context
    local how, r = registry.catch_interrupt(f, S.board, o)
    S:clear_progress()
    if how == "interrupted" then
      if last and last.pv[1] then
        S:print(draw.wrap(string.format("stopped: best so far %s (score %s, depth %d%s), line",
          tostring(last.pv[1]), score_text(last.score), last.depth, last.partial and ", unfinished" or ""),
          line_words(last.pv, 16), 8))
      end
      return S:interrupted()
    end
    if r.move then
      S:print(string.format("best move %s (score %s, depth %d, %d nodes, %s nps)",
        tostring(r.move), score_text(r.score), r.depth, r.nodes, rate_text(r.nps)))
    end
  end,
}

-- The bot answering moves, when it is the bot's turn: plays its move on
-- the board. Called after each line once `bot` has been used.
local function bot_reply(S)
  local p = S.bot_player
  local b = S.board
  if not p or b:result() or b:turn() ~= p.color then return end
  -- the game loop's way of asking (cheskers.game.choose: the bot's box,
  -- its time cap, the one fault policy); Ctrl-C is raised through it
  local m, reason, detail = require("cheskers.game").choose(p.bot, b, p.limits)
  if not m then
    S.bot_player = nil
    local how = detail and detail:sub(1, #reason) == reason and detail
      or detail and reason .. ": " .. detail or reason
    S:error(console(string.format("bot %s failed (%s); bot off", p.bot.name, how)))
    return
  end
  b:play(m)
  S:print(string.format("%s (%s) plays %s", console(p.bot.name), p.color, tostring(m)))
  -- the board's status line says it when the board is drawn
  local over = movetext.game_over(b)
  if over and not S:autoshow() then S:print(over) end
end

command {
  name = "bot", args = "NAME[:OPTIONS] [white|black] | off",
  help = "Makes a bot answer your moves: NAME is a bot of scripts/bots/ (random,\n" ..
    "greedy, alphabeta, mcts, engine) or a Lua file, options as in\n" ..
    "`cheskers match` (engine:level=5). The bot plays the side given, by default\n" ..
    "the side not to move; it moves at once when that side is to move.\n" ..
    "`bot off` stops it. Budget: 20000 nodes a move (the bot's own options first).",
  complete = require("repl.complete").bot_words,
  run = function(S, args)
    local name = args[1]
    if not name then
      local p = S.bot_player
      S:print(p and string.format("bot %s plays %s", console(p.bot.name), p.color) or "no bot (bot NAME [white|black])")
      return
    end
    if name == "off" then
      S.bot_player = nil
      S:print("bot off")
      return
    end
    local color = args[2]
    if color and color ~= "white" and color ~= "black" then
      S:fail("bot: the side is white or black, not '" .. color .. "'")
    end
    if not color then color = S.board:turn() == "white" and "black" or "white" end
    local ok, bot = pcall(require("cheskers.bots").load, name)
    if not ok then S:fail(tostring(bot)) end
    local okn, _, err = require("cheskers.game").start(bot, S.board:rules())
    if not okn then S:fail("bot " .. name .. ": " .. tostring(err)) end
    S.bot_player = { bot = bot, color = color, limits = { nodes = 20000 } }
    S:print(string.format("bot %s plays %s", console(bot.name), color))
    -- answer after every line of this session (moves typed, play, redo ...)
    S:answer_after_lines("bot", bot_reply, function(self) self.bot_player = nil end)
  end,
}
