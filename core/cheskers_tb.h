/*
 * cheskers_tb.h - the public interface of the endgame tablebases: building
 * them by retrograde analysis (tb_build.c), the files (tb_file.c), opening
 * and probing (tb.c), material signatures and position indexes (tb_index.c).
 *
 * A table holds, for one material signature (the pieces of each side, both
 * with at least one king) and one rule set, every legal position with White
 * to move: its value for the side to move (win, loss or draw: neither side
 * can force a win) and the distance in plies to the end of the game with
 * best play (the winner wins fastest, the loser resists longest). A
 * position with Black to move is looked up as its image: colours swapped
 * and the board turned 180 degrees, White to move (the same position for
 * the other side). Draw rules (draw_repetition, draw_quiet_plies) and the
 * option first are ignored by the tables; rule sets with hooks or custom
 * piece kinds are refused (chk_tb_supported). docs/guide/tables.md has the
 * file format and the measured sizes and times.
 *
 * Thread safety: one chk_tb may be probed from several threads at once
 * (tables are loaded on first use under a lock).
 */
#ifndef CHESKERS_TB_H
#define CHESKERS_TB_H

#include "cheskers.h"

#define CHK_TB_MAX_PIECES 6     /* the largest tables the index supports */
#define CHK_TB_MAX_DIST   253   /* the longest distance a table can store */

/* Values of a position for its side to move (not statuses: the calls
 * below fail with a negative chk_status of cheskers.h, CHK_TB_ERROR for a
 * damaged or unwritable file, with a message). */
enum { CHK_TB_LOSS = -1, CHK_TB_DRAW = 0, CHK_TB_WIN = 1 };

typedef struct chk_tb chk_tb;

/* true when tables can be built for r; else false with the reason (a rule
 * hook, or a piece kind other than the built-in K, B, C and P). */
bool chk_tb_supported(const chk_rules *r, char *err, size_t errlen);
/* The rule text that keys the tables of r (the draw options and first
 * reset): n bytes of buf, returns the length as chk_rules_to_text. */
size_t chk_tb_rules_text(const chk_rules *r, char *buf, size_t n);

/* Opens the tables for rule set r in directory dir (files are read into
 * memory when first probed, and checked: a file that is not a regular file,
 * of the wrong size or damaged is refused by name). An empty or missing
 * directory is not an error, nor is dir NULL (no folder): nothing is
 * covered. NULL with a message when r is not supported or out of memory. */
chk_tb *chk_tb_open(const char *dir, const chk_rules *r, char *err, size_t errlen);
void chk_tb_close(chk_tb *tb);
/* The largest n such that every signature with up to n pieces has a file
 * (0 when none: even K v K is missing). */
int chk_tb_max_pieces(const chk_tb *tb);
/* The message of the last failure of a call on tb: CHK_TB_ERROR (a
 * damaged or foreign file), CHK_HOOK_ERROR or CHK_NO_MEMORY. */
const char *chk_tb_error(const chk_tb *tb);

/* The value of p (whose rules must be the table's rules: same text as
 * chk_tb_rules_text) for its side to move: *value CHK_TB_WIN, _DRAW or
 * _LOSS, *distance the plies to the end (0 for a draw, and for a lost
 * finished position: the side to move alone has no king). Returns 1 when
 * found, 0 when no table covers p (too many pieces, a missing file, the
 * other side without a king), CHK_TB_ERROR when the file is damaged
 * (chk_tb_error says how). The history of p is ignored. */
int chk_tb_probe(chk_tb *tb, const chk_pos *p, int *value, int *distance);
/* Each legal move of p with its value for the mover: moves[i] (room for
 * CHK_MAX_MOVES), values[i] CHK_TB_WIN/_DRAW/_LOSS and dists[i] the plies
 * to the end counting the move itself; known[i] false when no table covers
 * the position after the move. Returns the number of moves (0 when the game
 * is over), or CHK_HOOK_ERROR, CHK_NO_MEMORY or CHK_TB_ERROR (a damaged
 * file), chk_tb_error saying which. p is restored. */
int chk_tb_move_values(chk_tb *tb, chk_pos *p, chk_move *moves, int *values, int *dists,
                       bool *known);

/* A best move by the tables: the fastest win, else a draw, else the
 * slowest loss (ties: the first in move generation order). *value and
 * *distance are the position's (as chk_tb_probe). Returns 1 when found,
 * 0 when the position or one of its moves is not covered, or the game is
 * over (no move), a negative chk_status as chk_tb_move_values. p is
 * restored. */
int chk_tb_best_move(chk_tb *tb, chk_pos *p, chk_move *best, int *value, int *distance);

/* ---- the contents of a directory (for the atlas) ---- */

typedef struct chk_tb_info {
    char name[24];              /* "KBvK": White's pieces, v, Black's (K B C P order) */
    int pieces;
    uint64_t positions;         /* legal positions, White to move */
    uint64_t wins, draws, losses;   /* for the side to move (White) */
    int longest_win;            /* plies; 0 when no position is won */
    char longest_fen[96];       /* a position with that win, White to move */
} chk_tb_info;

