/*
 * search_bench.c - C search speed: searches positions to a fixed depth or
 * node budget and prints nodes, CPU time and nodes per second (CPU time,
 * not wall time: the machine may be shared).
 * usage: search_bench [depth D | nodes N] [FEN]
 * Without a FEN: the start position and a few positions a short game
 * (engine against itself, depth 3) reaches.
 *        search_bench compare FEATURE [N]
 * The search without and with a search switch (CHK_SEARCH_SWITCHES of
 * cheskers.h: rfp, aspiration, fp, delta), or with a margin
 * (CHK_SEARCH_MARGINS: rfp_margin=N, fp_margin=N: the default against N),
 * interleaved in one run: 180 positions of 60 games
 * (6 random plies from a fixed seed, then the engine at depth 3 against
 * itself; plies 12, 20 and 28), each searched to N nodes (default 20000)
 * by both, five rounds; each round's nodes a second (CPU time) and the
 * medians of the two.
 *        search_bench positions
 * Prints those 180 positions, one FEN a line (bench/nps_positions.fen,
 * the positions of bench/nps_compare.sh, was written so).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cheskers.h"

#define NPOS 180
#define ROUNDS 5

/* The names the comparison takes, for its message. */
#define NAME_OF_SWITCH(name, what) #name ", "
#define NAME_OF_MARGIN(name, what) #name "=N, "
static const char feature_names[] = CHK_SEARCH_SWITCHES(NAME_OF_SWITCH) CHK_SEARCH_MARGINS(NAME_OF_MARGIN);
#undef NAME_OF_SWITCH
#undef NAME_OF_MARGIN

/* Sets the switch or margin name of o: v -1 off (a margin: the default),
 * 1 on (a margin: N). -1 when there is none of that name. */
static int set_feature(chk_search_opts *o, const char *name, signed char v)
{
    int margin;     /* a margin, MARGIN=N: the default (off) against N (on) */
    size_t len = strcspn(name, "=");
#define SET_SWITCH(field, what) \
    if (!strcmp(name, #field)) { \
        o->field = v; \
        return 0; \
    }
#define SET_MARGIN(field, what) \
    if (len == strlen(#field) && !strncmp(name, #field, len) && sscanf(name + len, "=%d", &margin) == 1 \
        && margin > 0) { \
        o->field = v > 0 ? margin : 0; \
        return 0; \
    }
    CHK_SEARCH_SWITCHES(SET_SWITCH)
    CHK_SEARCH_MARGINS(SET_MARGIN)
#undef SET_SWITCH
#undef SET_MARGIN
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The positions of the comparison (see the header); returns how many. */
static int compare_positions(const chk_rules *r, chk_search *s, chk_pos *pos)
{
    static chk_move list[CHK_MAX_MOVES];
    chk_search_opts o = { 0 };
    chk_search_info info;
    uint32_t rng = 12345;
    int np = 0;
    o.depth = 3;
    for (int g = 0; g < NPOS / 3; g++) {
        chk_pos p;
        chk_pos_start(&p, r);
        for (int ply = 1; ply <= 28; ply++) {
            int n = chk_gen_moves(&p, list);
            if (n <= 0)
                break;
            if (ply <= 6) {
                rng = rng * 1103515245u + 12345u;
                chk_make(&p, &list[(rng >> 16) % (uint32_t)n]);
            } else {
                if (chk_search_run(s, &p, &o, &info) != CHK_OK || info.npv == 0)
                    break;
                chk_make(&p, &info.pv[0]);
            }
            if ((ply == 12 || ply == 20 || ply == 28) && chk_gen_moves(&p, list) > 0
                && chk_pos_copy(&pos[np], &p))
                np++;
        }
        chk_pos_free(&p);
    }
    return np;
}

/* Prints the comparison's positions, one FEN a line. */
static int print_positions(void)
{
    static chk_pos pos[NPOS];
    char fen[128];
    chk_rules r;
    chk_rules_default(&r);
    chk_search *s = chk_search_new(0);
    if (!s)
        return 2;
    int np = compare_positions(&r, s, pos);
    for (int i = 0; i < np; i++) {
        chk_pos_fen(&pos[i], fen, sizeof fen);
        printf("%s\n", fen);
        chk_pos_free(&pos[i]);
    }
    chk_search_free(s);
    return 0;
}

static int compare(const char *feature, int64_t nodes)
{
    static chk_pos pos[NPOS];
    chk_rules r;
    chk_search_opts o[2] = { { 0 }, { 0 } };
    chk_search_info info;
    double mnps[2][ROUNDS];
    chk_rules_default(&r);
    if (set_feature(&o[0], feature, -1) || set_feature(&o[1], feature, 1)) {
        fprintf(stderr, "search_bench: no search switch or margin '%s' (%.*s)\n", feature,
                (int)sizeof feature_names - 3, feature_names);
        return 2;
    }
    chk_search *s = chk_search_new(0);
    if (!s)
        return 2;
    int np = compare_positions(&r, s, pos);
    for (int k = 0; k < 2; k++)
        o[k].nodes = nodes;
    for (int round = 0; round < ROUNDS; round++) {
        int64_t n[2] = { 0, 0 };
        double t[2] = { 0, 0 };
        for (int i = 0; i < np; i++) {
            for (int j = 0; j < 2; j++) {
                int k = (i + round + j) & 1;    /* alternate which one goes first */
                clock_t c0 = clock();
                chk_search_run(s, &pos[i], &o[k], &info);
                t[k] += (double)(clock() - c0) / CLOCKS_PER_SEC;
                n[k] += info.nodes;
            }
        }
        for (int k = 0; k < 2; k++)
            mnps[k][round] = t[k] > 0 ? (double)n[k] / t[k] / 1e6 : 0;
        printf("round %d: %s off %.3f Mnps, on %.3f Mnps\n", round + 1, feature, mnps[0][round],
               mnps[1][round]);
    }
    for (int k = 0; k < 2; k++)
        qsort(mnps[k], ROUNDS, sizeof mnps[k][0], cmp_double);
    printf("median of %d rounds, %d positions, %lld nodes each: %s off %.3f Mnps, on %.3f Mnps\n",
           ROUNDS, np, (long long)nodes, feature, mnps[0][ROUNDS / 2], mnps[1][ROUNDS / 2]);
    for (int i = 0; i < np; i++)
        chk_pos_free(&pos[i]);
    chk_search_free(s);
    return 0;
}

int main(int argc, char **argv)
{
    chk_rules r;
    chk_pos p;
    char err[256], buf[64];
    chk_search_opts o = { 0 };
    chk_search_info info;
    o.depth = 9;
    if (argc > 1 && !strcmp(argv[1], "positions"))
        return print_positions();
    if (argc > 2 && !strcmp(argv[1], "compare"))
        return compare(argv[2], argc > 3 ? atoll(argv[3]) : 20000);
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
