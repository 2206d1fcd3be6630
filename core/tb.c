/*
 * tb.c - endgame tablebases: material signatures, the position index, the
 * table files (header, checksum, the payload read into memory) and probing.
 * Building them is tb_build.c's; the interface is cheskers_tb.h.
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

#define MAGIC "CHESKTB\n"
#define FORMAT_VERSION 3u     /* 3: the payload in zstd blocks behind a block index */
#define HEADER_FIXED 96       /* bytes before the rules text */

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

static int sig_pieces(const tb_sig *s)
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

/* FNV-1a 64 of n bytes, going on from h (FNV_START: a new sum). */
#define FNV_START 0xcbf29ce484222325ull
static uint64_t fnv64(uint64_t h, const uint8_t *data, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= data[i];
        h *= 0x100000001b3ull;
    }
    return h;
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

/* ---- rules -------------------------------------------------------------- */

/* Is kind k the built-in one: style take, not compulsory, these vectors? */
static bool builtin_kind(const chk_kind *k, char letter, int nleaps, int nrides,
                         const int8_t v[2])
{
    const int8_t (*vec)[2] = nleaps ? k->leaps : k->rides;
    return k->letter == letter && k->style == CHK_STYLE_TAKE && !k->compulsory &&
           k->nleaps == nleaps && k->nrides == nrides && vec[0][0] == v[0] &&
           vec[0][1] == v[1];
}

bool chk_tb_supported(const chk_rules *r, char *err, size_t errlen)
{
    static const int8_t diag[2] = {1, 1}, camel[2] = {1, 3};
    const char *why = NULL;
    if (r->filter || r->result)
        why = "rule sets with hooks (filter or result functions) have no tablebases";
    else if (r->nkinds != TB_KINDS || !builtin_kind(&r->kinds[CHK_BISHOP], 'B', 0, 1, diag) ||
             !builtin_kind(&r->kinds[CHK_CAMEL], 'C', 1, 0, camel))
        why = "rule sets with custom piece kinds have no tablebases";
    else if (!r->finished)
        why = "the rule set is not finished";
    if (why && err && errlen)
        snprintf(err, errlen, "%s", why);
    return why == NULL;
}

/* The copy the tables use: no draw rules, first = black. */
static void rules_normalise(chk_rules *dst, const chk_rules *r)
{
    char err[160];
    *dst = *r;
    dst->draw_repetition = 0;
    dst->draw_quiet_plies = 0;
    dst->first = CHK_BLACK;
    dst->finished = false;
    if (chk_rules_finish(dst, err, sizeof err) < 0)
        *dst = *r;     /* cannot happen: r was finished with the same options */
}

size_t chk_tb_rules_text(const chk_rules *r, char *buf, size_t n)
{
    chk_rules *copy = malloc(sizeof *copy);
    size_t len;
    if (!copy)
        return 0;
    rules_normalise(copy, r);
    len = chk_rules_to_text(copy, buf, n);
    free(copy);
    return len;
}

static uint32_t fnv32(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (uint8_t)*s;
        h *= 16777619u;
    }
    return h;
}

/* ---- the table registry ------------------------------------------------- */

static int slot_of(const chk_tb *tb, uint32_t key)
{
    unsigned mask = (unsigned)tb->nslots - 1, i = (key * 2654435761u) >> 7 & mask;
    while (tb->slots[i] && tb->tables[tb->slots[i] - 1]->key != key)
        i = (i + 1) & mask;
    return (int)i;
}

/* Refills the hash from the table list (after it grew or was sorted). */
static void reslot(chk_tb *tb)
{
    memset(tb->slots, 0, (size_t)tb->nslots * sizeof *tb->slots);
    for (int i = 0; i < tb->ntables; i++)
        tb->slots[slot_of(tb, tb->tables[i]->key)] = i + 1;
}

static bool rehash(chk_tb *tb, int nslots)
{
    int *slots = calloc((size_t)nslots, sizeof *slots);
    if (!slots)
        return false;
    free(tb->slots);
    tb->slots = slots;
    tb->nslots = nslots;
    reslot(tb);
    return true;
}

static void unload(tb_table *t);

static char *file_path(const chk_tb *tb, const char *name, const char *suffix)
{
    size_t n = strlen(tb->dir) + strlen(name) + strlen(suffix) + 32;
    char *path = malloc(n);
    if (path)
        snprintf(path, n, "%s/%s.%08x.ctb%s", tb->dir, name, (unsigned)tb->fp, suffix);
    return path;
}

