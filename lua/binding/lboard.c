/*
 * lboard.c - boards (userdata "cheskers.board", docs/reference/lua_api.md):
 * cheskers.new and the board methods that read the position, list, count,
 * parse, play and take back moves, edit squares and tell the result; the
 * whole position at once (pieces, material, squares, piece_map, bitboards),
 * mirror and equality; b:svg (drawn by the Lua module cheskers.svg). The
 * move objects played are kept (lbind.h: Board) so that b:undo() and
 * b:history() return the very objects b:play() was given.
 *
 * b:play(), b:undo(), b:count() and b:moves() are called millions of times
 * by a perft written in Lua (bench/lua_perft.lua): they use the upvalues
 * (State, board and move metatables; lb_setfuncs) and compare metatable
 * addresses instead of looking types up in the registry, so their paths
 * make as few Lua API calls as they can.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lbind.h"

static Board *toboard(lua_State *L)
{
    Board *b = lb_testboard(L, 1, true);
    if (b == NULL)
        luaL_typeerror(L, 1, BOARD_MT);
    return b;
}

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
            return lb_error(L, LB_E_BAD_POSITION, "bad position: text too long (%d characters at most)", MAX_TEXT);
        if (strlen(fen) != len)
            return lb_error(L, LB_E_BAD_POSITION, "bad position: text with a zero byte");
    }
    r = lb_push_rules(L, 2, st);
    ridx = lua_gettop(L);
    b = lb_new_board(L, ridx, 0, true, PLY_SLOTS);
    lb_init_pos(b, &r->r, false);
    b->closed = false;
    if (fen == NULL) {
        lua_getiuservalue(L, ridx, 1);
        if (lua_getfield(L, -1, "start") == LUA_TSTRING)
            fen = lua_tostring(L, -1);  /* anchored in the Rules */
        lua_pop(L, 2);
    }
    if (fen == NULL)
        lb_init_pos(b, &r->r, true);
    else if (chk_pos_set_fen(&b->pos, fen, err, sizeof err) < 0)
        return lb_error(L, LB_E_BAD_POSITION, "bad position: %s", err);
    return 1;
}

static int board_fen(lua_State *L)
{
    Board *b = lb_checkboard(L);
    char buf[FEN_SIZE];
    chk_pos_fen(&b->pos, buf, sizeof buf);
    buf[sizeof buf - 1] = '\0';
    lua_pushstring(L, buf);
    return 1;
}

static int board_turn(lua_State *L)
{
    Board *b = lb_checkboard(L);
    lua_pushstring(L, b->pos.side == CHK_WHITE ? "white" : "black");
    return 1;
}

static int board_moveno(lua_State *L)
{
    lua_pushinteger(L, lb_checkboard(L)->pos.moveno);
    return 1;
}

static int board_quiet(lua_State *L)
{
    lua_pushinteger(L, lb_checkboard(L)->pos.quiet);
    return 1;
}

static int board_hash(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)lb_checkboard(L)->pos.hash);
    return 1;
}

static int board_get(lua_State *L)
{
    Board *b = lb_checkboard(L);
    int sq = lb_check_square(L, 2);
    char c = lb_piece_letter(b->pos.rules, b->pos.sq[sq]);
    if (c)
        lua_pushlstring(L, &c, 1);
    else
        lua_pushnil(L);
    return 1;
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
    int slot = lb_ply_slot(b, i), type;
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
    return lb_push_move(L, &b->pos, m, 0, true);
}

static int board_history(lua_State *L)
{
    Board *b = lb_checkboard(L);
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
    lb_checkboard(L);
    lua_getiuservalue(L, 1, 1);
    lb_push_rules_table(L, -1);
    return 1;
}

/* b:rules_id() -> an integer naming the board's rule set: boards made with
 * the same rules (and their copies) share one and have the same id. */
static int board_rules_id(lua_State *L)
{
    lua_pushinteger(L, rules_of(lb_checkboard(L))->id);
    return 1;
}

