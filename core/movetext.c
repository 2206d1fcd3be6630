/*
 * movetext.c - move text (docs/reference/rules.md "Text formats"): writing moves, and
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

/* Ends the move text out (len characters, room for 3 more) with "=" and
 * the promotion letter promo (0: none) and copies it into buf as snprintf
 * would (at most n bytes, cut short, ending with a zero byte when n > 0).
 * Returns the length of the whole text. */
static size_t end_text(char *out, size_t len, char promo, char *buf, size_t n)
{
    if (promo) {
        out[len++] = '=';
        out[len++] = promo;
    }
    out[len] = 0;
    if (n) {
        size_t c = len < n - 1 ? len : n - 1;
        memcpy(buf, out, c);
        buf[c] = 0;
    }
    return len;
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
    return end_text(out, len, m->promo != CHK_NONE ? kind_letter(p, m->promo) : 0, buf, n);
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

/* ---- reading the shape of move text --------------------------------------
 *
 * One grammar for every reader (docs/reference/rules.md "Move text"): a word is
 *   [piece letter] name (separator name)... [[=] promotion letter]
 * where a name is a letter and digits ("e5", "E5", "e9", "i1", "e10": only
 * a..h with 1..8 on a dark square is a square), a separator a run of
 * - x X : (one of them; "d6--e5" is refused with the text to write), and two
 * names written together ("b6a5") are refused the same way. The shape needs
 * the rule set only (its piece and promotion letters), never a position.
 */

static bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_sep(char c) { return c == '-' || c == 'x' || c == 'X' || c == ':'; }
static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static bool is_name(const char *t) { return is_letter(t[0]) && is_digit(t[1]); }

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* The text as the messages quote it: without the blanks around it, at most
 * 40 characters. */
typedef struct quoted {
    const char *s;
    int len;
} quoted;

static quoted quote_of(const char *t)
{
    quoted q;
    size_t n;
    while (*t == ' ' || *t == '\t')
        t++;
    n = strlen(t);
    while (n > 0 && is_blank(t[n - 1]))
        n--;
    q.s = t;
    q.len = n < 40 ? (int)n : 40;
    return q;
}

/* Writes "K, B or C": the letters of the kinds a pawn may become under r. */
static void promo_letters(const chk_rules *r, char *out, size_t n)
{
    int k, count = 0, done = 0;
    size_t len = 0;
    for (k = 1; k < r->nkinds; k++)
        count += (r->promote >> k) & 1;
    out[0] = 0;
    for (k = 1; k < r->nkinds && len + 6 < n; k++) {
        if (!((r->promote >> k) & 1))
            continue;
        done++;
        len += (size_t)snprintf(out + len, n - len, "%s%c",
                                done == 1 ? "" : done == count ? " or " : ", ", r->kinds[k].letter);
    }
}

/* Writes "P, K, B or C": every piece letter of r. */
static void piece_letters(const chk_rules *r, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
    for (int k = 0; k < r->nkinds && len + 6 < n; k++)
        len += (size_t)snprintf(out + len, n - len, "%s%c",
                                k == 0 ? "" : k == r->nkinds - 1 ? " or " : ", ", r->kinds[k].letter);
}

size_t chk_shape_text(const chk_rules *r, const chk_shape *s, char *buf, size_t n)
{
    char out[4 + 3 * (CHK_MAX_PATH + 1) + 4];
    size_t len = 0;
    if (s->piece >= 0)
        out[len++] = r->kinds[s->piece].letter;
    for (int i = 0; i < s->nsq; i++) {
        if (i)
            out[len++] = s->sep[i - 1];
        chk_sq_name(s->sq[i], out + len);
        len += 2;
    }
    return end_text(out, len, s->promo >= 0 ? r->kinds[s->promo].letter : 0, buf, n);
}

/* What the reader found in a word, before it is judged. */
typedef struct scan {
    char piece;                 /* the leading letter, or 0 */
    int nnames;
    const char *name[CHK_MAX_PATH + 2];
    int namelen[CHK_MAX_PATH + 2];
    bool doubled, joined;       /* a run of separators; two names written together */
    char promo;                 /* the promotion letter, or 0 */
    const char *after;          /* text after the move (not blank), or NULL */
    bool no_end;                /* a separator with nothing after it */
    const char *bad_name;       /* a letter run after a separator ("d6-e"), or NULL */
    int bad_len;
} scan;

/* Scans t as move text; CHK_SHAPE_NONE when it is no move text at all (Lua,
 * a number, an assignment "a1=5"), else CHK_SHAPE_MOVE with *x filled. */
static int scan_text(const char *t, chk_shape *s, scan *x)
{
    while (*t == ' ' || *t == '\t')
        t++;
    if (is_letter(t[0]) && is_name(t + 1))
        x->piece = *t++;
    for (;;) {
        if (!is_name(t)) {
            if (x->nnames == 0)
                return CHK_SHAPE_NONE;
            /* after a separator */
            if (*t == 0 || is_blank(*t)) {
                x->no_end = true;
            } else if (is_letter(*t)) {
                x->bad_name = t;
                while (is_letter(t[x->bad_len]) || is_digit(t[x->bad_len]))
                    x->bad_len++;
            } else {
                return CHK_SHAPE_NONE;      /* "n1-1": arithmetic */
            }
            return CHK_SHAPE_MOVE;
        }
        if (x->nnames < CHK_MAX_PATH + 2) {
            x->name[x->nnames] = t;
            x->namelen[x->nnames] = 1;
        }
        for (t++; is_digit(*t); t++)
            if (x->nnames < CHK_MAX_PATH + 2)
                x->namelen[x->nnames]++;
        x->nnames++;
        if (is_sep(*t)) {
            char c = *t;
            int run = 0;
            for (; is_sep(*t); t++)
                run++;
            x->doubled = x->doubled || run > 1;
            if (x->nnames <= CHK_MAX_PATH)
                s->sep[x->nnames - 1] = c == '-' ? '-' : 'x';
            if (c == '-')
                s->any_dash = true;
            else
                s->any_x = true;
        } else if (is_name(t)) {
            x->joined = true;
            if (x->nnames <= CHK_MAX_PATH)
                s->sep[x->nnames - 1] = '-';
        } else {
            break;
        }
    }
    if (t[0] == '=' && is_letter(t[1]) && (t[2] == 0 || is_blank(t[2]))
        && (x->nnames > 1 || (t[1] >= 'A' && t[1] <= 'Z'))) {
        /* "e5=q" alone is a Lua assignment; "e5=Q" is a promotion */
        x->promo = t[1];
        t += 2;
    } else if (x->nnames > 1 && is_letter(t[0]) && (t[1] == 0 || is_blank(t[1]))) {
        x->promo = *t++;
    }
    while (is_blank(*t))
        t++;
    if (x->nnames == 1 && (*t || !x->promo)) {
        /* one name: a square alone, or Lua ("x1", "a1=5", "e5(", "Kb8") */
        char sq[2] = { lower(x->name[0][0]), x->name[0][1] };
        if (*t || x->piece || x->namelen[0] != 2 || chk_sq_parse(sq) < 0)
            return CHK_SHAPE_NONE;
    } else if (*t) {
        x->after = t;
    }
    return CHK_SHAPE_MOVE;
}

/* A malformed word: its fault noted in s. */
static int bad_shape(chk_shape *s, int fault)
{
    s->fault = (uint8_t)fault;
    return CHK_SHAPE_BAD;
}

int chk_read_move_text(const chk_rules *r, const char *text, chk_shape *s, char *err, size_t errlen)
{
    char tmp[160], letters[40], fixed[4 + 3 * (CHK_MAX_PATH + 1) + 4];
    scan x;
    quoted q;
    memset(s, 0, sizeof *s);
    memset(&x, 0, sizeof x);
    s->piece = s->promo = -1;
    if (!err || !errlen) {
        err = tmp;
        errlen = sizeof tmp;
    }
    err[0] = 0;
    if (!text || scan_text(text, s, &x) == CHK_SHAPE_NONE)
        return CHK_SHAPE_NONE;
    q = quote_of(text);
    if (x.piece) {
        s->piece = chk_rules_kind(r, x.piece);
        if (s->piece < 0) {
            piece_letters(r, letters, sizeof letters);
            snprintf(err, errlen, "%c is not a piece letter (%s)", x.piece, letters);
            return bad_shape(s, CHK_FAULT_PIECE);
        }
    }
    if (x.nnames > CHK_MAX_PATH + 1) {
        snprintf(err, errlen, "%.*s is not move text: a move has at most %d squares", q.len, q.s,
                 CHK_MAX_PATH + 1);
        return bad_shape(s, CHK_FAULT_LENGTH);
    }
    for (int i = 0; i < x.nnames; i++) {
        const char *nm = x.name[i];
        char sq[2] = { lower(nm[0]), nm[1] };
        int idx = x.namelen[i] == 2 ? chk_sq_parse(sq) : -1;
        if (idx < 0) {
            bool on_board = x.namelen[i] == 2 && sq[0] >= 'a' && sq[0] <= 'h' && sq[1] >= '1'
                            && sq[1] <= '8';
            snprintf(err, errlen, on_board ? "%.*s is a light square" : "%.*s is not a square",
                     x.namelen[i] < 12 ? x.namelen[i] : 12, nm);
            return bad_shape(s, on_board ? CHK_FAULT_LIGHT : CHK_FAULT_SQUARE);
        }
        s->sq[s->nsq++] = (uint8_t)idx;
    }
    if (x.bad_name) {
        snprintf(err, errlen, "%.*s is not a square", x.bad_len < 12 ? x.bad_len : 12, x.bad_name);
        return bad_shape(s, CHK_FAULT_SQUARE);
    }
    if (x.promo) {
        s->promo = chk_rules_kind(r, x.promo);
        if (s->promo <= 0 || !((r->promote >> s->promo) & 1)) {
            promo_letters(r, letters, sizeof letters);
            snprintf(err, errlen, "promotion is to %s, not %c", letters, x.promo);
            s->promo = -1;
            return bad_shape(s, CHK_FAULT_PROMOTION);
        }
    }
    if (x.after) {
        int n = (int)(q.s + q.len - x.after);
        snprintf(err, errlen, "%.*s is not move text: '%.*s' after the move", q.len, q.s,
                 n > 0 ? n : 0, x.after);
        return bad_shape(s, CHK_FAULT_AFTER);
    }
    if ((x.doubled || x.joined) && !x.no_end) {
        chk_shape_text(r, s, fixed, sizeof fixed);
        snprintf(err, errlen, "%.*s is not move text: write %s", q.len, q.s, fixed);
        return bad_shape(s, CHK_FAULT_SPELLING);
    }
    if (x.no_end || (s->nsq < 2 && s->promo >= 0)) {
        snprintf(err, errlen, "%.*s is not move text: a move needs a start and an end square",
                 q.len, q.s);
        return bad_shape(s, CHK_FAULT_END);
    }
    return s->nsq < 2 ? CHK_SHAPE_SQUARE : CHK_SHAPE_MOVE;
}

static bool exact_path(const chk_move *m, const chk_shape *x)
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
static bool path_matches(const chk_pos *p, const chk_move *m, const chk_shape *x)
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
    chk_shape x;
    char shown[4 + 3 * (CHK_MAX_PATH + 1) + 4];
    int shape;
    if (!err || !errlen) {
        err = tmp;
        errlen = sizeof tmp;
    }
    err[0] = 0;
    if (!text) {
        snprintf(err, errlen, "no move text");
        return CHK_PARSE_BAD_TEXT;
    }
    shape = chk_read_move_text(p->rules, text, &x, err, errlen);
    if (shape != CHK_SHAPE_MOVE) {
        quoted q = quote_of(text);
        if (shape == CHK_SHAPE_SQUARE)
            snprintf(err, errlen, "%.*s is not move text: a move needs a start and an end square",
                     q.len, q.s);
        else if (shape == CHK_SHAPE_NONE && q.len == 0)
            snprintf(err, errlen, "no move text");
        else if (shape == CHK_SHAPE_NONE)
            snprintf(err, errlen, "%.*s is not move text", q.len, q.s);
        return CHK_PARSE_BAD_TEXT;
    }
    chk_shape_text(p->rules, &x, shown, sizeof shown);
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
        snprintf(err, errlen, "ambiguous move %s: it could be ", shown);
        list_moves(p, list, idx, nc, err, errlen);
        return CHK_PARSE_ILLEGAL;
    }
    if (n == 0) {
        snprintf(err, errlen, "illegal move %s: the game is over", shown);
        return CHK_PARSE_ILLEGAL;
    }
    chk_sq_name(from, sq);
    int pc = p->sq[from];
    if (pc == CHK_NONE) {
        snprintf(err, errlen, "illegal move %s: no piece on %s", shown, sq);
        return CHK_PARSE_ILLEGAL;
    }
    if (CHK_PIECE_COLOR(pc) != p->side) {
        snprintf(err, errlen, "illegal move %s: the piece on %s is not %s's", shown, sq,
                 p->side == CHK_WHITE ? "White" : "Black");
        return CHK_PARSE_ILLEGAL;
    }
    for (int i = 0; i < n; i++)
        if (list[i].from == from)
            idx[nc++] = i;
    if (nc) {
        snprintf(err, errlen, "illegal move %s: legal moves from %s are ", shown, sq);
        list_moves(p, list, idx, nc, err, errlen);
        return CHK_PARSE_ILLEGAL;
    }
    bool forced = false;
    for (int i = 0; i < n; i++)
        forced = forced || list[i].captures;
    snprintf(err, errlen, "illegal move %s: the piece on %s has no legal move%s", shown, sq,
             forced ? " (a capture is compulsory)" : "");
    return CHK_PARSE_ILLEGAL;
}
