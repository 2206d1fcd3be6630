/*
 * rules.c - rule sets: the golomb defaults, options set by name from text,
 * piece kinds defined by leap and ride vectors, and the derived ray tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const capture_names[] = { "mixed", "jumps", "all", "optional" };

const char *chk_capture_name(int capture)
{
    return capture >= 0 && capture < 4 ? capture_names[capture] : "?";
}

static int fail(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, a, b);
    return -1;
}

/* Sets what defines kind k (the fields chk_rules_key reads); the derived
 * tables are left as they are. */
static void set_kind_fields(chk_kind *k, char letter, int style, bool compulsory,
                            const int8_t (*leaps)[2], int nleaps,
                            const int8_t (*rides)[2], int nrides)
{
    k->letter = letter;
    k->style = (uint8_t)style;
    k->compulsory = compulsory;
    k->nleaps = (uint8_t)nleaps;
    k->nrides = (uint8_t)nrides;
    memset(k->leaps, 0, sizeof k->leaps);
    memset(k->rides, 0, sizeof k->rides);
    for (int i = 0; i < nleaps; i++) {
        k->leaps[i][0] = leaps[i][0];
        k->leaps[i][1] = leaps[i][1];
    }
    for (int i = 0; i < nrides; i++) {
        k->rides[i][0] = rides[i][0];
        k->rides[i][1] = rides[i][1];
    }
}

static void set_kind_vectors(chk_kind *k, char letter, int style, bool compulsory,
                             const int8_t (*leaps)[2], int nleaps,
                             const int8_t (*rides)[2], int nrides)
{
    memset(k, 0, sizeof *k);
    set_kind_fields(k, letter, style, compulsory, leaps, nleaps, rides, nrides);
}

void chk_rules_reset(chk_rules *r)
{
    static const int8_t diag[1][2] = { { 1, 1 } };
    static const int8_t camel[1][2] = { { 1, 3 } };
    r->majority = true;
    r->capture = CHK_CAPTURE_MIXED;
    r->promote = (1u << CHK_KING) | (1u << CHK_BISHOP) | (1u << CHK_CAMEL);
    r->first = CHK_BLACK;
    r->flying_kings = false;
    r->pawns_capture_backward = false;
    r->draw_repetition = 0;
    r->draw_quiet_plies = 0;
    r->nkinds = 4;
    set_kind_fields(&r->kinds[CHK_PAWN], 'P', CHK_STYLE_JUMP, true, NULL, 0, NULL, 0);
    /* the king's vectors are set by chk_rules_finish (flying or not) */
    set_kind_fields(&r->kinds[CHK_KING], 'K', CHK_STYLE_JUMP, true, diag, 1, NULL, 0);
    set_kind_fields(&r->kinds[CHK_BISHOP], 'B', CHK_STYLE_TAKE, false, NULL, 0, diag, 1);
    set_kind_fields(&r->kinds[CHK_CAMEL], 'C', CHK_STYLE_TAKE, false, camel, 1, NULL, 0);
    r->filter = NULL;
    r->result = NULL;
    r->hook_ud = NULL;
    r->finished = false;
}

void chk_rules_default(chk_rules *r)
{
    memset(r, 0, sizeof *r);
    chk_rules_reset(r);
    chk_rules_finish(r, NULL, 0);
}

int chk_rules_kind(const chk_rules *r, char letter)
{
    if (letter >= 'a' && letter <= 'z')
        letter = (char)(letter - 'a' + 'A');
    for (int k = 0; k < r->nkinds; k++)
        if (r->kinds[k].letter == letter)
            return k;
    return -1;
}

static int parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "1")) {
        *out = true;
        return 0;
    }
    if (!strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "no") || !strcmp(v, "0")) {
        *out = false;
        return 0;
    }
    return -1;
}

static int parse_int(const char *v, int *out)
{
    char *end;
    long n;
    if (!*v)
        return -1;
    n = strtol(v, &end, 10);
    if (*end || n < 0 || n > 1000000)
        return -1;
    *out = (int)n;
    return 0;
}

