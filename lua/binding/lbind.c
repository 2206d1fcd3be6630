/*
 * lbind.c - the base of the Lua binding, shared by every binding file
 * (lbind.h is the contract): the State and the type checks, small argument
 * helpers, making boards and move objects, the bracket around core calls
 * that may run Lua code (rule hooks) and the hooks themselves, options
 * checking ("did you mean"), stop conditions (interrupt and deadline) and
 * the error values of failed core calls.
 *
 * Every argument is checked before the core is called, so a Lua error never
 * interrupts core work halfway. Lua code runs during core work only inside a
 * protected call (hooks, progress callbacks); its error is raised after the
 * core has returned and the board is consistent again.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbind.h"

static const char state_key = 'S';  /* registry key (its address) of the State */

State *lb_state(lua_State *L)
{
    State *st;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &state_key);
    st = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (st == NULL)
        luaL_error(L, "cheskers: the module is not open in this state");
    return st;
}

/* The chk_alloc of a State (ud): the Lua state's allocator as it is now
 * (a sandbox's budget installs its own while a box runs, and so counts
 * what the core keeps for the box), the net growth counted for the
 * collector (lb_settle_gc). Calls no Lua API function that could raise. */
static void *state_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    State *st = ud;
    void *aud;
    size_t old = ptr != NULL ? osize : 0;
    lua_Alloc f = lua_getallocf(st->main, &aud);
    void *q = f(aud, ptr, old, nsize);
    if (q == NULL && nsize > 0)
        return NULL;
    if (nsize > old)
        st->gc_debt += nsize - old;
    else
        st->gc_debt -= old - nsize < st->gc_debt ? old - nsize : st->gc_debt;
    return q;
}

/* [-0, +1] The State of this Lua state, made on first use. */
void lb_push_state(lua_State *L)
{
    State *st;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &state_key) == LUA_TUSERDATA)
        return;
    lua_pop(L, 1);
    st = lua_newuserdatauv(L, sizeof(State), 0);
    memset(st, 0, sizeof *st);
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
    st->main = lua_tothread(L, -1);
    lua_pop(L, 1);
    st->alloc.fn = state_alloc;
    st->alloc.ud = st;
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &state_key);
}

#define SETTLE_BYTES ((size_t)64 << 10)   /* tell the collector in steps of at least this */

void lb_settle_gc(lua_State *L, State *st)
{
    if (st->gc_debt < SETTLE_BYTES)
        return;
    size_t kib = st->gc_debt >> 10;
    st->gc_debt = 0;
    lua_gc(L, LUA_GCSTEP, kib > INT_MAX ? INT_MAX : (int)kib);
}

void lb_setfuncs(lua_State *L, const luaL_Reg *l)
{
    luaL_checkstack(L, 3, "cheskers");
    lb_push_state(L);
    luaL_getmetatable(L, BOARD_MT);
    luaL_getmetatable(L, MOVE_MT);
    luaL_setfuncs(L, l, 3);
}

void lb_push_board_methods(lua_State *L)
{
    luaL_getmetatable(L, BOARD_MT);
    lua_getfield(L, -1, "__index");
    lua_remove(L, -2);
}

/* The userdata at arg of the type whose metatable is kept in the State (up)
 * or, without upvalues, is the registry's tname; else NULL. [-0, +0] */
void *lb_test_udata(lua_State *L, int arg, bool up, bool board)
{
    void *p;
    if (!up)
        return luaL_testudata(L, arg, board ? BOARD_MT : MOVE_MT);
    p = lb_test_type(L, arg, board ? getstate(L)->board_mt : getstate(L)->move_mt);
    if (p != NULL)
        lua_pop(L, 1);
    return p;
}

/* Sets the metatable of the value on top: the upvalue mt or the registry's tname. */
static void set_metatable(lua_State *L, bool up, int mt, const char *tname)
{
    if (up) {
        lua_pushvalue(L, mt);
        lua_setmetatable(L, -2);
    } else
        luaL_setmetatable(L, tname);
}

/* [-0, +1] Pushes s (len bytes) quoted and cut short for an error message;
 * returns it. */
