/*
 * cheskers.h - the public interface of the Cheskers rules core.
 *
 * Pure C11, no Lua, no I/O. The board is 32 dark squares; square index
 * sq = rank * 4 + file / 2 (a1 = 0, c1 = 1, e1 = 2, g1 = 3, b2 = 4, ... h8 = 31).
 * A bitboard (chk_bb) has one bit per square.
 *
 * Ownership: a chk_rules is owned by the caller and must outlive every
 * position that points to it. A chk_pos owns its undo history (heap memory):
 * release it with chk_pos_free. Move generation never allocates. The
 * memory a position's history and a search context hold comes from the C
 * library, or from an allocator the caller gives (chk_alloc).
 *
 * Errors: functions that read text or may fail take an error buffer
 * (err, errlen) and return a negative number (or false) with a message in it.
 */
#ifndef CHESKERS_H
#define CHESKERS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHK_VERSION "0.1.0"

#define CHK_SQUARES   32
#define CHK_MAX_KINDS 8     /* P, K, B, C and up to four extra kinds */
#define CHK_MAX_DIRS  16    /* expanded vectors per piece kind */
#define CHK_MAX_PATH  32    /* landings in one chain (one per captured piece) */
#define CHK_MAX_MOVES 1024  /* legal moves in one position, with room to spare */
#define CHK_NONE      0xFF  /* no piece / no promotion */

typedef uint32_t chk_bb;

/* ---- status, clock and stopping (status.c) ------------------------------ */

/* How a long core call ended. Calls that return a count or a length return
 * it when >= 0 and a negative chk_status otherwise; calls that return only a
 * status return CHK_OK on success. The same value means the same thing in
 * perft, divide, search, solve and the tablebases (cheskers_tb.h). */
typedef enum chk_status {
    CHK_OK = 0,
    CHK_STOPPED = -1,       /* the stop flag was raised (Ctrl-C, an interrupt) */
    CHK_TIMEOUT = -2,       /* the deadline passed */
    CHK_HOOK_ERROR = -3,    /* a rule hook failed */
    CHK_NO_MEMORY = -4,     /* the position's history (or a table) could not grow */
    CHK_NODE_LIMIT = -5,    /* the solver's node budget ran out */
    CHK_EVAL_ERROR = -6,    /* search: the eval callback failed */
    CHK_ABORTED = -7,       /* a callback asked to stop (a search's info, a
                               tablebase build's progress) */
    CHK_TB_ERROR = -8,      /* tablebases: a damaged or unwritable file, or a
                               build that cannot be done (the call's message,
                               err or chk_tb_error, says which) */
    CHK_BAD_OPTION = -9     /* an option out of its range (chk_search_opts:
                               see chk_search_run); nothing was done */
} chk_status;

/* A short name of a status ("stopped", "timeout" ...), "?" for no status. */
const char *chk_status_name(int status);

/* Monotonic wall-clock seconds (from an arbitrary origin): the one clock of
 * the project, for deadlines and timings. */
double chk_clock(void);

/* CPU seconds used by this process, all its threads (the clock of os.clock,
 * CLOCK_PROCESS_CPUTIME_ID): the clock of the bots' time limits, which a
 * loaded machine does not eat into. A system call (about 0.2 us): callers
 * in hot loops read it every so often. */
double chk_cpu_clock(void);

/* When a long call must stop: a flag polled on every check, and deadlines
 * (a chk_clock() time and a chk_cpu_clock() time, 0: none) read from their
 * clocks once every CHK_STOP_EVERY checks, so polling costs next to nothing.
 * A NULL chk_stop never stops. Once a check has failed, every later one
 * fails the same way. */
#define CHK_STOP_EVERY 1024
typedef struct chk_stop {
    const volatile sig_atomic_t *flag;  /* non-zero: CHK_STOPPED; may be NULL */
    double deadline;                    /* chk_clock() time; 0: none */
    double cpu_deadline;                /* chk_cpu_clock() time; 0: none (set it after chk_stop_make) */
    unsigned countdown;                 /* checks until the next clock read */
    chk_status status;                  /* CHK_OK until a check fails */
} chk_stop;

/* A stop condition from a flag (may be NULL) and a deadline (0: none); no
 * CPU deadline. */
chk_stop chk_stop_make(const volatile sig_atomic_t *flag, double deadline);
/* Reads the clocks: CHK_OK or CHK_TIMEOUT (out of line; see chk_stop_check). */
chk_status chk__stop_clock(chk_stop *s);
/* CHK_OK, CHK_STOPPED or CHK_TIMEOUT. */
static inline chk_status chk_stop_check(chk_stop *s)
{
    if (s == NULL)
        return CHK_OK;
    if (s->status != CHK_OK)
        return s->status;
    if (s->flag && *s->flag)
        return s->status = CHK_STOPPED;
    if ((s->deadline > 0 || s->cpu_deadline > 0) && --s->countdown == 0)
        return chk__stop_clock(s);
    return CHK_OK;
}

enum { CHK_WHITE = 0, CHK_BLACK = 1 };
enum { CHK_PAWN = 0, CHK_KING = 1, CHK_BISHOP = 2, CHK_CAMEL = 3 };

