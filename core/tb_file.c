/*
 * tb_file.c - the tablebase file format (docs/guide/tables.md): the header
 * and its checksum, the payload in zstd blocks behind a block index,
 * writing a finished table (a temporary file, fsync, rename), reading a
 * file into memory and checking it, and decompressing a block on first
 * use. The index maths are tb_index.c's, the registry of a folder's tables
 * and probing tb.c's (tb_internal.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "tb_internal.h"

#define MAGIC "CHESKTB\n"
#define FORMAT_VERSION 3u     /* 3: the payload in zstd blocks behind a block index */
#define HEADER_FIXED 96       /* bytes before the rules text */

/* FNV-1a 64 of n bytes, going on from h (FNV_START: a new sum). */
#define FNV_START 0xcbf29ce484222325ull
static uint64_t fnv64(uint64_t h, const uint8_t *data, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= data[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

char *tb_file_path(const chk_tb *tb, const char *name, const char *suffix)
{
    size_t n = strlen(tb->dir) + strlen(name) + strlen(suffix) + 32;
    char *path = malloc(n);
    if (path)
        snprintf(path, n, "%s/%s.%08x.ctb%s", tb->dir, name, (unsigned)tb->fp, suffix);
    return path;
}

/* ---- files -------------------------------------------------------------- */

static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

#define HEADER_MAX ((HEADER_FIXED + TB_RULES_TEXT + 7) & ~(size_t)7)
#define SUM_AT 72       /* the checksum's offset in the header */
#define BLOCK_SIZE_AT 84
#define BLOCKS_AT 88
/* the block sizes a reader takes: 1 KB to 16 MB, a power of two */
#define SHIFT_MIN 10
#define SHIFT_MAX 24

static uint64_t block_count(uint64_t size, unsigned shift)
{
    return (size + (UINT64_C(1) << shift) - 1) >> shift;
}

/* The bytes of block b of a payload of size bytes. */
static size_t block_len(uint64_t size, unsigned shift, uint64_t b)
{
    uint64_t left = size - (b << shift);
    return (size_t)(left < (UINT64_C(1) << shift) ? left : UINT64_C(1) << shift);
}

/* The bytes of the header (a multiple of 8) and of the block index. */
static size_t header_len(const chk_tb *tb)
{
    return (HEADER_FIXED + strlen(tb->rules_text) + 7) & ~(size_t)7;
}

static size_t index_len(uint64_t nblocks)
{
    return (size_t)(nblocks + 1) * 8;
}

/* The checksum of a file: FNV-1a 64 of its header (hlen bytes, the
 * checksum field read as zeros) and then of its block index (ilen bytes,
 * right after the header). */
static uint64_t file_sum(const uint8_t *h, size_t hlen, const uint8_t *index, size_t ilen)
{
    static const uint8_t zeros[8];
    uint64_t sum = fnv64(FNV_START, h, SUM_AT);
    sum = fnv64(sum, zeros, 8);
    sum = fnv64(sum, h + SUM_AT + 8, hlen - SUM_AT - 8);
    return fnv64(sum, index, ilen);
}

/* Writes the header of lay's file into h (HEADER_MAX bytes), with the
 * checksum of it and of the block index (ilen bytes); its length. */
static size_t header_make(const chk_tb *tb, const tb_layout *lay, const tb_stats *st,
                          const uint8_t *index, size_t ilen, uint8_t *h)
{
    uint32_t tlen = (uint32_t)strlen(tb->rules_text);
    size_t n = header_len(tb);
    memset(h, 0, n);
    memcpy(h, MAGIC, 8);
    put32(h + 8, FORMAT_VERSION);
    put32(h + 12, (uint32_t)n);
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_KINDS; k++)
            h[16 + c * TB_KINDS + k] = lay->sig.n[c][k];
    put64(h + 24, lay->size);
    put64(h + 32, st->wins);
    put64(h + 40, st->draws);
    put64(h + 48, st->losses);
    put32(h + 56, st->longest_win);
    put64(h + 64, st->longest_index);
    put32(h + 80, tlen);
    put32(h + BLOCK_SIZE_AT, UINT32_C(1) << TB_BLOCK_SHIFT);
    put64(h + BLOCKS_AT, block_count(lay->size, TB_BLOCK_SHIFT));
    memcpy(h + HEADER_FIXED, tb->rules_text, tlen);
    put64(h + SUM_AT, file_sum(h, n, index, ilen));
    return n;
}

/* Compresses the size value bytes of data block by block into out (room
 * for nblocks * ZSTD_compressBound of a block), each a zstd frame with its
 * content size and checksum, the same bytes on every run (one level, one
 * thread). index gets each block's file offset, the first at first, and
 * then the file's end. The compressed bytes, or 0 with *why set. */
static size_t compress_blocks(const uint8_t *data, uint64_t size, uint64_t first, uint8_t *index,
                              uint8_t *out, const char **why)
{
    uint64_t nblocks = block_count(size, TB_BLOCK_SHIFT);
    size_t zlen = 0;
    ZSTD_CCtx *c = ZSTD_createCCtx();
    if (!c) {
        *why = "out of memory";
        return 0;
    }
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, TB_ZSTD_LEVEL);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
    for (uint64_t b = 0; b < nblocks; b++) {
        size_t n = block_len(size, TB_BLOCK_SHIFT, b);
        size_t r = ZSTD_compress2(c, out + zlen, ZSTD_compressBound(n),
                                  data + (b << TB_BLOCK_SHIFT), n);
        put64(index + 8 * b, first + zlen);
        if (ZSTD_isError(r)) {
            *why = ZSTD_getErrorName(r);
            zlen = 0;
            break;
        }
        zlen += r;
    }
    put64(index + 8 * nblocks, first + zlen);
    ZSTD_freeCCtx(c);
    return zlen;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* Creates the temporary file of table name in tb->dir under a name no file
 * has (NAME.HASH.ctb.tmp.XXXXXXXX, mkstemp's way: O_CREAT | O_EXCL, so a
 * file or link someone planted in a shared folder is never opened, nor a
 * link followed; a name taken is tried again with another). The
 * descriptor and *tmp its path (to free), or -1 with errno set and *tmp
 * NULL. */
static int create_temp(const chk_tb *tb, const char *name, char **tmp)
{
    uint64_t seed = (uint64_t)(chk_clock() * 1e9) ^ ((uint64_t)getpid() << 32) ^
                    (uint64_t)(uintptr_t)tmp;
    for (int tries = 0; tries < 64; tries++) {
        char suffix[24];
        seed = (seed ^ (uint64_t)tries) * 0x9e3779b97f4a7c15ull;
        snprintf(suffix, sizeof suffix, ".tmp.%08x", (unsigned)(seed >> 32));
        if (!(*tmp = tb_file_path(tb, name, suffix))) {
            errno = ENOMEM;
            return -1;
        }
        int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0)
            return fd;
        int saved = errno;
        free(*tmp);     /* not ours: never unlinked */
        *tmp = NULL;
        if ((errno = saved) != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

/* Writes the header, the block index and the blocks to fd and syncs it;
 * -1 with errno set on failure. fd is closed on every path. */
static int write_file(int fd, const uint8_t *h, size_t hlen, const uint8_t *index, size_t ilen,
                      const uint8_t *blocks, size_t zlen)
{
    int rc = write_all(fd, h, hlen) < 0 || write_all(fd, index, ilen) < 0 ||
             write_all(fd, blocks, zlen) < 0 || fsync(fd) < 0 ? -1 : 0;
    int saved = errno;
    if (close(fd) < 0 && rc == 0)
        return -1;
    errno = saved;
    return rc;
}

int tb_write(chk_tb *tb, const tb_layout *lay, const uint8_t *data, const tb_stats *st,
             char *err, size_t errlen)
{
    char name[24];
    uint8_t h[HEADER_MAX];
    uint64_t nblocks = block_count(lay->size, TB_BLOCK_SHIFT);
    size_t ilen = index_len(nblocks), zlen = 0;
    const char *why = NULL;
    uint8_t *index = malloc(ilen);
    uint8_t *blocks = malloc((size_t)nblocks * ZSTD_compressBound((size_t)1 << TB_BLOCK_SHIFT));
    tb_sig_name(&lay->sig, name);
    if (index && blocks)
        zlen = compress_blocks(data, lay->size, header_len(tb) + ilen, index, blocks, &why);
    char *path = tb_file_path(tb, name, ""), *tmp = NULL;
    int fd = path && zlen ? create_temp(tb, name, &tmp) : -1;
    int rc = CHK_TB_ERROR;
    if (!path || !index || !blocks || (zlen && fd < 0 && errno == ENOMEM) ||
        (why && !strcmp(why, "out of memory"))) {
        snprintf(err, errlen, "out of memory");
        rc = CHK_NO_MEMORY;
    } else if (!zlen) {
        snprintf(err, errlen, "cannot compress %s: %s", name, why);
    } else if (fd < 0) {
        snprintf(err, errlen, "cannot create a file in %s: %s", tb->dir, strerror(errno));
    } else if (write_file(fd, h, header_make(tb, lay, st, index, ilen, h), index, ilen, blocks,
                          zlen) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    } else if (rename(tmp, path) < 0) {
        snprintf(err, errlen, "cannot rename %s: %s", tmp, strerror(errno));
    } else {
        sync_dir(tb->dir);
        rc = CHK_OK;
    }
    if (rc < 0 && tmp)
        unlink(tmp);
    free(path);
    free(tmp);
    free(index);
    free(blocks);
    return rc;
}

/* Checks the header h of a file of size bytes (hn of them in h) against
 * the table t it should be. NULL when it is t's. */
static const char *header_check(const chk_tb *tb, const tb_table *t, const uint8_t *h, size_t hn,
                                uint64_t size)
{
    if (hn < 16 || memcmp(h, MAGIC, 8))
        return "not a Cheskers tablebase file";
    if (get32(h + 8) < FORMAT_VERSION)
        return "made by an older version of the file format: rebuild with cheskers tb build";
    if (get32(h + 8) != FORMAT_VERSION)
        return "made by a newer version of the file format";
    if (hn < HEADER_FIXED)
        return "truncated or of the wrong size";
    size_t hlen = get32(h + 12), tlen = get32(h + 80);
    uint32_t bsize = get32(h + BLOCK_SIZE_AT);
    unsigned shift = bsize ? (unsigned)__builtin_ctz(bsize) : 0;
    if (tlen > TB_RULES_TEXT || hlen < HEADER_FIXED + tlen || hlen > hn ||
        get64(h + 24) != t->lay.size)
        return "truncated or of the wrong size";
    if ((bsize & (bsize - 1)) || shift < SHIFT_MIN || shift > SHIFT_MAX ||
        get64(h + BLOCKS_AT) != block_count(t->lay.size, shift))
        return "its block size or count is wrong (damaged)";
    /* never more than the signature's blocks can take: a huge file is
       refused before anything is allocated for it */
    if (size < hlen + index_len(get64(h + BLOCKS_AT)) ||
        size > hlen + index_len(get64(h + BLOCKS_AT)) +
                   get64(h + BLOCKS_AT) * ZSTD_compressBound((size_t)1 << shift))
        return "truncated or of the wrong size";
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_KINDS; k++)
            if (h[16 + c * TB_KINDS + k] != t->lay.sig.n[c][k])
                return "its signature is not the one in its name";
    if (tlen != strlen(tb->rules_text) || memcmp(h + HEADER_FIXED, tb->rules_text, tlen))
        return "built for other rules";
    return NULL;
}

/* Checks the block index after the header h (checked) against the
 * header's checksum and the file's size: each block a zstd frame no
 * longer than its content can take, one after the other up to the end.
 * NULL when sound. */
static const char *index_check(const tb_table *t, const uint8_t *h, uint64_t size)
{
    size_t hlen = get32(h + 12);
    uint64_t nblocks = get64(h + BLOCKS_AT), at = hlen + index_len(nblocks);
    unsigned shift = (unsigned)__builtin_ctz(get32(h + BLOCK_SIZE_AT));
    const uint8_t *index = h + hlen;
    if (file_sum(h, hlen, index, index_len(nblocks)) != get64(h + SUM_AT))
        return "checksum mismatch (damaged)";
    for (uint64_t b = 0; b < nblocks; b++) {
        uint64_t from = get64(index + 8 * b), to = get64(index + 8 * b + 8);
        if (from != at || to <= from ||
            to - from > ZSTD_compressBound(block_len(t->lay.size, shift, b)))
            return "its block index is wrong (damaged)";
        at = to;
    }
    return at == size ? NULL : "truncated or of the wrong size";
}

/* Reads n bytes at off of fd into buf: 0, or -1 (errno set; 0 for a file
 * shorter than that). */
static int read_at(int fd, uint8_t *buf, size_t n, off_t off)
{
    while (n) {
        ssize_t r = pread(fd, buf, n, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = 0;
            return -1;
        }
        buf += r;
        n -= (size_t)r;
        off += r;
    }
    return 0;
}

/* Reads and checks the file open at fd as t's: its header and block index
 * (the head), and with whole the whole file, into *file (malloc'ed; its
 * size in *size). NULL when sound, else why not (*file then NULL). Read
 * only when it is a regular file (a FIFO would block every probe). The
 * blocks are not looked at: each is checked when first used. */
static const char *read_table(const chk_tb *tb, const tb_table *t, int fd, bool whole,
                              uint8_t **file, uint64_t *size)
{
    struct stat sb;
    uint8_t h[HEADER_MAX];
    const char *why;
    *file = NULL;
    if (fstat(fd, &sb) < 0)
        return strerror(errno);
    if (!S_ISREG(sb.st_mode))
        return "not a regular file";
    *size = (uint64_t)sb.st_size;
    size_t hn = *size < HEADER_MAX ? (size_t)*size : HEADER_MAX;
    if (read_at(fd, h, hn, 0) < 0)
        return errno ? strerror(errno) : "truncated or of the wrong size";
    if ((why = header_check(tb, t, h, hn, *size)) != NULL)
        return why;
    /* read again with the index (or the whole file), and checked from there:
       the header read first only said how much */
    size_t head = get32(h + 12) + index_len(get64(h + BLOCKS_AT)), n = whole ? *size : head;
    if (!(*file = malloc(n)))
        return "out of memory";
    if (read_at(fd, *file, n, 0) < 0)
        why = errno ? strerror(errno) : "truncated or of the wrong size";
    else if (memcmp(*file, h, get32(h + 12)))
        why = "changed while it was read";
    else
        why = index_check(t, *file, *size);
    if (why) {
        free(*file);
        *file = NULL;
    }
    return why;
}

void tb_unload(tb_table *t)
{
    for (uint64_t b = 0; t->blocks && b < t->nblocks; b++)
        free(atomic_load(&t->blocks[b]));
    free(t->blocks);
    free(t->file);
    t->blocks = NULL;
    t->file = NULL;
    t->nblocks = 0;
}

/* Decompresses the zn bytes at z, one zstd frame, into raw (n bytes):
 * NULL, or why it is not the block (a frame without a checksum, of another
 * size, whose checksum does not match). */
static const char *block_check(const uint8_t *z, size_t zn, uint8_t *raw, size_t n)
{
    /* the frame header descriptor (RFC 8878): bit 2, a content checksum */
    if (zn < 6 || ZSTD_getFrameContentSize(z, zn) != n || !(z[4] & 4) ||
        ZSTD_findFrameCompressedSize(z, zn) != zn)
        return "not a checked zstd frame of its size";
    size_t r = ZSTD_decompress(raw, n, z, zn);
    if (ZSTD_isError(r))
        return ZSTD_getErrorCode(r) == ZSTD_error_checksum_wrong ? "checksum mismatch"
               : ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation ? "out of memory"
               : "cannot be decompressed";
    return r == n ? NULL : "shorter than its size";
}

uint8_t *tb_block_load(chk_tb *tb, tb_table *t, uint64_t b, int *rc)
{
    size_t n = block_len(t->lay.size, t->shift, b);
    const uint8_t *index = t->file + get32(t->file + 12) + 8 * b;
    uint64_t at = get64(index), next = get64(index + 8);      /* checked on load */
    uint8_t *raw = malloc(n), *none = NULL;
    const char *why = raw ? block_check(t->file + at, (size_t)(next - at), raw, n) : "out of memory";
    if (why) {
        free(raw);
        *rc = !strcmp(why, "out of memory") ? CHK_NO_MEMORY : CHK_TB_ERROR;
        snprintf(tb->err, sizeof tb->err, "tablebase %s: block %" PRIu64 " of %" PRIu64 ": %s%s",
                 t->path, b, t->nblocks, why, *rc == CHK_TB_ERROR ? " (damaged)" : "");
        return NULL;
    }
    if (!atomic_compare_exchange_strong_explicit(&t->blocks[b], &none, raw, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        free(raw);      /* another thread was first: its copy is the same */
        raw = none;
    }
    return raw;
}

/* Reads t's file into memory (read, not mapped: a file copied over one in
 * use would kill the process with SIGBUS), opened without blocking, and
 * checks its header, block index and longest win. On failure t is marked
 * damaged and tb->err says why. */
void tb_load(chk_tb *tb, tb_table *t)
{
    uint8_t *file = NULL, byte = 0;
    uint64_t size = 0;
    const char *why;
    int fd = open(t->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        why = strerror(errno);
    } else {
        why = read_table(tb, t, fd, true, &file, &size);
        close(fd);
    }
    if (!why) {
        t->file = file;
        t->shift = (unsigned)__builtin_ctz(get32(file + BLOCK_SIZE_AT));
        t->nblocks = get64(file + BLOCKS_AT);
        t->blocks = calloc((size_t)t->nblocks, sizeof *t->blocks);
        t->st.wins = get64(file + 32);
        t->st.draws = get64(file + 40);
        t->st.losses = get64(file + 48);
        t->st.longest_win = get32(file + 56);
        t->st.longest_index = get64(file + 64);
        if (!t->blocks)
            why = "out of memory";
    }
    if (!why && t->st.longest_win) {
        uint32_t longest = t->st.longest_win;
        if (!(longest & 1) || longest > CHK_TB_MAX_DIST || t->st.longest_index >= t->lay.size)
            why = "its longest win is not in its values (damaged)";
        else if (tb_table_byte(tb, t, t->st.longest_index, &byte) < 0)
            why = "";       /* tb->err names the block */
        else if (byte != TB_BYTE(longest))
            why = "its longest win is not in its values (damaged)";
    }
    if (why) {
        if (*why)
            snprintf(tb->err, sizeof tb->err, "tablebase %s: %s", t->path, why);
        tb_unload(t);
        atomic_store(&t->state, -1);
        return;
    }
    atomic_store(&t->state, 1);
}

bool tb_head_sound(const chk_tb *tb, const tb_table *t)
{
    uint8_t *head = NULL;
    uint64_t size;
    int fd = open(t->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    const char *why = read_table(tb, t, fd, false, &head, &size);
    close(fd);
    free(head);
    return why == NULL;
}

uint64_t tb_file_bytes(const chk_tb *tb, const tb_layout *lay)
{
    uint64_t nblocks = block_count(lay->size, TB_BLOCK_SHIFT), bytes = header_len(tb);
    bytes += index_len(nblocks);
    bytes += (nblocks - 1) * ZSTD_compressBound((size_t)1 << TB_BLOCK_SHIFT);
    return bytes + ZSTD_compressBound(block_len(lay->size, TB_BLOCK_SHIFT, nblocks - 1));
}
