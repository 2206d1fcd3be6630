/*
 * ltb.c - the endgame tablebases (core/cheskers_tb.h) in Lua:
 *
 *   cheskers.tb.open([dir]) -> tables       tables in dir (default: the
 *       environment variable CHESKERS_TB, else "tb"); they become the
 *       default tables that b:probe uses. A dir that exists but is no
 *       folder (a file, a device), or "", is refused.
 *   cheskers.tb.default() -> tables         the default tables
 *   cheskers.tb.set_default(tables | false | nil) -> previous
 *       sets the default tables: false none (b:probe() covers nothing: a
 *       sandbox's boxes run so, lua/cheskers/sandbox.lua), nil those of
 *       the environment, made on next use. Returns the previous setting
 *       (tables, false, or nil when none was made yet).
 *   cheskers.tb.build{pieces =, rules =, dir =, threads =, progress =, only =,
 *       preflight =} -> true | nil, message  builds the missing tables
 *       (only = "KCvKK": that signature and its colour swap alone, the
 *       tables it leads to being there already; preflight = false: start
 *       even when the disk space or memory estimated is not there);
 *       progress(t) is called after each signature with t = {name =,
 *       done =, total =, skipped =, positions =, seconds =}; returning true
 *       stops the build (nil, "stopped"); so does cheskers.interrupt() or
 *       Ctrl-C (the interrupt flag, lbind.h: nil and the error value
 *       "interrupted", code "interrupted").
 *   cheskers.tb.MAX_PIECES                   the most pieces a table can have
 *   cheskers.tb.plan{pieces =, rules =, dir =, only =} -> list | nil, message
 *       the units of that build in build order: {name =, swap =, pieces =,
 *       level =, entries =, disk =, deps_disk =, memory =, built =}
 *       (chk_tb_unit); no file is read.
 *   tables:probe(b), tables:moves(b)        as b:probe(), b:tb_moves()
 *   tables:best(b) -> move, value, distance  the fastest win, else a draw,
 *       else the slowest loss; nil when not covered or the game is over
 *   tables:info([rules]) -> list            each table: {name =, pieces =,
 *       positions =, wins =, draws =, losses =, longest_win =, longest_fen =}
 *   tables:max_pieces([rules]) -> n         every signature up to n is there
 *   tables:wins(rules, name [, min [, unique [, keep]]]) -> list, count
 *       the positions of table name (White to move) won in at least min
 *       plies (default 1), with unique only those where exactly one move
 *       wins: count them (with their symmetric images, as info's wins)
 *       and list the keep (default 0) longest, {fen =, distance =} each,
 *       longest first; nil, message when there is no such table.
 *       Interrupted as tb.build is.
 *   tables:dir() -> text | nil (no folder), tables:reload()   (re-scan
 *       after files changed)
 *   b:probe([tables]) -> "win"|"loss"|"draw", plies | nil [, message]
 *       nil alone: no table covers the position; nil, message: the rules
 *       have no tables (hooks, custom kinds) or a file is damaged.
 *   b:tb_moves([tables]) -> { {move =, value =, distance =}, ... } | nil, message
 *       each legal move with its value for the mover (nil when the position
 *       after it is not covered) and the plies to the end counting it.
 * [rules]: a board, or anything cheskers.new accepts as rules (nil: golomb).
 *
 * One chk_tb is opened per rule set a tables object meets (a few are kept).
 * Upvalue 1 of every function is a table {new = cheskers.new, default =
 * tables | false, none = the tables of no folder (made on first use)}.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lauxlib.h"
#include "lua.h"

#include "cheskers_tb.h"
#include "lbind.h"

#define TBDIR_MT "cheskers.tables"
#define TB_OPEN_MAX 8
#define TEXT_MAX 512

typedef struct TbDir {
    char *dir;              /* NULL: no folder (nothing is covered) */
    int n;
    struct {
        char text[TEXT_MAX];
        chk_tb *tb;
    } open[TB_OPEN_MAX];
} TbDir;

