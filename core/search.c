/*
 * search.c - the engine: iterative-deepening principal-variation search
 * (negamax alpha-beta) with a transposition table (tt.c), move ordering (hash
 * move, captures by number of pieces taken and their value, promotions,
 * killers, history), late-move reductions, a one-reply extension,
 * aspiration windows, reverse futility and futility pruning where no
 * capture is compulsory, and a quiescence search that never stands pat
 * while a capture is compulsory, with delta pruning where it may. The
 * search's switches and margins (CHK_SEARCH_SWITCHES, CHK_SEARCH_MARGINS of
 * cheskers.h: rfp, aspiration, fp, delta, rfp_margin, fp_margin) turn the
 * shipped changes of docs/engine.md's "Search changes" off or tune them, so
 * one program plays the search without one against the search with it. The
 * tries that did not gain are not here (docs/engine.md names their commit).
 * With tablebases (opts.tb) a covered position inside the search scores
 * exactly (a win in d plies as a game won d plies further on, like the
 * search's own game ends) and a covered root is answered by the tables.
 * With opts.info_every the info callback also hears, from inside a long
 * iteration, its best line so far (a partial report).
 *
 * A run starts from empty tables (a new age of the transposition table:
 * entries of other ages count as empty), unless opts.keep: then the context's
 * table and (halved) history stay from its earlier runs, so the searches of
 * a game build on each other (the engine bot keeps one context a game), as
 * long as the rules and the weights are those of the last run (and no Lua
 * eval): other ones would read scores made under others.
 *
 * Everything a search needs is allocated by chk_search_new; searching does
 * not allocate (chk_make may grow the position's history the first time it
 * goes deeper than before). Limits, stops and errors (a failing rule hook
 * or eval callback) unwind through s->halted, with the chk_status to return
 * in s->status: every chk_make is paired with a chk_unmake on the way out,
 * so the position is always restored.
 */
#include <stdlib.h>
#include <string.h>

#include "cheskers_tb.h"
#include "internal.h"
#include "tt.h"

#define INF        (CHK_SCORE_WIN + 1)
#define MOVE_STACK 16384            /* moves for every ply's list */
#define RFP_DEPTH  3                /* reverse futility pruning up to this depth */
#define RFP_MARGIN 120              /* ... when the evaluation beats beta by this a ply
                                       (opts.rfp_margin) */
#define FP_DEPTH   2                /* futility pruning (opts.fp) up to this depth */
#define FP_MARGIN  150              /* ... of quiet moves when the evaluation + this a ply <= alpha
                                       (opts.fp_margin) */
#define DELTA_MARGIN 200            /* delta pruning (opts.delta): a capture whose gain + this
                                       cannot lift standing pat to alpha */
#define ASP_WINDOW 40               /* half the root's first window (opts.aspiration) */

/* A move as the killers remember it: enough to find the same move
 * (chk_move_equal) in a generated list. */
typedef struct move_key {
    chk_bb captures;
    uint8_t from, to, promo;
} move_key;

struct chk_search {
    const chk_alloc *alloc;             /* of everything below (NULL: the C library) */
    chk_tt tt;                          /* the transposition table (tt.c) */
    chk_move *moves;                    /* MOVE_STACK moves */
    int *scores;                        /* ordering scores, parallel to moves */
    move_key killers[CHK_MAX_PLY][2];
    int history[2][CHK_SQUARES][CHK_SQUARES];
    chk_move pv[CHK_MAX_PLY][CHK_MAX_PLY];  /* triangular PV table */
    int pvlen[CHK_MAX_PLY];

