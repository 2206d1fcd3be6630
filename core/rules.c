/*
 * rules.c - rule sets: the golomb defaults; the name=value text grammar (the
 * one reader of rules text and of bot options) and the rule options set from
 * it, with messages that echo the value and suggest a near name; piece kinds
 * defined by leap and ride vectors, and the derived ray tables.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int chk__fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
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

/* ---- name=value text ---------------------------------------------------- */

#define SHOWN 192   /* room for a value as messages echo it */

/* Writes s (len bytes) as messages echo a value into buf (SHOWN bytes):
 * 'quoted', clipped to 40 bytes, with ', \ and control or non-ASCII bytes
 * as \ddd (the form of cheskers.schema's show); unquoted when quote is
 * false (numbers and booleans, as written). Returns buf. */
static const char *show(char *buf, const char *s, size_t len, bool quote)
{
    size_t n = 0, i, clip = len > 40 ? 40 : len;
    if (quote)
        buf[n++] = '\'';
    for (i = 0; i < clip; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 32 || c >= 127 || c == '\'' || c == '\\')
            n += (size_t)snprintf(buf + n, SHOWN - n, "\\%u", c);
        else
            buf[n++] = (char)c;
    }
    if (clip < len) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    if (quote)
        buf[n++] = '\'';
    buf[n] = '\0';
    return buf;
}

/* The value of o as messages echo it. */
static const char *show_value(char *buf, const chk_option *o)
{
    bool quote = o->type == CHK_VALUE_TEXT || o->type == CHK_VALUE_DATA || o->type == CHK_VALUE_NONE;
    return show(buf, o->value, o->value_len, quote);
}

static bool is_sep(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_name(const char *s, size_t len)
{
    size_t i;
    if (len == 0 || is_digit(s[0]))
        return false;
    for (i = 0; i < len; i++)
        if (!(s[i] == '_' || is_digit(s[i]) || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
            return false;
    return true;
}

/* 1 when s (n bytes) is a whole number ([+-]digits), 2 a number with a
 * point or an exponent, else 0. */
static int number_kind(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    int kind = 1;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    for (; i < n && is_digit(s[i]); i++)
        digits++;
    if (i < n && s[i] == '.') {
        kind = 2;
        for (i++; i < n && is_digit(s[i]); i++)
            digits++;
    }
    if (digits == 0)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t e;
        kind = 2;
        if (++i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        for (e = i; i < n && is_digit(s[i]); i++)
            ;
        if (i == e)
            return 0;
    }
    return i == n ? kind : 0;
}

void chk_option_type(chk_option *o)
{
    const char *s = o->value;
    size_t n = o->value_len;
    char buf[128];
    int kind = number_kind(s, n);
    o->type = CHK_VALUE_TEXT;
    if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 5 && memcmp(s, "false", 5) == 0)) {
        o->type = CHK_VALUE_BOOL;
        o->b = n == 4;
        return;
    }
    if (kind == 0 || n >= sizeof buf)
        return;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (kind == 1) {
        errno = 0;
        o->i = strtoll(buf, NULL, 10);
        if (errno != ERANGE) {
            o->type = CHK_VALUE_INT;
            return;
        }
    }
    o->type = CHK_VALUE_NUMBER;
    o->f = strtod(buf, NULL);
}

/* The end of the {...} starting at s (quoted parts skipped): the byte after
 * its closing brace, or NULL when it is not closed. */
static const char *brace_end(const char *s)
{
    int depth = 0;
    for (; *s; s++) {
        if (*s == '\'' || *s == '"') {
            const char *q = strchr(s + 1, *s);
            if (!q)
                return NULL;
            s = q;
        } else if (*s == '{') {
            depth++;
        } else if (*s == '}' && --depth == 0) {
            return s + 1;
        }
    }
    return NULL;
}

int chk_option_next(const char *text, size_t *pos, const char *what, chk_option *o,
                    char *err, size_t errlen)
{
    const char *s = text + *pos, *w, *v, *after;
    char nb[SHOWN];
    memset(o, 0, sizeof *o);
    while (is_sep(*s))
        s++;
    if (!*s) {
        *pos = (size_t)(s - text);
        return 0;
    }
    for (w = s; *s && !is_sep(*s) && *s != '='; s++)
        ;
    o->name = o->value = w;
    o->name_len = o->value_len = (size_t)(s - w);
    after = s;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s != '=') {            /* a word alone */
        o->type = CHK_VALUE_NONE;
        *pos = (size_t)(after - text);
        return 1;
    }
    if (!is_name(o->name, o->name_len))
        return chk__fail(err, errlen, "%s name %s must be a letter or _, then letters, digits or _", what,
                    show(nb, o->name, o->name_len, true));
    show(nb, o->name, o->name_len, true);
    for (s++; *s == ' ' || *s == '\t'; s++)
        ;
    v = s;
    if (*v == '\'' || *v == '"') {
        const char *q = strchr(v + 1, *v);
        if (!q)
            return chk__fail(err, errlen, "%s %s: the quote %c is not closed", what, nb, *v);
        o->value = v + 1;
        o->value_len = (size_t)(q - v - 1);
        o->type = CHK_VALUE_TEXT;
        s = q + 1;
    } else if (*v == '{') {
        s = brace_end(v);
        if (!s)
            return chk__fail(err, errlen, "%s %s: the { is not closed", what, nb);
        o->value = v;
        o->value_len = (size_t)(s - v);
        o->type = CHK_VALUE_DATA;
    } else {
        for (; *s && !is_sep(*s); s++)
            ;
        if (s == v)
            return chk__fail(err, errlen, "%s %s has no value after =", what, nb);
        o->value = v;
        o->value_len = (size_t)(s - v);
        chk_option_type(o);
    }
    if (*s && !is_sep(*s))
        return chk__fail(err, errlen, "%s %s: a space or comma must follow its value, not '%c'", what, nb, *s);
    *pos = (size_t)(s - text);
    return 1;
}

