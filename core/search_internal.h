/*
 * search_internal.h - what the engine's files share: the search context
 * (struct chk_search), the transposition table's entries and its per-node
 * helpers, static inline since they run at every node. The files:
 * search.c (alpha-beta, quiescence, pruning, iterative deepening,
 * chk_search_run), search_tt.c (the context and its table: new, free,
 * forget, clear), search_order.h (move ordering: hash move, killers,
 * history; included by search.c only) and search_tb.c (the tablebases
 * inside the search). Not part of the public interface.
 */
#ifndef CHESKERS_SEARCH_INTERNAL_H
#define CHESKERS_SEARCH_INTERNAL_H

#include "cheskers_tb.h"
#include "internal.h"

#define INF        (CHK_SCORE_WIN + 1)
#define MOVE_STACK 16384            /* moves for every ply's list */
#define NO_SQ      0xFF

enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

/* A move as the transposition table and killers remember it: enough to
 * find the same move (chk_move_equal) in a generated list. */
typedef struct move_key {
    chk_bb captures;
    uint8_t from, to, promo;
} move_key;

typedef struct tt_entry {
    uint32_t key;           /* upper half of the Zobrist hash */
    chk_bb captures;
    int16_t score;
    uint8_t from, to, promo;
    int8_t depth;
    uint8_t bound;
    uint8_t age;
} tt_entry;

struct chk_search {
    const chk_alloc *alloc;             /* of everything below (NULL: the C library) */
    tt_entry *tt;
    size_t tt_mask;
    uint8_t age;
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

/* ---- transposition table ------------------------------------------------- */

/* Mate scores are stored relative to the node, not the root. */
static inline int score_to_tt(int v, int ply)
{
    return v >= CHK_SCORE_MATE_MIN ? v + ply : v <= -CHK_SCORE_MATE_MIN ? v - ply : v;
}

static inline int score_from_tt(int v, int ply)
{
    return v >= CHK_SCORE_MATE_MIN ? v - ply : v <= -CHK_SCORE_MATE_MIN ? v + ply : v;
}

/* Entries of earlier runs (another age) count as empty: every run starts
 * from an empty table without clearing it. */
static inline tt_entry *tt_probe(chk_search *s, uint64_t h)
{
    tt_entry *e = &s->tt[h & s->tt_mask];
    return e->key == (uint32_t)(h >> 32) && e->age == s->age && e->bound ? e : NULL;
}

/* True when entry e's bound ends a search of (alpha, beta) at ply: *v gets
 * its score. */
static inline bool tt_cuts(const tt_entry *e, int ply, int alpha, int beta, int *v)
{
    int t = *v = score_from_tt(e->score, ply);
    return e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && t >= beta)
           || (e->bound == BOUND_UPPER && t <= alpha);
}

static inline void tt_store(chk_search *s, uint64_t h, int depth, int score, int bound, const chk_move *m)
{
    tt_entry *e = &s->tt[h & s->tt_mask];
    uint32_t key = (uint32_t)(h >> 32);
    bool same = e->bound && e->key == key && e->age == s->age;
    if (same && e->depth > depth && bound != BOUND_EXACT)
        return;
    if (!m && same && e->from != NO_SQ) {   /* keep the old best move */
        e->depth = (int8_t)depth;
        e->score = (int16_t)score;
        e->bound = (uint8_t)bound;
        e->age = s->age;
        return;
    }
    e->key = key;
    e->depth = (int8_t)depth;
    e->score = (int16_t)score;
    e->bound = (uint8_t)bound;
    e->age = s->age;
    e->from = m ? m->from : NO_SQ;
    e->to = m ? m->to : NO_SQ;
    e->promo = m ? m->promo : CHK_NONE;
    e->captures = m ? m->captures : 0;
}

/* ---- search_tb.c: the tablebases inside the search ----------------------- */

/* The tables' score of the position at ply, or INF when no table covers it. */
int chk__search_tb_score(chk_search *s, int ply);
/* Sets s->tb and s->tb_pieces for the run starting (s->p, s->o). */
void chk__search_tb_setup(chk_search *s);
/* Answers a covered root from the tables into *out; false when not covered. */
bool chk__search_tb_root(chk_search *s, chk_search_info *out);

#endif
