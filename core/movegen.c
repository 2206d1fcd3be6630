/*
 * movegen.c - legal move generation (docs/reference/rules.md): pawn and king jump chains
 * with the majority rule, chains that stop on promotion, bishop slides and
 * camel leaps (or any kind defined by vectors), takes, and the capture
 * rule options. Under fast_count rules (the default ones) a faster path
 * writes the same moves in the same order: one without jumps, one with
 * pawn and king jumps. Also a fast legal-move counter for perft's last ply.
 * Whether the game is over, and so the legal moves (chk_gen_moves), is
 * result.c's. Nothing here allocates; it calls no other file.
 */
#include <string.h>

#include "internal.h"

typedef struct gen {
    const chk_pos *p;
    chk_move *list;
    int n;
    int us, them;
    chk_bb enemy;
    chk_bb empty;       /* empty squares, the moving piece lifted off */
    int from, kind;
    uint8_t flags;      /* flags of the chains being built */
    int first;          /* index of the first chain of the current piece */
    uint8_t path[CHK_MAX_PATH];
} gen;

static inline chk_move *push(gen *g)
{
    return g->n < CHK_MAX_MOVES ? &g->list[g->n++] : NULL;
}

/* Writes a move with one landing at *m unless the list is full (m == end:
 * the move is dropped, as push does). Returns the next free slot. */
static inline chk_move *put_move(chk_move *m, const chk_move *end, int from, int to, int kind,
                                 int promo, uint8_t flags, chk_bb cap)
{
    if (m == end)
        return m;
    m->captures = cap;
    m->from = (uint8_t)from;
    m->to = (uint8_t)to;
    m->kind = (uint8_t)kind;
    m->promo = (uint8_t)promo;
    m->flags = flags;
    m->npath = 1;
    m->path[0] = (uint8_t)to;
    return m + 1;
}

static inline void add_simple(gen *g, int from, int to, int kind, int promo, uint8_t flags, chk_bb cap)
{
    chk_move *m = put_move(g->list + g->n, g->list + CHK_MAX_MOVES, from, to, kind, promo, flags, cap);
    g->n = (int)(m - g->list);
}

/* Adds a step (or a pawn's step with each promotion choice). */
static inline void add_step(gen *g, int from, int to, int kind)
{
    if (kind == CHK_PAWN && (promo_rank(g->us) & BB(to))) {
        const chk_rules *r = g->p->rules;
        for (int k = 1; k < r->nkinds; k++)
            if (r->promote & (1u << k))
                add_simple(g, from, to, kind, k, 0, 0);
    } else {
        add_simple(g, from, to, kind, CHK_NONE, 0, 0);
    }
}

/* Ends a chain at sq, unless the same move (same end, captures, promotion)
 * is already listed for this piece. */
static void end_chain(gen *g, int sq, chk_bb cap, int npath, int promo)
{
    for (int i = g->first; i < g->n; i++) {
        const chk_move *o = &g->list[i];
        if (o->to == sq && o->captures == cap && o->promo == promo)
            return;
    }
    chk_move *m = push(g);
    if (!m)
        return;
    m->captures = cap;
    m->from = (uint8_t)g->from;
    m->to = (uint8_t)sq;
    m->kind = (uint8_t)g->kind;
    m->promo = (uint8_t)promo;
    m->flags = g->flags;
    m->npath = (uint8_t)npath;
    memcpy(m->path, g->path, (size_t)npath);
}

static void end_chain_promo(gen *g, int sq, chk_bb cap, int npath)
{
    const chk_rules *r = g->p->rules;
    for (int k = 1; k < r->nkinds; k++)
        if (r->promote & (1u << k))
            end_chain(g, sq, cap, npath, k);
}

/* Continues a chain of the piece g->kind standing on sq having captured
 * cap; path[0..npath) holds the landings so far. Pawns use the king's
 * diagonal rays, forward only unless pawns_capture_backward. */
