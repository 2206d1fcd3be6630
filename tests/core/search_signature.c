/*
 * search_signature.c - the engine's pinned signature and perft with every
 * move made (chk_perft without bulk counting). Built and run by
 * tests/core/search_signature_test.sh, which compares its output with
 * tests/data/search_signature.txt and with the perft numbers of
 * docs/reference/rules.md.
 *
 *   search_signature signature   one line per fixed search: rules, position,
 *                                depth, then the nodes, best move and score;
 *                                then one line per fixed solve (solve,
 *                                solve_moves, defend): its result and nodes
 *   search_signature perft RULES FEN DEPTH...
 *                                "bulk=N made=M" for each depth: perft
 *                                with and without bulk counting
 *   search_signature kinds       C API edges of chk_rules_set_kind that the
 *                                Lua binding never reaches (it passes
 *                                upper-case letters only): one line each
 *   search_signature tb-only DIR SIG
 *                                chk_tb_build of one signature (opts.only)
 *                                that does not exist: its status and message
 *   search_signature tb-fds DIR  the open file descriptors before and after
 *                                building the 2-piece tables in DIR (and
 *                                the build's message when it fails)
 *   search_signature tb-stdin DIR
 *                                a probe of the 2-piece tables in DIR with
 *                                descriptor 0 closed, then chk_tb_info_get
 *                                out of range: its status and message
 *   search_signature tb-search DIR
 *                                builds the 2-piece tables in DIR and
 *                                searches a covered root with them: the
 *                                tables' answer (score and line)
 *   search_signature weight-names
 *                                chk_weight_name out of range (below and
 *                                past the last weight; the test builds
 *                                core/eval.c with AddressSanitizer for it,
 *                                so that a read past the names is seen)
 *   search_signature search-new  chk_search_new with a table too large to
 *                                allocate, many times: whether it fails
 *                                cleanly, keeping no memory
 *
 * Fixed searches (a depth limit, no time limit) depend only on the position
 * and the options (core/cheskers.h, chk_search_run), so the signature is the
 * same on every machine and build; it changes only when search behaviour
 * does (as a chess engine's bench command shows).
 */
#include <dirent.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cheskers.h"
#include "cheskers_tb.h"
#include "internal.h"       /* chk__hash_after, chk__gen_tactical_fast */

typedef struct Fixed {
    const char *rules;      /* rules text, "" for the defaults */
    const char *fen;
    int depth;
} Fixed;

/* Positions with different material and phases; depths chosen so that the
 * whole list takes well under a second. */
static const Fixed FIXED[] = {
    { "", "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1", 7 },
    { "", "1c1k1k1b/p1p1p1p1/1p3p2/6p1/3P3P/P3P3/3P1P1P/B1K1K1C1 b 0 4", 6 },
    { "", "1c1k1k2/p3p3/1p1p3p/4b3/3P4/P3P3/3K1P2/2K3C1 w 0 9", 6 },
    { "", "3k1k2/8/1p3p2/2P5/8/4P3/3K4/2B5 w 3 20", 7 },
    { "", "8/8/7p/8/3k4/2P5/8/K7 w 0 1", 4 },
    { "majority=false", "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1", 6 },
    { "capture=jumps majority=false flying_kings=true",
      "3k1k2/p7/1p1p4/8/3P4/P7/3K1K2/8 b 0 12", 6 },
};

static int setup(chk_rules *r, chk_pos *p, const char *rules, const char *fen)
{
    char err[256];
    chk_rules_default(r);
    if ((*rules && chk_rules_parse(r, rules, err, sizeof err)) || chk_rules_finish(r, err, sizeof err)) {
        fprintf(stderr, "bad rules '%s': %s\n", rules, err);
        return -1;
    }
    chk_pos_init(p, r);
    if (chk_pos_set_fen(p, fen, err, sizeof err)) {
        fprintf(stderr, "bad position '%s': %s\n", fen, err);
        return -1;
    }
    return 0;
}

/* Fixed solves: the solver's node counts show any change of its pruning or
 * ordering, as the search's do. Each runs on a fresh solver (an empty
 * table). */
static const Fixed SOLVES[] = {
    { "", "3k1k2/8/1p3p2/2P5/8/4P3/3K4/2B5 w 3 20", 5 },
    { "", "1c1k1k2/p3p3/1p1p3p/4b3/3P4/P3P3/3K1P2/2K3C1 w 0 9", 4 },
    { "", "8/8/7p/8/3k4/2P5/8/K7 w 0 1", 2 },
    { "", "7k/8/8/2p1p3/8/2P5/8/K7 w 0 1", 4 },
    { "capture=jumps majority=false flying_kings=true", "3k1k2/p7/1p1p4/8/3P4/P7/3K1K2/8 b 0 12", 4 },
};