static int board_copy(lua_State *L)
{
    Board *b = lb_checkboard(L);
    lua_getiuservalue(L, 1, 1);
    lb_push_board_copy(L, &b->pos, -1, true);
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
                c = sq < 0 ? '?' : lb_piece_letter(b->pos.rules, b->pos.sq[sq]);
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
        return lb_error(L, LB_E_BUSY, "board is busy");
    lb_free_board(b);
    return 0;
}

static int board_moves(lua_State *L)
{
    State *st = getstate(L);
    Board *b = lb_checkidle_st(L, st);
    chk_move list[CHK_MAX_MOVES];
    int order[CHK_MAX_MOVES];
    CoreCall cc;
    int n, failed;
    uint64_t stamp;
    if (b->pos.rules->filter == NULL && b->pos.rules->result == NULL)
        n = chk_gen_moves(&b->pos, list);   /* no hooks: nothing to bracket */
    else {
        lb_core_begin(L, 1, b, &cc);
        n = chk_gen_moves(&b->pos, list);
        failed = lb_core_end(b, &cc);
        if (failed || n < 0)
            return lb_hook_error(L, &cc, failed);
    }
    if (n > CHK_MAX_MOVES)
        n = CHK_MAX_MOVES;
    lb_sort_moves(L, b->pos.rules, list, n, order);
    stamp = lb_board_stamp(b, st);
    lua_pushvalue(L, UV_MOVE_MT);
    lb_push_move_list(L, -1, &b->pos, list, order, NULL, n, stamp);
    return 1;
}

static int board_count(lua_State *L)
{
    Board *b = lb_checkidle_st(L, getstate(L));
    const chk_rules *r = b->pos.rules;
    CoreCall cc;
    int n, failed;
    if (r->filter == NULL && r->result == NULL) {   /* no hooks: lb_core_begin would do nothing */
        lua_pushinteger(L, chk_count_moves(&b->pos));
        return 1;
    }
    lb_core_begin(L, 1, b, &cc);
    n = chk_count_moves(&b->pos);
    failed = lb_core_end(b, &cc);
    if (failed || n < 0)
        return lb_hook_error(L, &cc, failed);
    lua_pushinteger(L, n);
    return 1;
}

/* Sets mv->index, the place of mv (a legal move of b) in b:moves() order. */
static void set_index(lua_State *L, Board *b, Move *mv)
{
    chk_move list[CHK_MAX_MOVES];
    CoreCall cc;
    int n, failed;
    lb_core_begin(L, 1, b, &cc);
    n = chk_gen_moves(&b->pos, list);
    failed = lb_core_end(b, &cc);
    if (failed || n < 0)
        lb_hook_error(L, &cc, failed);
    mv->index = (uint16_t)lb_move_place(L, b->pos.rules, list, n, &mv->m);
}

/* b:parse(text) -> move | nil, message */
static int board_parse(lua_State *L)
{
    Board *b = lb_checkidle(L);
    const char *text;
    char err[ERR_SIZE];
    chk_move m;
    CoreCall cc;
    Move *mv;
    int rc, failed;
    luaL_checktype(L, 2, LUA_TSTRING);
    lua_settop(L, 2);
    text = lb_move_text_arg(L, 2);
    if (text == NULL) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    mv = lb_new_move(L, true);     /* before the core call: this may raise */
    memset(mv, 0, sizeof *mv);
    lb_core_begin(L, 1, b, &cc);
    rc = chk_parse_move(&b->pos, text, &m, err, sizeof err);
    failed = lb_core_end(b, &cc);
    if (failed)
        return lb_hook_error(L, &cc, failed);
    if (rc < 0) {
        err[sizeof err - 1] = '\0';
        lua_pushnil(L);
        lua_pushstring(L, err);
        return 2;
    }
    lb_set_move(mv, &b->pos, &m, lb_board_stamp(b, getstate(L)));
    set_index(L, b, mv);
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
    int slot = lb_ply_slot(b, n);
    if (!lb_reserve_plies(b, n + 2))
        lb_error(L, LB_E_NO_MEMORY, "not enough memory");
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
        lb_error(L, LB_E_NO_MEMORY, "not enough memory");
    if (slot)
        b->slot_ply[slot - 3] = n;
    b->plies[n].played = mv;
    b->plies[n + 1].stamp = 0;
    lb_settle_gc(L, b->pos.alloc->ud);     /* the history may have grown */
}

