/*
 * capi_check.c - edges of the public C API (core/cheskers.h) that the Lua
 * binding never reaches: text written into a buffer too small for it (cut
 * and terminated as snprintf does), chk_parse_move without an error buffer
 * (NULL or size 0: nothing written there), a result hook that has nothing
 * to say (its winner is not read), chk_rules_to_text, the shape of move
 * text (chk_read_move_text, chk_shape_text), and the rules text reader with
 * its messages (chk_rules_parse, chk_option_next), and the allocator the
 * binding gives a position and a search context (chk_alloc), refusing at
 * every point. Prints TAP.
 * Built and run by tests/core/capi_test.sh. Expected values come from
 * docs/reference/rules.md (move text, option names and defaults) and the header's
 * contracts, never from a printout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FEN_CHECK_SIZE 128

#include "cheskers.h"
#include "tap.h"

/* chk_move_text cuts a text that does not fit and always terminates it,
 * as snprintf does, and returns the whole length. b6-a5 is Black's pawn
 * step from the start position (docs/reference/rules.md: Black moves first). */
static void check_move_text(chk_pos *p)
{
    chk_move m;
    char err[256], buf[16];
    int rc = chk_parse_move(p, "b6-a5", &m, err, sizeof err);
    check(rc == 0, "b6-a5 is a legal move at the start");
    memset(buf, '#', sizeof buf);
    check(chk_move_text(p, &m, buf, 0) == 5 && buf[0] == '#',
          "move text into a buffer of 0 bytes: length 5, nothing written");
    memset(buf, '#', sizeof buf);
    check(chk_move_text(p, &m, buf, 1) == 5 && buf[0] == 0 && buf[1] == '#',
          "move text into 1 byte: the empty text");
    memset(buf, '#', sizeof buf);
    check(chk_move_text(p, &m, buf, 5) == 5 && strcmp(buf, "b6-a") == 0 && buf[5] == '#',
          "move text into exactly its length: cut to b6-a, nothing written past the buffer");
    memset(buf, '#', sizeof buf);
    check(chk_move_text(p, &m, buf, 6) == 5 && strcmp(buf, "b6-a5") == 0 && buf[6] == '#',
          "move text into its length + 1: the whole text b6-a5");
}

/* chk_parse_move with no usable error buffer: the result is the same, and
 * a buffer given with size 0 is left alone. Checks that would crash on a
 * NULL buffer come last (tests/core/capi_test.sh reports a crash). */
static void check_parse_without_err(chk_pos *p)
{
    chk_move m;
    char buf[300];
    strcpy(buf, "untouched");
    check(chk_parse_move(p, "zz", &m, buf, 0) == CHK_PARSE_BAD_TEXT && strcmp(buf, "untouched") == 0,
          "bad move text with an error buffer of size 0: refused, buffer untouched");
    check(chk_parse_move(p, "b6-b4", &m, buf, 0) == CHK_PARSE_ILLEGAL && strcmp(buf, "untouched") == 0,
          "illegal move with an error buffer of size 0: refused, buffer untouched");
    check(chk_parse_move(p, "zz", &m, NULL, 64) == CHK_PARSE_BAD_TEXT,
          "bad move text with a NULL error buffer (size 64): refused");
    check(chk_parse_move(p, "zz", &m, NULL, 0) == CHK_PARSE_BAD_TEXT,
          "bad move text with a NULL error buffer of size 0: refused");
    check(chk_parse_move(p, "b6-c5", &m, NULL, 0) == 0 && m.from == chk_sq_parse("b6")
          && m.to == chk_sq_parse("c5"), "a legal move read with no error buffer");
}

/* A result hook: returns its ud's rc and sets *winner to White whatever
 * it returns (a winner the core must ignore when rc is 0). */
static int hook_rc;

static int result_hook(void *ud, const chk_pos *pos, int *winner)
{
    (void)ud;
    (void)pos;
    *winner = CHK_WHITE;
    return hook_rc;
}

/* The header: a result hook returns 0 when it has nothing to say, 1 when
 * the game is over (*winner set). Two bare kings, White to move: the game
 * goes on unless the hook ends it. */
static void check_result_hook(void)
{
    chk_rules r;
    chk_pos p;
    char err[256];
    int reason = -1, w;
    chk_rules_default(&r);
    r.result = result_hook;
    chk_pos_init(&p, &r);
    check(chk_pos_set_fen(&p, "1k6/8/8/8/8/8/8/K7 w 0 1", err, sizeof err) == 0, "two bare kings");
    hook_rc = 0;
    w = chk_result_static(&p, &reason);
    check(w == CHK_ONGOING && reason == CHK_REASON_NONE,
          "a hook returning 0 has nothing to say: its winner is not read (static result)");
    reason = -1;
    w = chk_result(&p, &reason);
    check(w == CHK_ONGOING && reason == CHK_REASON_NONE,
          "a hook returning 0 has nothing to say: the game goes on (full result)");
    hook_rc = 1;
    w = chk_result(&p, &reason);
    check(w == CHK_WHITE && reason == CHK_REASON_HOOK, "a hook returning 1 ends the game: White wins");
    chk_pos_free(&p);
}

