/*
 * lrules.c - rule sets between Lua and the core: a rules table (or preset
 * name) read into a Rules userdata ("cheskers.rules": a chk_rules and its
 * Lua hooks), interned so that boards with the same rules share one (see
 * "interning" below), a rule set written back as a table that reads back to
 * the same rules, and cheskers.rules(); rules text and name=value options
 * read by the core's grammar (cheskers.rules_text, cheskers.read_options).
 * Errors carry the codes "bad_option" (an unknown key, with "did you
 * mean"), "bad_rules" (a bad value) and "bad_position" (a bad start
 * position).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lbind.h"

/* Every key of a rules table: first the options the core reads
 * (chk_rules_set_option), NOPTIONS of them; then the ones read here. */
#define NOPTIONS 8
static const char *const option_names[] = {
    "majority", "capture", "promote", "first", "flying_kings", "pawns_capture_backward",
    "draw_repetition", "draw_quiet_plies",
    "start", "pieces", "filter", "result", NULL
};

static const char *const kind_fields[] = {"leaps", "rides", "capture", "compulsory", NULL};

/* Reads pieces.<c>.<field> (at t), an array of {a, b} vectors, into v.
 * Returns the count. */
static int read_vectors(lua_State *L, int t, char c, const char *field, int8_t v[8][2])
{
    lua_Integer i, n;
    int k;
    t = lua_absindex(L, t);
    if (lb_rawgetfield(L, t, field) == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    if (!lua_istable(L, -1))
        lb_error(L, LB_E_BAD_RULES, "pieces.%c.%s must be an array of {a, b} vectors", c, field);
    n = (lua_Integer)lua_rawlen(L, -1);
    if (n > 8)
        lb_error(L, LB_E_BAD_RULES, "pieces.%c.%s: at most 8 vectors", c, field);
    for (i = 1; i <= n; i++) {
        if (lua_rawgeti(L, -1, i) != LUA_TTABLE || lua_rawlen(L, -1) != 2)
            lb_error(L, LB_E_BAD_RULES, "pieces.%c.%s[%d] must be a vector {a, b}", c, field, (int)i);
        for (k = 0; k < 2; k++) {
            lua_Integer x;
            int isint = 0;
            if (lua_rawgeti(L, -1, k + 1) == LUA_TNUMBER)
                x = lua_tointegerx(L, -1, &isint);
            else
                x = 0;
            if (!isint)
                lb_error(L, LB_E_BAD_RULES, "pieces.%c.%s[%d] must hold two integers", c, field, (int)i);
            if (x < -7 || x > 7)
                lb_error(L, LB_E_BAD_RULES, "pieces.%c.%s[%d] is off the board", c, field, (int)i);
            v[i - 1][k] = (int8_t)x;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return (int)n;
}

/* Defines kind c from its table (at t). */
static void read_kind(lua_State *L, chk_rules *r, char c, int t)
{
    int8_t leaps[8][2], rides[8][2];
    int nleaps, nrides, style = CHK_STYLE_TAKE;
    bool compulsory;
    char err[ERR_SIZE];
    char what[32];
    t = lua_absindex(L, t);
    if (!lua_istable(L, t))
        lb_error(L, LB_E_BAD_RULES, "pieces.%c must be a table", c);
    snprintf(what, sizeof what, "pieces.%c field", c);
    lb_check_options(L, t, "", what, kind_fields);
    nleaps = read_vectors(L, t, c, "leaps", leaps);
    nrides = read_vectors(L, t, c, "rides", rides);
    switch (lb_rawgetfield(L, t, "capture")) {
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
        lb_error(L, LB_E_BAD_RULES, "pieces.%c.capture must be \"take\" or \"jump\"", c);
    }
    compulsory = style == CHK_STYLE_JUMP;
    switch (lb_rawgetfield(L, t, "compulsory")) {
    case LUA_TNIL:
        break;
    case LUA_TBOOLEAN:
        compulsory = lua_toboolean(L, -1);
        break;
    default:
        lb_error(L, LB_E_BAD_RULES, "pieces.%c.compulsory must be a boolean", c);
    }
    lua_pop(L, 2);
    if (chk_rules_set_kind(r, c, style, compulsory,
                           (const int8_t (*)[2])leaps, nleaps,
                           (const int8_t (*)[2])rides, nrides, err, sizeof err) < 0)
        lb_error(L, LB_E_BAD_RULES, "pieces.%c: %s", c, err);
}

/* Reads the pieces table (at t): kinds in letter order, so that new kinds get
 * the same indices whatever the table's traversal order. */
static void read_pieces(lua_State *L, chk_rules *r, int t)
{
    char c;
    t = lua_absindex(L, t);
    if (!lua_istable(L, t))
        lb_error(L, LB_E_BAD_RULES, "rules option 'pieces' must be a table");
    lua_pushnil(L);
    while (lua_next(L, t)) {
        size_t len = 0;
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &len) : NULL;
        if (k == NULL || len != 1 || !isupper((unsigned char)k[0]))
            lb_error(L, LB_E_BAD_RULES, "pieces: a kind is named by an upper-case letter (got %s)",
                       k ? lb_push_clipped(L, k, len) : luaL_typename(L, -2));
        lua_pop(L, 1);
    }
    for (c = 'A'; c <= 'Z'; c++) {
        char key[2] = {c, '\0'};
        if (lb_rawgetfield(L, t, key) != LUA_TNIL)
            read_kind(L, r, c, -1);
        lua_pop(L, 1);
    }
}

/* Sets option i (below NOPTIONS) from the value at v: the core checks it
 * (chk_rules_set_option), as it checks the same option written as text. */
static void read_option(lua_State *L, chk_rules *r, int i, int v)
{
    chk_option o;
    char text[64], err[ERR_SIZE];
    memset(&o, 0, sizeof o);
    o.name = option_names[i];
    o.name_len = strlen(o.name);
    o.value = text;
    switch (lua_type(L, v)) {
    case LUA_TBOOLEAN:
        o.type = CHK_VALUE_BOOL;
        o.b = lua_toboolean(L, v);
        o.value = o.b ? "true" : "false";
        break;
    case LUA_TNUMBER: {
        int isint;
        lua_Integer n = lua_tointegerx(L, v, &isint);
        if (isint) {
            o.type = CHK_VALUE_INT;
            o.i = (long long)n;
            snprintf(text, sizeof text, LUA_INTEGER_FMT, n);
        } else {
            o.type = CHK_VALUE_NUMBER;
            o.f = (double)lua_tonumber(L, v);
            snprintf(text, sizeof text, "%.14g", o.f);
        }
        break;
    }
    case LUA_TSTRING:
        o.type = CHK_VALUE_TEXT;
        o.value = lua_tolstring(L, v, &o.value_len);
        break;
    default:
        o.type = CHK_VALUE_OTHER;
        snprintf(text, sizeof text, "a %s", luaL_typename(L, v));
    }
    if (o.value == text)
        o.value_len = strlen(text);
    if (chk_rules_set_option(r, &o, err, sizeof err) < 0)
        lb_error(L, LB_E_BAD_RULES, "%s", err);   /* the core's message names the option */
}

/* Reads a rules table (at t) into r, set to the default rules (finished or
 * not): its options and piece kinds into r, its start position and hooks
 * into the table at h (the uservalue of the Rules to be), and r gets the
 * hook functions (their hook_ud is set when the Rules is made). Checks each
 * value; finish_rules checks the whole. */
static void read_rules_table(lua_State *L, chk_rules *r, int t, int h)
{
    int i;
    t = lua_absindex(L, t);
    h = lua_absindex(L, h);
    lb_check_options(L, t, "", "rules option", option_names);
    if (lb_rawgetfield(L, t, "pieces") != LUA_TNIL)
        read_pieces(L, r, -1);
    lua_pop(L, 1);
    for (i = 0; i < NOPTIONS; i++) {
        if (lb_rawgetfield(L, t, option_names[i]) != LUA_TNIL)
            read_option(L, r, i, lua_gettop(L));
        lua_pop(L, 1);
    }
    switch (lb_rawgetfield(L, t, "start")) {
    case LUA_TNIL:
        break;
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        if (len > MAX_TEXT || strlen(s) != len)
            lb_error(L, LB_E_BAD_POSITION, "rules option 'start': bad position: text too long or with a zero byte");
        lua_setfield(L, h, "start");
        lua_pushnil(L);
        break;
    }
    default:
        lb_error(L, LB_E_BAD_RULES, "rules option 'start' must be a string");
    }
    lua_pop(L, 1);
    for (i = 0; i < 2; i++) {
        const char *name = i ? "result" : "filter";
        int type = lb_rawgetfield(L, t, name);
        if (type == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        if (type != LUA_TFUNCTION)
            lb_error(L, LB_E_BAD_RULES, "rules option '%s' must be a function", name);
        lua_setfield(L, h, name);
        if (i)
            r->result = lb_result_hook;
        else
            r->filter = lb_filter_hook;
    }
}

/* Finishes r, read by read_rules_table with the table at h, and checks its
 * start position. */
static void finish_rules(lua_State *L, chk_rules *r, int h)
{
    char err[ERR_SIZE];
    if (chk_rules_finish(r, err, sizeof err) < 0)
        lb_error(L, LB_E_BAD_RULES, "bad rules: %s", err);
    if (lua_getfield(L, h, "start") == LUA_TSTRING) {
        chk_pos tmp;
        int rc;
        chk_pos_init(&tmp, r);
        rc = chk_pos_set_fen(&tmp, lua_tostring(L, -1), err, sizeof err);
        chk_pos_free(&tmp);
        if (rc < 0)
            lb_error(L, LB_E_BAD_POSITION, "rules option 'start': bad position: %s", err);
    }
    lua_pop(L, 1);
}

/* ---- interning ------------------------------------------------------------
 * The rule sets of a Lua state are interned: a table of the registry with
 * weak values maps what makes a rule set (push_key) to its Rules userdata,
 * so that every board made with the same rules uses one, and a rule set
 * goes when the last board using it does. Its [1] is the default rule set
 * (the fast path of cheskers.new(fen)). A rules table is first read into a
 * scratch chk_rules (one per Lua state; only its options and kinds, which
 * chk_rules_reset makes cheap) for its key, and again into a new Rules only
 * when no rule set has that key. Nothing writes to a Rules once it is made
 * but lb_core_begin and lb_core_end (its hook context). */

static const char intern_key = 'i', scratch_key = 's';

/* The scratch of a Lua state. uses counts the readings begun, so that a
 * reading can tell whether another one ran in between: the collector runs
 * finalizers (Lua code that may make boards) when the reading allocates. */
typedef struct Scratch {
    chk_rules r;
    unsigned uses;
} Scratch;

/* [-0, +1] The intern table, made on first use. */
static void push_intern_table(lua_State *L)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &intern_key) == LUA_TTABLE)
        return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &intern_key);
}

