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
 * With "resources" for PIECES: checks what the tables' code does with the
 * process's resources instead (see resources() below): threads, memory,
 * no mappings, a failed allocation, the file names it takes for tables.
 * Prints TAP lines (no plan). Built and run by tests/core/tb_test.sh.
 *
 * usage: tb_check DIR PIECES "RULE OPTIONS" [SOLVE_EVERY]
 *        tb_check DIR resources
 */
#define _GNU_SOURCE     /* RTLD_NEXT, mallinfo2 */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cheskers_tb.h"
#include "tb_internal.h"   /* sizeof(tb_layout), for a failed allocation */

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

/* ---- resources --------------------------------------------------------- */

/* This program's pthread_create, malloc and realloc stand in for the C
 * library's (the core is linked in statically, so its calls come here):
 * they count the threads started, and make an allocation of one size (a
 * malloc, or a realloc from NULL) fail on demand. The sizes told apart
 * (core/board.c, core/tb_build.c): a position's history (8 entries of
 * chk_undo at first), a worker's list of positions found at a level (1024 indexes
 * of 8 bytes), the list of signatures to build (one tb_layout for 2
 * pieces), a worker's move list (CHK_MAX_MOVES moves). */
static int threads_started;
static size_t fail_size;
#define HISTORY_SIZE (8 * sizeof(chk_undo))
#define FOUND_SIZE   (1024 * sizeof(uint64_t))
#define LAYOUTS_SIZE sizeof(tb_layout)
#define MOVES_SIZE   (CHK_MAX_MOVES * sizeof(chk_move))

int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
    static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
    __atomic_add_fetch(&threads_started, 1, __ATOMIC_SEQ_CST);
    return real(t, a, fn, arg);
}

void *malloc(size_t size)
{
    static void *(*real)(size_t);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "malloc");
    if (fail_size && size == fail_size)
        return NULL;
    return real(size);
}

void *realloc(void *ptr, size_t size)
{
    static void *(*real)(void *, size_t);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "realloc");
    if (fail_size && !ptr && size == fail_size)
        return NULL;
    return real(ptr, size);
}

static int resource_failures;

static void tap(bool ok, const char *what)
{
    printf("%s - %s\n", ok ? "ok" : "not ok", what);
    resource_failures += !ok;
}

static int build_default(const char *dir, int pieces, int threads, char *err, size_t errlen)
{
    chk_rules r;
    chk_rules_default(&r);
    chk_tb_build_opts o = {.pieces = pieces, .threads = threads};
    return chk_tb_build(dir, &r, &o, err, errlen);
}

/* The lines of /proc/self/maps that name a file under dir. */
static int mapped_under(const char *dir)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[PATH_MAX + 128];
    int n = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        n += strstr(line, dir) != NULL;
    fclose(f);
    return n;
}

/* threads 0 is one per online core (the calling thread being one of
 * them), threads 1 none started. */
static void check_threads(const char *dir)
{
    char sub[PATH_MAX + 16], err[256], what[160];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    threads_started = 0;
    snprintf(sub, sizeof sub, "%s/threads0", dir);
    int rc0 = build_default(sub, 2, 0, err, sizeof err), t0 = threads_started;
    threads_started = 0;
    snprintf(sub, sizeof sub, "%s/threads1", dir);
    int rc1 = build_default(sub, 2, 1, err, sizeof err), t1 = threads_started;
    snprintf(what, sizeof what, "threads 0 starts threads on %ld cores (%d), threads 1 none (%d)",
             cores, t0, t1);
    tap(rc0 == 0 && rc1 == 0 && (cores > 1 ? t0 > 0 : t0 == 0) && t1 == 0, what);
}

/* An allocation that fails fails the build, with the reason, and leaves
 * nothing held: a chk_make that cannot grow its history, a level that
 * cannot list what it found, the list of signatures, a worker's moves. */
