# Makefile - builds the rules core, the Lua module cheskers.so and the
# cheskers program; runs the tests and benchmarks; installs.
#   make            build ./cheskers and ./cheskers.so
#   make deps       install the missing Debian packages (prints what it installs)
#   make test       every test (summary line "N passed, N failed")
#   make bench      benchmarks (see README for the figures)
#   make install    honours PREFIX and DESTDIR

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
OPT     ?= -O3 -march=native
WARN    = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wmissing-prototypes \
          -Wstrict-prototypes -Wwrite-strings
CFLAGS  ?=
LUA_CFLAGS := $(shell pkg-config --cflags lua5.4 2>/dev/null)
LUA_LIBS   := $(shell pkg-config --libs lua5.4 2>/dev/null)
LUADIR  = $(PREFIX)/share/lua/5.4
CMODDIR = $(PREFIX)/lib/$(shell gcc -print-multiarch 2>/dev/null)/lua/5.4
ALL_CFLAGS = $(WARN) $(OPT) -fPIC -D_POSIX_C_SOURCE=200809L $(CFLAGS)

CORE_SRC = $(wildcard core/*.c)
CORE_HDR = $(wildcard core/*.h)
CORE_OBJ = $(CORE_SRC:%.c=build/%.o)
LUA_SRC  = $(wildcard lua/*.c)   # lcheskers.c, lsolve.c, ...
LUA_OBJ  = $(LUA_SRC:%.c=build/%.o)
REPL_SRC = $(wildcard repl/*.c)
REPL_OBJ = $(REPL_SRC:%.c=build/%.o)

DEBIAN_PACKAGES = lua5.4 liblua5.4-dev libreadline-dev pkg-config lua-busted \
                  lua-cjson lua-argparse parallel tmux

.PHONY: all deps deps-check test bench install uninstall clean run

all: cheskers cheskers.so

build/core/%.o: core/%.c $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

build/lua/%.o: lua/%.c $(CORE_HDR) $(wildcard lua/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LUA_CFLAGS) -Icore -c $< -o $@

build/repl/%.o: repl/%.c $(CORE_HDR) $(wildcard repl/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LUA_CFLAGS) -Icore -Ilua -DCHESKERS_LUADIR='"$(LUADIR)"' -c $< -o $@

build/libcheskers.a: $(CORE_OBJ)
	ar rcs $@ $^

cheskers.so: $(LUA_OBJ) build/libcheskers.a
	$(CC) -shared $(OPT) -o $@ $(LUA_OBJ) build/libcheskers.a

cheskers: $(REPL_OBJ) $(LUA_OBJ) build/libcheskers.a
	$(CC) $(OPT) -o $@ $(REPL_OBJ) $(LUA_OBJ) build/libcheskers.a $(LUA_LIBS) -lreadline -lm -Wl,-E

# the release gate's tools too: fuzzing, sanitizers, valgrind, LuaRocks
CHECK_PACKAGES = $(DEBIAN_PACKAGES) clang libclang-rt-dev valgrind luarocks

deps-check:
	@$(MAKE) -s deps DEBIAN_PACKAGES="$(CHECK_PACKAGES)"

deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# deps first, in its own make, so that pkg-config answers once lua5.4 is there
test:
	@$(MAKE) -s deps
	@$(MAKE) -s all
	@sh tests/run.sh

bench:
	@$(MAKE) -s deps
	@$(MAKE) -s all build/perft_bench build/search_bench
	@sh bench/run.sh

build/perft_bench: bench/perft_bench.c build/libcheskers.a
	$(CC) $(ALL_CFLAGS) -Icore $< build/libcheskers.a -o $@

build/search_bench: bench/search_bench.c build/libcheskers.a
	$(CC) $(ALL_CFLAGS) -Icore $< build/libcheskers.a -o $@

run:
	@$(MAKE) -s deps
	@$(MAKE) -s all
	./cheskers

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(CMODDIR) $(DESTDIR)$(LUADIR)/cheskers
	install -m 755 cheskers $(DESTDIR)$(PREFIX)/bin/cheskers
	install -m 644 cheskers.so $(DESTDIR)$(CMODDIR)/cheskers.so
	install -m 644 lua/cheskers/*.lua $(DESTDIR)$(LUADIR)/cheskers/
	install -d $(DESTDIR)$(LUADIR)/cheskers/cmd
	install -m 644 lua/cheskers/cmd/*.lua $(DESTDIR)$(LUADIR)/cheskers/cmd/
	install -d $(DESTDIR)$(PREFIX)/share/cheskers/bots
	install -m 644 scripts/bots/*.lua $(DESTDIR)$(PREFIX)/share/cheskers/bots/
	install -d $(DESTDIR)$(MANDIR)
	install -m 644 docs/cheskers.1 $(DESTDIR)$(MANDIR)/cheskers.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/cheskers $(DESTDIR)$(CMODDIR)/cheskers.so
	rm -rf $(DESTDIR)$(LUADIR)/cheskers $(DESTDIR)$(PREFIX)/share/cheskers
	rm -f $(DESTDIR)$(MANDIR)/cheskers.1

clean:
	rm -rf build cheskers cheskers.so

# ---- hardening: fuzzing, sanitizers, valgrind, install test ----------------
#   make fuzz          each libFuzzer target FUZZ_TIME seconds (default 600)
#   make fuzz-short    each target FUZZ_SHORT seconds (about a minute in all)
#   make sanitize      the test suite under ASan+UBSan, gcc and clang, -Werror
#   make valgrind      the test suite under valgrind
#   make install-test  make install into a temporary DESTDIR, then run it
#   make check-all     all of the above (fuzz-short) and make test
# Targets and corpora: tests/fuzz/ (see tests/fuzz/run.sh).

# the man page (installed by install above)
MANDIR        = $(PREFIX)/share/man/man1

FUZZ_CC      ?= clang
FUZZ_FLAGS    = -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=all
FUZZ_TARGETS  = fen move rules ops record
FUZZ_TIME    ?= 600
FUZZ_SHORT   ?= 10
FUZZ_BIN      = $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)

.PHONY: fuzz fuzz-build fuzz-short sanitize valgrind install-test check-all

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -D_POSIX_C_SOURCE=200809L -Icore $< $(CORE_SRC) -lm -o $@

build/fuzz/fuzz_record: tests/fuzz/fuzz_record.c $(CORE_SRC) $(CORE_HDR) $(LUA_SRC) lua/lcheskers.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -D_POSIX_C_SOURCE=200809L $(LUA_CFLAGS) -Icore -Ilua \
	  -DFUZZ_LUADIR='"$(CURDIR)/lua"' $< $(LUA_SRC) $(CORE_SRC) $(LUA_LIBS) -lm -o $@

fuzz-build:
	@$(MAKE) -s deps-check
	@$(MAKE) -s $(FUZZ_BIN)

fuzz: fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_TIME) $(FUZZ_TARGETS)

fuzz-short: fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_SHORT) $(FUZZ_TARGETS)

sanitize:
	@$(MAKE) -s deps-check
	@sh tests/sanitize.sh

valgrind:
	@$(MAKE) -s deps-check
	@sh tests/valgrind.sh

install-test:
	@$(MAKE) -s deps-check
	@$(MAKE) -s all
	@CHESKERS_INSTALL_STRICT=1 sh tests/install_test.sh

check-all:
	@$(MAKE) -s test
	@$(MAKE) -s fuzz-short
	@$(MAKE) -s sanitize
	@$(MAKE) -s valgrind
	@$(MAKE) -s install-test