int chk_rules_set(chk_rules *r, const char *name, const char *v, char *err, size_t errlen)
{
    bool b;
    int n;
    r->finished = false;
    if (!strcmp(name, "majority") || !strcmp(name, "flying_kings")
        || !strcmp(name, "pawns_capture_backward")) {
        if (parse_bool(v, &b))
            return fail(err, errlen, "rule option %s must be true or false, not '%s'", name, v);
        if (name[0] == 'm')
            r->majority = b;
        else if (name[0] == 'f')
            r->flying_kings = b;
        else
            r->pawns_capture_backward = b;
        return 0;
    }
    if (!strcmp(name, "capture")) {
        for (int i = 0; i < 4; i++)
            if (!strcmp(v, capture_names[i])) {
                r->capture = (uint8_t)i;
                return 0;
            }
        return fail(err, errlen, "rule option %s must be mixed, jumps, all or optional, not '%s'", name, v);
    }
    if (!strcmp(name, "promote")) {
        unsigned mask = 0;
        if (!*v)
            return fail(err, errlen, "rule option %s must name at least one piece%s", name, "");
        for (const char *c = v; *c; c++) {
            int k = chk_rules_kind(r, *c);
            if (k < 0 || k == CHK_PAWN || (*c >= 'a' && *c <= 'z'))
                return fail(err, errlen, "rule option %s: a pawn cannot become '%s'", name, (char[]){ *c, 0 });
            if (mask & (1u << k))
                return fail(err, errlen, "rule option %s lists %s twice", name, (char[]){ *c, 0 });
            mask |= 1u << k;
        }
        r->promote = (uint8_t)mask;
        return 0;
    }
    if (!strcmp(name, "first")) {
        if (!strcmp(v, "black"))
            r->first = CHK_BLACK;
        else if (!strcmp(v, "white"))
            r->first = CHK_WHITE;
        else
            return fail(err, errlen, "rule option %s must be black or white, not '%s'", name, v);
        return 0;
    }
    if (!strcmp(name, "draw_repetition")) {
        if (parse_int(v, &n) || n == 1 || n > 65535)
            return fail(err, errlen, "rule option %s must be 0 (off) or a whole number from 2 to 65535, not '%s'", name, v);
        r->draw_repetition = n;
        return 0;
    }
    if (!strcmp(name, "draw_quiet_plies")) {
        if (parse_int(v, &n) || n > 65535)
            return fail(err, errlen, "rule option %s must be 0 (off) or a whole number from 1 to 65535, not '%s'", name, v);
        r->draw_quiet_plies = n;
        return 0;
    }
    return fail(err, errlen, "unknown rule option '%s'%s", name, "");
}

int chk_rules_parse(chk_rules *r, const char *text, char *err, size_t errlen)
{
    char name[64], value[64];
    const char *s = text;
    for (;;) {
        size_t n = 0, m = 0;
        while (*s == ' ' || *s == ',' || *s == '\t' || *s == '\n')
            s++;
        if (!*s)
            break;
        while (*s && *s != '=' && *s != ' ' && *s != ',' && n + 1 < sizeof name)
            name[n++] = *s++;
        name[n] = 0;
        if (*s != '=')
            return fail(err, errlen, "rule option '%s' needs =value%s", name, "");
        s++;
        while (*s && *s != ' ' && *s != ',' && *s != '\t' && *s != '\n' && m + 1 < sizeof value)
            value[m++] = *s++;
        value[m] = 0;
        if (*s && *s != ' ' && *s != ',' && *s != '\t' && *s != '\n')
            return fail(err, errlen, "rule option '%s': value too long%s", name, "");
        if (chk_rules_set(r, name, value, err, errlen))
            return -1;
    }
    return chk_rules_finish(r, err, errlen);
}

