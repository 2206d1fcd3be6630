/*
 * lbind.h - what every file of the Lua binding shares, and nothing else:
 * the userdata type names, the shared types (State, Rules, Board, Move,
 * HookCtx, CoreCall), the type and argument checks, the core-call bracket,
 * options checking, stop conditions and errors. Implemented by a file per
 * concern: lbind.c (the State, types, checks, boards and move objects),
 * lhook.c (rule hooks, the core-call bracket), lopt.c (option tables),
 * lstop.c (interrupt, deadline, failed core calls); the hot checks are
 * inline here. Binding files include this header and call downward only
 * (tests/tools/layers_test.sh checks it):
 *
 *   lerror.c <- lbind.c (the base) <- lhook.c, lopt.c, lstop.c <-
 *   lrules.c, lperft.c, lsys.c,
 *   lsandbox.c <- lmove.c <- lboard.c, ltb.c <- lsolve.c, lengine.c <-
 *   lcheskers.c (module registration, luaopen_cheskers_core)
 *
 * lerror.h declares lerror.c's error values and their codes; lcheskers.h,
 * the public interface (lcheskers.c's entry points, for the program and
 * the fuzz targets), is included by no binding file but lcheskers.c.
 * Internal names start with lb_.
 */
#ifndef LBIND_H
#define LBIND_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lua.h"
#include "lauxlib.h"

#include "cheskers.h"
#include "lerror.h"

#define BOARD_MT "cheskers.board"
#define MOVE_MT  "cheskers.move"
#define RULES_MT "cheskers.rules"

#define MAX_TEXT        256     /* longest position or move text accepted */
#define MAX_HOOK_DEPTH  16      /* hooks running inside hooks, at most */
#define MOVE_TEXT_SIZE  (3 * CHK_MAX_PATH + 16)
#define FEN_SIZE        256
#define ERR_SIZE        512

/* ---- types -------------------------------------------------------------- */

/* One per Lua state, kept in the registry and as upvalue 1 of the binding's
 * functions. */
typedef struct State {
    uint64_t last_stamp;    /* stamps are unique within the Lua state */
    int hook_depth;         /* hooks running, nested */
    const void *board_mt;   /* lua_topointer of the board and move metatables */
    const void *move_mt;
    double deadline;        /* cheskers.deadline: a chk_clock() time, 0: none */
    lua_Integer last_rules_id;  /* the id of the last rule set made (Rules.id) */
    double cpu_deadline;    /* its CPU deadline: a chk_cpu_clock() time, 0: none */
    double box_deadline;    /* the deadlines of the sandbox's budget running
                               (lsandbox.c), nested runs the earliest: a
                               chk_clock() time, 0: none */
    double box_cpu_deadline;    /* a chk_cpu_clock() time, 0: none */
    lua_State *main;        /* the main thread: its allocator is the state's */
    chk_alloc alloc;        /* the C memory kept for Lua code (boards' histories
                               and plies, nested search contexts): the Lua
                               state's allocator at the time of each call, so
                               that a sandbox's memory cap counts it */
    size_t gc_debt;         /* bytes alloc gave since the collector was told
                               (lb_settle_gc) */
} State;

enum { HOOK_OK, HOOK_ERROR, HOOK_STACK, HOOK_DEPTH };

/* Where the hooks of a rule set run. Set around each core call that may call
 * them (lb_core_begin/lb_core_end), saved and restored so that calls nest. */
typedef struct HookCtx {
    lua_State *L;   /* the state running the core call; NULL outside one */
    int idx;        /* in L: the Rules userdata; idx + 1: error slot, idx + 2: reason slot */
    int top;        /* lua_gettop(L) during the core call (idx + 2) */
    int failed;     /* HOOK_*: a hook failed (HOOK_ERROR: its error value is in the error slot) */
    State *st;
} HookCtx;

/* cheskers.rules: a chk_rules plus the context its hooks run in; uservalue 1
 * is a table {filter =, result =, start =}. Never handed to Lua code;
 * boards keep it alive. Interned (lrules.c): every board of a Lua state
 * whose rules have the same content, start position and hook functions
 * uses the same one, and nothing changes it once made but ctx (where its
 * hooks run during a core call, saved and restored around each). */
#define HOOK_ERROR_SIZE 320

typedef struct Rules {
    chk_rules r;    /* first member: a board's pos.rules points here */
    HookCtx ctx;
    lua_Integer id; /* b:rules_id(): unique within the Lua state */
    lua_Integer hook_failures;  /* the times a hook raised when the core called
                                   it (budget.hook_failures) */
    char hook_error[HOOK_ERROR_SIZE];   /* the last one's message, one line */
} Rules;

