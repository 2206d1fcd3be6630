/*
 * internal.h - shared by the core's .c files only: bitboard shifts on the
 * 32-square layout, Zobrist keys, and internal helpers.
 *
 * Layout: sq = rank * 4 + file / 2. On even ranks (1, 3, 5, 7 counting from
 * rank index 0) the dark squares are files a, c, e, g; on odd rank indexes
 * b, d, f, h. One diagonal step changes the index by 3, 4 or 5 depending on
 * the rank's parity, hence the masks below.
 */
#ifndef CHESKERS_INTERNAL_H
#define CHESKERS_INTERNAL_H

#include "cheskers.h"

#define BB(sq) ((chk_bb)1u << (sq))
#define EVEN_RANKS 0x0F0F0F0Fu   /* rank indexes 0, 2, 4, 6 */
#define ODD_RANKS  0xF0F0F0F0u
#define FILE_A     0x01010101u   /* a-file squares (even ranks, index 0) */
#define FILE_H     0x80808080u   /* h-file squares (odd ranks, index 3) */
#define RANK_1     0x0000000Fu
#define RANK_8     0xF0000000u

/* One diagonal step of every piece in b: up = towards rank 8. */
static inline chk_bb bb_ne(chk_bb b) { return ((b & EVEN_RANKS) << 4) | ((b & ODD_RANKS & ~FILE_H) << 5); }
static inline chk_bb bb_nw(chk_bb b) { return ((b & EVEN_RANKS & ~FILE_A) << 3) | ((b & ODD_RANKS) << 4); }
static inline chk_bb bb_se(chk_bb b) { return ((b & EVEN_RANKS) >> 4) | ((b & ODD_RANKS & ~FILE_H) >> 3); }
static inline chk_bb bb_sw(chk_bb b) { return ((b & EVEN_RANKS & ~FILE_A) >> 5) | ((b & ODD_RANKS) >> 4); }

/* The number of squares of b. Without a popcount instruction (the portable
 * build: no -march, no -mpopcnt) __builtin_popcount is a call into libgcc
 * that took a sixth of the search's time; the bit-parallel count below is a
 * dozen inline operations. */
static inline int bb_count(chk_bb b)
{
#if defined(__POPCNT__)
    return __builtin_popcount(b);
#else
    b = b - ((b >> 1) & 0x55555555u);
    b = (b & 0x33333333u) + ((b >> 2) & 0x33333333u);
    b = (b + (b >> 4)) & 0x0F0F0F0Fu;
    b += b >> 8;        /* not the multiply by 0x01010101, which gcc 12 */
    b += b >> 16;       /* turns back into the libgcc call */
    return (int)(b & 0x3F);
#endif
}
static inline int bb_first(chk_bb b) { return __builtin_ctz(b); }

/* CHK_POPCNT_CLONES before a function that counts squares a lot: in the
 * portable build (no -march) on x86-64 Linux with gcc, the function (and,
 * flattened, everything it calls) is compiled twice, with and without the
 * popcount instruction, and the loader picks the one the CPU runs. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) \
    && !defined(__POPCNT__)
#define CHK_POPCNT_CLONES __attribute__((target_clones("popcnt", "default"), flatten))
#else
#define CHK_POPCNT_CLONES
#endif

static inline int bb_last(chk_bb b) { return 31 - __builtin_clz(b); }

/* The squares a rider on sq reaches in direction d over empty squares,
 * the first occupied square included. */
static inline chk_bb ride_targets(const chk_kind *k, int sq, int d, chk_bb occ)
{
    /* Along a ray the square indexes only grow (dir_up) or only fall, so
     * the squares up to the first blocker are those on the near side of
     * its bit; no branch on whether there is one (none: the whole ray). */
    chk_bb r = k->ray_bb[sq][d], bl = r & occ;
    if (k->dir_up[d])
        return r & (((bl & -bl) << 1) - 1);
    return r & ~(((chk_bb)1 << bb_last(bl | 1)) - 1);
}

/* Zobrist keys, computed rather than stored: splitmix64 of the index. */
static inline uint64_t zob_mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
static inline uint64_t zob_piece(int piece, int sq) { return zob_mix((uint64_t)(piece * 32 + sq + 1)); }
#define ZOB_SIDE 0x7A3B9C1D5E2F4861ull   /* xor-ed in when Black is to move */

/* The hash of the position after move m of p's side, as chk_make leaves it
 * (board.c), without making the move: what a search needs to prefetch the
 * hash table entry of a child before it searches it. */