tb_table *tb_add(chk_tb *tb, const tb_sig *s)
{
    uint32_t key = tb_sig_key(s);
    int i = slot_of(tb, key);
    if (tb->slots[i]) {     /* rewritten (a damaged file rebuilt): read it again */
        tb_table *t = tb->tables[tb->slots[i] - 1];
        unload(t);
        atomic_store(&t->state, 0);
        return t;
    }
    if (tb->ntables == tb->cap) {
        int cap = tb->cap ? 2 * tb->cap : 64;
        tb_table **t = realloc(tb->tables, (size_t)cap * sizeof *t);
        if (!t)
            return NULL;
        tb->tables = t;
        tb->cap = cap;
    }
    tb_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    tb_layout_init(&t->lay, s);
    t->key = key;
    tb_sig_name(s, t->name);
    t->path = file_path(tb, t->name, "");
    if (!t->path) {
        free(t);
        return NULL;
    }
    atomic_init(&t->state, 0);
    tb->tables[tb->ntables++] = t;
    if (4 * tb->ntables > 3 * tb->nslots ? !rehash(tb, 2 * tb->nslots) : 0)
        return NULL;
    tb->slots[slot_of(tb, key)] = tb->ntables;
    return t;
}

static void scan_dir(chk_tb *tb)
{
    char suffix[32];
    DIR *d = opendir(tb->dir);
    struct dirent *e;
    if (!d)
        return;
    snprintf(suffix, sizeof suffix, ".%08x.ctb", (unsigned)tb->fp);
    size_t slen = strlen(suffix);
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        tb_sig s;
        if (len > slen && !strcmp(e->d_name + len - slen, suffix) &&
            tb_sig_parse(e->d_name, len - slen, &s))
            tb_add(tb, &s);
    }
    closedir(d);
}

chk_tb *chk_tb_open(const char *dir, const chk_rules *r, char *err, size_t errlen)
{
    if (!chk_tb_supported(r, err, errlen))
        return NULL;
    chk_tb *tb = calloc(1, sizeof *tb);
    /* the rule text is chk_tb_rules_text's, the one key of the files */
    if (!tb || !chk_tb_rules_text(r, tb->rules_text, sizeof tb->rules_text) ||
        (dir && !(tb->dir = strdup(dir))) || !rehash(tb, 256)) {
        chk_tb_close(tb);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    rules_normalise(&tb->rules, r);
    tb->fp = fnv32(tb->rules_text);
    pthread_mutex_init(&tb->lock, NULL);
    if (dir)
        scan_dir(tb);
    if (tb->ntables > 1)
        qsort(tb->tables, (size_t)tb->ntables, sizeof *tb->tables, tb_table_cmp);
    reslot(tb);
    return tb;
}

void chk_tb_close(chk_tb *tb)
{
    if (!tb)
        return;
    for (int i = 0; i < tb->ntables; i++) {
        unload(tb->tables[i]);
        free(tb->tables[i]->path);
        free(tb->tables[i]);
    }
    if (tb->slots)
        pthread_mutex_destroy(&tb->lock);
    free(tb->tables);
    free(tb->slots);
    free(tb->dir);
    free(tb);
}

const char *chk_tb_error(const chk_tb *tb)
{
    return tb->err;
}

/* ---- files -------------------------------------------------------------- */

static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

#define HEADER_MAX ((HEADER_FIXED + TB_RULES_TEXT + 7) & ~(size_t)7)
#define SUM_AT 72       /* the checksum's offset in the header */
#define BLOCK_SIZE_AT 84
#define BLOCKS_AT 88
/* the block sizes a reader takes: 1 KB to 16 MB, a power of two */
#define SHIFT_MIN 10
#define SHIFT_MAX 24

static uint64_t block_count(uint64_t size, unsigned shift)
{
    return (size + (UINT64_C(1) << shift) - 1) >> shift;
}

/* The bytes of block b of a payload of size bytes. */
static size_t block_len(uint64_t size, unsigned shift, uint64_t b)
{
    uint64_t left = size - (b << shift);
    return (size_t)(left < (UINT64_C(1) << shift) ? left : UINT64_C(1) << shift);
}

/* The bytes of the header (a multiple of 8) and of the block index. */
static size_t header_len(const chk_tb *tb)
{
    return (HEADER_FIXED + strlen(tb->rules_text) + 7) & ~(size_t)7;
}

static size_t index_len(uint64_t nblocks)
{
    return (size_t)(nblocks + 1) * 8;
}

/* The checksum of a file: FNV-1a 64 of its header (hlen bytes, the
 * checksum field read as zeros) and then of its block index (ilen bytes,
 * right after the header). */
static uint64_t file_sum(const uint8_t *h, size_t hlen, const uint8_t *index, size_t ilen)
{
    static const uint8_t zeros[8];
    uint64_t sum = fnv64(FNV_START, h, SUM_AT);
    sum = fnv64(sum, zeros, 8);
    sum = fnv64(sum, h + SUM_AT + 8, hlen - SUM_AT - 8);
    return fnv64(sum, index, ilen);
}

/* Writes the header of lay's file into h (HEADER_MAX bytes), with the
 * checksum of it and of the block index (ilen bytes); its length. */
static size_t header_make(const chk_tb *tb, const tb_layout *lay, const tb_stats *st,
                          const uint8_t *index, size_t ilen, uint8_t *h)
{
    uint32_t tlen = (uint32_t)strlen(tb->rules_text);
    size_t n = header_len(tb);
    memset(h, 0, n);
    memcpy(h, MAGIC, 8);
    put32(h + 8, FORMAT_VERSION);
    put32(h + 12, (uint32_t)n);
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_KINDS; k++)
            h[16 + c * TB_KINDS + k] = lay->sig.n[c][k];
    put64(h + 24, lay->size);
    put64(h + 32, st->wins);
    put64(h + 40, st->draws);
    put64(h + 48, st->losses);
    put32(h + 56, st->longest_win);
    put64(h + 64, st->longest_index);
    put32(h + 80, tlen);
    put32(h + BLOCK_SIZE_AT, UINT32_C(1) << TB_BLOCK_SHIFT);
    put64(h + BLOCKS_AT, block_count(lay->size, TB_BLOCK_SHIFT));
    memcpy(h + HEADER_FIXED, tb->rules_text, tlen);
    put64(h + SUM_AT, file_sum(h, n, index, ilen));
    return n;
}

