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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
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

/* Whether lay's file is there to keep: its header, block index and size
 * sound (its blocks are checked when they are read). */
static bool on_disk(chk_tb *tb, const tb_layout *lay)
{
    return tb_file_sound(tb, tb_sig_key(&lay->sig));
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


/* ---- the plan: units in dependency order, their sizes ---------------------- */

/* The signatures a move of White in s can lead to outside s's unit: Black
 * loses any of its pieces but a last king (one capture or a chain), White
 * may turn one pawn into another kind (a promotion), or both. A superset of
 * the tables the build of s probes, whatever the rules; each has fewer
 * pieces, or as many and fewer pawns, so it comes earlier in build order.
 * Returns how many (out: room for max). */
static int sig_deps(const tb_sig *s, tb_sig *out, int max)
{
    int n = 0;
    uint8_t b[TB_KINDS];
    for (b[0] = 0; b[0] <= s->n[1][0]; b[0]++)
        for (b[1] = 1; b[1] <= s->n[1][1]; b[1]++)
            for (b[2] = 0; b[2] <= s->n[1][2]; b[2]++)
                for (b[3] = 0; b[3] <= s->n[1][3]; b[3]++)
                    for (int promo = -1; promo < TB_KINDS; promo++) {
                        tb_sig t = *s;
                        bool taken = memcmp(b, s->n[1], TB_KINDS) != 0;
                        if (promo == CHK_PAWN || (promo >= 0 && !s->n[0][CHK_PAWN]) ||
                            (promo < 0 && !taken) || n == max)
                            continue;
                        memcpy(t.n[1], b, TB_KINDS);
                        if (promo >= 0) {
                            t.n[0][CHK_PAWN]--;
                            t.n[0][promo]++;
                        }
                        out[n++] = t;
                    }
    return n;
}

/* Average moves of one piece of each kind (P K B C) on an empty board of
 * the 32 dark squares. */
static const double MOBILITY[TB_KINDS] = {1.53, 3.06, 8.75, 4.375};

/* The estimated peak memory of building u alone (without the tables it
 * reads): three value bytes and a 32-bit edge offset per entry, and a
 * 32-bit edge per quiet move, about 0.6 of the empty-board moves of the
 * side to move (measured on every unit up to 4 pieces: 0.59 to 0.89;
 * pieces block each other and captures are compulsory). */
static uint64_t unit_memory(const unit *u)
{
    double edges = 0;
    for (int m = 0; m < u->nmem; m++) {
        double mob = 0;
        for (int k = 0; k < TB_KINDS; k++)
            mob += u->lay[m].sig.n[0][k] * MOBILITY[k];
        edges += 0.6 * mob * (double)u->lay[m].size;
    }
    return 7 * u->total + 4 * (uint64_t)edges + (16u << 20);
}

/* The plan of the units of lays (n layouts in build order); *out. */
typedef struct plan {
    chk_tb_unit *units;
    uint32_t *keys;             /* unit i's first signature */
    int n;
    int *index;                 /* layout i -> its unit */
} plan;

static void plan_free(plan *pl)
{
    free(pl->units);
    free(pl->keys);
    free(pl->index);
}

static int layout_of(const tb_layout *lays, int n, uint32_t key)
{
    for (int i = 0; i < n; i++)
        if (tb_sig_key(&lays[i].sig) == key)
            return i;
    return -1;
}

/* Calls fn(pl, dep unit, ud) for each unit that unit i's build reads. */
static void unit_deps(const plan *pl, const tb_layout *lays, int n, int i,
                      void (*fn)(const plan *, int, void *), void *ud)
{
    tb_sig deps[256];
    int li = layout_of(lays, n, pl->keys[i]);
    tb_sig mem[2] = {lays[li].sig, tb_sig_swap(&lays[li].sig)};
    for (int m = 0; m < 2; m++) {
        int nd = sig_deps(&mem[m], deps, 256);
        for (int d = 0; d < nd; d++) {
            int j = layout_of(lays, n, tb_sig_key(&deps[d]));
            if (j >= 0)
                fn(pl, pl->index[j], ud);
        }
    }
}

static void dep_level(const plan *pl, int u, void *ud)
{
    int *level = ud;
    if (pl->units[u].level >= *level)
        *level = pl->units[u].level + 1;
}

static void dep_memory(const plan *pl, int u, void *ud)
{
    uint64_t *seen = ud;        /* seen[0]: the bytes; seen[1 + u]: counted */
    if (!seen[1 + u]) {
        seen[1 + u] = 1;
        seen[0] += pl->units[u].disk;
    }
}

/* Fills pl with the units of lays (n layouts in build order) for the files
 * tb has. false: out of memory. */
static bool plan_make(plan *pl, chk_tb *tb, const tb_layout *lays, int n)
{
    memset(pl, 0, sizeof *pl);
    pl->units = calloc((size_t)n, sizeof *pl->units);
    pl->keys = calloc((size_t)n, sizeof *pl->keys);
    pl->index = calloc((size_t)n, sizeof *pl->index);
    uint64_t *seen = calloc((size_t)n + 1, sizeof *seen);
    if (!pl->units || !pl->keys || !pl->index || !seen) {
        free(seen);
        return false;
    }
    for (int i = 0; i < n; i++) {
        tb_sig sw = tb_sig_swap(&lays[i].sig);
        uint32_t key = tb_sig_key(&lays[i].sig), skey = tb_sig_key(&sw);
        if (skey < key) {       /* built with its swap, an earlier unit */
            pl->index[i] = pl->index[layout_of(lays, i, skey)];
            continue;
        }
        chk_tb_unit *cu = &pl->units[pl->n];
        unit u;
        unit_init(&u, &lays[i]);
        pl->index[i] = pl->n++;
        tb_sig_name(&u.lay[0].sig, cu->name);
        if (u.nmem == 2)
            tb_sig_name(&u.lay[1].sig, cu->swap);
        pl->keys[pl->n - 1] = key;
        cu->pieces = u.lay[0].pieces;
        cu->entries = u.total;
        cu->built = true;
        for (int m = 0; m < u.nmem; m++) {
            cu->disk += tb_file_bytes(tb, &u.lay[m]);
            cu->built = cu->built && tb_listed(tb, tb_sig_key(&u.lay[m].sig));
        }
        cu->memory = unit_memory(&u);
    }
    for (int i = 0; i < pl->n; i++) {
        memset(seen, 0, ((size_t)n + 1) * sizeof *seen);
        pl->units[i].level = 1;
        unit_deps(pl, lays, n, i, dep_level, &pl->units[i].level);
        unit_deps(pl, lays, n, i, dep_memory, seen);
        pl->units[i].deps_disk = seen[0];
        pl->units[i].memory += seen[0];
    }
    free(seen);
    return true;
}

/* The unit of signature name (either member, its letters in any order)
 * in pl, or -1. */
static int plan_find(const plan *pl, const char *name)
{
    tb_sig s;
    if (!tb_sig_parse(name, strlen(name), &s))
        return -1;
    tb_sig sw = tb_sig_swap(&s);
    uint32_t key = tb_sig_key(&s), skey = tb_sig_key(&sw);
    for (int i = 0; i < pl->n; i++)
        if (pl->keys[i] == key || pl->keys[i] == skey)
            return i;
    return -1;
}

static void dep_missing(const plan *pl, int u, void *ud)
{
    char *list = ud;            /* names of units not built, comma separated */
    size_t len = strlen(list);
    if (pl->units[u].built || strstr(list, pl->units[u].name))
        return;
    snprintf(list + len, 200 - len, "%s%s", len ? ", " : "", pl->units[u].name);
}

/* ---- the preflight: disk and memory ------------------------------------ */

/* Bytes of memory this process can still have: the system's available
 * memory (/proc/meminfo), no more than its address space limit leaves. */
static uint64_t memory_free(void)
{
    uint64_t avail = 0;
    char line[128];
    FILE *f = fopen("/proc/meminfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %" SCNu64, &avail) == 1) {
            avail *= 1024;
            break;
        }
    if (f)
        fclose(f);
    if (!avail)
        avail = (uint64_t)sysconf(_SC_AVPHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
    struct rlimit rl;
    unsigned long vm = 0;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        f = fopen("/proc/self/statm", "r");
        if (f && fscanf(f, "%lu", &vm) == 1)
            vm *= (unsigned long)sysconf(_SC_PAGESIZE);
        if (f)
            fclose(f);
        uint64_t left = rl.rlim_cur > vm ? (uint64_t)rl.rlim_cur - vm : 0;
        if (left < avail)
            avail = left;
    }
    return avail;
}

