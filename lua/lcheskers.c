/*
 * lcheskers.c - the Lua 5.4 binding of the Cheskers core: the module
 * "cheskers" (docs/lua_api.md is the contract). Modelled on Lua's liolib.c.
 *
 * Three userdata types, each with its metatable in the registry:
 *   cheskers.rules  Rules: a chk_rules plus the context its hooks run in;
 *                   uservalue 1 is a table {filter =, result =, start =}.
 *                   Never handed to Lua code; boards keep it alive.
 *   cheskers.board  Board: a chk_pos (owning its history); uservalue 1 is
 *                   its Rules userdata (shared by copies); the move objects
 *                   played (undo and history return them) are kept in
 *                   uservalues 3 .. PLY_SLOTS + 2 for the last plies, the
 *                   older ones in the table of uservalue 2.
 *   cheskers.move   Move: a chk_move with its piece letters (its text is
 *                   made when asked for).
 *
 * Every argument is checked before the core is called, so a Lua error never
 * interrupts core work halfway. Lua code runs during core work only inside a
 * protected call (hooks, progress callbacks); its error is raised after the
 * core has returned and the board is consistent again.
 *
 * All functions here share three upvalues: the State userdata (unique per
 * Lua state, kept in the registry: a counter for stamps, the hook nesting
 * depth and the addresses of the two metatables), the board metatable and
 * the move metatable. Type checks compare the address of an object's
 * metatable with the one kept in the State rather than look it up in the
 * registry: b:play(), b:undo(), b:count() and b:moves() are called millions
 * of times by a perft written in Lua (bench/lua_perft.lua), so their paths
 * make as few Lua API calls as they can. Code that runs without the upvalues
 * (hooks, the exports for lsolve.c and lengine.c) passes up = false and uses
 * the registry.
 */
#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "cheskers.h"
#include "lcheskers.h"

#define BOARD_MT "cheskers.board"
#define MOVE_MT  "cheskers.move"
#define RULES_MT "cheskers.rules"

#define MAX_TEXT        256     /* longest position or move text accepted */
#define MAX_HOOK_DEPTH  16      /* hooks running inside hooks, at most */
#define MAX_PERFT_DEPTH 64
#define MOVE_TEXT_SIZE  (3 * CHK_MAX_PATH + 16)
#define FEN_SIZE        256
#define ERR_SIZE        512

/* The one mutable global: set by cheskers.interrupt() or a SIGINT handler. */
static volatile sig_atomic_t interrupt_flag = 0;

volatile sig_atomic_t *lcheskers_interrupt_flag(void)
{
    return &interrupt_flag;
}

/* ---- types -------------------------------------------------------------- */

typedef struct State {
    uint64_t last_stamp;    /* stamps are unique within the Lua state */
    int hook_depth;         /* hooks running, nested */
    const void *board_mt;   /* lua_topointer of the board and move metatables */
    const void *move_mt;
} State;

enum { HOOK_OK, HOOK_ERROR, HOOK_STACK, HOOK_DEPTH };

/* Where the hooks of a rule set run. Set around each core call that may call
 * them (core_begin/core_end), saved and restored so that calls nest. */
typedef struct HookCtx {
    lua_State *L;   /* the state running the core call; NULL outside one */
    int idx;        /* in L: the Rules userdata; idx + 1: error slot, idx + 2: reason slot */
    int top;        /* lua_gettop(L) during the core call (idx + 2) */
    int failed;     /* HOOK_*: a hook failed (HOOK_ERROR: its error value is in the error slot) */
    State *st;
} HookCtx;

typedef struct Rules {
    chk_rules r;    /* first member: a board's pos.rules points here */
    HookCtx ctx;
} Rules;

struct Move;

/* What a board knows of the position after i moves of its history. */
typedef struct Ply {
    uint64_t stamp;             /* 0: none given yet */
    const struct Move *played;  /* the move object of history entry i (the
                                   move made from here) as play_legal kept
                                   it, NULL when none; only compared */
} Ply;

/* Uservalues of the boards made by cheskers.new and b:copy that keep the
 * move objects of the last plies played, history entry i in uservalue
 * 3 + i % PLY_SLOTS (ply_slot): one API call sets or reads one, a table entry
 * takes two or three, and b:play and b:undo run millions of times in a
 * perft or a search written in Lua. The boards given to hooks have none. */
#define PLY_SLOTS 16
#define NO_PLY    SIZE_MAX

typedef struct Board {
    chk_pos pos;
    Ply *plies;         /* plies[i]: the position after i moves of history */
    size_t nplies;      /* allocated; always > pos.nhist while the board is idle */
    int nslots;         /* PLY_SLOTS or 0 */
    size_t slot_ply[PLY_SLOTS]; /* the history entry whose move object is in
                                   each slot, NO_PLY for none; an entry the
                                   history still has when it is below
                                   pos.nhist, else a move taken back */
    bool busy;          /* core work or a callback runs on it */
    bool closed;        /* no position (freed, or not made yet) */
} Board;

/* A move object. stamp (when not 0) is the stamp of the board position it was
 * listed in as legal: such a move is played without generating moves again.
 * Its text is made when asked for (move_text). */
typedef struct Move {
    chk_move m;
    uint64_t stamp;
    char piece, promo;      /* letters; promo 0 for none */
} Move;

/* A core call that may run hooks. */
typedef struct CoreCall {
    Rules *rules;       /* NULL: no hooks */
    HookCtx saved;
    bool saved_busy;
    int idx;            /* as HookCtx.idx */
} CoreCall;

static const char state_key = 'S';  /* registry key (its address) of the State */

#define getstate(L) ((State *)lua_touserdata(L, lua_upvalueindex(1)))
#define UV_BOARD_MT lua_upvalueindex(2)
#define UV_MOVE_MT  lua_upvalueindex(3)
#define rules_of(b) ((Rules *)(b)->pos.rules)

/* [-0, +(0|1)] The userdata at arg when the address of its metatable is mt
 * (a State's board_mt or move_mt), else NULL. When it is one, leaves its
 * metatable pushed, which the caller pops, or leaves below its results: the
 * hot paths save that call. Three API calls, no registry lookup.
 * A light userdata passes only when the metatable of all light userdata is
 * mt, which debug.setmetatable alone can do (as it can give any full
 * userdata the metatable of a board): like luaL_testudata, this guards
 * against mistakes, not against the debug library. */
static void *test_type(lua_State *L, int arg, const void *mt)
{
    void *p = lua_touserdata(L, arg);   /* NULL unless a (full or light) userdata */
    if (p == NULL || !lua_getmetatable(L, arg))
        return NULL;
    if (lua_topointer(L, -1) != mt) {
        lua_pop(L, 1);      /* arg (maybe relative) is valid again */
        return NULL;
    }
    return p;
}

/* The userdata at arg of the type whose metatable is kept in the State (up)
 * or, without upvalues, is the registry's tname; else NULL. [-0, +0] */
static void *test_udata(lua_State *L, int arg, bool up, bool board)
{
    void *p;
    if (!up)
        return luaL_testudata(L, arg, board ? BOARD_MT : MOVE_MT);
    p = test_type(L, arg, board ? getstate(L)->board_mt : getstate(L)->move_mt);
    if (p != NULL)
        lua_pop(L, 1);
    return p;
}

#define testmove(L, arg, up) ((Move *)test_udata(L, arg, up, false))
#define testboard(L, arg, up) ((Board *)test_udata(L, arg, up, true))

/* Sets the metatable of the value on top: the upvalue mt or the registry's tname. */
static void set_metatable(lua_State *L, bool up, int mt, const char *tname)
{
    if (up) {
        lua_pushvalue(L, mt);
        lua_setmetatable(L, -2);
    } else
        luaL_setmetatable(L, tname);
}

static Board *toboard(lua_State *L)
{
    Board *b = testboard(L, 1, true);
    if (b == NULL)
        luaL_typeerror(L, 1, BOARD_MT);
    return b;
}

static Move *tomove(lua_State *L)
{
    Move *m = testmove(L, 1, true);
    if (m == NULL)
        luaL_typeerror(L, 1, MOVE_MT);
    return m;
}

/* ---- small helpers ------------------------------------------------------ */

/* [-0, +1] Pushes s (len bytes) quoted and cut short for an error message;
 * returns it. */
static const char *push_clipped(lua_State *L, const char *s, size_t len)
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

static char kind_letter(const chk_rules *r, int kind)
{
    return (kind >= 0 && kind < r->nkinds) ? r->kinds[kind].letter : '?';
}

/* A piece's letter (lower case for Black), 0 for CHK_NONE. */
static char piece_letter(const chk_rules *r, uint8_t pc)
{
    char c;
    if (pc == CHK_NONE)
        return 0;
    c = kind_letter(r, CHK_PIECE_KIND(pc));
    return CHK_PIECE_COLOR(pc) == CHK_BLACK ? (char)tolower((unsigned char)c) : c;
}

