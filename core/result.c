/*
 * result.c - the game result (kings lost, stalemate, the draw rules, a
 * result hook), and what depends on it: the legal moves and their count,
 * which are the rule moves (movegen.c) of a game that is not over. The top
 * of the rules layers: calls movegen.c and reads the position's history.
 */
#include "internal.h"

static const char *const reason_names[] = {
    "none", "kings", "stalemate", "repetition", "quiet", "hook", "error"
};

const char *chk_reason_name(int reason)
{
    return reason >= 0 && reason <= CHK_REASON_ERROR ? reason_names[reason] : "?";
}

int chk_repetitions(const chk_pos *p)
{
    size_t back = p->quiet < p->nhist ? p->quiet : p->nhist;
    int n = 1;
    for (size_t i = 2; i <= back; i += 2)
        if (p->hist[p->nhist - i].hash == p->hash)
            n++;
    return n;
}

int chk_result_static(chk_pos *p, int *reason)
{
    const chk_rules *r = p->rules;
    int side = p->side;
    *reason = CHK_REASON_KINGS;
    if (!p->bb[side][CHK_KING])
        return !side;
    if (!p->bb[!side][CHK_KING])
        return side;
    if (r->result) {
        int winner = CHK_ONGOING;
        int rc = r->result(r->hook_ud, p, &winner);
        if (rc < 0) {
            *reason = CHK_REASON_ERROR;
            return CHK_ONGOING;
        }
        if (rc > 0 && (winner == CHK_WHITE || winner == CHK_BLACK || winner == CHK_DRAW_RESULT)) {
            *reason = CHK_REASON_HOOK;
            return winner;
        }
    }
    *reason = CHK_REASON_REPETITION;
    if (r->draw_repetition && chk_repetitions(p) >= r->draw_repetition)
        return CHK_DRAW_RESULT;
    *reason = CHK_REASON_QUIET;
    if (r->draw_quiet_plies && p->quiet >= r->draw_quiet_plies)
        return CHK_DRAW_RESULT;
    *reason = CHK_REASON_NONE;
    return CHK_ONGOING;
}

int chk_result(chk_pos *p, int *reason)
{
    chk_move list[CHK_MAX_MOVES];
    int w = chk_result_static(p, reason);
    if (w != CHK_ONGOING || *reason == CHK_REASON_ERROR)
        return w;
    int n = chk_gen_rule_moves(p, list);
    if (n < 0) {
        *reason = CHK_REASON_ERROR;
        return CHK_ONGOING;
    }
    if (n == 0) {
        *reason = CHK_REASON_STALEMATE;
        return !p->side;
    }
    return CHK_ONGOING;
}

/* ---- legal moves: the rule moves while the game goes on ------------------ */

/* 1 while the game goes on by the rules that need no move generation
 * (chk_result_static), 0 when it is over, CHK_HOOK_ERROR when a hook
 * failed. */
static inline int goes_on(chk_pos *p)
{
    int reason;
    int w = chk_result_static(p, &reason);
    if (reason == CHK_REASON_ERROR)
        return CHK_HOOK_ERROR;
    return w == CHK_ONGOING;
}

/* chk_gen_moves with hooks or the repetition rule. */
static __attribute__((noinline)) int gen_moves_hooked(chk_pos *p, chk_move *list)
{
    int on = goes_on(p);
    return on > 0 ? chk_gen_rule_moves(p, list) : on;
}

int chk_gen_moves(chk_pos *p, chk_move *list)
{
    const chk_rules *r = p->rules;
    if (r->result || r->draw_repetition || r->filter)
        return gen_moves_hooked(p, list);
    /* chk_result_static without hooks or repetitions: lost kings, quiet plies */
    if (!p->bb[0][CHK_KING] || !p->bb[1][CHK_KING]
        || (r->draw_quiet_plies && p->quiet >= r->draw_quiet_plies))
        return 0;
    return chk__gen_all(p, list, false);
}

int chk_count_moves(chk_pos *p)
{
    chk_move list[CHK_MAX_MOVES];
    int on = goes_on(p);
    if (on <= 0)
        return on;
    if (p->rules->filter)
        return chk_gen_rule_moves(p, list);
    return chk__count_bb(p);
}