/* chk_rules_to_text: every option, in the order and with the defaults of
 * docs/reference/rules.md's option table. */
static void check_rules_text(void)
{
    chk_rules r;
    char text[512];
    chk_rules_default(&r);
    chk_rules_to_text(&r, text, sizeof text);
    check(strcmp(text, "majority=true capture=mixed promote=KBC first=black flying_kings=false "
                       "pawns_capture_backward=false draw_repetition=0 draw_quiet_plies=0") == 0,
          "the default rules as text");
    r.promote = 1u << CHK_KING;
    r.first = CHK_WHITE;
    check(chk_rules_finish(&r, NULL, 0) == 0, "promote=K first=white are good rules");
    chk_rules_to_text(&r, text, sizeof text);
    check(strstr(text, " promote=K ") != NULL && strstr(text, " first=white ") != NULL,
          "promote=K first=white as text");
    r.promote = (1u << CHK_BISHOP) | (1u << CHK_CAMEL);
    check(chk_rules_finish(&r, NULL, 0) == 0, "promote=BC is a good rule");
    chk_rules_to_text(&r, text, sizeof text);
    check(strstr(text, " promote=BC ") != NULL, "promote=BC as text");
}

/* chk_read_move_text: the shape of a word under the rules alone, one row
 * per case (docs/reference/rules.md "Move text"): its kind, and its written form or
 * message. */
static void check_move_shapes(const chk_rules *r)
{
    static const struct {
        const char *word;
        int kind;
        const char *text;       /* written form (MOVE, SQUARE) or message (BAD) */
    } rows[] = {
        { "d6-e5", CHK_SHAPE_MOVE, "d6-e5" },
        { " C3XE5:G7 \n", CHK_SHAPE_MOVE, "c3xe5xg7" },
        { "Cb8-c5", CHK_SHAPE_MOVE, "Cb8-c5" },
        { "g7-h8c", CHK_SHAPE_MOVE, "g7-h8=C" },
        { "b6", CHK_SHAPE_SQUARE, "b6" },
        { "e9-e5", CHK_SHAPE_BAD, "e9 is not a square" },
        { "b6-b5", CHK_SHAPE_BAD, "b5 is a light square" },
        { "b6a5", CHK_SHAPE_BAD, "b6a5 is not move text: write b6-a5" },
        { "g7-h8=Q", CHK_SHAPE_BAD, "promotion is to K, B or C, not Q" },
        { "a1=5", CHK_SHAPE_NONE, "" },
        { "n1-1", CHK_SHAPE_NONE, "" },
        { "x", CHK_SHAPE_NONE, "" },
    };
    char err[128], text[64];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        chk_shape s;
        int kind = chk_read_move_text(r, rows[i].word, &s, err, sizeof err);
        const char *got = err;
        if (kind == CHK_SHAPE_MOVE || kind == CHK_SHAPE_SQUARE) {
            chk_shape_text(r, &s, text, sizeof text);
            got = text;
        }
        char what[200];
        snprintf(what, sizeof what, "move shape of '%s': %s", rows[i].word, rows[i].text);
        check(kind == rows[i].kind && strcmp(got, rows[i].text) == 0, what);
    }
    chk_shape s;
    check(chk_read_move_text(r, "d6--e5", &s, NULL, 0) == CHK_SHAPE_BAD && s.fault == CHK_FAULT_SPELLING,
          "a doubled separator without an error buffer: BAD, fault SPELLING");
}

/* chk_rules_parse, the one reader of rules text: {text, the message, or
 * NULL when the text is good}. The messages name the option, echo the value
 * and say what is allowed (docs/reference/rules.md, "Options as text"). */
