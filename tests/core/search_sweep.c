/*
 * search_sweep.c - the C search on many positions of random games under
 * every rule option (TAP, one line per rule set): each search returns OK,
 * restores the position exactly (text, history, hash, consistency), and
 * gives a legal best move and a legal principal variation. Node limits
 * keep it fast; tests/core/search_test.sh builds and runs it.
 */
#include <stdio.h>
#include <string.h>

#include "cheskers.h"

static const char *const variants[] = {
    "", "majority=false", "capture=jumps", "capture=all", "capture=optional",
    "flying_kings=true", "pawns_capture_backward=true", "promote=K",
    "draw_repetition=3 draw_quiet_plies=40",
    "flying_kings=true pawns_capture_backward=true capture=all",
};

static bool listed(const chk_move *list, int n, const chk_move *m)
{
    for (int i = 0; i < n; i++)
        if (chk_move_equal(&list[i], m))
            return true;
    return false;
}

/* Searches position p; returns NULL or what went wrong. */
static const char *check_search(chk_search *s, chk_pos *p, const chk_move *list, int n)
{
    static chk_move l2[CHK_MAX_MOVES];
    chk_search_info info;
    chk_search_opts o;
    char f0[128], f1[128];
    memset(&o, 0, sizeof o);
    o.nodes = 1500;
    chk_pos_fen(p, f0, sizeof f0);
    size_t nh = p->nhist;
    uint64_t h = p->hash;
    if (chk_search_run(s, p, &o, &info) != CHK_OK)
        return "search failed";
    chk_pos_fen(p, f1, sizeof f1);
    if (strcmp(f0, f1) || nh != p->nhist || h != p->hash || chk_pos_check(p))
        return "position not restored";
    if (info.npv < 1 || !listed(list, n, &info.pv[0]))
        return "best move not legal";
    int made = 0;
    const char *bad = NULL;
    for (int k = 0; k < info.npv && !bad; k++) {
        int m = chk_gen_moves(p, l2);
        if (!listed(l2, m, &info.pv[k]))
            bad = "principal variation not legal";
        else if (chk_make(p, &info.pv[k]))
            made++;
    }
    while (made--)
        chk_unmake(p);
    return bad;
}

int main(void)
{
    static chk_move list[CHK_MAX_MOVES];
    int nv = (int)(sizeof variants / sizeof variants[0]), failed = 0;
    chk_search *s = chk_search_new((size_t)1 << 20);
    if (!s)
        return 2;
    printf("1..%d\n", nv);
    for (int v = 0; v < nv; v++) {
        chk_rules r;
        char err[256], where[160] = "";
        const char *bad = NULL;
        unsigned seed = 12345u + (unsigned)v;
        int searches = 0;
        chk_rules_default(&r);
        if ((variants[v][0] && chk_rules_parse(&r, variants[v], err, sizeof err))
            || chk_rules_finish(&r, err, sizeof err)) {
            printf("not ok %d - rules '%s': %s\n", v + 1, variants[v], err);
            failed++;
            continue;
        }
        for (int g = 0; g < 8 && !bad; g++) {
            chk_pos p;
            chk_pos_start(&p, &r);
            for (int ply = 0; ply < 160 && !bad; ply++) {
                int n = chk_gen_moves(&p, list);
                if (n <= 0)
                    break;
                if (ply % 6 == 2) {
                    bad = check_search(s, &p, list, n);
                    searches++;
                    if (bad)
                        chk_pos_fen(&p, where, sizeof where);
                }
                seed = seed * 1103515245u + 12345u;
                chk_make(&p, &list[(seed >> 16) % (unsigned)n]);
            }
            chk_pos_free(&p);
        }
        if (bad) {
            printf("not ok %d - rules '%s': %s\n# position %s\n", v + 1, variants[v], bad, where);
            failed++;
        } else {
            printf("ok %d - rules '%s': %d searches restore the position, legal moves and lines\n",
                   v + 1, variants[v][0] ? variants[v] : "golomb", searches);
        }
    }
    chk_search_free(s);
    return failed ? 1 : 0;
}
