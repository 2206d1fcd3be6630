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
 *   cheskers.read_file(path, cap [, head]) -> text | nil, message, reason
 *                                     the whole text of the regular file at
 *                                     path, read by one owner (cheskers.files)
 *                                     for every file a user names: a folder,
 *                                     a FIFO, a device or a socket is refused
 *                                     by name (stat) before it is opened, and
 *                                     again after a swap: opened without
 *                                     blocking (O_NONBLOCK), the open
 *                                     descriptor fstat'd before any read; a file of more
 *                                     than cap bytes is refused before it is
 *                                     read (by its size, and again by what is
 *                                     read: /proc files say size 0). reason:
 *                                     "missing" (no such file), "folder",
 *                                     "fifo", "device", "socket", "large",
 *                                     "error" (any other failure). head true:
 *                                     the first cap bytes at most, from a
 *                                     file of any size (a header line)
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L       /* fsync, fileno, isatty */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* nil, "path: strerror(e)", reason (ENOENT and ENOTDIR: "missing"). */
static int read_failure(lua_State *L, const char *path, int e)
{
    lua_pushnil(L);
    lua_pushfstring(L, "%s: %s", path, strerror(e));
    lua_pushstring(L, e == ENOENT || e == ENOTDIR ? "missing" : "error");
    return 3;
}

/* nil, "path is ...", reason for a file that is not a regular file. */
static int refuse_kind(lua_State *L, const char *path, mode_t mode)
{
    const char *what, *reason;
    if (S_ISDIR(mode)) {
        what = "a folder";
        reason = "folder";
    } else if (S_ISFIFO(mode)) {
        what = "a FIFO (a named pipe)";
        reason = "fifo";
    } else if (S_ISSOCK(mode)) {
        what = "a socket";
        reason = "socket";
    } else {
        what = "a device";
        reason = "device";
    }
    lua_pushnil(L);
    lua_pushfstring(L, "%s is %s, not a file", path, what);
    lua_pushstring(L, reason);
    return 3;
}

static int refuse_size(lua_State *L, const char *path, lua_Integer cap)
{
    lua_pushnil(L);
    lua_pushfstring(L, "%s is too large (more than %I bytes)", path, cap);
    lua_pushstring(L, "large");
    return 3;
}

/* cheskers.read_file(path, cap [, head]): see the header. The descriptor is closed
 * on every way out. */
static int l_read_file(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    lua_Integer cap = luaL_checkinteger(L, 2);
    int head = lua_toboolean(L, 3);
    luaL_argcheck(L, cap >= 0 && (lua_Unsigned)cap < (lua_Unsigned)(SIZE_MAX / 2), 2, "cap out of range");
    struct stat st;
    /* what is not a regular file is refused before it is even opened (an
     * open may act on a device); the open descriptor is checked again, in
     * case the name was swapped in between */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return refuse_kind(L, path, st.st_mode);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return read_failure(L, path, errno);
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return read_failure(L, path, e);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return refuse_kind(L, path, st.st_mode);
    }
    if (!head && st.st_size > cap) {
        close(fd);
        return refuse_size(L, path, cap);
    }
    /* read at most cap + 1 bytes (one more than cap: too large), into a
     * buffer that starts at the size fstat gave and grows */
    size_t limit = (size_t)cap + (head ? 0 : 1), size = (size_t)st.st_size + 1, got = 0;
    if (size < 4096)
        size = 4096;
    if (size > limit)
        size = limit;
    char *buf = (char *)malloc(size > 0 ? size : 1);
    for (;;) {
        if (buf == NULL) {
            close(fd);
            return luaL_error(L, "not enough memory to read %s", path);
        }
        if (got == size) {
            if (size == limit)
                break;
            size = size > limit / 2 ? limit : 2 * size;
            char *more = (char *)realloc(buf, size);
            if (more == NULL)
                free(buf);
            buf = more;
            continue;
        }
        ssize_t n = read(fd, buf + got, size - got);
        if (n == 0)
            break;
        if (n < 0) {
            int e = errno;
            if (e == EINTR)
                continue;
            free(buf);
            close(fd);
            return read_failure(L, path, e);
        }
        got += (size_t)n;
    }
    close(fd);
    if (!head && got > (size_t)cap) {
        free(buf);
        return refuse_size(L, path, cap);
    }
    lua_pushlstring(L, buf, got);   /* (a memory error here leaks buf) */
    free(buf);
    return 1;
}

static const luaL_Reg sys_funcs[] = {
    {"create_file", l_create_file},
    {"clock", l_clock},
    {"fsync", l_fsync},
    {"isatty", l_isatty},
    {"read_file", l_read_file},
    {NULL, NULL}
};

void lb_open_sys(lua_State *L)
{
    luaL_setfuncs(L, sys_funcs, 0);
}