/* A piece code in chk_pos.sq: kind | color << 3, or CHK_NONE. */
#define CHK_PIECE(color, kind) ((uint8_t)((kind) | ((color) << 3)))
#define CHK_PIECE_KIND(pc)     ((pc) & 7)
#define CHK_PIECE_COLOR(pc)    ((pc) >> 3)

/* ---- rules -------------------------------------------------------------- */

enum { CHK_CAPTURE_MIXED, CHK_CAPTURE_JUMPS, CHK_CAPTURE_ALL, CHK_CAPTURE_OPTIONAL };
enum { CHK_STYLE_TAKE, CHK_STYLE_JUMP };

/* How one piece kind moves. Pawns are built in (kinds[CHK_PAWN] holds only
 * the letter); every other kind is described by vectors. A vector (a, b)
 * stands for all of its symmetries (+-a, +-b) and (+-b, +-a). A leap goes one
 * vector; a ride repeats it over empty squares. Style TAKE captures by moving
 * onto an enemy piece; style JUMP captures by passing over one enemy piece
 * (leap: from+v is the enemy, from+2v the empty landing; ride: the first
 * piece on the line, landing on any empty square beyond) and chains on. */
typedef struct chk_kind {
    char letter;               /* upper case: 'K', 'B', 'C', or an extra letter */
    uint8_t style;             /* CHK_STYLE_TAKE or CHK_STYLE_JUMP */
    bool compulsory;           /* its captures count as compulsory ones */
    uint8_t nleaps, nrides;    /* vectors as given (before symmetry) */
    int8_t leaps[8][2], rides[8][2];
    /* derived by chk_rules_finish: */
    uint8_t ndirs;             /* expanded directions */
    bool dir_ride[CHK_MAX_DIRS];
    int8_t dir[CHK_MAX_DIRS][2];
    uint8_t ray_len[CHK_SQUARES][CHK_MAX_DIRS];
    uint8_t ray[CHK_SQUARES][CHK_MAX_DIRS][8]; /* squares along the direction */
    chk_bb ray_bb[CHK_SQUARES][CHK_MAX_DIRS];  /* the same rays as bitboards */
    bool dir_up[CHK_MAX_DIRS];                 /* square indexes grow along it */
    uint8_t nride_dirs, ride_dir[CHK_MAX_DIRS]; /* the ride directions */
    chk_bb leap_to[CHK_SQUARES];               /* leap targets (leap dirs only) */
} chk_kind;

struct chk_pos;
struct chk_move;

/* Hooks (set by the Lua binding for rules written in Lua).
 * filter: return 1 to keep the move, 0 to forbid it, -1 on error.
 * result: return 0 when the hook has nothing to say, 1 when the game is over
 *   (*winner = CHK_WHITE, CHK_BLACK or CHK_DRAW_RESULT), -1 on error. */
typedef int (*chk_filter_fn)(void *ud, const struct chk_pos *pos, const struct chk_move *m);
typedef int (*chk_result_fn)(void *ud, const struct chk_pos *pos, int *winner);

typedef struct chk_rules {
    bool majority;
    uint8_t capture;            /* CHK_CAPTURE_* */
    uint8_t promote;            /* bit mask of kinds a pawn may become */
    uint8_t first;              /* CHK_WHITE or CHK_BLACK */
    bool flying_kings;
    bool pawns_capture_backward;
    int draw_repetition;        /* 0 or >= 2 */
    int draw_quiet_plies;       /* 0 or >= 1 */
    uint8_t nkinds;             /* 4 + extra kinds */
    chk_kind kinds[CHK_MAX_KINDS];
    chk_filter_fn filter;
    chk_result_fn result;
    void *hook_ud;
    /* derived by chk_rules_finish: */
    bool finished;              /* chk_rules_finish succeeded */
    bool compulsory_takes;      /* some take-style kind captures compulsorily */
    bool fast_count;            /* the bitboard move counter knows these rules */
    uint64_t zobrist[16][CHK_SQUARES];  /* hash keys by piece code and square */
} chk_rules;

/* The default rules (golomb), finished and ready to use. */
void chk_rules_default(chk_rules *r);
/* Sets the options and piece kinds of r to the default rules' (no hooks)
 * and leaves the tables derived from them as they were: a cheap start for
 * reading rules to find their key (chk_rules_key). chk_rules_finish makes r
 * usable again. */
void chk_rules_reset(chk_rules *r);
/* ---- name=value text: the one grammar (docs/reference/rules.md, "Options as text") --
 * A list of items separated by spaces, tabs, line ends, commas or colons.
 * An item is NAME=VALUE (spaces may surround the =): NAME is a letter or _,
 * then letters, digits and _; VALUE is 'quoted' or "quoted" (the text
 * inside, no escapes), a {...} data literal (braces balanced, quotes inside
 * skipped; handed over whole, for Lua to read), or a bare word up to the
 * next separator, typed: true and false are booleans, [+-]digits a whole
 * number (a number when too large), digits with a point or an exponent a
 * number, anything else text. A word without = is an item of type
 * CHK_VALUE_NONE, for the caller to judge (a preset name, a forgotten value).
 * Rules text and bot options read their items with it. */