static void push_square(lua_State *L, int sq)
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
static int check_square(lua_State *L, int arg)
{
    size_t len;
    const char *s = luaL_checklstring(L, arg, &len);
    int sq = len == 2 ? chk_sq_parse(s) : -1;
    if (sq < 0) {
        bool light = len == 2 && s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8';
        const char *q = push_clipped(L, s, len);
        return luaL_argerror(L, arg, lua_pushfstring(L, "bad square %s%s", q,
                                                     light ? " (a light square)" : ""));
    }
    return sq;
}

/* ---- boards: stamps ----------------------------------------------------- */

/* Makes room for plies[0 .. n-1]; new entries are zero. False when out of memory. */
static bool reserve_plies(Board *b, size_t n)
{
    Ply *p;
    size_t cap;
    if (n <= b->nplies)
        return true;
    cap = b->nplies ? b->nplies : 16;
    while (cap < n)
        cap *= 2;
    p = realloc(b->plies, cap * sizeof *p);
    if (p == NULL)
        return false;
    memset(p + b->nplies, 0, (cap - b->nplies) * sizeof *p);
    b->plies = p;
    b->nplies = cap;
    return true;
}

/* The stamp of the current position (given one on first use). */
static uint64_t board_stamp(Board *b, State *st)
{
    uint64_t *s = &b->plies[b->pos.nhist].stamp;
    if (*s == 0)
        *s = ++st->last_stamp;
    return *s;
}

/* The uservalue that may keep the move object of history entry i of b
 * (when b->slot_ply says so), 0 when b has none. */
static int ply_slot(const Board *b, size_t i)
{
    return b->nslots ? (int)(i % PLY_SLOTS) + 3 : 0;
}

/* Forgets what the slots keep (they keep nothing or moves taken back). */
static void clear_slots(Board *b)
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
static Board *new_board(lua_State *L, int ridx, size_t nhist, bool up, int nslots)
{
    Board *b;
    ridx = lua_absindex(L, ridx);
    b = lua_newuserdatauv(L, sizeof(Board), nslots + 2);
    b->nslots = nslots;
    clear_slots(b);
    b->plies = NULL;
    b->nplies = 0;
    b->busy = false;
    b->closed = true;
    set_metatable(L, up, UV_BOARD_MT, BOARD_MT);
    lua_pushvalue(L, ridx);
    lua_setiuservalue(L, -2, 1);
    if (!reserve_plies(b, nhist + 1))
        luaL_error(L, "not enough memory");
    return b;
}

/* [-0, +1] A new board, a copy of src, using the Rules at ridx. up: one for
 * Lua code (b:copy), else for a hook. */
static Board *push_board_copy(lua_State *L, const chk_pos *src, int ridx, bool up)
{
    Board *b = new_board(L, ridx, src->nhist, up, up ? PLY_SLOTS : 0);
    if (!chk_pos_copy(&b->pos, src))
        luaL_error(L, "not enough memory");
    b->closed = false;
    return b;
}

/* b, the board at arg or NULL when that is no board, when it is open. idle:
 * also require that no core work runs on it, as every call that changes the
 * board or runs core work on it does. */
static Board *open_board(lua_State *L, int arg, Board *b, bool idle)
{
    if (b == NULL)
        luaL_typeerror(L, arg, BOARD_MT);
    if (b->closed)
        luaL_error(L, "attempt to use a closed board");
    if (idle && b->busy)
        luaL_error(L, "board is busy");
    return b;
}

/* The open board at arg (see open_board). */
static Board *check_board_at(lua_State *L, int arg, bool idle, bool up)
{
    return open_board(L, arg, testboard(L, arg, up), idle);
}

#define checkboard(L) check_board_at(L, 1, false, true)
#define checkidle(L)  check_board_at(L, 1, true, true)
/* [-0, +1] checkidle with the State st at hand, for the hot methods: leaves
 * the board's metatable on the stack (test_type); raises when it is no board. */
#define checkidle_st(L, st) open_board(L, 1, (Board *)test_type(L, 1, (st)->board_mt), true)

/* ---- moves -------------------------------------------------------------- */

/* [-0, +1] A new move object, its fields not set (set_move does). */
static Move *new_move(lua_State *L, bool up)
{
    Move *mv = lua_newuserdatauv(L, sizeof(Move), 0);
    set_metatable(L, up, UV_MOVE_MT, MOVE_MT);
    return mv;
}

/* Fills mv with m, a move in position p (the position before it is made). */
static void set_move(Move *mv, const chk_pos *p, const chk_move *m, uint64_t stamp)
{
    const chk_rules *r = p->rules;
    mv->m = *m;
    mv->stamp = stamp;
    mv->piece = kind_letter(r, m->kind);
    mv->promo = m->promo == CHK_NONE ? 0 : kind_letter(r, m->promo);
}

/* The text of a move object into buf (MOVE_TEXT_SIZE bytes). Made without a
 * position (so without the rules' letters): the promotion letter is the one
 * kept in the object. */
static const char *move_text(const Move *mv, char *buf)
{
    size_t len = chk_move_text(NULL, &mv->m, buf, MOVE_TEXT_SIZE);
    if (len >= MOVE_TEXT_SIZE)
        len = MOVE_TEXT_SIZE - 1;
    buf[len] = '\0';
    if (mv->promo && len > 0)
        buf[len - 1] = mv->promo;
    return buf;
}

static Move *push_move(lua_State *L, const chk_pos *p, const chk_move *m, uint64_t stamp, bool up)
{
    Move *mv = new_move(L, up);
    set_move(mv, p, m, stamp);
    return mv;
}

/* [-0, +(1..3)] Pushes the move object of history entry i (0-based) of b
 * (at index 1), maybe above other values: the one that was played when it
 * is still known, else a new one. Only play_legal sets the uservalues and
 * the table that keep them, and only to move objects: one is taken when it
 * is the object recorded in plies[i].played (a check that costs no type
 * test) and still names the move of the history. */
static Move *push_played(lua_State *L, Board *b, size_t i)
{
    const chk_move *m = &b->pos.hist[i].move;
    int slot = ply_slot(b, i), type;
    if (slot && b->slot_ply[slot - 3] == i)
        type = lua_getiuservalue(L, 1, slot);
    else if (lua_getiuservalue(L, 1, 2) == LUA_TTABLE)
        type = lua_rawgeti(L, -1, (lua_Integer)i + 1);
    else
        type = LUA_TNIL;
    if (type == LUA_TUSERDATA) {
        Move *mv = lua_touserdata(L, -1);
        if (mv == b->plies[i].played && chk_move_equal(&mv->m, m) && mv->m.kind == m->kind)
            return mv;
    }
    return push_move(L, &b->pos, m, 0, true);
}

static int move_index(lua_State *L)
{
    Move *mv = tomove(L);
    const chk_move *m = &mv->m;
    const char *key;
    if (lua_type(L, 2) != LUA_TSTRING)
        return 0;
    key = lua_tostring(L, 2);
    if (strcmp(key, "from") == 0)
        push_square(L, m->from);
    else if (strcmp(key, "to") == 0)
        push_square(L, m->to);
    else if (strcmp(key, "path") == 0) {
        int i, n = m->npath < CHK_MAX_PATH ? m->npath : CHK_MAX_PATH;
        lua_createtable(L, n, 0);
        for (i = 0; i < n; i++) {
            push_square(L, m->path[i]);
            lua_rawseti(L, -2, i + 1);
        }
    } else if (strcmp(key, "captures") == 0) {
        int sq, n = 0;
        lua_newtable(L);
        for (sq = 0; sq < CHK_SQUARES; sq++)
            if (m->captures >> sq & 1) {
                push_square(L, sq);
                lua_rawseti(L, -2, ++n);
            }
    } else if (strcmp(key, "promotion") == 0) {
        if (mv->promo)
            lua_pushlstring(L, &mv->promo, 1);
        else
            lua_pushnil(L);
    } else if (strcmp(key, "piece") == 0)
        lua_pushlstring(L, &mv->piece, 1);
    else if (strcmp(key, "jump") == 0)
        lua_pushboolean(L, (m->flags & CHK_MF_JUMP) != 0);
    else if (strcmp(key, "take") == 0)
        lua_pushboolean(L, (m->flags & CHK_MF_TAKE) != 0);
    else
        lua_pushnil(L);
    return 1;
}

static int move_tostring(lua_State *L)
{
    char text[MOVE_TEXT_SIZE];
    lua_pushstring(L, move_text(tomove(L), text));
    return 1;
}

static int move_eq(lua_State *L)
{
    Move *a = testmove(L, 1, true), *b = testmove(L, 2, true);
    lua_pushboolean(L, a != NULL && b != NULL && chk_move_equal(&a->m, &b->m));
    return 1;
}

/* ---- hooks -------------------------------------------------------------- */