/* The scratch of L, made on first use. */
static Scratch *get_scratch(lua_State *L)
{
    Scratch *s;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &scratch_key) != LUA_TUSERDATA) {
        lua_pop(L, 1);
        memset(lua_newuserdatauv(L, sizeof *s, 0), 0, sizeof *s);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &scratch_key);
    }
    s = lua_touserdata(L, -1);
    lua_pop(L, 1);      /* the registry keeps it */
    return s;
}

/* [-0, +1] The intern key of a rule set: key (n bytes), the chk_rules_key
 * of its content, then which hook functions the table at h (its start
 * position and hooks) has, by identity (a rule set keeps its functions
 * alive, so no other function can have the address of one while its entry
 * is there), then its start position. */
static void push_key(lua_State *L, const unsigned char *key, size_t n, int h)
{
    static const char *const fields[] = {"filter", "result"};
    unsigned char all[CHK_RULES_KEY_SIZE + 2 * (1 + sizeof(void *)) + 1 + MAX_TEXT];
    size_t len;
    int i;
    h = lua_absindex(L, h);
    memcpy(all, key, n);
    for (i = 0; i < 2; i++) {
        if (lua_getfield(L, h, fields[i]) == LUA_TFUNCTION) {
            const void *f = lua_topointer(L, -1);
            all[n++] = (unsigned char)fields[i][0];
            memcpy(all + n, &f, sizeof f);
            n += sizeof f;
        }
        lua_pop(L, 1);
    }
    if (lua_getfield(L, h, "start") == LUA_TSTRING) {
        const char *start = lua_tolstring(L, -1, &len);    /* read_rules_table: at most MAX_TEXT */
        all[n++] = 's';
        memcpy(all + n, start, len);
        n += len;
    }
    lua_pop(L, 1);
    lua_pushlstring(L, (const char *)all, n);
}

