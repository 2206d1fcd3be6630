/*
 * lperft.c - b:perft(depth [, progress]) and b:divide(depth [, progress])
 * (docs/lua_api.md): move sequences counted by the core one root move at a
 * time, so that a progress function can follow and an interrupt or the
 * deadline (cheskers.deadline) keeps what was counted. progress(i, n,
 * total, move, count) is called after each root move (its text and count).
 * When the call is interrupted or times out, the board is restored and the
 * error value raised (code "interrupted" or "timeout") has the fields
 * partial (root move text -> count, for the root moves done) and total.
 */
#include <string.h>

#include "lbind.h"

#define MAX_PERFT_DEPTH 64

/* Runs protected from count_roots: records a root move's count and calls
 * progress. [results, text (light userdata), count, progress or nil, i, n, total] */
static int perft_step(lua_State *L)
{
    lua_pushstring(L, lua_touserdata(L, 2));
    lua_pushvalue(L, 3);
    lua_settable(L, 1);
    if (lua_isnil(L, 4))
        return 0;
    lua_pushvalue(L, 4);
    lua_pushvalue(L, 5);
    lua_pushvalue(L, 6);
    lua_pushvalue(L, 7);
    lua_pushstring(L, lua_touserdata(L, 2));
    lua_pushvalue(L, 3);
    lua_call(L, 5, 0);
    return 0;
}

/* Raises the error value of a stopped count (status CHK_STOPPED or
 * CHK_TIMEOUT) with the root moves counted so far (the table at results). */
static int partial_error(lua_State *L, int status, int results, int64_t total)
{
    lb_push_status_error(L, status, "perft");
    lua_pushvalue(L, results);
    lua_setfield(L, -2, "partial");
    lua_pushinteger(L, total);
    lua_setfield(L, -2, "total");
    return lua_error(L);
}

/* The root moves of b (at 1) into list; returns how many. */
static int root_moves(lua_State *L, Board *b, chk_move *list)
{
    CoreCall cc;
    int top = lua_gettop(L), n, failed;
    lb_core_begin(L, 1, b, &cc);
    n = chk_gen_moves(&b->pos, list);
    failed = lb_core_end(b, &cc);
    if (failed || n < 0)
        lb_hook_error(L, &cc, failed);
    lua_settop(L, top);
    return n;
}

/* The count of depth - 1 after root move m (made and taken back), or a
 * negative chk_status; *failed: how a hook failed. */
static int64_t count_after(lua_State *L, Board *b, const chk_move *m, int depth,
                           chk_stop *stop, int *failed, CoreCall *cc)
{
    int64_t count;
    lb_core_begin(L, 1, b, cc);
    if (!chk_make(&b->pos, m)) {
        *failed = lb_core_end(b, cc);
        return CHK_NO_MEMORY;
    }
    count = chk_perft(&b->pos, depth - 1, true, stop);
    chk_unmake(&b->pos);
    *failed = lb_core_end(b, cc);
    return count;
}

/* Counts depth >= 1 root move by root move, the board busy all along. With
 * progress (at 3) or nil there, the results table (move text -> count) at 4.
 * Returns the total; raises (the board restored and idle) on failure. */
static int64_t count_roots(lua_State *L, Board *b, int depth)
{
    chk_move *list = lua_newuserdatauv(L, CHK_MAX_MOVES * sizeof *list, 0);
    char text[MOVE_TEXT_SIZE];
    int i, n, failed, top;
    int64_t total = 0;
    chk_stop stop;
    CoreCall cc;
    luaL_checkstack(L, 16, "perft");
    n = root_moves(L, b, list);
    top = lua_gettop(L);
    stop = lb_stop(L);
    b->busy = true;     /* from here on nothing may raise before busy is cleared */
    for (i = 0; i < n; i++) {
        int64_t count = count_after(L, b, &list[i], depth, &stop, &failed, &cc);
        if (failed || count < 0) {
            b->busy = false;
            if (failed)
                return lb_hook_error(L, &cc, failed);
            if (count == CHK_STOPPED || count == CHK_TIMEOUT)
                return partial_error(L, (int)count, 4, total);
            return lb_status_error(L, (int)count, "perft");
        }
        lua_settop(L, top);
        total += count;
        chk_move_text(&b->pos, &list[i], text, sizeof text);
        text[sizeof text - 1] = '\0';
        lua_pushcfunction(L, perft_step);
        lua_pushvalue(L, 4);
        lua_pushlightuserdata(L, text);
        lua_pushinteger(L, count);
        lua_pushvalue(L, 3);
        lua_pushinteger(L, i + 1);
        lua_pushinteger(L, n);
        lua_pushinteger(L, total);
        if (lua_pcall(L, 7, 0, 0) != LUA_OK) {
            b->busy = false;
            return lua_error(L);
        }
        if (i + 1 < n && chk_stop_check(&stop) != CHK_OK) {    /* e.g. cheskers.interrupt() in progress */
            b->busy = false;
            return partial_error(L, stop.status, 4, total);
        }
    }
    b->busy = false;
    return total;
}

/* b:perft(depth [, progress]) and b:divide(depth [, progress]) */
static int perft_or_divide(lua_State *L, bool divide)
{
    Board *b = lb_checkidle(L);
    lua_Integer d = luaL_checkinteger(L, 2);
    int64_t total;
    luaL_argcheck(L, d >= (divide ? 1 : 0) && d <= MAX_PERFT_DEPTH, 2,
                  divide ? "depth must be 1..64" : "depth must be 0..64");
    if (!lua_isnoneornil(L, 3))
        luaL_checktype(L, 3, LUA_TFUNCTION);
    lua_settop(L, 3);
    lua_newtable(L);    /* 4: the results */
    if (d == 0) {
        lua_pushinteger(L, 1);
        return 1;
    }
    total = count_roots(L, b, (int)d);
    if (divide)
        lua_pushvalue(L, 4);
    else
        lua_pushinteger(L, total);
    return 1;
}

static int board_perft(lua_State *L)
{
    return perft_or_divide(L, false);
}

static int board_divide(lua_State *L)
{
    return perft_or_divide(L, true);
}

static const luaL_Reg perft_methods[] = {
    {"perft", board_perft},
    {"divide", board_divide},
    {NULL, NULL}
};

void lb_open_perft(lua_State *L)
{
    lb_push_board_methods(L);
    lb_setfuncs(L, perft_methods);
    lua_pop(L, 1);
}
