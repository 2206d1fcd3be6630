/*
 * solve.c - the exact forced-win solver used for puzzles.
 *
 * The question: does the side to move (the attacker) win - all enemy kings
 * captured or the enemy stalemated, as chk_result decides - within n of its
 * own moves, whatever the other side (the defender) plays?
 *
 * Depth-first proof search: an attacker node is an OR node (one winning
 * move is enough), a defender node an AND node (every reply must lose).
 * Iterative deepening on n at the root; a transposition table remembers for
 * attacker-to-move positions the smallest n known to win and the largest n
 * known not to (wins within n are monotone in n). Attacker moves are tried
 * in the order of the defender's fewest replies, defender replies in the
 * order of the attacker's fewest moves after them (the ones the table
 * knows to hold first).
 *
 * Everything is allocated once per solver context (the table and a move
 * list per ply); the search itself allocates nothing (chk_make's history
 * grows once, on the first deep line). Every exit path restores the
 * position. A hook returning -1 gives CHK_HOOK_ERROR; the stop condition
 * CHK_STOPPED or CHK_TIMEOUT, the node budget CHK_NODE_LIMIT.
 *
 * With tablebases (chk_solver_tables) a node whose position a table covers
 * is answered by it: a win in d plies for the side to move is a win in
 * (d + 1) / 2 of its own moves, a loss in d plies the attacker's win in
 * d / 2 (the tables' distances are the same minimax: the winner fastest,
 * the loser slowest). Then n may reach CHK_SOLVE_MAX_MOVES_TB.
 */
#include <stdlib.h>
#include <string.h>

#include "cheskers_tb.h"
#include "internal.h"

#define MAX_PLY        (2 * CHK_SOLVE_MAX_MOVES_TB + 2)
#define NO_BEST        0xFFFF

typedef struct tt_entry {
    uint64_t key;
    uint8_t win;        /* wins within win own moves (0: not known) */
    uint8_t nowin;      /* no win within nowin own moves (0: not known) */
    uint16_t best;      /* index of a winning move in the generated list */
    uint32_t pad;
} tt_entry;

struct chk_solver {
    tt_entry *tt;
    size_t mask;                    /* entries - 1 (a power of two) */
    chk_move *lists;                /* MAX_PLY lists of CHK_MAX_MOVES moves */
    int32_t *scores;                /* MAX_PLY x CHK_MAX_MOVES */
    uint16_t *order;                /* MAX_PLY x CHK_MAX_MOVES */
    uint64_t nodes;
    uint64_t max_nodes;             /* per call, 0: no limit */
    uint64_t node_limit;            /* nodes count at which this call gives up */
    uint64_t rules_print;           /* fingerprint of the rules the table holds */
    bool have_print;
    bool use_tt;                    /* off for history-dependent rules */
    int quiet_limit;                /* draw_quiet_plies when it is on */
    chk_stop *stop;
    chk_tb *tables;                 /* chk_solver_tables */
    chk_tb *tb;                     /* the tables of this call: NULL when unusable */
    int tb_pieces;                  /* probe positions with at most this many pieces */
};

/* ---- context ------------------------------------------------------------ */

chk_solver *chk_solver_new(size_t tt_bytes)
{
    chk_solver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t n;
    s->tt = chk__table_alloc(NULL, tt_bytes, sizeof *s->tt, &n);
    s->mask = n - 1;
    s->lists = malloc((size_t)MAX_PLY * CHK_MAX_MOVES * sizeof *s->lists);
    s->scores = malloc((size_t)MAX_PLY * CHK_MAX_MOVES * sizeof *s->scores);
    s->order = malloc((size_t)MAX_PLY * CHK_MAX_MOVES * sizeof *s->order);
    if (!s->tt || !s->lists || !s->scores || !s->order) {
        chk_solver_free(s);
        return NULL;
    }
    return s;
}

