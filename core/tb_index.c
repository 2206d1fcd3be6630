/*
 * tb_index.c - the index maths of the tablebases: the board's symmetries
 * and binomials, material signatures (keys, names, colour swaps), the
 * position index of a signature (layout, index <-> position, the canonical
 * form of a position) and the value bytes. No file, no table: tb.c reads
 * and probes the files, tb_build.c computes them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "tb_internal.h"

static const char KIND_LETTER[TB_KINDS] = {'P', 'K', 'B', 'C'};
static const int NAME_ORDER[TB_KINDS] = {CHK_KING, CHK_BISHOP, CHK_CAMEL, CHK_PAWN};

/* ---- combinations ------------------------------------------------------- */

/* binom[n][k] for n <= 32, k <= CHK_TB_MAX_PIECES: built once. */
static uint64_t binom[CHK_SQUARES + 1][CHK_TB_MAX_PIECES + 1];
static pthread_once_t binom_once = PTHREAD_ONCE_INIT;

/* The symmetries as square maps, and the classes of squares under them:
 * rep_slot[sq] the class's slot when sq is its first square (else 0xFF),
 * rep_sq[slot] that square, class_size[sq] its class's size. */
static uint8_t sym_map[TB_SYMS][CHK_SQUARES];
static uint8_t rep_slot[CHK_SQUARES], rep_sq[CHK_SQUARES], class_size[CHK_SQUARES];
static int nrep;

static void sym_init(void)
{
    for (int sq = 0; sq < CHK_SQUARES; sq++) {
        int f = chk_sq_file(sq), r = chk_sq_rank(sq);
        sym_map[0][sq] = (uint8_t)sq;
        sym_map[1][sq] = (uint8_t)chk_sq_from_fr(7 - f, 7 - r);
        sym_map[2][sq] = (uint8_t)chk_sq_from_fr(r, f);
        sym_map[3][sq] = (uint8_t)chk_sq_from_fr(7 - r, 7 - f);
    }
    for (int sq = 0; sq < CHK_SQUARES; sq++) {
        int first = sq;
        chk_bb cls = 0;
        for (int t = 0; t < TB_SYMS; t++) {
            cls |= 1u << sym_map[t][sq];
            if (sym_map[t][sq] < first)
                first = sym_map[t][sq];
        }
        class_size[sq] = (uint8_t)__builtin_popcount(cls);
        rep_slot[sq] = 0xFF;
        if (first == sq) {
            rep_slot[sq] = (uint8_t)nrep;
            rep_sq[nrep++] = (uint8_t)sq;
        }
    }
}

static void binom_init(void)
{
    for (int n = 0; n <= CHK_SQUARES; n++) {
        binom[n][0] = 1;
        for (int k = 1; k <= CHK_TB_MAX_PIECES; k++)
            binom[n][k] = n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k];
    }
    sym_init();
}

int tb_sym_square(int t, int sq)
{
    pthread_once(&binom_once, binom_init);
    return sym_map[t][sq];
}

static chk_bb sym_bb(int t, chk_bb b)
{
    chk_bb out = 0;
    for (; b; b &= b - 1)
        out |= 1u << sym_map[t][__builtin_ctz(b)];
    return out;
}

void tb_sym_canon(const tb_layout *lay, chk_bb bb[2][CHK_MAX_KINDS])
{
    int king = __builtin_ctz(bb[CHK_WHITE][CHK_KING]), t = 1;
    if (!lay->sym || rep_slot[king] != 0xFF)
        return;
    while (t < TB_SYMS - 1 && rep_slot[sym_map[t][king]] == 0xFF)
        t++;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_KINDS; k++)
            bb[c][k] = sym_bb(t, bb[c][k]);
}

int tb_weight(const tb_layout *lay, uint64_t idx)
{
    return lay->sym ? class_size[rep_sq[idx % (uint64_t)nrep]] : 1;
}

/* The 180-degree turn: square sq becomes 31 - sq, i.e. the bits reverse. */
static chk_bb turn_bb(chk_bb b)
{
    b = ((b >> 1) & 0x55555555u) | ((b & 0x55555555u) << 1);
    b = ((b >> 2) & 0x33333333u) | ((b & 0x33333333u) << 2);
    b = ((b >> 4) & 0x0F0F0F0Fu) | ((b & 0x0F0F0F0Fu) << 4);
    b = ((b >> 8) & 0x00FF00FFu) | ((b & 0x00FF00FFu) << 8);
    return (b >> 16) | (b << 16);
}

/* ---- signatures --------------------------------------------------------- */

uint32_t tb_sig_key(const tb_sig *s)
{
    uint32_t key = 0;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_KINDS; k++)
            key |= (uint32_t)s->n[c][k] << (4 * (c * TB_KINDS + k));
    return key;
}

tb_sig tb_sig_swap(const tb_sig *s)
{
    tb_sig t;
    for (int k = 0; k < TB_KINDS; k++) {
        t.n[0][k] = s->n[1][k];
        t.n[1][k] = s->n[0][k];
    }
    return t;
}