static void chain(gen *g, const chk_kind *k, int sq, chk_bb cap, int npath)
{
    const chk_rules *r = g->p->rules;
    bool pawn = g->kind == CHK_PAWN;
    bool more = false;
    if (npath >= CHK_MAX_PATH)
        goto done;
    for (int d = 0; d < k->ndirs; d++) {
        int len = k->ray_len[sq][d];
        const uint8_t *ray = k->ray[sq][d];
        if (pawn) {
            int dy = k->dir[d][1];
            if ((g->us == CHK_WHITE ? dy < 0 : dy > 0) && !r->pawns_capture_backward)
                continue;
        }
        if (!k->dir_ride[d] || pawn) {
            if (len < 2)
                continue;
            int over = ray[0], land = ray[1];
            if (!(g->enemy & BB(over)) || (cap & BB(over)) || !(g->empty & BB(land)))
                continue;
            more = true;
            g->path[npath] = (uint8_t)land;
            if (pawn && (promo_rank(g->us) & BB(land)))
                end_chain_promo(g, land, cap | BB(over), npath + 1);
            else
                chain(g, k, land, cap | BB(over), npath + 1);
        } else {
            int i = 0;
            while (i < len && (g->empty & BB(ray[i])))
                i++;
            if (i >= len - 1 || !(g->enemy & BB(ray[i])) || (cap & BB(ray[i])))
                continue;
            int over = ray[i];
            for (i++; i < len && (g->empty & BB(ray[i])); i++) {
                more = true;
                g->path[npath] = ray[i];
                chain(g, k, ray[i], cap | BB(over), npath + 1);
            }
        }
    }
done:
    if (!more && npath > 0)
        end_chain(g, sq, cap, npath, CHK_NONE);
}

/* Jump chains of every jumping piece (pawns and jump-style kinds). */
static void gen_jumps(gen *g)
{
    const chk_pos *p = g->p;
    const chk_rules *r = p->rules;
    chk_bb all = p->occ[0] | p->occ[1];
    chk_bb diag = chk__diagonal_jumpers(p, g->us);
    for (int kind = 0; kind < r->nkinds; kind++) {
        const chk_kind *k = &r->kinds[kind == CHK_PAWN ? CHK_KING : kind];
        chk_bb b = p->bb[g->us][kind];
        if (kind != CHK_PAWN && k->style != CHK_STYLE_JUMP)
            continue;
        if (kind == CHK_PAWN || (kind == CHK_KING && !r->flying_kings))
            b &= diag;
        g->kind = kind;
        g->flags = CHK_MF_JUMP | ((kind == CHK_PAWN || k->compulsory) ? CHK_MF_COMPULSORY : 0);
        for (; b; b &= b - 1) {
            g->from = bb_first(b);
            g->first = g->n;
            g->empty = ~all | BB(g->from);
            chain(g, k, g->from, 0, 0);
        }
    }
}

/* Pawn steps in one direction: shift moves the pawns, back undoes it. */
static void pawn_steps(gen *g, chk_bb pawns, chk_bb empty, chk_bb (*shift)(chk_bb),
                       chk_bb (*back)(chk_bb))
{
    for (chk_bb t = shift(pawns) & empty; t; t &= t - 1) {
        int to = bb_first(t);
        add_step(g, bb_first(back(BB(to))), to, CHK_PAWN);
    }
}

/* Takes, slides, leaps and pawn steps. */
static void gen_others(gen *g, bool takes, bool quiet)
{
    const chk_pos *p = g->p;
    const chk_rules *r = p->rules;
    chk_bb empty = ~(p->occ[0] | p->occ[1]);
    if (quiet) {
        chk_bb pawns = p->bb[g->us][CHK_PAWN];
        if (g->us == CHK_WHITE) {
            pawn_steps(g, pawns, empty, bb_ne, bb_sw);
            pawn_steps(g, pawns, empty, bb_nw, bb_se);
        } else {
            pawn_steps(g, pawns, empty, bb_se, bb_nw);
            pawn_steps(g, pawns, empty, bb_sw, bb_ne);
        }
    }
    for (int kind = 1; kind < r->nkinds; kind++) {
        const chk_kind *k = &r->kinds[kind];
        bool take = takes && k->style == CHK_STYLE_TAKE;
        uint8_t tflags = CHK_MF_TAKE | (k->compulsory ? CHK_MF_COMPULSORY : 0);
        chk_bb leap_mask = (quiet ? empty : 0) | (take ? g->enemy : 0);
        if (!leap_mask)
            continue;
        for (chk_bb b = p->bb[g->us][kind]; b; b &= b - 1) {
            int sq = bb_first(b);
            chk_bb done = k->leap_to[sq] & leap_mask;  /* a square reached two ways is one move */
            for (chk_bb t = done; t; t &= t - 1) {
                int to = bb_first(t);
                if (empty & BB(to))
                    add_simple(g, sq, to, kind, CHK_NONE, 0, 0);
                else
                    add_simple(g, sq, to, kind, CHK_NONE, tflags, BB(to));
            }
            for (int i = 0; i < k->nride_dirs; i++) {
                int d = k->ride_dir[i];
                chk_bb t = ride_targets(k, sq, d, ~empty) & ~done;
                done |= t;
                for (chk_bb q = quiet ? t & empty : 0; q; q &= q - 1)
                    add_simple(g, sq, bb_first(q), kind, CHK_NONE, 0, 0);
                if (take && (t & g->enemy))
                    add_simple(g, sq, bb_first(t & g->enemy), kind, CHK_NONE, tflags, t & g->enemy);
            }
        }
    }
}

