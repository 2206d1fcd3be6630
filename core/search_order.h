/*
 * search_order.h - the engine's move ordering (search.c, its one includer):
 * the hash move first, then captures and promotions in the static order of
 * chk_order_scores, the two killers of the ply, then the history counts;
 * and what a cutoff teaches them. static inline: it runs at every node.
 */
#ifndef CHESKERS_SEARCH_ORDER_H
#define CHESKERS_SEARCH_ORDER_H

#include "search_internal.h"

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

/* Ordering scores for list[0..n): hash move, then captures (more pieces
 * first, then more value, cheaper capturer first) and promotions (the
 * static order of chk_order_scores, which bots get too), killers, history. */
static inline void score_moves(chk_search *s, chk_move *list, int *sc, int n, const tt_entry *e, int ply)
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

/* A quiet move m of the side to move at ply (< CHK_MAX_PLY) failed high at
 * depth: it becomes the ply's first killer and its history count grows
 * (all of the side's counts halve when one passes 1 << 20). */
static inline void order_cutoff(chk_search *s, int ply, int depth, const chk_move *m)
{
    const chk_pos *p = s->p;
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

#endif
