/*
 * lengine.c - the engine (core/search.c, core/eval.c) as board methods and
 * the table cheskers.engine (docs/reference/lua_api.md):
 *
 *   b:search{depth=, nodes=, time=, eval=, weights=, info=}
 *       -> { move =, score =, depth =, seldepth =, nodes =, time =, nps =, pv = {move...} }
 *       Iterative deepening until a limit: depth (plies), nodes, time
 *       (seconds); none given: depth 8. eval: function(board) -> number,
 *       an evaluation for the side to move written in Lua (it gets a copy
 *       of the position). weights: a table of weight overrides for this
 *       search. info: function(t) called after each completed depth with a
 *       table of the same shape. move is nil when the game is over.
 *       tb: a tables object (cheskers.tb.open): covered positions score
 *       exactly and a covered root is answered by the tables (result field
 *       tb = true); rules without tables search without them. info_every:
 *       seconds; info is also called inside an iteration about that often,
 *       with partial = true and the iteration's best line so far. context: a
 *       search context (cheskers.engine.context) whose tables the search
 *       keeps from its earlier searches. The search's switches and margins
 *       (core/cheskers.h: CHK_SEARCH_SWITCHES, CHK_SEARCH_MARGINS).
 *   b:eval([{features = true}]) -> score [, terms]
 *       The static evaluation for the side to move; terms (only when
 *       features is asked for): weight name -> its part of the score.
 *   b:ordered_moves() -> {move...}   b:moves() in the engine's static order
 *   cheskers.engine.weights([t]) -> table   all weights (after setting t's)
 *   cheskers.engine.get(name) -> integer
 *   cheskers.engine.set(name, value)
 *   cheskers.engine.reset()                 the default weights
 *   cheskers.engine.defaults() -> table
 *   cheskers.engine.names                   the weight names, in order
 *   cheskers.engine.switches, .margins      b:search's switches and margins:
 *                                           name -> what it is (the lists of
 *                                           core/cheskers.h)
 *   cheskers.engine.features(board) -> table   name -> feature value
 *   cheskers.engine.context([megabytes]) -> ctx   a search context;
 *       ctx:clear() forgets its searches
 *   cheskers.engine.deadline([seconds])     the same function as cheskers.deadline
 *   cheskers.engine.WIN, cheskers.engine.MATE_MIN   score constants
 *
 * The weights and one search context (its tables allocated once) belong to
 * the Lua state: they live in the Engine userdata, upvalue 1 of every
 * function here (no globals). The interrupt flag and the deadline stop a
 * search (lbind.h: lb_stop): the board is restored and "interrupted" or
 * "timeout" raised. Lua callbacks run
 * under lua_pcall; their errors are raised once the search has returned and
 * the board is restored.
 */
#include <stdbool.h>
#include <string.h>

#include "lbind.h"

#define ENGINE_MT "cheskers.engine"
#define DEFAULT_DEPTH 8

typedef struct Engine {
    chk_weights w;
    chk_search *search;     /* made on first use */
    bool searching;         /* search is in use (a callback searches again) */
} Engine;

/* A search context of its own, for a search started from inside another
 * one's callback: from the state's allocator (lbind.h: State.alloc, so a
 * box's memory cap counts it), freed as soon as its search returns, or by
 * its __gc when a Lua error comes first (it cannot leak). */
typedef struct Box {
    chk_search *search;
} Box;

#define BOX_MT "cheskers.engine.search"
/* An inner search's transposition table: small, since the context is made
 * and zeroed for each such search (and counted against a box's memory). */
#define INNER_HASH_BYTES ((size_t)256 << 10)

static int box_gc(lua_State *L)
{
    Box *b = luaL_checkudata(L, 1, BOX_MT);
    chk_search_free(b->search);
    b->search = NULL;
    return 0;
}

/* A search context a caller keeps (cheskers.engine.context()): b:search{
 * context = ctx} searches with it and keeps its tables from one search to
 * the next (chk_search_opts.keep), so a game's searches build on each other;
 * ctx:clear() forgets them. From the state's allocator (a box's memory cap
 * counts it); one search at a time.
 * The core starts afresh when the rules differ in content, but it can tell
 * Lua hooks apart only by their hook_ud, the address of their Rules: rules
 * made after the last search's were collected can get that address, with
 * other hook functions. So rules with hooks are also told apart here by
 * their Rules.id, which is never reused within a Lua state (hooked_id: the
 * last search's, 0 when it had no hooks). */