enum {
    CHK_VALUE_NONE,     /* a word with no =value */
    CHK_VALUE_BOOL,
    CHK_VALUE_INT,
    CHK_VALUE_NUMBER,
    CHK_VALUE_TEXT,
    CHK_VALUE_DATA,     /* a {...} literal: value holds it, braces included */
    CHK_VALUE_OTHER     /* (from Lua tables) no text form: value names its kind, "a table" */
};
typedef struct chk_option {
    const char *name;   /* the name (or the word), not NUL-terminated */
    size_t name_len;
    const char *value;  /* the value as written, quotes removed; not NUL-terminated */
    size_t value_len;
    int type;           /* CHK_VALUE_* */
    bool b;             /* CHK_VALUE_BOOL */
    long long i;        /* CHK_VALUE_INT */
    double f;           /* CHK_VALUE_NUMBER */
} chk_option;

/* Reads the item of text that starts at or after *pos (separators skipped):
 * 1 with *o set (pointing into text) and *pos past the item, 0 at the end of
 * text, -1 with a message in err. what is the noun of the messages ("rule
 * option": "rule option 'start': the quote ' is not closed"). */
int chk_option_next(const char *text, size_t *pos, const char *what, chk_option *o,
                    char *err, size_t errlen);
/* Types a bare word as chk_option_next does (into o->type, b, i, f). */
void chk_option_type(chk_option *o);

/* ---- rules as text --------------------------------------------------------
 * Rules text is one preset name alone ("golomb"), or rule options
 * name=value. The options: majority, capture, promote, first, flying_kings,
 * pawns_capture_backward, draw_repetition, draw_quiet_plies (kept in
 * chk_rules), and start (a position text) and pieces (a {...} literal),
 * which the caller reads (the Lua binding). Messages name the option, echo
 * the value and say what is allowed, with "did you mean" for a near name,
 * value or preset: "capture must be one of 'mixed', 'jumps', 'all',
 * 'optional', not 'jump' (did you mean 'jumps'?)". */

/* The next item of rules text (chk_option_next, what "rule option"): 1 an
 * option with a known name, given once (*seen: the options read so far, 0
 * at the start), start a text and pieces a {...} literal (other values are
 * checked by chk_rules_set_option); 2 a preset name alone (o->name, known);
 * 0 at the end; -1 with a message. */
int chk_rules_next(const char *text, size_t *pos, unsigned *seen, chk_option *o,
                   char *err, size_t errlen);
/* Sets r to the preset name (len bytes): "golomb", the default rules.
 * Returns 0, or -1 with "unknown rules preset 'x'" and a suggestion. */
int chk_rules_preset(chk_rules *r, const char *name, size_t len, char *err, size_t errlen);
/* Sets the option o (from chk_rules_next, or made by the caller from a
 * value of its own) in r. Returns 0, or -1 with a message. start and pieces
 * are refused here (the caller reads them). Call chk_rules_finish afterwards. */
int chk_rules_set_option(chk_rules *r, const chk_option *o, char *err, size_t errlen);
/* chk_rules_set_option with the value typed as a bare word ("false"). */
int chk_rules_set(chk_rules *r, const char *name, const char *value, char *err, size_t errlen);
/* Reads rules text over r (a preset resets r to it), then finishes r.
 * start and pieces are refused (they need the Lua module). Returns 0 or -1. */
int chk_rules_parse(chk_rules *r, const char *text, char *err, size_t errlen);
/* Define (or redefine) the movement of a kind by letter. letter 'K' and 'P'
 * cannot be redefined. A new letter adds a kind (at most CHK_MAX_KINDS).
 * Vectors must be colour bound (a + b even) and within the board. */
int chk_rules_set_kind(chk_rules *r, char letter, int style, bool compulsory,
                       const int8_t (*leaps)[2], int nleaps,
                       const int8_t (*rides)[2], int nrides, char *err, size_t errlen);
/* Validate and derive the tables. Must succeed before positions use r. */
int chk_rules_finish(chk_rules *r, char *err, size_t errlen);
/* The kind index for a piece letter (either case), or -1. */
int chk_rules_kind(const chk_rules *r, char letter);
/* The content that defines r, as bytes: the options and the piece kinds as
 * given (not the tables chk_rules_finish derives from them, not the hooks;
 * the king moves as flying_kings says). Two rule sets move and end games
 * alike when their keys are equal, finished or not. Writes at most
 * CHK_RULES_KEY_SIZE bytes to buf; returns the length. */
#define CHK_RULES_KEY_SIZE 256
size_t chk_rules_key(const chk_rules *r, unsigned char *buf);
/* Write the options as "majority=true capture=mixed ..." (no piece kinds). */
size_t chk_rules_to_text(const chk_rules *r, char *buf, size_t n);
const char *chk_capture_name(int capture);

/* ---- did you mean ------------------------------------------------------ */
/* The closest of names[0 .. n-1] to word (len bytes) when it is close
 * enough to be a likely typo (at most about a third of its letters differ),
 * else NULL. Ties go to the name first in byte order. */
const char *chk_closest(const char *word, size_t len, const char *const names[], int n);
/* Writes " (did you mean 'x'?)" for chk_closest, else "", into buf (size
 * bytes); returns buf. The one wording of a suggestion. */