int chk_rules_set_kind(chk_rules *r, char letter, int style, bool compulsory,
                       const int8_t (*leaps)[2], int nleaps,
                       const int8_t (*rides)[2], int nrides, char *err, size_t errlen)
{
    char l[2] = { letter, 0 };
    int k;
    r->finished = false;
    if (letter >= 'a' && letter <= 'z')
        l[0] = letter = (char)(letter - 'a' + 'A');
    if (letter < 'A' || letter > 'Z')
        return fail(err, errlen, "piece kind '%s' must be a letter%s", l, "");
    if (letter == 'P' || letter == 'K')
        return fail(err, errlen, "piece kind '%s' cannot be redefined (only B, C and new kinds)%s", l, "");
    if (style != CHK_STYLE_TAKE && style != CHK_STYLE_JUMP)
        return fail(err, errlen, "piece kind '%s': bad capture style%s", l, "");
    if (nleaps < 0 || nrides < 0 || nleaps > 8 || nrides > 8)
        return fail(err, errlen, "piece kind '%s': at most 8 leap and 8 ride vectors%s", l, "");
    if (nleaps + nrides == 0)
        return fail(err, errlen, "piece kind '%s' needs at least one leap or ride vector%s", l, "");
    for (int i = 0; i < nleaps + nrides; i++) {
        const int8_t *v = i < nleaps ? leaps[i] : rides[i - nleaps];
        char vs[32];
        snprintf(vs, sizeof vs, "{%d,%d}", v[0], v[1]);
        if (v[0] < -7 || v[0] > 7 || v[1] < -7 || v[1] > 7 || (v[0] == 0 && v[1] == 0))
            return fail(err, errlen, "piece kind '%s': vector %s is outside the board", l, vs);
        if ((v[0] + v[1]) % 2 != 0)
            return fail(err, errlen, "piece kind '%s': vector %s leaves the dark squares (a + b must be even)", l, vs);
    }
    k = chk_rules_kind(r, letter);
    if (k < 0) {
        if (r->nkinds >= CHK_MAX_KINDS)
            return fail(err, errlen, "piece kind '%s': too many piece kinds (at most 4 new ones)%s", l, "");
        k = r->nkinds++;
    }
    set_kind_vectors(&r->kinds[k], letter, style, compulsory, leaps, nleaps, rides, nrides);
    return 0;
}

/* Adds the symmetries of (a, b) to k's directions; -1 when there are too many. */
static int add_dirs(chk_kind *k, int a, int b, bool ride)
{
    int sym[8][2] = { { a, b }, { -a, b }, { a, -b }, { -a, -b },
                      { b, a }, { -b, a }, { b, -a }, { -b, -a } };
    for (int i = 0; i < 8; i++) {
        int dup = 0;
        for (int d = 0; d < k->ndirs; d++)
            if (k->dir[d][0] == sym[i][0] && k->dir[d][1] == sym[i][1]) {
                dup = 1;
                k->dir_ride[d] = k->dir_ride[d] || ride;
            }
        if (dup)
            continue;
        if (k->ndirs >= CHK_MAX_DIRS)
            return -1;
        k->dir[k->ndirs][0] = (int8_t)sym[i][0];
        k->dir[k->ndirs][1] = (int8_t)sym[i][1];
        k->dir_ride[k->ndirs] = ride;
        k->ndirs++;
    }
    return 0;
}

static int derive_kind(chk_kind *k)
{
    k->ndirs = 0;
    for (int i = 0; i < k->nleaps; i++)
        if (add_dirs(k, k->leaps[i][0], k->leaps[i][1], false))
            return -1;
    for (int i = 0; i < k->nrides; i++)
        if (add_dirs(k, k->rides[i][0], k->rides[i][1], true))
            return -1;
    k->nride_dirs = 0;
    for (int d = 0; d < k->ndirs; d++)
        if (k->dir_ride[d])
            k->ride_dir[k->nride_dirs++] = (uint8_t)d;
    for (int d = 0; d < k->ndirs; d++)
        k->dir_up[d] = k->dir[d][1] > 0 || (k->dir[d][1] == 0 && k->dir[d][0] > 0);
    for (int sq = 0; sq < CHK_SQUARES; sq++) {
        k->leap_to[sq] = 0;
        for (int d = 0; d < k->ndirs; d++) {
            int f = chk_sq_file(sq), rk = chk_sq_rank(sq), n = 0;
            for (;;) {
                f += k->dir[d][0];
                rk += k->dir[d][1];
                int t = chk_sq_from_fr(f, rk);
                if (t < 0 || n == 8)
                    break;
                k->ray[sq][d][n++] = (uint8_t)t;
            }
            k->ray_len[sq][d] = (uint8_t)n;
            k->ray_bb[sq][d] = 0;
            for (int i = 0; i < n; i++)
                k->ray_bb[sq][d] |= BB(k->ray[sq][d][i]);
            if (n && !k->dir_ride[d])
                k->leap_to[sq] |= BB(k->ray[sq][d][0]);
        }
    }
    return 0;
}

