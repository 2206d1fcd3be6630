/*
 * fuzz_record.c - libFuzzer target: the game-record reader, the pure-Lua
 * module cheskers.record (lua/cheskers/record.lua), run in an embedded Lua
 * 5.4 with the cheskers module (the binding, instrumented) preloaded.
 *
 * Input: a record text. record.read must return a board and tags or nil and
 * "line N: message", never raise; a record it reads must write out
 * (record.write) as text that reads back to the same position and moves;
 * record.read_all must agree with record.read on the first game.
 *
 * libFuzzer sees the Lua code's coverage through a line hook that counts
 * (chunk, previous line, line) pairs into an extra counters region.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lauxlib.h"
#include "lualib.h"
#include "lcheskers.h"

#ifndef FUZZ_LUADIR
#define FUZZ_LUADIR "lua"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NCOUNTERS 65536
__attribute__((used, section("__libfuzzer_extra_counters")))
static uint8_t lua_counters[NCOUNTERS];
static uintptr_t prev_line;

static void line_hook(lua_State *L, lua_Debug *ar)
{
    if (!lua_getinfo(L, "S", ar))
        return;
    uintptr_t cur = (uintptr_t)ar->source * 31u + (uintptr_t)ar->currentline * 2654435761u;
    size_t i = (size_t)((cur ^ (prev_line >> 1)) % NCOUNTERS);
    if (lua_counters[i] < 255)
        lua_counters[i]++;
    prev_line = cur;
}

/* The checks, in Lua: returns a function(text) that raises on a broken rule. */
static const char checker[] =
    "local record = require 'cheskers.record'\n"
    "local function same_game(a, b, what)\n"
    "  assert(a:fen() == b:fen(), what .. ': position ' .. a:fen() .. ' vs ' .. b:fen())\n"
    "  local ha, hb = a:history(), b:history()\n"
    "  assert(#ha == #hb, what .. ': ' .. #ha .. ' moves vs ' .. #hb)\n"
    "  for i = 1, #ha do\n"
    "    assert(tostring(ha[i]) == tostring(hb[i]), what .. ': move ' .. i .. ' differs')\n"
    "  end\n"
    "end\n"
    "return function(text)\n"
    "  local b, tags = record.read(text)\n"
    "  local all, err = record.read_all(text)\n"
    "  if not b then\n"
    "    assert(type(tags) == 'string' and tags:match('^line %d+: '),\n"
    "           'refused without a line number: ' .. tostring(tags))\n"
    "    return\n"
    "  end\n"
    "  assert(type(tags) == 'table', 'no tags')\n"
    "  if all then same_game(b, all[1].board, 'read_all') end\n"
    "  local out = record.write(b, tags)\n"
    "  local b2, t2 = record.read(out)\n"
    "  assert(b2, 'own record refused: ' .. tostring(t2) .. '\\n' .. out)\n"
    "  same_game(b, b2, 'write then read')\n"
    "end\n";

static lua_State *L;

static void setup(void)
{
    L = luaL_newstate();
    if (!L)
        abort();
    luaL_openlibs(L);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_cheskers_core);
    lua_setfield(L, -2, "cheskers.core");      /* FUZZ_LUADIR has cheskers/init.lua */
    lua_pop(L, 1);
    lua_getglobal(L, "package");
    lua_pushstring(L, FUZZ_LUADIR "/?.lua;" FUZZ_LUADIR "/?/init.lua");
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
    if (luaL_loadbuffer(L, checker, sizeof checker - 1, "=checker") || lua_pcall(L, 0, 1, 0)) {
        fprintf(stderr, "fuzz_record: cannot load cheskers.record: %s\n", lua_tostring(L, -1));
        abort();
    }
    lua_setfield(L, LUA_REGISTRYINDEX, "fuzz_check");
    lua_sethook(L, line_hook, LUA_MASKLINE, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned long runs;
    if (size > 8192)
        return 0;
    if (!L)
        setup();
    prev_line = 0;
    lua_settop(L, 0);
    lua_getfield(L, LUA_REGISTRYINDEX, "fuzz_check");
    lua_pushlstring(L, (const char *)data, size);
    if (lua_pcall(L, 1, 0, 0)) {
        fprintf(stderr, "record reader broke a rule: %s\n", lua_tostring(L, -1));
        abort();
    }
    if (++runs % 256 == 0)
        lua_gc(L, LUA_GCCOLLECT);
    return 0;
}
