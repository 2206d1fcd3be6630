/*
 * tb.c - endgame tablebases: the rules a table is for, the registry of a
 * folder's tables (opened by signature, loaded on first use) and probing.
 * The index maths are tb_index.c's, the file format tb_file.c's, building
 * tb_build.c's (tb_internal.h); the interface is cheskers_tb.h.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_internal.h"

/* ---- rules -------------------------------------------------------------- */

/* Is kind k the built-in one: style take, not compulsory, these vectors? */
static bool builtin_kind(const chk_kind *k, char letter, int nleaps, int nrides,
                         const int8_t v[2])
{
    const int8_t (*vec)[2] = nleaps ? k->leaps : k->rides;
    return k->letter == letter && k->style == CHK_STYLE_TAKE && !k->compulsory &&
           k->nleaps == nleaps && k->nrides == nrides && vec[0][0] == v[0] &&
           vec[0][1] == v[1];
}

bool chk_tb_supported(const chk_rules *r, char *err, size_t errlen)
{
    static const int8_t diag[2] = {1, 1}, camel[2] = {1, 3};
    const char *why = NULL;
    if (r->filter || r->result)
        why = "rule sets with hooks (filter or result functions) have no tablebases";
    else if (r->nkinds != TB_KINDS || !builtin_kind(&r->kinds[CHK_BISHOP], 'B', 0, 1, diag) ||
             !builtin_kind(&r->kinds[CHK_CAMEL], 'C', 1, 0, camel))
        why = "rule sets with custom piece kinds have no tablebases";
    else if (!r->finished)
        why = "the rule set is not finished";
    if (why && err && errlen)
        snprintf(err, errlen, "%s", why);
    return why == NULL;
}

/* The copy the tables use: no draw rules, first = black. */
static void rules_normalise(chk_rules *dst, const chk_rules *r)
{
    char err[160];
    *dst = *r;
    dst->draw_repetition = 0;
    dst->draw_quiet_plies = 0;
    dst->first = CHK_BLACK;
    dst->finished = false;
    if (chk_rules_finish(dst, err, sizeof err) < 0)
        *dst = *r;     /* cannot happen: r was finished with the same options */
}

size_t chk_tb_rules_text(const chk_rules *r, char *buf, size_t n)
{
    chk_rules *copy = malloc(sizeof *copy);
    size_t len;
    if (!copy)
        return 0;
    rules_normalise(copy, r);
    len = chk_rules_to_text(copy, buf, n);
    free(copy);
    return len;
}

static uint32_t fnv32(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (uint8_t)*s;
        h *= 16777619u;
    }
    return h;
}

/* ---- the table registry ------------------------------------------------- */

static int slot_of(const chk_tb *tb, uint32_t key)
{
    unsigned mask = (unsigned)tb->nslots - 1, i = (key * 2654435761u) >> 7 & mask;
    while (tb->slots[i] && tb->tables[tb->slots[i] - 1]->key != key)
        i = (i + 1) & mask;
    return (int)i;
}

/* Refills the hash from the table list (after it grew or was sorted). */
static void reslot(chk_tb *tb)
{
    memset(tb->slots, 0, (size_t)tb->nslots * sizeof *tb->slots);
    for (int i = 0; i < tb->ntables; i++)
        tb->slots[slot_of(tb, tb->tables[i]->key)] = i + 1;
}

static bool rehash(chk_tb *tb, int nslots)
{
    int *slots = calloc((size_t)nslots, sizeof *slots);
    if (!slots)
        return false;
    free(tb->slots);
    tb->slots = slots;
    tb->nslots = nslots;
    reslot(tb);
    return true;
}

tb_table *tb_add(chk_tb *tb, const tb_sig *s)
{
    uint32_t key = tb_sig_key(s);
    int i = slot_of(tb, key);
    if (tb->slots[i]) {     /* rewritten (a damaged file rebuilt): read it again */
        tb_table *t = tb->tables[tb->slots[i] - 1];
        tb_unload(t);
        atomic_store(&t->state, 0);
        return t;
    }
    if (tb->ntables == tb->cap) {
        int cap = tb->cap ? 2 * tb->cap : 64;
        tb_table **t = realloc(tb->tables, (size_t)cap * sizeof *t);
        if (!t)
            return NULL;
        tb->tables = t;
        tb->cap = cap;
    }
    tb_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    tb_layout_init(&t->lay, s);
    t->key = key;
    tb_sig_name(s, t->name);
    t->path = tb_file_path(tb, t->name, "");
    if (!t->path) {
        free(t);
        return NULL;
    }
    atomic_init(&t->state, 0);
    tb->tables[tb->ntables++] = t;
    if (4 * tb->ntables > 3 * tb->nslots ? !rehash(tb, 2 * tb->nslots) : 0)
        return NULL;
    tb->slots[slot_of(tb, key)] = tb->ntables;
    return t;
}