typedef struct Context {
    chk_search *search;
    bool busy;
    lua_Integer hooked_id;
} Context;

#define CONTEXT_MT "cheskers.engine.context"
#define CONTEXT_MB_DEFAULT 16
#define CONTEXT_MB_MAX 4096

static int context_gc(lua_State *L)
{
    Context *c = luaL_checkudata(L, 1, CONTEXT_MT);
    chk_search_free(c->search);
    c->search = NULL;
    return 0;
}

static Context *check_context(lua_State *L, int idx)
{
    Context *c = luaL_testudata(L, idx, CONTEXT_MT);
    if (!c)
        lb_error(L, LB_E_BAD_ARGUMENT, "search: 'context' must be a search context (cheskers.engine.context()), not %s",
                 lb_push_value_text(L, idx));
    return c;
}

/* ctx:clear(): forget the earlier searches. */
static int context_clear(lua_State *L)
{
    Context *c = luaL_checkudata(L, 1, CONTEXT_MT);
    if (c->busy)
        return lb_error(L, LB_E_BUSY, "context:clear: the context is searching");
    chk_search_forget(c->search);
    return 0;
}

static int context_tostring(lua_State *L)
{
    luaL_checkudata(L, 1, CONTEXT_MT);
    lua_pushstring(L, "search context");
    return 1;
}

/* engine.context([megabytes]) */
static int l_context(lua_State *L)
{
    lua_Integer mb = CONTEXT_MB_DEFAULT;
    if (!lua_isnoneornil(L, 1)) {
        if (!lua_isinteger(L, 1) || lua_tointeger(L, 1) < 1 || lua_tointeger(L, 1) > CONTEXT_MB_MAX)
            return lb_error(L, LB_E_BAD_ARGUMENT, "context: the table size must be a whole number of megabytes from 1 to %d, not %s",
                            CONTEXT_MB_MAX, lb_push_value_text(L, 1));
        mb = lua_tointeger(L, 1);
    }
    Context *c = lua_newuserdatauv(L, sizeof *c, 0);
    c->search = NULL;
    c->busy = false;
    c->hooked_id = 0;
    if (luaL_newmetatable(L, CONTEXT_MT)) {
        static const luaL_Reg methods[] = { { "clear", context_clear }, { NULL, NULL } };
        lua_pushcfunction(L, context_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushcfunction(L, context_tostring);
        lua_setfield(L, -2, "__tostring");
        luaL_newlib(L, methods);
        lua_setfield(L, -2, "__index");
    }
    lua_setmetatable(L, -2);
    c->search = chk_search_new_alloc((size_t)mb << 20, lb_alloc(lb_state(L)));
    if (!c->search)
        return lb_error(L, LB_E_NO_MEMORY, "context: not enough memory for %d MB", (int)mb);
    lb_settle_gc(L, lb_state(L));   /* the collector hears of the table */
    return 1;
}

#define getengine(L) ((Engine *)luaL_checkudata(L, lua_upvalueindex(1), ENGINE_MT))

static int engine_gc(lua_State *L)
{
    Engine *e = luaL_checkudata(L, 1, ENGINE_MT);
    chk_search_free(e->search);
    e->search = NULL;
    return 0;
}

/* ---- weights ------------------------------------------------------------ */

/* The weight index named by the string at arg; raises for an unknown name. */
static int check_weight(lua_State *L, int arg)
{
    const char *name = luaL_checkstring(L, arg);
    int i = chk_weight_index(name);
    if (i < 0)
        luaL_argerror(L, arg, lua_pushfstring(L, "unknown weight '%s'", name));
    return i;
}

/* The largest size of a weight (either sign). */
#define WEIGHT_MAX 100000

/* Sets w from the table at idx (name -> integer); raises on a bad entry
 * before changing anything. */
static void read_weights(lua_State *L, int idx, chk_weights *w)
{
    chk_weights nw = *w;
    const char *names[CHK_NWEIGHTS + 1];
    for (int i = 0; i < CHK_NWEIGHTS; i++)
        names[i] = chk_weight_name(i);
    names[CHK_NWEIGHTS] = NULL;
    idx = lua_absindex(L, idx);
    lb_check_options(L, idx, "weights: ", "weight", names);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) != LUA_TSTRING)
            lb_error(L, LB_E_BAD_ARGUMENT, "weights: keys must be weight names");
        const char *name = lua_tostring(L, -2);
        int i = chk_weight_index(name);
        if (i < 0)
            lb_error(L, LB_E_BAD_OPTION, "weights: unknown weight '%s'", name);
        lua_Integer v = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : LUA_MININTEGER;
        if (v < -WEIGHT_MAX || v > WEIGHT_MAX)
            lb_error(L, LB_E_BAD_ARGUMENT, "weights: %s must be a whole number from %d to %d, not %s",
                     name, -WEIGHT_MAX, WEIGHT_MAX, lb_push_value_text(L, -1));
        nw.w[i] = (int)v;
        lua_pop(L, 1);
    }
    *w = nw;
}

