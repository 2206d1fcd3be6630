/*
 * suggest.c - "did you mean": the nearest of a list of names to a word that
 * is not one of them, by edit distance. The one place the program computes
 * and words a suggestion: the core's messages (rules text) and the Lua
 * binding (cheskers.closest, cheskers.did_you_mean, option checks) call it.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cheskers.h"

#define LONGEST 32   /* longer words and names are never close */

/* ASCII letters in lower case: a word that differs from a name only in case
 * ("FEN", "Golomb") is as close as can be. */
static int fold(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* The edit distance (insertions, deletions, substitutions; letter case not
 * counted) of a and b, or a number larger than any close one when either is
 * long. */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    size_t row[LONGEST + 1], i, j;
    if (la > LONGEST || lb > LONGEST)
        return 99;
    for (j = 0; j <= lb; j++)
        row[j] = j;
    for (i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (fold((unsigned char)a[i - 1]) != fold((unsigned char)b[j - 1]));
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* How far word is from name for a suggestion: the edit distance, and at
 * most 1 when name starts with word (two letters or more). */
static size_t suggestion_distance(const char *word, size_t len, const char *name)
{
    size_t nlen = strlen(name);
    size_t d = edit_distance(word, len, name, nlen);
    if (len >= 2 && len <= nlen && strncasecmp(word, name, len) == 0 && d > 1)
        d = 1;
    return d;
}

const char *chk_closest(const char *word, size_t len, const char *const names[], int n)
{
    const char *best = NULL;
    size_t bestd = 99;
    int i;
    for (i = 0; i < n; i++) {
        size_t d = suggestion_distance(word, len, names[i]);
        if (d < bestd || (d == bestd && best && strcmp(names[i], best) < 0)) {
            bestd = d;
            best = names[i];
        }
    }
    return best && bestd <= (len + 2) / 3 ? best : NULL;
}

const char *chk_did_you_mean(char *buf, size_t size, const char *word, size_t len,
                             const char *const names[], int n)
{
    const char *best = chk_closest(word, len, names, n);
    if (size == 0)
        return buf;
    buf[0] = '\0';
    if (best)
        snprintf(buf, size, " (did you mean '%s'?)", best);
    return buf;
}
