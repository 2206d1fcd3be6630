/*
 * status_check.c - the core's one status vocabulary (chk_status) and its
 * stop conditions (chk_stop: a flag, a deadline and a CPU deadline), checked
 * on every long call: perft, divide, search and the four solver calls stop with
 * CHK_STOPPED or CHK_TIMEOUT and leave the position exactly as it was; a
 * failed check stays failed; divide fills the counts of the root moves done;
 * a tablebase build stops with the same values (cheskers_tb.h).
 * Prints TAP. Built and run by tests/core/status_test.sh. Time bounds are
 * multiplied by CHESKERS_TIME_SCALE (sanitizer runs are slower).
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "cheskers.h"
#include "cheskers_tb.h"
#include "tap.h"

/* What must not change: the position text, hash and history length. */
typedef struct Snapshot {
    char fen[256];
    uint64_t hash;
    size_t nhist;
} Snapshot;

static Snapshot snap(const chk_pos *p)
{
    Snapshot s;
    memset(&s, 0, sizeof s);
    chk_pos_fen(p, s.fen, sizeof s.fen);
    s.hash = p->hash;
    s.nhist = p->nhist;
    return s;
}

static int same(const Snapshot *a, const Snapshot *b)
{
    return strcmp(a->fen, b->fen) == 0 && a->hash == b->hash && a->nhist == b->nhist;
}

/* Runs call number which on p under stop; returns its status (negative) or
 * a count / length (>= 0). */
static long long run(int which, chk_pos *p, chk_solver *sv, chk_search *se, chk_stop *stop)
{
    chk_move moves[CHK_MAX_MOVES], d;
    int64_t counts[CHK_MAX_MOVES];
    int lens[CHK_MAX_MOVES];
    chk_search_opts o;
    chk_search_info info;
    chk_gen_moves(p, moves);
    switch (which) {
    case 0: return chk_perft(p, 20, true, stop);
    case 1: return chk_perft(p, 20, false, stop);
    case 2: return chk_divide(p, 20, moves, counts, stop);
    case 3:
        memset(&o, 0, sizeof o);
        o.depth = 60;
        o.stop = stop;
        return chk_search_run(se, p, &o, &info);
    case 4: return chk_solve(sv, p, 15, NULL, stop);
    case 5: return chk_solve_moves(sv, p, 15, moves, lens, stop);
    case 6: return chk_solve_defend(sv, p, 15, &d, stop);
    default: return chk_solve_refute(sv, p, &moves[0], 15, &d, stop);
    }
}

static const char *const names[] = {
    "perft (bulk)", "perft (every move made)", "divide", "search",
    "solve", "solve_moves", "solve_defend", "solve_refute"
};

static double time_scale(void)
{
    const char *s = getenv("CHESKERS_TIME_SCALE");
    double x = s ? atof(s) : 0;
    return x > 0 ? x : 1;
}

static void every_call_stops(chk_pos *p, chk_solver *sv, chk_search *se)
{
    char what[128];
    double bound = 1.0 * time_scale();
    volatile sig_atomic_t flag = 1;
    for (int which = 0; which < 8; which++) {
        Snapshot before = snap(p);
        chk_stop stop = chk_stop_make(&flag, 0);
        long long rc = run(which, p, sv, se, &stop);
        Snapshot after = snap(p);
        snprintf(what, sizeof what, "%s: the flag gives CHK_STOPPED, position restored", names[which]);
        check(rc == CHK_STOPPED && same(&before, &after), what);

        double t0 = chk_clock();
        stop = chk_stop_make(NULL, t0 + 0.05);
        rc = run(which, p, sv, se, &stop);
        after = snap(p);
        snprintf(what, sizeof what, "%s: a deadline 0.05 s ahead gives CHK_TIMEOUT within 1 s, position restored",
                 names[which]);
        check(rc == CHK_TIMEOUT && chk_clock() - t0 < bound && same(&before, &after), what);

        double c0 = chk_cpu_clock();
        stop = chk_stop_make(NULL, 0);
        stop.cpu_deadline = c0 + 0.05;
        rc = run(which, p, sv, se, &stop);
        after = snap(p);
        double used = chk_cpu_clock() - c0;
        snprintf(what, sizeof what, "%s: a CPU deadline 0.05 s ahead gives CHK_TIMEOUT after 0.05 to 1 s of CPU, "
                 "position restored", names[which]);
        check(rc == CHK_TIMEOUT && used >= 0.05 && used < bound && same(&before, &after), what);
    }
}

static void sleep_seconds(double s)
{
    struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    while (nanosleep(&t, &t) != 0)
        ;
}

/* The CPU clock counts work, not waiting: a CPU deadline does not pass
 * while the process sleeps; a wall-clock deadline does. */