void chk_solver_free(chk_solver *s)
{
    if (!s)
        return;
    free(s->tt);
    free(s->lists);
    free(s->scores);
    free(s->order);
    free(s);
}

void chk_solver_clear(chk_solver *s)
{
    memset(s->tt, 0, (s->mask + 1) * sizeof *s->tt);
    s->nodes = 0;
    s->have_print = false;
}

uint64_t chk_solver_nodes(const chk_solver *s)
{
    return s->nodes;
}

void chk_solver_limit(chk_solver *s, uint64_t max_nodes)
{
    s->max_nodes = max_nodes;
}

void chk_solver_tables(chk_solver *s, struct chk_tb *tb)
{
    s->tables = tb;
}

/* The most own moves a call may ask about. */
static int max_moves(const chk_solver *s)
{
    return s->tables ? CHK_SOLVE_MAX_MOVES_TB : CHK_SOLVE_MAX_MOVES;
}

/* A fingerprint of everything in the rules that decides the moves. */
static uint64_t rules_print(const chk_rules *r)
{
    unsigned char key[CHK_RULES_KEY_SIZE];
    size_t len = chk_rules_key(r, key);
    uint64_t h = 0x51ED5017ull;
    for (size_t i = 0; i < len; i++)
        h = zob_mix(h ^ key[i]);
    return h;
}

/* Readies s for a search of p: the table is dropped when the rules differ
 * from the ones it was filled under, and not used at all when a result may
 * depend on the path (repetition draws, hooks). */
static void begin(chk_solver *s, const chk_pos *p, chk_stop *stop)
{
    const chk_rules *r = p->rules;
    uint64_t fp = rules_print(r);
    if (!s->have_print || fp != s->rules_print) {
        memset(s->tt, 0, (s->mask + 1) * sizeof *s->tt);
        s->rules_print = fp;
        s->have_print = true;
    }
    s->use_tt = !r->draw_repetition && !r->filter && !r->result;
    s->quiet_limit = r->draw_quiet_plies;
    s->stop = stop;
    s->tb = s->tables && !r->draw_quiet_plies && !r->draw_repetition ? s->tables : NULL;
    if (s->tb && chk_tb_count(s->tb) == 0)
        s->tb = NULL;       /* no file at all: nothing to probe */
    s->tb_pieces = CHK_TB_MAX_PIECES;
    s->node_limit = s->max_nodes ? s->nodes + s->max_nodes : 0;
}

/* CHK_STOPPED, CHK_TIMEOUT or CHK_NODE_LIMIT when the search must end,
 * else 0 (CHK_OK). */
static inline int must_stop(const chk_solver *s)
{
    chk_status st = chk_stop_check(s->stop);
    if (st != CHK_OK)
        return st;
    if (s->node_limit && s->nodes > s->node_limit)
        return CHK_NODE_LIMIT;
    return CHK_OK;
}

/* ---- transposition table ------------------------------------------------ */

static inline uint64_t tt_key(const chk_solver *s, const chk_pos *p)
{
    uint64_t k = p->hash;
    if (s->quiet_limit)
        k ^= zob_mix(0xD1B54A32D192ED03ull + (p->quiet < s->quiet_limit ? p->quiet : s->quiet_limit));
    return k;
}

static inline tt_entry *tt_probe(chk_solver *s, uint64_t key)
{
    if (!s->use_tt)
        return NULL;
    tt_entry *e = &s->tt[key & s->mask];
    return e->key == key && (e->win || e->nowin) ? e : NULL;
}

static void tt_store(chk_solver *s, uint64_t key, int win, int nowin, int best)
{
    if (!s->use_tt)
        return;
    tt_entry *e = &s->tt[key & s->mask];
    if (e->key != key || !(e->win || e->nowin)) {
        e->key = key;
        e->win = 0;
        e->nowin = 0;
        e->best = NO_BEST;
    }
    if (win && (!e->win || win < e->win)) {
        e->win = (uint8_t)win;
        e->best = (uint16_t)best;
    }
    if (nowin > e->nowin)
        e->nowin = (uint8_t)(nowin > 255 ? 255 : nowin);
}