int chk_rules_finish(chk_rules *r, char *err, size_t errlen)
{
    static const int8_t diag[1][2] = { { 1, 1 } };
    chk_kind *king = &r->kinds[CHK_KING];
    r->finished = false;
    if (r->flying_kings)
        set_kind_vectors(king, 'K', CHK_STYLE_JUMP, true, NULL, 0, diag, 1);
    else
        set_kind_vectors(king, 'K', CHK_STYLE_JUMP, true, diag, 1, NULL, 0);
    if (r->capture > CHK_CAPTURE_OPTIONAL)
        return fail(err, errlen, "bad capture option%s%s", "", "");
    if (r->draw_repetition == 1 || r->draw_repetition < 0 || r->draw_quiet_plies < 0)
        return fail(err, errlen, "bad draw option%s%s", "", "");
    if (!r->promote || (r->promote & 1u) || (r->promote >> r->nkinds))
        return fail(err, errlen, "rule option promote must name at least one piece kind other than P%s%s", "", "");
    for (int k = 1; k < r->nkinds; k++)
        if (derive_kind(&r->kinds[k])) {
            char l[2] = { r->kinds[k].letter, 0 };
            return fail(err, errlen, "piece kind '%s' has more than 16 directions%s", l, "");
        }
    r->compulsory_takes = false;
    for (int k = 2; k < r->nkinds; k++)
        if (r->kinds[k].style == CHK_STYLE_TAKE && r->kinds[k].compulsory)
            r->compulsory_takes = true;
    for (int pc = 0; pc < 16; pc++)
        for (int sq = 0; sq < CHK_SQUARES; sq++)
            r->zobrist[pc][sq] = zob_piece(pc, sq);
    r->fast_count = chk__fast_rules(r);
    r->finished = true;
    return 0;
}

size_t chk_rules_to_text(const chk_rules *r, char *buf, size_t n)
{
    char promo[CHK_MAX_KINDS + 1];
    int np = 0;
    for (int k = 1; k < r->nkinds; k++)
        if (r->promote & (1u << k))
            promo[np++] = r->kinds[k].letter;
    promo[np] = 0;
    int len = snprintf(buf, n,
                       "majority=%s capture=%s promote=%s first=%s flying_kings=%s "
                       "pawns_capture_backward=%s draw_repetition=%d draw_quiet_plies=%d",
                       r->majority ? "true" : "false", chk_capture_name(r->capture), promo,
                       r->first == CHK_WHITE ? "white" : "black",
                       r->flying_kings ? "true" : "false",
                       r->pawns_capture_backward ? "true" : "false",
                       r->draw_repetition, r->draw_quiet_plies);
    return len < 0 ? 0 : (size_t)len;
}

size_t chk_rules_key(const chk_rules *r, unsigned char *buf)
{
    size_t n = 0;
    int nkinds = r->nkinds < CHK_MAX_KINDS ? r->nkinds : CHK_MAX_KINDS;
    buf[n++] = r->majority;
    buf[n++] = r->capture;
    buf[n++] = r->promote;
    buf[n++] = r->first;
    buf[n++] = r->flying_kings;
    buf[n++] = r->pawns_capture_backward;
    for (int i = 0; i < 8; i++)
        buf[n++] = (unsigned char)((uint32_t)(i < 4 ? r->draw_repetition : r->draw_quiet_plies) >> (8 * (i % 4)));
    buf[n++] = (unsigned char)nkinds;
    /* pawns and kings are fixed by the rule book (kings by flying_kings) */
    for (int k = CHK_BISHOP; k < nkinds; k++) {
        const chk_kind *kd = &r->kinds[k];
        int nl = kd->nleaps < 8 ? kd->nleaps : 8, nr = kd->nrides < 8 ? kd->nrides : 8;
        buf[n++] = (unsigned char)kd->letter;
        buf[n++] = kd->style;
        buf[n++] = kd->compulsory;
        buf[n++] = (unsigned char)nl;
        buf[n++] = (unsigned char)nr;
        memcpy(buf + n, kd->leaps, (size_t)nl * 2);
        n += (size_t)nl * 2;
        memcpy(buf + n, kd->rides, (size_t)nr * 2);
        n += (size_t)nr * 2;
    }
    return n;   /* at most 15 + 6 * (5 + 32) = 237 */
}