struct Move;

/* What a board knows of the position after i moves of its history. */
typedef struct Ply {
    uint64_t stamp;             /* 0: none given yet */
    const struct Move *played;  /* the move object of history entry i (the
                                   move made from here) as it was played,
                                   NULL when none; only compared */
} Ply;

/* Uservalues of the boards made by cheskers.new and b:copy that keep the
 * move objects of the last plies played, history entry i in uservalue
 * 3 + i % PLY_SLOTS (lb_ply_slot): one API call sets or reads one, a table
 * entry takes two or three, and b:play and b:undo run millions of times in
 * a perft or a search written in Lua. The boards given to hooks have none. */
#define PLY_SLOTS 16
#define NO_PLY    SIZE_MAX

/* cheskers.board: a chk_pos (owning its history); uservalue 1 is its Rules
 * userdata (shared by copies); the move objects played are kept in
 * uservalues 3 .. PLY_SLOTS + 2 for the last plies, the older ones in the
 * table of uservalue 2. */
typedef struct Board {
    chk_pos pos;
    Ply *plies;         /* plies[i]: the position after i moves of history */
    size_t nplies;      /* allocated; always > pos.nhist while the board is idle */
    int nslots;         /* PLY_SLOTS or 0 */
    size_t slot_ply[PLY_SLOTS]; /* the history entry whose move object is in
                                   each slot, NO_PLY for none; an entry the
                                   history still has when it is below
                                   pos.nhist, else a move taken back */
    bool busy;          /* core work or a callback runs on it */
    bool closed;        /* no position (freed, or not made yet) */
} Board;

/* cheskers.move: a chk_move with its piece letters. stamp (when not 0) is
 * the stamp of the board position it was listed in as legal: such a move is
 * played without generating moves again. Its text is made when asked for. */
typedef struct Move {
    chk_move m;
    uint64_t stamp;
    char piece, promo;      /* letters; promo 0 for none */
    uint16_t index;         /* 1-based place in b:moves() order; 0: unknown */
} Move;


/* A core call that may run hooks. */
typedef struct CoreCall {
    Rules *rules;       /* NULL: no hooks */
    HookCtx saved;
    bool saved_busy;
    int idx;            /* as HookCtx.idx */
} CoreCall;

/* The upvalues of every function registered with lb_setfuncs. Code that
 * runs without them (hooks, lsolve.c, lengine.c) passes up = false and the
 * registry is used instead. */
#define getstate(L) ((State *)lua_touserdata(L, lua_upvalueindex(1)))
#define UV_BOARD_MT lua_upvalueindex(2)
#define UV_MOVE_MT  lua_upvalueindex(3)
#define rules_of(b) ((Rules *)(b)->pos.rules)

/* ---- type checks (the hot ones inline) ---------------------------------- */

/* [-0, +(0|1)] The userdata at arg when the address of its metatable is mt
 * (a State's board_mt or move_mt), else NULL. When it is one, leaves its
 * metatable pushed, which the caller pops, or leaves below its results: the
 * hot paths save that call. Three API calls, no registry lookup. A light
 * userdata passes only when the metatable of all light userdata is mt,
 * which debug.setmetatable alone can do: like luaL_testudata, this guards
 * against mistakes, not against the debug library. */
static inline void *lb_test_type(lua_State *L, int arg, const void *mt)
{
    void *p = lua_touserdata(L, arg);   /* NULL unless a (full or light) userdata */
    if (p == NULL || !lua_getmetatable(L, arg))
        return NULL;
    if (lua_topointer(L, -1) != mt) {
        lua_pop(L, 1);      /* arg (maybe relative) is valid again */
        return NULL;
    }
    return p;
}

/* The userdata at arg of the board (or move) type, through the State (up)
 * or the registry; else NULL. [-0, +0] */
void *lb_test_udata(lua_State *L, int arg, bool up, bool board);
#define lb_testmove(L, arg, up) ((Move *)lb_test_udata(L, arg, up, false))
#define lb_testboard(L, arg, up) ((Board *)lb_test_udata(L, arg, up, true))

/* Raises why b (the board at arg, or NULL when that is no board) cannot be
 * used: no board, closed (code "bad_argument") or busy (code "busy"). */
Board *lb_unusable_board(lua_State *L, int arg, const Board *b);
/* b, the board at arg or NULL when that is no board, when it is open. idle:
 * also require that no core work runs on it (code "busy" otherwise). Inline:
 * the hot methods call it. */
