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
 *                 when it grew, ends with two while the box's allocator still
 *                 counts (its garbage is; the second frees what finalizers,
 *                 a board's __gc, let go of). Objects the box made that the
 *                 runner drops later stay counted: the total errs high.
 *                 The C memory the binding keeps for Lua code (boards'
 *                 histories and plies, inner search contexts) comes from
 *                 this allocator too (lbind.h: State.alloc), so it counts.
 *   instructions  Lua VM instructions per call, counted by a C count hook.
 *   time          CPU seconds per call (the process's CPU clock,
 *                 chk_cpu_clock, so a loaded machine does not shorten it),
 *                 and a backstop of wall-clock seconds per call (a call that
 *                 waits uses no CPU), both checked by the same hook: the
 *                 wall clock at every hook call, the CPU clock (a system
 *                 call) at most once a millisecond of wall time. The long
 *                 core calls (search, perft, divide, solve) that run meanwhile
 *                 stop at CORE_SHARE of each (lb_stop reads State.box_*), so
 *                 that a search cut short there leaves the box time to
 *                 answer with its move.
 *   nesting       A run that starts while another runs (a box's function
 *                 called from inside another box's run: a rule hook of an
 *                 experiment under a bot's search, or the same box's hook
 *                 under its own core call) ends by the deadlines of the
 *                 outer run too, whichever come first: no chain of runs
 *                 gets more time than the outermost was given.
 *
 *   budget.new(memory|nil, instructions|nil) -> budget   (nil: no such cap)
 *   budget:run(cpu|nil, wall|nil, handler|nil, f, ...) -> true, results... | false, error
 *       calls f(...) in protected mode (with the message handler) under the
 *       caps (cpu: CPU seconds, wall: the wall-clock backstop, in seconds;
 *       nil or 0: none). Once a cap is passed the hook raises at every
 *       instruction, so neither pcall nor a message handler can go on. A
 *       call that passed a time cap where the hook could not see it (in a
 *       C function) has passed it too: why() says so even when f returned.
 *       Calls with a memory cap do not nest.
 *   budget:limits() -> CPU seconds, wall seconds the last run was given (the
 *                     outer run's deadlines may have made them shorter; nil:
 *                     none)
 *   budget.CORE_SHARE -> the share of a run's time caps at which core calls stop
 *   budget:why()   -> nil | "time" (CPU) | "backstop" (wall clock) |
 *                     "instructions" | "memory"  (last run)
 *   budget:spent() -> CPU seconds, wall seconds of the last run
 *   budget:used()  -> bytes held by the box (its running total)
 *   budget:count() -> instructions of the last run
 *   budget.interrupted() -> whether Ctrl-C came since the last run started
 *   budget.hook_failures(board) -> n, message | nil
 *       how many times a rule hook (filter, result) of the board's rule set
 *       raised when the core called it, in this Lua state: copies of the
 *       board and boards made with the same rules share the count. message:
 *       the last one's first line. A box cannot forge a failure (it cannot
 *       raise inside a hook the core called but by making that hook fail):
 *       the runner compares the counts before and after a bot's move to
 *       tell the rules' fault from the bot's.
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
#define CPU_READ_EVERY 0.001    /* wall seconds between two reads of the CPU clock */
#define CORE_SHARE 0.9          /* core calls stop at this share of a run's time caps */

typedef struct Budget {
    lua_Alloc f;            /* the allocator forwarded to while running */
    void *ud;
    ptrdiff_t used;         /* bytes held: net growth over all runs */
    ptrdiff_t limit;        /* 0: no memory cap */
    ptrdiff_t entered;      /* used when the run started */
    lua_Integer count;      /* instructions of the run going on */
    lua_Integer max;        /* 0: no instruction cap */
    double cpu_deadline;    /* the chk_cpu_clock() time the run must end by; 0: none */
    double wall_deadline;   /* the chk_clock() time (the backstop); 0: none */
    double cpu_given;       /* the seconds they gave the last run (budget:limits) */
    double wall_given;
    double cpu_start;       /* chk_cpu_clock() when the run started */
    double wall_start;      /* chk_clock() when the run started */
    double cpu_next;        /* chk_clock() time of the next CPU clock read */
    double cpu_spent;       /* of the last run */
    double wall_spent;
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
        return "sandbox: CPU time limit";
    if (why[0] == 'b')
        return "sandbox: wall-clock backstop";
    if (why[0] == 'i')
        return "sandbox: instruction limit";
    return "sandbox: memory limit";
}

/* The time cap b has passed ("time", "backstop"), or NULL. Reads the CPU
 * clock only once CPU_READ_EVERY has passed since the last read: a run may
 * overrun its CPU limit by that much wall time. */
