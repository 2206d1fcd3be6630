/*
 * movetext.c - move text (docs/rules.md "Text formats"): writing moves, and
 * reading them with the accepted short forms, refusing illegal or ambiguous
 * text with a message that lists the candidates.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

bool chk_move_equal(const chk_move *a, const chk_move *b)
{
    return a->from == b->from && a->to == b->to && a->captures == b->captures
           && a->promo == b->promo;
}

static char kind_letter(const chk_pos *p, int kind)
{
    static const char letters[] = "PKBC????";
    return p ? p->rules->kinds[kind].letter : letters[kind & 7];
}

size_t chk_move_text(const chk_pos *p, const chk_move *m, char *buf, size_t n)
{
    char out[4 + 3 * CHK_MAX_PATH + 4];
    size_t len = 0;
    chk_sq_name(m->from, out);
    len = 2;
    for (int i = 0; i < m->npath && i < CHK_MAX_PATH; i++) {
        out[len++] = m->captures ? 'x' : '-';
        chk_sq_name(m->path[i], out + len);
        len += 2;
    }
    if (m->promo != CHK_NONE) {
        out[len++] = '=';
        out[len++] = kind_letter(p, m->promo);
    }
    out[len] = 0;
    if (n) {
        size_t c = len < n - 1 ? len : n - 1;
        memcpy(buf, out, c);
        buf[c] = 0;
    }
    return len;
}

/* The squares strictly between a and b on a straight line (any vector
 * direction), as a bitboard; 0 when a and b are not on one line. */
static chk_bb between(int a, int b)
{
    int fa = chk_sq_file(a), ra = chk_sq_rank(a), fb = chk_sq_file(b), rb = chk_sq_rank(b);
    int df = fb - fa, dr = rb - ra, g;
    int x = df < 0 ? -df : df, y = dr < 0 ? -dr : dr;
    for (g = x > y ? x : y; g > 1; g--)
        if (x % g == 0 && y % g == 0)
            break;
    if (g < 1)
        return 0;
    chk_bb bb = 0;
    for (int i = 1; i < g; i++) {
        int sq = chk_sq_from_fr(fa + df / g * i, ra + dr / g * i);
        if (sq >= 0)
            bb |= BB(sq);
    }
    return bb;
}

typedef struct parsed {
    int piece;              /* kind letter given, or -1 */
    int nsq;
    int sq[CHK_MAX_PATH + 1];
    bool any_x, any_dash;
    int promo;              /* kind, or -1 */
} parsed;

static int parse_text(const chk_pos *p, const char *t, parsed *x, char *err, size_t errlen)
{
    memset(x, 0, sizeof *x);
    x->piece = x->promo = -1;
    while (*t == ' ' || *t == '\t')
        t++;
    if (*t >= 'A' && *t <= 'Z' && t[1] >= 'a' && t[1] <= 'h') {
        x->piece = chk_rules_kind(p->rules, *t);
        if (x->piece < 0) {
            snprintf(err, errlen, "unknown piece letter '%c'", *t);
            return -1;
        }
        t++;
    }
    for (;;) {
        int sq = chk_sq_parse(t);
        if (sq < 0) {
            if (t[0] >= 'a' && t[0] <= 'h' && t[1] >= '1' && t[1] <= '8')
                snprintf(err, errlen, "%.2s is a light square", t);
            else
                snprintf(err, errlen, "expected a square (a1..h8) at '%.8s'", t);
            return -1;
        }
        if (x->nsq > CHK_MAX_PATH) {
            snprintf(err, errlen, "too many squares");
            return -1;
        }
        x->sq[x->nsq++] = sq;
        t += 2;
        if (*t == 'x' || *t == 'X' || *t == ':')
            x->any_x = true;
        else if (*t == '-')
            x->any_dash = true;
        else
            break;
        t++;
    }
    if (*t == '=' || (*t >= 'A' && *t <= 'Z') || (*t >= 'a' && *t <= 'z' && *t != 'x')) {
        if (*t == '=')
            t++;
        x->promo = chk_rules_kind(p->rules, *t);
        if (x->promo <= 0) {
            snprintf(err, errlen, "bad promotion '%c'", *t ? *t : '?');
            return -1;
        }
        t++;
    }
    while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r')
        t++;
    if (*t) {
        snprintf(err, errlen, "unexpected text after the move");
        return -1;
    }
    if (x->nsq < 2) {
        snprintf(err, errlen, "a move needs a start and an end square");
        return -1;
    }
    return 0;
}

static bool exact_path(const chk_move *m, const parsed *x)
{
    if (x->nsq - 1 != m->npath)
        return false;
    for (int i = 0; i < m->npath; i++)
        if (m->path[i] != x->sq[i + 1])
            return false;
    return true;
}

/* Whether the typed landings name this chain: the same landings, or
 * another route through the same captured pieces. */
static bool path_matches(const chk_pos *p, const chk_move *m, const parsed *x)
{
    if (exact_path(m, x))
        return true;
    if (!(m->flags & CHK_MF_JUMP) || x->nsq - 1 != m->npath)
        return false;
    chk_bb cap = 0, enemy = p->occ[!p->side];
    for (int i = 0; i + 1 < x->nsq; i++) {
        chk_bb b = between(x->sq[i], x->sq[i + 1]) & enemy;
        if (bb_count(b) != 1 || (cap & b))
            return false;
        cap |= b;
    }
    return cap == m->captures;
}