/* The number of tables (files) found for the rules, and the i-th one's
 * header, in order of pieces then name. chk_tb_info_get returns 0, or
 * CHK_TB_ERROR for a damaged file (chk_tb_error). */
int chk_tb_count(const chk_tb *tb);
int chk_tb_info_get(chk_tb *tb, int i, chk_tb_info *out);

/* ---- walking a table (tb_walk.c: the atlas, endgame studies) ---- */

/* A won position of a table: its index and distance (plies, odd). */
typedef struct chk_tb_win {
    uint64_t index;
    int distance;
} chk_tb_win;

typedef struct chk_tb_walk_opts {
    int min_distance;                   /* skip wins shorter than this (plies) */
    bool unique;                        /* only positions where exactly one move
                                           wins (every other draws or loses) */
    int keep;                           /* room in out */
    const volatile sig_atomic_t *stop;  /* polled; non-zero stops; may be NULL */
} chk_tb_walk_opts;

/* Walks every position of the i-th table (as chk_tb_info_get) that White
 * to move wins in at least o->min_distance plies (with o->unique, only
 * those with a single winning move). *count gets their number counted
 * with their symmetric images (as chk_tb_info's wins); out gets the
 * o->keep longest (ties: the lower index first), longest first. Returns
 * the number kept, or CHK_STOPPED, CHK_NO_MEMORY, CHK_TB_ERROR
 * (chk_tb_error). */
int chk_tb_wins(chk_tb *tb, int i, const chk_tb_walk_opts *o, chk_tb_win *out, uint64_t *count);
/* The number i of the table of signature name ("KBvK"), or -1 when tb has
 * no file for it. */
int chk_tb_number(const chk_tb *tb, const char *name);
/* The position of index idx of the i-th table as a FEN line, White to
 * move: 1, or 0 when the index holds no position, CHK_TB_ERROR. */
int chk_tb_index_fen(chk_tb *tb, int i, uint64_t idx, char *buf, size_t n);

/* ---- building ---- */

typedef struct chk_tb_progress {
    const char *name;           /* the signature just finished */
    int done, total;            /* signatures finished (or found on disk), in all */
    bool skipped;               /* it was on disk already (a resumed build) */
    uint64_t positions;         /* its positions */
    double seconds;             /* its build time */
} chk_tb_progress;

/* Return non-zero to stop the build (chk_tb_build returns CHK_ABORTED). */
typedef int (*chk_tb_progress_fn)(void *ud, const chk_tb_progress *pr);

typedef struct chk_tb_build_opts {
    int pieces;                         /* every signature with up to this many */
    int threads;                        /* 0: every online core */
    const volatile sig_atomic_t *stop;  /* polled; non-zero stops */
    chk_tb_progress_fn progress;        /* called after each signature; may be NULL */
    void *progress_ud;
    const char *only;                   /* NULL: all; else this signature ("KBCvKB")
                                           and its colour swap alone: the tables it
                                           leads to must be there already */
    bool no_preflight;                  /* build even when the disk space or memory
                                           the plan estimates is not there */
} chk_tb_build_opts;

/* Builds every missing table for r in dir (created when missing), smallest
 * first (with o->only: that unit alone, refused unless every table it reads
 * is in dir). Unless o->no_preflight, it first refuses to start when dir's
 * free space is short of the files to write, or the memory available
 * (MemAvailable, within RLIMIT_AS) of the plan's estimate, with both
 * figures in err. Each file is written to a new temporary file (a fresh name, created
 * exclusively: nothing planted there is written through), synced and
 * renamed, so a killed build loses at most the signature in progress; files
 * already there (and sound) are kept, others replaced. Returns CHK_OK; CHK_STOPPED when o->stop was
 * raised, CHK_ABORTED when o->progress asked to stop; else CHK_NO_MEMORY or
 * CHK_TB_ERROR with a message in err. */
int chk_tb_build(const char *dir, const chk_rules *r, const chk_tb_build_opts *o,
                 char *err, size_t errlen);

/* ---- planning a build ---- */

/* One unit of a build: a signature and its colour swap, built together. */
typedef struct chk_tb_unit {
    char name[24];              /* its first signature ("KBvKP") */
    char swap[24];              /* its colour swap ("KPvKB"), "" when the same */
    int pieces;
    int level;                  /* 1, 2, ...: every table its build reads is
                                   of a unit of a lower level */
    uint64_t entries;           /* index entries of its files (payload bytes) */
    uint64_t disk;              /* bytes of its files */
    uint64_t deps_disk;         /* bytes of the tables its build reads */
    uint64_t memory;            /* estimated peak bytes of building it alone,
                                   with deps_disk (docs/guide/tables.md) */
    bool built;                 /* its files are in the directory */
} chk_tb_unit;

/* The units of a build of every signature with up to pieces pieces (only
 * non-NULL: that signature's unit alone) for r in dir, in build order:
 * *out (malloc'ed: free it), returns how many, or CHK_TB_ERROR (with a
 * message: a signature that is none) or CHK_NO_MEMORY. No file is read. */
int chk_tb_plan(const char *dir, const chk_rules *r, int pieces, const char *only,
                chk_tb_unit **out, char *err, size_t errlen);

#endif