/* [-0, +2] Reads the rules table at t (0: none, the default rules) into the
 * scratch; pushes the table of its start position and hooks and its intern
 * key. */
static void push_scratch_key(lua_State *L, int t)
{
    Scratch *s = get_scratch(L);
    unsigned char key[CHK_RULES_KEY_SIZE];
    int top = lua_gettop(L);
    unsigned use;
    size_t n;
    do {    /* again when another reading ran meanwhile (see Scratch) */
        lua_settop(L, top);
        use = ++s->uses;
        chk_rules_reset(&s->r);
        lua_newtable(L);
        if (t != 0)
            read_rules_table(L, &s->r, t, -1);
        n = chk_rules_key(&s->r, key);
    } while (use != s->uses);
    push_key(L, key, n, -1);
}

/* [-0, +2] A new Rules userdata of the rules table at t (0: none, the
 * default rules) and its intern key; its uservalue is the table at h, which
 * gets its start position and hooks. */
static Rules *push_new_rules(lua_State *L, int t, int h, State *st)
{
    unsigned char key[CHK_RULES_KEY_SIZE];
    Rules *rules;
    h = lua_absindex(L, h);
    rules = lua_newuserdatauv(L, sizeof(Rules), 1);
    memset(rules, 0, sizeof *rules);
    chk_rules_default(&rules->r);
    if (t != 0) {
        read_rules_table(L, &rules->r, t, h);
        finish_rules(L, &rules->r, h);
    }
    rules->r.hook_ud = &rules->ctx;
    rules->ctx.st = st;
    rules->id = ++st->last_rules_id;
    luaL_setmetatable(L, RULES_MT);
    lua_pushvalue(L, h);
    lua_setiuservalue(L, -2, 1);
    /* the key of what was read here: the same as the scratch's, unless a
     * finalizer changed the table in between */
    push_key(L, key, chk_rules_key(&rules->r, key), h);
    return rules;
}