/* ---- rules as text ------------------------------------------------------- */

static const char *const capture_names[] = { "mixed", "jumps", "all", "optional" };
static const char *const first_names[] = { "black", "white" };
static const char *const presets[] = { "golomb" };

enum { OPT_MAJORITY, OPT_CAPTURE, OPT_PROMOTE, OPT_FIRST, OPT_FLYING_KINGS, OPT_BACKWARD,
       OPT_REPETITION, OPT_QUIET, OPT_START, OPT_PIECES, NOPTIONS };
static const char *const option_names[NOPTIONS] = {
    "majority", "capture", "promote", "first", "flying_kings", "pawns_capture_backward",
    "draw_repetition", "draw_quiet_plies", "start", "pieces"
};
/* How to write each option, for a name written alone (NULL: true or false). */
static const char *const option_example[NOPTIONS] = {
    NULL, "jumps", "K", "white", NULL, NULL, "3", "50", "'7k/8/8/8/8/8/8/K7 w'", "{C={leaps={{1,5}}}}"
};

const char *chk_capture_name(int capture)
{
    return capture >= 0 && capture < 4 ? capture_names[capture] : "?";
}

static int option_index(const char *name, size_t len)
{
    for (int i = 0; i < NOPTIONS; i++)
        if (strlen(option_names[i]) == len && memcmp(option_names[i], name, len) == 0)
            return i;
    return -1;
}

/* The index of o's value in names[0 .. n-1], or -1. */
static int value_index(const chk_option *o, const char *const names[], int n)
{
    for (int i = 0; i < n; i++)
        if (o->type == CHK_VALUE_TEXT && strlen(names[i]) == o->value_len
            && memcmp(names[i], o->value, o->value_len) == 0)
            return i;
    return -1;
}

/* "name must be ALLOWED, not VALUE" with a suggestion among names (n of
 * them) when the value is text. */
static int wrong_value(const chk_option *o, int opt, const char *allowed, const char *const names[],
                       int n, char *err, size_t errlen)
{
    char vb[SHOWN], hint[80] = "";
    if (o->type == CHK_VALUE_TEXT)
        chk_did_you_mean(hint, sizeof hint, o->value, o->value_len, names, n);
    return chk__fail(err, errlen, "%s must be %s, not %s%s", option_names[opt], allowed, show_value(vb, o), hint);
}