    /* the current search */
    chk_pos *p;
    const chk_search_opts *o;
    chk_weights weights;
    int64_t nodes, node_limit;
    double seconds;
    double t0;                          /* chk_clock() at the start */
    bool halted;                        /* unwinding: a limit, a stop, a failure */
    chk_status status;                  /* what chk_search_run returns then: CHK_OK
                                           when its own limits (nodes, seconds) ended it */
    int seldepth;
    bool fast_quiet;    /* quiet_side() knows these rules */
    /* the search's switches (CHK_SEARCH_SWITCHES), resolved, and margins */
#define SWITCH_FIELD(name, what) bool name;
    CHK_SEARCH_SWITCHES(SWITCH_FIELD)
#undef SWITCH_FIELD
    int rfp_margin, fp_margin;          /* a ply of depth */
    /* opts.keep: what the tables of the last run were made under; a run
     * under other rules or weights (or a Lua eval) starts from empty ones */
    bool kept_valid;
    chk_rules kept_rules;
    chk_weights kept_weights;

    /* tablebases: NULL when none or unusable for these rules */
    chk_tb *tb;
    int tb_pieces;                      /* probe positions with at most this many pieces */
    /* partial reports (opts.info_every) */
    chk_search_info *out;               /* the last completed iteration */
    chk_search_info part;
    chk_pos root;                       /* the root's board (history not to be played on) */
    int iter_depth;                     /* the iteration in progress */
    int root_score;                     /* its best score so far (pvlen[0] > 0) */
    double info_next;                   /* elapsed() of the next partial report */
};

/* ---- context ------------------------------------------------------------ */

chk_search *chk_search_new_alloc(size_t hash_bytes, const chk_alloc *alloc)
{
    chk_search *s = chk__zalloc(alloc, sizeof *s);
    if (!s)
        return NULL;
    s->alloc = alloc;
    chk__tt_new(&s->tt, alloc, hash_bytes);
    s->moves = chk__mem(alloc, NULL, 0, MOVE_STACK * sizeof *s->moves);
    s->scores = chk__mem(alloc, NULL, 0, MOVE_STACK * sizeof *s->scores);
    if (!s->tt.entries || !s->moves || !s->scores) {
        chk_search_free(s);
        return NULL;
    }
    return s;
}

chk_search *chk_search_new(size_t hash_bytes)
{
    return chk_search_new_alloc(hash_bytes, NULL);
}

void chk_search_free(chk_search *s)
{
    if (!s)
        return;
    const chk_alloc *a = s->alloc;
    chk__tt_free(&s->tt, a);
    chk__mem(a, s->moves, MOVE_STACK * sizeof *s->moves, 0);
    chk__mem(a, s->scores, MOVE_STACK * sizeof *s->scores, 0);
    chk__mem(a, s, sizeof *s, 0);
}

void chk_search_forget(chk_search *s)
{
    if (++s->tt.age == 0)
        chk_search_clear(s);    /* ages wrapped: zero everything once in 255 times */
    s->tt.age = s->tt.age ? s->tt.age : 1;
    memset(s->killers, 0, sizeof s->killers);
    memset(s->history, 0, sizeof s->history);
}

void chk_search_clear(chk_search *s)
{
    chk__tt_clear(&s->tt);
    memset(s->killers, 0, sizeof s->killers);
    memset(s->history, 0, sizeof s->history);
}

/* ---- helpers ------------------------------------------------------------ */

static double elapsed(const chk_search *s)
{
    return chk_clock() - s->t0;
}

static inline move_key key_of(const chk_move *m)
{
    move_key k = { m->captures, m->from, m->to, m->promo };
    return k;
}

static inline bool key_is(const move_key *k, const chk_move *m)
{
    return k->from == m->from && k->to == m->to && k->captures == m->captures
           && k->promo == m->promo;
}

static void report_partial(chk_search *s);

/* Makes the search unwind; chk_search_run then returns st. Returns true. */
static bool halt(chk_search *s, chk_status st)
{
    s->halted = true;
    s->status = st;
    return true;
}

/* Polls the limits: every node for the node budget (so that node-limited
 * searches are reproducible), every 1024 nodes for the stop condition (the
 * flag and the deadline) and the time budget. */
static inline bool check_limits(chk_search *s)
{
    if (s->node_limit && s->nodes >= s->node_limit)
        return halt(s, CHK_OK);
    if ((s->nodes & 1023) == 0) {
        chk_status st = chk__stop_check_now(s->o->stop);
        if (st != CHK_OK)
            return halt(s, st);
        if (s->seconds > 0 && elapsed(s) >= s->seconds)
            return halt(s, CHK_OK);
        if (s->o->info_every > 0 && s->o->info && elapsed(s) >= s->info_next) {
            report_partial(s);
            return s->halted;
        }
    }
    return false;
}