static const char *const VALUE_NAME[3] = {"loss", "draw", "win"};

static TbDir *checkdir(lua_State *L, int arg)
{
    return luaL_checkudata(L, arg, TBDIR_MT);
}

static void dir_close_all(TbDir *d)
{
    for (int i = 0; i < d->n; i++)
        chk_tb_close(d->open[i].tb);
    d->n = 0;
}

static int dir_gc(lua_State *L)
{
    TbDir *d = checkdir(L, 1);
    dir_close_all(d);
    free(d->dir);
    d->dir = NULL;
    return 0;
}

/* [-0, +1] A new tables object for dir (NULL: no folder). */
static TbDir *push_dir(lua_State *L, const char *dir)
{
    TbDir *d = lua_newuserdatauv(L, sizeof *d, 0);
    memset(d, 0, sizeof *d);
    luaL_setmetatable(L, TBDIR_MT);
    if (dir && !(d->dir = strdup(dir)))
        luaL_error(L, "out of memory");
    return d;
}

static const char *default_dir(void)
{
    const char *env = getenv("CHESKERS_TB");
    return env && *env ? env : "tb";
}

/* [-0, +1] The default tables (made from the environment on first use);
 * when set to false, the tables of no folder (made once). */
static TbDir *push_default(lua_State *L)
{
    int t = lua_getfield(L, lua_upvalueindex(1), "default");
    bool none = t == LUA_TBOOLEAN;
    if (t == LUA_TUSERDATA)
        return checkdir(L, -1);
    lua_pop(L, 1);
    if (none && lua_getfield(L, lua_upvalueindex(1), "none") == LUA_TUSERDATA)
        return checkdir(L, -1);
    if (none)
        lua_pop(L, 1);
    TbDir *d = push_dir(L, none ? NULL : default_dir());
    lua_pushvalue(L, -1);
    lua_setfield(L, lua_upvalueindex(1), none ? "none" : "default");
    return d;
}

/* The tables at arg, or the default ones pushed (the stack grows by one). */
static TbDir *dir_at(lua_State *L, int arg)
{
    if (lua_isnoneornil(L, arg))
        return push_default(L);
    TbDir *d = checkdir(L, arg);
    lua_pushvalue(L, arg);
    return d;
}

/* d's tables for rules r: NULL with a message in err when r has none. */
static chk_tb *dir_tables(TbDir *d, const chk_rules *r, char *err, size_t errlen)
{
    char text[TEXT_MAX];
    if (!chk_tb_supported(r, err, errlen))
        return NULL;
    chk_rules_to_text(r, text, sizeof text);
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->open[i].text, text))
            return d->open[i].tb;
    chk_tb *tb = chk_tb_open(d->dir, r, err, errlen);
    if (!tb)
        return NULL;
    if (d->n == TB_OPEN_MAX) {      /* forget the oldest */
        chk_tb_close(d->open[0].tb);
        memmove(&d->open[0], &d->open[1], sizeof d->open[0] * (TB_OPEN_MAX - 1));
        d->n--;
    }
    memcpy(d->open[d->n].text, text, sizeof text);
    d->open[d->n++].tb = tb;
    return tb;
}

chk_tb *lb_check_tables(lua_State *L, int arg, const chk_rules *r, char *err, size_t errlen)
{
    TbDir *d = luaL_testudata(L, arg, TBDIR_MT);
    if (!d)
        lb_error(L, LB_E_BAD_ARGUMENT, "'tb' must be tables (cheskers.tb.open(dir)), not %s",
                 luaL_typename(L, arg));
    return dir_tables(d, r, err, errlen);
}

/* The rules at arg: a board's, or cheskers.new(nil, arg)'s (the board is
 * pushed to keep the rules alive; the stack grows by one). */
