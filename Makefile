# kladder — plain Makefile. `make` builds build/kladder and build/kbench (the GPU benchmarks);
# build/libkladder.so is the engine and the database as a C library (engine/api/kladder.h);
# `make run` and `make test` are the two commands of the README and install what is missing
# first (scripts/deps.sh).
#
# Sources are found by folder, so a new file needs no edit here. Build variants live in their
# own trees: BUILD=build (default) and BUILD=build/asan (ASan+UBSan, `make asan`).

BUILD    ?= build
CC       ?= cc
CXX      ?= c++
PKG      ?= pkg-config
SANITIZE ?=

VERSION  := 0.1.0
COMMIT   := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wold-style-definition -Wwrite-strings -Wcast-qual -Wpointer-arith -Wundef \
        -Wformat=2 -Wformat-security -Wnull-dereference -Wdouble-promotion -Wfloat-equal \
        -Wmissing-noreturn -Werror=implicit-function-declaration -Wvla
ifneq ($(CI),)
WARN += -Werror
endif

NCURSES_CFLAGS := $(shell $(PKG) --cflags ncursesw 2>/dev/null)
NCURSES_LIBS   := $(shell $(PKG) --libs ncursesw 2>/dev/null || echo -lncursesw -ltinfo)
CJSON_CFLAGS   := $(shell $(PKG) --cflags libcjson 2>/dev/null)

# V=1 shows every command; by default only errors and warnings are printed.
Q        := $(if $(V),,@)
OPT      ?= -O2 -g
# -fPIC: the same objects make the binary and build/libkladder.so; without semantic
# interposition the compiler still inlines and calls directly within the library
CFLAGS   += -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) $(WARN) -fPIC -fno-semantic-interposition \
            -MMD -MP -I. -I$(BUILD)/gen \
            $(CJSON_CFLAGS) -DKL_VERSION='"$(VERSION)"' -DKL_COMMIT='"$(COMMIT)"' $(SANITIZE)
LDFLAGS  += $(SANITIZE)
LDLIBS   += $(NCURSES_LIBS) -lsqlite3 -lcjson -lcurl -lexpat -ldl -lpthread -lm