static void push_weights(lua_State *L, const chk_weights *w)
{
    lua_createtable(L, 0, CHK_NWEIGHTS);
    for (int i = 0; i < CHK_NWEIGHTS; i++) {
        lua_pushinteger(L, w->w[i]);
        lua_setfield(L, -2, chk_weight_name(i));
    }
}

/* engine.weights([t]) */
static int l_weights(lua_State *L)
{
    Engine *e = getengine(L);
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        read_weights(L, 1, &e->w);
    }
    push_weights(L, &e->w);
    return 1;
}

static int l_get(lua_State *L)
{
    Engine *e = getengine(L);
    lua_pushinteger(L, e->w.w[check_weight(L, 1)]);
    return 1;
}

static int l_set(lua_State *L)
{
    Engine *e = getengine(L);
    int i = check_weight(L, 1);
    lua_Integer v = luaL_checkinteger(L, 2);
    luaL_argcheck(L, v >= -WEIGHT_MAX && v <= WEIGHT_MAX, 2, "out of range (-100000..100000)");
    e->w.w[i] = (int)v;
    return 0;
}

static int l_reset(lua_State *L)
{
    chk_weights_default(&getengine(L)->w);
    return 0;
}

static int l_defaults(lua_State *L)
{
    chk_weights w;
    chk_weights_default(&w);
    push_weights(L, &w);
    return 1;
}

static int l_features(lua_State *L)
{
    chk_pos *p = lb_checkpos(L, 1);
    int f[CHK_NWEIGHTS];
    chk_eval_features(p, f);
    lua_createtable(L, 0, CHK_NWEIGHTS);
    for (int i = 0; i < CHK_NWEIGHTS; i++) {
        lua_pushinteger(L, f[i]);
        lua_setfield(L, -2, chk_weight_name(i));
    }
    return 1;
}

/* b:eval([{features = true}]) -> score [, terms]: the score alone unless
 * features is asked for (no table made per call). */
static int board_eval(lua_State *L)
{
    static const char *const known[] = { "features", NULL };
    Engine *e = getengine(L);
    chk_pos *p = lb_checkpos(L, 1);
    int f[CHK_NWEIGHTS];
    bool features = false;
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        lb_check_options(L, 2, "eval: ", "option", known);
        features = lua_getfield(L, 2, "features") != LUA_TNIL && lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    lua_pushinteger(L, chk_eval(p, &e->w));
    if (!features)
        return 1;
    chk_eval_features(p, f);
    lua_createtable(L, 0, CHK_NWEIGHTS);
    for (int i = 0; i < CHK_NWEIGHTS; i++) {
        lua_pushinteger(L, (lua_Integer)e->w.w[i] * f[i]);
        lua_setfield(L, -2, chk_weight_name(i));
    }
    return 2;
}

/* b:ordered_moves() -> {move...}: b:moves() (the same objects' fields and
 * index) in the engine's static order (chk_order_scores with the current
 * weights), ties in b:moves() order. */