static void scan_dir(chk_tb *tb)
{
    char suffix[32];
    DIR *d = opendir(tb->dir);
    struct dirent *e;
    if (!d)
        return;
    snprintf(suffix, sizeof suffix, ".%08x.ctb", (unsigned)tb->fp);
    size_t slen = strlen(suffix);
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        tb_sig s;
        if (len > slen && !strcmp(e->d_name + len - slen, suffix) &&
            tb_sig_parse(e->d_name, len - slen, &s))
            tb_add(tb, &s);
    }
    closedir(d);
}

chk_tb *chk_tb_open(const char *dir, const chk_rules *r, char *err, size_t errlen)
{
    if (!chk_tb_supported(r, err, errlen))
        return NULL;
    chk_tb *tb = calloc(1, sizeof *tb);
    /* the rule text is chk_tb_rules_text's, the one key of the files */
    if (!tb || !chk_tb_rules_text(r, tb->rules_text, sizeof tb->rules_text) ||
        (dir && !(tb->dir = strdup(dir))) || !rehash(tb, 256)) {
        chk_tb_close(tb);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    rules_normalise(&tb->rules, r);
    tb->fp = fnv32(tb->rules_text);
    pthread_mutex_init(&tb->lock, NULL);
    if (dir)
        scan_dir(tb);
    if (tb->ntables > 1)
        qsort(tb->tables, (size_t)tb->ntables, sizeof *tb->tables, tb_table_cmp);
    reslot(tb);
    return tb;
}

void chk_tb_close(chk_tb *tb)
{
    if (!tb)
        return;
    for (int i = 0; i < tb->ntables; i++) {
        tb_unload(tb->tables[i]);
        free(tb->tables[i]->path);
        free(tb->tables[i]);
    }
    if (tb->slots)
        pthread_mutex_destroy(&tb->lock);
    free(tb->tables);
    free(tb->slots);
    free(tb->dir);
    free(tb);
}

const char *chk_tb_error(const chk_tb *tb)
{
    return tb->err;
}

/* ---- the registry's files ---------------------------------------------- */

bool tb_file_sound(chk_tb *tb, uint32_t key)
{
    int i = slot_of(tb, key);
    if (!tb->slots[i])
        return false;
    tb_table *t = tb->tables[tb->slots[i] - 1];
    if (atomic_load(&t->state) != 0)
        return atomic_load(&t->state) > 0;
    return tb_head_sound(tb, t);
}

bool tb_listed(const chk_tb *tb, uint32_t key)
{
    return tb->slots[slot_of(tb, key)] != 0;
}

tb_table *tb_find(chk_tb *tb, uint32_t key, int *rc)
{
    int i = slot_of(tb, key);
    *rc = 0;
    if (!tb->slots[i])
        return NULL;
    tb_table *t = tb->tables[tb->slots[i] - 1];
    if (atomic_load(&t->state) == 0) {
        pthread_mutex_lock(&tb->lock);
        if (atomic_load(&t->state) == 0)
            tb_load(tb, t);
        pthread_mutex_unlock(&tb->lock);
    }
    if (atomic_load(&t->state) < 0) {
        *rc = CHK_TB_ERROR;
        return NULL;
    }
    return t;
}

/* ---- probing ------------------------------------------------------------ */

static int sig_pieces(const tb_sig *s)
{
    int n = 0;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_KINDS; k++)
            n += s->n[c][k];
    return n;
}

void tb_byte_value(uint8_t b, int *value, int *distance)
{
    if (b == TB_BYTE_DRAW) {
        *value = CHK_TB_DRAW;
        *distance = 0;
        return;
    }
    *distance = b - 2;
    *value = (*distance & 1) ? CHK_TB_WIN : CHK_TB_LOSS;
}

int tb_probe_byte(chk_tb *tb, const chk_pos *p, uint8_t *byte)
{
    chk_bb bb[2][CHK_MAX_KINDS];
    tb_sig s;
    int rc;
    if (!tb_canon(p, bb, &s))
        return 0;
    if (!s.n[CHK_WHITE][CHK_KING] || !s.n[CHK_BLACK][CHK_KING]) {
        if (s.n[CHK_WHITE][CHK_KING] || !s.n[CHK_BLACK][CHK_KING])
            return 0;       /* over with the mover winning, or no kings: not covered */
        *byte = TB_BYTE(0); /* only the side to move has no king: lost */
        return 1;
    }
    if (sig_pieces(&s) > CHK_TB_MAX_PIECES)
        return 0;
    tb_table *t = tb_find(tb, tb_sig_key(&s), &rc);
    if (!t)
        return rc;
    tb_sym_canon(&t->lay, bb);
    if ((rc = tb_table_byte(tb, t, tb_index_bb(&t->lay, bb), byte)) < 0)
        return rc;
    if (*byte == TB_BYTE_NONE) {
        snprintf(tb->err, sizeof tb->err, "tablebase %s: damaged (no value for a position)",
                 t->path);
        return CHK_TB_ERROR;
    }
    return 1;
}