static const char *const RULES_TEXT[][2] = {
    { "majority=false capture=jumps", NULL },
    { "majority = false, capture=jumps:first=white", NULL },
    { "  golomb  ", NULL },
    { "promote='KB' first=\"white\"", NULL },
    { "", NULL },
    { "majority=maybe", "majority must be true or false, not 'maybe'" },
    { "majority='true'", "majority must be true or false, not 'true'" },
    { "capture=jump", "capture must be one of 'mixed', 'jumps', 'all', 'optional', not 'jump' "
                      "(did you mean 'jumps'?)" },
    { "first=whit", "first must be 'black' or 'white', not 'whit' (did you mean 'white'?)" },
    { "golmob", "unknown rules preset 'golmob' (did you mean 'golomb'?)" },
    { "chess", "unknown rules preset 'chess'" },
    { "draw_quiet_plies=99999999999999999999",
      "draw_quiet_plies must be a whole number from 0 to 65535, not 99999999999999999999" },
    { "draw_quiet_plies=65536", "draw_quiet_plies must be a whole number from 0 to 65535, not 65536" },
    { "draw_quiet_plies=1.5", "draw_quiet_plies must be a whole number from 0 to 65535, not 1.5" },
    { "draw_repetition=1", "draw_repetition must be 0 (off) or a whole number from 2 to 65535, not 1" },
    { "promote=KQ", "promote must be letters of the kinds a pawn may become (K, B, C), not 'KQ'" },
    { "promote=KK", "promote lists K twice" },
    { "majorty=false", "unknown rule option 'majorty' (did you mean 'majority'?)" },
    { "flying_kings", "rule option 'flying_kings' is not written name=value: "
                      "write flying_kings=true or flying_kings=false" },
    { "majority=false majority=true", "rule option 'majority' given twice" },
    { "start='7k/8 w", "rule option 'start': the quote ' is not closed" },
    { "start='7k/8/8/8/8/8/8/K7 w'", "rule option 'start' is read by the Lua module (cheskers.rules), "
                                     "not the core" },
    { "pieces=abc", "pieces must be a table of piece kinds {...}, not 'abc'" },
    { "majority=", "rule option 'majority' has no value after =" },
    { "1x=2", "rule option name '1x' must be a letter or _, then letters, digits or _" },
    { "capture='all'x", "rule option 'capture': a space or comma must follow its value, not 'x'" },
};

static void check_rules_parse(void)
{
    char err[256], what[400];
    for (size_t i = 0; i < sizeof RULES_TEXT / sizeof RULES_TEXT[0]; i++) {
        chk_rules r;
        const char *text = RULES_TEXT[i][0], *want = RULES_TEXT[i][1];
        int rc;
        chk_rules_default(&r);
        err[0] = 0;
        rc = chk_rules_parse(&r, text, err, sizeof err);
        if (want)
            snprintf(what, sizeof what, "rules text \"%s\" refused: %s (got: %s)", text, want, err);
        else
            snprintf(what, sizeof what, "rules text \"%s\" read (%s)", text, err);
        check(want ? rc == -1 && strcmp(err, want) == 0 : rc == 0 && r.finished, what);
    }
    {
        chk_rules r;
        chk_rules_default(&r);
        check(chk_rules_parse(&r, "majority=false, capture=jumps:first=white", NULL, 0) == 0
              && !r.majority && r.capture == CHK_CAPTURE_JUMPS && r.first == CHK_WHITE,
              "majority=false, capture=jumps:first=white sets the three options");
        check(chk_rules_parse(&r, "golomb", NULL, 0) == 0 && r.majority && r.capture == CHK_CAPTURE_MIXED
              && r.first == CHK_BLACK, "golomb alone resets the rules to the defaults");
    }
}

/* chk_option_next, the grammar bot options share: typed values. */
static void check_option_text(void)
{
    const char *text = "a=true b=-12 c=1.5e1 d='x y' e={1,{2}} f=99999999999999999999 g=txt h";
    static const int types[] = { CHK_VALUE_BOOL, CHK_VALUE_INT, CHK_VALUE_NUMBER, CHK_VALUE_TEXT,
                                 CHK_VALUE_DATA, CHK_VALUE_NUMBER, CHK_VALUE_TEXT, CHK_VALUE_NONE };
    chk_option o[8], end;
    char err[128];
    size_t pos = 0;
    int n = 0, rc;
    while (n < 8 && (rc = chk_option_next(text, &pos, "option", &o[n], err, sizeof err)) == 1)
        n++;
    check(n == 8 && chk_option_next(text, &pos, "option", &end, err, sizeof err) == 0,
          "eight items, then the end");
    for (int i = 0; i < n && i < 8; i++) {
        char what[64];
        snprintf(what, sizeof what, "item %c has the type of its value", 'a' + i);
        check(o[i].type == types[i], what);
    }
    check(o[0].b && o[1].i == -12 && o[2].f == 15.0 && o[5].f > 9e19, "their values");
    check(o[3].value_len == 3 && memcmp(o[3].value, "x y", 3) == 0, "a quoted value is the text inside");
    check(o[4].value_len == 7 && memcmp(o[4].value, "{1,{2}}", 7) == 0, "a {...} value is handed over whole");
}

/* A counting allocator with lua_Alloc's contract (chk_alloc) that refuses
 * any growth past its limit: the bytes it holds, its calls, and a check of
 * the sizes it is given back (a block freed or resized with a size other
 * than its own is a fault). */
typedef struct Counter {
    size_t held, limit;
    int calls, refused, bad_sizes;
    void *last;
    size_t last_size;
} Counter;