/* Runs under lua_pcall from filter_hook. [pos, move (light userdata), Rules]
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
    b = push_board_copy(L, pos, 3, false);
    push_move(L, pos, m, board_stamp(b, r->ctx.st), false);
    lua_call(L, 2, 1);
    if (!lua_isboolean(L, -1))
        return luaL_error(L, "filter hook must return a boolean (got %s)", luaL_typename(L, -1));
    return 1;
}

/* Runs under lua_pcall from result_hook. [pos (light userdata), Rules] ->
 * winner code (-1: none), reason (string or nil). */
static int call_result(lua_State *L)
{
    static const char *const winners[] = {"white", "black", "draw", NULL};
    static const int codes[] = {CHK_WHITE, CHK_BLACK, CHK_DRAW_RESULT};
    const chk_pos *pos = lua_touserdata(L, 1);
    int top, i;
    lua_getiuservalue(L, 2, 1);
    lua_getfield(L, -1, "result");
    push_board_copy(L, pos, 2, false);
    lua_call(L, 1, 2);
    top = lua_gettop(L);    /* winner at top - 1, reason at top */
    if (lua_isnil(L, top - 1)) {
        lua_pushinteger(L, -1);
        lua_pushnil(L);
        return 2;
    }
    if (lua_type(L, top - 1) != LUA_TSTRING)
        return luaL_error(L, "result hook must return \"white\", \"black\", \"draw\" or nil (got %s)",
                          luaL_typename(L, top - 1));
    for (i = 0; winners[i] && strcmp(winners[i], lua_tostring(L, top - 1)) != 0; i++)
        ;
    if (winners[i] == NULL) {
        size_t len;
        const char *s = lua_tolstring(L, top - 1, &len);
        return luaL_error(L, "result hook returned a bad winner %s (\"white\", \"black\", \"draw\" or nil)",
                          push_clipped(L, s, len));
    }
    if (!lua_isnil(L, top) && lua_type(L, top) != LUA_TSTRING)
        return luaL_error(L, "result hook must return a reason string (got %s)", luaL_typename(L, top));
    lua_pushinteger(L, codes[i]);
    lua_pushvalue(L, top);
    return 2;
}

/* Common checks before a hook runs; false when it cannot (ctx->failed set
 * when the failure belongs to the running core call). The hook runs only
 * inside the core call that core_begin prepared: not when the core was
 * called some other way (ctx->L NULL, or L's current frame is not the one
 * holding the slots, e.g. a core call made by other binding code from
 * inside a hook). */
