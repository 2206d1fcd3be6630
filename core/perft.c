/*
 * perft.c - counts move sequences (perft), with bulk counting of the last
 * ply, and per-root-move counts (divide). Interruptible through a flag.
 */
#include "internal.h"

/* Returns the count, -1 when stopped, -2 when a hook failed; the position
 * is always restored. */
static int64_t perft_rec(chk_pos *p, int depth, bool bulk, const volatile sig_atomic_t *stop)
{
    chk_move list[CHK_MAX_MOVES];
    if (depth == 0)
        return 1;
    if (stop && *stop)
        return -1;
    if (bulk && depth == 1) {
        int n = chk_count_moves(p);
        return n < 0 ? -2 : n;
    }
    int n = chk_gen_moves(p, list);
    if (n < 0)
        return -2;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        if (!chk_make(p, &list[i]))
            return -2;
        int64_t c = perft_rec(p, depth - 1, bulk, stop);
        chk_unmake(p);
        if (c < 0)
            return c;
        total += c;
    }
    return total;
}

int64_t chk_perft(chk_pos *p, int depth, bool bulk, const volatile sig_atomic_t *stop)
{
    if (depth < 0)
        return 0;
    return perft_rec(p, depth, bulk, stop);
}

int chk_divide(chk_pos *p, int depth, chk_move *moves, int64_t *counts,
               const volatile sig_atomic_t *stop)
{
    int n = chk_gen_moves(p, moves);
    if (n < 0)
        return -2;
    for (int i = 0; i < n; i++) {
        if (depth <= 1) {
            counts[i] = 1;
            continue;
        }
        if (!chk_make(p, &moves[i]))
            return -2;
        int64_t c = perft_rec(p, depth - 1, true, stop);
        chk_unmake(p);
        if (c < 0)
            return (int)c;
        counts[i] = c;
    }
    return n;
}
