/*
 * search_tt.c - the search context (search_internal.h): its transposition
 * table, move stack, killer and history tables, allocated once by
 * chk_search_new; a run's start forgets them (a new age of the table) or,
 * with opts.keep, keeps them (search.c).
 */
#include <string.h>

#include "search_internal.h"

chk_search *chk_search_new_alloc(size_t hash_bytes, const chk_alloc *alloc)
{
    chk_search *s = chk__zalloc(alloc, sizeof *s);
    if (!s)
        return NULL;
    size_t n;
    s->alloc = alloc;
    s->tt = chk__table_alloc(alloc, hash_bytes, sizeof *s->tt, &n);
    if (s->tt)
        s->tt_mask = n - 1;
    s->moves = chk__mem(alloc, NULL, 0, MOVE_STACK * sizeof *s->moves);
    s->scores = chk__mem(alloc, NULL, 0, MOVE_STACK * sizeof *s->scores);
    if (!s->tt || !s->moves || !s->scores) {
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
    if (s->tt)
        chk__mem(a, s->tt, (s->tt_mask + 1) * sizeof *s->tt, 0);
    chk__mem(a, s->moves, MOVE_STACK * sizeof *s->moves, 0);
    chk__mem(a, s->scores, MOVE_STACK * sizeof *s->scores, 0);
    chk__mem(a, s, sizeof *s, 0);
}

void chk_search_forget(chk_search *s)
{
    if (++s->age == 0)
        chk_search_clear(s);    /* ages wrapped: zero everything once in 255 times */
    s->age = s->age ? s->age : 1;
    memset(s->killers, 0, sizeof s->killers);
    memset(s->history, 0, sizeof s->history);
}

void chk_search_clear(chk_search *s)
{
    memset(s->tt, 0, (s->tt_mask + 1) * sizeof *s->tt);
    memset(s->killers, 0, sizeof s->killers);
    memset(s->history, 0, sizeof s->history);
    s->age = 0;
}