static bool keep_majority(const chk_move *m, int max)
{
    return !((m->flags & CHK_MF_JUMP) && (m->flags & CHK_MF_COMPULSORY))
           || bb_count(m->captures) == max;
}

/* ---- the fast generator (fast_count rules, no jump) --------------------- */


/* Pawn steps onto the promotion rank squares of t (see put_pawn_steps),
 * one move per promotion choice. */
static chk_move *put_pawn_promotions(chk_move *m, const chk_move *end, chk_bb t, int back,
                                     const chk_rules *r)
{
    for (; t; t &= t - 1) {
        int to = bb_first(t), from = to + back + ((to >> 2) & 1);
        for (int k = 1; k < r->nkinds; k++)
            if (r->promote & (1u << k))
                m = put_move(m, end, from, to, CHK_PAWN, k, 0, 0);
    }
    return m;
}

/* Pawn steps onto the squares of t, all made by one diagonal shift: the
 * start square is to + back, plus one when to is on an odd rank index
 * (back: -5 for bb_ne, -4 for bb_nw, 3 for bb_se, 4 for bb_sw). A step onto
 * the promotion rank prank gives one move per promotion choice. The moves
 * come by increasing target square (prank is the top rank for White, the
 * bottom one for Black). */
static inline chk_move *put_pawn_steps(chk_move *m, const chk_move *end, chk_bb t, int back,
                                       chk_bb prank, const chk_rules *r)
{
    chk_bb promos = t & prank;
    if (promos && prank == RANK_1)
        m = put_pawn_promotions(m, end, promos, back, r);
    for (chk_bb s = t & ~prank; s; s &= s - 1) {
        int to = bb_first(s);
        m = put_move(m, end, to + back + ((to >> 2) & 1), to, CHK_PAWN, CHK_NONE, 0, 0);
    }
    if (promos && prank == RANK_8)
        m = put_pawn_promotions(m, end, promos, back, r);
    return m;
}

/* Every move of the side to move under fast_count rules when it has no
 * jump: then no capture is compulsory and every step, slide, leap and take
 * is legal. The same moves in the same order as gen_others(g, true, true). */