const char *lb_push_clipped(lua_State *L, const char *s, size_t len)
{
    char buf[48];
    size_t i, n = len > 32 ? 32 : len;
    buf[0] = '\'';
    for (i = 0; i < n; i++)
        buf[i + 1] = (s[i] == '\0' || s[i] == '\n') ? '?' : s[i];
    if (n < len) {
        memcpy(buf + n + 1, "...", 3);
        n += 3;
    }
    buf[n + 1] = '\'';
    return lua_pushlstring(L, buf, n + 2);
}

/* [-0, +1] Pushes the value at idx as messages echo it ("'maybe'", "2.5",
 * "a table"), as cheskers.schema.show does; returns it. */
const char *lb_push_value_text(lua_State *L, int idx)
{
    size_t len;
    switch (lua_type(L, idx)) {
    case LUA_TSTRING: {
        const char *s = lua_tolstring(L, idx, &len);
        return lb_push_clipped(L, s, len);
    }
    case LUA_TNUMBER:
    case LUA_TBOOLEAN:
    case LUA_TNIL:
        return luaL_tolstring(L, idx, &len);
    default:
        return lua_pushfstring(L, "a %s", luaL_typename(L, idx));
    }
}

/* A piece's letter (lower case for Black), 0 for CHK_NONE. */
char lb_piece_letter(const chk_rules *r, uint8_t pc)
{
    char c;
    if (pc == CHK_NONE)
        return 0;
    c = lb_kind_letter(r, CHK_PIECE_KIND(pc));
    return CHK_PIECE_COLOR(pc) == CHK_BLACK ? (char)tolower((unsigned char)c) : c;
}

void lb_push_square(lua_State *L, int sq)
{
    char name[3];
    if (sq < 0 || sq >= CHK_SQUARES) {
        lua_pushliteral(L, "??");
        return;
    }
    chk_sq_name(sq, name);
    lua_pushlstring(L, name, 2);
}

/* A square name argument: its index, or raises naming it. */
int lb_check_square(lua_State *L, int arg)
{
    size_t len;
    const char *s = luaL_checklstring(L, arg, &len);
    int sq = len == 2 ? chk_sq_parse(s) : -1;
    if (sq < 0) {
        bool light = len == 2 && s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8';
        const char *q = lb_push_clipped(L, s, len);
        return luaL_argerror(L, arg, lua_pushfstring(L, "bad square %s%s", q,
                                                     light ? " (a light square)" : ""));
    }
    return sq;
}

/* Makes room for plies[0 .. n-1]; new entries are zero. False when out of
 * memory. From the board's allocator, as its history. */
bool lb_grow_plies(Board *b, size_t n)
{
    const chk_alloc *a = b->pos.alloc;
    Ply *p;
    size_t cap;
    if (n <= b->nplies)
        return true;
    if (n > SIZE_MAX / 2 / sizeof *p)
        return false;
    cap = b->nplies ? b->nplies : 16;
    while (cap < n)
        cap *= 2;
    p = a->fn(a->ud, b->plies, b->nplies * sizeof *p, cap * sizeof *p);
    if (p == NULL)
        return false;
    memset(p + b->nplies, 0, (cap - b->nplies) * sizeof *p);
    b->plies = p;
    b->nplies = cap;
    return true;
}

/* Forgets what the slots keep (they keep nothing or moves taken back). */
void lb_clear_slots(Board *b)
{
    int s;
    for (s = 0; s < PLY_SLOTS; s++)
        b->slot_ply[s] = NO_PLY;
}

/* [-0, +1] A new board userdata using the Rules at ridx, closed (no position
 * yet) but with its plies allocated for a position with nhist moves.
 * Uservalue 1: the Rules; 2: the table of the move objects played that are
 * not in the nslots (0 or PLY_SLOTS) uservalues from 3 on (nil until one is
 * needed). */
