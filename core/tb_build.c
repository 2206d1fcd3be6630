/*
 * tb_build.c - building the tablebases by retrograde analysis.
 *
 * A unit is a signature S together with its colour swap S' (one table when
 * S = S'): a quiet move of S with White to move leads to a position of S
 * with Black to move, which is stored as its image in S' (White to move).
 * Captures and promotions lead to smaller or pawn-poorer signatures, built
 * earlier, whose files are probed. The build of a unit:
 *   1. every position: its legal moves (the core's generator), the values
 *      of its moves out of the unit (probed), and the indexes of its moves
 *      inside the unit (kept as edge lists);
 *   2. levels d = 1, 2, ...: an unknown position is won in d (d odd) when a
 *      move leads to a loss in d - 1; lost in d (d even) when every move
 *      leads to a win of the opponent, the longest being d - 1. What stays
 *      unknown at the end is a draw.
 * Both phases split the positions over threads; each level's new values
 * are written after all threads have read the previous ones.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tb_internal.h"

#define BLOCKED 255         /* ext_loss: some move out of the unit is no loss */
#define UNKNOWN TB_BYTE_DRAW

typedef struct unit {
    int nmem;
    tb_layout lay[2];
    uint64_t base[2], total;
} unit;

typedef struct worker worker;

typedef struct build {
    chk_tb *tb;
    unit u;
    uint8_t *val;           /* value bytes of the unit's positions */
    uint8_t *ext_win;       /* shortest win by a move out of the unit (0: none) */
    uint8_t *ext_loss;      /* longest loss by moves out of the unit, or BLOCKED */
    int level;
    const volatile sig_atomic_t *stop;
    int nthreads;
    worker *w;
} build;

struct worker {
    build *b;
    uint64_t lo, hi;
    uint32_t *off;          /* edges of position lo + i: off[i] .. off[i + 1] */
    uint32_t *edges;
    size_t nedges, capedges;
    uint64_t *found;        /* positions resolved at this level */
    size_t nfound, capfound;
    chk_status failed;      /* CHK_OK, or why the worker stopped (err:
                               the message) */
    char err[200];
};

static bool push_u32(uint32_t **a, size_t *n, size_t *cap, uint32_t v)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 4096;
        uint32_t *p = realloc(*a, c * sizeof *p);
        if (!p)
            return false;
        *a = p;
        *cap = c;
    }
    (*a)[(*n)++] = v;
    return true;
}

static bool push_u64(uint64_t **a, size_t *n, size_t *cap, uint64_t v)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 1024;
        uint64_t *p = realloc(*a, c * sizeof *p);
        if (!p)
            return false;
        *a = p;
        *cap = c;
    }
    (*a)[(*n)++] = v;
    return true;
}

/* Stops the worker with status st and message msg; returns st. */
static int fail(worker *w, chk_status st, const char *msg)
{
    w->failed = st;
    snprintf(w->err, sizeof w->err, "%s", msg);
    return st;
}

/* ---- phase 1: moves ------------------------------------------------------ */

/* The unit member whose signature is s. */
static int member_of(const unit *u, const tb_sig *s)
{
    return u->nmem > 1 && tb_sig_key(s) == tb_sig_key(&u->lay[1].sig);
}

/* One move's child (made on p, Black to move): an edge inside the unit or
 * its value folded into *ew, *el. */
