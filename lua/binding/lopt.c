/*
 * lopt.c - option tables of the binding (lbind.h): unknown keys refused
 * with the nearest name ("did you mean"), and the numbers of option tables
 * read with their ranges (lb_opt_integer, lb_opt_number).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbind.h"


/* ---- options ------------------------------------------------------------ */

static bool is_option(const char *name, const char *const names[])
{
    int i;
    for (i = 0; names[i]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* [-0, +1] Pushes " (did you mean 'name'?)" for the closest of names to
 * word (len bytes) when it is a likely typo, else "": chk_did_you_mean
 * (core/suggest.c), the one wording of a suggestion, for the option checks
 * below and every Lua message (cheskers.did_you_mean). */
static void push_did_you_mean(lua_State *L, const char *word, size_t len,
                              const char *const names[], int n)
{
    char buf[ERR_SIZE];
    lua_pushstring(L, chk_did_you_mean(buf, sizeof buf, word, len, names, n));
}

/* The strings of the list at index t (at most max; kept alive by the
 * table) into names; returns how many. */
static int check_name_list(lua_State *L, int t, const char *names[], int max)
{
    int n = 0, i;
    luaL_checktype(L, t, LUA_TTABLE);
    for (i = 1; n < max; i++) {
        if (lua_rawgeti(L, t, i) == LUA_TNIL) {
            lua_pop(L, 1);
            break;
        }
        names[n++] = luaL_checkstring(L, -1);   /* kept alive by the table */
        lua_pop(L, 1);
    }
    return n;
}

/* cheskers.closest(word, names) -> the name of the list names closest to
 * word when it is a likely typo, else nil. */
int lb_closest(lua_State *L)
{
    size_t len;
    const char *word = luaL_checklstring(L, 1, &len);
    const char *names[256];
    int n = check_name_list(L, 2, names, 256);
    const char *best = chk_closest(word, len, names, n);
    if (best)
        lua_pushstring(L, best);
    else
        lua_pushnil(L);
    return 1;
}

/* cheskers.did_you_mean(word, names) -> " (did you mean 'x'?)" when word is
 * a likely typo of a name of the list, else "". */
int lb_did_you_mean(lua_State *L)
{
    size_t len;
    const char *word = luaL_checklstring(L, 1, &len);
    const char *names[256];
    int n = check_name_list(L, 2, names, 256);
    push_did_you_mean(L, word, len, names, n);
    return 1;
}

/* Raises the "bad_option" error for key (len bytes), naming the closest of
 * names when it is close, else all. */
static int unknown_option(lua_State *L, const char *prefix, const char *what,
                          const char *key, size_t len, const char *const names[])
{
    int i, n = 0;
    while (names[n])
        n++;
    lb_push_clipped(L, key, len);
    push_did_you_mean(L, key, len, names, n);
    if (*lua_tostring(L, -1) == 0) {
        luaL_Buffer B;
        lua_pop(L, 1);
        luaL_buffinit(L, &B);
        luaL_addstring(&B, " (known: ");
        for (i = 0; names[i]; i++) {
            if (i)
                luaL_addstring(&B, ", ");
            luaL_addstring(&B, names[i]);
        }
        luaL_addstring(&B, ")");
        luaL_pushresult(&B);
    }
    return lb_error(L, LB_E_BAD_OPTION, "%sunknown %s %s%s", prefix, what,
                    lua_tostring(L, -2), lua_tostring(L, -1));
}

void lb_check_options(lua_State *L, int t, const char *prefix, const char *what,
                      const char *const names[])
{
    const char *unknown = NULL;
    size_t ulen = 0;
    t = lua_absindex(L, t);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        size_t len;
        const char *name;
        if (lua_type(L, -2) != LUA_TSTRING)
            lb_error(L, LB_E_BAD_OPTION, "%s%s names must be strings (got %s)", prefix, what,
                     luaL_typename(L, -2));
        name = lua_tolstring(L, -2, &len);
        if (!is_option(name, names) && (unknown == NULL || strcmp(name, unknown) < 0)) {
            unknown = name;     /* stays valid: the key is in the table */
            ulen = len;
        }
        lua_pop(L, 1);
    }
    if (unknown)
        unknown_option(L, prefix, what, unknown, ulen, names);
}

/* ---- the numbers of option tables ---------------------------------------- */

lua_Integer lb_opt_integer(lua_State *L, int t, const char *name, lua_Integer lo, lua_Integer hi,
                           lua_Integer def, const char *prefix)
{
    lua_Integer v = def;
    if (lua_getfield(L, t, name) != LUA_TNIL) {
        v = lua_tointeger(L, -1);
        if (!lua_isinteger(L, -1) || v < lo || v > hi)
            lb_error(L, LB_E_BAD_ARGUMENT, "%s%s must be a whole number from %I to %I, not %s", prefix, name,
                     (LUAI_UACINT)lo, (LUAI_UACINT)hi, lb_push_value_text(L, -1));
    }
    lua_pop(L, 1);
    return v;
}

double lb_opt_number(lua_State *L, int t, const char *name, double lo, double hi, double def,
                     const char *prefix)
{
    double v = def;
    if (lua_getfield(L, t, name) != LUA_TNIL) {
        v = (double)lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER || !(v > lo && v <= hi)) {
            char range[64];
            snprintf(range, sizeof range, "> %.14g and <= %.14g", lo, hi);
            const char *shown = lb_push_value_text(L, -1);
            lb_error(L, LB_E_BAD_ARGUMENT, "%s%s must be a number %s, not %s", prefix, name, range, shown);
        }
    }
    lua_pop(L, 1);
    return v;
}
