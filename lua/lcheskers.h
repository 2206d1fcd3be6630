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

#endif