static bool hook_can_run(HookCtx *ctx)
{
    Rules *owner = (Rules *)(void *)((char *)ctx - offsetof(Rules, ctx));
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

/* The chk_filter_fn of rules with a Lua filter. Nothing here can raise. */
static int filter_hook(void *ud, const chk_pos *pos, const chk_move *m)
{
    HookCtx *ctx = ud;
    lua_State *L = ctx->L;
    int status, keep;
    if (!hook_can_run(ctx))
        return -1;
    lua_pushcfunction(L, call_filter);
    lua_pushlightuserdata(L, (void *)pos);
    lua_pushlightuserdata(L, (void *)m);
    lua_pushvalue(L, ctx->idx);
    ctx->st->hook_depth++;
    status = lua_pcall(L, 3, 1, 0);
    ctx->st->hook_depth--;
    if (status != LUA_OK) {
        lua_replace(L, ctx->idx + 1);
        ctx->failed = HOOK_ERROR;
        return -1;
    }
    keep = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return keep;
}

/* The chk_result_fn of rules with a Lua result hook. Nothing here can raise. */
static int result_hook(void *ud, const chk_pos *pos, int *winner)
{
    HookCtx *ctx = ud;
    lua_State *L = ctx->L;
    int status, code;
    if (!hook_can_run(ctx))
        return -1;
    lua_pushcfunction(L, call_result);
    lua_pushlightuserdata(L, (void *)pos);
    lua_pushvalue(L, ctx->idx);
    ctx->st->hook_depth++;
    status = lua_pcall(L, 2, 2, 0);
    ctx->st->hook_depth--;
    if (status != LUA_OK) {
        lua_replace(L, ctx->idx + 1);
        ctx->failed = HOOK_ERROR;
        return -1;
    }
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
static void core_begin(lua_State *L, int bidx, Board *b, CoreCall *cc)
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
static int core_end(Board *b, CoreCall *cc)
{
    int failed;
    if (cc->rules == NULL)
        return HOOK_OK;
    failed = cc->rules->ctx.failed;
    cc->rules->ctx = cc->saved;
    b->busy = cc->saved_busy;
    return failed;
}

/* Raises the error of a failed hook (after core_end). */
static int hook_error(lua_State *L, const CoreCall *cc, int failed)
{
    switch (failed) {
    case HOOK_ERROR:
        lua_pushvalue(L, cc->idx + 1);
        return lua_error(L);
    case HOOK_STACK:
        return luaL_error(L, "rules hook: stack overflow");
    case HOOK_DEPTH:
        return luaL_error(L, "rules hooks nested too deeply (more than %d)", MAX_HOOK_DEPTH);
    default:
        return luaL_error(L, "rules hook failed");
    }
}

/* ---- rules -------------------------------------------------------------- */

typedef struct Option {
    const char *name;
    int type;           /* LUA_TBOOLEAN, LUA_TSTRING, LUA_TNUMBER (an integer) */
} Option;

static const Option rule_options[] = {
    {"majority", LUA_TBOOLEAN},
    {"capture", LUA_TSTRING},
    {"promote", LUA_TSTRING},
    {"first", LUA_TSTRING},
    {"flying_kings", LUA_TBOOLEAN},
    {"pawns_capture_backward", LUA_TBOOLEAN},
    {"draw_repetition", LUA_TNUMBER},
    {"draw_quiet_plies", LUA_TNUMBER},
    {NULL, 0}
};

static const char *const extra_options[] = {"start", "pieces", "filter", "result", NULL};

static bool known_option(const char *name)
{
    int i;
    for (i = 0; rule_options[i].name; i++)
        if (strcmp(name, rule_options[i].name) == 0)
            return true;
    for (i = 0; extra_options[i]; i++)
        if (strcmp(name, extra_options[i]) == 0)
            return true;
    return false;
}

/* [-0, +1] t[name] without metamethods. Returns its type. */
static int rawgetfield(lua_State *L, int t, const char *name)
{
    t = lua_absindex(L, t);
    lua_pushstring(L, name);
    return lua_rawget(L, t);
}

/* Raises when the table at t has a key that is not a string or not in names
 * (the first such in byte order, so the message does not depend on the
 * traversal order). what: "rules option", "pieces.N field" ... */
static void check_keys(lua_State *L, int t, const char *what, bool (*known)(const char *))
{
    const char *unknown = NULL;
    size_t ulen = 0;
    t = lua_absindex(L, t);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        size_t len;
        const char *name;
        if (lua_type(L, -2) != LUA_TSTRING)
            luaL_error(L, "%s names must be strings (got %s)", what, luaL_typename(L, -2));
        name = lua_tolstring(L, -2, &len);
        if (!known(name) && (unknown == NULL || strcmp(name, unknown) < 0)) {
            unknown = name;     /* stays valid: the key is in the table */
            ulen = len;
        }
        lua_pop(L, 1);
    }
    if (unknown)
        luaL_error(L, "unknown %s %s", what, push_clipped(L, unknown, ulen));
}

static bool known_kind_field(const char *name)
{
    return strcmp(name, "leaps") == 0 || strcmp(name, "rides") == 0 ||
           strcmp(name, "capture") == 0 || strcmp(name, "compulsory") == 0;
}

/* Reads pieces.<c>.<field> (at t), an array of {a, b} vectors, into v.
 * Returns the count. */
static int read_vectors(lua_State *L, int t, char c, const char *field, int8_t v[8][2])
{
    lua_Integer i, n;
    int k;
    t = lua_absindex(L, t);
    if (rawgetfield(L, t, field) == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    if (!lua_istable(L, -1))
        luaL_error(L, "pieces.%c.%s must be an array of {a, b} vectors", c, field);
    n = (lua_Integer)lua_rawlen(L, -1);
    if (n > 8)
        luaL_error(L, "pieces.%c.%s: at most 8 vectors", c, field);
    for (i = 1; i <= n; i++) {
        if (lua_rawgeti(L, -1, i) != LUA_TTABLE || lua_rawlen(L, -1) != 2)
            luaL_error(L, "pieces.%c.%s[%d] must be a vector {a, b}", c, field, (int)i);
        for (k = 0; k < 2; k++) {
            lua_Integer x;
            int isint = 0;
            if (lua_rawgeti(L, -1, k + 1) == LUA_TNUMBER)
                x = lua_tointegerx(L, -1, &isint);
            else
                x = 0;
            if (!isint)
                luaL_error(L, "pieces.%c.%s[%d] must hold two integers", c, field, (int)i);
            if (x < -7 || x > 7)
                luaL_error(L, "pieces.%c.%s[%d] is off the board", c, field, (int)i);
            v[i - 1][k] = (int8_t)x;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return (int)n;
}

/* Defines kind c from its table (at t). */
static void read_kind(lua_State *L, Rules *r, char c, int t)
{
    int8_t leaps[8][2], rides[8][2];
    int nleaps, nrides, style = CHK_STYLE_TAKE;
    bool compulsory;
    char err[ERR_SIZE];
    char what[32];
    t = lua_absindex(L, t);
    if (!lua_istable(L, t))
        luaL_error(L, "pieces.%c must be a table", c);
    snprintf(what, sizeof what, "pieces.%c field", c);
    check_keys(L, t, what, known_kind_field);
    nleaps = read_vectors(L, t, c, "leaps", leaps);
    nrides = read_vectors(L, t, c, "rides", rides);
    switch (rawgetfield(L, t, "capture")) {
    case LUA_TNIL:
        break;
    case LUA_TSTRING:
        if (strcmp(lua_tostring(L, -1), "jump") == 0) {
            style = CHK_STYLE_JUMP;
            break;
        }
        if (strcmp(lua_tostring(L, -1), "take") == 0)
            break;
        /* FALLTHROUGH */
    default:
        luaL_error(L, "pieces.%c.capture must be \"take\" or \"jump\"", c);
    }
    compulsory = style == CHK_STYLE_JUMP;
    switch (rawgetfield(L, t, "compulsory")) {
    case LUA_TNIL:
        break;
    case LUA_TBOOLEAN:
        compulsory = lua_toboolean(L, -1);
        break;
    default:
        luaL_error(L, "pieces.%c.compulsory must be a boolean", c);
    }
    lua_pop(L, 2);
    if (chk_rules_set_kind(&r->r, c, style, compulsory,
                           (const int8_t (*)[2])leaps, nleaps,
                           (const int8_t (*)[2])rides, nrides, err, sizeof err) < 0)
        luaL_error(L, "pieces.%c: %s", c, err);
}

/* Reads the pieces table (at t): kinds in letter order, so that new kinds get
 * the same indices whatever the table's traversal order. */
static void read_pieces(lua_State *L, Rules *r, int t)
{
    char c;
    t = lua_absindex(L, t);
    if (!lua_istable(L, t))
        luaL_error(L, "rules option 'pieces' must be a table");
    lua_pushnil(L);
    while (lua_next(L, t)) {
        size_t len = 0;
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &len) : NULL;
        if (k == NULL || len != 1 || !isupper((unsigned char)k[0]))
            luaL_error(L, "pieces: a kind is named by an upper-case letter (got %s)",
                       k ? push_clipped(L, k, len) : luaL_typename(L, -2));
        lua_pop(L, 1);
    }
    for (c = 'A'; c <= 'Z'; c++) {
        char key[2] = {c, '\0'};
        if (rawgetfield(L, t, key) != LUA_TNIL)
            read_kind(L, r, c, -1);
        lua_pop(L, 1);
    }
}

/* Sets one option of rule_options from the value at v. */
static void read_option(lua_State *L, Rules *r, const Option *o, int v)
{
    char text[MAX_TEXT + 1], err[ERR_SIZE];
    const char *value = text;
    if (lua_type(L, v) != o->type)
        luaL_error(L, "rules option '%s' must be %s", o->name,
                   o->type == LUA_TBOOLEAN ? "a boolean" : o->type == LUA_TSTRING ? "a string" : "an integer");
    switch (o->type) {
    case LUA_TBOOLEAN:
        value = lua_toboolean(L, v) ? "true" : "false";
        break;
    case LUA_TNUMBER: {
        int isint;
        lua_Integer n = lua_tointegerx(L, v, &isint);
        if (!isint)
            luaL_error(L, "rules option '%s' must be an integer", o->name);
        if (n < INT_MIN || n > INT_MAX)
            luaL_error(L, "rules option '%s' is out of range", o->name);
        snprintf(text, sizeof text, "%d", (int)n);
        break;
    }
    default: {
        size_t len;
        const char *s = lua_tolstring(L, v, &len);
        if (len > MAX_TEXT || strlen(s) != len)
            luaL_error(L, "rules option '%s': bad value %s", o->name, push_clipped(L, s, len));
        value = s;
    }
    }
    if (chk_rules_set(&r->r, o->name, value, err, sizeof err) < 0)
        luaL_error(L, "%s", err);   /* the core's message names the option */
}

/* Reads a rules table (at t) into r, whose uservalue table is at h. */
static void read_rules_table(lua_State *L, Rules *r, int t, int h)
{
    int i;
    char err[ERR_SIZE];
    t = lua_absindex(L, t);
    h = lua_absindex(L, h);
    check_keys(L, t, "rules option", known_option);
    if (rawgetfield(L, t, "pieces") != LUA_TNIL)
        read_pieces(L, r, -1);
    lua_pop(L, 1);
    for (i = 0; rule_options[i].name; i++) {
        if (rawgetfield(L, t, rule_options[i].name) != LUA_TNIL)
            read_option(L, r, &rule_options[i], lua_gettop(L));
        lua_pop(L, 1);
    }
    if (chk_rules_finish(&r->r, err, sizeof err) < 0)
        luaL_error(L, "bad rules: %s", err);
    switch (rawgetfield(L, t, "start")) {
    case LUA_TNIL:
        break;
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        chk_pos tmp;
        int rc;
        if (len > MAX_TEXT || strlen(s) != len)
            luaL_error(L, "rules option 'start': bad position: text too long or with a zero byte");
        chk_pos_init(&tmp, &r->r);
        rc = chk_pos_set_fen(&tmp, s, err, sizeof err);
        chk_pos_free(&tmp);
        if (rc < 0)
            luaL_error(L, "rules option 'start': bad position: %s", err);
        lua_setfield(L, h, "start");
        lua_pushnil(L);
        break;
    }
    default:
        luaL_error(L, "rules option 'start' must be a string");
    }
    lua_pop(L, 1);
    for (i = 0; i < 2; i++) {
        const char *name = i ? "result" : "filter";
        int type = rawgetfield(L, t, name);
        if (type == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        if (type != LUA_TFUNCTION)
            luaL_error(L, "rules option '%s' must be a function", name);
        lua_setfield(L, h, name);
        if (i)
            r->r.result = result_hook;
        else
            r->r.filter = filter_hook;
        r->r.hook_ud = &r->ctx;
    }
}

/* [-0, +1] A new Rules userdata from the rules spec at arg: nil (or none), a
 * preset name, or a table. */
static Rules *push_rules(lua_State *L, int arg, State *st)
{
    Rules *r;
    int type = lua_type(L, arg);
    arg = lua_absindex(L, arg);
    luaL_argexpected(L, type == LUA_TNIL || type == LUA_TNONE || type == LUA_TSTRING ||
                     type == LUA_TTABLE, arg, "rules table, preset name or nil");
    r = lua_newuserdatauv(L, sizeof(Rules), 1);
    memset(r, 0, sizeof *r);
    chk_rules_default(&r->r);
    r->ctx.st = st;
    luaL_setmetatable(L, RULES_MT);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, -3, 1);
    if (type == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, arg, &len);
        if (strcmp(s, "golomb") != 0 || strlen(s) != len)
            luaL_error(L, "unknown rules preset %s", push_clipped(L, s, len));
    } else if (type == LUA_TTABLE)
        read_rules_table(L, r, arg, -1);
    lua_pop(L, 1);
    return r;
}

static bool same_kind(const chk_kind *a, const chk_kind *b)
{
    return a->letter == b->letter && a->style == b->style && a->compulsory == b->compulsory &&
           a->nleaps == b->nleaps && a->nrides == b->nrides &&
           memcmp(a->leaps, b->leaps, (size_t)a->nleaps * 2) == 0 &&
           memcmp(a->rides, b->rides, (size_t)a->nrides * 2) == 0;
}

static void push_vectors(lua_State *L, const int8_t (*v)[2], int n)
{
    int i;
    lua_createtable(L, n, 0);
    for (i = 0; i < n; i++) {
        lua_createtable(L, 2, 0);
        lua_pushinteger(L, v[i][0]);
        lua_rawseti(L, -2, 1);
        lua_pushinteger(L, v[i][1]);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, i + 1);
    }
}

/* Sets t.pieces (t at index t) to the kinds of r that are new or differ from
 * the default; leaves it out when there are none. */
static void set_pieces_field(lua_State *L, const chk_rules *r, int t)
{
    chk_rules *def = lua_newuserdatauv(L, sizeof(chk_rules), 0);
    int k, n = 0;
    chk_rules_default(def);
    lua_newtable(L);
    for (k = 0; k < r->nkinds; k++) {
        const chk_kind *kd = &r->kinds[k];
        if (k == CHK_PAWN || k == CHK_KING || (k < def->nkinds && same_kind(kd, &def->kinds[k])))
            continue;
        lua_createtable(L, 0, 4);
        if (kd->nleaps) {
            push_vectors(L, (const int8_t (*)[2])kd->leaps, kd->nleaps);
            lua_setfield(L, -2, "leaps");
        }
        if (kd->nrides) {
            push_vectors(L, (const int8_t (*)[2])kd->rides, kd->nrides);
            lua_setfield(L, -2, "rides");
        }
        lua_pushstring(L, kd->style == CHK_STYLE_JUMP ? "jump" : "take");
        lua_setfield(L, -2, "capture");
        lua_pushboolean(L, kd->compulsory);
        lua_setfield(L, -2, "compulsory");
        lua_pushlstring(L, &kd->letter, 1);
        lua_insert(L, -2);
        lua_rawset(L, -3);
        n++;
    }
    if (n)
        lua_setfield(L, t, "pieces");
    else
        lua_pop(L, 1);
    lua_pop(L, 1);
}

