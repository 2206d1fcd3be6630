/*
 * lhook.c - the rule hooks (filter, result) and the bracket around core
 * calls that may run Lua code (lbind.h: lb_core_begin/end, lb_call_begin/
 * end): a hook runs under a protected call, its error is kept and raised
 * after the core has returned and the board is consistent again.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbind.h"


/* Runs under lua_pcall from lb_filter_hook. [pos, move (light userdata), Rules]
 * -> keep (boolean). The hook gets a fresh board copy and a move object that
 * can be played on it. */
static int call_filter(lua_State *L)
{
    const chk_pos *pos = lua_touserdata(L, 1);
    const chk_move *m = lua_touserdata(L, 2);
    Rules *r = lua_touserdata(L, 3);
    Board *b;
    lua_getiuservalue(L, 3, 1);
    lua_getfield(L, -1, "filter");
    b = lb_push_board_copy(L, pos, 3, false);
    lb_push_move(L, pos, m, lb_board_stamp(b, r->ctx.st), false);
    lua_call(L, 2, 1);
    if (!lua_isboolean(L, -1))
        return lb_error(L, LB_E_HOOK, "filter hook must return a boolean (got %s)", luaL_typename(L, -1));
    return 1;
}

/* Runs under lua_pcall from lb_result_hook. [pos (light userdata), Rules] ->
 * winner code (-1: none), reason (string or nil). */
static int call_result(lua_State *L)
{
    static const char *const winners[] = {"white", "black", "draw", NULL};
    static const int codes[] = {CHK_WHITE, CHK_BLACK, CHK_DRAW_RESULT};
    const chk_pos *pos = lua_touserdata(L, 1);
    int top, i;
    lua_getiuservalue(L, 2, 1);
    lua_getfield(L, -1, "result");
    lb_push_board_copy(L, pos, 2, false);
    lua_call(L, 1, 2);
    top = lua_gettop(L);    /* winner at top - 1, reason at top */
    if (lua_isnil(L, top - 1)) {
        lua_pushinteger(L, -1);
        lua_pushnil(L);
        return 2;
    }
    if (lua_type(L, top - 1) != LUA_TSTRING)
        return lb_error(L, LB_E_HOOK, "result hook must return \"white\", \"black\", \"draw\" or nil (got %s)",
                          luaL_typename(L, top - 1));
    for (i = 0; winners[i] && strcmp(winners[i], lua_tostring(L, top - 1)) != 0; i++)
        ;
    if (winners[i] == NULL) {
        size_t len;
        const char *s = lua_tolstring(L, top - 1, &len);
        return lb_error(L, LB_E_HOOK, "result hook returned a bad winner %s (\"white\", \"black\", \"draw\" or nil)",
                          lb_push_clipped(L, s, len));
    }
    if (!lua_isnil(L, top) && lua_type(L, top) != LUA_TSTRING)
        return lb_error(L, LB_E_HOOK, "result hook must return a reason string (got %s)", luaL_typename(L, top));
    lua_pushinteger(L, codes[i]);
    lua_pushvalue(L, top);
    return 2;
}

/* The Rules whose hook context ctx is. */
static Rules *ctx_owner(HookCtx *ctx)
{
    return (Rules *)(void *)((char *)ctx - offsetof(Rules, ctx));
}

/* Runs protected: [Rules (light userdata), error value] -> (). Keeps the
 * first line of the error's message as the rules' last hook failure
 * (no metamethod of the value runs). */
static int keep_failure(lua_State *L)
{
    Rules *r = lua_touserdata(L, 1);
    size_t len, n = 0;
    const char *s;
    if (lua_type(L, 2) == LUA_TSTRING)
        s = lua_tolstring(L, 2, &len);
    else if (lua_type(L, 2) == LUA_TTABLE && lb_rawgetfield(L, 2, "message") == LUA_TSTRING)
        s = lua_tolstring(L, -1, &len);
    else {
        s = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 2));
        len = strlen(s);
    }
    while (n < len && n < sizeof r->hook_error - 1 && s[n] != '\n' && s[n] != '\0')
        n++;
    memcpy(r->hook_error, s, n);
    r->hook_error[n] = '\0';
    return 0;
}

/* After a hook of ctx's rules raised (its error value on top): counts it
 * and keeps its message (budget.hook_failures). Nothing here can raise. */
static void hook_failed(HookCtx *ctx)
{
    lua_State *L = ctx->L;
    Rules *r = ctx_owner(ctx);
    r->hook_failures++;
    lua_pushcfunction(L, keep_failure);
    lua_pushlightuserdata(L, r);
    lua_pushvalue(L, -3);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK)
        lua_pop(L, 1);
}

/* Common checks before a hook runs; false when it cannot (ctx->failed set
 * when the failure belongs to the running core call). The hook runs only
 * inside the core call that lb_core_begin prepared: not when the core was
 * called some other way (ctx->L NULL, or L's current frame is not the one
 * holding the slots, e.g. a core call made by other binding code from
 * inside a hook). */
static bool hook_can_run(HookCtx *ctx)
{
    Rules *owner = ctx_owner(ctx);
    if (ctx->L == NULL || lua_gettop(ctx->L) != ctx->top ||
        lua_touserdata(ctx->L, ctx->idx) != (void *)owner)
        return false;
    if (ctx->failed)
        return false;
    if (ctx->st->hook_depth >= MAX_HOOK_DEPTH) {
        ctx->failed = HOOK_DEPTH;
        return false;
    }
    if (!lua_checkstack(ctx->L, 6)) {
        ctx->failed = HOOK_STACK;
        return false;
    }
    return true;
}