static int board_ordered_moves(lua_State *L)
{
    Engine *e = getengine(L);
    Board *b = lb_check_board(L, 1, true, false);
    chk_move list[CHK_MAX_MOVES];
    int order[CHK_MAX_MOVES], sc[CHK_MAX_MOVES], place[CHK_MAX_MOVES];
    CoreCall cc;
    int i, j, n, failed;
    uint64_t stamp;
    lua_settop(L, 1);
    lb_core_begin(L, 1, b, &cc);
    n = chk_gen_moves(&b->pos, list);
    failed = lb_core_end(b, &cc);
    if (failed || n < 0)
        return lb_hook_error(L, &cc, failed);
    lb_sort_moves(L, b->pos.rules, list, n, order);
    chk_order_scores(&b->pos, &e->w, list, n, sc);
    for (i = 0; i < n; i++)
        place[order[i]] = i + 1;
    for (i = 1; i < n; i++) {       /* stable insertion sort by score */
        int x = order[i];
        for (j = i; j > 0 && sc[order[j - 1]] < sc[x]; j--)
            order[j] = order[j - 1];
        order[j] = x;
    }
    stamp = lb_board_stamp(b, lb_state(L));
    luaL_getmetatable(L, MOVE_MT);
    lb_push_move_list(L, -1, &b->pos, list, order, place, n, stamp);
    return 1;
}

/* ---- search ------------------------------------------------------------- */

/* What the callbacks need. Stack slots of board_search's frame hold the
 * board, the callbacks and the error value of a failed callback (the
 * callbacks run in that frame; the protected calls get them as arguments). */
typedef struct Call {
    lua_State *L;
    chk_pos *p;
    int board, eval, info, err;
    lua_Number score;
    const chk_search_info *si;
} Call;

/* [-0, +1] Pushes the moves ms[0..n) as an array of move objects. They are
 * a line from p, so each is made to push the next one: on a scratch copy of
 * the position inside a userdata (its history buffer included, so chk_make
 * never allocates), which a Lua error while pushing cannot leave behind. */
static void push_line(lua_State *L, const chk_pos *p, const chk_move *ms, int n)
{
    chk_pos *q = lua_newuserdatauv(L, sizeof *q + (size_t)(n + 1) * sizeof(chk_undo), 0);
    *q = *p;
    q->hist = (chk_undo *)(q + 1);
    q->nhist = 0;
    q->caphist = (size_t)n + 1;
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lb_push_move(L, q, &ms[i], 0, false);
        lua_rawseti(L, -2, i + 1);
        if (i + 1 < n && !chk_make(q, &ms[i]))
            break;
    }
    lua_remove(L, -2);
}

/* [-0, +1] The result table of a search. */
static void push_result(lua_State *L, const chk_pos *p, const chk_search_info *si)
{
    lua_createtable(L, 0, 8);
    if (si->npv > 0) {
        lb_push_move(L, p, &si->pv[0], 0, false);
        lua_setfield(L, -2, "move");
    }
    lua_pushinteger(L, si->score);
    lua_setfield(L, -2, "score");
    lua_pushinteger(L, si->depth);
    lua_setfield(L, -2, "depth");
    lua_pushinteger(L, si->seldepth);
    lua_setfield(L, -2, "seldepth");
    lua_pushinteger(L, (lua_Integer)si->nodes);
    lua_setfield(L, -2, "nodes");
    lua_pushnumber(L, si->seconds);
    lua_setfield(L, -2, "time");
    lua_pushinteger(L, si->seconds > 0 ? (lua_Integer)((double)si->nodes / si->seconds) : 0);
    lua_setfield(L, -2, "nps");
    if (si->partial) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "partial");
    }
    if (si->tb) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "tb");
    }
    push_line(L, p, si->pv, si->npv);
    lua_setfield(L, -2, "pv");
}

