/*
 * lperft.c - b:perft(depth [, progress]) and b:divide(depth [, progress])
 * (docs/reference/lua_api.md): move sequences counted by the core one root move at a
 * time, so that a progress function can follow and an interrupt or the
 * deadline (cheskers.deadline) keeps what was counted.
 *
 * progress(i, n, nodes, move, count) is called after each root move (i of
 * n; nodes: counted so far; move, count: that root move's text and count).
 * Counts deeper than SPLIT_DEPTH also report while a root move is counted:
 * the plies above LEAF_DEPTH are walked here and progress(i, n, nodes) is
 * called after each subtree (move and count nil), so that a long count
 * (the REPL's) shows its progress often.
 *
 * When the call is interrupted or times out, the board is restored and the
 * error value raised (code "interrupted" or "timeout") has the fields
 * partial (root move text -> count, for the root moves done) and total
 * (their sum).
 */
#include <string.h>

#include "lbind.h"

#define MAX_PERFT_DEPTH 64
#define LEAF_DEPTH      6               /* subtrees counted by one core call */
#define SPLIT_DEPTH     (LEAF_DEPTH + 1)

/* Stack slots of perft_or_divide's frame. */
enum { S_BOARD = 1, S_DEPTH, S_PROGRESS, S_RESULTS, S_ERROR };

/* A count under way. */
typedef struct Count {
    lua_State *L;
    Board *b;
    chk_stop stop;
    int i, n;           /* the root move counted (1-based), of n */
    int64_t done;       /* nodes counted so far, subtrees of the root move included */
    bool split;         /* progress is reported between subtrees */
} Count;

/* Runs protected after a root move: records its count and calls progress.
 * [results, text (light userdata), count, progress or nil, i, n, total] */
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

/* Calls progress(i, n, nodes) between subtrees (inside a core call: the
 * stack is left as it was). False when it failed: its error is in S_ERROR. */
static bool report_subtree(Count *c)
{
    lua_State *L = c->L;
    if (!lua_checkstack(L, 5)) {
        lua_pushliteral(L, "perft: stack overflow");
        lua_replace(L, S_ERROR);
        return false;
    }
    lua_pushvalue(L, S_PROGRESS);
    lua_pushinteger(L, c->i);
    lua_pushinteger(L, c->n);
    lua_pushinteger(L, c->done);
    if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
        lua_replace(L, S_ERROR);
        return false;
    }
    return true;
}

/* The count of depth plies from the board's position, or a negative
 * chk_status (CHK_ABORTED: progress failed). Split: walks the plies above
 * LEAF_DEPTH itself, reporting after each subtree. */
static int64_t count_below(Count *c, int depth)
{
    chk_move list[CHK_MAX_MOVES];
    int64_t sum = 0;
    int i, n;
    if (!c->split || depth <= LEAF_DEPTH) {
        int64_t k = chk_perft(&c->b->pos, depth, true, &c->stop);
        if (k >= 0 && c->split) {
            c->done += k;
            if (!report_subtree(c))
                return CHK_ABORTED;
        }
        return k;
    }
    n = chk_gen_moves(&c->b->pos, list);
    if (n < 0)
        return CHK_HOOK_ERROR;
    for (i = 0; i < n; i++) {
        int64_t k;
        if (!chk_make(&c->b->pos, &list[i]))
            return CHK_NO_MEMORY;
        k = count_below(c, depth - 1);
        chk_unmake(&c->b->pos);
        if (k < 0)
            return k;
        sum += k;
    }
    return sum;
}

/* Raises the error value of a stopped count (status CHK_STOPPED or
 * CHK_TIMEOUT) with the root moves counted so far. */
static int partial_error(lua_State *L, int status, int64_t total)
{
    lb_push_status_error(L, status, "perft");
    lua_pushvalue(L, S_RESULTS);
    lua_setfield(L, -2, "partial");
    lua_pushinteger(L, total);
    lua_setfield(L, -2, "total");
    return lua_error(L);
}