static int solve_line(const Fixed *f, int which)
{
    static const char *const names[] = { "solve", "solve_moves", "defend" };
    chk_rules r;
    chk_pos p;
    chk_move moves[CHK_MAX_MOVES], m;
    int lens[CHK_MAX_MOVES];
    char text[64] = "-";
    chk_solver *sv = chk_solver_new(1 << 20);
    if (!sv || setup(&r, &p, f->rules, f->fen))
        return 1;
    memset(&m, 0, sizeof m);
    int rc = which == 0 ? chk_solve(sv, &p, f->depth, &m, NULL)
             : which == 1 ? chk_solve_moves(sv, &p, f->depth, moves, lens, NULL)
                          : chk_solve_defend(sv, &p, f->depth, &m, NULL);
    if (which == 1 && rc > 0)
        m = moves[0];
    if ((which != 1 || rc > 0) && m.npath > 0)
        chk_move_text(&p, &m, text, sizeof text);
    printf("%s | %s | %s %d | result %d move %s nodes %llu\n", *f->rules ? f->rules : "golomb",
           f->fen, names[which], f->depth, rc, text, (unsigned long long)chk_solver_nodes(sv));
    chk_pos_free(&p);
    chk_solver_free(sv);
    return 0;
}

static int signature(void)
{
    chk_search *se = chk_search_new(0);
    if (!se)
        return 1;
    for (size_t i = 0; i < sizeof FIXED / sizeof FIXED[0]; i++) {
        chk_rules r;
        chk_pos p;
        chk_search_opts o;
        chk_search_info info;
        char move[64] = "-";
        if (setup(&r, &p, FIXED[i].rules, FIXED[i].fen))
            return 1;
        memset(&o, 0, sizeof o);
        o.depth = FIXED[i].depth;
        int rc = chk_search_run(se, &p, &o, &info);
        if (info.npv > 0)
            chk_move_text(&p, &info.pv[0], move, sizeof move);
        printf("%s | %s | depth %d | status %d nodes %lld move %s score %d\n",
               *FIXED[i].rules ? FIXED[i].rules : "golomb", FIXED[i].fen, FIXED[i].depth, rc,
               (long long)info.nodes, move, info.score);
        chk_pos_free(&p);
    }
    chk_search_free(se);
    for (size_t i = 0; i < sizeof SOLVES / sizeof SOLVES[0]; i++)
        for (int which = 0; which < 3; which++)
            if (solve_line(&SOLVES[i], which))
                return 1;
    return 0;
}

static int perft(int argc, char **argv)
{
    chk_rules r;
    chk_pos p;
    if (argc < 5 || setup(&r, &p, strcmp(argv[2], "golomb") ? argv[2] : "", argv[3]))
        return 2;
    for (int i = 4; i < argc; i++) {
        int d = atoi(argv[i]);
        long long bulk = (long long)chk_perft(&p, d, true, NULL);
        long long made = (long long)chk_perft(&p, d, false, NULL);
        printf("bulk=%lld made=%lld\n", bulk, made);
    }
    chk_pos_free(&p);
    return 0;
}

/* Every move of the tree below p to depth d: chk__hash_after(p, m) must be
 * the hash chk_make leaves (and the hash counted from the pieces). Adds the
 * moves tried to *moves and the disagreements to *bad. */
/* Where the side to move has no jump under fast_count rules,
 * chk__gen_tactical_fast must give the captures and promotions of
 * chk__gen_all's list, in its order (the quiescence search uses it). */
static long long tactical_lists, tactical_bad;

static void tactical_check(const chk_pos *p)
{
    chk_move all[CHK_MAX_MOVES], tac[CHK_MAX_MOVES];
    if (!p->rules->fast_count || chk__diagonal_jumpers(p, p->side))
        return;
    int n = chk__gen_all(p, all, false), nt = chk__gen_tactical_fast(p, tac), j = 0;
    bool same = true;
    for (int i = 0; i < n; i++) {
        if (!all[i].captures && all[i].promo == CHK_NONE)
            continue;
        same = same && j < nt && !memcmp(&all[i], &tac[j], sizeof all[i]);
        j++;
    }
    tactical_lists++;
    tactical_bad += !same || j != nt;
}

