/*
 * lsolve.c - the forced-win solver (core/solve.c) as board methods:
 *
 *   b:solve(n | {moves = n, all = bool, nodes = budget})
 *       -> { win = bool, shortest = k or nil, moves = {move...},
 *            lengths = {k...}, nodes = int, time = seconds }
 *       win: the side to move wins within n of its own moves (all enemy
 *       kings captured or the enemy stalemated). moves: every winning first
 *       move (all = true, the default) with lengths[i] its shortest win; or
 *       (all = false) only the first move of a shortest win, found faster.
 *       nodes: give up after that many nodes (raises "solve: node limit
 *       reached"; the board is restored).
 *   b:defend(n | {moves = n, nodes = budget}) -> move, length
 *       the side to move defends, the other side having n moves left.
 *       move: the best defence (nil when the game is over); length: the
 *       attacker's shortest win against it (0: the game is already won), or
 *       nil when the defence holds (it refutes the win).
 *   b:refute(move, n | {moves = n, nodes = budget}) -> defence | false | nil, length
 *       does move (a move object or text of the side to move) win within n?
 *       nil and its shortest win when it does; else the defender's reply
 *       that refutes it (a move of the position after move), or false when
 *       move itself ends the game without winning it.
 *   Each options table may give tb = tables (cheskers.tb.open): positions
 *   the tables cover are answered by them, and n may then be up to
 *   64 (CHK_SOLVE_MAX_MOVES_TB; without tables 15). Rules the
 *   tables do not support are solved without them.
 *
 * One solver context (transposition table of 16 MiB) per Lua state, made on
 * first use and shared by every board; it is a userdata upvalue of these
 * functions (no globals). The interrupt flag and the deadline stop a run
 * (lbind.h: lb_stop): the board is restored and "interrupted" or "timeout"
 * raised. Options tables are checked (unknown keys: code "bad_option").
 *
 * Boards and move objects come from lbind.h; each solve runs inside
 * lb_call_begin/end, so the board is busy meanwhile and
 * rules written with Lua hooks work (without the transposition table: their
 * results may depend on the path). A hook that solves while a solve runs
 * gets an error.
 */
#include <string.h>

#include "lbind.h"

#define SOLVER_MT "cheskers.solver"
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

typedef struct lsolver {
    chk_solver *s;
    bool running;       /* a solve is under way (a rule hook may call back) */
} lsolver;

static int solver_gc(lua_State *L)
{
    lsolver *ls = luaL_checkudata(L, 1, SOLVER_MT);
    chk_solver_free(ls->s);
    ls->s = NULL;
    return 0;
}

/* Raises for a negative solver result (a chk_status). */
static void check_rc(lua_State *L, int rc)
{
    if (rc < 0)
        lb_status_error(L, rc, "solve");
}

static lsolver *get_lsolver(lua_State *L)
{
    return luaL_checkudata(L, lua_upvalueindex(1), SOLVER_MT);
}

/* The solver of this state (upvalue 1), made on first use. Raises when it
 * is already running (a rule hook solving inside a solve). */
static chk_solver *get_solver(lua_State *L)
{
    lsolver *ls = get_lsolver(L);
    if (ls->running)
        lb_error(L, LB_E_BUSY, "solve: the solver is busy (a solve inside a solve)");
    if (!ls->s) {
        ls->s = chk_solver_new(0);
        if (!ls->s)
            lb_error(L, LB_E_NO_MEMORY, "solver: not enough memory");
    }
    return ls->s;
}

/* Brackets a solver call on the board at 1: the board is busy and its
 * rules' Lua hooks can run meanwhile (lb_call_begin). */
static int solve_begin(lua_State *L)
{
    int slot = lb_call_begin(L, 1);
    get_lsolver(L)->running = true;
    return slot;
}

/* Ends it: raises a failed hook's error, else the solver's error, if any. */
static void solve_end(lua_State *L, int slot, int rc)
{
    get_lsolver(L)->running = false;
    lb_call_end(L, 1, slot);
    check_rc(L, rc);
}

