/*
 * lcheskers.c - the module "cheskers.core" (docs/reference/lua_api.md is the
 * contract; lua/cheskers/init.lua makes it "cheskers"): its state, the
 * functions that belong to no type (interrupt, deadline, error_code), its
 * constants, and the registration that each binding file does for its own
 * functions. Modelled on Lua's liolib.c. The files, one concern each:
 *
 *   lbind.c    the base: types and checks, boards and move objects made
 *   lhook.c    the core-call bracket and rule hooks
 *   lopt.c     option tables: "did you mean", their numbers
 *   lstop.c    stopping (interrupt, deadline) and failed core calls' errors
 *   lerror.c   error values ({code =, message =})
 *   lmove.c    move objects; reading a move argument; the order of b:moves()
 *   lrules.c   rules tables <-> Rules userdata; cheskers.rules
 *   lboard.c   cheskers.new and the board methods
 *   lperft.c   b:perft, b:divide (progress, partial results)
 *   lsolve.c   b:solve, b:defend, b:refute (the solver)
 *   lengine.c  b:search, b:eval, cheskers.engine
 *   ltb.c      cheskers.tb, b:probe, b:tb_moves (endgame tablebases)
 *   lsys.c     cheskers.clock, fsync, isatty, create_file, read_file
 *   lsandbox.c cheskers.budget (memory, instruction and time caps; used by cheskers.sandbox)
 *
 * Long core calls (perft, divide, search, solve, defend, refute) stop when
 * the interrupt flag is raised (cheskers.interrupt(), Ctrl-C) or the
 * deadline (cheskers.deadline) passes: the board is restored and an error
 * value raised, code "interrupted" or "timeout".
 */
#include <string.h>

#include "lbind.h"
#include "lcheskers.h"

volatile sig_atomic_t *lcheskers_interrupt_flag(void)
{
    return lb_interrupt_flag();
}

/* cheskers.interrupt() */
static int l_interrupt(lua_State *L)
{
    (void)L;
    *lb_interrupt_flag() = 1;
    return 0;
}

static const luaL_Reg module_funcs[] = {
    {"interrupt", l_interrupt},
    {"deadline", lb_deadline},
    {"error_code", lb_error_code},
    {"error_value", lb_error_value},
    {"closest", lb_closest},
    {"did_you_mean", lb_did_you_mean},
    {NULL, NULL}
};

/* Makes the metatables of the three userdata types and records the board
 * and move ones in the State (their addresses, for the hot type checks).
 * The board methods table becomes the board metatable's __index. */
static void create_types(lua_State *L)
{
    State *st;
    lb_push_state(L);
    st = lua_touserdata(L, -1);
    luaL_newmetatable(L, BOARD_MT);
    st->board_mt = lua_topointer(L, -1);
    lua_newtable(L);
    lua_setfield(L, -2, "__index");
    luaL_newmetatable(L, MOVE_MT);
    st->move_mt = lua_topointer(L, -1);
    luaL_newmetatable(L, RULES_MT);
    lua_pop(L, 4);  /* the registry keeps them */
}

/* [-0, +1] cheskers.SQUARES: the square names in index order. */
static void push_squares(lua_State *L)
{
    int sq;
    lua_createtable(L, CHK_SQUARES, 0);
    for (sq = 0; sq < CHK_SQUARES; sq++) {
        lb_push_square(L, sq);
        lua_rawseti(L, -2, sq + 1);
    }
}

int luaopen_cheskers_core(lua_State *L)
{
    luaL_checkversion(L);
    create_types(L);
    luaL_newlibtable(L, module_funcs);
    lb_setfuncs(L, module_funcs);
    lb_open_move(L);
    lb_open_rules(L);
    lb_open_board(L);
    lb_open_perft(L);
    lb_open_solve(L);
    lb_open_engine(L);
    lb_open_tb(L);
    lb_open_sys(L);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_cheskers_budget);
    lua_setfield(L, -2, "cheskers.budget");    /* for hosts that link the binding in */
    lua_pop(L, 1);
    lua_pushliteral(L, CHK_START_FEN);
    lua_setfield(L, -2, "START");
    lua_pushliteral(L, CHK_VERSION);
    lua_setfield(L, -2, "VERSION");
    push_squares(L);
    lua_setfield(L, -2, "SQUARES");
    return 1;
}
