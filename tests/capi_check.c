/*
 * capi_check.c - edges of the public C API (core/cheskers.h) that the Lua
 * binding never reaches: text written into a buffer too small for it (cut
 * and terminated as snprintf does), chk_parse_move without an error buffer
 * (NULL or size 0: nothing written there), a result hook that has nothing
 * to say (its winner is not read), chk_rules_to_text, and the shape of
 * move text (chk_read_move_text, chk_shape_text). Prints TAP.
 * Built and run by tests/capi_test.sh. Expected values come from
 * docs/rules.md (move text, option names and defaults) and the header's
 * contracts, never from a printout.
 */
#include <stdio.h>
#include <string.h>

#include "cheskers.h"
#include "tap.h"

/* chk_move_text cuts a text that does not fit and always terminates it,
 * as snprintf does, and returns the whole length. b6-a5 is Black's pawn
 * step from the start position (docs/rules.md: Black moves first). */
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
 * NULL buffer come last (tests/capi_test.sh reports a crash). */
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
 * docs/rules.md's option table. */
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
 * per case (docs/rules.md "Move text"): its kind, and its written form or
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
    check_parse_without_err(&p);
    check_move_shapes(&r);
    chk_pos_free(&p);
    return tap_done();
}