/* Calls the hook pushed with its nargs arguments (the hook table last),
 * counted as running; false (the error kept in the slot after the hook
 * table, the failure recorded) when it raised. Nothing here can raise. */
static bool hook_pcall(HookCtx *ctx, int nargs, int nresults)
{
    lua_State *L = ctx->L;
    int status;
    ctx->st->hook_depth++;
    status = lua_pcall(L, nargs, nresults, 0);
    ctx->st->hook_depth--;
    if (status == LUA_OK)
        return true;
    hook_failed(ctx);
    lua_replace(L, ctx->idx + 1);
    ctx->failed = HOOK_ERROR;
    return false;
}

/* The chk_filter_fn of rules with a Lua filter. Nothing here can raise. */
int lb_filter_hook(void *ud, const chk_pos *pos, const chk_move *m)
{
    HookCtx *ctx = ud;
    lua_State *L = ctx->L;
    int keep;
    if (!hook_can_run(ctx))
        return -1;
    lua_pushcfunction(L, call_filter);
    lua_pushlightuserdata(L, (void *)pos);
    lua_pushlightuserdata(L, (void *)m);
    lua_pushvalue(L, ctx->idx);
    if (!hook_pcall(ctx, 3, 1))
        return -1;
    keep = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return keep;
}

/* The chk_result_fn of rules with a Lua result hook. Nothing here can raise. */
int lb_result_hook(void *ud, const chk_pos *pos, int *winner)
{
    HookCtx *ctx = ud;
    lua_State *L = ctx->L;
    int code;
    if (!hook_can_run(ctx))
        return -1;
    lua_pushcfunction(L, call_result);
    lua_pushlightuserdata(L, (void *)pos);
    lua_pushvalue(L, ctx->idx);
    if (!hook_pcall(ctx, 2, 2))
        return -1;
    code = (int)lua_tointeger(L, -2);
    if (code < 0) {
        lua_pop(L, 2);
        return 0;
    }
    lua_replace(L, ctx->idx + 2);   /* the reason, kept for b:result() */
    lua_pop(L, 1);
    *winner = code;
    return 1;
}

/* [-0, +(0|3)] Prepares a core call on board b (at stack index bidx) that may
 * run hooks: pushes the Rules userdata and two slots, points the rules' hook
 * context at them and marks the board busy. No-op when the rules have no
 * hooks. Raises only before anything is changed. */
void lb_core_begin(lua_State *L, int bidx, Board *b, CoreCall *cc)
{
    Rules *r = rules_of(b);
    memset(cc, 0, sizeof *cc);
    if (r->r.filter == NULL && r->r.result == NULL)
        return;
    luaL_checkstack(L, 3, "core call");
    lua_getiuservalue(L, bidx, 1);
    lua_pushnil(L);
    lua_pushnil(L);
    cc->rules = r;
    cc->saved = r->ctx;
    cc->saved_busy = b->busy;
    cc->idx = lua_gettop(L) - 2;
    r->ctx.L = L;
    r->ctx.idx = cc->idx;
    r->ctx.top = cc->idx + 2;
    r->ctx.failed = HOOK_OK;
    b->busy = true;
}

/* Ends a core call: restores the hook context and the busy flag. Returns
 * HOOK_OK or how a hook failed. The slots stay on the stack. */
int lb_core_end(Board *b, CoreCall *cc)
{
    int failed;
    if (cc->rules == NULL)
        return HOOK_OK;
    failed = cc->rules->ctx.failed;
    cc->rules->ctx = cc->saved;
    b->busy = cc->saved_busy;
    return failed;
}

/* Raises the error of a failed hook (after lb_core_end). */
int lb_hook_error(lua_State *L, const CoreCall *cc, int failed)
{
    switch (failed) {
    case HOOK_ERROR:
        lua_pushvalue(L, cc->idx + 1);
        return lua_error(L);
    case HOOK_STACK:
        return lb_error(L, LB_E_HOOK, "rules hook: stack overflow");
    case HOOK_DEPTH:
        return lb_error(L, LB_E_HOOK, "rules hooks nested too deeply (more than %d)", MAX_HOOK_DEPTH);
    default:
        return lb_error(L, LB_E_HOOK, "rules hook failed");
    }
}

/* [-0, +1] t[name] without metamethods. Returns its type. */
int lb_rawgetfield(lua_State *L, int t, const char *name)
{
    t = lua_absindex(L, t);
    lua_pushstring(L, name);
    return lua_rawget(L, t);
}

int lb_call_begin(lua_State *L, int arg)
{
    Board *b;
    CoreCall *cc;
    int slot;
    arg = lua_absindex(L, arg);
    b = lb_check_board(L, arg, true, false);
    luaL_checkstack(L, 4, "core call");
    cc = lua_newuserdatauv(L, sizeof *cc, 0);
    slot = lua_gettop(L);
    lb_core_begin(L, arg, b, cc);
    if (cc->rules == NULL) {
        cc->saved_busy = b->busy;
        b->busy = true;
    }
    return slot;
}

void lb_call_end(lua_State *L, int arg, int slot)
{
    Board *b = lua_touserdata(L, arg);
    CoreCall *cc = lua_touserdata(L, slot);
    int failed = HOOK_OK;
    if (cc->rules != NULL)
        failed = lb_core_end(b, cc);
    else
        b->busy = cc->saved_busy;
    if (failed)
        lb_hook_error(L, cc, failed);
    lua_settop(L, slot - 1);
}
