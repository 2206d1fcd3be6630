/*
 * main.c - the cheskers program: Lua 5.4 with the cheskers module built in.
 *
 * Shaped like lua.c, but everything past start-up is Lua: C creates the
 * state, preloads the C modules ("cheskers", the binding, and
 * "cheskers.readline", term.c), makes the Lua library findable and hands
 * the command line to repl.start.main (repl/start.lua), which parses the
 * options and runs a script, code, REPL commands, a subcommand
 * (cheskers.cmd.<word>) or the REPL (repl.session). Its result is the exit
 * status.
 *
 * The Lua library is found in the source tree next to the executable
 * (<dir of /proc/self/exe>/lua/, the program's own Lua in repl/), in <that dir>/../share/lua/5.4 and where
 * `make install` puts it (CHESKERS_LUADIR), ahead of the usual LUA_PATH.
 */
#include <limits.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#include "lcheskers.h"
#include "term.h"

#ifndef CHESKERS_LUADIR
#define CHESKERS_LUADIR "/usr/local/share/lua/5.4"
#endif

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

static void preload(lua_State *L, const char *name, lua_CFunction open)
{
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, open);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

/* Prepends to package.path (each with its ?.lua and ?/init.lua entries, so
 * that require "cheskers" finds cheskers/init.lua), in this order: the
 * source tree's lua/ (beside the executable: the library) and repl/ (the
 * program's cheskers.cli and cheskers.cmd.WORD, repl/cheskers/), the
 * installed tree relative to the executable
 * (<bin>/../share/lua/5.4, so a relocated or DESTDIR install works) and
 * CHESKERS_LUADIR (where `make install` put it). The REPL's own modules
 * (repl.session, repl.commands.game, ...) are found as <exe dir>/?.lua in
 * the source tree (repl/ beside the executable) and, installed, under
 * cheskers/repl/ of those Lua directories (<dir>/cheskers/?.lua). */
static void set_path(lua_State *L)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    luaL_Buffer b;
    lua_getglobal(L, "package");
    luaL_buffinit(L, &b);
    if (n > 0) {
        char *slash;
        exe[n] = '\0';
        slash = strrchr(exe, '/');
        if (slash != NULL) {
            *slash = '\0';
            luaL_addstring(&b, exe);
            luaL_addstring(&b, "/lua/?.lua;");
            luaL_addstring(&b, exe);
            luaL_addstring(&b, "/lua/?/init.lua;");
            luaL_addstring(&b, exe);
            luaL_addstring(&b, "/repl/?.lua;");
            luaL_addstring(&b, exe);
            luaL_addstring(&b, "/?.lua;");
            luaL_addstring(&b, exe);
            luaL_addstring(&b, "/../share/lua/5.4/?.lua;");
            luaL_addstring(&b, exe);
            luaL_addstring(&b, "/../share/lua/5.4/?/init.lua;");
            luaL_addstring(&b, exe);
            luaL_addstring(&b, "/../share/lua/5.4/cheskers/?.lua;");
        }
    }
    luaL_addstring(&b, CHESKERS_LUADIR "/?.lua;" CHESKERS_LUADIR "/?/init.lua;");
    luaL_addstring(&b, CHESKERS_LUADIR "/cheskers/?.lua;");
    lua_getfield(L, -2, "path");
    luaL_addvalue(&b);
    luaL_pushresult(&b);
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
}

/* Message handler for the start-up call: adds a traceback. */
static int msghandler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL)
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* Whether package.path finds the program's Lua start (repl/start.lua);
 * else says in one line where it looked and what to do (a program copied
 * away from its source tree and not installed: no Lua traceback). */
static bool start_found(lua_State *L)
{
    bool found;
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "searchpath");
    lua_pushliteral(L, "repl.start");
    lua_getfield(L, -3, "path");
    lua_call(L, 2, 1);
    found = !lua_isnil(L, -1);
    lua_pop(L, 2);
    if (!found)
        fprintf(stderr, "cheskers: its Lua library is not here: neither beside the program (lua/ "
                        "and repl/ of the source tree) nor installed (../share/lua/5.4 from the "
                        "program, or " CHESKERS_LUADIR "); run it from the source tree after "
                        "make, or make install\n");
    return found;
}

/* pmain(argc, argv): opens everything and returns repl.start.main's
 * result (false when the Lua library is missing). */
static int pmain(lua_State *L)
{
    int argc = (int)lua_tointeger(L, 1);
    char **argv = lua_touserdata(L, 2);
    int i;
    luaL_checkversion(L);
    luaL_openlibs(L);
    preload(L, "cheskers.core", luaopen_cheskers_core);
    preload(L, "cheskers.readline", luaopen_cheskers_readline);
    set_path(L);
    lua_gc(L, LUA_GCRESTART);
    lua_gc(L, LUA_GCGEN, 0, 0);
    if (!start_found(L)) {
        lua_pushboolean(L, false);
        return 1;
    }
    lua_getglobal(L, "require");
    lua_pushliteral(L, "repl.start");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "main");
    lua_pushstring(L, argv[0] != NULL ? argv[0] : "cheskers");
    lua_createtable(L, argc > 1 ? argc - 1 : 0, 0);
    for (i = 1; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    lua_call(L, 2, 1);
    return 1;
}

int main(int argc, char **argv)
{
    lua_State *L = luaL_newstate();
    int status, code;
    if (L == NULL) {
        fprintf(stderr, "cheskers: cannot create the Lua state: not enough memory\n");
        return EXIT_FAILURE;
    }
    setlocale(LC_CTYPE, ""); /* readline reads UTF-8 input */
    lua_gc(L, LUA_GCSTOP);   /* no collection during start-up */
    lua_pushcfunction(L, msghandler);
    lua_pushcfunction(L, pmain);
    lua_pushinteger(L, argc);
    lua_pushlightuserdata(L, argv);
    status = lua_pcall(L, 2, 1, 1);
    if (status != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        fprintf(stderr, "cheskers: %s\n", msg != NULL ? msg : "(error object is not a string)");
        code = EXIT_FAILURE;
    } else if (lua_isinteger(L, -1)) {
        code = (int)lua_tointeger(L, -1);
    } else {
        code = lua_isnil(L, -1) || lua_toboolean(L, -1) ? EXIT_SUCCESS : EXIT_FAILURE;
    }
    fflush(stdout);
    lua_close(L);
    return code;
}
