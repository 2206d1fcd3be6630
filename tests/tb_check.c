/*
 * tb_check.c - checks every position of the small tablebases: builds the
 * tables with up to PIECES pieces for a rule set into DIR, then walks every
 * placement of every signature (its own loops over the squares, not the
 * tables' index), both sides to move, and checks that
 *   - a table covers it, and covers the position after each of its moves;
 *   - its value follows from its moves: a win in d has a move that wins in
 *     d (the opponent lost in d - 1) and none shorter; a loss in d has only
 *     moves that lose, the slowest in d (a position without moves is lost
 *     in 0); a draw has no winning move and one that draws;
 *   - chk_tb_best_move picks a move of the position's value and distance;
 *   - every SOLVE_EVERY-th position agrees with the forced-win solver.
 * Prints TAP lines (no plan). Built and run by tests/tb_test.sh.
 *
 * usage: tb_check DIR PIECES "RULE OPTIONS" [SOLVE_EVERY]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cheskers_tb.h"

typedef struct walk {
    chk_tb *tb;
    chk_solver *solver;
    chk_pos pos;
    int solve_every;
    long positions, solved, failures;
    chk_move moves[CHK_MAX_MOVES];
    int values[CHK_MAX_MOVES], dists[CHK_MAX_MOVES];
    bool known[CHK_MAX_MOVES];
} walk;

static void complain(walk *w, const char *what, int value, int dist)
{
    char fen[128];
    if (w->failures++ < 10) {
        chk_pos_fen(&w->pos, fen, sizeof fen);
        printf("# %s: %s (table: value %d, distance %d)\n", fen, what, value, dist);
    }
}

/* What the moves say the value is; NULL when consistent with value, dist. */
static const char *follows(walk *w, int n, int value, int dist)
{
    int best_win = 1 << 20, longest_loss = -1;
    bool draw = false;
    for (int i = 0; i < n; i++) {
        if (!w->known[i])
            return "a move leads out of the tables";
        if (w->values[i] == CHK_TB_WIN && w->dists[i] < best_win)
            best_win = w->dists[i];
        else if (w->values[i] == CHK_TB_LOSS && w->dists[i] > longest_loss)
            longest_loss = w->dists[i];
        else if (w->values[i] == CHK_TB_DRAW)
            draw = true;
    }
    if (value == CHK_TB_WIN)
        return best_win == dist ? NULL : "no move wins in exactly the distance";
    if (value == CHK_TB_LOSS) {
        if (best_win < (1 << 20) || draw)
            return "lost, yet a move wins or draws";
        return (n ? longest_loss : 0) == dist ? NULL : "the longest defence is not the distance";
    }
    if (best_win < (1 << 20))
        return "a draw with a winning move";
    return draw ? NULL : "a draw without a drawing move";
}

static void check_solver(walk *w, int value, int dist)
{
    int n = 1 + (int)(w->positions % CHK_SOLVE_MAX_MOVES);
    int want = value == CHK_TB_WIN && (dist + 1) / 2 <= n ? (dist + 1) / 2 : 0;
    int got = chk_solve(w->solver, &w->pos, n, NULL, NULL);
    w->solved++;
    if (got != want) {
        char what[96];
        snprintf(what, sizeof what, "solver within %d says %d, table wants %d", n, got, want);
        complain(w, what, value, dist);
    }
}

/* The best move has the position's value and distance (none when over). */
static void check_best(walk *w, int n, int value, int dist)
{
    chk_move best;
    int bv, bd, rc = chk_tb_best_move(w->tb, &w->pos, &best, &bv, &bd);
    if (n == 0 ? rc != 0 : rc != 1 || bv != value || bd != dist)
        complain(w, "the best move does not have the position's value", value, dist);
}