static void *counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Counter *c = ud;
    size_t old = ptr ? osize : 0;
    void *q;
    c->calls++;
    if (nsize > old && c->held + (nsize - old) > c->limit) {
        c->refused++;
        return NULL;
    }
    if (ptr && ptr == c->last && osize != c->last_size)
        c->bad_sizes++;
    if (nsize == 0) {
        free(ptr);
        q = NULL;
    } else
        q = realloc(ptr, nsize);
    if (q == NULL && nsize > 0)
        return NULL;
    c->held = c->held - old + nsize;
    c->last = q;
    c->last_size = nsize;
    return q;
}

/* chk_alloc: a position's history and a search context come from the
 * allocator given, are given back there (nothing held at the end), and
 * an allocator that refuses at any point leaves a clean failure: chk_make
 * false with the position unchanged, chk_pos_copy false, chk_search_new_alloc
 * NULL, and nothing held. */
/* Plays n plies of two kings going back and forth (a1-b2 h8-g7 b2-a1
 * g7-h8, from 7k/8/8/8/8/8/8/K7 w): how many chk_make made. */
static int shuffle_kings(chk_pos *p, int n)
{
    static const char *const cycle[] = { "a1-b2", "h8-g7", "b2-a1", "g7-h8" };
    chk_move m;
    int made = 0;
    for (int i = 0; i < n; i++) {
        if (chk_parse_move(p, cycle[p->nhist % 4], &m, NULL, 0) != 0 || !chk_make(p, &m))
            break;
        made++;
    }
    return made;
}

static void check_allocator(const chk_rules *r)
{
    Counter c = { 0, (size_t)-1, 0, 0, 0, NULL, 0 };
    chk_alloc a = { counting_alloc, &c };
    chk_pos p, q;
    chk_pos_init(&p, r);
    check(p.alloc == NULL, "chk_pos_init: the C library's allocator");
    chk_pos_set_fen(&p, "7k/8/8/8/8/8/8/K7 w", NULL, 0);
    p.alloc = &a;
    check(shuffle_kings(&p, 40) == 40 && c.held == p.caphist * sizeof(chk_undo) && p.caphist == 64,
          "the history grows from the position's allocator (8, 16, 32, 64 entries)");
    check(chk_pos_copy(&q, &p) && q.alloc == &a && c.held == (p.caphist + q.nhist) * sizeof(chk_undo),
          "a copy's history comes from the same allocator");
    chk_pos_free(&q);
    check(q.alloc == &a && c.held == p.caphist * sizeof(chk_undo), "chk_pos_free gives it back (keeps alloc)");
    char fen[FEN_CHECK_SIZE], after[FEN_CHECK_SIZE];
    c.limit = c.held;       /* no more */
    check(shuffle_kings(&p, 24) == 24 && c.refused == 0, "the history fills up to its 64 entries");
    chk_pos_fen(&p, fen, sizeof fen);
    check(shuffle_kings(&p, 1) == 0 && c.refused == 1 && p.nhist == 64,
          "a refused growth: chk_make returns false");
    chk_pos_fen(&p, after, sizeof after);
    check(strcmp(fen, after) == 0, "... and leaves the position as it was");
    check(!chk_pos_copy(&q, &p) && q.hist == NULL && q.nhist == 0, "a refused copy: false, no history");
    chk_pos_set_fen(&p, "8/8/8/8/8/8/8/K5k1 w", NULL, 0);
    check(p.alloc == &a, "chk_pos_set_fen keeps the allocator");
    chk_pos_free(&p);
    check(c.held == 0 && c.bad_sizes == 0, "nothing held at the end, every size given back right");

    /* a search context refused at each of its allocations in turn */
    int calls_ok = -1;
    for (size_t limit = 0; limit < ((size_t)8 << 20); limit = limit ? limit * 2 : 4096) {
        c.limit = limit;
        c.refused = 0;
        chk_search *s = chk_search_new_alloc((size_t)1 << 16, &a);
        if (s == NULL) {
            if (c.held != 0 || c.refused == 0)
                calls_ok = 0;
            continue;
        }
        if (calls_ok < 0)
            calls_ok = 1;
        chk_search_free(s);
        if (c.held != 0)
            calls_ok = 0;
    }
    check(calls_ok == 1 && c.bad_sizes == 0,
          "chk_search_new_alloc refused at any point: NULL and nothing held; made once the limit allows");
}

int main(void)
{
    chk_rules r;
    chk_pos p;
    chk_rules_default(&r);
    chk_pos_init(&p, &r);
    chk_pos_start(&p, &r);
    check_move_text(&p);
    check_result_hook();
    check_rules_text();
    check_rules_parse();
    check_option_text();
    check_parse_without_err(&p);
    check_move_shapes(&r);
    check_allocator(&r);
    chk_pos_free(&p);
    return tap_done();
}
