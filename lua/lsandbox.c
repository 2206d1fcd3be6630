/*
 * lsandbox.c - the module "cheskers.budget": the limits under which
 * cheskers.sandbox (lua/cheskers/sandbox.lua, the one sandbox) runs untrusted
 * Lua. A budget is a userdata that lives as long as its box and carries:
 *
 *   memory        the bytes the box may HOLD, over its whole life: while it
 *                 runs, the Lua state's allocator forwards to the real one
 *                 and refuses growth past the cap, so no single instruction
 *                 (a long concatenation, a table resize) gets past it. The
 *                 running total carries over from call to call. Frees are
 *                 credited to the box running, so a run starts with a full
 *                 collection (others' garbage is not the box's credit) and,
 *                 when it grew, ends with one while the box's allocator still
 *                 counts (its garbage is). Objects the box made that the
 *                 runner drops later stay counted: the total errs high.
 *   instructions  Lua VM instructions per call, counted by a C count hook.
 *   time          a wall-clock deadline per call, checked by the same hook.
 *
 *   budget.new(memory|nil, instructions|nil) -> budget   (nil: no such cap)
 *   budget:run(seconds|nil, handler|nil, f, ...) -> true, results... | false, error
 *       calls f(...) in protected mode (with the message handler) under the
 *       caps (and the deadline, seconds from now). Once a cap is passed the hook raises at every
 *       instruction, so neither pcall nor a message handler can go on.
 *       Calls with a memory cap do not nest.
 *   budget:why()   -> nil | "time" | "instructions" | "memory"  (last run)
 *   budget:used()  -> bytes held by the box (its running total)
 *   budget:count() -> instructions of the last run
 *   budget.interrupted() -> whether Ctrl-C came since the last run started
 *
 * The bookkeeping lives in the userdata; the running budget is found by the
 * hook through the registry (no globals).
 */
#include <stddef.h>

#include "lauxlib.h"
#include "lua.h"

#include "lbind.h"

#define BUDGET_MT "cheskers.budget"
#define HOOK_STEP 100           /* instructions between two hook calls */

typedef struct Budget {
    lua_Alloc f;            /* the allocator forwarded to while running */
    void *ud;
    ptrdiff_t used;         /* bytes held: net growth over all runs */
    ptrdiff_t limit;        /* 0: no memory cap */
    ptrdiff_t entered;      /* used when the run started */
    lua_Integer count;      /* instructions of the run going on */
    lua_Integer max;        /* 0: no instruction cap */
    double deadline;        /* monotonic seconds; 0: none */
    const char *why;        /* the cap that stopped the last run, or NULL */
    int refused;            /* allocations refused in this run */
} Budget;

static const char HOOK_KEY = 'b';   /* registry[&HOOK_KEY]: the budget running */

/* The budget at arg (raises otherwise). */
static Budget *checkbudget(lua_State *L, int arg)
{
    return luaL_checkudata(L, arg, BUDGET_MT);
}

/* Forwards to the saved allocator; refuses growth past the cap. Shrinking
 * and freeing never fail, as Lua requires. */
static void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Budget *b = ud;
    size_t old = ptr ? osize : 0;
    if (b->limit > 0 && nsize > old &&
        (nsize - old > (size_t)b->limit || b->used + (ptrdiff_t)(nsize - old) > b->limit)) {
        b->refused++;
        return NULL;
    }
    void *q = b->f(b->ud, ptr, osize, nsize);
    if (q != NULL || nsize == 0)
        b->used += (ptrdiff_t)nsize - (ptrdiff_t)old;
    return q;
}

/* The message of a passed cap. */
static const char *why_message(const char *why)
{
    if (why[0] == 't')
        return "sandbox: time limit";
    if (why[0] == 'i')
        return "sandbox: instruction limit";
    return "sandbox: memory limit";
}

/* The count hook: counts, checks the deadline, and once a cap is passed
 * raises at every instruction. */
static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &HOOK_KEY);
    Budget *b = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (b == NULL)
        return;
    if (b->why == NULL) {
        b->count += HOOK_STEP;
        if (b->max > 0 && b->count > b->max)
            b->why = "instructions";
        else if (b->deadline > 0 && chk_clock() > b->deadline)
            b->why = "time";
        if (b->why == NULL)
            return;
        lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
    }
    luaL_error(L, "%s", why_message(b->why));
}

/* budget.new(memory|nil, instructions|nil) */
static int budget_new(lua_State *L)
{
    lua_Integer memory = luaL_optinteger(L, 1, 0);
    lua_Integer instructions = luaL_optinteger(L, 2, 0);
    luaL_argcheck(L, memory >= 0, 1, "the memory cap must not be negative");
    luaL_argcheck(L, instructions >= 0, 2, "the instruction cap must not be negative");
    Budget *b = lua_newuserdatauv(L, sizeof *b, 0);
    b->f = NULL;
    b->ud = NULL;
    b->used = 0;
    b->entered = 0;
    b->limit = memory > PTRDIFF_MAX / 2 ? PTRDIFF_MAX / 2 : (ptrdiff_t)memory;
    b->count = 0;
    b->max = instructions;
    b->deadline = 0;
    b->why = NULL;
    b->refused = 0;
    luaL_setmetatable(L, BUDGET_MT);
    return 1;
}

