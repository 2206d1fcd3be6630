/*
 * lerror.h - the binding's error values (lerror.c): the one table of their
 * codes, and raising or pushing a value with a code. The lowest file of
 * the binding: it needs only Lua.
 */
#ifndef LERROR_H
#define LERROR_H

#include "lua.h"

/* The codes of error values: what callers test (cheskers.error_code)
 * instead of matching message text. docs/reference/lua_api.md explains each, in this
 * order; tests/binding/errcodes_test.sh checks the two lists against each other. */
typedef enum lb_code {
    LB_E_INTERRUPTED,   /* "interrupted": the flag stopped a long call */
    LB_E_TIMEOUT,       /* "timeout": the deadline passed */
    LB_E_ILLEGAL_MOVE,  /* "illegal_move" */
    LB_E_BAD_POSITION,  /* "bad_position" */
    LB_E_BAD_RULES,     /* "bad_rules" */
    LB_E_BAD_OPTION,    /* "bad_option": an unknown key */
    LB_E_BAD_ARGUMENT,  /* "bad_argument": a bad value, a closed board */
    LB_E_HOOK,          /* "hook": a Lua function the core called failed */
    LB_E_BUSY,          /* "busy": the board is in use */
    LB_E_NO_MEMORY,     /* "no_memory" */
    LB_E_NODE_LIMIT,    /* "node_limit" */
    LB_E_INTERNAL,      /* "internal": a status the binding does not expect */
    LB_E_LOCKED,        /* "locked": a run's folder in use (the Lua library) */
    LB_E_NCODES
} lb_code;

/* The name of a code ("illegal_move"), NULL when out of range. */
const char *lb_code_name(int code);

/* Raises an error value with this code and a message formatted as by
 * lua_pushfstring. */
int lb_error(lua_State *L, lb_code code, const char *fmt, ...);
/* [-0, +1] Pushes an error value without raising it. */
void lb_push_error(lua_State *L, lb_code code, const char *msg);
/* cheskers.error_code(e) -> the code of an error value, or nil. */
int lb_error_code(lua_State *L);
/* cheskers.error_value(code, message) -> an error value (not raised): the
 * one way the Lua library makes one (cheskers.raise); an unknown code is
 * refused. */
int lb_error_value(lua_State *L);

#endif
