# ptxi — PTX interpreter for the Tensor Memory Accelerator.
#
# Sources are picked up per folder by wildcard, so adding a file needs no
# Makefile edit.  Generated C (re2c, Bison) goes to $(B)/gen, never into git.
#
#   make            build ./ptxi (symlink to build/ptxi)
#   make test       unit tests + conformance suites, ends "N passed, N failed"
#   make asan       the same tests built with ASan + UBSan (build-asan/)
#   make bench      interpreter / TMA benchmarks;  make bench-parse: front end
#   make fuzz       the front end's libFuzzer target (clang) in $(B)/fuzz/;
#                   make fuzz-all: all three (front end, launch files, execution);
#                   make fuzz-run FUZZ_SECONDS=N runs each (not part of `make test`)
#   make install PREFIX=/usr/local DESTDIR=   the binary, libptxi.a/.so, ptxi.h,
#                   ptxi.pc, the man page, bash completion;  make uninstall

CC      ?= cc
B       ?= build
PREFIX  ?= /usr/local
RE2C    ?= re2c
BISON   ?= bison
OPT     ?= -O2 -g
CFLAGS  ?= $(OPT)
# -fPIC: the same objects make libptxi.a and libptxi.so; hidden visibility
# keeps the .so's exports to the ptxi_* API (launch/ptxi.h) and lets calls
# inside the library bind directly.
CFLAGS  += -std=c17 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -MMD -MP -fPIC -fvisibility=hidden
VERSION := $(shell sed -n 's/^\#define PTXI_VERSION "\(.*\)"/\1/p' launch/ptxi.h)
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
MANDIR  ?= $(PREFIX)/share/man
COMPDIR ?= $(PREFIX)/share/bash-completion/completions
CPPFLAGS += -I. -I$(B)/gen
LDLIBS  += -ljansson -ledit -lpthread -lm

LIB_DIRS := ir interp tma memory tc launch check sfu contract
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

.PHONY: all test asan bench bench-parse install uninstall clean fuzz fuzz-run fuzz-all fuzz-seeds fuzz-ci
all: ptxi $(B)/libptxi.so

# ./ptxi is the default build's binary; `make asan` (B=build-asan) leaves
# it alone, so it never becomes the slower sanitizer build
ptxi: $(B)/ptxi
	@if [ "$(B)" = build ]; then ln -sf build/ptxi ptxi; fi

$(B)/ptxi: $(CLI_OBJ) $(B)/libptxi.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(B)/libptxi.a $(LDLIBS)

$(B)/libptxi.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(B)/libptxi.so: $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libptxi.so.0 -o $@ $^ -ljansson -lpthread -lm

$(B)/gen/%.c: %.re
	@mkdir -p $(@D)
	$(RE2C) -W --no-generation-date -o $@ $<

$(B)/gen/%.c $(B)/gen/%.h: %.y
	@mkdir -p $(@D)
	$(BISON) -Wall --header=$(B)/gen/$*.h -o $(B)/gen/$*.c $<

# Every object may include the Bison header.
$(LIB_OBJ) $(CLI_OBJ): | $(GEN_H) $(GEN_C)

# Objects are rebuilt when the compiler flags change (e.g. when -fPIC came in).
FLAGS_NOW := $(CC) $(CPPFLAGS) $(CFLAGS)
$(B)/.flags: FORCE
	@mkdir -p $(@D)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(FLAGS_NOW)' ]; then echo '$(FLAGS_NOW)' > $@; fi
$(LIB_OBJ) $(CLI_OBJ): $(B)/.flags
.PHONY: FORCE

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

test: ptxi $(UNIT_BIN) $(B)/libptxi.so
	@PTXI=$(B)/ptxi B=$(B) sh tests/run.sh

asan:
	$(MAKE) B=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" test

bench: ptxi $(BENCH_BIN)
	@B=$(B) PTXI=$(B)/ptxi sh bench/run.sh

bench-parse: ptxi
	@B=$(B) PTXI=$(B)/ptxi sh bench/parse.sh

install: ptxi $(B)/libptxi.a $(B)/libptxi.so
	install -D -m 755 $(B)/ptxi $(DESTDIR)$(PREFIX)/bin/ptxi
	install -D -m 644 $(B)/libptxi.a $(DESTDIR)$(LIBDIR)/libptxi.a
	install -D -m 755 $(B)/libptxi.so $(DESTDIR)$(LIBDIR)/libptxi.so.$(VERSION)
	ln -sf libptxi.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libptxi.so.0
	ln -sf libptxi.so.0 $(DESTDIR)$(LIBDIR)/libptxi.so
	install -D -m 644 launch/ptxi.h $(DESTDIR)$(INCDIR)/ptxi.h
	@mkdir -p $(DESTDIR)$(LIBDIR)/pkgconfig
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(patsubst $(PREFIX)%,$${prefix}%,$(LIBDIR))|' \
	  -e 's|@INCDIR@|$(patsubst $(PREFIX)%,$${prefix}%,$(INCDIR))|; s|@VERSION@|$(VERSION)|' \
	  docs/ptxi.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/ptxi.pc
	install -D -m 644 docs/ptxi.1 $(DESTDIR)$(MANDIR)/man1/ptxi.1
	install -D -m 644 docs/ptxi.bash-completion $(DESTDIR)$(COMPDIR)/ptxi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ptxi $(DESTDIR)$(LIBDIR)/libptxi.a $(DESTDIR)$(LIBDIR)/libptxi.so \
	  $(DESTDIR)$(LIBDIR)/libptxi.so.0 $(DESTDIR)$(LIBDIR)/libptxi.so.$(VERSION) $(DESTDIR)$(INCDIR)/ptxi.h \
	  $(DESTDIR)$(LIBDIR)/pkgconfig/ptxi.pc $(DESTDIR)$(MANDIR)/man1/ptxi.1 $(DESTDIR)$(COMPDIR)/ptxi

