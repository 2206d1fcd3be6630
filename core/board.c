/*
 * board.c - positions: set-up, the position text (FEN), Zobrist hashing,
 * make/unmake with the undo history. Calls rules.c (piece letters) and
 * squares.c; the game result is result.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- pieces ------------------------------------------------------------- */

static inline void put_piece(chk_pos *p, int sq, int piece)
{
    int c = CHK_PIECE_COLOR(piece), k = CHK_PIECE_KIND(piece);
    p->bb[c][k] |= BB(sq);
    p->occ[c] |= BB(sq);
    p->sq[sq] = (uint8_t)piece;
    p->hash ^= p->rules->zobrist[piece][sq];
}

static inline void remove_piece(chk_pos *p, int sq)
{
    int piece = p->sq[sq], c = CHK_PIECE_COLOR(piece), k = CHK_PIECE_KIND(piece);
    p->bb[c][k] &= ~BB(sq);
    p->occ[c] &= ~BB(sq);
    p->sq[sq] = CHK_NONE;
    p->hash ^= p->rules->zobrist[piece][sq];
}

void chk_pos_put(chk_pos *p, int sq, uint8_t piece)
{
    if (sq < 0 || sq >= CHK_SQUARES)
        return;
    if (p->sq[sq] != CHK_NONE)
        remove_piece(p, sq);
    if (piece != CHK_NONE)
        put_piece(p, sq, piece);
}

void chk_pos_init(chk_pos *p, const chk_rules *r)
{
    memset(p, 0, sizeof *p);
    memset(p->sq, CHK_NONE, sizeof p->sq);
    p->rules = r;
    p->side = CHK_WHITE;
    p->moveno = 1;
    p->hash = 0;
}

void chk_pos_start(chk_pos *p, const chk_rules *r)
{
    chk_pos_init(p, r);
    chk_pos_set_fen(p, CHK_START_FEN, NULL, 0);
    if (r->first == CHK_WHITE) {
        p->side = CHK_WHITE;
        p->hash ^= ZOB_SIDE;
    }
}

void chk_pos_free(chk_pos *p)
{
    chk__mem(p->alloc, p->hist, p->caphist * sizeof *p->hist, 0);
    p->hist = NULL;
    p->nhist = p->caphist = 0;
}

bool chk_pos_copy(chk_pos *dst, const chk_pos *src)
{
    *dst = *src;
    dst->hist = NULL;
    dst->caphist = 0;
    if (src->nhist) {
        dst->hist = chk__mem(src->alloc, NULL, 0, src->nhist * sizeof *dst->hist);
        if (!dst->hist) {
            dst->nhist = 0;
            return false;
        }
        memcpy(dst->hist, src->hist, src->nhist * sizeof *dst->hist);
        dst->caphist = src->nhist;
    }
    return true;
}

uint64_t chk_pos_hash_full(const chk_pos *p)
{
    uint64_t h = p->side == CHK_BLACK ? ZOB_SIDE : 0;
    for (int sq = 0; sq < CHK_SQUARES; sq++)
        if (p->sq[sq] != CHK_NONE)
            h ^= p->rules->zobrist[p->sq[sq]][sq];
    return h;
}

const char *chk_pos_check(const chk_pos *p)
{
    chk_bb all = 0;
    for (int c = 0; c < 2; c++) {
        chk_bb occ = 0;
        for (int k = 0; k < CHK_MAX_KINDS; k++) {
            if (p->bb[c][k] & all)
                return "two pieces on one square";
            if (k >= p->rules->nkinds && p->bb[c][k])
                return "piece of an unknown kind";
            all |= p->bb[c][k];
            occ |= p->bb[c][k];
            for (chk_bb b = p->bb[c][k]; b; b &= b - 1)
                if (p->sq[bb_first(b)] != CHK_PIECE(c, k))
                    return "mailbox disagrees with bitboards";
        }
        if (occ != p->occ[c])
            return "occupancy disagrees with bitboards";
    }
    for (int sq = 0; sq < CHK_SQUARES; sq++)
        if ((p->sq[sq] == CHK_NONE) != !(all & BB(sq)))
            return "mailbox has a piece the bitboards do not";
    if ((p->bb[CHK_WHITE][CHK_PAWN] & RANK_8) || (p->bb[CHK_BLACK][CHK_PAWN] & RANK_1))
        return "pawn on its promotion rank";
    if (p->side > 1)
        return "bad side to move";
    if (p->hash != chk_pos_hash_full(p))
        return "incremental hash differs from the full hash";
    return NULL;
}