static void list_moves(const chk_pos *p, const chk_move *list, const int *idx, int n,
                       char *err, size_t errlen)
{
    size_t len = strlen(err);
    for (int i = 0; i < n && len + 40 < errlen; i++) {
        char t[4 + 3 * CHK_MAX_PATH + 4];
        chk_move_text(p, &list[idx[i]], t, sizeof t);
        len += (size_t)snprintf(err + len, errlen - len, "%s%s", i ? ", " : "", t);
    }
    if (len + 40 >= errlen && errlen > 5)
        snprintf(err + errlen - 5, 5, "...");
}

/* The candidates of a text written with capture signs only: the captures
 * among them. A text that names only quiet moves is refused with the text to
 * write instead ("b6xa5 is not a capture: write b6-a5"); 0 when candidates
 * remain, CHK_PARSE_ILLEGAL otherwise. */
static int captures_only(const chk_pos *p, const char *text, const chk_move *list, int *idx,
                         int *nc, char *err, size_t errlen)
{
    int j = 0;
    for (int i = 0; i < *nc; i++)
        if (list[idx[i]].captures)
            idx[j++] = idx[i];
    if (j) {
        *nc = j;
        return 0;
    }
    char quiet[4 + 3 * CHK_MAX_PATH + 4];
    chk_move_text(p, &list[idx[0]], quiet, sizeof quiet);
    while (*text == ' ' || *text == '\t')
        text++;
    int len = (int)strcspn(text, " \t\r\n");
    snprintf(err, errlen, "%.*s is not a capture: write %s", len < 40 ? len : 40, text, quiet);
    return CHK_PARSE_ILLEGAL;
}

int chk_parse_move(chk_pos *p, const char *text, chk_move *out, char *err, size_t errlen)
{
    chk_move list[CHK_MAX_MOVES];
    int idx[CHK_MAX_MOVES];
    char tmp[256];
    parsed x;
    if (!err || !errlen) {
        err = tmp;
        errlen = sizeof tmp;
    }
    err[0] = 0;
    if (!text) {
        snprintf(err, errlen, "no move text");
        return CHK_PARSE_BAD_TEXT;
    }
    if (parse_text(p, text, &x, err, errlen))
        return CHK_PARSE_BAD_TEXT;
    int n = chk_gen_moves(p, list);
    if (n < 0) {
        snprintf(err, errlen, "a rule hook failed");
        return CHK_HOOK_ERROR;
    }
    int from = x.sq[0], to = x.sq[x.nsq - 1], nc = 0;
    for (int i = 0; i < n; i++) {
        const chk_move *m = &list[i];
        if (m->from != from || m->to != to)
            continue;
        if (x.piece >= 0 && m->kind != x.piece)
            continue;
        if (x.promo >= 0 && m->promo != x.promo)
            continue;
        if (x.nsq > 2 && !path_matches(p, m, &x))
            continue;
        idx[nc++] = i;
    }
    /* a complete text names its move even where it is also the shortcut
     * (start and end only) of a longer chain */
    if (nc > 1) {
        int j = 0;
        for (int i = 0; i < nc; i++)
            if (exact_path(&list[idx[i]], &x))
                idx[j++] = idx[i];
        if (j)
            nc = j;
    }
    /* 'x' names captures only; '-' for 'x' only where unambiguous: let the
     * separators choose */
    if (nc && x.any_x && !x.any_dash && captures_only(p, text, list, idx, &nc, err, errlen))
        return CHK_PARSE_ILLEGAL;
    if (nc > 1 && x.any_dash && !x.any_x) {
        int j = 0;
        for (int i = 0; i < nc; i++)
            if (!list[idx[i]].captures)
                idx[j++] = idx[i];
        if (j)
            nc = j;
    }
    if (nc == 1) {
        *out = list[idx[0]];
        return 0;
    }
    char sq[3];
    if (nc > 1) {
        snprintf(err, errlen, "ambiguous move %s: it could be ", text);
        list_moves(p, list, idx, nc, err, errlen);
        return CHK_PARSE_ILLEGAL;
    }
    if (n == 0) {
        snprintf(err, errlen, "illegal move %s: the game is over", text);
        return CHK_PARSE_ILLEGAL;
    }
    chk_sq_name(from, sq);
    int pc = p->sq[from];
    if (pc == CHK_NONE) {
        snprintf(err, errlen, "illegal move %s: no piece on %s", text, sq);
        return CHK_PARSE_ILLEGAL;
    }
    if (CHK_PIECE_COLOR(pc) != p->side) {
        snprintf(err, errlen, "illegal move %s: the piece on %s is not %s's", text, sq,
                 p->side == CHK_WHITE ? "White" : "Black");
        return CHK_PARSE_ILLEGAL;
    }
    for (int i = 0; i < n; i++)
        if (list[i].from == from)
            idx[nc++] = i;
    if (nc) {
        snprintf(err, errlen, "illegal move %s: legal moves from %s are ", text, sq);
        list_moves(p, list, idx, nc, err, errlen);
        return CHK_PARSE_ILLEGAL;
    }
    bool forced = false;
    for (int i = 0; i < n; i++)
        forced = forced || list[i].captures;
    snprintf(err, errlen, "illegal move %s: the piece on %s has no legal move%s", text, sq,
             forced ? " (a capture is compulsory)" : "");
    return CHK_PARSE_ILLEGAL;
}
