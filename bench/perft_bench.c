/*
 * perft_bench.c - C perft from a position: nodes and nodes per second,
 * with bulk counting (bulk) or making every move (make).
 * usage: perft_bench DEPTH [bulk|make] [FEN] [rules text]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cheskers.h"

int main(int argc, char **argv)
{
    chk_rules r;
    chk_pos p;
    char err[256];
    int depth = argc > 1 ? atoi(argv[1]) : 6;
    bool bulk = argc <= 2 || strcmp(argv[2], "make") != 0;
    chk_rules_default(&r);
    if (argc > 4 && chk_rules_parse(&r, argv[4], err, sizeof err)) {
        fprintf(stderr, "perft_bench: %s\n", err);
        return 2;
    }
    chk_pos_start(&p, &r);
    if (argc > 3 && argv[3][0] && chk_pos_set_fen(&p, argv[3], err, sizeof err)) {
        fprintf(stderr, "perft_bench: bad position: %s\n", err);
        return 2;
    }
    double t0 = chk_clock();
    int64_t n = chk_perft(&p, depth, bulk, NULL);
    double s = chk_clock() - t0;
    printf("perft %d %s: %lld nodes in %.3f s, %.1f Mnps\n", depth, bulk ? "bulk" : "make",
           (long long)n, s, (double)n / s / 1e6);
    chk_pos_free(&p);
    return 0;
}
