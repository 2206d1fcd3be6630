/*
 * search_tb.c - the tablebases inside the search (opts.tb): a covered
 * position scores exactly (a win in d plies as a game won d plies further
 * on, like the search's own game ends) and a covered root is answered by
 * the tables.
 */
#include "search_internal.h"

/* The score of a finished game reached dist plies after ply (capped so that
 * it stays a forced result: CHK_SCORE_MATE_MIN is 2 * CHK_MAX_PLY plies). */
static int result_score(int value, int ply, int dist)
{
    int at = ply + dist;
    if (at > 2 * CHK_MAX_PLY - 1)
        at = 2 * CHK_MAX_PLY - 1;
    return value == CHK_TB_DRAW ? 0
           : value == CHK_TB_WIN ? CHK_SCORE_WIN - at : -(CHK_SCORE_WIN - at);
}

/* The tables' score of the position at ply, or INF when no table covers it
 * (a damaged file counts as not covered: the search goes on without it). */
int chk__search_tb_score(chk_search *s, int ply)
{
    const chk_pos *p = s->p;
    int value, dist;
    if (!s->tb || bb_count(p->occ[0] | p->occ[1]) > s->tb_pieces)
        return INF;
    if (chk_tb_probe(s->tb, p, &value, &dist) != 1)
        return INF;
    return result_score(value, ply, dist);
}

/* The tables usable for this search (any signature with a file is probed;
 * a missing one costs a hash look-up): not under draw_quiet_plies (a table
 * win may take longer than the rule allows; draw_repetition cannot spoil
 * one, since a fastest win never repeats a position). */
void chk__search_tb_setup(chk_search *s)
{
    s->tb = s->o->tb && !s->p->rules->draw_quiet_plies ? s->o->tb : NULL;
    if (s->tb && chk_tb_count(s->tb) == 0)
        s->tb = NULL;       /* no file at all: nothing to probe */
    s->tb_pieces = CHK_TB_MAX_PIECES;
}

/* Answers a covered root from the tables: *out gets the tables' best move,
 * a line of best moves after it and the exact score. Returns false when the
 * root is not covered (then the search runs). */
bool chk__search_tb_root(chk_search *s, chk_search_info *out)
{
    chk_pos *p = s->p;
    chk_move m;
    int value, dist, made = 0;
    if (!s->tb || bb_count(p->occ[0] | p->occ[1]) > s->tb_pieces
        || chk_tb_best_move(s->tb, p, &m, &value, &dist) != 1)
        return false;
    out->score = result_score(value, 0, dist);
    out->depth = 1;
    out->tb = true;
    out->pv[made] = m;
    while (made < CHK_MAX_PLY - 1 && chk_make(p, &out->pv[made])) {
        made++;
        int v2, d2;
        if (chk_tb_best_move(s->tb, p, &out->pv[made], &v2, &d2) != 1)
            break;
    }
    out->npv = made > 0 ? made : 1;
    while (made-- > 0)
        chk_unmake(p);
    return true;
}