static int child(worker *w, chk_pos *p, const chk_move *m, int *ew, int *el)
{
    build *b = w->b;
    if (!p->bb[CHK_BLACK][CHK_KING]) {       /* the last king taken: won */
        *ew = 1;
        *el = BLOCKED;
        return 0;
    }
    if (!m->captures && m->promo == CHK_NONE) {
        chk_bb bb[2][CHK_MAX_KINDS];
        tb_sig s;
        tb_canon(p, bb, &s);
        int mem = member_of(&b->u, &s);
        tb_sym_canon(&b->u.lay[mem], bb);
        uint64_t idx = b->u.base[mem] + tb_index_bb(&b->u.lay[mem], bb);
        if (w->nedges == UINT32_MAX)    /* the offsets are 32-bit */
            return fail(w, CHK_TB_ERROR, "too many moves for one thread: use more threads");
        return push_u32(&w->edges, &w->nedges, &w->capedges, (uint32_t)idx) ? 0
               : fail(w, CHK_NO_MEMORY, "out of memory");
    }
    uint8_t byte;
    int rc = tb_probe_byte(b->tb, p, &byte);
    if (rc == 0)
        return fail(w, CHK_TB_ERROR, "a smaller table is missing (internal error)");
    if (rc < 0)
        return fail(w, rc, chk_tb_error(b->tb));
    int v, d;
    tb_byte_value(byte, &v, &d);
    if (v == CHK_TB_LOSS) {
        if (!*ew || d + 1 < *ew)
            *ew = d + 1;
        *el = BLOCKED;
    } else if (v == CHK_TB_DRAW) {
        *el = BLOCKED;
    } else if (*el != BLOCKED && d + 1 > *el) {
        *el = d + 1;
    }
    return 0;
}

/* Sets p to global index g of the unit: false when it is no position. */
static bool set_position(const unit *u, chk_pos *p, uint64_t g)
{
    uint8_t sq[CHK_TB_MAX_PIECES], pc[CHK_TB_MAX_PIECES];
    int mem = u->nmem > 1 && g >= u->base[1];
    const tb_layout *lay = &u->lay[mem];
    for (int c = 0; c < 2; c++)
        for (chk_bb o = p->occ[c]; o; o &= o - 1)
            chk_pos_put(p, __builtin_ctz(o), CHK_NONE);
    if (!tb_decode(lay, g - u->base[mem], sq, pc))
        return false;
    for (int i = 0; i < lay->pieces; i++)
        chk_pos_put(p, sq[i], pc[i]);
    return true;
}

static void position_moves(worker *w, chk_pos *p, chk_move *list, uint64_t g)
{
    build *b = w->b;
    int ew = 0, el = 0;
    b->ext_win[g] = 0;
    b->ext_loss[g] = BLOCKED;
    if (!set_position(&b->u, p, g)) {
        b->val[g] = TB_BYTE_NONE;
        return;
    }
    int n = chk_gen_moves(p, list);
    if (n < 0) {
        fail(w, n, "move generation failed");
        return;
    }
    b->val[g] = n ? UNKNOWN : TB_BYTE(0);     /* no move: lost */
    for (int i = 0; i < n && !w->failed; i++) {
        if (!chk_make(p, &list[i])) {
            fail(w, CHK_NO_MEMORY, "out of memory");
            return;
        }
        child(w, p, &list[i], &ew, &el);
        chk_unmake(p);
    }
    b->ext_win[g] = (uint8_t)(ew > CHK_TB_MAX_DIST ? 0 : ew);
    b->ext_loss[g] = (uint8_t)(el > CHK_TB_MAX_DIST ? BLOCKED : el);
    if (ew > CHK_TB_MAX_DIST || (el > CHK_TB_MAX_DIST && el != BLOCKED))
        fail(w, CHK_TB_ERROR, "a distance is longer than a table can store");
}

static void *moves_thread(void *arg)
{
    worker *w = arg;
    build *b = w->b;
    chk_pos p;
    chk_move *list = malloc(CHK_MAX_MOVES * sizeof *list);
    w->off = malloc((size_t)(w->hi - w->lo + 1) * sizeof *w->off);
    if (!list || !w->off) {
        free(list);
        fail(w, CHK_NO_MEMORY, "out of memory");
        return NULL;
    }
    chk_pos_init(&p, &b->tb->rules);
    for (uint64_t g = w->lo; g < w->hi && !w->failed; g++) {
        w->off[g - w->lo] = (uint32_t)w->nedges;
        position_moves(w, &p, list, g);
        if ((g & 4095) == 0 && b->stop && *b->stop)
            fail(w, CHK_STOPPED, "stopped");
    }
    w->off[w->hi - w->lo] = (uint32_t)w->nedges;
    chk_pos_free(&p);
    free(list);
    return NULL;
}

