/*
 * status.c - what every long core call shares: the status names, the one
 * monotonic clock and the CPU clock, stop conditions (a flag, a deadline
 * and a CPU deadline), the allocation of the memory the core keeps for a
 * caller (chk_alloc) and of the hash tables of search.c and solve.c.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE     /* madvise's MADV_HUGEPAGE */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "internal.h"

const char *chk_status_name(int status)
{
    switch (status) {
    case CHK_OK: return "ok";
    case CHK_STOPPED: return "stopped";
    case CHK_TIMEOUT: return "timeout";
    case CHK_HOOK_ERROR: return "hook error";
    case CHK_NO_MEMORY: return "no memory";
    case CHK_NODE_LIMIT: return "node limit";
    case CHK_EVAL_ERROR: return "eval error";
    case CHK_ABORTED: return "aborted";
    case CHK_TB_ERROR: return "tablebase error";
    case CHK_BAD_OPTION: return "bad option";
    default: return "?";
    }
}

double chk_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double chk_cpu_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

chk_stop chk_stop_make(const volatile sig_atomic_t *flag, double deadline)
{
    chk_stop s = {
        .flag = flag,
        .deadline = deadline > 0 ? deadline : 0,
        .countdown = 1,     /* the first check reads the clock */
        .status = CHK_OK,
    };
    return s;
}

chk_status chk__stop_clock(chk_stop *s)
{
    s->countdown = CHK_STOP_EVERY;
    if ((s->deadline > 0 && chk_clock() >= s->deadline) ||
        (s->cpu_deadline > 0 && chk_cpu_clock() >= s->cpu_deadline))
        s->status = CHK_TIMEOUT;
    return s->status;
}

void *chk__mem(const chk_alloc *a, void *p, size_t osize, size_t nsize)
{
    if (a != NULL)
        return a->fn(a->ud, p, p != NULL ? osize : 0, nsize);
    if (nsize == 0) {
        free(p);
        return NULL;
    }
    return realloc(p, nsize);
}

void *chk__zalloc(const chk_alloc *a, size_t n)
{
    void *p;
    if (a == NULL)
        return calloc(1, n);    /* fresh pages of a large block stay untouched */
    p = chk__mem(a, NULL, 0, n);
    if (p != NULL)
        memset(p, 0, n);
    return p;
}

void *chk__table_alloc(const chk_alloc *a, size_t bytes, size_t entry_size, size_t *count)
{
    size_t n = 1024;
    if (bytes == 0)
        bytes = CHK_TABLE_DEFAULT_BYTES;
    while (n <= bytes / entry_size / 2)     /* n * 2 * entry_size <= bytes, without overflow */
        n *= 2;
    *count = n;
    void *t = chk__zalloc(a, n * entry_size);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* The search probes the table at random: with 4 KB pages nearly every
     * probe also misses the TLB. Large pages (where the kernel offers them
     * on request: transparent_hugepage=madvise) for the whole 2 MB pages
     * inside the block the C library gave (fresh pages, not yet touched). */
    if (t != NULL && a == NULL) {
        const uintptr_t huge = (uintptr_t)2 << 20;
        uintptr_t lo = ((uintptr_t)t + huge - 1) & ~(huge - 1);
        uintptr_t hi = ((uintptr_t)t + n * entry_size) & ~(huge - 1);
        if (hi > lo)
            madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    }
#endif
    return t;
}