static inline Board *lb_usable_board(lua_State *L, int arg, Board *b, bool idle)
{
    if (b == NULL || b->closed || (idle && b->busy))
        return lb_unusable_board(L, arg, b);
    return b;
}
/* The open board at arg (see lb_usable_board). */
Board *lb_check_board(lua_State *L, int arg, bool idle, bool up);
#define lb_checkboard(L) lb_check_board(L, 1, false, true)
/* The position of the idle open board at arg, for code without upvalues. */
#define lb_checkpos(L, arg) (&lb_check_board(L, arg, true, false)->pos)
#define lb_checkidle(L)  lb_check_board(L, 1, true, true)
/* [-0, +1] lb_checkidle with the State st at hand, for the hot methods:
 * leaves the board's metatable on the stack; raises when it is no board. */
#define lb_checkidle_st(L, st) \
    lb_usable_board(L, 1, (Board *)lb_test_type(L, 1, (st)->board_mt), true)

/* The State of L, through the registry (code without upvalues). */
State *lb_state(lua_State *L);
/* [-0, +1] Pushes the State of L, made on first use (luaopen). */
void lb_push_state(lua_State *L);
/* luaL_setfuncs with the three upvalues (State, board and move metatables)
 * onto the table on top of the stack. */
void lb_setfuncs(lua_State *L, const luaL_Reg *l);
/* [-0, +1] Pushes the methods table of boards (the board metatable's __index). */
void lb_push_board_methods(lua_State *L);

/* ---- small helpers ------------------------------------------------------ */

/* [-0, +1] Pushes s (len bytes) quoted and cut short for an error message;
 * returns it. */
const char *lb_push_clipped(lua_State *L, const char *s, size_t len);
/* [-0, +1] Pushes the value at idx as messages echo it ("'maybe'", "2.5",
 * "a table"); returns it. */
const char *lb_push_value_text(lua_State *L, int idx);
static inline char lb_kind_letter(const chk_rules *r, int kind)
{
    return (kind >= 0 && kind < r->nkinds) ? r->kinds[kind].letter : '?';
}
/* A piece's letter (lower case for Black), 0 for CHK_NONE. */
char lb_piece_letter(const chk_rules *r, uint8_t pc);
void lb_push_square(lua_State *L, int sq);
/* A square name argument: its index, or raises naming it. */
int lb_check_square(lua_State *L, int arg);
/* [-0, +1] t[name] without metamethods. Returns its type. */
int lb_rawgetfield(lua_State *L, int t, const char *name);

/* ---- errors, options, stopping ------------------------------------------ */

/* Raises (code "bad_option") when the table at t has a key that is not a
 * string or not one of names (NULL-terminated): the first such in byte
 * order, with "did you mean" the closest name when one is close. The message
 * is "<prefix>unknown <what> 'key' ...". */
void lb_check_options(lua_State *L, int t, const char *prefix, const char *what,
                      const char *const names[]);
/* The one reader of the numbers of an option table (the C side of
 * cheskers.numbers, docs/reference/security.md "Numbers"): field name of the table at
 * t, def when nil. lb_opt_integer takes a whole number from lo to hi (a
 * float such as 2.0 or 1e300 is refused, nothing is cut to an int);
 * lb_opt_number a number above lo (open) and at most hi, so never NaN or
 * infinite. Else raises (code "bad_argument") "<prefix>name must be a whole
 * number from LO to HI, not VALUE" (or "a number > LO and <= HI"). */
lua_Integer lb_opt_integer(lua_State *L, int t, const char *name, lua_Integer lo, lua_Integer hi,
                           lua_Integer def, const char *prefix);
double lb_opt_number(lua_State *L, int t, const char *name, double lo, double hi, double def,
                     const char *prefix);
/* cheskers.closest(word, names) -> the closest name when word is a likely
 * typo of it, else nil (the suggestion rule of lb_check_options). */
int lb_closest(lua_State *L);
/* cheskers.did_you_mean(word, names) -> " (did you mean 'x'?)" or "": the
 * one wording of a suggestion, for every Lua message. */
int lb_did_you_mean(lua_State *L);

/* The flag that long core work (perft, divide, search, solve, a tablebase
 * build) polls: cheskers.interrupt() and the program's SIGINT handler
 * (through lcheskers_interrupt_flag) set it to 1; the running call then
 * stops, restores the board and raises the error value "interrupted".
 * Cleared when such a call starts. */
volatile sig_atomic_t *lb_interrupt_flag(void);
/* cheskers.deadline([seconds [, cpu_seconds]]) (also cheskers.engine.deadline). */
int lb_deadline(lua_State *L);
/* The stop condition of a long core call starting now: the interrupt flag
 * (cleared) and the earlier deadlines (wall clock and CPU) of
 * cheskers.deadline and of the sandbox's budget running (State.box_*). */