/* ---- position text ------------------------------------------------------ */

static int read_count(const char **s, long max, long *out)
{
    char *end;
    if (**s < '0' || **s > '9')
        return -1;
    *out = strtol(*s, &end, 10);
    if (*out > max)
        return -1;
    *s = end;
    return 0;
}

/* The largest counts a position text carries. The counters stop there when
 * moves are made (chk_make), so that the program writes no count it would
 * refuse to read back. */
#define QUIET_MAX 65535u
#define MOVENO_MAX 100000000u

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* The end of a field: the end of the text, a blank, or a line end. */
static bool field_end(char c)
{
    return !c || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The fields after the ranks: the side to move, then the optional quiet
 * plies and move number; only blanks and one line end may follow. */
static int read_fields(chk_pos *q, const char *s, char *err, size_t errlen)
{
    long n;
    if ((*s != 'w' && *s != 'b') || !field_end(s[1]))
        return chk__fail(err, errlen, "side to move must be w or b, not '%.8s'", s);
    q->side = *s == 'w' ? CHK_WHITE : CHK_BLACK;
    if (q->side == CHK_BLACK)
        q->hash ^= ZOB_SIDE;
    s = skip_blanks(s + 1);
    if (!field_end(*s)) {
        if (read_count(&s, QUIET_MAX, &n) || !field_end(*s))
            return chk__fail(err, errlen, "plies since the last capture or pawn move must be a number from 0 to %u", QUIET_MAX);
        q->quiet = (uint16_t)n;
        s = skip_blanks(s);
        if (!field_end(*s)) {
            if (read_count(&s, MOVENO_MAX, &n) || n < 1 || !field_end(*s))
                return chk__fail(err, errlen, "move number must be a whole number from 1 to %u", MOVENO_MAX);
            q->moveno = (uint32_t)n;
        }
    }
    s = skip_blanks(s);
    s += *s == '\r';
    s += *s == '\n';
    if (*s)
        return chk__fail(err, errlen, "unexpected text after the position");
    return 0;
}

int chk_pos_set_fen(chk_pos *p, const char *fen, char *err, size_t errlen)
{
    chk_pos q;
    const char *s = fen;
    chk_pos_init(&q, p->rules);
    if (!s)
        return chk__fail(err, errlen, "no position text");
    while (*s == ' ' || *s == '\t')
        s++;
    for (int rank = 7; rank >= 0; rank--) {
        int file = 0;
        while (*s && *s != '/' && *s != ' ' && *s != '\t') {
            char c = *s++;
            if (c >= '1' && c <= '8') {
                file += c - '0';
                if (file > 8)
                    return chk__fail(err, errlen, "rank %d has more than 8 squares", rank + 1);
                continue;
            }
            int k = chk_rules_kind(p->rules, c);
            if (k < 0)      /* kinds have upper-case letters only */
                return chk__fail(err, errlen, "unknown piece letter '%c' on rank %d",
                                (c >= 32 && c < 127) ? c : '?', rank + 1);
            if (file > 7)
                return chk__fail(err, errlen, "rank %d has more than 8 squares", rank + 1);
            int sq = chk_sq_from_fr(file, rank);
            char name[3] = { (char)('a' + file), (char)('1' + rank), 0 };
            if (sq < 0)
                return chk__fail(err, errlen, "piece on light square %s", name);
            int color = (c >= 'a' && c <= 'z') ? CHK_BLACK : CHK_WHITE;
            if (k == CHK_PAWN && (promo_rank(color) & BB(sq)))
                return chk__fail(err, errlen, "%s pawn on its promotion rank at %s",
                                color == CHK_WHITE ? "white" : "black", name);
            put_piece(&q, sq, CHK_PIECE(color, k));
            file++;
        }
        if (file != 8)
            return chk__fail(err, errlen, "rank %d does not add up to 8 squares", rank + 1);
        if (rank > 0) {
            if (*s != '/')
                return chk__fail(err, errlen, "expected '/' after rank %d (8 ranks are needed)", rank + 1);
            s++;
        }
    }
    if (*s == '/')
        return chk__fail(err, errlen, "more than 8 ranks");
    if (*s != ' ' && *s != '\t')
        return chk__fail(err, errlen, "missing side to move (w or b) after the ranks");
    if (read_fields(&q, skip_blanks(s), err, errlen))
        return -1;
    q.hist = p->hist;       /* keep the buffer, drop its contents */
    q.caphist = p->caphist;
    q.alloc = p->alloc;
    q.nhist = 0;
    *p = q;
    return 0;
}

size_t chk_pos_fen(const chk_pos *p, char *buf, size_t n)
{
    char out[128];
    size_t len = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            int sq = chk_sq_from_fr(file, rank);
            if (sq < 0 || p->sq[sq] == CHK_NONE) {
                empty++;
                continue;
            }
            if (empty)
                out[len++] = (char)('0' + empty);
            empty = 0;
            int pc = p->sq[sq];
            char c = p->rules->kinds[CHK_PIECE_KIND(pc)].letter;
            out[len++] = CHK_PIECE_COLOR(pc) == CHK_BLACK ? (char)(c - 'A' + 'a') : c;
        }
        if (empty)
            out[len++] = (char)('0' + empty);
        if (rank)
            out[len++] = '/';
    }
    out[len] = 0;
    int m = snprintf(buf, n, "%s %c %u %u", out, p->side == CHK_WHITE ? 'w' : 'b',
                     (unsigned)p->quiet, (unsigned)p->moveno);
    return m < 0 ? 0 : (size_t)m;
}