Rules *lb_push_rules(lua_State *L, int arg, State *st)
{
    int type = lua_type(L, arg), intern;
    Rules *r;
    arg = lua_absindex(L, arg);
    luaL_argexpected(L, type == LUA_TNIL || type == LUA_TNONE || type == LUA_TSTRING ||
                     type == LUA_TTABLE, arg, "rules table, preset name or nil");
    if (type == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, arg, &len);
        char err[ERR_SIZE];
        Scratch *sc = get_scratch(L);
        /* the one preset, golomb, is the default rule set: the name is
         * checked (with a suggestion) on the scratch, counted as a use so
         * that a reading this interrupts starts again */
        sc->uses++;
        if (chk_rules_preset(&sc->r, s, len, err, sizeof err) < 0)
            lb_error(L, LB_E_BAD_OPTION, "%s", err);
    }
    push_intern_table(L);
    intern = lua_gettop(L);
    if (type != LUA_TTABLE) {
        if (lua_rawgeti(L, intern, 1) == LUA_TUSERDATA) {
            lua_remove(L, intern);
            return lua_touserdata(L, -1);
        }
        lua_pop(L, 1);
    }
    push_scratch_key(L, type == LUA_TTABLE ? arg : 0);  /* intern + 1: start and hooks */
    if (lua_rawget(L, intern) == LUA_TUSERDATA)
        r = lua_touserdata(L, -1);
    else {
        lua_pop(L, 1);
        r = push_new_rules(L, type == LUA_TTABLE ? arg : 0, intern + 1, st);
        lua_pushvalue(L, -2);
        lua_rawset(L, intern);
    }
    if (type != LUA_TTABLE) {
        lua_pushvalue(L, -1);
        lua_rawseti(L, intern, 1);
    }
    lua_replace(L, intern);
    lua_settop(L, intern);
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
static void set_pieces_field(lua_State *L, const Rules *rules, int t)
{
    const chk_rules *r = &rules->r;
    const chk_rules *def;
    int k, n = 0;
    lua_pushnil(L);
    def = &lb_push_rules(L, -1, rules->ctx.st)->r;
    lua_remove(L, -2);
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
void lb_push_rules_table(lua_State *L, int ridx)
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
    set_pieces_field(L, rules, t);
    lua_getiuservalue(L, ridx, 1);
    for (k = 0; hooks[k]; k++) {
        if (lua_getfield(L, -1, hooks[k]) != LUA_TNIL)
            lua_setfield(L, t, hooks[k]);
        else
            lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* cheskers.rules([spec]) */
static int l_rules(lua_State *L)
{
    lb_push_rules(L, 1, getstate(L));
    lb_push_rules_table(L, -1);
    return 1;
}

/* ---- rules text and name=value options: the core's grammar -------------- */

/* [-0, +2] nil and message: the failure of the text readers below. */
static int text_failed(lua_State *L, const char *msg)
{
    lua_pushnil(L);
    lua_pushstring(L, msg);
    return 2;
}

/* [-0, +1] The value of o as Lua reads it: a boolean, an integer, a number
 * or text; a {...} literal as its text. */
static void push_option_value(lua_State *L, const chk_option *o)
{
    switch (o->type) {
    case CHK_VALUE_BOOL:
        lua_pushboolean(L, o->b);
        break;
    case CHK_VALUE_INT:
        lua_pushinteger(L, (lua_Integer)o->i);
        break;
    case CHK_VALUE_NUMBER:
        lua_pushnumber(L, (lua_Number)o->f);
        break;
    default:
        lua_pushlstring(L, o->value, o->value_len);
    }
}

/* [-0, +0] Sets values[name] (table at top - 1) to o's value, and
 * data[name] = true (table at the top) when it is a {...} literal. */
static void set_option_value(lua_State *L, const chk_option *o)
{
    lua_pushlstring(L, o->name, o->name_len);
    push_option_value(L, o);
    lua_rawset(L, -4);
    if (o->type == CHK_VALUE_DATA) {
        lua_pushlstring(L, o->name, o->name_len);
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
    }
}

/* cheskers.read_options(text) -> values, data | nil, message: the
 * name=value items of text (bot options) as {name = value} (true/false,
 * integers, numbers, text), and data, {name = true} for the {...} values
 * (given as their text). A word without = or a name given twice is refused. */
static int l_read_options(lua_State *L)
{
    size_t len, pos = 0;
    const char *text = luaL_checklstring(L, 1, &len);
    char err[ERR_SIZE];
    chk_option o;
    int rc;
    if (strlen(text) != len)
        return text_failed(L, "options text holds a zero byte");
    lua_newtable(L);
    lua_newtable(L);
    while ((rc = chk_option_next(text, &pos, "option", &o, err, sizeof err)) > 0) {
        if (o.type == CHK_VALUE_NONE) {
            lb_push_clipped(L, o.name, o.name_len);
            return text_failed(L, lua_pushfstring(L, "option %s is not written name=value",
                                                  lua_tostring(L, -1)));
        }
        lua_pushlstring(L, o.name, o.name_len);
        if (lua_rawget(L, -3) != LUA_TNIL) {
            lb_push_clipped(L, o.name, o.name_len);
            return text_failed(L, lua_pushfstring(L, "option %s given twice", lua_tostring(L, -1)));
        }
        lua_pop(L, 1);
        set_option_value(L, &o);
    }
    return rc < 0 ? text_failed(L, err) : 2;
}

/* cheskers.rules_text(text) -> preset | values, data | nil, message: rules
 * text read by the core (chk_rules_next): a preset name alone, or the
 * options written, {name = value} (values typed as read_options does; the
 * core checks them when the table makes rules), and data, {pieces = true}
 * when pieces is given (as its {...} text, for cheskers.sandbox.load_data). */
static int l_rules_text(lua_State *L)
{
    size_t len, pos = 0;
    const char *text = luaL_checklstring(L, 1, &len);
    char err[ERR_SIZE];
    unsigned seen = 0;
    chk_option o;
    int rc;
    if (strlen(text) != len)
        return text_failed(L, "rule text holds a zero byte");
    lua_newtable(L);
    lua_newtable(L);
    while ((rc = chk_rules_next(text, &pos, &seen, &o, err, sizeof err)) > 0) {
        if (rc == 2) {
            lua_pushlstring(L, o.name, o.name_len);
            return 1;
        }
        set_option_value(L, &o);
    }
    if (rc < 0)
        return text_failed(L, err);
    return seen ? 2 : text_failed(L, "empty rule text");
}

static const luaL_Reg rules_funcs[] = {
    {"rules", l_rules},
    {"rules_text", l_rules_text},
    {"read_options", l_read_options},
    {NULL, NULL}
};

void lb_open_rules(lua_State *L)
{
    lb_setfuncs(L, rules_funcs);
}
