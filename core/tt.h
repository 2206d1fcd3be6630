/*
 * tt.h - the engine's transposition table (tt.c), internal to the core:
 * its entries, the table (entries, mask, age) and the hot probes, inline
 * here for search.c. A table of 2^k entries indexed by the low bits of the
 * Zobrist hash, one entry a slot (always replaced, but for a deeper bound
 * of the same position), with an age: entries of earlier runs count as
 * empty, so every run starts from an empty table without clearing it.
 */
#ifndef CHESKERS_TT_H
#define CHESKERS_TT_H

#include "internal.h"

#define NO_SQ 0xFF                  /* an entry without a best move */

enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

typedef struct tt_entry {
    uint32_t key;           /* upper half of the Zobrist hash */
    chk_bb captures;
    int16_t score;
    uint8_t from, to, promo;
    int8_t depth;
    uint8_t bound;
    uint8_t age;
} tt_entry;

typedef struct chk_tt {
    tt_entry *entries;      /* NULL: not allocated */
    size_t mask;            /* entries - 1 */
    uint8_t age;            /* of the current run (0: a cleared table) */
} chk_tt;

/* Allocates about bytes of entries (a power of two of them); false when
 * out of memory (t->entries NULL). */
bool chk__tt_new(chk_tt *t, const chk_alloc *alloc, size_t bytes);
void chk__tt_free(chk_tt *t, const chk_alloc *alloc);
/* Zeroes every entry and the age. */
void chk__tt_clear(chk_tt *t);
/* Stores a bound (BOUND_*) of score at depth for hash h, with its best
 * move m (NULL: keep the best move of the same position there). */
void chk__tt_store(chk_tt *t, uint64_t h, int depth, int score, int bound, const chk_move *m);

/* Mate scores are stored relative to the node, not the root. */
static inline int score_to_tt(int v, int ply)
{
    return v >= CHK_SCORE_MATE_MIN ? v + ply : v <= -CHK_SCORE_MATE_MIN ? v - ply : v;
}

static inline int score_from_tt(int v, int ply)
{
    return v >= CHK_SCORE_MATE_MIN ? v - ply : v <= -CHK_SCORE_MATE_MIN ? v + ply : v;
}

/* The slot of hash h (for a prefetch). */
static inline const tt_entry *tt_slot(const chk_tt *t, uint64_t h)
{
    return &t->entries[h & t->mask];
}

/* The entry of hash h of this run, or NULL. */
static inline tt_entry *tt_probe(chk_tt *t, uint64_t h)
{
    tt_entry *e = &t->entries[h & t->mask];
    return e->key == (uint32_t)(h >> 32) && e->age == t->age && e->bound ? e : NULL;
}

/* True when entry e's bound ends a search of (alpha, beta) at ply: *v gets
 * its score. */
static inline bool tt_cuts(const tt_entry *e, int ply, int alpha, int beta, int *v)
{
    int t = *v = score_from_tt(e->score, ply);
    return e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && t >= beta)
           || (e->bound == BOUND_UPPER && t <= alpha);
}

#endif