/* b:play(move or text) -> the move played */
static int board_play(lua_State *L)
{
    State *st = getstate(L);
    Board *b = lb_checkidle_st(L, st);
    /* without a second argument, 2 is now the board's metatable: no move */
    Move *given = lb_test_type(L, 2, st->move_mt);
    chk_move m;
    int mvidx;
    if (given != NULL && given->stamp != 0 && given->stamp == b->plies[b->pos.nhist].stamp) {
        /* listed as legal in this very position (lb_check_move's first case) */
        play_legal(L, b, &given->m, given, 2);
        lua_pushvalue(L, 2);
        return 1;
    }
    lua_pop(L, given != NULL ? 2 : 1);  /* the metatables lb_test_type left */
    if (lb_check_move(L, 2, &b->pos, b, 1, &m, true)) {
        play_legal(L, b, &m, lua_touserdata(L, 2), 2);
        lua_pushvalue(L, 2);    /* the move object given */
        return 1;
    }
    given = lb_push_move(L, &b->pos, &m, 0, true);
    mvidx = lua_gettop(L);
    play_legal(L, b, &m, given, mvidx);
    lua_pushvalue(L, mvidx);
    return 1;
}

/* b:undo() -> the move taken back, or nil */
static int board_undo(lua_State *L)
{
    State *st = getstate(L);
    Board *b = lb_checkidle_st(L, st);
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
    mv->stamp = lb_board_stamp(b, st);
    return 1;
}

