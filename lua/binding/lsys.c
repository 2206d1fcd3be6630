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
 *
 * and the worker processes of cheskers serve (a search runs in a process
 * of its own, so that the server stays responsive and a search is stopped
 * by ending its process):
 *
 *   cheskers.fork([keep_fd]) -> pid | nil, message
 *                                     a child process: 0 in the child, its
 *                                     pid in the parent; in the child every
 *                                     descriptor above 2 but keep_fd is
 *                                     closed (it holds no server socket)
 *   cheskers.fdopen(fd) -> file       a Lua file handle writing to fd
 *   cheskers.kill(pid) -> true | nil, message
 *                                     ends the process (SIGKILL)
 *   cheskers.reap(pid [, wait]) -> status | nil
 *                                     the exit status of a child that
 *                                     ended (signal n: 128 + n); nil while
 *                                     it runs (wait: block until it ends)
 *   cheskers.exit_now(status)         ends the process at once (_exit: no
 *                                     Lua state closed, no buffers of the
 *                                     parent's files flushed twice)
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L       /* fsync, fileno, isatty */
#endif
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
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

/* Closes every descriptor above 2 but keep (in a child just forked). */
static void close_others(int keep)
{
    DIR *d = opendir("/proc/self/fd");
    if (d != NULL) {
        int dfd = dirfd(d), fds[256], n;
        do {            /* close after reading: closing changes the folder */
            struct dirent *e;
            n = 0;
            rewinddir(d);
            while (n < 256 && (e = readdir(d)) != NULL) {
                int fd = atoi(e->d_name);
                if (fd > 2 && fd != keep && fd != dfd)
                    fds[n++] = fd;
            }
            for (int i = 0; i < n; i++)
                close(fds[i]);
        } while (n == 256);
        closedir(d);
        return;
    }
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    for (int fd = 3; fd < max; fd++)
        if (fd != keep)
            close(fd);
}

/* cheskers.fork([keep_fd]) */
static int l_fork(lua_State *L)
{
    lua_Integer keep = luaL_optinteger(L, 1, -1);
    fflush(NULL);               /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0)
        return luaL_fileresult(L, 0, "fork");
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        close_others((int)keep);
    }
    lua_pushinteger(L, pid);
    return 1;
}

/* cheskers.fdopen(fd) */
static int l_fdopen(lua_State *L)
{
    lua_Integer fd = luaL_checkinteger(L, 1);
    luaL_argcheck(L, fd >= 0 && fd <= 1 << 30, 1, "not a descriptor");
    luaL_Stream *p = (luaL_Stream *)lua_newuserdatauv(L, sizeof(luaL_Stream), 0);
    p->closef = NULL;
    luaL_setmetatable(L, LUA_FILEHANDLE);
    p->f = fdopen((int)fd, "wb");
    if (p->f == NULL)
        return luaL_fileresult(L, 0, "fdopen");
    p->closef = close_stream;
    return 1;
}

/* cheskers.kill(pid) */
static int l_kill(lua_State *L)
{
    lua_Integer pid = luaL_checkinteger(L, 1);
    luaL_argcheck(L, pid > 0 && pid <= 1 << 30, 1, "not a process id");
    return luaL_fileresult(L, kill((pid_t)pid, SIGKILL) == 0, "kill");
}

/* cheskers.reap(pid [, wait]) */
static int l_reap(lua_State *L)
{
    lua_Integer pid = luaL_checkinteger(L, 1);
    luaL_argcheck(L, pid > 0 && pid <= 1 << 30, 1, "not a process id");
    int status, r;
    do
        r = waitpid((pid_t)pid, &status, lua_toboolean(L, 2) ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r <= 0)
        return 0;
    lua_pushinteger(L, WIFEXITED(status) ? WEXITSTATUS(status)
                       : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 255);
    return 1;
}

/* cheskers.exit_now(status) */
static int l_exit_now(lua_State *L)
{
    lua_Integer status = luaL_optinteger(L, 1, 0);
    _exit((int)(status & 255));
    return 0;
}

static const luaL_Reg sys_funcs[] = {
    {"fork", l_fork},
    {"fdopen", l_fdopen},
    {"kill", l_kill},
    {"reap", l_reap},
    {"exit_now", l_exit_now},
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