static void check_no_memory(const char *dir)
{
    static const struct { size_t size; const char *what; } cases[] = {
        {HISTORY_SIZE, "a failed allocation (a history) fails the build"},
        {FOUND_SIZE, "a failed allocation (a level's finds) fails the build"},
        {LAYOUTS_SIZE, "a failed allocation (the signatures) fails the build"},
        {MOVES_SIZE, "a failed allocation (a worker's move list) fails the build"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char sub[PATH_MAX + 16], err[256] = "", what[192];
        snprintf(sub, sizeof sub, "%s/nomem%zu", dir, i);
        size_t before = mallinfo2().uordblks;
        fail_size = cases[i].size;
        int rc = build_default(sub, 2, 1, err, sizeof err);
        fail_size = 0;
        size_t after = mallinfo2().uordblks;
        snprintf(what, sizeof what, "%s: %s; nothing held (%zu bytes in use, then %zu)",
                 cases[i].what, err, before, after);
        tap(rc == CHK_NO_MEMORY && !strcmp(err, "out of memory") && after == before, what);
    }
}

/* Names with up to CHK_TB_MAX_PIECES (6) pieces are tables, 7 are not. */
static void check_names(const char *dir)
{
    char sub[PATH_MAX + 16], path[PATH_MAX + 64], suffix[64] = "", err[256];
    chk_rules r;
    chk_rules_default(&r);
    snprintf(sub, sizeof sub, "%s/names", dir);
    int rc = build_default(sub, 2, 1, err, sizeof err);
    DIR *d = opendir(sub);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (!strncmp(e->d_name, "KvK.", 4))
            snprintf(suffix, sizeof suffix, "%s", e->d_name + 3);   /* ".xxxxxxxx.ctb" */
    if (d)
        closedir(d);
    static const char *const names[] = {"KPPPvKP", "KPPPPvKP", "KBCvKBC"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s%s", sub, names[i], suffix);
        FILE *f = fopen(path, "w");
        if (f)
            fclose(f);
    }
    chk_tb *tb = chk_tb_open(sub, &r, err, sizeof err);
    int n = tb ? chk_tb_count(tb) : -1;
    chk_tb_close(tb);
    /* K v K, and the two 6-piece names; not the 7-piece one */
    tap(rc == 0 && suffix[0] && n == 3, "file names of up to 6 pieces are tables, of 7 not");
}

/* A probed table is read into memory, never mapped (a file copied over a
 * mapped one kills the process with SIGBUS), and chk_tb_close frees it. */
static void check_unmapped(const char *dir)
{
    char sub[PATH_MAX + 16], err[256], what[160];
    chk_rules r;
    chk_pos p;
    chk_rules_default(&r);
    snprintf(sub, sizeof sub, "%s/threads1", dir);
    chk_pos_init(&p, &r);
    size_t before = mallinfo2().uordblks;
    chk_tb *tb = chk_tb_open(sub, &r, err, sizeof err);
    int value = -1, dist = -1;
    /* Ka1 v kc3, White to move: a1-b2 is the only move, c3xa1 (by hand) */
    int rc = chk_pos_set_fen(&p, "8/8/8/8/8/2k5/8/K7 w", NULL, 0) == 0 && tb
                 ? chk_tb_probe(tb, &p, &value, &dist) : -1;
    int maps = mapped_under(sub);
    size_t held = mallinfo2().uordblks;     /* (0 under AddressSanitizer: its own allocator) */
    chk_tb_close(tb);
    size_t after = mallinfo2().uordblks;
    chk_pos_free(&p);
    snprintf(what, sizeof what, "a probed table is read, not mapped (%d mappings), "
             "and freed when closed (%zu bytes, then %zu more)", maps, held - before, after - before);
    tap(rc == 1 && value == CHK_TB_LOSS && dist == 2 && maps == 0 && after == before, what);
}

/* A build holds no memory once it returns: one that writes its table,
 * one that finds it on disk. */
static void check_memory(const char *dir)
{
    char sub[PATH_MAX + 16], err[256], what[128];
    snprintf(sub, sizeof sub, "%s/memory0", dir);
    int rc = build_default(sub, 2, 1, err, sizeof err);        /* once: what stays for good */
    snprintf(sub, sizeof sub, "%s/memory", dir);
    size_t before = mallinfo2().uordblks;
    rc |= build_default(sub, 2, 1, err, sizeof err);
    rc |= build_default(sub, 2, 1, err, sizeof err);
    size_t after = mallinfo2().uordblks;
    snprintf(what, sizeof what, "builds hold no memory after they return (%zu bytes in use, then %zu)",
             before, after);
    tap(rc == 0 && after == before, what);
}

/* The progress reports of a build: pieces then pawns never go down (the
 * order docs/guide/tables.md gives: a capture leads to fewer pieces, a
 * promotion to fewer pawns). The build stops at the first 4-piece
 * signature with a pawn: every other signature of up to 4 pieces without
 * one more pawn was reported before it. Counted by hand (a king each, the
 * other pieces of the kinds K B C): K v K; 3 pieces: 3 kinds x 2 sides = 6;
 * 4 pieces: 6 pairs for White alone, 6 for Black alone, 3 x 3 split = 21;
 * then KP v K and K v KP: 30 before it, so it is the 31st. */
typedef struct order_seen {
    int last, units, bad;
    char first_bad[24];
} order_seen;

static int order_progress(void *ud, const chk_tb_progress *pr)
{
    order_seen *o = ud;
    int pieces = 0, pawns = 0;
    for (const char *c = pr->name; *c; c++) {
        pieces += *c != 'v' && *c != ' ';
        pawns += *c == 'P';
    }
    int rank = pieces * 16 + pawns;
    if (rank < o->last && !o->bad++)
        snprintf(o->first_bad, sizeof o->first_bad, "%s", pr->name);
    o->last = rank;
    o->units++;
    return pieces == 4 && pawns > 0;
}

static void check_build_order(const char *dir)
{
    char sub[PATH_MAX + 16], err[256], what[160];
    chk_rules r;
    order_seen seen = {0};
    chk_rules_default(&r);
    snprintf(sub, sizeof sub, "%s/order", dir);
    chk_tb_build_opts o = {.pieces = 4, .progress = order_progress, .progress_ud = &seen};
    int rc = chk_tb_build(sub, &r, &o, err, sizeof err);
    snprintf(what, sizeof what, "build order: pieces, then pawns (%d signatures, first out of order: %s)",
             seen.units, seen.bad ? seen.first_bad : "none");
    tap(rc == CHK_ABORTED && !seen.bad && seen.units == 31, what);
}

static int resources(const char *dir)
{
    char real[PATH_MAX];
    if (mkdir(dir, 0777) < 0 || !realpath(dir, real))
        return printf("not ok - resources: cannot make %s\n", dir), 1;
    check_threads(real);
    check_no_memory(real);
    check_names(real);
    check_unmapped(real);
    check_memory(real);
    check_build_order(real);
    return resource_failures != 0;
}

int main(int argc, char **argv)
{
    char err[256];
    chk_rules r;
    if (argc == 3 && !strcmp(argv[2], "resources")) {
        /* blocks freed into the thread cache count as in use in mallinfo2:
         * run again with no such cache */
        const char *t = getenv("GLIBC_TUNABLES");
        if (!t || !strstr(t, "glibc.malloc.tcache_count=0")) {
            char tunables[512];
            snprintf(tunables, sizeof tunables, "%s%sglibc.malloc.tcache_count=0", t ? t : "",
                     t && *t ? ":" : "");
            setenv("GLIBC_TUNABLES", tunables, 1);
            execv("/proc/self/exe", argv);
        }
        return resources(argv[1]);
    }
    walk *w = calloc(1, sizeof *w);
    if (argc < 4 || !w)
        return fprintf(stderr, "usage: tb_check DIR PIECES \"RULE OPTIONS\" [SOLVE_EVERY]\n"
                               "       tb_check DIR resources\n"), 2;
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