static int gen_quiet_fast(const chk_pos *p, chk_move *list)
{
    const chk_rules *r = p->rules;
    const chk_move *end = list + CHK_MAX_MOVES;
    chk_move *m = list;
    int us = p->side;
    chk_bb own = p->occ[us], enemy = p->occ[!us], all = own | enemy, empty = ~all;
    chk_bb pawns = p->bb[us][CHK_PAWN];
    if (us == CHK_WHITE) {
        m = put_pawn_steps(m, end, bb_ne(pawns) & empty, -5, RANK_8, r);
        m = put_pawn_steps(m, end, bb_nw(pawns) & empty, -4, RANK_8, r);
    } else {
        m = put_pawn_steps(m, end, bb_se(pawns) & empty, 3, RANK_1, r);
        m = put_pawn_steps(m, end, bb_sw(pawns) & empty, 4, RANK_1, r);
    }
    const chk_bb *king_to = r->kinds[CHK_KING].leap_to;
    for (chk_bb b = p->bb[us][CHK_KING]; b; b &= b - 1) {
        int sq = bb_first(b);
        for (chk_bb t = king_to[sq] & empty; t; t &= t - 1)
            m = put_move(m, end, sq, bb_first(t), CHK_KING, CHK_NONE, 0, 0);
    }
    for (int kind = 2; kind < r->nkinds; kind++) {
        const chk_kind *k = &r->kinds[kind];
        for (chk_bb b = p->bb[us][kind]; b; b &= b - 1) {
            int sq = bb_first(b);
            chk_bb done = k->leap_to[sq] & ~own;   /* a square reached two ways is one move */
            for (chk_bb t = done; t; t &= t - 1) {
                int to = bb_first(t);
                chk_bb cap = enemy & BB(to);
                m = put_move(m, end, sq, to, kind, CHK_NONE, cap ? CHK_MF_TAKE : 0, cap);
            }
            for (int i = 0; i < k->nride_dirs; i++) {
                int d = k->ride_dir[i];
                if (!(k->ray_bb[sq][d] & ~own))
                    continue;
                chk_bb t = ride_targets(k, sq, d, all) & ~own & ~done;
                if (!t)
                    continue;
                done |= t;
                for (chk_bb q = t & empty; q; q &= q - 1)
                    m = put_move(m, end, sq, bb_first(q), kind, CHK_NONE, 0, 0);
                if (t & enemy)
                    m = put_move(m, end, sq, bb_first(t & enemy), kind, CHK_NONE, CHK_MF_TAKE,
                                 t & enemy);
            }
        }
    }
    return (int)(m - list);
}

/* The captures and promotions among gen_quiet_fast's moves, in the same
 * order: the quiescence search's moves where the side to move has no jump
 * (fast_count rules), without making the quiet ones to drop them. */
int chk__gen_tactical_fast(const chk_pos *p, chk_move *list)
{
    const chk_rules *r = p->rules;
    const chk_move *end = list + CHK_MAX_MOVES;
    chk_move *m = list;
    int us = p->side;
    chk_bb own = p->occ[us], enemy = p->occ[!us], all = own | enemy, empty = ~all;
    chk_bb pawns = p->bb[us][CHK_PAWN];
    if (us == CHK_WHITE) {
        m = put_pawn_promotions(m, end, bb_ne(pawns) & empty & RANK_8, -5, r);
        m = put_pawn_promotions(m, end, bb_nw(pawns) & empty & RANK_8, -4, r);
    } else {
        m = put_pawn_promotions(m, end, bb_se(pawns) & empty & RANK_1, 3, r);
        m = put_pawn_promotions(m, end, bb_sw(pawns) & empty & RANK_1, 4, r);
    }
    for (int kind = 2; kind < r->nkinds; kind++) {
        const chk_kind *k = &r->kinds[kind];
        for (chk_bb b = p->bb[us][kind]; b; b &= b - 1) {
            int sq = bb_first(b);
            chk_bb done = k->leap_to[sq] & ~own;
            for (chk_bb t = done & enemy; t; t &= t - 1) {
                int to = bb_first(t);
                m = put_move(m, end, sq, to, kind, CHK_NONE, CHK_MF_TAKE, BB(to));
            }
            for (int i = 0; i < k->nride_dirs; i++) {
                int d = k->ride_dir[i];
                if (!(k->ray_bb[sq][d] & enemy))
                    continue;
                chk_bb t = ride_targets(k, sq, d, all) & ~own & ~done;
                done |= t;
                if (t & enemy)
                    m = put_move(m, end, sq, bb_first(t & enemy), kind, CHK_NONE, CHK_MF_TAKE,
                                 t & enemy);
            }
        }
    }
    return (int)(m - list);
}

/* Jump chains of one pawn or (non-flying) king under fast_count rules. */
typedef struct jgen {
    const chk_kind *k;          /* the king's tables (diagonal, one step) */
    chk_bb enemy, empty, prank;
    unsigned d0, d1;            /* directions tried: up 0, 1; down 2, 3 */
    bool pawn;
    uint8_t from, kind;
    uint8_t promote, nkinds;    /* the rules' promotion kinds */
    int minc, maxc;             /* fewest and most captures of a chain so far */
    chk_move *first, *m;        /* this piece's first move, the next free slot */
    const chk_move *end;
    uint8_t path[CHK_MAX_PATH];
} jgen;