/* [-0, +1] The rule set of the Rules userdata at ridx as a table of every
 * option, which read back gives the same rule set. */
static void push_rules_table(lua_State *L, int ridx)
{
    static const char *const hooks[] = {"start", "filter", "result", NULL};
    const Rules *rules;
    const chk_rules *r;
    const char *capture;
    char promote[CHK_MAX_KINDS + 1];
    int k, n = 0, t;
    ridx = lua_absindex(L, ridx);
    rules = lua_touserdata(L, ridx);
    r = &rules->r;
    lua_createtable(L, 0, 12);
    t = lua_gettop(L);
    lua_pushboolean(L, r->majority);
    lua_setfield(L, t, "majority");
    capture = chk_capture_name(r->capture);
    lua_pushstring(L, capture ? capture : "?");
    lua_setfield(L, t, "capture");
    for (k = 1; k < r->nkinds && k < CHK_MAX_KINDS; k++)
        if (r->promote >> k & 1)
            promote[n++] = r->kinds[k].letter;
    lua_pushlstring(L, promote, (size_t)n);
    lua_setfield(L, t, "promote");
    lua_pushstring(L, r->first == CHK_WHITE ? "white" : "black");
    lua_setfield(L, t, "first");
    lua_pushboolean(L, r->flying_kings);
    lua_setfield(L, t, "flying_kings");
    lua_pushboolean(L, r->pawns_capture_backward);
    lua_setfield(L, t, "pawns_capture_backward");
    lua_pushinteger(L, r->draw_repetition);
    lua_setfield(L, t, "draw_repetition");
    lua_pushinteger(L, r->draw_quiet_plies);
    lua_setfield(L, t, "draw_quiet_plies");
    set_pieces_field(L, r, t);
    lua_getiuservalue(L, ridx, 1);
    for (k = 0; hooks[k]; k++) {
        if (lua_getfield(L, -1, hooks[k]) != LUA_TNIL)
            lua_setfield(L, t, hooks[k]);
        else
            lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* ---- module functions --------------------------------------------------- */

/* cheskers.new([fen [, rules]]) */
static int l_new(lua_State *L)
{
    State *st = getstate(L);
    const char *fen = NULL;
    size_t len = 0;
    char err[ERR_SIZE];
    Rules *r;
    Board *b;
    int ridx;
    if (!lua_isnoneornil(L, 1)) {
        luaL_argexpected(L, lua_type(L, 1) == LUA_TSTRING, 1, "string or nil");
        fen = lua_tolstring(L, 1, &len);
        if (len > MAX_TEXT)
            return luaL_error(L, "bad position: text too long (%d characters at most)", MAX_TEXT);
        if (strlen(fen) != len)
            return luaL_error(L, "bad position: text with a zero byte");
    }
    r = push_rules(L, 2, st);
    ridx = lua_gettop(L);
    b = new_board(L, ridx, 0, true, PLY_SLOTS);
    chk_pos_init(&b->pos, &r->r);
    b->closed = false;
    if (fen == NULL) {
        lua_getiuservalue(L, ridx, 1);
        if (lua_getfield(L, -1, "start") == LUA_TSTRING)
            fen = lua_tostring(L, -1);  /* anchored in the Rules */
        lua_pop(L, 2);
    }
    if (fen == NULL)
        chk_pos_start(&b->pos, &r->r);
    else if (chk_pos_set_fen(&b->pos, fen, err, sizeof err) < 0)
        return luaL_error(L, "bad position: %s", err);
    return 1;
}

/* cheskers.rules([spec]) */
static int l_rules(lua_State *L)
{
    push_rules(L, 1, getstate(L));
    push_rules_table(L, -1);
    return 1;
}

/* cheskers.interrupt() */
static int l_interrupt(lua_State *L)
{
    (void)L;
    interrupt_flag = 1;
    return 0;
}

/* ---- board methods: reading --------------------------------------------- */

static int board_fen(lua_State *L)
{
    Board *b = checkboard(L);
    char buf[FEN_SIZE];
    chk_pos_fen(&b->pos, buf, sizeof buf);
    buf[sizeof buf - 1] = '\0';
    lua_pushstring(L, buf);
    return 1;
}

static int board_turn(lua_State *L)
{
    Board *b = checkboard(L);
    lua_pushstring(L, b->pos.side == CHK_WHITE ? "white" : "black");
    return 1;
}

static int board_moveno(lua_State *L)
{
    lua_pushinteger(L, checkboard(L)->pos.moveno);
    return 1;
}

static int board_quiet(lua_State *L)
{
    lua_pushinteger(L, checkboard(L)->pos.quiet);
    return 1;
}

static int board_hash(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)checkboard(L)->pos.hash);
    return 1;
}

static int board_get(lua_State *L)
{
    Board *b = checkboard(L);
    int sq = check_square(L, 2);
    char c = piece_letter(b->pos.rules, b->pos.sq[sq]);
    if (c)
        lua_pushlstring(L, &c, 1);
    else
        lua_pushnil(L);
    return 1;
}

static int board_history(lua_State *L)
{
    Board *b = checkboard(L);
    size_t i, n = b->pos.nhist;
    lua_settop(L, 1);
    lua_createtable(L, n > INT_MAX ? 0 : (int)n, 0);
    for (i = 0; i < n; i++) {
        push_played(L, b, i);
        lua_rawseti(L, 2, (lua_Integer)i + 1);
        lua_settop(L, 2);
    }
    return 1;
}

static int board_rules(lua_State *L)
{
    checkboard(L);
    lua_getiuservalue(L, 1, 1);
    push_rules_table(L, -1);
    return 1;
}

static int board_copy(lua_State *L)
{
    Board *b = checkboard(L);
    lua_getiuservalue(L, 1, 1);
    push_board_copy(L, &b->pos, -1, true);
    return 1;
}

static int board_tostring(lua_State *L)
{
    Board *b = toboard(L);
    luaL_Buffer B;
    char line[32], fen[FEN_SIZE];
    int rank, file;
    if (b->closed) {
        lua_pushliteral(L, "cheskers board (closed)");
        return 1;
    }
    chk_pos_fen(&b->pos, fen, sizeof fen);
    fen[sizeof fen - 1] = '\0';
    luaL_buffinit(L, &B);
    for (rank = 7; rank >= 0; rank--) {
        int n = 0;
        line[n++] = (char)('1' + rank);
        line[n++] = ' ';
        line[n++] = '|';
        for (file = 0; file < 8; file++) {
            char c = ' ';
            if ((file + rank) % 2 == 0) {
                int sq = chk_sq_from_fr(file, rank);
                c = sq < 0 ? '?' : piece_letter(b->pos.rules, b->pos.sq[sq]);
                if (c == 0)
                    c = '.';
            }
            line[n++] = ' ';
            line[n++] = c;
        }
        while (line[n - 1] == ' ')
            n--;
        line[n++] = '\n';
        luaL_addlstring(&B, line, (size_t)n);
    }
    luaL_addstring(&B, "    a b c d e f g h\n");
    luaL_addstring(&B, b->pos.side == CHK_WHITE ? "white" : "black");
    luaL_addstring(&B, " to move: ");
    luaL_addstring(&B, fen);
    luaL_pushresult(&B);
    return 1;
}

/* __gc and __close */
static int board_gc(lua_State *L)
{
    Board *b = toboard(L);
    if (b->busy)
        return luaL_error(L, "board is busy");
    if (!b->closed) {
        b->closed = true;
        chk_pos_free(&b->pos);
    }
    free(b->plies);
    b->plies = NULL;
    b->nplies = 0;
    return 0;
}

/* ---- board methods: moves ----------------------------------------------- */

/* The letters of square sq's name (chk_sq_name), without a call. */
#define SQ_FILE_CHAR(sq) ((char)('a' + 2 * ((sq) & 3) + (((sq) >> 2) & 1)))
#define SQ_RANK_CHAR(sq) ((char)('1' + ((sq) >> 2)))

/* Writes the text of m, a move under the rules r, into out (MOVE_TEXT_SIZE
 * bytes) as chk_move_text does, zero-padded to at least 8 bytes; returns its
 * length. b:moves() sorts by these texts (docs/lua_api.md: the texts
 * tostring gives), so it makes them without a call per square. */
