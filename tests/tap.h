/*
 * tests/tap.h - included by the C test programs that print numbered TAP
 * lines themselves (capi_check.c, status_check.c): one check() for them.
 * tap_done() prints the plan and gives the exit status.
 */
#ifndef TESTS_TAP_H
#define TESTS_TAP_H

#include <stdio.h>

static int test_no;
static int failures;

static void check(int ok, const char *what)
{
    test_no++;
    if (!ok)
        failures++;
    printf("%s %d - %s\n", ok ? "ok" : "not ok", test_no, what);
    fflush(stdout);     /* the lines so far survive a crash in a later check */
}

static int tap_done(void)
{
    printf("1..%d\n", test_no);
    return failures != 0;
}

#endif
