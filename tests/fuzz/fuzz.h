/*
 * fuzz.h - shared by the libFuzzer targets in tests/fuzz/: rule sets chosen
 * by input bytes, and the invariant checks every target runs on a position.
 *
 * A broken invariant is reported on stderr and aborts, so libFuzzer keeps
 * the input as a crash. Only the public header is used: the targets test the
 * core as the binding and the program see it.
 */
#ifndef CHESKERS_FUZZ_H
#define CHESKERS_FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cheskers.h"

#define FUZZ_CHECK(cond, ...)                                                  \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "invariant broken at %s:%d: ", __FILE__, __LINE__);\
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* A NUL-terminated copy of data (malloc'd; the caller frees it). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* A rule set chosen by two bytes: every option of docs/reference/rules.md, and now and then
 * extra piece kinds (a jumping N, a riding W) or a redefined bishop/camel.
 * Always finishes; returns 0 or aborts. */
static inline void fuzz_rules(chk_rules *r, uint8_t a, uint8_t b)
{
    static const int8_t knight_jump[1][2] = { { 2, 2 } };
    static const int8_t wazir_ride[1][2] = { { 2, 0 } };
    static const int8_t bishop_more[2][2] = { { 1, 1 }, { 3, 1 } };
    static const int8_t camel_ride[1][2] = { { 1, 3 } };
    static const char *const capture[4] = { "mixed", "jumps", "all", "optional" };
    static const char *const promote[8] = { "KBC", "K", "B", "C", "KB", "KC", "BC", "KBC" };
    char err[256];
    chk_rules_default(r);
    chk_rules_set(r, "majority", (a & 1) ? "false" : "true", err, sizeof err);
    chk_rules_set(r, "capture", capture[(a >> 1) & 3], err, sizeof err);
    chk_rules_set(r, "first", (a & 8) ? "white" : "black", err, sizeof err);
    chk_rules_set(r, "flying_kings", (a & 16) ? "true" : "false", err, sizeof err);
    chk_rules_set(r, "pawns_capture_backward", (a & 32) ? "true" : "false", err, sizeof err);
    chk_rules_set(r, "draw_repetition", (a & 64) ? "3" : "0", err, sizeof err);
    chk_rules_set(r, "draw_quiet_plies", (a & 128) ? "12" : "0", err, sizeof err);
    if (b & 8)
        FUZZ_CHECK(!chk_rules_set_kind(r, 'N', CHK_STYLE_JUMP, true, knight_jump, 1, NULL, 0,
                                       err, sizeof err), "%s", err);
    if (b & 16)
        FUZZ_CHECK(!chk_rules_set_kind(r, 'W', CHK_STYLE_TAKE, false, NULL, 0, wazir_ride, 1,
                                       err, sizeof err), "%s", err);
    if (b & 32)
        FUZZ_CHECK(!chk_rules_set_kind(r, 'B', CHK_STYLE_TAKE, (b & 64) != 0, NULL, 0,
                                       bishop_more, 2, err, sizeof err), "%s", err);
    if (b & 128)
        FUZZ_CHECK(!chk_rules_set_kind(r, 'C', (b & 64) ? CHK_STYLE_JUMP : CHK_STYLE_TAKE,
                                       (b & 64) != 0, NULL, 0, camel_ride, 1, err, sizeof err),
                   "%s", err);
    if (b & 8 && b & 4)
        chk_rules_set(r, "promote", "KN", err, sizeof err);
    else
        chk_rules_set(r, "promote", promote[b & 7], err, sizeof err);
    FUZZ_CHECK(!chk_rules_finish(r, err, sizeof err), "rules do not finish: %s", err);
}

/* Checks what must hold in every position p (p is restored afterwards):
 * the consistency checker passes, the FEN reads back to itself, the fast
 * count equals the generator, the moves are distinct, each move's text reads
 * back to that move, make/unmake restores FEN and hash, and the game is over
 * exactly when there is no move. deep: also perft(2) three ways. */
static inline void fuzz_check_position(chk_pos *p, bool deep)
{
    static chk_move list[CHK_MAX_MOVES];
    char fen[256], fen2[256], text[128], err[512];
    const char *fault = chk_pos_check(p);
    FUZZ_CHECK(!fault, "chk_pos_check: %s", fault);
    chk_pos_fen(p, fen, sizeof fen);
    uint64_t hash = p->hash;
    size_t nhist = p->nhist;

    /* the FEN reads back to itself (in a copy: the history stays) */
    chk_pos q;
    chk_pos_init(&q, p->rules);
    FUZZ_CHECK(!chk_pos_set_fen(&q, fen, err, sizeof err), "own FEN refused: %s: %s", fen, err);
    chk_pos_fen(&q, fen2, sizeof fen2);
    FUZZ_CHECK(!strcmp(fen, fen2), "FEN round trip: %s -> %s", fen, fen2);
    FUZZ_CHECK(q.hash == hash, "hash differs after FEN round trip: %s", fen);
    chk_pos_free(&q);

    int n = chk_gen_moves(p, list);
    int c = chk_count_moves(p);
    FUZZ_CHECK(n >= 0, "hook failure without hooks: %s", fen);
    FUZZ_CHECK(n == c, "chk_count_moves %d, chk_gen_moves %d: %s", c, n, fen);
    int reason, winner = chk_result(p, &reason);
    FUZZ_CHECK((n == 0) == (winner != CHK_ONGOING),
               "%d moves but result %d (%s): %s", n, winner, chk_reason_name(reason), fen);
    for (int i = 0; i < n; i++) {
        const chk_move *m = &list[i];
        FUZZ_CHECK(m->npath >= 1 && m->npath <= CHK_MAX_PATH && m->path[m->npath - 1] == m->to,
                   "bad path in move %d: %s", i, fen);
        for (int j = 0; j < i; j++) {
            chk_move_text(p, &list[j], text, sizeof text);
            FUZZ_CHECK(!chk_move_equal(&list[i], &list[j]), "move %s listed twice: %s", text, fen);
        }
        chk_move_text(p, m, text, sizeof text);
        chk_move back;
        int rc = chk_parse_move(p, text, &back, err, sizeof err);
        FUZZ_CHECK(!rc, "own move text %s refused: %s: %s", text, err, fen);
        FUZZ_CHECK(chk_move_equal(&back, m), "move text %s reads back as another move: %s", text, fen);
        FUZZ_CHECK(chk_make(p, m), "chk_make failed");
        fault = chk_pos_check(p);
        FUZZ_CHECK(!fault, "after %s: %s: %s", text, fault, fen);
        FUZZ_CHECK(chk_unmake(p), "chk_unmake failed");
        chk_pos_fen(p, fen2, sizeof fen2);
        FUZZ_CHECK(!strcmp(fen, fen2), "make/unmake %s: %s -> %s", text, fen, fen2);
        FUZZ_CHECK(p->hash == hash, "make/unmake %s changes the hash: %s", text, fen);
        FUZZ_CHECK(p->nhist == nhist, "make/unmake %s changes the history: %s", text, fen);
    }
    if (deep) {
        static chk_move roots[CHK_MAX_MOVES];
        static int64_t counts[CHK_MAX_MOVES];
        int64_t a = chk_perft(p, 2, true, NULL), b = chk_perft(p, 2, false, NULL);
        FUZZ_CHECK(a == b, "perft(2) bulk %lld, plain %lld: %s", (long long)a, (long long)b, fen);
        int nr = chk_divide(p, 2, roots, counts, NULL);
        int64_t sum = 0;
        for (int i = 0; i < nr; i++)
            sum += counts[i];
        FUZZ_CHECK(nr == n && sum == a, "divide(2) %d moves sum %lld, perft(2) %lld: %s", nr,
                   (long long)sum, (long long)a, fen);
        chk_pos_fen(p, fen2, sizeof fen2);
        FUZZ_CHECK(!strcmp(fen, fen2) && p->hash == hash, "perft changed the position: %s", fen);
    }
}

#endif