const char *chk_did_you_mean(char *buf, size_t size, const char *word, size_t len,
                             const char *const names[], int n);

/* ---- moves -------------------------------------------------------------- */

enum {
    CHK_MF_JUMP = 1,        /* a jump chain */
    CHK_MF_TAKE = 2,        /* a capture by moving onto the piece */
    CHK_MF_COMPULSORY = 4   /* a capture of a compulsory kind */
};

typedef struct chk_move {
    chk_bb captures;            /* squares of the captured pieces */
    uint8_t from, to;
    uint8_t kind;               /* kind of the moving piece */
    uint8_t promo;              /* kind promoted to, or CHK_NONE */
    uint8_t flags;              /* CHK_MF_* */
    uint8_t npath;              /* landings; 1 for a step, slide, leap or take */
    uint8_t path[CHK_MAX_PATH]; /* landing squares in order; path[npath-1] == to */
} chk_move;

/* Same move: start, end, captured set, promotion (the draughts convention). */
bool chk_move_equal(const chk_move *a, const chk_move *b);

/* ---- positions ---------------------------------------------------------- */

/* A move made and the position before it. The fields up to hash are laid
 * out as chk_pos's first fields: chk_make copies them in one block and
 * chk_unmake copies them back. */
typedef struct chk_undo {
    chk_bb bb[2][CHK_MAX_KINDS];
    chk_bb occ[2];
    uint8_t sq[CHK_SQUARES];
    uint8_t side;
    uint16_t quiet;
    uint32_t moveno;
    uint64_t hash;          /* hash before the move */
    chk_move move;
    uint8_t pad_[8];        /* 176 bytes: entries stay 16-byte aligned */
} chk_undo;

/* An allocator of the memory the core keeps for a caller (a position's
 * history, a search context), with the contract of Lua's lua_Alloc:
 * fn(ud, NULL, 0, n) allocates n bytes, fn(ud, p, old, n) resizes the
 * block p of old bytes, fn(ud, p, old, 0) frees it and returns NULL; NULL
 * when it cannot (then p is unchanged). Shrinking and freeing never fail.
 * The Lua binding gives the Lua state's allocator, so that what the core
 * keeps for a sandboxed box is counted against its memory cap. A NULL
 * chk_alloc pointer means the C library's malloc, realloc and free. */
typedef struct chk_alloc {
    void *(*fn)(void *ud, void *ptr, size_t osize, size_t nsize);
    void *ud;
} chk_alloc;

typedef struct chk_pos {
    chk_bb bb[2][CHK_MAX_KINDS];    /* pieces by colour and kind */
    chk_bb occ[2];                  /* all pieces of a colour */
    uint8_t sq[CHK_SQUARES];        /* CHK_PIECE code or CHK_NONE */
    uint8_t side;                   /* colour to move */
    uint16_t quiet;                 /* plies since the last capture or pawn move */
    uint32_t moveno;                /* move number */
    uint64_t hash;                  /* Zobrist hash: pieces and side to move */
    const chk_rules *rules;
    chk_undo *hist;                 /* moves made, oldest first */
    size_t nhist, caphist;
    const chk_alloc *alloc;         /* of hist: NULL (the C library's) after
                                       chk_pos_init; set it before the first
                                       move; copies share it */
} chk_pos;

#define CHK_START_FEN "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1"

/* An empty board under r, White to move (its history allocated by the C
 * library: p->alloc NULL). */
void chk_pos_init(chk_pos *p, const chk_rules *r);
/* The start position, with the side given by r->first. */
void chk_pos_start(chk_pos *p, const chk_rules *r);
/* Frees the history (p->alloc is kept). */
void chk_pos_free(chk_pos *p);
/* dst becomes an independent copy (history included, allocated with and
 * kept by src's allocator). dst must not be initialised (or be freed
 * first). Returns false when out of memory. */
bool chk_pos_copy(chk_pos *dst, const chk_pos *src);
/* Read a position. On error p is left unchanged and -1 returned. The history
 * is cleared on success. */
int chk_pos_set_fen(chk_pos *p, const char *fen, char *err, size_t errlen);
size_t chk_pos_fen(const chk_pos *p, char *buf, size_t n);
/* Put or remove a piece (CHK_NONE removes); keeps hash consistent. Clears nothing else. */
void chk_pos_put(chk_pos *p, int sq, uint8_t piece);
uint64_t chk_pos_hash_full(const chk_pos *p);     /* recomputed from scratch */
/* Debug: returns NULL when consistent, else a description of the fault. */
const char *chk_pos_check(const chk_pos *p);

/* ---- squares ------------------------------------------------------------ */

int chk_sq_file(int sq);
int chk_sq_rank(int sq);
int chk_sq_from_fr(int file, int rank);     /* -1 for a light or off-board square */
/* "c3" -> index; -1 if not a dark square. Reads exactly two characters. */
int chk_sq_parse(const char *s);
void chk_sq_name(int sq, char out[3]);

/* ---- move generation and play ------------------------------------------- */

/* The legal moves (docs/reference/rules.md), deterministic order. 0 when the game is over
 * (lost kings, a draw by rule, or a result hook). CHK_HOOK_ERROR when a hook
 * failed (as for every call below that runs hooks). */