/* The move count argument: an integer or a table's field "moves"; *all
 * from the table's field "all" (default true; only b:solve has it); the
 * table's field "nodes" (a node budget, default none) is set on the solver
 * s. Other keys are refused (code "bad_option"). */
static int check_moves_arg(lua_State *L, int arg, bool *all, chk_solver *s, const char *who)
{
    static const char *const solve_keys[] = { "moves", "all", "nodes", "tb", NULL };
    static const char *const other_keys[] = { "moves", "nodes", "tb", NULL };
    lua_Integer n = 0;
    *all = true;
    if (lua_istable(L, arg)) {
        lua_pushfstring(L, "%s: ", who);
        lb_check_options(L, arg, lua_tostring(L, -1), "option",
                         strcmp(who, "solve") == 0 ? solve_keys : other_keys);
        lua_pop(L, 1);
    }
    chk_solver_limit(s, 0);
    chk_solver_tables(s, NULL);
    if (lua_istable(L, arg)) {
        if (lua_getfield(L, arg, "tb") != LUA_TNIL) {
            char err[320];      /* rules without tables: solved without them */
            chk_solver_tables(s, lb_check_tables(L, -1, lb_checkpos(L, 1)->rules, err, sizeof err));
        }
        lua_pop(L, 1);          /* the options table keeps the tables alive */
        lua_getfield(L, arg, "nodes");
        if (!lua_isnil(L, -1)) {
            if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1)
                luaL_argerror(L, arg, lua_pushfstring(L, "nodes must be a whole number >= 1, not %s",
                                                      lb_push_value_text(L, -1)));
            chk_solver_limit(s, (uint64_t)lua_tointeger(L, -1));
        }
        lua_pop(L, 1);
        lua_getfield(L, arg, "moves");
        if (!lua_isinteger(L, -1))
            luaL_argerror(L, arg, lua_pushfstring(L, "moves must be a whole number, not %s",
                                                  lb_push_value_text(L, -1)));
        n = lua_tointeger(L, -1);
        lua_pop(L, 1);
        lua_getfield(L, arg, "all");
        if (!lua_isnil(L, -1))
            *all = lua_toboolean(L, -1);
        lua_pop(L, 1);
    } else {
        n = luaL_checkinteger(L, arg);
    }
    if (n > CHK_SOLVE_MAX_MOVES && n <= CHK_SOLVE_MAX_MOVES_TB && !lua_istable(L, arg))
        luaL_argerror(L, arg, "moves above " STRINGIFY(CHK_SOLVE_MAX_MOVES)
                      " need tablebases: {moves = n, tb = tables}");
    if (n > CHK_SOLVE_MAX_MOVES && n <= CHK_SOLVE_MAX_MOVES_TB) {
        lua_getfield(L, arg, "tb");
        bool has = !lua_isnil(L, -1);
        lua_pop(L, 1);
        luaL_argcheck(L, has, arg, "moves above " STRINGIFY(CHK_SOLVE_MAX_MOVES)
                      " need tablebases: {moves = n, tb = tables}");
    }
    if (n < 1 || n > CHK_SOLVE_MAX_MOVES_TB)
        luaL_argerror(L, arg, lua_pushfstring(L, "moves must be a whole number from 1 to "
                      STRINGIFY(CHK_SOLVE_MAX_MOVES) " (" STRINGIFY(CHK_SOLVE_MAX_MOVES_TB)
                      " with tablebases), not %I", (LUAI_UACINT)n));
    return (int)n;
}