Board *lb_new_board(lua_State *L, int ridx, size_t nhist, bool up, int nslots)
{
    Board *b;
    ridx = lua_absindex(L, ridx);
    b = lua_newuserdatauv(L, sizeof(Board), nslots + 2);
    b->pos.alloc = lb_alloc(((Rules *)lua_touserdata(L, ridx))->ctx.st);
    b->nslots = nslots;
    lb_clear_slots(b);
    b->plies = NULL;
    b->nplies = 0;
    b->busy = false;
    b->closed = true;
    set_metatable(L, up, UV_BOARD_MT, BOARD_MT);
    lua_pushvalue(L, ridx);
    lua_setiuservalue(L, -2, 1);
    if (!lb_reserve_plies(b, nhist + 1))
        lb_error(L, LB_E_NO_MEMORY, "not enough memory");
    return b;
}

/* [-0, +1] A new board, a copy of src, using the Rules at ridx. up: one for
 * Lua code (b:copy), else for a hook. */
Board *lb_push_board_copy(lua_State *L, const chk_pos *src, int ridx, bool up)
{
    Board *b = lb_new_board(L, ridx, src->nhist, up, up ? PLY_SLOTS : 0);
    const chk_alloc *a = b->pos.alloc;
    /* src is a board's position (a hook's is the board's own): the same allocator */
    if (!chk_pos_copy(&b->pos, src)) {
        b->pos.alloc = a;
        lb_error(L, LB_E_NO_MEMORY, "not enough memory");
    }
    b->closed = false;
    lb_settle_gc(L, a->ud);
    return b;
}

void lb_init_pos(Board *b, const chk_rules *r, bool start)
{
    const chk_alloc *a = b->pos.alloc;
    if (start)
        chk_pos_start(&b->pos, r);
    else
        chk_pos_init(&b->pos, r);
    b->pos.alloc = a;
}

void lb_free_board(Board *b)
{
    const chk_alloc *a = b->pos.alloc;
    if (!b->closed) {
        b->closed = true;
        chk_pos_free(&b->pos);
    }
    a->fn(a->ud, b->plies, b->nplies * sizeof *b->plies, 0);
    b->plies = NULL;
    b->nplies = 0;
}

/* b, the board at arg or NULL when that is no board, when it is open. idle:
 * also require that no core work runs on it, as every call that changes the
 * board or runs core work on it does. */
Board *lb_unusable_board(lua_State *L, int arg, const Board *b)
{
    if (b == NULL)
        luaL_typeerror(L, arg, BOARD_MT);
    if (b->closed)
        lb_error(L, LB_E_BAD_ARGUMENT, "attempt to use a closed board");
    lb_error(L, LB_E_BUSY, "board is busy");
    return NULL;
}

/* The open board at arg (see lb_usable_board). */
Board *lb_check_board(lua_State *L, int arg, bool idle, bool up)
{
    return lb_usable_board(L, arg, lb_testboard(L, arg, up), idle);
}

/* [-0, +1] A new move object, its fields not set (lb_set_move does). */
Move *lb_new_move(lua_State *L, bool up)
{
    Move *mv = lua_newuserdatauv(L, sizeof(Move), 0);
    set_metatable(L, up, UV_MOVE_MT, MOVE_MT);
    return mv;
}

/* The text of a move object into buf (MOVE_TEXT_SIZE bytes). Made without a
 * position (so without the rules' letters): the promotion letter is the one
 * kept in the object. */
const char *lb_move_text(const Move *mv, char *buf)
{
    size_t len = chk_move_text(NULL, &mv->m, buf, MOVE_TEXT_SIZE);
    if (len >= MOVE_TEXT_SIZE)
        len = MOVE_TEXT_SIZE - 1;
    buf[len] = '\0';
    if (mv->promo && len > 0)
        buf[len - 1] = mv->promo;
    return buf;
}

Move *lb_push_move(lua_State *L, const chk_pos *p, const chk_move *m, uint64_t stamp, bool up)
{
    Move *mv = lb_new_move(L, up);
    lb_set_move(mv, p, m, stamp);
    return mv;
}

void lb_push_move_list(lua_State *L, int mt, const chk_pos *p, const chk_move *list,
                       const int *order, const int *index, int n, uint64_t stamp)
{
    int i;
    mt = lua_absindex(L, mt);
    lua_createtable(L, n, 0);
    for (i = 0; i < n; i++) {
        Move *mv = lua_newuserdatauv(L, sizeof(Move), 0);
        lua_pushvalue(L, mt);
        lua_setmetatable(L, -2);
        lb_set_move(mv, p, &list[order[i]], stamp);
        mv->index = (uint16_t)(index ? index[order[i]] : i + 1);
        lua_rawseti(L, -2, i + 1);
    }
}

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