int chk_tb_probe(chk_tb *tb, const chk_pos *p, int *value, int *distance)
{
    uint8_t b;
    int rc = tb_probe_byte(tb, p, &b);
    if (rc == 1)
        tb_byte_value(b, value, distance);
    return rc;
}

int chk_tb_move_values(chk_tb *tb, chk_pos *p, chk_move *moves, int *values, int *dists,
                       bool *known)
{
    int n = chk_gen_moves(p, moves);
    if (n < 0) {
        snprintf(tb->err, sizeof tb->err, "a rule hook failed");
        return n;
    }
    for (int i = 0; i < n; i++) {
        uint8_t b;
        int v, d, rc;
        if (!chk_make(p, &moves[i])) {
            snprintf(tb->err, sizeof tb->err, "out of memory");
            return CHK_NO_MEMORY;
        }
        rc = tb_probe_byte(tb, p, &b);
        chk_unmake(p);
        if (rc < 0)
            return rc;
        known[i] = rc == 1;
        values[i] = CHK_TB_DRAW;
        dists[i] = 0;
        if (known[i]) {
            tb_byte_value(b, &v, &d);
            values[i] = -v;
            dists[i] = v == CHK_TB_DRAW ? 0 : d + 1;
        }
    }
    return n;
}

/* Orders move values for the mover: a bigger key is a better move. */
static long tb_move_rank(int value, int dist)
{
    if (value == CHK_TB_WIN)
        return 2000 - dist;
    return value == CHK_TB_DRAW ? 0 : -1000 + dist;
}

typedef struct move_values {
    chk_move moves[CHK_MAX_MOVES];
    int values[CHK_MAX_MOVES], dists[CHK_MAX_MOVES];
    bool known[CHK_MAX_MOVES];
} move_values;

int chk_tb_best_move(chk_tb *tb, chk_pos *p, chk_move *best, int *value, int *distance)
{
    move_values *mv = malloc(sizeof *mv);
    int n, pick = -1;
    if (!mv) {
        snprintf(tb->err, sizeof tb->err, "out of memory");
        return CHK_NO_MEMORY;
    }
    n = chk_tb_move_values(tb, p, mv->moves, mv->values, mv->dists, mv->known);
    for (int i = 0; i < n; i++) {
        if (!mv->known[i]) {
            pick = -1;
            break;
        }
        if (pick < 0 || tb_move_rank(mv->values[i], mv->dists[i]) >
                            tb_move_rank(mv->values[pick], mv->dists[pick]))
            pick = i;
    }
    if (pick >= 0) {
        *best = mv->moves[pick];
        *value = mv->values[pick];
        *distance = mv->dists[pick];
    }
    free(mv);
    return n < 0 ? n : pick >= 0;
}

/* ---- contents ----------------------------------------------------------- */

int chk_tb_max_pieces(const chk_tb *tb)
{
    tb_sig sigs[512];
    int best = 0;
    for (int n = 2; n <= CHK_TB_MAX_PIECES; n++) {
        int m = tb_sigs_with(n, sigs, 512);
        for (int i = 0; i < m; i++)
            if (!tb->slots[slot_of(tb, tb_sig_key(&sigs[i]))])
                return best;
        best = n;
    }
    return best;
}

int chk_tb_count(const chk_tb *tb)
{
    return tb->ntables;
}

int tb_table_cmp(const void *a, const void *b)
{
    const tb_table *x = *(tb_table *const *)a, *y = *(tb_table *const *)b;
    if (x->lay.pieces != y->lay.pieces)
        return x->lay.pieces - y->lay.pieces;
    if (strlen(x->name) != strlen(y->name))
        return (int)strlen(x->name) - (int)strlen(y->name);
    return strcmp(x->name, y->name);
}

int chk_tb_info_get(chk_tb *tb, int i, chk_tb_info *out)
{
    int rc;
    if (i < 0 || i >= tb->ntables) {
        snprintf(tb->err, sizeof tb->err, "no table number %d", i);
        return CHK_TB_ERROR;
    }
    tb_table *t = tb->tables[i];
    if (!tb_find(tb, t->key, &rc))
        return CHK_TB_ERROR;
    memset(out, 0, sizeof *out);
    memcpy(out->name, t->name, sizeof out->name);
    out->pieces = t->lay.pieces;
    out->wins = t->st.wins;
    out->draws = t->st.draws;
    out->losses = t->st.losses;
    out->positions = out->wins + out->draws + out->losses;
    out->longest_win = (int)t->st.longest_win;
    if (out->longest_win)
        tb_index_fen(tb, t, t->st.longest_index, out->longest_fen, sizeof out->longest_fen);
    return 0;
}