/* statvfs of dir, or of its nearest existing parent when dir is not made
 * yet; false when none answers. */
static bool disk_free(const char *dir, struct statvfs *vfs)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (;;) {
        if (statvfs(*path ? path : ".", vfs) == 0)
            return true;
        char *slash = strrchr(path, '/');
        if (errno != ENOENT || !slash || slash == path)
            return slash == path && statvfs("/", vfs) == 0;
        *slash = 0;
    }
}

/* bytes as "1.36 GB" or "20.9 MB" in buf (16 bytes). */
static const char *size_text(uint64_t bytes, char *buf)
{
    if (bytes >= 1000000000u)
        snprintf(buf, 16, "%.2f GB", (double)bytes / 1e9);
    else
        snprintf(buf, 16, "%.1f MB", (double)bytes / 1e6);
    return buf;
}

/* Refuses a build whose files need more disk than dir has free or whose
 * largest unit more memory than there is (the estimates of the plan). */
static int preflight(const char *dir, const plan *pl, int one, char *err, size_t errlen)
{
    uint64_t disk = 0, mem = 0, before = 0;
    struct statvfs vfs;
    char need[16], have[16];
    for (int i = 0; i < pl->n; i++) {
        const chk_tb_unit *u = &pl->units[i];
        uint64_t m = one >= 0 ? u->memory : u->memory - u->deps_disk + before;
        if (!u->built && (one < 0 || one == i)) {
            disk += u->disk;
            mem = m > mem ? m : mem;
        }
        before += u->disk;      /* a whole build keeps what it read */
    }
    if (disk && disk_free(dir, &vfs) && (uint64_t)vfs.f_bavail * vfs.f_frsize < disk) {
        snprintf(err, errlen, "not enough disk space in %s: the tables need up to %s, %s free", dir,
                 size_text(disk, need), size_text((uint64_t)vfs.f_bavail * vfs.f_frsize, have));
        return CHK_TB_ERROR;
    }
    uint64_t avail = memory_free();
    if (mem > avail) {
        snprintf(err, errlen, "not enough memory: the build needs about %s, %s available",
                 size_text(mem, need), size_text(avail, have));
        return CHK_TB_ERROR;
    }
    return CHK_OK;
}

