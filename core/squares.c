/*
 * squares.c - the 32 dark squares: index <-> file and rank, names ("c3").
 * The lowest layer of the core: it calls nothing.
 *
 * The layers of the core, each calling only the ones before it:
 *   status.c, squares.c, suggest.c -> rules.c -> movegen.c -> board.c
 *   (set-up, position text, make/unmake) -> result.c (the game result,
 *   and the legal moves, which depend on it) -> movetext.c, perft.c,
 *   eval.c -> tb_index.c (the tables' index) -> tb_file.c (their files) ->
 *   tb.c -> search_tt.c, search_tb.c (the engine's context and
 *   its tablebase probes) -> search.c, solve.c, tb_build.c
 * (tests/tools/layers_test.sh checks it on the built objects.)
 */
#include "internal.h"

int chk_sq_rank(int sq) { return sq >> 2; }
int chk_sq_file(int sq) { return 2 * (sq & 3) + ((sq >> 2) & 1); }

int chk_sq_from_fr(int file, int rank)
{
    if (file < 0 || file > 7 || rank < 0 || rank > 7 || ((file + rank) & 1))
        return -1;
    return rank * 4 + file / 2;
}

int chk_sq_parse(const char *s)
{
    if (!s || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return -1;
    return chk_sq_from_fr(s[0] - 'a', s[1] - '1');
}

void chk_sq_name(int sq, char out[3])
{
    out[0] = (char)('a' + chk_sq_file(sq));
    out[1] = (char)('1' + chk_sq_rank(sq));
    out[2] = 0;
}