static void hash_after_walk(chk_pos *p, int d, long long *moves, long long *bad)
{
    chk_move list[CHK_MAX_MOVES];
    int n = chk_gen_moves(p, list);
    tactical_check(p);
    for (int i = 0; i < n; i++) {
        uint64_t want = chk__hash_after(p, &list[i]);
        chk_make(p, &list[i]);
        ++*moves;
        *bad += p->hash != want || chk_pos_hash_full(p) != want;
        if (d > 1)
            hash_after_walk(p, d - 1, moves, bad);
        chk_unmake(p);
    }
}

static int hash_after(int argc, char **argv)
{
    chk_rules r;
    chk_pos p;
    long long moves = 0, bad = 0;
    if (argc < 5 || setup(&r, &p, strcmp(argv[2], "golomb") ? argv[2] : "", argv[3]))
        return 2;
    hash_after_walk(&p, atoi(argv[4]), &moves, &bad);
    printf("%lld moves, %lld hashes differ; %lld tactical lists, %lld differ\n", moves, bad,
           tactical_lists, tactical_bad);
    chk_pos_free(&p);
    return 0;
}

/* A new kind named by a lower-case letter is the upper-case kind (the
 * letter's case is the colour in position text); a non-letter is refused. */
static int kinds(void)
{
    static const int8_t diag[1][2] = { { 1, 1 } };
    chk_rules r;
    char err[256] = "";
    chk_rules_default(&r);
    int rc = chk_rules_set_kind(&r, 'n', CHK_STYLE_TAKE, false, diag, 1, NULL, 0, err, sizeof err);
    int fin = rc ? -1 : chk_rules_finish(&r, err, sizeof err);
    printf("n: set %d finish %d kind of N %d kind of n %d letter %c\n", rc, fin,
           chk_rules_kind(&r, 'N'), chk_rules_kind(&r, 'n'),
           chk_rules_kind(&r, 'N') >= 0 ? r.kinds[chk_rules_kind(&r, 'N')].letter : '-');
    chk_rules_default(&r);
    rc = chk_rules_set_kind(&r, '1', CHK_STYLE_TAKE, false, diag, 1, NULL, 0, err, sizeof err);
    printf("1: set %d: %s\n", rc, err);
    return 0;
}

/* Default rules and a build of the tables up to 2 pieces on one thread. */
static void small_build(chk_rules *r, chk_tb_build_opts *o)
{
    chk_rules_default(r);
    memset(o, 0, sizeof *o);
    o->pieces = 2;
    o->threads = 1;
}

/* A build of one signature (2 pieces at most, one thread) in dir. */
static int tb_only(const char *dir, const char *sig)
{
    chk_rules r;
    chk_tb_build_opts o;
    char err[256] = "";
    small_build(&r, &o);
    o.only = sig;
    int rc = chk_tb_build(dir, &r, &o, err, sizeof err);
    printf("%s: %s: %s\n", sig, rc == CHK_TB_ERROR ? "error" : rc == 0 ? "built" : "other", err);
    return 0;
}