/* A whole number from least to 65535 (or 0: off) into *out (unless NULL). */
static int set_count(int *out, const chk_option *o, int opt, int least, char *err, size_t errlen)
{
    if (o->type != CHK_VALUE_INT || o->i < 0 || o->i > 65535 || (o->i > 0 && o->i < least))
        return wrong_value(o, opt, least > 1 ? "0 (off) or a whole number from 2 to 65535"
                                             : "a whole number from 0 to 65535", NULL, 0, err, errlen);
    if (out)
        *out = (int)o->i;
    return 0;
}

/* promote: letters of r's kinds other than P, each once. Without r (text
 * read, not yet applied) any upper-case letter but P may stand for a kind
 * that pieces adds. */
static int set_promote(chk_rules *r, const chk_option *o, char *err, size_t errlen)
{
    char allowed[96] = "letters of the kinds a pawn may become (", letters[CHK_MAX_KINDS + 1] = "KBC";
    unsigned mask = 0, seen = 0;
    size_t i, n = strlen(allowed);
    for (int k = 1; r && k < r->nkinds; k++) {
        letters[k - 1] = r->kinds[k].letter;
        letters[k] = '\0';
    }
    for (i = 0; letters[i]; i++)
        n += (size_t)snprintf(allowed + n, sizeof allowed - n, "%s%c", i ? ", " : "", letters[i]);
    snprintf(allowed + n, sizeof allowed - n, ")");
    if (o->type != CHK_VALUE_TEXT || o->value_len == 0)
        return wrong_value(o, OPT_PROMOTE, allowed, NULL, 0, err, errlen);
    for (i = 0; i < o->value_len; i++) {
        char c = o->value[i];
        int k = c >= 'A' && c <= 'Z' && c != 'P' ? (r ? chk_rules_kind(r, c) : 0) : -1;
        if (k < 0)
            return wrong_value(o, OPT_PROMOTE, allowed, NULL, 0, err, errlen);
        if (seen & (1u << (c - 'A')))
            return chk__fail(err, errlen, "promote lists %c twice", c);
        seen |= 1u << (c - 'A');
        mask |= 1u << k;
    }
    if (r)
        r->promote = (uint8_t)mask;
    return 0;
}

/* Checks the value of option opt (o), and sets it in r unless r is NULL. */
static int apply_option(chk_rules *r, int opt, const chk_option *o, char *err, size_t errlen)
{
    int v;
    if (o->type == CHK_VALUE_NONE)
        return chk__fail(err, errlen, "rule option '%s' has no value", option_names[opt]);
    switch (opt) {
    case OPT_MAJORITY:
    case OPT_FLYING_KINGS:
    case OPT_BACKWARD:
        if (o->type != CHK_VALUE_BOOL)
            return wrong_value(o, opt, "true or false", NULL, 0, err, errlen);
        if (r == NULL)
            return 0;
        if (opt == OPT_MAJORITY)
            r->majority = o->b;
        else if (opt == OPT_FLYING_KINGS)
            r->flying_kings = o->b;
        else
            r->pawns_capture_backward = o->b;
        return 0;
    case OPT_CAPTURE:
        if ((v = value_index(o, capture_names, 4)) < 0)
            return wrong_value(o, opt, "one of 'mixed', 'jumps', 'all', 'optional'", capture_names, 4, err, errlen);
        if (r)
            r->capture = (uint8_t)v;
        return 0;
    case OPT_FIRST:
        if ((v = value_index(o, first_names, 2)) < 0)
            return wrong_value(o, opt, "'black' or 'white'", first_names, 2, err, errlen);
        if (r)
            r->first = v ? CHK_WHITE : CHK_BLACK;
        return 0;
    case OPT_PROMOTE:
        return set_promote(r, o, err, errlen);
    case OPT_REPETITION:
        return set_count(r ? &r->draw_repetition : NULL, o, opt, 2, err, errlen);
    case OPT_QUIET:
        return set_count(r ? &r->draw_quiet_plies : NULL, o, opt, 0, err, errlen);
    case OPT_START:
        if (o->type != CHK_VALUE_TEXT)
            return wrong_value(o, opt, "a position text", NULL, 0, err, errlen);
        break;
    default:
        if (o->type != CHK_VALUE_DATA)
            return wrong_value(o, opt, "a table of piece kinds {...}", NULL, 0, err, errlen);
        break;
    }
    if (r)      /* start and pieces */
        return chk__fail(err, errlen, "rule option '%s' is read by the Lua module (cheskers.rules), not the core",
                    option_names[opt]);
    return 0;
}