static const char *time_passed(Budget *b)
{
    double now = chk_clock();
    if (b->wall_deadline > 0 && now > b->wall_deadline)
        return "backstop";
    if (b->cpu_deadline > 0 && now >= b->cpu_next) {
        b->cpu_next = now + CPU_READ_EVERY;
        if (chk_cpu_clock() > b->cpu_deadline)
            return "time";
    }
    return NULL;
}

/* The count hook: counts, checks the time caps, and once a cap is passed
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
        else
            b->why = time_passed(b);
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
    b->cpu_deadline = b->wall_deadline = b->cpu_given = b->wall_given = 0;
    b->cpu_start = b->wall_start = b->cpu_next = 0;
    b->cpu_spent = b->wall_spent = 0;
    b->why = NULL;
    b->refused = 0;
    luaL_setmetatable(L, BUDGET_MT);
    return 1;
}

/* What a run saves and restores: the hook and budget it replaces, the core
 * calls' deadlines, and the budget's own run when it runs already (a box's
 * hook under its own core call). */
typedef struct Saved {
    lua_Hook hook;
    int mask, count;
    double box_deadline, box_cpu_deadline;
    bool again;         /* b was the budget running: run holds its fields */
    Budget run;
} Saved;

/* The earlier of two deadlines (0: none). */
static double earlier(double a, double b)
{
    return a > 0 && (b <= 0 || a < b) ? a : b;
}

/* Installs b (its allocator when capped, its hook) and starts its clocks;
 * its deadlines and the core calls' are the earlier of its own and the
 * outer run's. The budget it replaces is left on the stack for leave. */
static void enter(lua_State *L, Budget *b, double cpu, double wall, Saved *s)
{
    State *st = lb_state(L);
    s->hook = lua_gethook(L);
    s->mask = lua_gethookmask(L);
    s->count = lua_gethookcount(L);
    s->box_deadline = st->box_deadline;
    s->box_cpu_deadline = st->box_cpu_deadline;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &HOOK_KEY);
    const Budget *outer = lua_touserdata(L, -1);
    double outer_cpu = outer ? outer->cpu_deadline : 0, outer_wall = outer ? outer->wall_deadline : 0;
    s->again = outer == b;
    if (s->again)
        s->run = *b;
    lua_pushlightuserdata(L, b);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &HOOK_KEY);
    b->count = 0;
    b->why = NULL;
    b->refused = 0;
    *lb_interrupt_flag() = 0;    /* see budget.interrupted */
    if (b->limit > 0) {
        lua_gc(L, LUA_GCCOLLECT);
        b->entered = b->used;
        b->f = lua_getallocf(L, &b->ud);
        lua_setallocf(L, budget_alloc, b);
    }
    b->wall_start = b->cpu_next = chk_clock();  /* after the collection: not the box's time */
    b->cpu_start = chk_cpu_clock();
    b->cpu_deadline = earlier(cpu > 0 ? b->cpu_start + cpu : 0, outer_cpu);
    b->wall_deadline = earlier(wall > 0 ? b->wall_start + wall : 0, outer_wall);
    if (cpu > 0)
        st->box_cpu_deadline = earlier(b->cpu_start + CORE_SHARE * cpu, st->box_cpu_deadline);
    if (wall > 0)
        st->box_deadline = earlier(b->wall_start + CORE_SHARE * wall, st->box_deadline);
    if (b->max > 0 || b->cpu_deadline > 0 || b->wall_deadline > 0)    /* else the caller's hook stays */
        lua_sethook(L, budget_hook, LUA_MASKCOUNT, HOOK_STEP);
}

/* Stops b's clocks; a time cap passed where the hook could not see it
 * (inside a C function, at the very end) is passed too. */
static void stop_clocks(Budget *b)
{
    double cpu = chk_cpu_clock(), now = chk_clock();
    b->cpu_spent = cpu - b->cpu_start;
    b->wall_spent = now - b->wall_start;
    b->cpu_given = b->cpu_deadline > 0 ? b->cpu_deadline - b->cpu_start : 0;
    b->wall_given = b->wall_deadline > 0 ? b->wall_deadline - b->wall_start : 0;
    if (b->why != NULL || b->refused > 0)
        return;
    if (b->cpu_deadline > 0 && cpu > b->cpu_deadline)
        b->why = "time";
    else if (b->wall_deadline > 0 && now > b->wall_deadline)
        b->why = "backstop";
}

/* Undoes enter: credits the box's garbage (a full collection while its
 * allocator still counts), restores the allocator, the hook, the core
 * calls' deadlines and the budget that was running (at index saved); when
 * that was b, its run's clocks, its instructions counted on. */