/* ---- the game after a move ---------------------------------------------- */

enum { GAME_ON, GAME_WON, GAME_LOST };

/* The game after a move, for the attacker (a colour): GAME_WON when it is
 * over and the attacker won, GAME_LOST when it is over otherwise (draw or
 * defeat), GAME_ON with *replies the side to move's number of moves; or
 * CHK_HOOK_ERROR (negative) when a hook failed. The same judgement as
 * chk_result: the static rules, then a side without moves loses. */
static int game_after(chk_pos *p, int attacker, int *replies)
{
    int reason;
    int w = chk_result_static(p, &reason);
    if (reason == CHK_REASON_ERROR)
        return CHK_HOOK_ERROR;
    if (w != CHK_ONGOING)
        return w == attacker ? GAME_WON : GAME_LOST;
    int n = chk_count_moves(p);
    if (n < 0)
        return n;
    *replies = n;
    if (n == 0)
        return p->side == attacker ? GAME_LOST : GAME_WON;
    return GAME_ON;
}

static inline chk_move *list_at(chk_solver *s, int ply) { return s->lists + (size_t)ply * CHK_MAX_MOVES; }
static inline int32_t *scores_at(chk_solver *s, int ply) { return s->scores + (size_t)ply * CHK_MAX_MOVES; }
static inline uint16_t *order_at(chk_solver *s, int ply) { return s->order + (size_t)ply * CHK_MAX_MOVES; }

