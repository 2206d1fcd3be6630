/*
 * fuzz_rules.c - libFuzzer target: the rules reader (chk_rules_parse) and
 * piece kinds defined by fuzzed vectors (chk_rules_set_kind).
 *
 * Input: rule text ("name=value ..."), a NUL byte, then kind definitions of
 * 5 bytes each (letter, style, compulsory, nleaps, nrides) followed by their
 * vectors (2 signed bytes each). Whatever is refused must be refused with a
 * message; a rule set that finishes must write itself as text that reads
 * back the same, and positions under it (the start, plus one piece of each
 * extra kind) must pass every invariant of fuzz.h during a short game
 * chosen by the remaining bytes.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static chk_rules rules, again;
    static chk_move list[CHK_MAX_MOVES];
    char err[256], text[512], text2[512];
    if (size > 2048)
        return 0;
    const uint8_t *nul = memchr(data, 0, size);
    size_t tlen = nul ? (size_t)(nul - data) : size;
    char *rtext = fuzz_cstr(data, tlen);
    const uint8_t *k = nul ? nul + 1 : data + size, *end = data + size;

    chk_rules_default(&rules);
    err[0] = 0;
    int bad = chk_rules_parse(&rules, rtext, err, sizeof err);
    FUZZ_CHECK(!bad || err[0], "rules refused without a message: %s", rtext);
    FUZZ_CHECK(bad || rules.finished, "parse succeeded but rules not finished");
    chk_rules_parse(&rules, rtext, err, 1);         /* tiny buffers are safe */
    chk_rules_parse(&rules, rtext, NULL, 0);
    free(rtext);

    /* kind definitions */
    while (end - k >= 5) {
        int8_t leaps[16][2], rides[16][2];
        char letter = (char)k[0];
        int style = k[1] % 3, compulsory = k[2] & 1, nl = k[3] % 10, nr = k[4] % 10;
        k += 5;
        if ((size_t)(end - k) < (size_t)(2 * (nl + nr)))
            break;
        for (int i = 0; i < nl; i++, k += 2) {
            leaps[i][0] = (int8_t)k[0];
            leaps[i][1] = (int8_t)k[1];
        }
        for (int i = 0; i < nr; i++, k += 2) {
            rides[i][0] = (int8_t)k[0];
            rides[i][1] = (int8_t)k[1];
        }
        err[0] = 0;
        if (chk_rules_set_kind(&rules, letter, style, compulsory, (const int8_t (*)[2])leaps, nl,
                               (const int8_t (*)[2])rides, nr, err, sizeof err))
            FUZZ_CHECK(err[0], "kind refused without a message");
        if (k < end && (*k & 0x80)) {   /* now and then promote to the new kind */
            char promo[3] = { 'K', letter, 0 };
            chk_rules_set(&rules, "promote", promo, err, sizeof err);
            k++;
        }
    }
    err[0] = 0;
    if (chk_rules_finish(&rules, err, sizeof err)) {
        FUZZ_CHECK(err[0], "finish refused without a message");
        return 0;
    }

    /* the options as text read back to the same options */
    chk_rules_to_text(&rules, text, sizeof text);
    again = rules;
    FUZZ_CHECK(!chk_rules_parse(&again, text, err, sizeof err), "own text %s refused: %s", text, err);
    chk_rules_to_text(&again, text2, sizeof text2);
    FUZZ_CHECK(!strcmp(text, text2), "rules text round trip: %s -> %s", text, text2);

    /* a game: the start position with one piece of each extra kind added */
    chk_pos pos;
    chk_pos_start(&pos, &rules);
    static const int spots[2][4] = { { 12, 13, 14, 15 }, { 16, 17, 18, 19 } };
    for (int kind = 4; kind < rules.nkinds; kind++) {
        chk_pos_put(&pos, spots[0][kind - 4], CHK_PIECE(CHK_WHITE, kind));
        chk_pos_put(&pos, spots[1][kind - 4], CHK_PIECE(CHK_BLACK, kind));
    }
    for (int ply = 0; ply < 24; ply++) {
        fuzz_check_position(&pos, ply < 2);
        int n = chk_gen_moves(&pos, list);
        if (n <= 0)
            break;
        int pick = k < end ? *k++ : ply * 7;
        chk_make(&pos, &list[pick % n]);
    }
    while (chk_unmake(&pos))
        ;
    chk_pos_free(&pos);
    return 0;
}