/* ---- make / unmake ------------------------------------------------------ */

/* The bytes of chk_pos that a history entry keeps: the same layout in both. */
#define UNDO_STATE offsetof(chk_undo, move)
#define SAME_FIELD(f) (offsetof(chk_undo, f) == offsetof(chk_pos, f))
_Static_assert(SAME_FIELD(bb) && SAME_FIELD(occ) && SAME_FIELD(sq) && SAME_FIELD(side)
               && SAME_FIELD(quiet) && SAME_FIELD(moveno) && SAME_FIELD(hash)
               && offsetof(chk_pos, hash) + sizeof(uint64_t) == UNDO_STATE,
               "chk_undo must begin as chk_pos does");

/* Doubles the history (8 entries at first, 1.4 KB: boards kept by the
 * thousand, e.g. in a search tree, pay for the moves they made), from the
 * position's allocator; false when out of memory. */
static __attribute__((noinline)) bool grow_history(chk_pos *p)
{
    size_t cap = p->caphist ? p->caphist * 2 : 8;
    chk_undo *h;
    if (cap > SIZE_MAX / 2 / sizeof *h)
        return false;
    h = chk__mem(p->alloc, p->hist, p->caphist * sizeof *h, cap * sizeof *h);
    if (!h)
        return false;
    p->hist = h;
    p->caphist = cap;
    return true;
}

/* Moves the piece of m (off from, on to; from == to for a chain that comes
 * back), promoted on the way where m says so, and passes the move to the
 * other side. hash: the position's hash with the keys of any captured
 * pieces already taken out. m is a capture or a pawn's promotion, so the
 * quiet count starts again. */
static inline bool move_piece(chk_pos *p, const chk_move *m, uint64_t hash)
{
    const chk_rules *r = p->rules;
    size_t us = p->side, from = m->from, to = m->to, promo = m->promo;
    size_t piece = p->sq[from];
    size_t now = promo == CHK_NONE ? piece : CHK_PIECE(us, promo);
    p->moveno += (us != r->first) & (p->moveno < MOVENO_MAX);
    p->hash = hash ^ r->zobrist[piece][from] ^ r->zobrist[now][to] ^ ZOB_SIDE;
    p->sq[from] = CHK_NONE;
    p->sq[to] = (uint8_t)now;
    p->bb[us][CHK_PIECE_KIND(piece)] &= ~BB(from);
    p->bb[us][CHK_PIECE_KIND(now)] |= BB(to);
    p->occ[us] = (p->occ[us] & ~BB(from)) | BB(to);
    p->quiet = 0;
    p->side = (uint8_t)(us ^ 1);
    return true;
}

