/*
 * solve_crosscheck.c - compares the forced-win solver (core/solve.c) with a
 * plain minimax over positions of random games, under several rule sets;
 * prints TAP. Built and run by tests/core/solve_test.sh.
 *
 * usage: solve_crosscheck [GAMES [MAXN [SEED]]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cheskers.h"

/* 0: going on, 1: the attacker (a colour) has won, 2: over otherwise */
static int over(chk_pos *p, int attacker)
{
    int reason, w = chk_result(p, &reason);
    if (w == CHK_ONGOING)
        return 0;
    return w == attacker ? 1 : 2;
}

static int naive_attack(chk_pos *p, int n);

/* The defender to move, the attacker with n moves left: does every reply lose? */
static int naive_defend(chk_pos *p, int n)
{
    chk_move *list = malloc(sizeof *list * CHK_MAX_MOVES);
    int cnt = chk_gen_moves(p, list), attacker = !p->side, all = 1;
    for (int i = 0; i < cnt && all; i++) {
        chk_make(p, &list[i]);
        int o = over(p, attacker);
        if (o == 2 || (o == 0 && !naive_attack(p, n)))
            all = 0;
        chk_unmake(p);
    }
    free(list);
    return all;
}

static int naive_attack(chk_pos *p, int n)
{
    chk_move *list = malloc(sizeof *list * CHK_MAX_MOVES);
    int cnt = chk_gen_moves(p, list), me = p->side, win = 0;
    for (int i = 0; i < cnt && !win; i++) {
        chk_make(p, &list[i]);
        int o = over(p, me);
        win = o == 1 || (o == 0 && n > 1 && naive_defend(p, n - 1));
        chk_unmake(p);
    }
    free(list);
    return win;
}

static unsigned rng_state;
static int rnd(int n)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (int)((rng_state >> 8) % (unsigned)n);
}

int main(int argc, char **argv)
{
    static const char *const variants[] = {
        "", "majority=false", "capture=optional", "capture=all", "flying_kings=true",
        "pawns_capture_backward=true", "draw_quiet_plies=3", "draw_repetition=2",
    };
    int games = argc > 1 ? atoi(argv[1]) : 6, maxn = argc > 2 ? atoi(argv[2]) : 3;
    rng_state = argc > 3 ? (unsigned)atoi(argv[3]) : 1u;
    static chk_move list[CHK_MAX_MOVES], wins[CHK_MAX_MOVES];
    static int lens[CHK_MAX_MOVES];
    chk_solver *s = chk_solver_new(1 << 20);
    int test = 0, failed = 0;
    if (!s) {
        printf("not ok 1 - solver context\n1..1\n");
        return 1;
    }
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        chk_rules r;
        char err[256];
        chk_rules_default(&r);
        if (chk_rules_parse(&r, variants[v], err, sizeof err) || chk_rules_finish(&r, err, sizeof err)) {
            printf("not ok %d - rules '%s': %s\n", ++test, variants[v], err);
            failed++;
            continue;
        }
        int positions = 0, bad = 0, won = 0;
        char badfen[160] = "";
        for (int g = 0; g < games; g++) {
            chk_pos p;
            chk_pos_start(&p, &r);
            for (int ply = 0; ply < 120; ply++) {
                int cnt = chk_gen_moves(&p, list);
                if (cnt <= 0)
                    break;
                if (ply > 8 && rnd(3) == 0) {
                    char before[160], after[160];
                    chk_pos_fen(&p, before, sizeof before);
                    uint64_t hash = p.hash;
                    int k = chk_solve(s, &p, maxn, NULL, NULL);
                    int nw = chk_solve_moves(s, &p, maxn, wins, lens, NULL);
                    int nk = 0;
                    for (int j = 1; j <= maxn && !nk; j++)
                        if (naive_attack(&p, j))
                            nk = j;
                    /* each first move: its shortest win by minimax */
                    int nnw = 0, mismatch = 0;
                    for (int i = 0; i < cnt; i++) {
                        int len = 0;
                        chk_make(&p, &list[i]);
                        int o = over(&p, !p.side);
                        if (o == 1)
                            len = 1;
                        else if (o == 0)
                            for (int j = 1; j < maxn && !len; j++)
                                if (naive_defend(&p, j))
                                    len = j + 1;
                        chk_unmake(&p);
                        if (!len)
                            continue;
                        nnw++;
                        int found = 0;
                        for (int q = 0; q < nw; q++)
                            if (chk_move_equal(&wins[q], &list[i])) {
                                found = 1;
                                mismatch |= lens[q] != len;
                            }
                        mismatch |= !found;
                    }
                    chk_pos_fen(&p, after, sizeof after);
                    positions++;
                    won += nk > 0;
                    if (k != nk || nw != nnw || mismatch || strcmp(before, after) || hash != p.hash) {
                        bad++;
                        snprintf(badfen, sizeof badfen, "%s", before);
                    }
                }
                chk_make(&p, &list[rnd(cnt)]);
            }
            chk_pos_free(&p);
        }
        test++;
        if (bad) {
            failed++;
            printf("not ok %d - rules '%s': %d of %d positions differ from minimax (e.g. %s)\n",
                   test, variants[v], bad, positions, badfen);
        } else {
            printf("ok %d - rules '%s': solver = minimax on %d positions (%d wins within %d)\n",
                   test, variants[v], positions, won, maxn);
        }
    }
    printf("1..%d\n", test);
    chk_solver_free(s);
    return failed != 0;
}