/* Builds the units of pl (only: unit `one` alone). */
static int build_all(chk_tb *tb, const chk_tb_build_opts *o, const plan *pl, int one,
                     const tb_layout *lays, int n, char *err, size_t errlen)
{
    int done = 0, rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        build b;
        tb_sig sw = tb_sig_swap(&lays[i].sig);
        if (tb_sig_key(&sw) < tb_sig_key(&lays[i].sig) || (one >= 0 && pl->index[i] != one))
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
    return rc;
}

/* The unit that o->only names in pl (through *one), its dependencies
 * built; else CHK_TB_ERROR with a message. */
static int only_unit(const plan *pl, const tb_layout *lays, int n, const chk_tb_build_opts *o,
                     const char *dir, int *one, char *err, size_t errlen)
{
    char missing[200] = "";
    tb_sig s;
    *one = -1;
    if (!tb_sig_parse(o->only, strlen(o->only), &s)) {
        snprintf(err, errlen, "'%.40s' is not a signature (White's pieces, v, Black's, each side "
                 "with a king: KBvKP)", o->only);
        return CHK_TB_ERROR;
    }
    if ((*one = plan_find(pl, o->only)) < 0) {
        snprintf(err, errlen, "no signature %s with up to %d pieces", o->only, o->pieces);
        return CHK_TB_ERROR;
    }
    unit_deps(pl, lays, n, *one, dep_missing, missing);
    if (*missing) {
        snprintf(err, errlen, "%s needs the tables %s first, not in %s "
                 "(cheskers tb plan lists the build order)", pl->units[*one].name, missing, dir);
        return CHK_TB_ERROR;
    }
    return CHK_OK;
}

