/*
 * fuzz_ops.c - libFuzzer target: a random sequence of board operations.
 *
 * Input: two bytes choosing the rule set (fuzz.h), a byte choosing rule
 * hooks written in C (a filter that forbids some moves, a result hook that
 * ends games early), then operations, one byte each plus their arguments:
 * play the n-th legal move, undo, read a move text, set a position text,
 * perft and divide, copy, put or remove a piece, a new game, play out
 * several moves, undo everything, search, solve, and any of these with the
 * hooks made to fail after a number of calls. After every operation the
 * position passes the invariants of fuzz.h; search and solve must restore
 * the position and answer with legal moves; a failing hook must be reported
 * (CHK_HOOK_ERROR from every call) with the position
 * restored.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct input {
    const uint8_t *p, *end;
} input;

static int next(input *in)
{
    return in->p < in->end ? *in->p++ : 0;
}

/* A string argument: a length byte, then that many bytes (NUL-terminated copy). */
static char *next_text(input *in)
{
    size_t n = (size_t)next(in);
    if (n > (size_t)(in->end - in->p))
        n = (size_t)(in->end - in->p);
    char *s = fuzz_cstr(in->p, n);
    in->p += n;
    return s;
}

static bool is_legal(chk_pos *p, const chk_move *m)
{
    static chk_move list[CHK_MAX_MOVES];
    int n = chk_gen_moves(p, list);
    for (int i = 0; i < n; i++)
        if (chk_move_equal(m, &list[i]))
            return true;
    return false;
}

/* ---- hooks -------------------------------------------------------------- */

static struct {
    int k;              /* parameter from the input */
    long calls;         /* hook calls so far */
    long fail_at;       /* the call that fails (0: none) */
    bool failed;
} hk;

static int hook_fails(void)
{
    hk.calls++;
    if (hk.fail_at && hk.calls >= hk.fail_at) {
        hk.failed = true;
        return 1;
    }
    return 0;
}

static int filter_hook(void *ud, const chk_pos *p, const chk_move *m)
{
    (void)ud;
    (void)p;
    if (hook_fails())
        return -1;
    return (m->from * 7 + m->to * 3 + hk.k) % 5 != 0;
}

static int result_hook(void *ud, const chk_pos *p, int *winner)
{
    (void)ud;
    if (hook_fails())
        return -1;
    if (p->quiet >= 4 + hk.k % 16) {
        *winner = (hk.k & 32) ? CHK_DRAW_RESULT : !p->side;
        return 1;
    }
    return 0;
}

