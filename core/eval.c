/*
 * eval.c - the static evaluation: a linear sum of named weights times
 * features (material per kind, pawn advancement, mobility, king safety,
 * back rank, centre, tempo; free and backed pawns, chess pieces' mobility,
 * trapped and threatened kings, edge pieces, endgame-scaled advance and
 * material lead), each feature counted for the side to move minus the
 * other side; and the static move-ordering score built on the
 * same piece values (chk_order_scores). Pure bitboard work, no allocation.
 */
#include <string.h>

#include "internal.h"

static const char *const weight_names[CHK_NWEIGHTS] = {
    "pawn", "king", "bishop", "camel", "extra", "lone_king", "advance",
    "pawn_near", "mobility", "king_attacked", "attacked", "king_guard", "back_rank",
    "center", "tempo", "free_pawn", "free_advance", "chess_mobility", "king_trapped",
    "king_danger", "advance_end", "trade", "backed", "edge"
};

static const int weight_defaults[CHK_NWEIGHTS] = {
    /* w4 (docs/notes/engine-history.md, "New features"): fitted to 20,000 games of w1 */
    [CHK_W_PAWN] = 100,
    [CHK_W_KING] = 196,
    [CHK_W_BISHOP] = 533,
    [CHK_W_CAMEL] = 341,
    [CHK_W_EXTRA] = 250,
    [CHK_W_LONE_KING] = -108,
    [CHK_W_ADVANCE] = -19,
    [CHK_W_PAWN_NEAR] = 98,
    [CHK_W_MOBILITY] = 14,
    [CHK_W_KING_ATTACKED] = -68,
    [CHK_W_ATTACKED] = -20,
    [CHK_W_KING_GUARD] = 15,
    [CHK_W_BACK_RANK] = 33,
    [CHK_W_CENTER] = 7,
    [CHK_W_TEMPO] = 23,
    [CHK_W_FREE_PAWN] = -37,
    [CHK_W_FREE_ADVANCE] = 20,
    [CHK_W_CHESS_MOBILITY] = 6,
    [CHK_W_KING_TRAPPED] = 15,
    [CHK_W_KING_DANGER] = -16,
    [CHK_W_ADVANCE_END] = 17,
    [CHK_W_TRADE] = 6,
    [CHK_W_BACKED] = -16,
    [CHK_W_EDGE] = -24,
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

/* The forward cone of a pawn of each colour on each square: every square
 * its steps could reach (rank r + d, files within d of its own). */
static const chk_bb pawn_cone[2][32] = {
    {   /* white, up the board */
        0xFF773310u, 0xFFFF7730u, 0xFFFFFE60u, 0xFFFEECC0u,
        0xFF773300u, 0xFFFF7600u, 0xFFFEEC00u, 0xFEECC800u,
        0x77331000u, 0xFF773000u, 0xFFFE6000u, 0xFEECC000u,
        0x77330000u, 0xFF760000u, 0xFEEC0000u, 0xECC80000u,
        0x33100000u, 0x77300000u, 0xFE600000u, 0xECC00000u,
        0x33000000u, 0x76000000u, 0xEC000000u, 0xC8000000u,
        0x10000000u, 0x30000000u, 0x60000000u, 0xC0000000u,
        0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u,
    },
    {   /* black, down the board */
        0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u,
        0x00000003u, 0x00000006u, 0x0000000Cu, 0x00000008u,
        0x00000013u, 0x00000037u, 0x0000006Eu, 0x000000CCu,
        0x00000337u, 0x0000067Fu, 0x00000CEEu, 0x000008CCu,
        0x00001337u, 0x0000377Fu, 0x00006EFFu, 0x0000CCEEu,
        0x0003377Fu, 0x00067FFFu, 0x000CEEFFu, 0x0008CCEEu,
        0x0013377Fu, 0x00377FFFu, 0x006EFFFFu, 0x00CCEEFFu,
        0x03377FFFu, 0x067FFFFFu, 0x0CEEFFFFu, 0x08CCEEFFu,
    },
};

/* The squares one or two diagonal steps from each square (the square
 * itself left out): offsets (+-1, +-1), (+-2, +-2), (+-2, 0), (0, +-2). */
static const chk_bb two_steps[32] = {
    0x00000312u, 0x00000735u, 0x00000E6Au, 0x00000CC4u,
    0x00003323u, 0x00007656u, 0x0000ECACu, 0x0000C848u,
    0x00031213u, 0x00073537u, 0x000E6A6Eu, 0x000CC4CCu,
    0x00332330u, 0x00765670u, 0x00ECACE0u, 0x00C848C0u,
    0x03121300u, 0x07353700u, 0x0E6A6E00u, 0x0CC4CC00u,
    0x33233000u, 0x76567000u, 0xECACE000u, 0xC848C000u,
    0x12130000u, 0x35370000u, 0x6A6E0000u, 0xC4CC0000u,
    0x23300000u, 0x56700000u, 0xACE00000u, 0x48C00000u,
};

/* Side c's pawns whose two squares diagonally behind are not empty (an
 * own or enemy piece, or the board's edge): no jump from the front lands
 * there. */
static chk_bb backed_pawns(const chk_pos *p, int c)
{
    chk_bb empty = ~(p->occ[0] | p->occ[1]), pawns = p->bb[c][CHK_PAWN];
    chk_bb open = c == CHK_WHITE ? bb_ne(empty) | bb_nw(empty) : bb_se(empty) | bb_sw(empty);
    return pawns & ~open;
}

/* The compiler's count: inside a CHK_POPCNT_CLONES function's popcount
 * copy one instruction (bb_count's bit-parallel count is for code that has
 * no such copy; in side_features gcc turns only part of it into the
 * instruction: 9% fewer nodes a second, measured). */
static inline int count(chk_bb b)
{
    return __builtin_popcount(b);
}

/* Features of side c alone; mob and hits: side c's vector_moves,
 * them_hits: the other side's. (advance_end and trade: chk_eval_features.)
 * Built twice where the loader can choose (CHK_POPCNT_CLONES): the copy for
 * the popcount instruction, which nearly every x86-64 processor has, runs
 * count() as one instruction instead of a library call (nodes a second: the
 * features cost about 4% with it, 10% without; docs/guide/engine.md). */
CHK_POPCNT_CLONES static void side_features(const chk_pos *p, int c, int mob, chk_bb them_hits, int f[CHK_NWEIGHTS])
{
    const chk_rules *r = p->rules;
    chk_bb own = p->occ[c], empty = ~(p->occ[0] | p->occ[1]);
    chk_bb pawns = p->bb[c][CHK_PAWN], kings = p->bb[c][CHK_KING];
    int nkings = count(kings);
    f[CHK_W_PAWN] = count(pawns);
    f[CHK_W_KING] = nkings;
    f[CHK_W_BISHOP] = count(p->bb[c][CHK_BISHOP]);
    f[CHK_W_CAMEL] = count(p->bb[c][CHK_CAMEL]);
    f[CHK_W_EXTRA] = 0;
    for (int k = 4; k < r->nkinds; k++)
        f[CHK_W_EXTRA] += count(p->bb[c][k]);
    f[CHK_W_LONE_KING] = nkings == 1;
    /* a free pawn: no enemy pawn or king in its forward cone, so nothing
     * checkers-like can block or jump it (chess pieces are not counted) */
    chk_bb stoppers = p->bb[!c][CHK_PAWN] | p->bb[!c][CHK_KING];
    int adv = 0, nfree = 0, fadv = 0;
    for (chk_bb b = pawns; b; b &= b - 1) {
        int sq = bb_first(b), rank = sq >> 2;
        int a = c == CHK_WHITE ? rank : 7 - rank;
        adv += a;
        if (!(pawn_cone[c][sq] & stoppers))
            nfree++, fadv += a;
    }
    f[CHK_W_ADVANCE] = adv;
    f[CHK_W_PAWN_NEAR] = count(pawns & (c == CHK_WHITE ? 0x0F000000u : 0x000000F0u));
    f[CHK_W_MOBILITY] = mob + step_moves(p, c);
    chk_bb hit = attacked(p, c, them_hits);
    f[CHK_W_KING_ATTACKED] = count(hit & kings);
    f[CHK_W_ATTACKED] = count(hit & ~kings);
    chk_bb near = bb_ne(kings) | bb_nw(kings) | bb_se(kings) | bb_sw(kings), reach = 0;
    for (chk_bb b = kings; b; b &= b - 1)
        reach |= two_steps[bb_first(b)];
    f[CHK_W_KING_GUARD] = count(own & near);
    f[CHK_W_BACK_RANK] = count(own & (c == CHK_WHITE ? RANK_1 : RANK_8));
    f[CHK_W_CENTER] = count(own & CENTER_MASK);
    f[CHK_W_TEMPO] = 0;
    f[CHK_W_FREE_PAWN] = nfree;
    f[CHK_W_FREE_ADVANCE] = fadv;
    f[CHK_W_CHESS_MOBILITY] = mob;
    chk_bb trapped = kings & ~(bb_ne(empty) | bb_nw(empty) | bb_se(empty) | bb_sw(empty));
    f[CHK_W_KING_TRAPPED] = trapped ? count(trapped) : 0;
    f[CHK_W_KING_DANGER] = count(p->occ[!c] & reach);
    f[CHK_W_ADVANCE_END] = 0;
    f[CHK_W_TRADE] = 0;
    f[CHK_W_BACKED] = count(backed_pawns(p, c));
    f[CHK_W_EDGE] = count(own & (FILE_A | FILE_H));
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
    /* the endgame terms: pieces gone from the 26 of the start, times the
     * advance, and times the material lead in half pawns (pawn 2, king 3,
     * bishop 11, camel 7, another kind 5) */
    int gone = 26;
    for (int i = CHK_W_PAWN; i <= CHK_W_EXTRA; i++)
        gone -= a[i] + b[i];
    if (gone < 0)
        gone = 0;
    f[CHK_W_ADVANCE_END] = a[CHK_W_ADVANCE] * gone / 8 - b[CHK_W_ADVANCE] * gone / 8;
    f[CHK_W_TRADE] = (2 * f[CHK_W_PAWN] + 3 * f[CHK_W_KING] + 11 * f[CHK_W_BISHOP] + 7 * f[CHK_W_CAMEL]
                      + 5 * f[CHK_W_EXTRA]) * gone / 16;
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