LIB_DIRS := common casedb importers engine
# every .c under these folders and their rooms (engine/backend/, tui/cli/, ...)
LIB_SRC  := $(sort $(shell find $(LIB_DIRS) tui -name '*.c' ! -path tui/main.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/embedded.o
MAIN_OBJ := $(BUILD)/obj/tui/main.o

# Everything the binary carries inside it (DESIGN: kernels, suites, data, default theme).
EMBED_FILES := $(sort $(wildcard data/*.json data/schema/*.json kernels/*.h kernels/*.kl \
                 kernels/*.cu kernels/*.hip kernels/suites/*.json themes/*.theme \
                 kernels/captures/*.safetensors kernels/captures/*.npy \
                 kernels/hosts/*.json kernels/tables/*.csv kernels/tables/*.json \
                 kernels/tools/*.py) \
                 $(shell find kernels/py -name '*.py' 2>/dev/null))

UNIT_SRC   := $(wildcard tests/unit/test_*.c)
UNIT_BINS  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TEST_HELP  := $(wildcard tests/unit/helpers/*.c)
TEST_HOBJ  := $(TEST_HELP:%.c=$(BUILD)/obj/%.o)

.PHONY: all run test test-quick asan unit clean deps deps-test install python-check man
all: $(BUILD)/kladder $(BUILD)/kbench $(BUILD)/libkladder.so

$(BUILD)/kladder: $(MAIN_OBJ) $(LIB_OBJ)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The GPU benchmarks (bench/kbench.c) are built with everything else, under the same warnings,
# so a change to the engine that breaks them shows at once; they need no TUI.
$(BUILD)/kbench: $(BUILD)/obj/bench/kbench.o $(filter-out $(BUILD)/obj/tui/%,$(LIB_OBJ))
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The library: everything but the interface, exporting only kladder.h's functions. It looks
# for the libraries it loads in lib/ beside itself first (a device bundle,
# scripts/device-bundle.sh), then where the system keeps them; an RPATH, not a RUNPATH, so that
# their own dependencies are found there too. Only the libraries it uses (no curses).
$(BUILD)/libkladder.so: $(filter-out $(BUILD)/obj/tui/%,$(LIB_OBJ)) engine/api/kladder.map
	$(Q)$(CC) $(LDFLAGS) -shared -Wl,--version-script=engine/api/kladder.map \
	    -Wl,--disable-new-dtags,-rpath,'$$ORIGIN/lib',--as-needed -o $@ $(filter %.o,$^) $(LDLIBS)

$(BUILD)/obj/tui/%.o: CFLAGS += $(NCURSES_CFLAGS)

# The objects are position-independent (they make the binary and build/libkladder.so): a tree
# built before they were is rebuilt once, through this stamp.
PIC_STAMP := $(BUILD)/obj/.pic
$(PIC_STAMP):
	@mkdir -p $(dir $@)
	@touch $@

$(BUILD)/obj/%.o: %.c $(PIC_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/embedgen: scripts/embedgen.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -o $@ $<

$(BUILD)/gen/embedded.c: $(BUILD)/embedgen $(EMBED_FILES) Makefile
	@mkdir -p $(dir $@)
	$(Q)$(BUILD)/embedgen $@ $(EMBED_FILES)

# The built-in ladder is every engine/rungs/rungN.c (N a number): engine/tables/ladder.c includes
# the list scripts/ladder-gen.sh writes from them, so a new rung is its file alone. The list is
# checked on every make and rewritten only when it changes (a rung file added or removed).
RUNG_SRC := $(sort $(wildcard engine/rungs/rung[0-9].c engine/rungs/rung[0-9][0-9].c))
$(BUILD)/gen/ladder.inc: scripts/ladder-gen.sh FORCE
	@mkdir -p $(dir $@)
	$(Q)scripts/ladder-gen.sh $@ $(RUNG_SRC)
$(BUILD)/obj/engine/tables/ladder.o: $(BUILD)/gen/ladder.inc
.PHONY: FORCE
FORCE:

$(BUILD)/obj/gen/embedded.o: $(BUILD)/gen/embedded.c $(PIC_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -fPIC -I. -c -o $@ $<

# The unit tests link the library's objects from an archive: each takes only the objects it
# needs (a link of every object, the embedded files among them, cost a second a test under
# the sanitizers, a hundred tests twice).
$(BUILD)/libkladder-tests.a: $(LIB_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(BUILD)/tests/%: tests/unit/%.c $(TEST_HOBJ) $(BUILD)/libkladder-tests.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(NCURSES_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

unit: $(UNIT_BINS)

deps:
	@scripts/deps.sh

deps-test:
	@scripts/deps.sh --test

run: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/kladder

asan:
	@$(MAKE) --no-print-directory BUILD=build/asan OPT='-O1 -g -fno-omit-frame-pointer' \
	    SANITIZE='-fsanitize=address,undefined -fno-sanitize-recover=undefined' all unit

# Both trees are built by one make with one job per core (the sanitizer tree's compiles fill the
# cores while the normal tree links); the tests then run side by side (tests/run.sh -j).
NPROC := $(shell nproc 2>/dev/null || echo 2)

test: deps-test
	@$(MAKE) --no-print-directory -j$(NPROC) all unit asan
	@tests/run.sh

# The edit loop's tier: the normal build only, without the tests tests/test-times.tsv times as
# slow (tests/README.md).
test-quick: deps-test
	@$(MAKE) --no-print-directory -j$(NPROC) all unit
	@tests/run.sh --quick

PREFIX ?= /usr/local
# Can PYTHON (default: the python3 first on PATH) run the Python package and its pytest plugin?
# One line naming the interpreter and what it lacks (scripts/python-check.sh).
PYTHON ?= python3
python-check:
	@scripts/python-check.sh $(PYTHON)

# The man page's option lists from the option tables (scripts/man-options.sh); commit the result.
# tests/importers/options_drift.sh fails while the page and the tables differ.
man: $(BUILD)/kladder
	scripts/man-options.sh $(BUILD)/kladder docs/kladder.1 >$(BUILD)/kladder.1.tmp
	mv $(BUILD)/kladder.1.tmp docs/kladder.1

install: $(BUILD)/kladder
	install -D -m 0755 $(BUILD)/kladder $(DESTDIR)$(PREFIX)/bin/kladder
	install -D -m 0644 docs/kladder.1 $(DESTDIR)$(PREFIX)/share/man/man1/kladder.1
	install -D -m 0644 completions/kladder.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/kladder
	install -D -m 0644 completions/_kladder $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_kladder
	install -D -m 0644 completions/kladder.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/kladder.fish

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