/* Runs protected: [Call, eval, board] -> (). Calls eval(copy of the board). */
static int eval_protected(lua_State *L)
{
    Call *c = lua_touserdata(L, 1);
    lua_pushvalue(L, 2);
    lua_getfield(L, 3, "copy");
    lua_pushvalue(L, 3);
    lua_call(L, 1, 1);
    lua_call(L, 1, 1);
    int isnum;
    lua_Number v = lua_tonumberx(L, -1, &isnum);
    if (!isnum)
        return lb_error(L, LB_E_HOOK, "eval function must return a number (got %s)", luaL_typename(L, -1));
    if (v != v)
        return lb_error(L, LB_E_HOOK, "eval function returned NaN");
    c->score = v;
    return 0;
}

/* The chk_eval_fn: the Lua eval function. Nothing here raises. */
static int eval_cb(void *ud, chk_pos *pos, int *score)
{
    Call *c = ud;
    lua_State *L = c->L;
    (void)pos;      /* the same position as the board's: it is searched in place */
    if (!lua_checkstack(L, 6)) {
        return -1;
    }
    lua_pushcfunction(L, eval_protected);
    lua_pushlightuserdata(L, c);
    lua_pushvalue(L, c->eval);
    lua_pushvalue(L, c->board);
    if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
        lua_replace(L, c->err);
        return -1;
    }
    lua_Number v = c->score;
    const lua_Number lim = CHK_SCORE_MATE_MIN - 1;
    *score = (int)(v > lim ? lim : v < -lim ? -lim : (v < 0 ? v - 0.5 : v + 0.5));
    return 0;
}

/* Runs protected: [Call, info] -> (). Calls info(table). */
static int info_protected(lua_State *L)
{
    Call *c = lua_touserdata(L, 1);
    lua_pushvalue(L, 2);
    push_result(L, c->si->partial ? c->si->root : c->p, c->si);   /* partial: p is mid-search */
    lua_call(L, 1, 0);
    return 0;
}

/* The chk_info_fn: the Lua info function. Nothing here raises. */
static int info_cb(void *ud, const chk_search_info *si)
{
    Call *c = ud;
    lua_State *L = c->L;
    if (!lua_checkstack(L, 8))
        return 1;
    c->si = si;
    lua_pushcfunction(L, info_protected);
    lua_pushlightuserdata(L, c);
    lua_pushvalue(L, c->info);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
        lua_replace(L, c->err);
        return 1;
    }
    return 0;
}

/* The largest time of a search, in seconds (chk_search_run's range), and
 * the largest node budget (10^12: hours of search). */
#define SEARCH_MAX_SECONDS 1e9
#define SEARCH_MAX_NODES 1000000000000

/* Field name of the options table at 2, a search feature: true 1, false -1,
 * absent 0 (the default). */
static signed char opt_switch(lua_State *L, const char *name)
{
    int t = lua_getfield(L, 2, name);
    if (t != LUA_TNIL && t != LUA_TBOOLEAN)
        lb_error(L, LB_E_BAD_ARGUMENT, "search: '%s' must be true or false, not %s", name,
                 lb_push_value_text(L, -1));
    signed char v = t == LUA_TNIL ? 0 : lua_toboolean(L, -1) ? 1 : -1;
    lua_pop(L, 1);
    return v;
}

/* Stores the function field name of the options table at slot, or 0. */
static int opt_function(lua_State *L, const char *name, int slot)
{
    int t = lua_getfield(L, 2, name);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    if (t != LUA_TFUNCTION)
        lb_error(L, LB_E_BAD_ARGUMENT, "search: '%s' must be a function", name);
    lua_replace(L, slot);
    return slot;
}

