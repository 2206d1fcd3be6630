/*
 * fuzz_tb.c - libFuzzer target: the tablebase file reader (core/tb_file.c).
 * Input: one flag byte, then the bytes of the file KKvK.HASH.ctb of the
 * default rules (15,872 entries), written into a private folder. With bit 0
 * of the flag the header checksum is first set to the one the file's header
 * and block index should have (computed here from docs/guide/tables.md), so
 * that the fuzzer gets past it to the block index and the zstd blocks.
 * The tables opened on the folder must either refuse the file with a
 * message naming it, or read it: then its header, a walk over every one of
 * its value bytes and probes of a few positions each return a value or
 * CHK_TB_ERROR with a message. Never a crash, a leak or a hang.
 */
#include <unistd.h>

#include "fuzz.h"
#include "cheskers_tb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], path[128];
static chk_rules rules;

static uint64_t fnv64(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static uint32_t u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t u64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static void cleanup(void)
{
    unlink(path);
    rmdir(dir);
}

/* The folder and the file's name (its rule hash: FNV-1a 32 of the rule
 * text), once; both removed at exit. */
static void setup(void)
{
    char text[512];
    uint32_t h = 2166136261u;
    chk_rules_default(&rules);
    chk_tb_rules_text(&rules, text, sizeof text);
    for (const char *s = text; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    snprintf(dir, sizeof dir, "/tmp/fuzz_tb.XXXXXX");
    if (!mkdtemp(dir))
        abort();
    snprintf(path, sizeof path, "%s/KKvK.%08x.ctb", dir, (unsigned)h);
    atexit(cleanup);
}

/* Sets the checksum at 72 of the file f (n bytes) when its header length
 * and block count leave room for the header and the index. */
static void reseal(uint8_t *f, size_t n)
{
    static const uint8_t zeros[8];
    if (n < 96)
        return;
    uint64_t hlen = u32(f + 12), blocks = u64(f + 88);
    if (hlen < 80 || hlen > n || blocks > n / 8 || (blocks + 1) * 8 > n - hlen)
        return;
    uint64_t sum = fnv64(0xcbf29ce484222325ull, f, 72);
    sum = fnv64(sum, zeros, 8);
    sum = fnv64(sum, f + 80, hlen - 80);
    sum = fnv64(sum, f + hlen, (blocks + 1) * 8);
    memcpy(f + 72, &sum, 8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const fens[] = {
        "8/8/8/8/3k4/2K5/8/K7 w", "8/8/8/8/8/4k3/8/K1K5 w", "8/8/8/8/8/8/1k6/K1K5 w",
    };
    char err[256];
    if (!dir[0])
        setup();
    if (size < 1 || size > 1 << 20)
        return 0;
    uint8_t *file = malloc(size);
    if (!file)
        abort();
    memcpy(file, data + 1, size - 1);
    if (data[0] & 1)
        reseal(file, size - 1);
    FILE *out = fopen(path, "wb");
    if (!out || fwrite(file, 1, size - 1, out) != size - 1 || fclose(out))
        abort();
    free(file);

    chk_tb *tb = chk_tb_open(dir, &rules, err, sizeof err);
    FUZZ_CHECK(tb && chk_tb_count(tb) == 1, "the folder's one table is not listed");
    chk_tb_info info;
    int rc = chk_tb_info_get(tb, 0, &info);
    if (rc < 0) {
        FUZZ_CHECK(rc == CHK_TB_ERROR && strstr(chk_tb_error(tb), path),
                   "refused without naming the file: %s", chk_tb_error(tb));
    } else {
        FUZZ_CHECK(!strcmp(info.name, "KKvK"), "read as %s", info.name);
        chk_tb_walk_opts o = {.min_distance = 1, .keep = 1};
        chk_tb_win longest[1];
        uint64_t count;
        rc = chk_tb_wins(tb, 0, &o, longest, &count);
        FUZZ_CHECK(rc >= 0 || (rc == CHK_TB_ERROR && strstr(chk_tb_error(tb), path)),
                   "a walk failed with %d: %s", rc, chk_tb_error(tb));
        for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
            chk_pos pos;
            int value, dist;
            chk_pos_init(&pos, &rules);
            FUZZ_CHECK(chk_pos_set_fen(&pos, fens[i], err, sizeof err) == 0, "%s", err);
            rc = chk_tb_probe(tb, &pos, &value, &dist);
            FUZZ_CHECK(rc == 1 || (rc == CHK_TB_ERROR && strstr(chk_tb_error(tb), path)),
                       "a probe returned %d: %s", rc, chk_tb_error(tb));
            FUZZ_CHECK(rc != 1 || (dist >= 0 && dist <= CHK_TB_MAX_DIST), "distance %d", dist);
            chk_pos_free(&pos);
        }
    }
    chk_tb_close(tb);
    return 0;
}
