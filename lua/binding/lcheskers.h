/*
 * lcheskers.h - the public interface of the Lua binding of the Cheskers
 * core (lcheskers.c), for the cheskers program (repl/) that links it in and
 * preloads it, and for the fuzz targets. The binding's internals are in
 * lbind.h; its error values in lerror.h.
 */
#ifndef LCHESKERS_H
#define LCHESKERS_H

#include <signal.h>
#include "lua.h"

/* Opens the C module: require "cheskers.core" (lua/cheskers/init.lua makes
 * it the module "cheskers"). Also preloads "cheskers.budget" (lsandbox.c). */
int luaopen_cheskers_core(lua_State *L);

/* The flag that long core work (perft, divide, search, solve, a tablebase
 * build) polls, for a SIGINT handler to set to 1: the running call then
 * stops, restores the board and raises the error value "interrupted".
 * Cleared when such a call starts. */
volatile sig_atomic_t *lcheskers_interrupt_flag(void);

#endif