/* The rest of chk_make for a capture or a promotion: the captured pieces
 * go first (a take lands on one of them). */
static __attribute__((noinline)) bool make_other(chk_pos *p, const chk_move *m)
{
    chk_bb caps = m->captures;
    if (caps && !(caps & (caps - 1)) && m->promo == CHK_NONE) {
        /* one piece taken or jumped, no promotion (so from != to): the
         * common capture, written out as chk_make's plain move is */
        const chk_rules *r = p->rules;
        size_t us = p->side, them = us ^ 1, from = m->from, to = m->to;
        size_t sq = (size_t)bb_first(caps), taken = p->sq[sq];
        p->bb[them][CHK_PIECE_KIND(taken)] ^= caps;
        p->occ[them] ^= caps;
        p->sq[sq] = CHK_NONE;
        size_t piece = p->sq[from];
        chk_bb move = BB(from) | BB(to);
        p->moveno += (us != r->first) & (p->moveno < MOVENO_MAX);
        p->hash ^= r->zobrist[taken][sq] ^ r->zobrist[piece][from] ^ r->zobrist[piece][to]
                   ^ ZOB_SIDE;
        p->sq[from] = CHK_NONE;
        p->sq[to] = (uint8_t)piece;
        p->bb[us][CHK_PIECE_KIND(piece)] ^= move;
        p->occ[us] ^= move;
        p->quiet = 0;
        p->side = (uint8_t)them;
        return true;
    }
    const uint64_t (*z)[CHK_SQUARES] = p->rules->zobrist;
    unsigned them = !p->side;
    uint64_t hash = p->hash;
    for (chk_bb c = caps; c; c &= c - 1) {
        unsigned sq = (unsigned)bb_first(c), pc = p->sq[sq];
        p->bb[them][CHK_PIECE_KIND(pc)] &= ~BB(sq);
        p->sq[sq] = CHK_NONE;
        hash ^= z[pc][sq];
    }
    p->occ[them] &= ~caps;
    return move_piece(p, m, hash);
}

/* chk_make when the history is full: grows it first (a call apart, so
 * that chk_make itself makes no call but tail calls). */
static __attribute__((noinline)) bool make_grown(chk_pos *p, const chk_move *m)
{
    return grow_history(p) && chk_make(p, m);
}

/* The history entry keeps the move and a copy of the position's first
 * fields (pieces, side, counters, hash: 120 bytes), so that chk_unmake is a
 * plain copy back. The plain move (a step, slide or leap: no capture, no
 * promotion, from != to) is made here, anything else by make_other; the
 * split keeps this path free of calls and short. */
bool chk_make(chk_pos *p, const chk_move *m)
{
    if (p->nhist == p->caphist)
        return make_grown(p, m);
    chk_undo *u = &p->hist[p->nhist++];
    u->move = *m;       /* m may be this very entry (a redo): a plain copy */
    memcpy(u, p, UNDO_STATE);
    if (m->captures || m->promo != CHK_NONE)
        return make_other(p, m);
    const chk_rules *r = p->rules;
    size_t us = p->side, from = m->from, to = m->to;
    size_t piece = p->sq[from];
    chk_bb move = BB(from) | BB(to);
    p->moveno += (us != r->first) & (p->moveno < MOVENO_MAX);
    p->hash ^= r->zobrist[piece][from] ^ r->zobrist[piece][to] ^ ZOB_SIDE;
    p->sq[from] = CHK_NONE;
    p->sq[to] = (uint8_t)piece;
    p->bb[us][CHK_PIECE_KIND(piece)] ^= move;
    p->occ[us] ^= move;
    /* the count starts again after a pawn move; no branch, as which it
     * is follows no pattern */
    unsigned quiet = p->quiet + (p->quiet < QUIET_MAX);
    quiet &= -(unsigned)(CHK_PIECE_KIND(piece) != CHK_PAWN);
    p->quiet = (uint16_t)quiet;
    p->side = (uint8_t)(us ^ 1);
    return true;
}

bool chk_unmake(chk_pos *p)
{
    if (!p->nhist)
        return false;
    memcpy(p, &p->hist[--p->nhist], UNDO_STATE);
    return true;
}
