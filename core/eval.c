/*
 * eval.c - the static evaluation: a linear sum of named weights times
 * features (material per kind, pawn advancement, mobility, king safety,
 * back rank, centre, tempo), each feature counted for the side to move
 * minus the other side; and the static move-ordering score built on the
 * same piece values (chk_order_scores). Pure bitboard work, no allocation.
 */
#include <string.h>

#include "internal.h"

static const char *const weight_names[CHK_NWEIGHTS] = {
    "pawn", "king", "bishop", "camel", "extra", "lone_king", "advance",
    "pawn_near", "mobility", "king_attacked", "attacked", "king_guard", "back_rank",
    "center", "tempo"
};

static const int weight_defaults[CHK_NWEIGHTS] = {
    [CHK_W_PAWN] = 100,
    [CHK_W_KING] = 159,
    [CHK_W_BISHOP] = 574,
    [CHK_W_CAMEL] = 361,
    [CHK_W_EXTRA] = 250,
    [CHK_W_LONE_KING] = -144,
    [CHK_W_ADVANCE] = 13,
    [CHK_W_PAWN_NEAR] = 217,
    [CHK_W_MOBILITY] = 25,
    [CHK_W_KING_ATTACKED] = -111,
    [CHK_W_ATTACKED] = -37,
    [CHK_W_KING_GUARD] = 25,
    [CHK_W_BACK_RANK] = 61,
    [CHK_W_CENTER] = 13,
    [CHK_W_TEMPO] = 37,
};

/* c3, e3 (rank 3), d4, f4, c5, e5, d6, f6: the dark squares of c3-f6. */
#define CENTER_MASK (BB(9) | BB(10) | BB(13) | BB(14) | BB(17) | BB(18) | BB(21) | BB(22))

void chk_weights_default(chk_weights *w)
{
    memcpy(w->w, weight_defaults, sizeof w->w);
}

const char *chk_weight_name(int i)
{
    return i >= 0 && i < CHK_NWEIGHTS ? weight_names[i] : NULL;
}

int chk_weight_index(const char *name)
{
    for (int i = 0; name && i < CHK_NWEIGHTS; i++)
        if (!strcmp(name, weight_names[i]))
            return i;
    return -1;
}

/* One pass over the pieces of side c that move by vectors (bishops,
 * camels, kinds of rule experiments): their pseudo-legal moves (captures
 * included) and the squares they hit. */
static int vector_moves(const chk_pos *p, int c, chk_bb *hits)
{
    const chk_rules *r = p->rules;
    chk_bb own = p->occ[c], all = p->occ[0] | p->occ[1];
    chk_bb h = 0;
    int n = 0;
    for (int kind = 2; kind < r->nkinds; kind++) {
        const chk_kind *k = &r->kinds[kind];
        for (chk_bb b = p->bb[c][kind]; b; b &= b - 1) {
            int sq = bb_first(b);
            chk_bb t = k->leap_to[sq];
            for (int i = 0; i < k->nride_dirs; i++)
                t |= ride_targets(k, sq, k->ride_dir[i], all);
            n += bb_count(t & ~own);
            h |= t;
        }
    }
    *hits = h;
    return n;
}

/* The pieces of side c that the other side could capture if it were to
 * move: jumped by a pawn (forward, or backward under
 * pawns_capture_backward) or a king (any direction, non-flying), or hit by
 * a vector piece (them_hits, from vector_moves). */
static chk_bb attacked(const chk_pos *p, int c, chk_bb them_hits)
{
    const chk_rules *r = p->rules;
    int them = !c;
    chk_bb own = p->occ[c], empty = ~(p->occ[0] | p->occ[1]);
    chk_bb pawns = p->bb[them][CHK_PAWN], kings = p->bb[them][CHK_KING];
    chk_bb up = kings, down = kings;   /* jumpers moving towards rank 8 / rank 1 */
    if (them == CHK_WHITE || r->pawns_capture_backward)
        up |= pawns;
    if (them == CHK_BLACK || r->pawns_capture_backward)
        down |= pawns;
    return ((bb_ne(up) & own & bb_sw(empty)) | (bb_nw(up) & own & bb_se(empty))
            | (bb_se(down) & own & bb_nw(empty)) | (bb_sw(down) & own & bb_ne(empty))
            | (them_hits & own));
}

/* Pseudo-legal steps of side c's pawns and kings. */
static int step_moves(const chk_pos *p, int c)
{
    chk_bb empty = ~(p->occ[0] | p->occ[1]);
    chk_bb pawns = p->bb[c][CHK_PAWN], kings = p->bb[c][CHK_KING];
    int n = c == CHK_WHITE ? bb_count(bb_ne(pawns) & empty) + bb_count(bb_nw(pawns) & empty)
                           : bb_count(bb_se(pawns) & empty) + bb_count(bb_sw(pawns) & empty);
    return n + bb_count(bb_ne(kings) & empty) + bb_count(bb_nw(kings) & empty)
           + bb_count(bb_se(kings) & empty) + bb_count(bb_sw(kings) & empty);
}