/* Compresses the size value bytes of data block by block into out (room
 * for nblocks * ZSTD_compressBound of a block), each a zstd frame with its
 * content size and checksum, the same bytes on every run (one level, one
 * thread). index gets each block's file offset, the first at first, and
 * then the file's end. The compressed bytes, or 0 with *why set. */
static size_t compress_blocks(const uint8_t *data, uint64_t size, uint64_t first, uint8_t *index,
                              uint8_t *out, const char **why)
{
    uint64_t nblocks = block_count(size, TB_BLOCK_SHIFT);
    size_t zlen = 0;
    ZSTD_CCtx *c = ZSTD_createCCtx();
    if (!c) {
        *why = "out of memory";
        return 0;
    }
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, TB_ZSTD_LEVEL);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
    for (uint64_t b = 0; b < nblocks; b++) {
        size_t n = block_len(size, TB_BLOCK_SHIFT, b);
        size_t r = ZSTD_compress2(c, out + zlen, ZSTD_compressBound(n),
                                  data + (b << TB_BLOCK_SHIFT), n);
        put64(index + 8 * b, first + zlen);
        if (ZSTD_isError(r)) {
            *why = ZSTD_getErrorName(r);
            zlen = 0;
            break;
        }
        zlen += r;
    }
    put64(index + 8 * nblocks, first + zlen);
    ZSTD_freeCCtx(c);
    return zlen;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* Creates the temporary file of table name in tb->dir under a name no file
 * has (NAME.HASH.ctb.tmp.XXXXXXXX, mkstemp's way: O_CREAT | O_EXCL, so a
 * file or link someone planted in a shared folder is never opened, nor a
 * link followed; a name taken is tried again with another). The
 * descriptor and *tmp its path (to free), or -1 with errno set and *tmp
 * NULL. */
