/*
 * lcheskers.h - the Lua binding of the Cheskers core, as seen by the
 * cheskers program (repl/), which links it in and preloads it.
 */
#ifndef LCHESKERS_H
#define LCHESKERS_H

#include <signal.h>
#include "lua.h"

/* Opens the module: require "cheskers". */
int luaopen_cheskers(lua_State *L);

/* The flag that long core work (perft, divide, search, solve) polls. A
 * SIGINT handler sets it to 1; the running call then stops, restores the
 * board and raises the Lua error "interrupted". Cleared when such a call
 * starts. */
volatile sig_atomic_t *lcheskers_interrupt_flag(void);

/* ---- lerror.c: error values (see there) -------------------------------- */

/* Raises an error value with this code and a formatted message. */
int lcheskers_error(lua_State *L, const char *code, const char *fmt, ...);
/* [-0, +1] Pushes an error value without raising it. */
void lcheskers_pusherror(lua_State *L, const char *code, const char *msg);
/* cheskers.error_code(e) -> the code of an error value, or nil. */
int lcheskers_error_code(lua_State *L);

/* ---- for the other binding files (lsolve.c, lengine.c): in lcheskers.c ---- */

#include "cheskers.h"

/* The board at argument arg; raises (luaL_checkudata style) when it is not one. */
chk_pos *lcheskers_checkboard(lua_State *L, int arg);
/* Pushes the move object (docs/lua_api.md) of m, a legal move of p. */
void lcheskers_pushmove(lua_State *L, const chk_pos *p, const chk_move *m);
/* Reads argument arg, a move object or a move text, as a legal move of p
 * into *out; raises for an illegal or ambiguous move, as b:play does. */
void lcheskers_checkmove(lua_State *L, int arg, chk_pos *p, chk_move *out);

/* A bracket around core work on the board at arg that may run Lua code
 * (rule hooks; eval, info or progress callbacks). begin raises "board is
 * busy" when it is; else it marks the board busy (so callbacks cannot change
 * it), lets its rules' hooks run, and returns the stack index of the first of
 * the values it pushes. Between the two calls the stack above them must be
 * as begin left it whenever the core runs. end (after the core has returned
 * and restored the board) pops them, marks the board idle and raises the
 * error of a failed hook, if any. */
int lcheskers_core_begin(lua_State *L, int arg);
void lcheskers_core_end(lua_State *L, int arg, int slot);

/* ---- lsolve.c: the solver's board methods ------------------------------ */

/* With the board methods table on the top of the stack: adds b:solve,
 * b:defend, b:refute and b:svg to it, and makes cheskers.budget
 * requirable (package.preload). Leaves the stack as it was. */
int lcheskers_open_solve(lua_State *L);
/* A module __index (lsolve.c): cheskers.puzzle and cheskers.svg load on
 * first use. For luaopen_cheskers, with the module on the top:
 *   lua_createtable(L, 0, 1);
 *   lua_pushcfunction(L, lcheskers_module_index);
 *   lua_setfield(L, -2, "__index");
 *   lua_setmetatable(L, -2); */
int lcheskers_module_index(lua_State *L);

/* lsandbox.c: opens the module cheskers.budget (the memory, instruction and
 * time caps of cheskers.sandbox); lcheskers_open_solve preloads it. */
int luaopen_cheskers_budget(lua_State *L);

/* ---- lengine.c: the engine (b:search, b:eval, cheskers.engine) --------- */

/* With the module table on the top of the stack (the board metatable already
 * made): adds b:search and b:eval to the board methods and the table engine
 * to the module. Leaves the stack as it was. */
int lcheskers_open_engine(lua_State *L);

#endif