static const chk_rules *rules_at(lua_State *L, int arg)
{
    if (lua_type(L, arg) == LUA_TUSERDATA) {
        const chk_pos *p = lb_checkpos(L, arg);
        lua_pushvalue(L, arg);
        return p->rules;
    }
    bool none = lua_isnoneornil(L, arg);
    arg = lua_absindex(L, arg);
    lua_getfield(L, lua_upvalueindex(1), "new");
    lua_pushnil(L);
    if (none)
        lua_pushnil(L);
    else
        lua_pushvalue(L, arg);
    lua_call(L, 2, 1);
    return lb_checkpos(L, -1)->rules;
}

/* ---- probing ------------------------------------------------------------ */

static int push_fail(lua_State *L, const char *msg)
{
    luaL_pushfail(L);
    lua_pushstring(L, msg);
    return 2;
}

/* probe(board, tables) with the board at b and the tables object d. */
static int probe(lua_State *L, int b, TbDir *d)
{
    chk_pos *p = lb_checkpos(L, b);
    char err[320];
    int value, dist, rc;
    chk_tb *tb = dir_tables(d, p->rules, err, sizeof err);
    if (!tb)
        return push_fail(L, err);
    rc = chk_tb_probe(tb, p, &value, &dist);
    if (rc < 0)
        return push_fail(L, chk_tb_error(tb));
    if (rc == 0) {
        luaL_pushfail(L);
        return 1;
    }
    lua_pushstring(L, VALUE_NAME[value + 1]);
    lua_pushinteger(L, dist);
    return 2;
}

typedef struct MoveValues {
    chk_move moves[CHK_MAX_MOVES];
    int values[CHK_MAX_MOVES], dists[CHK_MAX_MOVES];
    bool known[CHK_MAX_MOVES];
} MoveValues;

static int moves(lua_State *L, int b, TbDir *d)
{
    chk_pos *p = lb_checkpos(L, b);
    char err[320];
    chk_tb *tb = dir_tables(d, p->rules, err, sizeof err);
    if (!tb)
        return push_fail(L, err);
    MoveValues *mv = lua_newuserdatauv(L, sizeof *mv, 0);
    int n = chk_tb_move_values(tb, p, mv->moves, mv->values, mv->dists, mv->known);
    if (n < 0)
        return push_fail(L, chk_tb_error(tb));
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_createtable(L, 0, 3);
        lb_push_move(L, p, &mv->moves[i], 0, false);
        lua_setfield(L, -2, "move");
        if (mv->known[i]) {
            lua_pushstring(L, VALUE_NAME[mv->values[i] + 1]);
            lua_setfield(L, -2, "value");
            lua_pushinteger(L, mv->dists[i]);
            lua_setfield(L, -2, "distance");
        }
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* tables:best(b) -> move, value, distance | nil [, message] */
static int dir_best(lua_State *L)
{
    TbDir *d = checkdir(L, 1);
    chk_pos *p = lb_checkpos(L, 2);
    char err[320];
    chk_move best;
    int value, dist, rc;
    chk_tb *tb = dir_tables(d, p->rules, err, sizeof err);
    if (!tb)
        return push_fail(L, err);
    rc = chk_tb_best_move(tb, p, &best, &value, &dist);
    if (rc < 0)
        return push_fail(L, chk_tb_error(tb));
    if (rc == 0) {
        luaL_pushfail(L);
        return 1;
    }
    lb_push_move(L, p, &best, 0, false);
    lua_pushstring(L, VALUE_NAME[value + 1]);
    lua_pushinteger(L, dist);
    return 3;
}

static int board_probe(lua_State *L)
{
    (void)lb_checkpos(L, 1);
    return probe(L, 1, dir_at(L, 2));
}

static int board_tb_moves(lua_State *L)
{
    (void)lb_checkpos(L, 1);
    return moves(L, 1, dir_at(L, 2));
}

static int dir_probe(lua_State *L)
{
    return probe(L, 2, checkdir(L, 1));
}

static int dir_moves(lua_State *L)
{
    return moves(L, 2, checkdir(L, 1));
}

/* ---- contents ----------------------------------------------------------- */

static void set_int(lua_State *L, const char *name, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, name);
}