static int evaluate(chk_search *s)
{
    if (s->o->eval) {
        int v = 0;
        uint64_t h = s->p->hash;
        size_t nh = s->p->nhist;
        int rc = s->o->eval(s->o->eval_ud, s->p, &v);
        if (rc < 0 || s->p->hash != h || s->p->nhist != nh) {
            /* moves played or taken back by the callback: undo that much,
             * so that the search unwinds to the position it started from */
            while (s->p->nhist > nh && chk_unmake(s->p))
                ;
            while (s->p->nhist < nh && chk_make(s->p, &s->p->hist[s->p->nhist].move))
                ;
            halt(s, CHK_EVAL_ERROR);
            return 0;
        }
        const int lim = CHK_SCORE_MATE_MIN - 1;
        return v > lim ? lim : v < -lim ? -lim : v;
    }
    return chk_eval(s->p, &s->weights);
}

/* Ordering scores for list[0..n): hash move, then captures (more pieces
 * first, then more value, cheaper capturer first) and promotions (the
 * static order of chk_order_scores, which bots get too), killers, history. */
static void score_moves(chk_search *s, chk_move *list, int *sc, int n, const tt_entry *e, int ply)
{
    int side = s->p->side;
    chk_order_scores(s->p, &s->weights, list, n, sc);
    for (int i = 0; i < n; i++) {
        const chk_move *m = &list[i];
        if (e && e->from == m->from && e->to == m->to && e->captures == m->captures
            && e->promo == m->promo)
            sc[i] = 1 << 30;
        else if (m->captures || m->promo != CHK_NONE)
            continue;
        else if (ply < CHK_MAX_PLY && key_is(&s->killers[ply][0], m))
            sc[i] = (1 << 24) + 1;
        else if (ply < CHK_MAX_PLY && key_is(&s->killers[ply][1], m))
            sc[i] = 1 << 24;
        else
            sc[i] = s->history[side][m->from][m->to];
    }
}

/* Moves the best-scored remaining move to position i. */
static inline void pick(chk_move *list, int *sc, int i, int n)
{
    int b = i;
    for (int j = i + 1; j < n; j++)
        if (sc[j] > sc[b])
            b = j;
    if (b != i) {
        chk_move t = list[i];
        list[i] = list[b];
        list[b] = t;
        int u = sc[i];
        sc[i] = sc[b];
        sc[b] = u;
    }
}

static inline void update_pv(chk_search *s, int ply, const chk_move *m)
{
    s->pv[ply][0] = *m;
    int n = ply + 1 < CHK_MAX_PLY ? s->pvlen[ply + 1] : 0;
    if (n > CHK_MAX_PLY - 1)
        n = CHK_MAX_PLY - 1;
    memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)n * sizeof(chk_move));
    s->pvlen[ply] = n + 1;
}

/* The score of a finished game for the side to move at ply, or INF when
 * the game goes on. Halts the search when a hook fails. */
static int game_over(chk_search *s, int ply)
{
    int reason;
    int w = chk_result_static(s->p, &reason);
    if (reason == CHK_REASON_ERROR) {
        halt(s, CHK_HOOK_ERROR);
        return 0;
    }
    if (w == CHK_ONGOING)
        return INF;
    if (w == CHK_DRAW_RESULT)
        return 0;
    return w == s->p->side ? CHK_SCORE_WIN - ply : -(CHK_SCORE_WIN - ply);
}

/* Whether the current position already occurred since the last capture
 * or pawn move (game history included): scored as a draw. */
static bool repeated(const chk_pos *p)
{
    size_t back = p->quiet < p->nhist ? p->quiet : p->nhist;
    for (size_t i = 4; i <= back; i += 2)
        if (p->hist[p->nhist - i].hash == p->hash)
            return true;
    return false;
}