/* The number of this process's open file descriptors (Linux), or -1. */
static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    if (!d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

static int tb_fds(const char *dir)
{
    chk_rules r;
    chk_tb_build_opts o;
    char err[PATH_MAX + 64] = "";     /* the message names a file of dir */
    small_build(&r, &o);
    int before = open_fds();
    int rc = chk_tb_build(dir, &r, &o, err, sizeof err);
    int after = open_fds();
    printf("build %d%s%s%s, descriptors %s\n", rc, rc ? " (" : "", rc ? err : "", rc ? ")" : "",
           before >= 0 && before == after ? "all closed" : "left open");
    return 0;
}

/* Reading tables with descriptor 0 free (standard input closed, so the
 * table file is opened as 0): the value of Ka1 v kc3, White to move; then
 * chk_tb_info_get out of range, below and above. dir holds the 2-piece
 * tables. */
static int tb_stdin(const char *dir)
{
    chk_rules r;
    chk_pos p;
    char err[256] = "";
    int value = 0, dist = -1;
    chk_rules_default(&r);
    chk_tb *tb = chk_tb_open(dir, &r, err, sizeof err);
    if (!tb) {
        printf("open: %s\n", err);
        return 0;
    }
    chk_pos_init(&p, &r);
    close(0);
    if (chk_pos_set_fen(&p, "8/8/8/8/8/2k5/8/K7 w", err, sizeof err) < 0)
        printf("fen: %s\n", err);
    int rc = chk_tb_probe(tb, &p, &value, &dist);
    printf("probe %d: %s %d%s%s\n", rc, value == CHK_TB_LOSS ? "loss" : "other", dist,
           rc < 0 ? " " : "", rc < 0 ? chk_tb_error(tb) : "");
    chk_tb_info in;
    int n = chk_tb_count(tb);
    rc = chk_tb_info_get(tb, -1, &in);
    printf("info -1: %d %s\n", rc, chk_tb_error(tb));
    rc = chk_tb_info_get(tb, n, &in);
    printf("info %d of %d: %d %s\n", n, n, rc, chk_tb_error(tb));
    chk_pos_free(&p);
    chk_tb_close(tb);
    return 0;
}

/* A covered root answered by the tables: White Ke5, Black kh8, White to
 * move (the tables of DIR are built first, 2 pieces). */
static int tb_search(const char *dir)
{
    chk_rules r;
    chk_pos p;
    chk_tb_build_opts bo;
    chk_search_opts o;
    chk_search_info info;
    char err[256] = "", line[256] = "";
    memset(&bo, 0, sizeof bo);
    bo.pieces = 2;
    bo.threads = 1;
    if (setup(&r, &p, "", "7k/8/8/4K3/8/8/8/8 w 0 1"))
        return 1;
    chk_tb *tb = chk_tb_build(dir, &r, &bo, err, sizeof err) ? NULL : chk_tb_open(dir, &r, err, sizeof err);
    chk_search *se = chk_search_new(0);
    if (!tb || !se) {
        printf("tables: %s\n", tb ? "no memory" : err);
        return 1;
    }
    memset(&o, 0, sizeof o);
    o.depth = 2;
    o.tb = tb;
    int rc = chk_search_run(se, &p, &o, &info);
    int made = 0;
    for (int i = 0; i < info.npv; i++) {
        char move[64];
        chk_move_text(&p, &info.pv[i], move, sizeof move);
        snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s", i ? " " : "", move);
        if (chk_make(&p, &info.pv[i]))
            made++;
    }
    printf("status %d tb %d score %d line %s\n", rc, info.tb, info.score, line);
    while (made--)
        chk_unmake(&p);
    chk_search_free(se);
    chk_tb_close(tb);
    chk_pos_free(&p);
    return 0;
}

static int weight_name_edges(void)
{
    printf("-1: %s, %d: %s\n", chk_weight_name(-1) ? "a name" : "none", CHK_NWEIGHTS,
           chk_weight_name(CHK_NWEIGHTS) ? "a name" : "none");
    return 0;
}

/* Bytes held by malloc (its heap and its mmap'ed blocks). */
static size_t held(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

/* A table of 2^62 bytes or more cannot be allocated (no machine has the
 * address space), so chk_search_new fails after its other allocations:
 * each failure must give back what it took. Sizes from 2^63 up once made
 * the table sizing loop overflow and spin for ever. */
static int search_new(void)
{
    static const size_t sizes[] = {(size_t)1 << 62, (size_t)1 << 63, SIZE_MAX};
    int nulls = 0;
    size_t before = held();
    for (int i = 0; i < 50; i++) {
        chk_search *se = chk_search_new(sizes[i % 3]);
        if (se)
            chk_search_free(se);
        else
            nulls++;
    }
    size_t after = held();
    printf("%d of 50 failed, %s\n", nulls, after <= before + 65536 ? "no memory kept" : "memory kept");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "tb-search"))
        return tb_search(argv[2]);
    if (argc >= 2 && !strcmp(argv[1], "weight-names"))
        return weight_name_edges();
    if (argc >= 2 && !strcmp(argv[1], "search-new"))
        return search_new();
    if (argc >= 3 && !strcmp(argv[1], "tb-stdin"))
        return tb_stdin(argv[2]);
    if (argc >= 3 && !strcmp(argv[1], "tb-fds"))
        return tb_fds(argv[2]);
    if (argc >= 4 && !strcmp(argv[1], "tb-only"))
        return tb_only(argv[2], argv[3]);
    if (argc >= 2 && !strcmp(argv[1], "kinds"))
        return kinds();
    if (argc >= 2 && !strcmp(argv[1], "signature"))
        return signature();
    if (argc >= 2 && !strcmp(argv[1], "perft"))
        return perft(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "hash-after"))
        return hash_after(argc, argv);
    fprintf(stderr, "usage: search_signature signature | perft RULES FEN DEPTH... | hash-after RULES FEN DEPTH\n");
    return 2;
}
