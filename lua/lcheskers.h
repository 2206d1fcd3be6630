/*
 * lcheskers.h - the public interface of the Lua binding of the Cheskers
 * core, for the cheskers program (repl/) that links it in and preloads it,
 * and for the fuzz targets. The binding's internals are in lbind.h.
 */
#ifndef LCHESKERS_H
#define LCHESKERS_H

#include <signal.h>
#include "lua.h"

/* Opens the C module: require "cheskers.core" (lua/cheskers/init.lua makes
 * it the module "cheskers"). */
int luaopen_cheskers_core(lua_State *L);

/* Opens the module cheskers.budget (lsandbox.c: the memory, instruction and
 * time caps under which lua/cheskers/sandbox.lua runs untrusted Lua). */
int luaopen_cheskers_budget(lua_State *L);

/* The flag that long core work (perft, divide, search, solve) polls. A
 * SIGINT handler sets it to 1; the running call then stops, restores the
 * board and raises the error value "interrupted". Cleared when such a call
 * starts. */
volatile sig_atomic_t *lcheskers_interrupt_flag(void);

/* cheskers.deadline([seconds]) (also cheskers.engine.deadline). */
int lcheskers_deadline(lua_State *L);

/* ---- lerror.c: error values (see there) -------------------------------- */

/* Raises an error value with this code and a formatted message. */
int lcheskers_error(lua_State *L, const char *code, const char *fmt, ...);
/* [-0, +1] Pushes an error value without raising it. */
void lcheskers_pusherror(lua_State *L, const char *code, const char *msg);
/* cheskers.error_code(e) -> the code of an error value, or nil. */
int lcheskers_error_code(lua_State *L);

#endif