/* ---- tablebases ---------------------------------------------------------- */

/* The score of a finished game reached dist plies after ply (capped so that
 * it stays a forced result: CHK_SCORE_MATE_MIN is 2 * CHK_MAX_PLY plies). */
static int result_score(int value, int ply, int dist)
{
    int at = ply + dist;
    if (at > 2 * CHK_MAX_PLY - 1)
        at = 2 * CHK_MAX_PLY - 1;
    return value == CHK_TB_DRAW ? 0
           : value == CHK_TB_WIN ? CHK_SCORE_WIN - at : -(CHK_SCORE_WIN - at);
}

/* The tables' score of the position at ply, or INF when no table covers it
 * (a damaged file counts as not covered: the search goes on without it). */
static int tb_score(chk_search *s, int ply)
{
    const chk_pos *p = s->p;
    int value, dist;
    if (!s->tb || bb_count(p->occ[0] | p->occ[1]) > s->tb_pieces)
        return INF;
    if (chk_tb_probe(s->tb, p, &value, &dist) != 1)
        return INF;
    return result_score(value, ply, dist);
}

/* The tables usable for this search (any signature with a file is probed;
 * a missing one costs a hash look-up): not under draw_quiet_plies (a table
 * win may take longer than the rule allows; draw_repetition cannot spoil
 * one, since a fastest win never repeats a position). */
static void tb_setup(chk_search *s)
{
    s->tb = s->o->tb && !s->p->rules->draw_quiet_plies ? s->o->tb : NULL;
    if (s->tb && chk_tb_count(s->tb) == 0)
        s->tb = NULL;       /* no file at all: nothing to probe */
    s->tb_pieces = CHK_TB_MAX_PIECES;
}

/* Answers a covered root from the tables: *out gets the tables' best move,
 * a line of best moves after it and the exact score. Returns false when the
 * root is not covered (then the search runs). */
static bool tb_root(chk_search *s, chk_search_info *out)
{
    chk_pos *p = s->p;
    chk_move m;
    int value, dist, made = 0;
    if (!s->tb || bb_count(p->occ[0] | p->occ[1]) > s->tb_pieces
        || chk_tb_best_move(s->tb, p, &m, &value, &dist) != 1)
        return false;
    out->score = result_score(value, 0, dist);
    out->depth = 1;
    out->tb = true;
    out->pv[made] = m;
    while (made < CHK_MAX_PLY - 1 && chk_make(p, &out->pv[made])) {
        made++;
        int v2, d2;
        if (chk_tb_best_move(s->tb, p, &out->pv[made], &v2, &d2) != 1)
            break;
    }
    out->npv = made > 0 ? made : 1;
    while (made-- > 0)
        chk_unmake(p);
    return true;
}

/* ---- partial reports ------------------------------------------------------ */

/* Calls info with the iteration in progress: its best line so far, else the
 * last completed one's. Halts the search when info asks to stop. */
static void report_partial(chk_search *s)
{
    chk_search_info *r = &s->part;
    s->info_next = elapsed(s) + s->o->info_every;
    if (s->pvlen[0] > 0) {
        r->score = s->root_score;
        r->npv = s->pvlen[0];
        memcpy(r->pv, s->pv[0], (size_t)r->npv * sizeof(chk_move));
    } else if (s->out->npv > 0) {
        r->score = s->out->score;
        r->npv = s->out->npv;
        memcpy(r->pv, s->out->pv, (size_t)r->npv * sizeof(chk_move));
    } else {
        return;     /* nothing found yet */
    }
    r->depth = s->iter_depth;
    r->seldepth = s->seldepth;
    r->nodes = s->nodes;
    r->seconds = elapsed(s);
    r->partial = true;
    r->tb = false;
    r->root = &s->root;
    if (s->o->info(s->o->info_ud, r))
        halt(s, CHK_ABORTED);
}

/* ---- quiescence ---------------------------------------------------------- */

/* Under fast_count rules (chk_rules.fast_count, no filter hook): true when the side to move has no jump (so no
 * compulsory capture and every move is legal) and has a quiet move (a move
 * that neither captures nor promotes). Then it may stand pat, and the move
 * list is only needed when standing pat does not already fail high. */
