/*
 * lerror.c - the binding's error values: what callers test without
 * matching message text.
 *
 * An error value is a table { code = "interrupted", message = "..." } whose
 * metatable (registry "cheskers.error") gives it __tostring (the message),
 * __concat and the string methods (e:find(...) searches the message), so
 * code that prints, concatenates or searches errors keeps working. Lua
 * code asks cheskers.error_code(e): the code of an error value, nil for
 * anything else (a plain string error, a table of its own).
 *
 * The codes are the enum lb_code of lerror.h, named by the table below;
 * C code names a code by its enum value, never by a string.
 */
#include <stdarg.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "lerror.h"

#define ERROR_MT "cheskers.error"

static const char *const code_names[LB_E_NCODES] = {
    [LB_E_INTERRUPTED] = "interrupted",
    [LB_E_TIMEOUT] = "timeout",
    [LB_E_ILLEGAL_MOVE] = "illegal_move",
    [LB_E_BAD_POSITION] = "bad_position",
    [LB_E_BAD_RULES] = "bad_rules",
    [LB_E_BAD_OPTION] = "bad_option",
    [LB_E_BAD_ARGUMENT] = "bad_argument",
    [LB_E_HOOK] = "hook",
    [LB_E_BUSY] = "busy",
    [LB_E_NO_MEMORY] = "no_memory",
    [LB_E_NODE_LIMIT] = "node_limit",
    [LB_E_INTERNAL] = "internal",
    [LB_E_LOCKED] = "locked",
};

const char *lb_code_name(int code)
{
    return code >= 0 && code < LB_E_NCODES ? code_names[code] : NULL;
}

static int error_tostring(lua_State *L)
{
    lua_getfield(L, 1, "message");
    if (!lua_isstring(L, -1)) {
        lua_pop(L, 1);
        lua_pushliteral(L, "error");
    }
    return 1;
}

/* The string method of an error value (upvalue 1): applied to its message,
 * so that e:find(...), e:match(...) work as on the message text. */
static int error_method(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_tolstring(L, 1, NULL);
    lua_replace(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

/* __index: the string methods, as error_method closures. */
static int error_index(lua_State *L)
{
    lua_pushliteral(L, "");
    if (luaL_getmetafield(L, -1, "__index") != LUA_TTABLE)
        return 0;
    lua_pushvalue(L, 2);
    if (lua_gettable(L, -2) != LUA_TFUNCTION)
        return 0;
    lua_pushcclosure(L, error_method, 1);
    return 1;
}

static int error_concat(lua_State *L)
{
    luaL_tolstring(L, 1, NULL);
    luaL_tolstring(L, 2, NULL);
    lua_concat(L, 2);
    return 1;
}

/* [-0, +1] The metatable of error values, made on first use. */
static void push_error_mt(lua_State *L)
{
    if (luaL_newmetatable(L, ERROR_MT)) {
        lua_pushcfunction(L, error_tostring);
        lua_setfield(L, -2, "__tostring");
        lua_pushcfunction(L, error_concat);
        lua_setfield(L, -2, "__concat");
        lua_pushcfunction(L, error_index);
        lua_setfield(L, -2, "__index");
    }
}

void lb_push_error(lua_State *L, lb_code code, const char *msg)
{
    lua_createtable(L, 0, 2);
    lua_pushstring(L, lb_code_name(code));
    lua_setfield(L, -2, "code");
    lua_pushstring(L, msg);
    lua_setfield(L, -2, "message");
    push_error_mt(L);
    lua_setmetatable(L, -2);
}

int lb_error(lua_State *L, lb_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    lb_push_error(L, code, lua_tostring(L, -1));
    return lua_error(L);
}

/* cheskers.error_code(e) -> the code of an error value, or nil */
int lb_error_code(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TTABLE && lua_getmetatable(L, 1)) {
        luaL_getmetatable(L, ERROR_MT);
        if (lua_rawequal(L, -1, -2)) {
            lua_getfield(L, 1, "code");
            return 1;
        }
    }
    lua_pushnil(L);
    return 1;
}

/* cheskers.error_value(code, message) -> an error value with that code */
int lb_error_value(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *msg = luaL_checkstring(L, 2);
    int code;
    for (code = 0; code < LB_E_NCODES; code++) {
        if (strcmp(code_names[code], name) == 0) {
            lb_push_error(L, (lb_code)code, msg);
            return 1;
        }
    }
    return luaL_argerror(L, 1, lua_pushfstring(L, "no error code '%s'", name));
}
