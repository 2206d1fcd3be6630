# Makefile - builds the rules core, the Lua module cheskers.so and the
# cheskers program; runs the tests and benchmarks; installs.
#   make            build ./cheskers and ./cheskers.so
#   make deps       install the missing Debian packages (prints what it installs;
#                   leaves the lua/luac alternatives as they were)
#   make test       every test (summary line "N passed, N failed"), the suites
#                   side by side (TEST_JOBS at a time, default: the cores)
#   make man        the man page's subcommand options and docs/reference/commands.md
#                   from the program's parsers and help texts
#   make docs       the generated pages of docs/generated/ (long: see below)
#   make lint       luacheck over the Lua files (.luacheckrc)
#   make check-studies5 TB=DIR   the 5-piece studies against the 5-piece tables
#   make bench      benchmarks, built for this CPU (NATIVE=1; docs/BENCHMARKS.md)
#   make bench-nps OLD=COMMIT [NEW=COMMIT]   nodes a second of two engines on
#                   the same positions (bench/nps_compare.sh; NEW: this tree)
#   make install    honours PREFIX and DESTDIR
#   make NATIVE=1   build for this machine's CPU (-march=native); the default
#                   build is portable, and is what make install installs

PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man/man1
CC      ?= cc
OPT     ?= -O3
NATIVE  ?= 0
ARCH_FLAGS = $(if $(filter 1,$(NATIVE)),-march=native)
WARN    = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wmissing-prototypes \
          -Wstrict-prototypes -Wwrite-strings
CFLAGS  ?=
LDFLAGS ?=
LUA_CFLAGS := $(shell pkg-config --cflags lua5.4 2>/dev/null)
LUA_LIBS   := $(shell pkg-config --libs lua5.4 2>/dev/null)
# Debian's layout: C modules under lib/<multiarch>/lua/5.4 (the multiarch
# name from the compiler, else from lua5.4's pkg-config file)
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
ifeq ($(MULTIARCH),)
MULTIARCH := $(shell pkg-config --variable=deb_host_multiarch lua5.4 2>/dev/null)
endif
LUADIR  ?= $(PREFIX)/share/lua/5.4
CMODDIR ?= $(PREFIX)/lib/$(if $(MULTIARCH),$(MULTIARCH)/)lua/5.4
ALL_CFLAGS = $(WARN) $(OPT) $(ARCH_FLAGS) -fPIC -D_POSIX_C_SOURCE=200809L $(CFLAGS)
LINK_FLAGS = $(OPT) $(ARCH_FLAGS) $(LDFLAGS)

# Every object depends on build/flags, rewritten only when the compiler or
# the flags change: switching NATIVE, OPT, CFLAGS or LDFLAGS rebuilds all
# (so make install after make bench installs a portable build again).
FLAGS_NOW := $(strip $(CC) | $(ALL_CFLAGS) | $(LUA_CFLAGS) | $(LINK_FLAGS))
ifneq ($(FLAGS_NOW),$(strip $(file <build/flags)))
$(shell mkdir -p build)
$(file >build/flags,$(FLAGS_NOW))
endif

