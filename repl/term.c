/*
 * term.c - the terminal side of the cheskers program as a small Lua
 * module, "cheskers.readline" (the REPL itself is Lua: cheskers/repl.lua).
 *
 *   readline(prompt)      -> line | nil at end of input | false on Ctrl-C
 *   add_history(line)
 *   read_history(path [, max])    -> true | nil, message
 *   write_history(path)           -> true | nil, message (all entries)
 *   append_history(path)          -> true | nil, message (last entry)
 *   truncate_history(path, max)   -> true | nil, message
 *   set_completer(f | nil)   f(line, start, stop) -> candidates [, kind]
 *   run(f, ...)           -> true, results... | false, error, traceback
 *   listdir(path)         -> array of names | nil, message
 * (whether a file is a terminal, and the clock: cheskers.isatty and
 * cheskers.clock, lua/binding/lsys.c)
 *
 * Input: GNU readline when standard input is a terminal, else a plain
 * stdio reader (no prompt is printed unless one is given).
 *
 * Ctrl-C (SIGINT) can land in three places, told apart by `mode`:
 * - at the prompt (MODE_PROMPT): the line is dropped and readline()
 *   returns false. The handler only sets a flag; readline reads through
 *   term_getc, which turns the flag into a key bound to interrupt_key;
 * - in code started by run() (MODE_RUN): the handler sets the binding's
 *   interrupt flag, so long core work (perft, divide, search) stops and
 *   raises "interrupted", and it sets a Lua hook that raises
 *   "interrupted!" at the next Lua instruction (lua.c's trick). A third
 *   Ctrl-C in the same run() ends the program, for code stuck in C;
 * - elsewhere (MODE_IDLE, the REPL's own short work): ignored.
 *
 * Readline's state is process-wide, so is this file's: one Lua state
 * uses the module at a time.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "lauxlib.h"
#include "lua.h"

#include "lcheskers.h"
#include "lerror.h"
#include "term.h"

enum { MODE_IDLE, MODE_PROMPT, MODE_RUN };

static volatile sig_atomic_t mode = MODE_IDLE;
static volatile sig_atomic_t prompt_interrupted; /* Ctrl-C at the prompt */
static volatile sig_atomic_t run_interrupts;     /* Ctrl-C count in run() */
static volatile sig_atomic_t *core_flag;         /* the binding's flag */
static lua_State *volatile run_L;                /* the state in run() */

/* Completion: the state that called readline() and the candidates of the
 * current attempt (a table on that state's stack, read by comp_next). */
static lua_State *comp_L;
static int comp_table, comp_next_index;
static const char completer_key = 'c'; /* registry key of the Lua completer */

/* Where readline's words start. Not '.', ':', '-', '/': they belong to
 * Lua fields, moves and file names. The Lua completer finds its own token
 * start anyway and adapts its candidates to readline's word. */
static char word_breaks[] = " \t\n\"'`@$><=;|&{(,)}[]+*%^~#!";

/* Set by the Ctrl-C key function: the line being read was dropped. */
static int line_interrupted;

/* ---- signals ------------------------------------------------------------ */

/* The hook set by the SIGINT handler: clears itself and raises. */
static void interrupt_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    lb_error(L, LB_E_INTERRUPTED, "interrupted!");
}

static void on_sigint(int sig)
{
    if (mode == MODE_RUN) {
        if (++run_interrupts >= 3) { /* stuck in C: give up, as lua.c does */
            signal(sig, SIG_DFL);
            raise(sig);
            return;
        }
        *core_flag = 1;
        lua_sethook(run_L, interrupt_hook,
                    LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT, 1);
    } else {
        prompt_interrupted = 1;
    }
}

/* Installs on_sigint, unless SIGINT was ignored when the program started
 * (a background job keeps ignoring it). No SA_RESTART: a read at the
 * plain prompt must return with EINTR. */
static void install_sigint(void)
{
    static int installed;
    struct sigaction sa, old;
    if (installed)
        return;
    installed = 1;
    core_flag = lcheskers_interrupt_flag();
    if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, NULL);
}

/* ---- run ---------------------------------------------------------------- */

/* Message handler of run(): returns {error value, traceback}. */
static int run_handler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    luaL_traceback(L, L, msg, 1);
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, 2);
    return 1;
}

/* run(f, ...): calls f(...) with Ctrl-C armed. Returns true and f's
 * results, or false, the error value and a traceback string (the
 * traceback is nil for memory errors and errors in error handling). */