static bool quiet_side(const chk_pos *p)
{
    const chk_rules *r = p->rules;
    int us = p->side;
    chk_bb all = p->occ[0] | p->occ[1], empty = ~all;
    chk_bb pawns = p->bb[us][CHK_PAWN], kings = p->bb[us][CHK_KING];
    if (chk__diagonal_jumpers(p, us))
        return false;
    chk_bb steps = us == CHK_WHITE ? (bb_ne(pawns) | bb_nw(pawns)) & ~RANK_8
                                   : (bb_se(pawns) | bb_sw(pawns)) & ~RANK_1;
    steps |= bb_ne(kings) | bb_nw(kings) | bb_se(kings) | bb_sw(kings);
    if (steps & empty)
        return true;
    for (int kind = 2; kind < r->nkinds; kind++) {
        const chk_kind *k = &r->kinds[kind];
        for (chk_bb b = p->bb[us][kind]; b; b &= b - 1) {
            int sq = bb_first(b);
            if (k->leap_to[sq] & empty)
                return true;
            for (int d = 0; k->nrides && d < k->ndirs; d++)
                if (k->dir_ride[d] && (ride_targets(k, sq, d, all) & empty))
                    return true;
        }
    }
    return false;
}

/* Searches captures and promotions. Stands pat only when the side to move
 * has a quiet move: when every legal move captures (a compulsory capture),
 * all of them are searched. list points into the move stack. */
static int qsearch(chk_search *s, int alpha, int beta, int ply, chk_move *list)
{
    chk_pos *p = s->p;
    s->nodes++;
    s->pvlen[ply] = 0;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (check_limits(s))
        return 0;
    int v = game_over(s, ply);
    if (s->halted || v != INF)
        return v;
    if (ply > 0 && (v = tb_score(s, ply)) != INF)
        return v;
    if (ply >= CHK_MAX_PLY - 1 || list + CHK_MAX_MOVES > s->moves + MOVE_STACK)
        return evaluate(s);

    /* standing pat often fails high: then no move list is needed */
    int best = -INF;
    bool known = s->fast_quiet && quiet_side(p);
    if (known) {
        best = evaluate(s);
        if (s->halted || best >= beta)
            return best;
    }
    int nq = 0;
    bool quiet = false;
    int *sc = s->scores + (list - s->moves);
    if (known) {
        /* no jump and a quiet move: only the captures and promotions */
        nq = chk__gen_tactical_fast(p, list);
        quiet = true;
    } else {
        int n = chk_gen_rule_moves(p, list);
        if (n < 0) {
            halt(s, CHK_HOOK_ERROR);
            return 0;
        }
        if (n == 0)
            return -(CHK_SCORE_WIN - ply);      /* stalemated: lost */
        for (int i = 0; i < n; i++) {
            if (!list[i].captures && list[i].promo == CHK_NONE)
                quiet = true;
            else
                list[nq++] = list[i];
        }
    }
    if (quiet) {
        if (!known) {
            best = evaluate(s);
            if (s->halted || best >= beta)
                return best;
        }
        if (best > alpha)
            alpha = best;
    }
    score_moves(s, list, sc, nq, NULL, CHK_MAX_PLY);
    int stand = best;       /* the evaluation when standing pat was allowed, else -INF */
    for (int i = 0; i < nq; i++) {
        pick(list, sc, i, nq);
        /* delta pruning (opts.delta): not a capture of a king (the last one ends the game) */
        if (s->delta && stand > -INF && !(list[i].captures & p->bb[!p->side][CHK_KING])
            && stand + chk_move_gain(p, &s->weights, &list[i]) + DELTA_MARGIN <= alpha)
            continue;
        if (!chk_make(p, &list[i])) {
            halt(s, CHK_NO_MEMORY);    /* the history could not grow */
            return 0;
        }
        v = -qsearch(s, -beta, -alpha, ply + 1, list + nq);
        chk_unmake(p);
        if (s->halted)
            return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                update_pv(s, ply, &list[i]);
                if (v >= beta)
                    break;
            }
        }
    }
    return best;
}

