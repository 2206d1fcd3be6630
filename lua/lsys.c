/*
 * lsys.c - the few system calls the Lua libraries need that stock Lua 5.4
 * lacks (Debian's lua-posix has no 5.4 build):
 *
 *   cheskers.clock() -> seconds       a monotonic clock (chk_clock), for
 *                                     elapsed times; its origin is arbitrary
 *   cheskers.fsync(file) -> true | nil, message
 *                                     flushes a Lua file handle and asks the
 *                                     kernel to put it on disk (fflush +
 *                                     fsync), so that what was written
 *                                     survives a crash of the machine
 *   cheskers.isatty(file) -> boolean  whether a Lua file handle is a terminal
 *   cheskers.create_file(path) -> file | nil, message, errno
 *                                     a new file opened for writing, created
 *                                     exclusively: refused when anything is
 *                                     at path already, a link included (no
 *                                     write ever goes through a link someone
 *                                     planted at a temporary name)
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L       /* fsync, fileno, isatty */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lbind.h"

/* cheskers.clock() */
static int l_clock(lua_State *L)
{
    lua_pushnumber(L, chk_clock());
    return 1;
}

/* The open stream of the Lua file handle at arg (raises otherwise). */
static FILE *check_stream(lua_State *L, int arg)
{
    luaL_Stream *p = (luaL_Stream *)luaL_checkudata(L, arg, LUA_FILEHANDLE);
    luaL_argcheck(L, p->closef != NULL && p->f != NULL, arg, "attempt to use a closed file");
    return p->f;
}

/* cheskers.fsync(file): misuse (not a file, a closed file) raises; a
 * failed flush or fsync returns nil, message (luaL_fileresult). */
static int l_fsync(lua_State *L)
{
    FILE *f = check_stream(L, 1);
    if (fflush(f) != 0)
        return luaL_fileresult(L, 0, NULL);
    return luaL_fileresult(L, fsync(fileno(f)) == 0, NULL);
}

/* cheskers.isatty(file) */
static int l_isatty(lua_State *L)
{
    lua_pushboolean(L, isatty(fileno(check_stream(L, 1))));
    return 1;
}

/* __close/close of a file handle made by create_file, as liolib's own. */
static int close_stream(lua_State *L)
{
    luaL_Stream *p = (luaL_Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
    int ok = fclose(p->f) == 0;
    return luaL_fileresult(L, ok, NULL);
}

/* cheskers.create_file(path) */
static int l_create_file(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    luaL_Stream *p = (luaL_Stream *)lua_newuserdatauv(L, sizeof(luaL_Stream), 0);
    p->closef = NULL;           /* a closed handle until the file is open */
    luaL_setmetatable(L, LUA_FILEHANDLE);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return luaL_fileresult(L, 0, path);
    p->f = fdopen(fd, "wb");
    if (p->f == NULL) {
        int e = errno;
        close(fd);
        unlink(path);
        errno = e;
        return luaL_fileresult(L, 0, path);
    }
    p->closef = close_stream;
    return 1;
}

static const luaL_Reg sys_funcs[] = {
    {"create_file", l_create_file},
    {"clock", l_clock},
    {"fsync", l_fsync},
    {"isatty", l_isatty},
    {NULL, NULL}
};

void lb_open_sys(lua_State *L)
{
    luaL_setfuncs(L, sys_funcs, 0);
}
