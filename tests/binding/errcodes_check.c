/*
 * errcodes_check.c - prints the binding's table of error codes (lua/binding/lerror.c,
 * the enum lb_code of lua/binding/lerror.h), one name a line in enum order, for
 * tests/binding/errcodes_test.sh. Exits 1 when a code has no name or the table
 * answers outside its range.
 */
#include <stdio.h>

#include "lerror.h"

int main(void)
{
    int bad = lb_code_name(-1) != NULL || lb_code_name(LB_E_NCODES) != NULL;
    for (int i = 0; i < LB_E_NCODES; i++) {
        const char *name = lb_code_name(i);
        if (name == NULL || *name == 0)
            bad = 1;
        else
            printf("%s\n", name);
    }
    return bad;
}