int chk_gen_moves(chk_pos *p, chk_move *list);
/* Number of legal moves, as chk_gen_moves would return, faster. */
int chk_count_moves(chk_pos *p);
/* Moves under the capture rule ignoring whether the game is over
 * (CHK_HOOK_ERROR when the filter hook failed). */
int chk_gen_rule_moves(const chk_pos *p, chk_move *list);
/* Make a move (assumed legal). Returns false (board unchanged) only when
 * the history cannot grow. */
bool chk_make(chk_pos *p, const chk_move *m);
/* Take back the last move; returns false if there is none. */
bool chk_unmake(chk_pos *p);

/* ---- results ------------------------------------------------------------ */

enum { CHK_ONGOING = -1, CHK_DRAW_RESULT = 2 };  /* also CHK_WHITE, CHK_BLACK as winner */
enum {
    CHK_REASON_NONE, CHK_REASON_KINGS, CHK_REASON_STALEMATE,
    CHK_REASON_REPETITION, CHK_REASON_QUIET, CHK_REASON_HOOK, CHK_REASON_ERROR
};
/* Winner (CHK_WHITE, CHK_BLACK, CHK_DRAW_RESULT) or CHK_ONGOING; *reason set.
 * CHK_REASON_ERROR when a hook failed. */
int chk_result(chk_pos *p, int *reason);
/* Only the rules that do not need move generation (kings, draws, hook). */
int chk_result_static(chk_pos *p, int *reason);
const char *chk_reason_name(int reason);
/* How many times the current position has occurred (1 = first time). */
int chk_repetitions(const chk_pos *p);

/* ---- text --------------------------------------------------------------- */

/* "c3xe5xg7", "a7-b8=K". Returns the length of the whole text; as snprintf,
 * writes at most n bytes, the text cut short when it does not fit, always
 * ending with a zero byte when n > 0. */
size_t chk_move_text(const chk_pos *p, const chk_move *m, char *buf, size_t n);
/* The shape of a word of move text, read with a rule set only (its piece
 * and promotion letters), without a position: the one grammar of move text
 * (docs/reference/rules.md "Move text") that chk_parse_move and every shape check use. */
typedef struct chk_shape {
    int piece;                      /* kind of the leading piece letter, or -1 */
    int nsq;                        /* squares read */
    uint8_t sq[CHK_MAX_PATH + 1];   /* the squares in order, start first */
    char sep[CHK_MAX_PATH];         /* sep[i] between sq[i] and sq[i + 1]: '-' or 'x' */
    bool any_x, any_dash;           /* a capture sign (x X :), a '-' was written */
    int promo;                      /* kind promoted to, or -1 */
    uint8_t fault;                  /* CHK_FAULT_* of a malformed word: the
                                       squares before the fault are in sq[] */
} chk_shape;
enum {
    CHK_FAULT_NONE, CHK_FAULT_PIECE, CHK_FAULT_SQUARE, CHK_FAULT_LIGHT, CHK_FAULT_PROMOTION,
    CHK_FAULT_SPELLING, CHK_FAULT_END, CHK_FAULT_AFTER, CHK_FAULT_LENGTH
};
enum {
    CHK_SHAPE_MOVE,     /* move text: a start, an end, landings, a promotion */
    CHK_SHAPE_SQUARE,   /* one square alone ("b6", "B6") */
    CHK_SHAPE_BAD,      /* shaped like a move but malformed; err says why, in
                           the one wording: "e9 is not a square", "b5 is a
                           light square", "d6--e5 is not move text: write
                           d6-e5", "b6a5 is not move text: write b6-a5",
                           "promotion is to K, B or C, not Q", "N is not a
                           piece letter (P, K, B or C)", "e5=K is not move
                           text: a move needs a start and an end square" */
    CHK_SHAPE_NONE      /* no move text at all ("x", "a1=5", "n1-1", "print(e5)") */
};
/* Reads text (blanks around it allowed) as one word of move text: returns
 * CHK_SHAPE_*, *s filled for MOVE and SQUARE (squares in either case read
 * as squares). err (may be NULL or errlen 0) gets the message of BAD. */
int chk_read_move_text(const chk_rules *r, const char *text, chk_shape *s, char *err, size_t errlen);
/* The written form of a shape read as MOVE or SQUARE ("Cb8-c5", "g7-h8=C",
 * ":" and "X" written "x"); returns its length, written as chk_move_text. */
size_t chk_shape_text(const chk_rules *r, const chk_shape *s, char *buf, size_t n);
/* Find the legal move that text names (docs/reference/rules.md reading rules). Returns 0 on
 * success; CHK_PARSE_BAD_TEXT when text is no move text (err says why in
 * chk_read_move_text's wording; "a move needs a start and an end square"
 * for a square alone); CHK_PARSE_ILLEGAL when it names no legal move or more
 * than one (err names the move, "illegal move ..." or "ambiguous move ...",
 * and lists candidates); CHK_HOOK_ERROR when a rule hook failed. err may
 * be NULL or errlen 0 (no message is written then). */
enum { CHK_PARSE_BAD_TEXT = -1, CHK_PARSE_ILLEGAL = -2 };
int chk_parse_move(chk_pos *p, const char *text, chk_move *out, char *err, size_t errlen);