static void cpu_clock(void)
{
    double c0 = chk_cpu_clock(), t0 = chk_clock();
    volatile double x = 0;
    while (chk_clock() - t0 < 0.1)
        x += 1;
    double busy = chk_cpu_clock() - c0;
    check(busy > 0.01 && busy <= chk_clock() - t0 + 0.01, "chk_cpu_clock advances while working (not faster than the wall clock)");

    chk_stop cpu = chk_stop_make(NULL, 0), wall = chk_stop_make(NULL, chk_clock() + 0.05);
    cpu.cpu_deadline = chk_cpu_clock() + 0.05;
    c0 = chk_cpu_clock();
    sleep_seconds(0.2);
    check(chk_cpu_clock() - c0 < 0.05, "chk_cpu_clock hardly moves while the process sleeps 0.2 s");
    check(chk_stop_check(&cpu) == CHK_OK, "a CPU deadline 0.05 s ahead has not passed after sleeping 0.2 s");
    check(chk_stop_check(&wall) == CHK_TIMEOUT, "a wall-clock deadline 0.05 s ahead has");
}

static void stop_conditions(void)
{
    volatile sig_atomic_t flag = 0;
    chk_stop s = chk_stop_make(&flag, 0);
    check(chk_stop_check(NULL) == CHK_OK, "a NULL stop never stops");
    check(chk_stop_check(&s) == CHK_OK, "a clear flag and no deadline: CHK_OK");
    flag = 1;
    check(chk_stop_check(&s) == CHK_STOPPED, "a raised flag: CHK_STOPPED");
    flag = 0;
    check(chk_stop_check(&s) == CHK_STOPPED, "a failed check stays failed");
    s = chk_stop_make(NULL, chk_clock() - 1);
    check(chk_stop_check(&s) == CHK_TIMEOUT, "a deadline passed: the first check reads the clock");
    s = chk_stop_make(NULL, chk_clock() + 3600);
    int ok = 1;
    for (int i = 0; i < 5 * CHK_STOP_EVERY; i++)
        ok &= chk_stop_check(&s) == CHK_OK;
    check(ok, "a deadline an hour ahead: every check passes");
    double a = chk_clock(), b = chk_clock();
    check(b >= a && a > 0, "chk_clock does not go back");
}

static void status_names(void)
{
    static const int all[] = { CHK_OK, CHK_STOPPED, CHK_TIMEOUT, CHK_HOOK_ERROR, CHK_NO_MEMORY,
                               CHK_NODE_LIMIT, CHK_EVAL_ERROR, CHK_ABORTED, CHK_TB_ERROR,
                               CHK_BAD_OPTION };
    enum { N = sizeof all / sizeof *all };
    int distinct = 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < i; j++)
            distinct &= all[i] != all[j] && strcmp(chk_status_name(all[i]), chk_status_name(all[j])) != 0;
    check(distinct, "the statuses (the tablebases' included) and their names are all different");
    int negative = 1;
    for (int i = 1; i < N; i++)
        negative &= all[i] < 0 && strcmp(chk_status_name(all[i]), "?") != 0;
    check(negative, "every failure is negative (counts and lengths are not) and has a name");
    check(strcmp(chk_status_name(CHK_TIMEOUT), "timeout") == 0 && strcmp(chk_status_name(1), "?") == 0,
          "chk_status_name: \"timeout\"; \"?\" for no status");
}

/* A filter hook that keeps every move and raises the flag on call number
 * raise_at: a stop in the middle of a count. */
typedef struct Raiser {
    volatile sig_atomic_t flag;
    int calls, raise_at;
} Raiser;

static int raising_filter(void *ud, const chk_pos *p, const chk_move *m)
{
    Raiser *r = ud;
    (void)p;
    (void)m;
    if (++r->calls == r->raise_at)
        r->flag = 1;
    return 1;
}

/* divide stopped in the middle keeps the counts of the root moves done. */
static void divide_keeps_counts(const chk_rules *base)
{
    chk_rules r = *base;
    chk_pos p;
    chk_move moves[CHK_MAX_MOVES];
    int64_t counts[CHK_MAX_MOVES], full[CHK_MAX_MOVES];
    Raiser raiser = { 0, 0, 0 };
    r.filter = raising_filter;
    r.hook_ud = &raiser;
    chk_pos_start(&p, &r);
    int n = chk_divide(&p, 3, moves, full, NULL);
    /* docs/reference/rules.md: 9 moves and 652 sequences of 3 plies from the start */
    int64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += full[i];
    check(n == 9 && sum == 652, "divide 3 from the start (a filter keeping every move): 9 root moves, 652 in all");
    for (int i = 0; i < CHK_MAX_MOVES; i++)
        counts[i] = -1;
    raiser.calls = 0;
    raiser.raise_at = raiser.calls + 300;   /* about a third of the way */
    chk_stop stop = chk_stop_make(&raiser.flag, 0);
    Snapshot before = snap(&p);
    int rc = chk_divide(&p, 3, moves, counts, &stop);
    Snapshot after = snap(&p);
    int done = 0;
    while (done < 9 && counts[done] >= 0)
        done++;
    int ok = rc == CHK_STOPPED && done > 0 && done < 9 && same(&before, &after);
    for (int i = 0; i < 9; i++)
        ok &= i < done ? counts[i] == full[i] : counts[i] == -1;
    check(ok, "divide stopped half-way: the root moves done have their full counts, the others none");
    chk_pos_free(&p);
}

