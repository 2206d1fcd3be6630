/*
 * lmove.c - move objects (userdata "cheskers.move", docs/reference/lua_api.md): their
 * fields, text and equality; reading a move argument (a move object or a
 * move text) as a legal move of a position; the order of b:moves() (by
 * text) and the move key. Fields a search loop reads (from, to, key, index,
 * piece, ncaptures, is_capture, is_promotion) allocate nothing; captures and
 * path are built on first use and kept (weak tables of the registry).
 */
#include <stdlib.h>
#include <string.h>

#include "lbind.h"

static Move *tomove(lua_State *L)
{
    Move *m = lb_testmove(L, 1, true);
    if (m == NULL)
        luaL_typeerror(L, 1, MOVE_MT);
    return m;
}

/* [-0, +1] Pushes the list of squares t (n of them) of the move object at
 * 1: its path or its captures, built once and kept in the weak-keyed table
 * of the registry named cache (made on first use); a move object has no
 * uservalues, so b:moves() makes them as cheaply as it can. */
static void push_square_list(lua_State *L, const uint8_t *t, int n, const char *cache)
{
    int i;
    if (lua_getfield(L, LUA_REGISTRYINDEX, cache) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 0);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, cache);
    }
    lua_pushvalue(L, 1);
    if (lua_rawget(L, -2) == LUA_TTABLE) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 1);
    lua_createtable(L, n, 0);
    for (i = 0; i < n; i++) {
        lb_push_square(L, t[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
    lua_remove(L, -2);
}

static void push_captures(lua_State *L, const chk_move *m)
{
    uint8_t sqs[CHK_SQUARES];
    int sq, n = 0;
    for (sq = 0; sq < CHK_SQUARES; sq++)
        if (m->captures >> sq & 1)
            sqs[n++] = (uint8_t)sq;
    push_square_list(L, sqs, n, MOVE_MT ".captures");
}

static int popcount32(uint32_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* The move's key (lb_move_key): from, to, captured squares and promotion,
 * the fields chk_move_equal compares. */
lua_Integer lb_move_key(const chk_move *m)
{
    uint64_t promo = m->promo == CHK_NONE ? 0 : (uint64_t)m->promo + 1;
    return (lua_Integer)((uint64_t)m->captures | (uint64_t)m->from << 32 |
                         (uint64_t)m->to << 37 | promo << 42);
}

/* Field names are told apart by their length and first letter before one
 * memcmp: a search loop reads these fields millions of times. */
#define IS(key, len, lit) ((len) == sizeof(lit) - 1 && memcmp((key), (lit), (len)) == 0)

static int move_index(lua_State *L)
{
    Move *mv = tomove(L);
    const chk_move *m = &mv->m;
    const char *key;
    size_t len;
    if (lua_type(L, 2) != LUA_TSTRING)
        return 0;
    key = lua_tolstring(L, 2, &len);
    if (IS(key, len, "from"))
        lb_push_square(L, m->from);
    else if (IS(key, len, "to"))
        lb_push_square(L, m->to);
    else if (IS(key, len, "key"))
        lua_pushinteger(L, lb_move_key(m));
    else if (IS(key, len, "index")) {
        if (mv->index)
            lua_pushinteger(L, mv->index);
        else
            lua_pushnil(L);
    } else if (IS(key, len, "piece"))
        lua_pushlstring(L, &mv->piece, 1);
    else if (IS(key, len, "ncaptures"))
        lua_pushinteger(L, popcount32(m->captures));
    else if (IS(key, len, "is_capture"))
        lua_pushboolean(L, m->captures != 0);
    else if (IS(key, len, "is_promotion"))
        lua_pushboolean(L, m->promo != CHK_NONE);
    else if (IS(key, len, "captures"))
        push_captures(L, m);
    else if (IS(key, len, "path"))
        push_square_list(L, m->path, m->npath < CHK_MAX_PATH ? m->npath : CHK_MAX_PATH,
                         MOVE_MT ".path");
    else if (IS(key, len, "promotion")) {
        if (mv->promo)
            lua_pushlstring(L, &mv->promo, 1);
        else
            lua_pushnil(L);
    } else if (IS(key, len, "jump"))
        lua_pushboolean(L, (m->flags & CHK_MF_JUMP) != 0);
    else if (IS(key, len, "take"))
        lua_pushboolean(L, (m->flags & CHK_MF_TAKE) != 0);
    else
        lua_pushnil(L);
    return 1;
}

static int move_tostring(lua_State *L)
{
    char text[MOVE_TEXT_SIZE];
    lua_pushstring(L, lb_move_text(tomove(L), text));
    return 1;
}

static int move_eq(lua_State *L)
{
    Move *a = lb_testmove(L, 1, true), *b = lb_testmove(L, 2, true);
    lua_pushboolean(L, a != NULL && b != NULL && chk_move_equal(&a->m, &b->m));
    return 1;
}

#define SMALL_LIST 48   /* texts of this many moves fit on the C stack */

/* The letters of square sq's name (chk_sq_name), without a call. */
#define SQ_FILE_CHAR(sq) ((char)('a' + 2 * ((sq) & 3) + (((sq) >> 2) & 1)))
#define SQ_RANK_CHAR(sq) ((char)('1' + ((sq) >> 2)))

/* Writes the text of m, a move under the rules r, into out (MOVE_TEXT_SIZE
 * bytes) as chk_move_text does, zero-padded to at least 8 bytes; returns its
 * length. b:moves() sorts by these texts (docs/reference/lua_api.md: the texts
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
        out[len++] = lb_kind_letter(r, m->promo);
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

/* Whether x goes after y: most keys differ (the keys of the short texts
 * carry their list index in their zero bytes), so the full comparison runs
 * only for long texts that share their first 8 bytes. */
static inline bool after(const Listed *x, const Listed *y)
{
    if (x->key != y->key)
        return x->key > y->key;
    return cmp_listed(x, y) > 0;
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
        for (j = i; j > 0 && after(&v[j - 1], &x); j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* Reads the move text at arg for parse and play: NULL (with a message pushed)
 * when it cannot name a move. */
const char *lb_move_text_arg(lua_State *L, int arg)
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

/* Reads the move at arg, a move object or a move text, as a legal move of p
 * into *out; raises for an illegal or ambiguous move. b (at stack index
 * bidx) is the board of p, or NULL (then hooks cannot run). Returns true
 * when arg is a move object listed as legal in this very position of b.
 * up: the metatables are upvalues. */
bool lb_check_move(lua_State *L, int arg, chk_pos *p, Board *b, int bidx, chk_move *out, bool up)
{
    Move *given = lb_testmove(L, arg, up);
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
            lb_core_begin(L, bidx, b, &cc);
        n = chk_gen_moves(p, list);
        failed = b ? lb_core_end(b, &cc) : HOOK_OK;
        if (failed || n < 0)
            lb_hook_error(L, &cc, failed);
        for (i = 0; i < n && !chk_move_equal(&list[i], &given->m); i++)
            ;
        if (i == n)
            lb_error(L, LB_E_ILLEGAL_MOVE, "illegal move %s: %s", lb_move_text(given, err),
                       n == 0 ? "the game is over" : "not a legal move in this position");
        *out = list[i];
    } else {
        size_t len;
        const char *s = lua_tolstring(L, arg, &len);
        const char *text = lb_move_text_arg(L, arg);
        int rc;
        if (text == NULL) {
            /* the reason is on the top; read it before pushing anything */
            const char *why = lua_tostring(L, -1);
            lb_error(L, LB_E_ILLEGAL_MOVE, "illegal move %s: %s", lb_push_clipped(L, s, len), why);
        }
        if (b)
            lb_core_begin(L, bidx, b, &cc);
        rc = chk_parse_move(p, text, out, err, sizeof err);
        failed = b ? lb_core_end(b, &cc) : HOOK_OK;
        if (failed || rc == CHK_HOOK_ERROR)
            lb_hook_error(L, &cc, failed);
        if (rc < 0) {
            err[sizeof err - 1] = '\0';
            if (rc == CHK_PARSE_ILLEGAL)    /* the message names the move already */
                lb_error(L, LB_E_ILLEGAL_MOVE, "%s", err);
            lb_error(L, LB_E_ILLEGAL_MOVE, "illegal move %s: %s", lb_push_clipped(L, s, len), err);
        }
    }
    return false;
}

void lb_check_move_of(lua_State *L, int arg, chk_pos *p, chk_move *out)
{
    /* the board of p, when it is on the stack (hooks need it) */
    int i, top = lua_gettop(L);
    for (i = 1; i <= top; i++) {
        Board *b = lb_testboard(L, i, false);
        if (b != NULL && !b->closed && &b->pos == p) {
            if (b->busy)
                lb_error(L, LB_E_BUSY, "board is busy");
            lb_check_move(L, arg, p, b, i, out, false);
            return;
        }
    }
    lb_check_move(L, arg, p, NULL, 0, out, false);
}


/* The place of square sq's name among the names ("a1" < "a3" < ... < "h8"):
 * file, then rank. */
#define SQ_TEXT_ORDER(sq) ((uint32_t)(SQ_FILE_CHAR(sq) - 'a') << 3 | (uint32_t)(SQ_RANK_CHAR(sq) - '1'))

/* Sorts a list of steps, leaps and takes without promotion ("c3-d4",
 * "e1xd4": the text is from, separator, to) by text: a 23-bit key each
 * (from's place, the separator, to's place, then the list index), sorted
 * as integers. False (order unchanged) when the list has another move. */
static bool sort_short(const chk_move *list, int n, int *order)
{
    uint32_t k[CHK_MAX_MOVES];
    int i, j;
    if (n > CHK_MAX_MOVES)
        return false;
    for (i = 0; i < n; i++) {
        const chk_move *m = &list[i];
        if (m->npath != 1 || m->promo != CHK_NONE)
            return false;
        k[i] = SQ_TEXT_ORDER(m->from) << 17 | (uint32_t)(m->captures != 0) << 16 |
               SQ_TEXT_ORDER(m->path[0]) << 10 | (uint32_t)i;
    }
    for (i = 1; i < n; i++) {
        uint32_t x = k[i];
        for (j = i; j > 0 && k[j - 1] > x; j--)
            k[j] = k[j - 1];
        k[j] = x;
    }
    for (i = 0; i < n; i++)
        order[i] = (int)(k[i] & 1023);
    return true;
}

void lb_sort_moves(lua_State *L, const chk_rules *r, const chk_move *list, int n, int *order)
{
    Listed v[CHK_MAX_MOVES];
    char small[SMALL_LIST][MOVE_TEXT_SIZE];
    char (*texts)[MOVE_TEXT_SIZE] = small;
    int i;
    if (n <= 64 && sort_short(list, n, order))   /* insertion sort: short lists */
        return;
    if (n > SMALL_LIST)
        texts = lua_newuserdatauv(L, (size_t)n * MOVE_TEXT_SIZE, 0);
    for (i = 0; i < n; i++) {
        v[i].key = text_key(r, &list[i], texts[i], &v[i].text);
        if (v[i].text == NULL)      /* bytes 5..7 are zero: i fits (< 2^10) */
            v[i].key |= (uint64_t)i;
        v[i].i = i;
    }
    sort_listed(v, n);
    for (i = 0; i < n; i++)
        order[i] = v[i].i;
    if (n > SMALL_LIST)
        lua_pop(L, 1);
}

int lb_move_place(lua_State *L, const chk_rules *r, const chk_move *list, int n, const chk_move *m)
{
    int order[CHK_MAX_MOVES], i;
    lb_sort_moves(L, r, list, n, order);
    for (i = 0; i < n; i++)
        if (chk_move_equal(&list[order[i]], m))
            return i + 1;
    return 0;
}

/* [-0, +1..3] Pushes what the string at arg is as move text under the
 * rules r (chk_read_move_text): "move" or "square" and its written form,
 * "bad", why and the fault's name, or nil (no move text). Returns the
 * number of values. */
static int push_move_shape(lua_State *L, const chk_rules *r, int arg)
{
    static const char *const kinds[] = { "move", "square", "bad" };
    static const char *const faults[] = { "none", "piece", "square", "light", "promotion",
                                          "spelling", "end", "after", "length" };
    size_t len;
    const char *text = luaL_checklstring(L, arg, &len);
    char err[ERR_SIZE], out[MOVE_TEXT_SIZE];
    chk_shape s;
    int shape;
    if (strlen(text) != len) {  /* a zero byte: no move text */
        lua_pushnil(L);
        return 1;
    }
    shape = chk_read_move_text(r, text, &s, err, sizeof err);
    if (shape == CHK_SHAPE_NONE) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushstring(L, kinds[shape]);
    if (shape == CHK_SHAPE_BAD) {
        err[sizeof err - 1] = '\0';
        lua_pushstring(L, err);
        lua_pushstring(L, faults[s.fault < sizeof faults / sizeof *faults ? s.fault : 0]);
        return 3;
    } else {
        chk_shape_text(r, &s, out, sizeof out);
        lua_pushstring(L, out);
    }
    return 2;
}

/* b:move_shape(word) -> "move"|"square", text | "bad", message, fault | nil:
 * the shape of word under b's rules, no position read. */
static int board_move_shape(lua_State *L)
{
    return push_move_shape(L, lb_check_board(L, 1, false, true)->pos.rules, 2);
}

/* cheskers.move_shape(word [, rules]): the same under rules (a table, a
 * preset name, or nil for the default rules). */
static int l_move_shape(lua_State *L)
{
    Rules *r;
    luaL_checkstring(L, 1);
    r = lb_push_rules(L, 2, lb_state(L));
    return push_move_shape(L, &r->r, 1);
}

static const luaL_Reg move_shape_methods[] = {
    {"move_shape", board_move_shape},
    {NULL, NULL}
};

static const luaL_Reg move_funcs[] = {
    {"move_shape", l_move_shape},
    {NULL, NULL}
};

static const luaL_Reg move_metamethods[] = {
    {"__index", move_index},
    {"__tostring", move_tostring},
    {"__eq", move_eq},
    {NULL, NULL}
};

/* With the module on top: fills the move metatable, adds
 * cheskers.move_shape and b:move_shape. */
void lb_open_move(lua_State *L)
{
    lb_setfuncs(L, move_funcs);
    luaL_getmetatable(L, MOVE_MT);
    lb_setfuncs(L, move_metamethods);
    lua_pop(L, 1);
    lb_push_board_methods(L);
    lb_setfuncs(L, move_shape_methods);
    lua_pop(L, 1);
}