static int dir_info(lua_State *L)
{
    TbDir *d = checkdir(L, 1);
    char err[320];
    chk_tb_info in;
    chk_tb *tb = dir_tables(d, rules_at(L, 2), err, sizeof err);
    if (!tb)
        return push_fail(L, err);
    int n = chk_tb_count(tb);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        if (chk_tb_info_get(tb, i, &in) < 0)
            return push_fail(L, chk_tb_error(tb));
        lua_createtable(L, 0, 8);
        lua_pushstring(L, in.name);
        lua_setfield(L, -2, "name");
        set_int(L, "pieces", in.pieces);
        set_int(L, "positions", (lua_Integer)in.positions);
        set_int(L, "wins", (lua_Integer)in.wins);
        set_int(L, "draws", (lua_Integer)in.draws);
        set_int(L, "losses", (lua_Integer)in.losses);
        set_int(L, "longest_win", in.longest_win);
        if (in.longest_win) {
            lua_pushstring(L, in.longest_fen);
            lua_setfield(L, -2, "longest_fen");
        }
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int dir_max_pieces(lua_State *L)
{
    TbDir *d = checkdir(L, 1);
    char err[320];
    chk_tb *tb = dir_tables(d, rules_at(L, 2), err, sizeof err);
    if (!tb)
        return push_fail(L, err);
    lua_pushinteger(L, chk_tb_max_pieces(tb));
    return 1;
}

#define WINS_KEEP_MAX 100000

/* The optional integer argument arg, def when absent; raises (code
 * "bad_argument") when it is not a whole number from lo to hi. */
static int opt_int_arg(lua_State *L, int arg, const char *what, int def, int lo, int hi)
{
    if (lua_isnoneornil(L, arg))
        return def;
    if (!lua_isinteger(L, arg) || lua_tointeger(L, arg) < lo || lua_tointeger(L, arg) > hi)
        lb_error(L, LB_E_BAD_ARGUMENT, "tables:wins: %s must be a whole number from %d to %d, not %s",
                 what, lo, hi, lb_push_value_text(L, arg));
    return (int)lua_tointeger(L, arg);
}

/* tables:wins(rules, name [, min [, unique [, keep]]]) -> list, count */
static int dir_wins(lua_State *L)
{
    TbDir *d = checkdir(L, 1);
    const char *name = luaL_checkstring(L, 3);
    chk_tb_walk_opts o = {opt_int_arg(L, 4, "min", 1, 1, CHK_TB_MAX_DIST), lua_toboolean(L, 5),
                          opt_int_arg(L, 6, "keep", 0, 0, WINS_KEEP_MAX), lb_interrupt_flag()};
    char err[320], fen[96];
    uint64_t count;
    lua_settop(L, 6);
    chk_tb *tb = dir_tables(d, rules_at(L, 2), err, sizeof err);
    if (!tb)
        return push_fail(L, err);
    int i = chk_tb_number(tb, name);
    if (i < 0)
        return push_fail(L, lua_pushfstring(L, "no table %s in %s", name, d->dir ? d->dir : "(no folder)"));
    chk_tb_win *out = lua_newuserdatauv(L, sizeof *out * (size_t)(o.keep ? o.keep : 1), 0);
    *lb_interrupt_flag() = 0;
    int n = chk_tb_wins(tb, i, &o, out, &count);
    if (n == CHK_STOPPED)
        return lb_status_error(L, n, NULL);
    if (n < 0)
        return push_fail(L, chk_tb_error(tb));
    lua_createtable(L, n, 0);
    for (int k = 0; k < n; k++) {
        if (chk_tb_index_fen(tb, i, out[k].index, fen, sizeof fen) != 1)
            return push_fail(L, chk_tb_error(tb));
        lua_createtable(L, 0, 2);
        lua_pushstring(L, fen);
        lua_setfield(L, -2, "fen");
        set_int(L, "distance", out[k].distance);
        lua_rawseti(L, -2, k + 1);
    }
    lua_pushinteger(L, (lua_Integer)count);
    return 2;
}

static int dir_dir(lua_State *L)
{
    lua_pushstring(L, checkdir(L, 1)->dir);
    return 1;
}

static int dir_reload(lua_State *L)
{
    dir_close_all(checkdir(L, 1));
    return 0;
}

static int dir_tostring(lua_State *L)
{
    const char *dir = checkdir(L, 1)->dir;
    lua_pushfstring(L, "tables (%s)", dir ? dir : "no folder");
    return 1;
}

/* ---- module functions --------------------------------------------------- */

static int tb_open(lua_State *L)
{
    const char *dir = luaL_optstring(L, 1, default_dir());
    struct stat st;
    /* a folder, or nothing yet (a build makes it); a file, a device or a
     * FIFO named as the folder is refused, as "" (no folder at all) is:
     * their tables can never be built, so the hint to build them would lie */
    if (!*dir)
        return lb_error(L, LB_E_BAD_ARGUMENT, "tb.open: the tables' folder is empty (name a folder)");
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
        return lb_error(L, LB_E_BAD_ARGUMENT, "tb.open: %s is not a folder", lb_push_value_text(L, 1));
    push_dir(L, dir);
    lua_pushvalue(L, -1);
    lua_setfield(L, lua_upvalueindex(1), "default");
    return 1;
}

static int tb_default(lua_State *L)
{
    push_default(L);
    return 1;
}

/* cheskers.tb.set_default(tables | false | nil) -> the previous setting */
static int tb_set_default(lua_State *L)
{
    if (!lua_isnil(L, 1) && !(lua_isboolean(L, 1) && !lua_toboolean(L, 1)) &&
        !luaL_testudata(L, 1, TBDIR_MT))
        return lb_error(L, LB_E_BAD_ARGUMENT, "tb.set_default: the argument must be tables "
                        "(cheskers.tb.open(dir)), false or nil, not %s", lb_push_value_text(L, 1));
    lua_settop(L, 1);
    lua_getfield(L, lua_upvalueindex(1), "default");
    lua_pushvalue(L, 1);
    lua_setfield(L, lua_upvalueindex(1), "default");
    return 1;
}

typedef struct Progress {
    lua_State *L;
    int fn;         /* stack index of the function, 0: none */
    bool failed;    /* it raised: the error is on the top */
} Progress;

static int build_progress(void *ud, const chk_tb_progress *pr)
{
    Progress *g = ud;
    lua_State *L = g->L;
    if (!g->fn)
        return 0;
    lua_pushvalue(L, g->fn);
    lua_createtable(L, 0, 6);
    lua_pushstring(L, pr->name);
    lua_setfield(L, -2, "name");
    set_int(L, "done", pr->done);
    set_int(L, "total", pr->total);
    set_int(L, "positions", (lua_Integer)pr->positions);
    lua_pushboolean(L, pr->skipped);
    lua_setfield(L, -2, "skipped");
    lua_pushnumber(L, pr->seconds);
    lua_setfield(L, -2, "seconds");
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
        g->failed = true;
        return 1;
    }
    int stop = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return stop;
}

