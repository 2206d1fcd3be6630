/*
 * tb_internal.h - what the tablebase files share (tb_index.c: signatures,
 * the position index; tb_file.c: the files; tb.c: the registry and
 * probing; tb_build.c: retrograde analysis).
 * Not part of the public interface.
 */
#ifndef CHESKERS_TB_INTERNAL_H
#define CHESKERS_TB_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "cheskers_tb.h"

#define TB_KINDS 4              /* P, K, B, C: the built-in kinds only */
#define TB_RULES_TEXT 512

/* Value bytes: 0 an index that is no position (two pieces on a square),
 * 1 a draw, d + 2 a result in d plies: a win when d is odd, a loss when
 * even (the side to move wins on its own moves). */
enum { TB_BYTE_NONE = 0, TB_BYTE_DRAW = 1 };
#define TB_BYTE(d) ((uint8_t)((d) + 2))

/* The pieces of each side by colour and kind. */
typedef struct tb_sig {
    uint8_t n[2][TB_KINDS];
} tb_sig;

/* One kind of one colour in the index: count pieces on nsq allowed
 * squares (square sq is slot sq - shift), ranked as a combination. A
 * group marked rep (the lone White king of a pawnless signature) stands
 * on one square of each symmetry class instead (slot: tb_rep_slot). */
typedef struct tb_group {
    uint8_t color, kind, count, shift, nsq;
    bool rep;
    uint64_t mult;
} tb_group;

/* Pawnless signatures whose White has one king use the board's symmetries
 * that keep dark squares dark and need no direction: the half turn and the
 * reflections in the two long diagonals (a1-h8: (f, r) -> (r, f); a8-h1:
 * (f, r) -> (7 - r, 7 - f)). The White king is brought to the first square
 * of its class; each stored position then stands for tb_weight positions. */
#define TB_SYMS 4

typedef struct tb_layout {
    tb_sig sig;
    bool sym;                   /* the symmetric index (above) */
    int ngroups, pieces, pawns;
    tb_group g[2 * TB_KINDS];
    uint64_t size;              /* index range, = the payload bytes */
} tb_layout;

/* A file's header fields (see docs/tablebases.md for the layout). */
typedef struct tb_stats {
    uint64_t wins, draws, losses;
    uint32_t longest_win;
    uint64_t longest_index;
} tb_stats;

/* The payload is cut into blocks of 1 << TB_BLOCK_SHIFT value bytes (the
 * last one shorter), each compressed alone with zstd at TB_ZSTD_LEVEL
 * (docs/tablebases.md has the measurements behind both). */
#define TB_BLOCK_SHIFT 16
#define TB_ZSTD_LEVEL 3

typedef struct tb_table {
    tb_layout lay;
    uint32_t key;
    char name[24];
    char *path;
    atomic_int state;           /* 0 not read yet, 1 loaded, -1 damaged */
    uint8_t *file;              /* the whole file, compressed, read into memory
                                   (never mapped: a file changed under a mapping
                                   is SIGBUS); its header and block index checked */
    uint64_t nblocks;
    unsigned shift;             /* log2 of the block size */
    _Atomic(uint8_t *) *blocks; /* block i's value bytes, decompressed (and
                                   checked) on first use, kept until unloaded;
                                   NULL: not yet */
    tb_stats st;
} tb_table;

struct chk_tb {
    char *dir;
    chk_rules rules;            /* normalised copy (no draw rules) */
    char rules_text[TB_RULES_TEXT];
    uint32_t fp;                /* FNV-1a of rules_text: in the file names */
    tb_table **tables;
    int ntables, cap;
    int *slots;                 /* hash of keys: table index + 1, 0 empty */
    int nslots;
    pthread_mutex_t lock;
    char err[320];
};

uint32_t tb_sig_key(const tb_sig *s);
/* The number of pieces of a signature, both sides. */
int tb_sig_pieces(const tb_sig *s);

/* tb_file.c: the slot of key in tb's hash (tb->slots: 0 or table + 1),
 * the path of a table's file ("DIR/NAME.<fp>.ctb<suffix>", malloc'd), and
 * freeing what a loaded table holds. */
int tb_slot_of(const chk_tb *tb, uint32_t key);
char *tb_file_path(const chk_tb *tb, const char *name, const char *suffix);
void tb_unload(tb_table *t);
tb_sig tb_sig_swap(const tb_sig *s);
void tb_sig_name(const tb_sig *s, char out[24]);
/* "KBvK" (len bytes) -> its signature; false when it is not one a table
 * can have (each side a king, at most CHK_TB_MAX_PIECES pieces). */