static void check_position(walk *w)
{
    int value, dist;
    w->positions++;
    if (chk_tb_probe(w->tb, &w->pos, &value, &dist) != 1) {
        complain(w, "not covered", 0, 0);
        return;
    }
    int n = chk_tb_move_values(w->tb, &w->pos, w->moves, w->values, w->dists, w->known);
    const char *why = n < 0 ? "move values failed" : follows(w, n, value, dist);
    if (why)
        complain(w, why, value, dist);
    if (w->solve_every && w->positions % w->solve_every == 0)
        check_solver(w, value, dist);
    check_best(w, n, value, dist);
}

/* Places pieces[i..] on free squares, then checks both sides to move. */
static void place(walk *w, const uint8_t *pieces, int i, int npieces)
{
    if (i == npieces) {
        for (int side = 0; side < 2; side++) {
            char fen[128], *sp;
            chk_pos_fen(&w->pos, fen, sizeof fen);
            if ((sp = strchr(fen, ' ')) != NULL)
                sp[1] = side ? 'b' : 'w';
            chk_pos_set_fen(&w->pos, fen, NULL, 0);
            check_position(w);
        }
        return;
    }
    for (int sq = 0; sq < CHK_SQUARES; sq++) {
        int kind = CHK_PIECE_KIND(pieces[i]), color = CHK_PIECE_COLOR(pieces[i]);
        int rank = chk_sq_rank(sq);
        if (w->pos.sq[sq] != CHK_NONE || (kind == CHK_PAWN && rank == (color ? 0 : 7)))
            continue;
        chk_pos_put(&w->pos, sq, pieces[i]);
        place(w, pieces, i + 1, npieces);
        chk_pos_put(&w->pos, sq, CHK_NONE);
    }
}

/* Every signature: a king each, then any extra pieces (a multiset of the
 * kinds P K B C of either colour; duplicates of a placement are harmless). */
static void signatures(walk *w, uint8_t *pieces, int n, int max, int from)
{
    place(w, pieces, 0, n);
    if (n == max)
        return;
    for (int code = from; code < 8; code++) {
        pieces[n] = CHK_PIECE(code / 4, code % 4);
        signatures(w, pieces, n + 1, max, code);
    }
}

int main(int argc, char **argv)
{
    char err[256];
    chk_rules r;
    walk *w = calloc(1, sizeof *w);
    if (argc < 4 || !w)
        return fprintf(stderr, "usage: tb_check DIR PIECES \"RULE OPTIONS\" [SOLVE_EVERY]\n"), 2;
    int pieces = atoi(argv[2]);
    chk_rules_default(&r);
    if (argv[3][0] && (chk_rules_parse(&r, argv[3], err, sizeof err) < 0 ||
                       chk_rules_finish(&r, err, sizeof err) < 0))
        return fprintf(stderr, "tb_check: %s\n", err), 2;
    chk_tb_build_opts o = {.pieces = pieces, .threads = 2};
    int rc = chk_tb_build(argv[1], &r, &o, err, sizeof err);
    printf("%s - build %d pieces [%s]%s%s\n", rc ? "not ok" : "ok", pieces, argv[3],
           rc ? ": " : "", rc ? err : "");
    w->tb = chk_tb_open(argv[1], &r, err, sizeof err);
    w->solver = chk_solver_new(0);
    w->solve_every = argc > 4 ? atoi(argv[4]) : 0;
    if (!w->tb || !w->solver)
        return printf("not ok - open: %s\n", w->tb ? "no memory" : err), 1;
    chk_pos_init(&w->pos, &r);
    uint8_t list[CHK_TB_MAX_PIECES] = {CHK_PIECE(CHK_WHITE, CHK_KING), CHK_PIECE(CHK_BLACK, CHK_KING)};
    signatures(w, list, 2, pieces, 0);
    long failures = w->failures;
    printf("%s - [%s] %ld positions consistent, %ld agree with the solver\n",
           failures ? "not ok" : "ok", argv[3], w->positions - failures, w->solved);
    chk_pos_free(&w->pos);
    chk_tb_close(w->tb);
    chk_solver_free(w->solver);
    free(w);
    return failures ? 1 : 0;
}