/* Sorts order[0..n) by score, ascending (stable insertion sort). */
static void sort_order(uint16_t *order, const int32_t *score, int n)
{
    for (int i = 1; i < n; i++) {
        uint16_t v = order[i];
        int j = i;
        while (j > 0 && score[order[j - 1]] > score[v]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
}

/* ---- tablebases ---------------------------------------------------------- */

/* The tables' value of p for its side to move: 1 with *value and *dist
 * (plies) when covered, else 0 (a damaged file counts as not covered). */
static int tb_value(const chk_solver *s, const chk_pos *p, int *value, int *dist)
{
    if (!s->tb || bb_count(p->occ[0] | p->occ[1]) > s->tb_pieces)
        return 0;
    return chk_tb_probe(s->tb, p, value, dist) == 1;
}

/* ---- the search --------------------------------------------------------- */

/* One ply ahead of the side to move's moves list[0..cnt): *win gets the
 * index of the first move that wins at once, or -1; the moves that keep the
 * game going are listed in order[0..*cand) with score[i] the defender's
 * number of replies (moves that lose are left out; with a win, the list
 * stops there). Returns 0, or CHK_HOOK_ERROR / CHK_NO_MEMORY. */
static int look_ahead(chk_pos *p, chk_move *list, int cnt, int32_t *score, uint16_t *order,
                      int *cand, int *win)
{
    int me = p->side;
    *cand = 0;
    *win = -1;
    for (int i = 0; i < cnt; i++) {
        int replies = 0;
        if (!chk_make(p, &list[i]))
            return CHK_NO_MEMORY;
        int st = game_after(p, me, &replies);
        chk_unmake(p);
        if (st < 0)
            return st;
        if (st == GAME_WON) {
            *win = i;
            return 0;
        }
        if (st == GAME_ON) {
            score[i] = replies;
            order[(*cand)++] = (uint16_t)i;
        }
    }
    return 0;
}

static int defend(chk_solver *s, chk_pos *p, int n, int ply);

/* Attacker (the side to move) node, the game going on: 1 when it wins
 * within n >= 1 of its moves, 0 when not, or CHK_STOPPED,
 * CHK_HOOK_ERROR, CHK_NO_MEMORY. */
static int attack(chk_solver *s, chk_pos *p, int n, int ply)
{
    s->nodes++;
    int halt = must_stop(s);
    if (halt)
        return halt;
    int value, dist;
    if (tb_value(s, p, &value, &dist))
        return value == CHK_TB_WIN && (dist + 1) / 2 <= n;
    uint64_t key = tt_key(s, p);
    int best = NO_BEST;
    tt_entry *e = tt_probe(s, key);
    if (e) {
        if (e->win && e->win <= n)
            return 1;
        if (e->nowin >= n)
            return 0;
        best = e->best;
    }
    chk_move *list = list_at(s, ply);
    int32_t *score = scores_at(s, ply);
    uint16_t *order = order_at(s, ply);
    int cnt = chk_gen_rule_moves(p, list);
    if (cnt < 0)
        return CHK_HOOK_ERROR;
    /* One ply ahead: a move that wins at once ends the search; the others
     * are ordered by the defender's number of replies (the hash move first). */
    int cand, win;
    int rc = look_ahead(p, list, cnt, score, order, &cand, &win);
    if (rc < 0)
        return rc;
    if (win >= 0) {
        tt_store(s, key, 1, 0, win);
        return 1;
    }
    for (int j = 0; j < cand; j++) {
        int i = order[j];
        score[i] = score[i] * 4 - bb_count(list[i].captures);
        if (i == best)
            score[i] = -1000000;
    }
    if (n == 1 || cand == 0) {
        tt_store(s, key, 0, cand ? 1 : 255, 0);
        return 0;
    }
    sort_order(order, score, cand);
    for (int j = 0; j < cand; j++) {
        int i = order[j];
        if (!chk_make(p, &list[i]))
            return CHK_NO_MEMORY;
        int r = defend(s, p, n - 1, ply + 1);
        chk_unmake(p);
        if (r < 0)
            return r;
        if (r == 1) {
            tt_store(s, key, n, 0, i);
            return 1;
        }
    }
    tt_store(s, key, 0, n, 0);
    return 0;
}

/* Defender (the side to move) node, the game going on, the attacker having
 * n >= 1 moves left: 1 when every reply loses within them, 0 when some
 * reply holds, or a negative error as attack(). */
static int defend(chk_solver *s, chk_pos *p, int n, int ply)
{
    s->nodes++;
    int halt = must_stop(s);
    if (halt)
        return halt;
    int value, dist;
    if (tb_value(s, p, &value, &dist))
        return value == CHK_TB_LOSS && dist / 2 <= n;
    chk_move *list = list_at(s, ply);
    int32_t *score = scores_at(s, ply);
    uint16_t *order = order_at(s, ply);
    int cnt = chk_gen_rule_moves(p, list);
    if (cnt < 0)
        return CHK_HOOK_ERROR;
    int attacker = !p->side, cand = 0;
    /* One ply ahead: a reply that ends the game in the defender's favour,
     * leaves the attacker without a move, or that the table knows to hold,
     * refutes at once; the others are tried
     * in the order of the attacker's fewest moves after them (a cramped
     * attacker is the likeliest to fail), replies the table knows to lose
     * last. */
    for (int i = 0; i < cnt; i++) {
        int reason;
        if (!chk_make(p, &list[i]))
            return CHK_NO_MEMORY;
        int w = chk_result_static(p, &reason);
        tt_entry *e = reason == CHK_REASON_ERROR ? NULL : tt_probe(s, tt_key(s, p));
        int amob = (reason == CHK_REASON_ERROR || w != CHK_ONGOING) ? 0 : chk_count_moves(p);
        chk_unmake(p);
        if (reason == CHK_REASON_ERROR)
            return CHK_HOOK_ERROR;
        if (w != CHK_ONGOING) {
            if (w != attacker)
                return 0;
            continue;
        }
        if (amob < 0)
            return CHK_HOOK_ERROR;
        if (amob == 0 || (e && e->nowin >= n))  /* the attacker stalemated, or known to fail */
            return 0;
        score[i] = 4 * amob - bb_count(list[i].captures);
        if (e && e->win && e->win <= n)
            score[i] += 100000;
        order[cand++] = (uint16_t)i;
    }
    sort_order(order, score, cand);
    for (int j = 0; j < cand; j++) {
        int i = order[j];
        if (!chk_make(p, &list[i]))
            return CHK_NO_MEMORY;
        int r = attack(s, p, n, ply + 1);
        chk_unmake(p);
        if (r < 0)
            return r;
        if (r == 0)
            return 0;
    }
    return 1;
}

/* After a defender's move (the game going on): the attacker's shortest win
 * within n, or n + 1. */
static int shortest_from_attack(chk_solver *s, chk_pos *p, int n, int ply)
{
    for (int k = 1; k <= n; k++) {
        int r = attack(s, p, k, ply);
        if (r < 0)
            return r;
        if (r == 1)
            return k;
    }
    return n + 1;
}

/* ---- public calls ------------------------------------------------------- */

/* The root of chk_solve_moves and chk_solve: the solver begun on p, *n
 * capped at the moves it holds, and the root's rule moves in list_at(s, 0).
 * Returns their count; 0 when there is nothing to solve (the game is over,
 * or *n < 1), or CHK_HOOK_ERROR. */
static int solve_root(chk_solver *s, chk_pos *p, int *n, chk_stop *stop)
{
    if (*n > max_moves(s))
        *n = max_moves(s);
    begin(s, p, stop);
    int reason;
    int w = chk_result_static(p, &reason);
    if (reason == CHK_REASON_ERROR)
        return CHK_HOOK_ERROR;
    if (w != CHK_ONGOING || *n < 1)
        return 0;
    int cnt = chk_gen_rule_moves(p, list_at(s, 0));
    return cnt < 0 ? CHK_HOOK_ERROR : cnt;
}

int chk_solve_moves(chk_solver *s, chk_pos *p, int n, chk_move *moves, int *lens,
                    chk_stop *stop)
{
    chk_move *list = list_at(s, 0);
    int32_t *score = scores_at(s, 0);
    int cnt = solve_root(s, p, &n, stop);
    if (cnt <= 0)
        return cnt;
    int me = p->side;
    /* score: 0 unknown, k the shortest win, -1 no win within n */
    for (int i = 0; i < cnt; i++) {
        int replies = 0;
        if (!chk_make(p, &list[i]))
            return CHK_NO_MEMORY;
        int st = game_after(p, me, &replies);
        chk_unmake(p);
        if (st < 0)
            return st;
        score[i] = st == GAME_WON ? 1 : st == GAME_LOST ? -1 : 0;
    }
    for (int k = 2; k <= n; k++) {
        for (int i = 0; i < cnt; i++) {
            if (score[i] != 0)
                continue;
            if (!chk_make(p, &list[i]))
                return CHK_NO_MEMORY;
            int r = defend(s, p, k - 1, 1);
            chk_unmake(p);
            if (r < 0)
                return r;
            if (r == 1)
                score[i] = k;
        }
    }
    int nw = 0;
    for (int i = 0; i < cnt; i++)
        if (score[i] > 0) {
            moves[nw] = list[i];
            lens[nw] = score[i];
            nw++;
        }
    return nw;
}

int chk_solve(chk_solver *s, chk_pos *p, int n, chk_move *best,
              chk_stop *stop)
{
    chk_move *list = list_at(s, 0);
    int32_t *score = scores_at(s, 0);
    uint16_t *order = order_at(s, 0);
    int cnt = solve_root(s, p, &n, stop);
    if (cnt <= 0)
        return cnt;
    int cand, win;
    int rc = look_ahead(p, list, cnt, score, order, &cand, &win);
    if (rc < 0)
        return rc;
    if (win >= 0) {
        if (best)
            *best = list[win];
        return 1;
    }
    sort_order(order, score, cand);
    for (int k = 2; k <= n; k++) {
        for (int j = 0; j < cand; j++) {
            int i = order[j];
            if (!chk_make(p, &list[i]))
                return CHK_NO_MEMORY;
            int r = defend(s, p, k - 1, 1);
            chk_unmake(p);
            if (r < 0)
                return r;
            if (r == 1) {
                if (best)
                    *best = list[i];
                return k;
            }
        }
    }
    return 0;
}

int chk_solve_defend(chk_solver *s, chk_pos *p, int n, chk_move *defence,
                     chk_stop *stop)
{
    chk_move *list = list_at(s, 0);
    int32_t *score = scores_at(s, 0);
    if (n > max_moves(s))
        n = max_moves(s);
    if (defence)
        defence->npath = 0;
    begin(s, p, stop);
    int reason;
    int attacker = !p->side;
    int w = chk_result_static(p, &reason);
    if (reason == CHK_REASON_ERROR)
        return CHK_HOOK_ERROR;
    if (w != CHK_ONGOING)
        return w == attacker ? 0 : n + 1;
    int cnt = chk_gen_rule_moves(p, list);
    if (cnt < 0)
        return CHK_HOOK_ERROR;
    if (cnt == 0)
        return 0;       /* stalemated: the attacker has won */
    /* score: -1 loses at once, 0 unknown, n + 1 holds */
    for (int i = 0; i < cnt; i++) {
        if (!chk_make(p, &list[i]))
            return CHK_NO_MEMORY;
        w = chk_result_static(p, &reason);
        chk_unmake(p);
        if (reason == CHK_REASON_ERROR)
            return CHK_HOOK_ERROR;
        score[i] = w == CHK_ONGOING ? 0 : w == attacker ? -1 : n + 1;
        if (score[i] == n + 1) {
            if (defence)
                *defence = list[i];
            return n + 1;
        }
    }
    if (n < 1) {        /* no attacker move left: any reply that goes on holds */
        for (int i = 0; i < cnt; i++)
            if (score[i] == 0) {
                if (defence)
                    *defence = list[i];
                return n + 1;
            }
        if (defence)
            *defence = list[0];
        return 0;
    }
    /* A reply that holds, if there is one; else the longest resistance. */
    for (int i = 0; i < cnt; i++) {
        if (score[i] != 0)
            continue;
        if (!chk_make(p, &list[i]))
            return CHK_NO_MEMORY;
        int r = attack(s, p, n, 1);
        chk_unmake(p);
        if (r < 0)
            return r;
        if (r == 0) {
            if (defence)
                *defence = list[i];
            return n + 1;
        }
    }
    int bi = 0, bl = -1;
    for (int i = 0; i < cnt; i++) {
        int len = 0;
        if (score[i] == 0) {
            if (!chk_make(p, &list[i]))
                return CHK_NO_MEMORY;
            len = shortest_from_attack(s, p, n, 1);
            chk_unmake(p);
            if (len < 0)
                return len;
        }
        if (len > bl) {
            bl = len;
            bi = i;
        }
    }
    if (defence)
        *defence = list[bi];
    return bl;
}

int chk_solve_refute(chk_solver *s, chk_pos *p, const chk_move *m, int n, chk_move *defence,
                     chk_stop *stop)
{
    chk_move mv = *m;
    if (n > max_moves(s))
        n = max_moves(s);
    if (defence)
        defence->npath = 0;
    if (n < 1)
        return n + 1;
    if (!chk_make(p, &mv))
        return CHK_NO_MEMORY;
    int rc = chk_solve_defend(s, p, n - 1, defence, stop);
    chk_unmake(p);
    if (rc < 0)
        return rc;
    return rc > n - 1 ? n + 1 : rc + 1;
}
