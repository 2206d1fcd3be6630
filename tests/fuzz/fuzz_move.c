/*
 * fuzz_move.c - libFuzzer target: the move-text reader (chk_parse_move).
 * Input: two bytes choosing the rule set (fuzz.h), one byte choosing a
 * position from the table below, then either "FEN\nMOVE" (the FEN replaces
 * the table position when it reads) or just MOVE. An accepted text must
 * name a legal move whose own text reads back to it; a refused one must
 * leave the position unchanged and say why.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const positions[] = {
    CHK_START_FEN,
    "7k/8/5p2/8/1k1p3B/P1P5/8/4C1K1 w 0 1",      /* jumps, takes, majority */
    "7k/2p1p3/1P6/8/8/8/8/6K1 w 0 1",            /* a chain stops on promotion */
    "1k6/8/8/4p1b1/3K4/4p1c1/8/8 w 0 1",         /* a ring: two routes, one move */
    "7k/8/1p1p4/8/1p1p4/2P5/8/6K1 w 0 1",        /* same ends, two captured sets */
    "8/k3p3/8/4p3/8/8/1K6/8 w 0 1",              /* flying chains */
    "8/8/8/6p1/1p6/k1p3p1/8/K7 w 0 1",
    "7k/P7/8/8/8/8/8/6K1 w 0 1",                 /* promotion choices */
    "1n1w1k1b/8/8/8/8/8/8/B1K1N1W1 w 0 1",       /* extra kinds (when defined) */
    "k1k1k1k1/1p1p1p1p/8/1P1P1P1P/8/8/8/K7 w 0 1",
};
#define NPOS (sizeof positions / sizeof positions[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    chk_rules rules;
    chk_pos pos;
    chk_move m;
    static chk_move list[CHK_MAX_MOVES];
    char before[256], after[256], err[1024], text[128];
    if (size < 3 || size > 4096)
        return 0;
    fuzz_rules(&rules, data[0], data[1]);
    char *input = fuzz_cstr(data + 3, size - 3);
    char *move = input, *nl = strchr(input, '\n');
    chk_pos_init(&pos, &rules);
    if (chk_pos_set_fen(&pos, positions[data[2] % NPOS], err, sizeof err))
        chk_pos_start(&pos, &rules);    /* a letter these rules do not know */
    if (nl) {
        *nl = 0;
        chk_pos_set_fen(&pos, input, NULL, 0);
        move = nl + 1;
    }
    chk_pos_fen(&pos, before, sizeof before);
    uint64_t hash = pos.hash;
    int n = chk_gen_moves(&pos, list);
    if (!chk_parse_move(&pos, move, &m, err, sizeof err)) {
        int found = 0;
        for (int i = 0; i < n; i++)
            found += chk_move_equal(&m, &list[i]);
        FUZZ_CHECK(found == 1, "%s read as a move listed %d times: %s", move, found, before);
        chk_move_text(&pos, &m, text, sizeof text);
        chk_move back;
        FUZZ_CHECK(!chk_parse_move(&pos, text, &back, err, sizeof err) && chk_move_equal(&back, &m),
                   "%s read as %s, which does not read back: %s", move, text, before);
        FUZZ_CHECK(chk_make(&pos, &m), "chk_make failed");
        const char *fault = chk_pos_check(&pos);
        FUZZ_CHECK(!fault, "after %s: %s: %s", text, fault, before);
        chk_unmake(&pos);
    } else {
        FUZZ_CHECK(err[0], "%s refused without a message: %s", move, before);
        FUZZ_CHECK(strlen(err) < sizeof err, "message overflow");
    }
    chk_pos_fen(&pos, after, sizeof after);
    FUZZ_CHECK(!strcmp(before, after) && hash == pos.hash, "parse changed the position");
    /* small and missing error buffers must be safe */
    chk_parse_move(&pos, move, &m, err, 1);
    chk_parse_move(&pos, move, &m, err, 7);
    chk_parse_move(&pos, move, &m, NULL, 0);
    chk_pos_free(&pos);
    free(input);
    return 0;
}