/* Raises for a failed root move (the board idle again). */
static int count_error(lua_State *L, const CoreCall *cc, int failed, int64_t status, int64_t total)
{
    if (failed)
        return lb_hook_error(L, cc, failed);
    if (status == CHK_STOPPED || status == CHK_TIMEOUT)
        return partial_error(L, (int)status, total);
    if (status == CHK_ABORTED) {
        lua_pushvalue(L, S_ERROR);
        return lua_error(L);
    }
    return lb_status_error(L, (int)status, "perft");
}

/* The root moves of b (at 1) into list; returns how many. */
static int root_moves(lua_State *L, Board *b, chk_move *list)
{
    CoreCall cc;
    int top = lua_gettop(L), n, failed;
    lb_core_begin(L, S_BOARD, b, &cc);
    n = chk_gen_moves(&b->pos, list);
    failed = lb_core_end(b, &cc);
    if (failed || n < 0)
        lb_hook_error(L, &cc, failed);
    lua_settop(L, top);
    return n;
}

/* The count of depth - 1 after root move m (made and taken back), or a
 * negative chk_status; *failed: how a hook failed. */
static int64_t count_root(Count *c, const chk_move *m, int depth, int *failed, CoreCall *cc)
{
    int64_t count;
    lb_core_begin(c->L, S_BOARD, c->b, cc);
    if (!chk_make(&c->b->pos, m)) {
        *failed = lb_core_end(c->b, cc);
        return CHK_NO_MEMORY;
    }
    count = count_below(c, depth - 1);
    chk_unmake(&c->b->pos);
    *failed = lb_core_end(c->b, cc);
    return count;
}

/* Records root move i's count in the results and calls progress, protected.
 * False when that failed (its error on the top). */
static bool after_root(lua_State *L, Count *c, const chk_move *m, int64_t count, int64_t total)
{
    char text[MOVE_TEXT_SIZE];
    chk_move_text(&c->b->pos, m, text, sizeof text);
    text[sizeof text - 1] = '\0';
    lua_pushcfunction(L, perft_step);
    lua_pushvalue(L, S_RESULTS);
    lua_pushlightuserdata(L, text);
    lua_pushinteger(L, count);
    lua_pushvalue(L, S_PROGRESS);
    lua_pushinteger(L, c->i);
    lua_pushinteger(L, c->n);
    lua_pushinteger(L, total);
    return lua_pcall(L, 7, 0, 0) == LUA_OK;
}

/* Counts depth >= 1 root move by root move, the board busy all along.
 * Returns the total; raises (the board restored and idle) on failure. */
static int64_t count_roots(lua_State *L, Board *b, int depth)
{
    chk_move *list = lua_newuserdatauv(L, CHK_MAX_MOVES * sizeof *list, 0);
    int i, failed, top;
    int64_t total = 0;
    Count c;
    CoreCall cc;
    luaL_checkstack(L, 16, "perft");
    c.L = L;
    c.b = b;
    c.n = root_moves(L, b, list);
    c.done = 0;
    c.split = !lua_isnil(L, S_PROGRESS) && depth > SPLIT_DEPTH;
    top = lua_gettop(L);
    c.stop = lb_stop(L);
    b->busy = true;     /* from here on nothing may raise before busy is cleared */
    for (i = 0; i < c.n; i++) {
        int64_t count;
        c.i = i + 1;
        count = count_root(&c, &list[i], depth, &failed, &cc);
        if (failed || count < 0) {
            b->busy = false;
            return count_error(L, &cc, failed, count, total);
        }
        lua_settop(L, top);
        total += count;
        c.done = total;
        if (!after_root(L, &c, &list[i], count, total)) {
            b->busy = false;
            return lua_error(L);
        }
        c.stop.countdown = 1;   /* progress took time: the next check reads the clock */
        if (i + 1 < c.n && chk_stop_check(&c.stop) != CHK_OK) {  /* e.g. cheskers.interrupt() in progress */
            b->busy = false;
            return partial_error(L, c.stop.status, total);
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
    lua_settop(L, S_PROGRESS);
    lua_newtable(L);    /* S_RESULTS */
    lua_pushnil(L);     /* S_ERROR */
    if (d == 0) {
        lua_pushinteger(L, 1);
        return 1;
    }
    total = count_roots(L, b, (int)d);
    if (divide)
        lua_pushvalue(L, S_RESULTS);
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