/* b:solve(n | {moves = n, all = bool}) -> table (see the top) */
static int board_solve(lua_State *L)
{
    chk_pos *p = lb_checkpos(L, 1);
    chk_solver *s = get_solver(L);
    bool all;
    int n = check_moves_arg(L, 2, &all, s, "solve");
    lua_settop(L, 2);
    chk_move *moves = lua_newuserdatauv(L, CHK_MAX_MOVES * sizeof *moves, 0);
    int *lens = lua_newuserdatauv(L, CHK_MAX_MOVES * sizeof *lens, 0);
    uint64_t nodes0 = chk_solver_nodes(s);
    double t0 = chk_clock();
    chk_stop stop = lb_stop(L);
    int cnt, shortest = 0;
    int slot = solve_begin(L);
    if (all) {
        cnt = chk_solve_moves(s, p, n, moves, lens, &stop);
        solve_end(L, slot, cnt);
        for (int i = 0; i < cnt; i++)
            if (!shortest || lens[i] < shortest)
                shortest = lens[i];
    } else {
        shortest = chk_solve(s, p, n, moves, &stop);
        solve_end(L, slot, shortest);
        cnt = shortest > 0;
        lens[0] = shortest;
    }
    double t1 = chk_clock();
    lua_createtable(L, 0, 6);
    lua_pushboolean(L, cnt > 0);
    lua_setfield(L, -2, "win");
    if (shortest) {
        lua_pushinteger(L, shortest);
        lua_setfield(L, -2, "shortest");
    }
    lua_createtable(L, cnt, 0);
    for (int i = 0; i < cnt; i++) {
        lb_push_move(L, p, &moves[i], 0, false);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "moves");
    lua_createtable(L, cnt, 0);
    for (int i = 0; i < cnt; i++) {
        lua_pushinteger(L, lens[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "lengths");
    lua_pushinteger(L, (lua_Integer)(chk_solver_nodes(s) - nodes0));
    lua_setfield(L, -2, "nodes");
    lua_pushnumber(L, t1 - t0);
    lua_setfield(L, -2, "time");
    return 1;
}

/* b:defend(n | {moves = n}) -> move or nil, length or nil */
static int board_defend(lua_State *L)
{
    chk_pos *p = lb_checkpos(L, 1);
    chk_solver *s = get_solver(L);
    bool all;
    int n = check_moves_arg(L, 2, &all, s, "defend");
    chk_move d;
    lua_settop(L, 2);
    chk_stop stop = lb_stop(L);
    int slot = solve_begin(L);
    int rc = chk_solve_defend(s, p, n, &d, &stop);
    solve_end(L, slot, rc);
    if (d.npath)
        lb_push_move(L, p, &d, 0, false);
    else
        lua_pushnil(L);
    if (rc > n)
        lua_pushnil(L);
    else
        lua_pushinteger(L, rc);
    return 2;
}

/* b:refute(move, n | {moves = n, nodes = budget}) -> defence | false | nil, length */
static int board_refute(lua_State *L)
{
    chk_pos *p = lb_checkpos(L, 1);
    chk_solver *s = get_solver(L);
    chk_move m, d;
    lb_check_move_of(L, 2, p, &m);
    bool all;
    int n = check_moves_arg(L, 3, &all, s, "refute");
    lua_settop(L, 3);
    chk_stop stop = lb_stop(L);
    int slot = solve_begin(L);
    int rc = chk_solve_refute(s, p, &m, n, &d, &stop);
    solve_end(L, slot, rc);
    if (rc <= n) {
        lua_pushnil(L);
        lua_pushinteger(L, rc);
        return 2;
    }
    if (!d.npath) {
        lua_pushboolean(L, false);
        return 1;
    }
    /* the reply is a move of the position after m: a copy of the board
     * with m played (through the board's own methods) */
    lua_getfield(L, 1, "copy");
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);                  /* copy */
    lua_getfield(L, 4, "play");
    lua_pushvalue(L, 4);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 0);
    lb_push_move(L, lb_checkpos(L, 4), &d, 0, false);
    return 1;
}

static const luaL_Reg board_methods[] = {
    { "solve", board_solve },
    { "defend", board_defend },
    { "refute", board_refute },
    { NULL, NULL }
};

/* With the module on top: adds the solver's board methods, their upvalue
 * the solver of this state. */
void lb_open_solve(lua_State *L)
{
    lb_push_board_methods(L);
    lsolver *ls = lua_newuserdatauv(L, sizeof *ls, 0);
    ls->s = NULL;
    ls->running = false;
    if (luaL_newmetatable(L, SOLVER_MT)) {
        lua_pushcfunction(L, solver_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);            /* methods, solver */
    luaL_setfuncs(L, board_methods, 1); /* methods */
    lua_pop(L, 1);
}