/* Progress that asks the build to stop after the first table. */
static int stop_at_once(void *ud, const chk_tb_progress *pr)
{
    (void)ud;
    (void)pr;
    return 1;
}

/* Removes the folder path and the files in it. */
static void remove_folder(const char *path)
{
    char file[600];
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            unlink(file);
        }
    if (d)
        closedir(d);
    rmdir(path);
}

/* A tablebase build ends with the statuses of every long call: the raised
 * flag gives CHK_STOPPED, progress asking to stop CHK_ABORTED (as a
 * search's info callback does), a build that cannot be done CHK_TB_ERROR
 * with a message. */
static void tablebase_build_stops(const chk_rules *r)
{
    char path[512], err[256] = "";
    const char *tmpdir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/status_check_XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (mkdtemp(path) == NULL) {
        check(0, "a scratch folder for the tablebase builds");
        return;
    }
    volatile sig_atomic_t flag = 1;
    chk_tb_build_opts o = { .pieces = 2, .threads = 1, .stop = &flag };
    int rc = chk_tb_build(path, r, &o, err, sizeof err);
    check(rc == CHK_STOPPED, "tablebase build: the raised flag gives CHK_STOPPED");
    flag = 0;
    o.progress = stop_at_once;
    rc = chk_tb_build(path, r, &o, err, sizeof err);
    check(rc == CHK_ABORTED, "tablebase build: progress asking to stop gives CHK_ABORTED");
    o.progress = NULL;
    o.pieces = 1;
    rc = chk_tb_build(path, r, &o, err, sizeof err);
    check(rc == CHK_TB_ERROR && strstr(err, "pieces") != NULL,
          "tablebase build: pieces = 1 gives CHK_TB_ERROR with a message");
    remove_folder(path);
}

/* chk_search_run refuses an option out of its range with CHK_BAD_OPTION
 * before searching: a margin of INT_MAX would overflow (margin * depth), a
 * depth past CHK_MAX_PLY - 1 or an infinite or NaN time never end. */
static void search_options_in_range(chk_pos *p, chk_search *se)
{
    static const struct { const char *what; chk_search_opts o; } bad[] = {
        { "rfp_margin 2^31 - 1", { .depth = 2, .rfp_margin = 2147483647 } },
        { "fp_margin CHK_SEARCH_MAX_MARGIN + 1", { .depth = 2, .fp_margin = CHK_SEARCH_MAX_MARGIN + 1 } },
        { "rfp_margin -1", { .depth = 2, .rfp_margin = -1 } },
        { "depth CHK_MAX_PLY", { .depth = CHK_MAX_PLY } },
        { "depth -1", { .depth = -1 } },
        { "nodes -1", { .nodes = -1 } },
        { "seconds infinite", { .seconds = 1e308 * 10 } },
        { "seconds NaN", { .seconds = 0.0 / 0.0 } },
        { "info_every -1", { .depth = 2, .info_every = -1 } },
    };
    char what[128];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        chk_search_info info;
        Snapshot before = snap(p);
        double t0 = chk_clock();
        int rc = chk_search_run(se, p, &bad[i].o, &info);
        Snapshot after = snap(p);
        snprintf(what, sizeof what, "search: %s gives CHK_BAD_OPTION at once, nothing searched", bad[i].what);
        check(rc == CHK_BAD_OPTION && info.nodes == 0 && same(&before, &after) && chk_clock() - t0 < 1.0, what);
    }
    chk_search_opts edge = { .depth = 2, .rfp_margin = CHK_SEARCH_MAX_MARGIN, .fp_margin = CHK_SEARCH_MAX_MARGIN };
    chk_search_info info;
    check(chk_search_run(se, p, &edge, &info) == CHK_OK && info.depth == 2,
          "search: the margins at CHK_SEARCH_MAX_MARGIN search normally");
}

int main(void)
{
    chk_rules r;
    chk_pos p;
    chk_rules_default(&r);
    chk_pos_start(&p, &r);
    chk_solver *sv = chk_solver_new(1 << 20);
    chk_search *se = chk_search_new(1 << 20);
    if (sv == NULL || se == NULL) {
        printf("not ok 1 - out of memory\n1..1\n");
        return 1;
    }
    stop_conditions();
    cpu_clock();
    status_names();
    every_call_stops(&p, sv, se);
    divide_keeps_counts(&r);
    tablebase_build_stops(&r);
    search_options_in_range(&p, se);
    chk_solver_free(sv);
    chk_search_free(se);
    chk_pos_free(&p);
    return tap_done();
}