/* b:put(square, letter or nil) */
static int board_put(lua_State *L)
{
    Board *b = lb_checkidle(L);
    int sq = lb_check_square(L, 2), i;
    uint8_t pc = CHK_NONE;
    if (!lua_isnoneornil(L, 3)) {
        size_t len;
        const char *s;
        int kind, color;
        luaL_argexpected(L, lua_type(L, 3) == LUA_TSTRING, 3, "piece letter or nil");
        s = lua_tolstring(L, 3, &len);
        kind = (len == 1 && isalpha((unsigned char)s[0])) ? chk_rules_kind(b->pos.rules, s[0]) : -1;
        if (kind < 0)
            return luaL_argerror(L, 3, lua_pushfstring(L, "unknown piece %s", lb_push_clipped(L, s, len)));
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
    lb_clear_slots(b);
    return 0;
}

static int board_result(lua_State *L)
{
    Board *b = lb_checkidle(L);
    CoreCall cc;
    int winner, failed, reason = CHK_REASON_NONE;
    const char *name;
    lb_core_begin(L, 1, b, &cc);
    winner = chk_result(&b->pos, &reason);
    failed = lb_core_end(b, &cc);
    if (failed || reason == CHK_REASON_ERROR)
        return lb_hook_error(L, &cc, failed);
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


/* ---- the position at once: for evaluations written in Lua ---------------- */

/* A colour argument ("white" or "black"). */
static int check_color(lua_State *L, int arg)
{
    static const char *const colors[] = { "white", "black", NULL };
    return luaL_checkoption(L, arg, NULL, colors);
}

/* An optional kind letter argument (either case) of b's rules: its kind,
 * or -1 when none is given. */
static int opt_kind(lua_State *L, int arg, const chk_rules *r)
{
    size_t len;
    const char *s;
    int kind;
    if (lua_isnoneornil(L, arg))
        return -1;
    s = luaL_checklstring(L, arg, &len);
    kind = len == 1 ? chk_rules_kind(r, s[0]) : -1;
    if (kind < 0)
        luaL_argerror(L, arg, lua_pushfstring(L, "unknown piece kind %s", lb_push_clipped(L, s, len)));
    return kind;
}

/* [-0, +1] The squares of bitboard bb as a list, in index order. */
static void push_squares_of(lua_State *L, chk_bb bb)
{
    int n = 0, sq;
    lua_createtable(L, 12, 0);
    for (sq = 0; sq < CHK_SQUARES; sq++)
        if (bb >> sq & 1) {
            lb_push_square(L, sq);
            lua_rawseti(L, -2, ++n);
        }
}

/* b:pieces(color [, kind]) -> {square...} */
static int board_pieces(lua_State *L)
{
    Board *b = lb_checkboard(L);
    int c = check_color(L, 2), kind = opt_kind(L, 3, b->pos.rules);
    push_squares_of(L, kind < 0 ? b->pos.occ[c] : b->pos.bb[c][kind]);
    return 1;
}

/* [-0, +1] {letter = f(bitboard)} for each kind of colour c, the letters
 * in the case of c; count: the number of pieces, else the bitboard. */
static void push_kinds(lua_State *L, const chk_pos *p, int c, bool count)
{
    const chk_rules *r = p->rules;
    int k;
    lua_createtable(L, 0, r->nkinds + 1);
    for (k = 0; k < r->nkinds; k++) {
        char letter = lb_piece_letter(r, CHK_PIECE(c, k));
        chk_bb bb = p->bb[c][k];
        int n = 0;
        for (; count && bb; bb &= bb - 1)
            n++;
        lua_pushlstring(L, &letter, 1);
        lua_pushinteger(L, count ? n : (lua_Integer)p->bb[c][k]);
        lua_rawset(L, -3);
    }
}

/* b:material() -> {white = {P = n, ...}, black = {p = n, ...}} */
static int board_material(lua_State *L)
{
    Board *b = lb_checkboard(L);
    lua_createtable(L, 0, 2);
    push_kinds(L, &b->pos, CHK_WHITE, true);
    lua_setfield(L, -2, "white");
    push_kinds(L, &b->pos, CHK_BLACK, true);
    lua_setfield(L, -2, "black");
    return 1;
}

/* b:bitboards() -> {white = {P = bb, ..., all = bb}, black = {...}} */
static int board_bitboards(lua_State *L)
{
    Board *b = lb_checkboard(L);
    int c;
    lua_createtable(L, 0, 2);
    for (c = CHK_WHITE; c <= CHK_BLACK; c++) {
        push_kinds(L, &b->pos, c, false);
        lua_pushinteger(L, (lua_Integer)b->pos.occ[c]);
        lua_setfield(L, -2, "all");
        lua_setfield(L, -2, c == CHK_WHITE ? "white" : "black");
    }
    return 1;
}

/* b:squares() -> the 32 squares in index order, one letter each, '.' empty */
static int board_squares(lua_State *L)
{
    Board *b = lb_checkboard(L);
    char t[CHK_SQUARES];
    int sq;
    for (sq = 0; sq < CHK_SQUARES; sq++) {
        char c = lb_piece_letter(b->pos.rules, b->pos.sq[sq]);
        t[sq] = c ? c : '.';
    }
    lua_pushlstring(L, t, sizeof t);
    return 1;
}

/* b:piece_map() -> {square = letter} */
static int board_piece_map(lua_State *L)
{
    Board *b = lb_checkboard(L);
    int sq;
    lua_createtable(L, 0, 24);
    for (sq = 0; sq < CHK_SQUARES; sq++) {
        char c = lb_piece_letter(b->pos.rules, b->pos.sq[sq]);
        if (c) {
            lb_push_square(L, sq);
            lua_pushlstring(L, &c, 1);
            lua_rawset(L, -3);
        }
    }
    return 1;
}

/* b:is_capture(move or text) -> boolean; raises for an illegal move */
static int board_is_capture(lua_State *L)
{
    Board *b = lb_checkidle(L);
    chk_move m;
    lua_settop(L, 2);
    lb_check_move(L, 2, &b->pos, b, 1, &m, true);
    lua_pushboolean(L, m.captures != 0);
    return 1;
}

/* b:mirror() -> a new board: the position turned half a turn with the
 * colours swapped (square i holds the other colour's piece of square
 * 31 - i), the other side to move; no history. */
static int board_mirror(lua_State *L)
{
    Board *b = lb_checkboard(L), *m;
    const chk_pos *p;
    int sq;
    lua_settop(L, 1);
    lua_getiuservalue(L, 1, 1);
    m = lb_new_board(L, 2, 0, true, PLY_SLOTS);
    p = &b->pos;
    lb_init_pos(m, p->rules, false);
    m->closed = false;
    for (sq = 0; sq < CHK_SQUARES; sq++) {
        uint8_t pc = p->sq[CHK_SQUARES - 1 - sq];
        if (pc != CHK_NONE)
            chk_pos_put(&m->pos, sq, CHK_PIECE(!CHK_PIECE_COLOR(pc), CHK_PIECE_KIND(pc)));
    }
    m->pos.side = (uint8_t)!p->side;
    m->pos.quiet = p->quiet;
    m->pos.moveno = p->moveno;
    m->pos.hash = chk_pos_hash_full(&m->pos);
    return 1;
}

/* Whether two rule sets are the same: the same object, or the same options
 * and piece kinds and no hooks (start positions are not compared). */
static bool same_rules(const chk_rules *a, const chk_rules *b)
{
    unsigned char ka[CHK_RULES_KEY_SIZE], kb[CHK_RULES_KEY_SIZE];
    size_t n;
    if (a == b)
        return true;
    if (a->filter || a->result || b->filter || b->result)
        return false;
    n = chk_rules_key(a, ka);
    return n == chk_rules_key(b, kb) && memcmp(ka, kb, n) == 0;
}

/* a == b: the same pieces on the same squares, the same side to move and
 * the same rules (move counters and history are not compared). */
static int board_eq(lua_State *L)
{
    Board *a = lb_testboard(L, 1, true), *b = lb_testboard(L, 2, true);
    lua_pushboolean(L, a != NULL && b != NULL && !a->closed && !b->closed
                       && a->pos.side == b->pos.side
                       && memcmp(a->pos.sq, b->pos.sq, sizeof a->pos.sq) == 0
                       && same_rules(a->pos.rules, b->pos.rules));
    return 1;
}

/* b:svg([opts]) -> the SVG text of the board: cheskers.svg.render(b, opts).
 * The diagram is drawn in Lua (lua/cheskers/svg.lua), required at the call,
 * so that boards need no Lua code to be loaded or patched in beforehand. */
static int board_svg(lua_State *L)
{
    lb_checkboard(L);
    lua_settop(L, 2);
    if (lua_getglobal(L, "require") != LUA_TFUNCTION)
        return luaL_error(L, "svg: require is not available");
    lua_pushliteral(L, "cheskers.svg");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "render");
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
    return 1;
}

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
    {"hash", board_hash},
    {"copy", board_copy},
    {"get", board_get},
    {"put", board_put},
    {"rules", board_rules},
    {"rules_id", board_rules_id},
    {"moveno", board_moveno},
    {"quiet", board_quiet},
    {"pieces", board_pieces},
    {"material", board_material},
    {"bitboards", board_bitboards},
    {"squares", board_squares},
    {"piece_map", board_piece_map},
    {"is_capture", board_is_capture},
    {"mirror", board_mirror},
    {"svg", board_svg},
    {NULL, NULL}
};

static const luaL_Reg board_metamethods[] = {
    {"__gc", board_gc},
    {"__close", board_gc},
    {"__tostring", board_tostring},
    {"__eq", board_eq},
    {NULL, NULL}
};

static const luaL_Reg board_funcs[] = {
    {"new", l_new},
    {NULL, NULL}
};

/* With the module on top: adds cheskers.new, and the board methods and
 * metamethods to the board metatable. */
void lb_open_board(lua_State *L)
{
    lb_setfuncs(L, board_funcs);
    luaL_getmetatable(L, BOARD_MT);
    lb_setfuncs(L, board_metamethods);
    lua_getfield(L, -1, "__index");
    lb_setfuncs(L, board_methods);
    lua_pop(L, 2);
}


