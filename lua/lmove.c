/*
 * lmove.c - move objects (userdata "cheskers.move", docs/lua_api.md): their
 * fields, text and equality; reading a move argument (a move object or a
 * move text) as a legal move of a position; the order of b:moves() (by
 * text).
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

static int move_index(lua_State *L)
{
    Move *mv = tomove(L);
    const chk_move *m = &mv->m;
    const char *key;
    if (lua_type(L, 2) != LUA_TSTRING)
        return 0;
    key = lua_tostring(L, 2);
    if (strcmp(key, "from") == 0)
        lb_push_square(L, m->from);
    else if (strcmp(key, "to") == 0)
        lb_push_square(L, m->to);
    else if (strcmp(key, "path") == 0) {
        int i, n = m->npath < CHK_MAX_PATH ? m->npath : CHK_MAX_PATH;
        lua_createtable(L, n, 0);
        for (i = 0; i < n; i++) {
            lb_push_square(L, m->path[i]);
            lua_rawseti(L, -2, i + 1);
        }
    } else if (strcmp(key, "captures") == 0) {
        int sq, n = 0;
        lua_newtable(L);
        for (sq = 0; sq < CHK_SQUARES; sq++)
            if (m->captures >> sq & 1) {
                lb_push_square(L, sq);
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
            lcheskers_error(L, "illegal_move", "illegal move %s: %s", lb_move_text(given, err),
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
            lcheskers_error(L, "illegal_move", "illegal move %s: %s", lb_push_clipped(L, s, len), why);
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
                lcheskers_error(L, "illegal_move", "%s", err);
            lcheskers_error(L, "illegal_move", "illegal move %s: %s", lb_push_clipped(L, s, len), err);
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
                lcheskers_error(L, "busy", "board is busy");
            lb_check_move(L, arg, p, b, i, out, false);
            return;
        }
    }
    lb_check_move(L, arg, p, NULL, 0, out, false);
}


void lb_sort_moves(lua_State *L, const chk_rules *r, const chk_move *list, int n, int *order)
{
    Listed v[CHK_MAX_MOVES];
    char small[SMALL_LIST][MOVE_TEXT_SIZE];
    char (*texts)[MOVE_TEXT_SIZE] = small;
    int i;
    if (n > SMALL_LIST)
        texts = lua_newuserdatauv(L, (size_t)n * MOVE_TEXT_SIZE, 0);
    for (i = 0; i < n; i++) {
        v[i].key = text_key(r, &list[i], texts[i], &v[i].text);
        v[i].i = i;
    }
    sort_listed(v, n);
    for (i = 0; i < n; i++)
        order[i] = v[i].i;
    if (n > SMALL_LIST)
        lua_pop(L, 1);
}

static const luaL_Reg move_metamethods[] = {
    {"__index", move_index},
    {"__tostring", move_tostring},
    {"__eq", move_eq},
    {NULL, NULL}
};

/* Fills the move metatable. */
void lb_open_move(lua_State *L)
{
    luaL_getmetatable(L, MOVE_MT);
    lb_setfuncs(L, move_metamethods);
    lua_pop(L, 1);
}