/* ---- main search --------------------------------------------------------- */

static int search(chk_search *s, int depth, int alpha, int beta, int ply, chk_move *list);

/* Pruning before the move list at a non-PV node (opts.rfp): a score that
 * fails high (>= beta), else INF; *static_eval gets the evaluation when it
 * was made (for opts.fp). Only where no capture is compulsory (the side to
 * move has a quiet move, so standing on the evaluation is a fair guess) and
 * beta is no forced result: reverse futility, at depth <= RFP_DEPTH, the
 * evaluation beats beta by RFP_MARGIN a ply. */
static int prune(chk_search *s, int depth, int beta, int *static_eval)
{
    chk_pos *p = s->p;
    if (!s->fast_quiet || beta >= CHK_SCORE_MATE_MIN || beta <= -CHK_SCORE_MATE_MIN
        || !quiet_side(p))
        return INF;
    int se = *static_eval = evaluate(s);
    if (s->halted)
        return 0;
    if (s->rfp && depth <= RFP_DEPTH && se - s->rfp_margin * depth >= beta)
        return se;
    return INF;
}

static int search(chk_search *s, int depth, int alpha, int beta, int ply, chk_move *list)
{
    chk_pos *p = s->p;
    bool pv_node = beta - alpha > 1;
    s->pvlen[ply] = 0;
    if (depth <= 0)
        return qsearch(s, alpha, beta, ply, list);
    s->nodes++;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (check_limits(s))
        return 0;
    int v = game_over(s, ply);
    if (s->halted || v != INF)
        return v;
    if (ply > 0 && repeated(p))
        return 0;
    if (ply > 0 && (v = tb_score(s, ply)) != INF)
        return v;
    if (ply >= CHK_MAX_PLY - 1 || list + CHK_MAX_MOVES > s->moves + MOVE_STACK)
        return evaluate(s);

    /* mate distance pruning */
    if (ply > 0) {
        int lo = -(CHK_SCORE_WIN - ply), hi = CHK_SCORE_WIN - ply - 1;
        if (alpha < lo)
            alpha = lo;
        if (beta > hi)
            beta = hi;
        if (alpha >= beta)
            return alpha;
    }

    tt_entry *e = tt_probe(&s->tt, p->hash);
    if (e && ply > 0 && !pv_node && e->depth >= depth && tt_cuts(e, ply, alpha, beta, &v))
        return v;

    int se = INF;       /* the static evaluation, when prune() made it */
    if (!pv_node && ply > 0
        && ((s->rfp && depth <= RFP_DEPTH) || (s->fp && depth <= FP_DEPTH))) {
        v = prune(s, depth, beta, &se);
        if (s->halted || v != INF)
            return v;
    }

    int n = chk_gen_rule_moves(p, list);
    if (n < 0) {
        halt(s, CHK_HOOK_ERROR);
        return 0;
    }
    if (n == 0)
        return -(CHK_SCORE_WIN - ply);

    int *sc = s->scores + (list - s->moves);
    score_moves(s, list, sc, n, e, ply);
    for (int i = 0; depth >= 2 && i < n; i++)   /* every child probes the table: fetch early */
        __builtin_prefetch(tt_slot(&s->tt, chk__hash_after(p, &list[i])));
    int ext = n == 1 && ply < CHK_MAX_PLY / 2 ? 1 : 0;    /* a forced reply costs no depth */
    int best = -INF, alpha0 = alpha, bi = -1;
    for (int i = 0; i < n; i++) {
        pick(list, sc, i, n);
        chk_move *m = &list[i];
        bool tactical = m->captures || m->promo != CHK_NONE;
        /* futility pruning (opts.fp): a quiet move (not a killer) cannot
         * raise a hopeless evaluation near the horizon */
        if (s->fp && i > 0 && se != INF && depth <= FP_DEPTH && !tactical && sc[i] < (1 << 24)
            && se + s->fp_margin * depth <= alpha)
            continue;
        if (!chk_make(p, m)) {
            halt(s, CHK_NO_MEMORY);    /* the history could not grow */
            return 0;
        }
        int d = depth - 1 + ext;
        if (d > 0)
            __builtin_prefetch(tt_slot(&s->tt, p->hash));    /* the child probes it */
        if (i == 0) {
            v = -search(s, d, -beta, -alpha, ply + 1, list + n);
        } else {
            int r = 0;
            if (depth >= 3 && i >= 3 && !tactical && !pv_node && sc[i] < (1 << 24))
                r = i >= 8 ? 2 : 1;     /* late moves: one ply less, two from the 9th */
            v = -search(s, d - r, -alpha - 1, -alpha, ply + 1, list + n);
            if (!s->halted && v > alpha && (r || pv_node))
                v = -search(s, d, -beta, -alpha, ply + 1, list + n);
        }
        chk_unmake(p);
        if (s->halted)
            return 0;
        if (v > best) {
            best = v;
            bi = i;
            if (v > alpha) {
                alpha = v;
                update_pv(s, ply, m);
                if (ply == 0)
                    s->root_score = v;
                if (v >= beta) {
                    if (!tactical && ply < CHK_MAX_PLY) {
                        if (!key_is(&s->killers[ply][0], m)) {
                            s->killers[ply][1] = s->killers[ply][0];
                            s->killers[ply][0] = key_of(m);
                        }
                        int *h = &s->history[p->side][m->from][m->to];
                        *h += depth * depth;
                        if (*h > (1 << 20)) {
                            for (int a = 0; a < CHK_SQUARES; a++)
                                for (int b = 0; b < CHK_SQUARES; b++)
                                    s->history[p->side][a][b] /= 2;
                        }
                    }
                    break;
                }
            }
        }
    }
    int bound = best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER;
    chk__tt_store(&s->tt, p->hash, depth, score_to_tt(best, ply), bound, bi >= 0 ? &list[bi] : NULL);
    return best;
}