/* What a run saves and restores: the hook and budget it replaces. */
typedef struct Saved {
    lua_Hook hook;
    int mask, count;
} Saved;

/* Installs b (its allocator when capped, its hook); the budget it replaces
 * is left on the stack for leave. */
static void enter(lua_State *L, Budget *b, double seconds, Saved *s)
{
    s->hook = lua_gethook(L);
    s->mask = lua_gethookmask(L);
    s->count = lua_gethookcount(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &HOOK_KEY);
    lua_pushlightuserdata(L, b);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &HOOK_KEY);
    b->count = 0;
    b->why = NULL;
    b->refused = 0;
    b->deadline = seconds > 0 ? chk_clock() + seconds : 0;
    *lb_interrupt_flag() = 0;    /* see budget.interrupted */
    if (b->limit > 0) {
        lua_gc(L, LUA_GCCOLLECT);
        b->entered = b->used;
        b->f = lua_getallocf(L, &b->ud);
        lua_setallocf(L, budget_alloc, b);
    }
    if (b->max > 0 || b->deadline > 0)     /* else the caller's hook stays */
        lua_sethook(L, budget_hook, LUA_MASKCOUNT, HOOK_STEP);
}

/* Undoes enter: credits the box's garbage (a full collection while its
 * allocator still counts), restores the allocator, the hook and the budget
 * that was running (at index saved). */
static void leave(lua_State *L, Budget *b, const Saved *s, int saved)
{
    lua_sethook(L, s->hook, s->mask, s->count);
    if (b->limit > 0) {
        if (b->used > b->entered)
            lua_gc(L, LUA_GCCOLLECT);
        lua_setallocf(L, b->f, b->ud);
        if (b->used < 0)
            b->used = 0;
    }
    lua_pushvalue(L, saved);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &HOOK_KEY);
}

/* budget:run(seconds|nil, handler|nil, f, ...) */
static int budget_run(lua_State *L)
{
    Budget *b = checkbudget(L, 1);
    lua_Number seconds = luaL_optnumber(L, 2, 0);
    luaL_argcheck(L, seconds >= 0 && seconds < 1e9, 2, "seconds must be >= 0");
    luaL_argcheck(L, lua_isnoneornil(L, 3) || lua_isfunction(L, 3), 3, "a handler must be a function");
    luaL_checkany(L, 4);
    void *ud;
    luaL_argcheck(L, b->limit == 0 || lua_getallocf(L, &ud) != budget_alloc, 1,
                  "budget runs with a memory cap do not nest");
    int nargs = lua_gettop(L) - 4;
    Saved s;
    enter(L, b, seconds, &s);
    lua_insert(L, 4);                   /* the budget replaced, below f */
    int status = lua_pcall(L, nargs, LUA_MULTRET, lua_isnil(L, 3) ? 0 : 3);
    leave(L, b, &s, 4);
    if (b->refused > 0 && b->why == NULL)   /* even when the box caught it */
        b->why = "memory";
    lua_pushboolean(L, status == LUA_OK);
    lua_replace(L, 4);                  /* status, results... */
    return lua_gettop(L) - 3;
}

static int budget_why(lua_State *L)
{
    Budget *b = checkbudget(L, 1);
    if (b->why == NULL && b->refused > 0)   /* asked while the run goes on */
        lua_pushliteral(L, "memory");
    else if (b->why)
        lua_pushstring(L, b->why);
    else
        lua_pushnil(L);
    return 1;
}

static int budget_used(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)checkbudget(L, 1)->used);
    return 1;
}

static int budget_count(lua_State *L)
{
    lua_pushinteger(L, checkbudget(L, 1)->count);
    return 1;
}

/* budget.interrupted(): whether Ctrl-C (or cheskers.interrupt) came since
 * the last run started. An "interrupted" error value alone proves nothing:
 * a box can rewrite the code of an error value it caught. */
static int budget_interrupted(lua_State *L)
{
    lua_pushboolean(L, *lb_interrupt_flag() != 0);
    return 1;
}

int luaopen_cheskers_budget(lua_State *L)
{
    static const luaL_Reg funcs[] = {
        { "new", budget_new },
        { "interrupted", budget_interrupted },
        { NULL, NULL }
    };
    static const luaL_Reg methods[] = {
        { "run", budget_run },
        { "why", budget_why },
        { "used", budget_used },
        { "count", budget_count },
        { NULL, NULL }
    };
    if (luaL_newmetatable(L, BUDGET_MT)) {
        luaL_newlib(L, methods);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    luaL_newlib(L, funcs);
    return 1;
}