CORE_SRC = $(wildcard core/*.c)
CORE_HDR = $(wildcard core/*.h)
CORE_OBJ = $(CORE_SRC:%.c=build/%.o)
LUA_SRC  = $(wildcard lua/binding/*.c)   # the binding: lcheskers.c, lsolve.c, ...
LUA_OBJ  = $(LUA_SRC:%.c=build/%.o)
REPL_SRC = $(wildcard repl/*.c)
REPL_OBJ = $(REPL_SRC:%.c=build/%.o)

# lua-check is luacheck (make lint); lua-dkjson and lua-filesystem are used
# by the Lua library; libzstd-dev compresses the tablebase files (zstd, the
# program, unpacks them independently in tests/core/tb_spec.lua); lua-http and
# lua-cqueues are cheskers serve's HTTP and WebSocket server (pure Lua for
# 5.1-5.3 that runs on 5.4; cqueues has a 5.4 build); python3, chromium,
# chromium-driver and python3-selenium run its tests (tests/program/serve_test.sh,
# tests/program/board_test.sh: the page in headless Chromium); curl runs the
# examples of docs/reference/serve-api.md
DEBIAN_PACKAGES = lua5.4 liblua5.4-dev libreadline-dev pkg-config lua-busted \
                  lua-cjson lua-argparse lua-dkjson lua-filesystem lua-check \
                  parallel tmux libzstd-dev zstd lua-http lua-cqueues \
                  python3 chromium chromium-driver python3-selenium curl

.PHONY: all deps deps-check test lint mutate bench bench-nps install uninstall clean run print-dirs man docs

all: cheskers cheskers.so

# written at parse time above; this rule recreates it after a make clean in
# the same run (make clean all)
build/flags:
	@$(shell mkdir -p build)$(file >$@,$(FLAGS_NOW))

build/core/%.o: core/%.c $(CORE_HDR) build/flags
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

build/lua/%.o: lua/%.c $(CORE_HDR) $(wildcard lua/binding/*.h) build/flags
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LUA_CFLAGS) -Icore -c $< -o $@

build/repl/%.o: repl/%.c $(CORE_HDR) $(wildcard lua/binding/*.h) $(wildcard repl/*.h) build/flags
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LUA_CFLAGS) -Icore -Ilua/binding -DCHESKERS_LUADIR='"$(LUADIR)"' -c $< -o $@

build/libcheskers.a: $(CORE_OBJ)
	ar rcs $@ $^

cheskers.so: $(LUA_OBJ) build/libcheskers.a
	$(CC) -shared $(LINK_FLAGS) -o $@ $(LUA_OBJ) build/libcheskers.a -lzstd

cheskers: $(REPL_OBJ) $(LUA_OBJ) build/libcheskers.a
	$(CC) $(LINK_FLAGS) -o $@ $(REPL_OBJ) $(LUA_OBJ) build/libcheskers.a $(LUA_LIBS) -lreadline -lzstd -lm -Wl,-E

# the release gate's tools too: fuzzing, sanitizers, valgrind, LuaRocks
CHECK_PACKAGES = $(DEBIAN_PACKAGES) clang libclang-rt-dev valgrind luarocks

deps-check:
	@$(MAKE) -s deps DEBIAN_PACKAGES="$(CHECK_PACKAGES)"

# make slurm-check only: a single-node Slurm (tests/tools/slurm_check.sh)
SLURM_PACKAGES = $(DEBIAN_PACKAGES) slurm-wlm munge

# Installing must not change which lua (and luac) the machine runs: Debian's
# lua-check and luarocks pull in lua5.1, whose higher alternative priority
# would take /usr/bin/lua over. Each alternative below (NAME:the project's
# choice) is read before apt-get and put back afterwards: an automatic
# choice that moved is set back by hand (update-alternatives --set, which
# leaves it in manual mode), a manual one is kept, and one that did not
# exist before points at Lua 5.4.
LUA_ALTERNATIVES = lua-interpreter:/usr/bin/lua5.4 lua-compiler:/usr/bin/luac5.4

deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f '$${Status}' $$p 2>/dev/null | grep -q ' installed$$' || \
	    missing="$$missing $$p"; done; \
	[ -n "$$missing" ] || exit 0; \
	echo "make deps: installing$$missing"; \
	SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	alt_value() { update-alternatives --query "$$1" 2>/dev/null | sed -n 's/^Value: //p'; }; \
	before=""; for a in $(LUA_ALTERNATIVES); do \
	  v=$$(alt_value "$${a%%:*}"); before="$$before $${a%%:*}:$${v:-$${a#*:}}"; done; \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing || exit 1; \
	for a in $$before; do \
	  name=$${a%%:*}; want=$${a#*:}; now=$$(alt_value "$$name"); \
	  if [ -n "$$now" ] && [ "$$now" != "$$want" ] && [ -e "$$want" ]; then \
	    echo "make deps: $$name back to $$want (the install moved it to $$now)"; \
	    $$SUDO update-alternatives --quiet --set "$$name" "$$want" || exit 1; \
	  fi; done

# deps first, in its own make, so that pkg-config answers once lua5.4 is there
test:
	@$(MAKE) -s deps
	@$(MAKE) -s all
	@sh tests/run.sh

# the man page's SUBCOMMAND OPTIONS, written from the subcommands' argparse
# parsers, and docs/reference/commands.md, what --help and help WORD print
# (scripts/tools/manpage.lua; tests/tools/docs_test.sh checks they are current)
man: all
	@./cheskers scripts/tools/manpage.lua docs/reference/cheskers.1

# The generated pages of docs/generated/, made again: the endgame atlas of
# every table up to 5 pieces (from TB=DIR, else tables built into tb/: about
# 25 minutes and 2 GB of memory, resumable) and the example report of the
# flying kings experiment (6,000 games over the cores: about 20 minutes).
DOCS_TB ?= $(if $(TB),$(TB),tb)
docs: all
	./cheskers tb build --pieces 5 --dir $(DOCS_TB)
	./cheskers tb atlas --pieces 5 --dir $(DOCS_TB) > docs/generated/endgames.md
	parallel -j "$$(nproc)" ./cheskers experiment scripts/experiments/flying_kings.lua \
	  --shard {}/2 --out runs/flying_kings --quiet ::: 1 2
	./cheskers report runs/flying_kings --no-svg --html docs/generated/report_flying_kings.html \
	  --title 'Cheskers: short kings (golomb) vs flying kings, engine levels 1, 3, 5'

# luacheck over every Lua file of the repository (.luacheckrc); make test runs
# it over the files listed in tests/run.sh
LINT_DIRS = lua repl scripts tests bench
lint:
	@$(MAKE) -s deps
	@luacheck -q $(LINT_DIRS)

# mutation testing of core/ (tests/mutate.lua): small deliberate bugs, one
# at a time, against the core's tests; run it before changing the core.
# MUTATE_ARGS: --seed S --per-file N --files core/a.c,core/b.c
#              --recheck build/mutate-report.txt (only the survivors of a report)
MUTATE_ARGS ?=
mutate:
	@$(MAKE) -s deps
	@$(MAKE) -s all
	@lua5.4 tests/mutate.lua $(MUTATE_ARGS)

# the figures in docs/BENCHMARKS.md are from this build: NATIVE=1 (-march=native)
bench:
	@$(MAKE) -s deps
	@$(MAKE) -s NATIVE=1 all build/perft_bench build/search_bench
	@sh bench/run.sh

# today's engine (or NEW) against OLD (default e0fb041, issue 23's start);
# NATIVE=1 builds both for this CPU
OLD ?= e0fb041
NEW ?=
bench-nps:
	@$(MAKE) -s deps
	@NATIVE=$(NATIVE) sh bench/nps_compare.sh $(OLD) $(NEW)

build/perft_bench: bench/perft_bench.c build/libcheskers.a
	$(CC) $(ALL_CFLAGS) -Icore $< build/libcheskers.a $(LDFLAGS) -lzstd -o $@

build/search_bench: bench/search_bench.c build/libcheskers.a
	$(CC) $(ALL_CFLAGS) -Icore $< build/libcheskers.a $(LDFLAGS) -lzstd -o $@

run:
	@$(MAKE) -s deps
	@$(MAKE) -s all
	./cheskers

# the folders make install uses, as shell assignments (tests/tools/install_test.sh)
print-dirs:
	@echo "BINDIR='$(BINDIR)' CMODDIR='$(CMODDIR)' LUADIR='$(LUADIR)' MANDIR='$(MANDIR)'"

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(CMODDIR) $(DESTDIR)$(LUADIR)/cheskers
	install -m 755 cheskers $(DESTDIR)$(BINDIR)/cheskers
	install -m 644 cheskers.so $(DESTDIR)$(CMODDIR)/cheskers.so
	install -m 644 lua/cheskers/*.lua $(DESTDIR)$(LUADIR)/cheskers/
	install -d $(DESTDIR)$(LUADIR)/cheskers/web
	install -m 644 lua/cheskers/web/* $(DESTDIR)$(LUADIR)/cheskers/web/
	install -m 644 repl/cheskers/*.lua $(DESTDIR)$(LUADIR)/cheskers/
	install -d $(DESTDIR)$(LUADIR)/cheskers/cmd
	install -m 644 repl/cheskers/cmd/*.lua $(DESTDIR)$(LUADIR)/cheskers/cmd/
	install -d $(DESTDIR)$(LUADIR)/cheskers/store
	install -m 644 lua/cheskers/store/*.lua $(DESTDIR)$(LUADIR)/cheskers/store/
	install -d $(DESTDIR)$(LUADIR)/cheskers/meta
	install -m 644 lua/cheskers/meta/*.lua $(DESTDIR)$(LUADIR)/cheskers/meta/
	install -d $(DESTDIR)$(LUADIR)/cheskers/repl/commands
	install -m 644 repl/*.lua $(DESTDIR)$(LUADIR)/cheskers/repl/
	install -m 644 repl/commands/*.lua $(DESTDIR)$(LUADIR)/cheskers/repl/commands/
	install -d $(DESTDIR)$(PREFIX)/share/cheskers/bots
	install -m 644 scripts/bots/*.lua $(DESTDIR)$(PREFIX)/share/cheskers/bots/
	install -d $(DESTDIR)$(MANDIR)
	install -m 644 docs/reference/cheskers.1 $(DESTDIR)$(MANDIR)/cheskers.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/cheskers $(DESTDIR)$(CMODDIR)/cheskers.so
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
#   make slurm-check   the Slurm recipe run for real on a single-node Slurm
#                      set up for it (root; installs slurm-wlm and munge)
#   make design-check  design search's planted-truth checks at larger budgets
#   make check-all     all of the above (fuzz-short), make test, the chaos
#                      test with 20 kills (CHAOS_KILLS=20 tests/program/chaos_test.sh)
#                      and every example of the docs, the long ones marked
#                      "not run" included (DOCS_ALL=1 tests/tools/docs_test.sh)
# Targets and corpora: tests/fuzz/ (see tests/fuzz/run.sh).

FUZZ_CC      ?= clang
FUZZ_FLAGS    = -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=all
FUZZ_TARGETS  = fen move rules ops record tb
FUZZ_TIME    ?= 600
FUZZ_SHORT   ?= 10
FUZZ_BIN      = $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)

.PHONY: fuzz fuzz-build fuzz-short sanitize valgrind install-test slurm-check check-all html-check check-studies5 \
        design-check

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -D_POSIX_C_SOURCE=200809L -Icore $< $(CORE_SRC) $(LDFLAGS) -lzstd -lm -o $@

build/fuzz/fuzz_record: tests/fuzz/fuzz_record.c $(CORE_SRC) $(CORE_HDR) $(LUA_SRC) $(wildcard lua/binding/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -D_POSIX_C_SOURCE=200809L $(LUA_CFLAGS) -Icore -Ilua/binding \
	  -DFUZZ_LUADIR='"$(CURDIR)/lua"' $< $(LUA_SRC) $(CORE_SRC) $(LDFLAGS) $(LUA_LIBS) -lzstd -lm -o $@

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
	@CHESKERS_INSTALL_STRICT=1 sh tests/tools/install_test.sh

slurm-check:
	@$(MAKE) -s deps DEBIAN_PACKAGES="$(SLURM_PACKAGES)"
	@sh tests/tools/slurm_check.sh

# design search's planted-truth checks at larger budgets (tests/design_planted.lua:
# A/A over 100 seeds, known rates over 2000; make test runs them small)
design-check:
	@$(MAKE) -s all
	@./cheskers tests/design_planted.lua large

check-all:
	@$(MAKE) -s test
	@$(MAKE) -s fuzz-short
	@$(MAKE) -s sanitize
	@$(MAKE) -s valgrind
	@$(MAKE) -s install-test
	@$(MAKE) -s slurm-check
	@$(MAKE) -s html-check
	@$(MAKE) -s design-check
	@CHAOS_KILLS=20 sh tests/program/chaos_test.sh
	@DOCS_ALL=1 sh tests/tools/docs_test.sh

# the 5-piece studies (scripts/puzzles/studies5.lua) checked against a whole
# 5-piece set: make check-studies5 TB=DIR (else $CHESKERS_TB), DIR built by
# cheskers tb build --pieces 5 --dir DIR (about an hour); make test checks
# them without it (tests/library/studies_spec.lua)
TB ?= $(CHESKERS_TB)
check-studies5:
	@$(MAKE) -s all
	@if [ -z "$(TB)" ]; then echo "make check-studies5: give TB=DIR, a folder of every table up to 5 pieces (cheskers tb build --pieces 5 --dir DIR)"; exit 2; fi
	./cheskers check --quiet --tb "$(TB)" scripts/puzzles/studies5.lua

# the experiment report's HTML page in a real browser (headless chromium)
html-check:
	@$(MAKE) -s deps DEBIAN_PACKAGES="$(DEBIAN_PACKAGES) chromium"
	@$(MAKE) -s all
	@sh tests/tools/html_report_check.sh