static int l_run(lua_State *L)
{
    int nargs = lua_gettop(L) - 1, status;
    sig_atomic_t old_mode = mode;
    lua_State *old_L = run_L;
    luaL_checkany(L, 1);
    lua_pushcfunction(L, run_handler);
    lua_insert(L, 1);
    run_L = L;
    run_interrupts = 0;
    *core_flag = 0;
    mode = MODE_RUN;
    status = lua_pcall(L, nargs, LUA_MULTRET, 1);
    mode = MODE_IDLE;
    lua_sethook(L, NULL, 0, 0);
    *core_flag = 0;
    run_L = old_L;
    mode = old_mode;
    if (status == LUA_OK) {
        lua_pushboolean(L, 1);
        lua_replace(L, 1);
        return lua_gettop(L);
    }
    lua_pushboolean(L, 0);
    if (status == LUA_ERRRUN && lua_istable(L, -2)) {
        lua_rawgeti(L, -2, 1);
        lua_rawgeti(L, -3, 2);
    } else {
        lua_pushvalue(L, -2);
        lua_pushnil(L);
    }
    return 3;
}

/* ---- completion --------------------------------------------------------- */

/* Generator for rl_completion_matches: the strings of the candidate table. */
static char *comp_next(const char *text, int state)
{
    const char *s;
    (void)text;
    if (state == 0)
        comp_next_index = 1;
    for (;;) {
        lua_rawgeti(comp_L, comp_table, comp_next_index++);
        if (lua_isnil(comp_L, -1)) {
            lua_pop(comp_L, 1);
            return NULL;
        }
        s = lua_tostring(comp_L, -1);
        lua_pop(comp_L, 1);
        if (s != NULL)
            return strdup(s);
    }
}

/* readline's attempted completion: asks the Lua completer for the
 * candidates that replace line[start, end). The completer's second result
 * may be "files" (let readline complete a file name) or "nospace" (no
 * space after a single match). Errors in the completer mean no match. */
static char **complete(const char *text, int start, int end)
{
    lua_State *L = comp_L;
    char **matches = NULL;
    int top;
    rl_attempted_completion_over = 1;
    if (L == NULL)
        return NULL;
    top = lua_gettop(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &completer_key);
    if (!lua_isfunction(L, -1)) {
        lua_settop(L, top);
        return NULL;
    }
    lua_pushstring(L, rl_line_buffer);
    lua_pushinteger(L, start);
    lua_pushinteger(L, end);
    if (lua_pcall(L, 3, 2, 0) == LUA_OK && lua_istable(L, -2)) {
        const char *kind = lua_tostring(L, -1);
        if (kind != NULL && strcmp(kind, "files") == 0) {
            rl_attempted_completion_over = 0; /* readline's file names */
        } else {
            rl_completion_suppress_append = kind != NULL && strcmp(kind, "nospace") == 0;
            comp_table = lua_absindex(L, -2);
            matches = rl_completion_matches(text, comp_next);
        }
    }
    lua_settop(L, top);
    return matches;
}

static int l_set_completer(lua_State *L)
{
    if (!lua_isnoneornil(L, 1))
        luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &completer_key);
    return 0;
}

/* ---- reading lines ------------------------------------------------------ */

/* readline's character reader: read(2) one byte, so that a Ctrl-C (the
 * read fails with EINTR, or the flag is already up) can be turned into the
 * key code 3, bound to interrupt_key. With ISIG on, a real Ctrl-C never
 * arrives as a byte. */
static int term_getc(FILE *stream)
{
    for (;;) {
        unsigned char c;
        ssize_t n;
        if (prompt_interrupted) {
            prompt_interrupted = 0;
            return 3;
        }
        n = read(fileno(stream), &c, 1);
        if (n == 1)
            return c;
        if (n == 0)
            return EOF;
        if (errno != EINTR)
            return EOF;
    }
}

/* The key function of code 3: prints "^C" after the line and ends it;
 * readline() then returns and l_readline reports false. */
static int interrupt_key(int count, int key)
{
    (void)count;
    (void)key;
    line_interrupted = 1;
    rl_point = rl_end;
    rl_redisplay();
    fputs("^C", rl_outstream ? rl_outstream : stdout);
    rl_done = 1;
    return 0;
}

/* readline's start-up hook: binds code 3 to interrupt_key, after readline
 * has read ~/.inputrc (which could have bound C-c). */
static int bind_interrupt_key(void)
{
    rl_bind_key_in_map(3, interrupt_key, emacs_standard_keymap);
    rl_bind_key_in_map(3, interrupt_key, vi_insertion_keymap);
    rl_bind_key_in_map(3, interrupt_key, vi_movement_keymap);
    return 0;
}

/* Reads a line with readline. Pushes the line, nil (end of input) or
 * false (Ctrl-C). */
