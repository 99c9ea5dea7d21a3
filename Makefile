# ptxi — PTX interpreter for the Tensor Memory Accelerator.
#
# Sources are picked up per folder by wildcard, so adding a file needs no
# Makefile edit.  Generated C (re2c, Bison) goes to $(B)/gen, never into git.
#
#   make            build ./ptxi (symlink to build/ptxi)
#   make test       unit tests + conformance suites, ends "N passed, N failed"
#   make asan       the same tests built with ASan + UBSan (build-asan/)
#   make bench      interpreter / TMA benchmarks;  make bench-parse: front end
#   make install PREFIX=/usr/local

CC      ?= cc
B       ?= build
PREFIX  ?= /usr/local
RE2C    ?= re2c
BISON   ?= bison
OPT     ?= -O2 -g
CFLAGS  ?= $(OPT)
CFLAGS  += -std=c17 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -MMD -MP
CPPFLAGS += -I. -I$(B)/gen
LDLIBS  += -ljansson -ledit -lpthread -lm

LIB_DIRS := ir interp tma memory
LIB_SRC  := $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c)) $(wildcard lexer/*.c) $(wildcard parser/*.c)
RE_SRC   := $(wildcard lexer/*.re)
Y_SRC    := $(wildcard parser/*.y)
GEN_C    := $(patsubst %.re,$(B)/gen/%.c,$(RE_SRC)) $(patsubst %.y,$(B)/gen/%.c,$(Y_SRC))
GEN_H    := $(patsubst %.y,$(B)/gen/%.h,$(Y_SRC))
LIB_OBJ  := $(patsubst %.c,$(B)/%.o,$(LIB_SRC)) $(patsubst $(B)/gen/%.c,$(B)/gen/%.o,$(GEN_C))
CLI_OBJ  := $(patsubst %.c,$(B)/%.o,$(wildcard cli/*.c))
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRC))
BENCH_SRC := $(wildcard bench/*.c)
BENCH_BIN := $(patsubst bench/%.c,$(B)/bench/%,$(BENCH_SRC))

.PHONY: all test asan bench bench-parse install clean
all: ptxi

ptxi: $(B)/ptxi
	ln -sf $(B)/ptxi ptxi

$(B)/ptxi: $(CLI_OBJ) $(B)/libptxi.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(B)/libptxi.a $(LDLIBS)

$(B)/libptxi.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(B)/gen/%.c: %.re
	@mkdir -p $(@D)
	$(RE2C) -W --no-generation-date -o $@ $<

$(B)/gen/%.c $(B)/gen/%.h: %.y
	@mkdir -p $(@D)
	$(BISON) -Wall --header=$(B)/gen/$*.h -o $(B)/gen/$*.c $<

# Every object may include the Bison header.
$(LIB_OBJ) $(CLI_OBJ): | $(GEN_H) $(GEN_C)

$(B)/gen/%.o: $(B)/gen/%.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-unused-function -Wno-sign-compare -c -o $@ $<

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/tests/%: tests/unit/%.c $(B)/libptxi.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(B)/libptxi.a $(LDLIBS)

$(B)/bench/%: bench/%.c $(B)/libptxi.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(B)/libptxi.a $(LDLIBS)

units: $(UNIT_BIN)

test: ptxi $(UNIT_BIN)
	@PTXI=$(B)/ptxi B=$(B) sh tests/run.sh

asan:
	$(MAKE) B=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" test

bench: ptxi $(BENCH_BIN)
	@B=$(B) PTXI=$(B)/ptxi sh bench/run.sh

bench-parse: ptxi
	@B=$(B) PTXI=$(B)/ptxi sh bench/parse.sh

install: ptxi
	install -D -m 755 $(B)/ptxi $(DESTDIR)$(PREFIX)/bin/ptxi

clean:
	rm -rf build build-asan ptxi

-include $(shell find $(B) -name '*.d' 2>/dev/null)