static int create_temp(const chk_tb *tb, const char *name, char **tmp)
{
    uint64_t seed = (uint64_t)(chk_clock() * 1e9) ^ ((uint64_t)getpid() << 32) ^
                    (uint64_t)(uintptr_t)tmp;
    for (int tries = 0; tries < 64; tries++) {
        char suffix[24];
        seed = (seed ^ (uint64_t)tries) * 0x9e3779b97f4a7c15ull;
        snprintf(suffix, sizeof suffix, ".tmp.%08x", (unsigned)(seed >> 32));
        if (!(*tmp = file_path(tb, name, suffix))) {
            errno = ENOMEM;
            return -1;
        }
        int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0)
            return fd;
        int saved = errno;
        free(*tmp);     /* not ours: never unlinked */
        *tmp = NULL;
        if ((errno = saved) != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

/* Writes the header, the block index and the blocks to fd and syncs it;
 * -1 with errno set on failure. fd is closed on every path. */
static int write_file(int fd, const uint8_t *h, size_t hlen, const uint8_t *index, size_t ilen,
                      const uint8_t *blocks, size_t zlen)
{
    int rc = write_all(fd, h, hlen) < 0 || write_all(fd, index, ilen) < 0 ||
             write_all(fd, blocks, zlen) < 0 || fsync(fd) < 0 ? -1 : 0;
    int saved = errno;
    if (close(fd) < 0 && rc == 0)
        return -1;
    errno = saved;
    return rc;
}

int tb_write(chk_tb *tb, const tb_layout *lay, const uint8_t *data, const tb_stats *st,
             char *err, size_t errlen)
{
    char name[24];
    uint8_t h[HEADER_MAX];
    uint64_t nblocks = block_count(lay->size, TB_BLOCK_SHIFT);
    size_t ilen = index_len(nblocks), zlen = 0;
    const char *why = NULL;
    uint8_t *index = malloc(ilen);
    uint8_t *blocks = malloc((size_t)nblocks * ZSTD_compressBound((size_t)1 << TB_BLOCK_SHIFT));
    tb_sig_name(&lay->sig, name);
    if (index && blocks)
        zlen = compress_blocks(data, lay->size, header_len(tb) + ilen, index, blocks, &why);
    char *path = file_path(tb, name, ""), *tmp = NULL;
    int fd = path && zlen ? create_temp(tb, name, &tmp) : -1;
    int rc = CHK_TB_ERROR;
    if (!path || !index || !blocks || (zlen && fd < 0 && errno == ENOMEM) ||
        (why && !strcmp(why, "out of memory"))) {
        snprintf(err, errlen, "out of memory");
        rc = CHK_NO_MEMORY;
    } else if (!zlen) {
        snprintf(err, errlen, "cannot compress %s: %s", name, why);
    } else if (fd < 0) {
        snprintf(err, errlen, "cannot create a file in %s: %s", tb->dir, strerror(errno));
    } else if (write_file(fd, h, header_make(tb, lay, st, index, ilen, h), index, ilen, blocks,
                          zlen) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    } else if (rename(tmp, path) < 0) {
        snprintf(err, errlen, "cannot rename %s: %s", tmp, strerror(errno));
    } else {
        sync_dir(tb->dir);
        rc = CHK_OK;
    }
    if (rc < 0 && tmp)
        unlink(tmp);
    free(path);
    free(tmp);
    free(index);
    free(blocks);
    return rc;
}

/* Checks the header h of a file of size bytes (hn of them in h) against
 * the table t it should be. NULL when it is t's. */
static const char *header_check(const chk_tb *tb, const tb_table *t, const uint8_t *h, size_t hn,
                                uint64_t size)
{
    if (hn < 16 || memcmp(h, MAGIC, 8))
        return "not a Cheskers tablebase file";
    if (get32(h + 8) < FORMAT_VERSION)
        return "made by an older version of the file format: rebuild with cheskers tb build";
    if (get32(h + 8) != FORMAT_VERSION)
        return "made by a newer version of the file format";
    if (hn < HEADER_FIXED)
        return "truncated or of the wrong size";
    size_t hlen = get32(h + 12), tlen = get32(h + 80);
    uint32_t bsize = get32(h + BLOCK_SIZE_AT);
    unsigned shift = bsize ? (unsigned)__builtin_ctz(bsize) : 0;
    if (tlen > TB_RULES_TEXT || hlen < HEADER_FIXED + tlen || hlen > hn ||
        get64(h + 24) != t->lay.size)
        return "truncated or of the wrong size";
    if ((bsize & (bsize - 1)) || shift < SHIFT_MIN || shift > SHIFT_MAX ||
        get64(h + BLOCKS_AT) != block_count(t->lay.size, shift))
        return "its block size or count is wrong (damaged)";
    /* never more than the signature's blocks can take: a huge file is
       refused before anything is allocated for it */
    if (size < hlen + index_len(get64(h + BLOCKS_AT)) ||
        size > hlen + index_len(get64(h + BLOCKS_AT)) +
                   get64(h + BLOCKS_AT) * ZSTD_compressBound((size_t)1 << shift))
        return "truncated or of the wrong size";
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_KINDS; k++)
            if (h[16 + c * TB_KINDS + k] != t->lay.sig.n[c][k])
                return "its signature is not the one in its name";
    if (tlen != strlen(tb->rules_text) || memcmp(h + HEADER_FIXED, tb->rules_text, tlen))
        return "built for other rules";
    return NULL;
}

/* Checks the block index after the header h (checked) against the
 * header's checksum and the file's size: each block a zstd frame no
 * longer than its content can take, one after the other up to the end.
 * NULL when sound. */
static const char *index_check(const tb_table *t, const uint8_t *h, uint64_t size)
{
    size_t hlen = get32(h + 12);
    uint64_t nblocks = get64(h + BLOCKS_AT), at = hlen + index_len(nblocks);
    unsigned shift = (unsigned)__builtin_ctz(get32(h + BLOCK_SIZE_AT));
    const uint8_t *index = h + hlen;
    if (file_sum(h, hlen, index, index_len(nblocks)) != get64(h + SUM_AT))
        return "checksum mismatch (damaged)";
    for (uint64_t b = 0; b < nblocks; b++) {
        uint64_t from = get64(index + 8 * b), to = get64(index + 8 * b + 8);
        if (from != at || to <= from ||
            to - from > ZSTD_compressBound(block_len(t->lay.size, shift, b)))
            return "its block index is wrong (damaged)";
        at = to;
    }
    return at == size ? NULL : "truncated or of the wrong size";
}

/* Reads n bytes at off of fd into buf: 0, or -1 (errno set; 0 for a file
 * shorter than that). */
static int read_at(int fd, uint8_t *buf, size_t n, off_t off)
{
    while (n) {
        ssize_t r = pread(fd, buf, n, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = 0;
            return -1;
        }
        buf += r;
        n -= (size_t)r;
        off += r;
    }
    return 0;
}

/* Reads and checks the file open at fd as t's: its header and block index
 * (the head), and with whole the whole file, into *file (malloc'ed; its
 * size in *size). NULL when sound, else why not (*file then NULL). Read
 * only when it is a regular file (a FIFO would block every probe). The
 * blocks are not looked at: each is checked when first used. */
static const char *read_table(const chk_tb *tb, const tb_table *t, int fd, bool whole,
                              uint8_t **file, uint64_t *size)
{
    struct stat sb;
    uint8_t h[HEADER_MAX];
    const char *why;
    *file = NULL;
    if (fstat(fd, &sb) < 0)
        return strerror(errno);
    if (!S_ISREG(sb.st_mode))
        return "not a regular file";
    *size = (uint64_t)sb.st_size;
    size_t hn = *size < HEADER_MAX ? (size_t)*size : HEADER_MAX;
    if (read_at(fd, h, hn, 0) < 0)
        return errno ? strerror(errno) : "truncated or of the wrong size";
    if ((why = header_check(tb, t, h, hn, *size)) != NULL)
        return why;
    /* read again with the index (or the whole file), and checked from there:
       the header read first only said how much */
    size_t head = get32(h + 12) + index_len(get64(h + BLOCKS_AT)), n = whole ? *size : head;
    if (!(*file = malloc(n)))
        return "out of memory";
    if (read_at(fd, *file, n, 0) < 0)
        why = errno ? strerror(errno) : "truncated or of the wrong size";
    else if (memcmp(*file, h, get32(h + 12)))
        why = "changed while it was read";
    else
        why = index_check(t, *file, *size);
    if (why) {
        free(*file);
        *file = NULL;
    }
    return why;
}

static void unload(tb_table *t)
{
    for (uint64_t b = 0; t->blocks && b < t->nblocks; b++)
        free(atomic_load(&t->blocks[b]));
    free(t->blocks);
    free(t->file);
    t->blocks = NULL;
    t->file = NULL;
    t->nblocks = 0;
}

/* Decompresses the zn bytes at z, one zstd frame, into raw (n bytes):
 * NULL, or why it is not the block (a frame without a checksum, of another
 * size, whose checksum does not match). */
static const char *block_check(const uint8_t *z, size_t zn, uint8_t *raw, size_t n)
{
    /* the frame header descriptor (RFC 8878): bit 2, a content checksum */
    if (zn < 6 || ZSTD_getFrameContentSize(z, zn) != n || !(z[4] & 4) ||
        ZSTD_findFrameCompressedSize(z, zn) != zn)
        return "not a checked zstd frame of its size";
    size_t r = ZSTD_decompress(raw, n, z, zn);
    if (ZSTD_isError(r))
        return ZSTD_getErrorCode(r) == ZSTD_error_checksum_wrong ? "checksum mismatch"
               : ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation ? "out of memory"
               : "cannot be decompressed";
    return r == n ? NULL : "shorter than its size";
}

uint8_t *tb_block_load(chk_tb *tb, tb_table *t, uint64_t b, int *rc)
{
    size_t n = block_len(t->lay.size, t->shift, b);
    const uint8_t *index = t->file + get32(t->file + 12) + 8 * b;
    uint64_t at = get64(index), next = get64(index + 8);      /* checked on load */
    uint8_t *raw = malloc(n), *none = NULL;
    const char *why = raw ? block_check(t->file + at, (size_t)(next - at), raw, n) : "out of memory";
    if (why) {
        free(raw);
        *rc = !strcmp(why, "out of memory") ? CHK_NO_MEMORY : CHK_TB_ERROR;
        snprintf(tb->err, sizeof tb->err, "tablebase %s: block %" PRIu64 " of %" PRIu64 ": %s%s",
                 t->path, b, t->nblocks, why, *rc == CHK_TB_ERROR ? " (damaged)" : "");
        return NULL;
    }
    if (!atomic_compare_exchange_strong_explicit(&t->blocks[b], &none, raw, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        free(raw);      /* another thread was first: its copy is the same */
        raw = none;
    }
    return raw;
}

/* Reads t's file into memory (read, not mapped: a file copied over one in
 * use would kill the process with SIGBUS), opened without blocking, and
 * checks its header, block index and longest win. On failure t is marked
 * damaged and tb->err says why. */
static void load(chk_tb *tb, tb_table *t)
{
    uint8_t *file = NULL, byte = 0;
    uint64_t size = 0;
    const char *why;
    int fd = open(t->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        why = strerror(errno);
    } else {
        why = read_table(tb, t, fd, true, &file, &size);
        close(fd);
    }
    if (!why) {
        t->file = file;
        t->shift = (unsigned)__builtin_ctz(get32(file + BLOCK_SIZE_AT));
        t->nblocks = get64(file + BLOCKS_AT);
        t->blocks = calloc((size_t)t->nblocks, sizeof *t->blocks);
        t->st.wins = get64(file + 32);
        t->st.draws = get64(file + 40);
        t->st.losses = get64(file + 48);
        t->st.longest_win = get32(file + 56);
        t->st.longest_index = get64(file + 64);
        if (!t->blocks)
            why = "out of memory";
    }
    if (!why && t->st.longest_win) {
        uint32_t longest = t->st.longest_win;
        if (!(longest & 1) || longest > CHK_TB_MAX_DIST || t->st.longest_index >= t->lay.size)
            why = "its longest win is not in its values (damaged)";
        else if (tb_table_byte(tb, t, t->st.longest_index, &byte) < 0)
            why = "";       /* tb->err names the block */
        else if (byte != TB_BYTE(longest))
            why = "its longest win is not in its values (damaged)";
    }
    if (why) {
        if (*why)
            snprintf(tb->err, sizeof tb->err, "tablebase %s: %s", t->path, why);
        unload(t);
        atomic_store(&t->state, -1);
        return;
    }
    atomic_store(&t->state, 1);
}

bool tb_file_sound(chk_tb *tb, uint32_t key)
{
    int i = slot_of(tb, key);
    uint8_t *head = NULL;
    uint64_t size;
    if (!tb->slots[i])
        return false;
    tb_table *t = tb->tables[tb->slots[i] - 1];
    if (atomic_load(&t->state) != 0)
        return atomic_load(&t->state) > 0;
    int fd = open(t->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    const char *why = read_table(tb, t, fd, false, &head, &size);
    close(fd);
    free(head);
    return why == NULL;
}

bool tb_listed(const chk_tb *tb, uint32_t key)
{
    return tb->slots[slot_of(tb, key)] != 0;
}

uint64_t tb_file_bytes(const chk_tb *tb, const tb_layout *lay)
{
    uint64_t nblocks = block_count(lay->size, TB_BLOCK_SHIFT), bytes = header_len(tb);
    bytes += index_len(nblocks);
    bytes += (nblocks - 1) * ZSTD_compressBound((size_t)1 << TB_BLOCK_SHIFT);
    return bytes + ZSTD_compressBound(block_len(lay->size, TB_BLOCK_SHIFT, nblocks - 1));
}

tb_table *tb_find(chk_tb *tb, uint32_t key, int *rc)
{
    int i = slot_of(tb, key);
    *rc = 0;
    if (!tb->slots[i])
        return NULL;
    tb_table *t = tb->tables[tb->slots[i] - 1];
    if (atomic_load(&t->state) == 0) {
        pthread_mutex_lock(&tb->lock);
        if (atomic_load(&t->state) == 0)
            load(tb, t);
        pthread_mutex_unlock(&tb->lock);
    }
    if (atomic_load(&t->state) < 0) {
        *rc = CHK_TB_ERROR;
        return NULL;
    }
    return t;
}

/* ---- probing ------------------------------------------------------------ */

int tb_probe_byte(chk_tb *tb, const chk_pos *p, uint8_t *byte)
{
    chk_bb bb[2][CHK_MAX_KINDS];
    tb_sig s;
    int rc;
    if (!tb_canon(p, bb, &s))
        return 0;
    if (!s.n[CHK_WHITE][CHK_KING] || !s.n[CHK_BLACK][CHK_KING]) {
        if (s.n[CHK_WHITE][CHK_KING] || !s.n[CHK_BLACK][CHK_KING])
            return 0;       /* over with the mover winning, or no kings: not covered */
        *byte = TB_BYTE(0); /* only the side to move has no king: lost */
        return 1;
    }
    if (sig_pieces(&s) > CHK_TB_MAX_PIECES)
        return 0;
    tb_table *t = tb_find(tb, tb_sig_key(&s), &rc);
    if (!t)
        return rc;
    tb_sym_canon(&t->lay, bb);
    if ((rc = tb_table_byte(tb, t, tb_index_bb(&t->lay, bb), byte)) < 0)
        return rc;
    if (*byte == TB_BYTE_NONE) {
        snprintf(tb->err, sizeof tb->err, "tablebase %s: damaged (no value for a position)",
                 t->path);
        return CHK_TB_ERROR;
    }
    return 1;
}

int chk_tb_probe(chk_tb *tb, const chk_pos *p, int *value, int *distance)
{
    uint8_t b;
    int rc = tb_probe_byte(tb, p, &b);
    if (rc == 1)
        tb_byte_value(b, value, distance);
    return rc;
}

int chk_tb_move_values(chk_tb *tb, chk_pos *p, chk_move *moves, int *values, int *dists,
                       bool *known)
{
    int n = chk_gen_moves(p, moves);
    if (n < 0) {
        snprintf(tb->err, sizeof tb->err, "a rule hook failed");
        return n;
    }
    for (int i = 0; i < n; i++) {
        uint8_t b;
        int v, d, rc;
        if (!chk_make(p, &moves[i])) {
            snprintf(tb->err, sizeof tb->err, "out of memory");
            return CHK_NO_MEMORY;
        }
        rc = tb_probe_byte(tb, p, &b);
        chk_unmake(p);
        if (rc < 0)
            return rc;
        known[i] = rc == 1;
        values[i] = CHK_TB_DRAW;
        dists[i] = 0;
        if (known[i]) {
            tb_byte_value(b, &v, &d);
            values[i] = -v;
            dists[i] = v == CHK_TB_DRAW ? 0 : d + 1;
        }
    }
    return n;
}

/* Orders move values for the mover: a bigger key is a better move. */
static long move_key(int value, int dist)
{
    if (value == CHK_TB_WIN)
        return 2000 - dist;
    return value == CHK_TB_DRAW ? 0 : -1000 + dist;
}

typedef struct move_values {
    chk_move moves[CHK_MAX_MOVES];
    int values[CHK_MAX_MOVES], dists[CHK_MAX_MOVES];
    bool known[CHK_MAX_MOVES];
} move_values;

int chk_tb_best_move(chk_tb *tb, chk_pos *p, chk_move *best, int *value, int *distance)
{
    move_values *mv = malloc(sizeof *mv);
    int n, pick = -1;
    if (!mv) {
        snprintf(tb->err, sizeof tb->err, "out of memory");
        return CHK_NO_MEMORY;
    }
    n = chk_tb_move_values(tb, p, mv->moves, mv->values, mv->dists, mv->known);
    for (int i = 0; i < n; i++) {
        if (!mv->known[i]) {
            pick = -1;
            break;
        }
        if (pick < 0 || move_key(mv->values[i], mv->dists[i]) >
                            move_key(mv->values[pick], mv->dists[pick]))
            pick = i;
    }
    if (pick >= 0) {
        *best = mv->moves[pick];
        *value = mv->values[pick];
        *distance = mv->dists[pick];
    }
    free(mv);
    return n < 0 ? n : pick >= 0;
}

/* ---- contents ----------------------------------------------------------- */

static int sigs_fill(tb_sig *cur, int slot, int left, tb_sig *out, int n, int max)
{
    if (slot == 2 * TB_KINDS) {
        if (!left && cur->n[0][CHK_KING] && cur->n[1][CHK_KING] && n < max)
            out[n++] = *cur;
        return n;
    }
    for (int i = 0; i <= left; i++) {
        cur->n[slot / TB_KINDS][slot % TB_KINDS] = (uint8_t)i;
        n = sigs_fill(cur, slot + 1, left - i, out, n, max);
    }
    cur->n[slot / TB_KINDS][slot % TB_KINDS] = 0;
    return n;
}

int tb_sigs_with(int pieces, tb_sig *out, int max)
{
    tb_sig cur;
    memset(&cur, 0, sizeof cur);
    return sigs_fill(&cur, 0, pieces, out, 0, max);
}

int chk_tb_max_pieces(const chk_tb *tb)
{
    tb_sig sigs[512];
    int best = 0;
    for (int n = 2; n <= CHK_TB_MAX_PIECES; n++) {
        int m = tb_sigs_with(n, sigs, 512);
        for (int i = 0; i < m; i++)
            if (!tb->slots[slot_of(tb, tb_sig_key(&sigs[i]))])
                return best;
        best = n;
    }
    return best;
}

int chk_tb_count(const chk_tb *tb)
{
    return tb->ntables;
}

int tb_table_cmp(const void *a, const void *b)
{
    const tb_table *x = *(tb_table *const *)a, *y = *(tb_table *const *)b;
    if (x->lay.pieces != y->lay.pieces)
        return x->lay.pieces - y->lay.pieces;
    if (strlen(x->name) != strlen(y->name))
        return (int)strlen(x->name) - (int)strlen(y->name);
    return strcmp(x->name, y->name);
}

void tb_index_fen(chk_tb *tb, const tb_table *t, uint64_t idx, char *out, size_t n)
{
    uint8_t sq[CHK_TB_MAX_PIECES], pc[CHK_TB_MAX_PIECES];
    chk_pos p;
    chk_pos_init(&p, &tb->rules);
    if (tb_decode(&t->lay, idx, sq, pc))
        for (int i = 0; i < t->lay.pieces; i++)
            chk_pos_put(&p, sq[i], pc[i]);
    chk_pos_fen(&p, out, n);
    chk_pos_free(&p);
}

int chk_tb_info_get(chk_tb *tb, int i, chk_tb_info *out)
{
    int rc;
    if (i < 0 || i >= tb->ntables) {
        snprintf(tb->err, sizeof tb->err, "no table number %d", i);
        return CHK_TB_ERROR;
    }
    tb_table *t = tb->tables[i];
    if (!tb_find(tb, t->key, &rc))
        return CHK_TB_ERROR;
    memset(out, 0, sizeof *out);
    memcpy(out->name, t->name, sizeof out->name);
    out->pieces = t->lay.pieces;
    out->wins = t->st.wins;
    out->draws = t->st.draws;
    out->losses = t->st.losses;
    out->positions = out->wins + out->draws + out->losses;
    out->longest_win = (int)t->st.longest_win;
    if (out->longest_win)
        tb_index_fen(tb, t, t->st.longest_index, out->longest_fen, sizeof out->longest_fen);
    return 0;
}