/* ---- phase 2: levels ---------------------------------------------------- */

static bool resolves(const build *b, const worker *w, uint64_t g, int d)
{
    const uint32_t *e = w->edges + w->off[g - w->lo], *end = w->edges + w->off[g - w->lo + 1];
    if (d & 1) {            /* a win: some move to a loss in d - 1 */
        if (b->ext_win[g] == d)
            return true;
        for (; e < end; e++)
            if (b->val[*e] == TB_BYTE(d - 1))
                return true;
        return false;
    }
    if (b->ext_loss[g] == BLOCKED || b->ext_loss[g] > d)
        return false;       /* a loss: every move to a win (all shorter) */
    for (; e < end; e++)
        if (b->val[*e] < TB_BYTE(0) || !((b->val[*e] - 2) & 1))
            return false;
    return true;
}

static void *level_thread(void *arg)
{
    worker *w = arg;
    const build *b = w->b;
    w->nfound = 0;
    for (uint64_t g = w->lo; g < w->hi; g++)
        if (b->val[g] == UNKNOWN && resolves(b, w, g, b->level) &&
            !push_u64(&w->found, &w->nfound, &w->capfound, g)) {
            fail(w, CHK_NO_MEMORY, "out of memory");
            break;
        }
    return NULL;
}

/* The status of the first worker that failed (its message in err), else
 * CHK_OK. */
static int first_error(build *b, char *err, size_t errlen)
{
    for (int i = 0; i < b->nthreads; i++)
        if (b->w[i].failed) {
            snprintf(err, errlen, "%s", b->w[i].err);
            return b->w[i].failed;
        }
    return CHK_OK;
}

/* Runs fn on every worker: workers 1.. in threads while they start, then
 * worker 0 and those whose thread could not start here. Returns
 * first_error's status. */
static int run_threads(build *b, void *(*fn)(void *), char *err, size_t errlen)
{
    pthread_t th[64];
    int n = 1;
    while (n < b->nthreads && pthread_create(&th[n], NULL, fn, &b->w[n]) == 0)
        n++;
    for (int i = n; i < b->nthreads; i++)
        fn(&b->w[i]);       /* a thread that could not start: run here */
    fn(&b->w[0]);
    while (--n > 0)
        pthread_join(th[n], NULL);
    return first_error(b, err, errlen);
}

static int levels(build *b, char *err, size_t errlen)
{
    int maxext = 0, rc;
    uint64_t changed[2] = {1, 1};
    for (uint64_t g = 0; g < b->u.total; g++) {
        if (b->ext_win[g] > maxext)
            maxext = b->ext_win[g];
        if (b->ext_loss[g] != BLOCKED && b->ext_loss[g] > maxext)
            maxext = b->ext_loss[g];
    }
    for (b->level = 1; b->level <= CHK_TB_MAX_DIST; b->level++) {
        if (b->level > maxext + 1 && !changed[0] && !changed[1])
            return 0;
        if (b->stop && *b->stop)
            return CHK_STOPPED;
        if ((rc = run_threads(b, level_thread, err, errlen)) != CHK_OK)
            return rc;
        changed[b->level & 1] = 0;
        for (int i = 0; i < b->nthreads; i++) {
            for (size_t j = 0; j < b->w[i].nfound; j++)
                b->val[b->w[i].found[j]] = TB_BYTE(b->level);
            changed[b->level & 1] += b->w[i].nfound;
        }
    }
    snprintf(err, errlen, "a distance is longer than a table can store");
    return CHK_TB_ERROR;
}

/* ---- a unit ------------------------------------------------------------- */

/* The counts of positions (each index weighed by the positions it stands
 * for) and the longest win. */