static size_t sort_text(const chk_rules *r, const chk_move *m, char *out)
{
    char sep = m->captures ? 'x' : '-';
    int i, n = m->npath < CHK_MAX_PATH ? m->npath : CHK_MAX_PATH;
    size_t len = 0;
    memset(out, 0, 8);
    out[len++] = SQ_FILE_CHAR(m->from);
    out[len++] = SQ_RANK_CHAR(m->from);
    for (i = 0; i < n; i++) {
        out[len++] = sep;
        out[len++] = SQ_FILE_CHAR(m->path[i]);
        out[len++] = SQ_RANK_CHAR(m->path[i]);
    }
    if (m->promo != CHK_NONE) {
        out[len++] = '=';
        out[len++] = kind_letter(r, m->promo);
    }
    out[len] = '\0';
    return len;
}

/* The place of m's text among move texts: its first 8 bytes (zero-padded),
 * big-endian. *whole: the text, written into buf (MOVE_TEXT_SIZE bytes),
 * or NULL when the key holds all of it (and a zero byte): so for most moves,
 * "c3-d4" or "c3xe5", no text is written. */
static uint64_t text_key(const chk_rules *r, const chk_move *m, char *buf, const char **whole)
{
    const unsigned char *t = (const unsigned char *)buf;
    if (m->npath == 1 && m->promo == CHK_NONE) {
        *whole = NULL;
        return (uint64_t)(unsigned char)SQ_FILE_CHAR(m->from) << 56 |
               (uint64_t)(unsigned char)SQ_RANK_CHAR(m->from) << 48 |
               (uint64_t)(m->captures ? 'x' : '-') << 40 |
               (uint64_t)(unsigned char)SQ_FILE_CHAR(m->path[0]) << 32 |
               (uint64_t)(unsigned char)SQ_RANK_CHAR(m->path[0]) << 24;
    }
    sort_text(r, m, buf);
    *whole = buf;
    return (uint64_t)t[0] << 56 | (uint64_t)t[1] << 48 | (uint64_t)t[2] << 40 |
           (uint64_t)t[3] << 32 | (uint64_t)t[4] << 24 | (uint64_t)t[5] << 16 |
           (uint64_t)t[6] << 8 | (uint64_t)t[7];
}

typedef struct Listed {
    uint64_t key;       /* the first 8 bytes of the text, big-endian: its order */
    const char *text;   /* the whole text, for ties; NULL when the key holds
                           all of it and a zero byte */
    int i;              /* index in the move list */
} Listed;

static int cmp_listed(const void *a, const void *b)
{
    const Listed *x = a, *y = b;
    int c;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    /* the same first 8 bytes: the same text when one ends within them */
    c = x->text != NULL && y->text != NULL ? strcmp(x->text, y->text) : 0;
    return c ? c : x->i - y->i;
}

