/*
 * tb_bench.c - the tablebase figures: build time and size on disk for every
 * table with up to PIECES pieces (default rules), then probes per second
 * from C on random covered positions. With ONLY: builds that one signature
 * (and its colour swap; the smaller tables must be in DIR) and reports its
 * time, size and peak memory, for the 5-piece estimates.
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

/* A random position with two kings and up to pieces - 2 other pieces. */
static void random_position(chk_pos *p, const chk_rules *r, int pieces)
{
    chk_pos_init(p, r);
    int extra = (int)rnd((unsigned)pieces - 1);
    for (int i = 0; i < 2 + extra; i++) {
        int color = i < 2 ? i : (int)rnd(2), kind = i < 2 ? CHK_KING : (int)rnd(4), sq;
        do
            sq = (int)rnd(CHK_SQUARES);
        while (p->sq[sq] != CHK_NONE || (kind == CHK_PAWN && chk_sq_rank(sq) == (color ? 0 : 7)));
        chk_pos_put(p, sq, CHK_PIECE(color, kind));
    }
    p->side = (uint8_t)rnd(2);
}

static int probe_bench(const char *dir, const chk_rules *r, int pieces)
{
    char err[256];
    chk_tb *tb = chk_tb_open(dir, r, err, sizeof err);
    chk_pos *pos = malloc(SAMPLES * sizeof *pos);
    long found = 0, sum = 0;
    int value, dist;
    if (!tb || !pos)
        return fprintf(stderr, "tb_bench: %s\n", tb ? "out of memory" : err), 1;
    for (int i = 0; i < SAMPLES; i++)
        random_position(&pos[i], r, pieces);
    double t0 = now();
    for (int i = 0; i < SAMPLES; i++)     /* every file read once (and checked) */
        chk_tb_probe(tb, &pos[i], &value, &dist);
    printf("first pass: %.3f s (every file read into memory and checked, %d probes)\n",
           now() - t0, SAMPLES);
    t0 = now();
    for (int k = 0; k < ROUNDS; k++)
        for (int i = 0; i < SAMPLES; i++)
            if (chk_tb_probe(tb, &pos[i], &value, &dist) == 1) {
                found++;
                sum += dist;
            }
    double secs = now() - t0;
    printf("probe: %.2f M probes/s (%d random positions with up to %d pieces, %ld%% covered; checksum %ld)\n",
           (double)SAMPLES * ROUNDS / secs / 1e6, SAMPLES, pieces,
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
        return 0;
    }
    printf("build: up to %d pieces in %.1f s wall (%.1f s CPU), %.1f MB on disk, peak memory %.0f MB\n",
           o.pieces, secs, (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6,
           dir_bytes(argv[1], NULL) / 1e6, ru.ru_maxrss / 1024.0);
    return probe_bench(argv[1], &r, o.pieces);
}