/* [-0, +1] The value at idx as a message echoes it (the wording of
 * cheskers.schema): a text quoted and clipped, a number or boolean as
 * written, else "a TYPE". */
static const char *push_shown(lua_State *L, int idx)
{
    size_t len;
    const char *s;
    switch (lua_type(L, idx)) {
    case LUA_TSTRING:
        s = lua_tolstring(L, idx, &len);
        return lb_push_clipped(L, s, len);
    case LUA_TNUMBER:
    case LUA_TBOOLEAN:
        return luaL_tolstring(L, idx, NULL);
    default:
        return lua_pushfstring(L, "a %s", luaL_typename(L, idx));
    }
}

/* Raises the "bad_argument" error of tb.FN for field name, whose value (at
 * idx) is not what (the words of what is allowed). */
static int bad_field(lua_State *L, const char *fn, const char *name, const char *what, int idx)
{
    return lb_error(L, LB_E_BAD_ARGUMENT, "tb.%s: %s must be %s, not %s", fn, name, what,
                    push_shown(L, idx));
}

/* The integer field name of table 1, or def; raises when not an integer
 * from lo to hi (lb_opt_integer, the one reader of an option's number). */
static int opt_int_field(lua_State *L, const char *fn, const char *name, int def, int lo, int hi)
{
    const char *prefix = lua_pushfstring(L, "tb.%s: ", fn);
    int v = (int)lb_opt_integer(L, 1, name, lo, hi, def, prefix);
    lua_pop(L, 1);
    return v;
}