/* Ends a chain at sq unless the piece already has the same move (end_chain). */
static void jg_end(jgen *j, int sq, chk_bb cap, int npath, int promo)
{
    for (const chk_move *o = j->first; o < j->m; o++)
        if (o->to == sq && o->captures == cap && o->promo == promo)
            return;
    if (j->m == j->end)
        return;
    chk_move *m = j->m++;
    int c = bb_count(cap);
    j->minc = c < j->minc ? c : j->minc;
    j->maxc = c > j->maxc ? c : j->maxc;
    m->captures = cap;
    m->from = j->from;
    m->to = (uint8_t)sq;
    m->kind = j->kind;
    m->promo = (uint8_t)promo;
    m->flags = CHK_MF_JUMP | CHK_MF_COMPULSORY;
    m->npath = (uint8_t)npath;
    memcpy(m->path, j->path, sizeof m->path);   /* whole: a fixed size copies faster */
}

/* Whether the piece on sq, having captured cap, can jump in direction d. */
static inline bool jg_can(const jgen *j, int sq, unsigned d, chk_bb cap)
{
    const chk_kind *k = j->k;
    return k->ray_len[sq][d] >= 2 && (j->enemy & ~cap & BB(k->ray[sq][d][0]))
           && (j->empty & BB(k->ray[sq][d][1]));
}

/* A jump of one capture (over) that ends on land: no other chain of the
 * piece can be the same move, as its first capture differs. */
static inline void jg_single(jgen *j, int land, int over, int promo)
{
    if (j->m == j->end)
        return;
    chk_move *m = j->m++;
    j->minc = 1 < j->minc ? 1 : j->minc;
    j->maxc = 1 > j->maxc ? 1 : j->maxc;
    m->captures = BB(over);
    m->from = j->from;
    m->to = (uint8_t)land;
    m->kind = j->kind;
    m->promo = (uint8_t)promo;
    m->flags = CHK_MF_JUMP | CHK_MF_COMPULSORY;
    m->npath = 1;
    m->path[0] = (uint8_t)land;
}

/* chain() for a pawn or king under fast_count rules: the same chains,
 * found in the same order. */
static void jg_chain(jgen *j, int sq, chk_bb cap, int npath)
{
    const chk_kind *k = j->k;
    bool more = false;
    if (npath < CHK_MAX_PATH) {
        for (unsigned d = j->d0; d < j->d1; d++) {
            if (!jg_can(j, sq, d, cap))
                continue;
            int over = k->ray[sq][d][0], land = k->ray[sq][d][1];
            more = true;
            j->path[npath] = (uint8_t)land;
            if (j->pawn && (j->prank & BB(land))) {
                for (int promo = 1; promo < j->nkinds; promo++)
                    if (j->promote & (1u << promo))
                        jg_end(j, land, cap | BB(over), npath + 1, promo);
            } else {
                jg_chain(j, land, cap | BB(over), npath + 1);
            }
        }
    }
    if (!more && npath > 0)
        jg_end(j, sq, cap, npath, CHK_NONE);
}

/* Every legal move under fast_count rules with capture mixed or jumps when
 * some pawn or king of the side to move (jumpers) has a jump: the jump
 * chains (of the most pieces under the majority rule), then under capture
 * mixed the takes. The same moves in the same order as the general path.
 * Kept out of chk__gen_all, whose common case (no jump) stays small. */