static void stats(const tb_layout *lay, const uint8_t *val, tb_stats *st)
{
    memset(st, 0, sizeof *st);
    for (uint64_t i = 0; i < lay->size; i++) {
        uint64_t w = (uint64_t)tb_weight(lay, i);
        if (val[i] == TB_BYTE_NONE)
            continue;
        if (val[i] == TB_BYTE_DRAW) {
            st->draws += w;
        } else if ((val[i] - 2) & 1) {
            st->wins += w;
            if ((uint32_t)(val[i] - 2) > st->longest_win) {
                st->longest_win = (uint32_t)(val[i] - 2);
                st->longest_index = i;
            }
        } else {
            st->losses += w;
        }
    }
}

static void free_build(build *b)
{
    for (int i = 0; b->w && i < b->nthreads; i++) {
        free(b->w[i].off);
        free(b->w[i].edges);
        free(b->w[i].found);
    }
    free(b->w);
    free(b->val);
    free(b->ext_win);
    free(b->ext_loss);
}

static int build_unit(build *b, char *err, size_t errlen)
{
    uint64_t n = b->u.total, per = (n + (uint64_t)b->nthreads - 1) / (uint64_t)b->nthreads;
    int rc;
    if (n >= UINT32_MAX) {
        snprintf(err, errlen, "the table is too large for this builder");
        return CHK_TB_ERROR;
    }
    b->val = malloc(n);
    b->ext_win = malloc(n);
    b->ext_loss = malloc(n);
    b->w = calloc((size_t)b->nthreads, sizeof *b->w);
    if (!b->val || !b->ext_win || !b->ext_loss || !b->w) {
        snprintf(err, errlen, "out of memory");
        return CHK_NO_MEMORY;
    }
    for (int i = 0; i < b->nthreads; i++) {
        b->w[i].b = b;
        b->w[i].lo = per * (uint64_t)i < n ? per * (uint64_t)i : n;
        b->w[i].hi = b->w[i].lo + per < n ? b->w[i].lo + per : n;
    }
    if ((rc = run_threads(b, moves_thread, err, errlen)) != CHK_OK)
        return rc;
    if ((rc = levels(b, err, errlen)) != 0)
        return rc;
    for (int m = 0; m < b->u.nmem; m++) {
        tb_stats st;
        stats(&b->u.lay[m], b->val + b->u.base[m], &st);
        if ((rc = tb_write(b->tb, &b->u.lay[m], b->val + b->u.base[m], &st, err, errlen)) < 0)
            return rc;
        if (!tb_add(b->tb, &b->u.lay[m].sig)) {
            snprintf(err, errlen, "out of memory");
            return CHK_NO_MEMORY;
        }
    }
    return 0;
}

/* ---- the whole build ---------------------------------------------------- */

static int cmp_build_order(const void *a, const void *b)
{
    const tb_layout *x = a, *y = b;
    if (x->pieces != y->pieces)
        return x->pieces - y->pieces;
    if (x->pawns != y->pawns)
        return x->pawns - y->pawns;
    uint32_t kx = tb_sig_key(&x->sig), ky = tb_sig_key(&y->sig);
    return kx < ky ? -1 : kx > ky;
}

/* Every signature up to pieces, in build order; *n set. NULL: no memory. */
static tb_layout *all_layouts(int pieces, int *n)
{
    tb_sig sigs[512];
    tb_layout *lays = NULL;
    *n = 0;
    for (int p = 2; p <= pieces; p++) {
        int m = tb_sigs_with(p, sigs, 512);
        tb_layout *t = realloc(lays, (size_t)(*n + m) * sizeof *t);
        if (!t) {
            free(lays);
            return NULL;
        }
        lays = t;
        for (int i = 0; i < m; i++)
            tb_layout_init(&lays[(*n)++], &sigs[i]);
    }
    qsort(lays, (size_t)*n, sizeof *lays, cmp_build_order);
    return lays;
}

static bool on_disk(chk_tb *tb, const tb_layout *lay)
{
    int rc;
    return tb_find(tb, tb_sig_key(&lay->sig), &rc) != NULL;
}