/* Sorts by text: insertion sort for the usual short lists, else qsort. */
static void sort_listed(Listed *v, int n)
{
    int i, j;
    if (n > 32) {
        qsort(v, (size_t)n, sizeof *v, cmp_listed);
        return;
    }
    for (i = 1; i < n; i++) {
        Listed x = v[i];
        for (j = i; j > 0 && cmp_listed(&v[j - 1], &x) > 0; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

#define SMALL_LIST 48   /* texts of this many moves fit on the C stack */

static int board_moves(lua_State *L)
{
    State *st = getstate(L);
    Board *b = checkidle_st(L, st);
    chk_move list[CHK_MAX_MOVES];
    Listed order[CHK_MAX_MOVES];
    char small[SMALL_LIST][MOVE_TEXT_SIZE];
    char (*texts)[MOVE_TEXT_SIZE] = small;
    CoreCall cc;
    int i, n, mt, failed;
    uint64_t stamp;
    core_begin(L, 1, b, &cc);
    n = chk_gen_moves(&b->pos, list);
    failed = core_end(b, &cc);
    if (failed || n < 0)
        return hook_error(L, &cc, failed);
    if (n > CHK_MAX_MOVES)
        n = CHK_MAX_MOVES;
    if (n > SMALL_LIST)
        texts = lua_newuserdatauv(L, (size_t)n * MOVE_TEXT_SIZE, 0);
    for (i = 0; i < n; i++) {
        order[i].key = text_key(b->pos.rules, &list[i], texts[i], &order[i].text);
        order[i].i = i;
    }
    sort_listed(order, n);
    stamp = board_stamp(b, st);
    /* the move objects (push_move, without its calls to find the metatable) */
    lua_pushvalue(L, UV_MOVE_MT);
    mt = lua_gettop(L);
    lua_createtable(L, n, 0);
    for (i = 0; i < n; i++) {
        Move *mv = lua_newuserdatauv(L, sizeof(Move), 0);
        lua_pushvalue(L, mt);
        lua_setmetatable(L, -2);
        set_move(mv, &b->pos, &list[order[i].i], stamp);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int board_count(lua_State *L)
{
    Board *b = checkidle_st(L, getstate(L));
    const chk_rules *r = b->pos.rules;
    CoreCall cc;
    int n, failed;
    if (r->filter == NULL && r->result == NULL) {   /* no hooks: core_begin would do nothing */
        lua_pushinteger(L, chk_count_moves(&b->pos));
        return 1;
    }
    core_begin(L, 1, b, &cc);
    n = chk_count_moves(&b->pos);
    failed = core_end(b, &cc);
    if (failed || n < 0)
        return hook_error(L, &cc, failed);
    lua_pushinteger(L, n);
    return 1;
}

/* Reads the move text at arg for parse and play: NULL (with a message pushed)
 * when it cannot name a move. */
static const char *move_text_arg(lua_State *L, int arg)
{
    size_t len;
    const char *s = lua_tolstring(L, arg, &len);
    if (len > MAX_TEXT) {
        lua_pushfstring(L, "move text too long (%d characters at most)", MAX_TEXT);
        return NULL;
    }
    if (strlen(s) != len) {
        lua_pushliteral(L, "move text with a zero byte");
        return NULL;
    }
    return s;
}

/* b:parse(text) -> move | nil, message */
static int board_parse(lua_State *L)
{
    Board *b = checkidle(L);
    const char *text;
    char err[ERR_SIZE];
    chk_move m;
    CoreCall cc;
    Move *mv;
    int rc, failed;
    luaL_checktype(L, 2, LUA_TSTRING);
    lua_settop(L, 2);
    text = move_text_arg(L, 2);
    if (text == NULL) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    mv = new_move(L, true);     /* before the core call: this may raise */
    memset(mv, 0, sizeof *mv);
    core_begin(L, 1, b, &cc);
    rc = chk_parse_move(&b->pos, text, &m, err, sizeof err);
    failed = core_end(b, &cc);
    if (failed)
        return hook_error(L, &cc, failed);
    if (rc < 0) {
        err[sizeof err - 1] = '\0';
        lua_pushnil(L);
        lua_pushstring(L, err);
        return 2;
    }
    set_move(mv, &b->pos, &m, board_stamp(b, getstate(L)));
    lua_pushvalue(L, 3);
    return 1;
}

/* [-0, +1] Pushes the table of uservalue 2 of the board at 1, made if need be. */
static void get_history_table(lua_State *L)
{
    if (lua_getiuservalue(L, 1, 2) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 16, 0);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, 1, 2);
    }
}

/* Makes move m (legal in b, at index 1) and leaves the plies consistent.
 * The move object mv, at stack index mvidx, is kept as the one played (for
 * undo and history). Raises only before the move is made. May leave values
 * pushed. */
static void play_legal(lua_State *L, Board *b, const chk_move *m, const Move *mv, int mvidx)
{
    size_t n = b->pos.nhist;
    int slot = ply_slot(b, n);
    if (!reserve_plies(b, n + 2))
        luaL_error(L, "not enough memory");
    if (slot) {
        size_t old = b->slot_ply[slot - 3];
        if (old < n) {      /* the slot keeps an older entry: to the table */
            get_history_table(L);
            lua_getiuservalue(L, 1, slot);
            lua_rawseti(L, -2, (lua_Integer)old + 1);
        }
        b->slot_ply[slot - 3] = NO_PLY;     /* until the move is made */
        lua_pushvalue(L, mvidx);
        lua_setiuservalue(L, 1, slot);
    } else {
        get_history_table(L);
        lua_pushvalue(L, mvidx);
        lua_rawseti(L, -2, (lua_Integer)n + 1);
    }
    if (!chk_make(&b->pos, m))
        luaL_error(L, "not enough memory");
    if (slot)
        b->slot_ply[slot - 3] = n;
    b->plies[n].played = mv;
    b->plies[n + 1].stamp = 0;
}

/* Reads the move at arg, a move object or a move text, as a legal move of p
 * into *out; raises for an illegal or ambiguous move. b (at stack index
 * bidx) is the board of p, or NULL (then hooks cannot run). Returns true
 * when arg is a move object listed as legal in this very position of b.
 * up: the metatables are upvalues. */
static bool check_move(lua_State *L, int arg, chk_pos *p, Board *b, int bidx, chk_move *out, bool up)
{
    Move *given = testmove(L, arg, up);
    CoreCall cc;
    char err[ERR_SIZE];
    int failed;
    arg = lua_absindex(L, arg);
    if (given == NULL && lua_type(L, arg) != LUA_TSTRING)
        luaL_typeerror(L, arg, "move or string");
    if (given != NULL && b != NULL && given->stamp != 0 &&
        given->stamp == b->plies[b->pos.nhist].stamp) {
        *out = given->m;
        return true;
    }
    memset(&cc, 0, sizeof cc);
    if (given != NULL) {
        chk_move list[CHK_MAX_MOVES];
        int i, n;
        if (b)
            core_begin(L, bidx, b, &cc);
        n = chk_gen_moves(p, list);
        failed = b ? core_end(b, &cc) : HOOK_OK;
        if (failed || n < 0)
            hook_error(L, &cc, failed);
        for (i = 0; i < n && !chk_move_equal(&list[i], &given->m); i++)
            ;
        if (i == n)
            luaL_error(L, "illegal move %s: %s", move_text(given, err),
                       n == 0 ? "the game is over" : "not a legal move in this position");
        *out = list[i];
    } else {
        size_t len;
        const char *s = lua_tolstring(L, arg, &len);
        const char *text = move_text_arg(L, arg);
        int rc;
        if (text == NULL) {
            /* the reason is on the top; read it before pushing anything */
            const char *why = lua_tostring(L, -1);
            luaL_error(L, "illegal move %s: %s", push_clipped(L, s, len), why);
        }
        if (b)
            core_begin(L, bidx, b, &cc);
        rc = chk_parse_move(p, text, out, err, sizeof err);
        failed = b ? core_end(b, &cc) : HOOK_OK;
        if (failed)
            hook_error(L, &cc, failed);
        if (rc < 0) {
            err[sizeof err - 1] = '\0';
            if (strncmp(err, "illegal move ", 13) == 0 || strncmp(err, "ambiguous move ", 15) == 0)
                luaL_error(L, "%s", err);   /* names the move already */
            luaL_error(L, "illegal move %s: %s", push_clipped(L, s, len), err);
        }
    }
    return false;
}

/* b:play(move or text) -> the move played */
static int board_play(lua_State *L)
{
    State *st = getstate(L);
    Board *b = checkidle_st(L, st);
    /* without a second argument, 2 is now the board's metatable: no move */
    Move *given = test_type(L, 2, st->move_mt);
    chk_move m;
    int mvidx;
    if (given != NULL && given->stamp != 0 && given->stamp == b->plies[b->pos.nhist].stamp) {
        /* listed as legal in this very position (check_move's first case) */
        play_legal(L, b, &given->m, given, 2);
        lua_pushvalue(L, 2);
        return 1;
    }
    lua_pop(L, given != NULL ? 2 : 1);  /* the metatables test_type left */
    if (check_move(L, 2, &b->pos, b, 1, &m, true)) {
        play_legal(L, b, &m, lua_touserdata(L, 2), 2);
        lua_pushvalue(L, 2);    /* the move object given */
        return 1;
    }
    given = push_move(L, &b->pos, &m, 0, true);
    mvidx = lua_gettop(L);
    play_legal(L, b, &m, given, mvidx);
    lua_pushvalue(L, mvidx);
    return 1;
}

/* b:undo() -> the move taken back, or nil */
static int board_undo(lua_State *L)
{
    State *st = getstate(L);
    Board *b = checkidle_st(L, st);
    Move *mv;
    if (b->pos.nhist == 0) {
        lua_pushnil(L);
        return 1;
    }
    mv = push_played(L, b, b->pos.nhist - 1);
    if (!chk_unmake(&b->pos)) {
        lua_pushnil(L);
        return 1;
    }
    /* the position is the one the move was played in, stamp included */
    mv->stamp = board_stamp(b, st);
    return 1;
}

/* b:put(square, letter or nil) */
static int board_put(lua_State *L)
{
    Board *b = checkidle(L);
    int sq = check_square(L, 2), i;
    uint8_t pc = CHK_NONE;
    if (!lua_isnoneornil(L, 3)) {
        size_t len;
        const char *s;
        int kind, color;
        luaL_argexpected(L, lua_type(L, 3) == LUA_TSTRING, 3, "piece letter or nil");
        s = lua_tolstring(L, 3, &len);
        kind = (len == 1 && isalpha((unsigned char)s[0])) ? chk_rules_kind(b->pos.rules, s[0]) : -1;
        if (kind < 0)
            return luaL_argerror(L, 3, lua_pushfstring(L, "unknown piece %s", push_clipped(L, s, len)));
        color = isupper((unsigned char)s[0]) ? CHK_WHITE : CHK_BLACK;
        if (kind == CHK_PAWN && chk_sq_rank(sq) == (color == CHK_WHITE ? 7 : 0))
            return luaL_argerror(L, 3, lua_pushfstring(L, "a %s pawn cannot stand on rank %d",
                                                       color == CHK_WHITE ? "white" : "black",
                                                       color == CHK_WHITE ? 8 : 1));
        pc = CHK_PIECE(color, kind);
    }
    chk_pos_put(&b->pos, sq, pc);
    b->pos.nhist = 0;
    b->plies[0].stamp = 0;
    for (i = 2; i <= b->nslots + 2; i++) {     /* the moves played, let go */
        lua_pushnil(L);
        lua_setiuservalue(L, 1, i);
    }
    clear_slots(b);
    return 0;
}

static int board_result(lua_State *L)
{
    Board *b = checkidle(L);
    CoreCall cc;
    int winner, failed, reason = CHK_REASON_NONE;
    const char *name;
    core_begin(L, 1, b, &cc);
    winner = chk_result(&b->pos, &reason);
    failed = core_end(b, &cc);
    if (failed || reason == CHK_REASON_ERROR)
        return hook_error(L, &cc, failed);
    if (winner == CHK_ONGOING) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushstring(L, winner == CHK_WHITE ? "white" : winner == CHK_BLACK ? "black" : "draw");
    if (reason == CHK_REASON_HOOK && cc.rules != NULL && lua_type(L, cc.idx + 2) == LUA_TSTRING) {
        lua_pushvalue(L, cc.idx + 2);
        return 2;
    }
    name = chk_reason_name(reason);
    lua_pushstring(L, name ? name : "?");
    return 2;
}

/* ---- board methods: perft ----------------------------------------------- */

/* Runs protected from perft_progress: records a root move's count and calls
 * progress. [table or nil, text (light userdata), count, progress, i, n, total] */
static int perft_step(lua_State *L)
{
    if (lua_istable(L, 1)) {
        lua_pushstring(L, lua_touserdata(L, 2));
        lua_pushvalue(L, 3);
        lua_settable(L, 1);
    }
    lua_pushvalue(L, 4);
    lua_pushvalue(L, 5);
    lua_pushvalue(L, 6);
    lua_pushvalue(L, 7);
    lua_call(L, 3, 0);
    return 0;
}

/* perft or divide with a progress function (at 3); the divide table (if
 * divide) at 4. Root moves one by one, the board busy all along. */
static int perft_progress(lua_State *L, Board *b, int depth, bool divide)
{
    chk_move *list;
    char text[MOVE_TEXT_SIZE];
    CoreCall cc;
    int i, n, failed, top;
    int64_t total = 0;
    if (depth == 0) {
        lua_pushinteger(L, 1);
        return 1;
    }
    list = lua_newuserdatauv(L, CHK_MAX_MOVES * sizeof *list, 0);
    luaL_checkstack(L, 16, "perft");
    top = lua_gettop(L);
    core_begin(L, 1, b, &cc);
    n = chk_gen_moves(&b->pos, list);
    failed = core_end(b, &cc);
    if (failed || n < 0)
        return hook_error(L, &cc, failed);
    lua_settop(L, top);
    /* from here on nothing may raise before busy is cleared */
    b->busy = true;
    for (i = 0; i < n; i++) {
        int64_t count;
        core_begin(L, 1, b, &cc);
        if (!chk_make(&b->pos, &list[i])) {
            core_end(b, &cc);
            b->busy = false;
            return luaL_error(L, "not enough memory");
        }
        count = chk_perft(&b->pos, depth - 1, true, &interrupt_flag);
        chk_unmake(&b->pos);
        failed = core_end(b, &cc);
        if (failed || count < 0) {
            b->busy = false;
            if (count == -1 && !failed)
                return lcheskers_error(L, "interrupted", "interrupted");
            return hook_error(L, &cc, failed);
        }
        lua_settop(L, top);
        total += count;
        chk_move_text(&b->pos, &list[i], text, sizeof text);
        text[sizeof text - 1] = '\0';
        lua_pushcfunction(L, perft_step);
        if (divide)
            lua_pushvalue(L, 4);
        else
            lua_pushnil(L);
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
        if (interrupt_flag) {
            b->busy = false;
            return lcheskers_error(L, "interrupted", "interrupted");
        }
    }
    b->busy = false;
    if (divide)
        lua_pushvalue(L, 4);
    else
        lua_pushinteger(L, total);
    return 1;
}

/* b:perft(depth [, progress]) and b:divide(depth [, progress]) */
static int perft_or_divide(lua_State *L, bool divide)
{
    Board *b = checkidle(L);
    lua_Integer d = luaL_checkinteger(L, 2);
    CoreCall cc;
    int failed, depth;
    luaL_argcheck(L, d >= (divide ? 1 : 0) && d <= MAX_PERFT_DEPTH, 2,
                  divide ? "depth must be 1..64" : "depth must be 0..64");
    depth = (int)d;
    if (!lua_isnoneornil(L, 3))
        luaL_checktype(L, 3, LUA_TFUNCTION);
    lua_settop(L, 3);
    if (divide)
        lua_newtable(L);
    interrupt_flag = 0;
    if (!lua_isnil(L, 3))
        return perft_progress(L, b, depth, divide);
    if (!divide) {
        int64_t count;
        core_begin(L, 1, b, &cc);
        count = chk_perft(&b->pos, depth, true, &interrupt_flag);
        failed = core_end(b, &cc);
        if (count == -1 && !failed)
            return lcheskers_error(L, "interrupted", "interrupted");
        if (failed || count < 0)
            return hook_error(L, &cc, failed);
        lua_pushinteger(L, count);
        return 1;
    } else {
        chk_move *moves = lua_newuserdatauv(L, CHK_MAX_MOVES * sizeof *moves, 0);
        int64_t *counts = lua_newuserdatauv(L, CHK_MAX_MOVES * sizeof *counts, 0);
        char text[MOVE_TEXT_SIZE];
        int i, n;
        core_begin(L, 1, b, &cc);
        n = chk_divide(&b->pos, depth, moves, counts, &interrupt_flag);
        failed = core_end(b, &cc);
        if (n == -1 && !failed)
            return lcheskers_error(L, "interrupted", "interrupted");
        if (failed || n < 0)
            return hook_error(L, &cc, failed);
        for (i = 0; i < n && i < CHK_MAX_MOVES; i++) {
            chk_move_text(&b->pos, &moves[i], text, sizeof text);
            text[sizeof text - 1] = '\0';
            lua_pushinteger(L, counts[i]);
            lua_setfield(L, 4, text);
        }
        lua_pushvalue(L, 4);
        return 1;
    }
}

static int board_perft(lua_State *L)
{
    return perft_or_divide(L, false);
}

static int board_divide(lua_State *L)
{
    return perft_or_divide(L, true);
}

/* ---- for the other binding files (lcheskers.h) -------------------------- */

chk_pos *lcheskers_checkboard(lua_State *L, int arg)
{
    return &check_board_at(L, arg, true, false)->pos;
}

void lcheskers_pushmove(lua_State *L, const chk_pos *p, const chk_move *m)
{
    push_move(L, p, m, 0, false);
}

void lcheskers_checkmove(lua_State *L, int arg, chk_pos *p, chk_move *out)
{
    /* the board of p, when it is on the stack (hooks need it) */
    int i, top = lua_gettop(L);
    for (i = 1; i <= top; i++) {
        Board *b = testboard(L, i, false);
        if (b != NULL && !b->closed && &b->pos == p) {
            if (b->busy)
                luaL_error(L, "board is busy");
            check_move(L, arg, p, b, i, out, false);
            return;
        }
    }
    check_move(L, arg, p, NULL, 0, out, false);
}

/* lcheskers_core_begin/end: the bracket of lcheskers.h for lsolve.c and
 * lengine.c (core work that may run Lua code on the board at arg). */

int lcheskers_core_begin(lua_State *L, int arg)
{
    Board *b;
    CoreCall *cc;
    int slot;
    arg = lua_absindex(L, arg);
    b = check_board_at(L, arg, true, false);
    luaL_checkstack(L, 4, "core call");
    cc = lua_newuserdatauv(L, sizeof *cc, 0);
    slot = lua_gettop(L);
    core_begin(L, arg, b, cc);
    if (cc->rules == NULL) {
        cc->saved_busy = b->busy;
        b->busy = true;
    }
    return slot;
}

void lcheskers_core_end(lua_State *L, int arg, int slot)
{
    Board *b = lua_touserdata(L, arg);
    CoreCall *cc = lua_touserdata(L, slot);
    int failed = HOOK_OK;
    if (cc->rules != NULL)
        failed = core_end(b, cc);
    else
        b->busy = cc->saved_busy;
    if (failed)
        hook_error(L, cc, failed);
    lua_settop(L, slot - 1);
}

/* ---- the module --------------------------------------------------------- */

static const luaL_Reg module_funcs[] = {
    {"new", l_new},
    {"rules", l_rules},
    {"interrupt", l_interrupt},
    {"error_code", lcheskers_error_code},
    {NULL, NULL}
};

static const luaL_Reg board_methods[] = {
    {"fen", board_fen},
    {"turn", board_turn},
    {"moves", board_moves},
    {"count", board_count},
    {"play", board_play},
    {"parse", board_parse},
    {"undo", board_undo},
    {"history", board_history},
    {"result", board_result},
    {"perft", board_perft},
    {"divide", board_divide},
    {"hash", board_hash},
    {"copy", board_copy},
    {"get", board_get},
    {"put", board_put},
    {"rules", board_rules},
    {"moveno", board_moveno},
    {"quiet", board_quiet},
    {NULL, NULL}
};

static const luaL_Reg board_metamethods[] = {
    {"__index", NULL},      /* placeholder */
    {"__gc", board_gc},
    {"__close", board_gc},
    {"__tostring", board_tostring},
    {NULL, NULL}
};

static const luaL_Reg move_metamethods[] = {
    {"__index", move_index},
    {"__tostring", move_tostring},
    {"__eq", move_eq},
    {NULL, NULL}
};

/* [-0, +1] The State of this Lua state, made on first use. */
static void push_state(lua_State *L)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &state_key) == LUA_TUSERDATA)
        return;
    lua_pop(L, 1);
    memset(lua_newuserdatauv(L, sizeof(State), 0), 0, sizeof(State));
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &state_key);
}