static __attribute__((noinline)) int gen_jumps_fast(const chk_pos *p, chk_move *list,
                                                    chk_bb jumpers)
{
    const chk_rules *r = p->rules;
    int us = p->side;
    jgen j;
    j.k = &r->kinds[CHK_KING];
    j.enemy = p->occ[!us];
    j.prank = promo_rank(us);
    memset(j.path, 0, sizeof j.path);
    j.promote = r->promote;
    j.nkinds = r->nkinds;
    j.minc = CHK_SQUARES;
    j.maxc = 0;
    j.m = list;
    j.end = list + CHK_MAX_MOVES;
    chk_bb all = p->occ[0] | p->occ[1];
    for (int kind = CHK_PAWN; kind <= CHK_KING; kind++) {
        j.kind = (uint8_t)kind;
        j.pawn = kind == CHK_PAWN;
        j.d0 = 0;
        j.d1 = 4;
        if (j.pawn && !r->pawns_capture_backward) {
            j.d0 = us == CHK_WHITE ? 0 : 2;
            j.d1 = j.d0 + 2;
        }
        for (chk_bb b = p->bb[us][kind] & jumpers; b; b &= b - 1) {
            int from = bb_first(b);
            j.from = (uint8_t)from;
            j.first = j.m;
            j.empty = ~all | BB(from);
            /* jg_chain(&j, from, 0, 0) with the first jump unrolled: most
             * chains are a single jump, written without a search for
             * duplicates */
            for (unsigned d = j.d0; d < j.d1; d++) {
                if (!jg_can(&j, from, d, 0))
                    continue;
                int over = j.k->ray[from][d][0], land = j.k->ray[from][d][1];
                bool more = false;
                j.path[0] = (uint8_t)land;
                if (j.pawn && (j.prank & BB(land))) {
                    for (int promo = 1; promo < j.nkinds; promo++)
                        if (j.promote & (1u << promo))
                            jg_single(&j, land, over, promo);
                    continue;
                }
                for (unsigned d2 = j.d0; d2 < j.d1 && !more; d2++)
                    more = jg_can(&j, land, d2, BB(over));
                if (more)
                    jg_chain(&j, land, BB(over), 1);
                else
                    jg_single(&j, land, over, CHK_NONE);
            }
        }
    }
    chk_move *m = j.m;
    if (r->majority && j.minc < j.maxc) {
        /* keep the chains that capture the most */
        int max = j.maxc;
        chk_move *w = list;
        for (chk_move *o = list; o < m; o++)
            if (bb_count(o->captures) == max) {
                if (w != o)
                    *w = *o;
                w++;
            }
        m = w;
    }
    if (r->capture == CHK_CAPTURE_MIXED) {
        /* takes by bishops, camels and the like stay legal */
        const chk_move *end = list + CHK_MAX_MOVES;
        for (int kind = 2; kind < r->nkinds; kind++) {
            const chk_kind *k = &r->kinds[kind];
            for (chk_bb b = p->bb[us][kind]; b; b &= b - 1) {
                int sq = bb_first(b);
                chk_bb done = k->leap_to[sq] & j.enemy;
                for (chk_bb t = done; t; t &= t - 1)
                    m = put_move(m, end, sq, bb_first(t), kind, CHK_NONE, CHK_MF_TAKE, t & -t);
                for (int i = 0; i < k->nride_dirs; i++) {
                    int d = k->ride_dir[i];
                    if (!(k->ray_bb[sq][d] & j.enemy))
                        continue;
                    chk_bb t = ride_targets(k, sq, d, all) & j.enemy & ~done;
                    done |= t;
                    if (t)
                        m = put_move(m, end, sq, bb_first(t), kind, CHK_NONE, CHK_MF_TAKE, t);
                }
            }
        }
    }
    return (int)(m - list);
}

/* ---- the capture rule ---------------------------------------------------- */

/* All moves of the side to move under the capture rule, no hooks. With
 * count_only the list is scratch space and only the number is right. */
