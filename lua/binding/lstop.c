/*
 * lstop.c - stopping long calls (the interrupt flag, cheskers.deadline,
 * lb_stop) and the error values of failed core calls (lb_status_error).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbind.h"


/* ---- stopping and failed core calls ------------------------------------- */

/* The one mutable global: set by cheskers.interrupt() or a SIGINT handler. */
static volatile sig_atomic_t interrupt_flag = 0;

volatile sig_atomic_t *lb_interrupt_flag(void)
{
    return &interrupt_flag;
}

/* The deadline argument arg sets on a clock that reads now: now + seconds,
 * or 0 (nil or none: no deadline). */
static double deadline_arg(lua_State *L, int arg, double now)
{
    if (lua_isnoneornil(L, arg))
        return 0;
    lua_Number secs = luaL_checknumber(L, arg);
    luaL_argcheck(L, secs >= 0 && secs < 1e9, arg, "seconds must be from 0 to 1e9");
    return now + secs;
}

/* [-0, +1] The seconds left before a deadline (0: none, pushes nil). */
static void push_left(lua_State *L, double deadline, double now)
{
    if (deadline > 0)
        lua_pushnumber(L, deadline > now ? deadline - now : 0);
    else
        lua_pushnil(L);
}

/* cheskers.deadline([seconds [, cpu_seconds]]): every long core call stops
 * (code "timeout"; a search returns its best move so far) once seconds of
 * wall clock have passed from now, or cpu_seconds of the process's CPU time
 * have been used from now; nil or none: no such deadline. Returns the
 * seconds left of the previous deadlines (wall, CPU), each nil if none. */
int lb_deadline(lua_State *L)
{
    State *st = lb_state(L);
    double now = chk_clock(), cpu_now = chk_cpu_clock();
    double wall = deadline_arg(L, 1, now), cpu = deadline_arg(L, 2, cpu_now);
    push_left(L, st->deadline, now);
    push_left(L, st->cpu_deadline, cpu_now);
    st->deadline = wall;
    st->cpu_deadline = cpu;
    return 2;
}

/* The earlier of two deadlines (0: none). */
static double earlier(double a, double b)
{
    return a > 0 && (b <= 0 || a < b) ? a : b;
}

chk_stop lb_stop(lua_State *L)
{
    State *st = lb_state(L);
    interrupt_flag = 0;
    chk_stop s = chk_stop_make(&interrupt_flag, earlier(st->deadline, st->box_deadline));
    s.cpu_deadline = earlier(st->cpu_deadline, st->box_cpu_deadline);
    return s;
}

void lb_push_status_error(lua_State *L, int status, const char *who)
{
    const char *sep = who ? ": " : "";
    lb_code code;
    if (who == NULL)
        who = "";
    switch (status) {
    case CHK_STOPPED:
        code = LB_E_INTERRUPTED;
        lua_pushliteral(L, "interrupted");
        break;
    case CHK_TIMEOUT:
        code = LB_E_TIMEOUT;
        lua_pushfstring(L, "%s%sdeadline passed (cheskers.deadline)", who, sep);
        break;
    case CHK_HOOK_ERROR:
        code = LB_E_HOOK;
        lua_pushfstring(L, "%s%sa rule hook failed", who, sep);
        break;
    case CHK_NODE_LIMIT:
        code = LB_E_NODE_LIMIT;
        lua_pushfstring(L, "%s%snode limit reached", who, sep);
        break;
    case CHK_NO_MEMORY:
        code = LB_E_NO_MEMORY;
        lua_pushfstring(L, "%s%snot enough memory", who, sep);
        break;
    case CHK_BAD_OPTION:
        code = LB_E_BAD_ARGUMENT;
        lua_pushfstring(L, "%s%san option out of its range", who, sep);
        break;
    default:
        code = LB_E_INTERNAL;
        lua_pushfstring(L, "%s%sfailed (%s)", who, sep, chk_status_name(status));
    }
    lb_push_error(L, code, lua_tostring(L, -1));
    lua_remove(L, -2);
}

int lb_status_error(lua_State *L, int status, const char *who)
{
    lb_push_status_error(L, status, who);
    return lua_error(L);
}