static void unit_init(unit *u, const tb_layout *lay)
{
    tb_sig sw = tb_sig_swap(&lay->sig);
    memset(u, 0, sizeof *u);
    u->lay[0] = *lay;
    u->nmem = tb_sig_key(&sw) == tb_sig_key(&lay->sig) ? 1 : 2;
    u->total = lay->size;
    if (u->nmem == 2) {         /* its size may differ (symmetry) */
        tb_layout_init(&u->lay[1], &sw);
        u->base[1] = lay->size;
        u->total += u->lay[1].size;
    }
}

static int report(const chk_tb_build_opts *o, const unit *u, int m, int *done, int total,
                  bool skipped, double secs)
{
    chk_tb_progress pr;
    char name[24];
    tb_sig_name(&u->lay[m].sig, name);
    pr.name = name;
    pr.done = ++*done;
    pr.total = total;
    pr.skipped = skipped;
    pr.positions = u->lay[m].size;
    pr.seconds = secs;
    return o->progress && o->progress(o->progress_ud, &pr) ? CHK_ABORTED : CHK_OK;
}

static int threads_wanted(const chk_tb_build_opts *o)
{
    long n = o->threads > 0 ? o->threads : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

static bool wanted(const chk_tb_build_opts *o, const tb_sig *s)
{
    char name[24], swapped[24];
    tb_sig sw = tb_sig_swap(s);
    if (!o->only)
        return true;
    tb_sig_name(s, name);
    tb_sig_name(&sw, swapped);
    return !strcmp(o->only, name) || !strcmp(o->only, swapped);
}

static int build_all(chk_tb *tb, const chk_tb_build_opts *o, tb_layout *lays, int n,
                     char *err, size_t errlen)
{
    int done = 0, rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        build b;
        tb_sig sw = tb_sig_swap(&lays[i].sig);
        if (tb_sig_key(&sw) < tb_sig_key(&lays[i].sig) || !wanted(o, &lays[i].sig))
            continue;       /* built with its swap, or not asked for */
        memset(&b, 0, sizeof b);
        b.tb = tb;
        b.stop = o->stop;
        b.nthreads = threads_wanted(o);
        unit_init(&b.u, &lays[i]);
        bool have = on_disk(tb, &b.u.lay[0]) && (b.u.nmem == 1 || on_disk(tb, &b.u.lay[1]));
        double t0 = chk_clock();
        if (!have)
            rc = build_unit(&b, err, errlen);
        free_build(&b);
        for (int m = 0; m < b.u.nmem && rc == 0; m++)
            rc = report(o, &b.u, m, &done, o->only ? b.u.nmem : n, have,
                        (chk_clock() - t0) * (double)b.u.lay[m].size / (double)b.u.total);
    }
    if (rc == 0 && o->only && !done) {
        snprintf(err, errlen, "no signature %s with up to %d pieces", o->only, o->pieces);
        return CHK_TB_ERROR;
    }
    return rc;
}

int chk_tb_build(const char *dir, const chk_rules *r, const chk_tb_build_opts *o,
                 char *err, size_t errlen)
{
    int n, rc;
    if (o->pieces < 2 || o->pieces > CHK_TB_MAX_PIECES) {
        snprintf(err, errlen, "pieces must be 2 to %d", CHK_TB_MAX_PIECES);
        return CHK_TB_ERROR;
    }
    if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot make the directory %s: %s", dir, strerror(errno));
        return CHK_TB_ERROR;
    }
    chk_tb *tb = chk_tb_open(dir, r, err, errlen);
    if (!tb)
        return CHK_TB_ERROR;
    tb_layout *lays = all_layouts(o->pieces, &n);
    if (!lays) {
        chk_tb_close(tb);
        snprintf(err, errlen, "out of memory");
        return CHK_NO_MEMORY;
    }
    rc = build_all(tb, o, lays, n, err, errlen);
    free(lays);
    chk_tb_close(tb);
    return rc;
}
