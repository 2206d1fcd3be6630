/*
 * tb_walk.c - walking the positions of one table: the won ones, how many of
 * them have a single winning move (the atlas), and the longest of them (the
 * candidates of endgame studies, cheskers mine --studies). The interface is
 * cheskers_tb.h; the index is tb_index.c's, probing tb.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_internal.h"

/* The i-th table of tb, loaded (NULL with the message in tb->err). */
static tb_table *table_at(chk_tb *tb, int i)
{
    int rc;
    if (i < 0 || i >= tb->ntables) {
        snprintf(tb->err, sizeof tb->err, "no table number %d", i);
        return NULL;
    }
    return tb_find(tb, tb->tables[i]->key, &rc);
}

/* Puts the pieces of index idx on p (an empty board, White to move);
 * false when the index holds no position. */
static bool set_index(const tb_table *t, uint64_t idx, chk_pos *p)
{
    uint8_t sq[CHK_TB_MAX_PIECES], pc[CHK_TB_MAX_PIECES];
    if (!tb_decode(&t->lay, idx, sq, pc))
        return false;
    for (int k = 0; k < t->lay.pieces; k++)
        chk_pos_put(p, sq[k], pc[k]);
    return true;
}

static void clear_board(chk_pos *p)
{
    for (chk_bb b = p->occ[0] | p->occ[1]; b; b &= b - 1)
        chk_pos_put(p, __builtin_ctz(b), CHK_NONE);
}

/* The number of moves of p that win for its side to move, counted up to 2
 * (2: two or more); a move into a position no table covers counts as a
 * win (it may be one). A negative chk_status on failure. */
static int winning_moves(chk_tb *tb, chk_pos *p, chk_move *moves)
{
    int n = chk_gen_moves(p, moves), wins = 0;
    for (int k = 0; k < n && wins < 2; k++) {
        uint8_t b;
        if (!chk_make(p, &moves[k])) {
            snprintf(tb->err, sizeof tb->err, "out of memory");
            return CHK_NO_MEMORY;
        }
        int rc = tb_probe_byte(tb, p, &b);
        chk_unmake(p);
        if (rc < 0)
            return rc;
        /* the opponent loses: an even distance (TB_BYTE(d) = d + 2) */
        if (rc == 0 || (b != TB_BYTE_DRAW && (b & 1) == 0))
            wins++;
    }
    return n < 0 ? n : wins;
}

/* a before b in the list: longer first, then the lower index. */
static bool better(const chk_tb_win *a, const chk_tb_win *b)
{
    return a->distance != b->distance ? a->distance > b->distance : a->index < b->index;
}

/* The kept list is a heap whose root is the worst entry. */
static void sift_down(chk_tb_win *h, int n, int i)
{
    for (;;) {
        int w = i, l = 2 * i + 1, r = l + 1;
        if (l < n && better(&h[w], &h[l]))
            w = l;
        if (r < n && better(&h[w], &h[r]))
            w = r;
        if (w == i)
            return;
        chk_tb_win x = h[i];
        h[i] = h[w];
        h[w] = x;
        i = w;
    }
}

static void sift_up(chk_tb_win *h, int i)
{
    while (i > 0 && better(&h[(i - 1) / 2], &h[i])) {
        chk_tb_win x = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = x;
        i = (i - 1) / 2;
    }
}

/* Adds w to the kept list h (n entries, room for keep); returns the new n. */
static int keep_win(chk_tb_win *h, int n, int keep, chk_tb_win w)
{
    if (n < keep) {
        h[n] = w;
        sift_up(h, n);
        return n + 1;
    }
    if (keep > 0 && better(&w, &h[0])) {
        h[0] = w;
        sift_down(h, n, 0);
    }
    return n;
}

static int cmp_win(const void *a, const void *b)
{
    return better(a, b) ? -1 : better(b, a) ? 1 : 0;
}

int chk_tb_wins(chk_tb *tb, int i, const chk_tb_walk_opts *o, chk_tb_win *out, uint64_t *count)
{
    tb_table *t = table_at(tb, i);
    chk_move *moves;
    chk_pos p;
    int kept = 0, rc = 0;
    *count = 0;
    if (!t)
        return CHK_TB_ERROR;
    if (!(moves = malloc(CHK_MAX_MOVES * sizeof *moves))) {
        snprintf(tb->err, sizeof tb->err, "out of memory");
        return CHK_NO_MEMORY;
    }
    chk_pos_init(&p, &tb->rules);
    for (uint64_t idx = 0; idx < t->lay.size; idx++) {
        uint8_t b = 0;
        if ((idx & 0xFFF) == 0 && o->stop && *o->stop) {
            rc = CHK_STOPPED;
            break;
        }
        if ((rc = tb_table_byte(tb, t, idx, &b)) < 0)
            break;
        if (b == TB_BYTE_NONE || b == TB_BYTE_DRAW || !((b - 2) & 1) || b - 2 < o->min_distance)
            continue;
        if (o->unique) {
            set_index(t, idx, &p);
            rc = winning_moves(tb, &p, moves);
            clear_board(&p);
            if (rc < 0)
                break;
            if (rc != 1)
                continue;
        }
        *count += (uint64_t)tb_weight(&t->lay, idx);
        kept = keep_win(out, kept, o->keep, (chk_tb_win){idx, b - 2});
    }
    chk_pos_free(&p);
    free(moves);
    if (rc < 0)
        return rc;
    qsort(out, (size_t)kept, sizeof *out, cmp_win);
    return kept;
}

int chk_tb_index_fen(chk_tb *tb, int i, uint64_t idx, char *buf, size_t n)
{
    uint8_t sq[CHK_TB_MAX_PIECES], pc[CHK_TB_MAX_PIECES];
    tb_table *t = table_at(tb, i);
    uint8_t b = 0;
    int rc;
    if (!t)
        return CHK_TB_ERROR;
    if (idx >= t->lay.size || !tb_decode(&t->lay, idx, sq, pc))
        return 0;
    if ((rc = tb_table_byte(tb, t, idx, &b)) < 0)
        return rc;
    if (b == TB_BYTE_NONE)
        return 0;
    tb_index_fen(tb, t, idx, buf, n);
    return 1;
}

int chk_tb_number(const chk_tb *tb, const char *name)
{
    for (int i = 0; i < tb->ntables; i++)
        if (!strcmp(tb->tables[i]->name, name))
            return i;
    return -1;
}