static chk_search *search;
static chk_solver *solver;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static chk_rules rules;
    static chk_move list[CHK_MAX_MOVES], roots[CHK_MAX_MOVES];
    static int64_t counts[CHK_MAX_MOVES];
    static int lens[CHK_MAX_MOVES];
    char fen[256], fen2[256], err[512];
    chk_pos pos, copy;
    input in = { data, data + size };
    if (size < 2 || size > 4096)
        return 0;
    if (!search)
        search = chk_search_new(1 << 16);
    if (!solver)
        solver = chk_solver_new(1 << 16);
    chk_search_clear(search);
    chk_solver_clear(solver);
    if (size < 3)
        return 0;
    fuzz_rules(&rules, data[0], data[1]);
    memset(&hk, 0, sizeof hk);
    hk.k = data[2] >> 2;
    if (data[2] & 1)
        rules.filter = filter_hook;
    if (data[2] & 2)
        rules.result = result_hook;
    in.p += 3;
    chk_pos_start(&pos, &rules);
    bool trace = getenv("FUZZ_TRACE") != NULL;
    for (int ops = 0; in.p < in.end && ops < 64; ops++) {
        int op = next(&in) % 14, n;
        char *text;
        chk_move m;
        if (trace) {
            chk_pos_fen(&pos, fen, sizeof fen);
            fprintf(stderr, "op %d at %s (history %zu)\n", op, fen, pos.nhist);
        }
        switch (op) {
        case 0:     /* play the n-th legal move */
            n = chk_gen_moves(&pos, list);
            if (n > 0)
                FUZZ_CHECK(chk_make(&pos, &list[next(&in) % n]), "chk_make failed");
            break;
        case 1:
            chk_unmake(&pos);
            break;
        case 2:     /* read a move text, play it when legal */
            text = next_text(&in);
            if (!chk_parse_move(&pos, text, &m, err, sizeof err)) {
                FUZZ_CHECK(is_legal(&pos, &m), "%s read as an illegal move", text);
                chk_make(&pos, &m);
                if (trace && chk_pos_check(&pos))
                    fprintf(stderr, "  -> %s\n", chk_pos_check(&pos));
            }
            free(text);
            break;
        case 3:     /* a position text */
            text = next_text(&in);
            chk_pos_set_fen(&pos, text, err, sizeof err);
            free(text);
            break;
        case 4:     /* perft and divide, checked against each other */
            n = 1 + next(&in) % 3;
            {
                int64_t a = chk_perft(&pos, n, true, NULL), b = chk_perft(&pos, n, false, NULL);
                FUZZ_CHECK(a == b, "perft(%d) bulk %lld plain %lld", n, (long long)a, (long long)b);
                int nr = chk_divide(&pos, n, roots, counts, NULL);
                int64_t sum = 0;
                for (int i = 0; i < nr; i++)
                    sum += counts[i];
                FUZZ_CHECK(sum == a, "divide(%d) sums to %lld, perft %lld", n, (long long)sum,
                           (long long)a);
            }
            break;
        case 5:     /* copy: same position and history, independent */
            FUZZ_CHECK(chk_pos_copy(&copy, &pos), "copy failed");
            chk_pos_fen(&pos, fen, sizeof fen);
            chk_pos_fen(&copy, fen2, sizeof fen2);
            FUZZ_CHECK(!strcmp(fen, fen2) && copy.hash == pos.hash && copy.nhist == pos.nhist,
                       "copy differs");
            while (chk_unmake(&copy))
                ;
            n = chk_gen_moves(&copy, list);
            if (n > 0)
                chk_make(&copy, &list[0]);
            chk_pos_free(&copy);
            chk_pos_fen(&pos, fen2, sizeof fen2);
            FUZZ_CHECK(!strcmp(fen, fen2), "changing a copy changed the original");
            break;
        case 6: {   /* put or remove a piece, as b:put does: history cleared */
            int sq = next(&in) % CHK_SQUARES, b = next(&in);
            uint8_t piece = CHK_NONE;
            if (b < 0x80) {
                int kind = b % rules.nkinds, color = (b >> 3) & 1;
                piece = CHK_PIECE(color, kind);
                if (kind == CHK_PAWN && sq / 4 == (color == CHK_WHITE ? 7 : 0))
                    piece = CHK_NONE;
            }
            chk_pos_put(&pos, sq, piece);
            pos.nhist = 0;
            break;
        }
        case 7:     /* a new game */
            chk_pos_free(&pos);
            chk_pos_start(&pos, &rules);
            break;
        case 8:     /* play out a few moves */
            for (int k = next(&in) % 16; k > 0; k--) {
                n = chk_gen_moves(&pos, list);
                if (n <= 0)
                    break;
                m = list[(k * 31 + (int)pos.nhist) % n];
                if (trace) {
                    char t[128];
                    chk_move_text(&pos, &m, t, sizeof t);
                    chk_pos_fen(&pos, fen, sizeof fen);
                    fprintf(stderr, "  play %s at %s\n", t, fen);
                }
                chk_make(&pos, &m);
                if (trace && chk_pos_check(&pos))
                    fprintf(stderr, "  -> %s\n", chk_pos_check(&pos));
            }
            break;
        case 9:
            while (chk_unmake(&pos))
                ;
            break;
        case 10: {  /* search: restores the position, answers a legal move */
            chk_search_opts o;
            chk_search_info info;
            memset(&o, 0, sizeof o);
            o.depth = 1 + next(&in) % 4;
            o.nodes = 20000;
            chk_pos_fen(&pos, fen, sizeof fen);
            uint64_t hash = pos.hash;
            size_t nhist = pos.nhist;
            int rc = chk_search_run(search, &pos, &o, &info);
            chk_pos_fen(&pos, fen2, sizeof fen2);
            FUZZ_CHECK(!strcmp(fen, fen2) && pos.hash == hash && pos.nhist == nhist,
                       "search did not restore the position: %s", fen);
            FUZZ_CHECK(rc == CHK_OK, "search returned %d: %s", rc, fen);
            n = chk_gen_moves(&pos, list);
            FUZZ_CHECK((info.npv == 0) == (n == 0), "search pv %d with %d moves: %s", info.npv, n, fen);
            if (info.npv > 0)
                FUZZ_CHECK(is_legal(&pos, &info.pv[0]), "search answers an illegal move: %s", fen);
            FUZZ_CHECK(info.npv <= CHK_MAX_PLY, "pv too long");
            break;
        }
        case 11: {  /* solve: restores the position, a winning move is legal */
            int depth = 1 + next(&in) % 2;
            chk_pos_fen(&pos, fen, sizeof fen);
            uint64_t hash = pos.hash;
            int w = chk_solve(solver, &pos, depth, &m, NULL);
            chk_pos_fen(&pos, fen2, sizeof fen2);
            FUZZ_CHECK(!strcmp(fen, fen2) && pos.hash == hash, "solve did not restore: %s", fen);
            FUZZ_CHECK(w >= 0 && w <= depth, "solve returned %d: %s", w, fen);
            if (w > 0) {
                FUZZ_CHECK(is_legal(&pos, &m), "solve answers an illegal move: %s", fen);
                int nm = chk_solve_moves(solver, &pos, depth, roots, lens, NULL);
                int best = 99;
                for (int i = 0; i < nm; i++) {
                    FUZZ_CHECK(lens[i] >= 1 && lens[i] <= depth, "solve_moves length %d", lens[i]);
                    best = lens[i] < best ? lens[i] : best;
                }
                FUZZ_CHECK(best == w, "solve %d but solve_moves best %d: %s", w, best, fen);
            }
            break;
        }
        case 13: {  /* a hook fails during work: reported, position restored */
            int what = next(&in) % 5, depth = 1 + next(&in) % 3;
            chk_search_opts o;
            chk_search_info info;
            chk_pos_fen(&pos, fen, sizeof fen);
            uint64_t hash = pos.hash;
            size_t nhist = pos.nhist;
            int64_t rc = 0;
            hk.calls = 0;
            hk.failed = false;
            hk.fail_at = 1 + next(&in) * 4;
            switch (what) {
            case 0:
                rc = chk_gen_moves(&pos, list);
                FUZZ_CHECK(!hk.failed || rc == CHK_HOOK_ERROR, "gen_moves: hook failed, got %lld", (long long)rc);
                break;
            case 1:
                rc = chk_perft(&pos, depth, next(&in) & 1, NULL);
                FUZZ_CHECK(!hk.failed || rc == CHK_HOOK_ERROR, "perft: hook failed, got %lld", (long long)rc);
                break;
            case 2:
                rc = chk_divide(&pos, depth, roots, counts, NULL);
                FUZZ_CHECK(!hk.failed || rc == CHK_HOOK_ERROR, "divide: hook failed, got %lld", (long long)rc);
                break;
            case 3:
                memset(&o, 0, sizeof o);
                o.depth = depth + 1;
                o.nodes = 20000;
                rc = chk_search_run(search, &pos, &o, &info);
                FUZZ_CHECK(!hk.failed || rc == CHK_HOOK_ERROR,
                           "search: hook failed, got %lld", (long long)rc);
                break;
            default:
                rc = chk_solve(solver, &pos, depth, &m, NULL);
                FUZZ_CHECK(!hk.failed || rc == CHK_HOOK_ERROR, "solve: hook failed, got %lld",
                           (long long)rc);
                break;
            }
            hk.fail_at = 0;
            chk_pos_fen(&pos, fen2, sizeof fen2);
            FUZZ_CHECK(!strcmp(fen, fen2) && pos.hash == hash && pos.nhist == nhist,
                       "failing hook (%d) left the position changed: %s -> %s", what, fen, fen2);
            break;
        }
        default:    /* 12: nothing but the checks */
            break;
        }
        fuzz_check_position(&pos, op == 12);
    }
    chk_pos_free(&pos);
    return 0;
}
