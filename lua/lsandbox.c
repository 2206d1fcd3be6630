/*
 * lsandbox.c - the module "cheskers.sandbox": runs a function with a cap on
 * the memory it may allocate, enforced by the allocator itself, so that no
 * single instruction (a long concatenation, a table resize) can go past it.
 * Used by cheskers.puzzle to load puzzle files as data.
 *
 *   sandbox.run(limit, f, ...) -> true, results... | false, message
 *       calls f(...) in protected mode while the Lua state's allocator
 *       refuses to let the memory in use grow by more than limit bytes
 *       (net of what is freed meanwhile); an allocation past the cap fails
 *       and f gets the error "not enough memory". The allocator is restored
 *       before run returns, whatever happened. Calls do not nest.
 *
 * The cap's bookkeeping lives on the C stack of run (no globals).
 */
#include <stddef.h>

#include "lauxlib.h"
#include "lua.h"

#include "lcheskers.h"

typedef struct Budget {
    lua_Alloc f;        /* the allocator to forward to */
    void *ud;
    ptrdiff_t used;     /* net growth since run started */
    ptrdiff_t limit;
} Budget;

/* Forwards to the saved allocator; refuses growth past the cap. Shrinking
 * and freeing never fail, as Lua requires. */
static void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Budget *b = ud;
    size_t old = ptr ? osize : 0;
    if (nsize > old && b->used + (ptrdiff_t)(nsize - old) > b->limit)
        return NULL;
    void *q = b->f(b->ud, ptr, osize, nsize);
    if (q != NULL || nsize == 0)
        b->used += (ptrdiff_t)nsize - (ptrdiff_t)old;
    return q;
}

/* sandbox.run(limit, f, ...) */
static int sandbox_run(lua_State *L)
{
    lua_Integer limit = luaL_checkinteger(L, 1);
    luaL_argcheck(L, limit > 0, 1, "the limit must be positive");
    luaL_checkany(L, 2);
    Budget b;
    b.f = lua_getallocf(L, &b.ud);
    luaL_argcheck(L, b.f != budget_alloc, 1, "sandbox.run calls do not nest");
    b.used = 0;
    b.limit = limit > PTRDIFF_MAX / 2 ? PTRDIFF_MAX / 2 : (ptrdiff_t)limit;
    int nargs = lua_gettop(L) - 2;
    lua_setallocf(L, budget_alloc, &b);
    int status = lua_pcall(L, nargs, LUA_MULTRET, 0);
    lua_setallocf(L, b.f, b.ud);
    lua_pushboolean(L, status == LUA_OK);
    lua_replace(L, 1);      /* status, results... (the limit's slot reused) */
    return lua_gettop(L);
}

int luaopen_cheskers_sandbox(lua_State *L)
{
    static const luaL_Reg funcs[] = {
        { "run", sandbox_run },
        { NULL, NULL }
    };
    luaL_newlib(L, funcs);
    return 1;
}