/* What tb.build and tb.plan share: the fields of table 1. */
typedef struct BuildArgs {
    int pieces;
    const char *dir, *only;
    const chk_rules *r;
} BuildArgs;

/* Reads pieces, dir (stack 2), only (3) and rules (4; the board: 5) of
 * table 1 for tb.FN, whose fields are fields. */
static void build_args(lua_State *L, const char *fn, const char *const *fields, BuildArgs *a)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_pushfstring(L, "tb.%s: ", fn);
    lb_check_options(L, 1, lua_tostring(L, -1), "option", fields);
    lua_pop(L, 1);
    a->pieces = opt_int_field(L, fn, "pieces", 3, 2, CHK_TB_MAX_PIECES);
    lua_getfield(L, 1, "dir");                          /* 2 */
    if (!lua_isnil(L, 2) && lua_type(L, 2) != LUA_TSTRING)
        bad_field(L, fn, "dir", "a text (a directory)", 2);
    a->dir = lua_isnil(L, 2) ? default_dir() : lua_tostring(L, 2);
    a->only = NULL;
    if (lua_getfield(L, 1, "only") != LUA_TNIL) {      /* 3: kept while building */
        if (lua_type(L, 3) != LUA_TSTRING)
            bad_field(L, fn, "only", "a signature such as 'KCvKK'", 3);
        a->only = lua_tostring(L, 3);
    }
    lua_getfield(L, 1, "rules");                        /* 4 */
    a->r = rules_at(L, 4);                              /* 5: the board */
}

/* The fields of tb.build's table. */
static const char *const build_fields[] = {"pieces", "rules", "dir", "threads", "progress", "only",
                                           "preflight", NULL};

static int tb_build(lua_State *L)
{
    char err[320];
    chk_tb_build_opts o;
    BuildArgs a;
    Progress g = {L, 0, false};
    build_args(L, "build", build_fields, &a);
    memset(&o, 0, sizeof o);
    o.pieces = a.pieces;
    o.only = a.only;
    o.threads = opt_int_field(L, "build", "threads", 0, 0, 64);
    if (lua_getfield(L, 1, "progress") != LUA_TNIL) {   /* 6 */
        if (lua_type(L, 6) != LUA_TFUNCTION)
            return bad_field(L, "build", "progress", "a function", 6);
        g.fn = 6;
    }
    if (lua_getfield(L, 1, "preflight") != LUA_TNIL) {  /* 7 */
        if (!lua_isboolean(L, 7))
            return bad_field(L, "build", "preflight", "true or false", 7);
        o.no_preflight = !lua_toboolean(L, 7);
    }
    const char *dir = a.dir;
    o.progress = build_progress;
    o.progress_ud = &g;
    o.stop = lb_interrupt_flag();    /* Ctrl-C stops within a level */
    *lb_interrupt_flag() = 0;
    int rc = chk_tb_build(dir, a.r, &o, err, sizeof err);
    if (g.failed)
        return lua_error(L);
    push_default(L);
    if (checkdir(L, -1)->dir && !strcmp(checkdir(L, -1)->dir, dir))     /* the new files are seen */
        dir_close_all(checkdir(L, -1));
    if (rc == CHK_STOPPED) {
        luaL_pushfail(L);
        lb_push_status_error(L, rc, NULL);
        return 2;
    }
    if (rc == CHK_ABORTED)
        return push_fail(L, "stopped");
    if (rc < 0)
        return push_fail(L, err);
    lua_pushboolean(L, 1);
    return 1;
}