clean:
	rm -rf build build-asan ptxi

# ---- fuzzing under libFuzzer (clang only) -----------------------------------
# `make fuzz` builds $(B)/fuzz/fuzz_parse: the front-end objects (lexer,
# parser, ir) rebuilt in $(B)/fuzz/ with clang, ASan + UBSan and libFuzzer's
# coverage instrumentation; `make fuzz-all` also the launch-file and
# execution targets (fuzz/README.md).  `make fuzz-run` runs each for
# FUZZ_SECONDS over its seeds (PTX modules split one function each, or the
# repository's launch files); findings go to $(B)/fuzz/art-NAME/.  Not part
# of `make test`: a fuzzing run is neither quick nor reproducible (.ci/run
# runs `make fuzz-ci` for a minute per target).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 120
FUZZ_FLAGS   ?=
FUZZ_B       := $(B)/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FE_SRC       := $(wildcard ir/*.c lexer/*.c parser/*.c tc/*.c)
FE_OBJ       := $(patsubst %.c,$(B)/%.o,$(FE_SRC)) $(patsubst $(B)/gen/%.c,$(B)/gen/%.o,$(GEN_C))

fuzz:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { \
	  echo "make fuzz: '$(FUZZ_CC)' not found; the libFuzzer target needs clang" \
	       "(apt-get install clang, or FUZZ_CC=clang-NN).  Without clang:" \
	       "python3 fuzz/mutate.py drives ptxi check under a sanitizer build (fuzz/README.md)." >&2; \
	  exit 1; }
	@$(MAKE) --no-print-directory B=$(FUZZ_B) CC=$(FUZZ_CC) \
	  OPT="-O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link" LDFLAGS="$(FUZZ_SAN)" $(FUZZ_B)/fuzz_parse

# (made by the sub-make above, where B is $(B)/fuzz)
$(B)/fuzz_parse: fuzz/fuzz_parse.c $(FE_OBJ)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(FE_OBJ) -lm
$(B)/fuzz_launch $(B)/fuzz_exec: $(B)/fuzz_%: fuzz/fuzz_%.c $(LIB_OBJ)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_OBJ) $(LDLIBS)

# The launch-file and execution targets (fuzz/fuzz_launch.c, fuzz_exec.c).
FUZZ_TARGETS := fuzz_parse fuzz_launch fuzz_exec
fuzz-all:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "make fuzz-all: '$(FUZZ_CC)' not found (apt-get install clang)" >&2; exit 1; }
	@$(MAKE) --no-print-directory B=$(FUZZ_B) CC=$(FUZZ_CC) \
	  OPT="-O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link" LDFLAGS="$(FUZZ_SAN)" \
	  $(patsubst %,$(FUZZ_B)/%,$(FUZZ_TARGETS))

# Seeds: PTX modules (split one function each) for parse and exec; the
# repository's launch files, one case per line, for launch.
fuzz-seeds:
	@rm -rf $(FUZZ_B)/seeds $(FUZZ_B)/seeds-launch && mkdir -p $(FUZZ_B)/seeds $(FUZZ_B)/seeds-launch
	@if command -v python3 >/dev/null 2>&1; then python3 fuzz/mutate.py --split-only $(FUZZ_B)/seeds; \
	 else cp tests/diag/*.ptx tests/diag/good/*.ptx $(FUZZ_B)/seeds/; fi
	@i=0; for f in $$(find tests/launch samples tests/hw/triton -name '*.json' -o -name '*.jsonl' | sort); do \
	  i=$$((i+1)); head -c 65536 "$$f" > $(FUZZ_B)/seeds-launch/seed$$i.jsonl; done

# make fuzz-run: every target for FUZZ_SECONDS each (corpus kept in
# $(FUZZ_B)/corpus-NAME); make fuzz-ci: the same, printing PASS/FAIL
# fuzz/NAME lines (.ci/run).  Findings: $(FUZZ_B)/crash-*, timeout-*, leak-*.
fuzz-run fuzz-ci: fuzz-all fuzz-seeds
	@st=0; for t in $(FUZZ_TARGETS); do \
	  seeds=$(FUZZ_B)/seeds; [ $$t = fuzz_launch ] && seeds=$(FUZZ_B)/seeds-launch; \
	  mkdir -p $(FUZZ_B)/corpus-$$t $(FUZZ_B)/art-$$t; \
	  echo "== $$t: $(FUZZ_SECONDS) s"; \
	  if $(FUZZ_B)/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=20 -max_len=65536 -rss_limit_mb=4096 \
	       -print_final_stats=1 -artifact_prefix=$(FUZZ_B)/art-$$t/ $(FUZZ_FLAGS) \
	       $(FUZZ_B)/corpus-$$t $$seeds > $(FUZZ_B)/$$t.log 2>&1; then \
	    echo "PASS fuzz/$$t: $$(grep -o 'stat::number_of_executed_units: *[0-9]*' $(FUZZ_B)/$$t.log | grep -o '[0-9]*$$') runs, no finding"; \
	  else \
	    st=1; echo "FAIL fuzz/$$t: finding in $(FUZZ_B)/art-$$t/ ($$(ls $(FUZZ_B)/art-$$t | head -3 | tr '\n' ' '))"; \
	    grep -m1 -A12 'ERROR\|==[0-9]*==\|runtime error\|deadly signal\|timeout' $(FUZZ_B)/$$t.log | sed 's/^/    /'; \
	  fi; \
	done; exit $$st

-include $(shell find $(B) -name '*.d' 2>/dev/null)