/* Features of side c alone; mob and hits: side c's vector_moves,
 * them_hits: the other side's. */
static void side_features(const chk_pos *p, int c, int mob, chk_bb them_hits, int f[CHK_NWEIGHTS])
{
    const chk_rules *r = p->rules;
    chk_bb own = p->occ[c];
    chk_bb pawns = p->bb[c][CHK_PAWN], kings = p->bb[c][CHK_KING];
    int nkings = bb_count(kings);
    f[CHK_W_PAWN] = bb_count(pawns);
    f[CHK_W_KING] = nkings;
    f[CHK_W_BISHOP] = bb_count(p->bb[c][CHK_BISHOP]);
    f[CHK_W_CAMEL] = bb_count(p->bb[c][CHK_CAMEL]);
    f[CHK_W_EXTRA] = 0;
    for (int k = 4; k < r->nkinds; k++)
        f[CHK_W_EXTRA] += bb_count(p->bb[c][k]);
    f[CHK_W_LONE_KING] = nkings == 1;
    int adv = 0;
    for (chk_bb b = pawns; b; b &= b - 1) {
        int rank = bb_first(b) >> 2;
        adv += c == CHK_WHITE ? rank : 7 - rank;
    }
    f[CHK_W_ADVANCE] = adv;
    f[CHK_W_PAWN_NEAR] = bb_count(pawns & (c == CHK_WHITE ? 0x0F000000u : 0x000000F0u));
    f[CHK_W_MOBILITY] = mob + step_moves(p, c);
    chk_bb hit = attacked(p, c, them_hits);
    f[CHK_W_KING_ATTACKED] = bb_count(hit & kings);
    f[CHK_W_ATTACKED] = bb_count(hit & ~kings);
    f[CHK_W_KING_GUARD] = bb_count(own & (bb_ne(kings) | bb_nw(kings) | bb_se(kings) | bb_sw(kings)));
    f[CHK_W_BACK_RANK] = bb_count(own & (c == CHK_WHITE ? RANK_1 : RANK_8));
    f[CHK_W_CENTER] = bb_count(own & CENTER_MASK);
    f[CHK_W_TEMPO] = 0;
}

CHK_POPCNT_CLONES void chk_eval_features(const chk_pos *p, int f[CHK_NWEIGHTS])
{
    int a[CHK_NWEIGHTS], b[CHK_NWEIGHTS];
    int us = p->side;
    chk_bb hits[2];
    int mob[2];
    mob[0] = vector_moves(p, 0, &hits[0]);
    mob[1] = vector_moves(p, 1, &hits[1]);
    side_features(p, us, mob[us], hits[!us], a);
    side_features(p, !us, mob[!us], hits[us], b);
    for (int i = 0; i < CHK_NWEIGHTS; i++)
        f[i] = a[i] - b[i];
    f[CHK_W_TEMPO] = 1;
}

int chk_eval(const chk_pos *p, const chk_weights *w)
{
    int f[CHK_NWEIGHTS];
    long s = 0;
    chk_eval_features(p, f);
    for (int i = 0; i < CHK_NWEIGHTS; i++)
        s += (long)w->w[i] * f[i];
    const long lim = CHK_SCORE_MATE_MIN - 1;
    return (int)(s > lim ? lim : s < -lim ? -lim : s);
}

/* The weight that values a piece of this kind. */
static int kind_value(const chk_weights *w, int kind)
{
    return w->w[kind < 4 ? CHK_W_PAWN + kind : CHK_W_EXTRA];
}

/* The value by w of the pieces m captures. */
static int captured_value(const chk_pos *p, const chk_weights *w, const chk_move *m)
{
    int v = 0;
    for (chk_bb c = m->captures; c; c &= c - 1)
        v += kind_value(w, CHK_PIECE_KIND(p->sq[bb_first(c)]));
    return v;
}

int chk_move_gain(const chk_pos *p, const chk_weights *w, const chk_move *m)
{
    int v = captured_value(p, w, m);
    if (m->promo != CHK_NONE)
        v += kind_value(w, m->promo) - kind_value(w, m->kind);
    return v;
}

void chk_order_scores(const chk_pos *p, const chk_weights *w, const chk_move *list, int n, int *sc)
{
    for (int i = 0; i < n; i++) {
        const chk_move *m = &list[i];
        int promo = m->promo != CHK_NONE ? kind_value(w, m->promo) : 0;
        if (m->captures) {
            sc[i] = (1 << 26) + (bb_count(m->captures) << 20) + captured_value(p, w, m) * 8
                    - kind_value(w, m->kind) / 16 + promo;
        } else if (m->promo != CHK_NONE)
            sc[i] = (1 << 25) + promo;
        else
            sc[i] = 0;
    }
}
