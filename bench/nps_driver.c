/*
 * nps_driver.c - nodes a second of the engine with its own defaults on a
 * file of positions (one FEN a line; # starts a comment), each searched to
 * a fixed node budget: bench/nps_compare.sh builds it against today's
 * library and against an old commit's, so it calls only the C API both
 * have (chk_rules_default, chk_pos_set_fen, chk_search_run with a node
 * budget).
 * usage: nps_driver FILE NODES
 * Prints "N nodes in T s (CPU), M Mnps" (CPU time of the searches only).
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
    chk_search_opts o;
    chk_search_info info;
    char line[256], err[256];
    if (argc != 3 || atoll(argv[2]) <= 0) {
        fprintf(stderr, "usage: nps_driver FILE NODES\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "nps_driver: cannot open %s\n", argv[1]);
        return 2;
    }
    memset(&o, 0, sizeof o);
    o.nodes = atoll(argv[2]);
    chk_rules_default(&r);
    chk_pos_init(&p, &r);
    chk_search *s = chk_search_new(0);
    if (!s)
        return 2;
    long long nodes = 0;
    double secs = 0;
    int npos = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (chk_pos_set_fen(&p, line, err, sizeof err)) {
            fprintf(stderr, "nps_driver: %s:%d: %s\n", argv[1], lineno, err);
            return 2;
        }
        clock_t c0 = clock();
        int rc = chk_search_run(s, &p, &o, &info);
        secs += (double)(clock() - c0) / CLOCKS_PER_SEC;
        if (rc != CHK_OK) {
            fprintf(stderr, "nps_driver: %s:%d: search failed (%d)\n", argv[1], lineno, rc);
            return 1;
        }
        nodes += info.nodes;
        npos++;
    }
    fclose(f);
    printf("%d positions, %lld nodes in %.3f s (CPU), %.3f Mnps\n", npos, nodes, secs,
           secs > 0 ? (double)nodes / secs / 1e6 : 0.0);
    chk_search_free(s);
    chk_pos_free(&p);
    return 0;
}