static inline uint64_t chk__hash_after(const chk_pos *p, const chk_move *m)
{
    const uint64_t (*z)[CHK_SQUARES] = p->rules->zobrist;
    unsigned piece = p->sq[m->from];
    unsigned now = m->promo == CHK_NONE ? piece : (unsigned)CHK_PIECE(p->side, m->promo);
    uint64_t h = p->hash ^ ZOB_SIDE ^ z[piece][m->from] ^ z[now][m->to];
    for (chk_bb c = m->captures; c; c &= c - 1)
        h ^= z[p->sq[bb_first(c)]][bb_first(c)];
    return h;
}

/* The promotion rank of a colour's pawns. */
static inline chk_bb promo_rank(int color) { return color == CHK_WHITE ? RANK_8 : RANK_1; }

/* Two diagonal steps the same way move a piece by 9 (ne), 7 (nw), -7 (se)
 * or -9 (sw) on either rank parity; they stay on the board when the piece
 * is not on the last two files that way (g, h: index 3 in its rank; a, b:
 * index 0) and the shift does not leave the 32 bits. */
#define FILES_GH 0x88888888u
#define FILES_AB 0x11111111u

/* Pawns and (non-flying) kings of the side to move that have a jump. */
static inline chk_bb chk__diagonal_jumpers(const chk_pos *p, int us)
{
    const chk_rules *r = p->rules;
    chk_bb enemy = p->occ[!us], empty = ~(p->occ[0] | p->occ[1]);
    chk_bb pawns = p->bb[us][CHK_PAWN];
    chk_bb kings = r->flying_kings ? 0 : p->bb[us][CHK_KING];
    chk_bb up = pawns | kings, down = up;
    if (!r->pawns_capture_backward) {
        if (us == CHK_WHITE)
            down = kings;
        else
            up = kings;
    }
    /* a piece jumps ne when its ne neighbour is an enemy and the square 9
     * above it is empty; likewise the other ways */
    return (up & ~FILES_GH & bb_sw(enemy) & (empty >> 9))
           | (up & ~FILES_AB & bb_se(enemy) & (empty >> 7))
           | (down & ~FILES_GH & bb_nw(enemy) & (empty << 7))
           | (down & ~FILES_AB & bb_ne(enemy) & (empty << 9));
}

/* rules.c: writes the message (printf-style) into err (errlen bytes; err
 * may be NULL) and returns -1, for the functions that fail with a message. */
int chk__fail(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* movegen.c: the moves under the capture rule, no hooks (count_only: only
 * their number matters, list is scratch); the legal moves counted from the
 * bitboards alone (no hooks, no draw rules). */
int chk__gen_all(const chk_pos *p, chk_move *list, bool count_only);
int chk__count_bb(const chk_pos *p);
/* Under fast_count rules, for a side to move with no jump: the captures and
 * promotions of chk__gen_all's moves, in its order. */
int chk__gen_tactical_fast(const chk_pos *p, chk_move *list);

/* ---- status.c ----------------------------------------------------------- */

/* chk_stop_check that reads the clock now, for callers that check only
 * every so many nodes themselves. */
static inline chk_status chk__stop_check_now(chk_stop *s)
{
    if (s != NULL)
        s->countdown = 1;
    return chk_stop_check(s);
}

#define CHK_TABLE_DEFAULT_BYTES ((size_t)16 << 20)

/* The core's one way to allocate memory it keeps for a caller: through a
 * (lua_Alloc's contract, chk_alloc), or the C library's when a is NULL.
 * chk__mem(a, NULL, 0, n) allocates, chk__mem(a, p, old, n) resizes,
 * chk__mem(a, p, old, 0) frees and returns NULL. */
void *chk__mem(const chk_alloc *a, void *p, size_t osize, size_t nsize);
/* n zeroed bytes from a (NULL when out of memory). */
void *chk__zalloc(const chk_alloc *a, size_t n);

/* A zeroed hash table of *count entries of entry_size bytes, *count the
 * largest power of two (at least 1024) whose entries fit in bytes (0: the
 * default, 16 MiB), from a. NULL when out of memory. Freed with
 * chk__mem(a, table, *count * entry_size, 0). The one allocator of the
 * transposition tables of search.c and solve.c. */
void *chk__table_alloc(const chk_alloc *a, size_t bytes, size_t entry_size, size_t *count);

#endif