/* ---- perft -------------------------------------------------------------- */

/* Count move sequences of length depth. bulk: count the last ply without
 * making it. stop (may be NULL): checked at every interior node; when it
 * fails, returns CHK_STOPPED or CHK_TIMEOUT. CHK_HOOK_ERROR when a hook
 * failed, CHK_NO_MEMORY when the history could not grow. The position is
 * always restored. */
int64_t chk_perft(chk_pos *p, int depth, bool bulk, chk_stop *stop);
/* Per root move counts; counts[i] belongs to moves[i]. Returns the number of
 * root moves, or a negative chk_status as chk_perft (counts of the root moves
 * before the failing one are filled). */
int chk_divide(chk_pos *p, int depth, chk_move *moves, int64_t *counts, chk_stop *stop);

/* ---- search (engine): declarations added by core/search.c's author ---- */

/* Scores are centipawns from the side to move's point of view (a pawn is
 * worth about 100). A game won n plies from the root scores
 * CHK_SCORE_WIN - n and a game lost in n plies -(CHK_SCORE_WIN - n), so the
 * engine wins fastest and loses slowest. A draw by rule (or a repeated
 * position inside the search) scores 0. */
#define CHK_MAX_PLY       128
#define CHK_SCORE_WIN     30000
#define CHK_SCORE_MATE_MIN (CHK_SCORE_WIN - 2 * CHK_MAX_PLY) /* |score| >= this: a forced result */

/* The evaluation is linear: sum of weight[i] * feature[i], each feature
 * counted for the side to move minus the other side. Names (chk_weight_name)
 * are the lower-case enum names: "pawn", "king", ..., "tempo", ..., "edge". */
enum {
    CHK_W_PAWN, CHK_W_KING, CHK_W_BISHOP, CHK_W_CAMEL,
    CHK_W_EXTRA,          /* any kind added by a rule experiment */
    CHK_W_LONE_KING,      /* 1 when a side has exactly one king left */
    CHK_W_ADVANCE,        /* pawn ranks advanced from the side's own first rank, summed */
    CHK_W_PAWN_NEAR,      /* pawns one step from promotion */
    CHK_W_MOBILITY,       /* pseudo-legal steps, slides and leaps (captures included) */
    CHK_W_KING_ATTACKED,  /* kings the other side could capture if it were to move */
    CHK_W_ATTACKED,       /* other pieces the other side could capture if it were to move */
    CHK_W_KING_GUARD,     /* own pieces diagonally next to an own king */
    CHK_W_BACK_RANK,      /* own pieces on the own first rank (they block promotion) */
    CHK_W_CENTER,         /* pieces on the 8 dark squares of c3-f6 */
    CHK_W_TEMPO,          /* 1 for the side to move */
    CHK_W_FREE_PAWN,      /* pawns no enemy pawn or king can meet: none in the forward cone */
    CHK_W_FREE_ADVANCE,   /* ranks the free pawns have advanced, summed */
    CHK_W_CHESS_MOBILITY, /* the part of mobility that is bishop, camel (chess piece) moves */
    CHK_W_KING_TRAPPED,   /* kings with no empty square diagonally next to them */
    CHK_W_KING_DANGER,    /* enemy pieces within two diagonal steps of an own king */
    CHK_W_ADVANCE_END,    /* advance * pieces gone from the board (of 26) / 8 */
    CHK_W_TRADE,          /* material lead (pawn 2, king 3, bishop 11, camel 7, other 5 half-pawns) * pieces gone / 16 */
    CHK_W_BACKED,         /* pawns whose two squares diagonally behind are not empty */
    CHK_W_EDGE,           /* pieces on the a- and h-files */
    CHK_NWEIGHTS
};

typedef struct chk_weights {
    int w[CHK_NWEIGHTS];
} chk_weights;

void chk_weights_default(chk_weights *w);
/* Name of weight i ("pawn"), or NULL when out of range. */
const char *chk_weight_name(int i);
/* Index of a weight by name, or -1. */
int chk_weight_index(const char *name);
/* The features of the position (side to move minus other side). */
void chk_eval_features(const chk_pos *p, int f[CHK_NWEIGHTS]);
/* Static evaluation for the side to move (no search, no game-end check),
 * clamped inside (-CHK_SCORE_MATE_MIN, CHK_SCORE_MATE_MIN). */
int chk_eval(const chk_pos *p, const chk_weights *w);
/* Static move-ordering scores of list[0..n), moves of p, into sc (higher:
 * try first): captures (more pieces, then more value by w, cheaper mover),
 * then promotions, then quiet moves (0). The search's ordering without its
 * hash move, killers and history. */
void chk_order_scores(const chk_pos *p, const chk_weights *w, const chk_move *list, int n, int *sc);
/* The material move m wins by the weights w: the pieces it captures, and a
 * promotion's new kind less the piece promoted (the search's delta pruning). */
int chk_move_gain(const chk_pos *p, const chk_weights *w, const chk_move *m);

/* An evaluation supplied by the caller (e.g. written in Lua): store the
 * score for the side to move in *score and return 0, or return -1 on error.
 * It must leave the position as it found it; when it does not, the search
 * takes back the moves it played (or makes again those it took back) and
 * stops with CHK_SEARCH_EVAL_ERROR. */