int chk_tb_build(const char *dir, const chk_rules *r, const chk_tb_build_opts *o,
                 char *err, size_t errlen)
{
    int n, rc;
    if (o->pieces < 2 || o->pieces > CHK_TB_MAX_PIECES) {
        snprintf(err, errlen, "pieces must be 2 to %d", CHK_TB_MAX_PIECES);
        return CHK_TB_ERROR;
    }
    chk_tb *tb = chk_tb_open(dir, r, err, errlen);     /* dir may not exist yet */
    if (!tb)
        return CHK_TB_ERROR;
    tb_layout *lays = all_layouts(o->pieces, &n);
    if (!lays) {
        chk_tb_close(tb);
        snprintf(err, errlen, "out of memory");
        return CHK_NO_MEMORY;
    }
    plan pl;
    int one = -1;
    if (!plan_make(&pl, tb, lays, n))
        rc = CHK_NO_MEMORY;
    else if (o->only)
        rc = only_unit(&pl, lays, n, o, dir, &one, err, errlen);
    else
        rc = CHK_OK;
    if (rc == CHK_NO_MEMORY)
        snprintf(err, errlen, "out of memory");
    if (rc == CHK_OK && !o->no_preflight)
        rc = preflight(dir, &pl, one, err, errlen);
    if (rc == CHK_OK && mkdir(dir, 0777) < 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot make the directory %s: %s", dir, strerror(errno));
        rc = CHK_TB_ERROR;
    }
    if (rc == CHK_OK)
        rc = build_all(tb, o, &pl, one, lays, n, err, errlen);
    plan_free(&pl);
    free(lays);
    chk_tb_close(tb);
    return rc;
}

int chk_tb_plan(const char *dir, const chk_rules *r, int pieces, const char *only,
                chk_tb_unit **out, char *err, size_t errlen)
{
    int n, rc;
    *out = NULL;
    if (pieces < 2 || pieces > CHK_TB_MAX_PIECES) {
        snprintf(err, errlen, "pieces must be 2 to %d", CHK_TB_MAX_PIECES);
        return CHK_TB_ERROR;
    }
    chk_tb *tb = chk_tb_open(dir, r, err, errlen);
    if (!tb)
        return CHK_TB_ERROR;
    tb_layout *lays = all_layouts(pieces, &n);
    plan pl;
    if (!lays || !plan_make(&pl, tb, lays, n)) {
        free(lays);
        chk_tb_close(tb);
        snprintf(err, errlen, "out of memory");
        return CHK_NO_MEMORY;
    }
    rc = pl.n;
    if (only) {
        chk_tb_build_opts o = {.pieces = pieces, .only = only};
        int one = -1;
        rc = only_unit(&pl, lays, n, &o, dir ? dir : "no folder", &one, err, errlen);
        if (rc == CHK_TB_ERROR && one >= 0)
            rc = CHK_OK;        /* missing dependencies: the plan says so */
        if (rc == CHK_OK) {
            pl.units[0] = pl.units[one];
            rc = 1;
        }
    }
    if (rc >= 0) {
        *out = pl.units;
        pl.units = NULL;
    }
    plan_free(&pl);
    free(lays);
    chk_tb_close(tb);
    return rc;
}
