-- cheskers-0.1.0-1.rockspec - the Lua module "cheskers" (the C rules core,
-- engine and solver with their Lua binding) and its pure-Lua submodules.
-- The program ./cheskers is built and installed by the Makefile, not here,
-- and so are its Lua modules (repl/: cheskers.cli, cheskers.cmd.WORD).
--   luarocks make --local          (from the repository root)
-- tests/tools/install_test.sh checks that the lists below name every source file
-- of the tree (core/*.c, lua/binding/*.c, lua/cheskers/**/*.lua) and, when luarocks
-- is installed, that `luarocks make` builds a module lua5.4 can load. The
-- build is portable: LuaRocks' own CFLAGS, no -march=native.
rockspec_format = "3.0"
package = "cheskers"
version = "0.1.0-1"
source = {
   -- a placeholder: set the project's real repository and tag on release
   url = "git+https://example.invalid/cheskers.git",
   tag = "v0.1.0",
}
description = {
   summary = "Cheskers (Golomb's chess/checkers hybrid): rules, engine, solver",
   detailed = [[
A C11 rules core for Cheskers with every rule option of its rule book,
perft, a search engine and a forced-win solver, exposed to Lua 5.4 as the
module "cheskers" (boards, moves, rule sets with Lua hooks), with pure-Lua
helpers for game records, puzzles, matches and rule experiments.]],
   license = "MIT",
   labels = { "game", "chess", "checkers" },
}
-- every Lua module the code requires (Debian: lua-argparse, lua-cjson,
-- lua-dkjson, lua-filesystem; make deps installs them). cheskers serve also
-- needs lua-http (Debian's, from make deps; the rock "http"): not a
-- dependency here, since the library works without it (serve says what is
-- missing). Its page's files lua/cheskers/web/ are build.install.lua below.
dependencies = {
   "lua >= 5.4, < 5.5",
   "argparse",
   "lua-cjson",
   "dkjson",
   "luafilesystem",
}
-- the tablebase files are zstd blocks (Debian: libzstd-dev; make deps installs it)
external_dependencies = {
   ZSTD = { header = "zstd.h", library = "zstd" },
}
build = {
   type = "builtin",
   modules = {
      ["cheskers.core"] = {
         sources = {
            "lua/binding/lbind.c", "lua/binding/lboard.c", "lua/binding/lcheskers.c", "lua/binding/lengine.c", "lua/binding/lerror.c",
            "lua/binding/lmove.c", "lua/binding/lperft.c", "lua/binding/lrules.c", "lua/binding/lsandbox.c", "lua/binding/lsolve.c",
            "lua/binding/ltb.c", "lua/binding/lsys.c", "lua/binding/lhook.c", "lua/binding/lopt.c", "lua/binding/lstop.c",
            "core/tb.c", "core/tb_build.c", "core/tb_file.c",
            "core/tb_index.c", "core/tb_walk.c",
            "core/board.c", "core/eval.c", "core/movegen.c", "core/movetext.c", "core/result.c",
            "core/squares.c",
            "core/perft.c", "core/rules.c", "core/search.c", "core/search_tb.c", "core/search_tt.c",
            "core/solve.c", "core/status.c",
            "core/suggest.c",
         },
         incdirs = { "core", "lua/binding", "$(ZSTD_INCDIR)" },
         libdirs = { "$(ZSTD_LIBDIR)" },
         libraries = { "zstd" },
         defines = { "_POSIX_C_SOURCE=200809L" },
      },
      ["cheskers"] = "lua/cheskers/init.lua",
      ["cheskers.book"] = "lua/cheskers/book.lua",
      ["cheskers.bots"] = "lua/cheskers/bots.lua",
      ["cheskers.chart"] = "lua/cheskers/chart.lua",
      ["cheskers.escape"] = "lua/cheskers/escape.lua",
      ["cheskers.experiment"] = "lua/cheskers/experiment.lua",
      ["cheskers.files"] = "lua/cheskers/files.lua",
      ["cheskers.game"] = "lua/cheskers/game.lua",
      ["cheskers.luadata"] = "lua/cheskers/luadata.lua",
      ["cheskers.match"] = "lua/cheskers/match.lua",
      ["cheskers.mine"] = "lua/cheskers/mine.lua",
      ["cheskers.tournament"] = "lua/cheskers/tournament.lua",
      ["cheskers.meta.cheskers"] = "lua/cheskers/meta/cheskers.lua",
      ["cheskers.measures"] = "lua/cheskers/measures.lua",
      ["cheskers.puzzle"] = "lua/cheskers/puzzle.lua",
      ["cheskers.record"] = "lua/cheskers/record.lua",
      ["cheskers.report"] = "lua/cheskers/report.lua",
      ["cheskers.report_html"] = "lua/cheskers/report_html.lua",
      ["cheskers.movetext"] = "lua/cheskers/movetext.lua",
      ["cheskers.rulearg"] = "lua/cheskers/rulearg.lua",
      ["cheskers.rulespec"] = "lua/cheskers/rulespec.lua",
      ["cheskers.sandbox"] = "lua/cheskers/sandbox.lua",
      ["cheskers.schema"] = "lua/cheskers/schema.lua",
      ["cheskers.numbers"] = "lua/cheskers/numbers.lua",
      ["cheskers.selfplay"] = "lua/cheskers/selfplay.lua",
      ["cheskers.stats"] = "lua/cheskers/stats.lua",
      ["cheskers.store"] = "lua/cheskers/store.lua",
      ["cheskers.store.file"] = "lua/cheskers/store/file.lua",
      ["cheskers.store.fingerprint"] = "lua/cheskers/store/fingerprint.lua",
      ["cheskers.store.json"] = "lua/cheskers/store/json.lua",
      ["cheskers.store.lock"] = "lua/cheskers/store/lock.lua",
      ["cheskers.svg"] = "lua/cheskers/svg.lua",
      ["cheskers.tables"] = "lua/cheskers/tables.lua",
      ["cheskers.tune"] = "lua/cheskers/tune.lua",
      ["cheskers.fitted"] = "lua/cheskers/fitted.lua",
      ["cheskers.design"] = "lua/cheskers/design.lua",
      ["cheskers.design_report"] = "lua/cheskers/design_report.lua",
      ["cheskers.tbmoves"] = "lua/cheskers/tbmoves.lua",
      ["cheskers.webapi"] = "lua/cheskers/webapi.lua",
      ["cheskers.worker"] = "lua/cheskers/worker.lua",
      ["cheskers.server"] = "lua/cheskers/server.lua",
   },
   -- the board's page, installed beside cheskers/server.lua as
   -- cheskers/web/board.* (a dotted key names the folder: "cheskers.web.X"
   -- lands in cheskers/web/ under the file's own name), where
   -- server.web_dir() looks, as after make install
   install = {
      lua = {
         ["cheskers.web.board_css"] = "lua/cheskers/web/board.css",
         ["cheskers.web.board_html"] = "lua/cheskers/web/board.html",
         ["cheskers.web.board_js"] = "lua/cheskers/web/board.js",
      },
   },
   copy_directories = { "docs" },
}
test = {
   type = "command",
   command = "make test",
}