bool tb_sig_parse(const char *name, size_t len, tb_sig *s);
void tb_layout_init(tb_layout *lay, const tb_sig *s);
/* The index of the White-to-move position with these bitboards (its
 * signature must be lay's). */
uint64_t tb_index_bb(const tb_layout *lay, chk_bb bb[2][CHK_MAX_KINDS]);
/* The pieces of index idx: false when two share a square. sq[i], pc[i]
 * for i < lay->pieces. */
bool tb_decode(const tb_layout *lay, uint64_t idx, uint8_t *sq, uint8_t *pc);
/* The canonical (White to move) bitboards and signature of p; false when
 * p has a piece of a custom kind. */
bool tb_canon(const chk_pos *p, chk_bb bb[2][CHK_MAX_KINDS], tb_sig *s);
/* With lay->sym: turns bb so that the White king is on its class's first
 * square (the same position up to a symmetry). */
void tb_sym_canon(const tb_layout *lay, chk_bb bb[2][CHK_MAX_KINDS]);
/* How many positions index idx stands for (1 without symmetry). */
int tb_weight(const tb_layout *lay, uint64_t idx);
/* Square sq under symmetry t (0: itself, 1: half turn, 2, 3: the diagonal
 * reflections). */
int tb_sym_square(int t, int sq);

/* The table for a signature key (NULL: no file), loaded; CHK_TB_ERROR
 * through *rc when damaged (else CHK_OK). */
tb_table *tb_find(chk_tb *tb, uint32_t key, int *rc);
/* Whether the directory has a file for the signature key (not read). */
bool tb_listed(const chk_tb *tb, uint32_t key);
/* The bytes of lay's file at most: its header, its block index and its
 * blocks (zstd stores a block that does not compress as it is, in a frame
 * of a few bytes). */
uint64_t tb_file_bytes(const chk_tb *tb, const tb_layout *lay);
/* Registers a table file (after a build); returns the table or NULL. */
tb_table *tb_add(chk_tb *tb, const tb_sig *s);
/* Writes a finished table: a new temporary file of a name no one else has
 * (created exclusively, never through a link), fsync, rename. CHK_OK, or
 * CHK_NO_MEMORY or CHK_TB_ERROR with a message in err. */
int tb_write(chk_tb *tb, const tb_layout *lay, const uint8_t *data, const tb_stats *st,
             char *err, size_t errlen);
/* Decompresses block b of t (a loaded table), checks it and publishes it
 * in t->blocks[b]: its bytes, or NULL with the message in tb->err naming
 * the file and the block (*rc CHK_TB_ERROR, or CHK_NO_MEMORY). */
uint8_t *tb_block_load(chk_tb *tb, tb_table *t, uint64_t b, int *rc);

/* The value byte of index idx (< t->lay.size) of t, a loaded table: the
 * one way every reader gets at a table's values (probes, the build's
 * probes of smaller tables, walks). 1, or a negative chk_status (a
 * damaged block: tb->err says which). Thread-safe: a block is
 * decompressed by whichever thread first needs it. */
static inline int tb_table_byte(chk_tb *tb, tb_table *t, uint64_t idx, uint8_t *byte)
{
    uint64_t b = idx >> t->shift;
    uint8_t *raw = atomic_load_explicit(&t->blocks[b], memory_order_acquire);
    int rc = CHK_TB_ERROR;
    if (!raw && !(raw = tb_block_load(tb, t, b, &rc)))
        return rc;
    *byte = raw[idx & ((UINT64_C(1) << t->shift) - 1)];
    return 1;
}

/* Whether the file of signature key is there and sound as far as its
 * header, block index and size say (the blocks are checked on use): what a
 * resumed build needs to keep it. Nothing is kept in memory. */
bool tb_file_sound(chk_tb *tb, uint32_t key);

/* The probe's core: the value byte for p, 1 found / 0 not covered /
 * CHK_TB_ERROR (a damaged file). */
int tb_probe_byte(chk_tb *tb, const chk_pos *p, uint8_t *byte);
void tb_byte_value(uint8_t b, int *value, int *distance);
/* The position of index idx in t as a FEN line, White to move (an empty
 * board when the index holds no position). */
void tb_index_fen(chk_tb *tb, const tb_table *t, uint64_t idx, char *out, size_t n);
/* Every signature with exactly `pieces` pieces, each side a king: out[]
 * (room for max); returns how many. */
int tb_sigs_with(int pieces, tb_sig *out, int max);
/* qsort order of tables: pieces, then name. */
int tb_table_cmp(const void *a, const void *b);

#endif
