/*
 * tb_bench.c - the tablebase figures: build time and size on disk for every
 * table with up to PIECES pieces (default rules), then probes per second
 * from C on random covered positions, cold (a fresh tables object: each file
 * read on first use, each block decompressed on first touch) and warm. With
 * ONLY: builds that one signature (and its colour swap; the smaller tables
 * must be in DIR) and reports its time, size and peak memory, then the
 * probes of random positions of that signature, cold and warm.
 *
 * usage: tb_bench DIR PIECES [ONLY]
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "cheskers_tb.h"

#define SAMPLES 200000
#define ROUNDS 10
#define COLD 2000       /* the first probes of a fresh tables object */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int progress(void *ud, const chk_tb_progress *p)
{
    (void)ud;
    if (!p->skipped)
        printf("  %-10s %11llu entries %8.2f s\n", p->name, (unsigned long long)p->positions,
               p->seconds);
    return 0;
}

/* Bytes of the files in dir whose names contain part (NULL: all tables). */
static double dir_bytes(const char *dir, const char *part)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    double total = 0;
    char path[4096];
    struct stat sb;
    while (d && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".ctb") || (part && strncmp(e->d_name, part, strlen(part))))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &sb) == 0)
            total += (double)sb.st_size;
    }
    if (d)
        closedir(d);
    return total;
}

static unsigned long long rng_state = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

/* Puts a piece of colour and kind on a random free square (a pawn not on
 * its promotion rank). */
static void put_random(chk_pos *p, int color, int kind)
{
    int sq;
    do
        sq = (int)rnd(CHK_SQUARES);
    while (p->sq[sq] != CHK_NONE || (kind == CHK_PAWN && chk_sq_rank(sq) == (color ? 0 : 7)));
    chk_pos_put(p, sq, CHK_PIECE(color, kind));
}

/* A random position with two kings and up to pieces - 2 other pieces;
 * with sig ("KBCvKB"), one with exactly its pieces, either side to move
 * (so its table or its colour swap's). */
static void random_position(chk_pos *p, const chk_rules *r, int pieces, const char *sig)
{
    chk_pos_init(p, r);
    if (sig) {
        for (int color = 0; *sig; sig++) {
            const char *kinds = "PKBC", *k = strchr(kinds, *sig);
            if (*sig == 'v')
                color = 1;
            else if (k)
                put_random(p, color, (int)(k - kinds));
        }
    } else {
        int extra = (int)rnd((unsigned)pieces - 1);
        for (int i = 0; i < 2 + extra; i++)
            put_random(p, i < 2 ? i : (int)rnd(2), i < 2 ? CHK_KING : (int)rnd(4));
    }
    p->side = (uint8_t)rnd(2);
}

/* Probes n positions of pos; how many were covered (their distances
 * summed into *sum). */
static long probe_all(chk_tb *tb, const chk_pos *pos, int n, long *sum)
{
    long found = 0;
    int value, dist;
    for (int i = 0; i < n; i++)
        if (chk_tb_probe(tb, &pos[i], &value, &dist) == 1) {
            found++;
            *sum += dist;
        }
    return found;
}

static int probe_bench(const char *dir, const chk_rules *r, int pieces, const char *sig)
{
    char err[256];
    chk_tb *tb = chk_tb_open(dir, r, err, sizeof err);
    chk_pos *pos = malloc(SAMPLES * sizeof *pos);
    long found = 0, sum = 0;
    if (!tb || !pos)
        return fprintf(stderr, "tb_bench: %s\n", tb ? "out of memory" : err), 1;
    for (int i = 0; i < SAMPLES; i++)
        random_position(&pos[i], r, pieces, sig);
    double t0 = now();
    probe_all(tb, pos, COLD, &sum);
    double cold = now() - t0;
    probe_all(tb, pos + COLD, SAMPLES - COLD, &sum);
    double first = now() - t0;
    printf("cold: %.3f M probes/s (the first %d probes of a fresh tables object: each file read, "
           "each block decompressed on first touch); the whole first pass of %d: %.3f s\n",
           COLD / cold / 1e6, COLD, SAMPLES, first);
    t0 = now();
    for (int k = 0; k < ROUNDS; k++)
        found += probe_all(tb, pos, SAMPLES, &sum);
    double secs = now() - t0;
    char what[64];
    if (sig)
        snprintf(what, sizeof what, "of %s", sig);
    else
        snprintf(what, sizeof what, "with up to %d pieces", pieces);
    printf("warm: %.2f M probes/s (%d random positions %s, %ld%% covered; checksum %ld)\n",
           (double)SAMPLES * ROUNDS / secs / 1e6, SAMPLES, what,
           found * 100 / ((long)SAMPLES * ROUNDS), sum);
    free(pos);
    chk_tb_close(tb);
    return 0;
}

int main(int argc, char **argv)
{
    char err[256];
    chk_rules r;
    struct rusage ru;
    if (argc < 3)
        return fprintf(stderr, "usage: tb_bench DIR PIECES [ONLY]\n"), 2;
    chk_rules_default(&r);
    chk_tb_build_opts o = {.pieces = atoi(argv[2]), .progress = progress,
                           .only = argc > 3 ? argv[3] : NULL};
    double t0 = now();
    int rc = chk_tb_build(argv[1], &r, &o, err, sizeof err);
    double secs = now() - t0;
    if (rc)
        return fprintf(stderr, "tb_bench: %s\n", err), 1;
    getrusage(RUSAGE_SELF, &ru);
    if (o.only) {
        printf("%s and its swap: built in %.1f s, %.1f MB its file, peak memory %.0f MB\n", o.only, secs,
               dir_bytes(argv[1], o.only) / 1e6, ru.ru_maxrss / 1024.0);
        return probe_bench(argv[1], &r, o.pieces, o.only);
    }
    printf("build: up to %d pieces in %.1f s wall (%.1f s CPU), %.1f MB on disk, peak memory %.0f MB\n",
           o.pieces, secs, (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6,
           dir_bytes(argv[1], NULL) / 1e6, ru.ru_maxrss / 1024.0);
    return probe_bench(argv[1], &r, o.pieces, NULL);
}