/* b:search([opts]) */
static int board_search(lua_State *L)
{
#define OPTION_NAME(name, what) #name,
    static const char *const known[] = { "depth", "nodes", "time", "eval", "weights", "info",
                                         "tb", "info_every", "context",
                                         CHK_SEARCH_SWITCHES(OPTION_NAME)
                                         CHK_SEARCH_MARGINS(OPTION_NAME) NULL };
#undef OPTION_NAME
    Engine *e = getengine(L);
    chk_pos *p = lb_checkpos(L, 1);
    chk_search_opts o;
    chk_weights w = e->w;
    Call c;
    chk_search_info *si;
    memset(&o, 0, sizeof o);
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_newtable(L);
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    lb_check_options(L, 2, "search: ", "option", known);
    /* the numbers, each read in its range (chk_search_run's): nothing wraps */
    o.depth = (int)lb_opt_integer(L, 2, "depth", 1, CHK_MAX_PLY - 1, 0, "search: ");
    o.nodes = (int64_t)lb_opt_integer(L, 2, "nodes", 1, SEARCH_MAX_NODES, 0, "search: ");
    o.seconds = lb_opt_number(L, 2, "time", 0, SEARCH_MAX_SECONDS, 0, "search: ");
    if (!o.depth && !o.nodes && !(o.seconds > 0))
        o.depth = DEFAULT_DEPTH;
    o.info_every = lb_opt_number(L, 2, "info_every", 0, SEARCH_MAX_SECONDS, 0, "search: ");
    if (lua_getfield(L, 2, "tb") != LUA_TNIL) {
        char err[320];
        o.tb = lb_check_tables(L, -1, p->rules, err, sizeof err);  /* NULL: none for these rules */
    }
    lua_pop(L, 1);      /* kept on the stack below, during the search */
#define READ_SWITCH(name, what) o.name = opt_switch(L, #name);
    CHK_SEARCH_SWITCHES(READ_SWITCH)
#undef READ_SWITCH
#define READ_MARGIN(name, what) o.name = (int)lb_opt_integer(L, 2, #name, 1, CHK_SEARCH_MAX_MARGIN, 0, "search: ");
    CHK_SEARCH_MARGINS(READ_MARGIN)
#undef READ_MARGIN
    if (lua_getfield(L, 2, "weights") != LUA_TNIL) {
        luaL_checktype(L, -1, LUA_TTABLE);
        read_weights(L, -1, &w);
    }
    lua_pop(L, 1);
    /* slots 3..6: eval, info, error value, the result buffer */
    lua_settop(L, 5);
    c.L = L;
    c.p = p;
    c.board = 1;
    c.eval = opt_function(L, "eval", 3);
    c.info = opt_function(L, "info", 4);
    c.err = 5;
    c.si = NULL;
    si = lua_newuserdatauv(L, sizeof *si, 0);
    /* the tables and the context stay on the stack until the search returns:
     * a callback that takes them out of the options table cannot have them
     * collected mid-search */
    lua_getfield(L, 2, "tb");
    chk_search *ctx;
    Box *box = NULL;        /* an inner search's context */
    Context *kept = NULL;   /* the caller's context (opts.context) */
    if (lua_getfield(L, 2, "context") != LUA_TNIL) {
        kept = check_context(L, -1);
        if (kept->busy)
            return lb_error(L, LB_E_BUSY, "search: the context is searching already (a callback needs a context of its own)");
    }
    if (kept) {
        const Rules *rules = (const Rules *)p->rules;
        lua_Integer id = rules->r.filter || rules->r.result ? rules->id : 0;
        ctx = kept->search;
        o.keep = 1;
        if (id != kept->hooked_id)
            chk_search_forget(ctx);     /* other hooks, maybe at the same address */
        kept->hooked_id = id;
    } else if (e->searching) {
        box = lua_newuserdatauv(L, sizeof *box, 0);
        box->search = NULL;
        if (luaL_newmetatable(L, BOX_MT)) {
            lua_pushcfunction(L, box_gc);
            lua_setfield(L, -2, "__gc");
        }
        lua_setmetatable(L, -2);
        box->search = chk_search_new_alloc(INNER_HASH_BYTES, lb_alloc(lb_state(L)));
        ctx = box->search;
    } else {
        if (!e->search)
            e->search = chk_search_new(0);
        ctx = e->search;
    }
    if (!ctx)
        return lb_error(L, LB_E_NO_MEMORY, "search: not enough memory");
    o.weights = &w;
    o.eval = c.eval ? eval_cb : NULL;
    o.eval_ud = &c;
    o.info = c.info ? info_cb : NULL;
    o.info_ud = &c;
    chk_stop stop = lb_stop(L);
    o.stop = &stop;
    bool outer = !e->searching;
    int slot = lb_call_begin(L, 1);
    e->searching = true;
    if (kept)
        kept->busy = true;
    int rc = chk_search_run(ctx, p, &o, si);
    if (kept)
        kept->busy = false;
    if (outer)
        e->searching = false;
    if (box != NULL) {      /* given back now, not at the next collection */
        chk_search_free(box->search);
        box->search = NULL;
    }
    lb_call_end(L, 1, slot);     /* raises the error of a failed rule hook */
    switch (rc) {
    case CHK_OK:
    case CHK_TIMEOUT:   /* the deadline bounds a search: its best move so far */
        break;
    case CHK_EVAL_ERROR:
        if (lua_isnil(L, c.err))
            return lb_error(L, LB_E_HOOK, "search: the eval function failed");
        lua_pushvalue(L, c.err);
        return lua_error(L);
    case CHK_ABORTED:
        if (lua_isnil(L, c.err))
            return lb_error(L, LB_E_HOOK, "search: the info function failed");
        lua_pushvalue(L, c.err);
        return lua_error(L);
    default:
        return lb_status_error(L, rc, "search");
    }
    push_result(L, p, si);
    return 1;
}