chk_stop lb_stop(lua_State *L);
/* Raises the error value of a failed core call's status (negative chk_status):
 * "interrupted", "timeout", "hook", "no_memory", "node_limit". who prefixes
 * messages that need it ("solve"), may be NULL. */
int lb_status_error(lua_State *L, int status, const char *who);
/* [-0, +1] The same error value, pushed. */
void lb_push_status_error(lua_State *L, int status, const char *who);

/* ---- boards and moves (made here: hooks need them too) ------------------ */

/* [-0, +0] Tells the collector of the C memory st->alloc gave since it was
 * last told, once that is worth a step (a board copy's history, say): the
 * collector sees only Lua's own allocations, so without this the garbage
 * of boards with long histories would pile up between its cycles. May run
 * finalizers, as any allocation does. */
void lb_settle_gc(lua_State *L, State *st);
/* The state's allocator, as a board's (b->pos.alloc). */
#define lb_alloc(st) (&(st)->alloc)

/* Makes room for plies[0 .. n-1]; new entries are zero. False when out of
 * memory. lb_grow_plies does the allocation (from the board's allocator,
 * b->pos.alloc, as its history), out of the hot path. */
bool lb_grow_plies(Board *b, size_t n);
static inline bool lb_reserve_plies(Board *b, size_t n)
{
    return n <= b->nplies || lb_grow_plies(b, n);
}
/* The stamp of the current position (given one on first use). */
static inline uint64_t lb_board_stamp(Board *b, State *st)
{
    uint64_t *s = &b->plies[b->pos.nhist].stamp;
    if (*s == 0)
        *s = ++st->last_stamp;
    return *s;
}
/* The uservalue that may keep the move object of history entry i of b
 * (when b->slot_ply says so), 0 when b has none. */
static inline int lb_ply_slot(const Board *b, size_t i)
{
    return b->nslots ? (int)(i % PLY_SLOTS) + 3 : 0;
}
/* Forgets what the slots keep. */
void lb_clear_slots(Board *b);
/* [-0, +1] A new closed board using the Rules at ridx, its plies allocated
 * for a position with nhist moves; nslots: 0 or PLY_SLOTS. Its allocator
 * (b->pos.alloc) is the state's. */
Board *lb_new_board(lua_State *L, int ridx, size_t nhist, bool up, int nslots);
/* Makes b's position empty under r (chk_pos_init) or the start position
 * (start: chk_pos_start), keeping b's allocator. */
void lb_init_pos(Board *b, const chk_rules *r, bool start);
/* Frees what the board holds (its history and plies) and closes it. */
void lb_free_board(Board *b);
/* [-0, +1] A new board, a copy of src, using the Rules at ridx. up: one for
 * Lua code (b:copy), else for a hook. */
Board *lb_push_board_copy(lua_State *L, const chk_pos *src, int ridx, bool up);

/* [-0, +1] A new move object, its fields not set (lb_set_move does). */
Move *lb_new_move(lua_State *L, bool up);
/* Fills mv with m, a move in position p (the position before it is made). */
static inline void lb_set_move(Move *mv, const chk_pos *p, const chk_move *m, uint64_t stamp)
{
    const chk_rules *r = p->rules;
    mv->m = *m;
    mv->stamp = stamp;
    mv->piece = lb_kind_letter(r, m->kind);
    mv->promo = m->promo == CHK_NONE ? 0 : lb_kind_letter(r, m->promo);
    mv->index = 0;
}
/* [-0, +1] A new move object of m in p. */
Move *lb_push_move(lua_State *L, const chk_pos *p, const chk_move *m, uint64_t stamp, bool up);
/* [-0, +1] The array of the move objects of list[order[0..n-1]], moves of p
 * listed as legal in the position of stamp; index[order[i]] is each one's
 * place in b:moves() order (index NULL: i + 1). mt: the stack index of the
 * move metatable (the callers have it at hand: b:moves() is a hot path). */
void lb_push_move_list(lua_State *L, int mt, const chk_pos *p, const chk_move *list,
                       const int *order, const int *index, int n, uint64_t stamp);
/* The text of a move object into buf (MOVE_TEXT_SIZE bytes). */
const char *lb_move_text(const Move *mv, char *buf);

/* ---- core calls that may run Lua code ----------------------------------- */

/* [-0, +(0|3)] Prepares a core call on board b (at stack index bidx) that
 * may run hooks: pushes the Rules userdata and two slots, points the rules'
 * hook context at them and marks the board busy. No-op when the rules have
 * no hooks. Raises only before anything is changed. */
