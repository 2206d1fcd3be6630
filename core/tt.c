/*
 * tt.c - the engine's transposition table (tt.h): allocating, clearing and
 * storing; the probes are inline in tt.h.
 */
#include <string.h>

#include "tt.h"

bool chk__tt_new(chk_tt *t, const chk_alloc *alloc, size_t bytes)
{
    size_t n;
    t->entries = chk__table_alloc(alloc, bytes, sizeof *t->entries, &n);
    t->mask = t->entries ? n - 1 : 0;
    t->age = 0;
    return t->entries != NULL;
}

void chk__tt_free(chk_tt *t, const chk_alloc *alloc)
{
    if (t->entries)
        chk__mem(alloc, t->entries, (t->mask + 1) * sizeof *t->entries, 0);
    t->entries = NULL;
}

void chk__tt_clear(chk_tt *t)
{
    memset(t->entries, 0, (t->mask + 1) * sizeof *t->entries);
    t->age = 0;
}

void chk__tt_store(chk_tt *t, uint64_t h, int depth, int score, int bound, const chk_move *m)
{
    tt_entry *e = &t->entries[h & t->mask];
    uint32_t key = (uint32_t)(h >> 32);
    bool same = e->bound && e->key == key && e->age == t->age;
    if (same && e->depth > depth && bound != BOUND_EXACT)
        return;
    if (!m && same && e->from != NO_SQ) {   /* keep the old best move */
        e->depth = (int8_t)depth;
        e->score = (int16_t)score;
        e->bound = (uint8_t)bound;
        e->age = t->age;
        return;
    }
    e->key = key;
    e->depth = (int8_t)depth;
    e->score = (int16_t)score;
    e->bound = (uint8_t)bound;
    e->age = t->age;
    e->from = m ? m->from : NO_SQ;
    e->to = m ? m->to : NO_SQ;
    e->promo = m ? m->promo : CHK_NONE;
    e->captures = m ? m->captures : 0;
}