static void leave(lua_State *L, Budget *b, const Saved *s, int saved)
{
    State *st = lb_state(L);
    lua_sethook(L, s->hook, s->mask, s->count);
    st->box_deadline = s->box_deadline;
    st->box_cpu_deadline = s->box_cpu_deadline;
    if (s->again) {
        b->count += s->run.count;
        b->cpu_deadline = s->run.cpu_deadline;
        b->wall_deadline = s->run.wall_deadline;
        b->cpu_start = s->run.cpu_start;
        b->wall_start = s->run.wall_start;
        b->cpu_next = s->run.cpu_next;
    }
    if (b->limit > 0) {
        if (b->used > b->entered) {
            lua_gc(L, LUA_GCCOLLECT);
            lua_gc(L, LUA_GCCOLLECT);   /* what the finalizers (a board's __gc) kept */
        }
        lua_setallocf(L, b->f, b->ud);
        if (b->used < 0)
            b->used = 0;
    }
    lua_pushvalue(L, saved);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &HOOK_KEY);
}

/* A time cap argument: seconds >= 0 (0 or nil: none). */
static double checkseconds(lua_State *L, int arg)
{
    lua_Number seconds = luaL_optnumber(L, arg, 0);
    luaL_argcheck(L, seconds >= 0 && seconds < 1e9, arg, "seconds must be from 0 to 1e9");
    return seconds;
}

/* budget:run(cpu|nil, wall|nil, handler|nil, f, ...) */
static int budget_run(lua_State *L)
{
    Budget *b = checkbudget(L, 1);
    double cpu = checkseconds(L, 2), wall = checkseconds(L, 3);
    luaL_argcheck(L, lua_isnoneornil(L, 4) || lua_isfunction(L, 4), 4, "a handler must be a function");
    luaL_checkany(L, 5);
    void *ud;
    luaL_argcheck(L, b->limit == 0 || lua_getallocf(L, &ud) != budget_alloc, 1,
                  "budget runs with a memory cap do not nest");
    int nargs = lua_gettop(L) - 5;
    Saved s;
    enter(L, b, cpu, wall, &s);
    lua_insert(L, 5);                   /* the budget replaced, below f */
    int status = lua_pcall(L, nargs, LUA_MULTRET, lua_isnil(L, 4) ? 0 : 4);
    stop_clocks(b);
    leave(L, b, &s, 5);
    if (b->refused > 0 && b->why == NULL)   /* even when the box caught it */
        b->why = "memory";
    lua_pushboolean(L, status == LUA_OK);
    lua_replace(L, 5);                  /* status, results... */
    return lua_gettop(L) - 4;
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

static int budget_spent(lua_State *L)
{
    Budget *b = checkbudget(L, 1);
    lua_pushnumber(L, b->cpu_spent);
    lua_pushnumber(L, b->wall_spent);
    return 2;
}

static int budget_used(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)checkbudget(L, 1)->used);
    return 1;
}

/* [-0, +1] seconds, or nil when 0 */
static void push_seconds(lua_State *L, double seconds)
{
    if (seconds > 0)
        lua_pushnumber(L, seconds);
    else
        lua_pushnil(L);
}

static int budget_limits(lua_State *L)
{
    Budget *b = checkbudget(L, 1);
    push_seconds(L, b->cpu_given);
    push_seconds(L, b->wall_given);
    return 2;
}

static int budget_count(lua_State *L)
{
    lua_pushinteger(L, checkbudget(L, 1)->count);
    return 1;
}

/* budget.hook_failures(board) -> n, message | nil: see the header. */
static int budget_hook_failures(lua_State *L)
{
    const Rules *r;
    luaL_argexpected(L, lb_testboard(L, 1, false) != NULL, 1, "board");
    lua_getiuservalue(L, 1, 1);
    r = lua_touserdata(L, -1);
    lua_pushinteger(L, r->hook_failures);
    if (r->hook_failures > 0)
        lua_pushstring(L, r->hook_error);
    else
        lua_pushnil(L);
    return 2;
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
        { "hook_failures", budget_hook_failures },
        { NULL, NULL }
    };
    static const luaL_Reg methods[] = {
        { "run", budget_run },
        { "why", budget_why },
        { "spent", budget_spent },
        { "used", budget_used },
        { "count", budget_count },
        { "limits", budget_limits },
        { NULL, NULL }
    };
    if (luaL_newmetatable(L, BUDGET_MT)) {
        luaL_newlib(L, methods);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    luaL_newlib(L, funcs);
    lua_pushnumber(L, CORE_SHARE);
    lua_setfield(L, -2, "CORE_SHARE");
    return 1;
}