/* ---- iterative deepening ------------------------------------------------- */

static void fill_info(chk_search *s, chk_search_info *out, int depth, int score)
{
    out->depth = depth;
    out->seldepth = s->seldepth;
    out->score = score;
    out->nodes = s->nodes;
    out->seconds = elapsed(s);
    out->npv = s->pvlen[0];
    memcpy(out->pv, s->pv[0], (size_t)out->npv * sizeof(chk_move));
    out->partial = false;
    out->tb = false;
    out->root = &s->root;
}

/* Whether every number of o is in its range (cheskers.h, chk_search_run):
 * a depth or a margin past it would wrap an int inside the search, an
 * infinite or NaN time would never end it. */
static bool opts_valid(const chk_search_opts *o)
{
    return o->depth >= 0 && o->depth <= CHK_MAX_PLY - 1 && o->nodes >= 0
           && o->seconds >= 0 && o->seconds <= 1e9 && o->info_every >= 0 && o->info_every <= 1e9
           && o->rfp_margin >= 0 && o->rfp_margin <= CHK_SEARCH_MAX_MARGIN
           && o->fp_margin >= 0 && o->fp_margin <= CHK_SEARCH_MAX_MARGIN;
}

int chk_search_run(chk_search *s, chk_pos *p, const chk_search_opts *o, chk_search_info *out)
{
    static const chk_search_opts none;
    if (!o)
        o = &none;
    if (!opts_valid(o)) {
        memset(out, 0, sizeof *out);
        return CHK_BAD_OPTION;
    }
    s->p = p;
    s->o = o;
    if (o->weights)
        s->weights = *o->weights;
    else
        chk_weights_default(&s->weights);
    s->nodes = 0;
    s->node_limit = o->nodes > 0 ? o->nodes : 0;
    s->seconds = o->seconds > 0 ? o->seconds : 0;
    s->halted = false;
    s->status = CHK_OK;
    s->seldepth = 0;
    s->fast_quiet = p->rules->fast_count && !p->rules->filter;
#define SWITCH_SET(name, what) s->name = o->name >= 0;     /* on unless -1 */
    CHK_SEARCH_SWITCHES(SWITCH_SET)
#undef SWITCH_SET
    s->rfp_margin = o->rfp_margin > 0 ? o->rfp_margin : RFP_MARGIN;
    s->fp_margin = o->fp_margin > 0 ? o->fp_margin : FP_MARGIN;
    memset(s->killers, 0, sizeof s->killers);   /* they are by ply from the root */
    bool same = o->keep && s->kept_valid && !o->eval
                && !memcmp(&s->kept_rules, p->rules, sizeof s->kept_rules)
                && !memcmp(&s->kept_weights, &s->weights, sizeof s->weights);
    s->kept_valid = o->keep && !o->eval;    /* only a kept run's tables are remembered */
    if (s->kept_valid) {
        memcpy(&s->kept_rules, p->rules, sizeof s->kept_rules);
        memcpy(&s->kept_weights, &s->weights, sizeof s->weights);
    }
    if (same && s->tt.age) {
        /* the table of earlier runs stays (same age); history counts halve */
        for (int c = 0; c < 2; c++)
            for (int a = 0; a < CHK_SQUARES; a++)
                for (int b = 0; b < CHK_SQUARES; b++)
                    s->history[c][a][b] /= 2;
    } else {
        chk_search_forget(s);
    }
    s->t0 = chk_clock();
    memset(out, 0, sizeof *out);
    s->out = out;
    s->root = *p;
    out->root = &s->root;
    s->info_next = o->info_every > 0 ? o->info_every : 0;
    tb_setup(s);

    int maxdepth = o->depth > 0 && o->depth < CHK_MAX_PLY - 1 ? o->depth : CHK_MAX_PLY - 1;
    int done = 0;
    /* The root's legal moves: the game may be over already. */
    int n = chk_gen_moves(p, s->moves);
    if (n < 0)
        return CHK_HOOK_ERROR;
    if (n == 0) {
        int v = game_over(s, 0);
        if (s->halted)
            return s->status;
        out->score = v == INF ? -CHK_SCORE_WIN : v;
        return CHK_OK;
    }
    chk_move first = s->moves[0];
    if (tb_root(s, out)) {
        out->nodes = s->nodes;
        out->seconds = elapsed(s);
        return o->info && o->info(o->info_ud, out) ? CHK_ABORTED : CHK_OK;
    }

    for (int depth = 1; depth <= maxdepth; depth++) {
        s->iter_depth = depth;
        int v, prev = out->score;
        if (s->aspiration && done >= 3 && prev < CHK_SCORE_MATE_MIN && prev > -CHK_SCORE_MATE_MIN) {
            /* a window around the last score; outside it, the full width */
            int a = prev - ASP_WINDOW, b = prev + ASP_WINDOW;
            v = search(s, depth, a, b, 0, s->moves);
            if (!s->halted && (v <= a || v >= b))
                v = search(s, depth, -INF, INF, 0, s->moves);
        } else {
            v = search(s, depth, -INF, INF, 0, s->moves);
        }
        if (s->halted)
            break;
        fill_info(s, out, depth, v);
        done = depth;
        if (o->info && o->info(o->info_ud, out))
            return CHK_ABORTED;
        if (v >= CHK_SCORE_MATE_MIN || v <= -CHK_SCORE_MATE_MIN) {
            int dist = CHK_SCORE_WIN - (v < 0 ? -v : v);
            if (depth >= dist + 4)
                break;      /* a forced result, found with depth to spare */
        }
        if (s->seconds > 0 && elapsed(s) > s->seconds * 0.5)
            break;          /* the next iteration would not finish */
    }
    if (!done) {
        /* Not even depth 1 finished: the best root move seen, else the first. */
        out->depth = 0;
        out->nodes = s->nodes;
        out->seconds = elapsed(s);
        out->seldepth = s->seldepth;
        out->npv = 1;
        out->pv[0] = s->pvlen[0] ? s->pv[0][0] : first;
    } else {
        out->nodes = s->nodes;
        out->seconds = elapsed(s);
    }
    return s->status;
}