static int interactive_readline(lua_State *L, const char *prompt)
{
    char *line;
    comp_L = L;
    line_interrupted = 0;
    prompt_interrupted = 0;
    mode = MODE_PROMPT;
    line = readline(prompt);
    mode = MODE_IDLE;
    comp_L = NULL;
    if (line_interrupted) {
        FILE *out = rl_outstream ? rl_outstream : stdout;
        free(line);
        fputs("\n", out);
        fflush(out);
        lua_pushboolean(L, 0);
    } else if (line == NULL) {
        lua_pushnil(L);
    } else {
        lua_pushstring(L, line);
        free(line);
    }
    return 1;
}

/* Reads a line from stdin without readline. Pushes the line (without its
 * newline), nil at end of input, or false when a Ctrl-C interrupted the
 * read. Byte by byte (stdio buffers them), so that a NUL byte is kept in
 * its line: fgets would hide what follows it and glue on the next line. */
static int plain_readline(lua_State *L, const char *prompt)
{
    luaL_Buffer b;
    int c, got = 0, interrupted = 0;
    if (*prompt) {
        fputs(prompt, stdout);
        fflush(stdout);
    }
    prompt_interrupted = 0;
    mode = MODE_PROMPT;
    luaL_buffinit(L, &b);
    while ((c = getc(stdin)) != EOF) {
        got = 1;
        if (c == '\n')
            break;
        luaL_addchar(&b, (char)c);
    }
    if (c == EOF && ferror(stdin) && errno == EINTR) {
        clearerr(stdin);
        interrupted = 1;
    }
    mode = MODE_IDLE;
    if (interrupted)
        lua_pushboolean(L, 0);
    else if (!got)
        lua_pushnil(L);
    else
        luaL_pushresult(&b); /* a line, or the last one without a newline */
    return 1;
}

static int l_readline(lua_State *L)
{
    const char *prompt = luaL_optstring(L, 1, "");
    lua_settop(L, 1);
    fflush(stdout);
    if (isatty(STDIN_FILENO))
        return interactive_readline(L, prompt);
    return plain_readline(L, prompt);
}

/* ---- history ------------------------------------------------------------ */

static int history_result(lua_State *L, int err, const char *path)
{
    if (err == 0) {
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushnil(L);
    lua_pushfstring(L, "%s: %s", path, strerror(err));
    return 2;
}

static int l_add_history(lua_State *L)
{
    add_history(luaL_checkstring(L, 1));
    return 0;
}

static int l_read_history(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    lua_Integer max = luaL_optinteger(L, 2, 0);
    luaL_argcheck(L, max >= 0 && max <= INT_MAX, 2, "must be from 0 to INT_MAX");
    if (max > 0)
        stifle_history((int)max);
    return history_result(L, read_history(path), path);
}

static int l_write_history(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    return history_result(L, write_history(path), path);
}

/* Appends the newest history entry to the file, creating the file (with
 * the whole history) when it does not exist yet. */
static int l_append_history(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    if (access(path, F_OK) != 0)
        return history_result(L, write_history(path), path);
    return history_result(L, append_history(1, path), path);
}

static int l_truncate_history(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    lua_Integer max = luaL_checkinteger(L, 2);
    luaL_argcheck(L, max >= 0 && max <= INT_MAX, 2, "must be from 0 to INT_MAX");
    return history_result(L, history_truncate_file(path, (int)max), path);
}

/* ---- small system helpers ----------------------------------------------- */

static int l_listdir(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    DIR *d = opendir(path);
    struct dirent *e;
    lua_Integer n = 0;
    if (d == NULL) {
        lua_pushnil(L);
        lua_pushfstring(L, "%s: %s", path, strerror(errno));
        return 2;
    }
    lua_newtable(L);
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        lua_pushstring(L, e->d_name);
        lua_rawseti(L, -2, ++n);
    }
    closedir(d);
    return 1;
}

static const luaL_Reg term_funcs[] = {
    {"readline", l_readline},
    {"add_history", l_add_history},
    {"read_history", l_read_history},
    {"write_history", l_write_history},
    {"append_history", l_append_history},
    {"truncate_history", l_truncate_history},
    {"set_completer", l_set_completer},
    {"run", l_run},
    {"listdir", l_listdir},
    {NULL, NULL}
};

int luaopen_cheskers_readline(lua_State *L)
{
    luaL_newlib(L, term_funcs);
    rl_readline_name = "cheskers";
    rl_catch_signals = 0;
    rl_getc_function = term_getc;
    rl_startup_hook = bind_interrupt_key;
    rl_attempted_completion_function = complete;
    rl_basic_word_break_characters = word_breaks;
    rl_completer_word_break_characters = word_breaks;
    using_history();
    install_sigint();
    return 1;
}