static __attribute__((noinline)) int gen_general(const chk_pos *p, chk_move *list, bool count_only)
{
    const chk_rules *r = p->rules;
    gen g;
    g.p = p;
    g.list = list;
    g.n = 0;
    g.us = p->side;
    g.them = !p->side;
    g.enemy = p->occ[g.them];
    gen_jumps(&g);
    if (g.n == 0 && !r->compulsory_takes && r->capture != CHK_CAPTURE_ALL) {
        /* no compulsory capture possible: every move is legal */
        gen_others(&g, true, true);
        return g.n;
    }
    gen_others(&g, true, false);
    int nc = 0, ncap = g.n, max = 0;
    for (int i = 0; i < g.n; i++)
        if (list[i].flags & CHK_MF_COMPULSORY) {
            nc++;
            if ((list[i].flags & CHK_MF_JUMP) && bb_count(list[i].captures) > max)
                max = bb_count(list[i].captures);
        }
    bool restrict_ = r->capture == CHK_CAPTURE_ALL ? ncap > 0
                     : r->capture != CHK_CAPTURE_OPTIONAL && nc > 0;
    if (!restrict_) {
        gen_others(&g, false, true);
        return g.n;
    }
    /* keep compulsory captures (of the most pieces, for jumps, under the
     * majority rule) and, unless capture=jumps, the optional captures */
    int j = 0;
    for (int i = 0; i < g.n; i++) {
        const chk_move *m = &list[i];
        if (r->capture == CHK_CAPTURE_JUMPS && !(m->flags & CHK_MF_COMPULSORY))
            continue;
        if (r->majority && !keep_majority(m, max))
            continue;
        if (!count_only && i != j)
            list[j] = *m;
        j++;
    }
    return j;
}

int chk__gen_all(const chk_pos *p, chk_move *list, bool count_only)
{
    const chk_rules *r = p->rules;
    if (r->fast_count) {
        chk_bb jumpers = chk__diagonal_jumpers(p, p->side);
        if (!jumpers)
            return gen_quiet_fast(p, list);
        if (r->capture == CHK_CAPTURE_MIXED || r->capture == CHK_CAPTURE_JUMPS)
            return gen_jumps_fast(p, list, jumpers);
    }
    return gen_general(p, list, count_only);
}

int chk_gen_rule_moves(const chk_pos *p, chk_move *list)
{
    int n = chk__gen_all(p, list, false);
    const chk_rules *r = p->rules;
    if (r->filter) {
        int j = 0;
        for (int i = 0; i < n; i++) {
            int rc = r->filter(r->hook_ud, p, &list[i]);
            if (rc < 0)
                return CHK_HOOK_ERROR;
            if (rc)
                list[j++] = list[i];
        }
        n = j;
    }
    return n;
}

/* ---- counting ----------------------------------------------------------- */

/* Counts the legal moves from the bitboards alone (bb, occ, side, rules):
 * the mailbox, hash and history may be stale. No hooks, no draw rules;
 * a side without kings has lost (0 moves). */
/* Counting jump chains without building moves (fast rules only). */
typedef struct jcount {
    const chk_kind *k;          /* the king's (diagonal, non-flying) tables */
    chk_bb enemy, empty, promo_rank;
    bool pawn;
    int d0, d1;                 /* directions tried: the king's are 0..3, up (0, 1) then down (2, 3) */
    int nend;
    bool overflow;
    struct { chk_bb cap; uint8_t to, promo; } end[96];
} jcount;

static void jc_end(jcount *j, int sq, chk_bb cap, bool promo)
{
    for (int i = 0; i < j->nend; i++)
        if (j->end[i].to == sq && j->end[i].cap == cap)
            return;
    if (j->nend == (int)(sizeof j->end / sizeof j->end[0])) {
        j->overflow = true;
        return;
    }
    j->end[j->nend].cap = cap;
    j->end[j->nend].to = (uint8_t)sq;
    j->end[j->nend].promo = promo;
    j->nend++;
}

static void jc_chain(jcount *j, int sq, chk_bb cap)
{
    const chk_kind *k = j->k;
    bool more = false;
    for (int d = j->d0; d < j->d1; d++) {
        if (k->ray_len[sq][d] < 2)
            continue;
        int over = k->ray[sq][d][0], land = k->ray[sq][d][1];
        if (!(j->enemy & BB(over)) || (cap & BB(over)) || !(j->empty & BB(land)))
            continue;
        more = true;
        if (j->pawn && (j->promo_rank & BB(land)))
            jc_end(j, land, cap | BB(over), true);
        else
            jc_chain(j, land, cap | BB(over));
    }
    if (!more && cap)
        jc_end(j, sq, cap, false);
}

/* The moves of side us's leaping and riding pieces (the kinds past pawn
 * and king) that land on a square of to: one a square reached two ways. */
