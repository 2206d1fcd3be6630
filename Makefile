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
OPT     ?= -O2 -march=native
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
LUA_SRC  = lua/lcheskers.c
LUA_OBJ  = build/lua/lcheskers.o
REPL_SRC = $(wildcard repl/*.c)
REPL_OBJ = $(REPL_SRC:%.c=build/%.o)

DEBIAN_PACKAGES = lua5.4 liblua5.4-dev libreadline-dev pkg-config lua-busted \
                  lua-cjson lua-argparse parallel tmux

.PHONY: all deps test bench install uninstall clean run

all: cheskers cheskers.so

build/core/%.o: core/%.c $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

build/lua/%.o: lua/%.c $(CORE_HDR)
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
	@$(MAKE) -s all
	@sh bench/run.sh

run:
	@$(MAKE) -s deps
	@$(MAKE) -s all
	./cheskers

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(CMODDIR) $(DESTDIR)$(LUADIR)/cheskers
	install -m 755 cheskers $(DESTDIR)$(PREFIX)/bin/cheskers
	install -m 644 cheskers.so $(DESTDIR)$(CMODDIR)/cheskers.so
	install -m 644 lua/cheskers/*.lua $(DESTDIR)$(LUADIR)/cheskers/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/cheskers $(DESTDIR)$(CMODDIR)/cheskers.so
	rm -rf $(DESTDIR)$(LUADIR)/cheskers

clean:
	rm -rf build cheskers cheskers.so