/* [-0, +2] Creates the metatables and fills them. With the State on top of
 * the stack; leaves State, board metatable, move metatable (the upvalues of
 * every function here, in that order). */
static void create_metatables(lua_State *L)
{
    int st = lua_gettop(L);
    State *state = lua_touserdata(L, st);
    luaL_newmetatable(L, BOARD_MT);
    luaL_newmetatable(L, MOVE_MT);
    luaL_newmetatable(L, RULES_MT);
    lua_pop(L, 1);
    /* the metatables live as long as the functions that hold them as upvalues */
    state->board_mt = lua_topointer(L, st + 1);
    state->move_mt = lua_topointer(L, st + 2);
    /* board: metamethods, and the methods as __index */
    lua_pushvalue(L, st + 1);
    lua_pushvalue(L, st);
    lua_pushvalue(L, st + 1);
    lua_pushvalue(L, st + 2);
    luaL_setfuncs(L, board_metamethods, 3);
    luaL_newlibtable(L, board_methods);
    lua_pushvalue(L, st);
    lua_pushvalue(L, st + 1);
    lua_pushvalue(L, st + 2);
    luaL_setfuncs(L, board_methods, 3);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    /* move */
    lua_pushvalue(L, st + 2);
    lua_pushvalue(L, st);
    lua_pushvalue(L, st + 1);
    lua_pushvalue(L, st + 2);
    luaL_setfuncs(L, move_metamethods, 3);
    lua_pop(L, 1);
}

int lcheskers_open_tb(lua_State *L);   /* ltb.c (lead: into lcheskers.h) */

int luaopen_cheskers(lua_State *L)
{
    int sq;
    luaL_checkversion(L);
    push_state(L);
    create_metatables(L);           /* state, board mt, move mt */
    luaL_newlibtable(L, module_funcs);
    lua_pushvalue(L, -4);
    lua_pushvalue(L, -4);
    lua_pushvalue(L, -4);
    luaL_setfuncs(L, module_funcs, 3);
    lua_pushliteral(L, CHK_START_FEN);
    lua_setfield(L, -2, "START");
    lua_pushliteral(L, CHK_VERSION);
    lua_setfield(L, -2, "VERSION");
    lua_createtable(L, CHK_SQUARES, 0);
    for (sq = 0; sq < CHK_SQUARES; sq++) {
        push_square(L, sq);
        lua_rawseti(L, -2, sq + 1);
    }
    lua_setfield(L, -2, "SQUARES");
    /* the other binding files add their methods and tables */
    luaL_getmetatable(L, BOARD_MT);
    lua_getfield(L, -1, "__index");
    lua_remove(L, -2);              /* ..., module, methods */
    lcheskers_open_solve(L);
    lua_pop(L, 1);
    lcheskers_open_engine(L);
    lcheskers_open_tb(L);
    /* cheskers.puzzle and cheskers.svg: the Lua modules, loaded on first use */
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, lcheskers_module_index);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    return 1;
}