typedef int (*chk_eval_fn)(void *ud, chk_pos *pos, int *score);

/* One completed iteration (or the final answer). pv[0] is the best move;
 * npv is 0 only when the root has no legal move (the game is over). */
typedef struct chk_search_info {
    int depth;              /* last completed iteration */
    int seldepth;           /* deepest ply reached, quiescence included */
    int score;
    int64_t nodes;          /* positions visited (root, interior and quiescence) */
    double seconds;
    int npv;
    chk_move pv[CHK_MAX_PLY];
    /* partial: a report from inside the iteration depth (opts.info_every):
     * pv is the best line of that iteration so far (score its score), or
     * the last completed iteration's when no root move is done yet. root:
     * the searched position's board as it was at the start (its history
     * must not be played on; copy it first). tb: the root was answered by
     * the tablebases (opts.tb): pv is a best line by the tables. */
    bool partial;
    bool tb;
    const chk_pos *root;
} chk_search_info;

/* Called after each completed iteration (and, with opts.info_every, from
 * inside one: info->partial); a non-zero return aborts the search
 * (chk_search_run then returns CHK_ABORTED). */
typedef int (*chk_info_fn)(void *ud, const chk_search_info *info);

struct chk_tb;                          /* cheskers_tb.h */

/* The search features that stay switchable, each declared here once as
 * X(name, what): chk_search_opts has a field of each (0: the default, on;
 * 1 on; -1 off), and the binding (b:search's options, cheskers.engine.
 * switches), the engine bot (engine:NAME=false), the bench (search_bench
 * compare NAME) and the tests read this list. They ship, on by default;
 * they are switches only so that a match can measure them again
 * (scripts/tools/weights_sprt.sh plays the old engine without them). The
 * rejected tries are not in the code: docs/guide/engine.md names the commit that
 * holds each. */
#define CHK_SEARCH_SWITCHES(X) \
    X(rfp, "reverse futility pruning") \
    X(aspiration, "aspiration windows at the root") \
    X(fp, "futility pruning of quiet moves") \
    X(delta, "delta pruning in the quiescence search")
/* The search's margins, X(name, what): a field of chk_search_opts each,
 * > 0 sets it (in the evaluation's units a ply of depth), 0: the default
 * (docs/guide/engine.md). */
#define CHK_SEARCH_MARGINS(X) \
    X(rfp_margin, "the margin a ply of reverse futility pruning") \
    X(fp_margin, "the margin a ply of futility pruning")

typedef struct chk_search_opts {
    int depth;                          /* maximum depth, 0: CHK_MAX_PLY - 1 */
    int64_t nodes;                      /* node budget, 0: none */
    double seconds;                     /* time budget, 0: none */
    chk_stop *stop;                     /* NULL: none; polled every 1024 nodes */
    const chk_weights *weights;         /* NULL: chk_weights_default */
    chk_eval_fn eval;                   /* NULL: chk_eval with weights */
    void *eval_ud;
    chk_info_fn info;                   /* NULL: none */
    void *info_ud;
    /* Search options added for tablebases and progress (search.c): */
    struct chk_tb *tb;                  /* NULL: none; else tables opened for the
                                           searched position's rules (cheskers_tb.h):
                                           covered positions score exactly, a
                                           covered root is answered by the tables */
    double info_every;                  /* > 0: also call info about every this many
                                           seconds inside an iteration (partial) */
    /* The search's switches and margins, declared once (the lists above) */
#define CHK__SEARCH_SWITCH_FIELD(name, what) signed char name;
    CHK_SEARCH_SWITCHES(CHK__SEARCH_SWITCH_FIELD)
#undef CHK__SEARCH_SWITCH_FIELD
#define CHK__SEARCH_MARGIN_FIELD(name, what) int name;
    CHK_SEARCH_MARGINS(CHK__SEARCH_MARGIN_FIELD)
#undef CHK__SEARCH_MARGIN_FIELD
    int keep;                           /* nonzero: the context's transposition table
                                           and history from its earlier searches are
                                           kept (a game's searches build on each
                                           other), unless the rules or the weights
                                           differ from the last run's or eval is
                                           set (hooks compare by filter, result
                                           and hook_ud: a caller whose hook_ud
                                           may come back with other hooks calls
                                           chk_search_forget); 0: this run starts
                                           from empty tables */
} chk_search_opts;

/* The largest margin of chk_search_opts (rfp_margin, fp_margin): a margin
 * times a depth plus any score stays far inside an int. */
#define CHK_SEARCH_MAX_MARGIN 100000

/* chk_search_run returns a chk_status: CHK_OK (finished by its limits:
 * depth, nodes, seconds), CHK_STOPPED or CHK_TIMEOUT (the stop condition
 * failed; *out has the best so far), CHK_HOOK_ERROR, CHK_EVAL_ERROR (the eval
 * callback failed), CHK_ABORTED (the info callback asked to stop),
 * CHK_NO_MEMORY, or CHK_BAD_OPTION before anything is done for an option
 * out of its range: depth from 0 to CHK_MAX_PLY - 1, nodes >= 0, seconds
 * and info_every from 0 to 1e9 (not NaN), the margins from 0 to
 * CHK_SEARCH_MAX_MARGIN. Unless opts.keep, each run starts from an empty
 * transposition table and empty killer/history tables (the context only
 * saves the allocation), so with a depth or node limit (and no time limit or
 * stop) the result depends only on the position (history included) and the
 * options; with opts.keep it depends on the context's earlier runs too
 * (chk_search_clear forgets them). */

