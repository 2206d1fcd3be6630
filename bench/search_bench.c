/*
 * search_bench.c - C search speed: searches positions to a fixed depth or
 * node budget and prints nodes, CPU time and nodes per second (CPU time,
 * not wall time: the machine may be shared).
 * usage: search_bench [depth D | nodes N] [FEN]
 * Without a FEN: the start position and a few positions a short game
 * (engine against itself, depth 3) reaches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cheskers.h"

int main(int argc, char **argv)
{
    chk_rules r;
    chk_pos p;
    char err[256], buf[64];
    chk_search_opts o = { 0 };
    chk_search_info info;
    o.depth = 9;
    if (argc > 2 && !strcmp(argv[1], "depth"))
        o.depth = atoi(argv[2]);
    else if (argc > 2 && !strcmp(argv[1], "nodes"))
        o.depth = 0, o.nodes = atoll(argv[2]);
    chk_rules_default(&r);
    chk_pos_start(&p, &r);
    if (argc > 3 && chk_pos_set_fen(&p, argv[3], err, sizeof err)) {
        fprintf(stderr, "search_bench: bad position: %s\n", err);
        return 2;
    }
    chk_search *s = chk_search_new(0);
    if (!s)
        return 2;
    int64_t nodes = 0;
    double secs = 0;
    /* a few positions along a game the engine plays against itself */
    for (int i = 0; i < 6; i++) {
        clock_t c0 = clock();
        int rc = chk_search_run(s, &p, &o, &info);
        secs += (double)(clock() - c0) / CLOCKS_PER_SEC;
        if (rc != CHK_OK) {
            fprintf(stderr, "search_bench: search failed (%d)\n", rc);
            return 1;
        }
        nodes += info.nodes;
        if (info.npv == 0)
            break;
        chk_move_text(&p, &info.pv[0], buf, sizeof buf);
        printf("position %d: depth %d score %d nodes %lld best %s\n", i + 1, info.depth,
               info.score, (long long)info.nodes, buf);
        for (int k = 0; k < 4 && k < info.npv; k++)
            chk_make(&p, &info.pv[k]);
    }
    printf("search: %lld nodes in %.3f s (CPU), %.2f Mnps\n", (long long)nodes, secs,
           secs > 0 ? (double)nodes / secs / 1e6 : 0.0);
    chk_search_free(s);
    chk_pos_free(&p);
    return 0;
}