/* ---- opening ------------------------------------------------------------ */

static const luaL_Reg engine_funcs[] = {
    { "weights", l_weights },
    { "get", l_get },
    { "set", l_set },
    { "reset", l_reset },
    { "deadline", lb_deadline },
    { "defaults", l_defaults },
    { "features", l_features },
    { "context", l_context },
    { NULL, NULL }
};

static const luaL_Reg engine_board_methods[] = {
    { "search", board_search },
    { "eval", board_eval },
    { "ordered_moves", board_ordered_moves },
    { NULL, NULL }
};

/* With the module on top: adds b:search and b:eval, and cheskers.engine. */
void lb_open_engine(lua_State *L)
{
    int module = lua_absindex(L, -1);
    luaL_checktype(L, module, LUA_TTABLE);
    Engine *e = lua_newuserdatauv(L, sizeof *e, 0);
    chk_weights_default(&e->w);
    e->search = NULL;
    e->searching = false;
    if (luaL_newmetatable(L, ENGINE_MT)) {
        lua_pushcfunction(L, engine_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    /* the board methods: the __index table of the board metatable */
    lb_push_board_methods(L);
    lua_pushvalue(L, -2);
    luaL_setfuncs(L, engine_board_methods, 1);
    lua_pop(L, 1);
    /* cheskers.engine */
    lua_createtable(L, 0, 10);
    lua_pushvalue(L, -2);
    luaL_setfuncs(L, engine_funcs, 1);
    lua_createtable(L, CHK_NWEIGHTS, 0);
    for (int i = 0; i < CHK_NWEIGHTS; i++) {
        lua_pushstring(L, chk_weight_name(i));
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "names");
    /* the search's switches and margins (core/cheskers.h): name -> what */
#define PUSH_OPTION(name, what) lua_pushstring(L, what), lua_setfield(L, -2, #name);
    lua_newtable(L);
    CHK_SEARCH_SWITCHES(PUSH_OPTION)
    lua_setfield(L, -2, "switches");
    lua_newtable(L);
    CHK_SEARCH_MARGINS(PUSH_OPTION)
    lua_setfield(L, -2, "margins");
#undef PUSH_OPTION
    /* the scores, and the ranges of b:search's numbers (for cheskers.numbers) */
    static const struct { const char *name; lua_Integer v; } constants[] = {
        { "WIN", CHK_SCORE_WIN }, { "MATE_MIN", CHK_SCORE_MATE_MIN }, { "MAX_DEPTH", CHK_MAX_PLY - 1 },
        { "MAX_MARGIN", CHK_SEARCH_MAX_MARGIN }, { "MAX_SECONDS", (lua_Integer)SEARCH_MAX_SECONDS },
        { "MAX_WEIGHT", WEIGHT_MAX }, { "MAX_NODES", SEARCH_MAX_NODES },
    };
    for (size_t i = 0; i < sizeof constants / sizeof *constants; i++) {
        lua_pushinteger(L, constants[i].v);
        lua_setfield(L, -2, constants[i].name);
    }
    lua_setfield(L, module, "engine");
    lua_pop(L, 1);
}