static int count_piece_moves(const chk_pos *p, int us, chk_bb to)
{
    const chk_rules *r = p->rules;
    chk_bb occ = p->occ[0] | p->occ[1];
    int n = 0;
    for (int kind = 2; kind < r->nkinds; kind++) {
        const chk_kind *k = &r->kinds[kind];
        for (chk_bb b = p->bb[us][kind]; b; b &= b - 1) {
            int sq = bb_first(b);
            chk_bb t = k->leap_to[sq];
            for (int i = 0; i < k->nride_dirs; i++)
                t |= ride_targets(k, sq, k->ride_dir[i], occ);
            n += bb_count(t & to);
        }
    }
    return n;
}

/* The number of legal moves when some pawn or king has a jump, under fast
 * rules with capture mixed or jumps; -1 when the caller must generate. */
static int count_jumps_fast(const chk_pos *p, chk_bb jumpers)
{
    const chk_rules *r = p->rules;
    int us = p->side, npromo = bb_count(r->promote);
    jcount j;
    int max = 0, n = 0;
    if (r->capture != CHK_CAPTURE_MIXED && r->capture != CHK_CAPTURE_JUMPS)
        return -1;
    j.k = &r->kinds[CHK_KING];
    j.enemy = p->occ[!us];
    j.promo_rank = promo_rank(us);
    j.overflow = false;
    for (chk_bb b = jumpers; b; b &= b - 1) {
        int sq = bb_first(b);
        j.pawn = (p->bb[us][CHK_PAWN] & BB(sq)) != 0;
        j.d0 = 0;
        j.d1 = 4;
        if (j.pawn && !r->pawns_capture_backward) {
            j.d0 = us == CHK_WHITE ? 0 : 2;
            j.d1 = j.d0 + 2;
        }
        j.empty = ~(p->occ[0] | p->occ[1]) | BB(sq);
        j.nend = 0;
        jc_chain(&j, sq, 0);
        if (j.overflow)
            return -1;
        for (int i = 0; i < j.nend; i++) {
            int c = r->majority ? bb_count(j.end[i].cap) : 1;
            int mult = j.end[i].promo ? npromo : 1;
            if (c > max) {
                max = c;
                n = 0;
            }
            if (c == max)
                n += mult;
        }
    }
    if (r->capture == CHK_CAPTURE_JUMPS)
        return n;
    /* takes by bishops, camels and the like stay legal */
    return n + count_piece_moves(p, us, j.enemy);
}

int chk__count_bb(const chk_pos *p)
{
    const chk_rules *r = p->rules;
    if (!p->bb[0][CHK_KING] || !p->bb[1][CHK_KING])
        return 0;
    if (!r->fast_count) {
        chk_move list[CHK_MAX_MOVES];
        return chk__gen_all(p, list, true);
    }
    int us = p->side;
    chk_bb own = p->occ[us], enemy = p->occ[!us];
    chk_bb empty = ~(own | enemy);
    chk_bb pawns = p->bb[us][CHK_PAWN], kings = p->bb[us][CHK_KING];
    chk_bb jumpers = chk__diagonal_jumpers(p, us);
    if (jumpers) {
        int nj = count_jumps_fast(p, jumpers);
        if (nj >= 0)
            return nj;
        chk_move list[CHK_MAX_MOVES];
        return chk__gen_all(p, list, true);
    }

    /* No jump: every move is legal. */
    int n;
    chk_bb steps;
    if (us == CHK_WHITE) {
        steps = bb_ne(pawns) & empty;
        chk_bb steps2 = bb_nw(pawns) & empty;
        int npromo = bb_count(r->promote);
        n = bb_count(steps & ~RANK_8) + bb_count(steps2 & ~RANK_8)
            + npromo * (bb_count(steps & RANK_8) + bb_count(steps2 & RANK_8));
    } else {
        steps = bb_se(pawns) & empty;
        chk_bb steps2 = bb_sw(pawns) & empty;
        int npromo = bb_count(r->promote);
        n = bb_count(steps & ~RANK_1) + bb_count(steps2 & ~RANK_1)
            + npromo * (bb_count(steps & RANK_1) + bb_count(steps2 & RANK_1));
    }
    n += bb_count(bb_ne(kings) & empty) + bb_count(bb_nw(kings) & empty)
         + bb_count(bb_se(kings) & empty) + bb_count(bb_sw(kings) & empty);
    return n + count_piece_moves(p, us, ~own);
}