int chk_rules_set_option(chk_rules *r, const chk_option *o, char *err, size_t errlen)
{
    char nb[SHOWN], hint[80];
    int opt = option_index(o->name, o->name_len);
    r->finished = false;
    if (opt < 0)
        return chk__fail(err, errlen, "unknown rule option %s%s", show(nb, o->name, o->name_len, true),
                    chk_did_you_mean(hint, sizeof hint, o->name, o->name_len, option_names, NOPTIONS));
    return apply_option(r, opt, o, err, errlen);
}

int chk_rules_set(chk_rules *r, const char *name, const char *value, char *err, size_t errlen)
{
    chk_option o;
    memset(&o, 0, sizeof o);
    o.name = name;
    o.name_len = strlen(name);
    o.value = value;
    o.value_len = strlen(value);
    chk_option_type(&o);
    return chk_rules_set_option(r, &o, err, errlen);
}

#define NPRESETS ((int)(sizeof presets / sizeof presets[0]))

/* The index of preset name (len bytes), or -1 with a message. */
static int preset_index(const char *name, size_t len, char *err, size_t errlen)
{
    char nb[SHOWN], hint[80];
    for (int i = 0; i < NPRESETS; i++)
        if (strlen(presets[i]) == len && memcmp(presets[i], name, len) == 0)
            return i;
    return chk__fail(err, errlen, "unknown rules preset %s%s", show(nb, name, len, true),
                chk_did_you_mean(hint, sizeof hint, name, len, presets, NPRESETS));
}

int chk_rules_preset(chk_rules *r, const char *name, size_t len, char *err, size_t errlen)
{
    if (preset_index(name, len, err, errlen) < 0)
        return -1;
    chk_rules_default(r);       /* golomb, the only preset */
    return 0;
}

/* The message for a word of text written without =value. */
static int word_alone(const char *text, const chk_option *o, char *err, size_t errlen)
{
    char tb[SHOWN], nb[SHOWN], hint[80];
    int opt = option_index(o->name, o->name_len);
    const char *name = opt >= 0 ? option_names[opt] : NULL;
    if (opt < 0)
        return chk__fail(err, errlen, "cannot read rule spec %s: %s is not written name=value%s",
                    show(tb, text, strlen(text), true), show(nb, o->name, o->name_len, true),
                    chk_did_you_mean(hint, sizeof hint, o->name, o->name_len, option_names, NOPTIONS));
    if (!option_example[opt])
        return chk__fail(err, errlen, "rule option '%s' is not written name=value: write %s=true or %s=false",
                    name, name, name);
    return chk__fail(err, errlen, "rule option '%s' is not written name=value: write %s=%s, for example",
                name, name, option_example[opt]);
}

int chk_rules_next(const char *text, size_t *pos, unsigned *seen, chk_option *o,
                   char *err, size_t errlen)
{
    char vb[SHOWN], hint[80];
    bool first = *pos == 0;
    int opt, rc = chk_option_next(text, pos, "rule option", o, err, errlen);
    if (rc <= 0)
        return rc;
    opt = option_index(o->name, o->name_len);
    if (o->type == CHK_VALUE_NONE) {
        size_t end = *pos;
        chk_option next;
        if (first && opt < 0 && chk_option_next(text, &end, "rule option", &next, NULL, 0) == 0)
            return preset_index(o->name, o->name_len, err, errlen) < 0 ? -1 : 2;  /* a preset alone */
        return word_alone(text, o, err, errlen);
    }
    if (opt < 0)
        return chk__fail(err, errlen, "unknown rule option %s%s", show(vb, o->name, o->name_len, true),
                    chk_did_you_mean(hint, sizeof hint, o->name, o->name_len, option_names, NOPTIONS));
    if (*seen & (1u << opt))
        return chk__fail(err, errlen, "rule option '%s' given twice", option_names[opt]);
    *seen |= 1u << opt;
    return apply_option(NULL, opt, o, err, errlen) ? -1 : 1;
}