void tb_sig_name(const tb_sig *s, char out[24])
{
    int len = 0;
    for (int c = 0; c < 2; c++) {
        if (c)
            out[len++] = 'v';
        for (int i = 0; i < TB_KINDS; i++)
            for (int j = 0; j < s->n[c][NAME_ORDER[i]] && len < 22; j++)
                out[len++] = KIND_LETTER[NAME_ORDER[i]];
    }
    out[len] = 0;
}

bool tb_sig_parse(const char *name, size_t len, tb_sig *s)
{
    int c = 0, total = 0;
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < len; i++) {
        if (name[i] == 'v' && c == 0) {
            c = 1;
            continue;
        }
        const char *k = memchr(KIND_LETTER, name[i], TB_KINDS);
        if (!k || ++total > CHK_TB_MAX_PIECES)
            return false;
        s->n[c][k - KIND_LETTER]++;
    }
    return c == 1 && s->n[0][CHK_KING] && s->n[1][CHK_KING];
}

int tb_sig_pieces(const tb_sig *s)
{
    int n = 0;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_KINDS; k++)
            n += s->n[c][k];
    return n;
}

/* ---- the index ---------------------------------------------------------- */

/* Groups in the order White P K B C, Black P K B C. White pawns use squares
 * 0..27 (not rank 8), Black pawns 4..31 (not rank 1). */
void tb_layout_init(tb_layout *lay, const tb_sig *s)
{
    pthread_once(&binom_once, binom_init);
    memset(lay, 0, sizeof *lay);
    lay->sig = *s;
    lay->size = 1;
    lay->sym = !s->n[CHK_WHITE][CHK_PAWN] && !s->n[CHK_BLACK][CHK_PAWN] &&
               s->n[CHK_WHITE][CHK_KING] == 1;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_KINDS; k++) {
            if (!s->n[c][k])
                continue;
            tb_group *g = &lay->g[lay->ngroups++];
            g->color = (uint8_t)c;
            g->kind = (uint8_t)k;
            g->count = s->n[c][k];
            g->rep = lay->sym && c == CHK_WHITE && k == CHK_KING;  /* the first group */
            g->nsq = g->rep ? (uint8_t)nrep : k == CHK_PAWN ? 28 : 32;
            g->shift = k == CHK_PAWN && c == CHK_BLACK ? 4 : 0;
            g->mult = lay->size;
            lay->size *= binom[g->nsq][g->count];
            lay->pieces += g->count;
            if (k == CHK_PAWN)
                lay->pawns += g->count;
        }
}

uint64_t tb_index_bb(const tb_layout *lay, chk_bb bb[2][CHK_MAX_KINDS])
{
    uint64_t idx = 0;
    for (int i = 0; i < lay->ngroups; i++) {
        const tb_group *g = &lay->g[i];
        chk_bb b = bb[g->color][g->kind] >> g->shift;
        uint64_t rank = 0;
        if (g->rep) {
            idx += rep_slot[__builtin_ctz(b)] * g->mult;
            continue;
        }
        for (int j = 1; b; j++, b &= b - 1)
            rank += binom[__builtin_ctz(b)][j];
        idx += rank * g->mult;
    }
    return idx;
}

bool tb_decode(const tb_layout *lay, uint64_t idx, uint8_t *sq, uint8_t *pc)
{
    chk_bb used = 0;
    int n = 0;
    for (int i = lay->ngroups - 1; i >= 0; i--) {
        const tb_group *g = &lay->g[i];
        uint64_t rank = idx / g->mult;
        idx %= g->mult;
        int slot = g->nsq;
        if (g->rep) {
            if (used & (1u << rep_sq[rank]))
                return false;
            used |= 1u << rep_sq[rank];
            sq[n] = rep_sq[rank];
            pc[n++] = CHK_PIECE(g->color, g->kind);
            continue;
        }
        for (int j = g->count; j >= 1; j--) {
            while (binom[--slot][j] > rank) {}
            rank -= binom[slot][j];
            int s = slot + g->shift;
            if (used & (1u << s))
                return false;
            used |= 1u << s;
            sq[n] = (uint8_t)s;
            pc[n++] = CHK_PIECE(g->color, g->kind);
        }
    }
    return true;
}

bool tb_canon(const chk_pos *p, chk_bb bb[2][CHK_MAX_KINDS], tb_sig *s)
{
    for (int c = 0; c < 2; c++)
        for (int k = TB_KINDS; k < CHK_MAX_KINDS; k++)
            if (p->bb[c][k])
                return false;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_KINDS; k++) {
            if (p->side == CHK_BLACK)
                bb[!c][k] = turn_bb(p->bb[c][k]);
            else
                bb[c][k] = p->bb[c][k];
        }
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_KINDS; k++)
            s->n[c][k] = (uint8_t)__builtin_popcount(bb[c][k]);
    return true;
}


void tb_byte_value(uint8_t b, int *value, int *distance)
{
    if (b == TB_BYTE_DRAW) {
        *value = CHK_TB_DRAW;
        *distance = 0;
        return;
    }
    *distance = b - 2;
    *value = (*distance & 1) ? CHK_TB_WIN : CHK_TB_LOSS;
}