void lb_core_begin(lua_State *L, int bidx, Board *b, CoreCall *cc);
/* Ends a core call: restores the hook context and the busy flag. Returns
 * HOOK_OK or how a hook failed. The slots stay on the stack. */
int lb_core_end(Board *b, CoreCall *cc);
/* Raises the error of a failed hook (after lb_core_end); code "hook" unless
 * the hook raised an error value of its own. */
int lb_hook_error(lua_State *L, const CoreCall *cc, int failed);
/* The chk_filter_fn and chk_result_fn of rules with Lua hooks (lrules.c
 * sets them). */
int lb_filter_hook(void *ud, const chk_pos *pos, const chk_move *m);
int lb_result_hook(void *ud, const chk_pos *pos, int *winner);

/* The bracket for whole calls (lsolve.c, lengine.c): begin raises "board is
 * busy" when it is; else it marks the board at arg busy (so callbacks
 * cannot change it), lets its rules' hooks run, and returns the stack index
 * of the first of the values it pushes. Between the two calls the stack
 * above them must be as begin left it whenever the core runs. end (after
 * the core has returned and restored the board) pops them, marks the board
 * idle and raises the error of a failed hook, if any. */
int lb_call_begin(lua_State *L, int arg);
void lb_call_end(lua_State *L, int arg, int slot);

/* ---- lmove.c ------------------------------------------------------------ */

/* Reads the move at arg, a move object or a move text, as a legal move of p
 * into *out; raises (code "illegal_move") for an illegal or ambiguous move.
 * b (at stack index bidx) is the board of p, or NULL (then hooks cannot
 * run). Returns true when arg is a move object listed as legal in this very
 * position of b. up: the metatables are upvalues. */
bool lb_check_move(lua_State *L, int arg, chk_pos *p, Board *b, int bidx, chk_move *out, bool up);
/* As lb_check_move for a board found on the stack (lsolve.c, lengine.c). */
void lb_check_move_of(lua_State *L, int arg, chk_pos *p, chk_move *out);
/* Reads the move text at arg: NULL (with a message pushed) when it cannot
 * name a move. */
const char *lb_move_text_arg(lua_State *L, int arg);
/* order[i] becomes the index in list of the i-th move by text (b:moves
 * lists moves sorted by the texts tostring gives). */
void lb_sort_moves(lua_State *L, const chk_rules *r, const chk_move *list, int n, int *order);
/* The 1-based place of m among the n moves of list in b:moves() order, 0
 * when it is not there. */
int lb_move_place(lua_State *L, const chk_rules *r, const chk_move *list, int n, const chk_move *m);
/* An integer naming m among the moves of any position (m.key): equal for
 * moves chk_move_equal finds equal, different otherwise. */
lua_Integer lb_move_key(const chk_move *m);
void lb_open_move(lua_State *L);

/* ---- lrules.c ----------------------------------------------------------- */

/* [-0, +1] The Rules userdata of the rules spec at arg: nil (or none), a
 * preset name, or a table. The one rule set of that content (made when no
 * board or copy has it). */
Rules *lb_push_rules(lua_State *L, int arg, State *st);
/* [-0, +1] The rule set of the Rules userdata at ridx as a table of every
 * option, which read back gives the same rule set. */
void lb_push_rules_table(lua_State *L, int ridx);
/* With the module on top: adds cheskers.rules. */
void lb_open_rules(lua_State *L);

/* ---- the other files: each adds its functions (module on top) ----------- */

void lb_open_board(lua_State *L);     /* lboard.c: cheskers.new, board methods */
void lb_open_perft(lua_State *L);     /* lperft.c: b:perft, b:divide */
void lb_open_solve(lua_State *L);     /* lsolve.c: b:solve, b:defend, b:refute */
void lb_open_engine(lua_State *L);    /* lengine.c: b:search, b:eval, cheskers.engine */
void lb_open_tb(lua_State *L);        /* ltb.c: cheskers.tb, b:probe, b:tb_moves */
void lb_open_sys(lua_State *L);       /* lsys.c: cheskers.clock, fsync, isatty, read_file, ... */
/* lsandbox.c: the module cheskers.budget (lcheskers.c preloads it). */
int luaopen_cheskers_budget(lua_State *L);
/* ltb.c: the tables object at arg opened for rules r (for a search or the
 * solver), or NULL with a message when r has none; raises when arg is not
 * a tables object. The object at arg keeps the result alive. */
struct chk_tb *lb_check_tables(lua_State *L, int arg, const chk_rules *r, char *err, size_t errlen);

#endif
