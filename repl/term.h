/*
 * term.h - the terminal side of the cheskers program, as the Lua module
 * "cheskers.readline" (see term.c).
 */
#ifndef CHESKERS_TERM_H
#define CHESKERS_TERM_H

#include "lua.h"

/* Opens the module: require "cheskers.readline". Installs the SIGINT
 * handler (once per process). */
int luaopen_cheskers_readline(lua_State *L);

#endif