/* A search context: the transposition table, the move stack, killer and
 * history tables, all allocated here once. hash_bytes 0: 16 MiB. NULL when
 * out of memory. chk_search_new_alloc takes them from alloc (NULL: the C
 * library), which must outlive the context; chk_search_free gives them
 * back there. */
typedef struct chk_search chk_search;
chk_search *chk_search_new(size_t hash_bytes);
chk_search *chk_search_new_alloc(size_t hash_bytes, const chk_alloc *alloc);
void chk_search_free(chk_search *s);
/* Zeroes the tables (never needed for correctness). */
void chk_search_clear(chk_search *s);
/* Forgets the earlier runs, as chk_search_clear but cheaply: the table's
 * entries are marked old (a new age), not zeroed. */
void chk_search_forget(chk_search *s);
/* Iterative deepening from p. The position is always restored, whatever
 * the outcome. *out holds the last completed iteration (or, when none
 * completed, the best move found so far). One run at a time per context:
 * a callback that searches again needs a context of its own. */
int chk_search_run(chk_search *s, chk_pos *p, const chk_search_opts *o, chk_search_info *out);


/* ---- solver (puzzles): declarations added by core/solve.c's author ---- */

/* The forced-win solver (solve.c). The question is always: does the side
 * to move (the attacker) win - all enemy kings captured or the enemy
 * stalemated, as chk_result decides - within n of its own moves whatever
 * the defender plays? A win in 1 is a move that ends the game won.
 *
 * A solver context owns a transposition table (about tt_bytes; 0 gives
 * 16 MiB) and its move stacks, allocated once; one context serves one
 * search at a time. The table is dropped by itself when the rules differ
 * from the last search's, and not used under rules whose results depend on
 * the path (draw_repetition, hooks). Every call restores the position. The
 * calls check stop (may be NULL) and return CHK_STOPPED or CHK_TIMEOUT when
 * it fails; CHK_NODE_LIMIT when a call visited more nodes than the budget
 * set by chk_solver_limit; CHK_HOOK_ERROR when a rule hook failed (returned
 * -1); CHK_NO_MEMORY when the position's history could not grow. n is capped
 * at CHK_SOLVE_MAX_MOVES. */
#define CHK_SOLVE_MAX_MOVES 15
/* With tablebases (chk_solver_tables) n may go up to this: a position a
 * table covers is answered by it, so a long win into table positions is
 * solved exactly. */
#define CHK_SOLVE_MAX_MOVES_TB 64

typedef struct chk_solver chk_solver;

chk_solver *chk_solver_new(size_t tt_bytes);     /* NULL when out of memory */
void chk_solver_free(chk_solver *s);
void chk_solver_clear(chk_solver *s);            /* forget every position */
uint64_t chk_solver_nodes(const chk_solver *s);  /* nodes since new or clear */
/* A budget of nodes for each following call (0: none, the default). */
void chk_solver_limit(chk_solver *s, uint64_t max_nodes);

/* Tablebases for the following calls (NULL: none, the default): tables
 * opened for the rules of the positions solved (cheskers_tb.h). They are
 * not used under draw_repetition or draw_quiet_plies (the tables ignore
 * those rules). With them, n is capped at CHK_SOLVE_MAX_MOVES_TB. */
void chk_solver_tables(chk_solver *s, struct chk_tb *tb);

/* The shortest forced win of the side to move within n: 1..n, or 0 when
 * there is none (or the game is over). best (may be NULL) receives the first
 * move of a shortest win. */
int chk_solve(chk_solver *s, chk_pos *p, int n, chk_move *best,
              chk_stop *stop);
/* Every first move that wins within n: moves[i] (room for CHK_MAX_MOVES)
 * with lens[i] its shortest win, in move generation order. Returns how many. */
int chk_solve_moves(chk_solver *s, chk_pos *p, int n, chk_move *moves, int *lens,
                    chk_stop *stop);
/* The side to move defends against the other side, which has n moves left.
 * Returns n + 1 when a reply holds (no win within n; *defence is such a
 * reply, the refutation), else the attacker's shortest win against the best
 * defence, 1..n (*defence puts it furthest off), or 0 when the game is
 * already won by the attacker (defence->npath = 0 when there is no reply). */
int chk_solve_defend(chk_solver *s, chk_pos *p, int n, chk_move *defence,
                     chk_stop *stop);
/* Does m, a legal move of the side to move, win within n? Returns the
 * shortest win that starts with m, 1..n, or n + 1 when it does not:
 * *defence is then the reply that refutes it (defence->npath = 0 when m
 * itself ends the game without winning it). With n = 1 any reply after a
 * move that does not end the game "refutes" it. */
int chk_solve_refute(chk_solver *s, chk_pos *p, const chk_move *m, int n, chk_move *defence,
                     chk_stop *stop);

#endif
