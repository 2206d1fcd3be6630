/*
 * lbind.c - the base of the Lua binding, shared by every binding file
 * (lbind.h is the contract): the State and the type checks, small argument
 * helpers, making boards and move objects. The rest of the contract is
 * kept by a file per concern: lhook.c (the bracket around core calls that
 * may run Lua code, and the rule hooks themselves), lopt.c (option tables:
 * "did you mean", their numbers), lstop.c (stop conditions: interrupt and
 * deadline; the error values of failed core calls).
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
