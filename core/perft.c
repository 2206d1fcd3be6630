/*
 * perft.c - counts move sequences (perft), with bulk counting of the last
 * ply, and per-root-move counts (divide). Stopped by a chk_stop (a flag or
 * a deadline); results and failures as in cheskers.h (chk_status).
 */
#include <string.h>

#include "internal.h"

/* Rules under which a position's future depends on its pieces alone. */
static bool plain_rules(const chk_rules *r)
{
    return !r->filter && !r->result && !r->draw_repetition && !r->draw_quiet_plies;
}

/* c gets the bitboards of the position after m (enough for chk__count_bb). */
static void child_bits(const chk_pos *p, const chk_move *m, chk_pos *c)
{
    int us = p->side, them = !us;
    c->rules = p->rules;
    memcpy(c->bb, p->bb, sizeof c->bb);
    c->occ[us] = (p->occ[us] ^ BB(m->from)) | BB(m->to);
    c->occ[them] = p->occ[them] & ~m->captures;
    c->bb[us][m->kind] ^= BB(m->from);
    c->bb[us][m->promo != CHK_NONE ? m->promo : m->kind] |= BB(m->to);
    for (chk_bb b = m->captures; b; b &= b - 1) {
        int sq = bb_first(b);
        c->bb[them][CHK_PIECE_KIND(p->sq[sq])] &= ~BB(sq);
    }
    c->side = (uint8_t)them;
}

/* The last ply of a perft that makes every move: each of the n moves of
 * list made and taken back. Returns n, or CHK_NO_MEMORY when the history
 * cannot grow. */
static inline int64_t make_each(chk_pos *p, const chk_move *list, int n)
{
    for (int i = 0; i < n; i++) {
        if (!chk_make(p, &list[i]))
            return CHK_NO_MEMORY;
        chk_unmake(p);
    }
    return n;
}

/* The last two plies from the n moves of list, in one frame (its own: the
 * callers' frames keep one move list each). Returns the count or a
 * negative chk_status. */
static __attribute__((noinline)) int64_t make_last_two(chk_pos *p, const chk_move *list, int n)
{
    chk_move next[CHK_MAX_MOVES];
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        if (!chk_make(p, &list[i]))
            return CHK_NO_MEMORY;
        int c = chk_gen_moves(p, next);
        int64_t count = c < 0 ? CHK_HOOK_ERROR : make_each(p, next, c);
        chk_unmake(p);
        if (count < 0)
            return count;
        total += count;
    }
    return total;
}

/* Returns the count or a negative chk_status; the position is always
 * restored. */
static int64_t perft_rec(chk_pos *p, int depth, bool bulk, chk_stop *stop)
{
    chk_move list[CHK_MAX_MOVES];
    if (depth == 0)
        return 1;
    chk_status st = chk_stop_check(stop);
    if (st != CHK_OK)
        return st;
    if (bulk && depth == 1) {
        int n = chk_count_moves(p);
        return n < 0 ? CHK_HOOK_ERROR : n;
    }
    int n = chk_gen_moves(p, list);
    if (n < 0)
        return CHK_HOOK_ERROR;
    int64_t total = 0;
    if (bulk && depth == 2 && plain_rules(p->rules)) {
        chk_pos c;
        for (int i = 0; i < n; i++) {
            child_bits(p, &list[i], &c);
            total += chk__count_bb(&c);
        }
        return total;
    }
    if (depth == 1)
        return make_each(p, list, n);
    if (depth == 2 && !bulk)
        return make_last_two(p, list, n);
    for (int i = 0; i < n; i++) {
        if (!chk_make(p, &list[i]))
            return CHK_NO_MEMORY;
        int64_t c = perft_rec(p, depth - 1, bulk, stop);
        chk_unmake(p);
        if (c < 0)
            return c;
        total += c;
    }
    return total;
}

int64_t chk_perft(chk_pos *p, int depth, bool bulk, chk_stop *stop)
{
    if (depth < 0)
        return 0;
    return perft_rec(p, depth, bulk, stop);
}

int chk_divide(chk_pos *p, int depth, chk_move *moves, int64_t *counts, chk_stop *stop)
{
    int n = chk_gen_moves(p, moves);
    if (n < 0)
        return CHK_HOOK_ERROR;
    for (int i = 0; i < n; i++) {
        if (depth <= 1) {
            counts[i] = 1;
            continue;
        }
        if (!chk_make(p, &moves[i]))
            return CHK_NO_MEMORY;
        int64_t c = perft_rec(p, depth - 1, true, stop);
        chk_unmake(p);
        if (c < 0)
            return (int)c;
        counts[i] = c;
    }
    return n;
}