/* ---- stopping and failed core calls ------------------------------------- */

/* The one mutable global: set by cheskers.interrupt() or a SIGINT handler. */
static volatile sig_atomic_t interrupt_flag = 0;

volatile sig_atomic_t *lb_interrupt_flag(void)
{
    return &interrupt_flag;
}

/* The deadline argument arg sets on a clock that reads now: now + seconds,
 * or 0 (nil or none: no deadline). */
static double deadline_arg(lua_State *L, int arg, double now)
{
    if (lua_isnoneornil(L, arg))
        return 0;
    lua_Number secs = luaL_checknumber(L, arg);
    luaL_argcheck(L, secs >= 0 && secs < 1e9, arg, "seconds must be from 0 to 1e9");
    return now + secs;
}

/* [-0, +1] The seconds left before a deadline (0: none, pushes nil). */
static void push_left(lua_State *L, double deadline, double now)
{
    if (deadline > 0)
        lua_pushnumber(L, deadline > now ? deadline - now : 0);
    else
        lua_pushnil(L);
}

/* cheskers.deadline([seconds [, cpu_seconds]]): every long core call stops
 * (code "timeout"; a search returns its best move so far) once seconds of
 * wall clock have passed from now, or cpu_seconds of the process's CPU time
 * have been used from now; nil or none: no such deadline. Returns the
 * seconds left of the previous deadlines (wall, CPU), each nil if none. */
int lb_deadline(lua_State *L)
{
    State *st = lb_state(L);
    double now = chk_clock(), cpu_now = chk_cpu_clock();
    double wall = deadline_arg(L, 1, now), cpu = deadline_arg(L, 2, cpu_now);
    push_left(L, st->deadline, now);
    push_left(L, st->cpu_deadline, cpu_now);
    st->deadline = wall;
    st->cpu_deadline = cpu;
    return 2;
}

/* The earlier of two deadlines (0: none). */
static double earlier(double a, double b)
{
    return a > 0 && (b <= 0 || a < b) ? a : b;
}

chk_stop lb_stop(lua_State *L)
{
    State *st = lb_state(L);
    interrupt_flag = 0;
    chk_stop s = chk_stop_make(&interrupt_flag, earlier(st->deadline, st->box_deadline));
    s.cpu_deadline = earlier(st->cpu_deadline, st->box_cpu_deadline);
    return s;
}

void lb_push_status_error(lua_State *L, int status, const char *who)
{
    const char *sep = who ? ": " : "";
    lb_code code;
    if (who == NULL)
        who = "";
    switch (status) {
    case CHK_STOPPED:
        code = LB_E_INTERRUPTED;
        lua_pushliteral(L, "interrupted");
        break;
    case CHK_TIMEOUT:
        code = LB_E_TIMEOUT;
        lua_pushfstring(L, "%s%sdeadline passed (cheskers.deadline)", who, sep);
        break;
    case CHK_HOOK_ERROR:
        code = LB_E_HOOK;
        lua_pushfstring(L, "%s%sa rule hook failed", who, sep);
        break;
    case CHK_NODE_LIMIT:
        code = LB_E_NODE_LIMIT;
        lua_pushfstring(L, "%s%snode limit reached", who, sep);
        break;
    case CHK_NO_MEMORY:
        code = LB_E_NO_MEMORY;
        lua_pushfstring(L, "%s%snot enough memory", who, sep);
        break;
    case CHK_BAD_OPTION:
        code = LB_E_BAD_ARGUMENT;
        lua_pushfstring(L, "%s%san option out of its range", who, sep);
        break;
    default:
        code = LB_E_INTERNAL;
        lua_pushfstring(L, "%s%sfailed (%s)", who, sep, chk_status_name(status));
    }
    lb_push_error(L, code, lua_tostring(L, -1));
    lua_remove(L, -2);
}

int lb_status_error(lua_State *L, int status, const char *who)
{
    lb_push_status_error(L, status, who);
    return lua_error(L);
}