static const char *const plan_fields[] = {"pieces", "rules", "dir", "only", NULL};

static int tb_plan(lua_State *L)
{
    char err[320];
    BuildArgs a;
    chk_tb_unit *units;
    build_args(L, "plan", plan_fields, &a);
    int n = chk_tb_plan(a.dir, a.r, a.pieces, a.only, &units, err, sizeof err);
    if (n < 0)
        return push_fail(L, err);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        const chk_tb_unit *u = &units[i];
        lua_createtable(L, 0, 9);
        lua_pushstring(L, u->name);
        lua_setfield(L, -2, "name");
        if (*u->swap) {
            lua_pushstring(L, u->swap);
            lua_setfield(L, -2, "swap");
        }
        set_int(L, "pieces", u->pieces);
        set_int(L, "level", u->level);
        set_int(L, "entries", (lua_Integer)u->entries);
        set_int(L, "disk", (lua_Integer)u->disk);
        set_int(L, "deps_disk", (lua_Integer)u->deps_disk);
        set_int(L, "memory", (lua_Integer)u->memory);
        lua_pushboolean(L, u->built);
        lua_setfield(L, -2, "built");
        lua_rawseti(L, -2, i + 1);
    }
    free(units);
    return 1;
}

static const luaL_Reg tb_funcs[] = {
    {"open", tb_open},
    {"default", tb_default},
    {"set_default", tb_set_default},
    {"build", tb_build},
    {"plan", tb_plan},
    {NULL, NULL}
};

static const luaL_Reg dir_methods[] = {
    {"probe", dir_probe},
    {"moves", dir_moves},
    {"best", dir_best},
    {"info", dir_info},
    {"max_pieces", dir_max_pieces},
    {"wins", dir_wins},
    {"dir", dir_dir},
    {"reload", dir_reload},
    {NULL, NULL}
};

static const luaL_Reg dir_metamethods[] = {
    {"__gc", dir_gc},
    {"__close", dir_gc},
    {"__tostring", dir_tostring},
    {NULL, NULL}
};

static const luaL_Reg board_methods[] = {
    {"probe", board_probe},
    {"tb_moves", board_tb_moves},
    {NULL, NULL}
};

/* With the module table on the top of the stack: adds cheskers.tb and the
 * board methods probe and tb_moves (the board metatable is found through a
 * board made by cheskers.new). Leaves the stack as it was. */

void lb_open_tb(lua_State *L)
{
    int module = lua_gettop(L);
    lua_createtable(L, 0, 2);                   /* the shared upvalue */
    int up = lua_gettop(L);
    lua_getfield(L, module, "new");
    lua_setfield(L, up, "new");
    if (luaL_newmetatable(L, TBDIR_MT)) {
        lua_pushvalue(L, up);
        luaL_setfuncs(L, dir_metamethods, 1);
        luaL_newlibtable(L, dir_methods);
        lua_pushvalue(L, up);
        luaL_setfuncs(L, dir_methods, 1);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    luaL_newlibtable(L, tb_funcs);
    lua_pushvalue(L, up);
    luaL_setfuncs(L, tb_funcs, 1);
    lua_pushinteger(L, CHK_TB_MAX_PIECES);      /* the largest tables the index supports */
    lua_setfield(L, -2, "MAX_PIECES");
    lua_setfield(L, module, "tb");
    lb_push_board_methods(L);
    lua_pushvalue(L, up);
    luaL_setfuncs(L, board_methods, 1);
    lua_settop(L, module);
}
