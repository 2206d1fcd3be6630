/*
 * fuzz_fen.c - libFuzzer target: the position reader (chk_pos_set_fen).
 * Input: two bytes choosing the rule set (fuzz.h), then the position text.
 * A refused text must leave the position as it was; an accepted one must
 * pass every position invariant of fuzz.h.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    chk_rules rules;
    chk_pos pos;
    char before[256], after[256], err[256];
    if (size < 2 || size > 4096)
        return 0;
    fuzz_rules(&rules, data[0], data[1]);
    char *text = fuzz_cstr(data + 2, size - 2);
    chk_pos_start(&pos, &rules);
    static chk_move list[CHK_MAX_MOVES];
    if (chk_gen_moves(&pos, list) > 0)  /* a history, which set_fen must clear */
        chk_make(&pos, &list[0]);
    chk_pos_fen(&pos, before, sizeof before);
    err[0] = 0;
    if (chk_pos_set_fen(&pos, text, err, sizeof err)) {
        chk_pos_fen(&pos, after, sizeof after);
        FUZZ_CHECK(!strcmp(before, after), "refused text changed the position");
        FUZZ_CHECK(err[0] && strlen(err) < sizeof err, "refused without a message");
    } else {
        FUZZ_CHECK(pos.nhist == 0, "history kept after set_fen");
        fuzz_check_position(&pos, size < 200);
    }
    /* a tiny error buffer must never overflow */
    chk_pos_set_fen(&pos, text, err, 1);
    chk_pos_set_fen(&pos, text, NULL, 0);
    chk_pos_free(&pos);
    free(text);
    return 0;
}