int chk_rules_parse(chk_rules *r, const char *text, char *err, size_t errlen)
{
    size_t pos = 0;
    unsigned seen = 0;
    chk_option o;
    int rc;
    while ((rc = chk_rules_next(text, &pos, &seen, &o, err, errlen)) > 0) {
        if (rc == 2 ? chk_rules_preset(r, o.name, o.name_len, err, errlen)
                    : chk_rules_set_option(r, &o, err, errlen))
            return -1;
    }
    return rc < 0 ? -1 : chk_rules_finish(r, err, errlen);
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
        return chk__fail(err, errlen, "piece kind '%s' must be a letter%s", l, "");
    if (letter == 'P' || letter == 'K')
        return chk__fail(err, errlen, "piece kind '%s' cannot be redefined (only B, C and new kinds)%s", l, "");
    if (style != CHK_STYLE_TAKE && style != CHK_STYLE_JUMP)
        return chk__fail(err, errlen, "piece kind '%s': bad capture style%s", l, "");
    if (nleaps < 0 || nrides < 0 || nleaps > 8 || nrides > 8)
        return chk__fail(err, errlen, "piece kind '%s': at most 8 leap and 8 ride vectors%s", l, "");
    if (nleaps + nrides == 0)
        return chk__fail(err, errlen, "piece kind '%s' needs at least one leap or ride vector%s", l, "");
    for (int i = 0; i < nleaps + nrides; i++) {
        const int8_t *v = i < nleaps ? leaps[i] : rides[i - nleaps];
        char vs[32];
        snprintf(vs, sizeof vs, "{%d,%d}", v[0], v[1]);
        if (v[0] < -7 || v[0] > 7 || v[1] < -7 || v[1] > 7 || (v[0] == 0 && v[1] == 0))
            return chk__fail(err, errlen, "piece kind '%s': vector %s is outside the board", l, vs);
        if ((v[0] + v[1]) % 2 != 0)
            return chk__fail(err, errlen, "piece kind '%s': vector %s leaves the dark squares (a + b must be even)", l, vs);
    }
    k = chk_rules_kind(r, letter);
    if (k < 0) {
        if (r->nkinds >= CHK_MAX_KINDS)
            return chk__fail(err, errlen, "piece kind '%s': too many piece kinds (at most 4 new ones)%s", l, "");
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

/* Whether the fast paths of movegen.c (its generator and bitboard counter)
 * know these rules: non-flying kings and every other kind a take-style
 * piece whose captures are optional. */
static bool fast_count_rules(const chk_rules *r)
{
    if (r->flying_kings || r->filter || r->capture == CHK_CAPTURE_ALL)
        return false;
    for (int k = 2; k < r->nkinds; k++)
        if (r->kinds[k].style != CHK_STYLE_TAKE || r->kinds[k].compulsory)
            return false;
    return true;
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
        return chk__fail(err, errlen, "bad capture option%s%s", "", "");
    if (r->draw_repetition == 1 || r->draw_repetition < 0 || r->draw_quiet_plies < 0)
        return chk__fail(err, errlen, "bad draw option%s%s", "", "");
    if (!r->promote || (r->promote & 1u) || (r->promote >> r->nkinds))
        return chk__fail(err, errlen, "rule option promote must name at least one piece kind other than P%s%s", "", "");
    for (int k = 1; k < r->nkinds; k++)
        if (derive_kind(&r->kinds[k])) {
            char l[2] = { r->kinds[k].letter, 0 };
            return chk__fail(err, errlen, "piece kind '%s' has more than 16 directions%s", l, "");
        }
    r->compulsory_takes = false;
    for (int k = 2; k < r->nkinds; k++)
        if (r->kinds[k].style == CHK_STYLE_TAKE && r->kinds[k].compulsory)
            r->compulsory_takes = true;
    for (int pc = 0; pc < 16; pc++)
        for (int sq = 0; sq < CHK_SQUARES; sq++)
            r->zobrist[pc][sq] = zob_piece(pc, sq);
    r->fast_count = fast_count_rules(r);
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
